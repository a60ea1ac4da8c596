//! Finding a stored game by its id: the one place a missing game becomes "not found", for
//! every service (the common ones and each game's).

use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::{Game, System};
use crate::store::Reader;

pub(super) fn existing_game(read: Reader<'_>, id: Uuid) -> Result<Game> {
    read.game(id)?.ok_or_else(|| Error::NotFound { what: "game", id: id.to_string() })
}

/// The game, which must exist and play `system`: a game's services are refused on
/// another system's game, naming both.
pub(super) fn game_playing(read: Reader<'_>, id: Uuid, system: System) -> Result<Game> {
    let g = existing_game(read, id)?;
    if g.system != system {
        return Err(Error::invalid(
            "game",
            format!("“{}” is a {} game, not {}", g.name, g.system.label(), system.label()),
        ));
    }
    Ok(g)
}
