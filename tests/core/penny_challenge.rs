//! Penny Ante challenges at a real table (audit issue 16): the House's secrets in an
//! anonymous challenge, the simultaneous reveal of the cups, the odds while characteristics
//! are ticked, and a short opponent's choice at the ante — through the services, as each
//! device's role sees them.

use rand::{rngs::StdRng, SeedableRng};
use sheetkeeper::rules::penny_ante::challenge::{Move, Side, Used};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::services::{self, DiceInput};
use uuid::Uuid;

use crate::support::{penny_heist, penny_start, penny_use_and_roll, PennyHeist};

const C: Side = Side::Challenger;
const O: Side = Side::Opponent;

/// Ada (30 pennies, "Strong") and Di (3, "Shy"); the House's Baron ("Ruthless", hidden
/// "Hates riddles" and "Fears the dark") with a purse of 17; an adventure running.
fn heist() -> PennyHeist {
    PennyHeist { rng: StdRng::seed_from_u64(3), ..penny_heist("Di", "Shy") }
}

/// The steps these tests take at the heist table.
trait Challenge {
    fn di(&self) -> Uuid;
    fn start(&mut self, challenger: Account, opponent: Account, ante: i64, devoted: Option<i64>) -> String;
    fn shared(&self) -> String;
    fn anonymous_at_the_roll(&mut self);
}

impl Challenge for PennyHeist {
    fn di(&self) -> Uuid {
        let view = services::penny_table(&self.store, self.game).unwrap();
        view.players.iter().find(|p| p.name == "Di").unwrap().id
    }

    fn start(&mut self, challenger: Account, opponent: Account, ante: i64, devoted: Option<i64>) -> String {
        penny_start(&mut self.store, self.game, ("the vault", ante), challenger, opponent, devoted)
    }

    /// The shared table this device shows, as JSON text.
    fn shared(&self) -> String {
        serde_json::to_string(&services::penny_table(&self.store, self.game).unwrap()).unwrap()
    }

    /// The Baron challenges Ada anonymously (9 of his 17 devoted), using "Hates riddles";
    /// both sides rolled, neither cup chosen yet.
    fn anonymous_at_the_roll(&mut self) {
        self.start(Account::Antagonist(self.baron), Account::Character(self.ada), 2, Some(9));
        self.mv(Move::Pass { side: C }, &[]);
        self.mv(Move::Pass { side: O }, &[]);
        let used = vec![Used { owner: Account::Antagonist(self.baron), text: "Hates riddles".into() }];
        penny_use_and_roll(|mv, dice| self.mv(mv, dice), used, (&[2, 3], &[4]));
    }
}

/// Audit #2: what an anonymous antagonist devoted, its purse and the hidden characteristics it
/// has not used are left out of every view but the House's; "Hates riddles", used, is set in
/// stone and shown.
#[test]
fn an_anonymous_challenge_keeps_the_houses_secrets_from_every_screen_but_the_houses() {
    let mut g = heist();
    g.anonymous_at_the_roll();
    let secrets = ["Fears the dark", "\"devoted\":9", "\"purse\":17", "\"purse\":15", "\"available\":7"];
    for role in ["player", "both"] {
        g.role(role);
        let seen = g.shared();
        for secret in secrets {
            assert!(!seen.contains(secret), "{role} device's table shows {secret}: {seen}");
        }
        assert!(seen.contains("Hates riddles"), "used, it is set in stone and everyone's");
        let view = services::penny_table(&g.store, g.game).unwrap();
        let c = view.challenge.unwrap();
        assert_eq!((c.devoted, c.sides[0].available, c.sides[0].members[0].pile), (None, None, None), "{role}");
    }
    // A player's device may not open the House's view nor its side; the House's own device
    // and a device handed to the House see them.
    g.role("player");
    assert!(services::penny_table_as_house(&g.store, g.game).is_err());
    assert!(services::penny_private(&g.store, g.game, C, None).is_err());
    for role in ["table", "both"] {
        g.role(role);
        let house = serde_json::to_string(&services::penny_table_as_house(&g.store, g.game).unwrap()).unwrap();
        for secret in ["Fears the dark", "\"devoted\":9", "\"purse\":15", "\"available\":7"] {
            assert!(house.contains(secret), "{role}: the House sees {secret}: {house}");
        }
        let own = services::penny_private(&g.store, g.game, C, None).unwrap();
        assert_eq!((own.available, own.devoted), (7, Some(9)), "{role}: the House's own side");
    }
    g.role("table");
    assert!(g.shared().contains("\"devoted\":9"), "the House's own device shows its secrets at once");
}

/// Audit #2: the odds and the betting limits a player sees say nothing of the devoted pennies
/// (the House's all-in restriction would give them away).
#[test]
fn a_players_own_view_does_not_tell_the_devoted_pennies() {
    let mut g = heist();
    g.anonymous_at_the_roll();
    g.mv(Move::Cup { side: C, cup: vec![] }, &[]);
    g.mv(Move::Cup { side: O, cup: vec![] }, &[]);
    g.role("player");
    let mine = services::penny_private(&g.store, g.game, O, None).unwrap();
    let text = serde_json::to_string(&mine).unwrap();
    assert_eq!((mine.available, mine.devoted), (28, None));
    assert!(!text.contains("Fears the dark"), "{text}");
    // The House cannot top up the Baron's purse mid-challenge (RULES.md §2.2): refused,
    // and the odds Ada sees are as they were.
    let before = mine.odds.unwrap();
    g.role("table");
    assert!(services::penny_fund_antagonist(&mut g.store, g.game, g.baron, 2).is_err());
    g.role("player");
    assert_eq!(services::penny_private(&g.store, g.game, O, None).unwrap().odds.unwrap(), before);
}

/// Audit #3: after one side chose its cup, neither the shared table, the toast nor the log
/// shows its dice until the other side has chosen too; then both show at once.
#[test]
fn the_cups_are_revealed_together_once_both_are_chosen() {
    let mut g = heist();
    g.anonymous_at_the_roll();
    g.role("player");
    // Ada chooses first (either side may): her 4 stays off the table while the Baron chooses.
    let said = g.mv(Move::Cup { side: O, cup: vec![] }, &[]);
    assert_eq!(said, "Ada has chosen its cup.");
    let c = services::penny_table(&g.store, g.game).unwrap().challenge.unwrap();
    assert!(c.sides[1].cup_chosen);
    assert_eq!((c.sides[1].revealed.clone(), c.sides[1].in_cup), (vec![], 0));
    // The House's odds, on its own device, count Ada's die as unknown.
    g.role("table");
    let blind = services::penny_private(&g.store, g.game, C, Some(vec![])).unwrap().odds.unwrap();
    let said = g.mv(Move::Cup { side: C, cup: vec![0] }, &[]);
    assert_eq!(said, "The Baron has chosen its cup. Both cups are chosen: The Baron shows 3 (1 in the cup); Ada shows 4 (0 in the cup).");
    let seen = services::penny_private(&g.store, g.game, C, None).unwrap().odds.unwrap();
    assert_ne!(blind, seen, "once both cups are chosen, Ada's 4 counts");
    let c = services::penny_table(&g.store, g.game).unwrap().challenge.unwrap();
    assert_eq!((c.sides[0].revealed.clone(), c.sides[1].revealed.clone()), (vec![3], vec![4]));
    let log = serde_json::to_string(&services::penny_log(&g.store, g.game, 50, false).unwrap()).unwrap();
    assert!(log.contains("Ada has chosen its cup.\""), "the first cup's log line tells no die: {log}");
}

/// Audit #4: the odds shown while ticking characteristics follow the count ticked.
#[test]
fn the_odds_while_declaring_follow_the_boxes_ticked() {
    let mut g = heist();
    g.start(Account::Character(g.ada), Account::House, 1, None);
    g.mv(Move::Pass { side: C }, &[]);
    g.mv(Move::Pass { side: O }, &[]);
    let win = |g: &PennyHeist, n| services::penny_private_declaring(&g.store, g.game, C, n).unwrap().odds.unwrap().win;
    let wins: Vec<f64> = (0..=5).map(|n| win(&g, n)).collect();
    assert!(wins.windows(2).all(|w| w[0] < w[1]), "{wins:?}");
    assert!(wins[5] > 0.99, "six dice against one: {wins:?}");
    // Ada declares "Strong" (2 dice); the House's odds count them, still unknown.
    let house = |g: &PennyHeist| services::penny_private_declaring(&g.store, g.game, O, 0).unwrap().odds.unwrap();
    let before = house(&g);
    let used = vec![Used { owner: Account::Character(g.ada), text: "Strong".into() }];
    g.mv(Move::Characteristics { side: C, used }, &[]);
    assert!(house(&g).win < before.win, "Ada's second die counts against the House");
    assert!(services::penny_private_declaring(&g.store, g.game, C, 1).is_err(), "Ada has declared");
}

/// Audits #12–13: a short opponent chooses; folding costs it nothing and the challenger's
/// ante goes back.
#[test]
fn a_short_opponent_folds_at_the_ante_and_nobody_loses_a_penny() {
    let mut g = heist();
    let di = g.di();
    // Di holds 25: an ante of 26 is more than she has.
    g.start(Account::Character(g.ada), Account::Character(di), 26, None);
    let view = services::penny_table(&g.store, g.game).unwrap();
    assert_eq!(view.challenge.unwrap().sides[1].ante_owed, Some(26));
    let said = g.mv(Move::Fold { side: O }, &[]);
    assert!(said.starts_with("Di cannot pay the ante and folds before anything is at stake"), "{said}");
    let view = services::penny_table(&g.store, g.game).unwrap();
    let piles: Vec<i64> = view.players.iter().map(|p| p.pile).collect();
    assert_eq!(piles, vec![30, 25]);
    let c = view.challenge.unwrap();
    assert_eq!(c.phase, sheetkeeper::rules::penny_ante::challenge::Phase::Over);
    let summary = c.outcome.unwrap().summary;
    assert_eq!(summary, "Di folded before anything was at stake; the antes went back. Di narrates.");
}

/// RULES §2.3: dice still in a cup are never revealed after a fold — not on the shared
/// screen and not in what a linked table sends a player's device.
#[test]
fn after_a_fold_the_dice_in_the_cup_stay_hidden() {
    let mut g = heist();
    g.anonymous_at_the_roll();
    g.mv(Move::Cup { side: O, cup: vec![] }, &[]);
    g.mv(Move::Cup { side: C, cup: vec![0] }, &[]);
    // Whoever's turn it is folds.
    let folded = [C, O].into_iter().find(|&side| {
        let mv = Move::Fold { side };
        services::penny_challenge_move(&mut g.store, g.game, mv, &DiceInput::Rolled, &mut g.rng).is_ok()
    });
    assert!(folded.is_some(), "a side could fold");
    g.role("player");
    let c = services::penny_table(&g.store, g.game).unwrap().challenge.unwrap();
    assert_eq!(c.sides[0].dice, None, "the Baron's 2 in the cup is not shown");
    assert_eq!(c.sides[0].revealed, vec![3], "what was on the table still is");
    let doc = services::game_document_for(g.store.read(), g.game, &services::Viewer::Player(vec![g.ada])).unwrap();
    let sent = doc.games[0].penny_table.as_ref().unwrap().challenge.as_ref().unwrap();
    assert_eq!(sent.sides[0].dice, vec![1, 3], "a player's device gets a stand-in for the cup's die");
}
