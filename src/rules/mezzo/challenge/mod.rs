//! A Mezzo challenge (RULES.md §3.4) as a state machine of pure moves, and the restorative
//! actions of Rest & Recuperation outside challenges.
//!
//! [`start`] opens a challenge: its sides, its challengers (characters and obstacles, each
//! with at most one stake) and the goals they push for. [`play`] applies one [`Move`]. Each
//! takes the challenge and the elements it reads by reference and returns the new challenge,
//! the elements it changed ([`Changes`]) and what happened; an illegal move is an
//! [`Error::Invalid`] naming the field, and changes nothing. The elements are the
//! [`element`] module's: every change to them goes through its moves (traits, adversity,
//! momentum, joining and leaving, the challenge's end).
//!
//! The flow:
//! 1. Rounds. Each challenger still in takes at most one major action a round: an action
//!    check, recorded from its scores ([`Move::MajorActions`], [`scores_of`]) or rolled here
//!    through [`action_check`] ([`roll_major_actions`]). Each major action is compared with
//!    the highest opposing roll: higher → 1 major perk, at least double → 2, tied → 1 minor
//!    perk, lower → 1 adversity for its owner. Instead, a challenger may change its stakes
//!    (maybe changing sides) or surrender. [`Move::EndRound`] closes a round, with the
//!    trump effects (Victorious Withdrawal, Defeated Exile) the table uses.
//! 2. Perks. The perks of each major action are resolved in order: a major perk may be traded
//!    for two minor perks ([`Move::Trade`]); each perk is declared on its target
//!    ([`Move::Declare`]) and they all take effect together ([`Move::Settle`]). Between the
//!    two, an element still in may sacrifice its Plot Protection to remove every perk of the
//!    action ([`Move::FinalCounter`]). Minor perks: Hinder, Recover, Discover, Expose. Major
//!    perks: Bind / Break Free, Damage / Heal, Push / Ruin (see [`PerkUse`]).
//! 3. Departures. A challenger leaves in victory or defeat (surrender, a trump effect, all
//!    its dice locked out, a wound that takes it out, no opponent left). Its momentum boosts
//!    trigger — one per wound or restraint this challenge gave it, five at most — and go to
//!    its opponents; a goal's trumps trigger when no supporter of the goal is left. Each
//!    award is one point to the target with the least momentum (the table picks among equals,
//!    [`Move::AwardBoost`]), at most 5 awards per challenger per challenge; a trump may first
//!    draw up to 4 momentum from its goal for as many more awards ([`Move::DrawTrump`]). Then
//!    the leavers spend ([`Move::Spend`]): a victor on victory narration (a vote a point),
//!    claiming stakes (a major perk a point), lasting effects (1: add or remove a Transient
//!    Flaw) and boons (1 → one use, 2 → 3 uses, 3 → 5 uses or one challenge, 4 → 7 uses,
//!    5 → the rest of the arc); the defeated turn 2 momentum into 1 adversity. [`Move::Depart`]
//!    closes the departure (on its own when nobody has anything left to spend).
//! 4. The end. When the challengers still in have no opponent left, they all leave in
//!    victory; once the last departure is closed the challenge ends: unspent momentum and
//!    trumps are lost, the wounds' and restraints' boosts lapse (they were this challenge's),
//!    and Transient Flaws grant Favored Flaws ([`element::challenge_ended`]).
//!
//! Outside challenges, [`take_breather`] (Recover), [`escape_restraints`] (Break Free, no new
//! flaw) and [`treat_wounds`] (Heal, with a Recovery Check for Vicious Wounds) clear flaws.
//!
//! Rulings where the source is silent:
//! - Stakes belong to challengers: each holds at most one, stated when it joins or changed
//!   with its major action; a side is the group that wins or loses together. A challenger
//!   joins a side that still has a challenger in (one must accept it) or starts a new side;
//!   nobody comes back once it has left; a goal is never a challenger; an element whose dice
//!   are all locked out by restraints cannot join.
//! - The opposing rolls of a major action are the scores of every side of its check that is
//!   not its own challenge side: the failure side and every other side's actions. An ally's
//!   roll does not oppose; a negligible side did not roll and does not count; a major action
//!   needs at least one opposing roll. Every element acting in the check is a challenger
//!   still in. The failure's adversity is gained when the action is recorded (it pays debt
//!   first).
//! - "Double" is a score at least twice the highest opposing score.
//! - Perks are resolved one major action at a time, in the order recorded; until they are,
//!   no other major action is recorded and the round does not end. Perks not declared when
//!   the action settles are forfeited. A perk on an element targets a challenger still in
//!   (of any side). Push targets a goal of the acting challenger's side with a supporter
//!   still in; Ruin a goal of another side.
//! - New flaws and trumps come with their ids (and names) from the table; the modifiers a
//!   perk adds get ids derived from their flaw's ([`modifier_id`]) so the rules stay pure.
//! - "Gained during this challenge" means inflicted by this challenge's perks (Hinder,
//!   Expose, Bind, Break Free's new flaw, Damage's new wound). Only these give momentum
//!   boosts, and only while the element still holds them as wounds or restraints when it
//!   leaves (a healed wound turned One-Shot, a restraint broken, gives none): the boosts of
//!   earlier challenges lapsed when those ended.
//! - Damage adds exactly its extras: 2 to an existing wound, plus 1 for each of the target's
//!   One-Shot flaws it expends (used up). Whether a wound leaves the target unable to
//!   contribute meaningfully is the table's judgement, declared with the Damage.
//! - Heal and Treat Wounds remove Vicious Wound extras before any other, and keep a Targeted
//!   Wound while a Pervasive Wound needs it. The Recovery Check is asked of Treat Wounds
//!   only (the source places it with the restorative actions).
//! - A challenger whose restraints lock out every die (5) when an action settles leaves in
//!   defeat.
//! - Boost targets are participants: a wound's or restraint's boost goes to the owner's
//!   opponents still in the challenge or leaving with it; a trump's to its goal's supporters
//!   leaving as it triggers (those gone before no longer participate). A trump triggers
//!   once, when its goal has no supporter still in; awards with no target left under the
//!   5-award limit lapse.
//! - Trump effects at a round's end use the supporters and opponents still in. Using one is
//!   the table's choice and spends as many trumps as the challengers it moves (RULES.md
//!   §3.4, 2026-11-25): those no longer trigger a boost; the rest trigger when the goal's
//!   supporters are all gone, and trumps never used are lost at the end with no boost.
//!   Each goal uses one effect per round end, and a challenger cannot be both withdrawn and
//!   exiled by the same round end.
//! - Leavers spend while their departure is resolved, after every award is given ("not
//!   until all momentum has been awarded" applies to both outcomes); what they keep is lost
//!   when the challenge ends. Claiming stakes needs a stake; each major perk it buys is named
//!   with its target (a challenger of this challenge, in or gone, or a goal) and applied at
//!   once. What the perk would make last until the end of this challenge lasts until the end
//!   of the target's next one: a Push's trump stays past this end, and the flaws it gives are
//!   carried ([`Element::carried`]) to count as gained there too. A claimed perk does not
//!   take anyone out (the spender has left; later moves do). A lasting effect targets a
//!   flaw of a challenger or goal of this challenge, or of an element the table confirms
//!   was part of the spender's stake.
//! - Surrender takes the challenger's major action of the round, unless it follows at once
//!   the wound, wound extras (a worsened wound) or restraint it gained ("at once": before the next major action is recorded,
//!   the round ends or another perk is declared). It is a defeat unless no opponent is left.
//! - A complication counters a Push as a Ruin of the trump it added, until the next major
//!   action or the round's end, and not on a goal with momentum enough to protect its trumps.
//! - A challenger that changes sides stops supporting its old side's goals; a goal left with
//!   no supporter never triggers its trumps.
//! - Protection a challenger lent by Heroic Sacrifice to an element outside the challenge
//!   ends with the challenge (RULES.md §3.4, 2026-11-25).
//! - Restorative actions are refused during a challenge (the source's optional cost of 3
//!   major actions is not offered).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::action_check::{self, ActionCheck, Changes, CheckEvent, SideKind};
use super::element::{
    self, clean_text, Boon, Element, ElementEvent, ElementKind, MomentumSource, MomentumSpend, Player, Template, Trait,
    TraitKind, Via, MAX_BOOSTS_PER_OWNER, MAX_MOMENTUM_AWARDS, MAX_TRUMP_TRANSFER,
};
use crate::error::{Error, Result};
use crate::rules::dice::DiceSource;
use crate::Problem;

/// The most sides a challenge has. The source sets no limit (DEV-13): a side needs a
/// challenger, so no more sides than challengers, and a side's action is checked against the
/// others like a conflict's options (`conflict::MAX_OPTIONS`, the same number).
pub const MAX_SIDES: usize = MAX_CHALLENGERS;
/// The most challengers a challenge has, over its whole length.
pub const MAX_CHALLENGERS: usize = 32;
/// Minor perks a traded major perk becomes.
pub const MINORS_PER_TRADE: u32 = 2;

mod departure;
mod events;
mod integrity;
mod perks;
mod rounds;
mod setup;
#[cfg(test)]
mod tests;

pub use self::departure::raise_stake;
use self::departure::*;
pub use self::events::*;
pub use self::integrity::*;
pub use self::perks::tempting_target;
use self::perks::*;
pub(super) use self::perks::{has_modifier, heal_wound};
pub use self::rounds::*;
pub use self::setup::*;

// ---------------------------------------------------------------------------------------
// Types

/// A side as the table sets it up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSetup {
    /// What the side wants, in the table's words.
    #[serde(default)]
    pub name: String,
}

/// A challenger as the table sets it up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengerSetup {
    pub element: Uuid,
    pub side: usize,
    /// What it wants to achieve if it wins (one stake at a time).
    #[serde(default)]
    pub stake: Option<String>,
}

/// A goal the challengers push for (a story element of kind goal).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoalSetup {
    pub element: Uuid,
    /// The challengers supporting it, all of one side.
    pub supporters: Vec<Uuid>,
}

/// A challenge as the table sets it up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeSetup {
    pub id: Uuid,
    #[serde(default)]
    pub description: String,
    pub sides: Vec<SideSetup>,
    pub challengers: Vec<ChallengerSetup>,
    #[serde(default)]
    pub goals: Vec<GoalSetup>,
}

/// A side of the challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub name: String,
}

/// How a challenger leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Leave {
    Victory,
    Defeat,
}

/// Why a challenger leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// It chose to go.
    Surrender,
    /// No opponent was left.
    NoOpponents,
    /// Its goal's trumps let its supporters go (Victorious Withdrawal).
    Withdrawal,
    /// An opposing goal's trumps forced it out (Defeated Exile).
    Exile,
    /// Its restraints lock out every die.
    LockedOut,
    /// A wound left it unable to contribute meaningfully.
    TakenOut,
}

/// Where a challenger stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case", deny_unknown_fields)]
pub enum Status {
    /// Taking part.
    In,
    /// Leaving: its departure is being resolved (boosts, spending).
    Leaving { how: Leave, why: Why },
    /// Gone.
    Left { how: Leave, why: Why },
}

/// A story element taking part in the challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenger {
    pub element: Uuid,
    /// A character, or an obstacle (object, location, faction).
    pub kind: ElementKind,
    pub side: usize,
    #[serde(default)]
    pub stake: Option<String>,
    pub status: Status,
    /// Momentum boosts it triggered when it left (at most 5).
    #[serde(default)]
    pub boosts_triggered: u32,
}

impl Challenger {
    pub fn is_in(&self) -> bool {
        self.status == Status::In
    }

    fn leaving(&self) -> Option<Leave> {
        match self.status {
            Status::Leaving { how, .. } => Some(how),
            _ => None,
        }
    }
}

/// A goal in the challenge: it gains trumps (Push), loses them (Ruin) and holds momentum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    pub element: Uuid,
    pub side: usize,
    pub supporters: Vec<Uuid>,
    /// Its trumps triggered (no supporter was left).
    #[serde(default)]
    pub triggered: bool,
}

/// How a major action's roll compares with the highest opposing roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionResult {
    /// At least double: 2 major perks.
    DoubleSuccess,
    /// Higher: 1 major perk.
    Success,
    /// Equal: 1 minor perk.
    Tie,
    /// Lower: no perk, 1 adversity.
    Failure,
}

impl ActionResult {
    /// The major and minor perks it gives.
    pub fn perks(self) -> (u32, u32) {
        match self {
            ActionResult::DoubleSuccess => (2, 0),
            ActionResult::Success => (1, 0),
            ActionResult::Tie => (0, 1),
            ActionResult::Failure => (0, 0),
        }
    }
}

/// Compares a major action's score with the highest opposing score.
pub fn compare(score: u32, opposing: u32) -> ActionResult {
    if score < opposing {
        ActionResult::Failure
    } else if score == opposing {
        ActionResult::Tie
    } else if u64::from(score) >= 2 * u64::from(opposing) {
        ActionResult::DoubleSuccess
    } else {
        ActionResult::Success
    }
}

/// How a major action's perks were closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Closed {
    /// The declared perks took effect.
    Settled,
    /// An element's Final Counter removed them all.
    Countered { by: Uuid },
    /// Its challenger left before they were resolved.
    Lapsed,
}

/// One major action taken as an action check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MajorAction {
    pub round: u32,
    pub challenger: Uuid,
    /// The action check it was, if it came from one.
    #[serde(default)]
    pub check: Option<Uuid>,
    pub score: u32,
    /// The highest opposing score.
    pub opposing: u32,
    pub result: ActionResult,
    pub major_perks: u32,
    pub minor_perks: u32,
    /// Major perks traded for two minor perks each.
    #[serde(default)]
    pub traded: u32,
    /// Perks declared, to take effect when the action settles.
    #[serde(default)]
    pub declared: Vec<PerkUse>,
    /// None while its perks are open.
    #[serde(default)]
    pub closed: Option<Closed>,
}

impl MajorAction {
    /// Major perks not yet traded or declared.
    pub fn majors_left(&self) -> u32 {
        let declared = self.declared.iter().filter(|p| p.name().is_major()).count() as u32;
        self.major_perks.saturating_sub(self.traded).saturating_sub(declared)
    }

    /// Minor perks (given or traded for) not yet declared.
    pub fn minors_left(&self) -> u32 {
        let declared = self.declared.iter().filter(|p| !p.name().is_major()).count() as u32;
        self.minor_perks.saturating_add(MINORS_PER_TRADE.saturating_mul(self.traded)).saturating_sub(declared)
    }
}

/// Momentum a Raise Stakes put into a stake (RULES.md §3.4, 2026-11-25): shared by the
/// challengers holding that stake, spent by one leaving in victory, only in support of the
/// stake (claiming stakes, victory narration, a lasting effect); never an owner's own
/// momentum. It ends with the challenge, or when nobody holds the stake any more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StakePool {
    pub stake: String,
    pub momentum: u32,
}

/// The same stake, as the table wrote it (case and surrounding spaces aside).
pub fn same_stake(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// A flaw this challenge's perks inflicted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gained {
    pub element: Uuid,
    pub flaw: Uuid,
}

/// A trump a Push added, which a complication may still counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pushed {
    pub goal: Uuid,
    pub trump: Uuid,
}

/// Who owns a momentum boost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum BoostOwner {
    /// A challenger's wounds and restraints.
    Challenger { element: Uuid },
    /// A goal's trump.
    Trump { goal: Uuid, trump: Uuid },
}

/// Momentum boosts triggered and not yet all awarded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Boost {
    pub owner: BoostOwner,
    /// The target group.
    pub targets: Vec<Uuid>,
    /// Awards still to give, a point each.
    pub awards: u32,
    /// A trump waiting for the table to say how much it draws from its goal.
    #[serde(default)]
    pub draw_pending: bool,
}

/// Challengers leaving together, while their departure is resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Departure {
    pub leavers: Vec<Uuid>,
    /// Boosts to award, the first one first.
    #[serde(default)]
    pub boosts: Vec<Boost>,
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Major actions, stake changes, surrenders, the round's end.
    Rounds,
    /// A major action's perks are being declared and settled.
    Perks,
    /// Challengers are leaving: boosts are awarded, momentum spent.
    Departure,
    /// Every challenger left; the challenge's end took effect.
    Over,
}

/// A challenge and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    pub id: Uuid,
    pub description: String,
    /// The current round, from 1.
    pub round: u32,
    pub sides: Vec<Side>,
    pub challengers: Vec<Challenger>,
    #[serde(default)]
    pub goals: Vec<Goal>,
    /// Every major action taken as a check, in order.
    #[serde(default)]
    pub actions: Vec<MajorAction>,
    /// Challengers that used their major action this round.
    #[serde(default)]
    pub acted: Vec<Uuid>,
    /// Actions whose perks are still open, to be resolved in this order.
    #[serde(default)]
    pub open: Vec<usize>,
    #[serde(default)]
    pub gained: Vec<Gained>,
    /// Challengers that just gained a wound or restraint and may surrender at once.
    #[serde(default)]
    pub may_surrender: Vec<Uuid>,
    /// Pushes a complication may still counter.
    #[serde(default)]
    pub counterable: Vec<Pushed>,
    #[serde(default)]
    pub departure: Option<Departure>,
    #[serde(default)]
    pub over: bool,
    /// Stakes' own momentum (Raise Stakes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stake_pools: Vec<StakePool>,
}

/// The score of one side of a major action's check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideScore {
    pub kind: SideKind,
    pub score: u32,
}

/// Which side a challenger joins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Joining {
    /// A side with at least one challenger still in.
    Side { side: usize },
    /// A new side.
    NewSide { name: String },
}

/// What trumps do at the end of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TrumpEffect {
    /// At least as many trumps as supporters still in: they leave in victory.
    VictoriousWithdrawal { goal: Uuid },
    /// At least as many trumps as opponents still in: they leave in defeat.
    DefeatedExile { goal: Uuid },
}

impl TrumpEffect {
    pub fn goal(self) -> Uuid {
        match self {
            TrumpEffect::VictoriousWithdrawal { goal } | TrumpEffect::DefeatedExile { goal } => goal,
        }
    }
}

/// The flaw a Damage perk wounds with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Wounding {
    /// A new flaw (Dulled Edge, Impaired Ability or Vulnerability) with the Wound and
    /// Transient Flaw modifiers.
    NewFlaw { flaw: Box<Trait> },
    /// One of the target's wounds gains 2 extras.
    Worsen { wound: Uuid },
}

/// What a Heal (or Treat Wounds) does to a wound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum HealEffect {
    /// Removes 1 or 2 of its extras.
    RemoveExtras { extras: Vec<Uuid> },
    /// A wound with no extras: its Wound modifier becomes One-Shot.
    OneShot,
}

/// A perk used on its target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PerkUse {
    /// Minor: a Dulled Edge or Impaired Ability flaw, One-Shot and Transient.
    Hinder { target: Uuid, flaw: Box<Trait> },
    /// Minor: the target removes a One-Shot, Transient flaw gained in this challenge.
    Recover { target: Uuid, flaw: Uuid },
    /// Minor: the acting challenger finds something useful (a detail with a free vote if
    /// disputed).
    Discover { detail: String },
    /// Minor: a Vulnerability flaw, One-Shot and Transient.
    Expose { target: Uuid, flaw: Box<Trait> },
    /// Major: a Restraint flaw, Transient.
    Bind { target: Uuid, restraint: Box<Trait> },
    /// Major: the target removes a Transient restraint and gains a minor flaw (Dulled Edge,
    /// Impaired Ability or Vulnerability), One-Shot and Transient.
    BreakFree { target: Uuid, restraint: Uuid, flaw: Box<Trait> },
    /// Major: a new wound or 2 extras on a wound, plus an extra per One-Shot flaw of the
    /// target expended. `takes_out`: the table judges the target can no longer contribute.
    Damage {
        target: Uuid,
        wound: Wounding,
        #[serde(default)]
        expend: Vec<Uuid>,
        #[serde(default)]
        extras: Vec<Trait>,
        #[serde(default)]
        takes_out: bool,
    },
    /// Major: a Transient wound the target gained in this challenge loses up to 2 extras or,
    /// with none, turns One-Shot.
    Heal { target: Uuid, wound: Uuid, effect: HealEffect },
    /// Major: the goal gains a trump (`trump` is its id).
    Push { goal: Uuid, trump: Uuid },
    /// Major: the goal loses a trump and gains a point of momentum.
    Ruin { goal: Uuid },
}

/// The perks' names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PerkName {
    Hinder,
    Recover,
    Discover,
    Expose,
    Bind,
    BreakFree,
    Damage,
    Heal,
    Push,
    Ruin,
}

impl PerkName {
    pub fn is_major(self) -> bool {
        matches!(
            self,
            PerkName::Bind | PerkName::BreakFree | PerkName::Damage | PerkName::Heal | PerkName::Push | PerkName::Ruin
        )
    }
}

/// Which field of a perk names its target, said once for `PerkUse::target` and
/// `PerkUse::target_mut` (a shared or a mutable reference, as `$perk` is).
macro_rules! perk_target {
    ($perk:expr) => {
        match $perk {
            PerkUse::Hinder { target, .. }
            | PerkUse::Recover { target, .. }
            | PerkUse::Expose { target, .. }
            | PerkUse::Bind { target, .. }
            | PerkUse::BreakFree { target, .. }
            | PerkUse::Damage { target, .. }
            | PerkUse::Heal { target, .. } => Some(target),
            PerkUse::Push { goal, .. } | PerkUse::Ruin { goal } => Some(goal),
            PerkUse::Discover { .. } => None,
        }
    };
}

impl PerkUse {
    pub fn name(&self) -> PerkName {
        match self {
            PerkUse::Hinder { .. } => PerkName::Hinder,
            PerkUse::Recover { .. } => PerkName::Recover,
            PerkUse::Discover { .. } => PerkName::Discover,
            PerkUse::Expose { .. } => PerkName::Expose,
            PerkUse::Bind { .. } => PerkName::Bind,
            PerkUse::BreakFree { .. } => PerkName::BreakFree,
            PerkUse::Damage { .. } => PerkName::Damage,
            PerkUse::Heal { .. } => PerkName::Heal,
            PerkUse::Push { .. } => PerkName::Push,
            PerkUse::Ruin { .. } => PerkName::Ruin,
        }
    }

    /// The element or goal it targets (None: Discover).
    pub fn target(&self) -> Option<Uuid> {
        perk_target!(self).copied()
    }

    /// Its target, to be rewritten (an import as copies gives copied characters new ids).
    pub fn target_mut(&mut self) -> Option<&mut Uuid> {
        perk_target!(self)
    }
}

/// What a leaver spends momentum on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Spend {
    /// Victory: a vote per point on disputed events tied to the victory.
    VictoryNarration { votes: u32 },
    /// Victory: a major perk per point for an action matching the stakes; `uses` names
    /// each perk and its target (one per point), and they take effect.
    ClaimingStakes {
        perks: u32,
        #[serde(default)]
        uses: Vec<PerkUse>,
    },
    /// Victory, 1 point: adds (`transient`) or removes the Transient Flaw modifier of `flaw`.
    LastingEffect {
        element: Uuid,
        flaw: Uuid,
        transient: bool,
        /// The table confirms `element` was part of the spender's stake.
        #[serde(default)]
        part_of_stake: bool,
    },
    /// Victory: a temporary edge with no slot.
    Boon { boon: Boon, edge: Box<Trait> },
    /// Defeat: 2 momentum for each point of adversity.
    DefeatConversion { adversity: u32 },
}

impl Spend {
    fn for_victory(&self) -> bool {
        !matches!(self, Spend::DefeatConversion { .. })
    }

    fn momentum(&self) -> MomentumSpend {
        match self {
            Spend::VictoryNarration { votes } => MomentumSpend::VictoryNarration { votes: *votes },
            Spend::ClaimingStakes { perks, .. } => MomentumSpend::ClaimingStakes { perks: *perks },
            Spend::LastingEffect { .. } => MomentumSpend::LastingEffect,
            Spend::Boon { boon, edge } => MomentumSpend::Boon { boon: *boon, edge: edge.clone() },
            Spend::DefeatConversion { adversity } => MomentumSpend::DefeatConversion { adversity: *adversity },
        }
    }
}

/// One move in a challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// A character or obstacle joins (at any point before the end).
    AddChallenger {
        element: Uuid,
        joining: Joining,
        #[serde(default)]
        stake: Option<String>,
    },
    /// A goal the challengers of one side push for.
    AddGoal { element: Uuid, supporters: Vec<Uuid> },
    /// An action check's result: `majors` are the challengers for whom it is their major
    /// action this round; `rolls` are every side's score.
    MajorActions {
        #[serde(default)]
        check: Option<Uuid>,
        rolls: Vec<SideScore>,
        majors: Vec<Uuid>,
    },
    /// The challenger's major action: new stakes, maybe on another side.
    ChangeStakes {
        challenger: Uuid,
        stake: String,
        #[serde(default)]
        joining: Option<Joining>,
    },
    /// Trades one major perk of the action for two minor perks.
    Trade { action: usize },
    /// Declares one perk of the action on its target.
    Declare { action: usize, perk: PerkUse },
    /// `element` sacrifices its Plot Protection to remove every perk of the action.
    FinalCounter { action: usize, element: Uuid },
    /// The declared perks take effect; any left are forfeited.
    Settle { action: usize },
    /// A complication counters a Push on `goal` (as a Ruin of the trump it added).
    Complicate { goal: Uuid, text: String },
    /// The challenger leaves voluntarily.
    Surrender { challenger: Uuid },
    /// The round is over; trumps may be used.
    EndRound {
        #[serde(default)]
        trumps: Vec<TrumpEffect>,
    },
    /// The triggered trump draws this much momentum from its goal (0 to 4).
    DrawTrump { points: u32 },
    /// The table picks who gets the next award among those tied on the least momentum.
    AwardBoost { to: Uuid },
    /// A leaver spends momentum; `by` is the player spending (a claimed element's claimer).
    /// `from_stake`: paid from the pool of the challenger's stake, not its own momentum.
    Spend {
        challenger: Uuid,
        by: Uuid,
        spend: Spend,
        #[serde(default)]
        from_stake: bool,
    },
    /// The leavers are gone.
    Depart,
}

impl Challenge {
    /// A challenge in its first round with nothing on it yet: no sides, challengers, goals or
    /// actions. Setting one up fills it in; the store reads its rows back into one.
    pub fn new(id: Uuid, description: String) -> Challenge {
        Challenge {
            id,
            description,
            round: 1,
            sides: Vec::new(),
            challengers: Vec::new(),
            goals: Vec::new(),
            actions: Vec::new(),
            acted: Vec::new(),
            open: Vec::new(),
            gained: Vec::new(),
            may_surrender: Vec::new(),
            counterable: Vec::new(),
            departure: None,
            over: false,
            stake_pools: Vec::new(),
        }
    }

    /// Where it stands.
    pub fn phase(&self) -> Phase {
        if self.over {
            Phase::Over
        } else if self.departure.is_some() {
            Phase::Departure
        } else if !self.open.is_empty() {
            Phase::Perks
        } else {
            Phase::Rounds
        }
    }

    pub fn challenger(&self, element: Uuid) -> Option<&Challenger> {
        self.challengers.iter().find(|c| c.element == element)
    }

    fn challenger_mut(&mut self, element: Uuid) -> Option<&mut Challenger> {
        self.challengers.iter_mut().find(|c| c.element == element)
    }

    pub fn goal(&self, element: Uuid) -> Option<&Goal> {
        self.goals.iter().find(|g| g.element == element)
    }

    /// The challengers still in.
    pub fn remaining(&self) -> impl Iterator<Item = &Challenger> + '_ {
        self.challengers.iter().filter(|c| c.is_in())
    }

    /// The sides with a challenger still in.
    pub fn sides_in(&self) -> Vec<usize> {
        let mut sides: Vec<usize> = self.remaining().map(|c| c.side).collect();
        sides.sort_unstable();
        sides.dedup();
        sides
    }

    /// Challengers still in on another side than `side`.
    pub fn opponents_in(&self, side: usize) -> Vec<Uuid> {
        self.remaining().filter(|c| c.side != side).map(|c| c.element).collect()
    }

    /// The momentum boosts `element` would trigger if it left now: one per wound or
    /// restraint this challenge gave it that it still holds, at most 5.
    pub fn boosts_held(&self, element: &Element) -> u32 {
        let held = self
            .gained
            .iter()
            .filter(|g| g.element == element.id)
            .filter(|g| element.is_wound(g.flaw) || element.restraints().any(|r| r.id == g.flaw))
            .count() as u32;
        held.min(MAX_BOOSTS_PER_OWNER)
    }

    /// The pool of `stake`, if a Raise Stakes filled one.
    pub fn stake_pool(&self, stake: &str) -> Option<&StakePool> {
        self.stake_pools.iter().find(|p| same_stake(&p.stake, stake))
    }

    /// The momentum `element`'s stake holds for it to spend (0 with no stake or pool).
    pub fn pool_of(&self, element: Uuid) -> u32 {
        self.challenger(element)
            .and_then(|c| c.stake.as_deref())
            .and_then(|s| self.stake_pool(s))
            .map_or(0, |p| p.momentum)
    }

    fn was_gained(&self, element: Uuid, flaw: Uuid) -> bool {
        self.gained.contains(&Gained { element, flaw })
    }

    fn active(&self, field: &str, element: Uuid) -> Result<&Challenger> {
        let c = self
            .challenger(element)
            .ok_or_else(|| Error::invalid(field, format!("element {element} is not a challenger here")))?;
        if !c.is_in() {
            return Err(Error::invalid(field, format!("element {element} has left the challenge")));
        }
        Ok(c)
    }

    fn expect(&self, allowed: &[Phase], what: &str) -> Result<()> {
        let phase = self.phase();
        if allowed.contains(&phase) {
            return Ok(());
        }
        let now = match phase {
            Phase::Rounds => "the challenge is between major actions",
            Phase::Perks => "a major action's perks are being resolved",
            Phase::Departure => "challengers are leaving: their departure is resolved first",
            Phase::Over => "the challenge is over",
        };
        Err(Error::invalid("move", format!("{what}: {now}")))
    }
}

/// The id of the modifier `template` a perk adds to `flaw`: derived from the flaw's id.
pub fn modifier_id(flaw: Uuid, template: Template) -> Uuid {
    const SALT: u128 = 0x6d6f_6469_6669_6572_206f_6620_666c_6177;
    Uuid::from_u128(flaw.as_u128() ^ SALT ^ ((template as u128 + 1) << 96))
}

// ---------------------------------------------------------------------------------------
// The elements a move reads and changes

/// Copies of the elements a move works on, and which ones it changed.
struct Table {
    elements: Vec<Element>,
    touched: Vec<Uuid>,
}

impl Table {
    fn new(elements: &[Element]) -> Table {
        Table { elements: elements.to_vec(), touched: Vec::new() }
    }

    fn get(&self, field: &str, id: Uuid) -> Result<&Element> {
        self.elements
            .iter()
            .find(|e| e.id == id)
            .ok_or_else(|| Error::invalid(field, format!("element {id} is not at the table")))
    }

    /// Applies an element move to `id` and logs its events.
    fn change(
        &mut self,
        field: &str,
        id: Uuid,
        events: &mut Vec<ChallengeEvent>,
        f: impl FnOnce(&Element) -> Result<(Element, Vec<ElementEvent>)>,
    ) -> Result<()> {
        let i = self
            .elements
            .iter()
            .position(|e| e.id == id)
            .ok_or_else(|| Error::invalid(field, format!("element {id} is not at the table")))?;
        let (next, more) = f(&self.elements[i])?;
        self.elements[i] = next;
        events.extend(more.into_iter().map(|change| ChallengeEvent::Element { change }));
        if !self.touched.contains(&id) {
            self.touched.push(id);
        }
        Ok(())
    }

    fn changes(&self) -> Changes {
        Changes {
            players: Vec::new(),
            elements: self
                .touched
                .iter()
                .filter_map(|id| self.elements.iter().find(|e| e.id == *id).cloned())
                .collect(),
            victory_votes: None,
        }
    }
}

/// What a move returns: the new challenge, the elements it changed, what happened.
pub type Step = (Challenge, Changes, Vec<ChallengeEvent>);
