//! An element's traits (added, edited, removed, used) and its edge slots.

use super::*;

/// Adds a trait. `by` is the player adding it: a claimed element's slots are filled only by
/// its claimer. Unexpected edges and boons come through [`spend_adversity`] and
/// [`spend_momentum`], not here.
pub fn add_trait(element: &Element, new: &Trait, by: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    if matches!(new.via, Via::UnexpectedEdge | Via::Boon) {
        return Err(Error::invalid(
            "via",
            "unexpected edges are bought with adversity and boons with momentum, not added directly",
        ));
    }
    if new.fills_slot() {
        sealed(element, by, "fill its edge slots")?;
    }
    if new.template == Some(Template::SignatureFlaw) {
        return add_signature_flaw(element, new);
    }
    insert_trait(element, new.clone())
}

/// Mixed into a Signature Flaw's id to make the ids of the three traits it grants, so the
/// grant stays pure and is the same each time it is computed.
const SIGNATURE_SALTS: [u128; 3] = [
    0x7369_676e_6174_7572_6520_666c_6177_0001,
    0x7369_676e_6174_7572_6520_666c_6177_0002,
    0x7369_676e_6174_7572_6520_666c_6177_0003,
];

/// The ids of the flaw, the Favored Flaw and its Empowering Flaw a Signature Flaw grants.
pub fn signature_grant_ids(signature: Uuid) -> [Uuid; 3] {
    SIGNATURE_SALTS.map(|salt| Uuid::from_u128(signature.as_u128() ^ salt))
}

/// A Signature Flaw: its set-up names the flaw. The seed: it cannot be gained while the owner
/// already has that flaw; its owner gains the flaw and a Favored Flaw on it with the Empowering
/// Flaw extra. All three are granted by it, so they go when it goes (and with its undo).
/// Ruling: the flaw is the table's own flaw named by the set-up, and the owner "has" a flaw
/// when one of its flaws bears that name (case aside).
fn add_signature_flaw(element: &Element, new: &Trait) -> Result<(Element, Vec<ElementEvent>)> {
    let flaw_name = clean_name("properties.set_up", &new.properties.set_up)
        .map_err(|_| Error::invalid("properties.set_up", "a Signature Flaw names the flaw it selects in its set-up"))?;
    let same = |t: &&Trait| t.kind == TraitKind::Flaw && t.name.trim().to_lowercase() == flaw_name.to_lowercase();
    if let Some(had) = element.traits.iter().find(same) {
        return Err(Error::invalid(
            "properties.set_up",
            format!("{} already has the flaw {}: a Signature Flaw cannot select it", element.name, had.name),
        ));
    }
    let [flaw_id, favored_id, empowering_id] = signature_grant_ids(new.id);
    let granted = |t: Trait| Trait { granted_by: Some(new.id), ..t };
    let favored_name: String =
        format!("Favored Flaw: {flaw_name}").chars().take(crate::model::MAX_NAME_CHARS).collect();
    let grants = [
        granted(Trait::new(flaw_id, TraitKind::Flaw, &flaw_name, Via::Granted)),
        granted(Trait::from_template(favored_id, Template::FavoredFlaw, favored_name.trim(), Via::Granted).on(flaw_id)),
        granted(
            Trait::from_template(empowering_id, Template::EmpoweringFlaw, "Empowering Flaw", Via::Granted)
                .on(favored_id),
        ),
    ];
    let (mut next, mut events) = insert_trait(element, new.clone())?;
    for t in grants {
        let (added, more) = insert_trait(&next, t)?;
        next = added;
        events.extend(more);
    }
    Ok((next, events))
}

// ---------------------------------------------------------------------------------------
// Asset access

/// The id of the Favored Flaw an Asset's lost access grants: derived from the Asset's.
pub fn lost_access_id(asset: Uuid) -> Uuid {
    Uuid::from_u128(asset.as_u128() ^ 0x6c6f_7374_2061_6363_6573_7320_2121_2121)
}

/// The owner lost access to what its Asset `asset` selects: it gains the Favored Flaw edge
/// for that lost access (granted by the Asset: losing the Asset loses it too). Refused when
/// the access is already lost. The seed's exception (reclaimed by a simple normal action)
/// is the table's call: it then does not record the loss.
pub fn lose_asset_access(element: &Element, asset: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    let a = element.find_trait("trait_id", asset)?;
    if a.template != Some(Template::Asset) {
        return Err(Error::invalid("trait_id", format!("{} is not an Asset", a.name)));
    }
    if element.trait_by_id(lost_access_id(asset)).is_some() {
        return Err(Error::invalid("trait_id", format!("{} already lost access to {}", element.name, a.name)));
    }
    let name: String = format!("Favored Flaw: lost {}", a.name).chars().take(crate::model::MAX_NAME_CHARS).collect();
    let favored = Trait {
        granted_by: Some(asset),
        ..Trait::from_template(lost_access_id(asset), Template::FavoredFlaw, name.trim(), Via::Granted).on(asset)
    };
    insert_trait(element, favored)
}

/// The owner has its Asset's access back: the Favored Flaw the loss granted goes.
pub fn regain_asset_access(element: &Element, asset: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    let a = element.find_trait("trait_id", asset)?;
    if element.trait_by_id(lost_access_id(asset)).is_none() {
        return Err(Error::invalid("trait_id", format!("{} has not lost access to {}", element.name, a.name)));
    }
    Ok(remove_all(element, &[lost_access_id(asset)], Removal::Removed))
}

/// Checks a new trait against the element and its rules, and adds it.
pub(super) fn insert_trait(element: &Element, mut new: Trait) -> Result<(Element, Vec<ElementEvent>)> {
    new.name = clean_name("name", &new.name)?;
    new.properties = clean_properties(&new.properties)?;
    if element.trait_by_id(new.id).is_some() {
        return Err(Error::invalid("id", format!("{} already has a trait {}", element.name, new.id)));
    }
    if element.traits.len() >= MAX_TRAITS {
        return Err(Error::invalid(
            "id",
            format!("{} holds {MAX_TRAITS} traits, the most an element holds", element.name),
        ));
    }
    check_trait(element, &new)?;
    let mut next = element.clone();
    let event = ElementEvent::TraitAdded {
        element: element.id,
        trait_id: new.id,
        name: new.name.clone(),
        kind: new.kind,
        via: new.via,
    };
    next.traits.push(new);
    Ok((next, vec![event]))
}

/// Every rule a trait must meet on this element (its id and text already checked).
pub(super) fn check_trait(element: &Element, t: &Trait) -> Result<()> {
    let named = |template: Template| t.template == Some(template);
    if let Some(template) = t.template {
        if template.kind() != t.kind {
            return Err(Error::invalid(
                "kind",
                format!("a {} is a {:?}, not a {:?}", template.word(), template.kind(), t.kind),
            ));
        }
    }
    if t.uses_left == Some(0) {
        return Err(Error::invalid("uses_left", "a trait of limited uses has at least 1"));
    }
    if let Some(g) = t.granted_by {
        element.find_trait("granted_by", g)?;
    }
    match t.via {
        Via::EdgeSlot => {
            if !matches!(t.kind, TraitKind::Edge | TraitKind::Extra) {
                return Err(Error::invalid("via", "only edges (and extras bought as edges) fill edge slots"));
            }
            if named(Template::Trump) {
                return Err(Error::invalid("via", "a trump cannot be bought with an edge slot"));
            }
            if t.lasts != Lasts::Lasting || t.uses_left.is_some() {
                return Err(Error::invalid("lasts", "an edge in a slot lasts until it is lost"));
            }
            if element.free_slots() == 0 {
                return Err(Error::invalid(
                    "via",
                    format!(
                        "{} has no free edge slot ({} of {} filled)",
                        element.name,
                        element.filled_slots(),
                        element.edge_slots()
                    ),
                ));
            }
        }
        Via::FreeExtra => {
            let associated = t.target_trait.and_then(|a| element.trait_by_id(a));
            if t.kind != TraitKind::Extra
                || !associated.is_some_and(|a| matches!(a.template, Some(Template::Ability | Template::Resistance)))
            {
                return Err(Error::invalid("via", "only an extra of an Ability or Resistance comes free"));
            }
            let a = t.target_trait.unwrap_or_default();
            if element.extras_of(a).any(|e| e.via == Via::FreeExtra) {
                return Err(Error::invalid("via", "this trait already has its free extra"));
            }
        }
        Via::UnexpectedEdge | Via::Boon => {
            if t.kind != TraitKind::Edge {
                return Err(Error::invalid("kind", "unexpected edges and boons are edges"));
            }
        }
        Via::Granted => {}
    }
    // Attached traits.
    let target = match t.target_trait {
        Some(id) if id == t.id => return Err(Error::invalid("target_trait", "a trait cannot target itself")),
        Some(id) => Some(element.find_trait("target_trait", id)?),
        None => None,
    };
    match t.kind {
        TraitKind::Extra => {
            let Some(a) = target else {
                return Err(Error::invalid("target_trait", "an extra is attached to its associated trait"));
            };
            if let Some(template) = t.template {
                check_extra(element, template, a)?;
            }
        }
        TraitKind::Modifier => {
            let Some(a) = target else {
                return Err(Error::invalid("target_trait", "a modifier names the trait it modifies"));
            };
            let wanted: &[TraitKind] = match t.template {
                Some(Template::OneShot) => &[TraitKind::Edge, TraitKind::Flaw],
                Some(Template::TransientFlaw | Template::Wound) => &[TraitKind::Flaw],
                Some(Template::TreacherousEdge | Template::PhantomEdge) => &[TraitKind::Edge],
                _ => &[TraitKind::Edge, TraitKind::Flaw, TraitKind::Modifier, TraitKind::Extra],
            };
            if !wanted.contains(&a.kind) {
                return Err(Error::invalid(
                    "target_trait",
                    format!(
                        "{} modifies a trait of kind {wanted:?}, not {:?}",
                        t.template.map_or("this modifier", Template::word),
                        a.kind
                    ),
                ));
            }
            if let Some(template) = t.template {
                if element.has_attached(a.id, template) {
                    return Err(Error::invalid("target_trait", format!("{} already has {}", a.name, template.word())));
                }
            }
        }
        TraitKind::Edge | TraitKind::Flaw => {}
    }
    // The named traits' requirements.
    match t.template {
        Some(Template::PlotProtection)
            if element.traits.iter().any(|u| u.template == Some(Template::PlotProtection)) =>
        {
            return Err(Error::invalid(
                "template",
                format!("{} already has Plot Protection (one at a time)", element.name),
            ));
        }
        Some(Template::Trump) if element.kind != ElementKind::Goal => {
            return Err(Error::invalid("template", "only goals gain trumps"));
        }
        Some(tpl @ (Template::Attractant | Template::Repellent)) => {
            let other = if tpl == Template::Attractant { Template::Repellent } else { Template::Attractant };
            let selected = t.properties.set_up.trim().to_lowercase();
            if element
                .traits
                .iter()
                .any(|u| u.template == Some(other) && u.properties.set_up.trim().to_lowercase() == selected)
            {
                return Err(Error::invalid(
                    "properties.set_up",
                    format!("{} already has a {} for this selection", element.name, other.word()),
                ));
            }
        }
        Some(Template::FavoredFlaw) => {
            if let Some(a) = target {
                if element
                    .traits
                    .iter()
                    .any(|u| u.template == Some(Template::FavoredFlaw) && u.target_trait == Some(a.id))
                {
                    return Err(Error::invalid("target_trait", format!("{} already has a Favored Flaw", a.name)));
                }
            }
        }
        Some(Template::DulledEdge) => {
            let Some(a) = target.filter(|a| a.kind == TraitKind::Edge || a.kind == TraitKind::Extra) else {
                return Err(Error::invalid("target_trait", "a Dulled Edge selects an edge (or an extra) of its owner"));
            };
            // seed: "If the target edge has an extra or dependent trait without a Dulled Edge
            // flaw, this flaw must target one of them instead." Ruling: a dependent trait is
            // an edge the target edge granted and whose loss takes it away (a Background's
            // phantom edge, a Signature Flaw's Favored Flaw…: `granted_by`); a flaw it
            // granted is no edge to dull.
            let undulled: Vec<&Trait> = element
                .traits
                .iter()
                .filter(|u| {
                    let extra = u.target_trait == Some(a.id) && u.kind == TraitKind::Extra;
                    let dependent = u.granted_by == Some(a.id) && u.kind == TraitKind::Edge;
                    (extra || dependent) && !element.is_dulled(u.id)
                })
                .collect();
            if let Some(first) = undulled.first() {
                let what = if first.kind == TraitKind::Extra { "an extra" } else { "a dependent trait" };
                return Err(Error::invalid(
                    "target_trait",
                    format!(
                        "{} has {what} without a Dulled Edge ({}): the flaw must target it instead",
                        a.name, first.name
                    ),
                ));
            }
            if element.is_dulled(a.id) {
                return Err(Error::invalid("target_trait", format!("{} is already dulled", a.name)));
            }
        }
        Some(Template::ImpairedAbility) if target.is_some_and(|a| a.template != Some(Template::Ability)) => {
            return Err(Error::invalid("target_trait", "an Impaired Ability selects an Ability"));
        }
        _ => {}
    }
    if t.kind == TraitKind::Edge && target.is_some() && !matches!(t.template, Some(Template::FavoredFlaw) | None) {
        return Err(Error::invalid(
            "target_trait",
            format!("a {} does not select a trait", t.template.map_or("", Template::word)),
        ));
    }
    Ok(())
}

/// The requirements of an extra made from `template` attached to `a`.
pub(super) fn check_extra(element: &Element, template: Template, a: &Trait) -> Result<()> {
    let wrong = |what: &str| Error::invalid("target_trait", format!("{} is an extra of {what}", template.word()));
    if template.is_wound_extra() {
        if !element.is_wound(a.id) {
            return Err(wrong("a wound (a flaw with the Wound modifier)"));
        }
        match template {
            Template::CorrosiveWound if a.template != Some(Template::DulledEdge) => {
                return Err(wrong("a wound made with the Dulled Edge template"));
            }
            Template::TargetedWound if a.template != Some(Template::ImpairedAbility) => {
                return Err(wrong("a wound made with the Impaired Ability template"));
            }
            Template::PervasiveWound if !element.has_attached(a.id, Template::TargetedWound) => {
                return Err(wrong("a wound with the Targeted Wound extra"));
            }
            _ => {}
        }
        return Ok(());
    }
    let allowed = template.extra_for();
    if !a.template.is_some_and(|at| allowed.contains(&at)) {
        let names: Vec<&str> = allowed.iter().map(|t| t.word()).collect();
        return Err(wrong(&format!("an {}", names.join(" or "))));
    }
    let others = element.extras_of(a.id).count();
    match template {
        Template::Focused if element.has_attached(a.id, Template::Focused) => {
            Err(Error::invalid("target_trait", format!("{} already has its one Focused extra", a.name)))
        }
        Template::CrossTraining if !element.has_attached(a.id, Template::Specialty) => {
            Err(Error::invalid("target_trait", format!("Cross Training needs a Specialty extra on {}", a.name)))
        }
        Template::ExtraordinaryAbility if others < 1 => {
            Err(Error::invalid("target_trait", format!("Extraordinary Ability needs another extra on {}", a.name)))
        }
        Template::Specialty if others < 2 => {
            Err(Error::invalid("target_trait", format!("Specialty needs 2 other extras on {}", a.name)))
        }
        _ => Ok(()),
    }
}

/// Edits a trait's name and properties (its kind, template and way of coming stay).
pub fn edit_trait(
    element: &Element,
    trait_id: Uuid,
    name: &str,
    properties: &Properties,
    by: Uuid,
) -> Result<(Element, Vec<ElementEvent>)> {
    let old = element.find_trait("trait", trait_id)?;
    if old.fills_slot() {
        sealed(element, by, "change the edges in its slots")?;
    }
    if old.template == Some(Template::SignatureFlaw) && properties.set_up.trim() != old.properties.set_up.trim() {
        return Err(Error::invalid(
            "properties.set_up",
            "a Signature Flaw's flaw was granted with it: remove it and add it again to select another",
        ));
    }
    let mut edited = old.clone();
    edited.name = clean_name("name", name)?;
    edited.properties = clean_properties(properties)?;
    let mut next = element.clone();
    next.traits.retain(|t| t.id != trait_id);
    check_trait(&next, &edited)?;
    next.traits = element.traits.iter().map(|t| if t.id == trait_id { edited.clone() } else { t.clone() }).collect();
    Ok((next, vec![ElementEvent::TraitChanged { element: element.id, trait_id }]))
}

/// Why a trait went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// Lost or removed by the table.
    Removed,
    /// The trait it was attached to, or granted by, went.
    Dependent,
    /// Its last use (One-Shot, a boon of uses).
    UsedUp,
    /// Its time ran out (scene, challenge, arc).
    Expired,
}

/// Removes a trait and everything attached to it; the slots they filled are free again.
pub fn remove_trait(element: &Element, trait_id: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    element.find_trait("trait", trait_id)?;
    Ok(remove_all(element, &[trait_id], Removal::Removed))
}

/// Removes `ids` (with `reason`) and, transitively, their dependents.
pub(super) fn remove_all(element: &Element, ids: &[Uuid], reason: Removal) -> (Element, Vec<ElementEvent>) {
    let mut gone: Vec<(Uuid, Removal)> = ids.iter().map(|&id| (id, reason)).collect();
    let mut i = 0;
    while i < gone.len() {
        let id = gone[i].0;
        for t in &element.traits {
            let attached = t.target_trait == Some(id) && t.template != Some(Template::ImpairedAbility);
            if (attached || t.granted_by == Some(id)) && !gone.iter().any(|(g, _)| *g == t.id) {
                gone.push((t.id, Removal::Dependent));
            }
        }
        i += 1;
    }
    let mut next = element.clone();
    let mut events = Vec::new();
    for t in &element.traits {
        if let Some((_, why)) = gone.iter().find(|(g, _)| *g == t.id) {
            events.push(ElementEvent::TraitRemoved {
                element: element.id,
                trait_id: t.id,
                name: t.name.clone(),
                reason: *why,
                freed_slot: t.fills_slot(),
            });
        }
    }
    next.traits.retain(|t| !gone.iter().any(|(g, _)| *g == t.id));
    next.carried.retain(|f| !gone.iter().any(|(g, _)| g == f));
    for t in &mut next.traits {
        if t.target_trait.is_some_and(|target| gone.iter().any(|(g, _)| *g == target)) {
            t.target_trait = None; // an Impaired Ability whose ability went
        }
    }
    (next, events)
}

/// A trait was used: a trait of limited uses loses one and goes at 0; a trait with the
/// One-Shot modifier goes. A dulled edge cannot be used.
pub fn use_trait(element: &Element, trait_id: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    let t = element.find_trait("trait", trait_id)?;
    if element.is_dulled(trait_id) {
        return Err(Error::invalid("trait", format!("{} is dulled: it cannot be used until the flaw goes", t.name)));
    }
    if element.is_treacherous(trait_id) {
        return Err(Error::invalid(
            "trait",
            format!("{} has the Treacherous Edge modifier: {} cannot use it", t.name, element.name),
        ));
    }
    let one_shot = element.modifiers_of(trait_id).any(|m| m.template == Some(Template::OneShot));
    let uses_left = t.uses_left.map(|n| n.saturating_sub(1));
    let used = ElementEvent::TraitUsed { element: element.id, trait_id, uses_left };
    if one_shot || uses_left == Some(0) {
        let (next, mut events) = remove_all(element, &[trait_id], Removal::UsedUp);
        events.insert(0, used);
        return Ok((next, events));
    }
    let mut next = element.clone();
    if let Some(t) = next.traits.iter_mut().find(|t| t.id == trait_id) {
        t.uses_left = uses_left;
    }
    Ok((next, vec![used]))
}

// ---------------------------------------------------------------------------------------
// Edge slots

/// Gives one of the one-time awards (first action check, first challenge, first claim).
/// Each comes once per element; a second time is refused. Memorable-element awards go
/// through [`award_memorable`].
pub fn award_edge_slots(element: &Element, award: SlotAward) -> Result<(Element, Vec<ElementEvent>)> {
    if matches!(award, SlotAward::Memorable { .. }) {
        return Err(Error::invalid("award", "a memorable-element award is given by a player at the arc's end"));
    }
    grant(element, award)
}

/// A new element enters the story with its first action check's four edge slots (RULES §3.4,
/// decision: granted when it is introduced, so a trait that helps with that check can go in
/// them). The award is recorded, so its first check gives nothing more; an element that
/// already had it is returned as it is.
pub fn introduce(element: &Element) -> (Element, Vec<ElementEvent>) {
    grant(element, SlotAward::FirstActionCheck).unwrap_or_else(|_| (element.clone(), Vec::new()))
}

pub(super) fn grant(element: &Element, award: SlotAward) -> Result<(Element, Vec<ElementEvent>)> {
    if element.awards.has(award) {
        let what = match award {
            SlotAward::FirstActionCheck => "its first action check's slots".to_string(),
            SlotAward::FirstChallenge => "its first challenge's slots".to_string(),
            SlotAward::FirstClaim => "its first claim's slots".to_string(),
            SlotAward::Memorable { arc } => format!("a memorable-element award in arc {arc}"),
        };
        return Err(Error::invalid("award", format!("{} already had {what}", element.name)));
    }
    let mut next = element.clone();
    match award {
        SlotAward::FirstActionCheck => next.awards.first_action_check = true,
        SlotAward::FirstChallenge => next.awards.first_challenge = true,
        SlotAward::FirstClaim => next.awards.first_claim = true,
        SlotAward::Memorable { .. } if element.awards.memorable_arcs.len() >= MAX_MEMORABLE_ARCS => {
            return Err(Error::invalid(
                "award",
                format!("{} already had {MAX_MEMORABLE_ARCS} memorable-element awards, the most kept", element.name),
            ));
        }
        SlotAward::Memorable { arc } => {
            next.awards.memorable_arcs.push(arc);
            next.awards.memorable_arcs.sort_unstable();
        }
    }
    let event = ElementEvent::EdgeSlotsAwarded {
        element: element.id,
        award,
        slots: award.slots(),
        before: element.edge_slots(),
        after: next.edge_slots(),
    };
    Ok((next, vec![event]))
}

/// At the end of arc `arc`, `player` gives `element` a memorable-element award: 1 edge slot,
/// once per element per arc. `undisputable` uses the player's one undisputable award of the
/// arc; any other award stood up to the table's dispute first.
pub fn award_memorable(
    element: &Element,
    player: &Player,
    arc: u32,
    undisputable: bool,
) -> Result<(Element, Player, Vec<ElementEvent>)> {
    if undisputable && player.free_award_arc == Some(arc) {
        return Err(Error::invalid(
            "undisputable",
            format!("{} already gave their undisputable award of arc {arc}", player.name),
        ));
    }
    let (next, mut events) = grant(element, SlotAward::Memorable { arc })?;
    let mut next_player = player.clone();
    if undisputable {
        next_player.free_award_arc = Some(arc);
        events.push(ElementEvent::FreeAwardUsed { player: player.id, arc });
    }
    Ok((next, next_player, events))
}

// ---------------------------------------------------------------------------------------
// Specialty

/// The source's minor perks, by name: a Specialty's set-up names its two selected perks in
/// words, and these are the ones that make a minor perk among them.
pub const MINOR_PERKS: [&str; 4] = ["Hinder", "Recover", "Discover", "Expose"];

/// A Specialty extra none of whose selections is a minor perk: its owner's number rolled is
/// 1 lower when it rolls only well enough for a minor perk ([`super::super::action_check::resolve`]).
/// Ruling: the two selections are the set-up's words (RULES.md §3.1: set-up choices are the
/// trait's text), so a set-up naming none of the four minor perks has none.
pub fn specialty_lacks_minor_perk(t: &Trait) -> bool {
    if t.template != Some(Template::Specialty) {
        return false;
    }
    let words: Vec<String> = t
        .properties
        .set_up
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    !MINOR_PERKS.iter().any(|p| words.iter().any(|w| *w == p.to_lowercase()))
}

// ---------------------------------------------------------------------------------------
// Empowering Gift

/// The id of the edge `gift` (an Empowering Gift) lends to `target`: derived from both, so
/// the lent edge names its gift and every lending is found from the elements alone.
pub fn lent_edge_id(gift: Uuid, target: Uuid) -> Uuid {
    Uuid::from_u128(gift.as_u128() ^ target.as_u128().rotate_left(17) ^ 0x6769_6674_206c_656e_7420_6564_6765_2121)
}

/// The elements `owner`'s Empowering Gift `gift` lends its edge to now.
pub fn gift_targets(gift: Uuid, elements: &[Element]) -> Vec<Uuid> {
    elements.iter().filter(|e| e.trait_by_id(lent_edge_id(gift, e.id)).is_some()).map(|e| e.id).collect()
}

/// `owner`'s Empowering Gift `gift` lends its selected edge (its set-up, or its name) to
/// `target`, which gains it as a granted edge ("lasts until the end of the scene" with a
/// Lingering Gift; otherwise while the two keep contact, which the table ends with
/// [`take_back_gift`]). `elements` are every element of the story, to find what is lent.
/// The seed's limits, refused by name: only one Empowering Gift of an owner lent out at a
/// time; the owner itself only with Empower Self; each Shared Gift doubles the targets of one
/// gift. Each Asset Investment whose edge the owner holds ([`invest`]: the owner is that
/// asset's selected element) lets it lend one more Empowering Gift at a time.
pub fn lend_gift(
    owner: &Element,
    gift: Uuid,
    target: &Element,
    elements: &[Element],
) -> Result<(Element, Vec<ElementEvent>)> {
    let g = owner.find_trait("trait_id", gift)?;
    if g.template != Some(Template::EmpoweringGift) {
        return Err(Error::invalid("trait_id", format!("{} is not an Empowering Gift", g.name)));
    }
    if owner.is_dulled(gift) || owner.is_treacherous(gift) {
        return Err(Error::invalid("trait_id", format!("{} cannot be used now", g.name)));
    }
    if target.id == owner.id && !owner.has_attached(gift, Template::EmpowerSelf) {
        return Err(Error::invalid(
            "target",
            format!("{} lends {} to another element (Empower Self would allow its owner)", owner.name, g.name),
        ));
    }
    let targets = gift_targets(gift, elements);
    if targets.contains(&target.id) {
        return Err(Error::invalid("target", format!("{} already has {}'s {}", target.name, owner.name, g.name)));
    }
    let lent_others: Vec<&Trait> = owner
        .traits
        .iter()
        .filter(|t| t.template == Some(Template::EmpoweringGift) && t.id != gift)
        .filter(|t| !gift_targets(t.id, elements).is_empty())
        .collect();
    let at_once = 1 + investments_in(owner, elements);
    if targets.is_empty() && lent_others.len() >= at_once {
        let names = lent_others.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ");
        let problem = if at_once == 1 {
            format!("only one Empowering Gift is lent out at a time, and {}'s {names} is", owner.name)
        } else {
            format!(
                "{} lends {at_once} Empowering Gifts at a time (one and its Asset Investments), and {names} are lent",
                owner.name
            )
        };
        return Err(Error::invalid("trait_id", problem));
    }
    let shared = owner.extras_of(gift).filter(|t| t.template == Some(Template::SharedGift)).count() as u32;
    let most = 1u64 << shared.min(32);
    if targets.len() as u64 >= most {
        return Err(Error::invalid(
            "target",
            format!(
                "{} is lent to {} already, as many targets as it has (each Shared Gift doubles them)",
                g.name,
                targets.len()
            ),
        ));
    }
    let name = if g.properties.set_up.trim().is_empty() { g.name.clone() } else { g.properties.set_up.clone() };
    let name: String = name.chars().take(crate::model::MAX_NAME_CHARS).collect();
    let lingering = owner.has_attached(gift, Template::LingeringGift);
    let mut lent = Trait::new(lent_edge_id(gift, target.id), TraitKind::Edge, name.trim(), Via::Granted);
    lent.lasts = if lingering { Lasts::Scene } else { Lasts::Lasting };
    lent.properties.details = format!("Lent by {}'s Empowering Gift {}.", owner.name, g.name);
    insert_trait(target, lent)
}

/// The edge `gift` lent to `target` goes back (contact ended, or the owner lends it elsewhere).
pub fn take_back_gift(gift: Uuid, target: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    remove_given(target, lent_edge_id(gift, target.id), "lent by this gift")
}

/// The edge `id` another element gave `target` goes; refused when `target` holds none
/// (`given`: how it was given, for the message).
fn remove_given(target: &Element, id: Uuid, given: &str) -> Result<(Element, Vec<ElementEvent>)> {
    if target.trait_by_id(id).is_none() {
        return Err(Error::invalid("target", format!("{} holds no edge {given}", target.name)));
    }
    Ok(remove_all(target, &[id], Removal::Removed))
}

// ---------------------------------------------------------------------------------------
// Asset Investment

/// The id of the edge Asset Investment `investment` grants the asset's selected element
/// `selected`: derived from both, so every investment is found from the elements alone.
pub fn invested_edge_id(investment: Uuid, selected: Uuid) -> Uuid {
    Uuid::from_u128(
        investment.as_u128() ^ selected.as_u128().rotate_left(29) ^ 0x6173_7365_7420_696e_7665_7374_6d65_6e74,
    )
}

/// The element Asset Investment `investment` is invested in now, if any.
pub fn invested_in(investment: Uuid, elements: &[Element]) -> Option<Uuid> {
    elements.iter().find(|e| e.trait_by_id(invested_edge_id(investment, e.id)).is_some()).map(|e| e.id)
}

/// How many Asset Investments of the story's elements `element` holds the edge of (each lets
/// it lend one more Empowering Gift at a time). An investment lost counts no more.
pub fn investments_in(element: &Element, elements: &[Element]) -> usize {
    elements
        .iter()
        .flat_map(|o| o.traits.iter())
        .filter(|t| t.template == Some(Template::AssetInvestment))
        .filter(|t| element.trait_by_id(invested_edge_id(t.id, element.id)).is_some())
        .count()
}

/// seed:1185-1190, Asset Investment: `owner`'s extra `investment` (on an Asset) is invested
/// in the asset's selected element `selected`, which gains the target edge (the extra's
/// set-up, or its target, or its name) as a granted edge, and may lend one more Empowering
/// Gift at a time ([`lend_gift`]). Refused when the investment is already invested (the seed:
/// its target edge changes only once the selected element loses it) or when the selected
/// element already holds an edge of that name. Ruling: the Asset's selected element is the
/// one the table invests in here (the Asset's set-up is its words).
pub fn invest(
    owner: &Element,
    investment: Uuid,
    selected: &Element,
    elements: &[Element],
) -> Result<(Element, Vec<ElementEvent>)> {
    let inv = owner.find_trait("trait_id", investment)?;
    if inv.template != Some(Template::AssetInvestment) {
        return Err(Error::invalid("trait_id", format!("{} is not an Asset Investment", inv.name)));
    }
    if selected.id == owner.id {
        return Err(Error::invalid("target", format!("{} invests in the asset it selects, not in itself", inv.name)));
    }
    if let Some(already) = invested_in(investment, elements) {
        let name = elements.iter().find(|e| e.id == already).map_or("", |e| e.name.as_str());
        return Err(Error::invalid(
            "trait_id",
            format!("{} is invested in {name}: it changes only once {name} loses its edge", inv.name),
        ));
    }
    let props = &inv.properties;
    let name = [props.set_up.trim(), props.target.trim(), inv.name.trim()]
        .into_iter()
        .find(|n| !n.is_empty())
        .unwrap_or_default();
    let name: String = name.chars().take(crate::model::MAX_NAME_CHARS).collect();
    if selected.traits.iter().any(|t| t.kind == TraitKind::Edge && t.name.trim().eq_ignore_ascii_case(name.trim())) {
        return Err(Error::invalid(
            "target",
            format!(
                "{} already holds “{}”: an investment targets an edge it does not hold",
                selected.name,
                name.trim()
            ),
        ));
    }
    let asset = inv.target_trait.and_then(|a| owner.trait_by_id(a)).map_or("", |a| a.name.as_str());
    let mut edge = Trait::new(invested_edge_id(investment, selected.id), TraitKind::Edge, name.trim(), Via::Granted);
    edge.properties.details = format!("Invested by {}'s Asset {asset} ({}).", owner.name, inv.name);
    insert_trait(selected, edge)
}

/// The edge `investment` granted `selected` goes (the investment lost, or moved after the
/// element lost it).
pub fn divest(investment: Uuid, selected: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    remove_given(selected, invested_edge_id(investment, selected.id), "of this investment")
}

/// seed:1185-1190: the Asset Investments `before` held and `after` does not (removed, or with
/// the Asset they are attached to) take back the edges they granted, and with them the extra
/// gift each allowed: each element of `elements` that held such an edge, without it, with
/// the edge's name and the events.
pub fn investments_lost(
    before: &Element,
    after: &Element,
    elements: &[Element],
) -> Result<Vec<(Element, String, Vec<ElementEvent>)>> {
    let lost = before.traits.iter().filter(|t| t.template == Some(Template::AssetInvestment));
    let lost = lost.filter(|t| after.trait_by_id(t.id).is_none());
    let mut out = Vec::new();
    for investment in lost {
        let Some(held) = invested_in(investment.id, elements) else { continue };
        let Some(selected) = elements.iter().find(|e| e.id == held) else { continue };
        let edge =
            selected.trait_by_id(invested_edge_id(investment.id, held)).map_or(String::new(), |t| t.name.clone());
        let (divested, events) = divest(investment.id, selected)?;
        out.push((divested, edge, events));
    }
    Ok(out)
}

/// seed:1185-1190: `gone` leaves the story, and every Asset Investment it held is lost with
/// it: as [`investments_lost`], each element of `elements` that held such an edge, without it.
pub fn investments_lost_with(
    gone: &Element,
    elements: &[Element],
) -> Result<Vec<(Element, String, Vec<ElementEvent>)>> {
    let emptied = Element { traits: Vec::new(), ..gone.clone() };
    let others: Vec<Element> = elements.iter().filter(|e| e.id != gone.id).cloned().collect();
    investments_lost(gone, &emptied, &others)
}
