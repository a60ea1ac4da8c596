//! Issue 30: a change crosses the link as what changed (a JSON Patch of the device's copy),
//! not as the whole game; a patch made for another copy falls back to the whole snapshot;
//! a hostile patch, either way, is refused and changes nothing.

use std::collections::BTreeSet;

use serde_json::{json, Value};
use sheetkeeper::link::wire;
use sheetkeeper::services::{self, Changed, Copy, CopyPatch, CopyUpdate, SentCopy};

use super::proxy::Proxy;
use super::*;

/// What a one-field change may cost on the wire, both ways together, whatever the game's size.
const ONE_CHANGE_BUDGET: usize = 2048;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("Villager {i:03}")).collect()
}

fn big_game(h: &Scratch, n: usize) -> Uuid {
    let mut names = names(n);
    names.push("Wren".into());
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    nsu_game(h, "Valley", &names)
}

/// An NSU game of `villagers` and Wren, hosted, with Wren's device joined through a
/// recording proxy and caught up: (host's and device's scratch, game, Wren, the whole
/// copy's size in bytes, host, proxy, device).
fn linked_through_a_proxy(villagers: usize) -> (Scratch, Scratch, Uuid, Uuid, usize, HostHandle, Proxy, JoinHandle) {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = big_game(&h, villagers);
    let wren = character(&h.db(), "Wren");
    let whole = serde_json::to_vec(&services::host_snapshot(&h.open(), game, Uuid::new_v4()).unwrap()).unwrap().len();
    let host = host(&h, game);
    let proxy = Proxy::start(addr(&host));
    let j = joined(&p, proxy.addr, Some(&host.status().code), "Wren's phone");
    claim(&host, &j, &p.db(), wren);
    caught_up(&j, "the device is caught up");
    (h, p, game, wren, whole, host, proxy, j)
}

#[test]
fn a_one_field_change_costs_the_same_few_bytes_in_a_small_game_and_a_large_one_both_ways() {
    let (h, p, _game, wren, whole, host, proxy, j) = linked_through_a_proxy(150);
    let villager = character(&h.db(), "Villager 007");
    assert!(whole > 30 * ONE_CHANGE_BUDGET, "the game is large: {whole} bytes");

    // The table changes one field of another character.
    let before = proxy.captured().len();
    set_look(&h.db(), villager, "A lantern in each hand");
    eventually("the change reaches the device", || {
        look(&p.db(), villager).as_deref() == Some("A lantern in each hand")
    });
    caught_up(&j, "the device is caught up");
    let cost = proxy.captured().len() - before;
    assert!(cost < ONE_CHANGE_BUDGET, "the table's change cost {cost} bytes (the whole game is {whole})");

    // The player changes one field of their own: the patch goes up, the answer comes back.
    let before = proxy.captured().len();
    set_look(&p.db(), wren, "A green scarf");
    eventually("the change reaches the table", || look(&h.db(), wren).as_deref() == Some("A green scarf"));
    caught_up(&j, "the device is caught up");
    let cost = proxy.captured().len() - before;
    assert!(cost < ONE_CHANGE_BUDGET, "the player's change cost {cost} bytes (the whole game is {whole})");
    assert_eq!(services::nsu_sheet(&h.open(), wren).unwrap().character.revision, 2, "applied once");
    closed_and_checked(j, host, &[(&h.db(), "the host"), (&p.db(), "the player")]);
}

#[test]
fn a_device_back_in_reach_gets_what_changed_since_the_copy_it_holds() {
    let (h, p, _game, _wren, whole, host, proxy, j) = linked_through_a_proxy(60);
    let villager = character(&h.db(), "Villager 011");

    // A forged frame: the host closes the connection; the device comes back by its key.
    let before = proxy.captured().len();
    proxy.inject(
        0,
        &[
            0, 0, 0, 40, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
            7, 7, 7, 7, 7, 7, 7, 7, 7,
        ],
    );
    eventually("the host closes the connection", || proxy.host_closed(0));
    set_look(&h.db(), villager, "Changed while the device was away");
    eventually("the device comes back", || proxy.connections() >= 2);
    eventually("the change reaches the device", || {
        look(&p.db(), villager).as_deref() == Some("Changed while the device was away")
    });
    caught_up(&j, "the device is caught up again");
    let cost = proxy.captured().len() - before;
    // A new handshake and the change: far less than the game.
    assert!(cost < 4 * ONE_CHANGE_BUDGET && cost * 10 < whole, "coming back cost {cost} bytes (the game: {whole})");
    closed_and_checked(j, host, &[(&p.db(), "the player")]);
}

/// A host and a device's database, linked through the services the link runs (no network):
/// the host's copy for the device and what the device holds.
struct Linked {
    h: Scratch,
    p: Scratch,
    game: Uuid,
    device: Uuid,
    wren: Uuid,
    ash: Uuid,
    sent: Option<SentCopy>,
    held: Option<Copy>,
}

impl Linked {
    fn new() -> Linked {
        let (h, p) = (Scratch::new(), Scratch::new());
        let game = nsu_game(&h, "Valley", &["Wren", "Ash", "Moss"]);
        let (wren, ash) = (character(&h.db(), "Wren"), character(&h.db(), "Ash"));
        let device = Uuid::new_v4();
        services::host_pair(&mut h.open(), game, device, "Phone", &[9; 32]).unwrap();
        services::host_claim(&mut h.open(), game, device, wren).unwrap().unwrap();
        let mut linked = Linked { h, p, game, device, wren, ash, sent: None, held: None };
        match linked.update() {
            CopyUpdate::Whole(snapshot) => linked.take_whole(snapshot),
            other => panic!("the first update is the whole snapshot: {other:?}"),
        }
        linked
    }

    fn update(&mut self) -> CopyUpdate {
        let (sent, update) =
            services::host_copy(&self.h.open(), self.game, self.device, self.sent.take(), false).unwrap();
        self.sent = Some(sent);
        update
    }

    fn patch(&mut self) -> CopyPatch {
        match self.update() {
            CopyUpdate::Patch(patch) => patch,
            other => panic!("expected a patch: {other:?}"),
        }
    }

    fn take_whole(&mut self, snapshot: services::Snapshot) {
        let applied = services::joined_apply_snapshot(
            &mut self.p.open(),
            self.game,
            &snapshot,
            &Changed::Whole,
            &Default::default(),
        );
        assert!(applied.unwrap());
        self.held = Some(Copy::of(&snapshot));
    }

    fn take_patch(&mut self, patch: &CopyPatch) -> Result<Changed, String> {
        let (copy, changed) = services::joined_patch(self.held.clone().unwrap(), patch).map_err(|e| e.to_string())?;
        let snapshot = copy.view().clone();
        services::joined_apply_snapshot(&mut self.p.open(), self.game, &snapshot, &changed, &Default::default())
            .map_err(|e| e.to_string())?;
        self.held = Some(copy);
        Ok(changed)
    }

    /// What the device shows of the game, as its viewer's document (the moment aside).
    fn device_shows(&self) -> Value {
        shown(&self.p, self.game, vec![self.wren])
    }

    fn table_shows(&self) -> Value {
        shown(&self.h, self.game, vec![self.wren])
    }
}

fn shown(s: &Scratch, game: Uuid, mine: Vec<Uuid>) -> Value {
    let store = s.open();
    let doc = store.snapshot(|read| services::game_document_for(read, game, &services::Viewer::Player(mine))).unwrap();
    let mut value: Value = serde_json::from_slice(&sheetkeeper::exchange::to_json(&doc)).unwrap();
    value["exported_at"] = Value::Null;
    // Time stamps and revisions are each side's own; what the game holds is compared.
    for c in value["data"]["games"][0]["characters"].as_array_mut().unwrap() {
        c["updated_at"] = Value::Null;
        c["revision"] = Value::Null;
    }
    value
}

#[test]
fn a_change_of_one_character_is_a_patch_of_that_character_and_the_copies_end_equal() {
    let mut l = Linked::new();
    set_look(&l.h.db(), l.ash, "A grey cloak");
    let patch = l.patch();
    let text = patch.ops.to_string();
    assert!(text.contains("A grey cloak") && text.len() < 1024, "{text}");
    assert_eq!(l.take_patch(&patch).unwrap(), Changed::Characters(BTreeSet::from([l.ash])));
    assert_eq!(look(&l.p.db(), l.ash).as_deref(), Some("A grey cloak"));
    assert_eq!(l.device_shows(), l.table_shows());

    // The game itself changes: the copy is made again and diffed, still a patch.
    services::rename_game(&mut l.h.open(), l.game, "Valley of Ash").unwrap();
    let patch = l.patch();
    assert_eq!(l.take_patch(&patch).unwrap(), Changed::Whole);
    assert_eq!(l.device_shows(), l.table_shows());
    assert_eq!(l.held.as_ref().unwrap().digest(), l.sent.as_ref().unwrap().digest());

    // Nothing changed: nothing is sent.
    assert!(matches!(l.update(), CopyUpdate::Same));
}

#[test]
fn a_patch_made_for_another_copy_changes_nothing_and_the_whole_snapshot_ends_equal() {
    let mut l = Linked::new();
    set_look(&l.h.db(), l.ash, "First");
    let first = l.patch();
    set_look(&l.h.db(), l.ash, "Second");
    let second = l.patch();
    // The device missed the first patch (a lost message, a copy restored from a backup).
    let before = fingerprint(&l.p.db());
    let err = l.take_patch(&second).unwrap_err();
    assert!(err.contains("another copy"), "{err}");
    assert_eq!(fingerprint(&l.p.db()), before, "nothing changed on the device");
    // A patch that applies but does not end where the host said.
    let mut lying = first.clone();
    lying.digest = "0".repeat(64);
    let err = l.take_patch(&lying).unwrap_err();
    assert!(err.contains("did not end where"), "{err}");
    assert_eq!(fingerprint(&l.p.db()), before, "nothing changed on the device");

    // The device asks again: the host sends the whole snapshot, and the copies agree.
    l.sent = None;
    match l.update() {
        CopyUpdate::Whole(snapshot) => l.take_whole(snapshot),
        other => panic!("expected the whole snapshot: {other:?}"),
    }
    assert_eq!(look(&l.p.db(), l.ash).as_deref(), Some("Second"));
    assert_eq!(l.device_shows(), l.table_shows());
    assert_eq!(l.held.as_ref().unwrap().digest(), l.sent.as_ref().unwrap().digest());
}

#[test]
fn a_hostile_patch_from_the_table_is_refused_and_changes_nothing_on_the_device() {
    let mut l = Linked::new();
    let other_game = crate::support::game_with(&mut l.p.open(), "Mine", "nsu", &["Bram"]).game.id;
    let bram = character(&l.p.db(), "Bram");
    let held = l.held.clone().unwrap();
    let before = fingerprint(&l.p.db());
    // Forged patches, each with the digest of where it really ends, as a hostile host would.
    let forged = |ops: Value| {
        let mut value = serde_json::to_value(held.view().clone()).unwrap();
        let list: Vec<json_patch::PatchOperation> = serde_json::from_value(ops.clone()).unwrap();
        json_patch::patch(&mut value, &list).unwrap();
        let end = Copy::of(&serde_json::from_value(value).unwrap());
        CopyPatch { base: held.digest().to_string(), ops, digest: end.digest().to_string() }
    };
    let index = |id: Uuid| {
        let snapshot = held.view().clone();
        snapshot.document["data"]["games"][0]["characters"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c["id"] == json!(id.to_string()))
            .unwrap()
    };
    let ash = index(l.ash);

    // An id of a character of another game on this device.
    let err = l
        .take_patch(&forged(json!([
            { "op": "replace", "path": format!("/document/data/games/0/characters/{ash}/id"), "value": bram.to_string() },
            { "op": "add", "path": format!("/digests/{bram}"), "value": "0".repeat(64) },
        ])))
        .unwrap_err();
    assert!(err.contains("Bram") && err.contains("Mine"), "{err}");
    assert_eq!(fingerprint(&l.p.db()), before, "nothing changed on the device");
    assert_eq!(
        services::list(&l.p.open()).unwrap().iter().find(|g| g.game.id == other_game).unwrap().characters.len(),
        1
    );

    // A text past what a file may hold.
    let err = l
        .take_patch(&forged(json!([
            { "op": "replace", "path": format!("/document/data/games/0/characters/{ash}/nsu/look"), "value": "x".repeat(300_000) },
        ])))
        .unwrap_err();
    assert!(err.contains("look"), "{err}");
    assert_eq!(fingerprint(&l.p.db()), before, "nothing changed on the device");

    // Operations that copy or move (a small message that grows without bound), too many
    // operations, and a copy past the file cap.
    let copy = CopyPatch {
        base: held.digest().to_string(),
        ops: json!([{ "op": "copy", "from": "/document", "path": "/document2" }]),
        digest: String::new(),
    };
    assert!(l.take_patch(&copy).unwrap_err().contains("not an operation a patch may hold"));
    let many: Vec<Value> = (0..services::MAX_PATCH_OPS + 1)
        .map(|i| json!({ "op": "add", "path": format!("/extra{i}"), "value": 0 }))
        .collect();
    let many = CopyPatch { base: held.digest().to_string(), ops: Value::Array(many), digest: String::new() };
    assert!(l.take_patch(&many).unwrap_err().contains("at most"));
    let huge = CopyPatch {
        base: held.digest().to_string(),
        ops: json!([{ "op": "add", "path": "/document/padding", "value": "x".repeat(17 * 1024 * 1024) }]),
        digest: String::new(),
    };
    assert!(l.take_patch(&huge).unwrap_err().contains("grow past"));
    assert_eq!(fingerprint(&l.p.db()), before, "nothing changed on the device");

    // A digest under a key that is no id, of a character the copy does not hold, or not text.
    for ops in [
        json!([{ "op": "add", "path": "/digests/not-an-id", "value": "0".repeat(64) }]),
        json!([{ "op": "replace", "path": format!("/digests/{bram}"), "value": "0".repeat(64) }]),
        json!([{ "op": "remove", "path": format!("/digests/{bram}") }]),
        json!([{ "op": "add", "path": format!("/digests/{}", l.ash), "value": 7 }]),
    ] {
        let patch = CopyPatch { base: held.digest().to_string(), ops: ops.clone(), digest: String::new() };
        let err = l.take_patch(&patch).unwrap_err();
        assert!(err.contains("does not apply to the copy's digests"), "{ops}: {err}");
        assert_eq!(fingerprint(&l.p.db()), before, "nothing changed on the device");
    }
}

#[test]
fn a_hostile_patch_from_a_device_is_refused_and_changes_nothing_at_the_table() {
    let l = Linked::new();
    let other = crate::support::game_with(&mut l.h.open(), "Elsewhere", "nsu", &["Bram"]).game.id;
    let bram = character(&l.h.db(), "Bram");
    let base = services::host_snapshot(&l.h.open(), l.game, l.device).unwrap().digests[&l.wren].clone();
    let before = fingerprint(&l.h.db());
    let edit = |character: Uuid, ops: Value| {
        let outcome = services::host_apply_edit(&mut l.h.open(), l.game, l.device, character, &base, &ops).unwrap();
        outcome.expect_err(&format!("{ops} is refused"))
    };
    // Another game's character, by giving Wren its id.
    let err = edit(l.wren, json!([{ "op": "replace", "path": "/id", "value": bram.to_string() }]));
    assert!(err.contains("another id"), "{err}");
    // A character this device does not play.
    let err = edit(l.ash, json!([{ "op": "replace", "path": "/nsu/look", "value": "Taken" }]));
    assert!(
        err.contains("changed at the table meanwhile") || err.contains("another device") || err.contains("ask"),
        "{err}"
    );
    // The pennies' bookkeeping, a sheet past its rules, a text past the caps.
    let err = edit(l.wren, json!([{ "op": "add", "path": "/penny_pile", "value": 1000 }]));
    assert!(err.contains("pennies"), "{err}");
    let overloaded = |name: &str| json!({ "name": name, "level": 9, "overloaded": true });
    let err = edit(
        l.wren,
        json!([
            { "op": "replace", "path": "/nsu/moods/0", "value": overloaded("Hopeful") },
            { "op": "replace", "path": "/nsu/moods/1", "value": overloaded("Angry") },
        ]),
    );
    assert!(err.contains("only one mood can be overloaded"), "{err}");
    let err = edit(l.wren, json!([{ "op": "replace", "path": "/nsu/look", "value": "x".repeat(300_000) }]));
    assert!(err.contains("look"), "{err}");
    // Not JSON Patch's operations, or ones that copy.
    let err = edit(l.wren, json!([{ "op": "copy", "from": "/nsu", "path": "/nsu2" }]));
    assert!(err.contains("not an operation a patch may hold"), "{err}");
    let err = edit(l.wren, json!({ "op": "replace" }));
    assert!(err.contains("list of operations"), "{err}");
    assert_eq!(fingerprint(&l.h.db()), before, "nothing changed at the table");
    assert!(services::list(&l.h.open()).unwrap().iter().any(|g| g.game.id == other));

    // The same path with a good change is applied.
    services::host_apply_edit(
        &mut l.h.open(),
        l.game,
        l.device,
        l.wren,
        &base,
        &json!([{ "op": "replace", "path": "/nsu/look", "value": "A green scarf" }]),
    )
    .unwrap()
    .unwrap();
    assert_eq!(look(&l.h.db(), l.wren).as_deref(), Some("A green scarf"));
}

#[test]
fn a_device_speaking_an_older_protocol_is_told_to_update_the_app() {
    use std::io::{Read, Write};
    let h = Scratch::new();
    let game = nsu_game(&h, "Valley", &["Wren"]);
    let host = host(&h, game);
    let before = fingerprint(&h.db());
    for (older, opening) in [
        (1, r#"{"kind":"resume","protocol":1}"#.to_string()),
        (2, format!(r#"{{"kind":"pair","protocol":2,"spake":"{}"}}"#, "00".repeat(33))),
        (3, r#"{"kind":"resume","protocol":3}"#.to_string()),
        (4, r#"{"kind":"resume","protocol":4}"#.to_string()),
    ] {
        let mut stream = std::net::TcpStream::connect(addr(&host)).unwrap();
        stream.set_read_timeout(Some(DEADLINE)).unwrap();
        let mut frame = (opening.len() as u32).to_be_bytes().to_vec();
        frame.extend_from_slice(opening.as_bytes());
        stream.write_all(&frame).unwrap();
        let mut len = [0u8; 4];
        stream.read_exact(&mut len).unwrap();
        let mut reply = vec![0u8; u32::from_be_bytes(len) as usize];
        stream.read_exact(&mut reply).unwrap();
        let reply: Value = serde_json::from_slice(&reply).unwrap();
        assert_eq!(reply["kind"], "refused", "{reply}");
        let reason = reply["reason"].as_str().unwrap();
        let expected =
            format!("this table speaks link protocol {}, the device {older}; update the app", wire::PROTOCOL);
        assert_eq!(reason, expected);
    }
    assert_eq!(fingerprint(&h.db()), before, "nothing changed on the host");
    assert_eq!(host.status().wrong_tries, 0, "an old app's pairing is no guessed code");
}
