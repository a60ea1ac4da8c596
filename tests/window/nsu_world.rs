//! The No Stone Unturned world, map, location and downtime screens, and the X-card, driven
//! like a person: clicks, typed dice, the import dialog; then the database is checked.

use std::path::Path;

use serde_json::json;

use crate::fixtures::{nsu_fixture, write_game_file};
use crate::webdriver::{Session, ENTER, ESCAPE};
use crate::{
    begin, begin_with, choose_file_in_native_dialog, click_in_character_row, create_character, new_game, open,
    open_game, shot, shots_at_both_widths, OPEN_TITLE,
};

pub(crate) use crate::fixtures::db;

pub(crate) use crate::dismiss_toast;

use crate::mezzo::{scroll_to, wait_contains};

/// Screenshots at 1280 and 360 px wide, each scrolled so `selector` is at the top.
pub(crate) fn shots_of(session: &Session, name: &str, selector: &str) {
    crate::shots_at_both_widths_with(session, name, || scroll_to(session, selector), || {});
}

/// Types the downtime complication's die `face` in and waits for its result to read `words`.
pub(crate) fn roll_complication(session: &Session, face: &str, words: &str) {
    let die = session.wait_for(".complication-dice .die-input");
    die.click();
    die.send_keys(face);
    session.click(".complication-dice .dice-enter");
    wait_contains(session, "#downtime-results", words);
}

/// Types `text` into the field `selector` (clicked first, as a person would).
fn type_into(session: &Session, selector: &str, text: &str) {
    dismiss_toast(session);
    let field = session.wait_for(selector);
    field.click();
    field.send_keys(text);
}

/// The aria-label of the collateral clock on the location view.
fn clock_label(session: &Session) -> String {
    session.wait_for("#collateral-clock").attribute("aria-label").unwrap_or_default()
}

fn wait_clock(session: &Session, expected: &str) {
    session.wait_until(&format!("the clock to read {expected:?}"), || (clock_label(session) == expected).then_some(()));
}

/// A location written in the World view (closed on this device passed around), its levels
/// typed in by hand, dealt onto a tapped cell, revealed and opened; two taps on +1 show
/// "Collateral 2 of 8" and store 2.
#[test]
fn location_authored_placed_revealed_and_collateral_ticked() {
    let (_window, _scratch, db_path, session) = begin_with("nsu-world", open);
    new_game(&session, "Ashfall Vale", "nsu");
    create_character(&session, "Ada Quill");

    session.click("#game-world");
    session.wait_for("#world-view");
    session.wait_for("#world-map");

    for (field, text) in [
        ("#location-name", "The Sunken Mill"),
        ("#location-author", "Ana"),
        ("#location-description", "A mill that turns with no river"),
        ("#location-collateral-harms", "the miller's family"),
        ("#location-danger", "the wheel never stops"),
        ("#location-treasure", "a ledger of debts"),
    ] {
        type_into(&session, field, text);
    }
    session.click("#location-submit");
    let card = session.wait_for(".location-card");
    let id = card.attribute("data-location-id").expect("location rows carry data-location-id");
    // Written by Ada's player: a device passed around shows it closed, by its back only.
    assert!(card.text().contains("A card not dealt yet"), "the new card is listed closed: {:?}", card.text());
    assert!(!card.text().contains("Sunken") && !card.text().contains("Ana"), "{:?}", card.text());

    // Danger 3, reward 2, typed in as rolled at the table.
    dismiss_toast(&session);
    let dice = session.find_all(".location-card .levels-dice .die-input");
    assert_eq!(dice.len(), 2, "one box for the danger die and one for the reward die");
    dice[0].click();
    dice[0].send_keys("3");
    dice[1].click();
    dice[1].send_keys("2");
    session.click(".location-card .levels-dice .dice-enter");
    wait_contains(&session, ".location-card", "D3 R2");

    dismiss_toast(&session);
    session.click("#deal-start");
    session.click("button.map-cell.deal-cell[data-x='1'][data-y='0']");
    session.wait_text("#deal-count", "Tap one empty cell for the cards: 1 of 1 picked.");
    session.click("#deal-go");
    // Face down: the table sees only a card back there.
    let back = session.wait_for(".map-card.back[data-x='1'][data-y='0']");
    assert!(back.is_displayed());
    let words = session
        .execute("return document.querySelector(\".map-card.back[data-x='1'][data-y='0']\").textContent;", json!([]));
    assert_eq!(words, json!("✦D3 R2"), "a card back shows only its levels");
    assert!(
        !session.wait_for("#world-map .map-grid").text().contains("Sunken"),
        "a face-down card's name is hidden on the map"
    );
    shots_of(&session, "nsu-map-face-down", "#world-map");

    dismiss_toast(&session);
    session.click(".location-card .reveal");
    session.wait_for(&format!("button.map-card.revealed[data-location-id='{id}']"));
    let words = session.execute(
        &format!("return document.querySelector(\"button.map-card.revealed[data-location-id='{id}']\").textContent;"),
        json!([]),
    );
    assert!(words.as_str().is_some_and(|w| w.contains("The Sunken Mill")), "the revealed card's name: {words}");
    shots_of(&session, "nsu-map", "#world-map");
    // At 360 px a card's name and levels show whole inside its cell, none cut off.
    crate::phone_width(&session);
    session.wait_settled();
    let cut = session.execute(
        "return [...document.querySelectorAll('#world-map .map-card')].flatMap((cell) => { \
           const c = cell.getBoundingClientRect(); \
           return [...cell.querySelectorAll('.card-name, .card-meta')].filter((e) => { \
             const r = e.getBoundingClientRect(); \
             return r.bottom > c.bottom + 0.5 || r.right > c.right + 0.5 || r.left < c.left - 0.5 \
               || e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1; \
           }).map((e) => e.textContent); });",
        json!([]),
    );
    assert_eq!(cut, json!([]), "map cells cut their text at 360 px");
    crate::desktop_width(&session);

    // A long-term project: the usual 4, 6 or 8 segments offered first, any from 2 to 12 too
    // (decision 2026-11-28); a 10-segment clock starts empty.
    let sizes = session
        .execute("return [...document.querySelectorAll('#project-size option')].map((o) => o.value);", json!([]));
    assert_eq!(sizes, json!(["4", "6", "8", "2", "3", "5", "7", "9", "10", "11", "12"]));
    type_into(&session, "#project-name", "Raise the meeting house");
    session.click("#project-size option[value='10']");
    session.click("#project-start");
    wait_contains(&session, "#world-view", "Raise the meeting house (Ada Quill) — 0 of 10");
    dismiss_toast(&session);
    let face = session.wait_for(&format!("button.map-card.revealed[data-location-id='{id}']"));
    face.click();

    session.wait_for("#location-view");
    wait_clock(&session, "Collateral 0 of 8");
    let wedges = session.execute("return document.querySelectorAll('#collateral-clock path').length;", json!([]));
    assert_eq!(wedges, json!(8), "the clock is eight wedges");
    session.click("#clock-plus");
    wait_clock(&session, "Collateral 1 of 8");
    session.click("#clock-plus");
    wait_clock(&session, "Collateral 2 of 8");
    let filled =
        session.execute("return document.querySelectorAll('#collateral-clock path.filled').length;", json!([]));
    assert_eq!(filled, json!(2), "two wedges are shaded");
    assert!(session.wait_for("#location-view").text().contains("the miller's family"), "the card's texts are shown");
    session.wait_for("#toast-undo");
    shots_of(&session, "nsu-location-clock", "#nsu-screen");

    let conn = db(&db_path);
    let row: (i64, i64, i64, i64, i64, i64) = conn
        .query_row(
            "SELECT collateral, danger_level, reward_level, revealed, x, y FROM nsu_locations WHERE id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
        .expect("the location is a row");
    assert_eq!(row, (2, 3, 2, 1, 1, 0));
}

/// The fixture's game with Wren holding four harm details (Overcome) and four recovery
/// points.
fn overcome_game_file(path: &Path) -> String {
    let mut file = nsu_fixture();
    let wren = &mut file["data"]["games"][0]["characters"][0];
    assert_eq!(wren["name"], "Wren Ashdown");
    // Three harm details: the test records the fourth on the sheet.
    wren["nsu"]["harm"] = json!(["Sprained ankle", "Smoke in the lungs", "Cracked rib"]);
    wren["nsu"]["recovery_points"] = json!(4);
    let id = wren["id"].as_str().expect("characters have ids").to_string();
    write_game_file(path, &file);
    id
}

fn details(conn: &rusqlite::Connection, character: &str) -> Vec<(String, i64, String)> {
    conn.prepare("SELECT kind, position, text FROM nsu_details WHERE character_id = ?1 AND kind <> 'other' ORDER BY kind, position")
        .and_then(|mut st| st.query_map([character], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<Result<_, _>>())
        .expect("read nsu_details")
}

/// Recording a fourth harm detail on the sheet makes the character Overcome; downtime at
/// home rolls the complication for the place just left, then Recover Harm turns that harm
/// detail into a scar for four recovery points, Overcome goes, and Undo brings it back.
#[test]
fn overcome_character_recovers_harm_into_a_scar_in_downtime() {
    let (_window, scratch, db_path) = begin("nsu-downtime");
    let file = scratch.path("overcome.sheetkeeper.json");
    let wren = overcome_game_file(&file);

    let session = open(&db_path);
    session.click("#import-button");
    choose_file_in_native_dialog(OPEN_TITLE, &file, false);
    session.wait_for("#import-dialog");
    session.click("#import-confirm");
    session.wait_gone("#import-dialog");
    open_game(&session, "Lanterns over Brackwater");

    // The fourth harm detail, recorded on the sheet: Overcome.
    click_in_character_row(&session, "Wren Ashdown", ".character-open");
    session.wait_text("#harm-count", "3 of 4");
    // A finished character's sheet opens in play mode: harm is written in edit mode.
    session.click("#sheet-mode");
    let harm = session.wait_for("#harm-new");
    harm.click();
    harm.send_keys("Twisted knee");
    harm.send_keys(ENTER);
    session.wait_text("#harm-count", "4 of 4");
    assert!(session.wait_for("#overcome").text().to_lowercase().contains("overcome"));
    dismiss_toast(&session);
    // Downtime is a tab of the same screen.
    session.click("#nsu-tab-downtime");
    session.wait_for("#downtime-view");
    session.click("#downtime-at-home");
    // Only Wren rests; the party was at the Library (3 ticks): that is the place just left.
    session.click(".downtime-who[value='1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a']");
    let left = session.wait_for("#downtime-just-left").text();
    assert!(left.contains("Leaving Library (3 of 8 collateral)"), "{left:?}");
    session.click("#downtime-start");

    let card = format!(".downtime-character[data-character-id='{wren}']");
    let overcome = session.wait_for(&format!("{card} .overcome"));
    assert_eq!(overcome.text(), "Overcome");
    session.wait_text(&format!("{card} .recovery-points"), "5");

    // The phase cannot end before the complication it owes is rolled (audit D1).
    session.click("#downtime-end");
    let error = session.wait_for("#error-message").text();
    assert!(error.contains("“Library”, the location just left, is still due"), "{error:?}");
    assert!(session.find("#downtime-end").is_ok(), "the phase is still on");

    // The complication comes first: a 4 on the 1–3 ticks table.
    roll_complication(&session, "4", "Relations worsen");

    dismiss_toast(&session);
    let cost = session.wait_for(&format!("{card} .harm-cost")).text();
    assert!(cost.contains("now 4"), "the cost is the current harm count: {cost:?}");
    let picks = session.find_all(&format!("{card} .harm-pick"));
    assert_eq!(picks.len(), 4);
    picks[3].click();
    let scar = session.find_all(&format!("{card} .harm-scar")).remove(3);
    scar.clear();
    scar.send_keys("Stiff knee on cold days");
    let cost = session.wait_for(&format!("{card} .harm-cost")).text();
    assert!(cost.contains("Chosen: 4 of 5"), "the chosen cost is shown: {cost:?}");
    shots_of(&session, "nsu-downtime-before-recovery", &card);
    session.click(&format!("{card} .recover-harm-submit"));

    wait_contains(&session, &format!("{card} .scar-list"), "Stiff knee on cold days");
    session.wait_gone(&format!("{card} .overcome"));
    session.wait_text(&format!("{card} .recovery-points"), "1");
    assert!(session.wait_for("#downtime-results").text().contains("no longer Overcome"));
    session.wait_for("#toast-undo");
    shots_of(&session, "nsu-downtime", "#nsu-screen");

    let conn = db(&db_path);
    let expected = |harm: &[&str], scars: &[&str]| -> Vec<(String, i64, String)> {
        let mut rows: Vec<(String, i64, String)> =
            harm.iter().enumerate().map(|(i, t)| ("harm".to_string(), i as i64, t.to_string())).collect();
        rows.extend(scars.iter().enumerate().map(|(i, t)| ("scar".to_string(), i as i64, t.to_string())));
        rows
    };
    assert_eq!(
        details(&conn, &wren),
        expected(
            &["Sprained ankle", "Smoke in the lungs", "Cracked rib"],
            &["Burn scar on the left hand", "Stiff knee on cold days"]
        )
    );
    let points: i64 = conn
        .query_row("SELECT recovery_points FROM nsu_sheets WHERE character_id = ?1", [&wren], |r| r.get(0))
        .expect("read recovery points");
    assert_eq!(points, 1);

    // Undo from the toast puts the harm back.
    session.click("#toast-undo");
    session.wait_for(&format!("{card} .overcome"));
    assert_eq!(
        details(&conn, &wren),
        expected(
            &["Sprained ankle", "Smoke in the lungs", "Cracked rib", "Twisted knee"],
            &["Burn scar on the left hand"]
        )
    );
}

/// Opens the X-card, checks the overlay and closes it with Escape.
fn x_card_opens_and_escape_closes(session: &Session) {
    session.click("#xcard");
    let overlay = session.wait_for("#xcard-overlay");
    assert!(overlay.text().contains("no questions asked") || overlay.text().contains("No questions asked"));
    session.wait_for("#xcard-close").send_keys(ESCAPE);
    session.wait_gone("#xcard-overlay");
}

/// The X-card is reachable on the home screen and in the world view, and Escape closes it.
#[test]
fn x_card_opens_from_home_and_world_and_closes_with_escape() {
    let (_window, _scratch, _db_path, session) = begin_with("xcard", open);

    x_card_opens_and_escape_closes(&session);
    new_game(&session, "Quiet Table", "nsu");
    session.click("#game-world");
    session.wait_for("#world-view");
    session.click("#xcard");
    session.wait_for("#xcard-overlay");
    shots_at_both_widths(&session, "xcard");
    session.click("#xcard-close");
    session.wait_gone("#xcard-overlay");
    x_card_opens_and_escape_closes(&session);
    // The world view is still there underneath, and a typed safety line is kept.
    let line = session.wait_for("#safety-lines input");
    line.click();
    line.send_keys("spiders");
    line.send_keys(ENTER);
    wait_contains(&session, "#safety-lines", "spiders");
    shot(&session, "nsu-world-setup-1280");
}
