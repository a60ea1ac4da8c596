//! Mezzo conflicts at the table (RULES.md §3.2): the votes cast, their exact odds shown live,
//! and the resolution by Leave to Chance, Take Median or the D6 variant, with ties broken
//! by dice or settled by a compromise. A resolution is one transaction: the influence and
//! adversity spent are paid, and the result is logged (`undo_game` takes it back).
//!
//! D6 variant (RULES.md §3.2, decision 2026-11-25): each owner decides on a burst after
//! seeing the first roll. The first rolls are shown first ([`mezzo_conflict_d6_first`],
//! nothing saved); the resolution takes them back with the owners' choices and logs the
//! whole roll as one move. The app suggests a burst where it raises the expected score.

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::rules::mezzo::choices::{self, Better, BurstChoice, NextVote};
use crate::rules::mezzo::conflict::{
    break_tie, leave_to_chance, option_dice, plan_median, D6Conflict, D6Roll, MedianPlan, MedianStep, Outcome,
    Resolution, TiebreakRound, Variant,
};
use crate::rules::mezzo::element::{Element, Player};
use crate::rules::mezzo::odds;
use crate::rules::mezzo::open_conflict::{clear_of_ballots, OpenConflict};
use crate::rules::mezzo::plot::{CustomLaw, Fact};
use crate::rules::mezzo::vote::{counts, settle, ConflictCast, ConflictDraft, ConflictLaw, OptionVotes, Sources};
use crate::services::dice::{with_dice, DiceInput};
use crate::services::mezzo::{change, MezzoChange, Work};
use crate::store::Store;

/// How the table resolves the votes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Approach {
    LeaveToChance,
    /// The table's selections for each step; missing steps take the pre-selection (the two
    /// ends of the options still in, as listed along the question's spectrum).
    TakeMedian {
        #[serde(default)]
        selections: Vec<Vec<usize>>,
    },
    /// D6 variant. Each owner decides on a burst after seeing the first roll: `bursts` names
    /// the options whose owner bursts (each must be allowed one). `first` gives the first
    /// rolls already shown ([`mezzo_conflict_d6_first`]), one per option with votes, in
    /// order; the dice then give only the rerolls. Without `bursts`, a burst is taken where
    /// it raises the expected score, or nowhere with `no_bursts`.
    D6 {
        #[serde(default)]
        no_bursts: bool,
        #[serde(default)]
        first: Option<Vec<u8>>,
        #[serde(default)]
        bursts: Option<Vec<usize>>,
    },
}

/// The D6 variant's first rolls, before the owners decide on their bursts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct D6First {
    pub counts: Vec<u32>,
    pub rolls: Vec<D6Roll>,
    /// The first faces, one per option with votes, in order (to send back with the bursts).
    pub faces: Vec<u8>,
    /// The options whose owner may burst…
    pub may_burst: Vec<usize>,
    /// …and those where a burst raises the expected score (the app's suggestion).
    pub suggested: Vec<usize>,
    /// For each owner who may burst, the chance to win kept and burst (issue 34).
    pub burst_odds: Vec<BurstOdds>,
}

/// An owner's burst choice with the chance to win each way, the others as they stand or as
/// the app suggests ([`choices::burst_choices`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BurstOdds {
    pub option: usize,
    pub keep: OptionOdds,
    pub burst: OptionOdds,
    pub better: Better,
}

impl From<&BurstChoice> for BurstOdds {
    fn from(c: &BurstChoice) -> BurstOdds {
        BurstOdds { option: c.option, keep: share(&c.keep), burst: share(&c.burst), better: c.better }
    }
}

/// An option's chance with one more vote on it (issue 34).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NextVoteOdds {
    pub option: usize,
    pub with_vote: OptionOdds,
    /// No other option's chance changes more with one more vote.
    pub best: bool,
}

impl From<&NextVote> for NextVoteOdds {
    fn from(c: &NextVote) -> NextVoteOdds {
        NextVoteOdds { option: c.option, with_vote: share(c.with_vote()), best: c.best }
    }
}

fn next_votes(n: &[u32], variant: Variant) -> Result<Vec<NextVoteOdds>> {
    Ok(choices::next_vote(n, variant)?.iter().map(NextVoteOdds::from).collect())
}

/// Rolls (or takes typed in) the first d6 of every option with votes, for the owners to
/// decide on their bursts. Nothing is paid, saved or logged: the resolution logs the rolls.
pub fn mezzo_conflict_d6_first<R: Rng>(
    store: &Store,
    game: Uuid,
    draft: &ConflictDraft,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<D6First> {
    let read = store.read();
    let (players, elements) = crate::services::mezzo::participants(read, game)?;
    let sources = Sources::of(&read.mezzo_table(game)?);
    let (votes, _) = settle(draft, &players, &elements, &sources)?;
    let n = counts(&votes);
    let c = with_dice(dice, rng, |d| D6Conflict::roll(&n, d))?;
    Ok(D6First {
        faces: c.options().iter().filter_map(D6Roll::first).collect(),
        may_burst: (0..n.len()).filter(|&i| c.options()[i].may_burst()).collect(),
        suggested: c.bursts_that_pay(),
        burst_odds: choices::conflict_bursts(&c)?.iter().map(BurstOdds::from).collect(),
        rolls: c.options().to_vec(),
        counts: n,
    })
}

/// The D6 conflict: the first rolls (from `first`, or the dice), then the bursts the owners
/// chose (or the policy), each reroll from the dice.
fn d6_rolls(
    n: &[u32],
    first: Option<&[u8]>,
    bursts: Option<&[usize]>,
    no_bursts: bool,
    d: &mut dyn crate::rules::dice::DiceSource,
) -> Result<D6Conflict> {
    let mut c = match first {
        Some(faces) => {
            let mut shown = crate::rules::dice::Entered::new(faces.iter().copied());
            let c = D6Conflict::roll(n, &mut shown).map_err(|e| relabel(e, "approach.first"))?;
            if shown.remaining() > 0 {
                return Err(Error::invalid("approach.first", "one first roll per option with votes, no more"));
            }
            c
        }
        None => D6Conflict::roll(n, d)?,
    };
    let chosen = match bursts {
        Some(b) => b.to_vec(),
        None if no_bursts => Vec::new(),
        None => c.bursts_that_pay(),
    };
    for option in chosen {
        c = c.burst(option, d).map_err(|e| relabel(e, "approach.bursts"))?;
    }
    Ok(c)
}

fn relabel(e: Error, field: &str) -> Error {
    match e {
        Error::Invalid { problem, .. } => Error::invalid(field, problem),
        other => other,
    }
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
    /// Each option's chance with one more vote on it, with each one's dice (an option at
    /// the most votes is left out).
    pub steps_next_vote: Vec<NextVoteOdds>,
    pub d6_next_vote: Vec<NextVoteOdds>,
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
    o.options().iter().map(share).collect()
}

fn share(f: &odds::Fraction) -> OptionOdds {
    OptionOdds { probability: f.probability(), exact: format!("{}/{}", f.numerator(), f.denominator()) }
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
    let (players, elements) = crate::services::mezzo::participants(read, game)?;
    let sources = Sources::of(&read.mezzo_table(game)?);
    let (votes, _) = settle(draft, &players, &elements, &sources)?;
    let n = counts(&votes);
    Ok(ConflictPreview {
        dice: option_dice(&n)?,
        steps_odds: shares(&odds::odds(&n, Variant::Steps)?),
        d6_odds: shares(&odds::odds(&n, Variant::D6)?),
        steps_next_vote: next_votes(&n, Variant::Steps)?,
        d6_next_vote: next_votes(&n, Variant::D6)?,
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
    let change = change(store, game, |work| resolve_in(work, draft, approach, dice, rng, &mut result))?;
    Ok(ConflictOutcome { change, result: result.expect("set by the move") })
}

/// The resolution as a move on `work`: pays, rolls, and says what happened.
fn resolve_in<R: Rng>(
    work: &mut Work<'_>,
    draft: &ConflictDraft,
    approach: &Approach,
    dice: &DiceInput,
    rng: &mut R,
    result: &mut Option<ConflictResult>,
) -> Result<String> {
    {
        let (players, elements) = work.participants();
        let sources = Sources::of(&work.table);
        let (votes, paid) = settle(draft, &players, &elements, &sources)?;
        let drawn = source_words(draft, &players, &elements, &sources);
        let n = counts(&votes);
        let (rolls, d6, median, outcome) = match approach {
            Approach::LeaveToChance => {
                let dice_of = option_dice(&n)?;
                let r = with_dice(dice, rng, |d| leave_to_chance(&dice_of, d))?;
                let outcome = r.outcome.clone();
                (Some(r), None, Vec::new(), outcome)
            }
            Approach::D6 { no_bursts, first, bursts } => {
                let c = with_dice(dice, rng, |d| d6_rolls(&n, first.as_deref(), bursts.as_deref(), *no_bursts, d))?;
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
        work.table.victory_votes = paid.victory_votes;
        let words = summary(draft, &outcome);
        let (d6_scores, d6_rolls) = match d6 {
            Some(c) => (Some(c.scores()), Some(c.options().to_vec())),
            None => (None, None),
        };
        *result =
            Some(ConflictResult { counts: n, rolls, d6_scores, d6_rolls, median, outcome, summary: words.clone() });
        Ok(format!("{} {words}{drawn}", draft.question.trim()))
    }
}

// ---- a conflict open for the players' votes from their own devices (DEV-1) ----

/// One player's ballot in the open conflict, with their name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BallotView {
    pub player: Uuid,
    pub name: String,
    pub casts: Vec<ConflictCast>,
}

/// The conflict the table opened for votes, as every device sees it (the seed's votes are
/// open at the table: see [`crate::rules::mezzo::open_conflict`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpenConflictView {
    pub question: String,
    pub options: Vec<String>,
    pub about: Vec<Uuid>,
    pub active_in_scene: Vec<Uuid>,
    /// Who has voted, and what, in the order they first voted.
    pub ballots: Vec<BallotView>,
}

/// The conflict `game`'s table opened for votes, if any.
pub fn mezzo_open_conflict(store: &Store, game: Uuid) -> Result<Option<OpenConflictView>> {
    let read = store.read();
    crate::services::mezzo::participants(read, game)?;
    let table = read.mezzo_table(game)?;
    Ok(table.open_conflict.map(|o| {
        let name = |id: Uuid| table.players.iter().find(|p| p.id == id).map_or_else(String::new, |p| p.name.clone());
        OpenConflictView {
            ballots: o
                .ballots
                .iter()
                .map(|b| BallotView { player: b.player, name: name(b.player), casts: b.casts.clone() })
                .collect(),
            question: o.question,
            options: o.options,
            about: o.about,
            active_in_scene: o.active_in_scene,
        }
    }))
}

/// The table opens `draft` (its question, options, who it is about, who is active; no votes)
/// for the players to vote on from their own devices: one undoable move.
pub fn mezzo_open_conflict_for_votes(store: &mut Store, game: Uuid, draft: &ConflictDraft) -> Result<MezzoChange> {
    if !draft.casts.is_empty() {
        return Err(Error::invalid("casts", "a conflict is opened without votes: the players cast theirs after"));
    }
    change(store, game, |work| {
        if work.table.open_conflict.is_some() {
            return Err(Error::invalid(
                "open_conflict",
                "a conflict is already open for votes: resolve or withdraw it first",
            ));
        }
        let (players, elements) = work.participants();
        let open = OpenConflict::open(
            &draft.question,
            &draft.options,
            &draft.about,
            &draft.active_in_scene,
            &players,
            &elements,
            &Sources::of(&work.table),
        )?;
        let words = format!("Conflict open for votes: “{}”", open.question);
        work.table.open_conflict = Some(open);
        Ok(words)
    })
}

/// The table withdraws the conflict it opened for votes: the ballots go with it, nothing was
/// paid.
pub fn mezzo_withdraw_open_conflict(store: &mut Store, game: Uuid) -> Result<MezzoChange> {
    change(store, game, |work| {
        let open = work.table.open_conflict.take().ok_or_else(no_open_conflict)?;
        Ok(format!("Conflict withdrawn: “{}”", open.question))
    })
}

fn no_open_conflict() -> Error {
    Error::invalid("open_conflict", "no conflict is open for votes at the table")
}

/// Player `player` casts `casts` into the open conflict, replacing their ballot (none takes
/// their votes back). Checked against what the player holds now; paid when the table
/// resolves. A refusal names the ballot's field and changes nothing.
pub fn mezzo_cast_ballot(store: &mut Store, game: Uuid, player: Uuid, casts: &[ConflictCast]) -> Result<MezzoChange> {
    change(store, game, |work| {
        let open = work.table.open_conflict.clone().ok_or_else(no_open_conflict)?;
        let (players, elements) = work.participants();
        let next = open.cast(player, casts, &players, &elements, &Sources::of(&work.table))?;
        let name = players.iter().find(|p| p.id == player).map_or_else(String::new, |p| p.name.clone());
        let words = if casts.is_empty() {
            format!("{name} took back their votes on “{}”", open.question)
        } else {
            let mut per = vec![0u32; open.options.len()];
            for c in casts {
                if let Some((option, n)) = plain_votes(c) {
                    per[option] = per[option].saturating_add(n);
                }
            }
            let parts: Vec<String> = per
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(i, n)| format!("{n} for “{}”", open.options[i]))
                .collect();
            let what = if parts.is_empty() { String::new() } else { format!(": {}", parts.join(", ")) };
            format!("{name} voted on “{}”{what}", open.question)
        };
        work.table.open_conflict = Some(next);
        Ok(words)
    })
}

/// The votes a cast adds to its option, where that is a plain count (a law's ±1 is left out).
fn plain_votes(c: &ConflictCast) -> Option<(usize, u32)> {
    match c {
        ConflictCast::Free { option, votes, .. } | ConflictCast::Narration { option, votes, .. } => {
            Some((*option, *votes))
        }
        ConflictCast::Influence { option, points, .. } | ConflictCast::IllFated { option, points, .. } => {
            Some((*option, *points))
        }
        ConflictCast::FortunesFavor { option, .. } => Some((*option, 1)),
        _ => None,
    }
}

/// The conflict open for votes, with the table's own `casts` added (for the live preview and
/// the D6 first rolls, which take a draft).
pub fn mezzo_open_conflict_draft(store: &Store, game: Uuid, casts: &[ConflictCast]) -> Result<ConflictDraft> {
    let read = store.read();
    crate::services::mezzo::participants(read, game)?;
    let open = read.mezzo_table(game)?.open_conflict.ok_or_else(no_open_conflict)?;
    Ok(open.draft(casts))
}

/// Resolves the conflict open for votes: the table's own `casts` first, then every player's
/// ballot, paid and rolled as [`mezzo_resolve_conflict`] does, and the conflict is closed, in
/// one undoable move.
pub fn mezzo_resolve_open_conflict<R: Rng>(
    store: &mut Store,
    game: Uuid,
    casts: &[ConflictCast],
    approach: &Approach,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<ConflictOutcome> {
    let mut result = None;
    let change = change(store, game, |work| {
        let open = work.table.open_conflict.take().ok_or_else(no_open_conflict)?;
        let (players, _) = work.participants();
        // A player who voted from their own device is not cast for again here.
        clear_of_ballots(&open.ballots, casts, &players)?;
        resolve_in(work, &open.draft(casts), approach, dice, rng, &mut result)
            .map_err(|e| open.locate(e, casts.len(), &players))
    })?;
    Ok(ConflictOutcome { change, result: result.expect("set by the move") })
}

/// An arc Theme, invoked like a law, with who set it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ThemeView {
    /// The challenger who set it (its id names the theme in a cast).
    pub by: Uuid,
    pub by_name: String,
    pub text: String,
}

/// Narration votes an element holds from the table's challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VictoryVotesView {
    pub element: Uuid,
    pub name: String,
    pub votes: u32,
}

/// What a conflict may draw votes and facts from now, beyond players and elements.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConflictSources {
    /// The game's own Setting Laws.
    pub laws: Vec<CustomLaw>,
    pub themes: Vec<ThemeView>,
    /// The facts register of the arc being played, for Consistency and Inertia.
    pub facts: Vec<Fact>,
    /// The texts of the arc's unresolved plot hooks (Inertia may name them).
    pub open_hooks: Vec<String>,
    pub victory_votes: Vec<VictoryVotesView>,
    /// The details Discover perks added in the table's challenge.
    pub discoveries: Vec<String>,
}

/// What a conflict of `game` may draw on: laws, themes, facts, hooks, narration votes,
/// discovered details.
pub fn mezzo_conflict_sources(store: &Store, game: Uuid) -> Result<ConflictSources> {
    let read = store.read();
    let (_, elements) = crate::services::mezzo::participants(read, game)?;
    let table = read.mezzo_table(game)?;
    let sources = Sources::of(&table);
    let name = |id: Uuid| elements.iter().find(|e| e.id == id).map_or_else(String::new, |e| e.name.clone());
    Ok(ConflictSources {
        themes: sources
            .themes
            .iter()
            .map(|t| ThemeView { by: t.by, by_name: name(t.by), text: t.text.clone() })
            .collect(),
        victory_votes: sources
            .victory_votes
            .iter()
            .map(|v| VictoryVotesView { element: v.element, name: name(v.element), votes: v.votes })
            .collect(),
        facts: table.facts.iter().filter(|f| f.arc == table.arc()).cloned().collect(),
        open_hooks: table.plot.open_hooks().iter().map(|h| h.text.clone()).collect(),
        laws: sources.laws,
        discoveries: sources.discoveries,
    })
}

/// The votes drawn from the seed's other sources and the table's own laws, for the log:
/// " Votes from: Mira's Victory Narration (2) for “The guard”; …." or nothing.
fn source_words(draft: &ConflictDraft, players: &[Player], elements: &[Element], sources: &Sources) -> String {
    let option = |i: usize| format!("“{}”", draft.options.get(i).map(|s| s.trim()).unwrap_or_default());
    let element = |id: Uuid| elements.iter().find(|e| e.id == id).map_or_else(|| id.to_string(), |e| e.name.clone());
    let player = |id: Uuid| players.iter().find(|p| p.id == id).map_or_else(|| id.to_string(), |p| p.name.clone());
    let way = |d: &crate::rules::mezzo::action_check::Direction| match d {
        crate::rules::mezzo::action_check::Direction::For => "for",
        crate::rules::mezzo::action_check::Direction::Against => "against",
    };
    let parts: Vec<String> = draft
        .casts
        .iter()
        .filter_map(|c| match c {
            ConflictCast::Narration { element: e, option: o, votes, .. } => {
                Some(format!("{}'s Victory Narration ({votes}) for {}", element(*e), option(*o)))
            }
            ConflictCast::Trait { element: e, trait_id, option: o } => {
                let name = elements
                    .iter()
                    .find(|x| x.id == *e)
                    .and_then(|x| x.trait_by_id(*trait_id))
                    .map_or_else(String::new, |t| t.name.clone());
                Some(format!("{}'s “{name}” for {}", element(*e), option(*o)))
            }
            ConflictCast::Discover { detail, option: o } => {
                Some(format!("the discovered “{}” for {}", detail.trim(), option(*o)))
            }
            ConflictCast::IllFated { element: e, option: o, points, .. } => {
                Some(format!("{} Ill Fated ({points} debt paid off) for {}", element(*e), option(*o)))
            }
            ConflictCast::Law { player: p, option: o, law: ConflictLaw::Custom { id, direction } } => {
                let name = sources.laws.iter().find(|l| l.id == *id).map_or("", |l| l.name.as_str());
                Some(format!("{}'s law “{name}” {} {}", player(*p), way(direction), option(*o)))
            }
            ConflictCast::Law { player: p, option: o, law: ConflictLaw::Theme { by, direction } } => {
                let text = sources.themes.iter().find(|t| t.by == *by).map_or("", |t| t.text.as_str());
                Some(format!("{}'s Theme “{text}” {} {}", player(*p), way(direction), option(*o)))
            }
            _ => None,
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" Votes from: {}.", parts.join("; "))
    }
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
