//! Mezzo at the table (RULES.md §3.1): the players (influence, roles, claims), the arcs, and
//! the story elements — each character's sheet and the table's own objects, locations,
//! factions and goals — with their traits, edge slots, adversity, momentum and Plot
//! Protection.
//!
//! Every move is one transaction that saves the table and the sheets it changed, and logs
//! one `mezzo_table_changed` event holding both before and after; `undo_game` takes back the
//! last. The rules decide every move (`rules::mezzo::element`): a move here finds the player
//! or element, calls the rule and saves what it returns.

pub(super) mod attempt;
pub(super) mod cards;
pub(super) mod challenge;
pub(super) mod check;
pub(super) mod conflict;
pub(super) mod plot;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::characters::{records, restore, revise_changed, unchanged_since};
use super::log::{payload_of, restore_sessions, save_sessions, table_event, TableChange};
use super::lookup::game_playing;
use super::moves::{moves, MoveEntry};
use super::viewer::{device_viewer, Viewer};
use crate::error::{Error, Result};
use crate::model::{clean_name, now, Game, System};
use crate::rules::journal::Journal;
use crate::rules::mezzo::conflict::Variant;
use crate::rules::mezzo::element::{
    self as rules, AdversitySpend, Element, ElementEvent, ElementKind, Lasts, MomentumSource, MomentumSpend, Player,
    Properties, ProtectionSource, Role, Sacrifice, SlotAward, Template, Trait, TraitKind, Via,
};
use crate::rules::mezzo::table::{self as scene, MezzoTable, Scene};
use crate::rules::record::{mezzo_sheet, CharacterRecord};
use crate::store::{Event, EventKind, Reader, Store, Tx};

/// The state a Mezzo event snapshots: the whole table (it is small) and the characters
/// whose sheets the move changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Snapshot {
    table: MezzoTable,
    /// Each changed character as it was (None: it did not exist).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    characters: Vec<(Uuid, Option<CharacterRecord>)>,
    /// The campaign journal, when the move started or ended a session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    journal: Option<Journal>,
}

/// The payload of every Mezzo event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Payload {
    /// What was done, in words ("Ada claims Mira.").
    action: String,
    before: Snapshot,
    after: Snapshot,
    /// The rules' own events, for history.
    #[serde(default)]
    events: serde_json::Value,
}

/// Whether undoing `kind` restores a Mezzo snapshot.
pub(super) fn is_mezzo_event(kind: EventKind) -> bool {
    kind == EventKind::MezzoTableChanged
}

// ---------------------------------------------------------------------------------------
// Views

/// A player at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MezzoPlayerView {
    #[serde(flatten)]
    pub player: Player,
    /// Holds the Actor role.
    pub actor: bool,
    /// The names of the characters they claimed, in the order claimed.
    pub claimed_names: Vec<String>,
}

/// A story element with what the rules derive from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MezzoElementView {
    #[serde(flatten)]
    pub element: Element,
    pub edge_slots: u32,
    pub filled_slots: u32,
    pub free_slots: u32,
    /// Narration cannot take it out of play.
    pub has_plot_protection: bool,
    pub protection_sources: Vec<ProtectionSource>,
    /// The name of the player holding its claim.
    pub claimed_by_name: Option<String>,
    /// Each of its Empowering Gifts lent out now, with the elements holding its edge.
    pub lent_gifts: Vec<LentGift>,
    /// Each of its Asset Investments invested now, with the element holding its edge.
    pub investments: Vec<Investment>,
    /// How many Empowering Gifts it may lend at once (1, and 1 more per Asset Investment
    /// whose edge it holds).
    pub gifts_at_once: u32,
}

/// An Asset Investment invested in an element (the asset's selected element).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Investment {
    pub investment: Uuid,
    pub target: Uuid,
}

/// An Empowering Gift lent out, and to whom.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LentGift {
    pub gift: Uuid,
    pub targets: Vec<Uuid>,
}

/// The whole Mezzo table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MezzoView {
    pub game: Game,
    /// The arc being played, from 1 (0 before the first starts).
    pub arc: u32,
    pub players: Vec<MezzoPlayerView>,
    /// The game's characters' elements (their sheets), by name.
    pub characters: Vec<MezzoElementView>,
    /// The table's own elements (objects, locations, factions, goals), in the order added.
    pub elements: Vec<MezzoElementView>,
    /// How Leave to Chance rolls at this table: `steps` or `d6`.
    pub variant: Variant,
    /// Whether a scene is being played, and the elements active in it.
    pub scene: Scene,
}

/// The table after a move, with what happened in words.
pub type MezzoChange = TableChange<MezzoView>;

/// A new trait as the UI sends it: the app gives it its id. Without a kind, the template's.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraitDraft {
    #[serde(default)]
    pub kind: Option<TraitKind>,
    #[serde(default)]
    pub template: Option<Template>,
    pub name: String,
    #[serde(default)]
    pub properties: Properties,
    #[serde(default)]
    pub target_trait: Option<Uuid>,
    #[serde(default)]
    pub granted_by: Option<Uuid>,
    pub via: Via,
    #[serde(default)]
    pub lasts: Lasts,
    #[serde(default)]
    pub uses_left: Option<u32>,
}

impl TraitDraft {
    fn into_trait(self, id: Uuid) -> Result<Trait> {
        let kind = self
            .kind
            .or(self.template.map(Template::kind))
            .ok_or_else(|| Error::invalid("kind", "choose edge, flaw, modifier or extra (or a template)"))?;
        Ok(Trait {
            id,
            kind,
            template: self.template,
            name: self.name,
            properties: self.properties,
            target_trait: self.target_trait,
            granted_by: self.granted_by,
            via: self.via,
            lasts: self.lasts,
            uses_left: self.uses_left,
            favored_used: false,
        })
    }
}

// ---------------------------------------------------------------------------------------
// Reading

/// The game, which must exist and play Mezzo.
fn mezzo_game(read: Reader<'_>, game: Uuid) -> Result<Game> {
    game_playing(read, game, System::Mezzo)
}

/// A Mezzo character's element: its sheet, or an empty one if it has none yet.
fn sheet(record: &CharacterRecord) -> Element {
    record.mezzo.clone().unwrap_or_else(|| mezzo_sheet(&record.character))
}

fn element_view(table: &MezzoTable, element: Element, all: &[Element]) -> MezzoElementView {
    let claimed_by_name =
        element.claimed_by.and_then(|p| table.players.iter().find(|x| x.id == p)).map(|p| p.name.clone());
    let lent_gifts = element
        .traits
        .iter()
        .filter(|t| t.template == Some(Template::EmpoweringGift))
        .map(|t| LentGift { gift: t.id, targets: rules::gift_targets(t.id, all) })
        .filter(|l| !l.targets.is_empty())
        .collect();
    let investments = element
        .traits
        .iter()
        .filter(|t| t.template == Some(Template::AssetInvestment))
        .filter_map(|t| rules::invested_in(t.id, all).map(|target| Investment { investment: t.id, target }))
        .collect();
    let gifts_at_once = 1 + rules::investments_in(&element, all) as u32;
    MezzoElementView {
        lent_gifts,
        investments,
        gifts_at_once,
        edge_slots: element.edge_slots(),
        filled_slots: element.filled_slots(),
        free_slots: element.free_slots(),
        has_plot_protection: element.has_plot_protection(),
        protection_sources: element.protection_sources(),
        claimed_by_name,
        element,
    }
}

fn view(game: &Game, table: &MezzoTable, characters: &[CharacterRecord]) -> MezzoView {
    let name_of = |id: &Uuid| {
        characters.iter().find(|r| r.character.id == *id).map_or_else(String::new, |r| r.character.name.clone())
    };
    let all: Vec<Element> = characters.iter().map(sheet).chain(table.elements.iter().cloned()).collect();
    MezzoView {
        game: game.clone(),
        arc: table.arc(),
        variant: table.variant,
        scene: table.scene.clone(),
        players: table
            .players
            .iter()
            .map(|p| MezzoPlayerView {
                actor: p.has_role(Role::Actor),
                claimed_names: p.claimed.iter().map(name_of).collect(),
                player: p.clone(),
            })
            .collect(),
        characters: characters.iter().map(|r| element_view(table, sheet(r), &all)).collect(),
        elements: table.elements.iter().map(|e| element_view(table, e.clone(), &all)).collect(),
    }
}

/// The Mezzo table of a game: players, characters' elements, the table's own elements, arc.
pub fn mezzo_table(store: &Store, game: Uuid) -> Result<MezzoView> {
    let read = store.read();
    let g = mezzo_game(read, game)?;
    Ok(view(&g, &read.mezzo_table(game)?, &records(read, game)?))
}

/// The players and every story element of a Mezzo game (the characters' sheets, then the
/// table's own). For the conflict services, which are wired after this module.
pub(super) fn participants(read: Reader<'_>, game: Uuid) -> Result<(Vec<Player>, Vec<Element>)> {
    mezzo_game(read, game)?;
    let table = read.mezzo_table(game)?;
    let sheets = records(read, game)?.iter().map(sheet).collect::<Vec<_>>();
    Ok((table.players, sheets.into_iter().chain(table.elements).collect()))
}

/// The game's Mezzo moves, newest first.
pub fn mezzo_log(store: &Store, game: Uuid, limit: u32) -> Result<Vec<MoveEntry>> {
    let read = store.read();
    mezzo_game(read, game)?;
    let mut log = moves(read, game, EventKind::MezzoTableChanged, limit)?;
    attempt::mark_attempts(read, game, &mut log)?;
    Ok(log)
}

// ---------------------------------------------------------------------------------------
// Changing

/// A move in progress: the table and the sheets as the move leaves them.
pub(super) struct Work<'a> {
    characters: &'a [CharacterRecord],
    pub(super) table: MezzoTable,
    /// The characters whose sheets the move changed, as it leaves them.
    sheets: Vec<CharacterRecord>,
    events: Vec<ElementEvent>,
    /// Events of the plot and seed-deck rules, for history.
    notes: Vec<serde_json::Value>,
    /// The game's campaign journal: its sessions are the table's (the seed deck's initial
    /// draw opens with one).
    pub(super) journal: Journal,
    /// The last event of the game's log before this move, where a session starts or ends.
    pub(super) log_at: i64,
}

impl Work<'_> {
    /// The players and every story element of the game (the characters' sheets, then the
    /// table's own), as the move has them so far. For the conflict services, which are
    /// wired after this module (until then nothing here calls it).
    pub(super) fn participants(&self) -> (Vec<Player>, Vec<Element>) {
        let sheets = self.characters.iter().filter_map(|r| self.record(r.character.id)).map(sheet);
        (self.table.players.clone(), sheets.chain(self.table.elements.iter().cloned()).collect())
    }

    fn record(&self, id: Uuid) -> Option<&CharacterRecord> {
        self.sheets
            .iter()
            .find(|r| r.character.id == id)
            .or_else(|| self.characters.iter().find(|r| r.character.id == id))
    }

    pub(super) fn player(&self, id: Uuid) -> Result<Player> {
        self.table
            .players
            .iter()
            .find(|p| p.id == id)
            .cloned()
            .ok_or_else(|| Error::invalid("player", format!("{id} is not a player at this table")))
    }

    /// The acting player's id for a sealed resource; None acts for the table as a whole.
    fn by(&self, by: Option<Uuid>) -> Result<Uuid> {
        match by {
            Some(id) => self.player(id).map(|p| p.id),
            None => Ok(Uuid::nil()),
        }
    }

    pub(super) fn set_player(&mut self, player: Player) {
        if let Some(p) = self.table.players.iter_mut().find(|p| p.id == player.id) {
            *p = player;
        }
    }

    /// A story element of the game: a character's sheet or one of the table's own.
    pub(super) fn element(&self, id: Uuid) -> Result<Element> {
        if let Some(record) = self.record(id) {
            return Ok(sheet(record));
        }
        self.table
            .elements
            .iter()
            .find(|e| e.id == id)
            .cloned()
            .ok_or_else(|| Error::invalid("element", format!("{id} is not a story element of this game")))
    }

    /// One of the table's own elements (a character is changed as a character).
    fn table_element(&self, id: Uuid) -> Result<usize> {
        if self.record(id).is_some() {
            return Err(Error::invalid("element", "a character is renamed or deleted as a character"));
        }
        self.table
            .elements
            .iter()
            .position(|e| e.id == id)
            .ok_or_else(|| Error::invalid("element", format!("{id} is not a story element of this table")))
    }

    pub(super) fn set_element(&mut self, element: Element) {
        if let Some(record) = self.record(element.id) {
            let record = CharacterRecord { mezzo: Some(element), ..record.clone() };
            self.sheets.retain(|r| r.character.id != record.character.id);
            self.sheets.push(record);
        } else if let Some(e) = self.table.elements.iter_mut().find(|e| e.id == element.id) {
            *e = element;
        }
    }

    /// Records the rules' events and returns the message.
    pub(super) fn done(&mut self, events: Vec<ElementEvent>, message: String) -> Result<String> {
        self.events.extend(events);
        Ok(message)
    }

    /// Records events of the plot and seed-deck rules, for history.
    pub(super) fn note<T: Serialize>(&mut self, events: &[T]) {
        self.notes.extend(events.iter().filter_map(|e| serde_json::to_value(e).ok()));
    }

    /// Applies a rule to one element and saves what it returns.
    fn on_element(
        &mut self,
        id: Uuid,
        rule: impl FnOnce(&Element) -> Result<(Element, Vec<ElementEvent>)>,
        message: impl FnOnce(&Element, &Element) -> String,
    ) -> Result<String> {
        let before = self.element(id)?;
        let (after, events) = rule(&before)?;
        let message = message(&before, &after);
        self.set_element(after);
        self.done(events, message)
    }

    /// Applies a rule to one player and saves what it returns.
    fn on_player(
        &mut self,
        id: Uuid,
        rule: impl FnOnce(&Player) -> Result<(Player, Vec<ElementEvent>)>,
        message: impl FnOnce(&Player, &Player) -> String,
    ) -> Result<String> {
        let before = self.player(id)?;
        let (after, events) = rule(&before)?;
        let message = message(&before, &after);
        self.set_player(after);
        self.done(events, message)
    }

    /// Applies a rule to a player and an element together and saves both as it returns
    /// them; the message is told from what it returns.
    fn on_player_and_element(
        &mut self,
        player: Uuid,
        element: Uuid,
        rule: impl FnOnce(&Player, &Element) -> Result<(Player, Element, Vec<ElementEvent>)>,
        message: impl FnOnce(&Player, &Element, &[ElementEvent]) -> String,
    ) -> Result<String> {
        let (p, e) = (self.player(player)?, self.element(element)?);
        let (p, e, events) = rule(&p, &e)?;
        let message = message(&p, &e, &events);
        self.set_player(p);
        self.set_element(e);
        self.done(events, message)
    }
}

/// Applies one move to game `game` in one transaction and logs it: `play` changes the
/// table and sheets through [`Work`] and returns what happened in words.
pub(super) fn change(
    store: &mut Store,
    game: Uuid,
    play: impl FnOnce(&mut Work<'_>) -> Result<String>,
) -> Result<MezzoChange> {
    store.write(|tx| change_in(tx, game, play))
}

/// [`change`] in a transaction already open, for a move that logs more with it (a tied
/// action check kept waiting for its tiebreak).
pub(super) fn change_in(
    tx: &Tx<'_>,
    game: Uuid,
    play: impl FnOnce(&mut Work<'_>) -> Result<String>,
) -> Result<MezzoChange> {
    let read = tx.read();
    let g = mezzo_game(read, game)?;
    let before = read.mezzo_table(game)?;
    let characters = records(read, game)?;
    let journal = read.journal(game)?;
    let mut work = Work {
        characters: &characters,
        table: before.clone(),
        sheets: Vec::new(),
        events: Vec::new(),
        notes: Vec::new(),
        journal: journal.clone(),
        log_at: read.last_event_seq()?,
    };
    let message = sentence(play(&mut work)?);
    let changed = revise_changed(tx, &characters, &work.sheets, |old, new| old.mezzo == new.mezzo)?;
    tx.put_mezzo_table(game, &work.table)?;
    let sessions = save_sessions(tx, game, journal, &work.journal)?;
    tx.touch_game(game, now())?;
    let payload = Payload {
        action: message.clone(),
        before: Snapshot {
            table: before,
            characters: changed.iter().map(|(id, old, _)| (*id, Some(old.clone()))).collect(),
            journal: sessions.as_ref().map(|(before, _)| before.clone()),
        },
        after: Snapshot {
            table: work.table.clone(),
            characters: changed.iter().map(|(id, _, new)| (*id, Some(new.clone()))).collect(),
            journal: sessions.map(|(_, after)| after),
        },
        events: work.events.iter().filter_map(|e| serde_json::to_value(e).ok()).chain(work.notes).collect(),
    };
    table_event(tx, EventKind::MezzoTableChanged, game, &payload, None)?;
    let g = read.game(game)?.unwrap_or(g);
    Ok(MezzoChange { view: view(&g, &work.table, &records(read, game)?), message })
}

/// Takes back a Mezzo move: the table and the sheets the move changed are restored.
pub(super) fn undo_mezzo_event(tx: &Tx<'_>, event: &Event) -> Result<String> {
    let payload: Payload = payload_of(event)?;
    let read = tx.read();
    let game = event.game_id;
    if read.mezzo_table(game)? != payload.after.table {
        return Err(Error::invalid("table", "the table changed since this move (an import?); undo that first"));
    }
    restore_sessions(tx, game, payload.before.journal.as_ref(), payload.after.journal.as_ref())?;
    unchanged_since(read, &payload.after.characters, |a, b| {
        a.mezzo == b.mezzo && a.character.name == b.character.name
    })?;
    let mut restored = Vec::new();
    for (id, before) in &payload.before.characters {
        restored.push((*id, restore(tx, *id, before.as_ref())?));
    }
    tx.put_mezzo_table(game, &payload.before.table)?;
    tx.touch_game(game, now())?;
    let message = format!("Undone: {}", payload.action);
    let undo = Payload {
        action: message.clone(),
        before: payload.after.clone(),
        after: Snapshot {
            table: payload.before.table.clone(),
            characters: restored,
            journal: payload.before.journal.clone(),
        },
        events: serde_json::Value::Null,
    };
    table_event(tx, EventKind::Undo, game, &undo, Some(event.seq))?;
    Ok(message)
}

/// `text` with its first letter in capitals.
fn sentence(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// Points a person typed: a whole number the rules can hold (the rules refuse 0).
fn points_of(field: &str, n: i64) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::invalid(field, format!("{n} is out of range: a whole number, 0 or more")))
}

fn role_word(role: Role) -> &'static str {
    match role {
        Role::Actor => "Actor",
    }
}

fn kind_word(kind: ElementKind) -> &'static str {
    match kind {
        ElementKind::Character => "character",
        ElementKind::Object => "object",
        ElementKind::Location => "location",
        ElementKind::Faction => "faction",
        ElementKind::Goal => "goal",
    }
}

// ---------------------------------------------------------------------------------------
// Players

/// A player joins the table with 3 influence.
pub fn mezzo_add_player(store: &mut Store, game: Uuid, name: &str) -> Result<MezzoChange> {
    change(store, game, |w| {
        let player = Player::new(Uuid::new_v4(), name)?;
        let message = format!("{} joins the table with {} influence.", player.name, player.influence);
        w.table.players.push(player);
        Ok(message)
    })
}

pub fn mezzo_rename_player(store: &mut Store, game: Uuid, player: Uuid, name: &str) -> Result<MezzoChange> {
    let name = clean_name("name", name)?;
    change(store, game, |w| {
        let mut p = w.player(player)?;
        let message = format!("{} is now called {name}.", p.name);
        p.name = name;
        w.set_player(p);
        Ok(message)
    })
}

/// A player leaves the table; the characters they claimed are unclaimed.
pub fn mezzo_remove_player(store: &mut Store, game: Uuid, player: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        let mut p = w.player(player)?;
        let mut released = Vec::new();
        for character in p.claimed.clone() {
            let element = w.element(character)?;
            let (next, unclaimed, events) = rules::unclaim(&p, &element)?;
            released.push(unclaimed.name.clone());
            w.events.extend(events);
            w.set_element(unclaimed);
            p = next;
        }
        w.table.players.retain(|x| x.id != player);
        let released =
            if released.is_empty() { String::new() } else { format!(" ({} no longer claimed)", released.join(", ")) };
        Ok(format!("{} leaves the table{released}.", p.name))
    })
}

pub fn mezzo_take_role(store: &mut Store, game: Uuid, player: Uuid, role: Role) -> Result<MezzoChange> {
    change(store, game, |w| {
        w.on_player(
            player,
            |p| rules::take_role(p, role),
            |p, _| format!("{} takes the {} role.", p.name, role_word(role)),
        )
    })
}

/// Leaves a role; `active` are the characters active in the scene (the Actor role cannot be
/// left while one the player claimed is).
pub fn mezzo_leave_role(
    store: &mut Store,
    game: Uuid,
    player: Uuid,
    role: Role,
    active: &[Uuid],
) -> Result<MezzoChange> {
    change(store, game, |w| {
        w.on_player(
            player,
            |p| rules::leave_role(p, role, active),
            |p, _| format!("{} leaves the {} role.", p.name, role_word(role)),
        )
    })
}

/// An Actor claims a character of the game.
pub fn mezzo_claim(store: &mut Store, game: Uuid, player: Uuid, character: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        if w.record(character).is_none() {
            return Err(Error::invalid("character", format!("{character} is not a character of this game")));
        }
        w.on_player_and_element(player, character, rules::claim, |p, e, events| {
            let slots = events.iter().any(|x| matches!(x, ElementEvent::EdgeSlotsAwarded { .. }));
            format!("{} claims {}{}.", p.name, e.name, if slots { " (2 edge slots)" } else { "" })
        })
    })
}

/// The claimer gives up a claim.
pub fn mezzo_unclaim(store: &mut Store, game: Uuid, player: Uuid, character: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        w.on_player_and_element(player, character, rules::unclaim, |p, e, events| {
            let kept = events.iter().any(|ev| matches!(ev, ElementEvent::TraitAdded { .. }));
            let kept = if kept { format!(": {} keeps Plot Protection as an edge", e.name) } else { String::new() };
            format!("{} gives up the claim on {}{kept}.", p.name, e.name)
        })
    })
}

/// A player spends influence (a vote per point).
pub fn mezzo_spend_influence(store: &mut Store, game: Uuid, player: Uuid, points: i64) -> Result<MezzoChange> {
    let points = points_of("points", points)?;
    change(store, game, |w| {
        w.on_player(
            player,
            |p| rules::spend_influence(p, points),
            |p, q| format!("{} spends {points} influence ({} left).", p.name, q.influence),
        )
    })
}

/// A player gains influence (a resolved plot hook, a linked seed card).
pub fn mezzo_gain_influence(store: &mut Store, game: Uuid, player: Uuid, points: i64) -> Result<MezzoChange> {
    let points = points_of("points", points)?;
    change(store, game, |w| {
        w.on_player(
            player,
            |p| rules::gain_influence(p, points),
            |p, q| format!("{} gains {points} influence ({} now).", p.name, q.influence),
        )
    })
}

/// The elements active in the scene become `active` (stored, so they survive a reload).
pub fn mezzo_set_active(store: &mut Store, game: Uuid, active: &[Uuid]) -> Result<MezzoChange> {
    change(store, game, |w| {
        let (_, elements) = w.participants();
        w.table = scene::set_active(&w.table, active, &elements)?;
        let names: Vec<String> =
            active.iter().filter_map(|id| elements.iter().find(|e| e.id == *id)).map(|e| e.name.clone()).collect();
        Ok(if names.is_empty() {
            "No element is active in the scene.".to_owned()
        } else {
            format!("Active in the scene: {}.", names.join(", "))
        })
    })
}

/// A scene starts, with the elements active as the table set them.
pub fn mezzo_start_scene(store: &mut Store, game: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        w.table = scene::start_scene(&w.table)?;
        Ok("A scene starts.".to_owned())
    })
}

/// The scene ends: what lasts until the end of the scene ends with it, on every element of
/// the game (scene-only traits, a Background's phantom edge, protection lent by a Heroic
/// Sacrifice outside a challenge), and the seed deck's refresh opens.
pub fn mezzo_end_scene(store: &mut Store, game: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        let (_, elements) = w.participants();
        let (table, changed, events) = scene::end_scene(&w.table, &elements)?;
        w.table = table;
        let lost: usize = changed
            .iter()
            .map(|after| {
                let before = elements.iter().find(|e| e.id == after.id).map_or(0, |e| e.traits.len());
                before.saturating_sub(after.traits.len())
            })
            .sum();
        for e in changed {
            w.set_element(e);
        }
        let mut message = match lost {
            0 => "The scene ends.".to_owned(),
            1 => "The scene ends: 1 trait that lasted the scene is gone.".to_owned(),
            n => format!("The scene ends: {n} traits that lasted the scene are gone."),
        };
        if w.table.deck.is_some() {
            message.push_str(" Each player may discard a seed card and draw one.");
        }
        w.done(events, message)
    })
}

/// Sets how Leave to Chance rolls at the table from now on: the step dice, or the D6
/// variant for action checks and challenge actions (and the conflict screen's default).
/// A check already rolled keeps the dice it was rolled with.
pub fn mezzo_set_dice_variant(store: &mut Store, game: Uuid, variant: Variant) -> Result<MezzoChange> {
    change(store, game, |w| {
        if w.table.variant == variant {
            return Err(Error::invalid("variant", "the table already rolls this way"));
        }
        w.table.variant = variant;
        Ok(match variant {
            Variant::Steps => "The table rolls step dice (d4 to d12) from now on.".to_owned(),
            Variant::D6 => "The table rolls the D6 variant from now on: a d6, a multiplier and bursts.".to_owned(),
        })
    })
}

// ---------------------------------------------------------------------------------------
// Story elements

/// A new object, location, faction or goal enters the story (characters are the game's
/// characters).
pub fn mezzo_add_element(store: &mut Store, game: Uuid, kind: ElementKind, name: &str) -> Result<MezzoChange> {
    if kind == ElementKind::Character {
        return Err(Error::invalid("kind", "a character is added as a character of the game"));
    }
    change(store, game, |w| {
        // Introduced with its first action check's slots (RULES §3.4).
        let (element, _) = rules::introduce(&Element::new(Uuid::new_v4(), kind, name)?);
        let message = format!(
            "The {} {} enters the story with {} edge slots.",
            kind_word(kind),
            element.name,
            element.edge_slots()
        );
        w.table.elements.push(element);
        Ok(message)
    })
}

/// Renames one of the table's own elements.
pub fn mezzo_rename_element(store: &mut Store, game: Uuid, element: Uuid, name: &str) -> Result<MezzoChange> {
    let name = clean_name("name", name)?;
    change(store, game, |w| {
        let i = w.table_element(element)?;
        let e = &mut w.table.elements[i];
        let message = format!("{} is now called {name}.", e.name);
        e.name = name;
        Ok(message)
    })
}

/// Takes one of the table's own elements out of the story, and with it the edges its Asset
/// Investments granted (in the same move).
pub fn mezzo_remove_element(store: &mut Store, game: Uuid, element: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        let i = w.table_element(element)?;
        let (_, elements) = w.participants();
        let divested = rules::investments_lost_with(&w.table.elements[i], &elements)?;
        let gone = w.table.elements.remove(i);
        let mut message = format!("{} leaves the story.", gone.name);
        let mut events = Vec::new();
        for (selected, edge, more) in divested {
            message.push_str(&format!(" {} loses “{edge}”, the investment's edge.", selected.name));
            events.extend(more);
            w.set_element(selected);
        }
        w.done(events, message)
    })
}

/// Adds a trait to an element (a character's sheet or one of the table's own). `by` is the
/// player adding it (a claimed element's slots are its claimer's); None acts for the table.
pub fn mezzo_add_trait(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    by: Option<Uuid>,
    draft: TraitDraft,
) -> Result<MezzoChange> {
    change(store, game, |w| {
        let by = w.by(by)?;
        let new = draft.into_trait(Uuid::new_v4())?;
        w.on_element(
            element,
            |e| rules::add_trait(e, &new, by),
            |e, _| format!("{} gains the {} “{}”.", e.name, trait_word(&new), new.name.trim()),
        )
    })
}

fn trait_word(t: &Trait) -> &'static str {
    match t.kind {
        TraitKind::Edge => "edge",
        TraitKind::Flaw => "flaw",
        TraitKind::Modifier => "modifier",
        TraitKind::Extra => "extra",
    }
}

/// Edits a trait's name and properties.
pub fn mezzo_edit_trait(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    trait_id: Uuid,
    by: Option<Uuid>,
    name: &str,
    properties: &Properties,
) -> Result<MezzoChange> {
    change(store, game, |w| {
        let by = w.by(by)?;
        w.on_element(
            element,
            |e| rules::edit_trait(e, trait_id, name, properties, by),
            |e, _| format!("{} changes its trait “{}”.", e.name, name.trim()),
        )
    })
}

/// Removes a trait and everything attached to it.
pub fn mezzo_remove_trait(store: &mut Store, game: Uuid, element: Uuid, trait_id: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        let (_, elements) = w.participants();
        let e = w.element(element)?;
        let (after, mut events) = rules::remove_trait(&e, trait_id)?;
        let name = e.trait_by_id(trait_id).map_or("", |t| t.name.as_str());
        let with = e.traits.len().saturating_sub(after.traits.len() + 1);
        let with = if with > 0 { format!(" (and {with} trait(s) attached to it)") } else { String::new() };
        let mut message = format!("{} loses “{name}”{with}.", e.name);
        let divested = rules::investments_lost(&e, &after, &elements)?;
        w.set_element(after);
        for (selected, edge, more) in divested {
            message.push_str(&format!(" {} loses “{edge}”, the investment's edge.", selected.name));
            events.extend(more);
            w.set_element(selected);
        }
        w.done(events, message)
    })
}

/// Gives one of the one-time edge-slot awards (first action check, first challenge, first
/// claim).
pub fn mezzo_award_edge_slots(store: &mut Store, game: Uuid, element: Uuid, award: SlotAward) -> Result<MezzoChange> {
    change(store, game, |w| {
        w.on_element(
            element,
            |e| rules::award_edge_slots(e, award),
            |e, after| format!("{} gains {} edge slot(s) ({} in all).", e.name, award.slots(), after.edge_slots()),
        )
    })
}

/// At the end of the current arc, `player` names `element` a memorable element: 1 edge
/// slot; `undisputable` uses the player's one undisputable award of the arc.
pub fn mezzo_award_memorable(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    player: Uuid,
    undisputable: bool,
) -> Result<MezzoChange> {
    change(store, game, |w| {
        let arc = w.table.arc();
        w.on_player_and_element(
            player,
            element,
            |p, e| rules::award_memorable(e, p, arc, undisputable).map(|(e, p, events)| (p, e, events)),
            |p, e, _| format!("{} names {} a memorable element of arc {arc} (1 edge slot).", p.name, e.name),
        )
    })
}

/// An element gains adversity; while it owes debt, each point pays a point of it.
pub fn mezzo_gain_adversity(store: &mut Store, game: Uuid, element: Uuid, points: i64) -> Result<MezzoChange> {
    let points = points_of("points", points)?;
    change(store, game, |w| {
        w.on_element(
            element,
            |e| rules::gain_adversity(e, points),
            |e, after| {
                let paid = e.adversity_debt.saturating_sub(after.adversity_debt);
                let debt = if paid > 0 { format!(", {paid} of it paying debt") } else { String::new() };
                format!("{} gains {points} adversity{debt} ({} now).", e.name, after.adversity)
            },
        )
    })
}

/// On a player's device (a linked table) only that player's own characters lose access or
/// lend their gifts; the table's device and a passed-around one change any element.
fn own_element(store: &Store, game: Uuid, element: Uuid) -> Result<()> {
    match device_viewer(store.read(), game)? {
        Viewer::Player(mine) if !mine.contains(&element) => {
            Err(Error::invalid("element", "a player's device changes only its own characters"))
        }
        _ => Ok(()),
    }
}

/// An Asset's owner lost access to what it selects (`lost`: it gains the Favored Flaw for
/// the lost access) or has it back (that Favored Flaw goes).
pub fn mezzo_asset_access(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    asset: Uuid,
    lost: bool,
) -> Result<MezzoChange> {
    own_element(store, game, element)?;
    change(store, game, |w| {
        w.on_element(
            element,
            |e| if lost { rules::lose_asset_access(e, asset) } else { rules::regain_asset_access(e, asset) },
            |e, _| {
                let name = e.trait_by_id(asset).map_or("", |t| t.name.as_str());
                if lost {
                    format!("{} loses access to “{name}”: they gain its Favored Flaw.", e.name)
                } else {
                    format!("{} has “{name}” again: its Favored Flaw goes.", e.name)
                }
            },
        )
    })
}

/// `owner`'s Empowering Gift `gift` lends its edge to `target` (`lend`), or the edge comes
/// back from it. The seed's limits are the rules' ([`rules::lend_gift`]).
pub fn mezzo_lend_gift(
    store: &mut Store,
    game: Uuid,
    owner: Uuid,
    gift: Uuid,
    target: Uuid,
    lend: bool,
) -> Result<MezzoChange> {
    own_element(store, game, owner)?;
    change(store, game, |w| {
        let (_, elements) = w.participants();
        let (o, t) = (w.element(owner)?, w.element(target)?);
        let gift_name = o.trait_by_id(gift).map_or(String::new(), |g| g.name.clone());
        let (after, events) =
            if lend { rules::lend_gift(&o, gift, &t, &elements)? } else { rules::take_back_gift(gift, &t)? };
        let message = if lend {
            format!("{} lends {} to {}.", o.name, gift_name, t.name)
        } else {
            format!("{}'s {} goes back from {}.", o.name, gift_name, t.name)
        };
        w.set_element(after);
        w.done(events, message)
    })
}

/// `owner`'s Asset Investment `investment` is invested in `target`, the asset's selected
/// element, which gains its edge and lends one more Empowering Gift at a time (`invest`), or
/// the edge goes from it. The seed's limits are the rules' ([`rules::invest`]).
pub fn mezzo_invest_asset(
    store: &mut Store,
    game: Uuid,
    owner: Uuid,
    investment: Uuid,
    target: Uuid,
    invest: bool,
) -> Result<MezzoChange> {
    own_element(store, game, owner)?;
    change(store, game, |w| {
        let (_, elements) = w.participants();
        let (o, t) = (w.element(owner)?, w.element(target)?);
        let (after, events) =
            if invest { rules::invest(&o, investment, &t, &elements)? } else { rules::divest(investment, &t)? };
        let edge = after
            .trait_by_id(rules::invested_edge_id(investment, target))
            .or_else(|| t.trait_by_id(rules::invested_edge_id(investment, target)))
            .map_or(String::new(), |e| e.name.clone());
        let message = if invest {
            format!("{}'s asset {} gains “{edge}” from its Asset Investment.", o.name, t.name)
        } else {
            format!("{} loses “{edge}”, {}'s Asset Investment.", t.name, o.name)
        };
        w.set_element(after);
        w.done(events, message)
    })
}

/// A Favored Flaw's flaw was used against its owner: the owner gains 1 adversity, once per
/// challenge or scene.
pub fn mezzo_favored_flaw_used(store: &mut Store, game: Uuid, element: Uuid, trait_id: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        w.on_element(
            element,
            |e| rules::favored_flaw_used(e, trait_id),
            |e, after| {
                let name = e.trait_by_id(trait_id).map_or("", |t| t.name.as_str());
                format!(
                    "{}'s Favored Flaw “{name}” worked against them: +1 adversity ({} now).",
                    e.name, after.adversity
                )
            },
        )
    })
}

/// Spends an element's adversity (by `by`, for a claimed element its claimer); with
/// `allow_debt` a shortfall is taken as adversity debt. A new edge in `spend` gets its id
/// from the app.
pub fn mezzo_spend_adversity(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    by: Option<Uuid>,
    mut spend: AdversitySpend,
    allow_debt: bool,
) -> Result<MezzoChange> {
    if let AdversitySpend::UnexpectedEdge { edge, .. } | AdversitySpend::Background { edge, .. } = &mut spend {
        edge.id = Uuid::new_v4();
    }
    change(store, game, |w| {
        let by = w.by(by)?;
        w.on_element(
            element,
            |e| rules::spend_adversity(e, &spend, by, allow_debt),
            |e, after| {
                let debt = after.adversity_debt.saturating_sub(e.adversity_debt);
                let debt = if debt > 0 { format!(", {debt} as debt") } else { String::new() };
                format!("{} spends {} adversity{debt} ({} left).", e.name, spend.cost(), after.adversity)
            },
        )
    })
}

/// An element gains momentum.
pub fn mezzo_gain_momentum(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    points: i64,
    source: MomentumSource,
) -> Result<MezzoChange> {
    let points = points_of("points", points)?;
    change(store, game, |w| {
        w.on_element(
            element,
            |e| rules::gain_momentum(e, points, source),
            |e, after| format!("{} gains {points} momentum ({} now).", e.name, after.momentum),
        )
    })
}

/// Spends an element's momentum (by `by`, for a claimed element its claimer). A boon's edge
/// gets its id from the app.
pub fn mezzo_spend_momentum(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    by: Option<Uuid>,
    mut spend: MomentumSpend,
) -> Result<MezzoChange> {
    if let MomentumSpend::Boon { edge, .. } = &mut spend {
        edge.id = Uuid::new_v4();
    }
    change(store, game, |w| {
        let by = w.by(by)?;
        w.on_element(
            element,
            |e| rules::spend_momentum(e, &spend, by),
            |e, after| format!("{} spends {} momentum ({} left).", e.name, spend.cost(), after.momentum),
        )
    })
}

/// Sacrifices an element's Plot Protection by a Heroic Sacrifice lending it to `receiver`.
/// A Final Counter is the challenge's move, against one action's perks
/// ([`super::mezzo_challenge_play`]): here it is refused, since sacrificing alone would remove
/// no perk.
pub fn mezzo_plot_protection(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    how: Sacrifice,
    receiver: Option<Uuid>,
) -> Result<MezzoChange> {
    change(store, game, |w| match how {
        Sacrifice::FinalCounter => {
            Err(Error::invalid("how", "a Final Counter is made on the challenge, against the perks of one action"))
        }
        Sacrifice::HeroicSacrifice => {
            let receiver = receiver
                .ok_or_else(|| Error::invalid("receiver", "a Heroic Sacrifice lends protection to an element"))?;
            let (giver, to) = (w.element(element)?, w.element(receiver)?);
            let (giver, to, events) = rules::heroic_sacrifice(&giver, &to)?;
            let message = format!("{} lends its Plot Protection to {} (Heroic Sacrifice).", giver.name, to.name);
            w.set_element(giver);
            w.set_element(to);
            w.done(events, message)
        }
    })
}
