//! Penny Ante, the rulings of 2026-11-28 (RULES.md §2.2–2.3, issue 33: the audit's D-PA1 to
//! D-PA7) at a real table, through the services, as each device's role sees them.

use sheetkeeper::rules::penny_ante::challenge::{Move, Side};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::services::{self, ChallengeDraft};
use uuid::Uuid;

use crate::support::{penny_heist, penny_player, penny_use_and_roll, PennyHeist};

const C: Side = Side::Challenger;
const O: Side = Side::Opponent;

/// Ada (30, "Strong") and Bo (25, "Clever"); the House's Baron ("Ruthless", hidden "Hates
/// riddles" and "Fears the dark") with a purse of 17; an adventure running.
fn table() -> PennyHeist {
    penny_heist("Bo", "Clever")
}

/// The steps these tests take at the heist table.
trait Rulings {
    fn start(&mut self, challenger: Vec<Account>, opponent: Vec<Account>, devoted: Option<i64>);
    fn view(&self) -> services::PennyView;
    fn play_to_betting(&mut self, dice: (&[u8], &[u8]), cups: (Vec<usize>, Vec<usize>));
}

impl Rulings for PennyHeist {
    fn start(&mut self, challenger: Vec<Account>, opponent: Vec<Account>, devoted: Option<i64>) {
        let draft = ChallengeDraft { stake: "the vault".into(), ante: 2, challenger, opponent, devoted };
        services::penny_start_challenge(&mut self.store, self.game, draft).unwrap_or_else(|e| panic!("{e}"));
    }

    fn view(&self) -> services::PennyView {
        services::penny_table(&self.store, self.game).unwrap()
    }

    /// Both sides pass, declare nothing, roll the dice given and choose their cups; the
    /// first betting round waits for the challenger.
    fn play_to_betting(&mut self, dice: (&[u8], &[u8]), cups: (Vec<usize>, Vec<usize>)) {
        self.mv(Move::Pass { side: C }, &[]);
        self.mv(Move::Pass { side: O }, &[]);
        penny_use_and_roll(|mv, d| self.mv(mv, d), vec![], dice);
        self.mv(Move::Cup { side: C, cup: cups.0 }, &[]);
        self.mv(Move::Cup { side: O, cup: cups.1 }, &[]);
    }
}

/// D-PA1: after a fold no cup opens — not on the shared screen, in the history, in the log,
/// on a device passed around, nor in what a player's device is sent; each side's own device
/// still shows it its own dice.
#[test]
fn after_a_fold_no_cup_is_shown_to_anyone_anywhere() {
    let mut t = table();
    t.start(vec![Account::Character(t.ada)], vec![Account::Antagonist(t.baron)], None);
    // Ada keeps a 5 out and a 6 in her cup; the Baron's 3 goes in his.
    t.mv(Move::Pass { side: C }, &[]);
    t.mv(Move::Pass { side: O }, &[]);
    let strong = vec![sheetkeeper::rules::penny_ante::challenge::Used {
        owner: Account::Character(t.ada),
        text: "Strong".into(),
    }];
    penny_use_and_roll(|mv, d| t.mv(mv, d), strong, (&[5, 6], &[3]));
    t.mv(Move::Cup { side: C, cup: vec![1] }, &[]);
    t.mv(Move::Cup { side: O, cup: vec![0] }, &[]);
    let folded = t.mv(Move::Fold { side: C }, &[]);
    assert!(folded.starts_with("Ada folds."), "{folded}");
    for role in ["player", "both", "table"] {
        t.role(role);
        let view = t.view();
        let c = view.challenge.as_ref().unwrap();
        assert_eq!((c.sides[0].dice.clone(), c.sides[1].dice.clone()), (None, None), "{role}: no cup opens");
        assert_eq!((c.sides[0].revealed.clone(), c.sides[1].revealed.clone()), (vec![5], vec![]), "{role}");
        assert_eq!(c.outcome.as_ref().unwrap().hands, None, "{role}");
        let kept = &view.history[0];
        assert!(kept.sides.iter().all(|s| s.hand.is_none()), "{role}: the history keeps no hand");
        // The challenge's lines name no die but Ada's 5 kept out (and counts: 2 dice, 1 in
        // the cup, the ante 2 and the pot 4).
        for entry in services::penny_log(&t.store, t.game, 50, false).unwrap() {
            if entry.challenge.is_some() {
                assert!(
                    !entry.action.contains('6') && !entry.action.contains('3'),
                    "{role}: a cup in the log: {entry:?}"
                );
            }
        }
    }
    // A device passed around is everyone's screen now: no side's cup opens on it.
    t.role("both");
    for side in [C, O] {
        let refused = services::penny_private(&t.store, t.game, side, None).unwrap_err().to_string();
        assert_eq!(refused, "side: the challenge ended with a fold: the cups stay closed");
    }
    // Ada's own device still shows her what she saw.
    t.role("player");
    assert_eq!(services::penny_private(&t.store, t.game, C, None).unwrap().dice, vec![5, 6]);
    let doc = services::game_document_for(t.store.read(), t.game, &services::Viewer::Player(vec![t.second])).unwrap();
    let sent = doc.games[0].penny_table.as_ref().unwrap().challenge.as_ref().unwrap();
    assert_eq!(sent.sides[0].dice[0], 5, "what was on the table");
    assert_ne!(sent.sides[1].dice, vec![3], "nor the Baron's cup");
}

/// D-PA4: an antagonist that took part in a direct challenge is revealed to the table from
/// then on (its purse and characteristics); one only in an anonymous challenge is not, and
/// undoing the direct challenge's start hides it again.
#[test]
fn an_antagonist_in_a_direct_challenge_is_revealed_from_then_on() {
    let mut t = table();
    t.role("player");
    let baron = |t: &PennyHeist| t.view().antagonists.into_iter().find(|a| a.id == t.baron).unwrap();
    let texts = |t: &PennyHeist| baron(t).characteristics.into_iter().map(|c| c.text).collect::<Vec<_>>();
    assert_eq!((baron(&t).purse, texts(&t)), (None, vec!["Ruthless".to_owned()]));
    t.start(vec![Account::Antagonist(t.baron)], vec![Account::Character(t.ada)], Some(5));
    assert_eq!((baron(&t).purse, baron(&t).revealed), (None, false), "anonymous: still hidden");
    t.play_to_betting((&[5], &[4]), (vec![], vec![]));
    t.mv(Move::Fold { side: C }, &[]);
    assert_eq!((baron(&t).purse, baron(&t).revealed), (None, false), "anonymous: hidden after it too");
    // Ada challenges him directly: he is revealed, purse and characteristics.
    t.start(vec![Account::Character(t.ada)], vec![Account::Antagonist(t.baron)], None);
    let purse = t.view().challenge.unwrap().sides[1].members[0].pile;
    assert!(purse.is_some(), "his pile in the challenge is shown");
    assert_eq!((baron(&t).purse, baron(&t).revealed), (purse, true));
    assert_eq!(texts(&t), vec!["Ruthless", "Hates riddles", "Fears the dark"]);
    assert!(t.view().challenge.unwrap().sides[1].available.is_some(), "Ada can tell whether a raise puts him all in");
    // Undoing the challenge's start hides him again.
    t.role("table");
    services::undo_game(&mut t.store, t.game).unwrap();
    t.role("player");
    assert_eq!((baron(&t).purse, baron(&t).revealed), (None, false), "undone: hidden again");
    // Played and over, he stays revealed, in the stored table and in a player's ledger.
    t.start(vec![Account::Character(t.ada)], vec![Account::Antagonist(t.baron)], None);
    t.play_to_betting((&[5], &[4]), (vec![], vec![]));
    t.mv(Move::Fold { side: C }, &[]);
    assert!(baron(&t).revealed && baron(&t).purse.is_some());
    assert!(services::penny_ledger(&t.store, t.game, Some(Account::Antagonist(t.baron)), 10, false).is_ok());
    // A player's linked device is sent his characteristics too.
    let doc = services::game_document_for(t.store.read(), t.game, &services::Viewer::Player(vec![t.ada])).unwrap();
    let sent = doc.games[0].penny_table.as_ref().unwrap();
    assert_eq!(sent.antagonists[0].characteristics.len(), 3);
}

/// D-PA2: a player cannot work out a hidden purse from the House's pile or its ledger:
/// funding one leaves the House's pile as the players see it, the numbering of the entries
/// they see has no gap, and the House's "pile after" has no jump.
#[test]
fn funding_a_hidden_purse_does_not_show_in_the_houses_pile_or_ledger() {
    let mut t = table();
    t.role("player");
    let house_before = t.view().house;
    t.role("table");
    let thug = services::penny_add_antagonist(&mut t.store, t.game, "A Thug", vec![]).unwrap();
    let thug = thug.view.antagonists.iter().find(|a| a.name == "A Thug").unwrap().id;
    services::penny_fund_antagonist(&mut t.store, t.game, thug, 6).unwrap();
    let real_house = t.view().house;
    t.role("player");
    assert_eq!(t.view().house, house_before, "the House's pile as players see it holds its hidden purses");
    assert_eq!(real_house, house_before - 6 - 17, "the House's own view: its pile alone");
    let all = services::penny_ledger(&t.store, t.game, None, 100, false).unwrap();
    let mut numbers: Vec<usize> = all.entries.iter().map(|e| e.n).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=all.entries.len()).collect::<Vec<_>>(), "no gap in the numbering");
    let house = services::penny_ledger(&t.store, t.game, Some(Account::House), 100, false).unwrap();
    assert_eq!(house.pile, Some(house_before));
    assert_eq!(house.entries[0].pile_after, Some(house_before), "the newest entry's pile after is the pile shown");
    assert!(house.entries.iter().all(|e| !matches!(e.to.account, Account::Antagonist(_))));
}

/// D-PA3: the House cannot add to the purse of an antagonist in the running challenge; the
/// refusal names it and nothing changes.
#[test]
fn the_house_cannot_fund_an_antagonist_in_the_running_challenge() {
    let mut t = table();
    t.role("table");
    t.start(vec![Account::Character(t.ada)], vec![Account::Antagonist(t.baron)], None);
    let before = t.view();
    let refused = services::penny_fund_antagonist(&mut t.store, t.game, t.baron, 5).unwrap_err().to_string();
    assert_eq!(
        refused,
        "antagonist: The Baron plays in the running challenge; the House may add to its purse only when it is in none"
    );
    assert_eq!(t.view(), before, "nothing changed");
}

/// D-PA5 and D-PA6: Cy lends to Bo, not to the side's lead Ada; later Bo, outside a
/// challenge, lends Cy 7, which first pays back the 4 he owes her.
#[test]
fn a_loan_goes_to_the_chosen_ally_and_a_loan_back_repays_it() {
    let mut t = table();
    let cy = penny_player(&mut t.store, t.game, "Cy", "Brave", 25);
    t.role("table");
    t.start(vec![Account::Character(t.ada), Account::Character(t.second)], vec![Account::Antagonist(t.baron)], None);
    t.play_to_betting((&[5], &[4]), (vec![], vec![]));
    let offer = Move::OfferLoan {
        id: Uuid::new_v4(),
        lender: Account::Character(cy),
        side: C,
        amount: 4,
        borrower: Some(Account::Character(t.second)),
    };
    assert_eq!(t.mv(offer, &[]), "Cy offers Bo a loan of 4.");
    assert_eq!(t.view().challenge.unwrap().offer.unwrap().borrower.name, "Bo");
    assert_eq!(t.mv(Move::AnswerLoan { accept: true }, &[]), "Bo accepts the loan of 4 from Cy.");
    let loans = t.view().loans;
    assert_eq!((loans[0].borrower.name.as_str(), loans[0].outstanding), ("Bo", 4));
    t.mv(Move::Fold { side: C }, &[]);
    // Cy challenges the Baron; Bo lends her 7.
    t.start(vec![Account::Character(cy)], vec![Account::Antagonist(t.baron)], None);
    t.play_to_betting((&[5], &[4]), (vec![], vec![]));
    let back = Move::OfferLoan {
        id: Uuid::new_v4(),
        lender: Account::Character(t.second),
        side: C,
        amount: 7,
        borrower: None,
    };
    t.mv(back, &[]);
    let said = t.mv(Move::AnswerLoan { accept: true }, &[]);
    assert_eq!(said, "Cy accepts the loan of 7 from Bo; 4 of it pays back what Bo owed Cy.");
    let loans = t.view().loans;
    assert_eq!(loans.len(), 2);
    assert_eq!((loans[0].repaid, loans[0].outstanding), (4, 0), "Bo's loan from Cy is paid back");
    assert_eq!((loans[1].lender.name.as_str(), loans[1].borrower.name.as_str(), loans[1].amount), ("Bo", "Cy", 3));
}

/// D-PA7 and D-PA4 in the store: a debt handed to the House and a revealed antagonist are
/// kept as they were written (schema v21).
#[test]
fn a_debt_handed_to_the_house_and_a_revealed_antagonist_are_kept() {
    use sheetkeeper::rules::penny_ante::ledger::Handover;
    let mut t = table();
    let mut table = t.store.read().penny_table(t.game).unwrap();
    table.ledger.handed_over.push(Handover { debtor: Account::Character(t.ada), antagonist: t.baron, amount: 3 });
    table.antagonists[0].revealed = true;
    t.store.write(|tx| tx.put_penny_table(t.game, &table)).unwrap();
    assert_eq!(t.store.read().penny_table(t.game).unwrap(), table);
}
