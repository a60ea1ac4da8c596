//! Scattershot's Mechanix through the services against a real SQLite file: sheet edits in
//! real rows with undo and reopening; Made-It-By rolls with a bidding war, complications and
//! a Telling Blow's automatic benefits; results on resources landing when a roll concludes,
//! during mechanical play too; mechanical play with combat advantages; rewards; bad input
//! refused by name with nothing changed; and a property test that resources move only by a
//! concluded roll's result (once) or an explicit edit, and that awards conserve dice.

use proptest::prelude::*;
use serde_json::json;
use sheetkeeper::rules::scattershot::made_it_by::{Facets, Party, Phase, Reading, Sign};
use sheetkeeper::rules::scattershot::mechanical_play::{Action, Check, Gain};
use sheetkeeper::rules::scattershot::rewards::{Bonus, Giver, SessionRewards, Vote};
use sheetkeeper::rules::scattershot::sheet::{
    AbilityKind, Difficulty, Purchase, Rating, Resource, Sheet, Stage, Statistic,
};
use sheetkeeper::services::{self, *};
use uuid::Uuid;

use crate::support::{self, bytes_on_disk, game_with, invalid, scattershot_request, scattershot_typed};

/// What the services tests of Scattershot's Mechanix add to the table: nothing.
struct Mechanix;

type Table = support::Table<Mechanix>;

fn table() -> Table {
    Table::rust_belt(6, Mechanix)
}

impl Table {
    fn edit(&mut self, who: Uuid, edit: SheetEdit) -> ScattershotSheetChange {
        services::scattershot_sheet_edit(&mut self.store, who, &edit).unwrap_or_else(|e| panic!("{edit:?}: {e}"))
    }

    fn sheet(&self, who: Uuid) -> Sheet {
        services::scattershot_sheet(&self.store, who).unwrap().sheet
    }

    fn try_roll(&mut self, step: RollMove, values: &[u8]) -> sheetkeeper::Result<ScattershotChange> {
        let dice = DiceInput::Entered { values: values.to_vec() };
        services::scattershot_roll(&mut self.store, self.game, &step, &dice, &mut self.rng)
    }

    fn roll(&mut self, step: RollMove, values: &[u8]) -> ScattershotChange {
        self.try_roll(step.clone(), values).unwrap_or_else(|e| panic!("{step:?}: {e}"))
    }

    fn play(&mut self, step: PlayMove) -> ScattershotChange {
        services::scattershot_play(&mut self.store, self.game, &step).unwrap_or_else(|e| panic!("{step:?}: {e}"))
    }

    fn view(&self) -> ScattershotView {
        services::scattershot_table(&self.store, self.game).unwrap()
    }

    fn hit_points(&self, who: Uuid) -> i32 {
        self.sheet(who).current(Resource::HitPoints)
    }

    fn give_dice(&mut self, who: Uuid, dice: u32) {
        self.edit(who, SheetEdit::SetExperienceDice { dice });
    }
}

fn buy(purchase: Purchase) -> SheetEdit {
    SheetEdit::Buy { purchase }
}

fn start(actor: SideDraft, resistor: Option<SideDraft>, target: Option<Target>) -> RollMove {
    RollMove::Start { request: Box::new(RollRequest { target, ..scattershot_request(actor, resistor) }) }
}

#[test]
fn sheet_edits_land_in_rows_are_undone_and_read_back_after_reopening() {
    let mut t = table();
    let ada = t.ada;
    t.edit(ada, buy(Purchase::Statistic { statistic: Statistic::Agility }));
    t.edit(ada, buy(Purchase::NewFreeSkill { name: " Swimming ".into(), starting_level: 9 }));
    t.edit(ada, buy(Purchase::NewFreeSkill { name: "Cooking".into(), starting_level: 8 }));
    t.edit(ada, buy(Purchase::NewSkill { name: "Climbing".into(), difficulty: Difficulty::Easy }));
    let fire = Purchase::NewSpecialAbility {
        name: "Fireball".into(),
        kind: AbilityKind::Magic,
        difficulty: Difficulty::Renowned,
        notes: "a ball of fire\nthrown".into(),
    };
    t.edit(ada, buy(fire));
    let dexterity =
        Purchase::NewAdvantage { name: "Dexterity".into(), situation: "with the hands".into(), modifier: 1, points: 2 };
    t.edit(ada, buy(dexterity));
    t.edit(ada, SheetEdit::AddDisadvantage { name: "Bad knee".into(), situation: "running".into(), modifier: -2 });
    let change = t.edit(ada, SheetEdit::SetCreationLimit { limit: Some(12) });
    assert_eq!(change.message, "Ada's creation is limited to 12 development points.");
    assert_eq!(change.view.points_spent, 6, "1 statistic + 1 for two free skills + 1 skill + 1 ability + 2 advantage");
    assert_eq!(change.view.free_skill_ratings, [9, 8]);
    assert_eq!(change.view.skill_ratings, [12]);
    assert_eq!(change.view.ability_ratings, [8]);
    assert_eq!(change.view.next_free_skill_points, 0);
    t.edit(ada, SheetEdit::FinishCreation);
    t.edit(ada, SheetEdit::SetExperienceDice { dice: 5 });
    let change = t.edit(ada, buy(Purchase::Skill { index: 0 }));
    assert_eq!(change.view.sheet.experience_dice, 4, "after creation a point costs an experience die");
    assert_eq!(change.view.dice_per_point, 1);
    t.edit(ada, SheetEdit::SetResource { resource: Resource::HitPoints, current: 6 });
    let change = t.edit(ada, SheetEdit::ExpendPower { ability: 0, amount: 3 });
    assert_eq!(change.message, "Ada expends 3 Power on Fireball (7 left).");
    assert_eq!(change.view.resources[1].current, 7);

    let sheet = t.sheet(ada);
    assert_eq!(sheet.stage, Stage::Play);
    assert_eq!(sheet.free_skills[0].name, "Swimming", "names are trimmed");
    assert_eq!(sheet.qualities.len(), 2);
    // Every sheet edit is undone by the character's undo: Power back to 10.
    services::undo_character(&mut t.store, ada).unwrap();
    assert_eq!(t.sheet(ada).current(Resource::Power), 10);
    let kept = t.sheet(ada);

    // Reopening reads the same rows back.
    drop(t.store);
    let store = t.scratch.open();
    assert_eq!(services::scattershot_sheet(&store, ada).unwrap().sheet, kept);
    let report = store.check().unwrap();
    assert!(report.ok, "{report:?}");
    assert_eq!(report.schema_version, sheetkeeper::store::SCHEMA_VERSION);
}

#[test]
fn a_contested_roll_with_a_bidding_war_and_a_complication_bought() {
    let mut t = table();
    let (ada, bo, gm) = (t.ada, t.bo, t.game);
    t.give_dice(ada, 3);
    t.give_dice(bo, 2);
    services::scattershot_table_edit(&mut t.store, gm, &TableEdit::GmDice { dice: 1 }).unwrap();
    let actor = SideDraft {
        character: Some(ada),
        rating: Some(Rating::Statistic { statistic: Statistic::Agility }),
        ..SideDraft::default()
    };
    let resistor = SideDraft { character: Some(bo), value: Some(10), ..SideDraft::default() };
    let target = Target { character: bo, resource: Resource::HitPoints };
    let request = RollRequest { target: Some(target), ..scattershot_request(actor.clone(), Some(resistor.clone())) };
    let preview = services::scattershot_roll_preview(&t.store, gm, &request).unwrap();
    assert_eq!(preview.odds.outcomes, 10_000);
    assert!((preview.odds.success - 0.5).abs() < 0.05, "{}", preview.odds.success);

    t.roll(start(actor, Some(resistor), Some(target)), &[]);
    t.roll(RollMove::Dice { party: Party::Actor }, &[3, 4]);
    let view = t.roll(RollMove::Dice { party: Party::RESISTOR }, &[3, 2]).view;
    assert_eq!(view.roll.as_ref().unwrap().basic, Some(-2), "RMIB = (10 - 7) - (10 - 5)");
    // The bidding war: Ada adds 5 to her own MIB, Bo takes 4 off it, the Gamemaster adds 1 to Bo's.
    t.roll(RollMove::Experience { party: Party::Actor, contributor: ada }, &[5]);
    let (field, _) = invalid(t.try_roll(RollMove::Experience { party: Party::Actor, contributor: bo }, &[4]));
    assert_eq!(field, "sign", "a die's sign is chosen before the next die");
    t.roll(RollMove::Sign { sign: Sign::Add }, &[]);
    t.roll(RollMove::Experience { party: Party::Actor, contributor: bo }, &[4]);
    t.roll(RollMove::Sign { sign: Sign::Subtract }, &[]);
    let change = t.roll(RollMove::Experience { party: Party::RESISTOR, contributor: gm }, &[1]);
    assert_eq!(change.message, "The Gamemaster rolls an experience die for the resistor: 1.");
    let view = t.roll(RollMove::Sign { sign: Sign::Add }, &[]).view;
    assert_eq!(view.roll.as_ref().unwrap().basic, Some(-2), "(3 + 5 - 4) - (5 + 1)");
    assert_eq!((t.sheet(ada).experience_dice, t.sheet(bo).experience_dice), (3, 2), "nothing is paid before deciding");

    let view = t.roll(RollMove::Decide, &[]).view;
    assert_eq!((t.sheet(ada).experience_dice, t.sheet(bo).experience_dice, view.gm_dice), (2, 1, 0));
    let roll = view.roll.unwrap();
    assert!(!roll.state.roll.juncture_applies);
    // Complications buy the actor's number up to 0, no further.
    let (field, problem) = invalid(t.try_roll(RollMove::Complications { party: Party::Actor, count: 4 }, &[]));
    assert_eq!((field.as_str(), problem.contains("Epic Index")), ("count", true));
    let (field, problem) = invalid(t.try_roll(RollMove::Complications { party: Party::Actor, count: 3 }, &[]));
    assert_eq!((field.as_str(), problem.contains("up to 0")), ("count", true), "{problem}");
    let change = t.roll(RollMove::Complications { party: Party::Actor, count: 1 }, &[]);
    assert_eq!(change.message, "The actor takes 1 complication(s): the MIB is -1.");
    t.roll(RollMove::Complications { party: Party::Actor, count: 1 }, &[]);
    let view = t.roll(RollMove::Conclude, &[]).view;
    let outcome = view.roll.as_ref().unwrap().state.roll.outcome.unwrap();
    assert_eq!((outcome.mib, outcome.reading, outcome.actor_complications), (0, Reading::Success, 2));
    assert_eq!(t.hit_points(bo), 10, "a MIB of 0 takes nothing");

    // Every step is undone in turn: back before the Decision Phase, the pools are whole again.
    for _ in 0..3 {
        services::undo_game(&mut t.store, gm).unwrap();
    }
    let roll = t.view().roll.unwrap();
    assert_eq!(roll.state.roll.phase, Phase::Application);
    services::undo_game(&mut t.store, gm).unwrap();
    assert_eq!(t.view().roll.unwrap().state.roll.phase, Phase::Decision);
    assert_eq!((t.sheet(ada).experience_dice, t.sheet(bo).experience_dice, t.view().gm_dice), (3, 2, 1));
    let change = t.roll(RollMove::Abandon, &[]);
    assert_eq!(change.message, "The roll is abandoned; no experience dice were paid.");
    assert!(change.view.roll.is_none());
}

/// Issue 13: a player rolls alone on their own device; the resistor (someone on another
/// phone, not a character here) typed in either a rating or the MIB they rolled.
#[test]
fn a_contest_against_someone_elsewhere_rolls_on_one_device() {
    let mut t = table();
    let (ada, gm) = (t.ada, t.game);
    let actor = SideDraft {
        character: Some(ada),
        rating: Some(Rating::Statistic { statistic: Statistic::Agility }),
        ..SideDraft::default()
    };
    // Their rating typed in: both sides' dice are rolled here, the odds over 10 000 rolls.
    let rated = SideDraft { value: Some(12), description: "The warden".into(), ..SideDraft::default() };
    let request = scattershot_request(actor.clone(), Some(rated));
    let preview = services::scattershot_roll_preview(&t.store, gm, &request).unwrap();
    assert_eq!((preview.odds.outcomes, preview.resistors[0].name.as_str()), (10_000, "The warden"));

    // Their MIB typed in: only Ada's 2d10 are unknown. Agility 10 against a MIB of 2 succeeds
    // when 2d10 ≤ 8: 28 of the 100 rolls.
    let elsewhere = SideDraft { rolled: Some(2), description: "Bo, on their phone".into(), ..SideDraft::default() };
    let request = scattershot_request(actor.clone(), Some(elsewhere.clone()));
    let preview = services::scattershot_roll_preview(&t.store, gm, &request).unwrap();
    assert_eq!((preview.odds.outcomes, preview.odds.ways[0]), (100, 28));
    assert_eq!(preview.resistors[0].rolled, Some(2));

    let change = t.roll(start(actor.clone(), Some(elsewhere.clone()), None), &[]);
    assert_eq!(change.message, "Ada rolls at 10 +0 against Bo, on their phone, who made it by 2.");
    let (field, _) = invalid(t.try_roll(RollMove::Dice { party: Party::RESISTOR }, &[1, 1]));
    assert_eq!(field, "party", "no dice are rolled for a MIB typed in");
    let view = t.roll(RollMove::Dice { party: Party::Actor }, &[2, 3]).view;
    let roll = view.roll.unwrap();
    assert_eq!((roll.actor_basic, roll.resistor_views[0].basic, roll.basic), (Some(5), Some(2), Some(3)));
    t.roll(RollMove::Decide, &[]);
    let outcome = t.roll(RollMove::Conclude, &[]).view.roll.unwrap().state.roll.outcome.unwrap();
    assert_eq!((outcome.mib, outcome.reading), (3, Reading::Success));
    // It is logged like any roll, and undone like one.
    let log = services::scattershot_log(&t.store, gm, 50).unwrap();
    assert!(log.iter().any(|e| e.action.contains("who made it by 2")), "{log:?}");
    services::undo_game(&mut t.store, gm).unwrap();
    assert_eq!(t.view().roll.unwrap().state.roll.phase, Phase::Application);

    // A MIB rolled elsewhere comes alone: not with a rating or a modifier.
    services::undo_game(&mut t.store, gm).unwrap();
    services::undo_game(&mut t.store, gm).unwrap();
    services::undo_game(&mut t.store, gm).unwrap();
    let both = SideDraft { value: Some(10), ..elsewhere };
    let (field, _) = invalid(t.try_roll(start(actor, Some(both), None), &[]));
    assert_eq!(field, "resistor.rolled");
}

#[test]
fn a_telling_blow_takes_the_points_above_the_critical_juncture_as_benefits() {
    let mut t = table();
    let target = Target { character: t.bo, resource: Resource::HitPoints };
    let facets = Facets { factor: 1, points: 1, bonus: 2 };
    let request =
        RollRequest { facets: Some(facets), target: Some(target), ..scattershot_request(scattershot_typed(25), None) };
    t.roll(RollMove::Start { request: Box::new(request) }, &[]);
    t.roll(RollMove::Dice { party: Party::Actor }, &[1, 1]);
    let change = t.roll(RollMove::Decide, &[]);
    assert_eq!(change.message, "The Decision Phase ends at 7; 16 point(s) above the Critical Juncture go to benefits.");
    let change = t.roll(RollMove::Conclude, &[]);
    let roll = change.view.roll.unwrap();
    let outcome = roll.state.roll.outcome.unwrap();
    assert_eq!((outcome.mib, outcome.reading, outcome.actor_benefits), (7, Reading::TellingBlow, 16));
    assert_eq!(roll.state.roll.residual_bonus(), Some(2));
    // Outside mechanical play the story is at a lull: 7 × 1 comes off at once.
    assert_eq!(
        change.message,
        "The roll ends at 7: a Telling Blow. Bo loses 7 Hit Points. 1 point(s) to account for: the actor's player \
         chooses where they go."
    );
    assert_eq!(t.hit_points(t.bo), 3);
    assert!(!roll.state.result_waits);
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.hit_points(t.bo), 10, "undoing the conclusion gives the Hit Points back");
}

#[test]
fn a_result_on_a_resource_lands_at_once_while_mechanical_play_runs() {
    let mut t = table();
    let (ada, bo) = (t.ada, t.bo);
    let seating = vec![SeatDraft { character: ada, player: None }, SeatDraft { character: bo, player: None }];
    t.play(PlayMove::Start { caller: ada, seating, cinematic: false });
    let target = Target { character: bo, resource: Resource::HitPoints };
    let request = RollRequest {
        facets: Some(Facets { factor: 2, points: 1, bonus: 1 }),
        target: Some(target),
        ..scattershot_request(scattershot_typed(14), None)
    };
    t.roll(RollMove::Start { request: Box::new(request) }, &[]);
    t.roll(RollMove::Dice { party: Party::Actor }, &[5, 6]);
    t.roll(RollMove::Decide, &[]);
    let change = t.roll(RollMove::Conclude, &[]);
    assert_eq!(change.message, "The roll ends at 3: a success. Bo loses 6 Hit Points.");
    assert_eq!(t.hit_points(bo), 4, "the Hit Points drop while the fight goes on");
    let view = change.view;
    assert!(view.play.as_ref().unwrap().pending.is_empty(), "nothing waits for the lull");
    assert_eq!(view.play.unwrap().round, 1, "mechanical play goes on");
    // The lull lands nothing more: the result came off once.
    let change = t.play(PlayMove::End);
    assert_eq!(change.message, "Mechanical play ends after 1 round(s); the lull.");
    assert_eq!(t.hit_points(bo), 4);
    services::undo_game(&mut t.store, t.game).unwrap();
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.hit_points(bo), 10, "undoing the conclusion gives the Hit Points back");
    assert!(t.view().play.is_some(), "and the fight is still on");
}

#[test]
fn a_round_of_mechanical_play_with_an_advantage_seized_checked_and_erased() {
    let mut t = table();
    let (ada, bo) = (t.ada, t.bo);
    let cy = services::create_character(&mut t.store, t.game, "Cy").unwrap().id;
    let seating = [bo, ada, cy].map(|c| SeatDraft { character: c, player: None }).to_vec();
    let change = t.play(PlayMove::Start { caller: ada, seating, cinematic: false });
    assert_eq!(change.message, "Mechanical play begins: Ada, Cy, Bo.");
    let (field, problem) = invalid(services::delete_character(&mut t.store, cy));
    assert_eq!((field.as_str(), problem.contains("mechanical play")), ("id", true), "the tracker names Cy");
    t.play(PlayMove::Engage { character: ada, foe: Some(bo) });
    t.play(PlayMove::Advantage { holder: ada, foe: bo, gain: Gain::Seize });
    let change = t.play(PlayMove::Advantage { holder: ada, foe: bo, gain: Gain::Hold });
    assert_eq!(change.message, "Ada holds a combat advantage against Bo (-2 to its rolls).");

    // The preview of Bo's roll carries the penalty, and its odds fall with it.
    let request = |value| {
        scattershot_request(SideDraft { character: Some(bo), value: Some(value), ..SideDraft::default() }, None)
    };
    let preview = services::scattershot_roll_preview(&t.store, t.game, &request(12)).unwrap();
    assert_eq!((preview.actor.advantages, preview.actor.modifier), (-2, -2));
    let plain = scattershot_request(scattershot_typed(10), None);
    let plain = services::scattershot_roll_preview(&t.store, t.game, &plain).unwrap();
    assert_eq!(preview.odds, plain.odds, "12 − 2 rolls like 10");
    let bo_view = t.view().characters.into_iter().find(|c| c.id == bo).unwrap();
    assert_eq!(bo_view.penalty, -2);

    // Ada's turn: an action, a free action, Bo forfeits to react, Bo checks one advantage.
    t.play(PlayMove::Action { character: ada, action: Action::Immediate });
    t.play(PlayMove::FreeAction { character: ada, kind: "look around".into() });
    let (field, _) = invalid(services::scattershot_play(
        &mut t.store,
        t.game,
        &PlayMove::FreeAction { character: ada, kind: "Look Around ".into() },
    ));
    assert_eq!(field, "kind", "not two of a kind in a round");
    t.play(PlayMove::Forfeit { character: bo });
    let change = t.play(PlayMove::Check { by: bo, holder: ada, check: Check::Check });
    assert_eq!(change.view.play.as_ref().unwrap().combatants[0].combatant.advantages, 1);
    assert_eq!(services::scattershot_roll_preview(&t.store, t.game, &request(12)).unwrap().actor.advantages, -1);
    let change = t.play(PlayMove::EndTurn);
    assert_eq!(change.message, "Ada's turn ends; Cy is next.");
    t.play(PlayMove::EndTurn);
    let view = t.play(PlayMove::EndTurn).view;
    let play = view.play.unwrap();
    assert_eq!((play.round, play.current), (2, ada));
    assert_eq!(play.combatants[2].combatant.forfeited, 0, "Bo's forfeited action came off his turn");

    // Engaging someone else erases the advantage held against Bo.
    let change = t.play(PlayMove::Engage { character: ada, foe: Some(cy) });
    let play = change.view.play.unwrap();
    assert_eq!((play.combatants[0].combatant.advantages, play.combatants[2].penalty), (0, 0));
    assert_eq!(services::scattershot_roll_preview(&t.store, t.game, &request(12)).unwrap().actor.advantages, 0);
}

#[test]
fn rewards_after_a_session_on_the_spot_and_by_vote() {
    let mut t = table();
    let (ada, bo, game) = (t.ada, t.bo, t.game);
    let rewards = SessionRewards {
        equal: 2,
        bonuses: vec![Bonus { character: bo, dice: 1, reason: "saved the evening".into() }],
        withheld: vec![],
    };
    let change =
        services::scattershot_reward(&mut t.store, game, &RewardMove::AfterSession { rewards, characters: None })
            .unwrap();
    assert_eq!(change.message, "Experience dice: Ada +2, Bo +2, Bo +1.");
    assert_eq!((t.sheet(ada).experience_dice, t.sheet(bo).experience_dice), (2, 3));
    let spot = RewardMove::OnTheSpot {
        giver: Giver::Player { from: bo, replaced: false },
        to: ada,
        dice: 1,
        note: "a fine speech".into(),
    };
    services::scattershot_reward(&mut t.store, game, &spot).unwrap();
    assert_eq!((t.sheet(ada).experience_dice, t.sheet(bo).experience_dice), (3, 2));
    let votes = vec![Vote { voter: ada, character: bo }, Vote { voter: bo, character: bo }];
    services::scattershot_reward(&mut t.store, game, &RewardMove::ByVote { votes, dice: 2, characters: None }).unwrap();
    assert_eq!(t.sheet(bo).experience_dice, 4);
    services::undo_game(&mut t.store, game).unwrap();
    assert_eq!(t.sheet(bo).experience_dice, 2);
    let log = services::scattershot_log(&t.store, game, 10).unwrap();
    assert_eq!(log.len(), 3);
    assert!(log[0].undone);
}

#[test]
fn bad_input_is_refused_naming_the_field_and_changes_nothing() {
    let mut t = table();
    let (ada, bo, game) = (t.ada, t.bo, t.game);
    t.edit(ada, buy(Purchase::NewSkill { name: "Climbing".into(), difficulty: Difficulty::Easy }));
    let before = bytes_on_disk(&t.scratch.db());
    let sheet_edit = |t: &mut Table, edit: serde_json::Value| {
        let edit: SheetEdit = serde_json::from_value(edit).unwrap();
        invalid(services::scattershot_sheet_edit(&mut t.store, ada, &edit)).0
    };
    assert_eq!(sheet_edit(&mut t, json!({"edit": "buy", "purchase": {"purchase": "skill", "index": 4}})), "index");
    assert_eq!(
        sheet_edit(
            &mut t,
            json!({"edit": "buy", "purchase": {"purchase": "new_skill", "name": " ", "difficulty": "easy"}})
        ),
        "name"
    );
    assert_eq!(sheet_edit(&mut t, json!({"edit": "set_resource", "resource": "hit_points", "current": 11})), "current");
    assert_eq!(sheet_edit(&mut t, json!({"edit": "expend_power", "ability": 0, "amount": 1})), "ability");
    assert_eq!(sheet_edit(&mut t, json!({"edit": "add_disadvantage", "name": "Lucky", "modifier": 2})), "modifier");
    assert_eq!(
        sheet_edit(&mut t, json!({"edit": "take_back", "rating": {"kind": "statistic", "statistic": "power"}})),
        "rating"
    );
    let roll = |t: &mut Table, step: RollMove, values: &[u8]| invalid(t.try_roll(step, values)).0;
    assert_eq!(roll(&mut t, RollMove::Dice { party: Party::Actor }, &[1, 2]), "roll");
    assert_eq!(roll(&mut t, start(SideDraft::default(), None, None), &[]), "actor.rating");
    let from_sheet = |index| SideDraft {
        character: Some(ada),
        rating: Some(Rating::Skill { index }),
        qualities: vec![3],
        ..SideDraft::default()
    };
    assert_eq!(roll(&mut t, start(from_sheet(7), None, None), &[]), "actor.rating");
    let stranger = Uuid::from_u128(99);
    assert_eq!(
        roll(
            &mut t,
            start(scattershot_typed(10), Some(SideDraft { character: Some(stranger), ..scattershot_typed(10) }), None),
            &[]
        ),
        "resistor.character"
    );
    let target = Target { character: stranger, resource: Resource::Power };
    assert_eq!(roll(&mut t, start(scattershot_typed(10), None, Some(target)), &[]), "target.character");
    let mut qualities = from_sheet(0);
    qualities.qualities = vec![0];
    assert_eq!(roll(&mut t, start(qualities, None, None), &[]), "actor.qualities[0]");
    let huge = RollRequest {
        facets: Some(Facets { factor: 101, points: 1, bonus: 1 }),
        ..scattershot_request(scattershot_typed(10), None)
    };
    assert_eq!(roll(&mut t, RollMove::Start { request: Box::new(huge) }, &[]), "facets.factor");
    let play = |t: &mut Table, step: PlayMove| invalid(services::scattershot_play(&mut t.store, game, &step)).0;
    assert_eq!(play(&mut t, PlayMove::EndTurn), "play");
    let seating = vec![SeatDraft { character: stranger, player: None }];
    assert_eq!(play(&mut t, PlayMove::Start { caller: stranger, seating, cinematic: false }), "seating[0].character");
    let seating = vec![SeatDraft { character: bo, player: None }];
    assert_eq!(play(&mut t, PlayMove::Start { caller: ada, seating, cinematic: false }), "caller");
    let reward = |t: &mut Table, r: RewardMove| invalid(services::scattershot_reward(&mut t.store, game, &r)).0;
    let spot =
        RewardMove::OnTheSpot { giver: Giver::Player { from: bo, replaced: false }, to: ada, dice: 1, note: "".into() };
    assert_eq!(reward(&mut t, spot), "dice", "Bo's pool is empty");
    let spot = RewardMove::OnTheSpot { giver: Giver::Gamemaster, to: stranger, dice: 1, note: "".into() };
    assert_eq!(reward(&mut t, spot), "to");
    let edit = |t: &mut Table, e: TableEdit| invalid(services::scattershot_table_edit(&mut t.store, game, &e)).0;
    assert_eq!(edit(&mut t, TableEdit::Setting { name: "epic_index".into(), value: 0 }), "value");
    assert_eq!(edit(&mut t, TableEdit::Setting { name: "luck".into(), value: 1 }), "name");
    assert_eq!(bytes_on_disk(&t.scratch.db()), before, "refused input writes nothing");

    // A game of another system is refused by name.
    let other = game_with(&mut t.store, "Valley", "nsu", &[]).game.id;
    let (field, _) = invalid(services::scattershot_table(&t.store, other));
    assert_eq!(field, "game");
    // A table setting is changed and undone.
    let change = services::scattershot_table_edit(
        &mut t.store,
        game,
        &TableEdit::Setting { name: "critical_juncture".into(), value: 5 },
    )
    .unwrap();
    assert_eq!(change.view.settings.critical_juncture, 5);
    services::undo_game(&mut t.store, game).unwrap();
    assert_eq!(t.view().settings.critical_juncture, 7);
}

/// Something a person may do at a Scattershot table, for the property test.
#[derive(Clone, Debug)]
enum Step {
    Sheet(usize, SheetEdit),
    Roll(RollMove, Vec<u8>),
    Play(PlayMove),
    Reward(RewardMove),
    Stock(u32),
    Undo,
    UndoSheet(usize),
}

fn any_step() -> impl Strategy<Value = Step> {
    let who = 0usize..2;
    let stat = (0usize..6).prop_map(|i| Purchase::Statistic { statistic: Statistic::ALL[i] });
    let party = prop_oneof![Just(Party::Actor), Just(Party::RESISTOR)];
    prop_oneof![
        (who.clone(), stat).prop_map(|(w, p)| Step::Sheet(w, SheetEdit::Buy { purchase: p })),
        (who.clone(), 0u32..4).prop_map(|(w, d)| Step::Sheet(w, SheetEdit::SetExperienceDice { dice: d })),
        (who.clone(), -5i32..11)
            .prop_map(|(w, c)| Step::Sheet(w, SheetEdit::SetResource { resource: Resource::HitPoints, current: c })),
        (who.clone(), 0u32..30, 0u32..4, any::<bool>(), any::<bool>()).prop_map(|(w, v, factor, contested, target)| {
            let request = RollRequest {
                magnitude: None,
                // The loser of a contest takes |RMIB| × Factor on the actor's side.
                resistor_target: (contested && target)
                    .then_some(Target { character: Uuid::from_u128(1 - w as u128), resource: Resource::HitPoints }),
                actor: scattershot_typed(v as i32),
                resistors: contested.then(|| scattershot_typed(10)).into_iter().collect(),
                facets: Some(Facets { factor, points: 1, bonus: 1 }),
                target: target
                    .then_some(Target { character: Uuid::from_u128(w as u128), resource: Resource::HitPoints }),
            };
            Step::Roll(RollMove::Start { request: Box::new(request) }, vec![])
        }),
        (party.clone(), 1u8..=10, 1u8..=10).prop_map(|(p, a, b)| Step::Roll(RollMove::Dice { party: p }, vec![a, b])),
        (party.clone(), who.clone(), 1u8..=6).prop_map(|(p, w, f)| Step::Roll(
            RollMove::Experience { party: p, contributor: Uuid::from_u128(w as u128) },
            vec![f]
        )),
        any::<bool>()
            .prop_map(|add| Step::Roll(RollMove::Sign { sign: if add { Sign::Add } else { Sign::Subtract } }, vec![])),
        Just(Step::Roll(RollMove::Decide, vec![])),
        (party.clone(), 1u32..3).prop_map(|(p, n)| Step::Roll(RollMove::Complications { party: p, count: n }, vec![])),
        (party, 1u32..3).prop_map(|(p, n)| Step::Roll(RollMove::Benefits { party: p, count: n }, vec![])),
        Just(Step::Roll(RollMove::Conclude, vec![])),
        Just(Step::Play(PlayMove::Start {
            caller: Uuid::from_u128(0),
            seating: vec![
                SeatDraft { character: Uuid::from_u128(0), player: None },
                SeatDraft { character: Uuid::from_u128(1), player: None }
            ],
            cinematic: false
        })),
        Just(Step::Play(PlayMove::EndTurn)),
        Just(Step::Play(PlayMove::End)),
        (who.clone(), 1u32..3, 0u8..3).prop_map(|(w, d, how)| Step::Reward(RewardMove::OnTheSpot {
            giver: match how {
                0 => Giver::Gamemaster,
                n => Giver::Player { from: Uuid::from_u128(1 - w as u128), replaced: n == 2 },
            },
            to: Uuid::from_u128(w as u128),
            dice: d,
            note: String::new()
        })),
        (0u32..4).prop_map(Step::Stock),
        Just(Step::Undo),
        (0usize..2).prop_map(Step::UndoSheet),
    ]
}

/// Replaces the placeholder ids 0 and 1 in a step with the table's characters.
fn placed(t: &Table, value: serde_json::Value) -> serde_json::Value {
    let text = value.to_string();
    let text = text.replace(&Uuid::from_u128(0).to_string(), &t.ada.to_string());
    let text = text.replace(&Uuid::from_u128(1).to_string(), &t.bo.to_string());
    serde_json::from_str(&text).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Whatever the table does — sheet edits, rolls, mechanical play, rewards, undo — a
    /// character's resources change only when a roll concludes (by exactly its results, in
    /// or out of mechanical play, never again at the lull), by an explicit resource edit, or
    /// by undoing one of those; awards never make or lose experience dice; and every
    /// refused move changes nothing.
    #[test]
    fn resources_change_only_by_a_concluded_result_or_an_explicit_edit(steps in proptest::collection::vec(any_step(), 1..30)) {
        let mut t = table();
        for step in steps {
            let before = [t.sheet(t.ada), t.sheet(t.bo)];
            let bytes = bytes_on_disk(&t.scratch.db());
            let (may_move, result) = match &step {
                Step::Sheet(w, edit) => {
                    let edit: SheetEdit = serde_json::from_value(placed(&t, serde_json::to_value(edit).unwrap())).unwrap();
                    let who = [t.ada, t.bo][*w];
                    let explicit = matches!(edit, SheetEdit::SetResource { .. } | SheetEdit::ExpendPower { .. });
                    (explicit, services::scattershot_sheet_edit(&mut t.store, who, &edit).map(|_| ()))
                }
                Step::Roll(m, values) => {
                    let m: RollMove = serde_json::from_value(placed(&t, serde_json::to_value(m).unwrap())).unwrap();
                    let concluding = matches!(m, RollMove::Conclude);
                    let done = t.try_roll(m, values);
                    if let (true, Ok(change)) = (concluding, &done) {
                        // One result, one change: the Hit Points lost grow by exactly the
                        // results the conclusion names.
                        let state = &change.view.roll.as_ref().unwrap().state;
                        let named: i64 = [state.result, state.resistor_result].iter().flatten().map(|r| i64::from(r.amount)).sum();
                        let lost = |s: &Sheet| i64::from(s.lost.hit_points);
                        let after = [t.sheet(t.ada), t.sheet(t.bo)];
                        let moved: i64 = after.iter().zip(&before).map(|(a, b)| lost(a) - lost(b)).sum();
                        prop_assert_eq!(moved, named);
                    }
                    (concluding, done.map(|_| ()))
                }
                Step::Play(m) => {
                    let m: PlayMove = serde_json::from_value(placed(&t, serde_json::to_value(m).unwrap())).unwrap();
                    // Mechanical play's end lands nothing: every result landed when its roll concluded.
                    (false, services::scattershot_play(&mut t.store, t.game, &m).map(|_| ()))
                }
                Step::Reward(r) => {
                    let r: RewardMove = serde_json::from_value(placed(&t, serde_json::to_value(r).unwrap())).unwrap();
                    let dice = |t: &Table| {
                        u64::from(t.view().gm_dice)
                            + u64::from(t.sheet(t.ada).experience_dice)
                            + u64::from(t.sheet(t.bo).experience_dice)
                    };
                    let held = dice(&t);
                    let done = services::scattershot_reward(&mut t.store, t.game, &r).map(|_| ());
                    // An on-the-spot award moves dice, the Gamemaster's stock included; none
                    // are made or lost.
                    prop_assert_eq!(dice(&t), held);
                    (false, done)
                }
                Step::Stock(dice) => {
                    let edit = TableEdit::GmDice { dice: *dice };
                    (false, services::scattershot_table_edit(&mut t.store, t.game, &edit).map(|_| ()))
                }
                Step::Undo => (true, services::undo_game(&mut t.store, t.game).map(|_| ())),
                Step::UndoSheet(w) => {
                    // Undoing a character's creation would take it away: that is not a sheet edit.
                    let who = [t.ada, t.bo][*w];
                    let last = t.store.read().last_undoable_of_character(who).unwrap().map(|e| e.kind);
                    if last == Some(sheetkeeper::store::EventKind::CharacterCreated) {
                        continue;
                    }
                    (true, services::undo_character(&mut t.store, who).map(|_| ()))
                }
            };
            let after = [t.sheet(t.ada), t.sheet(t.bo)];
            if result.is_err() {
                prop_assert_eq!(&after, &before, "a refused move changes no sheet");
                prop_assert!(bytes_on_disk(&t.scratch.db()) == bytes, "a refused move writes nothing");
            }
            if !may_move {
                for (a, b) in after.iter().zip(&before) {
                    prop_assert_eq!(a.lost, b.lost, "{:?} moved a resource", step);
                }
            }
            for s in &after {
                prop_assert!(s.current(Resource::HitPoints) <= s.maximum(Resource::HitPoints));
            }
        }
        prop_assert!(t.store.check().unwrap().ok);
    }
}

/// Audit D-SC6: a contest with two resistors on one table. The actor's MIB is set against
/// the best of theirs; each resistor rolls and takes experience dice into its own MIB;
/// both stand on the resistors' side of the one RMIB.
#[test]
fn a_contest_against_two_resistors_is_read_against_the_best_of_them() {
    use sheetkeeper::rules::scattershot::odds::{contest_odds_many, Opposing};
    let mut t = table();
    let (ada, bo, gm) = (t.ada, t.bo, t.game);
    t.give_dice(bo, 1);
    let actor = SideDraft { character: Some(ada), ..scattershot_typed(15) };
    let bo_side = SideDraft { character: Some(bo), ..scattershot_typed(12) };
    let warden = SideDraft { description: "The warden".into(), ..scattershot_typed(9) };
    let request = RollRequest { resistors: vec![bo_side, warden], ..scattershot_request(actor, None) };
    // The odds count every die of all three, against the best of the two.
    let preview = services::scattershot_roll_preview(&t.store, gm, &request).unwrap();
    let rules = contest_odds_many((15, 0), &[Opposing::Rolls(12, 0), Opposing::Rolls(9, 0)], 7).unwrap();
    assert_eq!(
        (preview.odds.outcomes, preview.odds.ways[0]),
        (1_000_000, rules.success.count()),
        "{:?}",
        preview.resistors.iter().map(|r| &r.name).collect::<Vec<_>>()
    );
    assert_eq!(preview.resistors.len(), 2);

    let change = t.roll(RollMove::Start { request: Box::new(request.clone()) }, &[]);
    assert_eq!(change.message, "Ada rolls at 15 +0 against Bo (12) and The warden (9).");
    t.roll(RollMove::Dice { party: Party::Actor }, &[3, 3]);
    t.roll(RollMove::Dice { party: Party::RESISTOR }, &[5, 5]);
    let change = t.roll(RollMove::Dice { party: Party::Resistor(1) }, &[1, 1]);
    assert_eq!(change.message, "2d10 for resistor 2: 1 and 1 (MIB 7).");
    let (field, _) = invalid(t.try_roll(RollMove::Dice { party: Party::Resistor(2) }, &[1, 1]));
    assert_eq!(field, "party", "a resistor the contest does not have");
    // Bo adds his one die to the warden's MIB: 7 + 3 = 10, the best, so the RMIB is 9 - 10.
    let change = t.roll(RollMove::Experience { party: Party::Resistor(1), contributor: bo }, &[3]);
    assert_eq!(change.message, "Bo rolls an experience die for resistor 2: 3.");
    let roll = t.roll(RollMove::Sign { sign: Sign::Add }, &[]).view.roll.unwrap();
    assert_eq!(roll.basic, Some(-1));
    let shown: Vec<(Option<String>, Option<i32>, bool)> =
        roll.resistor_views.iter().map(|r| (r.name.clone(), r.basic, r.counts)).collect();
    assert_eq!(shown, [(Some("Bo".to_owned()), Some(2), false), (None, Some(10), true)]);
    t.roll(RollMove::Decide, &[]);
    assert_eq!(t.sheet(bo).experience_dice, 0, "Bo's die is paid when the Decision Phase ends");
    // The resistors' side shares the one point: Bo spends it, nothing is left for the warden.
    t.roll(RollMove::Benefits { party: Party::RESISTOR, count: 1 }, &[]);
    let (field, _) = invalid(t.try_roll(RollMove::Benefits { party: Party::Resistor(1), count: 1 }, &[]));
    assert_eq!(field, "count");
    let outcome = t.roll(RollMove::Conclude, &[]).view.roll.unwrap().state.roll.outcome.unwrap();
    assert_eq!((outcome.mib, outcome.reading, outcome.resistor_benefits), (0, Reading::Success, 1));

    // A request from an older device names its one resistor `resistor`; six are refused.
    let old: RollRequest = serde_json::from_value(json!({
        "actor": {"value": 10}, "resistor": {"value": 9, "description": "The warden"}
    }))
    .unwrap();
    assert_eq!(old.resistors.len(), 1);
    let six = RollRequest { resistors: vec![scattershot_typed(9); 6], ..request };
    let (field, _) = invalid(services::scattershot_roll_preview(&t.store, gm, &six));
    assert_eq!(field, "resistors");
}
