//! Penny Ante: a hidden antagonist's purse cannot be worked out from the House's pile or
//! ledger as a player's screen shows them (issue 33, audit D-PA2; RULES.md §2.2 decision
//! 2026-11-28), driven like a person with the device's role set on the home screen.
//! Ada's phone reads the House's pile (25) and its ledger; the House's own device then funds
//! the Troll (hidden "Hates riddles") with 10: her screen shows the pile at 15, the funding
//! in her ledger with its "pile after", and `pa_ledger` holds it. Ada's phone still reads 25,
//! the House's ledger word for word as before, no entry naming the Troll anywhere in the
//! game's ledger, and its log only says the House readied its antagonists. Ada then
//! challenges the House (ante 1): on her phone the House's pile goes 25 → 24 and its ledger
//! reads #1, #2 with "pile after" 25, 24 — no gap in the numbering, no jump — while the
//! House's device numbers the funding among them (25, 15, 14). Screenshots at 1280 and 360 px.

use serde_json::json;

use crate::penny_ante::{
    add_player, add_the_troll, choose, db, dismiss_toast, issue, new_penny_game, page_has, pile, press, set_role,
    shots_of, start_adventure, text_of,
};
use crate::webdriver::Session;
use crate::{begin_with, open};

/// One ledger entry as the screen shows it: its `data-n`, its "#k", "from → to", amount, and
/// "pile after" (empty in the whole game's ledger).
type Shown = (String, String, String, String, String);

/// The ledger tab for `account` ("" the whole game, "house" the House), its entries oldest
/// first, once the page has settled.
fn ledger(session: &Session, account: &str) -> Vec<Shown> {
    press(session, "#penny-tab-ledger");
    session.wait_for("#penny-body[data-tab='ledger']");
    choose(session, "#penny-ledger-account", account);
    session.wait_settled();
    dismiss_toast(session);
    let rows = session.execute(
        "const part = (li, c) => (li.querySelector(c) || { textContent: '' }).textContent.trim(); \
         return [...document.querySelectorAll('#penny-ledger-list .penny-entry')].reverse().map((li) => \
           [li.dataset.n, part(li, '.penny-entry-n'), part(li, '.penny-entry-move'), \
            part(li, '.penny-entry-amount'), part(li, '.penny-entry-after')]);",
        json!([]),
    );
    serde_json::from_value(rows).expect("the ledger's entries")
}

/// The "pile after" of each entry, oldest first.
fn piles_after(entries: &[Shown]) -> Vec<&str> {
    entries.iter().map(|e| e.4.as_str()).collect()
}

/// Each entry's `data-n` and its "#k": both 1, 2, 3… with no gap.
fn assert_numbered_without_gaps(entries: &[Shown], whose: &str) {
    let numbers: Vec<(String, String)> = entries.iter().map(|e| (e.0.clone(), e.1.clone())).collect();
    let counted: Vec<(String, String)> = (1..=entries.len()).map(|k| (k.to_string(), format!("#{k}"))).collect();
    assert_eq!(numbers, counted, "{whose}: the entries are numbered 1, 2, 3… ({entries:?})");
}

/// The House's pile on the table tab.
fn house_pile(session: &Session, reads: &str) {
    press(session, "#penny-tab-table");
    session.wait_for("#penny-body[data-tab='table']");
    session.wait_text("#penny-house-pile", reads);
}

#[test]
fn funding_a_hidden_purse_shows_on_the_houses_screen_and_not_on_a_players() {
    let (_window, _scratch, db_path, session) = begin_with("penny-house-view", open);
    let game = new_penny_game(&session, "Penny House View");
    press(&session, "#penny-tab-table");
    let ada = add_player(&session, "Ada", "Strong", "25");
    start_adventure(&session, "25");
    let troll = add_the_troll(&session);
    let conn = db(&db_path);

    // Ada's phone, before: the House holds 25, one entry in its ledger.
    set_role(&session, "player");
    house_pile(&session, "25");
    let before = ledger(&session, "house");
    assert_eq!(piles_after(&before), ["pile after: 25"], "{before:?}");
    assert_eq!(text_of(&session, "#penny-ledger-pile"), "25");
    let whole_before = ledger(&session, "");
    assert_numbered_without_gaps(&whole_before, "Ada's whole ledger");

    // The House's own device: she funds the Troll with 10; her screen shows it.
    set_role(&session, "table");
    house_pile(&session, "25");
    press(&session, ".penny-antagonist .penny-fund[data-amount='10']");
    session.wait_text(".penny-antagonist .penny-purse", "10");
    session.wait_text("#penny-house-pile", "15");
    let house = ledger(&session, "house");
    assert_eq!(piles_after(&house), ["pile after: 25", "pile after: 15"], "{house:?}");
    assert_eq!((house[1].2.as_str(), house[1].3.as_str()), ("the House → The Troll", "10 pennies"), "{house:?}");
    assert_eq!(text_of(&session, "#penny-ledger-pile"), "15");
    shots_of(&session, "penny-house-view-funded-house", "#penny-ledger");
    assert_eq!(pile(&conn, &game, "house", None), 15);
    assert_eq!(pile(&conn, &game, "antagonist", Some(&troll)), 10);

    // Ada's phone: the House's pile, its ledger and the game's read as before the funding.
    set_role(&session, "player");
    house_pile(&session, "25");
    assert_eq!(text_of(&session, ".penny-antagonist .penny-purse"), "? pennies");
    assert_eq!(ledger(&session, "house"), before, "the House's ledger, word for word as before");
    assert_eq!(text_of(&session, "#penny-ledger-pile"), "25");
    let whole = ledger(&session, "");
    assert_eq!(whole, whole_before, "the game's ledger, as before");
    assert!(!text_of(&session, "#penny-ledger-list").contains("The Troll"), "{whole:?}");
    press(&session, "#penny-tab-log");
    session.wait_for("#penny-body[data-tab='log']");
    session.wait_settled();
    assert!(page_has(&session, "The House readied its antagonists."), "the log says only that much");
    assert!(!page_has(&session, "gives The Troll"), "the log keeps the amount to the House");

    // Ada challenges the House, ante 1: a visible move after the hidden one.
    house_pile(&session, "25");
    issue(&session, "The toll at the ford", "1");
    press(&session, "#penny-start-challenge");
    session.wait_for("#penny-shared");
    session.wait_text("#penny-pot", "2");
    house_pile(&session, "24");
    let house = ledger(&session, "house");
    assert_eq!(piles_after(&house), ["pile after: 25", "pile after: 24"], "no jump: {house:?}");
    assert_eq!(house[1].3, "1 penny", "{house:?}");
    shots_of(&session, "penny-house-view-player-house", "#penny-ledger");
    let whole = ledger(&session, "");
    assert_eq!(whole.len(), whole_before.len() + 2, "Ada's ante and the House's: {whole:?}");
    assert_numbered_without_gaps(&whole, "Ada's whole ledger");
    assert!(!text_of(&session, "#penny-ledger-list").contains("The Troll"), "{whole:?}");
    shots_of(&session, "penny-house-view-player", "#penny-ledger");

    // The House's device counts the funding among them.
    set_role(&session, "table");
    house_pile(&session, "14");
    let house = ledger(&session, "house");
    assert_eq!(piles_after(&house), ["pile after: 25", "pile after: 15", "pile after: 14"], "{house:?}");
    let whole = ledger(&session, "");
    assert_eq!(whole.len(), whole_before.len() + 3, "{whole:?}");
    assert_numbered_without_gaps(&whole, "the House's whole ledger");
    assert!(whole.iter().any(|e| e.2 == "the House → The Troll"), "{whole:?}");
    assert_eq!(pile(&conn, &game, "house", None), 14);
    assert_eq!(pile(&conn, &game, "character", Some(&ada)), 24);
}
