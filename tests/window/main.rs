//! Real-window tests: the app binary in its own window, driven through `tauri-driver` and
//! WebKitWebDriver like a person would (clicks, typing, the native file dialogs through
//! `xdotool`), with screenshots in `tests/window/screenshots/`.
//!
//! Run them inside a session bus and an X server:
//!
//! ```text
//! dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" cargo test -p sheetkeeper-app --test window
//! ```
//!
//! They need `tauri-driver`, `WebKitWebDriver` and `xdotool`; a missing tool fails the test
//! (nothing is skipped). Each test uses its own throwaway database through `SHEETKEEPER_DB`.

mod axe;
mod dice_tray;
mod displays;
mod feed;
mod fixtures;
mod gifts;
mod home;
mod join_link;
mod journal;
mod keyboard;
mod landmarks;
mod layout;
mod link;
mod link_notes;
mod mezzo;
mod mezzo_challenge;
mod mezzo_choices;
mod mezzo_device;
#[path = "../core/support/mezzo_drafts.rs"]
mod mezzo_drafts;
mod mezzo_linked_hand;
mod mezzo_linked_votes;
mod mezzo_play;
mod mezzo_quick_check;
mod mezzo_votes;
mod nsu_choices;
mod nsu_downtime_owed;
mod nsu_map;
mod nsu_quick_roll;
mod nsu_reference;
mod nsu_roll;
mod nsu_scout;
mod nsu_sheet;
mod nsu_world;
mod penny_ante;
mod penny_campaign;
mod penny_house_view;
mod penny_secrets;
mod play_sheet;
mod print;
mod processes;
mod scattershot;
mod scattershot_choices;
mod scattershot_free_skills;
mod scattershot_penalties;
mod scattershot_quick_roll;
mod scattershot_sheet;
mod scattershot_table;
mod transfer;
mod webdriver;
mod xcard_room;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use displays::Window;
use serde_json::json;
use webdriver::{screenshot_dir, Element, Session, ENTER, ESCAPE, WAIT};

// ---- shared helpers -----------------------------------------------------------------------

/// A display of the test's own until the guard is dropped (see `displays.rs`).
fn one_window() -> Window {
    displays::take()
}

fn app() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_sheetkeeper-app"))
}

/// A throwaway folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("sheetkeeper-window-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create a scratch folder");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How each test begins: a display to itself until the test ends (keep the guard) and its
/// own throwaway folder `name`, with the path of the app's database in it.
fn begin(name: &str) -> (Window, Scratch, PathBuf) {
    let window = one_window();
    let scratch = Scratch::new(name);
    let db = scratch.path("sheetkeeper.db");
    (window, scratch, db)
}

/// `begin`, then the app started by `start` (`open` or `open_dark`) on the test's database.
fn begin_with(name: &str, start: fn(&Path) -> Session) -> (Window, Scratch, PathBuf, Session) {
    let (window, scratch, db) = begin(name);
    let session = start(&db);
    (window, scratch, db, session)
}

/// Starts the app on `db` and waits until the home screen shows its data.
fn open(db: &Path) -> Session {
    let session = Session::start(&app(), db);
    session.set_window_size(1280, 800);
    session.wait_for("body[data-ready='true']");
    session
}

/// Starts the app on `db` with a dark GTK theme (so the page prefers dark) and waits until
/// the home screen shows its data.
fn open_dark(db: &Path) -> Session {
    let session = Session::start_with_env(&app(), db, &[("GTK_THEME", "Adwaita:dark")]);
    session.set_window_size(1280, 800);
    session.wait_for("body[data-ready='true']");
    let dark = session.execute("return matchMedia('(prefers-color-scheme: dark)').matches;", json!([]));
    assert_eq!(dark, json!(true), "GTK_THEME=Adwaita:dark makes the page prefer dark");
    session
}

fn shot(session: &Session, name: &str) {
    session.screenshot(&screenshot_dir().join(format!("{name}.png")));
}

/// Runs `shoot` with the page in the dark theme (the Theme setting's attribute on <html>), then
/// puts it back in light: screenshots to look at; the setting itself is tested in home.rs.
fn in_dark(session: &Session, shoot: impl FnOnce()) {
    session.execute("document.documentElement.dataset.theme = 'dark';", json!([]));
    shoot();
    session.execute("document.documentElement.dataset.theme = 'light';", json!([]));
}

/// Takes the same screen at desktop width and at 360 px wide, then goes back to desktop.
fn shots_at_both_widths(session: &Session, name: &str) {
    shots_at_both_widths_with(session, name, || {}, || {});
}

/// `shots_at_both_widths` with `prepare` run before each screenshot (a scroll, say) and
/// `at_phone_width` run after the narrow one, while the window is still 360 px wide.
fn shots_at_both_widths_with(session: &Session, name: &str, prepare: impl Fn(), at_phone_width: impl FnOnce()) {
    prepare();
    shot(session, &format!("{name}-1280"));
    phone_width(session);
    prepare();
    shot(session, &format!("{name}-360"));
    at_phone_width();
    desktop_width(session);
}

/// Makes the window 360 px wide, once the page is that narrow too.
/// A person's taps, counted (issue 32 counts the taps from a sheet to a settled result);
/// `press` is how the test file taps (scrolled into view, the page settled).
struct Taps<'s> {
    session: &'s Session,
    press: fn(&Session, &str),
    count: u32,
}

impl<'s> Taps<'s> {
    fn new(session: &'s Session, press: fn(&Session, &str)) -> Self {
        Taps { session, press, count: 0 }
    }

    fn tap(&mut self, selector: &str) {
        (self.press)(self.session, selector);
        self.count += 1;
    }
}

/// Whether `selector` is on screen now, without scrolling (its top inside the window).
fn on_screen(session: &Session, selector: &str) -> bool {
    session.execute(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect(); \
         return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;",
        json!([selector]),
    ) == json!(true)
}

fn phone_width(session: &Session) {
    session.set_window_size(360, 800);
    session.wait_until("the page to be 360 px wide or less", || (session.inner_width() <= 360.0).then_some(()));
}

/// Makes the window 1280 px wide again, once the page is desktop-wide too.
fn desktop_width(session: &Session) {
    session.set_window_size(1280, 800);
    session.wait_until("the page to be desktop-wide again", || (session.inner_width() > 720.0).then_some(()));
}

/// Nothing on the page sticks out sideways; on failure the message names what the script
/// `culprits` returns (the boxes too wide).
fn assert_nothing_sticks_out(session: &Session, name: &str, culprits: &str) {
    let overflow = session
        .execute("return document.documentElement.scrollWidth - document.documentElement.clientWidth;", json!([]));
    let wide = session.execute(culprits, json!([]));
    assert!(
        overflow.as_f64().unwrap_or(1.0) <= 0.0,
        "{name}: nothing sticks out sideways at 360 px ({overflow}): {wide}"
    );
}

/// Every shown select shows its chosen option whole: the option's text, in the select's own
/// font, fits inside the box beside its drop-down arrow (about 24 px). On failure names them.
fn assert_selects_fit(session: &Session, name: &str) {
    let cut = session.execute(
        "const pen = document.createElement('canvas').getContext('2d'); \
         return [...document.querySelectorAll('select')] \
           .filter((s) => s.getClientRects().length > 0 && s.selectedIndex >= 0 && !s.closest('[hidden]')) \
           .filter((s) => { const c = getComputedStyle(s); pen.font = c.font; \
             const room = s.clientWidth - parseFloat(c.paddingLeft) - parseFloat(c.paddingRight) - 24; \
             return pen.measureText(s.options[s.selectedIndex].text).width > room; }) \
           .map((s) => `${s.id}: ${s.options[s.selectedIndex].text}`);",
        json!([]),
    );
    assert_eq!(cut, json!([]), "{name}: a select cuts off its chosen option");
}

/// The texts of `selector` as they break at 360 px: each word cut across two lines, and each
/// element laid out on more than one line, as "word" and "text (n lines)".
fn breaks_at_phone_width(session: &Session, selector: &str) -> (Vec<String>, Vec<String>) {
    phone_width(session);
    session.wait_settled();
    let found = session.execute(
        "const cut = [], wrapped = []; \
         for (const e of document.querySelectorAll(arguments[0])) { \
           if (e.getClientRects().length === 0) continue; \
           const all = document.createRange(); all.selectNodeContents(e); \
           const tops = new Set([...all.getClientRects()].map((r) => Math.round(r.top))); \
           if (tops.size > 1) wrapped.push(`${e.textContent.trim()} (${tops.size} lines)`); \
           const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT); \
           for (let t = walk.nextNode(); t; t = walk.nextNode()) { \
             for (const m of t.data.matchAll(/\\S+/g)) { \
               const r = document.createRange(); r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length); \
               if (new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 1) cut.push(m[0]); } } } \
         return [cut, wrapped];",
        json!([selector]),
    );
    desktop_width(session);
    session.wait_settled();
    serde_json::from_value(found).unwrap_or_default()
}

/// `assert_selects_fit` at 1280 and at 360 px wide; the window is left at 1280.
fn assert_selects_fit_at_both_widths(session: &Session, name: &str) {
    assert_selects_fit(session, &format!("{name} at 1280 px"));
    phone_width(session);
    session.wait_settled();
    assert_selects_fit(session, &format!("{name} at 360 px"));
    desktop_width(session);
    session.wait_settled();
}

/// Types `name` into the new-game form, picks `system` and presses the button.
fn create_game(session: &Session, name: &str, system: &str) -> String {
    // As a person scrolls up to the form (WebDriver's own scrolling to a field wholly above
    // the window may leave it "not interactable" in WebKitGTK).
    session.execute("document.getElementById('new-game-name').scrollIntoView({ block: 'center' });", json!([]));
    session.click("#new-game-name");
    session.wait_for("#new-game-name").send_keys(name);
    session.click(&format!("#new-game-system option[value='{system}']"));
    session.click("#new-game-submit");
    // Read in the same look as the row is found: the list may be drawn again in between (it
    // was once under load), and a row that is gone has no attributes.
    session.wait_until(&format!("the game {name:?} in the list, with its id"), || {
        find_game_row(session, name)?.attribute("data-game-id")
    })
}

fn find_game_row<'s>(session: &'s Session, name: &str) -> Option<Element<'s>> {
    find_named(session, ".game-row", ".game-name", name)
}

/// The first of the elements `item` whose `name_part` reads `name`.
fn find_named<'s>(session: &'s Session, item: &str, name_part: &str, name: &str) -> Option<Element<'s>> {
    session.find_all(item).into_iter().find(|row| row.find(name_part).map(|n| n.text() == name).unwrap_or(false))
}

/// Waits for the character card named `name` on home, shown.
fn wait_card<'s>(session: &'s Session, name: &str) -> Element<'s> {
    session.wait_until(&format!("the card of {name:?}"), || {
        find_named(session, ".character-card-item", ".card-name", name).filter(|c| c.is_displayed())
    })
}

/// Waits for the game row whose name reads `name`.
fn wait_game_row<'s>(session: &'s Session, name: &str) -> Element<'s> {
    session.wait_until(&format!("the game {name:?} in the list"), || find_game_row(session, name))
}

/// Clicks the game named `name` in the list and waits for its characters.
fn open_game(session: &Session, name: &str) {
    // The list may redraw between finding the row and tapping its button (a linked game's
    // news): look again rather than tap a row that is gone.
    session.wait_until(&format!("to open the game {name:?}"), || {
        wait_game_row(session, name).find(".game-open").ok()?.try_click().ok()
    });
    session.wait_text("#game-heading", name);
}

/// Makes the game `name` of `system` on home and opens it, as a person starts a new table;
/// returns the game's id.
fn new_game(session: &Session, name: &str, system: &str) -> String {
    let game = create_game(session, name, system);
    open_game(session, name);
    game
}

/// Types a character name into the selected game's form and submits it with Enter. The new
/// character's sheet opens at once (its system's creation flow); this goes back home, as a
/// person would, and returns the character's id.
fn create_character(session: &Session, name: &str) -> String {
    let input = session.wait_for("#new-character-name");
    input.click();
    input.send_keys(name);
    input.send_keys(ENTER);
    leave_new_sheet(session);
    // As in `create_game`: the id is read from the row as found.
    session.wait_until(&format!("the character {name:?} in the list, with its id"), || {
        find_character_row(session, name).filter(|row| row.is_displayed())?.attribute("data-character-id")
    })
}

/// Waits for the screen a new character opens (its sheet), then goes back home.
fn leave_new_sheet(session: &Session) {
    session.wait_for("body.sheet-open, body.frame-open, body.nsu-open");
    back_home(session);
}

/// Goes back home from whichever screen is open, with its back button.
fn back_home(session: &Session) {
    session.wait_settled();
    for back in ["#sheet-back", ".frame-screen:not([hidden]) .frame-back", "#nsu-back"] {
        if let Some(button) = session.find_all(back).into_iter().find(|b| b.is_displayed()) {
            button.click();
            break;
        }
    }
    session.wait_for("#home-layout");
    session.wait_settled();
}

fn find_character_row<'s>(session: &'s Session, name: &str) -> Option<Element<'s>> {
    find_named(session, ".character-row", ".character-name", name)
}

fn wait_character_row<'s>(session: &'s Session, name: &str) -> Element<'s> {
    session.wait_until(&format!("the character {name:?} in the list"), || {
        find_character_row(session, name).filter(|row| row.is_displayed())
    })
}

/// Closes the toast when it shows, as a person would before reaching what it covers.
fn dismiss_toast(session: &Session) {
    let Some(close) = session.find("#toast-close").ok().filter(|close| close.is_displayed()) else { return };
    // The toast also goes by itself after a while: when it went between the look and the
    // click, there is nothing left to close.
    if close.try_click().is_err() && session.find("#toast-close").is_ok_and(|close| close.is_displayed()) {
        session.click("#toast-close");
    }
    session.wait_gone("#toast");
}

/// Closes the toast when it shows and no dialog is open over it (then it cannot be reached).
fn dismiss_toast_unless_dialog(session: &Session) {
    if session.execute("return document.querySelector('dialog[open]') !== null;", json!([])) == json!(true) {
        return;
    }
    dismiss_toast(session);
}

/// Types `name` into the open rename dialog (emptied first) and presses Enter.
fn rename_with_enter(session: &Session, name: &str) {
    let input = session.wait_for("#rename-input");
    input.clear();
    input.send_keys(name);
    input.send_keys(ENTER);
}

fn click_in_row(row: &Element<'_>, selector: &str) {
    row.find(selector).unwrap_or_else(|e| panic!("no `{selector}` in the row: {e}")).click();
}

/// Clicks `selector` in `name`'s row of the character list. Home may draw the list again (after
/// an import or a refresh) between finding the row and clicking in it: a row or button gone
/// stale is looked for again, never clicked in a list that is no longer on the page.
fn click_in_character_row(session: &Session, name: &str, selector: &str) {
    session.wait_until(&format!("`{selector}` clicked in {name:?}'s row"), || {
        let row = find_character_row(session, name).filter(|row| row.is_displayed())?;
        row.find(selector).ok()?.try_click().ok()
    });
}

// ---- the native file dialogs, through xdotool ----------------------------------------------

/// Runs xdotool; a missing xdotool fails the test with how to get it.
fn xdotool(args: &[&str]) -> String {
    let output = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", displays::current())
        .output()
        .unwrap_or_else(|e| panic!("could not run xdotool ({e}); install Debian's `xdotool`"));
    assert!(output.status.success(), "xdotool {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The ids of the visible windows whose title matches `title` (a regular expression).
fn visible_windows(title: &str) -> Vec<String> {
    let output = Command::new("xdotool")
        .env("DISPLAY", displays::current())
        .args(["search", "--onlyvisible", "--name", title])
        .output()
        .unwrap_or_else(|e| panic!("could not run xdotool ({e}); install Debian's `xdotool`"));
    String::from_utf8_lossy(&output.stdout).lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect()
}

/// Waits for a visible window whose title matches `title`.
fn wait_window(title: &str) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(id) = visible_windows(title).pop() {
            return id;
        }
        assert!(Instant::now() < deadline, "no window titled like {title:?} appeared within {WAIT:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// True once `window` is no longer shown (polls for a few seconds).
fn window_closes(title: &str, window: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if !visible_windows(title).iter().any(|w| w == window) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// In the GTK file chooser titled like `title`, types the full `path` and presses Enter, as
/// a person would: in a save dialog into the name field (its text selected first), in an
/// open dialog into the location field that Ctrl+L opens.
///
/// GTK fills the chooser in after it appears and drops keys typed before it is ready, so
/// this waits a moment before typing and types again when the dialog is still open after
/// Enter. Nothing is asserted about how long that takes.
fn choose_file_in_native_dialog(title: &str, path: &Path, saving: bool) {
    let window = wait_window(title);
    let text = path.to_str().expect("test paths are UTF-8");
    for _attempt in 0..3 {
        xdotool(&["windowfocus", "--sync", &window]);
        std::thread::sleep(Duration::from_millis(1000));
        if !saving {
            xdotool(&["key", "--clearmodifiers", "ctrl+l"]);
            std::thread::sleep(Duration::from_millis(300));
        }
        xdotool(&["key", "--clearmodifiers", "ctrl+a"]);
        xdotool(&["type", "--clearmodifiers", "--delay", "20", text]);
        std::thread::sleep(Duration::from_millis(500));
        xdotool(&["key", "--clearmodifiers", "Return"]);
        if window_closes(title, &window) {
            return;
        }
    }
    panic!("the {title:?} file dialog was still open after typing {text:?} three times");
}

/// Presses Escape in the GTK file chooser titled like `title`, which closes it with no file.
fn cancel_native_dialog(title: &str) {
    let window = wait_window(title);
    for _attempt in 0..3 {
        xdotool(&["windowfocus", "--sync", &window]);
        std::thread::sleep(Duration::from_millis(1000));
        xdotool(&["key", "--clearmodifiers", "Escape"]);
        if window_closes(title, &window) {
            return;
        }
    }
    panic!("the {title:?} file dialog was still open after pressing Escape three times");
}

/// GTK's titles for the two choosers (English locale).
const SAVE_TITLE: &str = "^Save";
const OPEN_TITLE: &str = "^Open";

// ---- the tests ------------------------------------------------------------------------------

/// Games and characters made by clicking and typing are still there after a restart, and
/// are real rows in the database.
#[test]
fn created_game_and_character_survive_a_restart() {
    let (_window, _scratch, db) = begin("restart");

    let (game_id, character_id) = {
        let session = open(&db);
        let game_id = new_game(&session, "Thursday Mystery", "nsu");
        let character_id = create_character(&session, "Ada Quill");
        shots_at_both_widths(&session, "home-with-game");
        (game_id, character_id)
    };

    let session = open(&db);
    open_game(&session, "Thursday Mystery");
    let row = wait_character_row(&session, "Ada Quill");
    assert_eq!(row.attribute("data-character-id").as_deref(), Some(character_id.as_str()));
    let game_row = wait_game_row(&session, "Thursday Mystery");
    assert_eq!(game_row.attribute("data-game-id").as_deref(), Some(game_id.as_str()));
    assert_eq!(
        game_row.find(".game-system").map(|e| e.text()).unwrap_or_default(),
        session.find("#new-game-system option[value='nsu']").map(|e| e.text()).unwrap_or_default(),
        "the row shows the system's label"
    );
    drop(session);

    let conn = rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open the test database");
    let games: Vec<(String, String, String)> = conn
        .prepare("SELECT id, name, system FROM games")
        .and_then(|mut st| st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<Result<_, _>>())
        .expect("read games");
    assert_eq!(games, vec![(game_id.clone(), "Thursday Mystery".into(), "nsu".into())]);
    let characters: Vec<(String, String, String, String)> = conn
        .prepare("SELECT id, game_id, system, name FROM characters")
        .and_then(|mut st| {
            st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?.collect::<Result<_, _>>()
        })
        .expect("read characters");
    assert_eq!(characters, vec![(character_id, game_id, "nsu".into(), "Ada Quill".into())]);
}

/// A character exported through the save dialog (opened by the app: a cancelled one says
/// nothing) imports into another database through the open dialog and the import preview;
/// imported back where it came from it is unchanged, and "as copies" previews it again as new.
#[test]
fn exported_character_imports_into_a_fresh_database() {
    let _window = one_window();
    let scratch = Scratch::new("exchange");
    let file = scratch.path("Wren Export.sheetkeeper.json");

    let character_id = {
        let session = open(&scratch.path("first.db"));
        new_game(&session, "Harbour Job", "penny_ante");
        let id = create_character(&session, "Wren");

        click_in_character_row(&session, "Wren", ".character-export");
        session.wait_for(".character-export[aria-busy='true']");
        let status = session.wait_for("#work-status").text();
        assert!(status.contains("Choose where to save “Wren”"), "the status says what the app waits for: {status:?}");
        shot(&session, "export-choosing-1280");
        cancel_native_dialog(SAVE_TITLE);
        session.wait_gone("#work-status");
        session.wait_gone(".character-export[aria-busy='true']");
        assert!(!session.find("#error").map(|e| e.is_displayed()).unwrap_or(false), "a cancel is no error");
        let toast = session.find("#toast").map(|e| if e.is_displayed() { e.text() } else { String::new() });
        assert!(!toast.unwrap_or_default().contains("Export"), "a cancel says nothing");
        assert!(!file.exists());

        // On a phone-wide window this time (with the dialog open, the window is not resized).
        phone_width(&session);
        dismiss_toast(&session);
        click_in_character_row(&session, "Wren", ".character-export");
        session.wait_for(".character-export[aria-busy='true']");
        shot(&session, "export-choosing-360");
        choose_file_in_native_dialog(SAVE_TITLE, &file, true);
        session.wait_until("the export file", || file.is_file().then_some(()));
        session.wait_text("#toast-message", "Exported “Wren” to “Wren Export.sheetkeeper.json”.");
        session.wait_gone("#work-status");
        shot(&session, "export-done-360");
        desktop_width(&session);

        session.click("#import-button");
        choose_file_in_native_dialog(OPEN_TITLE, &file, false);
        session.wait_for("#import-dialog");
        session.wait_text("#import-file", "Wren Export.sheetkeeper.json");
        let statuses = |session: &Session| -> Vec<String> {
            session.find_all(".import-item").iter().filter_map(|i| i.attribute("data-status")).collect()
        };
        assert!(
            statuses(&session).iter().all(|s| s == "unchanged"),
            "back where it came from, nothing is new: {:?}",
            statuses(&session)
        );
        // Nothing would change: no Import, a note saying so, and Close.
        session.wait_for("#import-nothing");
        assert!(!session.find("#import-confirm").is_ok_and(|b| b.is_displayed()), "no Import with nothing to import");
        session.wait_text("#import-cancel", "Close");
        // The dialog's X-card sits in the title's row, not as a full-width row above it.
        let rows = session.execute(
            "const x = document.querySelector('#import-dialog > .xcard-in-dialog').getBoundingClientRect(); \
             const t = document.getElementById('import-title').getBoundingClientRect(); \
             return [x.top < t.bottom && t.top < x.bottom, x.width < t.width];",
            json!([]),
        );
        assert_eq!(rows, json!([true, true]), "the X-card shares the title's row and is not full-width");
        shots_at_both_widths(&session, "import-preview-unchanged");
        session.click("#import-as-copy");
        session.wait_until("the preview as copies", || statuses(&session).contains(&"new".to_string()).then_some(()));
        session.wait_for("#import-confirm");
        session.wait_text("#import-cancel", "Cancel");
        shots_at_both_widths(&session, "import-preview-as-copies");
        session.click("#import-cancel");
        session.wait_gone("#import-dialog");
        session.wait_gone("#work-status");
        assert_eq!(session.find_all(".game-row").len(), 1, "a cancelled import adds nothing");
        id
    };
    let text = std::fs::read_to_string(&file).expect("read the exported file");
    let json: serde_json::Value = serde_json::from_str(&text).expect("the export is JSON");
    assert_eq!(json["format"], "sheetkeeper");
    assert_eq!(json["kind"], "character");

    let session = open(&scratch.path("second.db"));
    session.click("#import-button");
    choose_file_in_native_dialog(OPEN_TITLE, &file, false);
    let dialog = session.wait_for("#import-dialog");
    let preview = dialog.text();
    assert!(preview.contains("Wren"), "the preview names the character: {preview:?}");
    assert!(preview.contains("new"), "the character is new here: {preview:?}");
    shots_at_both_widths(&session, "import-preview");
    session.click("#import-confirm");
    session.wait_gone("#import-dialog");
    session.wait_for("#toast");

    // The character lands in some game; look through them like a person would.
    let names: Vec<String> = session.find_all(".game-row .game-name").iter().map(|e| e.text()).collect();
    assert!(!names.is_empty(), "the import created a game to hold the character");
    let found = names.iter().any(|name| {
        open_game(&session, name);
        find_character_row(&session, "Wren")
            .and_then(|row| row.attribute("data-character-id"))
            .is_some_and(|id| id == character_id)
    });
    assert!(found, "Wren (same id) is in one of the games {names:?}");
    shot(&session, "after-import-1280");
}

/// A broken file is refused with a readable message in the error area, and nothing changes.
#[test]
fn malformed_import_shows_the_error() {
    let (_window, scratch, db_path) = begin("malformed");
    let file = scratch.path("broken.sheetkeeper.json");
    std::fs::write(&file, r#"{"format": "sheetkeeper", "format_version": 1, "kind": "character", "data": {"name": 7"#)
        .expect("write the broken file");

    let session = open(&db_path);
    session.click("#import-button");
    choose_file_in_native_dialog(OPEN_TITLE, &file, false);
    let error = session.wait_for("#error");
    assert_eq!(error.attribute("role").as_deref(), Some("alert"));
    let message = session.wait_for("#error-message").text();
    assert!(
        message.starts_with("The file was not imported.") && message.lines().count() >= 2,
        "the error says what failed and why: {message:?}"
    );
    assert!(!session.find("#import-dialog").map(|d| d.is_displayed()).unwrap_or(false), "no preview for a broken file");
    assert!(session.find_all(".game-row").is_empty(), "nothing was imported");
    shots_at_both_widths(&session, "import-error");
    session.click("#error-dismiss");
    session.wait_gone("#error");
}

/// Regression guard for markup in names: it is shown as text, never parsed as HTML.
#[test]
fn markup_in_a_name_is_shown_as_text() {
    let (_window, _scratch, _db_path, session) = begin_with("markup", open);
    let name = "<img src=x onerror=alert(1)>";

    new_game(&session, "<b>Bold</b> & friends", "mezzo");
    create_character(&session, name);
    let row = wait_character_row(&session, name);
    assert_eq!(row.find(".character-name").map(|e| e.text()).unwrap_or_default(), name);
    let images = session.execute(
        "return document.querySelectorAll('#character-list img, #game-list img, #game-list b').length;",
        json!([]),
    );
    assert_eq!(images, json!(0), "no element was made from the names");
    // An alert would make WebDriver refuse further commands; this one must still work.
    assert_eq!(session.execute("return document.title;", json!([])), json!("Sheetkeeper"));
    shot(&session, "markup-name-1280");
}

/// Deleting asks first (Escape keeps the character), and the toast's Undo brings it back
/// with the same id; a rename made in the dialog with Enter can be undone the same way.
#[test]
fn deleted_character_comes_back_with_undo() {
    let (_window, _scratch, _db_path, session) = begin_with("undo", open);

    new_game(&session, "Night Shift", "scattershot");
    let id = create_character(&session, "Brin");
    create_character(&session, "Cass");

    click_in_character_row(&session, "Brin", ".character-delete");
    session.wait_for("#confirm-dialog");
    session.wait_for("#confirm-no").send_keys(ESCAPE);
    session.wait_gone("#confirm-dialog");
    wait_character_row(&session, "Brin");

    click_in_character_row(&session, "Brin", ".character-delete");
    session.wait_for("#confirm-dialog");
    session.click("#confirm-yes");
    session.wait_until("Brin to leave the list", || find_character_row(&session, "Brin").is_none().then_some(()));
    assert!(find_character_row(&session, "Cass").is_some(), "only Brin was deleted");
    session.wait_for("#toast-undo");
    shot(&session, "toast-after-delete-1280");
    session.click("#toast-undo");
    let row = wait_character_row(&session, "Brin");
    assert_eq!(row.attribute("data-character-id").as_deref(), Some(id.as_str()));
    shots_at_both_widths(&session, "after-undo");

    click_in_character_row(&session, "Cass", ".character-rename");
    rename_with_enter(&session, "Cassia");
    session.wait_gone("#rename-dialog");
    wait_character_row(&session, "Cassia");
    session.click("#toast-undo");
    wait_character_row(&session, "Cass");
}

/// A character can be copied only to games of its own system, and the copy is a new
/// character there; a game's rename and delete can both be undone from the toast.
#[test]
fn copy_to_same_system_game_and_undo_game_changes() {
    let (_window, _scratch, _db_path, session) = begin_with("copy", open);

    create_game(&session, "Other Table", "mezzo");
    create_game(&session, "Second Table", "nsu");
    new_game(&session, "First Table", "nsu");
    let original = create_character(&session, "Ines");

    let row = wait_character_row(&session, "Ines");
    let targets: Vec<String> = row
        .find(".character-target")
        .expect("a copy/move target select when another NSU game exists")
        .text()
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(targets, vec!["Second Table".to_string()], "only same-system games");
    click_in_row(&row, ".character-copy");
    session.wait_until("the copy to be counted on Second Table", || {
        let text = wait_game_row(&session, "Second Table").text();
        text.contains("1 character").then_some(())
    });
    open_game(&session, "Second Table");
    let copy = wait_character_row(&session, "Ines")
        .attribute("data-character-id")
        .expect("character rows carry data-character-id");
    assert_ne!(copy, original, "a copy gets its own id");

    session.click("#game-rename");
    let input = session.wait_for("#rename-input");
    input.clear();
    input.send_keys("Renamed Table");
    session.click("#rename-submit");
    wait_game_row(&session, "Renamed Table");
    session.click("#toast-undo");
    wait_game_row(&session, "Second Table");

    session.click("#game-delete");
    session.click("#confirm-yes");
    session.wait_until("Second Table to leave the list", || {
        let names: Vec<String> = session.find_all(".game-row .game-name").iter().map(|e| e.text()).collect();
        (!names.iter().any(|n| n == "Second Table")).then_some(())
    });
    session.click("#toast-undo");
    open_game(&session, "Second Table");
    wait_character_row(&session, "Ines");
}
