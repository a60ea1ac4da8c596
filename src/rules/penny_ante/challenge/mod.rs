//! A Penny Ante challenge (RULES.md §2.3–2.4) as a state machine. [`start`] opens it on a
//! table and takes the antes; [`play`] applies one [`Move`]. Each returns a new table (the
//! challenge, the ledger, the loans) and what happened, or an error with the reason that
//! changes nothing. Every penny moves through the ledger, into and out of the challenge's
//! pot, so pennies are conserved by construction.
//!
//! The steps: circumstances (each side names one or passes) → characteristics (challenger
//! first) → each side rolls privately and chooses the dice to reroll (its cup) → betting
//! round 1 → new circumstances, with doubling down → each side rerolls its cup → betting
//! round 2 → showdown → after a loss, debt or buyout.
//!
//! Rulings where the source is silent:
//! - A side's wager is what its members paid in; the pennies a side pays come from the
//!   member holding the most first, so an alliance's piles stay as even as they can.
//! - Allies buy in with the ante each, so an alliance starts with the larger wager and the
//!   other side must call it, raise or fold.
//! - The ante is paid by every member, each from its own pile as far as it goes; what a
//!   member cannot pay, its allies pay from the pool (the largest piles first). A side is short
//!   only when the side as a whole cannot pay its antes. The challenger must be able to pay;
//!   a short opponent pays nothing yet and chooses in step 1: go all in with everything, or
//!   fold while nothing is at stake (the challenger's antes go back, nobody loses a penny).
//! - The antes are taken when the challenge is issued, not after step 1's circumstances (the
//!   seed's step 2). Step 1 moves no pennies (no bet, no loan, no doubling down), so every pile
//!   and the pot are the same when anything reads them; taking them first refuses a challenge
//!   the challenger cannot pay before anyone names a circumstance. (The House may still fund
//!   a purse during step 1; that only matters to a short opponent, which chooses then.)
//! - Only the House issues an anonymous challenge: the challenger is the lone antagonist.
//! - The reveal is simultaneous (RULES §2.3 decision): a side's dice outside its cup are
//!   shown only once both sides have chosen their cups ([`Challenge::revealed`]).
//! - A doubling-down stake is not part of the wager the sides must match; it is in the pot
//!   all the same, and won, lost or returned with it.
//! - After an all-in, the other side calls at no cost (its unmatched excess returns at the
//!   showdown) or folds; a side all in does not act again.
//! - While a loan offer is open, the side it is made to answers it before anything else.
//!   Loans go to a side's first member, who owes it.
//! - Only characters go into debt or are bought out; an antagonist or the House left with
//!   nothing simply loses. Each losing member gets back what it lost, paid by the winners
//!   (most pennies first), and owes the winner who paid it. A buyout is shared like a
//!   win, and each losing character gives up one characteristic.
//! - In an anonymous challenge a characteristic the House names for the antagonist that
//!   was not on its list is added to it: once used it is set in stone.

use uuid::Uuid;

use super::choices::{self, RerollChoice};
use super::ledger::{self, Account, Entry, Ledger, Reason};
use super::odds::{self, Dice, Showdown, ShowdownOdds};
use super::score::score;
use super::table::{clean_characteristic, Characteristic, Loan, PennyTable};
use crate::error::{Error, Result};
use crate::rules::dice::DiceSource;

mod betting;
mod showdown;
pub mod state;
#[cfg(test)]
mod tests;

use betting::*;
use showdown::*;
pub use state::*;

/// The most characteristics a side declares: six dice at most, one of them free.
pub const MAX_CHARACTERISTICS: usize = 5;
/// The longest circumstance the app accepts, in characters.
const MAX_CIRCUMSTANCE_CHARS: usize = 200;

/// Opens a challenge on `table`: checks the sides and takes the antes.
pub fn start(table: &PennyTable, roster: &Roster, setup: Setup) -> Result<(PennyTable, Vec<ChallengeEvent>)> {
    if !table.adventure.running {
        return Err(Error::invalid("challenge", "start an adventure first"));
    }
    if let Some(c) = table.running() {
        return Err(Error::invalid("challenge", format!("“{}” is still running; finish it first", c.stake)));
    }
    let stake = clean_text("stake", &setup.stake)?;
    if setup.ante == 0 {
        return Err(Error::invalid("ante", "must be at least 1"));
    }
    if setup.ante > ledger::MAX_ENTRY {
        return Err(Error::invalid("ante", format!("must be at most {}", ledger::MAX_ENTRY)));
    }
    for (field, members) in [("challenger", &setup.challenger), ("opponent", &setup.opponent)] {
        if members.is_empty() {
            return Err(Error::invalid(field, "names no one"));
        }
        for (i, account) in members.iter().enumerate() {
            let at = if i == 0 { field.to_owned() } else { format!("{field}[{i}]") };
            match account {
                Account::Character(id) if !roster.contains_key(id) => {
                    return Err(Error::invalid(at, "is not a character of this game"));
                }
                Account::Antagonist(id) if i == 0 => {
                    table.antagonist(*id).map_err(|e| Error::invalid(at.clone(), e.to_string()))?;
                }
                Account::House if i == 0 => {}
                Account::Character(_) => {}
                _ if i > 0 => return Err(Error::invalid(at, "allies are player characters")),
                _ => return Err(Error::invalid(at, "must be a character, the House or an antagonist")),
            }
            let everyone = setup.challenger.iter().chain(&setup.opponent);
            if everyone.filter(|a| *a == account).count() > 1 {
                return Err(Error::invalid(at, "appears more than once in the challenge"));
            }
        }
    }
    let mut c = Challenge {
        id: setup.id,
        stake: stake.clone(),
        ante: setup.ante,
        devoted: setup.devoted,
        phase: Phase::Circumstances,
        turn: None,
        sides: [SideState::new(&setup.challenger), SideState::new(&setup.opponent)],
        circumstances: Vec::new(),
        lenders: Vec::new(),
        offer: None,
        bids: Vec::new(),
        outcome: None,
    };
    if let Some(devoted) = setup.devoted {
        let side = anonymous_side(&c)
            .ok_or_else(|| Error::invalid("devoted", "an anonymous challenge has a lone antagonist on one side"))?;
        if side != Side::Challenger {
            return Err(Error::invalid(
                "devoted",
                "only the House issues an anonymous challenge: its antagonist challenges",
            ));
        }
        let purse = table.pile(&c.sides[side.index()].lead());
        if devoted < setup.ante {
            return Err(Error::invalid("devoted", format!("must cover the ante of {}", setup.ante)));
        }
        if i64::try_from(devoted).unwrap_or(i64::MAX) > purse {
            return Err(Error::invalid("devoted", format!("the antagonist's purse holds {purse} pennies")));
        }
    }
    let mut t = table.clone();
    let mut events = vec![ChallengeEvent::Started { ante: setup.ante, stake }];
    for side in Side::BOTH {
        let s = &c.sides[side.index()];
        let due = side_ante(&c, side);
        let held: u64 = s.accounts().map(|a| u64::try_from(t.pile(&a)).unwrap_or(0)).sum();
        if held >= due {
            pay_ante(&mut t.ledger, &mut c, side, &mut events)?;
            continue;
        }
        let field = if side == Side::Challenger { "challenger" } else { "opponent" };
        let whom = if s.members.len() == 1 { who(s.lead()).to_owned() } else { "the side".to_owned() };
        if side == Side::Challenger || held == 0 {
            return Err(Error::invalid(field, format!("{whom} holds {held} pennies and cannot pay the ante of {due}")));
        }
        // A short opponent pays nothing yet: in step 1 it goes all in or folds.
    }
    // An antagonist in a direct challenge is revealed to the table from now on: its
    // characteristics and purse (RULES.md §2.2 decision 2026-11-28). Undoing the challenge's
    // start hides it again.
    if c.devoted.is_none() {
        for a in t.antagonists.iter_mut().filter(|a| c.side_of(Account::Antagonist(a.id)).is_some()) {
            a.revealed = true;
        }
    }
    t.challenge = Some(c);
    Ok((t, events))
}

/// The antes a side owes: one per member (allies buy in with the ante).
fn side_ante(c: &Challenge, side: Side) -> u64 {
    c.ante.saturating_mul(c.sides[side.index()].members.len() as u64)
}

/// What a short opponent still owes of its antes in step 1, before it chose to go all in or
/// fold; None once paid (or all in).
pub fn ante_owed(c: &Challenge, side: Side) -> Option<u64> {
    let s = &c.sides[side.index()];
    let due = side_ante(c, side);
    (c.phase == Phase::Circumstances && !s.all_in && s.paid() < due).then(|| due - s.paid())
}

/// Takes a side's antes: each member pays the ante from its own pile as far as it goes, and
/// what one cannot pay the others pay from the pool, the largest piles first.
fn pay_ante(ledger: &mut Ledger, c: &mut Challenge, side: Side, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    let mut short = 0;
    for i in 0..c.sides[side.index()].members.len() {
        let pile = u64::try_from(ledger.pile(&c.sides[side.index()].members[i].account)).unwrap_or(0);
        let own = pile.min(c.ante);
        short += c.ante - own;
        pay_member(ledger, c, side, i, own, Reason::Ante, events)?;
    }
    if short > 0 {
        pay_side(ledger, c, side, short, Reason::Ante, events)?;
    }
    let s = &mut c.sides[side.index()];
    s.wager = s.paid();
    Ok(())
}

/// Step 1, a short opponent's choice: all in with everything the side holds, or a fold while
/// nothing is at stake (the other side's antes go back; no one wins or loses a penny).
fn ante_choice(ledger: &mut Ledger, c: &mut Challenge, mv: &Move, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    let side = mv.side().expect("all in and fold have a side");
    if let Some(offer) = c.offer.as_ref() {
        return Err(Error::invalid("move", format!("{} first answers a loan", offer.side.label())));
    }
    match mv {
        Move::AllIn { .. } => {
            let can = available(ledger, c, side);
            pay_side(ledger, c, side, can, Reason::Ante, events)?;
            let s = &mut c.sides[side.index()];
            s.wager += can;
            s.all_in = true;
            events.push(ChallengeEvent::AllInAtAnte { side, paid: can });
        }
        Move::Fold { .. } => {
            let returned = return_wagers(ledger, c, events)?;
            let pot = returned.iter().map(|m| m.paid).sum();
            c.sides[side.index()].done = true;
            events.push(ChallengeEvent::FoldedAtAnte { side, returned });
            // Nothing was at stake: the folder narrates its retreat and loses nothing.
            c.outcome = Some(Outcome {
                winner: Some(side.other()),
                folded: Some(side),
                hands: None,
                narrator: Some(side),
                pot,
            });
            c.phase = Phase::Over;
            c.turn = None;
        }
        _ => unreachable!("only all in and fold answer the ante"),
    }
    Ok(())
}

/// Applies one move to the running challenge of `table`, with dice from `dice`.
pub fn play(
    table: &PennyTable,
    roster: &Roster,
    mv: &Move,
    dice: &mut dyn DiceSource,
) -> Result<(PennyTable, Vec<ChallengeEvent>)> {
    let mut c = table.running().cloned().ok_or_else(|| Error::invalid("challenge", "no challenge is running"))?;
    let mut t = table.clone();
    let mut events = Vec::new();
    if let Some(offer) = &c.offer {
        if !matches!(mv, Move::AnswerLoan { .. }) {
            return Err(Error::invalid(
                "move",
                format!("{} first answers the loan of {} pennies", offer.side.label(), offer.amount),
            ));
        }
    }
    let owes = |side: Side| ante_owed(&c, side).map(|due| (side, due));
    if let Some((side, due)) = mv.side().and_then(owes) {
        if matches!(mv, Move::AllIn { .. } | Move::Fold { .. }) {
            ante_choice(&mut t.ledger, &mut c, mv, &mut events)?;
            advance(&mut t.ledger, &mut c, &mut events)?;
            t.challenge = Some(c);
            return Ok((t, events));
        }
        return Err(Error::invalid(
            "move",
            format!("{} cannot pay its ante of {due}: it goes all in or folds first", side.label()),
        ));
    }
    match mv {
        Move::Circumstance { side, name, double_down } => {
            circumstance(&mut t.ledger, &mut c, *side, name, *double_down, dice, &mut events)?
        }
        Move::Pass { side } => {
            in_step(&c, *side, &[Phase::Circumstances, Phase::NewCircumstances])?;
            c.sides[side.index()].done = true;
            events.push(ChallengeEvent::Passed { side: *side });
        }
        Move::Characteristics { side, used } => characteristics(&mut t, roster, &mut c, *side, used, &mut events)?,
        Move::Roll { side } => {
            in_step(&c, *side, &[Phase::Roll])?;
            let s = &c.sides[side.index()];
            if !s.dice.is_empty() {
                return Err(Error::invalid("move", format!("{} has rolled already", side.label())));
            }
            let count = 1 + s.used.len();
            let rolled = (0..count)
                .map(|i| dice.roll(6, &format!("{} die {}", side_name(*side), i + 1)))
                .collect::<Result<Vec<_>>>()?;
            c.sides[side.index()].dice = rolled.clone();
            events.push(ChallengeEvent::Rolled { side: *side, dice: rolled });
        }
        Move::Cup { side, cup } => {
            in_step(&c, *side, &[Phase::Roll])?;
            let s = &mut c.sides[side.index()];
            if s.dice.is_empty() {
                return Err(Error::invalid("move", format!("{} rolls first", side.label())));
            }
            let mut chosen = cup.clone();
            chosen.sort_unstable();
            chosen.dedup();
            if chosen.len() != cup.len() {
                return Err(Error::invalid("cup", "names a die twice"));
            }
            if let Some(bad) = chosen.iter().find(|&&i| i >= s.dice.len()) {
                return Err(Error::invalid(
                    "cup",
                    format!("there is no die {} (the side has {})", bad + 1, s.dice.len()),
                ));
            }
            s.cup = chosen;
            s.cup_chosen = true;
            s.done = true;
            events.push(ChallengeEvent::CupChosen { side: *side, in_cup: s.cup.len() });
            if c.cups_revealed() {
                events.push(ChallengeEvent::CupsRevealed { revealed: Side::BOTH.map(|s| c.revealed(s)) });
            }
        }
        Move::Stand { .. } | Move::Raise { .. } | Move::Call { .. } | Move::Fold { .. } | Move::AllIn { .. } => {
            bet(&mut t.ledger, &mut c, mv, &mut events)?
        }
        Move::OfferLoan { id, lender, side, amount, borrower } => {
            let offer = LoanOffer { id: *id, lender: *lender, side: *side, amount: *amount, borrower: *borrower };
            offer_loan(&t, &mut c, offer, &mut events)?
        }
        Move::AnswerLoan { accept } => {
            let offer = c.offer.take().ok_or_else(|| Error::invalid("move", "no loan is on offer"))?;
            let borrower = offer.borrower_in(&c);
            // What is left of the offer once it repaid the lender's own loans from the
            // borrower: a loan of his own repays one (002:35), oldest first.
            let mut left = offer.amount;
            if *accept {
                for i in 0..t.loans.len() {
                    let l = &t.loans[i];
                    if l.lender != borrower || l.borrower != offer.lender || l.outstanding() == 0 || left == 0 {
                        continue;
                    }
                    let amount = left.min(l.outstanding());
                    let entry = Entry {
                        from: offer.lender,
                        to: borrower,
                        amount,
                        reason: Reason::LoanRepaid,
                        challenge: Some(c.id),
                    };
                    let (ledger, event) = t.ledger.record(entry)?;
                    t.ledger = ledger;
                    t.loans[i].repaid += amount;
                    left -= amount;
                    events.push(ChallengeEvent::Ledger(event));
                    let (loan, outstanding) = (t.loans[i].id, t.loans[i].outstanding());
                    events.push(ChallengeEvent::RepaidThroughLoan { loan, amount, outstanding });
                }
            }
            if *accept && left > 0 {
                let entry = Entry {
                    from: offer.lender,
                    to: borrower,
                    amount: left,
                    reason: Reason::Loan,
                    challenge: Some(c.id),
                };
                let (ledger, event) = t.ledger.record(entry)?;
                t.ledger = ledger;
                events.push(ChallengeEvent::Ledger(event));
                t.loans.push(Loan {
                    id: offer.id,
                    lender: offer.lender,
                    borrower,
                    amount: left,
                    repaid: 0,
                    challenge: Some(c.id),
                    adventure: t.adventure.number,
                    flagged: false,
                    in_debt: 0,
                });
            }
            events.push(ChallengeEvent::LoanAnswered {
                accepted: *accept,
                lender: offer.lender,
                borrower,
                amount: offer.amount,
            });
        }
        Move::Reroll { side } => {
            in_step(&c, *side, &[Phase::Reroll])?;
            let s = &mut c.sides[side.index()];
            for (n, &i) in s.cup.clone().iter().enumerate() {
                s.dice[i] = dice.roll(6, &format!("{} reroll {}", side_name(*side), n + 1))?;
            }
            s.done = true;
            events.push(ChallengeEvent::Rerolled { side: *side, dice: s.dice.clone() });
        }
        Move::Bid { bidder, amount } => bid(&t, &mut c, *bidder, *amount, &mut events)?,
        Move::AcceptBuyout { losses } => accept_buyout(&mut t, roster, &mut c, losses, &mut events)?,
        Move::Debt => debt(&mut t.ledger, &mut c, &mut events)?,
    }
    advance(&mut t.ledger, &mut c, &mut events)?;
    t.challenge = Some(c);
    Ok((t, events))
}

/// Who an account is, in an error message.
fn who(account: Account) -> &'static str {
    match account {
        Account::House => "the House",
        Account::Antagonist(_) => "the antagonist",
        _ => "a member",
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Challenger => "challenger",
        Side::Opponent => "opponent",
    }
}

fn clean_text(field: &str, raw: &str) -> Result<String> {
    let text = raw.trim();
    if text.is_empty() {
        return Err(Error::invalid(field, "must not be empty"));
    }
    if text.chars().count() > MAX_CIRCUMSTANCE_CHARS {
        return Err(Error::invalid(
            field,
            format!("must be 1 to {MAX_CIRCUMSTANCE_CHARS} characters, no control characters"),
        ));
    }
    if let Some(p) = crate::model::line_chars_problem(text) {
        return Err(Error::invalid(field, p));
    }
    Ok(text.to_owned())
}

/// The side that plays the antagonist of an anonymous challenge.
fn anonymous_side(c: &Challenge) -> Option<Side> {
    let lone_antagonist = |s: &SideState| s.members.len() == 1 && matches!(s.lead(), Account::Antagonist(_));
    match (lone_antagonist(&c.sides[0]), lone_antagonist(&c.sides[1])) {
        (true, false) => Some(Side::Challenger),
        (false, true) => Some(Side::Opponent),
        _ => None,
    }
}

/// Refuses a move made outside its step or after the side finished the step.
fn in_step(c: &Challenge, side: Side, phases: &[Phase]) -> Result<()> {
    if !phases.contains(&c.phase) {
        return Err(Error::invalid("move", format!("not now: the challenge is at {}", phase_words(c.phase))));
    }
    if c.sides[side.index()].done {
        return Err(Error::invalid("move", format!("{} is done with this step", side.label())));
    }
    if let Some(turn) = c.turn {
        if turn != side {
            return Err(Error::invalid("move", format!("it is {}'s turn", turn.label())));
        }
    }
    Ok(())
}

fn phase_words(phase: Phase) -> &'static str {
    match phase {
        Phase::Circumstances => "the circumstances",
        Phase::Characteristics => "the characteristics",
        Phase::Roll => "the private roll",
        Phase::Betting1 => "the first betting round",
        Phase::NewCircumstances => "the new circumstances",
        Phase::Reroll => "the reroll",
        Phase::Betting2 => "the second betting round",
        Phase::AfterLoss => "debt or buyout",
        Phase::Over => "its end",
    }
}

/// Pennies the side can still put in: its members' piles, or in an anonymous challenge
/// what the antagonist devoted and has not put in yet.
pub fn available(ledger: &Ledger, c: &Challenge, side: Side) -> u64 {
    let s = &c.sides[side.index()];
    let held: u64 = s.accounts().map(|a| u64::try_from(ledger.pile(&a)).unwrap_or(0)).sum();
    match (c.devoted, anonymous_side(c)) {
        (Some(devoted), Some(anon)) if anon == side => held.min(devoted.saturating_sub(s.paid())),
        _ => held,
    }
}

/// Pays `amount` into the pot for member `i` of `side`.
fn pay_member(
    ledger: &mut Ledger,
    c: &mut Challenge,
    side: Side,
    i: usize,
    amount: u64,
    reason: Reason,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    if amount == 0 {
        return Ok(());
    }
    let member = &mut c.sides[side.index()].members[i];
    let entry = Entry { from: member.account, to: Account::Pot(c.id), amount, reason, challenge: Some(c.id) };
    let (next, event) = ledger.record(entry)?;
    *ledger = next;
    member.paid += amount;
    events.push(ChallengeEvent::Ledger(event));
    Ok(())
}

/// Pays `amount` for the side from its pooled piles, the member holding most first.
fn pay_side(
    ledger: &mut Ledger,
    c: &mut Challenge,
    side: Side,
    amount: u64,
    reason: Reason,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let piles: Vec<u64> =
        c.sides[side.index()].accounts().map(|a| u64::try_from(ledger.pile(&a)).unwrap_or(0)).collect();
    for (i, share) in level_down(&piles, amount).into_iter().enumerate() {
        pay_member(ledger, c, side, i, share, reason, events)?;
    }
    Ok(())
}

/// How much each pile pays so that `amount` is taken from the largest piles first, levelling
/// them down; ties go to the earlier pile. Requires `amount` ≤ the sum of the piles.
fn level_down(piles: &[u64], amount: u64) -> Vec<u64> {
    let above = |level: u64| piles.iter().map(|&p| p.saturating_sub(level)).sum::<u64>();
    // The highest level whose excess covers the amount.
    let (mut lo, mut hi) = (0u64, piles.iter().copied().max().unwrap_or(0));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if above(mid) >= amount {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let mut shares: Vec<u64> = piles.iter().map(|&p| p.saturating_sub(lo)).collect();
    // Taking everything above `lo` may overshoot by less than the number of piles above it;
    // the later of those pay one penny less.
    let mut over = above(lo).saturating_sub(amount);
    for i in (0..piles.len()).rev() {
        if over == 0 {
            break;
        }
        if shares[i] > 0 {
            shares[i] -= 1;
            over -= 1;
        }
    }
    shares
}

/// Splits `amount` evenly among `accounts`; the remainder goes one penny each to those with
/// the smallest piles first (ties: the earlier).
fn split(ledger: &Ledger, accounts: &[Account], amount: u64) -> Vec<u64> {
    let n = accounts.len() as u64;
    let mut shares = vec![amount / n; accounts.len()];
    let mut order: Vec<usize> = (0..accounts.len()).collect();
    order.sort_by_key(|&i| (ledger.pile(&accounts[i]), i));
    for &i in order.iter().take(usize::try_from(amount % n).unwrap_or(0)) {
        shares[i] += 1;
    }
    shares
}

fn circumstance(
    ledger: &mut Ledger,
    c: &mut Challenge,
    side: Side,
    name: &str,
    double_down: bool,
    dice: &mut dyn DiceSource,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    in_step(c, side, &[Phase::Circumstances, Phase::NewCircumstances])?;
    let name = clean_text("name", name)?;
    let mut stake = 0;
    if double_down {
        if c.phase != Phase::NewCircumstances {
            return Err(Error::invalid("double_down", "a side doubles down only on a new circumstance (step 4)"));
        }
        let s = &c.sides[side.index()];
        if s.all_in {
            return Err(Error::invalid("double_down", format!("{} is all in", side.label())));
        }
        stake = s.paid();
        let can = available(ledger, c, side);
        if can < stake {
            return Err(Error::invalid(
                "double_down",
                format!("doubling a wager of {stake} needs {stake} more pennies; the side has {can}"),
            ));
        }
    }
    let die = dice.roll(6, &format!("{} circumstance die", side_name(side)))?;
    if stake > 0 {
        pay_side(ledger, c, side, stake, Reason::Wager, events)?;
        c.sides[side.index()].doubled += stake;
    }
    let barred = double_down.then(|| side.other());
    c.circumstances.push(Circumstance { name: name.clone(), by: side, die, barred });
    c.sides[side.index()].done = true;
    events.push(ChallengeEvent::CircumstanceNamed { side, name, die, barred, stake });
    Ok(())
}

fn characteristics(
    t: &mut PennyTable,
    roster: &Roster,
    c: &mut Challenge,
    side: Side,
    used: &[Used],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    in_step(c, side, &[Phase::Characteristics])?;
    if used.len() > MAX_CHARACTERISTICS {
        return Err(Error::invalid(
            "used",
            format!("a side uses at most {MAX_CHARACTERISTICS} characteristics (six dice), not {}", used.len()),
        ));
    }
    let anonymous = c.devoted.is_some() && anonymous_side(c) == Some(side);
    let mut clean: Vec<Used> = Vec::new();
    for (i, u) in used.iter().enumerate() {
        let field = format!("used[{i}]");
        if !c.sides[side.index()].accounts().any(|a| a == u.owner) {
            return Err(Error::invalid(field, "belongs to someone who is not on this side"));
        }
        let text = clean_characteristic(&field, &u.text)?;
        let known = match u.owner {
            Account::Character(id) => roster.get(&id).is_some_and(|list| list.contains(&text)),
            Account::Antagonist(id) => t.antagonist(id)?.characteristics.iter().any(|x| x.text == text),
            _ => false,
        };
        if !known && !anonymous {
            return Err(Error::invalid(field, format!("“{text}” is not one of its characteristics")));
        }
        if let Account::Antagonist(id) = u.owner {
            // Used openly, it is set in stone: added to the list if the House had not
            // written it there, shown if it was hidden.
            let a = t.antagonists.iter_mut().find(|a| a.id == id).expect("checked above");
            match a.characteristics.iter_mut().find(|x| x.text == text) {
                Some(x) => x.hidden = false,
                None => a.characteristics.push(Characteristic { text: text.clone(), hidden: false }),
            }
            if !known {
                events.push(ChallengeEvent::SetInStone { antagonist: id, text: text.clone() });
            }
        }
        if clean.iter().any(|x| x.owner == u.owner && x.text == text) {
            return Err(Error::invalid(field, format!("“{text}” is used twice")));
        }
        clean.push(Used { owner: u.owner, text });
    }
    let s = &mut c.sides[side.index()];
    s.used = clean.clone();
    s.done = true;
    events.push(ChallengeEvent::CharacteristicsDeclared { side, dice: 1 + clean.len(), used: clean });
    Ok(())
}

impl Challenge {
    /// What a player is told of the pennies devoted to an anonymous challenge (None when
    /// none are): the ante, or what its antagonist has paid in when that is more; the
    /// purse behind it stays the House's secret.
    pub fn devoted_shown(&self) -> Option<u64> {
        let paid = anonymous_side(self).map_or(0, |side| self.side(side).members[0].paid);
        self.devoted.map(|_| self.ante.max(paid))
    }

    /// The characteristics `owner` uses in this challenge.
    pub fn used_by(&self, owner: Account) -> Vec<String> {
        self.sides.iter().flat_map(|s| &s.used).filter(|u| u.owner == owner).map(|u| u.text.clone()).collect()
    }

    pub fn side(&self, side: Side) -> &SideState {
        &self.sides[side.index()]
    }

    /// The side `account` plays on, if any.
    pub fn side_of(&self, account: Account) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| self.sides[s.index()].accounts().any(|a| a == account))
    }

    /// Whether both sides have chosen their cups, so that each side's other dice show.
    pub fn cups_revealed(&self) -> bool {
        self.sides.iter().all(|s| s.cup_chosen)
    }

    /// `side`'s dice on the table: those outside its cup, once both cups are chosen (the
    /// reveal is simultaneous); none before.
    pub fn revealed(&self, side: Side) -> Vec<u8> {
        if !self.cups_revealed() {
            return Vec::new();
        }
        self.sides[side.index()].kept_out()
    }

    /// The exact showdown odds for `side`, from what it may see now: its own dice (those in
    /// its cup count as unknown until they are rerolled), the other side's revealed dice
    /// (its cup unknown; all of them until both cups are chosen), the circumstances on the
    /// table, and one unknown circumstance per side still to name one. With `cup`, the odds
    /// as if the side put those dice in its cup.
    pub fn odds_for(&self, side: Side, cup: Option<&[usize]>) -> Result<ShowdownOdds> {
        self.odds_with(side, cup, None)
    }

    /// The odds for `side` while it declares its characteristics, as if it used `declared`
    /// of them (1 + `declared` dice, all unknown); the opponent's declared dice count as
    /// unknown too (RULES §2.3 decision).
    pub fn odds_declaring(&self, side: Side, declared: usize) -> Result<ShowdownOdds> {
        if self.phase != Phase::Characteristics || self.sides[side.index()].done {
            return Err(Error::invalid("declared", "only while the side declares its characteristics"));
        }
        if declared > MAX_CHARACTERISTICS {
            return Err(Error::invalid(
                "declared",
                format!("a side uses at most {MAX_CHARACTERISTICS} characteristics"),
            ));
        }
        self.odds_with(side, None, Some(declared))
    }

    /// Every choice of `side`'s own dice to put in its cup, with the showdown odds after it
    /// and the best marked, while the side chooses its cup (RULES.md §2.3 step 2; issue 34).
    /// Only its own dice may go in: a circumstance barred to the other side stays out.
    pub fn cup_choices(&self, side: Side) -> Result<Vec<RerollChoice>> {
        let s = self.side(side);
        if self.phase != Phase::Roll || s.dice.is_empty() || s.cup_chosen {
            return Err(Error::invalid(
                "cup",
                "the choices are offered while the side chooses its cup, after its roll",
            ));
        }
        choices::reroll_choices_among(&self.showdown_with(side, Some(&[]), None)?, &s.dice)
    }

    fn odds_with(&self, side: Side, cup: Option<&[usize]>, declared: Option<usize>) -> Result<ShowdownOdds> {
        odds::showdown_odds(&self.showdown_with(side, cup, declared)?)
    }

    /// The showdown as `side` may see it now (see [`Challenge::odds_for`]).
    fn showdown_with(&self, side: Side, cup: Option<&[usize]>, declared: Option<usize>) -> Result<Showdown> {
        let (mine, theirs) = (&self.sides[side.index()], &self.sides[side.other().index()]);
        let rerolls_ahead =
            matches!(self.phase, Phase::Roll | Phase::Betting1 | Phase::NewCircumstances | Phase::Reroll);
        let my_cup: Vec<usize> = match cup {
            Some(cup) => cup.to_vec(),
            None if rerolls_ahead && !(self.phase == Phase::Reroll && mine.done) => mine.cup.clone(),
            None => Vec::new(),
        };
        if let Some(bad) = my_cup.iter().find(|&&i| i >= mine.dice.len()) {
            return Err(Error::invalid("cup", format!("there is no die {}", bad + 1)));
        }
        let my_count = match declared {
            Some(n) => 1 + n,
            None if mine.dice.is_empty() => 1 + mine.used.len(),
            None => mine.dice.len(),
        };
        let mut my = Dice {
            known: mine.dice.iter().enumerate().filter(|(i, _)| !my_cup.contains(i)).map(|(_, &d)| d).collect(),
            unknown: 0,
        };
        my.unknown = (my_count - my.known.len()) as u8;
        let their_count = if theirs.dice.is_empty() { 1 + theirs.used.len() } else { theirs.dice.len() };
        let mut their = Dice { known: self.revealed(side.other()), unknown: 0 };
        if self.phase == Phase::Over {
            their.known = theirs.dice.clone();
        }
        their.unknown = (their_count - their.known.len()) as u8;
        let mut shared = Dice::default();
        for x in &self.circumstances {
            match x.barred {
                None => shared.known.push(x.die),
                Some(b) if b == side => their.known.push(x.die),
                Some(_) => my.known.push(x.die),
            }
        }
        let to_name = match self.phase {
            Phase::Circumstances | Phase::Characteristics | Phase::Roll | Phase::Betting1 => {
                let now =
                    if self.phase == Phase::Circumstances { self.sides.iter().filter(|s| !s.done).count() } else { 0 };
                now + 2
            }
            Phase::NewCircumstances => self.sides.iter().filter(|s| !s.done).count(),
            _ => 0,
        };
        shared.unknown = to_name as u8;
        Ok(Showdown { mine: my, theirs: their, circumstances: shared })
    }
}
