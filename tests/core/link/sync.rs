//! Changes travel both ways between the host and joined devices (two and four devices).

use sheetkeeper::services;
use sheetkeeper::store::PeerSide;

use super::proxy::Proxy;
use super::*;

#[test]
fn a_player_device_pairs_with_the_code_and_changes_travel_both_ways() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren", "Ash"]);
    let (wren, ash) = (character(&h.db(), "Wren"), character(&h.db(), "Ash"));
    let host = host(&h, game);
    let code = host.status().code;
    assert_eq!(code.len(), 7, "a code as shown: {code}");

    let j = joined(&p, addr(&host), Some(&code), "Wren's phone");
    let status = j.status();
    assert_eq!((status.game, status.game_name.as_deref()), (Some(game), Some("Valley")));
    assert_eq!(look(&p.db(), ash), Some(String::new()), "the player's database has the table's game");
    assert!(host.status().online.contains(&device_id(&p.db())));

    // A character no device plays is the player's once the table's person approves.
    assert_eq!(j.claim(wren).unwrap(), Claimed::Asked, "the table's person decides");
    assert_eq!(j.status().claims.len(), 1, "the device knows it waits: {:?}", j.status());
    assert!(mine(&p.db(), game).is_empty(), "not the player's before the approval");
    let asked = host.status().claims;
    assert_eq!(
        (asked.len(), asked[0].character_name.as_str(), asked[0].device_name.as_str()),
        (1, "Wren", "Wren's phone")
    );
    host.approve_claim(asked[0].device, wren).unwrap();
    assert!(host.status().claims.is_empty());
    eventually("the player's database marks Wren, and only Wren, as its own", || mine(&p.db(), game) == vec![wren]);
    eventually("the device no longer waits", || j.status().claims.is_empty());
    assert_eq!(j.claim(wren).unwrap(), Claimed::Yours, "claiming one's own again asks nothing");

    // The player changes Wren on its own database, as its window would.
    set_look(&p.db(), wren, "A green scarf, muddy boots");
    eventually("the host's database shows the player's change", || {
        look(&h.db(), wren).as_deref() == Some("A green scarf, muddy boots")
    });
    let host_wren = services::nsu_sheet(&h.open(), wren).unwrap().character;
    assert_eq!(host_wren.revision, 2, "applied once, as one change");

    // The table changes another character and the game itself.
    set_look(&h.db(), ash, "A grey cloak");
    services::rename_game(&mut h.open(), game, "Valley of Ash").unwrap();
    eventually("the player's database shows the table's changes", || {
        look(&p.db(), ash).as_deref() == Some("A grey cloak")
            && services::list(&p.open()).unwrap().iter().any(|g| g.game.id == game && g.game.name == "Valley of Ash")
    });
    assert_eq!(look(&p.db(), wren).as_deref(), Some("A green scarf, muddy boots"), "the player's change stays");

    // Each side lists the other.
    let on_host = services::link_devices(&h.open(), Some(game)).unwrap();
    assert_eq!(on_host.len(), 1, "{on_host:?}");
    assert_eq!((on_host[0].peer.name.as_str(), on_host[0].peer.side), ("Wren's phone", PeerSide::Host));
    assert_eq!(on_host[0].characters, vec![wren]);
    assert_eq!(on_host[0].peer.device_id, device_id(&p.db()));
    let on_player = services::link_devices(&p.open(), None).unwrap();
    assert_eq!(on_player.len(), 1, "{on_player:?}");
    assert_eq!((on_player[0].peer.name.as_str(), on_player[0].peer.side), ("The table", PeerSide::Joined));

    host.stop();
    eventually("the player sees the link end", || j.status().state == LinkState::Ended);
    assert!(j.status().message.unwrap_or_default().contains("stopped hosting"), "{:?}", j.status());
    j.stop();
    assert_eq!(look(&p.db(), ash).as_deref(), Some("A grey cloak"), "the device keeps its data");
    assert_check(&h.db(), "the host");
    assert_check(&p.db(), "the player");
}

#[test]
fn four_devices_each_with_its_own_character_see_every_change() {
    let h = Scratch::new();
    let names = ["Wren", "Ash", "Moss"];
    let game = nsu_game(&h, "Valley", &["Wren", "Ash", "Moss", "Elder"]);
    let ids: Vec<Uuid> = names.iter().map(|n| character(&h.db(), n)).collect();
    let elder = character(&h.db(), "Elder");
    let host = host(&h, game);
    let code = host.status().code;
    let players: Vec<Scratch> = names.iter().map(|_| Scratch::new()).collect();
    let joins: Vec<JoinHandle> = players
        .iter()
        .zip(names)
        .map(|(p, name)| joined(p, addr(&host), Some(&code), &format!("{name}'s phone")))
        .collect();
    for ((j, p), id) in joins.iter().zip(&players).zip(&ids) {
        claim(&host, j, &p.db(), *id);
    }
    for ((p, id), name) in players.iter().zip(&ids).zip(names) {
        eventually(&format!("{name}'s device marks only {name} as its own"), || mine(&p.db(), game) == vec![*id]);
    }
    // A claimed character cannot be claimed again from another device.
    let err = joins[1].claim(ids[0]).unwrap_err().to_string();
    assert!(err.contains("played from another device"), "{err}");

    // Every player changes its own character; the table changes a character nobody plays.
    for ((p, id), name) in players.iter().zip(&ids).zip(names) {
        set_look(&p.db(), *id, &format!("{name}, as its player sees them"));
    }
    set_look(&h.db(), elder, "The elder, as the table sees them");
    let all: Vec<&Scratch> = std::iter::once(&h).chain(players.iter()).collect();
    for (d, device) in all.iter().enumerate() {
        for (id, name) in ids.iter().zip(names) {
            eventually(&format!("device {d} shows {name}'s change"), || {
                look(&device.db(), *id) == Some(format!("{name}, as its player sees them"))
            });
        }
        eventually(&format!("device {d} shows the table's change"), || {
            look(&device.db(), elder).as_deref() == Some("The elder, as the table sees them")
        });
    }
    for (p, id) in players.iter().zip(&ids) {
        assert_eq!(mine(&p.db(), game), vec![*id], "still only its own");
    }
    let on_host = services::link_devices(&h.open(), Some(game)).unwrap();
    assert_eq!(on_host.len(), 3);
    for (p, id) in players.iter().zip(&ids) {
        let d = on_host.iter().find(|d| d.peer.device_id == device_id(&p.db())).unwrap();
        assert_eq!(d.characters, vec![*id]);
    }
    drop(joins);
    drop(host);
    for (d, device) in all.iter().enumerate() {
        assert_check(&device.db(), &format!("device {d}"));
    }
}

#[test]
fn a_change_made_on_a_device_to_a_character_it_does_not_play_is_kept_as_refused_and_undone() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let game = nsu_game(&h, "Valley", &["Wren", "Ash"]);
    let (wren, ash) = (character(&h.db(), "Wren"), character(&h.db(), "Ash"));
    set_look(&h.db(), ash, "Ash, as the table sees them");
    let (host, j) = paired_playing(&h, &p, game, "Wren's phone", wren);

    set_look(&p.db(), ash, "Wren's player scribbles on Ash");
    eventually("the change to another's character is listed as refused on its device", || {
        services::link_refused(&p.open(), game).unwrap().iter().any(|r| r.character_id == ash)
    });
    let refused = services::link_refused(&p.open(), game).unwrap();
    assert!(refused[0].record.to_string().contains("Wren's player scribbles on Ash"), "the change is kept");
    assert_eq!(look(&h.db(), ash).as_deref(), Some("Ash, as the table sees them"), "it never reached the table");
    // Its copy shows the table's version again (nothing else happens at the table meanwhile).
    eventually("the player's copy of Ash shows the table's version again", || {
        look(&p.db(), ash).as_deref() == Some("Ash, as the table sees them")
    });
    closed_and_checked(j, host, &[(&p.db(), "the player")]);
}

/// A phone's quick taps: a second change made before the host answered the first builds on
/// the host's version with the first in it, so the host takes it (it used to refuse it as
/// "changed at the table meanwhile" and the device went back to the first change).
#[test]
fn a_second_change_made_before_the_first_is_answered_reaches_the_table() {
    let (h, p, game, wren) = valley_with_wren();
    let host = host(&h, game);
    let proxy = Proxy::start(addr(&host));
    let j = joined(&p, proxy.addr, Some(&host.status().code), "Wren's phone");
    claim(&host, &j, &p.db(), wren);
    caught_up(&j, "the player is caught up after the claim");

    proxy.hold();
    set_look(&p.db(), wren, "A green scarf");
    eventually("the table applied the first change (its answer held on the way back)", || {
        look(&h.db(), wren).as_deref() == Some("A green scarf")
    });
    set_look(&p.db(), wren, "A green scarf and a red hat");
    proxy.release();

    eventually("the table applied the second change", || {
        look(&h.db(), wren).as_deref() == Some("A green scarf and a red hat")
    });
    caught_up(&j, "the player is caught up after both changes");
    assert_eq!(look(&p.db(), wren).as_deref(), Some("A green scarf and a red hat"), "the player keeps its change");
    assert!(services::link_refused(&p.open(), game).unwrap().is_empty(), "nothing was refused");
    let host_wren = services::nsu_sheet(&h.open(), wren).unwrap().character;
    assert_eq!(host_wren.revision, 3, "two changes, each applied once");
    j.stop();
    host.stop();
}
