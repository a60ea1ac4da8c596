//! A challenge's state and its words: the sides, the phases, the moves and the events (the
//! table keeps a challenge; the state machine in `challenge/mod.rs` plays it on the table).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::rules::penny_ante::ledger::{Account, LedgerEvent};
use crate::rules::penny_ante::score::Hand;

/// The characteristics each character may use, by character id (from the sheets).
pub type Roster = BTreeMap<Uuid, Vec<String>>;

/// One side of a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Challenger,
    Opponent,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Challenger, Side::Opponent];

    pub fn other(self) -> Side {
        match self {
            Side::Challenger => Side::Opponent,
            Side::Opponent => Side::Challenger,
        }
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }

    pub fn label(self) -> &'static str {
        match self {
            Side::Challenger => "the challenger",
            Side::Opponent => "the opponent",
        }
    }
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Step 1: each side names a circumstance or passes.
    Circumstances,
    /// Step 2: each side declares its characteristics, the challenger first.
    Characteristics,
    /// Step 2: each side rolls in private, then chooses the dice to reroll.
    Roll,
    /// Step 3.
    Betting1,
    /// Step 4: each side names a new circumstance (maybe doubling down) or passes.
    NewCircumstances,
    /// Step 4: each side rerolls its cup.
    Reroll,
    /// Step 5.
    Betting2,
    /// §2.4: the losers, left with nothing, choose debt or a buyout.
    AfterLoss,
    /// The challenge is settled.
    Over,
}

/// How the challenge starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub id: Uuid,
    /// What is at stake, in the table's words.
    pub stake: String,
    /// At least 1; also the smallest raise.
    pub ante: u64,
    /// The challenger first, then its allies (characters).
    pub challenger: Vec<Account>,
    /// The opponent first, then its allies (characters).
    pub opponent: Vec<Account>,
    /// An anonymous challenge: how many pennies the antagonist devotes to it.
    #[serde(default)]
    pub devoted: Option<u64>,
}

/// Someone in a challenge and what they paid into the pot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Member {
    pub account: Account,
    pub paid: u64,
}

/// A characteristic used in the challenge, and whose it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Used {
    pub owner: Account,
    pub text: String,
}

/// A die in the middle of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Circumstance {
    pub name: String,
    pub by: Side,
    pub die: u8,
    /// The side that may not use it (the other side of one who doubled down on it).
    #[serde(default)]
    pub barred: Option<Side>,
}

/// One side as the challenge sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideState {
    pub members: Vec<Member>,
    pub used: Vec<Used>,
    /// Its own dice, empty until rolled.
    pub dice: Vec<u8>,
    /// Which of `dice` sit in the cup to be rerolled (hidden from the other side).
    pub cup: Vec<usize>,
    /// The cup was chosen and the other dice revealed.
    pub cup_chosen: bool,
    /// What the side paid in, apart from a doubling-down stake: the wager to match.
    pub wager: u64,
    /// The doubling-down stake.
    pub doubled: u64,
    pub all_in: bool,
    /// Acted in this betting round since the last raise; in the other steps, done with the
    /// step.
    pub done: bool,
    /// Lost every penny of the side at the showdown or fold (for §2.4).
    #[serde(default)]
    pub lost: Vec<Member>,
}

impl SideState {
    pub fn new(members: &[Account]) -> Self {
        SideState {
            members: members.iter().map(|&account| Member { account, paid: 0 }).collect(),
            used: Vec::new(),
            dice: Vec::new(),
            cup: Vec::new(),
            cup_chosen: false,
            wager: 0,
            doubled: 0,
            all_in: false,
            done: false,
            lost: Vec::new(),
        }
    }

    pub fn lead(&self) -> Account {
        self.members[0].account
    }

    pub fn accounts(&self) -> impl Iterator<Item = Account> + '_ {
        self.members.iter().map(|m| m.account)
    }

    /// Its dice outside the cup, once the cup is chosen: what the side will show. The table
    /// sees them only when both cups are chosen ([`Challenge::revealed`]).
    pub fn kept_out(&self) -> Vec<u8> {
        if !self.cup_chosen {
            return Vec::new();
        }
        self.dice.iter().enumerate().filter(|(i, _)| !self.cup.contains(i)).map(|(_, &d)| d).collect()
    }

    pub(super) fn paid(&self) -> u64 {
        self.members.iter().map(|m| m.paid).sum()
    }
}

/// A loan offered during a betting phase, waiting for the side's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoanOffer {
    pub id: Uuid,
    pub lender: Account,
    pub side: Side,
    pub amount: u64,
    /// The ally of the side the lender lends to; None: the side's lead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub borrower: Option<Account>,
}

impl LoanOffer {
    /// Who borrows: the ally the lender chose, else the side's lead.
    pub fn borrower_in(&self, c: &Challenge) -> Account {
        self.borrower.unwrap_or_else(|| c.sides[self.side.index()].lead())
    }
}

/// A buyout bid (§2.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bid {
    pub bidder: Account,
    pub amount: u64,
}

/// How a challenge ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// None for a tie.
    pub winner: Option<Side>,
    pub folded: Option<Side>,
    /// Each side's best hand, at a showdown.
    pub hands: Option<[Hand; 2]>,
    /// Who narrates: the loser, unless the loser took on a debt.
    pub narrator: Option<Side>,
    /// The pot before it was paid out.
    pub pot: u64,
}

/// A challenge and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    pub id: Uuid,
    pub stake: String,
    pub ante: u64,
    pub devoted: Option<u64>,
    pub phase: Phase,
    /// Whose turn it is in a step taken in turns (characteristics, betting).
    pub turn: Option<Side>,
    pub sides: [SideState; 2],
    pub circumstances: Vec<Circumstance>,
    /// Lenders who offered a loan in this betting phase.
    pub lenders: Vec<Account>,
    pub offer: Option<LoanOffer>,
    pub bids: Vec<Bid>,
    pub outcome: Option<Outcome>,
}

/// One thing a side (or someone at the table) does in a challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// Step 1 or 4: name a circumstance; in step 4 maybe doubling down on it.
    Circumstance {
        side: Side,
        name: String,
        #[serde(default)]
        double_down: bool,
    },
    /// Step 1 or 4: name no circumstance.
    Pass {
        side: Side,
    },
    /// Step 2: the characteristics the side uses (0 to 5).
    Characteristics {
        side: Side,
        used: Vec<Used>,
    },
    /// Step 2: roll the side's dice in private.
    Roll {
        side: Side,
    },
    /// Step 2: the dice (by position) that go back in the cup; the rest are revealed.
    Cup {
        side: Side,
        cup: Vec<usize>,
    },
    Stand {
        side: Side,
    },
    Raise {
        side: Side,
        by: u64,
    },
    Call {
        side: Side,
    },
    Fold {
        side: Side,
    },
    AllIn {
        side: Side,
    },
    /// A betting phase: a player outside the challenge offers a loan to a side.
    OfferLoan {
        id: Uuid,
        lender: Account,
        side: Side,
        amount: u64,
        /// The ally of the side who borrows (a character on it); None: the side's lead.
        #[serde(default)]
        borrower: Option<Account>,
    },
    /// The side answers the open loan offer.
    AnswerLoan {
        accept: bool,
    },
    /// Step 4: reroll the cup, still hidden.
    Reroll {
        side: Side,
    },
    /// §2.4: a player or the House offers to buy out the losers.
    Bid {
        bidder: Account,
        amount: u64,
    },
    /// §2.4: the losers take the highest bid, each character giving up a characteristic.
    AcceptBuyout {
        losses: Vec<Used>,
    },
    /// §2.4: the losers go into debt.
    Debt,
}

impl Move {
    /// The side that makes the move, when one does.
    pub fn side(&self) -> Option<Side> {
        match self {
            Move::Circumstance { side, .. }
            | Move::Pass { side }
            | Move::Characteristics { side, .. }
            | Move::Roll { side }
            | Move::Cup { side, .. }
            | Move::Stand { side }
            | Move::Raise { side, .. }
            | Move::Call { side }
            | Move::Fold { side }
            | Move::AllIn { side }
            | Move::Reroll { side } => Some(*side),
            Move::OfferLoan { .. }
            | Move::AnswerLoan { .. }
            | Move::Bid { .. }
            | Move::AcceptBuyout { .. }
            | Move::Debt => None,
        }
    }
}

/// What happened, for the log and the screen. Dice in a cup are not in these events while
/// the challenge runs; the log shows them once it is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ChallengeEvent {
    Started {
        ante: u64,
        stake: String,
    },
    AllInAtAnte {
        side: Side,
        paid: u64,
    },
    /// A short opponent folded in step 1, before anything was at stake.
    FoldedAtAnte {
        side: Side,
        returned: Vec<Member>,
    },
    CircumstanceNamed {
        side: Side,
        name: String,
        die: u8,
        barred: Option<Side>,
        stake: u64,
    },
    Passed {
        side: Side,
    },
    CharacteristicsDeclared {
        side: Side,
        used: Vec<Used>,
        dice: usize,
    },
    SetInStone {
        antagonist: Uuid,
        text: String,
    },
    Rolled {
        side: Side,
        dice: Vec<u8>,
    },
    /// A side chose its cup; what it shows waits for the other side's cup.
    CupChosen {
        side: Side,
        in_cup: usize,
    },
    /// Both cups are chosen: each side's dice outside its cup, challenger first.
    CupsRevealed {
        revealed: [Vec<u8>; 2],
    },
    Stood {
        side: Side,
    },
    Raised {
        side: Side,
        by: u64,
        wager: u64,
    },
    Called {
        side: Side,
        paid: u64,
        wager: u64,
    },
    WentAllIn {
        side: Side,
        paid: u64,
        wager: u64,
    },
    Folded {
        side: Side,
    },
    RoundOver {
        phase: Phase,
    },
    LoanOffered {
        lender: Account,
        side: Side,
        amount: u64,
    },
    LoanAnswered {
        accepted: bool,
        lender: Account,
        borrower: Account,
        amount: u64,
    },
    /// An accepted loan went first to pay back a loan its borrower had made to its lender.
    RepaidThroughLoan {
        loan: Uuid,
        amount: u64,
        outstanding: u64,
    },
    Rerolled {
        side: Side,
        dice: Vec<u8>,
    },
    ExcessReturned {
        side: Side,
        amount: u64,
    },
    Showdown {
        hands: [Hand; 2],
        winner: Option<Side>,
    },
    Won {
        side: Side,
        pot: u64,
        shares: Vec<Member>,
    },
    Tied {
        returned: Vec<Member>,
    },
    Bankrupt {
        side: Side,
    },
    BidMade {
        bidder: Account,
        amount: u64,
    },
    BoughtOut {
        bidder: Account,
        amount: u64,
        shares: Vec<Member>,
    },
    CharacteristicLost {
        owner: Account,
        text: String,
    },
    WentIntoDebt {
        debts: Vec<(Account, Account, u64)>,
    },
    Ledger(LedgerEvent),
}
