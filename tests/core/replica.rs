//! The game as a file document redacted for one viewer (`services::game_document_for`), as a
//! linked table sends it to a joined device: for each system and each viewer, the secrets
//! the viewer may not see are nowhere in the written document, its own are; the document
//! parses, imports into an empty database, and the view computed there is the view the
//! host computes for that viewer; a later document imports over the first.

use rand::{rngs::StdRng, SeedableRng};
use serde_json::Value;
use sheetkeeper::exchange::{self, Document};
use sheetkeeper::rules::penny_ante::challenge::{Move, Side, Used};
use sheetkeeper::rules::penny_ante::ledger::{Account, Reason};
use sheetkeeper::rules::penny_ante::table::PennyTable;
use sheetkeeper::services::{self, GameView, ImportOptions, Viewer};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::support::{
    imported, penny_ada_and_bo, penny_duel, penny_duel_rolls, penny_heist, penny_move, penny_move_to_the_end,
    penny_player, PennyHeist, Scratch,
};

fn doc_for(store: &Store, game: Uuid, viewer: &Viewer) -> Document {
    store.snapshot(|read| services::game_document_for(read, game, viewer)).unwrap()
}

fn text_of(doc: &Document) -> String {
    String::from_utf8(exchange::to_json(doc)).unwrap()
}

/// A device that joined: an empty database the documents are imported into, one after the
/// other, each replacing what the last one brought.
struct Device {
    scratch: Scratch,
    store: Store,
    received: usize,
}

impl Device {
    fn new() -> Device {
        let scratch = Scratch::new();
        let store = scratch.open();
        Device { scratch, store, received: 0 }
    }

    /// Writes the document as a file and imports it: it must parse first, like any file.
    fn receive(&mut self, doc: &Document) {
        let bytes = exchange::to_json(doc);
        let parsed = exchange::parse(&bytes).unwrap_or_else(|p| panic!("the document does not parse: {p:?}"));
        assert_eq!(&parsed.games, &doc.games, "the document reads back as written");
        self.received += 1;
        let file = self.scratch.file(&format!("snapshot-{}.sheetkeeper.json", self.received));
        std::fs::write(&file, &bytes).unwrap();
        let options = ImportOptions { as_copy: false, replace_conflicts: true };
        services::import(&mut self.store, &file, options).unwrap_or_else(|e| panic!("the import failed: {e}"));
        assert!(self.store.check().unwrap().ok, "the replica passes `sheetkeeper check`");
    }
}

/// One joined device for each viewer (a character's id, "everyone" or "table").
struct Replicas {
    viewers: [String; 4],
    devices: Vec<Device>,
}

impl Replicas {
    fn new(viewers: [String; 4]) -> Replicas {
        let devices = viewers.iter().map(|_| Device::new()).collect();
        Replicas { viewers, devices }
    }

    /// Each device takes the document the host writes for its viewer; `compare` is given
    /// each viewer with the view the host computes for it and the one its replica computes.
    fn receive(&mut self, store: &Store, game: Uuid, compare: impl Fn(&str, Value, Value)) {
        for (viewer, device) in self.viewers.iter().zip(&mut self.devices) {
            device.receive(&doc_for(store, game, &viewer_of(viewer)));
            compare(viewer, view_json(store, game, viewer), view_json(&device.store, game, viewer));
        }
    }

    /// The view of `game` on the `n`th viewer's replica, as that viewer.
    fn view(&self, n: usize, game: Uuid) -> Value {
        view_json(&self.devices[n].store, game, &self.viewers[n])
    }
}

/// The view of `game` as `viewer` (table, everyone or a character id), as JSON without the
/// times an import sets anew.
fn view_json(store: &Store, game: Uuid, viewer: &str) -> Value {
    let mut v = serde_json::to_value(services::game_view_as(store, game, viewer).unwrap()).unwrap();
    scrub(&mut v);
    v
}

fn scrub(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for key in ["updated_at", "revision"] {
                map.remove(key);
            }
            map.values_mut().for_each(scrub);
        }
        Value::Array(list) => list.iter_mut().for_each(scrub),
        _ => {}
    }
}

/// The game's own file, as `sheetkeeper export --game` writes it.
fn exported(store: &Store, game: Uuid) -> Document {
    let dir = Scratch::new();
    let file = dir.file("game.sheetkeeper.json");
    services::export(store, services::ExportScope::Game(game), &file).unwrap();
    exchange::parse(&std::fs::read(&file).unwrap()).unwrap()
}

fn viewer_of(text: &str) -> Viewer {
    match text {
        "table" => Viewer::Table,
        "everyone" => Viewer::Everyone,
        id => Viewer::Player(vec![Uuid::parse_str(id).unwrap()]),
    }
}

// ---------------------------------------------------------------------------------------
// Penny Ante

/// Ada and Bo; the House's Baron ("Ruthless", hidden "Hates riddles" and "Fears the dark", a
/// purse of 17) challenges Ada anonymously with 9 pennies devoted, using "Hates riddles"
/// (which reveals it). Both sides rolled: Ada one die, a 4, her cup chosen empty (shown once
/// the Baron has chosen his too); the Baron a 2 and a 3, his cup not chosen yet.
fn penny() -> PennyHeist {
    let mut t = penny_heist("Bo", "Clever");
    crate::support::baron_challenges_ada(&mut t.store, t.game, t.ada, t.baron);
    // The Baron challenges: Ada is the opponent.
    let (a, b) = (Side::Opponent, Side::Challenger);
    t.mv(Move::Pass { side: a }, &[]);
    t.mv(Move::Pass { side: b }, &[]);
    let used = vec![Used { owner: Account::Antagonist(t.baron), text: "Hates riddles".into() }];
    t.mv(Move::Characteristics { side: b, used }, &[]);
    t.mv(Move::Characteristics { side: a, used: vec![] }, &[]);
    t.mv(Move::Roll { side: a }, &[4]);
    t.mv(Move::Roll { side: b }, &[2, 3]);
    t.mv(Move::Cup { side: a, cup: vec![] }, &[]);
    t
}

fn penny_table_of(doc: &Document) -> &PennyTable {
    doc.games[0].penny_table.as_ref().unwrap()
}

#[test]
fn a_penny_document_keeps_the_houses_purses_and_hidden_characteristics_and_other_cups_from_players() {
    let mut t = penny();
    let (ada, bo, baron) = (t.ada, t.second, t.baron);
    for viewer in [Viewer::Player(vec![ada]), Viewer::Player(vec![bo]), Viewer::Everyone] {
        let doc = doc_for(&t.store, t.game, &viewer);
        let text = text_of(&doc);
        assert!(text.contains("Ruthless") && text.contains("Hates riddles"), "open characteristics are everyone's");
        for secret in ["Fears the dark", "purse_returned", "\"devoted\": 9"] {
            assert!(!text.contains(secret), "{viewer:?} got {secret}: {text}");
        }
        let table = penny_table_of(&doc);
        let funded: Vec<u64> =
            table.ledger.entries.iter().filter(|e| e.reason == Reason::AntagonistFunding).map(|e| e.amount).collect();
        assert_eq!(funded, vec![2], "{viewer:?}: only what the ante needs, not the purse of 17");
        assert_eq!(table.pile(&Account::Antagonist(baron)), 0, "{viewer:?}: the purse is not in the document");
        // The House's pile as players see it: its own 38 with the Baron's hidden 15.
        assert_eq!(table.pile(&Account::House), 53, "the House's pile, its hidden purses with it");
        let c = table.challenge.as_ref().unwrap();
        assert_eq!(c.devoted, Some(2), "the side stays anonymous, its devoted pennies do not travel");
        assert_eq!(c.sides[0].dice, vec![1, 1], "{viewer:?}: the Baron's dice, not yet on the table");
        assert!(c.sides[0].cup.is_empty());
        // The reveal is simultaneous: Ada's die waits for the Baron's cup.
        let ada_sees = if viewer == Viewer::Player(vec![ada]) { vec![4] } else { vec![1] };
        assert_eq!(c.sides[1].dice, ada_sees, "{viewer:?}: Ada's die");
    }
    // The table sees its own antagonist and the Baron's dice.
    let doc = doc_for(&t.store, t.game, &Viewer::Table);
    let text = text_of(&doc);
    assert!(text.contains("Fears the dark") && text.contains("\"devoted\": 9"), "{text}");
    let table = penny_table_of(&doc);
    assert_eq!(table.pile(&Account::Antagonist(baron)), 15, "17 funded, 2 paid in as the ante");
    assert_eq!(table.challenge.as_ref().unwrap().sides[0].dice, vec![2, 3]);
    // A device passed around holds everything: the game's own file.
    let all = doc_for(&t.store, t.game, &Viewer::PassedAround);
    assert_eq!(all.games, exported(&t.store, t.game).games);

    // The Baron keeps his 2 in the cup and shows the 3; Ada keeps nothing.
    t.mv(Move::Cup { side: Side::Challenger, cup: vec![0] }, &[]);
    for viewer in [Viewer::Player(vec![ada]), Viewer::Everyone] {
        let doc = doc_for(&t.store, t.game, &viewer);
        let c = penny_table_of(&doc).challenge.clone().unwrap();
        assert_eq!((c.sides[0].dice.clone(), c.sides[0].cup.clone()), (vec![1, 3], vec![0]), "{viewer:?}");
        assert_eq!(c.sides[1].dice, vec![4], "{viewer:?}: both cups chosen, Ada's die is on the table");
    }
    let doc = doc_for(&t.store, t.game, &Viewer::Table);
    assert_eq!(penny_table_of(&doc).challenge.as_ref().unwrap().sides[0].dice, vec![2, 3]);
}

#[test]
fn a_players_cup_is_kept_from_the_table_and_the_other_players_but_not_from_its_own() {
    // Ada against Bo: each side's die in the cup is its own.
    let (_scratch, mut store, game, ada, bo) = penny_ada_and_bo("Duel", &[]);
    services::penny_start_adventure(&mut store, game, None).unwrap();
    penny_duel(&mut store, game, "the last word", 1, ada, bo);
    let mut rng = StdRng::seed_from_u64(3);
    let (a, b) = (Side::Challenger, Side::Opponent);
    let mut mv = |store: &mut Store, mv: Move, dice: &[u8]| {
        penny_move(store, game, mv, dice, &mut rng);
    };
    penny_duel_rolls(|m, dice| mv(&mut store, m, dice), [(ada, "Strong"), (bo, "Clever")], (&[6, 5], &[4, 3]));
    mv(&mut store, Move::Cup { side: a, cup: vec![1] }, &[]);
    let sides = |store: &Store, viewer: &Viewer| {
        let doc = doc_for(store, game, viewer);
        let c = penny_table_of(&doc).challenge.clone().unwrap();
        (c.sides[0].dice.clone(), c.sides[0].cup.clone(), c.sides[1].dice.clone())
    };
    // Ada chose her cup (the 5 stays hidden); Bo has rolled but not chosen yet. The reveal
    // is simultaneous: nobody else sees Ada's 6 before Bo has chosen too.
    assert_eq!(sides(&store, &Viewer::Player(vec![ada])), (vec![6, 5], vec![1], vec![1, 1]));
    assert_eq!(sides(&store, &Viewer::Player(vec![bo])), (vec![1, 1], vec![], vec![4, 3]));
    for viewer in [Viewer::Table, Viewer::Everyone] {
        assert_eq!(sides(&store, &viewer), (vec![1, 1], vec![], vec![1, 1]), "{viewer:?}");
    }
    assert_eq!(sides(&store, &Viewer::PassedAround), (vec![6, 5], vec![1], vec![4, 3]));
    // A device that plays both characters sees both cups.
    assert_eq!(sides(&store, &Viewer::Player(vec![ada, bo])), (vec![6, 5], vec![1], vec![4, 3]));

    // Each replica shows its viewer what the host shows that viewer, cups and odds included,
    // move after move until the challenge is over, when every die is on the table.
    let viewers = [ada.to_string(), bo.to_string(), "table".into(), "everyone".into()];
    let mut devices: Vec<Device> = viewers.iter().map(|_| Device::new()).collect();
    mv(&mut store, Move::Cup { side: b, cup: vec![] }, &[]);
    for _ in 0..12 {
        for (viewer, device) in viewers.iter().zip(&mut devices) {
            device.receive(&doc_for(&store, game, &viewer_of(viewer)));
            assert_eq!(view_json(&device.store, game, viewer), view_json(&store, game, viewer), "{viewer}");
        }
        let Some(next) = penny_move_to_the_end(&store, game) else { break };
        let dice: &[u8] = if matches!(next, Move::Reroll { side: Side::Challenger }) { &[2] } else { &[] };
        mv(&mut store, next, dice);
    }
    assert_eq!(sides(&store, &Viewer::Everyone), (vec![6, 2], vec![1], vec![4, 3]), "over: every die is everyone's");
}

#[test]
fn a_penny_replica_shows_its_player_what_the_host_shows_and_takes_the_next_document_over_it() {
    let mut t = penny();
    let (game, ada) = (t.game, t.ada);
    let mut replicas = Replicas::new([ada.to_string(), t.second.to_string(), "everyone".into(), "table".into()]);
    for round in 0..3 {
        replicas.receive(&t.store, game, |viewer, here, there| assert_eq!(there, here, "round {round}, {viewer}"));
        // Ada's own cup and exact odds, on her replica as on the host.
        let mine = replicas.view(0, game);
        assert_eq!(mine["private"][0]["dice"], serde_json::json!([4]), "{mine}");
        assert!(mine["private"][0]["odds"].is_object());
        // What the player never sees on the host, the replica does not hold either.
        let replica = services::penny_table(&replicas.devices[0].store, game).unwrap();
        assert!(replica.antagonists[0].characteristics.iter().all(|c| c.text != "Fears the dark"));
        match round {
            0 => t.mv(Move::Cup { side: Side::Challenger, cup: vec![0] }, &[]),
            1 => t.mv(Move::Raise { side: Side::Challenger, by: 3 }, &[]),
            _ => continue,
        };
    }
    // Even opened as a device passed around and handed to the House, a player's replica
    // holds no purse, and the same piles.
    let replica = services::penny_table_as_house(&replicas.devices[0].store, game).unwrap();
    assert_eq!(replica.antagonists[0].purse, Some(0));
    let host = services::penny_table(&t.store, game).unwrap();
    let replica = services::penny_table(&replicas.devices[0].store, game).unwrap();
    assert_eq!(
        (replica.house, replica.players.iter().map(|p| p.pile).collect::<Vec<_>>()),
        (host.house, host.players.iter().map(|p| p.pile).collect::<Vec<_>>())
    );
}

#[test]
fn purses_funded_taken_back_and_returned_at_the_adventures_end_leave_no_entry_for_a_player() {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = services::create_game(&mut store, "Heist", "penny_ante").unwrap().game.id;
    let ada = penny_player(&mut store, game, "Ada", "Strong", 30);
    services::penny_start_adventure(&mut store, game, None).unwrap();
    let mut ids = Vec::new();
    for name in ["The Baron", "The Countess"] {
        let a = services::penny_add_antagonist(&mut store, game, name, vec![]).unwrap();
        ids.push(a.view.antagonists.iter().find(|x| x.name == name).unwrap().id);
    }
    services::penny_fund_antagonist(&mut store, game, ids[0], 17).unwrap();
    services::penny_fund_antagonist(&mut store, game, ids[1], 6).unwrap();
    services::penny_recall_purse(&mut store, game, ids[0], 5).unwrap();
    let mut device = Device::new();
    for round in 0..2 {
        let doc = doc_for(&store, game, &Viewer::Player(vec![ada]));
        let text = text_of(&doc);
        assert!(!text.contains("antagonist_funding") && !text.contains("purse_returned"), "{round}: {text}");
        let table = penny_table_of(&doc);
        assert!(ids.iter().all(|id| table.pile(&Account::Antagonist(*id)) == 0), "round {round}");
        device.receive(&doc);
        let viewer = ada.to_string();
        assert_eq!(view_json(&device.store, game, &viewer), view_json(&store, game, &viewer), "round {round}");
        let (here, there) =
            (services::penny_table(&store, game).unwrap(), services::penny_table(&device.store, game).unwrap());
        assert_eq!(there.house, here.house, "round {round}: the House's pile is everyone's");
        if round == 0 {
            services::penny_end_adventure(&mut store, game).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------
// No Stone Unturned

const MILL: &str = "A mill that turns with no river";

/// `view` with the id of each map card the viewer cannot read replaced by its place: a
/// document names such a card by a stand-in id of its cell (the host's view, by its own
/// id), so the views agree on everything else.
fn closed_by_place(mut view: Value) -> Value {
    let closed: Vec<(String, String)> = view["map"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["face"].is_null())
        .map(|c| (c["id"].as_str().unwrap().to_owned(), format!("the face-down card at {}", c["position"])))
        .collect();
    fn rename(v: &mut Value, closed: &[(String, String)]) {
        match v {
            Value::String(s) => {
                if let Some((_, place)) = closed.iter().find(|(id, _)| id == s) {
                    *s = place.clone();
                }
            }
            Value::Object(map) => map.values_mut().for_each(|x| rename(x, closed)),
            Value::Array(list) => list.iter_mut().for_each(|x| rename(x, closed)),
            _ => {}
        }
    }
    rename(&mut view, &closed);
    view
}

/// A fresh database with the golden game file `name` imported: the database and the game.
fn imported_game(name: &str) -> (Scratch, Store, GameView) {
    let (s, store) = imported(name);
    let game = services::list(&store).unwrap().remove(0);
    (s, store, game)
}

/// The id of the character of `game` called `name`.
fn character(game: &GameView, name: &str) -> Uuid {
    game.characters.iter().find(|c| c.name == name).unwrap().id
}

fn nsu_game() -> (Scratch, Store, Uuid, Uuid, Uuid) {
    let (s, mut store, g) = imported_game("nsu-game.sheetkeeper.json");
    let (game, wren, tobias) = (g.game.id, character(&g, "Wren Ashdown"), character(&g, "Tobias Reed"));
    let world = store.read().nsu_world(game).unwrap();
    let mill = world.locations.iter().find(|l| l.name == "Mill").unwrap().id;
    services::nsu_world_add_scene_detail(&mut store, game, mill, "The wheel creaks at midnight", false).unwrap();
    (s, store, game, wren, tobias)
}

#[test]
fn an_nsu_document_keeps_a_face_down_card_from_all_but_those_who_scouted_it() {
    let (_s, mut store, game, wren, tobias) = nsu_game();
    let secrets = [MILL, "\"Mill\"", "The wheel creaks at midnight"];
    let wrens = text_of(&doc_for(&store, game, &Viewer::Player(vec![wren])));
    assert!(secrets.iter().all(|s| wrens.contains(s)), "Wren scouted the Mill: {wrens}");
    for viewer in [Viewer::Player(vec![tobias]), Viewer::Everyone, Viewer::Table] {
        let doc = doc_for(&store, game, &viewer);
        let text = text_of(&doc);
        for secret in secrets {
            assert!(!text.contains(secret), "{viewer:?} got {secret}");
        }
        assert!(text.contains("A drowned library"), "a card face up is everyone's");
        let world = doc.games[0].nsu_world.as_ref().unwrap();
        let card = world.locations.iter().find(|l| !l.revealed && l.position.is_some()).unwrap();
        assert_eq!((card.name.as_str(), card.description.as_str()), ("Face-down card", ""));
        assert!(card.scene_details.is_empty() && card.position.is_some(), "its back and place stay");
    }
    let passed = text_of(&doc_for(&store, game, &Viewer::PassedAround));
    assert!(secrets.iter().all(|s| passed.contains(s)));

    // Each replica shows the map and the sheets its viewer sees on the host; when the card
    // is turned face up, the next document brings it to everyone.
    let mill = store.read().nsu_world(game).unwrap().locations.iter().find(|l| l.name == "Mill").unwrap().id;
    let mut replicas = Replicas::new([wren.to_string(), tobias.to_string(), "everyone".into(), "table".into()]);
    for round in 0..2 {
        replicas.receive(&store, game, |viewer, here, there| {
            let named = |v: &Value| v["map"].as_array().unwrap().iter().any(|c| c["id"] == mill.to_string());
            let reads =
                here["map"].as_array().unwrap().iter().any(|c| c["id"] == mill.to_string() && c["face"].is_object());
            assert_eq!(named(&there), reads, "round {round}, {viewer}: the Mill's own id only where it is read");
            let (here, there) = (closed_by_place(here), closed_by_place(there));
            assert_eq!(there["map"], here["map"], "round {round}, {viewer}");
            assert_eq!(there["sheets"], here["sheets"], "round {round}, {viewer}");
            assert_eq!(there, here, "round {round}, {viewer}");
        });
        let tobias_sees = serde_json::to_string(&replicas.view(1, game)).unwrap();
        assert_eq!(tobias_sees.contains(MILL), round == 1, "{tobias_sees}");
        if round == 0 {
            services::nsu_world_reveal(&mut store, game, mill).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Mezzo

#[test]
fn a_mezzo_document_holds_only_the_hands_its_viewer_may_see() {
    let (_s, mut store, g) = imported_game("mezzo-plot-game.sheetkeeper.json");
    let (game, mira, tomas) = (g.game.id, character(&g, "Mira Vell"), character(&g, "Tomas"));
    // Mira is claimed by Ada, who holds "a wreck"; Bo holds "a ghost"; Cy's "a wedding" is
    // depleted (face down); "a song" waits in the draw pile.
    let face_up = ["a map", "a debt", "a key", "a storm", "a traitor"];
    let others = ["a ghost", "a wedding", "a song"];
    let miras = text_of(&doc_for(&store, game, &Viewer::Player(vec![mira])));
    assert!(miras.contains("a wreck"), "Ada's own hand: {miras}");
    for viewer in [Viewer::Player(vec![mira]), Viewer::Player(vec![tomas]), Viewer::Everyone, Viewer::Table] {
        let doc = doc_for(&store, game, &viewer);
        let text = text_of(&doc);
        for secret in others.iter().chain((viewer != Viewer::Player(vec![mira])).then_some(&"a wreck")) {
            assert!(!text.contains(secret), "{viewer:?} got {secret}");
        }
        assert!(face_up.iter().all(|c| text.contains(c)), "{viewer:?}: the cards on the table are everyone's");
        let deck = doc.games[0].mezzo_table.as_ref().unwrap().deck.as_ref().unwrap();
        assert_eq!(deck.draw_pile.len(), 1, "the draw pile keeps its count");
        assert_eq!(deck.players.iter().map(|h| h.hand.len()).sum::<usize>(), 2, "the hands keep their counts");
    }
    let passed = text_of(&doc_for(&store, game, &Viewer::PassedAround));
    assert!(others.iter().all(|c| passed.contains(c)) && passed.contains("a wreck"));

    let mut replicas = Replicas::new([mira.to_string(), tomas.to_string(), "everyone".into(), "table".into()]);
    for round in 0..2 {
        replicas.receive(&store, game, |viewer, here, there| {
            assert_eq!(there["hands"], here["hands"], "round {round}, {viewer}");
            assert_eq!(there["deck"], here["deck"], "round {round}, {viewer}");
            assert_eq!(there, here, "round {round}, {viewer}");
        });
        if round == 0 {
            // Ada plays "a wreck" into the game: now everyone's.
            let ada = Uuid::parse_str("1b2c3d4e-5f60-4a71-8b82-9c0d1e2f3a40").unwrap();
            let wreck = Uuid::parse_str("71000000-0000-4000-8000-0000000000cc").unwrap();
            services::mezzo_play_card(&mut store, game, ada, wreck).unwrap();
        }
    }
    let toms = serde_json::to_string(&replicas.view(1, game)).unwrap();
    assert!(toms.contains("a wreck") && !toms.contains("a ghost"), "{toms}");
}

// ---------------------------------------------------------------------------------------
// Scattershot's Mechanix

#[test]
fn a_scattershot_document_is_the_same_for_every_viewer() {
    let (_s, store, g) = imported_game("scattershot-game.sheetkeeper.json");
    let (game, anyone) = (g.game.id, g.characters[0].id);
    let file = exported(&store, game);
    for viewer in [Viewer::Player(vec![anyone]), Viewer::Everyone, Viewer::Table, Viewer::PassedAround] {
        let doc = doc_for(&store, game, &viewer);
        assert_eq!(doc.games, file.games, "{viewer:?}");
        let mut device = Device::new();
        device.receive(&doc);
        assert_eq!(view_json(&device.store, game, "everyone"), view_json(&store, game, "everyone"));
    }
}

#[test]
fn a_document_for_a_game_that_is_not_here_is_refused_by_name() {
    let s = Scratch::new();
    let store = s.open();
    let err = store.snapshot(|read| services::game_document_for(read, Uuid::new_v4(), &Viewer::Everyone)).unwrap_err();
    assert!(err.to_string().contains("game"), "{err}");
}
