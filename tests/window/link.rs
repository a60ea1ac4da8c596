//! The linked table in two real windows: two app processes, each on its own database, each
//! driven by its own `tauri-driver` (on its own ports, see `webdriver.rs`), linked on
//! 127.0.0.1 (`SHEETKEEPER_LINK_LISTEN`). One is the table (it hosts), the other a player's
//! device (it joins with the code the table's window shows). A claim waits for the table's
//! person, who approves it on the table's window.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;
use sheetkeeper::{services, Store};

use crate::displays::Window;
use crate::fixtures::db as read_db;
use crate::nsu_sheet::mood_level;
use crate::webdriver::{Session, ENTER};
use crate::{
    app, dismiss_toast, in_dark, one_window, open_game, shot, shots_at_both_widths, wait_character_row, Scratch,
};

/// How long a held tap stays down: longer than the joined window takes to look at the link
/// (every 500 ms, `POLL_MS` in ui/shell/link.js) and draw what the table sent.
const HELD_TAP: Duration = Duration::from_millis(1500);

/// Starts the app on `db` as the device named `name`, a host listening on loopback only.
fn open_device(db: &Path, name: &str) -> Session {
    let session = Session::start_with_env(
        &app(),
        db,
        &[("SHEETKEEPER_LINK_LISTEN", "127.0.0.1:0"), ("SHEETKEEPER_DEVICE_NAME", name)],
    );
    session.set_window_size(1280, 800);
    session.wait_for("body[data-ready='true']");
    session
}

fn press(session: &Session, selector: &str) {
    session.wait_settled();
    dismiss_toast(session);
    session.click(selector);
}

fn type_into(session: &Session, selector: &str, text: &str) {
    session.wait_settled();
    dismiss_toast(session);
    session.wait_for(selector).click();
    // Found again: the click may have met a redraw (the table's news), which waits now that
    // the field has the focus.
    let field = session.wait_for(selector);
    field.clear();
    field.send_keys(text);
}

/// The table hosts the game open on its home screen: returns (code, address).
fn host_the_table(table: &Session) -> (String, String) {
    press(table, "#link-host");
    table.wait_until("the code (or an error)", || {
        if let Some(error) = table.find("#error-message").ok().filter(|e| e.is_displayed()) {
            panic!("hosting failed: {}", error.text());
        }
        table.find("#link-code").ok().filter(|c| c.is_displayed()).map(|_| ())
    });
    let code = table.wait_for("#link-code").text();
    assert!(code.len() == 7 && code.as_bytes()[3] == b'-', "a code like 123-456: {code:?}");
    let addr = table.wait_for("#link-addrs li").text();
    assert!(addr.starts_with("127.0.0.1:"), "the host listens where the test said: {addr:?}");
    table.wait_for("#link-qr");
    let modules = table
        .execute("return document.querySelector('#link-qr path').getAttribute('d').split('M').length - 1;", json!([]));
    assert!(modules.as_u64().unwrap_or(0) > 100, "the QR code is drawn: {modules} dark modules");
    (code, addr)
}

/// The player's device joins through "Join a table nearby": the table is heard on the network
/// (mDNS), the address typed (the test's host listens on loopback only) and the code.
fn join_the_table(player: &Session, game_name: &str, addr: &str, code: &str, shots: Option<&str>) {
    press(player, "#link-join-open");
    player.wait_for("#link-join-dialog");
    let found = player.wait_until("the table among those found nearby", || {
        // By name and port: another table heard nearby may host a game of the same name.
        let port = format!(":{}", addr.rsplit(':').next().unwrap_or_default());
        player.find_all(".link-nearby-pick").into_iter().find(|b| {
            let text = b.text();
            text.contains(game_name) && text.contains(&port)
        })
    });
    found.click();
    let picked = player.execute("return document.getElementById('link-join-addr').value;", json!([]));
    assert!(
        picked.as_str().is_some_and(|a| a.ends_with(addr.rsplit(':').next().unwrap())),
        "picking fills the address: {picked}"
    );
    type_into(player, "#link-join-addr", addr);
    // A wrong code first: refused, said so, and nothing joined.
    type_into(player, "#link-join-code", "000-000");
    press(player, "#link-join-submit");
    player.wait_until("the wrong code to be refused", || {
        let status = player.find("#link-join-status").ok()?.text();
        status.contains("did not match").then_some(())
    });
    type_into(player, "#link-join-code", code);
    if let Some(name) = shots {
        shots_at_both_widths(player, name);
    }
    press(player, "#link-join-submit");
    player.wait_gone("#link-join-dialog");
    player.wait_for("#link-claim");
    player.wait_text("#game-heading", game_name);
}

/// The player claims `character`: the row waits for the table, whose window lists the claim;
/// the table's person taps Approve and the row turns "Yours". With `shots`, the waiting row
/// and the table's claims box are shot (the box in dark too).
fn claim(player: &Session, table: &Session, character: &str, shots: bool) {
    let row = format!(".link-claim-row[data-character-id='{character}']");
    let claim_state = |state: &str| player.find(&row).ok()?.attribute("data-claim").filter(|s| s == state);
    press(player, &format!("{row} .link-claim-button"));
    player.wait_until("the claim to wait for the table", || claim_state("waiting"));
    assert!(player.wait_for(&row).text().contains("Waiting for the table"), "the row says it waits");
    if shots {
        panel_shots(player, "link-claim-waiting");
    }

    // The table's panel polls the host: the request shows there with its two answers.
    let request = format!(".link-claim-request[data-character='{character}']");
    let asks = table.wait_until("the claim on the table's panel", || {
        table.find(&format!("{request} .link-claim-ask")).ok().map(|r| r.text()).filter(|t| t.contains("asks to play"))
    });
    let approve = format!("{request} .link-claim-approve");
    let label = table.wait_for(&approve).attribute("aria-label").unwrap_or_default();
    assert!(label.starts_with("Approve") && label.ends_with(&asks), "the name begins with the word shown: {label:?}");
    let decline = table.wait_for(&format!("{request} .link-claim-decline")).attribute("aria-label").unwrap_or_default();
    assert!(decline.starts_with("Decline"), "{decline:?}");
    if shots {
        panel_shots(table, "link-host-claim");
        in_dark(table, || panel_shots(table, "link-host-claim-dark"));
    }
    press(table, &approve);
    table.wait_gone(&request);
    // The last request answered: the focus goes to the devices, where the device now plays it.
    let focused = table.execute("return document.activeElement?.id ?? null;", json!([]));
    assert_eq!(focused, json!("link-devices-heading"), "the focus stays in the panel");
    player.wait_until("the character to be marked yours", || claim_state("yours"));
}

/// Opening pairing again (what the paused panel's button does; pausing for real takes nine
/// wrong codes and about 35 s of the host's growing waits, so the core's tests cover the
/// pause): the command gives a new code, which the panel shows, and forgets the one wrong
/// code the player typed.
fn reopened_pairing(table: &Session) {
    let code = table.wait_for("#link-code").text();
    let wrong = table.wait_for("#link-wrong-codes").text();
    assert!(wrong.starts_with("1 wrong code was tried"), "the player's wrong code is counted: {wrong:?}");
    let answer = table.execute_async(
        "const done = arguments[arguments.length - 1];
         window.__TAURI__.core.invoke('link_host_open_pairing', {}).then(() => done('ok'), (e) => done(JSON.stringify(e)));",
        json!([]),
    );
    assert_eq!(answer, json!("ok"));
    // (An empty text is an element the panel replaced between finding and reading it.)
    let new_code = table.wait_until("a new code", || {
        table.find("#link-code").ok().map(|c| c.text()).filter(|c| !c.is_empty() && *c != code)
    });
    assert!(new_code.len() == 7 && new_code.as_bytes()[3] == b'-', "a code like 123-456: {new_code:?}");
    table.wait_gone("#link-wrong-codes");
    // A part of the panel left out (no claims now) is not drawn as the word "null".
    assert!(!table.wait_for("#game-link").text().contains("null"), "nothing left out is drawn");
}

/// Presses "Sheet" in the row of the character `name`. The list is redrawn when the other
/// device's change lands, so the row is found and pressed in one go.
fn open_sheet(session: &Session, name: &str) {
    wait_character_row(session, name);
    session.wait_settled();
    dismiss_toast(session);
    let pressed = session.execute(
        "const row = [...document.querySelectorAll('.character-row')]
           .find((r) => r.querySelector('.character-name')?.textContent === arguments[0]);
         const button = row?.querySelector('.character-open');
         if (!button) return false;
         button.scrollIntoView({ block: 'center' });
         button.click();
         return true;",
        json!([name]),
    );
    assert_eq!(pressed, json!(true), "the Sheet button of {name:?}");
    session.wait_for("#sheet-body");
}

/// Screenshots at desktop width and at 360 px, with `scroll` (a script) run before each
/// (the toast put away first).
fn shots_scrolled(session: &Session, name: &str, scroll: &str) {
    let into_view = || {
        session.wait_settled();
        dismiss_toast(session);
        session.execute(scroll, json!([]));
    };
    crate::shots_at_both_widths_with(session, name, into_view, || {});
}

/// The game panel's "Linked table" section at both widths.
fn panel_shots(session: &Session, name: &str) {
    shots_scrolled(session, name, "document.getElementById('game-link').scrollIntoView({ block: 'start' });");
}

fn pill_text(session: &Session) -> String {
    session
        .find(".frame-screen:not([hidden]) .link-pill")
        .ok()
        .filter(|p| p.is_displayed())
        .map(|p| p.text())
        .unwrap_or_default()
}

/// How both tests begin: the display to themselves until they end (keep the guard) and a
/// throwaway folder `name` with the paths of the table's and the player's databases.
fn table_and_player(name: &str) -> (Window, Scratch, PathBuf, PathBuf) {
    let window = one_window();
    let scratch = Scratch::new(name);
    let (table_db, player_db) = (scratch.path("table.db"), scratch.path("player.db"));
    (window, scratch, table_db, player_db)
}

/// Issue 14: a player changes a mood on their own device; the table's window shows it. The
/// table hosts (code, QR code, address), the player joins with the code (a wrong one is
/// refused first) and claims their character; the table lists the device as online and
/// playing it; when the table stops hosting, the player's window says the link ended.
#[test]
fn a_mood_changed_on_a_player_device_shows_on_the_table() {
    let (_window, _scratch, table_db, player_db) = table_and_player("link-mood");
    let ada = {
        let mut store = Store::open(&table_db).expect("the table's database");
        let game = services::create_game(&mut store, "Harbour Lights", "nsu").unwrap();
        services::create_character(&mut store, game.game.id, "Ada").unwrap().id.to_string()
    };

    let table = open_device(&table_db, "Table laptop");
    open_game(&table, "Harbour Lights");
    let (code, addr) = host_the_table(&table);
    panel_shots(&table, "link-host");

    let player = open_device(&player_db, "Ada's phone");
    join_the_table(&player, "Harbour Lights", &addr, &code, Some("link-join-dialog"));
    panel_shots(&player, "link-joined");
    claim(&player, &table, &ada, true);
    reopened_pairing(&table);

    // On the player's own sheet: a mood named and three boxes tapped.
    open_sheet(&player, "Ada");
    player.wait_until("the pill to say linked", || (pill_text(&player) == "Linked").then_some(()));
    let name = ".mood-line[data-line='0'] .mood-name";
    type_into(&player, name, "Curious");
    player.wait_for(name).send_keys(ENTER);
    let third = ".mood-line[data-line='0'] .mood-box[data-box='3']";
    player.wait_until("the d8 line to take the mood", || {
        player.find(third).ok().filter(|b| b.attribute("disabled").is_none()).map(|_| ())
    });
    // A tap held a moment, as a finger on a phone. The table's news of the new mood waited
    // while the name field had the focus (nothing is redrawn under typing hands); the press
    // takes the focus out of it, so the news lands while the button is down. The tap counts
    // all the same (it was lost when the news redrew the box between its down and its up).
    player.wait_settled();
    player.hold_press(third, HELD_TAP);
    player.wait_until("the player's level 3", || (mood_level(&player, 0) == "Level 3 of 9").then_some(()));
    // The bar with the link's pill, from the top of the sheet.
    shots_scrolled(&player, "link-player-sheet", "window.scrollTo(0, 0);");

    // The change reaches the table's database through the host, then its window.
    let conn = read_db(&table_db);
    table.wait_until("the mood in the table's database", || {
        let level: Option<i64> = conn
            .query_row(
                "SELECT level FROM nsu_moods WHERE character_id = ?1 AND line = 0 AND name = 'Curious'",
                [&ada],
                |r| r.get(0),
            )
            .ok();
        (level == Some(3)).then_some(())
    });
    table.wait_until("the device online, playing Ada", || {
        let device = table.find(".link-device").ok()?;
        let text = device.text();
        (device.attribute("data-state").as_deref() == Some("online")
            && text.contains("Ada's phone")
            && text.contains("Plays Ada"))
        .then_some(())
    });
    panel_shots(&table, "link-host-devices");
    open_sheet(&table, "Ada");
    table.wait_until("the table's view of the mood", || (mood_level(&table, 0) == "Level 3 of 9").then_some(()));
    let named =
        table.execute("return document.querySelector(\".mood-line[data-line='0'] .mood-name\").value;", json!([]));
    assert_eq!(named, json!("Curious"));
    assert_eq!(pill_text(&table), "Hosting");
    shot(&table, "link-table-sees-mood-1280");

    // The table stops hosting: the player's window says so, and keeps its data.
    press(&table, "#nsu-back");
    // Home still has the game selected (its list is redrawn while hosting: nothing is re-picked).
    table.wait_text("#game-heading", "Harbour Lights");
    press(&table, "#link-stop");
    // One tap: the hosting panel's redraw (it polls its devices) waits for a press to end.
    table.wait_for("#link-host");
    player.wait_until("the pill to say the link ended", || (pill_text(&player) == "Link ended").then_some(()));
    assert_eq!(mood_level(&player, 0), "Level 3 of 9", "the player keeps what they have");
}

/// The screen's pass-free private view of `side` at `task`, if it shows now.
fn private_task(session: &Session) -> Option<(String, String)> {
    let private = session.find("#penny-private").ok().filter(|p| p.is_displayed())?;
    Some((private.attribute("data-side")?, private.attribute("data-task")?))
}

/// While a side bets (both cups set), once: each window shows only its own side's dice.
fn check_cups(player: &Session, table: &Session, checked: &mut bool) {
    let betting =
        private_task(player).is_some_and(|(_, t)| t == "bet") || private_task(table).is_some_and(|(_, t)| t == "bet");
    if !betting || *checked {
        return;
    }
    *checked = true;
    // Either side may choose its cup first (the reveal is simultaneous): when Ada chose last,
    // the table's window shows her cup once it has polled her move.
    table.wait_until("the table to see that Ada has a die in her cup", || {
        let ada_seen = table.find(".penny-side[data-side='challenger']").ok()?.text();
        ada_seen.contains("in the cup").then_some(())
    });
    assert!(private_task(table).is_none_or(|(side, _)| side == "opponent"), "the table never shows Ada's own view");
    assert!(
        private_task(player).is_none_or(|(side, _)| side == "challenger"),
        "Ada's phone never shows the House's own view"
    );
    assert!(
        table.find("#penny-pass").is_err() && player.find("#penny-pass").is_err(),
        "no pass-the-device on own devices"
    );
    shots_at_both_widths(player, "link-penny-player");
    shots_at_both_widths(table, "link-penny-table");
}

/// Presses `selector` if it shows now; false when it does not.
fn press_if_shown(session: &Session, selector: &str) -> bool {
    session.wait_settled();
    dismiss_toast(session);
    session.find(selector).ok().filter(|b| b.is_displayed()).is_some_and(|b| b.try_click().is_ok())
}

/// One step of `side` on its own window, when its turn shows there; true when it acted.
/// `before_bet` runs just before a bet is placed: the betting round shows then for certain
/// (sampled between steps, a quick round could pass unseen).
fn act(session: &Session, side: &str, before_bet: &mut dyn FnMut()) -> bool {
    session.wait_settled();
    let circumstance = format!("#penny-circ-{side}-pass");
    if session.find(&circumstance).is_ok_and(|b| b.is_displayed()) {
        press(session, &circumstance);
        return true;
    }
    let Some((shown, task)) = private_task(session) else { return false };
    if shown != side {
        return false;
    }
    match task.as_str() {
        "characteristics" => {
            if side == "challenger" {
                press(session, "#penny-char-0");
            }
            press(session, "#penny-char-submit");
        }
        "roll" => {
            // The roll button, or the dice to cup once rolled. A snapshot redrawing the screen
            // may show neither for a moment (one CI run then pressed a cup never rolled): the
            // next look decides again.
            let shown = |selector: &str| session.find(selector).is_ok_and(|b| b.is_displayed());
            let (roll, cup) = (shown("#penny-roll"), shown("#penny-cup-submit"));
            if !roll && !cup {
                return false;
            }
            if roll {
                press(session, "#penny-roll");
                session.wait_for("#penny-cup-submit");
            }
            // The player keeps one die in the cup; the House shows all of hers.
            if side == "challenger" {
                press(session, "#penny-cup-0");
            }
            press(session, "#penny-cup-submit");
        }
        "bet" => {
            before_bet();
            // Its screenshots resized and redrew the windows: look again, then place the bet
            // that shows (stand with equal wagers, else call).
            session.wait_settled();
            if private_task(session).is_none_or(|(s, t)| s != side || t != "bet") {
                return false;
            }
            let shown =
                |selector: &'static str| session.find(selector).is_ok_and(|b| b.is_displayed()).then_some(selector);
            let bet = session.wait_until("a bet to place", || shown("#penny-stand").or_else(|| shown("#penny-call")));
            press(session, bet);
        }
        "new_circumstance" => press(session, "#penny-nc-pass"),
        // The rerolled dice show until hidden ("after_reroll"), unless the next snapshot
        // moved the screen on first.
        // A snapshot may move the screen on between reading the task and pressing: then
        // nothing is pressed and the next look decides again.
        "reroll" => return press_if_shown(session, "#penny-reroll"),
        "after_reroll" => return press_if_shown(session, "#penny-hide"),
        other => panic!("no step for {side}'s task {other:?}"),
    }
    true
}

/// Issue 14: a Penny Ante challenge across two windows. The House's device hosts; Ada plays
/// from her phone. Each side's moves are made on its own window (Ada's travel through the
/// host); Ada's cup shows only on her window and the House's only on the table's; both
/// windows end with the same result.
#[test]
fn a_penny_challenge_across_two_windows_keeps_each_cup_on_its_own_window() {
    let (_window, _scratch, table_db, player_db) = table_and_player("link-penny");
    let ada = {
        let mut store = Store::open(&table_db).expect("the table's database");
        let game = services::create_game(&mut store, "Bridge Night", "penny_ante").unwrap().game.id;
        let change = services::penny_create_character(&mut store, game, "Ada", "Strong", 30).unwrap();
        let _ = change;
        services::penny_start_adventure(&mut store, game, None).unwrap();
        services::set_device_role(&mut store, game, "table").unwrap();
        services::list(&store).unwrap()[0].characters[0].id.to_string()
    };

    let table = open_device(&table_db, "House tablet");
    open_game(&table, "Bridge Night");
    let (code, addr) = host_the_table(&table);
    let player = open_device(&player_db, "Ada's phone");
    join_the_table(&player, "Bridge Night", &addr, &code, None);
    claim(&player, &table, &ada, false);

    // The House issues the challenge on the table's window.
    press(&table, "#game-penny");
    table.wait_for("#penny-screen");
    press(&table, "#penny-issue");
    type_into(&table, "#penny-stake", "Cross the rope bridge");
    type_into(&table, "#penny-ante", "2");
    press(&table, "#penny-start-challenge");
    table.wait_text("#penny-pot", "4");

    // Ada's phone shows it once the host's snapshot is in.
    press(&player, "#game-penny");
    player.wait_for("#penny-screen");
    press(&player, "#penny-tab-challenge");
    player.wait_until("the challenge on Ada's phone", || {
        player.find("#penny-pot").ok().filter(|p| p.text() == "4").map(|_| ())
    });
    assert_eq!(pill_text(&player), "Linked");

    let mut checked_cups = false;
    let mut turns = 0;
    while !(player.find("#penny-result").is_ok_and(|r| r.is_displayed())
        && table.find("#penny-result").is_ok_and(|r| r.is_displayed()))
    {
        turns += 1;
        assert!(turns < 200, "the challenge did not end");
        // Once both cups are set: each window shows its own side's dice only. Looked at
        // as a side bets, so a betting round is seen however quickly it passes.
        let player_acted = act(&player, "challenger", &mut || check_cups(&player, &table, &mut checked_cups));
        let table_acted = act(&table, "opponent", &mut || check_cups(&player, &table, &mut checked_cups));
        if !(player_acted || table_acted) {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    assert!(checked_cups, "the cups were checked while betting");
    let on_table = table.wait_for("#penny-summary").text();
    player.wait_until("the same result on Ada's phone", || {
        (player.find("#penny-summary").ok()?.text() == on_table).then_some(())
    });
    shot(&player, "link-penny-result-1280");
}
