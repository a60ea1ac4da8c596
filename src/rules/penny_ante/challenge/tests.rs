//! Every rule of RULES.md §2.3–2.4 that the challenge implements, and a property test over
//! random challenges.

use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

use super::*;
use crate::rules::dice::{Entered, Rolled};
use crate::rules::penny_ante::table::Adventure;
use crate::rules::test_support::{ch, id};

const POT: u128 = 500;
const ANT: u128 = 9;
const A: Side = Side::Challenger;
const B: Side = Side::Opponent;

/// Ada (1) 30, Bo (2) 25, Cy (3) 20, Di (4) 3; the House funded with the players' piles, an
/// antagonist (9) with 10 in its purse; an adventure running.
fn table() -> (PennyTable, Roster) {
    let mut t = PennyTable::default();
    for (n, pennies) in [(1, 30), (2, 25), (3, 20), (4, 25)] {
        t = t.starting_pennies(id(n), pennies, 20).unwrap().0;
    }
    // Di lends most of hers away so that she holds 3.
    t.ledger =
        t.ledger.record(Entry { from: ch(4), to: ch(3), amount: 22, reason: Reason::Loan, challenge: None }).unwrap().0;
    let characteristic = |text: &str| Characteristic { text: text.into(), hidden: false };
    t = t
        .add_antagonist(
            id(ANT),
            "Baron",
            &[characteristic("Cruel"), Characteristic { text: "Rich".into(), hidden: true }],
        )
        .unwrap()
        .0;
    t = t.start_adventure(&[id(1), id(2), id(3), id(4)], Some(100)).unwrap().0;
    t = t.fund_antagonist(id(ANT), 10, None).unwrap().0;
    let roster: Roster = [
        (id(1), vec!["Strong".to_string(), "Quick".to_string(), "Lucky".to_string()]),
        (id(2), vec!["Clever".to_string()]),
        (id(3), vec!["Brave".to_string()]),
        (id(4), vec!["Shy".to_string()]),
    ]
    .into_iter()
    .collect();
    (t, roster)
}

fn setup(challenger: Vec<Account>, opponent: Vec<Account>, ante: u64) -> Setup {
    Setup { id: id(POT), stake: "the bridge".into(), ante, challenger, opponent, devoted: None }
}

fn pile(t: &PennyTable, a: Account) -> i64 {
    t.pile(&a)
}

fn pot(t: &PennyTable) -> i64 {
    t.pile(&Account::Pot(id(POT)))
}

fn c(t: &PennyTable) -> &Challenge {
    t.challenge.as_ref().unwrap()
}

/// Plays `mv` with typed-in `dice`, which must all be used.
fn go(t: &PennyTable, r: &Roster, mv: Move, dice: &[u8]) -> PennyTable {
    let mut d = Entered::new(dice.iter().copied());
    let out = play(t, r, &mv, &mut d).unwrap_or_else(|e| panic!("{mv:?}: {e}")).0;
    assert_eq!(d.remaining(), 0, "{mv:?} left dice unused");
    out
}

/// The reason a refused move gives; the table is untouched (play takes it by reference).
fn refused(t: &PennyTable, r: &Roster, mv: Move) -> String {
    let mut d = Entered::new([3, 3, 3, 3, 3, 3]);
    play(t, r, &mv, &mut d).unwrap_err().to_string()
}

/// The characteristics `texts` of `owner`, as a side declares them.
fn uses(owner: Account, texts: &[&str]) -> Vec<Used> {
    texts.iter().map(|&text| Used { owner, text: text.into() }).collect()
}

/// Both sides pass: no circumstance in step 1, or none in step 4.
fn both_pass(t: &PennyTable, r: &Roster) -> PennyTable {
    let t = go(t, r, Move::Pass { side: A }, &[]);
    go(&t, r, Move::Pass { side: B }, &[])
}

/// Step 2: the challenger declares `used`, the opponent none.
fn declare(t: &PennyTable, r: &Roster, used: Vec<Used>) -> PennyTable {
    let t = go(t, r, Move::Characteristics { side: A, used }, &[]);
    go(&t, r, Move::Characteristics { side: B, used: vec![] }, &[])
}

/// Step 3: both roll the `dice` given, then choose their `cups`, the challenger first.
fn roll_and_cup(t: &PennyTable, r: &Roster, dice: [&[u8]; 2], cups: [Vec<usize>; 2]) -> PennyTable {
    let [challenger, opponent] = cups;
    let t = go(t, r, Move::Roll { side: A }, dice[0]);
    let t = go(&t, r, Move::Roll { side: B }, dice[1]);
    let t = go(&t, r, Move::Cup { side: A, cup: challenger }, &[]);
    go(&t, r, Move::Cup { side: B, cup: opponent }, &[])
}

/// Ada challenges the House, ante 2: no circumstances, Ada uses Strong and Quick (3 dice),
/// the House none (1 die); dice rolled as given; Ada keeps all, the House keeps all.
fn to_betting(ada: &[u8], house: &[u8]) -> (PennyTable, Roster) {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![Account::House], 2)).unwrap().0;
    let t = both_pass(&t, &r);
    let used = uses(ch(1), &["Strong", "Quick"]);
    let t = declare(&t, &r, used);
    let t = roll_and_cup(&t, &r, [ada, house], [vec![], vec![]]);
    assert_eq!(c(&t).phase, Phase::Betting1);
    (t, r)
}

/// Both stand in a round.
fn both_stand(t: &PennyTable, r: &Roster) -> PennyTable {
    let t = go(t, r, Move::Stand { side: A }, &[]);
    go(&t, r, Move::Stand { side: B }, &[])
}

/// From betting round 1 with both standing: passes in step 4 and on to the showdown.
fn to_showdown(t: &PennyTable, r: &Roster) -> PennyTable {
    let t = both_stand(t, r);
    let t = both_pass(&t, r);
    assert_eq!(c(&t).phase, Phase::Betting2, "empty cups skip the reroll");
    both_stand(&t, r)
}

#[test]
fn the_ante_is_taken_from_every_member_and_allies_buy_in() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1), ch(2)], vec![Account::House], 3)).unwrap().0;
    assert_eq!((pile(&t, ch(1)), pile(&t, ch(2)), pile(&t, Account::House)), (27, 22, 87));
    assert_eq!(pot(&t), 9);
    assert_eq!((c(&t).side(A).wager, c(&t).side(B).wager), (6, 3));
    assert_eq!(c(&t).phase, Phase::Circumstances);
}

#[test]
fn a_challenge_needs_an_adventure_sides_and_an_ante_the_challenger_can_pay() {
    let (t, r) = table();
    let no_adventure = PennyTable { adventure: Adventure { number: 1, running: false }, ..t.clone() };
    let err = |t: &PennyTable, s: Setup| start(t, &r, s).unwrap_err().to_string();
    assert_eq!(err(&no_adventure, setup(vec![ch(1)], vec![ch(2)], 1)), "challenge: start an adventure first");
    assert_eq!(err(&t, setup(vec![ch(1)], vec![ch(2)], 0)), "ante: must be at least 1");
    assert_eq!(err(&t, setup(vec![], vec![ch(2)], 1)), "challenger: names no one");
    assert_eq!(err(&t, setup(vec![ch(1)], vec![ch(1)], 1)), "challenger: appears more than once in the challenge");
    assert_eq!(
        err(&t, setup(vec![ch(1), Account::House], vec![ch(2)], 1)),
        "challenger[1]: allies are player characters"
    );
    assert_eq!(err(&t, setup(vec![ch(7)], vec![ch(2)], 1)), "challenger: is not a character of this game");
    assert_eq!(
        err(&t, setup(vec![ch(4)], vec![ch(2)], 5)),
        "challenger: a member holds 3 pennies and cannot pay the ante of 5"
    );
    assert_eq!(
        err(&t, setup(vec![ch(4), ch(2)], vec![ch(3)], 15)),
        "challenger: the side holds 28 pennies and cannot pay the ante of 30"
    );
    let running = start(&t, &r, setup(vec![ch(1)], vec![ch(2)], 1)).unwrap().0;
    assert!(err(&running, setup(vec![ch(3)], vec![ch(2)], 1)).contains("still running"));
}

#[test]
fn an_opponent_who_cannot_pay_the_ante_goes_all_in_and_the_dice_decide_after_step_4() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(4)], 5)).unwrap().0;
    // Di (3 pennies) pays nothing yet: she chooses to go all in.
    assert_eq!((ante_owed(c(&t), B), pile(&t, ch(4)), pot(&t)), (Some(5), 3, 5));
    let t = go(&t, &r, Move::AllIn { side: B }, &[]);
    assert!(c(&t).side(B).all_in);
    assert_eq!((pile(&t, ch(4)), pot(&t)), (0, 8));
    let t = both_pass(&t, &r);
    let t = declare(&t, &r, vec![]);
    let t = roll_and_cup(&t, &r, [&[6], &[2]], [vec![], vec![0]]);
    // The challenger may only call or fold.
    assert_eq!(c(&t).turn, Some(A));
    assert_eq!(refused(&t, &r, Move::Raise { side: A, by: 5 }), "move: the opponent is all in: call or fold");
    assert_eq!(refused(&t, &r, Move::Stand { side: A }), "move: the opponent is all in: call or fold");
    let t = go(&t, &r, Move::Call { side: A }, &[]);
    assert_eq!(c(&t).phase, Phase::NewCircumstances);
    let t = both_pass(&t, &r);
    // The opponent rerolls its cup, then the dice are evaluated at once: no round 2.
    assert_eq!(c(&t).phase, Phase::Reroll);
    let t = go(&t, &r, Move::Reroll { side: B }, &[1]);
    let o = c(&t).outcome.clone().unwrap();
    assert_eq!(o.winner, Some(A));
    // Ada's unmatched excess (5 − 3) came back; she won Di's 3.
    assert_eq!(pile(&t, ch(1)), 33);
    assert_eq!(pot(&t), 0);
    // Di is left with nothing: debt or buyout.
    assert_eq!(c(&t).phase, Phase::AfterLoss);
}

/// Audit #13: a short opponent is not forced all in; folding before anything is at stake
/// gives the challenger its ante back and costs the folder nothing.
#[test]
fn an_opponent_who_cannot_pay_the_ante_may_fold_before_anything_is_at_stake() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(4)], 5)).unwrap().0;
    let owes = "move: the opponent cannot pay its ante of 5: it goes all in or folds first";
    assert_eq!(refused(&t, &r, Move::Pass { side: B }), owes);
    assert_eq!(refused(&t, &r, Move::Circumstance { side: B, name: "Fog".into(), double_down: false }), owes);
    // The challenger may name its circumstance meanwhile.
    let t = go(&t, &r, Move::Pass { side: A }, &[]);
    let mut d = Entered::new([]);
    let (t, events) = play(&t, &r, &Move::Fold { side: B }, &mut d).unwrap();
    assert!(matches!(events.last(), Some(ChallengeEvent::FoldedAtAnte { side: B, .. })), "{events:?}");
    assert_eq!((pile(&t, ch(1)), pile(&t, ch(4)), pot(&t)), (30, 3, 0));
    let o = c(&t).outcome.clone().unwrap();
    assert_eq!((o.winner, o.folded, o.narrator, c(&t).phase), (Some(A), Some(B), Some(B), Phase::Over));
    assert!(t.ledger.problems("$").is_empty());
}

/// Audit #12: each member pays the ante as far as it can and the allies cover the rest; the
/// side is short only when all of it together cannot pay.
#[test]
fn an_alliance_whose_leader_cannot_pay_the_ante_pays_it_from_the_pool() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(4), ch(2)], 5)).unwrap().0;
    assert_eq!((pile(&t, ch(4)), pile(&t, ch(2)), pot(&t)), (0, 18, 15));
    let s = c(&t).side(B);
    assert_eq!((s.wager, s.all_in, ante_owed(c(&t), B)), (10, false, None));
    // Nobody is all in: Bo still has pennies and the side bets on with them.
    let t = both_pass(&t, &r);
    let t = declare(&t, &r, vec![]);
    let t = go(&t, &r, Move::Roll { side: A }, &[2]);
    let t = go(&t, &r, Move::Roll { side: B }, &[5]);
    let t = go(&t, &r, Move::Cup { side: B, cup: vec![] }, &[]);
    let t = go(&t, &r, Move::Cup { side: A, cup: vec![] }, &[]);
    let t = go(&t, &r, Move::Call { side: A }, &[]);
    let t = go(&t, &r, Move::Raise { side: B, by: 5 }, &[]);
    assert_eq!((pile(&t, ch(2)), c(&t).side(B).wager), (13, 15));
}

/// A whole alliance short of its antes goes all in with everything; the challenger matches
/// what it can and the larger side's excess comes back at the showdown.
#[test]
fn an_alliance_short_of_its_antes_goes_all_in_and_its_excess_returns() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(4), ch(2)], 15)).unwrap().0;
    assert_eq!(ante_owed(c(&t), B), Some(30));
    let t = go(&t, &r, Move::AllIn { side: B }, &[]);
    assert_eq!((c(&t).side(B).wager, c(&t).side(B).all_in, pile(&t, ch(2))), (28, true, 0));
    let t = both_pass(&t, &r);
    let t = declare(&t, &r, vec![]);
    let t = roll_and_cup(&t, &r, [&[6], &[1]], [vec![], vec![]]);
    // Ada (15 left after her ante) calls the 13 she owes.
    assert_eq!(c(&t).turn, Some(A));
    let t = go(&t, &r, Move::Call { side: A }, &[]);
    assert_eq!((c(&t).side(A).wager, pile(&t, ch(1))), (28, 2));
    let t = both_pass(&t, &r);
    assert_eq!(c(&t).outcome.as_ref().and_then(|o| o.winner), Some(A));
    assert_eq!((pile(&t, ch(1)), pot(&t)), (58, 0));
    assert!(t.ledger.problems("$").is_empty());
}

/// Audit #16: only the House issues an anonymous challenge.
#[test]
fn only_a_challenge_the_house_issues_is_anonymous() {
    let (t, r) = table();
    let mut s = setup(vec![ch(1)], vec![Account::Antagonist(id(ANT))], 2);
    s.devoted = Some(4);
    assert_eq!(
        start(&t, &r, s).unwrap_err().to_string(),
        "devoted: only the House issues an anonymous challenge: its antagonist challenges"
    );
}

#[test]
fn circumstance_dice_sit_in_the_middle_and_doubling_down_waits_for_step_4() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(2)], 1)).unwrap().0;
    assert_eq!(c(&t).devoted_shown(), None, "nothing is devoted between two characters");
    assert!(refused(&t, &r, Move::Circumstance { side: A, name: "Rain".into(), double_down: true })
        .starts_with("double_down: a side doubles down only on a new circumstance"));
    let t = go(&t, &r, Move::Circumstance { side: A, name: "Rain".into(), double_down: false }, &[4]);
    assert_eq!(c(&t).circumstances, vec![Circumstance { name: "Rain".into(), by: A, die: 4, barred: None }]);
    assert_eq!(refused(&t, &r, Move::Pass { side: A }), "move: the challenger is done with this step");
    let t = go(&t, &r, Move::Pass { side: B }, &[]);
    assert_eq!(c(&t).phase, Phase::Characteristics);
}

#[test]
fn characteristics_are_declared_challenger_first_up_to_five_and_each_adds_a_die() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(2)], 1)).unwrap().0;
    let t = both_pass(&t, &r);
    assert_eq!(refused(&t, &r, Move::Characteristics { side: B, used: vec![] }), "move: it is the challenger's turn");
    let six = (0..6).map(|i| Used { owner: ch(1), text: format!("c{i}") }).collect();
    assert!(refused(&t, &r, Move::Characteristics { side: A, used: six }).starts_with("used: a side uses at most 5"));
    let foreign = uses(ch(2), &["Clever"]);
    assert_eq!(
        refused(&t, &r, Move::Characteristics { side: A, used: foreign }),
        "used[0]: belongs to someone who is not on this side"
    );
    let unknown = uses(ch(1), &["Clever"]);
    assert_eq!(
        refused(&t, &r, Move::Characteristics { side: A, used: unknown }),
        "used[0]: “Clever” is not one of its characteristics"
    );
    let used = uses(ch(1), &["Strong", "Lucky"]);
    let t = declare(&t, &r, used);
    // Three dice for Ada, one for Bo.
    let t = go(&t, &r, Move::Roll { side: A }, &[1, 2, 3]);
    assert_eq!(refused(&t, &r, Move::Roll { side: A }), "move: the challenger has rolled already");
    let t = go(&t, &r, Move::Roll { side: B }, &[6]);
    assert_eq!(c(&t).side(A).dice, vec![1, 2, 3]);
}

#[test]
fn the_cup_hides_the_dice_to_reroll_and_the_rest_are_revealed() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(2)], 1)).unwrap().0;
    let t = both_pass(&t, &r);
    let used = uses(ch(1), &["Strong", "Lucky"]);
    let t = declare(&t, &r, used);
    assert_eq!(refused(&t, &r, Move::Cup { side: A, cup: vec![] }), "move: the challenger rolls first");
    let t = go(&t, &r, Move::Roll { side: A }, &[5, 1, 6]);
    assert_eq!(refused(&t, &r, Move::Cup { side: A, cup: vec![3] }), "cup: there is no die 4 (the side has 3)");
    assert_eq!(refused(&t, &r, Move::Cup { side: A, cup: vec![1, 1] }), "cup: names a die twice");
    let t = go(&t, &r, Move::Cup { side: A, cup: vec![1] }, &[]);
    // The reveal is simultaneous: Ada's cup is chosen, but nothing shows while Bo chooses his.
    assert_eq!(c(&t).side(A).kept_out(), vec![5, 6]);
    assert_eq!((c(&t).revealed(A), c(&t).revealed(B)), (vec![], vec![]));
    let t = go(&t, &r, Move::Roll { side: B }, &[4]);
    let mut d = Entered::new([]);
    let (t, events) = play(&t, &r, &Move::Cup { side: B, cup: vec![] }, &mut d).unwrap();
    assert_eq!((c(&t).revealed(A), c(&t).revealed(B)), (vec![5, 6], vec![4]));
    assert!(events.contains(&ChallengeEvent::CupsRevealed { revealed: [vec![5, 6], vec![4]] }), "{events:?}");
}

#[test]
fn betting_stand_raise_call_and_the_round_ends_when_wagers_are_equal_and_both_acted() {
    let (t, r) = to_betting(&[6, 6, 6], &[1]);
    assert_eq!(refused(&t, &r, Move::Stand { side: B }), "move: it is the challenger's turn");
    assert_eq!(refused(&t, &r, Move::Raise { side: A, by: 1 }), "by: a raise is at least the ante, 2");
    assert_eq!(refused(&t, &r, Move::Call { side: A }), "move: the wagers are equal: stand or raise");
    assert_eq!(
        refused(&t, &r, Move::AllIn { side: A }),
        "move: the wagers are equal: stand or raise; all in is for a wager the side cannot match"
    );
    let t = go(&t, &r, Move::Raise { side: A, by: 3 }, &[]);
    assert_eq!((c(&t).side(A).wager, pile(&t, ch(1))), (5, 25));
    assert_eq!(refused(&t, &r, Move::Stand { side: B }), "move: stand only with equal wagers: call 3, raise or fold");
    // A raise is on top of the call: the House pays 3 + 4.
    let t = go(&t, &r, Move::Raise { side: B, by: 4 }, &[]);
    assert_eq!(c(&t).side(B).wager, 9);
    let t = go(&t, &r, Move::Call { side: A }, &[]);
    assert_eq!((c(&t).side(A).wager, pot(&t)), (9, 18));
    assert_eq!(c(&t).phase, Phase::NewCircumstances, "equal wagers, both acted since the raise");
}

#[test]
fn a_fold_ends_the_challenge_and_the_victor_takes_the_pot() {
    let (t, r) = to_betting(&[1, 1, 2], &[6]);
    let t = go(&t, &r, Move::Raise { side: A, by: 2 }, &[]);
    let t = go(&t, &r, Move::Fold { side: B }, &[]);
    let o = c(&t).outcome.clone().unwrap();
    assert_eq!((o.winner, o.folded, o.narrator, o.pot), (Some(A), Some(B), Some(B), 6));
    assert_eq!((pile(&t, ch(1)), pile(&t, Account::House), pot(&t)), (32, 88, 0));
    assert_eq!(c(&t).phase, Phase::Over);
    assert!(refused(&t, &r, Move::Stand { side: A }).contains("no challenge is running"));
}

#[test]
fn all_in_is_for_a_wager_the_side_cannot_match_and_the_excess_returns() {
    let (t, r) = table();
    // Bo (25) against Ada (30), ante 1; Ada raises beyond Bo's pile.
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(2)], 1)).unwrap().0;
    let t = both_pass(&t, &r);
    let t = declare(&t, &r, vec![]);
    let t = roll_and_cup(&t, &r, [&[2], &[5]], [vec![], vec![]]);
    let t = go(&t, &r, Move::Stand { side: A }, &[]);
    assert_eq!(
        refused(&t, &r, Move::AllIn { side: B }),
        "move: the wagers are equal: stand or raise; all in is for a wager the side cannot match"
    );
    let t = go(&t, &r, Move::Stand { side: B }, &[]);
    let t = both_pass(&t, &r);
    let t = go(&t, &r, Move::Raise { side: A, by: 28 }, &[]);
    assert_eq!(refused(&t, &r, Move::Call { side: B }), "move: calling costs 28; the side has 24: go all in or fold");
    let t = go(&t, &r, Move::AllIn { side: B }, &[]);
    assert_eq!((c(&t).side(B).wager, pile(&t, ch(2))), (25, 0));
    let t = go(&t, &r, Move::Call { side: A }, &[]);
    // Bo's 5 beats Ada's 2; Ada's excess of 4 came back first.
    let o = c(&t).outcome.clone().unwrap();
    assert_eq!(o.winner, Some(B));
    assert_eq!((pile(&t, ch(1)), pile(&t, ch(2)), pot(&t)), (5, 50, 0));
}

#[test]
fn doubling_down_pays_the_wager_again_bars_the_opponent_and_need_not_be_matched() {
    let (t, r) = to_betting(&[3, 4, 5], &[6]);
    let t = both_stand(&t, &r);
    let t = go(&t, &r, Move::Circumstance { side: A, name: "High ground".into(), double_down: true }, &[6]);
    assert_eq!((c(&t).side(A).doubled, c(&t).side(A).wager, pot(&t)), (2, 2, 6));
    assert_eq!(c(&t).circumstances[0].barred, Some(B));
    let t = go(&t, &r, Move::Circumstance { side: B, name: "Fog".into(), double_down: false }, &[2]);
    // The doubled stake is not part of the wager to match: the House may stand.
    let t = go(&t, &r, Move::Stand { side: A }, &[]);
    let t = go(&t, &r, Move::Stand { side: B }, &[]);
    // Ada: 3 4 5 + 6 + 2 → large straight 2-6, 40; the House: 6 + 2 (the 6 is barred) → 8.
    let o = c(&t).outcome.clone().unwrap();
    assert_eq!(o.winner, Some(A));
    let hands = o.hands.unwrap();
    assert_eq!((hands[0].score, hands[0].category), (40, crate::rules::penny_ante::Category::LargeStraight));
    assert_eq!(hands[1].score, 8);
    assert_eq!(o.pot, 6);
    assert_eq!(pile(&t, ch(1)), 32);
}

#[test]
fn the_showdown_takes_the_best_five_and_a_tie_returns_each_wager() {
    let (t, r) = to_betting(&[2, 2, 2], &[6]);
    let t = go(&t, &r, Move::Raise { side: A, by: 2 }, &[]);
    let t = go(&t, &r, Move::Call { side: B }, &[]);
    let t = both_pass(&t, &r);
    let t = both_stand(&t, &r);
    // 2+2+2 = 6 against 6: a tie.
    let o = c(&t).outcome.clone().unwrap();
    assert_eq!(o.winner, None);
    assert_eq!((pile(&t, ch(1)), pile(&t, Account::House), pot(&t)), (30, 90, 0));
}

#[test]
fn rerolls_change_only_the_dice_in_the_cup() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(2)], 1)).unwrap().0;
    let t = both_pass(&t, &r);
    let used = uses(ch(1), &["Strong"]);
    let t = declare(&t, &r, used);
    let t = roll_and_cup(&t, &r, [&[1, 6], &[3]], [vec![0], vec![]]);
    let t = both_stand(&t, &r);
    let t = both_pass(&t, &r);
    assert_eq!(c(&t).phase, Phase::Reroll);
    assert_eq!(refused(&t, &r, Move::Reroll { side: B }), "move: the opponent is done with this step");
    let t = go(&t, &r, Move::Reroll { side: A }, &[4]);
    assert_eq!(c(&t).side(A).dice, vec![4, 6]);
    assert_eq!(c(&t).phase, Phase::Betting2);
}

#[test]
fn outsiders_lend_once_per_betting_phase_and_the_side_answers_first() {
    let (t, r) = to_betting(&[6, 6, 6], &[1]);
    let offer = |lender: u128, amount: u64| Move::OfferLoan {
        id: id(700 + 10 * lender + u128::from(amount)),
        lender: ch(lender),
        side: A,
        amount,
        borrower: None,
    };
    assert_eq!(refused(&t, &r, offer(1, 3)), "lender: is in the challenge; only players outside it lend");
    assert_eq!(refused(&t, &r, offer(2, 26)), "amount: must be 1 to 25, what the lender holds");
    let t = go(&t, &r, offer(2, 5), &[]);
    assert_eq!(refused(&t, &r, Move::Stand { side: A }), "move: the challenger first answers the loan of 5 pennies");
    let t = go(&t, &r, Move::AnswerLoan { accept: true }, &[]);
    assert_eq!((pile(&t, ch(1)), pile(&t, ch(2))), (33, 20));
    assert_eq!(t.loans.len(), 1);
    assert_eq!((t.loans[0].lender, t.loans[0].borrower, t.loans[0].amount), (ch(2), ch(1), 5));
    assert_eq!(refused(&t, &r, offer(2, 1)), "lender: has offered a loan in this betting round already");
    let t = go(&t, &r, offer(3, 2), &[]);
    let t = go(&t, &r, Move::AnswerLoan { accept: false }, &[]);
    assert_eq!((pile(&t, ch(3)), t.loans.len()), (42, 1));
    // A new betting phase opens lending again.
    let t = both_stand(&t, &r);
    let t = both_pass(&t, &r);
    let t = go(&t, &r, offer(2, 1), &[]);
    assert_eq!(c(&t).offer.as_ref().map(|o| o.amount), Some(1));
}

#[test]
fn an_anonymous_antagonist_cannot_go_all_in_and_must_fold_past_its_devoted_pennies() {
    let (t, r) = table();
    let mut s = setup(vec![Account::Antagonist(id(ANT))], vec![ch(1)], 2);
    s.devoted = Some(11);
    assert_eq!(start(&t, &r, s.clone()).unwrap_err().to_string(), "devoted: the antagonist's purse holds 10 pennies");
    s.devoted = Some(4);
    let t = start(&t, &r, s).unwrap().0;
    assert_eq!(c(&t).devoted_shown(), Some(2), "the players are told the ante, not the 4 devoted");
    let t = both_pass(&t, &r);
    // The House names a characteristic it had not written down: it is set in stone.
    let used = uses(Account::Antagonist(id(ANT)), &["Commands ninjas"]);
    let t = go(&t, &r, Move::Characteristics { side: A, used }, &[]);
    assert!(t.antagonist(id(ANT)).unwrap().characteristics.iter().any(|x| x.text == "Commands ninjas"));
    let t = go(&t, &r, Move::Characteristics { side: B, used: vec![] }, &[]);
    let t = roll_and_cup(&t, &r, [&[3, 3], &[2]], [vec![], vec![]]);
    let t = go(&t, &r, Move::Stand { side: A }, &[]);
    let t = go(&t, &r, Move::Raise { side: B, by: 5 }, &[]);
    assert_eq!(
        refused(&t, &r, Move::Call { side: A }),
        "move: calling costs 5; the side has 2: the antagonist must fold"
    );
    assert_eq!(refused(&t, &r, Move::AllIn { side: A }), "move: the House cannot go all in in an anonymous challenge");
    let t = go(&t, &r, Move::Fold { side: A }, &[]);
    assert_eq!(pile(&t, Account::Antagonist(id(ANT))), 8);
    assert_eq!(pile(&t, ch(1)), 32);
}

#[test]
fn alliances_pool_their_wagers_and_split_a_win_evenly_the_remainder_to_the_smallest_piles() {
    let (t, r) = table();
    // Ada (30) and Cy (42) against the House, ante 1.
    let t = start(&t, &r, setup(vec![ch(1), ch(3)], vec![Account::House], 1)).unwrap().0;
    let t = both_pass(&t, &r);
    let t = declare(&t, &r, uses(ch(3), &["Brave"]));
    let t = roll_and_cup(&t, &r, [&[6, 6], &[1]], [vec![], vec![]]);
    // The alliance raises by 1 from Cy, who holds most; the House calls.
    let t = go(&t, &r, Move::Raise { side: A, by: 1 }, &[]);
    assert_eq!((pile(&t, ch(1)), pile(&t, ch(3))), (29, 40));
    let t = go(&t, &r, Move::Call { side: B }, &[]);
    assert_eq!(pile(&t, Account::House), 87);
    let t = go(&t, &r, Move::Pass { side: A }, &[]);
    // The House doubles down on its circumstance: 3 more, and an odd pot of 9.
    let t = go(&t, &r, Move::Circumstance { side: B, name: "Guards".into(), double_down: true }, &[1]);
    let t = both_stand(&t, &r);
    // 6 + 6 against 1 + 1: the alliance wins 9, 4 each and the odd penny to Ada (the smaller pile).
    assert_eq!(c(&t).outcome.as_ref().unwrap().pot, 9);
    assert_eq!((pile(&t, ch(1)), pile(&t, ch(3))), (34, 44));
}

/// Di (3) challenges Bo with everything she has and loses.
fn di_broke() -> (PennyTable, Roster) {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(4)], vec![ch(2)], 3)).unwrap().0;
    let t = both_pass(&t, &r);
    let used = uses(ch(4), &["Shy"]);
    let t = declare(&t, &r, used);
    let t = roll_and_cup(&t, &r, [&[1, 1], &[6]], [vec![], vec![]]);
    let t = to_showdown(&t, &r);
    assert_eq!(c(&t).phase, Phase::AfterLoss);
    (t, r)
}

#[test]
fn a_loser_left_with_nothing_may_go_into_debt_and_the_winner_narrates() {
    let (t, r) = di_broke();
    assert_eq!((pile(&t, ch(4)), pile(&t, ch(2))), (0, 28));
    let t = go(&t, &r, Move::Debt, &[]);
    assert_eq!((pile(&t, ch(4)), pile(&t, ch(2))), (3, 25));
    assert_eq!(t.ledger.owed(&ch(4), &ch(2)), 3);
    let o = c(&t).outcome.clone().unwrap();
    assert_eq!(o.narrator, Some(B));
    assert_eq!(c(&t).phase, Phase::Over);
}

#[test]
fn the_house_always_offers_a_penny_and_the_highest_bid_buys_a_used_characteristic() {
    let (t, r) = di_broke();
    assert_eq!(c(&t).bids, vec![Bid { bidder: Account::House, amount: 1 }]);
    assert_eq!(refused(&t, &r, Move::Bid { bidder: ch(4), amount: 1 }), "bidder: is among the losers");
    assert_eq!(
        refused(&t, &r, Move::Bid { bidder: ch(1), amount: 31 }),
        "amount: must be 1 to 30, what the bidder holds"
    );
    let t = go(&t, &r, Move::Bid { bidder: ch(1), amount: 4 }, &[]);
    let t = go(&t, &r, Move::Bid { bidder: ch(3), amount: 2 }, &[]);
    let wrong = uses(ch(4), &["Brave"]);
    assert_eq!(
        refused(&t, &r, Move::AcceptBuyout { losses: wrong }),
        "losses[0]: “Brave” is not one it used in the challenge"
    );
    let t = go(&t, &r, Move::AcceptBuyout { losses: uses(ch(4), &["Shy"]) }, &[]);
    assert_eq!((pile(&t, ch(4)), pile(&t, ch(1))), (4, 26));
    assert_eq!(c(&t).phase, Phase::Over);
}

#[test]
fn odds_count_what_the_side_may_not_see_as_unknown() {
    let (t, _) = to_betting(&[6, 6, 6], &[2]);
    // Round 1: Ada sees her three 6s and the House's revealed 2; two circumstances to come.
    let o = c(&t).odds_for(A, None).unwrap();
    let expected = odds::showdown_odds(&Showdown {
        mine: Dice { known: vec![6, 6, 6], unknown: 0 },
        theirs: Dice { known: vec![2], unknown: 0 },
        circumstances: Dice { known: vec![], unknown: 2 },
    })
    .unwrap();
    assert_eq!(o, expected);
    // Putting two dice in the cup makes them unknown.
    let o = c(&t).odds_for(A, Some(&[0, 1])).unwrap();
    let expected = odds::showdown_odds(&Showdown {
        mine: Dice { known: vec![6], unknown: 2 },
        theirs: Dice { known: vec![2], unknown: 0 },
        circumstances: Dice { known: vec![], unknown: 2 },
    })
    .unwrap();
    assert_eq!(o, expected);
}

/// Audit #4: while a side ticks characteristics, its odds count the dice ticked so far and
/// the opponent's declared dice as unknown.
#[test]
fn odds_while_declaring_count_the_dice_ticked_so_far() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![ch(2)], 1)).unwrap().0;
    let t = both_pass(&t, &r);
    let expect = |mine: u8, theirs: u8| {
        odds::showdown_odds(&Showdown {
            mine: Dice { known: vec![], unknown: mine },
            theirs: Dice { known: vec![], unknown: theirs },
            circumstances: Dice { known: vec![], unknown: 2 },
        })
        .unwrap()
    };
    let wins: Vec<_> = (0..=5).map(|n| c(&t).odds_declaring(A, n).unwrap()).collect();
    assert_eq!(wins[0], expect(1, 1));
    assert_eq!(wins[5], expect(6, 1));
    assert!(wins.windows(2).all(|w| w[0].win < w[1].win), "each box ticked raises the odds");
    assert!(c(&t).odds_declaring(A, 6).is_err());
    // Ada declared two; Bo's odds count her three dice as unknown.
    let used = uses(ch(1), &["Strong", "Quick"]);
    let t = go(&t, &r, Move::Characteristics { side: A, used }, &[]);
    assert_eq!(c(&t).odds_declaring(B, 1).unwrap(), expect(2, 3));
    assert_eq!(
        c(&t).odds_declaring(A, 1).unwrap_err().to_string(),
        "declared: only while the side declares its characteristics"
    );
}

/// Audit #3: a side's odds do not use the other side's kept dice before both cups are chosen.
#[test]
fn odds_use_the_other_sides_dice_only_after_both_cups_are_chosen() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![Account::House], 2)).unwrap().0;
    let t = both_pass(&t, &r);
    let used = uses(ch(1), &["Strong", "Quick"]);
    let t = declare(&t, &r, used);
    let t = go(&t, &r, Move::Roll { side: A }, &[6, 6, 6]);
    let t = go(&t, &r, Move::Cup { side: A, cup: vec![] }, &[]);
    let t = go(&t, &r, Move::Roll { side: B }, &[2]);
    let blind = odds::showdown_odds(&Showdown {
        mine: Dice { known: vec![], unknown: 1 },
        theirs: Dice { known: vec![], unknown: 3 },
        circumstances: Dice { known: vec![], unknown: 2 },
    })
    .unwrap();
    assert_eq!(c(&t).odds_for(B, Some(&[0])).unwrap(), blind, "the House cannot use Ada's three 6s yet");
    let t = go(&t, &r, Move::Cup { side: B, cup: vec![0] }, &[]);
    let seen = odds::showdown_odds(&Showdown {
        mine: Dice { known: vec![], unknown: 1 },
        theirs: Dice { known: vec![6, 6, 6], unknown: 0 },
        circumstances: Dice { known: vec![], unknown: 2 },
    })
    .unwrap();
    assert_eq!(c(&t).odds_for(B, None).unwrap(), seen);
}

/// Issue 34: while a side chooses its cup, every choice of its own dice has the odds the
/// side would see with that cup, and the best is marked.
#[test]
fn cup_choices_give_each_cup_the_odds_the_side_would_see_with_it() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1)], vec![Account::House], 2)).unwrap().0;
    let t = both_pass(&t, &r);
    let t = declare(&t, &r, uses(ch(1), &["Strong", "Quick"]));
    assert!(c(&t).cup_choices(A).unwrap_err().to_string().starts_with("cup: "), "not before the roll");
    let t = go(&t, &r, Move::Roll { side: A }, &[6, 6, 3]);
    let choices = c(&t).cup_choices(A).unwrap();
    let faces: Vec<Vec<u8>> = choices.iter().map(|x| x.reroll.clone()).collect();
    assert_eq!(faces, [vec![], vec![3], vec![6], vec![3, 6], vec![6, 6], vec![3, 6, 6]]);
    // Die indices of those faces on the side's dice [6, 6, 3].
    let cups: [&[usize]; 6] = [&[], &[2], &[0], &[0, 2], &[0, 1], &[0, 1, 2]];
    for (choice, cup) in choices.iter().zip(cups) {
        assert_eq!(choice.odds, c(&t).odds_for(A, Some(cup)).unwrap(), "{:?}", choice.reroll);
    }
    let top = choices.iter().map(|x| x.odds.win).max().unwrap();
    assert!(choices.iter().all(|x| x.best == (x.odds.win == top)));
    let t = go(&t, &r, Move::Cup { side: A, cup: vec![2] }, &[]);
    assert!(c(&t).cup_choices(A).is_err(), "the cup is chosen");
}

#[test]
fn level_down_takes_from_the_largest_piles_first() {
    assert_eq!(level_down(&[10, 4], 8), vec![7, 1]);
    assert_eq!(level_down(&[5, 5], 3), vec![2, 1]);
    assert_eq!(level_down(&[0, 7, 2], 7), vec![0, 6, 1]);
    assert_eq!(level_down(&[3], 0), vec![0]);
}

// ---------------------------------------------------------------------------------------
// Random challenges

/// Moves that may be legal now, for the random player below.
fn candidates(t: &PennyTable, r: &Roster, rng: &mut StdRng) -> Vec<Move> {
    let Some(c) = t.running() else { return Vec::new() };
    let mut out = Vec::new();
    for side in Side::BOTH {
        let s = c.side(side);
        out.push(Move::Pass { side });
        out.push(Move::Circumstance { side, name: "Wind".into(), double_down: rng.random_bool(0.3) });
        let mut used = Vec::new();
        for a in s.accounts() {
            let own: Vec<String> = match a {
                Account::Character(id) => r.get(&id).cloned().unwrap_or_default(),
                Account::Antagonist(id) => t
                    .antagonist(id)
                    .map(|x| x.characteristics.iter().map(|c| c.text.clone()).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            for text in own {
                if rng.random_bool(0.5) && used.len() < MAX_CHARACTERISTICS {
                    used.push(Used { owner: a, text });
                }
            }
        }
        if let (Some(_), Account::Antagonist(_)) = (c.devoted, s.lead()) {
            if rng.random_bool(0.5) && used.len() < MAX_CHARACTERISTICS {
                used.push(Used { owner: s.lead(), text: "Commands ninjas".into() });
            }
        }
        out.push(Move::Characteristics { side, used });
        out.push(Move::Roll { side });
        let cup = (0..s.dice.len()).filter(|_| rng.random_bool(0.4)).collect();
        out.push(Move::Cup { side, cup });
        out.push(Move::Reroll { side });
        out.push(Move::Stand { side });
        out.push(Move::Call { side });
        out.push(Move::Raise { side, by: c.ante + rng.random_range(0..4) });
        out.push(Move::Raise { side, by: c.ante + rng.random_range(5..40) });
        out.push(Move::Fold { side });
        out.push(Move::AllIn { side });
    }
    for n in 1..=4 {
        out.push(Move::OfferLoan {
            id: Uuid::from_u128(rng.random()),
            lender: ch(n),
            side: Side::BOTH[rng.random_range(0..2)],
            amount: rng.random_range(1..6),
            borrower: rng.random_bool(0.5).then(|| ch(rng.random_range(1..=4))),
        });
        out.push(Move::Bid { bidder: ch(n), amount: rng.random_range(1..4) });
    }
    out.push(Move::AnswerLoan { accept: rng.random_bool(0.5) });
    out.push(Move::Debt);
    let loser = c.outcome.as_ref().and_then(|o| o.winner).map(Side::other);
    if let Some(l) = loser {
        let losses = c
            .side(l)
            .accounts()
            .map(|a| {
                let used = c.used_by(a);
                let text = used.first().cloned().or_else(|| match a {
                    Account::Character(id) => r.get(&id).and_then(|v| v.first().cloned()),
                    _ => None,
                });
                Used { owner: a, text: text.unwrap_or_default() }
            })
            .collect();
        out.push(Move::AcceptBuyout { losses });
    }
    out
}

fn table_total(t: &PennyTable) -> i64 {
    t.ledger.accounts().into_iter().filter(|a| a.on_table()).map(|a| t.pile(&a)).sum()
}

/// Plays one random challenge to its end, checking the invariants after every move, and
/// returns every event.
fn random_challenge(seed: u64, ante: u64, shape: usize) -> Result<Vec<ChallengeEvent>, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let (t, r) = table();
    let (challenger, opponent, devoted) = match shape {
        0 => (vec![ch(1)], vec![Account::House], None),
        1 => (vec![ch(1), ch(2)], vec![Account::House], None),
        2 => {
            (vec![Account::Antagonist(id(ANT))], vec![ch(3)], Some(ante + rng.random_range(0..5)).filter(|d| *d <= 10))
        }
        3 => (vec![ch(2)], vec![ch(4)], None),
        // An alliance led by Di, who cannot pay antes over 3; with the larger antes of shape
        // 6, the whole alliance is short.
        5 | 6 => (vec![ch(1)], vec![ch(4), ch(2)], None),
        _ => (vec![ch(4)], vec![ch(1), ch(3)], None),
    };
    let ante = if shape == 6 { ante * 4 } else { ante };
    let s = Setup { id: id(POT), stake: "s".into(), ante, challenger, opponent, devoted };
    let total = table_total(&t);
    let Ok((mut t, mut all)) = start(&t, &r, s) else { return Ok(Vec::new()) };
    for _ in 0..400 {
        let Some(c) = t.running() else { break };
        // The reveal is simultaneous: nothing shows while a cup is still to be chosen.
        prop_assert!(c.cups_revealed() || Side::BOTH.iter().all(|&s| c.revealed(s).is_empty()));
        let paid: u64 = c.sides.iter().flat_map(|s| &s.members).map(|m| m.paid).sum();
        let in_pot = if c.outcome.is_some() { 0 } else { i64::try_from(paid).unwrap() };
        prop_assert_eq!(pot(&t), in_pot);
        let moves = candidates(&t, &r, &mut rng);
        let mut order: Vec<usize> = rand::seq::index::sample(&mut rng, moves.len(), moves.len()).into_vec();
        // Folding is tried last, mostly: challenges should reach their showdowns.
        // (A short side's fold at the ante is its real choice: not put last.)
        if !rng.random_bool(0.05) {
            order.sort_by_key(|&i| matches!(moves[i], Move::Fold { side } if ante_owed(c, side).is_none()));
        }
        let mut played = false;
        for i in order {
            if let Ok((next, events)) = play(&t, &r, &moves[i], &mut Rolled(&mut rng)) {
                let cups_before = t.running().is_some_and(Challenge::cups_revealed);
                let reveals = events.iter().filter(|e| matches!(e, ChallengeEvent::CupsRevealed { .. })).count();
                let cups_now = next.challenge.as_ref().is_some_and(Challenge::cups_revealed);
                prop_assert_eq!(
                    reveals,
                    usize::from(!cups_before && cups_now),
                    "one reveal, when the second cup is chosen"
                );
                t = next;
                all.extend(events);
                played = true;
                break;
            }
        }
        prop_assert!(played, "no legal move in {:#?}", t.challenge);
        prop_assert_eq!(table_total(&t), total);
        for a in t.ledger.accounts() {
            if a.on_table() {
                prop_assert!(t.pile(&a) >= 0, "{:?} went below 0", a);
            }
        }
    }
    prop_assert!(t.running().is_none(), "the challenge ended");
    prop_assert_eq!(pot(&t), 0);
    prop_assert!(t.ledger.problems("$").is_empty());
    Ok(all)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever happens in a challenge, no penny is made or lost between table accounts, no
    /// pile goes below zero, the pot holds exactly what the sides paid in until it is paid
    /// out, and it is empty when the challenge is over.
    #[test]
    fn random_challenges_conserve_pennies(seed in any::<u64>(), ante in 1u64..6, shape in 0usize..7) {
        random_challenge(seed, ante, shape)?;
    }
}

/// The random player above reaches every way a challenge can go, so the property covers them.
#[test]
fn random_challenges_reach_every_ending() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..600u64 {
        for e in random_challenge(seed, 1 + seed % 5, (seed % 7) as usize).unwrap() {
            let name = serde_json::to_value(&e).unwrap()["event"].as_str().unwrap().to_owned();
            seen.insert(name);
        }
    }
    for wanted in [
        "all_in_at_ante",
        "folded_at_ante",
        "cups_revealed",
        "went_all_in",
        "excess_returned",
        "folded",
        "showdown",
        "won",
        "tied",
        "bankrupt",
        "bought_out",
        "went_into_debt",
        "loan_answered",
        "set_in_stone",
        "raised",
        "called",
    ] {
        assert!(seen.contains(wanted), "no random challenge reached {wanted}: {seen:?}");
    }
}

/// RULES §2.2 decision (2026-11-28), D-PA3: the House adds to a purse only when its
/// antagonist is in no running challenge; another antagonist's purse may still be funded,
/// and this one's again once the challenge is over.
#[test]
fn the_house_cannot_top_up_a_purse_whose_antagonist_is_in_the_running_challenge() {
    let (t, r) = table();
    let t = t.add_antagonist(id(8), "Thug", &[]).unwrap().0;
    let t = start(&t, &r, setup(vec![ch(1)], vec![Account::Antagonist(id(ANT))], 2)).unwrap().0;
    assert_eq!(
        t.fund_antagonist(id(ANT), 5, None).unwrap_err().to_string(),
        "antagonist: Baron plays in the running challenge; the House may add to its purse only when it is in none"
    );
    assert_eq!(pile(&t, Account::Antagonist(id(ANT))), 8, "the purse is as the ante left it");
    let funded = t.fund_antagonist(id(8), 5, None).unwrap().0;
    assert_eq!(pile(&funded, Account::Antagonist(id(8))), 5);
    let mut over = t.clone();
    over.challenge.as_mut().unwrap().phase = Phase::Over;
    assert_eq!(pile(&over.fund_antagonist(id(ANT), 5, None).unwrap().0, Account::Antagonist(id(ANT))), 13);
}

/// D-PA5: the loan goes to the ally the lender chooses, who owes it; someone not on the side
/// is refused and nothing changes.
#[test]
fn a_loan_goes_to_the_ally_the_lender_chooses() {
    let (t, r) = table();
    let t = start(&t, &r, setup(vec![ch(1), ch(2)], vec![Account::House], 2)).unwrap().0;
    let t = both_pass(&t, &r);
    let t = go(&t, &r, Move::Characteristics { side: A, used: vec![] }, &[]);
    let t = go(&t, &r, Move::Characteristics { side: B, used: vec![] }, &[]);
    let t = roll_and_cup(&t, &r, [&[6], &[1]], [vec![], vec![]]);
    let offer = |borrower: Account| Move::OfferLoan {
        id: id(800),
        lender: ch(3),
        side: A,
        amount: 4,
        borrower: Some(borrower),
    };
    assert_eq!(refused(&t, &r, offer(ch(4))), "borrower: is not a player character on the challenger");
    assert_eq!(refused(&t, &r, offer(Account::House)), "borrower: is not a player character on the challenger");
    let (ada, bo) = (pile(&t, ch(1)), pile(&t, ch(2)));
    let t = go(&t, &r, offer(ch(2)), &[]);
    let t = go(&t, &r, Move::AnswerLoan { accept: true }, &[]);
    assert_eq!((pile(&t, ch(1)), pile(&t, ch(2))), (ada, bo + 4), "Bo, not the lead Ada, gets the pennies");
    assert_eq!((t.loans[0].lender, t.loans[0].borrower, t.loans[0].amount), (ch(3), ch(2), 4));
}

/// RULES §2.2 decision (2026-11-28), D-PA4: an antagonist in a direct challenge is revealed
/// from then on; one in an anonymous challenge, or in none, stays hidden.
#[test]
fn an_antagonist_in_a_direct_challenge_is_revealed_and_an_anonymous_one_is_not() {
    let (t, r) = table();
    let revealed = |t: &PennyTable| t.antagonist(id(ANT)).unwrap().revealed;
    assert!(!revealed(&t));
    let mut s = setup(vec![Account::Antagonist(id(ANT))], vec![ch(1)], 2);
    s.devoted = Some(4);
    let anonymous = start(&t, &r, s).unwrap().0;
    assert!(!revealed(&anonymous), "an anonymous challenge keeps it hidden");
    let direct = start(&t, &r, setup(vec![ch(1)], vec![Account::Antagonist(id(ANT))], 2)).unwrap().0;
    assert!(revealed(&direct), "a direct challenge reveals it");
}

/// D-PA6 (002:35): a borrower repays a loan "through a loan of his own": lending to his
/// lender pays the old loan back first; only the rest is a new loan.
#[test]
fn a_loan_to_ones_own_lender_repays_the_old_loan_first() {
    let (t, r) = to_betting(&[6, 6, 6], &[1]);
    let lend = |lender: u128, side: Side, amount: u64| Move::OfferLoan {
        id: id(900 + lender),
        lender: ch(lender),
        side,
        amount,
        borrower: None,
    };
    // Bo lends Ada 5; Ada folds and the challenge ends.
    let t = go(&t, &r, lend(2, A, 5), &[]);
    let t = go(&t, &r, Move::AnswerLoan { accept: true }, &[]);
    let t = go(&t, &r, Move::Fold { side: A }, &[]);
    assert_eq!(t.loans[0].outstanding(), 5);
    // Bo challenges the House; Ada, outside, lends Bo 7: 5 repay her loan, 2 are a new one.
    let mut s = setup(vec![ch(2)], vec![Account::House], 1);
    s.id = id(POT + 1);
    let t = start(&t, &r, s).unwrap().0;
    let t = both_pass(&t, &r);
    let t = declare(&t, &r, vec![]);
    let t = roll_and_cup(&t, &r, [&[5], &[2]], [vec![], vec![]]);
    let (ada, bo) = (pile(&t, ch(1)), pile(&t, ch(2)));
    let t = go(&t, &r, lend(1, A, 7), &[]);
    let t = go(&t, &r, Move::AnswerLoan { accept: true }, &[]);
    assert_eq!((pile(&t, ch(1)), pile(&t, ch(2))), (ada - 7, bo + 7));
    assert_eq!((t.loans[0].repaid, t.loans[0].outstanding()), (5, 0), "Ada's loan from Bo is paid back");
    assert_eq!(t.loans.len(), 2);
    assert_eq!((t.loans[1].lender, t.loans[1].borrower, t.loans[1].amount), (ch(1), ch(2), 2));
    assert_eq!(problems(&t), Vec::<String>::new());
}

/// What the checker finds wrong with `t`, but the fixture's loan from Di to Cy, which it
/// wrote as a bare entry.
fn problems(t: &PennyTable) -> Vec<String> {
    let fixture = format!("from {:?} to {:?}", ch(4), ch(3));
    crate::rules::penny_ante::check::table_problems(t, "$")
        .into_iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .filter(|p| !p.contains(&fixture))
        .collect()
}

/// D-PA7: a debt to an antagonist that leaves play (not recurring, its adventure over) is
/// owed to the House from then on, and repaid to the House.
#[test]
fn a_debt_to_an_antagonist_that_leaves_play_is_owed_to_the_house() {
    let (t, r) = table();
    let baron = Account::Antagonist(id(ANT));
    let t = start(&t, &r, setup(vec![ch(4)], vec![baron], 3)).unwrap().0;
    let t = both_pass(&t, &r);
    let t = declare(&t, &r, uses(ch(4), &["Shy"]));
    let t = roll_and_cup(&t, &r, [&[1, 1], &[6]], [vec![], vec![]]);
    let t = to_showdown(&t, &r);
    let t = go(&t, &r, Move::Debt, &[]);
    assert_eq!(t.ledger.owed(&ch(4), &baron), 3);
    let t = t.end_adventure(&[id(1), id(2), id(3), id(4)]).unwrap().0;
    assert_eq!((t.ledger.owed(&ch(4), &baron), t.ledger.owed(&ch(4), &Account::House)), (0, 3));
    assert_eq!(problems(&t), Vec::<String>::new());
    assert!(t.repay_debt(ch(4), baron, 1).is_err(), "nothing is owed to the Baron any more");
    let t = t.repay_debt(ch(4), Account::House, 3).unwrap().0;
    assert!(t.ledger.debts.is_empty());
    assert_eq!(problems(&t), Vec::<String>::new());
}
