//! What a joined device holds of a hidden thing, checked against its whole database — its
//! tables, its event log (every snapshot it imported, before and after) and the bytes of its
//! files: a face-down card, a hidden die or purse, a hidden characteristic never reaches it,
//! and nothing face down there carries an id that its own history shows with a face (audit
//! finding M2: a card reshuffled from the discard pile into the draw pile kept its id, so
//! the joined device's log told it which card would be drawn next).

use std::collections::HashSet;
use std::path::Path;

use rand::{rngs::StdRng, SeedableRng};
use rusqlite::types::ValueRef;
use serde_json::Value;
use sheetkeeper::rules::nsu::world::GridPos;
use sheetkeeper::rules::penny_ante::challenge::{Move, Phase, Side, Used};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::services::{self, DiceInput, ImportOptions, LocationDraft, Viewer};

use super::*;
use crate::mezzo_store::{ADA, CY};
use crate::support::{bytes_on_disk, fixture, penny_heist, uuid, PennyHeist};

/// What a face-down card reads on a joined device.
const FACE_DOWN: &str = "Face-down card";

/// Every value of the database at `db`, table after table, as text: what a person who
/// opens the file can read.
fn whole_db(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut out = String::new();
    for table in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
        let columns = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            for i in 0..columns {
                match row.get_ref(i).unwrap() {
                    ValueRef::Text(t) | ValueRef::Blob(t) => out.push_str(&String::from_utf8_lossy(t)),
                    ValueRef::Integer(n) => out.push_str(&n.to_string()),
                    ValueRef::Real(n) => out.push_str(&n.to_string()),
                    ValueRef::Null => {}
                }
                out.push('\n');
            }
        }
    }
    out
}

/// `secret` is nowhere on the device: not in any table, not in the event log, not in the
/// bytes of the database file or its WAL.
fn assert_nowhere(db: &Path, secret: &str, what: &str) {
    assert!(!whole_db(db).contains(secret), "{what} ({secret}) is in the joined device's database");
    let (main, wal) = bytes_on_disk(db);
    for bytes in std::iter::once(main).chain(wal) {
        assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()), "{what} ({secret}) is in its files");
    }
}

/// Every event payload of the database at `db`, parsed.
fn payloads(db: &Path) -> Vec<Value> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare("SELECT payload FROM events ORDER BY seq").unwrap();
    let texts: Vec<String> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    texts.iter().map(|t| serde_json::from_str(t).unwrap()).collect()
}

/// Calls `visit` with every JSON object in `v`, however deep.
fn objects<'a>(v: &'a Value, visit: &mut dyn FnMut(&'a serde_json::Map<String, Value>)) {
    match v {
        Value::Object(map) => {
            visit(map);
            map.values().for_each(|x| objects(x, visit));
        }
        Value::Array(list) => list.iter().for_each(|x| objects(x, visit)),
        _ => {}
    }
}

/// What an object with an id shows of its face: a seed card's text, a map card's name.
fn face(map: &serde_json::Map<String, Value>) -> Option<&str> {
    map.get("text").or_else(|| map.get("name")).and_then(Value::as_str)
}

/// The ids the device's history ever showed with a face (an object with that id and a
/// text or name other than a face-down card's).
fn ids_with_a_face(history: &[Value]) -> HashSet<String> {
    let mut out = HashSet::new();
    for p in history {
        objects(p, &mut |map| {
            let id = map.get("id").and_then(Value::as_str);
            if let (Some(id), Some(face)) = (id, face(map)) {
                if face != FACE_DOWN && !face.is_empty() {
                    out.insert(id.to_owned());
                }
            }
        });
    }
    out
}

/// Where `id` occurs in the device's history, other than as the id of a face-down card or
/// an end of a path drawn on the map (to a face-down card's place).
fn other_uses(history: &[Value], id: &str) -> Vec<String> {
    let mut out = Vec::new();
    for p in history {
        objects(p, &mut |map| {
            let path = map.len() == 2 && map.contains_key("a") && map.contains_key("b");
            for (key, v) in map {
                let face_down = key == "id" && face(map) == Some(FACE_DOWN);
                if v.as_str() == Some(id) && !face_down && !path {
                    out.push(format!("{key} in {}", Value::Object(map.clone())));
                }
            }
        });
    }
    out
}

/// The ids of the rows `sql` selects from the database at `db`.
fn ids(db: &Path, sql: &str) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare(sql).unwrap();
    let rows: Vec<String> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    rows
}

/// Nothing face down on the device (seed cards, map cards) has an id its history shows with
/// a face, or uses otherwise than as a face-down card's id.
fn assert_face_down_ids_lead_nowhere(db: &Path) -> Vec<String> {
    let history = payloads(db);
    let faced = ids_with_a_face(&history);
    let face_down: Vec<String> = ids(db, "SELECT id FROM mz_cards WHERE text = 'Face-down card'")
        .into_iter()
        .chain(ids(db, "SELECT id FROM nsu_locations WHERE name = 'Face-down card'"))
        .collect();
    for id in &face_down {
        assert!(!faced.contains(id), "the face-down {id} is shown with its face in the device's own history");
        let uses = other_uses(&history, id);
        assert!(uses.is_empty(), "the face-down {id} is used elsewhere in the history: {uses:?}");
    }
    face_down
}

/// The ids of the Mezzo cards lying in `place` (and `holder`'s, if any) on the device.
fn cards_in(db: &Path, place: &str, holder: Option<Uuid>) -> Vec<(String, String)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let holder = holder.map(|h| h.to_string());
    let mut stmt = conn
        .prepare("SELECT id, text FROM mz_cards WHERE place = ?1 AND (player_id IS ?2 OR ?2 IS NULL) ORDER BY position")
        .unwrap();
    let rows: Vec<(String, String)> = stmt
        .query_map(rusqlite::params![place, holder], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows
}

// The Mezzo plot game (tests/fixtures/mezzo-plot-game.sheetkeeper.json): Ada, Bo and Cy at
// the deck. The draw pile holds "a song"; "a map" lies in the discard pile; Ada (who claimed
// Mira Vell) holds "a wreck", Bo "a ghost"; Cy's "a wedding" is depleted, face down; Ada's
// and Cy's refresh is open.
const A_MAP: &str = "71000000-0000-4000-8000-0000000000cb";
const A_WRECK: &str = "71000000-0000-4000-8000-0000000000cc";
const A_GHOST: &str = "71000000-0000-4000-8000-0000000000ca";
const A_WEDDING: &str = "71000000-0000-4000-8000-0000000000cd";
const A_SONG: &str = "71000000-0000-4000-8000-0000000000d0";

/// The Mezzo plot game hosted on `h`, joined from `p` by the player of Mira Vell (Ada's).
fn mezzo_table(h: &Scratch, p: &Scratch) -> (HostHandle, JoinHandle, Uuid, Uuid) {
    services::import(&mut h.open(), &fixture("mezzo-plot-game.sheetkeeper.json"), ImportOptions::default()).unwrap();
    let game = services::list(&h.open()).unwrap()[0].game.id;
    let mira = character(&h.db(), "Mira Vell");
    let (host, j) = paired_playing(h, p, game, "Mira's phone", mira);
    assert_eq!(mine(&p.db(), game), vec![mira]);
    eventually("Ada's hand reaches Mira's device", || {
        cards_in(&p.db(), "hand", Some(uuid(ADA))) == vec![(A_WRECK.into(), "a wreck".into())]
    });
    (host, j, game, mira)
}

#[test]
fn a_card_shuffled_back_into_the_draw_pile_keeps_no_id_the_joined_device_saw_with_its_face() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let (host, j, game, mira) = mezzo_table(&h, &p);
    assert_eq!(cards_in(&p.db(), "discard", None), vec![(A_MAP.into(), "a map".into())], "Mira's device sees the map");
    let mut rng = StdRng::seed_from_u64(11);

    // Cy discards his depleted "a wedding" (face up now) and draws "a song", the last card
    // of the draw pile, into his hand.
    services::mezzo_refresh(&mut h.open(), game, uuid(CY), uuid(A_WEDDING), true, &mut rng).unwrap();
    eventually("the wedding reaches the discard pile on Mira's device", || {
        cards_in(&p.db(), "discard", None).iter().any(|(_, text)| text == "a wedding")
    });
    // Ada discards "a wreck" and draws: the draw pile is empty, so the discard pile — the
    // map, the wedding and the wreck, all seen face up on Mira's device — is shuffled into a
    // new one, and Ada draws its top card.
    services::mezzo_refresh(&mut h.open(), game, uuid(ADA), uuid(A_WRECK), true, &mut rng).unwrap();
    eventually("the reshuffle reaches Mira's device", || {
        cards_in(&p.db(), "draw_pile", None).len() == 2 && cards_in(&p.db(), "discard", None).is_empty()
    });
    caught_up(&j, "Mira's device is caught up");

    let pile = cards_in(&p.db(), "draw_pile", None);
    assert!(pile.iter().all(|(_, text)| text == FACE_DOWN), "{pile:?}");
    let seen: HashSet<String> = [A_MAP, A_WEDDING, A_WRECK].map(String::from).into();
    assert!(pile.iter().all(|(id, _)| !seen.contains(id)), "a reshuffled card kept its id: {pile:?}");
    let face_down = assert_face_down_ids_lead_nowhere(&p.db());
    assert!(pile.iter().all(|(id, _)| face_down.contains(id)));
    // The host's draw pile: two of the three, under ids Mira's device does not hold.
    let host_pile = cards_in(&h.db(), "draw_pile", None);
    assert_eq!(host_pile.len(), 2);
    let on_device: HashSet<String> = ids(&p.db(), "SELECT id FROM mz_cards").into_iter().collect();
    assert!(host_pile.iter().all(|(id, _)| !on_device.contains(id)), "{host_pile:?} on the device");

    // The card Ada drew left the draw pile for her own hand: there it comes with its id and
    // face, as on the host.
    let drawn = cards_in(&h.db(), "hand", Some(uuid(ADA)));
    assert_eq!(drawn.len(), 1);
    assert!(seen.contains(&drawn[0].0), "Ada drew one of the reshuffled cards: {drawn:?}");
    assert_eq!(cards_in(&p.db(), "hand", Some(uuid(ADA))), drawn, "Mira's device holds Ada's new card");
    // Cy's hand ("a song", never face up) and Bo's ("a ghost") never reached the device.
    for (secret, what) in [(A_SONG, "the song's id"), ("a song", "the song"), (A_GHOST, "the ghost's id")] {
        assert_nowhere(&p.db(), secret, what);
    }
    assert_nowhere(&p.db(), "a ghost", "Bo's hand");
    assert_eq!(cards_in(&p.db(), "hand", Some(uuid(CY))).len(), 1, "how many cards Cy holds is seen at the table");

    // The host sends the same document again for the same game: the stand-ins stay put.
    let doc = |store: &Store| store.snapshot(|r| services::game_document_for(r, game, &Viewer::Player(vec![mira])));
    let host_store = h.open();
    let first = doc(&host_store).unwrap();
    assert_eq!(doc(&host_store).unwrap().games, first.games);
    let deck = first.games[0].mezzo_table.as_ref().unwrap().deck.as_ref().unwrap();
    let sent: Vec<(String, String)> = deck.draw_pile.iter().map(|c| (c.id.to_string(), c.text.clone())).collect();
    assert_eq!(sent, pile, "the device holds what the host sends");
    closed_and_checked(j, host, &[(&p.db(), "Mira's player"), (&h.db(), "the host")]);
}

#[test]
fn the_audits_card_moved_into_the_draw_pile_by_hand_is_not_named_on_the_joined_device() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let (host, j, _game, _mira) = mezzo_table(&h, &p);
    // As the audit did: "a map" goes from the discard pile to the top of the draw pile, as a
    // reshuffle would put it, written by another process.
    let conn = rusqlite::Connection::open(h.db()).unwrap();
    let moved = conn.execute("UPDATE mz_cards SET place = 'draw_pile', position = 1 WHERE id = ?1", [A_MAP]).unwrap();
    assert_eq!(moved, 1);
    drop(conn);
    eventually("the move reaches Mira's device", || cards_in(&p.db(), "draw_pile", None).len() == 2);
    caught_up(&j, "Mira's device is caught up");
    let pile = cards_in(&p.db(), "draw_pile", None);
    assert!(pile.iter().all(|(id, text)| text == FACE_DOWN && id != A_MAP && id != A_SONG), "{pile:?}");
    // The audit read the top card's id beside its face in the device's own log. (That a card
    // left the discard pile for the top of the draw pile, unshuffled, anyone at the table
    // sees; it is the id that must not tell it.)
    let beside = |id: &str| {
        count(
            &p.db(),
            &format!("SELECT count(*) FROM events WHERE payload LIKE '%\"id\":\"{id}\",\"text\":\"a map\"%'"),
        )
    };
    assert!(beside(A_MAP) > 0, "the map was seen face up, with its id");
    assert_eq!(beside(&pile[1].0), 0, "the top card's id is never found beside a face");
    assert_eq!(count(&p.db(), &format!("SELECT count(*) FROM mz_cards WHERE id = '{A_MAP}'")), 0);
    assert_face_down_ids_lead_nowhere(&p.db());
    closed_and_checked(j, host, &[(&p.db(), "Mira's player")]);
}

#[test]
fn a_dealt_map_card_cannot_be_followed_from_its_authors_hand_to_its_cell() {
    let (h, p) = (Scratch::new(), Scratch::new());
    services::import(&mut h.open(), &fixture("nsu-game.sheetkeeper.json"), ImportOptions::default()).unwrap();
    let game = services::list(&h.open()).unwrap()[0].game.id;
    let (wren, tobias) = (character(&h.db(), "Wren Ashdown"), character(&h.db(), "Tobias Reed"));
    let mill = ids(&h.db(), "SELECT id FROM nsu_locations WHERE name = 'Mill'").remove(0);
    let (host, j) = paired_playing(&h, &p, game, "Tobias's phone", tobias);
    assert_eq!(mine(&p.db(), game), vec![tobias]);
    let located = |sql: &str| count(&p.db(), &format!("SELECT count(*) FROM nsu_locations WHERE {sql}"));
    eventually("the map reaches Tobias's device", || located("1") == 2);

    // Tobias's player writes a card (Tobias reads it), Cass another (face down to him).
    let draft = |name: &str, author: &str, by: Option<Uuid>| LocationDraft {
        name: name.into(),
        author: author.into(),
        description: format!("{name}: where the bells were buried"),
        collateral_harms: String::new(),
        danger: String::new(),
        treasure: String::new(),
        author_character: by,
    };
    services::nsu_world_author_location(&mut h.open(), game, &draft("Sunken chapel", "Tobi", Some(tobias))).unwrap();
    eventually("the chapel reaches its author's device", || located("name = 'Sunken chapel'") == 1);
    services::nsu_world_author_location(&mut h.open(), game, &draft("Bone orchard", "Cass", None)).unwrap();
    eventually("a fourth card reaches the device", || located("1") == 4);
    let chapel = ids(&h.db(), "SELECT id FROM nsu_locations WHERE name = 'Sunken chapel'").remove(0);
    let orchard = ids(&h.db(), "SELECT id FROM nsu_locations WHERE name = 'Bone orchard'").remove(0);
    // The table links the chapel to Wren instead: face down to Tobias's device from now on.
    services::nsu_world_link_author(&mut h.open(), game, uuid(&chapel), Some(wren)).unwrap();
    eventually("the chapel turns face down on the device", || located("name = 'Sunken chapel'") == 0);
    let undealt = ids(&p.db(), "SELECT id FROM nsu_locations WHERE x IS NULL");
    assert_eq!(undealt.len(), 2);
    // The deal shuffles both onto the map.
    let cells = [GridPos { x: 3, y: 3 }, GridPos { x: 4, y: 4 }];
    let dice = DiceInput::Entered { values: vec![2] };
    services::nsu_world_deal(&mut h.open(), game, &cells, &dice, &mut StdRng::seed_from_u64(5)).unwrap();
    eventually("the deal reaches the device", || located("x IS NULL") == 0 && located("1") == 4);
    caught_up(&j, "Tobias's device is caught up");

    let face_down = assert_face_down_ids_lead_nowhere(&p.db());
    assert_eq!(face_down.len(), 3, "the Mill, the chapel and the orchard lie face down: {face_down:?}");
    // No face-down card on the map carries an id it had before the deal.
    let mut before_the_deal = HashSet::new();
    for payload in payloads(&p.db()) {
        objects(&payload, &mut |map| {
            if face(map) == Some(FACE_DOWN) && map.get("position").is_some_and(Value::is_null) {
                before_the_deal.insert(map["id"].as_str().unwrap_or_default().to_owned());
            }
        });
    }
    assert_eq!(before_the_deal.len(), 2, "{before_the_deal:?}");
    assert!(face_down.iter().all(|id| !before_the_deal.contains(id)), "a dealt card kept its id");
    // What the device read of the chapel stays in its history, under an id no card on the
    // map has now; the cards it never read never reached it.
    assert!(whole_db(&p.db()).contains(&chapel), "Tobias's player read the chapel when it was theirs");
    assert_eq!(count(&p.db(), &format!("SELECT count(*) FROM nsu_locations WHERE id = '{chapel}'")), 0);
    for (secret, what) in [
        (mill.as_str(), "the Mill's id"),
        ("A mill that turns with no river", "the Mill's text"),
        (orchard.as_str(), "the orchard's id"),
        ("Bone orchard", "the orchard's name"),
        ("Cass", "the orchard's author"),
    ] {
        assert_nowhere(&p.db(), secret, what);
    }
    // The path from the Library to the Mill is drawn on the device, to the Mill's cell.
    let mill_cell = ids(&p.db(), "SELECT id FROM nsu_locations WHERE x = -2 AND y = 5").remove(0);
    assert_eq!(
        count(&p.db(), &format!("SELECT count(*) FROM nsu_paths WHERE a = '{mill_cell}' OR b = '{mill_cell}'")),
        1
    );
    closed_and_checked(j, host, &[(&p.db(), "Tobias's player")]);
}

#[test]
fn a_players_device_never_holds_the_houses_purse_hidden_characteristic_or_cup() {
    let PennyHeist { scratch: h, store, game, ada, baron, .. } = penny_heist("Bo", "Clever");
    drop(store);
    let p = Scratch::new();
    let (host, j) = paired_playing(&h, &p, game, "Ada's phone", ada);
    assert_eq!(mine(&p.db(), game), vec![ada]);

    // The Baron (hidden "Hates riddles" and "Fears the dark", a purse of 17) challenges Ada
    // anonymously with 9 pennies devoted, using "Hates riddles" (which shows it).
    crate::support::baron_challenges_ada(&mut h.open(), game, ada, baron);
    let (a, b) = (Side::Opponent, Side::Challenger);
    let used = vec![Used { owner: Account::Antagonist(baron), text: "Hates riddles".into() }];
    let mut rng = StdRng::seed_from_u64(3);
    let moves: Vec<(Move, Vec<u8>)> = vec![
        (Move::Pass { side: a }, vec![]),
        (Move::Pass { side: b }, vec![]),
        (Move::Characteristics { side: b, used }, vec![]),
        (Move::Characteristics { side: a, used: vec![] }, vec![]),
        (Move::Roll { side: a }, vec![4]),
        (Move::Roll { side: b }, vec![2, 3]),
        (Move::Cup { side: a, cup: vec![] }, vec![]),
        (Move::Cup { side: b, cup: vec![0] }, vec![]),
    ];
    let phase = |db: &Path| services::penny_table(&open(db), game).unwrap().challenge.map(|c| (c.phase, c.turn));
    let mut play = |mv: Move, dice: Vec<u8>| {
        let d = if dice.is_empty() { DiceInput::Rolled } else { DiceInput::Entered { values: dice } };
        services::penny_challenge_move(&mut h.open(), game, mv.clone(), &d, &mut rng)
            .unwrap_or_else(|e| panic!("{mv:?}: {e}"));
        // Each move reaches the device before the next (the device's log holds every step).
        eventually(&format!("{mv:?} reaches Ada's device"), || {
            phase(&p.db()) == phase(&h.db())
                && count(&p.db(), "SELECT count(*) FROM pa_challenge_dice")
                    == count(&h.db(), "SELECT count(*) FROM pa_challenge_dice")
        });
    };
    for (mv, dice) in moves {
        play(mv, dice);
    }
    // Then on to the end: stand, pass, reroll (the Baron's 2 comes back a 5).
    for _ in 0..12 {
        let Some(next) = crate::support::penny_move_to_the_end(&h.open(), game) else { break };
        let dice = if matches!(next, Move::Reroll { side: Side::Challenger }) { vec![5] } else { vec![] };
        play(next, dice);
    }
    caught_up(&j, "Ada's device is caught up");

    assert_nowhere(&p.db(), "Fears the dark", "the Baron's hidden characteristic");
    let funded = count(&p.db(), "SELECT coalesce(max(amount), 0) FROM pa_ledger WHERE reason = 'antagonist_funding'");
    assert!(funded < 17, "the Baron's purse is in the device's ledger ({funded})");
    // Every table the device ever held: no purse, no devoted pennies, the Baron's cup die a
    // 1 until the showdown.
    let mut tables = 0;
    for payload in payloads(&p.db()) {
        objects(&payload, &mut |map| {
            let Some(ledger) = map.get("ledger").and_then(|l| l.get("entries")).and_then(Value::as_array) else {
                return;
            };
            tables += 1;
            for e in ledger {
                if e["reason"] == "antagonist_funding" {
                    assert!(e["amount"].as_u64() < Some(17), "the Baron's purse in the history: {e}");
                }
            }
            let Some(c) = map.get("challenge").filter(|c| c.is_object()) else { return };
            assert_ne!(c["devoted"], 9, "the devoted pennies in the history");
            if c["phase"] != "over" {
                let baron_die = &c["sides"][0]["dice"][0];
                assert!(baron_die.is_null() || *baron_die == 1, "the Baron's cup die before the showdown: {c}");
            }
        });
    }
    assert!(tables >= 6, "the device's history holds the table at each step ({tables})");
    let over = services::penny_table(&open(&p.db()), game).unwrap().challenge.unwrap();
    assert_eq!(over.phase, Phase::Over);
    assert_eq!(over.sides[0].dice, Some(vec![5, 3]), "once over, the dice are everyone's");
    closed_and_checked(j, host, &[(&p.db(), "Ada's player")]);
}
