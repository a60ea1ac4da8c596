//! Moving a character to another game of its system: checked like an import, so it sits
//! above the file exchange (`transfer.rs`), which reads characters through `characters.rs`.

use uuid::Uuid;

use super::characters::{load, may_leave_game, same_system_game, save};
use super::transfer::games_still_export;
use crate::error::Result;
use crate::model::Character;
use crate::store::{EventKind, Store};

/// Moves a character to another game of its system.
pub fn move_character(store: &mut Store, id: Uuid, to_game: Uuid) -> Result<Character> {
    store.write(|tx| {
        let before = load(tx.read(), id)?;
        same_system_game(tx.read(), &before.character, to_game)?;
        if before.character.game_id == to_game {
            return Ok(before.character);
        }
        may_leave_game(tx.read(), &before, "moved")?;
        let from_game = before.character.game_id;
        let mut after = before.clone();
        after.character.game_id = to_game;
        if let Some(sheet) = &before.penny_ante {
            let bought_there = tx.read().penny_table(to_game)?.purchases(id);
            after.penny_ante = Some(sheet.arriving(bought_there));
        }
        let moved = save(tx, EventKind::CharacterMoved, before, after)?;
        games_still_export(tx.read(), [from_game, to_game], "moving this character")?;
        Ok(moved)
    })
}
