//! Linked table benchmarks on loopback: `cargo bench -p sheetkeeper --bench link`.
//! Budgets (DESIGN.md): with 6 joined devices, a change on one device's database → its
//! arrival in another device's database, median ≤ 30 ms and p99 ≤ 60 ms at every size; the
//! bytes one device is sent for a one-field change ≤ 2 KiB at every size; the catch-up
//! (first join) of a game with 10 000 events, and of the 400-character game, ≤ 1 s.
//!
//! The change's latency and what it costs on the wire, by the game's size: NSU games of 2,
//! 50 and 400 characters and a Penny Ante game whose ledger has 10 000 entries. Device 1
//! reaches the host through a relay that counts the bytes the host sends it, so each size
//! prints the bytes one change cost device 1, with the latency:
//!
//! ```text
//! link size=<label> bytes_mean=<n> bytes_max=<n> median_ms=<x> p99_ms=<x> max_ms=<x>
//! link first_join size=<label> median_ms=<x> max_ms=<x>
//! ```
//!
//! A debug build (`cargo test --benches`) runs smaller games and a few samples.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use sheetkeeper::link::{Claimed, HostConfig, HostHandle, JoinConfig, JoinHandle, LinkState};
use sheetkeeper::rules::penny_ante::ledger::{Account, Entry, Reason};
use sheetkeeper::services::{self, ExportScope, ImportOptions};
use sheetkeeper::Store;
use uuid::Uuid;

const DEVICES: usize = 6;
const DEBUG: bool = cfg!(debug_assertions);
/// After a change arrived, how long the bytes counter waits for the frames that trail it.
const TRAILING: Duration = Duration::from_millis(50);

fn host(db: &Path, game: Uuid) -> HostHandle {
    let listen = "127.0.0.1:0".parse().unwrap();
    HostHandle::start(HostConfig { db: db.into(), game, listen, name: "The table".into() }).unwrap()
}

fn host_addr(host: &HostHandle) -> SocketAddr {
    host.status().listen.parse().unwrap()
}

fn join_at(db: &Path, addr: SocketAddr, code: Option<String>) -> JoinHandle {
    JoinHandle::start(JoinConfig { db: db.into(), addr, code, name: "A device".into() })
}

fn join(db: &Path, host: &HostHandle, code: Option<String>) -> JoinHandle {
    join_at(db, host_addr(host), code)
}

fn set_look(store: &mut Store, id: Uuid, look: &str) {
    let mut sheet = services::nsu_sheet(store, id).unwrap().sheet;
    sheet.look = look.into();
    services::save_nsu_sheet(store, id, sheet).unwrap();
}

fn look(store: &Store, id: Uuid) -> String {
    services::nsu_sheet(store, id).unwrap().sheet.look
}

fn name(store: &Store, id: Uuid) -> Option<String> {
    services::list(store).unwrap().into_iter().flat_map(|g| g.characters).find(|c| c.id == id).map(|c| c.name.clone())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A TCP relay between one device and the host that counts the bytes the host sends.
struct Relay {
    addr: SocketAddr,
    to_device: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl Relay {
    fn start(upstream: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let to_device = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (counter, stopped) = (to_device.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((device, _)) => {
                        let Ok(host) = TcpStream::connect(upstream) else { continue };
                        for s in [&device, &host] {
                            s.set_nonblocking(false).unwrap();
                            s.set_nodelay(true).unwrap();
                        }
                        let (d2, h2) = (device.try_clone().unwrap(), host.try_clone().unwrap());
                        std::thread::spawn(move || pipe(device, host, None));
                        let counter = counter.clone();
                        std::thread::spawn(move || pipe(h2, d2, Some(counter)));
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(5)),
                    Err(_) => return,
                }
            }
        });
        Relay { addr, to_device, stop }
    }

    fn to_device(&self) -> u64 {
        self.to_device.load(Ordering::SeqCst)
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn pipe(mut from: TcpStream, mut to: TcpStream, count: Option<Arc<AtomicU64>>) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if let Some(c) = &count {
                    c.fetch_add(n as u64, Ordering::SeqCst);
                }
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
        }
    }
    let _ = to.shutdown(Shutdown::Both);
    let _ = from.shutdown(Shutdown::Both);
}

/// Which one-field change device 0 makes.
#[derive(Clone, Copy)]
enum Change {
    /// An NSU sheet's look.
    Look,
    /// A character's name. (Not its notes: a snapshot that changes only a character's
    /// notes is "unchanged" to the device's import plan, so notes do not travel.)
    Name,
}

/// A hosted game with `DEVICES` joined devices; device 1 through the relay.
struct Table {
    label: String,
    change: Change,
    ids: Vec<Uuid>,
    dbs: Vec<PathBuf>,
    relay: Relay,
    joins: Vec<JoinHandle>,
    host: HostHandle,
    dir: tempfile::TempDir,
}

impl Table {
    /// Hosts `game` from `host_db`; the first devices claim the first characters, one each.
    fn open(label: String, change: Change, dir: tempfile::TempDir, host_db: &Path, game: Uuid) -> Table {
        let ids: Vec<Uuid> = services::list(&Store::open(host_db).unwrap())
            .unwrap()
            .into_iter()
            .find(|g| g.game.id == game)
            .unwrap()
            .characters
            .iter()
            .map(|c| c.id)
            .collect();
        let host = host(host_db, game);
        let code = host.status().code;
        let relay = Relay::start(host_addr(&host));
        let dbs: Vec<_> = (0..DEVICES).map(|i| dir.path().join(format!("device{i}.db"))).collect();
        let joins: Vec<JoinHandle> = dbs
            .iter()
            .enumerate()
            .map(|(i, db)| {
                let addr = if i == 1 { relay.addr } else { host_addr(&host) };
                let j = join_at(db, addr, Some(code.clone()));
                assert!(j.wait(Duration::from_secs(60)).caught_up, "{:?}", j.status());
                if let Some(id) = ids.get(i) {
                    if j.claim(*id).unwrap() == Claimed::Asked {
                        // The host's person approves, as at a real table.
                        let asked = host.status().claims.into_iter().find(|c| c.character == *id).unwrap();
                        host.approve_claim(asked.device, *id).unwrap();
                    }
                }
                j
            })
            .collect();
        for j in &joins {
            assert!(j.wait(Duration::from_secs(60)).caught_up);
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
                assert!(start.elapsed() < Duration::from_secs(60), "a claim was never approved");
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        Table { label, change, ids, dbs, relay, joins, host, dir }
    }

    /// Makes `samples` changes on device 0; each returns its latency until
    /// device 1's database shows it, and (with `count`) the bytes the host sent device 1
    /// meanwhile and just after.
    fn changes(&self, count: bool, samples: usize) -> Vec<(Duration, u64)> {
        let mut writer = Store::open(&self.dbs[0]).unwrap();
        let reader = Store::open(&self.dbs[1]).unwrap();
        let id = self.ids[0];
        let mut out = Vec::new();
        while out.len() < samples {
            let text = format!("Change {}", Uuid::new_v4().simple());
            let before = self.relay.to_device();
            let start = Instant::now();
            match self.change {
                Change::Look => set_look(&mut writer, id, &text),
                Change::Name => {
                    services::rename_character(&mut writer, id, &text).unwrap();
                }
            }
            // As the window does after each of its writes.
            self.joins[0].nudge();
            let arrived = || match self.change {
                Change::Look => look(&reader, id) == text,
                Change::Name => name(&reader, id).as_deref() == Some(text.as_str()),
            };
            while !arrived() {
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "a change never arrived: {:?}",
                    self.joins[1].status()
                );
                // (Each look is a query on a core the table shares: not more often.)
                std::thread::sleep(Duration::from_millis(1));
            }
            let took = start.elapsed();
            let bytes = if count {
                std::thread::sleep(TRAILING);
                self.relay.to_device() - before
            } else {
                0
            };
            out.push((took, bytes));
        }
        out
    }

    /// Prints the size's summary line, then runs criterion on it.
    fn measure(&self, c: &mut Criterion, samples: usize) {
        let measured = self.changes(true, samples);
        let mut times: Vec<Duration> = measured.iter().map(|m| m.0).collect();
        times.sort();
        let bytes: Vec<u64> = measured.iter().map(|m| m.1).collect();
        println!(
            "link size={} bytes_mean={} bytes_max={} median_ms={:.1} p99_ms={:.1} max_ms={:.1}",
            self.label,
            bytes.iter().sum::<u64>() / bytes.len() as u64,
            bytes.iter().max().unwrap(),
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.99)),
            ms(*times.last().unwrap()),
        );
        let mut group = c.benchmark_group("link");
        group.sample_size(10).sampling_mode(SamplingMode::Flat);
        group.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
        group.bench_function(format!("a change on one of {DEVICES} devices reaches another, {}", self.label), |b| {
            b.iter_custom(|iters| self.changes(false, iters as usize).into_iter().map(|m| m.0).sum())
        });
        group.finish();
    }

    /// The first join of a new device: the time from its start to caught up.
    fn first_join(&self, n: usize) -> Duration {
        let db = self.dir.path().join(format!("fresh{n}.db"));
        let start = Instant::now();
        let j = join(&db, &self.host, Some(self.host.status().code));
        let status = j.wait(Duration::from_secs(60));
        let took = start.elapsed();
        assert!(status.caught_up && status.state == LinkState::Linked, "{status:?}");
        drop(j);
        took
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.joins.clear();
    }
}

/// A new folder with the database `db` in it, holding a new game `name` of `system`: the
/// folder, the database's path, the database and the game's id.
fn new_game(db: &str, name: &str, system: &str) -> (tempfile::TempDir, PathBuf, Store, Uuid) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(db);
    let mut store = Store::open(&path).unwrap();
    let game = services::create_game(&mut store, name, system).unwrap().game.id;
    (dir, path, store, game)
}

/// An NSU game of `characters` characters.
fn nsu_table(characters: usize) -> Table {
    let (dir, host_db, mut store, game) = new_game("host.db", "Valley", "nsu");
    for i in 0..characters {
        services::create_character(&mut store, game, &format!("Player {i}")).unwrap();
    }
    drop(store);
    Table::open(format!("nsu{characters}"), Change::Look, dir, &host_db, game)
}

/// Where a game file keeps its Penny Ante ledger's entries.
const LEDGER: &str = "/data/games/0/penny_table/ledger/entries";

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A Penny Ante game of `DEVICES` characters whose ledger has `entries` entries: a few made
/// by the services, the rest the House handing a penny back to the Bank and being funded
/// with it again (entries every player sees, unlike an antagonist's purse's), written into
/// the game's file and imported.
fn penny_table(entries: usize) -> Table {
    let (dir, _, mut seed, game) = new_game("seed.db", "Penny table", "penny_ante");
    for i in 0..DEVICES {
        services::penny_create_character(&mut seed, game, &format!("Player {i}"), &format!("Quick hands {i}"), 25)
            .unwrap();
    }
    services::penny_start_adventure(&mut seed, game, None).unwrap();
    let file = dir.path().join("penny.sheetkeeper.json");
    services::export(&seed, ExportScope::Game(game), &file).unwrap();
    drop(seed);
    let mut doc = read_json(&file);
    let ledger = doc.pointer_mut(LEDGER).and_then(|l| l.as_array_mut()).unwrap();
    let penny =
        |from, to, reason| serde_json::to_value(Entry { from, to, amount: 1, reason, challenge: None }).unwrap();
    let pair = [
        penny(Account::House, Account::Bank, Reason::HouseReturned),
        penny(Account::Bank, Account::House, Reason::HouseFunding),
    ];
    for n in 0..entries.saturating_sub(ledger.len()) {
        ledger.push(pair[n % 2].clone());
    }
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    let host_db = dir.path().join("host.db");
    let mut store = Store::open(&host_db).unwrap();
    services::import(&mut store, &file, ImportOptions { as_copy: false, replace_conflicts: false }).unwrap();
    services::export(&store, ExportScope::Game(game), &file).unwrap();
    drop(store);
    let stored = read_json(&file).pointer(LEDGER).and_then(|l| l.as_array()).map(Vec::len);
    assert_eq!(stored, Some(entries));
    Table::open(format!("penny{entries}"), Change::Name, dir, &host_db, game)
}

/// By the game's size: the time from a change on device 0's database to its arrival in
/// device 1's database, with `DEVICES` devices joined, and the bytes the host sent device 1
/// for it; for the largest NSU game, also a new device's first join.
fn sizes(c: &mut Criterion) {
    let samples = if DEBUG { 3 } else { 100 };
    let sizes = if DEBUG { [2, 10, 40] } else { [2, 50, 400] };
    let largest = sizes[2];
    for characters in sizes {
        let table = nsu_table(characters);
        table.measure(c, samples);
        if characters == largest {
            let mut n = 0;
            let mut one = || {
                n += 1;
                table.first_join(n)
            };
            let joins = if DEBUG { 2 } else { 5 };
            let mut times: Vec<Duration> = (0..joins).map(|_| one()).collect();
            times.sort();
            println!(
                "link first_join size={} median_ms={:.0} max_ms={:.0}",
                table.label,
                ms(percentile(&times, 0.5)),
                ms(*times.last().unwrap())
            );
            let mut group = c.benchmark_group("link");
            group.sample_size(10).sampling_mode(SamplingMode::Flat);
            group.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
            group.bench_function(format!("first join of {}", table.label), |b| {
                b.iter_custom(|iters| (0..iters).map(|_| one()).sum())
            });
            group.finish();
        }
    }
    let table = penny_table(if DEBUG { 500 } else { 10_000 });
    table.measure(c, if DEBUG { samples } else { 50 });
}

/// The first join of a game with 10 000 events: its size and the time to catch up.
fn catch_up(c: &mut Criterion) {
    let events = if DEBUG { 500 } else { 10_000 };
    let characters = 100;
    let (dir, host_db, mut store, game) = new_game("host.db", "Valley", "nsu");
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

criterion_group!(benches, sizes, catch_up);
criterion_main!(benches);
