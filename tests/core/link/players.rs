//! A player at the table who knows the code and edits their own device's database (the
//! security review of 2026-11-28): they take no other device's place, a snapshot touches no
//! other game, guessing the code is bounded, claims wait for the host's person, and a
//! well-authenticated device still cannot make the host hold what it should not.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use sheetkeeper::link::wire::{self, Channel, Frames, Opening, OpeningReply, ToDevice, ToHost, PROTOCOL};
use sheetkeeper::link::Claimed;
use sheetkeeper::services;

use super::*;

/// H1: an attacker who learnt a paired device's id (it is no secret) and knows the code
/// pairs under that id with a key of its own: refused; the victim keeps its place, its
/// character and its views.
#[test]
fn a_pairing_under_a_paired_devices_id_is_refused_and_the_device_keeps_its_place() {
    let (h, victim, attacker) = (Scratch::new(), Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Ada", "Bo"]);
    let ada = character(&h.db(), "Ada");
    let mut host = host_process(&h.db(), game, loopback());
    let addr = host.listen.to_string();
    let v = joined(&victim, host.listen, Some(&host.code), "Ada's phone");
    let device = device_id(&victim.db());
    v.claim(ada).unwrap();
    assert!(host.next_line().contains(&format!("character={ada}")));
    host.type_line(&format!("approve {ada}"));
    eventually("Ada is the victim's", || mine(&victim.db(), game) == vec![ada]);
    drop(v);

    // The attacker writes the victim's id with a key of its own into its database.
    services::list(&attacker.open()).unwrap();
    let conn = rusqlite::Connection::open(attacker.db()).unwrap();
    conn.execute("INSERT INTO link_identity VALUES (1, ?1, randomblob(32), randomblob(32))", [device.to_string()])
        .unwrap();
    drop(conn);
    let out = run(&attacker.db(), &["join", &addr, "--code", &host.code, "--once", "--name", "Attacker"]);
    assert_eq!(out.status.code(), Some(1), "the takeover is refused: {}", text(&out.stdout));
    assert!(text(&out.stderr).contains("already has this device's id"), "{}", text(&out.stderr));
    assert_eq!(mine(&attacker.db(), game), Vec::<Uuid>::new(), "the attacker plays nothing");
    assert!(services::list(&attacker.open()).unwrap().is_empty(), "and holds nothing of the game");

    let devices = services::link_devices(&h.open(), Some(game)).unwrap();
    assert_eq!(devices.len(), 1, "{devices:?}");
    assert_eq!((devices[0].peer.name.as_str(), &devices[0].characters), ("Ada's phone", &vec![ada]));
    // The victim comes back by its key, still Ada's player.
    let out = run(&victim.db(), &["join", &addr, "--once"]);
    assert!(out.status.success(), "the victim comes back: {}", text(&out.stderr));
    assert_eq!(mine(&victim.db(), game), vec![ada]);
    assert_eq!(interrupt(&mut host.child).code(), Some(0));
    assert_check(&h.db(), "the host");
}

/// M1, the honest way it happens: a player's character file was imported by the Gamemaster,
/// who moved the character into the hosted game. On the player's device that id lives in
/// the player's own game: the join stops with a reason it can act on, and nothing there
/// moves or changes.
#[test]
fn a_snapshot_holding_a_character_of_another_game_here_changes_nothing_and_says_why() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let own_game = nsu_game(&p, "Saturday Night Stakes", &["Dolly Marsh"]);
    let dolly = character(&p.db(), "Dolly Marsh");
    let file = p.file("dolly.sheetkeeper.json");
    services::export(&p.open(), services::ExportScope::Character(dolly), &file).unwrap();
    let hosted = nsu_game(&h, "Riverboat", &["Ada Quill"]);
    services::import(&mut h.open(), &file, Default::default()).unwrap();
    services::move_character(&mut h.open(), dolly, hosted).unwrap();
    set_look(&h.db(), dolly, "As the table has her");
    let before = fingerprint(&p.db());

    let host = host(&h, hosted);
    let j = join(&p, addr(&host), Some(&host.status().code), "Dolly's phone");
    let status = j.wait(DEADLINE);
    assert_eq!(status.state, LinkState::Ended, "{status:?}");
    let message = status.message.unwrap_or_default();
    assert!(
        message.contains("same id") && message.contains("Saturday Night Stakes") && message.contains("Dolly Marsh"),
        "the reason names the character and the game here: {message}"
    );
    drop(j);
    let list = services::list(&p.open()).unwrap();
    assert_eq!(list.len(), 1, "the table's game was not brought in");
    assert_eq!((list[0].game.id, list[0].characters[0].id), (own_game, dolly), "Dolly stays in her game");
    assert_eq!(look(&p.db(), dolly), Some(String::new()), "and unchanged");
    let after = fingerprint(&p.db());
    assert_eq!(after.split(" peers=").next(), before.split(" peers=").next(), "no record and no event changed");
    assert_check(&p.db(), "the player");
    drop(host);
}

/// M1: a game of this device's own whose id the table's game has (its file went to the
/// Gamemaster, or a host chose the id) is not overwritten by joining.
#[test]
fn a_table_with_the_id_of_a_game_of_this_devices_own_does_not_overwrite_it() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let own = nsu_game(&p, "My own campaign", &["Mine"]);
    let file = p.file("game.sheetkeeper.json");
    services::export(&p.open(), services::ExportScope::Game(own), &file).unwrap();
    services::import(&mut h.open(), &file, Default::default()).unwrap();
    services::rename_game(&mut h.open(), own, "The host's version").unwrap();
    let before = fingerprint(&p.db());
    let host = host(&h, own);
    let j = join(&p, addr(&host), Some(&host.status().code), "Phone");
    let status = j.wait(DEADLINE);
    assert_eq!(status.state, LinkState::Ended, "{status:?}");
    assert!(status.message.unwrap_or_default().contains("of its own"), "{:?}", j.status());
    drop(j);
    assert_eq!(fingerprint(&p.db()), before, "nothing changed here");
    drop(host);
}

/// M4: each wrong code waits longer, three replaced codes pause pairing for everyone but
/// the devices already paired, and the host's person opens it again.
#[test]
fn wrong_codes_pause_pairing_until_the_hosts_person_opens_it_again() {
    let (h, paired, guesser, late) = (Scratch::new(), Scratch::new(), Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren"]);
    let host = host(&h, game);
    let addr = addr(&host);
    drop(joined(&paired, addr, Some(&host.status().code), "Paired"));
    let first = host.status().code_number;
    for n in 1..=(TRIES * CODES) {
        let j = join(&guesser, addr, Some(&wrong(&host.status().code)), "Guesser");
        assert_eq!(j.wait(DEADLINE).state, LinkState::WrongCode, "wrong code {n}");
        assert_eq!(host.status().wrong_codes, n);
    }
    let status = host.status();
    assert!(status.pairing_paused, "{status:?}");
    assert_eq!(status.code_number, first + CODES, "a new code after every third wrong one");
    // Even the right code pairs no more; the device is told why.
    let j = join(&late, addr, Some(&status.code), "Late");
    let refused = j.wait(DEADLINE);
    assert_eq!(refused.state, LinkState::Ended, "{refused:?}");
    assert!(refused.message.unwrap_or_default().contains("paused"), "{:?}", j.status());
    drop(j);
    assert!(services::list(&late.open()).unwrap().is_empty(), "nothing came in");
    // A paired device still comes back by its key.
    drop(joined(&paired, addr, None, "Paired"));

    host.open_pairing();
    let status = host.status();
    assert!(!status.pairing_paused && status.wrong_codes == 0, "{status:?}");
    drop(joined(&late, addr, Some(&status.code), "Late"));
    drop(host);
}

const TRIES: u32 = sheetkeeper::link::host::TRIES_PER_CODE;
const CODES: u32 = sheetkeeper::link::host::CODES_BEFORE_PAUSE;

/// L5: a claim of a character no device plays waits for the host's person, who may say no.
#[test]
fn a_declined_claim_gives_the_device_nothing_and_tells_it_why() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Cy"]);
    let cy = character(&h.db(), "Cy");
    let (host, j) = paired(&h, &p, game, "Bo's phone");
    assert_eq!(j.claim(cy).unwrap(), Claimed::Asked);
    let request = host.status().claims[0].clone();
    host.decline_claim(request.device, cy).unwrap();
    eventually("the device hears the table's no", || j.status().claims.iter().any(|c| c.declined.is_some()));
    let said = j.status().claims[0].declined.clone().unwrap();
    assert!(said.contains("declined") && said.contains("Cy"), "{said}");
    assert!(mine(&p.db(), game).is_empty());
    assert_eq!(count(&h.db(), "SELECT count(*) FROM link_owners"), 0);
    drop(j);
    drop(host);
}

/// L6: a refusal names no character of another game on the host.
#[test]
fn a_claim_or_note_for_a_character_of_another_game_on_the_host_reveals_no_name() {
    let (h, p, game, wren) = valley_with_wren();
    nsu_game(&h, "Secret campaign", &["Tobias Reed"]);
    let tobias = character(&h.db(), "Tobias Reed");
    let (host, j) = paired_playing(&h, &p, game, "Phone", wren);
    let err = j.claim(tobias).unwrap_err().to_string();
    assert!(err.contains("not at this table") && !err.contains("Tobias"), "{err}");
    let note = services::Note::NsuHelp {
        roller: tobias,
        helper: sheetkeeper::rules::nsu::roll::RemoteHelper {
            name: "Wren".into(),
            die: sheetkeeper::rules::nsu::Die::D6,
            edge: sheetkeeper::rules::nsu::roll::Edge::None,
        },
        faces: vec![3],
    };
    let err = j.send_note(note).unwrap_err().to_string();
    assert!(err.contains("not at this table") && !err.contains("Tobias"), "{err}");
    drop(j);
    drop(host);
}

/// L8: a backup file holds no link identity: whoever holds it cannot come back to a table
/// as this device.
#[test]
fn a_backup_carries_no_link_key() {
    let (h, p, game, _) = valley_with_wren();
    let (host, j) = paired(&h, &p, game, "Phone");
    drop(j);
    let key: Vec<u8> = rusqlite::Connection::open(p.db())
        .unwrap()
        .query_row("SELECT private_key FROM link_identity", [], |r| r.get(0))
        .unwrap();
    let backup = p.file("backup.db");
    let out = run(&p.db(), &["backup", backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(count(&backup, "SELECT count(*) FROM link_identity"), 0);
    let bytes = std::fs::read(&backup).unwrap();
    assert!(!bytes.windows(key.len()).any(|w| w == key.as_slice()), "the private key's bytes are not in the file");
    assert_eq!(count(&backup, "SELECT count(*) FROM link_peers"), 1, "the pairings are listed, but no key to use them");
    assert_check(&backup, "the backup");
    // The backup, restored, pairs again only with the table's code.
    let config = sheetkeeper::link::JoinConfig { db: backup, addr: addr(&host), code: None, name: "Restored".into() };
    let j = sheetkeeper::link::JoinHandle::start(config);
    let status = j.wait(DEADLINE);
    assert_ne!(status.state, LinkState::Linked, "{status:?}");
    drop(j);
    drop(host);
}

// ---- a paired device speaking the protocol by hand, with its own key ----

/// A paired device's connection opened by hand: the key from its database, the welcome
/// and first snapshot read.
async fn resume(db: &Path, addr: SocketAddr) -> Channel {
    let identity = services::link_identity(&mut open(db), || unreachable!("paired")).unwrap();
    let mut frames = Frames::new(tokio::net::TcpStream::connect(addr).await.unwrap());
    frames.send_clear(&Opening::Resume { protocol: PROTOCOL }).await.unwrap();
    let reply: OpeningReply = frames.recv_clear().await.unwrap();
    assert!(matches!(reply, OpeningReply::Resume {}), "{reply:?}");
    let (noise, remote) = wire::handshake_initiator(&mut frames, &identity.private_key, None).await.ok().unwrap();
    let mut channel = Channel::new(frames, noise, remote);
    channel
        .send(&ToHost::Hello { protocol: PROTOCOL, device: identity.device_id, name: "By hand".into(), holds: None })
        .await
        .unwrap();
    assert!(matches!(channel.recv::<ToDevice>().await.unwrap(), ToDevice::Welcome { .. }));
    assert!(matches!(channel.recv::<ToDevice>().await.unwrap(), ToDevice::Snapshot { .. }));
    channel
}

/// The next message that is not a snapshot, or None when the host closed the connection.
async fn next_answer(channel: &mut Channel) -> Option<ToDevice> {
    loop {
        match channel.recv::<ToDevice>().await {
            Ok(ToDevice::Snapshot { .. } | ToDevice::Patch { .. }) => continue,
            Ok(other) => return Some(other),
            Err(_) => return None,
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// L3 and L7: a paired device's oversized message, and a message with a field it does not
/// have, close its connection; nothing is answered or held.
#[test]
fn an_oversized_or_unknown_field_message_from_a_paired_device_closes_its_connection() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren"]);
    let host = host(&h, game);
    let addr = addr(&host);
    drop(joined(&p, addr, Some(&host.status().code), "Phone"));
    let before = fingerprint(&h.db());
    runtime().block_on(async {
        let mut channel = resume(&p.db(), addr).await;
        channel.send(&serde_json::json!({"kind": "ping"})).await.unwrap();
        assert!(matches!(next_answer(&mut channel).await, Some(ToDevice::Pong {})), "a plain ping is answered");
        channel.send(&serde_json::json!({"kind": "ping", "x": 1})).await.unwrap();
        assert!(next_answer(&mut channel).await.is_none(), "a ping with an unknown field closes the connection");

        let mut channel = resume(&p.db(), addr).await;
        let big = "x".repeat(3 * 1024 * 1024);
        let change = ToHost::Change { id: Uuid::new_v4(), document: serde_json::json!({ "junk": big }), base: None };
        let _ = channel.send(&change).await; // the host may close before it is all sent
        assert!(next_answer(&mut channel).await.is_none(), "a 3 MiB message closes the connection unanswered");
    });
    assert_eq!(fingerprint(&h.db()), before);
    assert_eq!(host.status().online, Vec::<Uuid>::new());
    drop(host);
}

/// L4: a device that crashed after the host applied its change sends it again with the old
/// base: the same content is taken as done, not refused as "changed meanwhile".
#[test]
fn a_change_sent_again_after_a_crash_is_taken_as_done() {
    let (h, p, game, wren) = valley_with_wren();
    let (host, j) = paired_playing(&h, &p, game, "Phone", wren);
    let addr = addr(&host);
    drop(j);
    set_look(&p.db(), wren, "Sent twice");
    let (pending, _) = services::joined_pending(&mut p.open(), game, &Default::default(), true).unwrap();
    let change = pending.into_iter().find(|c| c.character == wren).expect("the change waits to be sent");
    let (document, base) = (change.document, change.base);
    runtime().block_on(async {
        let mut channel = resume(&p.db(), addr).await;
        for n in 1..=2 {
            let id = Uuid::new_v4();
            channel.send(&ToHost::Change { id, document: document.clone(), base: base.clone() }).await.unwrap();
            match next_answer(&mut channel).await {
                Some(ToDevice::Answer { id: answered, refused: None, .. }) => assert_eq!(answered, id),
                other => panic!("send {n}: {other:?}"),
            }
        }
    });
    assert_eq!(look(&h.db(), wren).as_deref(), Some("Sent twice"));
    assert_eq!(services::nsu_sheet(&h.open(), wren).unwrap().character.revision, 2, "applied once");
    drop(host);
}

/// L1: a clear-text "refused" put in place of the host's welcome by someone on the path
/// does not end a paired device's link, and its words are not shown.
#[test]
fn a_forged_clear_text_refusal_does_not_end_a_paired_devices_link() {
    let (h, p, game, _) = valley_with_wren();
    let (host, j) = paired(&h, &p, game, "Phone");
    drop(j);
    let relay = ForgingRelay::start(addr(&host));
    let j = join(&p, relay.addr, None, "Phone");
    eventually("the forged refusal went out", || relay.forged());
    let status = caught_up(&j, "the device links on its next try");
    assert_eq!(status.state, LinkState::Linked);
    assert!(!format!("{:?}", j.status()).contains("SPOOFED"));
    drop(j);
    drop(host);
}

/// Between a device and the host; on the first connection it replaces the host's third
/// frame (the encrypted welcome) by a clear-text refusal, then closes it.
struct ForgingRelay {
    addr: SocketAddr,
    forged: Arc<AtomicBool>,
}

impl ForgingRelay {
    fn start(upstream: SocketAddr) -> ForgingRelay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let forged = Arc::new(AtomicBool::new(false));
        let done = forged.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(mut client) = client else { continue };
                let Ok(mut host) = TcpStream::connect(upstream) else { continue };
                let (mut c2, mut h2) = (client.try_clone().unwrap(), host.try_clone().unwrap());
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut c2, &mut h2);
                });
                let tamper = !done.load(Ordering::SeqCst);
                let done = done.clone();
                std::thread::spawn(move || {
                    for n in 1.. {
                        let mut len = [0u8; 4];
                        if host.read_exact(&mut len).is_err() {
                            break;
                        }
                        let mut body = vec![0u8; u32::from_be_bytes(len) as usize];
                        if host.read_exact(&mut body).is_err() {
                            break;
                        }
                        if tamper && n == 3 {
                            let forged = br#"{"kind":"refused","reason":"removed from the table (SPOOFED)"}"#;
                            let mut frame = (forged.len() as u32).to_be_bytes().to_vec();
                            frame.extend_from_slice(forged);
                            let _ = client.write_all(&frame);
                            done.store(true, Ordering::SeqCst);
                            let _ = client.shutdown(std::net::Shutdown::Both);
                            break;
                        }
                        if client.write_all(&len).and_then(|()| client.write_all(&body)).is_err() {
                            break;
                        }
                    }
                });
            }
        });
        ForgingRelay { addr, forged }
    }

    fn forged(&self) -> bool {
        self.forged.load(Ordering::SeqCst)
    }
}

/// A table that starts with no characters: the first one made on a joined device reaches
/// the host and is that device's.
#[test]
fn a_character_made_at_a_table_without_characters_reaches_the_host() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &[]);
    let (host, j) = paired(&h, &p, game, "Phone");
    let made = services::create_character(&mut p.open(), game, "Wren").unwrap();
    eventually("the new character reaches the host", || look(&h.db(), made.id).is_some());
    eventually("and is the device's", || mine(&p.db(), game) == vec![made.id]);
    drop(j);
    drop(host);
}

/// L9: a joined device's copy holds stand-ins where the table kept secrets (a hidden die's
/// 1, the ledger without purses): it is never exported as the game's real state, while
/// joined or after leaving; the player's own character still is.
#[test]
fn a_table_copy_with_stand_ins_is_not_exported_as_a_game() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let mut store = h.open();
    let game = services::create_game(&mut store, "Heist", "penny_ante").unwrap().game.id;
    let ada = services::penny_create_character(&mut store, game, "Ada", "Strong", 30).unwrap().view.players[0].id;
    drop(store);
    nsu_game(&p, "My own", &["Mine"]);
    let (host, j) = paired_playing(&h, &p, game, "Ada's phone", ada);
    drop(j);
    drop(host);

    let file = p.file("heist.sheetkeeper.json");
    for when in ["joined", "after leaving"] {
        let out = run(&p.db(), &["export", "--game", &game.to_string(), file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{when}: {}", text(&out.stdout));
        assert!(text(&out.stderr).contains("stand-ins"), "{when}: {}", text(&out.stderr));
        assert!(!file.exists(), "{when}: nothing written");

        let all = p.file(&format!("all-{}.sheetkeeper.json", when.len()));
        let out = run(&p.db(), &["export", "--all", all.to_str().unwrap()]);
        assert!(out.status.success(), "{when}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("Left out") && text(&out.stdout).contains("“Heist”"), "{when}");
        let written = std::fs::read_to_string(&all).unwrap();
        assert!(written.contains("My own") && !written.contains(&game.to_string()), "{when}: only its own game");

        let mine = p.file(&format!("ada-{}.sheetkeeper.json", when.len()));
        let out = run(&p.db(), &["export", "--character", &ada.to_string(), mine.to_str().unwrap()]);
        assert!(out.status.success(), "{when}: the player's own character exports: {}", text(&out.stderr));

        let table = services::link_devices(&p.open(), None).unwrap()[0].peer.device_id;
        if when == "joined" {
            let done = services::link_unpair(&mut p.open(), table).unwrap();
            assert!(done.message.contains("stand-ins"), "{}", done.message);
        }
    }
}
