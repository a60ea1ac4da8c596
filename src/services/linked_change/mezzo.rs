//! Mezzo: a character is a story element, and everything on it but its name changes through
//! the table's moves (traits, slots, adversity, momentum, claims…), each a game-level Mezzo
//! move the table's device makes. A change may rename the character; the element's name
//! follows, as renaming does.

use super::{kept, refused};
use crate::error::Result;
use crate::rules::mezzo::element::Element;
use crate::rules::record::{mezzo_sheet, CharacterRecord};

/// How the table changes each part of an element.
const AT_THE_TABLE: &str = "changes through the table's moves";

pub(super) fn check(before: Option<&CharacterRecord>, after: &CharacterRecord) -> Result<()> {
    // A character made on the device starts with the element `create_character` gives it,
    // and one without an element (an older file) plays with that one.
    let before = before.map_or_else(
        || mezzo_sheet(&after.character),
        |r| r.mezzo.clone().unwrap_or_else(|| mezzo_sheet(&r.character)),
    );
    let now = after.mezzo.clone().unwrap_or_else(|| mezzo_sheet(&after.character));
    element(&before, &now, &after.character.name)
}

/// `after` as the player may make it from `before`: the same element, named `name`.
fn element(before: &Element, after: &Element, name: &str) -> Result<()> {
    if after.name != name {
        return Err(refused("mezzo.name", "the element's name is the character's name (rename the character)"));
    }
    // Each part is checked at its own path in the file: `mezzo.<field>`.
    macro_rules! kept_part {
        ($field:ident, $what:expr, $how:expr) => {
            kept(concat!("mezzo.", stringify!($field)), &before.$field, &after.$field, $what, $how)
        };
    }
    kept_part!(id, "the element's id", "is the character's")?;
    kept_part!(kind, "the kind of element", "is set when it is made")?;
    kept_part!(
        traits,
        "traits (edges, flaws, modifiers) and edge slots",
        "change through the table's moves (adding, editing or removing a trait, awarding slots)"
    )?;
    kept_part!(awards, "edge slot awards", "are granted by the table")?;
    kept_part!(adversity, "adversity", AT_THE_TABLE)?;
    kept_part!(adversity_debt, "adversity debt", AT_THE_TABLE)?;
    kept_part!(momentum, "momentum", AT_THE_TABLE)?;
    kept_part!(momentum_awards, "momentum-boost awards", AT_THE_TABLE)?;
    kept_part!(in_challenge, "taking part in a challenge", AT_THE_TABLE)?;
    kept_part!(plot_protection, "Plot Protection", AT_THE_TABLE)?;
    kept_part!(claimed_by, "the claim on the character", "is made at the table")?;
    kept_part!(carried, "flaws a claimed stake gave", AT_THE_TABLE)
}
