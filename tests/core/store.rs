//! The store: settings on open, schema guards, the append-only log.

use rusqlite::Connection;
use sheetkeeper::{Error, Store};

use crate::support::{game_with, Scratch};

#[test]
fn open_creates_the_file_with_wal_full_sync_and_foreign_keys() {
    let s = Scratch::new();
    let store = s.open();
    assert!(s.db().exists());
    let report = store.check().unwrap();
    assert!(report.ok, "{report:?}");
    assert_eq!(report.schema_version, sheetkeeper::store::SCHEMA_VERSION);
    drop(store);
    let conn = Connection::open(s.db()).unwrap();
    let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal", "WAL stays set in the file");
}

#[test]
fn bundled_sqlite_is_at_least_3_51_3() {
    assert!(rusqlite::version_number() >= 3_051_003, "bundled SQLite {}", rusqlite::version());
}

#[test]
fn a_database_from_a_newer_app_is_refused_and_left_alone() {
    let s = Scratch::new();
    drop(s.open());
    Connection::open(s.db()).unwrap().pragma_update(None, "user_version", 99).unwrap();
    let err = Store::open(&s.db()).err().expect("refused");
    assert!(matches!(err, Error::DatabaseTooNew { found: 99, .. }), "{err}");
    assert!(err.to_string().contains("update Sheetkeeper"), "{err}");
}

#[test]
fn reopening_an_up_to_date_database_makes_no_backup() {
    // The backup copy itself is tested in store's unit tests (there is one schema version
    // so far, so no file here can be older than the app yet).
    let (s, _) = Scratch::with_game("Valley", "nsu", &["Wren"]);
    drop(s.open());
    let backups: Vec<_> = std::fs::read_dir(s.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".backup"))
        .collect();
    assert!(backups.is_empty(), "no migration, no backup");
}

#[test]
fn the_event_log_is_append_only() {
    let (s, _) = Scratch::with_game("Valley", "nsu", &["Wren"]);
    let conn = Connection::open(s.db()).unwrap();
    let update = conn.execute("UPDATE events SET kind = 'game_created'", []);
    assert!(update.unwrap_err().to_string().contains("append-only"));
    let delete = conn.execute("DELETE FROM events", []);
    assert!(delete.unwrap_err().to_string().contains("append-only"));
}

#[test]
fn a_character_cannot_be_stored_in_a_game_of_another_system() {
    let (s, game) = Scratch::with_game("Valley", "nsu", &[]);
    let conn = Connection::open(s.db()).unwrap();
    let err = conn
        .execute(
            "INSERT INTO characters VALUES ('11111111-1111-4111-8111-111111111111', ?1, 'mezzo', 'X', 't', 't', 1, '')",
            [game.game.id.to_string()],
        )
        .unwrap_err();
    assert!(err.to_string().contains("its game's system"), "{err}");
}

#[test]
fn backup_writes_a_complete_sqlite_copy_and_refuses_to_overwrite() {
    let s = Scratch::new();
    let mut store = s.open();
    game_with(&mut store, "Valley", "nsu", &["Wren", "Ash"]);
    let target = s.file("copy.db");
    store.backup_to(&target).unwrap();
    let copy = Store::open(&target).unwrap();
    assert_eq!(sheetkeeper::services::list(&copy).unwrap()[0].characters.len(), 2);
    assert!(matches!(store.backup_to(&target), Err(Error::Invalid { .. })));
}

#[test]
fn two_connections_to_one_file_can_both_write() {
    // The CLI and the window may hold the same database open at once.
    let s = Scratch::new();
    let mut app = s.open();
    let mut cli = s.open();
    let game = game_with(&mut app, "Valley", "nsu", &["Wren"]);
    sheetkeeper::services::create_character(&mut cli, game.game.id, "Ash").unwrap();
    sheetkeeper::services::create_character(&mut app, game.game.id, "Birch").unwrap();
    assert_eq!(sheetkeeper::services::list(&cli).unwrap()[0].characters.len(), 3);
}

#[cfg(unix)]
#[test]
fn backup_refuses_a_symlink_even_one_to_nothing_and_writes_nowhere() {
    let s = Scratch::new();
    let store = s.open();
    let link = s.file("copy.db");
    let pointed_at = s.file("elsewhere.db");
    std::os::unix::fs::symlink(&pointed_at, &link).unwrap();
    let err = store.backup_to(&link).unwrap_err();
    assert!(matches!(err, Error::Invalid { .. }) && err.to_string().contains("already exists"), "{err}");
    assert!(!pointed_at.exists(), "the link was not followed");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink(), "the link is left alone");
}

#[test]
fn a_database_in_a_folder_that_does_not_exist_is_refused_naming_the_folder() {
    let s = Scratch::new();
    let folder = s.file("typo");
    let err = Store::open(&folder.join("x.db")).err().expect("refused");
    assert_eq!(
        err.to_string(),
        format!(
            "database: the folder {} does not exist (check the path, or create the folder first)",
            folder.display()
        )
    );
    assert!(!folder.exists(), "nothing was created");
    // A file where the folder should be.
    std::fs::write(&folder, b"").unwrap();
    let err = Store::open(&folder.join("x.db")).err().expect("refused");
    assert!(err.to_string().contains("is not a folder"), "{err}");
}

#[test]
fn open_creating_folder_makes_the_missing_folders() {
    let s = Scratch::new();
    let db = s.file("a/b/sheetkeeper.db");
    let store = Store::open_creating_folder(&db).unwrap();
    assert!(store.check().unwrap().ok);
    assert!(db.exists());
}
