//! The Scattershot sheets tab, driven like a person: a Scattershot game with Ada and Bo made
//! in the games layout, then Ada's sheet through creation — a creation limit, statistics
//! bought and a point taken back, a skill bought and raised, a special ability, two free
//! skills (the first costs the point, the second is free), an advantage, a purchase past the
//! limit refused in the core's words, a disadvantage, Hit Points set, undone from the toast
//! and set again — then creation finished, a point refused for want of experience dice, the
//! pool set and a point bought with it, and Power expended; after a restart in dark mode the
//! sheet reads the same. What the screen shows is checked along the way, and what is saved
//! is read back from `sc_sheets`, `sc_skills`, `sc_free_skills`, `sc_special_abilities` and
//! `sc_qualities`. Screenshots at 1280 and 360 px wide, light and dark.

use serde_json::json;

use crate::mezzo::{db, dismiss_toast, shots_of, text_of, wait_contains};
use crate::webdriver::Session;
use crate::{begin_with, create_character, new_game, open, open_dark};

/// Brings `selector` to the middle of the window, clear of the screen's sticky bar and the
/// bars at the bottom, as a person scrolls before a tap (WebDriver's own scrolling leaves a
/// control under the sticky bar).
fn into_view(session: &Session, selector: &str) {
    session.wait_settled();
    dismiss_toast(session);
    session.to_middle(selector);
}

/// Clicks `selector`, in view, with the toast out of the way.
pub(crate) fn press(session: &Session, selector: &str) {
    into_view(session, selector);
    crate::mezzo::press(session, selector);
}

/// Types `text` into `selector` (emptied first), in view.
pub(crate) fn type_into(session: &Session, selector: &str, text: &str) {
    into_view(session, selector);
    crate::mezzo::type_into(session, selector, text);
}

/// Picks the option `value` of the select `selector`, in view.
pub(crate) fn choose(session: &Session, selector: &str, value: &str) {
    into_view(session, selector);
    crate::mezzo::choose(session, selector, value);
}

/// Opens the game's Scattershot screen from its panel, on the Sheet tab.
fn open_the_sheet_tab(session: &Session) {
    press(session, "#game-scattershot");
    session.wait_for("#scattershot-screen");
    press(session, "#sc-tab-sheet");
}

/// Adds the free skill `name` at `level`.
fn add_free_skill(session: &Session, name: &str, level: &str) {
    type_into(session, "#sc-sheet-free-name", name);
    type_into(session, "#sc-sheet-free-level", level);
    press(session, "#sc-sheet-free-add");
}

/// Waits for the rating shown for `key` (`strength`, `skill-0`, `free-1`…) to read `value`.
fn rating_is(session: &Session, key: &str, value: &str) {
    session.wait_text(&format!("#sc-sheet-{key}-rating"), value);
}

/// Raises `key` by one with its button on the sheet; its rating then reads `value`.
fn raise(session: &Session, key: &str, value: &str) {
    press(session, &format!("#sc-sheet-{key}-raise"));
    rating_is(session, key, value);
}

/// Takes a point of `key` back with its button (in creation); its rating then reads `value`.
fn take_back(session: &Session, key: &str, value: &str) {
    press(session, &format!("#sc-sheet-{key}-back"));
    rating_is(session, key, value);
}

/// The error area shows `part` (the core's reason); it is dismissed.
fn refused(session: &Session, part: &str) {
    wait_contains(session, "#error-message", part);
    press(session, "#error-dismiss");
    session.wait_gone("#error");
}

type Statistics = (i64, i64, i64, i64, i64, i64);

/// Ada's sheet row: stage, creation limit, the six statistics' points, the resources lost and
/// the experience dice.
fn sheet_row(conn: &rusqlite::Connection, id: &str) -> (String, Option<i64>, Statistics, (i64, i64), i64) {
    conn.query_row(
        "SELECT stage, creation_limit, strength, agility, hit_points, reaction, observation, power, \
                hit_points_lost, power_lost, experience_dice FROM sc_sheets WHERE character_id = ?1",
        [id],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                (r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?),
                (r.get(8)?, r.get(9)?),
                r.get(10)?,
            ))
        },
    )
    .expect("read sc_sheets")
}

/// Every row of `sql` (one `?1` for the character) as JSON arrays, in position order.
fn rows(conn: &rusqlite::Connection, sql: &str, id: &str) -> Vec<serde_json::Value> {
    let mut statement = conn.prepare(sql).expect("prepare");
    let columns = statement.column_count();
    statement
        .query_map([id], |r| {
            let mut row = Vec::new();
            for i in 0..columns {
                let value: rusqlite::types::Value = r.get(i)?;
                row.push(match value {
                    rusqlite::types::Value::Integer(n) => json!(n),
                    rusqlite::types::Value::Text(t) => json!(t),
                    rusqlite::types::Value::Null => json!(null),
                    other => json!(format!("{other:?}")),
                });
            }
            Ok(serde_json::Value::Array(row))
        })
        .and_then(|rows| rows.collect())
        .expect("read rows")
}

#[test]
fn a_sheet_through_creation_and_a_point_bought_with_experience_dice() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-sheet", open);
    new_game(&session, "Clockwork Keep", "scattershot");
    let ada = create_character(&session, "Ada");
    let bo = create_character(&session, "Bo");
    open_the_sheet_tab(&session);

    // The chooser shows either character's sheet.
    choose(&session, "#sc-sheet-character", &bo);
    session.wait_text("#sc-sheet-heading", "Bo");
    choose(&session, "#sc-sheet-character", &ada);
    session.wait_text("#sc-sheet-heading", "Ada");
    assert_eq!(text_of(&session, "#sc-sheet-stage"), "Creation");
    wait_contains(&session, "#sc-sheet-points", "0 development points spent (no creation limit)");

    // A creation limit of 10 points.
    type_into(&session, "#sc-sheet-limit", "10");
    press(&session, "#sc-sheet-limit-set");
    wait_contains(&session, "#sc-sheet-points", "0 of 10 development points spent");

    // Statistics: Strength +2, Agility +1, then a point of Strength taken back.
    raise(&session, "strength", "11");
    raise(&session, "strength", "12");
    raise(&session, "agility", "11");
    take_back(&session, "strength", "11");
    wait_contains(&session, "#sc-sheet-points", "2 of 10");
    assert_eq!(
        session.execute("return document.getElementById('sc-sheet-power-back').disabled;", json!([])),
        json!(true),
        "nothing to take back from Power at its base"
    );

    // A Difficult skill enters at 9 + 1 and is raised once.
    type_into(&session, "#sc-sheet-skill-name", "Lockpicking");
    choose(&session, "#sc-sheet-skill-difficulty", "difficult");
    press(&session, "#sc-sheet-skill-add");
    rating_is(&session, "skill-0", "10");
    raise(&session, "skill-0", "11");
    wait_contains(&session, "#sc-sheet-skill-list", "Difficult, 2 points");

    // A Renowned magic ability enters at 7 + 1.
    type_into(&session, "#sc-sheet-ability-name", "Spark");
    choose(&session, "#sc-sheet-ability-kind", "magic");
    choose(&session, "#sc-sheet-ability-difficulty", "renowned");
    type_into(&session, "#sc-sheet-ability-notes", "Lights a fuse at a glance");
    press(&session, "#sc-sheet-ability-add");
    rating_is(&session, "ability-0", "8");
    wait_contains(&session, "#sc-sheet-ability-list", "Lights a fuse at a glance");
    wait_contains(&session, "#sc-sheet-points", "5 of 10");

    // Free skills: the first of a group of five costs the point, the second is free.
    assert_eq!(text_of(&session, "#sc-sheet-free-add"), "Add it (1 development point)");
    add_free_skill(&session, "Climbing", "8");
    rating_is(&session, "free-0", "8");
    wait_contains(&session, "#sc-sheet-points", "6 of 10");
    assert_eq!(text_of(&session, "#sc-sheet-free-add"), "Add it (free)");
    add_free_skill(&session, "Swimming", "7");
    rating_is(&session, "free-1", "7");
    wait_contains(&session, "#sc-sheet-free-next", "3 more free");
    wait_contains(&session, "#sc-sheet-points", "6 of 10");

    // An advantage for 2 points.
    type_into(&session, "#sc-sheet-adv-name", "Quick Hands");
    type_into(&session, "#sc-sheet-adv-situation", "with the hands");
    type_into(&session, "#sc-sheet-adv-modifier", "2");
    type_into(&session, "#sc-sheet-adv-points", "2");
    press(&session, "#sc-sheet-adv-add");
    wait_contains(&session, "#sc-sheet-quality-list", "Quick Hands");
    assert_eq!(text_of(&session, "#sc-sheet-quality-0-modifier"), "+2");
    wait_contains(&session, "#sc-sheet-points", "8 of 10");

    // Up to the limit, and one point past it is refused in the core's words.
    raise(&session, "strength", "12");
    raise(&session, "reaction", "11");
    wait_contains(&session, "#sc-sheet-points", "10 of 10");
    press(&session, "#sc-sheet-observation-raise");
    refused(&session, "creation limit of 10");
    rating_is(&session, "observation", "10");

    // A disadvantage, free.
    type_into(&session, "#sc-sheet-dis-name", "Bad Knee");
    type_into(&session, "#sc-sheet-dis-situation", "running");
    type_into(&session, "#sc-sheet-dis-modifier", "-2");
    press(&session, "#sc-sheet-dis-add");
    wait_contains(&session, "#sc-sheet-quality-list", "Bad Knee");
    assert_eq!(text_of(&session, "#sc-sheet-quality-1-modifier"), "−2");
    wait_contains(&session, "#sc-sheet-points", "10 of 10");
    shots_of(&session, "scattershot-sheet-creation", "#sc-sheet-head");
    shots_of(&session, "scattershot-sheet-lists", "#sc-sheet-free-skills");
    // At 360 px no rating's name breaks inside a word ("Swimmin" over "g").
    let (cut, _) = crate::breaks_at_phone_width(&session, ".sc-sheet-rating-name");
    assert_eq!(cut, Vec::<String>::new(), "words cut across lines");

    // Hit Points one tap down (a stepper, nothing typed), undone from the toast, then three
    // taps down to 7; + stops at the maximum.
    assert_eq!(text_of(&session, "#sc-sheet-current-hit_points"), "10 / 10");
    assert_eq!(
        session.execute("return document.getElementById('sc-sheet-resource-hit_points-plus').disabled;", json!([])),
        json!(true),
        "+ is off at the maximum"
    );
    press(&session, "#sc-sheet-resource-hit_points-minus");
    session.wait_text("#sc-sheet-current-hit_points", "9 / 10");
    session.wait_text("#sc-sheet-resource-hit_points", "9");
    session.wait_for("#toast-undo");
    session.click("#toast-undo");
    session.wait_text("#sc-sheet-current-hit_points", "10 / 10");
    wait_contains(&session, "#toast-message", "Undone");
    let conn = db(&db_path);
    assert_eq!(sheet_row(&conn, &ada).3, (0, 0), "the undo restored the Hit Points");
    for shown in ["9 / 10", "8 / 10", "7 / 10"] {
        press(&session, "#sc-sheet-resource-hit_points-minus");
        session.wait_text("#sc-sheet-current-hit_points", shown);
    }

    // Creation ends: no more taking back, and a point costs an experience die.
    press(&session, "#sc-sheet-finish");
    session.wait_text("#sc-sheet-stage", "Play");
    wait_contains(&session, "#sc-sheet-cost", "Each development point costs 1 experience die");
    // Finished, the sheet is played from: buying and removing wait for "✎ Edit".
    assert!(session.find("#sc-sheet-power-raise").is_err(), "no +1 in play mode");
    press(&session, "#sc-sheet-mode");
    session.wait_for("#sc-sheet-power-raise");
    assert!(session.find("#sc-sheet-strength-back").is_err(), "no take-back after creation");
    assert!(session.find("#sc-sheet-quality-0-remove").is_err(), "an advantage stays after creation");
    assert!(session.find("#sc-sheet-quality-1-remove").is_ok(), "a disadvantage may still go");
    press(&session, "#sc-sheet-power-raise");
    refused(&session, "experience dice");
    rating_is(&session, "power", "10");

    // The pool set to 3 pays for +1 Power.
    for shown in ["1", "2", "3"] {
        press(&session, "#sc-sheet-pool-plus");
        session.wait_text("#sc-sheet-pool", shown);
    }
    wait_contains(&session, "#sc-sheet-dice", "3 experience dice in the pool");
    raise(&session, "power", "11");
    wait_contains(&session, "#sc-sheet-dice", "2 experience dice in the pool");
    wait_contains(&session, "#sc-sheet-points", "11 development points spent");
    session.wait_text("#sc-sheet-current-power", "11 / 11");

    // Power expended on Spark.
    choose(&session, "#sc-sheet-expend-ability", "0");
    type_into(&session, "#sc-sheet-expend-amount", "3");
    press(&session, "#sc-sheet-expend-submit");
    session.wait_text("#sc-sheet-current-power", "8 / 11");
    shots_of(&session, "scattershot-sheet-play", "#sc-sheet-head");
    shots_of(&session, "scattershot-sheet-abilities", "#sc-sheet-abilities");
    dismiss_toast(&session);

    // What is saved.
    assert_eq!(
        sheet_row(&conn, &ada),
        ("play".to_string(), Some(10), (2, 1, 0, 1, 0, 1), (3, 3), 2),
        "stage, limit, statistics, resources lost and experience dice of Ada"
    );
    assert_eq!(
        rows(&conn, "SELECT name, difficulty, points FROM sc_skills WHERE character_id = ?1 ORDER BY position", &ada),
        vec![json!(["Lockpicking", "difficult", 2])]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT name, starting_level, raised FROM sc_free_skills WHERE character_id = ?1 ORDER BY position",
            &ada
        ),
        vec![json!(["Climbing", 8, 0]), json!(["Swimming", 7, 0])]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT name, kind, difficulty, points, notes FROM sc_special_abilities WHERE character_id = ?1 ORDER BY position",
            &ada
        ),
        vec![json!(["Spark", "magic", "renowned", 1, "Lights a fuse at a glance"])]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT kind, name, situation, modifier, points FROM sc_qualities WHERE character_id = ?1 ORDER BY position",
            &ada
        ),
        vec![
            json!(["advantage", "Quick Hands", "with the hands", 2, 2]),
            json!(["disadvantage", "Bad Knee", "running", -2, 0])
        ]
    );
    let bo_sheet = sheet_row(&conn, &bo);
    assert_eq!((bo_sheet.0.as_str(), bo_sheet.2), ("creation", (0, 0, 0, 0, 0, 0)), "Bo's sheet is untouched");
    drop(session);

    // After a restart, in dark mode: the app reopens where it was (the Scattershot screen),
    // and the sheet reads the same.
    let session = open_dark(&db_path);
    session.wait_for("#scattershot-screen");
    press(&session, "#sc-tab-sheet");
    choose(&session, "#sc-sheet-character", &ada);
    session.wait_text("#sc-sheet-stage", "Play");
    rating_is(&session, "strength", "12");
    rating_is(&session, "skill-0", "11");
    assert_eq!(text_of(&session, "#sc-sheet-current-power"), "8 / 11");
    shots_of(&session, "scattershot-sheet-dark", "#sc-sheet-head");
    shots_of(&session, "scattershot-sheet-dark-lists", "#sc-sheet-abilities");
}

/// Issue 13: a player rolls alone, from their own sheet. Tapping Agility on Ada's sheet
/// opens the roll with Ada acting at her Agility; the resistor is someone on another phone
/// whose MIB (2) is typed in, so the odds count only Ada's 100 rolls (Agility 10 against a
/// MIB of 2 succeeds when 2d10 ≤ 8: 28 of 100). Ada's 2d10 are typed in, no dice are asked
/// for the resistor, and the roll is logged like any other.
#[test]
fn a_roll_from_the_sheet_against_someone_elsewhere() {
    let (_window, _scratch, _db_path, session) = begin_with("scattershot-elsewhere", open);
    new_game(&session, "Lone Phone", "scattershot");
    let ada = create_character(&session, "Ada");
    open_the_sheet_tab(&session);
    session.wait_text("#sc-sheet-heading", "Ada");

    // One tap on the statistic starts the roll with it.
    press(&session, "#sc-sheet-agility-roll");
    session.wait_for("#sc-roll-setup");
    assert_eq!(session.execute("return document.getElementById('sc-roll-actor').value;", json!([])), json!(ada));
    assert_eq!(
        session.execute("return document.getElementById('sc-roll-actor-rating').value;", json!([])),
        json!("statistic:agility")
    );
    press(&session, "#sc-roll-by-hand");
    press(&session, "#sc-roll-contested");
    choose(&session, "#sc-roll-resistor-known", "rolled");
    type_into(&session, "#sc-roll-resistor-description", "Bo, on his phone");
    type_into(&session, "#sc-roll-resistor-rolled", "2");
    session.wait_until("the odds against a MIB typed in", || {
        session.find("#sc-odds-resistor").ok().filter(|e| e.text().contains("rolled elsewhere, MIB 2"))
    });
    session.wait_text("#sc-odds-success", "28.0%");
    wait_contains(&session, ".sc-success .sc-odds-ways", "28 of 100");
    shots_of(&session, "scattershot-roll-elsewhere", "#sc-roll-setup");
    press(&session, "#sc-roll-start");
    session.wait_for("#sc-roll-live");
    wait_contains(&session, "#sc-rolled-resistor", "Rolled elsewhere: MIB 2");
    assert!(session.find("#sc-dice-resistor-1").is_err(), "no dice are asked for the resistor");

    // Ada rolls 2 and 3: her MIB 5, the RMIB 5 − 2 = 3.
    crate::scattershot::enter_2d10(&session, "actor", "2", "3");
    crate::scattershot::decide_and_conclude(&session, "3", "Success", "3");
    shots_of(&session, "scattershot-roll-elsewhere-result", "#sc-roll-result");
    dismiss_toast(&session);
    press(&session, "#sc-tab-log");
    wait_contains(&session, "#scattershot-body", "who made it by 2");
}
