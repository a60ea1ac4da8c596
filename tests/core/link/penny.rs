//! A Penny Ante challenge across two player devices: each side's moves from its own device,
//! through the host; each side's cup stays on its own device until the reveal.

use sheetkeeper::rules::penny_ante::challenge::{Move, Phase, Side, Used};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::services::{self, ChallengeView, DiceInput, GameMove};

use super::*;
use crate::support::{penny_duel, penny_player};

fn challenge(db: &std::path::Path, game: Uuid) -> Option<ChallengeView> {
    services::penny_table(&open(db), game).unwrap().challenge
}

fn mv(j: &JoinHandle, mv: Move, dice: &[u8]) {
    let dice = if dice.is_empty() { DiceInput::Rolled } else { DiceInput::Entered { values: dice.to_vec() } };
    j.submit_move(GameMove::PennyChallenge { mv: mv.clone(), dice }).unwrap_or_else(|e| panic!("{mv:?}: {e}"));
}

/// The faces of a side's rolled dice as stored in the database at `db`, by position.
fn faces(db: &std::path::Path, side: &str) -> Vec<u8> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT face FROM pa_challenge_dice WHERE side = ?1 AND kind = 'rolled' ORDER BY position")
        .unwrap();
    stmt.query_map([side], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

#[test]
fn a_penny_ante_challenge_across_two_player_devices_keeps_each_cup_on_its_own_device() {
    let (h, pa, pb) = (Scratch::new(), Scratch::new(), Scratch::new());
    let mut store = h.open();
    let game = services::create_game(&mut store, "Heist", "penny_ante").unwrap().game.id;
    let ada = penny_player(&mut store, game, "Ada", "Strong", 30);
    let bo = penny_player(&mut store, game, "Bo", "Clever", 25);
    services::penny_start_adventure(&mut store, game, None).unwrap();
    drop(store);
    let (host, ja, jb) = two_playing(&h, game, [(&pa, "Ada's phone", ada), (&pb, "Bo's phone", bo)]);

    penny_duel(&mut h.open(), game, "the vault door", 2, ada, bo);
    eventually("both players see the challenge", || {
        challenge(&pa.db(), game).is_some() && challenge(&pb.db(), game).is_some()
    });
    let (a, b) = (Side::Challenger, Side::Opponent);
    mv(&ja, Move::Circumstance { side: a, name: "Dark night".into(), double_down: false }, &[3]);
    let circumstances = challenge(&pa.db(), game).unwrap().circumstances;
    assert_eq!(circumstances.len(), 1, "Ada's copy shows the move once it returns");
    assert_eq!(circumstances, challenge(&h.db(), game).unwrap().circumstances);

    // Ada's device cannot move for Bo's side.
    let before = fingerprint(&h.db());
    let err = ja.submit_move(GameMove::PennyChallenge { mv: Move::Pass { side: b }, dice: DiceInput::Rolled });
    let err = err.unwrap_err().to_string();
    assert!(err.contains("a side this device does not play"), "{err}");
    assert_eq!(fingerprint(&h.db()), before, "the refused move changed nothing at the table");

    mv(&jb, Move::Pass { side: b }, &[]);
    let strong = vec![Used { owner: Account::Character(ada), text: "Strong".into() }];
    mv(&ja, Move::Characteristics { side: a, used: strong }, &[]);
    let clever = vec![Used { owner: Account::Character(bo), text: "Clever".into() }];
    mv(&jb, Move::Characteristics { side: b, used: clever }, &[]);
    mv(&ja, Move::Roll { side: a }, &[4, 5]);
    mv(&jb, Move::Roll { side: b }, &[2, 6]);
    // Each side's roll is on its own device only.
    eventually("Bo's device has caught up with the rolls", || {
        challenge(&pb.db(), game).is_some_and(|c| c.phase == challenge(&h.db(), game).unwrap().phase)
    });
    assert_eq!(services::penny_private(&pa.open(), game, a, None).unwrap().dice, vec![4, 5]);
    assert_eq!(services::penny_private(&pb.open(), game, b, None).unwrap().dice, vec![2, 6]);
    assert!(services::penny_private(&pb.open(), game, a, None).is_err(), "Bo's device shows no view of Ada's dice");
    // A die someone may not see is stored as a 1 (the redaction's placeholder face).
    assert_eq!(faces(&pa.db(), "challenger"), vec![4, 5], "Ada's roll is on Ada's device");
    assert_eq!(faces(&pb.db(), "challenger"), vec![1, 1], "Ada's roll is not in Bo's database");
    assert_eq!(faces(&pb.db(), "opponent"), vec![2, 6], "Bo's roll is on Bo's device");
    assert_eq!(faces(&pa.db(), "opponent"), vec![1, 1], "Bo's roll is not in Ada's database");

    // Cups: the 5 and the 2 stay hidden, the rest is revealed.
    mv(&ja, Move::Cup { side: a, cup: vec![1] }, &[]);
    mv(&jb, Move::Cup { side: b, cup: vec![0] }, &[]);
    caught_up(&ja, "Ada's device is caught up");
    caught_up(&jb, "Bo's device is caught up");
    // The reveal comes with the snapshot after the second cup: a device caught up a moment
    // before it has not seen it yet (the cups are revealed together).
    eventually("the reveal reaches Ada's device", || faces(&pa.db(), "opponent") == vec![1, 6]);
    eventually("the reveal reaches Bo's device", || faces(&pb.db(), "challenger") == vec![4, 1]);
    let shared = challenge(&pb.db(), game).unwrap();
    assert_eq!((shared.sides[0].revealed.clone(), shared.sides[0].in_cup), (vec![4], 1), "Bo sees Ada's revealed die");
    assert_eq!(faces(&pa.db(), "challenger"), vec![4, 5], "Ada's cup is on Ada's device");
    assert_eq!(faces(&pb.db(), "challenger"), vec![4, 1], "Ada's cup (the 5) is not in Bo's database");
    assert_eq!(faces(&pb.db(), "opponent"), vec![2, 6], "Bo's cup is on Bo's device");
    assert_eq!(faces(&pa.db(), "opponent"), vec![1, 6], "Bo's cup (the 2) is not in Ada's database");

    // Play on to the end, each side from its own device.
    for _ in 0..20 {
        let c = challenge(&h.db(), game).unwrap();
        if c.phase == Phase::Over {
            break;
        }
        // Whose turn it is; both sides, the challenger first, when they move at once.
        let sides = c.turn.map_or(vec![a, b], |side| vec![side]);
        for side in sides {
            if challenge(&h.db(), game).unwrap().phase != c.phase {
                break;
            }
            let next = match c.phase {
                Phase::NewCircumstances => Move::Pass { side },
                Phase::Reroll => Move::Reroll { side },
                Phase::Betting1 | Phase::Betting2 => Move::Stand { side },
                other => panic!("unexpected phase {other:?}"),
            };
            mv(if side == a { &ja } else { &jb }, next, &[]);
        }
    }
    let over = challenge(&h.db(), game).unwrap();
    assert_eq!(over.phase, Phase::Over);
    for (who, db) in [("Ada", pa.db()), ("Bo", pb.db())] {
        eventually(&format!("{who}'s device shows the outcome"), || {
            challenge(&db, game).is_some_and(|c| c.phase == Phase::Over)
        });
        let theirs = challenge(&db, game).unwrap();
        assert_eq!(serde_json::to_value(&theirs.outcome).unwrap(), serde_json::to_value(&over.outcome).unwrap());
        assert_eq!(
            serde_json::to_value(services::penny_table(&open(&db), game).unwrap().players).unwrap(),
            serde_json::to_value(services::penny_table(&h.open(), game).unwrap().players).unwrap(),
            "{who}'s device shows the same piles"
        );
    }
    drop(ja);
    drop(jb);
    drop(host);
    for (who, db) in [("the host", h.db()), ("Ada", pa.db()), ("Bo", pb.db())] {
        assert_check(&db, who);
    }
}
