//! The No Stone Unturned sheet screen and its creation wizard, driven like a person: a new
//! character walks the wizard, mood boxes are tapped, harm is recorded until Overcome and the
//! last one is undone from the toast; then the database is checked.

use serde_json::json;

use crate::fixtures::db;
use crate::webdriver::{Session, ENTER};
use crate::{
    begin_with, click_in_row, create_character, new_game, open, open_dark, shots_at_both_widths, wait_character_row,
};

use crate::dismiss_toast;
use crate::nsu_world::shots_of;

/// Clicks into the field `selector` and types `text`.
fn type_into(session: &Session, selector: &str, text: &str) {
    let field = session.wait_for(selector);
    field.click();
    field.send_keys(text);
}

/// Picks `value` in the select `selector` by clicking its option.
fn pick(session: &Session, selector: &str, value: &str) {
    session.click(&format!("{selector} option[value='{value}']"));
}

/// A game with one NSU character, its sheet open.
fn sheet_of_new_character(session: &Session, game: &str, name: &str) -> String {
    new_game(session, game, "nsu");
    let id = create_character(session, name);
    // Home has redrawn its list after the new sheet was left: the row found now stays.
    session.wait_settled();
    click_in_row(&wait_character_row(session, name), ".character-open");
    wait_heading(session, name);
    session.wait_for("#sheet-body");
    id
}

/// Waits for the screen's heading to name `name` (then the game).
fn wait_heading(session: &Session, name: &str) {
    session.wait_until(&format!("the heading to name {name:?}"), || {
        let text = session.find("#nsu-screen-heading").ok()?.text();
        text.starts_with(name).then_some(())
    });
}

/// The text of the wizard's step indicator, once it names `step`.
/// Types each `(field, text)` of the wizard's step shown, then goes to the next step.
fn fill_step(session: &Session, fields: &[(&str, &str)]) {
    for (field, text) in fields {
        type_into(session, field, text);
    }
    session.click("#wizard-next");
}

fn wait_step(session: &Session, step: &str) {
    session.wait_until(&format!("the wizard at {step:?}"), || {
        let text = session.find("#wizard-step-indicator").ok()?.text();
        text.ends_with(step).then_some(())
    });
}

/// The visible level text of mood line `line` (e.g. "Level 3 of 9").
pub(crate) fn mood_level(session: &Session, line: usize) -> String {
    session.find(&format!(".mood-line[data-line='{line}'] .mood-level")).map(|e| e.text()).unwrap_or_default()
}

fn wait_mood_level(session: &Session, line: usize, expected: &str) {
    session.wait_until(&format!("mood line {line} to read {expected:?}"), || {
        (mood_level(session, line) == expected).then_some(())
    });
}

/// Taps box `box_number` of mood line `line` (a toast out of the way first) and waits for the
/// line to read `expected`.
fn tap_mood_box(session: &Session, line: usize, box_number: usize, expected: &str) {
    dismiss_toast(session);
    session.click(&mood_box(line, box_number));
    wait_mood_level(session, line, expected);
}

fn mood_box(line: usize, box_number: usize) -> String {
    format!(".mood-line[data-line='{line}'] .mood-box[data-box='{box_number}']")
}

/// A new character walks every creation step in order (a duplicate aspect die is refused
/// with a message), Finish turns on only once the core reports nothing missing, and the
/// finished sheet and the database hold what was typed.
#[test]
fn nsu_character_is_created_through_the_wizard() {
    let (_window, _scratch, db_path, session) = begin_with("nsu-wizard", open);
    let id = sheet_of_new_character(&session, "Lantern Hollow", "Ada Quill");

    let note = session.wait_for("#sheet-creation").text();
    assert!(note.contains("a mood on a d8 line"), "the sheet offers creation: {note:?}");
    // No aspects yet: Roll is off and says why in visible words beside it (no hover on a phone).
    assert!(session.wait_for("#sheet-roll").attribute("disabled").is_some(), "no roll without aspects");
    session.wait_text("#sheet-roll-why", "Give Body, Mind and Heart their dice to roll.");
    // Roll leads the toolbar (a phone's first row), and disabled it still reads at 4.5:1 or more.
    let first = session.execute("return document.querySelector('.sheet-actions > button').id;", json!([]));
    assert_eq!(first, json!("sheet-roll"), "Roll is the toolbar's first button");
    let ratio = session
        .execute(
            "const s = getComputedStyle(document.getElementById('sheet-roll')); \
             const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => { \
               v = Number(v) / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); \
               return 0.2126 * r + 0.7152 * g + 0.0722 * b; }; \
             const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x); \
             return s.opacity === '1' ? (a + 0.05) / (b + 0.05) : 0;",
            json!([]),
        )
        .as_f64()
        .unwrap_or(0.0);
    assert!(ratio >= 4.5, "the disabled Roll's text contrast is {ratio:.2}:1");
    session.click("#wizard-open");
    session.wait_for("#wizard");
    wait_step(&session, "Pronouns & look");
    assert!(session.wait_for("#wizard-finish").attribute("disabled").is_some(), "Finish waits for the core");
    assert!(session.wait_for("#wizard-back").attribute("disabled").is_some());
    fill_step(&session, &[("#wizard-pronouns", "she/her"), ("#wizard-look", "Ink-stained coat, a lantern")]);

    wait_step(&session, "Moods");
    fill_step(
        &session,
        &[("#wizard-mood-d8", "Curious"), ("#wizard-mood-d6", "Wary"), ("#wizard-mood-d4", "Homesick")],
    );

    wait_step(&session, "Aspects");
    pick(&session, "#wizard-aspect-body", "d8");
    pick(&session, "#wizard-aspect-mind", "d8");
    pick(&session, "#wizard-aspect-heart", "d4");
    session.click("#wizard-next");
    session.wait_until("the duplicate die to be refused", || {
        let text = session.find("#wizard-message").ok()?.text();
        text.contains("Body and Mind both use d8").then_some(())
    });
    wait_step(&session, "Aspects");
    shots_of(&session, "nsu-wizard-aspects", "#sheet-view");
    pick(&session, "#wizard-aspect-mind", "d6");
    session.click("#wizard-next");

    wait_step(&session, "Sentiments");
    // Creation is not finished, but with the aspects' dice chosen the character may roll (as in
    // the other systems; a mood may be named in the roll itself).
    session.wait_until("Roll to be enabled during creation", || {
        session.find("#sheet-roll").ok().filter(|b| b.attribute("disabled").is_none()).map(|_| ())
    });
    assert!(!session.find("#sheet-roll-why").is_ok_and(|e| e.is_displayed()), "no reason shown once Roll works");
    session.click("#sheet-roll");
    session.wait_for("#roll-wizard");
    session.click("#roll-close");
    session.wait_gone("#roll-wizard");
    wait_step(&session, "Sentiments");
    fill_step(
        &session,
        &[
            ("#wizard-sentiment-0", "My sister Bea"),
            ("#wizard-sentiment-1", "The old lighthouse"),
            ("#wizard-sentiment-2", "Tom the ferryman"),
        ],
    );

    wait_step(&session, "Skills");
    fill_step(
        &session,
        &[("#wizard-skill-0", "Lockpicking"), ("#wizard-skill-1", "Folklore"), ("#wizard-skill-2", "Running")],
    );

    wait_step(&session, "Rumours");
    // Revisit an earlier step through the step list: what was saved is there.
    session.click(".wizard-step[data-step='1']");
    wait_step(&session, "Moods");
    let d6 = session.execute("return document.querySelector('#wizard-mood-d6').value;", json!([]));
    assert_eq!(d6, json!("Wary"), "a revisited step shows what was saved");
    session.click(".wizard-step[data-step='5']");
    wait_step(&session, "Rumours");
    type_into(&session, "#wizard-rumours", "The mill turns on windless nights.");
    session.click("#wizard-next");

    wait_step(&session, "Done");
    session.wait_until("Finish to be enabled", || {
        session.find("#wizard-finish").ok().filter(|b| b.attribute("disabled").is_none()).map(|_| ())
    });
    dismiss_toast(&session);
    session.click("#wizard-finish");
    session.wait_gone("#wizard");
    session.wait_gone("#sheet-creation");
    // Finished, the sheet is played from: the moods' names are text (rolled at a tap).
    session.wait_for("#sheet-view[data-mode='play'] .mood-line[data-line='0'] .mood-name");
    let names = session
        .execute("return [...document.querySelectorAll('.mood-line .mood-name')].map((n) => n.querySelector('.sheet-tap-text')?.textContent ?? '');", json!([]));
    assert_eq!(names, json!(["Curious", "", "Wary", "", "Homesick", ""]));
    assert_eq!(mood_level(&session, 0), "Level 0 of 9");
    shots_of(&session, "nsu-sheet-new", "#sheet-view");
    shots_of(&session, "nsu-sheet-new-skills", ".sheet-skills");
    drop(session);

    let conn = db(&db_path);
    let sheet: (String, String, String, i64, i64, i64, i64) = conn
        .query_row(
            "SELECT pronouns, look, rumours, body_die, mind_die, heart_die, recovery_points FROM nsu_sheets WHERE character_id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)),
        )
        .expect("read the sheet");
    assert_eq!(
        sheet,
        (
            "she/her".into(),
            "Ink-stained coat, a lantern".into(),
            "The mill turns on windless nights.".into(),
            8,
            6,
            4,
            0
        )
    );
    let moods: Vec<(i64, i64, String, i64, i64)> = conn
        .prepare("SELECT line, die, name, level, overloaded FROM nsu_moods WHERE character_id = ?1 ORDER BY line")
        .and_then(|mut st| {
            st.query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?
                .collect::<Result<_, _>>()
        })
        .expect("read moods");
    assert_eq!(
        moods,
        vec![(0, 8, "Curious".into(), 0, 0), (2, 6, "Wary".into(), 0, 0), (4, 4, "Homesick".into(), 0, 0)]
    );
    let skills: Vec<(i64, String, i64, i64, i64, i64)> = conn
        .prepare("SELECT line, name, modifier, body_box, mind_box, heart_box FROM nsu_skills WHERE character_id = ?1 ORDER BY line")
        .and_then(|mut st| {
            st.query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))?.collect::<Result<_, _>>()
        })
        .expect("read skills");
    assert_eq!(
        skills,
        vec![
            (0, "Lockpicking".into(), 1, 0, 0, 0),
            (1, "Folklore".into(), 1, 0, 0, 0),
            (2, "Running".into(), 1, 0, 0, 0)
        ]
    );
    let sentiments: Vec<(i64, String, String)> = conn
        .prepare("SELECT line, name, state FROM nsu_sentiments WHERE character_id = ?1 ORDER BY line")
        .and_then(|mut st| st.query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<Result<_, _>>())
        .expect("read sentiments");
    assert_eq!(
        sentiments,
        vec![
            (0, "My sister Bea".into(), "connected".into()),
            (1, "The old lighthouse".into(), "connected".into()),
            (2, "Tom the ferryman".into(), "connected".into()),
        ]
    );
}

/// A mood named on an open line fills its level track by tapping: tapping box 5 marks five
/// (past the d8's threshold of 4), tapping the last marked box clears it; the level is shown
/// in words and stored.
#[test]
fn tapping_mood_boxes_sets_the_level() {
    let (_window, _scratch, db_path, session) = begin_with("nsu-mood", open);
    let id = sheet_of_new_character(&session, "Lantern Hollow", "Brin");

    let name = ".mood-line[data-line='0'] .mood-name";
    type_into(&session, name, "Curious");
    session.wait_for(name).send_keys(ENTER);
    session.wait_until("the d8 line to take the mood", || {
        session.find(&mood_box(0, 1)).ok().filter(|b| b.attribute("disabled").is_none()).map(|_| ())
    });
    wait_mood_level(&session, 0, "Level 0 of 9");
    assert_eq!(session.find_all(".mood-line[data-line='0'] .mood-box").len(), 9, "a d8 track has 9 boxes");
    assert_eq!(session.find_all(".mood-line[data-line='4'] .mood-box").len(), 5, "a d4 track has 5 boxes");
    assert_eq!(
        session.find(&mood_box(0, 3)).ok().and_then(|b| b.attribute("aria-label")).as_deref(),
        Some("Curious level 3 of 9")
    );

    tap_mood_box(&session, 0, 3, "Level 3 of 9");
    tap_mood_box(&session, 0, 5, "Level 5 of 9, past threshold");
    let pressed: Vec<String> = (1..=9)
        .map(|b| session.find(&mood_box(0, b)).ok().and_then(|e| e.attribute("aria-pressed")).unwrap_or_default())
        .collect();
    assert_eq!(pressed, ["true", "true", "true", "true", "true", "false", "false", "false", "false"]);
    tap_mood_box(&session, 0, 5, "Level 4 of 9");
    dismiss_toast(&session);
    session.click(".mood-line[data-line='0'] .mood-overload");
    wait_mood_level(&session, 0, "Level 4 of 9, overloaded");
    assert_eq!(
        session
            .find(".mood-line[data-line='0'] .mood-overload")
            .ok()
            .and_then(|b| b.attribute("aria-pressed"))
            .as_deref(),
        Some("true")
    );
    shots_of(&session, "nsu-sheet-mood", ".sheet-moods");
    // At 360 px every mood and skill box is a whole 44 × 44 px touch target.
    crate::phone_width(&session);
    session.wait_settled();
    let small = session.execute(
        "return [...document.querySelectorAll('.mood-box, .skill-box')] \
           .filter((b) => b.getClientRects().length > 0) \
           .map((b) => b.getBoundingClientRect()) \
           .filter((r) => r.width < 43.5 || r.height < 43.5) \
           .map((r) => `${r.width}x${r.height}`);",
        json!([]),
    );
    assert_eq!(small, json!([]), "mood and skill boxes under 44 × 44 px at 360 px");
    crate::desktop_width(&session);

    // A second overloaded mood breaks a rule: the core's reason shows and the toggle stays off.
    let second = ".mood-line[data-line='2'] .mood-name";
    dismiss_toast(&session);
    type_into(&session, second, "Wary");
    session.wait_for(second).send_keys(ENTER);
    wait_mood_level(&session, 2, "Level 0 of 7");
    dismiss_toast(&session);
    session.click(".mood-line[data-line='2'] .mood-overload");
    session.wait_until("the refusal in the error area", || {
        let text = session.find("#error-message").ok().filter(|e| e.is_displayed())?.text();
        text.contains("only one mood can be overloaded").then_some(text)
    });
    assert_eq!(
        session
            .find(".mood-line[data-line='2'] .mood-overload")
            .ok()
            .and_then(|b| b.attribute("aria-pressed"))
            .as_deref(),
        Some("false"),
        "the refused change is not shown as made"
    );
    session.click("#error-dismiss");
    session.wait_gone("#error");
    let mood_0 = || -> (i64, i64) {
        db(&db_path)
            .query_row("SELECT level, overloaded FROM nsu_moods WHERE character_id = ?1 AND line = 0", [&id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .expect("read the mood")
    };
    assert_eq!(mood_0(), (4, 1));

    // Tapped down to 0 the overloaded mood ends its overload (decision 2026-11-25).
    tap_mood_box(&session, 0, 1, "Level 1 of 9, overloaded");
    tap_mood_box(&session, 0, 1, "Level 0 of 9");
    assert_eq!(mood_0(), (0, 0));
    drop(session);
}

/// Four harm details make the character Overcome; Undo in the toast takes the fourth back
/// and Overcome goes with it.
#[test]
fn fourth_harm_overcomes_and_undo_takes_it_back() {
    let (_window, _scratch, db_path, session) = begin_with("nsu-harm", open);
    let id = sheet_of_new_character(&session, "Lantern Hollow", "Cass");

    assert!(!session.find("#overcome").is_ok_and(|o| o.is_displayed()), "not Overcome without harm");
    for (n, harm) in ["Sprained ankle", "Smoke in the lungs", "Cut palm", "Shaken to the core"].iter().enumerate() {
        dismiss_toast(&session);
        type_into(&session, "#harm-new", harm);
        session.wait_for("#harm-new").send_keys(ENTER);
        session.wait_text("#harm-count", &format!("{} of 4", n + 1));
    }
    let overcome = session.wait_for("#overcome");
    assert!(overcome.text().to_lowercase().contains("overcome"), "the badge says Overcome: {:?}", overcome.text());
    assert!(session.wait_for("#harm-new").attribute("disabled").is_some(), "no fifth harm slot");

    // Undo while its toast is up (it lasts 5 s: the screenshots come after, with the fourth
    // harm written again, or the toast could be gone before its Undo is pressed).
    session.click("#toast-undo");
    session.wait_gone("#overcome");
    session.wait_text("#harm-count", "3 of 4");
    let harm = || -> Vec<(i64, String)> {
        db(&db_path)
            .prepare(
                "SELECT position, text FROM nsu_details WHERE character_id = ?1 AND kind = 'harm' ORDER BY position",
            )
            .and_then(|mut st| st.query_map([&id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>())
            .expect("read harm")
    };
    assert_eq!(harm(), vec![(0, "Sprained ankle".into()), (1, "Smoke in the lungs".into()), (2, "Cut palm".into())]);

    dismiss_toast(&session);
    type_into(&session, "#harm-new", "Shaken to the core");
    session.wait_for("#harm-new").send_keys(ENTER);
    session.wait_for("#overcome");
    shots_of(&session, "nsu-sheet-overcome", ".sheet-details");
    assert_eq!(harm().len(), 4);
}

/// With GTK's dark Adwaita theme WebKitGTK reports `prefers-color-scheme: dark`, and the
/// sheet takes the dark colours.
#[test]
fn sheet_follows_a_dark_desktop_theme() {
    let (_window, _scratch, _db_path, session) = begin_with("nsu-dark", open_dark);
    sheet_of_new_character(&session, "Night Ferry", "Dara");
    type_into(&session, ".mood-line[data-line='0'] .mood-name", "Curious");
    session.wait_for(".mood-line[data-line='0'] .mood-name").send_keys(ENTER);
    session.wait_until("the mood to be saved", || {
        session.find(&mood_box(0, 1)).ok().filter(|b| b.attribute("disabled").is_none()).map(|_| ())
    });
    tap_mood_box(&session, 0, 3, "Level 3 of 9");
    let background = session.execute("return getComputedStyle(document.body).backgroundColor;", json!([]));
    assert_eq!(background, json!("rgb(22, 22, 20)"), "the dark --bg of styles.css");
    shots_of(&session, "nsu-sheet-dark", "#sheet-view");
}

/// The NSU screen is the shared frame: "← Home", the heading, the NSU badge and the tabs Sheet,
/// World, Downtime and Log (at the bottom on a phone). Each tab shows in the same screen and is
/// remembered; "← Home" goes back to the home screen.
#[test]
fn nsu_screen_has_the_shared_frame_and_its_four_tabs() {
    let (_window, _scratch, _db_path, session) = begin_with("nsu-tabs", open);
    sheet_of_new_character(&session, "Lantern Hollow", "Esme");
    assert!(session.wait_for("#nsu-screen .frame-bar .system-badge").is_displayed(), "the NSU badge in the bar");
    assert_eq!(session.wait_for("#nsu-back").text(), "← Home");
    let tabs = session.execute(
        "return [...document.querySelectorAll('#nsu-screen .frame-tabs button')].map((b) => b.textContent);",
        json!([]),
    );
    assert_eq!(tabs, json!(["Sheet", "World", "Downtime", "Log"]));
    assert!(session.find("#sheet-back").is_err(), "no sheet-only back button");
    shots_at_both_widths(&session, "nsu-tab-sheet");
    for (tab, part) in [("world", "#world-map"), ("downtime", "#downtime-view"), ("log", "#nsu-log")] {
        session.click(&format!("#nsu-tab-{tab}"));
        session.wait_for(part);
        assert_eq!(
            session.wait_for(&format!("#nsu-tab-{tab}")).attribute("aria-current").as_deref(),
            Some("page"),
            "the {tab} tab is the current one"
        );
        wait_heading(&session, "Esme");
        shots_at_both_widths(&session, &format!("nsu-tab-{tab}"));
    }
    session.click("#nsu-tab-sheet");
    session.wait_for("#sheet-body");
    session.click("#nsu-back");
    session.wait_until("home again", || session.find("#nsu-screen").ok().filter(|s| !s.is_displayed()).map(|_| ()));
    assert!(session.wait_for("#home-layout").is_displayed());
}
