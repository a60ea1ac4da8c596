//! What a received file or a second process may not do to a table's data (security review
//! F1, F2, F4, F7): move a character its game still names, tear an export, apply a stale
//! plan, or write a backup that cannot be restored.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use serde_json::Value;
use sheetkeeper::services::{self, ExportScope, ImportOptions};
use sheetkeeper::{Error, Store};
use uuid::Uuid;

use crate::support::files::golden;
use crate::support::{bytes_on_disk, fixture, game_with, imported, Scratch};

/// A character file made from a golden game file: the character `name` put in a new game,
/// with a higher revision — what a player receives when someone reuses an id.
fn moved_in_a_file(s: &Scratch, game_file: &str, name: &str) -> PathBuf {
    let mut doc: Value = golden(game_file);
    doc["kind"] = "character".into();
    let game = &mut doc["data"]["games"][0];
    let obj = game.as_object_mut().unwrap();
    for part in ["nsu_world", "penny_table", "mezzo_table", "scattershot_table", "journal"] {
        obj.remove(part);
    }
    let mut character =
        obj["characters"].as_array().unwrap().iter().find(|c| c["name"] == name).cloned().expect("in the file");
    character["revision"] = (character["revision"].as_i64().unwrap() + 10).into();
    if let Some(sheet) = character.get_mut("mezzo") {
        sheet["claimed_by"] = Value::Null;
    }
    if game_file.starts_with("penny") {
        character["penny_pile"] = 0.into();
        character["penny_ledger"] = serde_json::json!([]);
    }
    obj.insert("characters".into(), Value::Array(vec![character]));
    game["id"] = Uuid::new_v4().to_string().into();
    game["name"] = "Another table".into();
    let path = s.file(&format!("{name}.sheetkeeper.json"));
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    path
}

/// Exports everything and imports it into a fresh database: the promise every backup keeps.
fn backup_restores(store: &Store, s: &Scratch, name: &str) {
    let file = s.file(name);
    services::export(store, ExportScope::All, &file).unwrap();
    let elsewhere = Scratch::new();
    services::import(&mut elsewhere.open(), &file, ImportOptions::default())
        .unwrap_or_else(|e| panic!("{name} does not restore: {e}"));
}

/// (golden game file, character, what keeps it in its game)
const HELD: &[(&str, &str, &str)] = &[
    ("nsu-game.sheetkeeper.json", "Wren Ashdown", "has scouted cards of its map"),
    ("nsu-game.sheetkeeper.json", "Tobias Reed", "owns a project clock"),
    ("mezzo-game.sheetkeeper.json", "Mira Vell", "is claimed by a player"),
    ("scattershot-game.sheetkeeper.json", "Gizmo Vance", "is in mechanical play"),
];

#[test]
fn a_file_cannot_move_a_character_its_game_still_names() {
    for (game_file, name, words) in HELD {
        let (s, store) = imported(game_file);
        let file = moved_in_a_file(&s, game_file, name);
        drop(store);
        let before = bytes_on_disk(&s.db());
        let mut store = s.open();
        let preview = services::import_preview(&store, &file, false).unwrap_err();
        let err =
            services::import(&mut store, &file, ImportOptions { replace_conflicts: true, as_copy: false }).unwrap_err();
        for e in [&preview, &err] {
            let Error::BadFile { problems, .. } = e else { panic!("{name}: expected a bad file, got {e}") };
            assert!(
                problems.iter().any(|p| p.path == format!("character “{name}”") && p.message.contains(words)),
                "{name}: {problems:#?}"
            );
        }
        drop(store);
        assert_eq!(bytes_on_disk(&s.db()), before, "{name}: nothing changed");
        let store = s.open();
        assert!(services::check(&store).unwrap().ok);
        backup_restores(&store, &s, "after.sheetkeeper.json");
        // As a copy it lands beside the original.
        drop(store);
        let mut store = s.open();
        services::import(&mut store, &file, ImportOptions { as_copy: true, ..Default::default() }).unwrap();
        backup_restores(&store, &s, "copied.sheetkeeper.json");
    }
}

#[test]
fn a_character_its_game_does_not_name_moves_with_the_file_and_both_games_still_restore() {
    for (game_file, name) in
        [("mezzo-game.sheetkeeper.json", "Tomas"), ("penny-ante-game.sheetkeeper.json", "Bo Tanner")]
    {
        let (s, mut store) = imported(game_file);
        let file = moved_in_a_file(&s, game_file, name);
        let report = services::import(&mut store, &file, ImportOptions::default()).unwrap();
        assert_eq!((report.counts.new, report.counts.update), (1, 1), "{name}: the new game, the moved character");
        let games = services::list(&store).unwrap();
        let there = games.iter().find(|g| g.game.name == "Another table").unwrap();
        assert!(there.characters.iter().any(|c| c.name == name), "{name} is in the new game");
        assert!(services::check(&store).unwrap().ok, "{name}");
        backup_restores(&store, &s, "moved.sheetkeeper.json");
    }
}

#[test]
fn moving_a_character_its_nsu_world_names_is_refused() {
    let (s, mut store) = imported("nsu-game.sheetkeeper.json");
    let other = services::create_game(&mut store, "Another valley", "nsu").unwrap().game.id;
    let games = services::list(&store).unwrap();
    let wren = games.iter().flat_map(|g| &g.characters).find(|c| c.name == "Wren Ashdown").unwrap().id;
    let err = services::move_character(&mut store, wren, other).unwrap_err();
    assert!(err.to_string().contains("has scouted cards of its map"), "{err}");
    backup_restores(&store, &s, "valley.sheetkeeper.json");
}

/// Moves a character behind the app's back, as a broken import did before.
fn move_by_sql(db: &Path, character: Uuid, to_game: Uuid) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute("UPDATE characters SET game_id = ?2 WHERE id = ?1", [character.to_string(), to_game.to_string()])
        .unwrap();
}

#[test]
fn check_finds_a_character_that_left_a_game_which_still_names_it() {
    for (game_file, system, name) in [
        ("nsu-game.sheetkeeper.json", "nsu", "Wren Ashdown"),
        ("nsu-game.sheetkeeper.json", "nsu", "Tobias Reed"),
        ("mezzo-game.sheetkeeper.json", "mezzo", "Mira Vell"),
    ] {
        let (s, mut store) = imported(game_file);
        let other = services::create_game(&mut store, "Elsewhere", system).unwrap().game.id;
        let games = services::list(&store).unwrap();
        let id = games.iter().flat_map(|g| &g.characters).find(|c| c.name == name).unwrap().id;
        assert!(services::check(&store).unwrap().ok);
        drop(store);
        move_by_sql(&s.db(), id, other);
        let report = services::check(&s.open()).unwrap();
        assert!(!report.ok, "{name}");
        assert!(
            report.files.iter().any(|p| p.contains("its file would be refused") && p.contains("not a character")),
            "{name}: {:#?}",
            report.files
        );
    }
}

#[test]
fn two_conflicting_versions_imported_at_once_apply_one_and_refuse_the_other() {
    for round in 0..6 {
        let (s, store) = imported("character.sheetkeeper.json");
        drop(store);
        let versions: Vec<PathBuf> = ["Version A", "Version B"]
            .iter()
            .map(|name| {
                let mut doc: Value = golden("character.sheetkeeper.json");
                let c = &mut doc["data"]["games"][0]["characters"][0];
                c["name"] = (*name).into();
                c["revision"] = 50.into();
                let path = s.file(&format!("{name}.json"));
                std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
                path
            })
            .collect();
        let start = Arc::new(Barrier::new(2));
        let results: Vec<_> = versions
            .iter()
            .map(|file| {
                // Opened here: a failure to open fails the test instead of leaving the other
                // thread at the barrier for good.
                let (mut store, file, start) = (Store::open(&s.db()).unwrap(), file.clone(), start.clone());
                thread::spawn(move || {
                    start.wait();
                    services::import(&mut store, &file, ImportOptions::default())
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| t.join().unwrap())
            .collect();
        let applied = results.iter().filter(|r| r.as_ref().is_ok_and(|r| r.counts.update == 1)).count();
        let refused = results.iter().filter(|r| matches!(r, Err(Error::Conflict { .. }))).count();
        assert_eq!((applied, refused), (1, 1), "round {round}: {results:?}");
        // Undoing the import brings back Wren, the version before it.
        let mut store = s.open();
        let wren = services::list(&store).unwrap()[0].characters[0].id;
        services::undo_character(&mut store, wren).unwrap();
        assert_eq!(services::list(&store).unwrap()[0].characters[0].name, "Wren Ashdown");
    }
}

#[test]
fn the_same_new_file_imported_six_times_at_once_lands_once() {
    let s = Scratch::new();
    drop(s.open());
    let start = Arc::new(Barrier::new(6));
    let results: Vec<_> = (0..6)
        .map(|_| {
            let (mut store, start) = (Store::open(&s.db()).unwrap(), start.clone());
            thread::spawn(move || {
                start.wait();
                services::import(&mut store, &fixture("mezzo-game.sheetkeeper.json"), ImportOptions::default())
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap().unwrap_or_else(|e| panic!("every import succeeds: {e}")))
        .collect();
    assert_eq!(results.iter().filter(|r| r.counts.new > 0).count(), 1, "{results:?}");
    assert!(results.iter().filter(|r| r.counts.new == 0).all(|r| r.message.starts_with("Nothing to import")));
    let store = s.open();
    assert_eq!(services::list(&store).unwrap().len(), 1);
    assert!(services::check(&store).unwrap().ok);
}

/// Counts one worker as finished when dropped, even by a panic: the workers waiting for the
/// others to finish then stop too, and the test fails instead of waiting for good.
struct Finished(Arc<AtomicUsize>);

impl Drop for Finished {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn writers_imports_and_exports_at_once_leave_every_export_restorable() {
    let (s, mut store) = imported("backup.sheetkeeper.json");
    let game = game_with(&mut store, "Busy", "nsu", &["Ann", "Ben"]);
    services::import(&mut store, &fixture("mezzo-game.sheetkeeper.json"), ImportOptions::default()).unwrap();
    drop(store);
    let rounds = 15;
    let start = Arc::new(Barrier::new(5));
    let done = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    // Imports as copies: a new game, its characters and its table (claims, mechanical play
    // naming the characters) land in one commit.
    for file in ["mezzo-game.sheetkeeper.json", "scattershot-game.sheetkeeper.json"] {
        let (mut store, start, done) = (Store::open(&s.db()).unwrap(), start.clone(), Finished(done.clone()));
        workers.push(thread::spawn(move || {
            start.wait();
            for _ in 0..rounds {
                services::import(&mut store, &fixture(file), ImportOptions { as_copy: true, ..Default::default() })
                    .unwrap();
            }
            drop(done);
            Vec::new()
        }));
    }
    // A writer renaming characters.
    {
        let (mut store, start, ids) =
            (Store::open(&s.db()).unwrap(), start.clone(), game.characters.iter().map(|c| c.id).collect::<Vec<_>>());
        workers.push(thread::spawn(move || {
            start.wait();
            for i in 0..rounds * 2 {
                services::rename_character(&mut store, ids[i % ids.len()], &format!("Name {i}")).unwrap();
                thread::sleep(Duration::from_millis(3));
            }
            Vec::new()
        }));
    }
    // A player giving up a claim and taking it again: the claim is on the table and on the
    // character's sheet, which an export reads at different moments.
    {
        let (mut store, start, done) = (Store::open(&s.db()).unwrap(), start.clone(), done.clone());
        let mezzo = services::list(&store).unwrap().into_iter().find(|g| g.game.name == "The Drowned Cove");
        let game = mezzo.expect("the Mezzo game").game.id;
        let table = services::mezzo_table(&store, game).unwrap();
        let player = table.players.iter().find(|p| !p.claimed_names.is_empty()).unwrap().player.id;
        let mira = table.characters.iter().find(|c| c.element.name == "Mira Vell").unwrap().element.id;
        workers.push(thread::spawn(move || {
            start.wait();
            while done.load(Ordering::SeqCst) < 2 {
                services::mezzo_unclaim(&mut store, game, player, mira).unwrap();
                services::mezzo_claim(&mut store, game, player, mira).unwrap();
                // A breath between moves, as a person takes: a loop that retakes the write
                // lock at once could starve the imports past the busy timeout.
                thread::sleep(Duration::from_millis(3));
            }
            Vec::new()
        }));
    }
    // An exporter of everything, for as long as the imports go on.
    {
        let (store, start, dir, done) =
            (Store::open(&s.db()).unwrap(), start.clone(), s.dir.path().to_owned(), done.clone());
        workers.push(thread::spawn(move || {
            start.wait();
            let mut files = Vec::new();
            while done.load(Ordering::SeqCst) < 2 {
                let file = dir.join(format!("export-{}.sheetkeeper.json", files.len()));
                services::export(&store, ExportScope::All, &file).unwrap();
                files.push(file);
            }
            files
        }));
    }
    let exports: Vec<PathBuf> = workers.into_iter().flat_map(|w| w.join().unwrap()).collect();
    assert!(!exports.is_empty());
    // Each one passes an import's validation; the last restores whole.
    for file in &exports {
        if let Err(problems) = sheetkeeper::exchange::parse(&std::fs::read(file).unwrap()) {
            panic!("{} of {} exports is torn: {problems:#?}", file.display(), exports.len());
        }
    }
    let elsewhere = Scratch::new();
    services::import(&mut elsewhere.open(), exports.last().unwrap(), ImportOptions::default()).unwrap();
    let store = s.open();
    let report = services::check(&store).unwrap();
    assert!(report.ok, "{report:#?}");
    assert_eq!(services::list(&store).unwrap().len(), 4 + 2 + 2 * rounds);
}

#[test]
fn an_import_applies_only_what_its_preview_showed() {
    let s = Scratch::new();
    let mut store = s.open();
    let file = s.file("mezzo.sheetkeeper.json");
    std::fs::copy(fixture("mezzo-game.sheetkeeper.json"), &file).unwrap();
    // The device changes between the preview and the apply: another import lands first.
    let seen = services::import_preview(&store, &file, false).unwrap();
    services::import(&mut store, &fixture("mezzo-game.sheetkeeper.json"), ImportOptions::default()).unwrap();
    let err = services::import_seen(&mut store, &file, ImportOptions::default(), &seen).unwrap_err();
    assert!(err.to_string().contains("changed since its preview"), "{err}");
    // The file changes between the preview and the apply.
    let other = Scratch::new();
    let mut store = other.open();
    let seen = services::import_preview(&store, &file, false).unwrap();
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    doc["data"]["games"][0]["name"] = "Not what you saw".into();
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    let err = services::import_seen(&mut store, &file, ImportOptions::default(), &seen).unwrap_err();
    assert!(err.to_string().contains("changed since its preview"), "{err}");
    assert!(services::list(&store).unwrap().is_empty(), "nothing was imported");
    // Unchanged on both sides, it lands; as copies too, whose new ids differ each time.
    let seen = services::import_preview(&store, &file, false).unwrap();
    services::import_seen(&mut store, &file, ImportOptions::default(), &seen).unwrap();
    let seen = services::import_preview(&store, &file, true).unwrap();
    let options = ImportOptions { as_copy: true, ..Default::default() };
    services::import_seen(&mut store, &file, options, &seen).unwrap();
    assert_eq!(services::list(&store).unwrap().len(), 2);
}

#[test]
fn a_backup_too_large_to_import_again_is_refused_before_it_is_written() {
    // A game file of about 9 MiB, imported twice as copies: everything together, written as
    // an export writes it, is more than the 16 MiB an import reads.
    let mut doc: Value = golden("nsu-game.sheetkeeper.json");
    let game = &mut doc["data"]["games"][0];
    let template = game["characters"][0].clone();
    let characters = (0..7_000)
        .map(|i| {
            let mut c = template.clone();
            c["id"] = Uuid::new_v4().to_string().into();
            c["name"] = format!("Extra {i} {}", "x".repeat(100)).into();
            c
        })
        .collect();
    game["characters"] = Value::Array(characters);
    game.as_object_mut().unwrap().remove("nsu_world");
    let s = Scratch::new();
    let big = s.file("big.sheetkeeper.json");
    std::fs::write(&big, serde_json::to_vec(&doc).unwrap()).unwrap();
    let size = std::fs::metadata(&big).unwrap().len();
    assert!(size < 16 << 20, "{size}");
    let mut store = s.open();
    let copy = ImportOptions { as_copy: true, ..Default::default() };
    services::import(&mut store, &big, copy).unwrap();
    services::import(&mut store, &big, copy).unwrap();
    let backup = s.file("everything.sheetkeeper.json");
    let err = services::export(&store, ExportScope::All, &backup).unwrap_err();
    assert!(err.to_string().contains("more than the 16 MiB an import reads"), "{err}");
    assert!(!backup.exists(), "nothing was written");
}

#[test]
fn an_export_onto_the_database_itself_is_refused_and_the_database_survives() {
    let s = Scratch::new();
    let mut store = s.open();
    game_with(&mut store, "Valley", "nsu", &["Wren"]);
    for target in [s.db(), s.file("sheetkeeper.db-wal"), s.dir.path().join(".").join("sheetkeeper.db")] {
        let err = services::export(&store, ExportScope::All, &target).unwrap_err();
        assert!(err.to_string().contains("the database itself"), "{err}");
    }
    drop(store);
    let store = s.open();
    assert_eq!(services::list(&store).unwrap()[0].characters[0].name, "Wren");
    assert!(services::check(&store).unwrap().ok);
}

#[test]
fn undoing_a_move_is_refused_once_the_new_game_names_the_character() {
    let (s, mut store) = imported("nsu-game.sheetkeeper.json");
    let valley = services::list(&store).unwrap()[0].game.id;
    let elsewhere = game_with(&mut store, "Elsewhere", "nsu", &["Ash"]);
    let ash = elsewhere.characters[0].id;
    services::move_character(&mut store, ash, valley).unwrap();
    let doc: Value = golden("nsu-game.sheetkeeper.json");
    let card = doc["data"]["games"][0]["nsu_world"]["locations"][1]["id"].as_str().unwrap().parse().unwrap();
    services::nsu_world_record_scout(&mut store, valley, card, ash).unwrap();
    let err = services::undo_character(&mut store, ash).unwrap_err();
    assert!(err.to_string().contains("has scouted cards of its map"), "{err}");
    assert!(services::check(&store).unwrap().ok);
    backup_restores(&store, &s, "valley.sheetkeeper.json");
}

#[test]
fn a_world_whose_cards_belong_to_another_game_here_is_refused_by_name() {
    let (s, store) = imported("nsu-game.sheetkeeper.json");
    // The same world under another game's id, without the characters.
    let mut doc: Value = golden("nsu-game.sheetkeeper.json");
    let game = &mut doc["data"]["games"][0];
    game["id"] = Uuid::new_v4().to_string().into();
    game["characters"] = serde_json::json!([]);
    let world = &mut game["nsu_world"];
    for l in world["locations"].as_array_mut().unwrap() {
        l["scouted_by"] = serde_json::json!([]);
        l.as_object_mut().unwrap().remove("author_character");
    }
    world["projects"] = serde_json::json!([]);
    let file = s.file("twin.sheetkeeper.json");
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    drop(store);
    let before = bytes_on_disk(&s.db());
    let mut store = s.open();
    let err = services::import(&mut store, &file, ImportOptions::default()).unwrap_err();
    let Error::BadFile { problems, .. } = &err else { panic!("expected a bad file, got {err}") };
    assert!(
        problems.iter().any(|p| p.path.contains("location card") && p.message.contains("belongs to another game")),
        "{problems:#?}"
    );
    drop(store);
    assert_eq!(bytes_on_disk(&s.db()), before);
    // As copies, its cards get new ids and it lands.
    let mut store = s.open();
    services::import(&mut store, &file, ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    assert!(services::check(&store).unwrap().ok);
}
