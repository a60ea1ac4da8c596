//! The records every system shares: games (tables, campaigns) and the characters in them.

use std::collections::BTreeMap;
use std::fmt;

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};

/// The four game systems. A game is played in exactly one; its characters share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    Nsu,
    PennyAnte,
    Mezzo,
    Scattershot,
}

impl System {
    pub const ALL: [System; 4] = [System::Nsu, System::PennyAnte, System::Mezzo, System::Scattershot];

    /// The id used in the database, in files and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            System::Nsu => "nsu",
            System::PennyAnte => "penny_ante",
            System::Mezzo => "mezzo",
            System::Scattershot => "scattershot",
        }
    }

    /// The game's name as players know it.
    pub fn label(self) -> &'static str {
        match self {
            System::Nsu => "No Stone Unturned",
            System::PennyAnte => "Penny Ante",
            System::Mezzo => "Mezzo",
            System::Scattershot => "Scattershot's Mechanix",
        }
    }

    pub fn from_id(id: &str) -> Option<System> {
        System::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Parses a system id, naming `field` and the accepted ids when it is unknown.
    pub fn parse(field: &str, id: &str) -> Result<System> {
        System::from_id(id).ok_or_else(|| Error::invalid(field, unknown_system(id)))
    }
}

pub(crate) fn unknown_system(id: &str) -> String {
    let known: Vec<_> = System::ALL.iter().map(|s| s.id()).collect();
    format!("unknown system {id:?}; expected one of {}", known.join(", "))
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A table's integer settings (e.g. Penny Ante's starting pennies), by name.
pub type TableSettings = BTreeMap<String, i64>;

/// A game: one table playing one system.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub id: Uuid,
    pub name: String,
    pub system: System,
    pub table_settings: TableSettings,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A character. `revision` counts its changes on this device and in the files it came from,
/// so an import can tell a newer copy from a conflicting one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    pub id: Uuid,
    pub game_id: Uuid,
    pub system: System,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub revision: i64,
}

/// The highest revision a character may have: 2^31 − 1 leaves room to count up for ever in
/// play, stays exact as a JavaScript number in the window, and keeps `revision + 1` far from
/// overflowing.
pub const MAX_REVISION: i64 = (1 << 31) - 1;

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

/// A Mezzo character's empty sheet: a character element with its id and name.
pub fn mezzo_sheet(character: &Character) -> crate::rules::mezzo::element::Element {
    use crate::rules::mezzo::element::{Awards, Element, ElementKind, PlotProtection};
    Element {
        id: character.id,
        kind: ElementKind::Character,
        name: character.name.clone(),
        traits: Vec::new(),
        adversity: 0,
        adversity_debt: 0,
        momentum: 0,
        momentum_awards: 0,
        in_challenge: false,
        plot_protection: PlotProtection::default(),
        claimed_by: None,
        awards: Awards::default(),
    }
}

/// The longest name the app accepts, in characters.
pub const MAX_NAME_CHARS: usize = 120;

/// Checks a name a person typed: trimmed, 1 to 120 characters, no control characters.
/// Returns the trimmed name, or a problem naming `field`.
pub fn clean_name(field: &str, raw: &str) -> Result<String> {
    name_problem(raw).map_or_else(|| Ok(raw.trim().to_owned()), |p| Err(Error::invalid(field, p)))
}

/// What is wrong with a name, if anything (shared by typed input and imported files).
pub fn name_problem(raw: &str) -> Option<String> {
    text_problem(raw, MAX_NAME_CHARS)
}

/// What is wrong with a one-line text (a name, a hook's focus, a seed card), if anything:
/// empty once trimmed, longer than `limit` characters, or with control characters.
pub fn text_problem(raw: &str, limit: usize) -> Option<String> {
    let text = raw.trim();
    let chars = text.chars().count();
    if chars == 0 {
        Some("must not be empty".into())
    } else if chars > limit {
        Some(format!("is {chars} characters long; the limit is {limit}"))
    } else if text.chars().any(char::is_control) {
        Some("must not contain control characters (such as line breaks or tabs)".into())
    } else {
        None
    }
}

/// The current time, cut to milliseconds so it survives a round trip through text.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(3)
}

/// Parses an id typed on the command line or sent by the UI.
pub fn parse_id(field: &str, raw: &str) -> Result<Uuid> {
    Uuid::parse_str(raw.trim()).map_err(|_| Error::invalid(field, format!("{raw:?} is not an id (a UUID)")))
}

/// How time stamps are written, in the database and in files: RFC 3339, UTC, milliseconds.
pub fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}
