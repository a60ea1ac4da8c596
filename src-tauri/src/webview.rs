//! The main window: how its web view draws, and the data it is built with.

use tauri::{App, Runtime, WebviewWindowBuilder};

use crate::device_commands::Home;

/// WebKitGTK composites every page through OpenGL unless told otherwise. Our screens are
/// forms, lists and a few short transitions, which its software drawing handles at once,
/// while setting up the GL compositor held the first paint about 150 ms at every start on a
/// machine with software GL (measured under Xvfb with Mesa; the same holds in VMs and on
/// machines without a GPU driver). GL drivers are also the usual cause of a blank WebKitGTK
/// window. So the window draws without it, unless the person set the variable themselves.
///
/// Set before anything starts a thread or the web process (which reads it): first thing in
/// `run`. (Changing the web view's setting once the page loads instead left WebDriver's
/// screenshots hanging now and then.) Other platforms' web views decide for themselves.
pub fn draw_without_gl() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() {
        std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1");
    }
}

/// Builds the main window from its configuration (`tauri.conf.json`, where `create` is false
/// so that it is built here), carrying the home screen's data as it is now, as JSON text in
/// `window.sheetkeeperHomeJson`. start.js uses it on the page's first load instead of
/// asking for it: a call answered while the page loads reached the page 30–35 ms after the
/// app had answered, most of the start's gap to a bare window. A reload asks again, since
/// the script is fixed for the window's life. Without data (a database that could not be
/// opened) the page asks, and shows the error it gets.
pub fn open_main<R: Runtime>(app: &App<R>, home: Option<&Home>) -> tauri::Result<()> {
    let config = app.config().app.windows.iter().find(|w| w.label == "main").cloned().unwrap_or_default();
    let mut window = WebviewWindowBuilder::from_config(app, &config)?;
    if let Some(json) = home.and_then(|h| serde_json::to_string(h).ok()) {
        // A JSON string is also a JavaScript string literal, with the text escaped.
        let literal = serde_json::Value::String(json).to_string();
        window = window.initialization_script(format!("window.sheetkeeperHomeJson = {literal};"));
    }
    window.build()?;
    Ok(())
}
