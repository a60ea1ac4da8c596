//! Linked table benchmarks on loopback: `cargo bench -p sheetkeeper --bench link`.
//! Budgets (DESIGN.md): with 6 joined devices, a change on one device's database → its
//! arrival in another device's database, median ≤ 50 ms and p99 ≤ 200 ms; the catch-up
//! (first join) of a game with 10 000 events ≤ 1 s.

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use sheetkeeper::link::{Claimed, HostConfig, HostHandle, JoinConfig, JoinHandle, LinkState};
use sheetkeeper::services;
use sheetkeeper::Store;
use uuid::Uuid;

const DEVICES: usize = 6;

fn host(db: &Path, game: Uuid) -> HostHandle {
    let listen = "127.0.0.1:0".parse().unwrap();
    HostHandle::start(HostConfig { db: db.into(), game, listen, name: "The table".into() }).unwrap()
}

fn join(db: &Path, host: &HostHandle, code: Option<String>) -> JoinHandle {
    let addr = host.status().listen.parse().unwrap();
    JoinHandle::start(JoinConfig { db: db.into(), addr, code, name: "A device".into() })
}

fn set_look(store: &mut Store, id: Uuid, look: &str) {
    let mut sheet = services::nsu_sheet(store, id).unwrap().sheet;
    sheet.look = look.into();
    services::save_nsu_sheet(store, id, sheet).unwrap();
}

fn look(store: &Store, id: Uuid) -> String {
    services::nsu_sheet(store, id).unwrap().sheet.look
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// The time from a change on device 0's database to its arrival in device 1's database,
/// with `DEVICES` devices joined.
fn latency(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let host_db = dir.path().join("host.db");
    let mut store = Store::open(&host_db).unwrap();
    let game = services::create_game(&mut store, "Valley", "nsu").unwrap().game.id;
    let ids: Vec<Uuid> = (0..DEVICES)
        .map(|i| services::create_character(&mut store, game, &format!("Player {i}")).unwrap().id)
        .collect();
    drop(store);
    let host = host(&host_db, game);
    let code = host.status().code;
    let dbs: Vec<_> = (0..DEVICES).map(|i| dir.path().join(format!("device{i}.db"))).collect();
    let joins: Vec<JoinHandle> = dbs
        .iter()
        .zip(&ids)
        .map(|(db, id)| {
            let j = join(db, &host, Some(code.clone()));
            assert!(j.wait(Duration::from_secs(20)).caught_up, "{:?}", j.status());
            if j.claim(*id).unwrap() == Claimed::Asked {
                // The host's person approves, as at a real table.
                let asked = host.status().claims.into_iter().find(|c| c.character == *id).unwrap();
                host.approve_claim(asked.device, *id).unwrap();
            }
            j
        })
        .collect();
    for j in &joins {
        assert!(j.wait(Duration::from_secs(20)).caught_up);
    }
    // Each device's own character is marked its own once the approval's snapshot landed.
    for (db, id) in dbs.iter().zip(&ids) {
        let start = Instant::now();
        let owns = || {
            services::list(&Store::open(db).unwrap())
                .unwrap()
                .iter()
                .any(|g| g.characters.iter().any(|c| c.id == *id && c.mine))
        };
        while !owns() {
            assert!(start.elapsed() < Duration::from_secs(20), "a claim was never approved");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    let mut writer = Store::open(&dbs[0]).unwrap();
    let reader = Store::open(&dbs[1]).unwrap();
    let mut n = 0u64;
    let mut one = || {
        n += 1;
        let text = format!("Change {n}");
        let start = Instant::now();
        set_look(&mut writer, ids[0], &text);
        while look(&reader, ids[0]) != text {
            assert!(start.elapsed() < Duration::from_secs(20), "a change never arrived");
            std::thread::sleep(Duration::from_micros(200));
        }
        start.elapsed()
    };
    let samples = if cfg!(debug_assertions) { 20 } else { 200 };
    let mut times: Vec<Duration> = (0..samples).map(|_| one()).collect();
    times.sort();
    println!(
        "link latency, {DEVICES} devices, {samples} samples: median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
    );
    let mut group = c.benchmark_group("link");
    group.sample_size(30);
    group.bench_function(format!("a change on one of {DEVICES} devices reaches another"), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| one()).sum())
    });
    group.finish();
    drop(joins);
    drop(host);
}

/// The first join of a game with 10 000 events: its size and the time to catch up.
fn catch_up(c: &mut Criterion) {
    let events = if cfg!(debug_assertions) { 500 } else { 10_000 };
    let characters = 100;
    let dir = tempfile::tempdir().unwrap();
    let host_db = dir.path().join("host.db");
    let mut store = Store::open(&host_db).unwrap();
    let game = services::create_game(&mut store, "Valley", "nsu").unwrap().game.id;
    let ids: Vec<Uuid> = (0..characters)
        .map(|i| services::create_character(&mut store, game, &format!("Character {i}")).unwrap().id)
        .collect();
    for n in 0..events - characters - 1 {
        set_look(&mut store, ids[n % characters], &format!("Look number {n}, with some words about the coat"));
    }
    let logged: i64 = rusqlite::Connection::open(&host_db)
        .unwrap()
        .query_row("SELECT count(*) FROM events WHERE game_id = ?1", [game.to_string()], |r| r.get(0))
        .unwrap();
    let snapshot = services::host_snapshot(&store, game, Uuid::new_v4()).unwrap();
    let bytes = serde_json::to_vec(&snapshot).unwrap().len();
    println!("catch-up of a game with {logged} events ({characters} characters): a snapshot of {bytes} bytes");
    drop(store);
    let host = host(&host_db, game);
    let mut fresh = 0;
    let mut one = || {
        fresh += 1;
        let db = dir.path().join(format!("fresh{fresh}.db"));
        let start = Instant::now();
        let j = join(&db, &host, Some(host.status().code));
        let status = j.wait(Duration::from_secs(60));
        let took = start.elapsed();
        assert!(status.caught_up && status.state == LinkState::Linked, "{status:?}");
        drop(j);
        took
    };
    let mut times: Vec<Duration> = (0..10).map(|_| one()).collect();
    times.sort();
    println!(
        "catch-up, 10 first joins: median {:.0} ms, max {:.0} ms",
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3
    );
    let mut group = c.benchmark_group("link");
    group.sample_size(10);
    group.bench_function(format!("first join of a game with {logged} events"), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| one()).sum())
    });
    group.finish();
}

criterion_group!(benches, latency, catch_up);
criterion_main!(benches);
