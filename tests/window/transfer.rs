//! Export and import as the security review asked (F8, F9): a slow import leaves the window
//! answering and shows that it works; the page cannot name a file itself; an import applies
//! only what its preview showed.

use std::path::Path;

use serde_json::{json, Value};

use crate::fixtures::nsu_fixture_path;
use crate::webdriver::Session;
use crate::{
    begin, choose_file_in_native_dialog, create_game, open, open_dark, shot, shots_at_both_widths, visible_windows,
    wait_game_row, OPEN_TITLE, SAVE_TITLE,
};

/// How many copies of the fixture's first character the large file adds to its own.
const CHARACTERS: usize = 2000;
const FIXTURE_CHARACTERS: usize = 2;

/// A valid NSU game file with `CHARACTERS` more full sheets (a few MB), made from the fixture.
fn large_game_file(path: &Path) {
    let fixture = nsu_fixture_path();
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(fixture).expect("read the fixture")).unwrap();
    let game = &mut doc["data"]["games"][0];
    game["name"] = json!("Crowded Valley");
    // The fixture's own characters stay (its world names them); the villagers join them.
    let characters = game["characters"].as_array_mut().expect("the fixture's characters");
    assert_eq!(characters.len(), FIXTURE_CHARACTERS);
    let model = characters[0].clone();
    characters.extend((0..CHARACTERS).map(|i| {
        let mut c = model.clone();
        c["id"] = json!(format!("6f1e0c2a-0000-4000-8000-{i:012x}"));
        c["name"] = json!(format!("Villager {i:04}"));
        c
    }));
    std::fs::write(path, serde_json::to_vec(&doc).unwrap()).expect("write the large file");
}

/// Guards F8 of the security review: commands run off the main thread. While an import of a
/// large file waits for another program's write lock, the page still answers scripts and
/// shows the import working (the button waits, a status says what happens); once the lock is
/// let go, the import lands. Nothing here measures time.
#[test]
fn an_import_waiting_for_the_database_leaves_the_window_answering() {
    let (_window, scratch, db_path) = begin("busy-import");
    let file = scratch.path("Crowded Valley.sheetkeeper.json");
    large_game_file(&file);
    let db = db_path;

    let session = open_dark(&db);
    session.click("#import-button");
    session.wait_for("#import-button[aria-busy='true']");
    choose_file_in_native_dialog(OPEN_TITLE, &file, false);
    session.wait_for("#import-dialog");
    let summary = session.wait_for("#import-summary").text();
    let new = 1 + FIXTURE_CHARACTERS + CHARACTERS;
    assert!(summary.contains(&format!("{new} new")), "the game and everyone in it are new: {summary:?}");
    shots_at_both_widths(&session, "import-preview-large-dark");

    // Another program (here: this test) holds the database's write lock.
    let other = rusqlite::Connection::open(&db).expect("open the app's database");
    other.execute_batch("BEGIN IMMEDIATE").expect("take the write lock");

    session.click("#import-confirm");
    session.wait_for("#import-confirm[aria-busy='true']");
    let answer = session.execute(
        "return [document.getElementById('import-status').textContent, \
                 document.getElementById('import-cancel').disabled];",
        json!([]),
    );
    let status = answer[0].as_str().unwrap_or_default().to_string();
    assert!(status.starts_with("Importing") && status.contains("waits"), "the status says what happens: {status:?}");
    assert_eq!(answer[1], json!(true), "nothing else can be pressed meanwhile");
    shot(&session, "import-waiting-dark-1280");

    other.execute_batch("ROLLBACK").expect("let the lock go");
    session.wait_gone("#import-dialog");
    let toast = session.wait_for("#toast").text();
    assert!(toast.contains("Imported"), "the result is shown: {toast:?}");
    session.wait_gone("#work-status");
    assert_eq!(session.find("#import-button").unwrap().attribute("aria-busy"), None);
    wait_game_row(&session, "Crowded Valley");
    drop(session);

    let count: i64 = other.query_row("SELECT count(*) FROM characters", [], |r| r.get(0)).unwrap();
    assert_eq!(count as usize, FIXTURE_CHARACTERS + CHARACTERS);
}

/// Tries each `(command, args)` from the page with the UI's own `invoke`; returns each one's
/// error text, or its result as `Ok`.
fn try_from_the_page(session: &Session, tries: &[(&str, Value)]) -> Vec<Result<Value, String>> {
    let script = r#"
        const [tries] = arguments;
        const done = arguments[arguments.length - 1];
        const { invoke } = window.__TAURI__.core;
        (async () => {
          const out = [];
          for (const [command, args] of tries) {
            try {
              out.push({ ok: (await invoke(command, args)) ?? null });
            } catch (e) {
              out.push({ error: typeof e === "string" ? e : JSON.stringify(e) });
            }
          }
          done(out);
        })();
    "#;
    let tries: Vec<Value> = tries.iter().map(|(command, args)| json!([command, args])).collect();
    let out = session.execute_async(script, json!([tries]));
    out.as_array()
        .expect("one answer per try")
        .iter()
        .map(|a| match a.get("error") {
            Some(e) => Err(e.as_str().unwrap_or_default().to_string()),
            None => Ok(a["ok"].clone()),
        })
        .collect()
}

/// Guards F9 of the security review: the page cannot make the app write or read a file it
/// names. The export and import commands take no path, a made-up token opens nothing, and
/// the dialog (and any file) plugin commands are not granted to the page.
#[test]
fn the_page_cannot_name_a_file_to_write_or_read() {
    let (_window, scratch, db_path) = begin("no-paths");
    let target = scratch.path("written-by-the-page.json");
    let readable = nsu_fixture_path();

    let session = open(&db_path);
    let game = create_game(&session, "Paths", "nsu");
    let globals =
        session.execute("const t = window.__TAURI__; return [typeof t.core.invoke, typeof t.core.Channel];", json!([]));
    assert_eq!(globals, json!(["function", "function"]), "the UI's invoke and progress channels are there");

    let made_up = "5f0c6a43-9d1e-4a3b-8c2d-1e2f3a4b5c6d";
    let (target_text, readable_text) = (target.to_str().unwrap(), readable.to_str().unwrap());
    let tries: Vec<(&str, Value, &str)> = vec![
        ("export_all", json!({"path": target_text}), "missing required key fileName"),
        ("export_game", json!({"id": game, "path": target_text}), "missing required key fileName"),
        ("import_preview", json!({"path": readable_text, "asCopy": false}), "missing required key token"),
        (
            "import_apply",
            json!({"path": readable_text, "asCopy": false, "replaceConflicts": false}),
            "missing required key token",
        ),
        ("import_apply", json!({"token": readable_text, "asCopy": false, "replaceConflicts": false}), "no longer open"),
        ("import_apply", json!({"token": made_up, "asCopy": false, "replaceConflicts": false}), "no longer open"),
        ("import_preview", json!({"token": made_up, "asCopy": true}), "no longer open"),
        ("plugin:dialog|save", json!({"options": {"defaultPath": target_text}}), "not allowed"),
        ("plugin:dialog|open", json!({"options": {"defaultPath": readable_text}}), "not allowed"),
        ("plugin:fs|write_text_file", json!({"path": target_text, "data": "x"}), "not allowed"),
    ];
    let commands: Vec<(&str, Value)> = tries.iter().map(|(c, a, _)| (*c, a.clone())).collect();
    let results = try_from_the_page(&session, &commands);
    assert_eq!(results.len(), tries.len());
    for ((command, args, expected), result) in tries.iter().zip(&results) {
        match result {
            Err(error) => assert!(error.contains(expected), "{command} {args}: {error:?} should say {expected:?}"),
            Ok(value) => panic!("{command} {args} was not refused: {value}"),
        }
    }
    assert!(!target.exists(), "nothing was written where the page said");
    assert!(visible_windows(SAVE_TITLE).is_empty() && visible_windows(OPEN_TITLE).is_empty(), "no dialog opened");
    let games: Vec<String> = session.find_all(".game-row .game-name").iter().map(|e| e.text()).collect();
    assert_eq!(games, vec!["Paths".to_string()], "nothing was imported");
}

/// The import applies what the person saw: a file changed after its preview is refused with
/// words that say so, and nothing is imported.
#[test]
fn a_file_changed_after_its_preview_is_not_imported() {
    let (_window, scratch, db_path) = begin("changed-file");
    let file = scratch.path("Lanterns.sheetkeeper.json");
    let fixture = nsu_fixture_path();
    let text = std::fs::read_to_string(fixture).expect("read the fixture");
    std::fs::write(&file, &text).expect("write the file");

    let session = open(&db_path);
    session.click("#import-button");
    choose_file_in_native_dialog(OPEN_TITLE, &file, false);
    let preview = session.wait_for("#import-items").text();
    assert!(preview.contains("Wren Ashdown"), "{preview:?}");

    std::fs::write(&file, text.replace("Wren Ashdown", "Wren Someone-Else")).expect("change the file");
    session.click("#import-confirm");
    session.wait_gone("#import-dialog");
    let message = session.wait_for("#error-message").text();
    assert!(
        message.starts_with("The file was not imported.") && message.contains("changed since its preview"),
        "the error says why: {message:?}"
    );
    assert!(session.find_all(".game-row").is_empty(), "nothing was imported");
    session.wait_gone("#work-status");
    assert_eq!(session.find("#import-button").unwrap().attribute("aria-busy"), None);
}
