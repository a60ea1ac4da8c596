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

/// The Penny Ante table the challenge tests share: the game "Heist" with Ada (30 pennies,
/// "Strong") and a second player (25 pennies), an adventure running, and the House's Baron
/// ("Ruthless", hidden "Hates riddles" and "Fears the dark") with a purse of 17.
pub struct PennyHeist {
    pub scratch: Scratch,
    pub store: Store,
    pub game: uuid::Uuid,
    pub ada: uuid::Uuid,
    pub second: uuid::Uuid,
    pub baron: uuid::Uuid,
}

/// A `PennyHeist` whose second player is `name` with the characteristic `characteristic`.
pub fn penny_heist(name: &str, characteristic: &str) -> PennyHeist {
    use sheetkeeper::rules::penny_ante::table::Characteristic;
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = services::create_game(&mut store, "Heist", "penny_ante").unwrap().game.id;
    let ada = services::penny_create_character(&mut store, game, "Ada", "Strong", 30).unwrap().view.players[0].id;
    let second = services::penny_create_character(&mut store, game, name, characteristic, 25).unwrap();
    let second = second.view.players.iter().find(|p| p.name == name).unwrap().id;
    services::penny_start_adventure(&mut store, game, None).unwrap();
    let characteristics = vec![
        Characteristic { text: "Ruthless".into(), hidden: false },
        Characteristic { text: "Hates riddles".into(), hidden: true },
        Characteristic { text: "Fears the dark".into(), hidden: true },
    ];
    let baron = services::penny_add_antagonist(&mut store, game, "The Baron", characteristics).unwrap();
    let baron = baron.view.antagonists[0].id;
    services::penny_fund_antagonist(&mut store, game, baron, 17).unwrap();
    PennyHeist { scratch, store, game, ada, second, baron }
}

/// A Mezzo trait as the add-trait form sends it: a template or a kind, a name, how it came.
pub fn trait_draft(
    template: Option<sheetkeeper::rules::mezzo::element::Template>,
    kind: Option<sheetkeeper::rules::mezzo::element::TraitKind>,
    name: &str,
    via: sheetkeeper::rules::mezzo::element::Via,
) -> services::TraitDraft {
    services::TraitDraft {
        kind,
        template,
        name: name.into(),
        properties: Default::default(),
        target_trait: None,
        granted_by: None,
        via,
        lasts: Default::default(),
        uses_left: None,
    }
}
