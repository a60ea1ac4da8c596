//! Issue 32, the live table feed: a roll on one device at a linked table shows as a card on
//! another device's screen. The other devices run in this test process on 127.0.0.1 (as in
//! `link_notes.rs`). In the first test the real app window is a player's device, joined through
//! "Join a table nearby" to a host in this process; in the second it is the table's device,
//! hosting from its game panel. A device in this process claims Tobias and rolls 2d6 on its
//! dice tray (as the app's `dice_tray_roll` does on a joined device: rolled there, sent to the
//! table as a move); the window, on the game's screen, shows the card — who, what, the dice,
//! the sum — and a tap on it opens the Log tab.

use std::net::SocketAddr;
use std::path::Path;

use rand::SeedableRng;
use serde_json::json;
use sheetkeeper::link::{Claimed, JoinConfig, JoinHandle, LinkState};
use sheetkeeper::services;
use sheetkeeper::Store;
use uuid::Uuid;

use crate::fixtures::{nsu_fixture, penny_challenge, penny_player, TOBIAS};
use crate::link_notes::{host_table, join_in_window, on_the_table, tap, wait_for, window_hosting, LINK_WAIT};
use crate::webdriver::Session;
use crate::{in_dark, one_window, open_game, shots_at_both_widths_with, Scratch};

const GAME: &str = "Lanterns over Brackwater";
/// The NSU fixture game on the table's database; returns its id.
fn table_with_the_game(scratch: &Scratch, db: &Path) -> Uuid {
    on_the_table(scratch, db, &nsu_fixture())
}

/// Waits until the open screen's feed has read where the log is: what comes after is news.
fn feed_following(window: &Session) {
    window.wait_until("the feed's first look", || {
        let since = window.execute("return document.getElementById('feed')?.dataset.since ?? null;", json!([]));
        since.as_str().map(|_| ())
    });
    assert!(window.find(".feed-card").is_err(), "no card for what happened before the screen opened");
    // The live region is there before its first card, so a screen reader hears that card.
    let live = window.execute("return document.getElementById('feed')?.getAttribute('aria-live') ?? null;", json!([]));
    assert_eq!(live, json!("polite"));
}

/// A device in this process on `db` joins the table at `addr`, claims Tobias (the table's
/// person approves with `approve`) and rolls 2d6 for him; returns the device and the faces
/// and the sum as the card must show them.
fn tobias_rolls(
    db: &Path,
    addr: SocketAddr,
    code: String,
    game: Uuid,
    approve: impl Fn(Uuid),
) -> (JoinHandle, Vec<String>, String) {
    let other =
        JoinHandle::start(JoinConfig { db: db.to_path_buf(), addr, code: Some(code), name: "Ben's phone".into() });
    assert_eq!(other.wait(LINK_WAIT).state, LinkState::Linked, "the device links");
    let tobias = Uuid::parse_str(TOBIAS).expect("Tobias's id");
    assert_eq!(other.claim(tobias).expect("the claim reaches the table"), Claimed::Asked);
    approve(tobias);
    wait_for("Tobias to be the device's", || other.status().claims.is_empty().then_some(()));
    let (mv, rolled) = {
        let store = Store::open(db).expect("the device's database");
        let mut rng = rand::rngs::StdRng::seed_from_u64(32);
        services::dice_tray_roll_here(&store, game, Some(tobias), "2d6", &mut rng).expect("a roll")
    };
    other.submit_move(mv).expect("the table logs the roll");
    let faces: Vec<String> = rolled.roll.dice.iter().map(|d| d.face.to_string()).collect();
    let sum = format!("{} = {}", faces.join(" + "), rolled.roll.total);
    (other, faces, sum)
}

/// The window shows Tobias's roll as a card: who, what, the dice, the sum; in a polite live
/// region named "Table feed".
fn card_shown(window: &Session, faces: &[String], sum: &str) {
    let card = window.wait_for(".feed-card");
    window.wait_text(".feed-card .feed-title", "Tobias Reed — Dice tray 2d6");
    window.wait_text(".feed-card .feed-outcome", sum);
    let shown: Vec<String> =
        window.find_all(".feed-card .die-face").iter().map(|d| d.text().trim().to_owned()).collect();
    assert_eq!(shown, faces, "the card shows the dice as thrown");
    let live = window.wait_for("#feed");
    assert_eq!(live.attribute("aria-live").as_deref(), Some("polite"), "the feed is a polite live region");
    assert_eq!(live.attribute("aria-label").as_deref(), Some("Table feed"));
    assert!(
        card.text().starts_with("Tobias Reed — Dice tray 2d6"),
        "its name starts with what it shows: {}",
        card.text()
    );
}

#[test]
fn a_roll_on_another_device_shows_as_a_card_on_this_one() {
    let _window = one_window();
    let scratch = Scratch::new("feed");
    let [table_db, window_db, other_db] = ["table.db", "window.db", "other.db"].map(|db| scratch.path(db));
    let game = table_with_the_game(&scratch, &table_db);
    let (host, addr) = host_table(&table_db, game);
    let code = host.status().code;

    // The window joins as a person would and opens the game's screen.
    let window = join_in_window(&window_db, "Ada's phone", addr, &code, GAME);
    open_game(&window, GAME);
    // The World tab: the card shows on whatever tab is open.
    tap(&window, "#game-world");
    window.wait_for("#nsu-tab-world[aria-current='page']");
    feed_following(&window);

    // Another player's device joins, plays Tobias (the table's person approves) and rolls.
    let approve = |tobias| {
        let request =
            wait_for("the claim at the table", || host.status().claims.into_iter().find(|c| c.character == tobias));
        host.approve_claim(request.device, tobias).expect("the table's person approves");
    };
    let (other, faces, sum) = tobias_rolls(&other_db, addr, code, game, approve);
    // The window shows it as a card, whatever tab is open.
    card_shown(&window, &faces, &sum);

    let into_view = || {
        window.execute("window.scrollTo(0, 0);", json!([]));
    };
    shots_at_both_widths_with(&window, "feed-card", into_view, || {});
    in_dark(&window, || crate::shot(&window, "feed-card-dark"));

    // A tap opens the Log tab at the roll: its card among the recent rolls, focused.
    tap(&window, "#feed .feed-card");
    window.wait_for("#nsu-tab-log[aria-current='page']");
    window.wait_gone("#feed .feed-card");
    window.wait_text("#feed-log-list .feed-card.feed-found .feed-title", "Tobias Reed — Dice tray 2d6");
    let focused =
        window.execute("return document.activeElement?.matches('#feed-log-list .feed-found') ?? false;", json!([]));
    assert_eq!(focused, json!(true), "the roll's entry has the focus");
    shots_at_both_widths_with(&window, "feed-opened-log", || {}, || {});

    // A roll while the Log tab is open joins its recent rolls there.
    let (mv, again) = {
        let store = Store::open(&other_db).expect("the second device's database");
        let mut rng = rand::rngs::StdRng::seed_from_u64(33);
        services::dice_tray_roll_here(&store, game, None, "d20", &mut rng).expect("a roll")
    };
    other.submit_move(mv).expect("the table logs the roll");
    window.wait_text("#feed-log-list li:first-child .feed-title", "Dice tray d20");
    window.wait_text("#feed-log-list li:first-child .feed-outcome", &again.roll.total.to_string());
    drop(other);
    drop(host);
}

/// The done-criterion of issue 32's feed: a roll on a joined device shows as a card on the
/// table's own window, which hosts the game from its game panel.
#[test]
fn a_roll_on_a_joined_device_shows_as_a_card_on_the_tables_window() {
    let (_window, _scratch, other_db, game, (window, code, addr)) = window_hosting("feed-host", table_with_the_game);
    tap(&window, "#game-world");
    window.wait_for("#nsu-tab-world[aria-current='page']");
    feed_following(&window);

    // The table's person approves the claim on the window: the screen's frame goes home for it.
    let approve = |tobias: Uuid| {
        let back = "#nsu-back";
        tap(&window, back);
        let approve = format!(".link-claim-request[data-character='{tobias}'] .link-claim-approve");
        window.wait_for(&approve);
        tap(&window, &approve);
        tap(&window, "#game-world");
        window.wait_for("#nsu-tab-world[aria-current='page']");
        feed_following(&window);
    };
    let (other, faces, sum) = tobias_rolls(&other_db, addr, code, game, approve);
    card_shown(&window, &faces, &sum);
    shots_at_both_widths_with(&window, "feed-card-table", || {}, || {});
    drop(other);
}

/// Penny Ante at a linked table: the window is Ada's phone, Bo plays from a device in this
/// process. Ada's own move is answered in the table's words (not "The table took the move.")
/// and shows as a card; Bo's roll in private shows as a card that says only that, with no die.
#[test]
fn a_penny_ante_roll_in_private_stays_private_in_the_feed() {
    use sheetkeeper::rules::penny_ante::challenge::{Move, Side};
    use sheetkeeper::services::{DiceInput, GameMove};

    let _window = one_window();
    let scratch = Scratch::new("feed-penny");
    let [table_db, window_db, other_db] = ["table.db", "window.db", "other.db"].map(|db| scratch.path(db));
    let (game, ada, bo) = {
        let mut store = Store::open(&table_db).expect("the table's database");
        let game = services::create_game(&mut store, "Bridge Night", "penny_ante").unwrap().game.id;
        let ada = penny_player(&mut store, game, "Ada", "Strong", 30);
        let bo = penny_player(&mut store, game, "Bo", "Clever", 30);
        services::penny_start_adventure(&mut store, game, None).unwrap();
        penny_challenge(&mut store, game, "Cross the rope bridge", ada, bo);
        (game, ada, bo)
    };
    let (host, addr) = host_table(&table_db, game);
    let code = host.status().code;
    let approve = |character: Uuid| {
        let request =
            wait_for("the claim at the table", || host.status().claims.into_iter().find(|c| c.character == character));
        host.approve_claim(request.device, character).expect("the table's person approves");
    };

    // Ada's phone (the window) joins and claims Ada.
    let window = join_in_window(&window_db, "Ada's phone", addr, &code, "Bridge Night");
    let row = format!(".link-claim-row[data-character-id='{ada}']");
    tap(&window, &format!("{row} .link-claim-button"));
    approve(ada);
    window.wait_until("Ada to be the window's", || {
        window.find(&row).ok()?.attribute("data-claim").filter(|s| s == "yours")
    });

    // Bo's phone, in this process.
    let other = JoinHandle::start(JoinConfig { db: other_db, addr, code: Some(code), name: "Bo's phone".into() });
    assert_eq!(other.wait(LINK_WAIT).state, LinkState::Linked, "Bo's phone links");
    assert_eq!(other.claim(bo).expect("the claim reaches the table"), Claimed::Asked);
    approve(bo);
    wait_for("Bo to be the device's", || other.status().claims.is_empty().then_some(()));
    let bo_moves = |mv: Move, dice: DiceInput| {
        other.submit_move(GameMove::PennyChallenge { mv: mv.clone(), dice }).unwrap_or_else(|e| panic!("{mv:?}: {e}"));
    };

    tap(&window, "#game-penny");
    window.wait_for("#penny-screen");
    tap(&window, "#penny-tab-challenge");
    feed_following(&window);

    // Ada names no circumstance on her phone: the toast says it as the table logged it.
    tap(&window, "#penny-circ-challenger-pass");
    window.wait_text(".feed-card .feed-outcome", "Ada names no circumstance.");
    window.wait_text("#toast-message", "Ada names no circumstance.");
    bo_moves(Move::Pass { side: Side::Opponent }, DiceInput::Rolled);
    window.wait_text(".feed-card .feed-outcome", "Bo names no circumstance.");

    // Characteristics, then Bo rolls in private: his card says so, and shows no die.
    window.wait_for("#penny-private[data-task='characteristics']");
    tap(&window, "#penny-char-submit");
    window.wait_text(".feed-card .feed-outcome", "Ada uses no characteristic (1 die).");
    bo_moves(Move::Characteristics { side: Side::Opponent, used: vec![] }, DiceInput::Rolled);
    bo_moves(Move::Roll { side: Side::Opponent }, DiceInput::Entered { values: vec![6] });
    window.wait_text(".feed-card .feed-title", "Penny Ante");
    window.wait_text(".feed-card .feed-outcome", "Bo rolls in private.");
    assert!(window.find(".feed-card .die-face").is_err(), "no card shows a die of a roll in private");
    let feed = window.wait_for("#feed").text();
    assert!(!feed.contains('6'), "Bo's die is nowhere in the feed: {feed:?}");
    shots_at_both_widths_with(&window, "feed-penny", || {}, || {});
    drop(other);
    drop(host);
}

/// On a device at no linked table the same cards are the Log tab's recent rolls: a roll on
/// Mezzo's dice tray is listed there with its dice and sum, newest first.
#[test]
fn the_log_tab_lists_the_recent_rolls_as_the_feeds_cards() {
    use crate::webdriver::ESCAPE;

    let (_window, _scratch, _db, session) = crate::begin_with("feed-log", crate::open);
    let _ = crate::create_game(&session, "Mezzo Night", "mezzo");
    crate::dismiss_toast(&session);
    open_game(&session, "Mezzo Night");
    tap(&session, "#game-mezzo");
    session.wait_for("#mezzo-screen:not([hidden])");
    tap(&session, "#mezzo-dice");
    session.wait_for("#dice-tray[open]");
    let (faces, total) = crate::dice_tray::roll_typed(&session, "2d6+3");
    session.find("#dice-tray-expression").expect("the field").send_keys(ESCAPE);
    session.wait_gone("#dice-tray[open]");
    assert!(session.find(".feed-card").is_err(), "no card pops up for a roll at no linked table");

    tap(&session, "#mezzo-tab-log");
    session.wait_text("#feed-log-title", "Recent rolls");
    session.wait_text("#feed-log-list .feed-title", "Dice tray 2d6+3");
    session.wait_text("#feed-log-list .feed-outcome", &format!("{} + {} + 3 = {total}", faces[0], faces[1]));
    let shown: Vec<String> =
        session.find_all("#feed-log-list .die-face").iter().map(|d| d.text().trim().to_owned()).collect();
    assert_eq!(shown, faces.iter().map(i64::to_string).collect::<Vec<_>>(), "the card shows the dice as thrown");
    shots_at_both_widths_with(&session, "feed-log", || {}, || {});
}
