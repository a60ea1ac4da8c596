//! The bidding war's choices at the table (issue 34): for the roll on the table, while its
//! Decision Phase lasts, each experience die as + and as −, into the actor's MIB and, in a
//! contest, the resistor's — or, once a die waits for its sign, its two signs — with the
//! exact chances of a success, a Telling Blow and a Catastrophic Failure after it and the
//! best for each side marked (`rules::scattershot::choices::bidding`, the numbers the CLI's
//! `sheetkeeper odds scattershot --choices` prints).
//!
//! Who may see them: Scattershot's Mechanix keeps nothing from anyone (`viewer.rs`); the
//! roll on the table is in every viewer's table view (`scattershot_table`), and the bidding
//! reads that roll alone, so every viewer of the table sees it.

use serde::Serialize;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::rules::odds::Chance;
use crate::rules::scattershot::choices::{bidding, Chances};
use crate::rules::scattershot::made_it_by::{Party, Sign};
use crate::services::scattershot::{pending_roll, scattershot_game};
use crate::store::Store;

/// One chance as probability (nearest f64) and as its exact count of equally likely
/// outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BidChance {
    pub p: f64,
    pub ways: u64,
    pub outcomes: u64,
}

impl From<Chance> for BidChance {
    fn from(c: Chance) -> Self {
        BidChance { p: c.probability(), ways: c.count(), outcomes: c.outcomes() }
    }
}

/// The chances of a roll's reading (in a contest, of the RMIB).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BidChancesView {
    pub success: BidChance,
    pub telling_blow: BidChance,
    pub catastrophic: BidChance,
}

impl From<Chances> for BidChancesView {
    fn from(c: Chances) -> Self {
        BidChancesView {
            success: c.success.into(),
            telling_blow: c.telling_blow.into(),
            catastrophic: c.catastrophic.into(),
        }
    }
}

/// One way to bid, with the chances after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BidView {
    /// Whose MIB the die goes into.
    pub party: Party,
    pub sign: Sign,
    /// The face of the die waiting for its sign; `None` for a die not rolled yet.
    pub face: Option<u8>,
    pub chances: BidChancesView,
    pub best_for_actor: bool,
    /// Only in a contest.
    pub best_for_resistor: bool,
}

/// What the bidding offers on the roll on the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BiddingView {
    /// The sides of the table's experience die.
    pub sides: u8,
    /// A contest (the resistor's MIB is a place for a die, and a side to mark the best for).
    pub contest: bool,
    /// The chances if nobody bids again (`None` while a die waits for its sign).
    pub now: Option<BidChancesView>,
    /// The waiting die's two signs, or a new die as + and as − into each MIB; empty when no
    /// more dice may go in.
    pub bids: Vec<BidView>,
}

/// The bids open on the roll on `game`'s table, with their exact chances. An error naming
/// `roll` when no roll is on the table, `phase` when its Decision Phase is over.
pub fn scattershot_bidding(store: &Store, game: Uuid) -> Result<BiddingView> {
    let read = store.read();
    scattershot_game(read, game)?;
    let state = pending_roll(read, game)?.ok_or_else(|| Error::invalid("roll", "no roll is on the table"))?;
    let b = bidding(&state.roll)?;
    Ok(BiddingView {
        sides: b.sides,
        contest: !state.roll.resistors.is_empty(),
        now: b.now.map(Into::into),
        bids: b
            .bids
            .into_iter()
            .map(|bid| BidView {
                party: bid.party,
                sign: bid.sign,
                face: bid.face,
                chances: bid.chances.into(),
                best_for_actor: bid.best_for_actor,
                best_for_resistor: bid.best_for_resistor,
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::Entered;
    use crate::rules::scattershot::made_it_by::{Action, MibRoll, RollSetup};
    use crate::rules::scattershot::Settings;
    use crate::services::create_game;
    use crate::services::dice::DiceInput;
    use crate::services::scattershot::roll::{scattershot_roll, RollMove, RollRequest, SideDraft};
    use crate::services::scattershot::{scattershot_table_edit, TableEdit};

    fn request(actor: i32, resistor: Option<i32>) -> RollRequest {
        let side = |value| SideDraft { value: Some(value), ..SideDraft::default() };
        RollRequest {
            actor: side(actor),
            resistors: resistor.map(side).into_iter().collect(),
            facets: None,
            magnitude: None,
            target: None,
            resistor_target: None,
        }
    }

    fn step(store: &mut Store, game: Uuid, step: RollMove, faces: &[u8]) {
        let dice = DiceInput::Entered { values: faces.to_vec() };
        scattershot_roll(store, game, &step, &dice, &mut rand::rng()).expect("a step of the roll");
    }

    #[test]
    fn the_bidding_on_the_table_is_the_rules_bidding_and_ends_with_the_decision_phase() {
        let dir = tempfile::tempdir().expect("a folder");
        let mut store = Store::open(&dir.path().join("t.db")).expect("a store");
        let game = create_game(&mut store, "Gear Town", "scattershot").expect("a game").game.id;
        scattershot_table_edit(&mut store, game, &TableEdit::GmDice { dice: 3 }).expect("the Gamemaster's dice");
        assert!(matches!(scattershot_bidding(&store, game), Err(Error::Invalid { field, .. }) if field == "roll"));

        let start = RollMove::Start { request: Box::new(request(12, Some(10))) };
        step(&mut store, game, start, &[]);
        step(&mut store, game, RollMove::Dice { party: Party::Actor }, &[6, 5]);
        let view = scattershot_bidding(&store, game).expect("the bidding");

        // The same roll made by the rules alone.
        let action = |rating| Action { description: String::new(), rating, modifier: 0, rolled: None };
        let setup =
            RollSetup { actor: action(12), resistors: vec![action(10)], facets: Default::default(), chart: Vec::new() };
        let (roll, _) = MibRoll::start(&setup, &Settings::default()).expect("a roll");
        let roll = roll.roll_dice(Party::Actor, &mut Entered::new([6, 5])).expect("dice").0;
        let rules = bidding(&roll).expect("the rules' bidding");
        assert!(view.contest);
        assert_eq!(view.sides, rules.sides);
        assert_eq!(view.bids.len(), 4, "+ and − into each MIB");
        for (shown, rule) in view.bids.iter().zip(&rules.bids) {
            assert_eq!((shown.party, shown.sign, shown.face), (rule.party, rule.sign, rule.face));
            assert_eq!(shown.chances, BidChancesView::from(rule.chances));
            assert_eq!((shown.best_for_actor, shown.best_for_resistor), (rule.best_for_actor, rule.best_for_resistor));
        }
        assert_eq!(view.now, rules.now.map(Into::into));

        // A die waiting for its sign: its two signs.
        step(&mut store, game, RollMove::Experience { party: Party::Actor, contributor: game }, &[4]);
        let waiting = scattershot_bidding(&store, game).expect("the bidding");
        assert_eq!(waiting.now, None);
        assert_eq!(
            waiting.bids.iter().map(|b| (b.sign, b.face)).collect::<Vec<_>>(),
            [(Sign::Add, Some(4)), (Sign::Subtract, Some(4))]
        );

        step(&mut store, game, RollMove::Sign { sign: Sign::Add }, &[]);
        step(&mut store, game, RollMove::Dice { party: Party::RESISTOR }, &[3, 4]);
        step(&mut store, game, RollMove::Decide, &[]);
        assert!(matches!(scattershot_bidding(&store, game), Err(Error::Invalid { field, .. }) if field == "phase"));
    }
}
