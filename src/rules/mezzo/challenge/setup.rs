//! Setting a challenge up: its sides, challengers, goals and stakes, and the major actions
//! recorded from an action check.

use super::*;

// ---------------------------------------------------------------------------------------
// Setting up

pub(super) fn clean_stake(field: &str, stake: &Option<String>) -> Result<Option<String>> {
    match stake {
        None => Ok(None),
        Some(raw) => {
            let text = clean_text(field, raw)?;
            if text.is_empty() {
                return Err(Error::invalid(field, "state the stake, or leave it out"));
            }
            Ok(Some(text))
        }
    }
}

/// A new challenger: an element that may take part (not a goal, not gone from this
/// challenge, not locked out) joins.
pub(super) fn enlist(
    ch: &mut Challenge,
    t: &mut Table,
    field: &str,
    element: Uuid,
    side: usize,
    stake: Option<String>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let e = t.get(field, element)?;
    if e.kind == ElementKind::Goal {
        return Err(Error::invalid(field, format!("{} is a goal: goals gain trumps, they do not take part", e.name)));
    }
    if ch.challenger(element).is_some() {
        return Err(Error::invalid(field, format!("{} already took part: nobody joins twice", e.name)));
    }
    if locked_out(e) {
        return Err(Error::invalid(
            field,
            format!("{}'s restraints lock out every die: it cannot take part in challenges", e.name),
        ));
    }
    if ch.challengers.len() >= MAX_CHALLENGERS {
        return Err(Error::invalid(field, format!("a challenge has at most {MAX_CHALLENGERS} challengers")));
    }
    let kind = e.kind;
    let carried: Vec<Uuid> = e.carried.iter().copied().filter(|f| e.trait_by_id(*f).is_some()).collect();
    t.change(field, element, events, element::join_challenge)?;
    ch.gained.extend(carried.into_iter().map(|flaw| Gained { element, flaw }));
    ch.challengers.push(Challenger {
        element,
        kind,
        side,
        stake: stake.clone(),
        status: Status::In,
        boosts_triggered: 0,
    });
    events.push(ChallengeEvent::Joined { element, side, stake });
    Ok(())
}

pub(super) fn add_side(ch: &mut Challenge, field: &str, name: &str, events: &mut Vec<ChallengeEvent>) -> Result<usize> {
    if ch.sides.len() >= MAX_SIDES {
        return Err(Error::invalid(field, format!("a challenge has at most {MAX_SIDES} sides")));
    }
    let name = clean_text(field, name)?;
    ch.sides.push(Side { name: name.clone() });
    let side = ch.sides.len() - 1;
    events.push(ChallengeEvent::SideAdded { side, name });
    Ok(side)
}

pub(super) fn add_goal(
    ch: &mut Challenge,
    t: &mut Table,
    field: &str,
    element: Uuid,
    supporters: &[Uuid],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let e = t.get(field, element)?;
    if e.kind != ElementKind::Goal {
        return Err(Error::invalid(field, format!("{} is not a goal", e.name)));
    }
    if ch.goal(element).is_some() {
        return Err(Error::invalid(field, format!("{} is already a goal of this challenge", e.name)));
    }
    let Some(first) = supporters.first() else {
        return Err(Error::invalid("supporters", "a goal has at least one supporter"));
    };
    let side = ch.active("supporters", *first)?.side;
    for (i, s) in supporters.iter().enumerate() {
        let c = ch.active(&format!("supporters[{i}]"), *s)?;
        if c.side != side {
            return Err(Error::invalid(format!("supporters[{i}]"), "a goal's supporters are all of one side"));
        }
        if supporters[..i].contains(s) {
            return Err(Error::invalid(format!("supporters[{i}]"), "each supporter once"));
        }
    }
    t.change(field, element, events, element::goal_enters_challenge)?;
    ch.goals.push(Goal { element, side, supporters: supporters.to_vec(), triggered: false });
    events.push(ChallengeEvent::GoalAdded { goal: element, side, supporters: supporters.to_vec() });
    Ok(())
}

/// Opens a challenge: at least two sides, each with a challenger; every challenger joins
/// (its first challenge gives it 4 edge slots; it has Plot Protection while it takes part).
pub fn start(setup: &ChallengeSetup, elements: &[Element]) -> Result<Step> {
    let (ch, t, events) = open(setup, elements)?;
    Ok((ch, t.changes(), events))
}

/// Opens a challenge from an action check one side lost (RULES.md §3.5, a player backs the
/// loser): the check's scores are the first round's major actions, one for each acting
/// element (each must be a challenger), compared as [`Move::MajorActions`] compares typed
/// scores. The check's spends were paid when it resolved; nothing is paid again here.
pub fn start_from_check(setup: &ChallengeSetup, check: &ActionCheck, elements: &[Element]) -> Result<Step> {
    match &check.outcome {
        Some(action_check::Outcome::Won { .. }) => {}
        Some(action_check::Outcome::NoCheckNeeded { .. }) => {
            return Err(Error::invalid("check", "no dice were rolled in this check, so no side lost it"))
        }
        Some(action_check::Outcome::Compromise { .. }) => {
            return Err(Error::invalid("check", "this check was settled by a compromise: no side lost it"))
        }
        None => return Err(Error::invalid("check", "this check is not resolved: no side has lost it yet")),
    }
    let rolls = scores_of(check)?;
    let majors: Vec<Uuid> = rolls.iter().filter_map(|r| r.kind.element()).collect();
    let (mut ch, mut t, mut events) = open(setup, elements)?;
    for m in &majors {
        if ch.challenger(*m).is_none() {
            let name = t.get("challengers", *m).map_or_else(|_| m.to_string(), |e| e.name.clone());
            return Err(Error::invalid(
                "challengers",
                format!("{name} acted in the check: it takes part in the challenge its check starts"),
            ));
        }
    }
    major_actions(&mut ch, &mut t, Some(check.id), &rolls, &majors, &mut events)?;
    Ok((ch, t.changes(), events))
}

fn open(setup: &ChallengeSetup, elements: &[Element]) -> Result<(Challenge, Table, Vec<ChallengeEvent>)> {
    let description = clean_text("description", &setup.description)?;
    if !(2..=MAX_SIDES).contains(&setup.sides.len()) {
        return Err(Error::invalid(
            "sides",
            format!("a challenge has 2 to {MAX_SIDES} sides, not {}", setup.sides.len()),
        ));
    }
    let mut ch = Challenge::new(setup.id, description);
    let mut t = Table::new(elements);
    let mut events = vec![ChallengeEvent::Started { challenge: setup.id }];
    for (i, s) in setup.sides.iter().enumerate() {
        add_side(&mut ch, &format!("sides[{i}].name"), &s.name, &mut events)?;
    }
    for (i, c) in setup.challengers.iter().enumerate() {
        if c.side >= ch.sides.len() {
            return Err(Error::invalid(format!("challengers[{i}].side"), format!("there is no side {}", c.side)));
        }
        let stake = clean_stake(&format!("challengers[{i}].stake"), &c.stake)?;
        enlist(&mut ch, &mut t, &format!("challengers[{i}].element"), c.element, c.side, stake, &mut events)?;
    }
    if let Some(empty) = (0..ch.sides.len()).find(|s| !ch.challengers.iter().any(|c| c.side == *s)) {
        return Err(Error::invalid("sides", format!("side {empty} has no challenger: each side starts with one")));
    }
    for (i, g) in setup.goals.iter().enumerate() {
        add_goal(&mut ch, &mut t, &format!("goals[{i}].element"), g.element, &g.supporters, &mut events)?;
    }
    Ok((ch, t, events))
}

/// The scores of a resolved action check (won, tied or settled by compromise), one per side
/// that rolled.
pub fn scores_of(check: &ActionCheck) -> Result<Vec<SideScore>> {
    let scores: Vec<SideScore> =
        check.sides.iter().filter_map(|s| s.score.map(|score| SideScore { kind: s.kind, score })).collect();
    if scores.len() < 2 {
        return Err(Error::invalid("check", "a major action compares rolled scores: resolve a rolled check first"));
    }
    Ok(scores)
}

/// Rolls and resolves an action check ([`action_check::roll`], then
/// [`record_major_actions`]) as the major action of each of `majors`. Returns the challenge,
/// the resolved check, and every player and element changed.
pub fn roll_major_actions(
    challenge: &Challenge,
    check: &ActionCheck,
    majors: &[Uuid],
    players: &[Player],
    elements: &[Element],
    sources: &action_check::Sources,
    source: &mut (impl DiceSource + ?Sized),
) -> Result<(Challenge, ActionCheck, Changes, Vec<ChallengeEvent>)> {
    challenge.expect(&[Phase::Rounds], "a major action is taken between others")?;
    let (rolled, rolled_events) = action_check::roll(check, elements, source)?;
    let (next, resolved, changes, more) = record_major_actions(challenge, &rolled, majors, players, elements, sources)?;
    let events = rolled_events.into_iter().map(|check| ChallengeEvent::Check { check }).chain(more).collect();
    Ok((next, resolved, changes, events))
}

/// Resolves an action check already rolled (its Sudden Surges bought: the table saw the
/// dice first), paying its spends and vote sources ([`action_check::resolve`]; `sources`:
/// what the table recorded, as for a conflict), and records it as the major
/// action of each of `majors`. A tie needs no tiebreak here: the tied actions each earn a
/// minor perk. Returns the challenge, the resolved check, and every player and element
/// changed.
pub fn record_major_actions(
    challenge: &Challenge,
    rolled: &ActionCheck,
    majors: &[Uuid],
    players: &[Player],
    elements: &[Element],
    sources: &action_check::Sources,
) -> Result<(Challenge, ActionCheck, Changes, Vec<ChallengeEvent>)> {
    challenge.expect(&[Phase::Rounds], "a major action is taken between others")?;
    let (resolved, paid, resolved_events) = action_check::resolve(rolled, players, elements, sources)?;
    let merged: Vec<Element> =
        elements.iter().map(|e| paid.elements.iter().find(|p| p.id == e.id).unwrap_or(e).clone()).collect();
    let mv = Move::MajorActions { check: Some(rolled.id), rolls: scores_of(&resolved)?, majors: majors.to_vec() };
    let (next, recorded, more) = play(challenge, &mv, &merged)?;
    let mut changed = paid.elements;
    for e in recorded.elements {
        match changed.iter_mut().find(|c| c.id == e.id) {
            Some(slot) => *slot = e,
            None => changed.push(e),
        }
    }
    let mut events: Vec<ChallengeEvent> =
        resolved_events.into_iter().map(|check| ChallengeEvent::Check { check }).collect();
    events.extend(more);
    Ok((
        next,
        resolved,
        Changes { players: paid.players, elements: changed, victory_votes: paid.victory_votes },
        events,
    ))
}
