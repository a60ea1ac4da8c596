//! A Penny Ante campaign through the services on the real SQLite file: the history of
//! finished challenges (kept with the move that ends them, narrated afterwards, hidden
//! characteristics kept from the players), the House's funding across adventures, unpaid
//! loans becoming debts, a characteristic lost in a buyout, recurring antagonists, and old
//! files that still import.

use rand::SeedableRng;
use serde_json::Value;
use sheetkeeper::exchange::parse;
use sheetkeeper::rules::penny_ante::challenge::{Move, Phase, Side, Used};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::rules::penny_ante::table::{Characteristic, FundingBasis};
use sheetkeeper::services::{self, ChallengeDraft, PennyView, SystemView, Viewer};
use uuid::Uuid;

use crate::support::{self, penny_ada_and_bo, penny_move, penny_start};

/// What the campaign's tests add to the table: nothing.
struct Riverboat;

type Campaign = support::Table<Riverboat>;

impl Campaign {
    /// Ada (30 pennies, Strong, then Quick bought for 5) and Bo (25, Clever); no adventure yet.
    fn new() -> Campaign {
        let (scratch, store, game, ada, bo) = penny_ada_and_bo("Riverboat", &["Quick"]);
        Campaign { scratch, store, game, ada, bo, rng: SeedableRng::seed_from_u64(3), more: Riverboat }
    }

    fn view(&self) -> PennyView {
        services::penny_table(&self.store, self.game).unwrap()
    }

    fn pile(&self, who: Uuid) -> i64 {
        self.view().players.iter().find(|p| p.id == who).unwrap().pile
    }

    fn mv(&mut self, mv: Move, dice: &[u8]) -> String {
        penny_move(&mut self.store, self.game, mv, dice, &mut self.rng)
    }

    /// `challenger` challenges `opponent` with `ante` (with `devoted`, an anonymous challenge
    /// the House issues); both pass, use `used`, roll (the challenger 2s, the opponent 5s) and
    /// keep their dice on the table, and `folder` folds.
    fn folded_challenge(
        &mut self,
        (challenger, opponent): (Account, Account),
        ante: i64,
        used: [Vec<Used>; 2],
        folder: Side,
        devoted: Option<i64>,
    ) -> String {
        penny_start(&mut self.store, self.game, ("The ferry", ante), challenger, opponent, devoted);
        let (a, b) = (Side::Challenger, Side::Opponent);
        self.mv(Move::Pass { side: a }, &[]);
        self.mv(Move::Pass { side: b }, &[]);
        let [ua, ub] = used;
        let (na, nb) = (ua.len(), ub.len());
        self.mv(Move::Characteristics { side: a, used: ua }, &[]);
        self.mv(Move::Characteristics { side: b, used: ub }, &[]);
        self.mv(Move::Roll { side: a }, &vec![2; na + 1]);
        self.mv(Move::Cup { side: a, cup: vec![] }, &[]);
        self.mv(Move::Roll { side: b }, &vec![5; nb + 1]);
        self.mv(Move::Cup { side: b, cup: vec![] }, &[]);
        // The challenger acts first in the betting.
        if folder == b {
            self.mv(Move::Stand { side: a }, &[]);
        }
        self.mv(Move::Fold { side: folder }, &[])
    }

    fn events(&self) -> i64 {
        let conn = rusqlite::Connection::open(self.scratch.db()).unwrap();
        conn.query_row("SELECT count(*) FROM events", [], |r| r.get(0)).unwrap()
    }
}

fn ch(id: Uuid) -> Account {
    Account::Character(id)
}

#[test]
fn the_house_is_funded_from_the_starting_pennies_then_from_the_piles_at_the_last_adventures_end() {
    let mut c = Campaign::new();
    // Before the first adventure: 30 + 25, although Ada has paid 5 for Quick since.
    let b = c.view().house_budget;
    assert_eq!((b.amount, b.basis), (55, FundingBasis::StartingPennies));
    assert!(b.words.contains("starting pennies"), "{}", b.words);
    services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    assert_eq!(c.view().house, 55);
    c.folded_challenge((ch(c.ada), ch(c.bo)), 3, [vec![], vec![]], Side::Challenger, None);
    let ended = services::penny_end_adventure(&mut c.store, c.game).unwrap();
    assert_eq!((c.pile(c.ada), c.pile(c.bo)), (22, 28));
    assert!(ended.message.contains("the next one's House starts from 50"), "{}", ended.message);
    // Bo buys a characteristic between adventures; the next House still gets 50.
    services::penny_buy_characteristic(&mut c.store, c.game, c.bo, "Nimble").unwrap();
    let b = c.view().house_budget;
    assert_eq!((b.amount, b.basis), (50, FundingBasis::EndOf(1)));
    assert_eq!(b.words, "The players' piles when adventure 1 ended");
    // A newcomer counts with the starting pennies.
    services::penny_create_character(&mut c.store, c.game, "Cy", "Sly", 40).unwrap();
    let b = c.view().house_budget;
    assert_eq!(b.amount, 90);
    assert!(b.words.ends_with("and Cy's starting pennies (Cy joined since)"), "{}", b.words);
    services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    assert_eq!(c.view().house, 90);
}

#[test]
fn a_finished_challenge_is_kept_with_the_move_that_ends_it_and_undo_takes_both_back() {
    let mut c = Campaign::new();
    services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    let used = [vec![Used { owner: ch(c.ada), text: "Quick".into() }], vec![]];
    let before = c.events();
    c.folded_challenge((ch(c.ada), ch(c.bo)), 2, used, Side::Challenger, None);
    // Nine moves and the start: one event each, the history written with the last.
    assert_eq!(c.events() - before, 10);
    let h = &c.view().history;
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].summary, "Ada folded; Bo takes the pot of 4. Ada narrates.");
    assert_eq!((h[0].narrator_name.as_deref(), h[0].adventure, h[0].ante), (Some("Ada"), 1, 2));
    assert_eq!(h[0].sides[0].used[0].text, "Quick");
    assert_eq!(h[0].characters, vec![c.ada, c.bo]);
    services::undo_game(&mut c.store, c.game).unwrap();
    let v = c.view();
    assert!(v.history.is_empty());
    assert_ne!(v.challenge.unwrap().phase, Phase::Over);
    c.mv(Move::Fold { side: Side::Challenger }, &[]);
    assert_eq!(c.view().history.len(), 1);
}

#[test]
fn the_narrator_writes_the_narration_and_undo_takes_it_back() {
    let mut c = Campaign::new();
    services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    c.folded_challenge((ch(c.ada), ch(c.bo)), 2, [vec![], vec![]], Side::Challenger, None);
    let id = c.view().history[0].challenge;
    // On Bo's phone (Bo won: Ada narrates) the narration is not Bo's to write.
    services::set_device_role(&mut c.store, c.game, "player").unwrap();
    services::set_mine(&mut c.store, c.ada, false).unwrap();
    services::set_mine(&mut c.store, c.bo, true).unwrap();
    assert!(!c.view().history[0].can_narrate);
    let refused = services::penny_narrate(&mut c.store, c.game, id, "Bo tells it").unwrap_err();
    assert!(refused.to_string().starts_with("narration:"), "{refused}");
    // On Ada's phone it is.
    services::set_mine(&mut c.store, c.bo, false).unwrap();
    services::set_mine(&mut c.store, c.ada, true).unwrap();
    assert!(c.view().history[0].can_narrate);
    let told = services::penny_narrate(&mut c.store, c.game, id, "Ada misses the ferry and swims.").unwrap();
    assert_eq!(told.view.history[0].narration, "Ada misses the ferry and swims.");
    services::penny_narrate(&mut c.store, c.game, id, "Ada swims after the ferry.").unwrap();
    services::undo_game(&mut c.store, c.game).unwrap();
    assert_eq!(c.view().history[0].narration, "Ada misses the ferry and swims.");
    let missing = services::penny_narrate(&mut c.store, c.game, Uuid::nil(), "x").unwrap_err();
    assert!(missing.to_string().starts_with("challenge:"), "{missing}");
}

#[test]
fn the_history_keeps_an_antagonists_hidden_characteristic_from_the_players() {
    let mut c = Campaign::new();
    services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    let count = services::penny_add_antagonist(
        &mut c.store,
        c.game,
        "The Count",
        vec![Characteristic { text: "Owns the ferry".into(), hidden: true }],
    )
    .unwrap()
    .view
    .antagonists[0]
        .id;
    services::penny_fund_antagonist(&mut c.store, c.game, count, 10).unwrap();
    let theirs = vec![Used { owner: Account::Antagonist(count), text: "Owns the ferry".into() }];
    // In an anonymous challenge (a direct one reveals the antagonist for good, RULES.md §2.2).
    c.folded_challenge((Account::Antagonist(count), ch(c.ada)), 2, [theirs, vec![]], Side::Opponent, Some(4));
    // Using it showed it to the table; the House hides it again for the next time.
    let hidden = vec![Characteristic { text: "Owns the ferry".into(), hidden: true }];
    services::penny_edit_antagonist(&mut c.store, c.game, count, "The Count", hidden).unwrap();
    let as_player = services::game_view(&c.store, c.game, &Viewer::Player(vec![c.ada])).unwrap();
    let SystemView::PennyAnte { table, .. } = as_player.system else { panic!("a Penny Ante view") };
    assert_eq!(table.history[0].sides[0].used[0].text, "a hidden characteristic");
    let as_table = services::game_view(&c.store, c.game, &Viewer::Table).unwrap();
    let SystemView::PennyAnte { table, .. } = as_table.system else { panic!("a Penny Ante view") };
    assert_eq!(table.history[0].sides[0].used[0].text, "Owns the ferry");
    // A device passed around shows it only behind the House's hand-over.
    services::set_device_role(&mut c.store, c.game, "both").unwrap();
    let shared = services::penny_table(&c.store, c.game).unwrap();
    assert_eq!(shared.history[0].sides[0].used[0].text, "a hidden characteristic");
    let house = services::penny_table_as_house(&c.store, c.game).unwrap();
    assert_eq!(house.history[0].sides[0].used[0].text, "Owns the ferry");
    // The file a player's linked device receives says no more.
    let doc = services::game_document_for(c.store.read(), c.game, &Viewer::Player(vec![c.ada])).unwrap();
    let text = String::from_utf8(sheetkeeper::exchange::to_json(&doc)).unwrap();
    assert!(!text.contains("Owns the ferry"), "the player's copy names the hidden characteristic");
}

#[test]
fn an_unpaid_loan_becomes_a_debt_when_the_next_adventure_starts() {
    let mut c = Campaign::new();
    services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    let cy = services::penny_create_character(&mut c.store, c.game, "Cy", "Sly", 40).unwrap();
    let cy = cy.view.players.iter().find(|p| p.name == "Cy").unwrap().id;
    let draft = ChallengeDraft {
        stake: "The ferry".into(),
        ante: 2,
        challenger: vec![ch(c.ada)],
        opponent: vec![ch(c.bo)],
        devoted: None,
    };
    services::penny_start_challenge(&mut c.store, c.game, draft).unwrap();
    let (a, b) = (Side::Challenger, Side::Opponent);
    for (mv, dice) in [
        (Move::Pass { side: a }, vec![]),
        (Move::Pass { side: b }, vec![]),
        (Move::Characteristics { side: a, used: vec![] }, vec![]),
        (Move::Characteristics { side: b, used: vec![] }, vec![]),
        (Move::Roll { side: a }, vec![3]),
        (Move::Cup { side: a, cup: vec![] }, vec![]),
        (Move::Roll { side: b }, vec![4]),
        (Move::Cup { side: b, cup: vec![] }, vec![]),
        (Move::OfferLoan { id: Uuid::new_v4(), lender: ch(cy), side: a, amount: 6, borrower: None }, vec![]),
        (Move::AnswerLoan { accept: true }, vec![]),
        (Move::Stand { side: a }, vec![]),
        (Move::Fold { side: b }, vec![]),
    ] {
        c.mv(mv, &dice);
    }
    let loan = c.view().loans[0].id;
    services::penny_end_adventure(&mut c.store, c.game).unwrap();
    services::penny_repay_loan(&mut c.store, c.game, loan, 2).unwrap();
    let piles = (c.pile(c.ada), c.pile(cy));
    let started = services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    assert!(
        started.message.contains("Ada's unpaid loan of 4 becomes a debt to Cy, who narrates the setback."),
        "{}",
        started.message
    );
    let v = started.view;
    assert_eq!((v.loans[0].in_debt, v.loans[0].outstanding, v.loans[0].flagged), (4, 0, true));
    assert_eq!(
        (v.debts[0].debtor.name.as_str(), v.debts[0].creditor.name.as_str(), v.debts[0].amount),
        ("Ada", "Cy", 4)
    );
    assert_eq!((c.pile(c.ada), c.pile(cy)), piles, "no penny moves");
    // One move: undo takes the debt and the adventure back together.
    services::undo_game(&mut c.store, c.game).unwrap();
    let v = c.view();
    assert!(!v.adventure.running);
    assert!(v.debts.is_empty());
    assert_eq!(v.loans[0].outstanding, 4);
    services::penny_repay_loan(&mut c.store, c.game, loan, 4).unwrap();
    let v = services::penny_start_adventure(&mut c.store, c.game, None).unwrap().view;
    assert!(v.debts.is_empty());
    assert!(c.store.check().unwrap().ok);
}

#[test]
fn a_character_bought_out_of_its_only_characteristic_waits_for_the_adventures_end() {
    let mut c = Campaign::new();
    services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    // Bo stakes all 25 and folds: left with nothing, he takes the House's buyout.
    let theirs = vec![Used { owner: ch(c.bo), text: "Clever".into() }];
    c.folded_challenge((ch(c.ada), ch(c.bo)), 25, [vec![], theirs], Side::Opponent, None);
    assert_eq!(c.view().challenge.unwrap().phase, Phase::AfterLoss);
    c.mv(Move::AcceptBuyout { losses: vec![Used { owner: ch(c.bo), text: "Clever".into() }] }, &[]);
    let v = c.view();
    let bo = v.players.iter().find(|p| p.id == c.bo).unwrap();
    assert_eq!((bo.characteristics.len(), bo.lost), (0, 1));
    assert!(bo.characteristic_waits.as_deref().unwrap_or_default().contains("waits until the adventure ends"));
    assert_eq!(v.history[0].sides[1].given_up[0].text, "Clever");
    let refused = services::penny_buy_characteristic(&mut c.store, c.game, c.bo, "Stubborn").unwrap_err();
    assert!(refused.to_string().contains("only between adventures"), "{refused}");
    services::penny_end_adventure(&mut c.store, c.game).unwrap();
    let pile = c.pile(c.bo);
    let taken = services::penny_buy_characteristic(&mut c.store, c.game, c.bo, "Stubborn").unwrap();
    assert!(taken.message.contains("(free)"), "{}", taken.message);
    assert_eq!(c.pile(c.bo), pile);
}

#[test]
fn a_recurring_antagonist_keeps_its_purse_and_the_house_sees_it() {
    let mut c = Campaign::new();
    services::penny_start_adventure(&mut c.store, c.game, None).unwrap();
    let add = |c: &mut Campaign, name: &str| {
        let v = services::penny_add_antagonist(&mut c.store, c.game, name, vec![]).unwrap().view;
        v.antagonists.iter().find(|a| a.name == name).unwrap().id
    };
    let (count, thug) = (add(&mut c, "The Count"), add(&mut c, "A Thug"));
    services::penny_fund_antagonist(&mut c.store, c.game, count, 12).unwrap();
    services::penny_fund_antagonist(&mut c.store, c.game, thug, 5).unwrap();
    let marked = services::penny_set_recurring(&mut c.store, c.game, count, true).unwrap();
    assert!(marked.view.antagonists.iter().find(|a| a.id == count).unwrap().recurring);
    services::penny_end_adventure(&mut c.store, c.game).unwrap();
    // The House's view (a device passed around opens it behind the hand-over).
    let v = services::penny_table_as_house(&c.store, c.game).unwrap();
    let purse = |v: &PennyView, id| v.antagonists.iter().find(|a| a.id == id).unwrap().purse;
    assert_eq!((purse(&v, count), purse(&v, thug), v.house), (Some(12), Some(0), 0));
    assert_eq!(v.recurring_purses, Some(12));
    // A player's phone sees neither the purse nor what recurring antagonists keep.
    let as_player = services::game_view(&c.store, c.game, &Viewer::Player(vec![c.ada])).unwrap();
    let SystemView::PennyAnte { table, .. } = as_player.system else { panic!("a Penny Ante view") };
    assert_eq!((table.recurring_purses, table.antagonists[0].purse), (None, None));
}

#[test]
fn a_game_file_without_the_campaign_fields_still_imports() {
    let text = std::fs::read_to_string(crate::support::fixture("penny-ante-game.sheetkeeper.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let table = v["data"]["games"][0]["penny_table"].as_object_mut().unwrap();
    table.remove("history");
    table.remove("last_end");
    for a in table["antagonists"].as_array_mut().unwrap() {
        a.as_object_mut().unwrap().remove("recurring");
    }
    let doc = parse(v.to_string().as_bytes()).unwrap();
    let t = doc.games[0].penny_table.as_ref().unwrap();
    assert!(t.history.is_empty() && t.last_end.is_none() && !t.antagonists[0].recurring);
}
