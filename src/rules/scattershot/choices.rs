//! The bidding war's choices (issue 34): before an experience die goes into a MIB
//! (RULES.md §4.3, "each is rolled and its face added or subtracted as its roller
//! chooses"), the exact chances of a success, a Telling Blow and a Catastrophic Failure
//! after it, as + and as −, into the actor's MIB and, in a contest, into the resistor's; once
//! a die is rolled and waits for its sign, the chances of adding and of subtracting its face.
//!
//! The roller sees the face before choosing its sign, so "as +" and "as −" are the chances
//! of a roller who always adds (or subtracts) whatever comes up: the face and any 2d10 not
//! rolled yet are counted, every outcome once. Each option is played through the roll's own
//! moves ([`MibRoll::add_experience_die`], [`MibRoll::choose_sign`]), so a contest is read
//! against the Critical Juncture exactly as [`MibRoll::decide`] will read it — an
//! experience die counts towards the *initial* MIB that decides whether it is reached.
//!
//! Whose pool pays and whether it holds a die are the table's business; these are the
//! chances of the dice alone.

use std::cmp::Ordering;

use uuid::Uuid;

use super::made_it_by::{self, MibRoll, Party, PartyRoll, Phase, Reading, Sign, MAX_EXPERIENCE_DICE};
use super::odds::{best_of, contest_reading, mib_counts, Counts};
use super::Pools;
use crate::error::{Error, Result};
use crate::rules::dice::Entered;
use crate::rules::odds::Chance;

/// The chances of a roll's reading, all over the same outcomes; in a contest, of the RMIB
/// (the resistor succeeds where the actor does not, and a Catastrophic RMIB is its Telling
/// Blow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chances {
    /// MIB ≥ 0.
    pub success: Chance,
    pub telling_blow: Chance,
    pub catastrophic: Chance,
}

/// One way to bid, with the chances after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bid {
    /// Whose MIB the die goes into.
    pub party: Party,
    pub sign: Sign,
    /// The face of the die waiting for its sign; `None` for a die not rolled yet.
    pub face: Option<u8>,
    pub chances: Chances,
    /// No other bid gives the actor more (a success first, then a Telling Blow, then the
    /// fewest Catastrophic Failures); more than one when they are equal.
    pub best_for_actor: bool,
    /// The same for the resistor, in a contest.
    pub best_for_resistor: bool,
}

/// What the bidding offers where the roll stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bidding {
    /// The sides of the table's experience die.
    pub sides: u8,
    /// The chances if nobody bids again (`None` while a die waits for its sign).
    pub now: Option<Chances>,
    /// The bids: the waiting die's two signs, or a new die as + and as − into each MIB.
    pub bids: Vec<Bid>,
}

/// Stands in for whoever rolls the die: the chances do not depend on whose pool pays.
const ANYONE: Uuid = Uuid::nil();

/// The bids open on `roll` with their exact chances. An error when the Decision Phase is
/// over (the bidding with it).
pub fn bidding(roll: &MibRoll) -> Result<Bidding> {
    if roll.phase != Phase::Decision {
        return Err(Error::invalid("phase", "the Decision Phase is over: no experience die can be added now"));
    }
    let signs = [Sign::Add, Sign::Subtract];
    let mut bids = Vec::new();
    let waiting = roll.waiting_die().map(|(party, die)| (party, die.face));
    if let Some((party, face)) = waiting {
        for sign in signs {
            let chances = chances(&[roll.choose_sign(sign)?.0]);
            bids.push(Bid { party, sign, face: Some(face), chances, best_for_actor: false, best_for_resistor: false });
        }
    } else if roll.experience_dice().count() < MAX_EXPERIENCE_DICE {
        let parties: Vec<Party> = roll.parties().map(|(party, _)| party).collect();
        let pools = Pools::from([(ANYONE, u32::MAX)]);
        for party in parties {
            for sign in signs {
                let mut outcomes = Vec::new();
                for face in 1..=roll.settings.experience_die {
                    let (rolled, _) = roll.add_experience_die(party, ANYONE, &pools, &mut Entered::new([face]))?;
                    outcomes.push(rolled.choose_sign(sign)?.0);
                }
                let chances = chances(&outcomes);
                bids.push(Bid { party, sign, face: None, chances, best_for_actor: false, best_for_resistor: false });
            }
        }
    }
    mark_best(&mut bids, !roll.resistors.is_empty());
    let now = waiting.is_none().then(|| chances(std::slice::from_ref(roll)));
    Ok(Bidding { sides: roll.settings.experience_die, now, bids })
}

/// The ways each basic MIB of a party comes up: one way once its 2d10 are rolled (or its
/// MIB typed in), else the 100 rolls of 2d10.
fn basic_mibs(party: &PartyRoll) -> Counts {
    match party.basic_mib() {
        Some(mib) => Counts::from([(i64::from(mib), 1)]),
        None => {
            let experience: i64 = party.experience.iter().map(|d| i64::from(d.value())).sum();
            mib_counts(i64::from(party.action.rating) + i64::from(party.action.modifier) + experience)
        }
    }
}

/// The chances over every equally likely roll in `outcomes` (each a roll with its own
/// experience dice), counting the 2d10 not rolled yet in each.
fn chances(outcomes: &[MibRoll]) -> Chances {
    let (mut ways, mut all) = ([0u64; 3], 0u64);
    for roll in outcomes {
        let cj = roll.settings.critical_juncture;
        let actor = basic_mibs(&roll.actor);
        // Several resistors: the best of their MIBs counts (see `MibRoll::best_resistor`).
        let resistors: Vec<Counts> = roll.resistors.iter().map(basic_mibs).collect();
        let resistor = (!resistors.is_empty()).then(|| best_of(&resistors));
        let mut count = |reading: Reading, n: u64| {
            all += n;
            ways[0] += if reading.succeeded() { n } else { 0 };
            ways[1] += if reading == Reading::TellingBlow { n } else { 0 };
            ways[2] += if reading == Reading::CatastrophicFailure { n } else { 0 };
        };
        for (&a, &m) in &actor {
            match &resistor {
                None => count(made_it_by::read(a as i32, cj), m),
                Some(resistor) => {
                    for (&r, &n) in resistor {
                        count(contest_reading(a, r, cj), m * n);
                    }
                }
            }
        }
    }
    Chances {
        success: Chance::new(ways[0], all),
        telling_blow: Chance::new(ways[1], all),
        catastrophic: Chance::new(ways[2], all),
    }
}

/// The actor wants a success, then a Telling Blow, then no Catastrophic Failure.
fn actor_order(a: &Chances, b: &Chances) -> Ordering {
    (a.success.cmp(&b.success)).then(a.telling_blow.cmp(&b.telling_blow)).then(b.catastrophic.cmp(&a.catastrophic))
}

/// The resistor wants the actor to fail, then a Catastrophic RMIB (its own Telling Blow),
/// then no Telling Blow against it.
fn resistor_order(a: &Chances, b: &Chances) -> Ordering {
    (b.success.cmp(&a.success)).then(a.catastrophic.cmp(&b.catastrophic)).then(b.telling_blow.cmp(&a.telling_blow))
}

fn mark_best(bids: &mut [Bid], contest: bool) {
    let for_actor = marks(bids, actor_order);
    let for_resistor = if contest { marks(bids, resistor_order) } else { vec![false; bids.len()] };
    for ((bid, actor), resistor) in bids.iter_mut().zip(for_actor).zip(for_resistor) {
        bid.best_for_actor = actor;
        bid.best_for_resistor = resistor;
    }
}

/// Which bids no other beats in `order`.
fn marks(bids: &[Bid], order: fn(&Chances, &Chances) -> Ordering) -> Vec<bool> {
    let top = bids.iter().map(|b| b.chances).max_by(order);
    bids.iter().map(|b| top.is_some_and(|top| order(&b.chances, &top) == Ordering::Equal)).collect()
}

#[cfg(test)]
mod tests;
