//! What a challenge's moves did, as the log keeps them.

use super::*;

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
    /// A Raise Stakes put momentum into a stake's pool.
    StakeRaised {
        challenger: Uuid,
        stake: String,
        momentum: u32,
    },
    /// A stake's pool paid for a spend by one of its owners.
    StakePoolSpent {
        challenger: Uuid,
        stake: String,
        cost: u32,
    },
    /// A stake's pool ended (the challenge ended, or nobody holds the stake any more).
    StakePoolLapsed {
        stake: String,
        momentum: u32,
    },
    /// A victor claiming stakes applied a major perk.
    StakesClaimed {
        challenger: Uuid,
        perk: PerkName,
        target: Option<Uuid>,
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
