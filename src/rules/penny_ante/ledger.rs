//! The penny ledger (RULES.md §2.1, §2.2, §2.4): every penny that moves is an entry from one
//! account to another, and a pile is nothing but the sum of the entries that touch it.
//!
//! Every move takes the ledger by reference and returns a new ledger with the event that
//! describes the change; an illegal move returns an error naming the field and changes
//! nothing. The Bank stands outside the table: it may go below 0, and entries to or from it
//! are the only ones that change the table's total.
//!
//! Rulings where the source is silent:
//! - A single entry moves at most [`MAX_ENTRY`] pennies, so piles always fit in an `i64`.
//! - Each reason has a shape: an ante or a wager goes into a pot, a pot pays out only as a
//!   win or a returned wager, and the Bank only hands out starting pennies and House funding
//!   and only takes characteristic purchases. An entry that touches a pot names that pot's
//!   challenge.
//! - A character receives starting pennies once.
//! - The free first characteristic may be taken during an adventure (a player joining then
//!   needs one to play); bought ones wait for the adventure's end. A character who lost its
//!   last one in a buyout waits too (`PennyTable::buy_characteristic`, RULES.md §2.2).
//! - Debts are recorded and repaid only through [`record_debt`] and [`repay_debt`], so the
//!   list of debts and the entries never disagree; the one other debt is an unpaid loan's,
//!   [`debt_from_loan`], whose pennies already moved as the loan (the table's check counts
//!   it from the loan).
//! - An antagonist's cap bounds the pennies in the antagonist's purse after the funding.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::Problem;

/// The least a table may agree on for starting pennies unless it changes the setting.
pub const DEFAULT_STARTING_MINIMUM: u64 = 25;
/// What each characteristic after the first costs, paid to the Bank.
pub const CHARACTERISTIC_PRICE: u64 = 5;
/// The most pennies one entry may move.
pub const MAX_ENTRY: u64 = 1_000_000_000;

/// Where pennies can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Account {
    /// Outside the table: the source of starting money and House funding, the sink of
    /// characteristic purchases. Its pile may be negative.
    Bank,
    /// A player character's pile.
    Character(Uuid),
    /// The House's pile.
    House,
    /// An antagonist's purse, funded by the House.
    Antagonist(Uuid),
    /// The pot of the challenge with this id.
    Pot(Uuid),
}

impl Account {
    /// Whether the account is on the table (everything but the Bank).
    pub fn on_table(self) -> bool {
        self != Account::Bank
    }

    /// Whether the account can take part in play: a character, the House or an antagonist.
    pub fn is_party(self) -> bool {
        matches!(self, Account::Character(_) | Account::House | Account::Antagonist(_))
    }
}

/// Why pennies moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Bank → character: the pennies the table agreed on.
    StartingPennies,
    /// Character → Bank: a characteristic after the first.
    CharacteristicBought,
    /// Bank → House: the House's money at adventure start.
    HouseFunding,
    /// House → Bank: what the House has left when an adventure ends (the next adventure
    /// funds her afresh).
    HouseReturned,
    /// Bank → character: the pile a character brought from another table in a file.
    CarriedIn,
    /// House → antagonist purse.
    AntagonistFunding,
    /// Antagonist purse → House: what the House takes back.
    PurseReturned,
    /// A side's ante, into the pot.
    Ante,
    /// A wager or raise, into the pot.
    Wager,
    /// The pot to the victor.
    PotWon,
    /// The pot back to its owner: a tie, or an unmatched excess.
    WagerReturned,
    /// A loan offered during a betting phase.
    Loan,
    /// A loan paid back.
    LoanRepaid,
    /// Creditor → debtor: the pennies lost in a challenge, given back as a debt (§2.4).
    DebtRecorded,
    /// Debtor → creditor: a debt, or part of it, paid back.
    DebtRepaid,
    /// A buyout bid paid to a loser left with 0 pennies (§2.4).
    Buyout,
}

impl Reason {
    /// Whether `from` may pay with this reason.
    fn allows_from(self, from: Account) -> bool {
        match self {
            Reason::StartingPennies | Reason::HouseFunding | Reason::CarriedIn => from == Account::Bank,
            Reason::HouseReturned => from == Account::House,
            Reason::CharacteristicBought => matches!(from, Account::Character(_)),
            Reason::AntagonistFunding => from == Account::House,
            Reason::PurseReturned => matches!(from, Account::Antagonist(_)),
            Reason::PotWon | Reason::WagerReturned => matches!(from, Account::Pot(_)),
            Reason::Ante
            | Reason::Wager
            | Reason::Loan
            | Reason::LoanRepaid
            | Reason::DebtRecorded
            | Reason::DebtRepaid
            | Reason::Buyout => from.is_party(),
        }
    }

    /// Whether `to` may receive with this reason.
    fn allows_to(self, to: Account) -> bool {
        match self {
            Reason::StartingPennies | Reason::Buyout | Reason::CarriedIn => matches!(to, Account::Character(_)),
            Reason::CharacteristicBought | Reason::HouseReturned => to == Account::Bank,
            Reason::HouseFunding | Reason::PurseReturned => to == Account::House,
            Reason::AntagonistFunding => matches!(to, Account::Antagonist(_)),
            Reason::Ante | Reason::Wager => matches!(to, Account::Pot(_)),
            Reason::PotWon
            | Reason::WagerReturned
            | Reason::Loan
            | Reason::LoanRepaid
            | Reason::DebtRecorded
            | Reason::DebtRepaid => to.is_party(),
        }
    }
}

/// One movement of pennies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub from: Account,
    pub to: Account,
    /// 1..=`MAX_ENTRY`.
    pub amount: u64,
    pub reason: Reason,
    /// The challenge the movement belongs to, if any.
    pub challenge: Option<Uuid>,
}

/// Pennies a debtor owes a creditor since a loss (§2.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Debt {
    pub debtor: Account,
    pub creditor: Account,
    /// At least 1; a debt paid in full is removed.
    pub amount: u64,
}

/// Every entry in order, and the debts still open.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ledger {
    pub entries: Vec<Entry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub debts: Vec<Debt>,
    /// Debts to antagonists that left play, handed over to the House (no penny moved).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handed_over: Vec<Handover>,
}

/// A debt owed to an antagonist that left play, owed to the House from then on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Handover {
    pub debtor: Account,
    /// The antagonist the debt was owed to.
    pub antagonist: Uuid,
    /// At least 1.
    pub amount: u64,
}

impl Ledger {
    /// Every debt owed to antagonist `antagonist` is owed to the House from now on.
    pub fn hand_debts_to_house(&self, antagonist: Uuid) -> (Ledger, Vec<Handover>) {
        let creditor = Account::Antagonist(antagonist);
        let mut next = self.clone();
        let mut moved = Vec::new();
        for d in next.debts.iter_mut().filter(|d| d.creditor == creditor) {
            moved.push(Handover { debtor: d.debtor, antagonist, amount: d.amount });
            d.creditor = Account::House;
        }
        // One debt per debtor and creditor: a debtor already owing the House owes it the sum.
        let mut merged: Vec<Debt> = Vec::new();
        for d in next.debts {
            match merged.iter_mut().find(|m| m.debtor == d.debtor && m.creditor == d.creditor) {
                Some(m) => m.amount += d.amount,
                None => merged.push(d),
            }
        }
        next.debts = merged;
        next.handed_over.extend(moved.iter().cloned());
        (next, moved)
    }
}

/// What a move changed, with the piles before and after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LedgerEvent {
    /// An entry was added.
    PenniesMoved { entry: Entry, from_before: i64, from_after: i64, to_before: i64, to_after: i64 },
    /// The pennies lost in a challenge went back to the debtor and a debt was recorded.
    DebtRecorded { entry: Entry, debt: Debt, debtor_after: i64 },
    /// A debt was paid back; `owed_after` is 0 when it was paid in full.
    DebtRepaid { entry: Entry, owed_after: u64 },
}

impl Ledger {
    /// The sum of the entries that touch `account`: what it received minus what it paid.
    pub fn pile(&self, account: &Account) -> i64 {
        self.entries.iter().fold(0i64, |pile, e| {
            // Amounts are bounded by MAX_ENTRY, so the conversion cannot fail.
            let amount = i64::try_from(e.amount).unwrap_or(i64::MAX);
            let mut pile = pile;
            if e.to == *account {
                pile = pile.saturating_add(amount);
            }
            if e.from == *account {
                pile = pile.saturating_sub(amount);
            }
            pile
        })
    }

    /// Every account that appears in an entry or a debt, in a stable order.
    pub fn accounts(&self) -> BTreeSet<Account> {
        let from_entries = self.entries.iter().flat_map(|e| [e.from, e.to]);
        let from_debts = self.debts.iter().flat_map(|d| [d.debtor, d.creditor]);
        from_entries.chain(from_debts).collect()
    }

    /// What `debtor` still owes `creditor` (0 when there is no debt).
    pub fn owed(&self, debtor: &Account, creditor: &Account) -> u64 {
        self.debts
            .iter()
            .filter(|d| d.debtor == *debtor && d.creditor == *creditor)
            .fold(0u64, |sum, d| sum.saturating_add(d.amount))
    }

    /// Adds an entry. Refuses a malformed entry, a payment that would take a table account
    /// below 0, and debt entries (use [`record_debt`] and [`repay_debt`]).
    pub fn record(&self, entry: Entry) -> Result<(Ledger, LedgerEvent)> {
        if matches!(entry.reason, Reason::DebtRecorded | Reason::DebtRepaid) {
            return Err(Error::invalid("reason", "debts are recorded and repaid as debts, not as plain entries"));
        }
        self.push(entry)
    }

    /// Validates and adds any entry; the one place that checks a payment is affordable.
    fn push(&self, entry: Entry) -> Result<(Ledger, LedgerEvent)> {
        if let Some((field, problem)) = entry_problem(&entry) {
            return Err(Error::invalid(field, problem));
        }
        let from_before = self.pile(&entry.from);
        let to_before = self.pile(&entry.to);
        let amount = i64::try_from(entry.amount).unwrap_or(i64::MAX);
        if entry.from.on_table() && from_before < amount {
            return Err(Error::invalid("from", format!("holds {from_before} pennies and cannot pay {}", entry.amount)));
        }
        let mut next = self.clone();
        next.entries.push(entry.clone());
        let event = LedgerEvent::PenniesMoved {
            entry,
            from_before,
            from_after: from_before - amount,
            to_before,
            to_after: to_before + amount,
        };
        Ok((next, event))
    }

    /// Every broken invariant, each at `path` + its field (e.g. `$.entries[3].amount`).
    pub fn problems(&self, path: &str) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
        for (i, entry) in self.entries.iter().enumerate() {
            if let Some((field, message)) = entry_problem(entry) {
                problem(format!("{path}.entries[{i}].{field}"), message);
            }
        }
        for (i, debt) in self.debts.iter().enumerate() {
            if debt.amount == 0 {
                problem(format!("{path}.debts[{i}].amount"), "must be at least 1".into());
            }
            if !debt.debtor.is_party() {
                problem(format!("{path}.debts[{i}].debtor"), "must be a character, the House or an antagonist".into());
            }
            if !debt.creditor.is_party() || debt.creditor == debt.debtor {
                problem(
                    format!("{path}.debts[{i}].creditor"),
                    "must be another character, the House or an antagonist".into(),
                );
            }
        }
        // Every account's pile and debts in one pass over the entries and one over the debts
        // (as `pile` and `owed` would find them, saturating): linear, whatever a file holds.
        let mut piles: BTreeMap<Account, (i64, u64)> = self.accounts().into_iter().map(|a| (a, (0, 0))).collect();
        for e in &self.entries {
            let amount = i64::try_from(e.amount).unwrap_or(i64::MAX);
            if let Some((pile, _)) = piles.get_mut(&e.to) {
                *pile = pile.saturating_add(amount);
            }
            if let Some((pile, _)) = piles.get_mut(&e.from) {
                *pile = pile.saturating_sub(amount);
            }
        }
        for d in &self.debts {
            if let Some((_, owed)) = piles.get_mut(&d.debtor) {
                *owed = owed.saturating_add(d.amount);
            }
        }
        for (account, (pile, owed)) in piles {
            if account.on_table() && pile.saturating_add(i64::try_from(owed).unwrap_or(i64::MAX)) < 0 {
                problem(
                    format!("{path}.entries"),
                    format!("{account:?} holds {pile} pennies, below 0 beyond its recorded debts ({owed})"),
                );
            }
        }
        out
    }
}

/// What is wrong with an entry on its own, as the field and the problem.
pub(crate) fn entry_problem(entry: &Entry) -> Option<(&'static str, String)> {
    if entry.amount == 0 {
        return Some(("amount", "must be at least 1".into()));
    }
    if entry.amount > MAX_ENTRY {
        return Some(("amount", format!("must be at most {MAX_ENTRY}")));
    }
    if entry.from == entry.to {
        return Some(("to", "must differ from the account paying".into()));
    }
    if !entry.reason.allows_from(entry.from) {
        return Some(("from", format!("{:?} cannot pay as {:?}", entry.from, entry.reason)));
    }
    if !entry.reason.allows_to(entry.to) {
        return Some(("to", format!("{:?} cannot receive as {:?}", entry.to, entry.reason)));
    }
    for account in [entry.from, entry.to] {
        if let Account::Pot(pot) = account {
            if entry.challenge != Some(pot) {
                return Some(("challenge", format!("must name the challenge {pot} whose pot is used")));
            }
        }
    }
    None
}

/// A character's starting pennies from the Bank, at least `table_minimum`
/// (the table setting, [`DEFAULT_STARTING_MINIMUM`] unless changed); given once.
pub fn starting_pennies(
    ledger: &Ledger,
    character: Uuid,
    amount: u64,
    table_minimum: u64,
) -> Result<(Ledger, LedgerEvent)> {
    if amount < table_minimum {
        return Err(Error::invalid("amount", format!("the table's minimum is {table_minimum} pennies")));
    }
    let account = Account::Character(character);
    if ledger.entries.iter().any(|e| e.reason == Reason::StartingPennies && e.to == account) {
        return Err(Error::invalid("character", "already received starting pennies"));
    }
    ledger.record(Entry { from: Account::Bank, to: account, amount, reason: Reason::StartingPennies, challenge: None })
}

/// A character takes a characteristic: the first is free (no entry, no event), each further
/// one costs [`CHARACTERISTIC_PRICE`] to the Bank. Refused while an adventure is running.
pub fn buy_characteristic(
    ledger: &Ledger,
    character: Uuid,
    already_owned: usize,
    adventure_running: bool,
) -> Result<(Ledger, Option<LedgerEvent>)> {
    if already_owned == 0 {
        return Ok((ledger.clone(), None));
    }
    if adventure_running {
        return Err(Error::invalid("characteristic", "can be bought only when no adventure is running"));
    }
    let entry = Entry {
        from: Account::Character(character),
        to: Account::Bank,
        amount: CHARACTERISTIC_PRICE,
        reason: Reason::CharacteristicBought,
        challenge: None,
    };
    let (next, event) = ledger.record(entry)?;
    Ok((next, Some(event)))
}

/// What the House receives at adventure start by default: the sum of the players' piles.
pub fn default_house_funding(ledger: &Ledger, characters: &[Uuid]) -> u64 {
    characters.iter().map(|c| u64::try_from(ledger.pile(&Account::Character(*c))).unwrap_or(0)).sum()
}

/// The Bank funds the House (the default amount or one the table agreed on).
pub fn fund_house(ledger: &Ledger, amount: u64) -> Result<(Ledger, LedgerEvent)> {
    ledger.record(Entry {
        from: Account::Bank,
        to: Account::House,
        amount,
        reason: Reason::HouseFunding,
        challenge: None,
    })
}

/// The House funds an antagonist's purse from her pile; with a `cap` (table setting) the
/// purse may not hold more than the cap afterwards.
pub fn fund_antagonist(
    ledger: &Ledger,
    antagonist: Uuid,
    amount: u64,
    cap: Option<u64>,
) -> Result<(Ledger, LedgerEvent)> {
    let to = Account::Antagonist(antagonist);
    if let Some(cap) = cap {
        let after = ledger.pile(&to).saturating_add(i64::try_from(amount).unwrap_or(i64::MAX));
        if after > i64::try_from(cap).unwrap_or(i64::MAX) {
            return Err(Error::invalid(
                "amount",
                format!("the purse would hold {after} pennies, above the cap of {cap}"),
            ));
        }
    }
    ledger.record(Entry { from: Account::House, to, amount, reason: Reason::AntagonistFunding, challenge: None })
}

/// §2.4, Debt: a loser left with 0 pennies takes the debt path. The opponent gives back the
/// `amount` the loser lost in `challenge`, and a debt of that amount to the opponent is
/// recorded.
pub fn record_debt(
    ledger: &Ledger,
    debtor: Account,
    creditor: Account,
    amount: u64,
    challenge: Uuid,
) -> Result<(Ledger, LedgerEvent)> {
    let (next, mut events) = record_debts(ledger, debtor, &[(creditor, amount)], challenge)?;
    Ok((next, events.remove(0)))
}

/// [`record_debt`] with several creditors (an alliance that won), each giving back its part.
pub fn record_debts(
    ledger: &Ledger,
    debtor: Account,
    parts: &[(Account, u64)],
    challenge: Uuid,
) -> Result<(Ledger, Vec<LedgerEvent>)> {
    let pile = ledger.pile(&debtor);
    if debtor.is_party() && pile != 0 {
        return Err(Error::invalid(
            "debtor",
            format!("holds {pile} pennies; only a loser left with 0 can go into debt"),
        ));
    }
    let mut next = ledger.clone();
    let mut events = Vec::new();
    for &(creditor, amount) in parts {
        let entry =
            Entry { from: creditor, to: debtor, amount, reason: Reason::DebtRecorded, challenge: Some(challenge) };
        next = next.push(entry.clone())?.0;
        let debt = Debt { debtor, creditor, amount };
        match next.debts.iter_mut().find(|d| d.debtor == debtor && d.creditor == creditor) {
            Some(open) => open.amount += amount,
            None => next.debts.push(debt.clone()),
        }
        let debtor_after = next.pile(&debtor);
        events.push(LedgerEvent::DebtRecorded { entry, debt, debtor_after });
    }
    Ok((next, events))
}

/// What a borrower still owed on a loan when the next adventure started becomes a debt to
/// the lender: no penny moves (the borrower has had them since the loan), only the list of
/// debts grows. The loan records the same amount as `in_debt`.
pub fn debt_from_loan(ledger: &Ledger, debtor: Account, creditor: Account, amount: u64) -> Result<Ledger> {
    if amount == 0 {
        return Err(Error::invalid("amount", "must be at least 1"));
    }
    if !debtor.is_party() || !creditor.is_party() || debtor == creditor {
        return Err(Error::invalid("debtor", "a debt is owed by one party to another"));
    }
    let mut next = ledger.clone();
    match next.debts.iter_mut().find(|d| d.debtor == debtor && d.creditor == creditor) {
        Some(open) => open.amount = open.amount.saturating_add(amount),
        None => next.debts.push(Debt { debtor, creditor, amount }),
    }
    Ok(next)
}

/// The debtor pays back `amount` of what it owes the creditor; a debt paid in full is removed.
pub fn repay_debt(ledger: &Ledger, debtor: Account, creditor: Account, amount: u64) -> Result<(Ledger, LedgerEvent)> {
    let owed = ledger.owed(&debtor, &creditor);
    if owed == 0 {
        return Err(Error::invalid("debtor", "owes the creditor nothing"));
    }
    if amount > owed {
        return Err(Error::invalid("amount", format!("only {owed} pennies are owed")));
    }
    let entry = Entry { from: debtor, to: creditor, amount, reason: Reason::DebtRepaid, challenge: None };
    let (mut next, _) = ledger.push(entry.clone())?;
    next.debts.retain_mut(|d| {
        if d.debtor == debtor && d.creditor == creditor {
            d.amount -= amount;
        }
        d.amount > 0
    });
    Ok((next, LedgerEvent::DebtRepaid { entry, owed_after: owed - amount }))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::test_support::{ch, err, id};

    fn entry(from: Account, to: Account, amount: u64, reason: Reason, challenge: Option<Uuid>) -> Entry {
        Entry { from, to, amount, reason, challenge }
    }

    /// Characters 1 and 2 with 30 and 25 pennies, a House with 55 and antagonist 9 with 10.
    fn table() -> Ledger {
        let l = starting_pennies(&Ledger::default(), id(1), 30, DEFAULT_STARTING_MINIMUM).unwrap().0;
        let l = starting_pennies(&l, id(2), 25, DEFAULT_STARTING_MINIMUM).unwrap().0;
        let funding = default_house_funding(&l, &[id(1), id(2)]);
        let l = fund_house(&l, funding).unwrap().0;
        fund_antagonist(&l, id(9), 10, None).unwrap().0
    }

    /// The field a refused move names.
    fn field<T: std::fmt::Debug>(result: Result<T>) -> String {
        match result.unwrap_err() {
            Error::Invalid { field, .. } => field,
            other => panic!("expected an invalid field, got {other}"),
        }
    }

    #[test]
    fn debts_as_large_as_a_u64_add_up_without_overflow() {
        let mut l = table();
        let huge = Debt { debtor: ch(1), creditor: ch(2), amount: u64::MAX };
        l.debts = vec![huge.clone(), huge];
        assert_eq!(l.owed(&ch(1), &ch(2)), u64::MAX);
        assert_eq!(l.problems("$"), vec![]);
    }

    #[test]
    fn piles_of_many_accounts_are_checked_in_one_pass() {
        let mut l = table();
        // Fifty thousand characters each paid one penny by the House: the House goes below 0.
        l.entries.extend((0..50_000).map(|n| entry(Account::House, ch(1_000 + n), 1, Reason::Loan, None)));
        let problems = l.problems("$");
        assert_eq!(problems.len(), 1, "{:?}", &problems[..problems.len().min(3)]);
        assert!(problems[0].message.starts_with("House holds -49955 pennies"), "{}", problems[0].message);
    }

    #[test]
    fn piles_are_sums_of_entries_and_the_bank_goes_negative() {
        let l = table();
        assert_eq!(l.pile(&ch(1)), 30);
        assert_eq!(l.pile(&ch(2)), 25);
        assert_eq!(l.pile(&Account::House), 45);
        assert_eq!(l.pile(&Account::Antagonist(id(9))), 10);
        assert_eq!(l.pile(&Account::Bank), -110);
        assert!(l.problems("$").is_empty());
    }

    #[test]
    fn record_refuses_zero_self_payment_overdraft_and_debt_reasons() {
        let l = table();
        let pot = Account::Pot(id(50));
        let cases = [
            (entry(ch(1), pot, 0, Reason::Ante, Some(id(50))), "amount"),
            (entry(ch(1), pot, MAX_ENTRY + 1, Reason::Ante, Some(id(50))), "amount"),
            (entry(ch(1), ch(1), 3, Reason::Loan, None), "to"),
            (entry(ch(1), ch(2), 31, Reason::Loan, None), "from"),
            (entry(ch(1), pot, 3, Reason::Ante, None), "challenge"),
            (entry(ch(1), pot, 3, Reason::Ante, Some(id(51))), "challenge"),
            (entry(Account::Bank, ch(1), 3, Reason::Loan, None), "from"),
            (entry(ch(1), Account::Bank, 3, Reason::Wager, None), "to"),
            (entry(ch(2), ch(1), 3, Reason::DebtRecorded, None), "reason"),
            (entry(ch(1), ch(2), 3, Reason::DebtRepaid, None), "reason"),
        ];
        for (e, expected) in cases {
            assert_eq!(field(l.record(e.clone())), expected, "{e:?}");
        }
        assert_eq!(
            err(l.record(entry(ch(1), ch(2), 31, Reason::Loan, None))),
            "from: holds 30 pennies and cannot pay 31"
        );
    }

    #[test]
    fn record_reports_the_piles_before_and_after() {
        let (l, event) = table().record(entry(ch(1), Account::Pot(id(50)), 4, Reason::Ante, Some(id(50)))).unwrap();
        assert_eq!(l.pile(&Account::Pot(id(50))), 4);
        assert_eq!(
            event,
            LedgerEvent::PenniesMoved {
                entry: entry(ch(1), Account::Pot(id(50)), 4, Reason::Ante, Some(id(50))),
                from_before: 30,
                from_after: 26,
                to_before: 0,
                to_after: 4,
            }
        );
        // The whole pile can be paid; the pile is then exactly 0.
        let (l, _) = l.record(entry(ch(1), ch(2), 26, Reason::Loan, None)).unwrap();
        assert_eq!(l.pile(&ch(1)), 0);
    }

    #[test]
    fn starting_pennies_meet_the_table_minimum_once() {
        let l = Ledger::default();
        assert_eq!(
            err(starting_pennies(&l, id(1), 24, DEFAULT_STARTING_MINIMUM)),
            "amount: the table's minimum is 25 pennies"
        );
        assert_eq!(field(starting_pennies(&l, id(1), 30, 40)), "amount");
        let (l, _) = starting_pennies(&l, id(1), 40, 40).unwrap();
        assert_eq!(field(starting_pennies(&l, id(1), 40, 40)), "character");
    }

    #[test]
    fn the_first_characteristic_is_free_at_any_time_and_later_ones_cost_five_outside_adventures() {
        let l = table();
        let (free, event) = buy_characteristic(&l, id(1), 0, false).unwrap();
        assert_eq!((free, event), (l.clone(), None));
        let (paid, event) = buy_characteristic(&l, id(1), 1, false).unwrap();
        assert_eq!(paid.pile(&ch(1)), 25);
        assert!(matches!(event, Some(LedgerEvent::PenniesMoved { from_after: 25, .. })));
        // A newcomer takes the free one during an adventure; buying waits for its end.
        assert_eq!(buy_characteristic(&l, id(1), 0, true).unwrap(), (l.clone(), None));
        assert_eq!(field(buy_characteristic(&l, id(1), 3, true)), "characteristic");
        // A character without five pennies cannot buy.
        let (broke, _) = l.record(entry(ch(2), ch(1), 21, Reason::Loan, None)).unwrap();
        assert_eq!(field(buy_characteristic(&broke, id(2), 1, false)), "from");
    }

    #[test]
    fn the_house_funds_antagonists_from_her_pile_up_to_the_cap() {
        let l = table();
        assert_eq!(field(fund_house(&l, 0)), "amount");
        let (capped, _) = fund_antagonist(&l, id(9), 5, Some(15)).unwrap();
        assert_eq!(capped.pile(&Account::Antagonist(id(9))), 15);
        assert_eq!(
            err(fund_antagonist(&l, id(9), 6, Some(15))),
            "amount: the purse would hold 16 pennies, above the cap of 15"
        );
        assert_eq!(field(fund_antagonist(&l, id(8), 46, None)), "from");
        let (l, _) = fund_antagonist(&l, id(8), 45, None).unwrap();
        assert_eq!(l.pile(&Account::House), 0);
    }

    #[test]
    fn a_loser_at_zero_gets_the_lost_pennies_back_as_a_debt_and_repays_it() {
        let pot = Account::Pot(id(50));
        let l = table();
        let (l, _) = l.record(entry(ch(2), pot, 25, Reason::Wager, Some(id(50)))).unwrap();
        let (l, _) = l.record(entry(ch(1), pot, 25, Reason::Wager, Some(id(50)))).unwrap();
        let (l, _) = l.record(entry(pot, ch(1), 50, Reason::PotWon, Some(id(50)))).unwrap();
        assert_eq!(l.pile(&ch(2)), 0);
        // The victor cannot be the one going into debt while holding pennies.
        assert_eq!(field(record_debt(&l, ch(1), ch(2), 5, id(50))), "debtor");
        assert_eq!(field(record_debt(&l, ch(2), ch(2), 25, id(50))), "to");
        let (l, event) = record_debt(&l, ch(2), ch(1), 25, id(50)).unwrap();
        assert_eq!(l.pile(&ch(2)), 25);
        assert_eq!(l.pile(&ch(1)), 30);
        assert_eq!(l.debts, [Debt { debtor: ch(2), creditor: ch(1), amount: 25 }]);
        assert!(matches!(event, LedgerEvent::DebtRecorded { debtor_after: 25, .. }));
        assert!(l.problems("$").is_empty());

        assert_eq!(field(repay_debt(&l, ch(2), ch(1), 26)), "amount");
        assert_eq!(field(repay_debt(&l, ch(1), ch(2), 1)), "debtor");
        let (part, event) = repay_debt(&l, ch(2), ch(1), 10).unwrap();
        assert_eq!(part.owed(&ch(2), &ch(1)), 15);
        assert!(matches!(event, LedgerEvent::DebtRepaid { owed_after: 15, .. }));
        let (done, _) = repay_debt(&part, ch(2), ch(1), 15).unwrap();
        assert!(done.debts.is_empty());
        assert_eq!(done.pile(&ch(2)), 0);
    }

    #[test]
    fn problems_name_every_broken_invariant() {
        let mut l = table();
        l.entries.push(entry(ch(1), ch(1), 0, Reason::Loan, None));
        l.entries.push(entry(ch(2), ch(1), 99, Reason::Loan, None));
        l.debts.push(Debt { debtor: ch(3), creditor: ch(3), amount: 0 });
        let paths: Vec<String> = l.problems("$").into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.entries[4].amount", "$.debts[0].amount", "$.debts[0].creditor", "$.entries"]);
        // A recorded debt covers a pile below 0.
        l.entries.truncate(4);
        l.entries.push(entry(ch(2), ch(1), 30, Reason::Loan, None));
        l.debts = vec![Debt { debtor: ch(2), creditor: ch(1), amount: 5 }];
        assert!(l.problems("$").is_empty());
    }

    #[test]
    fn accounts_and_entries_keep_their_json_shape() {
        let e = entry(ch(1), Account::Pot(id(50)), 3, Reason::Ante, Some(id(50)));
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["from"]["kind"], "character");
        assert_eq!(json["to"]["kind"], "pot");
        assert_eq!(json["reason"], "ante");
        assert_eq!(serde_json::to_value(Account::Bank).unwrap(), serde_json::json!({ "kind": "bank" }));
        let back: Entry = serde_json::from_value(json).unwrap();
        assert_eq!(back, e);
        let l = table();
        let round: Ledger = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(round, l);
    }

    /// The table accounts the property test moves pennies between.
    fn table_account(n: u8) -> Account {
        match n % 7 {
            0 => ch(1),
            1 => ch(2),
            2 => ch(3),
            3 => Account::House,
            4 => Account::Antagonist(id(9)),
            5 => Account::Pot(id(50)),
            _ => Account::Pot(id(51)),
        }
    }

    const TABLE_REASONS: [Reason; 9] = [
        Reason::AntagonistFunding,
        Reason::PurseReturned,
        Reason::Ante,
        Reason::Wager,
        Reason::PotWon,
        Reason::WagerReturned,
        Reason::Loan,
        Reason::LoanRepaid,
        Reason::Buyout,
    ];

    fn table_total(l: &Ledger) -> i64 {
        (0..7).map(|n| l.pile(&table_account(n))).sum()
    }

    proptest! {

        /// Pennies are conserved: random entries between table accounts never change the
        /// table's total, never leave a pile below 0, and a refused entry changes nothing.
        #[test]
        fn pennies_are_conserved(
            moves in prop::collection::vec((0u8..7, 0u8..7, 0u64..40, 0usize..9, 0u8..3), 100..300),
        ) {
            let l0 = starting_pennies(&Ledger::default(), id(3), 25, DEFAULT_STARTING_MINIMUM).unwrap().0;
            let mut l = fund_house(&table(), 20).unwrap().0;
            l.entries.extend(l0.entries);
            let total = table_total(&l);
            for (from, to, amount, reason, challenge) in moves {
                let (from, to) = (table_account(from), table_account(to));
                let challenge = match (challenge, from, to) {
                    (0, _, _) => None,
                    (1, Account::Pot(pot), _) | (1, _, Account::Pot(pot)) => Some(pot),
                    _ => Some(id(50)),
                };
                // Mostly a reason that fits the accounts, so that many entries are legal.
                let fitting: Vec<Reason> =
                    TABLE_REASONS.into_iter().filter(|r| r.allows_from(from) && r.allows_to(to)).collect();
                let reason =
                    if reason < 7 && !fitting.is_empty() { fitting[reason % fitting.len()] } else { TABLE_REASONS[reason] };
                let e = entry(from, to, amount, reason, challenge);
                match l.record(e) {
                    Ok((next, LedgerEvent::PenniesMoved { from_after, .. })) => {
                        prop_assert!(from_after >= 0);
                        l = next;
                    }
                    Ok((_, other)) => prop_assert!(false, "unexpected event {other:?}"),
                    Err(Error::Invalid { .. }) => {}
                    Err(other) => prop_assert!(false, "unexpected error {other}"),
                }
                prop_assert_eq!(table_total(&l), total);
                for n in 0..7 {
                    prop_assert!(l.pile(&table_account(n)) >= 0);
                }
            }
            prop_assert!(l.problems("$").is_empty());
        }

        /// A refused move hands back nothing and leaves the ledger as it was.
        #[test]
        fn refused_moves_change_nothing(from in 0u8..7, to in 0u8..7, amount in 0u64..200, reason in 0usize..9) {
            let l = table();
            let before = l.clone();
            let result = l.record(entry(table_account(from), table_account(to), amount, TABLE_REASONS[reason], None));
            prop_assert_eq!(&l, &before);
            if let Ok((next, _)) = result {
                prop_assert_eq!(next.entries.len(), before.entries.len() + 1);
                prop_assert_eq!(&next.entries[..before.entries.len()], &before.entries[..]);
            }
        }
    }
}
