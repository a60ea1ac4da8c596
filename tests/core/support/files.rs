//! What the golden-file tests of each game share: the documents a scene makes, the golden
//! files pinned byte for byte, a game's round trip through its golden files, a newer table
//! arriving as an update that undo takes back, and malformed files refused with the
//! database unchanged.

use std::fmt::Debug;

use serde_json::{json, Value};
use sheetkeeper::exchange::{self, Document, GameEntry, Kind, Status};
use sheetkeeper::model::{Game, System};
use sheetkeeper::rules::record::CharacterRecord;
use sheetkeeper::services::{self, export, import, import_preview, ExportScope, ImportOptions};
use sheetkeeper::{Error, Problem, Store};
use uuid::Uuid;

use super::{bytes_on_disk, fixture, time, Scratch};

/// A file of `kind` for `system`, written at `exported_at` by version 0.1.0.
pub fn document(kind: Kind, system: System, exported_at: &str, games: Vec<GameEntry>) -> Document {
    Document { kind, system: Some(system), app_version: "0.1.0".into(), exported_at: time(exported_at), games }
}

/// `game` with `characters` and nothing else: no table, no piles; a test sets what its game has.
pub fn entry(game: &Game, characters: Vec<CharacterRecord>) -> GameEntry {
    crate::sample::entry(game.clone(), characters)
}

/// The game file and the character file of a scene: `game` (with its table) and
/// `character` (its first character), written for `system` at `exported_at`.
pub fn documents(system: System, exported_at: &str, game: GameEntry, character: GameEntry) -> (Document, Document) {
    let document = |kind, entry| self::document(kind, system, exported_at, vec![entry]);
    (document(Kind::Game, game), document(Kind::Character, character))
}

/// The file's text without the lines that name when and by which version it was written.
pub fn content(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("  \"exported_at\"") && !l.starts_with("  \"app_version\""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A golden file as JSON, to be edited.
pub fn golden(name: &str) -> Value {
    serde_json::from_slice(&std::fs::read(fixture(name)).unwrap()).unwrap()
}

/// The golden file `name` is `doc` byte for byte and parses back to it.
/// `SHEETKEEPER_BLESS=1` rewrites the golden file from the document first.
pub fn assert_golden_file(name: &str, doc: &Document) {
    let bytes = exchange::to_json(doc);
    if std::env::var_os("SHEETKEEPER_BLESS").is_some() {
        std::fs::write(fixture(name), &bytes).unwrap();
    }
    let golden = std::fs::read(fixture(name)).unwrap();
    assert_eq!(String::from_utf8(bytes).unwrap(), String::from_utf8(golden.clone()).unwrap(), "{name}");
    assert_eq!(&exchange::parse(&golden).unwrap_or_else(|p| panic!("{name}: {p:#?}")), doc, "{name}");
}

/// Each golden file is its document byte for byte and parses back to it.
pub fn assert_golden_files(files: [(&str, &Document); 2]) {
    for (name, doc) in files {
        assert_golden_file(name, doc);
    }
}

/// The golden game file `name` is `doc` byte for byte; it imports into a fresh database,
/// where `check` looks at what arrived, and the game (`game`) exported from there is the
/// file again but for when and by which version it was written. Returns the database.
pub fn a_golden_game_file_travels_both_ways(
    (name, doc): (&str, &Document),
    game: Uuid,
    check: impl FnOnce(&Store),
) -> (Scratch, Store) {
    assert_golden_file(name, doc);
    let scratch = Scratch::new();
    let mut store = scratch.open();
    import(&mut store, &fixture(name), ImportOptions::default()).unwrap();
    check(&store);
    let out = scratch.file("out.json");
    export(&store, ExportScope::Game(game), &out).unwrap();
    let golden = std::fs::read_to_string(fixture(name)).unwrap();
    assert_eq!(content(&std::fs::read_to_string(&out).unwrap()), content(&golden), "exported as imported");
    (scratch, store)
}

/// A game's golden files and what its game file holds.
pub struct GoldenGame<'a> {
    pub game_file: &'a str,
    pub character_file: &'a str,
    pub game: Uuid,
    /// The character the character file carries.
    pub character: Uuid,
    /// How many things the game file brings: the game and its characters.
    pub things: usize,
}

impl GoldenGame<'_> {
    /// Imports the game file into a fresh database (all of it new, no conflict), lets `check`
    /// look at what arrived, and checks the database; the game and the character exported
    /// from it are the golden files but for when and by which version they were written,
    /// and importing the game file again changes nothing. Returns the database.
    pub fn imports_and_exports_the_same_files(&self, check: impl FnOnce(&Store)) -> (Scratch, Store) {
        let s = Scratch::new();
        let mut store = s.open();
        let report = import(&mut store, &fixture(self.game_file), ImportOptions::default()).unwrap();
        assert_eq!((report.counts.new, report.counts.conflict), (self.things, 0));
        check(&store);
        assert!(store.check().unwrap().ok, "{:?}", store.check().unwrap());

        let out = s.file("exported.json");
        for (scope, name) in [
            (ExportScope::Game(self.game), self.game_file),
            (ExportScope::Character(self.character), self.character_file),
        ] {
            export(&store, scope, &out).unwrap();
            let golden = std::fs::read_to_string(fixture(name)).unwrap();
            assert_eq!(content(&std::fs::read_to_string(&out).unwrap()), content(&golden), "{name}");
        }

        let again = import(&mut store, &fixture(self.game_file), ImportOptions::default()).unwrap();
        assert_eq!(again.counts.unchanged, self.things);
        (s, store)
    }

    /// The game file with its table (`key`) changed by `edit` and a later time stamp, as
    /// from another device: the preview calls it an update of the table (`field`), the
    /// import brings it (`changed` checks what `table` reads then), and undoing the import
    /// brings back the table as it was.
    pub fn a_newer_table_is_an_update_that_undo_takes_back<T: PartialEq + Debug>(
        &self,
        (s, store): (&Scratch, &mut Store),
        (key, field): (&str, &str),
        edit: impl FnOnce(&mut Value),
        table: impl Fn(&Store) -> T,
        changed: impl FnOnce(&T),
    ) {
        let before = table(store);
        let mut file = golden(self.game_file);
        file["data"]["games"][0]["updated_at"] = json!("2026-11-01T10:00:00.000Z");
        edit(&mut file["data"]["games"][0][key]);
        let newer = s.file("newer.json");
        std::fs::write(&newer, serde_json::to_vec(&file).unwrap()).unwrap();
        let preview = import_preview(store, &newer, false).unwrap();
        assert_eq!(preview.games[0].status, Status::Update);
        assert_eq!(preview.games[0].differences[0].field, field);
        import(store, &newer, ImportOptions::default()).unwrap();
        changed(&table(store));
        services::undo_game(store, self.game).unwrap();
        assert_eq!(table(store), before, "as before the import");
    }
}

/// Imports `text` into a database that `set_up` filled, expecting a bad-file error from the
/// preview and the import, and checks the database's bytes did not change. Returns the
/// problems named.
pub fn rejected(what: &str, text: &Value, set_up: impl FnOnce(&mut Store)) -> Vec<Problem> {
    let s = Scratch::new();
    let mut store = s.open();
    set_up(&mut store);
    drop(store);
    let file = s.file("bad.sheetkeeper.json");
    std::fs::write(&file, serde_json::to_vec_pretty(text).unwrap()).unwrap();
    let before = bytes_on_disk(&s.db());
    let mut store = s.open();
    assert!(import_preview(&store, &file, false).is_err(), "{what}: the preview refuses it too");
    let err = import(&mut store, &file, ImportOptions { replace_conflicts: true, ..Default::default() }).unwrap_err();
    drop(store);
    assert_eq!(bytes_on_disk(&s.db()), before, "{what}: the database must be byte-for-byte unchanged");
    match err {
        Error::BadFile { problems, .. } => problems,
        other => panic!("{what}: expected a bad-file error, got {other}"),
    }
}

/// A change to a golden file, with the path and words of a problem it must cause.
pub type Case = (&'static str, fn(&mut Value), &'static str, &'static str);

/// Each case's change to its golden file is refused (`refuse` is `rejected` into the game's
/// database) with a problem at the case's path saying the case's words.
pub fn assert_each_refused(files: [(&str, &[Case]); 2], refuse: impl Fn(&str, &Value) -> Vec<Problem>) {
    for (file, cases) in files {
        for (what, edit, path, words) in cases {
            let mut v = golden(file);
            edit(&mut v);
            let problems = refuse(what, &v);
            assert!(
                problems.iter().any(|p| p.path == *path && p.message.contains(words)),
                "{what}: expected a problem at {path} saying {words:?}; got {problems:#?}"
            );
        }
    }
}
