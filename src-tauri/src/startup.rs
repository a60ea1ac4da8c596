//! The startup probe: with SHEETKEEPER_EXIT_AFTER_READY=1 the app prints
//! `ready_ms=N` (process start → first screen rendered with its data) and exits.

use std::sync::OnceLock;
use std::time::Instant;

use tauri::{AppHandle, Runtime};

static STARTED: OnceLock<Instant> = OnceLock::new();

/// Marks the process start; called first thing in `run`.
pub fn mark_start() {
    STARTED.get_or_init(Instant::now);
}

pub fn ready<R: Runtime>(app: &AppHandle<R>) {
    if std::env::var("SHEETKEEPER_EXIT_AFTER_READY").as_deref() != Ok("1") {
        return;
    }
    let ms = STARTED.get().map_or(0, |t| t.elapsed().as_millis());
    println!("ready_ms={ms}");
    app.exit(0);
}
