//! The world of a No Stone Unturned game (RULES.md §1.5): worldbuilding, the map, collateral
//! clocks and project clocks. Each move is one transaction that writes the world and one
//! `nsu_world_changed` event holding the world before and after, so `undo_game` restores it.
//!
//! Downtime (`nsu_downtime.rs`) logs the same payload, with the phase and the sheets it
//! changed; undoing either kind goes through [`undo_world_event`] here.

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::{now, Game, System};
use crate::rules::nsu::downtime::DowntimePhase;
use crate::rules::nsu::roll::{check_detail_granted, AtRisk, Grant};
use crate::rules::nsu::scope;
use crate::rules::nsu::sheet::{required_text_problem, Detail, HARM_SLOTS};
use crate::rules::nsu::world::{
    self, GridPos, Location, NewLocation, NewNpc, NewProject, ResourceState, SafetyList, World, WorldEvent,
    RESOURCE_COUNT,
};
use crate::rules::record::CharacterRecord;
use crate::services::characters::{load, update};
use crate::services::dice::{with_dice, DiceInput};
use crate::services::log::{payload_of, table_event};
use crate::services::lookup::existing_game;
use crate::services::viewer::{device_viewer, not_yours, Viewer};
use crate::store::{Event, EventKind, Reader, Store, Tx};

/// A world after a move, with what changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorldChange {
    pub world: World,
    pub events: Vec<WorldEvent>,
}

/// One card on the map as a given character sees it. A face-down card shows only where it
/// lies, unless that character scouted it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MapCard {
    pub id: Uuid,
    pub position: Option<GridPos>,
    pub revealed: bool,
    /// The viewer privately saw this card while it was face down.
    pub scouted: bool,
    /// The viewer's player wrote this card.
    pub authored: bool,
    /// What is written on the card; None while the viewer may not see it.
    pub face: Option<Location>,
}

/// What a player writes on a new location card (the app gives it its id).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct LocationDraft {
    pub name: String,
    pub author: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub collateral_harms: String,
    #[serde(default)]
    pub danger: String,
    #[serde(default)]
    pub treasure: String,
    /// The character whose player writes the card (a character of this game), when the
    /// device plays one; only they (and scouts) read the card until it is revealed.
    #[serde(default)]
    pub author_character: Option<Uuid>,
}

/// The state a world or downtime event snapshots: the world, the downtime phase, and the
/// characters whose sheets the move changed (downtime only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(in crate::services) struct WorldSnapshot {
    pub world: World,
    pub downtime: Option<DowntimePhase>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<CharacterRecord>,
}

/// The payload of every world and downtime event: what was done, the state before and
/// after, and the rules' own events (for history).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(in crate::services) struct WorldPayload {
    /// What was done, in words ("adding a scene detail").
    pub action: String,
    pub before: WorldSnapshot,
    pub after: WorldSnapshot,
    #[serde(default)]
    pub events: serde_json::Value,
}

/// Whether undoing `kind` restores a world snapshot.
pub(in crate::services) fn is_world_event(kind: EventKind) -> bool {
    matches!(
        kind,
        EventKind::NsuWorldChanged
            | EventKind::NsuDowntimeStarted
            | EventKind::NsuDowntimeMove
            | EventKind::NsuDowntimeEnded
    )
}

/// The game, which must exist and play No Stone Unturned.
pub(in crate::services) fn nsu_game(read: Reader<'_>, game: Uuid) -> Result<Game> {
    let g = existing_game(read, game)?;
    if g.system != System::Nsu {
        return Err(Error::invalid(
            "game",
            format!("“{}” is a {} game; worlds belong to No Stone Unturned", g.name, g.system.label()),
        ));
    }
    Ok(g)
}

/// A character of `game`, or an error naming `field`.
pub(in crate::services) fn member(read: Reader<'_>, game: Uuid, id: Uuid, field: &str) -> Result<CharacterRecord> {
    let record = load(read, id)?;
    if record.character.game_id != game {
        return Err(Error::invalid(field, format!("“{}” plays in another game", record.character.name)));
    }
    Ok(record)
}

/// Applies one world move to game `game` in one transaction and logs it.
fn change(
    store: &mut Store,
    game: Uuid,
    action: &str,
    play: impl FnOnce(Reader<'_>, &World) -> Result<(World, Vec<WorldEvent>)>,
) -> Result<WorldChange> {
    store.write(|tx| {
        let read = tx.read();
        nsu_game(read, game)?;
        let before = read.nsu_world(game)?;
        let (after, events) = play(read, &before)?;
        tx.put_nsu_world(game, &after)?;
        tx.touch_game(game, now())?;
        let downtime = read.nsu_downtime(game)?;
        let payload = WorldPayload {
            action: action.to_owned(),
            before: WorldSnapshot { world: before, downtime: downtime.clone(), characters: Vec::new() },
            after: WorldSnapshot { world: after.clone(), downtime, characters: Vec::new() },
            events: serde_json::to_value(&events).expect("world events serialize"),
        };
        table_event(tx, EventKind::NsuWorldChanged, game, &payload, None)?;
        let mut world = after;
        seen_by(&mut world, &device_viewer(read, game)?);
        Ok(WorldChange { world, events })
    })
}

/// The whole world of a game, as this device may see it (its role in the game).
pub fn nsu_world(store: &Store, game: Uuid) -> Result<World> {
    let read = store.read();
    nsu_game(read, game)?;
    let viewer = device_viewer(read, game)?;
    world_for(read, game, &viewer)
}

/// The world as `viewer` may see it: a face-down card on the map keeps only its back (its
/// D and R levels, its clock) for those who did not scout it (RULES.md §1.5).
pub(in crate::services) fn world_for(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<World> {
    nsu_game(read, game)?;
    let mut world = read.nsu_world(game)?;
    seen_by(&mut world, viewer);
    Ok(world)
}

/// Leaves out of `world` what `viewer` may not see (RULES.md §1.5, map secrecy): a card not
/// revealed — face down on the map, or still in its author's hands — keeps only its back
/// (its D and R levels, its place, its clock) for everyone but its author's player and the
/// players of characters who scouted it. Its name, text, notes and author are cleared.
pub(in crate::services) fn seen_by(world: &mut World, viewer: &Viewer) {
    for l in &mut world.locations {
        if !reads_card(l, viewer) {
            close_card(l);
        }
    }
}

/// Clears all a card's back does not show.
fn close_card(l: &mut Location) {
    for text in
        [&mut l.name, &mut l.author, &mut l.description, &mut l.collateral_harms, &mut l.danger, &mut l.treasure]
    {
        text.clear();
    }
    l.scene_details.clear();
    l.author_character = None;
}

/// Whether `viewer` reads what card `l` says. The table side does not; a device passed
/// around does not either until one named character asks (`nsu_map` with a viewer, after
/// the window's hand-over), so a card is never open on a screen others can see by default.
fn reads_card(l: &Location, viewer: &Viewer) -> bool {
    if l.revealed {
        return true;
    }
    let Viewer::Player(mine) = viewer else { return false };
    l.author_character.is_some_and(|c| mine.contains(&c)) || l.scouted_by.iter().any(|c| mine.contains(c))
}

/// A change of the map in words, and whether it is one of collateral (the journal sorts it
/// with the complications).
pub(crate) struct MapChange {
    pub seq: i64,
    pub words: String,
    pub collateral: bool,
}

/// The map's changes logged after event `within.0` and up to event `within.1` (a journal
/// session's), oldest first, taken-back ones left out: cards written, dealt, placed, revealed
/// and scouted, levels rolled, paths drawn and rubbed out, the party's moves, collateral and
/// scene details. Ruling: a journal is read by the table and every player, so a card is
/// named (and its scene details quoted) only once it is revealed, as everyone sees the map;
/// a face-down card is "a face-down card" in every viewer's journal, even its author's.
pub(crate) fn map_changes_within(read: Reader<'_>, game: Uuid, within: (i64, i64)) -> Result<Vec<MapChange>> {
    let mut out = Vec::new();
    for (event, undone) in read.events_of_kind_within(game, None, EventKind::NsuWorldChanged, within, u32::MAX)? {
        if undone {
            continue;
        }
        let payload: WorldPayload = payload_of(&event)?;
        // A detail written from a roll logs its world events under "world", beside the roll.
        let events = match payload.events {
            serde_json::Value::Object(mut o) => o.remove("world").unwrap_or_default(),
            events => events,
        };
        let events: Vec<WorldEvent> = if events.is_null() {
            Vec::new()
        } else {
            serde_json::from_value(events).map_err(|e| {
                Error::invalid("event log", format!("event {} (the world's changes) cannot be read: {e}", event.seq))
            })?
        };
        let after = &payload.after.world;
        for e in &events {
            if let Some((words, collateral)) = map_words(read, after, e)? {
                out.push(MapChange { seq: event.seq, words, collateral });
            }
        }
    }
    Ok(out)
}

/// `e` in words as everyone reads the map after it (`after`); None for a change that is not
/// the map's.
fn map_words(read: Reader<'_>, after: &World, e: &WorldEvent) -> Result<Option<(String, bool)>> {
    let card = |id: Uuid| match after.locations.iter().find(|l| l.id == id) {
        Some(l) if reads_card(l, &Viewer::Everyone) && !l.name.trim().is_empty() => format!("“{}”", l.name.trim()),
        _ => "a face-down card".to_owned(),
    };
    let capital = |text: String| {
        let mut chars = text.chars();
        chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
    };
    let words = match e {
        WorldEvent::LocationAuthored { .. } => "A location card is written.".to_owned(),
        WorldEvent::LevelsRolled { location, danger_level, reward_level } => {
            format!("{}: D{danger_level} R{reward_level}, its levels rolled.", capital(card(*location)))
        }
        WorldEvent::LocationPlaced { location, before: None, .. } => {
            format!("{} is laid on the map.", capital(card(*location)))
        }
        WorldEvent::LocationPlaced { location, .. } => format!("{} is moved on the map.", capital(card(*location))),
        WorldEvent::LocationsDealt { cells } => format!("{} location card(s) dealt face down on the map.", cells.len()),
        WorldEvent::LocationRevealed { location } => format!("{} is revealed.", capital(card(*location))),
        WorldEvent::LocationScouted { location, character, .. } => {
            let who = read.character(*character)?.map_or_else(|| "A character".to_owned(), |c| c.name);
            format!("{who} scouts {}.", card(*location))
        }
        WorldEvent::CollateralChanged { location, before, after: now, .. } => {
            let words = format!("Collateral at {}: {before} → {now} of 8.", card(*location));
            return Ok(Some((words, true)));
        }
        WorldEvent::SceneDetailAdded { location, text, world_at_risk, .. } => {
            let risk = if *world_at_risk { " (the world at risk)" } else { "" };
            match after.locations.iter().find(|l| l.id == *location) {
                Some(l) if reads_card(l, &Viewer::Everyone) => {
                    format!("A scene detail at {}{risk}: {}", card(*location), text.trim())
                }
                _ => format!("A scene detail at a face-down card{risk}."),
            }
        }
        WorldEvent::PathAdded { path } => format!("A path is drawn between {} and {}.", card(path.a), card(path.b)),
        WorldEvent::PathRemoved { path } => {
            format!("The path between {} and {} is rubbed out.", card(path.a), card(path.b))
        }
        WorldEvent::PartyMoved { after: Some(to), .. } => format!("The party moves to {}.", card(*to)),
        WorldEvent::PartyMoved { after: None, .. } => "The party goes home.".to_owned(),
        _ => return Ok(None),
    };
    Ok(Some((words, false)))
}

/// The map as this device may see it. With `viewer` (a character), as that character sees
/// it — one of this device's own, or any on a device passed around the table; without, as
/// the device's role sees it (a device passed around shows every face-down card closed).
pub fn nsu_map(store: &Store, game: Uuid, viewer: Option<Uuid>) -> Result<Vec<MapCard>> {
    let read = store.read();
    nsu_game(read, game)?;
    let device = device_viewer(read, game)?;
    let as_seen = match viewer {
        Some(v) => {
            member(read, game, v, "viewer")?;
            if !device.sees_character(v) {
                return Err(not_yours("viewer", "What that character scouted"));
            }
            Viewer::Player(vec![v])
        }
        None if device == Viewer::PassedAround => Viewer::Everyone,
        None => device,
    };
    map_for(read, game, &as_seen)
}

/// The map as `viewer` sees it: a card's face only where [`seen_by`] would leave it open.
pub(in crate::services) fn map_for(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<Vec<MapCard>> {
    let world = read.nsu_world(game)?;
    let mine = |c: &Uuid| matches!(viewer, Viewer::Player(m) if m.contains(c));
    Ok(world
        .locations
        .into_iter()
        .map(|l| {
            let scouted = l.scouted_by.iter().any(mine);
            let open = reads_card(&l, viewer);
            MapCard {
                id: l.id,
                position: l.position,
                revealed: l.revealed,
                scouted,
                authored: l.author_character.as_ref().is_some_and(mine),
                face: open.then_some(l),
            }
        })
        .collect())
}

pub fn nsu_world_add_safety(store: &mut Store, game: Uuid, list: SafetyList, text: &str) -> Result<WorldChange> {
    change(store, game, "adding a safety entry", |_, w| world::add_safety_entry(w, list, text))
}

pub fn nsu_world_remove_safety(store: &mut Store, game: Uuid, list: SafetyList, index: usize) -> Result<WorldChange> {
    change(store, game, "removing a safety entry", |_, w| world::remove_safety_entry(w, list, index))
}

/// A player's ban; `ban` None records that they passed.
pub fn nsu_world_ban(store: &mut Store, game: Uuid, player: &str, ban: Option<&str>) -> Result<WorldChange> {
    change(store, game, "recording a ban", |_, w| world::record_ban(w, player, ban))
}

pub fn nsu_world_add_statement(store: &mut Store, game: Uuid, author: &str, text: &str) -> Result<WorldChange> {
    change(store, game, "adding a settlement statement", |_, w| world::add_statement(w, author, text))
}

pub fn nsu_world_add_scope_question(store: &mut Store, game: Uuid, question: &str) -> Result<WorldChange> {
    change(store, game, "adding a scope question", |_, w| world::add_scope_question(w, question))
}

/// How many of the scope's guiding questions the world does not have yet (the window offers
/// to add them while some are missing).
pub fn nsu_world_guiding_missing(store: &Store, game: Uuid) -> Result<usize> {
    let read = store.read();
    nsu_game(read, game)?;
    Ok(scope::missing_guiding_questions(&read.nsu_world(game)?).len())
}

/// Adds the scope's guiding questions the world does not have yet, as one undoable move.
pub fn nsu_world_add_guiding_questions(store: &mut Store, game: Uuid) -> Result<WorldChange> {
    change(store, game, "adding the scope's guiding questions", |_, w| scope::add_guiding_questions(w))
}

pub fn nsu_world_answer_scope(store: &mut Store, game: Uuid, index: usize, answer: &str) -> Result<WorldChange> {
    change(store, game, "answering a scope question", |_, w| world::answer_scope_question(w, index, answer))
}

/// Names the five resources; `abundance` is the index of the one in abundance.
pub fn nsu_world_create_resources(
    store: &mut Store,
    game: Uuid,
    names: &[String],
    abundance: usize,
) -> Result<WorldChange> {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let names: [&str; RESOURCE_COUNT] = names.try_into().map_err(|n: Vec<&str>| {
        Error::invalid("names", format!("{} names were given; a world has {RESOURCE_COUNT} resources", n.len()))
    })?;
    change(store, game, "naming the resources", |_, w| world::create_resources(w, &names, abundance))
}

pub fn nsu_world_set_resource(
    store: &mut Store,
    game: Uuid,
    index: usize,
    state: ResourceState,
) -> Result<WorldChange> {
    change(store, game, "changing a resource", |_, w| world::set_resource_state(w, index, state))
}

pub fn nsu_world_author_location(store: &mut Store, game: Uuid, draft: &LocationDraft) -> Result<WorldChange> {
    let new = NewLocation {
        id: Uuid::new_v4(),
        name: draft.name.clone(),
        author: draft.author.clone(),
        description: draft.description.clone(),
        collateral_harms: draft.collateral_harms.clone(),
        danger: draft.danger.clone(),
        treasure: draft.treasure.clone(),
        author_character: draft.author_character,
    };
    change(store, game, "writing a location card", |read, w| {
        if let Some(c) = new.author_character {
            member(read, game, c, "author_character")?;
        }
        world::author_location(w, &new)
    })
}

/// Links a card to the character whose player wrote it (the creation wizard's rumours
/// step), or unlinks it (`None`).
pub fn nsu_world_link_author(
    store: &mut Store,
    game: Uuid,
    location: Uuid,
    character: Option<Uuid>,
) -> Result<WorldChange> {
    change(store, game, "linking a card to its author", |read, w| {
        if let Some(c) = character {
            member(read, game, c, "character")?;
        }
        world::link_author(w, location, character)
    })
}

/// Moves the party to a revealed card on the map, or home (`None`).
pub fn nsu_world_set_party_location(store: &mut Store, game: Uuid, location: Option<Uuid>) -> Result<WorldChange> {
    change(store, game, "moving the party", |_, w| world::set_party_location(w, location))
}

/// Shuffles the cards not yet on the map and deals them face down onto `cells` (one shuffle
/// die per card but the last; see `world::deal_locations`).
pub fn nsu_world_deal<R: Rng>(
    store: &mut Store,
    game: Uuid,
    cells: &[GridPos],
    dice: &DiceInput,
    rng: &mut R,
) -> Result<WorldChange> {
    change(store, game, "dealing the location cards", |_, w| {
        with_dice(dice, rng, |d| world::deal_locations(w, cells, d))
    })
}

pub fn nsu_world_add_path(store: &mut Store, game: Uuid, a: Uuid, b: Uuid) -> Result<WorldChange> {
    change(store, game, "drawing a path", |_, w| world::add_path(w, a, b))
}

pub fn nsu_world_remove_path(store: &mut Store, game: Uuid, a: Uuid, b: Uuid) -> Result<WorldChange> {
    change(store, game, "rubbing out a path", |_, w| world::remove_path(w, a, b))
}

/// An NPC's Overcome threshold, 2 to 4, or None for an ordinary NPC (one harm detail).
pub fn nsu_world_set_npc_threshold(
    store: &mut Store,
    game: Uuid,
    npc: Uuid,
    threshold: Option<u8>,
) -> Result<WorldChange> {
    change(store, game, "setting an NPC's threshold", |_, w| world::set_npc_threshold(w, npc, threshold))
}

/// A harm detail on an NPC written by hand (not from a roll: that is `nsu_roll_write_detail`).
pub fn nsu_world_add_npc_harm(store: &mut Store, game: Uuid, npc: Uuid, text: &str) -> Result<WorldChange> {
    change(store, game, "writing harm on an NPC", |_, w| world::add_npc_harm(w, npc, text))
}

pub fn nsu_world_remove_npc_harm(store: &mut Store, game: Uuid, npc: Uuid, index: usize) -> Result<WorldChange> {
    change(store, game, "crossing harm off an NPC", |_, w| world::remove_npc_harm(w, npc, index))
}

/// Rolls a card's danger and reward levels (2d4: danger die, then reward die).
pub fn nsu_world_roll_levels<R: Rng>(
    store: &mut Store,
    game: Uuid,
    location: Uuid,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<WorldChange> {
    change(store, game, "rolling a location's levels", |_, w| {
        with_dice(dice, rng, |d| world::roll_levels(w, location, d))
    })
}

/// Moves a card already on the map to a free cell (cards reach the map by the deal).
pub fn nsu_world_place(store: &mut Store, game: Uuid, location: Uuid, at: GridPos) -> Result<WorldChange> {
    change(store, game, "moving a location card", |_, w| world::place_location(w, location, at))
}

pub fn nsu_world_reveal(store: &mut Store, game: Uuid, location: Uuid) -> Result<WorldChange> {
    change(store, game, "revealing a location card", |_, w| world::reveal_location(w, location))
}

/// Adds (or, negative, removes) ticks typed by a person on a collateral clock.
pub fn nsu_world_tick_collateral(store: &mut Store, game: Uuid, location: Uuid, delta: i8) -> Result<WorldChange> {
    change(store, game, "changing a collateral clock", |_, w| world::tick_collateral(w, location, delta))
}

/// A scene detail at a location, written by hand from the World screen: it ticks nothing
/// (the table ticks a clock by hand there; a roll's details go through
/// `nsu_roll_write_detail`, which ticks the party's location).
pub fn nsu_world_add_scene_detail(
    store: &mut Store,
    game: Uuid,
    location: Uuid,
    text: &str,
    world_at_risk: bool,
) -> Result<WorldChange> {
    change(store, game, "adding a scene detail", |_, w| world::add_scene_detail(w, location, text, world_at_risk))
}

/// Records that `character` privately saw a face-down card, with no roll: the window and the
/// CLI do not offer it (a scout is an action roll, settled by `nsu_roll_resolve`); it sets up
/// a table's state for tests.
pub fn nsu_world_record_scout(store: &mut Store, game: Uuid, location: Uuid, character: Uuid) -> Result<WorldChange> {
    change(store, game, "recording a scout", |read, w| {
        member(read, game, character, "character")?;
        world::record_scout(w, location, character)
    })
}

/// A new long-term project clock of `size` (2 to 12, usually 4, 6 or 8) owned by `owner`.
pub fn nsu_world_start_project(
    store: &mut Store,
    game: Uuid,
    owner: Uuid,
    name: &str,
    size: u8,
) -> Result<WorldChange> {
    change(store, game, "starting a project", |read, w| {
        member(read, game, owner, "owner")?;
        world::start_project(w, &NewProject { id: Uuid::new_v4(), name: name.to_owned(), owner, size })
    })
}

pub fn nsu_world_mark_project(store: &mut Store, game: Uuid, project: Uuid, segments: u8) -> Result<WorldChange> {
    change(store, game, "marking a project clock", |_, w| world::mark_project(w, project, segments))
}

/// A new NPC, with no details yet.
pub fn nsu_world_add_npc(store: &mut Store, game: Uuid, name: &str) -> Result<WorldChange> {
    let new = NewNpc { id: Uuid::new_v4(), name: name.to_owned() };
    change(store, game, "adding an NPC", |_, w| world::add_npc(w, &new))
}

/// Writes a detail (positive or negative) onto an NPC, e.g. one granted by a roll.
pub fn nsu_world_add_npc_detail(
    store: &mut Store,
    game: Uuid,
    npc: Uuid,
    text: &str,
    positive: bool,
) -> Result<WorldChange> {
    change(store, game, "writing a detail on an NPC", |_, w| world::add_npc_detail(w, npc, text, positive))
}

/// Crosses detail `index` off an NPC.
pub fn nsu_world_remove_npc_detail(store: &mut Store, game: Uuid, npc: Uuid, index: usize) -> Result<WorldChange> {
    change(store, game, "crossing a detail off an NPC", |_, w| world::remove_npc_detail(w, npc, index))
}

/// Where a detail granted by a roll is written.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum DetailTarget {
    /// A harm detail on a character's sheet: the roller's unless `character` names another
    /// character of the game (a helper the Arbiters hurt, an ally).
    Harm {
        #[serde(default)]
        character: Option<Uuid>,
    },
    /// An other detail on a character's sheet, the roller's unless `character` says.
    Other {
        positive: bool,
        #[serde(default)]
        character: Option<Uuid>,
    },
    /// A scene detail on a location card.
    Scene { location: Uuid },
    /// A detail on an NPC.
    Npc { npc: Uuid, positive: bool },
    /// A harm detail on an NPC.
    NpcHarm { npc: Uuid },
}

/// A collateral clock that moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockTick {
    pub location: Uuid,
    pub name: String,
    pub before: u8,
    pub after: u8,
    /// The clock was full: the tick was asked for and stopped at 8.
    pub clamped: bool,
}

/// What writing a roll's detail did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RollDetailWritten {
    /// The world as this device sees it.
    pub world: World,
    /// The sheet the detail went on (the roller's or another character's), when it went on one.
    pub sheet: Option<crate::services::NsuSheetView>,
    /// How many details the roll granted, and how many of them are written now.
    pub granted: usize,
    pub written: usize,
    /// The clock of the party's location, when the roll had the World at risk and the
    /// party was not at home.
    pub ticked: Option<ClockTick>,
    /// In words, for the toast: what was written where, and the clock that ticked.
    pub message: String,
    /// Which undo takes it back: the game's (a world change, with its tick) or the
    /// character's (only the roller's sheet changed).
    pub undo: UndoScope,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UndoScope {
    Game,
    Character,
}

/// Writes one detail granted by settled roll `roll_event` (its `nsu_roll_resolved` event)
/// of `character`, while the roll has a grant left: no more details than the result grants
/// (RULES.md §1.3), so only granted details tick. When that roll had the World at risk, the
/// clock of the party's location ticks once (Collateral); at home nothing ticks. Whether the
/// World was at risk comes from the stored roll. The detail, the tick and the sheet are one
/// transaction and one game-level event, so one undo (`undo_game`) takes them back together;
/// a detail on a sheet that ticks nothing is that character's own change (`undo_character`,
/// `undo` in the answer says which), logged with the roll it came from.
pub fn nsu_roll_write_detail(
    store: &mut Store,
    character: Uuid,
    roll_event: i64,
    target: &DetailTarget,
    text: &str,
) -> Result<RollDetailWritten> {
    store.write(|tx| {
        let read = tx.read();
        let before_record = load(read, character)?;
        let game = before_record.character.game_id;
        nsu_game(read, game)?;
        let roll = read
            .event(roll_event)?
            .filter(|e| e.kind == EventKind::NsuRollResolved && e.character_id == Some(character))
            .ok_or_else(|| {
                Error::invalid(
                    "roll",
                    format!("there is no settled roll {roll_event} of “{}”", before_record.character.name),
                )
            })?;
        if read.event_undone(roll.seq)? {
            return Err(Error::invalid("roll", "that roll was taken back with undo"));
        }
        let unreadable =
            |e: serde_json::Error| Error::invalid("event log", format!("roll {roll_event} cannot be read: {e}"));
        let at_risk: AtRisk =
            serde_json::from_value(roll.payload["roll"]["roll"]["setup"]["at_risk"].clone()).map_err(unreadable)?;
        let grants: Vec<Grant> = serde_json::from_value(roll.payload["roll"]["grants"].clone()).map_err(unreadable)?;
        let written = read.details_written_from_roll(game, roll_event)?;
        check_detail_granted(&grants, written)?;
        let world_at_risk = at_risk == AtRisk::World;
        let before = read.nsu_world(game)?;
        let words = text.trim();
        let (mut after, mut events) = (before.clone(), Vec::new());
        let mut changed = None;
        let on_sheet = match *target {
            DetailTarget::Harm { character: on } | DetailTarget::Other { character: on, .. } => Some(match on {
                Some(id) if id != character => member(read, game, id, "character")?,
                _ => before_record.clone(),
            }),
            _ => None,
        };
        let what = match *target {
            DetailTarget::Harm { .. } | DetailTarget::Other { .. } => {
                if let Some(p) = required_text_problem(text) {
                    return Err(Error::invalid("detail", p));
                }
                let record = on_sheet.clone().expect("a sheet target has its record");
                let name = &record.character.name;
                let mut sheet = record.nsu.clone().unwrap_or_default();
                let what = if let DetailTarget::Other { positive, .. } = *target {
                    sheet.other_details.push(Detail { text: words.to_owned(), positive });
                    format!("the {} detail “{words}” on {name}", if positive { "positive" } else { "negative" })
                } else {
                    if sheet.harm.len() >= HARM_SLOTS {
                        return Err(Error::invalid("detail", format!("“{name}” has no free harm slot (Overcome)")));
                    }
                    sheet.harm.push(words.to_owned());
                    format!("the harm detail “{words}” on {name}")
                };
                if let Some(p) = sheet.problems("sheet").into_iter().next() {
                    return Err(Error::invalid(p.path, p.message));
                }
                changed = Some(CharacterRecord { nsu: Some(sheet), ..record });
                what
            }
            DetailTarget::Scene { location } => {
                (after, events) = world::add_scene_detail(&before, location, text, world_at_risk)?;
                let place = &after.locations[after.location_index(location, "location")?].name;
                format!("the scene detail “{words}” on {place}")
            }
            DetailTarget::Npc { npc, positive } => {
                (after, events) = world::add_npc_detail(&before, npc, text, positive)?;
                let who = after.npc(npc).map(|n| n.name.clone()).unwrap_or_default();
                format!("the {} detail “{words}” on {who}", if positive { "positive" } else { "negative" })
            }
            DetailTarget::NpcHarm { npc } => {
                (after, events) = world::add_npc_harm(&before, npc, text)?;
                let n = after.npc(npc).expect("the NPC was just harmed");
                let state = match n.overcome() {
                    true => "now Overcome".to_owned(),
                    false => format!("{} of {} harm", n.harm.len(), n.harm_to_overcome()),
                };
                format!("the harm detail “{words}” on {} ({state})", n.name)
            }
        };
        let mut ticked = None;
        if world_at_risk {
            let (w, ev) = world::tick_party_location(&after)?;
            if let Some(WorldEvent::CollateralChanged { location, before, after: to, clamped }) = ev.first() {
                let name = w.location(*location).map(|l| l.name.clone()).unwrap_or_default();
                ticked = Some(ClockTick { location: *location, name, before: *before, after: *to, clamped: *clamped });
            }
            after = w;
            events.extend(ev);
        }
        let undo = match changed {
            // Only a sheet changed: a change of that character's own, undone with the
            // character (and made on a player's own device at a linked table too).
            Some(record) if after == before => {
                let was = on_sheet.clone().expect("a changed sheet had a record");
                crate::services::characters::save_detail_from_roll(tx, was, record, roll_event)?;
                UndoScope::Character
            }
            changed => {
                let (before_chars, after_chars) = match changed {
                    Some(mut record) => {
                        record.character.revision += 1;
                        record.character.updated_at = now();
                        update(tx, &record)?;
                        (vec![on_sheet.clone().expect("a changed sheet had a record")], vec![record])
                    }
                    None => (Vec::new(), Vec::new()),
                };
                tx.put_nsu_world(game, &after)?;
                tx.touch_game(game, now())?;
                let downtime = read.nsu_downtime(game)?;
                let payload = WorldPayload {
                    action: "writing a detail from a roll".to_owned(),
                    before: WorldSnapshot { world: before, downtime: downtime.clone(), characters: before_chars },
                    after: WorldSnapshot { world: after.clone(), downtime, characters: after_chars },
                    events: serde_json::json!({ "roll": roll_event, "world": events }),
                };
                table_event(tx, EventKind::NsuWorldChanged, game, &payload, None)?;
                UndoScope::Game
            }
        };
        let mut message = format!("Wrote {what}.");
        if let Some(t) = &ticked {
            message.push_str(&match t.clamped {
                false => format!(" {}'s collateral clock ticked ({}/8).", t.name, t.after),
                true => format!(" {}'s collateral clock is full (8/8).", t.name),
            });
        } else if world_at_risk {
            message.push_str(" The party is at home: no clock ticks.");
        }
        let mut world = after;
        seen_by(&mut world, &device_viewer(read, game)?);
        let sheet = on_sheet.map(|r| crate::services::nsu::nsu_sheet_in(read, r.character.id)).transpose()?;
        Ok(RollDetailWritten { world, sheet, granted: grants.len(), written: written + 1, ticked, message, undo })
    })
}

/// Undoes a world or downtime event: the world and the downtime phase go back to how they
/// were before it, and so do the sheets it changed — unless one of those characters has
/// changed since (its later changes are undone first) or was deleted.
pub(in crate::services) fn undo_world_event(tx: &Tx<'_>, event: &Event) -> Result<String> {
    let payload: WorldPayload = payload_of(event)?;
    let game = event.game_id;
    let read = tx.read();
    if read.game(game)?.is_none() {
        return Err(Error::NothingToUndo("This game no longer exists here.".into()));
    }
    let mut current_records = Vec::new();
    let mut restored_records = Vec::new();
    for (before, after) in payload.before.characters.iter().zip(&payload.after.characters) {
        let name = &after.character.name;
        if read.character(after.character.id)?.is_none() {
            return Err(Error::invalid("character", format!("“{name}” was deleted since; undo that first")));
        }
        let current = load(read, after.character.id)?;
        // Compared by sheet, not revision: an undo of a later move gives a new revision
        // to the very sheet this move left.
        if current.nsu.clone().unwrap_or_default() != after.nsu.clone().unwrap_or_default() {
            return Err(Error::invalid(
                "character",
                format!("“{name}” changed after this; undo their later changes first"),
            ));
        }
        let mut restored = CharacterRecord { nsu: before.nsu.clone(), ..current.clone() };
        restored.character.revision += 1;
        restored.character.updated_at = now();
        update(tx, &restored)?;
        current_records.push(current);
        restored_records.push(restored);
    }
    let current =
        WorldSnapshot { world: read.nsu_world(game)?, downtime: read.nsu_downtime(game)?, characters: current_records };
    // Characters deleted since (and what pointed at them) cannot come back with the world.
    let exists = |id: &Uuid| read.character(*id).map(|c| c.is_some_and(|c| c.game_id == game));
    let mut world = payload.before.world;
    for l in &mut world.locations {
        let mut kept = Vec::new();
        for c in &l.scouted_by {
            if exists(c)? {
                kept.push(*c);
            }
        }
        l.scouted_by = kept;
    }
    let mut projects = Vec::new();
    for p in world.projects {
        if exists(&p.owner)? {
            projects.push(p);
        }
    }
    world.projects = projects;
    for l in &mut world.locations {
        if let Some(c) = l.author_character {
            if !exists(&c)? {
                l.author_character = None;
            }
        }
    }
    let mut downtime = payload.before.downtime;
    if let Some(phase) = &mut downtime {
        let mut gone = Vec::new();
        for id in phase.characters.keys() {
            if !exists(id)? {
                gone.push(*id);
            }
        }
        phase.characters.retain(|id, _| !gone.contains(id));
        phase.collateral_attempts.retain(|a| !gone.contains(&a.started_by));
        for a in &mut phase.collateral_attempts {
            a.dice.retain(|d| !gone.contains(&d.character));
        }
    }
    tx.put_nsu_world(game, &world)?;
    tx.touch_game(game, now())?;
    tx.put_nsu_downtime(game, downtime.as_ref())?;
    let restored = WorldSnapshot { world, downtime, characters: restored_records };
    let undo = WorldPayload {
        action: format!("undoing {}", payload.action),
        before: current,
        after: restored,
        events: serde_json::Value::Array(Vec::new()),
    };
    table_event(tx, EventKind::Undo, game, &undo, Some(event.seq))?;
    Ok(format!("Undone: {}.", payload.action))
}
