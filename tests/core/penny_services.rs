//! Penny Ante through the services on the real SQLite file: characters and the House, a
//! whole challenge with typed-in dice, undo of the last move, buyouts, and bad input that
//! changes nothing.

use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;
use sheetkeeper::rules::penny_ante::challenge::{Move, Phase, Side, Used};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::rules::penny_ante::table::Characteristic;
use sheetkeeper::services::{self, ChallengeDraft, DiceInput, PennyView};
use uuid::Uuid;

use crate::support::{self, bytes_on_disk, penny_ada_and_bo, penny_move, penny_use_and_roll, Scratch};

/// What Penny Ante's services tests add to the table: nothing.
struct Penny;

type Table = support::Table<Penny>;

impl Table {
    /// A Penny Ante game with Ada (30 pennies, Strong + Quick bought) and Bo (25, Clever),
    /// an adventure started (the House gets their piles).
    fn new() -> Table {
        let (scratch, mut store, game, ada, bo) = penny_ada_and_bo("Heist", &["Quick"]);
        services::penny_start_adventure(&mut store, game, None).unwrap();
        Table { scratch, store, game, ada, bo, rng: StdRng::seed_from_u64(1), more: Penny }
    }

    /// The table as the House sees it (this device is passed around: its shared view keeps
    /// the House's secrets for the hand-over).
    fn view(&self) -> PennyView {
        services::penny_table_as_house(&self.store, self.game).unwrap()
    }

    fn pile(&self, name: &str) -> i64 {
        self.view().players.iter().find(|p| p.name == name).unwrap().pile
    }

    /// Ada challenges `opponent` over `stake` with `ante`, no purse devoted: the message.
    fn ada_challenges(&mut self, opponent: Account, stake: &str, ante: i64) -> String {
        let draft = ChallengeDraft {
            stake: stake.into(),
            ante,
            challenger: vec![Account::Character(self.ada)],
            opponent: vec![opponent],
            devoted: None,
        };
        services::penny_start_challenge(&mut self.store, self.game, draft).unwrap().message
    }

    fn mv(&mut self, mv: Move, dice: &[u8]) -> String {
        penny_move(&mut self.store, self.game, mv, dice, &mut self.rng)
    }

    /// The piles straight from the database file's ledger table.
    fn db_pile(&self, account: &str) -> i64 {
        let conn = rusqlite::Connection::open(self.scratch.db()).unwrap();
        let q = "SELECT COALESCE(SUM(CASE WHEN to_kind || ':' || COALESCE(to_id, '') = ?1 THEN amount ELSE 0 END), 0) \
                 - COALESCE(SUM(CASE WHEN from_kind || ':' || COALESCE(from_id, '') = ?1 THEN amount ELSE 0 END), 0) \
                 FROM pa_ledger";
        conn.query_row(q, [account], |r| r.get(0)).unwrap()
    }
}

#[test]
fn characters_characteristics_and_the_house_move_pennies_through_the_ledger() {
    let mut t = Table::new();
    let v = t.view();
    // Ada paid 5 for her second characteristic; the House got the players' starting
    // pennies, from before that purchase (RULES.md §2.2, audit #8).
    assert_eq!((t.pile("Ada"), t.pile("Bo"), v.house), (25, 25, 55));
    assert_eq!(v.players.iter().find(|p| p.name == "Ada").unwrap().characteristics, vec!["Strong", "Quick"]);
    assert_eq!(t.db_pile(&format!("character:{}", t.ada)), 25);
    assert_eq!(t.db_pile("house:"), 55);
    // No characteristic can be bought during an adventure; the refusal changes nothing.
    let before = bytes_on_disk(&t.scratch.db());
    let err = services::penny_buy_characteristic(&mut t.store, t.game, t.bo, "Lucky").unwrap_err();
    assert_eq!(err.to_string(), "characteristic: can be bought only when no adventure is running");
    assert_eq!(bytes_on_disk(&t.scratch.db()), before);
    // An antagonist funded from the House; the ledger shows it.
    let baron = services::penny_add_antagonist(
        &mut t.store,
        t.game,
        "Baron",
        vec![Characteristic { text: "Cruel".into(), hidden: true }],
    )
    .unwrap();
    let baron = baron.view.antagonists[0].id;
    services::penny_fund_antagonist(&mut t.store, t.game, baron, 12).unwrap();
    assert_eq!(t.view().antagonists[0].purse, Some(12));
    assert_eq!(t.view().house, 43);
    let ledger = services::penny_ledger(&t.store, t.game, Some(Account::House), 10, true).unwrap();
    assert_eq!(ledger.pile, Some(43));
    assert_eq!(ledger.entries[0].reason_words, "antagonist funded");
    assert_eq!(ledger.entries[0].pile_after, Some(43));
    // Ending the adventure returns the purses to the House and the House to the Bank.
    services::penny_end_adventure(&mut t.store, t.game).unwrap();
    assert_eq!((t.view().house, t.view().antagonists[0].purse), (0, Some(0)));
    services::penny_buy_characteristic(&mut t.store, t.game, t.bo, "Lucky").unwrap();
    assert_eq!(t.pile("Bo"), 20);
}

#[test]
fn a_whole_challenge_against_the_house_with_undo_of_the_last_move() {
    let mut t = Table::new();
    let started = t.ada_challenges(Account::House, "the vault door", 2);
    assert_eq!(started, "Ada challenges the House over “the vault door” (ante 2).");
    let (a, b) = (Side::Challenger, Side::Opponent);
    t.mv(Move::Circumstance { side: a, name: "Dark night".into(), double_down: false }, &[3]);
    t.mv(Move::Pass { side: b }, &[]);
    let used = vec![Used { owner: Account::Character(t.ada), text: "Strong".into() }];
    penny_use_and_roll(|mv, dice| t.mv(mv, dice), used, (&[4, 5], &[2]));
    // The private view shows the side its own dice and exact odds; the shared view does not.
    let private = services::penny_private(&t.store, t.game, a, None).unwrap();
    assert_eq!(private.dice, vec![4, 5]);
    assert!(private.odds.is_some());
    assert_eq!(t.view().challenge.unwrap().sides[0].revealed, Vec::<u8>::new());
    t.mv(Move::Cup { side: a, cup: vec![] }, &[]);
    t.mv(Move::Cup { side: b, cup: vec![0] }, &[]);
    let shared = t.view().challenge.unwrap();
    assert_eq!((shared.sides[0].revealed.clone(), shared.sides[1].in_cup), (vec![4, 5], 1));
    assert_eq!(json!(shared.sides[1]).get("dice"), Some(&json!(null)), "the House's cup stays hidden");
    // A raise, then undo it: the pennies come back and the turn is Ada's again.
    t.mv(Move::Raise { side: a, by: 4 }, &[]);
    assert_eq!(t.pile("Ada"), 19);
    let undone = services::undo_game(&mut t.store, t.game).unwrap();
    assert!(undone.message.starts_with("Undone: Ada raises by 4"), "{}", undone.message);
    assert_eq!(t.pile("Ada"), 23);
    assert_eq!(t.db_pile(&format!("character:{}", t.ada)), 23);
    assert_eq!(t.view().challenge.unwrap().turn, Some(a));
    t.mv(Move::Raise { side: a, by: 2 }, &[]);
    t.mv(Move::Call { side: b }, &[]);
    t.mv(Move::Circumstance { side: a, name: "Open window".into(), double_down: true }, &[6]);
    t.mv(Move::Pass { side: b }, &[]);
    t.mv(Move::Reroll { side: b }, &[1]);
    t.mv(Move::Stand { side: a }, &[]);
    let last = t.mv(Move::Stand { side: b }, &[]);
    // Ada: 4 5 + 3 + 6 → 3 4 5 6 = small straight 30; the House: 1 + 3 = 4.
    assert!(last.contains("Ada wins the pot of 12 with small straight, 30"), "{last}");
    let v = t.view();
    let c = v.challenge.unwrap();
    assert_eq!(c.phase, Phase::Over);
    assert_eq!(c.outcome.as_ref().unwrap().hands.as_ref().unwrap()[0].words, "small straight, 30");
    assert_eq!((t.pile("Ada"), v.house), (29, 51));
    assert_eq!(t.db_pile(&format!("character:{}", t.ada)), 29);
    let log = services::penny_log(&t.store, t.game, 50, false).unwrap();
    assert!(log.iter().any(|e| e.undone && e.action.starts_with("Ada raises by 4")));
    assert_eq!(log[0].action, last);
    assert!(t.store.check().unwrap().ok, "sheetkeeper check finds the ledger sound");
}

#[test]
fn a_buyout_costs_the_loser_a_characteristic_and_undo_gives_it_back() {
    let mut t = Table::new();
    t.ada_challenges(Account::Character(t.bo), "the last word", 25);
    let (a, b) = (Side::Challenger, Side::Opponent);
    t.mv(Move::Pass { side: a }, &[]);
    t.mv(Move::Pass { side: b }, &[]);
    let used = vec![Used { owner: Account::Character(t.ada), text: "Quick".into() }];
    penny_use_and_roll(|mv, dice| t.mv(mv, dice), used, (&[1, 1], &[6]));
    t.mv(Move::Cup { side: a, cup: vec![] }, &[]);
    t.mv(Move::Cup { side: b, cup: vec![] }, &[]);
    for _ in 0..2 {
        t.mv(Move::Stand { side: a }, &[]);
        t.mv(Move::Stand { side: b }, &[]);
        if t.view().challenge.unwrap().phase == Phase::NewCircumstances {
            t.mv(Move::Pass { side: a }, &[]);
            t.mv(Move::Pass { side: b }, &[]);
        }
    }
    let c = t.view().challenge.unwrap();
    assert_eq!(c.phase, Phase::AfterLoss);
    assert_eq!(t.pile("Ada"), 0);
    assert_eq!(c.bids[0].amount, 1, "the House offers one penny");
    let wrong = services::penny_challenge_move(
        &mut t.store,
        t.game,
        Move::AcceptBuyout { losses: vec![Used { owner: Account::Character(t.ada), text: "Strong".into() }] },
        &DiceInput::Rolled,
        &mut t.rng,
    )
    .unwrap_err();
    assert_eq!(wrong.to_string(), "losses[0]: “Strong” is not one it used in the challenge");
    t.mv(Move::AcceptBuyout { losses: vec![Used { owner: Account::Character(t.ada), text: "Quick".into() }] }, &[]);
    let ada = t.view().players.into_iter().find(|p| p.name == "Ada").unwrap();
    assert_eq!((ada.pile, ada.characteristics), (1, vec!["Strong".to_string()]));
    services::undo_game(&mut t.store, t.game).unwrap();
    let ada = t.view().players.into_iter().find(|p| p.name == "Ada").unwrap();
    assert_eq!((ada.pile, ada.characteristics), (0, vec!["Strong".to_string(), "Quick".to_string()]));
}

#[test]
fn bad_challenge_input_names_the_field_and_changes_nothing() {
    let mut t = Table::new();
    let before = bytes_on_disk(&t.scratch.db());
    let bad = |challenger: Vec<Account>, ante: i64| ChallengeDraft {
        stake: "x".into(),
        ante,
        challenger,
        opponent: vec![Account::House],
        devoted: None,
    };
    let err = services::penny_start_challenge(&mut t.store, t.game, bad(vec![Account::Character(t.ada)], 0));
    assert_eq!(err.unwrap_err().to_string(), "ante: must be a whole number of pennies, at least 1");
    let err = services::penny_start_challenge(&mut t.store, t.game, bad(vec![Account::Character(Uuid::nil())], 1));
    assert_eq!(err.unwrap_err().to_string(), "challenger: is not a character of this game");
    let err = services::penny_challenge_move(
        &mut t.store,
        t.game,
        Move::Pass { side: Side::Opponent },
        &DiceInput::Rolled,
        &mut t.rng,
    );
    assert_eq!(err.unwrap_err().to_string(), "challenge: no challenge is running");
    assert_eq!(bytes_on_disk(&t.scratch.db()), before);
}

#[test]
fn deleting_a_game_keeps_its_pennies_in_the_log_and_undo_brings_them_back() {
    let mut t = Table::new();
    services::delete_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.db_pile("house:"), 0);
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!((t.pile("Ada"), t.pile("Bo"), t.view().house), (25, 25, 55));
    assert_eq!(t.view().players.iter().find(|p| p.name == "Ada").unwrap().characteristics, vec!["Strong", "Quick"]);
    assert!(t.store.check().unwrap().ok);
}

#[test]
fn characteristics_bought_at_another_table_travel_with_a_copied_moved_or_imported_character() {
    use services::{ExportScope, ImportOptions};
    let mut t = Table::new();
    let other = services::create_game(&mut t.store, "Sequel", "penny_ante").unwrap().game.id;
    // Ada bought Quick at the first table; a copy and a move take it along.
    let copy = services::copy_character(&mut t.store, t.ada, other).unwrap();
    services::move_character(&mut t.store, t.bo, other).unwrap();
    let sequel = services::penny_table(&t.store, other).unwrap();
    let ada2 = sequel.players.iter().find(|p| p.id == copy.id).unwrap();
    assert_eq!(ada2.characteristics, vec!["Strong", "Quick"]);
    // The sequel's file imports cleanly elsewhere, and so does Ada's own character file.
    let game_file = t.scratch.file("sequel.sheetkeeper.json");
    services::export(&t.store, ExportScope::Game(other), &game_file).unwrap();
    let char_file = t.scratch.file("ada.sheetkeeper.json");
    services::export(&t.store, ExportScope::Character(t.ada), &char_file).unwrap();
    let elsewhere = Scratch::new();
    let mut store = elsewhere.open();
    services::import(&mut store, &game_file, ImportOptions::default()).unwrap();
    services::import(&mut store, &char_file, ImportOptions::default()).unwrap();
    let heist = services::list(&store).unwrap().into_iter().find(|g| g.game.name == "Heist").unwrap();
    let there = services::penny_table(&store, heist.game.id).unwrap();
    let ada = there.players.iter().find(|p| p.name == "Ada").unwrap();
    assert_eq!((ada.pile, ada.characteristics.len()), (25, 2));
    // …and a game file exported from there imports again.
    let again = elsewhere.file("heist.sheetkeeper.json");
    services::export(&store, ExportScope::Game(heist.game.id), &again).unwrap();
    let third = Scratch::new();
    services::import(&mut third.open(), &again, ImportOptions::default()).unwrap();
    assert!(store.check().unwrap().ok);
}
