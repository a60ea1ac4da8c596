//! The file's shape (format_version 1). These types are a compatibility promise: the golden
//! files in tests/fixtures pin them.
//!
//! ```json
//! { "format": "sheetkeeper", "format_version": 1, "kind": "character" | "game" | "backup",
//!   "system": "nsu" | … | null, "app_version": "0.1.0", "exported_at": "…",
//!   "data": { "games": [ { "id", "name", "system", "created_at", "updated_at",
//!       "table_settings": { "name": 1 },
//!       "characters": [ { "id", "name", "created_at", "updated_at", "revision",
//!                         "nsu": { …the sheet… },
//!                         "penny_ante": { "characteristics": ["…"], "lost": 1 },
//!                         "penny_pile": 25, "penny_ledger": [ { …entry… } ],
//!                         "mezzo": { …the character's story element… },
//!                         "scattershot": { …the character's sheet… } } ],
//!       "nsu_world": { …locations, clocks, settlement… },
//!       "penny_table": { "adventure", "ledger": { "entries", "debts" }, "loans",
//!                        "antagonists", "challenge", "last_end", "history" },
//!       "mezzo_table": { "arc", "players", "elements", "plot", "deck", "keyword_die",
//!                        "challenge", "open_conflict", "open_check" },
//!       "scattershot_table": { "players", "gm_dice", "play" },
//!       "journal": { "sessions": [ { "number", "date", "attendees", "notes", "open",
//!                                    "happened": [ { "group", "words", "table_words" } ] } ] }
//!     } ] } }
//! ```
//! A character file holds its one character inside its game's header, so importing it on
//! another device can create the game when that device does not have it yet.
//!
//! Penny Ante: a character carries its sheet (`penny_ante`, its characteristics and how many
//! it gave up in buyouts, `lost`, left out while 0; the sheet is left out while empty). A
//! game file or a backup carries each Penny Ante game's whole table (`penny_table`: the
//! adventure, every ledger entry, debts, loans (`in_debt`: what became a debt when a loan
//! was unpaid at an adventure's start), antagonists (`recurring`), the current or last
//! challenge, the players' piles when the last adventure ended (`last_end`) and the finished
//! challenges with their narration (`history`), in the rules' serde shape). The fields added
//! for campaigns are optional and left out while empty, so older files import unchanged. A character file carries no
//! table; beside its Penny Ante character it carries `penny_pile`, the pennies the character
//! holds, and `penny_ledger`, the entries of its game's ledger that touch it (the pile is
//! their sum). Imported as a new character, its pile arrives at the destination table as
//! one `carried_in` entry from the Bank; an update of a character already here keeps this
//! device's ledger.
//!
//! Mezzo: a character carries its story element (`mezzo`, in the rules' serde shape: its
//! id and name are the character's; traits, edge-slot awards, adversity and its debt,
//! momentum, Plot Protection, the player holding its claim). A game file or a backup carries
//! each Mezzo game's table (`mezzo_table`: the arc, the players with their influence, roles
//! and claims, the story elements that are not characters, the plot, the seed deck, and the
//! challenge being played or the last one — left out when there is none, so files written
//! before challenges joined the table still read; likewise the conflict open for votes on
//! the players' devices, `open_conflict`, and the action check open for votes, `open_check`,
//! each with each player's ballot). A character file carries no
//! table: the claim a character arrives with is the one its destination table records.
//!
//! Scattershot's Mechanix: a character carries its sheet (`scattershot`, in the rules'
//! serde shape: stage, creation limit, the points in each statistic, free skills, skills,
//! special abilities, advantages and disadvantages, what each resource lost, experience
//! dice, and the player who plays it, `player`, left out when none: then the character stands
//! as its own player); a character without one (an older file) plays with a new sheet. A game file or a backup
//! carries each Scattershot game's table (`scattershot_table`: the players with their stocks
//! of experience dice, left out when none (audit D-SC4); the Gamemaster's stock of
//! experience dice; the mechanical play in progress, left out when there is none, with any
//! results an older version left waiting for its lull; the UE chart, left out when empty;
//! an older file's count of sessions, `sessions` and `in_session`, is read as the journal's
//! sessions when the file has no journal, and never written). A sheet's description, NPC flag and residual modifiers are left out
//! when empty too, so older files read as before. A roll in progress lives in the event log and does
//! not travel. A character file carries its sheet's `player` but none of the player's stock
//! (the dice are the player's): where the destination table does not list that player, the
//! character stands as its own, with the dice its sheet holds. Table settings a system gained later (Scattershot's default facets and
//! creation limit) may be absent: the game then plays with their defaults.

use crate::rules::journal::{Journal, Line, Session};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use uuid::Uuid;

use crate::model::{timestamp, Game, System, TableSettings};
use crate::rules::mezzo::element::Element;
use crate::rules::mezzo::table::MezzoTable;
use crate::rules::nsu::world::World;
use crate::rules::nsu::Sheet;
use crate::rules::penny_ante::ledger::Entry;
use crate::rules::penny_ante::table::{PennySheet, PennyTable};
use crate::rules::record::CharacterRecord;
use crate::rules::scattershot::sheet::Sheet as ScattershotSheet;
use crate::rules::scattershot::table::ScattershotTable;

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
    pub characters: Vec<CharacterRecord>,
    /// A No Stone Unturned game's world (locations, clocks, settlement…), in game files and
    /// backups; a character file carries none.
    pub nsu_world: Option<World>,
    /// A Penny Ante game's table (ledger, loans, antagonists, challenge), in game files and
    /// backups; a character file carries none.
    pub penny_table: Option<PennyTable>,
    /// A Mezzo game's table (arc, players, other story elements), in game files and
    /// backups; a character file carries none.
    pub mezzo_table: Option<MezzoTable>,
    /// A Scattershot game's table (the Gamemaster's stock, mechanical play), in game files
    /// and backups; a character file carries none.
    pub scattershot_table: Option<ScattershotTable>,
    /// The campaign journal (every system), in game files and backups; none in a
    /// character file, nor while the game has no session. Its sessions as recorded: what
    /// happened in each as lines, those for the table's eyes only marked.
    pub journal: Option<Journal>,
    /// In a Penny Ante character file: the character's pile and its share of the ledger.
    pub penny_piles: Vec<PennyPile>,
}

/// The pennies a Penny Ante character file carries beside its character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PennyPile {
    pub character: Uuid,
    /// What the character holds: the sum of `ledger`.
    pub pile: i64,
    /// The entries of its game's ledger that touch the character, in order.
    pub ledger: Vec<Entry>,
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
    #[serde(skip_serializing_if = "str::is_empty")]
    notes: &'a str,
    characters: Vec<FileCharacter<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nsu_world: Option<&'a World>,
    #[serde(skip_serializing_if = "Option::is_none")]
    penny_table: Option<&'a PennyTable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mezzo_table: Option<&'a MezzoTable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scattershot_table: Option<&'a ScattershotTable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    journal: Option<FileJournal>,
}

/// A game's campaign journal as a file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileJournal {
    pub sessions: Vec<FileSession>,
}

/// One session as a file holds it: what happened as the lines it recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSession {
    pub number: u32,
    pub date: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attendees: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    pub open: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub happened: Vec<Line>,
}

impl FileJournal {
    /// The journal as a file writes it (a session's place in a log is the device's own).
    pub fn of(journal: &Journal) -> FileJournal {
        let sessions = journal
            .sessions
            .iter()
            .map(|s| FileSession {
                number: s.number,
                date: s.date.clone(),
                attendees: s.attendees.clone(),
                notes: s.notes.clone(),
                open: s.open,
                happened: s.recorded.clone(),
            })
            .collect();
        FileJournal { sessions }
    }

    /// The journal a file's sessions make: each with what happened as recorded.
    pub fn journal(self) -> Journal {
        let sessions = self
            .sessions
            .into_iter()
            .map(|s| Session {
                number: s.number,
                date: s.date,
                attendees: s.attendees,
                notes: s.notes,
                open: s.open,
                span: None,
                recorded: s.happened,
            })
            .collect();
        Journal { sessions }
    }
}

#[derive(Serialize)]
struct FileCharacter<'a> {
    id: String,
    name: &'a str,
    created_at: String,
    updated_at: String,
    revision: i64,
    #[serde(skip_serializing_if = "str::is_empty")]
    notes: &'a str,
    /// A No Stone Unturned character's sheet.
    #[serde(skip_serializing_if = "Option::is_none")]
    nsu: Option<&'a Sheet>,
    /// A Penny Ante character's sheet, when it lists a characteristic.
    #[serde(skip_serializing_if = "Option::is_none")]
    penny_ante: Option<&'a PennySheet>,
    /// A Penny Ante character file's pile and ledger entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    penny_pile: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    penny_ledger: Option<&'a [Entry]>,
    /// A Mezzo character's story element.
    #[serde(skip_serializing_if = "Option::is_none")]
    mezzo: Option<&'a Element>,
    /// A Scattershot character's sheet.
    #[serde(skip_serializing_if = "Option::is_none")]
    scattershot: Option<&'a ScattershotSheet>,
}

/// One character as a game file lists it (no pile or ledger of its own: those are a
/// character file's): what a linked table's copy holds of it, and what a change is made on.
pub fn character_value(r: &CharacterRecord) -> serde_json::Value {
    serde_json::to_value(file_character(r, None)).expect("characters always serialize")
}

fn file_character<'a>(r: &'a CharacterRecord, pile: Option<&'a PennyPile>) -> FileCharacter<'a> {
    FileCharacter {
        id: r.character.id.to_string(),
        name: &r.character.name,
        created_at: timestamp(r.character.created_at),
        updated_at: timestamp(r.character.updated_at),
        revision: r.character.revision,
        notes: &r.character.notes,
        nsu: r.nsu.as_ref(),
        penny_ante: r.penny_ante.as_ref().filter(|s| !s.characteristics.is_empty()),
        penny_pile: pile.map(|p| p.pile),
        penny_ledger: pile.map(|p| p.ledger.as_slice()),
        mezzo: r.mezzo.as_ref(),
        scattershot: r.scattershot.as_ref(),
    }
}

/// The file's bytes, with a final newline: pretty JSON for a character or a game, for
/// people to read; compact JSON for a backup, which must stay under the 16 MiB import cap
/// with thousands of full sheets in it.
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
                    notes: &e.game.notes,
                    characters: e
                        .characters
                        .iter()
                        .map(|r| file_character(r, e.penny_piles.iter().find(|p| p.character == r.character.id)))
                        .collect(),
                    nsu_world: e.nsu_world.as_ref(),
                    penny_table: e.penny_table.as_ref(),
                    mezzo_table: e.mezzo_table.as_ref(),
                    scattershot_table: e.scattershot_table.as_ref(),
                    journal: e.journal.as_ref().map(FileJournal::of),
                })
                .collect(),
        },
    };
    let written = match doc.kind {
        Kind::Backup => serde_json::to_vec(&envelope),
        Kind::Character | Kind::Game => serde_json::to_vec_pretty(&envelope),
    };
    let mut bytes = written.expect("the file types always serialize");
    bytes.push(b'\n');
    bytes
}
