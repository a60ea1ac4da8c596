//! A Mezzo table: the players, the arc being played with its plot hooks, the story elements
//! that are not characters (objects, locations, factions, goals), the seed deck, the
//! keyword die, and the challenge being played (or the last one, over). A character's
//! element is its sheet, kept with the character so that it travels with it; everything
//! else lives here.
//!
//! Ruling: a table plays one challenge at a time. The finished challenge stays on the table
//! (over) until the next one starts, so that the table can still see how it ended.
//!
//! The arc's number is one fact, [`Arc::number`] (0 before the first arc starts), read as
//! [`MezzoTable::arc`]. Files and event snapshots keep it as `arc`, as they did before the
//! plot joined the table, and carry the rest of the plot without it; a file written before
//! then (no `plot`, no `deck`) reads as a table with no hooks and no deck. Later parts of
//! the table join the file the same way, each with a default, so older files still read.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::ballot::Sources;
pub use super::ballot::VictoryVotes;
use super::challenge::{Challenge, PerkUse};
use super::conflict::Variant;
use super::element::{self, Element, ElementEvent, Player};
use super::open_check::OpenCheck;
use super::open_conflict::OpenConflict;
use super::plot::{Arc, Consequence, CustomLaw, Fact, NoEscape, PlotHook, TurningPoint};
use super::seed_deck::{self, Ending, KeywordDie, SeedDeck};
use crate::error::{Error, Result};

/// Everything a Mezzo game keeps beyond its characters' sheets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "TableFile", into = "TableFile")]
pub struct MezzoTable {
    pub players: Vec<Player>,
    /// Story elements other than characters.
    pub elements: Vec<Element>,
    /// The arc being played: its number (from 1; 0 before the first starts), its Turning
    /// Point, its open plot hooks and No Escape targets.
    pub plot: Arc,
    /// The seed deck, once the table built one.
    pub deck: Option<SeedDeck>,
    /// The dice variant of the seed deck: a keyword per face of the die the table chose.
    pub keyword_die: Option<KeywordDie>,
    /// The challenge being played, or the last one (over) until the next starts.
    pub challenge: Option<Challenge>,
    /// The Setting Laws the table made for this game.
    pub laws: Vec<CustomLaw>,
    /// The facts register: established facts, each with its arc.
    pub facts: Vec<Fact>,
    /// Victory Narration votes bought in the table's challenge, not spent yet.
    pub victory_votes: Vec<VictoryVotes>,
    /// How Leave to Chance rolls at this table: the step dice, or the D6 variant for
    /// conflicts, action checks and challenge actions alike (RULES.md §3.2).
    pub variant: Variant,
    /// The scene: whether one is being played, and the elements active in it.
    pub scene: Scene,
    /// A conflict the table opened for the players' votes from their own devices (DEV-1).
    pub open_conflict: Option<OpenConflict>,
    /// An action check the table opened for the players' votes from their own devices.
    pub open_check: Option<OpenCheck>,
}

/// The table's scene (RULES.md §3.4, "Scenes"). The elements active in it are kept between
/// scenes too, so the table can pick them before it starts one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// A scene is being played.
    #[serde(default)]
    pub open: bool,
    /// The elements active in it (characters or the table's own), in the order made active.
    #[serde(default)]
    pub active: Vec<Uuid>,
}

impl Scene {
    fn is_empty(&self) -> bool {
        !self.open && self.active.is_empty()
    }
}

/// The most elements active in a scene at once.
pub const MAX_ACTIVE: usize = 200;

/// The elements active in the scene become `active` (each an element of the game, once).
pub fn set_active(table: &MezzoTable, active: &[Uuid], elements: &[Element]) -> Result<MezzoTable> {
    if active.len() > MAX_ACTIVE {
        return Err(Error::invalid("active", format!("at most {MAX_ACTIVE} elements are active at once")));
    }
    for (i, id) in active.iter().enumerate() {
        if !elements.iter().any(|e| e.id == *id) {
            return Err(Error::invalid(format!("active[{i}]"), format!("{id} is not a story element of this game")));
        }
        if active[..i].contains(id) {
            return Err(Error::invalid(format!("active[{i}]"), "each element is active once"));
        }
    }
    let mut next = table.clone();
    next.scene.active = active.to_vec();
    Ok(next)
}

/// A scene starts (none may be open).
pub fn start_scene(table: &MezzoTable) -> Result<MezzoTable> {
    if table.scene.open {
        return Err(Error::invalid("scene", "a scene is already being played: end it first"));
    }
    let mut next = table.clone();
    next.scene.open = true;
    Ok(next)
}

/// The scene ends: every element of the game (`elements`: the characters' sheets and the
/// table's own) loses what lasts until the end of the scene ([`element::end_scene`]:
/// scene-only traits such as a Background's phantom edge, and Plot Protection lent by a
/// Heroic Sacrifice outside a challenge), and the seed deck's refresh opens (RULES.md §3.6:
/// at the end of a scene each player may discard one card and draw one). Returns the table
/// and the elements that changed.
pub fn end_scene(table: &MezzoTable, elements: &[Element]) -> Result<(MezzoTable, Vec<Element>, Vec<ElementEvent>)> {
    if !table.scene.open {
        return Err(Error::invalid("scene", "no scene is being played: start one first"));
    }
    let mut next = open_refresh(table, Ending::Scene);
    next.scene.open = false;
    let (mut changed, mut events) = (Vec::new(), Vec::new());
    for e in elements {
        let (after, more) = element::end_scene(e);
        if after != *e {
            changed.push(after);
        }
        events.extend(more.into_iter().filter(|m| !matches!(m, ElementEvent::SceneEnded { .. })));
    }
    Ok((next, changed, events))
}

/// The table's challenge is over: the seed deck's refresh opens (RULES.md §3.6: at the end of
/// a challenge each player may discard one card and draw one), whether or not a scene goes on.
pub fn challenge_over(table: &MezzoTable) -> MezzoTable {
    open_refresh(table, Ending::Challenge)
}

/// The seed deck's refresh opens, if the table built a deck. The deck's own `end_of` is only
/// reached from here, so a refresh opens when a scene or a challenge really ends (DEV-3), never
/// in the middle of one.
fn open_refresh(table: &MezzoTable, ending: Ending) -> MezzoTable {
    let mut next = table.clone();
    if let Some(deck) = &table.deck {
        next.deck = Some(seed_deck::end_of(deck, ending).0);
    }
    next
}

/// Whether the arc may end now (RULES.md §3.5; seed: after the Turning Point "players can call
/// for the end of the current plot arc at the end of each scene"): not while a scene is being
/// played. Ruling: between scenes (none open) counts as the end of the last one, so a table
/// that does not keep scenes in the app ends its arc as before. The Turning Point itself is
/// the plot's rule ([`Arc::can_end`]).
/// Whether every player's influence may be reset for a new arc: not while a conflict is open
/// for votes. Ruling (the seed is silent; its conflicts are voted and resolved at once): the
/// ballots cast into it spend influence held in this arc, which the reset would take away
/// or make up, so the table resolves or withdraws the conflict first and no ballot is dropped
/// or clipped behind anyone's back.
pub fn check_influence_may_reset(table: &MezzoTable) -> Result<()> {
    match &table.open_conflict {
        Some(open) => Err(Error::invalid(
            "open_conflict",
            format!(
                "the conflict “{}” is open for votes: resolve or withdraw it before a new arc resets everyone's influence",
                open.question
            ),
        )),
        None => Ok(()),
    }
}

pub fn check_arc_may_end(table: &MezzoTable) -> Result<()> {
    if table.scene.open {
        return Err(Error::invalid(
            "scene",
            "an arc ends at the end of a scene: end the scene being played first (Table tab)",
        ));
    }
    Ok(())
}

impl Default for MezzoTable {
    /// A table before its first arc: no players, no elements, no hooks, no deck.
    fn default() -> Self {
        MezzoTable {
            players: Vec::new(),
            elements: Vec::new(),
            plot: Arc::new(0),
            deck: None,
            keyword_die: None,
            challenge: None,
            laws: Vec::new(),
            facts: Vec::new(),
            victory_votes: Vec::new(),
            variant: Variant::Steps,
            scene: Scene::default(),
            open_conflict: None,
            open_check: None,
        }
    }
}

impl MezzoTable {
    /// The arc being played, from 1 (0 before the first starts).
    pub fn arc(&self) -> u32 {
        self.plot.number
    }
}

/// The table as files and event snapshots carry it.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    #[serde(default)]
    arc: u32,
    #[serde(default)]
    players: Vec<Player>,
    #[serde(default)]
    elements: Vec<Element>,
    #[serde(default, skip_serializing_if = "PlotFile::is_empty")]
    plot: PlotFile,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deck: Option<SeedDeck>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keyword_die: Option<KeywordDie>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    challenge: Option<Challenge>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    laws: Vec<CustomLaw>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    facts: Vec<Fact>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    victory_votes: Vec<VictoryVotes>,
    /// Written only for the D6 variant, so files of a step-dice table read as before.
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    variant: Variant,
    #[serde(default, skip_serializing_if = "Scene::is_empty")]
    scene: Scene,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    open_conflict: Option<OpenConflict>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    open_check: Option<OpenCheck>,
}

/// An [`Arc`] without its number, which the table file keeps as `arc`.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlotFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turning_point: Option<TurningPoint>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    hooks: Vec<PlotHook>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    no_escape: Vec<NoEscape>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    consequences: Vec<Consequence>,
}

impl PlotFile {
    fn is_empty(&self) -> bool {
        self.turning_point.is_none()
            && self.hooks.is_empty()
            && self.no_escape.is_empty()
            && self.consequences.is_empty()
    }
}

impl From<TableFile> for MezzoTable {
    fn from(f: TableFile) -> Self {
        let plot = Arc {
            number: f.arc,
            turning_point: f.plot.turning_point,
            hooks: f.plot.hooks,
            no_escape: f.plot.no_escape,
            consequences: f.plot.consequences,
        };
        MezzoTable {
            players: f.players,
            elements: f.elements,
            plot,
            deck: f.deck,
            keyword_die: f.keyword_die,
            challenge: f.challenge,
            laws: f.laws,
            facts: f.facts,
            victory_votes: f.victory_votes,
            variant: f.variant,
            scene: f.scene,
            open_conflict: f.open_conflict,
            open_check: f.open_check,
        }
    }
}

impl From<MezzoTable> for TableFile {
    fn from(t: MezzoTable) -> Self {
        let plot = PlotFile {
            turning_point: t.plot.turning_point,
            hooks: t.plot.hooks,
            no_escape: t.plot.no_escape,
            consequences: t.plot.consequences,
        };
        TableFile {
            arc: t.plot.number,
            players: t.players,
            elements: t.elements,
            plot,
            deck: t.deck,
            keyword_die: t.keyword_die,
            challenge: t.challenge,
            laws: t.laws,
            facts: t.facts,
            victory_votes: t.victory_votes,
            variant: t.variant,
            scene: t.scene,
            open_conflict: t.open_conflict,
            open_check: t.open_check,
        }
    }
}

// The vote sources live in `ballot.rs`; what a table holds of them is read here, so the
// ballot need not know the table (which knows challenges, which cast ballots).
impl Sources {
    /// The sources a table holds now.
    pub fn of(table: &MezzoTable) -> Sources {
        let challenge = table.challenge.as_ref();
        let discoveries = challenge
            .iter()
            .flat_map(|c| c.actions.iter().flat_map(|a| a.declared.iter()))
            .filter_map(|p| match p {
                PerkUse::Discover { detail } => Some(detail.trim().to_owned()),
                _ => None,
            })
            .collect();
        Sources {
            laws: table.laws.clone(),
            themes: table.plot.turning_point.iter().flat_map(|tp| tp.themes.iter().cloned()).collect(),
            victory_votes: table
                .victory_votes
                .iter()
                .filter(|v| challenge.is_some_and(|c| c.id == v.challenge))
                .cloned()
                .collect(),
            discoveries,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use uuid::Uuid;

    use super::*;
    use crate::rules::mezzo::plot::{Investment, Resource};

    #[test]
    fn an_empty_table_is_before_the_first_arc_and_reads_from_an_empty_object() {
        let table = MezzoTable::default();
        assert_eq!(table.arc(), 0);
        assert_eq!(serde_json::to_value(&table).unwrap(), json!({"arc": 0, "players": [], "elements": []}));
        assert_eq!(serde_json::from_value::<MezzoTable>(json!({})).unwrap(), table);
    }

    #[test]
    fn the_arc_number_is_written_once_as_arc_and_the_plot_goes_without_it() {
        let mut table = MezzoTable { plot: Arc::new(3), ..MezzoTable::default() };
        let hook = PlotHook {
            id: Uuid::from_u128(1),
            text: "Where is the map?".into(),
            creator: Uuid::from_u128(2),
            elements: Vec::new(),
            stored: vec![Investment { by: Uuid::from_u128(2), resource: Resource::Influence, points: 2 }],
        };
        table.plot.hooks.push(hook);
        table.deck = Some(SeedDeck::default());
        let value = serde_json::to_value(&table).unwrap();
        assert_eq!(value["arc"], 3);
        assert!(value["plot"].get("number").is_none());
        assert_eq!(value["plot"]["hooks"][0]["stored"][0]["points"], 2);
        assert_eq!(serde_json::from_value::<MezzoTable>(value.clone()).unwrap(), table);

        let mut twice = value;
        twice["plot"]["number"] = json!(3);
        assert!(serde_json::from_value::<MezzoTable>(twice).is_err(), "the number is not written twice");
    }

    /// DEV-3 (RULES.md §3.6): the seed deck's refresh opens when a scene or a challenge ends,
    /// and only then: the table's End scene and a challenge's end open it for every player.
    #[test]
    fn the_end_of_a_scene_or_a_challenge_opens_the_seed_deck_refresh() {
        let (ada, bo) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let cards: Vec<seed_deck::Card> =
            (0..6).map(|i| seed_deck::Card { id: Uuid::from_u128(100 + i), text: format!("card {i}") }).collect();
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
        let deck = seed_deck::build(&cards, &[ada, bo], &mut rng).unwrap().0;
        let table = MezzoTable { deck: Some(deck), ..MezzoTable::default() };
        assert!(table.deck.as_ref().unwrap().refresh.is_empty());
        // A scene being played: nothing opens until it ends.
        let playing = start_scene(&table).unwrap();
        assert!(playing.deck.as_ref().unwrap().refresh.is_empty(), "not mid-scene");
        let (ended, _, _) = end_scene(&playing, &[]).unwrap();
        assert_eq!(ended.deck.as_ref().unwrap().refresh, [ada, bo]);
        assert!(!ended.scene.open);
        // A challenge's end opens it too, even with the scene going on.
        let over = challenge_over(&playing);
        assert_eq!(over.deck.as_ref().unwrap().refresh, [ada, bo]);
        assert!(over.scene.open);
        // A table without a deck ends its scene as before.
        let bare = start_scene(&MezzoTable::default()).unwrap();
        assert_eq!(end_scene(&bare, &[]).unwrap().0.deck, None);
    }

    /// DEV-10 (seed: "at the end of each scene"): the arc does not end while a scene is being
    /// played; once it ends, or between scenes, it may.
    #[test]
    fn an_arc_ends_only_at_the_end_of_a_scene() {
        let table = MezzoTable::default();
        assert!(check_arc_may_end(&table).is_ok(), "between scenes");
        let playing = start_scene(&table).unwrap();
        assert_eq!(
            check_arc_may_end(&playing).unwrap_err().to_string(),
            "scene: an arc ends at the end of a scene: end the scene being played first (Table tab)"
        );
        let (ended, _, _) = end_scene(&playing, &[]).unwrap();
        assert!(check_arc_may_end(&ended).is_ok());
    }

    /// A new arc resets influence: not while a conflict open for votes holds ballots
    /// spending this arc's influence; once it is resolved or withdrawn, it may.
    #[test]
    fn no_new_arc_resets_influence_while_a_conflict_is_open_for_votes() {
        let table = MezzoTable::default();
        assert!(check_influence_may_reset(&table).is_ok());
        let open = OpenConflict {
            question: "Does the bridge hold?".into(),
            options: vec!["Yes".into(), "No".into()],
            about: vec![],
            active_in_scene: vec![],
            ballots: vec![],
        };
        let voting = MezzoTable { open_conflict: Some(open), ..table };
        assert_eq!(
            check_influence_may_reset(&voting).unwrap_err().to_string(),
            "open_conflict: the conflict “Does the bridge hold?” is open for votes: resolve or withdraw it before a new arc resets everyone's influence"
        );
    }

    #[test]
    fn a_scene_keeps_its_active_elements_and_its_end_takes_what_lasted_the_scene() {
        use crate::rules::mezzo::element::{ElementKind, Lasts, Trait, TraitKind, Via};
        let mira = Element::new(Uuid::from_u128(1), ElementKind::Character, "Mira").unwrap();
        let mut key = Element::new(Uuid::from_u128(2), ElementKind::Object, "Old Key").unwrap();
        let mut glow = Trait::new(Uuid::from_u128(3), TraitKind::Edge, "Glowing", Via::Granted);
        glow.lasts = Lasts::Scene;
        key.traits.push(glow);
        let mut lasting = Trait::new(Uuid::from_u128(4), TraitKind::Edge, "Heavy", Via::Granted);
        lasting.lasts = Lasts::Arc;
        key.traits.push(lasting);
        let all = vec![mira.clone(), key.clone()];
        let table = MezzoTable::default();

        let err = set_active(&table, &[mira.id, mira.id], &all).unwrap_err().to_string();
        assert_eq!(err, "active[1]: each element is active once");
        let err = set_active(&table, &[Uuid::from_u128(9)], &all).unwrap_err().to_string();
        assert!(err.starts_with("active[0]: "), "{err}");
        assert!(end_scene(&table, &all).unwrap_err().to_string().starts_with("scene: no scene is being played"));

        let table = start_scene(&set_active(&table, &[mira.id, key.id], &all).unwrap()).unwrap();
        assert!(start_scene(&table).unwrap_err().to_string().starts_with("scene: a scene is already being played"));
        let value = serde_json::to_value(&table).unwrap();
        assert_eq!(value["scene"], json!({"open": true, "active": [mira.id, key.id]}));
        assert_eq!(serde_json::from_value::<MezzoTable>(value).unwrap(), table);

        let (ended, changed, events) = end_scene(&table, &all).unwrap();
        assert!(!ended.scene.open);
        assert_eq!(ended.scene.active, vec![mira.id, key.id], "who is active stays for the next scene");
        assert_eq!(changed.len(), 1, "only the key had something lasting the scene");
        let names: Vec<&str> = changed[0].traits.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["Heavy"]);
        assert!(!events.is_empty());
        assert!(serde_json::to_value(MezzoTable::default()).unwrap().get("scene").is_none());
    }

    #[test]
    fn the_d6_variant_is_written_only_when_chosen() {
        let table = MezzoTable { variant: Variant::D6, ..MezzoTable::default() };
        let value = serde_json::to_value(&table).unwrap();
        assert_eq!(value["variant"], "d6");
        assert_eq!(serde_json::from_value::<MezzoTable>(value).unwrap(), table);
        assert!(serde_json::to_value(MezzoTable::default()).unwrap().get("variant").is_none());
    }
}
