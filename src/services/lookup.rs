//! Finding a stored game by its id: the one place a missing game becomes "not found", for
//! every service (the common ones and each game's).

use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::Game;
use crate::store::Reader;

pub(super) fn existing_game(read: Reader<'_>, id: Uuid) -> Result<Game> {
    read.game(id)?.ok_or_else(|| Error::NotFound { what: "game", id: id.to_string() })
}
