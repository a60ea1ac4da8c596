//! One function per thing a person does. Each loads what it needs, applies the rules, and
//! saves the new state together with its event in one transaction, then returns a view.
//! The Tauri commands and the CLI call these and hold no logic of their own.

mod characters;
mod games;
mod log;
mod nsu;
mod nsu_roll;
mod transfer;
mod undo;

use serde::Serialize;

use crate::model::{Character, Game, System};

pub use characters::{copy_character, create_character, delete_character, move_character, rename_character};
pub use games::{create_game, delete_game, list, rename_game};
pub use nsu::{nsu_sheet, save_nsu_sheet, NsuSheetView};
pub use nsu_roll::{
    nsu_pending_roll, nsu_roll_dice, nsu_roll_help, nsu_roll_log, nsu_roll_needs, nsu_roll_preview, nsu_roll_resolve,
    DiceInput, OddsView, PendingRoll, RollLogEntry, RollPreview, RollRecord, RollResult,
};
pub use transfer::{export, import, import_preview, ExportScope, ImportOptions, ImportReport};
pub use undo::{undo_character, undo_game};

/// A game as the UI and `sheetkeeper list` show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    #[serde(flatten)]
    pub game: Game,
    pub system_label: &'static str,
    pub characters: Vec<Character>,
}

impl GameView {
    fn new(game: Game, characters: Vec<Character>) -> Self {
        GameView { system_label: game.system.label(), game, characters }
    }
}

/// A system a new game can be played in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SystemInfo {
    pub id: &'static str,
    pub label: &'static str,
}

pub fn systems() -> Vec<SystemInfo> {
    System::ALL.iter().map(|s| SystemInfo { id: s.id(), label: s.label() }).collect()
}

/// The outcome of a change with nothing more to show than a sentence (e.g. for a toast).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Done {
    pub message: String,
}

impl Done {
    fn new(message: impl Into<String>) -> Self {
        Done { message: message.into() }
    }
}
