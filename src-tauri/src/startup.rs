//! The startup probe: with SHEETKEEPER_EXIT_AFTER_READY=1 the app prints
//! `ready_ms=N` (process start → first screen rendered with its data) and exits. It also prints
//! `page_ms=` with the page's own marks (when the page began loading, when it arrived, then each
//! step of its start), so a slow start shows which step took the time.

use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use tauri::{AppHandle, Runtime};

/// The process start, as a monotonic instant and as wall-clock milliseconds (the page's
/// `performance.timeOrigin` is wall-clock).
static STARTED: OnceLock<(Instant, f64)> = OnceLock::new();

/// Marks the process start; called first thing in `run`.
pub fn mark_start() {
    STARTED.get_or_init(|| (Instant::now(), epoch_ms()));
}

fn epoch_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// `origin` is the page's `performance.timeOrigin`; `marks` are its steps, in milliseconds
/// after that origin.
pub fn ready<R: Runtime>(app: &AppHandle<R>, origin: Option<f64>, marks: &[(String, f64)]) {
    if std::env::var("SHEETKEEPER_EXIT_AFTER_READY").as_deref() != Ok("1") {
        return;
    }
    let Some((started, started_epoch)) = STARTED.get() else { return };
    println!("ready_ms={}", started.elapsed().as_millis());
    if let Some(origin) = origin {
        let page = origin - started_epoch;
        let steps: Vec<String> = marks.iter().map(|(name, at)| format!("{name}:{:.0}", page + at)).collect();
        println!("page_ms=origin:{page:.0} {}", steps.join(" "));
    }
    app.exit(0);
}
