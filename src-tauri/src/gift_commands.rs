//! Characters and games given over the linked table: "Give to a device" on the host, "Send
//! to the table" on a joined device, and the files given to this one. A file that arrived
//! is saved beside the database and opened like a picked file: the page gets a one-time
//! token and the import preview (`transfer_commands`), with no file dialog anywhere.

use std::path::PathBuf;

use sheetkeeper::model::parse_id;
use sheetkeeper::services::{self, Done, ExportScope, Gift};
use tauri::State;

use crate::error::AppError;
use crate::state::{AppState, PendingImport};
use crate::transfer_commands::Picked;

type Reply<T> = Result<T, AppError>;

/// Gives the character `character`, or the game `game`, to another device at the table: the
/// host gives it to the linked device `device`; a joined device sends it to the table.
#[tauri::command(async)]
pub fn link_give(
    state: State<'_, AppState>,
    character: Option<String>,
    game: Option<String>,
    device: Option<String>,
) -> Reply<Done> {
    let scope = match (character, game) {
        (Some(c), None) => ExportScope::Character(parse_id("character", &c)?),
        (None, Some(g)) => ExportScope::Game(parse_id("game", &g)?),
        _ => return Err(AppError::invalid("gift: give either one character or one game")),
    };
    let (file, what) = services::gift_file(&*state.store()?, scope)?;
    if let Some(host) = state.hosting() {
        let device = device.ok_or_else(|| AppError::invalid("device: choose the device to give it to"))?;
        let device = parse_id("device", &device)?;
        host.handle().give(device, file)?;
        return Ok(Done { message: format!("Gave {what}: it waits on that device for its person to import it.") });
    }
    match state.joined() {
        Some(join) => {
            join.handle().give(file)?;
            Ok(Done {
                message: format!("Sent {what} to the table: it waits there for the table's person to import it."),
            })
        }
        None => Err(AppError::invalid("This device is not linked to a table.")),
    }
}

/// Opens the given file `id` as a picked file: saved beside the database, checked and
/// previewed (not as copies), with a one-time token for the import. The file stays in the
/// list until it is imported or put away.
#[tauri::command(async)]
pub fn link_gift_open(state: State<'_, AppState>, id: String) -> Reply<Picked> {
    let gift = gift(&state, parse_id("id", &id)?)?;
    let path = services::save_gift(&received_dir(&state)?, &gift)?;
    let preview = services::import_preview(&*state.store()?, &path, false)?;
    let name = format!("{}, from {}", gift.what, gift.from);
    let token = state.imports().add(PendingImport { path, as_copy: false, seen: preview.clone() });
    Ok(Picked::Picked { token: token.to_string(), name, preview })
}

/// Takes the given file `id` out of the list (imported, or put away) and removes its saved copy.
#[tauri::command(async)]
pub fn link_gift_put_away(state: State<'_, AppState>, id: String) -> Reply<Done> {
    let id = parse_id("id", &id)?;
    let gift = match (state.joined(), state.hosting()) {
        (Some(join), _) => join.handle().take_gift(id)?,
        (None, Some(host)) => host.handle().take_gift(id)?,
        (None, None) => return Err(AppError::invalid("This device is not linked to a table.")),
    };
    services::forget_gift(&received_dir(&state)?, id);
    Ok(Done { message: format!("Put away {} from {}.", gift.what, gift.from) })
}

/// The gift `id` waiting on this device.
fn gift(state: &AppState, id: uuid::Uuid) -> Reply<Gift> {
    let gifts = match (state.joined(), state.hosting()) {
        (Some(join), _) => join.handle().status().gifts,
        (None, Some(host)) => host.handle().status().gifts,
        (None, None) => return Err(AppError::invalid("This device is not linked to a table.")),
    };
    gifts.into_iter().find(|g| g.id == id).ok_or_else(|| AppError::not_found("That file was put away already."))
}

/// Where given files are saved to be imported: a folder beside the database.
fn received_dir(state: &AppState) -> Reply<PathBuf> {
    let store = state.store()?;
    let db = store.path();
    Ok(db.parent().map_or_else(|| PathBuf::from("received"), |dir| dir.join("received")))
}
