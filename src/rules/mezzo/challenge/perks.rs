//! Perks: what each minor and major perk does to its target, and the wounds it heals.

use super::*;

// ---------------------------------------------------------------------------------------
// Perks

pub(in crate::rules::mezzo) fn has_modifier(e: &Element, flaw: Uuid, template: Template) -> bool {
    e.modifiers_of(flaw).any(|m| m.template == Some(template))
}

pub(super) fn locked_out(e: &Element) -> bool {
    action_check::restrained(&[], e.restraints().count() as u32).is_none()
}

/// The templates of the flaw Break Free leaves in place of a restraint and of a new wound.
const HARM_FLAWS: &[Template] = &[Template::DulledEdge, Template::ImpairedAbility, Template::Vulnerability];

/// A new flaw a perk gives: a flaw made from one of `allowed`, granted by play.
pub(super) fn new_flaw(field: &str, flaw: &Trait, allowed: &[Template], perk: &str) -> Result<Trait> {
    if flaw.kind != TraitKind::Flaw || !flaw.template.is_some_and(|t| allowed.contains(&t)) {
        let names: Vec<&str> = allowed.iter().map(|t| t.word()).collect();
        return Err(Error::invalid(field, format!("{perk} gives a flaw made from {}", names.join(" or "))));
    }
    if matches!(flaw.template, Some(Template::Vulnerability | Template::Restraint)) && flaw.target_trait.is_some() {
        return Err(Error::invalid(format!("{field}.target_trait"), "this flaw selects no trait"));
    }
    Ok(Trait { via: Via::Granted, lasts: element::Lasts::Lasting, uses_left: None, granted_by: None, ..flaw.clone() })
}

pub(super) fn modifier(flaw: Uuid, template: Template) -> Trait {
    Trait::from_template(modifier_id(flaw, template), template, template.word(), Via::Granted).on(flaw)
}

/// Adds `flaw` to `target` with `modifiers`.
pub(super) fn inflict(
    t: &mut Table,
    field: &str,
    target: Uuid,
    flaw: Trait,
    modifiers: &[Template],
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let id = flaw.id;
    t.change(field, target, events, |e| element::add_trait(e, &flaw, Uuid::nil()))?;
    for &m in modifiers {
        t.change(field, target, events, |e| element::add_trait(e, &modifier(id, m), Uuid::nil()))?;
    }
    Ok(())
}

/// Applies one perk of `action`; returns the challengers it forces out.
pub(super) fn apply_perk(
    ch: &mut Challenge,
    t: &mut Table,
    action: usize,
    perk: &PerkUse,
    events: &mut Vec<ChallengeEvent>,
) -> Result<Vec<(Uuid, Why)>> {
    let actor = ch.actions[action].challenger;
    let actor_side = ch.active("action", actor)?.side;
    if let Some(target) = perk.target() {
        if !matches!(perk, PerkUse::Push { .. } | PerkUse::Ruin { .. }) {
            ch.active("perk.target", target)?;
        }
    }
    let forced = match perk {
        PerkUse::Discover { detail } => {
            let detail = clean_text("perk.detail", detail)?;
            if detail.is_empty() {
                return Err(Error::invalid("perk.detail", "say what the challenger finds"));
            }
            events.push(ChallengeEvent::Discovered { action, challenger: actor, detail });
            Vec::new()
        }
        _ => perk_effect(ch, t, actor_side, perk, None, events)?,
    };
    events.push(ChallengeEvent::PerkApplied { action, perk: perk.name(), target: perk.target() });
    Ok(forced)
}

/// How a perk bought by claiming stakes differs from one a major action earned.
pub(super) struct Claimed<'a> {
    /// The field the perk is at in the move (`spend.uses[i]`).
    pub field: &'a str,
}

/// What a perk does to its target; returns the challengers it forces out. A perk bought by
/// claiming stakes (`claimed`) makes what would last until the end of this challenge last
/// until the end of the next one: a Push's trump, and the flaws it gives (they count as
/// gained in the target's next challenge too).
pub(super) fn perk_effect(
    ch: &mut Challenge,
    t: &mut Table,
    actor_side: usize,
    perk: &PerkUse,
    claimed: Option<&Claimed<'_>>,
    events: &mut Vec<ChallengeEvent>,
) -> Result<Vec<(Uuid, Why)>> {
    let mut forced = Vec::new();
    let gained_before = ch.gained.len();
    match perk {
        PerkUse::Hinder { target, flaw } => {
            let flaw = new_flaw("perk.flaw", flaw, &[Template::DulledEdge, Template::ImpairedAbility], "Hinder")?;
            ch.gained.push(Gained { element: *target, flaw: flaw.id });
            inflict(t, "perk.flaw", *target, flaw, &[Template::OneShot, Template::TransientFlaw], events)?;
        }
        PerkUse::Expose { target, flaw } => {
            let flaw = new_flaw("perk.flaw", flaw, &[Template::Vulnerability], "Expose")?;
            ch.gained.push(Gained { element: *target, flaw: flaw.id });
            inflict(t, "perk.flaw", *target, flaw, &[Template::OneShot, Template::TransientFlaw], events)?;
        }
        PerkUse::Recover { target, flaw } => {
            let e = t.get("perk.target", *target)?;
            if !ch.was_gained(*target, *flaw) {
                return Err(Error::invalid("perk.flaw", "Recover removes a flaw gained during this challenge"));
            }
            if !(has_modifier(e, *flaw, Template::OneShot) && has_modifier(e, *flaw, Template::TransientFlaw)) {
                return Err(Error::invalid(
                    "perk.flaw",
                    "Recover removes a flaw with the One-Shot and Transient Flaw modifiers",
                ));
            }
            t.change("perk.flaw", *target, events, |e| element::remove_trait(e, *flaw))?;
        }
        PerkUse::Discover { .. } => {
            return Err(Error::invalid("perk", "Discover is told by the acting challenger's action"));
        }
        PerkUse::Bind { target, restraint } => {
            let restraint = new_flaw("perk.restraint", restraint, &[Template::Restraint], "Bind")?;
            ch.gained.push(Gained { element: *target, flaw: restraint.id });
            inflict(t, "perk.restraint", *target, restraint, &[Template::TransientFlaw], events)?;
            if !ch.may_surrender.contains(target) {
                ch.may_surrender.push(*target);
            }
            if locked_out(t.get("perk.target", *target)?) {
                forced.push((*target, Why::LockedOut));
            }
        }
        PerkUse::BreakFree { target, restraint, flaw } => {
            let e = t.get("perk.target", *target)?;
            if !e.restraints().any(|r| r.id == *restraint) {
                return Err(Error::invalid("perk.restraint", format!("{} has no restraint {restraint}", e.name)));
            }
            if !has_modifier(e, *restraint, Template::TransientFlaw) {
                return Err(Error::invalid(
                    "perk.restraint",
                    "Break Free removes a restraint with the Transient Flaw modifier",
                ));
            }
            let flaw = new_flaw("perk.flaw", flaw, HARM_FLAWS, "Break Free")?;
            t.change("perk.restraint", *target, events, |e| element::remove_trait(e, *restraint))?;
            ch.gained.push(Gained { element: *target, flaw: flaw.id });
            inflict(t, "perk.flaw", *target, flaw, &[Template::OneShot, Template::TransientFlaw], events)?;
        }
        PerkUse::Damage { target, wound, expend, extras, takes_out } => {
            let (wound_id, base) = match wound {
                Wounding::NewFlaw { flaw } => {
                    let flaw = new_flaw("perk.wound.flaw", flaw, HARM_FLAWS, "Damage")?;
                    let id = flaw.id;
                    ch.gained.push(Gained { element: *target, flaw: id });
                    inflict(t, "perk.wound.flaw", *target, flaw, &[Template::Wound, Template::TransientFlaw], events)?;
                    if !ch.may_surrender.contains(target) {
                        ch.may_surrender.push(*target);
                    }
                    (id, 0)
                }
                Wounding::Worsen { wound } => {
                    let e = t.get("perk.target", *target)?;
                    if !e.is_wound(*wound) {
                        return Err(Error::invalid("perk.wound.wound", format!("{} has no wound {wound}", e.name)));
                    }
                    // Extras that can remove targets are gained: a free surrender, as for a
                    // new wound (audit #14).
                    if !ch.may_surrender.contains(target) {
                        ch.may_surrender.push(*target);
                    }
                    (*wound, 2)
                }
            };
            let e = t.get("perk.target", *target)?;
            for (i, f) in expend.iter().enumerate() {
                let field = format!("perk.expend[{i}]");
                let is_flaw = e.trait_by_id(*f).is_some_and(|x| x.kind == TraitKind::Flaw);
                if !is_flaw || !has_modifier(e, *f, Template::OneShot) || *f == wound_id {
                    return Err(Error::invalid(field, format!("{} has no other One-Shot flaw {f}", e.name)));
                }
                if expend[..i].contains(f) {
                    return Err(Error::invalid(field, "each flaw is expended once"));
                }
            }
            let wanted = base + expend.len();
            if extras.len() != wanted {
                return Err(Error::invalid(
                    "perk.extras",
                    format!("the wound gains {wanted} extras here (2 for worsening a wound, 1 per One-Shot flaw expended), not {}", extras.len()),
                ));
            }
            for (i, x) in extras.iter().enumerate() {
                let field = format!("perk.extras[{i}]");
                let wound_extra = matches!(
                    x.template,
                    Some(
                        Template::CorrosiveWound
                            | Template::TargetedWound
                            | Template::PervasiveWound
                            | Template::ViciousWound
                    )
                );
                if x.kind != TraitKind::Extra || !wound_extra {
                    return Err(Error::invalid(
                        field,
                        "a wound's extras are Corrosive, Targeted, Pervasive or Vicious Wound",
                    ));
                }
                let extra = Trait { via: Via::Granted, lasts: element::Lasts::Lasting, uses_left: None, ..x.clone() }
                    .on(wound_id);
                t.change(&field, *target, events, |e| element::add_trait(e, &extra, Uuid::nil()))?;
            }
            for (i, f) in expend.iter().enumerate() {
                t.change(&format!("perk.expend[{i}]"), *target, events, |e| element::use_trait(e, *f))?;
            }
            if *takes_out {
                forced.push((*target, Why::TakenOut));
            }
        }
        PerkUse::Heal { target, wound, effect } => {
            if !ch.was_gained(*target, *wound) {
                return Err(Error::invalid("perk.wound", "Heal treats a wound gained during this challenge"));
            }
            t.change("perk.wound", *target, events, |e| heal_wound(e, *wound, effect))?;
        }
        PerkUse::Push { goal, trump } => {
            let g = ch.goal(*goal).ok_or_else(|| {
                Error::invalid("perk.goal", format!("element {goal} is not a goal of this challenge"))
            })?;
            if g.side != actor_side {
                return Err(Error::invalid("perk.goal", "Push targets a goal the acting challenger's side supports"));
            }
            if claimed.is_none() && !g.supporters.iter().any(|s| ch.challenger(*s).is_some_and(Challenger::is_in)) {
                return Err(Error::invalid("perk.goal", "every supporter of this goal has left"));
            }
            let lasts = if claimed.is_some() { element::Lasts::NextChallenge } else { element::Lasts::Lasting };
            let trump_trait = Trait { lasts, ..Trait::from_template(*trump, Template::Trump, "Trump", Via::Granted) };
            t.change("perk.trump", *goal, events, |e| element::add_trait(e, &trump_trait, Uuid::nil()))?;
            ch.counterable.push(Pushed { goal: *goal, trump: *trump });
        }
        PerkUse::Ruin { goal } => {
            let g = ch.goal(*goal).ok_or_else(|| {
                Error::invalid("perk.goal", format!("element {goal} is not a goal of this challenge"))
            })?;
            if g.side == actor_side {
                return Err(Error::invalid(
                    "perk.goal",
                    "Ruin targets a goal the acting challenger's side can interfere with (another side's)",
                ));
            }
            let e = t.get("perk.goal", *goal)?;
            let last = e
                .traits
                .iter()
                .rev()
                .find(|x| x.template == Some(Template::Trump))
                .map(|x| x.id)
                .ok_or_else(|| Error::invalid("perk.goal", format!("{} has no trump to lose", e.name)))?;
            ruin(t, "perk.goal", *goal, last, events)?;
        }
    }
    if let Some(c) = claimed {
        let carried: Vec<Gained> = ch.gained[gained_before..].to_vec();
        for g in carried {
            t.change(c.field, g.element, events, |e| element::carry_flaw(e, g.flaw))?;
        }
    }
    Ok(forced)
}

/// A goal loses `trump` and gains a point of momentum, unless its momentum protects its
/// trumps.
pub(super) fn ruin(
    t: &mut Table,
    field: &str,
    goal: Uuid,
    trump: Uuid,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    let e = t.get(field, goal)?;
    if e.ruin_proof() {
        return Err(Error::invalid(
            field,
            format!(
                "{} holds {} momentum, at least twice its {} trumps: they are protected",
                e.name,
                e.momentum,
                e.trumps()
            ),
        ));
    }
    t.change(field, goal, events, |e| element::remove_trait(e, trump))?;
    t.change(field, goal, events, |e| element::gain_momentum(e, 1, MomentumSource::Ruin))
}

/// Heal's (and Treat Wounds') effect on a Transient wound.
pub(in crate::rules::mezzo) fn heal_wound(
    e: &Element,
    wound: Uuid,
    effect: &HealEffect,
) -> Result<(Element, Vec<ElementEvent>)> {
    if !e.is_wound(wound) {
        return Err(Error::invalid("wound", format!("{} has no wound {wound}", e.name)));
    }
    if !has_modifier(e, wound, Template::TransientFlaw) {
        return Err(Error::invalid("wound", "only a wound with the Transient Flaw modifier is healed"));
    }
    let extras: Vec<&Trait> = e.extras_of(wound).collect();
    let is = |id: Uuid, template: Template| extras.iter().any(|x| x.id == id && x.template == Some(template));
    match effect {
        HealEffect::RemoveExtras { extras: removed } => {
            if !(1..=2).contains(&removed.len()) {
                return Err(Error::invalid("effect.extras", "Heal removes 1 or 2 extras"));
            }
            for (i, x) in removed.iter().enumerate() {
                if !extras.iter().any(|y| y.id == *x) || removed[..i].contains(x) {
                    return Err(Error::invalid(
                        format!("effect.extras[{i}]"),
                        format!("the wound has no other extra {x}"),
                    ));
                }
            }
            let vicious_left =
                extras.iter().any(|y| y.template == Some(Template::ViciousWound) && !removed.contains(&y.id));
            if vicious_left && removed.iter().any(|x| !is(*x, Template::ViciousWound)) {
                return Err(Error::invalid(
                    "effect.extras",
                    "every Vicious Wound extra goes before any other extra can be removed",
                ));
            }
            let kept =
                |template: Template| extras.iter().any(|y| y.template == Some(template) && !removed.contains(&y.id));
            if kept(Template::PervasiveWound) && !kept(Template::TargetedWound) {
                return Err(Error::invalid(
                    "effect.extras",
                    "a Pervasive Wound needs its Targeted Wound: remove it first",
                ));
            }
            let mut next = e.clone();
            let mut events = Vec::new();
            for x in removed {
                let (after, more) = element::remove_trait(&next, *x)?;
                next = after;
                events.extend(more);
            }
            Ok((next, events))
        }
        HealEffect::OneShot => {
            if !extras.is_empty() {
                return Err(Error::invalid("effect", "only a wound with no extras turns One-Shot"));
            }
            let modifier_ids: Vec<Uuid> =
                e.modifiers_of(wound).filter(|m| m.template == Some(Template::Wound)).map(|m| m.id).collect();
            let mut next = e.clone();
            let mut events = Vec::new();
            for m in modifier_ids {
                let (after, more) = element::remove_trait(&next, m)?;
                next = after;
                events.extend(more);
            }
            if !has_modifier(&next, wound, Template::OneShot) {
                let (after, more) = element::add_trait(&next, &modifier(wound, Template::OneShot), Uuid::nil())?;
                next = after;
                events.extend(more);
            }
            Ok((next, events))
        }
    }
}

pub(super) fn complicate(
    ch: &mut Challenge,
    t: &mut Table,
    goal: Uuid,
    text: &str,
    events: &mut Vec<ChallengeEvent>,
) -> Result<()> {
    ch.expect(&[Phase::Rounds, Phase::Perks], "a complication counters a Push")?;
    if ch.open.first().is_some_and(|&a| !ch.actions[a].declared.is_empty()) {
        return Err(Error::invalid("move", "a complication waits until the declared perks settle"));
    }
    let text = clean_text("text", text)?;
    if text.is_empty() {
        return Err(Error::invalid("text", "describe why the task is not finished yet"));
    }
    let Some(i) = ch.counterable.iter().rposition(|p| p.goal == goal) else {
        return Err(Error::invalid("goal", "no Push on this goal can be countered now"));
    };
    let trump = ch.counterable[i].trump;
    if t.get("goal", goal)?.trait_by_id(trump).is_none() {
        return Err(Error::invalid("goal", "the trump this Push added is already gone"));
    }
    ruin(t, "goal", goal, trump, events)?;
    ch.counterable.remove(i);
    events.push(ChallengeEvent::Complicated { goal, trump, text });
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Tempting Target (Adversity Debt)

impl PerkUse {
    /// The element a harmful perk (one that hinders, exposes, binds, wounds or ruins)
    /// targets; None for a perk that helps or finds.
    pub fn harms(&self) -> Option<Uuid> {
        match self {
            PerkUse::Hinder { target, .. }
            | PerkUse::Expose { target, .. }
            | PerkUse::Bind { target, .. }
            | PerkUse::Damage { target, .. } => Some(*target),
            PerkUse::Ruin { goal } => Some(*goal),
            _ => None,
        }
    }
}

/// Tempting Target: a harmful perk of `action` targets `target`, who owes adversity debt;
/// the action's challenger (who set the perk) gains 1 adversity and the target pays off 1
/// debt. Each harmful perk on the target offers it once: `used` is how many times this
/// action already paid `target`'s debt.
pub fn tempting_target(
    ch: &Challenge,
    action: usize,
    target: Uuid,
    used: u32,
    elements: &[Element],
) -> Result<(Changes, Vec<ChallengeEvent>)> {
    let a = ch.actions.get(action).ok_or_else(|| Error::invalid("action", format!("there is no action {action}")))?;
    let mut t = Table::new(elements);
    let debtor = t.get("target", target)?;
    let name = debtor.name.clone();
    let perks = a.declared.iter().filter(|p| p.harms() == Some(target)).count() as u32;
    if perks == 0 {
        return Err(Error::invalid("target", format!("no harmful perk of this action targets {name}")));
    }
    if used >= perks {
        return Err(Error::invalid(
            "target",
            format!("each harmful perk on {name} pays off its debt once: this action's {perks} already did"),
        ));
    }
    if debtor.adversity_debt == 0 {
        return Err(Error::invalid("target", format!("{name} owes no adversity debt")));
    }
    let mut events = Vec::new();
    t.change("action", a.challenger, &mut events, |e| element::gain_adversity(e, 1))?;
    t.change("target", target, &mut events, |e| element::pay_off_debt(e, 1, element::DebtPayoff::TemptingTarget))?;
    Ok((t.changes(), events))
}
