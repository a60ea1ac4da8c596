//! An element through challenges, scenes and arcs, and its sacrifices.

use super::*;

// ---------------------------------------------------------------------------------------
// Challenges, scenes, arcs

/// The element joins a challenge: the first time, 4 edge slots; Plot Protection while it
/// takes part (Protected Event); a one-challenge boon (or a claimed stake's trump) now lasts
/// through this challenge; its carried flaws become this challenge's (the challenge reads
/// them first, [`Element::carried`]).
pub fn join_challenge(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    if element.in_challenge {
        return Err(Error::invalid("element", format!("{} is already in a challenge", element.name)));
    }
    let mut next = element.clone();
    next.in_challenge = true;
    next.carried.clear();
    for t in &mut next.traits {
        if t.lasts == Lasts::NextChallenge {
            t.lasts = Lasts::Challenge;
        }
    }
    let mut events = vec![ElementEvent::JoinedChallenge { element: element.id }];
    if !element.awards.first_challenge {
        let (awarded, more) = grant(&next, SlotAward::FirstChallenge)?;
        next = awarded;
        events.extend(more);
    }
    Ok((next, events))
}

/// A goal enters a challenge (goals do not join as challengers): what a claimed stake left
/// it for its next challenge (a trump) now lasts through this one.
pub fn goal_enters_challenge(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    let mut next = element.clone();
    for t in &mut next.traits {
        if t.lasts == Lasts::NextChallenge {
            t.lasts = Lasts::Challenge;
        }
    }
    Ok((next, Vec::new()))
}

/// A claimed stake's perk gave the element `flaw`: it counts as gained in the next challenge
/// the element joins (kept until then, whatever challenges end before).
pub fn carry_flaw(element: &Element, flaw: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    element.find_trait("flaw", flaw)?;
    let mut next = element.clone();
    if !next.carried.contains(&flaw) {
        next.carried.push(flaw);
    }
    Ok((next, Vec::new()))
}

/// The element leaves the challenge (its Protected Event ends; momentum stays to be spent
/// until the challenge ends).
pub fn leave_challenge(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    if !element.in_challenge {
        return Err(Error::invalid("element", format!("{} is not in a challenge", element.name)));
    }
    let mut next = element.clone();
    next.in_challenge = false;
    Ok((next, vec![ElementEvent::LeftChallenge { element: element.id }]))
}

/// Mixed into a Transient Flaw's id to make the id of the Favored Flaw it grants.
const FAVORED_FLAW_SALT: u128 = 0x6661_766f_7265_6420_666c_6177_2121_2121;

/// The id of the Favored Flaw a Transient Flaw grants: derived from the modifier's.
pub fn favored_flaw_id(transient_flaw: Uuid) -> Uuid {
    Uuid::from_u128(transient_flaw.as_u128() ^ FAVORED_FLAW_SALT)
}

/// The challenge the element took part in is over: unspent momentum is lost and the award
/// count starts again; trumps and one-challenge traits go; sacrificed or lent protection
/// ends; each Transient Flaw grants a Favored Flaw on its flaw. A trump a claimed stake gave
/// (lasting until the end of the next challenge) stays.
pub fn challenge_ended(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    let ending: Vec<Uuid> = element
        .traits
        .iter()
        .filter(|t| {
            t.lasts == Lasts::Challenge || (t.template == Some(Template::Trump) && t.lasts != Lasts::NextChallenge)
        })
        .map(|t| t.id)
        .collect();
    let (mut next, mut events) = remove_all(element, &ending, Removal::Expired);
    events.insert(0, ElementEvent::ChallengeEnded { element: element.id, momentum_lost: element.momentum });
    next.momentum = 0;
    next.momentum_awards = 0;
    next.in_challenge = false;
    next.plot_protection = PlotProtection::default();
    fresh_favored_flaws(&mut next);
    let transients: Vec<(Uuid, Uuid)> = next
        .traits
        .iter()
        .filter(|t| t.template == Some(Template::TransientFlaw))
        .filter_map(|t| t.target_trait.map(|flaw| (t.id, flaw)))
        .collect();
    for (modifier, flaw) in transients {
        let has_one =
            next.traits.iter().any(|t| t.template == Some(Template::FavoredFlaw) && t.target_trait == Some(flaw));
        if has_one {
            continue;
        }
        let name = format!("Favored Flaw: {}", next.trait_by_id(flaw).map_or("", |f| f.name.as_str()));
        let name: String = name.chars().take(crate::model::MAX_NAME_CHARS).collect();
        let favored = Trait {
            granted_by: Some(modifier),
            ..Trait::from_template(favored_flaw_id(modifier), Template::FavoredFlaw, name.trim(), Via::Granted).on(flaw)
        };
        let (added, more) = insert_trait(&next, favored)?;
        next = added;
        events.extend(more);
    }
    Ok((next, events))
}

/// The scene is over: phantom edges go; protection lent by a Heroic Sacrifice outside a
/// challenge ends, and so does the sacrifice.
pub fn end_scene(element: &Element) -> (Element, Vec<ElementEvent>) {
    let ending: Vec<Uuid> = element.traits.iter().filter(|t| t.lasts == Lasts::Scene).map(|t| t.id).collect();
    let (mut next, mut events) = remove_all(element, &ending, Removal::Expired);
    events.insert(0, ElementEvent::SceneEnded { element: element.id });
    // In a challenge, a Favored Flaw's once is the challenge's, which has not ended.
    if !element.in_challenge {
        next.plot_protection = PlotProtection::default();
        fresh_favored_flaws(&mut next);
    }
    (next, events)
}

/// Every Favored Flaw may give adversity again (a new scene or challenge).
fn fresh_favored_flaws(element: &mut Element) {
    for t in &mut element.traits {
        t.favored_used = false;
    }
}

/// `favored`, a Favored Flaw of `element`, was used against it (its flaw worked against its
/// owner): the owner gains 1 adversity (paying debt first), once per challenge or scene.
pub fn favored_flaw_used(element: &Element, favored: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    let t = element
        .trait_by_id(favored)
        .ok_or_else(|| Error::invalid("trait_id", format!("{} has no trait {favored}", element.name)))?;
    if t.template != Some(Template::FavoredFlaw) {
        return Err(Error::invalid("trait_id", format!("{} is not a Favored Flaw", t.name)));
    }
    // Empowering Flaw (a Signature Flaw's grant): no once-per-scene-or-challenge limit.
    if t.favored_used && !element.has_attached(favored, Template::EmpoweringFlaw) {
        let when = if element.in_challenge { "challenge" } else { "scene" };
        return Err(Error::invalid(
            "trait_id",
            format!("{} already gave {} adversity in this {when}", t.name, element.name),
        ));
    }
    let (mut next, gained) = super::resources::gain_adversity(element, 1)?;
    if let Some(t) = next.traits.iter_mut().find(|t| t.id == favored) {
        t.favored_used = true;
    }
    let mut events = vec![ElementEvent::TraitUsed { element: element.id, trait_id: favored, uses_left: None }];
    events.extend(gained);
    Ok((next, events))
}

/// The arc is over: adversity, debt and momentum are lost, one-arc and one-scene traits go.
pub fn end_arc(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    if element.in_challenge {
        return Err(Error::invalid(
            "element",
            format!("{} is still in a challenge: an arc ends after it", element.name),
        ));
    }
    let (scene_over, scene_events) = end_scene(element);
    let ending: Vec<Uuid> = scene_over.traits.iter().filter(|t| t.lasts == Lasts::Arc).map(|t| t.id).collect();
    let (mut next, more) = remove_all(&scene_over, &ending, Removal::Expired);
    let mut events = vec![ElementEvent::ArcEnded {
        element: element.id,
        adversity_lost: element.adversity,
        debt_lost: element.adversity_debt,
        momentum_lost: element.momentum,
    }];
    events.extend(scene_events);
    events.extend(more);
    next.adversity = 0;
    next.adversity_debt = 0;
    next.momentum = 0;
    next.momentum_awards = 0;
    Ok((next, events))
}

/// The challenge the lender of `element`'s protection took part in is over: the protection
/// lent to it (a bystander: challengers end theirs with [`challenge_ended`]) ends too.
pub fn lent_protection_ends(element: &Element) -> (Element, Vec<ElementEvent>) {
    let mut next = element.clone();
    match next.plot_protection.lent_by.take() {
        Some(from) => (next, vec![ElementEvent::LentProtectionEnded { element: element.id, from }]),
        None => (next, Vec::new()),
    }
}

/// How Plot Protection is sacrificed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sacrifice {
    /// In a challenge: removes every perk of one major action.
    FinalCounter,
    /// Lent to another element until the end of the challenge or scene.
    HeroicSacrifice,
}

pub(super) fn can_sacrifice(element: &Element) -> Result<()> {
    if element.plot_protection.sacrificed {
        return Err(Error::invalid("element", format!("{} already sacrificed its protection", element.name)));
    }
    if !element.has_plot_protection() {
        return Err(Error::invalid("element", format!("{} has no Plot Protection", element.name)));
    }
    Ok(())
}

/// Final Counter: sacrifices the element's protection, in a challenge, to remove the perks
/// of one major action (the challenge removes them).
pub fn final_counter(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    can_sacrifice(element)?;
    if !element.in_challenge {
        return Err(Error::invalid("element", "Final Counter is used during a challenge"));
    }
    let mut next = element.clone();
    next.plot_protection.sacrificed = true;
    Ok((next, vec![ElementEvent::PlotProtectionSacrificed { element: element.id, how: Sacrifice::FinalCounter }]))
}

/// Heroic Sacrifice: `giver` lends its protection to `receiver`.
pub fn heroic_sacrifice(giver: &Element, receiver: &Element) -> Result<(Element, Element, Vec<ElementEvent>)> {
    can_sacrifice(giver)?;
    if giver.id == receiver.id {
        return Err(Error::invalid("receiver", "the protection is lent to another element"));
    }
    let mut next_giver = giver.clone();
    next_giver.plot_protection.sacrificed = true;
    let mut next_receiver = receiver.clone();
    next_receiver.plot_protection.lent_by = Some(giver.id);
    let events = vec![
        ElementEvent::PlotProtectionSacrificed { element: giver.id, how: Sacrifice::HeroicSacrifice },
        ElementEvent::PlotProtectionLent { from: giver.id, to: receiver.id },
    ];
    Ok((next_giver, next_receiver, events))
}
