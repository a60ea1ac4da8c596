//! No Stone Unturned: the sheet view and edits made by hand (rolls and downtime change the
//! sheet through the rules).

pub(super) mod downtime;
pub(super) mod quick;
pub(super) mod roll;
pub(super) mod world;

use serde::Serialize;
use uuid::Uuid;

use super::characters::{load, save};
use super::viewer::{device_viewer, Viewer};
use crate::error::{Error, Result};
use crate::model::{Character, System};
use crate::rules::nsu::Sheet;
use crate::rules::record::CharacterRecord;
use crate::store::{EventKind, Reader, Store};
use crate::Problem;

/// What the sheet screen shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NsuSheetView {
    pub character: Character,
    pub sheet: Sheet,
    /// Four harm details: no action rolls until one is recovered.
    pub overcome: bool,
    /// What creation still needs (empty once the sheet is complete).
    pub creation_missing: Vec<&'static str>,
    /// Whether this view holds the character's private rumours and notes (its player's
    /// view): elsewhere the sheet has none to show and none may be written (audit D10).
    pub private_shown: bool,
}

/// The sheet view of `record` for `viewer`: the character's private rumours and notes only
/// when the viewer sees that character (audit D10).
fn view(record: CharacterRecord, viewer: &Viewer) -> Result<NsuSheetView> {
    let mut sheet = nsu_of(&record)?;
    let private_shown = viewer.sees_character(record.character.id);
    if !private_shown {
        sheet = sheet.without_private();
    }
    Ok(NsuSheetView {
        overcome: sheet.overcome(),
        creation_missing: sheet.creation_missing(),
        private_shown,
        sheet,
        character: record.character,
    })
}

/// The sheet of an NSU character; any other system's character is refused by name.
fn nsu_of(record: &CharacterRecord) -> Result<Sheet> {
    match (&record.nsu, record.character.system) {
        (Some(sheet), _) => Ok(sheet.clone()),
        (None, System::Nsu) => Ok(Sheet::default()),
        (None, other) => Err(Error::invalid(
            "character",
            format!("“{}” is a {} character, not a No Stone Unturned one", record.character.name, other.label()),
        )),
    }
}

/// The sheet of `id` as this device's viewer in its game may see it.
fn load_view(read: Reader<'_>, id: Uuid) -> Result<NsuSheetView> {
    let record = load(read, id)?;
    let viewer = device_viewer(read, record.character.game_id)?;
    view(record, &viewer)
}

/// The sheet of `id` as this device sees it (its role in the character's game).
pub fn nsu_sheet(store: &Store, id: Uuid) -> Result<NsuSheetView> {
    load_view(store.read(), id)
}

pub(super) fn nsu_sheet_in(read: Reader<'_>, id: Uuid) -> Result<NsuSheetView> {
    load_view(read, id)
}

/// The sheet of `id` as `viewer` may see it.
pub(super) fn nsu_sheet_as(read: Reader<'_>, id: Uuid, viewer: &Viewer) -> Result<NsuSheetView> {
    view(load(read, id)?, viewer)
}

fn problems_to_error(problems: Vec<Problem>) -> Error {
    let first = &problems[0];
    let more = match problems.len() {
        1 => String::new(),
        n => format!(" (and {} more problem{})", n - 1, if n == 2 { "" } else { "s" }),
    };
    Error::invalid(first.path.clone(), format!("{}{more}", first.message))
}

/// Saves a sheet edited by hand, whole, as one undoable change. A sheet that breaks a rule
/// (a mood level past its track, two overloaded moods, five harm details…) is refused. On a
/// device that does not see the character's private lines (its view of the sheet held none),
/// they are kept as they are, and a sheet holding one is refused (`Sheet::keep_private`).
pub fn save_nsu_sheet(store: &mut Store, id: Uuid, sheet: Sheet) -> Result<NsuSheetView> {
    let problems = sheet.problems("sheet");
    if !problems.is_empty() {
        return Err(problems_to_error(problems));
    }
    store.write(|tx| {
        let before = load(tx.read(), id)?;
        let current = nsu_of(&before)?;
        let sheet = match device_viewer(tx.read(), before.character.game_id)?.sees_character(id) {
            true => sheet,
            false => Sheet::keep_private(&current, sheet).map_err(|p| problems_to_error(vec![p]))?,
        };
        if current == sheet {
            return load_view(tx.read(), id);
        }
        let after = CharacterRecord { nsu: Some(sheet), ..before.clone() };
        save(tx, EventKind::SheetEdited, before, after)?;
        load_view(tx.read(), id)
    })
}
