//! A tiny blocking W3C WebDriver client for the real-window tests.
//!
//! `Session::start(app, db)` runs `tauri-driver` (which runs `WebKitWebDriver`, which runs
//! the app) on a free pair of ports, with `SHEETKEEPER_DB` pointing at `db`, and opens a
//! session once every port it talks through is its own processes' (`processes.rs`). Dropping
//! the session closes the app and waits until the drivers, the app and WebKit's processes are
//! all gone.
//!
//! ```ignore
//! let s = Session::start(&app, &db);
//! s.wait_for("#new-game-name").send_keys("Thursday");
//! s.click("#new-game-submit");
//! let row = s.wait_for(".game-row .game-name");
//! assert_eq!(row.text(), "Thursday");
//! ```
//!
//! Waits poll until a condition holds and fail the test after `WAIT` (they are not timing
//! assertions: a slow machine just waits longer inside the limit).

use std::fmt;
use std::net::TcpListener;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

use crate::processes::{self, Listener};

/// How long a wait polls before the test fails.
pub const WAIT: Duration = Duration::from_secs(20);
const POLL: Duration = Duration::from_millis(100);

/// The W3C key for an element reference in JSON.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The Enter key, for `send_keys`.
pub const ENTER: &str = "\u{E007}";

/// The Escape key, for `send_keys`.
pub const ESCAPE: &str = "\u{E00C}";

/// The layout check's script (an expression giving a list of problems).
const LAYOUT_CHECK: &str = include_str!("layout_check.js");

/// An error answer from the WebDriver server (or a transport failure).
#[derive(Debug)]
pub struct WdError {
    /// The W3C error code, e.g. "no such element"; "transport" when HTTP itself failed.
    pub error: String,
    /// The server's message.
    pub message: String,
}

impl fmt::Display for WdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.error, self.message)
    }
}

/// A running `tauri-driver`, in a process group of its own with everything it starts
/// (WebKitWebDriver, the app, WebKit's processes); the whole group is stopped on drop.
struct Driver {
    child: Child,
    port: u16,
    /// The XDG homes of the session's processes, removed once they are gone.
    xdg: PathBuf,
}

impl Driver {
    /// Starts tauri-driver on two free ports and waits until it and WebKitWebDriver listen on
    /// them. Err when another process got a port first: a port is free when picked, but
    /// anything may bind it before the driver does, and the session would then talk to
    /// whatever listens there (another test's driver, another window).
    fn start(db: &Path, env: &[(&str, &str)]) -> Result<Driver, String> {
        let port = free_port();
        let mut native_port = free_port();
        while native_port == port {
            native_port = free_port();
        }
        let xdg = xdg_folder();
        let child = Command::new(tauri_driver_path())
            .arg("--port")
            .arg(port.to_string())
            .arg("--native-port")
            .arg(native_port.to_string())
            // The app is started by WebKitWebDriver, a child of tauri-driver, so it
            // inherits this environment. The XDG folders go in the session's own folder:
            // not next to `db`, whose folder may be one that must not exist (WebKitWebDriver
            // makes dconf's folder in the cache home while the app is opening the database).
            .envs(app_environment(db, &xdg))
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "could not start tauri-driver ({e}); install it with \
                     `cargo install tauri-driver --locked` and Debian's webkit2gtk-driver"
                )
            });
        let mut driver = Driver { child, port, xdg };
        driver.wait_listening(native_port)?;
        Ok(driver)
    }

    /// The process group: tauri-driver leads it.
    fn group(&self) -> u32 {
        self.child.id()
    }

    fn wait_listening(&mut self, native_port: u16) -> Result<(), String> {
        let group = self.group();
        let deadline = Instant::now() + WAIT;
        loop {
            let ports = [("tauri-driver", self.port), ("WebKitWebDriver", native_port)];
            let listeners = ports.map(|(_, port)| processes::listener(port, group));
            if listeners == [Listener::Group, Listener::Group] {
                return Ok(());
            }
            if let Some(i) = listeners.iter().position(|l| *l == Listener::Other) {
                return Err(format!("another process listens on port {}, picked for {}", ports[i].1, ports[i].0));
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("tauri-driver exited ({status}) before listening on port {}", self.port);
            }
            // tauri-driver starts WebKitWebDriver before it listens itself.
            if listeners[0] == Listener::Group && processes::members(group) == [group] {
                return Err(format!("WebKitWebDriver could not listen on port {native_port}"));
            }
            assert!(
                Instant::now() < deadline,
                "tauri-driver and WebKitWebDriver did not listen on ports {} and {native_port} within {WAIT:?}",
                self.port
            );
            sleep(POLL);
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole group, and until it is gone: on SIGTERM tauri-driver kills WebKitWebDriver
        // without waiting for it, and the app outlives both when its session did not end. A
        // process left running keeps a window (and its dialogs) on the display the next test
        // uses, and writes into the XDG folder.
        let group = self.group();
        processes::signal(group, "TERM");
        if !processes::wait_gone(group, Duration::from_secs(10)) {
            processes::signal(group, "KILL");
            if !processes::wait_gone(group, Duration::from_secs(10)) {
                eprintln!("the session's processes {:?} outlived SIGKILL", processes::members(group));
            }
        }
        let _ = self.child.try_wait();
        let _ = std::fs::remove_dir_all(&self.xdg);
    }
}

/// A new, empty folder for one session's XDG homes.
/// What the app is started with: its database `db`, the running test's own display
/// (`displays.rs`), and the XDG folders (GTK's recent files, WebKit's caches, dconf's and the
/// like) below `xdg`, not in the home folder of whoever runs the tests.
pub(crate) fn app_environment(db: &Path, xdg: &Path) -> Vec<(&'static str, std::ffi::OsString)> {
    let mut env = vec![("SHEETKEEPER_DB", db.as_os_str().to_owned()), ("DISPLAY", crate::displays::current().into())];
    for (name, folder) in [
        ("XDG_DATA_HOME", "data"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ] {
        env.push((name, xdg.join(folder).into_os_string()));
    }
    env
}

fn xdg_folder() -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("sheetkeeper-window-xdg-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the session's XDG folder");
    dir
}

/// `tauri-driver` from PATH, or from cargo's bin directory when PATH lacks it.
fn tauri_driver_path() -> PathBuf {
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join("tauri-driver");
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    match cargo_home {
        Some(home) => home.join("bin").join("tauri-driver"),
        None => PathBuf::from("tauri-driver"),
    }
}

/// A port that was free a moment ago (the OS picks it).
fn free_port() -> u16 {
    TcpListener::bind(("127.0.0.1", 0)).and_then(|l| l.local_addr()).map(|a| a.port()).expect("no free local port")
}

/// One WebDriver session: one running app window.
pub struct Session {
    agent: ureq::Agent,
    /// `http://127.0.0.1:PORT/session/ID`
    base: String,
    // Dropped after `Session::drop` has ended the session, which closes the app.
    _driver: Driver,
}

impl Session {
    /// Starts the app at `app` with the database `db` and waits for its window.
    pub fn start(app: &Path, db: &Path) -> Session {
        Session::start_with_env(app, db, &[])
    }

    /// Like `start`, with extra environment variables for the drivers and the app (for
    /// example `GTK_THEME=Adwaita:dark`, which makes WebKitGTK prefer a dark colour scheme).
    pub fn start_with_env(app: &Path, db: &Path, env: &[(&str, &str)]) -> Session {
        Session::start_with(app, db, env, &[])
    }

    /// Like `start`, with the app started with `args` (a `sheetkeeper://` link, as a desktop
    /// starts it when a link is opened).
    pub fn start_with_args(app: &Path, db: &Path, args: &[&str]) -> Session {
        Session::start_with(app, db, &[], args)
    }

    fn start_with(app: &Path, db: &Path, env: &[(&str, &str)], args: &[&str]) -> Session {
        assert!(app.is_file(), "the app binary {} is missing", app.display());
        // A port another process took between being picked and being bound is no failure of
        // the app: start again on other ports, saying so.
        let mut taken = Vec::new();
        while taken.len() < 3 {
            match Session::try_start(app, db, env, args) {
                Ok(session) => return session,
                Err(problem) => {
                    eprintln!("starting the session again on other ports: {problem}");
                    taken.push(problem);
                }
            }
        }
        panic!("three sessions in a row found a port of theirs taken: {taken:?}");
    }

    fn try_start(app: &Path, db: &Path, env: &[(&str, &str)], args: &[&str]) -> Result<Session, String> {
        let driver = Driver::start(db, env)?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let root = format!("http://127.0.0.1:{}", driver.port);

        // tauri-driver forwards this to WebKitWebDriver, which may need a moment more.
        let deadline = Instant::now() + WAIT;
        loop {
            if let Ok(response) = agent.get(&format!("{root}/status")).call() {
                if response.status().is_success() {
                    break;
                }
            }
            assert!(Instant::now() < deadline, "tauri-driver did not answer on {root}");
            sleep(POLL);
        }

        let capabilities = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "wry",
                    "tauri:options": { "application": app, "args": args }
                }
            }
        });
        let value = request(&agent, "POST", &format!("{root}/session"), Some(&capabilities))
            .unwrap_or_else(|e| panic!("could not open a WebDriver session: {e}"));
        let id = value["sessionId"].as_str().unwrap_or_else(|| panic!("no sessionId in {value}")).to_string();
        let group = driver.group();
        let session = Session { agent, base: format!("{root}/session/{id}"), _driver: driver };

        // WebKitWebDriver drives the app through a port it picks the same way: if another
        // process listens there, the session's window is that process's.
        let inspector =
            processes::inspector_port(group).expect("a process of the session was given WEBKIT_INSPECTOR_SERVER");
        match processes::listener(inspector, group) {
            Listener::Group => Ok(session),
            other => Err(format!("the app's inspector port {inspector} is not the app's ({other:?})")),
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, WdError> {
        request(&self.agent, method, &format!("{}{path}", self.base), body)
    }

    fn must(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        self.call(method, path, body).unwrap_or_else(|e| panic!("WebDriver {method} {path} failed: {e}"))
    }

    /// The first element matching the CSS `selector`, if there is one now.
    pub fn find(&self, selector: &str) -> Result<Element<'_>, WdError> {
        let value = self.call("POST", "/element", Some(&json!({"using": "css selector", "value": selector})))?;
        Ok(Element { session: self, id: element_id(&value), selector: selector.to_string() })
    }

    /// Every element matching `selector` now (possibly none).
    pub fn find_all(&self, selector: &str) -> Vec<Element<'_>> {
        let body = json!({"using": "css selector", "value": selector});
        // WebKitWebDriver finds the elements, then makes a handle for each: one the page took
        // away in between (a table feed card going by itself) fails the whole find as "stale".
        // The page moved on; asking again answers for the page as it is now.
        let mut stale = 0;
        let value = loop {
            match self.call("POST", "/elements", Some(&body)) {
                Err(e) if e.error == "stale element reference" && stale < 10 => stale += 1,
                found => break found.unwrap_or_else(|e| panic!("WebDriver POST /elements failed: {e}")),
            }
        };
        value
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|v| Element { session: self, id: element_id(v), selector: selector.to_string() })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Polls `check` until it returns `Some`; fails the test with `what` after `WAIT`.
    pub fn wait_until<T>(&self, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(found) = check() {
                return found;
            }
            if Instant::now() >= deadline {
                let shot = self.screenshot_to_failures(what);
                panic!("gave up after {WAIT:?} waiting for {what} (screenshot: {shot})");
            }
            sleep(POLL);
        }
    }

    /// Waits until an element matching `selector` is displayed and returns it.
    pub fn wait_for(&self, selector: &str) -> Element<'_> {
        let what = format!("a visible `{selector}`");
        self.wait_until(&what, || {
            let element = self.find(selector).ok()?;
            element.is_displayed().then_some(element)
        })
    }

    /// Waits until no element matching `selector` is displayed.
    pub fn wait_gone(&self, selector: &str) {
        let what = format!("`{selector}` to disappear");
        self.wait_until(&what, || {
            let shown = self.find_all(selector).iter().any(|e| e.is_displayed());
            (!shown).then_some(())
        });
    }

    /// Waits until the element's text is `expected`.
    pub fn wait_text(&self, selector: &str, expected: &str) {
        let what = format!("`{selector}` to read {expected:?}");
        self.wait_until(&what, || {
            let element = self.find(selector).ok()?;
            (element.text() == expected).then_some(())
        });
    }

    /// Waits for `selector` and clicks it.
    pub fn click(&self, selector: &str) {
        self.wait_for(selector).click();
    }

    /// Presses `keys` on whatever has the focus, one after another, as a person at a keyboard
    /// (WebDriver key actions: nothing is clicked or focused first). Each item is pressed and
    /// released; a chord such as Shift+Tab is `[SHIFT, TAB]` in one item, held in that order.
    pub fn press_keys(&self, keys: &[&[&str]]) {
        let mut actions = Vec::new();
        for chord in keys {
            actions.extend(chord.iter().map(|k| json!({"type": "keyDown", "value": k})));
            actions.extend(chord.iter().rev().map(|k| json!({"type": "keyUp", "value": k})));
        }
        self.must(
            "POST",
            "/actions",
            Some(&json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
        self.must("DELETE", "/actions", None);
    }

    /// A press held as a person holds a finger on a control: the left button goes down on the
    /// middle of `selector` (brought to the middle of the window first), stays down `hold`, and
    /// comes up there. Nothing is focused or clicked before.
    pub fn hold_press(&self, selector: &str, hold: Duration) {
        self.mouse_on(selector, |origin| {
            vec![
                json!({"type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0}),
                json!({"type": "pointerDown", "button": 0}),
                json!({"type": "pause", "duration": hold.as_millis() as u64}),
                json!({"type": "pointerUp", "button": 0}),
            ]
        });
    }

    /// Moves the mouse pointer onto the middle of `selector` as a person's hand slides it
    /// there to read (from a few pixels to its left: two moves); nothing is pressed.
    pub fn hover(&self, selector: &str) {
        self.mouse_on(selector, |origin| {
            [-4, 0].map(|x| json!({"type": "pointerMove", "duration": 0, "origin": origin, "x": x, "y": 0})).to_vec()
        });
    }

    /// Runs the mouse `steps` made for `selector` (brought to the middle of the window first;
    /// `steps` gets the element as a WebDriver move's origin) and lets the mouse go after.
    fn mouse_on(&self, selector: &str, steps: impl FnOnce(&Value) -> Vec<Value>) {
        self.to_middle(selector);
        let element = self.wait_for(selector);
        let origin = json!({ ELEMENT_KEY: element.id });
        let actions = json!({"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": steps(&origin),
        }]});
        self.must("POST", "/actions", Some(&actions));
        self.must("DELETE", "/actions", None);
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its result.
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.must("POST", "/execute/sync", Some(&json!({"script": script, "args": args})))
    }

    /// Runs `script` asynchronously: it ends by calling the last of its `arguments` with the
    /// result (after `args`), which this returns.
    pub fn execute_async(&self, script: &str, args: Value) -> Value {
        self.must("POST", "/execute/async", Some(&json!({"script": script, "args": args})))
    }

    /// Saves a PNG of the window to `path` (creating its folder), then runs the layout check
    /// and the accessibility check on what it shows (see `check_layout` and
    /// `check_accessibility`).
    pub fn screenshot(&self, path: &Path) {
        self.screenshot_unchecked(path);
        let what = path.display().to_string();
        self.check_layout(&what);
        self.check_accessibility(&what);
    }

    /// Saves a PNG of the window without the layout check: only for a screen whose own
    /// elements the caller has checked with `layout_problems` (e.g. the shared frame around
    /// a screen another part of the app owns).
    pub fn screenshot_unchecked(&self, path: &Path) {
        self.wait_for_paint();
        // WebKitWebDriver takes the picture at the web view's next repaint, and the app draws
        // without GL compositing (src-tauri/src/webview.rs), where a page at rest never
        // repaints: so a 1 px dot, all but transparent, flickers in a corner until it is taken.
        self.execute(
            "const dot = document.createElement('div'); dot.id = 'webdriver-repaint'; \
             dot.style.cssText = 'position:fixed;left:0;bottom:0;width:1px;height:1px;pointer-events:none;z-index:2147483647'; \
             let on = false; dot.dataset.timer = setInterval(() => { on = !on; \
               dot.style.background = on ? 'rgba(128,128,128,0.01)' : 'rgba(128,128,128,0.02)'; }, 40); \
             document.body.append(dot);",
            json!([]),
        );
        let value = self.must("GET", "/screenshot", None);
        self.execute(
            "const dot = document.getElementById('webdriver-repaint'); \
             if (dot) { clearInterval(Number(dot.dataset.timer)); dot.remove(); }",
            json!([]),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(value.as_str().expect("screenshot is a base64 string"))
            .expect("screenshot is valid base64");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create the screenshot folder");
        }
        std::fs::write(path, png).expect("write the screenshot");
    }

    /// The layout problems on the page now (`layout_check.js`): visible controls or texts
    /// that overlap, a layer covering another's controls, anything past the window's side
    /// edges. Empty when the layout is clean.
    pub fn layout_problems(&self) -> Vec<String> {
        let script = format!("return (\n{}\n);", LAYOUT_CHECK);
        let value = self.execute(&script, json!([]));
        value
            .as_array()
            .unwrap_or_else(|| panic!("the layout check returned {value}"))
            .iter()
            .map(|p| p.as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Runs the layout check and fails the test naming every problem (`what` says which
    /// screen). With `SHEETKEEPER_LAYOUT_CHECK=report` the problems are only printed.
    pub fn check_layout(&self, what: &str) {
        let problems = self.layout_problems();
        self.fail_or_print("layout check failed", what, &problems, true, "SHEETKEEPER_LAYOUT_CHECK");
    }

    /// A check's `findings` on the screen `what`, listed under `check`: the test fails when
    /// `fails`, unless the variable `switch` is `report`; else they are printed.
    pub(crate) fn fail_or_print(&self, check: &str, what: &str, findings: &[String], fails: bool, switch: &str) {
        if findings.is_empty() {
            return;
        }
        let width = self.inner_width();
        let list = findings.iter().map(|f| format!("  - {f}")).collect::<Vec<_>>().join("\n");
        let message = format!("{check} on {what} ({width} px wide):\n{list}");
        if fails && !std::env::var(switch).is_ok_and(|v| v == "report") {
            panic!("{message}\n({switch}=report only prints these)");
        }
        eprintln!("{message}");
    }

    /// Waits until the page has painted its current state (two animation frames), so a
    /// screenshot shows what the DOM holds now rather than an older frame.
    /// Waits until the page has no call to the app under way (`data-calls`, kept by
    /// `ui/api.js`) and has painted what the last one brought: the screen has settled, so an
    /// element found now is not redrawn under the next click.
    pub fn wait_settled(&self) {
        self.wait_until("the page's calls to the app to finish", || {
            let calls = self.execute("return document.documentElement.getAttribute('data-calls');", json!([]));
            (calls == json!("0")).then_some(())
        });
        self.wait_for_paint();
    }

    /// Scrolls `selector` to the middle of the window, as a person scrolls before a tap, and
    /// waits for the scroll to be painted: a click computed while it is under way lands on
    /// whatever was there before (a control one row above, in one CI run).
    pub fn to_middle(&self, selector: &str) {
        self.wait_for(selector);
        self.execute("document.querySelector(arguments[0])?.scrollIntoView({ block: 'center' });", json!([selector]));
        self.wait_for_paint();
    }

    pub fn wait_for_paint(&self) {
        let script = "const done = arguments[arguments.length - 1]; \
                      requestAnimationFrame(() => requestAnimationFrame(() => done(true)));";
        self.execute_async(script, json!([]));
    }

    fn screenshot_to_failures(&self, what: &str) -> String {
        let name: String = what.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let path = screenshot_dir().join(format!("failed-{name}.png"));
        // Native dialogs are outside the web view: also try a picture of the whole X
        // screen (ImageMagick's `import`; best effort, it may not be installed).
        let _ = std::fs::create_dir_all(screenshot_dir());
        let _ = Command::new("import")
            .args(["-window", "root"])
            .env("DISPLAY", crate::displays::current())
            .arg(screenshot_dir().join(format!("failed-{name}-screen.png")))
            .stderr(Stdio::null())
            .status();
        match self.call("GET", "/screenshot", None) {
            Ok(Value::String(data)) => {
                let png = base64::engine::general_purpose::STANDARD.decode(data).unwrap_or_default();
                let _ = std::fs::create_dir_all(screenshot_dir());
                let _ = std::fs::write(&path, png);
                path.display().to_string()
            }
            _ => "none".to_string(),
        }
    }

    /// Resizes the window (the outer size, as the window manager sees it).
    pub fn set_window_size(&self, width: u32, height: u32) {
        self.must("POST", "/window/rect", Some(&json!({"width": width, "height": height})));
    }

    /// Reloads the page, as F5 does (WebDriver waits for the new page to load).
    pub fn reload(&self) {
        self.must("POST", "/refresh", Some(&json!({})));
    }

    /// The page's inner width in CSS pixels.
    pub fn inner_width(&self) -> f64 {
        self.execute("return window.innerWidth;", json!([])).as_f64().expect("innerWidth is a number")
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Ends the session, which closes the app; the driver is stopped afterwards.
        let _ = self.call("DELETE", "", None);
    }
}

/// Where screenshots go: `tests/window/screenshots/` (gitignored).
pub fn screenshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/window/screenshots")
}

/// An element found in a session.
#[derive(Clone)]
pub struct Element<'s> {
    session: &'s Session,
    id: String,
    selector: String,
}

impl<'s> Element<'s> {
    fn path(&self, rest: &str) -> String {
        format!("/element/{}{rest}", self.id)
    }

    /// Clicks the element like a person: brought to the middle of the window first (the
    /// WebDriver's own scroll stops at the edge, where a sticky bar or the phone tab bar may
    /// lie over it), and tried once more after the page settles if something was still in
    /// the way (a toast fading, a bar moving) or the page redrew it (a linked device's
    /// window redraws when the table's state arrives: the same control, found again).
    pub fn click(&self) {
        if let Err(first) = self.try_click() {
            let stale = first.contains("stale");
            if !stale && !first.contains("not interactable") && !first.contains("intercepted") {
                panic!("clicking `{}` failed: {first}", self.selector);
            }
            self.session.wait_settled();
            // Found again only when its selector names one control alone (a row's button
            // found inside the row has a selector other rows' buttons share).
            let again = match stale {
                false => self.clone(),
                true if self.session.find_all(&self.selector).len() == 1 => self.session.wait_for(&self.selector),
                true => panic!("clicking `{}` failed: the page redrew it ({first})", self.selector),
            };
            again
                .try_click()
                .unwrap_or_else(|e| panic!("clicking `{}` failed: {e} (first try: {first})", self.selector));
        }
    }

    /// One click, brought to the middle first; the WebDriver's error in words when it fails.
    pub fn try_click(&self) -> Result<(), String> {
        let me = json!([{ ELEMENT_KEY: self.id }]);
        let center = "arguments[0].scrollIntoView({block: 'center', inline: 'center'});";
        self.session
            .call("POST", "/execute/sync", Some(&json!({"script": center, "args": me})))
            .map_err(|e| e.to_string())?;
        self.session.call("POST", &self.path("/click"), Some(&json!({}))).map(|_| ()).map_err(|e| e.to_string())
    }

    /// Types `text` into the element as key presses.
    pub fn send_keys(&self, text: &str) {
        self.session
            .call("POST", &self.path("/value"), Some(&json!({"text": text})))
            .unwrap_or_else(|e| panic!("typing into `{}` failed: {e}", self.selector));
    }

    /// Empties an input.
    pub fn clear(&self) {
        self.session
            .call("POST", &self.path("/clear"), Some(&json!({})))
            .unwrap_or_else(|e| panic!("clearing `{}` failed: {e}", self.selector));
    }

    /// The rendered text, as a person sees it.
    pub fn text(&self) -> String {
        self.session
            .call("GET", &self.path("/text"), None)
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .unwrap_or_default()
    }

    /// An attribute's value, or None when it is absent.
    pub fn attribute(&self, name: &str) -> Option<String> {
        self.session
            .call("GET", &self.path(&format!("/attribute/{name}")), None)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
    }

    /// True when the element is shown (false when it went away meanwhile).
    pub fn is_displayed(&self) -> bool {
        self.session.call("GET", &self.path("/displayed"), None).map(|v| v.as_bool() == Some(true)).unwrap_or(false)
    }

    /// The first descendant matching `selector`.
    pub fn find(&self, selector: &str) -> Result<Element<'s>, WdError> {
        let value = self.session.call(
            "POST",
            &self.path("/element"),
            Some(&json!({"using": "css selector", "value": selector})),
        )?;
        Ok(Element { session: self.session, id: element_id(&value), selector: format!("{} {selector}", self.selector) })
    }
}

fn element_id(value: &Value) -> String {
    value[ELEMENT_KEY].as_str().unwrap_or_else(|| panic!("not an element reference: {value}")).to_string()
}

/// Sends one WebDriver command and returns its `value`, or the server's error.
fn request(agent: &ureq::Agent, method: &str, url: &str, body: Option<&Value>) -> Result<Value, WdError> {
    let transport = |e: ureq::Error| WdError { error: "transport".to_string(), message: format!("{url}: {e}") };
    let mut response = match (method, body) {
        ("GET", _) => agent.get(url).call(),
        ("DELETE", _) => agent.delete(url).call(),
        ("POST", Some(body)) => agent.post(url).send_json(body),
        ("POST", None) => agent.post(url).send_json(json!({})),
        _ => panic!("unsupported method {method}"),
    }
    .map_err(transport)?;
    let status = response.status();
    let json: Value = response.body_mut().read_json().map_err(transport)?;
    let value = json.get("value").cloned().unwrap_or(Value::Null);
    if status.is_success() {
        Ok(value)
    } else {
        Err(WdError {
            error: value["error"].as_str().unwrap_or("unknown error").to_string(),
            message: value["message"].as_str().unwrap_or_default().to_string(),
        })
    }
}
