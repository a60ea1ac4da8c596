//! The rows of a game's Log tab: its moves of one kind and the rolls of its dice tray, newest
//! first (Mezzo and Scattershot; Penny Ante's rows carry their challenge too).

use serde::Serialize;
use uuid::Uuid;

use super::dice_tray::tray_entries_within;
use crate::error::Result;
use crate::store::{EventKind, Reader};

/// One move in a game's log, as its Log tab lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    pub seq: i64,
    pub at: String,
    pub action: String,
    pub undone: bool,
    /// A roll on the dice tray: a record of dice, not a move (undo passes over it).
    pub dice: bool,
    /// Some when the move resolved a Mezzo action check with nothing typed as its attempt:
    /// the attempt written on the entry after it, if any (`mezzo_check_write_attempt`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt: Option<LaterAttempt>,
}

/// What an action check resolved with nothing typed attempted, written after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LaterAttempt {
    /// The newest words written; None until someone writes them.
    pub written: Option<String>,
}

/// The game's moves of `kind` and its dice tray rolls, newest first, each named by its
/// payload's `action`.
pub(super) fn moves(read: Reader<'_>, game: Uuid, kind: EventKind, limit: u32) -> Result<Vec<MoveEntry>> {
    moves_within(read, game, kind, (0, i64::MAX), limit)
}

/// [`moves`] after event `within.0` and up to event `within.1` (a journal session's).
pub(super) fn moves_within(
    read: Reader<'_>,
    game: Uuid,
    kind: EventKind,
    within: (i64, i64),
    limit: u32,
) -> Result<Vec<MoveEntry>> {
    let mut out: Vec<MoveEntry> = read
        .events_of_kind_within(game, None, kind, within, limit)?
        .into_iter()
        .map(|(e, undone)| MoveEntry {
            seq: e.seq,
            at: crate::model::timestamp(e.at),
            action: e.payload["action"].as_str().unwrap_or_default().to_owned(),
            undone,
            dice: false,
            attempt: None,
        })
        .collect();
    for t in tray_entries_within(read, game, within, limit)? {
        let (seq, at, action) = (t.seq.unwrap_or_default(), t.at, t.action);
        out.push(MoveEntry { seq, at, action, undone: false, dice: true, attempt: None });
    }
    out.sort_by_key(|e| std::cmp::Reverse(e.seq));
    out.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(out)
}
