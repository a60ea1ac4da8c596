//! What several test files start from: the NSU fixture game (`tests/fixtures/nsu-game.
//! sheetkeeper.json`) changed for the test and written out, a Penny Ante table's players and
//! challenge made through the services, and a read-only look at a test's database.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::services::{self, ChallengeDraft};
use sheetkeeper::Store;
use uuid::Uuid;

/// Wren Ashdown and Tobias Reed, the fixture game's first two characters.
pub(crate) const WREN: &str = "0b7e9a2c-1d3f-4a5b-8c6d-7e8f9a0b1c2d";
pub(crate) const TOBIAS: &str = "1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a";

/// Opens a read-only connection to the test database (the app may still have it open).
pub(crate) fn db(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open the test database")
}

/// Where the NSU fixture game file is.
pub(crate) fn nsu_fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/nsu-game.sheetkeeper.json")
}

/// The NSU fixture game file, read and parsed, for a test to change before writing it.
pub(crate) fn nsu_fixture() -> Value {
    let text = std::fs::read_to_string(nsu_fixture_path()).expect("read the NSU game fixture");
    serde_json::from_str(&text).expect("the fixture is JSON")
}

/// Writes the game file `file` (changed from the fixture) to `path`.
pub(crate) fn write_game_file(path: &Path, file: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(file).expect("serialize")).expect("write the game file");
}

/// A sheet's mood lines as the file holds them: three moods (name, level, overloaded), each
/// followed by an empty line.
pub(crate) fn moods(lines: [(&str, i64, bool); 3]) -> Value {
    let mut all = Vec::new();
    for (name, level, overloaded) in lines {
        all.push(json!({"name": name, "level": level, "overloaded": overloaded}));
        all.push(Value::Null);
    }
    Value::Array(all)
}

/// Gives Tobias (the fixture's second character, `tobias` his `nsu` sheet) a whole sheet, so
/// he can help a roll: body d8, mind d4, heart d6; "Stubborn" at 1 and his other moods calm;
/// Carpentry, Fishing and Singing at +1; connected to his sister.
pub(crate) fn tobias_ready_to_help(tobias: &mut Value) {
    tobias["aspects"] = json!({"body": "d8", "mind": "d4", "heart": "d6"});
    tobias["moods"] = moods([("Eager", 0, false), ("Stubborn", 1, false), ("Calm", 0, false)]);
    tobias["skills"] = json!([
        {"name": "Carpentry", "modifier": 1, "boxes": {"body": false, "mind": false, "heart": false}},
        {"name": "Fishing", "modifier": 1, "boxes": {"body": false, "mind": false, "heart": false}},
        {"name": "Singing", "modifier": 1, "boxes": {"body": false, "mind": false, "heart": false}},
        null, null, null
    ]);
    tobias["sentiments"] = json!([{"name": "His sister", "state": "connected"}, null, null]);
}

/// A Penny Ante character made through the services with its first characteristic and its
/// starting pennies: its id.
pub(crate) fn penny_player(store: &mut Store, game: Uuid, name: &str, characteristic: &str, pennies: i64) -> Uuid {
    let made = services::penny_create_character(store, game, name, characteristic, pennies).unwrap();
    made.view.players.iter().find(|p| p.name == name).unwrap().id
}

/// Starts a Penny Ante challenge for `stake` at an ante of 2: the character `challenger`
/// against the character `opponent`. The challenge's id.
pub(crate) fn penny_challenge(store: &mut Store, game: Uuid, stake: &str, challenger: Uuid, opponent: Uuid) -> Uuid {
    let draft = ChallengeDraft {
        stake: stake.into(),
        ante: 2,
        challenger: vec![Account::Character(challenger)],
        opponent: vec![Account::Character(opponent)],
        devoted: None,
    };
    services::penny_start_challenge(store, game, draft).unwrap().view.challenge.expect("the challenge").id
}
