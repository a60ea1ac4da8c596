//! Mezzo conflicts at the table (RULES.md §3.2): the votes cast, their exact odds shown live,
//! and the resolution by Leave to Chance, Take Median or the D6 variant, with ties broken
//! by dice or settled by a compromise. A resolution is one transaction: the influence and
//! adversity spent are paid, and the result is logged (`undo_game` takes it back).
//!
//! Ruling: in the D6 variant an owner decides on the burst before the dice are rolled —
//! "when it pays" (when a burst raises the expected score, as the odds assume) or never —
//! so that the whole resolution is one step at the table and in the log.

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::dice::{with_dice, DiceInput};
use super::mezzo::{change, MezzoChange};
use crate::error::{Error, Result};
use crate::rules::mezzo::conflict::{
    break_tie, leave_to_chance, option_dice, plan_median, D6Conflict, D6Roll, MedianPlan, MedianStep, Outcome,
    Resolution, TiebreakRound, Variant,
};
use crate::rules::mezzo::odds;
use crate::rules::mezzo::vote::{counts, settle, ConflictDraft, OptionVotes};
use crate::store::Store;

/// How the table resolves the votes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Approach {
    LeaveToChance,
    /// The table's selections for each step; missing steps take the pre-selection (the two
    /// options with the most votes).
    TakeMedian {
        #[serde(default)]
        selections: Vec<Vec<usize>>,
    },
    /// Bursts are taken when they pay, unless `no_bursts`.
    D6 {
        #[serde(default)]
        no_bursts: bool,
    },
}

/// One option's exact chance of winning.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionOdds {
    pub probability: f64,
    /// The exact fraction, "numerator/denominator".
    pub exact: String,
}

/// What the votes cast so far come to, before anything is rolled or paid.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConflictPreview {
    pub votes: Vec<OptionVotes>,
    pub counts: Vec<u32>,
    /// The step dice each option would roll (Leave to Chance).
    pub dice: Vec<Vec<u8>>,
    /// Each option's exact chance with Leave to Chance and with the D6 variant.
    pub steps_odds: Vec<OptionOdds>,
    pub d6_odds: Vec<OptionOdds>,
    /// Take Median with the table's marks (the pre-selection where it marked nothing).
    pub median: MedianPlan,
}

/// How a conflict was resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConflictResult {
    pub counts: Vec<u32>,
    pub rolls: Option<Resolution>,
    pub d6_scores: Option<Vec<u32>>,
    /// The D6 variant's dice: each option's first roll, its burst's reroll, its multiplier.
    pub d6_rolls: Option<Vec<D6Roll>>,
    pub median: Vec<MedianStep>,
    pub outcome: Outcome,
    /// "“The guard” wins." or "A tie between …".
    pub summary: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConflictOutcome {
    pub change: MezzoChange,
    pub result: ConflictResult,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TieOutcome {
    pub change: MezzoChange,
    pub rounds: Vec<TiebreakRound>,
    pub winner: usize,
}

fn shares(o: &odds::ConflictOdds) -> Vec<OptionOdds> {
    o.options()
        .into_iter()
        .map(|f| OptionOdds { probability: f.probability(), exact: format!("{}/{}", f.numerator(), f.denominator()) })
        .collect()
}

/// The votes, odds and Take Median steps of a conflict as cast so far, Take Median with the
/// options the table marked at each step (`selections`; nothing is saved).
pub fn mezzo_conflict_preview(
    store: &Store,
    game: Uuid,
    draft: &ConflictDraft,
    selections: &[Vec<usize>],
) -> Result<ConflictPreview> {
    let read = store.read();
    let (players, elements) = super::mezzo::participants(read, game)?;
    let (votes, _) = settle(draft, &players, &elements)?;
    let n = counts(&votes);
    Ok(ConflictPreview {
        dice: option_dice(&n)?,
        steps_odds: shares(&odds::odds(&n, Variant::Steps)?),
        d6_odds: shares(&odds::odds(&n, Variant::D6)?),
        median: plan_median(&n, selections)?,
        counts: n,
        votes,
    })
}

fn summary(draft: &ConflictDraft, outcome: &Outcome) -> String {
    let name = |i: usize| format!("“{}”", draft.options.get(i).map(|s| s.trim()).unwrap_or_default());
    match outcome {
        Outcome::Winner(i) => format!("{} wins.", name(*i)),
        Outcome::Tie(tied) => {
            format!(
                "A tie between {}: agree on a compromise or roll to break it.",
                tied.iter().map(|&i| name(i)).collect::<Vec<_>>().join(" and ")
            )
        }
    }
}

/// Resolves a conflict: pays the influence and adversity cast, rolls (or takes the median),
/// and logs the result.
pub fn mezzo_resolve_conflict<R: Rng>(
    store: &mut Store,
    game: Uuid,
    draft: &ConflictDraft,
    approach: &Approach,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<ConflictOutcome> {
    let mut result = None;
    let change = change(store, game, |work| {
        let (players, elements) = work.participants();
        let (votes, paid) = settle(draft, &players, &elements)?;
        let n = counts(&votes);
        let (rolls, d6, median, outcome) = match approach {
            Approach::LeaveToChance => {
                let dice_of = option_dice(&n)?;
                let r = with_dice(dice, rng, |d| leave_to_chance(&dice_of, d))?;
                let outcome = r.outcome.clone();
                (Some(r), None, Vec::new(), outcome)
            }
            Approach::D6 { no_bursts } => {
                let c = with_dice(dice, rng, |d| {
                    let mut c = D6Conflict::roll(&n, d)?;
                    if !no_bursts {
                        for option in c.bursts_that_pay() {
                            c = c.burst(option, d)?;
                        }
                    }
                    Ok(c)
                })?;
                let outcome = c.outcome();
                (None, Some(c), Vec::new(), outcome)
            }
            Approach::TakeMedian { selections } => {
                if !matches!(dice, DiceInput::Rolled) {
                    return Err(Error::invalid("dice", "Take Median rolls no dice"));
                }
                let plan = plan_median(&n, selections)?;
                let Some(outcome) = plan.outcome else {
                    let step = plan.steps.len() - 1;
                    return Err(Error::invalid(format!("selections[{step}]"), plan.problem.unwrap_or_default()));
                };
                (None, None, plan.steps.into_iter().filter_map(|s| s.step).collect(), outcome)
            }
        };
        for p in paid.players {
            work.set_player(p);
        }
        for e in paid.elements {
            work.set_element(e);
        }
        let words = summary(draft, &outcome);
        let (d6_scores, d6_rolls) = match d6 {
            Some(c) => (Some(c.scores()), Some(c.options().to_vec())),
            None => (None, None),
        };
        result =
            Some(ConflictResult { counts: n, rolls, d6_scores, d6_rolls, median, outcome, summary: words.clone() });
        Ok(format!("{} {words}", draft.question.trim()))
    })?;
    Ok(ConflictOutcome { change, result: result.expect("set by the move") })
}

/// Breaks a tie between `tied` options of a conflict with d12s (d6s in the D6 variant),
/// rolled again while tied, and logs the winner.
pub fn mezzo_break_tie<R: Rng>(
    store: &mut Store,
    game: Uuid,
    draft: &ConflictDraft,
    tied: &[usize],
    variant: Variant,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<TieOutcome> {
    if let Some(bad) = tied.iter().find(|&&i| i >= draft.options.len()) {
        return Err(Error::invalid("tied", format!("there is no option {}", bad + 1)));
    }
    let mut out = None;
    let change = change(store, game, |_| {
        let rounds = with_dice(dice, rng, |d| break_tie(tied, variant, d))?;
        let winner = rounds
            .last()
            .and_then(|r| r.outcome.winner())
            .ok_or_else(|| Error::invalid("dice", "the tie is still unbroken; roll again"))?;
        let words = summary(draft, &Outcome::Winner(winner));
        out = Some((rounds, winner));
        Ok(format!("{} Tie broken by dice: {words}", draft.question.trim()))
    })?;
    let (rounds, winner) = out.expect("set by the move");
    Ok(TieOutcome { change, rounds, winner })
}

/// Records the compromise a tied table agreed on.
pub fn mezzo_compromise(store: &mut Store, game: Uuid, question: &str, compromise: &str) -> Result<MezzoChange> {
    let text = compromise.trim();
    if text.is_empty() || text.chars().count() > 500 {
        return Err(Error::invalid("compromise", "must be 1 to 500 characters"));
    }
    change(store, game, |_| Ok(format!("{} Settled by compromise: “{text}”.", question.trim())))
}
