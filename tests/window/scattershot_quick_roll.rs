//! Scattershot's one-tap roll (issue 32), driven like a person and every tap counted from the
//! sheet: a tap on Ada's Agility opens the roll with it, the odds in one line beside Roll
//! before any die; Roll (and, when the number may be bought up or spent, Conclude) settles it
//! in at most 3 taps; Roll again rolls the same set-up; a changed modifier changes the odds at
//! once; the next tap on Ada's sheet brings her last choices back. With an experience die in
//! the Gamemaster's stock the Decision Phase stays (someone may bid) and "Conclude as it
//! stands" settles it, still within 3 taps. Screenshots at 1280 and 360 px, light and dark.

use serde_json::json;

use crate::mezzo::{dismiss_toast, shots_of, text_of, wait_contains};
use crate::scattershot_sheet::{press, type_into};
use crate::webdriver::Session;
use crate::{begin_with, in_dark, on_screen, open, Taps};

/// Waits for the roll to be settled (its reading shown), tapping Conclude once when the
/// Application Phase offers a choice first.
fn settle(taps: &mut Taps<'_>) -> String {
    let session = taps.session;
    let next = session.wait_until("the result, or the Application Phase", || {
        if session.find("#sc-roll-reading").is_ok() {
            Some("settled")
        } else if session.find("#sc-roll-conclude").is_ok() {
            Some("choose")
        } else {
            None
        }
    });
    if next == "choose" {
        taps.tap("#sc-roll-conclude");
    }
    text_of(session, "#sc-roll-reading")
}

/// How many of the log's entries name `words`.
fn log_entries_with(session: &Session, words: &str) -> u64 {
    press(session, "#sc-tab-log");
    session.wait_for("#sc-log-undo");
    let n = session.execute(
        "return [...document.querySelectorAll('#scattershot-body li')].filter((li) => li.textContent.includes(arguments[0])).length;",
        json!([words]),
    );
    n.as_u64().expect("a count")
}

#[test]
fn a_rating_on_the_sheet_rolls_to_a_settled_result_in_three_taps_and_rolls_again() {
    let (_window, _scratch, _db, session) = begin_with("scattershot-quick", open);
    let (_game, _ada, _bo, _cy) = crate::scattershot::table(&session, "Quick Town");
    dismiss_toast(&session);
    press(&session, "#sc-tab-sheet");
    session.wait_text("#sc-sheet-heading", "Ada");

    // Tap 1: Agility (10) opens the roll, ready, the odds on screen before any die.
    let mut taps = Taps::new(&session, press);
    taps.tap("#sc-sheet-agility-roll");
    session.wait_for("#sc-roll-quick");
    assert_eq!(
        session.execute("return document.getElementById('sc-roll-actor-rating').value;", json!([])),
        json!("statistic:agility")
    );
    // 10 − 2d10 ≥ 0 for 45 of the 100 faces, ≥ 7 for 3, below −7 for 6.
    session.wait_text("#sc-odds-summary", "Succeeds 45.0% · Telling Blow 3.0% · Catastrophic 6.0%");
    assert!(on_screen(&session, "#sc-odds-summary"), "the odds are on screen at once");
    wait_contains(&session, "#sc-roll-odds", "45 of 100");
    assert!(!text_of(&session, "#sc-roll-odds").contains("null"), "no part left out shows as \"null\" (D3)");
    assert!(on_screen(&session, "#sc-roll-quick"), "and Roll beside them");
    let focused = session.execute("return document.activeElement && document.activeElement.id;", json!([]));
    assert_eq!(focused, json!("sc-roll-quick"), "Roll has the focus: Enter rolls");
    shots_of(&session, "scattershot-quick-setup", "#sc-roll-setup");
    in_dark(&session, || shots_of(&session, "scattershot-quick-setup-dark", "#sc-roll-setup"));

    // Tap 2: Roll. Nobody holds an experience die, so no Decision Phase to tap through.
    taps.tap("#sc-roll-quick");
    let reading = settle(&mut taps);
    assert!(["Success", "Failure", "Telling Blow", "Catastrophic Failure"].contains(&reading.as_str()), "{reading}");
    assert!(taps.count <= 3, "sheet → settled result in {} taps", taps.count);
    assert!(session.find("#sc-roll-live").is_err(), "nothing is left on the table to settle");
    shots_of(&session, "scattershot-quick-result", "#sc-roll-result");
    in_dark(&session, || shots_of(&session, "scattershot-quick-result-dark", "#sc-roll-result"));

    // Roll again: the same set-up, one more roll, settled the same way.
    let mut again = Taps::new(&session, press);
    session.execute("document.getElementById('sc-roll-result').dataset.old = 'yes';", json!([]));
    again.tap("#sc-roll-again");
    session.wait_gone("#sc-roll-result[data-old='yes']");
    settle(&mut again);
    assert!(again.count <= 2, "Roll again → settled in {} taps", again.count);
    assert_eq!(log_entries_with(&session, "Ada rolls at 10 +0."), 2, "two rolls of the same set-up");

    // A changed choice changes the odds at once: +2 makes it 64 of 100.
    press(&session, "#sc-tab-roll");
    session.wait_for("#sc-roll-quick");
    type_into(&session, "#sc-roll-actor-modifier", "2");
    session.wait_text("#sc-odds-summary", "Succeeds 64.0% · Telling Blow 10.0% · Catastrophic 1.0%");
    wait_contains(&session, "#sc-odds-success", "64.0%");

    // Ada's last choices come back with her next tap on the sheet: Strength, still +2.
    dismiss_toast(&session);
    press(&session, "#sc-tab-sheet");
    session.wait_text("#sc-sheet-heading", "Ada");
    press(&session, "#sc-sheet-strength-roll");
    session.wait_for("#sc-roll-quick");
    assert_eq!(
        session.execute("return document.getElementById('sc-roll-actor-rating').value;", json!([])),
        json!("statistic:strength")
    );
    assert_eq!(
        session.execute("return document.getElementById('sc-roll-actor-modifier').value;", json!([])),
        json!("2")
    );
    session.wait_text("#sc-odds-summary", "Succeeds 64.0% · Telling Blow 10.0% · Catastrophic 1.0%");
}

#[test]
fn with_a_die_someone_may_bid_the_decision_phase_stays_and_concluding_as_it_stands_settles_it() {
    let (_window, _scratch, _db, session) = begin_with("scattershot-quick-bid", open);
    let (_game, _ada, _bo, _cy) = crate::scattershot::table(&session, "Bid Town");
    // One die in the Gamemaster's stock: the Gamemaster may bid on any roll.
    crate::scattershot::fill_stock(&session, 0, 1);
    dismiss_toast(&session);
    press(&session, "#sc-tab-sheet");
    session.wait_text("#sc-sheet-heading", "Ada");

    let mut taps = Taps::new(&session, press);
    taps.tap("#sc-sheet-agility-roll");
    session.wait_text("#sc-odds-summary", "Succeeds 45.0% · Telling Blow 3.0% · Catastrophic 6.0%");
    taps.tap("#sc-roll-quick");
    // The 2d10 are rolled with the tap; the bidding is the table's choice, so it stays.
    session.wait_for("#sc-dice-actor-faces");
    session.wait_for("#sc-xp-roll");
    session.wait_for("#sc-roll-settle");
    assert!(
        text_of(&session, "#sc-roll-phase").starts_with("Decision Phase: the 2d10 are rolled;"),
        "the phase says the dice are rolled, not to roll them"
    );
    shots_of(&session, "scattershot-quick-decision", "#sc-roll-live");
    in_dark(&session, || shots_of(&session, "scattershot-quick-decision-dark", "#sc-roll-live"));
    taps.tap("#sc-roll-settle");
    text_of(&session, "#sc-roll-reading");
    assert!(taps.count <= 3, "sheet → settled result in {} taps", taps.count);
    assert!(session.find("#sc-roll-adjustments").is_err(), "no complication or benefit was taken");
}
