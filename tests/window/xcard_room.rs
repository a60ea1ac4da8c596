//! The X-card's room (issue 33, UX review D16): the X-card button is on every screen, in the
//! top right corner the header and the screens' bar keep free. On a system's screen a refused
//! move's error box (first on the page, above the screen's bar) starts below the X-card, also
//! once the app has scrolled it into sight, and scrolled part way its words pass beside the
//! X-card; on a phone's home the X-card scrolls away with the header and covers no card or
//! panel, scrolled anywhere. The layout check every screenshot runs counts the X-card against
//! any text or control under it (shown here on a probe). Screenshots at 1280 and 360 px,
//! light and dark.

use serde_json::json;

use crate::mezzo::{press, type_into, wait_contains};
use crate::webdriver::Session;
use crate::{begin_with, create_character, desktop_width, in_dark, new_game, open, phone_width, shot};

/// The X-card's box and `selector`'s box overlap (by more than 1 px each way).
fn xcard_over(session: &Session, selector: &str) -> bool {
    session.execute(
        "const x = document.getElementById('xcard').getBoundingClientRect(); \
         const r = document.querySelector(arguments[0]).getBoundingClientRect(); \
         return Math.min(x.right, r.right) - Math.max(x.left, r.left) > 1 \
           && Math.min(x.bottom, r.bottom) - Math.max(x.top, r.top) > 1;",
        json!([selector]),
    ) == json!(true)
}

/// Scrolls the page to `y` and waits until it is there (or as far as it goes).
fn scroll_to(session: &Session, y: i64) {
    session.execute("window.scrollTo(0, arguments[0]);", json!([y]));
    session.wait_until("the page to scroll", || {
        let at = session.execute(
            "const most = document.documentElement.scrollHeight - window.innerHeight; \
             return Math.abs(window.scrollY - Math.max(0, Math.min(arguments[0], most))) < 1;",
            json!([y]),
        );
        (at == json!(true)).then_some(())
    });
}

/// The layout check's findings about the X-card on the page as it is now.
fn xcard_problems(session: &Session) -> Vec<String> {
    session.layout_problems().into_iter().filter(|p| p.contains("X-card")).collect()
}

/// A refused move on a system's screen: the error box comes into sight below the X-card, at
/// the top of the page and where the app scrolls it, at both widths, light and dark.
#[test]
fn a_refused_moves_error_box_is_clear_of_the_xcard() {
    let (_window, _scratch, _db_path, session) = begin_with("xcard-error-box", open);
    crate::scattershot::table(&session, "Tin Harbour");
    press(&session, "#sc-tab-table");

    for wide in [true, false] {
        if !wide {
            phone_width(&session);
        }
        // A line without its level is refused; the app scrolls the error box into sight.
        type_into(&session, "#sc-free-skills-text", "Swimming 9\u{E007}Haggling");
        press(&session, "#sc-free-skills-save");
        wait_contains(&session, "#error-message", "Line 2, “Haggling”");
        session.wait_settled();
        let width = session.inner_width();
        assert!(
            !xcard_over(&session, "#error"),
            "the X-card is over the error box where the app scrolled it ({width} px)"
        );
        assert_eq!(xcard_problems(&session), Vec::<String>::new(), "where the app scrolled it ({width} px)");
        // At the page's top the box starts below the X-card; scrolled part way, its words and
        // Dismiss pass beside the X-card, and then the screen's bar, under it.
        scroll_to(&session, 0);
        assert!(!xcard_over(&session, "#error"), "the X-card is over the error box at the page's top ({width} px)");
        for y in [20, 40, 60, 100, 200] {
            scroll_to(&session, y);
            assert_eq!(xcard_problems(&session), Vec::<String>::new(), "{y} px down ({width} px)");
        }
        scroll_to(&session, 0);
        let name = if wide { "xcard-error-box-1280" } else { "xcard-error-box-360" };
        shot(&session, name);
        in_dark(&session, || shot(&session, &format!("{name}-dark")));
        press(&session, "#error-dismiss");
        session.wait_gone("#error");
    }
    desktop_width(&session);
}

/// Home with games and characters: scrolled anywhere, the X-card covers none of its texts and
/// controls at 1280 and 360 px; a text put under the floating X-card is named by the check.
#[test]
fn the_xcard_covers_nothing_on_home() {
    let (_window, _scratch, _db_path, session) = begin_with("xcard-home", open);
    for (game, system) in [("Harbour Job", "penny_ante"), ("Weather Night", "mezzo"), ("Lantern Street", "nsu")] {
        new_game(&session, game, system);
        for name in ["Pip", "Mira", "Wren"] {
            create_character(&session, name);
        }
    }
    session.wait_settled();

    shot(&session, "xcard-home-1280");
    in_dark(&session, || shot(&session, "xcard-home-1280-dark"));
    for wide in [true, false] {
        if !wide {
            phone_width(&session);
        }
        let width = session.inner_width();
        let height = session.execute("return document.documentElement.scrollHeight;", json!([])).as_i64().unwrap_or(0);
        let mut y = 0;
        while y <= height {
            scroll_to(&session, y);
            assert_eq!(xcard_problems(&session), Vec::<String>::new(), "home {y} px down ({width} px)");
            y += 60;
        }
        scroll_to(&session, 300);
        let name = if wide { "xcard-home-scrolled-1280" } else { "xcard-home-scrolled-360" };
        shot(&session, name);
        in_dark(&session, || shot(&session, &format!("{name}-dark")));
        scroll_to(&session, 0);
    }
    desktop_width(&session);
    scroll_to(&session, 0);

    // The check counts the X-card: pinned over the page as it once floated, with a text
    // under it at the page's top, the check names that text.
    session.execute(
        "document.querySelector('.xcard-dock').style.position = 'fixed'; \
         const p = document.createElement('p'); p.id = 'xcard-probe'; p.textContent = 'Under the X-card'; \
         p.style.cssText = 'position:absolute;top:0;right:0;margin:0.75rem;z-index:1'; \
         document.body.append(p);",
        json!([]),
    );
    let problems = xcard_problems(&session);
    assert!(
        problems.iter().any(|p| p.contains("p#xcard-probe") && p.contains("covered by the X-card")),
        "the check names the text under the X-card: {problems:?}"
    );
}
