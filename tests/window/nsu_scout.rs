//! Scouting through the roll wizard on a player's device (RULES.md §1.4 Scout): the Downtime
//! tab's Scout form names the face-down card by its back and place only (at home every card is
//! offered: the map does not place home), opens the roll
//! wizard with the scout set, and the card's face shows on the result only once the player
//! may look. The same rolls check the details listed while counting, a final box that ends an
//! overload, and the X-card over the wizard and over its roll log.

use std::path::Path;

use serde_json::json;
use sheetkeeper::rules::nsu::downtime::PhaseSetup;
use sheetkeeper::services::{self, ImportOptions};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::fixtures::{moods, nsu_fixture, write_game_file, TOBIAS, WREN};
use crate::mezzo::wait_contains;
use crate::nsu_roll::{next, tap, text_of, type_into, wait_step, wizard_shots};
use crate::webdriver::Session;
use crate::{begin, in_dark, open, open_game, shot};

const GAME: &str = "Lanterns over Brackwater";
/// The face-down card at x −2, y 5, "D3 R2" on its back; its name is "Mill".
const MILL: &str = "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e";
/// The revealed card at the settlement, where the party is; one scene detail.
const LIBRARY: &str = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d";

/// The NSU fixture with Wren's "Content" (d4) overloaded one box short of its last, the Mill
/// not scouted by anyone and the party at the Library, imported into a new database on a
/// device that plays Wren. Returns the game's id.
fn prepare(db: &Path, file: &Path) -> Uuid {
    let mut doc = nsu_fixture();
    let game = &mut doc["data"]["games"][0];
    let wren = &mut game["characters"][0];
    assert_eq!(wren["id"], WREN);
    wren["nsu"]["moods"] = moods([("Curious", 3, false), ("Wary", 2, false), ("Content", 4, true)]);
    let mill = &mut game["nsu_world"]["locations"][1];
    assert_eq!(mill["id"], MILL);
    mill["scouted_by"] = json!([]);
    assert_eq!(game["nsu_world"]["party_at"], LIBRARY, "the party is at the Library");
    write_game_file(file, &doc);

    let mut store = Store::open(db).expect("a new database");
    services::import(&mut store, file, ImportOptions { as_copy: false, replace_conflicts: false })
        .expect("the game imports");
    let game = Uuid::parse_str(doc["data"]["games"][0]["id"].as_str().unwrap()).unwrap();
    let (wren, tobias) = (Uuid::parse_str(WREN).unwrap(), Uuid::parse_str(TOBIAS).unwrap());
    services::set_device_role(&mut store, game, "player").expect("a player's device");
    services::set_mine(&mut store, wren, true).expect("Wren is played here");
    services::set_mine(&mut store, tobias, false).expect("Tobias is played elsewhere");
    game
}

/// Starts downtime at home for Wren and Tobias, as the table's device would, and rolls the
/// complication for the Library the party just left.
fn start_downtime(db: &Path, game: Uuid) {
    let mut store = Store::open(db).expect("the test database");
    let (wren, tobias) = (Uuid::parse_str(WREN).unwrap(), Uuid::parse_str(TOBIAS).unwrap());
    let home = PhaseSetup { at_home: true, time_units: 0 };
    services::nsu_downtime_start(&mut store, game, &[wren, tobias], home).expect("downtime starts");
    let library = Uuid::parse_str(LIBRARY).unwrap();
    let die = services::DiceInput::Entered { values: vec![1] };
    services::nsu_downtime_complication(&mut store, game, library, &die, &mut rand::rng())
        .expect("the Library's complication");
}

/// Wren's downtime actions left and whether she has seen the Mill, as the database says.
fn scout_state(db: &Path, game: Uuid) -> (u8, bool) {
    let store = Store::open(db).expect("the test database");
    let wren = Uuid::parse_str(WREN).unwrap();
    let view = services::nsu_downtime(&store, game).expect("read downtime").expect("a phase in progress");
    let left = view.phase.expect("the phase").characters[&wren].actions_left;
    let seen = store
        .read()
        .nsu_world(game)
        .expect("the world")
        .locations
        .iter()
        .any(|l| l.id == Uuid::parse_str(MILL).unwrap() && l.scouted_by.contains(&wren));
    (left, seen)
}

/// The visible words of `selector` (all of it, scrolled or not).
fn words_in(session: &Session, selector: &str) -> String {
    let v = session.execute("return document.querySelector(arguments[0]).textContent;", json!([selector]));
    v.as_str().unwrap_or_default().to_owned()
}

/// Opens the Scout action in Wren's downtime card and starts the scouting roll.
fn start_scout(session: &Session) {
    let card = format!(".downtime-character[data-character-id='{WREN}']");
    tap(session, &format!("{card} details.action-scout > summary"));
    // Downtime at home sent the party home, which the map does not place: the table judges
    // which card is close enough, and every face-down card is offered.
    let home = text_of(session, &format!("{card} details.action-scout .scout-home"));
    assert!(home.starts_with("The party is at home"), "{home:?}");
    let options = text_of(session, &format!("{card} details.action-scout .scout-all"));
    assert!(options.contains("Face-down card 5 south, 2 west of the settlement, D3 R2"), "{options:?}");
    assert!(!words_in(session, "#downtime-view").contains("Mill"), "the card's name is not on the Downtime tab");
    tap(session, &format!("{card} .scout-roll"));
    session.wait_for("#roll-wizard[open]");
    wait_step(session, "outcome");
    let purpose = text_of(session, "#roll-purpose");
    assert!(purpose.contains("Scouting the face-down card 5 south, 2 west of the settlement, D3 R2"), "{purpose:?}");
}

/// The steps before the dice: outcome, Mind with the Character at risk, mood `line`.
fn setup_roll(session: &Session, line: usize) {
    type_into(session, "#roll-outcome", "Creep up to the card's place by night");
    next(session);
    session.click("#roll-aspect-mind");
    session.click("#roll-at-risk-character");
    next(session);
    session.click(&format!("#roll-mood-{line}"));
    next(session);
    wait_step(session, "details");
}

/// From the details step: the odds, then the dice typed in by hand in the wizard's order.
fn roll_by_hand(session: &Session, dice: &[(&str, &str)]) {
    next(session);
    wait_step(session, "odds");
    session.wait_for("#roll-odds-win");
    next(session);
    wait_step(session, "roll");
    // The typed-in dice stay open from an earlier roll of the same wizard.
    if session.wait_for("#roll-by-hand").attribute("aria-expanded").as_deref() != Some("true") {
        tap(session, "#roll-by-hand");
    }
    for (id, value) in dice {
        type_into(session, id, value);
    }
    tap(session, "#roll-hand-submit");
    wait_step(session, "help");
    next(session);
    wait_step(session, "choices");
}

/// The X-card of `dialog` opens over it: the overlay is what sits in the middle of the window.
fn x_card_over(session: &Session, dialog: &str) {
    tap(session, &format!("{dialog} > .xcard-in-dialog"));
    session.wait_until(&format!("the X-card over {dialog}"), || {
        let on_top = session.execute(
            "const e = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
             return Boolean(e && e.closest('#xcard-overlay[open]'));",
            json!([]),
        );
        (on_top == json!(true)).then_some(())
    });
    session.click("#xcard-close");
    session.wait_gone("#xcard-overlay[open]");
    assert!(session.wait_for(&format!("{dialog}[open]")).is_displayed(), "{dialog} is still open under it");
}

#[test]
fn a_scout_from_the_downtime_tab_through_the_roll_wizard_on_a_players_device() {
    let (_window, scratch, db) = begin("nsu-scout");
    let game = prepare(&db, &scratch.path("scout.sheetkeeper.json"));
    let session = open(&db);
    open_game(&session, GAME);

    // ---- 0. Before downtime, at the Library: an action roll lists the scene details there
    // with Wren's own details while counting.
    let row = crate::wait_character_row(&session, "Wren Ashdown");
    row.find(".character-roll").expect("an NSU character row has a Roll button").click();
    session.wait_for("#roll-wizard[open]");
    wait_step(&session, "outcome");
    let purpose = session.find("#roll-purpose").expect("the wizard's purpose line");
    assert!(!purpose.is_displayed(), "a plain roll scouts nothing");
    setup_roll(&session, 0);
    let list = text_of(&session, "#roll-details-list");
    assert!(list.contains("the shelves collapse") && list.contains("Library"), "{list:?}");
    assert!(list.contains("Sprained ankle"), "{list:?}");
    wizard_shots(&session, "nsu-roll-details-here");
    tap(&session, "#roll-close");
    session.wait_gone("#roll-wizard[open]");

    start_downtime(&db, game);
    tap(&session, "#game-downtime");
    session.wait_for("#downtime-view");
    session.wait_for(&format!(".downtime-character[data-character-id='{WREN}'] details.action-scout"));
    shot(&session, "nsu-scout-downtime-1280");

    // ---- 1. A lost scouting roll with "Content": its last box ends its overload; the player
    // turns back and sees nothing.
    start_scout(&session);
    setup_roll(&session, 4);
    // The details that count: harm, other details and scars, each may be counted.
    let list = text_of(&session, "#roll-details-list");
    for detail in ["Sprained ankle", "Smoke in the lungs", "Knows the river paths", "Owes the ferryman a favour"] {
        assert!(list.contains(detail), "{detail:?} in {list:?}");
    }
    assert!(list.contains("Burn scar on the left hand"), "{list:?}");
    let counted = "#roll-details-list button[aria-label='For: Knows the river paths']";
    tap(&session, counted);
    session.wait_text("#roll-adv", "1");
    assert_eq!(session.wait_for(counted).attribute("aria-pressed").as_deref(), Some("true"));
    assert!(text_of(&session, "#roll-aspect-net").contains("advantage"));
    wizard_shots(&session, "nsu-scout-details");
    in_dark(&session, || wizard_shots(&session, "nsu-scout-details-dark"));
    tap(&session, counted);
    session.wait_text("#roll-adv", "0");
    // Mind 1 against Content's d4 (advantage: two dice) 4 and 4: the player loses by 3.
    roll_by_hand(&session, &[("#roll-die-aspect-1", "1"), ("#roll-die-mood-1", "4"), ("#roll-die-mood-2", "4")]);
    assert!(!words_in(&session, "#roll-wizard").contains("Mill"), "no name before the card may be seen");
    next(&session);
    type_into(&session, "#final-box-name", "Serene");
    next(&session);
    session.wait_for("#choice-scout");
    wizard_shots(&session, "nsu-scout-lost");
    next(&session);
    assert!(text_of(&session, "#roll-error").contains("accepts the details"), "a choice is needed");
    tap(&session, "#choice-scout-back");
    next(&session);
    session.wait_for("#roll-result");
    assert!(text_of(&session, "#roll-scouted").contains("Turned back"));
    assert!(session.find("#roll-scouted-name").is_err(), "turning back shows no card");
    let events = text_of(&session, "#roll-events");
    assert!(events.contains("evolved into “Serene”") && events.contains("its overload ended"), "{events:?}");
    assert!(!words_in(&session, "#roll-wizard").contains("Mill"));
    wizard_shots(&session, "nsu-scout-turned-back");
    assert_eq!(scout_state(&db, game), (0, false), "the action is spent; the card stays unseen");

    // One undo from the result takes the roll and the scouting back.
    tap(&session, "#roll-undo");
    wait_contains(&session, "#roll-notice", "the action is back");
    assert_eq!(scout_state(&db, game), (1, false));

    // ---- 2. A won scouting roll with "Curious" (Content overloaded: mood disadvantage): the
    // card's face shows to Wren's player.
    wait_step(&session, "odds");
    for _ in 0..2 {
        tap(&session, "#roll-back");
    }
    wait_step(&session, "mood");
    session.click("#roll-mood-0");
    next(&session);
    wait_step(&session, "details");
    // Mind 8 against Curious's d8 (disadvantage: two dice) 1 and 1: the player wins by 7.
    roll_by_hand(&session, &[("#roll-die-aspect-1", "8"), ("#roll-die-mood-1", "1"), ("#roll-die-mood-2", "1")]);
    assert!(!words_in(&session, "#roll-wizard").contains("Mill"), "no name before the win is settled");
    next(&session);
    session.wait_for("#roll-result");
    session.wait_text("#roll-winner", "The player wins by 7");
    assert!(text_of(&session, "#roll-scouted").contains("the card is seen"));
    assert_eq!(text_of(&session, "#roll-scouted-name"), "Mill");
    assert!(text_of(&session, "#roll-scouted-card").contains("A mill that turns with no river"));
    wizard_shots(&session, "nsu-scout-won");
    in_dark(&session, || wizard_shots(&session, "nsu-scout-won-dark"));
    assert_eq!(scout_state(&db, game), (0, true));

    // The X-card over the wizard, and over the roll log opened from it.
    x_card_over(&session, "#roll-wizard");
    tap(&session, "#roll-show-log");
    session.wait_for("#roll-log[open]");
    session.wait_until("the roll log's entries", || session.find("#roll-log-list li").ok().map(|_| ()));
    x_card_over(&session, "#roll-log");
    session.click("#roll-log-close");
    session.wait_gone("#roll-log[open]");
    tap(&session, "#roll-done");
    session.wait_gone("#roll-wizard[open]");

    // Back on the Downtime tab: Wren has no action left, and she is the one who saw it.
    session.wait_until("Wren's spent action", || {
        session
            .find(&format!(".downtime-character[data-character-id='{WREN}'] .actions-left"))
            .ok()
            .filter(|e| e.text() == "0")
            .map(|_| ())
    });
    shot(&session, "nsu-scout-downtime-after-1280");
}
