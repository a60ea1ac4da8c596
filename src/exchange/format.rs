//! The file's shape (format_version 1). These types are a compatibility promise: the golden
//! files in tests/fixtures pin them.
//!
//! ```json
//! { "format": "sheetkeeper", "format_version": 1, "kind": "character" | "game" | "backup",
//!   "system": "nsu" | … | null, "app_version": "0.1.0", "exported_at": "…",
//!   "data": { "games": [ { "id", "name", "system", "created_at", "updated_at",
//!       "table_settings": { "name": 1 },
//!       "characters": [ { "id", "name", "created_at", "updated_at", "revision" } ] } ] } }
//! ```
//! A character file holds its one character inside its game's header, so importing it on
//! another device can create the game when that device does not have it yet.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::model::{timestamp, Character, Game, System, TableSettings};

pub const FORMAT: &str = "sheetkeeper";
pub const FORMAT_VERSION: i64 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One character (with its game's header).
    Character,
    /// One game with all its characters.
    Game,
    /// Every game on the device.
    Backup,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Character, Kind::Game, Kind::Backup];

    pub fn id(self) -> &'static str {
        match self {
            Kind::Character => "character",
            Kind::Game => "game",
            Kind::Backup => "backup",
        }
    }
}

/// A file's content, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    pub kind: Kind,
    pub system: Option<System>,
    pub app_version: String,
    pub exported_at: DateTime<Utc>,
    pub games: Vec<GameEntry>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEntry {
    pub game: Game,
    pub characters: Vec<Character>,
}

#[derive(Serialize)]
struct Envelope<'a> {
    format: &'static str,
    format_version: i64,
    kind: Kind,
    system: Option<System>,
    app_version: &'a str,
    exported_at: String,
    data: Data<'a>,
}

#[derive(Serialize)]
struct Data<'a> {
    games: Vec<FileGame<'a>>,
}

#[derive(Serialize)]
struct FileGame<'a> {
    id: String,
    name: &'a str,
    system: System,
    created_at: String,
    updated_at: String,
    table_settings: &'a TableSettings,
    characters: Vec<FileCharacter<'a>>,
}

#[derive(Serialize)]
struct FileCharacter<'a> {
    id: String,
    name: &'a str,
    created_at: String,
    updated_at: String,
    revision: i64,
}

/// The file's bytes: pretty JSON with a final newline.
pub fn to_json(doc: &Document) -> Vec<u8> {
    let envelope = Envelope {
        format: FORMAT,
        format_version: FORMAT_VERSION,
        kind: doc.kind,
        system: doc.system,
        app_version: &doc.app_version,
        exported_at: timestamp(doc.exported_at),
        data: Data {
            games: doc
                .games
                .iter()
                .map(|e| FileGame {
                    id: e.game.id.to_string(),
                    name: &e.game.name,
                    system: e.game.system,
                    created_at: timestamp(e.game.created_at),
                    updated_at: timestamp(e.game.updated_at),
                    table_settings: &e.game.table_settings,
                    characters: e
                        .characters
                        .iter()
                        .map(|c| FileCharacter {
                            id: c.id.to_string(),
                            name: &c.name,
                            created_at: timestamp(c.created_at),
                            updated_at: timestamp(c.updated_at),
                            revision: c.revision,
                        })
                        .collect(),
                })
                .collect(),
        },
    };
    let mut bytes = serde_json::to_vec_pretty(&envelope).expect("the file types always serialize");
    bytes.push(b'\n');
    bytes
}
