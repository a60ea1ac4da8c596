//! kill -9 of the host process and of a joined `join` process in the middle of a stream of
//! changes: both databases stay sound, and a rejoin catches up.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use super::*;

/// Changes Wren on the player's database and Ash on the host's, over and over, until told
/// to stop; counts the rounds done.
struct Stream {
    stop: Arc<AtomicBool>,
    rounds: Arc<AtomicUsize>,
    thread: std::thread::JoinHandle<()>,
}

impl Stream {
    fn start(player: std::path::PathBuf, host: std::path::PathBuf, wren: Uuid, ash: Uuid) -> Stream {
        let (stop, rounds) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
        let (s, r) = (stop.clone(), rounds.clone());
        let thread = std::thread::spawn(move || {
            let mut i = 0;
            while !s.load(Ordering::SeqCst) {
                i += 1;
                set_look(&player, wren, &format!("player {i}"));
                set_look(&host, ash, &format!("table {i}"));
                r.store(i, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(15));
            }
        });
        Stream { stop, rounds, thread }
    }

    fn wait_rounds(&self, more: usize) {
        let target = self.rounds.load(Ordering::SeqCst) + more;
        eventually("the stream of changes goes on", || self.rounds.load(Ordering::SeqCst) >= target);
    }

    fn stop(self) {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().expect("the stream of changes never failed");
    }
}

fn number(look: Option<String>, prefix: &str) -> usize {
    look.and_then(|l| l.strip_prefix(prefix).and_then(|n| n.parse().ok())).unwrap_or(0)
}

#[test]
fn kill_9_of_the_host_and_of_a_joined_device_mid_stream_leaves_both_sound_and_a_rejoin_catches_up() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren", "Ash"]);
    let (wren, ash) = (character(&h.db(), "Wren"), character(&h.db(), "Ash"));
    let listen = free_addr();
    let mut host = host_process(&h.db(), game, listen);
    let addr = listen.to_string();
    let mut joiner = cli(&p.db())
        .args(["join", &addr, "--code", &host.code, "--claim", &wren.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let line = Lines::of(joiner.stdout.take().unwrap()).next("the joining device");
    assert_eq!(line, format!("joined game={game}"));
    // The host's person approves the claim, as printed.
    let asked = host.next_line();
    assert!(asked.starts_with("claim device=") && asked.contains(&format!("character={wren}")), "{asked}");
    host.type_line(&format!("approve {wren}"));
    eventually("Wren is the player's", || mine(&p.db(), game) == vec![wren]);

    let stream = Stream::start(p.db(), h.db(), wren, ash);
    eventually("the player's changes flow to the host", || number(look(&h.db(), wren), "player ") >= 5);
    eventually("the table's changes flow to the player", || number(look(&p.db(), ash), "table ") >= 5);

    kill9(&mut host.child);
    stream.wait_rounds(10);
    assert_check(&h.db(), "the killed host");
    assert_check(&p.db(), "the player");
    // The host comes back on the same address; the following `join` finds it by itself.
    let mut host = host_process(&h.db(), game, listen);
    let before = number(look(&p.db(), wren), "player ");
    eventually("the player's changes flow again", || number(look(&h.db(), wren), "player ") > before);
    let before = number(look(&h.db(), ash), "table ");
    eventually("the table's changes flow again", || number(look(&p.db(), ash), "table ") > before);

    kill9(&mut joiner);
    stream.wait_rounds(10);
    stream.stop();
    assert_check(&h.db(), "the host");
    assert_check(&p.db(), "the killed player");

    // A rejoin catches up both ways.
    let out = run(&p.db(), &["join", &addr, "--once"]);
    assert!(out.status.success(), "rejoin: {}", text(&out.stderr));
    eventually("the host has the player's last change", || look(&h.db(), wren) == look(&p.db(), wren));
    assert_eq!(look(&p.db(), ash), look(&h.db(), ash), "the player has the table's last change");
    assert!(number(look(&p.db(), ash), "table ") > 10);
    assert_eq!(interrupt(&mut host.child).code(), Some(0));
    assert_check(&h.db(), "the host");
    assert_check(&p.db(), "the player");
}
