//! Creating, renaming, deleting, copying and moving characters.

use uuid::Uuid;

use super::games::existing_game;
use super::log::{character_event, Change};
use super::Done;
use crate::error::{Error, Result};
use crate::model::{clean_name, now, Character};
use crate::store::{EventKind, Reader, Store, Tx};

pub(super) fn existing_character(read: Reader<'_>, id: Uuid) -> Result<Character> {
    read.character(id)?.ok_or_else(|| Error::NotFound { what: "character", id: id.to_string() })
}

/// Saves a changed character with its event, bumping its revision.
fn save(tx: &Tx<'_>, kind: EventKind, before: Character, mut after: Character) -> Result<Character> {
    after.revision = before.revision + 1;
    after.updated_at = now();
    tx.update_character(&after)?;
    let change = Change { before: Some(before), after: Some(after.clone()) };
    character_event(tx, kind, after.game_id, after.id, &change, None)?;
    Ok(after)
}

/// Adds a character to a game; it plays in the game's system.
pub fn create_character(store: &mut Store, game_id: Uuid, name: &str) -> Result<Character> {
    let name = clean_name("name", name)?;
    store.write(|tx| {
        let game = existing_game(tx.read(), game_id)?;
        insert_new(
            tx,
            EventKind::CharacterCreated,
            Character {
                id: Uuid::new_v4(),
                game_id,
                system: game.system,
                name,
                created_at: now(),
                updated_at: now(),
                revision: 1,
            },
        )
    })
}

fn insert_new(tx: &Tx<'_>, kind: EventKind, c: Character) -> Result<Character> {
    tx.insert_character(&c)?;
    let change = Change { before: None, after: Some(c.clone()) };
    character_event(tx, kind, c.game_id, c.id, &change, None)?;
    Ok(c)
}

pub fn rename_character(store: &mut Store, id: Uuid, name: &str) -> Result<Character> {
    let name = clean_name("name", name)?;
    store.write(|tx| {
        let before = existing_character(tx.read(), id)?;
        if before.name == name {
            return Ok(before);
        }
        let after = Character { name, ..before.clone() };
        save(tx, EventKind::CharacterRenamed, before, after)
    })
}

pub fn delete_character(store: &mut Store, id: Uuid) -> Result<Done> {
    store.write(|tx| {
        let before = existing_character(tx.read(), id)?;
        tx.delete_character(id)?;
        let message = format!("Deleted “{}”.", before.name);
        character_event(
            tx,
            EventKind::CharacterDeleted,
            before.game_id,
            id,
            &Change { before: Some(before), after: None },
            None,
        )?;
        Ok(Done::new(message))
    })
}

/// Checks that `to_game` exists and plays the character's system.
fn same_system_game(read: Reader<'_>, c: &Character, to_game: Uuid) -> Result<()> {
    let game = existing_game(read, to_game)?;
    if game.system != c.system {
        return Err(Error::invalid(
            "to_game",
            format!("“{}” plays {}, but “{}” is a {} game", c.name, c.system.label(), game.name, game.system.label()),
        ));
    }
    Ok(())
}

/// Makes a copy of a character, with a new id, in another (or the same) game of its system.
pub fn copy_character(store: &mut Store, id: Uuid, to_game: Uuid) -> Result<Character> {
    store.write(|tx| {
        let original = existing_character(tx.read(), id)?;
        same_system_game(tx.read(), &original, to_game)?;
        let at = now();
        insert_new(
            tx,
            EventKind::CharacterCopied,
            Character { id: Uuid::new_v4(), game_id: to_game, created_at: at, updated_at: at, revision: 1, ..original },
        )
    })
}

/// Moves a character to another game of its system.
pub fn move_character(store: &mut Store, id: Uuid, to_game: Uuid) -> Result<Character> {
    store.write(|tx| {
        let before = existing_character(tx.read(), id)?;
        same_system_game(tx.read(), &before, to_game)?;
        if before.game_id == to_game {
            return Ok(before);
        }
        let after = Character { game_id: to_game, ..before.clone() };
        save(tx, EventKind::CharacterMoved, before, after)
    })
}
