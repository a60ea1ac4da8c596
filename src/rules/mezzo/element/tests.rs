use proptest::prelude::*;

use super::*;
use crate::rules::test_support::mezzo::{element, player, ADA, BO};
use crate::rules::test_support::{err, id};

const HERO: u128 = 10;
const BLADE: u128 = 11;
const TOWER: u128 = 12;
const QUEST: u128 = 13;

fn actor(n: u128, name: &str) -> Player {
    take_role(&player(n, name), Role::Actor).unwrap().0
}

fn hero() -> Element {
    element(HERO, ElementKind::Character, "Mira")
}

/// Mira with her first action check's 4 slots.
fn hero_with_slots() -> Element {
    award_edge_slots(&hero(), SlotAward::FirstActionCheck).unwrap().0
}

/// Element `n` with its first action check's 4 slots.
fn slotted(n: u128, kind: ElementKind, name: &str) -> Element {
    award_edge_slots(&element(n, kind, name), SlotAward::FirstActionCheck).unwrap().0
}

/// `owner` with the Asset `asset` (trait 80) and an Asset Investment in it (trait 81) whose
/// edge, set up, is "Fire ward".
fn investing_in_fire_ward(owner: &Element, asset: &str) -> Element {
    let owner = with(owner, edge(80, Template::Asset, asset));
    let mut ward = Trait::from_template(id(81), Template::AssetInvestment, "Investment", Via::EdgeSlot).on(id(80));
    ward.properties.set_up = "Fire ward".into();
    with(&owner, ward)
}

fn edge(n: u128, template: Template, name: &str) -> Trait {
    Trait::from_template(id(n), template, name, Via::EdgeSlot)
}

/// A Dulled Edge "Numb", trait `n`, dulling trait `target`.
fn dull(n: u128, target: u128) -> Trait {
    Trait::from_template(id(n), Template::DulledEdge, "Numb", Via::Granted).on(id(target))
}

fn with(element: &Element, t: Trait) -> Element {
    add_trait(element, &t, id(ADA)).unwrap_or_else(|e| panic!("{}: {e}", t.name)).0
}

/// Why Ada may not add `t` to `element`.
fn refused(element: &Element, t: &Trait) -> String {
    err(add_trait(element, t, id(ADA)))
}

fn with_adversity(element: &Element, points: u32) -> Element {
    gain_adversity(element, points).unwrap().0
}

// --- players, votes, claims

#[test]
fn template_all_lists_each_template_once_in_the_order_declared() {
    assert_eq!(Template::ALL.len(), 37);
    assert_eq!((Template::ALL[0], Template::ALL[36]), (Template::Ability, Template::ViciousWound));
    let distinct: std::collections::HashSet<_> = Template::ALL.iter().collect();
    assert_eq!(distinct.len(), Template::ALL.len());
}

#[test]
fn a_player_has_one_free_vote_and_an_actor_three_on_their_characters_and_none_elsewhere() {
    let ada = player(ADA, "Ada");
    assert_eq!(ada.influence, 3);
    assert_eq!(free_votes(&ada, &[], &[]), 1);
    assert_eq!(free_votes(&ada, &[id(HERO)], &[]), 1);

    let ada = actor(ADA, "Ada");
    assert_eq!(free_votes(&ada, &[id(HERO)], &[]), 0, "an Actor without claims votes nowhere");
    let (ada, mira, _) = claim(&ada, &hero()).unwrap();
    assert_eq!(mira.claimed_by, Some(id(ADA)));
    assert_eq!(free_votes(&ada, &[id(HERO)], &[]), 3, "Creative Control");
    assert_eq!(free_votes(&ada, &[id(BLADE)], &[]), 0);
    assert_eq!(free_votes(&ada, &[], &[]), 0);

    // Out of the role (Mira not in the scene) the claim stays but the usual vote returns.
    let (out, _) = leave_role(&ada, Role::Actor, &[]).unwrap();
    assert_eq!(out.claimed, vec![id(HERO)]);
    assert_eq!(free_votes(&out, &[], &[]), 1);
    assert_eq!(free_votes(&out, &[id(HERO)], &[]), 1);
    // Mira active in the scene: back in the role at once.
    assert!(out.is_actor(&[id(HERO)]));
    assert_eq!(free_votes(&out, &[id(HERO)], &[id(HERO)]), 3);
    assert_eq!(free_votes(&out, &[], &[id(HERO)]), 0);
}

#[test]
fn the_actor_role_cannot_be_left_while_a_claimed_character_is_in_the_scene() {
    let (ada, _, _) = claim(&actor(ADA, "Ada"), &hero()).unwrap();
    assert!(err(leave_role(&ada, Role::Actor, &[id(HERO)])).starts_with("role: a character this player claimed"));
    assert!(leave_role(&ada, Role::Actor, &[id(BLADE)]).is_ok());
    assert_eq!(err(take_role(&ada, Role::Actor)), "role: Ada already holds this role");
    assert_eq!(err(leave_role(&player(BO, "Bo"), Role::Actor, &[])), "role: Bo does not hold this role");
}

#[test]
fn only_an_actor_claims_only_an_unclaimed_character_and_the_first_claim_gives_two_slots() {
    let mira = hero();
    assert_eq!(err(claim(&player(ADA, "Ada"), &mira)), "player: Ada must take the Actor role to claim a character");
    let blade = element(BLADE, ElementKind::Object, "Blade");
    assert_eq!(
        err(claim(&actor(ADA, "Ada"), &blade)),
        "element: Blade is not a character: only characters are claimed"
    );

    let (ada, mira, events) = claim(&actor(ADA, "Ada"), &mira).unwrap();
    assert_eq!(mira.edge_slots(), 2);
    assert!(mira.has_plot_protection(), "Character Protection");
    assert_eq!(mira.protection_sources(), vec![ProtectionSource::Claim]);
    assert!(matches!(events[1], ElementEvent::EdgeSlotsAwarded { slots: 2, before: 0, after: 2, .. }));
    assert_eq!(err(claim(&actor(BO, "Bo"), &mira)), "element: Mira is claimed by another player");
    assert_eq!(err(claim(&ada, &mira)), "element: Ada already holds Mira");
    assert_eq!(err(unclaim(&actor(BO, "Bo"), &mira)), "element: Bo does not hold Mira");

    // DEV-7: the protection is the character's; surrendering the claim leaves it the edge,
    // given by play: it fills no slot.
    let (ada, mira, _) = unclaim(&ada, &mira).unwrap();
    assert!(ada.claimed.is_empty());
    assert!(mira.has_plot_protection(), "the character keeps Character Protection as the edge");
    assert_eq!(mira.protection_sources(), vec![ProtectionSource::Edge]);
    let protection = mira.trait_by_id(character_protection_id(id(HERO))).expect("the edge");
    assert_eq!((protection.template, protection.via), (Some(Template::PlotProtection), Via::Granted));
    assert_eq!((mira.filled_slots(), mira.free_slots()), (0, 2));
    let (bo, mira, _) = claim(&actor(BO, "Bo"), &mira).unwrap();
    assert_eq!(bo.claimed, vec![id(HERO)]);
    assert_eq!(mira.edge_slots(), 2, "only the first claim gives slots");
    let protections = mira.traits.iter().filter(|t| t.template == Some(Template::PlotProtection)).count();
    assert_eq!(protections, 1, "no second edge: \"if they don't have it already\"");
}

/// A character with its own Plot Protection edge gains no second one from a claim.
#[test]
fn a_claim_gives_no_second_plot_protection() {
    let mira = with(&hero_with_slots(), edge(20, Template::PlotProtection, "Plot Protection"));
    let (ada, mira, _) = claim(&actor(ADA, "Ada"), &mira).unwrap();
    let (_, mira, _) = unclaim(&ada, &mira).unwrap();
    let protections: Vec<Uuid> =
        mira.traits.iter().filter(|t| t.template == Some(Template::PlotProtection)).map(|t| t.id).collect();
    assert_eq!(protections, vec![id(20)]);
}

#[test]
fn a_claimed_characters_resources_are_sealed_to_its_claimer() {
    let (_, mira, _) = claim(&actor(ADA, "Ada"), &hero_with_slots()).unwrap();
    let mira = with_adversity(&mira, 5);
    let mira = Element { momentum: 2, ..mira };
    let sword = edge(20, Template::Ability, "Swordplay");
    assert_eq!(
        err(add_trait(&mira, &sword, id(BO))),
        "by: Mira is claimed by another player: only they may fill its edge slots"
    );
    assert!(err(spend_adversity(&mira, &AdversitySpend::FortunesFavor, id(BO), false)).contains("spend its adversity"));
    assert!(err(spend_momentum(&mira, &MomentumSpend::LastingEffect, id(BO))).contains("spend its momentum"));
    assert!(add_trait(&mira, &sword, id(ADA)).is_ok());
    assert!(spend_adversity(&mira, &AdversitySpend::FortunesFavor, id(ADA), false).is_ok());
    // A flaw inflicted by play is not a use of its resources.
    let flaw = Trait::from_template(id(21), Template::Restraint, "Pinned", Via::Granted);
    assert!(add_trait(&mira, &flaw, id(BO)).is_ok());
    // An unclaimed element is anyone's.
    assert!(spend_adversity(&with_adversity(&hero(), 2), &AdversitySpend::FortunesFavor, id(BO), false).is_ok());
}

#[test]
fn influence_is_spent_a_point_a_vote_and_back_to_three_each_arc() {
    let ada = player(ADA, "Ada");
    let (ada, _) = spend_influence(&ada, 2).unwrap();
    assert_eq!(ada.influence, 1);
    assert_eq!(err(spend_influence(&ada, 2)), "points: Ada holds 1 influence, not 2");
    let (ada, _) = gain_influence(&ada, 4).unwrap();
    assert_eq!(ada.influence, 5);
    let (ada, events) = start_arc(&ada);
    assert_eq!(ada.influence, 3, "influence does not carry over");
    assert_eq!(events, vec![ElementEvent::InfluenceReset { player: id(ADA), before: 5, after: 3 }]);
}

// --- traits and slots

#[test]
fn an_edge_fills_a_free_slot_and_is_refused_without_one() {
    let sword = edge(20, Template::Ability, "Swordplay");
    assert_eq!(refused(&hero(), &sword), "via: Mira has no free edge slot (0 of 0 filled)");
    let mut mira = hero_with_slots();
    for n in 0..4 {
        mira = with(&mira, Trait::new(id(30 + n), TraitKind::Edge, &format!("Edge {n}"), Via::EdgeSlot));
    }
    assert_eq!((mira.edge_slots(), mira.filled_slots(), mira.free_slots()), (4, 4, 0));
    assert_eq!(refused(&mira, &sword), "via: Mira has no free edge slot (4 of 4 filled)");
    let (mira, events) = remove_trait(&mira, id(31)).unwrap();
    assert!(matches!(events[0], ElementEvent::TraitRemoved { freed_slot: true, reason: Removal::Removed, .. }));
    assert_eq!(mira.free_slots(), 1, "a lost edge frees its slot");
    let mira = with(&mira, sword);
    assert_eq!(mira.free_slots(), 0);
    // Flaws and granted traits take no slot.
    let mira = with(&mira, Trait::from_template(id(40), Template::Vulnerability, "Fire", Via::Granted));
    assert_eq!(mira.filled_slots(), 4);
    let flaw_in_slot = Trait::new(id(41), TraitKind::Flaw, "Greedy", Via::EdgeSlot);
    assert_eq!(
        refused(&hero_with_slots(), &flaw_in_slot),
        "via: only edges (and extras bought as edges) fill edge slots"
    );
}

#[test]
fn abilities_take_one_free_extra_and_their_extras_keep_their_requirements() {
    let mut mira = with(&hero_with_slots(), edge(20, Template::Ability, "Swordplay"));
    let extra =
        |n: u128, template: Template, via: Via| Trait::from_template(id(n), template, template.word(), via).on(id(20));
    // Specialty needs two other extras; Extraordinary Ability one; Cross Training a Specialty.
    assert_eq!(
        refused(&mira, &extra(21, Template::Specialty, Via::FreeExtra)),
        "target_trait: Specialty needs 2 other extras on Swordplay"
    );
    assert!(refused(&mira, &extra(21, Template::ExtraordinaryAbility, Via::FreeExtra)).contains("needs another extra"));
    mira = with(&mira, extra(21, Template::Aptitude, Via::FreeExtra));
    assert_eq!(mira.filled_slots(), 1, "the free extra takes no slot");
    assert_eq!(
        refused(&mira, &extra(22, Template::Focused, Via::FreeExtra)),
        "via: this trait already has its free extra"
    );
    assert!(
        refused(&mira, &extra(22, Template::CrossTraining, Via::EdgeSlot)).contains("Cross Training needs a Specialty")
    );
    mira = with(&mira, extra(22, Template::Focused, Via::EdgeSlot));
    assert_eq!(mira.filled_slots(), 2, "an extra bought as an edge fills a slot");
    assert_eq!(
        refused(&mira, &extra(23, Template::Focused, Via::EdgeSlot)),
        "target_trait: Swordplay already has its one Focused extra"
    );
    mira = with(&mira, extra(23, Template::Specialty, Via::EdgeSlot));
    mira = with(&mira, extra(24, Template::CrossTraining, Via::EdgeSlot));
    assert_eq!(mira.extras_of(id(20)).count(), 4);
    // An extra of another template does not fit.
    assert_eq!(
        refused(&mira, &extra(25, Template::Fortified, Via::Granted)),
        "target_trait: Fortified is an extra of an Resistance"
    );
    // Losing the ability takes its extras and frees their slots.
    let (mira, events) = remove_trait(&mira, id(20)).unwrap();
    assert!(mira.traits.is_empty());
    assert_eq!(events.len(), 5);
    assert_eq!(mira.free_slots(), 4);
}

#[test]
fn named_traits_keep_their_requirements() {
    let mira = hero_with_slots();
    // Plot Protection: one at a time.
    let mira = with(&mira, edge(20, Template::PlotProtection, "Plot Protection"));
    assert_eq!(
        refused(&mira, &edge(21, Template::PlotProtection, "Again")),
        "template: Mira already has Plot Protection (one at a time)"
    );
    // A trump: goals only, never with a slot.
    let trump = Trait::from_template(id(22), Template::Trump, "Trump", Via::Granted);
    assert_eq!(refused(&mira, &trump), "template: only goals gain trumps");
    let quest = element(QUEST, ElementKind::Goal, "Reach the cove");
    let quest = award_edge_slots(&quest, SlotAward::FirstChallenge).unwrap().0;
    assert!(add_trait(&quest, &trump, id(ADA)).is_ok());
    assert_eq!(
        refused(&quest, &Trait { via: Via::EdgeSlot, ..trump }),
        "via: a trump cannot be bought with an edge slot"
    );
    // Attractant and Repellent for the same selection exclude each other.
    let mut magnet = edge(23, Template::Attractant, "Danger magnet");
    magnet.properties.set_up = "Danger".into();
    let mira = with(&mira, magnet);
    let mut calm = edge(24, Template::Repellent, "Calming presence");
    calm.properties.set_up = " danger ".into();
    assert_eq!(refused(&mira, &calm), "properties.set_up: Mira already has a Attractant for this selection");
    calm.properties.set_up = "Crowds".into();
    let mira = with(&mira, calm);
    // A template's kind is fixed.
    let wrong = Trait { kind: TraitKind::Flaw, ..edge(25, Template::Asset, "Ship") };
    assert_eq!(refused(&mira, &wrong), "kind: a Asset is a Edge, not a Flaw");
    // Unexpected edges and boons are bought, not added.
    let unexpected = Trait::new(id(26), TraitKind::Edge, "Lucky", Via::UnexpectedEdge);
    assert!(refused(&mira, &unexpected).starts_with("via: unexpected edges are bought"));
}

#[test]
fn a_dulled_edge_must_dull_the_edges_extras_first_and_locks_the_edge() {
    let mira = with(&hero_with_slots(), edge(20, Template::Ability, "Swordplay"));
    let mira = with(&mira, Trait::from_template(id(21), Template::Aptitude, "Aptitude", Via::FreeExtra).on(id(20)));
    assert_eq!(
        refused(&mira, &dull(30, 20)),
        "target_trait: Swordplay has an extra without a Dulled Edge (Aptitude): the flaw must target it instead"
    );
    let mira = with(&mira, dull(30, 21));
    let mira = with(&mira, dull(31, 20));
    assert!(mira.is_dulled(id(20)));
    assert_eq!(err(use_trait(&mira, id(20))), "trait: Swordplay is dulled: it cannot be used until the flaw goes");
    assert_eq!(refused(&mira, &dull(32, 20)), "target_trait: Swordplay is already dulled");
    let (mira, _) = remove_trait(&mira, id(31)).unwrap();
    assert!(use_trait(&mira, id(20)).is_ok());
    // Losing the edge takes the flaws that dull it and its extra.
    let (mira, _) = remove_trait(&mira, id(20)).unwrap();
    assert!(mira.traits.is_empty());
}

/// seed:765-769: a Dulled Edge moves to an undulled extra *or dependent trait* of the edge —
/// here a Background's phantom edge (granted by it, lost with it).
#[test]
fn a_dulled_edge_must_dull_the_edges_dependent_traits_first() {
    let mira = with(&hero_with_slots(), edge(40, Template::Background, "Street urchin"));
    let phantom = Trait {
        granted_by: Some(id(40)),
        lasts: Lasts::Scene,
        ..Trait::new(id(41), TraitKind::Edge, "Knows the alleys", Via::Granted)
    };
    let mira = with(&mira, phantom);
    assert_eq!(
        refused(&mira, &dull(50, 40)),
        "target_trait: Street urchin has a dependent trait without a Dulled Edge (Knows the alleys): the flaw must target it instead"
    );
    let mira = with(&mira, dull(50, 41));
    assert!(mira.is_dulled(id(41)));
    let mira = with(&mira, dull(51, 40));
    assert!(mira.is_dulled(id(40)), "every dependent trait dulled: the edge itself may be");
}

#[test]
fn modifiers_and_wound_extras_attach_to_the_right_traits() {
    let mira = hero_with_slots();
    let cut = Trait::from_template(id(30), Template::ImpairedAbility, "Cut arm", Via::Granted);
    let mira = with(&mira, cut);
    let wound = Trait::from_template(id(31), Template::Wound, "Wound", Via::Granted).on(id(30));
    let transient = Trait::from_template(id(32), Template::TransientFlaw, "Transient", Via::Granted).on(id(30));
    let targeted = Trait::from_template(id(33), Template::TargetedWound, "Arm", Via::Granted).on(id(30));
    let pervasive = Trait::from_template(id(34), Template::PervasiveWound, "All over", Via::Granted).on(id(30));
    let corrosive = Trait::from_template(id(35), Template::CorrosiveWound, "Spreads", Via::Granted).on(id(30));
    assert!(refused(&mira, &targeted).contains("extra of a wound"));
    let mira = with(&mira, wound.clone());
    assert!(refused(&mira, &wound).contains("already has"), "the same id");
    let again = Trait { id: id(36), ..wound };
    assert_eq!(refused(&mira, &again), "target_trait: Cut arm already has Wound");
    assert!(mira.is_wound(id(30)));
    let mira = with(&mira, transient);
    assert!(refused(&mira, &pervasive).contains("Targeted Wound extra"));
    assert!(refused(&mira, &corrosive).contains("Dulled Edge template"));
    let mira = with(&mira, targeted);
    let mira = with(&mira, pervasive);
    // A Transient Flaw modifies a flaw, not an edge.
    let mira = with(&mira, edge(40, Template::Background, "Sailor"));
    let bad = Trait::from_template(id(41), Template::TransientFlaw, "Transient", Via::Granted).on(id(40));
    assert!(refused(&mira, &bad).contains("modifies a trait of kind [Flaw], not Edge"));
    assert!(mira.problems().is_empty(), "{:?}", mira.problems());
}

#[test]
fn an_impaired_ability_outlives_the_ability_it_names() {
    let mira = with(&hero_with_slots(), edge(20, Template::Ability, "Swordplay"));
    let mira = with(&mira, Trait::from_template(id(30), Template::ImpairedAbility, "Cut arm", Via::Granted).on(id(20)));
    let (mira, _) = remove_trait(&mira, id(20)).unwrap();
    assert_eq!(mira.traits.len(), 1);
    assert_eq!(mira.traits[0].target_trait, None);
    assert!(mira.problems().is_empty());
}

#[test]
fn a_trait_is_edited_in_its_text_only() {
    let mut magnet = edge(20, Template::Attractant, "Danger magnet");
    magnet.properties.set_up = "Danger".into();
    let mira = with(&hero_with_slots(), magnet);
    let mut calm = edge(21, Template::Repellent, "Calm");
    calm.properties.set_up = "Crowds".into();
    let mira = with(&mira, calm);
    let props = Properties { set_up: "danger".into(), ..Properties::default() };
    assert!(err(edit_trait(&mira, id(21), "Calm", &props, id(ADA))).contains("already has a Attractant"));
    let props = Properties { effects: "Keeps crowds away.\nMostly.".into(), ..mira.traits[1].properties.clone() };
    let (edited, events) = edit_trait(&mira, id(21), "  Calming presence ", &props, id(ADA)).unwrap();
    assert_eq!(edited.traits[1].name, "Calming presence");
    assert_eq!(edited.traits[1].properties.effects, "Keeps crowds away.\nMostly.");
    assert_eq!(events, vec![ElementEvent::TraitChanged { element: id(HERO), trait_id: id(21) }]);
    assert_eq!(edited.filled_slots(), 2);
    assert!(err(edit_trait(&mira, id(21), "", &props, id(ADA))).starts_with("name: must not be empty"));
    // A tab is free text's; an escape sequence is not.
    let tab = Properties { details: "a\tb".into(), ..Properties::default() };
    assert!(edit_trait(&mira, id(21), "Calm", &tab, id(ADA)).is_ok());
    let escape = Properties { details: "a\u{1b}[2Jb".into(), ..Properties::default() };
    assert!(err(edit_trait(&mira, id(21), "Calm", &escape, id(ADA))).starts_with("properties.details"));
}

#[test]
fn uses_run_out_and_one_shot_traits_go_after_their_use() {
    let mira = with_adversity(&hero(), 1);
    let mira = Element { momentum: 4, ..mira };
    let boon = MomentumSpend::Boon {
        boon: Boon::Uses { uses: 3 },
        edge: Box::new(Trait::new(id(20), TraitKind::Edge, "Rally", Via::Boon)),
    };
    let (mira, _) = spend_momentum(&mira, &boon, id(ADA)).unwrap();
    assert_eq!(mira.momentum, 2, "3 uses cost 2");
    assert_eq!(mira.traits[0].uses_left, Some(3));
    assert_eq!(mira.filled_slots(), 0);
    let (mira, _) = use_trait(&mira, id(20)).unwrap();
    let (mira, _) = use_trait(&mira, id(20)).unwrap();
    assert_eq!(mira.traits[0].uses_left, Some(1));
    let (mira, events) = use_trait(&mira, id(20)).unwrap();
    assert!(mira.traits.is_empty());
    assert!(matches!(events[1], ElementEvent::TraitRemoved { reason: Removal::UsedUp, .. }));

    let mira = with(&mira, Trait::from_template(id(30), Template::Vulnerability, "Fire", Via::Granted));
    let mira = with(&mira, Trait::from_template(id(31), Template::OneShot, "One-Shot", Via::Granted).on(id(30)));
    let (mira, _) = use_trait(&mira, id(30)).unwrap();
    assert!(mira.traits.is_empty(), "a One-Shot flaw goes after its use, with its modifier");
}

// --- awards

/// RULES §3.4: a new element's four slots come when it is introduced, recorded as its first
/// action check's award; introducing it again changes nothing.
#[test]
fn an_element_is_introduced_with_its_first_check_slots_once() {
    let (mira, events) = introduce(&hero());
    assert_eq!((mira.edge_slots(), mira.free_slots()), (4, 4));
    assert!(mira.awards.has(SlotAward::FirstActionCheck));
    assert_eq!(
        events,
        vec![ElementEvent::EdgeSlotsAwarded {
            element: id(HERO),
            award: SlotAward::FirstActionCheck,
            slots: 4,
            before: 0,
            after: 4
        }]
    );
    assert_eq!(introduce(&mira), (mira.clone(), vec![]));
    assert_eq!(
        err(award_edge_slots(&mira, SlotAward::FirstActionCheck)),
        "award: Mira already had its first action check's slots"
    );
}

#[test]
fn each_one_time_award_comes_once_and_memorable_awards_once_per_arc() {
    let mira = hero();
    let (mira, _) = award_edge_slots(&mira, SlotAward::FirstActionCheck).unwrap();
    assert_eq!(mira.edge_slots(), 4);
    assert_eq!(
        err(award_edge_slots(&mira, SlotAward::FirstActionCheck)),
        "award: Mira already had its first action check's slots"
    );
    let (mira, _) = join_challenge(&mira).unwrap();
    assert_eq!(mira.edge_slots(), 8, "4 for the first challenge");
    let (mira, _) = challenge_ended(&mira).unwrap();
    let (mira, _) = join_challenge(&mira).unwrap();
    assert_eq!(mira.edge_slots(), 8, "a second challenge gives none");
    let (mira, _) = challenge_ended(&mira).unwrap();
    let (_, mira, _) = claim(&actor(ADA, "Ada"), &mira).unwrap();
    assert_eq!(mira.edge_slots(), 10, "the first arc caps out at 10");
    assert_eq!(err(award_edge_slots(&mira, SlotAward::FirstClaim)), "award: Mira already had its first claim's slots");
    assert!(err(award_edge_slots(&mira, SlotAward::Memorable { arc: 1 })).contains("given by a player"));

    let bo = player(BO, "Bo");
    let (mira, bo, events) = award_memorable(&mira, &bo, 1, true).unwrap();
    assert_eq!(mira.edge_slots(), 11);
    assert_eq!(bo.free_award_arc, Some(1));
    assert!(events.contains(&ElementEvent::FreeAwardUsed { player: id(BO), arc: 1 }));
    assert_eq!(
        err(award_memorable(&mira, &player(ADA, "Ada"), 1, false)),
        "award: Mira already had a memorable-element award in arc 1"
    );
    let tower = element(TOWER, ElementKind::Location, "Tower");
    assert_eq!(
        err(award_memorable(&tower, &bo, 1, true)),
        "undisputable: Bo already gave their undisputable award of arc 1"
    );
    let (tower, _, _) = award_memorable(&tower, &bo, 1, false).unwrap();
    assert_eq!(tower.edge_slots(), 1, "a disputable award the table let stand");
    let (mira, _, _) = award_memorable(&mira, &bo, 2, true).unwrap();
    assert_eq!(mira.edge_slots(), 12);
    assert_eq!(mira.awards.memorable_arcs, vec![1, 2]);
}

// --- adversity

#[test]
fn gained_adversity_pays_the_debt_first() {
    let mira = Element { adversity_debt: 3, ..hero() };
    let (mira, events) = gain_adversity(&mira, 2).unwrap();
    assert_eq!((mira.adversity, mira.adversity_debt), (0, 1));
    assert_eq!(
        events,
        vec![ElementEvent::AdversityGained {
            element: id(HERO),
            points: 2,
            debt_paid: 2,
            before: 0,
            after: 0,
            debt_before: 3,
            debt_after: 1
        }]
    );
    let (mira, _) = gain_adversity(&mira, 4).unwrap();
    assert_eq!((mira.adversity, mira.adversity_debt), (3, 0));
}

#[test]
fn adversity_buys_its_benefits_at_their_costs() {
    let costs = [
        (AdversitySpend::OvercomeFlaws { flaw: id(30) }, 2),
        (AdversitySpend::FortunesFavor, 2),
        (AdversitySpend::SuddenSurge, 3),
        (AdversitySpend::PlotHook { points: 2 }, 2),
    ];
    let mira = with(&with_adversity(&hero(), 9), Trait::new(id(30), TraitKind::Flaw, "Greedy", Via::Granted));
    for (spend, cost) in costs {
        assert_eq!(spend.cost(), cost);
        let (after, _) = spend_adversity(&mira, &spend, id(ADA), false).unwrap();
        assert_eq!(after.adversity, 9 - cost, "{spend:?}");
    }
    assert!(err(spend_adversity(&mira, &AdversitySpend::OvercomeFlaws { flaw: id(31) }, id(ADA), false))
        .starts_with("flaw: Mira has no trait"));
}

#[test]
fn a_shortfall_is_paid_as_debt_only_with_some_adversity_and_for_the_four_benefits() {
    let mira = with_adversity(&hero(), 1);
    assert_eq!(
        err(spend_adversity(&mira, &AdversitySpend::SuddenSurge, id(ADA), false)),
        "adversity: Mira holds 1 adversity and this costs 3: the shortfall may be taken as adversity debt if the player agrees to it"
    );
    let (after, events) = spend_adversity(&mira, &AdversitySpend::SuddenSurge, id(ADA), true).unwrap();
    assert_eq!((after.adversity, after.adversity_debt), (0, 2));
    assert!(matches!(events[0], ElementEvent::AdversitySpent { from_adversity: 1, debt_taken: 2, cost: 3, .. }));
    assert!(err(spend_adversity(&after, &AdversitySpend::FortunesFavor, id(ADA), true))
        .ends_with("debt can only cover the rest when at least 1 adversity is held"));
    assert!(err(spend_adversity(&mira, &AdversitySpend::PlotHook { points: 2 }, id(ADA), true))
        .ends_with("debt covers only Overcome Flaws, Fortune's Favor, Sudden Surge and Unexpected Edge"));
    // Ill Fated and Tempting Target pay debt off.
    let (paid, _) = pay_off_debt(&after, 1, DebtPayoff::IllFated).unwrap();
    assert_eq!(paid.adversity_debt, 1);
    assert_eq!(err(pay_off_debt(&paid, 2, DebtPayoff::TemptingTarget)), "points: Mira owes 1 adversity debt, not 2");
}

#[test]
fn an_unexpected_edge_needs_a_challenge_with_no_fitting_trait_and_takes_no_slot() {
    let spend = |fits: bool| AdversitySpend::UnexpectedEdge {
        edge: Box::new(Trait::new(id(20), TraitKind::Edge, "Desperate strength", Via::Granted)),
        no_fitting_trait: fits,
    };
    let mira = with_adversity(&hero_with_slots(), 5);
    assert_eq!(
        err(spend_adversity(&mira, &spend(true), id(ADA), false)),
        "spend: an unexpected edge is bought only in a challenge"
    );
    let (mira, _) = join_challenge(&mira).unwrap();
    assert!(err(spend_adversity(&mira, &spend(false), id(ADA), false)).starts_with("no_fitting_trait"));
    let (after, _) = spend_adversity(&mira, &spend(true), id(ADA), false).unwrap();
    assert_eq!(after.adversity, 0);
    assert_eq!(after.traits[0].via, Via::UnexpectedEdge);
    assert_eq!(after.free_slots(), mira.free_slots(), "no slot used");
    let (lost, events) = remove_trait(&after, id(20)).unwrap();
    assert!(matches!(events[0], ElementEvent::TraitRemoved { freed_slot: false, .. }));
    assert_eq!(lost.free_slots(), mira.free_slots(), "and none freed when lost");
    // With 3 adversity and debt allowed, the rest is debt.
    let (mira3, _) = join_challenge(&with_adversity(&hero(), 3)).unwrap();
    let (after, _) = spend_adversity(&mira3, &spend(true), id(ADA), true).unwrap();
    assert_eq!((after.adversity, after.adversity_debt), (0, 2));
}

#[test]
fn a_background_buys_a_phantom_edge_for_the_scene() {
    let mira = with(&with_adversity(&hero_with_slots(), 1), edge(20, Template::Background, "Sailor"));
    let spend = AdversitySpend::Background {
        background: id(20),
        edge: Box::new(Trait::new(id(21), TraitKind::Edge, "Knots", Via::EdgeSlot)),
    };
    let (mira, _) = spend_adversity(&mira, &spend, id(ADA), false).unwrap();
    assert_eq!(mira.traits[1].lasts, Lasts::Scene);
    assert_eq!(mira.filled_slots(), 1);
    let (mira, _) = end_scene(&mira);
    assert_eq!(mira.traits.len(), 1, "the phantom edge went with the scene");
}

// --- momentum

#[test]
fn a_challenger_gains_at_most_five_boost_awards_per_challenge() {
    let mira = hero();
    assert!(err(gain_momentum(&mira, 1, MomentumSource::Boost)).contains("not in a challenge"));
    let (mira, _) = join_challenge(&mira).unwrap();
    let (mira, _) = gain_momentum(&mira, 3, MomentumSource::Boost).unwrap();
    assert_eq!(
        err(gain_momentum(&mira, 3, MomentumSource::Boost)),
        "points: Mira gained 3 of its 5 momentum-boost awards this challenge: 2 more at most"
    );
    let (mira, _) = gain_momentum(&mira, 2, MomentumSource::Boost).unwrap();
    assert_eq!((mira.momentum, mira.momentum_awards), (5, 5));
    assert!(gain_momentum(&mira, 1, MomentumSource::Boost).is_err());
    let (mira, _) = gain_momentum(&mira, 2, MomentumSource::PlotHook).unwrap();
    assert_eq!(mira.momentum, 7, "a plot hook's momentum is no boost award");
    assert_eq!(
        err(gain_momentum(&mira, 1, MomentumSource::Ruin)),
        "source: Ruin gives its momentum to the goal that lost a trump"
    );
    let (mira, events) = challenge_ended(&mira).unwrap();
    assert_eq!((mira.momentum, mira.momentum_awards), (0, 0), "unspent momentum is lost");
    assert_eq!(events[0], ElementEvent::ChallengeEnded { element: id(HERO), momentum_lost: 7 });
    let (mira, _) = join_challenge(&mira).unwrap();
    assert!(gain_momentum(&mira, 5, MomentumSource::Boost).is_ok(), "a new challenge, five more");
}

#[test]
fn momentum_buys_boons_and_a_defeat_turns_two_into_one_adversity() {
    assert_eq!(
        [1, 2, 3, 4, 5, 7].map(|uses| Boon::Uses { uses }.cost()),
        [1, 2, 2, 3, 3, 4],
        "1 for one use, 1 per 2 more"
    );
    assert_eq!((Boon::OneChallenge.cost(), Boon::OneArc.cost()), (3, 5));
    let mira = Element { momentum: 5, adversity_debt: 1, ..hero() };
    let (after, _) = spend_momentum(&mira, &MomentumSpend::DefeatConversion { adversity: 2 }, id(ADA)).unwrap();
    assert_eq!((after.momentum, after.adversity, after.adversity_debt), (1, 1, 0), "debt paid first");
    assert_eq!(
        err(spend_momentum(&mira, &MomentumSpend::DefeatConversion { adversity: 3 }, id(ADA))),
        "momentum: Mira holds 5 momentum; this costs 6"
    );
    let arc_boon = MomentumSpend::Boon {
        boon: Boon::OneArc,
        edge: Box::new(Trait::new(id(20), TraitKind::Edge, "Hero of the hour", Via::Granted)),
    };
    let (after, _) = spend_momentum(&mira, &arc_boon, id(ADA)).unwrap();
    assert_eq!((after.momentum, after.traits[0].lasts, after.traits[0].via), (0, Lasts::Arc, Via::Boon));
}

#[test]
fn a_trump_draws_at_most_four_from_its_goal_and_trumps_are_lost_when_the_challenge_ends() {
    let quest = element(QUEST, ElementKind::Goal, "Reach the cove");
    let quest = with(&quest, Trait::from_template(id(20), Template::Trump, "Trump", Via::Granted));
    let quest = Element { momentum: 6, ..quest };
    assert!(quest.ruin_proof(), "6 momentum ≥ 2 × 1 trump");
    let draw = |points| MomentumSpend::TrumpTransfer { trump: id(20), points };
    assert_eq!(
        err(spend_momentum(&quest, &draw(5), id(ADA))),
        "points: a trump draws at most 4 momentum from its goal"
    );
    let (after, _) = spend_momentum(&quest, &draw(4), id(ADA)).unwrap();
    assert_eq!(after.momentum, 2);
    let (after, _) = gain_momentum(&after, 1, MomentumSource::Ruin).unwrap();
    assert_eq!(after.momentum, 3);
    let (ended, _) = challenge_ended(&after).unwrap();
    assert_eq!((ended.trumps(), ended.momentum), (0, 0));
}

// --- challenges, scenes, arcs

#[test]
fn a_transient_flaw_grants_a_favored_flaw_when_the_challenge_ends() {
    let (mira, _) = join_challenge(&hero()).unwrap();
    let mira = with(&mira, Trait::from_template(id(30), Template::Vulnerability, "Off balance", Via::Granted));
    let mira = with(&mira, Trait::from_template(id(31), Template::TransientFlaw, "Transient", Via::Granted).on(id(30)));
    let (ended, events) = challenge_ended(&mira).unwrap();
    let favored = ended.trait_by_id(favored_flaw_id(id(31))).expect("a Favored Flaw");
    assert_eq!(
        (favored.template, favored.target_trait, favored.via),
        (Some(Template::FavoredFlaw), Some(id(30)), Via::Granted)
    );
    assert_eq!(favored.name, "Favored Flaw: Off balance");
    assert!(events.iter().any(|e| matches!(e, ElementEvent::TraitAdded { kind: TraitKind::Edge, .. })));
    // A second challenge's end grants no second one.
    let (again, _) = challenge_ended(&join_challenge(&ended).unwrap().0).unwrap();
    assert_eq!(again.traits.len(), 3);
    // Losing the modifier loses the Favored Flaw it granted.
    let (lost, _) = remove_trait(&ended, id(31)).unwrap();
    assert_eq!(lost.traits.len(), 1);
}

/// The seed: when the favoured flaw is used against its owner, the owner gains a point of
/// adversity, once per challenge or scene. The scene's end makes it ready again; in a
/// challenge only the challenge's end does.
#[test]
fn a_favored_flaw_gives_one_adversity_once_per_scene_or_challenge() {
    let mira = with(&hero(), Trait::from_template(id(30), Template::Vulnerability, "Fear of heights", Via::Granted));
    let mira = with(&mira, Trait::from_template(id(32), Template::FavoredFlaw, "Favored", Via::Granted).on(id(30)));
    let mira = Element { adversity_debt: 1, adversity: 0, ..mira };
    assert_eq!(err(favored_flaw_used(&mira, id(30))), "trait_id: Fear of heights is not a Favored Flaw");
    assert!(err(favored_flaw_used(&mira, id(99))).starts_with("trait_id: Mira has no trait"));

    let (used, events) = favored_flaw_used(&mira, id(32)).unwrap();
    assert_eq!((used.adversity, used.adversity_debt), (0, 0), "the point pays the debt first");
    assert!(events.contains(&ElementEvent::TraitUsed { element: id(HERO), trait_id: id(32), uses_left: None }));
    assert_eq!(err(favored_flaw_used(&used, id(32))), "trait_id: Favored already gave Mira adversity in this scene");

    let (next_scene, _) = end_scene(&used);
    let (again, _) = favored_flaw_used(&next_scene, id(32)).unwrap();
    assert_eq!(again.adversity, 1, "a new scene, a new point");

    // In a challenge: the scene's end does not free it, the challenge's end does.
    let (fighting, _) = join_challenge(&next_scene).unwrap();
    let (fighting, _) = favored_flaw_used(&fighting, id(32)).unwrap();
    let (fighting, _) = end_scene(&fighting);
    assert_eq!(
        err(favored_flaw_used(&fighting, id(32))),
        "trait_id: Favored already gave Mira adversity in this challenge"
    );
    let (after, _) = challenge_ended(&fighting).unwrap();
    assert_eq!(favored_flaw_used(&after, id(32)).unwrap().0.adversity, 2);
    assert!(after.problems().is_empty());
    let bad = Element { traits: vec![Trait { favored_used: true, ..after.traits[0].clone() }], ..after.clone() };
    assert_eq!(bad.problems()[0].path, "traits[0].favored_used");
}

#[test]
fn a_one_challenge_boon_lasts_through_the_next_challenge() {
    let mira = Element { momentum: 3, ..hero() };
    let boon = MomentumSpend::Boon {
        boon: Boon::OneChallenge,
        edge: Box::new(Trait::new(id(20), TraitKind::Edge, "Second wind", Via::Boon)),
    };
    let (mira, _) = spend_momentum(&mira, &boon, id(ADA)).unwrap();
    let (mira, _) = challenge_ended(&mira).unwrap();
    assert_eq!(mira.traits.len(), 1, "bought after leaving: the current challenge's end does not take it");
    let (mira, _) = join_challenge(&mira).unwrap();
    assert_eq!(mira.traits[0].lasts, Lasts::Challenge);
    let (mira, _) = challenge_ended(&mira).unwrap();
    assert!(mira.traits.is_empty());
}

#[test]
fn the_arc_end_drains_adversity_debt_and_momentum_and_one_arc_traits() {
    let mira = with(&hero_with_slots(), edge(20, Template::Ability, "Swordplay"));
    let mira = Element { adversity: 0, adversity_debt: 2, momentum: 5, ..mira };
    let mira = spend_momentum(
        &mira,
        &MomentumSpend::Boon {
            boon: Boon::OneArc,
            edge: Box::new(Trait::new(id(21), TraitKind::Edge, "Fame", Via::Boon)),
        },
        id(ADA),
    )
    .map(|(e, _)| Element { momentum: 3, ..e })
    .unwrap();
    let (in_challenge, _) = join_challenge(&mira).unwrap();
    assert!(err(end_arc(&in_challenge)).contains("still in a challenge"));
    let (ended, events) = end_arc(&mira).unwrap();
    assert_eq!((ended.adversity, ended.adversity_debt, ended.momentum), (0, 0, 0));
    assert_eq!(ended.traits.len(), 1, "the one-arc boon expired, the edge stays");
    assert_eq!(ended.edge_slots(), 4, "slots are kept");
    assert_eq!(
        events[0],
        ElementEvent::ArcEnded { element: id(HERO), adversity_lost: 0, debt_lost: 2, momentum_lost: 3 }
    );
}

#[test]
fn plot_protection_is_sacrificed_until_the_challenge_is_over() {
    let mira = hero();
    assert!(!mira.has_plot_protection());
    assert_eq!(err(final_counter(&mira)), "element: Mira has no Plot Protection");
    let (mira, _) = join_challenge(&mira).unwrap();
    assert_eq!(mira.protection_sources(), vec![ProtectionSource::Challenge], "Protected Event");
    let (countered, _) = final_counter(&mira).unwrap();
    assert!(!countered.has_plot_protection());
    assert_eq!(err(final_counter(&countered)), "element: Mira already sacrificed its protection");
    let (ended, _) = challenge_ended(&countered).unwrap();
    assert!(!ended.plot_protection.sacrificed);

    // Heroic Sacrifice: the edge's protection lent to the tower.
    let mira = with(&hero_with_slots(), edge(20, Template::PlotProtection, "Plot Protection"));
    let tower = element(TOWER, ElementKind::Location, "Tower");
    assert_eq!(err(final_counter(&mira)), "element: Final Counter is used during a challenge");
    let (mira, tower, _) = heroic_sacrifice(&mira, &tower).unwrap();
    assert!(!mira.has_plot_protection() && tower.has_plot_protection());
    assert_eq!(tower.protection_sources(), vec![ProtectionSource::Lent]);
    let (mira, _) = end_scene(&mira);
    let (tower, _) = end_scene(&tower);
    assert!(mira.has_plot_protection() && !tower.has_plot_protection());
}

#[test]
fn elements_and_players_round_trip_and_refuse_unknown_fields() {
    let (ada, mira, _) = claim(&actor(ADA, "Ada"), &hero_with_slots()).unwrap();
    let mira = with(&mira, edge(20, Template::Ability, "Swordplay"));
    let json = serde_json::to_string(&mira).unwrap();
    assert!(json.contains("\"kind\":\"character\"") && json.contains("\"template\":\"ability\""), "{json}");
    assert_eq!(serde_json::from_str::<Element>(&json).unwrap(), mira);
    assert_eq!(serde_json::from_str::<Player>(&serde_json::to_string(&ada).unwrap()).unwrap(), ada);
    let extra = json.replacen('{', "{\"hp\":3,", 1);
    assert!(serde_json::from_str::<Element>(&extra).is_err());
    let award = serde_json::to_string(&SlotAward::Memorable { arc: 2 }).unwrap();
    assert_eq!(award, r#"{"kind":"memorable","arc":2}"#);
}

#[test]
fn problems_name_what_a_stored_element_breaks() {
    let bad = Element { adversity: 1, adversity_debt: 1, momentum_awards: 6, ..hero() };
    let bad = Element { traits: vec![Trait::new(id(20), TraitKind::Edge, "Lucky", Via::EdgeSlot)], ..bad };
    let paths: Vec<String> = bad.problems().into_iter().map(|p| p.path).collect();
    assert_eq!(paths, ["adversity_debt", "momentum_awards", "traits"]);
}

// --- properties

#[derive(Clone, Debug)]
enum Op {
    Gain(u32),
    Spend(u8, bool),
    PayOff(u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (1u32..6).prop_map(Op::Gain),
        (0u8..4, any::<bool>()).prop_map(|(s, d)| Op::Spend(s, d)),
        (1u32..3).prop_map(Op::PayOff),
    ]
}

proptest! {
    #[test]
    fn adversity_debt_is_paid_before_adversity_accrues(ops in proptest::collection::vec(op(), 1..40)) {
        let mut e = hero();
        for op in ops {
            let before = e.clone();
            match op {
                Op::Gain(n) => {
                    e = gain_adversity(&e, n).unwrap().0;
                    prop_assert_eq!(e.adversity_debt, before.adversity_debt.saturating_sub(n));
                    prop_assert_eq!(e.adversity, before.adversity + n.saturating_sub(before.adversity_debt));
                }
                Op::Spend(which, debt) => {
                    let spend = [AdversitySpend::FortunesFavor, AdversitySpend::SuddenSurge,
                        AdversitySpend::PlotHook { points: 1 }, AdversitySpend::SuddenSurge][which as usize].clone();
                    match spend_adversity(&e, &spend, id(ADA), debt) {
                        Ok((after, _)) => {
                            prop_assert!(before.adversity >= 1);
                            prop_assert_eq!(
                                before.adversity + after.adversity_debt,
                                after.adversity + before.adversity_debt + spend.cost()
                            );
                            e = after;
                        }
                        Err(_) => prop_assert!(before.adversity < spend.cost()),
                    }
                }
                Op::PayOff(n) => {
                    if let Ok((after, _)) = pay_off_debt(&e, n, DebtPayoff::IllFated) {
                        e = after;
                    }
                }
            }
            prop_assert!(e.adversity == 0 || e.adversity_debt == 0, "{:?}", e);
            prop_assert!(e.problems().is_empty());
        }
    }

    #[test]
    fn momentum_boost_awards_never_pass_five_a_challenge(
        steps in proptest::collection::vec((1u32..4, any::<bool>(), 0u8..6), 1..40)
    ) {
        let mut e = join_challenge(&hero()).unwrap().0;
        let mut gained_this_challenge = 0;
        for (points, end, spend) in steps {
            if end {
                e = challenge_ended(&e).unwrap().0;
                e = join_challenge(&e).unwrap().0;
                gained_this_challenge = 0;
                prop_assert_eq!(e.momentum, 0);
            }
            if spend > 0 && e.momentum > 0 {
                e = spend_momentum(&e, &MomentumSpend::VictoryNarration { votes: 1 }, id(ADA)).unwrap().0;
            }
            match gain_momentum(&e, points, MomentumSource::Boost) {
                Ok((after, _)) => {
                    gained_this_challenge += points;
                    e = after;
                }
                Err(_) => prop_assert!(gained_this_challenge + points > MAX_MOMENTUM_AWARDS),
            }
            prop_assert!(e.momentum_awards <= MAX_MOMENTUM_AWARDS);
            prop_assert_eq!(e.momentum_awards, gained_this_challenge);
            prop_assert!(e.momentum <= MAX_MOMENTUM_AWARDS, "boosts alone never give more than 5 a challenge");
        }
    }

    #[test]
    fn edge_slot_awards_happen_once(awards in proptest::collection::vec(0u8..7, 1..30)) {
        // 0: first action check (refused again); 1: a challenge (gives nothing again);
        // 2: claim or unclaim (gives nothing again); 3..=6: memorable in that arc.
        let mut e = hero();
        let mut ada = actor(ADA, "Ada");
        let mut had: Vec<u8> = Vec::new();
        for a in awards {
            let before = e.clone();
            let result = match a {
                0 => award_edge_slots(&e, SlotAward::FirstActionCheck).map(|r| r.0),
                1 => join_challenge(&e).and_then(|(j, _)| challenge_ended(&j)).map(|r| r.0),
                2 if e.claimed_by.is_some() => unclaim(&ada, &e).map(|(p, el, _)| { ada = p; el }),
                2 => claim(&ada, &e).map(|(p, el, _)| { ada = p; el }),
                arc => award_memorable(&e, &player(BO, "Bo"), u32::from(arc), false).map(|r| r.0),
            };
            let again = had.contains(&a);
            match result {
                Ok(after) => {
                    prop_assert!(!again || a == 1 || a == 2, "award {} given twice", a);
                    if again {
                        prop_assert_eq!(after.edge_slots(), before.edge_slots());
                    }
                    e = after;
                }
                Err(_) => {
                    prop_assert!(again && a != 1 && a != 2);
                    prop_assert_eq!(&e, &before);
                }
            }
            if !had.contains(&a) && (a != 2 || e.claimed_by.is_some()) {
                had.push(a);
            }
            let expected: u32 = had.iter().map(|&g| match g { 0 | 1 => 4, 2 => 2, _ => 1 }).sum();
            prop_assert_eq!(e.edge_slots(), expected);
            prop_assert!(e.problems().is_empty());
        }
    }
}

// --- audit #17: Signature Flaw, Asset access

/// The seed's Signature Flaw: refused while its owner has the selected flaw; otherwise the
/// owner gains that flaw and a Favored Flaw on it with Empowering Flaw (no once-a-scene
/// limit), and losing the Signature Flaw loses all three.
#[test]
fn a_signature_flaw_grants_its_flaw_and_an_empowered_favored_flaw() {
    let mira = hero_with_slots();
    let mut sig = edge(40, Template::SignatureFlaw, "Reckless streak");
    assert_eq!(refused(&mira, &sig), "properties.set_up: a Signature Flaw names the flaw it selects in its set-up");
    sig.properties.set_up = "Reckless".into();
    let had = with(&mira, Trait::new(id(39), TraitKind::Flaw, "reckless", Via::Granted));
    assert_eq!(
        refused(&had, &sig),
        "properties.set_up: Mira already has the flaw reckless: a Signature Flaw cannot select it"
    );
    let (with_sig, events) = add_trait(&mira, &sig, id(ADA)).unwrap();
    let [flaw, favored, empowering] = signature_grant_ids(id(40));
    assert_eq!(events.len(), 4, "the Signature Flaw and its three grants");
    let f = with_sig.trait_by_id(flaw).unwrap();
    assert_eq!((f.kind, f.name.as_str(), f.granted_by), (TraitKind::Flaw, "Reckless", Some(id(40))));
    let fav = with_sig.trait_by_id(favored).unwrap();
    assert_eq!((fav.template, fav.target_trait), (Some(Template::FavoredFlaw), Some(flaw)));
    assert_eq!(with_sig.trait_by_id(empowering).unwrap().target_trait, Some(favored));
    assert_eq!(with_sig.filled_slots(), 1, "only the Signature Flaw fills a slot");
    // Empowering Flaw: the Favored Flaw gives adversity more than once a scene.
    let (once, _) = favored_flaw_used(&with_sig, favored).unwrap();
    let (twice, _) = favored_flaw_used(&once, favored).unwrap();
    assert_eq!(twice.adversity, 2);
    // Its set-up cannot be changed under its grants.
    let mut other = sig.properties.clone();
    other.set_up = "Greedy".into();
    assert!(err(edit_trait(&with_sig, id(40), "Reckless streak", &other, id(ADA))).starts_with("properties.set_up:"));
    let (lost, _) = remove_trait(&with_sig, id(40)).unwrap();
    assert!(lost.traits.is_empty(), "the flaw, Favored Flaw and extra go with it");
}

/// The seed's Asset: losing access gives the Favored Flaw for it, once; having it back, or
/// losing the Asset itself, takes that Favored Flaw away.
#[test]
fn an_assets_lost_access_grants_a_favored_flaw_that_goes_with_it() {
    let mira = with(&hero_with_slots(), edge(50, Template::Asset, "Old Key"));
    let mira = with(&mira, edge(51, Template::Ability, "Climbing"));
    assert_eq!(err(lose_asset_access(&mira, id(51))), "trait_id: Climbing is not an Asset");
    assert!(err(regain_asset_access(&mira, id(50))).contains("has not lost access to Old Key"));
    let (lost, _) = lose_asset_access(&mira, id(50)).unwrap();
    let fav = lost.trait_by_id(lost_access_id(id(50))).expect("a Favored Flaw");
    assert_eq!(
        (fav.template, fav.target_trait, fav.granted_by, fav.name.as_str()),
        (Some(Template::FavoredFlaw), Some(id(50)), Some(id(50)), "Favored Flaw: lost Old Key")
    );
    assert_eq!(err(lose_asset_access(&lost, id(50))), "trait_id: Mira already lost access to Old Key");
    let (back, _) = regain_asset_access(&lost, id(50)).unwrap();
    assert_eq!(back.traits.len(), 2);
    let (gone, _) = remove_trait(&lost, id(50)).unwrap();
    assert!(gone.trait_by_id(lost_access_id(id(50))).is_none(), "losing the Asset loses its Favored Flaw");
}

/// The seed's Empowering Gift: one gift lent out at a time, not to its owner without Empower
/// Self, one target per gift unless Shared Gift doubles it; Lingering Gift lasts the scene.
#[test]
fn an_empowering_gift_is_lent_within_its_limits() {
    let mut fire = edge(70, Template::EmpoweringGift, "Gift of fire");
    fire.properties.set_up = "Fire magic".into();
    let mira = with(&hero_with_slots(), fire);
    let mira = with(&mira, edge(71, Template::EmpoweringGift, "Gift of wings"));
    let jon = element(BLADE, ElementKind::Character, "Jon");
    let ogre = element(TOWER, ElementKind::Character, "Ogre");
    assert!(err(lend_gift(&mira, id(70), &mira, std::slice::from_ref(&mira))).contains("Empower Self"));
    let (jon, _) = lend_gift(&mira, id(70), &jon, &[mira.clone(), jon.clone()]).unwrap();
    let lent = jon.trait_by_id(lent_edge_id(id(70), id(BLADE))).unwrap();
    assert_eq!((lent.name.as_str(), lent.kind, lent.lasts), ("Fire magic", TraitKind::Edge, Lasts::Lasting));
    let all = [mira.clone(), jon.clone(), ogre.clone()];
    assert_eq!(gift_targets(id(70), &all), vec![id(BLADE)]);
    assert_eq!(
        err(lend_gift(&mira, id(71), &ogre, &all)),
        "trait_id: only one Empowering Gift is lent out at a time, and Mira's Gift of fire is"
    );
    assert!(err(lend_gift(&mira, id(70), &ogre, &all)).contains("as many targets as it has"));
    // A Shared Gift: two targets; a Lingering Gift: until the end of the scene.
    let shared = with(&mira, Trait::from_template(id(72), Template::SharedGift, "Shared", Via::EdgeSlot).on(id(70)));
    let shared =
        with(&shared, Trait::from_template(id(73), Template::LingeringGift, "Lingering", Via::Granted).on(id(70)));
    let (ogre2, _) = lend_gift(&shared, id(70), &ogre, &all).unwrap();
    assert_eq!(ogre2.trait_by_id(lent_edge_id(id(70), id(TOWER))).unwrap().lasts, Lasts::Scene);
    // Taken back, the other gift may be lent.
    let (jon_back, _) = take_back_gift(id(70), &jon).unwrap();
    assert!(jon_back.traits.is_empty());
    assert!(lend_gift(&mira, id(71), &ogre, &[mira.clone(), jon_back.clone(), ogre.clone()]).is_ok());
    assert!(err(take_back_gift(id(70), &jon_back)).contains("holds no edge lent by this gift"));
}

/// seed:1185-1190, Asset Investment: the asset's selected element gains the target edge and
/// lends one more Empowering Gift at a time: a second gift is lent, a third refused; the
/// investment lost, the limit is one again.
#[test]
fn an_asset_investment_grants_its_edge_and_one_more_gift_at_a_time() {
    // Jon owns the Asset "Mira" with an investment in "Fire ward"; Mira holds two gifts.
    let jon = investing_in_fire_ward(&slotted(QUEST, ElementKind::Character, "Jon"), "My sister");
    let mira = slotted(BLADE, ElementKind::Character, "Mira");
    let mira = with(&mira, edge(70, Template::EmpoweringGift, "Gift of fire"));
    let mira = with(&mira, edge(71, Template::EmpoweringGift, "Gift of wings"));
    let mira = with(&mira, edge(72, Template::EmpoweringGift, "Gift of sight"));
    let ogre = element(TOWER, ElementKind::Character, "Ogre");
    let bat = element(99, ElementKind::Character, "Bat");
    let elements = |m: &Element, o: &Element, b: &Element| vec![jon.clone(), m.clone(), o.clone(), b.clone()];

    // Without the investment, a second gift is refused.
    let (ogre_fire, _) = lend_gift(&mira, id(70), &ogre, &elements(&mira, &ogre, &bat)).unwrap();
    assert!(err(lend_gift(&mira, id(71), &bat, &elements(&mira, &ogre_fire, &bat)))
        .starts_with("trait_id: only one Empowering Gift is lent out at a time"));

    // Invested: Mira gains "Fire ward" and lends a second gift; a third is refused.
    let (mira, _) = invest(&jon, id(81), &mira, &elements(&mira, &ogre_fire, &bat)).unwrap();
    let warded = mira.trait_by_id(invested_edge_id(id(81), id(BLADE))).unwrap();
    assert_eq!((warded.name.as_str(), warded.kind, warded.via), ("Fire ward", TraitKind::Edge, Via::Granted));
    assert!(!warded.fills_slot());
    let all = elements(&mira, &ogre_fire, &bat);
    assert_eq!((investments_in(&mira, &all), invested_in(id(81), &all)), (1, Some(id(BLADE))));
    let (bat_wings, _) = lend_gift(&mira, id(71), &bat, &all).unwrap();
    let all = elements(&mira, &ogre_fire, &bat_wings);
    let third = err(lend_gift(&mira, id(72), &jon, &all));
    assert_eq!(
        third,
        "trait_id: Mira lends 2 Empowering Gifts at a time (one and its Asset Investments), and Gift of fire, Gift of wings are lent"
    );
    // Invested once: it changes only once Mira loses the edge; not an edge Mira holds already.
    assert!(err(invest(&jon, id(81), &ogre, &all)).starts_with("trait_id: Investment is invested in Mira"));
    let (plain, _) = divest(id(81), &mira).unwrap();
    assert_eq!(investments_in(&plain, &elements(&plain, &ogre_fire, &bat_wings)), 0);
    let with_ward = with(&plain, Trait::new(id(90), TraitKind::Edge, "fire WARD", Via::EdgeSlot));
    assert!(err(invest(&jon, id(81), &with_ward, &[jon.clone(), with_ward.clone()])).contains("already holds"));
    assert!(err(invest(&jon, id(80), &mira, &all)).contains("is not an Asset Investment"));
    // The investment lost (Jon loses the extra): Mira's second gift counts no more.
    let (jon_lost, _) = remove_trait(&jon, id(81)).unwrap();
    let all = vec![jon_lost, mira.clone(), ogre_fire.clone(), bat.clone()];
    assert!(err(lend_gift(&mira, id(71), &bat, &all)).starts_with("trait_id: only one Empowering Gift"));
}

/// seed:1185-1190: an element that leaves the story loses its Asset Investments with it: the
/// selected element gives back the invested edge (and its second gift at a time); an element
/// with no investment takes nothing from anyone.
#[test]
fn an_element_leaving_the_story_takes_back_its_investments_edges() {
    let jon = investing_in_fire_ward(&slotted(QUEST, ElementKind::Faction, "The Guild"), "Our champion");
    let mira = slotted(BLADE, ElementKind::Character, "Mira");
    let bat = element(99, ElementKind::Character, "Bat");
    let (mira, _) = invest(&jon, id(81), &mira, &[jon.clone(), mira.clone(), bat.clone()]).unwrap();
    let all = vec![jon.clone(), mira.clone(), bat.clone()];
    assert_eq!(investments_in(&mira, &all), 1);

    let lost = investments_lost_with(&jon, &all).unwrap();
    assert_eq!(lost.len(), 1);
    let (plain, edge_name, events) = &lost[0];
    assert_eq!((plain.id, edge_name.as_str()), (id(BLADE), "Fire ward"));
    assert!(plain.trait_by_id(invested_edge_id(id(81), id(BLADE))).is_none());
    assert!(matches!(events.as_slice(), [ElementEvent::TraitRemoved { name, .. }] if name == "Fire ward"));
    assert_eq!(investments_in(plain, &[plain.clone(), bat.clone()]), 0);
    // Bat invests nothing: its leaving takes nothing back.
    assert!(investments_lost_with(&bat, &all).unwrap().is_empty());
}
