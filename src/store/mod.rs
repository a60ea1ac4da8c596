//! The SQLite store: the only module that speaks SQL.
//!
//! `Store::open` sets the connection up (WAL, full sync, foreign keys, busy timeout), backs
//! an existing file up before migrating it, and migrates it, under the write lock so that
//! processes opening one file at once agree. Reads go through
//! [`Store::read`]; every change goes through [`Store::write`], one immediate transaction
//! that commits only if the closure succeeds.

mod columns;
mod device;
mod events;
mod journal;
mod link;
mod mezzo;
mod nsu;
mod nsu_world;
mod penny_ante;
mod queries;
mod scattershot;
mod schema;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use crate::error::{Error, Result};
use crate::paths;

pub use events::{Event, EventKind, NewEvent};
pub use link::{Base, LinkIdentity, Peer, PeerSide, Refused};
pub use queries::{Reader, Tx};
pub use schema::LATEST as SCHEMA_VERSION;

/// The oldest SQLite the store accepts (the bundled one is checked at every open).
pub const MIN_SQLITE: (i32, i32, i32) = (3, 51, 3);
const MIN_SQLITE_TEXT: &str = "3.51.3";

/// Prepared statements a connection keeps: more than the store has (about 260), so none is
/// prepared twice.
const STATEMENTS_KEPT: usize = 512;
/// How long a write waits for another process (the CLI beside the app) to finish its own.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// While it waits, how long it sleeps between tries: short, because the other writer is
/// most often this app's own link thread, done within a few milliseconds. (SQLite's own
/// schedule sleeps 1, 2, 5, 10, 15… ms, so a wait for a 3 ms write took 8.)
const BUSY_SLEEP: Duration = Duration::from_micros(250);

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
    /// Opens (creating the file if needed) the database at `path` and brings its schema up
    /// to date. The folder must exist — except the app's own data folder
    /// ([`paths::app_data_folder`]), which is created on first use — so that a mistyped path
    /// fails ("the folder … does not exist") instead of quietly making a new, empty database.
    ///
    /// Safe to call from many processes at once on one file (the window and the CLI, or
    /// several CLIs): the version is read, the old file backed up and the schema migrated
    /// under SQLite's write lock, so exactly one of them migrates and the others wait for it.
    pub fn open(path: &Path) -> Result<Store> {
        Store::open_beside(path, paths::app_data_folder().as_deref())
    }

    /// Like [`Store::open`], with the app's data folder (`own`) given instead of read from the
    /// environment: the window opens the database on a thread while GTK may change the
    /// environment on the main thread, which libc's getenv does not guard against.
    pub fn open_beside(path: &Path, own: Option<&Path>) -> Result<Store> {
        let own_folder = matches!((path.parent(), own), (Some(dir), Some(own)) if dir == own);
        Store::open_in(path, own_folder)
    }

    /// Like [`Store::open`], but creates the database's folder (and its parents) when it is
    /// missing, wherever it is: for a caller that knows the folder is its own (the window
    /// opening the data folder Tauri gave it).
    pub fn open_creating_folder(path: &Path) -> Result<Store> {
        Store::open_in(path, true)
    }

    fn open_in(path: &Path, create_folder: bool) -> Result<Store> {
        check_sqlite_version(rusqlite::version_number())?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    return Err(Error::invalid("database", format!("{} is not a folder", dir.display())));
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && create_folder => {
                    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(Error::invalid(
                        "database",
                        format!(
                            "the folder {} does not exist (check the path, or create the folder first)",
                            dir.display()
                        ),
                    ));
                }
                // Anything else (a folder we may not look into…): SQLite's own error says it.
                Err(_) => {}
            }
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = Connection::open_with_flags(path, flags)?;
        configure(&conn)?;
        migrate(&mut conn, path)?;
        Ok(Store { conn, path: path.to_owned() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many rows this connection has written since it opened: it moved, so this
    /// connection wrote.
    pub fn writes(&self) -> u64 {
        self.conn.total_changes()
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

    /// Copies the whole database into a new file at `to` (a consistent snapshot), flushed to
    /// disk. Refuses when anything is at `to`, even a symlink to nothing (SQLite would
    /// follow it and write wherever it points).
    ///
    /// The copy leaves out this device's link identity (its Noise private key): whoever
    /// holds a backup file must not be able to come back to a table as this device. A
    /// database restored from it pairs again with the table's code.
    pub fn backup_to(&self, to: &Path) -> Result<()> {
        if to.symlink_metadata().is_ok() {
            return Err(Error::invalid("FILE", format!("{} already exists; choose a new file name", to.display())));
        }
        // Written under another name and renamed once scrubbed, so no file at `to` ever
        // holds the key.
        let name = to.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let partial = to.with_file_name(format!(".{name}.{}.partial", std::process::id()));
        let _ = std::fs::remove_file(&partial);
        let made = vacuum_into(&self.conn, &partial).and_then(|()| without_link_identity(&partial));
        if let Err(e) = made {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
        std::fs::rename(&partial, to).map_err(|e| Error::io(to, e))?;
        sync_new_file(to)
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

/// Connection settings, set on every open (ARCHITECTURE.md "Data").
fn configure(conn: &Connection) -> Result<()> {
    // Every statement the store runs is prepared once per connection and kept: SQLite's
    // parser took a large share of a linked change's time while rusqlite kept only 16.
    conn.set_prepared_statement_cache_capacity(STATEMENTS_KEPT);
    conn.busy_handler(Some(wait_while_busy))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    switch_to_wal(conn)?;
    // FULL: a change the player saw saved survives a power cut.
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(())
}

/// Sets WAL journaling, waiting up to the busy timeout for the lock it needs. Switching a
/// file that is not in WAL yet (a new file, an old rollback-journal one) needs the file to
/// itself; SQLite can answer "database is locked" at once rather than wait (when waiting
/// could deadlock), so the switch is retried here until [`BUSY_TIMEOUT`] has passed.
fn switch_to_wal(conn: &Connection) -> Result<()> {
    let start = Instant::now();
    loop {
        let tried = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0));
        let mode = match tried {
            Ok(mode) if mode.eq_ignore_ascii_case("wal") => return Ok(()),
            Ok(mode) => mode,
            Err(e) if is_busy(&e) => "locked".to_owned(),
            Err(e) => return Err(e.into()),
        };
        if start.elapsed() >= BUSY_TIMEOUT {
            return Err(Error::invalid("database", format!("could not switch to WAL journaling (got {mode})")));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// SQLite's busy handler: sleeps `BUSY_SLEEP` and tries again, `tries` times so far, until
/// `BUSY_TIMEOUT` has passed (at least: a sleep may overshoot).
fn wait_while_busy(tries: i32) -> bool {
    let most = (BUSY_TIMEOUT.as_micros() / BUSY_SLEEP.as_micros()) as i32;
    if tries >= most {
        return false;
    }
    std::thread::sleep(BUSY_SLEEP);
    true
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
}

fn user_version(conn: &Connection) -> Result<i64> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

/// Brings the schema to [`schema::LATEST`]. The version only ever grows, so a file already
/// at the latest version needs no lock (every open but the first after an update). Otherwise
/// the version is read again under the write lock (`BEGIN IMMEDIATE`, which waits up to the
/// busy timeout): whoever holds the lock and still finds the file old backs it up and
/// migrates it in that same transaction; a process that waited finds it done. So many
/// processes opening a new or old file at once all succeed, with one backup.
fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    let too_new = |found| Error::DatabaseTooNew { path: path.to_owned(), found, known: schema::LATEST };
    match user_version(conn)? {
        v if v == schema::LATEST => return Ok(()),
        v if v > schema::LATEST => return Err(too_new(v)),
        _ => {}
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found = user_version(&tx)?;
    if found > schema::LATEST {
        return Err(too_new(found));
    }
    let Ok(done) = usize::try_from(found) else {
        return Err(Error::Migration(rusqlite_migration::Error::InvalidUserVersion));
    };
    if done == schema::UP.len() {
        return Ok(());
    }
    if found > 0 {
        // Another connection copies the file as it is: this one is inside a transaction,
        // where VACUUM cannot run. Holding the write lock (and having written nothing yet)
        // means the copy is exactly the version just read.
        let source =
            Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
        source.busy_timeout(BUSY_TIMEOUT)?;
        backup_before_migration(&source, path, found)?;
    }
    for (step, up) in schema::UP.iter().enumerate().skip(done) {
        tx.execute_batch(up).map_err(|err| {
            Error::Migration(rusqlite_migration::Error::RusqliteError {
                query: format!("migration {} of {}", step + 1, schema::LATEST),
                err,
            })
        })?;
    }
    tx.pragma_update(None, "user_version", schema::LATEST)?;
    tx.commit()?;
    Ok(())
}

/// Before an existing database is migrated, a copy is kept beside it, named after the
/// schema version it had: `sheetkeeper.db.v1.backup` (with a number added if taken).
/// `source` is a connection to the database that is not inside a transaction.
fn backup_before_migration(source: &Connection, path: &Path, version: i64) -> Result<PathBuf> {
    let base = format!("{}.v{version}.backup", path.display());
    let mut target = PathBuf::from(&base);
    let mut n = 1;
    // symlink_metadata: a dangling symlink counts as taken (SQLite would follow it).
    while target.symlink_metadata().is_ok() {
        n += 1;
        target = PathBuf::from(format!("{base}.{n}"));
    }
    vacuum_into(source, &target)?;
    sync_new_file(&target)?;
    Ok(target)
}

fn vacuum_into(conn: &Connection, to: &Path) -> Result<()> {
    let target = to.to_str().ok_or_else(|| Error::invalid("FILE", "the path is not valid UTF-8"))?;
    conn.execute("VACUUM INTO ?1", [target])?;
    Ok(())
}

/// Deletes the link identity from a copy, its bytes overwritten (`secure_delete`), not
/// just freed.
fn without_link_identity(copy: &Path) -> Result<()> {
    let conn = Connection::open(copy)?;
    conn.pragma_update(None, "secure_delete", true)?;
    conn.execute("DELETE FROM link_identity", [])?;
    Ok(())
}

/// `VACUUM INTO` does not flush the file it writes: flush it, then its folder (so the new
/// name survives a power cut too).
fn sync_new_file(path: &Path) -> Result<()> {
    std::fs::File::open(path).and_then(|f| f.sync_all()).map_err(|e| Error::io(path, e))?;
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(|e| Error::io(dir, e))?;
    }
    Ok(())
}

/// For the migration tests: a database file made at schema `version` and filled by `fill`,
/// then opened as a store, so backed up and migrated. Checks that it reached the latest
/// version, passes its check, and that the backup it left beside it is the file at
/// `version`; returns the store and that backup.
#[cfg(test)]
fn migrated_from(dir: &Path, version: usize, fill: impl FnOnce(&Connection)) -> (Store, Connection) {
    let path = dir.join(format!("v{version}.db"));
    {
        let mut conn = Connection::open(&path).unwrap();
        schema::MIGRATIONS.to_version(&mut conn, version).unwrap();
        fill(&conn);
    }
    let store = Store::open(&path).unwrap();
    let check = store.check().unwrap();
    assert_eq!(check.schema_version, schema::LATEST);
    assert!(check.ok);
    let backup = Connection::open(dir.join(format!("v{version}.db.v{version}.backup"))).unwrap();
    let stored: i64 = backup.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(usize::try_from(stored), Ok(version), "the backup is the database as it was before migrating");
    (store, backup)
}

/// A game row as the first schemas hold it (id, name, system, created and updated on
/// 1 January 2026), for a migration test to fill an old database with.
#[cfg(test)]
fn old_game_row(conn: &Connection, id: &str, name: &str, system: &str) {
    conn.execute(
        "INSERT INTO games VALUES (?1, ?2, ?3, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
        [id, name, system],
    )
    .unwrap();
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
        let (store, backup) = migrated_from(dir.path(), 1, |conn| {
            old_game_row(conn, "6f1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b", "Valley", "nsu");
        });
        assert_eq!(store.read().games().unwrap()[0].name, "Valley");
        let games: i64 = backup.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
        assert_eq!(games, 1, "the backup is the database as it was before migrating");
    }

    /// The names of `table`'s columns, in order.
    fn columns_of(read: Reader<'_>, table: &str) -> Vec<String> {
        let conn = read.conn();
        let mut columns = conn.prepare("SELECT name FROM pragma_table_info(?1)").unwrap();
        columns.query_map([table], |r| r.get(0)).unwrap().collect::<rusqlite::Result<_>>().unwrap()
    }

    #[test]
    fn a_version_30_scattershot_tables_count_of_sessions_becomes_its_journal() {
        let dir = tempfile::tempdir().unwrap();
        let counted = "7a1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a40";
        let written = "7a1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a41";
        let (store, _) = migrated_from(dir.path(), 30, |conn| {
            for (id, name) in [(counted, "Rust Belt"), (written, "Low Tide")] {
                conn.execute(
                    "INSERT INTO games (id, name, system, created_at, updated_at) \
                     VALUES (?1, ?2, 'scattershot', '2026-01-01T00:00:00.000Z', '2026-03-04T20:00:00.000Z')",
                    [id, name],
                )
                .unwrap();
            }
            // Rust Belt counted 3 sessions, the third being played, and its journal has none;
            // Low Tide counted 2 beside the one its journal holds.
            conn.execute(
                "INSERT INTO sc_tables (game_id, gm_dice, sessions, in_session) VALUES (?1, 0, 3, 1), (?2, 0, 2, 0)",
                [counted, written],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO journal_sessions (game_id, number, date, notes, open) VALUES (?1, 1, '2026-02-01', '', 0)",
                [written],
            )
            .unwrap();
        });
        let read = store.read();
        let journal = read.journal(uuid::Uuid::parse_str(counted).unwrap()).unwrap();
        let sessions: Vec<(u32, &str, bool)> =
            journal.sessions.iter().map(|s| (s.number, s.date.as_str(), s.open)).collect();
        assert_eq!(sessions, [(1, "2026-03-04", false), (2, "2026-03-04", false), (3, "2026-03-04", true)]);
        assert!(journal.sessions.iter().all(|s| s.attendees.is_empty() && s.notes.contains("older version")));
        let kept = read.journal(uuid::Uuid::parse_str(written).unwrap()).unwrap();
        assert_eq!(kept.sessions.iter().map(|s| (s.number, s.date.as_str())).collect::<Vec<_>>(), [(1, "2026-02-01")]);
        // The table's own count is gone: its columns are no more.
        let columns = columns_of(read, "sc_tables");
        assert_eq!(columns, ["game_id", "gm_dice"]);
    }

    #[test]
    fn a_version_31_mezzo_decks_count_of_sessions_becomes_its_journal() {
        let dir = tempfile::tempdir().unwrap();
        let [drawing, ended, written] = ["50", "51", "52"].map(|n| format!("7a1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a{n}"));
        let (store, _) = migrated_from(dir.path(), 31, |conn| {
            for (id, name) in [(&drawing, "Harbour"), (&ended, "Orchard"), (&written, "Quarry")] {
                conn.execute(
                    "INSERT INTO games (id, name, system, created_at, updated_at) \
                     VALUES (?1, ?2, 'mezzo', '2026-01-01T00:00:00.000Z', '2026-05-06T21:00:00.000Z')",
                    [id, name],
                )
                .unwrap();
                conn.execute("INSERT INTO mz_tables (game_id, arc) VALUES (?1, 1)", [id]).unwrap();
            }
            // Harbour's deck counted 2 sessions with the second's initial draw still open;
            // Orchard's 2 and play went on; Quarry's 4 beside the one its journal holds.
            conn.execute(
                "INSERT INTO mz_decks (game_id, session, initial_draw) VALUES (?1, 2, 1), (?2, 2, 0), (?3, 4, 0)",
                [&drawing, &ended, &written],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO journal_sessions (game_id, number, date, notes, open) VALUES (?1, 1, '2026-02-01', '', 0)",
                [&written],
            )
            .unwrap();
        });
        let read = store.read();
        let sessions = |id: &str| -> Vec<(u32, String, bool)> {
            let journal = read.journal(uuid::Uuid::parse_str(id).unwrap()).unwrap();
            journal.sessions.iter().map(|s| (s.number, s.date.clone(), s.open)).collect()
        };
        let day = "2026-05-06".to_owned();
        assert_eq!(sessions(&drawing), [(1, day.clone(), false), (2, day.clone(), true)]);
        assert_eq!(sessions(&ended), [(1, day.clone(), false), (2, day, false)]);
        assert_eq!(sessions(&written), [(1, "2026-02-01".to_owned(), false)], "a journal's own sessions stay");
        let deck = read.mezzo_table(uuid::Uuid::parse_str(&drawing).unwrap()).unwrap().deck.unwrap();
        assert!(deck.initial_draw, "the deck keeps its initial draw open");
        let columns = columns_of(read, "mz_decks");
        assert_eq!(columns, ["game_id", "initial_draw"], "the deck's own count is gone");
    }

    #[test]
    fn a_version_19_database_keeps_its_nsu_projects_takes_clocks_of_2_to_12_and_ends_overloads_at_0() {
        let dir = tempfile::tempdir().unwrap();
        let game = "7a1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b";
        let wren = "8b1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b";
        let (mut store, _) = migrated_from(dir.path(), 19, |conn| {
            let at = "2026-01-01T00:00:00.000Z";
            conn.execute(
                "INSERT INTO games (id, name, system, created_at, updated_at) VALUES (?1, 'Valley', 'nsu', ?2, ?2)",
                [game, at],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO characters (id, game_id, system, name, created_at, updated_at, revision) \
                 VALUES (?1, ?2, 'nsu', 'Wren', ?3, ?3, 1)",
                [wren, game, at],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO nsu_projects (id, game_id, position, name, owner_id, size, filled) \
                 VALUES ('9c1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b', ?1, 0, 'Mend the bridge', ?2, 6, 2)",
                [game, wren],
            )
            .unwrap();
            // A sheet from before the level-0 rule: Curious overloaded at 0, Wary at 3.
            conn.execute(
                "INSERT INTO nsu_sheets (character_id, pronouns, look, rumours, recovery_points) \
                 VALUES (?1, '', '', '', 0)",
                [wren],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO nsu_moods (character_id, line, die, name, level, overloaded) \
                 VALUES (?1, 0, 8, 'Curious', 0, 1), (?1, 2, 6, 'Wary', 3, 0)",
                [wren],
            )
            .unwrap();
        });
        // Reaching 0 ended the overload (decision 2026-11-25): the migration says so.
        let sheet = store.read().nsu_sheet(uuid::Uuid::parse_str(wren).unwrap()).unwrap().unwrap();
        let moods: Vec<_> = sheet.moods.iter().flatten().map(|m| (m.name.as_str(), m.level, m.overloaded)).collect();
        assert_eq!(moods, [("Curious", 0, false), ("Wary", 3, false)]);
        let game = uuid::Uuid::parse_str(game).unwrap();
        let mut world = store.read().nsu_world(game).unwrap();
        let kept: Vec<_> = world.projects.iter().map(|p| (p.name.as_str(), p.size, p.filled)).collect();
        assert_eq!(kept, [("Mend the bridge", 6, 2)], "the project is kept as it was");
        // A 12-segment clock is stored now (decision 2026-11-28); the database still holds
        // the line at 12.
        world.projects[0].size = 12;
        store.write(|tx| tx.put_nsu_world(game, &world)).unwrap();
        assert_eq!(store.read().nsu_world(game).unwrap().projects[0].size, 12);
        world.projects[0].size = 13;
        let err = store.write(|tx| tx.put_nsu_world(game, &world)).unwrap_err();
        assert!(err.to_string().contains("CHECK constraint failed"), "{err}");
    }

    #[test]
    fn refuses_an_sqlite_older_than_3_51_3() {
        assert!(matches!(check_sqlite_version(3_051_002), Err(Error::SqliteTooOld { .. })));
        assert!(check_sqlite_version(3_051_003).is_ok());
        assert!(check_sqlite_version(rusqlite::version_number()).is_ok(), "the bundled SQLite is new enough");
    }
}
