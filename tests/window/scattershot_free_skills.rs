//! Scattershot's game list of free skills and its penalty for reduced resources, driven like
//! a person: the Gamemaster writes the list on the table tab (a line without a level refused
//! in words naming the line, a skill twice refused in the core's words, nothing saved), then
//! a list of three saved and read back from `sc_free_skill_list`; the table sets its rule for
//! low resources. On Ada's sheet a free skill is picked from the list at its level (read back
//! from `sc_free_skills`), and her Hit Points stepped down to the table's line give her rolls
//! −1. Screenshots at 1280 and 360 px wide, dark.
//!
//! The game's skill listings (audit D-SC5): the Gamemaster lists Climbing with a default
//! (Agility −3, only with a rope to hand; a default with no restriction refused naming the
//! field) and Surgery with none (read back from `sc_skill_listings`); on the roll screen Ada,
//! who has not bought Climbing, picks it by default: its restriction is shown before the roll,
//! the odds use 7, and the log line of her roll names the restriction. Surgery is not offered.
//! On her sheet a skill is picked from the listings with its difficulty; then Surgery is
//! removed from the list. Screenshots at 1280 and 360 px wide, light and dark.

use crate::mezzo::{db, shots_of, text_of, wait_contains};
use crate::scattershot::table;
use crate::scattershot_sheet::{choose, press, type_into};
use crate::{begin_with, in_dark, open, open_dark};
use serde_json::json;

fn listed(conn: &rusqlite::Connection, game: &str) -> Vec<(String, i64)> {
    let mut stmt = conn
        .prepare("SELECT name, starting_level FROM sc_free_skill_list WHERE game_id = ?1 ORDER BY position")
        .unwrap();
    stmt.query_map([game], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
}

/// Lines as a person types them into a box: Enter between them.
fn lines(lines: &[&str]) -> String {
    lines.join("\u{E007}")
}

#[test]
fn the_gamemaster_writes_the_games_list_of_free_skills_and_the_rule_for_low_resources() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-free-skills", open_dark);
    let (game, ada, _bo, _cy) = table(&session, "Tin Harbour");
    let conn = db(&db_path);
    press(&session, "#sc-tab-table");
    wait_contains(&session, "#sc-free-skills-empty", "No list yet");

    // A line without its level is refused in words naming the line; nothing is saved.
    type_into(&session, "#sc-free-skills-text", &lines(&["Swimming 9", "Haggling"]));
    press(&session, "#sc-free-skills-save");
    wait_contains(&session, "#error-message", "Line 2, “Haggling”: write the skill's name, then its starting level");
    assert!(listed(&conn, &game).is_empty());
    press(&session, "#error-dismiss");
    // A skill twice (whatever its case) is refused by the core, naming it.
    type_into(&session, "#sc-free-skills-text", &lines(&["Swimming 9", "Haggling 8", "swimming 3"]));
    press(&session, "#sc-free-skills-save");
    wait_contains(&session, "#error-message", "\"swimming\" is on the list twice");
    assert!(listed(&conn, &game).is_empty());
    press(&session, "#error-dismiss");

    type_into(&session, "#sc-free-skills-text", &lines(&["Swimming 9", "  Haggling   8  ", "", "Knot-tying −1"]));
    press(&session, "#sc-free-skills-save");
    wait_contains(&session, "#toast-message", "The list of free skills has 3 skill(s).");
    assert_eq!(
        listed(&conn, &game),
        [("Swimming".into(), 9), ("Haggling".into(), 8), ("Knot-tying".into(), -1)],
        "in the Gamemaster's order, names trimmed"
    );
    let shown = text_of(&session, "#sc-free-skills-list");
    assert!(shown.contains("Haggling — starts at 8") && shown.contains("Knot-tying — starts at -1"), "{shown}");
    shots_of(&session, "scattershot-free-skills", "#sc-free-skills");

    // The table's rule for low resources is a table setting like the others.
    type_into(&session, "#sc-setting-low_resource_percent", "30");
    press(&session, "#sc-setting-low_resource_percent-save");
    wait_contains(&session, "#toast-message", "goes from 0 to 30");

    // On Ada's sheet a free skill is picked from the list, at the list's level: nothing typed.
    press(&session, "#sc-tab-sheet");
    choose(&session, "#sc-sheet-character", &ada);
    let offered = text_of(&session, "#sc-sheet-free-name");
    assert!(offered.contains("Haggling (starts at 8)") && offered.contains("Knot-tying (starts at -1)"), "{offered}");
    choose(&session, "#sc-sheet-free-name", "Haggling");
    press(&session, "#sc-sheet-free-add");
    wait_contains(&session, "#sc-sheet-free-list", "Haggling");
    let taken: (String, i64) = conn
        .query_row("SELECT name, starting_level FROM sc_free_skills WHERE character_id = ?1", [&ada], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(taken, ("Haggling".into(), 8));
    assert!(!text_of(&session, "#sc-sheet-free-name").contains("Haggling"), "not offered twice");
    shots_of(&session, "scattershot-free-skill-picked", "#sc-sheet-free-skills");

    // Ada's Hit Points down to 3 of 10 (30 %): her rolls take the table's −1 at once.
    for _ in 0..7 {
        press(&session, "#sc-sheet-resource-hit_points-minus");
    }
    session.wait_text("#sc-sheet-current-hit_points", "3 / 10");
    wait_contains(&session, "#sc-sheet-reduced", "−1 to every roll: reduced resources");
}

/// A listing as stored: name, difficulty, and its default's statistic, modifier and restriction.
type StoredListing = (String, String, Option<String>, Option<i64>, Option<String>);

fn listings(conn: &rusqlite::Connection, game: &str) -> Vec<StoredListing> {
    let mut stmt = conn
        .prepare(
            "SELECT name, difficulty, default_statistic, default_modifier, default_restriction FROM sc_skill_listings \
             WHERE game_id = ?1 ORDER BY position",
        )
        .unwrap();
    stmt.query_map([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn the_gamemaster_lists_a_skill_with_a_default_and_ada_rolls_it_unbought_under_its_restriction() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-skill-listings", open);
    let (game, ada, _bo, _cy) = table(&session, "Iron Steps");
    let conn = db(&db_path);
    press(&session, "#sc-tab-table");
    wait_contains(&session, "#sc-skill-listings-empty", "No listings yet.");

    // Climbing, by default from Agility −3: with no restriction written, refused by its field.
    type_into(&session, "#sc-listing-name", "Climbing");
    choose(&session, "#sc-listing-difficulty", "difficult");
    assert!(!session.find("#sc-listing-default").unwrap().is_displayed(), "no default's boxes before one is chosen");
    choose(&session, "#sc-listing-from", "agility");
    type_into(&session, "#sc-listing-modifier", "-3");
    press(&session, "#sc-listing-add");
    wait_contains(
        &session,
        "#error-message",
        "listings[0].default.restriction: a default states its Opportunity restriction",
    );
    assert!(listings(&conn, &game).is_empty(), "nothing saved");
    press(&session, "#error-dismiss");
    type_into(&session, "#sc-listing-restriction", "only with a rope to hand");
    press(&session, "#sc-listing-add");
    wait_contains(&session, "#toast-message", "The game has 1 skill listing(s), 1 with a default.");
    // Surgery, with no default.
    type_into(&session, "#sc-listing-name", "Surgery");
    choose(&session, "#sc-listing-difficulty", "renowned");
    choose(&session, "#sc-listing-from", "");
    press(&session, "#sc-listing-add");
    wait_contains(&session, "#toast-message", "The game has 2 skill listing(s), 1 with a default.");
    assert_eq!(
        listings(&conn, &game),
        [
            (
                "Climbing".into(),
                "difficult".into(),
                Some("agility".into()),
                Some(-3),
                Some("only with a rope to hand".into())
            ),
            ("Surgery".into(), "renowned".into(), None, None, None),
        ]
    );
    wait_contains(&session, "#sc-listing-0", "Climbing — Difficult; by default Agility −3, only with a rope to hand");
    wait_contains(&session, "#sc-listing-1", "Surgery — Renowned; no default (only bought)");
    shots_of(&session, "scattershot-skill-listings", "#sc-skill-listings");
    in_dark(&session, || shots_of(&session, "scattershot-skill-listings-dark", "#sc-skill-listings"));

    // On the roll screen Ada may roll Climbing by default (Agility 10 − 3 = 7), not Surgery.
    press(&session, "#sc-tab-roll");
    choose(&session, "#sc-roll-actor", &ada);
    let offered = text_of(&session, "#sc-roll-actor-rating");
    assert!(offered.contains("Climbing by default (7)") && !offered.contains("Surgery"), "{offered}");
    assert!(!session.find("#sc-roll-actor-default-note").unwrap().is_displayed(), "no restriction for a statistic");
    choose(&session, "#sc-roll-actor-rating", "default:0");
    session.wait_text(
        "#sc-roll-actor-default-note",
        "By default, from Agility −3. Opportunity restriction: only with a rope to hand",
    );
    // The exact odds before the roll use 7: 2d10 at most 7 in 21 of 100.
    wait_contains(&session, "#sc-odds-summary", "Succeeds 21.0%");
    wait_contains(&session, "#sc-odds-actor", "Climbing by default 7 (only with a rope to hand)");
    shots_of(&session, "scattershot-roll-by-default", "#sc-roll-setup");
    in_dark(&session, || shots_of(&session, "scattershot-roll-by-default-dark", "#sc-roll-setup"));
    press(&session, "#sc-roll-quick");
    session.wait_for("#sc-roll-live, #sc-roll-reading");
    // Nobody bids here: the table lets the number stand, and the next roll's set-up shows.
    if session.find("#sc-roll-settle").is_ok() {
        press(&session, "#sc-roll-settle");
    } else if session.find("#sc-roll-conclude").is_ok() {
        press(&session, "#sc-roll-conclude");
    }
    session.wait_for("#sc-roll-reading");
    // The log line of the roll names the default and its restriction.
    press(&session, "#sc-tab-log");
    session.wait_for("#sc-log-undo");
    let logged = session.execute(
        "return [...document.querySelectorAll('#scattershot-body li')].some((li) => li.textContent.includes(arguments[0]));",
        json!(["Ada rolls at 7 +0, Climbing by default (only with a rope to hand)."]),
    );
    assert_eq!(logged, json!(true), "the restriction is in the log");

    // On Ada's sheet, Climbing is picked from the listings with its difficulty filled in.
    press(&session, "#sc-tab-sheet");
    choose(&session, "#sc-sheet-character", &ada);
    choose(&session, "#sc-sheet-skill-listing", "Climbing");
    let difficulty = session.execute("return document.getElementById('sc-sheet-skill-difficulty').value;", json!([]));
    assert_eq!(difficulty, json!("difficult"));
    press(&session, "#sc-sheet-skill-add");
    wait_contains(&session, "#sc-sheet-skill-list", "Climbing");
    let bought: (String, String) = conn
        .query_row("SELECT name, difficulty FROM sc_skills WHERE character_id = ?1", [&ada], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(bought, ("Climbing".into(), "difficult".into()));
    // Bought, Climbing is no longer offered by default: it rolls at its own rating (9 + 1).
    press(&session, "#sc-tab-roll");
    choose(&session, "#sc-roll-actor", &ada);
    let offered = text_of(&session, "#sc-roll-actor-rating");
    assert!(offered.contains("Climbing (10)") && !offered.contains("by default"), "{offered}");

    // The Gamemaster takes Surgery off the list; Climbing stays.
    press(&session, "#sc-tab-table");
    press(&session, "#sc-listing-1-remove");
    wait_contains(&session, "#toast-message", "The game has 1 skill listing(s), 1 with a default.");
    let left: Vec<String> = listings(&conn, &game).into_iter().map(|l| l.0).collect();
    assert_eq!(left, ["Climbing"]);
}
