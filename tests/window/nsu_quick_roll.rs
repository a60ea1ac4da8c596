//! The No Stone Unturned quick roll (issue 32), driven like a person at the table: a skill
//! tapped on the sheet opens one screen with the odds already shown, Roll, then Settle — three
//! taps to a settled result, counted; Roll again repeats the set-up; the next roll from a mood
//! starts where the last one left off, and changing a choice changes the odds at once; the
//! desired outcome left for later is written on the roll's log entry.

use serde_json::{json, Value};

use crate::fixtures::{db, WREN};
use crate::link_notes::submit_faces;
use crate::nsu_roll::{begin_rolling, open_sheet_of, tap, text_of, type_into, wait_step, wizard_shots};
use crate::webdriver::Session;
use crate::{in_dark, Taps};

/// The win chance the quick screen shows, once it shows one.
fn win_shown(session: &Session) -> String {
    session.wait_until("the odds on the quick roll", || {
        session.find("#quick-odds-win").ok().map(|e| e.text()).filter(|t| t.ends_with('%'))
    })
}

/// The set-ups of Wren's settled rolls in the database, oldest first.
fn settled_setups(conn: &rusqlite::Connection) -> Vec<Value> {
    let mut stmt = conn
        .prepare("SELECT payload FROM events WHERE kind = 'nsu_roll_resolved' AND character_id = ?1 ORDER BY seq")
        .expect("a query");
    stmt.query_map([WREN], |r| r.get::<_, String>(0))
        .expect("the rolls")
        .map(|p| serde_json::from_str::<Value>(&p.expect("a payload")).expect("JSON")["roll"]["roll"]["setup"].clone())
        .collect()
}

#[test]
fn a_skill_tapped_on_the_sheet_is_rolled_and_settled_in_three_taps_then_rolled_again() {
    let (_window, _scratch, db_path, session) = begin_rolling("nsu-quick-roll", &[]);
    open_sheet_of(&session, "Wren Ashdown");
    let mut taps = Taps::new(&session, tap);

    // 1. "River lore" (+2) tapped: one screen, the odds at once, before anything is rolled.
    taps.tap(".skill-line[data-line='1'] .skill-roll");
    wait_step(&session, "quick");
    let win = win_shown(&session);
    assert_eq!(
        session.execute("return document.getElementById('quick-skill').value;", json!([])),
        json!("existing:1"),
        "the skill tapped is chosen"
    );
    assert_eq!(
        session.execute("return document.getElementById('quick-mood-0').checked;", json!([])),
        json!(true),
        "the first mood (no roll yet)"
    );
    assert!(settled_setups(&db(&db_path)).is_empty(), "nothing rolled yet");
    wizard_shots(&session, "nsu-quick-roll");
    in_dark(&session, || wizard_shots(&session, "nsu-quick-roll-dark"));
    wait_step(&session, "quick");
    // On a phone the odds and Roll stay in sight while the choices further down change.
    crate::phone_width(&session);
    session.to_middle("#quick-sentiment");
    let in_sight = session.execute(
        "const r = document.getElementById('quick-odds-win').getBoundingClientRect(); \
         const b = document.getElementById('quick-roll').getBoundingClientRect(); \
         const scroller = document.getElementById('roll-body'); \
         const body = scroller.getBoundingClientRect(); \
         return scroller.scrollTop > 0 && r.top >= body.top - 1 && b.bottom <= innerHeight;",
        json!([]),
    );
    assert_eq!(in_sight, json!(true), "the odds and Roll are in sight with the sentiment");
    crate::desktop_width(&session);

    // 2. Roll: the dice, and the table's choices pre-selected. 3. Settle.
    taps.tap("#quick-roll");
    wait_step(&session, "choices");
    session.wait_text("#roll-next", "Settle the roll");
    wizard_shots(&session, "nsu-quick-roll-choices");
    taps.tap("#roll-next");
    session.wait_for("#roll-result");
    assert!(taps.count <= 3, "from the sheet to a settled result in {} taps", taps.count);
    assert_eq!(taps.count, 3);
    assert_eq!(text_of(&session, "#roll-result .roll-outcome-text"), "Wanted: — to be written");
    wizard_shots(&session, "nsu-quick-roll-result");
    let first = settled_setups(&db(&db_path));
    assert_eq!(first.len(), 1, "one roll settled");
    assert_eq!(first[0]["skill"], json!({"kind": "existing", "line": 1}));
    assert_eq!(first[0]["desired_outcome"], json!("— to be written"));

    // Roll again: the same set-up, rolled at once, settled with one more tap.
    tap(&session, "#roll-again");
    wait_step(&session, "choices");
    settle_through_its_screens(&session);
    let both = settled_setups(&db(&db_path));
    assert_eq!(both.len(), 2, "a second roll settled");
    assert_eq!(both[1], both[0], "with the same set-up");
    tap(&session, "#roll-done");
    session.wait_gone("#roll-wizard[open]");

    // The next roll, from the "Wary" mood: the mood tapped, the rest as the last roll left it.
    tap(&session, ".mood-line[data-line='2'] .roll-badge");
    wait_step(&session, "quick");
    let before = win_shown(&session);
    let checked = |id: &str| session.execute(&format!("return document.getElementById('{id}').checked;"), json!([]));
    assert_eq!(checked("quick-mood-2"), json!(true), "the mood tapped");
    assert_eq!(
        checked(&format!("quick-aspect-{}", both[1]["aspect"].as_str().unwrap())),
        json!(true),
        "the last aspect"
    );
    assert_eq!(checked(&format!("quick-at-risk-{}", both[1]["at_risk"].as_str().unwrap())), json!(true));
    assert_eq!(
        session.execute("return document.getElementById('quick-skill').value;", json!([])),
        json!("existing:1"),
        "the last roll's skill"
    );
    // Changing a choice changes the odds there and then.
    tap(&session, "#quick-adv-plus");
    let with_detail = session.wait_until("the odds with a detail for", || {
        session.find("#quick-odds-win").ok().map(|e| e.text()).filter(|t| t.ends_with('%') && *t != before)
    });
    tap(&session, "#quick-aspect-heart");
    session.wait_until("the odds with Heart (d4)", || {
        session.find("#quick-odds-win").ok().map(|e| e.text()).filter(|t| t.ends_with('%') && *t != with_detail)
    });
    assert_ne!(win, "", "the first odds were read");
    type_into(&session, "#quick-outcome", "Talk the ferryman round");
    tap(&session, "#quick-roll");
    wait_step(&session, "choices");
    settle_through_its_screens(&session);
    assert_eq!(text_of(&session, "#roll-result .roll-outcome-text"), "Wanted: Talk the ferryman round");
    let third = &settled_setups(&db(&db_path))[2];
    assert_eq!((third["aspect"].clone(), third["aspect_advantages"].clone()), (json!("heart"), json!(1)));
    assert_eq!(third["mood"], json!({"kind": "existing", "line": 2}));

    // The roll log: the two rolls whose outcome was left for later ask for it; one is written.
    tap(&session, "#roll-show-log");
    session.wait_for("#roll-log[open]");
    let forms = session.wait_until("the log's outcome forms", || {
        let n = session.find_all("#roll-log-list .roll-log-outcome").len();
        (n > 0).then_some(n)
    });
    assert_eq!(forms, 2, "the two rolls left 'to be written'");
    let input = session
        .wait_for("#roll-log-list .roll-log-outcome input")
        .attribute("id")
        .expect("the outcome field has an id");
    let field = format!("#{input}");
    tap(&session, &format!("{field}-save"));
    session.wait_until("why an empty outcome is refused", || {
        session
            .find("#roll-log-list .roll-log-outcome-status.roll-error")
            .ok()
            .map(|e| e.text())
            .filter(|t| t.contains("outcome: is empty"))
    });
    type_into(&session, &field, "Read the river's mood");
    shot_log(&session);
    tap(&session, &format!("{field}-save"));
    session.wait_text("#roll-log-list .roll-log-outcome-status", "Wren Ashdown wanted: “Read the river's mood”.");
    let wanted: Vec<String> = session.find_all("#roll-log-list .roll-log-wanted").iter().map(|e| e.text()).collect();
    assert_eq!(wanted, ["Talk the ferryman round", "Read the river's mood", "— to be written"], "newest first");
    let written: i64 = db(&db_path)
        .query_row("SELECT COUNT(*) FROM events WHERE kind = 'nsu_roll_outcome_written'", [], |r| r.get(0))
        .expect("count");
    assert_eq!(written, 1, "the outcome is in the log");
    assert_eq!(session.find_all("#roll-log-list .roll-log-outcome").len(), 1, "one still to write");
}

/// From the table's choices to the result, with the pre-selected choices. The app's dice may
/// have overloaded a mood in an earlier roll: acting with another mood then ends that overload,
/// and without a win the table picks a sentiment to mark (pre-selected) on a screen of its own.
fn settle_through_its_screens(session: &Session) {
    let heading = || session.find("#roll-body h3").map(|h| h.text()).unwrap_or_default();
    for _ in 0..4 {
        if session.find("#roll-result").is_ok() {
            return;
        }
        let was = heading();
        tap(session, "#roll-next");
        session.wait_until("the roll's next screen", || {
            (session.find("#roll-result").is_ok() || heading() != was).then_some(())
        });
    }
    session.wait_for("#roll-result");
}

/// The roll log with an outcome being written, at both widths.
fn shot_log(session: &Session) {
    crate::shots_at_both_widths(session, "nsu-quick-roll-log");
}

/// A table that rolls real dice (the game's preference): an aspect tapped opens the quick roll
/// with it chosen; Roll asks for the faces as they landed, Back returns to the one screen with
/// the set-up kept, and the faces typed in settle the roll they say.
#[test]
fn with_real_dice_the_quick_roll_asks_for_the_faces_and_back_returns_to_it() {
    let (_window, _scratch, _db_path, session) = begin_rolling("nsu-quick-roll-by-hand", &[]);
    let checked = |id: &str| session.execute(&format!("return document.getElementById('{id}').checked;"), json!([]));
    session.click("label[for='game-dice-by-hand']");
    session.wait_until("the preference to be saved", || (checked("game-dice-by-hand") == json!(true)).then_some(()));
    open_sheet_of(&session, "Wren Ashdown");

    tap(&session, "[data-focus-key='aspect-body-roll']");
    wait_step(&session, "quick");
    win_shown(&session);
    assert_eq!(checked("quick-aspect-body"), json!(true), "the aspect tapped");
    session.wait_text("#quick-roll", "Roll (type in the dice)");
    tap(&session, "#quick-roll");
    wait_step(&session, "roll");
    assert!(session.wait_for("#roll-hand").is_displayed(), "the faces are asked for");
    tap(&session, "#roll-back");
    wait_step(&session, "quick");
    assert_eq!(checked("quick-aspect-body"), json!(true), "the set-up is kept");

    tap(&session, "#quick-roll");
    wait_step(&session, "roll");
    submit_faces(&session, &[("#roll-die-aspect-1", "5"), ("#roll-die-mood-1", "2")]);
    wait_step(&session, "choices");
    tap(&session, "#roll-next");
    session.wait_for("#roll-result");
    // Body d6 5 against the Arbiters' Curious d8 2, the Character at risk.
    session.wait_text("#roll-winner", "The player wins by 3");
}
