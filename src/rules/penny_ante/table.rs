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

use super::challenge::{Challenge, Used};
use super::history::{clean_narration, ChallengeRecord};
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
    /// Comes back in later adventures: its purse stays with it when an adventure ends.
    #[serde(default, skip_serializing_if = "is_false")]
    pub recurring: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
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
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub in_debt: u64,
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
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
    #[serde(default, skip_serializing_if = "is_zero")]
    pub carried: u32,
    /// Characteristics given up in buyouts: once it has lost one, a character left with
    /// none takes its next free one only between adventures.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lost: u32,
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
        self.challenge.as_ref().filter(|c| c.phase != super::challenge::Phase::Over)
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
        next.antagonists.push(Antagonist { id, name: name.clone(), characteristics, recurring: false });
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
