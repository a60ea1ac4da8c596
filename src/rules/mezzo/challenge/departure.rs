//! Rounds' ends, leaving, momentum boosts and spending, and the challenge's end.

use super::*;

// ---------------------------------------------------------------------------------------
// Rounds, leaving, the end

pub(super) fn surrender(
    ch: &mut Challenge,
    t: &mut Table,
    challenger: Uuid,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds, Phase::Perks], "a challenger surrenders")?;
    let side = ch.active("challenger", challenger)?.side;
    let declared = ch.open.first().is_some_and(|&a| !ch.actions[a].declared.is_empty());
    if ch.may_surrender.contains(&challenger) && !declared {
        ch.may_surrender.retain(|c| *c != challenger);
    } else {
        if !ch.open.is_empty() {
            return Err(Error::invalid("move", "a challenger surrenders: the open perks are resolved first"));
        }
        if ch.acted.contains(&challenger) {
            return Err(Error::invalid(
                "challenger",
                "surrendering takes a major action, and it already took one this round",
            ));
        }
        ch.acted.push(challenger);
    }
    let how = if ch.opponents_in(side).is_empty() { Leave::Victory } else { Leave::Defeat };
    begin_departure(ch, t, vec![(challenger, how, Why::Surrender)], events)
}

pub(super) fn end_round(
    ch: &mut Challenge,
    t: &mut Table,
    trumps: &[TrumpEffect],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds], "a round ends")?;
    let mut leavers: Vec<(Uuid, Leave, Why)> = Vec::new();
    for (i, effect) in trumps.iter().enumerate() {
        let field = format!("trumps[{i}]");
        let goal = effect.goal();
        let g = ch.goal(goal).ok_or_else(|| Error::invalid(&field, format!("element {goal} is not a goal here")))?;
        if trumps[..i].iter().any(|o| o.goal() == goal) {
            return Err(Error::invalid(field, "each goal uses one trump effect at a round's end"));
        }
        let held = t.get(&field, goal)?.trumps();
        let supporters: Vec<Uuid> =
            g.supporters.iter().copied().filter(|s| ch.challenger(*s).is_some_and(Challenger::is_in)).collect();
        let (group, how, why, whom) = match effect {
            TrumpEffect::VictoriousWithdrawal { .. } => (supporters, Leave::Victory, Why::Withdrawal, "supporters"),
            TrumpEffect::DefeatedExile { .. } => (ch.opponents_in(g.side), Leave::Defeat, Why::Exile, "opponents"),
        };
        if group.is_empty() {
            return Err(Error::invalid(field, format!("the goal has no {whom} still in")));
        }
        if held < group.len() as u32 {
            return Err(Error::invalid(
                field,
                format!("the goal holds {held} trumps and has {} {whom} still in: it needs as many", group.len()),
            ));
        }
        let spent = group.len();
        for who in group {
            match leavers.iter().find(|(l, _, _)| *l == who) {
                Some((_, h, _)) if *h != how => {
                    return Err(Error::invalid(field, format!("element {who} cannot both withdraw and be exiled")));
                }
                Some(_) => {}
                None => leavers.push((who, how, why)),
            }
        }
        // The trumps used are spent (the last ones gained first): they no longer trigger a
        // boost when the goal's supporters are all gone.
        let last: Vec<Uuid> = t
            .get(&field, goal)?
            .traits
            .iter()
            .rev()
            .filter(|x| x.template == Some(Template::Trump))
            .take(spent)
            .map(|x| x.id)
            .collect();
        for trump in last {
            t.change(&field, goal, events, |e| element::remove_trait(e, trump))?;
        }
        events.push(ChallengeEvent::TrumpUsed { effect: *effect });
    }
    events.push(ChallengeEvent::RoundEnded { round: ch.round });
    ch.round += 1;
    ch.acted.clear();
    ch.may_surrender.clear();
    ch.counterable.clear();
    if !leavers.is_empty() {
        begin_departure(ch, t, leavers, events)?;
    }
    Ok(())
}

/// Challengers start leaving: their open perks lapse, their boosts and any goal's trumps left
/// with no supporter trigger, and the awards that need no choice are given.
pub(super) fn begin_departure(
    ch: &mut Challenge,
    t: &mut Table,
    leavers: Vec<(Uuid, Leave, Why)>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    debug_assert!(ch.departure.is_none());
    let mut ids = Vec::new();
    for (who, how, why) in &leavers {
        if let Some(c) = ch.challenger_mut(*who) {
            c.status = Status::Leaving { how: *how, why: *why };
        }
        events.push(ChallengeEvent::Leaving { challenger: *who, how: *how, why: *why });
        ids.push(*who);
    }
    let lapsing: Vec<usize> = ch.open.iter().copied().filter(|&a| ids.contains(&ch.actions[a].challenger)).collect();
    for a in lapsing {
        ch.actions[a].closed = Some(Closed::Lapsed);
        ch.actions[a].declared.clear();
        ch.open.retain(|o| *o != a);
        events.push(ChallengeEvent::PerksLapsed { action: a });
    }
    ch.may_surrender.retain(|c| !ids.contains(c));
    let mut boosts = Vec::new();
    for &who in &ids {
        let awards = ch.boosts_held(t.get("elements", who)?);
        if awards == 0 {
            continue;
        }
        let side = ch.challenger(who).map_or(0, |c| c.side);
        let targets: Vec<Uuid> = ch
            .challengers
            .iter()
            .filter(|c| c.side != side && !matches!(c.status, Status::Left { .. }))
            .map(|c| c.element)
            .collect();
        if let Some(c) = ch.challenger_mut(who) {
            c.boosts_triggered += awards;
        }
        let owner = BoostOwner::Challenger { element: who };
        events.push(ChallengeEvent::BoostTriggered { owner, awards, targets: targets.clone() });
        boosts.push(Boost { owner, targets, awards, draw_pending: false });
    }
    for gi in 0..ch.goals.len() {
        let g = &ch.goals[gi];
        if g.triggered || g.supporters.iter().any(|s| ch.challenger(*s).is_some_and(Challenger::is_in)) {
            continue;
        }
        let goal = g.element;
        let targets: Vec<Uuid> =
            g.supporters.iter().copied().filter(|s| ch.challenger(*s).is_some_and(|c| c.leaving().is_some())).collect();
        ch.goals[gi].triggered = true;
        let e = t.get("elements", goal)?;
        let trumps: Vec<Uuid> = e.traits.iter().filter(|x| x.template == Some(Template::Trump)).map(|x| x.id).collect();
        for trump in trumps {
            let owner = BoostOwner::Trump { goal, trump };
            events.push(ChallengeEvent::BoostTriggered { owner, awards: 1, targets: targets.clone() });
            boosts.push(Boost { owner, targets: targets.clone(), awards: 1, draw_pending: true });
        }
    }
    ch.departure = Some(Departure { leavers: ids, boosts });
    advance(ch, t, events)
}

/// The targets that may get the next award of the first boost: eligible (taking part, under
/// the 5-award limit) and tied on the least momentum.
pub(super) fn award_candidates(ch: &Challenge, t: &Table) -> Result<Vec<Uuid>> {
    let Some(boost) = ch.departure.as_ref().and_then(|d| d.boosts.first()) else { return Ok(Vec::new()) };
    let mut eligible = Vec::new();
    for &id in &boost.targets {
        let e = t.get("elements", id)?;
        if e.in_challenge && e.momentum_awards < MAX_MOMENTUM_AWARDS {
            eligible.push((id, e.momentum));
        }
    }
    let least = eligible.iter().map(|(_, m)| *m).min();
    Ok(eligible.into_iter().filter(|(_, m)| Some(*m) == least).map(|(id, _)| id).collect())
}

pub(super) fn award(
    ch: &mut Challenge,
    t: &mut Table,
    owner: BoostOwner,
    to: Uuid,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    t.change("to", to, events, |e| element::gain_momentum(e, 1, MomentumSource::Boost))?;
    if let Some(b) = ch.departure.as_mut().and_then(|d| d.boosts.first_mut()) {
        b.awards -= 1;
    }
    events.push(ChallengeEvent::BoostAwarded { owner, to });
    Ok(())
}

/// Gives the awards that need no choice; closes the departure once nothing is left to award
/// or spend.
pub(super) fn advance(ch: &mut Challenge, t: &mut Table, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    loop {
        let Some(d) = &ch.departure else { return Ok(()) };
        let Some(b) = d.boosts.first().cloned() else {
            let mut nothing_to_spend = true;
            for id in &d.leavers {
                let momentum = t.get("elements", *id)?.momentum;
                let (min, pool) = match ch.challenger(*id).and_then(Challenger::leaving) {
                    Some(Leave::Victory) => (1, ch.pool_of(*id)),
                    _ => (2, 0),
                };
                if momentum >= min || pool >= 1 {
                    nothing_to_spend = false;
                }
            }
            if nothing_to_spend {
                finalize(ch, t, events)?;
                continue;
            }
            return Ok(());
        };
        if b.draw_pending {
            let BoostOwner::Trump { goal, .. } = b.owner else { unreachable!("only trumps draw") };
            if t.get("elements", goal)?.momentum > 0 {
                return Ok(());
            }
            if let Some(first) = ch.departure.as_mut().and_then(|d| d.boosts.first_mut()) {
                first.draw_pending = false;
            }
            continue;
        }
        if b.awards == 0 {
            pop_boost(ch);
            continue;
        }
        let tied = award_candidates(ch, t)?;
        match tied[..] {
            [] => {
                events.push(ChallengeEvent::BoostLapsed { owner: b.owner, awards: b.awards });
                pop_boost(ch);
            }
            [to] => award(ch, t, b.owner, to, events)?,
            _ => return Ok(()),
        }
    }
}

pub(super) fn pop_boost(ch: &mut Challenge) {
    if let Some(d) = ch.departure.as_mut() {
        if !d.boosts.is_empty() {
            d.boosts.remove(0);
        }
    }
}

pub(super) fn draw_trump(
    ch: &mut Challenge,
    t: &mut Table,
    points: u32,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Departure], "a trump draws from its goal")?;
    let (goal, trump) = match ch.departure.as_ref().and_then(|d| d.boosts.first()) {
        Some(Boost { owner: BoostOwner::Trump { goal, trump }, draw_pending: true, .. }) => (*goal, *trump),
        _ => return Err(Error::invalid("points", "no triggered trump is waiting to draw momentum")),
    };
    let held = t.get("elements", goal)?.momentum;
    let most = held.min(MAX_TRUMP_TRANSFER);
    if points > most {
        return Err(Error::invalid(
            "points",
            format!("the trump draws at most {most} (its goal holds {held}; {MAX_TRUMP_TRANSFER} at most)"),
        ));
    }
    if points > 0 {
        let spend = MomentumSpend::TrumpTransfer { trump, points };
        t.change("points", goal, events, |e| element::spend_momentum(e, &spend, Uuid::nil()))?;
    }
    if let Some(b) = ch.departure.as_mut().and_then(|d| d.boosts.first_mut()) {
        b.draw_pending = false;
        b.awards += points;
    }
    events.push(ChallengeEvent::TrumpDrew { goal, trump, points });
    advance(ch, t, events)
}

pub(super) fn spend_momentum(
    ch: &mut Challenge,
    t: &mut Table,
    challenger: Uuid,
    by: Uuid,
    spend: &Spend,
    from_stake: bool,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Departure], "momentum is spent when leaving")?;
    let d = ch.departure.as_ref().expect("a departure");
    if !d.leavers.contains(&challenger) {
        return Err(Error::invalid("challenger", format!("element {challenger} is not leaving now")));
    }
    if !d.boosts.is_empty() {
        return Err(Error::invalid("move", "momentum is spent once every boost is awarded"));
    }
    let c = ch.challenger(challenger).expect("a leaver is a challenger");
    let how = c.leaving().expect("leaving");
    match (how, spend.for_victory()) {
        (Leave::Defeat, true) => {
            return Err(Error::invalid("spend", "a defeated challenger only turns momentum into adversity"));
        }
        (Leave::Victory, false) => {
            return Err(Error::invalid("spend", "only a defeated challenger turns momentum into adversity"));
        }
        _ => {}
    }
    if from_stake {
        return spend_from_pool(ch, t, challenger, by, spend, events);
    }
    if let Spend::ClaimingStakes { perks, uses } = spend {
        if c.stake.is_none() {
            return Err(Error::invalid("spend", "claiming stakes needs stakes: this challenger set none"));
        }
        if uses.len() != *perks as usize {
            return Err(Error::invalid(
                "spend.uses",
                format!("name each major perk claimed and its target: {perks} bought, {} named", uses.len()),
            ));
        }
        let side = c.side;
        let momentum = spend.momentum();
        t.change("challenger", challenger, events, |e| element::spend_momentum(e, &momentum, by))?;
        for (i, perk) in uses.iter().enumerate() {
            let field = format!("spend.uses[{i}]");
            claim_perk(ch, t, challenger, side, perk, &field, events).map_err(|e| match e {
                Error::Invalid { field: f, problem } => {
                    Error::Invalid { field: f.replacen("perk", &field, 1), problem }
                }
                other => other,
            })?;
        }
        events.push(ChallengeEvent::Spent { challenger, spend: spend.clone() });
        return advance(ch, t, events);
    }
    if let Spend::LastingEffect { element: target, flaw, transient, part_of_stake } = spend {
        let involved = ch.challenger(*target).is_some() || ch.goal(*target).is_some();
        if !(involved || *part_of_stake && c.stake.is_some()) {
            return Err(Error::invalid(
                "spend.element",
                "a lasting effect targets an element of this challenge or of the spender's stake",
            ));
        }
        let e = t.get("spend.element", *target)?;
        if !e.trait_by_id(*flaw).is_some_and(|x| x.kind == TraitKind::Flaw) {
            return Err(Error::invalid("spend.flaw", format!("{} has no flaw {flaw}", e.name)));
        }
        let has = e.modifiers_of(*flaw).find(|m| m.template == Some(Template::TransientFlaw)).map(|m| m.id);
        let momentum = spend.momentum();
        t.change("challenger", challenger, events, |e| element::spend_momentum(e, &momentum, by))?;
        match (has, transient) {
            (None, true) => {
                let m = modifier(*flaw, Template::TransientFlaw);
                t.change("spend.flaw", *target, events, |e| element::add_trait(e, &m, Uuid::nil()))?;
            }
            (Some(m), false) => t.change("spend.flaw", *target, events, |e| element::remove_trait(e, m))?,
            (Some(_), true) => {
                return Err(Error::invalid("spend.transient", "the flaw already has the Transient Flaw modifier"))
            }
            (None, false) => {
                return Err(Error::invalid("spend.transient", "the flaw has no Transient Flaw modifier to remove"))
            }
        }
    } else {
        let momentum = spend.momentum();
        t.change("challenger", challenger, events, |e| element::spend_momentum(e, &momentum, by))?;
    }
    events.push(ChallengeEvent::Spent { challenger, spend: spend.clone() });
    advance(ch, t, events)
}

/// A victor spends from its stake's pool, in support of the stake: what it buys takes
/// effect as if bought with its own momentum, which stays untouched.
fn spend_from_pool(
    ch: &mut Challenge,
    t: &mut Table,
    challenger: Uuid,
    by: Uuid,
    spend: &Spend,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let c = ch.challenger(challenger).expect("a leaver is a challenger");
    if c.leaving() != Some(Leave::Victory) {
        return Err(Error::invalid("from_stake", "a stake's momentum is spent by an owner leaving in victory"));
    }
    if matches!(spend, Spend::Boon { .. } | Spend::DefeatConversion { .. }) {
        return Err(Error::invalid(
            "from_stake",
            "a stake's momentum is spent in support of the stake: claiming it, victory narration or a lasting effect",
        ));
    }
    let stake = c.stake.clone().ok_or_else(|| Error::invalid("from_stake", "this challenger holds no stake"))?;
    let held = ch.stake_pool(&stake).map_or(0, |p| p.momentum);
    let cost = spend.momentum().cost();
    if cost == 0 || cost > held {
        return Err(Error::invalid(
            "from_stake",
            format!("the stake “{stake}” holds {held} momentum; this costs {cost}"),
        ));
    }
    // The owner's element must be one `by` may spend for; its own momentum pays nothing.
    element::sealed(t.get("challenger", challenger)?, by, "spend for it")?;
    // Spend through the element's rules with the pool's points lent for the moment, so the
    // purchase is checked and applied exactly as with its own momentum.
    let own = t.get("challenger", challenger)?.momentum;
    t.change("challenger", challenger, events, |e| {
        let mut lent = e.clone();
        lent.momentum = lent.momentum.saturating_add(cost);
        Ok((lent, Vec::new()))
    })?;
    let mut more = Vec::new();
    spend_momentum(ch, t, challenger, by, spend, false, &mut more)?;
    if t.get("challenger", challenger)?.momentum != own {
        unreachable!("the pool's points were spent");
    }
    events.extend(
        more.into_iter()
            .filter(|e| !matches!(e, ChallengeEvent::Element { change: ElementEvent::MomentumSpent { .. } })),
    );
    let pool = ch.stake_pools.iter_mut().find(|p| same_stake(&p.stake, &stake)).expect("a pool");
    pool.momentum -= cost;
    events.push(ChallengeEvent::StakePoolSpent { challenger, stake, cost });
    advance(ch, t, events)
}

/// A Raise Stakes: `momentum` goes into the pool of `challenger`'s stake.
pub fn raise_stake(challenge: &Challenge, challenger: Uuid, momentum: u32) -> Result<(Challenge, Vec<ChallengeEvent>)> {
    if challenge.over {
        return Err(Error::invalid("challenge", "the challenge is over"));
    }
    let c = challenge
        .challenger(challenger)
        .ok_or_else(|| Error::invalid("challenger", format!("element {challenger} is not a challenger here")))?;
    let stake = c.stake.clone().ok_or_else(|| Error::invalid("challenger", "this challenger set no stake to raise"))?;
    if momentum == 0 {
        return Err(Error::invalid("momentum", "a Raise Stakes puts at least 1 momentum into the stake"));
    }
    let mut ch = challenge.clone();
    match ch.stake_pools.iter_mut().find(|p| same_stake(&p.stake, &stake)) {
        Some(p) => p.momentum = p.momentum.saturating_add(momentum),
        None => ch.stake_pools.push(StakePool { stake: stake.clone(), momentum }),
    }
    Ok((ch, vec![ChallengeEvent::StakeRaised { challenger, stake, momentum }]))
}

/// Pools whose stake nobody holds any more end.
pub(super) fn drop_orphan_pools(ch: &mut Challenge, events: &mut Vec<ChallengeEvent>) {
    let held: Vec<String> = ch.challengers.iter().filter_map(|c| c.stake.clone()).collect();
    let (kept, gone): (Vec<StakePool>, Vec<StakePool>) =
        std::mem::take(&mut ch.stake_pools).into_iter().partition(|p| held.iter().any(|s| same_stake(s, &p.stake)));
    ch.stake_pools = kept;
    for p in gone {
        events.push(ChallengeEvent::StakePoolLapsed { stake: p.stake, momentum: p.momentum });
    }
}

/// A major perk claiming stakes bought, on its target: a challenger of this challenge
/// (still in or not) or a goal (Push: the spender's side's; Ruin: another side's). Its
/// challenge-long effects last until the end of the next challenge ([`perk_effect`]).
fn claim_perk(
    ch: &mut Challenge,
    t: &mut Table,
    spender: Uuid,
    side: usize,
    perk: &PerkUse,
    field: &str,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    if !perk.name().is_major() {
        return Err(Error::invalid("perk", "claiming stakes buys major perks"));
    }
    if let PerkUse::Damage { takes_out: true, .. } = perk {
        return Err(Error::invalid(
            "perk.takes_out",
            "a claimed perk lands as the spender leaves: taking a target out is left to the next moves",
        ));
    }
    let target = perk.target();
    if let Some(target) = target {
        let is_goal = ch.goal(target).is_some();
        let ok = match perk {
            PerkUse::Push { .. } | PerkUse::Ruin { .. } => is_goal,
            _ => ch.challenger(target).is_some(),
        };
        if !ok {
            return Err(Error::invalid(
                "perk.target",
                format!("element {target} is not a challenger (or, for Push and Ruin, a goal) of this challenge"),
            ));
        }
    }
    perk_effect(ch, t, side, perk, Some(&Claimed { field }), events)?;
    events.push(ChallengeEvent::StakesClaimed { challenger: spender, perk: perk.name(), target });
    Ok(())
}

/// The leavers are gone; when no challenger has an opponent left, the rest leave in victory,
/// and when nobody is left the challenge ends.
pub(super) fn finalize(ch: &mut Challenge, t: &mut Table, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    let d = ch.departure.take().expect("a departure");
    for id in d.leavers {
        t.change("elements", id, events, element::leave_challenge)?;
        let c = ch.challenger_mut(id).expect("a leaver is a challenger");
        if let Status::Leaving { how, why } = c.status {
            c.status = Status::Left { how, why };
            events.push(ChallengeEvent::Left { challenger: id, how, why });
        }
    }
    check_end(ch, t, events)
}

pub(super) fn check_end(ch: &mut Challenge, t: &mut Table, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    if ch.departure.is_some() || ch.over {
        return Ok(());
    }
    let remaining: Vec<Uuid> = ch.remaining().map(|c| c.element).collect();
    match ch.sides_in().len() {
        0 => {
            let everyone: Vec<Uuid> =
                ch.challengers.iter().map(|c| c.element).chain(ch.goals.iter().map(|g| g.element)).collect();
            for id in &everyone {
                t.change("elements", *id, events, element::challenge_ended)?;
            }
            // Protection a challenger lent to a bystander lasts until this challenge's end.
            let lent: Vec<Uuid> = t
                .elements
                .iter()
                .filter(|e| !everyone.contains(&e.id))
                .filter(|e| e.plot_protection.lent_by.is_some_and(|from| ch.challenger(from).is_some()))
                .map(|e| e.id)
                .collect();
            for id in lent {
                t.change("elements", id, events, |e| Ok(element::lent_protection_ends(e)))?;
            }
            ch.over = true;
            for p in std::mem::take(&mut ch.stake_pools) {
                events.push(ChallengeEvent::StakePoolLapsed { stake: p.stake, momentum: p.momentum });
            }
            ch.open.clear();
            ch.may_surrender.clear();
            ch.counterable.clear();
            events.push(ChallengeEvent::Ended { challenge: ch.id });
            Ok(())
        }
        1 => {
            let leavers = remaining.into_iter().map(|id| (id, Leave::Victory, Why::NoOpponents)).collect();
            begin_departure(ch, t, leavers, events)
        }
        _ => Ok(()),
    }
}
