//! The campaign journal (issue 33): sessions started, ended and written up as undoable
//! moves of every game; what happened read from the game's log between start and end, for
//! one viewer (no House secret in a player's recap); carried in game files, validated on
//! import, and in the copy a linked table sends a player's device.

use std::path::PathBuf;

use rand::SeedableRng;
use serde_json::{json, Value};
use sheetkeeper::rules::journal::{Group, SessionEdit};
use sheetkeeper::services::{self, export, import, ExportScope, ImportOptions, JournalView, Viewer};
use sheetkeeper::{Error, Store};
use uuid::Uuid;

use crate::support::{
    new_game, penny_ada_and_bo, penny_duel, penny_duel_rolls, penny_move, penny_move_to_the_end, Scratch,
};

fn names(n: &[&str]) -> Vec<String> {
    n.iter().map(|s| (*s).to_owned()).collect()
}

fn refused_field(e: Error) -> String {
    match e {
        Error::Invalid { field, .. } => field,
        other => panic!("a refusal naming its field, not {other:?}"),
    }
}

fn table_view(store: &Store, game: Uuid) -> JournalView {
    services::journal_for(store.read(), game, &Viewer::Table).unwrap()
}

/// Every line of what happened in session `n`, with its group.
/// The groups of the lines of `got` that hold `part` (at least one must).
fn groups_of(got: &[(Group, String)], part: &str) -> Vec<Group> {
    let found: Vec<Group> = got.iter().filter(|(_, l)| l.contains(part)).map(|(g, _)| *g).collect();
    assert!(!found.is_empty(), "a line with “{part}” in {got:?}");
    found
}

fn lines(view: &JournalView, n: u32) -> Vec<(Group, String)> {
    let s = view.sessions.iter().find(|s| s.number == n).expect("the session");
    s.happened.iter().flat_map(|h| h.lines.iter().map(move |l| (h.group, l.clone()))).collect()
}

#[test]
fn sessions_are_started_ended_and_written_up_as_moves_undo_takes_back() {
    let (_s, mut store, game, _) = new_game("Harbour", "mezzo", ["Mira"]);
    services::mezzo_add_player(&mut store, game, "Kim").unwrap();

    let started = services::journal_start(&mut store, game, "2026-11-01", &names(&["Kim", "Mira"])).unwrap();
    assert_eq!(started.message, "Session 1 starts.");
    let s = &started.view.sessions[0];
    assert_eq!((s.number, s.date.as_str(), s.open), (1, "2026-11-01", true));
    assert_eq!(s.attendees, names(&["Kim", "Mira"]), "a Mezzo player and a character both count");
    assert!(started.view.may_edit);

    // Refused, naming the field, changing nothing.
    let before = table_view(&store, game);
    let refusals = [
        ("session", services::journal_start(&mut store, game, "2026-11-02", &[]).unwrap_err()),
        (
            "attendees",
            services::journal_edit(&mut store, game, 1, &SessionEdit::Attendees { names: names(&["Zed"]) })
                .unwrap_err(),
        ),
        (
            "notes",
            services::journal_edit(&mut store, game, 1, &SessionEdit::Notes { text: "x".repeat(4001) }).unwrap_err(),
        ),
        (
            "date",
            services::journal_edit(&mut store, game, 1, &SessionEdit::Date { date: "1st of Nov".into() }).unwrap_err(),
        ),
        (
            "session",
            services::journal_edit(&mut store, game, 7, &SessionEdit::Notes { text: "hi".into() }).unwrap_err(),
        ),
    ];
    for (field, e) in refusals {
        assert_eq!(refused_field(e), field);
    }
    assert_eq!(table_view(&store, game), before, "a refusal changes nothing");

    let notes = SessionEdit::Notes { text: "The lighthouse keeper lied.".into() };
    services::journal_edit(&mut store, game, 1, &notes).unwrap();
    assert_eq!(table_view(&store, game).sessions[0].notes, "The lighthouse keeper lied.");
    let ended = services::journal_end(&mut store, game).unwrap();
    assert!(!ended.view.sessions[0].open);
    assert_eq!(refused_field(services::journal_end(&mut store, game).unwrap_err()), "session", "none is open");
    assert_eq!(
        refused_field(services::journal_start(&mut store, game, "2026-10-30", &[]).unwrap_err()),
        "date",
        "sessions go in order"
    );

    // Undo takes back one move at a time, like any move of the game's.
    assert_eq!(services::undo_game(&mut store, game).unwrap().message, "Undone: Session 1 ends.");
    assert!(table_view(&store, game).sessions[0].open, "open again");
    services::undo_game(&mut store, game).unwrap();
    assert_eq!(table_view(&store, game).sessions[0].notes, "", "the notes as they were");
    services::undo_game(&mut store, game).unwrap();
    assert!(table_view(&store, game).sessions.is_empty(), "the start undone: no session");
}

#[test]
fn what_happened_is_the_log_between_start_and_end_grouped_in_the_games_words() {
    let (_s, mut store, game, _) = new_game("Harbour", "mezzo", ["Mira"]);
    let mut rng = rand::rngs::StdRng::seed_from_u64(33);
    services::mezzo_add_player(&mut store, game, "Before").unwrap();
    services::journal_start(&mut store, game, "2026-11-01", &[]).unwrap();
    let rolled = services::dice_tray_roll(&mut store, game, None, "2d6", &mut rng).unwrap();
    services::mezzo_add_player(&mut store, game, "Kim").unwrap();
    services::mezzo_add_player(&mut store, game, "Taken back").unwrap();
    services::undo_game(&mut store, game).unwrap();
    services::journal_end(&mut store, game).unwrap();
    services::mezzo_add_player(&mut store, game, "After").unwrap();

    let view = table_view(&store, game);
    let got = lines(&view, 1);
    assert_eq!(
        got,
        vec![(Group::Rolls, rolled.action.clone()), (Group::Other, "Kim joins the table with 3 influence.".to_owned()),],
        "only what happened between start and end, a move taken back left out"
    );
    let titles: Vec<&str> = view.sessions[0].happened.iter().map(|h| h.title).collect();
    assert_eq!(titles, ["Checks, conflicts and challenges", "Other moves at the table"], "in Mezzo's words");

    // The next session starts after the last one's end: "After" is its, not session 1's.
    services::journal_start(&mut store, game, "2026-11-08", &[]).unwrap();
    services::mezzo_add_player(&mut store, game, "During two").unwrap();
    let got = lines(&table_view(&store, game), 2);
    assert_eq!(got, vec![(Group::Other, "During two joins the table with 3 influence.".to_owned())]);
}

/// A Penny Ante session in which the House readies an antagonist (a secret of the table's).
fn penny_session_with_a_secret() -> (Scratch, Store, Uuid, Uuid) {
    let (s, mut store, game, ada, _bo) = penny_ada_and_bo("Heist", &[]);
    services::penny_start_adventure(&mut store, game, None).unwrap();
    services::journal_start(&mut store, game, "2026-11-01", &names(&["Ada", "Bo"])).unwrap();
    services::penny_add_antagonist(&mut store, game, "The Count", vec![]).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    services::dice_tray_roll(&mut store, game, Some(ada), "1d6", &mut rng).unwrap();
    services::journal_end(&mut store, game).unwrap();
    (s, store, game, ada)
}

fn said(view: &JournalView) -> Vec<String> {
    lines(view, 1).into_iter().map(|(_, l)| l).collect()
}

#[test]
fn a_players_recap_never_holds_what_their_log_leaves_out() {
    let (_s, store, game, ada) = penny_session_with_a_secret();
    let table = said(&table_view(&store, game));
    assert!(table.iter().any(|l| l.contains("The Count")), "the table reads its own move: {table:?}");
    let player = said(&services::journal_for(store.read(), game, &Viewer::Player(vec![ada])).unwrap());
    assert!(player.iter().all(|l| !l.contains("The Count")), "{player:?}");
    assert!(player.contains(&"The House readied its antagonists.".to_owned()), "as the player's log says it");
    let everyone = said(&services::journal_for(store.read(), game, &Viewer::Everyone).unwrap());
    assert_eq!(player, everyone);
    assert_eq!(table.len(), player.len(), "the same moves, in other words");
}

/// `game` exported from `store` to the game file `name` on `s`: its path and what it holds.
fn game_file(s: &Scratch, store: &Store, game: Uuid, name: &str) -> (PathBuf, Value) {
    let file = s.file(name);
    export(store, ExportScope::Game(game), &file).unwrap();
    let text = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    (file, text)
}

#[test]
fn a_journal_travels_in_game_files_and_a_players_copy_holds_no_secret() {
    let (s, store, game, ada) = penny_session_with_a_secret();
    let (file, text) = game_file(&s, &store, game, "heist.json");
    let session = &text["data"]["games"][0]["journal"]["sessions"][0];
    assert_eq!((session["number"].clone(), session["date"].clone()), (json!(1), json!("2026-11-01")));
    assert_eq!(session["attendees"], json!(["Ada", "Bo"]));
    let happened = session["happened"].as_array().unwrap();
    let secret = happened.iter().find(|l| l.get("table_words").is_some()).unwrap();
    assert!(secret["table_words"].as_str().unwrap().contains("The Count"), "the House's words as the table's");
    assert_eq!(secret["words"], json!("The House readied its antagonists."), "and as everyone reads them");

    // The copy a linked table sends Ada's device: no House secret in it.
    let doc = services::game_document_for(store.read(), game, &Viewer::Player(vec![ada])).unwrap();
    let copy = doc.games[0].journal.as_ref().unwrap();
    let copy_text = serde_json::to_string(copy).unwrap();
    assert!(!copy_text.contains("The Count"), "{copy_text}");
    assert_eq!(copy.sessions[0].recorded.len(), happened.len(), "the rest of what happened is there");

    // Imported elsewhere: the sessions as recorded, each viewer reading what is theirs.
    let other = Scratch::new();
    let mut there = other.open();
    import(&mut there, &file, ImportOptions::default()).unwrap();
    assert_eq!(said(&table_view(&there, game)), said(&table_view(&store, game)));
    let player_there = said(&services::journal_for(there.read(), game, &Viewer::Player(vec![ada])).unwrap());
    let player_here = said(&services::journal_for(store.read(), game, &Viewer::Player(vec![ada])).unwrap());
    assert_eq!(player_there, player_here);
    // And out again: the same journal.
    let (_, text_again) = game_file(&other, &there, game, "again.json");
    assert_eq!(text_again["data"]["games"][0]["journal"], text["data"]["games"][0]["journal"]);
}

#[test]
fn a_malformed_journal_is_refused_naming_the_field_and_changes_nothing() {
    let (s, store, game, _) = penny_session_with_a_secret();
    let (_, good) = game_file(&s, &store, game, "heist.json");
    let at = "$.data.games[0].journal";
    type Breaks = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Breaks, String)> = vec![
        (
            Box::new(|f| f["data"]["games"][0]["journal"]["sessions"][0]["date"] = json!("Nov 1")),
            format!("{at}.sessions[0].date"),
        ),
        (
            Box::new(|f| f["data"]["games"][0]["journal"]["sessions"][0]["number"] = json!(3)),
            format!("{at}.sessions[0].number"),
        ),
        (
            Box::new(|f| f["data"]["games"][0]["journal"]["sessions"][0]["attendees"] = json!(["Ada", "Ada"])),
            format!("{at}.sessions[0].attendees[1]"),
        ),
        (
            Box::new(|f| f["data"]["games"][0]["journal"]["sessions"][0]["mood"] = json!("grim")),
            format!("{at}.sessions[0]"),
        ),
        (
            Box::new(|f| f["data"]["games"][0]["journal"]["sessions"][0]["happened"][0]["group"] = json!("gossip")),
            format!("{at}.sessions[0].happened[0].group"),
        ),
    ];
    let other = Scratch::new();
    services::create_game(&mut other.open(), "Elsewhere", "nsu").unwrap();
    let bytes = crate::support::bytes_on_disk(&other.db());
    let mut there = other.open();
    for (i, (breaks, path)) in cases.into_iter().enumerate() {
        let mut bad = good.clone();
        breaks(&mut bad);
        let f = other.file(&format!("bad{i}.json"));
        std::fs::write(&f, serde_json::to_vec(&bad).unwrap()).unwrap();
        match import(&mut there, &f, ImportOptions::default()).unwrap_err() {
            Error::BadFile { problems, .. } => {
                assert!(
                    problems.iter().any(|p| p.path.starts_with(&path)),
                    "expected a problem at {path}: {problems:#?}"
                )
            }
            other => panic!("a bad file, not {other}"),
        }
    }
    drop(there);
    assert_eq!(crate::support::bytes_on_disk(&other.db()), bytes, "nothing changed");
}

/// The golden game file with a journal: Scattershot's golden game with two sessions, the
/// first closed with what happened, the second open. `SHEETKEEPER_BLESS=1 cargo test -p
/// sheetkeeper --test core journal_golden` rewrites it.
#[test]
fn journal_golden_file_is_its_document_and_imports_with_its_sessions() {
    use sheetkeeper::exchange;
    use sheetkeeper::rules::journal::{Journal, Line, Session};
    let base = std::fs::read(crate::support::fixture("scattershot-game.sheetkeeper.json")).unwrap();
    let mut doc = exchange::parse(&base).unwrap();
    let line = |group, words: &str| Line { group, words: words.into(), table_words: None };
    let session = |number, date: &str, open, recorded| Session {
        number,
        date: date.into(),
        attendees: names(&["Gizmo Vance"]),
        notes: if open { String::new() } else { "The dam held; the Gamemaster owes a reward.".into() },
        open,
        span: None,
        recorded,
    };
    doc.games[0].journal = Some(Journal {
        sessions: vec![
            session(
                1,
                "2026-11-01",
                false,
                vec![
                    line(Group::Rolls, "Gizmo Vance — dice tray: 2d10 → 7 + 3 = 10"),
                    line(Group::Rewards, "Experience dice after the session: Gizmo Vance 2."),
                ],
            ),
            session(2, "2026-11-08", true, vec![]),
        ],
    });
    let name = "journal-game.sheetkeeper.json";
    crate::support::files::assert_golden_file(name, &doc);
    let game = doc.games[0].game.id;
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &crate::support::fixture(name), ImportOptions::default()).unwrap();
    let view = table_view(&store, game);
    assert_eq!(view.sessions.len(), 2);
    assert_eq!(
        lines(&view, 1),
        vec![
            (Group::Rolls, "Gizmo Vance — dice tray: 2d10 → 7 + 3 = 10".to_owned()),
            (Group::Rewards, "Experience dice after the session: Gizmo Vance 2.".to_owned()),
        ]
    );
    assert!(view.sessions[1].open && view.sessions[1].happened.is_empty());
}

#[test]
fn a_joined_device_reads_the_tables_journal_and_leaves_its_keeping_to_the_table() {
    use crate::link::{eventually, open, valley_on_two_phones};
    let (h, pa, pb) = (Scratch::new(), Scratch::new(), Scratch::new());
    let (game, (wren, _tobias), _link) = valley_on_two_phones(&h, &pa, &pb);

    // The table's device keeps the journal: a session with a roll in it.
    let mut table = open(&h.db());
    services::journal_start(&mut table, game, "2026-11-01", &names(&["Wren", "Tobias"])).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let rolled = services::dice_tray_roll(&mut table, game, Some(wren), "2d6", &mut rng).unwrap();
    services::journal_edit(&mut table, game, 1, &SessionEdit::Notes { text: "The well is dry.".into() }).unwrap();
    services::journal_end(&mut table, game).unwrap();

    // Wren's phone reads it, what happened and all, as its copy of the game brings it.
    eventually("the journal reaching Wren's phone", || {
        services::journal(&open(&pa.db()), game).is_ok_and(|v| v.sessions.len() == 1 && !v.sessions[0].open)
    });
    let there = services::journal(&open(&pa.db()), game).unwrap();
    assert!(!there.may_edit, "the table's device keeps it");
    assert_eq!(there.sessions[0].notes, "The well is dry.");
    assert_eq!(lines(&there, 1), vec![(Group::Rolls, rolled.action)]);
    // A change made there is refused, naming the game: nothing changes.
    let refused = services::journal_start(&mut open(&pa.db()), game, "2026-11-08", &[]).unwrap_err();
    assert_eq!(refused_field(refused), "game");
    assert_eq!(services::journal(&open(&pa.db()), game).unwrap(), there);
}

/// NSU's map changes are in what happened (collateral with the complications, the rest with
/// the other moves), a move taken back left out; a card still face down is named in nobody's
/// recap, not even its author's (the journal is read by the whole table).
#[test]
fn nsu_map_changes_are_in_what_happened_and_a_face_down_card_stays_unnamed() {
    use sheetkeeper::rules::nsu::world::GridPos;
    let (_s, mut store, game, [wren]) = new_game("Valley", "nsu", ["Wren"]);
    let card = |name: &str, author_character| services::LocationDraft {
        name: name.into(),
        author: "Ana".into(),
        description: "A drowned library".into(),
        collateral_harms: "the moths".into(),
        danger: "rising water".into(),
        treasure: "old maps".into(),
        author_character,
    };
    let library = services::nsu_world_author_location(&mut store, game, &card("Library", None)).unwrap().world;
    let library = library.locations[0].id;
    services::journal_start(&mut store, game, "2026-11-01", &names(&["Wren"])).unwrap();
    let mill = services::nsu_world_author_location(&mut store, game, &card("Mill", Some(wren))).unwrap().world;
    let mill = mill.locations[1].id;
    let cells = [GridPos { x: 0, y: 0 }, GridPos { x: 1, y: 0 }];
    let shuffle = services::DiceInput::Entered { values: vec![2] };
    services::nsu_world_deal(&mut store, game, &cells, &shuffle, &mut rand::rngs::StdRng::seed_from_u64(7)).unwrap();
    services::nsu_world_reveal(&mut store, game, library).unwrap();
    services::nsu_world_add_path(&mut store, game, library, mill).unwrap();
    services::nsu_world_set_party_location(&mut store, game, Some(library)).unwrap();
    services::nsu_world_tick_collateral(&mut store, game, library, 2).unwrap();
    services::nsu_world_set_party_location(&mut store, game, None).unwrap();
    services::undo_game(&mut store, game).unwrap();
    services::nsu_world_add_npc(&mut store, game, "The archivist").unwrap();
    services::journal_end(&mut store, game).unwrap();

    let table = lines(&table_view(&store, game), 1);
    let other = |w: &str| (Group::Other, w.to_owned());
    assert_eq!(
        table,
        vec![
            (Group::Complications, "Collateral at “Library”: 0 → 2 of 8.".to_owned()),
            other("A location card is written."),
            other("2 location card(s) dealt face down on the map."),
            other("“Library” is revealed."),
            other("A path is drawn between “Library” and a face-down card."),
            other("The party moves to “Library”."),
        ],
        "the map's changes by group, in order; the party's move taken back and the NPC (not the map) left out"
    );
    let titles: Vec<&str> = table_view(&store, game).sessions[0].happened.iter().map(|h| h.title).collect();
    assert_eq!(titles, ["Complications and collateral", "Other moves at the table"]);
    for viewer in [Viewer::Player(vec![wren]), Viewer::Everyone, Viewer::PassedAround] {
        let theirs = lines(&services::journal_for(store.read(), game, &viewer).unwrap(), 1);
        assert_eq!(theirs, table, "{viewer:?}: the map as everyone sees it");
    }
    assert!(table.iter().all(|(_, l)| !l.contains("Mill")), "the face-down Mill is named nowhere, not even to Wren");
}

/// Scattershot's development points bought on a sheet are in what happened, under the
/// purchases, in the sheet's own words; a purchase taken back, or a sheet edit that buys
/// nothing, is left out.
#[test]
fn scattershot_purchases_are_in_what_happened() {
    use sheetkeeper::rules::scattershot::sheet::{Difficulty, Purchase, Resource, Statistic};
    let (_s, mut store, game, [ada]) = new_game("Gear Night", "scattershot", ["Ada"]);
    let buy = |purchase| services::SheetEdit::Buy { purchase };
    services::scattershot_sheet_edit(&mut store, ada, &buy(Purchase::Statistic { statistic: Statistic::Power }))
        .unwrap();
    services::journal_start(&mut store, game, "2026-11-01", &names(&["Ada"])).unwrap();
    let strength = Purchase::Statistic { statistic: Statistic::Strength };
    let strength = services::scattershot_sheet_edit(&mut store, ada, &buy(strength)).unwrap().message;
    let climbing = Purchase::NewSkill { name: "Climbing".into(), difficulty: Difficulty::Easy };
    let climbing = services::scattershot_sheet_edit(&mut store, ada, &buy(climbing)).unwrap().message;
    let agility = Purchase::Statistic { statistic: Statistic::Agility };
    services::scattershot_sheet_edit(&mut store, ada, &buy(agility)).unwrap();
    services::undo_character(&mut store, ada).unwrap();
    let hurt = services::SheetEdit::SetResource { resource: Resource::HitPoints, current: 8 };
    services::scattershot_sheet_edit(&mut store, ada, &hurt).unwrap();
    services::journal_end(&mut store, game).unwrap();

    assert_eq!(strength, "Ada buys +1 Strength (1 point(s); 2 spent).");
    let table = lines(&table_view(&store, game), 1);
    assert_eq!(table, vec![(Group::Purchases, strength), (Group::Purchases, climbing)]);
    assert_eq!(table_view(&store, game).sessions[0].happened[0].title, "Purchases");
    let player = lines(&services::journal_for(store.read(), game, &Viewer::Player(vec![ada])).unwrap(), 1);
    assert_eq!(player, table, "a sheet everyone reads: the same for a player");
}

#[test]
fn mezzo_plot_hooks_made_invested_in_resolved_and_expired_are_each_in_their_own_group() {
    use sheetkeeper::rules::mezzo::challenge::{ChallengerSetup, SideSetup};
    use sheetkeeper::rules::mezzo::element::{ElementKind, MomentumSource};
    use sheetkeeper::rules::mezzo::plot::{BoostDraw, InChallenge, Resource, Sacrifice, User};
    use sheetkeeper::services::HookDraft;

    let (_s, mut store, game, [mira, _tomas]) = new_game("Cove", "mezzo", ["Mira", "Tomas"]);
    for name in ["Ada", "Bo"] {
        services::mezzo_add_player(&mut store, game, name).unwrap();
    }
    services::mezzo_add_element(&mut store, game, ElementKind::Location, "The Lighthouse").unwrap();
    services::mezzo_start_arc(&mut store, game).unwrap();
    let table = services::mezzo_table(&store, game).unwrap();
    let player = |name: &str| table.players.iter().find(|p| p.player.name == name).unwrap().player.id;
    let lighthouse = table.elements.iter().find(|e| e.element.name == "The Lighthouse").unwrap().element.id;
    let (ada, bo) = (player("Ada"), player("Bo"));
    services::mezzo_gain_momentum(&mut store, game, lighthouse, 10, MomentumSource::PlotHook).unwrap();

    services::journal_start(&mut store, game, "2026-11-01", &names(&["Ada", "Bo"])).unwrap();
    // Hook texts that name harm, a debt and a reward: the journal must not sort by them.
    let through = User { player: ada, element: Some(lighthouse) };
    for text in ["Who did the harm?", "The debt", "A reward for the map", "The tide", "The bell"] {
        let draft = HookDraft { text: text.into(), elements: Vec::new(), pay_with: Resource::Momentum };
        services::mezzo_create_hook(&mut store, game, &through, &draft).unwrap();
    }
    let hooks: Vec<Uuid> = services::mezzo_plot(&store, game).unwrap().hooks.iter().map(|h| h.hook.id).collect();
    let bo_alone = User { player: bo, element: None };
    services::mezzo_invest(&mut store, game, hooks[0], &bo_alone, Resource::Influence, 2).unwrap();
    services::mezzo_invest(&mut store, game, hooks[1], &through, Resource::Momentum, 1).unwrap();
    let draft = services::MezzoChallengeDraft {
        description: "The storm".into(),
        sides: vec![SideSetup { name: "Crew".into() }, SideSetup { name: "Sea".into() }],
        challengers: vec![
            ChallengerSetup { element: mira, side: 0, stake: None },
            ChallengerSetup { element: lighthouse, side: 1, stake: None },
        ],
        goals: Vec::new(),
    };
    let started = services::mezzo_challenge_start(&mut store, game, &draft).unwrap();
    let challenge = InChallenge { id: started.challenge.expect("a challenge").id, challengers: vec![mira, lighthouse] };
    let sacrifices = [Sacrifice { hook: hooks[0], resource: Resource::Influence }];
    let draws = [BoostDraw { challenger: mira, hook: hooks[0] }];
    services::mezzo_turning_point(&mut store, game, &hooks, &challenge, &sacrifices, &draws).unwrap();
    let ada_alone = User { player: ada, element: None };
    services::mezzo_resolve_hook(&mut store, game, hooks[4], &ada_alone, Resource::Influence, None).unwrap();
    services::mezzo_challenge_play(&mut store, game, &json!({ "move": "surrender", "challenger": mira })).unwrap();
    services::mezzo_challenge_play(&mut store, game, &json!({ "move": "depart" })).unwrap();
    services::mezzo_end_arc(&mut store, game, &[]).unwrap();
    services::journal_end(&mut store, game).unwrap();

    let got = lines(&table_view(&store, game), 1);
    let group_of = |part: &str| groups_of(&got, part);
    assert_eq!(group_of("makes the plot hook"), vec![Group::Other; 5], "making a hook resolves none: {got:?}");
    assert_eq!(group_of(" invests "), vec![Group::Other; 2], "investing momentum or influence is no award");
    assert_eq!(group_of(" resolves “The bell”"), vec![Group::Hooks], "only resolving is a hook resolved");
    assert_eq!(group_of("plot hook(s) expire"), vec![Group::Other], "the arc's end: its hooks expire unresolved");
    let resolved: Vec<&String> = got.iter().filter(|(g, _)| *g == Group::Hooks).map(|(_, l)| l).collect();
    assert_eq!(resolved.len(), 1, "nothing else is a hook resolved: {got:?}");
}

/// Mezzo's Log tab lists every move to every viewer (it takes no viewer): a discarded card
/// is named there, as it lies face up on the discard pile. A player's recap holds those
/// moves and nothing more.
#[test]
fn a_mezzo_players_recap_holds_what_the_log_tab_shows_them_and_nothing_more() {
    let (_s, mut store, game, [_mira]) = new_game("Cove", "mezzo", ["Mira"]);
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for name in ["Ada", "Bo"] {
        services::mezzo_add_player(&mut store, game, name).unwrap();
    }
    services::mezzo_start_arc(&mut store, game).unwrap();
    let table = services::mezzo_table(&store, game).unwrap();
    let player = |name: &str| table.players.iter().find(|p| p.player.name == name).unwrap().player.id;
    let (ada, bo) = (player("Ada"), player("Bo"));
    let ideas: Vec<String> = ["a storm", "a debt", "a ghost", "a map", "a wreck", "a song"].map(String::from).to_vec();
    services::mezzo_build_deck(&mut store, game, &ideas, &mut rng).unwrap();
    // The journal's session opens the seed deck's initial draw (one move).
    services::journal_start(&mut store, game, "2026-11-01", &names(&["Ada", "Bo"])).unwrap();
    services::mezzo_buy_cards(&mut store, game, ada, 2, &mut rng).unwrap();
    services::mezzo_start_scene(&mut store, game).unwrap();
    services::mezzo_end_scene(&mut store, game).unwrap();
    let card = services::mezzo_hand(&store, game, ada).unwrap().hand[0].clone();
    services::mezzo_refresh(&mut store, game, ada, card.id, false, &mut rng).unwrap();
    services::journal_end(&mut store, game).unwrap();

    let discarded = format!("Ada discards “{}”.", card.text);
    let deck = services::mezzo_deck(&store, game).unwrap();
    assert_eq!(deck.discard.iter().map(|c| c.text.clone()).collect::<Vec<_>>(), vec![card.text.clone()], "face up");
    let log: Vec<String> = services::mezzo_log(&store, game, 200)
        .unwrap()
        .into_iter()
        .rev()
        .filter(|e| !e.dice && !e.undone)
        .skip_while(|e| !e.action.starts_with("Ada buys"))
        .map(|e| e.action)
        .collect();
    // The session's own end is the journal's, not a line of what happened in it.
    assert_eq!(log.last().map(String::as_str), Some("Session 1 ends."));
    let log = &log[..log.len() - 1];
    assert!(log.contains(&discarded), "the Log tab names the discarded card to every viewer: {log:?}");
    for viewer in [Viewer::Player(vec![bo]), Viewer::Player(vec![ada]), Viewer::Everyone] {
        let recap = said(&services::journal_for(store.read(), game, &viewer).unwrap());
        let mut sorted = recap.clone();
        sorted.sort();
        let mut shown = log.to_vec();
        shown.sort();
        assert_eq!(sorted, shown, "{viewer:?}: the recap is the session's moves as the Log tab shows them");
        assert!(recap.contains(&discarded));
    }
}

#[test]
fn a_penny_ante_session_files_a_characteristic_bought_the_challenge_and_the_pot_won() {
    use sheetkeeper::rules::penny_ante::challenge::{Move, Side};

    let (_s, mut store, game, ada, bo) = penny_ada_and_bo("Heist", &[]);
    services::journal_start(&mut store, game, "2026-11-01", &names(&["Ada", "Bo"])).unwrap();
    services::penny_buy_characteristic(&mut store, game, ada, "Quick").unwrap();
    services::penny_start_adventure(&mut store, game, None).unwrap();
    penny_duel(&mut store, game, "the vault door", 2, ada, bo);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    penny_duel_rolls(
        |mv, dice| {
            penny_move(&mut store, game, mv, dice, &mut rng);
        },
        [(ada, "Strong"), (bo, "Clever")],
        (&[6, 6], &[1, 1]),
    );
    penny_move(&mut store, game, Move::Cup { side: Side::Challenger, cup: vec![] }, &[], &mut rng);
    penny_move(&mut store, game, Move::Cup { side: Side::Opponent, cup: vec![] }, &[], &mut rng);
    for _ in 0..12 {
        let Some(next) = penny_move_to_the_end(&store, game) else { break };
        penny_move(&mut store, game, next, &[], &mut rng);
    }
    services::journal_end(&mut store, game).unwrap();

    let got = lines(&table_view(&store, game), 1);
    let group_of = |part: &str| groups_of(&got, part);
    assert_eq!(group_of("takes “Quick”"), vec![Group::Purchases], "a characteristic bought: {got:?}");
    assert_eq!(group_of("the pot of"), vec![Group::Rewards], "the pot won");
    assert_eq!(group_of("uses “Strong”"), vec![Group::Rolls], "the challenge's moves");
    assert_eq!(group_of("Ada stands."), vec![Group::Rolls; 2], "a bet is a move of the challenge");
    assert!(group_of("names no circumstance").iter().all(|g| *g == Group::Rolls), "{got:?}");
}
