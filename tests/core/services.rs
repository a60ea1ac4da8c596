//! The services a person uses: games, characters, copy/move, undo.

use sheetkeeper::services::{self, *};
use sheetkeeper::Error;
use uuid::Uuid;

use crate::support::{bytes_on_disk, game_with, names, new_game, Scratch};

#[test]
fn games_and_characters_survive_closing_and_reopening() {
    let (s, game) = Scratch::with_game("The Quiet Valley", "nsu", &["Wren", "Ash"]);
    let listed = services::list(&s.open()).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].game.name, "The Quiet Valley");
    assert_eq!(listed[0].system_label, "No Stone Unturned");
    assert_eq!(listed[0].game, game.game);
    assert_eq!(listed[0].characters.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["Ash", "Wren"]);
}

#[test]
fn a_new_game_gets_its_systems_default_table_settings() {
    let s = Scratch::new();
    let mut store = s.open();
    let game = create_game(&mut store, "Stakes", "penny_ante").unwrap();
    assert_eq!(game.game.table_settings.get("starting_pennies"), Some(&25));
}

#[test]
fn bad_names_and_systems_are_refused_with_the_field_named_and_nothing_changes() {
    let (s, game) = Scratch::with_game("Valley", "nsu", &["Wren"]);
    let before = bytes_on_disk(&s.db());
    let mut store = s.open();
    let cases: Vec<(Error, &str)> = vec![
        (create_game(&mut store, "  ", "nsu").unwrap_err(), "name: must not be empty"),
        (create_game(&mut store, "X", "dnd").unwrap_err(), "system: unknown system \"dnd\""),
        (create_character(&mut store, game.game.id, &"x".repeat(121)).unwrap_err(), "name: is 121 characters"),
        (rename_game(&mut store, game.game.id, "a\nb").unwrap_err(), "name: must not contain control characters"),
        (create_character(&mut store, Uuid::new_v4(), "Ash").unwrap_err(), "there is no game with id"),
    ];
    for (err, expected) in cases {
        assert!(err.to_string().starts_with(expected), "{err} should start with {expected}");
    }
    drop(store);
    assert_eq!(bytes_on_disk(&s.db()), before, "a refused change writes nothing");
}

#[test]
fn names_are_trimmed() {
    let s = Scratch::new();
    let mut store = s.open();
    let game = create_game(&mut store, "  Valley  ", "nsu").unwrap();
    assert_eq!(game.game.name, "Valley");
}

#[test]
fn renames_are_undone_one_at_a_time_back_to_the_first_name() {
    let (_s, mut store, _, [id]) = new_game("Valley", "nsu", ["Wren"]);
    rename_character(&mut store, id, "Wren the Bold").unwrap();
    let renamed = rename_character(&mut store, id, "Wren the Bolder").unwrap();
    assert_eq!(renamed.revision, 3, "each change moves the revision on");
    let done = undo_character(&mut store, id).unwrap();
    assert_eq!(done.message, "Undone: “Wren the Bolder” is called “Wren the Bold” again.");
    undo_character(&mut store, id).unwrap();
    assert_eq!(names(&store), ["Wren"]);
    // The next undo takes back the creation itself; after that nothing is left.
    undo_character(&mut store, id).unwrap();
    assert!(names(&store).is_empty());
    assert!(matches!(undo_character(&mut store, id), Err(Error::NothingToUndo(_))));
}

#[test]
fn a_deleted_character_comes_back_with_undo() {
    let s = Scratch::new();
    let mut store = s.open();
    let game = game_with(&mut store, "Valley", "nsu", &["Wren"]);
    let wren = game.characters[0].clone();
    assert_eq!(delete_character(&mut store, wren.id).unwrap().message, "Deleted “Wren”.");
    assert!(names(&store).is_empty());
    undo_character(&mut store, wren.id).unwrap();
    let back = store.read().character(wren.id).unwrap().expect("restored");
    assert_eq!((back.name.as_str(), back.game_id, back.created_at), ("Wren", wren.game_id, wren.created_at));
    assert!(back.revision > wren.revision);
}

#[test]
fn a_deleted_game_comes_back_with_its_characters_and_settings() {
    let s = Scratch::new();
    let mut store = s.open();
    let game = game_with(&mut store, "Stakes", "penny_ante", &["Dolly", "Ghost"]);
    let done = delete_game(&mut store, game.game.id).unwrap();
    assert_eq!(done.message, "Deleted the game “Stakes” and its 2 characters.");
    assert!(services::list(&store).unwrap().is_empty());
    undo_game(&mut store, game.game.id).unwrap();
    let back = services::list(&store).unwrap();
    assert_eq!(back[0].game.table_settings, game.game.table_settings);
    assert_eq!(back[0].characters, game.characters);
}

#[test]
fn undoing_a_games_creation_is_refused_while_it_has_characters() {
    let (_s, mut store, game, _) = new_game("Valley", "nsu", ["Wren"]);
    let err = undo_game(&mut store, game).unwrap_err();
    assert!(err.to_string().contains("has 1 character(s) now"), "{err}");
    assert_eq!(names(&store), ["Wren"]);
}

#[test]
fn a_character_of_a_deleted_game_cannot_be_undone_until_the_game_is_back() {
    let (_s, mut store, game, [wren]) = new_game("Valley", "nsu", ["Wren"]);
    rename_character(&mut store, wren, "Wren II").unwrap();
    delete_game(&mut store, game).unwrap();
    let err = undo_character(&mut store, wren).unwrap_err();
    assert!(err.to_string().contains("was deleted; undo that first"), "{err}");
    undo_game(&mut store, game).unwrap();
    undo_character(&mut store, wren).unwrap();
    assert_eq!(names(&store), ["Wren"]);
}

#[test]
fn a_game_rename_is_undone() {
    let (_s, mut store, game, []) = new_game("Valley", "nsu", []);
    rename_game(&mut store, game, "Hill").unwrap();
    undo_game(&mut store, game).unwrap();
    assert_eq!(services::list(&store).unwrap()[0].game.name, "Valley");
}

#[test]
fn characters_copy_and_move_only_between_games_of_their_system() {
    let s = Scratch::new();
    let mut store = s.open();
    let valley = game_with(&mut store, "Valley", "nsu", &["Wren"]);
    let hills = game_with(&mut store, "Hills", "nsu", &[]);
    let stakes = game_with(&mut store, "Stakes", "penny_ante", &[]);
    let wren = valley.characters[0].id;

    let copy = copy_character(&mut store, wren, hills.game.id).unwrap();
    assert_ne!(copy.id, wren);
    assert_eq!((copy.name.as_str(), copy.game_id, copy.revision), ("Wren", hills.game.id, 1));

    let err = move_character(&mut store, wren, stakes.game.id).unwrap_err();
    assert_eq!(err.to_string(), "to_game: “Wren” plays No Stone Unturned, but “Stakes” is a Penny Ante game");

    let moved = move_character(&mut store, wren, hills.game.id).unwrap();
    assert_eq!(moved.game_id, hills.game.id);
    undo_character(&mut store, wren).unwrap();
    assert_eq!(store.read().character(wren).unwrap().unwrap().game_id, valley.game.id, "undo moves it back");
}

#[test]
fn unknown_ids_are_reported_as_not_found() {
    let s = Scratch::new();
    let mut store = s.open();
    let id = Uuid::new_v4();
    for err in [
        rename_character(&mut store, id, "X").unwrap_err(),
        delete_character(&mut store, id).unwrap_err(),
        delete_game(&mut store, id).unwrap_err(),
    ] {
        assert_eq!(err.kind(), "not_found", "{err}");
        assert!(err.to_string().contains(&id.to_string()));
    }
    assert_eq!(undo_character(&mut store, id).unwrap_err().kind(), "nothing_to_undo");
}

#[test]
fn every_change_writes_one_event_in_the_same_transaction() {
    let (_s, mut store, _, [wren]) = new_game("Valley", "nsu", ["Wren"]);
    rename_character(&mut store, wren, "Wren II").unwrap();
    let log = store.read().events_of_character(wren, 10).unwrap();
    let kinds: Vec<_> = log.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["character_renamed", "character_created"]);
    assert_eq!(log[0].payload["before"]["name"], "Wren");
    assert_eq!(log[0].payload["after"]["name"], "Wren II");
}

mod properties {
    //! Random sequences of changes and undos never leave the database inconsistent.

    use proptest::prelude::*;

    use super::*;

    #[derive(Clone, Debug)]
    enum Step {
        Create(u8),
        Rename(u8, u8),
        Delete(u8),
        Move(u8, bool),
        Undo(u8),
        DeleteGame(bool),
        UndoGame(bool),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            any::<u8>().prop_map(Step::Create),
            (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Step::Rename(a, b)),
            any::<u8>().prop_map(Step::Delete),
            (any::<u8>(), any::<bool>()).prop_map(|(a, b)| Step::Move(a, b)),
            any::<u8>().prop_map(Step::Undo),
            any::<bool>().prop_map(Step::DeleteGame),
            any::<bool>().prop_map(Step::UndoGame),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        #[test]
        fn random_changes_and_undos_keep_the_database_consistent(steps in proptest::collection::vec(step(), 1..40)) {
            let s = Scratch::new();
            let mut store = s.open();
            let games = [game_with(&mut store, "A", "nsu", &[]).game.id, game_with(&mut store, "B", "nsu", &[]).game.id];
            let mut ids: Vec<Uuid> = Vec::new();
            for step in steps {
                let pick = |n: u8| ids.get(n as usize % ids.len().max(1)).copied();
                // Errors are fine (a refused move changes nothing); panics and broken state are not.
                let _ = match step {
                    Step::Create(n) => create_character(&mut store, games[n as usize % 2], &format!("C{n}")).map(|c| { ids.push(c.id); }),
                    Step::Rename(n, m) => pick(n).map_or(Ok(()), |id| rename_character(&mut store, id, &format!("R{m}")).map(|_| ())),
                    Step::Delete(n) => pick(n).map_or(Ok(()), |id| delete_character(&mut store, id).map(|_| ())),
                    Step::Move(n, b) => pick(n).map_or(Ok(()), |id| move_character(&mut store, id, games[b as usize]).map(|_| ())),
                    Step::Undo(n) => pick(n).map_or(Ok(()), |id| undo_character(&mut store, id).map(|_| ())),
                    Step::DeleteGame(b) => delete_game(&mut store, games[b as usize]).map(|_| ()),
                    Step::UndoGame(b) => undo_game(&mut store, games[b as usize]).map(|_| ()),
                };
                let report = store.check().unwrap();
                prop_assert!(report.ok, "{:?}", report);
                for g in services::list(&store).unwrap() {
                    for c in &g.characters {
                        prop_assert_eq!(c.game_id, g.game.id);
                        prop_assert!(c.revision >= 1);
                    }
                }
            }
        }
    }
}
