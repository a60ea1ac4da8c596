//! Penny Ante in files: golden game and character files pinned byte for byte, a table that
//! travels whole, a character that carries its pile in, and malformed files refused naming
//! each field with the database unchanged.
//!
//! `SHEETKEEPER_BLESS=1 cargo test -p sheetkeeper penny_exchange` rewrites the golden files
//! from the scene; review the diff before keeping it.

use serde_json::{json, Value};
use sheetkeeper::exchange::{Document, GameEntry, PennyPile, Status};
use sheetkeeper::model::System;
use sheetkeeper::rules::penny_ante::ledger::{Account, Debt, Entry, Handover, Reason};
use sheetkeeper::rules::penny_ante::table::PennyTable;
use sheetkeeper::services::{self, *};
use sheetkeeper::{Error, Problem, Store};
use uuid::Uuid;

use crate::penny_store::{insert_scene, scene, uuid, Scene, ADA, BO, CY, GAME, SHARPER};
use crate::support::files::{self, assert_each_refused, assert_golden_files, entry, golden, Case, GoldenGame};
use crate::support::{fixture, time, Scratch};

const GAME_FILE: &str = "penny-ante-game.sheetkeeper.json";
const CHARACTER_FILE: &str = "penny-ante-character.sheetkeeper.json";

fn pile_of(table: &PennyTable, character: Uuid) -> PennyPile {
    let account = Account::Character(character);
    let ledger = table.ledger.entries.iter().filter(|e| e.from == account || e.to == account).cloned().collect();
    PennyPile { character, pile: table.pile(&account), ledger }
}

/// The scene as a game file, and Ada as a character file.
fn documents(s: &Scene) -> (Document, Document) {
    let game = GameEntry { penny_table: Some(s.table.clone()), ..entry(&s.game, s.characters.clone()) };
    let ada = uuid(ADA);
    let character =
        GameEntry { penny_piles: vec![pile_of(&s.table, ada)], ..entry(&s.game, vec![s.characters[0].clone()]) };
    files::documents(System::PennyAnte, "2026-11-21T20:15:00Z", game, character)
}

#[test]
fn the_golden_files_are_the_scene_byte_for_byte_and_parse_back_to_it() {
    let (game, character) = documents(&scene());
    assert_golden_files([(GAME_FILE, &game), (CHARACTER_FILE, &character)]);
}

/// Ada's character file, exported from this device, is the golden character file.
#[test]
fn a_game_imported_from_its_golden_file_exports_the_same_file() {
    let scene = scene();
    let golden = GoldenGame {
        game_file: GAME_FILE,
        character_file: CHARACTER_FILE,
        game: uuid(GAME),
        character: uuid(ADA),
        things: 4,
    };
    golden.imports_and_exports_the_same_files(|store| {
        assert_eq!(store.read().penny_table(scene.game.id).unwrap(), scene.table);
    });
}

/// Cy's debt to the Sharper, who left play at the end of the first adventure, is owed to
/// the House in the golden file, in a database it is imported into, and in the file that
/// database exports and a second database imports.
#[test]
fn the_golden_game_carries_a_debt_handed_to_the_house_through_import_and_export() {
    let (cy, sharper) = (Account::Character(uuid(CY)), uuid(SHARPER));
    let owed_to_house = Debt { debtor: cy, creditor: Account::House, amount: 30 };
    let handed = Handover { debtor: cy, antagonist: sharper, amount: 30 };
    let file = golden(GAME_FILE);
    let ledger = &file["data"]["games"][0]["penny_table"]["ledger"];
    assert_eq!(
        ledger["debts"],
        json!([{"debtor": {"kind": "character", "id": CY}, "creditor": {"kind": "house"}, "amount": 30}])
    );
    assert_eq!(
        ledger["handed_over"],
        json!([{"debtor": {"kind": "character", "id": CY}, "antagonist": SHARPER, "amount": 30}])
    );

    let holds_the_debt = |store: &Store| {
        let table = store.read().penny_table(uuid(GAME)).unwrap();
        assert_eq!(table.ledger.debts, std::slice::from_ref(&owed_to_house));
        assert_eq!(table.ledger.handed_over, std::slice::from_ref(&handed));
        assert_eq!(table.ledger.owed(&cy, &Account::House), 30);
        assert_eq!(table.ledger.owed(&cy, &Account::Antagonist(sharper)), 0);
        assert!(!table.antagonists.iter().find(|a| a.id == sharper).unwrap().recurring);
        assert!(store.check().unwrap().ok);
        table
    };
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture(GAME_FILE), ImportOptions::default()).unwrap();
    let imported = holds_the_debt(&store);

    let exported = s.file("riverboat.json");
    export(&store, ExportScope::Game(uuid(GAME)), &exported).unwrap();
    let again = Scratch::new();
    let mut other = again.open();
    import(&mut other, &exported, ImportOptions::default()).unwrap();
    assert_eq!(holds_the_debt(&other), imported);
}

#[test]
fn a_new_character_brings_its_pile_in_and_an_update_keeps_the_ledger_here() {
    let scene = scene();
    let ada = Account::Character(uuid(ADA));
    let pile = scene.table.pile(&ada);
    assert!(pile > 0);

    // A device without the game: the game and the character arrive, the pile as one entry.
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture(CHARACTER_FILE), ImportOptions::default()).unwrap();
    let table = store.read().penny_table(scene.game.id).unwrap();
    let carried =
        Entry { from: Account::Bank, to: ada, amount: pile.unsigned_abs(), reason: Reason::CarriedIn, challenge: None };
    assert_eq!(table.ledger.entries, [carried]);
    let record = store.read().penny_sheet(uuid(ADA)).unwrap();
    // Its purchases stay in the other table's ledger: here they count as made elsewhere.
    assert_eq!(record, scene.characters[0].penny_ante.as_ref().map(|s| s.arriving(0)));
    assert_eq!(record.unwrap().carried, 1);
    assert!(store.check().unwrap().ok);

    // Imported again: unchanged, no second entry.
    import(&mut store, &fixture(CHARACTER_FILE), ImportOptions::default()).unwrap();
    assert_eq!(store.read().penny_table(scene.game.id).unwrap().ledger.entries.len(), 1);

    // As a copy: a new character in the same game, with its own pile.
    import(&mut store, &fixture(CHARACTER_FILE), ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    let table = store.read().penny_table(scene.game.id).unwrap();
    let copy = table.ledger.entries[1].to;
    assert_ne!(copy, ada);
    assert_eq!((table.pile(&ada), table.pile(&copy)), (pile, pile));

    // A newer revision of a character already here is an update that keeps this ledger.
    let mut file = golden(CHARACTER_FILE);
    let c = &mut file["data"]["games"][0]["characters"][0];
    c["revision"] = json!(9);
    c["name"] = json!("Ada Quill the Bold");
    let path = s.file("ada.json");
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    let preview = import_preview(&store, &path, false).unwrap();
    assert_eq!(preview.characters[0].status, Status::Update);
    import(&mut store, &path, ImportOptions::default()).unwrap();
    assert_eq!(store.read().penny_table(scene.game.id).unwrap(), table);
}

#[test]
fn a_changed_table_is_an_update_a_table_changed_on_both_sides_a_conflict() {
    let (a, b) = (Scratch::new(), Scratch::new());
    let (mut phone, mut laptop) = (a.open(), b.open());
    for store in [&mut phone, &mut laptop] {
        import(store, &fixture(GAME_FILE), ImportOptions::default()).unwrap();
    }
    let scene = scene();
    let game = scene.game.id;
    let bump = |store: &mut Store, by: u64, at: &str| {
        let t = store.read().penny_table(game).unwrap();
        let t = t.repay_loan(t.loans[0].id, by).unwrap().0;
        store
            .write(|tx| {
                tx.put_penny_table(game, &t)?;
                tx.touch_game(game, time(at))
            })
            .unwrap();
        t
    };
    let repaid = bump(&mut phone, 2, "2026-11-01T10:00:00Z");
    let file = a.file("riverboat.json");
    export(&phone, ExportScope::Game(game), &file).unwrap();
    let preview = import_preview(&laptop, &file, false).unwrap();
    assert_eq!(preview.games[0].status, Status::Update);
    assert_eq!(preview.games[0].differences[0].field, "penny table");
    import(&mut laptop, &file, ImportOptions::default()).unwrap();
    assert_eq!(laptop.read().penny_table(game).unwrap(), repaid);

    // Both change: the laptop's later change conflicts with the phone's file.
    bump(&mut laptop, 1, "2026-11-02T10:00:00Z");
    bump(&mut phone, 3, "2026-11-01T11:00:00Z");
    export(&phone, ExportScope::Game(game), &file).unwrap();
    let before = laptop.read().penny_table(game).unwrap();
    let err = import(&mut laptop, &file, ImportOptions::default()).unwrap_err();
    assert!(matches!(err, Error::Conflict { .. }), "{err}");
    assert_eq!(laptop.read().penny_table(game).unwrap(), before);
    import(&mut laptop, &file, ImportOptions { replace_conflicts: true, ..Default::default() }).unwrap();
    assert_eq!(laptop.read().penny_table(game).unwrap(), phone.read().penny_table(game).unwrap());
}

#[test]
fn a_game_imported_as_a_copy_moves_the_pennies_to_the_copied_characters() {
    let s = Scratch::new();
    let mut store = s.open();
    import(&mut store, &fixture(GAME_FILE), ImportOptions::default()).unwrap();
    import(&mut store, &fixture(GAME_FILE), ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    let scene = scene();
    let copy = services::list(&store).unwrap().into_iter().find(|g| g.game.id != scene.game.id).unwrap();
    let table = store.read().penny_table(copy.game.id).unwrap();
    for (original, name) in [(ADA, "Ada Quill"), (BO, "Bo Tanner"), (CY, "Cy the Patient")] {
        let id = copy.characters.iter().find(|c| c.name == name).unwrap().id;
        assert_ne!(id, uuid(original));
        let (mine, theirs) = (Account::Character(id), Account::Character(uuid(original)));
        assert_eq!(table.pile(&mine), scene.table.pile(&theirs), "{name}");
        assert_eq!(table.pile(&theirs), 0, "{name}'s original is not in the copy");
    }
    assert!(store.check().unwrap().ok);
}

/// Imports `text` into a database holding the scene's game: refused, the database unchanged.
fn rejected(what: &str, text: &Value) -> Vec<Problem> {
    files::rejected(what, text, |store| insert_scene(store, &scene()))
}

/// Each change to a golden file, with the path and words of a problem it must cause.
#[test]
fn malformed_penny_ante_files_are_refused_naming_the_field() {
    let game_cases: &[Case] = &[
        (
            "amount 0",
            |v| v["data"]["games"][0]["penny_table"]["ledger"]["entries"][2]["amount"] = json!(0),
            "$.data.games[0].penny_table.ledger.entries[2].amount",
            "must be at least 1",
        ),
        (
            "a negative amount",
            |v| v["data"]["games"][0]["penny_table"]["ledger"]["entries"][2]["amount"] = json!(-4),
            "$.data.games[0].penny_table.ledger.entries[2].amount",
            "-4",
        ),
        (
            "an unknown reason",
            |v| v["data"]["games"][0]["penny_table"]["ledger"]["entries"][0]["reason"] = json!("gift"),
            "$.data.games[0].penny_table.ledger.entries[0].reason",
            "unknown variant `gift`",
        ),
        (
            "an unknown account kind",
            |v| v["data"]["games"][0]["penny_table"]["ledger"]["entries"][0]["from"] = json!({"kind": "mint"}),
            "$.data.games[0].penny_table.ledger.entries[0].from.kind",
            "unknown variant `mint`",
        ),
        (
            "more characteristics than were paid for",
            |v| {
                let list = &mut v["data"]["games"][0]["characters"][1]["penny_ante"]["characteristics"];
                list.as_array_mut().unwrap().push(json!("Sneaky"));
            },
            "$.data.games[0].characters[1].penny_ante.characteristics",
            "only 0 were bought",
        ),
        (
            "an empty characteristic",
            |v| v["data"]["games"][0]["characters"][0]["penny_ante"]["characteristics"][1] = json!("  "),
            "$.data.games[0].characters[0].penny_ante.characteristics[1]",
            "must not be empty",
        ),
        (
            "an over-long characteristic",
            |v| v["data"]["games"][0]["characters"][0]["penny_ante"]["characteristics"][1] = json!("x".repeat(201)),
            "$.data.games[0].characters[0].penny_ante.characteristics[1]",
            "at most 200 characters",
        ),
        (
            "a loan repaid beyond its amount",
            |v| v["data"]["games"][0]["penny_table"]["loans"][0]["repaid"] = json!(6),
            "$.data.games[0].penny_table.loans[0].repaid",
            "more than the loan of 5",
        ),
        (
            "a pot that is not what the sides paid",
            |v| v["data"]["games"][0]["penny_table"]["challenge"]["sides"][0]["members"][0]["paid"] = json!(1),
            "$.data.games[0].penny_table.challenge.sides",
            "the ledger's pot of the challenge holds 12",
        ),
        (
            "an antagonist listed twice",
            |v| {
                let list = v["data"]["games"][0]["penny_table"]["antagonists"].as_array_mut().unwrap();
                list.push(list[0].clone());
            },
            "$.data.games[0].penny_table.antagonists[2].id",
            "duplicate antagonist id",
        ),
        (
            "pennies of an antagonist not in the file",
            |v| v["data"]["games"][0]["penny_table"]["antagonists"] = json!([]),
            "$.data.games[0].penny_table.ledger.entries[15].to",
            "is not an antagonist at this table",
        ),
        (
            "debts too large to add up (they overflowed the sum before)",
            |v| {
                let debt = json!({"debtor": {"kind": "character", "id": ADA}, "creditor": {"kind": "house"},
                    "amount": u64::MAX});
                v["data"]["games"][0]["penny_table"]["ledger"]["debts"] = json!([debt.clone(), debt]);
            },
            "$.data.games[0].penny_table.ledger.debts",
            "by the list of debts, but 0 by the entries",
        ),
        (
            "a debt handed over to the House of nothing",
            |v| {
                let t = &mut v["data"]["games"][0]["penny_table"];
                let baron = t["antagonists"][1]["id"].clone();
                let handed = json!({"debtor": {"kind": "character", "id": ADA}, "antagonist": baron, "amount": 0});
                t["ledger"]["handed_over"] = json!([handed]);
            },
            "$.data.games[0].penny_table.ledger.handed_over[0].amount",
            "0 is out of range: 1 to",
        ),
        (
            "a debt handed over from an antagonist not in the file",
            |v| {
                let handed = json!({"debtor": {"kind": "character", "id": ADA},
                    "antagonist": "00000000-0000-4000-8000-00000000dead", "amount": 3});
                v["data"]["games"][0]["penny_table"]["ledger"]["handed_over"] = json!([handed]);
            },
            "$.data.games[0].penny_table.ledger.handed_over[0].antagonist",
            "there is no antagonist 00000000-0000-4000-8000-00000000dead at this table",
        ),
        (
            "a debt handed over by the bank",
            |v| {
                let t = &mut v["data"]["games"][0]["penny_table"];
                let baron = t["antagonists"][1]["id"].clone();
                let handed = json!({"debtor": {"kind": "bank"}, "antagonist": baron, "amount": 3});
                t["ledger"]["handed_over"] = json!([handed]);
            },
            "$.data.games[0].penny_table.ledger.handed_over[0].debtor",
            "must be a character, the House or an antagonist",
        ),
        (
            "a loan offered to the antagonist it is against",
            |v| {
                let t = &mut v["data"]["games"][0]["penny_table"];
                let baron = t["antagonists"][1]["id"].clone();
                t["challenge"]["offer"] = json!({"id": "00000000-0000-4000-8000-0000000000e1",
                    "lender": {"kind": "house"}, "side": "challenger", "amount": 2,
                    "borrower": {"kind": "antagonist", "id": baron}});
            },
            "$.data.games[0].penny_table.challenge.offer.borrower",
            "is not a player character on the side offered the loan",
        ),
        (
            "a loan offered to a character of the other side",
            |v| {
                v["data"]["games"][0]["penny_table"]["challenge"]["offer"] = json!({
                    "id": "00000000-0000-4000-8000-0000000000e1", "lender": {"kind": "house"},
                    "side": "opponent", "amount": 2, "borrower": {"kind": "character", "id": ADA}});
            },
            "$.data.games[0].penny_table.challenge.offer.borrower",
            "is not a player character on the side offered the loan",
        ),
        (
            "a narration longer than 2000 characters",
            |v| v["data"]["games"][0]["penny_table"]["history"][0]["narration"] = json!("a".repeat(2001)),
            "$.data.games[0].penny_table.history[0].narration",
            "the limit is 2000",
        ),
        (
            "a finished challenge from an adventure not yet played",
            |v| v["data"]["games"][0]["penny_table"]["history"][0]["adventure"] = json!(9),
            "$.data.games[0].penny_table.history[0].adventure",
            "not an adventure this table played",
        ),
        (
            "a finished challenge kept twice",
            |v| {
                let list = v["data"]["games"][0]["penny_table"]["history"].as_array_mut().unwrap();
                list.push(list[0].clone());
            },
            "$.data.games[0].penny_table.history[2].challenge",
            "is kept twice",
        ),
        (
            "a fold won by the side that folded",
            |v| v["data"]["games"][0]["penny_table"]["history"][1]["winner"] = json!("challenger"),
            "$.data.games[0].penny_table.history[1].winner",
            "after a fold, the other side wins",
        ),
        (
            "end-of-adventure piles of an adventure not yet played",
            |v| v["data"]["games"][0]["penny_table"]["last_end"]["adventure"] = json!(7),
            "$.data.games[0].penny_table.last_end.adventure",
            "not an adventure this table played",
        ),
        (
            "a character's end-of-adventure pile listed twice",
            |v| {
                let list = v["data"]["games"][0]["penny_table"]["last_end"]["piles"].as_array_mut().unwrap();
                list.push(list[0].clone());
            },
            "$.data.games[0].penny_table.last_end.piles[3].character",
            "is listed twice",
        ),
        (
            "more of a loan turned into a debt than was unpaid",
            |v| {
                let loan = &mut v["data"]["games"][0]["penny_table"]["loans"][0];
                loan["in_debt"] = json!(6);
                loan["flagged"] = json!(true);
            },
            "$.data.games[0].penny_table.loans[0].in_debt",
            "more than the 5 left unpaid",
        ),
        (
            "a recurring flag that is not true or false",
            |v| v["data"]["games"][0]["penny_table"]["antagonists"][1]["recurring"] = json!("yes"),
            "$.data.games[0].penny_table.antagonists[1].recurring",
            "boolean",
        ),
        (
            "a count of lost characteristics below 0",
            |v| v["data"]["games"][0]["characters"][0]["penny_ante"]["lost"] = json!(-1),
            "$.data.games[0].characters[0].penny_ante.lost",
            "must be a whole number, 0 or more",
        ),
        (
            "a pile in a game file",
            |v| v["data"]["games"][0]["characters"][0]["penny_pile"] = json!(3),
            "$.data.games[0].characters[0].penny_pile",
            "only a Penny Ante character file",
        ),
        (
            "a table in a game of another system",
            |v| {
                v["system"] = json!("mezzo");
                let g = &mut v["data"]["games"][0];
                g["system"] = json!("mezzo");
                g["table_settings"] = json!({});
                g["characters"] = json!([]);
            },
            "$.data.games[0].penny_table",
            "a Mezzo game has no Penny Ante table",
        ),
    ];
    let character_cases: &[Case] = &[
        (
            "a pile that disagrees with its ledger",
            |v| v["data"]["games"][0]["characters"][0]["penny_pile"] = json!(99),
            "$.data.games[0].characters[0].penny_pile",
            "add up to",
        ),
        (
            "a negative pile",
            |v| v["data"]["games"][0]["characters"][0]["penny_pile"] = json!(-1),
            "$.data.games[0].characters[0].penny_pile",
            "0 or more",
        ),
        (
            "a carried entry of amount 0",
            |v| v["data"]["games"][0]["characters"][0]["penny_ledger"][0]["amount"] = json!(0),
            "$.data.games[0].characters[0].penny_ledger[0].amount",
            "must be at least 1",
        ),
        (
            "a carried entry with a negative amount",
            |v| v["data"]["games"][0]["characters"][0]["penny_ledger"][0]["amount"] = json!(-30),
            "$.data.games[0].characters[0].penny_ledger[0].amount",
            "-30",
        ),
        (
            "a carried entry that is not the character's",
            |v| {
                let e = &mut v["data"]["games"][0]["characters"][0]["penny_ledger"][0];
                e["to"] = json!({"kind": "character", "id": BO});
            },
            "$.data.games[0].characters[0].penny_ledger[0]",
            "does not touch this character",
        ),
        (
            "more characteristics than its entries paid for",
            |v| {
                let list = &mut v["data"]["games"][0]["characters"][0]["penny_ante"]["characteristics"];
                list.as_array_mut().unwrap().push(json!("Sneaky"));
            },
            "$.data.games[0].characters[0].penny_ante.characteristics",
            "only 1 were bought",
        ),
        (
            "a pile without its ledger",
            |v| {
                v["data"]["games"][0]["characters"][0].as_object_mut().unwrap().remove("penny_ledger");
            },
            "$.data.games[0].characters[0].penny_ledger",
            "is missing",
        ),
        (
            "a table in a character file",
            |v| v["data"]["games"][0]["penny_table"] = json!({}),
            "$.data.games[0].penny_table",
            "a character file carries no table",
        ),
    ];
    assert_each_refused([(GAME_FILE, game_cases), (CHARACTER_FILE, character_cases)], rejected);
}

#[test]
fn a_penny_ante_sheet_on_another_systems_character_is_refused() {
    let mut v = golden("nsu-character-without-sheet.sheetkeeper.json");
    v["data"]["games"][0]["characters"][0]["penny_ante"] = json!({"characteristics": ["Lucky"]});
    let problems = rejected("a Penny Ante sheet on an NSU character", &v);
    assert!(
        problems.iter().any(|p| p.path == "$.data.games[0].characters[0].penny_ante"
            && p.message.contains("No Stone Unturned character has no Penny Ante sheet")),
        "{problems:#?}"
    );
}
