//! Scattershot's penalty for reduced resources (issue 33, audit D-SC2; RULES.md §4.3 decision
//! 2026-11-28), driven like a person. The table turns its rule on (at or below 30 % of its
//! maximum, −2 a resource; read back from `table_settings`). Outside a fight a reduced
//! resource lowers rolls at once: Ada's Hit Points stepped down to 3 of 10 on her sheet, her
//! Strength roll on the roll screen reads 8 − 2d10 (28.0 %), and healed it is 10 − 2d10 again.
//! In a fight the penalty is held as it was when mechanical play began: Bo's Telling Blow of 7
//! takes Ada to 3 Hit Points at once (read back from `sc_sheets`), but her rolls, sheet,
//! combatant and table rows show no penalty until mechanical play ends (the lull), and then
//! they do. The other way round, a fight that begins with Ada low keeps her −2 ("until the
//! lull") though she is healed in it, and the lull takes it away.
//! Screenshots at 1280 and 360 px wide, the held penalty in dark too.

use serde_json::json;

use crate::mezzo::{db, shots_of, text_of, wait_contains};
use crate::scattershot::{sheet_row, table, telling_blow_of_seven};
use crate::scattershot_sheet::{choose, press, type_into};
use crate::webdriver::Session;
use crate::{begin_with, in_dark, open};

/// Ada's Strength roll with no situation, as the roll screen's odds spell it out.
const WHOLE: &str = "Ada: rating 10 → 10 − 2d10";
/// The same with the table's −2 for her Hit Points at or below 3 of 10.
const REDUCED: &str = "Ada: rating 10, reduced resources −2 → 8 − 2d10";

/// A setting of the game, as saved.
fn setting(conn: &rusqlite::Connection, game: &str, name: &str) -> Option<i64> {
    conn.query_row("SELECT value FROM table_settings WHERE game_id = ?1 AND name = ?2", [game, name], |r| r.get(0)).ok()
}

/// The penalty held for `character` since mechanical play began, as saved (none outside a fight).
fn held(conn: &rusqlite::Connection, character: &str) -> Option<i64> {
    conn.query_row("SELECT reduced_penalty FROM sc_combatants WHERE character_id = ?1", [character], |r| r.get(0)).ok()
}

/// Ticks "Dice rolled by hand" on the roll screen unless it is ticked already.
fn by_hand(session: &Session) {
    let ticked = session.execute("return document.getElementById('sc-roll-by-hand').checked;", json!([]));
    if ticked != json!(true) {
        press(session, "#sc-roll-by-hand");
    }
}

/// On the roll screen, Ada's Strength with no situation, no target; waits for its odds to
/// read `expected` and the chance of success `success`.
fn adas_strength_reads(session: &Session, ada: &str, expected: &str, success: &str) {
    press(session, "#sc-tab-roll");
    session.wait_for("#sc-roll-setup");
    by_hand(session);
    choose(session, "#sc-roll-actor", ada);
    choose(session, "#sc-roll-actor-rating", "statistic:strength");
    type_into(session, "#sc-roll-actor-modifier", "0");
    choose(session, "#sc-roll-target", "");
    session.wait_text("#sc-odds-actor", expected);
    session.wait_text("#sc-odds-success", success);
}

/// Taps Ada's Hit Points on her sheet `taps` times with `button` ("minus" or "plus") and waits
/// for them to read `reads`.
fn step_hit_points(session: &Session, ada: &str, button: &str, taps: u32, reads: &str) {
    press(session, "#sc-tab-sheet");
    choose(session, "#sc-sheet-character", ada);
    for _ in 0..taps {
        press(session, &format!("#sc-sheet-resource-hit_points-{button}"));
    }
    session.wait_text("#sc-sheet-current-hit_points", reads);
}

fn adas_row(ada: &str) -> String {
    format!(".sc-character[data-character-id='{ada}']")
}

/// A combatant's row on the Play tab.
fn combatant_row(character: &str) -> String {
    format!(".sc-combatant[data-character-id='{character}']")
}

#[test]
fn a_reduced_resource_lowers_rolls_at_once_outside_a_fight_and_only_after_the_lull_in_one() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-penalties", open);
    let (game, ada, bo, _cy) = table(&session, "Low Tide");
    let conn = db(&db_path);

    // Before the rule, Ada low on Hit Points rolls as she is.
    step_hit_points(&session, &ada, "minus", 7, "3 / 10");
    assert!(session.find("#sc-sheet-reduced").is_err(), "no penalty until the table sets one");
    adas_strength_reads(&session, &ada, WHOLE, "45.0%");
    step_hit_points(&session, &ada, "plus", 7, "10 / 10");

    // The table's rule: at or below 30 % of its maximum, −2 a resource.
    press(&session, "#sc-tab-table");
    type_into(&session, "#sc-setting-low_resource_percent", "30");
    press(&session, "#sc-setting-low_resource_percent-save");
    wait_contains(&session, "#toast-message", "goes from 0 to 30");
    type_into(&session, "#sc-setting-low_resource_penalty", "2");
    press(&session, "#sc-setting-low_resource_penalty-save");
    wait_contains(&session, "#toast-message", "Penalty to every roll for each resource that low goes from 1 to 2");
    assert_eq!(setting(&conn, &game, "low_resource_percent"), Some(30));
    assert_eq!(setting(&conn, &game, "low_resource_penalty"), Some(2));
    shots_of(&session, "scattershot-penalty-setting", "#sc-setting-low_resource_percent");

    // Outside a fight every moment is a lull: down to 3 of 10, her rolls take −2 at once.
    step_hit_points(&session, &ada, "minus", 7, "3 / 10");
    wait_contains(&session, "#sc-sheet-reduced", "−2 to every roll: reduced resources");
    adas_strength_reads(&session, &ada, REDUCED, "28.0%");
    shots_of(&session, "scattershot-penalty-at-once", "#sc-odds-actor");
    press(&session, "#sc-tab-table");
    wait_contains(&session, &adas_row(&ada), "−2 to its rolls (reduced resources)");
    // Healed, the penalty goes at once too.
    step_hit_points(&session, &ada, "plus", 7, "10 / 10");
    session.wait_gone("#sc-sheet-reduced");
    adas_strength_reads(&session, &ada, WHOLE, "45.0%");

    // A fight: Bo calls for mechanical play, Ada whole as it begins.
    press(&session, "#sc-tab-play");
    choose(&session, "#sc-play-caller", &bo);
    press(&session, "#sc-play-start-submit");
    session.wait_text("#sc-play-current", "Bo's turn: 2 immediate actions left");
    assert_eq!(held(&conn, &ada), Some(0), "Ada began the fight whole");

    // Bo's Telling Blow of 7 at Ada's Hit Points lands at once: 3 of 10.
    press(&session, "#sc-tab-roll");
    choose(&session, "#sc-roll-actor", &bo);
    choose(&session, "#sc-roll-actor-rating", "statistic:strength");
    type_into(&session, "#sc-roll-actor-modifier", "5");
    choose(&session, "#sc-roll-target", &ada);
    choose(&session, "#sc-roll-target-resource", "hit_points");
    session.wait_for("#sc-odds-telling");
    press(&session, "#sc-roll-start");
    telling_blow_of_seven(&session);
    wait_contains(&session, "#sc-roll-effect", "Ada lost 7 Hit Points");
    assert_eq!(sheet_row(&conn, &ada).1, 7, "the damage lands at once");
    press(&session, "#sc-roll-clear");
    session.wait_for("#sc-roll-start");

    // …but her penalty waits for the lull: her roll, her sheet, her combatant and table rows.
    adas_strength_reads(&session, &ada, WHOLE, "45.0%");
    shots_of(&session, "scattershot-penalty-held-roll", "#sc-odds-actor");
    press(&session, "#sc-tab-sheet");
    choose(&session, "#sc-sheet-character", &ada);
    session.wait_text("#sc-sheet-current-hit_points", "3 / 10");
    assert!(session.find("#sc-sheet-reduced").is_err(), "the sheet holds no penalty in the fight");
    press(&session, "#sc-tab-table");
    let row = wait_contains(&session, &adas_row(&ada), "Hit Points 3 / 10");
    assert!(!row.contains("reduced resources"), "{row}");
    press(&session, "#sc-tab-play");
    // Her combatant row plays without a penalty yet, and says the one the lull brings.
    let combatant = text_of(&session, &combatant_row(&ada));
    assert!(!combatant.contains("reduced resources, until the lull"), "{combatant}");
    assert!(combatant.contains("−2 for reduced resources from the lull"), "{combatant}");
    // Bo, whole and unhurt, is told nothing about the lull.
    let bos = text_of(&session, &combatant_row(&bo));
    assert!(!bos.contains("reduced resources"), "{bos}");
    assert_eq!(held(&conn, &ada), Some(0), "held as the fight began");
    // The lull card says what ending the fight will change.
    wait_contains(&session, "#sc-play-pending-none", "The penalties for reduced resources are set anew then");
    shots_of(&session, "scattershot-penalty-held-play", "#sc-play-combatants");

    // The lull: mechanical play ends and the penalty takes effect.
    press(&session, "#sc-play-end");
    session.wait_for("#sc-play-start-form");
    assert_eq!(held(&conn, &ada), None, "no fight, nothing held");
    assert_eq!(sheet_row(&conn, &ada).1, 7, "nothing more came off at the lull");
    adas_strength_reads(&session, &ada, REDUCED, "28.0%");
    shots_of(&session, "scattershot-penalty-after-lull", "#sc-odds-actor");
    press(&session, "#sc-tab-table");
    wait_contains(&session, &adas_row(&ada), "−2 to its rolls (reduced resources)");
    press(&session, "#sc-tab-sheet");
    choose(&session, "#sc-sheet-character", &ada);
    wait_contains(&session, "#sc-sheet-reduced", "−2 to every roll: reduced resources");

    // The other way round: a fight that begins with Ada low holds her −2 though she is
    // healed in it, until the lull.
    press(&session, "#sc-tab-play");
    choose(&session, "#sc-play-caller", &ada);
    press(&session, "#sc-play-start-submit");
    session.wait_text("#sc-play-current", "Ada's turn: 2 immediate actions left");
    assert_eq!(held(&conn, &ada), Some(-2));
    step_hit_points(&session, &ada, "plus", 7, "10 / 10");
    wait_contains(&session, "#sc-sheet-reduced", "−2 to every roll: reduced resources");
    adas_strength_reads(&session, &ada, REDUCED, "28.0%");
    press(&session, "#sc-tab-play");
    let combatant = wait_contains(&session, &combatant_row(&ada), "−2 for reduced resources, until the lull");
    assert!(combatant.contains("no penalty for reduced resources from the lull"), "{combatant}");
    in_dark(&session, || shots_of(&session, "scattershot-penalty-held-healed-dark", "#sc-play-combatants"));
    press(&session, "#sc-play-end");
    session.wait_for("#sc-play-start-form");
    adas_strength_reads(&session, &ada, WHOLE, "45.0%");
    press(&session, "#sc-tab-sheet");
    choose(&session, "#sc-sheet-character", &ada);
    session.wait_text("#sc-sheet-current-hit_points", "10 / 10");
    assert!(session.find("#sc-sheet-reduced").is_err(), "healed, and the lull has come");
}
