//! A Penny Ante campaign on the table tab, as the House runs it on one device: a finished
//! challenge in the history gets its narration written; the House ends the adventure and
//! "Between adventures" shows the loan due and the figure the next House gets (the piles
//! recorded at the end); the borrower pays part back, and the rest becomes a debt to the
//! lender when the next adventure starts. An antagonist marked recurring keeps its purse.
//! The House cannot fund the purse of an antagonist playing in the running challenge (the
//! buttons disabled, saying why; audit D-PA3), and a debt to an antagonist that leaves play
//! at the adventure's end is owed to, and paid back to, the House (audit D-PA7).
//! Photographed at 1280 and 360 px, light and dark.

use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;
use sheetkeeper::rules::penny_ante::challenge::{Move, Side};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::services::{self, DiceInput};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::fixtures::{penny_challenge, penny_player};
use crate::penny_ante::{db, open_penny, press, shots_of, start_adventure, text_of, type_into};
use crate::{begin, open, open_dark};

const GAME: &str = "Penny Campaign";

/// The game as the table left it: Ada, Bo and Cy; adventure 1, where Cy lent Ada 6 pennies
/// in "The ferry", which Bo folded. Returns (the challenge, the loan, Ada).
fn seeded(db_path: &std::path::Path) -> (Uuid, Uuid, Uuid) {
    let mut store = Store::open(db_path).expect("the database");
    let game = services::create_game(&mut store, GAME, "penny_ante").unwrap().game.id;
    let ada = penny_player(&mut store, game, "Ada", "Strong", 30);
    let bo = penny_player(&mut store, game, "Bo", "Clever", 25);
    let cy = penny_player(&mut store, game, "Cy", "Lucky", 25);
    services::penny_start_adventure(&mut store, game, None).unwrap();
    let count = services::penny_add_antagonist(&mut store, game, "The Count", vec![]).unwrap().view.antagonists[0].id;
    services::penny_fund_antagonist(&mut store, game, count, 12).unwrap();
    let challenge = penny_challenge(&mut store, game, "The ferry", ada, bo);
    let (a, b) = (Side::Challenger, Side::Opponent);
    let mut moves = one_die_each_revealed(6, 2);
    moves.extend([
        (
            Move::OfferLoan { id: Uuid::new_v4(), lender: Account::Character(cy), side: a, amount: 6, borrower: None },
            vec![],
        ),
        (Move::AnswerLoan { accept: true }, vec![]),
        (Move::Stand { side: a }, vec![]),
        (Move::Fold { side: b }, vec![]),
    ]);
    play_moves(&mut store, game, moves);
    let loan = services::penny_table(&store, game).unwrap().loans[0].id;
    (challenge, loan, ada)
}

fn to_the_table(session: &crate::webdriver::Session) {
    open_penny(session, GAME);
    press(session, "#penny-tab-table");
    session.wait_for("#penny-history");
}

#[test]
fn the_house_ends_an_adventure_a_loan_falls_due_and_the_history_is_narrated() {
    let (_window, _scratch, db_path) = begin("penny-campaign");
    let (challenge, loan, ada) = seeded(&db_path);
    let session = open(&db_path);
    to_the_table(&session);

    // The finished challenge is in the history; Bo folded, so Bo tells it.
    let item = format!(".penny-history-item[data-challenge-id='{challenge}']");
    assert!(text_of(&session, &item).contains("Bo folded; Ada takes the pot of 4. Bo narrates."));
    assert!(text_of(&session, &format!("{item} .penny-narration-none")).contains("Bo has not told it yet"));
    press(&session, &format!("{item} .penny-narrate summary"));
    type_into(&session, &format!("{item} .penny-narration-text"), "Bo misses the ferry and swims after it.");
    press(&session, &format!("{item} .penny-narration-save"));
    session.wait_text(&format!("{item} .penny-narration"), "Bo misses the ferry and swims after it.");
    shots_of(&session, "penny-history", "#penny-history");

    // The Count will be back: marked recurring, he keeps his purse when the adventure ends.
    press(&session, ".penny-antagonist .penny-recurring");
    session.wait_until("the Count marked recurring", || {
        let on =
            session.execute("return document.querySelector('.penny-antagonist .penny-recurring').checked;", json!([]));
        (on == json!(true)).then_some(())
    });
    shots_of(&session, "penny-recurring", "#penny-antagonists");

    // The House ends the adventure: the loan is due and the next House's figure is shown.
    press(&session, "#penny-end-adventure");
    session.wait_for("#penny-between");
    // Passed around, the purse is the House's secret until the device is handed to her.
    session.wait_text(".penny-antagonist .penny-purse", "? pennies");
    crate::penny_secrets::show_house_secrets(&session);
    session.wait_text(".penny-antagonist .penny-purse", "12");
    assert_eq!(text_of(&session, "#penny-house-pile"), "0");
    assert_eq!(text_of(&session, "#penny-house-recurring"), "Recurring antagonists hold 12 pennies more.");
    let conn = db(&db_path);
    let recorded: i64 = conn
        .query_row("SELECT sum(max(pile, 0)) FROM pa_end_piles", [], |r| r.get(0))
        .expect("the piles recorded at the adventure's end");
    assert_eq!(recorded, 80, "Ada 30 − 2 + 6 lent + 4 won, Bo 25 − 2, Cy 25 − 6");
    session.wait_text("#penny-next-house", "80 pennies");
    assert_eq!(text_of(&session, "#penny-next-house-why"), "The players' piles when adventure 1 ended.");
    let due = format!("#penny-loans-due [data-loan-id='{loan}']");
    assert!(text_of(&session, &due).contains("Ada owes Cy 6 pennies"));
    assert!(text_of(&session, "#penny-between").contains("becomes a debt to its lender"));
    shots_of(&session, "penny-between", "#penny-between");

    // Ada pays one penny back; the rest is still due.
    press(&session, &format!("#penny-due-{loan}-repay-1"));
    session.wait_until("the loan to show 5 still owed", || {
        text_of(&session, &due).contains("owes Cy 5 pennies").then_some(())
    });
    session.wait_text(&format!("#penny-pile-{ada}"), "37");
    drop(session);

    // After a restart in dark mode, the House starts adventure 2: the unpaid 5 become a debt.
    let session = open_dark(&db_path);
    session.wait_for("#penny-screen");
    press(&session, "#penny-tab-table");
    session.wait_for("#penny-between");
    shots_of(&session, "penny-dark-between", "#penny-between");
    assert!(text_of(&session, "#penny-adventure").contains("Default: 80 pennies"), "the start form's default");
    // The shared screen shows the House's 80 with what its hidden purse holds, the Count's
    // 12: funding a hidden purse never shows (RULES.md §2.2 decision 2026-11-28).
    start_adventure(&session, "92");
    session.wait_gone("#penny-between");
    let loan_item = format!(".penny-loan[data-loan-id='{loan}']");
    assert!(
        text_of(&session, &loan_item).contains("5 pennies unpaid at the next adventure's start became a debt to Cy")
    );
    assert!(text_of(&session, "#penny-loans").contains("Ada owes Cy 5 pennies."));
    let (owed, in_debt): (i64, i64) = conn
        .query_row("SELECT (SELECT amount FROM pa_debts), (SELECT in_debt FROM pa_loans)", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("the debt and the loan");
    assert_eq!((owed, in_debt), (5, 5));
    shots_of(&session, "penny-dark-history", "#penny-history");
}

/// A table in adventure 1 with Ada (30 pennies) and Di (25), the Baron with 30 pennies in his
/// purse and the Count with 10. Returns (game, Ada, Di, the Baron, the Count).
fn baron_and_count(db_path: &std::path::Path) -> (Uuid, Uuid, Uuid, Uuid, Uuid) {
    let mut store = Store::open(db_path).expect("the database");
    let game = services::create_game(&mut store, GAME, "penny_ante").unwrap().game.id;
    let ada = penny_player(&mut store, game, "Ada", "Strong", 30);
    let di = penny_player(&mut store, game, "Di", "Shy", 25);
    services::penny_start_adventure(&mut store, game, Some(60)).unwrap();
    let mut antagonist = |name: &str, purse: i64| {
        let made = services::penny_add_antagonist(&mut store, game, name, vec![]).unwrap();
        let id = made.view.antagonists.iter().find(|a| a.name == name).unwrap().id;
        services::penny_fund_antagonist(&mut store, game, id, purse).unwrap();
        id
    };
    let (baron, count) = (antagonist("The Baron", 30), antagonist("The Count", 10));
    (game, ada, di, baron, count)
}

/// `challenger` challenges the antagonist `baron` directly, ante `ante`.
/// Steps 1 and 2 of a challenge with no circumstance and no characteristic: each side rolls
/// its one die (the challenger `challenger`, the opponent `opponent`) and keeps it revealed.
fn one_die_each_revealed(challenger: u8, opponent: u8) -> Vec<(Move, Vec<u8>)> {
    let (a, b) = (Side::Challenger, Side::Opponent);
    vec![
        (Move::Pass { side: a }, vec![]),
        (Move::Pass { side: b }, vec![]),
        (Move::Characteristics { side: a, used: vec![] }, vec![]),
        (Move::Characteristics { side: b, used: vec![] }, vec![]),
        (Move::Roll { side: a }, vec![challenger]),
        (Move::Cup { side: a, cup: vec![] }, vec![]),
        (Move::Roll { side: b }, vec![opponent]),
        (Move::Cup { side: b, cup: vec![] }, vec![]),
    ]
}

/// Plays `moves` in the running challenge through the services, each with the dice entered
/// for it (none: rolled).
fn play_moves(store: &mut Store, game: Uuid, moves: Vec<(Move, Vec<u8>)>) {
    let mut rng = StdRng::seed_from_u64(7);
    for (mv, dice) in moves {
        let d = if dice.is_empty() { DiceInput::Rolled } else { DiceInput::Entered { values: dice } };
        services::penny_challenge_move(store, game, mv, &d, &mut rng).unwrap();
    }
}

fn challenge_the_baron(db_path: &std::path::Path, game: Uuid, challenger: Uuid, baron: Uuid, ante: i64) {
    let mut store = Store::open(db_path).expect("the database");
    let draft = services::ChallengeDraft {
        stake: "Cross the Baron's bridge".into(),
        ante,
        challenger: vec![Account::Character(challenger)],
        opponent: vec![Account::Antagonist(baron)],
        devoted: None,
    };
    services::penny_start_challenge(&mut store, game, draft).unwrap();
}

/// The House cannot top up the purse of an antagonist playing in the running challenge
/// (audit D-PA3, RULES §2.2 decision 2026-11-28): the Baron's funding buttons are disabled
/// and say why, while the Count, not in it, can still be funded; once the challenge is taken
/// back, the Baron can be funded again.
#[test]
fn the_house_cannot_fund_a_purse_in_the_running_challenge() {
    let (_window, _scratch, db_path) = begin("penny-campaign-funding");
    let (game, ada, _di, baron, count) = baron_and_count(&db_path);
    challenge_the_baron(&db_path, game, ada, baron, 2);
    let session = open(&db_path);
    to_the_table(&session);
    crate::penny_secrets::show_house_secrets(&session);
    let of = |who: Uuid| format!(".penny-antagonist[data-antagonist-id='{who}']");
    session.wait_for(&format!("{} .penny-no-funding", of(baron)));
    assert_eq!(
        text_of(&session, &format!("{} .penny-no-funding", of(baron))),
        "Not funded while The Baron plays in the challenge."
    );
    let disabled = |who: Uuid| -> Vec<bool> {
        let found = session.execute(
            "return [...document.querySelectorAll(arguments[0] + ' .penny-fund')].map((b) => b.disabled);",
            json!([of(who)]),
        );
        serde_json::from_value(found).expect("the funding buttons")
    };
    assert_eq!(disabled(baron), vec![true, true, true], "+1, +5, +10 for the Baron: none while he plays");
    // Each says why: the reason describes the button.
    let why = session.execute(
        "return [...document.querySelectorAll(arguments[0] + ' .penny-fund')].map((b) => \
           b.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '));",
        json!([of(baron)]),
    );
    let why: Vec<String> = serde_json::from_value(why).expect("the buttons' descriptions");
    assert!(
        why.iter()
            .all(|w| w.contains("The Baron") && w.ends_with("Not funded while The Baron plays in the challenge.")),
        "{why:?}"
    );
    assert_eq!(disabled(count), vec![false, false, false], "the Count is in no challenge: he can be funded");
    assert!(session.find(&format!("{} .penny-no-funding", of(count))).is_err(), "no reason shown for the Count");
    shots_of(&session, "penny-no-funding", &of(baron));
    // The challenge taken back (Undo in the log), the Baron can be funded again.
    press(&session, "#penny-tab-log");
    press(&session, "#penny-log-undo");
    press(&session, "#penny-tab-table");
    session.wait_for("#penny-history");
    if session.find("#penny-house-show").is_ok() {
        crate::penny_secrets::show_house_secrets(&session);
    }
    session.wait_gone(&format!("{} .penny-no-funding", of(baron)));
    assert_eq!(disabled(baron), vec![false, false, false], "no challenge runs: the Baron can be funded");
    press(&session, &format!("{} .penny-fund[data-amount='5']", of(baron)));
    session.wait_text(&format!("{} .penny-purse", of(baron)), "35");
}

/// A debt owed to an antagonist that leaves play is owed to the House (audit D-PA7): Di
/// loses all she has (25) to the Baron and goes into debt; when the House ends the adventure the
/// Baron (not recurring) leaves play, and the table's debts say Di owes the House, who is
/// paid back.
#[test]
fn a_debt_to_an_antagonist_who_leaves_play_is_owed_to_the_house() {
    let (_window, _scratch, db_path) = begin("penny-campaign-handover");
    let (game, _ada, di, baron, _count) = baron_and_count(&db_path);
    // An ante of 25: all Di has.
    challenge_the_baron(&db_path, game, di, baron, 25);
    {
        let mut store = Store::open(&db_path).expect("the database");
        let (a, b) = (Side::Challenger, Side::Opponent);
        let mut moves = one_die_each_revealed(1, 6);
        moves.extend([
            (Move::Stand { side: a }, vec![]),
            (Move::Stand { side: b }, vec![]),
            (Move::Pass { side: a }, vec![]),
            (Move::Pass { side: b }, vec![]),
            (Move::Stand { side: a }, vec![]),
            (Move::Stand { side: b }, vec![]),
            (Move::Debt, vec![]),
        ]);
        play_moves(&mut store, game, moves);
    }
    let session = open(&db_path);
    to_the_table(&session);
    session.wait_until("Di's debt to the Baron", || {
        text_of(&session, "#penny-loans").contains("Di owes The Baron 25 pennies.").then_some(())
    });
    shots_of(&session, "penny-debt-to-baron", "#penny-loans");

    // The House ends the adventure: the Baron leaves play, and what Di owes him she owes the House.
    press(&session, "#penny-end-adventure");
    session.wait_for("#penny-between");
    session.wait_until("Di's debt handed to the House", || {
        let loans = text_of(&session, "#penny-loans");
        (loans.contains("Di owes the House 25 pennies.") && !loans.contains("The Baron")).then_some(())
    });
    shots_of(&session, "penny-debt-to-house", "#penny-loans");
    // Di (given back what she lost, as a debt does) pays 5 of it back: to the House.
    press(&session, "#penny-loans .penny-debt [id$='-repay-5']");
    session.wait_until("5 of Di's debt paid back to the House", || {
        text_of(&session, "#penny-loans").contains("Di owes the House 20 pennies.").then_some(())
    });
    let conn = db(&db_path);
    let debts: i64 = conn.query_row("SELECT count(*) FROM pa_debts", [], |r| r.get(0)).expect("the debts");
    assert_eq!(debts, 1, "one debt, now the House's");
}
