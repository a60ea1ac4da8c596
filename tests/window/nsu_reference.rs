//! The No Stone Unturned reference card (from the sheet and over the roll wizard), the
//! complication table shown before its d6, the downtime dice that follow the character's own
//! dice, the scope's guiding questions and the creation wizard's words, driven like a person.

use serde_json::{json, Value};
use sheetkeeper::rules::nsu::downtime::PhaseSetup;
use sheetkeeper::services::{self, ImportOptions};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::displays::Window;
use crate::fixtures::{moods, nsu_fixture, write_game_file, TOBIAS, WREN};
use crate::mezzo::wait_contains;
use crate::nsu_world::shots_of;
use crate::webdriver::{Session, ESCAPE};
use crate::{
    back_home, begin, click_in_character_row, create_character, new_game, open, open_game, shot, shots_at_both_widths,
    Scratch,
};

const GAME: &str = "Lanterns over Brackwater";

/// The window (`begin` as `name`) opened on the fixture's game (an older game: one scope
/// question of its own): Wren's Body is a d4; Tobias is finished with Heart on a d8 and two
/// skills. With `downtime`, both rest at home after leaving the Library (3 collateral ticks),
/// its complication not rolled yet. The display's guard, the folder and the window.
fn seeded(name: &str, downtime: bool) -> (Window, Scratch, Session) {
    let (window, scratch, db) = begin(name);
    let mut file = nsu_fixture();
    let game = &mut file["data"]["games"][0];
    assert_eq!(game["characters"][0]["id"], WREN);
    game["characters"][0]["nsu"]["aspects"] = json!({"body": "d4", "mind": "d8", "heart": "d6"});
    game["characters"][0]["nsu"]["harm"] = json!([]);
    game["characters"][0]["nsu"]["moods"] = moods([("Curious", 1, false), ("Wary", 0, false), ("Content", 0, false)]);
    assert_eq!(game["characters"][1]["id"], TOBIAS);
    let tobias = &mut game["characters"][1]["nsu"];
    tobias["aspects"] = json!({"body": "d6", "mind": "d4", "heart": "d8"});
    tobias["moods"] = moods([("Eager", 0, false), ("Stubborn", 1, false), ("Calm", 0, false)]);
    tobias["skills"] = json!([
        {"name": "Carpentry", "modifier": 1, "boxes": {"body": false, "mind": false, "heart": false}},
        null,
        {"name": "Fishing", "modifier": 1, "boxes": {"body": false, "mind": false, "heart": false}},
        null, null, null
    ]);
    tobias["sentiments"] = json!([{"name": "His sister", "state": "connected"}, null, null]);
    let id = Uuid::parse_str(game["id"].as_str().expect("the game's id")).expect("a uuid");
    let path = scratch.path("game.sheetkeeper.json");
    write_game_file(&path, &file);
    let mut store = Store::open(&db).expect("the database");
    services::import(&mut store, &path, ImportOptions::default()).expect("the game imports");
    if downtime {
        let who = [WREN, TOBIAS].map(|c| Uuid::parse_str(c).expect("a uuid"));
        // The fixture's party is at the Library: coming home, its complication is rolled first.
        let setup = PhaseSetup { at_home: true, time_units: 0 };
        services::nsu_downtime_start(&mut store, id, &who, setup).expect("downtime starts");
    }
    drop(store);
    (window, scratch, open(&db))
}

/// Opens the seeded game and Wren's sheet.
fn wren_sheet(session: &Session) {
    open_game(session, GAME);
    click_in_character_row(session, "Wren Ashdown", ".character-open");
    session.wait_for("#sheet-body");
    session.wait_settled();
}

/// The id of the focused element.
fn focused(session: &Session) -> Value {
    session.execute("return document.activeElement && document.activeElement.id;", json!([]))
}

/// True while the dialog `id` is open.
fn is_open(session: &Session, id: &str) -> bool {
    session.execute("return document.getElementById(arguments[0])?.open === true;", json!([id])) == json!(true)
}

fn wait_closed(session: &Session, id: &str) {
    session.wait_until(&format!("{id} to close"), || (!is_open(session, id)).then_some(()));
}

use crate::dismiss_toast_unless_dialog as dismiss_toast;

/// The accessible names of the dice boxes under `selector`.
fn dice_labels(session: &Session, selector: &str) -> Value {
    session.execute(
        "return [...document.querySelectorAll(arguments[0] + ' .die-input')].map((i) => [i.getAttribute('aria-label'), i.max]);",
        json!([selector]),
    )
}

/// The card opens from the sheet folded into its sections; it says plainly that a win by 1
/// still marks a risked sentiment; closing it gives the focus back to "Rules". Over the roll
/// wizard it opens as a second dialog, and Escape leaves the wizard as it was. Opened for a
/// roll, the results table shows that roll's row. Screenshots in light and dark.
#[test]
fn reference_card_opens_from_the_sheet_and_over_the_roll_and_gives_the_focus_back() {
    let (_window, _scratch, session) = seeded("nsu-reference", false);
    wren_sheet(&session);

    session.click("#sheet-reference");
    session.wait_until("the reference card", || is_open(&session, "nsu-reference").then_some(()));
    let sections = session.execute(
        "return [...document.querySelectorAll('#reference-body > details')].map((d) => [d.dataset.section, d.open]);",
        json!([]),
    );
    let names: Vec<&str> = sections.as_array().unwrap().iter().map(|s| s[0].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "steps",
            "sides",
            "results",
            "details",
            "when",
            "overload",
            "sentiment",
            "levels",
            "complications",
            "agenda",
            "creation"
        ]
    );
    assert!(sections.as_array().unwrap().iter().all(|s| s[1] == json!(false)), "all folded: {sections}");
    assert!(session.find("#nsu-reference .xcard-in-dialog").is_ok(), "the X-card is in the card too");

    session.click("#ref-sentiment > summary");
    let note = session.wait_for("#ref-sentiment-note").text();
    assert!(note.contains("a win by 1 still marks it"), "the departure from the printed sheet is said: {note:?}");
    session.click("#ref-sides > summary");
    let sides = session.wait_for("#ref-sides-table").text();
    assert!(sides.contains("Mood die higher") && sides.contains("Character at risk"), "the 2×2 table: {sides:?}");
    session.click("#ref-results > summary");
    let rows = session.execute(
        "return [...document.querySelectorAll('#ref-results-table tbody tr')].map((r) => r.cells[0].textContent);",
        json!([]),
    );
    assert_eq!(rows, json!(["0", "1", "2", "3", "4", "5+"]));
    assert!(session.find("#ref-results-table tr.current").is_err(), "no row marked without a roll");
    session.click("#ref-levels > summary");
    let levels = session.wait_for("#ref-levels").text();
    assert!(levels.contains("D4") && levels.contains("R1"), "danger and reward levels: {levels:?}");
    shots_of(&session, "nsu-reference-light", "#ref-results");

    session.click("#reference-close");
    wait_closed(&session, "nsu-reference");
    assert_eq!(focused(&session), json!("sheet-reference"), "the focus is back on the button that opened it");

    // Over the roll wizard: a dialog over a dialog.
    session.click("#sheet-roll");
    session.wait_until("the roll wizard", || is_open(&session, "roll-wizard").then_some(()));
    session.wait_settled();
    shots_at_both_widths(&session, "nsu-reference-roll-head");
    session.click("#roll-reference");
    session.wait_until("the reference card over the wizard", || is_open(&session, "nsu-reference").then_some(()));
    session.wait_for("#reference-close").send_keys(ESCAPE);
    wait_closed(&session, "nsu-reference");
    assert!(is_open(&session, "roll-wizard"), "the wizard stays where it was");
    assert_eq!(focused(&session), json!("roll-reference"));

    // A roll settled: Mind 7 against Curious 4 with the Character at risk, a win by 3. Its
    // "Rules" opens the card at the results table with that row marked.
    let wizard_field = |selector: &str, text: &str| {
        let field = session.wait_for(selector);
        session.to_middle(selector);
        field.click();
        field.clear();
        field.send_keys(text);
    };
    let wait_step = |step: &str| {
        session.wait_until(&format!("the wizard's {step:?} step"), || {
            session.find(&format!("#roll-wizard[data-step='{step}']")).ok().map(|_| ())
        })
    };
    wizard_field("#roll-outcome", "Read the drowned ledger");
    session.click("#roll-next");
    session.click("#roll-aspect-mind");
    session.click("#roll-at-risk-character");
    session.click("#roll-next");
    session.click("#roll-mood-0");
    session.click("#roll-next");
    wait_step("details");
    session.click("#roll-next");
    wait_step("odds");
    session.click("#roll-next");
    session.click("#roll-by-hand");
    wizard_field("#roll-die-aspect-1", "7");
    wizard_field("#roll-die-mood-1", "4");
    session.click("#roll-hand-submit");
    wait_step("help");
    session.click("#roll-next");
    wait_step("choices");
    session.click("#roll-next");
    session.wait_for("#roll-result");
    session.click("#roll-reference");
    session.wait_until("the results table open at the roll's row", || {
        let row = session.find("#ref-results[open] #ref-results-table tr.current").ok()?;
        Some(row.text())
    });
    let marked = session.wait_for("#ref-results-table tr.current");
    assert_eq!(marked.attribute("data-row").as_deref(), Some("3"));
    assert!(marked.text().contains("this roll"), "{:?}", marked.text());
    shots_of(&session, "nsu-reference-row", "#ref-results");
    session.wait_for("#reference-close").click();
    wait_closed(&session, "nsu-reference");
    session.wait_for("#roll-close").click();
    wait_closed(&session, "roll-wizard");

    // Dark: the theme setting on the home screen, then the card again.
    back_home(&session);
    session.click("#theme-select option[value='dark']");
    session.wait_for("html[data-theme='dark']");
    session.wait_settled();
    wren_sheet(&session);
    session.click("#sheet-reference");
    session.wait_until("the reference card", || is_open(&session, "nsu-reference").then_some(()));
    session.click("#ref-steps > summary");
    session.click("#ref-complications > summary");
    shots_of(&session, "nsu-reference-dark", "#ref-steps");
    shots_of(&session, "nsu-reference-dark-tables", "#ref-complications");
}

/// Downtime shows the complication table for the location's band before the d6 is rolled;
/// every dice box follows the character's own die (Wren's Body is a d4: "Body die (d4)", at
/// most 4, a 5 refused at the box), a helper's Heart follows the helper's die, and the
/// helper's skill is a list of the helper's own skills.
#[test]
fn downtime_dice_follow_the_characters_dice_and_the_complication_table_shows_first() {
    let (_window, _scratch, session) = seeded("nsu-downtime-dice", true);
    wren_sheet(&session);
    session.click("#nsu-tab-downtime");
    session.wait_for("#downtime-view");

    // The Library has 3 ticks: the 1–3 table, before anything is rolled.
    // Filled when the core's tables arrive (data-band set).
    let table = session.wait_for("#downtime-complications .complication-table[data-band]");
    let text = table.text();
    assert!(text.contains("1–3 ticks") && text.contains("4–5") && text.contains("Relations worsen"), "{text:?}");
    shots_at_both_widths(&session, "nsu-downtime-complication-table");
    session.click("#downtime-complications .complication-tables");
    session.wait_until("the card at its complication tables", || {
        session.find("#nsu-reference[open] #ref-complications[open]").ok().map(|_| ())
    });
    assert_eq!(session.find_all("#ref-complications .complication-table").len(), 3);
    session.click("#reference-close");
    wait_closed(&session, "nsu-reference");
    let back = session.execute("return document.activeElement.classList.contains('complication-tables');", json!([]));
    assert_eq!(back, json!(true), "the focus is back on “All three tables”");

    let card = format!(".downtime-character[data-character-id='{WREN}']");
    // Seek recovery: Body on Wren's d4; with Tobias helping, his Heart d8 and his own skills.
    session.click(&format!("{card} .action-seek_recovery > summary"));
    let seek = format!("{card} .recovery-dice");
    assert_eq!(
        dice_labels(&session, &seek),
        json!([["Body die (d4), as rolled by hand", "4"], ["Body die, second roll (d4), as rolled by hand", "4"]])
    );
    let helper_skill = session.find(&format!("{card} .recovery-helper-skill")).expect("the helper's skill list");
    assert!(!helper_skill.is_displayed(), "no helper, no skill list");
    session.click(&format!("{card} .recovery-helper option[value='{TOBIAS}']"));
    session
        .wait_until("the helper's Heart die", || (dice_labels(&session, &seek).as_array()?.len() == 3).then_some(()));
    assert_eq!(dice_labels(&session, &seek)[2], json!(["Helper's Heart die (d8), as rolled by hand", "8"]));
    let skills = session.execute(
        "return [...document.querySelectorAll(arguments[0] + ' .recovery-helper-skill option')].map((o) => [o.value, o.textContent]);",
        json!([card]),
    );
    assert_eq!(
        skills,
        json!([["", "No skill"], ["0", "Carpentry (+1)"], ["2", "Fishing (+1)"]]),
        "the helper's own lines"
    );
    session.execute(
        "document.querySelector(arguments[0]).scrollIntoView({ block: 'start' });",
        json!([format!("{card} .action-seek_recovery")]),
    );
    shot(&session, "nsu-downtime-seek-recovery-1280");

    // A long-term project: the aspect's die and the chosen mood's die.
    session.click(&format!("{card} .action-long_term_project > summary"));
    let project = format!("{card} .project-dice");
    assert_eq!(
        dice_labels(&session, &project),
        json!([["Body die (d4), as rolled by hand", "4"], ["Mood die (d8), as rolled by hand", "8"]])
    );
    session.click(&format!("{card} .action-long_term_project .mood-pick option[value='4']"));
    session.wait_until("the mood die to follow the d4 line", || {
        (dice_labels(&session, &project)[1] == json!(["Mood die (d4), as rolled by hand", "4"])).then_some(())
    });

    // The complication first (a 4: relations worsen), then Train Skills on Body.
    crate::nsu_world::roll_complication(&session, "4", "Relations worsen");
    dismiss_toast(&session);
    session.click(&format!("{card} .action-train_skills > summary"));
    let train = format!("{card} .train-dice");
    assert_eq!(dice_labels(&session, &train), json!([["Body die (d4), as rolled by hand", "4"]]));
    let body = session.wait_for(&format!("{train} .die-input"));
    body.click();
    body.send_keys("5");
    session.click(&format!("{train} .dice-enter"));
    session.wait_settled();
    let refused = session.execute(
        "const i = document.querySelector(arguments[0] + ' .die-input'); return [i.validity.rangeOverflow, document.activeElement === i];",
        json!([train]),
    );
    assert_eq!(refused, json!([true, true]), "a 5 on a d4 stays at its box, which keeps the focus");
    assert!(session.find(&format!("{card} .awaiting")).is_err(), "nothing was sent");
    let body = session.wait_for(&format!("{train} .die-input"));
    body.clear();
    body.send_keys("3");
    session.click(&format!("{train} .dice-enter"));
    wait_contains(&session, &format!("{card} .awaiting"), "Body roll: 3");
}

/// A new game's scope holds the nine guiding questions; an older game gets them only from
/// "Add the guiding questions", as one step Undo takes back. The creation wizard says which
/// mood goes on the d8 and the d4, that the aspect die is rolled in every action roll, and
/// what sentiments may be.
#[test]
fn scope_guiding_questions_and_the_creation_wizards_words() {
    let (_window, _scratch, session) = seeded("nsu-scope", false);
    let questions = |session: &Session| -> Vec<String> {
        session.find_all(".scope-list li .question").into_iter().map(|q| q.text()).collect()
    };

    // The older game: its own question only, until asked.
    open_game(&session, GAME);
    session.click("#game-world");
    session.wait_for("#world-setup");
    if session.wait_for("#world-setup").attribute("open").is_none() {
        session.click("#world-setup > summary");
    }
    assert_eq!(questions(&session), ["How long between adventures?"]);
    assert_eq!(session.wait_for("#scope-add-guiding").text(), "Add the guiding questions (9)");
    session.click("#scope-add-guiding");
    session.wait_until("the nine guiding questions added", || (questions(&session).len() == 10).then_some(()));
    assert_eq!(questions(&session)[1], "How long is the rest between one adventure and the next?");
    session.wait_settled();
    assert!(!session.find("#scope-add-guiding").expect("the button").is_displayed(), "all nine are there now");
    session.click("#toast-undo");
    session.wait_until("one undo takes all nine back", || (questions(&session).len() == 1).then_some(()));
    session.wait_for("#scope-add-guiding");
    back_home(&session);

    // A new game starts with them.
    new_game(&session, "Saltmarsh", "nsu");
    session.click("#game-world");
    session.wait_until("the new game's scope", || (questions(&session).len() == 9).then_some(()));
    assert_eq!(questions(&session)[8], "Can the characters stay in touch with the settlement while they are away?");
    session.wait_settled();
    let offered = session.find("#scope-add-guiding").expect("the button is in the card");
    assert!(!offered.is_displayed(), "nothing to add: the button stays hidden");
    back_home(&session);

    // The creation wizard's words, for a new character there.
    open_game(&session, "Saltmarsh");
    create_character(&session, "Pell");
    click_in_character_row(&session, "Pell", ".character-open");
    session.wait_for("#sheet-body");
    session.wait_settled();
    session.execute("window.scrollTo(0, 0);", json!([]));
    session.click("#wizard-open");
    session.click(".wizard-step[data-step='1']");
    let moods = session.wait_for("#wizard-moods-advice").text();
    assert!(
        moods.contains("on the d8 the mood your character acts from when taking care not to harm the world")
            && moods.contains("on the d4 the one they act from when protecting themselves"),
        "{moods:?}"
    );
    session.click(".wizard-step[data-step='2']");
    let aspects = session.wait_for("#wizard-aspects-intro").text();
    assert!(
        aspects.contains(
            "Every action roll rolls the aspect die the Arbiters pick; it is your die when the Character is at risk"
        ),
        "the corrected sentence: {aspects:?}"
    );
    assert!(!aspects.contains("rolled when the Character is at risk"), "the wrong sentence is gone");
    shots_at_both_widths(&session, "nsu-wizard-aspects-words");
    session.click(".wizard-step[data-step='3']");
    let sentiments = session.wait_for("#wizard-sentiments-intro").text();
    assert!(
        ["a possession, a belief or a relationship", "not to take more than one of each kind"]
            .iter()
            .all(|w| sentiments.contains(w)),
        "{sentiments:?}"
    );
}
