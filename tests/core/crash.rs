//! A process killed (`kill -9`) in the middle of an import leaves the database intact with
//! either all of the import or none of it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sheetkeeper::exchange;

use crate::support::Scratch;

const GAMES: usize = 10;
const PER_GAME: usize = 1_000;

fn big_backup() -> Vec<u8> {
    exchange::to_json(&crate::sample::backup(GAMES, PER_GAME))
}

fn start_import(db: &Path, file: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .arg("--db")
        .arg(db)
        .arg("import")
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// When to kill the import.
#[derive(Clone, Copy, Debug)]
enum KillWhen {
    /// Once its write-ahead log holds more than this many bytes: inside the transaction.
    WalOver(u64),
    /// After this long, wherever it is.
    After(Duration),
}

/// Kills the import when `when` says so (unless it ends by itself first); true if it was
/// still running when killed.
fn kill(mut child: Child, wal: &Path, when: KillWhen) -> bool {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let now = match when {
            KillWhen::WalOver(bytes) => std::fs::metadata(wal).is_ok_and(|m| m.len() > bytes),
            KillWhen::After(delay) => start.elapsed() >= delay,
        };
        if now {
            child.kill().unwrap(); // SIGKILL on Unix: no chance to clean up.
            child.wait().unwrap();
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn killing_an_import_leaves_all_or_nothing() {
    let s = Scratch::new();
    let file = s.file("big.sheetkeeper.json");
    std::fs::write(&file, big_backup()).unwrap();
    let total = (GAMES * PER_GAME) as i64;

    let mut killed_mid_way = 0;
    // Half the runs kill once the transaction is writing pages to the WAL (in the middle of
    // the write); the rest at growing delays, to land anywhere.
    let plans = [
        KillWhen::WalOver(64 * 1024),
        KillWhen::WalOver(1024 * 1024),
        KillWhen::WalOver(4 * 1024 * 1024),
        KillWhen::After(Duration::from_millis(30)),
        KillWhen::After(Duration::from_millis(300)),
        KillWhen::After(Duration::from_millis(900)),
    ];
    for (i, when) in plans.into_iter().enumerate() {
        let db = s.file(&format!("run{i}.db"));
        drop(sheetkeeper::Store::open(&db).unwrap());
        let wal = PathBuf::from(format!("{}-wal", db.display()));
        if kill(start_import(&db, &file), &wal, when) {
            killed_mid_way += 1;
        }
        let store = sheetkeeper::Store::open(&db).expect("the database opens after the crash");
        let report = store.check().unwrap();
        assert!(report.ok, "run {i}: {report:?}");
        let characters = store.read().characters().unwrap().len() as i64;
        let games = store.read().games().unwrap().len();
        eprintln!("run {i} ({when:?}): {games} games, {characters} characters after the kill");
        assert!(
            (characters == 0 && games == 0) || (characters == total && games == GAMES),
            "run {i}: found {games} games and {characters} characters: a partial import"
        );
    }
    assert!(killed_mid_way >= 3, "the import must be killed while running in most runs, was {killed_mid_way}");
}
