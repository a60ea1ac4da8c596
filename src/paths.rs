//! Where the database lives when nobody says otherwise: the platform's app data folder for
//! the app's identifier, the same folder Tauri's `app_data_dir` gives the window, so the
//! CLI and the app open the same file.

use std::path::PathBuf;

/// The app's identifier (`tauri.conf.json`), which names its data folder.
pub const APP_IDENTIFIER: &str = "app.sheetkeeper";
/// The database file's name inside the data folder.
pub const DB_FILE_NAME: &str = "sheetkeeper.db";
/// Overrides the database path for the app and the CLI (tests point it at a throwaway file).
pub const DB_ENV: &str = "SHEETKEEPER_DB";

/// The platform's per-user data folder, as Tauri resolves it on desktop.
fn data_dir() -> Option<PathBuf> {
    let home = || std::env::var_os("HOME").map(PathBuf::from);
    if cfg!(target_os = "windows") {
        std::env::var_os("APPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        home().map(|h| h.join("Library/Application Support"))
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| home().map(|h| h.join(".local/share")))
    }
}

/// `$SHEETKEEPER_DB` when set, else the database in the app's data folder.
pub fn default_db_path() -> Option<PathBuf> {
    match std::env::var_os(DB_ENV) {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => data_dir().map(|d| d.join(APP_IDENTIFIER).join(DB_FILE_NAME)),
    }
}
