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
    kept("mezzo.id", &before.id, &after.id, "the element's id", "is the character's")?;
    kept("mezzo.kind", &before.kind, &after.kind, "the kind of element", "is set when it is made")?;
    kept(
        "mezzo.traits",
        &before.traits,
        &after.traits,
        "traits (edges, flaws, modifiers) and edge slots",
        "change through the table's moves (adding, editing or removing a trait, awarding slots)",
    )?;
    kept("mezzo.awards", &before.awards, &after.awards, "edge slot awards", "are granted by the table")?;
    kept("mezzo.adversity", &before.adversity, &after.adversity, "adversity", AT_THE_TABLE)?;
    kept("mezzo.adversity_debt", &before.adversity_debt, &after.adversity_debt, "adversity debt", AT_THE_TABLE)?;
    kept("mezzo.momentum", &before.momentum, &after.momentum, "momentum", AT_THE_TABLE)?;
    kept(
        "mezzo.momentum_awards",
        &before.momentum_awards,
        &after.momentum_awards,
        "momentum-boost awards",
        AT_THE_TABLE,
    )?;
    kept("mezzo.in_challenge", &before.in_challenge, &after.in_challenge, "taking part in a challenge", AT_THE_TABLE)?;
    kept("mezzo.plot_protection", &before.plot_protection, &after.plot_protection, "Plot Protection", AT_THE_TABLE)?;
    kept(
        "mezzo.claimed_by",
        &before.claimed_by,
        &after.claimed_by,
        "the claim on the character",
        "is made at the table",
    )?;
    kept("mezzo.carried", &before.carried, &after.carried, "flaws a claimed stake gave", AT_THE_TABLE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{now, Character, System};

    fn record(name: &str) -> CharacterRecord {
        CharacterRecord::new(Character {
            id: uuid::Uuid::from_u128(1),
            game_id: uuid::Uuid::from_u128(2),
            system: System::Mezzo,
            name: name.into(),
            created_at: now(),
            updated_at: now(),
            revision: 1,
            notes: String::new(),
        })
    }

    #[test]
    fn a_rename_carries_the_elements_name_and_nothing_else_changes() {
        let before = record("Vesper");
        let mut after = record("Vesper the Bold");
        assert!(check(Some(&before), &after).is_ok());
        assert!(check(None, &after).is_ok(), "a fresh character made on the device");
        after.mezzo.as_mut().unwrap().name = "Vesper".into();
        let err = check(Some(&before), &after).unwrap_err().to_string();
        assert!(err.contains("the element's name is the character's name"), "{err}");
    }

    /// What a hostile change does to an element, and the words of its refusal.
    type Change = (&'static str, fn(&mut Element));

    #[test]
    fn adversity_momentum_and_claims_are_the_tables() {
        let before = record("Vesper");
        let changes: [Change; 4] = [
            ("adversity changes through the table's moves", |e| e.adversity = 3),
            ("momentum changes through the table's moves", |e| e.momentum = 2),
            ("the claim on the character is made at the table", |e| e.claimed_by = Some(uuid::Uuid::from_u128(9))),
            ("edge slot awards are granted by the table", |e| e.awards.first_claim = true),
        ];
        for (words, change) in changes {
            let mut after = before.clone();
            change(after.mezzo.as_mut().unwrap());
            let err = check(Some(&before), &after).unwrap_err().to_string();
            assert!(err.contains(words), "{err}");
            assert!(check(None, &after).is_err(), "a new character starts fresh: {words}");
        }
    }
}
