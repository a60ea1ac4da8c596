//! A joined device at a linked table, through the real host and join over loopback: its
//! own character's change reaches the host, the table's change reaches it, and a change to
//! the game itself is refused on the joined device (the host's snapshot would replace it).

use std::time::{Duration, Instant};

use sheetkeeper::link::{HostConfig, HostHandle, JoinConfig, JoinHandle, LinkState};
use sheetkeeper::rules::nsu::world::SafetyList;
use sheetkeeper::services;
use sheetkeeper::Store;

use crate::support::{fixture, Scratch};

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

    let host = HostHandle::start(HostConfig {
        db: host_db.clone(),
        game,
        listen: "127.0.0.1:0".parse().unwrap(),
        name: "The table".into(),
    })
    .unwrap();
    let status = host.status();
    let join = JoinHandle::start(JoinConfig {
        db: player_db.clone(),
        addr: status.listen.parse().unwrap(),
        code: Some(status.code.clone()),
        name: "Ada's phone".into(),
    });
    assert!(join.wait(Duration::from_secs(20)).caught_up, "{:?}", join.status());
    join.claim(tobias).unwrap();

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
