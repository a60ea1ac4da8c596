//! Penny Ante at the table (RULES.md §2): the penny ledger, adventures and the House,
//! antagonists, characteristics, loans and debts, and challenges move by move.
//!
//! Every move is one transaction that saves the table (and the sheets it touched) and logs
//! one event holding the state before and after — without the ledger's entries, which only
//! grow: the event records the ledger's length instead, so undo cuts the ledger back to it.
//! `undo_game` takes back the last move, whether at the table or in a challenge.

use std::collections::BTreeMap;

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::characters::{load, update};
use super::dice::{with_dice, DiceInput};
use super::games::existing_game;
use super::viewer::{device_viewer, not_yours, Viewer};
use crate::error::{Error, Result};
use crate::model::{clean_name, now, Character, CharacterRecord, Game, System};
use crate::rules::penny_ante::challenge::{
    self, Bid, Challenge, ChallengeEvent, Move, Phase, Roster, Setup, Side, Used,
};
use crate::rules::penny_ante::history::ChallengeRecord;
use crate::rules::penny_ante::ledger::{Account, Debt, Entry, Reason};
use crate::rules::penny_ante::odds::ShowdownOdds;
use crate::rules::penny_ante::score::Hand;
use crate::rules::penny_ante::table::{
    Adventure, Characteristic, FundingBasis, HouseBudget, PennySheet, PennyTable, TableEvent,
};
use crate::store::{Event, EventKind, NewEvent, Reader, Store, Tx};

/// The state a Penny Ante event snapshots: the table without its ledger entries (but with
/// the ledger's length and its debts) and without its history (but with its length and the
/// records the move changed), and the characters whose sheets the move changed. Entries
/// and records only grow during play, so a campaign's events stay small.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Snapshot {
    table: PennyTable,
    ledger_len: usize,
    /// None in events logged before the history was kept: undoing them keeps it as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    history_len: Option<usize>,
    /// The records the move added or changed, by position, as they were in this state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    history_changed: Vec<(usize, ChallengeRecord)>,
    /// Each changed character as it was (None: it did not exist).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    characters: Vec<(Uuid, Option<CharacterRecord>)>,
}

impl Snapshot {
    /// `table` as a snapshot; `changed` are the positions of the history records the move
    /// added or changed (those present in `table` are kept).
    fn of(table: &PennyTable, changed: &[usize], characters: Vec<(Uuid, Option<CharacterRecord>)>) -> Self {
        let mut table = table.clone();
        let ledger_len = table.ledger.entries.len();
        table.ledger.entries.clear();
        let history = std::mem::take(&mut table.history);
        let history_len = Some(history.len());
        let history_changed = changed.iter().filter_map(|&i| history.get(i).map(|r| (i, r.clone()))).collect();
        Snapshot { table, ledger_len, history_len, history_changed, characters }
    }

    /// The history this snapshot stood for, given the history `now` (which holds every
    /// record up to its length that the move did not change).
    fn history(&self, now: &[ChallengeRecord]) -> Vec<ChallengeRecord> {
        let Some(len) = self.history_len else { return now.to_vec() };
        let mut out = now[..len.min(now.len())].to_vec();
        for (i, r) in &self.history_changed {
            if let Some(slot) = out.get_mut(*i) {
                *slot = r.clone();
            }
        }
        out
    }
}

/// The positions of the history records that differ between two tables.
fn history_changes(before: &PennyTable, after: &PennyTable) -> Vec<usize> {
    let longest = before.history.len().max(after.history.len());
    (0..longest).filter(|&i| before.history.get(i) != after.history.get(i)).collect()
}

/// The payload of every Penny Ante event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Payload {
    /// What was done, in words ("Ada raised by 2").
    action: String,
    before: Snapshot,
    after: Snapshot,
    /// The challenge the move belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    challenge: Option<Uuid>,
    /// The rules' own events, for history.
    #[serde(default)]
    events: serde_json::Value,
    /// A move of the House's own between challenges (its antagonists, their purses): the
    /// log tells only the table side what it was.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    house_secret: bool,
}

/// Whether undoing `kind` restores a Penny Ante snapshot.
pub(super) fn is_penny_event(kind: EventKind) -> bool {
    matches!(kind, EventKind::PennyTableChanged | EventKind::PennyChallengeMove)
}

// ---------------------------------------------------------------------------------------
// Views

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
    /// None in a view without the table's secrets.
    pub purse: Option<i64>,
    /// Without the table's secrets, only those not marked hidden.
    pub characteristics: Vec<Characteristic>,
    /// Comes back in later adventures, keeping its purse.
    pub recurring: bool,
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
    /// Position in the game's ledger, from 1.
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
}

/// The table after a move, with what happened in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PennyChange {
    pub view: PennyView,
    pub message: String,
}

// ---------------------------------------------------------------------------------------
// Reading

/// The game, which must exist and play Penny Ante.
fn penny_game(read: Reader<'_>, game: Uuid) -> Result<Game> {
    let g = existing_game(read, game)?;
    if g.system != System::PennyAnte {
        return Err(Error::invalid("game", format!("“{}” is a {} game, not Penny Ante", g.name, g.system.label())));
    }
    Ok(g)
}

fn setting(game: &Game, name: &str) -> u64 {
    let default = crate::rules::table_settings::defaults(System::PennyAnte).get(name).copied().unwrap_or(0);
    u64::try_from(game.table_settings.get(name).copied().unwrap_or(default)).unwrap_or(0)
}

fn cap(game: &Game) -> Option<u64> {
    Some(setting(game, "antagonist_cap")).filter(|&c| c > 0)
}

/// The game's characters with their sheets.
fn players(read: Reader<'_>, game: Uuid) -> Result<Vec<CharacterRecord>> {
    read.characters_of(game)?.into_iter().map(|c| load(read, c.id)).collect()
}

fn roster(players: &[CharacterRecord]) -> Roster {
    players
        .iter()
        .map(|r| (r.character.id, r.penny_ante.as_ref().map(|s| s.characteristics.clone()).unwrap_or_default()))
        .collect()
}

/// Names every account.
struct Names(BTreeMap<Account, String>);

impl Names {
    fn new(players: &[CharacterRecord], table: &PennyTable) -> Self {
        let mut names = BTreeMap::new();
        for p in players {
            names.insert(Account::Character(p.character.id), p.character.name.clone());
        }
        for a in &table.antagonists {
            names.insert(Account::Antagonist(a.id), a.name.clone());
        }
        Names(names)
    }

    fn of(&self, account: Account) -> String {
        match account {
            Account::Bank => "the Bank".into(),
            Account::House => "the House".into(),
            Account::Pot(_) => "the pot".into(),
            other => self.0.get(&other).cloned().unwrap_or_else(|| "someone no longer at the table".into()),
        }
    }

    fn named(&self, account: Account) -> Named {
        Named { account, name: self.of(account) }
    }

    fn side(&self, c: &Challenge, side: Side) -> String {
        let names: Vec<String> = c.side(side).accounts().map(|a| self.of(a)).collect();
        match names.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => side.label().into(),
        }
    }
}

/// Whether `viewer`'s view of the table holds the House's secrets (purses, hidden
/// characteristics, devoted pennies). A device passed around does not: its screen is the
/// whole table's, and the House's secrets open only behind the window's hand-over
/// ([`penny_table_as_house`]).
fn shows_house_secrets(viewer: &Viewer) -> bool {
    *viewer == Viewer::Table
}

fn view(read: Reader<'_>, game: &Game, table: &PennyTable, viewer: &Viewer) -> Result<PennyView> {
    let secrets = shows_house_secrets(viewer);
    let players = players(read, game.id)?;
    let names = Names::new(&players, table);
    let pile = |a: Account| table.pile(&a);
    let budget = table.house_budget(&players.iter().map(|p| p.character.id).collect::<Vec<_>>());
    let recurring_purses =
        table.antagonists.iter().filter(|a| a.recurring).map(|a| pile(Account::Antagonist(a.id))).sum();
    Ok(PennyView {
        game: game.clone(),
        starting_pennies: setting(game, "starting_pennies"),
        antagonist_cap: cap(game),
        adventure: table.adventure,
        house: pile(Account::House),
        default_house_funding: budget.amount,
        house_budget: budget_view(&names, &budget),
        recurring_purses: secrets.then_some(recurring_purses),
        players: players
            .iter()
            .map(|p| {
                let id = p.character.id;
                let characteristics = p.penny_ante.as_ref().map(|s| s.characteristics.clone()).unwrap_or_default();
                let lost = p.penny_ante.as_ref().map_or(0, |s| s.lost);
                let characteristic_waits = if !table.adventure.running {
                    None
                } else if characteristics.is_empty() && lost > 0 {
                    Some("Lost in a buyout: a new free characteristic waits until the adventure ends.".to_owned())
                } else if !characteristics.is_empty() {
                    Some("Characteristics are bought only between adventures.".to_owned())
                } else {
                    None
                };
                PlayerView {
                    id,
                    name: p.character.name.clone(),
                    pile: pile(Account::Character(id)),
                    next_price: if characteristics.is_empty() { 0 } else { 5 },
                    lost,
                    characteristic_waits,
                    characteristics,
                    purchases: table.purchases(id),
                    received_starting_pennies: table
                        .ledger
                        .entries
                        .iter()
                        .any(|e| e.reason == Reason::StartingPennies && e.to == Account::Character(id)),
                }
            })
            .collect(),
        antagonists: table
            .antagonists
            .iter()
            .map(|a| AntagonistView {
                id: a.id,
                name: a.name.clone(),
                purse: secrets.then(|| pile(Account::Antagonist(a.id))),
                characteristics: a.characteristics.iter().filter(|c| secrets || !c.hidden).cloned().collect(),
                recurring: a.recurring,
            })
            .collect(),
        loans: table
            .loans
            .iter()
            .map(|l| LoanView {
                id: l.id,
                lender: names.named(l.lender),
                borrower: names.named(l.borrower),
                amount: l.amount,
                repaid: l.repaid,
                outstanding: l.outstanding(),
                adventure: l.adventure,
                flagged: l.flagged,
                in_debt: l.in_debt,
            })
            .collect(),
        debts: table.ledger.debts.iter().map(|d: &Debt| debt_view(&names, d)).collect(),
        challenge: table.challenge.as_ref().map(|c| challenge_view(table, &players, &names, c, secrets)),
        history: table.history.iter().rev().map(|r| history_view(table, &names, r, viewer)).collect(),
    })
}

fn budget_view(names: &Names, b: &HouseBudget) -> HouseBudgetView {
    let joined: Vec<String> = b.newcomers.iter().map(|&c| names.of(Account::Character(c))).collect();
    let newcomers = match joined.as_slice() {
        [] => String::new(),
        [one] => format!(", and {one}'s starting pennies ({one} joined since)"),
        [rest @ .., last] => format!(", and the starting pennies of {} and {last}, who joined since", rest.join(", ")),
    };
    let words = match b.basis {
        FundingBasis::StartingPennies => {
            "the players' starting pennies, before any characteristic was bought (the first adventure)".to_owned()
        }
        FundingBasis::EndOf(n) => format!("the players' piles when adventure {n} ended{newcomers}"),
        FundingBasis::PilesNow => {
            "the players' piles now (no figure was kept when the last adventure ended)".to_owned()
        }
    };
    HouseBudgetView { amount: b.amount, basis: b.basis, words: sentence(words) }
}

fn history_view(table: &PennyTable, names: &Names, r: &ChallengeRecord, viewer: &Viewer) -> HistoryView {
    // A device passed around shows a hidden characteristic only behind the House's hand-over.
    let secrets = shows_house_secrets(viewer);
    let side_name = |s: Side| {
        let list: Vec<String> = r.side(s).members.iter().map(|a| names.of(*a)).collect();
        match list.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => s.label().into(),
        }
    };
    let side = |s: Side| {
        let rs = r.side(s);
        HistorySideView {
            side: s,
            name: side_name(s),
            members: rs.members.iter().map(|a| names.named(*a)).collect(),
            used: rs.used.iter().map(|u| used_view(table, names, u, secrets)).collect(),
            hand: rs.hand.as_ref().map(HandView::from),
            given_up: rs.given_up.iter().map(|u| used_view(table, names, u, secrets)).collect(),
        }
    };
    // The record keeps no payments, so a fold at the ante reads like any fold here.
    let hands = [r.side(Side::Challenger).hand.as_ref(), r.side(Side::Opponent).hand.as_ref()];
    let ending =
        Ending { winner: r.winner, folded: r.folded, nothing_at_stake: false, pot: r.pot, hands, narrator: r.narrator };
    let summary = ending.words(side_name);
    HistoryView {
        challenge: r.challenge,
        adventure: r.adventure,
        stake: r.stake.clone(),
        ante: r.ante,
        pot: r.pot,
        winner: r.winner,
        folded: r.folded,
        narrator: r.narrator,
        narrator_name: r.narrator.map(side_name),
        sides: [side(Side::Challenger), side(Side::Opponent)],
        summary: sentence(summary),
        narration: r.narration.clone(),
        can_narrate: may_narrate(viewer, r),
        characters: r
            .sides
            .iter()
            .flat_map(|s| &s.members)
            .filter_map(|a| match a {
                Account::Character(id) => Some(*id),
                _ => None,
            })
            .collect(),
    }
}

fn debt_view(names: &Names, d: &Debt) -> DebtView {
    DebtView { debtor: names.named(d.debtor), creditor: names.named(d.creditor), amount: d.amount }
}

/// The challenge as the table sees it; without `secrets`, an antagonist's purse (its pile,
/// what its side can still put in, what it devoted) and the text of its hidden
/// characteristics are left out.
fn challenge_view(
    table: &PennyTable,
    players: &[CharacterRecord],
    names: &Names,
    c: &Challenge,
    secrets: bool,
) -> ChallengeView {
    let shown = |a: Account| secrets || !matches!(a, Account::Antagonist(_));
    let over = c.phase == Phase::Over;
    let folded = c.outcome.as_ref().is_some_and(|o| o.folded.is_some());
    let anonymous_side = c.devoted.and_then(|_| {
        Side::BOTH
            .into_iter()
            .find(|&s| c.side(s).members.len() == 1 && matches!(c.side(s).lead(), Account::Antagonist(_)))
    });
    let side_view = |side: Side| {
        let s = c.side(side);
        SideView {
            side,
            name: names.side(c, side),
            members: s
                .members
                .iter()
                .map(|m| MemberView {
                    account: m.account,
                    name: names.of(m.account),
                    paid: m.paid,
                    pile: shown(m.account).then(|| table.pile(&m.account)),
                })
                .collect(),
            used: s.used.iter().map(|u| used_view(table, names, u, secrets)).collect(),
            dice_count: if s.dice.is_empty() { 1 + s.used.len() } else { s.dice.len() },
            rolled: !s.dice.is_empty(),
            cup_chosen: s.cup_chosen,
            revealed: c.revealed(side),
            in_cup: if c.cups_revealed() { s.cup.len() } else { 0 },
            // After a fold the dice still in a cup are never revealed (RULES §2.3): the view
            // keeps to what was on the table.
            dice: (over && !folded).then(|| s.dice.clone()),
            wager: s.wager,
            doubled: s.doubled,
            all_in: s.all_in,
            done: s.done,
            available: s.accounts().all(shown).then(|| challenge::available(&table.ledger, c, side)),
            anonymous: anonymous_side == Some(side),
            ante_owed: challenge::ante_owed(c, side),
        }
    };
    let in_challenge = |a: Account| c.side_of(a).is_some();
    let betting = matches!(c.phase, Phase::Betting1 | Phase::Betting2);
    let lenders = players
        .iter()
        .map(|p| Account::Character(p.character.id))
        .filter(|&a| betting && !in_challenge(a) && !c.lenders.contains(&a) && table.pile(&a) > 0)
        .map(|a| names.named(a))
        .collect();
    let loser = c.outcome.as_ref().and_then(|o| o.winner).map(Side::other);
    let bidders = if c.phase == Phase::AfterLoss {
        players
            .iter()
            .map(|p| Account::Character(p.character.id))
            .chain([Account::House])
            .filter(|&a| loser.is_none_or(|l| c.side(l).accounts().all(|m| m != a)) && table.pile(&a) > 0)
            .map(|a| names.named(a))
            .collect()
    } else {
        Vec::new()
    };
    ChallengeView {
        id: c.id,
        stake: c.stake.clone(),
        ante: c.ante,
        devoted: c.devoted.filter(|_| secrets),
        phase: c.phase,
        step: step_words(names, c),
        turn: c.turn,
        pot: table.pile(&Account::Pot(c.id)),
        sides: [side_view(Side::Challenger), side_view(Side::Opponent)],
        circumstances: c.circumstances.clone(),
        offer: c.offer.as_ref().map(|o| OfferView { lender: names.named(o.lender), side: o.side, amount: o.amount }),
        bids: c.bids.iter().map(|b: &Bid| BidView { bidder: names.named(b.bidder), amount: b.amount }).collect(),
        lenders,
        bidders,
        outcome: c.outcome.as_ref().map(|o| OutcomeView {
            winner: o.winner,
            folded: o.folded,
            hands: o.hands.as_ref().map(|[a, b]| [HandView::from(a), HandView::from(b)]),
            narrator: o.narrator,
            pot: o.pot,
            summary: outcome_words(names, c),
        }),
    }
}

fn used_view(table: &PennyTable, names: &Names, u: &Used, secrets: bool) -> UsedView {
    let hidden = match u.owner {
        Account::Antagonist(id) => table
            .antagonists
            .iter()
            .find(|a| a.id == id)
            .is_some_and(|a| a.characteristics.iter().any(|c| c.hidden && c.text == u.text)),
        _ => false,
    };
    let text = if hidden && !secrets { "a hidden characteristic".to_owned() } else { u.text.clone() };
    UsedView { owner: u.owner, owner_name: names.of(u.owner), text }
}

/// `text` with its first letter in capitals: names such as "the House" start sentences.
fn sentence(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

fn step_words(names: &Names, c: &Challenge) -> String {
    sentence(step_text(names, c))
}

fn step_text(names: &Names, c: &Challenge) -> String {
    let who = |s: Side| names.side(c, s);
    let waiting = || Side::BOTH.into_iter().filter(|s| !c.side(*s).done).map(who).collect::<Vec<_>>().join(" and ");
    let both_waiting = c.sides.iter().all(|s| !s.done);
    match c.phase {
        Phase::Circumstances => format!("Circumstances: {} may name one", waiting()),
        Phase::Characteristics => format!("{} declares characteristics", c.turn.map(who).unwrap_or_default()),
        Phase::Roll if both_waiting => format!("Private roll: {} roll and choose dice to reroll", waiting()),
        Phase::Roll => format!("Private roll: {} rolls and chooses dice to reroll", waiting()),
        Phase::Betting1 => format!("First betting round: {} to act", c.turn.map(who).unwrap_or_default()),
        Phase::NewCircumstances => format!("New circumstances (double down?): {}", waiting()),
        Phase::Reroll => format!("Reroll the cup: {}", waiting()),
        Phase::Betting2 => format!("Second betting round: {} to act", c.turn.map(who).unwrap_or_default()),
        Phase::AfterLoss => {
            let loser = c.outcome.as_ref().and_then(|o| o.winner).map(Side::other).map(who).unwrap_or_default();
            format!("{loser} lost everything: take the highest buyout, or go into debt")
        }
        Phase::Over => outcome_words(names, c),
    }
}

fn outcome_words(names: &Names, c: &Challenge) -> String {
    sentence(outcome_text(names, c))
}

fn outcome_text(names: &Names, c: &Challenge) -> String {
    let Some(o) = &c.outcome else { return String::new() };
    // A short side that folded at the ante paid nothing: nobody took anything.
    let nothing_at_stake = o.folded.is_some_and(|f| c.side(f).members.iter().all(|m| m.paid == 0));
    let hands = o.hands.as_ref().map_or([None, None], |h| [Some(&h[0]), Some(&h[1])]);
    let ending =
        Ending { winner: o.winner, folded: o.folded, nothing_at_stake, pot: o.pot, hands, narrator: o.narrator };
    ending.words(|s| names.side(c, s))
}

/// How a challenge ended: the live challenge's and the campaign history's one sentence.
struct Ending<'a> {
    winner: Option<Side>,
    folded: Option<Side>,
    /// The side that folded had paid nothing (at the ante): the antes went back.
    nothing_at_stake: bool,
    pot: u64,
    /// The challenger's and the opponent's hands, at a showdown.
    hands: [Option<&'a Hand>; 2],
    narrator: Option<Side>,
}

impl Ending<'_> {
    fn words(&self, who: impl Fn(Side) -> String) -> String {
        let narrates = self.narrator.map(|n| format!(" {} narrates.", sentence(who(n)))).unwrap_or_default();
        let hand = |s: Side| self.hands[if s == Side::Challenger { 0 } else { 1 }];
        match (self.winner, self.folded) {
            (Some(_), Some(f)) if self.nothing_at_stake => {
                format!("{} folded before anything was at stake; the antes went back.{narrates}", who(f))
            }
            (Some(w), Some(f)) => format!("{} folded; {} takes the pot of {}.{narrates}", who(f), who(w), self.pot),
            (Some(w), None) => match (hand(w), hand(w.other())) {
                (Some(h), Some(l)) => format!(
                    "{} wins the pot of {} with {}, {} against {}, {}.{narrates}",
                    who(w),
                    self.pot,
                    h.category.label(),
                    h.score,
                    l.category.label(),
                    l.score
                ),
                _ => format!("{} wins the pot of {}.{narrates}", who(w), self.pot),
            },
            (None, _) => match hand(Side::Challenger) {
                Some(h) => format!("A tie at {} ({}): each side takes back its wager.", h.score, h.category.label()),
                None => "A tie: each side takes back its wager.".to_owned(),
            },
        }
    }
}

/// The Penny Ante table of a game, as everyone may see it.
/// The table as this device may see it (its role in the game).
pub fn penny_table(store: &Store, game: Uuid) -> Result<PennyView> {
    let read = store.read();
    table_for(read, game, &device_viewer(read, game)?)
}

pub(super) fn table_for(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<PennyView> {
    let g = penny_game(read, game)?;
    view(read, &g, &read.penny_table(game)?, viewer)
}

/// Whether `viewer` may look into `side`'s cup: a player into a side with one of their
/// characters, the table into a side the House or an antagonist plays.
pub(crate) fn sees_side(viewer: &Viewer, c: &Challenge, side: Side) -> bool {
    c.side(side).accounts().any(|a| match a {
        Account::Character(id) => viewer.sees_character(id),
        _ => viewer.sees_table_secrets(),
    })
}

/// The private views of the running challenge's sides `viewer` may see.
pub(super) fn private_sides(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<Vec<PrivateView>> {
    let table = read.penny_table(game)?;
    let Some(c) = table.challenge.as_ref() else { return Ok(Vec::new()) };
    Side::BOTH
        .into_iter()
        .filter(|&side| *viewer != Viewer::PassedAround && sees_side(viewer, c, side))
        .map(|side| private_view(read, game, side, None))
        .collect()
}

/// What `side` sees of the running challenge, with its exact odds; with `cup`, the odds as
/// if it put those dice in its cup.
pub fn penny_private(store: &Store, game: Uuid, side: Side, cup: Option<Vec<usize>>) -> Result<PrivateView> {
    let read = store.read();
    own_side(read, game, side)?;
    private_view(read, game, side, cup)
}

/// What `side` sees while it declares its characteristics, with its odds as if it used
/// `declared` of them (the opponent's declared dice unknown): the numbers follow the boxes
/// ticked (RULES §2.3 decision).
pub fn penny_private_declaring(store: &Store, game: Uuid, side: Side, declared: usize) -> Result<PrivateView> {
    let read = store.read();
    let c = own_side(read, game, side)?;
    let mut view = private_view(read, game, side, None)?;
    view.odds = Some(c.odds_declaring(side, declared)?.into());
    Ok(view)
}

/// The running challenge, when this device may look into `side`'s cup.
fn own_side(read: Reader<'_>, game: Uuid, side: Side) -> Result<Challenge> {
    penny_game(read, game)?;
    let table = read.penny_table(game)?;
    let c = table.challenge.ok_or_else(|| Error::invalid("challenge", "no challenge at this table"))?;
    if !sees_side(&device_viewer(read, game)?, &c, side) {
        return Err(not_yours("side", "That side's cup"));
    }
    Ok(c)
}

/// The table as the House sees it, with its secrets (purses, hidden characteristics, devoted
/// pennies): on the House's own device, or on a device passed around once the window has
/// handed it to the House. A player's device is refused.
pub fn penny_table_as_house(store: &Store, game: Uuid) -> Result<PennyView> {
    let read = store.read();
    if !device_viewer(read, game)?.sees_table_secrets() {
        return Err(not_yours("house", "The House's secrets"));
    }
    table_for(read, game, &Viewer::Table)
}

fn private_view(read: Reader<'_>, game: Uuid, side: Side, cup: Option<Vec<usize>>) -> Result<PrivateView> {
    let table = read.penny_table(game)?;
    let c = table.challenge.as_ref().ok_or_else(|| Error::invalid("challenge", "no challenge at this table"))?;
    let players = players(read, game)?;
    let names = Names::new(&players, &table);
    let roster = roster(&players);
    let mut characteristics = Vec::new();
    for account in c.side(side).accounts() {
        let texts: Vec<String> = match account {
            Account::Character(id) => roster.get(&id).cloned().unwrap_or_default(),
            Account::Antagonist(id) => table.antagonist(id)?.characteristics.iter().map(|c| c.text.clone()).collect(),
            _ => Vec::new(),
        };
        characteristics.extend(texts.into_iter().map(|text| UsedView {
            owner: account,
            owner_name: names.of(account),
            text,
        }));
    }
    let s = c.side(side);
    let odds = if c.phase == Phase::Over { None } else { Some(c.odds_for(side, cup.as_deref())?.into()) };
    let lone_antagonist = s.members.len() == 1 && matches!(s.lead(), Account::Antagonist(_));
    Ok(PrivateView {
        side,
        dice: s.dice.clone(),
        cup: s.cup.clone(),
        odds,
        characteristics,
        available: challenge::available(&table.ledger, c, side),
        devoted: c.devoted.filter(|_| lone_antagonist),
    })
}

/// Whether this device's ledger and log hold the House's secrets: on the House's device; on
/// a device passed around only with `house` (once the window handed it to the House);
/// `house` on a player's device is refused.
fn house_secrets_here(read: Reader<'_>, game: Uuid, house: bool) -> Result<bool> {
    let viewer = device_viewer(read, game)?;
    if house && !viewer.sees_table_secrets() {
        return Err(not_yours("house", "The House's secrets"));
    }
    Ok(house || shows_house_secrets(&viewer))
}

/// The ledger of a game, or of one account in it; newest first, at most `limit` entries.
/// Without the House's secrets ([`house_secrets_here`]), the antagonists' purses stay out:
/// no entry to or from one, and no ledger of one.
pub fn penny_ledger(
    store: &Store,
    game: Uuid,
    account: Option<Account>,
    limit: usize,
    house: bool,
) -> Result<LedgerView> {
    let read = store.read();
    penny_game(read, game)?;
    let table = read.penny_table(game)?;
    let secrets = house_secrets_here(read, game, house)?;
    let shown = |a: Account| secrets || !matches!(a, Account::Antagonist(_));
    if account.is_some_and(|a| !shown(a)) {
        return Err(not_yours("account", "An antagonist's purse"));
    }
    let players = players(read, game)?;
    let names = Names::new(&players, &table);
    let mut pile = 0i64;
    let mut entries = Vec::new();
    for (i, e) in table.ledger.entries.iter().enumerate() {
        let touches = account.is_none_or(|a| e.from == a || e.to == a);
        if !touches {
            continue;
        }
        let amount = i64::try_from(e.amount).unwrap_or(i64::MAX);
        if let Some(a) = account {
            if e.to == a {
                pile += amount;
            }
            if e.from == a {
                pile -= amount;
            }
        }
        if !shown(e.from) || !shown(e.to) {
            continue;
        }
        entries.push(entry_view(&names, i, e, account.map(|_| pile)));
    }
    entries.reverse();
    entries.truncate(limit);
    Ok(LedgerView { account: account.map(|a| names.named(a)), pile: account.map(|a| table.pile(&a)), entries })
}

fn entry_view(names: &Names, i: usize, e: &Entry, pile_after: Option<i64>) -> EntryView {
    EntryView {
        n: i + 1,
        from: names.named(e.from),
        to: names.named(e.to),
        amount: e.amount,
        reason: e.reason,
        reason_words: reason_words(e.reason),
        challenge: e.challenge,
        pile_after,
    }
}

fn reason_words(r: Reason) -> &'static str {
    match r {
        Reason::StartingPennies => "starting pennies",
        Reason::CharacteristicBought => "characteristic bought",
        Reason::HouseFunding => "House funding",
        Reason::HouseReturned => "House's pennies back to the Bank",
        Reason::CarriedIn => "brought from another table",
        Reason::AntagonistFunding => "antagonist funded",
        Reason::PurseReturned => "purse returned",
        Reason::Ante => "ante",
        Reason::Wager => "wager",
        Reason::PotWon => "pot won",
        Reason::WagerReturned => "wager returned",
        Reason::Loan => "loan",
        Reason::LoanRepaid => "loan repaid",
        Reason::DebtRecorded => "given back as a debt",
        Reason::DebtRepaid => "debt repaid",
        Reason::Buyout => "buyout",
    }
}

/// The game's Penny Ante moves, newest first; the House's readying of its antagonists in
/// words only with its secrets ([`house_secrets_here`]).
pub fn penny_log(store: &Store, game: Uuid, limit: u32, house: bool) -> Result<Vec<PennyLogEntry>> {
    let read = store.read();
    penny_game(read, game)?;
    let secrets = house_secrets_here(read, game, house)?;
    let mut out = Vec::new();
    for kind in [EventKind::PennyTableChanged, EventKind::PennyChallengeMove] {
        for (e, undone) in read.events_of_kind(game, None, kind, limit)? {
            let action = if !secrets && e.payload["house_secret"].as_bool() == Some(true) {
                "The House readied its antagonists.".to_owned()
            } else {
                e.payload["action"].as_str().unwrap_or_default().to_owned()
            };
            let challenge = e.payload["challenge"].as_str().and_then(|s| Uuid::parse_str(s).ok());
            out.push(PennyLogEntry { seq: e.seq, at: crate::model::timestamp(e.at), action, challenge, undone });
        }
    }
    out.sort_by_key(|e| std::cmp::Reverse(e.seq));
    out.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Changing

/// What a move hands back to [`change`]: the new table, the sheets it changed, the
/// message, and the rules' events.
struct Moved {
    table: PennyTable,
    sheets: Vec<CharacterRecord>,
    message: String,
    events: serde_json::Value,
}

impl Moved {
    fn table(table: PennyTable, message: String, events: &impl Serialize) -> Self {
        let events = serde_json::to_value(events).expect("events serialize");
        Moved { table, sheets: Vec::new(), message: sentence(message), events }
    }
}

/// The context a move is played in.
struct Ctx<'a> {
    read: Reader<'a>,
    game: Game,
    players: Vec<CharacterRecord>,
    names: Names,
}

/// Applies one move to game `game` in one transaction and logs it.
fn change(
    store: &mut Store,
    game: Uuid,
    kind: EventKind,
    play: impl FnOnce(&Ctx<'_>, &PennyTable) -> Result<Moved>,
) -> Result<PennyChange> {
    store.write(|tx| {
        let read = tx.read();
        let g = penny_game(read, game)?;
        let before = read.penny_table(game)?;
        let players = players(read, game)?;
        let names = Names::new(&players, &before);
        let ctx = Ctx { read, game: g.clone(), players, names };
        let moved = play(&ctx, &before)?;
        let mut changed = Vec::new();
        for sheet in &moved.sheets {
            let id = sheet.character.id;
            let old = read.character(id)?.map(|_| load(read, id)).transpose()?;
            let mut record = sheet.clone();
            if let Some(old) = &old {
                record.character.revision = super::characters::next_revision(old.character.revision)?;
                record.character.updated_at = now();
                update(tx, &record)?;
            } else {
                super::characters::insert(tx, &record)?;
            }
            changed.push((id, old, record));
        }
        tx.put_penny_table(game, &moved.table)?;
        tx.touch_game(game, now())?;
        let challenge = moved.table.challenge.as_ref().filter(|_| kind == EventKind::PennyChallengeMove).map(|c| c.id);
        let kept = history_changes(&before, &moved.table);
        let payload = Payload {
            action: moved.message.clone(),
            before: Snapshot::of(&before, &kept, changed.iter().map(|(id, old, _)| (*id, old.clone())).collect()),
            after: Snapshot::of(&moved.table, &kept, changed.into_iter().map(|(id, _, new)| (id, Some(new))).collect()),
            challenge,
            events: moved.events,
            house_secret: kind == EventKind::PennyTableChanged && touches_antagonists(&before, &moved.table),
        };
        append(tx, game, kind, &payload, None)?;
        let g = read.game(game)?.unwrap_or(g);
        let viewer = device_viewer(read, game)?;
        Ok(PennyChange { view: view(read, &g, &moved.table, &viewer)?, message: moved.message })
    })
}

/// Whether a move between challenges changed an antagonist or moved pennies to or from one.
fn touches_antagonists(before: &PennyTable, after: &PennyTable) -> bool {
    let antagonist = |a: &Account| matches!(a, Account::Antagonist(_));
    before.antagonists != after.antagonists
        || after
            .ledger
            .entries
            .iter()
            .skip(before.ledger.entries.len())
            .any(|e| antagonist(&e.from) || antagonist(&e.to))
}

fn append(tx: &Tx<'_>, game: Uuid, kind: EventKind, payload: &Payload, undoes: Option<i64>) -> Result<i64> {
    let payload = serde_json::to_value(payload).expect("penny payloads always serialize");
    tx.append_event(&NewEvent { at: now(), game_id: game, character_id: None, kind, undoes, payload })
}

/// Takes back a Penny Ante move: the ledger is cut back to its length before the move, the
/// rest of the table and the sheets the move changed are restored.
pub(super) fn undo_penny_event(tx: &Tx<'_>, event: &Event) -> Result<String> {
    let payload: Payload = serde_json::from_value(event.payload.clone()).map_err(|e| {
        Error::invalid("event log", format!("event {} ({}) cannot be read: {e}", event.seq, event.kind.as_str()))
    })?;
    let read = tx.read();
    let game = event.game_id;
    let current = read.penny_table(game)?;
    if current.ledger.entries.len() != payload.after.ledger_len {
        return Err(Error::invalid("ledger", "the ledger changed since this move (an import?); undo that first"));
    }
    if payload.after.history_len.is_some_and(|len| len != current.history.len()) {
        return Err(Error::invalid("history", "the history changed since this move (an import?); undo that first"));
    }
    for (id, after) in &payload.after.characters {
        let now_record = read.character(*id)?.map(|_| load(read, *id)).transpose()?;
        let same = match (&now_record, after) {
            (Some(a), Some(b)) => a.penny_ante == b.penny_ante && a.character.name == b.character.name,
            (None, None) => true,
            _ => false,
        };
        if !same {
            let name = after.as_ref().map(|r| r.character.name.clone()).unwrap_or_default();
            return Err(Error::invalid("character", format!("“{name}” changed since this move; undo that first")));
        }
    }
    let mut restored = payload.before.table.clone();
    restored.ledger.entries =
        current.ledger.entries[..payload.before.ledger_len.min(current.ledger.entries.len())].to_vec();
    restored.history = payload.before.history(&current.history);
    let kept = history_changes(&current, &restored);
    for (id, before) in &payload.before.characters {
        match before {
            Some(record) => {
                let mut record = record.clone();
                let current = load(read, *id)?;
                record.character.revision = super::characters::next_revision(current.character.revision)?;
                record.character.updated_at = now();
                update(tx, &record)?;
            }
            None => tx.delete_character(*id)?,
        }
    }
    tx.put_penny_table(game, &restored)?;
    tx.touch_game(game, now())?;
    let message = format!("Undone: {}", payload.action);
    let undo = Payload {
        action: message.clone(),
        before: Snapshot::of(&current, &kept, payload.after.characters.clone()),
        after: Snapshot::of(&restored, &kept, payload.before.characters.clone()),
        challenge: payload.challenge,
        events: serde_json::Value::Null,
        house_secret: payload.house_secret,
    };
    let payload_value = serde_json::to_value(&undo).expect("penny payloads always serialize");
    tx.append_event(&NewEvent {
        at: now(),
        game_id: game,
        character_id: None,
        kind: EventKind::Undo,
        undoes: Some(event.seq),
        payload: payload_value,
    })?;
    Ok(message)
}

fn amount_of(field: &str, n: i64) -> Result<u64> {
    u64::try_from(n)
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| Error::invalid(field, "must be a whole number of pennies, at least 1"))
}

/// A new Penny Ante character with its first (free) characteristic and its starting pennies.
pub fn penny_create_character(
    store: &mut Store,
    game: Uuid,
    name: &str,
    characteristic: &str,
    pennies: i64,
) -> Result<PennyChange> {
    let name = clean_name("name", name)?;
    let pennies = amount_of("pennies", pennies)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let at = now();
        let character = Character {
            id: Uuid::new_v4(),
            game_id: game,
            system: System::PennyAnte,
            name: name.clone(),
            created_at: at,
            updated_at: at,
            revision: 1,
            notes: String::new(),
        };
        let id = character.id;
        let mut record = CharacterRecord::new(character);
        let (t, sheet, mut events) = table.buy_characteristic(id, &PennySheet::default(), characteristic)?;
        let (t, more) = t.starting_pennies(id, pennies, setting(&ctx.game, "starting_pennies"))?;
        events.extend(more);
        record.penny_ante = Some(sheet);
        let mut moved = Moved::table(t, format!("{name} joins the table with {pennies} pennies."), &events);
        moved.sheets.push(record);
        Ok(moved)
    })
}

/// Gives starting pennies to a character of the game that has none yet.
pub fn penny_starting_pennies(store: &mut Store, game: Uuid, character: Uuid, pennies: i64) -> Result<PennyChange> {
    let pennies = amount_of("pennies", pennies)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let who = player(ctx, character)?;
        let (t, events) = table.starting_pennies(character, pennies, setting(&ctx.game, "starting_pennies"))?;
        Ok(Moved::table(t, format!("{} receives {pennies} starting pennies.", who.character.name), &events))
    })
}

fn player<'a>(ctx: &'a Ctx<'_>, id: Uuid) -> Result<&'a CharacterRecord> {
    ctx.players
        .iter()
        .find(|p| p.character.id == id)
        .ok_or_else(|| Error::invalid("character", "is not a character of this game"))
}

/// A character takes a characteristic (free if it is the first, else 5 pennies).
pub fn penny_buy_characteristic(store: &mut Store, game: Uuid, character: Uuid, text: &str) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let mut record = player(ctx, character)?.clone();
        let sheet = record.penny_ante.clone().unwrap_or_default();
        let (t, sheet, events) = table.buy_characteristic(character, &sheet, text)?;
        let cost = if events.is_empty() { "free".to_owned() } else { "5 pennies".to_owned() };
        let added = sheet.characteristics.last().cloned().unwrap_or_default();
        record.penny_ante = Some(sheet);
        let mut moved = Moved::table(t, format!("{} takes “{added}” ({cost}).", record.character.name), &events);
        moved.sheets.push(record);
        Ok(moved)
    })
}

/// Starts the next adventure; the House gets `funding`, or by default the players' piles.
pub fn penny_start_adventure(store: &mut Store, game: Uuid, funding: Option<i64>) -> Result<PennyChange> {
    let funding = funding
        .map(|f| u64::try_from(f).map_err(|_| Error::invalid("funding", "must be 0 or more pennies")))
        .transpose()?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let ids: Vec<Uuid> = ctx.players.iter().map(|p| p.character.id).collect();
        let (t, events) = table.start_adventure(&ids, funding)?;
        let warning: String = events
            .iter()
            .filter_map(|e| match e {
                TableEvent::LoanBecameDebt { debtor, creditor, amount, .. } => Some(format!(
                    " {}'s unpaid loan of {amount} becomes a debt to {}, who narrates the setback.",
                    ctx.names.of(*debtor),
                    ctx.names.of(*creditor)
                )),
                _ => None,
            })
            .collect();
        let house = t.pile(&Account::House);
        Ok(Moved::table(
            t,
            format!("Adventure {} begins; the House holds {house}.{warning}", table.adventure.number + 1),
            &events,
        ))
    })
}

/// Ends the running adventure.
pub fn penny_end_adventure(store: &mut Store, game: Uuid) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let ids: Vec<Uuid> = ctx.players.iter().map(|p| p.character.id).collect();
        let (t, events) = table.end_adventure(&ids)?;
        let budget = t.house_budget(&ids).amount;
        Ok(Moved::table(
            t,
            format!("Adventure {} ends; the next one's House starts from {budget}.", table.adventure.number),
            &events,
        ))
    })
}

/// The House creates an antagonist.
pub fn penny_add_antagonist(
    store: &mut Store,
    game: Uuid,
    name: &str,
    characteristics: Vec<Characteristic>,
) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |_, table| {
        let (t, events) = table.add_antagonist(Uuid::new_v4(), name, &characteristics)?;
        let name = t.antagonists.last().map(|a| a.name.clone()).unwrap_or_default();
        Ok(Moved::table(t, format!("The House creates {name}."), &events))
    })
}

/// The House renames an antagonist or rewrites its characteristics.
pub fn penny_edit_antagonist(
    store: &mut Store,
    game: Uuid,
    antagonist: Uuid,
    name: &str,
    characteristics: Vec<Characteristic>,
) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |_, table| {
        let (t, events) = table.edit_antagonist(antagonist, name, &characteristics)?;
        Ok(Moved::table(t, format!("The House changes {}.", name.trim()), &events))
    })
}

/// The House funds an antagonist's purse (within the table's cap).
pub fn penny_fund_antagonist(store: &mut Store, game: Uuid, antagonist: Uuid, amount: i64) -> Result<PennyChange> {
    let amount = amount_of("amount", amount)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.fund_antagonist(antagonist, amount, cap(&ctx.game))?;
        let name = ctx.names.of(Account::Antagonist(antagonist));
        Ok(Moved::table(t, format!("The House gives {name} {amount} pennies."), &events))
    })
}

/// The House takes pennies back from an antagonist's purse.
pub fn penny_recall_purse(store: &mut Store, game: Uuid, antagonist: Uuid, amount: i64) -> Result<PennyChange> {
    let amount = amount_of("amount", amount)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.recall_purse(antagonist, amount)?;
        let name = ctx.names.of(Account::Antagonist(antagonist));
        Ok(Moved::table(t, format!("The House takes {amount} pennies back from {name}."), &events))
    })
}

/// A borrower pays back part or all of a loan.
pub fn penny_repay_loan(store: &mut Store, game: Uuid, loan: Uuid, amount: i64) -> Result<PennyChange> {
    let amount = amount_of("amount", amount)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.repay_loan(loan, amount)?;
        let l = t.loans.iter().find(|l| l.id == loan).expect("repaid above");
        let (from, to) = (ctx.names.of(l.borrower), ctx.names.of(l.lender));
        Ok(Moved::table(t.clone(), format!("{from} pays {to} back {amount} pennies."), &events))
    })
}

/// A debtor pays back part or all of a debt.
pub fn penny_repay_debt(
    store: &mut Store,
    game: Uuid,
    debtor: Account,
    creditor: Account,
    amount: i64,
) -> Result<PennyChange> {
    let amount = amount_of("amount", amount)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.repay_debt(debtor, creditor, amount)?;
        let (from, to) = (ctx.names.of(debtor), ctx.names.of(creditor));
        Ok(Moved::table(t, format!("{from} repays {to} {amount} pennies of a debt."), &events))
    })
}

/// The House marks an antagonist as recurring (its purse stays with it between adventures)
/// or not.
pub fn penny_set_recurring(store: &mut Store, game: Uuid, antagonist: Uuid, recurring: bool) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.set_recurring(antagonist, recurring)?;
        let name = ctx.names.of(Account::Antagonist(antagonist));
        let words = if recurring {
            format!("{name} will recur: its purse stays with it between adventures.")
        } else {
            format!("{name} no longer recurs: its purse goes back to the House when the adventure ends.")
        };
        Ok(Moved::table(t, words, &events))
    })
}

/// Writes what the narrator told of a finished challenge's outcome (an empty text clears
/// it). The narrator's player, or the table, writes it.
pub fn penny_narrate(store: &mut Store, game: Uuid, challenge: Uuid, text: &str) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let record =
            table.history.iter().find(|r| r.challenge == challenge).ok_or_else(|| {
                Error::invalid("challenge", format!("no finished challenge {challenge} at this table"))
            })?;
        if !may_narrate(&device_viewer(ctx.read, game)?, record) {
            return Err(not_yours("narration", "Another side's narration"));
        }
        let (t, events) = table.narrate(challenge, text)?;
        let words = if text.trim().is_empty() {
            format!("The narration of “{}” is cleared.", record.stake)
        } else {
            format!("The narration of “{}” is written.", record.stake)
        };
        Ok(Moved::table(t, words, &events))
    })
}

/// Whether `viewer` may write a finished challenge's narration: the table, or a player of a
/// character on the narrating side (on either side when no one narrates, a tie).
fn may_narrate(viewer: &Viewer, r: &ChallengeRecord) -> bool {
    if viewer.sees_table_secrets() {
        return true;
    }
    let sides: Vec<Side> = r.narrator.map_or_else(|| Side::BOTH.to_vec(), |n| vec![n]);
    sides
        .into_iter()
        .flat_map(|s| r.side(s).members.clone())
        .any(|a| matches!(a, Account::Character(id) if viewer.sees_character(id)))
}

/// How a challenge starts, as the UI sends it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ChallengeDraft {
    pub stake: String,
    pub ante: i64,
    pub challenger: Vec<Account>,
    pub opponent: Vec<Account>,
    #[serde(default)]
    pub devoted: Option<i64>,
}

/// Issues a challenge and takes the antes.
pub fn penny_start_challenge(store: &mut Store, game: Uuid, draft: ChallengeDraft) -> Result<PennyChange> {
    let ante = amount_of("ante", draft.ante)?;
    let devoted = draft.devoted.map(|d| amount_of("devoted", d)).transpose()?;
    change(store, game, EventKind::PennyChallengeMove, |ctx, table| {
        let setup = Setup {
            id: Uuid::new_v4(),
            stake: draft.stake.clone(),
            ante,
            challenger: draft.challenger.clone(),
            opponent: draft.opponent.clone(),
            devoted,
        };
        let (t, events) = challenge::start(table, &roster(&ctx.players), setup)?;
        let c = t.challenge.as_ref().expect("started");
        let names = Names::new(&ctx.players, &t);
        let message = format!(
            "{} challenges {} over “{}” (ante {}).",
            names.side(c, Side::Challenger),
            names.side(c, Side::Opponent),
            c.stake,
            ante
        );
        Ok(Moved::table(t, message, &events))
    })
}

/// One move in the running challenge, with dice rolled by the app or typed in.
pub fn penny_challenge_move<R: Rng>(
    store: &mut Store,
    game: Uuid,
    mv: Move,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PennyChange> {
    change(store, game, EventKind::PennyChallengeMove, |ctx, table| {
        let roster = roster(&ctx.players);
        let (t, events) = with_dice(dice, rng, |d| challenge::play(table, &roster, &mv, d))?;
        let names = Names::new(&ctx.players, &t);
        let c = t.challenge.as_ref().expect("a move keeps its challenge");
        let mut message = move_words(&names, c, &mv, &events);
        if c.phase == Phase::Over && table.running().is_some() {
            message = format!("{message} {}", outcome_words(&names, c));
        }
        // The challenge that ends here is kept in the campaign's history, with the
        // characteristics its buyout cost.
        let given_up: Vec<Used> = events
            .iter()
            .filter_map(|e| match e {
                ChallengeEvent::CharacteristicLost { owner, text } => Some(Used { owner: *owner, text: text.clone() }),
                _ => None,
            })
            .collect();
        let t = if c.phase == Phase::Over && table.running().is_some() {
            t.keep_finished_challenge(&given_up).0
        } else {
            t
        };
        let mut moved = Moved::table(t, message, &events);
        // A buyout costs each losing character a characteristic, for good (§2.2).
        for u in &given_up {
            if let Account::Character(id) = u.owner {
                let mut record =
                    moved.sheets.iter().find(|r| r.character.id == id).cloned().unwrap_or(player(ctx, id)?.clone());
                if let Some(sheet) = &mut record.penny_ante {
                    sheet.characteristics.retain(|c| *c != u.text);
                    sheet.lost = sheet.lost.saturating_add(1);
                }
                moved.sheets.retain(|r| r.character.id != id);
                moved.sheets.push(record);
            }
        }
        let _ = ctx.read;
        Ok(moved)
    })
}

/// A move in words for the log, without the dice in a cup.
fn move_words(names: &Names, c: &Challenge, mv: &Move, events: &[ChallengeEvent]) -> String {
    sentence(move_text(names, c, mv, events))
}

fn move_text(names: &Names, c: &Challenge, mv: &Move, events: &[ChallengeEvent]) -> String {
    let who = |s: Side| names.side(c, s);
    match mv {
        Move::Circumstance { side, name, double_down } => {
            let die = events.iter().find_map(|e| match e {
                ChallengeEvent::CircumstanceNamed { die, .. } => Some(*die),
                _ => None,
            });
            let dd = if *double_down { " and doubles down" } else { "" };
            format!("{} names the circumstance “{name}” ({}){dd}.", who(*side), die.unwrap_or(0))
        }
        Move::Pass { side } => format!("{} names no circumstance.", who(*side)),
        Move::Characteristics { side, used } => {
            let list: Vec<String> = used.iter().map(|u| format!("“{}”", u.text)).collect();
            if list.is_empty() {
                format!("{} uses no characteristic (1 die).", who(*side))
            } else {
                format!("{} uses {} ({} dice).", who(*side), list.join(", "), 1 + list.len())
            }
        }
        Move::Roll { side } => format!("{} rolls in private.", who(*side)),
        // Nothing shows until both cups are chosen; then both sides' dice at once.
        Move::Cup { side, .. } if !c.cups_revealed() => format!("{} has chosen its cup.", who(*side)),
        Move::Cup { side, .. } => {
            let shows = |s: Side| {
                let shown: Vec<String> = c.revealed(s).iter().map(u8::to_string).collect();
                let dice = if shown.is_empty() { "nothing".to_owned() } else { shown.join(" ") };
                format!("{} shows {dice} ({} in the cup)", who(s), c.side(s).cup.len())
            };
            format!(
                "{} has chosen its cup. Both cups are chosen: {}; {}.",
                who(*side),
                shows(Side::Challenger),
                shows(Side::Opponent)
            )
        }
        Move::Stand { side } => format!("{} stands.", who(*side)),
        Move::Raise { side, by } => format!("{} raises by {by} (wager {}).", who(*side), c.side(*side).wager),
        Move::Call { side } => format!("{} calls (wager {}).", who(*side), c.side(*side).wager),
        Move::Fold { side } if events.iter().any(|e| matches!(e, ChallengeEvent::FoldedAtAnte { .. })) => {
            format!("{} cannot pay the ante and folds before anything is at stake; the antes go back.", who(*side))
        }
        Move::Fold { side } => format!("{} folds.", who(*side)),
        Move::AllIn { side } if events.iter().any(|e| matches!(e, ChallengeEvent::AllInAtAnte { .. })) => {
            format!("{} cannot pay the ante and goes all in with {}.", who(*side), c.side(*side).wager)
        }
        Move::AllIn { side } => format!("{} goes all in (wager {}).", who(*side), c.side(*side).wager),
        Move::OfferLoan { lender, side, amount, .. } => {
            format!("{} offers {} a loan of {amount}.", names.of(*lender), who(*side))
        }
        Move::AnswerLoan { accept } => {
            let (lender, borrower, amount) = events
                .iter()
                .find_map(|e| match e {
                    ChallengeEvent::LoanAnswered { lender, borrower, amount, .. } => {
                        Some((*lender, *borrower, *amount))
                    }
                    _ => None,
                })
                .unwrap_or((Account::Bank, Account::Bank, 0));
            let verb = if *accept { "accepts" } else { "declines" };
            format!("{} {verb} the loan of {amount} from {}.", names.of(borrower), names.of(lender))
        }
        Move::Reroll { side } => format!("{} rerolls the cup.", who(*side)),
        Move::Bid { bidder, amount } => format!("{} offers a buyout of {amount}.", names.of(*bidder)),
        Move::AcceptBuyout { losses } => {
            let lost: Vec<String> =
                losses.iter().map(|u| format!("{} gives up “{}”", names.of(u.owner), u.text)).collect();
            format!("The buyout is accepted; {}.", lost.join(", "))
        }
        Move::Debt => "The losers go into debt; the winner narrates.".into(),
    }
}
