//! What a player may change directly on their own character at a linked table. The host
//! judges a joined device's change (a whole character document) as the same change made on
//! its own sheet, through the same rules; anything else is refused with the reason, and the
//! device keeps the change in its refused list.
//!
//! Every system: the character's **name** (a Mezzo element's name follows it) and its
//! **notes**, as renaming and the notes card do. Not the system it plays, and no sheet of
//! another system. Money, the table, the world and every other game-level thing never travel
//! in a character change at all.
//!
//! - **No Stone Unturned** ([`nsu`]): the whole sheet, as the sheet edits it box by box
//!   (pronouns, look, rumours, aspects, moods with their levels and overload, skills with
//!   their modifiers and boxes, sentiments, harm, recovery points, other details, scars), and
//!   as rolls and downtime made on the device change it, so long as the sheet keeps its
//!   rules (`Sheet::problems`: a level within its track, one overloaded mood, at most four
//!   harm details…). A sheet's private rumours and notes (audit D10) are the player's too;
//!   what a device's view of a character left out is kept as the host has it, and a private
//!   line sent by a device that could not read them is refused (`link::keep_hidden`).
//! - **Penny Ante** ([`penny_ante`]): only the first, free characteristic, on a sheet that
//!   has none, as the rules give it (`PennyTable::buy_characteristic`: not during an
//!   adventure once a buyout took the last one). Refused: any further characteristic (5
//!   pennies, bought on the table's device between adventures), taking off or rewriting one
//!   (lost only in a buyout at the table), `carried` (set by copying, moving or importing)
//!   and `lost` (set by a buyout).
//! - **Mezzo** ([`mezzo`]): nothing on the story element but its name. Traits and edge
//!   slots, slot awards, adversity and its debt, momentum and its awards, taking part in a
//!   challenge, Plot Protection, the claim and flaws carried from a stake change through the
//!   table's moves. A new character's element is the fresh one `create_character` makes.
//! - **Scattershot's Mechanix** ([`scattershot`]): the sheet as its edits change it, so long
//!   as it keeps its rules (`Sheet::problems`): at any time the resources' current values,
//!   the experience dice pool (the sheet sets it directly, on the table's device too), the
//!   description, the non-player flag, residual modifiers, disadvantages, and purchases
//!   (ratings raised, new free skills, skills, special abilities and advantages, a name not
//!   listed twice); during creation also points taken back, advantages removed, the creation
//!   limit (points spent stay within it) and finishing creation. Once creation is finished
//!   nothing is taken back: no rating lowered, no free skill, skill, special ability or
//!   advantage removed or rewritten, creation does not start again and its limit stays.
//!   Who plays the character is set at the table; a character with a player there spends
//!   the player's stock (audit D-SC4), so its sheet's dice stay as they are and a point it
//!   buys after creation is bought on the table's device.
//!
//! A character made on the device (no `before`) is judged as a change of the fresh character
//! `create_character` makes in this game. A sheet left out of a change counts as the one a
//! character without a sheet plays with (a Scattershot character's new sheet, a Mezzo
//! character's fresh element), so leaving it out is no way around these rules.

mod mezzo;
mod nsu;
mod penny_ante;
mod scattershot;

use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::{clean_name, free_text_problem, Game, System, MAX_NOTES_CHARS};
use crate::rules::record::CharacterRecord;
use crate::store::Reader;

/// Checks a joined device's change of its character (`before`: the host's copy; none for a
/// character made on the device) against what that system's sheet lets a player change.
pub(super) fn check(
    read: Reader<'_>,
    game: Uuid,
    before: Option<&CharacterRecord>,
    after: &CharacterRecord,
) -> Result<()> {
    let g = read.game(game)?.ok_or_else(|| Error::NotFound { what: "game", id: game.to_string() })?;
    character(&g, after)?;
    match g.system {
        System::Nsu => nsu::check(after),
        System::PennyAnte => penny_ante::check(|| read.penny_table(game), before, after),
        System::Mezzo => mezzo::check(before, after),
        System::Scattershot => scattershot::check(|| read.scattershot_table(game), &g, before, after),
    }
}

/// What every system's character lets a player change: the name and the notes.
fn character(game: &Game, after: &CharacterRecord) -> Result<()> {
    let c = &after.character;
    if c.system != game.system {
        return Err(refused(
            "system",
            format!("“{}” plays {}, but this table plays {}", c.name, c.system.label(), game.system.label()),
        ));
    }
    if let Err(Error::Invalid { problem, .. }) = clean_name("name", &c.name) {
        return Err(refused("name", format!("the name {problem}")));
    }
    if let Some(problem) = free_text_problem(&c.notes, MAX_NOTES_CHARS) {
        return Err(refused("notes", format!("the notes {problem}")));
    }
    let sheets = [
        (System::Nsu, after.nsu.is_some()),
        (System::PennyAnte, after.penny_ante.is_some()),
        (System::Mezzo, after.mezzo.is_some()),
        (System::Scattershot, after.scattershot.is_some()),
    ];
    if let Some((other, _)) = sheets.into_iter().find(|&(s, held)| held && s != game.system) {
        return Err(refused(
            "character",
            format!("a {} character holds no {} sheet", game.system.label(), other.label()),
        ));
    }
    Ok(())
}

/// A refusal naming `field`: `why`, in the player's words, and that nothing changed.
fn refused(field: &str, why: impl std::fmt::Display) -> Error {
    Error::invalid(field, format!("{why}; the change was not applied"))
}

/// Refuses a change of a field the player's sheet does not change: `what` it is and `how`
/// it changes instead.
fn kept<T: PartialEq>(field: &str, before: &T, after: &T, what: &str, how: &str) -> Result<()> {
    if before == after {
        return Ok(());
    }
    Err(refused(field, format!("{what} {how}")))
}

/// The first problem a sheet's own rules find, as a refusal.
fn first_problem(problems: Vec<crate::Problem>) -> Result<()> {
    match problems.into_iter().next() {
        None => Ok(()),
        Some(p) => Err(refused(&p.path, format!("{}: {}", p.path, p.message))),
    }
}
