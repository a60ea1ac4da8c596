//! The betting rounds: bets, calls, raises, all-ins and folds, loan offers, and the step
//! after a round.

use super::*;

pub(super) fn bet(ledger: &mut Ledger, c: &mut Challenge, mv: &Move, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    let side = mv.side().expect("a betting move has a side");
    if !matches!(c.phase, Phase::Betting1 | Phase::Betting2) {
        return Err(Error::invalid("move", format!("not now: the challenge is at {}", phase_words(c.phase))));
    }
    if c.turn != Some(side) {
        let turn = c.turn.map_or("no one", Side::label);
        return Err(Error::invalid("move", format!("it is {turn}'s turn")));
    }
    let (mine, theirs) = (&c.sides[side.index()], &c.sides[side.other().index()]);
    let owed = theirs.wager.saturating_sub(mine.wager);
    let can = available(ledger, c, side);
    let anonymous = c.devoted.is_some() && anonymous_side(c) == Some(side);
    if theirs.all_in && !matches!(mv, Move::Call { .. } | Move::Fold { .. }) {
        return Err(Error::invalid("move", format!("{} is all in: call or fold", side.other().label())));
    }
    match mv {
        Move::Stand { .. } => {
            if owed > 0 {
                return Err(Error::invalid(
                    "move",
                    format!("stand only with equal wagers: call {owed}, raise or fold"),
                ));
            }
            events.push(ChallengeEvent::Stood { side });
        }
        Move::Raise { by, .. } => {
            if *by < c.ante {
                return Err(Error::invalid("by", format!("a raise is at least the ante, {}", c.ante)));
            }
            let cost = owed.saturating_add(*by);
            if cost > can {
                let hint = if anonymous { "" } else { "; go all in instead" };
                return Err(Error::invalid("by", format!("raising by {by} costs {cost}; the side has {can}{hint}")));
            }
            pay_side(ledger, c, side, cost, Reason::Wager, events)?;
            let s = &mut c.sides[side.index()];
            s.wager += cost;
            c.sides[side.other().index()].done = false;
            events.push(ChallengeEvent::Raised { side, by: *by, wager: c.sides[side.index()].wager });
        }
        Move::Call { .. } => {
            // After an all-in for less, the caller's excess waits to be returned: nothing to
            // pay. An all-in for more (a short side's antes) is matched as far as the caller
            // can; a caller who cannot match it all is all in too, and the larger side's
            // excess returns at the showdown.
            let cost = if theirs.all_in { owed.min(can) } else { owed };
            if !theirs.all_in && owed == 0 {
                return Err(Error::invalid("move", "the wagers are equal: stand or raise"));
            }
            if cost > can || (anonymous && cost < owed) {
                let hint = if anonymous { "the antagonist must fold" } else { "go all in or fold" };
                return Err(Error::invalid("move", format!("calling costs {owed}; the side has {can}: {hint}")));
            }
            let short = theirs.all_in && cost < owed;
            pay_side(ledger, c, side, cost, Reason::Wager, events)?;
            let s = &mut c.sides[side.index()];
            s.wager += cost;
            s.all_in |= short;
            events.push(ChallengeEvent::Called { side, paid: cost, wager: s.wager });
        }
        Move::Fold { .. } => {
            events.push(ChallengeEvent::Folded { side });
            c.sides[side.index()].done = true;
            return settle_fold(ledger, c, side, events);
        }
        Move::AllIn { .. } => {
            if anonymous {
                return Err(Error::invalid("move", "the House cannot go all in in an anonymous challenge"));
            }
            if can >= owed && owed > 0 {
                return Err(Error::invalid(
                    "move",
                    format!("the side can call {owed}; all in is for a wager it cannot match"),
                ));
            }
            if owed == 0 {
                return Err(Error::invalid(
                    "move",
                    "the wagers are equal: stand or raise; all in is for a wager the side cannot match",
                ));
            }
            pay_side(ledger, c, side, can, Reason::Wager, events)?;
            let s = &mut c.sides[side.index()];
            s.wager += can;
            s.all_in = true;
            events.push(ChallengeEvent::WentAllIn { side, paid: can, wager: s.wager });
            c.sides[side.other().index()].done = false;
        }
        _ => unreachable!("only betting moves reach bet"),
    }
    c.sides[side.index()].done = true;
    c.turn = Some(side.other());
    Ok(())
}

/// A player outside the challenge offers a loan to a side: to the ally of it the lender
/// chose (a character on the side), else to its lead.
pub(super) fn offer_loan(
    t: &PennyTable,
    c: &mut Challenge,
    offer: LoanOffer,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let LoanOffer { id, lender, side, amount, borrower } = offer;
    if !matches!(c.phase, Phase::Betting1 | Phase::Betting2) {
        return Err(Error::invalid("move", "loans are offered during a betting round"));
    }
    if !matches!(lender, Account::Character(_)) {
        return Err(Error::invalid("lender", "loans are offered by players"));
    }
    if c.sides.iter().any(|s| s.accounts().any(|a| a == lender)) {
        return Err(Error::invalid("lender", "is in the challenge; only players outside it lend"));
    }
    if c.lenders.contains(&lender) {
        return Err(Error::invalid("lender", "has offered a loan in this betting round already"));
    }
    if !matches!(c.sides[side.index()].lead(), Account::Character(_)) {
        return Err(Error::invalid("side", "loans go to a side led by a player character"));
    }
    if let Some(b) = borrower {
        if !matches!(b, Account::Character(_)) || !c.sides[side.index()].accounts().any(|a| a == b) {
            return Err(Error::invalid("borrower", format!("is not a player character on {}", side.label())));
        }
    }
    if t.loans.iter().any(|l| l.id == id) {
        return Err(Error::invalid("id", "a loan with this id exists"));
    }
    let pile = t.pile(&lender);
    if amount == 0 || i64::try_from(amount).unwrap_or(i64::MAX) > pile {
        return Err(Error::invalid("amount", format!("must be 1 to {pile}, what the lender holds")));
    }
    c.lenders.push(lender);
    c.offer = Some(LoanOffer { id, lender, side, amount, borrower });
    events.push(ChallengeEvent::LoanOffered { lender, side, amount });
    Ok(())
}

/// Moves the challenge on once both sides are done with a step.
pub(super) fn advance(ledger: &mut Ledger, c: &mut Challenge, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    loop {
        let both_done = c.sides.iter().all(|s| s.done);
        let next = match c.phase {
            Phase::Circumstances if both_done => Phase::Characteristics,
            Phase::Characteristics => {
                c.turn = Some(if c.sides[0].done { Side::Opponent } else { Side::Challenger });
                if both_done {
                    c.turn = None;
                    Phase::Roll
                } else {
                    return Ok(());
                }
            }
            Phase::Roll if both_done => Phase::Betting1,
            Phase::Betting1 | Phase::Betting2 if betting_over(c) => {
                events.push(ChallengeEvent::RoundOver { phase: c.phase });
                if c.phase == Phase::Betting1 {
                    Phase::NewCircumstances
                } else {
                    return showdown(ledger, c, events);
                }
            }
            Phase::Betting1 | Phase::Betting2 => {
                // A side all in does not act again.
                if let Some(turn) = c.turn {
                    if c.sides[turn.index()].all_in {
                        c.turn = Some(turn.other());
                    }
                }
                return Ok(());
            }
            Phase::NewCircumstances if both_done => Phase::Reroll,
            Phase::Reroll if both_done => {
                if c.sides.iter().any(|s| s.all_in) {
                    return showdown(ledger, c, events);
                }
                Phase::Betting2
            }
            _ => return Ok(()),
        };
        c.phase = next;
        c.lenders.clear();
        for s in &mut c.sides {
            // A side with nothing in its cup has nothing to reroll.
            s.done = next == Phase::Reroll && s.cup.is_empty();
        }
        c.turn = match next {
            Phase::Characteristics | Phase::Betting1 | Phase::Betting2 => Some(Side::Challenger),
            _ => None,
        };
        if matches!(next, Phase::Betting1 | Phase::Betting2) {
            if let Some(all_in) = Side::BOTH.into_iter().find(|s| c.sides[s.index()].all_in) {
                c.turn = Some(all_in.other());
            }
        }
    }
}

/// A betting round ends when wagers are equal and both acted since the last raise, or when
/// the other side answered an all-in.
fn betting_over(c: &Challenge) -> bool {
    let [a, b] = &c.sides;
    if a.all_in || b.all_in {
        let responder = if a.all_in { b } else { a };
        return responder.done;
    }
    a.wager == b.wager && a.done && b.done
}
