//! Mezzo at a linked table, DEV-1: a player is a viewer in their own right. A joined device
//! asks to sit as a player who claims no character (as it asks for a character); once the
//! table's person approves, the host's snapshot for that device holds that player's hand face
//! up and nobody else's, and the device shows it as its own.

use rand::SeedableRng;
use sheetkeeper::services::{self, CardMove, Changed, ClaimCheck, Copy, CopyUpdate, GameMove};
use sheetkeeper::Error;
use uuid::Uuid;

use crate::mezzo_store::{ADA, BO, GAME};
use crate::support::{bytes_on_disk, uuid, Scratch};

/// The Mezzo plot game: Ada (Actor, claims Mira) holds "a wreck"; Bo, who claims nothing,
/// holds "a ghost"; Cy's "a wedding" is depleted, face down.
#[test]
fn a_joined_player_with_no_character_sees_only_their_own_hand_once_the_table_seats_them() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let (game, ada, bo) = (uuid(GAME), uuid(ADA), uuid(BO));
    let mut host = super::mezzo_plot_table(&h);
    let device = Uuid::new_v4();
    services::host_pair(&mut host, game, device, "Bo's phone", &[3; 32]).unwrap();

    // Bo's phone asks to sit as Bo: the table's person is asked, naming him; nothing changes yet.
    match services::host_claim_check(&host, game, device, bo).unwrap() {
        ClaimCheck::Ask { character_name, device_name } => {
            assert_eq!((character_name.as_str(), device_name.as_str()), ("Bo", "Bo's phone"))
        }
        other => panic!("the table's person decides: {other:?}"),
    }
    let before = services::host_snapshot(&host, game, device).unwrap();
    assert!(before.seats.is_empty() && before.owned.is_empty());
    let text = before.document.to_string();
    assert!(!text.contains("a ghost") && !text.contains("a wreck"), "{text}");

    // Approved: the device sits as Bo. Its snapshot holds Bo's hand, not Ada's nor Cy's.
    services::host_claim(&mut host, game, device, bo).unwrap().unwrap();
    let snapshot = services::host_snapshot(&host, game, device).unwrap();
    assert_eq!((snapshot.seats.clone(), snapshot.owned.clone()), (vec![bo], vec![]));
    let text = snapshot.document.to_string();
    assert!(text.contains("a ghost"), "Bo's own card: {text}");
    for secret in ["a wreck", "a wedding", "a song"] {
        assert!(!text.contains(secret), "{secret} reached Bo's phone: {text}");
    }
    // Another device may not sit as Bo now.
    assert!(matches!(services::host_claim_check(&host, game, Uuid::new_v4(), bo).unwrap(), ClaimCheck::Refused(_)));

    // Bo's phone takes the snapshot: it sits as Bo and shows his hand and influence, not Ada's.
    let mut phone = p.open();
    assert!(services::joined_apply_snapshot(&mut phone, game, &snapshot, &Changed::Whole, &Default::default()).unwrap());
    let seats = services::mezzo_seats(&phone, game).unwrap();
    assert_eq!((seats.sat, seats.mine), (vec![bo], vec![bo]));
    let hand = services::mezzo_hand(&phone, game, bo).unwrap();
    assert_eq!(hand.hand.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["a ghost"]);
    let err = services::mezzo_hand(&phone, game, ada).unwrap_err();
    assert!(matches!(&err, Error::Invalid { field, .. } if field == "player"), "{err}");
    let view = serde_json::to_string(&services::game_view_on_device(&phone, game, None).unwrap()).unwrap();
    assert!(view.contains("a ghost") && !view.contains("a wreck"), "{view}");

    // A snapshot seating the phone as someone who is not a player at the table is refused
    // like a bad file, and changes nothing there.
    let mut hostile = snapshot.clone();
    hostile.seats = vec![Uuid::new_v4()];
    let on_disk = bytes_on_disk(&p.db());
    let err = services::joined_apply_snapshot(&mut phone, game, &hostile, &Changed::Whole, &Default::default());
    assert!(err.is_err(), "a seat that is nobody is refused");
    assert_eq!(bytes_on_disk(&p.db()), on_disk);
}

/// A device already at the table is seated later: the host's next update (a patch, or the
/// whole snapshot) carries the seat, and the device then shows Bo's hand.
#[test]
fn a_seat_given_after_joining_reaches_the_device_with_the_next_update() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let (game, bo) = (uuid(GAME), uuid(BO));
    let mut host = super::mezzo_plot_table(&h);
    let device = Uuid::new_v4();
    services::host_pair(&mut host, game, device, "Bo's phone", &[3; 32]).unwrap();
    let mut phone = p.open();
    let (sent, first) = services::host_copy(&host, game, device, None, false).unwrap();
    let CopyUpdate::Whole(snapshot) = first else { panic!("the first update is whole") };
    assert!(services::joined_apply_snapshot(&mut phone, game, &snapshot, &Changed::Whole, &Default::default()).unwrap());
    let mut held = Copy::of(&snapshot);
    assert!(services::mezzo_hand(&phone, game, bo).is_err(), "not seated yet");

    services::host_claim(&mut host, game, device, bo).unwrap().unwrap();
    let (_, update) = services::host_copy(&host, game, device, Some(sent), false).unwrap();
    let (snapshot, changed) = match update {
        CopyUpdate::Patch(patch) => {
            let (copy, changed) = services::joined_patch(held, &patch).unwrap();
            held = copy;
            (held.view().clone(), changed)
        }
        CopyUpdate::Whole(snapshot) => {
            held = Copy::of(&snapshot);
            (snapshot, Changed::Whole)
        }
        CopyUpdate::Same => panic!("the seat is news to the device"),
    };
    assert_eq!(held.view().seats, vec![bo]);
    assert!(services::joined_apply_snapshot(&mut phone, game, &snapshot, &changed, &Default::default()).unwrap());
    let hand = services::mezzo_hand(&phone, game, bo).unwrap();
    assert_eq!(hand.hand.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["a ghost"]);
}

/// DEV-1 at a linked table: a seated device plays its player's own cards through the table's
/// device, and only that player's: another player's hand, or a device seated as nobody, is
/// refused with the reason and changes nothing at the table.
#[test]
fn a_seated_device_plays_its_own_players_cards_through_the_table_and_no_one_elses() {
    let h = Scratch::new();
    let (game, ada, bo) = (uuid(GAME), uuid(ADA), uuid(BO));
    let (ghost, wreck) = (uuid("71000000-0000-4000-8000-0000000000ca"), uuid("71000000-0000-4000-8000-0000000000cc"));
    let (mut host, phone, stranger) = super::mezzo_plot_table_with_bos_phone(&h);
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let card = |mv| GameMove::MezzoCard { mv };
    let deck = |host: &sheetkeeper::Store| services::mezzo_deck(host, game).unwrap();

    // Ada's card from Bo's phone, and Bo's from a phone that sits as nobody: refused, unchanged.
    let before = deck(&host);
    let refused =
        services::host_apply_move(&mut host, game, phone, &card(CardMove::Play { player: ada, card: wreck }), &mut rng);
    assert!(refused.unwrap().unwrap_err().contains("another player's"));
    let refused = services::host_apply_move(
        &mut host,
        game,
        stranger,
        &card(CardMove::Play { player: bo, card: ghost }),
        &mut rng,
    );
    assert!(refused.unwrap().is_err());
    assert_eq!(deck(&host), before, "a refused move changes nothing at the table");

    // Bo's own card from Bo's phone: the table makes the move, as on its own device.
    services::host_apply_move(&mut host, game, phone, &card(CardMove::Play { player: bo, card: ghost }), &mut rng)
        .unwrap()
        .unwrap();
    let seat = deck(&host).seats.into_iter().find(|s| s.player == bo).unwrap();
    assert!(seat.active.iter().any(|a| a.card.text == "a ghost"), "{seat:?}");

    // The move travels as a message like any other, and a message with an unknown field is refused.
    let wire = serde_json::to_value(card(CardMove::Play { player: bo, card: ghost })).unwrap();
    assert_eq!(wire["mv"]["kind"], "play");
    let mut hostile = wire.clone();
    hostile["mv"]["extra"] = serde_json::json!(1);
    assert!(serde_json::from_value::<GameMove>(hostile).is_err());
}
