//! No Stone Unturned sheets in the store: created with the character, edited whole, undone,
//! copied, deleted with the character, and guarded by the schema's checks.

use rusqlite::Connection;
use sheetkeeper::rules::nsu::{Die, Sheet};
use sheetkeeper::services::*;
use sheetkeeper::Error;

use crate::support::{full_nsu_sheet, new_game};

fn filled() -> Sheet {
    let mut sheet = full_nsu_sheet([Die::D4, Die::D8, Die::D6], [(2, false), (4, true), (0, false)]);
    (sheet.pronouns, sheet.look) = ("they/them".into(), "Tall, ink on their fingers".into());
    sheet.harm = vec!["Bruised ribs".into()];
    sheet
}

#[test]
fn a_new_nsu_character_has_an_empty_sheet_that_creation_still_needs_to_fill() {
    let (_s, store, _, [wren]) = new_game("Valley", "nsu", ["Wren"]);
    let view = nsu_sheet(&store, wren).unwrap();
    assert_eq!(view.sheet, Sheet::default());
    assert!(!view.overcome);
    assert_eq!(view.creation_missing.len(), 6);
}

#[test]
fn an_edited_sheet_is_saved_reloaded_and_undone() {
    let (s, mut store, _, [id]) = new_game("Valley", "nsu", ["Wren"]);
    let saved = save_nsu_sheet(&mut store, id, filled()).unwrap();
    assert_eq!(saved.creation_missing, Vec::<&str>::new());
    assert_eq!(saved.character.revision, 2);
    drop(store);
    let mut store = s.open();
    assert_eq!(nsu_sheet(&store, id).unwrap().sheet, filled(), "every field survives a reopen");
    undo_character(&mut store, id).unwrap();
    assert_eq!(nsu_sheet(&store, id).unwrap().sheet, Sheet::default());
}

#[test]
fn a_sheet_that_breaks_a_rule_is_refused_naming_the_field_and_nothing_changes() {
    let (_s, mut store, _, [id]) = new_game("Valley", "nsu", ["Wren"]);
    let mut bad = filled();
    bad.moods[4].as_mut().unwrap().level = 6;
    let err = save_nsu_sheet(&mut store, id, bad).unwrap_err();
    assert_eq!(err.to_string(), "sheet.moods[4].level: 6 is out of range: a D4 mood's level is 0 to 5");
    let mut two = filled();
    two.moods[0].as_mut().unwrap().overloaded = true;
    two.harm = vec!["x".into(); 5];
    let err = save_nsu_sheet(&mut store, id, two).unwrap_err();
    assert!(err.to_string().ends_with("(and 1 more problem)"), "{err}");
    assert_eq!(nsu_sheet(&store, id).unwrap().sheet, Sheet::default());
}

#[test]
fn the_fourth_harm_detail_shows_overcome() {
    let (_s, mut store, _, [wren]) = new_game("Valley", "nsu", ["Wren"]);
    let mut sheet = filled();
    sheet.harm = vec!["a".into(), "b".into(), "c".into(), "d".into()];
    assert!(save_nsu_sheet(&mut store, wren, sheet).unwrap().overcome);
}

#[test]
fn a_copy_carries_the_sheet_and_a_deleted_character_comes_back_with_it() {
    let (_s, mut store, game, [id]) = new_game("Valley", "nsu", ["Wren"]);
    save_nsu_sheet(&mut store, id, filled()).unwrap();
    let copy = copy_character(&mut store, id, game).unwrap();
    assert_eq!(nsu_sheet(&store, copy.id).unwrap().sheet, filled());
    delete_character(&mut store, id).unwrap();
    assert!(store.read().nsu_sheet(id).unwrap().is_none(), "the sheet goes with the character");
    undo_character(&mut store, id).unwrap();
    assert_eq!(nsu_sheet(&store, id).unwrap().sheet, filled());
    delete_game(&mut store, game).unwrap();
    undo_game(&mut store, game).unwrap();
    assert_eq!(nsu_sheet(&store, copy.id).unwrap().sheet, filled(), "undoing a game's deletion restores sheets");
}

#[test]
fn another_systems_character_has_no_nsu_sheet() {
    let (_s, mut store, _, [id]) = new_game("Stakes", "penny_ante", ["Dolly"]);
    let err = nsu_sheet(&store, id).unwrap_err();
    assert!(matches!(err, Error::Invalid { .. }));
    assert!(err.to_string().contains("is a Penny Ante character"), "{err}");
    assert!(save_nsu_sheet(&mut store, id, filled()).is_err());
}

#[test]
fn the_schema_refuses_sheets_that_break_the_rules() {
    let (s, mut store, _, [wren]) = new_game("Valley", "nsu", ["Wren"]);
    save_nsu_sheet(&mut store, wren, filled()).unwrap();
    let id = wren.to_string();
    drop(store);
    let conn = Connection::open(s.db()).unwrap();
    let refused = |sql: &str| conn.execute(sql, [&id]).is_err();
    assert!(refused("UPDATE nsu_moods SET level = 10 WHERE character_id = ?1 AND line = 0"), "level above die + 1");
    assert!(refused("UPDATE nsu_moods SET overloaded = 1 WHERE character_id = ?1 AND line = 0"), "two overloads");
    assert!(refused("UPDATE nsu_moods SET die = 6 WHERE character_id = ?1 AND line = 0"), "a d8 line holds a d8");
    assert!(refused("UPDATE nsu_sheets SET heart_die = 8 WHERE character_id = ?1"), "aspect dice repeat");
    assert!(refused("INSERT INTO nsu_details VALUES (?1, 'harm', 4, 'fifth', NULL)"), "a fifth harm slot");
    assert!(refused("UPDATE nsu_skills SET modifier = -1 WHERE character_id = ?1"), "negative skill");
    assert!(refused("UPDATE nsu_sentiments SET state = 'fond' WHERE character_id = ?1"), "unknown state");
    assert!(refused("UPDATE nsu_sheets SET recovery_points = -1 WHERE character_id = ?1"), "negative points");
}
