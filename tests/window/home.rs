//! The home screen and the one navigation model, driven like a newcomer would: "My
//! characters" first, a new character straight into its sheet, one tap from a card to the
//! sheet in every system, the device's role in a game, the theme, reopening where the app
//! was left, and the X-card over an open dialog. Screenshots at 360 and 1280 px; the layout
//! check runs with each.

use serde_json::json;

use crate::webdriver::Session;
use crate::{
    back_home, begin, begin_with, create_game, new_game, one_window, open, open_game, rename_with_enter, shot,
    shots_at_both_widths, shots_at_both_widths_with, wait_game_row, Scratch, ENTER,
};

/// Sets the window to `width` (800 high) and waits until the page has it.
fn width(session: &Session, width: u32) {
    session.set_window_size(width, 800);
    session.wait_until(&format!("the page to be {width} px wide"), || {
        let inner = session.inner_width();
        (if width <= 360 { inner <= 360.0 } else { inner > 720.0 }).then_some(())
    });
    session.wait_settled();
}

/// Types a new character's name into the open game's form and presses Enter.
fn new_character(session: &Session, name: &str) {
    let input = session.wait_for("#new-character-name");
    input.click();
    input.send_keys(name);
    input.send_keys(ENTER);
}

/// The character card named `name` on home.
fn card<'s>(session: &'s Session, name: &str) -> crate::webdriver::Element<'s> {
    crate::wait_card(session, name)
}

/// A screen of some system is open (a sheet or a game's screen).
fn some_screen_open(session: &Session) -> bool {
    session
        .execute(
            "return document.body.classList.contains('sheet-open') || document.body.classList.contains('frame-open') \
               || document.body.classList.contains('nsu-open');",
            json!([]),
        )
        .as_bool()
        .unwrap_or(false)
}

/// The visible, enabled controls of the page (not of the toast) that the shown toast covers.
pub(crate) fn under_toast(session: &Session) -> Vec<String> {
    let found = session.execute(
        "const box = document.getElementById('toast'); \
         if (box.hidden) return []; \
         const t = box.getBoundingClientRect(); \
         return [...document.querySelectorAll('button, input, select, textarea')] \
           .filter((e) => !box.contains(e) && !e.disabled && e.getClientRects().length > 0) \
           .filter((e) => { const r = e.getBoundingClientRect(); \
             return r.width > 0 && r.bottom > t.top + 1 && r.top < t.bottom && r.right > t.left && r.left < t.right; }) \
           .map((e) => e.id || e.textContent.trim());",
        json!([]),
    );
    serde_json::from_value(found).unwrap_or_default()
}

/// A newcomer at 360 px: the empty home says what to do; a game and a character later the
/// character's sheet is open (no extra tap), and from home it is one tap away. Every other
/// system's card opens a screen for its character too.
#[test]
fn newcomer_reaches_the_sheet_from_home() {
    let (_window, _scratch, _db_path, session) = begin_with("home-newcomer", open);
    session.wait_settled();
    let empty = session.wait_for("#mine-empty").text();
    assert!(empty.contains("Start with a game"), "the empty home says what to do: {empty:?}");
    assert!(!session.find("#game-none").map(|e| e.is_displayed()).unwrap_or(false), "no “pick a game” with no games");
    let onboarding = session.wait_for("#games-empty").text();
    assert!(onboarding.contains("A game is one table’s campaign"), "game versus character: {onboarding:?}");
    assert!(!session.wait_for("#system-blurb").text().is_empty(), "one line about the chosen system");
    shots_at_both_widths(&session, "home-empty");

    width(&session, 360);
    new_game(&session, "Lantern Street", "nsu");
    new_character(&session, "Wren Ashdown");
    // Straight into the sheet: its creation flow says what is still needed.
    wait_nsu_sheet(&session, "Wren Ashdown");
    session.wait_for("#toast");
    session.wait_for("#sheet-creation");
    assert_eq!(under_toast(&session), Vec::<String>::new(), "the toast covers none of the new sheet's controls");
    shot(&session, "home-new-character-sheet-360");
    back_home(&session);
    // The sheet's toast does not follow the player out of the screen.
    assert!(!session.find("#toast").is_ok_and(|t| t.is_displayed()), "leaving the screen clears its toast");
    shot(&session, "home-my-characters-360");
    // UX review D13: a returning player finds their games before the form that makes a new one.
    let order = session.execute(
        "const row = document.querySelector('#game-list .game-row'); \
         const form = document.getElementById('new-game-form'); \
         return row.getBoundingClientRect().bottom <= form.getBoundingClientRect().top;",
        json!([]),
    );
    assert_eq!(order, json!(true), "the games list comes above the new game form");
    // Scrolled anywhere, home's X-card covers none of home's texts and controls at 360 px.
    let covered = session.execute(
        "const seen = new Set(); \
         for (let y = 0; y <= document.documentElement.scrollHeight; y += 20) { \
           window.scrollTo(0, y); \
           const x = document.getElementById('xcard').getBoundingClientRect(); \
           for (const e of document.querySelectorAll('#home-layout :is(button, input, select, h2, h3, p, li)')) { \
             if (e.getClientRects().length === 0) continue; \
             const r = e.getBoundingClientRect(); \
             if (r.bottom > x.top + 2 && r.top < x.bottom - 2 && r.right > x.left + 2 && r.left < x.right - 2) \
               seen.add(e.id || e.textContent.trim().slice(0, 40)); } } \
         window.scrollTo(0, 0); \
         return [...seen];",
        json!([]),
    );
    assert_eq!(covered, json!([]), "the X-card covers home's content");

    // One tap from home to the sheet.
    card(&session, "Wren Ashdown").find(".character-card").expect("a card is a button").click();
    wait_nsu_sheet(&session, "Wren Ashdown");
    back_home(&session);

    // The other systems: the card opens their screen for the character.
    width(&session, 1280);
    for (game, system, name) in
        [("Harbour Job", "penny_ante", "Pip"), ("Weather Night", "mezzo", "Mira"), ("Night Shift", "scattershot", "Bo")]
    {
        new_game(&session, game, system);
        new_character(&session, name);
        session.wait_until(&format!("a screen for the new {system} character"), || {
            some_screen_open(&session).then_some(())
        });
        back_home(&session);
        card(&session, name).find(".character-card").expect("a card is a button").click();
        session.wait_until(&format!("{name}'s screen from its card"), || some_screen_open(&session).then_some(()));
        session.wait_settled();
        shot(&session, &format!("home-card-opens-{system}-1280"));
        back_home(&session);
    }
    let names: Vec<String> = session.find_all(".card-name").iter().map(|n| n.text()).collect();
    for name in ["Wren Ashdown", "Pip", "Mira", "Bo"] {
        assert!(names.iter().any(|n| n == name), "{name} has a card on home: {names:?}");
    }
    shots_at_both_widths(&session, "home-four-systems");
}

/// The game panel says what this device is for in the game and changes it; the role is
/// kept by the app (another start shows it) and named in the games list.
#[test]
fn device_role_switches_per_game() {
    let (_window, _scratch, db) = begin("home-role");
    {
        let session = open(&db);
        new_game(&session, "Harbour Job", "penny_ante");
        let both = session.wait_for("#role-both");
        assert!(
            both.attribute("checked").is_some() || both_checked(&session, "both"),
            "a new game is one device for all"
        );
        for role in ["player", "table", "both"] {
            let text = session.wait_for(&format!("label[for='role-{role}']")).text();
            assert!(text.len() > 40, "each role says what it means: {text:?}");
        }
        session.click("label[for='role-player']");
        session.wait_until("the role to be saved", || both_checked(&session, "player").then_some(()));
        session.wait_for("#toast");
        session.wait_until("the games list to name the role", || {
            session.find(".game-row .game-role").ok().filter(|e| e.text() == "Player device").map(|_| ())
        });
        shots_at_both_widths(&session, "home-role-player");
    }
    let session = open(&db);
    open_game(&session, "Harbour Job");
    session.wait_until("the role after a restart", || both_checked(&session, "player").then_some(()));
    session.click("label[for='role-table']");
    session.wait_until("the table role", || both_checked(&session, "table").then_some(()));
}

fn both_checked(session: &Session, role: &str) -> bool {
    session
        .execute("return document.getElementById('role-' + arguments[0]).checked;", json!([role]))
        .as_bool()
        .unwrap_or(false)
}

/// The Theme setting beats the device's preference, on home and on a system's screen, and
/// is kept for the next start.
#[test]
fn theme_switch_dark_and_light() {
    let (_window, _scratch, db) = begin("home-theme");
    let background = |session: &Session| {
        session
            .execute("return getComputedStyle(document.body).backgroundColor;", json!([]))
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    // Home in the theme picked: its background, photographed at both widths.
    let pick_theme = |session: &Session, theme: &str, rgb: &str| {
        session.click(&format!("#theme-select option[value='{theme}']"));
        session.wait_for(&format!("html[data-theme='{theme}']"));
        session.wait_settled();
        assert_eq!(background(session), rgb, "{theme} background");
        shots_at_both_widths(session, &format!("home-theme-{theme}"));
    };
    {
        let session = open(&db);
        new_game(&session, "Weather Night", "mezzo");
        pick_theme(&session, "dark", "rgb(22, 22, 20)");
        session.click("#game-mezzo");
        session.wait_for("#mezzo-screen");
        session.wait_settled();
        assert_eq!(background(&session), "rgb(22, 22, 20)", "a system's screen is dark too");
        frame_shot(&session, "mezzo-theme-dark-1280");
        back_home(&session);
    }
    let session = open(&db);
    session.wait_for("html[data-theme='dark']");
    assert_eq!(
        session.execute("return document.getElementById('theme-select').value;", json!([])),
        json!("dark"),
        "the theme is kept"
    );
    pick_theme(&session, "light", "rgb(246, 245, 242)");
    session.click("#theme-select option[value='system']");
    session.wait_until("no forced theme", || {
        (session.execute("return document.documentElement.dataset.theme ?? null;", json!([])) == json!(null))
            .then_some(())
    });
}

/// The app reopens where it was left: a character's sheet, then a game's screen on its tab;
/// a place that no longer exists opens home, with no error.
#[test]
fn reopens_where_it_was_left() {
    let (_window, _scratch, db) = begin("home-reopen");
    {
        let session = open(&db);
        new_game(&session, "Lantern Street", "nsu");
        new_character(&session, "Wren Ashdown");
        wait_nsu_sheet(&session, "Wren Ashdown");
        session.wait_settled();
    }
    {
        let session = open(&db);
        wait_nsu_sheet(&session, "Wren Ashdown");
        shot(&session, "reopen-sheet-1280");
        back_home(&session);
        new_game(&session, "Harbour Job", "penny_ante");
        session.click("#game-penny");
        session.click("#penny-tab-ledger");
        session.wait_until("the ledger tab", || {
            session.find("#penny-tab-ledger").ok()?.attribute("aria-current").filter(|c| c == "page").map(|_| ())
        });
        session.wait_settled();
    }
    {
        let session = open(&db);
        session.wait_for("#penny-screen");
        session.wait_until("the ledger tab again", || {
            session.find("#penny-tab-ledger").ok()?.attribute("aria-current").filter(|c| c == "page").map(|_| ())
        });
        shots_at_both_widths(&session, "reopen-penny-ledger");
        // A place that is gone: home, quietly.
        session.execute_async(
            "const done = arguments[arguments.length - 1];
             const place = JSON.stringify({ screen: 'sheet', game: 'gone', character: 'gone' });
             window.__TAURI__.core.invoke('set_device_setting', { key: 'place', value: place })
               .then(() => done(true), (e) => done(String(e)));",
            json!([]),
        );
    }
    let session = open(&db);
    session.wait_for("#mine-panel");
    assert!(!some_screen_open(&session), "home, not a screen");
    assert!(!session.find("#error").map(|e| e.is_displayed()).unwrap_or(false), "no error for a place that is gone");
}

/// The first screen's data comes with the window: the app builds it with home's data, so the
/// page does not wait for an answer while it loads. A reload reads home again, so it shows
/// what changed since the window opened.
#[test]
fn home_comes_with_the_window_and_a_reload_reads_it_again() {
    let (_window, _scratch, db) = begin("home-reload");
    {
        let session = open(&db);
        create_game(&session, "Lantern Street", "nsu");
        session.wait_settled();
    }
    let session = open(&db);
    let given = session.execute("return window.sheetkeeperHomeJson ?? null;", json!([]));
    let given: serde_json::Value =
        serde_json::from_str(given.as_str().expect("the window carries home's data, as JSON text")).unwrap();
    assert_eq!(given["games"][0]["name"], "Lantern Street", "the window's data: {given}");
    wait_game_row(&session, "Lantern Street");

    // The window's copy is old once something changes: a reload asks again.
    create_game(&session, "Harbour Job", "penny_ante");
    session.wait_settled();
    session.reload();
    session.wait_for("body[data-ready='true']");
    wait_game_row(&session, "Harbour Job");
    wait_game_row(&session, "Lantern Street");
}

/// A database that cannot be opened (here, in a folder that does not exist): the window
/// is built without home's data, the page asks for it and says what went wrong.
#[test]
fn a_database_that_cannot_be_opened_is_named_on_home() {
    let _window = one_window();
    let scratch = Scratch::new("home-no-database");
    let folder = scratch.path("missing-folder");
    let session = Session::start(&crate::app(), &folder.join("sheetkeeper.db"));
    session.wait_for("body[data-ready='true']");
    let given = session.execute("return window.sheetkeeperHomeJson ?? null;", json!([]));
    assert!(given.is_null(), "no data to carry (the folder exists: {}): {given}", folder.exists());
    let error = session.wait_for("#error-message").text();
    assert!(error.contains("could not load your games") && error.contains("does not exist"), "{error:?}");
    drop(session);
    // Nothing the session ran made the folder (once the drivers' cache folder did, and the app
    // opened a new, empty database in it).
    assert!(!folder.exists(), "{} was made", folder.display());
}

/// The X-card is reachable with a modal dialog open (the NSU roll wizard): its notice comes
/// above the dialog, and closing it leaves the dialog as it was.
#[test]
fn xcard_opens_over_an_open_dialog() {
    let (_window, _scratch, _db_path, session) = begin_with("home-xcard", open);
    new_game(&session, "Lantern Street", "nsu");
    new_character(&session, "Wren Ashdown");
    wait_nsu_sheet(&session, "Wren Ashdown");
    session.wait_settled();
    // The floating X-card over a screen.
    assert!(session.wait_for("#xcard").is_displayed());
    // A modal dialog on the sheet: "I helped with…" (Roll waits for a finished creation).
    session.click("#sheet-helped");
    session.wait_for("#helped-dialog[open]");
    session.wait_settled();
    shots_at_both_widths(&session, "xcard-dialog-open");
    session.click("#helped-dialog .xcard-in-dialog");
    session.wait_for("#xcard-overlay[open]");
    session.wait_for("#xcard-close");
    shot(&session, "xcard-over-dialog-1280");
    session.click("#xcard-close");
    session.wait_gone("#xcard-overlay");
    assert!(
        session.find("#helped-dialog").map(|d| d.attribute("open").is_some()).unwrap_or(false),
        "the dialog is still open"
    );
}

/// The layout check passes on home with games and characters, at both widths, with a toast
/// shown, and with the phone menu open.
#[test]
fn home_layout_is_clean_at_both_widths() {
    let (_window, _scratch, _db_path, session) = begin_with("home-layout", open);
    create_game(&session, "Harbour Job", "penny_ante");
    new_game(&session, "Lantern Street", "nsu");
    crate::create_character(&session, "Wren Ashdown");
    crate::create_character(&session, "Ada Quill");
    session.wait_settled();
    shots_at_both_widths(&session, "home-layout");
    // A toast over home (rename, with Undo).
    session.find_all(".character-rename")[0].click();
    rename_with_enter(&session, "Ada Quillon");
    session.wait_for("#toast-undo");
    // The pointer on its Undo holds the toast (as a person reaching for it) through the shots;
    // it is moved there again after each change of width, which moves the toast.
    let reach = || session.hover("#toast-undo");
    shots_at_both_widths_with(&session, "home-toast", reach, || {});
    crate::in_dark(&session, || shots_at_both_widths_with(&session, "home-toast-dark", reach, || {}));
    width(&session, 360);
    // The header is at the top of the page, as a person scrolls up to reach it.
    session.execute("window.scrollTo(0, 0);", json!([]));
    session.click("#menu-button");
    session.wait_for("#import-button");
    shot(&session, "home-menu-open-360");
    session.click("#menu-button");

    // A system's screen in the shared frame: the bar on top, the tabs at the bottom (four
    // and "More" for Mezzo's eight), the toast above them.
    new_game(&session, "Weather Night", "mezzo");
    session.click("#game-mezzo");
    session.wait_for("#mezzo-screen");
    session.wait_settled();
    frame_shot(&session, "frame-mezzo-360");
    let bar = session.execute(
        "const r = document.querySelector('#mezzo-screen .frame-tabs').getBoundingClientRect(); return [r.bottom, innerHeight];",
        json!([]),
    );
    assert_eq!(bar[0], bar[1], "the tab bar sits at the bottom on a phone: {bar}");
    session.click("#mezzo-tab-more");
    session.wait_for("#mezzo-tab-log");
    frame_shot(&session, "frame-mezzo-more-360");
    session.click("#mezzo-tab-log");
    session.wait_settled();
    frame_shot(&session, "frame-mezzo-log-360");
    width(&session, 1280);
    frame_shot(&session, "frame-mezzo-log-1280");
}

/// A screenshot of a system's screen: the frame's own parts (bar, tabs, X-card, toast) must
/// pass the layout check; the screen's content is its system's to make pass.
fn frame_shot(session: &Session, name: &str) {
    let problems: Vec<String> = session
        .layout_problems()
        .into_iter()
        .filter(|p| ["frame-", "-tab-", "xcard", "toast", "-back", "-screen-heading"].iter().any(|k| p.contains(k)))
        .collect();
    assert_eq!(problems, Vec::<String>::new(), "the frame of {name} is clean");
    session.screenshot_unchecked(&crate::webdriver::screenshot_dir().join(format!("{name}.png")));
}

/// The game's "roll real dice" preference (home's game panel) opens a roll with the boxes for
/// the faces (each screen still switches for one roll); "Rules hints" off in the header's menu
/// hides a rules hint on a system's screen, and on again shows it.
#[test]
fn dice_preference_and_hints_switch() {
    let (_window, _scratch, _db_path, session) = begin_with("home-dice-hints", open);
    new_game(&session, "Night Shift", "scattershot");
    crate::create_character(&session, "Bo");
    let checked = |selector: &str| {
        session
            .execute("return document.querySelector(arguments[0])?.checked ?? null;", json!([selector]))
            .as_bool()
            .unwrap_or(false)
    };
    assert!(!checked("#game-dice-by-hand"), "the app rolls by default");
    session.click("label[for='game-dice-by-hand']");
    session.wait_until("the preference to be saved", || checked("#game-dice-by-hand").then_some(()));
    session.wait_for("#toast");
    shots_at_both_widths(&session, "home-dice-by-hand");

    let open_roll = |session: &Session| {
        session.click("#game-scattershot");
        session.wait_for("#scattershot-screen");
        session.click("#sc-tab-roll");
        session.wait_for("#sc-roll-by-hand");
        session.wait_settled();
    };
    open_roll(&session);
    assert!(checked("#sc-roll-by-hand"), "the roll starts with the faces typed in");
    let hint = session.wait_for("#sc-roll-setup .hint");
    assert!(hint.is_displayed(), "rules hints are shown by default");
    frame_shot(&session, "dice-by-hand-roll-1280");
    crate::assert_selects_fit_at_both_widths(&session, "the Scattershot roll");
    // One roll the app rolls: the screen's own switch, the preference unchanged.
    session.click("#sc-roll-by-hand");
    session.wait_until("the one-off switch", || (!checked("#sc-roll-by-hand")).then_some(()));
    back_home(&session);
    assert!(checked("#game-dice-by-hand"), "the game's preference stays");

    // Rules hints off: the hint is hidden on the screen.
    session.click("label[for='hints-switch']");
    session.wait_for("html[data-hints='off']");
    open_roll(&session);
    session.wait_for("#sc-roll-setup");
    let hint = session.find("#sc-roll-setup .hint").expect("the hint is in the page, hidden");
    assert!(!hint.is_displayed(), "hints off hides the rules hint");
    frame_shot(&session, "hints-off-roll-1280");
    back_home(&session);
    session.click("label[for='hints-switch']");
    session.wait_until("hints on again", || {
        (session.execute("return document.documentElement.dataset.hints ?? null;", json!([])) == json!(null))
            .then_some(())
    });
    open_roll(&session);
    assert!(session.wait_for("#sc-roll-setup .hint").is_displayed(), "hints on shows it again");
}

/// Waits for the NSU screen to show `name`'s sheet (its heading is "Name — Game").
fn wait_nsu_sheet(session: &Session, name: &str) {
    session.wait_until(&format!("the NSU sheet of {name:?}"), || {
        let text = session.find("#nsu-screen-heading").ok()?.text();
        text.starts_with(name).then_some(())
    });
}

/// A toast goes by itself when it merely came under a resting pointer (a person who closed
/// one toast while the next was on its way must not be left with that one for good), and
/// stays while the person moves the pointer onto it to read it.
#[test]
fn a_toast_under_a_resting_pointer_goes_and_one_pointed_at_stays() {
    let (_window, _scratch, _db_path, session) = begin_with("home-toast-pointer", open);
    new_game(&session, "Lantern Street", "nsu");
    crate::create_character(&session, "Ada Quill");
    session.wait_settled();
    let toast_shown = |s: &Session| s.find("#toast").is_ok_and(|t| t.is_displayed());
    // Renamed with the keyboard, so the pointer stays where it last was; the toast it brings
    // is waited for with the dialog closed.
    let rename = |name: &str| {
        session.execute("document.querySelector('.character-rename').focus();", json!([]));
        session.press_keys(&[&[ENTER]]);
        rename_with_enter(&session, name);
        session.wait_until("the renaming's toast with the dialog closed", || {
            let open = session.execute("return document.querySelector('dialog[open]') !== null;", json!([]));
            (open == json!(false) && session.find("#toast-undo").is_ok_and(|u| u.is_displayed())).then_some(())
        });
    };
    rename("Ada Quilt");
    let rest = session.execute(
        "const r = document.getElementById('toast-close').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
        json!([]),
    );
    session.click("#toast-close");
    session.wait_gone("#toast");
    // The next toast, the same size, comes up under the pointer resting on the closed one's ×.
    rename("Ada Quill");
    let under = session.execute(
        "const r = document.getElementById('toast').getBoundingClientRect(); const [x, y] = arguments[0]; \
         return x > r.left && x < r.right && y > r.top && y < r.bottom;",
        json!([rest]),
    );
    assert_eq!(under, json!(true), "the new toast came under the resting pointer");
    session.wait_until("the toast under a resting pointer to go by itself", || (!toast_shown(&session)).then_some(()));

    // Pointed at (its Undo: the message lets taps through to the page), a toast outlasts its
    // time (5 s with Undo) and goes once the pointer leaves.
    rename("Ada Quilt");
    session.hover("#toast-undo");
    std::thread::sleep(std::time::Duration::from_secs(7));
    assert!(toast_shown(&session), "a toast the person points at stays to be read");
    session.hover("#home-title");
    session.wait_until("the toast to go once the pointer left it", || (!toast_shown(&session)).then_some(()));
}
