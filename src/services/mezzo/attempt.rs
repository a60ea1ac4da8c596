//! What an action check attempted, written after it (issue 32: a one-tap check may leave its
//! attempt empty, "Action check", and the table fills it in later on the check's log entry).
//! The words are a record on the log, changing no table or sheet, so undo passes over them;
//! writing again replaces them.

use std::collections::HashMap;

use serde_json::json;
use uuid::Uuid;

use super::mezzo_game;
use crate::error::{Error, Result};
use crate::model::now;
use crate::rules::mezzo::text::{clean_line, MAX_TEXT_CHARS};
use crate::services::moves::{LaterAttempt, MoveEntry};
use crate::services::Done;
use crate::store::{Event, EventKind, NewEvent, Reader, Store};

/// Whether Mezzo move `event` resolved an action check with nothing typed as its attempt.
fn left_unsaid(event: &Event) -> bool {
    event.kind == EventKind::MezzoTableChanged
        && event.payload["events"].as_array().is_some_and(|notes| {
            notes.iter().any(|n| n["event"] == "check_resolved" && n["check"]["description"].as_str() == Some(""))
        })
}

/// Writes what the action check resolved by move `move_seq` of `game` attempted, when it was
/// resolved with nothing typed. The log shows it on that move's entry from then on.
pub fn mezzo_check_write_attempt(store: &mut Store, game: Uuid, move_seq: i64, text: &str) -> Result<Done> {
    store.write(|tx| {
        let read = tx.read();
        mezzo_game(read, game)?;
        let words = clean_line("attempt", text, MAX_TEXT_CHARS)?;
        let resolved = read.event(move_seq)?.filter(|e| e.game_id == game && left_unsaid(e)).ok_or_else(|| {
            Error::invalid("move", format!("move {move_seq} resolved no action check left without its attempt"))
        })?;
        if read.event_undone(resolved.seq)? {
            return Err(Error::invalid("move", "that check was taken back with undo"));
        }
        tx.append_event(&NewEvent {
            at: now(),
            game_id: game,
            character_id: None,
            kind: EventKind::MezzoCheckAttemptWritten,
            undoes: None,
            payload: json!({ "move": resolved.seq, "attempt": words }),
        })?;
        Ok(Done { message: format!("The action check attempted: “{words}”.") })
    })
}

/// Marks each entry of `log` that resolved a check left without its attempt, with the words
/// written for it since (the newest stand).
pub(super) fn mark_attempts(read: Reader<'_>, game: Uuid, log: &mut [MoveEntry]) -> Result<()> {
    let mut written: HashMap<i64, String> = HashMap::new();
    // Newest first: the first met for a move is the one that stands.
    for (event, _) in read.events_of_kind(game, None, EventKind::MezzoCheckAttemptWritten, u32::MAX)? {
        if let (Some(seq), Some(text)) = (event.payload["move"].as_i64(), event.payload["attempt"].as_str()) {
            written.entry(seq).or_insert_with(|| text.to_owned());
        }
    }
    for entry in log.iter_mut().filter(|e| !e.dice) {
        if read.event(entry.seq)?.is_some_and(|e| left_unsaid(&e)) {
            entry.attempt = Some(LaterAttempt { written: written.get(&entry.seq).cloned() });
        }
    }
    Ok(())
}
