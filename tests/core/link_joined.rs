//! A joined device at a linked table, through the real host and join over loopback: its
//! own character's change reaches the host, the table's change reaches it, and a change to
//! the game itself is refused on the joined device (the host's snapshot would replace it).

use std::time::{Duration, Instant};

use sheetkeeper::link::{HostConfig, HostHandle, JoinConfig, JoinHandle, LinkState};
use sheetkeeper::rules::nsu::world::SafetyList;
use sheetkeeper::services;
use sheetkeeper::Store;

use crate::support::{fixture, Scratch};

/// Hosts `game` of the database `db` on a free loopback port.
fn host_on_loopback(db: &std::path::Path, game: uuid::Uuid) -> HostHandle {
    HostHandle::start(HostConfig {
        db: db.to_owned(),
        game,
        listen: "127.0.0.1:0".parse().unwrap(),
        name: "The table".into(),
    })
    .unwrap()
}

/// Polls `done` until it holds, failing with `what` after a generous deadline.
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(20), "{what} did not happen");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_joined_device_changes_its_character_through_the_host_and_never_the_game_itself() {
    let dir = Scratch::new();
    let (host_db, player_db) = (dir.file("host.db"), dir.file("player.db"));
    let mut host_store = Store::open(&host_db).unwrap();
    services::import(&mut host_store, &fixture("nsu-game.sheetkeeper.json"), Default::default()).unwrap();
    let game = services::list(&host_store).unwrap()[0].game.id;
    let tobias =
        services::list(&host_store).unwrap()[0].characters.iter().find(|c| c.name == "Tobias Reed").unwrap().id;
    drop(Store::open(&player_db).unwrap());

    let host = host_on_loopback(&host_db, game);
    let status = host.status();
    let join = JoinHandle::start(JoinConfig {
        db: player_db.clone(),
        addr: status.listen.parse().unwrap(),
        code: Some(status.code.clone()),
        name: "Ada's phone".into(),
    });
    assert!(join.wait(Duration::from_secs(20)).caught_up, "{:?}", join.status());
    crate::link::claim(&host, &join, &player_db, tobias);

    // The player's window (its own connection) changes Tobias's sheet.
    let mut player = Store::open(&player_db).unwrap();
    assert!(services::list(&player).unwrap()[0].characters.iter().any(|c| c.id == tobias && c.mine));
    let mut sheet = services::nsu_sheet(&player, tobias).unwrap().sheet;
    sheet.rumours = "Find my sister before the tide turns".into();
    services::save_nsu_sheet(&mut player, tobias, sheet).unwrap();
    eventually("the player's change reaching the host", || {
        services::nsu_sheet(&host_store, tobias).unwrap().sheet.rumours == "Find my sister before the tide turns"
    });

    // The table's change to the world reaches the player.
    services::nsu_world_add_safety(&mut host_store, game, SafetyList::Lines, "No spiders").unwrap();
    eventually("the table's change reaching the player", || {
        let view = services::game_view_as(&player, game, "everyone").unwrap();
        serde_json::to_string(&view).unwrap().contains("No spiders")
    });

    // The player's device may not change the game itself: refused, with the reason.
    let refused = services::nsu_world_add_safety(&mut player, game, SafetyList::Lines, "No clowns").unwrap_err();
    assert!(refused.to_string().contains("hosted at a linked table"), "{refused}");

    host.stop();
    eventually("the link ending when the host stops", || join.status().state == LinkState::Ended);
    assert!(join.status().message.unwrap_or_default().contains("stopped hosting"));
    // Every device keeps its data.
    assert_eq!(services::nsu_sheet(&player, tobias).unwrap().sheet.rumours, "Find my sister before the tide turns");
    assert!(services::check(&player).unwrap().ok);
    assert!(services::check(&host_store).unwrap().ok);
}

fn join(dir: &Scratch, name: &str, host: &HostHandle) -> (std::path::PathBuf, JoinHandle) {
    let db = dir.file(&format!("{name}.db"));
    drop(Store::open(&db).unwrap());
    let status = host.status();
    let handle = JoinHandle::start(JoinConfig {
        db: db.clone(),
        addr: status.listen.parse().unwrap(),
        code: Some(status.code),
        name: name.into(),
    });
    assert!(handle.wait(Duration::from_secs(20)).caught_up, "{:?}", handle.status());
    (db, handle)
}

/// The NSU fixture's game on a host's database, hosted on loopback: Tobias and Wren to claim.
struct NsuTable {
    dir: Scratch,
    host_store: Store,
    game: uuid::Uuid,
    tobias: uuid::Uuid,
    wren: uuid::Uuid,
    host: HostHandle,
}

fn nsu_table_hosted() -> NsuTable {
    let dir = Scratch::new();
    let host_db = dir.file("host.db");
    let mut host_store = Store::open(&host_db).unwrap();
    services::import(&mut host_store, &fixture("nsu-game.sheetkeeper.json"), Default::default()).unwrap();
    let listing = services::list(&host_store).unwrap();
    let game = listing[0].game.id;
    let id_of = |name: &str| listing[0].characters.iter().find(|c| c.name == name).unwrap().id;
    let (tobias, wren) = (id_of("Tobias Reed"), id_of("Wren Ashdown"));
    let host = host_on_loopback(&host_db, game);
    NsuTable { dir, host_store, game, tobias, wren, host }
}

#[test]
fn a_helpers_die_rolled_on_their_device_reaches_the_rollers_device() {
    use sheetkeeper::rules::nsu::roll::{Edge, RemoteHelper};
    use sheetkeeper::rules::nsu::Die;
    use sheetkeeper::services::Note;

    let NsuTable { dir, mut host_store, game, tobias, wren, host } = nsu_table_hosted();
    let (roller_db, roller) = join(&dir, "roller", &host);
    let (helper_db, helper) = join(&dir, "helper", &host);
    crate::link::claim(&host, &roller, &roller_db, tobias);
    crate::link::claim(&host, &helper, &helper_db, wren);

    let help = |faces: Vec<u8>, edge| Note::NsuHelp {
        roller: tobias,
        helper: RemoteHelper { name: "Wren".into(), die: Die::D6, edge },
        faces,
    };
    helper.send_note(help(vec![5], Edge::None)).unwrap();
    eventually("the helper's die reaching the roller's device", || !roller.status().inbox.is_empty());
    let inbound = roller.status().inbox[0].clone();
    assert_eq!(inbound.from, "helper");
    assert_eq!(inbound.note, help(vec![5], Edge::None));
    roller.take_note(inbound.id).unwrap();
    assert!(roller.status().inbox.is_empty());
    assert!(helper.status().inbox.is_empty(), "a note goes only to the device that plays its character");

    // A die that cannot be: refused with the reason, nothing passed on.
    let refused = helper.send_note(help(vec![7], Edge::None)).unwrap_err();
    assert!(refused.to_string().contains("1 to 6"), "{refused}");
    let refused = helper.send_note(help(vec![3], Edge::Advantage)).unwrap_err();
    assert!(refused.to_string().contains("with an edge"), "{refused}");
    assert!(roller.status().inbox.is_empty());

    // Once the roller's device is removed, Tobias is the table's: the note waits in the
    // host's inbox.
    roller.stop();
    let devices = services::link_devices(&host_store, Some(game)).unwrap();
    let roller_device = devices.iter().find(|d| d.peer.name == "roller").unwrap().peer.device_id;
    services::link_unpair(&mut host_store, roller_device).unwrap();
    let for_table = help(vec![2], Edge::None);
    helper.send_note(for_table.clone()).unwrap();
    eventually("the note reaching the table's inbox", || !host.status().inbox.is_empty());
    assert_eq!(host.status().inbox[0].note, for_table);
}

#[test]
fn a_character_made_on_a_joined_device_can_be_claimed_at_once() {
    let dir = Scratch::new();
    let host_db = dir.file("host.db");
    let mut host_store = Store::open(&host_db).unwrap();
    services::import(&mut host_store, &fixture("nsu-game.sheetkeeper.json"), Default::default()).unwrap();
    let game = services::list(&host_store).unwrap()[0].game.id;
    let host = host_on_loopback(&host_db, game);
    let (player_db, player) = join(&dir, "player", &host);
    // The window makes a new character and says it is this device's, at once: the claim
    // goes after the new character, so the host knows it.
    let mut store = Store::open(&player_db).unwrap();
    let made = services::create_character(&mut store, game, "Maud Fenwick").unwrap();
    // Made on this device: its own at once, nobody asked.
    assert_eq!(player.claim(made.id).unwrap(), sheetkeeper::link::Claimed::Yours);
    eventually("the new character at the table", || {
        services::list(&host_store).unwrap()[0].characters.iter().any(|c| c.id == made.id)
    });
    let devices = services::link_devices(&host_store, Some(game)).unwrap();
    assert_eq!(devices[0].characters, vec![made.id], "the host records the player's device as Maud's");
    drop(host_store);
    host_store = Store::open(&host_db).unwrap();
    assert!(services::check(&host_store).unwrap().ok);
}

#[test]
fn a_dice_tray_roll_on_a_joined_device_lands_in_the_tables_log() {
    use sheetkeeper::services::GameMove;

    let NsuTable { dir, host_store, game, tobias, wren, host } = nsu_table_hosted();
    let (player_db, player) = join(&dir, "player", &host);

    // Before the device plays anyone at the table, its rolls are not the table's.
    let mv = |expression: &str, faces: Vec<u32>, character| GameMove::DiceTray {
        expression: expression.into(),
        faces,
        character,
    };
    let refused = player.submit_move(mv("d6", vec![2], None)).unwrap_err();
    assert!(refused.to_string().contains("plays no character"), "{refused}");
    crate::link::claim(&host, &player, &player_db, tobias);

    // Rolled on the device (nothing written there), logged by the table's device.
    let mut rng = rand::rng();
    let local = Store::open(&player_db).unwrap();
    let (sent, shown) = services::dice_tray_roll_here(&local, game, Some(tobias), "2d6+1", &mut rng).unwrap();
    assert_eq!(shown.seq, None);
    assert!(shown.action.starts_with("Tobias Reed — dice tray: 2d6+1 → "), "{}", shown.action);
    player.submit_move(sent).unwrap();
    let log = services::dice_tray_log(&host_store, game, 10).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!((&log[0].action, &log[0].roll), (&shown.action, &shown.roll), "the table logs the device's roll");
    assert!(services::dice_tray_log(&local, game, 10).unwrap().is_empty(), "the device's copy writes no log");

    // Faces that the dice cannot show, or a character another device plays: refused, unlogged.
    let refused = player.submit_move(mv("2d6", vec![3, 7], Some(tobias))).unwrap_err();
    assert!(refused.to_string().contains("7 cannot be rolled on a d6"), "{refused}");
    let refused = player.submit_move(mv("d6", vec![3], Some(wren))).unwrap_err();
    assert!(refused.to_string().contains("played from another device"), "{refused}");
    let refused = player.submit_move(mv("2d1", vec![1, 1], None)).unwrap_err();
    assert!(refused.to_string().contains("a die has at least 2 sides"), "{refused}");
    assert_eq!(services::dice_tray_log(&host_store, game, 10).unwrap().len(), 1);
    host.stop();
}
