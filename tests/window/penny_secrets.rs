//! Penny Ante secrets at a real table (audit issue 16): an anonymous challenge the House's
//! antagonist issues, seen from a device passed around (the House's secrets only after "Hand
//! the device to the House"), from the House's own device and from a player's phone (never
//! in the page); and the simultaneous reveal of the cups, either side choosing first, the
//! odds following the characteristics ticked. Screens at 1280 and 360 px.

use crate::penny_ante::{
    ada_at_the_table, add_the_troll, anonymous_challenge, at_the_table, both_sides_pass_the_circumstances, choose,
    dismiss_toast, issue, page_has, pass_to, press, set_role, shots_of, text_of, type_dice, type_into,
};
use crate::webdriver::Session;
use crate::{begin_with, open, open_dark};

/// On a device passed around: "Show the House's secrets", the hand-over screen, "I am the
/// House"; waits for the secrets to show.
pub(crate) fn show_house_secrets(session: &Session) {
    press(session, "#penny-house-show");
    session.wait_for("#penny-house-hand-over");
    assert!(!page_has(session, "Hates riddles"), "the hand-over screen shows no secret");
    press(session, "#penny-house-ready");
    session.wait_for("#penny-house-shown");
}

/// The game with Ada (25 pennies), an adventure, and the Troll ("Huge", hidden "Hates
/// riddles") funded with 10 by the House after the hand-over; returns the Troll's id.
fn troll_table(session: &Session, game: &str) -> String {
    ada_at_the_table(session, game);
    let troll = add_the_troll(session);
    // Passed around, the shared screen keeps the House's secrets: placeholders only.
    session.wait_text(".penny-antagonist .penny-purse", "? pennies");
    dismiss_toast(session);
    assert!(!page_has(session, "Hates riddles"), "the shared screen holds no hidden characteristic");
    press(session, "#penny-house-show");
    session.wait_for("#penny-house-hand-over");
    shots_of(session, "penny-secrets-hand-over", "#penny-antagonists");
    press(session, "#penny-house-cancel");
    session.wait_for("#penny-house-show");
    show_house_secrets(session);
    assert!(page_has(session, "Hates riddles"), "handed to the House, the table shows it");
    press(session, ".penny-antagonist .penny-fund[data-amount='10']");
    session.wait_text(".penny-antagonist .penny-purse", "10");
    troll
}

/// Audit #2: the Troll challenges Ada anonymously with 4 of its 10 pennies. The devoted
/// pennies, the purse and the hidden characteristic are on the House's screens only.
#[test]
fn an_anonymous_challenge_keeps_the_houses_secrets_off_the_shared_and_the_players_screens() {
    let (_window, _scratch, _db_path, session) = begin_with("penny-secrets", open);
    let troll = troll_table(&session, "Penny Secrets");
    let ada = session.wait_for(".penny-player").attribute("data-character-id").expect("Ada's id");

    anonymous_challenge(&session, "Ninjas at the inn", &troll, &ada, "4");
    session.wait_text("#penny-pot", "2");
    dismiss_toast(&session);
    // Passed around: the shared table says "? pennies".
    let pot = text_of(&session, ".penny-pot-line");
    assert!(pot.contains("anonymous, ? pennies devoted"), "{pot}");
    assert!(text_of(&session, ".penny-side.challenger").contains("holds ? pennies"));
    for secret in ["4 pennies devoted", "holds 9", "Hates riddles"] {
        assert!(!page_has(&session, secret), "the shared screen shows {secret}");
    }
    // The ledger too: the Troll's purse moves show only once the device is handed to the House.
    press(&session, "#penny-tab-ledger");
    session.wait_for("#penny-ledger-list");
    dismiss_toast(&session);
    // (The Troll's name is no secret: it challenges in the open; its purse's moves are.)
    assert!(
        !text_of(&session, "#penny-ledger-list").contains("The Troll"),
        "the shared ledger shows the purse's moves"
    );
    assert!(!text_of(&session, "#penny-ledger-account").contains("The Troll"), "the shared ledger offers the purse");
    show_house_secrets(&session);
    let ledger = text_of(&session, "#penny-ledger-list");
    assert!(ledger.contains("the House → The Troll"), "the House sees its purse: {ledger:?}");
    shots_of(&session, "penny-secrets-ledger-house", "#penny-ledger");
    press(&session, "#penny-house-hide");
    session.wait_for("#penny-house-show");
    assert!(!text_of(&session, "#penny-ledger-list").contains("The Troll"), "hidden again");

    // The House's own device shows its secrets at once.
    set_role(&session, "table");
    press(&session, "#penny-tab-challenge");
    session.wait_for("#penny-shared");
    assert!(text_of(&session, ".penny-pot-line").contains("anonymous, 4 pennies devoted"));
    assert!(text_of(&session, ".penny-side.challenger").contains("holds 9"));

    // Ada's phone: nothing of it anywhere in the page, on any tab.
    set_role(&session, "player");
    press(&session, "#penny-tab-challenge");
    session.wait_for("#penny-shared");
    dismiss_toast(&session);
    assert!(text_of(&session, ".penny-pot-line").contains("anonymous, ? pennies devoted"));
    for tab in ["challenge", "table", "ledger", "log"] {
        press(&session, &format!("#penny-tab-{tab}"));
        session.wait_for(&format!(".penny-tab-{tab}"));
        dismiss_toast(&session);
        for secret in ["4 pennies devoted", "holds 9", "Hates riddles", "penny-purse\">9", "penny-purse\">10"] {
            assert!(!page_has(&session, secret), "Ada's phone shows {secret} on the {tab} tab");
        }
    }
    press(&session, "#penny-tab-challenge");
    session.wait_for("#penny-shared");
    shots_of(&session, "penny-secrets-player", "#penny-shared");
}

/// Audits #3 and #4: Ada against the House on one device passed around, every die typed in,
/// in dark mode. The odds follow the boxes ticked; the House chooses its cup first; Ada then
/// sees none of its dice until she has chosen hers, and then both show.
#[test]
fn the_cups_are_revealed_together_whichever_side_chooses_first() {
    let (_window, _scratch, _db_path, session) = begin_with("penny-reveal", open_dark);
    ada_at_the_table(&session, "Penny Reveal");
    press(&session, "#penny-issue");
    type_into(&session, "#penny-stake", "The last pie");
    press(&session, "#penny-start-challenge");
    session.wait_for("#penny-shared");
    press(&session, "#penny-hand");
    both_sides_pass_the_circumstances(&session);

    // Ticking "Strong" changes the odds shown (two dice instead of one).
    pass_to(&session, "challenger", "characteristics", "Ada");
    session.wait_for("#penny-char-odds #penny-odds-win");
    let one_die = text_of(&session, "#penny-odds-win");
    press(&session, "#penny-char-0");
    session.wait_until("the odds for two dice", || {
        let now = text_of(&session, "#penny-odds-win");
        (now != one_die).then_some(())
    });
    press(&session, "#penny-char-submit");
    pass_to(&session, "opponent", "characteristics", "the House");
    press(&session, "#penny-char-submit");

    // The roll: Ada is asked first, but the House goes first instead.
    session.wait_for("#penny-pass[data-side='challenger'][data-task='roll']");
    press(&session, "#penny-other-first");
    pass_to(&session, "opponent", "roll", "the House");
    type_dice(&session, "penny-die", &["5"]);
    press(&session, "#penny-roll");
    session.wait_for("#penny-cup-submit");
    press(&session, "#penny-cup-submit");

    // Ada's turn: the House's 5 is not on the table while she chooses.
    pass_to(&session, "challenger", "roll", "Ada");
    let house = ".penny-side.opponent";
    assert!(text_of(&session, house).contains("Cup chosen; shown when both sides have chosen"));
    assert!(!page_has(&session, "a 5, showing"), "the House's kept die waits for Ada's cup");
    type_dice(&session, "penny-die", &["6", "2"]);
    press(&session, "#penny-roll");
    session.wait_for("#penny-cup-0");
    assert!(!page_has(&session, "a 5, showing"), "still hidden while Ada chooses");
    shots_of(&session, "penny-reveal-choosing", "#penny-challenge-heading");
    press(&session, "#penny-cup-1");
    press(&session, "#penny-cup-submit");

    // Both cups chosen: both sides' shown dice at once.
    session.wait_for("#penny-pass[data-task='bet']");
    assert!(page_has(&session, "a 5, showing") && page_has(&session, "a 6, showing"), "both revealed");
    assert!(!page_has(&session, "a 2, showing"), "Ada's 2 stays in her cup");
    shots_of(&session, "penny-reveal-both", "#penny-shared");
}

/// Audit #13: Bo cannot pay Ada's ante of 26; the screen offers him all in or a fold while
/// nothing is at stake, and folding leaves both piles as they were.
#[test]
fn a_short_opponent_chooses_to_fold_at_the_ante() {
    let (_window, _scratch, _db_path, session) = begin_with("penny-short", open);
    let [ada, bo] = at_the_table(&session, "Penny Short", [("Ada", "Strong", "30"), ("Bo", "Clever", "25")], "55");
    issue(&session, "The bridge toll", "26");
    choose(&session, "#penny-opponent", &format!("character:{bo}"));
    press(&session, "#penny-start-challenge");
    session.wait_for("#penny-ante-opponent");
    let words = text_of(&session, "#penny-ante-opponent-words");
    assert!(words.contains("Bo cannot pay the ante of 26 pennies"), "{words}");
    assert!(session.find("#penny-circ-opponent-pass").is_err(), "no circumstance before the choice");
    shots_of(&session, "penny-ante-choice", "#penny-action");
    press(&session, "#penny-ante-opponent-fold");
    session.wait_for("#penny-result");
    press(&session, "#penny-to-table");
    session.wait_text(&format!("#penny-pile-{ada}"), "30");
    session.wait_text(&format!("#penny-pile-{bo}"), "25");
}
