//! Hostile input: garbage, a truncated frame, an oversized length, a forged frame and a
//! replayed one. Each closes its connection; the host keeps serving the other devices and
//! nothing changes.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};

use sheetkeeper::services;

use super::proxy::{Proxy, Tamper};
use super::*;

/// Sends `bytes` on a fresh connection to the host (`half_close`: then says it sends no
/// more) and waits until the host closes it.
fn closes_after(addr: SocketAddr, bytes: &[u8], half_close: bool, what: &str) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    stream.write_all(bytes).unwrap();
    if half_close {
        stream.shutdown(Shutdown::Write).unwrap();
    }
    let mut sink = Vec::new();
    let start = Instant::now();
    // A clear-text refusal may come first; then the end of the stream.
    let closed = match stream.read_to_end(&mut sink) {
        Ok(_) => true,
        Err(e) => matches!(e.kind(), std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe),
    };
    assert!(closed && start.elapsed() < DEADLINE, "the host did not close the connection after {what}");
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = (body.len() as u32).to_be_bytes().to_vec();
    f.extend_from_slice(body);
    f
}

#[test]
fn hostile_bytes_close_their_connection_and_the_table_keeps_serving_the_others() {
    let (h, a, b) = (Scratch::new(), Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren", "Ash"]);
    let (wren, ash) = (character(&h.db(), "Wren"), character(&h.db(), "Ash"));
    let host = host(&h, game);
    let addr = addr(&host);
    let code = host.status().code;
    // A is linked directly; B through a proxy that tampers with its frames.
    let ja = joined(&a, addr, Some(&code), "A");
    claim(&host, &ja, &a.db(), wren);
    let proxy = Proxy::start(addr);
    let jb = joined(&b, proxy.addr, Some(&code), "B");
    claim(&host, &jb, &b.db(), ash);
    caught_up(&ja, "A is caught up");
    caught_up(&jb, "B is caught up");
    let before = fingerprint(&h.db());

    // Before any handshake: garbage, a truncated frame, a length far over the cap, a
    // well-framed opening that is not one, a pairing message that is not SPAKE2.
    closes_after(addr, b"GET / HTTP/1.1\r\nHost: table\r\n\r\n", false, "garbage");
    closes_after(addr, &[0, 0, 0, 100, b'{', b'"'], true, "a truncated frame");
    closes_after(addr, &[0xff, 0xff, 0xff, 0xff, 1, 2, 3], false, "an oversized length prefix");
    closes_after(addr, &frame(&[0x5a; 300]), false, "a well-framed garbage opening");
    closes_after(
        addr,
        &frame(br#"{"kind":"pair","protocol":1,"spake":"00112233"}"#),
        false,
        "a malformed pairing message",
    );
    assert_eq!(fingerprint(&h.db()), before, "nothing changed on the host");
    assert_eq!(host.status().wrong_tries, 0, "none of this counts as a guessed code");

    // After the handshake: a well-framed frame that does not decrypt (forged).
    proxy.inject(0, &frame(&[7u8; 120]));
    eventually("the host closes the connection that carried a forged frame", || proxy.host_closed(0));
    assert_eq!(fingerprint(&h.db()), before, "nothing changed on the host");
    eventually("B comes back by its key", || proxy.connections() >= 2);
    caught_up(&jb, "B is caught up again");

    // A replayed frame: B's change arrives once, its copy closes the connection.
    let revision = services::nsu_sheet(&h.open(), ash).unwrap().character.revision;
    proxy.tamper_next(Tamper::Duplicate);
    set_look(&b.db(), ash, "Ash, sent twice");
    eventually("the host closes the connection that replayed a frame", || proxy.tampered() && proxy.host_closed(1));
    eventually("B's change arrives", || look(&h.db(), ash).as_deref() == Some("Ash, sent twice"));
    caught_up(&jb, "B is caught up after the replay");
    assert_eq!(
        services::nsu_sheet(&h.open(), ash).unwrap().character.revision,
        revision + 1,
        "the replayed change was applied once"
    );

    // A truncated frame after the handshake: the change in it is not applied from it; B
    // sends it again when it is back.
    let connections = proxy.connections();
    proxy.tamper_next(Tamper::Truncate);
    set_look(&b.db(), ash, "Ash, cut in half");
    eventually("the host closes the connection that cut a frame short", || {
        proxy.tampered() && proxy.host_closed(connections - 1)
    });
    eventually("B's change arrives once it is back", || look(&h.db(), ash).as_deref() == Some("Ash, cut in half"));
    assert_eq!(services::nsu_sheet(&h.open(), ash).unwrap().character.revision, revision + 2);

    // All along, A kept working.
    assert_eq!(ja.status().state, LinkState::Linked, "{:?}", ja.status());
    set_look(&a.db(), wren, "Wren, still linked");
    eventually("A's next change arrives", || look(&h.db(), wren).as_deref() == Some("Wren, still linked"));
    eventually("B sees A's change", || look(&b.db(), wren).as_deref() == Some("Wren, still linked"));
    drop(ja);
    drop(jb);
    drop(host);
    assert_check(&h.db(), "the host");
    assert_check(&a.db(), "A");
    assert_check(&b.db(), "B");
}
