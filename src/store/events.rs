//! The event log's records. The store appends and reads them; services give payloads meaning.

use chrono::{DateTime, Utc};
use uuid::Uuid;

/// What a logged change was. Stored as its snake_case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    GameCreated,
    GameRenamed,
    GameDeleted,
    GameImported,
    CharacterCreated,
    CharacterRenamed,
    CharacterDeleted,
    CharacterCopied,
    CharacterMoved,
    CharacterImported,
    /// A sheet edited by hand.
    SheetEdited,
    /// NSU: dice on the table for an action roll (no sheet change yet).
    NsuDiceRolled,
    /// NSU: an action roll settled, its marks written to the sheet.
    NsuRollResolved,
    /// NSU: a helper's sheet changed by the roll they helped.
    NsuHelped,
    /// Took back an earlier event (`undoes`), restoring the state before it.
    Undo,
    /// NSU: the table changed its world (worldbuilding, the map, collateral, projects).
    NsuWorldChanged,
    /// NSU: a downtime phase began.
    NsuDowntimeStarted,
    /// NSU: a move in the downtime phase (a complication, a free action, an action, a choice).
    NsuDowntimeMove,
    /// NSU: the downtime phase ended.
    NsuDowntimeEnded,
    /// Penny Ante: a move at the table between challenges (adventures, pennies, antagonists,
    /// characteristics, loans, debts).
    PennyTableChanged,
    /// Penny Ante: a challenge started, or one move in it.
    PennyChallengeMove,
    /// Mezzo: a move at the table (players, roles, claims, influence, arcs, story elements
    /// and their traits, edge slots, adversity, momentum, Plot Protection).
    MezzoTableChanged,
    /// Mezzo: an action check rolled and waiting for its Sudden Surges and result (or a
    /// resolved check tied and waiting for its tiebreak); the table does not change.
    MezzoCheckRolled,
    /// Scattershot's Mechanix: a move at the table (a Made-It-By roll's step, mechanical
    /// play, rewards, the Gamemaster's stock, a table setting), with the table, the roll on
    /// the table and the sheets it changed, before and after.
    ScattershotChanged,
    /// A character's free-form notes changed.
    CharacterNotesEdited,
    /// A game's free-form notes changed.
    GameNotesEdited,
    /// A player's device changed its character at a linked table; the host applied it.
    LinkedChange,
    /// A roll on a game's dice tray (any `XdY±N`): a record of dice, changing nothing, which
    /// undo passes over.
    DiceTrayRolled,
    /// NSU: the desired outcome of a settled roll, written after it (a quick roll leaves it
    /// to write later): a record on the roll log, changing no sheet, which undo passes over.
    NsuRollOutcomeWritten,
    /// Mezzo: what an action check resolved with nothing typed attempted, written after it
    /// on its log entry: a record changing nothing, which undo passes over.
    MezzoCheckAttemptWritten,
    /// The campaign journal: a session started or ended, or its date, who was there or its
    /// notes changed; the journal before and after.
    JournalChanged,
}

impl EventKind {
    const ALL: [EventKind; 31] = [
        EventKind::GameCreated,
        EventKind::GameRenamed,
        EventKind::GameDeleted,
        EventKind::GameImported,
        EventKind::CharacterCreated,
        EventKind::CharacterRenamed,
        EventKind::CharacterDeleted,
        EventKind::CharacterCopied,
        EventKind::CharacterMoved,
        EventKind::CharacterImported,
        EventKind::SheetEdited,
        EventKind::NsuDiceRolled,
        EventKind::NsuRollResolved,
        EventKind::NsuHelped,
        EventKind::Undo,
        EventKind::NsuWorldChanged,
        EventKind::NsuDowntimeStarted,
        EventKind::NsuDowntimeMove,
        EventKind::NsuDowntimeEnded,
        EventKind::PennyTableChanged,
        EventKind::PennyChallengeMove,
        EventKind::MezzoTableChanged,
        EventKind::MezzoCheckRolled,
        EventKind::ScattershotChanged,
        EventKind::CharacterNotesEdited,
        EventKind::GameNotesEdited,
        EventKind::LinkedChange,
        EventKind::DiceTrayRolled,
        EventKind::NsuRollOutcomeWritten,
        EventKind::MezzoCheckAttemptWritten,
        EventKind::JournalChanged,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::GameCreated => "game_created",
            EventKind::GameRenamed => "game_renamed",
            EventKind::GameDeleted => "game_deleted",
            EventKind::GameImported => "game_imported",
            EventKind::CharacterCreated => "character_created",
            EventKind::CharacterRenamed => "character_renamed",
            EventKind::CharacterDeleted => "character_deleted",
            EventKind::CharacterCopied => "character_copied",
            EventKind::CharacterMoved => "character_moved",
            EventKind::CharacterImported => "character_imported",
            EventKind::SheetEdited => "sheet_edited",
            EventKind::NsuDiceRolled => "nsu_dice_rolled",
            EventKind::NsuRollResolved => "nsu_roll_resolved",
            EventKind::NsuHelped => "nsu_helped",
            EventKind::Undo => "undo",
            EventKind::NsuWorldChanged => "nsu_world_changed",
            EventKind::NsuDowntimeStarted => "nsu_downtime_started",
            EventKind::NsuDowntimeMove => "nsu_downtime_move",
            EventKind::NsuDowntimeEnded => "nsu_downtime_ended",
            EventKind::PennyTableChanged => "penny_table_changed",
            EventKind::PennyChallengeMove => "penny_challenge_move",
            EventKind::MezzoTableChanged => "mezzo_table_changed",
            EventKind::MezzoCheckRolled => "mezzo_check_rolled",
            EventKind::ScattershotChanged => "scattershot_changed",
            EventKind::CharacterNotesEdited => "character_notes_edited",
            EventKind::GameNotesEdited => "game_notes_edited",
            EventKind::LinkedChange => "linked_change",
            EventKind::DiceTrayRolled => "dice_tray_rolled",
            EventKind::NsuRollOutcomeWritten => "nsu_roll_outcome_written",
            EventKind::MezzoCheckAttemptWritten => "mezzo_check_attempt_written",
            EventKind::JournalChanged => "journal_changed",
        }
    }

    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// An event about to be appended.
#[derive(Clone, Debug)]
pub struct NewEvent {
    pub at: DateTime<Utc>,
    pub game_id: Uuid,
    pub character_id: Option<Uuid>,
    pub kind: EventKind,
    pub undoes: Option<i64>,
    pub payload: serde_json::Value,
}

/// An event read back from the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub game_id: Uuid,
    pub character_id: Option<Uuid>,
    pub kind: EventKind,
    pub undoes: Option<i64>,
    pub payload: serde_json::Value,
}
