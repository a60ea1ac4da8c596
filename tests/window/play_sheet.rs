//! A sheet you play from (issue 32), in all four systems: a finished character's sheet opens in
//! play mode, its values text with no form field, a tap on a value rolls or steps it (or, in
//! Penny Ante, opens the ledger its pile moves by); "✎ Edit" shows the fields, a value is
//! changed, "Done" shows the new value as text. Screenshots at 1280 and 360 px, light and dark.

use serde_json::json;

use crate::mezzo::{dismiss_toast, first_edge, open_element_sheet, press, scroll_to, type_into, wait_contains};
use crate::nsu_roll::{begin_rolling, open_sheet_of, tap, wait_step};
use crate::webdriver::{Session, ENTER};
use crate::{begin_with, in_dark, new_game, open, shots_at_both_widths_with};

/// The form fields shown inside `root` (a select, a text box, a text area), but `except`.
fn fields_in(session: &Session, root: &str, except: &str) -> Vec<String> {
    let found = session.execute(
        "return [...document.querySelectorAll(arguments[0] + ' input, ' + arguments[0] + ' select, ' + arguments[0] + ' textarea')] \
           .filter((f) => f.getClientRects().length > 0 && !(arguments[1] && f.matches(arguments[1]))) \
           .map((f) => f.id || f.className || f.tagName);",
        json!([root, except]),
    );
    serde_json::from_value(found).expect("a list of fields")
}

/// The mode toggle `toggle` reads `words` (its accessible name starts with them too).
fn toggle_reads(session: &Session, toggle: &str, words: &str) {
    session.wait_text(toggle, words);
    let tag = session.execute("return document.querySelector(arguments[0]).tagName;", json!([toggle]));
    assert_eq!(tag, json!("BUTTON"), "{toggle} is a button");
    let height =
        session.execute("return document.querySelector(arguments[0]).getBoundingClientRect().height;", json!([toggle]));
    assert!(height.as_f64().unwrap_or(0.0) >= 43.5, "{toggle} is a 44 px touch target ({height})");
}

/// Screenshots at both widths, light then dark, `selector` scrolled to the top.
fn play_shots(session: &Session, name: &str, selector: &str) {
    dismiss_toast(session);
    let top = || scroll_to(session, selector);
    shots_at_both_widths_with(session, name, top, || {});
    in_dark(session, || shots_at_both_widths_with(session, &format!("{name}-dark"), top, || {}));
}

#[test]
fn an_nsu_sheet_is_played_from_and_edited_in_its_mode() {
    let (_window, _scratch, _db, session) = begin_rolling("play-sheet-nsu", &[]);
    open_sheet_of(&session, "Wren Ashdown");
    session.wait_for("#sheet-view[data-mode='play']");
    toggle_reads(&session, "#sheet-mode", "✎ Edit");
    assert_eq!(fields_in(&session, "#sheet-body", ""), Vec::<String>::new(), "no form field in play mode");
    assert_eq!(session.wait_for(".mood-line[data-line='0'] .mood-name .sheet-tap-text").text(), "Curious");
    let tag = session.execute("return document.querySelector('#sheet-pronouns-text').tagName;", json!([]));
    assert_eq!(tag, json!("SPAN"), "the pronouns are text");
    play_shots(&session, "play-sheet-nsu", "#sheet-view");
    play_shots(&session, "play-sheet-nsu-skills", ".sheet-skills");

    // A mood box steps the level; the mood's name rolls with it.
    tap(&session, ".mood-line[data-line='0'] .mood-box[data-box='4']");
    session.wait_text(".mood-line[data-line='0'] .mood-level", "Level 4 of 9");
    dismiss_toast(&session);
    tap(&session, ".mood-line[data-line='0'] .mood-name");
    wait_step(&session, "quick");
    session.click("#roll-close");
    session.wait_gone("#roll-wizard");
    // The sheet is read again once the roll closes.
    session.wait_settled();

    // ✎ Edit: the fields, a value changed; Done: the new value as text.
    tap(&session, "#sheet-mode");
    session.wait_for("#sheet-view[data-mode='edit']");
    toggle_reads(&session, "#sheet-mode", "Done");
    // Typed over what is written (emptying the box first would save it empty on its own).
    session.to_middle("#sheet-pronouns");
    session.click("#sheet-pronouns");
    session.execute("document.getElementById('sheet-pronouns').select();", json!([]));
    let field = session.wait_for("#sheet-pronouns");
    field.send_keys("they/them");
    field.send_keys(ENTER);
    session.wait_text("#toast-message", "Saved the pronouns.");
    play_shots(&session, "play-sheet-nsu-edit", "#sheet-view");
    tap(&session, "#sheet-mode");
    session.wait_for("#sheet-view[data-mode='play']");
    session.wait_text("#sheet-pronouns-text", "they/them");
}

#[test]
fn a_scattershot_sheet_is_played_from_and_edited_in_its_mode() {
    let (_window, _scratch, _db, session) = begin_with("play-sheet-scattershot", open);
    let (_game, _ada, _bo, _cy) = crate::scattershot::table(&session, "Play Town");
    dismiss_toast(&session);
    press(&session, "#sc-tab-sheet");
    session.wait_text("#sc-sheet-heading", "Ada");
    // In creation: edit mode. Finished: play mode.
    toggle_reads(&session, "#sc-sheet-mode", "Done");
    press(&session, "#sc-sheet-finish");
    session.wait_text("#sc-sheet-stage", "Play");
    toggle_reads(&session, "#sc-sheet-mode", "✎ Edit");
    assert_eq!(
        fields_in(&session, "#scattershot-body", "#sc-sheet-character"),
        Vec::<String>::new(),
        "no form field in play mode"
    );
    assert!(session.find("#sc-sheet-agility-raise").is_err(), "no +1 in play mode");
    play_shots(&session, "play-sheet-scattershot", "#sc-sheet-head");

    // A resource steps; a rating rolls.
    let before = session.wait_for("#sc-sheet-current-hit_points").text();
    press(&session, "#sc-sheet-resource-hit_points-minus");
    session.wait_until("Hit Points one less", || {
        let now = session.find("#sc-sheet-current-hit_points").ok()?.text();
        (now != before).then_some(())
    });
    press(&session, "#sc-sheet-agility-roll");
    session.wait_for("#sc-roll-quick");
    press(&session, "#sc-tab-sheet");

    // ✎ Edit: the description written; Done: it reads as text.
    press(&session, "#sc-sheet-mode");
    toggle_reads(&session, "#sc-sheet-mode", "Done");
    session.wait_for("#sc-sheet-agility-raise");
    type_into(&session, "#sc-sheet-description", "A courier who never opens the parcel.");
    press(&session, "#sc-sheet-description-save");
    session.wait_for("#toast-undo");
    press(&session, "#sc-sheet-mode");
    session.wait_text("#sc-sheet-description-text", "A courier who never opens the parcel.");
}

#[test]
fn a_penny_ante_sheet_is_played_from_and_edited_in_its_mode() {
    let (_window, _scratch, _db, session) = begin_with("play-sheet-penny", open);
    new_game(&session, "Harbour Job", "penny_ante");
    type_into(&session, "#new-character-name", "Pip");
    press(&session, "#new-character-submit");
    session.wait_for("#penny-sheet-creation");
    toggle_reads(&session, "#penny-sheet-mode", "Done");
    type_into(&session, "#penny-sheet-characteristic", "Nimble");
    press(&session, "#penny-sheet-characteristic-take");
    session.wait_for("#penny-sheet-characteristic-list");
    press(&session, "#penny-sheet-starting-give");
    session.wait_gone("#penny-sheet-creation");
    // Made: play mode, the characteristics and notes as text.
    toggle_reads(&session, "#penny-sheet-mode", "✎ Edit");
    assert_eq!(fields_in(&session, "#penny-screen", ""), Vec::<String>::new(), "no form field in play mode");
    wait_contains(&session, "#penny-sheet-characteristic-list", "Nimble");
    play_shots(&session, "play-sheet-penny", "#penny-sheet-head");

    // The pile moves by the ledger's moves: a tap opens them.
    press(&session, "#penny-sheet-ledger");
    session.wait_for("#penny-tab-ledger[aria-current='page']");
    press(&session, "#penny-tab-sheet");

    // ✎ Edit: a note written; Done: it reads as text.
    press(&session, "#penny-sheet-mode");
    toggle_reads(&session, "#penny-sheet-mode", "Done");
    type_into(&session, "#penny-sheet-notes", "Owes the ferryman a song.");
    press(&session, "#penny-sheet-notes-save");
    session.wait_for("#toast-undo");
    press(&session, "#penny-sheet-mode");
    session.wait_text("#penny-sheet-notes-text", "Owes the ferryman a song.");
}

#[test]
fn a_mezzo_sheet_is_played_from_and_edited_in_its_mode() {
    let (_window, _scratch, _db, session) = begin_with("play-sheet-mezzo", open);
    let (_game, ada, _bo, mira, _key) = crate::mezzo_play::table(&session, "Play Night");
    crate::mezzo::claim(&session, &ada, &mira, "Mira");
    press(&session, "#mezzo-tab-elements");
    open_element_sheet(&session, &mira, "Mira");
    // Her traits are made in edit mode; Done turns the sheet to play.
    toggle_reads(&session, "#mz-sheet-mode", "Done");
    let trait_id = first_edge(&session, "Quick Hands");
    toggle_reads(&session, "#mz-sheet-mode", "Done");
    press(&session, "#mz-sheet-mode");
    toggle_reads(&session, "#mz-sheet-mode", "✎ Edit");
    for part in ["#mz-traits", "#mz-sheet-notes"] {
        assert_eq!(fields_in(&session, part, ""), Vec::<String>::new(), "no form field in {part} in play mode");
    }
    assert!(session.find(".mz-remove-trait").is_err(), "no Remove in play mode");
    play_shots(&session, "play-sheet-mezzo", "#mz-traits");

    // Momentum steps; the trait's "Action check ›" checks with it.
    press(&session, "#mz-momentum-value-plus");
    session.wait_text("#mz-momentum-value", "1");
    press(&session, &format!(".mz-trait[data-trait-id='{trait_id}'] .mz-trait-act"));
    session.wait_for("#mzc-roll-quick");
    press(&session, "#mezzo-tab-elements");
    // The elements tab shows Mira's sheet again, or the list to open it from.
    let open_sheet = format!(".mz-element[data-element-id='{mira}'] .mz-open-sheet");
    let shown = session.wait_until("Mira's sheet or the list", || {
        if session.find("#mz-sheet-mode").is_ok() {
            Some(true)
        } else {
            session.find(&open_sheet).ok().map(|_| false)
        }
    });
    if !shown {
        open_element_sheet(&session, &mira, "Mira");
    }

    // ✎ Edit: a note written; Done: it reads as text.
    press(&session, "#mz-sheet-mode");
    toggle_reads(&session, "#mz-sheet-mode", "Done");
    type_into(&session, "#mz-notes", "Keeps the key on a string.");
    press(&session, "#mz-notes-save");
    session.wait_for("#toast-undo");
    press(&session, "#mz-sheet-mode");
    session.wait_text("#mz-notes-text", "Keeps the key on a string.");
}

/// The text of the whole sheet view (what a person at this device can read there).
fn sheet_words(session: &Session) -> String {
    session
        .execute("return document.getElementById('sheet-view')?.textContent ?? '';", json!([]))
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// NSU audit D10 (issue 33): Wren's player marks her rumour about the Mill private on the sheet
/// (a "Private" box per rumour and note line, a 44 px target); play mode marks the line
/// "private". On the table's device — in NSU the Arbiters are the other players — Wren's sheet
/// holds none of her private lines: the core never sent them.
#[test]
fn an_nsu_rumour_marked_private_is_not_on_another_viewers_sheet() {
    let (_window, _scratch, db, session) = begin_rolling("play-sheet-nsu-private", &[]);
    const TABLES: &str = "The mill wheel turns at night, though the river is dry.";
    const PRIVATE: &str = "I wrote the Mill: a drowned miller turns its wheel.";
    const NOTE: &str = "Keep the miller's name from Tobias until he scouts it.";
    open_sheet_of(&session, "Wren Ashdown");
    session.wait_for("#sheet-view[data-mode='play']");
    // One device for all (the game's first role) reads every line; a private one is marked.
    let rumours = wait_contains(&session, "#sheet-rumours-text", PRIVATE);
    assert!(rumours.contains(TABLES), "{rumours:?}");
    let marks =
        || session.execute("return document.querySelectorAll('#sheet-rumours-text .private-mark').length;", json!([]));
    assert_eq!(marks(), json!(1), "the private rumour is marked");
    wait_contains(&session, "#sheet-notes-text", NOTE);

    // ✎ Edit: the table's rumour is marked private too.
    tap(&session, "#sheet-mode");
    session.wait_for("#sheet-view[data-mode='edit']");
    session.wait_for("#rumour-line-0");
    let value = session.execute("return document.getElementById('rumour-line-0').value;", json!([]));
    assert_eq!(value, json!(TABLES));
    let target = session.execute(
        "const r = document.querySelector(\"label[for='rumour-private-0']\").getBoundingClientRect(); return [r.width, r.height];",
        json!([]),
    );
    let [w, h]: [f64; 2] = serde_json::from_value(target).expect("a size");
    assert!(w >= 43.5 && h >= 43.5, "the private box is a 44 px target ({w}×{h})");
    let name = session.execute(
        "const b = document.getElementById('rumour-private-0'); return b.getAttribute('aria-label');",
        json!([]),
    );
    assert_eq!(name, json!("Private: rumour 1"));
    dismiss_toast(&session);
    session.to_middle("label[for='rumour-private-0']");
    session.click("label[for='rumour-private-0']");
    session.wait_text("#toast-message", "Saved the rumours.");
    let conn = crate::fixtures::db(&db);
    let (table, private): (String, String) = conn
        .query_row(
            "SELECT rumours, private_rumours FROM nsu_sheets WHERE character_id = ?1",
            [crate::fixtures::WREN],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("Wren's sheet");
    assert_eq!(table, "", "no rumour of Wren's is the table's now");
    assert!(private.contains(TABLES) && private.contains(PRIVATE), "{private:?}");
    play_shots(&session, "play-sheet-nsu-private-edit", ".sheet-rumours");
    tap(&session, "#sheet-mode");
    session.wait_for("#sheet-view[data-mode='play']");
    session.wait_until("both rumours marked private", || (marks() == json!(2)).then_some(()));
    play_shots(&session, "play-sheet-nsu-private", ".sheet-rumours");

    // The table's device: Wren's sheet holds none of it.
    session.click("#nsu-back");
    session.wait_for("label[for='role-table']");
    session.click("label[for='role-table']");
    session.wait_until("the table's role", || {
        session
            .execute("return document.getElementById('role-table').checked;", json!([]))
            .as_bool()
            .filter(|on| *on)
            .map(|_| ())
    });
    open_sheet_of(&session, "Wren Ashdown");
    session.wait_for("#sheet-view[data-mode='play']");
    session.wait_text("#sheet-rumours-text", "Nothing written yet.");
    let words = sheet_words(&session);
    for secret in ["mill wheel", "drowned miller", "miller's name"] {
        assert!(!words.contains(secret), "the table's device reads {secret:?}: {words:?}");
    }
    assert_eq!(marks(), json!(0));
    play_shots(&session, "play-sheet-nsu-private-table", ".sheet-rumours");
    // Nor in edit mode: the boxes hold only what this device may read.
    tap(&session, "#sheet-mode");
    session.wait_for("#sheet-view[data-mode='edit']");
    let value = session.execute("return document.getElementById('rumour-line-0').value;", json!([]));
    assert_eq!(value, json!(""), "only the empty line to add a rumour");
    assert!(session.find("#rumour-private-0").is_err(), "no private box where none could be saved");
    wait_contains(&session, ".sheet-rumours .marked-hint", "this device does not get them");
    play_shots(&session, "play-sheet-nsu-private-table-edit", ".sheet-rumours");
}
