//! Views per viewer: what a player's device, the table's device and everyone may see of a
//! game, computed by the core. Each secret is searched for in the serialized view, so a
//! field that leaks it anywhere fails the test. Also: device roles, "mine", notes, the
//! home screen's cards, device settings and `sheetkeeper view`.

use std::process::Command;

use sheetkeeper::model::DeviceRole;
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::rules::penny_ante::table::Characteristic;
use sheetkeeper::services::{self, ImportOptions};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::support::{fixture, game_with, Scratch};

fn import(store: &mut Store, name: &str) -> Uuid {
    services::import(store, &fixture(name), ImportOptions::default()).unwrap();
    services::list(store).unwrap()[0].game.id
}

/// A fresh database into which the fixture `name` was imported: the database and its game.
fn imported(name: &str) -> (Scratch, Store, Uuid) {
    let s = Scratch::new();
    let mut store = s.open();
    let game = import(&mut store, name);
    (s, store, game)
}

fn json_as(store: &Store, game: Uuid, viewer: &str) -> String {
    serde_json::to_string(&services::game_view_as(store, game, viewer).unwrap()).unwrap()
}

fn id_of(store: &Store, name: &str) -> String {
    let games = services::list(store).unwrap();
    games.iter().flat_map(|g| g.characters.iter()).find(|c| c.name == name).unwrap().id.to_string()
}

/// A Penny Ante game whose House has an antagonist with a hidden characteristic and a purse.
fn penny_with_secrets() -> (Scratch, Store, Uuid) {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = services::create_game(&mut store, "Heist", "penny_ante").unwrap().game.id;
    services::penny_create_character(&mut store, game, "Ada", "Strong", 30).unwrap();
    services::penny_start_adventure(&mut store, game, None).unwrap();
    let baron = services::penny_add_antagonist(
        &mut store,
        game,
        "The Baron",
        vec![
            Characteristic { text: "Ruthless".into(), hidden: false },
            Characteristic { text: "Hates riddles".into(), hidden: true },
        ],
    )
    .unwrap()
    .view
    .antagonists[0]
        .id;
    services::penny_fund_antagonist(&mut store, game, baron, 17).unwrap();
    (scratch, store, game)
}

#[test]
fn a_penny_player_never_sees_the_houses_hidden_characteristics_or_purses() {
    let (_s, store, game) = penny_with_secrets();
    let ada = id_of(&store, "Ada");
    for viewer in [ada.as_str(), "everyone"] {
        let seen = json_as(&store, game, viewer);
        assert!(seen.contains("Ruthless"), "an open characteristic is everyone's: {viewer}");
        assert!(!seen.contains("Hates riddles"), "{viewer} saw a hidden characteristic: {seen}");
        assert!(!seen.contains("\"purse\":17"), "{viewer} saw the purse: {seen}");
    }
    let table = json_as(&store, game, "table");
    assert!(table.contains("Hates riddles") && table.contains("\"purse\":17"), "the table sees its own secrets");
}

#[test]
fn a_player_device_gets_the_players_view_from_the_ordinary_commands() {
    let (_s, mut store, game) = penny_with_secrets();
    // One device passed around (the default) holds everything, but its shared screen shows
    // the House's secrets only once handed to the House (audit #2).
    assert_eq!(services::device_role(&store, game).unwrap(), DeviceRole::Both);
    let both = serde_json::to_string(&services::penny_table(&store, game).unwrap()).unwrap();
    assert!(!both.contains("Hates riddles") && !both.contains("\"purse\":17"), "{both}");
    let house = serde_json::to_string(&services::penny_table_as_house(&store, game).unwrap()).unwrap();
    assert!(house.contains("Hates riddles") && house.contains("\"purse\":17"), "{house}");
    // Its ledger and log too: the purse's entries only once handed to the House.
    let shared = services::penny_ledger(&store, game, None, 100, false).unwrap();
    assert!(shared.entries.iter().all(|e| !format!("{e:?}").contains("The Baron")), "{shared:?}");
    let handed = services::penny_ledger(&store, game, None, 100, true).unwrap();
    assert!(handed.entries.iter().any(|e| format!("{e:?}").contains("The Baron")), "{handed:?}");
    let shared_log = serde_json::to_string(&services::penny_log(&store, game, 50, false).unwrap()).unwrap();
    assert!(!shared_log.contains("17 pennies"), "{shared_log}");
    let house_log = serde_json::to_string(&services::penny_log(&store, game, 50, true).unwrap()).unwrap();
    assert!(house_log.contains("17 pennies"), "{house_log}");

    services::set_device_role(&mut store, game, "player").unwrap();
    let view = services::penny_table(&store, game).unwrap();
    let seen = serde_json::to_string(&view).unwrap();
    let err = services::penny_table_as_house(&store, game).unwrap_err();
    assert!(err.to_string().contains("not for this device's eyes"), "{err}");
    assert!(!seen.contains("Hates riddles") && view.antagonists[0].purse.is_none(), "{seen}");
    // The ledger leaves out the purse's entries and refuses the purse's own ledger; the log
    // does not tell what the House gave.
    let ledger = services::penny_ledger(&store, game, None, 100, false).unwrap();
    assert!(ledger.entries.iter().all(|e| !format!("{e:?}").contains("The Baron")), "{ledger:?}");
    let purse = Account::Antagonist(view.antagonists[0].id);
    let err = services::penny_ledger(&store, game, Some(purse), 10, false).unwrap_err();
    assert!(err.to_string().contains("not for this device's eyes"), "{err}");
    let err = services::penny_ledger(&store, game, None, 10, true).unwrap_err();
    assert!(err.to_string().contains("not for this device's eyes"), "a player's phone is never the House: {err}");
    let log = serde_json::to_string(&services::penny_log(&store, game, 50, false).unwrap()).unwrap();
    assert!(!log.contains("17 pennies") && !log.contains("Hates riddles"), "{log}");

    // A bad role is refused by name and changes nothing.
    let err = services::set_device_role(&mut store, game, "gm").unwrap_err();
    assert!(err.to_string().contains("role"), "{err}");
    assert_eq!(services::device_role(&store, game).unwrap(), DeviceRole::Player);
}

#[test]
fn an_nsu_face_down_card_is_seen_only_by_the_character_who_scouted_it() {
    let (_s, mut store, game) = imported("nsu-game.sheetkeeper.json");
    let (wren, tobias) = (id_of(&store, "Wren Ashdown"), id_of(&store, "Tobias Reed"));
    let secret = "A mill that turns with no river";
    assert!(json_as(&store, game, &wren).contains(secret), "Wren scouted the Mill");
    for viewer in [tobias.as_str(), "everyone", "table"] {
        let seen = json_as(&store, game, viewer);
        assert!(!seen.contains(secret) && !seen.contains("\"Mill\""), "{viewer} saw the face-down Mill");
        assert!(seen.contains("A drowned library"), "a revealed card is everyone's");
    }
    // A player device of Tobias only: the world and map commands leave the Mill face down.
    services::set_device_role(&mut store, game, "player").unwrap();
    services::set_mine(&mut store, Uuid::parse_str(&wren).unwrap(), false).unwrap();
    let world = serde_json::to_string(&services::nsu_world(&store, game).unwrap()).unwrap();
    assert!(!world.contains(secret), "{world}");
    let err = services::nsu_map(&store, game, Some(Uuid::parse_str(&wren).unwrap())).unwrap_err();
    assert!(err.to_string().contains("not for this device's eyes"), "{err}");
    // Marked as the owner's own again, Wren's scouting shows on this device.
    services::set_mine(&mut store, Uuid::parse_str(&wren).unwrap(), true).unwrap();
    let world = serde_json::to_string(&services::nsu_world(&store, game).unwrap()).unwrap();
    assert!(world.contains(secret));
}

#[test]
fn a_mezzo_hand_is_for_the_eyes_of_the_player_who_claimed_the_character() {
    let (_s, mut store, game) = imported("mezzo-plot-game.sheetkeeper.json");
    // Mira is claimed by Ada, who holds "a wreck"; Bo holds "a ghost".
    let (mira, tomas) = (id_of(&store, "Mira Vell"), id_of(&store, "Tomas"));
    let seen = json_as(&store, game, &mira);
    assert!(seen.contains("a wreck") && !seen.contains("a ghost"), "{seen}");
    for viewer in [tomas.as_str(), "everyone", "table"] {
        let seen = json_as(&store, game, viewer);
        assert!(!seen.contains("a wreck") && !seen.contains("a ghost"), "{viewer}: {seen}");
    }
    services::set_device_role(&mut store, game, "player").unwrap();
    let bo = Uuid::parse_str("2c3d4e5f-6071-4b82-9c93-ad1e2f3a4b51").unwrap();
    let err = services::mezzo_hand(&store, game, bo).unwrap_err();
    assert!(err.to_string().contains("not for this device's eyes"), "{err}");
    let ada = Uuid::parse_str("1b2c3d4e-5f60-4a71-8b82-9c0d1e2f3a40").unwrap();
    assert_eq!(services::mezzo_hand(&store, game, ada).unwrap().hand[0].text, "a wreck");
}

#[test]
fn scattershot_has_no_secrets_so_every_viewer_sees_the_same_table() {
    let (_s, store, game) = imported("scattershot-game.sheetkeeper.json");
    let anyone = services::list(&store).unwrap()[0].characters[0].id.to_string();
    let strip = |json: String| json.replace("\"viewer\":\"table\"", "").replace("\"viewer\":\"player\"", "");
    let table = serde_json::to_value(services::game_view_as(&store, game, "table").unwrap()).unwrap();
    let player = serde_json::to_value(services::game_view_as(&store, game, &anyone).unwrap()).unwrap();
    assert_eq!(strip(table["table"].to_string()), strip(player["table"].to_string()));
}

#[test]
fn a_window_cannot_ask_for_more_than_its_devices_role() {
    let (_s, mut store, game) = penny_with_secrets();
    services::set_device_role(&mut store, game, "player").unwrap();
    let err = services::game_view_on_device(&store, game, Some("table")).unwrap_err();
    assert!(err.to_string().contains("not for this device's eyes"), "{err}");
    let seen = serde_json::to_string(&services::game_view_on_device(&store, game, None).unwrap()).unwrap();
    assert!(!seen.contains("Hates riddles"));
    services::set_device_role(&mut store, game, "table").unwrap();
    assert!(services::game_view_on_device(&store, game, Some("table")).is_ok());
    let ada = id_of(&store, "Ada");
    assert!(services::game_view_on_device(&store, game, Some(&ada)).is_err(), "the table holds no player's cup");
}

#[test]
fn notes_are_saved_undone_and_carried_in_files() {
    let s = Scratch::new();
    let mut store = s.open();
    let g = game_with(&mut store, "Valley", "nsu", &["Wren"]);
    let (game, wren) = (g.game.id, g.characters[0].id);
    services::set_character_notes(&mut store, wren, "Owes the ferryman.\nAfraid of bells.").unwrap();
    services::set_game_notes(&mut store, game, "Session 3: the mill.").unwrap();
    let listed = &services::list(&store).unwrap()[0];
    assert_eq!(listed.characters[0].notes, "Owes the ferryman.\nAfraid of bells.");
    assert_eq!(listed.game.notes, "Session 3: the mill.");

    // A file carries them and brings them back.
    let file = s.file("valley.sheetkeeper.json");
    services::export(&store, services::ExportScope::Game(game), &file).unwrap();
    let other = Scratch::new();
    let mut there = other.open();
    services::import(&mut there, &file, ImportOptions::default()).unwrap();
    let back = &services::list(&there).unwrap()[0];
    assert_eq!(
        (back.game.notes.as_str(), back.characters[0].notes.as_str()),
        (listed.game.notes.as_str(), listed.characters[0].notes.as_str())
    );

    // Undo takes each back.
    services::undo_character(&mut store, wren).unwrap();
    services::undo_game(&mut store, game).unwrap();
    let listed = &services::list(&store).unwrap()[0];
    assert_eq!((listed.characters[0].notes.as_str(), listed.game.notes.as_str()), ("", ""));

    // Too long or with a control character: refused by name, nothing changes.
    let err = services::set_character_notes(&mut store, wren, &"x".repeat(20_001)).unwrap_err();
    assert!(err.to_string().contains("notes"), "{err}");
    let err = services::set_game_notes(&mut store, game, "bell\u{7}").unwrap_err();
    assert!(err.to_string().contains("notes"), "{err}");
    assert_eq!(services::list(&store).unwrap()[0].game.notes, "");
}

#[test]
fn character_cards_put_mine_first_with_each_systems_key_numbers() {
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, "backup.sheetkeeper.json");
    let cards = services::character_cards(&store).unwrap();
    assert!(!cards.is_empty());
    for card in &cards {
        let labels: Vec<&str> = card.stats.iter().map(|s| s.label).collect();
        let expected: &[&str] = match card.system {
            sheetkeeper::model::System::Nsu => &["Harm", "Overloaded"],
            sheetkeeper::model::System::PennyAnte => &["Pile"],
            sheetkeeper::model::System::Mezzo => &["Momentum", "Adversity"],
            sheetkeeper::model::System::Scattershot => &["HP", "Power"],
        };
        assert_eq!(labels, expected, "{}", card.name);
    }
    let last = cards.last().unwrap().id;
    services::set_mine(&mut store, cards[0].id, false).unwrap();
    let again = services::character_cards(&store).unwrap();
    assert_eq!(again.last().unwrap().id, cards[0].id, "a character kept for someone else goes last");
    assert!(!again.last().unwrap().mine && again.iter().any(|c| c.id == last && c.mine));
}

#[test]
fn device_settings_keep_the_theme_and_the_place_and_refuse_anything_else() {
    let s = Scratch::new();
    let mut store = s.open();
    assert_eq!(services::settings(&store).unwrap().theme, "system");
    services::set_device_setting(&mut store, "theme", "dark").unwrap();
    services::set_device_setting(&mut store, "place", r#"{"screen":"home"}"#).unwrap();
    assert!(services::settings(&store).unwrap().hints, "hints show until turned off");
    services::set_device_setting(&mut store, "hints", "off").unwrap();
    let long = "x".repeat(3000);
    for (key, value) in
        [("theme", "pink"), ("place", "[1]"), ("place", long.as_str()), ("font", "big"), ("hints", "no")]
    {
        assert!(services::set_device_setting(&mut store, key, value).is_err(), "{key}={value}");
    }
    drop(store);
    let settings = services::settings(&s.open()).unwrap();
    assert_eq!((settings.theme.as_str(), settings.place.as_deref()), ("dark", Some(r#"{"screen":"home"}"#)));
    assert!(!settings.hints);
}

#[test]
fn rolling_real_dice_is_one_preference_per_game_kept_apart_from_the_role() {
    let s = Scratch::new();
    let mut store = s.open();
    let a = game_with(&mut store, "Valley", "nsu", &[]).game.id;
    let b = game_with(&mut store, "Heist", "penny_ante", &[]).game.id;
    let by_hand = |store: &Store, id: Uuid| {
        services::list(store).unwrap().into_iter().find(|g| g.game.id == id).unwrap().dice_by_hand
    };
    assert!(!by_hand(&store, a));
    services::set_device_role(&mut store, a, "player").unwrap();
    services::set_dice_by_hand(&mut store, a, true).unwrap();
    assert!(by_hand(&store, a) && !by_hand(&store, b));
    assert_eq!(services::device_role(&store, a).unwrap(), DeviceRole::Player, "the role stays");
    services::set_device_role(&mut store, a, "table").unwrap();
    assert!(by_hand(&store, a), "the dice preference stays");
    assert!(services::set_dice_by_hand(&mut store, Uuid::new_v4(), true).is_err());
}

#[test]
fn sheetkeeper_view_prints_a_game_as_a_viewer_may_see_it() {
    let (s, store, game) = penny_with_secrets();
    let ada = id_of(&store, "Ada");
    drop(store);
    let run = |viewer: &str| {
        Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
            .args(["--db", s.db().to_str().unwrap(), "view", "--game", &game.to_string(), "--viewer", viewer])
            .output()
            .unwrap()
    };
    let out = run(&ada);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let view: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((view["viewer"].as_str(), view["system"].as_str()), (Some("player"), Some("penny_ante")));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Hates riddles"));
    let table = run("table");
    assert!(String::from_utf8_lossy(&table.stdout).contains("Hates riddles"));
    let bad = run("the-gm");
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("viewer"));
}
