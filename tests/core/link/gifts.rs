//! Issue 32, item 5: a character, or a whole game, given over the link instead of through a
//! file dialog. "Send to the table" from a joined device and "Give to a device" from the host
//! each land as a file waiting for the other device's person, who previews it (new, update,
//! conflict) and imports it; a file that is not one this app imports never lands.

use sheetkeeper::exchange::Status;
use sheetkeeper::link::wire::MAX_TO_HOST;
use sheetkeeper::services::{ExportScope, ImportOptions};

use super::*;

fn new_only() -> ImportOptions {
    ImportOptions { as_copy: false, replace_conflicts: false }
}

/// A character from another game on a player's device goes to the table, is previewed there
/// as new, and imports; the table's game is untouched by the sending.
#[test]
fn a_character_sent_to_the_table_lands_there_as_an_import_preview_and_imports() {
    let (h, d) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Ada"]);
    let other = nsu_game(&d, "Last winter's game", &["Wren"]);
    let wren = character(&d.db(), "Wren");
    let (host, phone) = paired(&h, &d, game, "Bo's phone");
    let before = fingerprint(&h.db());

    let (file, what) = services::gift_file(&open(&d.db()), ExportScope::Character(wren)).unwrap();
    assert_eq!(what, "“Wren”");
    phone.give(file).expect("the table takes the file");
    let gifts = host.status().gifts;
    assert_eq!(gifts.len(), 1, "{gifts:?}");
    assert_eq!((gifts[0].from.as_str(), gifts[0].what.as_str()), ("Bo's phone", "“Wren”"));
    assert_eq!(fingerprint(&h.db()), before, "nothing lands before the table's person imports it");

    let saved = services::save_gift(&h.file("received"), &gifts[0]).unwrap();
    let preview = services::import_preview(&open(&h.db()), &saved, false).unwrap();
    assert!(preview.games.iter().all(|g| g.status == Status::New), "{preview:?}");
    assert_eq!(preview.characters.len(), 1);
    assert_eq!(preview.characters[0].status, Status::New, "Wren is new here");
    services::import(&mut open(&h.db()), &saved, new_only()).unwrap();
    assert_eq!(services::list(&open(&h.db())).unwrap().iter().filter(|g| g.game.id == other).count(), 1);
    assert!(character(&h.db(), "Wren") == wren, "Wren is on the table's device with her own id");
    assert_eq!(host.take_gift(gifts[0].id).unwrap().id, gifts[0].id);
    assert!(host.status().gifts.is_empty(), "imported and put away, it leaves the list");
}

/// The host gives the whole hosted game to a device (one that will host it next): it lands
/// there as a file; previewing it on a device that holds the table's copy says "update".
#[test]
fn the_host_gives_a_whole_game_to_a_linked_device() {
    let (h, d) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Ada", "Bo"]);
    let (host, phone) = paired(&h, &d, game, "Cy's laptop");
    let device = device_id(&d.db());
    eventually("the laptop is online", || host.status().online.contains(&device));

    let (file, what) = services::gift_file(&open(&h.db()), ExportScope::Game(game)).unwrap();
    assert_eq!(what, "the game “Valley” with 2 character(s)");
    host.give(device, file).unwrap();
    eventually("the game reached the laptop", || phone.status().gifts.len() == 1);
    let gift = phone.status().gifts.remove(0);
    assert_eq!((gift.from.as_str(), gift.what.as_str()), ("The table", "the game “Valley” with 2 character(s)"));
    let saved = services::save_gift(&d.file("received"), &gift).unwrap();
    let preview = services::import_preview(&open(&d.db()), &saved, false).unwrap();
    assert_eq!(preview.games.len(), 1);
    assert_eq!(preview.games[0].id, game);
    drop(phone);
    drop(host);
}

/// A device gives what is not a file this app imports: the table refuses it with the reason,
/// and nothing waits for the table's person. One too large for the link is refused on the
/// device before it is sent.
#[test]
fn a_file_that_is_not_importable_is_refused_and_never_lands() {
    let (h, d) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Ada"]);
    let (host, phone) = paired(&h, &d, game, "Bo's phone");
    let e = phone.give("{\"format\": \"sheetkeeper\", \"format_version\": 999}".into()).unwrap_err();
    assert!(e.to_string().contains("not one this app imports"), "{e}");
    assert!(host.status().gifts.is_empty());
    let e = phone.give("x".repeat(MAX_TO_HOST)).unwrap_err();
    assert!(e.to_string().contains("larger than a device sends"), "{e}");
    assert_eq!(phone.status().state, LinkState::Linked, "the link holds after a refusal");
}

/// The host gives only to a device linked now; giving a backup of everything is refused.
#[test]
fn the_host_gives_only_to_a_linked_device_and_one_thing_at_a_time() {
    let h = Scratch::new();
    let game = nsu_game(&h, "Valley", &["Ada"]);
    let host = host(&h, game);
    let (file, _) = services::gift_file(&open(&h.db()), ExportScope::Game(game)).unwrap();
    let e = host.give(Uuid::new_v4(), file).unwrap_err();
    assert!(e.to_string().contains("not linked right now"), "{e}");
    let e = services::gift_file(&open(&h.db()), ExportScope::All).unwrap_err();
    assert!(e.to_string().contains("one character or one game"), "{e}");
}
