//! The end of a challenge: a fold's pot, the showdown, and after a loss, the bids, buyout
//! and debts.

use super::*;

/// Pays the whole pot to the side that did not fold.
pub(super) fn settle_fold(
    ledger: &mut Ledger,
    c: &mut Challenge,
    folder: Side,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let pot = u64::try_from(ledger.pile(&Account::Pot(c.id))).unwrap_or(0);
    let winner = folder.other();
    pay_winner(ledger, c, winner, pot, events)?;
    c.outcome = Some(Outcome { winner: Some(winner), folded: Some(folder), hands: None, narrator: Some(folder), pot });
    finish(ledger, c, folder, events);
    Ok(())
}

fn pay_winner(
    ledger: &mut Ledger,
    c: &mut Challenge,
    winner: Side,
    amount: u64,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let accounts: Vec<Account> = c.sides[winner.index()].accounts().collect();
    let shares = split(ledger, &accounts, amount);
    let mut paid = Vec::new();
    for (account, share) in accounts.into_iter().zip(shares) {
        if share > 0 {
            pay_out(ledger, c.id, account, share, Reason::PotWon, events)?;
        }
        paid.push(Member { account, paid: share });
    }
    events.push(ChallengeEvent::Won { side: winner, pot: amount, shares: paid });
    Ok(())
}

pub(super) fn pay_out(
    ledger: &mut Ledger,
    id: Uuid,
    to: Account,
    amount: u64,
    reason: Reason,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let entry = Entry { from: Account::Pot(id), to, amount, reason, challenge: Some(id) };
    let (next, event) = ledger.record(entry)?;
    *ledger = next;
    events.push(ChallengeEvent::Ledger(event));
    Ok(())
}

/// The dice `side` scores from: its own and the circumstances it is not barred from.
fn hand_dice(c: &Challenge, side: Side) -> Vec<u8> {
    let usable = c.circumstances.iter().filter(|x| x.barred != Some(side)).map(|x| x.die);
    c.sides[side.index()].dice.iter().copied().chain(usable).collect()
}

pub(super) fn showdown(ledger: &mut Ledger, c: &mut Challenge, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    // An all-in side matched only what it had: the other side's excess goes back.
    for side in Side::BOTH {
        let (mine, theirs) = (&c.sides[side.index()], &c.sides[side.other().index()]);
        if theirs.all_in && mine.wager > theirs.wager {
            let excess = mine.wager - theirs.wager;
            return_to_members(ledger, c, side, excess, events)?;
            c.sides[side.index()].wager -= excess;
            events.push(ChallengeEvent::ExcessReturned { side, amount: excess });
        }
    }
    let hands = [score(&hand_dice(c, Side::Challenger))?, score(&hand_dice(c, Side::Opponent))?];
    let winner = match hands[0].score.cmp(&hands[1].score) {
        std::cmp::Ordering::Greater => Some(Side::Challenger),
        std::cmp::Ordering::Less => Some(Side::Opponent),
        std::cmp::Ordering::Equal => None,
    };
    events.push(ChallengeEvent::Showdown { hands: hands.clone(), winner });
    let pot = u64::try_from(ledger.pile(&Account::Pot(c.id))).unwrap_or(0);
    match winner {
        Some(w) => {
            pay_winner(ledger, c, w, pot, events)?;
            c.outcome = Some(Outcome { winner, folded: None, hands: Some(hands), narrator: Some(w.other()), pot });
            finish(ledger, c, w.other(), events);
        }
        None => {
            // A tie gives each member back what it put in.
            let returned = return_wagers(ledger, c, events)?;
            events.push(ChallengeEvent::Tied { returned });
            c.outcome = Some(Outcome { winner: None, folded: None, hands: Some(hands), narrator: None, pot });
            c.phase = Phase::Over;
        }
    }
    Ok(())
}

/// Gives every member of both sides back what it paid in; the members, with what each paid.
pub(super) fn return_wagers(
    ledger: &mut Ledger,
    c: &Challenge,
    events: &mut Vec<ChallengeEvent>,
) -> Result<Vec<Member>> {
    let mut returned = Vec::new();
    for side in Side::BOTH {
        for m in c.sides[side.index()].members.clone() {
            if m.paid > 0 {
                pay_out(ledger, c.id, m.account, m.paid, Reason::WagerReturned, events)?;
            }
            returned.push(m);
        }
    }
    Ok(returned)
}

/// Gives `amount` back to the side's members, each at most what it paid (first members first).
fn return_to_members(
    ledger: &mut Ledger,
    c: &mut Challenge,
    side: Side,
    amount: u64,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let mut left = amount;
    let id = c.id;
    for m in &mut c.sides[side.index()].members {
        let back = left.min(m.paid);
        if back > 0 {
            pay_out(ledger, id, m.account, back, Reason::WagerReturned, events)?;
            m.paid -= back;
            left -= back;
        }
    }
    Ok(())
}

/// After a win: a losing side of characters left with nothing goes to debt or buyout.
pub(super) fn finish(ledger: &Ledger, c: &mut Challenge, loser: Side, events: &mut Vec<ChallengeEvent>) {
    let s = &c.sides[loser.index()];
    let broke = s.accounts().all(|a| matches!(a, Account::Character(_)) && ledger.pile(&a) == 0);
    if !broke {
        c.phase = Phase::Over;
        return;
    }
    c.sides[loser.index()].lost = s.members.iter().filter(|m| m.paid > 0).cloned().collect();
    c.phase = Phase::AfterLoss;
    c.turn = None;
    events.push(ChallengeEvent::Bankrupt { side: loser });
    // A House with more than one penny always offers a one-penny buyout.
    if ledger.pile(&Account::House) > 1 {
        c.bids.push(Bid { bidder: Account::House, amount: 1 });
        events.push(ChallengeEvent::BidMade { bidder: Account::House, amount: 1 });
    }
}

fn losing_side(c: &Challenge) -> Result<Side> {
    if c.phase != Phase::AfterLoss {
        return Err(Error::invalid("move", "only after a loss that left the losers with nothing"));
    }
    let winner = c.outcome.as_ref().and_then(|o| o.winner).expect("a loss has a winner");
    Ok(winner.other())
}

pub(super) fn bid(
    t: &PennyTable,
    c: &mut Challenge,
    bidder: Account,
    amount: u64,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let loser = losing_side(c)?;
    if !matches!(bidder, Account::Character(_) | Account::House) {
        return Err(Error::invalid("bidder", "buyouts are offered by players and the House"));
    }
    if c.sides[loser.index()].accounts().any(|a| a == bidder) {
        return Err(Error::invalid("bidder", "is among the losers"));
    }
    let pile = t.pile(&bidder);
    if amount == 0 || i64::try_from(amount).unwrap_or(i64::MAX) > pile {
        return Err(Error::invalid("amount", format!("must be 1 to {pile}, what the bidder holds")));
    }
    if let Some(old) = c.bids.iter().find(|b| b.bidder == bidder) {
        if amount <= old.amount {
            return Err(Error::invalid("amount", format!("must beat the bidder's own bid of {}", old.amount)));
        }
    }
    c.bids.retain(|b| b.bidder != bidder);
    c.bids.push(Bid { bidder, amount });
    events.push(ChallengeEvent::BidMade { bidder, amount });
    Ok(())
}

pub(super) fn accept_buyout(
    t: &mut PennyTable,
    roster: &Roster,
    c: &mut Challenge,
    losses: &[Used],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let loser = losing_side(c)?;
    // The highest bid; the earliest of equal ones.
    let best = c
        .bids
        .iter()
        .fold(None::<&Bid>, |best, b| if best.is_none_or(|x| b.amount > x.amount) { Some(b) } else { best })
        .cloned()
        .ok_or_else(|| Error::invalid("move", "no one has bid; the losers go into debt"))?;
    let s = &c.sides[loser.index()];
    let characters: Vec<Account> = s.accounts().collect();
    for (i, account) in characters.iter().enumerate() {
        let Account::Character(id) = account else { continue };
        let give = losses.iter().filter(|u| u.owner == *account).collect::<Vec<_>>();
        let [give] = give.as_slice() else {
            return Err(Error::invalid(
                format!("losses[{i}]"),
                "each losing character gives up exactly one characteristic",
            ));
        };
        let own = roster.get(id).cloned().unwrap_or_default();
        let used: Vec<&Used> = s.used.iter().filter(|u| u.owner == *account).collect();
        let allowed = if used.is_empty() { own.contains(&give.text) } else { used.iter().any(|u| u.text == give.text) };
        if !allowed {
            let which = if used.is_empty() { "one of its characteristics" } else { "one it used in the challenge" };
            return Err(Error::invalid(format!("losses[{i}]"), format!("“{}” is not {which}", give.text)));
        }
    }
    if losses.len() != characters.len() {
        return Err(Error::invalid("losses", "name one characteristic for each losing character"));
    }
    let shares = split(&t.ledger, &characters, best.amount);
    let mut paid = Vec::new();
    for (account, share) in characters.iter().zip(shares) {
        if share > 0 {
            let entry =
                Entry { from: best.bidder, to: *account, amount: share, reason: Reason::Buyout, challenge: Some(c.id) };
            let (ledger, event) = t.ledger.record(entry)?;
            t.ledger = ledger;
            events.push(ChallengeEvent::Ledger(event));
        }
        paid.push(Member { account: *account, paid: share });
    }
    events.push(ChallengeEvent::BoughtOut { bidder: best.bidder, amount: best.amount, shares: paid });
    for u in losses {
        events.push(ChallengeEvent::CharacteristicLost { owner: u.owner, text: u.text.clone() });
    }
    c.phase = Phase::Over;
    Ok(())
}

pub(super) fn debt(ledger: &mut Ledger, c: &mut Challenge, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    let loser = losing_side(c)?;
    let winner = loser.other();
    let mut debts = Vec::new();
    for m in c.sides[loser.index()].lost.clone() {
        let piles: Vec<u64> =
            c.sides[winner.index()].accounts().map(|a| u64::try_from(ledger.pile(&a)).unwrap_or(0)).collect();
        let accounts: Vec<Account> = c.sides[winner.index()].accounts().collect();
        let parts: Vec<(Account, u64)> =
            accounts.into_iter().zip(level_down(&piles, m.paid)).filter(|(_, share)| *share > 0).collect();
        let (next, done) = ledger::record_debts(ledger, m.account, &parts, c.id)?;
        *ledger = next;
        events.extend(done.into_iter().map(ChallengeEvent::Ledger));
        debts.extend(parts.into_iter().map(|(creditor, share)| (m.account, creditor, share)));
    }
    events.push(ChallengeEvent::WentIntoDebt { debts });
    if let Some(o) = &mut c.outcome {
        o.narrator = Some(winner);
    }
    c.phase = Phase::Over;
    Ok(())
}
