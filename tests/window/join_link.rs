//! Join by QR code or link (issue 32). The host's QR code holds `sheetkeeper://join?addr=…&code=…`;
//! a phone's camera or a click opens it with the app. Started with such a link, the app opens
//! "Join a table nearby" with the address and code filled and Join focused; a second launch
//! with another link hands it to the running window and exits (one app per database); a bad
//! link is said, not used. A link never joins by itself: Cancel leaves the device unlinked.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::webdriver::{Session, WAIT};
use crate::{app, begin, in_dark, shots_at_both_widths, Scratch};

fn value(session: &Session, selector: &str) -> String {
    let value = session.execute("return document.querySelector(arguments[0]).value;", json!([selector]));
    value.as_str().unwrap_or_default().to_owned()
}

/// Launches the app again on `db` with `link`, as a desktop does when a link is opened.
fn launch_again(db: &Path, scratch: &Scratch, link: &str) -> Child {
    Command::new(app())
        .arg(link)
        .envs(crate::webdriver::app_environment(db, &scratch.path("")))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("launch the app again")
}

/// The second launch hands its link over and exits with success; a window of its own would
/// never exit, so it is stopped after the wait and the test fails.
fn hands_over(mut second: Child) {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(status) = second.try_wait().expect("the second launch's status") {
            assert!(status.success(), "the second launch failed: {status}");
            return;
        }
        if Instant::now() > deadline {
            let _ = second.kill();
            let _ = second.wait();
            panic!("the second launch did not hand its link to the running app: it kept running");
        }
        sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_join_link_opens_the_join_dialog_filled_and_never_joins_by_itself() {
    let (_window, scratch, db) = begin("join-link");
    let link = "sheetkeeper://join?addr=192.168.1.20:41234&code=K7P-4QY";
    let session = Session::start_with_args(&app(), &db, &[link]);
    session.set_window_size(1280, 800);
    session.wait_for("body[data-ready='true']");

    session.wait_for("#link-join-dialog[open]");
    assert_eq!(value(&session, "#link-join-addr"), "192.168.1.20:41234");
    assert_eq!(value(&session, "#link-join-code"), "K7P-4QY");
    let focused = session.execute("return document.activeElement && document.activeElement.id;", json!([]));
    assert_eq!(focused, json!("link-join-submit"), "Join has the focus: one tap joins");
    shots_at_both_widths(&session, "join-link-filled");
    in_dark(&session, || shots_at_both_widths(&session, "join-link-filled-dark"));

    // The app runs: another link opened now reaches this window, and the launch exits.
    hands_over(launch_again(&db, &scratch, "sheetkeeper://join?addr=10.0.0.9:5000&code=ZZZ-111"));
    session.wait_until("the second link's address in the dialog", || {
        (value(&session, "#link-join-addr") == "10.0.0.9:5000").then_some(())
    });
    assert_eq!(value(&session, "#link-join-code"), "ZZZ-111");

    // A link in our scheme that is no join link is said, and fills nothing.
    hands_over(launch_again(&db, &scratch, "sheetkeeper://join?addr=10.0.0.9:5000"));
    session.wait_until("the bad link's toast", || {
        let toast = session.find("#toast").ok().filter(|t| t.is_displayed())?;
        toast.text().contains("not a Sheetkeeper table's join link").then_some(())
    });
    assert_eq!(value(&session, "#link-join-addr"), "10.0.0.9:5000", "the dialog keeps what it had");

    // Nothing was joined: the person did not press Join.
    session.click("#link-join-cancel");
    session.wait_gone("#link-join-dialog[open]");
    let status = session.execute_async(
        "const done = arguments[arguments.length - 1];\
         window.__TAURI__.core.invoke('link_join_status', {}).then(done, (e) => done(String(e)));",
        json!([]),
    );
    assert_eq!(status, json!(null), "no link runs after a link filled the dialog");
}
