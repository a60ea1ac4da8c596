//! The X displays the tests' windows open on, one test per display at a time: a display's
//! native file dialogs and xdotool's keyboard are shared by every window on it, so two
//! tests on one display would type into each other's dialogs. The first display is the one
//! the tests were started on (`xvfb-run`); when more tests run at once, each one that finds
//! every display taken starts another `Xvfb`, kept for the rest of the run and stopped when
//! this process ends. The tests then run side by side (`--test-threads`), which is most of
//! their time saved: a test spends most of it waiting for a window, not computing.

use std::cell::RefCell;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::webdriver::WAIT;

/// A display held by the running test until this is dropped: keep it while any window of the
/// test is open (declare it first, so it is dropped last).
pub struct Window {
    display: String,
}

struct Pool {
    free: Vec<String>,
    /// Whether the display the tests were started on has been handed out yet.
    inherited_taken: bool,
}

static POOL: Mutex<Pool> = Mutex::new(Pool { free: Vec::new(), inherited_taken: false });

thread_local! {
    /// The display of the test running on this thread (each test runs on its own thread).
    static CURRENT: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn pool() -> MutexGuard<'static, Pool> {
    // A test that failed while holding the lock left the list itself intact.
    POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Takes a display for the running test: a free one, the tests' own, or a new one.
pub fn take() -> Window {
    let display = {
        let mut pool = pool();
        if let Some(display) = pool.free.pop() {
            display
        } else if !pool.inherited_taken && std::env::var("DISPLAY").is_ok_and(|d| !d.is_empty()) {
            pool.inherited_taken = true;
            std::env::var("DISPLAY").unwrap_or_default()
        } else {
            drop(pool);
            start_xvfb()
        }
    };
    CURRENT.with(|current| *current.borrow_mut() = Some(display.clone()));
    Window { display }
}

impl Drop for Window {
    fn drop(&mut self) {
        CURRENT.with(|current| current.borrow_mut().take());
        pool().free.push(std::mem::take(&mut self.display));
    }
}

/// The display of the running test; a test must hold one (`begin`, `one_window`) before it
/// opens a window or types into one.
pub fn current() -> String {
    CURRENT
        .with(|current| current.borrow().clone())
        .expect("the test holds no display: take one with `begin` or `one_window` first")
}

/// Starts an Xvfb on a display number it picks itself (`-displayfd`), with a watcher that
/// stops it once this test process is gone (a test run may end on a panic or a signal; no
/// destructor runs for what a static holds).
fn start_xvfb() -> String {
    let folder = std::env::temp_dir().join(format!("sheetkeeper-window-displays-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("create the displays' folder");
    let number_file = folder.join(format!("display-{}", unique()));
    let script = r#"Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$1" 2>/dev/null &
x=$!
while kill -0 "$2" 2>/dev/null && kill -0 "$x" 2>/dev/null; do sleep 1; done
kill "$x" 2>/dev/null"#;
    let mut watcher = Command::new("sh")
        .args(["-c", script, "sh"])
        .arg(&number_file)
        .arg(std::process::id().to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("could not start sh for Xvfb ({e})"));
    let display = wait_number(&number_file, &mut watcher);
    wait_answering(&display);
    display
}

fn unique() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default()
}

/// Xvfb writes its display number and a newline to the file once it listens.
fn wait_number(file: &Path, watcher: &mut Child) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if let Some(number) = text.strip_suffix('\n') {
            return format!(":{}", number.trim());
        }
        if let Ok(Some(status)) = watcher.try_wait() {
            panic!("Xvfb ended ({status}) before it listened: install Debian's `xvfb`");
        }
        assert!(Instant::now() < deadline, "Xvfb gave no display number within {WAIT:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until a client can talk to `display` (xdotool, which the tests need anyway).
fn wait_answering(display: &str) {
    let deadline = Instant::now() + WAIT;
    loop {
        let answered = Command::new("xdotool")
            .arg("getdisplaygeometry")
            .env("DISPLAY", display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if answered {
            return;
        }
        assert!(Instant::now() < deadline, "the new display {display} did not answer within {WAIT:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
