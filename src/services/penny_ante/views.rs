//! What the Penny Ante screens are sent: the table, a side's private view, the ledger and
//! the log, as views.

use super::*;

/// Someone who can hold pennies, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Named {
    pub account: Account,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub id: Uuid,
    pub name: String,
    pub pile: i64,
    pub characteristics: Vec<String>,
    /// Characteristics paid for beyond the free one.
    pub purchases: usize,
    /// What the next characteristic costs (0 for the free one).
    pub next_price: u64,
    pub received_starting_pennies: bool,
    /// Characteristics given up in buyouts.
    pub lost: u32,
    /// Why the character cannot take a characteristic now, if it cannot.
    pub characteristic_waits: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AntagonistView {
    pub id: Uuid,
    pub name: String,
    /// None in a view without the table's secrets, unless the antagonist is revealed.
    pub purse: Option<i64>,
    /// Without the table's secrets, only those not marked hidden (all once revealed).
    pub characteristics: Vec<Characteristic>,
    /// Comes back in later adventures, keeping its purse.
    pub recurring: bool,
    /// Took part in a direct challenge: its purse and characteristics are the table's.
    pub revealed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoanView {
    pub id: Uuid,
    pub lender: Named,
    pub borrower: Named,
    pub amount: u64,
    pub repaid: u64,
    pub outstanding: u64,
    pub adventure: u32,
    pub flagged: bool,
    /// What became a debt to the lender when it was still unpaid at an adventure's start.
    pub in_debt: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DebtView {
    pub debtor: Named,
    pub creditor: Named,
    pub amount: u64,
}

/// The whole table as everyone may see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PennyView {
    pub game: Game,
    pub starting_pennies: u64,
    /// The most the House may give one antagonist; None: no cap.
    pub antagonist_cap: Option<u64>,
    pub adventure: Adventure,
    /// The House's pile; without the House's secrets, with what its hidden purses hold, so
    /// that funding one does not show (RULES.md §2.2 decision 2026-11-28).
    pub house: i64,
    /// What the House would receive if the next adventure started now, by default.
    pub default_house_funding: u64,
    /// Where that figure comes from, and in words.
    pub house_budget: HouseBudgetView,
    /// What recurring antagonists keep in their purses; None without the table's secrets.
    pub recurring_purses: Option<i64>,
    pub players: Vec<PlayerView>,
    pub antagonists: Vec<AntagonistView>,
    pub loans: Vec<LoanView>,
    pub debts: Vec<DebtView>,
    pub challenge: Option<ChallengeView>,
    /// Every finished challenge, newest first.
    pub history: Vec<HistoryView>,
}

/// The House's default funding for the next adventure, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HouseBudgetView {
    pub amount: u64,
    pub basis: FundingBasis,
    /// "The players' piles when adventure 2 ended (Cy, who joined since, with the starting
    /// pennies)."
    pub words: String,
}

/// One side of a finished challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistorySideView {
    pub side: Side,
    pub name: String,
    pub members: Vec<Named>,
    pub used: Vec<UsedView>,
    pub hand: Option<HandView>,
    pub given_up: Vec<UsedView>,
}

/// A finished challenge as its viewer may see it (an antagonist's hidden characteristics
/// stay hidden from the players).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistoryView {
    pub challenge: Uuid,
    pub adventure: u32,
    pub stake: String,
    pub ante: u64,
    pub pot: u64,
    pub winner: Option<Side>,
    pub folded: Option<Side>,
    pub narrator: Option<Side>,
    /// Who narrates, by name ("Ada", "the House").
    pub narrator_name: Option<String>,
    pub sides: [HistorySideView; 2],
    /// "Ada folded; the Count takes the pot of 6."
    pub summary: String,
    pub narration: String,
    /// Whether this viewer may write the narration.
    pub can_narrate: bool,
    /// The characters who played in it (for a character's own history).
    pub characters: Vec<Uuid>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemberView {
    pub account: Account,
    pub name: String,
    pub paid: u64,
    /// None for an antagonist, whose purse is the House's secret, in a player's view.
    pub pile: Option<i64>,
}

/// One side of a challenge as the whole table may see it: no dice in its cup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideView {
    pub side: Side,
    /// "Ada", "Ada and Bo", "the House".
    pub name: String,
    pub members: Vec<MemberView>,
    pub used: Vec<UsedView>,
    /// How many dice the side rolls (1 + characteristics).
    pub dice_count: usize,
    pub rolled: bool,
    pub cup_chosen: bool,
    /// Its dice outside the cup, once both sides chose their cups (the reveal is
    /// simultaneous); empty before.
    pub revealed: Vec<u8>,
    /// How many dice it keeps in its cup, once both cups are chosen; 0 before.
    pub in_cup: usize,
    /// Every die, once the challenge is over.
    pub dice: Option<Vec<u8>>,
    pub wager: u64,
    pub doubled: u64,
    pub all_in: bool,
    pub done: bool,
    /// Pennies the side can still put in; None for an antagonist's side in a player's view
    /// (it would tell its purse).
    pub available: Option<u64>,
    /// Whether an anonymous challenge limits this side to its devoted pennies.
    pub anonymous: bool,
    /// In step 1, the antes a short opponent cannot pay: it goes all in or folds first.
    pub ante_owed: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UsedView {
    pub owner: Account,
    pub owner_name: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BidView {
    pub bidder: Named,
    pub amount: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OfferView {
    pub lender: Named,
    pub side: Side,
    pub amount: u64,
    /// Who would owe it: the ally the lender chose, else the side's lead.
    pub borrower: Named,
}

/// How a challenge ended, in the table's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeView {
    pub winner: Option<Side>,
    pub folded: Option<Side>,
    pub hands: Option<[HandView; 2]>,
    pub narrator: Option<Side>,
    pub pot: u64,
    /// "Ada wins the pot of 12 with a small straight, 30."
    pub summary: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandView {
    pub score: u32,
    pub category: String,
    /// The five dice chosen (or all, when fewer).
    pub dice: Vec<u8>,
    /// "small straight, 30"
    pub words: String,
}

impl From<&Hand> for HandView {
    fn from(h: &Hand) -> Self {
        HandView {
            score: h.score,
            category: h.category.label().to_owned(),
            dice: h.dice.clone(),
            words: format!("{}, {}", h.category.label(), h.score),
        }
    }
}

/// A challenge as the whole table may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChallengeView {
    pub id: Uuid,
    pub stake: String,
    pub ante: u64,
    pub devoted: Option<u64>,
    pub phase: Phase,
    /// What happens now, in words ("The challenger declares characteristics").
    pub step: String,
    pub turn: Option<Side>,
    pub pot: i64,
    pub sides: [SideView; 2],
    pub circumstances: Vec<challenge::Circumstance>,
    pub offer: Option<OfferView>,
    pub bids: Vec<BidView>,
    /// Players outside the challenge who may still offer a loan in this betting round.
    pub lenders: Vec<Named>,
    /// Players (and the House) who may bid for a buyout.
    pub bidders: Vec<Named>,
    pub outcome: Option<OutcomeView>,
}

/// What one side sees behind the "pass the device" screen: its own dice and cup, and its
/// exact odds from what it may see.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PrivateView {
    pub side: Side,
    pub dice: Vec<u8>,
    pub cup: Vec<usize>,
    pub odds: Option<OddsView>,
    /// The characteristics each member may declare.
    pub characteristics: Vec<UsedView>,
    /// Pennies the side can still put in (for an anonymous antagonist, within what it
    /// devoted): the side's own to know, whatever the shared view leaves out.
    pub available: u64,
    /// What the antagonist devoted, when this is the anonymous side.
    pub devoted: Option<u64>,
}

/// One choice of dice to put in the cup, with the odds after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CupChoiceView {
    /// The dice (their places on the side's tray) that go in the cup.
    pub cup: Vec<usize>,
    /// Their faces, lowest first.
    pub faces: Vec<u8>,
    pub odds: OddsView,
    /// No other choice has a higher chance to win.
    pub best: bool,
}

/// Exact odds, as probabilities (nearest f64) and as exact fractions of equally likely
/// outcomes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OddsView {
    pub win: f64,
    pub tie: f64,
    pub lose: f64,
    pub exact: [String; 3],
}

impl From<ShowdownOdds> for OddsView {
    fn from(o: ShowdownOdds) -> Self {
        let frac = |c: crate::rules::odds::Chance| format!("{}/{}", c.count(), c.outcomes());
        OddsView {
            win: o.win.probability(),
            tie: o.tie.probability(),
            lose: o.lose.probability(),
            exact: [frac(o.win), frac(o.tie), frac(o.lose)],
        }
    }
}

/// One line of the ledger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryView {
    /// Position among the entries this viewer may see, from 1 (without the House's secrets
    /// the entries of hidden purses are not counted: no gap tells of one).
    pub n: usize,
    pub from: Named,
    pub to: Named,
    pub amount: u64,
    pub reason: Reason,
    pub reason_words: &'static str,
    pub challenge: Option<Uuid>,
    /// The account's pile after this entry (when the ledger is shown for one account).
    pub pile_after: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LedgerView {
    pub account: Option<Named>,
    pub pile: Option<i64>,
    /// Newest first.
    pub entries: Vec<EntryView>,
}

/// One move in the game's Penny Ante log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PennyLogEntry {
    pub seq: i64,
    pub at: String,
    pub action: String,
    pub challenge: Option<Uuid>,
    pub undone: bool,
    /// A roll on the dice tray: a record of dice, not a move (undo passes over it).
    pub dice: bool,
}

/// The table after a move, with what happened in words.
pub type PennyChange = crate::services::log::TableChange<PennyView>;
