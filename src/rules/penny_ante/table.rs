//! A Penny Ante table between challenges (RULES.md §2.1–2.2): adventures, the House's
//! funding, antagonists and their purses, characteristics, loans and debts. Every penny
//! moves through the [`Ledger`]; every move here returns a new table and what happened, or
//! an error naming the field and changing nothing.
//!
//! Rulings where the source is silent:
//! - When an adventure ends, every antagonist's purse goes back to the House, except a
//!   recurring antagonist's, which it keeps for its next appearance; the House's pile goes
//!   back to the Bank, so the next adventure funds her afresh ("the House starts each
//!   adventure with a large stock of pennies"). A kept purse does not lower that funding.
//! - The House's default funding (§2.2) is the sum of the players' piles recorded when the
//!   previous adventure ended; for the first adventure, each character's starting pennies
//!   (before any characteristic was bought). A character who joined after the last
//!   adventure ended counts with its starting pennies. A table stored before the piles were
//!   recorded counts the piles as they are now.
//! - Characteristics are bought only while no adventure runs. The first is free; a newcomer
//!   may take it during an adventure, but a character who lost a characteristic in a buyout
//!   and has none left waits for the adventure's end (§2.2: lost for good).
//! - A loan is repaid by its borrower to its lender, in one or more payments. A loan not
//!   repaid in full when the next adventure starts is flagged and what is still owed becomes
//!   a debt to the lender (listed and repaid with the debts; no penny moves), and the lender
//!   narrates the setback it brings the borrower: the seed's "something undesirable happens".
//! - One challenge runs at a time at a table. A challenge that ends is kept in the history
//!   (`history`), where its narrator's account can be written afterwards.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::challenge::state::{Challenge, Used};
use super::history::{clean_narration, ChallengeRecord};
use super::ledger::{self, Account, Entry, Handover, Ledger, LedgerEvent, Reason};
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
    /// Comes back in later adventures: its purse stays with it when an adventure ends.
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    pub recurring: bool,
    /// Took part in a direct challenge: its characteristics and purse are the table's to see
    /// from then on (RULES.md §2.2 decision 2026-11-28); only anonymous ones stay hidden.
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    pub revealed: bool,
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
    /// What was still owed when a later adventure started and became a debt to the lender.
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    pub in_debt: u64,
}

impl Loan {
    /// What is still owed as a loan (not paid back, not turned into a debt).
    pub fn outstanding(&self) -> u64 {
        self.amount.saturating_sub(self.repaid).saturating_sub(self.in_debt)
    }
}

/// The players' piles when an adventure ended: the House's default funding for the next.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdventureEnd {
    /// The adventure that ended.
    pub adventure: u32,
    pub piles: Vec<EndPile>,
}

/// A character's pile when an adventure ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndPile {
    pub character: Uuid,
    pub pile: i64,
}

/// Where the House's default funding comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "adventure", rename_all = "snake_case")]
pub enum FundingBasis {
    /// No adventure yet: the characters' starting pennies.
    StartingPennies,
    /// The piles recorded when this adventure ended.
    EndOf(u32),
    /// No piles were recorded (a table kept before they were): the piles now.
    PilesNow,
}

/// The House's default funding for the next adventure and how it was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HouseBudget {
    pub amount: u64,
    pub basis: FundingBasis,
    /// Characters counted with their starting pennies because they joined after the
    /// adventure ended.
    pub newcomers: Vec<Uuid>,
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
    /// The players' piles when the last adventure ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_end: Option<AdventureEnd>,
    /// Every finished challenge, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<ChallengeRecord>,
}

/// A Penny Ante character's sheet: the pile is not here, it is the ledger's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PennySheet {
    /// The first is free; each further one was bought for 5 pennies.
    pub characteristics: Vec<String>,
    /// Characteristics paid for at another table, before the character was copied, moved or
    /// imported here (this table's ledger does not hold those purchases).
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    pub carried: u32,
    /// Characteristics given up in buyouts: once it has lost one, a character left with
    /// none takes its next free one only between adventures.
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    pub lost: u32,
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
    AdventureStarted {
        number: u32,
        house_funding: u64,
        flagged_loans: Vec<Uuid>,
    },
    AdventureEnded {
        number: u32,
        returned_to_bank: u64,
    },
    Ledger(LedgerEvent),
    AntagonistAdded {
        id: Uuid,
        name: String,
    },
    AntagonistChanged {
        id: Uuid,
    },
    /// An antagonist was marked recurring or not.
    AntagonistRecurring {
        id: Uuid,
        recurring: bool,
    },
    LoanRepaid {
        loan: Uuid,
        amount: u64,
        outstanding: u64,
    },
    /// A debt to an antagonist that left play is owed to the House from now on.
    DebtHandedToHouse(Handover),
    /// An unpaid loan became a debt at an adventure's start; the lender narrates.
    LoanBecameDebt {
        loan: Uuid,
        debtor: Account,
        creditor: Account,
        amount: u64,
    },
    /// A finished challenge was kept in the history.
    ChallengeKept {
        challenge: Uuid,
    },
    /// The narration of a finished challenge was written (or cleared).
    Narrated {
        challenge: Uuid,
    },
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
        self.challenge.as_ref().filter(|c| c.phase != super::challenge::state::Phase::Over)
    }

    /// Whether antagonist `id` is revealed to the table: it took part in a direct challenge,
    /// the current one included (RULES.md §2.2 decision 2026-11-28).
    pub fn revealed(&self, id: Uuid) -> bool {
        let direct_now = self
            .challenge
            .as_ref()
            .is_some_and(|c| c.devoted.is_none() && c.side_of(Account::Antagonist(id)).is_some());
        direct_now || self.antagonists.iter().any(|a| a.id == id && a.revealed)
    }

    fn no_challenge(&self, doing: &str) -> Result<()> {
        if self.running().is_some() {
            return Err(Error::invalid("challenge", format!("a challenge is running; finish it before {doing}")));
        }
        Ok(())
    }

    /// What the House receives at the next adventure's start by default (RULES.md §2.2):
    /// the players' piles when the last adventure ended, or their starting pennies before
    /// the first. `characters` are the game's characters now.
    pub fn house_budget(&self, characters: &[Uuid]) -> HouseBudget {
        let starting = |c: Uuid| -> u64 {
            let account = Account::Character(c);
            self.ledger
                .entries
                .iter()
                .filter(|e| e.to == account && matches!(e.reason, Reason::StartingPennies | Reason::CarriedIn))
                .fold(0u64, |sum, e| sum.saturating_add(e.amount))
        };
        match (&self.last_end, self.adventure.number) {
            (_, 0) => HouseBudget {
                amount: characters.iter().fold(0u64, |sum, &c| sum.saturating_add(starting(c))),
                basis: FundingBasis::StartingPennies,
                newcomers: Vec::new(),
            },
            (Some(end), _) => {
                let mut amount = 0u64;
                let mut newcomers = Vec::new();
                for &c in characters {
                    match end.piles.iter().find(|p| p.character == c) {
                        Some(p) => amount = amount.saturating_add(u64::try_from(p.pile).unwrap_or(0)),
                        None => {
                            amount = amount.saturating_add(starting(c));
                            newcomers.push(c);
                        }
                    }
                }
                HouseBudget { amount, basis: FundingBasis::EndOf(end.adventure), newcomers }
            }
            (None, _) => HouseBudget {
                amount: ledger::default_house_funding(&self.ledger, characters),
                basis: FundingBasis::PilesNow,
                newcomers: Vec::new(),
            },
        }
    }

    /// Starts the next adventure: every loan still unpaid is flagged and what it still owes
    /// becomes a debt to its lender; the House is funded with `funding`, or by default with
    /// [`PennyTable::house_budget`].
    pub fn start_adventure(&self, characters: &[Uuid], funding: Option<u64>) -> Result<(PennyTable, Vec<TableEvent>)> {
        if self.adventure.running {
            return Err(Error::invalid("adventure", "an adventure is already running; end it first"));
        }
        let amount = funding.unwrap_or_else(|| self.house_budget(characters).amount);
        let mut next = self.clone();
        next.adventure = Adventure { number: self.adventure.number + 1, running: true };
        let mut flagged = Vec::new();
        let mut events = Vec::new();
        for loan in &mut next.loans {
            let owed = loan.outstanding();
            if owed == 0 {
                continue;
            }
            if !loan.flagged {
                loan.flagged = true;
                flagged.push(loan.id);
            }
            loan.in_debt += owed;
            next.ledger = ledger::debt_from_loan(&next.ledger, loan.borrower, loan.lender, owed)?;
            events.push(TableEvent::LoanBecameDebt {
                loan: loan.id,
                debtor: loan.borrower,
                creditor: loan.lender,
                amount: owed,
            });
        }
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

    /// Ends the running adventure: the players' piles are recorded (the next adventure's
    /// default House funding), purses go back to the House but for the recurring
    /// antagonists', and the House's pile goes to the Bank. `characters` are the game's
    /// characters now.
    pub fn end_adventure(&self, characters: &[Uuid]) -> Result<(PennyTable, Vec<TableEvent>)> {
        if !self.adventure.running {
            return Err(Error::invalid("adventure", "no adventure is running"));
        }
        self.no_challenge("ending the adventure")?;
        let mut next = self.clone();
        let mut events = Vec::new();
        for a in self.antagonists.iter().filter(|a| !a.recurring) {
            next.empty_pile(Account::Antagonist(a.id), Account::House, Reason::PurseReturned, &mut events)?;
            // It leaves play: what is owed to it is owed to the House (D-PA7).
            let (ledger, handed) = next.ledger.hand_debts_to_house(a.id);
            next.ledger = ledger;
            events.extend(handed.into_iter().map(TableEvent::DebtHandedToHouse));
        }
        let house = next.empty_pile(Account::House, Account::Bank, Reason::HouseReturned, &mut events)?;
        next.adventure.running = false;
        next.last_end = Some(AdventureEnd {
            adventure: self.adventure.number,
            piles: characters
                .iter()
                .map(|&c| EndPile { character: c, pile: next.ledger.pile(&Account::Character(c)) })
                .collect(),
        });
        events.insert(0, TableEvent::AdventureEnded { number: self.adventure.number, returned_to_bank: house });
        Ok((next, events))
    }

    /// Moves all of `from`'s pile to `to` for `reason`, when it holds any; the amount moved.
    fn empty_pile(&mut self, from: Account, to: Account, reason: Reason, events: &mut Vec<TableEvent>) -> Result<u64> {
        let held = u64::try_from(self.ledger.pile(&from)).unwrap_or(0);
        if held > 0 {
            let (ledger, event) = self.ledger.record(Entry { from, to, amount: held, reason, challenge: None })?;
            self.ledger = ledger;
            events.push(TableEvent::Ledger(event));
        }
        Ok(held)
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
        if owned == 0 && sheet.lost > 0 && self.adventure.running {
            return Err(Error::invalid(
                "characteristic",
                "lost its last characteristic in a buyout: a new free one is taken only between adventures",
            ));
        }
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
        next.antagonists.push(Antagonist {
            id,
            name: name.clone(),
            characteristics,
            recurring: false,
            revealed: false,
        });
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
    /// Refused while the antagonist plays in the running challenge (RULES.md §2.2 decision
    /// 2026-11-28): a purse cannot be topped up to call a raise it could not match.
    pub fn fund_antagonist(&self, id: Uuid, amount: u64, cap: Option<u64>) -> Result<(PennyTable, Vec<TableEvent>)> {
        let antagonist = self.antagonist(id)?;
        if self.running().is_some_and(|c| c.side_of(Account::Antagonist(id)).is_some()) {
            return Err(Error::invalid(
                "antagonist",
                format!(
                    "{} plays in the running challenge; the House may add to its purse only when it is in none",
                    antagonist.name
                ),
            ));
        }
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

    /// Marks an antagonist as recurring (its purse stays with it when an adventure ends)
    /// or not.
    pub fn set_recurring(&self, id: Uuid, recurring: bool) -> Result<(PennyTable, Vec<TableEvent>)> {
        self.antagonist(id)?;
        let mut next = self.clone();
        for a in next.antagonists.iter_mut().filter(|a| a.id == id) {
            a.recurring = recurring;
        }
        Ok((next, vec![TableEvent::AntagonistRecurring { id, recurring }]))
    }

    /// Keeps the table's challenge in the history once it is over (the services call this
    /// after the move that ends it); `given_up` are the characteristics its buyout cost.
    /// A challenge already kept, or not over, leaves the table as it is.
    pub fn keep_finished_challenge(&self, given_up: &[Used]) -> (PennyTable, Vec<TableEvent>) {
        let Some(c) = &self.challenge else { return (self.clone(), Vec::new()) };
        if self.history.iter().any(|r| r.challenge == c.id) {
            return (self.clone(), Vec::new());
        }
        let Some(record) = ChallengeRecord::of(c, self.adventure.number, given_up) else {
            return (self.clone(), Vec::new());
        };
        let mut next = self.clone();
        next.history.push(record);
        (next, vec![TableEvent::ChallengeKept { challenge: c.id }])
    }

    /// Writes (or, with an empty text, clears) what the narrator told of a finished
    /// challenge's outcome.
    pub fn narrate(&self, challenge: Uuid, text: &str) -> Result<(PennyTable, Vec<TableEvent>)> {
        let text = clean_narration(text)?;
        let mut next = self.clone();
        let record =
            next.history.iter_mut().find(|r| r.challenge == challenge).ok_or_else(|| {
                Error::invalid("challenge", format!("no finished challenge {challenge} at this table"))
            })?;
        record.narration = text;
        Ok((next, vec![TableEvent::Narrated { challenge }]))
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::penny_ante::check::table_problems;
    use crate::rules::penny_ante::ledger::DEFAULT_STARTING_MINIMUM;
    use crate::rules::test_support::{ch, id};

    /// Characters 1 (30 pennies) and 2 (25), each with a free characteristic and
    /// character 1 with a bought one.
    fn table() -> (PennyTable, [PennySheet; 2]) {
        let t = PennyTable::default();
        let t = t.starting_pennies(id(1), 30, DEFAULT_STARTING_MINIMUM).unwrap().0;
        let t = t.starting_pennies(id(2), 25, DEFAULT_STARTING_MINIMUM).unwrap().0;
        let (t, one, _) = t.buy_characteristic(id(1), &PennySheet::default(), "Strong").unwrap();
        let (t, one, _) = t.buy_characteristic(id(1), &one, "Quick").unwrap();
        let (t, two, _) = t.buy_characteristic(id(2), &PennySheet::default(), "Clever").unwrap();
        (t, [one, two])
    }

    /// A loan of `amount` from `lender` to `borrower` made in the running adventure, as a
    /// challenge's accepted offer leaves it.
    fn lend(t: &PennyTable, n: u128, lender: Account, borrower: Account, amount: u64) -> PennyTable {
        let entry = Entry { from: lender, to: borrower, amount, reason: Reason::Loan, challenge: None };
        let mut next = PennyTable { ledger: t.ledger.record(entry).unwrap().0, ..t.clone() };
        next.loans.push(Loan {
            id: id(n),
            lender,
            borrower,
            amount,
            repaid: 0,
            challenge: None,
            adventure: t.adventure.number,
            flagged: false,
            in_debt: 0,
        });
        next
    }

    #[test]
    fn the_first_house_gets_the_starting_pennies_before_characteristics_were_bought() {
        let (t, _) = table();
        // 30 + 25, although character 1 paid 5 for "Quick" since (audit #8).
        let budget = t.house_budget(&[id(1), id(2)]);
        assert_eq!((budget.amount, budget.basis), (55, FundingBasis::StartingPennies));
        let (t, _) = t.start_adventure(&[id(1), id(2)], None).unwrap();
        assert_eq!(t.pile(&Account::House), 55);
    }

    #[test]
    fn later_houses_get_the_piles_recorded_when_the_last_adventure_ended() {
        let (t, sheets) = table();
        let everyone = [id(1), id(2)];
        let t = t.start_adventure(&everyone, None).unwrap().0;
        let t = lend(&t, 70, ch(2), ch(1), 5);
        let t = t.end_adventure(&everyone).unwrap().0;
        assert_eq!(
            t.last_end,
            Some(AdventureEnd {
                adventure: 1,
                piles: vec![EndPile { character: id(1), pile: 30 }, EndPile { character: id(2), pile: 20 }]
            })
        );
        // Purchases and repayments between adventures do not lower the next House.
        let t = t.buy_characteristic(id(2), &sheets[1], "Nimble").unwrap().0;
        let t = t.repay_loan(id(70), 5).unwrap().0;
        assert_eq!(t.house_budget(&everyone).amount, 50);
        // A newcomer counts with its starting pennies.
        let t = t.starting_pennies(id(3), 40, DEFAULT_STARTING_MINIMUM).unwrap().0;
        let budget = t.house_budget(&[id(1), id(2), id(3)]);
        assert_eq!((budget.amount, budget.basis, budget.newcomers), (90, FundingBasis::EndOf(1), vec![id(3)]));
        // An agreed amount still overrides.
        let (next, _) = t.start_adventure(&[id(1), id(2), id(3)], Some(12)).unwrap();
        assert_eq!(next.pile(&Account::House), 12);
        // A table kept before the piles were recorded counts the piles now.
        let old = PennyTable { last_end: None, ..t };
        assert_eq!(old.house_budget(&everyone).basis, FundingBasis::PilesNow);
    }

    #[test]
    fn a_characteristic_lost_in_a_buyout_is_replaced_free_only_between_adventures() {
        let (t, _) = table();
        let t = t.start_adventure(&[id(1), id(2)], None).unwrap().0;
        let bought_out = PennySheet { characteristics: Vec::new(), carried: 0, lost: 1 };
        let refused = t.buy_characteristic(id(2), &bought_out, "Stubborn").unwrap_err();
        assert_eq!(
            refused.to_string(),
            "characteristic: lost its last characteristic in a buyout: a new free one is taken only between adventures"
        );
        // A newcomer still takes the free one during the adventure.
        let (_, sheet, events) = t.buy_characteristic(id(3), &PennySheet::default(), "Fresh").unwrap();
        assert_eq!((sheet.characteristics.len(), events.len()), (1, 0));
        // Between adventures the free one is taken again, at no cost.
        let t = t.end_adventure(&[id(1), id(2)]).unwrap().0;
        let (after, sheet, events) = t.buy_characteristic(id(2), &bought_out, "Stubborn").unwrap();
        assert_eq!((sheet.characteristics, events.len()), (vec!["Stubborn".to_owned()], 0));
        assert_eq!(after.pile(&ch(2)), t.pile(&ch(2)));
    }

    #[test]
    fn an_unpaid_loan_becomes_a_debt_to_the_lender_when_the_next_adventure_starts() {
        let (t, _) = table();
        let everyone = [id(1), id(2)];
        let t = t.start_adventure(&everyone, None).unwrap().0;
        let t = lend(&t, 70, ch(2), ch(1), 6);
        let t = t.repay_loan(id(70), 2).unwrap().0;
        let t = t.end_adventure(&everyone).unwrap().0;
        let piles = (t.pile(&ch(1)), t.pile(&ch(2)));
        let (t, events) = t.start_adventure(&everyone, None).unwrap();
        assert!(events.contains(&TableEvent::LoanBecameDebt {
            loan: id(70),
            debtor: ch(1),
            creditor: ch(2),
            amount: 4
        }));
        let loan = &t.loans[0];
        assert_eq!((loan.flagged, loan.in_debt, loan.outstanding()), (true, 4, 0));
        assert_eq!(t.ledger.owed(&ch(1), &ch(2)), 4);
        // No penny moved: the borrower has had them since the loan.
        assert_eq!((t.pile(&ch(1)), t.pile(&ch(2))), piles);
        assert_eq!(table_problems(&t, "$"), vec![]);
        // It is repaid as a debt; the loan takes no more.
        assert_eq!(t.repay_loan(id(70), 1).unwrap_err().to_string(), "amount: only 0 pennies are still owed");
        let t = t.repay_debt(ch(1), ch(2), 4).unwrap().0;
        assert!(t.ledger.debts.is_empty());
        assert_eq!(table_problems(&t, "$"), vec![]);
    }

    #[test]
    fn a_recurring_antagonist_keeps_its_purse_when_the_adventure_ends() {
        let (t, _) = table();
        let everyone = [id(1), id(2)];
        let t = t.start_adventure(&everyone, None).unwrap().0;
        let t = t.add_antagonist(id(8), "The Count", &[]).unwrap().0;
        let t = t.add_antagonist(id(9), "A Thug", &[]).unwrap().0;
        let t = t.fund_antagonist(id(8), 12, None).unwrap().0;
        let t = t.fund_antagonist(id(9), 7, None).unwrap().0;
        let t = t.set_recurring(id(8), true).unwrap().0;
        assert_eq!(t.set_recurring(id(5), true).unwrap_err().to_string().split(':').next(), Some("antagonist"));
        let t = t.end_adventure(&everyone).unwrap().0;
        assert_eq!(t.pile(&Account::Antagonist(id(8))), 12);
        assert_eq!((t.pile(&Account::Antagonist(id(9))), t.pile(&Account::House)), (0, 0));
        // The next House is funded as usual (the piles at the end, 25 + 25); the kept purse
        // is extra.
        let t = t.start_adventure(&everyone, None).unwrap().0;
        assert_eq!((t.pile(&Account::House), t.pile(&Account::Antagonist(id(8)))), (50, 12));
    }

    #[test]
    fn a_finished_challenge_is_kept_once_and_narrated_afterwards() {
        use crate::rules::dice::Entered;
        use crate::rules::penny_ante::challenge::{self, Move, Roster, Setup, Side};
        let (t, sheets) = table();
        let roster: Roster = [(id(1), sheets[0].characteristics.clone()), (id(2), sheets[1].characteristics.clone())]
            .into_iter()
            .collect();
        let t = t.start_adventure(&[id(1), id(2)], None).unwrap().0;
        let setup = Setup {
            id: id(50),
            stake: "The map".into(),
            ante: 2,
            challenger: vec![ch(1)],
            opponent: vec![ch(2)],
            devoted: None,
        };
        let mut t = challenge::start(&t, &roster, setup).unwrap().0;
        assert_eq!(t.keep_finished_challenge(&[]).0, t, "a running challenge is not kept");
        for mv in [
            Move::Pass { side: Side::Challenger },
            Move::Pass { side: Side::Opponent },
            Move::Characteristics { side: Side::Challenger, used: vec![] },
            Move::Characteristics { side: Side::Opponent, used: vec![] },
            Move::Roll { side: Side::Challenger },
            Move::Cup { side: Side::Challenger, cup: vec![] },
            Move::Roll { side: Side::Opponent },
            Move::Cup { side: Side::Opponent, cup: vec![] },
            Move::Fold { side: Side::Challenger },
        ] {
            t = challenge::play(&t, &roster, &mv, &mut Entered::new([3])).unwrap().0;
        }
        let (kept, events) = t.keep_finished_challenge(&[]);
        assert_eq!(events, vec![TableEvent::ChallengeKept { challenge: id(50) }]);
        let r = &kept.history[0];
        assert_eq!(
            (r.adventure, r.pot, r.winner, r.folded, r.narrator),
            (1, 4, Some(Side::Opponent), Some(Side::Challenger), Some(Side::Challenger))
        );
        assert_eq!(r.sides[0].members, vec![ch(1)]);
        assert_eq!(kept.keep_finished_challenge(&[]).0, kept, "kept once");
        let (told, _) = kept.narrate(id(50), "  Ada drops the map in the river.\n").unwrap();
        assert_eq!(told.history[0].narration, "Ada drops the map in the river.");
        assert_eq!(kept.narrate(id(51), "x").unwrap_err().to_string().split(':').next(), Some("challenge"));
        assert_eq!(
            kept.narrate(id(50), &"a".repeat(2001)).unwrap_err().to_string().split(':').next(),
            Some("narration")
        );
        assert_eq!(table_problems(&told, "$"), vec![]);
    }

    proptest! {
        /// Adventures ending and starting, with recurring antagonists, purses, loans and
        /// repayments in between: characters' piles never change at an adventure's edge,
        /// every table account stays at 0 or more beyond its debts, loans owed at a start
        /// all become debts, and the table always passes the check.
        #[test]
        fn adventure_edges_conserve_piles_and_turn_unpaid_loans_into_debts(
            moves in prop::collection::vec((0u8..7, 1u64..15, any::<bool>()), 10..80),
        ) {
            let everyone = [id(1), id(2)];
            let (mut t, _) = table();
            t = t.add_antagonist(id(8), "The Count", &[]).unwrap().0;
            t = t.add_antagonist(id(9), "A Thug", &[]).unwrap().0;
            let mut n = 100;
            for (kind, amount, flag) in moves {
                let next = match kind {
                    0 => t.start_adventure(&everyone, None).ok().map(|(t, _)| t),
                    1 => t.end_adventure(&everyone).ok().map(|(t, _)| t),
                    2 => t.fund_antagonist(if flag { id(8) } else { id(9) }, amount, None).ok().map(|(t, _)| t),
                    3 => t.set_recurring(if flag { id(8) } else { id(9) }, !flag || amount % 2 == 0).ok().map(|(t, _)| t),
                    4 if t.pile(&ch(2)) >= i64::try_from(amount).unwrap() => {
                        n += 1;
                        let (lender, borrower) = if flag { (ch(2), ch(1)) } else { (ch(1), ch(2)) };
                        (t.pile(&lender) >= i64::try_from(amount).unwrap()).then(|| lend(&t, n, lender, borrower, amount))
                    }
                    5 => t.loans.iter().find(|l| l.outstanding() > 0).and_then(|l| t.repay_loan(l.id, amount).ok()).map(|(t, _)| t),
                    _ => t.ledger.debts.first().and_then(|d| t.repay_debt(d.debtor, d.creditor, amount).ok()).map(|(t, _)| t),
                };
                let Some(next) = next else { continue };
                if next.adventure != t.adventure {
                    for c in everyone {
                        prop_assert_eq!(next.pile(&Account::Character(c)), t.pile(&Account::Character(c)));
                    }
                    for a in &t.antagonists {
                        let purse = Account::Antagonist(a.id);
                        if !next.adventure.running && !a.recurring {
                            prop_assert_eq!(next.pile(&purse), 0);
                        } else {
                            prop_assert_eq!(next.pile(&purse), t.pile(&purse));
                        }
                    }
                    if next.adventure.running {
                        prop_assert!(next.loans.iter().all(|l| l.outstanding() == 0));
                        let owed_before: u64 = t.ledger.debts.iter().map(|d| d.amount).sum();
                        let owed_after: u64 = next.ledger.debts.iter().map(|d| d.amount).sum();
                        let unpaid: u64 = t.loans.iter().map(Loan::outstanding).sum();
                        prop_assert_eq!(owed_after, owed_before + unpaid);
                    } else {
                        prop_assert_eq!(next.pile(&Account::House), 0);
                    }
                }
                t = next;
                prop_assert_eq!(table_problems(&t, "$"), vec![]);
            }
        }
    }
}
