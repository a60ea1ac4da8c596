//! Scattershot's Mechanix in files: golden game and character files pinned byte for byte, a
//! table with mechanical play that travels whole, copies that follow their characters, and
//! malformed files refused naming each problem at its JSON path with the database unchanged.
//!
//! `SHEETKEEPER_BLESS=1 cargo test -p sheetkeeper scattershot_exchange` rewrites the golden
//! files from the scene; review the diff before keeping it.

use serde_json::{json, Value};
use sheetkeeper::exchange::{Document, GameEntry};
use sheetkeeper::model::{Game, System};
use sheetkeeper::rules::journal::{Journal, Session};
use sheetkeeper::rules::record::CharacterRecord;
use sheetkeeper::rules::scattershot::free_skills::ListedFreeSkill;
use sheetkeeper::rules::scattershot::mechanical_play::{Gain, MechanicalPlay, Seat};
use sheetkeeper::rules::scattershot::sheet::{AbilityKind, Difficulty, Lasts, Purchase, Resource, Sheet, Statistic};
use sheetkeeper::rules::scattershot::skill_listings::{DefaultFrom, SkillDefault, SkillListing};
use sheetkeeper::rules::scattershot::table::{Player, ScattershotTable};
use sheetkeeper::rules::scattershot::ue_chart::UeRow;
use sheetkeeper::rules::scattershot::Settings;
use sheetkeeper::rules::table_settings;
use sheetkeeper::services::{self, *};
use sheetkeeper::Problem;
use uuid::Uuid;

use crate::support::files::{self, assert_golden_files, entry, golden, GoldenGame};
use crate::support::{fixture, scene_character, scene_game, Scratch};

const GAME_FILE: &str = "scattershot-game.sheetkeeper.json";
const CHARACTER_FILE: &str = "scattershot-character.sheetkeeper.json";
const GAME: u128 = 0x5c00;
const GIZMO: u128 = 0x5c01;
const ROOK: u128 = 0x5c02;
/// Wren, Gizmo's sister, played by the same player (audit D-SC4).
const WREN: u128 = 0x5c03;
const PLAYER: u128 = 0x5c10;

fn uuid(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

struct Scene {
    game: Game,
    characters: Vec<CharacterRecord>,
    table: ScattershotTable,
    /// Two sessions, the second being played.
    journal: Journal,
}

fn record(game: &Game, id: u128, name: &str, revision: i64, sheet: Sheet) -> CharacterRecord {
    let times = ("2026-10-01T18:05:00Z", "2026-10-08T21:00:00Z");
    let character = scene_character(game, uuid(id), name, revision, times);
    CharacterRecord { scattershot: Some(sheet), ..CharacterRecord::new(character) }
}

/// Gizmo, a tinkerer mid-fight with Rook, who holds an advantage against her and has a hit
/// waiting for the lull. Jo plays Gizmo and Wren, whose experience dice are Jo's one stock.
fn scene() -> Scene {
    let mut settings = table_settings::defaults(System::Scattershot);
    settings.insert("default_factor".into(), 2);
    // Reduced resources give −1 at or below 80 %: Gizmo's Hit Points (7 of 10) are that low.
    settings.insert("low_resource_percent".into(), 80);
    let times = ("2026-10-01T18:00:00Z", "2026-10-08T21:30:00Z");
    let game = Game { table_settings: settings, ..scene_game(uuid(GAME), "Rust Belt Run", System::Scattershot, times) };
    let rules = Settings::default();
    let buy = |sheet: Sheet, p: Purchase| sheet.buy(&rules, &p).unwrap().0;
    let mut gizmo = Sheet::new(Some(30));
    for statistic in [Statistic::Agility, Statistic::Agility, Statistic::Power, Statistic::Observation] {
        gizmo = buy(gizmo, Purchase::Statistic { statistic });
    }
    gizmo = buy(gizmo, Purchase::NewFreeSkill { name: "Swimming".into(), starting_level: 9 });
    gizmo = buy(gizmo, Purchase::NewFreeSkill { name: "Haggling".into(), starting_level: 8 });
    gizmo = buy(gizmo, Purchase::FreeSkill { index: 1 });
    gizmo = buy(gizmo, Purchase::NewSkill { name: "Tinkering".into(), difficulty: Difficulty::Difficult });
    gizmo = buy(gizmo, Purchase::Skill { index: 0 });
    gizmo = buy(
        gizmo,
        Purchase::NewSpecialAbility {
            name: "Spark".into(),
            kind: AbilityKind::Spell,
            difficulty: Difficulty::Renowned,
            notes: "A jolt through metal.\nNeeds contact.".into(),
        },
    );
    gizmo = buy(
        gizmo,
        Purchase::NewAdvantage { name: "Nimble fingers".into(), situation: "fine work".into(), modifier: 1, points: 2 },
    );
    gizmo = gizmo.add_disadvantage("Short-sighted", "at a distance", -1).unwrap().0;
    gizmo = gizmo.finish_creation().unwrap().0;
    // Gizmo's dice are her player's: Jo's stock holds them.
    gizmo.player = Some(uuid(PLAYER));
    gizmo = gizmo.set_resource(Resource::HitPoints, 7).unwrap().0;
    gizmo = gizmo.expend_power(0, 2).unwrap().0;
    gizmo = gizmo.set_description("A tinkerer who never leaves a lock unpicked.").unwrap().0;
    gizmo = gizmo.add_modifier("Bonus: the vault door", 1, Lasts::Session).unwrap().0;
    let rook = buy(Sheet::new(None), Purchase::Statistic { statistic: Statistic::Strength });
    let rook = rook.set_npc(true).0;
    let wren = Sheet {
        player: Some(uuid(PLAYER)),
        ..buy(Sheet::new(None), Purchase::Statistic { statistic: Statistic::Reaction })
    };
    let characters = vec![
        record(&game, GIZMO, "Gizmo Vance", 12, gizmo),
        record(&game, ROOK, "Rook", 3, rook),
        record(&game, WREN, "Wren Vance", 2, wren),
    ];

    let seats =
        [Seat { character: uuid(GIZMO), player: uuid(PLAYER) }, Seat { character: uuid(ROOK), player: uuid(ROOK) }];
    let (play, _) = MechanicalPlay::start(&seats, uuid(ROOK), &rules, false).unwrap();
    let play = play.engage(uuid(ROOK), Some(uuid(GIZMO))).unwrap().0;
    let play = play.gain_advantage(uuid(ROOK), uuid(GIZMO), Gain::Seize).unwrap().0;
    let play = play.free_action(uuid(GIZMO), "duck").unwrap().0;
    let play = play.hold_penalties(|id| if id == uuid(GIZMO) { -1 } else { 0 });
    let ue_chart = vec![
        UeRow { index: 1, factor: 1, points: 1, bonus: 1, magnitude: "a person".into() },
        UeRow { index: 8, factor: 2, points: 2, bonus: 1, magnitude: "a room".into() },
    ];
    // The game's list of free skills, which Gizmo's two free skills came from.
    let free_skill_list = vec![
        ListedFreeSkill { name: "Swimming".into(), starting_level: 9 },
        ListedFreeSkill { name: "Haggling".into(), starting_level: 8 },
        ListedFreeSkill { name: "Knot-tying".into(), starting_level: 10 },
    ];
    let players = vec![Player { id: uuid(PLAYER), name: "Jo".into(), dice: 3 }];
    // The game's skill listings: Climbing defaults to Agility −3 with its restriction;
    // Lockpicking has no default.
    let skill_listings = vec![
        SkillListing {
            name: "Climbing".into(),
            difficulty: Difficulty::Difficult,
            default: Some(SkillDefault {
                from: DefaultFrom::Statistic(Statistic::Agility),
                modifier: -3,
                restriction: "Only with a rope to hand".into(),
            }),
        },
        SkillListing { name: "Lockpicking".into(), difficulty: Difficulty::Exceptional, default: None },
    ];
    let table = ScattershotTable {
        players,
        gm_dice: 5,
        play: Some(play),
        ue_chart,
        free_skill_list,
        skill_listings,
        ..ScattershotTable::default()
    };
    let session = |number, date: &str, open| Session {
        number,
        date: date.into(),
        attendees: vec!["Gizmo Vance".into(), "Wren Vance".into()],
        notes: String::new(),
        open,
        span: None,
        recorded: Vec::new(),
    };
    let journal = Journal { sessions: vec![session(1, "2026-10-01", false), session(2, "2026-10-08", true)] };
    Scene { game, characters, table, journal }
}

/// The scene as a game file, and Gizmo as a character file.
fn documents(s: &Scene) -> (Document, Document) {
    let game = GameEntry {
        scattershot_table: Some(s.table.clone()),
        journal: Some(s.journal.clone()),
        ..entry(&s.game, s.characters.clone())
    };
    let gizmo = entry(&s.game, vec![s.characters[0].clone()]);
    files::documents(System::Scattershot, "2026-10-09T08:00:00Z", game, gizmo)
}

#[test]
fn the_golden_files_are_the_scene_byte_for_byte_and_parse_back_to_it() {
    let (game, character) = documents(&scene());
    assert_golden_files([(GAME_FILE, &game), (CHARACTER_FILE, &character)]);
}

#[test]
fn a_game_imported_from_its_golden_file_exports_the_same_file_plays_on_and_its_import_is_undone() {
    let scene = scene();
    let golden = GoldenGame {
        game_file: GAME_FILE,
        character_file: CHARACTER_FILE,
        game: uuid(GAME),
        character: uuid(GIZMO),
        things: 4,
    };
    let (s, mut store) = golden.imports_and_exports_the_same_files(|store| {
        assert_eq!(store.read().scattershot_table(scene.game.id).unwrap(), scene.table);
        for r in &scene.characters {
            assert_eq!(store.read().scattershot_sheet(r.character.id).unwrap(), r.scattershot);
        }
    });

    // A newer table from another device is an update; undoing the import brings this one back.
    golden.a_newer_table_is_an_update_that_undo_takes_back(
        (&s, &mut store),
        ("scattershot_table", "scattershot table"),
        |table| table["gm_dice"] = json!(9),
        |store| store.read().scattershot_table(scene.game.id).unwrap(),
        |table| assert_eq!(table.gm_dice, 9),
    );
    assert_eq!(store.read().scattershot_table(scene.game.id).unwrap(), scene.table, "as before the import");

    // Play goes on from the file: the advantage Rook holds lowers Gizmo's roll, her Bonus
    // raises it until the session (the file's second, running) ends; Rook is an NPC.
    let view = services::scattershot_table(&store, scene.game.id).unwrap();
    assert_eq!((view.facets.factor, view.gm_dice, view.sessions, view.in_session), (2, 5, 2, true));
    assert_eq!(view.ue_chart, scene.table.ue_chart);
    let gizmo = view.characters.iter().find(|c| c.id == uuid(GIZMO)).unwrap();
    assert_eq!((gizmo.penalty, gizmo.temporary_modifier), (-1, 1));
    // Jo plays Gizmo and Wren: one stock of 3, shown for both.
    assert_eq!(view.players.len(), 1);
    assert_eq!((view.players[0].name.as_str(), view.players[0].dice), ("Jo", 3));
    assert_eq!(view.players[0].characters, vec![uuid(GIZMO), uuid(WREN)]);
    let wren = view.characters.iter().find(|c| c.id == uuid(WREN)).unwrap();
    assert_eq!((gizmo.experience_dice, gizmo.player, wren.experience_dice), (3, Some(uuid(PLAYER)), 3));
    let play = view.play.unwrap();
    assert_eq!((play.npcs, play.players, play.scope_shift), (1, 1, true));
    services::scattershot_play(&mut store, scene.game.id, &PlayMove::End).unwrap();
    let sheet = services::scattershot_sheet(&store, uuid(GIZMO)).unwrap();
    assert_eq!((sheet.resources[0].current, sheet.temporary_modifier), (7, 1));
    services::scattershot_table_edit(&mut store, scene.game.id, &TableEdit::EndSession).unwrap();
    assert_eq!(services::scattershot_sheet(&store, uuid(GIZMO)).unwrap().temporary_modifier, 0);
}

#[test]
fn an_older_table_with_results_waiting_for_the_lull_still_lands_them_when_play_ends() {
    let s = Scratch::new();
    let mut store = s.open();
    let mut file = golden(GAME_FILE);
    file["data"]["games"][0]["scattershot_table"]["play"]["pending"] =
        json!([{"target": uuid(GIZMO), "resource": "hit_points", "amount": 4}]);
    let older = s.file("older.json");
    std::fs::write(&older, serde_json::to_vec(&file).unwrap()).unwrap();
    import(&mut store, &older, ImportOptions::default()).unwrap();
    let change = services::scattershot_play(&mut store, uuid(GAME), &PlayMove::End).unwrap();
    assert!(change.message.contains("results land on Gizmo Vance"), "{}", change.message);
    assert_eq!(services::scattershot_sheet(&store, uuid(GIZMO)).unwrap().resources[0].current, 3);
}

#[test]
fn an_older_files_count_of_sessions_becomes_the_journals_sessions() {
    // As an older version wrote it: the table counts two sessions, the second being played,
    // and there is no journal.
    let s = Scratch::new();
    let mut store = s.open();
    let mut file = golden(GAME_FILE);
    let game = file["data"]["games"][0].as_object_mut().unwrap();
    game.remove("journal");
    game["scattershot_table"]["sessions"] = json!(2);
    game["scattershot_table"]["in_session"] = json!(true);
    let older = s.file("older.json");
    std::fs::write(&older, serde_json::to_vec(&file).unwrap()).unwrap();
    import(&mut store, &older, ImportOptions::default()).unwrap();
    let journal = store.read().journal(uuid(GAME)).unwrap();
    let read: Vec<(u32, &str, bool, usize)> =
        journal.sessions.iter().map(|s| (s.number, s.date.as_str(), s.open, s.attendees.len())).collect();
    assert_eq!(read, [(1, "2026-10-08", false, 0), (2, "2026-10-08", true, 0)], "dated the game's last change");
    assert!(journal.sessions[0].notes.contains("older version"), "{}", journal.sessions[0].notes);
    let view = services::scattershot_table(&store, uuid(GAME)).unwrap();
    assert_eq!((view.sessions, view.in_session), (2, true));
    // The session being played ends from the table as from the journal: Gizmo's Bonus, kept
    // until then, ends with it.
    let ended = services::journal_end(&mut store, uuid(GAME)).unwrap();
    assert_eq!(ended.message, "Session 2 ends; residual modifiers end for Gizmo Vance.");
    assert!(!ended.view.sessions[1].open);
    let view = services::scattershot_table(&store, uuid(GAME)).unwrap();
    assert_eq!(view.characters.iter().find(|c| c.id == uuid(GIZMO)).unwrap().temporary_modifier, 0);
    assert!(store.check().unwrap().ok);
}

#[test]
fn copies_bring_their_sheets_and_mechanical_play_follows_the_copied_characters() {
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture(GAME_FILE), ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    let copy = services::list(&store).unwrap().into_iter().next().unwrap();
    assert_ne!(copy.game.id, uuid(GAME));
    let table = store.read().scattershot_table(copy.game.id).unwrap();
    let play = table.play.unwrap();
    let ids: Vec<Uuid> = copy.characters.iter().map(|c| c.id).collect();
    assert!(play.combatants.iter().all(|c| ids.contains(&c.character)));
    assert_eq!(play.combatants[0].player, play.combatants[0].character, "Rook is its own player, copied with it");
    assert_eq!(play.combatants[1].player, uuid(PLAYER), "a player who is not a character keeps its id");
    assert!(store.check().unwrap().ok);

    // A character file on a device without the game: the game arrives with an empty table.
    // Gizmo's file names her player but carries none of Jo's stock (the dice are the
    // player's, not the character's): where the table does not know Jo, Gizmo stands as her
    // own player, with no dice.
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture(CHARACTER_FILE), ImportOptions::default()).unwrap();
    assert_eq!(store.read().scattershot_table(uuid(GAME)).unwrap(), ScattershotTable::default());
    assert_eq!(store.read().scattershot_sheet(uuid(GIZMO)).unwrap(), scene().characters[0].scattershot);
    let view = services::scattershot_table(&store, uuid(GAME)).unwrap();
    assert_eq!((view.characters[0].player, view.characters[0].experience_dice), (None, 0));
    assert!(view.players.is_empty());
    assert!(store.check().unwrap().ok);
}

#[test]
fn an_older_file_without_sheets_or_new_settings_imports_and_plays_with_defaults() {
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture("backup.sheetkeeper.json"), ImportOptions::default()).unwrap();
    let gizmo = uuid(0x8b0c2d4e_6f7a_4b8c_9d0e_1f2a3b4c5d6e);
    let view = services::scattershot_sheet(&store, gizmo).unwrap();
    assert_eq!((view.points_spent, view.resources[0].current), (0, 10));
    let game = view.character.game_id;
    let table = services::scattershot_table(&store, game).unwrap();
    assert_eq!((table.facets.factor, table.creation_limit), (1, None));
    let edit = SheetEdit::Buy { purchase: Purchase::Statistic { statistic: Statistic::Reaction } };
    services::scattershot_sheet_edit(&mut store, gizmo, &edit).unwrap();
    assert!(store.check().unwrap().ok);
}

/// Imports `text` into a database holding the golden game and returns the problems; the
/// database must be byte-for-byte unchanged.
fn rejected(what: &str, text: &Value) -> Vec<Problem> {
    files::rejected(what, text, |store| {
        import(store, &fixture(GAME_FILE), ImportOptions::default()).unwrap();
    })
}

#[test]
fn malformed_scattershot_files_are_refused_naming_every_problem() {
    let game = "$.data.games[0]";
    let gizmo = format!("{game}.characters[0].scattershot");
    let table = format!("{game}.scattershot_table");
    type Breaks = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Breaks, Vec<String>)> = vec![
        (
            "a sheet breaking the rules",
            Box::new(|f| {
                let sheet = &mut f["data"]["games"][0]["characters"][0]["scattershot"];
                sheet["skills"][0]["points"] = json!(0);
                sheet["qualities"][1]["modifier"] = json!(3);
                sheet["lost"]["power"] = json!(100_001);
            }),
            vec![
                format!("{gizmo}.skills[0].points"),
                format!("{gizmo}.qualities[1].modifier"),
                format!("{gizmo}.lost.power"),
            ],
        ),
        (
            "a field the sheet does not have",
            Box::new(|f| f["data"]["games"][0]["characters"][0]["scattershot"]["statistics"]["luck"] = json!(1)),
            vec![format!("{gizmo}.statistics.luck")],
        ),
        (
            "a wrong type",
            Box::new(|f| f["data"]["games"][0]["characters"][0]["scattershot"]["experience_dice"] = json!(-1)),
            vec![format!("{gizmo}.experience_dice")],
        ),
        (
            "mechanical play out of order",
            Box::new(|f| {
                let play = &mut f["data"]["games"][0]["scattershot_table"]["play"];
                play["turn"] = json!(5);
                play["combatants"][1]["character"] = json!("00000000-0000-0000-0000-00000000beef");
                play["pending"] = json!([{"target": uuid(GIZMO), "resource": "hit_points", "amount": 200_000}]);
            }),
            vec![
                format!("{table}.play.turn"),
                format!("{table}.play.combatants[0].engaged"),
                format!("{table}.play.combatants[1].character"),
                format!("{table}.play.pending[0].amount"),
            ],
        ),
        (
            "a UE chart, sessions and residual modifiers breaking the rules",
            Box::new(|f| {
                let t = &mut f["data"]["games"][0]["scattershot_table"];
                t["ue_chart"][1]["index"] = json!(1);
                t["ue_chart"][0]["bonus"] = json!(101);
                t["sessions"] = json!(0);
                t["in_session"] = json!(true);
                let sheet = &mut f["data"]["games"][0]["characters"][0]["scattershot"];
                sheet["modifiers"][0]["value"] = json!(120);
                sheet["description"] = json!("x".repeat(2001));
            }),
            vec![
                format!("{gizmo}.modifiers[0].value"),
                format!("{gizmo}.description"),
                format!("{table}.ue_chart[0].bonus"),
                format!("{table}.ue_chart[1].index"),
                format!("{table}.in_session"),
            ],
        ),
        (
            "an older count of sessions past what a journal holds",
            Box::new(|f| f["data"]["games"][0]["scattershot_table"]["sessions"] = json!(5_000_000)),
            vec![format!("{table}.sessions")],
        ),
        (
            "a held penalty for reduced resources above 0",
            Box::new(|f| {
                f["data"]["games"][0]["scattershot_table"]["play"]["combatants"][1]["reduced_penalty"] = json!(2)
            }),
            vec![format!("{table}.play.combatants[1].reduced_penalty")],
        ),
        (
            "a list of free skills naming one twice, one at a level out of range",
            Box::new(|f| {
                let list = &mut f["data"]["games"][0]["scattershot_table"]["free_skill_list"];
                list[1]["name"] = json!("swimming");
                list[2]["starting_level"] = json!(100);
            }),
            vec![format!("{table}.free_skill_list[1].name"), format!("{table}.free_skill_list[2].starting_level")],
        ),
        (
            "skill listings: a default's modifier out of range, one with no restriction, a fixed rating too high",
            Box::new(|f| {
                let list = &mut f["data"]["games"][0]["scattershot_table"]["skill_listings"];
                list[0]["default"]["modifier"] = json!(-100);
                list[0]["default"]["restriction"] = json!(" ");
                list[1]["default"] = json!({"from": {"rating": 120}, "restriction": "Never in a hurry"});
            }),
            vec![
                format!("{table}.skill_listings[0].default.modifier"),
                format!("{table}.skill_listings[0].default.restriction"),
                format!("{table}.skill_listings[1].default.from.rating"),
            ],
        ),
        (
            "a residual modifier lasting an unknown while",
            Box::new(|f| {
                f["data"]["games"][0]["characters"][0]["scattershot"]["modifiers"][0]["lasts"] = json!("forever")
            }),
            vec![format!("{gizmo}.modifiers[0].lasts")],
        ),
        (
            "a player with no name, a player with a character's id",
            Box::new(|f| {
                f["data"]["games"][0]["scattershot_table"]["players"] = json!([
                    {"id": uuid(PLAYER), "name": " ", "dice": 3},
                    {"id": uuid(ROOK), "name": "Rook's player"},
                ]);
            }),
            vec![format!("{table}.players[0].name"), format!("{table}.players[1].id")],
        ),
        (
            "played sheets holding dice of their own (they are their player's stock)",
            Box::new(|f| {
                let characters = &mut f["data"]["games"][0]["characters"];
                characters[0]["scattershot"]["experience_dice"] = json!(2);
                characters[2]["scattershot"]["experience_dice"] = json!(1);
            }),
            vec![format!("{gizmo}.experience_dice"), format!("{game}.characters[2].scattershot.experience_dice")],
        ),
        (
            "a table setting out of range",
            Box::new(|f| f["data"]["games"][0]["table_settings"]["default_bonus"] = json!(101)),
            vec![format!("{game}.table_settings.default_bonus")],
        ),
    ];
    for (what, break_it, expected) in cases {
        let mut file = golden(GAME_FILE);
        break_it(&mut file);
        let paths: Vec<String> = rejected(what, &file).into_iter().map(|p| p.path).collect();
        assert_eq!(paths, expected, "{what}");
    }
    // A character file carries no table; a sheet belongs to its own system's characters.
    let mut file = golden(CHARACTER_FILE);
    file["data"]["games"][0]["scattershot_table"] = json!({"gm_dice": 1});
    let paths: Vec<String> = rejected("a table in a character file", &file).into_iter().map(|p| p.path).collect();
    assert_eq!(paths, vec![table.clone()]);
    let mut file = golden("nsu-game.sheetkeeper.json");
    file["data"]["games"][0]["characters"][0]["scattershot"] = json!({});
    file["data"]["games"][0]["scattershot_table"] = json!({});
    let paths: Vec<String> = rejected("Scattershot parts in an NSU game", &file).into_iter().map(|p| p.path).collect();
    for expected in [format!("{game}.characters[0].scattershot"), table] {
        assert!(paths.contains(&expected), "{expected} in {paths:?}");
    }
}
