//! Settling a Mezzo conflict once every vote is cast (RULES.md §3.2), as data and pure
//! functions; dice come from a [`DiceSource`], so they may be rolled by the app or typed in.
//!
//! - **Leave to Chance**: an option's votes become step dice ([`step_dice`]: d4, d6, d8, d10,
//!   d12, then a new die climbs the same ladder); a step down or up is one vote less or more
//!   (the same dice). [`leave_to_chance`] rolls every option's dice; an option scores its
//!   highest face (1 with no dice) and the highest score wins.
//! - **D6 variant**: every 6 votes raise an option's multiplier and the rest are its burst
//!   threshold ([`d6_die`]). [`D6Conflict::roll`] rolls one d6 per option; an owner whose first
//!   roll is within the threshold may take a burst ([`D6Conflict::burst`]): multiplier + 1
//!   and one reroll. The burst is the owner's choice, so it is its own step, and
//!   [`D6Conflict::bursts_that_pay`] pre-selects the bursts that raise the expected score
//!   (the same rule as the odds).
//! - **Take Median**: no dice. [`TakeMedian`] repeats "select the most strongly opposed
//!   options, subtract the fewest votes among them from each, drop those at 0" one step at a
//!   time, with the selection the table makes or the one the app pre-selects (RULES.md's
//!   Decision of 2026-11-28: the options are listed along the question's spectrum, so the two
//!   ends of what remains, the first and the last still in); [`take_median`] runs it to the
//!   end.
//!
//! Every procedure ends in an [`Outcome`]: one winner, or a tie. A tie is settled by the
//! table with a compromise that a majority supports (a table decision, outside these rules)
//! or by the tiebreak roll: [`tiebreak_round`] rolls one round (the table may still go for a
//! compromise if that ties again), [`break_tie`] rolls until one option wins.
//!
//! Rulings where the source is silent:
//! - An option holds 0 to [`MAX_VOTES`] votes (35 d12s: far beyond what a table casts), and
//!   a conflict has [`MIN_OPTIONS`] to [`MAX_OPTIONS`] options (the source sets neither
//!   limit; they bound the exact odds' work, see each). A count cannot go below 0: a
//!   law that takes a vote from an option with none leaves it at none, which already scores
//!   the least an option can (1).
//! - A step down on an option with no dice leaves it without dice; a step up adds a d4 after
//!   a d12 (or to no dice), exactly as one more vote does. An option rolls at most
//!   [`MAX_DICE`] dice.
//! - Dice are rolled option by option in the listed order, each option's dice in order, and
//!   then the bursts in the order they are taken: that is the order typed-in dice are used.
//! - D6 variant: an option without votes has no die (it scores 1, rolls nothing and has no
//!   burst). The reroll after a burst counts with the raised multiplier. The app pre-selects
//!   a burst exactly when its expected score, 3.5 × (multiplier + 1), is *higher* than the
//!   score already rolled; on equal expectations the owner keeps the roll.
//! - Take Median: options without votes are out before the first step: they have nothing to
//!   cancel, and leaving them in would let an option nobody voted for be the last one
//!   standing. If no option has votes, all are tied; if one alone has votes, it wins with no
//!   step. The table may select any two or more remaining options; the pre-selection takes
//!   the first and the last of the remaining options in the listed order (the table lists
//!   them from one extreme of the question to the other, and may reorder them before votes
//!   are cast). Only selected options lose votes, so only they can drop.
//! - Tiebreak: one die per tied option (a d12, a d6 in the D6 variant), in the listed order;
//!   the options still tied roll again. [`break_tie`] gives up with an error after
//!   [`MAX_TIEBREAK_ROUNDS`] tied rounds, which only a broken dice source reaches.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::rules::dice::DiceSource;

/// The fewest options a conflict has: it takes two opposing statements to start one.
pub const MIN_OPTIONS: usize = 2;
/// The most options a conflict has. The source sets no limit (DEV-13); this one only bounds
/// the work of the exact odds, which the screen works out again after every change (each
/// option's chance, and again with one more vote on each). No real table argues over more
/// than a handful of options; 32 is far beyond that and keeps the odds' common denominator's
/// lcm(1..=n) within 64 bits.
pub const MAX_OPTIONS: usize = 32;
/// The most votes an option holds. The source sets no limit (DEV-13); this one is the most
/// step dice whose outcomes the exact odds count in 128 bits: 175 votes are 35 d12s, and
/// 12^35 < 2^128. A table of twenty players pouring every point of a long arc's influence
/// into one option stays far below it.
pub const MAX_VOTES: u32 = 175;
/// The step dice, smallest first: each vote moves an option one rung up.
pub const LADDER: [u8; 5] = [4, 6, 8, 10, 12];
/// The most dice an option rolls: [`MAX_VOTES`] votes are this many d12s.
pub const MAX_DICE: usize = MAX_VOTES as usize / LADDER.len();
/// The most rounds [`break_tie`] rolls before it reports that the dice never settle.
pub const MAX_TIEBREAK_ROUNDS: usize = 100;

/// How Leave to Chance turns votes into scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// The step dice, d4 to d12 (the source's default).
    #[default]
    Steps,
    /// Six-sided dice only: a multiplier and a burst.
    D6,
}

impl Variant {
    /// The die each tied option rolls to break a tie: a d12, or a d6 in the D6 variant.
    pub fn tiebreak_die(self) -> u8 {
        match self {
            Variant::Steps => 12,
            Variant::D6 => 6,
        }
    }
}

/// How a conflict (or a tiebreak round) ended. Options are numbered by their place in the
/// list the procedure was given.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// This option takes effect.
    Winner(usize),
    /// These options (two or more, ascending) tied: a compromise or a tiebreak roll decides.
    Tie(Vec<usize>),
}

impl Outcome {
    /// The option with the highest score wins; several with the highest score tie.
    fn highest(scores: &[u32]) -> Outcome {
        let top = scores.iter().copied().max().unwrap_or(0);
        let best: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] == top).collect();
        match best[..] {
            [winner] => Outcome::Winner(winner),
            _ => Outcome::Tie(best),
        }
    }

    /// The winner, if there is one.
    pub fn winner(&self) -> Option<usize> {
        match self {
            Outcome::Winner(winner) => Some(*winner),
            Outcome::Tie(_) => None,
        }
    }
}

/// Checks a conflict's vote counts: [`MIN_OPTIONS`] to [`MAX_OPTIONS`] options (field
/// `votes`), each 0 to [`MAX_VOTES`] votes (field `votes[i]`).
pub fn check_votes(votes: &[u32]) -> Result<()> {
    check_options("votes", votes.len())?;
    for (i, &count) in votes.iter().enumerate() {
        check_vote_count(&format!("votes[{i}]"), count)?;
    }
    Ok(())
}

pub(crate) fn check_options(field: &str, count: usize) -> Result<()> {
    if (MIN_OPTIONS..=MAX_OPTIONS).contains(&count) {
        Ok(())
    } else {
        Err(Error::invalid(field, format!("a conflict has {MIN_OPTIONS} to {MAX_OPTIONS} options, not {count}")))
    }
}

fn check_vote_count(field: &str, votes: u32) -> Result<()> {
    if votes <= MAX_VOTES {
        Ok(())
    } else {
        Err(Error::invalid(field, format!("an option holds at most {MAX_VOTES} votes, not {votes}")))
    }
}

// ---------------------------------------------------------------------------------------
// Step dice

/// The step dice for `votes` votes: 0 → none, 1 → [4], 2 → [6], … 5 → [12], 6 → [12, 4],
/// 10 → [12, 12], 11 → [12, 12, 4]. Every vote is one step; the last die is the one that
/// climbs. More than [`MAX_VOTES`] is refused (field `votes`).
pub fn step_dice(votes: u32) -> Result<Vec<u8>> {
    check_vote_count("votes", votes)?;
    let rungs = LADDER.len() as u32;
    let mut dice = vec![LADDER[LADDER.len() - 1]; (votes / rungs) as usize];
    if !votes.is_multiple_of(rungs) {
        dice.push(LADDER[(votes % rungs) as usize - 1]);
    }
    Ok(dice)
}

/// The step dice of every option, in order (checked like [`check_votes`]).
pub fn option_dice(votes: &[u32]) -> Result<Vec<Vec<u8>>> {
    check_votes(votes)?;
    votes.iter().map(|&count| step_dice(count)).collect()
}

/// How many steps `dice` are worth (a d4 one, a d12 five): for dice from [`step_dice`], the
/// votes. A die that is not on the ladder is refused (field `dice[k]`).
pub fn steps(dice: &[u8]) -> Result<u32> {
    check_dice("dice", dice)?;
    Ok(dice.iter().map(|&die| rung(die).map_or(0, |r| r as u32 + 1)).sum())
}

/// The die's place on the ladder (d4 → 0 … d12 → 4).
fn rung(die: u8) -> Option<usize> {
    LADDER.iter().position(|&d| d == die)
}

/// At most [`MAX_DICE`] dice (field `field`), each on the ladder (field `field[k]`).
pub(crate) fn check_dice(field: &str, dice: &[u8]) -> Result<()> {
    if dice.len() > MAX_DICE {
        return Err(Error::invalid(field, format!("an option rolls at most {MAX_DICE} dice, not {}", dice.len())));
    }
    for (k, &die) in dice.iter().enumerate() {
        if rung(die).is_none() {
            return Err(Error::invalid(
                format!("{field}[{k}]"),
                format!("d{die} is not a step die (d4, d6, d8, d10 or d12)"),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Leave to Chance

/// One option's roll in Leave to Chance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionRoll {
    /// The dice rolled (sides of each).
    pub dice: Vec<u8>,
    /// The face each die showed, in the same order.
    pub faces: Vec<u8>,
    /// The highest face, or 1 with no dice.
    pub score: u32,
}

/// A Leave to Chance roll: every option's dice and score, and who won.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    pub options: Vec<OptionRoll>,
    pub outcome: Outcome,
}

impl Resolution {
    /// Each option's score, in order.
    pub fn scores(&self) -> Vec<u32> {
        self.options.iter().map(|o| o.score).collect()
    }
}

/// Rolls Leave to Chance: `dice[i]` are option i's step dice (from [`option_dice`]). Errors name a bad list (`options`) or die (`options[i][k]`),
/// or a die the source cannot give (named `options[i][k]`).
pub fn leave_to_chance(dice: &[Vec<u8>], source: &mut (impl DiceSource + ?Sized)) -> Result<Resolution> {
    check_options("options", dice.len())?;
    for (i, option) in dice.iter().enumerate() {
        check_dice(&format!("options[{i}]"), option)?;
    }
    let mut options = Vec::with_capacity(dice.len());
    for (i, option) in dice.iter().enumerate() {
        let faces = option
            .iter()
            .enumerate()
            .map(|(k, &sides)| source.roll(sides, &format!("options[{i}][{k}]")))
            .collect::<Result<Vec<u8>>>()?;
        let score = faces.iter().copied().max().map_or(1, u32::from);
        options.push(OptionRoll { dice: option.clone(), faces, score });
    }
    let outcome = Outcome::highest(&options.iter().map(|o| o.score).collect::<Vec<_>>());
    Ok(Resolution { options, outcome })
}

// ---------------------------------------------------------------------------------------
// D6 variant

/// An option's die in the D6 variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct D6Die {
    /// What the roll is multiplied by: 1, plus 1 for every 6 votes.
    pub multiplier: u32,
    /// The votes left over (0 to 5): a first roll no greater than this may burst.
    pub threshold: u32,
}

/// The die that `votes` votes buy in the D6 variant; `None` for no votes (no die, score 1).
/// More than [`MAX_VOTES`] is refused (field `votes`).
pub fn d6_die(votes: u32) -> Result<Option<D6Die>> {
    check_vote_count("votes", votes)?;
    Ok((votes > 0).then_some(D6Die { multiplier: 1 + votes / 6, threshold: votes % 6 }))
}

impl D6Die {
    /// Whether a first roll of `first` allows a burst.
    pub fn may_burst(self, first: u8) -> bool {
        u32::from(first) <= self.threshold
    }

    /// Whether a burst after a first roll of `first` is allowed and raises the expected score:
    /// the reroll's mean 3.5 × (multiplier + 1) against `first` × multiplier, compared exactly
    /// as 7 × (multiplier + 1) > 2 × `first` × multiplier.
    pub fn burst_pays(self, first: u8) -> bool {
        self.may_burst(first) && 7 * (self.multiplier + 1) > 2 * u32::from(first) * self.multiplier
    }
}

/// One option's roll in the D6 variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct D6Roll {
    votes: u32,
    die: Option<D6Die>,
    first: Option<u8>,
    reroll: Option<u8>,
}

impl D6Roll {
    /// The votes the option held.
    pub fn votes(&self) -> u32 {
        self.votes
    }

    /// Its die, or `None` without votes.
    pub fn die(&self) -> Option<D6Die> {
        self.die
    }

    /// The first roll (`None` without a die).
    pub fn first(&self) -> Option<u8> {
        self.first
    }

    /// The reroll of a burst, once taken.
    pub fn reroll(&self) -> Option<u8> {
        self.reroll
    }

    /// Whether the owner may still take a burst: the first roll is within the threshold and
    /// no burst was taken.
    pub fn may_burst(&self) -> bool {
        self.reroll.is_none() && matches!((self.die, self.first), (Some(die), Some(first)) if die.may_burst(first))
    }

    /// The multiplier in force: the die's, plus 1 after a burst.
    pub fn multiplier(&self) -> u32 {
        self.die.map_or(1, |die| die.multiplier + u32::from(self.reroll.is_some()))
    }

    /// The last roll times the multiplier, or 1 without a die.
    pub fn score(&self) -> u32 {
        match self.reroll.or(self.first) {
            Some(last) => u32::from(last) * self.multiplier(),
            None => 1,
        }
    }
}

/// A conflict rolled in the D6 variant: the first rolls, and the bursts taken so far. A
/// burst not taken by the time the outcome is read is declined.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct D6Conflict {
    options: Vec<D6Roll>,
}

impl D6Conflict {
    /// Rolls the first d6 of every option with votes (checked like [`check_votes`]), in
    /// order; a die the source cannot give is named `options[i].first`.
    pub fn roll(votes: &[u32], source: &mut (impl DiceSource + ?Sized)) -> Result<D6Conflict> {
        check_votes(votes)?;
        let mut options = Vec::with_capacity(votes.len());
        for (i, &count) in votes.iter().enumerate() {
            let die = d6_die(count)?;
            let first = match die {
                Some(_) => Some(source.roll(6, &format!("options[{i}].first"))?),
                None => None,
            };
            options.push(D6Roll { votes: count, die, first, reroll: None });
        }
        Ok(D6Conflict { options })
    }

    /// Each option's roll, in order.
    pub fn options(&self) -> &[D6Roll] {
        &self.options
    }

    /// Option `option`'s owner takes a burst: its multiplier rises by 1 and it rerolls (a die
    /// named `options[i].reroll`). Refused (field `option`) for an option that does not exist,
    /// whose first roll is above its threshold, or that already burst.
    pub fn burst(&self, option: usize, source: &mut (impl DiceSource + ?Sized)) -> Result<D6Conflict> {
        let Some(roll) = self.options.get(option) else {
            return Err(Error::invalid(
                "option",
                format!("there is no option {option}: the conflict has {}", self.options.len()),
            ));
        };
        if roll.reroll.is_some() {
            return Err(Error::invalid("option", format!("option {option} already took its burst")));
        }
        if !roll.may_burst() {
            let why = match (roll.die, roll.first) {
                (Some(die), Some(first)) => {
                    format!("its first roll {first} is above its burst threshold {}", die.threshold)
                }
                _ => "it has no votes, so no die".to_owned(),
            };
            return Err(Error::invalid("option", format!("option {option} cannot burst: {why}")));
        }
        let reroll = source.roll(6, &format!("options[{option}].reroll"))?;
        let mut next = self.clone();
        next.options[option].reroll = Some(reroll);
        Ok(next)
    }

    /// The options whose owner the app pre-selects to burst: those that may, where the burst
    /// raises the expected score ([`D6Die::burst_pays`]).
    pub fn bursts_that_pay(&self) -> Vec<usize> {
        let pays = |roll: &D6Roll| match (roll.die, roll.first) {
            (Some(die), Some(first)) => roll.may_burst() && die.burst_pays(first),
            _ => false,
        };
        (0..self.options.len()).filter(|&i| pays(&self.options[i])).collect()
    }

    /// Each option's score, in order.
    pub fn scores(&self) -> Vec<u32> {
        self.options.iter().map(D6Roll::score).collect()
    }

    /// The highest score wins (bursts not taken are declined).
    pub fn outcome(&self) -> Outcome {
        Outcome::highest(&self.scores())
    }
}

// ---------------------------------------------------------------------------------------
// Take Median

/// One step of Take Median.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MedianStep {
    /// The options selected as most strongly opposed (ascending).
    pub selected: Vec<usize>,
    /// The fewest votes among them, taken from each.
    pub subtracted: u32,
    /// The selected options left at 0 votes, out from now on (ascending).
    pub dropped: Vec<usize>,
}

/// Take Median in progress or done: each option's votes left, the steps taken, and the
/// outcome once one option is left or the last ones dropped together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TakeMedian {
    votes: Vec<u32>,
    left: Vec<u32>,
    without_votes: Vec<usize>,
    steps: Vec<MedianStep>,
    outcome: Option<Outcome>,
}

impl TakeMedian {
    /// Starts Take Median (votes checked like [`check_votes`]). Options without votes are out
    /// at once; if none has votes they all tie, if one alone has votes it wins.
    pub fn start(votes: &[u32]) -> Result<TakeMedian> {
        check_votes(votes)?;
        let without_votes: Vec<usize> = (0..votes.len()).filter(|&i| votes[i] == 0).collect();
        let with: Vec<usize> = (0..votes.len()).filter(|&i| votes[i] > 0).collect();
        let outcome = match with[..] {
            [] => Some(Outcome::Tie(without_votes.clone())),
            [winner] => Some(Outcome::Winner(winner)),
            _ => None,
        };
        Ok(TakeMedian { votes: votes.to_vec(), left: votes.to_vec(), without_votes, steps: Vec::new(), outcome })
    }

    /// The votes each option started with.
    pub fn votes(&self) -> &[u32] {
        &self.votes
    }

    /// The votes each option has left (0 once it is out).
    pub fn votes_left(&self) -> &[u32] {
        &self.left
    }

    /// The options still in (ascending).
    pub fn remaining(&self) -> Vec<usize> {
        (0..self.left.len()).filter(|&i| self.left[i] > 0).collect()
    }

    /// The options that were out before the first step, having no votes.
    pub fn without_votes(&self) -> &[usize] {
        &self.without_votes
    }

    /// The steps taken so far.
    pub fn steps(&self) -> &[MedianStep] {
        &self.steps
    }

    /// The outcome, once settled.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The app's pre-selection for the next step (RULES.md §3.2, Decision 2026-11-28): the
    /// options are listed along the question's spectrum, so the two ends of what remains —
    /// the first and the last option still in, whatever their votes (ascending). Empty once
    /// settled.
    pub fn preselected(&self) -> Vec<usize> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let remaining = self.remaining();
        match (remaining.first(), remaining.last()) {
            (Some(&first), Some(&last)) if first != last => vec![first, last],
            _ => Vec::new(),
        }
    }

    /// One step with the table's `selected` options (two or more distinct remaining options):
    /// the fewest votes among them is subtracted from each, and those left at 0 drop. When one
    /// option is left it wins; when none is, the options that dropped in this step tie.
    /// Errors name `selected` (too few, or the conflict is settled) or `selected[k]`.
    pub fn step(&self, selected: &[usize]) -> Result<TakeMedian> {
        if self.outcome.is_some() {
            return Err(Error::invalid("selected", "Take Median is already settled"));
        }
        if selected.len() < 2 {
            return Err(Error::invalid("selected", "mark at least two of the options left"));
        }
        for (k, &option) in selected.iter().enumerate() {
            if self.left.get(option).is_none_or(|&left| left == 0) {
                return Err(Error::invalid(
                    format!("selected[{k}]"),
                    format!("option {option} is not one of the remaining options {:?}", self.remaining()),
                ));
            }
            if selected[..k].contains(&option) {
                return Err(Error::invalid(format!("selected[{k}]"), format!("option {option} is selected twice")));
            }
        }
        let mut selected = selected.to_vec();
        selected.sort_unstable();
        let subtracted = selected.iter().map(|&i| self.left[i]).min().unwrap_or(0);
        let mut next = self.clone();
        for &i in &selected {
            next.left[i] -= subtracted;
        }
        let dropped: Vec<usize> = selected.iter().copied().filter(|&i| next.left[i] == 0).collect();
        let remaining = next.remaining();
        next.outcome = match remaining[..] {
            [] => Some(Outcome::Tie(dropped.clone())),
            [winner] => Some(Outcome::Winner(winner)),
            _ => None,
        };
        next.steps.push(MedianStep { selected, subtracted, dropped });
        Ok(next)
    }
}

/// Take Median run to the end with the app's pre-selection at every step.
pub fn take_median(votes: &[u32]) -> Result<TakeMedian> {
    let mut median = TakeMedian::start(votes)?;
    while median.outcome.is_none() {
        median = median.step(&median.preselected())?;
    }
    Ok(median)
}

/// One step of a Take Median plan: where it stood (the options still in, every option's
/// votes left, the app's pre-selection: the two ends of what remains) and the step the
/// table's marks made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlannedStep {
    pub remaining: Vec<usize>,
    pub left: Vec<u32>,
    pub preselected: Vec<usize>,
    /// `None` on the step whose marks are refused ([`MedianPlan::problem`]).
    pub step: Option<MedianStep>,
}

/// Take Median played with the table's marks, as far as they go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MedianPlan {
    pub steps: Vec<PlannedStep>,
    /// The outcome, unless a step's marks are refused.
    pub outcome: Option<Outcome>,
    /// Why the last step's marks are refused ("Step 2: …").
    pub problem: Option<String>,
}

/// Plays Take Median to its end with the table's marks: step `k` takes `selections[k]`, or
/// the pre-selection where the table marked nothing. Stops at the first step whose marks the
/// rules refuse, saying why (resolving refuses them too). Errors only on bad votes.
pub fn plan_median(votes: &[u32], selections: &[Vec<usize>]) -> Result<MedianPlan> {
    let mut median = TakeMedian::start(votes)?;
    let mut steps = Vec::new();
    while median.outcome().is_none() {
        let k = steps.len();
        let (remaining, left, preselected) = (median.remaining(), median.votes_left().to_vec(), median.preselected());
        let marked = selections.get(k).unwrap_or(&preselected);
        match median.step(marked) {
            Ok(next) => {
                steps.push(PlannedStep { remaining, left, preselected, step: next.steps().last().cloned() });
                median = next;
            }
            Err(Error::Invalid { problem, .. }) => {
                steps.push(PlannedStep { remaining, left, preselected, step: None });
                return Ok(MedianPlan { steps, outcome: None, problem: Some(format!("Step {}: {problem}.", k + 1)) });
            }
            Err(e) => return Err(e),
        }
    }
    Ok(MedianPlan { steps, outcome: median.outcome().cloned(), problem: None })
}
// ---------------------------------------------------------------------------------------
// Ties

/// One round of the tiebreak roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiebreakRound {
    /// The tied options that rolled, in the order given.
    pub options: Vec<usize>,
    /// The die each rolled (12, or 6 in the D6 variant).
    pub die: u8,
    /// The face each rolled, in the same order.
    pub faces: Vec<u8>,
    /// The winner, or the options tied again.
    pub outcome: Outcome,
}

/// One round of the tiebreak roll: each of the `tied` options (two or more distinct option
/// numbers) rolls the variant's tiebreak die; the highest wins, those equal on top tie again.
/// Errors name `tied`, `tied[k]`, or a die the source cannot give (`tiebreak for option i`).
pub fn tiebreak_round(
    tied: &[usize],
    variant: Variant,
    source: &mut (impl DiceSource + ?Sized),
) -> Result<TiebreakRound> {
    if tied.len() < 2 {
        return Err(Error::invalid("tied", format!("a tie is between two or more options, not {}", tied.len())));
    }
    for (k, option) in tied.iter().enumerate() {
        if tied[..k].contains(option) {
            return Err(Error::invalid(format!("tied[{k}]"), format!("option {option} is listed twice")));
        }
    }
    let die = variant.tiebreak_die();
    let faces = tied
        .iter()
        .map(|&option| source.roll(die, &format!("tiebreak for option {option}")))
        .collect::<Result<Vec<u8>>>()?;
    let outcome = match Outcome::highest(&faces.iter().map(|&f| u32::from(f)).collect::<Vec<_>>()) {
        Outcome::Winner(k) => Outcome::Winner(tied[k]),
        Outcome::Tie(ks) => {
            let mut again: Vec<usize> = ks.into_iter().map(|k| tied[k]).collect();
            again.sort_unstable();
            Outcome::Tie(again)
        }
    };
    Ok(TiebreakRound { options: tied.to_vec(), die, faces, outcome })
}

/// Tiebreak rounds until one option wins (the last round's outcome is its winner). After
/// [`MAX_TIEBREAK_ROUNDS`] rounds still tied, an error names `tied`.
pub fn break_tie(
    tied: &[usize],
    variant: Variant,
    source: &mut (impl DiceSource + ?Sized),
) -> Result<Vec<TiebreakRound>> {
    let mut rounds: Vec<TiebreakRound> = Vec::new();
    let mut still = tied.to_vec();
    while rounds.len() < MAX_TIEBREAK_ROUNDS {
        let round = tiebreak_round(&still, variant, source)?;
        let again = match &round.outcome {
            Outcome::Winner(_) => None,
            Outcome::Tie(again) => Some(again.clone()),
        };
        rounds.push(round);
        match again {
            None => return Ok(rounds),
            Some(again) => still = again,
        }
    }
    Err(Error::invalid("tied", format!("still tied after {MAX_TIEBREAK_ROUNDS} tiebreak rounds")))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;
    use crate::rules::dice::{Entered, Rolled};
    use crate::rules::test_support::err;

    #[test]
    fn the_ladder_climbs_a_die_at_a_time_and_starts_a_new_die_after_a_d12() {
        let expected: [&[u8]; 17] = [
            &[],
            &[4],
            &[6],
            &[8],
            &[10],
            &[12],
            &[12, 4],
            &[12, 6],
            &[12, 8],
            &[12, 10],
            &[12, 12],
            &[12, 12, 4],
            &[12, 12, 6],
            &[12, 12, 8],
            &[12, 12, 10],
            &[12, 12, 12],
            &[12, 12, 12, 4],
        ];
        for (votes, dice) in expected.iter().enumerate() {
            assert_eq!(step_dice(votes as u32).unwrap(), *dice, "{votes} votes");
        }
        assert_eq!(step_dice(40).unwrap(), vec![12; 8]);
        assert_eq!(err(step_dice(176)), "votes: an option holds at most 175 votes, not 176");
        assert_eq!(step_dice(41).unwrap(), [12, 12, 12, 12, 12, 12, 12, 12, 4], "41 votes: nine dice");
        assert_eq!(option_dice(&[3, 0, 6]).unwrap(), vec![vec![8], vec![], vec![12, 4]]);
    }

    #[test]
    fn a_step_down_shrinks_the_last_die_and_removes_a_d4() {
        assert_eq!(err(steps(&[12, 7])), "dice[1]: d7 is not a step die (d4, d6, d8, d10 or d12)");
        assert_eq!(err(steps(&[4; 36])), "dice: an option rolls at most 35 dice, not 36");
        assert_eq!(steps(&[4; 9]).unwrap(), 9);
        assert_eq!(steps(&[12, 12, 6]).unwrap(), 12);
    }

    #[test]
    fn leave_to_chance_scores_the_highest_face_and_no_dice_score_1() {
        let dice = option_dice(&[6, 2, 0]).unwrap();
        // d12 + d4, then d6; the option without dice rolls nothing.
        let resolution = leave_to_chance(&dice, &mut Entered::new([3, 4, 2])).unwrap();
        assert_eq!(resolution.options[0].faces, [3, 4]);
        assert_eq!(resolution.scores(), [4, 2, 1]);
        assert_eq!(resolution.outcome, Outcome::Winner(0));

        let resolution = leave_to_chance(&dice, &mut Entered::new([1, 1, 1])).unwrap();
        assert_eq!(resolution.scores(), [1, 1, 1]);
        assert_eq!(resolution.outcome, Outcome::Tie(vec![0, 1, 2]), "no dice scores 1 and ties with 1s");

        let resolution = leave_to_chance(&dice, &mut Entered::new([2, 4, 4])).unwrap();
        assert_eq!(resolution.outcome, Outcome::Tie(vec![0, 1]));
    }

    #[test]
    fn leave_to_chance_names_what_is_wrong() {
        assert_eq!(
            err(leave_to_chance(&[vec![4]], &mut Entered::new([1]))),
            "options: a conflict has 2 to 32 options, not 1"
        );
        assert_eq!(
            err(leave_to_chance(&[vec![4], vec![12, 5]], &mut Entered::new([1]))),
            "options[1][1]: d5 is not a step die (d4, d6, d8, d10 or d12)"
        );
        assert_eq!(
            err(leave_to_chance(&[vec![4], vec![12, 6]], &mut Entered::new([1, 12]))),
            "options[1][1]: no value was entered for this die"
        );
        assert_eq!(
            err(leave_to_chance(&[vec![4], vec![6]], &mut Entered::new([5, 1]))),
            "options[0][0]: 5 cannot be rolled on a d4 (1 to 4)"
        );
        assert_eq!(err(check_votes(&[1; 33])), "votes: a conflict has 2 to 32 options, not 33");
        assert!(check_votes(&[1; 17]).is_ok(), "17 options: no cap the source lacks");
        assert_eq!(err(check_votes(&[1, 176])), "votes[1]: an option holds at most 175 votes, not 176");
        assert!(check_votes(&[41, 0]).is_ok(), "41 votes: no cap the source lacks");
    }

    #[test]
    fn d6_multiplier_and_threshold() {
        assert_eq!(d6_die(0).unwrap(), None);
        assert_eq!(d6_die(1).unwrap(), Some(D6Die { multiplier: 1, threshold: 1 }));
        assert_eq!(d6_die(5).unwrap(), Some(D6Die { multiplier: 1, threshold: 5 }));
        assert_eq!(d6_die(6).unwrap(), Some(D6Die { multiplier: 2, threshold: 0 }));
        assert_eq!(d6_die(17).unwrap(), Some(D6Die { multiplier: 3, threshold: 5 }));
        assert_eq!(d6_die(40).unwrap(), Some(D6Die { multiplier: 7, threshold: 4 }));
        assert_eq!(err(d6_die(176)), "votes: an option holds at most 175 votes, not 176");
        assert_eq!(d6_die(41).unwrap(), Some(D6Die { multiplier: 7, threshold: 5 }));
        // A burst pays when 3.5 × (m + 1) beats first × m.
        let die = |votes| d6_die(votes).unwrap().unwrap();
        assert!(die(5).burst_pays(5), "3.5 × 2 = 7 > 5");
        assert!(!die(5).burst_pays(6), "above the threshold");
        assert!(die(11).burst_pays(5), "3.5 × 3 = 10.5 > 10");
        assert!(!die(17).burst_pays(5), "3.5 × 4 = 14 < 15");
        assert!(die(17).burst_pays(4), "14 > 12");
        assert!(!die(40).burst_pays(4), "3.5 × 8 = 28 = 4 × 7: equal, the roll is kept");
        assert!(die(40).burst_pays(3));
        assert!(!die(6).may_burst(1), "threshold 0 never bursts");
    }

    #[test]
    fn d6_rolls_bursts_and_scores() {
        // 2 votes (×1, threshold 2), 7 votes (×2, threshold 1), no votes.
        let conflict = D6Conflict::roll(&[2, 7, 0], &mut Entered::new([2, 3])).unwrap();
        assert_eq!(conflict.scores(), [2, 6, 1]);
        assert_eq!(conflict.outcome(), Outcome::Winner(1));
        assert!(conflict.options()[0].may_burst());
        assert!(!conflict.options()[1].may_burst(), "3 is above threshold 1");
        assert_eq!(conflict.bursts_that_pay(), [0]);
        // The burst: multiplier 2, reroll 5 → 10.
        let burst = conflict.burst(0, &mut Entered::new([5])).unwrap();
        assert_eq!(burst.options()[0].multiplier(), 2);
        assert_eq!(burst.options()[0].reroll(), Some(5));
        assert_eq!(burst.scores(), [10, 6, 1]);
        assert_eq!(burst.outcome(), Outcome::Winner(0));
        assert!(burst.bursts_that_pay().is_empty());
        // Once only, only within the threshold, never without votes.
        assert_eq!(err(burst.burst(0, &mut Entered::new([1]))), "option: option 0 already took its burst");
        assert_eq!(
            err(conflict.burst(1, &mut Entered::new([1]))),
            "option: option 1 cannot burst: its first roll 3 is above its burst threshold 1"
        );
        assert_eq!(
            err(conflict.burst(2, &mut Entered::new([1]))),
            "option: option 2 cannot burst: it has no votes, so no die"
        );
        assert_eq!(err(conflict.burst(3, &mut Entered::new([1]))), "option: there is no option 3: the conflict has 3");
        assert_eq!(
            err(conflict.burst(0, &mut Entered::new([7]))),
            "options[0].reroll: 7 cannot be rolled on a d6 (1 to 6)"
        );
        // A burst can lower the score: the reroll counts, not the better roll.
        let worse = conflict.burst(0, &mut Entered::new([1])).unwrap();
        assert_eq!(worse.scores(), [2, 6, 1]);
        // Ties by equal products.
        let tie = D6Conflict::roll(&[6, 3], &mut Entered::new([2, 4])).unwrap();
        assert_eq!(tie.scores(), [4, 4]);
        assert_eq!(tie.outcome(), Outcome::Tie(vec![0, 1]));
        assert_eq!(
            err(D6Conflict::roll(&[1, 2], &mut Entered::new([1]))),
            "options[1].first: no value was entered for this die"
        );
    }

    #[test]
    fn take_median_worked_examples() {
        // 5, 3, 2: the two ends cancel 2 → 3, 3, 0; then 3 and 3 cancel → both drop, tied.
        let median = take_median(&[5, 3, 2]).unwrap();
        let steps = [
            MedianStep { selected: vec![0, 2], subtracted: 2, dropped: vec![2] },
            MedianStep { selected: vec![0, 1], subtracted: 3, dropped: vec![0, 1] },
        ];
        assert_eq!(median.steps(), steps);
        assert_eq!(median.outcome(), Some(&Outcome::Tie(vec![0, 1])));

        // 4, 1, 2: 4 and 2 cancel 2 → 2, 1, 0; 2 and 1 cancel 1 → 1, 0: the first wins.
        let median = take_median(&[4, 1, 2]).unwrap();
        assert_eq!(median.steps().len(), 2);
        assert_eq!(median.steps()[1], MedianStep { selected: vec![0, 1], subtracted: 1, dropped: vec![1] });
        assert_eq!(median.votes_left(), [1, 0, 0]);
        assert_eq!(median.outcome(), Some(&Outcome::Winner(0)));

        // The table selects 3 and 2 instead: 5, 1, 0; then 5 and 1 → 4: the first wins.
        let start = TakeMedian::start(&[5, 3, 2]).unwrap();
        assert_eq!(start.preselected(), [0, 2]);
        let after = start.step(&[2, 1]).unwrap();
        assert_eq!(after.steps()[0], MedianStep { selected: vec![1, 2], subtracted: 2, dropped: vec![2] });
        assert_eq!(after.votes_left(), [5, 1, 0]);
        let done = after.step(&after.preselected()).unwrap();
        assert_eq!(done.outcome(), Some(&Outcome::Winner(0)));

        // Three selected at once, all equal: all drop, all tie.
        let all = TakeMedian::start(&[3, 3, 3]).unwrap().step(&[0, 1, 2]).unwrap();
        assert_eq!(all.outcome(), Some(&Outcome::Tie(vec![0, 1, 2])));
    }

    /// RULES.md §3.2, Decision 2026-11-28: the options are listed along the question's
    /// spectrum and the app pre-selects the two ends of what remains, whatever their votes.
    /// The audit's case (DEV-5): A 5, B 4, C 3 with B the middle road. The ends A and C cancel
    /// 3 → A 2, B 4, C out; then A and B cancel 2 → B, the compromise, wins. "The two with the
    /// most votes" (A and B) made C, the least-voted option, win.
    #[test]
    fn take_median_preselects_the_two_ends_of_what_remains() {
        let median = take_median(&[5, 4, 3]).unwrap();
        assert_eq!(median.steps()[0].selected, [0, 2]);
        assert_eq!(median.outcome(), Some(&Outcome::Winner(1)), "the middle road wins");
        // Votes do not move the ends: the first and the last option still in.
        assert_eq!(TakeMedian::start(&[1, 9, 9, 1]).unwrap().preselected(), [0, 3]);
        assert_eq!(TakeMedian::start(&[2, 6, 2, 2]).unwrap().preselected(), [0, 3]);
        // An end without votes is out at once, so the next one in is the end.
        let start = TakeMedian::start(&[0, 2, 5, 3, 0]).unwrap();
        assert_eq!(start.preselected(), [1, 3]);
        // An end that drops: the next option in along the list is the new end.
        let after = start.step(&start.preselected()).unwrap();
        assert_eq!(after.votes_left(), [0, 0, 5, 1, 0]);
        assert_eq!(after.preselected(), [2, 3]);
        // The same votes listed in another order: the option listed in the middle wins again.
        assert_eq!(take_median(&[5, 3, 4]).unwrap().outcome(), Some(&Outcome::Winner(1)));
        let plan = plan_median(&[5, 4, 3], &[]).unwrap();
        assert_eq!(plan.steps[0].preselected, [0, 2]);
        assert_eq!(plan.outcome, Some(Outcome::Winner(1)));
    }

    #[test]
    fn take_median_puts_options_without_votes_out_first() {
        let median = take_median(&[3, 0, 3]).unwrap();
        assert_eq!(median.without_votes(), [1]);
        assert_eq!(median.outcome(), Some(&Outcome::Tie(vec![0, 2])), "the option nobody voted for cannot win");
        let median = take_median(&[0, 7, 0]).unwrap();
        assert!(median.steps().is_empty());
        assert_eq!(median.outcome(), Some(&Outcome::Winner(1)));
        assert_eq!(take_median(&[0, 0]).unwrap().outcome(), Some(&Outcome::Tie(vec![0, 1])));
    }

    #[test]
    fn take_median_refuses_bad_selections() {
        let start = TakeMedian::start(&[3, 0, 2, 1]).unwrap();
        assert_eq!(err(start.step(&[0])), "selected: mark at least two of the options left");
        assert_eq!(err(start.step(&[0, 1])), "selected[1]: option 1 is not one of the remaining options [0, 2, 3]");
        assert_eq!(err(start.step(&[0, 9])), "selected[1]: option 9 is not one of the remaining options [0, 2, 3]");
        assert_eq!(err(start.step(&[2, 0, 2])), "selected[2]: option 2 is selected twice");
        let done = take_median(&[3, 1]).unwrap();
        assert_eq!(err(done.step(&[0, 1])), "selected: Take Median is already settled");
        assert!(done.preselected().is_empty());
        assert_eq!(err(TakeMedian::start(&[2])), "votes: a conflict has 2 to 32 options, not 1");
    }

    #[test]
    fn tiebreaks_roll_the_variants_die_until_one_wins() {
        let round = tiebreak_round(&[3, 1], Variant::Steps, &mut Entered::new([12, 7])).unwrap();
        assert_eq!((round.die, round.outcome), (12, Outcome::Winner(3)));
        let round = tiebreak_round(&[4, 0, 2], Variant::Steps, &mut Entered::new([9, 9, 2])).unwrap();
        assert_eq!(round.outcome, Outcome::Tie(vec![0, 4]));
        // Tied again, then the two still tied roll again.
        let rounds = break_tie(&[0, 1, 2], Variant::D6, &mut Entered::new([6, 6, 1, 2, 5])).unwrap();
        assert_eq!(rounds.len(), 2);
        assert_eq!(rounds[0].outcome, Outcome::Tie(vec![0, 1]));
        assert_eq!((rounds[1].options.clone(), rounds[1].die), (vec![0, 1], 6));
        assert_eq!(rounds[1].outcome, Outcome::Winner(1));
        assert_eq!(
            err(tiebreak_round(&[0, 1], Variant::D6, &mut Entered::new([7, 1]))),
            "tiebreak for option 0: 7 cannot be rolled on a d6 (1 to 6)"
        );
        assert_eq!(
            err(tiebreak_round(&[0], Variant::D6, &mut Entered::new([]))),
            "tied: a tie is between two or more options, not 1"
        );
        assert_eq!(
            err(tiebreak_round(&[0, 2, 0], Variant::D6, &mut Entered::new([]))),
            "tied[2]: option 0 is listed twice"
        );
        // A source that always ties never settles: an error, not a hang.
        struct Stuck;
        impl DiceSource for Stuck {
            fn roll(&mut self, _sides: u8, _what: &str) -> Result<u8> {
                Ok(3)
            }
        }
        assert_eq!(err(break_tie(&[0, 1], Variant::Steps, &mut Stuck)), "tied: still tied after 100 tiebreak rounds");
    }

    #[test]
    fn rolled_conflicts_stay_on_their_dice() {
        let mut rng = StdRng::seed_from_u64(11);
        let dice = option_dice(&[40, 7, 0, 1]).unwrap();
        for _ in 0..200 {
            let resolution = leave_to_chance(&dice, &mut Rolled(&mut rng)).unwrap();
            assert!((1..=12).contains(&resolution.options[0].score));
            assert!((1..=12).contains(&resolution.options[1].score));
            assert_eq!(resolution.options[2].score, 1);
            assert!((1..=4).contains(&resolution.options[3].score));
            if let Outcome::Tie(tied) = &resolution.outcome {
                let rounds = break_tie(tied, Variant::Steps, &mut Rolled(&mut rng)).unwrap();
                assert!(tied.contains(&rounds.last().unwrap().outcome.winner().unwrap()));
            }
        }
    }

    #[test]
    fn a_median_plan_follows_the_tables_marks_and_says_which_step_it_refuses() {
        // Storm 3, Calm 1, Fog 1: the app pre-selects the ends, Storm and Fog; the table marks
        // Calm and Fog, which both drop, and Storm is left.
        let marked = plan_median(&[3, 1, 1], &[vec![1, 2]]).unwrap();
        assert_eq!(marked.steps.len(), 1);
        let first = &marked.steps[0];
        assert_eq!(
            (first.remaining.clone(), first.left.clone(), first.preselected.clone()),
            (vec![0, 1, 2], vec![3, 1, 1], vec![0, 2])
        );
        assert_eq!(first.step, Some(MedianStep { selected: vec![1, 2], subtracted: 1, dropped: vec![1, 2] }));
        assert_eq!((marked.outcome, marked.problem), (Some(Outcome::Winner(0)), None));
        // Unmarked steps take the pre-selection: the same as running it to the end.
        let plain = plan_median(&[3, 1, 1], &[]).unwrap();
        let ran = take_median(&[3, 1, 1]).unwrap();
        assert_eq!(plain.steps.iter().map(|s| s.step.clone().unwrap()).collect::<Vec<_>>(), ran.steps());
        assert_eq!(plain.outcome.as_ref(), ran.outcome());
        // One mark alone: the plan stops at that step and says why.
        let refused = plan_median(&[3, 1, 1], &[vec![0]]).unwrap();
        assert_eq!((refused.steps.len(), refused.steps[0].step.clone(), refused.outcome), (1, None, None));
        assert_eq!(refused.problem.as_deref(), Some("Step 1: mark at least two of the options left."));
    }

    proptest! {
        #[test]
        fn ladder_steps_are_votes(votes in 0u32..=MAX_VOTES) {
            let dice = step_dice(votes).unwrap();
            prop_assert_eq!(steps(&dice).unwrap(), votes);
            // Every die but the last is a d12.
            prop_assert!(dice.iter().rev().skip(1).all(|&d| d == 12));
        }

        #[test]
        fn take_median_always_ends(
            votes in proptest::collection::vec(0u32..=MAX_VOTES, MIN_OPTIONS..=MAX_OPTIONS),
            picks in proptest::collection::vec(any::<u64>(), MAX_OPTIONS),
        ) {
            let mut median = TakeMedian::start(&votes).unwrap();
            let mut steps = 0;
            while median.outcome().is_none() {
                // A random selection of two or more remaining options, or the pre-selection.
                let remaining = median.remaining();
                let pick = picks[steps];
                let selected: Vec<usize> = if pick % 3 == 0 {
                    median.preselected()
                } else {
                    let chosen: Vec<usize> = remaining.iter().enumerate().filter(|(k, _)| pick >> k & 1 == 1).map(|(_, &i)| i).collect();
                    if chosen.len() >= 2 { chosen } else { remaining[..2].to_vec() }
                };
                let before = remaining.len();
                median = median.step(&selected).unwrap();
                prop_assert!(median.remaining().len() < before, "every step drops an option");
                steps += 1;
                prop_assert!(steps <= votes.len());
            }
            match median.outcome().unwrap() {
                Outcome::Winner(w) => {
                    prop_assert_eq!(median.remaining(), vec![*w]);
                    prop_assert!(votes[*w] > 0);
                }
                Outcome::Tie(tied) => {
                    prop_assert!(median.remaining().is_empty());
                    match median.steps().last() {
                        Some(last) => prop_assert_eq!(&last.dropped, tied),
                        None => prop_assert!(votes.iter().all(|&v| v == 0)),
                    }
                    prop_assert!(tied.len() >= 2);
                }
            }
        }
    }

    /// The audit's case (RULES.md §3.2, decision 2026-11-25): each owner decides on a burst
    /// after seeing the first roll. A (5 votes: d6 × 1, burst on 1–5) rolls 5; B (6 votes:
    /// d6 × 2, no burst) rolls 2 and scores 4. The expected-score policy suggests A's burst,
    /// but A's owner keeps the 5 and wins; only a burst taken may lose it.
    #[test]
    fn a_d6_owner_may_keep_a_roll_the_app_would_burst() {
        let c = D6Conflict::roll(&[5, 6], &mut Entered::new([5, 2])).unwrap();
        assert_eq!(c.scores(), vec![5, 4]);
        assert_eq!(c.bursts_that_pay(), vec![0], "the app suggests A's burst (7 × 2 > 2 × 5)");
        assert_eq!(c.outcome(), Outcome::Winner(0), "A keeps the 5 and wins");
        let burst = c.burst(0, &mut Entered::new([1])).unwrap();
        assert_eq!((burst.scores(), burst.outcome()), (vec![2, 4], Outcome::Winner(1)), "a burst rerolled 1 × 2 loses");
        assert!(c.burst(1, &mut Entered::new([3])).is_err(), "B has no burst to take");
    }
}
