//! Export and import through the native file dialogs, opened here on the Rust side, so the
//! page never names a path. An export asks where to save and writes there. An import asks
//! which file, previews it, and gives the page a one-time token for that file
//! (`state::Imports`); the page previews again (as copies or not) and imports by token.
//!
//! These commands run on Tauri's blocking thread pool: a dialog waits for the person, and
//! reading, checking and writing a large file (or waiting up to 10 s for another program's
//! write lock) must neither freeze the window nor tie up the async runtime.

use std::path::{Path, PathBuf};

use serde::Serialize;
use sheetkeeper::exchange::Preview;
use sheetkeeper::model::parse_id;
use sheetkeeper::services::{self, ExportScope, ImportOptions, ImportReport};
use tauri::ipc::Channel;
use tauri::{Manager, Runtime, State, Window};
use tauri_plugin_dialog::DialogExt;

use crate::error::AppError;
use crate::state::{AppState, PendingImport};

type Reply<T> = Result<T, AppError>;

/// What an export led to: the name of the file written, or `cancelled` (the person closed
/// the save dialog).
#[derive(Debug, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Exported {
    Saved { file_name: String },
    Cancelled,
}

/// What the open dialog led to: a picked file's token, its name and its preview (not as
/// copies), or `cancelled`.
#[derive(Debug, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Picked {
    Picked { token: String, name: String, preview: Preview },
    Cancelled,
}

/// Sent on a command's progress channel when the dialog has closed and the slow part starts.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Writing,
    Reading,
}

const FILTER_NAME: &str = "Sheetkeeper file";
const FILTER_EXTENSIONS: &[&str] = &["json"];

#[tauri::command]
pub async fn export_character<R: Runtime>(
    window: Window<R>,
    id: String,
    file_name: String,
    on_progress: Channel<Step>,
) -> Reply<Exported> {
    export_to_chosen_file(window, ExportScope::Character(parse_id("id", &id)?), file_name, on_progress).await
}

#[tauri::command]
pub async fn export_game<R: Runtime>(
    window: Window<R>,
    id: String,
    file_name: String,
    on_progress: Channel<Step>,
) -> Reply<Exported> {
    export_to_chosen_file(window, ExportScope::Game(parse_id("id", &id)?), file_name, on_progress).await
}

#[tauri::command]
pub async fn export_all<R: Runtime>(
    window: Window<R>,
    file_name: String,
    on_progress: Channel<Step>,
) -> Reply<Exported> {
    export_to_chosen_file(window, ExportScope::All, file_name, on_progress).await
}

/// Opens the open dialog; a picked file is read, checked and previewed (not as copies).
#[tauri::command]
pub async fn import_pick<R: Runtime>(window: Window<R>, on_progress: Channel<Step>) -> Reply<Picked> {
    off_the_window(window, move |window, state| {
        let Some(path) = open_dialog(window)? else { return Ok(Picked::Cancelled) };
        let _ = on_progress.send(Step::Reading);
        let preview = services::import_preview(&*state.store()?, &path, false)?;
        let name = display_name(&path);
        let token = state.imports().add(PendingImport { path, as_copy: false, seen: preview.clone() });
        Ok(Picked::Picked { token: token.to_string(), name, preview })
    })
    .await
}

/// Previews the token's file again, as copies or not; this is then what the import checks.
#[tauri::command]
pub async fn import_preview<R: Runtime>(window: Window<R>, token: String, as_copy: bool) -> Reply<Preview> {
    off_the_window(window, move |_, state| {
        let path = state.imports().get(&token)?.path.clone();
        let preview = services::import_preview(&*state.store()?, &path, as_copy)?;
        state.imports().saw(&token, as_copy, preview.clone())?;
        Ok(preview)
    })
    .await
}

/// Imports the token's file, once, if it still does what its last preview (made with the
/// same `as_copy`) said: the file is unchanged and so is what it would do here.
#[tauri::command]
pub async fn import_apply<R: Runtime>(
    window: Window<R>,
    token: String,
    as_copy: bool,
    replace_conflicts: bool,
) -> Reply<ImportReport> {
    off_the_window(window, move |_, state| {
        let import = state.imports().take(&token, as_copy)?;
        let options = ImportOptions { as_copy, replace_conflicts };
        Ok(services::import_seen(&mut *state.store()?, &import.path, options, &import.seen)?)
    })
    .await
}

/// Forgets the token's file without importing; false when it was not open.
#[tauri::command(async)]
pub fn import_cancel(state: State<'_, AppState>, token: String) -> Reply<bool> {
    Ok(state.imports().forget(&token))
}

async fn export_to_chosen_file<R: Runtime>(
    window: Window<R>,
    scope: ExportScope,
    file_name: String,
    on_progress: Channel<Step>,
) -> Reply<Exported> {
    off_the_window(window, move |window, state| {
        let Some(path) = save_dialog(window, &file_name)? else { return Ok(Exported::Cancelled) };
        let _ = on_progress.send(Step::Writing);
        services::export(&*state.store()?, scope, &path)?;
        Ok(Exported::Saved { file_name: display_name(&path) })
    })
    .await
}

/// Runs `work` on the blocking thread pool. The store's lock is taken and released inside
/// `work`, which is synchronous, so it is never held across an `.await`.
async fn off_the_window<R: Runtime, T: Send + 'static>(
    window: Window<R>,
    work: impl FnOnce(&Window<R>, &AppState) -> Reply<T> + Send + 'static,
) -> Reply<T> {
    tauri::async_runtime::spawn_blocking(move || work(&window, &window.state::<AppState>())).await.unwrap_or_else(
        |_| Err(AppError::internal("Sheetkeeper failed while doing this (an internal error). Please try again.")),
    )
}

fn save_dialog<R: Runtime>(window: &Window<R>, file_name: &str) -> Reply<Option<PathBuf>> {
    let dialog =
        window.dialog().file().add_filter(FILTER_NAME, FILTER_EXTENSIONS).set_file_name(suggested_name(file_name));
    #[cfg(desktop)]
    let dialog = dialog.set_parent(window);
    chosen(dialog.blocking_save_file())
}

fn open_dialog<R: Runtime>(window: &Window<R>) -> Reply<Option<PathBuf>> {
    let dialog = window.dialog().file().add_filter(FILTER_NAME, FILTER_EXTENSIONS);
    // As the dialog plugin's own `open` does: a parent only where the platform wants one.
    #[cfg(any(windows, target_os = "macos"))]
    let dialog = dialog.set_parent(window);
    chosen(dialog.blocking_pick_file())
}

/// The path a file dialog gave, when the person chose one (also for Save as PDF).
pub(crate) fn chosen(picked: Option<tauri_plugin_dialog::FilePath>) -> Reply<Option<PathBuf>> {
    picked
        .map(|p| p.into_path().map_err(|e| AppError::invalid(&format!("That file cannot be used here: {e}"))))
        .transpose()
}

/// The page's suggestion as a bare file name (no folders, no control characters).
fn suggested_name(file_name: &str) -> String {
    let name = Path::new(file_name).file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let name: String = name.chars().filter(|c| !c.is_control()).take(120).collect();
    if name.trim().is_empty() {
        "sheetkeeper.sheetkeeper.json".to_owned()
    } else {
        name
    }
}

/// A file's name for people: the last part of its path.
pub(crate) fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suggested_name_cannot_name_a_folder() {
        assert_eq!(suggested_name("Wren.sheetkeeper.json"), "Wren.sheetkeeper.json");
        assert_eq!(suggested_name("/etc/passwd"), "passwd");
        assert_eq!(suggested_name("../../x.json"), "x.json");
        assert_eq!(suggested_name(".."), "sheetkeeper.sheetkeeper.json");
        assert_eq!(suggested_name(""), "sheetkeeper.sheetkeeper.json");
        assert_eq!(suggested_name("a\u{7}b.json"), "ab.json");
        assert_eq!(suggested_name(&"n".repeat(500)).len(), 120);
    }

    #[test]
    fn outcomes_are_tagged_for_the_page() {
        let saved = Exported::Saved { file_name: "a.json".into() };
        assert_eq!(
            serde_json::to_value(saved).unwrap(),
            serde_json::json!({"outcome": "saved", "file_name": "a.json"})
        );
        assert_eq!(serde_json::to_value(Exported::Cancelled).unwrap(), serde_json::json!({"outcome": "cancelled"}));
        assert_eq!(serde_json::to_value(Picked::Cancelled).unwrap(), serde_json::json!({"outcome": "cancelled"}));
        assert_eq!(serde_json::to_value(Step::Reading).unwrap(), serde_json::json!("reading"));
    }
}
