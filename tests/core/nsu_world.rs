//! The No Stone Unturned world and downtime through the services: every move lands in the
//! real SQLite file and reads back after a reopen, bad input is refused by field with the
//! file untouched, undo restores, and the schema's checks hold on their own.

use rand::rngs::StdRng;
use rand::SeedableRng;
use rusqlite::Connection;
use sheetkeeper::rules::nsu::downtime::{HarmRecovery, MoodPick, PhaseSetup, Votes};
use sheetkeeper::rules::nsu::roll::{AtRisk, MoodChoice, RollSetup, SkillChoice};
use sheetkeeper::rules::nsu::scope::GUIDING_QUESTIONS;
use sheetkeeper::rules::nsu::sheet::Detail;
use sheetkeeper::rules::nsu::world::{GridPos, ResourceState, SafetyList, World};
use sheetkeeper::rules::nsu::{Aspect, Die, Sheet};
use sheetkeeper::services::*;
use uuid::Uuid;

use crate::support::{bytes_on_disk, fixture, full_nsu_sheet, game_with, Scratch};

fn entered(values: &[u8]) -> DiceInput {
    DiceInput::Entered { values: values.to_vec() }
}

fn rng() -> StdRng {
    StdRng::seed_from_u64(7)
}

fn draft(name: &str, author: &str) -> LocationDraft {
    LocationDraft {
        name: name.into(),
        author: author.into(),
        description: "A drowned library".into(),
        collateral_harms: "the archivist moths".into(),
        danger: "rising water".into(),
        treasure: "maps of the old roads".into(),
        author_character: None,
    }
}

/// A complete sheet with four harm details (Overcome) and `points` recovery points.
fn wounded(points: u32) -> Sheet {
    let mut sheet = full_nsu_sheet([Die::D6, Die::D8, Die::D4], [(1, false), (0, false), (0, false)]);
    sheet.harm = vec!["Burnt hand".into(), "Cracked rib".into(), "Sprained ankle".into(), "Concussion".into()];
    sheet.recovery_points = points;
    sheet
}

/// A game with two characters (Wren, Ash) and a world with two cards dealt face down:
/// the Library at (0, 0), the Mill at (1, 0).
struct Table {
    scratch: Scratch,
    store: sheetkeeper::Store,
    game: Uuid,
    wren: Uuid,
    ash: Uuid,
    library: Uuid,
    mill: Uuid,
}

fn table() -> Table {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let view = game_with(&mut store, "Valley", "nsu", &["Wren", "Ash"]);
    let game = view.game.id;
    let id_of = |name: &str| view.characters.iter().find(|c| c.name == name).unwrap().id;
    let (wren, ash) = (id_of("Wren"), id_of("Ash"));
    let w = nsu_world_author_location(&mut store, game, &draft("Library", "Ana")).unwrap().world;
    let library = w.locations[0].id;
    let w = nsu_world_author_location(&mut store, game, &draft("Mill", "Bo")).unwrap().world;
    let mill = w.locations[1].id;
    // The shuffle die (d2) rolls 2: the Library stays first and takes the first cell.
    nsu_world_deal(&mut store, game, &[GridPos { x: 0, y: 0 }, GridPos { x: 1, y: 0 }], &entered(&[2]), &mut rng())
        .unwrap();
    Table { scratch, store, game, wren, ash, library, mill }
}

impl Table {
    fn reopen(&mut self) {
        self.store = self.scratch.open();
    }

    fn world(&self) -> World {
        nsu_world(&self.store, self.game).unwrap()
    }

    /// Expects each move `moves` makes to be refused as invalid input naming its field, with
    /// the file untouched byte for byte and the world, as `world` reads it, as it was.
    fn refuses_by_field(
        &mut self,
        world: fn(&Table) -> World,
        moves: impl FnOnce(&mut Table) -> Vec<(sheetkeeper::Error, &'static str)>,
    ) {
        let before = world(self);
        let disk = bytes_on_disk(&self.scratch.db());
        for (err, field) in moves(self) {
            match &err {
                sheetkeeper::Error::Invalid { field: f, .. } => assert_eq!(f, field, "{err}"),
                other => panic!("expected an invalid-input error naming {field}, got {other}"),
            }
        }
        assert_eq!(bytes_on_disk(&self.scratch.db()), disk, "a refused move writes nothing");
        assert_eq!(world(self), before);
    }
}

#[test]
fn every_world_move_is_saved_and_reads_back_after_a_reopen() {
    let mut t = table();
    let (g, s) = (t.game, &mut t.store);
    nsu_world_add_safety(s, g, SafetyList::Lines, "spiders").unwrap();
    nsu_world_add_safety(s, g, SafetyList::Veils, "drowning").unwrap();
    nsu_world_add_safety(s, g, SafetyList::Veils, "fire").unwrap();
    nsu_world_remove_safety(s, g, SafetyList::Veils, 0).unwrap();
    nsu_world_ban(s, g, "Ana", Some("dragons")).unwrap();
    nsu_world_ban(s, g, "Bo", None).unwrap();
    nsu_world_add_statement(s, g, "Ana", "The roads form a grid").unwrap();
    nsu_world_add_scope_question(s, g, "How long between adventures?").unwrap();
    nsu_world_answer_scope(s, g, 0, "A season").unwrap();
    let names: Vec<String> = ["water", "seed", "song", "iron", "trust"].map(String::from).to_vec();
    nsu_world_create_resources(s, g, &names, 2).unwrap();
    nsu_world_set_resource(s, g, 0, ResourceState::Neutral).unwrap();
    let levels = nsu_world_roll_levels(s, g, t.mill, &entered(&[3, 2]), &mut rng()).unwrap();
    assert_eq!((levels.world.locations[1].danger_level, levels.world.locations[1].reward_level), (Some(3), Some(2)));
    nsu_world_roll_levels(s, g, t.library, &DiceInput::Rolled, &mut rng()).unwrap();
    nsu_world_place(s, g, t.mill, GridPos { x: -2, y: 5 }).unwrap();
    nsu_world_reveal(s, g, t.library).unwrap();
    nsu_world_set_party_location(s, g, Some(t.library)).unwrap();
    nsu_world_add_path(s, g, t.mill, t.library).unwrap();
    nsu_world_tick_collateral(s, g, t.library, 2).unwrap();
    let change = nsu_world_add_scene_detail(s, g, t.library, "the shelves collapse", true).unwrap();
    assert_eq!(change.events.len(), 1, "a scene detail written by hand ticks nothing");
    nsu_world_record_scout(s, g, t.mill, t.wren).unwrap();
    nsu_world_link_author(s, g, t.mill, Some(t.ash)).unwrap();
    let rook = nsu_world_add_npc(s, g, "Rook").unwrap().world.npcs[0].id;
    nsu_world_set_npc_threshold(s, g, rook, Some(3)).unwrap();
    nsu_world_add_npc_harm(s, g, rook, "a split lip").unwrap();
    let w = nsu_world_start_project(s, g, t.ash, "Learn carpentry", 6).unwrap().world;
    let last = nsu_world_mark_project(s, g, w.projects[0].id, 4).unwrap().world;

    assert_eq!(last.safety.veils, ["fire"]);
    assert_eq!(last.locations[0].collateral, 2);
    assert_eq!(last.projects[0].filled, 4);
    assert_eq!(last.party_at, Some(t.library));
    assert_eq!(last.paths.len(), 1);
    assert_eq!((last.npcs[0].threshold, last.npcs[0].harm.len()), (Some(3), 1));
    assert_eq!(t.store.read().nsu_world(t.game).unwrap().problems("$"), vec![]);
    assert_eq!(last.locations[1].name, "", "the face-down Mill stays closed on a device passed around");
    t.reopen();
    assert_eq!(t.world(), last, "every field survives a reopen");
}

#[test]
fn bad_input_is_refused_naming_the_field_and_the_file_is_not_touched() {
    let mut t = table();
    let other = game_with(&mut t.store, "Elsewhere", "nsu", &["Stranger"]);
    let stranger = other.characters[0].id;
    let penny = game_with(&mut t.store, "Stakes", "penny_ante", &[]).game.id;
    nsu_world_tick_collateral(&mut t.store, t.game, t.library, 7).unwrap();
    t.refuses_by_field(Table::world, |t| {
        let (g, s) = (t.game, &mut t.store);
        vec![
            (nsu_world_tick_collateral(s, g, t.library, 2).unwrap_err(), "ticks"),
            (nsu_world_place(s, g, t.mill, GridPos { x: 0, y: 0 }).unwrap_err(), "position"),
            (nsu_world_place(s, g, t.mill, GridPos { x: 65, y: 0 }).unwrap_err(), "position"),
            (nsu_world_set_party_location(s, g, Some(t.mill)).unwrap_err(), "location"),
            (nsu_world_add_path(s, g, t.mill, t.mill).unwrap_err(), "b"),
            (nsu_world_link_author(s, g, t.mill, Some(stranger)).unwrap_err(), "character"),
            (nsu_world_deal(s, g, &[GridPos { x: 3, y: 3 }], &DiceInput::Rolled, &mut rng()).unwrap_err(), "cells"),
            (nsu_world_remove_path(s, g, t.mill, t.library).unwrap_err(), "b"),
            (nsu_world_set_npc_threshold(s, g, Uuid::new_v4(), Some(3)).unwrap_err(), "npc"),
            (nsu_world_add_npc_harm(s, g, Uuid::new_v4(), "cut").unwrap_err(), "npc"),
            (nsu_world_record_scout(s, g, t.mill, stranger).unwrap_err(), "character"),
            (nsu_world_start_project(s, g, t.wren, "Boat", 13).unwrap_err(), "size"),
            (nsu_world_start_project(s, g, stranger, "Boat", 4).unwrap_err(), "owner"),
            (nsu_world_create_resources(s, g, &["a".into(), "b".into()], 0).unwrap_err(), "names"),
            (nsu_world_add_safety(s, g, SafetyList::Lines, "  ").unwrap_err(), "lines"),
            (nsu_world_roll_levels(s, g, t.mill, &entered(&[5, 1]), &mut rng()).unwrap_err(), "danger die"),
            (nsu_world_roll_levels(s, g, t.mill, &entered(&[1, 1, 1]), &mut rng()).unwrap_err(), "dice"),
            (nsu_world_reveal(s, penny, t.mill).unwrap_err(), "game"),
            (nsu_downtime_upgrade_skills(s, g, t.wren).unwrap_err(), "downtime"),
            (nsu_downtime_start(s, g, &[], PhaseSetup { at_home: true, time_units: 0 }).unwrap_err(), "characters"),
            (
                nsu_downtime_start(s, g, &[stranger], PhaseSetup { at_home: true, time_units: 0 }).unwrap_err(),
                "characters[0]",
            ),
        ]
    });
}

fn scope_questions(world: &World) -> Vec<&str> {
    world.scope.iter().map(|q| q.question.as_str()).collect()
}

#[test]
fn a_new_game_starts_with_the_guiding_questions_and_undoing_its_creation_removes_them() {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = create_game(&mut store, "Valley", "nsu").unwrap().game.id;
    drop(store);
    let mut store = scratch.open();
    let world = nsu_world(&store, game).unwrap();
    assert_eq!(scope_questions(&world), GUIDING_QUESTIONS, "written with the game, read back after a reopen");
    assert!(world.scope.iter().all(|q| q.answer.is_empty()));
    undo_game(&mut store, game).unwrap();
    assert!(list(&store).unwrap().is_empty(), "the creation and its questions go back in one step");
    let penny = create_game(&mut store, "Stakes", "penny_ante").unwrap().game.id;
    assert!(nsu_world(&store, penny).is_err(), "other systems have no world");
}

#[test]
fn an_older_game_gets_the_guiding_questions_only_when_asked_and_in_one_undoable_step() {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    import(&mut store, &fixture("nsu-game.sheetkeeper.json"), ImportOptions::default()).unwrap();
    let game = list(&store).unwrap()[0].game.id;
    let before = nsu_world(&store, game).unwrap();
    assert_eq!(scope_questions(&before), ["How long between adventures?"], "reading it adds nothing");
    assert_eq!(nsu_world_guiding_missing(&store, game).unwrap(), 9);

    let change = nsu_world_add_guiding_questions(&mut store, game).unwrap();
    assert_eq!(change.events.len(), 9);
    let after = nsu_world(&store, game).unwrap();
    assert_eq!(after.scope[0], before.scope[0], "the table's own question and answer stay first");
    assert_eq!(scope_questions(&after)[1..], GUIDING_QUESTIONS);
    assert_eq!(nsu_world_guiding_missing(&store, game).unwrap(), 0);

    let disk = bytes_on_disk(&scratch.db());
    match nsu_world_add_guiding_questions(&mut store, game) {
        Err(sheetkeeper::Error::Invalid { field, .. }) => assert_eq!(field, "question"),
        other => panic!("a second time is refused, got {other:?}"),
    }
    assert_eq!(bytes_on_disk(&scratch.db()), disk, "a refused move writes nothing");

    let done = undo_game(&mut store, game).unwrap();
    assert_eq!(done.message, "Undone: adding the scope's guiding questions.");
    assert_eq!(nsu_world(&store, game).unwrap(), before, "one undo takes all nine back");
}

#[test]
fn undo_takes_world_moves_back_one_at_a_time() {
    let mut t = table();
    let before = t.world();
    nsu_world_add_scene_detail(&mut t.store, t.game, t.library, "smoke", true).unwrap();
    nsu_world_record_scout(&mut t.store, t.game, t.mill, t.wren).unwrap();
    undo_game(&mut t.store, t.game).unwrap();
    assert!(t.world().locations[1].scouted_by.is_empty());
    let done = undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(done.message, "Undone: adding a scene detail.");
    assert_eq!(t.world(), before);
    undo_game(&mut t.store, t.game).unwrap();
    assert!(t.world().locations.iter().all(|l| l.position.is_none()), "the deal is undone next");
}

#[test]
fn the_map_hides_a_face_down_card_unless_the_viewer_scouted_it() {
    let mut t = table();
    nsu_world_record_scout(&mut t.store, t.game, t.library, t.wren).unwrap();
    nsu_world_reveal(&mut t.store, t.game, t.mill).unwrap();
    let as_seen = |viewer| {
        nsu_map(&t.store, t.game, viewer)
            .unwrap()
            .into_iter()
            .map(|c| (c.position, c.face.map(|f| f.name)))
            .collect::<Vec<_>>()
    };
    let (first, second) = (Some(GridPos { x: 0, y: 0 }), Some(GridPos { x: 1, y: 0 }));
    let mill = Some("Mill".to_string());
    assert_eq!(as_seen(None), [(first, None), (second, mill.clone())]);
    assert_eq!(as_seen(Some(t.ash)), [(first, None), (second, mill.clone())]);
    assert_eq!(as_seen(Some(t.wren)), [(first, Some("Library".to_string())), (second, mill)]);
}

#[test]
fn the_schema_refuses_a_clock_of_nine_an_overfull_project_and_two_cards_on_one_cell() {
    let mut t = table();
    nsu_world_start_project(&mut t.store, t.game, t.wren, "Boat", 4).unwrap();
    drop(t.store);
    let conn = Connection::open(t.scratch.db()).unwrap();
    let game = t.game.to_string();
    let refused = |sql: &str| conn.execute(sql, [&game]).is_err();
    assert!(refused("UPDATE nsu_locations SET collateral = 9 WHERE game_id = ?1"), "a clock of nine");
    assert!(refused("UPDATE nsu_projects SET filled = 5 WHERE game_id = ?1"), "a project past its size");
    assert!(refused("UPDATE nsu_projects SET size = 13 WHERE game_id = ?1"), "a project of thirteen");
    assert!(refused("UPDATE nsu_projects SET size = 1 WHERE game_id = ?1"), "a project of one");
    assert!(refused("UPDATE nsu_locations SET x = 0, y = 0 WHERE game_id = ?1"), "two cards on one cell");
    assert!(refused("UPDATE nsu_locations SET danger_level = 5 WHERE game_id = ?1"), "danger D5");
    assert!(refused("UPDATE nsu_locations SET x = NULL WHERE game_id = ?1"), "half a position");
    assert!(refused("INSERT INTO nsu_resources VALUES (?1, 5, 'sixth', 'neutral')"), "a sixth resource");
    assert!(refused("INSERT INTO nsu_bans VALUES (?1, 0, 'Ana', ''), (?1, 1, 'ana', NULL)"), "two bans, one player");
    assert!(refused("INSERT INTO nsu_downtime VALUES (?1, 0, 2, NULL, 0, 3)"), "more extra rolls than time units");
    // Extra time away from home is kept (decision 2026-11-28).
    conn.execute("INSERT INTO nsu_downtime VALUES (?1, 0, 2, NULL, 0, 2)", [&game]).unwrap();
    conn.execute("DELETE FROM nsu_downtime WHERE game_id = ?1", [&game]).unwrap();
    conn.pragma_update(None, "foreign_keys", "ON").unwrap();
    let rook = "INSERT INTO nsu_npcs VALUES ('00000000-0000-4000-8000-000000000020', ?1, 0, 'Rook', 5)";
    assert!(refused(rook), "an NPC threshold of 5");
    let (library, mill) = (t.library.to_string(), t.mill.to_string());
    let two = |sql: &str| conn.execute(sql, rusqlite::params![game, library, mill]).is_err();
    assert!(two("INSERT INTO nsu_paths VALUES (?1, 0, ?2, ?2)"), "a path from a card to itself");
    conn.execute("INSERT INTO nsu_paths VALUES (?1, 0, ?2, ?3)", rusqlite::params![game, library, mill]).unwrap();
    assert!(two("INSERT INTO nsu_paths VALUES (?1, 1, ?3, ?2)"), "the same path twice, either way round");
    assert!(refused("INSERT INTO nsu_party VALUES (?1, 'no such card, no such card, no such c')"), "an unknown card");
    assert!(
        refused("UPDATE nsu_locations SET author_character = 'nobody-nobody-nobody-nobody-nobody' WHERE game_id = ?1"),
        "an unknown author"
    );
}

#[test]
fn downtime_recovers_harm_into_a_scar_and_clears_overcome_end_to_end() {
    let mut t = table();
    save_nsu_sheet(&mut t.store, t.wren, wounded(3)).unwrap();
    save_nsu_sheet(&mut t.store, t.ash, wounded(0)).unwrap();
    let setup = PhaseSetup { at_home: true, time_units: 0 };
    let view = nsu_downtime_start(&mut t.store, t.game, &[t.wren, t.ash], setup).unwrap();
    let wren_view = |v: &DowntimeView| v.characters.iter().find(|c| c.character.id == t.wren).unwrap().clone();
    assert_eq!(wren_view(&view).sheet.recovery_points, 4, "at home: one recovery point each");
    assert!(wren_view(&view).overcome);

    let recover = [HarmRecovery { harm: 1, scar: "A healed rib".into() }];
    let view = nsu_downtime_recover_harm(&mut t.store, t.game, t.wren, &recover).unwrap();
    let sheet = &wren_view(&view).sheet;
    assert_eq!(sheet.harm, ["Burnt hand", "Sprained ankle", "Concussion"]);
    assert_eq!(sheet.scars, ["A healed rib"]);
    assert_eq!(sheet.recovery_points, 0, "four harm details cost four points");
    assert!(!wren_view(&view).overcome);
    let ended = nsu_downtime_end(&mut t.store, t.game).unwrap();
    assert_eq!(ended.phase, None);

    t.reopen();
    let saved = nsu_sheet(&t.store, t.wren).unwrap();
    assert_eq!(saved.sheet.scars, ["A healed rib"]);
    assert!(!saved.overcome);
    assert_eq!(saved.character.revision, 4, "the start and the recovery each made a revision");
    assert!(nsu_downtime(&t.store, t.game).unwrap().is_none());

    undo_game(&mut t.store, t.game).unwrap();
    assert!(nsu_downtime(&t.store, t.game).unwrap().is_some(), "undoing the end reopens the phase");
    undo_game(&mut t.store, t.game).unwrap();
    let back = nsu_sheet(&t.store, t.wren).unwrap();
    assert_eq!((back.sheet.harm.len(), back.sheet.recovery_points, back.overcome), (4, 4, true));
    undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(nsu_sheet(&t.store, t.wren).unwrap().sheet, wounded(3));
    assert!(nsu_downtime(&t.store, t.game).unwrap().is_none());
}

#[test]
fn downtime_actions_with_dice_persist_the_phase_and_the_world() {
    let mut t = table();
    let mut healthy = wounded(0);
    healthy.harm.clear();
    save_nsu_sheet(&mut t.store, t.wren, healthy.clone()).unwrap();
    save_nsu_sheet(&mut t.store, t.ash, healthy).unwrap();
    nsu_world_tick_collateral(&mut t.store, t.game, t.library, 5).unwrap();
    nsu_world_reveal(&mut t.store, t.game, t.library).unwrap();
    nsu_world_set_party_location(&mut t.store, t.game, Some(t.library)).unwrap();
    let setup = PhaseSetup { at_home: true, time_units: 1 };
    nsu_downtime_start(&mut t.store, t.game, &[t.wren, t.ash], setup).unwrap();
    let err = nsu_downtime_introspection_roll(&mut t.store, t.game, t.wren, &entered(&[2]), &mut rng()).unwrap_err();
    assert!(err.to_string().contains("complication"), "{err}");
    let v = nsu_downtime_complication(&mut t.store, t.game, t.library, &entered(&[6]), &mut rng()).unwrap();
    assert!(v.phase.as_ref().unwrap().just_left_rolled);

    // A new project: aspect die 5 (Body d6), mood die 1 (Curious d8), + Lore 1 = 5 segments.
    let action = ProjectAction {
        project: ProjectChoice::New { name: "Mend the bridge".into(), size: 6 },
        aspect: Aspect::Body,
        mood: MoodPick::Line(0),
        skill: Some(0),
    };
    let v = nsu_downtime_project(&mut t.store, t.game, t.wren, &action, &entered(&[5, 1]), &mut rng()).unwrap();
    assert_eq!(v.world.projects[0].filled, 5);

    // Addressing collateral: Mind d8 rolls 3, one vote for; 4 − 5 ticks < 0 adds a tick.
    let votes = Votes { sound: 1, unsound: 0 };
    nsu_downtime_address_collateral(&mut t.store, t.game, t.ash, t.library, votes, &entered(&[3]), &mut rng()).unwrap();
    nsu_downtime_introspection_roll(&mut t.store, t.game, t.wren, &entered(&[3]), &mut rng()).unwrap();
    t.reopen();
    let open = nsu_downtime(&t.store, t.game).unwrap().unwrap().phase.unwrap();
    assert_eq!(open.collateral_attempts[0].dice[0].roll, 3);
    assert!(open.characters[&t.wren].awaiting.is_some(), "the owed choice survives a reopen");
    let err = nsu_downtime_end(&mut t.store, t.game).unwrap_err();
    assert!(err.to_string().starts_with("downtime:"), "{err}");
    let v = nsu_downtime_settle_collateral(&mut t.store, t.game, t.library).unwrap();
    assert_eq!(v.world.locations[0].collateral, 6, "the table setting adds a tick on a negative result");
    let choice = sheetkeeper::rules::nsu::downtime::Introspection {
        reductions: vec![sheetkeeper::rules::nsu::downtime::MoodReduction { line: 0, ticks: 2 }],
        ..Default::default()
    };
    let v = nsu_downtime_introspection_finish(&mut t.store, t.game, t.wren, &choice).unwrap();
    let wren = v.characters.iter().find(|c| c.character.id == t.wren).unwrap();
    assert_eq!(wren.sheet.moods[0].as_ref().unwrap().level, 0, "raised to 2 by the project, then down 2");
    // The time unit's extra complication is owed: the phase does not end before it is rolled
    // (decision 2026-11-28), and the refusal changes nothing.
    let disk = bytes_on_disk(&t.scratch.db());
    let err = nsu_downtime_end(&mut t.store, t.game).unwrap_err();
    assert_eq!(
        err.to_string(),
        "downtime: 1 extra complication roll is still due (one per extra time unit, on revealed locations); roll them first"
    );
    assert_eq!(bytes_on_disk(&t.scratch.db()), disk, "a refused end writes nothing");
    let v = nsu_downtime_complication(&mut t.store, t.game, t.library, &entered(&[2]), &mut rng()).unwrap();
    assert_eq!(v.phase.as_ref().unwrap().extra_complications_left, 0);
    nsu_downtime_end(&mut t.store, t.game).unwrap();
    t.reopen();
    assert_eq!(t.world().projects[0].filled, 5);
    assert_eq!(t.world().locations[0].collateral, 6);
}

/// The table with Wren, wounded (3 recovery points), alone in a downtime at home.
fn wren_in_downtime() -> Table {
    let mut t = table();
    save_nsu_sheet(&mut t.store, t.wren, wounded(3)).unwrap();
    let setup = PhaseSetup { at_home: true, time_units: 0 };
    nsu_downtime_start(&mut t.store, t.game, &[t.wren], setup).unwrap();
    t
}

/// Guards undo of downtime against overwriting a sheet changed by hand afterwards.
#[test]
fn undoing_downtime_is_refused_while_a_sheet_it_changed_has_changed_since() {
    let mut t = wren_in_downtime();
    let mut edited = nsu_sheet(&t.store, t.wren).unwrap().sheet;
    edited.look = "A new scarf".into();
    save_nsu_sheet(&mut t.store, t.wren, edited.clone()).unwrap();
    let err = undo_game(&mut t.store, t.game).unwrap_err();
    assert!(err.to_string().starts_with("character: “Wren” changed after this"), "{err}");
    assert_eq!(nsu_sheet(&t.store, t.wren).unwrap().sheet, edited);
    undo_character(&mut t.store, t.wren).unwrap();
    undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(nsu_sheet(&t.store, t.wren).unwrap().sheet, wounded(3));
}

#[test]
fn undoing_a_character_change_older_than_a_downtime_change_is_refused() {
    // Regression: undo of the earlier sheet edit would have overwritten what downtime wrote.
    let mut t = wren_in_downtime();
    let err = undo_character(&mut t.store, t.wren).unwrap_err();
    assert!(err.to_string().contains("was changed since"), "{err}");
    assert_eq!(nsu_sheet(&t.store, t.wren).unwrap().sheet.recovery_points, 4, "downtime's point stays");
    undo_game(&mut t.store, t.game).unwrap();
    undo_character(&mut t.store, t.wren).unwrap();
}

#[test]
fn undoing_a_games_deletion_brings_its_world_back() {
    let mut t = table();
    let before = nsu_world(&t.store, t.game).unwrap();
    delete_game(&mut t.store, t.game).unwrap();
    undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(nsu_world(&t.store, t.game).unwrap(), before);
}

#[test]
fn npcs_and_their_details_are_saved_read_back_undone_and_checked_by_the_schema() {
    let mut t = table();
    let (g, s) = (t.game, &mut t.store);
    let added = nsu_world_add_npc(s, g, " Mother Rook ").unwrap();
    let rook = added.world.npcs[0].id;
    assert_eq!(added.world.npcs[0].name, "Mother Rook");
    nsu_world_add_npc_detail(s, g, rook, "owes us a favour", true).unwrap();
    nsu_world_add_npc_detail(s, g, rook, "distrusts the mill", false).unwrap();
    let last = nsu_world_remove_npc_detail(s, g, rook, 0).unwrap().world;
    assert_eq!(last.npcs[0].details, [Detail { text: "distrusts the mill".into(), positive: false }]);
    t.reopen();
    assert_eq!(t.world(), last, "NPCs and their details survive a reopen");

    let done = undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(done.message, "Undone: crossing a detail off an NPC.");
    assert_eq!(t.world().npcs[0].details.len(), 2);
    undo_game(&mut t.store, t.game).unwrap();
    undo_game(&mut t.store, t.game).unwrap();
    assert!(t.world().npcs[0].details.is_empty());
    undo_game(&mut t.store, t.game).unwrap();
    assert!(t.world().npcs.is_empty(), "the NPC itself is undone last");

    t.refuses_by_field(Table::world, |t| {
        let (g, s) = (t.game, &mut t.store);
        vec![
            (nsu_world_add_npc(s, g, "   ").unwrap_err(), "name"),
            (nsu_world_add_npc_detail(s, g, Uuid::new_v4(), "x", true).unwrap_err(), "npc"),
        ]
    });

    let rook = nsu_world_add_npc(&mut t.store, t.game, "Rook").unwrap().world.npcs[0].id.to_string();
    drop(t.store);
    let conn = Connection::open(t.scratch.db()).unwrap();
    let insert = |text: &str| {
        conn.execute("INSERT INTO nsu_npc_details VALUES (?1, 0, ?2, 1)", rusqlite::params![rook, text]).is_ok()
    };
    assert!(!insert("  "), "an NPC detail with empty text");
    assert!(insert("limps"), "a detail with text is accepted");
    assert!(conn.execute("UPDATE nsu_npcs SET name = ' ' WHERE id = ?1", [&rook]).is_err(), "an NPC with a blank name");
}

// ---------------------------------------------------------------------------------------
// The party's location, collateral from rolls, map secrecy

/// A healthy sheet that can roll: Mind d8, Curious d8 at level 1, Lore +1.
fn roller() -> Sheet {
    let mut s = wounded(0);
    s.harm.clear();
    s
}

/// Settles a roll of Wren's with `at_risk` (Mind d8 rolls 3, Curious d8 rolls 6) and gives
/// its event id.
fn settled_roll(t: &mut Table, at_risk: AtRisk) -> i64 {
    save_nsu_sheet(&mut t.store, t.wren, roller()).unwrap();
    let setup = RollSetup {
        skill: Some(SkillChoice::Existing { line: 0 }),
        ..RollSetup::new("Hold the door", Aspect::Mind, at_risk, MoodChoice::Existing { line: 0 })
    };
    let pending = nsu_roll_dice(&mut t.store, t.wren, &setup, &entered(&[3, 6]), &mut rng()).unwrap();
    let result = nsu_roll_resolve(&mut t.store, t.wren, &pending.choices).unwrap();
    let log = nsu_roll_log(&t.store, t.game, Some(t.wren), 1).unwrap();
    assert_eq!(log[0].event_id, result.event_id, "the log names the same roll");
    result.event_id
}

fn raw_world(t: &Table) -> World {
    t.store.read().nsu_world(t.game).unwrap()
}

#[test]
fn the_party_moves_only_to_a_revealed_card_and_the_move_is_undone_as_a_game_step() {
    let mut t = table();
    let err = nsu_world_set_party_location(&mut t.store, t.game, Some(t.library)).unwrap_err();
    assert!(err.to_string().contains("face down"), "{err}");
    nsu_world_reveal(&mut t.store, t.game, t.library).unwrap();
    let moved = nsu_world_set_party_location(&mut t.store, t.game, Some(t.library)).unwrap();
    assert_eq!(moved.world.party_at, Some(t.library));
    t.reopen();
    assert_eq!(t.world().party_at, Some(t.library));
    let done = undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(done.message, "Undone: moving the party.");
    assert_eq!(t.world().party_at, None, "home again");
}

const HARM: DetailTarget = DetailTarget::Harm { character: None };

#[test]
fn every_detail_from_a_world_at_risk_roll_ticks_the_partys_location_and_one_undo_takes_both_back() {
    let mut t = table();
    nsu_world_reveal(&mut t.store, t.game, t.library).unwrap();
    nsu_world_set_party_location(&mut t.store, t.game, Some(t.library)).unwrap();
    let rook = nsu_world_add_npc(&mut t.store, t.game, "Rook").unwrap().world.npcs[0].id;
    nsu_world_set_npc_threshold(&mut t.store, t.game, rook, Some(2)).unwrap();
    let roll = settled_roll(&mut t, AtRisk::World);

    let harm = nsu_roll_write_detail(&mut t.store, t.wren, roll, &HARM, " Singed hair ").unwrap();
    assert_eq!(harm.message, "Wrote the harm detail “Singed hair” on Wren. Library's collateral clock ticked (1/8).");
    assert_eq!(harm.sheet.unwrap().sheet.harm, ["Singed hair"]);
    assert_eq!((harm.ticked.unwrap().after, harm.undo), (1, UndoScope::Game));
    assert_eq!((harm.written, harm.granted), (1, 2), "the roll granted two details");
    // On the Mill (face down): it ticks the Library, not the Mill.
    let scene = DetailTarget::Scene { location: t.mill };
    let on_mill = nsu_roll_write_detail(&mut t.store, t.wren, roll, &scene, "Smoke over the wheel").unwrap();
    assert_eq!(on_mill.written, 2);
    let w = raw_world(&t);
    assert_eq!((w.locations[0].collateral, w.locations[1].collateral), (2, 0), "only the party's location");
    assert!(w.locations[1].scene_details[0].world_at_risk);
    // Both grants are written: a third detail (a double tap, a second device) is refused and
    // ticks nothing.
    let npc = DetailTarget::Npc { npc: rook, positive: false };
    t.refuses_by_field(raw_world, |t| {
        vec![(nsu_roll_write_detail(&mut t.store, t.wren, roll, &npc, "Holds a grudge").unwrap_err(), "roll")]
    });

    let done = undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(done.message, "Undone: writing a detail from a roll.");
    assert_eq!(raw_world(&t).locations[0].collateral, 1, "the detail and its tick go back together");
    // A detail taken back gives its grant back.
    let grudge = nsu_roll_write_detail(&mut t.store, t.wren, roll, &npc, "Holds a grudge").unwrap();
    assert_eq!((grudge.written, raw_world(&t).locations[0].collateral), (2, 2));
    for _ in 0..2 {
        undo_game(&mut t.store, t.game).unwrap();
    }
    assert_eq!(raw_world(&t).locations[0].collateral, 0);
    assert!(nsu_sheet(&t.store, t.wren).unwrap().sheet.harm.is_empty());

    // Harm on an NPC, and an other detail: each ticks too.
    let roll = settled_roll(&mut t, AtRisk::World);
    let hurt = nsu_roll_write_detail(&mut t.store, t.wren, roll, &DetailTarget::NpcHarm { npc: rook }, "Cut").unwrap();
    assert!(hurt.message.contains("on Rook (1 of 2 harm)"), "{}", hurt.message);
    let other = DetailTarget::Other { positive: true, character: None };
    nsu_roll_write_detail(&mut t.store, t.wren, roll, &other, "Knows the back way").unwrap();
    assert_eq!(raw_world(&t).locations[0].collateral, 2);
    assert_eq!(nsu_sheet(&t.store, t.wren).unwrap().sheet.other_details[0].text, "Knows the back way");
}

#[test]
fn a_rolls_detail_can_go_on_another_characters_sheet_and_is_undone_with_that_character() {
    let mut t = table();
    let roll = settled_roll(&mut t, AtRisk::World);
    // At home: only Ash's sheet changes, Ash's own step.
    let on_ash = DetailTarget::Harm { character: Some(t.ash) };
    let hurt = nsu_roll_write_detail(&mut t.store, t.wren, roll, &on_ash, "Bitten helping").unwrap();
    assert_eq!(hurt.message, "Wrote the harm detail “Bitten helping” on Ash. The party is at home: no clock ticks.");
    assert_eq!(hurt.undo, UndoScope::Character);
    let sheet = hurt.sheet.unwrap();
    assert_eq!((sheet.character.id, sheet.sheet.harm.clone()), (t.ash, vec!["Bitten helping".to_owned()]));
    assert!(nsu_sheet(&t.store, t.wren).unwrap().sheet.harm.is_empty(), "not on the roller");
    // Counted against the roll like any other, and undone with Ash.
    assert_eq!(hurt.written, 1);
    undo_character(&mut t.store, t.ash).unwrap();
    assert!(nsu_sheet(&t.store, t.ash).unwrap().sheet.harm.is_empty());
    // Away from home the World-at-risk tick is made, in one game step with Ash's sheet.
    nsu_world_reveal(&mut t.store, t.game, t.library).unwrap();
    nsu_world_set_party_location(&mut t.store, t.game, Some(t.library)).unwrap();
    let ally = DetailTarget::Other { positive: false, character: Some(t.ash) };
    let away = nsu_roll_write_detail(&mut t.store, t.wren, roll, &ally, "Owes Wren").unwrap();
    assert_eq!((away.undo, away.ticked.unwrap().after), (UndoScope::Game, 1));
    undo_game(&mut t.store, t.game).unwrap();
    assert!(nsu_sheet(&t.store, t.ash).unwrap().sheet.other_details.is_empty());
    // A character of another game is refused by name.
    let elsewhere = game_with(&mut t.store, "Elsewhere", "nsu", &["Stranger"]).characters[0].id;
    let far = DetailTarget::Harm { character: Some(elsewhere) };
    let err = nsu_roll_write_detail(&mut t.store, t.wren, roll, &far, "x").unwrap_err();
    assert!(err.to_string().starts_with("character: “Stranger” plays in another game"), "{err}");
}

#[test]
fn at_home_or_with_the_character_at_risk_no_clock_ticks() {
    let mut t = table();
    let roll = settled_roll(&mut t, AtRisk::World);
    let home = nsu_roll_write_detail(&mut t.store, t.wren, roll, &HARM, "Bruise").unwrap();
    assert_eq!(home.ticked, None);
    assert!(home.message.ends_with("The party is at home: no clock ticks."), "{}", home.message);
    // Only the sheet changed: the character's own step (a player's device at a linked table
    // makes it too), taken back with the character's undo.
    assert_eq!(home.undo, UndoScope::Character);
    undo_character(&mut t.store, t.wren).unwrap();
    assert!(nsu_sheet(&t.store, t.wren).unwrap().sheet.harm.is_empty());
    nsu_world_reveal(&mut t.store, t.game, t.library).unwrap();
    nsu_world_set_party_location(&mut t.store, t.game, Some(t.library)).unwrap();
    let roll = settled_roll(&mut t, AtRisk::Character);
    let safe = nsu_roll_write_detail(&mut t.store, t.wren, roll, &HARM, "Bruise").unwrap();
    assert_eq!((safe.ticked, raw_world(&t).locations[0].collateral), (None, 0));
    assert_eq!(safe.message, "Wrote the harm detail “Bruise” on Wren.");
}

#[test]
fn a_detail_from_a_roll_that_is_not_this_characters_settled_live_roll_is_refused_and_changes_nothing() {
    let mut t = table();
    nsu_world_reveal(&mut t.store, t.game, t.library).unwrap();
    nsu_world_set_party_location(&mut t.store, t.game, Some(t.library)).unwrap();
    let roll = settled_roll(&mut t, AtRisk::World);
    let mut full = roller();
    full.harm = vec!["a".into(), "b".into(), "c".into()];
    save_nsu_sheet(&mut t.store, t.ash, full.clone()).unwrap();
    full.harm.push("d".into());
    t.refuses_by_field(raw_world, |t| {
        let s = &mut t.store;
        vec![
            (nsu_roll_write_detail(s, t.ash, roll, &HARM, "x").unwrap_err(), "roll"),
            (nsu_roll_write_detail(s, t.wren, roll + 100, &HARM, "x").unwrap_err(), "roll"),
            (nsu_roll_write_detail(s, t.wren, roll, &HARM, "  ").unwrap_err(), "detail"),
            (
                nsu_roll_write_detail(s, t.wren, roll, &DetailTarget::Scene { location: Uuid::new_v4() }, "x")
                    .unwrap_err(),
                "location",
            ),
            (
                nsu_roll_write_detail(s, t.wren, roll, &DetailTarget::NpcHarm { npc: Uuid::new_v4() }, "x")
                    .unwrap_err(),
                "npc",
            ),
        ]
    });
    // A roll taken back with undo grants nothing any more.
    undo_character(&mut t.store, t.wren).unwrap();
    let err = nsu_roll_write_detail(&mut t.store, t.wren, roll, &HARM, "x").unwrap_err();
    assert!(err.to_string().contains("taken back"), "{err}");
    // A fifth harm detail has no slot: refused, and nothing ticks.
    let roll = settled_roll(&mut t, AtRisk::World);
    save_nsu_sheet(&mut t.store, t.wren, full).unwrap();
    let err = nsu_roll_write_detail(&mut t.store, t.wren, roll, &HARM, "e");
    assert!(err.is_err());
    assert_eq!(raw_world(&t).locations[0].collateral, 0);
}

#[test]
fn a_face_down_card_is_read_only_by_its_authors_player_and_its_scouts() {
    let mut t = table();
    nsu_world_link_author(&mut t.store, t.game, t.library, Some(t.ash)).unwrap();
    nsu_world_record_scout(&mut t.store, t.game, t.mill, t.wren).unwrap();
    let mut in_hand = draft("Orchard", "Wren's player");
    in_hand.author_character = Some(t.wren);
    nsu_world_author_location(&mut t.store, t.game, &in_hand).unwrap();
    let seen = |t: &Table, viewer: &str| {
        let view = serde_json::to_value(game_view_as(&t.store, t.game, viewer).unwrap()).unwrap();
        let names: Vec<String> = view["world"]["locations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| format!("{}|{}", l["name"].as_str().unwrap(), l["author"].as_str().unwrap()))
            .collect();
        let text = view.to_string();
        // Nothing the view leaves closed is anywhere else in it (the map, the sheets).
        for secret in ["Library", "Mill", "Orchard", "Ana", "Bo", "Wren's player"] {
            if !names.iter().any(|n| n.split('|').any(|part| part == secret)) {
                assert!(!text.contains(&format!("\"{secret}\"")), "{viewer} got {secret} in {text}");
            }
        }
        if names.iter().all(|n| n == "|") {
            assert!(!text.contains("A drowned library"), "{viewer} read a card's text");
        }
        names
    };
    let (ash, wren) = (t.ash.to_string(), t.wren.to_string());
    assert_eq!(seen(&t, &ash), ["Library|Ana", "|", "|"], "the author reads their own card");
    assert_eq!(seen(&t, &wren), ["|", "Mill|Bo", "Orchard|Wren's player"], "a scout, and a card in hand");
    for nobody in ["table", "everyone"] {
        assert_eq!(seen(&t, nobody), ["|", "|", "|"], "{nobody} sees only the backs");
    }
    let other = game_with(&mut t.store, "Elsewhere", "nsu", &["Stranger"]).characters[0].id;
    assert!(game_view_as(&t.store, t.game, &other.to_string()).is_err());
    // A device passed around sees the backs, and opens a card for one named character.
    let world = nsu_world(&t.store, t.game).unwrap();
    assert!(world.locations.iter().all(|l| l.name.is_empty() && l.author.is_empty()));
    assert!(world.locations.iter().all(|l| l.danger_level == world.locations[0].danger_level));
    let map = nsu_map(&t.store, t.game, Some(t.ash)).unwrap();
    assert_eq!(map[0].face.as_ref().map(|f| f.name.as_str()), Some("Library"));
    assert!(map[0].authored && !map[1].authored && map[1].face.is_none());
    // Revealed, it is everyone's.
    nsu_world_reveal(&mut t.store, t.game, t.library).unwrap();
    assert_eq!(seen(&t, "everyone")[0], "Library|Ana");
}

#[test]
fn a_deal_is_one_undoable_step_and_cards_keep_their_backs() {
    let mut t = table();
    nsu_world_author_location(&mut t.store, t.game, &draft("Orchard", "Cy")).unwrap();
    let orchard = raw_world(&t).locations[2].id;
    let err = nsu_world_place(&mut t.store, t.game, orchard, GridPos { x: 5, y: 5 }).unwrap_err();
    assert!(err.to_string().contains("deal"), "{err}");
    let before = raw_world(&t);
    let dealt =
        nsu_world_deal(&mut t.store, t.game, &[GridPos { x: 4, y: 4 }], &DiceInput::Rolled, &mut rng()).unwrap();
    assert_eq!(dealt.world.locations[2].position, Some(GridPos { x: 4, y: 4 }));
    undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(raw_world(&t), before);
}

#[test]
fn downtime_away_from_home_says_which_face_down_cards_are_close_enough_to_scout() {
    let mut t = table();
    save_nsu_sheet(&mut t.store, t.wren, roller()).unwrap();
    // The Library (revealed, the party's) and the Mill (face down) lie side by side.
    nsu_world_reveal(&mut t.store, t.game, t.library).unwrap();
    nsu_world_set_party_location(&mut t.store, t.game, Some(t.library)).unwrap();
    let away = PhaseSetup { at_home: false, time_units: 0 };
    let view = nsu_downtime_start(&mut t.store, t.game, &[t.wren], away).unwrap();
    assert_eq!(view.close_to_scout, Some([t.mill].into_iter().collect()));
    assert_eq!(nsu_downtime(&t.store, t.game).unwrap().unwrap().close_to_scout, view.close_to_scout, "read back");
    // Downtime at home sends the party home, which the map does not place: the table judges.
    undo_game(&mut t.store, t.game).unwrap();
    let home = nsu_downtime_start(&mut t.store, t.game, &[t.wren], PhaseSetup { at_home: true, time_units: 0 });
    assert_eq!(home.unwrap().close_to_scout, None);
}
