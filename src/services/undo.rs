//! Undo: take back the latest change of a character or a game that is not undone yet, by
//! restoring the state the event log recorded before it. The undo is itself logged.

use uuid::Uuid;

use super::log::{change_of, character_event, game_event, Change, GameSnapshot};
use super::Done;
use crate::error::{Error, Result};
use crate::model::{now, Character};
use crate::store::{EventKind, Store};

pub fn undo_character(store: &mut Store, id: Uuid) -> Result<Done> {
    store.write(|tx| {
        let read = tx.read();
        let event = read
            .last_undoable_of_character(id)?
            .ok_or_else(|| Error::NothingToUndo("There is nothing to undo for this character.".into()))?;
        let change: Change<Character> = change_of(&event)?;
        let current = read.character(id)?;
        let restored = match change.before {
            None => {
                let Some(c) = &current else {
                    return Err(Error::NothingToUndo(
                        "This character no longer exists here (was its game deleted?).".into(),
                    ));
                };
                tx.delete_character(c.id)?;
                None
            }
            Some(mut before) => {
                if read.game(before.game_id)?.is_none() {
                    return Err(Error::invalid(
                        "character",
                        format!("the game of “{}” was deleted; undo that first", before.name),
                    ));
                }
                // The restored state is a new change: its revision moves on.
                before.revision = current.as_ref().map_or(before.revision, |c| c.revision).max(before.revision) + 1;
                before.updated_at = now();
                if current.is_some() {
                    tx.update_character(&before)?;
                } else {
                    tx.insert_character(&before)?;
                }
                Some(before)
            }
        };
        let message = describe_character_undo(event.kind, current.as_ref(), restored.as_ref());
        let game_id = restored.as_ref().or(current.as_ref()).map_or(event.game_id, |c| c.game_id);
        character_event(
            tx,
            EventKind::Undo,
            game_id,
            id,
            &Change { before: current, after: restored },
            Some(event.seq),
        )?;
        Ok(Done::new(message))
    })
}

fn describe_character_undo(kind: EventKind, before: Option<&Character>, after: Option<&Character>) -> String {
    let name = |c: Option<&Character>| c.map_or(String::new(), |c| c.name.clone());
    match kind {
        EventKind::CharacterCreated | EventKind::CharacterCopied | EventKind::CharacterImported if after.is_none() => {
            format!("Undone: “{}” is removed again.", name(before))
        }
        EventKind::CharacterDeleted => format!("Undone: “{}” is back.", name(after)),
        EventKind::CharacterRenamed => format!("Undone: “{}” is called “{}” again.", name(before), name(after)),
        EventKind::CharacterMoved => format!("Undone: “{}” is back in its previous game.", name(after)),
        _ => format!("Undone: the last change to “{}”.", name(after.or(before))),
    }
}

pub fn undo_game(store: &mut Store, id: Uuid) -> Result<Done> {
    store.write(|tx| {
        let read = tx.read();
        let event = read
            .last_undoable_of_game(id)?
            .ok_or_else(|| Error::NothingToUndo("There is nothing to undo for this game.".into()))?;
        let change: Change<GameSnapshot> = change_of(&event)?;
        let current = read.game(id)?;
        let message = match (change.before, &current) {
            (None, Some(game)) => {
                let count = read.characters_of(id)?.len();
                if count > 0 {
                    return Err(Error::invalid(
                        "game",
                        format!(
                            "“{}” has {count} character(s) now; delete or move them before undoing its creation",
                            game.name
                        ),
                    ));
                }
                tx.delete_game(id)?;
                format!("Undone: the game “{}” is removed again.", game.name)
            }
            (Some(snapshot), None) => {
                tx.insert_game(&snapshot.game)?;
                for c in &snapshot.characters {
                    if read.character(c.id)?.is_none() {
                        tx.insert_character(c)?;
                    }
                }
                format!("Undone: the game “{}” is back.", snapshot.game.name)
            }
            (Some(snapshot), Some(game)) => {
                let restored = crate::model::Game { updated_at: now(), ..snapshot.game };
                tx.update_game(&restored)?;
                format!("Undone: the game “{}” is “{}” again.", game.name, restored.name)
            }
            (None, None) => return Err(Error::NothingToUndo("This game no longer exists here.".into())),
        };
        let after = tx.read().game(id)?.map(GameSnapshot::bare);
        let change = Change { before: current.map(GameSnapshot::bare), after };
        game_event(tx, EventKind::Undo, id, &change, Some(event.seq))?;
        Ok(Done::new(message))
    })
}
