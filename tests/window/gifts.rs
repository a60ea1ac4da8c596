//! Issue 32, item 5: characters and games given over the linked table, with no file dialog.
//! The table's host runs in this test process; the real window is a player's device that
//! joined it. The player sends a character from another game to the table ("Send to the
//! table"); the table gives the player a character, which the window previews and imports
//! ("Look at it"), and another, which the player puts away.

use serde_json::json;
use sheetkeeper::services::{self, ExportScope, ImportOptions};
use sheetkeeper::Store;

use crate::link_notes::{
    hosted_table, join_in_process, join_in_window, pick, table_with_the_game, tap, wait_for, window_hosting, GAME,
};
use crate::{in_dark, shot, shots_at_both_widths_with, wait_character_row};

/// A game of `system` called `game` on `db`, with the character `name`: the character's id.
fn character_elsewhere(db: &std::path::Path, game: &str, system: &str, name: &str) -> uuid::Uuid {
    let mut store = Store::open(db).expect("the database");
    let game = services::create_game(&mut store, game, system).expect("the game is made");
    services::create_character(&mut store, game.game.id, name).expect("the character is made").id
}

#[test]
fn a_character_goes_to_the_table_and_the_tables_characters_come_back_without_a_file_dialog() {
    let (_window, _scratch, [table_db, player_db, _], host, addr) = hosted_table("gifts");
    let mara = character_elsewhere(&player_db, "Last winter", "scattershot", "Mara");
    let window = join_in_window(&player_db, "Bo's phone", addr, &host.status().code, GAME);

    // "Send to the table": Mara, from the player's other game.
    window.wait_for("#link-give");
    window.wait_text("#link-give-heading", "Send to the table");
    pick(&window, "#link-give-what", &format!("character:{mara}"));
    shots_at_both_widths_with(&window, "link-send-to-the-table", || window.to_middle("#link-give"), || {});
    tap(&window, "#link-give-button");
    window.wait_text("#toast-message", "Sent “Mara” to the table: it waits there for the table's person to import it.");
    let gift = wait_for("Mara at the table", || host.status().gifts.pop());
    assert_eq!((gift.from.as_str(), gift.what.as_str()), ("Bo's phone", "“Mara”"));
    let saved = services::save_gift(&table_db.with_file_name("received"), &gift).expect("saved at the table");
    let options = ImportOptions { as_copy: false, replace_conflicts: false };
    services::import(&mut Store::open(&table_db).unwrap(), &saved, options).expect("Mara imports at the table");
    let table = Store::open(&table_db).unwrap();
    let at_table = services::list(&table).unwrap();
    assert!(at_table.iter().any(|g| g.characters.iter().any(|c| c.character.id == mara)), "Mara is at the table");

    // "Give to a device": the table gives Quill; the window says so and offers to look.
    let quill = character_elsewhere(&table_db, "Harbor", "mezzo", "Quill");
    let device = wait_for("the player's device online", || host.status().online.first().copied());
    let (file, _) = services::gift_file(&table, ExportScope::Character(quill)).unwrap();
    host.give(device, file).expect("the table gives Quill");
    window.wait_text("#toast-message", "Table laptop sent “Quill”: look at it under Linked table.");
    window.wait_for("#link-gifts");
    assert_eq!(window.wait_for("#link-gifts .link-gift > span").text(), "“Quill” from Table laptop");
    shots_at_both_widths_with(&window, "link-sent-to-this-device", || window.to_middle("#link-gifts"), || {});
    in_dark(&window, || {
        window.to_middle("#link-gifts");
        shot(&window, "link-sent-to-this-device-dark");
    });

    tap(&window, ".link-gift-open");
    window.wait_for("#import-dialog[open]");
    window.wait_text("#import-file", "“Quill”, from Table laptop");
    let items = window.wait_for("#import-items").text();
    assert!(items.contains("Quill") && items.contains("new"), "the preview lists Quill as new: {items:?}");
    shot(&window, "link-gift-import-preview");
    tap(&window, "#import-confirm");
    window.wait_gone("#import-dialog[open]");
    wait_character_row(&window, "Quill");
    window.wait_gone("#link-gifts");
    assert!(
        services::list(&Store::open(&player_db).unwrap()).unwrap().iter().any(|g| g.game.name == "Harbor"),
        "Quill's game came with her"
    );

    // A second gift, put away: it leaves without a trace.
    let (file, _) = services::gift_file(&table, ExportScope::Character(mara)).unwrap();
    host.give(device, file).expect("the table gives Mara back");
    window.wait_for("#link-gifts .link-gift-put-away");
    tap(&window, ".link-gift-put-away");
    window.wait_gone("#link-gifts");
    let left = window.execute("return document.querySelectorAll('.link-gift').length;", json!([]));
    assert_eq!(left, json!(0), "nothing waits any more");
}

/// The table's window gives its whole game to a linked device (one that will host it next):
/// "Give to a device", the game and the device picked, "Give"; it waits on that device.
#[test]
fn the_tables_window_gives_the_whole_game_to_a_linked_device() {
    let (_window, _scratch, other_db, game, (window, code, addr)) = window_hosting("gifts-host", table_with_the_game);
    // Nobody to give to yet: no device is linked.
    window.wait_gone("#link-give");
    let other = join_in_process(&other_db, addr, &code, "Cy's laptop");

    // Once the laptop is online, the table may give it something.
    window.wait_for("#link-give");
    window.wait_text("#link-give-heading", "Give to a device");
    pick(&window, "#link-give-what", &format!("game:{game}"));
    window.wait_text("#link-give-to option:checked", "Cy's laptop");
    shots_at_both_widths_with(&window, "link-give-to-a-device", || window.to_middle("#link-give"), || {});
    tap(&window, "#link-give-button");
    window.wait_text(
        "#toast-message",
        &format!("Gave the game “{GAME}” with 2 character(s): it waits on that device for its person to import it."),
    );
    let gift = wait_for("the game on the laptop", || other.status().gifts.pop());
    assert_eq!(gift.from, "Table laptop");
    assert_eq!(gift.what, format!("the game “{GAME}” with 2 character(s)"));
}
