//! Issue 14, NSU at a linked table: a helper helps from their own device. The table's host
//! (`sheetkeeper::link::HostHandle`) and the helper's device (`JoinHandle`) run in this test
//! process on 127.0.0.1; the real app window is the roller's device. It joins through "Join a
//! table nearby", claims Wren (the table's person, here the test, declines once, then
//! approves), rolls; the helper sends their die as a note; the roll wizard's help step shows
//! it and "Use it" puts that die in the roll.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sheetkeeper::link::{Claimed, HostConfig, HostHandle, JoinConfig, JoinHandle, LinkState};
use sheetkeeper::rules::nsu::roll::{Edge, RemoteHelper};
use sheetkeeper::rules::nsu::Die;
use sheetkeeper::services::{self, ImportOptions, Note};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::displays::Window;
use crate::fixtures::{moods, nsu_fixture, tobias_ready_to_help, write_game_file, TOBIAS, WREN};
use crate::nsu_roll::wait_step;
use crate::webdriver::Session;
use crate::{app, click_in_character_row, in_dark, one_window, open_game, shot, wait_character_row, Scratch};

pub(crate) const GAME: &str = "Lanterns over Brackwater";
/// Long enough for a slow machine; every wait below polls for its condition.
pub(crate) const LINK_WAIT: Duration = Duration::from_secs(30);

/// The NSU fixture game on the table's database, Wren's moods calm so her roll asks for one
/// aspect die and one mood die, Tobias with a whole sheet so he can help. Returns the game's id.
pub(crate) fn table_with_the_game(scratch: &Scratch, db: &Path) -> Uuid {
    let mut file = nsu_fixture();
    let game = &mut file["data"]["games"][0];
    assert_eq!(game["characters"][0]["id"], WREN);
    game["characters"][0]["nsu"]["moods"] = moods([("Curious", 3, false), ("Wary", 2, false), ("Content", 1, false)]);
    game["characters"][0]["nsu"]["harm"] = json!([]);
    assert_eq!(game["characters"][1]["id"], TOBIAS);
    let tobias = &mut game["characters"][1]["nsu"];
    tobias_ready_to_help(tobias);
    on_the_table(scratch, db, &file)
}

/// The game file `file` written in `scratch` and imported into the table's database `db`;
/// returns its game's id.
pub(crate) fn on_the_table(scratch: &Scratch, db: &Path, file: &Value) -> Uuid {
    let id = Uuid::parse_str(file["data"]["games"][0]["id"].as_str().expect("the game's id")).expect("a uuid");
    let path = scratch.path("game.sheetkeeper.json");
    write_game_file(&path, file);
    let mut store = Store::open(db).expect("the table's database");
    services::import(&mut store, &path, ImportOptions { as_copy: false, replace_conflicts: false })
        .expect("the game imports on the table");
    id
}

use crate::dismiss_toast_unless_dialog as dismiss_toast;

/// Scrolls `selector` into view and clicks it once the page has settled, as a person would.
pub(crate) fn tap(session: &Session, selector: &str) {
    session.wait_settled();
    dismiss_toast(session);
    session.to_middle(selector);
    session.click(selector);
}

/// Types `text` into the field `selector` in place of what it held, scrolled into view first.
pub(crate) fn type_into(session: &Session, selector: &str, text: &str) {
    session.wait_settled();
    dismiss_toast(session);
    let field = session.wait_for(selector);
    session.to_middle(selector);
    field.click();
    field.clear();
    field.send_keys(text);
}

/// Types the faces `dice` (a box's selector, the face) into the roll step's boxes and
/// submits them.
pub(crate) fn submit_faces(session: &Session, dice: &[(&str, &str)]) {
    for (selector, face) in dice {
        type_into(session, selector, face);
    }
    tap(session, "#roll-hand-submit");
}

/// Picks the option `value` of the select `selector`, scrolled into view first.
pub(crate) fn pick(session: &Session, selector: &str, value: &str) {
    session.to_middle(selector);
    session.click(&format!("{selector} option[value='{value}']"));
}

/// The open dialog at desktop width and at 360 px, scrolled to `selector`.
fn wizard_shots(session: &Session, name: &str, selector: &str) {
    let into_view = || {
        session
            .execute("document.querySelector(arguments[0])?.scrollIntoView({ block: 'center' });", json!([selector]));
    };
    crate::shots_at_both_widths_with(session, name, into_view, || {
        let overflow = session.execute(
            "const d = document.querySelector('dialog[open]'); return d ? d.scrollWidth - d.clientWidth : 0;",
            json!([]),
        );
        assert!(overflow.as_f64().unwrap_or(1.0) <= 0.0, "{name}: nothing sticks out sideways at 360 px ({overflow})");
    });
}

/// The table's person (the in-process host) approves the claim of `character` once it is listed.
fn approve(host: &HostHandle, character: Uuid) {
    let request =
        wait_for("the claim at the table", || host.status().claims.into_iter().find(|c| c.character == character));
    host.approve_claim(request.device, character).expect("the table's person approves");
}

/// An in-process device claims `character`; the table's person approves; returns once the
/// host's snapshot made it the device's.
fn claim_approved(host: &HostHandle, device: &JoinHandle, character: Uuid) {
    assert_eq!(device.claim(character).expect("the claim reaches the table"), Claimed::Asked);
    approve(host, character);
    wait_for("the character to be the device's", || device.status().claims.is_empty().then_some(()));
}

/// The window claims `character` and waits for the table's answer: its row says so.
fn claim_in_window(window: &Session, character: &str) {
    let row = format!(".link-claim-row[data-character-id='{character}']");
    tap(window, &format!("{row} .link-claim-button"));
    window.wait_until("the claim to wait for the table", || {
        window.find(&row).ok()?.attribute("data-claim").filter(|s| s == "waiting")
    });
    assert!(window.wait_for(&row).text().contains("Waiting for the table"), "the row says it waits");
}

/// Waits until the window's row of `character` is in claim state `state`.
fn wait_claim(window: &Session, character: &str, state: &str) {
    let row = format!(".link-claim-row[data-character-id='{character}']");
    window.wait_until(&format!("the claim to be {state}"), || {
        window.find(&row).ok()?.attribute("data-claim").filter(|s| s == state)
    });
}

/// The joined panel's claim box at desktop width and at 360 px.
fn claim_shots(session: &Session, name: &str) {
    let into_view = || {
        session.wait_settled();
        dismiss_toast(session);
        session.execute("document.getElementById('link-claim').scrollIntoView({ block: 'start' });", json!([]));
    };
    crate::shots_at_both_widths_with(session, name, into_view, || {});
}

/// The device's inbox as the window's command gives it.
fn inbox(session: &Session) -> Value {
    session.execute_async(
        "const done = arguments[arguments.length - 1];
         window.__TAURI__.core.invoke('link_inbox', {}).then(done, (e) => done({ error: String(e && e.message || e) }));",
        json!([]),
    )
}

/// Polls `check` until it answers, for what the devices run in this process do (no window
/// to wait on); fails naming `what` after `LINK_WAIT`.
pub(crate) fn wait_for<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(found) = check() {
            return found;
        }
        assert!(start.elapsed() < LINK_WAIT, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The table's device, in this process: hosts `game` from `db` on loopback. Returns the host
/// and the address it listens on.
pub(crate) fn host_table(db: &Path, game: Uuid) -> (HostHandle, SocketAddr) {
    let host = HostHandle::start(HostConfig {
        db: db.to_path_buf(),
        game,
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        name: "Table laptop".into(),
    })
    .expect("the table hosts");
    let addr: SocketAddr = host.status().listen.parse().expect("the host's address");
    (host, addr)
}

/// How both tests begin: the display to themselves until they end (keep the guard), a
/// throwaway folder `name` with the table's, the roller's and the helper's databases, and the
/// fixture game (`table_with_the_game`) on the table's, hosted on loopback.
pub(crate) fn hosted_table(name: &str) -> (Window, Scratch, [PathBuf; 3], HostHandle, SocketAddr) {
    let window = one_window();
    let scratch = Scratch::new(name);
    let dbs = ["table.db", "roller.db", "helper.db"].map(|db| scratch.path(db));
    let game = table_with_the_game(&scratch, &dbs[0]);
    let (host, addr) = host_table(&dbs[0], game);
    (window, scratch, dbs, host, addr)
}

/// How a test with the table's own window begins: the display to itself until it ends (keep
/// the guard), a throwaway folder `name` with the table's database and another device's, the
/// game `table_with` puts on the table's, and the real window hosting it (`host_in_window`).
pub(crate) fn window_hosting(
    name: &str,
    table_with: fn(&Scratch, &Path) -> Uuid,
) -> (Window, Scratch, PathBuf, Uuid, (Session, String, SocketAddr)) {
    let window = one_window();
    let scratch = Scratch::new(name);
    let [table_db, other_db] = ["table.db", "other.db"].map(|db| scratch.path(db));
    let game = table_with(&scratch, &table_db);
    (window, scratch, other_db, game, host_in_window(&table_db, GAME))
}

/// The real window as the device `name` on `db`: it joins the table at `addr` with `code`
/// through "Join a table nearby", as a person would, and shows the table's game `game`.
pub(crate) fn join_in_window(db: &Path, name: &str, addr: SocketAddr, code: &str, game: &str) -> Session {
    let window = Session::start_with_env(&app(), db, &[("SHEETKEEPER_DEVICE_NAME", name)]);
    window.set_window_size(1280, 800);
    window.wait_for("body[data-ready='true']");
    tap(&window, "#link-join-open");
    window.wait_for("#link-join-dialog");
    type_into(&window, "#link-join-addr", &addr.to_string());
    type_into(&window, "#link-join-code", code);
    tap(&window, "#link-join-submit");
    window.wait_gone("#link-join-dialog");
    window.wait_text("#game-heading", game);
    window
}

/// The real window as the table's device ("Table laptop") on `db`: it opens `game` and hosts
/// it on loopback, as a person would; the window, the code and the address it shows.
pub(crate) fn host_in_window(db: &Path, game: &str) -> (Session, String, SocketAddr) {
    let window = Session::start_with_env(
        &app(),
        db,
        &[("SHEETKEEPER_LINK_LISTEN", "127.0.0.1:0"), ("SHEETKEEPER_DEVICE_NAME", "Table laptop")],
    );
    window.set_window_size(1280, 800);
    window.wait_for("body[data-ready='true']");
    open_game(&window, game);
    tap(&window, "#link-host");
    let code = window.wait_for("#link-code").text();
    let addr = window.wait_for("#link-addrs li").text().parse().expect("the table's address");
    (window, code, addr)
}

/// A device in this process, `name` on `db`, joined to the table at `addr` with `code`.
pub(crate) fn join_in_process(db: &Path, addr: SocketAddr, code: &str, name: &str) -> JoinHandle {
    let device =
        JoinHandle::start(JoinConfig { db: db.to_path_buf(), addr, code: Some(code.to_string()), name: name.into() });
    let joined = device.wait(LINK_WAIT);
    assert_eq!(joined.state, LinkState::Linked, "{name} links: {:?}", joined.message);
    device
}

/// The roller's wizard waits for the helper's die and is given it: the in-process helper
/// device sends "Tobias Reed, d6 with advantage: 5 and 2" for Wren; the window's help step
/// lists it; "Use it" puts exactly that die in Wren's roll (the wizard says so, the roller's
/// database holds it as her roll's help) and the note leaves the inbox. A note sent before
/// the roll reaches the help step waits there too; a second, put away, leaves without a trace.
#[test]
fn a_helpers_die_sent_from_their_device_is_used_in_the_rollers_wizard() {
    let (_window, _scratch, [table_db, roller_db, helper_db], host, addr) = hosted_table("link-notes");
    let [wren, tobias] = [WREN, TOBIAS].map(|id| Uuid::parse_str(id).unwrap());

    // The roller's device: the real window joins with the code, as a person would.
    let window = join_in_window(&roller_db, "Wren's phone", addr, &host.status().code, GAME);
    // Wren's claim waits for the table's person, who first says no: the row gives the reason
    // and the button again; asked again, they approve and she is Wren's phone's.
    claim_in_window(&window, WREN);
    shot(&window, "link-notes-claim-waiting-1280");
    let request =
        wait_for("Wren's claim at the table", || host.status().claims.into_iter().find(|c| c.character == wren));
    assert_eq!((request.device_name.as_str(), request.character_name.as_str()), ("Wren's phone", "Wren Ashdown"));
    host.decline_claim(request.device, wren).expect("the table's person declines");
    wait_claim(&window, WREN, "declined");
    let row = window.wait_for(&format!(".link-claim-row[data-character-id='{WREN}']")).text();
    assert!(row.contains("The table declined your claim on “Wren Ashdown”."), "the reason, as a sentence: {row:?}");
    window.wait_for(&format!(".link-claim-row[data-character-id='{WREN}'] .link-claim-button"));
    claim_shots(&window, "link-notes-claim-declined");
    in_dark(&window, || claim_shots(&window, "link-notes-claim-declined-dark"));
    claim_in_window(&window, WREN);
    approve(&host, wren);
    wait_claim(&window, WREN, "yours");

    // The helper's device, in this process: joins with the code and plays Tobias.
    let helper = join_in_process(&helper_db, addr, &host.status().code, "Tobias's tablet");
    claim_approved(&host, &helper, tobias);

    // Wren rolls on her own device: Body, her character at risk, "Curious", dice typed in.
    open_game(&window, GAME);
    click_in_character_row(&window, "Wren Ashdown", ".character-roll");
    wait_step(&window, "outcome");
    type_into(&window, "#roll-outcome", "Climb the lighthouse in the storm");
    tap(&window, "#roll-next");
    tap(&window, "#roll-aspect-body");
    tap(&window, "#roll-at-risk-character");
    tap(&window, "#roll-next");
    tap(&window, "#roll-mood-0");
    tap(&window, "#roll-next");
    wait_step(&window, "details");
    tap(&window, "#roll-next");
    wait_step(&window, "odds");
    window.wait_for("#roll-odds-win");
    tap(&window, "#roll-next");
    wait_step(&window, "roll");
    tap(&window, "#roll-by-hand");
    submit_faces(&window, &[("#roll-die-aspect-1", "3"), ("#roll-die-mood-1", "4")]);
    wait_step(&window, "help");

    // The wizard waits for a helper's die: nothing sent yet.
    window.wait_until("the help step to wait for a helper", || {
        window.find("#help-inbox-waiting").ok().filter(|w| w.is_displayed()).map(|_| ())
    });
    assert_eq!(inbox(&window), json!([]), "nothing waits on the roller's device yet");
    wizard_shots(&window, "link-notes-waiting", "#help-inbox");

    // Tobias helps from his own device: a d6 with advantage, rolled there, 5 and 2.
    let note = |faces: Vec<u8>| Note::NsuHelp {
        roller: wren,
        helper: RemoteHelper { name: "Tobias Reed".into(), die: Die::D6, edge: Edge::Advantage },
        faces,
    };
    helper.send_note(note(vec![5, 2])).expect("the host passes the helper's note on");
    // A second note (a reroll he thinks better of): listed too, then put away.
    helper.send_note(note(vec![1, 1])).expect("the second note is passed on");
    let listed = window.wait_until("both helpers' dice in the wizard", || {
        let notes = window.find_all(".help-note");
        (notes.len() == 2).then(|| notes.iter().map(|n| n.text()).collect::<Vec<_>>())
    });
    assert!(
        listed[0].contains("Tobias Reed sent a d6 (advantage): 5, 2") && listed[0].contains("from Tobias's tablet"),
        "the note in words, with the device it came from: {listed:?}"
    );
    assert!(listed[1].contains("1, 1"), "{listed:?}");
    wizard_shots(&window, "link-notes-sent", "#help-inbox");

    let dismiss = window.execute(
        "const li = [...document.querySelectorAll('.help-note')].find((n) => n.textContent.includes('1, 1'));
         li.querySelector('.help-note-dismiss').click(); return li.dataset.noteId;",
        json!([]),
    );
    window
        .wait_until("the put-away note to leave the list", || (window.find_all(".help-note").len() == 1).then_some(()));
    let left = inbox(&window);
    assert_eq!(left.as_array().map(Vec::len), Some(1), "one note waits: {left}");
    assert_ne!(left[0]["id"], dismiss, "the one put away is gone");
    assert_eq!(left[0]["note"]["faces"], json!([5, 2]));
    assert_eq!(left[0]["from"], json!("Tobias's tablet"));

    // "Use it": the helper's die is in Wren's roll.
    tap(&window, ".help-note .help-note-use");
    let done = window.wait_for("#roll-help-done").text();
    assert!(done.contains("Tobias Reed") && done.contains("d6") && done.contains("5 and 2"), "{done:?}");
    assert!(done.contains("advantage"), "the edge is shown: {done:?}");
    window.wait_until("the inbox to be empty", || (inbox(&window) == json!([])).then_some(()));
    wizard_shots(&window, "link-notes-used", "#roll-help-done");

    // The roller's database: Wren's roll on the table has Tobias's die as its help.
    let store = Store::open(&roller_db).expect("the roller's database");
    let pending =
        services::nsu_pending_roll(&store, wren).expect("read the roll").expect("Wren's roll is on the table");
    let help = serde_json::to_value(&pending.roll.help).expect("the help serializes");
    assert_eq!(help["name"], json!("Tobias Reed"), "{help}");
    assert_eq!(help["die"], json!("d6"), "{help}");
    assert_eq!(help["edge"], json!("advantage"), "{help}");
    assert_eq!((help["value"].clone(), help["second"].clone()), (json!(5), json!(2)), "{help}");
    assert_eq!(help["mood"], Value::Null, "a helper elsewhere has no mood on this device: {help}");
    drop(store);

    // A note changes no database: Tobias's "Stubborn" is still level 1 on his device and the
    // table's (he records what helping did himself, with "I helped with…").
    for (db, whose) in [(&helper_db, "the helper's"), (&table_db, "the table's")] {
        let store = Store::open(db).expect("a device's database");
        let sheet = services::nsu_sheet(&store, tobias).expect("Tobias is there").sheet;
        assert_eq!(sheet.moods[2].as_ref().map(|m| m.level), Some(1), "{whose} database");
    }

    drop(window);
    helper.stop();
    host.stop();
}

/// The helper's side: the window is Tobias's device. "I helped with…" offers "Send my die to
/// the roller's device" because this device is joined to the table; he picks Wren, acts with
/// "Stubborn" and rolls his die here. The note reaches Wren's device (in this process) with
/// the faces the window shows, his name, and the die of that mood line; then he records what
/// helping did to his mood as before, and that change reaches the table.
#[test]
fn i_helped_with_sends_the_helpers_die_to_the_rollers_device() {
    let (_window, _scratch, [table_db, roller_db, helper_db], host, addr) = hosted_table("link-notes-helper");
    let [wren, tobias] = [WREN, TOBIAS].map(|id| Uuid::parse_str(id).unwrap());

    // Wren's device, in this process.
    let roller = join_in_process(&roller_db, addr, &host.status().code, "Wren's phone");
    claim_approved(&host, &roller, wren);

    // Tobias's device: the window joins and claims him.
    let window = join_in_window(&helper_db, "Tobias's tablet", addr, &host.status().code, GAME);
    claim_in_window(&window, TOBIAS);
    approve(&host, tobias);
    wait_claim(&window, TOBIAS, "yours");

    // His sheet → "I helped…": the send step is there because this device is at the table.
    wait_character_row(&window, "Tobias Reed");
    tap(&window, &format!(".character-row[data-character-id='{TOBIAS}'] .character-open"));
    window.wait_for("#sheet-view");
    tap(&window, "#sheet-helped");
    window.wait_for("#helped-dialog[open]");
    window.wait_for("#helped-send");
    let options = window.execute(
        "return [...document.querySelectorAll('#helped-roller option')].map((o) => o.textContent);",
        json!([]),
    );
    assert_eq!(options, json!(["Choose whose roll", "Wren Ashdown"]), "the others at the table, not himself");
    // Sending before choosing whose roll is refused, in words.
    tap(&window, "#helped-send-roll");
    window.wait_until("the refusal", || {
        window.find("#helped-send-error").ok().filter(|e| e.is_displayed()).map(|e| e.text())
    });
    assert!(window.wait_for("#helped-send-error").text().contains("choose whose roll"));
    pick(&window, "#helped-roller", WREN);
    pick(&window, "#helped-mood", "2");
    let die_words = window.wait_for("#helped-send-die").text();
    assert!(die_words.contains("a d6") && !die_words.contains("advantage"), "Stubborn's die, no edge: {die_words:?}");
    let roll_words = window.execute("return document.getElementById('helped-roll').value;", json!([]));
    assert_eq!(roll_words, json!("Wren Ashdown"), "whose roll is filled in from the roller picked");
    wizard_shots(&window, "link-notes-helped-send", "#helped-send");
    tap(&window, "#helped-send-roll");
    let sent = window.wait_until("the die to be sent", || {
        window.find("#helped-sent").ok().filter(|e| e.is_displayed()).map(|e| e.text())
    });
    assert!(sent.contains("Sent to Wren Ashdown’s device: a d6 showing"), "{sent:?}");
    let face = window.execute("return Number(document.getElementById('helped-face-1').value);", json!([]));
    let face = face.as_u64().expect("the face rolled here is in the field") as u8;
    assert!((1..=6).contains(&face), "a d6 face: {face}");
    wizard_shots(&window, "link-notes-helped-sent", "#helped-sent");

    // Wren's device has it: Tobias's name, a d6 with no edge, the face the window shows.
    let got = wait_for("the note on Wren's device", || roller.status().inbox.into_iter().next());
    assert_eq!(got.from, "Tobias's tablet");
    let Note::NsuHelp { roller: to, helper: sent_helper, faces } = &got.note;
    assert_eq!(*to, wren);
    assert_eq!(sent_helper, &RemoteHelper { name: "Tobias Reed".into(), die: Die::D6, edge: Edge::None });
    assert_eq!(faces, &vec![face], "the face sent is the face shown and kept for the record");

    // Then he records what helping did, as before: Stubborn goes up by one.
    tap(&window, "#helped-winner-player");
    tap(&window, "#helped-save");
    window.wait_gone("#helped-dialog[open]");
    let store = Store::open(&helper_db).expect("the helper's database");
    let stubborn = services::nsu_sheet(&store, tobias).expect("Tobias here").sheet.moods[2].clone();
    assert_eq!(stubborn.map(|m| m.level), Some(2), "Stubborn went up on the helper's own device");
    drop(store);
    // The change is Tobias's, so it travels to the table.
    wait_for("Tobias's new level on the table", || {
        let store = Store::open(&table_db).ok()?;
        let sheet = services::nsu_sheet(&store, tobias).ok()?.sheet;
        (sheet.moods[2].as_ref().map(|m| m.level) == Some(2)).then_some(())
    });

    drop(window);
    roller.stop();
    host.stop();
}
