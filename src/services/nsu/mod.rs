//! No Stone Unturned: the sheet view and edits made by hand (rolls and downtime change the
//! sheet through the rules).

pub(super) mod downtime;
pub(super) mod quick;
pub(super) mod roll;
pub(super) mod world;

use serde::Serialize;
use uuid::Uuid;

use super::characters::{load, save};
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
}

fn view(record: CharacterRecord) -> Result<NsuSheetView> {
    let sheet = nsu_of(&record)?;
    Ok(NsuSheetView {
        overcome: sheet.overcome(),
        creation_missing: sheet.creation_missing(),
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

fn load_view(read: Reader<'_>, id: Uuid) -> Result<NsuSheetView> {
    view(load(read, id)?)
}

pub fn nsu_sheet(store: &Store, id: Uuid) -> Result<NsuSheetView> {
    load_view(store.read(), id)
}

pub(super) fn nsu_sheet_in(read: Reader<'_>, id: Uuid) -> Result<NsuSheetView> {
    load_view(read, id)
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
/// (a mood level past its track, two overloaded moods, five harm details…) is refused.
pub fn save_nsu_sheet(store: &mut Store, id: Uuid, sheet: Sheet) -> Result<NsuSheetView> {
    let problems = sheet.problems("sheet");
    if !problems.is_empty() {
        return Err(problems_to_error(problems));
    }
    store.write(|tx| {
        let before = load(tx.read(), id)?;
        let current = nsu_of(&before)?;
        if current == sheet {
            return view(before);
        }
        let after = CharacterRecord { nsu: Some(sheet), ..before.clone() };
        save(tx, EventKind::SheetEdited, before, after)?;
        load_view(tx.read(), id)
    })
}
