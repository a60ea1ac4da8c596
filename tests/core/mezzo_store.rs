//! Mezzo storage (schema v6): a rich table and rich sheets made by the rules read back
//! exactly, random sequences of the rules' moves read back exactly, and the rows go with
//! their character or game.

use proptest::prelude::*;
use sheetkeeper::model::{Game, System};
use sheetkeeper::rules::mezzo::element::{
    self as rules, AdversitySpend, Boon, Element, ElementKind, Lasts, MomentumSource, MomentumSpend, Player,
    PlotProtection, Properties, Role, SlotAward, Template, Trait, TraitKind, Via,
};
use sheetkeeper::rules::mezzo::plot::{CustomLaw, Fact};
use sheetkeeper::rules::mezzo::table::MezzoTable;
use sheetkeeper::rules::mezzo::vote::{ConflictDraft, VictoryVotes};
use sheetkeeper::rules::record::CharacterRecord;
use sheetkeeper::store::Tx;
use sheetkeeper::{services, Store};
use uuid::Uuid;

pub use crate::support::uuid;
use crate::support::{insert_game_and_sheets, new_game, scene_character, scene_game, Scratch};

pub const GAME: &str = "3a9c1e5b-7d2f-4e8a-9b6c-0d1e2f3a4b5c";
pub const ADA: &str = "1b2c3d4e-5f60-4a71-8b82-9c0d1e2f3a40";
pub const BO: &str = "2c3d4e5f-6071-4b82-9c93-ad1e2f3a4b51";
pub const CY: &str = "3d4e5f60-7182-4c93-8da4-be2f3a4b5c62";
pub const MIRA: &str = "4e5f6071-8293-4da4-9eb5-cf3a4b5c6d73";
pub const TOMAS: &str = "5f607182-93a4-4eb5-8fc6-d04b5c6d7e84";
pub const LIGHTHOUSE: &str = "60718293-a4b5-4fc6-90d7-e15c6d7e8f95";
pub const SMUGGLERS: &str = "718293a4-b5c6-40d7-a1e8-f26d7e8f90a6";
pub const COVE: &str = "8293a4b5-c6d7-41e8-b2f9-037e8f90a1b7";
pub const KEY: &str = "93a4b5c6-d7e8-42f9-83a0-148f90a1b2c8";

/// A Mezzo game with fixed ids and time stamps, its two characters with their sheets, and
/// a table the rules made: Ada the Actor claiming Mira, Bo's claim of Tomas given up, Cy's
/// influence spent; Mira with an Ability and its extras, a wound, a phantom edge, adversity
/// debt, a boon of uses, a memorable award and her protection lent to the lighthouse;
/// Tomas with a dulled extra and a restraint; a faction with an asset and its investment,
/// a goal with a Favored Flaw granted by a Transient Flaw and a trump, an object whose
/// Impaired Ability forgot its ability.
pub struct Scene {
    pub game: Game,
    pub characters: Vec<CharacterRecord>,
    pub table: MezzoTable,
}

fn id(n: u128) -> Uuid {
    Uuid::from_u128(0x7000_0000_0000_4000_8000_0000_0000_0000 | n)
}

fn props(set_up: &str, effects: &str) -> Properties {
    Properties { set_up: set_up.into(), effects: effects.into(), ..Properties::default() }
}

fn trait_of(n: u128, template: Template, name: &str, via: Via) -> Trait {
    Trait::from_template(id(n), template, name, via)
}

/// Plays a rule on an element, failing the test with the rule's words.
fn on(e: Element, rule: impl FnOnce(&Element) -> sheetkeeper::Result<(Element, Vec<rules::ElementEvent>)>) -> Element {
    rule(&e).unwrap_or_else(|err| panic!("{}: {err}", e.name)).0
}

fn add(e: Element, t: Trait, by: Uuid) -> Element {
    on(e, |e| rules::add_trait(e, &t, by))
}

pub fn scene() -> Scene {
    let (ada_id, bo_id, cy_id) = (uuid(ADA), uuid(BO), uuid(CY));
    let game =
        scene_game(uuid(GAME), "The Drowned Cove", System::Mezzo, ("2026-09-01T18:00:00Z", "2026-09-15T22:10:00Z"));
    let ada = rules::take_role(&Player::new(ada_id, "Ada").unwrap(), Role::Actor).unwrap().0;
    let ada = rules::gain_influence(&ada, 1).unwrap().0;
    let bo = rules::take_role(&Player::new(bo_id, "Bo").unwrap(), Role::Actor).unwrap().0;
    let cy = rules::spend_influence(&Player::new(cy_id, "Cy").unwrap(), 2).unwrap().0;

    // Mira: claimed by Ada (2 slots), her first action check (4) and challenge (4).
    let mira = Element::new(uuid(MIRA), ElementKind::Character, "Mira Vell").unwrap();
    let (ada, mira, _) = rules::claim(&ada, &mira).unwrap();
    let mira = on(mira, |e| rules::award_edge_slots(e, SlotAward::FirstActionCheck));
    let mut sword = trait_of(1, Template::Ability, "Swordplay", Via::EdgeSlot);
    sword.properties = Properties {
        requirements: "a blade in hand".into(),
        restrictions: "not while seasick".into(),
        owner: "Mira".into(),
        target: "one foe".into(),
        set_up: "melee attacks".into(),
        effects: "+1 die\non a hit, disarm".into(),
        details: "learned on her father's deck".into(),
    };
    let mira = add(mira, sword, ada_id);
    let mira = add(mira, trait_of(2, Template::Aptitude, "Quick hands", Via::FreeExtra).on(id(1)), ada_id);
    let mira = add(mira, trait_of(3, Template::Focused, "Duels", Via::EdgeSlot).on(id(1)), ada_id);
    let mira = add(mira, trait_of(4, Template::Specialty, "Sabre", Via::EdgeSlot).on(id(1)), ada_id);
    let mira = add(mira, trait_of(5, Template::PlotProtection, "Plot Protection", Via::EdgeSlot), ada_id);
    let mira = add(mira, trait_of(6, Template::Background, "Navy brat", Via::EdgeSlot), ada_id);
    let mira = add(mira, trait_of(7, Template::Vulnerability, "Seasick", Via::Granted), ada_id);
    let mira = add(mira, trait_of(8, Template::Wound, "Wound", Via::Granted).on(id(7)), ada_id);
    let mira = add(mira, trait_of(9, Template::ViciousWound, "Vicious", Via::Granted).on(id(7)), ada_id);
    // Adversity: a phantom edge from her Background, then a Sudden Surge partly on debt.
    let mira = on(mira, |e| rules::gain_adversity(e, 4));
    let phantom = AdversitySpend::Background {
        background: id(6),
        edge: Box::new(Trait {
            properties: props("knots", ""),
            ..Trait::new(id(10), TraitKind::Edge, "Old knots", Via::Granted)
        }),
    };
    let mira = on(mira, |e| rules::spend_adversity(e, &phantom, ada_id, false));
    let mira = on(mira, |e| rules::spend_adversity(e, &AdversitySpend::FortunesFavor, ada_id, false));
    let mira = on(mira, |e| rules::spend_adversity(e, &AdversitySpend::SuddenSurge, ada_id, true));
    // A challenge: 4 more slots, momentum boosts, a boon of three uses, one used.
    let mira = on(mira, rules::join_challenge);
    let mira = on(mira, |e| rules::gain_momentum(e, 3, MomentumSource::Boost));
    let boon = MomentumSpend::Boon {
        boon: Boon::Uses { uses: 3 },
        edge: Box::new(Trait::new(id(11), TraitKind::Edge, "Second wind", Via::Boon)),
    };
    let mira = on(mira, |e| rules::spend_momentum(e, &boon, ada_id));
    let mira = on(mira, |e| rules::use_trait(e, id(11)));
    // Bo's undisputable memorable award of arc 1.
    let (mira, bo, _) = rules::award_memorable(&mira, &bo, 1, true).unwrap();
    let (bo, tomas) = {
        // Tomas: Bo claimed him (2 slots) and gave the claim up; the Plot Protection edge the
        // claim left him was later lost in play.
        let tomas = Element::new(uuid(TOMAS), ElementKind::Character, "Tomas").unwrap();
        let (bo, tomas, _) = rules::claim(&bo, &tomas).unwrap();
        let (bo, tomas, _) = rules::unclaim(&bo, &tomas).unwrap();
        let (tomas, _) = rules::remove_trait(&tomas, rules::character_protection_id(tomas.id)).unwrap();
        (rules::leave_role(&bo, Role::Actor, &[]).unwrap().0, tomas)
    };
    let tomas = add(tomas, trait_of(20, Template::Resistance, "Stubborn", Via::EdgeSlot), bo_id);
    let tomas = add(tomas, trait_of(21, Template::Fortified, "Thick skull", Via::FreeExtra).on(id(20)), bo_id);
    let tomas = add(tomas, trait_of(22, Template::DulledEdge, "Hungover", Via::Granted).on(id(21)), bo_id);
    let tomas = add(tomas, trait_of(23, Template::Restraint, "Bound by oath", Via::Granted), bo_id);
    let tomas = add(tomas, trait_of(24, Template::OneShot, "Last chance", Via::Granted).on(id(20)), bo_id);
    let tomas = on(tomas, |e| rules::gain_momentum(e, 2, MomentumSource::PlotHook));

    // The lighthouse, under Mira's protection (Heroic Sacrifice).
    let lighthouse = Element::new(uuid(LIGHTHOUSE), ElementKind::Location, "The Lighthouse").unwrap();
    let (mira, lighthouse, _) = rules::heroic_sacrifice(&mira, &lighthouse).unwrap();
    let lighthouse = add(lighthouse, Trait::new(id(30), TraitKind::Edge, "Beacon", Via::Granted), ada_id);

    // The smugglers, with an asset and its investment, an attractant and a repellent.
    let smugglers = Element::new(uuid(SMUGGLERS), ElementKind::Faction, "The Smugglers").unwrap();
    let smugglers = on(smugglers, |e| rules::award_edge_slots(e, SlotAward::FirstActionCheck));
    let mut docks = trait_of(40, Template::Asset, "Hidden docks", Via::EdgeSlot);
    docks.properties = props("the cove's caves", "boats vanish");
    let smugglers = add(smugglers, docks, ada_id);
    let smugglers =
        add(smugglers, trait_of(41, Template::AssetInvestment, "Bribed harbour", Via::EdgeSlot).on(id(40)), ada_id);
    let mut gold = trait_of(42, Template::Attractant, "Gold", Via::Granted);
    gold.properties = props("gold", "");
    let smugglers = add(smugglers, gold, ada_id);
    let mut law = trait_of(43, Template::Repellent, "The law", Via::Granted);
    law.properties = props("the law", "");
    let smugglers = add(smugglers, law, ada_id);
    let smugglers = on(smugglers, |e| rules::gain_adversity(e, 2));

    // The goal: a Transient Flaw's Favored Flaw after a challenge, then a trump and momentum.
    let cove = Element::new(uuid(COVE), ElementKind::Goal, "Reach the cove").unwrap();
    let cove = on(cove, rules::join_challenge);
    let cove = add(cove, trait_of(50, Template::Vulnerability, "Shoals", Via::Granted), ada_id);
    let cove = add(cove, trait_of(51, Template::TransientFlaw, "Shifting sands", Via::Granted).on(id(50)), ada_id);
    let cove = on(cove, rules::challenge_ended);
    let favored = rules::favored_flaw_id(id(51));
    let cove = add(cove, trait_of(52, Template::EmpoweringFlaw, "Treacherous reefs", Via::Granted).on(favored), ada_id);
    let cove = add(cove, trait_of(53, Template::Trump, "High tide", Via::Granted), ada_id);
    let cove = on(cove, |e| rules::gain_momentum(e, 6, MomentumSource::PlotHook));

    // The key: an Impaired Ability whose ability went.
    let key = Element::new(uuid(KEY), ElementKind::Object, "The Brass Key").unwrap();
    let key = add(key, trait_of(60, Template::Ability, "Opens any lock", Via::Granted), ada_id);
    let key = add(key, trait_of(61, Template::ImpairedAbility, "Rusty", Via::Granted).on(id(60)), ada_id);
    let key = on(key, |e| rules::remove_trait(e, id(60)));
    // Built from the default, so parts of the table added later keep their defaults.
    let mut table = MezzoTable::default();
    // A scene being played with Mira and the lighthouse active, at a table rolling d6s.
    table.scene = sheetkeeper::rules::mezzo::table::Scene { open: true, active: vec![uuid(MIRA), lighthouse.id] };
    table.variant = sheetkeeper::rules::mezzo::conflict::Variant::D6;
    (table.plot.number, table.players, table.elements) = (2, vec![ada, bo, cy], vec![lighthouse, smugglers, cove, key]);
    // The table's own Setting Law, the arc's facts register, narration votes not spent yet.
    table.laws = vec![CustomLaw {
        id: id(80),
        name: "Law of the Tides".into(),
        effect: "The sea gives back what it takes".into(),
    }];
    table.facts = vec![
        Fact { id: id(81), arc: 1, text: "The lighthouse burned once".into() },
        Fact { id: id(82), arc: 2, text: "The smugglers owe Ada".into() },
    ];
    table.victory_votes = vec![VictoryVotes { element: uuid(MIRA), challenge: id(83), votes: 2 }];

    let character = |element: &Element, revision, times| {
        let character = scene_character(&game, element.id, &element.name, revision, times);
        CharacterRecord { mezzo: Some(element.clone()), ..CharacterRecord::new(character) }
    };
    let characters = vec![
        character(&mira, 9, ("2026-09-01T18:05:00Z", "2026-09-15T22:00:00Z")),
        character(&tomas, 4, ("2026-09-01T18:06:00Z", "2026-09-08T21:00:00Z")),
    ];
    Scene { game, characters, table }
}

/// Writes the scene's game, characters with their sheets, and table into `store`.
pub fn insert_scene(store: &mut Store, scene: &Scene) {
    let sheet = |tx: &Tx<'_>, r: &CharacterRecord| tx.put_mezzo_sheet(r.character.id, r.mezzo.as_ref().unwrap());
    insert_game_and_sheets(store, &scene.game, &scene.characters, sheet, |tx| {
        tx.put_mezzo_table(scene.game.id, &scene.table)
    });
}

/// A fresh database holding the scene.
fn stored_scene() -> (Scratch, Store, Scene) {
    crate::support::stored(scene(), insert_scene)
}

#[test]
fn the_scene_is_what_the_rules_say_it_is() {
    let s = scene();
    let mira = s.characters[0].mezzo.as_ref().unwrap();
    assert_eq!((mira.edge_slots(), mira.filled_slots()), (11, 5));
    assert_eq!((mira.adversity, mira.adversity_debt, mira.momentum), (0, 2, 1));
    assert_eq!(mira.trait_by_id(id(11)).unwrap().uses_left, Some(2));
    assert_eq!(mira.trait_by_id(id(10)).unwrap().lasts, Lasts::Scene);
    assert!(mira.plot_protection.sacrificed && mira.in_challenge);
    let tomas = s.characters[1].mezzo.as_ref().unwrap();
    assert!(tomas.claimed_by.is_none() && tomas.awards.first_claim);
    assert!(tomas.is_dulled(id(21)));
    let [lighthouse, _, cove, key] = &s.table.elements[..] else { panic!() };
    assert_eq!(lighthouse.plot_protection.lent_by, Some(uuid(MIRA)));
    assert!(cove.trait_by_id(rules::favored_flaw_id(id(51))).is_some() && cove.ruin_proof());
    assert_eq!(key.traits[0].target_trait, None, "the ability went; the impairment forgot it");
    assert_eq!(s.table.players[1].free_award_arc, Some(1));
    for e in s.table.elements.iter().chain(s.characters.iter().filter_map(|r| r.mezzo.as_ref())) {
        assert!(e.problems().is_empty(), "{}: {:?}", e.name, e.problems());
    }
}

#[test]
fn a_rich_table_and_rich_sheets_read_back_exactly_after_a_reopen() {
    let (s, store, scene) = stored_scene();
    drop(store);
    let store = s.open();
    assert_eq!(store.read().mezzo_table(scene.game.id).unwrap(), scene.table);
    for r in &scene.characters {
        assert_eq!(store.read().mezzo_sheet(r.character.id).unwrap(), r.mezzo);
    }
    assert!(store.check().unwrap().ok);
    // A game with nothing stored has the empty table; a character without a sheet has none.
    assert_eq!(store.read().mezzo_table(Uuid::new_v4()).unwrap(), MezzoTable::default());
    assert_eq!(store.read().mezzo_sheet(Uuid::new_v4()).unwrap(), None);
}

#[test]
fn a_sheet_goes_with_its_character_and_a_table_with_its_game() {
    let (s, mut store, _scene) = stored_scene();
    let count = |table: &str| -> i64 {
        let conn = rusqlite::Connection::open(s.db()).unwrap();
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap()
    };
    assert_eq!(count("mz_elements"), 6);
    store.write(|tx| tx.delete_character(uuid(TOMAS))).unwrap();
    assert_eq!(store.read().mezzo_sheet(uuid(TOMAS)).unwrap(), None);
    assert_eq!(count("mz_elements"), 5);
    store.write(|tx| tx.delete_game(uuid(GAME))).unwrap();
    for table in ["mz_tables", "mz_players", "mz_player_roles", "mz_claims", "mz_elements", "mz_traits"] {
        assert_eq!(count(table), 0, "{table}");
    }
    assert!(store.check().unwrap().ok);
}

#[test]
fn a_new_mezzo_character_has_its_element_with_its_id_and_name() {
    let (_s, mut store, _, [mira]) = new_game("Cove", "mezzo", ["Mira"]);
    let sheet = store.read().mezzo_sheet(mira).unwrap().unwrap();
    // Introduced with its first action check's 4 slots (RULES §3.4).
    assert_eq!(sheet, rules::introduce(&Element::new(mira, ElementKind::Character, "Mira").unwrap()).0);
    assert_eq!((sheet.edge_slots(), sheet.filled_slots()), (4, 0));
    services::rename_character(&mut store, mira, "Mira Vell").unwrap();
    assert_eq!(store.read().mezzo_sheet(mira).unwrap().unwrap().name, "Mira Vell");
    services::undo_character(&mut store, mira).unwrap();
    assert_eq!(store.read().mezzo_sheet(mira).unwrap().unwrap().name, "Mira");
}

// --- random sequences of the rules' moves

const TEMPLATES: [Option<Template>; 16] = [
    None,
    Some(Template::Ability),
    Some(Template::Resistance),
    Some(Template::Background),
    Some(Template::PlotProtection),
    Some(Template::Trump),
    Some(Template::Vulnerability),
    Some(Template::DulledEdge),
    Some(Template::ImpairedAbility),
    Some(Template::Wound),
    Some(Template::TransientFlaw),
    Some(Template::OneShot),
    Some(Template::Aptitude),
    Some(Template::Focused),
    Some(Template::CorrosiveWound),
    Some(Template::Restraint),
];

const VIAS: [Via; 4] = [Via::Granted, Via::Granted, Via::EdgeSlot, Via::FreeExtra];
const KINDS: [TraitKind; 4] = [TraitKind::Edge, TraitKind::Flaw, TraitKind::Modifier, TraitKind::Extra];

#[derive(Clone, Debug)]
enum Op {
    /// A trait: template, kind (without a template), via, target (an index into the traits),
    /// a text, uses.
    Add(usize, usize, usize, Option<usize>, String, Option<u32>),
    Edit(usize, String),
    Remove(usize),
    Use(usize),
    Award(u8),
    Memorable(u32, bool),
    GainAdversity(u32),
    SpendAdversity(u8, bool),
    GainMomentum(u32, u8),
    Boon(u8),
    Join,
    Leave,
    ChallengeEnded,
    SceneEnded,
    ArcEnded,
    Claim,
    Sacrifice,
}

fn op() -> impl Strategy<Value = Op> {
    let text = "[a-zA-Z éß\n]{0,12}";
    prop_oneof![
        10 => (0..TEMPLATES.len(), 0..KINDS.len(), 0..VIAS.len(), proptest::option::weighted(0.8, 0usize..8), text,
              proptest::option::of(1u32..4))
            .prop_map(|(t, k, v, target, s, uses)| Op::Add(t, k, v, target, s, uses)),
        1 => (0usize..8, text).prop_map(|(i, s)| Op::Edit(i, s)),
        1 => (0usize..8).prop_map(Op::Remove),
        1 => (0usize..8).prop_map(Op::Use),
        1 => (0u8..3).prop_map(Op::Award),
        1 => (1u32..5, any::<bool>()).prop_map(|(a, u)| Op::Memorable(a, u)),
        1 => (1u32..6).prop_map(Op::GainAdversity),
        1 => (0u8..4, any::<bool>()).prop_map(|(s, d)| Op::SpendAdversity(s, d)),
        1 => (1u32..4, 0u8..3).prop_map(|(p, s)| Op::GainMomentum(p, s)),
        1 => (0u8..3).prop_map(Op::Boon),
        1 => Just(Op::Join),
        1 => Just(Op::Leave),
        1 => Just(Op::ChallengeEnded),
        1 => Just(Op::SceneEnded),
        1 => Just(Op::ArcEnded),
        1 => Just(Op::Claim),
        1 => Just(Op::Sacrifice),
    ]
}

/// Plays `ops` on `element` through the rules, skipping the moves they refuse.
fn play(mut e: Element, ops: &[Op], next_id: &mut u128) -> Element {
    let mut player = rules::take_role(&Player::new(id(0xAD), "Ada").unwrap(), Role::Actor).unwrap().0;
    let by = player.id;
    let mut fresh = || {
        *next_id += 1;
        id(0x1000 + *next_id)
    };
    for op in ops {
        let pick = |i: &usize| e.traits.get(i % e.traits.len().max(1)).map(|t| t.id);
        let result = match op {
            Op::Add(t, k, v, target, text, uses) => {
                let template = TEMPLATES[*t];
                let kind = template.map_or(KINDS[*k], Template::kind);
                let name = text.replace('\n', " ");
                let name = if name.trim().is_empty() { "Trait" } else { name.as_str() };
                let mut new = Trait::new(fresh(), kind, name, VIAS[*v]);
                new.template = template;
                // Edges and flaws select a trait only when their template does.
                let selects = matches!(kind, TraitKind::Modifier | TraitKind::Extra)
                    || matches!(template, Some(Template::DulledEdge | Template::ImpairedAbility));
                new.target_trait = target.as_ref().filter(|_| selects).and_then(pick);
                new.properties = props(text, text);
                if new.via != Via::EdgeSlot {
                    new.uses_left = *uses;
                }
                rules::add_trait(&e, &new, by)
            }
            Op::Edit(i, text) => match pick(i) {
                Some(t) => rules::edit_trait(&e, t, "Renamed", &props(text, "edited"), by),
                None => continue,
            },
            Op::Remove(i) => match pick(i) {
                Some(t) => rules::remove_trait(&e, t),
                None => continue,
            },
            Op::Use(i) => match pick(i) {
                Some(t) => rules::use_trait(&e, t),
                None => continue,
            },
            Op::Award(a) => rules::award_edge_slots(
                &e,
                [SlotAward::FirstActionCheck, SlotAward::FirstChallenge, SlotAward::FirstClaim][*a as usize],
            ),
            Op::Memorable(arc, undisputable) => match rules::award_memorable(&e, &player, *arc, *undisputable) {
                Ok((next, p, events)) => {
                    player = p;
                    Ok((next, events))
                }
                Err(err) => Err(err),
            },
            Op::GainAdversity(n) => rules::gain_adversity(&e, *n),
            Op::SpendAdversity(s, debt) => {
                let spend = match s {
                    0 => AdversitySpend::FortunesFavor,
                    1 => AdversitySpend::SuddenSurge,
                    2 => AdversitySpend::UnexpectedEdge {
                        edge: Box::new(Trait::new(fresh(), TraitKind::Edge, "Unexpected", Via::Granted)),
                        no_fitting_trait: true,
                    },
                    _ => AdversitySpend::PlotHook { points: 2 },
                };
                rules::spend_adversity(&e, &spend, by, *debt)
            }
            Op::GainMomentum(n, s) => rules::gain_momentum(
                &e,
                *n,
                [MomentumSource::Boost, MomentumSource::Ruin, MomentumSource::PlotHook][*s as usize],
            ),
            Op::Boon(b) => {
                let boon = [Boon::Uses { uses: 3 }, Boon::OneChallenge, Boon::OneArc][*b as usize];
                let edge = Box::new(Trait::new(fresh(), TraitKind::Edge, "Boon", Via::Boon));
                rules::spend_momentum(&e, &MomentumSpend::Boon { boon, edge }, by)
            }
            Op::Join => rules::join_challenge(&e),
            Op::Leave => rules::leave_challenge(&e),
            Op::ChallengeEnded => rules::challenge_ended(&e),
            Op::SceneEnded => Ok(rules::end_scene(&e)),
            Op::ArcEnded => rules::end_arc(&e),
            Op::Claim => match e.claimed_by {
                Some(_) => rules::unclaim(&player, &e),
                None => rules::claim(&player, &e),
            }
            .map(|(p, next, events)| {
                player = p;
                (next, events)
            }),
            Op::Sacrifice => match e.in_challenge {
                true => rules::final_counter(&e),
                false => rules::heroic_sacrifice(&e, &Element::new(id(0xFF), ElementKind::Object, "Rope").unwrap())
                    .map(|(giver, _, events)| (giver, events)),
            },
        };
        if let Ok((next, _)) = result {
            e = next;
        }
    }
    e
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the rules make of a character's sheet or of a table's goal reads back from
    /// the database exactly.
    #[test]
    fn elements_the_rules_make_read_back_exactly(
        sheet_ops in proptest::collection::vec(op(), 1..80),
        goal_ops in proptest::collection::vec(op(), 1..80),
        arc in 0u32..5,
    ) {
        let (_s, mut store, game, [mira]) = new_game("Cove", "mezzo", ["Mira"]);
        let mut next_id = 0;
        // Each starts with its first action check's 4 slots, so edges can fill them.
        let start = |e: Element| rules::award_edge_slots(&e, SlotAward::FirstActionCheck).unwrap().0;
        let sheet = start(Element::new(mira, ElementKind::Character, "Mira").unwrap());
        let sheet = play(sheet, &sheet_ops, &mut next_id);
        let goal = play(start(Element::new(id(0x60A1), ElementKind::Goal, "The goal").unwrap()), &goal_ops, &mut next_id);
        prop_assert!(sheet.problems().is_empty(), "{:?}", sheet.problems());
        prop_assert!(goal.problems().is_empty(), "{:?}", goal.problems());
        let mut player = Player::new(id(0xB0), "Bo").unwrap();
        player.claimed = sheet.claimed_by.map(|_| mira).into_iter().collect();
        player.id = sheet.claimed_by.unwrap_or(player.id);
        let mut table = MezzoTable::default();
        (table.plot.number, table.players, table.elements) = (arc, vec![player], vec![goal]);
        store.write(|tx| {
            tx.put_mezzo_sheet(mira, &sheet)?;
            tx.put_mezzo_table(game, &table)
        }).unwrap();
        prop_assert_eq!(store.read().mezzo_sheet(mira).unwrap(), Some(sheet));
        prop_assert_eq!(store.read().mezzo_table(game).unwrap(), table);
    }
}

#[test]
fn a_sheet_kept_as_the_rules_refuse_it_is_refused_by_the_schema_too() {
    let (_s, mut store, _, [mira]) = new_game("Cove", "mezzo", ["Mira"]);
    let good = store.read().mezzo_sheet(mira).unwrap().unwrap();
    let cases: Vec<(&str, Element)> = vec![
        ("adversity and debt at once", Element { adversity: 1, adversity_debt: 1, ..good.clone() }),
        ("six momentum awards", Element { momentum_awards: 6, ..good.clone() }),
        ("another id than its character's", Element { id: Uuid::new_v4(), ..good.clone() }),
        ("a location as a character's sheet", Element { kind: ElementKind::Location, ..good.clone() }),
        ("an empty name", Element { name: "  ".into(), ..good.clone() }),
        (
            "a modifier on nothing",
            Element { traits: vec![Trait::new(id(1), TraitKind::Modifier, "Loose", Via::Granted)], ..good.clone() },
        ),
        (
            "a one-arc edge in a slot",
            Element {
                traits: vec![Trait { lasts: Lasts::Arc, ..Trait::new(id(1), TraitKind::Edge, "Fame", Via::EdgeSlot) }],
                ..good.clone()
            },
        ),
        (
            "a flaw bought with an edge slot",
            Element { traits: vec![Trait::new(id(1), TraitKind::Flaw, "Lame", Via::EdgeSlot)], ..good.clone() },
        ),
        (
            "a boon used up",
            Element {
                traits: vec![Trait { uses_left: Some(0), ..Trait::new(id(1), TraitKind::Edge, "Boon", Via::Boon) }],
                ..good.clone()
            },
        ),
        (
            "a long text",
            Element {
                traits: vec![Trait {
                    properties: Properties { details: "x".repeat(2001), ..Properties::default() },
                    ..Trait::new(id(1), TraitKind::Edge, "Lore", Via::Granted)
                }],
                ..good.clone()
            },
        ),
        (
            "its own protection lent to itself",
            Element { plot_protection: PlotProtection { lent_by: Some(mira), sacrificed: false }, ..good.clone() },
        ),
    ];
    for (what, bad) in cases {
        let err = store.write(|tx| tx.put_mezzo_sheet(mira, &bad)).unwrap_err();
        assert!(err.to_string().contains("constraint failed"), "{what}: {err}");
        assert_eq!(store.read().mezzo_sheet(mira).unwrap(), Some(good.clone()), "{what}");
    }
}

/// `sheetkeeper check` reads every Mezzo element back through the rules: an edge filling a
/// slot the element was never awarded (written behind the app's back: five edges where she
/// was introduced with four slots) is reported.
#[test]
fn check_reports_an_edge_without_a_slot() {
    let (s, store, _, [mira]) = new_game("Canal town", "mezzo", ["Mira"]);
    assert!(store.check().unwrap().ok);
    drop(store);
    let conn = rusqlite::Connection::open(s.db()).unwrap();
    for n in 0..5 {
        conn.execute(
            "INSERT INTO mz_traits (element_key, id, position, kind, name, requirements, restrictions, owner, target, \
             set_up, effects, details, via, lasts) \
             SELECT key, ?2, ?3, 'edge', ?4, '', '', '', '', '', '', '', \
             'edge_slot', 'lasting' FROM mz_elements WHERE character_id = ?1",
            rusqlite::params![
                mira.to_string(),
                format!("00000000-0000-0000-0000-0000000000a{n}"),
                n,
                format!("Quick hands {n}")
            ],
        )
        .unwrap();
    }
    drop(conn);
    let report = s.open().check().unwrap();
    assert!(!report.ok);
    assert_eq!(report.mezzo.len(), 1, "{:?}", report.mezzo);
    assert!(report.mezzo[0].contains("“Mira”"), "{:?}", report.mezzo);
}

/// "Does the old bridge hold?", the conflict the plot game's table opens for votes on phones.
pub fn bridge() -> ConflictDraft {
    ConflictDraft {
        question: "Does the old bridge hold?".into(),
        options: vec!["It holds".into(), "It falls".into()],
        about: vec![],
        active_in_scene: vec![],
        casts: vec![],
    }
}
