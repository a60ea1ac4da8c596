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
//! - Trump effects at a round's end use the supporters and opponents still in; the trumps
//!   are not used up (they still trigger when their supporters leave and go at the end).
//!   Each goal uses one effect per round end, and a challenger cannot be both withdrawn and
//!   exiled by the same round end.
//! - Leavers spend while their departure is resolved, after every award is given ("not
//!   until all momentum has been awarded" applies to both outcomes); what they keep is lost
//!   when the challenge ends. Claiming stakes needs a stake; the perks it buys are recorded
//!   for the table to apply to the action matching the stakes. A lasting effect targets a
//!   flaw of a challenger or goal of this challenge, or of an element the table confirms
//!   was part of the spender's stake.
//! - Surrender takes the challenger's major action of the round, unless it follows at once
//!   the wound or restraint it gained ("at once": before the next major action is recorded,
//!   the round ends or another perk is declared). It is a defeat unless no opponent is left.
//! - A complication counters a Push as a Ruin of the trump it added, until the next major
//!   action or the round's end, and not on a goal with momentum enough to protect its trumps.
//! - A challenger that changes sides stops supporting its old side's goals; a goal left with
//!   no supporter never triggers its trumps.
//! - Restorative actions are refused during a challenge (the source's optional cost of 3
//!   major actions is not offered).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::action_check::{self, ActionCheck, Changes, CheckEvent, SideKind};
use super::element::{
    self, clean_text, Boon, Element, ElementEvent, ElementKind, MomentumSource, MomentumSpend, Player, Template, Trait,
    TraitKind, Via, MAX_MOMENTUM_AWARDS, MAX_TRUMP_TRANSFER,
};
use crate::error::{Error, Result};
use crate::rules::dice::DiceSource;
use crate::Problem;

/// Momentum boosts one owner triggers in a challenge.
pub const MAX_BOOSTS_PER_OWNER: u32 = 5;
/// The most sides a challenge has.
pub const MAX_SIDES: usize = 8;
/// The most challengers a challenge has, over its whole length.
pub const MAX_CHALLENGERS: usize = 32;
/// Minor perks a traded major perk becomes.
pub const MINORS_PER_TRADE: u32 = 2;

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
        match self {
            PerkUse::Hinder { target, .. }
            | PerkUse::Recover { target, .. }
            | PerkUse::Expose { target, .. }
            | PerkUse::Bind { target, .. }
            | PerkUse::BreakFree { target, .. }
            | PerkUse::Damage { target, .. }
            | PerkUse::Heal { target, .. } => Some(*target),
            PerkUse::Push { goal, .. } | PerkUse::Ruin { goal } => Some(*goal),
            PerkUse::Discover { .. } => None,
        }
    }
}

/// What a leaver spends momentum on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Spend {
    /// Victory: a vote per point on disputed events tied to the victory.
    VictoryNarration { votes: u32 },
    /// Victory: a major perk per point for an action matching the stakes.
    ClaimingStakes { perks: u32 },
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
            Spend::ClaimingStakes { perks } => MomentumSpend::ClaimingStakes { perks: *perks },
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
    Spend { challenger: Uuid, by: Uuid, spend: Spend },
    /// The leavers are gone.
    Depart,
}

/// What a challenge move did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum ChallengeEvent {
    Started {
        challenge: Uuid,
    },
    SideAdded {
        side: usize,
        name: String,
    },
    Joined {
        element: Uuid,
        side: usize,
        stake: Option<String>,
    },
    GoalAdded {
        goal: Uuid,
        side: usize,
        supporters: Vec<Uuid>,
    },
    ActionRecorded {
        action: usize,
        challenger: Uuid,
        round: u32,
        score: u32,
        opposing: u32,
        result: ActionResult,
        major_perks: u32,
        minor_perks: u32,
    },
    PerkTraded {
        action: usize,
        majors_left: u32,
        minors_left: u32,
    },
    PerkDeclared {
        action: usize,
        perk: PerkUse,
    },
    Countered {
        action: usize,
        by: Uuid,
    },
    PerkApplied {
        action: usize,
        perk: PerkName,
        target: Option<Uuid>,
    },
    Discovered {
        action: usize,
        challenger: Uuid,
        detail: String,
    },
    PerksForfeited {
        action: usize,
        majors: u32,
        minors: u32,
    },
    PerksLapsed {
        action: usize,
    },
    Complicated {
        goal: Uuid,
        trump: Uuid,
        text: String,
    },
    StakesChanged {
        challenger: Uuid,
        before: Option<String>,
        after: String,
    },
    SideChanged {
        challenger: Uuid,
        from: usize,
        to: usize,
    },
    TrumpUsed {
        effect: TrumpEffect,
    },
    RoundEnded {
        round: u32,
    },
    Leaving {
        challenger: Uuid,
        how: Leave,
        why: Why,
    },
    BoostTriggered {
        owner: BoostOwner,
        awards: u32,
        targets: Vec<Uuid>,
    },
    TrumpDrew {
        goal: Uuid,
        trump: Uuid,
        points: u32,
    },
    BoostAwarded {
        owner: BoostOwner,
        to: Uuid,
    },
    BoostLapsed {
        owner: BoostOwner,
        awards: u32,
    },
    Spent {
        challenger: Uuid,
        spend: Spend,
    },
    Left {
        challenger: Uuid,
        how: Leave,
        why: Why,
    },
    Ended {
        challenge: Uuid,
    },
    /// An element changed.
    Element {
        change: ElementEvent,
    },
    /// The action check behind a major action moved ([`roll_major_actions`]).
    Check {
        check: CheckEvent,
    },
}

impl Challenge {
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
        }
    }
}

/// What a move returns: the new challenge, the elements it changed, what happened.
pub type Step = (Challenge, Changes, Vec<ChallengeEvent>);

// ---------------------------------------------------------------------------------------
// Setting up

fn clean_stake(field: &str, stake: &Option<String>) -> Result<Option<String>> {
    match stake {
        None => Ok(None),
        Some(raw) => {
            let text = clean_text(field, raw)?;
            if text.is_empty() {
                return Err(Error::invalid(field, "state the stake, or leave it out"));
            }
            Ok(Some(text))
        }
    }
}

/// A new challenger: an element that may take part (not a goal, not gone from this
/// challenge, not locked out) joins.
fn enlist(
    ch: &mut Challenge,
    t: &mut Table,
    field: &str,
    element: Uuid,
    side: usize,
    stake: Option<String>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let e = t.get(field, element)?;
    if e.kind == ElementKind::Goal {
        return Err(Error::invalid(field, format!("{} is a goal: goals gain trumps, they do not take part", e.name)));
    }
    if ch.challenger(element).is_some() {
        return Err(Error::invalid(field, format!("{} already took part: nobody joins twice", e.name)));
    }
    if locked_out(e) {
        return Err(Error::invalid(
            field,
            format!("{}'s restraints lock out every die: it cannot take part in challenges", e.name),
        ));
    }
    if ch.challengers.len() >= MAX_CHALLENGERS {
        return Err(Error::invalid(field, format!("a challenge has at most {MAX_CHALLENGERS} challengers")));
    }
    let kind = e.kind;
    t.change(field, element, events, element::join_challenge)?;
    ch.challengers.push(Challenger {
        element,
        kind,
        side,
        stake: stake.clone(),
        status: Status::In,
        boosts_triggered: 0,
    });
    events.push(ChallengeEvent::Joined { element, side, stake });
    Ok(())
}

fn add_side(ch: &mut Challenge, field: &str, name: &str, events: &mut Vec<ChallengeEvent>) -> Result<usize> {
    if ch.sides.len() >= MAX_SIDES {
        return Err(Error::invalid(field, format!("a challenge has at most {MAX_SIDES} sides")));
    }
    let name = clean_text(field, name)?;
    ch.sides.push(Side { name: name.clone() });
    let side = ch.sides.len() - 1;
    events.push(ChallengeEvent::SideAdded { side, name });
    Ok(side)
}

fn add_goal(
    ch: &mut Challenge,
    t: &Table,
    field: &str,
    element: Uuid,
    supporters: &[Uuid],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let e = t.get(field, element)?;
    if e.kind != ElementKind::Goal {
        return Err(Error::invalid(field, format!("{} is not a goal", e.name)));
    }
    if ch.goal(element).is_some() {
        return Err(Error::invalid(field, format!("{} is already a goal of this challenge", e.name)));
    }
    let Some(first) = supporters.first() else {
        return Err(Error::invalid("supporters", "a goal has at least one supporter"));
    };
    let side = ch.active("supporters", *first)?.side;
    for (i, s) in supporters.iter().enumerate() {
        let c = ch.active(&format!("supporters[{i}]"), *s)?;
        if c.side != side {
            return Err(Error::invalid(format!("supporters[{i}]"), "a goal's supporters are all of one side"));
        }
        if supporters[..i].contains(s) {
            return Err(Error::invalid(format!("supporters[{i}]"), "each supporter once"));
        }
    }
    ch.goals.push(Goal { element, side, supporters: supporters.to_vec(), triggered: false });
    events.push(ChallengeEvent::GoalAdded { goal: element, side, supporters: supporters.to_vec() });
    Ok(())
}

/// Opens a challenge: at least two sides, each with a challenger; every challenger joins
/// (its first challenge gives it 4 edge slots; it has Plot Protection while it takes part).
pub fn start(setup: &ChallengeSetup, elements: &[Element]) -> Result<Step> {
    let description = clean_text("description", &setup.description)?;
    if !(2..=MAX_SIDES).contains(&setup.sides.len()) {
        return Err(Error::invalid(
            "sides",
            format!("a challenge has 2 to {MAX_SIDES} sides, not {}", setup.sides.len()),
        ));
    }
    let mut ch = Challenge {
        id: setup.id,
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
    };
    let mut t = Table::new(elements);
    let mut events = vec![ChallengeEvent::Started { challenge: setup.id }];
    for (i, s) in setup.sides.iter().enumerate() {
        add_side(&mut ch, &format!("sides[{i}].name"), &s.name, &mut events)?;
    }
    for (i, c) in setup.challengers.iter().enumerate() {
        if c.side >= ch.sides.len() {
            return Err(Error::invalid(format!("challengers[{i}].side"), format!("there is no side {}", c.side)));
        }
        let stake = clean_stake(&format!("challengers[{i}].stake"), &c.stake)?;
        enlist(&mut ch, &mut t, &format!("challengers[{i}].element"), c.element, c.side, stake, &mut events)?;
    }
    if let Some(empty) = (0..ch.sides.len()).find(|s| !ch.challengers.iter().any(|c| c.side == *s)) {
        return Err(Error::invalid("sides", format!("side {empty} has no challenger: each side starts with one")));
    }
    for (i, g) in setup.goals.iter().enumerate() {
        add_goal(&mut ch, &t, &format!("goals[{i}].element"), g.element, &g.supporters, &mut events)?;
    }
    Ok((ch, t.changes(), events))
}

/// The scores of a resolved action check (won, tied or settled by compromise), one per side
/// that rolled.
pub fn scores_of(check: &ActionCheck) -> Result<Vec<SideScore>> {
    let scores: Vec<SideScore> =
        check.sides.iter().filter_map(|s| s.score.map(|score| SideScore { kind: s.kind, score })).collect();
    if scores.len() < 2 {
        return Err(Error::invalid("check", "a major action compares rolled scores: resolve a rolled check first"));
    }
    Ok(scores)
}

/// Rolls and resolves an action check ([`action_check::roll`], then
/// [`record_major_actions`]) as the major action of each of `majors`. Returns the challenge,
/// the resolved check, and every player and element changed.
pub fn roll_major_actions(
    challenge: &Challenge,
    check: &ActionCheck,
    majors: &[Uuid],
    players: &[Player],
    elements: &[Element],
    source: &mut (impl DiceSource + ?Sized),
) -> Result<(Challenge, ActionCheck, Changes, Vec<ChallengeEvent>)> {
    challenge.expect(&[Phase::Rounds], "a major action is taken between others")?;
    let (rolled, rolled_events) = action_check::roll(check, elements, source)?;
    let (next, resolved, changes, more) = record_major_actions(challenge, &rolled, majors, players, elements)?;
    let events = rolled_events.into_iter().map(|check| ChallengeEvent::Check { check }).chain(more).collect();
    Ok((next, resolved, changes, events))
}

/// Resolves an action check already rolled (its Sudden Surges bought: the table saw the
/// dice first), paying its spends ([`action_check::resolve`]), and records it as the major
/// action of each of `majors`. A tie needs no tiebreak here: the tied actions each earn a
/// minor perk. Returns the challenge, the resolved check, and every player and element
/// changed.
pub fn record_major_actions(
    challenge: &Challenge,
    rolled: &ActionCheck,
    majors: &[Uuid],
    players: &[Player],
    elements: &[Element],
) -> Result<(Challenge, ActionCheck, Changes, Vec<ChallengeEvent>)> {
    challenge.expect(&[Phase::Rounds], "a major action is taken between others")?;
    let (resolved, paid, resolved_events) = action_check::resolve(rolled, players, elements)?;
    let merged: Vec<Element> =
        elements.iter().map(|e| paid.elements.iter().find(|p| p.id == e.id).unwrap_or(e).clone()).collect();
    let mv = Move::MajorActions { check: Some(rolled.id), rolls: scores_of(&resolved)?, majors: majors.to_vec() };
    let (next, recorded, more) = play(challenge, &mv, &merged)?;
    let mut changed = paid.elements;
    for e in recorded.elements {
        match changed.iter_mut().find(|c| c.id == e.id) {
            Some(slot) => *slot = e,
            None => changed.push(e),
        }
    }
    let mut events: Vec<ChallengeEvent> =
        resolved_events.into_iter().map(|check| ChallengeEvent::Check { check }).collect();
    events.extend(more);
    Ok((next, resolved, Changes { players: paid.players, elements: changed }, events))
}

// ---------------------------------------------------------------------------------------
// Moves

/// Applies one move.
pub fn play(challenge: &Challenge, mv: &Move, elements: &[Element]) -> Result<Step> {
    let mut ch = challenge.clone();
    let mut t = Table::new(elements);
    let mut events = Vec::new();
    match mv {
        Move::AddChallenger { element, joining, stake } => {
            ch.expect(&[Phase::Rounds, Phase::Perks], "a challenger joins")?;
            let stake = clean_stake("stake", stake)?;
            let side = joining_side(&mut ch, joining, None, &mut events)?;
            enlist(&mut ch, &mut t, "element", *element, side, stake, &mut events)?;
        }
        Move::AddGoal { element, supporters } => {
            ch.expect(&[Phase::Rounds, Phase::Perks], "a goal is added")?;
            add_goal(&mut ch, &t, "element", *element, supporters, &mut events)?;
        }
        Move::MajorActions { check, rolls, majors } => {
            major_actions(&mut ch, &mut t, *check, rolls, majors, &mut events)?
        }
        Move::ChangeStakes { challenger, stake, joining } => {
            change_stakes(&mut ch, &mut t, *challenger, stake, joining.as_ref(), &mut events)?
        }
        Move::Trade { action } => {
            ch.expect(&[Phase::Perks], "a perk is traded")?;
            head(&ch, *action)?;
            let a = &mut ch.actions[*action];
            if a.majors_left() == 0 {
                return Err(Error::invalid("action", "no major perk is left to trade"));
            }
            a.traded += 1;
            events.push(ChallengeEvent::PerkTraded {
                action: *action,
                majors_left: a.majors_left(),
                minors_left: a.minors_left(),
            });
        }
        Move::Declare { action, perk } => declare(&mut ch, &t, *action, perk, &mut events)?,
        Move::FinalCounter { action, element } => {
            ch.expect(&[Phase::Perks], "a Final Counter removes an open action's perks")?;
            if !ch.open.contains(action) {
                return Err(Error::invalid("action", format!("action {action} has no open perks")));
            }
            ch.active("element", *element)?;
            t.change("element", *element, &mut events, element::final_counter)?;
            ch.open.retain(|a| a != action);
            let a = &mut ch.actions[*action];
            a.declared.clear();
            a.closed = Some(Closed::Countered { by: *element });
            events.push(ChallengeEvent::Countered { action: *action, by: *element });
        }
        Move::Settle { action } => settle(&mut ch, &mut t, *action, &mut events)?,
        Move::Complicate { goal, text } => complicate(&mut ch, &mut t, *goal, text, &mut events)?,
        Move::Surrender { challenger } => surrender(&mut ch, &mut t, *challenger, &mut events)?,
        Move::EndRound { trumps } => end_round(&mut ch, &mut t, trumps, &mut events)?,
        Move::DrawTrump { points } => draw_trump(&mut ch, &mut t, *points, &mut events)?,
        Move::AwardBoost { to } => {
            ch.expect(&[Phase::Departure], "a boost is awarded")?;
            let owner = match ch.departure.as_ref().and_then(|d| d.boosts.first()) {
                Some(b) if !b.draw_pending => b.owner,
                _ => return Err(Error::invalid("to", "no award is waiting for the table's pick")),
            };
            let tied = award_candidates(&ch, &t)?;
            if !tied.contains(to) {
                return Err(Error::invalid(
                    "to",
                    "the award goes to an eligible target with the least momentum (the table picks among those tied)",
                ));
            }
            award(&mut ch, &mut t, owner, *to, &mut events)?;
            advance(&mut ch, &mut t, &mut events)?;
        }
        Move::Spend { challenger, by, spend } => spend_momentum(&mut ch, &mut t, *challenger, *by, spend, &mut events)?,
        Move::Depart => {
            ch.expect(&[Phase::Departure], "leavers depart")?;
            if ch.departure.as_ref().is_some_and(|d| !d.boosts.is_empty()) {
                return Err(Error::invalid("move", "momentum boosts are still to be awarded"));
            }
            finalize(&mut ch, &mut t, &mut events)?;
        }
    }
    Ok((ch, t.changes(), events))
}

/// The side a challenger joins: an existing side with a challenger in (other than `not`),
/// or a new one.
fn joining_side(
    ch: &mut Challenge,
    joining: &Joining,
    not: Option<usize>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<usize> {
    match joining {
        Joining::Side { side } => {
            if *side >= ch.sides.len() {
                return Err(Error::invalid("joining.side", format!("there is no side {side}")));
            }
            if not == Some(*side) {
                return Err(Error::invalid("joining.side", "the challenger is already on this side"));
            }
            if !ch.sides_in().contains(side) {
                return Err(Error::invalid(
                    "joining.side",
                    format!("side {side} has no challenger left to accept a newcomer"),
                ));
            }
            Ok(*side)
        }
        Joining::NewSide { name } => add_side(ch, "joining.name", name, events),
    }
}

fn major_actions(
    ch: &mut Challenge,
    t: &mut Table,
    check: Option<Uuid>,
    rolls: &[SideScore],
    majors: &[Uuid],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds], "a major action is taken between others")?;
    if rolls.len() < 2 {
        return Err(Error::invalid("rolls", "a major action is compared with at least one opposing roll"));
    }
    for (i, r) in rolls.iter().enumerate() {
        if r.score == 0 {
            return Err(Error::invalid(format!("rolls[{i}].score"), "a score is at least 1"));
        }
        if let SideKind::Action { element } = r.kind {
            ch.active(&format!("rolls[{i}].kind.element"), element)?;
            if rolls[..i].iter().any(|o| o.kind == r.kind) {
                return Err(Error::invalid(format!("rolls[{i}].kind.element"), "an element acts on one side only"));
            }
        }
    }
    if majors.is_empty() {
        return Err(Error::invalid("majors", "name the challengers whose major action this is"));
    }
    let mut recorded = Vec::new();
    for (i, &m) in majors.iter().enumerate() {
        let field = format!("majors[{i}]");
        let side = ch.active(&field, m)?.side;
        if majors[..i].contains(&m) {
            return Err(Error::invalid(field, "each challenger once"));
        }
        if ch.acted.contains(&m) {
            return Err(Error::invalid(field, format!("element {m} already took its major action this round")));
        }
        let Some(own) = rolls.iter().find(|r| r.kind == SideKind::Action { element: m }) else {
            return Err(Error::invalid(field, format!("element {m} does not act in this check")));
        };
        let opposing = rolls
            .iter()
            .filter(|r| match r.kind {
                SideKind::Failure => true,
                SideKind::Action { element } => ch.challenger(element).is_some_and(|c| c.side != side),
            })
            .map(|r| r.score)
            .max()
            .ok_or_else(|| Error::invalid(field.clone(), "no opposing roll: only allies rolled"))?;
        recorded.push((m, own.score, opposing));
    }
    ch.may_surrender.clear();
    ch.counterable.clear();
    for (m, score, opposing) in recorded {
        let result = compare(score, opposing);
        let (major_perks, minor_perks) = result.perks();
        let index = ch.actions.len();
        ch.actions.push(MajorAction {
            round: ch.round,
            challenger: m,
            check,
            score,
            opposing,
            result,
            major_perks,
            minor_perks,
            traded: 0,
            declared: Vec::new(),
            closed: None,
        });
        ch.acted.push(m);
        events.push(ChallengeEvent::ActionRecorded {
            action: index,
            challenger: m,
            round: ch.round,
            score,
            opposing,
            result,
            major_perks,
            minor_perks,
        });
        if result == ActionResult::Failure {
            t.change("majors", m, events, |e| element::gain_adversity(e, 1))?;
        } else {
            ch.open.push(index);
        }
    }
    Ok(())
}

fn change_stakes(
    ch: &mut Challenge,
    t: &mut Table,
    challenger: Uuid,
    stake: &str,
    joining: Option<&Joining>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds], "stakes change in place of a major action")?;
    let old_side = ch.active("challenger", challenger)?.side;
    if ch.acted.contains(&challenger) {
        return Err(Error::invalid("challenger", "it already took its major action this round"));
    }
    let after = clean_stake("stake", &Some(stake.to_owned()))?.unwrap_or_default();
    let side = match joining {
        Some(j) => Some(joining_side(ch, j, Some(old_side), events)?),
        None => None,
    };
    ch.acted.push(challenger);
    let c = ch.challenger_mut(challenger).expect("checked above");
    let before = c.stake.replace(after.clone());
    events.push(ChallengeEvent::StakesChanged { challenger, before, after });
    if let Some(to) = side {
        c.side = to;
        events.push(ChallengeEvent::SideChanged { challenger, from: old_side, to });
        for g in &mut ch.goals {
            if g.supporters.contains(&challenger) {
                g.supporters.retain(|s| *s != challenger);
                if g.supporters.is_empty() {
                    g.triggered = true;
                }
            }
        }
        check_end(ch, t, events)?;
    }
    Ok(())
}

/// The action whose perks are resolved now.
fn head(ch: &Challenge, action: usize) -> Result<()> {
    match ch.open.first() {
        Some(&first) if first == action => Ok(()),
        Some(&first) => Err(Error::invalid("action", format!("action {first}'s perks are resolved first"))),
        None => Err(Error::invalid("action", "no major action has open perks")),
    }
}

fn declare(
    ch: &mut Challenge,
    t: &Table,
    action: usize,
    perk: &PerkUse,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Perks], "a perk is declared")?;
    head(ch, action)?;
    let a = &ch.actions[action];
    if perk.name().is_major() && a.majors_left() == 0 {
        return Err(Error::invalid("perk", "this action has no major perk left"));
    }
    if !perk.name().is_major() && a.minors_left() == 0 {
        let more = if a.majors_left() > 0 { " (trade a major perk for two)" } else { "" };
        return Err(Error::invalid("perk", format!("this action has no minor perk left{more}")));
    }
    // Try every declared perk and this one on copies, in order.
    let mut trial = ch.clone();
    trial.actions[action].declared.push(perk.clone());
    let mut copy = Table::new(&t.elements);
    let mut ignored = Vec::new();
    for p in trial.actions[action].declared.clone() {
        apply_perk(&mut trial, &mut copy, action, &p, &mut ignored)?;
    }
    ch.actions[action].declared.push(perk.clone());
    ch.may_surrender.clear();
    events.push(ChallengeEvent::PerkDeclared { action, perk: perk.clone() });
    Ok(())
}

fn settle(ch: &mut Challenge, t: &mut Table, action: usize, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    ch.expect(&[Phase::Perks], "an action settles")?;
    head(ch, action)?;
    let mut forced = Vec::new();
    for p in ch.actions[action].declared.clone() {
        forced.extend(apply_perk(ch, t, action, &p, events)?);
    }
    let a = &mut ch.actions[action];
    let (majors, minors) = (a.majors_left(), a.minors_left());
    a.closed = Some(Closed::Settled);
    if majors + minors > 0 {
        events.push(ChallengeEvent::PerksForfeited { action, majors, minors });
    }
    ch.open.remove(0);
    let mut leavers: Vec<(Uuid, Leave, Why)> = Vec::new();
    for (who, why) in forced {
        if !leavers.iter().any(|(l, _, _)| *l == who) {
            leavers.push((who, Leave::Defeat, why));
        }
    }
    if !leavers.is_empty() {
        begin_departure(ch, t, leavers, events)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Perks

fn has_modifier(e: &Element, flaw: Uuid, template: Template) -> bool {
    e.modifiers_of(flaw).any(|m| m.template == Some(template))
}

fn locked_out(e: &Element) -> bool {
    action_check::restrained(&[], e.restraints().count() as u32).is_none()
}

/// A new flaw a perk gives: a flaw made from one of `allowed`, granted by play.
fn new_flaw(field: &str, flaw: &Trait, allowed: &[Template], perk: &str) -> Result<Trait> {
    if flaw.kind != TraitKind::Flaw || !flaw.template.is_some_and(|t| allowed.contains(&t)) {
        let names: Vec<&str> = allowed.iter().map(|t| t.word()).collect();
        return Err(Error::invalid(field, format!("{perk} gives a flaw made from {}", names.join(" or "))));
    }
    if matches!(flaw.template, Some(Template::Vulnerability | Template::Restraint)) && flaw.target_trait.is_some() {
        return Err(Error::invalid(format!("{field}.target_trait"), "this flaw selects no trait"));
    }
    Ok(Trait { via: Via::Granted, lasts: element::Lasts::Lasting, uses_left: None, granted_by: None, ..flaw.clone() })
}

fn modifier(flaw: Uuid, template: Template) -> Trait {
    Trait::from_template(modifier_id(flaw, template), template, template.word(), Via::Granted).on(flaw)
}

/// Adds `flaw` to `target` with `modifiers`.
fn inflict(
    t: &mut Table,
    field: &str,
    target: Uuid,
    flaw: Trait,
    modifiers: &[Template],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let id = flaw.id;
    t.change(field, target, events, |e| element::add_trait(e, &flaw, Uuid::nil()))?;
    for &m in modifiers {
        t.change(field, target, events, |e| element::add_trait(e, &modifier(id, m), Uuid::nil()))?;
    }
    Ok(())
}

/// Applies one perk of `action`; returns the challengers it forces out.
fn apply_perk(
    ch: &mut Challenge,
    t: &mut Table,
    action: usize,
    perk: &PerkUse,
    events: &mut Vec<ChallengeEvent>,
) -> Result<Vec<(Uuid, Why)>> {
    let actor = ch.actions[action].challenger;
    let actor_side = ch.active("action", actor)?.side;
    let mut forced = Vec::new();
    if let Some(target) = perk.target() {
        if !matches!(perk, PerkUse::Push { .. } | PerkUse::Ruin { .. }) {
            ch.active("perk.target", target)?;
        }
    }
    match perk {
        PerkUse::Hinder { target, flaw } => {
            let flaw = new_flaw("perk.flaw", flaw, &[Template::DulledEdge, Template::ImpairedAbility], "Hinder")?;
            ch.gained.push(Gained { element: *target, flaw: flaw.id });
            inflict(t, "perk.flaw", *target, flaw, &[Template::OneShot, Template::TransientFlaw], events)?;
        }
        PerkUse::Expose { target, flaw } => {
            let flaw = new_flaw("perk.flaw", flaw, &[Template::Vulnerability], "Expose")?;
            ch.gained.push(Gained { element: *target, flaw: flaw.id });
            inflict(t, "perk.flaw", *target, flaw, &[Template::OneShot, Template::TransientFlaw], events)?;
        }
        PerkUse::Recover { target, flaw } => {
            let e = t.get("perk.target", *target)?;
            if !ch.was_gained(*target, *flaw) {
                return Err(Error::invalid("perk.flaw", "Recover removes a flaw gained during this challenge"));
            }
            if !(has_modifier(e, *flaw, Template::OneShot) && has_modifier(e, *flaw, Template::TransientFlaw)) {
                return Err(Error::invalid(
                    "perk.flaw",
                    "Recover removes a flaw with the One-Shot and Transient Flaw modifiers",
                ));
            }
            t.change("perk.flaw", *target, events, |e| element::remove_trait(e, *flaw))?;
        }
        PerkUse::Discover { detail } => {
            let detail = clean_text("perk.detail", detail)?;
            if detail.is_empty() {
                return Err(Error::invalid("perk.detail", "say what the challenger finds"));
            }
            events.push(ChallengeEvent::Discovered { action, challenger: actor, detail });
        }
        PerkUse::Bind { target, restraint } => {
            let restraint = new_flaw("perk.restraint", restraint, &[Template::Restraint], "Bind")?;
            ch.gained.push(Gained { element: *target, flaw: restraint.id });
            inflict(t, "perk.restraint", *target, restraint, &[Template::TransientFlaw], events)?;
            if !ch.may_surrender.contains(target) {
                ch.may_surrender.push(*target);
            }
            if locked_out(t.get("perk.target", *target)?) {
                forced.push((*target, Why::LockedOut));
            }
        }
        PerkUse::BreakFree { target, restraint, flaw } => {
            let e = t.get("perk.target", *target)?;
            if !e.restraints().any(|r| r.id == *restraint) {
                return Err(Error::invalid("perk.restraint", format!("{} has no restraint {restraint}", e.name)));
            }
            if !has_modifier(e, *restraint, Template::TransientFlaw) {
                return Err(Error::invalid(
                    "perk.restraint",
                    "Break Free removes a restraint with the Transient Flaw modifier",
                ));
            }
            let flaw = new_flaw(
                "perk.flaw",
                flaw,
                &[Template::DulledEdge, Template::ImpairedAbility, Template::Vulnerability],
                "Break Free",
            )?;
            t.change("perk.restraint", *target, events, |e| element::remove_trait(e, *restraint))?;
            ch.gained.push(Gained { element: *target, flaw: flaw.id });
            inflict(t, "perk.flaw", *target, flaw, &[Template::OneShot, Template::TransientFlaw], events)?;
        }
        PerkUse::Damage { target, wound, expend, extras, takes_out } => {
            let (wound_id, base) = match wound {
                Wounding::NewFlaw { flaw } => {
                    let flaw = new_flaw(
                        "perk.wound.flaw",
                        flaw,
                        &[Template::DulledEdge, Template::ImpairedAbility, Template::Vulnerability],
                        "Damage",
                    )?;
                    let id = flaw.id;
                    ch.gained.push(Gained { element: *target, flaw: id });
                    inflict(t, "perk.wound.flaw", *target, flaw, &[Template::Wound, Template::TransientFlaw], events)?;
                    if !ch.may_surrender.contains(target) {
                        ch.may_surrender.push(*target);
                    }
                    (id, 0)
                }
                Wounding::Worsen { wound } => {
                    let e = t.get("perk.target", *target)?;
                    if !e.is_wound(*wound) {
                        return Err(Error::invalid("perk.wound.wound", format!("{} has no wound {wound}", e.name)));
                    }
                    (*wound, 2)
                }
            };
            let e = t.get("perk.target", *target)?;
            for (i, f) in expend.iter().enumerate() {
                let field = format!("perk.expend[{i}]");
                let is_flaw = e.trait_by_id(*f).is_some_and(|x| x.kind == TraitKind::Flaw);
                if !is_flaw || !has_modifier(e, *f, Template::OneShot) || *f == wound_id {
                    return Err(Error::invalid(field, format!("{} has no other One-Shot flaw {f}", e.name)));
                }
                if expend[..i].contains(f) {
                    return Err(Error::invalid(field, "each flaw is expended once"));
                }
            }
            let wanted = base + expend.len();
            if extras.len() != wanted {
                return Err(Error::invalid(
                    "perk.extras",
                    format!("the wound gains {wanted} extras here (2 for worsening a wound, 1 per One-Shot flaw expended), not {}", extras.len()),
                ));
            }
            for (i, x) in extras.iter().enumerate() {
                let field = format!("perk.extras[{i}]");
                let wound_extra = matches!(
                    x.template,
                    Some(
                        Template::CorrosiveWound
                            | Template::TargetedWound
                            | Template::PervasiveWound
                            | Template::ViciousWound
                    )
                );
                if x.kind != TraitKind::Extra || !wound_extra {
                    return Err(Error::invalid(
                        field,
                        "a wound's extras are Corrosive, Targeted, Pervasive or Vicious Wound",
                    ));
                }
                let extra = Trait { via: Via::Granted, lasts: element::Lasts::Lasting, uses_left: None, ..x.clone() }
                    .on(wound_id);
                t.change(&field, *target, events, |e| element::add_trait(e, &extra, Uuid::nil()))?;
            }
            for (i, f) in expend.iter().enumerate() {
                t.change(&format!("perk.expend[{i}]"), *target, events, |e| element::use_trait(e, *f))?;
            }
            if *takes_out {
                forced.push((*target, Why::TakenOut));
            }
        }
        PerkUse::Heal { target, wound, effect } => {
            if !ch.was_gained(*target, *wound) {
                return Err(Error::invalid("perk.wound", "Heal treats a wound gained during this challenge"));
            }
            t.change("perk.wound", *target, events, |e| heal_wound(e, *wound, effect))?;
        }
        PerkUse::Push { goal, trump } => {
            let g = ch.goal(*goal).ok_or_else(|| {
                Error::invalid("perk.goal", format!("element {goal} is not a goal of this challenge"))
            })?;
            if g.side != actor_side {
                return Err(Error::invalid("perk.goal", "Push targets a goal the acting challenger's side supports"));
            }
            if !g.supporters.iter().any(|s| ch.challenger(*s).is_some_and(Challenger::is_in)) {
                return Err(Error::invalid("perk.goal", "every supporter of this goal has left"));
            }
            let trump_trait = Trait::from_template(*trump, Template::Trump, "Trump", Via::Granted);
            t.change("perk.trump", *goal, events, |e| element::add_trait(e, &trump_trait, Uuid::nil()))?;
            ch.counterable.push(Pushed { goal: *goal, trump: *trump });
        }
        PerkUse::Ruin { goal } => {
            let g = ch.goal(*goal).ok_or_else(|| {
                Error::invalid("perk.goal", format!("element {goal} is not a goal of this challenge"))
            })?;
            if g.side == actor_side {
                return Err(Error::invalid(
                    "perk.goal",
                    "Ruin targets a goal the acting challenger's side can interfere with (another side's)",
                ));
            }
            let e = t.get("perk.goal", *goal)?;
            let last = e
                .traits
                .iter()
                .rev()
                .find(|x| x.template == Some(Template::Trump))
                .map(|x| x.id)
                .ok_or_else(|| Error::invalid("perk.goal", format!("{} has no trump to lose", e.name)))?;
            ruin(t, "perk.goal", *goal, last, events)?;
        }
    }
    events.push(ChallengeEvent::PerkApplied { action, perk: perk.name(), target: perk.target() });
    Ok(forced)
}

/// A goal loses `trump` and gains a point of momentum, unless its momentum protects its
/// trumps.
fn ruin(t: &mut Table, field: &str, goal: Uuid, trump: Uuid, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    let e = t.get(field, goal)?;
    if e.ruin_proof() {
        return Err(Error::invalid(
            field,
            format!(
                "{} holds {} momentum, at least twice its {} trumps: they are protected",
                e.name,
                e.momentum,
                e.trumps()
            ),
        ));
    }
    t.change(field, goal, events, |e| element::remove_trait(e, trump))?;
    t.change(field, goal, events, |e| element::gain_momentum(e, 1, MomentumSource::Ruin))
}

/// Heal's (and Treat Wounds') effect on a Transient wound.
fn heal_wound(e: &Element, wound: Uuid, effect: &HealEffect) -> Result<(Element, Vec<ElementEvent>)> {
    if !e.is_wound(wound) {
        return Err(Error::invalid("wound", format!("{} has no wound {wound}", e.name)));
    }
    if !has_modifier(e, wound, Template::TransientFlaw) {
        return Err(Error::invalid("wound", "only a wound with the Transient Flaw modifier is healed"));
    }
    let extras: Vec<&Trait> = e.extras_of(wound).collect();
    let is = |id: Uuid, template: Template| extras.iter().any(|x| x.id == id && x.template == Some(template));
    match effect {
        HealEffect::RemoveExtras { extras: removed } => {
            if !(1..=2).contains(&removed.len()) {
                return Err(Error::invalid("effect.extras", "Heal removes 1 or 2 extras"));
            }
            for (i, x) in removed.iter().enumerate() {
                if !extras.iter().any(|y| y.id == *x) || removed[..i].contains(x) {
                    return Err(Error::invalid(
                        format!("effect.extras[{i}]"),
                        format!("the wound has no other extra {x}"),
                    ));
                }
            }
            let vicious_left =
                extras.iter().any(|y| y.template == Some(Template::ViciousWound) && !removed.contains(&y.id));
            if vicious_left && removed.iter().any(|x| !is(*x, Template::ViciousWound)) {
                return Err(Error::invalid(
                    "effect.extras",
                    "every Vicious Wound extra goes before any other extra can be removed",
                ));
            }
            let kept =
                |template: Template| extras.iter().any(|y| y.template == Some(template) && !removed.contains(&y.id));
            if kept(Template::PervasiveWound) && !kept(Template::TargetedWound) {
                return Err(Error::invalid(
                    "effect.extras",
                    "a Pervasive Wound needs its Targeted Wound: remove it first",
                ));
            }
            let mut next = e.clone();
            let mut events = Vec::new();
            for x in removed {
                let (after, more) = element::remove_trait(&next, *x)?;
                next = after;
                events.extend(more);
            }
            Ok((next, events))
        }
        HealEffect::OneShot => {
            if !extras.is_empty() {
                return Err(Error::invalid("effect", "only a wound with no extras turns One-Shot"));
            }
            let modifier_ids: Vec<Uuid> =
                e.modifiers_of(wound).filter(|m| m.template == Some(Template::Wound)).map(|m| m.id).collect();
            let mut next = e.clone();
            let mut events = Vec::new();
            for m in modifier_ids {
                let (after, more) = element::remove_trait(&next, m)?;
                next = after;
                events.extend(more);
            }
            if !has_modifier(&next, wound, Template::OneShot) {
                let (after, more) = element::add_trait(&next, &modifier(wound, Template::OneShot), Uuid::nil())?;
                next = after;
                events.extend(more);
            }
            Ok((next, events))
        }
    }
}

fn complicate(
    ch: &mut Challenge,
    t: &mut Table,
    goal: Uuid,
    text: &str,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds, Phase::Perks], "a complication counters a Push")?;
    if ch.open.first().is_some_and(|&a| !ch.actions[a].declared.is_empty()) {
        return Err(Error::invalid("move", "a complication waits until the declared perks settle"));
    }
    let text = clean_text("text", text)?;
    if text.is_empty() {
        return Err(Error::invalid("text", "describe why the task is not finished yet"));
    }
    let Some(i) = ch.counterable.iter().rposition(|p| p.goal == goal) else {
        return Err(Error::invalid("goal", "no Push on this goal can be countered now"));
    };
    let trump = ch.counterable[i].trump;
    if t.get("goal", goal)?.trait_by_id(trump).is_none() {
        return Err(Error::invalid("goal", "the trump this Push added is already gone"));
    }
    ruin(t, "goal", goal, trump, events)?;
    ch.counterable.remove(i);
    events.push(ChallengeEvent::Complicated { goal, trump, text });
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Rounds, leaving, the end

fn surrender(ch: &mut Challenge, t: &mut Table, challenger: Uuid, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    ch.expect(&[Phase::Rounds, Phase::Perks], "a challenger surrenders")?;
    let side = ch.active("challenger", challenger)?.side;
    let declared = ch.open.first().is_some_and(|&a| !ch.actions[a].declared.is_empty());
    if ch.may_surrender.contains(&challenger) && !declared {
        ch.may_surrender.retain(|c| *c != challenger);
    } else {
        if !ch.open.is_empty() {
            return Err(Error::invalid("move", "a challenger surrenders: the open perks are resolved first"));
        }
        if ch.acted.contains(&challenger) {
            return Err(Error::invalid(
                "challenger",
                "surrendering takes a major action, and it already took one this round",
            ));
        }
        ch.acted.push(challenger);
    }
    let how = if ch.opponents_in(side).is_empty() { Leave::Victory } else { Leave::Defeat };
    begin_departure(ch, t, vec![(challenger, how, Why::Surrender)], events)
}

fn end_round(
    ch: &mut Challenge,
    t: &mut Table,
    trumps: &[TrumpEffect],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds], "a round ends")?;
    let mut leavers: Vec<(Uuid, Leave, Why)> = Vec::new();
    for (i, effect) in trumps.iter().enumerate() {
        let field = format!("trumps[{i}]");
        let goal = effect.goal();
        let g = ch.goal(goal).ok_or_else(|| Error::invalid(&field, format!("element {goal} is not a goal here")))?;
        if trumps[..i].iter().any(|o| o.goal() == goal) {
            return Err(Error::invalid(field, "each goal uses one trump effect at a round's end"));
        }
        let held = t.get(&field, goal)?.trumps();
        let supporters: Vec<Uuid> =
            g.supporters.iter().copied().filter(|s| ch.challenger(*s).is_some_and(Challenger::is_in)).collect();
        let (group, how, why, whom) = match effect {
            TrumpEffect::VictoriousWithdrawal { .. } => (supporters, Leave::Victory, Why::Withdrawal, "supporters"),
            TrumpEffect::DefeatedExile { .. } => (ch.opponents_in(g.side), Leave::Defeat, Why::Exile, "opponents"),
        };
        if group.is_empty() {
            return Err(Error::invalid(field, format!("the goal has no {whom} still in")));
        }
        if held < group.len() as u32 {
            return Err(Error::invalid(
                field,
                format!("the goal holds {held} trumps and has {} {whom} still in: it needs as many", group.len()),
            ));
        }
        for who in group {
            match leavers.iter().find(|(l, _, _)| *l == who) {
                Some((_, h, _)) if *h != how => {
                    return Err(Error::invalid(field, format!("element {who} cannot both withdraw and be exiled")));
                }
                Some(_) => {}
                None => leavers.push((who, how, why)),
            }
        }
        events.push(ChallengeEvent::TrumpUsed { effect: *effect });
    }
    events.push(ChallengeEvent::RoundEnded { round: ch.round });
    ch.round += 1;
    ch.acted.clear();
    ch.may_surrender.clear();
    ch.counterable.clear();
    if !leavers.is_empty() {
        begin_departure(ch, t, leavers, events)?;
    }
    Ok(())
}

/// Challengers start leaving: their open perks lapse, their boosts and any goal's trumps left
/// with no supporter trigger, and the awards that need no choice are given.
fn begin_departure(
    ch: &mut Challenge,
    t: &mut Table,
    leavers: Vec<(Uuid, Leave, Why)>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    debug_assert!(ch.departure.is_none());
    let mut ids = Vec::new();
    for (who, how, why) in &leavers {
        if let Some(c) = ch.challenger_mut(*who) {
            c.status = Status::Leaving { how: *how, why: *why };
        }
        events.push(ChallengeEvent::Leaving { challenger: *who, how: *how, why: *why });
        ids.push(*who);
    }
    let lapsing: Vec<usize> = ch.open.iter().copied().filter(|&a| ids.contains(&ch.actions[a].challenger)).collect();
    for a in lapsing {
        ch.actions[a].closed = Some(Closed::Lapsed);
        ch.actions[a].declared.clear();
        ch.open.retain(|o| *o != a);
        events.push(ChallengeEvent::PerksLapsed { action: a });
    }
    ch.may_surrender.retain(|c| !ids.contains(c));
    let mut boosts = Vec::new();
    for &who in &ids {
        let awards = ch.boosts_held(t.get("elements", who)?);
        if awards == 0 {
            continue;
        }
        let side = ch.challenger(who).map_or(0, |c| c.side);
        let targets: Vec<Uuid> = ch
            .challengers
            .iter()
            .filter(|c| c.side != side && !matches!(c.status, Status::Left { .. }))
            .map(|c| c.element)
            .collect();
        if let Some(c) = ch.challenger_mut(who) {
            c.boosts_triggered += awards;
        }
        let owner = BoostOwner::Challenger { element: who };
        events.push(ChallengeEvent::BoostTriggered { owner, awards, targets: targets.clone() });
        boosts.push(Boost { owner, targets, awards, draw_pending: false });
    }
    for gi in 0..ch.goals.len() {
        let g = &ch.goals[gi];
        if g.triggered || g.supporters.iter().any(|s| ch.challenger(*s).is_some_and(Challenger::is_in)) {
            continue;
        }
        let goal = g.element;
        let targets: Vec<Uuid> =
            g.supporters.iter().copied().filter(|s| ch.challenger(*s).is_some_and(|c| c.leaving().is_some())).collect();
        ch.goals[gi].triggered = true;
        let e = t.get("elements", goal)?;
        let trumps: Vec<Uuid> = e.traits.iter().filter(|x| x.template == Some(Template::Trump)).map(|x| x.id).collect();
        for trump in trumps {
            let owner = BoostOwner::Trump { goal, trump };
            events.push(ChallengeEvent::BoostTriggered { owner, awards: 1, targets: targets.clone() });
            boosts.push(Boost { owner, targets: targets.clone(), awards: 1, draw_pending: true });
        }
    }
    ch.departure = Some(Departure { leavers: ids, boosts });
    advance(ch, t, events)
}

/// The targets that may get the next award of the first boost: eligible (taking part, under
/// the 5-award limit) and tied on the least momentum.
fn award_candidates(ch: &Challenge, t: &Table) -> Result<Vec<Uuid>> {
    let Some(boost) = ch.departure.as_ref().and_then(|d| d.boosts.first()) else { return Ok(Vec::new()) };
    let mut eligible = Vec::new();
    for &id in &boost.targets {
        let e = t.get("elements", id)?;
        if e.in_challenge && e.momentum_awards < MAX_MOMENTUM_AWARDS {
            eligible.push((id, e.momentum));
        }
    }
    let least = eligible.iter().map(|(_, m)| *m).min();
    Ok(eligible.into_iter().filter(|(_, m)| Some(*m) == least).map(|(id, _)| id).collect())
}

fn award(
    ch: &mut Challenge,
    t: &mut Table,
    owner: BoostOwner,
    to: Uuid,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    t.change("to", to, events, |e| element::gain_momentum(e, 1, MomentumSource::Boost))?;
    if let Some(b) = ch.departure.as_mut().and_then(|d| d.boosts.first_mut()) {
        b.awards -= 1;
    }
    events.push(ChallengeEvent::BoostAwarded { owner, to });
    Ok(())
}

/// Gives the awards that need no choice; closes the departure once nothing is left to award
/// or spend.
fn advance(ch: &mut Challenge, t: &mut Table, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    loop {
        let Some(d) = &ch.departure else { return Ok(()) };
        let Some(b) = d.boosts.first().cloned() else {
            let mut nothing_to_spend = true;
            for id in &d.leavers {
                let momentum = t.get("elements", *id)?.momentum;
                let min = match ch.challenger(*id).and_then(Challenger::leaving) {
                    Some(Leave::Victory) => 1,
                    _ => 2,
                };
                if momentum >= min {
                    nothing_to_spend = false;
                }
            }
            if nothing_to_spend {
                finalize(ch, t, events)?;
                continue;
            }
            return Ok(());
        };
        if b.draw_pending {
            let BoostOwner::Trump { goal, .. } = b.owner else { unreachable!("only trumps draw") };
            if t.get("elements", goal)?.momentum > 0 {
                return Ok(());
            }
            if let Some(first) = ch.departure.as_mut().and_then(|d| d.boosts.first_mut()) {
                first.draw_pending = false;
            }
            continue;
        }
        if b.awards == 0 {
            pop_boost(ch);
            continue;
        }
        let tied = award_candidates(ch, t)?;
        match tied[..] {
            [] => {
                events.push(ChallengeEvent::BoostLapsed { owner: b.owner, awards: b.awards });
                pop_boost(ch);
            }
            [to] => award(ch, t, b.owner, to, events)?,
            _ => return Ok(()),
        }
    }
}

fn pop_boost(ch: &mut Challenge) {
    if let Some(d) = ch.departure.as_mut() {
        if !d.boosts.is_empty() {
            d.boosts.remove(0);
        }
    }
}

fn draw_trump(ch: &mut Challenge, t: &mut Table, points: u32, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    ch.expect(&[Phase::Departure], "a trump draws from its goal")?;
    let (goal, trump) = match ch.departure.as_ref().and_then(|d| d.boosts.first()) {
        Some(Boost { owner: BoostOwner::Trump { goal, trump }, draw_pending: true, .. }) => (*goal, *trump),
        _ => return Err(Error::invalid("points", "no triggered trump is waiting to draw momentum")),
    };
    let held = t.get("elements", goal)?.momentum;
    let most = held.min(MAX_TRUMP_TRANSFER);
    if points > most {
        return Err(Error::invalid(
            "points",
            format!("the trump draws at most {most} (its goal holds {held}; {MAX_TRUMP_TRANSFER} at most)"),
        ));
    }
    if points > 0 {
        let spend = MomentumSpend::TrumpTransfer { trump, points };
        t.change("points", goal, events, |e| element::spend_momentum(e, &spend, Uuid::nil()))?;
    }
    if let Some(b) = ch.departure.as_mut().and_then(|d| d.boosts.first_mut()) {
        b.draw_pending = false;
        b.awards += points;
    }
    events.push(ChallengeEvent::TrumpDrew { goal, trump, points });
    advance(ch, t, events)
}

fn spend_momentum(
    ch: &mut Challenge,
    t: &mut Table,
    challenger: Uuid,
    by: Uuid,
    spend: &Spend,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Departure], "momentum is spent when leaving")?;
    let d = ch.departure.as_ref().expect("a departure");
    if !d.leavers.contains(&challenger) {
        return Err(Error::invalid("challenger", format!("element {challenger} is not leaving now")));
    }
    if !d.boosts.is_empty() {
        return Err(Error::invalid("move", "momentum is spent once every boost is awarded"));
    }
    let c = ch.challenger(challenger).expect("a leaver is a challenger");
    let how = c.leaving().expect("leaving");
    match (how, spend.for_victory()) {
        (Leave::Defeat, true) => {
            return Err(Error::invalid("spend", "a defeated challenger only turns momentum into adversity"));
        }
        (Leave::Victory, false) => {
            return Err(Error::invalid("spend", "only a defeated challenger turns momentum into adversity"));
        }
        _ => {}
    }
    if let Spend::ClaimingStakes { .. } = spend {
        if c.stake.is_none() {
            return Err(Error::invalid("spend", "claiming stakes needs stakes: this challenger set none"));
        }
    }
    if let Spend::LastingEffect { element: target, flaw, transient, part_of_stake } = spend {
        let involved = ch.challenger(*target).is_some() || ch.goal(*target).is_some();
        if !(involved || *part_of_stake && c.stake.is_some()) {
            return Err(Error::invalid(
                "spend.element",
                "a lasting effect targets an element of this challenge or of the spender's stake",
            ));
        }
        let e = t.get("spend.element", *target)?;
        if !e.trait_by_id(*flaw).is_some_and(|x| x.kind == TraitKind::Flaw) {
            return Err(Error::invalid("spend.flaw", format!("{} has no flaw {flaw}", e.name)));
        }
        let has = e.modifiers_of(*flaw).find(|m| m.template == Some(Template::TransientFlaw)).map(|m| m.id);
        let momentum = spend.momentum();
        t.change("challenger", challenger, events, |e| element::spend_momentum(e, &momentum, by))?;
        match (has, transient) {
            (None, true) => {
                let m = modifier(*flaw, Template::TransientFlaw);
                t.change("spend.flaw", *target, events, |e| element::add_trait(e, &m, Uuid::nil()))?;
            }
            (Some(m), false) => t.change("spend.flaw", *target, events, |e| element::remove_trait(e, m))?,
            (Some(_), true) => {
                return Err(Error::invalid("spend.transient", "the flaw already has the Transient Flaw modifier"))
            }
            (None, false) => {
                return Err(Error::invalid("spend.transient", "the flaw has no Transient Flaw modifier to remove"))
            }
        }
    } else {
        let momentum = spend.momentum();
        t.change("challenger", challenger, events, |e| element::spend_momentum(e, &momentum, by))?;
    }
    events.push(ChallengeEvent::Spent { challenger, spend: spend.clone() });
    advance(ch, t, events)
}

/// The leavers are gone; when no challenger has an opponent left, the rest leave in victory,
/// and when nobody is left the challenge ends.
fn finalize(ch: &mut Challenge, t: &mut Table, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    let d = ch.departure.take().expect("a departure");
    for id in d.leavers {
        t.change("elements", id, events, element::leave_challenge)?;
        let c = ch.challenger_mut(id).expect("a leaver is a challenger");
        if let Status::Leaving { how, why } = c.status {
            c.status = Status::Left { how, why };
            events.push(ChallengeEvent::Left { challenger: id, how, why });
        }
    }
    check_end(ch, t, events)
}

fn check_end(ch: &mut Challenge, t: &mut Table, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    if ch.departure.is_some() || ch.over {
        return Ok(());
    }
    let remaining: Vec<Uuid> = ch.remaining().map(|c| c.element).collect();
    match ch.sides_in().len() {
        0 => {
            let everyone: Vec<Uuid> =
                ch.challengers.iter().map(|c| c.element).chain(ch.goals.iter().map(|g| g.element)).collect();
            for id in everyone {
                t.change("elements", id, events, element::challenge_ended)?;
            }
            ch.over = true;
            ch.open.clear();
            ch.may_surrender.clear();
            ch.counterable.clear();
            events.push(ChallengeEvent::Ended { challenge: ch.id });
            Ok(())
        }
        1 => {
            let leavers = remaining.into_iter().map(|id| (id, Leave::Victory, Why::NoOpponents)).collect();
            begin_departure(ch, t, leavers, events)
        }
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------
// Reading a challenge: what the table may do next, and a stored or imported one's problems

/// The targets the table picks among for the next momentum-boost award (tied on the least
/// momentum); empty when no award waits for a pick.
pub fn award_choices(challenge: &Challenge, elements: &[Element]) -> Result<Vec<Uuid>> {
    match challenge.departure.as_ref().and_then(|d| d.boosts.first()) {
        Some(b) if !b.draw_pending => {
            let tied = award_candidates(challenge, &Table::new(elements))?;
            Ok(if tied.len() > 1 { tied } else { Vec::new() })
        }
        _ => Ok(Vec::new()),
    }
}

/// The least momentum a leaver needs to spend anything: 1 in victory, 2 in defeat.
pub fn least_spend(how: Leave) -> u32 {
    match how {
        Leave::Victory => 1,
        Leave::Defeat => 2,
    }
}

impl Challenger {
    /// How it is leaving or left, and why (None while it is in).
    pub fn gone(&self) -> Option<(Leave, Why)> {
        match self.status {
            Status::In => None,
            Status::Leaving { how, why } | Status::Left { how, why } => Some((how, why)),
        }
    }
}

impl Challenge {
    /// Every story element the challenge names: challengers, then goals.
    pub fn elements(&self) -> Vec<Uuid> {
        self.challengers.iter().map(|c| c.element).chain(self.goals.iter().map(|g| g.element)).collect()
    }

    /// The challenge with every element id `new_id` maps (an import as copies gives copied
    /// characters new ids); the challenge's own id and flaws, trumps and sides stay.
    pub fn map_elements(&mut self, new_id: impl Fn(Uuid) -> Uuid) {
        let map = |ids: &mut Vec<Uuid>| ids.iter_mut().for_each(|id| *id = new_id(*id));
        for c in &mut self.challengers {
            c.element = new_id(c.element);
        }
        for g in &mut self.goals {
            g.element = new_id(g.element);
            map(&mut g.supporters);
        }
        for a in &mut self.actions {
            a.challenger = new_id(a.challenger);
            if let Some(Closed::Countered { by }) = &mut a.closed {
                *by = new_id(*by);
            }
            for p in &mut a.declared {
                match p {
                    PerkUse::Hinder { target, .. }
                    | PerkUse::Recover { target, .. }
                    | PerkUse::Expose { target, .. }
                    | PerkUse::Bind { target, .. }
                    | PerkUse::BreakFree { target, .. }
                    | PerkUse::Damage { target, .. }
                    | PerkUse::Heal { target, .. } => *target = new_id(*target),
                    PerkUse::Push { goal, .. } | PerkUse::Ruin { goal } => *goal = new_id(*goal),
                    PerkUse::Discover { .. } => {}
                }
            }
        }
        map(&mut self.acted);
        map(&mut self.may_surrender);
        for g in &mut self.gained {
            g.element = new_id(g.element);
        }
        for p in &mut self.counterable {
            p.goal = new_id(p.goal);
        }
        if let Some(d) = &mut self.departure {
            map(&mut d.leavers);
            for b in &mut d.boosts {
                match &mut b.owner {
                    BoostOwner::Challenger { element } => *element = new_id(*element),
                    BoostOwner::Trump { goal, .. } => *goal = new_id(*goal),
                }
                map(&mut b.targets);
            }
        }
    }

    /// Everything wrong with a stored or imported challenge, each at its path below the
    /// challenge: what the moves never leave (a side that does not exist, a challenger twice,
    /// an open action that is closed, a leaver that is not leaving…). Empty for every
    /// challenge [`start`] and [`play`] make. Whether its elements are at the table is the
    /// caller's to check ([`Challenge::elements`]).
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut problem = |path: String, message: String| out.push(Problem { path, message });
        // Every lookup goes through these sets, so a challenge read from a file costs time
        // in proportion to its size, whatever it holds.
        let challengers: HashSet<Uuid> = self.challengers.iter().map(|c| c.element).collect();
        let goals: HashSet<Uuid> = self.goals.iter().map(|g| g.element).collect();
        let sides: HashMap<Uuid, usize> = self.challengers.iter().rev().map(|c| (c.element, c.side)).collect();
        let challenger = |id: Uuid| challengers.contains(&id);
        if clean_text("description", &self.description).is_err() {
            problem(
                "description".into(),
                format!("at most {} characters, no control characters", element::MAX_TEXT_CHARS),
            );
        }
        if self.round == 0 {
            problem("round".into(), "rounds count from 1".into());
        }
        if !(2..=MAX_SIDES).contains(&self.sides.len()) {
            problem("sides".into(), format!("a challenge has 2 to {MAX_SIDES} sides"));
        }
        for (i, s) in self.sides.iter().enumerate().take(MAX_SIDES + 1) {
            if clean_text("name", &s.name).is_err() {
                problem(format!("sides[{i}].name"), "at most 2000 characters, no control characters".into());
            }
        }
        if self.challengers.len() > MAX_CHALLENGERS {
            problem("challengers".into(), format!("at most {MAX_CHALLENGERS} challengers"));
        }
        let leavers: HashSet<Uuid> = self.departure.iter().flat_map(|d| d.leavers.iter().copied()).collect();
        let mut seen = HashSet::new();
        for (i, c) in self.challengers.iter().enumerate() {
            let at = format!("challengers[{i}]");
            if !seen.insert(c.element) {
                problem(format!("{at}.element"), format!("{} takes part once", c.element));
            }
            if c.kind == ElementKind::Goal {
                problem(format!("{at}.kind"), "a goal is never a challenger".into());
            }
            if c.side >= self.sides.len() {
                problem(format!("{at}.side"), format!("there is no side {}", c.side));
            }
            if c.stake.as_deref().is_some_and(|s| clean_stake("stake", &Some(s.to_owned())).is_err()) {
                problem(format!("{at}.stake"), "a stake is stated in at most 2000 characters".into());
            }
            if c.boosts_triggered > MAX_BOOSTS_PER_OWNER {
                problem(format!("{at}.boosts_triggered"), format!("at most {MAX_BOOSTS_PER_OWNER}"));
            }
            let leaver = leavers.contains(&c.element);
            if leaver != matches!(c.status, Status::Leaving { .. }) {
                problem(format!("{at}.status"), "the challengers leaving are the departure's leavers".into());
            }
        }
        let mut seen = HashSet::new();
        for (i, g) in self.goals.iter().enumerate() {
            let at = format!("goals[{i}]");
            if !seen.insert(g.element) || challenger(g.element) {
                problem(format!("{at}.element"), format!("{} is named twice", g.element));
            }
            if g.side >= self.sides.len() {
                problem(format!("{at}.side"), format!("there is no side {}", g.side));
            }
            let mut supporters = HashSet::new();
            for (j, s) in g.supporters.iter().enumerate() {
                if !supporters.insert(*s) || sides.get(s) != Some(&g.side) {
                    problem(
                        format!("{at}.supporters[{j}]"),
                        "a supporter is a challenger of the goal's side, once".into(),
                    );
                }
            }
        }
        let open: HashSet<usize> = self.open.iter().copied().collect();
        for (i, a) in self.actions.iter().enumerate() {
            let at = format!("actions[{i}]");
            if !challenger(a.challenger) {
                problem(format!("{at}.challenger"), format!("{} is not a challenger", a.challenger));
            }
            if a.round == 0 || a.round > self.round {
                problem(format!("{at}.round"), format!("must be 1 to {}", self.round));
            }
            if a.score == 0 || a.opposing == 0 || compare(a.score, a.opposing) != a.result {
                problem(format!("{at}.result"), "scores of at least 1, and the result they give".into());
            }
            if (a.major_perks, a.minor_perks) != a.result.perks() || a.traded > a.major_perks {
                problem(format!("{at}.major_perks"), "the perks its result gives (and no more traded)".into());
            }
            let is_open = open.contains(&i);
            let failed = a.result == ActionResult::Failure;
            let waiting = a.closed.is_none() && !failed && !self.over;
            if (is_open && (a.closed.is_some() || failed)) || (!is_open && waiting) {
                problem(format!("{at}.closed"), "an action is open until its perks are closed".into());
            }
            if !a.declared.is_empty() && !matches!(a.closed, None | Some(Closed::Settled)) {
                problem(format!("{at}.declared"), "a countered or lapsed action keeps no perks".into());
            }
            // Counted in u64: the perks and trades come from a file and may be anything.
            let majors = a.declared.iter().filter(|p| p.name().is_major()).count() as u64;
            let minors = a.declared.len() as u64 - majors;
            let major_room = u64::from(a.major_perks.saturating_sub(a.traded));
            let minor_room = u64::from(a.minor_perks) + u64::from(MINORS_PER_TRADE) * u64::from(a.traded);
            if majors > major_room || minors > minor_room {
                problem(format!("{at}.declared"), "more perks declared than the action has".into());
            }
        }
        let mut seen = HashSet::new();
        for (i, o) in self.open.iter().enumerate() {
            if *o >= self.actions.len() || !seen.insert(*o) {
                problem(format!("open[{i}]"), format!("action {o} is not an action, or open twice"));
            }
        }
        for (name, ids) in [("acted", &self.acted), ("may_surrender", &self.may_surrender)] {
            let mut seen = HashSet::new();
            for (i, id) in ids.iter().enumerate() {
                if !seen.insert(*id) || !challenger(*id) {
                    problem(format!("{name}[{i}]"), format!("{id} is not a challenger, or named twice"));
                }
            }
        }
        for (i, g) in self.gained.iter().enumerate() {
            if !challenger(g.element) {
                problem(format!("gained[{i}].element"), format!("{} is not a challenger", g.element));
            }
        }
        for (i, p) in self.counterable.iter().enumerate() {
            if !goals.contains(&p.goal) {
                problem(format!("counterable[{i}].goal"), format!("{} is not a goal of this challenge", p.goal));
            }
        }
        if let Some(d) = &self.departure {
            if d.leavers.is_empty() {
                problem("departure.leavers".into(), "a departure has leavers".into());
            }
            let mut seen = HashSet::new();
            for (i, l) in d.leavers.iter().enumerate() {
                if !seen.insert(*l) {
                    problem(format!("departure.leavers[{i}]"), format!("{l} is named twice"));
                }
            }
            for (i, b) in d.boosts.iter().enumerate() {
                let at = format!("departure.boosts[{i}]");
                let owner_known = match b.owner {
                    BoostOwner::Challenger { element } => challenger(element),
                    BoostOwner::Trump { goal, .. } => goals.contains(&goal),
                };
                if !owner_known {
                    problem(
                        format!("{at}.owner"),
                        "a boost's owner is a challenger or a goal of this challenge".into(),
                    );
                }
                if b.draw_pending && !matches!(b.owner, BoostOwner::Trump { .. }) {
                    problem(format!("{at}.draw_pending"), "only a trump draws momentum from its goal".into());
                }
                for (j, t) in b.targets.iter().enumerate() {
                    if !challenger(*t) {
                        problem(format!("{at}.targets[{j}]"), format!("{t} is not a challenger"));
                    }
                }
            }
        }
        if self.over && (self.departure.is_some() || !self.open.is_empty() || self.remaining().next().is_some()) {
            problem("over".into(), "a challenge is over once every challenger left".into());
        }
        out
    }
}

// ---------------------------------------------------------------------------------------
// Rest & recuperation

/// Whether a Vicious Wound's Recovery Check was met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryCheck {
    /// No check was made.
    #[default]
    NotMade,
    /// The action check to recover succeeded.
    Passed,
    /// The character took triple the time: no check is needed.
    AmpleTime,
}

fn outside(e: &Element) -> Result<()> {
    if e.in_challenge {
        return Err(Error::invalid(
            "element",
            format!("{} is in a challenge: restorative actions are for after it", e.name),
        ));
    }
    Ok(())
}

/// Take Breather: Recover without the "gained during this challenge" limit — removes a flaw
/// with the One-Shot and Transient Flaw modifiers.
pub fn take_breather(element: &Element, flaw: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    outside(element)?;
    if !element.trait_by_id(flaw).is_some_and(|t| t.kind == TraitKind::Flaw) {
        return Err(Error::invalid("flaw", format!("{} has no flaw {flaw}", element.name)));
    }
    if !(has_modifier(element, flaw, Template::OneShot) && has_modifier(element, flaw, Template::TransientFlaw)) {
        return Err(Error::invalid(
            "flaw",
            "a breather shakes off a flaw with the One-Shot and Transient Flaw modifiers",
        ));
    }
    element::remove_trait(element, flaw)
}

/// Escape Restraints: Break Free with no new flaw — removes a Transient restraint.
pub fn escape_restraints(element: &Element, restraint: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    outside(element)?;
    if !element.restraints().any(|r| r.id == restraint) {
        return Err(Error::invalid("restraint", format!("{} has no restraint {restraint}", element.name)));
    }
    if !has_modifier(element, restraint, Template::TransientFlaw) {
        return Err(Error::invalid("restraint", "only a restraint with the Transient Flaw modifier is escaped"));
    }
    element::remove_trait(element, restraint)
}

/// Treat Wounds: Heal without the "gained during this challenge" limit. A wound with a
/// Vicious Wound extra needs a passed Recovery Check or triple the time.
pub fn treat_wounds(
    element: &Element,
    wound: Uuid,
    effect: &HealEffect,
    recovery: RecoveryCheck,
) -> Result<(Element, Vec<ElementEvent>)> {
    outside(element)?;
    let vicious = element.extras_of(wound).any(|x| x.template == Some(Template::ViciousWound));
    if vicious && recovery == RecoveryCheck::NotMade {
        return Err(Error::invalid(
            "recovery",
            "a Vicious Wound needs a Recovery Check first (or triple the time to skip it)",
        ));
    }
    heal_wound(element, wound, effect)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::dice::Entered;
    use crate::rules::mezzo::action_check::{BaseChance, CheckSetup, SideSetup as CheckSideSetup};
    use crate::rules::mezzo::element::{Lasts, ProtectionSource};

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    const ADA: u128 = 1;
    const MIRA: u128 = 10;
    const JON: u128 = 11;
    const OGRE: u128 = 20;
    const WALL: u128 = 21;
    const COVE: u128 = 30;
    const LAIR: u128 = 31;
    const CHALLENGE: u128 = 99;

    /// Mira and Jon (side 0) against the ogre and the wall it guards (side 1); the cove the
    /// heroes run for, the lair the ogre guards.
    fn elements() -> Vec<Element> {
        vec![
            Element::new(id(MIRA), ElementKind::Character, "Mira").unwrap(),
            Element::new(id(JON), ElementKind::Character, "Jon").unwrap(),
            Element::new(id(OGRE), ElementKind::Character, "Ogre").unwrap(),
            Element::new(id(WALL), ElementKind::Location, "Wall").unwrap(),
            Element::new(id(COVE), ElementKind::Goal, "Reach the cove").unwrap(),
            Element::new(id(LAIR), ElementKind::Goal, "Guard the lair").unwrap(),
        ]
    }

    fn joins(element: u128, side: usize, stake: Option<&str>) -> ChallengerSetup {
        ChallengerSetup { element: id(element), side, stake: stake.map(str::to_owned) }
    }

    fn setup() -> ChallengeSetup {
        ChallengeSetup {
            id: id(CHALLENGE),
            description: "Run from the ogre".into(),
            sides: vec![SideSetup { name: "Heroes".into() }, SideSetup { name: "The ogre".into() }],
            challengers: vec![
                joins(MIRA, 0, Some("Reach the cove")),
                joins(JON, 0, None),
                joins(OGRE, 1, None),
                joins(WALL, 1, None),
            ],
            goals: vec![
                GoalSetup { element: id(COVE), supporters: vec![id(MIRA), id(JON)] },
                GoalSetup { element: id(LAIR), supporters: vec![id(OGRE)] },
            ],
        }
    }

    /// A challenge being played, with the elements as the moves left them.
    struct Game {
        ch: Challenge,
        els: Vec<Element>,
        events: Vec<ChallengeEvent>,
    }

    impl Game {
        fn new() -> Game {
            Game::from(&setup(), elements())
        }

        fn from(setup: &ChallengeSetup, els: Vec<Element>) -> Game {
            let (ch, changes, events) = start(setup, &els).unwrap();
            Game { ch, els: merge(&els, &changes.elements), events }
        }

        fn try_play(&mut self, mv: Move) -> Result<()> {
            let (ch, changes, events) = play(&self.ch, &mv, &self.els)?;
            self.ch = ch;
            self.els = merge(&self.els, &changes.elements);
            self.events = events;
            Ok(())
        }

        fn play(&mut self, mv: Move) -> &mut Game {
            let shown = format!("{mv:?}");
            self.try_play(mv).unwrap_or_else(|e| panic!("{shown}: {e}"));
            self
        }

        /// The move's error; the game is unchanged.
        fn err(&self, mv: Move) -> String {
            play(&self.ch, &mv, &self.els).unwrap_err().to_string()
        }

        fn el(&self, who: u128) -> &Element {
            self.els.iter().find(|e| e.id == id(who)).unwrap()
        }

        fn set(&mut self, who: u128, f: impl Fn(&mut Element)) {
            for e in &mut self.els {
                if e.id == id(who) {
                    f(e);
                }
            }
        }

        fn status(&self, who: u128) -> Status {
            self.ch.challenger(id(who)).unwrap().status
        }

        /// `actor` rolls `score` against `opposing` by `against`, as its major action.
        fn act(&mut self, actor: u128, score: u32, against: u128, opposing: u32) -> usize {
            self.play(roll(&[(actor, score), (against, opposing)], &[actor]));
            self.ch.actions.len() - 1
        }

        /// `actor` takes a double success and uses `perks` at once (trading a major perk when
        /// a minor one is wanted).
        fn perks(&mut self, actor: u128, against: u128, perks: Vec<PerkUse>) -> usize {
            let action = self.act(actor, 8, against, 4);
            for p in perks {
                if !p.name().is_major() && self.ch.actions[action].minors_left() == 0 {
                    self.play(Move::Trade { action });
                }
                self.play(Move::Declare { action, perk: p });
            }
            self.play(Move::Settle { action });
            action
        }

        fn has(&self, kind: impl Fn(&ChallengeEvent) -> bool) -> bool {
            self.events.iter().any(kind)
        }
    }

    fn merge(all: &[Element], changed: &[Element]) -> Vec<Element> {
        all.iter().map(|e| changed.iter().find(|c| c.id == e.id).unwrap_or(e).clone()).collect()
    }

    fn roll(scores: &[(u128, u32)], majors: &[u128]) -> Move {
        Move::MajorActions {
            check: None,
            rolls: scores
                .iter()
                .map(|&(who, score)| SideScore { kind: SideKind::Action { element: id(who) }, score })
                .collect(),
            majors: majors.iter().map(|&m| id(m)).collect(),
        }
    }

    fn flaw(n: u128, template: Template, name: &str) -> Box<Trait> {
        Box::new(Trait::from_template(id(n), template, name, Via::Granted))
    }

    fn extra(n: u128, template: Template) -> Trait {
        Trait::from_template(id(n), template, template.word(), Via::Granted)
    }

    fn bind(target: u128, n: u128) -> PerkUse {
        PerkUse::Bind { target: id(target), restraint: flaw(n, Template::Restraint, "Grappled") }
    }

    fn wound(target: u128, n: u128) -> PerkUse {
        PerkUse::Damage {
            target: id(target),
            wound: Wounding::NewFlaw { flaw: flaw(n, Template::Vulnerability, "Bleeding") },
            expend: vec![],
            extras: vec![],
            takes_out: false,
        }
    }

    fn hinder(target: u128, n: u128) -> PerkUse {
        PerkUse::Hinder { target: id(target), flaw: flaw(n, Template::ImpairedAbility, "Winded") }
    }

    fn templates_on(e: &Element, flaw: u128) -> Vec<Template> {
        let mut all: Vec<Template> = e.modifiers_of(id(flaw)).filter_map(|m| m.template).collect();
        all.sort_by_key(|t| t.word());
        all
    }

    /// Gives `who` `n` wounds this challenge inflicted (ids from `from`).
    fn wounded(g: &mut Game, who: u128, n: u128, from: u128) {
        for k in 0..n {
            let f = Trait::from_template(id(from + k), Template::Vulnerability, "Cut", Via::Granted);
            let e = element::add_trait(g.el(who), &f, id(ADA)).unwrap().0;
            let e = element::add_trait(&e, &modifier(id(from + k), Template::Wound), id(ADA)).unwrap().0;
            g.set(who, |x| *x = e.clone());
            g.ch.gained.push(Gained { element: id(who), flaw: id(from + k) });
        }
    }

    // --- setting up

    #[test]
    fn a_challenge_opens_with_two_sides_each_with_a_challenger_who_joins() {
        let g = Game::new();
        assert_eq!((g.ch.phase(), g.ch.round, g.ch.sides.len()), (Phase::Rounds, 1, 2));
        for who in [MIRA, JON, OGRE, WALL] {
            let e = g.el(who);
            assert!(e.in_challenge, "{}", e.name);
            assert_eq!(e.edge_slots(), 4, "the first challenge gives {} 4 edge slots", e.name);
            assert_eq!(e.protection_sources(), vec![ProtectionSource::Challenge], "Protected Event");
        }
        assert_eq!(g.ch.challenger(id(WALL)).unwrap().kind, ElementKind::Location, "an obstacle");
        assert_eq!(g.ch.challenger(id(MIRA)).unwrap().stake.as_deref(), Some("Reach the cove"));
        assert_eq!(g.ch.goal(id(COVE)).unwrap().side, 0);

        let mut one_side = setup();
        one_side.sides.pop();
        assert_eq!(err(start(&one_side, &elements())), "sides: a challenge has 2 to 8 sides, not 1");
        let mut empty_side = setup();
        empty_side.sides.push(SideSetup::default());
        assert_eq!(err(start(&empty_side, &elements())), "sides: side 2 has no challenger: each side starts with one");
        let mut goal_in = setup();
        goal_in.challengers.push(joins(COVE, 1, None));
        assert_eq!(
            err(start(&goal_in, &elements())),
            "challengers[4].element: Reach the cove is a goal: goals gain trumps, they do not take part"
        );
        let mut blank = setup();
        blank.challengers[1].stake = Some("  ".into());
        assert_eq!(err(start(&blank, &elements())), "challengers[1].stake: state the stake, or leave it out");
        let mut mixed = setup();
        mixed.goals[0].supporters = vec![id(MIRA), id(OGRE)];
        assert_eq!(err(start(&mixed, &elements())), "supporters[1]: a goal's supporters are all of one side");
        let busy = merge(&elements(), &[element::join_challenge(&elements()[0]).unwrap().0]);
        assert_eq!(err(start(&setup(), &busy)), "element: Mira is already in a challenge");
    }

    #[test]
    fn an_element_whose_restraints_lock_out_every_die_cannot_join() {
        let mut els = elements();
        for k in 0..5 {
            let r = Trait::from_template(id(200 + k), Template::Restraint, "Chain", Via::Granted);
            els[2] = element::add_trait(&els[2], &r, id(ADA)).unwrap().0;
        }
        assert_eq!(
            err(start(&setup(), &els)),
            "challengers[2].element: Ogre's restraints lock out every die: it cannot take part in challenges"
        );
    }

    #[test]
    fn challengers_join_a_side_with_someone_in_or_a_new_side_and_never_come_back() {
        let mut els = elements();
        els.push(Element::new(id(40), ElementKind::Faction, "Bandits").unwrap());
        els.push(Element::new(id(41), ElementKind::Character, "Kit").unwrap());
        let mut g = Game::from(&setup(), els);
        g.play(Move::AddChallenger {
            element: id(40),
            joining: Joining::NewSide { name: "Bandits".into() },
            stake: Some("Loot".into()),
        });
        assert_eq!(g.ch.challenger(id(40)).unwrap().side, 2);
        assert!(g.el(40).in_challenge);
        g.play(Move::AddChallenger { element: id(41), joining: Joining::Side { side: 0 }, stake: None });
        assert_eq!(g.ch.challenger(id(41)).unwrap().side, 0);
        assert_eq!(
            g.err(Move::AddChallenger { element: id(41), joining: Joining::Side { side: 0 }, stake: None }),
            "element: Kit already took part: nobody joins twice"
        );
        assert_eq!(
            g.err(Move::AddChallenger { element: id(COVE), joining: Joining::Side { side: 9 }, stake: None }),
            "joining.side: there is no side 9"
        );
    }

    // --- major actions

    #[test]
    fn a_major_action_is_compared_with_the_highest_opposing_roll() {
        assert_eq!(compare(5, 4), ActionResult::Success);
        assert_eq!(compare(7, 4), ActionResult::Success);
        assert_eq!(compare(8, 4), ActionResult::DoubleSuccess, "double or more");
        assert_eq!(compare(12, 1), ActionResult::DoubleSuccess);
        assert_eq!(compare(4, 4), ActionResult::Tie);
        assert_eq!(compare(3, 4), ActionResult::Failure);
        assert_eq!(
            [ActionResult::DoubleSuccess, ActionResult::Success, ActionResult::Tie, ActionResult::Failure]
                .map(ActionResult::perks),
            [(2, 0), (1, 0), (0, 1), (0, 0)]
        );

        // Against a failure side and the wall: the highest (5) counts; Jon's 9 is an ally's.
        let mut g = Game::new();
        g.play(Move::MajorActions {
            check: None,
            rolls: vec![
                SideScore { kind: SideKind::Action { element: id(MIRA) }, score: 7 },
                SideScore { kind: SideKind::Action { element: id(JON) }, score: 9 },
                SideScore { kind: SideKind::Action { element: id(WALL) }, score: 5 },
                SideScore { kind: SideKind::Failure, score: 3 },
            ],
            majors: vec![id(MIRA)],
        });
        let a = &g.ch.actions[0];
        assert_eq!((a.score, a.opposing, a.result, a.major_perks, a.minor_perks), (7, 5, ActionResult::Success, 1, 0));
        assert_eq!(g.ch.phase(), Phase::Perks);
        assert_eq!(g.ch.acted, vec![id(MIRA)]);
    }

    #[test]
    fn perks_and_trades_of_any_size_are_problems_not_overflows() {
        let mut g = Game::new();
        let action = g.act(MIRA, 8, OGRE, 4);
        assert_eq!(g.ch.problems(), vec![]);
        for (minor_perks, traded) in [(u32::MAX, 0), (0, u32::MAX), (u32::MAX, u32::MAX)] {
            let mut ch = g.ch.clone();
            ch.actions[action].minor_perks = minor_perks;
            ch.actions[action].traded = traded;
            let paths: Vec<_> = ch.problems().into_iter().map(|p| p.path).collect();
            assert_eq!(paths, ["actions[0].major_perks"], "{minor_perks} {traded}");
            assert_eq!(ch.actions[action].minors_left(), u32::MAX, "saturates");
        }
    }

    #[test]
    fn a_challenge_with_many_challengers_is_one_cap_problem_found_in_linear_time() {
        let mut ch = Game::new().ch;
        let extra = ch.challengers[0].clone();
        ch.challengers.extend((0..200_000).map(|n| Challenger { element: id(1_000 + n), ..extra.clone() }));
        ch.acted = ch.challengers.iter().map(|c| c.element).collect();
        let problems = ch.problems();
        assert_eq!(problems[0].path, "challengers");
        assert_eq!(problems.len(), 1, "{:?}", &problems[..3]);
    }

    #[test]
    fn tied_major_actions_each_gain_a_minor_perk_and_a_lower_roll_gains_adversity() {
        let mut g = Game::new();
        g.play(roll(&[(MIRA, 6), (OGRE, 6)], &[MIRA, OGRE]));
        let results: Vec<(ActionResult, u32, u32)> =
            g.ch.actions.iter().map(|a| (a.result, a.major_perks, a.minor_perks)).collect();
        assert_eq!(results, vec![(ActionResult::Tie, 0, 1), (ActionResult::Tie, 0, 1)]);
        assert_eq!(g.ch.open, vec![0, 1]);

        // A failure: the ogre (3) against the wall's ally Jon (5), paying its debt first.
        let mut g = Game::new();
        g.set(OGRE, |e| e.adversity_debt = 1);
        g.play(roll(&[(JON, 5), (OGRE, 3)], &[JON, OGRE]));
        assert_eq!(g.ch.actions[1].result, ActionResult::Failure);
        assert_eq!((g.el(OGRE).adversity, g.el(OGRE).adversity_debt), (0, 0), "the point paid the debt");
        assert_eq!(g.ch.actions[0].result, ActionResult::Success, "5 is not double 3");
        assert_eq!(g.ch.open, vec![0], "a failure has no perks to resolve");
        g.play(Move::Settle { action: 0 }).play(Move::EndRound { trumps: vec![] });
        g.play(roll(&[(JON, 5), (OGRE, 3)], &[OGRE]));
        assert_eq!(g.el(OGRE).adversity, 1);
        assert!(g.has(|e| matches!(e, ChallengeEvent::Element { change: ElementEvent::AdversityGained { .. } })));
    }

    #[test]
    fn each_challenger_takes_one_major_action_a_round() {
        let mut g = Game::new();
        g.play(roll(&[(MIRA, 3), (OGRE, 5)], &[MIRA]));
        assert_eq!(
            g.err(roll(&[(MIRA, 9), (OGRE, 5)], &[MIRA])),
            format!("majors[0]: element {} already took its major action this round", id(MIRA))
        );
        assert_eq!(
            g.err(roll(&[(JON, 9)], &[JON])),
            "rolls: a major action is compared with at least one opposing roll"
        );
        assert_eq!(g.err(roll(&[(JON, 9), (MIRA, 2)], &[JON])), "majors[0]: no opposing roll: only allies rolled");
        assert_eq!(g.err(roll(&[(JON, 0), (OGRE, 2)], &[JON])), "rolls[0].score: a score is at least 1");
        assert_eq!(
            g.err(roll(&[(JON, 4), (OGRE, 2)], &[WALL])),
            format!("majors[0]: element {} does not act in this check", id(WALL))
        );
        assert_eq!(
            g.err(roll(&[(JON, 4), (COVE, 2)], &[JON])),
            format!("rolls[1].kind.element: element {} is not a challenger here", id(COVE))
        );
        g.play(Move::EndRound { trumps: vec![] });
        assert_eq!((g.ch.round, g.ch.acted.len()), (2, 0));
        g.play(roll(&[(MIRA, 9), (OGRE, 5)], &[MIRA]));
        assert_eq!(g.ch.actions[1].round, 2);
        assert_eq!(
            g.err(Move::EndRound { trumps: vec![] }),
            "move: a round ends: a major action's perks are being resolved"
        );
    }

    #[test]
    fn a_major_action_may_change_stakes_and_sides_instead() {
        let mut g = Game::new();
        g.play(Move::ChangeStakes {
            challenger: id(JON),
            stake: "Take the ogre's gold".into(),
            joining: Some(Joining::Side { side: 1 }),
        });
        let jon = g.ch.challenger(id(JON)).unwrap();
        assert_eq!((jon.side, jon.stake.as_deref()), (1, Some("Take the ogre's gold")));
        assert_eq!(g.ch.goal(id(COVE)).unwrap().supporters, vec![id(MIRA)], "no longer the heroes' goal");
        assert!(g.ch.acted.contains(&id(JON)), "it was Jon's major action");
        assert_eq!(
            g.err(roll(&[(JON, 9), (MIRA, 2)], &[JON])),
            format!("majors[0]: element {} already took its major action this round", id(JON))
        );
        assert_eq!(
            g.err(Move::ChangeStakes {
                challenger: id(MIRA),
                stake: "x".into(),
                joining: Some(Joining::Side { side: 0 })
            }),
            "joining.side: the challenger is already on this side"
        );
        // Mira, the last hero, joins the ogre: nobody has an opponent left, all win.
        g.play(Move::ChangeStakes {
            challenger: id(MIRA),
            stake: "Share the gold".into(),
            joining: Some(Joining::Side { side: 1 }),
        });
        assert_eq!(g.ch.phase(), Phase::Over);
        assert!(g
            .ch
            .challengers
            .iter()
            .all(|c| c.status == Status::Left { how: Leave::Victory, why: Why::NoOpponents }));
    }

    // --- perks

    #[test]
    fn a_major_perk_trades_for_two_minor_perks() {
        let mut g = Game::new();
        let action = g.act(MIRA, 5, OGRE, 4);
        assert_eq!((g.ch.actions[action].majors_left(), g.ch.actions[action].minors_left()), (1, 0));
        assert_eq!(
            g.err(Move::Declare { action, perk: hinder(OGRE, 100) }),
            "perk: this action has no minor perk left (trade a major perk for two)"
        );
        g.play(Move::Trade { action });
        assert_eq!((g.ch.actions[action].majors_left(), g.ch.actions[action].minors_left()), (0, 2));
        assert_eq!(g.err(Move::Trade { action }), "action: no major perk is left to trade");
        assert_eq!(g.err(Move::Declare { action, perk: bind(OGRE, 100) }), "perk: this action has no major perk left");
        g.play(Move::Declare { action, perk: hinder(OGRE, 100) });
        g.play(Move::Declare { action, perk: PerkUse::Discover { detail: "A loose stone".into() } });
        assert_eq!(
            g.err(Move::Declare { action, perk: hinder(OGRE, 101) }),
            "perk: this action has no minor perk left"
        );
        g.play(Move::Settle { action });
        assert!(g.el(OGRE).trait_by_id(id(100)).is_some());
        assert_eq!(g.ch.phase(), Phase::Rounds);
    }

    #[test]
    fn hinder_and_expose_give_one_shot_transient_flaws_of_their_templates() {
        let mut g = Game::new();
        let action = g.act(MIRA, 8, OGRE, 4);
        g.play(Move::Trade { action });
        assert_eq!(
            g.err(Move::Declare {
                action,
                perk: PerkUse::Hinder { target: id(OGRE), flaw: flaw(100, Template::Vulnerability, "Open") }
            }),
            "perk.flaw: Hinder gives a flaw made from Dulled Edge or Impaired Ability"
        );
        assert_eq!(
            g.err(Move::Declare {
                action,
                perk: PerkUse::Expose { target: id(OGRE), flaw: flaw(100, Template::Restraint, "Open") }
            }),
            "perk.flaw: Expose gives a flaw made from Vulnerability"
        );
        g.play(Move::Declare { action, perk: hinder(OGRE, 100) });
        g.play(Move::Declare {
            action,
            perk: PerkUse::Expose { target: id(WALL), flaw: flaw(101, Template::Vulnerability, "Crumbling") },
        });
        g.play(Move::Settle { action });
        assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::OneShot, Template::TransientFlaw]);
        assert_eq!(templates_on(g.el(WALL), 101), vec![Template::OneShot, Template::TransientFlaw]);
        assert_eq!(
            g.el(OGRE).trait_by_id(modifier_id(id(100), Template::OneShot)).unwrap().target_trait,
            Some(id(100))
        );
        assert_eq!(
            g.ch.gained,
            vec![Gained { element: id(OGRE), flaw: id(100) }, Gained { element: id(WALL), flaw: id(101) }]
        );
        assert!(
            g.has(|e| matches!(e, ChallengeEvent::PerksForfeited { majors: 1, minors: 0, .. })),
            "the unused major"
        );
    }

    #[test]
    fn recover_removes_a_one_shot_transient_flaw_gained_in_this_challenge() {
        let mut els = elements();
        let old = Trait::from_template(id(150), Template::Vulnerability, "Old scar", Via::Granted);
        els[2] = element::add_trait(&els[2], &old, id(ADA)).unwrap().0;
        for m in [Template::OneShot, Template::TransientFlaw] {
            els[2] = element::add_trait(&els[2], &modifier(id(150), m), id(ADA)).unwrap().0;
        }
        let mut g = Game::from(&setup(), els);
        g.perks(MIRA, OGRE, vec![hinder(OGRE, 100), wound(OGRE, 101)]);
        let action = g.act(OGRE, 8, MIRA, 4);
        g.play(Move::Trade { action });
        assert_eq!(
            g.err(Move::Declare { action, perk: PerkUse::Recover { target: id(OGRE), flaw: id(150) } }),
            "perk.flaw: Recover removes a flaw gained during this challenge"
        );
        assert_eq!(
            g.err(Move::Declare { action, perk: PerkUse::Recover { target: id(OGRE), flaw: id(101) } }),
            "perk.flaw: Recover removes a flaw with the One-Shot and Transient Flaw modifiers"
        );
        g.play(Move::Declare { action, perk: PerkUse::Recover { target: id(OGRE), flaw: id(100) } });
        g.play(Move::Settle { action });
        let ogre = g.el(OGRE);
        assert!(ogre.trait_by_id(id(100)).is_none() && ogre.modifiers_of(id(100)).next().is_none());
        assert!(ogre.trait_by_id(id(101)).is_some() && ogre.trait_by_id(id(150)).is_some());
    }

    #[test]
    fn discover_adds_a_detail_found_by_the_acting_challenger() {
        let mut g = Game::new();
        g.play(roll(&[(JON, 4), (OGRE, 4)], &[JON]));
        assert_eq!(
            g.err(Move::Declare { action: 0, perk: PerkUse::Discover { detail: " ".into() } }),
            "perk.detail: say what the challenger finds"
        );
        g.play(Move::Declare { action: 0, perk: PerkUse::Discover { detail: "A rope ladder".into() } });
        g.play(Move::Settle { action: 0 });
        assert!(g.has(
            |e| *e == ChallengeEvent::Discovered { action: 0, challenger: id(JON), detail: "A rope ladder".into() }
        ));
    }

    #[test]
    fn bind_gives_a_transient_restraint_and_all_five_lock_the_challenger_out_in_defeat() {
        let mut els = elements();
        for k in 0..4 {
            let r = Trait::from_template(id(200 + k), Template::Restraint, "Chain", Via::Granted);
            els[2] = element::add_trait(&els[2], &r, id(ADA)).unwrap().0;
        }
        let mut g = Game::from(&setup(), els);
        assert!(!locked_out(g.el(OGRE)), "four restraints: the ogre still rolls d4s");
        g.perks(MIRA, OGRE, vec![bind(OGRE, 100)]);
        assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::TransientFlaw]);
        assert_eq!(g.el(OGRE).restraints().count(), 5);
        // Locked out: the ogre leaves in defeat; its one boost (this challenge's restraint,
        // not the four old chains) waits for the table to pick between Mira and Jon.
        assert_eq!(g.status(OGRE), Status::Leaving { how: Leave::Defeat, why: Why::LockedOut });
        assert_eq!(g.ch.phase(), Phase::Departure);
        assert_eq!(g.ch.departure.as_ref().unwrap().boosts[0].awards, 1);
        assert_eq!(g.err(Move::AwardBoost { to: id(WALL) }).split(':').next(), Some("to"));
        g.play(Move::AwardBoost { to: id(JON) });
        assert_eq!((g.el(JON).momentum, g.el(JON).momentum_awards), (1, 1));
        assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::LockedOut }, "nothing to spend");
        assert!(!g.el(OGRE).in_challenge);
        assert_eq!(g.ch.phase(), Phase::Rounds, "the wall fights on");
    }

    #[test]
    fn break_free_swaps_a_transient_restraint_for_a_minor_one_shot_flaw() {
        let mut els = elements();
        let chain = Trait::from_template(id(150), Template::Restraint, "Old chain", Via::Granted);
        els[2] = element::add_trait(&els[2], &chain, id(ADA)).unwrap().0;
        let mut g = Game::from(&setup(), els);
        g.perks(MIRA, OGRE, vec![bind(OGRE, 100)]);
        let action = g.act(OGRE, 8, MIRA, 4);
        let free =
            |restraint: u128, f: Box<Trait>| PerkUse::BreakFree { target: id(OGRE), restraint: id(restraint), flaw: f };
        assert_eq!(
            g.err(Move::Declare { action, perk: free(150, flaw(101, Template::Vulnerability, "Sore")) }),
            "perk.restraint: Break Free removes a restraint with the Transient Flaw modifier"
        );
        assert_eq!(
            g.err(Move::Declare { action, perk: free(100, flaw(101, Template::Restraint, "Sore")) }),
            "perk.flaw: Break Free gives a flaw made from Dulled Edge or Impaired Ability or Vulnerability"
        );
        g.play(Move::Declare { action, perk: free(100, flaw(101, Template::Vulnerability, "Sore wrists")) });
        g.play(Move::Settle { action });
        let ogre = g.el(OGRE);
        assert_eq!(ogre.restraints().map(|r| r.id).collect::<Vec<_>>(), vec![id(150)]);
        assert_eq!(templates_on(ogre, 101), vec![Template::OneShot, Template::TransientFlaw]);
    }

    #[test]
    fn damage_wounds_or_worsens_a_wound_and_expends_one_shot_flaws_for_extras() {
        let mut g = Game::new();
        g.perks(MIRA, OGRE, vec![hinder(OGRE, 100), wound(OGRE, 101)]);
        assert!(g.el(OGRE).is_wound(id(101)));
        assert_eq!(templates_on(g.el(OGRE), 101), vec![Template::TransientFlaw, Template::Wound]);
        assert!(g.ch.may_surrender.contains(&id(OGRE)), "a wound: it may surrender at once");

        let action = g.act(JON, 8, OGRE, 4);
        let worsen = |extras: Vec<Trait>, expend: Vec<Uuid>| PerkUse::Damage {
            target: id(OGRE),
            wound: Wounding::Worsen { wound: id(101) },
            expend,
            extras,
            takes_out: false,
        };
        assert_eq!(
            g.err(Move::Declare { action, perk: worsen(vec![extra(110, Template::ViciousWound)], vec![]) }),
            "perk.extras: the wound gains 2 extras here (2 for worsening a wound, 1 per One-Shot flaw expended), not 1"
        );
        assert_eq!(
            g.err(Move::Declare {
                action,
                perk: worsen(vec![extra(110, Template::CorrosiveWound), extra(111, Template::ViciousWound)], vec![])
            }),
            "target_trait: Corrosive Wound is an extra of a wound made with the Dulled Edge template"
        );
        assert_eq!(
            g.err(Move::Declare { action, perk: worsen(vec![], vec![id(101)]) }),
            format!("perk.expend[0]: Ogre has no other One-Shot flaw {}", id(101))
        );
        // 2 extras for worsening, a third for the Hinder flaw expended.
        g.play(Move::Declare {
            action,
            perk: worsen(
                vec![
                    extra(110, Template::ViciousWound),
                    extra(111, Template::ViciousWound),
                    extra(112, Template::ViciousWound),
                ],
                vec![id(100)],
            ),
        });
        g.play(Move::Declare {
            action,
            perk: PerkUse::Damage {
                target: id(WALL),
                wound: Wounding::NewFlaw { flaw: flaw(120, Template::Vulnerability, "Cracked") },
                expend: vec![],
                extras: vec![],
                takes_out: true,
            },
        });
        g.play(Move::Settle { action });
        let ogre = g.el(OGRE);
        assert_eq!(ogre.extras_of(id(101)).count(), 3);
        assert!(ogre.trait_by_id(id(100)).is_none(), "the One-Shot flaw was used up");
        // Taken out: the wall's new wound gives a boost, Mira and Jon tie for it.
        assert_eq!(g.status(WALL), Status::Leaving { how: Leave::Defeat, why: Why::TakenOut });
        g.play(Move::AwardBoost { to: id(JON) });
        assert_eq!((g.el(JON).momentum, g.el(MIRA).momentum), (1, 0));
        assert_eq!(g.status(WALL), Status::Left { how: Leave::Defeat, why: Why::TakenOut }, "nothing to convert");
    }

    #[test]
    fn heal_removes_two_extras_vicious_first_or_turns_a_bare_wound_one_shot() {
        let mut g = Game::new();
        g.perks(OGRE, MIRA, vec![wound(MIRA, 100), wound(MIRA, 101)]);
        g.play(Move::EndRound { trumps: vec![] });
        let worsen = PerkUse::Damage {
            target: id(MIRA),
            wound: Wounding::Worsen { wound: id(100) },
            expend: vec![],
            extras: vec![extra(110, Template::ViciousWound), extra(111, Template::Fortified)],
            takes_out: false,
        };
        let action = g.act(OGRE, 8, MIRA, 4);
        assert!(g.err(Move::Declare { action, perk: worsen }).starts_with("perk.extras[1]"));
        let worsen = PerkUse::Damage {
            target: id(MIRA),
            wound: Wounding::Worsen { wound: id(100) },
            expend: vec![],
            extras: vec![extra(110, Template::ViciousWound), extra(111, Template::ViciousWound)],
            takes_out: false,
        };
        g.play(Move::Declare { action, perk: worsen });
        g.play(Move::Settle { action });
        let mira = g.el(MIRA);
        assert_eq!(mira.extras_of(id(100)).count(), 2);

        let heal = |wound: u128, effect: HealEffect| PerkUse::Heal { target: id(MIRA), wound: id(wound), effect };
        let action = g.act(JON, 8, OGRE, 4);
        assert_eq!(
            g.err(Move::Declare { action, perk: heal(100, HealEffect::OneShot) }),
            "effect: only a wound with no extras turns One-Shot"
        );
        assert_eq!(
            g.err(Move::Declare { action, perk: heal(100, HealEffect::RemoveExtras { extras: vec![] }) }),
            "effect.extras: Heal removes 1 or 2 extras"
        );
        g.play(Move::Declare { action, perk: heal(100, HealEffect::RemoveExtras { extras: vec![id(110), id(111)] }) });
        g.play(Move::Declare { action, perk: heal(101, HealEffect::OneShot) });
        g.play(Move::Settle { action });
        let mira = g.el(MIRA);
        assert_eq!(mira.extras_of(id(100)).count(), 0);
        assert!(!mira.is_wound(id(101)), "no longer a wound");
        assert_eq!(templates_on(mira, 101), vec![Template::OneShot, Template::TransientFlaw]);
        assert_eq!(g.ch.boosts_held(mira), 1, "only the wound still a wound gives a boost");
    }

    #[test]
    fn heal_keeps_its_order_vicious_before_others_and_targeted_under_pervasive() {
        let base = Element::new(id(MIRA), ElementKind::Character, "Mira").unwrap();
        let add = |e: &Element, t: Trait| element::add_trait(e, &t, id(ADA)).unwrap().0;
        let mut mira = add(&base, Trait::from_template(id(100), Template::ImpairedAbility, "Bad leg", Via::Granted));
        for m in [Template::Wound, Template::TransientFlaw] {
            mira = add(&mira, modifier(id(100), m));
        }
        mira = add(&mira, extra(110, Template::TargetedWound).on(id(100)));
        mira = add(&mira, extra(111, Template::PervasiveWound).on(id(100)));
        mira = add(&mira, extra(112, Template::ViciousWound).on(id(100)));
        let remove = |ids: &[u128]| HealEffect::RemoveExtras { extras: ids.iter().map(|&n| id(n)).collect() };
        assert_eq!(
            err(heal_wound(&mira, id(100), &remove(&[111]))),
            "effect.extras: every Vicious Wound extra goes before any other extra can be removed"
        );
        assert_eq!(
            err(heal_wound(&mira, id(100), &remove(&[112, 110]))),
            "effect.extras: a Pervasive Wound needs its Targeted Wound: remove it first"
        );
        let (healed, _) = heal_wound(&mira, id(100), &remove(&[112, 111])).unwrap();
        assert_eq!(healed.extras_of(id(100)).map(|x| x.id).collect::<Vec<_>>(), vec![id(110)]);
    }

    #[test]
    fn heal_treats_only_a_transient_wound_gained_in_this_challenge() {
        let mut els = elements();
        let add = |e: &Element, t: Trait| element::add_trait(e, &t, id(ADA)).unwrap().0;
        els[0] = add(&els[0], Trait::from_template(id(150), Template::Vulnerability, "Old wound", Via::Granted));
        els[0] = add(&els[0], modifier(id(150), Template::Wound));
        let mut g = Game::from(&setup(), els);
        let action = g.act(JON, 8, OGRE, 4);
        assert_eq!(
            g.err(Move::Declare {
                action,
                perk: PerkUse::Heal { target: id(MIRA), wound: id(150), effect: HealEffect::OneShot }
            }),
            "perk.wound: Heal treats a wound gained during this challenge"
        );
        let mira = g.el(MIRA).clone();
        assert_eq!(
            err(heal_wound(&mira, id(150), &HealEffect::OneShot)),
            "wound: only a wound with the Transient Flaw modifier is healed"
        );
    }

    #[test]
    fn push_adds_a_trump_ruin_takes_one_for_a_point_of_momentum_unless_protected() {
        let mut g = Game::new();
        let action = g.act(MIRA, 8, OGRE, 4);
        assert_eq!(
            g.err(Move::Declare { action, perk: PerkUse::Push { goal: id(LAIR), trump: id(300) } }),
            "perk.goal: Push targets a goal the acting challenger's side supports"
        );
        assert_eq!(
            g.err(Move::Declare { action, perk: PerkUse::Ruin { goal: id(COVE) } }),
            "perk.goal: Ruin targets a goal the acting challenger's side can interfere with (another side's)"
        );
        assert_eq!(
            g.err(Move::Declare { action, perk: PerkUse::Ruin { goal: id(LAIR) } }),
            "perk.goal: Guard the lair has no trump to lose"
        );
        g.play(Move::Declare { action, perk: PerkUse::Push { goal: id(COVE), trump: id(300) } });
        g.play(Move::Declare { action, perk: PerkUse::Push { goal: id(COVE), trump: id(301) } });
        g.play(Move::Settle { action });
        assert_eq!(g.el(COVE).trumps(), 2);

        let action = g.act(OGRE, 5, MIRA, 4);
        g.play(Move::Declare { action, perk: PerkUse::Ruin { goal: id(COVE) } });
        g.play(Move::Settle { action });
        assert_eq!((g.el(COVE).trumps(), g.el(COVE).momentum), (1, 1));
        assert!(g.el(COVE).trait_by_id(id(300)).is_some(), "the last trump went");

        g.set(COVE, |e| e.momentum = 2);
        let action = g.act(WALL, 5, JON, 4);
        assert_eq!(
            g.err(Move::Declare { action, perk: PerkUse::Ruin { goal: id(COVE) } }),
            "perk.goal: Reach the cove holds 2 momentum, at least twice its 1 trumps: they are protected"
        );
    }

    #[test]
    fn a_complication_counters_a_push_until_the_next_major_action() {
        let mut g = Game::new();
        g.perks(MIRA, OGRE, vec![PerkUse::Push { goal: id(COVE), trump: id(300) }]);
        assert_eq!(
            g.err(Move::Complicate { goal: id(LAIR), text: "The tide".into() }),
            "goal: no Push on this goal can be countered now"
        );
        g.play(Move::Complicate { goal: id(COVE), text: "The tide is in".into() });
        assert_eq!((g.el(COVE).trumps(), g.el(COVE).momentum), (0, 1));
        assert!(g.err(Move::Complicate { goal: id(COVE), text: "Again".into() }).starts_with("goal: no Push"));

        g.perks(JON, OGRE, vec![PerkUse::Push { goal: id(COVE), trump: id(301) }]);
        g.act(OGRE, 2, JON, 4);
        assert_eq!(
            g.err(Move::Complicate { goal: id(COVE), text: "Fog".into() }),
            "goal: no Push on this goal can be countered now"
        );
        assert_eq!(g.el(COVE).trumps(), 1);
    }

    #[test]
    fn a_final_counter_removes_every_perk_of_an_action() {
        let mut g = Game::new();
        let action = g.act(MIRA, 8, OGRE, 4);
        g.play(Move::Declare { action, perk: bind(OGRE, 100) });
        g.play(Move::FinalCounter { action, element: id(OGRE) });
        assert_eq!(g.ch.actions[action].closed, Some(Closed::Countered { by: id(OGRE) }));
        assert!(g.ch.actions[action].declared.is_empty());
        assert_eq!(g.el(OGRE).restraints().count(), 0);
        assert!(!g.el(OGRE).has_plot_protection(), "sacrificed until the challenge is over");
        assert_eq!(g.ch.phase(), Phase::Rounds);
        let action = g.act(JON, 8, OGRE, 4);
        assert_eq!(
            g.err(Move::FinalCounter { action, element: id(OGRE) }),
            "element: Ogre already sacrificed its protection"
        );
    }

    // --- boosts

    #[test]
    fn an_owner_triggers_at_most_five_boosts_and_each_goes_to_the_least_momentum() {
        let mut g = Game::new();
        wounded(&mut g, OGRE, 6, 100);
        assert_eq!(g.ch.boosts_held(g.el(OGRE)), 5, "six wounds, five boosts");
        g.set(MIRA, |e| e.momentum = 2);
        g.play(Move::Surrender { challenger: id(OGRE) });
        // Jon (0) gets two before Mira (2) ties; then the table picks.
        assert_eq!((g.el(JON).momentum, g.el(MIRA).momentum), (2, 2));
        assert_eq!(g.ch.departure.as_ref().unwrap().boosts[0].awards, 3);
        g.play(Move::AwardBoost { to: id(MIRA) });
        assert_eq!((g.el(JON).momentum, g.el(MIRA).momentum), (3, 3), "Jon was least: automatic");
        g.play(Move::AwardBoost { to: id(JON) });
        assert_eq!((g.el(JON).momentum, g.el(MIRA).momentum), (4, 3));
        assert_eq!(g.ch.challenger(id(OGRE)).unwrap().boosts_triggered, 5);
        assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::Surrender });
        assert_eq!((g.el(JON).momentum_awards, g.el(MIRA).momentum_awards), (4, 1));
    }

    #[test]
    fn a_challenger_gains_at_most_five_awards_a_challenge_and_the_rest_lapse() {
        let mut g = Game::new();
        g.play(Move::ChangeStakes {
            challenger: id(JON),
            stake: "Gold".into(),
            joining: Some(Joining::Side { side: 1 }),
        });
        g.play(Move::EndRound { trumps: vec![] });
        wounded(&mut g, OGRE, 4, 100);
        g.set(MIRA, |e| e.momentum_awards = 3);
        g.play(Move::Surrender { challenger: id(OGRE) });
        assert_eq!((g.el(MIRA).momentum, g.el(MIRA).momentum_awards), (2, 5));
        assert!(g.has(|e| matches!(e, ChallengeEvent::BoostLapsed { awards: 2, .. })));
        assert_eq!(g.el(JON).momentum, 0, "Jon is the ogre's ally now");
    }

    #[test]
    fn trumps_trigger_when_their_supporters_withdraw_and_draw_from_their_goal() {
        let mut g = Game::new();
        g.perks(MIRA, OGRE, vec![PerkUse::Push { goal: id(COVE), trump: id(300) }]);
        assert_eq!(
            g.err(Move::EndRound { trumps: vec![TrumpEffect::VictoriousWithdrawal { goal: id(COVE) }] }),
            "trumps[0]: the goal holds 1 trumps and has 2 supporters still in: it needs as many"
        );
        g.perks(JON, OGRE, vec![PerkUse::Push { goal: id(COVE), trump: id(301) }]);
        g.set(COVE, |e| e.momentum = 3);
        g.play(Move::EndRound { trumps: vec![TrumpEffect::VictoriousWithdrawal { goal: id(COVE) }] });
        assert_eq!(g.status(MIRA), Status::Leaving { how: Leave::Victory, why: Why::Withdrawal });
        assert_eq!(g.ch.departure.as_ref().unwrap().boosts.len(), 2, "one boost per trump");
        assert_eq!(
            g.err(Move::DrawTrump { points: 4 }),
            "points: the trump draws at most 3 (its goal holds 3; 4 at most)"
        );
        assert_eq!(
            g.err(Move::Spend { challenger: id(MIRA), by: id(ADA), spend: Spend::VictoryNarration { votes: 1 } }),
            "move: momentum is spent once every boost is awarded"
        );
        g.play(Move::DrawTrump { points: 2 });
        assert_eq!(g.el(COVE).momentum, 1);
        // 3 awards: a tie (pick Mira), Jon automatically, a tie again (pick Jon).
        g.play(Move::AwardBoost { to: id(MIRA) });
        assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (1, 1));
        g.play(Move::AwardBoost { to: id(JON) });
        // The second trump: its goal still holds 1; it draws none, its free award goes to Mira.
        g.play(Move::DrawTrump { points: 0 });
        assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (2, 2));
        assert_eq!(g.ch.phase(), Phase::Departure, "now they spend");
        g.play(Move::Spend { challenger: id(MIRA), by: id(ADA), spend: Spend::VictoryNarration { votes: 2 } });
        g.play(Move::Spend {
            challenger: id(JON),
            by: id(ADA),
            spend: Spend::Boon {
                boon: Boon::Uses { uses: 3 },
                edge: Box::new(Trait::new(id(400), TraitKind::Edge, "Sea legs", Via::Boon)),
            },
        });
        // Both spent out: gone; the ogre and the wall have no opponent and win; the end.
        assert_eq!(g.ch.phase(), Phase::Over);
        assert_eq!(g.status(OGRE), Status::Left { how: Leave::Victory, why: Why::NoOpponents });
        assert_eq!(g.el(JON).trait_by_id(id(400)).unwrap().uses_left, Some(3));
        assert_eq!((g.el(COVE).trumps(), g.el(COVE).momentum), (0, 0), "trumps and momentum lost at the end");
        assert!(g.ch.goal(id(COVE)).unwrap().triggered);
    }

    #[test]
    fn a_defeated_exile_forces_every_opponent_out() {
        let mut g = Game::new();
        g.perks(OGRE, MIRA, vec![PerkUse::Push { goal: id(LAIR), trump: id(300) }]);
        assert_eq!(
            g.err(Move::EndRound { trumps: vec![TrumpEffect::DefeatedExile { goal: id(LAIR) }] }),
            "trumps[0]: the goal holds 1 trumps and has 2 opponents still in: it needs as many"
        );
        g.perks(WALL, JON, vec![PerkUse::Push { goal: id(LAIR), trump: id(301) }]);
        assert_eq!(
            g.err(Move::EndRound {
                trumps: vec![
                    TrumpEffect::DefeatedExile { goal: id(LAIR) },
                    TrumpEffect::VictoriousWithdrawal { goal: id(LAIR) }
                ]
            }),
            "trumps[1]: each goal uses one trump effect at a round's end"
        );
        g.play(Move::EndRound { trumps: vec![TrumpEffect::DefeatedExile { goal: id(LAIR) }] });
        // The heroes are exiled; the ogre and the wall then win; its trumps trigger for the
        // ogre, its supporter, leaving in victory.
        assert_eq!(g.status(MIRA), Status::Left { how: Leave::Defeat, why: Why::Exile });
        assert_eq!(g.status(JON), Status::Left { how: Leave::Defeat, why: Why::Exile });
        assert_eq!(g.status(OGRE), Status::Leaving { how: Leave::Victory, why: Why::NoOpponents });
        assert_eq!(g.el(LAIR).trumps(), 2, "the trumps were not used up");
        assert_eq!((g.el(OGRE).momentum, g.el(OGRE).momentum_awards), (2, 2), "one award per trump");
        g.play(Move::Spend { challenger: id(OGRE), by: id(ADA), spend: Spend::VictoryNarration { votes: 1 } });
        assert_eq!(
            g.err(Move::Spend { challenger: id(MIRA), by: id(ADA), spend: Spend::VictoryNarration { votes: 1 } }),
            format!("challenger: element {} is not leaving now", id(MIRA))
        );
        g.play(Move::Depart);
        assert_eq!(g.ch.phase(), Phase::Over);
        assert_eq!(g.el(OGRE).momentum, 0, "unspent momentum is lost");
    }

    // --- leaving

    #[test]
    fn victors_spend_momentum_on_narration_stakes_lasting_effects_and_boons() {
        let mut g = Game::new();
        g.perks(MIRA, OGRE, vec![hinder(OGRE, 100), wound(OGRE, 101)]);
        g.play(Move::EndRound { trumps: vec![] });
        g.play(Move::Surrender { challenger: id(JON) });
        g.set(MIRA, |e| e.momentum = 20);
        g.set(WALL, |e| e.momentum = 20);
        g.play(Move::Surrender { challenger: id(OGRE) });
        g.play(Move::Surrender { challenger: id(WALL) });
        // The wall surrendered last on its side: Mira has no opponent left and wins.
        assert_eq!(g.status(WALL), Status::Leaving { how: Leave::Defeat, why: Why::Surrender });
        assert_eq!(
            g.err(Move::Spend { challenger: id(WALL), by: id(ADA), spend: Spend::VictoryNarration { votes: 1 } }),
            "spend: a defeated challenger only turns momentum into adversity"
        );
        g.play(Move::Spend { challenger: id(WALL), by: id(ADA), spend: Spend::DefeatConversion { adversity: 10 } });
        assert_eq!(g.status(MIRA), Status::Leaving { how: Leave::Victory, why: Why::NoOpponents });
        let spend = |s: Spend| Move::Spend { challenger: id(MIRA), by: id(ADA), spend: s };
        assert_eq!(
            g.err(spend(Spend::DefeatConversion { adversity: 1 })),
            "spend: only a defeated challenger turns momentum into adversity"
        );
        assert_eq!(g.el(MIRA).momentum, 21, "the ogre's wound gave her a point");
        g.play(spend(Spend::VictoryNarration { votes: 2 }));
        assert_eq!(g.el(MIRA).momentum, 19);
        g.play(spend(Spend::ClaimingStakes { perks: 2 }));
        assert_eq!(g.el(MIRA).momentum, 17);
        // Lasting effects: the ogre's Hinder flaw stops being transient; its wound keeps it.
        g.play(spend(Spend::LastingEffect {
            element: id(OGRE),
            flaw: id(100),
            transient: false,
            part_of_stake: false,
        }));
        assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::OneShot]);
        assert_eq!(g.el(MIRA).momentum, 16);
        g.play(spend(Spend::LastingEffect { element: id(OGRE), flaw: id(100), transient: true, part_of_stake: false }));
        assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::OneShot, Template::TransientFlaw]);
        assert_eq!(
            g.err(spend(Spend::LastingEffect {
                element: id(OGRE),
                flaw: id(100),
                transient: true,
                part_of_stake: false
            })),
            "spend.transient: the flaw already has the Transient Flaw modifier"
        );
        // Boons by the cost table: 1 → one use, 2 → 3 uses, 3 → 5 uses, 4 → 7 uses, 3 → one
        // challenge (15 − 13 = 2 left); 5 → the arc is then too dear.
        let boons = [
            (Boon::Uses { uses: 1 }, 1, Lasts::Lasting, Some(1)),
            (Boon::Uses { uses: 3 }, 2, Lasts::Lasting, Some(3)),
            (Boon::Uses { uses: 5 }, 3, Lasts::Lasting, Some(5)),
            (Boon::Uses { uses: 7 }, 4, Lasts::Lasting, Some(7)),
            (Boon::OneChallenge, 3, Lasts::NextChallenge, None),
        ];
        for (k, (boon, cost, lasts, uses)) in boons.into_iter().enumerate() {
            let before = g.el(MIRA).momentum;
            let edge = Box::new(Trait::new(id(500 + k as u128), TraitKind::Edge, "Boon", Via::Boon));
            g.play(spend(Spend::Boon { boon, edge }));
            assert_eq!(before - g.el(MIRA).momentum, cost, "{boon:?}");
            let t = g.el(MIRA).trait_by_id(id(500 + k as u128)).unwrap();
            assert_eq!((t.lasts, t.uses_left, t.via), (lasts, uses, Via::Boon));
        }
        assert_eq!(g.el(MIRA).momentum, 2);
        let arc = Box::new(Trait::new(id(600), TraitKind::Edge, "Legend", Via::Boon));
        assert_eq!(
            g.err(spend(Spend::Boon { boon: Boon::OneArc, edge: arc })),
            "momentum: Mira holds 2 momentum; this costs 5"
        );
        g.play(Move::Depart);
        assert_eq!(g.ch.phase(), Phase::Over);
        assert_eq!(g.el(MIRA).momentum, 0);
    }

    #[test]
    fn claiming_stakes_needs_a_stake_and_lasting_effects_an_element_of_the_challenge() {
        let mut els = elements();
        els.push(Element::new(id(40), ElementKind::Object, "Map").unwrap());
        let map = Trait::from_template(id(150), Template::Vulnerability, "Torn", Via::Granted);
        els[6] = element::add_trait(&els[6], &map, id(ADA)).unwrap().0;
        let mut g = Game::from(&setup(), els);
        g.play(Move::Surrender { challenger: id(MIRA) });
        g.set(JON, |e| e.momentum = 3);
        g.play(Move::Surrender { challenger: id(OGRE) });
        g.play(Move::Surrender { challenger: id(WALL) });
        let spend = |s: Spend| Move::Spend { challenger: id(JON), by: id(ADA), spend: s };
        assert_eq!(
            g.err(spend(Spend::ClaimingStakes { perks: 1 })),
            "spend: claiming stakes needs stakes: this challenger set none"
        );
        assert_eq!(
            g.err(spend(Spend::LastingEffect { element: id(40), flaw: id(150), transient: true, part_of_stake: true })),
            "spend.element: a lasting effect targets an element of this challenge or of the spender's stake"
        );
        assert_eq!(
            g.err(spend(Spend::LastingEffect {
                element: id(COVE),
                flaw: id(150),
                transient: true,
                part_of_stake: false
            })),
            format!("spend.flaw: Reach the cove has no flaw {}", id(150))
        );
    }

    #[test]
    fn a_defeat_turns_two_momentum_into_one_adversity_after_every_award() {
        let mut g = Game::new();
        wounded(&mut g, MIRA, 1, 100);
        g.set(OGRE, |e| e.momentum = 5);
        g.set(WALL, |e| e.momentum = 5);
        g.play(Move::Surrender { challenger: id(MIRA) });
        // Mira's wound boost waits for the pick between the ogre and the wall.
        assert_eq!(g.ch.phase(), Phase::Departure);
        g.play(Move::AwardBoost { to: id(OGRE) });
        assert_eq!(g.ch.phase(), Phase::Rounds, "Mira had nothing to convert");
        g.play(Move::EndRound { trumps: vec![] });
        g.play(Move::Surrender { challenger: id(OGRE) });
        let convert =
            |n| Move::Spend { challenger: id(OGRE), by: id(ADA), spend: Spend::DefeatConversion { adversity: n } };
        assert_eq!(g.err(convert(4)), "momentum: Ogre holds 6 momentum; this costs 8");
        g.play(convert(2));
        assert_eq!((g.el(OGRE).momentum, g.el(OGRE).adversity), (2, 2));
        g.play(convert(1));
        assert_eq!((g.el(OGRE).momentum, g.el(OGRE).adversity), (0, 3));
        assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::Surrender }, "nothing left: gone");
    }

    #[test]
    fn surrender_takes_a_major_action_unless_it_follows_a_wound_or_restraint() {
        let mut g = Game::new();
        g.play(roll(&[(OGRE, 2), (MIRA, 5)], &[OGRE, MIRA]));
        assert_eq!(
            g.err(Move::Surrender { challenger: id(OGRE) }),
            "move: a challenger surrenders: the open perks are resolved first"
        );
        g.play(Move::Declare { action: 1, perk: wound(OGRE, 100) });
        g.play(Move::Settle { action: 1 });
        // The ogre acted already, but it was just wounded: it may leave at once.
        g.play(Move::Surrender { challenger: id(OGRE) });
        g.play(Move::AwardBoost { to: id(MIRA) });
        assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::Surrender });
        assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (1, 0));

        // Without a new wound, an acted challenger cannot surrender this round.
        let mut g = Game::new();
        g.play(roll(&[(OGRE, 2), (MIRA, 5)], &[OGRE]));
        assert_eq!(
            g.err(Move::Surrender { challenger: id(OGRE) }),
            "challenger: surrendering takes a major action, and it already took one this round"
        );
        g.play(Move::Surrender { challenger: id(WALL) });
        assert!(g.ch.acted.contains(&id(WALL)));
        assert_eq!(g.status(WALL), Status::Left { how: Leave::Defeat, why: Why::Surrender });
        // The chance to leave at once closes with the next major action.
        g.play(Move::EndRound { trumps: vec![] });
        g.perks(MIRA, OGRE, vec![wound(OGRE, 101)]);
        assert!(g.ch.may_surrender.contains(&id(OGRE)));
        g.act(JON, 2, OGRE, 4);
        assert!(g.ch.may_surrender.is_empty());
    }

    #[test]
    fn the_end_loses_momentum_and_trumps_lapses_boosts_and_favours_transient_flaws() {
        let mut g = Game::new();
        g.perks(MIRA, OGRE, vec![wound(OGRE, 100), PerkUse::Push { goal: id(COVE), trump: id(300) }]);
        g.play(Move::EndRound { trumps: vec![] });
        g.play(Move::Surrender { challenger: id(WALL) });
        g.play(Move::EndRound { trumps: vec![] });
        g.play(Move::Surrender { challenger: id(OGRE) });
        // The ogre's wound boost goes to Jon or Mira; the heroes win with 1 point between them.
        g.play(Move::AwardBoost { to: id(MIRA) });
        // Mira's trump triggers for the heroes as they leave: one more point, to Jon (least).
        assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (1, 1));
        g.play(Move::Depart);
        assert_eq!(g.ch.phase(), Phase::Over);
        assert!(g.has(|e| *e == ChallengeEvent::Ended { challenge: id(CHALLENGE) }));
        for who in [MIRA, JON, OGRE, WALL, COVE] {
            let e = g.el(who);
            assert_eq!((e.momentum, e.momentum_awards, e.in_challenge), (0, 0, false), "{}", e.name);
        }
        assert_eq!(g.el(COVE).trumps(), 0);
        let ogre = g.el(OGRE);
        let favored =
            ogre.trait_by_id(element::favored_flaw_id(modifier_id(id(100), Template::TransientFlaw))).unwrap();
        assert_eq!((favored.template, favored.target_trait), (Some(Template::FavoredFlaw), Some(id(100))));

        // The next challenge: the old wound gives no boost.
        let next = Game::from(&setup(), g.els.clone());
        assert_eq!(next.ch.boosts_held(next.el(OGRE)), 0);
        assert_eq!(next.el(OGRE).edge_slots(), 4, "the first-challenge slots come once");
    }

    // --- rolled through the action check

    #[test]
    fn a_major_action_can_be_rolled_through_the_action_check() {
        let g = Game::new();
        let check_setup = CheckSetup {
            id: id(98),
            description: "Mira dodges past".into(),
            sides: vec![
                CheckSideSetup {
                    kind: SideKind::Action { element: id(MIRA) },
                    description: String::new(),
                    chance: BaseChance::Common,
                    aptitude: 0,
                },
                CheckSideSetup {
                    kind: SideKind::Action { element: id(OGRE) },
                    description: String::new(),
                    chance: BaseChance::Occasional,
                    aptitude: 0,
                },
            ],
            involved: vec![],
        };
        let (check, awarded, _) = action_check::start(&check_setup, &g.els).unwrap();
        let els = merge(&g.els, &awarded.elements);
        let players = vec![Player::new(id(ADA), "Ada").unwrap()];
        // Mira's d6 shows 6, the ogre's d4 shows 3: 6 against 3 is double.
        let mut dice = Entered::new([6, 3]);
        let (ch, resolved, changes, events) =
            roll_major_actions(&g.ch, &check, &[id(MIRA)], &players, &els, &mut dice).unwrap();
        assert_eq!(scores_of(&resolved).unwrap().iter().map(|s| s.score).collect::<Vec<_>>(), vec![6, 3]);
        let a = &ch.actions[0];
        assert_eq!((a.check, a.score, a.opposing, a.result), (Some(id(98)), 6, 3, ActionResult::DoubleSuccess));
        assert!(changes.elements.is_empty() && changes.players.is_empty(), "no spend, no failure");
        assert!(matches!(events[0], ChallengeEvent::Check { .. }));
        assert_eq!(
            err(scores_of(&check)),
            "check: a major action compares rolled scores: resolve a rolled check first"
        );
    }

    // --- rest & recuperation

    #[test]
    fn rest_clears_flaws_outside_challenges() {
        let mut g = Game::new();
        g.perks(OGRE, MIRA, vec![bind(MIRA, 100), wound(MIRA, 101)]);
        let action = g.act(WALL, 8, MIRA, 4);
        g.play(Move::Trade { action });
        g.play(Move::Declare { action, perk: hinder(MIRA, 102) });
        g.play(Move::Settle { action });
        let busy = g.el(MIRA).clone();
        assert_eq!(
            err(take_breather(&busy, id(102))),
            "element: Mira is in a challenge: restorative actions are for after it"
        );
        let mira = element::challenge_ended(&busy).unwrap().0;
        assert_eq!(
            err(take_breather(&mira, id(101))),
            "flaw: a breather shakes off a flaw with the One-Shot and Transient Flaw modifiers"
        );
        let (mira, _) = take_breather(&mira, id(102)).unwrap();
        assert!(mira.trait_by_id(id(102)).is_none(), "no limit to this challenge's flaws");
        let (mira, _) = escape_restraints(&mira, id(100)).unwrap();
        assert_eq!(mira.restraints().count(), 0);
        let flaws_before = mira.traits.iter().filter(|t| t.kind == TraitKind::Flaw).count();
        assert_eq!(flaws_before, 1, "escaping gives no new flaw");

        // A Vicious Wound needs a Recovery Check or ample time.
        let mira = element::add_trait(&mira, &extra(110, Template::ViciousWound).on(id(101)), id(ADA)).unwrap().0;
        let all = HealEffect::RemoveExtras { extras: vec![id(110)] };
        assert_eq!(
            err(treat_wounds(&mira, id(101), &all, RecoveryCheck::NotMade)),
            "recovery: a Vicious Wound needs a Recovery Check first (or triple the time to skip it)"
        );
        let (mira, _) = treat_wounds(&mira, id(101), &all, RecoveryCheck::AmpleTime).unwrap();
        let (mira, _) = treat_wounds(&mira, id(101), &HealEffect::OneShot, RecoveryCheck::NotMade).unwrap();
        assert!(!mira.is_wound(id(101)));
        let (mira, _) = take_breather(&mira, id(101)).unwrap();
        assert!(mira.traits.iter().all(|t| t.template == Some(Template::FavoredFlaw) || t.kind != TraitKind::Flaw));
    }

    // --- data

    #[test]
    fn a_challenge_and_its_moves_round_trip_and_refuse_unknown_fields() {
        let mut g = Game::new();
        g.act(MIRA, 8, OGRE, 4);
        g.play(Move::Declare { action: 0, perk: bind(OGRE, 100) });
        let json = serde_json::to_string(&g.ch).unwrap();
        assert_eq!(serde_json::from_str::<Challenge>(&json).unwrap(), g.ch);
        let mv = Move::Declare { action: 0, perk: wound(OGRE, 101) };
        let text = serde_json::to_string(&mv).unwrap();
        assert!(text.starts_with(r#"{"move":"declare","action":0,"perk":{"kind":"damage""#), "{text}");
        assert_eq!(serde_json::from_str::<Move>(&text).unwrap(), mv);
        assert!(serde_json::from_str::<Move>(r#"{"move":"trade","action":0,"extra":1}"#).is_err());
        let events = serde_json::to_string(&g.events).unwrap();
        assert_eq!(serde_json::from_str::<Vec<ChallengeEvent>>(&events).unwrap(), g.events);
    }

    fn err<T: std::fmt::Debug>(result: Result<T>) -> String {
        result.unwrap_err().to_string()
    }

    // --- properties

    /// A random table: 2 to 4 sides of 1 to 3 challengers, each side with a goal.
    fn random_game(sides: usize, per_side: &[usize]) -> Game {
        let mut els = Vec::new();
        let mut challengers = Vec::new();
        let mut goals = Vec::new();
        for (s, &members) in per_side.iter().enumerate().take(sides) {
            let mut supporters = Vec::new();
            for k in 0..members {
                let n = 1000 + (s * 10 + k) as u128;
                els.push(Element::new(id(n), ElementKind::Character, &format!("C{s}{k}")).unwrap());
                challengers.push(joins(n, s, Some("Win")));
                supporters.push(id(n));
            }
            let g = 2000 + s as u128;
            els.push(Element::new(id(g), ElementKind::Goal, &format!("Goal {s}")).unwrap());
            goals.push(GoalSetup { element: id(g), supporters });
        }
        let setup = ChallengeSetup {
            id: id(CHALLENGE),
            description: String::new(),
            sides: (0..sides).map(|s| SideSetup { name: format!("Side {s}") }).collect(),
            challengers,
            goals,
        };
        Game::from(&setup, els)
    }

    /// One random attempt at a move, from the numbers drawn; refused moves are skipped.
    fn random_move(g: &mut Game, op: u8, a: usize, b: usize, n: u32, fresh: &mut u128) {
        let all: Vec<Uuid> = g.ch.challengers.iter().map(|c| c.element).collect();
        let pick = |k: usize| all[k % all.len()];
        *fresh += 10;
        let f = *fresh;
        let mv = match (g.ch.phase(), op % 16) {
            (Phase::Departure, 0..=11) => {
                let d = g.ch.departure.clone().unwrap();
                match d.boosts.first() {
                    Some(b0) if b0.draw_pending => Move::DrawTrump { points: n % 5 },
                    Some(b0) => Move::AwardBoost { to: b0.targets[a % b0.targets.len().max(1)] },
                    None => {
                        let who = d.leavers[a % d.leavers.len()];
                        let spend = match g.ch.challenger(who).unwrap().leaving() {
                            Some(Leave::Defeat) => Spend::DefeatConversion { adversity: n % 4 },
                            _ => Spend::VictoryNarration { votes: n % 3 },
                        };
                        Move::Spend { challenger: who, by: id(ADA), spend }
                    }
                }
            }
            (Phase::Departure, _) => Move::Depart,
            (Phase::Rounds, 0..=8) => {
                let (x, y) = (pick(a), pick(b));
                Move::MajorActions {
                    check: None,
                    rolls: vec![
                        SideScore { kind: SideKind::Action { element: x }, score: 1 + n % 12 },
                        SideScore { kind: SideKind::Action { element: y }, score: 1 + (n / 12) % 12 },
                    ],
                    majors: if n.is_multiple_of(2) { vec![x] } else { vec![x, y] },
                }
            }
            (Phase::Perks, 0..=12) => {
                let action = g.ch.open[0];
                let target = pick(b);
                let actor = g.ch.actions[action].challenger;
                let side = g.ch.challenger(actor).unwrap().side;
                let own_goal = id(2000 + side as u128);
                let other_goal = id(2000 + g.ch.challenger(target).unwrap().side as u128);
                let perk = match n % 8 {
                    0 | 7 => PerkUse::Bind { target, restraint: flaw(f, Template::Restraint, "Held") },
                    1 | 2 => PerkUse::Damage {
                        target,
                        wound: Wounding::NewFlaw { flaw: flaw(f, Template::Vulnerability, "Hurt") },
                        expend: vec![],
                        extras: vec![],
                        takes_out: n.is_multiple_of(11),
                    },
                    3 => PerkUse::Push { goal: own_goal, trump: id(f) },
                    4 => PerkUse::Ruin { goal: other_goal },
                    5 => PerkUse::Hinder { target, flaw: flaw(f, Template::ImpairedAbility, "Slowed") },
                    _ => PerkUse::Discover { detail: "Something".into() },
                };
                if g.ch.actions[action].majors_left() > 0 && !perk.name().is_major() {
                    Move::Trade { action }
                } else {
                    Move::Declare { action, perk }
                }
            }
            (Phase::Perks, _) => Move::Settle { action: g.ch.open[0] },
            (_, 9) => Move::Surrender { challenger: pick(a) },
            (_, 10..=12) => {
                let goal = id(2000 + (a % g.ch.sides.len()) as u128);
                let effect = if n.is_multiple_of(2) {
                    TrumpEffect::VictoriousWithdrawal { goal }
                } else {
                    TrumpEffect::DefeatedExile { goal }
                };
                Move::EndRound { trumps: vec![effect] }
            }
            _ => Move::EndRound { trumps: vec![] },
        };
        let before = (g.ch.clone(), g.els.clone());
        if g.try_play(mv).is_err() {
            assert_eq!((g.ch.clone(), g.els.clone()), before, "a refused move changes nothing");
        }
    }

    /// Plays until the challenge is over: awards, departures, settles, surrenders.
    fn finish(g: &mut Game) {
        for _ in 0..500 {
            let mv = match g.ch.phase() {
                Phase::Over => return,
                Phase::Departure => {
                    let d = g.ch.departure.clone().unwrap();
                    match d.boosts.first() {
                        Some(b) if b.draw_pending => Move::DrawTrump { points: 0 },
                        Some(_) => Move::AwardBoost { to: award_candidates(&g.ch, &Table::new(&g.els)).unwrap()[0] },
                        None => Move::Depart,
                    }
                }
                Phase::Perks => Move::Settle { action: g.ch.open[0] },
                Phase::Rounds => match g.ch.remaining().find(|c| !g.ch.acted.contains(&c.element)) {
                    Some(c) => Move::Surrender { challenger: c.element },
                    None => Move::EndRound { trumps: vec![] },
                },
            };
            g.play(mv);
        }
        panic!("the challenge did not end");
    }

    /// The limits every state keeps.
    fn check_limits(g: &Game, awards: &std::collections::HashMap<BoostOwner, u32>) {
        for e in &g.els {
            assert!(e.momentum_awards <= MAX_MOMENTUM_AWARDS, "{} gained {} awards", e.name, e.momentum_awards);
        }
        for c in &g.ch.challengers {
            assert!(c.boosts_triggered <= MAX_BOOSTS_PER_OWNER);
        }
        for (owner, n) in awards {
            assert!(*n <= MAX_BOOSTS_PER_OWNER, "{owner:?} gave {n} awards");
        }
        if !g.ch.over && g.ch.departure.is_none() {
            assert!(g.ch.sides_in().len() >= 2, "a challenge runs only while two sides are in");
        }
    }

    fn steps() -> impl Strategy<Value = Vec<(u8, usize, usize, u32)>> {
        proptest::collection::vec((any::<u8>(), 0usize..12, 0usize..12, 0u32..400), 1..120)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        #[test]
        fn momentum_boosts_never_exceed_their_limits(
            sides in 2usize..4,
            per_side in proptest::collection::vec(1usize..4, 4),
            wounds in proptest::collection::vec(0u128..9, 12),
            moves in steps(),
        ) {
            let mut g = random_game(sides, &per_side);
            let all: Vec<u128> = g.ch.challengers.iter().map(|c| c.element.as_u128()).collect();
            for (k, who) in all.into_iter().enumerate() {
                wounded(&mut g, who, wounds[k], 50_000 + 100 * k as u128);
            }
            let mut fresh = 10_000u128;
            let mut awards: std::collections::HashMap<BoostOwner, u32> = Default::default();
            let mut received: std::collections::HashMap<Uuid, u32> = Default::default();
            for (op, a, b, n) in moves {
                random_move(&mut g, op, a, b, n, &mut fresh);
                for e in &g.events {
                    if let ChallengeEvent::BoostAwarded { owner, to } = e {
                        *awards.entry(*owner).or_default() += 1;
                        *received.entry(*to).or_default() += 1;
                    }
                }
                g.events.clear();
                check_limits(&g, &awards);
                prop_assert!(received.values().all(|&n| n <= MAX_MOMENTUM_AWARDS));
            }
        }

        #[test]
        fn leaving_in_defeat_converts_momentum_two_to_one_exactly(
            momentum in 0u32..12,
            adversity in 0u32..3,
            debt in 0u32..3,
            convert in 1u32..8,
        ) {
            let mut g = Game::new();
            let debt = if adversity > 0 { 0 } else { debt };
            g.set(OGRE, |e| { e.momentum = momentum; e.adversity = adversity; e.adversity_debt = debt; });
            g.play(Move::Surrender { challenger: id(OGRE) });
            if momentum < 2 {
                prop_assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::Surrender });
                return Ok(());
            }
            let before = g.el(OGRE).clone();
            let mv = Move::Spend { challenger: id(OGRE), by: id(ADA), spend: Spend::DefeatConversion { adversity: convert } };
            match g.try_play(mv) {
                Ok(()) => {
                    let after = g.el(OGRE);
                    prop_assert!(2 * convert <= momentum);
                    prop_assert_eq!(after.momentum, momentum - 2 * convert);
                    prop_assert_eq!((after.adversity - before.adversity) + (before.adversity_debt - after.adversity_debt), convert);
                }
                Err(_) => {
                    prop_assert!(2 * convert > momentum);
                    prop_assert_eq!(g.el(OGRE), &before);
                }
            }
        }

        #[test]
        fn the_challenge_ends_when_every_side_but_one_has_left(
            sides in 2usize..5,
            per_side in proptest::collection::vec(1usize..4, 4),
            moves in steps(),
        ) {
            let mut g = random_game(sides, &per_side);
            let mut fresh = 10_000u128;
            let awards = Default::default();
            for (op, a, b, n) in moves {
                random_move(&mut g, op, a, b, n, &mut fresh);
                check_limits(&g, &awards);
            }
            finish(&mut g);
            prop_assert_eq!(g.ch.phase(), Phase::Over);
            prop_assert!(g.ch.challengers.iter().all(|c| matches!(c.status, Status::Left { .. })), "everyone left");
            let winners: Vec<usize> = g.ch.challengers.iter()
                .filter(|c| matches!(c.status, Status::Left { why: Why::NoOpponents, .. }))
                .map(|c| c.side).collect();
            prop_assert!(winners.windows(2).all(|w| w[0] == w[1]), "only one side is left to win by default");
            for e in &g.els {
                prop_assert!(!e.in_challenge && e.momentum == 0 && e.momentum_awards == 0 && e.trumps() == 0, "{} keeps nothing", e.name);
            }
        }
    }
}
