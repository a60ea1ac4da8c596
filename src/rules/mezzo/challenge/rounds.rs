//! The moves of a round: joining, major actions, changing stakes, declaring and settling perks.

use super::*;

// ---------------------------------------------------------------------------------------
// Moves

/// Applies one move.
pub fn play(challenge: &Challenge, mv: &Move, elements: &[Element]) -> Result<Step> {
    let mut ch = challenge.clone();
    let mut t = Table::new(elements);
    let mut events = Vec::new();
    match mv {
        Move::AddChallenger { element, joining, stake } => {
            ch.expect(&[Phase::Rounds, Phase::Perks], "a challenger joins")?;
            let stake = clean_stake("stake", stake)?;
            let side = joining_side(&mut ch, joining, None, &mut events)?;
            enlist(&mut ch, &mut t, "element", *element, side, stake, &mut events)?;
        }
        Move::AddGoal { element, supporters } => {
            ch.expect(&[Phase::Rounds, Phase::Perks], "a goal is added")?;
            add_goal(&mut ch, &mut t, "element", *element, supporters, &mut events)?;
        }
        Move::MajorActions { check, rolls, majors } => {
            major_actions(&mut ch, &mut t, *check, rolls, majors, &mut events)?
        }
        Move::ChangeStakes { challenger, stake, joining } => {
            change_stakes(&mut ch, &mut t, *challenger, stake, joining.as_ref(), &mut events)?
        }
        Move::Trade { action } => {
            ch.expect(&[Phase::Perks], "a perk is traded")?;
            head(&ch, *action)?;
            let a = &mut ch.actions[*action];
            if a.majors_left() == 0 {
                return Err(Error::invalid("action", "no major perk is left to trade"));
            }
            a.traded += 1;
            events.push(ChallengeEvent::PerkTraded {
                action: *action,
                majors_left: a.majors_left(),
                minors_left: a.minors_left(),
            });
        }
        Move::Declare { action, perk } => declare(&mut ch, &t, *action, perk, &mut events)?,
        Move::FinalCounter { action, element } => {
            ch.expect(&[Phase::Perks], "a Final Counter removes an open action's perks")?;
            if !ch.open.contains(action) {
                return Err(Error::invalid("action", format!("action {action} has no open perks")));
            }
            ch.active("element", *element)?;
            t.change("element", *element, &mut events, element::final_counter)?;
            ch.open.retain(|a| a != action);
            let a = &mut ch.actions[*action];
            a.declared.clear();
            a.closed = Some(Closed::Countered { by: *element });
            events.push(ChallengeEvent::Countered { action: *action, by: *element });
        }
        Move::Settle { action } => settle(&mut ch, &mut t, *action, &mut events)?,
        Move::Complicate { goal, text } => complicate(&mut ch, &mut t, *goal, text, &mut events)?,
        Move::Surrender { challenger } => surrender(&mut ch, &mut t, *challenger, &mut events)?,
        Move::EndRound { trumps } => end_round(&mut ch, &mut t, trumps, &mut events)?,
        Move::DrawTrump { points } => draw_trump(&mut ch, &mut t, *points, &mut events)?,
        Move::AwardBoost { to } => {
            ch.expect(&[Phase::Departure], "a boost is awarded")?;
            let owner = match ch.departure.as_ref().and_then(|d| d.boosts.first()) {
                Some(b) if !b.draw_pending => b.owner,
                _ => return Err(Error::invalid("to", "no award is waiting for the table's pick")),
            };
            let tied = award_candidates(&ch, &t)?;
            if !tied.contains(to) {
                return Err(Error::invalid(
                    "to",
                    "the award goes to an eligible target with the least momentum (the table picks among those tied)",
                ));
            }
            award(&mut ch, &mut t, owner, *to, &mut events)?;
            advance(&mut ch, &mut t, &mut events)?;
        }
        Move::Spend { challenger, by, spend, from_stake } => {
            spend_momentum(&mut ch, &mut t, *challenger, *by, spend, *from_stake, &mut events)?
        }
        Move::Depart => {
            ch.expect(&[Phase::Departure], "leavers depart")?;
            if ch.departure.as_ref().is_some_and(|d| !d.boosts.is_empty()) {
                return Err(Error::invalid("move", "momentum boosts are still to be awarded"));
            }
            finalize(&mut ch, &mut t, &mut events)?;
        }
    }
    Ok((ch, t.changes(), events))
}

/// The side a challenger joins: an existing side with a challenger in (other than `not`),
/// or a new one.
pub(super) fn joining_side(
    ch: &mut Challenge,
    joining: &Joining,
    not: Option<usize>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<usize> {
    match joining {
        Joining::Side { side } => {
            if *side >= ch.sides.len() {
                return Err(Error::invalid("joining.side", format!("there is no side {side}")));
            }
            if not == Some(*side) {
                return Err(Error::invalid("joining.side", "the challenger is already on this side"));
            }
            if !ch.sides_in().contains(side) {
                return Err(Error::invalid(
                    "joining.side",
                    format!("side {side} has no challenger left to accept a newcomer"),
                ));
            }
            Ok(*side)
        }
        Joining::NewSide { name } => add_side(ch, "joining.name", name, events),
    }
}

pub(super) fn major_actions(
    ch: &mut Challenge,
    t: &mut Table,
    check: Option<Uuid>,
    rolls: &[SideScore],
    majors: &[Uuid],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds], "a major action is taken between others")?;
    if rolls.len() < 2 {
        return Err(Error::invalid("rolls", "a major action is compared with at least one opposing roll"));
    }
    for (i, r) in rolls.iter().enumerate() {
        // A die gives at least 1; only a check's Specialty −1 (a 1 on a level roll) makes 0.
        if r.score == 0 && check.is_none() {
            return Err(Error::invalid(format!("rolls[{i}].score"), "a score is at least 1"));
        }
        if let SideKind::Action { element } = r.kind {
            ch.active(&format!("rolls[{i}].kind.element"), element)?;
            if rolls[..i].iter().any(|o| o.kind == r.kind) {
                return Err(Error::invalid(format!("rolls[{i}].kind.element"), "an element acts on one side only"));
            }
        }
    }
    if majors.is_empty() {
        return Err(Error::invalid("majors", "name the challengers whose major action this is"));
    }
    let mut recorded = Vec::new();
    for (i, &m) in majors.iter().enumerate() {
        let field = format!("majors[{i}]");
        let side = ch.active(&field, m)?.side;
        if majors[..i].contains(&m) {
            return Err(Error::invalid(field, "each challenger once"));
        }
        if ch.acted.contains(&m) {
            return Err(Error::invalid(field, format!("element {m} already took its major action this round")));
        }
        let Some(own) = rolls.iter().find(|r| r.kind == SideKind::Action { element: m }) else {
            return Err(Error::invalid(field, format!("element {m} does not act in this check")));
        };
        let opposing = rolls
            .iter()
            .filter(|r| match r.kind {
                SideKind::Failure => true,
                SideKind::Action { element } => ch.challenger(element).is_some_and(|c| c.side != side),
            })
            .map(|r| r.score)
            .max()
            .ok_or_else(|| Error::invalid(field.clone(), "no opposing roll: only allies rolled"))?;
        recorded.push((m, own.score, opposing));
    }
    ch.may_surrender.clear();
    ch.counterable.clear();
    for (m, score, opposing) in recorded {
        let result = compare(score, opposing);
        let (major_perks, minor_perks) = result.perks();
        let index = ch.actions.len();
        ch.actions.push(MajorAction {
            round: ch.round,
            challenger: m,
            check,
            score,
            opposing,
            result,
            major_perks,
            minor_perks,
            traded: 0,
            declared: Vec::new(),
            closed: None,
        });
        ch.acted.push(m);
        events.push(ChallengeEvent::ActionRecorded {
            action: index,
            challenger: m,
            round: ch.round,
            score,
            opposing,
            result,
            major_perks,
            minor_perks,
        });
        if result == ActionResult::Failure {
            t.change("majors", m, events, |e| element::gain_adversity(e, 1))?;
        } else {
            ch.open.push(index);
        }
    }
    Ok(())
}

pub(super) fn change_stakes(
    ch: &mut Challenge,
    t: &mut Table,
    challenger: Uuid,
    stake: &str,
    joining: Option<&Joining>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds], "stakes change in place of a major action")?;
    let old_side = ch.active("challenger", challenger)?.side;
    if ch.acted.contains(&challenger) {
        return Err(Error::invalid("challenger", "it already took its major action this round"));
    }
    let after = clean_stake("stake", &Some(stake.to_owned()))?.unwrap_or_default();
    let side = match joining {
        Some(j) => Some(joining_side(ch, j, Some(old_side), events)?),
        None => None,
    };
    ch.acted.push(challenger);
    let c = ch.challenger_mut(challenger).expect("checked above");
    let before = c.stake.replace(after.clone());
    events.push(ChallengeEvent::StakesChanged { challenger, before, after });
    let side_change = side;
    drop_orphan_pools(ch, events);
    let c = ch.challenger_mut(challenger).expect("checked above");
    if let Some(to) = side_change {
        c.side = to;
        events.push(ChallengeEvent::SideChanged { challenger, from: old_side, to });
        for g in &mut ch.goals {
            if g.supporters.contains(&challenger) {
                g.supporters.retain(|s| *s != challenger);
                if g.supporters.is_empty() {
                    g.triggered = true;
                }
            }
        }
        check_end(ch, t, events)?;
    }
    Ok(())
}

/// The action whose perks are resolved now.
pub(super) fn head(ch: &Challenge, action: usize) -> Result<()> {
    match ch.open.first() {
        Some(&first) if first == action => Ok(()),
        Some(&first) => Err(Error::invalid("action", format!("action {first}'s perks are resolved first"))),
        None => Err(Error::invalid("action", "no major action has open perks")),
    }
}

pub(super) fn declare(
    ch: &mut Challenge,
    t: &Table,
    action: usize,
    perk: &PerkUse,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Perks], "a perk is declared")?;
    head(ch, action)?;
    let a = &ch.actions[action];
    if perk.name().is_major() && a.majors_left() == 0 {
        return Err(Error::invalid("perk", "this action has no major perk left"));
    }
    if !perk.name().is_major() && a.minors_left() == 0 {
        let more = if a.majors_left() > 0 { " (trade a major perk for two)" } else { "" };
        return Err(Error::invalid("perk", format!("this action has no minor perk left{more}")));
    }
    // Try every declared perk and this one on copies, in order.
    let mut trial = ch.clone();
    trial.actions[action].declared.push(perk.clone());
    let mut copy = Table::new(&t.elements);
    let mut ignored = Vec::new();
    for p in trial.actions[action].declared.clone() {
        apply_perk(&mut trial, &mut copy, action, &p, &mut ignored)?;
    }
    ch.actions[action].declared.push(perk.clone());
    ch.may_surrender.clear();
    events.push(ChallengeEvent::PerkDeclared { action, perk: perk.clone() });
    Ok(())
}

pub(super) fn settle(ch: &mut Challenge, t: &mut Table, action: usize, events: &mut Vec<ChallengeEvent>) -> Result<()> {
    ch.expect(&[Phase::Perks], "an action settles")?;
    head(ch, action)?;
    let mut forced = Vec::new();
    for p in ch.actions[action].declared.clone() {
        forced.extend(apply_perk(ch, t, action, &p, events)?);
    }
    let a = &mut ch.actions[action];
    let (majors, minors) = (a.majors_left(), a.minors_left());
    a.closed = Some(Closed::Settled);
    if majors + minors > 0 {
        events.push(ChallengeEvent::PerksForfeited { action, majors, minors });
    }
    ch.open.remove(0);
    let mut leavers: Vec<(Uuid, Leave, Why)> = Vec::new();
    for (who, why) in forced {
        if !leavers.iter().any(|(l, _, _)| *l == who) {
            leavers.push((who, Leave::Defeat, why));
        }
    }
    if !leavers.is_empty() {
        begin_departure(ch, t, leavers, events)?;
    }
    Ok(())
}
