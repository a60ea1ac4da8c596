//! The quick roll (issue 32): one screen from a tap on the sheet, filled in from what was
//! tapped and the character's last settled roll (read from the event log, so every device
//! that holds the log fills in the same), with the exact odds at once; and the desired
//! outcome written later on a roll's log entry when the player left it for after the roll.

use serde::Serialize;
use serde_json::json;
use uuid::Uuid;

use super::roll::{nsu_roll_preview, RollPreview, RollRecord};
use crate::error::{Error, Result};
use crate::model::now;
use crate::rules::nsu::quick::{quick_setup, QuickStart, OUTCOME_TO_BE_WRITTEN};
use crate::rules::nsu::roll::{Edge, RollSetup};
use crate::rules::nsu::sheet::MAX_TEXT_CHARS;
use crate::services::characters::load;
use crate::services::Done;
use crate::store::{EventKind, NewEvent, Reader, Store};

/// What the quick roll screen opens with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuickRoll {
    /// Filled in from what was tapped, then the last settled roll (`rules::nsu::quick`).
    pub setup: RollSetup,
    /// The character has a settled roll the set-up followed.
    pub from_last_roll: bool,
    /// The dice and exact odds of `setup` (with the outcome left to write), or None when it
    /// cannot be rolled as it is (`cannot` says why).
    pub preview: Option<RollPreview>,
    pub cannot: Option<String>,
    /// The desired outcome a roll is logged with when the player writes it later.
    pub outcome_to_be_written: &'static str,
}

/// How far back the log is read for the last settled roll that was not undone.
const LAST_ROLLS_READ: u32 = 50;

/// The character's last settled roll that was not undone, from the event log.
fn last_setup(read: Reader<'_>, game: Uuid, character: Uuid) -> Result<Option<RollSetup>> {
    let events = read.events_of_kind(game, Some(character), EventKind::NsuRollResolved, LAST_ROLLS_READ)?;
    let Some((event, _)) = events.into_iter().find(|(_, undone)| !undone) else { return Ok(None) };
    let record: RollRecord = serde_json::from_value(event.payload["roll"].clone())
        .map_err(|e| Error::invalid("event log", format!("roll {} cannot be read: {e}", event.seq)))?;
    Ok(Some(record.roll.setup))
}

/// The quick roll of `character` started by tapping `start` on the sheet.
pub fn nsu_quick_roll(store: &Store, character: Uuid, start: &QuickStart) -> Result<QuickRoll> {
    let read = store.read();
    let record = load(read, character)?;
    let sheet = record.nsu.as_ref().ok_or_else(|| {
        Error::invalid("character", format!("“{}” has no No Stone Unturned sheet", record.character.name))
    })?;
    let last = last_setup(read, record.character.game_id, character)?;
    let setup = quick_setup(sheet, last.as_ref(), start);
    let rolled = RollSetup { desired_outcome: OUTCOME_TO_BE_WRITTEN.into(), ..setup.clone() };
    let (preview, cannot) = match nsu_roll_preview(store, character, &rolled, None, Edge::None) {
        Ok(preview) => (Some(preview), None),
        Err(e @ Error::Invalid { .. }) => (None, Some(e.to_string())),
        Err(e) => return Err(e),
    };
    Ok(QuickRoll {
        setup,
        from_last_roll: last.is_some(),
        preview,
        cannot,
        outcome_to_be_written: OUTCOME_TO_BE_WRITTEN,
    })
}

/// Writes the desired outcome of settled roll `roll_event` of `character` (one left to write
/// later, or one to put better): the roll log shows it from then on. The sheet does not
/// change, so undo passes over it; writing again replaces it.
pub fn nsu_roll_write_outcome(store: &mut Store, character: Uuid, roll_event: i64, text: &str) -> Result<Done> {
    store.write(|tx| {
        let read = tx.read();
        let record = load(read, character)?;
        let words = text.trim();
        if words.is_empty() {
            return Err(Error::invalid("outcome", "is empty: say what the player wanted to happen"));
        }
        let chars = words.chars().count();
        if chars > MAX_TEXT_CHARS {
            return Err(Error::invalid(
                "outcome",
                format!("is {chars} characters long; the limit is {MAX_TEXT_CHARS}"),
            ));
        }
        let roll = read
            .event(roll_event)?
            .filter(|e| e.kind == EventKind::NsuRollResolved && e.character_id == Some(character))
            .ok_or_else(|| {
                Error::invalid("roll", format!("there is no settled roll {roll_event} of “{}”", record.character.name))
            })?;
        if read.event_undone(roll.seq)? {
            return Err(Error::invalid("roll", "that roll was taken back with undo"));
        }
        tx.append_event(&NewEvent {
            at: now(),
            game_id: record.character.game_id,
            character_id: Some(character),
            kind: EventKind::NsuRollOutcomeWritten,
            undoes: None,
            payload: json!({ "roll": roll.seq, "outcome": words }),
        })?;
        Ok(Done { message: format!("{} wanted: “{words}”.", record.character.name) })
    })
}
