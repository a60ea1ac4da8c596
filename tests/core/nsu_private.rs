//! NSU rumours and notes marked private (audit D10, issue 33): a private line is read only by
//! the character's player. Every view, redacted document and linked copy made for anyone
//! else (another player, the table — in NSU the Arbiters are the other players — everyone)
//! leaves it out, so free text does not give away a face-down card. A whole sheet sent back
//! by someone whose view held no private line keeps them; such a sender cannot write, change
//! or take one off; the linked table's digests stay each device's own.

use serde_json::Value;
use sha2::{Digest, Sha256};
use sheetkeeper::exchange;
use sheetkeeper::rules::record::CharacterRecord;
use sheetkeeper::services::{self, Changed, CopyUpdate, ExportScope, GameView, Viewer};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::support::{imported, Scratch};

/// Wren's private rumour and note in the golden game (her table's rumour stays everyone's).
const RUMOUR: &str = "a drowned miller turns its wheel";
const NOTE: &str = "Keep the miller's name from Tobias";
const TABLES: &str = "The mill wheel turns at night, though the river is dry.";

fn golden() -> (Scratch, Store, Uuid, Uuid, Uuid) {
    let (s, store) = imported("nsu-game.sheetkeeper.json");
    let g: GameView = services::list(&store).unwrap().remove(0);
    let id = |name: &str| g.characters.iter().find(|c| c.name == name).unwrap().id;
    let (wren, tobias) = (id("Wren Ashdown"), id("Tobias Reed"));
    (s, store, g.game.id, wren, tobias)
}

fn holds_secrets(text: &str) -> [bool; 2] {
    [text.contains(RUMOUR), text.contains(NOTE)]
}

/// The digest a device computes of a character it holds (SHA-256 of the record as stored).
fn digest_of(record: &CharacterRecord) -> String {
    Sha256::digest(serde_json::to_vec(record).unwrap()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The character `id` in a snapshot's document.
fn record_in(document: &Value, id: Uuid) -> CharacterRecord {
    let doc = exchange::parse(document.to_string().as_bytes()).unwrap();
    doc.games[0].characters.iter().find(|c| c.character.id == id).unwrap().clone()
}

#[test]
fn a_private_rumour_is_in_no_view_but_its_players() {
    let (_s, store, game, wren, tobias) = golden();
    let wrens = serde_json::to_string(&services::game_view_as(&store, game, &wren.to_string()).unwrap()).unwrap();
    assert_eq!(holds_secrets(&wrens), [true, true], "Wren's player reads her private lines");
    for viewer in [tobias.to_string(), "table".into(), "everyone".into()] {
        let text = serde_json::to_string(&services::game_view_as(&store, game, &viewer).unwrap()).unwrap();
        assert_eq!(holds_secrets(&text), [false, false], "{viewer} read a private line: {text}");
        assert!(text.contains(TABLES), "{viewer}: the table's rumour is everyone's");
    }
    // The sheet screen on a device: the table's device does not read them, Wren's does.
    let mut store = store;
    services::set_device_role(&mut store, game, "table").unwrap();
    let sheet = services::nsu_sheet(&store, wren).unwrap().sheet;
    assert_eq!(
        (sheet.private_rumours.as_str(), sheet.private_notes.as_str(), sheet.rumours.as_str()),
        ("", "", TABLES)
    );
    services::set_device_role(&mut store, game, "player").unwrap();
    services::set_mine(&mut store, wren, true).unwrap();
    services::set_mine(&mut store, tobias, false).unwrap();
    assert!(services::nsu_sheet(&store, wren).unwrap().sheet.private_rumours.contains(RUMOUR));
}

#[test]
fn a_redacted_document_holds_another_players_private_lines_nowhere() {
    let (_s, store, game, wren, tobias) = golden();
    let doc = |viewer: &Viewer| {
        let doc = store.snapshot(|read| services::game_document_for(read, game, viewer)).unwrap();
        String::from_utf8(exchange::to_json(&doc)).unwrap()
    };
    assert_eq!(holds_secrets(&doc(&Viewer::Player(vec![wren]))), [true, true]);
    assert_eq!(holds_secrets(&doc(&Viewer::PassedAround)), [true, true], "a device passed around holds all");
    for viewer in [Viewer::Player(vec![tobias]), Viewer::Table, Viewer::Everyone] {
        let text = doc(&viewer);
        assert_eq!(holds_secrets(&text), [false, false], "{viewer:?}");
        assert!(!text.contains("private_rumours") && !text.contains("private_notes"), "{viewer:?}");
        // Still a file that validates and imports.
        let parsed = exchange::parse(text.as_bytes()).unwrap();
        assert_eq!(parsed.games[0].characters.len(), 2);
    }
}

/// The host's database with the golden game, Wren played from device `a` and Tobias from `b`.
fn linked() -> (Scratch, Store, Uuid, Uuid, Uuid, Uuid, Uuid) {
    let (s, mut store, game, wren, tobias) = golden();
    let (a, b) = (Uuid::from_u128(0xa), Uuid::from_u128(0xb));
    services::host_pair(&mut store, game, a, "Wren's phone", &[1; 32]).unwrap();
    services::host_pair(&mut store, game, b, "Tobias's phone", &[2; 32]).unwrap();
    services::host_claim(&mut store, game, a, wren).unwrap().unwrap();
    services::host_claim(&mut store, game, b, tobias).unwrap().unwrap();
    (s, store, game, wren, tobias, a, b)
}

#[test]
fn a_link_snapshot_leaves_them_out_and_each_device_digest_is_of_what_it_holds() {
    let (_s, store, game, wren, _tobias, a, b) = linked();
    let to_a = services::host_snapshot(&store, game, a).unwrap();
    let to_b = services::host_snapshot(&store, game, b).unwrap();
    assert_eq!(holds_secrets(&to_a.document.to_string()), [true, true]);
    assert_eq!(holds_secrets(&to_b.document.to_string()), [false, false], "Tobias's device");
    for snapshot in [&to_a, &to_b] {
        let held = record_in(&snapshot.document, wren);
        assert_eq!(snapshot.digests[&wren], digest_of(&held), "the digest is of the copy the device holds");
    }
    assert_ne!(to_a.digests[&wren], to_b.digests[&wren]);

    // A private line changed on the host: Wren's device reads it; Tobias's device hears only
    // that Wren's record moved on (its revision), and its copy still matches the host's digest.
    let (sent_a, _) = services::host_copy(&store, game, a, None, false).unwrap();
    let (sent_b, whole) = services::host_copy(&store, game, b, None, false).unwrap();
    let CopyUpdate::Whole(first) = whole else { panic!("a first copy is whole") };
    let held = services::Copy::new(first);
    let mut store = store;
    let mut sheet = services::nsu_sheet(&store, wren).unwrap().sheet;
    sheet.private_rumours = "The miller's name is Hollis.".into();
    services::save_nsu_sheet(&mut store, wren, sheet.clone()).unwrap();
    let (_, update) = services::host_copy(&store, game, a, Some(sent_a), false).unwrap();
    let CopyUpdate::Patch(patch) = update else { panic!("Wren's device gets a patch: {update:?}") };
    assert!(patch.ops.to_string().contains("Hollis"));
    let (sent_b, update) = services::host_copy(&store, game, b, Some(sent_b), false).unwrap();
    let held = match update {
        CopyUpdate::Same => held,
        CopyUpdate::Patch(patch) => {
            assert!(!patch.ops.to_string().contains("Hollis"), "{}", patch.ops);
            services::joined_patch(held, &patch).expect("the patch applies and its digest matches").0
        }
        CopyUpdate::Whole(_) => panic!("a private line is no reason for a whole copy"),
    };
    assert_eq!(holds_secrets(&held.view().document.to_string()), [false, false]);

    // The table's rumour changed: Tobias's device gets it, and the patch applied to its copy
    // gives the digest the host says, with no private line in it.
    sheet.rumours = "The river ran backwards last spring.".into();
    services::save_nsu_sheet(&mut store, wren, sheet).unwrap();
    let (_, update) = services::host_copy(&store, game, b, Some(sent_b), false).unwrap();
    let CopyUpdate::Patch(patch) = update else { panic!("Tobias's device gets a patch: {update:?}") };
    assert!(!patch.ops.to_string().contains("Hollis"), "{}", patch.ops);
    let (copy, changed) = services::joined_patch(held, &patch).expect("the patch applies and its digest matches");
    assert!(matches!(changed, Changed::Characters(_)));
    let wren_there = record_in(&copy.view().document, wren);
    assert_eq!(wren_there.nsu.as_ref().unwrap().rumours, "The river ran backwards last spring.");
    assert_eq!(wren_there.nsu.as_ref().unwrap().private_rumours, "");
    assert_eq!(copy.view().digests[&wren], digest_of(&wren_there));
}

#[test]
fn a_whole_sheet_saved_where_the_private_lines_are_not_shown_keeps_them() {
    let (_s, mut store, game, wren, _tobias) = golden();
    services::set_device_role(&mut store, game, "table").unwrap();
    let mut shown = services::nsu_sheet(&store, wren).unwrap().sheet;
    assert_eq!(shown.private_rumours, "");
    shown.look = "Mud to the knees".into();
    services::save_nsu_sheet(&mut store, wren, shown.clone()).unwrap();
    let stored = store.read().nsu_sheet(wren).unwrap().unwrap();
    assert_eq!(stored.look, "Mud to the knees", "the edit is saved");
    assert!(stored.private_rumours.contains(RUMOUR) && stored.private_notes.contains(NOTE), "and nothing erased");

    // Neither written nor changed from here: refused by name, nothing saved.
    let forged = sheetkeeper::rules::nsu::Sheet { private_rumours: "The mill is empty.".into(), ..shown };
    let err = services::save_nsu_sheet(&mut store, wren, forged).unwrap_err().to_string();
    assert!(err.contains("private_rumours") && err.contains("only the character's player"), "{err}");
    assert_eq!(store.read().nsu_sheet(wren).unwrap().unwrap(), stored);
}

#[test]
fn at_a_linked_table_a_private_line_moves_only_with_its_players_device() {
    let (s, mut store, game, wren, _tobias, a, b) = linked();
    let before = store_sheet(&store, wren);
    // Tobias's device sends Wren whole, with a private line of its own making: refused.
    let to_b = services::host_snapshot(&store, game, b).unwrap();
    let mut forged = record_in(&to_b.document, wren);
    forged.nsu.as_mut().unwrap().private_rumours = "The mill is empty.".into();
    let doc = character_document(&s, &store, &forged);
    let refused = services::host_apply_change(&mut store, game, b, &doc, Some(&to_b.digests[&wren])).unwrap();
    assert!(refused.is_err(), "another device's character");
    assert_eq!(store_sheet(&store, wren), before);

    // Wren's device edits what the table reads, on its digest: the private lines stay.
    let to_a = services::host_snapshot(&store, game, a).unwrap();
    let mut edit = record_in(&to_a.document, wren);
    edit.nsu.as_mut().unwrap().rumours = "Nothing moves at the mill by day.".into();
    let doc = character_document(&s, &store, &edit);
    services::host_apply_change(&mut store, game, a, &doc, Some(&to_a.digests[&wren])).unwrap().unwrap();
    let after = store_sheet(&store, wren);
    assert_eq!(after.rumours, "Nothing moves at the mill by day.");
    assert_eq!(
        (after.private_rumours.as_str(), after.private_notes.as_str()),
        (&*before.private_rumours, &*before.private_notes)
    );

    // The digest check still holds: a change made on the old copy is refused.
    let mut late = record_in(&to_a.document, wren);
    late.nsu.as_mut().unwrap().look = "Late".into();
    let doc = character_document(&s, &store, &late);
    let stale = services::host_apply_change(&mut store, game, a, &doc, Some(&to_a.digests[&wren])).unwrap();
    assert!(stale.unwrap_err().contains("changed at the table meanwhile"));
}

fn store_sheet(store: &Store, id: Uuid) -> sheetkeeper::rules::nsu::Sheet {
    store.read().nsu_sheet(id).unwrap().unwrap()
}

/// A character file document holding `record`, as a device sends its change.
fn character_document(s: &Scratch, store: &Store, record: &CharacterRecord) -> Value {
    let file = s.file("change.sheetkeeper.json");
    services::export(store, ExportScope::Character(record.character.id), &file).unwrap();
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    doc["data"]["games"][0]["characters"][0] = exchange::character_value(record);
    doc
}

#[test]
fn a_joined_devices_export_of_another_players_character_holds_no_private_line() {
    let (_h, store, game, wren, _tobias, _a, b) = linked();
    let to_b = services::host_snapshot(&store, game, b).unwrap();
    let device = Scratch::new();
    let mut there = device.open();
    let accepted = services::Accepted::default();
    services::joined_apply_snapshot(&mut there, game, &to_b, &Changed::Whole, &accepted).unwrap();
    let file = device.file("Wren.sheetkeeper.json");
    services::export(&there, ExportScope::Character(wren), &file).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(TABLES), "the table's rumour travels");
    assert_eq!(holds_secrets(&text), [false, false], "{text}");
}

#[test]
fn on_a_hosting_players_device_a_character_played_from_another_device_is_not_theirs() {
    let (_s, mut store, game, wren, _tobias, _a, _b) = linked();
    // The hosting device as a player's: Wren is played from device a, so her private lines
    // are not this device's to read, though its database holds them.
    services::set_device_role(&mut store, game, "player").unwrap();
    let sheet = services::nsu_sheet(&store, wren).unwrap().sheet;
    assert_eq!((sheet.private_rumours.as_str(), sheet.private_notes.as_str()), ("", ""));
    let view = serde_json::to_string(&services::game_view_on_device(&store, game, None).unwrap()).unwrap();
    assert_eq!(holds_secrets(&view), [false, false], "{view}");
}
