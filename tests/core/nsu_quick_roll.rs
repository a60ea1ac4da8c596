//! The NSU quick roll (issue 32) through the services: a tap on the sheet opens a set-up
//! filled in from what was tapped and the character's last settled roll, read from the log,
//! with the exact odds at once; a roll whose desired outcome was left for later is logged as
//! "to be written", and written afterwards on its log entry without touching the sheet or undo.

use rand::SeedableRng;
use sheetkeeper::rules::nsu::quick::{QuickStart, OUTCOME_TO_BE_WRITTEN};
use sheetkeeper::rules::nsu::roll::{AtRisk, Edge, MoodChoice, RollSetup, SkillChoice};
use sheetkeeper::rules::nsu::{Aspect, Die, Sheet};
use sheetkeeper::services::*;
use sheetkeeper::Store;
use uuid::Uuid;

use crate::support::{full_nsu_sheet, game_with, Scratch};

fn sheet() -> Sheet {
    // Body d4, Mind d8, Heart d6; Curious (line 0), Anxious (line 2), Calm (line 4).
    full_nsu_sheet([Die::D4, Die::D8, Die::D6], [(1, false), (1, false), (0, false)])
}

fn wren() -> (Scratch, Store, Uuid, Uuid) {
    let s = Scratch::new();
    let mut store = s.open();
    let game = game_with(&mut store, "Valley", "nsu", &["Wren"]);
    let wren = game.characters[0].id;
    save_nsu_sheet(&mut store, wren, sheet()).unwrap();
    (s, store, wren, game.game.id)
}

fn tapped_mood(line: usize) -> QuickStart {
    QuickStart { mood_line: Some(line), ..QuickStart::default() }
}

/// Rolls `setup` (the app's dice, seeded) and settles it with the default choices.
fn roll_and_settle(store: &mut Store, who: Uuid, setup: &RollSetup) -> RollResult {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let pending = nsu_roll_dice(store, who, setup, &DiceInput::Rolled, &mut rng).expect("the dice");
    nsu_roll_resolve(store, who, &pending.choices).expect("settled")
}

#[test]
fn a_first_quick_roll_has_the_tapped_mood_the_biggest_aspect_and_its_exact_odds() {
    let (_s, store, wren, _) = wren();
    let quick = nsu_quick_roll(&store, wren, &tapped_mood(2)).unwrap();
    assert!(!quick.from_last_roll);
    assert_eq!(quick.setup.mood, MoodChoice::Existing { line: 2 }, "the mood tapped");
    assert_eq!((quick.setup.aspect, quick.setup.at_risk), (Aspect::Mind, AtRisk::Character), "Mind has the d8");
    assert_eq!(quick.setup.desired_outcome, "", "the player says it, or writes it later");
    assert_eq!(quick.outcome_to_be_written, OUTCOME_TO_BE_WRITTEN);
    let same = RollSetup { desired_outcome: OUTCOME_TO_BE_WRITTEN.into(), ..quick.setup.clone() };
    let preview = nsu_roll_preview(&store, wren, &same, None, Edge::None).unwrap();
    assert_eq!(quick.preview, Some(preview), "the exact odds, as the odds step shows them");
    assert_eq!(quick.cannot, None);
}

#[test]
fn the_next_quick_roll_follows_the_last_settled_roll_in_the_log_but_not_an_undone_one() {
    let (_s, mut store, wren, _) = wren();
    let mut first = RollSetup::new("Climb the tower", Aspect::Heart, AtRisk::World, MoodChoice::Existing { line: 4 });
    first.skill = Some(SkillChoice::Existing { line: 1 });
    first.risked_sentiment = Some(0);
    first.aspect_advantages = 1;
    roll_and_settle(&mut store, wren, &first);

    // Tapping the Anxious mood: the mood tapped, the rest as the last roll left it.
    let quick = nsu_quick_roll(&store, wren, &tapped_mood(2)).unwrap();
    assert!(quick.from_last_roll);
    assert_eq!((quick.setup.aspect, quick.setup.at_risk), (Aspect::Heart, AtRisk::World));
    assert_eq!(quick.setup.mood, MoodChoice::Existing { line: 2 });
    assert_eq!(quick.setup.skill, Some(SkillChoice::Existing { line: 1 }));
    assert_eq!(
        (quick.setup.risked_sentiment, quick.setup.aspect_advantages, quick.setup.desired_outcome.as_str()),
        (None, 0, ""),
        "a sentiment, details and the outcome belong to their own moment"
    );
    // Tapping an aspect keeps the last mood.
    let body = QuickStart { aspect: Some(Aspect::Body), ..QuickStart::default() };
    let quick = nsu_quick_roll(&store, wren, &body).unwrap();
    assert_eq!((quick.setup.aspect, quick.setup.mood.clone()), (Aspect::Body, MoodChoice::Existing { line: 4 }));

    // A second roll taken back with undo is not the last one.
    let second = RollSetup::new("Run", Aspect::Body, AtRisk::Character, MoodChoice::Existing { line: 0 });
    roll_and_settle(&mut store, wren, &second);
    assert_eq!(nsu_quick_roll(&store, wren, &QuickStart::default()).unwrap().setup.aspect, Aspect::Body);
    undo_character(&mut store, wren).unwrap();
    let quick = nsu_quick_roll(&store, wren, &QuickStart::default()).unwrap();
    assert_eq!((quick.setup.aspect, quick.setup.mood), (Aspect::Heart, MoodChoice::Existing { line: 4 }));
}

#[test]
fn an_overcome_character_gets_the_set_up_and_why_it_cannot_roll() {
    let (_s, mut store, wren, _) = wren();
    let mut hurt = sheet();
    hurt.harm = (1..=4).map(|i| format!("Wound {i}")).collect();
    save_nsu_sheet(&mut store, wren, hurt).unwrap();
    let quick = nsu_quick_roll(&store, wren, &tapped_mood(0)).unwrap();
    assert_eq!(quick.preview, None);
    assert!(quick.cannot.as_deref().is_some_and(|c| c.contains("Overcome")), "{:?}", quick.cannot);
}

#[test]
fn an_outcome_left_for_later_is_written_on_the_log_entry_and_undo_passes_over_it() {
    let (_s, mut store, wren, game) = wren();
    let later =
        RollSetup::new(OUTCOME_TO_BE_WRITTEN, Aspect::Mind, AtRisk::Character, MoodChoice::Existing { line: 0 });
    let settled = roll_and_settle(&mut store, wren, &later);
    let entry = &nsu_roll_log(&store, game, Some(wren), 10).unwrap()[0];
    assert!(entry.outcome_to_write);
    assert_eq!(entry.record.roll.setup.desired_outcome, OUTCOME_TO_BE_WRITTEN);
    let sheet_after_roll = nsu_sheet(&store, wren).unwrap().sheet;

    // Bad input says which field and what is wrong, and changes nothing.
    let empty = nsu_roll_write_outcome(&mut store, wren, settled.event_id, "   ").unwrap_err().to_string();
    assert!(empty.starts_with("outcome: is empty"), "{empty}");
    let long = "x".repeat(2_001);
    assert!(nsu_roll_write_outcome(&mut store, wren, settled.event_id, &long).is_err());
    let nowhere = nsu_roll_write_outcome(&mut store, wren, settled.event_id + 100, "Hide").unwrap_err().to_string();
    assert!(nowhere.starts_with("roll: there is no settled roll"), "{nowhere}");
    assert!(nsu_roll_log(&store, game, Some(wren), 10).unwrap()[0].outcome_to_write, "nothing written");

    let done = nsu_roll_write_outcome(&mut store, wren, settled.event_id, "  Slip past the guard ").unwrap();
    assert_eq!(done.message, "Wren wanted: “Slip past the guard”.");
    let entry = &nsu_roll_log(&store, game, None, 10).unwrap()[0];
    assert_eq!(entry.record.roll.setup.desired_outcome, "Slip past the guard");
    assert!(!entry.outcome_to_write);
    nsu_roll_write_outcome(&mut store, wren, settled.event_id, "Slip past both guards").unwrap();
    let entry = &nsu_roll_log(&store, game, Some(wren), 10).unwrap()[0];
    assert_eq!(entry.record.roll.setup.desired_outcome, "Slip past both guards", "the last one written stands");
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, sheet_after_roll, "the sheet does not change");

    // Undo takes back the roll itself, not the words; a roll taken back is not written on.
    undo_character(&mut store, wren).unwrap();
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, sheet(), "the roll is undone");
    let entry = &nsu_roll_log(&store, game, Some(wren), 10).unwrap()[0];
    assert!(entry.undone);
    let undone = nsu_roll_write_outcome(&mut store, wren, settled.event_id, "Again").unwrap_err().to_string();
    assert!(undone.contains("taken back with undo"), "{undone}");
}
