//! The file format: golden files, round trips, preview, conflicts, and the malformed corpus.

use chrono::{DateTime, Utc};
use sheetkeeper::exchange::{self, Status};
use sheetkeeper::services::{self, *};
use sheetkeeper::Error;

use crate::support::{bytes_on_disk, fixture, game_with, imported, names, Scratch};

fn time(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

#[test]
fn golden_files_parse_and_serialize_back_to_the_same_bytes() {
    for name in
        ["character.sheetkeeper.json", "game.sheetkeeper.json", "backup.sheetkeeper.json", "nsu-game.sheetkeeper.json"]
    {
        let bytes = std::fs::read(fixture(name)).unwrap();
        let doc = exchange::parse(&bytes).unwrap_or_else(|p| panic!("{name}: {p:?}"));
        assert_eq!(doc.exported_at, time("2026-11-21T20:15:00Z"));
        assert_eq!(String::from_utf8(exchange::to_json(&doc)).unwrap(), String::from_utf8(bytes).unwrap(), "{name}");
    }
}

#[test]
fn golden_character_file_holds_what_it_says() {
    let doc = exchange::parse(&std::fs::read(fixture("character.sheetkeeper.json")).unwrap()).unwrap();
    let entry = &doc.games[0];
    assert_eq!(entry.game.name, "The Quiet Valley");
    assert_eq!(entry.game.table_settings.get("negative_collateral_adds_tick"), Some(&1));
    let wren = &entry.characters[0];
    let wren = &wren.character;
    assert_eq!((wren.name.as_str(), wren.revision, wren.game_id), ("Wren Ashdown", 7, entry.game.id));
}

#[test]
fn every_golden_file_imports_into_a_fresh_database() {
    for name in [
        "character.sheetkeeper.json",
        "game.sheetkeeper.json",
        "backup.sheetkeeper.json",
        "nsu-game.sheetkeeper.json",
        "nsu-character-without-sheet.sheetkeeper.json",
    ] {
        let s = Scratch::new();
        let mut store = s.open();
        let report = import(&mut store, &fixture(name), ImportOptions::default()).unwrap();
        assert_eq!(report.counts.conflict + report.counts.update + report.counts.unchanged, 0, "{name}");
        assert!(store.check().unwrap().ok);
    }
    let (_s, store) = imported("backup.sheetkeeper.json");
    assert_eq!(names(&store), ["Dolly “Two Bits” Marsh", "Gizmo Vance", "The Gambler's Ghost", "Wren Ashdown"]);
}

#[test]
fn a_character_moves_to_another_device_and_back_unchanged() {
    let phone = Scratch::new();
    let mut store = phone.open();
    let game = game_with(&mut store, "Valley", "nsu", &["Wren", "Ash"]);
    let wren = game.characters.iter().find(|c| c.name == "Wren").unwrap().clone();
    let file = phone.file("Wren.sheetkeeper.json");
    let done = export(&store, ExportScope::Character(wren.id), &file).unwrap();
    assert!(done.message.starts_with("Exported “Wren”"), "{}", done.message);

    let laptop = Scratch::new();
    let mut other = laptop.open();
    let preview = import_preview(&other, &file, false).unwrap();
    assert_eq!((preview.games[0].status, preview.characters[0].status), (Status::New, Status::New));
    import(&mut other, &file, ImportOptions::default()).unwrap();
    let there = services::list(&other).unwrap();
    assert_eq!(there[0].game.id, game.game.id, "the game came along, same id");
    assert_eq!(there[0].characters, vec![wren.clone()], "only the exported character, exactly as it was");

    // The same file again changes nothing.
    let again = import(&mut other, &file, ImportOptions::default()).unwrap();
    assert_eq!(again.counts.unchanged, 2);
    assert_eq!(again.message, "Nothing to import: everything in the file is already here.");
}

#[test]
fn a_newer_revision_updates_and_an_edit_on_both_sides_is_a_conflict() {
    let a = Scratch::new();
    let mut phone = a.open();
    let game = game_with(&mut phone, "Valley", "nsu", &["Wren"]);
    let wren = game.characters[0].id;
    let file = a.file("wren.json");
    export(&phone, ExportScope::Character(wren), &file).unwrap();
    let b = Scratch::new();
    let mut laptop = b.open();
    import(&mut laptop, &file, ImportOptions::default()).unwrap();

    // Renamed on the phone only: the laptop takes it as an update.
    rename_character(&mut phone, wren, "Wren Ashdown").unwrap();
    export(&phone, ExportScope::Character(wren), &file).unwrap();
    let preview = import_preview(&laptop, &file, false).unwrap();
    assert_eq!(preview.characters[0].status, Status::Update);
    assert_eq!(preview.characters[0].differences[0].field, "name");
    import(&mut laptop, &file, ImportOptions::default()).unwrap();
    assert_eq!(names(&laptop), ["Wren Ashdown"]);

    // Renamed on both: a conflict, refused unless the player chooses.
    rename_character(&mut phone, wren, "Wren of the Vale").unwrap();
    rename_character(&mut laptop, wren, "Wren the Quiet").unwrap();
    rename_character(&mut laptop, wren, "Wren the Quieter").unwrap();
    export(&phone, ExportScope::Character(wren), &file).unwrap();
    let err = import(&mut laptop, &file, ImportOptions::default()).unwrap_err();
    assert!(matches!(&err, Error::Conflict { conflicts, .. } if conflicts.len() == 1), "{err}");
    assert!(err.to_string().contains("here \"Wren the Quieter\", file \"Wren of the Vale\""), "{err}");
    assert_eq!(names(&laptop), ["Wren the Quieter"], "nothing changed");

    import(&mut laptop, &file, ImportOptions { replace_conflicts: true, ..Default::default() }).unwrap();
    assert_eq!(names(&laptop), ["Wren of the Vale"]);
    // The import is undoable like any change.
    undo_character(&mut laptop, wren).unwrap();
    assert_eq!(names(&laptop), ["Wren the Quieter"]);
}

#[test]
fn import_as_copy_gives_new_ids_and_keeps_the_originals() {
    let (_s, mut store) = imported("game.sheetkeeper.json");
    let report =
        import(&mut store, &fixture("game.sheetkeeper.json"), ImportOptions { as_copy: true, ..Default::default() })
            .unwrap();
    assert_eq!(report.counts.new, 3);
    let games = services::list(&store).unwrap();
    assert_eq!(games.len(), 2);
    assert_ne!(games[0].game.id, games[1].game.id);
    assert_eq!(names(&store).len(), 4);
    let ids: std::collections::HashSet<_> = games.iter().flat_map(|g| g.characters.iter().map(|c| c.id)).collect();
    assert_eq!(ids.len(), 4);
}

#[test]
fn a_character_file_copied_into_a_device_that_has_its_game_lands_in_that_game() {
    let (_s, mut store) = imported("character.sheetkeeper.json");
    import(&mut store, &fixture("character.sheetkeeper.json"), ImportOptions { as_copy: true, ..Default::default() })
        .unwrap();
    let games = services::list(&store).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].characters.len(), 2);
}

#[test]
fn a_game_of_the_same_id_in_another_system_is_refused() {
    let (s, mut store) = imported("character.sheetkeeper.json");
    // The same game id, but the file says it is a Mezzo game.
    let text = std::fs::read_to_string(fixture("nsu-character-without-sheet.sheetkeeper.json"))
        .unwrap()
        .replace("\"nsu\"", "\"mezzo\"")
        .replace("\"negative_collateral_adds_tick\": 1", "");
    let text = text.replace("\"table_settings\": {\n          \n        }", "\"table_settings\": {}");
    let file = s.file("mezzo.json");
    std::fs::write(&file, text).unwrap();
    let err = import(&mut store, &file, ImportOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("$.data.games[0].system: this device has the game \"The Quiet Valley\" as No Stone Unturned"),
        "{err}"
    );
}

#[test]
fn export_all_then_import_restores_everything_on_a_new_device() {
    let a = Scratch::new();
    let mut store = a.open();
    game_with(&mut store, "Valley", "nsu", &["Wren", "Ash"]);
    game_with(&mut store, "Stakes", "penny_ante", &["Dolly"]);
    game_with(&mut store, "Empty", "mezzo", &[]);
    let file = a.file("all.sheetkeeper.json");
    export(&store, ExportScope::All, &file).unwrap();
    let b = Scratch::new();
    let mut fresh = b.open();
    import(&mut fresh, &file, ImportOptions::default()).unwrap();
    assert_eq!(services::list(&fresh).unwrap(), services::list(&store).unwrap());
}

#[test]
fn export_replaces_a_file_whole_and_leaves_no_temporary_files() {
    let s = Scratch::new();
    let mut store = s.open();
    let game = game_with(&mut store, "Valley", "nsu", &["Wren"]);
    let file = s.file("out.json");
    std::fs::write(&file, "x".repeat(100_000)).unwrap();
    export(&store, ExportScope::Game(game.game.id), &file).unwrap();
    assert!(exchange::parse(&std::fs::read(&file).unwrap()).is_ok());
    let leftovers: Vec<_> = std::fs::read_dir(s.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Each malformed file with the JSON paths and words its problems must name.
const MALFORMED: &[(&str, &[(&str, &str)])] = &[
    ("bad-json.json", &[("$", "the JSON ends too early")]),
    ("trailing-comma.json", &[("$", "not valid JSON")]),
    ("array-root.json", &[("$", "expected an object, found a list")]),
    ("deeply-nested.json", &[("$", "nested too deeply")]),
    (
        "wrong-types.json",
        &[
            ("$.format_version", "expected a whole number, found a string"),
            ("$.data.games[0].characters[0].revision", "expected a whole number, found a string"),
            ("$.data.games[0].characters[0].name", "expected a string, found a number"),
        ],
    ),
    (
        "unknown-system.json",
        &[("$.system", "unknown system \"dnd\""), ("$.data.games[0].system", "unknown system \"dnd\"")],
    ),
    (
        "out-of-range.json",
        &[
            ("$.data.games[0].characters[0].revision", "0 is out of range"),
            ("$.data.games[0].table_settings.negative_collateral_adds_tick", "5 is out of range"),
        ],
    ),
    (
        "duplicate-ids.json",
        &[
            (
                "$.data.games[1].id",
                "duplicate id 6f1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b: also used at $.data.games[0].id",
            ),
            ("$.data.games[1].characters[0].id", "also used at $.data.games[0].characters[0].id"),
        ],
    ),
    ("format-version-2.json", &[("$.format_version", "written by a newer Sheetkeeper")]),
    ("format-version-0.json", &[("$.format_version", "0 is not a format version")]),
    ("not-sheetkeeper.json", &[("$.format", "not a Sheetkeeper file")]),
    ("unknown-field.json", &[("$.data.games[0].characters[0].hit_points", "unknown field")]),
    ("missing-name.json", &[("$.data.games[0].characters[0].name", "is missing")]),
    ("bad-id.json", &[("$.data.games[0].characters[0].id", "is not an id")]),
    ("bad-time.json", &[("$.data.games[0].created_at", "is not a time stamp")]),
    (
        "two-characters-in-character-file.json",
        &[("$.data.games", "a character file holds one game with one character")],
    ),
    ("blank-name.json", &[("$.data.games[0].characters[0].name", "must not be empty")]),
    ("control-character-name.json", &[("$.data.games[0].characters[0].name", "control characters")]),
    ("long-name.json", &[("$.data.games[0].characters[0].name", "121 characters long")]),
    ("updated-before-created.json", &[("$.data.games[0].characters[0].updated_at", "earlier than created_at")]),
    ("system-mismatch.json", &[("$.system", "says mezzo but the game is nsu")]),
    ("unknown-setting.json", &[("$.data.games[0].table_settings.dragons", "has no table setting")]),
    ("unknown-kind.json", &[("$.kind", "unknown kind \"spellbook\"")]),
    ("nsu-mood-level-above-track.json", &[("$.data.games[0].characters[0].nsu.moods[4].level", "6 is out of range")]),
    ("nsu-two-overloaded-moods.json", &[("$.data.games[0].characters[0].nsu.moods[2].overloaded", "only one mood")]),
    (
        "nsu-overloaded-at-level-zero.json",
        &[("$.data.games[0].characters[0].nsu.moods[2].overloaded", "a mood at level 0 is never overloaded")],
    ),
    (
        "nsu-five-harm-details.json",
        &[("$.data.games[0].characters[0].nsu.harm", "5 harm details; a sheet has 4 slots")],
    ),
    ("nsu-aspect-die-twice.json", &[("$.data.games[0].characters[0].nsu.aspects", "each use a different die")]),
    ("nsu-world-clock-of-nine.json", &[("$.data.games[0].nsu_world.locations[0].collateral", "9")]),
    (
        "nsu-world-project-owner-elsewhere.json",
        &[("$.data.games[0].nsu_world.projects[0].owner", "not a character of this game")],
    ),
    ("nsu-world-two-cards-one-cell.json", &[("$.data.games[0].nsu_world.locations[1].position", "")]),
    ("nsu-world-wrong-type.json", &[("$.data.games[0].nsu_world.locations[1].revealed", "invalid type")]),
    (
        "nsu-bad-sheet-types.json",
        &[
            ("$.data.games[0].characters[0].nsu.moods", "expected 6 lines"),
            ("$.data.games[0].characters[0].nsu.skills[0].modifier", "-1 is out of range"),
            ("$.data.games[0].characters[0].nsu.sentiments[0].state", "unknown state \"fond\""),
            ("$.data.games[0].characters[0].nsu.aspects.body", "expected \"d4\", \"d6\" or \"d8\""),
        ],
    ),
    // Numbers that would overflow the rules' arithmetic (a panic in a debug build, a silent
    // wrap in a release build) are refused at their field.
    ("revision-too-high.json", &[("$.data.games[0].characters[0].revision", "is out of range: a revision is 1 to")]),
    (
        "mezzo-minor-perks-overflow.json",
        &[("$.data.games[0].mezzo_table.challenge.actions[0].major_perks", "the perks its result gives")],
    ),
    (
        "mezzo-traded-overflow.json",
        &[("$.data.games[0].mezzo_table.challenge.actions[0].major_perks", "no more traded")],
    ),
    (
        "scattershot-modifier-of-minus-2-to-the-31.json",
        &[("$.data.games[0].characters[0].scattershot.qualities[1].modifier", "a disadvantage's -99 to 0")],
    ),
    // What the database would refuse is refused first, at its path.
    (
        "scattershot-situation-too-long.json",
        &[("$.data.games[0].characters[0].scattershot.qualities[0].situation", "2001 characters long")],
    ),
    (
        "scattershot-notes-too-long.json",
        &[("$.data.games[0].characters[0].scattershot.special_abilities[0].notes", "2001 characters long")],
    ),
    ("nul-in-name.json", &[("$.data.games[0].characters[0].name", "must not contain the NUL character")]),
    ("nul-in-harm.json", &[("$.data.games[0].characters[0].nsu.harm[0]", "must not contain the NUL character")]),
    ("nul-in-a-ban.json", &[("$.data.games[0].nsu_world.bans[0].ban", "must not contain the NUL character")]),
    // Text hygiene.
    ("bidi-override-in-name.json", &[("$.data.games[0].characters[0].name", "invisible formatting characters")]),
    ("zero-width-name.json", &[("$.data.games[0].characters[0].name", "invisible formatting characters")]),
    ("invisible-game-name.json", &[("$.data.games[0].name", "at least one character that shows")]),
    (
        "escape-sequence-in-look.json",
        &[("$.data.games[0].characters[0].nsu.look", "control characters other than line breaks and tabs")],
    ),
    ("bidi-override-in-rumours.json", &[("$.data.games[0].characters[0].nsu.rumours", "direction overrides")]),
    // Private rumours and notes (audit D10) are text like the rumours.
    (
        "nsu-private-lines-bad.json",
        &[
            ("$.data.games[0].characters[0].nsu.private_notes", "direction overrides"),
            ("$.data.games[0].characters[1].nsu.private_rumours", "a string"),
        ],
    ),
    ("time-stamp-in-the-future.json", &[("$.data.games[0].updated_at", "is in the future")]),
    ("unknown-key-with-escapes.json", &[("$.data.games[0][\"\\u{1b}[2J\\u{1b}]0;title\\u{7}\"]", "unknown field")]),
    ("duplicate-key.json", &[("$.data.games[0].characters[0].name", "the key \"name\" appears twice in this object")]),
    // Lists are capped, so a file cannot swell the database.
    ("nsu-too-many-scars.json", &[("$.data.games[0].characters[0].nsu.scars", "101 scars; a sheet keeps at most 100")]),
    (
        "nsu-too-many-details.json",
        &[("$.data.games[0].characters[0].nsu.other_details", "101 details; a sheet keeps at most 100")],
    ),
    ("nsu-world-too-many-bans.json", &[("$.data.games[0].nsu_world.bans", "101 bans; a world keeps at most 100")]),
    (
        "mezzo-hook-names-too-many-elements.json",
        &[("$.data.games[0].mezzo_table.plot.hooks[1].elements", "names 101 elements; a hook names at most 100")],
    ),
    ("mezzo-deck-too-many-cards.json", &[("$.data.games[0].mezzo_table.deck.cards", "a deck holds at most 1000")]),
    (
        "mezzo-element-with-too-many-traits.json",
        &[("$.data.games[0].mezzo_table.elements[0].traits", "201 traits; an element holds at most 200")],
    ),
];

/// Imports `file` into a database holding one game, expecting a `BadFile` error, and
/// checks the database's bytes did not change.
fn rejected(file: &std::path::Path) -> Vec<sheetkeeper::Problem> {
    let (s, _) = Scratch::with_game("Valley", "nsu", &["Wren"]);
    let before = bytes_on_disk(&s.db());
    let mut store = s.open();
    let preview = import_preview(&store, file, false);
    let err = import(&mut store, file, ImportOptions { replace_conflicts: true, ..Default::default() }).unwrap_err();
    assert!(preview.is_err(), "the preview refuses it too");
    drop(store);
    assert_eq!(bytes_on_disk(&s.db()), before, "{}: the database must be byte-for-byte unchanged", file.display());
    match err {
        Error::BadFile { problems, .. } => problems,
        other => panic!("{}: expected a bad-file error, got {other}", file.display()),
    }
}

#[test]
fn every_malformed_file_is_rejected_naming_each_problem_and_changes_nothing() {
    let corpus = std::fs::read_dir(fixture("malformed")).unwrap().count();
    assert_eq!(corpus, MALFORMED.len(), "every file in the corpus has expectations");
    for (name, expected) in MALFORMED {
        let problems = rejected(&fixture(&format!("malformed/{name}")));
        for (path, words) in *expected {
            assert!(
                problems.iter().any(|p| p.path == *path && p.message.contains(words)),
                "{name}: expected a problem at {path} saying {words:?}; got {problems:#?}"
            );
        }
    }
}

#[test]
fn a_17_mib_file_is_refused_unread() {
    let s = Scratch::new();
    let file = s.file("huge.sheetkeeper.json");
    let mut text = String::from("{\"format\": \"sheetkeeper\", \"pad\": \"");
    text.push_str(&"x".repeat(17 * 1024 * 1024));
    text.push_str("\"}");
    std::fs::write(&file, text).unwrap();
    let problems = rejected(&file);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].message, "the file is 17.0 MiB; the limit is 16 MiB");
}

/// A backup of millions of empty games: each one breaks several rules, but the refusal
/// lists the first 100 problems and counts the rest, and reading stops once the list is full.
#[test]
fn a_16_mib_file_of_empty_games_is_refused_with_the_first_100_problems_and_a_count() {
    let s = Scratch::new();
    let file = s.file("many.sheetkeeper.json");
    let head = "{\"format\":\"sheetkeeper\",\"format_version\":1,\"kind\":\"backup\",\"system\":null,\
        \"app_version\":\"0.1.0\",\"exported_at\":\"2026-11-21T20:15:00Z\",\"data\":{\"games\":[{}";
    let room = exchange::MAX_FILE_BYTES as usize - head.len() - 100;
    let mut text = String::with_capacity(exchange::MAX_FILE_BYTES as usize);
    text.push_str(head);
    text.push_str(&",{}".repeat(room / 3));
    text.push_str("]}}");
    std::fs::write(&file, &text).unwrap();
    drop(text);
    let problems = rejected(&file);
    assert_eq!(problems.len(), exchange::MAX_PROBLEMS + 1, "{:#?}", &problems[..3]);
    let last = problems.last().unwrap();
    assert_eq!(last.path, "$");
    assert!(last.message.starts_with("…and ") && last.message.contains("more problem"), "{}", last.message);
    assert!(last.message.contains("reading stopped once 100 were found"), "{}", last.message);
    assert_eq!(problems[0].path, "$.data.games[0].id");
}

/// A file with fewer problems than the cap past 100 lists 100 and counts the rest exactly.
#[test]
fn problems_past_the_first_100_are_counted() {
    let s = Scratch::new();
    let mut file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("nsu-game.sheetkeeper.json")).unwrap()).unwrap();
    // 100 empty lines (the most a list keeps) and 50 empty veils: 150 problems.
    let world = &mut file["data"]["games"][0]["nsu_world"];
    world["safety"]["lines"] = serde_json::json!(vec![" "; 100]);
    world["safety"]["veils"] = serde_json::json!(vec![" "; 50]);
    let path = s.file("empty-lines.json");
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    let problems = rejected(&path);
    assert_eq!(problems.len(), 101);
    assert_eq!(problems[100].message, "…and 50 more problems");
    let err = {
        let mut store = s.open();
        import(&mut store, &path, ImportOptions::default()).unwrap_err()
    };
    assert!(err.to_string().contains("cannot be imported (more than 100 problems); nothing was changed"), "{err}");
    assert!(err.to_string().contains("\n- $: …and 50 more problems"), "{err}");
}

/// Keys and values from a file reach a terminal escaped, never raw.
#[test]
fn no_problem_carries_a_raw_control_character_from_the_file() {
    for name in ["unknown-key-with-escapes.json", "escape-sequence-in-look.json", "bidi-override-in-name.json"] {
        let err = {
            let s = Scratch::new();
            let mut store = s.open();
            import(&mut store, &fixture(&format!("malformed/{name}")), ImportOptions::default()).unwrap_err()
        };
        let text = err.to_string();
        assert!(
            !text.chars().any(|c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c)),
            "{name}: {text:?}"
        );
    }
}

/// A time stamp may be up to a day ahead of this device's clock (clocks disagree a little).
#[test]
fn time_stamps_may_be_a_day_ahead_of_the_clock_and_no_more() {
    let bytes = std::fs::read(fixture("character.sheetkeeper.json")).unwrap();
    // The file's latest stamp is its export, 2026-11-21T20:15:00Z.
    assert!(exchange::parse_at(&bytes, time("2026-11-20T20:15:00Z")).is_ok());
    let problems = exchange::parse_at(&bytes, time("2026-11-20T20:14:59.999Z")).unwrap_err();
    assert!(
        problems.iter().any(|p| p.path == "$.exported_at" && p.message.contains("is in the future")),
        "{problems:#?}"
    );
}

#[test]
fn a_file_that_is_not_there_is_an_io_error_naming_it() {
    let s = Scratch::new();
    let mut store = s.open();
    let err = import(&mut store, &s.file("nope.json"), ImportOptions::default()).unwrap_err();
    assert_eq!(err.kind(), "io");
    assert!(err.to_string().contains("nope.json"), "{err}");
}

#[test]
fn the_error_message_lists_every_problem_on_its_own_line() {
    let err = {
        let s = Scratch::new();
        let mut store = s.open();
        import(&mut store, &fixture("malformed/wrong-types.json"), ImportOptions::default()).unwrap_err()
    };
    let text = err.to_string();
    assert!(text.contains("cannot be imported (3 problems); nothing was changed:"), "{text}");
    assert!(text.contains("\n- $.format_version: expected a whole number, found a string"), "{text}");
}

#[test]
fn a_full_nsu_sheet_survives_export_and_import_unchanged() {
    let (s, store) = imported("nsu-game.sheetkeeper.json");
    let doc = exchange::parse(&std::fs::read(fixture("nsu-game.sheetkeeper.json")).unwrap()).unwrap();
    let wren = &doc.games[0].characters[0];
    assert_eq!(store.read().nsu_sheet(wren.character.id).unwrap().as_ref(), wren.nsu.as_ref());
    let sheet = wren.nsu.as_ref().unwrap();
    assert_eq!((sheet.harm.len(), sheet.overloaded_line(), sheet.recovery_points), (2, Some(2), 2));

    let file = s.file("wren.json");
    export(&store, ExportScope::Character(wren.character.id), &file).unwrap();
    let b = Scratch::new();
    let mut other = b.open();
    import(&mut other, &file, ImportOptions::default()).unwrap();
    assert_eq!(other.read().nsu_sheet(wren.character.id).unwrap().as_ref(), Some(sheet));
}

#[test]
fn an_nsu_character_file_without_a_sheet_imports_with_an_empty_sheet() {
    let (_s, store) = imported("nsu-character-without-sheet.sheetkeeper.json");
    let id = services::list(&store).unwrap()[0].characters[0].id;
    assert_eq!(store.read().nsu_sheet(id).unwrap(), Some(sheetkeeper::rules::nsu::Sheet::default()));
}

#[test]
fn a_sheet_on_a_character_of_another_system_is_refused() {
    let s = Scratch::new();
    let text = std::fs::read_to_string(fixture("game.sheetkeeper.json")).unwrap().replacen(
        "\"revision\": 3",
        "\"revision\": 3, \"nsu\": {}",
        1,
    );
    let file = s.file("bad.json");
    std::fs::write(&file, text).unwrap();
    let problems = rejected(&file);
    assert!(problems.iter().any(|p| p.path == "$.data.games[0].characters[0].nsu" && p.message.contains("Penny Ante")));
}

#[test]
fn an_nsu_games_world_travels_with_the_game_and_a_copy_gets_new_card_ids() {
    let (s, store) = imported("nsu-game.sheetkeeper.json");
    let doc = exchange::parse(&std::fs::read(fixture("nsu-game.sheetkeeper.json")).unwrap()).unwrap();
    let game = doc.games[0].game.id;
    let world = doc.games[0].nsu_world.clone().unwrap();
    assert_eq!(store.read().nsu_world(game).unwrap(), world);
    assert_eq!(world.locations[1].scouted_by, [doc.games[0].characters[0].character.id]);

    // Export from this device, import on another: the same world.
    let file = s.file("valley.json");
    export(&store, ExportScope::Game(game), &file).unwrap();
    let b = Scratch::new();
    let mut other = b.open();
    import(&mut other, &file, ImportOptions::default()).unwrap();
    assert_eq!(other.read().nsu_world(game).unwrap(), world);

    // As a copy beside the original: new ids for cards and clocks, pointing at the copies.
    let report = import(&mut other, &file, ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    assert_eq!(report.counts.new, 3);
    let copy = services::list(&other).unwrap().into_iter().find(|g| g.game.id != game).unwrap();
    let copied = other.read().nsu_world(copy.game.id).unwrap();
    assert_ne!(copied.locations[0].id, world.locations[0].id);
    let wren_copy = copy.characters.iter().find(|c| c.name == "Wren Ashdown").unwrap().id;
    assert_eq!(copied.locations[1].scouted_by, [wren_copy]);
    assert_eq!(copied.locations[1].name, "Mill");
    // The party's place, the paths, the card's author and the NPCs follow the copies.
    // Regression: NPCs kept their ids in a copy, so a copy beside the original was refused.
    let tobias_copy = copy.characters.iter().find(|c| c.name == "Tobias Reed").unwrap().id;
    assert_eq!(copied.party_at, Some(copied.locations[0].id));
    assert_eq!((copied.paths[0].a, copied.paths[0].b), (copied.locations[0].id, copied.locations[1].id));
    assert_eq!(copied.locations[0].author_character, Some(tobias_copy));
    assert_ne!(copied.npcs[0].id, world.npcs[0].id);
    assert_eq!(copied.problems("$"), vec![]);
}

#[test]
fn the_nsu_golden_files_carry_the_party_paths_card_authors_and_npc_thresholds() {
    for name in ["nsu-game.sheetkeeper.json", "backup.sheetkeeper.json"] {
        let doc = exchange::parse(&std::fs::read(fixture(name)).unwrap()).unwrap();
        let world = doc.games.iter().find_map(|g| g.nsu_world.clone()).unwrap();
        let party = world.party_at.unwrap_or_else(|| panic!("{name}: the party's place"));
        assert!(world.location(party).is_some_and(|l| l.revealed && l.position.is_some()), "{name}");
        assert!(!world.paths.is_empty(), "{name}");
        assert!(world.locations.iter().any(|l| l.author_character.is_some()), "{name}");
        let rook = &world.npcs[0];
        assert!(rook.threshold.is_some() && !rook.harm.is_empty() && !rook.overcome(), "{name}");
    }
    // The backup's card order is the order dealt, kept through an import and an export.
    let (s, store) = imported("backup.sheetkeeper.json");
    let doc = exchange::parse(&std::fs::read(fixture("backup.sheetkeeper.json")).unwrap()).unwrap();
    let entry = doc.games.iter().find(|g| g.nsu_world.is_some()).unwrap();
    let file = s.file("again.json");
    export(&store, ExportScope::Game(entry.game.id), &file).unwrap();
    let again = exchange::parse(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(again.games[0].nsu_world, entry.nsu_world);
}

#[test]
fn a_world_with_a_bad_party_place_path_author_or_threshold_is_refused_by_path() {
    let s = Scratch::new();
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("nsu-game.sheetkeeper.json")).unwrap()).unwrap();
    let world = &mut doc["data"]["games"][0]["nsu_world"];
    let (library, mill) = (world["locations"][0]["id"].clone(), world["locations"][1]["id"].clone());
    world["party_at"] = mill.clone();
    world["paths"] = serde_json::json!([{ "a": library, "b": mill }, { "a": mill, "b": library }, { "a": library, "b": "00000000-0000-4000-8000-000000000000" }]);
    world["locations"][1]["author_character"] = serde_json::json!("00000000-0000-4000-8000-000000000001");
    world["npcs"][0]["threshold"] = serde_json::json!(5);
    let file = s.file("bad-world.json");
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    let paths: Vec<String> = rejected(&file).into_iter().map(|p| p.path).collect();
    let at = "$.data.games[0].nsu_world";
    for expected in ["npcs[0].threshold", "party_at", "paths[1]", "paths[2].b", "locations[1].author_character"] {
        assert!(paths.contains(&format!("{at}.{expected}")), "{expected} in {paths:?}");
    }
}

#[test]
fn a_changed_world_is_an_update_and_undoing_the_import_restores_the_world() {
    let (a, mut phone) = imported("nsu-game.sheetkeeper.json");
    let (_b, mut laptop) = imported("nsu-game.sheetkeeper.json");
    let game = services::list(&phone).unwrap()[0].game.id;
    let before = nsu_world(&laptop, game).unwrap();
    let card = before.locations[0].id;
    nsu_world_tick_collateral(&mut phone, game, card, 1).unwrap();
    let file = a.file("valley.json");
    export(&phone, ExportScope::Game(game), &file).unwrap();
    let preview = import_preview(&laptop, &file, false).unwrap();
    assert_eq!(preview.games[0].status, Status::Update);
    assert_eq!(preview.games[0].differences[0].field, "world");
    import(&mut laptop, &file, ImportOptions::default()).unwrap();
    assert_eq!(nsu_world(&laptop, game).unwrap().locations[0].collateral, before.locations[0].collateral + 1);
    undo_game(&mut laptop, game).unwrap();
    assert_eq!(nsu_world(&laptop, game).unwrap(), before);
}
