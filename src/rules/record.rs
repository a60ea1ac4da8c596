//! A character with its system's sheet: the one record that names each game's sheet (the
//! shared records in `crate::model` know no game).

use serde::{Deserialize, Serialize};

use crate::model::{Character, System};

/// A character with its system's sheet: what the event log snapshots, undo restores and
/// files carry. Systems without a sheet yet carry only the character.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterRecord {
    #[serde(flatten)]
    pub character: Character,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nsu: Option<crate::rules::nsu::Sheet>,
    /// A Penny Ante character's characteristics (its pile is its game's ledger's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penny_ante: Option<crate::rules::penny_ante::table::PennySheet>,
    /// A Mezzo character's story element (traits, edge slots, adversity, momentum, claim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mezzo: Option<crate::rules::mezzo::element::Element>,
    /// A Scattershot's Mechanix character's sheet (ratings, abilities, resources, pool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scattershot: Option<crate::rules::scattershot::sheet::Sheet>,
}

impl CharacterRecord {
    /// A new character with its system's empty sheet.
    pub fn new(character: Character) -> Self {
        let nsu = (character.system == System::Nsu).then(crate::rules::nsu::Sheet::default);
        let penny_ante =
            (character.system == System::PennyAnte).then(crate::rules::penny_ante::table::PennySheet::default);
        let mezzo = (character.system == System::Mezzo).then(|| mezzo_sheet(&character));
        let scattershot =
            (character.system == System::Scattershot).then(|| crate::rules::scattershot::sheet::Sheet::new(None));
        CharacterRecord { character, nsu, penny_ante, mezzo, scattershot }
    }
}

/// A Mezzo character's empty sheet: a character element with its id and name, introduced
/// with its first action check's edge slots (RULES §3.4).
pub fn mezzo_sheet(character: &Character) -> crate::rules::mezzo::element::Element {
    use crate::rules::mezzo::element::{introduce, Element, ElementKind};
    let blank = Element::blank(character.id, ElementKind::Character, character.name.clone());
    introduce(&blank).0
}
