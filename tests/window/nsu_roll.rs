//! The No Stone Unturned action roll wizard and the roll log, driven like a person: the game
//! comes in through the import dialog, every choice is a click, the dice are typed in by hand
//! so the result is known, and the database is checked after each roll.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::displays::Window;
use crate::fixtures::{db, moods, nsu_fixture, tobias_ready_to_help, write_game_file, TOBIAS, WREN};
use crate::nsu_sheet::mood_level;
use crate::webdriver::Session;
use crate::{
    begin, choose_file_in_native_dialog, click_in_character_row, open, open_game, shot, shots_at_both_widths, Scratch,
    OPEN_TITLE,
};

/// The fixture's game, with sheets ready for rolling: Wren's moods are calm (none
/// overloaded) and "Content" (d4) sits one box short of its last; Tobias gets a full sheet
/// so he can help. Wren carries the `harm` details given (four make her Overcome).
fn roll_game_file(path: &Path, harm: &[&str]) {
    let mut file = nsu_fixture();
    let characters = &mut file["data"]["games"][0]["characters"];
    assert_eq!(characters[0]["id"], WREN);
    characters[0]["nsu"]["moods"] = moods([("Curious", 3, false), ("Wary", 2, false), ("Content", 4, false)]);
    characters[0]["nsu"]["harm"] = json!(harm);
    assert_eq!(characters[1]["id"], TOBIAS);
    let tobias = &mut characters[1]["nsu"];
    tobias_ready_to_help(tobias);
    write_game_file(path, &file);
}

fn mood(conn: &rusqlite::Connection, character: &str, line: i64) -> (String, i64, bool) {
    conn.query_row(
        "SELECT name, level, overloaded FROM nsu_moods WHERE character_id = ?1 AND line = ?2",
        rusqlite::params![character, line],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .expect("read a mood")
}

fn body_box(conn: &rusqlite::Connection, character: &str, line: i64) -> bool {
    conn.query_row(
        "SELECT body_box FROM nsu_skills WHERE character_id = ?1 AND line = ?2",
        rusqlite::params![character, line],
        |r| r.get(0),
    )
    .expect("read a skill")
}

/// Scrolls `selector` into the middle of its scrolling box (the wizard's body scrolls under
/// its pinned Back/Next), as a person scrolls to it, then clicks it.
pub(crate) fn tap(session: &Session, selector: &str) {
    session.to_middle(selector);
    session.click(selector);
}

/// Types `text` into `selector` after scrolling to it and clicking it, as a person would.
pub(crate) fn type_into(session: &Session, selector: &str, text: &str) {
    let field = session.wait_for(selector);
    session.to_middle(selector);
    field.click();
    field.clear();
    field.send_keys(text);
}

/// Waits until the wizard shows `step` (its data-step, e.g. "odds").
pub(crate) fn wait_step(session: &Session, step: &str) {
    session.wait_until(&format!("the wizard's {step:?} step"), || {
        session.find(&format!("#roll-wizard[data-step='{step}']")).ok().map(|_| ())
    });
}

pub(crate) fn next(session: &Session) {
    session.click("#roll-next");
}

/// From the outcome step to the mood step: `outcome` typed, then the aspect `aspect` ("body",
/// "mind" or "heart") with `at_risk` ("character" or "world") at risk.
pub(crate) fn on_to_the_mood(session: &Session, outcome: &str, aspect: &str, at_risk: &str) {
    type_into(session, "#roll-outcome", outcome);
    next(session);
    wait_step(session, "aspect");
    session.click(&format!("#roll-aspect-{aspect}"));
    session.click(&format!("#roll-at-risk-{at_risk}"));
    next(session);
}

/// From the mood step, Next past the details to the odds step.
pub(crate) fn on_to_the_odds(session: &Session) {
    next(session);
    wait_step(session, "details");
    next(session);
    wait_step(session, "odds");
}

/// The chance to win the odds step shows (e.g. "58%"); None while it is being worked out.
fn shown_win_chance(session: &Session) -> Option<String> {
    session.find("#roll-odds-win").ok().map(|e| e.text()).filter(|t| t.ends_with('%'))
}

/// The chance to win the odds step shows, once it is worked out.
pub(crate) fn win_chance(session: &Session) -> String {
    session.wait_until("the win percentage", || shown_win_chance(session))
}

/// The chance to win once it is another than `before` (`what` changed it).
pub(crate) fn new_win_chance(session: &Session, what: &str, before: &str) -> String {
    session.wait_until(what, || shown_win_chance(session).filter(|t| t != before))
}

pub(crate) fn text_of(session: &Session, selector: &str) -> String {
    session.wait_for(selector).text()
}

/// Screenshots of the wizard at 1280 and 360 px wide, its body scrolled to the top.
pub(crate) fn wizard_shots(session: &Session, name: &str) {
    let top =
        "document.getElementById('roll-wizard').scrollTop = 0; document.getElementById('roll-body').scrollTop = 0;";
    let to_top = || {
        session.execute(top, json!([]));
    };
    crate::shots_at_both_widths_with(session, name, to_top, || {
        let overflow = session.execute(
            "const d = document.getElementById('roll-wizard'); return d.scrollWidth - d.clientWidth;",
            json!([]),
        );
        assert!(overflow.as_f64().unwrap_or(1.0) <= 0.0, "{name}: nothing sticks out sideways at 360 px ({overflow})");
    });
}

/// How the roll tests begin: `begin`, the game of `roll_game_file` (Wren carrying `harm`)
/// written to the test's folder and imported into the app started on its database, the game
/// open.
pub(crate) fn begin_rolling(name: &str, harm: &[&str]) -> (Window, Scratch, PathBuf, Session) {
    let (window, scratch, db_path) = begin(name);
    let file = scratch.path("roll.sheetkeeper.json");
    roll_game_file(&file, harm);
    let session = open_imported(&db_path, &file);
    (window, scratch, db_path, session)
}

/// Starts the app, imports `file` through the Import button and opens its game.
pub(crate) fn open_imported(db_path: &Path, file: &Path) -> Session {
    imported_into(open(db_path), file)
}

/// Imports `file` (the NSU game) through the Import button of `session` and opens its game.
pub(crate) fn imported_into(session: Session, file: &Path) -> Session {
    session.click("#import-button");
    choose_file_in_native_dialog(OPEN_TITLE, file, false);
    session.wait_for("#import-dialog");
    session.click("#import-confirm");
    session.wait_gone("#import-dialog");
    open_game(&session, "Lanterns over Brackwater");
    session
}

fn open_wizard(session: &Session, name: &str) {
    click_in_character_row(session, name, ".character-roll");
    session.wait_for("#roll-wizard");
}

/// (b) Body with one detail for the character and a skill, Character at risk, the dice typed
/// in; the wizard is closed with the dice on the table and reopened at the choices; Tobias
/// helps with a 2 that the player uses. The odds are shown first; the result is a win by 4
/// and the sheet changes are in the database.
/// (c) Mind, World at risk, with "Content" (d4, level 4): the increment fills its last box,
/// the player (the winner) renames it, and the new name is on the result and in the database.
/// (d) The game's roll log lists both rolls; the second is undone from the result and shown
/// struck through as "(undone)".
/// Roll (c): Wren acts with Content (d4, one box from full) with the World at risk, dice typed
/// in (Mind 3, mood 4), no help, default choices; the wizard then asks for the final box.
fn roll_that_fills_the_last_box(session: &Session) {
    open_wizard(session, "Wren Ashdown");
    wait_step(session, "outcome");
    on_to_the_mood(session, "Talk the ferryman down", "mind", "world");
    session.click("#roll-mood-4");
    on_to_the_odds(session);
    session.wait_for("#roll-odds-win");
    next(session);
    session.click("#roll-by-hand");
    type_into(session, "#roll-die-aspect-1", "3");
    type_into(session, "#roll-die-mood-1", "4");
    session.click("#roll-hand-submit");
    wait_step(session, "help");
    next(session);
    wait_step(session, "choices");
    next(session);
}

#[test]
fn action_rolls_with_help_and_a_final_box_then_the_log_and_undo() {
    let (_window, _scratch, db_path, session) = begin_rolling("nsu-roll", &["Sprained ankle", "Smoke in the lungs"]);

    // ---- (b) a roll with aspect advantage and a helper ----
    open_wizard(&session, "Wren Ashdown");
    wait_step(&session, "outcome");
    next(&session);
    assert!(text_of(&session, "#roll-error").contains("wants to happen"), "the outcome is required");
    type_into(&session, "#roll-outcome", "Pry the mill gate open");
    next(&session);
    wait_step(&session, "aspect");
    assert!(text_of(&session, "#roll-body").contains("Arbiters"), "the Arbiters choose here");
    assert!(text_of(&session, "label[for='roll-aspect-body']").contains("d6"), "each aspect shows its die");
    session.click("#roll-aspect-body");
    session.click("#roll-at-risk-character");
    next(&session);
    wait_step(&session, "mood");
    assert!(text_of(&session, "#roll-body").contains("goes up by one"));
    session.click("#roll-mood-0");
    next(&session);
    wait_step(&session, "details");
    session.click("#roll-adv-plus");
    session.wait_until("the net after cancelling", || {
        text_of(&session, "#roll-aspect-net").contains("advantage").then_some(())
    });
    // The details that count are listed above the skill: scroll down to it, as a person would.
    session.execute("document.getElementById('roll-skill').scrollIntoView({ block: 'center' });", json!([]));
    session.click("#roll-skill option[value='existing:2']");
    session.wait_until("the live odds on the details step", || {
        text_of(&session, "#roll-odds-mini").contains("Win").then_some(())
    });
    next(&session);
    wait_step(&session, "odds");
    let win = win_chance(&session);
    for id in ["#roll-odds-tie", "#roll-odds-lose"] {
        assert!(text_of(&session, id).ends_with('%'), "{id} shows a percentage");
    }
    let bars = session.find_all("#roll-odds-chart .roll-bar-col");
    // Body d6 + skill 1 (2 to 7) against a d8: margins from −6 to +6.
    assert_eq!(bars.len(), 13, "one bar per margin value");
    assert!(bars.iter().all(|b| b.attribute("aria-label").is_some_and(|l| l.contains('%'))), "every bar is labelled");
    // A helper's die changes the odds at once.
    session.click("#roll-helper-die option[value='d4']");
    new_win_chance(&session, "the odds with a helper's d4", &win);
    session.click("#roll-helper-die option[value='']");
    session.wait_until("the odds without help again", || shown_win_chance(&session).filter(|t| *t == win));
    wizard_shots(&session, "nsu-roll-odds");
    next(&session);
    wait_step(&session, "roll");
    session.click("#roll-by-hand");
    type_into(&session, "#roll-die-aspect-1", "2");
    type_into(&session, "#roll-die-aspect-2", "5");
    type_into(&session, "#roll-die-mood-1", "5");
    session.click("#roll-hand-submit");
    wait_step(&session, "help");

    // The dice stay on the table when the wizard closes; reopening goes to the choices.
    session.click("#roll-close");
    session.wait_gone("#roll-wizard");
    open_wizard(&session, "Wren Ashdown");
    wait_step(&session, "choices");
    assert!(text_of(&session, "#roll-table").contains("2 and 5"), "the dice on the table are shown");
    session.click("#roll-back");
    wait_step(&session, "help");
    session.click("#help-where-here");
    session.click(&format!("#help-character option[value='{TOBIAS}']"));
    session.wait_for("#help-mood");
    session.click("#help-mood option[value='2']");
    type_into(&session, "#help-die", "2");
    session.click("#help-enter");
    session.wait_for("#roll-help-done");
    next(&session);
    wait_step(&session, "choices");
    let choices = text_of(&session, "#roll-choices");
    assert!(choices.contains("the player chooses (advantage)"), "who chooses the aspect die: {choices:?}");
    assert_eq!(
        session.execute("return document.getElementById('choice-aspect-1').checked;", json!([])),
        json!(true),
        "the 5 is pre-selected for the player"
    );
    assert_eq!(
        session.execute("return document.getElementById('choice-helper-die').checked;", json!([])),
        json!(true),
        "the helper's lower die is pre-selected when the Character is at risk"
    );
    assert!(choices.contains("Tobias Reed"), "the helper's die is offered: {choices:?}");
    // Under the rules hints, what each way of counting comes to (issue 34): the 5 + 1 against
    // Tobias's 2 as pre-selected; the 2 kept instead, or the skill subtracted, win by less.
    session.wait_text("#roll-kept-now", "With these choices: the player wins by 4 (6 against 2).");
    assert_eq!(text_of(&session, "#choice-aspect-0-result"), "→ the player wins by 1 (3 against 2)");
    assert_eq!(text_of(&session, "#choice-aspect-1-result"), "→ the player wins by 4 (6 against 2)");
    assert_eq!(text_of(&session, "#choice-skill-minus-result"), "→ the player wins by 2 (4 against 2)");
    tap(&session, "#choice-aspect-0");
    session.wait_text("#roll-kept-now", "With these choices: the player wins by 1 (3 against 2).");
    assert_eq!(text_of(&session, "#choice-skill-minus-result"), "→ the Arbiters win by 1 (1 against 2)");
    tap(&session, "#choice-aspect-1");
    session.wait_text("#roll-kept-now", "With these choices: the player wins by 4 (6 against 2).");
    wizard_shots(&session, "nsu-roll-choices");
    next(&session);
    let result = session.wait_for("#roll-result");
    session.wait_text("#roll-winner", "The player wins by 4");
    // Settle is gone with the step: the focus is on the result's heading, not the page's body.
    let focused = session.execute("return document.activeElement?.id ?? null;", json!([]));
    assert_eq!(focused, json!("roll-winner"), "the settled roll's heading has the focus");
    let grants = text_of(&session, "#roll-grants");
    assert!(grants.contains("Player adds one hard detail"), "{grants:?}");
    assert!(grants.contains("An ally adds one hard detail"), "{grants:?}");
    assert!(result.text().contains("A hard detail may be a scene or soft detail instead"));
    let events = text_of(&session, "#roll-events");
    assert!(events.contains("Curious") && events.contains("3 → 4"), "{events:?}");
    assert!(events.contains("Body box is marked"), "{events:?}");
    assert!(events.contains("Tobias Reed") && events.contains("1 → 2"), "{events:?}");
    wizard_shots(&session, "nsu-roll-result");

    let conn = db(&db_path);
    assert_eq!(mood(&conn, WREN, 0), ("Curious".into(), 4, false), "Wren's mood went up by one");
    assert!(body_box(&conn, WREN, 2), "Bargaining's Body box is marked");
    assert_eq!(mood(&conn, TOBIAS, 2), ("Stubborn".into(), 2, false), "the helper's mood went up too");

    // A harm detail written from the result, then taken back with Undo.
    session.click("#roll-write-detail");
    session.click("#detail-kind option[value='harm']");
    type_into(&session, "#detail-text", "Splinter in the palm");
    session.click("#detail-save");
    session.wait_for("#roll-notice-undo");
    let harm = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row("SELECT COUNT(*) FROM nsu_details WHERE character_id = ?1 AND kind = 'harm'", [WREN], |r| {
            r.get(0)
        })
        .expect("count harm")
    };
    assert_eq!(harm(&conn), 3, "the harm detail is on the sheet");
    session.click("#roll-notice-undo");
    session.wait_until("the detail to be taken back", || (harm(&conn) == 2).then_some(()));
    session.click("#roll-done");
    session.wait_gone("#roll-wizard");

    // ---- (c) the last box filled, and renamed by the winner ----
    roll_that_fills_the_last_box(&session);
    let name = session.wait_for("#final-box-name");
    assert!(
        text_of(&session, "#roll-body").contains("The winning side (the player) names the mood’s more intense form")
    );
    name.click();
    name.send_keys("Serene Resolve");
    session.click("#final-box-sentiment option[value='0']");
    next(&session);
    session.wait_for("#roll-result");
    session.wait_text("#roll-winner", "The player wins by 1");
    let events = text_of(&session, "#roll-events");
    // The full track overloaded the mood; the reset to 0 ends that overload and says so.
    assert!(events.contains("evolved into “Serene Resolve”"), "{events:?}");
    assert!(events.contains("its overload ended"), "{events:?}");
    assert!(events.contains("My brother Aled"), "the marked sentiment is named: {events:?}");
    let grants = text_of(&session, "#roll-grants");
    assert!(grants.contains("An ally adds a hard negative detail against the winner"), "{grants:?}");
    let (renamed, level, overloaded) = mood(&conn, WREN, 4);
    assert_eq!((renamed.as_str(), level, overloaded), ("Serene Resolve", 0, false), "renamed, level 0, not overloaded");

    // The World was at risk: a scene detail written on a location ticks its collateral clock.
    const LIBRARY: &str = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d";
    let clock = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row("SELECT collateral FROM nsu_locations WHERE id = ?1", [LIBRARY], |r| r.get(0)).expect("clock")
    };
    let before = clock(&conn);
    session.click("#roll-write-detail");
    session.click("#detail-kind option[value='scene']");
    session.wait_for(&format!("#detail-location option[value='{LIBRARY}']")).click();
    type_into(&session, "#detail-text", "The ferry rope snaps");
    session.click("#detail-save");
    session.wait_until("the scene detail noted", || {
        session.find("#roll-notice").ok().filter(|n| n.text().contains("collateral clock ticked")).map(|_| ())
    });
    assert_eq!(clock(&conn), before + 1, "the location's collateral clock ticked");
    let written: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM nsu_scene_details WHERE location_id = ?1 AND text = 'The ferry rope snaps'",
            [LIBRARY],
            |r| r.get(0),
        )
        .expect("scene details");
    assert_eq!(written, 1);

    // ---- (d) undo the last roll, and the log ----
    session.click("#roll-undo");
    session.wait_until("the roll to be undone", || {
        session.find("#roll-notice").ok().filter(|n| n.is_displayed() && n.text().contains("undone")).map(|_| ())
    });
    assert_eq!(mood(&conn, WREN, 4), ("Content".into(), 4, false), "the undone roll left the sheet as it was");
    session.click("#roll-close");
    session.wait_gone("#roll-wizard");
    // The game's Roll log button opens the NSU screen on its Log tab.
    session.click("#game-roll-log");
    session.wait_for("#nsu-log");
    assert_eq!(session.wait_for("#nsu-tab-log").attribute("aria-current").as_deref(), Some("page"));
    let entries = session.wait_until("two rolls in the log", || {
        let entries = session.find_all(".roll-log-entry");
        (entries.len() == 2).then_some(entries)
    });
    let newest = entries[0].text();
    assert!(newest.contains("Talk the ferryman down") && newest.contains("(undone)"), "{newest:?}");
    assert!(entries[0].attribute("class").unwrap_or_default().contains("undone"));
    let first = entries[1].text();
    assert!(first.contains("Pry the mill gate open") && first.contains("helped by Tobias Reed"), "{first:?}");
    assert!(first.contains("The player wins by 4") && !first.contains("(undone)"), "{first:?}");
    let through = session.execute(
        "return getComputedStyle(document.querySelector('.roll-log-entry.undone')).textDecorationLine;",
        json!([]),
    );
    assert_eq!(through, json!("line-through"), "an undone roll is struck through");
    shots_at_both_widths(&session, "nsu-roll-log");

    // ---- (e) an NPC made in the world view takes a detail written from a roll's result ----
    session.click("#nsu-tab-world");
    session.wait_for("#world-npcs");
    type_into(&session, "#npc-name", "Old Maud");
    session.click("#npc-add");
    session.wait_until("the NPC to be listed", || {
        // The fixture's world has NPCs of its own: Old Maud is one of the list.
        session.find_all("#world-npcs .npc").iter().any(|n| n.text().contains("Old Maud")).then_some(())
    });
    let maud: String =
        conn.query_row("SELECT id FROM nsu_npcs WHERE name = 'Old Maud'", [], |r| r.get(0)).expect("the NPC is stored");
    session.click("#nsu-back");
    session.wait_until("the world screen to close", || {
        session.find("#nsu-screen").ok().filter(|s| !s.is_displayed()).map(|_| ())
    });
    // Roll (c) again, as it was before it was undone.
    roll_that_fills_the_last_box(&session);
    type_into(&session, "#final-box-name", "Serene Resolve");
    session.click("#final-box-sentiment option[value='0']");
    next(&session);
    session.wait_for("#roll-result");
    session.click("#roll-write-detail");
    session.click("#detail-kind option[value='npc']");
    session.wait_for(&format!("#detail-npc option[value='{maud}']")).click();
    session.click("#detail-npc-sign option[value='positive']");
    type_into(&session, "#detail-text", "Owes Wren a crossing");
    session.click("#detail-save");
    session.wait_until("the NPC detail noted", || {
        session.find("#roll-notice").ok().filter(|n| n.text().contains("on Old Maud")).map(|_| ())
    });
    let npc_details = |conn: &rusqlite::Connection| -> Vec<(String, bool)> {
        let mut stmt =
            conn.prepare("SELECT text, positive FROM nsu_npc_details WHERE npc_id = ?1 ORDER BY position").unwrap();
        stmt.query_map([&maud], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().collect::<Result<_, _>>().unwrap()
    };
    assert_eq!(npc_details(&conn), [("Owes Wren a crossing".to_string(), true)], "the detail is on the NPC");
    session.click("#roll-notice-undo");
    session.wait_until("the NPC detail to be taken back", || npc_details(&conn).is_empty().then_some(()));
    session.click("#roll-done");
    session.wait_gone("#roll-wizard");
}

/// An Overcome character (four harm details) gets the core's reason instead of odds, and no
/// way to roll.
#[test]
fn overcome_character_sees_why_and_cannot_roll() {
    let (_window, _scratch, _db_path, session) =
        begin_rolling("nsu-roll-overcome", &["Sprained ankle", "Smoke in the lungs", "Cracked rib", "Twisted knee"]);

    open_wizard(&session, "Wren Ashdown");
    assert!(text_of(&session, "#roll-overcome").contains("Overcome"), "the first step already says so");
    on_to_the_mood(&session, "Climb out of the well", "body", "world");
    session.click("#roll-mood-0");
    on_to_the_odds(&session);
    let why = text_of(&session, "#roll-cannot");
    assert!(why.contains("Overcome") && why.contains("cannot make action rolls"), "the core's message: {why:?}");
    assert!(session.find("#roll-odds-win").is_err(), "no odds for a roll that cannot happen");
    assert!(!session.find("#roll-next").is_ok_and(|n| n.is_displayed()), "no way on to the dice");
    session.click("#roll-close");
    session.wait_gone("#roll-wizard");

    // The sheet screen opens the same wizard.
    click_in_character_row(&session, "Wren Ashdown", ".character-open");
    session.wait_for("#sheet-view");
    session.click("#sheet-roll");
    session.wait_for("#roll-overcome");
    session.click("#roll-close");
    session.wait_gone("#roll-wizard");
    session.wait_for("#sheet-view");
}

/// Every visible leaf control or text inside `scope` that overlaps another one, or sticks out
/// of the viewport sideways, as "a / b" lines (empty when the layout is clean).
fn overlaps(session: &Session, scope: &str) -> Vec<String> {
    let script = r#"
        const items = [...document.querySelectorAll(arguments[0])].flatMap((root) =>
          [...root.querySelectorAll('button, input, select, textarea, label, .slot-text, p, legend')]);
        // What shows of each: its box clipped by every scrolling or clipping box around it.
        const shown = (e) => {
          const b = e.getBoundingClientRect();
          let r = { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
          for (let a = e.parentElement; a; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
            const c = a.getBoundingClientRect();
            r = { left: Math.max(r.left, c.left), right: Math.min(r.right, c.right), top: Math.max(r.top, c.top), bottom: Math.min(r.bottom, c.bottom) };
          }
          return { ...r, width: r.right - r.left, height: r.bottom - r.top, outer: b };
        };
        const boxes = items.map((e) => [e, shown(e)])
          .filter(([e, r]) => r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden');
        const out = [];
        const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${e.className} "${(e.textContent || e.value || '').trim().slice(0, 30)}"`;
        for (const [e, r] of boxes) {
          if (r.outer.right > window.innerWidth + 0.5 || r.outer.left < -0.5) out.push(`${name(e)} sticks out (${r.outer.left}..${r.outer.right})`);
        }
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const [a, ra] = boxes[i];
            const [b, rb] = boxes[j];
            if (a.contains(b) || b.contains(a)) continue;
            const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
            const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
            if (x > 1 && y > 1) out.push(`${name(a)} / ${name(b)}`);
          }
        }
        return out;"#;
    let found = session.execute(script, json!([scope]));
    found.as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect()).unwrap_or_default()
}

/// Opens `name`'s sheet from the game's character list (the import's message dismissed first).
pub(crate) fn open_sheet_of(session: &Session, name: &str) {
    crate::dismiss_toast(session);
    click_in_character_row(session, name, ".character-open");
    session.wait_for("#sheet-view");
}

fn at_width(session: &Session, width: u32) {
    session.set_window_size(width, 800);
    session.wait_until("the window's new width", || {
        let w = session.inner_width();
        (if width <= 400 { w <= f64::from(width) } else { w > 720.0 }).then_some(())
    });
}

/// A roll started by tapping a mood on the sheet and taken step by step, helped by someone on another device whose
/// die (d8 with advantage, faces 6 and 2) is typed in; the X-card opens from inside the wizard
/// and from the roll log. Run at 1280 and at 360 px.
#[test]
fn a_roll_from_the_sheet_with_a_helper_typed_in_and_the_x_card_inside_the_wizard() {
    for width in [1280, 360] {
        let (_window, _scratch, db_path, session) =
            begin_rolling(&format!("nsu-roll-elsewhere-{width}"), &["Sprained ankle"]);
        open_sheet_of(&session, "Wren Ashdown");
        at_width(&session, width);
        // The import's message is dismissed, as a person would before playing.
        crate::dismiss_toast(&session);
        shot(&session, &format!("nsu-sheet-landing-{width}"));

        // Tapping the "Wary" mood's die starts a quick roll with it filled in; "Step by step"
        // walks the wizard through the same set-up.
        session.click(".mood-line[data-line='2'] .roll-badge");
        wait_step(&session, "quick");
        tap(&session, "#quick-steps");
        wait_step(&session, "outcome");
        assert!(text_of(&session, "#roll-progress").contains("Wary"), "the mood tapped is named");
        on_to_the_mood(&session, "Cross the rotten bridge", "body", "character");
        wait_step(&session, "mood");
        assert_eq!(
            session.execute("return document.getElementById('roll-mood-2').checked;", json!([])),
            json!(true),
            "the mood from the sheet is chosen"
        );
        on_to_the_odds(&session);
        let win = win_chance(&session);
        session.click("#roll-helper-die option[value='d8']");
        let plain = new_win_chance(&session, "the odds with a d8 helper", &win);
        session.click("#roll-helper-edge option[value='advantage']");
        new_win_chance(&session, "the odds with the helper's advantage", &plain);
        next(&session);
        wait_step(&session, "roll");
        tap(&session, "#roll-by-hand");
        assert!(text_of(&session, "#roll-hand").contains("the Arbiters’ die"), "the Arbiters' die is named");
        type_into(&session, "#roll-die-aspect-1", "3");
        type_into(&session, "#roll-die-mood-1", "5");
        tap(&session, "#roll-hand-submit");
        wait_step(&session, "help");
        tap(&session, "#help-where-elsewhere");
        type_into(&session, "#help-name", "Ines");
        session.click("#help-die-size option[value='d8']");
        session.click("#help-edge option[value='advantage']");
        type_into(&session, "#help-face-1", "6");
        type_into(&session, "#help-face-2", "2");
        if width == 360 {
            let bad = overlaps(&session, "#roll-wizard");
            assert!(bad.is_empty(), "the help step at 360 px: {bad:#?}");
        }
        shot(&session, &format!("nsu-roll-help-elsewhere-{width}"));
        crate::assert_selects_fit(&session, &format!("the help step at {width} px"));
        tap(&session, "#help-enter");
        let done = text_of(&session, "#roll-help-done");
        assert!(done.contains("Ines") && done.contains("6 and 2"), "{done:?}");

        // The X-card from inside the wizard, over it; closing it leaves the roll where it was.
        tap(&session, "#roll-wizard > .xcard-in-dialog");
        session.wait_until("the X-card over the wizard", || {
            session.find("#xcard-overlay[open]").ok().filter(|e| e.is_displayed()).map(|_| ())
        });
        shot(&session, &format!("nsu-roll-xcard-{width}"));
        session.click("#xcard-close");
        session.wait_gone("#xcard-overlay[open]");
        wait_step(&session, "help");

        next(&session);
        wait_step(&session, "choices");
        for (id, want) in [("choice-helper-1", true), ("choice-helper-die", true)] {
            let checked = session.execute(&format!("return document.getElementById('{id}').checked;"), json!([]));
            assert_eq!(checked, json!(want), "{id}: the player keeps the 2 and uses it");
        }
        let nav_bottom = session.execute(
            "const d = document.getElementById('roll-wizard').getBoundingClientRect();
             const n = document.getElementById('roll-next').getBoundingClientRect();
             return [n.bottom, Math.min(d.bottom, window.innerHeight)];",
            json!([]),
        );
        let (n, d) = (nav_bottom[0].as_f64().unwrap(), nav_bottom[1].as_f64().unwrap());
        assert!(n <= d + 0.5, "Next is inside the visible dialog ({n} > {d})");
        shot(&session, &format!("nsu-roll-choices-elsewhere-{width}"));
        next(&session);
        session.wait_for("#roll-result");
        // Body d6 showing 3 against the helper's kept 2: the player wins by 1.
        session.wait_text("#roll-winner", "The player wins by 1");
        shot(&session, &format!("nsu-roll-result-elsewhere-{width}"));
        let conn = db(&db_path);
        assert_eq!(mood(&conn, WREN, 2), ("Wary".to_owned(), 3, false), "Wren's own mood goes up");
        assert_eq!(mood(&conn, TOBIAS, 2).1, 1, "nobody else's sheet changes here");
        let payload: String = conn
            .query_row("SELECT payload FROM events WHERE kind = 'nsu_roll_resolved'", [], |r| r.get(0))
            .expect("the settled roll is logged");
        assert!(payload.contains("\"Ines\"") && payload.contains("\"advantage\""), "the typed-in help is in the log");
        session.click("#roll-close");
        session.wait_gone("#roll-wizard[open]");

        // The roll log from the sheet, with its own X-card.
        // The Log tab of the sheet's screen: this character's rolls, the X-card over it.
        tap(&session, "#nsu-tab-log");
        session.wait_until("the roll log", || session.find("#nsu-log-list li").ok().map(|_| ()));
        assert!(text_of(&session, "#nsu-log-list").contains("Ines"), "the log names the helper");
        assert_eq!(session.wait_for("#nsu-log-mine").attribute("aria-pressed").as_deref(), Some("true"));
        shot(&session, &format!("nsu-log-tab-{width}"));
        tap(&session, "#xcard");
        session.wait_until("the X-card over the log", || {
            session.find("#xcard-overlay[open]").ok().filter(|e| e.is_displayed()).map(|_| ())
        });
        session.click("#xcard-close");
        session.wait_gone("#xcard-overlay[open]");
        tap(&session, "#nsu-tab-sheet");
        session.wait_for("#sheet-body");
    }
}

/// "I helped with…" on the helper's own device: Tobias helped Ines (elsewhere) with "Stubborn"
/// (d6, level 1 → 2); the change is one undoable step. Harm rows at 360 px do not overlap.
#[test]
fn i_helped_with_on_the_helpers_sheet_and_harm_rows_at_360() {
    let (_window, _scratch, db_path, session) =
        begin_rolling("nsu-helped", &["Sprained ankle", "Smoke in the lungs", "Cut palm", "Shaken to the core"]);
    open_sheet_of(&session, "Tobias Reed");
    session.click("#sheet-helped");
    session.wait_for("#helped-dialog[open]");
    type_into(&session, "#helped-roll", "Ines, climbing the tower");
    session.click("#helped-mood option[value='2']");
    type_into(&session, "#helped-face-1", "4");
    session.click("#helped-winner-player");
    shot(&session, "nsu-helped-with-1280");
    session.click("#helped-save");
    session.wait_gone("#helped-dialog[open]");
    session.wait_until("the sheet's new level", || mood_level(&session, 2).starts_with("Level 2").then_some(()));
    let conn = db(&db_path);
    assert_eq!(mood(&conn, TOBIAS, 2), ("Stubborn".to_owned(), 2, false));
    assert_eq!(mood(&conn, WREN, 2).1, 2, "only the helper's sheet changes");
    let kind: String = conn
        .query_row("SELECT kind FROM events WHERE character_id = ?1 ORDER BY seq DESC LIMIT 1", [TOBIAS], |r| r.get(0))
        .expect("the latest event");
    assert_eq!(kind, "nsu_helped");

    // Wren is Overcome: four harm rows at 360 px, none overlapping.
    session.click("#nsu-back");
    open_sheet_of(&session, "Wren Ashdown");
    session.wait_until("Wren's sheet", || {
        session.find("#nsu-screen-heading").ok().filter(|h| h.text().starts_with("Wren Ashdown")).map(|_| ())
    });
    at_width(&session, 360);
    session.execute("document.querySelector('.sheet-details').scrollIntoView();", json!([]));
    let bad = overlaps(&session, ".harm");
    assert!(bad.is_empty(), "harm rows at 360 px: {bad:#?}");
    let bad = overlaps(&session, "#sheet-body");
    assert!(bad.is_empty(), "the sheet at 360 px: {bad:#?}");
    shot(&session, "nsu-sheet-overcome-360");
    assert!(session.find("#sheet-strip").is_ok_and(|s| s.is_displayed()), "the summary strip shows on a phone");
    assert!(text_of(&session, "#sheet-strip").contains("Harm 4/4"));
    at_width(&session, 1280);
    shot(&session, "nsu-sheet-overcome-1280");
}
