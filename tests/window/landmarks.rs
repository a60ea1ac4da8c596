//! Issue 35: every screen has one `<main>` holding what it shows and one `<h1>` naming it —
//! home (the app's title) and a screen of each of the four systems (its heading), at 1280 and
//! at 360 px — and the keyboard focus is never left on the page's body: "← Home" gives it back
//! to the home card (or the game panel's button) that opened the screen, and Escape on the
//! import preview gives it back to the Import button.

use serde_json::json;

use crate::fixtures::nsu_fixture_path;
use crate::keyboard::{focused, wait_focus_on};
use crate::mezzo::press;
use crate::nsu_roll::imported_into;
use crate::webdriver::{Session, ESCAPE};
use crate::{
    begin_with, choose_file_in_native_dialog, create_game, desktop_width, dismiss_toast, open, open_game, phone_width,
    shots_at_both_widths, wait_card, OPEN_TITLE,
};

/// What a screen reader's landmarks and headings show: the shown `<main>`s, the shown level-1
/// headings' texts, whether `screen` (a selector) is shown inside the one main, and whether
/// the one h1 is inside `screen`.
const LANDMARKS: &str = "
    const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const mains = [...document.querySelectorAll('main, [role=main]')].filter(shown);
    const h1s = [...document.querySelectorAll('h1, [role=heading][aria-level=\"1\"]')].filter(shown);
    const screen = document.querySelector(arguments[0]);
    return {
      mains: mains.length,
      mainElements: document.querySelectorAll('main').length,
      h1s: h1s.map((h) => h.textContent.trim()),
      screenInMain: Boolean(screen && shown(screen) && mains.length === 1 && mains[0].contains(screen)),
      h1InScreen: Boolean(screen && h1s.length === 1 && screen.contains(h1s[0])),
      homeShown: shown(document.getElementById('home-layout')),
    };";

/// At 1280 and at 360 px: one shown main holding `screen`, one shown h1 reading `heading`
/// (inside the screen when `h1_in_screen`: a system's screen; home's title is in its header).
fn assert_landmarks(session: &Session, what: &str, screen: &str, heading: &str, h1_in_screen: bool) {
    for width in [1280, 360] {
        if width == 360 {
            phone_width(session);
        }
        let seen = session.execute(LANDMARKS, json!([screen]));
        assert_eq!(seen["mains"], json!(1), "{what} at {width} px: one main landmark shown ({seen})");
        assert_eq!(seen["mainElements"], json!(1), "{what} at {width} px: the page has one <main> ({seen})");
        assert_eq!(seen["h1s"], json!([heading]), "{what} at {width} px: one h1, the screen's heading ({seen})");
        assert_eq!(seen["screenInMain"], json!(true), "{what} at {width} px: {screen} shown inside the main ({seen})");
        if h1_in_screen {
            assert_eq!(seen["h1InScreen"], json!(true), "{what} at {width} px: the h1 is the screen's own ({seen})");
        }
        // A system's screen takes home's place in the main (the frame hides home's layout).
        assert_eq!(seen["homeShown"], json!(!h1_in_screen), "{what} at {width} px: home's layout ({seen})");
        if width == 360 && h1_in_screen {
            assert_chrome(session, what, screen);
        }
        if width == 360 {
            desktop_width(session);
        }
    }
}

/// Issue 32, item 2: on a 360 × 800 phone the frame's chrome — the sticky bar at the top and
/// the tab bar at the bottom — takes at most 15 % of the height, the rest is the game; the
/// bar is one row (its title cut to one line) and each tab shows an icon over its name.
fn assert_chrome(session: &Session, what: &str, screen: &str) {
    let seen = session.execute(
        "const screen = document.querySelector(arguments[0]);
         const bar = screen.querySelector('.frame-bar').getBoundingClientRect().height;
         const tabs = screen.querySelector('.frame-tabs').getBoundingClientRect().height;
         const h1 = screen.querySelector('h1');
         const line = parseFloat(getComputedStyle(h1).lineHeight);
         const icons = [...screen.querySelectorAll('.frame-tabs .frame-tab, .frame-tabs .frame-more')]
           .filter((b) => b.getClientRects().length > 0)
           .map((b) => b.querySelector('.icon')?.getBoundingClientRect().width ?? 0);
         return { bar, tabs, height: window.innerHeight, titleLines: Math.round(h1.getBoundingClientRect().height / line), icons };",
        json!([screen]),
    );
    let chrome = seen["bar"].as_f64().unwrap() + seen["tabs"].as_f64().unwrap();
    let height = seen["height"].as_f64().unwrap();
    assert!(chrome <= 0.15 * height, "{what} at 360 px: the chrome takes {chrome} of {height} px ({seen})");
    assert_eq!(seen["titleLines"], json!(1), "{what} at 360 px: the title is one line ({seen})");
    let icons = seen["icons"].as_array().unwrap();
    assert!(
        !icons.is_empty() && icons.iter().all(|w| w.as_f64().unwrap() >= 16.0),
        "{what}: every tab has its icon ({seen})"
    );
}

#[test]
fn every_screen_has_one_main_and_one_h1_and_keeps_the_focus() {
    let (_window, scratch, _db_path, session) = begin_with("landmarks", open);

    // The import preview closed with Escape: the focus is back on the Import button.
    let file = scratch.path("nsu.sheetkeeper.json");
    std::fs::copy(nsu_fixture_path(), &file).expect("copy the NSU fixture");
    session.click("#import-button");
    choose_file_in_native_dialog(OPEN_TITLE, &file, false);
    session.wait_for("#import-dialog");
    session.wait_for("#import-cancel").send_keys(ESCAPE);
    session.wait_gone("#import-dialog");
    session.wait_for("#import-button:not([aria-busy='true'])");
    let now = focused(&session);
    assert_eq!(
        now["id"],
        json!("import-button"),
        "Escape on the import preview gives the focus back to Import ({now})"
    );
    assert_eq!(session.find_all(".game-row").len(), 0, "the cancelled import added nothing");

    // Now imported for real: Lanterns over Brackwater, with Wren Ashdown's card on home.
    let session = imported_into(session, &file);
    let _ = create_game(&session, "Penny Night", "penny_ante");
    let _ = create_game(&session, "Mezzo Night", "mezzo");
    let _ = create_game(&session, "Gear Night", "scattershot");
    dismiss_toast(&session);
    session.execute("window.scrollTo(0, 0);", json!([]));
    wait_card(&session, "Wren Ashdown");
    assert_landmarks(&session, "home", "#home-layout", "Sheetkeeper", false);
    assert_eq!(
        session.execute("return document.querySelector('#mine-list').closest('main') !== null;", json!([])),
        json!(true),
        "home's cards are in the main"
    );
    shots_at_both_widths(&session, "landmarks-home");

    // NSU, opened from Wren's card on home; "← Home" gives the focus back to that card.
    let card = wait_card(&session, "Wren Ashdown");
    let character = card.attribute("data-character-id").expect("the card names its character");
    card.find(".character-card").expect("the card's button").click();
    session.wait_text("#nsu-screen-heading", "Wren Ashdown — Lanterns over Brackwater");
    session.wait_for("#sheet-body");
    session.wait_settled();
    assert_landmarks(&session, "the NSU sheet", "#nsu-screen", "Wren Ashdown — Lanterns over Brackwater", true);
    shots_at_both_widths(&session, "landmarks-nsu-sheet");
    session.wait_settled();
    session.click("#nsu-back");
    session.wait_for("#home-layout");
    session.wait_settled();
    wait_focus_on(
        &session,
        &format!(".character-card-item[data-character-id='{character}'] .character-card"),
        "Wren Ashdown's card after ← Home",
    );

    // The other three systems' screens, opened from the game panel: each its own heading as
    // the one h1, and "← Home" gives the focus back to the button that opened it.
    for (game, opener, screen, back, heading) in [
        ("Penny Night", "#game-penny", "#penny-screen", "#penny-back", "Penny Night"),
        ("Mezzo Night", "#game-mezzo", "#mezzo-screen", "#mezzo-back", "Mezzo Night"),
        ("Gear Night", "#game-scattershot", "#scattershot-screen", "#scattershot-back", "Gear Night"),
    ] {
        open_game(&session, game);
        press(&session, opener);
        session.wait_text(&format!("{}-heading", screen), heading);
        session.wait_settled();
        assert_landmarks(&session, heading, screen, heading, true);
        if game == "Penny Night" {
            // Its title grows in the bar (penny.css), the badge at the bar's end, as before.
            dismiss_toast(&session);
            shots_at_both_widths(&session, "landmarks-penny-table");
        }
        session.click(back);
        session.wait_for("#home-layout");
        session.wait_settled();
        wait_focus_on(&session, opener, &format!("the button that opened {heading}, after ← Home"));
    }
}
