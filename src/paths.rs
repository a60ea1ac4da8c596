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

/// The app's own data folder (`…/app.sheetkeeper`), which holds its database. It is the
/// only folder `Store::open` creates when it is missing: a path someone typed (`--db`,
/// `$SHEETKEEPER_DB`) must name an existing folder, so a typo is not silently a new database.
pub fn app_data_folder() -> Option<PathBuf> {
    data_dir().map(|d| d.join(APP_IDENTIFIER))
}

/// `$SHEETKEEPER_DB` when set, else the database in the app's data folder.
pub fn default_db_path() -> Option<PathBuf> {
    match std::env::var_os(DB_ENV) {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => app_data_folder().map(|d| d.join(DB_FILE_NAME)),
    }
}
