//! The host goes away and comes back: a change made meanwhile arrives without a code; one
//! the host refuses is kept with its reason, and the device shows the host's version.

use sheetkeeper::services;

use super::*;

/// Wren's phone pairs with `first` (listening at `listen`), claims Wren, and sees the link
/// end when `first` stops; then the phone changes Wren while the host is away.
fn wren_claimed_then_changed_while_the_host_is_away(
    p: &Scratch,
    game: Uuid,
    wren: Uuid,
    (first, listen): (HostHandle, SocketAddr),
) {
    let j = joined(p, listen, Some(&first.status().code), "Wren's phone");
    claim(&first, &j, &p.db(), wren);
    eventually("Wren is the player's own", || mine(&p.db(), game) == vec![wren]);
    first.stop();
    eventually("the link ends", || j.status().state == LinkState::Ended);
    drop(j);
    // Offline: the player keeps working on its character.
    set_look(&p.db(), wren, "Changed while the table was away");
}

#[test]
fn a_change_made_while_the_host_was_away_arrives_when_it_is_back_on_a_new_port() {
    let (h, p, game, wren) = valley_with_wren();
    let first = host(&h, game);
    let listen = addr(&first);
    wren_claimed_then_changed_while_the_host_is_away(&p, game, wren, (first, listen));
    // `sheetkeeper host` listens on a free port unless told otherwise: a new one.
    let second = host(&h, game);
    let j = join(&p, addr(&second), None, "Wren's phone");
    let status = j.wait(DEADLINE);
    assert!(status.caught_up, "a paired device rejoins a table on its new port without a code: {status:?}");
    eventually("the change made meanwhile arrives", || {
        look(&h.db(), wren).as_deref() == Some("Changed while the table was away")
    });
}

#[test]
fn a_change_made_while_the_host_was_away_arrives_when_it_is_back_and_one_it_refuses_is_kept() {
    let (h, p, game, wren) = valley_with_wren();
    let listen = free_addr();
    let first = host_on(&h, game, listen);
    wren_claimed_then_changed_while_the_host_is_away(&p, game, wren, (first, listen));
    let second = host_on(&h, game, listen);
    let j = joined(&p, listen, None, "Wren's phone");
    eventually("the change made meanwhile arrives", || {
        look(&h.db(), wren).as_deref() == Some("Changed while the table was away")
    });
    caught_up(&j, "the player is caught up");
    assert!(services::link_refused(&p.open(), game).unwrap().is_empty());
    second.stop();
    eventually("the link ends", || j.status().state == LinkState::Ended);
    drop(j);

    // Both change Wren while apart: the host's change came first, the player's is refused.
    set_look(&h.db(), wren, "The table's version");
    set_look(&p.db(), wren, "The player's version");
    let third = host_on(&h, game, listen);
    let j = join(&p, listen, None, "Wren's phone");
    eventually("the refused change is listed on the player's device", || {
        !services::link_refused(&p.open(), game).unwrap().is_empty()
    });
    let refused = services::link_refused(&p.open(), game).unwrap();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!((refused[0].character_id, refused[0].name.as_str()), (wren, "Wren"));
    assert!(refused[0].reason.contains("changed at the table meanwhile"), "{}", refused[0].reason);
    assert!(refused[0].record.to_string().contains("The player's version"), "the refused change is kept whole");
    eventually("the player's copy shows the host's version", || {
        look(&p.db(), wren).as_deref() == Some("The table's version")
    });
    caught_up(&j, "the player is caught up");
    assert_eq!(look(&h.db(), wren).as_deref(), Some("The table's version"), "never a silent overwrite");
    assert_eq!(services::link_refused(&p.open(), game).unwrap().len(), 1, "listed once");

    // Dismissed, it is gone; the player can change Wren again on the host's version.
    services::link_dismiss_refused(&mut p.open(), refused[0].id).unwrap();
    assert!(services::link_refused(&p.open(), game).unwrap().is_empty());
    set_look(&p.db(), wren, "The player's next version");
    eventually("the next change arrives", || look(&h.db(), wren).as_deref() == Some("The player's next version"));
    drop(j);
    drop(third);
    assert_check(&h.db(), "the host");
    assert_check(&p.db(), "the player");
}
