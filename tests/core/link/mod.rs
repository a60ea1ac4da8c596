//! The linked table (issue 14): devices with their own databases, linked on loopback through
//! the real host and join code, the real CLI, and a recording proxy between them.

mod cli;
mod gifts;
mod hostile;
mod kill9;
mod legal;
mod mezzo_ballot;
mod mezzo_check_ballot;
mod mezzo_seats;
mod offline;
mod patch_secrets;
mod patches;
mod penny;
mod players;
mod proxy;
mod redaction;
mod security;
mod sync;

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::time::{Duration, Instant};

use sheetkeeper::link::{Claimed, HostConfig, HostHandle, JoinConfig, JoinHandle, JoinStatus, LinkState};
use sheetkeeper::services;
use sheetkeeper::Store;
use uuid::Uuid;

use crate::mezzo_store;
use crate::support::{uuid, Scratch};

/// The table's device of the Mezzo plot game (Ada, Actor claiming Mira; Bo, 3 influence,
/// claiming nothing; Cy): the game imported from its fixture, and the device's link identity.
pub fn mezzo_plot_table(scratch: &Scratch) -> Store {
    let mut host = scratch.open();
    let file = crate::support::fixture("mezzo-plot-game.sheetkeeper.json");
    services::import(&mut host, &file, services::ImportOptions::default()).unwrap();
    services::link_identity(&mut host, || (vec![7; 32], vec![9; 32])).unwrap();
    host
}

/// `mezzo_plot_table` with two devices paired: Bo's phone, seated as Bo (a player who
/// claims no character), and a visitor's phone, seated as nobody. Returns the table's device,
/// Bo's phone and the visitor's.
pub fn mezzo_plot_table_with_bos_phone(scratch: &Scratch) -> (Store, Uuid, Uuid) {
    let (game, bo) = (uuid(mezzo_store::GAME), uuid(mezzo_store::BO));
    let mut host = mezzo_plot_table(scratch);
    let (phone, stranger) = (Uuid::new_v4(), Uuid::new_v4());
    services::host_pair(&mut host, game, phone, "Bo's phone", &[3; 32]).unwrap();
    services::host_pair(&mut host, game, stranger, "a visitor's phone", &[4; 32]).unwrap();
    services::host_claim(&mut host, game, phone, bo).unwrap().unwrap();
    (host, phone, stranger)
}

/// How long a condition may take to come true before a test fails (generous: loopback is
/// fast, a loaded CI machine is not).
pub const DEADLINE: Duration = Duration::from_secs(20);

/// Polls `ok` until it is true; fails naming `what` after `DEADLINE`.
pub fn eventually(what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < DEADLINE, "not within {DEADLINE:?}: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn loopback() -> SocketAddr {
    "127.0.0.1:0".parse().unwrap()
}

/// A free loopback port (for a host that must come back on the same address).
pub fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind(loopback()).unwrap();
    listener.local_addr().unwrap()
}

pub fn host_on(s: &Scratch, game: Uuid, listen: SocketAddr) -> HostHandle {
    HostHandle::start(HostConfig { db: s.db(), game, listen, name: "The table".into() }).expect("the host starts")
}

pub fn host(s: &Scratch, game: Uuid) -> HostHandle {
    host_on(s, game, loopback())
}

pub fn addr(h: &HostHandle) -> SocketAddr {
    h.status().listen.parse().expect("the host listens on ADDR:PORT")
}

pub fn join(s: &Scratch, addr: SocketAddr, code: Option<&str>, name: &str) -> JoinHandle {
    JoinHandle::start(JoinConfig { db: s.db(), addr, code: code.map(str::to_owned), name: name.into() })
}

/// Joins and waits until the device is caught up with the host.
pub fn joined(s: &Scratch, addr: SocketAddr, code: Option<&str>, name: &str) -> JoinHandle {
    let j = join(s, addr, code, name);
    let status = j.wait(DEADLINE);
    assert!(status.caught_up && status.state == LinkState::Linked, "{name} did not link: {status:?}");
    j
}

/// The code with its last digit changed: certainly wrong.
pub fn wrong(code: &str) -> String {
    let mut digits: Vec<u32> = code.chars().filter_map(|c| c.to_digit(10)).collect();
    let last = digits.last_mut().unwrap();
    *last = (*last + 1) % 10;
    digits.iter().map(|d| char::from_digit(*d, 10).unwrap()).collect()
}

/// `j` (on the database at `db`) claims `character` and the host's person approves: the
/// character is `j`'s once this returns.
pub fn claim(host: &HostHandle, j: &JoinHandle, db: &Path, character: Uuid) {
    if j.claim(character).expect("the claim reaches the table") == Claimed::Asked {
        let request = host.status().claims.into_iter().find(|c| c.character == character);
        let request = request.expect("the host lists the claim");
        host.approve_claim(request.device, character).expect("the host's person approves");
    }
    let game = j.status().game.expect("the device is linked");
    eventually("the claimed character is the device's", || mine(db, game).contains(&character));
}

/// Waits until the joined device is linked and caught up again.
pub fn caught_up(j: &JoinHandle, what: &str) -> JoinStatus {
    let mut last = j.status();
    eventually(what, || {
        last = j.status();
        last.caught_up && last.state == LinkState::Linked
    });
    last
}

pub fn open(db: &Path) -> Store {
    Store::open(db).expect("the store opens")
}

/// An NSU character's look on the database at `db` (None: not there).
pub fn look(db: &Path, id: Uuid) -> Option<String> {
    services::nsu_sheet(&open(db), id).ok().map(|v| v.sheet.look)
}

/// Edits an NSU character's look on the database at `db`, as the window would (its own
/// connection, the ordinary service).
pub fn set_look(db: &Path, id: Uuid, text: &str) {
    let mut store = open(db);
    let mut sheet = services::nsu_sheet(&store, id).unwrap().sheet;
    sheet.look = text.into();
    services::save_nsu_sheet(&mut store, id, sheet).unwrap();
}

/// The character of that name in the database at `db`.
pub fn character(db: &Path, name: &str) -> Uuid {
    services::list(&open(db))
        .unwrap()
        .into_iter()
        .flat_map(|g| g.characters)
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no character {name}"))
        .id
}

/// The characters of `game` this device marks as its own.
pub fn mine(db: &Path, game: Uuid) -> Vec<Uuid> {
    let games = services::list(&open(db)).unwrap();
    let Some(g) = games.into_iter().find(|g| g.game.id == game) else { return Vec::new() };
    let mut ids: Vec<Uuid> = g.characters.iter().filter(|c| c.mine).map(|c| c.id).collect();
    ids.sort();
    ids
}

/// A number from the database file itself.
pub fn count(db: &Path, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// What a database holds, to prove that nothing changed: the games and characters as
/// listed (with their revisions), the events, the pairings.
pub fn fingerprint(db: &Path) -> String {
    let list = serde_json::to_string(&services::list(&open(db)).unwrap()).unwrap();
    let events = count(db, "SELECT count(*) FROM events");
    let peers = count(db, "SELECT count(*) FROM link_peers");
    let owners = count(db, "SELECT count(*) FROM link_owners");
    format!("{list} events={events} peers={peers} owners={owners}")
}

/// This device's id on the local network.
pub fn device_id(db: &Path) -> Uuid {
    services::link_identity(&mut open(db), || panic!("the device has an identity already")).unwrap().device_id
}

pub fn cli(db: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sheetkeeper"));
    c.arg("--db").arg(db).env_remove("SHEETKEEPER_DB");
    c
}

/// How long one run of the CLI may take (a `join` waits up to 30 s for the table itself).
const CLI_DEADLINE: Duration = Duration::from_secs(90);

/// Runs the CLI to its end; fails naming the command if it has not ended by `CLI_DEADLINE`
/// (the process is killed: a stuck process ends the test, not the whole run).
pub fn run(db: &Path, args: &[&str]) -> Output {
    let mut child = cli(db).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the CLI runs");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let read_out = std::thread::spawn(move || read_all(&mut out));
    let read_err = std::thread::spawn(move || read_all(&mut err));
    let status = wait_or_kill(&mut child, CLI_DEADLINE, &format!("sheetkeeper {}", args.join(" ")));
    Output { status, stdout: read_out.join().unwrap(), stderr: read_err.join().unwrap() }
}

fn read_all(from: &mut impl std::io::Read) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = from.read_to_end(&mut bytes);
    bytes
}

/// Waits for `child` to end; past `limit` kills it and fails naming `what`.
pub fn wait_or_kill(child: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the process can be waited for") {
            return status;
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} had not ended after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The lines a child prints on `out`, read on a thread of their own so that a wait for the
/// next one can give up.
pub struct Lines(std::sync::mpsc::Receiver<String>);

impl Lines {
    pub fn of(out: impl std::io::Read + Send + 'static) -> Lines {
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Lines(lines)
    }

    /// The next line, trimmed; fails naming `whose` if none came within `DEADLINE` or the
    /// child closed its output.
    pub fn next(&self, whose: &str) -> String {
        match self.0.recv_timeout(DEADLINE) {
            Ok(line) => line.trim().to_owned(),
            Err(e) => panic!("{whose} printed no line within {DEADLINE:?} ({e})"),
        }
    }
}

pub fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// `sheetkeeper check` passes on the database at `db`.
pub fn assert_check(db: &Path, whose: &str) {
    let out = run(db, &["check", "--json"]);
    assert!(out.status.success(), "check on {whose}'s database failed: {}{}", text(&out.stdout), text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], true, "check on {whose}'s database: {report}");
}

/// A `sheetkeeper host` process and what it printed when ready; killed if the test ends
/// (or fails) with it still running.
pub struct HostProcess {
    pub child: Child,
    pub listen: SocketAddr,
    pub code: String,
    /// Kept open: the host prints a new code there after too many wrong ones.
    lines: Lines,
    /// What the host's person types: `approve ID`, `decline ID`, `open`.
    stdin: ChildStdin,
}

impl HostProcess {
    /// Types a line for the host, as its person would.
    pub fn type_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the host reads its input");
    }

    /// Reads the host's next printed line.
    pub fn next_line(&mut self) -> String {
        self.lines.next("the host")
    }
}

impl Drop for HostProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn host_process(db: &Path, game: Uuid, listen: SocketAddr) -> HostProcess {
    let mut child = cli(db)
        .args(["host", "--game", &game.to_string(), "--listen", &listen.to_string()])
        .stdout(Stdio::piped())
        .stdin(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let lines = Lines::of(child.stdout.take().unwrap());
    let line = lines.next("the host");
    assert!(line.starts_with(&format!("hosting game={game} listen=")), "the host printed {line:?}");
    let field = |name: &str| {
        line.split_whitespace().find_map(|w| w.strip_prefix(name)).unwrap_or_else(|| panic!("no {name} in {line:?}"))
    };
    let listen = field("listen=").parse().unwrap();
    let code = field("code=").to_owned();
    HostProcess { child, listen, code, lines, stdin }
}

/// Ctrl-C: the process ends by itself (failing the test if it has not within `DEADLINE`).
pub fn interrupt(child: &mut Child) -> std::process::ExitStatus {
    let ok = Command::new("kill").arg("-INT").arg(child.id().to_string()).status().unwrap();
    assert!(ok.success());
    wait_or_kill(child, DEADLINE, "the interrupted process")
}

/// kill -9: no chance to clean up.
pub fn kill9(child: &mut Child) {
    child.kill().unwrap();
    child.wait().unwrap();
}

/// An NSU game on `s` with these characters: the game's id.
pub fn nsu_game(s: &Scratch, name: &str, characters: &[&str]) -> Uuid {
    crate::support::game_with(&mut s.open(), name, "nsu", characters).game.id
}

/// The host's database with the NSU game "Valley" and its character Wren, and an empty one
/// for the player's device: both, the game's id and Wren's.
pub fn valley_with_wren() -> (Scratch, Scratch, Uuid, Uuid) {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren"]);
    let wren = character(&h.db(), "Wren");
    (h, p, game, wren)
}

/// The host of `game` on `h`, and the device on `p` called `name` paired with its code and
/// caught up.
pub fn paired(h: &Scratch, p: &Scratch, game: Uuid, name: &str) -> (HostHandle, JoinHandle) {
    let host = host(h, game);
    let j = joined(p, addr(&host), Some(&host.status().code), name);
    (host, j)
}

/// `paired`, and the device has claimed `character` (the host's person approving).
pub fn paired_playing(h: &Scratch, p: &Scratch, game: Uuid, name: &str, character: Uuid) -> (HostHandle, JoinHandle) {
    let (host, j) = paired(h, p, game, name);
    claim(&host, &j, &p.db(), character);
    (host, j)
}

/// The host of `game` on `h` and two devices paired with its code, each then claiming its
/// character (the host's person approving): `(device, name, character)` for each.
pub fn two_playing(
    h: &Scratch,
    game: Uuid,
    [(pa, a_name, a), (pb, b_name, b)]: [(&Scratch, &str, Uuid); 2],
) -> (HostHandle, JoinHandle, JoinHandle) {
    let host = host(h, game);
    let code = host.status().code;
    let ja = joined(pa, addr(&host), Some(&code), a_name);
    let jb = joined(pb, addr(&host), Some(&code), b_name);
    claim(&host, &ja, &pa.db(), a);
    claim(&host, &jb, &pb.db(), b);
    (host, ja, jb)
}

/// The NSU game "Valley" on `h` with Wren and Tobias, each played on a phone of their own
/// (`pa` Wren's, `pb` Tobias's) paired and claiming with the host's approval: the game's id,
/// Wren's and Tobias's, and the link (the host, Wren's phone, Tobias's phone).
pub fn valley_on_two_phones(
    h: &Scratch,
    pa: &Scratch,
    pb: &Scratch,
) -> (Uuid, (Uuid, Uuid), (HostHandle, JoinHandle, JoinHandle)) {
    let game = nsu_game(h, "Valley", &["Wren", "Tobias"]);
    let (wren, tobias) = (character(&h.db(), "Wren"), character(&h.db(), "Tobias"));
    let link = two_playing(h, game, [(pa, "Wren's phone", wren), (pb, "Tobias's phone", tobias)]);
    (game, (wren, tobias), link)
}

/// Ends the link (the device, then the host); then `sheetkeeper check` passes on each
/// database given with whose it is.
pub fn closed_and_checked(j: JoinHandle, host: HostHandle, dbs: &[(&Path, &str)]) {
    drop(j);
    drop(host);
    for (db, whose) in dbs {
        assert_check(db, whose);
    }
}
