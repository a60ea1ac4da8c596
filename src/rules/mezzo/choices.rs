//! Mezzo's choices (issue 34), where a player's decision meets the dice of a conflict left
//! to chance (RULES.md §3.2):
//!
//! - **The next vote:** before the dice, every option's chance of winning now and with one
//!   more vote on it (a free vote, an influence point or any other source: each is one vote),
//!   so a player sees where one more vote moves the odds most. A vote can lower an option's
//!   chance in the D6 variant (a sixth vote trades a sure burst for a higher multiplier), so
//!   the change is compared with its sign. The same for an action check's sides
//!   ([`check_next_vote`]), counted as the check counts its votes.
//! - **The burst (D6 variant):** once the first rolls are seen, for every owner who may
//!   still burst, the chance of winning if they keep the roll and if they burst, against the
//!   other options as they stand — a roll already settled counts as it is, and every other
//!   owner still choosing is taken to choose as the app suggests (a burst when it raises the
//!   expected score, [`D6Die::burst_pays`]). The suggestion looks at the expected score; this
//!   looks at the chance to *win*, which can differ.
//!
//! Every chance is counted by the conflicts' own exact engine ([`win_odds`]), ties split
//! evenly as the tiebreak does.

use std::cmp::Ordering;

use serde::Serialize;

use super::action_check::{self, ActionCheck, Cast, D6SideRoll, Phase};
use super::conflict::{check_votes, D6Conflict, D6Die, Variant, MAX_VOTES};
use super::element::Element;
use super::odds::{cmp_differences, odds, win_odds, Fraction, ScoreCounts};
use crate::error::{Error, Result};

/// One option's next vote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NextVote {
    pub option: usize,
    /// Its votes now.
    pub votes: u32,
    /// Its chance of winning now.
    pub now: Fraction,
    /// Every option's chance of winning with one more vote on this one, in order.
    pub after: Vec<Fraction>,
    /// No other option's chance changes more with one more vote on it (more than one when
    /// equal).
    pub best: bool,
}

impl NextVote {
    /// This option's chance with one more vote on it.
    pub fn with_vote(&self) -> &Fraction {
        &self.after[self.option]
    }
}

/// Every option's chance now and with one more vote on it, for a conflict whose options hold
/// `votes` (checked like [`check_votes`]). An option already at [`MAX_VOTES`] takes no more
/// and is left out.
pub fn next_vote(votes: &[u32], variant: Variant) -> Result<Vec<NextVote>> {
    check_votes(votes)?;
    let now = odds(votes, variant)?.options();
    let mut all = Vec::with_capacity(votes.len());
    for (option, &count) in votes.iter().enumerate() {
        if count == MAX_VOTES {
            continue;
        }
        let mut more = votes.to_vec();
        more[option] += 1;
        let after = odds(&more, variant)?.options();
        all.push(NextVote { option, votes: count, now: now[option].clone(), after, best: false });
    }
    mark_largest_change(&mut all);
    Ok(all)
}

/// An action check's sides (RULES.md §3.3) before the dice: each side's chance to take
/// effect now and with one more vote on it (an influence point, or any other source), laws
/// clamped and perks paid as the check counts them. A side that takes no part, or is at the
/// most votes, is left out. Refused outside the votes and perks (as [`action_check::odds`]).
pub fn check_next_vote(check: &ActionCheck, elements: &[Element]) -> Result<Vec<NextVote>> {
    let now = action_check::odds(check, elements)?;
    let mut all = Vec::new();
    for (side, s) in check.sides.iter().enumerate() {
        let votes = check.tally(side).dice_votes;
        if s.dropped || votes >= MAX_VOTES {
            continue;
        }
        let mut more = check.clone();
        more.casts.push(Cast::Counted { side, votes: 1 });
        let after = action_check::odds(&more, elements)?;
        all.push(NextVote { option: side, votes, now: now[side].clone(), after, best: false });
    }
    mark_largest_change(&mut all);
    Ok(all)
}

/// Marks the options whose chance changes most with one more vote (more than one when equal).
fn mark_largest_change(all: &mut [NextVote]) {
    let change = |v: &NextVote| (v.with_vote().clone(), v.now.clone());
    let top = all.iter().map(change).max_by(|a, b| cmp_differences((&a.0, &a.1), (&b.0, &b.1)));
    if let Some((top_after, top_now)) = top {
        for v in all {
            v.best = cmp_differences((v.with_vote(), &v.now), (&top_after, &top_now)) == Ordering::Equal;
        }
    }
}

/// Which of the two a burst choice favours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    Burst,
    Keep,
    /// The same chance either way.
    Either,
}

/// An owner's burst choice with the chance of winning each way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BurstChoice {
    /// The option (a conflict) or side (an action check) whose owner chooses.
    pub option: usize,
    pub first: u8,
    pub keep: Fraction,
    pub burst: Fraction,
    pub better: Better,
}

/// Where an option or side stands once the first rolls are seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Its score is settled (no die, a roll above the threshold, a choice made).
    Settled(u32),
    /// Its owner may still burst after this first roll.
    Open { die: D6Die, first: u8 },
}

impl Standing {
    /// How it scores as the app suggests its owner chooses.
    fn suggested(self) -> ScoreCounts {
        match self {
            Standing::Settled(score) => sure(score),
            Standing::Open { die, first } if die.burst_pays(first) => burst_counts(die),
            Standing::Open { die, first } => sure(u32::from(first) * die.multiplier),
        }
    }
}

/// Every open burst among `standings`, with the chance of winning each way (see the module
/// notes for the others' choices). At least two standings.
pub fn burst_choices(standings: &[Standing]) -> Result<Vec<BurstChoice>> {
    let mut all = Vec::new();
    for (option, &standing) in standings.iter().enumerate() {
        let Standing::Open { die, first } = standing else { continue };
        let mut field: Vec<ScoreCounts> = standings.iter().map(|s| s.suggested()).collect();
        field[option] = sure(u32::from(first) * die.multiplier);
        let keep = win_odds(&field)?.options().swap_remove(option);
        field[option] = burst_counts(die);
        let burst = win_odds(&field)?.options().swap_remove(option);
        let better = match burst.cmp(&keep) {
            Ordering::Greater => Better::Burst,
            Ordering::Less => Better::Keep,
            Ordering::Equal => Better::Either,
        };
        all.push(BurstChoice { option, first, keep, burst, better });
    }
    Ok(all)
}

/// The open bursts of a conflict rolled in the D6 variant.
pub fn conflict_bursts(conflict: &D6Conflict) -> Result<Vec<BurstChoice>> {
    let standings: Vec<Standing> = conflict
        .options()
        .iter()
        .map(|roll| match (roll.die(), roll.first()) {
            (Some(die), Some(first)) if roll.may_burst() => Standing::Open { die, first },
            _ => Standing::Settled(roll.score()),
        })
        .collect();
    burst_choices(&standings)
}

/// The open bursts of an action check rolled in the D6 variant (its sides that rolled;
/// `option` is the side's index in the check). Refused unless the check is between its roll
/// and its result.
pub fn check_bursts(check: &ActionCheck) -> Result<Vec<BurstChoice>> {
    if check.phase != Phase::Rolled {
        return Err(Error::invalid("check", "a burst is chosen after the roll and before the result"));
    }
    let rolled: Vec<(usize, Standing)> = (check.sides.iter().enumerate())
        .filter_map(|(i, side)| {
            let roll = side.roll.as_ref()?;
            let standing = match roll.d6 {
                Some(d6 @ D6SideRoll { multiplier, threshold, first, .. }) if d6.open() => {
                    Standing::Open { die: D6Die { multiplier, threshold }, first }
                }
                _ => Standing::Settled(roll.highest),
            };
            Some((i, standing))
        })
        .collect();
    if rolled.len() < 2 {
        return Ok(Vec::new());
    }
    let standings: Vec<Standing> = rolled.iter().map(|&(_, s)| s).collect();
    let mut choices = burst_choices(&standings)?;
    for choice in &mut choices {
        choice.option = rolled[choice.option].0;
    }
    Ok(choices)
}

/// One sure score.
fn sure(score: u32) -> ScoreCounts {
    let mut counts = vec![0; score as usize + 1];
    counts[score as usize] = 1;
    ScoreCounts { counts, outcomes: 1 }
}

/// The six equally likely scores of a burst: the reroll times the multiplier plus one.
fn burst_counts(die: D6Die) -> ScoreCounts {
    let step = die.multiplier as usize + 1;
    let mut counts = vec![0; 6 * step + 1];
    (1..=6).for_each(|face| counts[face * step] = 1);
    ScoreCounts { counts, outcomes: 6 }
}

#[cfg(test)]
mod tests;
