//! Rest & Recuperation: the restorative actions outside challenges (RULES.md §3.4).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::challenge::{has_modifier, heal_wound, HealEffect};
use super::element::{self, Element, ElementEvent, Template, TraitKind};
use crate::error::{Error, Result};

// ---------------------------------------------------------------------------------------
// Rest & recuperation

/// Whether a Vicious Wound's Recovery Check was met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryCheck {
    /// No check was made.
    #[default]
    NotMade,
    /// The action check to recover succeeded.
    Passed,
    /// The character took triple the time: no check is needed.
    AmpleTime,
}

fn outside(e: &Element) -> Result<()> {
    if e.in_challenge {
        return Err(Error::invalid(
            "element",
            format!("{} is in a challenge: restorative actions are for after it", e.name),
        ));
    }
    Ok(())
}

/// Take Breather: Recover without the "gained during this challenge" limit — removes a flaw
/// with the One-Shot and Transient Flaw modifiers.
pub fn take_breather(element: &Element, flaw: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    outside(element)?;
    if !element.trait_by_id(flaw).is_some_and(|t| t.kind == TraitKind::Flaw) {
        return Err(Error::invalid("flaw", format!("{} has no flaw {flaw}", element.name)));
    }
    if !(has_modifier(element, flaw, Template::OneShot) && has_modifier(element, flaw, Template::TransientFlaw)) {
        return Err(Error::invalid(
            "flaw",
            "a breather shakes off a flaw with the One-Shot and Transient Flaw modifiers",
        ));
    }
    element::remove_trait(element, flaw)
}

/// Escape Restraints: Break Free with no new flaw — removes a Transient restraint.
pub fn escape_restraints(element: &Element, restraint: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    outside(element)?;
    if !element.restraints().any(|r| r.id == restraint) {
        return Err(Error::invalid("restraint", format!("{} has no restraint {restraint}", element.name)));
    }
    if !has_modifier(element, restraint, Template::TransientFlaw) {
        return Err(Error::invalid("restraint", "only a restraint with the Transient Flaw modifier is escaped"));
    }
    element::remove_trait(element, restraint)
}

/// Treat Wounds: Heal without the "gained during this challenge" limit. A wound with a
/// Vicious Wound extra needs a passed Recovery Check or triple the time.
pub fn treat_wounds(
    element: &Element,
    wound: Uuid,
    effect: &HealEffect,
    recovery: RecoveryCheck,
) -> Result<(Element, Vec<ElementEvent>)> {
    outside(element)?;
    let vicious = element.extras_of(wound).any(|x| x.template == Some(Template::ViciousWound));
    if vicious && recovery == RecoveryCheck::NotMade {
        return Err(Error::invalid(
            "recovery",
            "a Vicious Wound needs a Recovery Check first (or triple the time to skip it)",
        ));
    }
    heal_wound(element, wound, effect)
}
