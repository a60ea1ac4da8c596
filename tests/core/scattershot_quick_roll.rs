//! Scattershot's one-tap roll through the services (issue 32): a quick roll starts the roll and
//! rolls every 2d10 it needs in one undoable move, goes through a Decision Phase in which
//! nobody may bid (no experience die in any pool) and concludes when neither side may then
//! take a complication or spend a benefit; where there is a choice it stops there. Settling
//! ends the Decision Phase and concludes as the number stands. Dice typed in, or a roll still
//! on the table, are refused by name and change nothing.

use sheetkeeper::rules::scattershot::made_it_by::Phase;
use sheetkeeper::rules::scattershot::sheet::{Rating, Statistic};
use sheetkeeper::services::{self, *};
use uuid::Uuid;

use crate::support::scattershot_typed as typed;
use crate::support::{self, invalid, scattershot_request};

/// What the one-tap roll's tests add to the table: nothing.
struct OneTap;

type Table = support::Table<OneTap>;

fn table(seed: u64) -> Table {
    Table::rust_belt(seed, OneTap)
}

fn quick(actor: SideDraft, resistor: Option<SideDraft>) -> RollMove {
    RollMove::Quick { request: Box::new(scattershot_request(actor, resistor)) }
}

impl Table {
    fn try_roll(&mut self, step: &RollMove, dice: &DiceInput) -> sheetkeeper::Result<ScattershotChange> {
        services::scattershot_roll(&mut self.store, self.game, step, dice, &mut self.rng)
    }

    fn roll(&mut self, step: &RollMove) -> ScattershotChange {
        self.try_roll(step, &DiceInput::Rolled).unwrap_or_else(|e| panic!("{step:?}: {e}"))
    }

    fn view(&self) -> ScattershotView {
        services::scattershot_table(&self.store, self.game).unwrap()
    }

    fn give_dice(&mut self, who: Uuid, dice: u32) {
        services::scattershot_sheet_edit(&mut self.store, who, &SheetEdit::SetExperienceDice { dice }).unwrap();
    }
}

#[test]
fn with_no_experience_die_at_the_table_one_tap_reaches_the_first_real_choice_or_the_result() {
    let (mut stopped, mut concluded) = (0, 0);
    for seed in 0..120 {
        let mut t = table(seed);
        let change = t.roll(&quick(typed(10), None));
        let roll = change.view.roll.expect("a roll on the table");
        let dice = roll.state.roll.actor.dice.expect("the 2d10 are rolled with the tap");
        let mib = 10 - i32::from(dice[0]) - i32::from(dice[1]);
        assert_ne!(roll.state.roll.phase, Phase::Decision, "nobody may bid, so the Decision Phase is not a stop");
        if mib == 0 {
            // Nothing to buy up and nothing to spend: the roll is settled in the same tap.
            assert_eq!(roll.state.roll.phase, Phase::Done, "seed {seed}");
            assert_eq!(roll.state.roll.outcome.unwrap().mib, 0);
            assert!(change.message.ends_with("The roll ends at 0: a success."), "{}", change.message);
            concluded += 1;
        } else {
            // A positive MIB may be spent on benefits, a negative one bought up: the player chooses.
            assert_eq!(roll.state.roll.phase, Phase::Application, "seed {seed}");
            let room = roll.actor_room.unwrap();
            assert!(room.benefits > 0 || room.complications > 0);
            assert!(change.message.contains(&format!("The Decision Phase ends at {mib}.")), "{}", change.message);
            stopped += 1;
        }
        assert!(change.message.starts_with("Someone rolls at 10 +0. 2d10 for the actor: "), "{}", change.message);
        // One move: one undo takes the whole roll off the table.
        services::undo_game(&mut t.store, t.game).unwrap();
        assert!(t.view().roll.is_none(), "seed {seed}: one undo undoes the quick roll");
    }
    assert!(stopped > 0 && concluded > 0, "both ends were reached: {stopped} stopped, {concluded} concluded");
}

#[test]
fn with_experience_dice_in_a_pool_the_bidding_stays_and_settling_concludes_as_the_number_stands() {
    let mut t = table(7);
    t.give_dice(t.bo, 2);
    let ada = SideDraft {
        character: Some(t.ada),
        rating: Some(Rating::Statistic { statistic: Statistic::Agility }),
        ..SideDraft::default()
    };
    let change = t.roll(&quick(ada, None));
    let roll = change.view.roll.unwrap();
    assert_eq!(roll.state.roll.phase, Phase::Decision, "Bo may bid: the Decision Phase stays");
    let dice = roll.state.roll.actor.dice.expect("the 2d10 are rolled");
    let mib = 10 - i32::from(dice[0]) - i32::from(dice[1]);
    assert_eq!(roll.basic, Some(mib));

    let change = t.roll(&RollMove::Settle);
    let roll = change.view.roll.unwrap();
    let outcome = roll.state.roll.outcome.unwrap();
    assert_eq!((roll.state.roll.phase, outcome.mib), (Phase::Done, mib));
    assert_eq!((outcome.actor_benefits, outcome.actor_complications), (0, 0), "nothing taken or spent");
    assert!(
        change.message.starts_with(&format!("The Decision Phase ends at {mib}. The roll ends at {mib}: ")),
        "{}",
        change.message
    );
    let bo = services::scattershot_sheet(&t.store, t.bo).unwrap().sheet;
    assert_eq!(bo.experience_dice, 2, "no die was bid, none is paid");
    // Settling is one move: one undo puts the Decision Phase back.
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.view().roll.unwrap().state.roll.phase, Phase::Decision);
}

#[test]
fn a_contest_rolls_both_sides_dice_but_not_a_mib_rolled_elsewhere() {
    let mut t = table(3);
    let change = t.roll(&quick(typed(12), Some(typed(9))));
    let roll = change.view.roll.unwrap().state.roll;
    assert!(roll.actor.dice.is_some() && roll.resistors[0].dice.is_some());
    services::undo_game(&mut t.store, t.game).unwrap();

    let elsewhere = SideDraft { rolled: Some(2), ..SideDraft::default() };
    let change = t.roll(&quick(typed(12), Some(elsewhere)));
    let roll = change.view.roll.unwrap().state.roll;
    assert!(roll.actor.dice.is_some());
    assert!(roll.resistors[0].dice.is_none(), "their MIB was typed in; no 2d10 for them here");
}

#[test]
fn typed_dice_and_a_roll_on_the_table_are_refused_and_change_nothing() {
    let mut t = table(1);
    let typed_in = DiceInput::Entered { values: vec![3, 4] };
    let (field, problem) = invalid(t.try_roll(&quick(typed(10), None), &typed_in));
    assert_eq!(field, "dice");
    assert!(problem.contains("start the roll to type dice in"), "{problem}");
    assert!(t.view().roll.is_none(), "nothing was started");

    t.give_dice(t.ada, 1);
    t.roll(&quick(typed(10), None));
    let before = t.view();
    let (field, _) = invalid(t.try_roll(&quick(typed(10), None), &DiceInput::Rolled));
    assert_eq!(field, "roll", "a roll in its Decision Phase is on the table");
    assert_eq!(t.view(), before, "nothing changed");
}
