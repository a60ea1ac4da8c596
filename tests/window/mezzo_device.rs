//! Mezzo on a player's own device: a newcomer makes a character from home and lands on its
//! sheet in two taps (the game, then its Mezzo screen), the sheet's one-tap steppers, an
//! action check started by tapping a trait on the sheet, and a conflict resolved from the
//! totals the table counted (the same exact odds as `sheetkeeper odds mezzo --votes 3,1,0`).
//! Screenshots at 1280 and 360 px.

use serde_json::json;

use crate::mezzo::{
    add_player, conflict_options, db, first_edge, influence, press, shots_of, text_of, type_into, wait_contains,
};
use crate::webdriver::{Session, ENTER};
use crate::{begin_with, new_game, open, open_game};

/// A Mezzo game with one character made on the home screen: it lands on the character's sheet
/// at once; back home, one tap on its card opens the sheet again. Returns (game, character).
fn newcomer(session: &Session, game_name: &str, name: &str) -> (String, String) {
    let game = new_game(session, game_name, "mezzo");
    let input = session.wait_for("#new-character-name");
    input.click();
    input.send_keys(name);
    input.send_keys(ENTER);
    session.wait_text("#mz-sheet-heading", name);
    let character = sheet_shown(session);
    // Home, then one tap on the character's card: the sheet again.
    press(session, "#mezzo-back");
    session.wait_for("#mine-panel");
    let card = crate::wait_card(session, name);
    card.find(".character-card").expect("a card is a button").click();
    session.wait_text("#mz-sheet-heading", name);
    assert_eq!(sheet_shown(session), character, "the card opens the same sheet");
    (game, character)
}

/// `newcomer`'s Mira in the game `game_name`, claimed by Ada, its first player, and the first
/// arc being played. Returns (game, Mira, Ada).
fn claimed_by_ada(session: &Session, game_name: &str) -> (String, String, String) {
    let (game, mira) = newcomer(session, game_name, "Mira");
    type_into(session, "#mz-first-player", "Ada");
    press(session, "#mz-first-player-submit");
    wait_contains(session, ".mz-sheet-sub", "Claimed by Ada.");
    press(session, "#mezzo-tab-table");
    press(session, "#mz-start-arc");
    session.wait_text("#mz-arc-status", "Arc 1 is being played.");
    let ada = crate::mezzo::player_id(session, "Ada");
    (game, mira, ada)
}

/// The id of the element whose sheet is shown.
fn sheet_shown(session: &Session) -> String {
    let id = session.execute("return document.querySelector('#mz-sheet').dataset.elementId;", json!([]));
    id.as_str().expect("a sheet is shown").to_string()
}

#[test]
fn a_newcomer_reaches_the_sheet_and_starts_an_action_check_from_a_trait() {
    let (_window, _scratch, _db_path, session) = begin_with("mezzo-device-sheet", open);
    let (_game, mira) = newcomer(&session, "First Night", "Mira");
    assert!(session.find("#mezzo-tab-sheet[aria-current='page']").is_ok(), "the Sheet tab is shown");
    // First steps on the sheet: a player to play her, who claims her there.
    wait_contains(&session, "#mz-first-steps", "First steps");
    type_into(&session, "#mz-first-player", "Ada");
    press(&session, "#mz-first-player-submit");
    wait_contains(&session, ".mz-sheet-sub", "Claimed by Ada.");
    session.wait_gone("#mz-first-steps");
    // The sticky summary and the steppers: one tap each.
    session.wait_text("#mz-strip-momentum", "0");
    press(&session, "#mz-momentum-value-plus");
    session.wait_text("#mz-momentum-value", "1");
    session.wait_text("#mz-strip-momentum", "1");
    press(&session, "#mz-adversity-value-plus");
    session.wait_text("#mz-adversity-value", "1");
    wait_contains(&session, "#mz-strip-adversity", "1");
    press(&session, "#mz-sheet-influence-step-minus");
    session.wait_text("#mz-sheet-influence-step", "2");
    wait_contains(&session, "#mz-strip-influence", "2 (Ada)");

    // A first trait (the add-trait form is open on an empty sheet), then tap it to act.
    let trait_id = first_edge(&session, "Quick Hands");
    shots_of(&session, "mezzo-my-sheet", "#mezzo-screen");
    press(&session, &format!(".mz-trait[data-trait-id='{trait_id}'] .mz-trait-act"));
    session.wait_for("#mezzo-tab-check[aria-current='page']");
    session.wait_until("Mira acting in the check", || {
        let v = session.execute("return document.getElementById('mzc-actor-0')?.value ?? null;", json!([]));
        (v == json!(mira)).then_some(())
    });
    wait_contains(&session, &format!("#mzc-trait-votes-{mira}"), "Quick Hands: +1 vote for Mira");
    // Common (2) and the trait's vote: 3 votes, a d8, against the failure's d4.
    session.wait_text("#mzc-dice-0", "d8");
    session.wait_text("#mzc-dice-1", "d4");
    shots_of(&session, "mezzo-check-from-trait", "#mzc-sides");
}

#[test]
fn a_conflict_resolved_from_the_totals_the_table_counted() {
    let (_window, _scratch, db_path, session) = begin_with("mezzo-device-totals", open);
    let (game, _mira) = newcomer(&session, "Count Night", "Mira");
    press(&session, "#mezzo-tab-table");
    press(&session, "#mz-start-arc");
    session.wait_text("#mz-arc-status", "Arc 1 is being played.");
    add_player(&session, "Ada");
    add_player(&session, "Bo");

    press(&session, "#mezzo-tab-conflict");
    conflict_options(&session, "Who holds the lantern?", &["The ferryman", "The smuggler", "Nobody"]);
    press(&session, "#mz-entry-totals");
    session.wait_for("#mz-totals");
    assert!(session.find("#mz-casts fieldset.mz-caster").is_err(), "no per-player casts with totals");
    for _ in 0..3 {
        press(&session, "#mz-total-0-plus");
    }
    press(&session, "#mz-total-1-plus");
    session.wait_text("#mz-total-0", "3");
    session.wait_text("#mz-total-1", "1");
    session.wait_text("#mz-dice-0", "d8");
    session.wait_text("#mz-dice-1", "d4");
    // 143/192, 47/192 and 1/96: `sheetkeeper odds mezzo --votes 3,1,0`.
    session.wait_text("#mz-odds-pct-0", "74.5%");
    let exact: Vec<serde_json::Value> = (0..3)
        .map(|i| session.execute(&format!("return document.getElementById('mz-odds-pct-{i}').title;"), json!([])))
        .collect();
    assert_eq!(exact, vec![json!("exactly 143/192"), json!("exactly 47/192"), json!("exactly 1/96")]);
    shots_of(&session, "mezzo-totals", "#mz-casts");

    press(&session, "#mz-hand");
    session.wait_for("#mz-die-2");
    type_into(&session, "#mz-die-1", "2");
    type_into(&session, "#mz-die-2", "4");
    press(&session, "#mz-resolve-submit");
    session.wait_text("#mz-summary", "“The smuggler” wins.");
    assert_eq!(
        influence(&db(&db_path), &game),
        vec![("Ada".into(), 3), ("Bo".into(), 3)],
        "counted votes are paid on the devices that cast them"
    );
    press(&session, "#mezzo-tab-log");
    wait_contains(&session, "#mezzo-body", "“The smuggler” wins.");
}

/// The seed deck built and its session started, and one card bought for each of `players`.
fn a_card_each(session: &Session, players: &[&str]) {
    crate::mezzo::build_deck(session);
    press(session, "#mzd-start-session");
    for player in players {
        press(session, &format!("#mzd-buy-{player}"));
        session.wait_text(&format!("#mzd-hand-count-{player}"), "1 card");
    }
}

/// This device becomes a player's phone in the game `(id, name)`, the character `kept` kept
/// here for another player; then the game's Mezzo screen is opened again from home.
fn a_players_phone(session: &Session, (game, name): (&str, &str), kept: &str) {
    invoke(session, "set_mine", json!({ "character": kept, "mine": false }));
    invoke(session, "set_device_role", json!({ "game": game, "role": "player" }));
    crate::back_home(session);
    // The games list is drawn again with the new role: look for the game once it settled.
    session.wait_settled();
    open_game(session, name);
    press(session, "#game-mezzo");
}

/// Calls a Tauri command from the page, as the shell's settings would (the device's role, a
/// character kept for another player), and waits for its answer.
fn invoke(session: &Session, command: &str, args: serde_json::Value) {
    let out = session.execute_async(
        "const done = arguments[arguments.length - 1]; \
         window.__TAURI__.core.invoke(arguments[0], arguments[1]).then(() => done('ok'), (e) => done(JSON.stringify(e)));",
        json!([command, args]),
    );
    assert_eq!(out, json!("ok"), "{command}");
}

/// A player's own phone: Ada plays Mira here; Bo plays Nox, kept on this device for Bo. The
/// sheet says who acts, the conflict asks for Ada's casts and the others' totals only, and the
/// seed deck offers Ada's hand, never Bo's.
#[test]
fn a_player_device_acts_for_its_own_players_and_shows_only_their_hands() {
    let (_window, _scratch, _db_path, session) = begin_with("mezzo-device-player", open);
    let (game, mira, ada) = claimed_by_ada(&session, "Phone Night");
    let bo = add_player(&session, "Bo");
    press(&session, "#mezzo-tab-elements");
    type_into(&session, "#mz-new-character", "Nox");
    press(&session, "#mz-new-character-submit");
    let nox = crate::mezzo::element_id(&session, "Nox");
    crate::mezzo::claim(&session, &bo, &nox, "Nox");
    a_card_each(&session, &[&ada]);

    // This device becomes Ada's phone; Nox is kept here for Bo.
    a_players_phone(&session, (&game, "Phone Night"), &nox);
    session.wait_text("#mz-sheet-heading", "Mira");
    assert_eq!(sheet_shown(&session), mira);
    session.wait_text("#mz-acting-line", "You act as Ada.");
    assert!(session.find("#mz-acting").is_err(), "no acting-player choice on a player's phone");

    press(&session, "#mezzo-tab-conflict");
    session.wait_for("#mz-totals");
    assert!(session.find(&format!("fieldset.mz-caster[data-player-id='{ada}']")).is_ok(), "Ada casts here");
    assert!(session.find(&format!("fieldset.mz-caster[data-player-id='{bo}']")).is_err(), "Bo casts on his own phone");
    assert!(session.find("#mz-entry").is_err(), "a player's phone always takes the others' totals");
    wait_contains(&session, "#mz-totals", "Your own votes go below; the others' votes cost nothing on this device.");
    shots_of(&session, "mezzo-player-conflict", "#mz-casts");

    press(&session, "#mezzo-tab-deck");
    session.wait_for(&format!("#mzd-show-{ada}"));
    assert!(session.find(&format!("#mzd-show-{bo}")).is_err(), "Bo's hand is not offered here");
    press(&session, &format!("#mzd-show-{ada}"));
    session.wait_for("#mzd-hand-list .mzd-card");
    let hand = text_of(&session, "#mzd-hand");
    assert!(!hand.contains("Pass the device"), "{hand:?}");
    shots_of(&session, "mezzo-player-hand", "#mzd-hand");
}

/// DEV-1: a Mezzo player is a viewer in their own right. Cy claims no character; on the phone
/// he says "I am Cy" on the Seed deck tab, sees his own hand and influence (never Ada's, whose
/// character is kept here too) and plays a card from it.
#[test]
fn a_player_with_no_character_says_who_they_are_and_plays_their_own_hand() {
    let (_window, _scratch, _db_path, session) = begin_with("mezzo-device-seat", open);
    let (game, mira, ada) = claimed_by_ada(&session, "Seat Night");
    let cy = add_player(&session, "Cy");
    a_card_each(&session, &[&ada, &cy]);

    // The device becomes Cy's phone: Mira is kept here for Ada.
    a_players_phone(&session, (&game, "Seat Night"), &mira);
    press(&session, "#mezzo-tab-deck");
    // Nobody's hand is offered until the phone's person says who they are; Ada's never is.
    session.wait_for(&format!("#mzd-me-{cy}"));
    assert!(session.find(&format!("#mzd-show-{cy}")).is_err(), "Cy's hand waits for “I am Cy”");
    assert!(session.find(&format!("#mzd-show-{ada}")).is_err(), "Ada's hand is not offered here");
    session.wait_text(&format!("#mzd-me-{cy}"), "I am Cy");
    shots_of(&session, "mezzo-player-seat", "#mzd-seats");
    press(&session, &format!("#mzd-me-{cy}"));
    press(&session, &format!("#mzd-show-{cy}"));
    session.wait_for("#mzd-hand-list .mzd-card");
    wait_contains(&session, "#mzd-hand", "Cy holds 2 influence.");
    let hand = text_of(&session, "#mzd-hand");
    assert!(!hand.contains("Pass the device"), "{hand:?}");
    shots_of(&session, "mezzo-player-seat-hand", "#mzd-hand");

    // Cy plays his card: it lies face up before him.
    let card = session.execute("return document.querySelector('#mzd-hand-list .mzd-card').dataset.cardId;", json!([]));
    let card = card.as_str().expect("a card in Cy's hand").to_string();
    press(&session, &format!("#mzd-play-{card}"));
    session.wait_text(&format!("#mzd-hand-count-{cy}"), "0 cards");
    session.wait_for(&format!(".mzd-seat[data-player-id='{cy}'] .mzd-active [data-card-id='{card}']"));
    // "Cy is not me": the hand is closed to this phone again.
    press(&session, &format!("#mzd-me-{cy}"));
    session.wait_text(&format!("#mzd-me-{cy}"), "I am Cy");
    assert!(session.find(&format!("#mzd-show-{cy}")).is_err(), "the hand is closed again");
}
