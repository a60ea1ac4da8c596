//! The same through the command line: `sheetkeeper host` and `sheetkeeper join --once` as
//! processes on two databases.

use sheetkeeper::services;

use super::*;

#[test]
fn the_cli_hosts_and_joins_and_changes_travel_both_ways() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren", "Ash"]);
    let (wren, ash) = (character(&h.db(), "Wren"), character(&h.db(), "Ash"));
    let mut host = host_process(&h.db(), game, loopback());
    let addr = host.listen.to_string();

    let out = run(
        &p.db(),
        &["join", &addr, "--code", &host.code, "--once", "--claim", &wren.to_string(), "--name", "Laptop"],
    );
    assert!(out.status.success(), "join failed: {}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), format!("joined game={game}"));
    assert!(text(&out.stderr).contains("asked the table's person"), "{}", text(&out.stderr));
    assert!(mine(&p.db(), game).is_empty(), "not the player's before the host's person approves");
    // The host prints the claim; its person approves it by typing.
    let asked = host.next_line();
    assert!(asked.starts_with("claim device=") && asked.ends_with("name=Wren"), "{asked}");
    host.type_line(&format!("approve {wren}"));
    eventually("the host records the approval", || {
        count(&h.db(), &format!("SELECT count(*) FROM link_owners WHERE character_id = '{wren}'")) == 1
    });
    let out = run(&p.db(), &["join", &addr, "--once"]);
    assert!(out.status.success(), "rejoin failed: {}", text(&out.stderr));
    assert_eq!(mine(&p.db(), game), vec![wren]);
    assert_eq!(look(&p.db(), ash), Some(String::new()), "the table's other character came too");

    // Changed on the player's database while no link runs; the next join (no code: paired)
    // sends it.
    set_look(&p.db(), wren, "Ink on the fingers");
    let out = run(&p.db(), &["join", &addr, "--once"]);
    assert!(out.status.success(), "rejoin failed: {}", text(&out.stderr));
    eventually("the host's database shows the player's change", || {
        look(&h.db(), wren).as_deref() == Some("Ink on the fingers")
    });

    // The table's change, made by another process on the host's database, reaches the player.
    set_look(&h.db(), ash, "A grey cloak");
    let out = run(&p.db(), &["join", &addr, "--once"]);
    assert!(out.status.success(), "rejoin failed: {}", text(&out.stderr));
    assert_eq!(look(&p.db(), ash).as_deref(), Some("A grey cloak"));

    let out = run(&h.db(), &["--json", "devices", "--game", &game.to_string()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let devices: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(devices.as_array().map(Vec::len), Some(1), "{devices}");
    assert_eq!(devices[0]["name"], "Laptop");
    assert_eq!(devices[0]["characters"], serde_json::json!([wren]));

    let status = interrupt(&mut host.child);
    assert!(status.success(), "the host ends cleanly on Ctrl-C: {status:?}");
    assert_eq!(services::list(&p.open()).unwrap().len(), 1);
    assert_check(&h.db(), "the host");
    assert_check(&p.db(), "the player");
}
