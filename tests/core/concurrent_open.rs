//! Many processes opening one database at once — a new file, or an old one that needs
//! migrating — all succeed, and an old file is backed up exactly once.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use rusqlite::Connection;

use crate::support::Scratch;

/// The store's own migrations, to build a database as an older Sheetkeeper left it.
#[allow(dead_code)]
#[path = "../../src/store/schema/mod.rs"]
mod schema;

fn spawn_list(db: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .arg("--db")
        .arg(db)
        .arg("list")
        .env_remove("SHEETKEEPER_DB")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI starts")
}

/// Starts `n` `sheetkeeper list` at once on `db`; the stderr of each one that failed.
fn list_at_once(db: &Path, n: usize) -> Vec<String> {
    let children: Vec<Child> = (0..n).map(|_| spawn_list(db)).collect();
    children
        .into_iter()
        .filter_map(|child| {
            let out = child.wait_with_output().expect("the CLI ends");
            (!out.status.success())
                .then(|| format!("{:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr)))
        })
        .collect()
}

fn check_ok(db: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .arg("--db")
        .arg(db)
        .args(["--json", "check"])
        .env_remove("SHEETKEEPER_DB")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["schema_version"], schema::LATEST);
}

fn backups(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".backup"))
        .collect();
    found.sort();
    found
}

#[test]
fn eight_processes_opening_a_new_file_at_once_all_succeed() {
    for round in 0..5 {
        let s = Scratch::new();
        let failed = list_at_once(&s.db(), 8);
        assert!(failed.is_empty(), "round {round}: {} of 8 failed: {failed:#?}", failed.len());
        check_ok(&s.db());
        assert!(backups(s.dir.path()).is_empty(), "a new file needs no backup");
    }
}

/// A version-1 database with a game in it, in rollback-journal mode (as SQLite leaves a
/// file by default) or already in WAL.
fn version_1_database(db: &Path, wal: bool) {
    let mut conn = Connection::open(db).unwrap();
    schema::MIGRATIONS.to_version(&mut conn, 1).unwrap();
    conn.execute(
        "INSERT INTO games VALUES ('6f1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b', 'Valley', 'nsu', \
         '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
        [],
    )
    .unwrap();
    // Its table settings, as creating the game wrote them then.
    conn.execute(
        "INSERT INTO table_settings VALUES ('6f1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b', 'negative_collateral_adds_tick', 1)",
        [],
    )
    .unwrap();
    let mode: String =
        conn.pragma_update_and_check(None, "journal_mode", if wal { "WAL" } else { "DELETE" }, |r| r.get(0)).unwrap();
    assert_eq!(mode, if wal { "wal" } else { "delete" });
}

#[test]
fn processes_migrating_an_old_file_at_once_all_succeed_and_leave_one_backup() {
    for (round, wal) in [false, true, false, true].into_iter().enumerate() {
        let s = Scratch::new();
        version_1_database(&s.db(), wal);
        let failed = list_at_once(&s.db(), 6);
        assert!(failed.is_empty(), "round {round} (wal: {wal}): {} of 6 failed: {failed:#?}", failed.len());
        check_ok(&s.db());
        let found = backups(s.dir.path());
        assert_eq!(found, [s.file("sheetkeeper.db.v1.backup")], "round {round} (wal: {wal}): exactly one backup");
        let copy = Connection::open(&found[0]).unwrap();
        let version: i64 = copy.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        let games: i64 = copy.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
        assert_eq!((version, games), (1, 1), "the backup is the file as it was before migrating");
        let listed = Connection::open(s.db()).unwrap();
        let name: String = listed.query_row("SELECT name FROM games", [], |r| r.get(0)).unwrap();
        assert_eq!(name, "Valley", "the migrated file keeps its data");
    }
}
