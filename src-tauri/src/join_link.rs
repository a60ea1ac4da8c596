//! Joining a table from a link: the host's QR code holds `sheetkeeper://join?addr=…&code=…`
//! (`sheetkeeper::link::qr`). A phone's camera or a click opens that link with this app (the
//! scheme is registered by the deep-link plugin's configuration and, on Linux, the package's
//! desktop entry). The app does not join by itself: the link only fills the join dialog, and
//! the person presses Join — a link can come from anywhere, a join must be the person's.
//!
//! How a link arrives:
//! - the app was started with it (`sheetkeeper-app sheetkeeper://join?…`): read from the
//!   arguments in `setup`, before the page exists, and kept until the page asks;
//! - the app runs already (desktop): the single-instance plugin hands the second launch's
//!   arguments to this one, and the second launch exits;
//! - on a phone, or on macOS: the deep-link plugin's "open URL" event.
//!
//! The page learns of a link by asking (`link_join_request`, once when it starts and each time
//! this app calls `window.sheetkeeperJoinRequest()`); the link's text never becomes script.

use std::sync::Mutex;

use serde::Serialize;
use sheetkeeper::link::qr;
use tauri::{AppHandle, Manager, Runtime, State};

use crate::error::AppError;

/// What a link asked the join dialog to show, kept until the page takes it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct JoinRequest {
    /// The host's `ADDR:PORT`, filled into the dialog's address (empty when the link was bad).
    pub addr: String,
    /// The pairing code, filled into the dialog's code.
    pub code: String,
    /// Why a `sheetkeeper://` link could not be used, said to the person instead of filling.
    pub problem: Option<String>,
}

/// The latest link not yet taken by the page (a newer link replaces an older one).
#[derive(Default)]
pub struct JoinRequests(Mutex<Option<JoinRequest>>);

const SCHEME: &str = "sheetkeeper:";

/// The join request in `args` (a launch's arguments, or the URLs a platform opened): the first
/// argument in our scheme. None when no argument is in our scheme, so a launch with ordinary
/// arguments asks for nothing.
pub fn request_in<S: AsRef<str>>(args: impl IntoIterator<Item = S>) -> Option<JoinRequest> {
    let link = args.into_iter().find(|a| a.as_ref().trim_start().to_ascii_lowercase().starts_with(SCHEME))?;
    let link = link.as_ref();
    Some(match qr::parse_join_link(link) {
        Some((addr, code)) => JoinRequest { addr, code, problem: None },
        None => not_a_join_link(),
    })
}

/// Keeps the request in `args`, if any, and tells the page when it is there to ask (a link
/// that reaches a running app also brings its window to the front).
pub fn offer<R: Runtime, S: AsRef<str>>(app: &AppHandle<R>, args: impl IntoIterator<Item = S>) {
    let Some(request) = request_in(args) else { return };
    if let Some(kept) = app.try_state::<JoinRequests>() {
        *kept.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(request);
    }
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.set_focus();
        // A fixed script: the page then asks for the request through the command.
        let _ = window.eval("window.sheetkeeperJoinRequest && window.sheetkeeperJoinRequest()");
    }
}

/// With `scanned` (the text of a QR code the camera read): what it asks of the join dialog.
/// Without: the link waiting for the dialog (null when none), taken, so asked again it is null.
#[tauri::command(async)]
pub fn link_join_request(
    requests: State<'_, JoinRequests>,
    scanned: Option<String>,
) -> Result<Option<JoinRequest>, AppError> {
    Ok(match scanned {
        Some(text) => Some(request_in([text]).unwrap_or_else(not_a_join_link)),
        None => requests.0.lock().unwrap_or_else(|e| e.into_inner()).take(),
    })
}

/// Whether this device can scan a QR code with its camera (a phone: the barcode scanner).
#[tauri::command]
pub fn link_can_scan() -> bool {
    cfg!(mobile)
}

fn not_a_join_link() -> JoinRequest {
    JoinRequest {
        addr: String::new(),
        code: String::new(),
        problem: Some(
            "That is not a Sheetkeeper table's join link. Scan the QR code on the host's screen again, or type its address and code."
                .into(),
        ),
    }
}

/// The name under which one running app answers the launches that follow (Linux's D-Bus
/// name of the single-instance plugin). One app per database: the default database has the
/// app's own name; a database named by `$SHEETKEEPER_DB` (several people on one machine, or
/// the tests' devices) has that name with the path's digest, so each has its own window.
pub fn instance_id(identifier: &str, db: Option<&std::path::Path>) -> String {
    match db {
        None => identifier.to_owned(),
        Some(path) => {
            // FNV-1a over the path's bytes: stable across runs and builds, unlike std's hasher.
            let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
            for byte in path.as_os_str().as_encoded_bytes() {
                hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
            }
            format!("{identifier}.db{hash:016x}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_link_among_the_arguments_fills_address_and_code() {
        let args = ["sheetkeeper-app", "sheetkeeper://join?addr=192.168.1.20:41234&code=K7P-4QY"];
        let want = JoinRequest { addr: "192.168.1.20:41234".into(), code: "K7P-4QY".into(), problem: None };
        assert_eq!(request_in(args), Some(want));
        // WebKit's automation adds its own argument; the link is still found.
        let args = ["sheetkeeper-app", "--automation", "sheetkeeper://join?addr=[fd00::7]:4000&code=AB%2012"];
        assert_eq!(request_in(args).unwrap().addr, "[fd00::7]:4000");
    }

    #[test]
    fn ordinary_arguments_ask_for_nothing_and_a_bad_link_says_why() {
        assert_eq!(request_in(["sheetkeeper-app"]), None);
        assert_eq!(request_in(["sheetkeeper-app", "--help", "https://example.org/join?addr=1:1&code=Z"]), None);
        for bad in ["sheetkeeper://join?addr=1:1", "SHEETKEEPER://delete?all=1", "sheetkeeper://join?addr=1:1&code=%FF"]
        {
            let request = request_in(["sheetkeeper-app", bad]).expect(bad);
            assert!(request.addr.is_empty() && request.code.is_empty(), "{bad}: nothing is filled");
            assert!(request.problem.unwrap().contains("not a Sheetkeeper table's join link"), "{bad}");
        }
        // A scanned QR code that is something else altogether (a shop's web address).
        for scanned in ["https://example.org/", "", "sheetkeeper://join?addr=1:1&code=Z&code=Y"] {
            let request = request_in([scanned]).unwrap_or_else(not_a_join_link);
            assert!(request.problem.is_some() && request.addr.is_empty(), "{scanned:?}");
        }
    }

    #[test]
    fn one_app_per_database() {
        assert_eq!(instance_id("app.sheetkeeper", None), "app.sheetkeeper");
        let a = instance_id("app.sheetkeeper", Some(std::path::Path::new("/tmp/a/sheetkeeper.db")));
        let b = instance_id("app.sheetkeeper", Some(std::path::Path::new("/tmp/b/sheetkeeper.db")));
        assert_ne!(a, b);
        assert_eq!(a, instance_id("app.sheetkeeper", Some(std::path::Path::new("/tmp/a/sheetkeeper.db"))));
        // A D-Bus name element: letters, digits and underscores, not starting with a digit.
        let last = a.rsplit('.').next().unwrap();
        assert!(last.starts_with("db") && last.chars().all(|c| c.is_ascii_alphanumeric()), "{a}");
    }
}
