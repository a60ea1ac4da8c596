//! What a whole Penny Ante table must hold, beyond what each move checks: used by
//! `sheetkeeper check` on a stored table and by the import of a file, so both agree.
//!
//! Each function lists every problem, each at `path` + the field (e.g.
//! `$.penny_table.loans[0].repaid`). Everything here holds for any table the rules produce;
//! a table read from a file that breaks one of these would make later moves misbehave.

use std::collections::{BTreeMap, BTreeSet};

use super::challenge::{Challenge, Phase, MAX_CHARACTERISTICS};
use super::history::MAX_NARRATION_CHARS;
use super::ledger::{entry_problem, Account, Entry, Reason, MAX_ENTRY};
use super::score::Hand;
use super::table::{clean_characteristic, PennySheet, PennyTable};
use crate::model::name_problem;
use crate::Problem;

/// The most dice a side rolls: one, and one per characteristic used.
const MAX_SIDE_DICE: usize = 1 + MAX_CHARACTERISTICS;
/// The most dice a hand is scored from.
const HAND_DICE: usize = 5;
/// The highest score of a hand (five of a kind).
const MAX_HAND_SCORE: u32 = 50;
/// The longest stake or circumstance, in characters (as the challenge checks them).
const MAX_TEXT_CHARS: usize = 200;

struct Found {
    out: Vec<Problem>,
}

impl Found {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.out.push(Problem { path: path.into(), message: message.into() });
    }

    /// An account that must be able to take part in play.
    fn party(&mut self, path: String, account: Account) {
        if !account.is_party() {
            self.add(path, format!("{account:?} must be a character, the House or an antagonist"));
        }
    }

    /// A stake or circumstance: 1 to 200 characters, no control characters.
    fn text(&mut self, path: String, text: &str) {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            self.add(path, "must not be empty");
        } else if text.chars().count() > MAX_TEXT_CHARS {
            self.add(path, format!("must be 1 to {MAX_TEXT_CHARS} characters, no control characters"));
        } else if let Some(p) = crate::model::line_chars_problem(trimmed) {
            self.add(path, p);
        }
    }
}

/// Every problem of a table: the ledger's own ([`super::ledger::Ledger::problems`]), the
/// adventure, debts and loans that disagree with the entries, antagonists, and the challenge.
pub fn table_problems(t: &PennyTable, path: &str) -> Vec<Problem> {
    let mut f = Found { out: t.ledger.problems(&format!("{path}.ledger")) };
    if t.adventure.running && t.adventure.number == 0 {
        f.add(format!("{path}.adventure.number"), "a running adventure has been started, so its number is 1 or more");
    }
    debts_agree(&mut f, t, path);
    loans(&mut f, t, path);
    antagonists(&mut f, t, path);
    if let Some(c) = &t.challenge {
        challenge(&mut f, t, c, &format!("{path}.challenge"));
    }
    history(&mut f, t, path);
    last_end(&mut f, t, path);
    f.out
}

/// The finished challenges: each once, in an adventure the table played, with its texts,
/// sides and hands as a challenge makes them.
fn history(f: &mut Found, t: &PennyTable, path: &str) {
    let mut ids = BTreeMap::new();
    for (i, r) in t.history.iter().enumerate() {
        let at = format!("{path}.history[{i}]");
        if let Some(first) = ids.insert(r.challenge, i) {
            f.add(format!("{at}.challenge"), format!("{} is kept twice: also at history[{first}]", r.challenge));
        }
        if r.adventure == 0 || r.adventure > t.adventure.number {
            f.add(
                format!("{at}.adventure"),
                format!("{} is not an adventure this table played (1 to {})", r.adventure, t.adventure.number),
            );
        }
        f.text(format!("{at}.stake"), &r.stake);
        if r.ante == 0 || r.ante > MAX_ENTRY {
            f.add(format!("{at}.ante"), format!("{} is out of range: 1 to {MAX_ENTRY}", r.ante));
        }
        if r.folded.is_some_and(|folder| r.winner != Some(folder.other())) {
            f.add(format!("{at}.winner"), "after a fold, the other side wins");
        }
        if let Some(p) = crate::model::free_text_problem(&r.narration, MAX_NARRATION_CHARS) {
            f.add(format!("{at}.narration"), p);
        }
        for (s, side) in r.sides.iter().enumerate() {
            let at = format!("{at}.sides[{s}]");
            if side.members.is_empty() {
                f.add(format!("{at}.members"), "names no one");
            }
            for (m, member) in side.members.iter().enumerate() {
                f.party(format!("{at}.members[{m}]"), *member);
            }
            if side.used.len() > MAX_CHARACTERISTICS {
                f.add(format!("{at}.used"), format!("a side uses at most {MAX_CHARACTERISTICS} characteristics"));
            }
            for (list, used) in [("used", &side.used), ("given_up", &side.given_up)] {
                for (u, used) in used.iter().enumerate() {
                    f.party(format!("{at}.{list}[{u}].owner"), used.owner);
                    let field = format!("{at}.{list}[{u}].text");
                    if let Err(e) = clean_characteristic(&field, &used.text) {
                        f.add(field, problem_of(e));
                    }
                }
            }
            if let Some(hand) = &side.hand {
                hand_problems(f, &format!("{at}.hand"), hand);
            }
        }
    }
}

fn hand_problems(f: &mut Found, at: &str, hand: &Hand) {
    if hand.score > MAX_HAND_SCORE {
        f.add(format!("{at}.score"), format!("{} is above the best hand's {MAX_HAND_SCORE}", hand.score));
    }
    if hand.dice.is_empty() || hand.dice.len() > HAND_DICE {
        f.add(format!("{at}.dice"), format!("a hand has 1 to {HAND_DICE} dice"));
    }
    faces(f, &format!("{at}.dice"), &hand.dice);
}

/// The piles recorded when the last adventure ended: an adventure the table played, each
/// character once.
fn last_end(f: &mut Found, t: &PennyTable, path: &str) {
    let Some(end) = &t.last_end else { return };
    let at = format!("{path}.last_end");
    if end.adventure == 0 || end.adventure > t.adventure.number {
        f.add(
            format!("{at}.adventure"),
            format!("{} is not an adventure this table played (1 to {})", end.adventure, t.adventure.number),
        );
    }
    let mut seen = BTreeMap::new();
    for (i, p) in end.piles.iter().enumerate() {
        if let Some(first) = seen.insert(p.character, i) {
            f.add(format!("{at}.piles[{i}].character"), format!("is listed twice: also at piles[{first}]"));
        }
        if p.pile.unsigned_abs() > MAX_ENTRY.saturating_mul(1000) {
            f.add(format!("{at}.piles[{i}].pile"), format!("{} is out of range", p.pile));
        }
    }
}

/// What each debt says is owed matches the debt entries: recorded minus repaid.
fn debts_agree(f: &mut Found, t: &PennyTable, path: &str) {
    let mut from_entries: BTreeMap<(Account, Account), i128> = BTreeMap::new();
    // An unpaid loan's debt moved no penny: the loan says how much became a debt.
    for loan in &t.loans {
        if loan.in_debt > 0 {
            *from_entries.entry((loan.borrower, loan.lender)).or_default() += i128::from(loan.in_debt);
        }
    }
    for e in &t.ledger.entries {
        match e.reason {
            // The creditor gives the pennies back to the debtor.
            Reason::DebtRecorded => *from_entries.entry((e.to, e.from)).or_default() += i128::from(e.amount),
            Reason::DebtRepaid => *from_entries.entry((e.from, e.to)).or_default() -= i128::from(e.amount),
            _ => {}
        }
    }
    // A debt handed over to the House when its antagonist left play moved no penny.
    for (i, h) in t.ledger.handed_over.iter().enumerate() {
        let at = format!("{path}.ledger.handed_over[{i}]");
        f.party(format!("{at}.debtor"), h.debtor);
        if h.amount == 0 || h.amount > MAX_ENTRY {
            f.add(format!("{at}.amount"), format!("{} is out of range: 1 to {MAX_ENTRY}", h.amount));
        }
        if !t.antagonists.iter().any(|a| a.id == h.antagonist) {
            f.add(format!("{at}.antagonist"), format!("there is no antagonist {} at this table", h.antagonist));
        }
        *from_entries.entry((h.debtor, Account::Antagonist(h.antagonist))).or_default() -= i128::from(h.amount);
        *from_entries.entry((h.debtor, Account::House)).or_default() += i128::from(h.amount);
    }
    // What the list of debts says per pair, in one pass (as `Ledger::owed` sums it).
    let mut owed: BTreeMap<(Account, Account), u64> = BTreeMap::new();
    for d in &t.ledger.debts {
        let sum = owed.entry((d.debtor, d.creditor)).or_default();
        *sum = sum.saturating_add(d.amount);
    }
    let pairs: BTreeSet<(Account, Account)> = from_entries.keys().chain(owed.keys()).copied().collect();
    for (debtor, creditor) in pairs {
        let listed = i128::from(owed.get(&(debtor, creditor)).copied().unwrap_or(0));
        let entries = from_entries.get(&(debtor, creditor)).copied().unwrap_or(0);
        if listed != entries {
            f.add(
                format!("{path}.ledger.debts"),
                format!(
                    "{debtor:?} owes {creditor:?} {listed} pennies by the list of debts, but {entries} by the entries \
                     and loans (recorded and unpaid loans, minus repaid)"
                ),
            );
        }
    }
}

fn loans(f: &mut Found, t: &PennyTable, path: &str) {
    let mut ids = BTreeMap::new();
    // What the loans say was lent and repaid between each lender and borrower.
    let mut listed: BTreeMap<(Account, Account), (i128, i128)> = BTreeMap::new();
    for (i, loan) in t.loans.iter().enumerate() {
        let at = format!("{path}.loans[{i}]");
        if let Some(first) = ids.insert(loan.id, i) {
            f.add(format!("{at}.id"), format!("duplicate loan id {}: also used at loans[{first}]", loan.id));
        }
        if loan.amount == 0 || loan.amount > MAX_ENTRY {
            f.add(format!("{at}.amount"), format!("{} is out of range: 1 to {MAX_ENTRY}", loan.amount));
        }
        if loan.repaid > loan.amount {
            f.add(format!("{at}.repaid"), format!("{} is more than the loan of {}", loan.repaid, loan.amount));
        } else if loan.in_debt > loan.amount - loan.repaid {
            f.add(
                format!("{at}.in_debt"),
                format!("{} is more than the {} left unpaid of the loan", loan.in_debt, loan.amount - loan.repaid),
            );
        }
        if loan.in_debt > 0 && !loan.flagged {
            f.add(format!("{at}.flagged"), "a loan that became a debt was unpaid at an adventure's start: flagged");
        }
        f.party(format!("{at}.lender"), loan.lender);
        f.party(format!("{at}.borrower"), loan.borrower);
        if loan.lender == loan.borrower {
            f.add(format!("{at}.borrower"), "must differ from the lender");
        }
        if loan.adventure > t.adventure.number {
            f.add(
                format!("{at}.adventure"),
                format!("{} is after the table's adventure {}", loan.adventure, t.adventure.number),
            );
        }
        let sums = listed.entry((loan.lender, loan.borrower)).or_default();
        sums.0 += i128::from(loan.amount);
        sums.1 += i128::from(loan.repaid);
    }
    let mut from_entries: BTreeMap<(Account, Account), (i128, i128)> = BTreeMap::new();
    for e in &t.ledger.entries {
        match e.reason {
            Reason::Loan => from_entries.entry((e.from, e.to)).or_default().0 += i128::from(e.amount),
            Reason::LoanRepaid => from_entries.entry((e.to, e.from)).or_default().1 += i128::from(e.amount),
            _ => {}
        }
    }
    let pairs: BTreeSet<(Account, Account)> = listed.keys().chain(from_entries.keys()).copied().collect();
    for (lender, borrower) in pairs {
        let (lent, repaid) = listed.get(&(lender, borrower)).copied().unwrap_or_default();
        let (lent_entries, repaid_entries) = from_entries.get(&(lender, borrower)).copied().unwrap_or_default();
        if (lent, repaid) != (lent_entries, repaid_entries) {
            f.add(
                format!("{path}.loans"),
                format!(
                    "the loans from {lender:?} to {borrower:?} say {lent} lent and {repaid} repaid; the entries say \
                     {lent_entries} and {repaid_entries}"
                ),
            );
        }
    }
}

fn antagonists(f: &mut Found, t: &PennyTable, path: &str) {
    let mut ids = BTreeMap::new();
    for (i, a) in t.antagonists.iter().enumerate() {
        let at = format!("{path}.antagonists[{i}]");
        if let Some(first) = ids.insert(a.id, i) {
            f.add(format!("{at}.id"), format!("duplicate antagonist id {}: also used at antagonists[{first}]", a.id));
        }
        if let Some(p) = name_problem(&a.name) {
            f.add(format!("{at}.name"), p);
        }
        let mut seen = BTreeSet::new();
        for (j, c) in a.characteristics.iter().enumerate() {
            let field = format!("{at}.characteristics[{j}].text");
            if let Err(e) = clean_characteristic(&field, &c.text) {
                f.add(field.clone(), problem_of(e));
            }
            if !seen.insert(c.text.as_str()) {
                f.add(field, format!("“{}” is listed twice", c.text));
            }
        }
    }
    // Every antagonist the pennies name sits at this table.
    let known = |a: &Account| !matches!(a, Account::Antagonist(id) if !ids.contains_key(id));
    let mut unknown = |at: String, a: Account| {
        if !known(&a) {
            f.add(at, format!("{a:?} is not an antagonist at this table"));
        }
    };
    for (i, e) in t.ledger.entries.iter().enumerate() {
        unknown(format!("{path}.ledger.entries[{i}].from"), e.from);
        unknown(format!("{path}.ledger.entries[{i}].to"), e.to);
    }
    for (i, d) in t.ledger.debts.iter().enumerate() {
        unknown(format!("{path}.ledger.debts[{i}].debtor"), d.debtor);
        unknown(format!("{path}.ledger.debts[{i}].creditor"), d.creditor);
    }
    for (i, l) in t.loans.iter().enumerate() {
        unknown(format!("{path}.loans[{i}].lender"), l.lender);
        unknown(format!("{path}.loans[{i}].borrower"), l.borrower);
    }
    if let Some(c) = &t.challenge {
        for (s, side) in c.sides.iter().enumerate() {
            for (m, member) in side.members.iter().enumerate() {
                unknown(format!("{path}.challenge.sides[{s}].members[{m}].account"), member.account);
            }
        }
    }
    for (i, r) in t.history.iter().enumerate() {
        for (s, side) in r.sides.iter().enumerate() {
            for (m, member) in side.members.iter().enumerate() {
                unknown(format!("{path}.history[{i}].sides[{s}].members[{m}]"), *member);
            }
        }
    }
}

fn challenge(f: &mut Found, t: &PennyTable, c: &Challenge, path: &str) {
    f.text(format!("{path}.stake"), &c.stake);
    if c.ante == 0 || c.ante > MAX_ENTRY {
        f.add(format!("{path}.ante"), format!("{} is out of range: 1 to {MAX_ENTRY}", c.ante));
    }
    if c.devoted.is_some_and(|d| d < c.ante) {
        f.add(format!("{path}.devoted"), format!("must cover the ante of {}", c.ante));
    }
    let mut paid_in: i128 = 0;
    for (s, side) in c.sides.iter().enumerate() {
        let at = format!("{path}.sides[{s}]");
        if side.members.is_empty() {
            f.add(format!("{at}.members"), "names no one");
        }
        for (m, member) in side.members.iter().enumerate() {
            f.party(format!("{at}.members[{m}].account"), member.account);
        }
        for (m, member) in side.lost.iter().enumerate() {
            f.party(format!("{at}.lost[{m}].account"), member.account);
        }
        let paid: i128 = side.members.iter().map(|m| i128::from(m.paid)).sum();
        paid_in += paid;
        if i128::from(side.wager) + i128::from(side.doubled) != paid {
            f.add(
                format!("{at}.wager"),
                format!(
                    "the wager ({}) and the doubling-down stake ({}) must add up to what the members paid ({paid})",
                    side.wager, side.doubled
                ),
            );
        }
        if side.used.len() > MAX_CHARACTERISTICS {
            f.add(format!("{at}.used"), format!("a side uses at most {MAX_CHARACTERISTICS} characteristics"));
        }
        for (u, used) in side.used.iter().enumerate() {
            f.party(format!("{at}.used[{u}].owner"), used.owner);
            let field = format!("{at}.used[{u}].text");
            if let Err(e) = clean_characteristic(&field, &used.text) {
                f.add(field, problem_of(e));
            }
        }
        if side.dice.len() > MAX_SIDE_DICE {
            f.add(format!("{at}.dice"), format!("a side rolls at most {MAX_SIDE_DICE} dice"));
        }
        faces(f, &format!("{at}.dice"), &side.dice);
        let increasing = side.cup.windows(2).all(|w| w[0] < w[1]);
        if !increasing || side.cup.last().is_some_and(|&last| last >= side.dice.len()) {
            f.add(
                format!("{at}.cup"),
                format!("must list positions of its {} dice, each once, in order", side.dice.len()),
            );
        }
    }
    for (i, x) in c.circumstances.iter().enumerate() {
        let at = format!("{path}.circumstances[{i}]");
        f.text(format!("{at}.name"), &x.name);
        if !(1..=6).contains(&x.die) {
            f.add(format!("{at}.die"), format!("{} is not a face of a d6", x.die));
        }
        if x.barred == Some(x.by) {
            f.add(format!("{at}.barred"), "bars the other side, not the side that named it");
        }
    }
    for (i, lender) in c.lenders.iter().enumerate() {
        f.party(format!("{path}.lenders[{i}]"), *lender);
    }
    if let Some(offer) = &c.offer {
        f.party(format!("{path}.offer.lender"), offer.lender);
        if let Some(b) = offer.borrower {
            if !matches!(b, Account::Character(_)) || c.side_of(b) != Some(offer.side) {
                f.add(format!("{path}.offer.borrower"), "is not a player character on the side offered the loan");
            }
        }
        if offer.amount == 0 || offer.amount > MAX_ENTRY {
            f.add(format!("{path}.offer.amount"), format!("{} is out of range: 1 to {MAX_ENTRY}", offer.amount));
        }
    }
    for (i, bid) in c.bids.iter().enumerate() {
        f.party(format!("{path}.bids[{i}].bidder"), bid.bidder);
        if bid.amount == 0 {
            f.add(format!("{path}.bids[{i}].amount"), "must be at least 1");
        }
    }
    let winner = c.outcome.as_ref().and_then(|o| o.winner);
    if c.phase == Phase::AfterLoss && winner.is_none() {
        f.add(format!("{path}.outcome"), "after a loss, the outcome names the winner");
    }
    // The pot holds what the members paid until the challenge is settled, then nothing.
    let pot = t.ledger.pile(&Account::Pot(c.id));
    match &c.outcome {
        None if i128::from(pot) != paid_in => f.add(
            format!("{path}.sides"),
            format!("the members paid {paid_in} pennies, but the ledger's pot of the challenge holds {pot}"),
        ),
        Some(o) => {
            if pot != 0 {
                f.add(format!("{path}.outcome"), format!("the challenge is settled but its pot still holds {pot}"));
            }
            if i128::from(o.pot) != paid_in {
                f.add(format!("{path}.outcome.pot"), format!("{} is not what the members paid ({paid_in})", o.pot));
            }
            for (s, hand) in o.hands.iter().flatten().enumerate() {
                hand_problems(f, &format!("{path}.outcome.hands[{s}]"), hand);
            }
        }
        None => {}
    }
}

fn faces(f: &mut Found, path: &str, dice: &[u8]) {
    for (i, d) in dice.iter().enumerate() {
        if !(1..=6).contains(d) {
            f.add(format!("{path}[{i}]"), format!("{d} is not a face of a d6"));
        }
    }
}

/// A character's characteristics: each 1 to 200 characters without control characters,
/// none listed twice (in any case).
pub fn sheet_problems(sheet: &PennySheet, path: &str) -> Vec<Problem> {
    let mut f = Found { out: Vec::new() };
    let mut seen = BTreeSet::new();
    for (i, text) in sheet.characteristics.iter().enumerate() {
        let field = format!("{path}.characteristics[{i}]");
        if let Err(e) = clean_characteristic(&field, text) {
            f.add(field.clone(), problem_of(e));
        }
        if !seen.insert(text.trim().to_ascii_lowercase()) {
            f.add(field, format!("“{text}” is listed twice"));
        }
    }
    f.out
}

/// The first characteristic is free and each further one is a `CharacteristicBought`
/// entry: a sheet may not list more than `1 + purchases`.
pub fn paid_for_problem(sheet: &PennySheet, purchases: usize, path: &str) -> Option<Problem> {
    let listed = sheet.characteristics.len();
    let carried = usize::try_from(sheet.carried).unwrap_or(usize::MAX);
    let allowed = 1usize.saturating_add(purchases).saturating_add(carried);
    (listed > allowed).then(|| Problem {
        path: format!("{path}.characteristics"),
        message: format!(
            "lists {listed} characteristics, but only {purchases} were bought here and {carried} brought from \
             another table (the first is free): at most {allowed}"
        ),
    })
}

/// Each entry on its own (amount, accounts that fit the reason, the pot's challenge),
/// for a part of a ledger such as the entries a character file carries.
pub fn entry_problems(entries: &[Entry], path: &str) -> Vec<Problem> {
    entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            entry_problem(e).map(|(field, message)| Problem { path: format!("{path}[{i}].{field}"), message })
        })
        .collect()
}

fn problem_of(e: crate::Error) -> String {
    match e {
        crate::Error::Invalid { problem, .. } => problem,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger::{self, Debt, DEFAULT_STARTING_MINIMUM};
    use super::super::table::{Characteristic, Loan};
    use super::*;
    use crate::rules::test_support::id;

    /// Two characters with pennies, an adventure running, an antagonist with a purse.
    fn table() -> PennyTable {
        let t = PennyTable::default();
        let t = t.starting_pennies(id(1), 30, DEFAULT_STARTING_MINIMUM).unwrap().0;
        let t = t.starting_pennies(id(2), 25, DEFAULT_STARTING_MINIMUM).unwrap().0;
        let t = t.start_adventure(&[id(1), id(2)], None).unwrap().0;
        let t =
            t.add_antagonist(id(9), "The Count", &[Characteristic { text: "Cold".into(), hidden: true }]).unwrap().0;
        t.fund_antagonist(id(9), 10, None).unwrap().0
    }

    fn paths(found: Vec<Problem>) -> Vec<String> {
        found.into_iter().map(|p| p.path).collect()
    }

    #[test]
    fn a_table_made_by_the_rules_has_no_problems() {
        assert!(table_problems(&table(), "$").is_empty());
        assert!(table_problems(&PennyTable::default(), "$").is_empty());
    }

    #[test]
    fn debts_and_loans_must_agree_with_the_entries() {
        let mut t = table();
        t.ledger.debts.push(Debt { debtor: Account::Character(id(1)), creditor: Account::House, amount: 3 });
        t.loans.push(Loan {
            id: id(70),
            lender: Account::Character(id(2)),
            borrower: Account::Character(id(1)),
            amount: 4,
            repaid: 5,
            challenge: None,
            adventure: 1,
            flagged: false,
            in_debt: 0,
        });
        assert_eq!(paths(table_problems(&t, "$")), ["$.ledger.debts", "$.loans[0].repaid", "$.loans"]);
    }

    #[test]
    fn antagonists_named_by_the_pennies_must_be_at_the_table() {
        let mut t = table();
        t.antagonists.clear();
        assert_eq!(paths(table_problems(&t, "$")), ["$.ledger.entries[3].to"]);
    }

    #[test]
    fn a_running_adventure_has_a_number() {
        let mut t = table();
        t.adventure.number = 0;
        assert_eq!(paths(table_problems(&t, "$")), ["$.adventure.number"]);
    }

    #[test]
    fn sheets_list_clean_characteristics_once_and_no_more_than_were_paid_for() {
        let sheet =
            PennySheet { characteristics: vec!["Quick".into(), "quick".into(), " ".into()], carried: 0, lost: 0 };
        assert_eq!(paths(sheet_problems(&sheet, "$")), ["$.characteristics[1]", "$.characteristics[2]"]);
        assert!(paid_for_problem(&sheet, 2, "$").is_none());
        assert_eq!(paid_for_problem(&sheet, 1, "$").unwrap().path, "$.characteristics");
        let l = ledger::starting_pennies(&ledger::Ledger::default(), id(1), 30, 25).unwrap().0;
        let mut entries = l.entries.clone();
        entries[0].amount = 0;
        assert_eq!(paths(entry_problems(&entries, "$.e")), ["$.e[0].amount"]);
    }
}
