//! Issue 32, the live table feed: a roll on one device at a linked table shows as a card on
//! another device's screen. The table's host and a second player's device run in this test
//! process on 127.0.0.1 (as in `link_notes.rs`); the real app window is a player's device,
//! joined through "Join a table nearby" with the host's address and code. The second device
//! claims Tobias and rolls 2d6 on its dice tray (as the app's `dice_tray_roll` does on a joined
//! device: rolled there, sent to the table as a move); the window, on the game's screen, shows
//! the card — who, what, the dice, the sum — and a tap on it opens the Log tab.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use serde_json::json;
use sheetkeeper::link::{Claimed, HostConfig, HostHandle, JoinConfig, JoinHandle, LinkState};
use sheetkeeper::services::{self, ImportOptions};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::fixtures::{nsu_fixture, write_game_file, TOBIAS};
use crate::webdriver::Session;
use crate::{app, in_dark, one_window, open_game, shots_at_both_widths_with, Scratch};

const GAME: &str = "Lanterns over Brackwater";
/// Long enough for a slow machine; every wait below polls for its condition.
const LINK_WAIT: Duration = Duration::from_secs(30);

fn wait_for<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(found) = check() {
            return found;
        }
        assert!(start.elapsed() < LINK_WAIT, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The NSU fixture game on the table's database; returns its id.
fn table_with_the_game(scratch: &Scratch, db: &Path) -> Uuid {
    let file = nsu_fixture();
    let id = Uuid::parse_str(file["data"]["games"][0]["id"].as_str().expect("the game's id")).expect("a uuid");
    let path = scratch.path("game.sheetkeeper.json");
    write_game_file(&path, &file);
    let mut store = Store::open(db).expect("the table's database");
    services::import(&mut store, &path, ImportOptions { as_copy: false, replace_conflicts: false })
        .expect("the game imports on the table");
    id
}

fn tap(session: &Session, selector: &str) {
    session.wait_settled();
    crate::dismiss_toast_unless_dialog(session);
    session.to_middle(selector);
    session.click(selector);
}

fn type_into(session: &Session, selector: &str, text: &str) {
    session.wait_settled();
    crate::dismiss_toast_unless_dialog(session);
    let field = session.wait_for(selector);
    field.click();
    field.clear();
    field.send_keys(text);
}

#[test]
fn a_roll_on_another_device_shows_as_a_card_on_this_one() {
    let _window = one_window();
    let scratch = Scratch::new("feed");
    let [table_db, window_db, other_db] = ["table.db", "window.db", "other.db"].map(|db| scratch.path(db));
    let game = table_with_the_game(&scratch, &table_db);
    let host = HostHandle::start(HostConfig {
        db: table_db.clone(),
        game,
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        name: "Table laptop".into(),
    })
    .expect("the table hosts");
    let addr: SocketAddr = host.status().listen.parse().expect("the host's address");
    let code = host.status().code;

    // The window joins as a person would and opens the game's screen.
    let window = Session::start_with_env(&app(), &window_db, &[("SHEETKEEPER_DEVICE_NAME", "Ada's phone")]);
    window.set_window_size(1280, 800);
    window.wait_for("body[data-ready='true']");
    tap(&window, "#link-join-open");
    window.wait_for("#link-join-dialog");
    type_into(&window, "#link-join-addr", &addr.to_string());
    type_into(&window, "#link-join-code", &code);
    tap(&window, "#link-join-submit");
    window.wait_gone("#link-join-dialog");
    window.wait_text("#game-heading", GAME);
    open_game(&window, GAME);
    // The World tab: the card shows on whatever tab is open.
    tap(&window, "#game-world");
    window.wait_for("#nsu-tab-world[aria-current='page']");
    // The screen's feed has read where the log is: what comes now is news.
    window.wait_until("the feed's first look", || {
        let since = window.execute("return document.getElementById('feed')?.dataset.since ?? null;", json!([]));
        since.as_str().map(|_| ())
    });
    assert!(window.find(".feed-card").is_err(), "no card for what happened before the screen opened");

    // Another player's device joins, plays Tobias (the table's person approves) and rolls.
    let other =
        JoinHandle::start(JoinConfig { db: other_db.clone(), addr, code: Some(code), name: "Ben's phone".into() });
    assert_eq!(other.wait(LINK_WAIT).state, LinkState::Linked, "the second device links");
    let tobias = Uuid::parse_str(TOBIAS).expect("Tobias's id");
    assert_eq!(other.claim(tobias).expect("the claim reaches the table"), Claimed::Asked);
    let request =
        wait_for("the claim at the table", || host.status().claims.into_iter().find(|c| c.character == tobias));
    host.approve_claim(request.device, tobias).expect("the table's person approves");
    wait_for("Tobias to be the device's", || other.status().claims.is_empty().then_some(()));
    let (mv, rolled) = {
        let store = Store::open(&other_db).expect("the second device's database");
        let mut rng = rand::rngs::StdRng::seed_from_u64(32);
        services::dice_tray_roll_here(&store, game, Some(tobias), "2d6", &mut rng).expect("a roll")
    };
    other.submit_move(mv).expect("the table logs the roll");
    let faces: Vec<String> = rolled.roll.dice.iter().map(|d| d.face.to_string()).collect();
    let sum = format!("{} = {}", faces.join(" + "), rolled.roll.total);

    // The window shows it as a card, whatever tab is open: who, what, the dice, the sum.
    let card = window.wait_for(".feed-card");
    window.wait_text(".feed-card .feed-title", "Tobias Reed — Dice tray 2d6");
    window.wait_text(".feed-card .feed-outcome", &sum);
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

    let into_view = || {
        window.execute("window.scrollTo(0, 0);", json!([]));
    };
    shots_at_both_widths_with(&window, "feed-card", into_view, || {});
    in_dark(&window, || crate::shot(&window, "feed-card-dark"));

    // A tap opens the Log tab, where the roll is listed.
    tap(&window, ".feed-card");
    window.wait_for("#nsu-tab-log[aria-current='page']");
    window.wait_gone(".feed-card");
    drop(other);
    drop(host);
}
