//! The bidding war's chances on the Scattershot roll screen (issue 34), driven like a person:
//! a contest of Ada's Agility (10) + 2 against Bo's Reaction (10), every die typed in; once
//! Ada's 2d10 are rolled (6 and 5) and Bo's are not, the rules hints list each experience
//! die as + and as − into each MIB with the same chances as
//! `rules::scattershot::choices::bidding` for that roll (the CLI's `sheetkeeper odds
//! scattershot --choices`), the best for Ada and for Bo marked; the list is a hint (gone
//! with the hints switched off). Then a die rolled (a 4, from the Gamemaster's stock) waits
//! for its sign: its two signs with their chances, and tapping "Subtract the 4" subtracts it.
//!
//! Screenshots at 1280 and 360 px wide, light and dark.

use serde_json::json;
use sheetkeeper::rules::dice::Entered;
use sheetkeeper::rules::scattershot::choices::{bidding, Bid, Bidding, Chances};
use sheetkeeper::rules::scattershot::made_it_by::{Action, MibRoll, Party, RollSetup, Sign};
use sheetkeeper::rules::scattershot::{Pools, Settings};
use uuid::Uuid;

use crate::mezzo::{shots_of, text_of};
use crate::scattershot::{agility_against_reaction, enter_2d10, fill_stock, table};
use crate::scattershot_sheet::{choose, press, type_into};
use crate::webdriver::Session;
use crate::{begin_with, in_dark, open};

/// The roll the screen sets up, made by the rules alone: Ada 10 + 2 against Bo 10, Ada's
/// 2d10 6 and 5.
fn the_roll() -> MibRoll {
    let action = |rating, modifier| Action { description: String::new(), rating, modifier, rolled: None };
    let setup = RollSetup {
        actor: action(10, 2),
        resistors: vec![action(10, 0)],
        facets: Default::default(),
        chart: Vec::new(),
    };
    let (roll, _) = MibRoll::start(&setup, &Settings::default()).expect("the roll starts");
    roll.roll_dice(Party::Actor, &mut Entered::new([6, 5])).expect("Ada's 2d10").0
}

/// A probability as the screen writes it (the webview's own `toFixed`, as `percent` does).
fn pct(session: &Session, p: f64) -> String {
    let text = session.execute("return (arguments[0] * 100).toFixed(1) + '%';", json!([p]));
    text.as_str().expect("a percent").to_owned()
}

fn chances_words(session: &Session, c: &Chances) -> String {
    format!(
        "{} success, {} Telling Blow, {} Catastrophic Failure",
        pct(session, c.success.probability()),
        pct(session, c.telling_blow.probability()),
        pct(session, c.catastrophic.probability())
    )
}

fn best_words(bid: &Bid) -> &'static str {
    match (bid.best_for_actor, bid.best_for_resistor) {
        (true, true) => " — best for Ada and for Bo",
        (true, false) => " — best for Ada",
        (false, true) => " — best for Bo",
        (false, false) => "",
    }
}

fn words(party: Party) -> String {
    party.key()
}

fn sign_word(sign: Sign) -> &'static str {
    match sign {
        Sign::Add => "add",
        Sign::Subtract => "subtract",
    }
}

/// Each bid's row reads the library's chances, its best marks, and (in its title) the exact
/// counts of equally likely outcomes; `text` is the row's words before the chances.
fn rows_read(session: &Session, expected: &Bidding, text: impl Fn(&Bid) -> String) {
    session.wait_until("one row per bid", || {
        (session.find_all("#sc-bids-list > li").len() == expected.bids.len()).then_some(())
    });
    for bid in &expected.bids {
        let row = session.wait_for(&format!("#sc-bid-{}-{}", words(bid.party), sign_word(bid.sign)));
        let want = format!("{}: {}{}", text(bid), chances_words(session, &bid.chances), best_words(bid));
        assert_eq!(row.text(), want);
        let c = &bid.chances;
        let counts = format!(
            "{} · {} · {} of {} equally likely outcomes",
            c.success.count(),
            c.telling_blow.count(),
            c.catastrophic.count(),
            c.success.outcomes()
        );
        assert_eq!(row.attribute("title").as_deref(), Some(counts.as_str()));
        let best = bid.best_for_actor || bid.best_for_resistor;
        assert_eq!(row.attribute("class").is_some_and(|c| c.split(' ').any(|c| c == "best")), best, "{want}");
    }
}

#[test]
fn the_bidding_war_s_chances_and_a_sign_chosen_from_its_row() {
    let (_window, _scratch, _db_path, session) = begin_with("scattershot-bidding", open);
    let (game, ada, bo, _cy) = table(&session, "Gear Town");
    fill_stock(&session, 0, 2);

    agility_against_reaction(&session, &ada, &bo);
    press(&session, "#sc-roll-start");
    session.wait_for("#sc-roll-live");
    enter_2d10(&session, "actor", "6", "5");

    // Every bid of a d6 into either MIB, with the library's chances for this roll.
    let roll = the_roll();
    let expected = bidding(&roll).expect("the bidding");
    assert_eq!(expected.bids.len(), 4, "+ and − into each MIB");
    rows_read(&session, &expected, |bid| {
        let whose = if bid.party == Party::Actor { "Ada" } else { "Bo" };
        let sign = if bid.sign == Sign::Add { "+" } else { "−" };
        format!("Add a d6 to {whose}'s MIB as {sign}")
    });
    let now = expected.now.expect("nothing waits");
    session.wait_text("#sc-bids-now", &format!("If nobody bids again: {}.", chances_words(&session, &now)));
    assert!(expected.bids.iter().any(|b| b.best_for_actor), "a best for Ada");
    assert!(expected.bids.iter().any(|b| b.best_for_resistor), "a best for Bo");
    assert!(text_of(&session, "#sc-bids").contains("a Catastrophic Failure is the resistor's Telling Blow"));
    shots_of(&session, "scattershot-bidding", "#sc-bids");
    in_dark(&session, || shots_of(&session, "scattershot-bidding-dark", "#sc-bids"));

    // The list is a rules hint: the switch hides it.
    let shown = || session.execute("return getComputedStyle(document.getElementById('sc-bids')).display;", json!([]));
    session.execute("document.documentElement.dataset.hints = 'off';", json!([]));
    assert_eq!(shown(), json!("none"), "hidden with the hints off");
    session.execute("delete document.documentElement.dataset.hints;", json!([]));
    assert_ne!(shown(), json!("none"), "shown with the hints on");

    // A 4 from the Gamemaster's stock into Ada's MIB waits for its sign: its two signs.
    choose(&session, "#sc-xp-contributor", &game);
    choose(&session, "#sc-xp-party", "actor");
    type_into(&session, "#sc-xp-face", "4");
    press(&session, "#sc-xp-roll");
    session.wait_for("#sc-sign-add");
    let gm = Uuid::parse_str(&game).expect("the game's id");
    let pools = Pools::from([(gm, 2)]);
    let waiting = roll.add_experience_die(Party::Actor, gm, &pools, &mut Entered::new([4])).expect("the die").0;
    let expected = bidding(&waiting).expect("the signs");
    assert_eq!(expected.bids.len(), 2);
    assert!(expected.now.is_none());
    rows_read(&session, &expected, |bid| {
        if bid.sign == Sign::Add {
            "Add the 4 (+4)".to_owned()
        } else {
            "Subtract the 4 (−4)".to_owned()
        }
    });
    assert!(session.find("#sc-bids-now").is_err(), "no chances of nobody bidding while a die waits");
    shots_of(&session, "scattershot-bidding-sign", "#sc-party-actor");

    // Tapping the row subtracts the die: Ada's own MIB is 12 − 11 − 4.
    press(&session, "#sc-bid-actor-subtract");
    session.wait_gone("#sc-sign-add");
    assert!(text_of(&session, "#sc-xp-actor").contains("d6 showing 4, −4"));
    session.wait_text("#sc-basic-actor", "-3");
    // And the bidding goes on: a new die's four bids again.
    session.wait_until("the bids after the sign", || (session.find_all("#sc-bids-list > li").len() == 4).then_some(()));
}
