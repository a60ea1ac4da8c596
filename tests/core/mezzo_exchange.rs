//! Mezzo in files: golden game and character files pinned byte for byte, a table that
//! travels whole with its claims, a character arriving claimed as its new table says, and
//! malformed files refused naming each field with the database unchanged.
//!
//! `SHEETKEEPER_BLESS=1 cargo test -p sheetkeeper mezzo_exchange` rewrites the golden files
//! from the scene; review the diff before keeping it.

use serde_json::{json, Value};
use sheetkeeper::exchange::{self, Document, GameEntry};
use sheetkeeper::model::System;
use sheetkeeper::rules::mezzo::table::MezzoTable;
use sheetkeeper::services::{self, *};
use sheetkeeper::{Error, Problem};
use uuid::Uuid;

use crate::mezzo_store::{insert_scene, scene, uuid, Scene, ADA, BO, CY, GAME, LIGHTHOUSE, MIRA, TOMAS};
use crate::support::files::{self, assert_each_refused, assert_golden_files, entry, golden, Case, GoldenGame};
use crate::support::{bytes_on_disk, fixture, Scratch};

const GAME_FILE: &str = "mezzo-game.sheetkeeper.json";
const CHARACTER_FILE: &str = "mezzo-character.sheetkeeper.json";

/// The scene's game file (the game, Mira and Tomas) and Mira's character file.
fn golden_game() -> GoldenGame<'static> {
    GoldenGame {
        game_file: GAME_FILE,
        character_file: CHARACTER_FILE,
        game: uuid(GAME),
        character: uuid(MIRA),
        things: 3,
    }
}

/// The scene as a game file.
pub fn game_file(s: &Scene) -> Document {
    documents(s).0
}

/// The scene as a game file, and Mira as a character file.
fn documents(s: &Scene) -> (Document, Document) {
    let game = GameEntry { mezzo_table: Some(s.table.clone()), ..entry(&s.game, s.characters.clone()) };
    files::documents(System::Mezzo, "2026-09-16T09:30:00Z", game, entry(&s.game, vec![s.characters[0].clone()]))
}

#[test]
fn the_golden_files_are_the_scene_byte_for_byte_and_parse_back_to_it() {
    let (game, character) = documents(&scene());
    assert_golden_files([(GAME_FILE, &game), (CHARACTER_FILE, &character)]);
}

#[test]
fn a_game_imported_from_its_golden_file_exports_the_same_file_and_its_import_is_undone() {
    let scene = scene();
    let (s, mut store) = golden_game().imports_and_exports_the_same_files(|store| {
        assert_eq!(store.read().mezzo_table(scene.game.id).unwrap(), scene.table);
        for r in &scene.characters {
            assert_eq!(store.read().mezzo_sheet(r.character.id).unwrap(), r.mezzo);
        }
    });
    // A newer table from another device is an update; undoing the import brings this one back.
    golden_game().a_newer_table_is_an_update_that_undo_takes_back(
        (&s, &mut store),
        ("mezzo_table", "mezzo table"),
        |table| table["arc"] = json!(3),
        |store| store.read().mezzo_table(scene.game.id).unwrap(),
        |table| assert_eq!(table.arc(), 3),
    );
    assert_eq!(store.read().mezzo_table(scene.game.id).unwrap(), scene.table);
}

#[test]
fn a_character_arrives_claimed_as_its_new_table_says() {
    let scene = scene();
    let mira = &scene.characters[0];
    assert_eq!(mira.mezzo.as_ref().unwrap().claimed_by, Some(uuid(ADA)), "claimed in the file");

    // A device without the game: the game arrives with an empty table, Mira unclaimed.
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture(CHARACTER_FILE), ImportOptions::default()).unwrap();
    let sheet = store.read().mezzo_sheet(uuid(MIRA)).unwrap().unwrap();
    assert_eq!(sheet.claimed_by, None);
    assert_eq!(sheet.traits, mira.mezzo.as_ref().unwrap().traits);
    assert_eq!(store.read().mezzo_table(uuid(GAME)).unwrap(), MezzoTable::default());
    let out = s.file("cove.json");
    export(&store, ExportScope::Game(uuid(GAME)), &out).unwrap();
    assert!(exchange::parse(&std::fs::read(&out).unwrap()).is_ok(), "what arrived exports a valid game file");

    // A device with the game: Ada's claim here stays, so the file is nothing new.
    let s = Scratch::new();
    let mut store = s.open();
    insert_scene(&mut store, &scene);
    let report = import(&mut store, &fixture(CHARACTER_FILE), ImportOptions::default()).unwrap();
    assert_eq!(report.counts.unchanged, 2, "{}", report.message);
    // As a copy: its own element, with its own id, claimed by no one.
    import(&mut store, &fixture(CHARACTER_FILE), ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    let view = services::mezzo_table(&store, uuid(GAME)).unwrap();
    let copy = view.characters.iter().find(|c| c.element.id != uuid(MIRA) && c.element.name == "Mira Vell").unwrap();
    assert_eq!((copy.element.claimed_by, copy.edge_slots), (None, 11));
    assert!(store.check().unwrap().ok);
}

#[test]
fn a_game_imported_as_a_copy_moves_its_claims_and_lent_protection_to_the_copies() {
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture(GAME_FILE), ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    let game = services::list(&store).unwrap()[0].clone();
    assert_ne!(game.game.id, uuid(GAME));
    let view = services::mezzo_table(&store, game.game.id).unwrap();
    let mira = view.characters.iter().find(|c| c.element.name == "Mira Vell").unwrap();
    assert_ne!(mira.element.id, uuid(MIRA));
    assert_eq!(mira.element.id, game.characters.iter().find(|c| c.name == "Mira Vell").unwrap().id);
    assert_eq!(view.players[0].player.claimed, [mira.element.id]);
    assert_eq!(mira.claimed_by_name.as_deref(), Some("Ada"));
    let lighthouse = view.elements.iter().find(|e| e.element.id == uuid(LIGHTHOUSE)).unwrap();
    assert_eq!(lighthouse.element.plot_protection.lent_by, Some(mira.element.id));
    assert!(view.characters.iter().all(|c| c.element.id != uuid(TOMAS)));
    assert!(store.check().unwrap().ok);
}

#[test]
fn a_table_changed_on_both_sides_is_a_conflict_that_replace_settles_with_the_sheets() {
    let (a, b) = (Scratch::new(), Scratch::new());
    let (mut phone, mut laptop) = (a.open(), b.open());
    for store in [&mut phone, &mut laptop] {
        import(store, &fixture(GAME_FILE), ImportOptions::default()).unwrap();
    }
    let game = uuid(GAME);
    let ada = uuid(ADA);
    // The phone: Ada spends influence. The laptop, later: Ada gives up Mira.
    services::mezzo_spend_influence(&mut phone, game, ada, 1).unwrap();
    services::mezzo_unclaim(&mut laptop, game, ada, uuid(MIRA)).unwrap();
    let file = a.file("cove.json");
    export(&phone, ExportScope::Game(game), &file).unwrap();
    let before = bytes_on_disk(&b.db());
    let err = import(&mut laptop, &file, ImportOptions::default()).unwrap_err();
    assert!(matches!(err, Error::Conflict { .. }), "{err}");
    assert_eq!(bytes_on_disk(&b.db()), before);
    import(&mut laptop, &file, ImportOptions { replace_conflicts: true, ..Default::default() }).unwrap();
    assert_eq!(laptop.read().mezzo_table(game).unwrap(), phone.read().mezzo_table(game).unwrap());
    assert_eq!(laptop.read().mezzo_sheet(uuid(MIRA)).unwrap().unwrap().claimed_by, Some(ada));
    assert!(laptop.check().unwrap().ok);
}

/// Imports `text` into a database holding the scene: refused, the database unchanged.
fn rejected(what: &str, text: &Value) -> Vec<Problem> {
    files::rejected(what, text, |store| insert_scene(store, &scene()))
}

/// Each change to a golden file, with the path and words of a problem it must cause.
#[test]
fn malformed_mezzo_files_are_refused_naming_the_field() {
    let game_cases: &[Case] = &[
        (
            "a Setting Law named as one of the source's",
            |v| v["data"]["games"][0]["mezzo_table"]["laws"][0]["name"] = json!("Potential"),
            "$.data.games[0].mezzo_table.laws[0].name",
            "one of the source's own laws",
        ),
        (
            "a fact written twice in one arc",
            |v| {
                let facts = v["data"]["games"][0]["mezzo_table"]["facts"].as_array_mut().unwrap();
                let mut again = facts[1].clone();
                again["id"] = json!(uuid_text(84));
                facts.push(again);
            },
            "$.data.games[0].mezzo_table.facts[2].text",
            "already a fact of this arc",
        ),
        (
            "a Setting Law's id given twice",
            |v| {
                let laws = v["data"]["games"][0]["mezzo_table"]["laws"].as_array_mut().unwrap();
                let mut again = laws[0].clone();
                again["name"] = json!("Law of the Moon");
                laws.push(again);
            },
            "$.data.games[0].mezzo_table.laws[1].id",
            "duplicate law id 70000000-0000-4000-8000-000000000050",
        ),
        (
            "a fact's id given twice",
            |v| {
                let facts = v["data"]["games"][0]["mezzo_table"]["facts"].as_array_mut().unwrap();
                facts[1]["id"] = facts[0]["id"].clone();
            },
            "$.data.games[0].mezzo_table.facts[1].id",
            "duplicate fact id 70000000-0000-4000-8000-000000000051",
        ),
        (
            "a fact of an arc not started",
            |v| v["data"]["games"][0]["mezzo_table"]["facts"][0]["arc"] = json!(7),
            "$.data.games[0].mezzo_table.facts[0].arc",
            "has not started",
        ),
        (
            "a consequence of an arc not played",
            |v| {
                v["data"]["games"][0]["mezzo_table"]["plot"]["consequences"] =
                    json!([{ "id": uuid_text(85), "arc": 7, "text": "Rumours", "contagious": true }]);
            },
            "$.data.games[0].mezzo_table.plot.consequences[0].arc",
            "is not an arc played",
        ),
        (
            "negative influence",
            |v| v["data"]["games"][0]["mezzo_table"]["players"][0]["influence"] = json!(-1),
            "$.data.games[0].mezzo_table.players[0].influence",
            "invalid value: integer `-1`",
        ),
        (
            "an unknown role",
            |v| v["data"]["games"][0]["mezzo_table"]["players"][0]["roles"] = json!(["narrator"]),
            "$.data.games[0].mezzo_table.players[0].roles[0]",
            "unknown variant `narrator`",
        ),
        (
            "an element active twice in the scene",
            |v| {
                let active = &mut v["data"]["games"][0]["mezzo_table"]["scene"]["active"];
                *active = json!([active[0].clone(), active[0].clone()]);
            },
            "$.data.games[0].mezzo_table.scene.active[1]",
            "is active twice",
        ),
        (
            "a ballot in the open conflict over what its player holds (DEV-1)",
            |v| {
                v["data"]["games"][0]["mezzo_table"]["open_conflict"] = json!({
                    "question": "Does the old bridge hold?",
                    "options": ["It holds", "It falls"],
                    "ballots": [{ "player": BO, "casts": [
                        { "kind": "influence", "player": BO, "option": 1, "points": 4 }
                    ] }]
                });
            },
            "$.data.games[0].mezzo_table.open_conflict.ballots[0].casts[0].points",
            "Bo holds 3 influence, not 4",
        ),
        (
            "a ballot in the open conflict casting another player's votes (DEV-1)",
            |v| {
                v["data"]["games"][0]["mezzo_table"]["open_conflict"] = json!({
                    "question": "Does the old bridge hold?",
                    "options": ["It holds", "It falls"],
                    "ballots": [{ "player": BO, "casts": [
                        { "kind": "free", "player": CY, "option": 0, "votes": 1 }
                    ] }]
                });
            },
            "$.data.games[0].mezzo_table.open_conflict.ballots[0].casts[0].player",
            "Bo casts only their own votes",
        ),
        (
            "a ballot in the open action check over what its player holds",
            |v| {
                v["data"]["games"][0]["mezzo_table"]["open_check"] = json!({
                    "setup": {
                        "id": "70000000-0000-4000-8000-0000000000c1",
                        "description": "Tomas climbs the lighthouse",
                        "sides": [
                            { "kind": { "kind": "action", "element": "5f607182-93a4-4eb5-8fc6-d04b5c6d7e84" }, "chance": "common" },
                            { "kind": { "kind": "failure" }, "chance": "occasional" }
                        ]
                    },
                    "ballots": [{ "player": BO, "casts": [
                        { "kind": "influence", "player": BO, "side": 0, "points": 4 }
                    ] }]
                });
            },
            "$.data.games[0].mezzo_table.open_check.ballots[0].casts[0].points",
            "Bo holds 3 influence, not 4",
        ),
        (
            "an unknown dice variant",
            |v| v["data"]["games"][0]["mezzo_table"]["variant"] = json!("d20"),
            "$.data.games[0].mezzo_table.variant",
            "unknown variant `d20`",
        ),
        (
            "a role taken twice",
            |v| v["data"]["games"][0]["mezzo_table"]["players"][0]["roles"] = json!(["actor", "actor"]),
            "$.data.games[0].mezzo_table.players[0].roles[1]",
            "at most once",
        ),
        (
            "a player listed twice",
            |v| {
                let players = v["data"]["games"][0]["mezzo_table"]["players"].as_array_mut().unwrap();
                let mut again = players[2].clone();
                again["name"] = json!("Cy again");
                players.push(again);
            },
            "$.data.games[0].mezzo_table.players[3].id",
            "duplicate player id",
        ),
        (
            "an empty player name",
            |v| v["data"]["games"][0]["mezzo_table"]["players"][1]["name"] = json!(" "),
            "$.data.games[0].mezzo_table.players[1].name",
            "must not be empty",
        ),
        (
            "a claim on a character not in the file",
            |v| v["data"]["games"][0]["mezzo_table"]["players"][0]["claimed"] = json!([uuid_text(9)]),
            "$.data.games[0].mezzo_table.players[0].claimed[0]",
            "is not a character of this game",
        ),
        (
            "a character claimed by two players",
            |v| v["data"]["games"][0]["mezzo_table"]["players"][1]["claimed"] = json!([MIRA]),
            "$.data.games[0].mezzo_table.players[1].claimed[0]",
            "is claimed twice",
        ),
        (
            "a sheet that names another claimer than the table",
            |v| v["data"]["games"][0]["characters"][1]["mezzo"]["claimed_by"] = json!(ADA),
            "$.data.games[0].characters[1].mezzo.claimed_by",
            "the table records no claim on this character",
        ),
        (
            "a table element that is a character",
            |v| v["data"]["games"][0]["mezzo_table"]["elements"][0]["kind"] = json!("character"),
            "$.data.games[0].mezzo_table.elements[0].kind",
            "a table's own elements are objects",
        ),
        (
            "a table element with a character's id",
            |v| v["data"]["games"][0]["mezzo_table"]["elements"][3]["id"] = json!(TOMAS),
            "$.data.games[0].mezzo_table.elements[3].id",
            "is also a character's id",
        ),
        (
            "an element listed twice",
            |v| {
                let elements = v["data"]["games"][0]["mezzo_table"]["elements"].as_array_mut().unwrap();
                elements.push(elements[3].clone());
            },
            "$.data.games[0].mezzo_table.elements[4].id",
            "duplicate element id",
        ),
        (
            "adversity beside its debt",
            |v| v["data"]["games"][0]["characters"][0]["mezzo"]["adversity"] = json!(1),
            "$.data.games[0].characters[0].mezzo.adversity_debt",
            "both cannot be above 0",
        ),
        (
            "a trait attached to nothing",
            |v| v["data"]["games"][0]["characters"][0]["mezzo"]["traits"][1]["target_trait"] = json!(uuid_text(9)),
            "$.data.games[0].characters[0].mezzo.traits[1].target_trait",
            "there is no other trait",
        ),
        (
            "a trait listed twice",
            |v| {
                let traits = v["data"]["games"][0]["mezzo_table"]["elements"][1]["traits"].as_array_mut().unwrap();
                traits.push(traits[3].clone());
            },
            "$.data.games[0].mezzo_table.elements[1].traits[4].id",
            "is listed twice",
        ),
        (
            "more slots filled than awarded",
            |v| v["data"]["games"][0]["characters"][1]["mezzo"]["awards"]["first_claim"] = json!(false),
            "$.data.games[0].characters[1].mezzo.traits",
            "fill edge slots but it has",
        ),
        (
            "an unknown template",
            |v| v["data"]["games"][0]["characters"][0]["mezzo"]["traits"][0]["template"] = json!("laser"),
            "$.data.games[0].characters[0].mezzo.traits[0].template",
            "unknown variant `laser`",
        ),
        (
            "a template of another kind",
            |v| v["data"]["games"][0]["characters"][0]["mezzo"]["traits"][0]["kind"] = json!("flaw"),
            "$.data.games[0].characters[0].mezzo.traits[0].kind",
            "is not a Flaw",
        ),
        (
            "a flaw in an edge slot",
            |v| v["data"]["games"][0]["characters"][1]["mezzo"]["traits"][3]["via"] = json!("edge_slot"),
            "$.data.games[0].characters[1].mezzo.traits[3].via",
            "only edges (and extras bought as edges) fill edge slots",
        ),
        (
            "a boon of no use left",
            |v| v["data"]["games"][0]["characters"][0]["mezzo"]["traits"][10]["uses_left"] = json!(0),
            "$.data.games[0].characters[0].mezzo.traits[10].uses_left",
            "no use left",
        ),
        (
            "a text too long",
            |v| {
                v["data"]["games"][0]["characters"][0]["mezzo"]["traits"][0]["properties"]["details"] =
                    json!("x".repeat(2001))
            },
            "$.data.games[0].characters[0].mezzo.traits[0].properties.details",
            "at most 2000 characters",
        ),
        (
            "six momentum awards",
            |v| v["data"]["games"][0]["characters"][0]["mezzo"]["momentum_awards"] = json!(6),
            "$.data.games[0].characters[0].mezzo.momentum_awards",
            "at most 5",
        ),
        (
            "a trump on a faction",
            |v| {
                let cove = v["data"]["games"][0]["mezzo_table"]["elements"][2]["traits"][4].clone();
                v["data"]["games"][0]["mezzo_table"]["elements"][1]["traits"].as_array_mut().unwrap().push(cove);
            },
            "$.data.games[0].mezzo_table.elements[1].traits[4]",
            "a trump belongs to a goal",
        ),
        (
            "protection lent by itself",
            |v| v["data"]["games"][0]["mezzo_table"]["elements"][0]["plot_protection"]["lent_by"] = json!(LIGHTHOUSE),
            "$.data.games[0].mezzo_table.elements[0].plot_protection.lent_by",
            "does not lend its protection to itself",
        ),
        (
            "a sheet with another id than its character",
            |v| v["data"]["games"][0]["characters"][1]["mezzo"]["id"] = json!(uuid_text(9)),
            "$.data.games[0].characters[1].mezzo.id",
            "is not the character's id",
        ),
        (
            "a sheet with another name than its character",
            |v| v["data"]["games"][0]["characters"][1]["mezzo"]["name"] = json!("Thomas"),
            "$.data.games[0].characters[1].mezzo.name",
            "is not the character's name",
        ),
        (
            "an unknown field in an element",
            |v| v["data"]["games"][0]["characters"][1]["mezzo"]["hp"] = json!(3),
            "$.data.games[0].characters[1].mezzo.hp",
            "unknown field `hp`",
        ),
        (
            "a table in a game of another system",
            |v| {
                v["system"] = json!("penny_ante");
                let g = &mut v["data"]["games"][0];
                g["system"] = json!("penny_ante");
                g["characters"] = json!([]);
            },
            "$.data.games[0].mezzo_table",
            "a Penny Ante game has no Mezzo table",
        ),
    ];
    let character_cases: &[Case] = &[
        (
            "a table in a character file",
            |v| v["data"]["games"][0]["mezzo_table"] = json!({}),
            "$.data.games[0].mezzo_table",
            "a character file carries no table",
        ),
        (
            "a sheet that is a location",
            |v| v["data"]["games"][0]["characters"][0]["mezzo"]["kind"] = json!("location"),
            "$.data.games[0].characters[0].mezzo.kind",
            "a character's element is a character",
        ),
        (
            "a Mezzo sheet on a Penny Ante character",
            |v| {
                v["system"] = json!("penny_ante");
                v["data"]["games"][0]["system"] = json!("penny_ante");
            },
            "$.data.games[0].characters[0].mezzo",
            "a Penny Ante character has no Mezzo sheet",
        ),
    ];
    assert_each_refused([(GAME_FILE, game_cases), (CHARACTER_FILE, character_cases)], rejected);
}

fn uuid_text(n: u128) -> String {
    Uuid::from_u128(0x9000_0000_0000_4000_8000_0000_0000_0000 | n).to_string()
}

#[test]
fn a_file_without_mezzo_sheets_gives_its_characters_empty_ones() {
    let mut v = golden(GAME_FILE);
    let g = &mut v["data"]["games"][0];
    g.as_object_mut().unwrap().remove("mezzo_table");
    for c in g["characters"].as_array_mut().unwrap() {
        c.as_object_mut().unwrap().remove("mezzo");
    }
    let doc = exchange::parse(&serde_json::to_vec(&v).unwrap()).unwrap_or_else(|p| panic!("{p:#?}"));
    let mira = &doc.games[0].characters[0];
    let sheet = mira.mezzo.as_ref().unwrap();
    assert_eq!((sheet.id, sheet.name.as_str(), sheet.traits.len()), (uuid(MIRA), "Mira Vell", 0));
    assert_eq!(doc.games[0].mezzo_table, None);
}

#[test]
fn a_claim_stays_as_the_table_records_it_whatever_is_undone_or_left_out() {
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture(GAME_FILE), ImportOptions::default()).unwrap();
    // Undoing Mira's arrival would leave Ada claiming no one: the table's claim comes first.
    let before = bytes_on_disk(&s.db());
    let err = services::undo_character(&mut store, uuid(MIRA)).unwrap_err();
    assert!(err.to_string().contains("the claim on “Mira Vell” is its table's"), "{err}");
    assert_eq!(bytes_on_disk(&s.db()), before);
    services::undo_character(&mut store, uuid(TOMAS)).unwrap();

    // A newer game file without Mira, whose table records no claim: Mira, left here, is
    // unclaimed with it.
    let mut file = golden(GAME_FILE);
    let g = &mut file["data"]["games"][0];
    g["updated_at"] = json!("2026-09-20T10:00:00.000Z");
    g["characters"].as_array_mut().unwrap().remove(0);
    g["mezzo_table"]["players"][0]["claimed"] = json!([]);
    let path = s.file("without-mira.json");
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    import(&mut store, &path, ImportOptions::default()).unwrap();
    assert_eq!(store.read().mezzo_sheet(uuid(MIRA)).unwrap().unwrap().claimed_by, None);
    let out = s.file("cove.json");
    export(&store, ExportScope::Game(uuid(GAME)), &out).unwrap();
    assert!(exchange::parse(&std::fs::read(&out).unwrap()).is_ok(), "the game still exports a valid file");
    // Undoing that import brings Ada's claim back, on the table and on Mira's sheet.
    services::undo_game(&mut store, uuid(GAME)).unwrap();
    assert_eq!(store.read().mezzo_sheet(uuid(MIRA)).unwrap().unwrap().claimed_by, Some(uuid(ADA)));
    assert!(store.check().unwrap().ok);
}

/// The plot game with votes open on phones: "Does the old bridge hold?" with Bo's ballot (his
/// free vote and 1 influence for "It falls"), and "Tomas climbs the lighthouse" with Bo's (1
/// influence for Tomas). The golden file pins how a game file carries both, and it travels
/// both ways, each ballot checked on import.
#[test]
fn votes_open_on_phones_travel_in_a_golden_game_file() {
    use sheetkeeper::rules::mezzo::action_check::{BaseChance, Cast, SideKind, SideSetup};
    use sheetkeeper::rules::mezzo::vote::ConflictCast;

    const FILE: &str = "mezzo-open-votes-game.sheetkeeper.json";
    let (game, bo) = (uuid(GAME), uuid(BO));
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let plot = fixture("mezzo-plot-game.sheetkeeper.json");
    services::import(&mut store, &plot, ImportOptions::default()).unwrap();

    services::mezzo_open_conflict_for_votes(&mut store, game, &crate::mezzo_store::bridge()).unwrap();
    let bos = [
        ConflictCast::Free { player: bo, option: 1, votes: 1 },
        ConflictCast::Influence { player: bo, option: 1, points: 1 },
    ];
    services::mezzo_cast_ballot(&mut store, game, bo, &bos).unwrap();
    let side = |kind, chance| SideSetup { kind, description: String::new(), chance, aptitude: 0 };
    let climb = CheckDraft {
        description: "Tomas climbs the lighthouse".into(),
        sides: vec![
            side(SideKind::Action { element: uuid(TOMAS) }, BaseChance::Common),
            side(SideKind::Failure, BaseChance::Occasional),
        ],
        involved: vec![uuid(LIGHTHOUSE)],
    };
    services::mezzo_open_check_for_votes(&mut store, game, &climb).unwrap();
    services::mezzo_cast_check_ballot(&mut store, game, bo, &[Cast::Influence { player: bo, side: 0, points: 1 }])
        .unwrap();

    // The plot game's file with this table; the check's id (new each time) pinned.
    let mut table = store.read().mezzo_table(game).unwrap();
    table.open_check.as_mut().expect("the check is open").setup.id =
        Uuid::parse_str("70000000-0000-4000-8000-0000000000c1").unwrap();
    let mut doc = exchange::parse(&std::fs::read(&plot).unwrap()).unwrap();
    doc.games[0].mezzo_table = Some(table.clone());
    let (_imported, mut store) = files::a_golden_game_file_travels_both_ways((FILE, &doc), game, |store| {
        assert_eq!(store.read().mezzo_table(game).unwrap(), table);
    });

    // As copies: the open check is Tomas's copy's, Bo's ballots stay his (players keep their
    // ids), and the copy is sound.
    services::import(&mut store, &fixture(FILE), ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    let copy = services::list(&store).unwrap().into_iter().find(|g| g.game.id != game).unwrap();
    let tomas = copy.characters.iter().find(|c| c.name.starts_with("Tomas")).unwrap().id;
    assert_ne!(tomas, uuid(TOMAS));
    let copied = store.read().mezzo_table(copy.game.id).unwrap();
    let check = copied.open_check.expect("the copy's check is open");
    assert_eq!(check.setup.sides[0].kind, SideKind::Action { element: tomas });
    assert_eq!((check.ballots[0].player, copied.open_conflict.unwrap().ballots[0].casts.len()), (bo, 2));
    assert!(store.check().unwrap().ok);
}
