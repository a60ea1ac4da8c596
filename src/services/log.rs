//! What the services write into the event log: each change's state before and after, so
//! history can be shown and the change undone.

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::{now, Game};
use crate::rules::journal::Journal;
use crate::rules::mezzo::table::MezzoTable;
use crate::rules::nsu::world::World;
use crate::rules::penny_ante::table::PennyTable;
use crate::rules::record::CharacterRecord;
use crate::rules::scattershot::table::ScattershotTable;
use crate::store::{Event, EventKind, NewEvent, Tx};

/// A record before and after a change; `None` when it did not exist.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Change<T> {
    pub before: Option<T>,
    pub after: Option<T>,
}

/// A game's table after a move, with what happened in words (each game's `…Change`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableChange<V> {
    pub view: V,
    pub message: String,
}

/// A game as logged: its deletion keeps its characters and its world or table, so undo can
/// bring them back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct GameSnapshot {
    pub game: Game,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<CharacterRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nsu_world: Option<World>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penny_table: Option<PennyTable>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mezzo_table: Option<MezzoTable>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scattershot_table: Option<ScattershotTable>,
    /// The campaign journal, as this device keeps it (its sessions' places in the log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal: Option<Journal>,
}

impl GameSnapshot {
    pub fn bare(game: Game) -> Self {
        GameSnapshot {
            game,
            characters: Vec::new(),
            nsu_world: None,
            penny_table: None,
            mezzo_table: None,
            scattershot_table: None,
            journal: None,
        }
    }
}

pub(super) fn character_event(
    tx: &Tx<'_>,
    kind: EventKind,
    game_id: Uuid,
    character_id: Uuid,
    change: &Change<CharacterRecord>,
    undoes: Option<i64>,
) -> Result<i64> {
    append(tx, kind, game_id, Some(character_id), change, undoes)
}

/// The payload of a character's change made by writing a detail that a settled roll
/// granted: the change, and the roll (`Reader::details_written_from_roll` counts them).
#[derive(Serialize)]
struct FromRoll<'a> {
    #[serde(flatten)]
    change: &'a Change<CharacterRecord>,
    from_roll: i64,
}

pub(super) fn character_event_from_roll(
    tx: &Tx<'_>,
    game_id: Uuid,
    character_id: Uuid,
    change: &Change<CharacterRecord>,
    roll: i64,
) -> Result<i64> {
    append(tx, EventKind::SheetEdited, game_id, Some(character_id), &FromRoll { change, from_roll: roll }, None)
}

pub(super) fn game_event(
    tx: &Tx<'_>,
    kind: EventKind,
    game_id: Uuid,
    change: &Change<GameSnapshot>,
    undoes: Option<i64>,
) -> Result<i64> {
    append(tx, kind, game_id, None, change, undoes)
}

/// Logs a move on a game's table (its payload the game's own before and after); `undoes`
/// names the event an undo takes back.
pub(super) fn table_event<T: Serialize>(
    tx: &Tx<'_>,
    kind: EventKind,
    game_id: Uuid,
    payload: &T,
    undoes: Option<i64>,
) -> Result<i64> {
    append(tx, kind, game_id, None, payload, undoes)
}

fn append<T: Serialize>(
    tx: &Tx<'_>,
    kind: EventKind,
    game_id: Uuid,
    character_id: Option<Uuid>,
    payload: &T,
    undoes: Option<i64>,
) -> Result<i64> {
    let payload = serde_json::to_value(payload).map_err(|e| Error::invalid("event log", e.to_string()))?;
    tx.append_event(&NewEvent { at: now(), game_id, character_id, kind, undoes, payload })
}

/// Saves the journal a game's move left when the move started or ended a session (`after`
/// is not `before`); returns the journal before and after, for the move's snapshots.
pub(super) fn save_sessions(
    tx: &Tx<'_>,
    game: Uuid,
    before: Journal,
    after: &Journal,
) -> Result<Option<(Journal, Journal)>> {
    if before == *after {
        return Ok(None);
    }
    tx.put_journal(game, after)?;
    Ok(Some((before, after.clone())))
}

/// Undoing a game's move that started or ended a session (its snapshots hold the journal):
/// the journal as it was `before`, refused when it changed since the move left it `after`.
pub(super) fn restore_sessions(
    tx: &Tx<'_>,
    game: Uuid,
    before: Option<&Journal>,
    after: Option<&Journal>,
) -> Result<()> {
    if let Some(after) = after {
        if tx.read().journal(game)? != *after {
            return Err(Error::invalid("journal", "the journal changed since this move; undo that first"));
        }
    }
    if let Some(before) = before {
        tx.put_journal(game, before)?;
    }
    Ok(())
}

/// Reads a logged change back; a payload this build cannot read is reported, not guessed.
pub(super) fn change_of<T: DeserializeOwned>(event: &Event) -> Result<Change<T>> {
    payload_of(event)
}

/// Reads a logged payload back; one this build cannot read is reported, not guessed.
pub(super) fn payload_of<T: DeserializeOwned>(event: &Event) -> Result<T> {
    serde_json::from_value(event.payload.clone()).map_err(|e| {
        Error::invalid("event log", format!("event {} ({}) cannot be read: {e}", event.seq, event.kind.as_str()))
    })
}
