//! Shared test helpers: a throwaway database folder and a few canned records.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use sheetkeeper::model::{Character, Game, System};
use sheetkeeper::rules::table_settings;
use sheetkeeper::services::{self, GameView};
use sheetkeeper::Store;
use uuid::Uuid;

pub mod cli;
pub mod files;
pub mod mezzo_drafts;

/// A time stamp written as RFC 3339.
pub fn time(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// An id written as text.
pub fn uuid(s: &str) -> Uuid {
    Uuid::parse_str(s).unwrap()
}

/// A scene's game of `system` with its default table settings and no notes, created and
/// last updated at the times given.
pub fn scene_game(id: Uuid, name: &str, system: System, (created, updated): (&str, &str)) -> Game {
    Game {
        id,
        name: name.into(),
        system,
        table_settings: table_settings::defaults(system),
        created_at: time(created),
        updated_at: time(updated),
        notes: String::new(),
    }
}

/// A scene's character of `game` with no notes, at `revision`, created and last updated at
/// the times given.
pub fn scene_character(
    game: &Game,
    id: Uuid,
    name: &str,
    revision: i64,
    (created, updated): (&str, &str),
) -> Character {
    Character {
        id,
        game_id: game.id,
        system: game.system,
        name: name.into(),
        created_at: time(created),
        updated_at: time(updated),
        revision,
        notes: String::new(),
    }
}

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

    /// A fresh database holding a game made through the services (see `game_with`), closed
    /// again: the database and the game.
    pub fn with_game(name: &str, system: &str, characters: &[&str]) -> (Scratch, GameView) {
        let scratch = Scratch::new();
        let game = game_with(&mut scratch.open(), name, system, characters);
        (scratch, game)
    }
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// A fresh database into which the golden file `name` was imported.
pub fn imported(name: &str) -> (Scratch, Store) {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    services::import(&mut store, &fixture(name), services::ImportOptions::default()).expect("the golden file imports");
    (scratch, store)
}

/// A game with characters, made through the services.
pub fn game_with(store: &mut Store, name: &str, system: &str, characters: &[&str]) -> GameView {
    let game = services::create_game(store, name, system).expect("game created");
    for c in characters {
        services::create_character(store, game.game.id, c).expect("character created");
    }
    services::list(store).unwrap().into_iter().find(|g| g.game.id == game.game.id).unwrap()
}

/// The files in `dir` and every folder below it whose names end in `.extension`.
pub fn files_below(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                files.push(path);
            }
        }
    }
    files
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
/// ("Ruthless", hidden "Hates riddles" and "Fears the dark") with a purse of 17. Dice its
/// moves roll come from `rng` (seeded 7).
pub struct PennyHeist {
    pub scratch: Scratch,
    pub store: Store,
    pub game: Uuid,
    pub ada: Uuid,
    pub second: Uuid,
    pub baron: Uuid,
    pub rng: rand::rngs::StdRng,
}

impl PennyHeist {
    /// Plays `mv` in the running challenge (see `penny_move`): the move's message.
    pub fn mv(&mut self, mv: sheetkeeper::rules::penny_ante::challenge::Move, dice: &[u8]) -> String {
        penny_move(&mut self.store, self.game, mv, dice, &mut self.rng)
    }

    /// This device's role at the table ("player", "table", "both").
    pub fn role(&mut self, role: &str) {
        services::set_device_role(&mut self.store, self.game, role).unwrap();
    }
}

/// A `PennyHeist` whose second player is `name` with the characteristic `characteristic`.
pub fn penny_heist(name: &str, characteristic: &str) -> PennyHeist {
    use sheetkeeper::rules::penny_ante::table::Characteristic;
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = services::create_game(&mut store, "Heist", "penny_ante").unwrap().game.id;
    let ada = penny_player(&mut store, game, "Ada", "Strong", 30);
    let second = penny_player(&mut store, game, name, characteristic, 25);
    services::penny_start_adventure(&mut store, game, None).unwrap();
    let characteristics = vec![
        Characteristic { text: "Ruthless".into(), hidden: false },
        Characteristic { text: "Hates riddles".into(), hidden: true },
        Characteristic { text: "Fears the dark".into(), hidden: true },
    ];
    let baron = services::penny_add_antagonist(&mut store, game, "The Baron", characteristics).unwrap();
    let baron = baron.view.antagonists[0].id;
    services::penny_fund_antagonist(&mut store, game, baron, 17).unwrap();
    PennyHeist { scratch, store, game, ada, second, baron, rng: rand::SeedableRng::seed_from_u64(7) }
}

/// In a `PennyHeist`, the House's Baron challenges Ada anonymously for "the vault" (ante
/// 2), 9 pennies of his purse devoted.
pub fn baron_challenges_ada(store: &mut Store, game: Uuid, ada: Uuid, baron: Uuid) {
    use sheetkeeper::rules::penny_ante::ledger::Account;
    penny_start(store, game, ("the vault", 2), Account::Antagonist(baron), Account::Character(ada), Some(9));
}

/// Starts a Penny Ante challenge in `game` for `stake` at `ante`, `challenger` against
/// `opponent`, with `devoted` pennies of an antagonist's purse: the message.
pub fn penny_start(
    store: &mut Store,
    game: Uuid,
    (stake, ante): (&str, i64),
    challenger: sheetkeeper::rules::penny_ante::ledger::Account,
    opponent: sheetkeeper::rules::penny_ante::ledger::Account,
    devoted: Option<i64>,
) -> String {
    let draft = services::ChallengeDraft {
        stake: stake.into(),
        ante,
        challenger: vec![challenger],
        opponent: vec![opponent],
        devoted,
    };
    services::penny_start_challenge(store, game, draft).unwrap_or_else(|e| panic!("{e}")).message
}

/// Starts a Penny Ante challenge in `game` for `stake` at `ante`: the character
/// `challenger` against the character `opponent`, nothing devoted.
pub fn penny_duel(store: &mut Store, game: Uuid, stake: &str, ante: i64, challenger: Uuid, opponent: Uuid) {
    use sheetkeeper::rules::penny_ante::ledger::Account;
    penny_start(store, game, (stake, ante), Account::Character(challenger), Account::Character(opponent), None);
}

/// The first steps of a `penny_duel`, each move played by `play`: both sides pass, each
/// uses its one characteristic (`(character, text)`, the challenger's first), then each
/// rolls the dice given.
pub fn penny_duel_rolls(
    mut play: impl FnMut(sheetkeeper::rules::penny_ante::challenge::Move, &[u8]),
    [(challenger, strong), (opponent, clever)]: [(Uuid, &str); 2],
    (challenger_dice, opponent_dice): (&[u8], &[u8]),
) {
    use sheetkeeper::rules::penny_ante::challenge::{Move, Side, Used};
    use sheetkeeper::rules::penny_ante::ledger::Account;
    let (a, b) = (Side::Challenger, Side::Opponent);
    play(Move::Pass { side: a }, &[]);
    play(Move::Pass { side: b }, &[]);
    let used = |who: Uuid, text: &str| vec![Used { owner: Account::Character(who), text: text.into() }];
    play(Move::Characteristics { side: a, used: used(challenger, strong) }, &[]);
    play(Move::Characteristics { side: b, used: used(opponent, clever) }, &[]);
    play(Move::Roll { side: a }, challenger_dice);
    play(Move::Roll { side: b }, opponent_dice);
}

/// The moves a random player tries for `side` of the running challenge `c`, most of them
/// refused at any one step: a pass, a circumstance, the characteristics `own` gives each of
/// the side's accounts (each at random, at most five), a roll, a random cup, a reroll, a
/// stand, a call and a small raise.
pub fn penny_side_moves(
    c: &sheetkeeper::rules::penny_ante::challenge::Challenge,
    side: sheetkeeper::rules::penny_ante::challenge::Side,
    own: impl Fn(sheetkeeper::rules::penny_ante::ledger::Account) -> Vec<String>,
    rng: &mut impl rand::Rng,
) -> Vec<sheetkeeper::rules::penny_ante::challenge::Move> {
    use sheetkeeper::rules::penny_ante::challenge::{Move, Used, MAX_CHARACTERISTICS};
    let s = c.side(side);
    let circumstance = Move::Circumstance { side, name: "Wind".into(), double_down: rng.random_bool(0.3) };
    let mut used = Vec::new();
    for owner in s.accounts() {
        for text in own(owner) {
            if rng.random_bool(0.5) && used.len() < MAX_CHARACTERISTICS {
                used.push(Used { owner, text });
            }
        }
    }
    vec![
        Move::Pass { side },
        circumstance,
        Move::Characteristics { side, used },
        Move::Roll { side },
        Move::Cup { side, cup: (0..s.dice.len()).filter(|_| rng.random_bool(0.4)).collect() },
        Move::Reroll { side },
        Move::Stand { side },
        Move::Call { side },
        Move::Raise { side, by: c.ante + rng.random_range(0..4) },
    ]
}

/// A side of a Scattershot roll given only its value, as the roll form sends it typed in.
pub fn scattershot_typed(value: i32) -> services::SideDraft {
    services::SideDraft { value: Some(value), ..services::SideDraft::default() }
}

/// A Scattershot roll of `actor` against `resistor` (None: unopposed), with no target,
/// magnitude or facets of its own.
pub fn scattershot_request(actor: services::SideDraft, resistor: Option<services::SideDraft>) -> services::RollRequest {
    services::RollRequest {
        actor,
        resistors: resistor.into_iter().collect(),
        facets: None,
        magnitude: None,
        target: None,
        resistor_target: None,
    }
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

/// A fresh database with a game of `system` called `name` and the characters named, made
/// through the services: the database, the game's id and the characters' ids in order.
pub fn new_game<const N: usize>(name: &str, system: &str, characters: [&str; N]) -> (Scratch, Store, Uuid, [Uuid; N]) {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = services::create_game(&mut store, name, system).expect("game created").game.id;
    let ids = characters.map(|c| services::create_character(&mut store, game, c).expect("character created").id);
    (scratch, store, game, ids)
}

/// A fresh database into which `insert` wrote `scene`: the database and the scene.
pub fn stored<Scene>(scene: Scene, insert: impl FnOnce(&mut Store, &Scene)) -> (Scratch, Store, Scene) {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    insert(&mut store, &scene);
    (scratch, store, scene)
}

/// Writes `game` and its characters into `store` in one transaction, each character's sheet
/// with `put_sheet`, then whatever `rest` writes (a table, say).
pub fn insert_game_and_sheets(
    store: &mut Store,
    game: &Game,
    characters: &[sheetkeeper::rules::record::CharacterRecord],
    put_sheet: impl Fn(&sheetkeeper::store::Tx<'_>, &sheetkeeper::rules::record::CharacterRecord) -> sheetkeeper::Result<()>,
    rest: impl FnOnce(&sheetkeeper::store::Tx<'_>) -> sheetkeeper::Result<()>,
) {
    store
        .write(|tx| {
            tx.insert_game(game)?;
            for r in characters {
                tx.insert_character(&r.character)?;
                put_sheet(tx, r)?;
            }
            rest(tx)
        })
        .unwrap();
}

/// A Penny Ante character made through the services with its first characteristic and its
/// starting pennies: its id.
pub fn penny_player(store: &mut Store, game: Uuid, name: &str, characteristic: &str, pennies: i64) -> Uuid {
    let made = services::penny_create_character(store, game, name, characteristic, pennies).unwrap();
    made.view.players.iter().find(|p| p.name == name).unwrap().id
}

/// Plays `mv` in the running Penny Ante challenge of `game` with the dice typed in (rolled
/// when none are given): the move's message.
pub fn penny_move(
    store: &mut Store,
    game: Uuid,
    mv: sheetkeeper::rules::penny_ante::challenge::Move,
    dice: &[u8],
    rng: &mut impl rand::Rng,
) -> String {
    use services::DiceInput;
    let dice = if dice.is_empty() { DiceInput::Rolled } else { DiceInput::Entered { values: dice.to_vec() } };
    services::penny_challenge_move(store, game, mv, &dice, rng).unwrap_or_else(|e| panic!("{e}")).message
}

/// The characteristics and dice steps of a Penny Ante challenge, each move played by `play`:
/// the challenger uses `used` and the opponent none, then each rolls the dice given.
pub fn penny_use_and_roll(
    mut play: impl FnMut(sheetkeeper::rules::penny_ante::challenge::Move, &[u8]) -> String,
    used: Vec<sheetkeeper::rules::penny_ante::challenge::Used>,
    (challenger_dice, opponent_dice): (&[u8], &[u8]),
) {
    use sheetkeeper::rules::penny_ante::challenge::{Move, Side};
    let (a, b) = (Side::Challenger, Side::Opponent);
    play(Move::Characteristics { side: a, used }, &[]);
    play(Move::Characteristics { side: b, used: vec![] }, &[]);
    play(Move::Roll { side: a }, challenger_dice);
    play(Move::Roll { side: b }, opponent_dice);
}

/// A fresh database with the Penny Ante game `name`: Ada (30 pennies, "Strong", then what
/// `ada_buys` names bought) and Bo (25, "Clever"); no adventure yet. The game's, Ada's and
/// Bo's ids.
pub fn penny_ada_and_bo(name: &str, ada_buys: &[&str]) -> (Scratch, Store, Uuid, Uuid, Uuid) {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = services::create_game(&mut store, name, "penny_ante").unwrap().game.id;
    let ada = penny_player(&mut store, game, "Ada", "Strong", 30);
    for characteristic in ada_buys {
        services::penny_buy_characteristic(&mut store, game, ada, characteristic).unwrap();
    }
    let bo = penny_player(&mut store, game, "Bo", "Clever", 25);
    (scratch, store, game, ada, bo)
}

/// The Mezzo game "Harbour" the check and challenge tests share: characters Mira and Rook,
/// players Ada (an Actor who claimed Mira) and Bo.
pub struct MezzoHarbour {
    pub scratch: Scratch,
    pub store: Store,
    pub game: Uuid,
    pub ada: Uuid,
    pub bo: Uuid,
    pub mira: Uuid,
    pub rook: Uuid,
}

pub fn mezzo_harbour() -> MezzoHarbour {
    use sheetkeeper::rules::mezzo::element::Role;
    let (scratch, mut store, game, [mira, rook]) = new_game("Harbour", "mezzo", ["Mira", "Rook"]);
    services::mezzo_add_player(&mut store, game, "Ada").unwrap();
    let view = services::mezzo_add_player(&mut store, game, "Bo").unwrap().view;
    let id = |name: &str| view.players.iter().find(|p| p.player.name == name).unwrap().player.id;
    let (ada, bo) = (id("Ada"), id("Bo"));
    services::mezzo_take_role(&mut store, game, ada, Role::Actor).unwrap();
    services::mezzo_claim(&mut store, game, ada, mira).unwrap();
    MezzoHarbour { scratch, store, game, ada, bo, mira, rook }
}

/// The move that carries the running Penny Ante challenge of `game` on to its end: stand
/// while betting, pass on new circumstances, reroll; `None` once it is over.
pub fn penny_move_to_the_end(store: &Store, game: Uuid) -> Option<sheetkeeper::rules::penny_ante::challenge::Move> {
    use sheetkeeper::rules::penny_ante::challenge::{Move, Phase};
    let c = services::penny_table(store, game).unwrap().challenge.unwrap();
    let waiting = c.sides.iter().find(|s| !s.done).map(|s| s.side);
    match c.phase {
        Phase::Betting1 | Phase::Betting2 => Some(Move::Stand { side: c.turn.unwrap() }),
        Phase::NewCircumstances => Some(Move::Pass { side: waiting.unwrap() }),
        Phase::Reroll => Some(Move::Reroll { side: waiting.unwrap() }),
        Phase::Over => None,
        other => panic!("unexpected step {other:?}"),
    }
}

/// The table a services test plays at: the database, the game, its players Ada and Bo
/// (players or characters, as the game has them), the dice, and what the game's tests add
/// (`More`: other characters, the table's own elements; each test file its own type).
pub struct Table<More> {
    pub scratch: Scratch,
    pub store: Store,
    pub game: Uuid,
    pub ada: Uuid,
    pub bo: Uuid,
    pub rng: rand::rngs::StdRng,
    pub more: More,
}

impl<More> Table<More> {
    /// The Scattershot game "Rust Belt" with the characters Ada and Bo, its dice seeded with
    /// `seed`.
    pub fn rust_belt(seed: u64, more: More) -> Table<More> {
        let (scratch, store, game, [ada, bo]) = new_game("Rust Belt", "scattershot", ["Ada", "Bo"]);
        Table { game, ada, bo, store, scratch, rng: rand::SeedableRng::seed_from_u64(seed), more }
    }
}

/// The field and the problem of the invalid-input error `result` must be.
pub fn invalid<T: std::fmt::Debug>(result: sheetkeeper::Result<T>) -> (String, String) {
    match result.unwrap_err() {
        sheetkeeper::Error::Invalid { field, problem } => (field, problem),
        other => panic!("expected an invalid-input error, got {other:?}"),
    }
}

/// What a Mezzo move changes: the game's table (with its plot and challenge), its
/// characters' sheets and its journal.
#[derive(Debug, PartialEq)]
pub struct MezzoState {
    pub table: sheetkeeper::rules::mezzo::table::MezzoTable,
    pub sheets: Vec<Option<sheetkeeper::rules::mezzo::element::Element>>,
    /// The campaign journal: a session started or ended is a Mezzo move too.
    pub journal: sheetkeeper::rules::journal::Journal,
}

impl MezzoState {
    /// The table of `game` and the sheets of `characters`, in that order.
    pub fn of(store: &Store, game: Uuid, characters: &[Uuid]) -> MezzoState {
        let read = store.read();
        MezzoState {
            table: read.mezzo_table(game).unwrap(),
            sheets: characters.iter().map(|c| read.mezzo_sheet(*c).unwrap()).collect(),
            journal: read.journal(game).unwrap(),
        }
    }

    /// The table of `game` and the sheets of all its characters.
    pub fn of_game(store: &Store, game: Uuid) -> MezzoState {
        let characters: Vec<Uuid> = store.read().characters_of(game).unwrap().iter().map(|c| c.id).collect();
        MezzoState::of(store, game, &characters)
    }
}

/// The challenge, "the storm", a test has started in Mezzo game `game`.
pub fn mezzo_storm(store: &Store, game: Uuid) -> services::MezzoChallengeView {
    services::mezzo_challenge(store, game).unwrap().expect("the storm")
}

/// A step: `challenger` surrenders in the storm (an arc ends after its challenges).
pub fn mezzo_surrender(store: &mut Store, game: Uuid, challenger: Uuid) -> sheetkeeper::Result<services::MezzoChange> {
    let surrender = serde_json::json!({ "move": "surrender", "challenger": challenger });
    services::mezzo_challenge_play(store, game, &surrender).map(|c| c.change)
}

/// A step: the storm's challengers depart.
pub fn mezzo_depart(store: &mut Store, game: Uuid) -> sheetkeeper::Result<services::MezzoChange> {
    services::mezzo_challenge_play(store, game, &serde_json::json!({ "move": "depart" })).map(|c| c.change)
}

/// A complete No Stone Unturned sheet: `aspects` (body, mind, heart); the moods Curious,
/// Anxious and Calm at the levels (and overloaded or not) given; the skills Lore, Climbing
/// and Persuasion at +1; three connected bonds. A test adds its own details.
pub fn full_nsu_sheet(
    aspects: [sheetkeeper::rules::nsu::Die; 3],
    moods: [(u8, bool); 3],
) -> sheetkeeper::rules::nsu::Sheet {
    use sheetkeeper::rules::nsu::{AspectBoxes, Aspects, Mood, Sentiment, SentimentState, Sheet, Skill};
    let [body, mind, heart] = aspects;
    let mut sheet = Sheet { aspects: Some(Aspects { body, mind, heart }), ..Sheet::default() };
    for (slot, name, (level, overloaded)) in [(0, "Curious", moods[0]), (2, "Anxious", moods[1]), (4, "Calm", moods[2])]
    {
        sheet.moods[slot] = Some(Mood { name: name.into(), level, overloaded });
    }
    for (i, name) in ["Lore", "Climbing", "Persuasion"].into_iter().enumerate() {
        sheet.skills[i] = Some(Skill { name: name.into(), modifier: 1, boxes: AspectBoxes::default() });
        sheet.sentiments[i] = Some(Sentiment { name: format!("Bond {i}"), state: SentimentState::Connected });
    }
    sheet
}
