//! The Sheetkeeper window: a Tauri 2 shell that opens the database and exposes the core's
//! services as commands. Rules, SQL and file formats live in the `sheetkeeper` crate.

mod commands;
mod error;
mod startup;
mod state;

use std::path::PathBuf;

use tauri::Manager;

pub use error::AppError;
use state::AppState;

/// `$SHEETKEEPER_DB` when set (tests), else `sheetkeeper.db` in the app data folder.
fn db_path<R: tauri::Runtime>(app: &tauri::App<R>) -> Result<PathBuf, String> {
    match std::env::var_os(sheetkeeper::paths::DB_ENV) {
        Some(p) if !p.is_empty() => Ok(PathBuf::from(p)),
        _ => app
            .path()
            .app_data_dir()
            .map(|d| d.join(sheetkeeper::paths::DB_FILE_NAME))
            .map_err(|e| format!("no app data folder: {e}")),
    }
}

/// Builds the app on `builder`; tests can pass a mock builder.
pub fn run_app<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            let store = db_path(app)
                .map_err(|e| sheetkeeper::Error::Invalid { field: "database".into(), problem: e })
                .and_then(|p| sheetkeeper::Store::open(&p));
            if let Err(e) = &store {
                eprintln!("sheetkeeper: {e}");
            }
            app.manage(AppState::new(store));
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::list_systems,
            commands::list_games,
            commands::create_game,
            commands::rename_game,
            commands::delete_game,
            commands::undo_game,
            commands::create_character,
            commands::rename_character,
            commands::delete_character,
            commands::undo_character,
            commands::copy_character,
            commands::move_character,
            commands::export_character,
            commands::export_game,
            commands::export_all,
            commands::import_preview,
            commands::import_apply,
            commands::nsu_sheet,
            commands::save_nsu_sheet,
            commands::nsu_roll_preview,
            commands::nsu_roll_dice,
            commands::nsu_roll_help,
            commands::nsu_pending_roll,
            commands::nsu_roll_needs,
            commands::nsu_roll_resolve,
            commands::nsu_roll_log,
            commands::ui_ready,
        ])
}

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    startup::mark_start();
    if let Err(e) = run_app(tauri::Builder::default()).run(tauri::generate_context!()) {
        eprintln!("sheetkeeper: the window could not start: {e}");
        std::process::exit(1);
    }
}
