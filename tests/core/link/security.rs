//! A wrong code, a listener on the network, a removed device.

use sheetkeeper::services;

use super::proxy::Proxy;
use super::*;
use crate::support::bytes_on_disk;

fn link_rows(db: &std::path::Path) -> i64 {
    ["link_identity", "link_peers", "link_owners", "link_bases", "link_refused"]
        .iter()
        .map(|t| count(db, &format!("SELECT count(*) FROM {t}")))
        .sum()
}

#[test]
fn a_wrong_code_is_refused_changes_nothing_and_three_of_them_replace_the_code() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren"]);
    nsu_game(&p, "At home", &["Someone of mine"]);
    let host = host(&h, game);
    let addr = addr(&host);
    let right = host.status().code;
    let (before, bytes) = (fingerprint(&p.db()), bytes_on_disk(&p.db()));

    let out = run(&p.db(), &["join", &addr.to_string(), "--code", &wrong(&right), "--once"]);
    assert_eq!(out.status.code(), Some(1), "stdout: {}", text(&out.stdout));
    assert!(text(&out.stderr).contains("the code did not match"), "{}", text(&out.stderr));
    assert_eq!(fingerprint(&p.db()), before, "the player's database is unchanged");
    assert_eq!(bytes_on_disk(&p.db()), bytes, "not a byte written");
    assert_eq!(link_rows(&p.db()), 0, "no link rows on the player's database");
    assert_eq!(link_rows(&h.db()) - 1, 0, "the host keeps only its own identity");
    let status = host.status();
    assert_eq!((status.wrong_tries, status.code_number, status.code.as_str()), (1, 1, right.as_str()));

    // Two more wrong codes: the code is replaced.
    for _ in 0..2 {
        let j = join(&p, addr, Some(&wrong(&right)), "Guesser");
        let status = j.wait(DEADLINE);
        assert_eq!(status.state, LinkState::WrongCode, "{status:?}");
    }
    let status = host.status();
    assert_eq!((status.code_number, status.wrong_tries), (2, 0), "{status:?}");
    assert_ne!(status.code, right, "a new code");
    // The old right code works no more.
    let j = join(&p, addr, Some(&right), "Late");
    assert_eq!(j.wait(DEADLINE).state, LinkState::WrongCode, "the replaced code is refused");
    drop(j);
    assert_eq!(fingerprint(&p.db()), before, "still unchanged");
    assert_eq!(link_rows(&p.db()), 0);
    // The new one does.
    let j = joined(&p, addr, Some(&status.code), "On time");
    assert_eq!(j.status().game, Some(game));
    assert_eq!(services::list(&p.open()).unwrap().len(), 2, "its own game stays next to the table's");
    closed_and_checked(j, host, &[(&p.db(), "the player")]);
}

#[test]
fn a_listener_on_the_network_reads_no_name_and_no_sheet() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Quillfeather Hollow", &["Marigold Thistlewood", "Bartholomew Ashgrove"]);
    let (mari, bart) = (character(&h.db(), "Marigold Thistlewood"), character(&h.db(), "Bartholomew Ashgrove"));
    set_look(&h.db(), bart, "A moth-eaten periwinkle waistcoat");
    let host = host(&h, game);
    let proxy = Proxy::start(addr(&host));
    let j = joined(&p, proxy.addr, Some(&host.status().code), "Marigold's phone");
    claim(&host, &j, &p.db(), mari);
    eventually("Marigold is the player's own", || mine(&p.db(), game) == vec![mari]);
    set_look(&p.db(), mari, "Ink-stained velvet gloves");
    eventually("the host gets the player's change", || {
        look(&h.db(), mari).as_deref() == Some("Ink-stained velvet gloves")
    });
    assert_eq!(look(&p.db(), bart).as_deref(), Some("A moth-eaten periwinkle waistcoat"));

    let captured = proxy.captured();
    assert!(captured.len() > 4_000, "the game crossed the proxy ({} bytes)", captured.len());
    let contains = |needle: &str| captured.windows(needle.len()).any(|w| w == needle.as_bytes());
    for secret in [
        "Marigold",
        "Thistlewood",
        "Bartholomew",
        "Quillfeather",
        "periwinkle",
        "velvet gloves",
        "Marigold's phone",
        &game.to_string(),
        &mari.to_string(),
    ] {
        assert!(!contains(secret), "{secret:?} crossed the network in clear");
    }
    drop(j);
    drop(host);
}

#[test]
fn a_removed_device_is_told_and_cannot_come_back_without_a_new_pairing() {
    let (h, p, game, wren) = valley_with_wren();
    let (host, j) = paired_playing(&h, &p, game, "Wren's phone", wren);
    let addr = addr(&host);
    let device = device_id(&p.db());
    let known_code = host.status().code;

    let done = services::link_unpair(&mut h.open(), device).unwrap();
    assert!(done.message.contains("removed"), "{}", done.message);
    eventually("the removed device's link ends", || j.status().state == LinkState::Ended);
    let message = j.status().message.unwrap_or_default();
    assert!(message.contains("removed"), "the device is told why: {message}");
    drop(j);
    assert!(look(&p.db(), wren).is_some(), "the device keeps its data");
    eventually("the host no longer lists it online", || host.status().online.is_empty());

    // Without a code: refused, by the link and by the CLI.
    let j = join(&p, addr, None, "Wren's phone");
    let status = j.wait(DEADLINE);
    assert_eq!(status.state, LinkState::Ended, "{status:?}");
    assert!(status.message.unwrap_or_default().contains("removed"));
    drop(j);
    let out = run(&p.db(), &["join", &addr.to_string(), "--once"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("removed"), "{}", text(&out.stderr));
    let listed = services::link_devices(&h.open(), Some(game)).unwrap();
    assert!(listed[0].peer.removed_at.is_some(), "still listed as removed");

    // The code it knew was replaced when it was removed.
    eventually("a new code after the removal", || host.status().code != known_code);
    let j = join(&p, addr, Some(&known_code), "Wren's phone");
    assert_eq!(j.wait(DEADLINE).state, LinkState::WrongCode, "the old code no longer pairs");
    drop(j);

    // A new pairing with the new code brings it back.
    let j = joined(&p, addr, Some(&host.status().code), "Wren's phone");
    assert!(host.status().online.contains(&device));
    let listed = services::link_devices(&h.open(), Some(game)).unwrap();
    assert!(listed.iter().all(|d| d.peer.removed_at.is_none()), "{listed:?}");
    closed_and_checked(j, host, &[(&h.db(), "the host")]);
}
