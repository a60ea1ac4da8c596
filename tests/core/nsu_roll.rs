//! NSU action rolls through the services: odds first, dice rolled or typed in, a helper, the
//! table's choices, the sheets written, the roll log, and undo.

use rand::SeedableRng;
use sheetkeeper::rules::nsu::downtime::{PhaseSetup, ScoutOutcome};
use sheetkeeper::rules::nsu::odds::{action_odds, ActionRollSetup};
use sheetkeeper::rules::nsu::roll::{
    AtRisk, Choices, Edge, FinalBox, HelpedWith, MoodChoice, Need, RemoteHelper, RollEvent, RollSetup, SkillChoice,
    Winner,
};
use sheetkeeper::rules::nsu::world::GridPos;
use sheetkeeper::rules::nsu::{Aspect, Die, Mood, SentimentState, Sheet};
use sheetkeeper::services::*;
use sheetkeeper::Store;
use uuid::Uuid;

use crate::support::{full_nsu_sheet, game_with, Scratch};

fn sheet() -> Sheet {
    full_nsu_sheet([Die::D4, Die::D8, Die::D6], [(2, false), (1, false), (0, false)])
}

fn setup(mood_line: usize) -> RollSetup {
    let mood = MoodChoice::Existing { line: mood_line };
    RollSetup {
        skill: Some(SkillChoice::Existing { line: 0 }),
        ..RollSetup::new("Find the hidden door", Aspect::Mind, AtRisk::Character, mood)
    }
}

/// A game with two NSU characters, Wren and Ash, both with `sheet()`.
fn table() -> (Scratch, Store, Uuid, Uuid) {
    let s = Scratch::new();
    let mut store = s.open();
    let game = game_with(&mut store, "Valley", "nsu", &["Ash", "Wren"]);
    let (ash, wren) = (game.characters[0].id, game.characters[1].id);
    for id in [ash, wren] {
        save_nsu_sheet(&mut store, id, sheet()).unwrap();
    }
    (s, store, wren, ash)
}

fn entered(values: &[u8]) -> DiceInput {
    DiceInput::Entered { values: values.to_vec() }
}

fn rng() -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(11)
}

#[test]
fn the_preview_shows_the_dice_and_the_exact_odds_of_the_odds_module() {
    let (_s, store, wren, _) = table();
    let mut risky = setup(0);
    risky.risked_sentiment = Some(1);
    risky.aspect_advantages = 2;
    risky.aspect_disadvantages = 1;
    let preview = nsu_roll_preview(&store, wren, &risky, Some(Die::D6), Edge::None).unwrap();
    assert_eq!((preview.plan.aspect_die, preview.plan.mood_die), (Die::D8, Die::D8));
    assert_eq!((preview.plan.aspect_edge, preview.plan.mood_edge), (Edge::Advantage, Edge::Advantage));
    let exact = action_odds(&ActionRollSetup {
        aspect_die: Die::D8,
        mood_die: Die::D8,
        at_risk: AtRisk::Character,
        aspect_edge: Edge::Advantage,
        mood_edge: Edge::Advantage,
        skill: 1,
        helper_die: Some(Die::D6),
        helper_edge: Edge::None,
    });
    assert_eq!(preview.odds.win, exact.win.probability());
    assert!((preview.odds.win + preview.odds.tie + preview.odds.lose - 1.0).abs() < 1e-12);
}

#[test]
fn a_roll_with_typed_in_dice_changes_nothing_until_settled_then_writes_the_sheet_and_the_log() {
    let (_s, mut store, wren, _) = table();
    let pending = nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[7, 3]), &mut rng()).unwrap();
    assert_eq!((pending.roll.aspect_rolls.clone(), pending.roll.mood_rolls.clone()), (vec![7], vec![3]));
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, sheet(), "rolling changes no sheet");
    assert!(nsu_pending_roll(&store, wren).unwrap().is_some());

    let result = nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap();
    // Character at risk: aspect 7 + skill 1 = 8 against mood 3: the player wins by 5.
    assert_eq!((result.record.winner, result.record.difference), (Winner::Player, 5));
    assert_eq!(result.record.grants.len(), 2, "a difference of 5 grants two hard details");
    let after = nsu_sheet(&store, wren).unwrap().sheet;
    assert_eq!(after.moods[0].as_ref().unwrap().level, 3, "the chosen mood goes up one");
    assert!(after.skills[0].as_ref().unwrap().boxes.mind, "the skill's Mind box is marked");
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none());

    let game = store.read().character(wren).unwrap().unwrap().game_id;
    let log = nsu_roll_log(&store, game, None, 10).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!((log[0].character_name.as_str(), log[0].undone), ("Wren", false));
    assert_eq!(log[0].record.roll.setup.desired_outcome, "Find the hidden door");

    undo_character(&mut store, wren).unwrap();
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, sheet(), "undo takes the whole roll back");
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none(), "its dice leave the table too");
    assert!(nsu_roll_log(&store, game, Some(wren), 10).unwrap()[0].undone);
}

#[test]
fn rolled_dice_come_from_the_passed_in_rng() {
    let (_s, mut store, wren, _) = table();
    let a = nsu_roll_dice(&mut store, wren, &setup(0), &DiceInput::Rolled, &mut rng()).unwrap();
    undo_character(&mut store, wren).unwrap();
    let b = nsu_roll_dice(&mut store, wren, &setup(0), &DiceInput::Rolled, &mut rng()).unwrap();
    assert_eq!(a.roll, b.roll, "the same seed rolls the same dice");
}

#[test]
fn one_roll_at_a_time_and_undo_takes_the_dice_off_the_table() {
    let (_s, mut store, wren, _) = table();
    nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[1, 1]), &mut rng()).unwrap();
    let err = nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[1, 1]), &mut rng()).unwrap_err();
    assert!(err.to_string().contains("a roll is already on the table"), "{err}");
    let done = undo_character(&mut store, wren).unwrap();
    assert!(done.message.contains("off the table"), "{}", done.message);
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none());
}

#[test]
fn typed_in_dice_are_checked_and_a_bad_value_rolls_nothing() {
    let (_s, mut store, wren, _) = table();
    let err = nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[9, 1]), &mut rng()).unwrap_err();
    assert!(err.to_string().contains("9 cannot be rolled on a d8"), "{err}");
    let err = nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[1, 1, 1]), &mut rng()).unwrap_err();
    assert_eq!(err.to_string(), "dice: 3 values were entered but this roll uses 2 dice");
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none());
}

#[test]
fn an_overcome_character_cannot_roll() {
    let (_s, mut store, wren, _) = table();
    let mut hurt = sheet();
    hurt.harm = vec!["a".into(), "b".into(), "c".into(), "d".into()];
    save_nsu_sheet(&mut store, wren, hurt).unwrap();
    let err = nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[1, 1]), &mut rng()).unwrap_err();
    assert!(err.to_string().to_lowercase().contains("overcome"), "{err}");
}

#[test]
fn a_helpers_die_and_sheet_change_with_the_roll_and_undo_restores_both() {
    let (_s, mut store, wren, ash) = table();
    nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[2, 6]), &mut rng()).unwrap();
    // World at risk would want a high mood die; here the Character is at risk, so a low die
    // helps: Ash's Calm d4 rolls 1, better than Wren's 6.
    let pending =
        nsu_roll_help(&mut store, wren, ash, &MoodChoice::Existing { line: 4 }, &entered(&[1]), &mut rng()).unwrap();
    assert_eq!(pending.helper.as_ref().map(|h| h.name.as_str()), Some("Ash"));
    assert!(pending.choices.use_helper_die);
    let result = nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap();
    assert_eq!((result.record.winner, result.record.mood_used), (Winner::Player, 1));
    assert_eq!(nsu_sheet(&store, ash).unwrap().sheet.moods[4].as_ref().unwrap().level, 1, "the helper's mood goes up");

    undo_character(&mut store, wren).unwrap();
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, sheet());
    assert_eq!(nsu_sheet(&store, ash).unwrap().sheet, sheet(), "the helper's change is undone with the roll");
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none(), "both dice events are undone too");
    nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[2, 6]), &mut rng()).unwrap();
}

#[test]
fn filling_the_last_box_asks_for_a_new_name_and_a_sentiment() {
    let (_s, mut store, wren, _) = table();
    let mut full = sheet();
    full.moods[4].as_mut().unwrap().level = 4; // d4: five boxes; the next increment fills the last.
    save_nsu_sheet(&mut store, wren, full).unwrap();
    let pending = nsu_roll_dice(&mut store, wren, &setup(4), &entered(&[5, 2]), &mut rng()).unwrap();
    assert!(matches!(pending.needs.as_slice(), [Need::FinalBox { .. }]), "{:?}", pending.needs);
    let err = nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap_err();
    assert!(err.to_string().contains("final"), "{err}");
    let mut choices = pending.choices.clone();
    choices.final_box = Some(FinalBox { sentiment_line: Some(2), new_name: "Serene".into() });
    nsu_roll_resolve(&mut store, wren, &choices).unwrap();
    let after = nsu_sheet(&store, wren).unwrap().sheet;
    let calm = after.moods[4].as_ref().unwrap();
    assert_eq!((calm.name.as_str(), calm.level), ("Serene", 0));
    assert_eq!(after.sentiments[2].as_ref().unwrap().state, SentimentState::AtRisk);
}

#[test]
fn after_many_rolls_taken_back_undo_still_reaches_the_change_before_them() {
    // Regression: finding the change to undo walked past every undone event, so a log of
    // many rolls taken back made each roll slower than the last.
    let (_s, mut store, wren, _) = table();
    rename_character(&mut store, wren, "Wren the Bold").unwrap();
    for _ in 0..30 {
        let pending = nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[7, 3]), &mut rng()).unwrap();
        nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap();
        undo_character(&mut store, wren).unwrap();
    }
    let events = store.read().events_of_character(wren, 1000).unwrap().len();
    assert_eq!(events, 3 + 30 * 4, "created, sheet saved, renamed, then dice, result and two undos per roll");
    let done = undo_character(&mut store, wren).unwrap();
    assert_eq!(done.message, "Undone: “Wren the Bold” is called “Wren” again.");
}

#[test]
fn one_undo_takes_a_helped_roll_off_the_table() {
    let (_s, mut store, wren, ash) = table();
    nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[2, 6]), &mut rng()).unwrap();
    nsu_roll_help(&mut store, wren, ash, &MoodChoice::Existing { line: 4 }, &entered(&[1]), &mut rng()).unwrap();
    undo_character(&mut store, wren).unwrap();
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none());
}

#[test]
fn a_helper_on_another_device_is_typed_in_and_the_odds_count_their_edge() {
    let (_s, mut store, wren, ash) = table();
    // The odds with a d6 helper with advantage are the odds module's, exactly.
    let preview = nsu_roll_preview(&store, wren, &setup(0), Some(Die::D6), Edge::Advantage).unwrap();
    let exact = action_odds(&ActionRollSetup {
        aspect_die: Die::D8,
        mood_die: Die::D8,
        at_risk: AtRisk::Character,
        aspect_edge: Edge::None,
        mood_edge: Edge::None,
        skill: 1,
        helper_die: Some(Die::D6),
        helper_edge: Edge::Advantage,
    });
    assert_eq!(preview.odds.win, exact.win.probability());
    let plain = nsu_roll_preview(&store, wren, &setup(0), Some(Die::D6), Edge::None).unwrap();
    assert!(preview.odds.win > plain.odds.win);

    nsu_roll_dice(&mut store, wren, &setup(0), &entered(&[3, 7]), &mut rng()).unwrap();
    let ines = RemoteHelper { name: "Ines".into(), die: Die::D6, edge: Edge::Advantage };
    // Two faces with an edge; one is refused and nothing changes.
    assert!(nsu_roll_help_elsewhere(&mut store, wren, &ines, &entered(&[2]), &mut rng()).is_err());
    let pending = nsu_roll_help_elsewhere(&mut store, wren, &ines, &entered(&[5, 2]), &mut rng()).unwrap();
    assert_eq!(pending.helper, None);
    assert_eq!((pending.choices.helper_kept, pending.choices.use_helper_die), (Some(1), true));
    let result = nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap();
    // Mind d8 3 + Lore 1 = 4 against the helper's kept 2: Wren wins by 2.
    assert_eq!((result.record.winner, result.record.mood_used, result.record.margin), (Winner::Player, 2, 2));
    assert_eq!(nsu_sheet(&store, ash).unwrap().sheet, sheet(), "nobody's sheet here changes for a helper elsewhere");
    let log = nsu_roll_log(&store, result.sheet.character.game_id, Some(wren), 10).unwrap();
    assert_eq!(log[0].helper_name.as_deref(), Some("Ines"));
    assert_eq!(log[0].record.roll.help.as_ref().map(|h| h.rolls()), Some(vec![5, 2]));
    // One undo takes the roll, and the typed-in help with it, back.
    undo_character(&mut store, wren).unwrap();
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none());
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, sheet());
}

#[test]
fn i_helped_with_is_its_own_logged_undoable_change_on_the_helpers_sheet() {
    let (_s, mut store, wren, ash) = table();
    let input = HelpedWith {
        roll: "Ines, climbing the tower".into(),
        mood: MoodChoice::Existing { line: 2 },
        rolls: vec![1],
        kept: None,
        winner: Winner::Player,
        final_box: None,
        overload_end_sentiment: None,
    };
    assert_eq!(nsu_helped_with_needs(&store, ash, &input).unwrap(), []);
    let bad = HelpedWith { rolls: vec![9], ..input.clone() };
    assert!(nsu_helped_with(&mut store, ash, &bad).unwrap_err().to_string().starts_with("rolls"));
    assert_eq!(nsu_sheet(&store, ash).unwrap().sheet, sheet(), "a refused input changes nothing");
    let done = nsu_helped_with(&mut store, ash, &input).unwrap();
    assert_eq!(done.message, "Ash helped with Ines, climbing the tower.");
    let anxious = done.sheet.sheet.moods[2].clone().unwrap();
    assert_eq!((anxious.level, anxious.overloaded), (2, false));
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, sheet(), "no other sheet changes");
    let events = store.read().events_of_character(ash, 10).unwrap();
    assert!(events.iter().any(|e| e.payload["helped_with"]["roll"] == "Ines, climbing the tower"));
    undo_character(&mut store, ash).unwrap();
    assert_eq!(nsu_sheet(&store, ash).unwrap().sheet, sheet());
}

// ---- scouting through the roll (RULES.md §1.4 Scout) -----------------------------------------

/// Wren and Ash at the table, one face-down card "Mill" on the map 1 east of the settlement,
/// and a downtime phase at home (one action each). Returns the game and the card.
fn scouting() -> (Scratch, Store, Uuid, Uuid, Uuid, Uuid) {
    let (s, mut store, wren, ash) = table();
    let game = store.read().character(wren).unwrap().unwrap().game_id;
    let draft = LocationDraft {
        name: "Mill".into(),
        author: "Bo".into(),
        description: "A mill that grinds bones".into(),
        collateral_harms: String::new(),
        danger: String::new(),
        treasure: String::new(),
        author_character: None,
    };
    let card = nsu_world_author_location(&mut store, game, &draft).unwrap().world.locations[0].id;
    // Laid on the map by the store directly: how cards reach the map is the world's business.
    let mut world = store.read().nsu_world(game).unwrap();
    world.locations[0].position = Some(GridPos { x: 1, y: 0 });
    store.write(|tx| tx.put_nsu_world(game, &world)).unwrap();
    nsu_downtime_start(&mut store, game, &[wren, ash], PhaseSetup { at_home: true, time_units: 0 }).unwrap();
    (s, store, game, wren, ash, card)
}

fn scout_setup(card: Uuid) -> RollSetup {
    RollSetup { desired_outcome: "Sneak close to the mill".into(), scout: Some(card), ..setup(0) }
}

fn actions_left(store: &Store, game: Uuid, who: Uuid) -> u8 {
    nsu_downtime(store, game).unwrap().unwrap().phase.unwrap().characters[&who].actions_left
}

fn scouted_by(store: &Store, game: Uuid, card: Uuid) -> Vec<Uuid> {
    store.read().nsu_world(game).unwrap().location(card).unwrap().scouted_by.clone()
}

#[test]
fn a_scouting_roll_is_refused_outside_downtime_and_when_the_card_cannot_be_scouted() {
    let (_s, mut store, wren, _) = table();
    let e = nsu_roll_preview(&store, wren, &scout_setup(Uuid::new_v4()), None, Edge::None).unwrap_err().to_string();
    assert!(e.starts_with("setup.scout: no downtime phase is in progress"), "{e}");
    assert!(nsu_roll_dice(&mut store, wren, &scout_setup(Uuid::new_v4()), &entered(&[7, 3]), &mut rng()).is_err());
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none(), "a refused roll puts no dice on the table");

    let (_s, mut store, game, wren, _, card) = scouting();
    assert!(nsu_roll_preview(&store, wren, &scout_setup(card), None, Edge::None).is_ok());
    // An Overcome character cannot scout (nor roll at all).
    let mut overcome = sheet();
    overcome.harm = (0..4).map(|i| format!("wound {i}")).collect();
    save_nsu_sheet(&mut store, wren, overcome).unwrap();
    let e = nsu_roll_dice(&mut store, wren, &scout_setup(card), &entered(&[7, 3]), &mut rng()).unwrap_err();
    assert!(e.to_string().starts_with("character: is Overcome"), "{e}");
    undo_character(&mut store, wren).unwrap();
    // A face-up card.
    let mut world = store.read().nsu_world(game).unwrap();
    world.locations[0].revealed = true;
    store.write(|tx| tx.put_nsu_world(game, &world)).unwrap();
    let e = nsu_roll_preview(&store, wren, &scout_setup(card), None, Edge::None).unwrap_err().to_string();
    assert!(e.contains("face up"), "{e}");
}

#[test]
fn a_won_scouting_roll_spends_the_action_and_shows_the_card_to_its_player_in_one_undoable_step() {
    let (_s, mut store, game, wren, _, card) = scouting();
    set_device_role(&mut store, game, "player").unwrap();
    set_mine(&mut store, wren, true).unwrap();
    let before = nsu_sheet(&store, wren).unwrap().sheet;
    let pending = nsu_roll_dice(&mut store, wren, &scout_setup(card), &entered(&[7, 3]), &mut rng()).unwrap();
    assert!(pending.needs.is_empty());
    let result = nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap();
    assert_eq!(result.record.winner, Winner::Player);
    let scouted = result.scouted.unwrap();
    assert_eq!((scouted.location, scouted.outcome), (card, ScoutOutcome::Won));
    assert_eq!(scouted.face.unwrap().name, "Mill", "the scouting player sees the card's face");
    assert_eq!(actions_left(&store, game, wren), 0, "the downtime action is spent");
    assert_eq!(scouted_by(&store, game, card), [wren]);
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet.moods[0].as_ref().unwrap().level, 3, "the roll's mood rose");
    // The roll cannot be made again: the action is spent (and the card is seen).
    assert!(nsu_roll_preview(&store, wren, &scout_setup(card), None, Edge::None).is_err());

    // One undo takes back the roll, its dice, the spent action and the look at the card.
    undo_character(&mut store, wren).unwrap();
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, before);
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none());
    assert_eq!(actions_left(&store, game, wren), 1);
    assert!(scouted_by(&store, game, card).is_empty());
    assert!(nsu_roll_log(&store, game, Some(wren), 10).unwrap()[0].undone);
}

#[test]
fn the_table_side_does_not_get_the_scouted_cards_face_in_the_result() {
    let (_s, mut store, game, wren, _, card) = scouting();
    set_device_role(&mut store, game, "table").unwrap();
    let pending = nsu_roll_dice(&mut store, wren, &scout_setup(card), &entered(&[7, 3]), &mut rng()).unwrap();
    let scouted = nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap().scouted.unwrap();
    assert_eq!(scouted.outcome, ScoutOutcome::Won);
    assert_eq!(scouted.face, None);
}

#[test]
fn a_lost_scouting_roll_asks_whether_to_accept_the_details_or_turn_back() {
    let (_s, mut store, game, wren, _, card) = scouting();
    // Mind 1 + 1 against mood 8: the player loses by 6.
    let pending = nsu_roll_dice(&mut store, wren, &scout_setup(card), &entered(&[1, 8]), &mut rng()).unwrap();
    assert_eq!(pending.needs, [Need::Scout { location: card }]);
    let e = nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap_err().to_string();
    assert!(e.starts_with("choices.scout_accepts_details"), "{e}");
    assert_eq!(actions_left(&store, game, wren), 1, "a refused settlement changes nothing");

    // Turning back: the action is spent, the card is not seen.
    let back = Choices { scout_accepts_details: Some(false), ..pending.choices.clone() };
    let result = nsu_roll_resolve(&mut store, wren, &back).unwrap();
    let scouted = result.scouted.unwrap();
    assert_eq!((scouted.outcome, scouted.face), (ScoutOutcome::TurnedBack, None));
    assert_eq!(actions_left(&store, game, wren), 0);
    assert!(scouted_by(&store, game, card).is_empty());

    // Taken back and settled again accepting the details: the card is seen.
    undo_character(&mut store, wren).unwrap();
    let pending = nsu_roll_dice(&mut store, wren, &scout_setup(card), &entered(&[1, 8]), &mut rng()).unwrap();
    let accept = Choices { scout_accepts_details: Some(true), ..pending.choices };
    let result = nsu_roll_resolve(&mut store, wren, &accept).unwrap();
    assert_eq!(result.scouted.unwrap().outcome, ScoutOutcome::AcceptedDetails);
    assert_eq!(scouted_by(&store, game, card), [wren]);
}

#[test]
fn the_games_undo_of_a_scout_takes_back_its_roll_too() {
    let (_s, mut store, game, wren, _, card) = scouting();
    let before = nsu_sheet(&store, wren).unwrap().sheet;
    let pending = nsu_roll_dice(&mut store, wren, &scout_setup(card), &entered(&[7, 3]), &mut rng()).unwrap();
    nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap();
    undo_game(&mut store, game).unwrap();
    assert_eq!(nsu_sheet(&store, wren).unwrap().sheet, before, "the roll is undone with the scout");
    assert_eq!(actions_left(&store, game, wren), 1);
    assert!(scouted_by(&store, game, card).is_empty());
    assert!(nsu_pending_roll(&store, wren).unwrap().is_none());
    // Nothing of it is left to undo: the next game undo reaches the start of downtime.
    undo_game(&mut store, game).unwrap();
    assert!(nsu_downtime(&store, game).unwrap().is_none());
}

#[test]
fn a_later_world_change_keeps_the_scouting_roll_from_being_undone_alone() {
    let (_s, mut store, game, wren, _, card) = scouting();
    let pending = nsu_roll_dice(&mut store, wren, &scout_setup(card), &entered(&[7, 3]), &mut rng()).unwrap();
    nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap();
    nsu_world_tick_collateral(&mut store, game, card, 1).unwrap();
    let e = undo_character(&mut store, wren).unwrap_err().to_string();
    assert!(e.contains("undo those later changes first"), "{e}");
    assert_eq!(actions_left(&store, game, wren), 0, "a refused undo changes nothing");
    undo_game(&mut store, game).unwrap();
    undo_character(&mut store, wren).unwrap();
    assert_eq!(actions_left(&store, game, wren), 1);
}

#[test]
fn a_final_box_that_ends_an_overload_is_written_and_logged() {
    let (_s, mut store, wren, _) = table();
    // "Calm" (d4, line 4) overloaded at level 4: this roll fills its last box.
    let mut s = sheet();
    s.moods[4] = Some(Mood { name: "Calm".into(), level: 4, overloaded: true });
    save_nsu_sheet(&mut store, wren, s).unwrap();
    let pending = nsu_roll_dice(&mut store, wren, &setup(4), &entered(&[7, 1, 2]), &mut rng()).unwrap();
    let f = FinalBox { sentiment_line: Some(0), new_name: "Serene".into() };
    let result = nsu_roll_resolve(&mut store, wren, &Choices { final_box: Some(f), ..pending.choices }).unwrap();
    assert_eq!(result.sheet.sheet.moods[4], Some(Mood { name: "Serene".into(), level: 0, overloaded: false }));
    assert!(result.record.events.iter().any(|e| matches!(e, RollEvent::MoodFinalBox { overload_ended: true, .. })));
    let game = store.read().character(wren).unwrap().unwrap().game_id;
    let log = nsu_roll_log(&store, game, Some(wren), 1).unwrap();
    assert!(log[0].record.events.iter().any(|e| matches!(e, RollEvent::MoodFinalBox { overload_ended: true, .. })));
}

#[test]
fn a_mood_waiting_for_its_downtime_final_box_cannot_be_rolled_until_it_is_resolved() {
    let (_s, mut store, game, wren, _, _) = scouting();
    // A project in downtime fills Calm's last box (d4, level 0 + |4 − 1| + 1 = 5 … stops at 5).
    let action = ProjectAction {
        project: ProjectChoice::New { name: "Raft".into(), size: 8 },
        aspect: Aspect::Mind,
        mood: sheetkeeper::rules::nsu::downtime::MoodPick::Line(4),
        skill: None,
    };
    let mut calm = nsu_sheet(&store, wren).unwrap().sheet;
    calm.moods[4].as_mut().unwrap().level = 4;
    save_nsu_sheet(&mut store, wren, calm).unwrap();
    nsu_downtime_project(&mut store, game, wren, &action, &entered(&[8, 1]), &mut rng()).unwrap();
    let view = nsu_downtime(&store, game).unwrap().unwrap();
    assert_eq!(view.phase.unwrap().characters[&wren].final_boxes.len(), 1);
    let e = nsu_roll_preview(&store, wren, &setup(4), None, Edge::None).unwrap_err().to_string();
    assert!(e.starts_with("setup.mood: \"Calm\" waits for its final box in downtime"), "{e}");
    assert!(nsu_roll_dice(&mut store, wren, &setup(4), &entered(&[7, 3]), &mut rng()).is_err());
    // Another mood rolls.
    assert!(nsu_roll_preview(&store, wren, &setup(0), None, Edge::None).is_ok());
}
