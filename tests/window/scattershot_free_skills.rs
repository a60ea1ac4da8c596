//! Scattershot's game list of free skills and its penalty for reduced resources, driven like
//! a person: the Gamemaster writes the list on the table tab (a line without a level refused
//! in words naming the line, a skill twice refused in the core's words, nothing saved), then
//! a list of three saved and read back from `sc_free_skill_list`; the table sets its rule for
//! low resources. On Ada's sheet a free skill is picked from the list at its level (read back
//! from `sc_free_skills`), and her Hit Points stepped down to the table's line give her rolls
//! −1. Screenshots at 1280 and 360 px wide, dark.

use crate::mezzo::{db, shots_of, text_of, wait_contains};
use crate::scattershot::table;
use crate::scattershot_sheet::{choose, press, type_into};
use crate::{begin_with, open_dark};

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
