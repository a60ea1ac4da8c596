//! Issue 33: the campaign journal, the same in every game. "Journal" in a game screen's bar
//! opens it; a session is started with its date and who is here, a dice roll at the table
//! lands in what happened, the table's notes are written and the session ended; "Last time…"
//! then tells it first, also from home's game panel. A date before the last session's is
//! refused with its field named and nothing changed; who was there is changed in a session's
//! write-up. Screenshots at 1280 and 360 px, light and dark.

use serde_json::json;

use crate::dice_tray::{open_screen, roll_typed};
use crate::mezzo::press;
use crate::webdriver::{Session, ESCAPE};
use crate::{
    back_home, begin_with, create_character, create_game, dismiss_toast, in_dark, new_game, open, open_game,
    shots_at_both_widths, shots_at_both_widths_with,
};

fn set_value(session: &Session, selector: &str, value: &str) {
    session.execute(
        "const e = document.querySelector(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('input'));",
        json!([selector, value]),
    );
}

fn text_of(session: &Session, selector: &str) -> String {
    session.find(selector).map(|e| e.text()).unwrap_or_default()
}

#[test]
fn a_session_is_started_played_written_up_and_told_as_last_time() {
    let (_window, _scratch, _db, session) = begin_with("journal", open);
    new_game(&session, "Gear Night", "scattershot");
    create_character(&session, "Ada");
    dismiss_toast(&session);
    press(&session, "#game-scattershot");
    session.wait_for("#scattershot-screen:not([hidden])");
    session.wait_settled();
    let height = session
        .execute("return document.getElementById('scattershot-journal').getBoundingClientRect().height;", json!([]));
    assert!(height.as_f64().unwrap_or(0.0) >= 44.0, "\"Journal\" is a big enough target ({height})");
    shots_at_both_widths(&session, "journal-in-the-bar");

    // No session yet: the form to start one, with who is here.
    press(&session, "#scattershot-journal");
    session.wait_for("#journal[open]");
    session.wait_for("#journal-empty");
    assert_eq!(session.find("#journal-who-0").unwrap().attribute("value").as_deref(), Some("Ada"));
    set_value(&session, "#journal-start-date", "2026-11-01");
    press(&session, "#journal-start");
    session.wait_for("#journal-open");
    assert!(text_of(&session, "#journal-open").contains("Session 1 · 2026-11-01 · playing now"));
    assert!(text_of(&session, "#journal-open").contains("There: Ada"));
    session.click("#journal-close");
    session.wait_gone("#journal[open]");
    dismiss_toast(&session);

    // A roll at the table, on the dice tray.
    press(&session, "#scattershot-dice");
    session.wait_for("#dice-tray[open]");
    let (faces, total) = roll_typed(&session, "2d6");
    session.find("#dice-tray-expression").expect("the field").send_keys(ESCAPE);
    session.wait_gone("#dice-tray[open]");

    // It is in what happened, in Scattershot's words; the notes are written, the session ended.
    press(&session, "#scattershot-journal");
    session.wait_for("#journal-open");
    let open_text = text_of(&session, "#journal-open");
    assert!(open_text.contains("Made-It-By rolls and dice"), "{open_text}");
    assert!(open_text.contains(&format!("dice tray: 2d6 → {} + {} = {total}", faces[0], faces[1])), "{open_text}");
    session.execute("document.querySelector('#journal-session-1 details').open = true;", json!([]));
    let notes = session.wait_for("#journal-notes-1");
    notes.click();
    notes.send_keys("The bridge held. Ada owes the smith.");
    press(&session, "#journal-save-notes-1");
    session.wait_until("the notes saved", || {
        text_of(&session, "#journal-open").contains("The bridge held. Ada owes the smith.").then_some(())
    });
    press(&session, "#journal-end");
    session.wait_for("#journal-last");
    let last = text_of(&session, "#journal-last");
    assert!(last.starts_with("Last time…"), "{last}");
    assert!(last.contains("Session 1 · 2026-11-01") && last.contains("The bridge held."), "{last}");
    assert!(last.contains("dice tray: 2d6"), "{last}");

    // A date before the last session's: refused, the field named, nothing started.
    set_value(&session, "#journal-start-date", "2026-10-01");
    press(&session, "#journal-start");
    session.wait_until("the refusal", || {
        let said = text_of(&session, "#journal-error");
        said.contains("date").then_some(said)
    });
    assert!(session.find("#journal-open").is_err(), "no session was started");
    shots_at_both_widths(&session, "journal-last-time");
    in_dark(&session, || shots_at_both_widths(&session, "journal-last-time-dark"));
    session.click("#journal-close");
    session.wait_gone("#journal[open]");

    // From home's game panel too: "Last time…" first.
    back_home(&session);
    open_game(&session, "Gear Night");
    press(&session, "#game-journal");
    session.wait_for("#journal[open]");
    session.wait_for("#journal-last");
    assert!(text_of(&session, "#journal-last").contains("The bridge held."));
    shots_at_both_widths(&session, "journal-from-home");

    // Printed (or saved as PDF) through the print shell: the journal's page, every session.
    press(&session, "#journal-print");
    session.wait_for("#print-dialog[open]");
    session.wait_text("#print-what", "The journal of “Gear Night”.");
    let page = session.execute("return document.getElementById('print-root').textContent;", json!([]));
    let page = page.as_str().unwrap_or_default();
    assert!(page.contains("Campaign journal") && page.contains("Session 1 · 2026-11-01"), "{page}");
    assert!(
        page.contains("The bridge held. Ada owes the smith.") && page.contains("Made-It-By rolls and dice"),
        "{page}"
    );
    session.click("#print-close");
    session.wait_gone("#print-dialog[open]");
}

/// Ticks (or unticks) the box of `name` among the boxes under `within`, as a person taps its
/// label.
fn tap_name(session: &Session, within: &str, name: &str) {
    let found = session.execute(
        "const box = [...document.querySelectorAll(arguments[0] + ' input[type=checkbox]')].find((i) => i.value === arguments[1]);
         if (!box) return null;
         box.closest('label').scrollIntoView({ block: 'center' });
         return box.id;",
        json!([within, name]),
    );
    let id = found.as_str().unwrap_or_else(|| panic!("a box for {name} under {within}"));
    press(session, &format!("label[for='{id}']"));
}

fn ticked(session: &Session, within: &str) -> Vec<String> {
    let names = session.execute(
        "return [...document.querySelectorAll(arguments[0] + ' input[type=checkbox]')].filter((i) => i.checked).map((i) => i.value);",
        json!([within]),
    );
    serde_json::from_value(names).unwrap_or_default()
}

/// Who was there is written up after the session: Bo came late, unticked at the start, and is
/// ticked in the session's write-up; Ada, who left early, is unticked. "Last time…" and the
/// session then say so, and the boxes stay as saved.
#[test]
fn who_was_there_is_changed_in_the_write_up() {
    let (_window, _scratch, _db, session) = begin_with("journal-who", open);
    new_game(&session, "Gear Night", "scattershot");
    create_character(&session, "Ada");
    create_character(&session, "Bo");
    dismiss_toast(&session);
    press(&session, "#game-journal");
    session.wait_for("#journal-start-form");
    assert_eq!(ticked(&session, "#journal-start-form"), ["Ada", "Bo"], "everyone is ticked at first");
    tap_name(&session, "#journal-start-form", "Bo");
    set_value(&session, "#journal-start-date", "2026-11-01");
    press(&session, "#journal-start");
    session.wait_for("#journal-open");
    press(&session, "#journal-end");
    session.wait_for("#journal-last");
    assert!(text_of(&session, "#journal-last").contains("There: Ada"), "{}", text_of(&session, "#journal-last"));

    // The write-up: the boxes as the session lists them; Bo ticked, Ada unticked, saved.
    press(&session, "#journal-session-1 summary");
    session.wait_for("#journal-who-was-1");
    assert_eq!(ticked(&session, "#journal-who-was-1"), ["Ada"]);
    tap_name(&session, "#journal-who-was-1", "Bo");
    tap_name(&session, "#journal-who-was-1", "Ada");
    press(&session, "#journal-save-who-1");
    session.wait_until("the list saved", || text_of(&session, "#journal-last").contains("There: Bo").then_some(()));
    assert!(text_of(&session, "#journal-session-1").contains("There: Bo"));
    assert!(!text_of(&session, "#journal-last").contains("Ada"), "{}", text_of(&session, "#journal-last"));
    assert_eq!(ticked(&session, "#journal-who-was-1"), ["Bo"], "the write-up stays open, as saved");
    let focused = session.execute("return document.activeElement?.id ?? '';", json!([]));
    assert_eq!(focused, json!("journal-save-who-1"), "the focus stays on the button");
    assert!(session.find("#journal-error").map(|e| !e.is_displayed()).unwrap_or(true), "nothing refused");
    let into_view = || {
        session.execute("document.getElementById('journal-who-was-1').scrollIntoView({ block: 'center' });", json!([]));
    };
    shots_at_both_widths_with(&session, "journal-who-was-there", into_view, || {});
    in_dark(&session, || shots_at_both_widths_with(&session, "journal-who-was-there-dark", into_view, || {}));

    // Kept: the journal opened again tells the same.
    session.click("#journal-close");
    session.wait_gone("#journal[open]");
    press(&session, "#game-journal");
    session.wait_for("#journal-last");
    assert!(text_of(&session, "#journal-last").contains("There: Bo"), "kept when the journal opens again");
}

#[test]
fn every_games_screen_opens_the_same_journal() {
    let (_window, _scratch, _db, session) = begin_with("journal-every-game", open);
    for (game, system) in [("Brackwater", "nsu"), ("Penny Night", "penny_ante"), ("Mezzo Night", "mezzo")] {
        let _ = create_game(&session, game, system);
    }
    dismiss_toast(&session);
    for (game, opener, name) in [
        ("Brackwater", "#game-roll-log", "nsu"),
        ("Penny Night", "#game-penny", "penny"),
        ("Mezzo Night", "#game-mezzo", "mezzo"),
    ] {
        open_screen(&session, game, opener, name);
        let journal = format!("#{name}-journal");
        press(&session, &journal);
        session.wait_for("#journal[open]");
        session.wait_text("#journal-title", &format!("Journal — {game}"));
        session.wait_for("#journal-start-form");
        session.click("#journal-close");
        session.wait_gone("#journal[open]");
        let focused =
            session.execute("return document.activeElement?.matches(arguments[0]) ?? false;", json!([journal]));
        assert_eq!(focused, json!(true), "{game}: the focus back on \"Journal\"");
        if name == "mezzo" {
            shots_at_both_widths(&session, "journal-in-the-mezzo-bar");
        }
        session.click(&format!("#{name}-back"));
        session.wait_for("#home-layout");
        session.wait_settled();
    }
}
