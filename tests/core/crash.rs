//! A process killed (`kill -9`) in the middle of an import leaves the database intact with
//! either all of the import or none of it.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use sheetkeeper::exchange::{self, Document, GameEntry, Kind};
use sheetkeeper::model::{Character, Game, System};
use sheetkeeper::rules::table_settings;
use uuid::Uuid;

use crate::support::Scratch;

const GAMES: usize = 20;
const PER_GAME: usize = 1_000;

fn big_backup() -> Vec<u8> {
    let at: DateTime<Utc> = "2026-11-01T12:00:00Z".parse().unwrap();
    let games = (0..GAMES)
        .map(|g| {
            let game = Game {
                id: Uuid::new_v4(),
                name: format!("Table {g}"),
                system: System::Nsu,
                table_settings: table_settings::defaults(System::Nsu),
                created_at: at,
                updated_at: at,
            };
            let characters = (0..PER_GAME)
                .map(|c| Character {
                    id: Uuid::new_v4(),
                    game_id: game.id,
                    system: System::Nsu,
                    name: format!("Character {g}-{c}"),
                    created_at: at,
                    updated_at: at,
                    revision: 1,
                })
                .collect();
            GameEntry { game, characters }
        })
        .collect();
    exchange::to_json(&Document { kind: Kind::Backup, system: None, app_version: "test".into(), exported_at: at, games })
}

fn start_import(db: &std::path::Path, file: &std::path::Path) -> Child {
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

/// Kills the import once `trigger` says so (or when it ends by itself); true if it was
/// still running when killed.
fn kill_when(mut child: Child, mut trigger: impl FnMut(Duration) -> bool) -> bool {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        if trigger(start.elapsed()) {
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
    // Half the runs kill as soon as the transaction starts writing pages to the WAL (so in
    // the middle of the write); the rest at growing delays, to land anywhere.
    let plans: Vec<Box<dyn Fn(&std::path::Path) -> Box<dyn FnMut(Duration) -> bool>>> = vec![
        Box::new(|wal| wal_grows(wal, 64 * 1024)),
        Box::new(|wal| wal_grows(wal, 1024 * 1024)),
        Box::new(|wal| wal_grows(wal, 4 * 1024 * 1024)),
        Box::new(|_| after(Duration::from_millis(30))),
        Box::new(|_| after(Duration::from_millis(300))),
        Box::new(|_| after(Duration::from_millis(900))),
    ];
    for (i, plan) in plans.iter().enumerate() {
        let db = s.file(&format!("run{i}.db"));
        drop(sheetkeeper::Store::open(&db).unwrap());
        let wal = std::path::PathBuf::from(format!("{}-wal", db.display()));
        if kill_when(start_import(&db, &file), plan(&wal)) {
            killed_mid_way += 1;
        }
        let store = sheetkeeper::Store::open(&db).expect("the database opens after the crash");
        let report = store.check().unwrap();
        assert!(report.ok, "run {i}: {report:?}");
        let characters = store.read().characters().unwrap().len() as i64;
        let games = store.read().games().unwrap().len();
        eprintln!("run {i}: {games} games, {characters} characters after the kill");
        assert!(
            (characters == 0 && games == 0) || (characters == total && games == GAMES),
            "run {i}: found {games} games and {characters} characters: a partial import"
        );
    }
    assert!(killed_mid_way >= 3, "the import must be killed while running in most runs, was {killed_mid_way}");
}

fn wal_grows(wal: &std::path::Path, bytes: u64) -> Box<dyn FnMut(Duration) -> bool> {
    let wal = wal.to_owned();
    Box::new(move |_| std::fs::metadata(&wal).map(|m| m.len() > bytes).unwrap_or(false))
}

fn after(delay: Duration) -> Box<dyn FnMut(Duration) -> bool> {
    Box::new(move |elapsed| elapsed >= delay)
}
