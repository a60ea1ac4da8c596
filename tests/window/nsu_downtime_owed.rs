//! What a No Stone Unturned downtime phase owes, on the Downtime tab (decision 2026-11-28,
//! RULES.md §1.4; issue 33): extra time units are taken away from home too, each one owes a
//! complication roll, and the phase does not end while the location just left's roll or an
//! extra one is owed: the refusal says which, and nothing changes. Away from home the Scout
//! action lists the face-down cards close enough to scout first, the others apart.

use std::path::Path;

use serde_json::{json, Value};
use sheetkeeper::services::{self, ImportOptions};
use sheetkeeper::Store;

use crate::fixtures::{db, nsu_fixture, write_game_file, TOBIAS, WREN};
use crate::mezzo::wait_contains;
use crate::nsu_roll::{tap, text_of};
use crate::nsu_world::{roll_complication, shots_of};
use crate::webdriver::Session;
use crate::{begin, dismiss_toast, open, open_game};

const GAME: &str = "Lanterns over Brackwater";
/// The revealed card at the settlement, where the party is: 3 of 8 collateral.
const LIBRARY: &str = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d";
/// The face-down card 5 south, 2 west of the settlement, joined to the Library by a path.
const MILL: &str = "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e";
/// A face-down card added for the test, 3 north, 4 east of the settlement, on no path.
const QUARRY: &str = "c3d4e5f6-a7b8-4c9d-8e0f-2a3b4c5d6e7f";

/// The NSU fixture, changed by `change`, imported into a new database (a table's device).
fn prepare(db: &Path, file: &Path, change: impl FnOnce(&mut Value)) {
    let mut doc = nsu_fixture();
    let game = &mut doc["data"]["games"][0];
    assert_eq!(game["nsu_world"]["party_at"], LIBRARY, "the party is at the Library");
    change(game);
    write_game_file(file, &doc);
    let mut store = Store::open(db).expect("a new database");
    services::import(&mut store, file, ImportOptions { as_copy: false, replace_conflicts: false })
        .expect("the game imports");
}

/// Opens the game's Downtime tab (through the World screen's tabs) and starts a phase away
/// from home for Wren alone with `units` extra time units.
fn start_away(session: &Session, units: &str) {
    open_game(session, GAME);
    tap(session, "#game-world");
    session.wait_for("#world-view");
    tap(session, "#nsu-tab-downtime");
    session.wait_for("#downtime-start-form");
    // Tobias stays out: his sheet is not made yet.
    tap(session, &format!(".downtime-who[value='{TOBIAS}']"));
    let home = session.execute("return document.getElementById('downtime-at-home').checked;", json!([]));
    assert_eq!(home, json!(false), "away from home is the default");
    let field = session.wait_for("#downtime-time-units");
    session.to_middle("#downtime-time-units");
    field.click();
    field.clear();
    field.send_keys(units);
    let left = text_of(session, "#downtime-just-left");
    assert!(left.contains("Leaving Library (3 of 8 collateral)"), "{left:?}");
    tap(session, "#downtime-start");
    session.wait_for("#downtime-summary");
}

/// The phase as the database holds it: time units, just left rolled, extra rolls still due.
fn phase_row(db_path: &Path) -> Option<(i64, bool, i64)> {
    let conn = db(db_path);
    conn.query_row("SELECT time_units, just_left_rolled, extra_complications_left FROM nsu_downtime", [], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })
    .ok()
}

/// How many changes the game's log holds.
fn event_count(db_path: &Path) -> i64 {
    db(db_path).query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0)).expect("count the events")
}

/// Presses "End the downtime phase" while a roll is owed: the refusal reads `owed`, the phase
/// is still on screen, and the database is as it was.
fn end_refused(session: &Session, db_path: &Path, owed: &str) {
    let (row, events) = (phase_row(db_path), event_count(db_path));
    dismiss_toast(session);
    tap(session, "#downtime-end");
    wait_contains(session, "#error-message", owed);
    let error = text_of(session, "#error-message");
    assert!(error.starts_with("The downtime phase did not end."), "{error:?}");
    assert!(session.find("#downtime-end").is_ok(), "the phase is still on");
    assert_eq!(phase_row(db_path), row, "a refused end changes nothing");
    assert_eq!(event_count(db_path), events, "a refused end logs nothing");
}

/// Rolls one extra complication on the Library with the die typed in as `face`.
fn roll_extra(session: &Session, face: &str) {
    dismiss_toast(session);
    let place = text_of(session, "#downtime-complications .extra-location");
    assert!(place.contains("Library — 3 of 8"), "the revealed card to roll on: {place:?}");
    let die = session.wait_for("#downtime-complications .die-input");
    session.to_middle("#downtime-complications .die-input");
    die.click();
    die.send_keys(face);
    tap(session, "#downtime-complications .dice-enter");
    wait_contains(session, "#downtime-results", &format!("Library (3 ticks), d6 = {face}:"));
}

/// Away from home, two extra time units: three actions for Wren and two extra complication
/// rolls owed. The phase cannot end before the Library's roll, nor before each extra one;
/// once all three are rolled it ends.
#[test]
fn away_from_home_extra_time_owes_complications_and_the_phase_ends_only_once_they_are_rolled() {
    let (_window, scratch, db_path) = begin("nsu-downtime-owed");
    prepare(&db_path, &scratch.path("owed.sheetkeeper.json"), |_| {});
    let session = open(&db_path);
    start_away(&session, "2");

    // Extra time away from home is taken (decision 2026-11-28): three actions for Wren.
    let summary = text_of(&session, "#downtime-summary");
    assert_eq!(summary, "Away from home · 2 extra time units · just left Library");
    session.wait_text(&format!(".downtime-character[data-character-id='{WREN}'] .actions-left"), "3");
    assert_eq!(phase_row(&db_path), Some((2, false, 2)));
    // The extra rolls owed after it are said from the start, not only once it is made.
    wait_contains(&session, "#downtime-extra-owed", "Then 2 extra complication rolls due (one per extra time unit)");

    // The Library's roll comes first: the phase does not end without it.
    end_refused(&session, &db_path, "the complication roll for “Library”, the location just left, is still due");
    shots_of(&session, "nsu-downtime-owed-just-left", "#error");

    roll_complication(&session, "4", "Library (3 ticks), d6 = 4: Relations worsen");
    // The two extra rolls are owed, and said so on the screen.
    wait_contains(&session, "#downtime-extra-owed", "2 extra complication rolls due");
    assert_eq!(phase_row(&db_path), Some((2, true, 2)));
    end_refused(
        &session,
        &db_path,
        "2 extra complication rolls are still due (one per extra time unit, on revealed locations); roll them first",
    );
    shots_of(&session, "nsu-downtime-owed-extra", "#error");

    roll_extra(&session, "1");
    wait_contains(&session, "#downtime-complications", "1 extra complication roll due");
    assert_eq!(phase_row(&db_path), Some((2, true, 1)));
    end_refused(
        &session,
        &db_path,
        "1 extra complication roll is still due (one per extra time unit, on revealed locations); roll them first",
    );

    roll_extra(&session, "6");
    wait_contains(&session, "#downtime-complications", "No complication roll is due.");
    assert_eq!(phase_row(&db_path), Some((2, true, 0)));
    let rolled: i64 = db(&db_path)
        .query_row(
            "SELECT COUNT(*) FROM events WHERE kind = 'nsu_downtime_move' AND payload LIKE '%complication_rolled%'",
            [],
            |r| r.get(0),
        )
        .expect("count the complications");
    assert_eq!(rolled, 3, "the Library's roll and one per extra time unit");

    // Nothing is owed now: the phase ends.
    dismiss_toast(&session);
    tap(&session, "#downtime-end");
    session.wait_for("#downtime-start-form");
    assert_eq!(phase_row(&db_path), None, "the phase is over");
}

/// Away from home, Wren's Scout action puts the Mill (a path joins it to the Library, where
/// the party is) under "Close enough" and the Quarry (on no path) under "Farther"; the close
/// one is picked first.
#[test]
fn away_from_home_the_scout_action_shows_which_face_down_cards_are_close_enough() {
    let (_window, scratch, db_path) = begin("nsu-downtime-close");
    prepare(&db_path, &scratch.path("close.sheetkeeper.json"), |game| {
        let locations = game["nsu_world"]["locations"].as_array_mut().expect("the locations");
        assert_eq!(locations[1]["id"], MILL);
        // Nobody has seen the Mill yet.
        locations[1]["scouted_by"] = json!([]);
        let mut quarry = locations[1].clone();
        quarry["id"] = json!(QUARRY);
        quarry["name"] = json!("Quarry");
        quarry["description"] = json!("A pit that hums at dusk");
        quarry["danger_level"] = json!(4);
        quarry["reward_level"] = json!(1);
        quarry["position"] = json!({"x": 4, "y": -3});
        locations.push(quarry);
    });
    let session = open(&db_path);
    start_away(&session, "0");
    roll_complication(&session, "2", "Library (3 ticks), d6 = 2:");

    let card = format!(".downtime-character[data-character-id='{WREN}']");
    let scout = format!("{card} details.action-scout");
    tap(&session, &format!("{scout} > summary"));
    let close = text_of(&session, &format!("{scout} .scout-close"));
    assert!(close.starts_with("Close enough: next to where the party is"), "{close:?}");
    assert!(close.contains("Face-down card 5 south, 2 west of the settlement, D3 R2"), "{close:?}");
    assert!(!close.contains("4 east"), "{close:?}");
    let far = text_of(&session, &format!("{scout} .scout-far"));
    assert!(far.starts_with("Farther: only if the table agrees it makes sense"), "{far:?}");
    assert!(far.contains("Face-down card 3 north, 4 east of the settlement, D4 R1"), "{far:?}");
    assert!(session.find(&format!("{scout} .scout-home")).is_err(), "away from home the map places the party");
    // The close card comes first and is the one picked.
    let picked = session
        .execute("return document.querySelector(arguments[0] + ' input[type=radio]:checked').value;", json!([scout]));
    assert_eq!(picked, json!(MILL));
    // No card's name is on the Downtime tab.
    let words = session.execute("return document.querySelector('#downtime-view').textContent;", json!([]));
    let words = words.as_str().unwrap_or_default();
    assert!(!words.contains("Mill") && !words.contains("Quarry"), "a face-down card's name shows: {words:?}");
    dismiss_toast(&session);
    shots_of(&session, "nsu-downtime-close-enough", &scout);
}
