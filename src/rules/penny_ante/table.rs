//! A Penny Ante table between challenges (RULES.md §2.1–2.2): adventures, the House's
//! funding, antagonists and their purses, characteristics, loans and debts. Every penny
//! moves through the [`Ledger`]; every move here returns a new table and what happened, or
//! an error naming the field and changing nothing.
//!
//! Rulings where the source is silent:
//! - When an adventure ends, every antagonist's purse goes back to the House and the House's
//!   pile goes back to the Bank, so the next adventure funds her afresh ("the House starts
//!   each adventure with a large stock of pennies").
//! - Characteristics are bought, and the free one taken, only while no adventure runs.
//! - A loan is repaid by its borrower to its lender, in one or more payments; a loan not
//!   repaid in full when the next adventure starts is flagged (and stays flagged).
//! - One challenge runs at a time at a table.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::challenge::Challenge;
use super::ledger::{self, Account, Entry, Ledger, LedgerEvent, Reason};
use crate::error::{Error, Result};

/// The longest characteristic the app accepts, in characters.
pub const MAX_CHARACTERISTIC_CHARS: usize = 200;

/// The adventures a table has played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adventure {
    /// How many adventures have started (the running one included).
    pub number: u32,
    pub running: bool,
}

/// A characteristic of an antagonist; the House may keep it hidden from the players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Characteristic {
    pub text: String,
    #[serde(default)]
    pub hidden: bool,
}

/// An antagonist (or an obstacle the House plays as though it were one), with a purse the
/// House funds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Antagonist {
    pub id: Uuid,
    pub name: String,
    pub characteristics: Vec<Characteristic>,
}

/// A loan made during a challenge's betting phase (§2.3, Lending).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Loan {
    pub id: Uuid,
    pub lender: Account,
    pub borrower: Account,
    pub amount: u64,
    /// Paid back so far, 0..=amount.
    pub repaid: u64,
    /// The challenge it was made in.
    pub challenge: Option<Uuid>,
    /// The adventure it was made in; it is due before the next one starts.
    pub adventure: u32,
    /// Still unpaid when a later adventure started.
    pub flagged: bool,
}

impl Loan {
    pub fn outstanding(&self) -> u64 {
        self.amount.saturating_sub(self.repaid)
    }
}

/// Everything a Penny Ante game keeps beyond its characters' sheets.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PennyTable {
    pub adventure: Adventure,
    pub ledger: Ledger,
    #[serde(default)]
    pub loans: Vec<Loan>,
    #[serde(default)]
    pub antagonists: Vec<Antagonist>,
    /// The challenge being played, or the last one played (over) until the next starts.
    #[serde(default)]
    pub challenge: Option<Challenge>,
}

/// A Penny Ante character's sheet: the pile is not here, it is the ledger's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PennySheet {
    /// The first is free; each further one was bought for 5 pennies.
    pub characteristics: Vec<String>,
    /// Characteristics paid for at another table, before the character was copied, moved or
    /// imported here (this table's ledger does not hold those purchases).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub carried: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl PennySheet {
    /// The sheet as it arrives at another table, where `purchases` of its characteristics
    /// were bought: the others count as paid for elsewhere.
    pub fn arriving(&self, purchases: usize) -> PennySheet {
        let paid_elsewhere = self.characteristics.len().saturating_sub(1 + purchases);
        PennySheet { carried: u32::try_from(paid_elsewhere).unwrap_or(u32::MAX), ..self.clone() }
    }
}

/// What a table move did, for the log and the toast.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TableEvent {
    AdventureStarted { number: u32, house_funding: u64, flagged_loans: Vec<Uuid> },
    AdventureEnded { number: u32, returned_to_bank: u64 },
    Ledger(LedgerEvent),
    AntagonistAdded { id: Uuid, name: String },
    AntagonistChanged { id: Uuid },
    LoanRepaid { loan: Uuid, amount: u64, outstanding: u64 },
}

/// Checks a characteristic a person typed: trimmed, 1 to 200 characters, no control characters.
pub fn clean_characteristic(field: &str, raw: &str) -> Result<String> {
    let text = raw.trim();
    if text.is_empty() {
        return Err(Error::invalid(field, "must not be empty"));
    }
    if text.chars().count() > MAX_CHARACTERISTIC_CHARS {
        return Err(Error::invalid(field, format!("must be at most {MAX_CHARACTERISTIC_CHARS} characters")));
    }
    if let Some(p) = crate::model::line_chars_problem(text) {
        return Err(Error::invalid(field, p));
    }
    Ok(text.to_owned())
}

impl PennyTable {
    pub fn pile(&self, account: &Account) -> i64 {
        self.ledger.pile(account)
    }

    pub fn antagonist(&self, id: Uuid) -> Result<&Antagonist> {
        self.antagonists
            .iter()
            .find(|a| a.id == id)
            .ok_or_else(|| Error::invalid("antagonist", format!("there is no antagonist {id} at this table")))
    }

    /// The challenge being played, if one is and is not over yet.
    pub fn running(&self) -> Option<&Challenge> {
        self.challenge.as_ref().filter(|c| c.phase != super::challenge::Phase::Over)
    }

    fn no_challenge(&self, doing: &str) -> Result<()> {
        if self.running().is_some() {
            return Err(Error::invalid("challenge", format!("a challenge is running; finish it before {doing}")));
        }
        Ok(())
    }

    /// Starts the next adventure: flags loans still unpaid and funds the House with
    /// `funding`, or by default with the sum of the players' piles.
    pub fn start_adventure(&self, characters: &[Uuid], funding: Option<u64>) -> Result<(PennyTable, Vec<TableEvent>)> {
        if self.adventure.running {
            return Err(Error::invalid("adventure", "an adventure is already running; end it first"));
        }
        let amount = funding.unwrap_or_else(|| ledger::default_house_funding(&self.ledger, characters));
        let mut next = self.clone();
        next.adventure = Adventure { number: self.adventure.number + 1, running: true };
        let mut flagged = Vec::new();
        for loan in &mut next.loans {
            if loan.outstanding() > 0 && !loan.flagged {
                loan.flagged = true;
                flagged.push(loan.id);
            }
        }
        let mut events = Vec::new();
        if amount > 0 {
            let (ledger, event) = ledger::fund_house(&next.ledger, amount)?;
            next.ledger = ledger;
            events.push(TableEvent::Ledger(event));
        }
        events.insert(
            0,
            TableEvent::AdventureStarted {
                number: next.adventure.number,
                house_funding: amount,
                flagged_loans: flagged,
            },
        );
        Ok((next, events))
    }

    /// Ends the running adventure: purses go back to the House, the House's pile to the Bank.
    pub fn end_adventure(&self) -> Result<(PennyTable, Vec<TableEvent>)> {
        if !self.adventure.running {
            return Err(Error::invalid("adventure", "no adventure is running"));
        }
        self.no_challenge("ending the adventure")?;
        let mut next = self.clone();
        let mut events = Vec::new();
        for a in &self.antagonists {
            let purse = Account::Antagonist(a.id);
            let held = u64::try_from(next.ledger.pile(&purse)).unwrap_or(0);
            if held > 0 {
                let entry = Entry {
                    from: purse,
                    to: Account::House,
                    amount: held,
                    reason: Reason::PurseReturned,
                    challenge: None,
                };
                let (ledger, event) = next.ledger.record(entry)?;
                next.ledger = ledger;
                events.push(TableEvent::Ledger(event));
            }
        }
        let house = u64::try_from(next.ledger.pile(&Account::House)).unwrap_or(0);
        if house > 0 {
            let entry = Entry {
                from: Account::House,
                to: Account::Bank,
                amount: house,
                reason: Reason::HouseReturned,
                challenge: None,
            };
            let (ledger, event) = next.ledger.record(entry)?;
            next.ledger = ledger;
            events.push(TableEvent::Ledger(event));
        }
        next.adventure.running = false;
        events.insert(0, TableEvent::AdventureEnded { number: self.adventure.number, returned_to_bank: house });
        Ok((next, events))
    }

    /// Gives a new character its starting pennies (at least the table's `minimum`).
    pub fn starting_pennies(
        &self,
        character: Uuid,
        amount: u64,
        minimum: u64,
    ) -> Result<(PennyTable, Vec<TableEvent>)> {
        let (ledger, event) = ledger::starting_pennies(&self.ledger, character, amount, minimum)?;
        Ok((PennyTable { ledger, ..self.clone() }, vec![TableEvent::Ledger(event)]))
    }

    /// A character adds a characteristic to `sheet`: the first is free, each further one
    /// costs 5 pennies; only while no adventure runs.
    pub fn buy_characteristic(
        &self,
        character: Uuid,
        sheet: &PennySheet,
        text: &str,
    ) -> Result<(PennyTable, PennySheet, Vec<TableEvent>)> {
        let text = clean_characteristic("characteristic", text)?;
        if sheet.characteristics.iter().any(|c| c.eq_ignore_ascii_case(&text)) {
            return Err(Error::invalid("characteristic", format!("“{text}” is already on the list")));
        }
        let owned = sheet.characteristics.len();
        let (ledger, event) = ledger::buy_characteristic(&self.ledger, character, owned, self.adventure.running)?;
        let mut sheet = sheet.clone();
        sheet.characteristics.push(text);
        Ok((PennyTable { ledger, ..self.clone() }, sheet, event.map(TableEvent::Ledger).into_iter().collect()))
    }

    /// How many characteristics `character` has paid for (beyond the free one).
    pub fn purchases(&self, character: Uuid) -> usize {
        let account = Account::Character(character);
        self.ledger.entries.iter().filter(|e| e.reason == Reason::CharacteristicBought && e.from == account).count()
    }

    /// Adds an antagonist with its characteristics (any of them hidden).
    pub fn add_antagonist(
        &self,
        id: Uuid,
        name: &str,
        characteristics: &[Characteristic],
    ) -> Result<(PennyTable, Vec<TableEvent>)> {
        let name = crate::model::clean_name("name", name)?;
        if self.antagonists.iter().any(|a| a.id == id) {
            return Err(Error::invalid("antagonist", format!("{id} is already at this table")));
        }
        let characteristics = clean_characteristics(characteristics)?;
        let mut next = self.clone();
        next.antagonists.push(Antagonist { id, name: name.clone(), characteristics });
        Ok((next, vec![TableEvent::AntagonistAdded { id, name }]))
    }

    /// Renames an antagonist or rewrites its characteristics (hidden or not). A
    /// characteristic used in the running challenge stays: it is set in stone.
    pub fn edit_antagonist(
        &self,
        id: Uuid,
        name: &str,
        characteristics: &[Characteristic],
    ) -> Result<(PennyTable, Vec<TableEvent>)> {
        let name = crate::model::clean_name("name", name)?;
        let characteristics = clean_characteristics(characteristics)?;
        if let Some(challenge) = self.running() {
            for used in challenge.used_by(Account::Antagonist(id)) {
                if !characteristics.iter().any(|c| c.text == used) {
                    return Err(Error::invalid(
                        "characteristics",
                        format!("“{used}” is used in the running challenge and is set in stone"),
                    ));
                }
            }
        }
        let mut next = self.clone();
        let a = next
            .antagonists
            .iter_mut()
            .find(|a| a.id == id)
            .ok_or_else(|| Error::invalid("antagonist", format!("there is no antagonist {id} at this table")))?;
        a.name = name;
        a.characteristics = characteristics;
        Ok((next, vec![TableEvent::AntagonistChanged { id }]))
    }

    /// The House puts `amount` in an antagonist's purse, within the table's `cap` (if any).
    pub fn fund_antagonist(&self, id: Uuid, amount: u64, cap: Option<u64>) -> Result<(PennyTable, Vec<TableEvent>)> {
        self.antagonist(id)?;
        let (ledger, event) = ledger::fund_antagonist(&self.ledger, id, amount, cap)?;
        Ok((PennyTable { ledger, ..self.clone() }, vec![TableEvent::Ledger(event)]))
    }

    /// The House takes `amount` back from an antagonist's purse.
    pub fn recall_purse(&self, id: Uuid, amount: u64) -> Result<(PennyTable, Vec<TableEvent>)> {
        self.antagonist(id)?;
        self.no_challenge("taking pennies back from a purse")?;
        let entry = Entry {
            from: Account::Antagonist(id),
            to: Account::House,
            amount,
            reason: Reason::PurseReturned,
            challenge: None,
        };
        let (ledger, event) = self.ledger.record(entry)?;
        Ok((PennyTable { ledger, ..self.clone() }, vec![TableEvent::Ledger(event)]))
    }

    /// The borrower pays back `amount` of a loan.
    pub fn repay_loan(&self, loan: Uuid, amount: u64) -> Result<(PennyTable, Vec<TableEvent>)> {
        let i = self
            .loans
            .iter()
            .position(|l| l.id == loan)
            .ok_or_else(|| Error::invalid("loan", format!("there is no loan {loan} at this table")))?;
        let l = &self.loans[i];
        if amount == 0 {
            return Err(Error::invalid("amount", "must be at least 1"));
        }
        if amount > l.outstanding() {
            return Err(Error::invalid("amount", format!("only {} pennies are still owed", l.outstanding())));
        }
        let entry = Entry { from: l.borrower, to: l.lender, amount, reason: Reason::LoanRepaid, challenge: None };
        let (ledger, event) = self.ledger.record(entry)?;
        let mut next = PennyTable { ledger, ..self.clone() };
        next.loans[i].repaid += amount;
        let outstanding = next.loans[i].outstanding();
        Ok((next, vec![TableEvent::Ledger(event), TableEvent::LoanRepaid { loan, amount, outstanding }]))
    }

    /// The debtor pays back `amount` of a debt.
    pub fn repay_debt(&self, debtor: Account, creditor: Account, amount: u64) -> Result<(PennyTable, Vec<TableEvent>)> {
        let (ledger, event) = ledger::repay_debt(&self.ledger, debtor, creditor, amount)?;
        Ok((PennyTable { ledger, ..self.clone() }, vec![TableEvent::Ledger(event)]))
    }
}

fn clean_characteristics(list: &[Characteristic]) -> Result<Vec<Characteristic>> {
    let mut out: Vec<Characteristic> = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let text = clean_characteristic(&format!("characteristics[{i}]"), &c.text)?;
        if out.iter().any(|o| o.text.eq_ignore_ascii_case(&text)) {
            return Err(Error::invalid(format!("characteristics[{i}]"), format!("“{text}” is listed twice")));
        }
        out.push(Characteristic { text, hidden: c.hidden });
    }
    Ok(out)
}
