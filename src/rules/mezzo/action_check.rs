//! A Mezzo action check (RULES.md §3.3): Leave to Chance between a character's action and
//! its failure (or between contested actions), as a state machine of pure moves.
//!
//! 1. [`start`]: the sides and their base chance (negligible 0 votes, occasional 1, common 2,
//!    each Aptitude a step more). A negligible side cannot happen; when only one side is left
//!    no check is needed and it takes effect. Otherwise every element taking part that never
//!    had an action check gets its 4 edge slots now, so it can fill them for this check.
//! 2. [`cast`]: votes and spends before the roll — setting laws (each player once; the net
//!    per side is held to ±2), influence (1 vote a point), Fortune's Favor (2 adversity, a
//!    vote for the element's own action), Overcome Flaws (2: a flaw is ignored — a Restraint
//!    then locks nothing out), Unexpected Edge (5, in a challenge with no fitting trait; no
//!    slot), and the votes the table judges an element's traits give (Aptitude aside: a
//!    Focused extra, a Vulnerability, an Impaired Ability's step down…). And every vote source
//!    a conflict takes, checked and paid by the same [`Ledger`] (seed: "Action checks work as
//!    per Resolving Conflicts"): the game's own laws and the arc's Themes (laws, so within the
//!    ±2), Victory Narration votes, Ill Fated (adversity debt paid off) and a discovered
//!    detail's extra vote ([`Sources`]: what the table recorded).
//! 3. [`buy_perk`]: scope perks, 1 vote each from the side that buys them, after every vote
//!    is cast (the first perk closes the voting): Extended → Local → Regional coverage,
//!    Lingering → Contagious → Inescapable consequences, each needing the one before.
//! 4. [`roll`]: each side's votes become step dice ([`conflict::step_dice`]); an acting
//!    element's Restraints lock out the largest sizes (d12, then d10…; all five: it rolls 1).
//!    A side scores its highest face, 1 with no dice. [`odds`] gives each side's exact chance
//!    before this step, counted by the conflicts' exact engine ([`exact::win_odds`]).
//!    A table set to the D6 variant ([`start_with`]) rolls one d6 per side instead: every 6
//!    votes raise its multiplier, the rest are its burst threshold ([`conflict::d6_die`]).
//!    4b. [`choose_burst`]: a side whose first roll is within its threshold waits for its
//!    owner, who has seen the roll, to burst (multiplier + 1, reroll once) or keep it
//!    ([`suggested_bursts`]: the app's suggestion, the bursts that raise the expected
//!    score). The score is the last roll times the multiplier in force.
//! 5. [`surge`]: Sudden Surge, 3 adversity for +1 to the element's own result, after the roll.
//! 6. [`resolve`]: pays every spend (influence, adversity with debt, the unexpected edges) and
//!    compares the scores: the highest takes effect. A side that applied a Specialty with no
//!    minor perk among its selections and rolled only level with the best other side (in a
//!    challenge: only well enough for a minor perk) has its number reduced by 1 first.
//! 7. A tie: [`break_tie`] rolls a d12 per tied side (again while tied), or the table agrees
//!    a [`compromise`].
//!
//! Every move takes the check (and the players and elements it reads) by reference and
//! returns new values and what happened; an illegal move is an [`Error::Invalid`] naming the
//! field, and changes nothing. Spends are checked when cast (in order, as they will be paid)
//! and paid only by [`resolve`], so a check abandoned before it leaves every resource as it
//! was; only the first-check award is given at the start.
//!
//! Rulings where the source is silent:
//! - Ties: an action check is Leave to Chance, so a tie goes to Breaking Ties: a compromise
//!   a majority supports, or a d12 per tied side, rolled again while tied. The odds split a
//!   tie evenly among the tied sides (the d12 roll favours none). (A challenge's major
//!   action reads ties its own way from the scores.)
//! - No free votes in an action check: the base chance replaces the Free Vote step, Creative
//!   Control's 3 votes included.
//! - Aptitude raises the base chance before "no check needed" is decided, so an Aptitude
//!   makes a negligible action occasional. A side whose base chance is negligible takes no
//!   part; if every side is negligible the table must first agree the odds (refused); in a
//!   contested check a negligible failure simply drops out.
//! - There must be a way to fail: a check with one action has a failure side; contested
//!   actions may have one or not. An element acts on one side at most.
//! - The law limit is per side. Inertia only takes a vote away. A fact serves Consistency
//!   once per check.
//! - Ill Fated goes to a side that is not the debtor's own action (its failure, or an
//!   opponent's action, hinders it), and the debtor takes part in the check (acting or
//!   involved). Narration votes and a discovered detail may go to any side.
//! - A side's votes below 0 roll no dice (score 1). A side buys perks only with votes it
//!   has: its dice are its votes less its perks.
//! - Restraints cap every die of the acting element's side at the largest size left (d12 →
//!   d10 with one restraint): votes past the cap are wasted, as the source says. A failure
//!   side has no restraints. Overcoming a Restraint lifts it for this check.
//! - Fortune's Favor and Sudden Surge go to the element's own action; Overcome Flaws and
//!   Unexpected Edge to any element taking part (an actor or an involved target). Each may
//!   be bought more than once; a trait's votes count once per check.
//! - The first-check award goes to every element named in the check, acting or involved,
//!   when a check really takes place (not when none is needed).
//! - D6 variant: a check, and a challenge's major action (an action check), rolls the D6
//!   variant when its table does (RULES.md §3.2, decision of 2026-11-25); a tie is broken by
//!   a d6 per tied side. Its odds assume every owner bursts exactly when that raises the
//!   expected score, as a conflict's do. Restraints: see [`dice`].

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::ballot::VictoryVotes;
use super::ballot::{Bill, Ledger};
pub use super::ballot::{Direction, Law, Sources};
use super::conflict::{self, d6_die, D6Die, Variant, MAX_VOTES};
use super::element::{self, clean_text, AdversitySpend, Element, ElementEvent, Player, SlotAward, Trait, TraitKind};
use super::odds::{self as exact, Fraction, ScoreCounts};
use crate::error::{Error, Result};
use crate::rules::dice::DiceSource;

/// The most a side's laws add or take away.
pub const LAW_LIMIT: i32 = 2;
/// The most sides a check has.
pub const MAX_SIDES: usize = conflict::MAX_OPTIONS;

/// How likely a side is before any vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaseChance {
    /// 0 votes: most characters cannot do this (for a failure: success is all but certain).
    Negligible,
    /// 1 vote.
    Occasional,
    /// 2 votes.
    Common,
}

impl BaseChance {
    pub fn votes(self) -> u32 {
        match self {
            BaseChance::Negligible => 0,
            BaseChance::Occasional => 1,
            BaseChance::Common => 2,
        }
    }
}

/// What a side is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SideKind {
    /// An element's action.
    Action { element: Uuid },
    /// The way the action (or every contested action) fails.
    Failure,
}

impl SideKind {
    pub fn element(self) -> Option<Uuid> {
        match self {
            SideKind::Action { element } => Some(element),
            SideKind::Failure => None,
        }
    }
}

/// A side as the table sets it up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSetup {
    pub kind: SideKind,
    /// What happens if it takes effect.
    #[serde(default)]
    pub description: String,
    pub chance: BaseChance,
    /// Aptitude extras applying: each raises the base chance a step.
    #[serde(default)]
    pub aptitude: u32,
}

/// An action check as the table sets it up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSetup {
    pub id: Uuid,
    /// What is being attempted.
    #[serde(default)]
    pub description: String,
    pub sides: Vec<SideSetup>,
    /// Other elements taking part (targets, obstacles): they may spend and get the award.
    #[serde(default)]
    pub involved: Vec<Uuid>,
}

/// Where a check stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Votes and spends are cast.
    Votes,
    /// Every vote is cast; scope perks are bought.
    Perks,
    /// The dice are rolled; Sudden Surges may be bought.
    Rolled,
    /// The highest scores tied: a tiebreak roll or a compromise decides.
    Tied,
    /// Settled.
    Done,
}

/// A vote or spend cast before the roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Cast {
    /// A setting law, invoked by `player` (once per check).
    Law { player: Uuid, side: usize, law: Law, direction: Direction },
    /// Influence spent by `player`: a vote per point.
    Influence { player: Uuid, side: usize, points: u32 },
    /// 2 adversity of `element`, spent by player `by`: a vote for its own action.
    FortunesFavor { element: Uuid, by: Uuid, allow_debt: bool },
    /// 2 adversity: `element` ignores its flaw `flaw` in this check.
    OvercomeFlaw { element: Uuid, flaw: Uuid, by: Uuid, allow_debt: bool },
    /// 5 adversity: an edge with no slot, in a challenge `element` has no fitting trait for.
    UnexpectedEdge { element: Uuid, edge: Box<Trait>, no_fitting_trait: bool, by: Uuid, allow_debt: bool },
    /// The votes the table judges a trait of `element` gives `side` (negative: takes away).
    Trait { side: usize, element: Uuid, trait_id: Uuid, votes: i32 },
    /// The votes the table counted for `side` beyond its base chance, cast elsewhere (other
    /// devices, by hand): added as they are, nothing paid here. One total per side.
    Counted { side: usize, votes: u32 },
    /// Victory Narration: `votes` of the votes `element` bought with momentum when it left
    /// the table's challenge in victory, spent by player `by` for `side`.
    Narration { element: Uuid, by: Uuid, side: usize, votes: u32 },
    /// Ill Fated: `points` of `element`'s adversity debt paid off by player `by`, a vote each
    /// for `side`, which hinders or harms it (not its own action).
    IllFated { element: Uuid, by: Uuid, side: usize, points: u32 },
    /// A detail a Discover perk added in the table's challenge: an extra vote for the side
    /// where it exists.
    Discover { detail: String, side: usize },
}

/// A Sudden Surge: 3 adversity of `element`, spent by player `by`, +1 to its own result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Surge {
    pub element: Uuid,
    pub by: Uuid,
    #[serde(default)]
    pub allow_debt: bool,
}

/// A scope perk: relaxes an action's limited scope, 1 vote each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopePerk {
    ExtendedCoverage,
    LocalCoverage,
    RegionalCoverage,
    LingeringConsequences,
    ContagiousConsequences,
    InescapableConsequences,
}

impl ScopePerk {
    /// The perk it needs first.
    pub fn requires(self) -> Option<ScopePerk> {
        match self {
            ScopePerk::ExtendedCoverage | ScopePerk::LingeringConsequences => None,
            ScopePerk::LocalCoverage => Some(ScopePerk::ExtendedCoverage),
            ScopePerk::RegionalCoverage => Some(ScopePerk::LocalCoverage),
            ScopePerk::ContagiousConsequences => Some(ScopePerk::LingeringConsequences),
            ScopePerk::InescapableConsequences => Some(ScopePerk::ContagiousConsequences),
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            ScopePerk::ExtendedCoverage => "Extended Coverage",
            ScopePerk::LocalCoverage => "Local Coverage",
            ScopePerk::RegionalCoverage => "Regional Coverage",
            ScopePerk::LingeringConsequences => "Lingering Consequences",
            ScopePerk::ContagiousConsequences => "Contagious Consequences",
            ScopePerk::InescapableConsequences => "Inescapable Consequences",
        }
    }
}

/// A die rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RolledDie {
    pub sides: u8,
    pub face: u8,
}

/// A side's roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideRoll {
    pub dice: Vec<RolledDie>,
    /// Restraints of the acting element that counted.
    pub restraints: u32,
    /// Every die size locked out: the side rolls 1.
    pub locked_out: bool,
    /// The highest face, 1 with no dice (in the D6 variant: the last roll times the
    /// multiplier in force).
    pub highest: u32,
    /// The D6 variant's die: its first roll and the owner's burst choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d6: Option<D6SideRoll>,
}

/// A side's d6 in the D6 variant (RULES.md §3.2): its multiplier and burst threshold, the
/// first roll, and the burst its owner chose after seeing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct D6SideRoll {
    /// The die's multiplier, before any burst.
    pub multiplier: u32,
    pub threshold: u32,
    pub first: u8,
    /// The reroll of a burst (the multiplier is then one higher).
    #[serde(default)]
    pub reroll: Option<u8>,
    /// Whether the owner chose to burst or keep; a first roll above the threshold has no
    /// choice and is decided at once.
    pub decided: bool,
}

impl D6SideRoll {
    fn die(self) -> D6Die {
        D6Die { multiplier: self.multiplier, threshold: self.threshold }
    }

    /// The owner may still burst.
    pub fn open(self) -> bool {
        !self.decided
    }

    /// The app's suggestion while the choice is open: burst when it raises the expected score.
    pub fn burst_suggested(self) -> bool {
        self.open() && self.die().burst_pays(self.first)
    }

    /// The last roll times the multiplier in force.
    pub fn score(self) -> u32 {
        match self.reroll {
            Some(reroll) => u32::from(reroll) * (self.multiplier + 1),
            None => u32::from(self.first) * self.multiplier,
        }
    }
}

/// A side of a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSide {
    pub kind: SideKind,
    pub description: String,
    pub chance: BaseChance,
    pub aptitude: u32,
    /// Negligible: it cannot happen and does not roll.
    pub dropped: bool,
    pub perks: Vec<ScopePerk>,
    pub roll: Option<SideRoll>,
    /// The highest face plus Sudden Surges, once resolved.
    pub score: Option<u32>,
    /// The score is 1 lower: a Specialty without a minor perk among its selections was
    /// applied, and the side rolled only well enough for a minor perk (a tie on top).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub specialty_minus: bool,
}

/// One round of the tiebreak roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TieRoll {
    /// The tied sides, each rolling a d12.
    pub sides: Vec<usize>,
    pub faces: Vec<u8>,
}

/// How a check ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Outcome {
    /// Only this side was not negligible: no check.
    NoCheckNeeded { winner: usize },
    /// This side scored highest (after a tiebreak roll if `tiebreak`).
    Won { winner: usize, tiebreak: bool },
    /// The table agreed a compromise between these tied sides.
    Compromise { sides: Vec<usize>, text: String },
}

/// An action check and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionCheck {
    pub id: Uuid,
    pub description: String,
    pub phase: Phase,
    pub sides: Vec<CheckSide>,
    #[serde(default)]
    pub involved: Vec<Uuid>,
    /// Votes and spends, in the order cast (and paid).
    #[serde(default)]
    pub casts: Vec<Cast>,
    /// Sudden Surges, in the order bought (paid after the casts).
    #[serde(default)]
    pub surges: Vec<Surge>,
    /// The sides tied now (phase `tied`).
    #[serde(default)]
    pub tied: Vec<usize>,
    #[serde(default)]
    pub tiebreaks: Vec<TieRoll>,
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// The table's dice: step dice, or the D6 variant (written only then).
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    pub variant: Variant,
}

/// How a side's votes add up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tally {
    /// Base chance plus Aptitude steps.
    pub base: u32,
    /// The laws' net votes as cast.
    pub laws_cast: i32,
    /// Held to ±2.
    pub laws: i32,
    pub influence: u32,
    pub fortunes_favor: u32,
    pub traits: i32,
    /// Votes the table counted elsewhere ([`Cast::Counted`]).
    #[serde(default)]
    pub counted: u32,
    /// Victory Narration votes.
    #[serde(default)]
    pub narration: u32,
    /// Ill Fated votes (adversity debt paid off).
    #[serde(default)]
    pub ill_fated: u32,
    /// Discovered details' extra votes.
    #[serde(default)]
    pub discover: u32,
    pub total: i32,
    pub perks: u32,
    /// The votes that become dice: the total (at least 0) less the perks.
    pub dice_votes: u32,
}

/// The players and elements a move changed (each once, as they are after it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Changes {
    pub players: Vec<Player>,
    pub elements: Vec<Element>,
    /// The table's Victory Narration votes left, when the check spent some.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_votes: Option<Vec<VictoryVotes>>,
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum CheckEvent {
    Started {
        check: Uuid,
        dropped: Vec<usize>,
    },
    NoCheckNeeded {
        check: Uuid,
        winner: usize,
        dropped: Vec<usize>,
    },
    Cast {
        check: Uuid,
        index: usize,
        cast: Cast,
    },
    PerkBought {
        check: Uuid,
        side: usize,
        perk: ScopePerk,
        votes_left: u32,
    },
    Rolled {
        check: Uuid,
        side: usize,
        roll: SideRoll,
    },
    Surged {
        check: Uuid,
        side: usize,
        element: Uuid,
        surges: u32,
    },
    /// D6 variant: a side's owner chose to burst (`reroll`) or keep the first roll.
    BurstChosen {
        check: Uuid,
        side: usize,
        reroll: Option<u8>,
        score: u32,
    },
    Resolved {
        check: Uuid,
        scores: Vec<Option<u32>>,
        winner: Option<usize>,
        tied: Vec<usize>,
    },
    TieRolled {
        check: Uuid,
        roll: TieRoll,
        winner: Option<usize>,
    },
    Compromise {
        check: Uuid,
        sides: Vec<usize>,
        text: String,
    },
    /// A player or element changed (an award, a spend).
    Element {
        change: ElementEvent,
    },
}

impl ActionCheck {
    fn side(&self, field: &str, side: usize) -> Result<&CheckSide> {
        let s = self.sides.get(side).ok_or_else(|| Error::invalid(field, format!("there is no side {side}")))?;
        if s.dropped {
            return Err(Error::invalid(field, format!("side {side} is negligible: it takes no part")));
        }
        Ok(s)
    }

    /// The side of `element`'s action.
    pub fn side_of(&self, element: Uuid) -> Option<usize> {
        self.sides.iter().position(|s| s.kind.element() == Some(element))
    }

    /// Elements taking part: the actors, then the involved.
    pub fn participants(&self) -> Vec<Uuid> {
        self.sides.iter().filter_map(|s| s.kind.element()).chain(self.involved.iter().copied()).collect()
    }

    fn overcome(&self, element: Uuid) -> Vec<Uuid> {
        self.casts
            .iter()
            .filter_map(|c| match c {
                Cast::OvercomeFlaw { element: e, flaw, .. } if *e == element => Some(*flaw),
                _ => None,
            })
            .collect()
    }

    /// How `side`'s votes add up now.
    pub fn tally(&self, side: usize) -> Tally {
        let Some(s) = self.sides.get(side) else { return Tally::default() };
        let (mut laws_cast, mut influence, mut fortunes_favor, mut traits) = (0i64, 0u64, 0u64, 0i64);
        let (mut counted, mut narration, mut ill_fated, mut discover) = (0u64, 0u64, 0u64, 0u64);
        for cast in &self.casts {
            match cast {
                Cast::Law { side: on, direction, .. } if *on == side => {
                    laws_cast += if *direction == Direction::For { 1 } else { -1 };
                }
                Cast::Influence { side: on, points, .. } if *on == side => influence += u64::from(*points),
                Cast::FortunesFavor { element, .. } if s.kind.element() == Some(*element) => fortunes_favor += 1,
                Cast::Trait { side: on, votes, .. } if *on == side => traits += i64::from(*votes),
                Cast::Counted { side: on, votes } if *on == side => counted += u64::from(*votes),
                Cast::Narration { side: on, votes, .. } if *on == side => narration += u64::from(*votes),
                Cast::IllFated { side: on, points, .. } if *on == side => ill_fated += u64::from(*points),
                Cast::Discover { side: on, .. } if *on == side => discover += 1,
                _ => {}
            }
        }
        let base = u64::from(s.chance.votes()) + u64::from(s.aptitude);
        let laws = laws_cast.clamp(-i64::from(LAW_LIMIT), i64::from(LAW_LIMIT));
        let sourced = (narration + ill_fated + discover) as i64;
        let total = base as i64 + laws + influence as i64 + fortunes_favor as i64 + traits + counted as i64 + sourced;
        let perks = s.perks.len() as u64;
        let dice_votes = (total.max(0) as u64).saturating_sub(perks);
        let small = |n: i64| n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        Tally {
            base: base.min(u64::from(u32::MAX)) as u32,
            laws_cast: small(laws_cast),
            laws: small(laws),
            influence: influence.min(u64::from(u32::MAX)) as u32,
            fortunes_favor: fortunes_favor as u32,
            traits: small(traits),
            counted: counted.min(u64::from(u32::MAX)) as u32,
            narration: narration.min(u64::from(u32::MAX)) as u32,
            ill_fated: ill_fated.min(u64::from(u32::MAX)) as u32,
            discover: discover.min(u64::from(u32::MAX)) as u32,
            total: small(total),
            perks: perks as u32,
            dice_votes: dice_votes.min(u64::from(u32::MAX)) as u32,
        }
    }

    /// Sudden Surges bought for `side`.
    pub fn surges_for(&self, side: usize) -> u32 {
        let element = self.sides.get(side).and_then(|s| s.kind.element());
        self.surges.iter().filter(|s| Some(s.element) == element).count() as u32
    }

    /// Each side's score once resolved (None for a negligible side).
    pub fn scores(&self) -> Vec<Option<u32>> {
        self.sides.iter().map(|s| s.score).collect()
    }

    /// The side that took effect, if one did.
    pub fn winner(&self) -> Option<usize> {
        match self.outcome {
            Some(Outcome::NoCheckNeeded { winner } | Outcome::Won { winner, .. }) => Some(winner),
            _ => None,
        }
    }

    /// Whether `element`'s action took effect: None until one side did.
    pub fn succeeded(&self, element: Uuid) -> Option<bool> {
        self.winner().map(|w| self.sides[w].kind.element() == Some(element))
    }
}

fn find<'a>(elements: &'a [Element], field: &str, id: Uuid) -> Result<&'a Element> {
    elements
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| Error::invalid(field, format!("element {id} is not at the table")))
}

/// Opens a check with the step dice (see the module's step 1). Returns the check — already
/// `done` when no check is needed — and the elements given their first-check edge slots.
pub fn start(setup: &CheckSetup, elements: &[Element]) -> Result<(ActionCheck, Changes, Vec<CheckEvent>)> {
    start_with(setup, Variant::Steps, elements)
}

/// Opens a check rolled with `variant`'s dice (the table's), as [`start`] does.
pub fn start_with(
    setup: &CheckSetup,
    variant: Variant,
    elements: &[Element],
) -> Result<(ActionCheck, Changes, Vec<CheckEvent>)> {
    let description = clean_text("description", &setup.description)?;
    if !(2..=MAX_SIDES).contains(&setup.sides.len()) {
        return Err(Error::invalid("sides", format!("a check has 2 to {MAX_SIDES} sides, not {}", setup.sides.len())));
    }
    let mut sides = Vec::with_capacity(setup.sides.len());
    let mut actors: Vec<Uuid> = Vec::new();
    let mut failures = 0;
    for (i, s) in setup.sides.iter().enumerate() {
        match s.kind {
            SideKind::Action { element } => {
                find(elements, &format!("sides[{i}].kind.element"), element)?;
                if actors.contains(&element) {
                    return Err(Error::invalid(format!("sides[{i}].kind.element"), "an element acts on one side only"));
                }
                actors.push(element);
            }
            SideKind::Failure => failures += 1,
        }
        if s.aptitude > MAX_VOTES {
            return Err(Error::invalid(format!("sides[{i}].aptitude"), format!("at most {MAX_VOTES}")));
        }
        sides.push(CheckSide {
            kind: s.kind,
            description: clean_text(&format!("sides[{i}].description"), &s.description)?,
            chance: s.chance,
            aptitude: s.aptitude,
            dropped: s.chance == BaseChance::Negligible && s.aptitude == 0,
            perks: Vec::new(),
            roll: None,
            score: None,
            specialty_minus: false,
        });
    }
    if actors.is_empty() {
        return Err(Error::invalid("sides", "a check has at least one action"));
    }
    if failures > 1 {
        return Err(Error::invalid("sides", "a check has one failure side at most"));
    }
    if actors.len() == 1 && failures == 0 {
        return Err(Error::invalid("sides", "an action check needs a way to fail: add a failure side"));
    }
    for (i, &id) in setup.involved.iter().enumerate() {
        find(elements, &format!("involved[{i}]"), id)?;
        if actors.contains(&id) || setup.involved[..i].contains(&id) {
            return Err(Error::invalid(format!("involved[{i}]"), "each element takes part once"));
        }
    }
    let dropped: Vec<usize> = (0..sides.len()).filter(|&i| sides[i].dropped).collect();
    let live: Vec<usize> = (0..sides.len()).filter(|&i| !sides[i].dropped).collect();
    let mut check = ActionCheck {
        id: setup.id,
        description,
        phase: Phase::Votes,
        sides,
        involved: setup.involved.clone(),
        casts: Vec::new(),
        surges: Vec::new(),
        tied: Vec::new(),
        tiebreaks: Vec::new(),
        outcome: None,
        variant,
    };
    match live[..] {
        [] => Err(Error::invalid(
            "sides",
            "every side is negligible: the table agrees the odds (as a conflict) before checking",
        )),
        [winner] => {
            check.phase = Phase::Done;
            check.outcome = Some(Outcome::NoCheckNeeded { winner });
            Ok((check, Changes::default(), vec![CheckEvent::NoCheckNeeded { check: setup.id, winner, dropped }]))
        }
        _ => {
            let mut changes = Changes::default();
            let mut events = vec![CheckEvent::Started { check: setup.id, dropped }];
            for id in check.participants() {
                let e = find(elements, "elements", id)?;
                if !e.awards.has(SlotAward::FirstActionCheck) {
                    let (awarded, more) = element::award_edge_slots(e, SlotAward::FirstActionCheck)?;
                    changes.elements.push(awarded);
                    events.extend(more.into_iter().map(|change| CheckEvent::Element { change }));
                }
            }
            Ok((check, changes, events))
        }
    }
}

/// Casts a vote or a spend (step 2), checked against the players and elements as they are
/// (spends are paid by [`resolve`]).
pub fn cast(
    check: &ActionCheck,
    new: &Cast,
    players: &[Player],
    elements: &[Element],
    sources: &Sources,
) -> Result<(ActionCheck, Vec<CheckEvent>)> {
    match check.phase {
        Phase::Votes => {}
        Phase::Perks => return Err(Error::invalid("cast", "the voting is closed: a scope perk was bought")),
        _ => return Err(Error::invalid("cast", "the dice are rolled: votes come before")),
    }
    let participants = check.participants();
    let participant = |element: Uuid| -> Result<()> {
        if participants.contains(&element) {
            Ok(())
        } else {
            Err(Error::invalid("element", format!("element {element} takes no part in this check")))
        }
    };
    let player = |id: Uuid| -> Result<&Player> {
        players
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| Error::invalid("player", format!("player {id} is not at the table")))
    };
    let mut new = new.clone();
    if let Cast::FortunesFavor { by, .. } | Cast::OvercomeFlaw { by, .. } | Cast::UnexpectedEdge { by, .. } = &new {
        player(*by).map_err(|_| Error::invalid("by", format!("player {by} is not at the table")))?;
    }
    match &mut new {
        Cast::Law { player: p, side, law, .. } => {
            check.side("side", *side)?;
            player(*p)?;
            // Once per player, each fact once, Inertia only against, the game's laws and
            // Themes: the shared vote model checks them when the casts are paid (below).
            if let Law::Consistency { fact } | Law::Inertia { fact } = law {
                *fact = clean_text("law.fact", fact)?;
                if fact.is_empty() {
                    return Err(Error::invalid("law.fact", "name the fact the law rests on"));
                }
            }
        }
        Cast::Influence { player: p, side, points } => {
            check.side("side", *side)?;
            player(*p)?;
            if *points == 0 {
                return Err(Error::invalid("points", "must be at least 1"));
            }
        }
        Cast::FortunesFavor { element, .. } => {
            let side = check
                .side_of(*element)
                .ok_or_else(|| Error::invalid("element", "Fortune's Favor adds a vote to the element's own action"))?;
            check.side("element", side)?;
        }
        Cast::OvercomeFlaw { element, flaw, .. } => {
            participant(*element)?;
            let e = find(elements, "element", *element)?;
            if !e.trait_by_id(*flaw).is_some_and(|t| t.kind == TraitKind::Flaw) {
                return Err(Error::invalid("flaw", format!("{} has no flaw {flaw}", e.name)));
            }
            if check.overcome(*element).contains(flaw) {
                return Err(Error::invalid("flaw", "this flaw is already overcome in this check"));
            }
        }
        Cast::UnexpectedEdge { element, .. } => participant(*element)?,
        Cast::Trait { side, element, trait_id, votes } => {
            check.side("side", *side)?;
            participant(*element)?;
            let e = find(elements, "element", *element)?;
            if e.trait_by_id(*trait_id).is_none() {
                return Err(Error::invalid("trait_id", format!("{} has no trait {trait_id}", e.name)));
            }
            if *votes == 0 {
                return Err(Error::invalid("votes", "a trait adds or takes away at least one vote"));
            }
            if check.casts.iter().any(|c| matches!(c, Cast::Trait { trait_id: t, .. } if t == trait_id)) {
                return Err(Error::invalid("trait_id", "this trait already counted in this check"));
            }
            // Treacherous Edge: a flaw its owner cannot use; an opponent may use it against them.
            if e.is_treacherous(*trait_id) && check.side_of(*element) == Some(*side) && *votes > 0 {
                let name = e.trait_by_id(*trait_id).map_or("", |t| t.name.as_str());
                return Err(Error::invalid(
                    "trait_id",
                    format!(
                        "{name} has the Treacherous Edge modifier: {} cannot use it, but an opponent may count it against them",
                        e.name
                    ),
                ));
            }
            // The seed: only one Ability can be applied to each action (a side here).
            let ability = |element: Uuid, id: Uuid| {
                elements
                    .iter()
                    .find(|e| e.id == element)
                    .and_then(|e| e.trait_by_id(id))
                    .filter(|t| t.template == Some(element::Template::Ability))
            };
            if ability(*element, *trait_id).is_some() {
                let applied = check.casts.iter().find_map(|c| match c {
                    Cast::Trait { side: s, element: other, trait_id: t, .. } if s == side => ability(*other, *t),
                    _ => None,
                });
                if let Some(other) = applied {
                    return Err(Error::invalid(
                        "trait_id",
                        format!("only one Ability is applied to each action, and {} already is", other.name),
                    ));
                }
            }
        }
        Cast::Narration { side, .. } | Cast::Discover { side, .. } => {
            check.side("side", *side)?;
        }
        Cast::IllFated { element, side, .. } => {
            check.side("side", *side)?;
            participant(*element)?;
            if check.side_of(*element) == Some(*side) {
                let name = find(elements, "element", *element)?.name.clone();
                return Err(Error::invalid(
                    "side",
                    format!("Ill Fated votes go to what hinders or harms {name}, not to its own action"),
                ));
            }
        }
        Cast::Counted { side, votes } => {
            check.side("side", *side)?;
            if *votes == 0 {
                return Err(Error::invalid("votes", "a counted total is at least 1 (leave 0 out)"));
            }
            if check.casts.iter().any(|c| matches!(c, Cast::Counted { side: s, .. } if s == side)) {
                return Err(Error::invalid(
                    "side",
                    format!("side {} already has the total the table counted", *side + 1),
                ));
            }
        }
    }
    let mut next = check.clone();
    next.casts.push(new.clone());
    for side in 0..next.sides.len() {
        if next.tally(side).total > MAX_VOTES as i32 {
            return Err(Error::invalid("cast", format!("a side holds at most {MAX_VOTES} votes")));
        }
    }
    pay(&next, players, elements, sources)?;
    let index = next.casts.len() - 1;
    Ok((next, vec![CheckEvent::Cast { check: check.id, index, cast: new }]))
}

/// Buys a scope perk for `side` with one of its votes (step 3); the voting is closed.
pub fn buy_perk(check: &ActionCheck, side: usize, perk: ScopePerk) -> Result<(ActionCheck, Vec<CheckEvent>)> {
    if !matches!(check.phase, Phase::Votes | Phase::Perks) {
        return Err(Error::invalid("perk", "scope perks are bought before the dice are rolled"));
    }
    let s = check.side("side", side)?;
    if s.perks.contains(&perk) {
        return Err(Error::invalid("perk", format!("side {side} already has {}", perk.word())));
    }
    if let Some(needed) = perk.requires() {
        if !s.perks.contains(&needed) {
            return Err(Error::invalid("perk", format!("{} needs {} first", perk.word(), needed.word())));
        }
    }
    let tally = check.tally(side);
    if tally.dice_votes == 0 {
        return Err(Error::invalid("perk", format!("side {side} has no vote left to spend on a perk")));
    }
    let mut next = check.clone();
    next.phase = Phase::Perks;
    next.sides[side].perks.push(perk);
    let event = CheckEvent::PerkBought { check: check.id, side, perk, votes_left: tally.dice_votes - 1 };
    Ok((next, vec![event]))
}

/// The dice a side will roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDice {
    /// The sides of each die (empty: the side scores 1).
    pub dice: Vec<u8>,
    /// Added to the highest face (Sudden Surges).
    #[serde(default)]
    pub bonus: u32,
    /// Restraints that counted.
    #[serde(default)]
    pub restraints: u32,
    #[serde(default)]
    pub locked_out: bool,
    /// D6 variant: the side's one d6, its multiplier and burst threshold (`dice` is then
    /// `[6]`; no votes: no die, the side scores 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d6: Option<D6Die>,
}

/// `dice` under `restraints` Restraints: each locks out the largest size left (one: no d12,
/// every die capped at d10). None when all five sizes are locked out (the side rolls 1).
pub fn restrained(dice: &[u8], restraints: u32) -> Option<Vec<u8>> {
    let locked = conflict::LADDER.len() as u32;
    if restraints >= locked {
        return None;
    }
    let cap = conflict::LADDER[(locked - 1 - restraints) as usize];
    Some(dice.iter().map(|&d| d.min(cap)).collect())
}

/// The dice each side rolls now (negligible sides: None).
///
/// Ruling for Restraints in the D6 variant (the source states them for step dice): a side
/// first turns its votes into step dice and the Restraints cap them as above; the votes the
/// capped dice are still worth (their steps) buy its d6. So a Restraint wastes exactly the
/// votes it wastes with step dice (one Restraint: 5 votes stay 5, 6 votes count as 5), and
/// with all five sizes locked out the side rolls 1, as with step dice.
pub fn dice(check: &ActionCheck, elements: &[Element]) -> Result<Vec<Option<SideDice>>> {
    let mut all = Vec::with_capacity(check.sides.len());
    for (i, s) in check.sides.iter().enumerate() {
        if s.dropped {
            all.push(None);
            continue;
        }
        let votes = check.tally(i).dice_votes;
        let stepped = conflict::step_dice(votes)
            .map_err(|_| Error::invalid(format!("sides[{i}]"), format!("at most {MAX_VOTES} votes")))?;
        let restraints = match s.kind.element() {
            Some(id) => {
                let e = find(elements, "elements", id)?;
                let overcome = check.overcome(id);
                e.restraints().filter(|r| !overcome.contains(&r.id)).count() as u32
            }
            None => 0,
        };
        let bonus = check.surges_for(i);
        let side = match (restrained(&stepped, restraints), check.variant) {
            (None, _) => SideDice { dice: Vec::new(), bonus, restraints, locked_out: true, d6: None },
            (Some(dice), Variant::Steps) => SideDice { dice, bonus, restraints, locked_out: false, d6: None },
            (Some(capped), Variant::D6) => {
                let die = d6_die(conflict::steps(&capped)?)?;
                let dice = if die.is_some() { vec![6] } else { Vec::new() };
                SideDice { dice, bonus, restraints, locked_out: false, d6: die }
            }
        };
        all.push(Some(side));
    }
    Ok(all)
}

/// Each side's exact chance of taking effect if the dice were rolled now (a negligible side:
/// 0), a tie split evenly among the tied sides. In the D6 variant every owner is assumed to
/// burst exactly when it raises the expected score (RULES.md §3.2, "Odds").
pub fn odds(check: &ActionCheck, elements: &[Element]) -> Result<Vec<Fraction>> {
    if !matches!(check.phase, Phase::Votes | Phase::Perks) {
        return Err(Error::invalid("check", "odds are for a check whose dice are still to be rolled"));
    }
    let planned = dice(check, elements)?;
    let live: Vec<SideDice> = planned.iter().flatten().map(|s| SideDice { bonus: 0, ..s.clone() }).collect();
    let mut chances = chances(&live)?.into_iter();
    Ok(planned.iter().map(|p| p.as_ref().and_then(|_| chances.next()).unwrap_or_else(Fraction::zero)).collect())
}

/// The exact chance that `element`'s action takes effect (see [`odds`]).
pub fn success_odds(check: &ActionCheck, elements: &[Element], element: Uuid) -> Result<Fraction> {
    let side = check
        .side_of(element)
        .ok_or_else(|| Error::invalid("element", format!("element {element} does not act in this check")))?;
    Ok(odds(check, elements)?.swap_remove(side))
}

/// Each side's exact chance of the highest score, when each scores its highest face (1 with
/// no dice; in the D6 variant its d6 with the bursts that pay) plus its bonus, a tie split
/// evenly among the tied sides. The counting is the conflicts' exact engine
/// ([`exact::win_odds`]), so no number of dice is too many.
pub fn chances(sides: &[SideDice]) -> Result<Vec<Fraction>> {
    if sides.len() < 2 {
        return Err(Error::invalid("sides", "at least two sides to compare"));
    }
    let counts = sides
        .iter()
        .enumerate()
        .map(|(i, s)| {
            side_counts(s).map_err(|e| match e {
                Error::Invalid { field, problem } => Error::invalid(format!("sides[{i}].{field}"), problem),
                other => other,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(exact::win_odds(&counts)?.options())
}

/// How a side's equally likely outcomes score, Sudden Surges added.
fn side_counts(s: &SideDice) -> Result<ScoreCounts> {
    let rolled = match s.d6 {
        // d6_die is one-to-one from 1 vote up: these are the votes that bought the die.
        Some(die) => exact::d6_counts(6 * (die.multiplier - 1) + die.threshold)?,
        None => exact::step_counts(&s.dice)?,
    };
    let mut counts = vec![0; s.bonus as usize];
    counts.extend(rolled.counts);
    Ok(ScoreCounts { counts, outcomes: rolled.outcomes })
}

/// Rolls every side's dice (step 4): typed-in dice are used side by side, in order.
pub fn roll(
    check: &ActionCheck,
    elements: &[Element],
    source: &mut (impl DiceSource + ?Sized),
) -> Result<(ActionCheck, Vec<CheckEvent>)> {
    if !matches!(check.phase, Phase::Votes | Phase::Perks) {
        return Err(Error::invalid("check", "the dice are already rolled"));
    }
    let planned = dice(check, elements)?;
    let mut next = check.clone();
    let mut events = Vec::new();
    for (i, p) in planned.into_iter().enumerate() {
        let Some(p) = p else { continue };
        let mut dice = Vec::with_capacity(p.dice.len());
        for (k, &sides) in p.dice.iter().enumerate() {
            dice.push(RolledDie { sides, face: source.roll(sides, &format!("sides[{i}][{k}]"))? });
        }
        let mut highest = dice.iter().map(|d| u32::from(d.face)).max().unwrap_or(1);
        let d6 = match (p.d6, dice.first()) {
            (Some(die), Some(first)) => {
                let d6 = D6SideRoll {
                    multiplier: die.multiplier,
                    threshold: die.threshold,
                    first: first.face,
                    reroll: None,
                    decided: !die.may_burst(first.face),
                };
                highest = d6.score();
                Some(d6)
            }
            _ => None,
        };
        let roll = SideRoll { dice, restraints: p.restraints, locked_out: p.locked_out, highest, d6 };
        events.push(CheckEvent::Rolled { check: check.id, side: i, roll: roll.clone() });
        next.sides[i].roll = Some(roll);
    }
    next.phase = Phase::Rolled;
    Ok((next, events))
}

/// The sides whose owner may still burst (D6 variant): their first roll is within the
/// threshold and they have not chosen.
pub fn open_bursts(check: &ActionCheck) -> Vec<usize> {
    (0..check.sides.len())
        .filter(|&i| check.sides[i].roll.as_ref().and_then(|r| r.d6).is_some_and(D6SideRoll::open))
        .collect()
}

/// The open bursts the app suggests: those that raise the expected score.
pub fn suggested_bursts(check: &ActionCheck) -> Vec<usize> {
    (0..check.sides.len())
        .filter(|&i| check.sides[i].roll.as_ref().and_then(|r| r.d6).is_some_and(D6SideRoll::burst_suggested))
        .collect()
}

/// D6 variant, after the roll: the owner of `side`, having seen its first roll, bursts
/// (`burst`: its multiplier rises by 1 and it rerolls, a die named `sides[i].reroll`) or
/// keeps it. Refused for a side with no choice open.
pub fn choose_burst(
    check: &ActionCheck,
    side: usize,
    burst: bool,
    source: &mut (impl DiceSource + ?Sized),
) -> Result<(ActionCheck, Vec<CheckEvent>)> {
    if check.phase != Phase::Rolled {
        return Err(Error::invalid("check", "a burst is chosen after the roll and before the result"));
    }
    let roll = check.side("side", side)?.roll.as_ref();
    let Some(mut d6) = roll.and_then(|r| r.d6).filter(|d| d.open()) else {
        return Err(Error::invalid("side", format!("side {side} has no burst to choose")));
    };
    if burst {
        d6.reroll = Some(source.roll(6, &format!("sides[{side}].reroll"))?);
    }
    d6.decided = true;
    let mut next = check.clone();
    let roll = next.sides[side].roll.as_mut().expect("checked above");
    if let Some(reroll) = d6.reroll {
        roll.dice.push(RolledDie { sides: 6, face: reroll });
    }
    roll.d6 = Some(d6);
    roll.highest = d6.score();
    let event = CheckEvent::BurstChosen { check: check.id, side, reroll: d6.reroll, score: d6.score() };
    Ok((next, vec![event]))
}

fn bursts_decided(check: &ActionCheck, what: &str) -> Result<()> {
    match open_bursts(check).first() {
        Some(side) => Err(Error::invalid(
            "bursts",
            format!("side {side} may still burst: its owner bursts or keeps the roll before {what}"),
        )),
        None => Ok(()),
    }
}

/// Buys a Sudden Surge after the roll (step 5): +1 to the element's own result.
pub fn surge(
    check: &ActionCheck,
    new: &Surge,
    players: &[Player],
    elements: &[Element],
    sources: &Sources,
) -> Result<(ActionCheck, Vec<CheckEvent>)> {
    if check.phase != Phase::Rolled {
        return Err(Error::invalid("surge", "a Sudden Surge is bought after the roll and before the result"));
    }
    bursts_decided(check, "a Sudden Surge")?;
    let side = check
        .side_of(new.element)
        .ok_or_else(|| Error::invalid("element", "a Sudden Surge adds to the element's own action"))?;
    check.side("element", side)?;
    if !players.iter().any(|p| p.id == new.by) {
        return Err(Error::invalid("by", format!("player {} is not at the table", new.by)));
    }
    let mut next = check.clone();
    next.surges.push(*new);
    pay(&next, players, elements, sources)?;
    let surges = next.surges_for(side);
    Ok((next, vec![CheckEvent::Surged { check: check.id, side, element: new.element, surges }]))
}

/// Pays every cast and surge, in order, on copies of the players and elements: the vote
/// sources a conflict also takes through the shared [`Ledger`] (laws, Victory Narration, Ill
/// Fated, Discover), the adversity spends in cast order, then the Sudden Surges, then
/// influence.
fn pay(
    check: &ActionCheck,
    players: &[Player],
    elements: &[Element],
    sources: &Sources,
) -> Result<(Changes, Vec<ElementEvent>)> {
    let mut ledger = Ledger::new("check", players, elements, sources);
    let spend = |ledger: &mut Ledger<'_>, id: Uuid, what: &AdversitySpend, by: Uuid, debt: bool| -> Result<()> {
        let e = ledger.element("element", id)?;
        let (paid, more) = element::spend_adversity(&e, what, by, debt)?;
        ledger.put_element(paid, more);
        Ok(())
    };
    let mut influence = Vec::new();
    for c in &check.casts {
        match c {
            Cast::Influence { player, points, .. } => influence.push((*player, *points)),
            Cast::FortunesFavor { element, by, allow_debt } => {
                spend(&mut ledger, *element, &AdversitySpend::FortunesFavor, *by, *allow_debt)?;
            }
            Cast::OvercomeFlaw { element, flaw, by, allow_debt } => {
                spend(&mut ledger, *element, &AdversitySpend::OvercomeFlaws { flaw: *flaw }, *by, *allow_debt)?;
            }
            Cast::UnexpectedEdge { element, edge, no_fitting_trait, by, allow_debt } => {
                let what = AdversitySpend::UnexpectedEdge { edge: edge.clone(), no_fitting_trait: *no_fitting_trait };
                spend(&mut ledger, *element, &what, *by, *allow_debt)?;
            }
            Cast::Law { player, law, direction, .. } => {
                ledger.law(*player, law, *direction)?;
            }
            Cast::Narration { element, by, votes, .. } => ledger.narration(*element, *by, *votes)?,
            Cast::IllFated { element, by, points, .. } => ledger.ill_fated(*element, *by, *points)?,
            Cast::Discover { detail, .. } => {
                ledger.discover(detail)?;
            }
            Cast::Trait { .. } | Cast::Counted { .. } => {}
        }
    }
    for s in &check.surges {
        spend(&mut ledger, s.element, &AdversitySpend::SuddenSurge, s.by, s.allow_debt)?;
    }
    for (id, points) in influence {
        let p = ledger.player("player", id)?;
        let (paid, more) = element::spend_influence(&p, points)?;
        ledger.put_player(paid, more);
    }
    let Bill { players, elements, victory_votes, events } = ledger.bill();
    Ok((Changes { players, elements, victory_votes }, events))
}

/// Settles the roll (step 6): pays every spend and compares the scores (highest face plus
/// Sudden Surges, less 1 for a Specialty without a minor perk on a side level with the best
/// of the others: "only well enough for a minor perk"). A tie leaves the check `tied`.
pub fn resolve(
    check: &ActionCheck,
    players: &[Player],
    elements: &[Element],
    sources: &Sources,
) -> Result<(ActionCheck, Changes, Vec<CheckEvent>)> {
    if check.phase != Phase::Rolled {
        return Err(Error::invalid("check", "a check is resolved once its dice are rolled"));
    }
    bursts_decided(check, "the result")?;
    let (changes, paid) = pay(check, players, elements, sources)?;
    let mut next = check.clone();
    for i in 0..next.sides.len() {
        let surges = next.surges_for(i);
        if let Some(roll) = &next.sides[i].roll {
            next.sides[i].score = Some(roll.highest + surges);
        }
    }
    // Specialty: a side that rolled only well enough for a minor perk (level with the best
    // of the others) loses 1 when a Specialty of its with no minor perk was applied to it.
    let rolled = next.scores();
    for i in 0..next.sides.len() {
        let Some(own) = rolled[i] else { continue };
        let best_other = (0..rolled.len()).filter(|&j| j != i).filter_map(|j| rolled[j]).max();
        if best_other == Some(own) && specialty_without_minor(&next, i, elements).is_some() {
            next.sides[i].score = Some(own.saturating_sub(1));
            next.sides[i].specialty_minus = true;
        }
    }
    let top = next.sides.iter().filter_map(|s| s.score).max().unwrap_or(1);
    let best: Vec<usize> = (0..next.sides.len()).filter(|&i| next.sides[i].score == Some(top)).collect();
    let winner = match best[..] {
        [w] => {
            next.phase = Phase::Done;
            next.outcome = Some(Outcome::Won { winner: w, tiebreak: false });
            Some(w)
        }
        _ => {
            next.phase = Phase::Tied;
            next.tied = best.clone();
            None
        }
    };
    let mut events: Vec<CheckEvent> = paid.into_iter().map(|change| CheckEvent::Element { change }).collect();
    events.push(CheckEvent::Resolved { check: check.id, scores: next.scores(), winner, tied: next.tied.clone() });
    Ok((next, changes, events))
}

/// The Specialty without a minor perk among its selections applied to `side` (cast as a
/// trait's votes for it), if one was.
pub fn specialty_without_minor<'a>(check: &ActionCheck, side: usize, elements: &'a [Element]) -> Option<&'a Trait> {
    check.casts.iter().find_map(|c| match c {
        Cast::Trait { side: s, element: e, trait_id, votes } if *s == side && *votes > 0 => elements
            .iter()
            .find(|x| x.id == *e)
            .and_then(|x| x.trait_by_id(*trait_id))
            .filter(|t| element::specialty_lacks_minor_perk(t)),
        _ => None,
    })
}

/// One tiebreak round: a d12 for each tied side (a d6 in the D6 variant); the highest takes
/// effect, those equal on top stay tied.
pub fn break_tie(
    check: &ActionCheck,
    source: &mut (impl DiceSource + ?Sized),
) -> Result<(ActionCheck, Vec<CheckEvent>)> {
    if check.phase != Phase::Tied {
        return Err(Error::invalid("check", "there is no tie to break"));
    }
    let round = conflict::tiebreak_round(&check.tied, check.variant, source)?;
    let roll = TieRoll { sides: round.options.clone(), faces: round.faces.clone() };
    let mut next = check.clone();
    next.tiebreaks.push(roll.clone());
    let winner = match round.outcome {
        conflict::Outcome::Winner(w) => {
            next.phase = Phase::Done;
            next.tied.clear();
            next.outcome = Some(Outcome::Won { winner: w, tiebreak: true });
            Some(w)
        }
        conflict::Outcome::Tie(again) => {
            next.tied = again;
            None
        }
    };
    Ok((next, vec![CheckEvent::TieRolled { check: check.id, roll, winner }]))
}

/// The table settles a tie with a compromise of the tied sides that a majority supports.
pub fn compromise(check: &ActionCheck, text: &str) -> Result<(ActionCheck, Vec<CheckEvent>)> {
    if check.phase != Phase::Tied {
        return Err(Error::invalid("check", "a compromise settles a tie, and there is none"));
    }
    let text = clean_text("text", text)?;
    if text.is_empty() {
        return Err(Error::invalid("text", "describe the compromise"));
    }
    let mut next = check.clone();
    let sides = std::mem::take(&mut next.tied);
    next.phase = Phase::Done;
    next.outcome = Some(Outcome::Compromise { sides: sides.clone(), text: text.clone() });
    Ok((next, vec![CheckEvent::Compromise { check: check.id, sides, text }]))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::dice::{Entered, Rolled};
    use crate::rules::mezzo::element::{Benefit, ElementKind, Template, Via};
    use crate::rules::odds::Chance;
    use crate::rules::test_support::mezzo::{element, player, ADA, BO, CY, MIRA};
    use crate::rules::test_support::{err, id};

    const WALL: u128 = 11;
    const RIVAL: u128 = 12;
    const CHECK: u128 = 99;

    fn players() -> Vec<Player> {
        vec![player(ADA, "Ada"), player(BO, "Bo"), player(CY, "Cy")]
    }

    /// Mira (a character), the wall she climbs (a location) and her rival.
    fn elements() -> Vec<Element> {
        vec![
            element(MIRA, ElementKind::Character, "Mira"),
            element(WALL, ElementKind::Location, "Wall"),
            element(RIVAL, ElementKind::Character, "Rival"),
        ]
    }

    fn action(element: u128, chance: BaseChance) -> SideSetup {
        SideSetup { kind: SideKind::Action { element: id(element) }, description: String::new(), chance, aptitude: 0 }
    }

    fn failure(chance: BaseChance) -> SideSetup {
        SideSetup { kind: SideKind::Failure, description: "She falls".into(), chance, aptitude: 0 }
    }

    fn setup(sides: Vec<SideSetup>) -> CheckSetup {
        CheckSetup { id: id(CHECK), description: "Mira climbs the wall".into(), sides, involved: vec![id(WALL)] }
    }

    /// A started check (common action against an occasional failure unless given), with
    /// the elements as the start left them.
    fn started(sides: Vec<SideSetup>, elements: &[Element]) -> (ActionCheck, Vec<Element>) {
        let (check, changes, _) = start(&setup(sides), elements).unwrap();
        (check, merge(elements, &changes.elements))
    }

    fn climb() -> (ActionCheck, Vec<Element>) {
        started(vec![action(MIRA, BaseChance::Common), failure(BaseChance::Occasional)], &elements())
    }

    /// `all`, with the ones in `changed` as they are now.
    fn merge<T: Clone + HasId>(all: &[T], changed: &[T]) -> Vec<T> {
        all.iter().map(|x| changed.iter().find(|c| c.key() == x.key()).unwrap_or(x).clone()).collect()
    }

    trait HasId {
        fn key(&self) -> Uuid;
    }
    impl HasId for Element {
        fn key(&self) -> Uuid {
            self.id
        }
    }
    impl HasId for Player {
        fn key(&self) -> Uuid {
            self.id
        }
    }

    fn set(elements: &[Element], who: u128, f: impl Fn(&mut Element)) -> Vec<Element> {
        elements
            .iter()
            .map(|e| {
                let mut e = e.clone();
                if e.id == id(who) {
                    f(&mut e);
                }
                e
            })
            .collect()
    }

    fn el(elements: &[Element], who: u128) -> &Element {
        elements.iter().find(|e| e.id == id(who)).unwrap()
    }

    fn go(check: &ActionCheck, c: Cast, elements: &[Element]) -> ActionCheck {
        cast(check, &c, &players(), elements, &Sources::default()).unwrap_or_else(|e| panic!("{c:?}: {e}")).0
    }

    fn law(player: u128, side: usize, law: Law, direction: Direction) -> Cast {
        Cast::Law { player: id(player), side, law, direction }
    }

    fn rolled(check: &ActionCheck, elements: &[Element], dice: &[u8]) -> ActionCheck {
        let mut source = Entered::new(dice.iter().copied());
        let (next, _) = roll(check, elements, &mut source).unwrap();
        assert_eq!(source.remaining(), 0, "every die was rolled");
        next
    }

    fn faces(check: &ActionCheck, side: usize) -> Vec<(u8, u8)> {
        check.sides[side].roll.as_ref().unwrap().dice.iter().map(|d| (d.sides, d.face)).collect()
    }

    /// Exact fractions as chances, to compare with [`c`].
    fn chs(f: Vec<Fraction>) -> Vec<Chance> {
        f.iter().map(|f| f.chance().unwrap()).collect()
    }

    fn c(count: u64, outcomes: u64) -> Chance {
        Chance::new(count, outcomes)
    }

    // --- the vote sources a conflict takes (DEV-2: one vote model)

    /// What the table recorded: a law of its own, Ada's arc Theme, 3 Victory Narration votes
    /// Mira bought, a detail a Discover perk added.
    fn recorded() -> Sources {
        use crate::rules::mezzo::plot::{CustomLaw, Theme};
        Sources {
            laws: vec![CustomLaw { id: id(70), name: "Law of Heroes".into(), effect: "Heroes win".into() }],
            themes: vec![Theme { by: id(ADA), text: "Trust is earned".into() }],
            victory_votes: vec![VictoryVotes { element: id(MIRA), challenge: id(80), votes: 3 }],
            discoveries: vec!["a hidden ledge".into()],
        }
    }

    fn go_with(check: &ActionCheck, c: Cast, elements: &[Element], sources: &Sources) -> ActionCheck {
        cast(check, &c, &players(), elements, sources).unwrap_or_else(|e| panic!("{c:?}: {e}")).0
    }

    /// seed: "Action checks work as per Resolving Conflicts". A check takes Ill Fated (the
    /// debt is paid off), Victory Narration (the bank is spent), the game's laws and the
    /// arc's Themes like laws (still held to ±2 net), and Discover, with the cost paid when
    /// the check resolves.
    #[test]
    fn a_check_takes_every_vote_source_a_conflict_takes_and_pays_for_them() {
        let src = recorded();
        let (check, els) = climb();
        let els = set(&els, MIRA, |m| m.adversity_debt = 3);
        // Mira's debt pays for votes against her own action: the failure hinders her.
        let ill = Cast::IllFated { element: id(MIRA), by: id(ADA), side: 1, points: 2 };
        let check = go_with(&check, ill, &els, &src);
        assert_eq!(check.tally(1).ill_fated, 2);
        let own = Cast::IllFated { element: id(MIRA), by: id(ADA), side: 0, points: 1 };
        assert_eq!(
            err(cast(&check, &own, &players(), &els, &src)),
            "side: Ill Fated votes go to what hinders or harms Mira, not to its own action"
        );
        let too_much = Cast::IllFated { element: id(MIRA), by: id(ADA), side: 1, points: 2 };
        assert_eq!(err(cast(&check, &too_much, &players(), &els, &src)), "points: Mira owes 1 adversity debt, not 2");
        // Narration: Mira's victory votes, spent by anyone (she is unclaimed), at most 3.
        let check = go_with(&check, Cast::Narration { element: id(MIRA), by: id(BO), side: 0, votes: 2 }, &els, &src);
        let more = Cast::Narration { element: id(MIRA), by: id(BO), side: 0, votes: 2 };
        assert_eq!(
            err(cast(&check, &more, &players(), &els, &src)),
            "votes: Mira holds 1 Victory Narration vote(s) from the table's challenge"
        );
        assert!(err(cast(&check, &more, &players(), &els, &Sources::default())).starts_with("votes: Mira holds 0"));
        // Discover: the detail's extra vote, once.
        let found = Cast::Discover { detail: " A hidden LEDGE ".into(), side: 0 };
        let check = go_with(&check, found.clone(), &els, &src);
        assert_eq!(
            err(cast(&check, &found, &players(), &els, &src)),
            "detail: “A hidden LEDGE” already has its extra vote"
        );
        let unknown = Cast::Discover { detail: "a rope".into(), side: 0 };
        assert!(err(cast(&check, &unknown, &players(), &els, &src)).starts_with("detail: no Discover perk"));
        // The game's law and Ada's Theme count like laws: with Cy's Potential, 3 for, held to 2.
        let check = go_with(&check, law(ADA, 0, Law::Custom { id: id(70) }, Direction::For), &els, &src);
        let check = go_with(&check, law(BO, 0, Law::Theme { by: id(ADA) }, Direction::For), &els, &src);
        assert_eq!(
            err(cast(&check, &law(CY, 0, Law::Theme { by: id(BO) }, Direction::For), &players(), &els, &src)),
            "law.by: set no Theme of this arc"
        );
        assert_eq!(
            err(cast(&check, &law(CY, 0, Law::Custom { id: id(71) }, Direction::For), &players(), &els, &src)),
            "law.id: is not one of this game's Setting Laws"
        );
        let check = go_with(&check, law(CY, 0, Law::Potential, Direction::For), &els, &src);
        let t = check.tally(0);
        assert_eq!((t.laws_cast, t.laws, t.narration, t.discover), (3, 2, 2, 1));
        assert_eq!(t.total, 2 + 2 + 2 + 1, "base, laws held to 2, narration, discover");
        assert_eq!(check.tally(1).total, 1 + 2, "base and Ill Fated");
        // The odds count them: the same as the totals counted by hand.
        let mut by_hand = climb().0;
        by_hand = go(&by_hand, Cast::Counted { side: 0, votes: 5 }, &els);
        by_hand = go(&by_hand, Cast::Counted { side: 1, votes: 2 }, &els);
        assert_eq!(odds(&check, &els).unwrap(), odds(&by_hand, &els).unwrap());
        // Resolved: the debt is paid off and the narration votes are spent.
        let done = rolled(&check, &els, &[12, 3, 2]);
        let (done, changes, events) = resolve(&done, &players(), &els, &src).unwrap();
        assert_eq!(done.winner(), Some(0));
        let mira = changes.elements.iter().find(|e| e.id == id(MIRA)).unwrap();
        assert_eq!(mira.adversity_debt, 1, "2 of 3 paid off");
        assert_eq!(
            changes.victory_votes,
            Some(vec![VictoryVotes { element: id(MIRA), challenge: id(80), votes: 1 }]),
            "2 of 3 narration votes spent"
        );
        assert!(events
            .iter()
            .any(|e| matches!(e, CheckEvent::Element { change: ElementEvent::DebtPaidOff { points: 2, .. } })));
        // Resolving against a table whose bank is spent by then is refused, changing nothing.
        assert!(err(resolve(&rolled(&check, &els, &[12, 3, 2]), &players(), &els, &Sources::default()))
            .starts_with("votes: Mira holds 0"));
    }

    /// A claimed element's narration votes and debt are its claimer's, in a check as in a conflict.
    #[test]
    fn a_claimed_elements_debt_and_narration_are_its_claimers_in_a_check() {
        let src = recorded();
        let (check, els) = climb();
        let els = set(&els, MIRA, |m| {
            m.adversity_debt = 2;
            m.claimed_by = Some(id(ADA));
        });
        let ill = Cast::IllFated { element: id(MIRA), by: id(BO), side: 1, points: 1 };
        assert_eq!(
            err(cast(&check, &ill, &players(), &els, &src)),
            "by: Mira is claimed: its adversity debt is its claimer's"
        );
        let told = Cast::Narration { element: id(MIRA), by: id(BO), side: 0, votes: 1 };
        assert_eq!(
            err(cast(&check, &told, &players(), &els, &src)),
            "by: Mira is claimed: its momentum is its claimer's"
        );
        let stranger = Cast::IllFated { element: id(RIVAL), by: id(ADA), side: 1, points: 1 };
        assert!(err(cast(&check, &stranger, &players(), &els, &src)).contains("takes no part in this check"));
    }

    // --- base chance, no check needed, the award

    #[test]
    fn base_chance_gives_zero_one_or_two_votes() {
        assert_eq!(
            [BaseChance::Negligible, BaseChance::Occasional, BaseChance::Common].map(BaseChance::votes),
            [0, 1, 2]
        );
        let (check, _) = climb();
        assert_eq!(check.phase, Phase::Votes);
        assert_eq!((check.tally(0).total, check.tally(1).total), (2, 1));
    }

    #[test]
    fn a_negligible_side_means_no_check_and_the_other_side_takes_effect() {
        let els = elements();
        let (check, changes, events) =
            start(&setup(vec![action(MIRA, BaseChance::Negligible), failure(BaseChance::Common)]), &els).unwrap();
        assert_eq!((check.phase, check.winner(), check.succeeded(id(MIRA))), (Phase::Done, Some(1), Some(false)));
        assert_eq!(events, vec![CheckEvent::NoCheckNeeded { check: id(CHECK), winner: 1, dropped: vec![0] }]);
        assert!(changes.elements.is_empty(), "no check, no first-check award");

        let (check, _, _) =
            start(&setup(vec![action(MIRA, BaseChance::Common), failure(BaseChance::Negligible)]), &els).unwrap();
        assert_eq!(check.outcome, Some(Outcome::NoCheckNeeded { winner: 0 }));
        assert_eq!(check.succeeded(id(MIRA)), Some(true));
        assert!(err(cast(&check, &law(ADA, 0, Law::Potential, Direction::For), &players(), &els, &Sources::default()))
            .contains("rolled"));

        assert!(err(start(&setup(vec![action(MIRA, BaseChance::Negligible), failure(BaseChance::Negligible)]), &els))
            .starts_with("sides: every side is negligible"));

        // An Aptitude raises a negligible action a step: now it is checked.
        let apt = SideSetup { aptitude: 1, ..action(MIRA, BaseChance::Negligible) };
        let (check, _, _) = start(&setup(vec![apt, failure(BaseChance::Occasional)]), &els).unwrap();
        assert_eq!((check.phase, check.tally(0).base), (Phase::Votes, 1));
    }

    #[test]
    fn every_element_in_its_first_action_check_gets_four_slots_once() {
        let els = elements();
        let (check, changes, events) =
            start(&setup(vec![action(MIRA, BaseChance::Common), failure(BaseChance::Occasional)]), &els).unwrap();
        assert_eq!(check.participants(), vec![id(MIRA), id(WALL)]);
        assert_eq!(
            changes.elements.iter().map(|e| (e.id, e.edge_slots())).collect::<Vec<_>>(),
            [(id(MIRA), 4), (id(WALL), 4)]
        );
        assert_eq!(events.len(), 3);
        let els = merge(&els, &changes.elements);
        let (_, changes, _) =
            start(&setup(vec![action(MIRA, BaseChance::Common), failure(BaseChance::Occasional)]), &els).unwrap();
        assert!(changes.elements.is_empty(), "only the first check gives slots");
    }

    /// RULES §3.4: an element introduced with its slots has had the award, so its first
    /// check gives no more; only an element from before the decision still gets them there.
    #[test]
    fn an_introduced_element_gets_nothing_more_at_its_first_check() {
        let els = set(&elements(), MIRA, |e| *e = element::introduce(e).0);
        assert_eq!(el(&els, MIRA).edge_slots(), 4, "granted when she was introduced");
        let (_, changes, _) =
            start(&setup(vec![action(MIRA, BaseChance::Common), failure(BaseChance::Occasional)]), &els).unwrap();
        assert_eq!(
            changes.elements.iter().map(|e| (e.id, e.edge_slots())).collect::<Vec<_>>(),
            [(id(WALL), 4)],
            "only the wall, made without them, gets its slots at the check"
        );
    }

    #[test]
    fn a_check_needs_a_way_to_fail_and_each_element_once() {
        let els = elements();
        assert_eq!(
            err(start(&setup(vec![action(MIRA, BaseChance::Common), action(MIRA, BaseChance::Common)]), &els)),
            "sides[1].kind.element: an element acts on one side only"
        );
        let lone = CheckSetup { sides: vec![action(MIRA, BaseChance::Common)], ..setup(vec![]) };
        assert_eq!(err(start(&lone, &els)), "sides: a check has 2 to 32 sides, not 1");
        let no_failure = vec![action(MIRA, BaseChance::Common), action(WALL, BaseChance::Common)];
        assert!(start(&CheckSetup { involved: vec![], ..setup(no_failure) }, &els).is_ok(), "contested actions");
        let two_failures =
            vec![action(MIRA, BaseChance::Common), failure(BaseChance::Common), failure(BaseChance::Common)];
        assert_eq!(err(start(&setup(two_failures), &els)), "sides: a check has one failure side at most");
        let only_failures =
            CheckSetup { sides: vec![failure(BaseChance::Common), failure(BaseChance::Common)], ..setup(vec![]) };
        assert_eq!(err(start(&only_failures, &els)), "sides: a check has at least one action");
        let mut missing = setup(vec![action(MIRA, BaseChance::Common), failure(BaseChance::Common)]);
        missing.involved = vec![id(77)];
        assert!(err(start(&missing, &els)).starts_with("involved[0]: element"));
        let single = CheckSetup {
            sides: vec![action(MIRA, BaseChance::Common), action(RIVAL, BaseChance::Common)],
            involved: vec![id(MIRA)],
            ..setup(vec![])
        };
        assert_eq!(err(start(&single, &els)), "involved[0]: each element takes part once");
    }

    // --- votes

    #[test]
    fn laws_net_effect_is_held_to_two_each_player_invoking_once() {
        // The source's example: four laws for the action, one against: +2, not +3.
        let (check, els) = climb();
        let mut check = check;
        let players4 = {
            let mut p = players();
            p.push(player(4, "Di"));
            p.push(player(5, "Ed"));
            p
        };
        let casts = [
            law(ADA, 0, Law::Consistency { fact: "She climbs daily".into() }, Direction::For),
            law(BO, 0, Law::Consistency { fact: "Her boots are new".into() }, Direction::For),
            law(CY, 0, Law::Potential, Direction::For),
            law(4, 0, Law::Consistency { fact: "The wall is old".into() }, Direction::For),
            law(5, 0, Law::Inertia { fact: "Nobody has ever climbed it".into() }, Direction::Against),
        ];
        for c in casts {
            check = cast(&check, &c, &players4, &els, &Sources::default()).unwrap().0;
        }
        let t = check.tally(0);
        assert_eq!((t.base, t.laws_cast, t.laws, t.total), (2, 3, 2, 4));
        // Against a side the limit is −2.
        let (mut down, _) = climb();
        for (p, f) in [(ADA, "a"), (BO, "b"), (CY, "c")] {
            down = go(&down, law(p, 1, Law::Inertia { fact: f.into() }, Direction::Against), &els);
        }
        assert_eq!(
            (down.tally(1).laws_cast, down.tally(1).laws, down.tally(1).total, down.tally(1).dice_votes),
            (-3, -2, -1, 0)
        );
    }

    #[test]
    fn law_invocations_keep_their_rules() {
        let (check, els) = climb();
        let check = go(&check, law(ADA, 0, Law::Consistency { fact: "The rope holds".into() }, Direction::For), &els);
        assert_eq!(
            err(cast(&check, &law(ADA, 1, Law::Potential, Direction::Against), &players(), &els, &Sources::default())),
            "law: Ada already invoked a law in this check"
        );
        assert_eq!(
            err(cast(
                &check,
                &law(BO, 1, Law::Consistency { fact: " the rope HOLDS ".into() }, Direction::Against),
                &players(),
                &els,
                &Sources::default()
            )),
            "law.fact: “the rope HOLDS” serves once per check"
        );
        assert_eq!(
            err(cast(
                &check,
                &law(BO, 1, Law::Inertia { fact: "x".into() }, Direction::For),
                &players(),
                &els,
                &Sources::default()
            )),
            "direction: the Law of Inertia only takes a vote away"
        );
        assert!(err(cast(&check, &law(77, 1, Law::Potential, Direction::For), &players(), &els, &Sources::default()))
            .starts_with("player: player"));
        assert_eq!(
            err(cast(&check, &law(BO, 5, Law::Potential, Direction::For), &players(), &els, &Sources::default())),
            "side: there is no side 5"
        );
    }

    #[test]
    fn influence_adds_a_vote_a_point_and_is_paid_when_the_check_resolves() {
        let (check, els) = climb();
        let check = go(&check, Cast::Influence { player: id(ADA), side: 0, points: 2 }, &els);
        assert_eq!(check.tally(0).total, 4);
        assert_eq!(
            err(cast(
                &check,
                &Cast::Influence { player: id(ADA), side: 1, points: 2 },
                &players(),
                &els,
                &Sources::default()
            )),
            "points: Ada holds 1 influence, not 2"
        );
        let check = go(&check, Cast::Influence { player: id(ADA), side: 1, points: 1 }, &els);
        assert_eq!(check.tally(1).total, 2);
        let check = rolled(&check, &els, &[3, 5]); // action d10 (4 votes), failure d6 (2 votes)
        assert_eq!((faces(&check, 0), faces(&check, 1)), (vec![(10, 3)], vec![(6, 5)]));
        let (done, changes, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!(done.winner(), Some(1));
        assert_eq!(done.scores(), vec![Some(3), Some(5)]);
        assert_eq!(changes.players.len(), 1);
        assert_eq!(changes.players[0].influence, 0, "3 points spent");
    }

    /// Regression guard for totals entered per side: the counted votes land on their side
    /// (beyond the base chance), give the same odds as the same votes cast here, pay nothing,
    /// and are refused at 0, twice for a side, or on a side that is not there.
    #[test]
    fn totals_counted_at_the_table_add_to_their_side_and_pay_nothing() {
        let (check, els) = climb();
        let counted = go(&check, Cast::Counted { side: 0, votes: 2 }, &els);
        assert_eq!((counted.tally(0).counted, counted.tally(0).total, counted.tally(1).total), (2, 4, 1));
        let cast_here = go(&check, Cast::Influence { player: id(ADA), side: 0, points: 2 }, &els);
        assert_eq!(chs(odds(&counted, &els).unwrap()), chs(odds(&cast_here, &els).unwrap()));
        let rolled_check = rolled(&counted, &els, &[3, 4]); // action d10 (4 votes), failure d4 (1 vote)
        let (done, changes, _) = resolve(&rolled_check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!(done.winner(), Some(1));
        assert!(changes.players.is_empty(), "nobody pays for votes cast elsewhere");
        assert_eq!(
            err(cast(&check, &Cast::Counted { side: 1, votes: 0 }, &players(), &els, &Sources::default())),
            "votes: a counted total is at least 1 (leave 0 out)"
        );
        assert_eq!(
            err(cast(&counted, &Cast::Counted { side: 0, votes: 1 }, &players(), &els, &Sources::default())),
            "side: side 1 already has the total the table counted"
        );
        assert_eq!(
            err(cast(&check, &Cast::Counted { side: 2, votes: 1 }, &players(), &els, &Sources::default())),
            "side: there is no side 2"
        );
    }

    #[test]
    fn fortunes_favor_is_a_vote_for_the_elements_own_action_paid_in_adversity_or_debt() {
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| e.adversity = 3);
        let ff = |by: u128, debt: bool| Cast::FortunesFavor { element: id(MIRA), by: id(by), allow_debt: debt };
        let check = go(&check, ff(ADA, false), &els);
        assert_eq!(check.tally(0).fortunes_favor, 1);
        assert_eq!(check.tally(0).total, 3);
        // A second one needs 4 of Mira's 3: the last point as debt, if agreed.
        assert!(err(cast(&check, &ff(ADA, false), &players(), &els, &Sources::default()))
            .contains("may be taken as adversity debt"));
        let check = go(&check, ff(BO, true), &els);
        assert_eq!(check.tally(0).total, 4);
        assert!(err(cast(&check, &ff(ADA, true), &players(), &els, &Sources::default()))
            .contains("at least 1 adversity is held"));
        // Not for an element that is not acting.
        let wall = Cast::FortunesFavor { element: id(WALL), by: id(ADA), allow_debt: false };
        assert_eq!(
            err(cast(&check, &wall, &players(), &els, &Sources::default())),
            "element: Fortune's Favor adds a vote to the element's own action"
        );
        let check = rolled(&check, &els, &[9, 1]);
        let (_, changes, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        let mira = &changes.elements[0];
        assert_eq!((mira.adversity, mira.adversity_debt), (0, 1));
    }

    #[test]
    fn a_claimed_characters_adversity_is_spent_by_its_claimer_only() {
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| {
            e.adversity = 4;
            e.claimed_by = Some(id(ADA));
        });
        let by_bo = Cast::FortunesFavor { element: id(MIRA), by: id(BO), allow_debt: false };
        assert!(err(cast(&check, &by_bo, &players(), &els, &Sources::default()))
            .starts_with("by: Mira is claimed by another player"));
        let stranger = Cast::FortunesFavor { element: id(MIRA), by: id(77), allow_debt: false };
        assert!(err(cast(&check, &stranger, &players(), &els, &Sources::default())).starts_with("by: player"));
    }

    /// The seed: only one Ability can be applied to each action; another side may use one.
    #[test]
    fn one_ability_is_applied_to_each_action() {
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| {
            e.traits.push(Trait::from_template(id(40), Template::Ability, "Climbing", Via::Granted));
            e.traits.push(Trait::from_template(id(41), Template::Ability, "Acrobatics", Via::Granted));
            e.traits.push(Trait::new(id(42), TraitKind::Edge, "Strong grip", Via::Granted));
        });
        let check = go(&check, Cast::Trait { side: 0, element: id(MIRA), trait_id: id(40), votes: 1 }, &els);
        let second = Cast::Trait { side: 0, element: id(MIRA), trait_id: id(41), votes: 1 };
        assert_eq!(
            err(cast(&check, &second, &players(), &els, &Sources::default())),
            "trait_id: only one Ability is applied to each action, and Climbing already is"
        );
        let check = go(&check, Cast::Trait { side: 0, element: id(MIRA), trait_id: id(42), votes: 1 }, &els);
        let check = go(&check, Cast::Trait { side: 1, element: id(MIRA), trait_id: id(41), votes: -1 }, &els);
        assert_eq!(check.tally(0).total, 4, "2 base, an Ability and another edge");
    }

    /// The seed's Specialty: rolling only well enough for a minor perk with no minor perk
    /// among the Specialty's selections reduces the number rolled by 1; a minor perk among
    /// them, a clear win, or a Specialty not applied change nothing.
    #[test]
    fn a_specialty_without_a_minor_perk_loses_one_on_a_level_roll() {
        let (check, els) = climb();
        let specialty = |n: u128, set_up: &str| {
            let mut t = Trait::from_template(id(n), Template::Specialty, "Duelling", Via::Granted).on(id(50));
            t.properties.set_up = set_up.into();
            t
        };
        let els = set(&els, MIRA, |e| {
            e.traits.push(Trait::from_template(id(50), Template::Ability, "Fencing", Via::Granted));
            e.traits.push(specialty(51, "Damage, Push"));
            e.traits.push(specialty(52, "Damage and hinder"));
        });
        assert!(element::specialty_lacks_minor_perk(&el(&els, MIRA).traits[1]));
        assert!(!element::specialty_lacks_minor_perk(&el(&els, MIRA).traits[2]), "Hinder is a minor perk");
        // Two votes and the Specialty's: a d8 against the failure's d4; both show 4.
        let majors = go(&check, Cast::Trait { side: 0, element: id(MIRA), trait_id: id(51), votes: 1 }, &els);
        let (done, _, _) = resolve(&rolled(&majors, &els, &[4, 4]), &players(), &els, &Sources::default()).unwrap();
        assert_eq!(done.scores(), vec![Some(3), Some(4)]);
        assert!(done.sides[0].specialty_minus && !done.sides[1].specialty_minus);
        assert_eq!(done.winner(), Some(1), "the failure takes effect");
        // A clear win is not touched.
        let (won, _, _) = resolve(&rolled(&majors, &els, &[5, 4]), &players(), &els, &Sources::default()).unwrap();
        assert_eq!((won.scores(), won.sides[0].specialty_minus), (vec![Some(5), Some(4)], false));
        // With a minor perk among its selections, the level roll stays a tie.
        let minor = go(&check, Cast::Trait { side: 0, element: id(MIRA), trait_id: id(52), votes: 1 }, &els);
        let (tied, _, _) = resolve(&rolled(&minor, &els, &[4, 4]), &players(), &els, &Sources::default()).unwrap();
        assert_eq!((tied.phase, tied.scores()), (Phase::Tied, vec![Some(4), Some(4)]));
        // Not applied: nothing.
        let none = go(&check, Cast::Influence { player: id(ADA), side: 0, points: 1 }, &els);
        let (tied, _, _) = resolve(&rolled(&none, &els, &[4, 4]), &players(), &els, &Sources::default()).unwrap();
        assert_eq!(tied.phase, Phase::Tied);
    }

    /// Treacherous Edge: the owner cannot count the edge for its own action; an opponent may
    /// count it against them (a vote taken away, or a vote for the other side).
    #[test]
    fn a_treacherous_edge_is_refused_to_its_owner_and_open_to_an_opponent() {
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| {
            e.traits.push(Trait::new(id(60), TraitKind::Edge, "Silver tongue", Via::Granted));
            e.traits
                .push(Trait::from_template(id(61), Template::TreacherousEdge, "Treacherous", Via::Granted).on(id(60)));
        });
        let own = Cast::Trait { side: 0, element: id(MIRA), trait_id: id(60), votes: 1 };
        assert_eq!(
            err(cast(&check, &own, &players(), &els, &Sources::default())),
            "trait_id: Silver tongue has the Treacherous Edge modifier: Mira cannot use it, but an opponent may count it against them"
        );
        let against = go(&check, Cast::Trait { side: 0, element: id(MIRA), trait_id: id(60), votes: -1 }, &els);
        assert_eq!(against.tally(0).total, 1);
        let other = go(&check, Cast::Trait { side: 1, element: id(MIRA), trait_id: id(60), votes: 1 }, &els);
        assert_eq!(other.tally(1).total, 2);
        assert!(element::use_trait(el(&els, MIRA), id(60)).unwrap_err().to_string().contains("Mira cannot use it"));
    }

    #[test]
    fn trait_votes_count_once_and_overcome_restraints_lift_their_lock() {
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| {
            e.adversity = 2;
            e.traits.push(Trait::from_template(id(30), Template::Restraint, "Tangled", Via::Granted));
            e.traits.push(Trait::new(id(31), TraitKind::Edge, "Climber", Via::Granted));
        });
        let check = go(&check, Cast::Trait { side: 0, element: id(MIRA), trait_id: id(31), votes: 3 }, &els);
        assert_eq!(check.tally(0).total, 5);
        assert_eq!(
            err(cast(
                &check,
                &Cast::Trait { side: 1, element: id(MIRA), trait_id: id(31), votes: 1 },
                &players(),
                &els,
                &Sources::default()
            )),
            "trait_id: this trait already counted in this check"
        );
        // 5 votes would be a d12; the restraint caps it at d10.
        let planned = dice(&check, &els).unwrap();
        assert_eq!(planned[0].as_ref().map(|p| (p.dice.clone(), p.restraints)), Some((vec![10], 1)));
        let over =
            go(&check, Cast::OvercomeFlaw { element: id(MIRA), flaw: id(30), by: id(ADA), allow_debt: false }, &els);
        assert_eq!(dice(&over, &els).unwrap()[0].as_ref().map(|p| p.dice.clone()), Some(vec![12]));
        assert_eq!(
            err(cast(
                &over,
                &Cast::OvercomeFlaw { element: id(MIRA), flaw: id(31), by: id(ADA), allow_debt: true },
                &players(),
                &els,
                &Sources::default()
            )),
            "flaw: Mira has no flaw 00000000-0000-0000-0000-00000000001f"
        );
    }

    #[test]
    fn restraints_lock_out_the_largest_dice_and_all_five_roll_one() {
        assert_eq!(restrained(&[12, 8], 0), Some(vec![12, 8]));
        assert_eq!(restrained(&[12, 8], 1), Some(vec![10, 8]));
        assert_eq!(restrained(&[12, 12, 4], 2), Some(vec![8, 8, 4]));
        assert_eq!(restrained(&[12, 6], 4), Some(vec![4, 4]));
        assert_eq!(restrained(&[12, 6], 5), None);
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| {
            for n in 0..5 {
                e.traits.push(Trait::from_template(id(40 + n), Template::Restraint, "Bound", Via::Granted));
            }
        });
        let check = rolled(&check, &els, &[4]); // only the failure's d4 is rolled
        let roll = check.sides[0].roll.clone().unwrap();
        assert_eq!((roll.locked_out, roll.highest, roll.dice.len()), (true, 1, 0));
        let (done, _, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!(done.succeeded(id(MIRA)), Some(false));
    }

    #[test]
    fn an_unexpected_edge_is_bought_in_a_challenge_and_added_without_a_slot() {
        let (check, els) = climb();
        let edge = Box::new(Trait::new(id(50), TraitKind::Edge, "Desperate grip", Via::Granted));
        let buy = |fits| Cast::UnexpectedEdge {
            element: id(MIRA),
            edge: edge.clone(),
            no_fitting_trait: fits,
            by: id(ADA),
            allow_debt: false,
        };
        let els = set(&els, MIRA, |e| e.adversity = 5);
        assert_eq!(
            err(cast(&check, &buy(true), &players(), &els, &Sources::default())),
            "spend: an unexpected edge is bought only in a challenge"
        );
        let els = set(&els, MIRA, |e| e.in_challenge = true);
        assert!(err(cast(&check, &buy(false), &players(), &els, &Sources::default())).starts_with("no_fitting_trait"));
        let check = go(&check, buy(true), &els);
        let check = rolled(&check, &els, &[6, 1]);
        let (_, changes, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        let mira = &changes.elements[0];
        assert_eq!((mira.adversity, mira.traits[0].via, mira.free_slots()), (0, Via::UnexpectedEdge, 4));
    }

    // --- perks

    #[test]
    fn scope_perks_cost_a_vote_each_and_need_the_step_before() {
        let (check, els) = climb();
        let check = go(&check, Cast::Influence { player: id(ADA), side: 0, points: 2 }, &els);
        assert_eq!(
            err(buy_perk(&check, 0, ScopePerk::LocalCoverage)),
            "perk: Local Coverage needs Extended Coverage first"
        );
        let (check, events) = buy_perk(&check, 0, ScopePerk::ExtendedCoverage).unwrap();
        assert_eq!(
            events,
            vec![CheckEvent::PerkBought {
                check: id(CHECK),
                side: 0,
                perk: ScopePerk::ExtendedCoverage,
                votes_left: 3
            }]
        );
        assert_eq!(check.phase, Phase::Perks);
        assert_eq!(
            err(cast(
                &check,
                &Cast::Influence { player: id(BO), side: 0, points: 1 },
                &players(),
                &els,
                &Sources::default()
            )),
            "cast: the voting is closed: a scope perk was bought"
        );
        let (check, _) = buy_perk(&check, 0, ScopePerk::LocalCoverage).unwrap();
        let (check, _) = buy_perk(&check, 0, ScopePerk::LingeringConsequences).unwrap();
        assert_eq!(err(buy_perk(&check, 0, ScopePerk::LocalCoverage)), "perk: side 0 already has Local Coverage");
        assert_eq!(check.tally(0).dice_votes, 1);
        let (check, _) = buy_perk(&check, 0, ScopePerk::ContagiousConsequences).unwrap();
        assert_eq!(
            err(buy_perk(&check, 0, ScopePerk::RegionalCoverage)),
            "perk: side 0 has no vote left to spend on a perk"
        );
        // The failure side may buy scope too.
        let (check, _) = buy_perk(&check, 1, ScopePerk::ExtendedCoverage).unwrap();
        assert_eq!(
            dice(&check, &els).unwrap().into_iter().flatten().map(|p| p.dice).collect::<Vec<Vec<u8>>>(),
            vec![Vec::<u8>::new(), Vec::new()]
        );
        let check = rolled(&check, &els, &[]);
        assert!(err(buy_perk(&check, 0, ScopePerk::RegionalCoverage)).contains("before the dice"));
    }

    // --- roll, surge, result

    #[test]
    fn the_highest_score_takes_effect_and_the_result_carries_every_die() {
        let (check, els) = climb();
        let (check, events) = roll(&check, &els, &mut Entered::new([5, 3])).unwrap();
        assert_eq!(
            events,
            vec![
                CheckEvent::Rolled {
                    check: id(CHECK),
                    side: 0,
                    roll: SideRoll {
                        dice: vec![RolledDie { sides: 6, face: 5 }],
                        restraints: 0,
                        locked_out: false,
                        highest: 5,
                        d6: None
                    },
                },
                CheckEvent::Rolled {
                    check: id(CHECK),
                    side: 1,
                    roll: SideRoll {
                        dice: vec![RolledDie { sides: 4, face: 3 }],
                        restraints: 0,
                        locked_out: false,
                        highest: 3,
                        d6: None
                    },
                },
            ]
        );
        assert!(err(roll(&check, &els, &mut Entered::new([1, 1]))).contains("already rolled"));
        let (done, changes, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!((done.phase, done.winner(), done.succeeded(id(MIRA))), (Phase::Done, Some(0), Some(true)));
        assert_eq!(done.outcome, Some(Outcome::Won { winner: 0, tiebreak: false }));
        assert!(changes.players.is_empty() && changes.elements.is_empty());
        // Typed-in dice that a die cannot show are refused, naming the die.
        let (fresh, _) = climb();
        assert_eq!(
            err(roll(&fresh, &els, &mut Entered::new([7, 1]))),
            "sides[0][0]: 7 cannot be rolled on a d6 (1 to 6)"
        );
    }

    #[test]
    fn a_sudden_surge_adds_one_after_the_roll() {
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| e.adversity = 4);
        let s = Surge { element: id(MIRA), by: id(ADA), allow_debt: true };
        assert!(err(surge(&check, &s, &players(), &els, &Sources::default())).contains("after the roll"));
        let check = rolled(&check, &els, &[3, 4]);
        let (check, events) = surge(&check, &s, &players(), &els, &Sources::default()).unwrap();
        assert_eq!(events, vec![CheckEvent::Surged { check: id(CHECK), side: 0, element: id(MIRA), surges: 1 }]);
        // 3 + 1 ties 4; a second surge (1 adversity left, 2 as debt) wins.
        let (tied, _, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!((tied.phase, tied.tied.clone(), tied.scores()), (Phase::Tied, vec![0, 1], vec![Some(4), Some(4)]));
        let (check, _) = surge(&check, &s, &players(), &els, &Sources::default()).unwrap();
        let (done, changes, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!((done.winner(), done.scores()), (Some(0), vec![Some(5), Some(4)]));
        assert_eq!((changes.elements[0].adversity, changes.elements[0].adversity_debt), (0, 2));
        let failure_surge = Surge { element: id(WALL), by: id(ADA), allow_debt: false };
        assert!(
            err(surge(&check, &failure_surge, &players(), &els, &Sources::default())).contains("element's own action")
        );
        let no_debt = Surge { allow_debt: false, ..s };
        let (one, _) = surge(&rolled(&climb().0, &els, &[1, 1]), &s, &players(), &els, &Sources::default()).unwrap();
        assert!(err(surge(&one, &no_debt, &players(), &els, &Sources::default())).contains("adversity debt"));
    }

    #[test]
    fn contested_actions_roll_each_side_and_a_tie_goes_to_a_d12_or_a_compromise() {
        let els = elements();
        let sides = vec![action(MIRA, BaseChance::Common), action(RIVAL, BaseChance::Common)];
        let (check, changes, _) = start(&CheckSetup { involved: vec![], ..setup(sides) }, &els).unwrap();
        assert_eq!(changes.elements.len(), 2);
        let check = rolled(&check, &els, &[4, 4]);
        let (tied, _, events) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!(
            events.last(),
            Some(&CheckEvent::Resolved {
                check: id(CHECK),
                scores: vec![Some(4), Some(4)],
                winner: None,
                tied: vec![0, 1]
            })
        );
        let (again, _) = break_tie(&tied, &mut Entered::new([9, 9])).unwrap();
        assert_eq!((again.phase, again.tiebreaks.len()), (Phase::Tied, 1));
        let (done, events) = break_tie(&again, &mut Entered::new([2, 11])).unwrap();
        assert_eq!(done.outcome, Some(Outcome::Won { winner: 1, tiebreak: true }));
        assert_eq!((done.succeeded(id(RIVAL)), done.succeeded(id(MIRA))), (Some(true), Some(false)));
        assert_eq!(
            events,
            vec![CheckEvent::TieRolled {
                check: id(CHECK),
                roll: TieRoll { sides: vec![0, 1], faces: vec![2, 11] },
                winner: Some(1)
            }]
        );
        assert_eq!(err(break_tie(&done, &mut Entered::new([1, 2]))), "check: there is no tie to break");
        let (agreed, _) = compromise(&tied, "Both reach the ledge, one hand each").unwrap();
        assert_eq!(
            agreed.outcome,
            Some(Outcome::Compromise { sides: vec![0, 1], text: "Both reach the ledge, one hand each".into() })
        );
        assert_eq!(agreed.winner(), None);
        assert_eq!(err(compromise(&tied, "  ")), "text: describe the compromise");
    }

    #[test]
    fn a_negligible_failure_drops_out_of_a_contest_and_takes_no_votes() {
        let els = elements();
        let sides = vec![
            action(MIRA, BaseChance::Common),
            action(RIVAL, BaseChance::Occasional),
            failure(BaseChance::Negligible),
        ];
        let (check, _, events) = start(&CheckSetup { involved: vec![], ..setup(sides) }, &els).unwrap();
        assert_eq!(events[0], CheckEvent::Started { check: id(CHECK), dropped: vec![2] });
        assert_eq!(
            err(cast(
                &check,
                &Cast::Influence { player: id(ADA), side: 2, points: 1 },
                &players(),
                &els,
                &Sources::default()
            )),
            "side: side 2 is negligible: it takes no part"
        );
        let odds = chs(odds(&check, &els).unwrap());
        assert_eq!(odds, vec![c(2, 3), c(1, 3), c(0, 1)]);
        let check = rolled(&check, &els, &[2, 3]);
        let (done, _, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!((done.winner(), done.scores()), (Some(1), vec![Some(2), Some(3), None]));
    }

    // --- odds

    #[test]
    fn odds_are_exact_with_ties_split_evenly() {
        // d6 against d4: P(d6 > d4) = 14/24, a tie 4/24 split in two: 2/3.
        let (check, els) = climb();
        assert_eq!(chs(odds(&check, &els).unwrap()), vec![c(2, 3), c(1, 3)]);
        let side =
            |dice: &[u8], bonus| SideDice { dice: dice.to_vec(), bonus, restraints: 0, locked_out: false, d6: None };
        assert_eq!(chs(chances(&[side(&[12], 0), side(&[12], 0)]).unwrap()), vec![c(1, 2), c(1, 2)]);
        // d4, d4 and no dice (always 1): the empty side wins only a three-way tie at 1.
        assert_eq!(
            chs(chances(&[side(&[4], 0), side(&[4], 0), side(&[], 0)]).unwrap()),
            vec![c(47, 96), c(47, 96), c(1, 48)]
        );
        // A d4 with +1 against a d4: 10/16 above, 3/16 tied.
        assert_eq!(chs(chances(&[side(&[4], 1), side(&[4], 0)]).unwrap()), vec![c(23, 32), c(9, 32)]);
        // Two dice: d12 & d4 (6 votes) against a d8: the highest face counts.
        let both = chs(chances(&[side(&[12, 4], 0), side(&[8], 0)]).unwrap());
        assert_eq!(
            both[0].count() * both[1].outcomes() + both[1].count() * both[0].outcomes(),
            both[0].outcomes() * both[1].outcomes()
        );
        // A restraint: 5 votes roll a d10, not a d12, against a d4: 30/40 + 2/40 = 4/5.
        let els =
            set(&els, MIRA, |e| e.traits.push(Trait::from_template(id(30), Template::Restraint, "Net", Via::Granted)));
        let check = go(&check, Cast::Influence { player: id(ADA), side: 0, points: 3 }, &els);
        assert_eq!(chs(odds(&check, &els).unwrap()), vec![c(4, 5), c(1, 5)]);
        let rolled_check = rolled(&check, &els, &[1, 1]);
        assert!(err(odds(&rolled_check, &els)).contains("still to be rolled"));
        assert_eq!(success_odds(&check, &els, id(MIRA)).unwrap().chance().unwrap(), c(4, 5));
        assert!(err(success_odds(&check, &els, id(WALL))).starts_with("element: element"));
    }

    // --- the D6 variant

    /// Mira's common action (2 votes: d6 ×1, may burst on 1–2) against an occasional
    /// failure (1 vote: d6 ×1, may burst on 1), rolled in the D6 variant.
    fn d6_climb() -> (ActionCheck, Vec<Element>) {
        let sides = vec![action(MIRA, BaseChance::Common), failure(BaseChance::Occasional)];
        let (check, changes, _) = start_with(&setup(sides), Variant::D6, &elements()).unwrap();
        (check, merge(&elements(), &changes.elements))
    }

    #[test]
    fn a_d6_check_rolls_one_d6_per_side_and_its_odds_assume_the_bursts_that_pay() {
        let (check, els) = d6_climb();
        let planned = dice(&check, &els).unwrap();
        let die = |p: &Option<SideDice>| p.as_ref().unwrap().d6.unwrap();
        assert_eq!(die(&planned[0]), D6Die { multiplier: 1, threshold: 2 });
        assert_eq!(die(&planned[1]), D6Die { multiplier: 1, threshold: 1 });
        // Counted over every (first roll, reroll) pair, a burst taken whenever it pays.
        assert_eq!(chs(odds(&check, &els).unwrap()), vec![c(65, 108), c(43, 108)]);
        // The same numbers as a conflict of 2 votes against 1 in the D6 variant.
        let conflict = exact::odds(&[2, 1], Variant::D6).unwrap().options();
        assert_eq!(odds(&check, &els).unwrap(), conflict);
        let json = serde_json::to_value(&check).unwrap();
        assert_eq!(json["variant"], "d6");
        assert!(serde_json::to_value(climb().0).unwrap().get("variant").is_none(), "step dice are not written");
    }

    #[test]
    fn the_owner_bursts_or_keeps_after_seeing_the_first_d6() {
        let (check, els) = d6_climb();
        // Mira rolls 2 (within her threshold 2), the failure 5 (above its threshold 1).
        let check = rolled(&check, &els, &[2, 5]);
        assert_eq!((open_bursts(&check), suggested_bursts(&check)), (vec![0], vec![0]));
        assert_eq!(check.sides[0].roll.as_ref().unwrap().highest, 2);
        assert!(
            err(resolve(&check, &players(), &els, &Sources::default())).starts_with("bursts: side 0 may still burst")
        );
        let surge_now = Surge { element: id(MIRA), by: id(ADA), allow_debt: false };
        assert!(err(surge(&check, &surge_now, &players(), &els, &Sources::default()))
            .starts_with("bursts: side 0 may still burst"));
        assert_eq!(err(choose_burst(&check, 1, true, &mut Entered::new([3]))), "side: side 1 has no burst to choose");

        // She bursts: ×2 and a reroll of 4 scores 8, and she beats the failure's 5.
        let (burst, events) = choose_burst(&check, 0, true, &mut Entered::new([4])).unwrap();
        assert_eq!(events, vec![CheckEvent::BurstChosen { check: id(CHECK), side: 0, reroll: Some(4), score: 8 }]);
        assert!(open_bursts(&burst).is_empty());
        assert_eq!(faces(&burst, 0), vec![(6, 2), (6, 4)]);
        assert_eq!(err(choose_burst(&burst, 0, true, &mut Entered::new([4]))), "side: side 0 has no burst to choose");
        let (done, _, _) = resolve(&burst, &players(), &els, &Sources::default()).unwrap();
        assert_eq!((done.winner(), done.scores()), (Some(0), vec![Some(8), Some(5)]));

        // She keeps her 2 instead: the failure takes effect.
        let (kept, events) = choose_burst(&check, 0, false, &mut Entered::new([])).unwrap();
        assert_eq!(events, vec![CheckEvent::BurstChosen { check: id(CHECK), side: 0, reroll: None, score: 2 }]);
        let (done, _, _) = resolve(&kept, &players(), &els, &Sources::default()).unwrap();
        assert_eq!((done.winner(), done.scores()), (Some(1), vec![Some(2), Some(5)]));
        let json = serde_json::to_string(&kept).unwrap();
        assert_eq!(serde_json::from_str::<ActionCheck>(&json).unwrap(), kept);
    }

    #[test]
    fn a_check_s_next_vote_is_counted_as_the_check_counts_its_votes() {
        use crate::rules::mezzo::choices::{check_next_vote, next_vote};
        // Mira's common action (2 votes: a d6) against an occasional failure (1: a d4): the
        // same dice as a conflict of 2 votes against 1, so the same next votes.
        let (check, els) = climb();
        let got = check_next_vote(&check, &els).unwrap();
        assert_eq!(got, next_vote(&[2, 1], Variant::Steps).unwrap());
        assert_eq!(got.iter().map(|v| v.best).collect::<Vec<_>>(), [false, true], "the failure's vote moves more");
        // Two influence points on Mira: the next vote is her fifth (a d12).
        let mut more = check.clone();
        more.casts.push(Cast::Counted { side: 0, votes: 2 });
        assert_eq!(check_next_vote(&more, &els).unwrap()[0].votes, 4);
        assert!(check_next_vote(&rolled(&check, &els, &[3, 2]), &els).is_err(), "not once rolled");
    }

    #[test]
    fn a_check_s_open_burst_shows_the_chance_to_take_effect_each_way() {
        use crate::rules::mezzo::choices::{check_bursts, Better};
        let (check, els) = d6_climb();
        assert!(check_bursts(&check).unwrap_err().to_string().starts_with("check:"), "not rolled yet");
        // Mira's 2 against the failure's settled 5: keeping loses, a burst (2 × the reroll)
        // wins on 3 or more.
        let choices = check_bursts(&rolled(&check, &els, &[2, 5])).unwrap();
        assert_eq!(choices.len(), 1);
        let mira = &choices[0];
        assert_eq!((mira.option, mira.first, mira.better), (0, 2, Better::Burst));
        assert_eq!(chs(vec![mira.keep.clone(), mira.burst.clone()]), vec![c(0, 1), c(2, 3)]);
        // Chosen: nothing open.
        let (kept, _) = choose_burst(&rolled(&check, &els, &[2, 5]), 0, false, &mut Entered::new([])).unwrap();
        assert!(check_bursts(&kept).unwrap().is_empty());
    }

    #[test]
    fn a_d6_tie_is_broken_with_d6s() {
        let (check, els) = d6_climb();
        let (check, _) = choose_burst(&rolled(&check, &els, &[2, 4]), 0, false, &mut Entered::new([])).unwrap();
        let (tied, _, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!(tied.phase, Phase::Done, "2 against 4 is no tie");
        let check = rolled(&d6_climb().0, &els, &[4, 4]);
        let (tied, _, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!(tied.tied, vec![0, 1]);
        assert!(break_tie(&tied, &mut Entered::new([7, 1])).is_err(), "a tiebreak die is a d6");
        let (done, _) = break_tie(&tied, &mut Entered::new([3, 6])).unwrap();
        assert_eq!(done.winner(), Some(1));
        assert_eq!(done.tiebreaks[0].faces, vec![3, 6]);
    }

    #[test]
    fn restraints_in_the_d6_variant_waste_the_votes_they_waste_with_step_dice() {
        // Mira with 6 votes (d6 ×2) against a failure with 5 (d6 ×1, burst on 1–5).
        let (check, els) = d6_climb();
        let check = go(&check, Cast::Counted { side: 0, votes: 4 }, &els);
        let check = go(&check, Cast::Counted { side: 1, votes: 4 }, &els);
        assert_eq!(dice(&check, &els).unwrap()[0].as_ref().unwrap().d6, Some(D6Die { multiplier: 2, threshold: 0 }));
        assert_eq!(chs(odds(&check, &els).unwrap()), vec![c(37, 72), c(35, 72)]);
        // One Restraint: her step dice d12 + d4 would be d10 + d4, worth 5 votes: d6 ×1 burst on 1–5.
        let net = |n: u128| Trait::from_template(id(30 + n), Template::Restraint, "Net", Via::Granted);
        let held = set(&els, MIRA, |e| e.traits.push(net(0)));
        let planned = dice(&check, &held).unwrap()[0].clone().unwrap();
        assert_eq!((planned.d6, planned.restraints), (Some(D6Die { multiplier: 1, threshold: 5 }), 1));
        assert_eq!(chs(odds(&check, &held).unwrap()), vec![c(1, 2), c(1, 2)]);
        // All five sizes locked out: no die, she rolls 1.
        let bound = set(&els, MIRA, |e| e.traits.extend((0..5).map(net)));
        let planned = dice(&check, &bound).unwrap()[0].clone().unwrap();
        assert!(planned.locked_out && planned.d6.is_none() && planned.dice.is_empty());
        let rolled_check = rolled(&check, &bound, &[6]);
        assert_eq!(rolled_check.sides[0].roll.as_ref().unwrap().highest, 1);
    }

    #[test]
    fn exact_odds_take_any_number_of_dice() {
        // Eight d12s a side (40 votes) had too many outcomes for the old 128-bit count.
        let side = SideDice { dice: vec![12; 8], bonus: 0, restraints: 0, locked_out: false, d6: None };
        let three = chances(&[side.clone(), side.clone(), side]).unwrap();
        assert_eq!(chs(three), vec![c(1, 3), c(1, 3), c(1, 3)]);
        assert!(err(chances(&[])).starts_with("sides: at least two sides"));
    }

    #[test]
    fn a_check_round_trips_through_json() {
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| e.adversity = 9);
        let check = go(&check, law(ADA, 0, Law::Consistency { fact: "Rope".into() }, Direction::For), &els);
        let check = go(&check, Cast::FortunesFavor { element: id(MIRA), by: id(BO), allow_debt: false }, &els);
        let (check, _) = buy_perk(&check, 0, ScopePerk::ExtendedCoverage).unwrap();
        let check = rolled(&check, &els, &[5, 2]);
        let (check, _) = surge(
            &check,
            &Surge { element: id(MIRA), by: id(BO), allow_debt: false },
            &players(),
            &els,
            &Sources::default(),
        )
        .unwrap();
        let json = serde_json::to_string(&check).unwrap();
        assert!(json.contains(r#""kind":"fortunes_favor""#) && json.contains(r#""law":"consistency""#), "{json}");
        assert_eq!(serde_json::from_str::<ActionCheck>(&json).unwrap(), check);
        assert!(serde_json::from_str::<ActionCheck>(&json.replacen('{', r#"{"luck":1,"#, 1)).is_err());
        let (_, _, events) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        for event in events {
            let json = serde_json::to_string(&event).unwrap();
            assert_eq!(serde_json::from_str::<CheckEvent>(&json).unwrap(), event, "{json}");
        }
    }

    #[test]
    fn spends_are_checked_in_the_order_they_are_paid_and_paid_only_when_resolved() {
        let (check, els) = climb();
        let els = set(&els, MIRA, |e| {
            e.adversity = 2;
            e.traits.push(Trait::new(id(30), TraitKind::Flaw, "Afraid of heights", Via::Granted));
        });
        let check =
            go(&check, Cast::OvercomeFlaw { element: id(MIRA), flaw: id(30), by: id(ADA), allow_debt: false }, &els);
        assert_eq!(el(&els, MIRA).adversity, 2, "nothing is paid before the check resolves");
        // A second spend is checked as though the first were paid: 0 left, so no debt either.
        let ff = Cast::FortunesFavor { element: id(MIRA), by: id(ADA), allow_debt: true };
        assert!(err(cast(&check, &ff, &players(), &els, &Sources::default())).ends_with("at least 1 adversity is held"));
        let check = rolled(&check, &els, &[1, 2]);
        // Adversity spent elsewhere meanwhile: the resolve is refused and nothing changes.
        let poorer = set(&els, MIRA, |e| e.adversity = 1);
        assert!(err(resolve(&check, &players(), &poorer, &Sources::default()))
            .starts_with("adversity: Mira holds 1 adversity"));
        let (done, changes, events) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
        assert_eq!(done.winner(), Some(1));
        assert_eq!(changes.elements.len(), 1);
        assert_eq!(changes.elements[0].adversity, 0);
        assert!(events.iter().any(|e| matches!(
            e,
            CheckEvent::Element {
                change: ElementEvent::AdversitySpent { benefit: Benefit::OvercomeFlaws, cost: 2, .. }
            }
        )));
    }

    proptest! {
        /// The exact chances agree with counting every roll, and add up to 1.
        #[test]
        fn chances_match_enumeration(
            sides in proptest::collection::vec((proptest::collection::vec(prop_oneof![Just(4u8), Just(6), Just(8)], 0..3), 0u32..2), 2..4)
        ) {
            let sides: Vec<SideDice> = sides.into_iter().map(|(dice, bonus)| SideDice { dice, bonus, restraints: 0, locked_out: false, d6: None }).collect();
            let got = chs(chances(&sides).unwrap());
            // Enumerate: every face of every die, each equally likely.
            let dice: Vec<(usize, u8)> = sides.iter().enumerate().flat_map(|(i, s)| s.dice.iter().map(move |&d| (i, d))).collect();
            let total: u64 = dice.iter().map(|&(_, d)| u64::from(d)).product();
            let mut wins = vec![0f64; sides.len()];
            for n in 0..total {
                let mut rest = n;
                let mut best = vec![1u32; sides.len()];
                for &(i, d) in &dice {
                    let face = (rest % u64::from(d)) as u32 + 1;
                    rest /= u64::from(d);
                    best[i] = best[i].max(face);
                }
                let scores: Vec<u32> = best.iter().zip(&sides).map(|(b, s)| b + s.bonus).collect();
                let top = *scores.iter().max().unwrap();
                let tied = scores.iter().filter(|&&s| s == top).count() as f64;
                for (i, &s) in scores.iter().enumerate() {
                    if s == top { wins[i] += 1.0 / tied; }
                }
            }
            let mut sum = (0u128, 1u128);
            for (g, w) in got.iter().zip(&wins) {
                prop_assert!((g.probability() - w / total as f64).abs() < 1e-12);
                sum = (sum.0 * u128::from(g.outcomes()) + u128::from(g.count()) * sum.1, sum.1 * u128::from(g.outcomes()));
            }
            prop_assert_eq!(sum.0, sum.1, "the chances add up to exactly 1");
        }

        /// Random checks played with random dice: the winner holds the top score, the odds
        /// add up to 1, and every spend is paid exactly once.
        #[test]
        fn random_checks_settle_on_the_highest_score(
            seed in any::<u64>(),
            chances in (0usize..3, 0usize..3),
            influence in (0u32..4, 0u32..4),
            favor in 0usize..3,
        ) {
            use rand::SeedableRng;
            let all = [BaseChance::Negligible, BaseChance::Occasional, BaseChance::Common];
            let els = set(&elements(), MIRA, |e| e.adversity = 3);
            let Ok((check, changes, _)) = start(&setup(vec![action(MIRA, all[chances.0]), failure(all[chances.1])]), &els) else {
                prop_assert!(chances == (0, 0));
                return Ok(());
            };
            let els = merge(&els, &changes.elements);
            if check.phase == Phase::Done {
                prop_assert!(chances.0 == 0 || chances.1 == 0);
                return Ok(());
            }
            let mut check = check;
            if influence.0 > 0 { check = go(&check, Cast::Influence { player: id(ADA), side: 0, points: influence.0.min(3) }, &els); }
            if influence.1 > 0 { check = go(&check, Cast::Influence { player: id(BO), side: 1, points: influence.1.min(3) }, &els); }
            for _ in 0..favor {
                check = go(&check, Cast::FortunesFavor { element: id(MIRA), by: id(CY), allow_debt: true }, &els);
            }
            let odds = chs(odds(&check, &els).unwrap());
            let sum = odds[0].count() * odds[1].outcomes() + odds[1].count() * odds[0].outcomes();
            prop_assert_eq!(sum, odds[0].outcomes() * odds[1].outcomes());
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let (check, _) = roll(&check, &els, &mut Rolled(&mut rng)).unwrap();
            let (mut check, changes, _) = resolve(&check, &players(), &els, &Sources::default()).unwrap();
            while check.phase == Phase::Tied {
                check = break_tie(&check, &mut Rolled(&mut rng)).unwrap().0;
            }
            let w = check.winner().unwrap();
            let scores: Vec<u32> = check.scores().into_iter().flatten().collect();
            prop_assert_eq!(check.sides[w].score, scores.iter().copied().max());
            let mira = merge(&els, &changes.elements).into_iter().find(|e| e.id == id(MIRA)).unwrap();
            let cost = 2 * favor as u32;
            prop_assert_eq!(3 + mira.adversity_debt, mira.adversity + cost);
        }
    }
}
