//! The SQLite store: the only module that speaks SQL.
//!
//! `Store::open` sets the connection up (WAL, full sync, foreign keys, busy timeout), backs
//! an existing file up before migrating it, and migrates it. Reads go through
//! [`Store::read`]; every change goes through [`Store::write`], one immediate transaction
//! that commits only if the closure succeeds.

mod events;
mod mezzo;
mod nsu;
mod nsu_world;
mod penny_ante;
mod queries;
mod scattershot;
mod schema;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use crate::error::{Error, Result};

pub use events::{Event, EventKind, NewEvent};
pub use queries::{Reader, Tx};
pub use schema::LATEST as SCHEMA_VERSION;

/// The oldest SQLite the store accepts (the bundled one is checked at every open).
pub const MIN_SQLITE: (i32, i32, i32) = (3, 51, 3);
const MIN_SQLITE_TEXT: &str = "3.51.3";

/// How long a write waits for another process (the CLI beside the app) to finish its own.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// What `sheetkeeper check` reports.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CheckReport {
    pub ok: bool,
    /// `integrity_check`'s lines; `["ok"]` when the file is sound.
    pub integrity: Vec<String>,
    /// Rows that point at a missing parent, as `table rowid → parent`.
    pub foreign_key_violations: Vec<String>,
    /// What is wrong with the Penny Ante tables: ledger positions with gaps, the ledger's
    /// own problems, debts and loans that disagree with the entries.
    pub penny_ante: Vec<String>,
    /// What is wrong with the Mezzo elements and character sheets.
    pub mezzo: Vec<String>,
    /// What is wrong with the Scattershot sheets and tables (mechanical play in progress).
    pub scattershot: Vec<String>,
    /// Games whose own file would be refused on import (a reference to a character that is
    /// not in the game, say). Filled by `services::check`, which can build files; empty here.
    pub files: Vec<String>,
    pub schema_version: i64,
    pub sqlite_version: String,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store> {
        check_sqlite_version(rusqlite::version_number())?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = Connection::open_with_flags(path, flags)?;
        configure(&conn)?;
        let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if found > schema::LATEST {
            return Err(Error::DatabaseTooNew { path: path.to_owned(), found, known: schema::LATEST });
        }
        if found > 0 && found < schema::LATEST {
            backup_before_migration(&conn, path, found)?;
        }
        schema::MIGRATIONS.to_latest(&mut conn)?;
        Ok(Store { conn, path: path.to_owned() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads outside a transaction (each statement sees a consistent snapshot).
    pub fn read(&self) -> Reader<'_> {
        Reader::new(&self.conn)
    }

    /// Runs `read` inside one read transaction, so every statement it makes sees the same
    /// snapshot even while another process (the CLI beside the window) commits: an export or
    /// an import preview is never torn between two versions of the file.
    pub fn snapshot<T>(&self, read: impl FnOnce(Reader<'_>) -> Result<T>) -> Result<T> {
        let tx = self.conn.unchecked_transaction()?;
        let out = read(Reader::new(&tx))?;
        tx.commit()?;
        Ok(out)
    }

    /// Runs `change` in one immediate transaction: all of its writes land, or none do.
    pub fn write<T>(&mut self, change: impl FnOnce(&Tx<'_>) -> Result<T>) -> Result<T> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let out = change(&Tx::new(&tx))?;
        tx.commit()?;
        Ok(out)
    }

    /// Copies the whole database into a new file at `to` (a consistent snapshot).
    pub fn backup_to(&self, to: &Path) -> Result<()> {
        if to.exists() {
            return Err(Error::invalid("FILE", format!("{} already exists; choose a new file name", to.display())));
        }
        vacuum_into(&self.conn, to)
    }

    /// Integrity and foreign-key checks over the whole file.
    pub fn check(&self) -> Result<CheckReport> {
        let integrity = self
            .conn
            .prepare("PRAGMA integrity_check")?
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let foreign_key_violations = self
            .conn
            .prepare("PRAGMA foreign_key_check")?
            .query_map([], |r| {
                Ok(format!(
                    "{} row {} → {}",
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                    r.get::<_, String>(2)?
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let schema_version = self.conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let penny_ante = self.read().penny_check()?;
        let mezzo = self.read().mezzo_check()?;
        let scattershot = self.read().scattershot_check()?;
        Ok(CheckReport {
            ok: integrity == ["ok"]
                && foreign_key_violations.is_empty()
                && penny_ante.is_empty()
                && mezzo.is_empty()
                && scattershot.is_empty(),
            integrity,
            foreign_key_violations,
            penny_ante,
            mezzo,
            scattershot,
            files: Vec::new(),
            schema_version,
            sqlite_version: rusqlite::version().to_owned(),
        })
    }
}

fn check_sqlite_version(number: i32) -> Result<()> {
    let (major, minor, patch) = MIN_SQLITE;
    if number < major * 1_000_000 + minor * 1_000 + patch {
        return Err(Error::SqliteTooOld { found: rusqlite::version().to_owned(), required: MIN_SQLITE_TEXT });
    }
    Ok(())
}

/// Connection settings, set on every open (DESIGN.md "Data").
fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    let mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(Error::invalid("database", format!("could not switch to WAL journaling (got {mode})")));
    }
    // FULL: a change the player saw saved survives a power cut.
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(())
}

/// Before an existing database is migrated, a copy is kept beside it, named after the
/// schema version it had: `sheetkeeper.db.v1.backup` (with a number added if taken).
fn backup_before_migration(conn: &Connection, path: &Path, version: i64) -> Result<PathBuf> {
    let base = format!("{}.v{version}.backup", path.display());
    let mut target = PathBuf::from(&base);
    let mut n = 1;
    while target.exists() {
        n += 1;
        target = PathBuf::from(format!("{base}.{n}"));
    }
    vacuum_into(conn, &target)?;
    Ok(target)
}

fn vacuum_into(conn: &Connection, to: &Path) -> Result<()> {
    let target = to.to_str().ok_or_else(|| Error::invalid("FILE", "the path is not valid UTF-8"))?;
    conn.execute("VACUUM INTO ?1", [target])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backup_before_a_migration_is_a_full_copy_named_after_the_old_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let mut store = Store::open(&path).unwrap();
        store
            .write(|tx| {
                tx.append_event(&NewEvent {
                    at: crate::model::now(),
                    game_id: uuid::Uuid::new_v4(),
                    character_id: None,
                    kind: EventKind::GameCreated,
                    undoes: None,
                    payload: serde_json::json!({}),
                })
            })
            .unwrap();
        let first = backup_before_migration(&store.conn, &path, 1).unwrap();
        let second = backup_before_migration(&store.conn, &path, 1).unwrap();
        assert_eq!(first, dir.path().join("s.db.v1.backup"));
        assert_eq!(second, dir.path().join("s.db.v1.backup.2"), "an earlier backup is never overwritten");
        let copy = Connection::open(&first).unwrap();
        let events: i64 = copy.query_row("SELECT count(*) FROM events", [], |r| r.get(0)).unwrap();
        assert_eq!(events, 1);
    }

    #[test]
    fn an_older_database_is_backed_up_then_migrated_keeping_its_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let mut conn = Connection::open(&path).unwrap();
            schema::MIGRATIONS.to_version(&mut conn, 1).unwrap();
            conn.execute(
                "INSERT INTO games VALUES ('6f1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b', 'Valley', 'nsu', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
                [],
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.check().unwrap().schema_version, schema::LATEST);
        assert_eq!(store.read().games().unwrap()[0].name, "Valley");
        let backup = Connection::open(dir.path().join("old.db.v1.backup")).unwrap();
        let version: i64 = backup.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        let games: i64 = backup.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
        assert_eq!((version, games), (1, 1), "the backup is the database as it was before migrating");
    }

    #[test]
    fn refuses_an_sqlite_older_than_3_51_3() {
        assert!(matches!(check_sqlite_version(3_051_002), Err(Error::SqliteTooOld { .. })));
        assert!(check_sqlite_version(3_051_003).is_ok());
        assert!(check_sqlite_version(rusqlite::version_number()).is_ok(), "the bundled SQLite is new enough");
    }
}
