//! No Stone Unturned at a real table, in the window: where the party is, a detail written
//! from a World-at-risk roll ticking that place's clock (and Undo taking both back), the
//! shuffle and deal, a path drawn, a face-down card in the list on a player's device, the
//! hand-over on a device passed around, and an NPC's Overcome threshold.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::displays::Window;
use crate::fixtures::{moods, nsu_fixture, write_game_file, WREN};
use crate::mezzo::wait_contains;
use crate::nsu_roll::{self, imported_into};
use crate::nsu_world::{db, dismiss_toast, shots_of};
use crate::webdriver::Session;
use crate::{click_in_character_row, open, open_dark, shot, Scratch};

const LIBRARY: &str = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d";

/// The NSU fixture (the party at the Library, 3 ticks; a path to the face-down Mill; Mother
/// Rook, threshold 3 with one harm; the ferryman, ordinary and Overcome), with Wren's moods
/// calm so she can roll without a final box.
fn game_file(path: &Path) {
    let mut file = nsu_fixture();
    let wren = &mut file["data"]["games"][0]["characters"][0];
    assert_eq!(wren["id"], WREN);
    wren["nsu"]["moods"] = moods([("Curious", 0, false), ("Wary", 0, false), ("Content", 0, false)]);
    wren["nsu"]["harm"] = json!([]);
    write_game_file(path, &file);
}

/// The roll tests' tap, after closing a toast that could cover the control.
fn tap(session: &Session, selector: &str) {
    dismiss_toast(session);
    nsu_roll::tap(session, selector);
}

/// The roll tests' typing, after closing a toast that could cover the field.
fn type_into(session: &Session, selector: &str, text: &str) {
    dismiss_toast(session);
    nsu_roll::type_into(session, selector, text);
}

/// Picks the option `value` of the select `selector` (a change event, as a person's pick).
fn choose(session: &Session, selector: &str, value: &str) {
    dismiss_toast(session);
    session.execute(
        "const s = document.querySelector(arguments[0]); s.scrollIntoView({ block: 'center' }); s.value = arguments[1]; \
         s.dispatchEvent(new Event('change', { bubbles: true }));",
        json!([selector, value]),
    );
}

/// The text of `selector` as the page holds it (WebDriver's visible text is empty for a map
/// cell scrolled out of its box).
fn text_content(session: &Session, selector: &str) -> String {
    session
        .execute("return document.querySelector(arguments[0])?.textContent ?? '';", json!([selector]))
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn clock(conn: &rusqlite::Connection, location: &str) -> i64 {
    conn.query_row("SELECT collateral FROM nsu_locations WHERE id = ?1", [location], |r| r.get(0)).expect("clock")
}

fn harm_count(conn: &rusqlite::Connection) -> i64 {
    conn.query_row("SELECT COUNT(*) FROM nsu_details WHERE character_id = ?1 AND kind = 'harm'", [WREN], |r| r.get(0))
        .expect("count harm")
}

fn open_world(session: &Session) {
    session.click("#game-world");
    session.wait_for("#world-map");
}

/// How each map test begins: `begin`, the fixture game (`game_file`) written to the test's
/// folder and imported through the app started by `start` (`open` or `open_dark`), and its
/// world screen open.
fn begin_on_the_map(name: &str, start: fn(&Path) -> Session) -> (Window, Scratch, PathBuf, Session) {
    let (window, scratch, db_path) = crate::begin(name);
    let file = scratch.path("map.sheetkeeper.json");
    game_file(&file);
    let session = imported_into(start(&db_path), &file);
    open_world(&session);
    (window, scratch, db_path, session)
}

/// The party is at the Library (shown on the map and its page); a harm detail written from
/// a World-at-risk roll's result ticks the Library's clock, the notice says so, and its Undo
/// takes the detail and the tick back together; the party is sent home and back.
#[test]
fn the_partys_place_ticks_from_a_world_at_risk_detail_and_undo_takes_both_back() {
    let (_window, _scratch, db_path, session) = begin_on_the_map("nsu-party", open);
    let conn = db(&db_path);

    session.wait_text("#party-where", "The party is at Library.");
    let here = format!("button.map-card.party-here[data-location-id='{LIBRARY}']");
    session.wait_for(&here);
    // Its name (its text, with the words only a screen reader hears) says so.
    let named = session.execute("return document.querySelector(arguments[0]).textContent;", json!([here]));
    assert!(named.as_str().unwrap_or_default().contains("the party is here"), "{named}");
    let marker = session.execute(
        &format!("return document.querySelector(\"button.map-card[data-location-id='{LIBRARY}'] .party-marker\")?.textContent;"),
        json!([]),
    );
    assert_eq!(marker, json!("Party"), "a marker on the card");
    shots_of(&session, "nsu-map-party", "#world-map");

    // Home, then back from the card's own page.
    choose(&session, "#party-location", "");
    session.wait_text("#party-where", "The party is at home.");
    let stored: Option<String> = conn.query_row("SELECT location_id FROM nsu_party", [], |r| r.get(0)).ok();
    assert_eq!(stored, None, "home is no row");
    tap(&session, &format!("button.map-card[data-location-id='{LIBRARY}']"));
    tap(&session, "#party-move-here");
    session.wait_text("#location-party", "The party is here.");
    tap(&session, "#location-back");
    session.wait_text("#party-where", "The party is at Library.");
    session.click("#nsu-back");

    // Wren rolls Mind with the World at risk (3 against Curious 4), the dice typed in.
    click_in_character_row(&session, "Wren Ashdown", ".character-roll");
    session.wait_for("#roll-wizard");
    type_into(&session, "#roll-outcome", "Hold the ferry rope");
    session.click("#roll-next");
    session.click("#roll-aspect-mind");
    session.click("#roll-at-risk-world");
    session.click("#roll-next");
    session.click("#roll-mood-0");
    session.click("#roll-next");
    for step in ["details", "odds"] {
        session.wait_for(&format!("#roll-wizard[data-step='{step}']"));
        session.click("#roll-next");
    }
    session.click("#roll-by-hand");
    type_into(&session, "#roll-die-aspect-1", "3");
    type_into(&session, "#roll-die-mood-1", "4");
    session.click("#roll-hand-submit");
    for step in ["help", "choices"] {
        session.wait_for(&format!("#roll-wizard[data-step='{step}']"));
        session.click("#roll-next");
    }
    session.wait_for("#roll-result");

    let (before, harm_before) = (clock(&conn, LIBRARY), harm_count(&conn));
    assert_eq!(before, 3);
    tap(&session, "#roll-write-detail");
    assert!(session.wait_for("#detail-collateral-hint").text().contains("party's location"));
    session.click("#detail-kind option[value='harm']");
    type_into(&session, "#detail-text", "Rope burn");
    session.click("#detail-save");
    wait_contains(&session, "#roll-notice", "Library's collateral clock ticked (4/8)");
    assert_eq!((clock(&conn, LIBRARY), harm_count(&conn)), (4, harm_before + 1), "the detail and one tick");
    shot(&session, "nsu-roll-detail-ticked-1280");
    session.click("#roll-notice-undo");
    session.wait_until("the detail and its tick to be taken back", || {
        (clock(&conn, LIBRARY) == 3 && harm_count(&conn) == harm_before).then_some(())
    });
    assert!(session.wait_for("#roll-notice").text().contains("and its collateral tick"));

    // The roll won by 1 granted two details: one on Wren, one on another character of the
    // table (the ally's negative detail); then the form closes and no third can tick.
    wait_contains(&session, "#detail-count", "Written: 0 of 2 details");
    session.click("#detail-kind option[value='harm']");
    type_into(&session, "#detail-text", "Rope burn");
    session.click("#detail-save");
    wait_contains(&session, "#detail-count", "Written: 1 of 2 details");
    session.click("#detail-kind option[value='negative']");
    let ally = session.wait_for("#detail-on option:nth-child(2)");
    let ally_name = ally.text();
    ally.click();
    type_into(&session, "#detail-text", "Owes Wren a rope");
    session.click("#detail-save");
    wait_contains(&session, "#roll-notice", &format!("on {ally_name}."));
    wait_contains(&session, "#detail-count", "Written: all 2 details the roll granted.");
    assert_eq!(clock(&conn, LIBRARY), 5, "two granted details, two ticks");
    assert_eq!(session.wait_for("#roll-write-detail").attribute("disabled").as_deref(), Some("true"));
    let form = session.find("#roll-detail-form").expect("the detail form is there, hidden");
    assert!(!form.is_displayed(), "no form for a third detail");
    shot(&session, "nsu-roll-details-all-written-1280");
    session.click("#roll-done");
    session.wait_gone("#roll-wizard");
}

/// A card written for the table is dealt face down onto a picked cell (shuffled), a path is
/// drawn to it (a line on the map and words in the list), on a player's device the list
/// shows it by its back and place only, a device passed around shows Wren's scouted card
/// only after the hand-over, and an NPC's threshold reads "1 of 4 harm".
#[test]
fn deal_path_face_down_list_hand_over_and_npc_threshold() {
    let (_window, _scratch, db_path, session) = begin_on_the_map("nsu-deal", open);
    let conn = db(&db_path);

    // A card for the table (no character): nobody reads it face down.
    session.execute("document.querySelector('.author-location').open = true;", json!([]));
    type_into(&session, "#location-name", "Salt Marsh");
    type_into(&session, "#location-author", "Cy");
    choose(&session, "#location-writer", "");
    tap(&session, "#location-submit");
    session.wait_until("the card listed closed", || {
        session
            .find_all(".location-card.closed")
            .into_iter()
            .find(|c| c.text().contains("A card not dealt yet"))
            .map(|_| ())
    });
    tap(&session, "#deal-start");
    tap(&session, "button.map-cell.deal-cell[data-x='1'][data-y='1']");
    session.wait_text("#deal-count", "Tap one empty cell for the cards: 1 of 1 picked.");
    shots_of(&session, "nsu-map-deal", "#world-map");
    // Back at desktop width, the World tab's own calls finish before the tap.
    session.wait_settled();
    tap(&session, "#deal-go");
    // The card's back lands on the picked cell (watched in the window, not by polling the
    // database while the app writes), and the database has the Salt Marsh there.
    let marsh = session
        .wait_for(".map-card.back[data-x='1'][data-y='1']")
        .attribute("data-location-id")
        .expect("a card's back names its location");
    let stored: String = conn
        .query_row("SELECT id FROM nsu_locations WHERE name = 'Salt Marsh' AND x = 1 AND y = 1", [], |r| r.get(0))
        .expect("the Salt Marsh was dealt onto the picked cell");
    assert_eq!(marsh, stored);
    session.wait_settled();

    // Levels typed in, then a path from the Library to it.
    let dice = format!(".location-card[data-location-id='{marsh}'] .levels-dice .die-input");
    let boxes = session.find_all(&dice);
    boxes[0].click();
    boxes[0].send_keys("2");
    boxes[1].click();
    boxes[1].send_keys("4");
    tap(&session, &format!(".location-card[data-location-id='{marsh}'] .levels-dice .dice-enter"));
    let back = format!(".map-card.back[data-location-id='{marsh}']");
    session.wait_until("D2 R4 on the card's back", || text_content(&session, &back).contains("D2 R4").then_some(()));
    choose(&session, "#path-a", LIBRARY);
    choose(&session, "#path-b", &marsh);
    tap(&session, "#path-add");
    session.wait_until("two paths listed", || (session.find_all(".path-list .path").len() == 2).then_some(()));
    let lines = session.execute("return document.querySelectorAll('#world-map svg.map-paths line').length;", json!([]));
    assert_eq!(lines, json!(2), "each path is a line on the map");
    let words = session.wait_for(".path-list").text();
    assert!(
        words.contains("Path: Library (at the settlement) – the card 1 south, 1 east of the settlement"),
        "{words:?}"
    );
    assert!(!words.contains("Salt") && !words.contains("Mill"), "paths name face-down cards by place: {words:?}");
    let stored: i64 = conn.query_row("SELECT COUNT(*) FROM nsu_paths", [], |r| r.get(0)).unwrap();
    assert_eq!(stored, 2);
    shots_of(&session, "nsu-map-paths", "#world-map");

    // A device passed around: Wren's scouted Mill stays closed until the hand-over.
    assert!(!text_content(&session, "#map-grid").contains("Mill"));
    choose(&session, "#map-viewer", WREN);
    session.wait_text("#hand-over-heading", "Hand the device to Wren Ashdown");
    assert!(!text_content(&session, "#world-map").contains("Mill"), "nothing secret behind the hand-over");
    shots_of(&session, "nsu-map-hand-over", "#world-map");
    tap(&session, "#hand-over-ready");
    session.wait_until("the Mill open for Wren", || text_content(&session, "#map-grid").contains("Mill").then_some(()));
    tap(&session, "#map-close-cards");
    session
        .wait_until("the cards closed again", || (!text_content(&session, "#map-grid").contains("Mill")).then_some(()));

    // An NPC's threshold: Mother Rook 1 of 3 harm, then 1 of 4; the ferryman is Overcome.
    let rook = "#world-npcs .npc:first-of-type";
    session.wait_text(&format!("{rook} .npc-state"), "1 of 3 harm");
    choose(&session, &format!("{rook} .npc-threshold"), "4");
    session.wait_text(&format!("{rook} .npc-state"), "1 of 4 harm");
    let threshold: i64 =
        conn.query_row("SELECT threshold FROM nsu_npcs WHERE name = 'Mother Rook'", [], |r| r.get(0)).unwrap();
    assert_eq!(threshold, 4);
    session.wait_text("#world-npcs .npc:nth-of-type(2) .npc-state", "Overcome");
    shots_of(&session, "nsu-npc-threshold", "#world-npcs");

    // On a player's device (Wren and Tobias its own), the table's card is its back and place.
    session.click("#nsu-back");
    session.wait_for("#role-player").click();
    open_world(&session);
    let row = session.wait_for(&format!(".location-card[data-location-id='{marsh}']")).text();
    assert!(row.contains("Face-down card") && row.contains("1 south, 1 east of the settlement, D2 R4"), "{row:?}");
    assert!(!row.contains("Salt") && !row.contains("Cy"), "no name, no author: {row:?}");
    let mill = session.wait_for(".location-card[data-location-id='b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e']").text();
    assert!(mill.contains("Mill"), "Wren scouted the Mill, and Wren is this device's: {mill:?}");
    shots_of(&session, "nsu-map-player", ".locations");
}

/// The map with the party's marker, a path and a face-down card's back, and the NPCs, in
/// the dark theme at both widths (the layout check runs with each shot).
#[test]
fn the_map_and_npcs_in_the_dark() {
    let (_window, _scratch, _db_path, session) = begin_on_the_map("nsu-map-dark", open_dark);
    session.wait_text("#party-where", "The party is at Library.");
    dismiss_toast(&session);
    shots_of(&session, "nsu-map-dark", "#world-map");
    shots_of(&session, "nsu-npcs-dark", "#world-npcs");
}
