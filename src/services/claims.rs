//! A Mezzo character's sheet and its table's claims agree: settled after a table was
//! written whole (an import, an undo), checked before an undo. Shared by the common
//! services, so it is not in the Mezzo services' folder.

use uuid::Uuid;

use super::characters::{records, update};
use crate::error::Result;
use crate::model::now;
use crate::rules::record::CharacterRecord;
use crate::store::{Reader, Tx};

/// Makes every character sheet of the game agree with the claims its table records (after a
/// table was written whole: an import, an undo that restored a table). A sheet that changes
/// moves its revision on; the change is the table's, logged with it.
pub(super) fn settle_claims(tx: &Tx<'_>, game: Uuid) -> Result<()> {
    let read = tx.read();
    let table = read.mezzo_table(game)?;
    for record in records(read, game)? {
        let Some(element) = &record.mezzo else { continue };
        let claimer = table.players.iter().find(|p| p.claimed.contains(&element.id)).map(|p| p.id);
        if element.claimed_by != claimer {
            let mut after = record.clone();
            if let Some(e) = &mut after.mezzo {
                e.claimed_by = claimer;
            }
            after.character.revision += 1;
            after.character.updated_at = now();
            update(tx, &after)?;
        }
    }
    Ok(())
}

/// Whether a character's sheet names the player whose claim on it its game's table records
/// (true for a character of another system).
pub(super) fn claim_agrees(read: Reader<'_>, record: &CharacterRecord) -> Result<bool> {
    let Some(element) = &record.mezzo else { return Ok(true) };
    let table = read.mezzo_table(record.character.game_id)?;
    let claimer = table.players.iter().find(|p| p.claimed.contains(&element.id)).map(|p| p.id);
    Ok(element.claimed_by == claimer)
}
