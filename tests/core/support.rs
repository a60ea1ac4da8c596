//! Shared test helpers: a throwaway database folder and a few canned records.

use std::path::{Path, PathBuf};

use sheetkeeper::services::{self, GameView};
use sheetkeeper::Store;

/// A temporary folder with a database in it; both vanish when dropped.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Self {
        Scratch { dir: tempfile::tempdir().expect("a temp dir") }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("sheetkeeper.db")
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn open(&self) -> Store {
        Store::open(&self.db()).expect("the store opens")
    }
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// A game with characters, made through the services.
pub fn game_with(store: &mut Store, name: &str, system: &str, characters: &[&str]) -> GameView {
    let game = services::create_game(store, name, system).expect("game created");
    for c in characters {
        services::create_character(store, game.game.id, c).expect("character created");
    }
    services::list(store).unwrap().into_iter().find(|g| g.game.id == game.game.id).unwrap()
}

/// The database's bytes on disk (main file and WAL), to prove nothing was written.
pub fn bytes_on_disk(db: &Path) -> (Vec<u8>, Option<Vec<u8>>) {
    let wal = PathBuf::from(format!("{}-wal", db.display()));
    (std::fs::read(db).expect("db readable"), std::fs::read(wal).ok())
}

/// Every character's name, in alphabetical order.
pub fn names(store: &Store) -> Vec<String> {
    let mut names: Vec<_> = services::list(store)
        .unwrap()
        .into_iter()
        .flat_map(|g| g.characters.into_iter().map(|c| c.character.name))
        .collect();
    names.sort();
    names
}
