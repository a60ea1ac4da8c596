//! The Scattershot's Mechanix screens, driven like a person: a Scattershot game with Ada,
//! Bo and Cy made in the games layout, then
//! - a contested roll, every die typed in by hand: the exact odds on screen checked against
//!   a count of all 10 000 outcomes, the 2d10 of both sides, a bidding war of experience dice
//!   (Ada adds hers, Bo adds his and then turns one against Ada), the Decision Phase ended
//!   (the dice paid from the pools, read back from `sc_sheets`), complications bought up to 0
//!   and the roll concluded a success;
//! - a contest against two resistors (audit D-SC6): one added on the set-up, removed and
//!   added again, the odds on screen counted against the best of the two, and the roll
//!   marking whose MIB counts;
//! - a contest's Critical Juncture (audit D-SC1): an actor's own Catastrophic MIB alone
//!   makes a plain failure; a resistor's own Telling Blow makes it catastrophic;
//! - one round of mechanical play: Ada engages Bo and seizes a combat advantage (−1 on Bo's
//!   roll preview), rolls a Telling Blow at Bo's Hit Points that lands at once, Bo checks
//!   the advantage on his turn, the round passes, and the lull lands nothing more;
//! - the table (a setting saved, one out of range refused, the Gamemaster's stock) and
//!   rewards after a session (a share withheld, a bonus), by vote and on the spot (one to
//!   the giver's own character refused), the last taken back from the log.
//!
//! Screenshots at 1280 and 360 px wide (the roll against two resistors in dark too).

use serde_json::json;

use crate::mezzo::{db, dismiss_toast, shots_of, text_of, wait_contains};
use crate::scattershot_sheet::{choose, press, type_into};
use crate::webdriver::Session;
use crate::{begin_with, create_character, in_dark, new_game, open};

/// A character's experience dice and Hit Points lost, as saved.
pub(crate) fn sheet_row(conn: &rusqlite::Connection, character: &str) -> (i64, i64) {
    conn.query_row("SELECT experience_dice, hit_points_lost FROM sc_sheets WHERE character_id = ?1", [character], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })
    .expect("read sc_sheets")
}

/// The attack's dice typed in as 1 and 2 (the number 12, a Telling Blow); its 5 points above
/// the Juncture go to benefits, leaving 7, and the roll is concluded: a Telling Blow.
pub(crate) fn telling_blow_of_seven(session: &Session) {
    enter_2d10(session, "actor", "1", "2");
    session.wait_text("#sc-roll-number", "12");
    press(session, "#sc-roll-decide");
    session.wait_text("#sc-roll-number", "7");
    press(session, "#sc-roll-conclude");
    session.wait_text("#sc-roll-reading", "Telling Blow");
}

/// The turn shown is `current`'s of `round` ("Round 2"), with nothing waiting.
pub(crate) fn turn_is(session: &Session, current: &str, round: &str) {
    session.wait_text("#sc-play-current", current);
    assert_eq!(text_of(session, "#sc-play-turn-heading"), round);
    wait_contains(session, "#sc-play-pending-none", "nothing waits here");
}

/// The chance, in percent to one decimal as the screen shows it, that a contest of
/// `actor` against `resistor` (each rating + modifiers) ends at RMIB ≥ 0: all 10 000 faces.
fn contest_success(actor: i32, resistor: i32) -> String {
    let mut ways = 0;
    for a in 2..=20 {
        for b in 2..=20 {
            let count = |sum: i32| 10 - (sum - 11).abs();
            if (actor - a) - (resistor - b) >= 0 {
                ways += count(a) * count(b);
            }
        }
    }
    // As the screen computes it: the core's probability, times 100, to one decimal.
    format!("{:.1}%", f64::from(ways) / 10_000.0 * 100.0)
}

/// The chance, as the screen shows it, that `actor` beats the best of two resistors
/// (`first`, `second`: rating + modifiers), RMIB ≥ 0, over all 1 000 000 faces.
fn gang_success(actor: i32, first: i32, second: i32) -> String {
    let count = |sum: i32| 10 - (sum - 11).abs();
    let mut ways = 0;
    for a in 2..=20 {
        for b in 2..=20 {
            for d in 2..=20 {
                if (actor - a) - (first - b).max(second - d) >= 0 {
                    ways += count(a) * count(b) * count(d);
                }
            }
        }
    }
    format!("{:.1}%", f64::from(ways) / 1_000_000.0 * 100.0)
}

/// Taps the Gamemaster's common stock up by `dice` on the Table tab (it pays the
/// Gamemaster's awards), waiting for each tap to show `from + n`.
pub(crate) fn fill_stock(session: &Session, from: u32, dice: u32) {
    press(session, "#sc-tab-table");
    for n in 1..=dice {
        press(session, "#sc-gm-dice-plus");
        session.wait_text("#sc-gm-dice", &(from + n).to_string());
    }
}

/// Gives `dice` experience dice from the Gamemaster to `character` on the spot, on the
/// Rewards tab, and waits for its pool to read `holds` dice.
pub(crate) fn give_dice(session: &Session, character: &str, dice: &str, holds: &str) {
    press(session, "#sc-tab-rewards");
    choose(session, "#sc-rw-giver", "gamemaster");
    choose(session, "#sc-rw-to", character);
    type_into(session, "#sc-rw-dice", dice);
    type_into(session, "#sc-rw-note", "a well-played detail");
    press(session, "#sc-rw-spot-give");
    wait_contains(
        session,
        &format!("#sc-pools-list li[data-character-id='{character}']"),
        &format!("{holds} experience dice"),
    );
}

/// Types two d10 faces for `party` and enters them.
pub(crate) fn enter_2d10(session: &Session, party: &str, first: &str, second: &str) {
    type_into(session, &format!("#sc-dice-{party}-1"), first);
    type_into(session, &format!("#sc-dice-{party}-2"), second);
    press(session, &format!("#sc-dice-{party}-enter"));
    session.wait_for(&format!("#sc-dice-{party}-faces"));
}

/// Once the dice shown give the RMIB `number`: ends the Decision Phase, concludes the roll,
/// and waits for the result to read `reading` with the MIB `mib`.
pub(crate) fn decide_and_conclude(session: &Session, number: &str, reading: &str, mib: &str) {
    session.wait_text("#sc-roll-number", number);
    press(session, "#sc-roll-decide");
    session.wait_for("#sc-roll-conclude");
    press(session, "#sc-roll-conclude");
    session.wait_text("#sc-roll-reading", reading);
    assert_eq!(text_of(session, "#sc-roll-mib"), mib);
}

/// Rolls (types) an experience die from `contributor` into `party` and chooses its sign.
pub(crate) fn experience_die(session: &Session, contributor: &str, party: &str, face: &str, sign: &str) {
    choose(session, "#sc-xp-contributor", contributor);
    choose(session, "#sc-xp-party", party);
    type_into(session, "#sc-xp-face", face);
    press(session, "#sc-xp-roll");
    session.wait_for("#sc-sign-add");
    press(session, &format!("#sc-sign-{sign}"));
    session.wait_gone("#sc-sign-add");
}

/// A Scattershot game with three characters and the screen open on its table.
pub(crate) fn table(session: &Session, name: &str) -> (String, String, String, String) {
    let game = new_game(session, name, "scattershot");
    let ada = create_character(session, "Ada");
    let bo = create_character(session, "Bo");
    let cy = create_character(session, "Cy");
    press(session, "#game-scattershot");
    session.wait_for("#scattershot-screen");
    (game, ada, bo, cy)
}

#[test]
fn a_contested_roll_with_a_bidding_war_and_complications() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-roll", open);
    let (game, ada, bo, _cy) = table(&session, "Gear Town");
    // Experience dice handed out on the spot by the Gamemaster, out of the common stock.
    fill_stock(&session, 0, 4);
    give_dice(&session, &ada, "2", "2");
    give_dice(&session, &bo, "2", "2");
    let conn = db(&db_path);
    assert_eq!(sheet_row(&conn, &ada).0, 2, "Ada holds 2 experience dice");

    // The setup: Ada's Agility (10) + 2 against Bo's Reaction (10), every die by hand.
    agility_against_reaction(&session, &ada, &bo);
    session.wait_text("#sc-odds-success", &contest_success(12, 10));
    assert!(text_of(&session, "#sc-odds-actor").contains("Ada: rating 10, situation +2 → 12 − 2d10"));
    shots_of(&session, "scattershot-roll-odds", "#sc-roll-setup");
    // A worse situation moves the odds at once, before any die.
    type_into(&session, "#sc-roll-actor-modifier", "-3");
    session.wait_text("#sc-odds-success", &contest_success(7, 10));
    type_into(&session, "#sc-roll-actor-modifier", "2");
    session.wait_text("#sc-odds-success", &contest_success(12, 10));
    press(&session, "#sc-roll-start");
    session.wait_for("#sc-roll-live");

    // The 2d10: Ada 12 − 11 = 1, Bo 10 − 7 = 3; RMIB −2.
    enter_2d10(&session, "actor", "6", "5");
    enter_2d10(&session, "resistor", "3", "4");
    session.wait_text("#sc-roll-number", "−2");

    // The bidding war: Ada adds a 4 (RMIB 2); Bo adds a 3 to his own (−1), then rolls a 2
    // into Ada's number and subtracts it (−3).
    experience_die(&session, &ada, "actor", "4", "add");
    session.wait_text("#sc-roll-number", "2");
    experience_die(&session, &bo, "resistor", "3", "add");
    session.wait_text("#sc-roll-number", "−1");
    experience_die(&session, &bo, "actor", "2", "subtract");
    session.wait_text("#sc-roll-number", "−3");
    assert_eq!(text_of(&session, "#sc-basic-actor"), "3");
    assert_eq!(text_of(&session, "#sc-basic-resistor"), "6");
    assert!(text_of(&session, "#sc-xp-actor").contains("Bo: d6 showing 2, −2"));
    shots_of(&session, "scattershot-roll-bidding", "#sc-roll-live");
    assert_eq!(sheet_row(&conn, &bo).0, 2, "dice are paid only when the Decision Phase ends");
    press(&session, "#sc-roll-decide");
    session.wait_for("#sc-comp-actor-count");
    assert_eq!(sheet_row(&conn, &ada).0, 1, "Ada paid one die");
    assert_eq!(sheet_row(&conn, &bo).0, 0, "Bo paid two");

    // Application: −3 is bought up to 0 with three complications (the Epic Index).
    assert_eq!(session.execute("return document.getElementById('sc-comp-actor-count').max;", json!([])), json!("3"));
    assert!(session.find("#sc-benefit-actor").is_err(), "nothing to spend on benefits below 0");
    type_into(&session, "#sc-comp-actor-count", "3");
    press(&session, "#sc-comp-actor");
    session.wait_text("#sc-roll-number", "0");
    assert_eq!(text_of(&session, "#sc-comp-actor-taken"), "3 complications taken");
    press(&session, "#sc-roll-conclude");
    session.wait_text("#sc-roll-reading", "Success");
    assert_eq!(text_of(&session, "#sc-roll-mib"), "0");
    assert!(text_of(&session, "#sc-roll-adjustments").contains("The actor took 3 complications"));
    shots_of(&session, "scattershot-roll-result", "#sc-roll-result");

    // Undo takes the conclusion back: the roll is live again.
    dismiss_toast(&session);
    press(&session, "#sc-tab-log");
    session.wait_for("#sc-log-undo");
    press(&session, "#sc-log-undo");
    press(&session, "#sc-tab-roll");
    session.wait_for("#sc-roll-conclude");
    press(&session, "#sc-roll-conclude");
    session.wait_text("#sc-roll-reading", "Success");
    let _ = game;
}

/// Audit D-SC6: a contest of one actor against two resistors. A second resistor is added
/// on the set-up (and removed, and added again); the odds on screen are every die of all
/// three against the best of the two; the roll shows which resistor's MIB counts.
#[test]
fn a_contest_against_two_resistors_counts_the_best_of_them() {
    let (_window, _scratch, _db_path, session) = begin_with("scattershot-gang", open);
    let (_game, ada, bo, _cy) = table(&session, "Gang Town");
    agility_against_reaction(&session, &ada, &bo);
    session.wait_text("#sc-odds-success", &contest_success(12, 10));
    press(&session, "#sc-roll-add-resistor");
    session.wait_for("#sc-roll-resistor_2-side");
    press(&session, "#sc-roll-resistor_2-remove");
    session.wait_gone("#sc-roll-resistor_2-side");
    press(&session, "#sc-roll-add-resistor");
    type_into(&session, "#sc-roll-resistor_2-description", "The warden");
    type_into(&session, "#sc-roll-resistor_2-value", "9");
    session.wait_text("#sc-odds-success", &gang_success(12, 10, 9));
    wait_contains(&session, "#sc-odds-resistor_2", "The warden: rating 9");
    wait_contains(&session, "#sc-odds-best", "best of the resistors");
    shots_of(&session, "scattershot-gang-setup", "#sc-roll-setup");
    press(&session, "#sc-roll-start");
    session.wait_for("#sc-roll-live");

    // Ada 12 − 6 = 6; Bo 10 − 10 = 0; the warden 9 − 2 = 7, the best: RMIB 6 − 7 = −1.
    enter_2d10(&session, "actor", "3", "3");
    enter_2d10(&session, "resistor", "5", "5");
    session.wait_for("#sc-dice-resistor_2-1");
    enter_2d10(&session, "resistor_2", "1", "1");
    session.wait_text("#sc-roll-number", "−1");
    wait_contains(&session, "#sc-counts-resistor_2", "it counts against the actor");
    assert!(session.find("#sc-counts-resistor").is_err(), "Bo's 0 does not count");
    assert!(text_of(&session, "#sc-party-resistor_2 h4").contains("Resistor 2: The warden"));
    shots_of(&session, "scattershot-gang-live", "#sc-roll-live");
    in_dark(&session, || shots_of(&session, "scattershot-gang-live-dark", "#sc-roll-live"));
    press(&session, "#sc-roll-decide");
    // The resistors' side holds the one point: either may spend it.
    session.wait_for("#sc-benefit-resistor_2");
    session.wait_for("#sc-benefit-resistor");
    press(&session, "#sc-roll-conclude");
    session.wait_text("#sc-roll-reading", "Failure");
    assert_eq!(text_of(&session, "#sc-roll-mib"), "-1");
}

/// Audit D-SC1 (RULES.md §4.3 decision 2026-11-28): a contest reaches the Critical Juncture
/// (7) only when one side's own MIB does. Ada (Agility 10 + 2) rolls 20, −8, by itself a
/// Catastrophic Failure, against Bo's (Reaction 10) 9, +1: the RMIB of −9 is a plain Failure
/// with no points to account for. Cleared and rolled again, Ada rolls 14 (−2) against Bo's
/// 2 (+8, his own Telling Blow): the RMIB of −10 is a Catastrophic Failure, its points to split.
#[test]
fn a_contest_reaches_the_critical_juncture_only_through_a_sides_own_mib() {
    let (_window, _scratch, _db_path, session) = begin_with("scattershot-juncture", open);
    let (_game, ada, bo, _cy) = table(&session, "Juncture Flats");
    agility_against_reaction(&session, &ada, &bo);
    session.wait_for("#sc-odds-success");
    wait_contains(
        &session,
        "#sc-roll-setup",
        "In a contest the Critical Juncture counts only when one side's own MIB reaches it.",
    );
    press(&session, "#sc-roll-start");
    session.wait_for("#sc-roll-live");
    enter_2d10(&session, "actor", "10", "10");
    enter_2d10(&session, "resistor", "4", "5");
    decide_and_conclude(&session, "−9", "Failure", "-9");
    assert!(session.find("#sc-juncture").is_err(), "a plain failure has no Critical Juncture points");
    shots_of(&session, "scattershot-juncture-failure", "#sc-roll-result");

    // Again, the same set-up: this time Bo's own MIB is a Telling Blow.
    press(&session, "#sc-roll-clear");
    session.wait_for("#sc-roll-start");
    press(&session, "#sc-roll-start");
    session.wait_for("#sc-roll-live");
    enter_2d10(&session, "actor", "7", "7");
    enter_2d10(&session, "resistor", "1", "1");
    decide_and_conclude(&session, "−10", "Catastrophic Failure", "-10");
    session.wait_for("#sc-juncture");
    shots_of(&session, "scattershot-juncture-catastrophic", "#sc-roll-result");
}

#[test]
fn a_round_of_mechanical_play_with_an_advantage_seized_and_checked() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-play", open);
    let (_game, ada, bo, cy) = table(&session, "Rust Belt");

    // Ada's player calls for mechanical play; the seating goes Ada, Bo, Cy.
    press(&session, "#sc-tab-play");
    choose(&session, "#sc-play-caller", &ada);
    press(&session, "#sc-play-start-submit");
    session.wait_text("#sc-play-current", "Ada's turn: 2 immediate actions left");
    let row = |id: &str| format!(".sc-combatant[data-character-id='{id}']");

    // Ada engages Bo and seizes an advantage: −1 to Bo's rolls.
    choose(&session, &format!("{} .sc-engage-foe", row(&ada)), &bo);
    press(&session, &format!("{} .sc-engage", row(&ada)));
    wait_contains(&session, &row(&ada), "engages Bo");
    press(&session, &format!("{} .sc-seize", row(&ada)));
    wait_contains(&session, &row(&ada), "holds 1 advantage against Bo");
    wait_contains(&session, &row(&bo), "−1 to its rolls");
    shots_of(&session, "scattershot-play-advantage", "#sc-play-combatants");

    // Bo's roll preview carries the −1.
    press(&session, "#sc-tab-roll");
    choose(&session, "#sc-roll-actor", &bo);
    wait_contains(&session, "#sc-odds-actor", "combat advantages held against Bo −1");
    choose(&session, "#sc-roll-actor", &ada);

    // Ada's attack: Strength 10 + 5 − 3 = 12, a Telling Blow; 5 points above the Critical
    // Juncture go to benefits and 7 × Factor 1 comes off Bo's Hit Points at once.
    press(&session, "#sc-roll-by-hand");
    choose(&session, "#sc-roll-actor-rating", "statistic:strength");
    type_into(&session, "#sc-roll-actor-modifier", "5");
    choose(&session, "#sc-roll-target", &bo);
    choose(&session, "#sc-roll-target-resource", "hit_points");
    session.wait_for("#sc-odds-telling");
    press(&session, "#sc-roll-start");
    telling_blow_of_seven(&session);
    wait_contains(&session, "#sc-roll-effect", "Bo lost 7 Hit Points");
    let conn = db(&db_path);
    assert_eq!(sheet_row(&conn, &bo).1, 7, "the result lands at once");

    // Back at the tracker: Ada's action, her turn ends; Bo checks the advantage.
    press(&session, "#sc-tab-play");
    press(&session, "#sc-play-action");
    session.wait_text("#sc-play-actions-left", "1 immediate action");
    press(&session, "#sc-play-end-turn");
    session.wait_text("#sc-play-current", "Bo's turn: 2 immediate actions left");
    press(&session, &format!("{} .sc-check", row(&ada)));
    session.wait_until("the advantage checked", || {
        session.find(&row(&bo)).ok().filter(|r| !r.text().contains("to its rolls"))
    });
    assert!(!text_of(&session, &row(&ada)).contains("holds"), "no advantage left");
    press(&session, "#sc-play-end-turn");
    session.wait_text("#sc-play-current", "Cy's turn: 2 immediate actions left");
    press(&session, "#sc-play-end-turn");
    turn_is(&session, "Ada's turn: 2 immediate actions left", "Round 2");
    shots_of(&session, "scattershot-play-round", "#sc-play-turn");

    // The lull lands nothing more: the result came off once.
    press(&session, "#sc-play-end");
    session.wait_for("#sc-play-start-form");
    assert_eq!(sheet_row(&conn, &bo).1, 7, "Bo lost 7 Hit Points once");
    let _ = cy;
}

/// Each character's experience dice as saved, in the order given.
fn pools(conn: &rusqlite::Connection, characters: &[&str]) -> Vec<i64> {
    characters.iter().map(|c| sheet_row(conn, c).0).collect()
}

#[test]
fn the_table_settings_and_rewards_after_a_session_by_vote_and_on_the_spot() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-rewards", open);
    let (game, ada, bo, cy) = table(&session, "Cog Hollow");
    let conn = db(&db_path);
    let who = [ada.as_str(), bo.as_str(), cy.as_str()];

    // The table: every character with its resources; a setting and the Gamemaster's stock.
    press(&session, "#sc-tab-table");
    wait_contains(&session, &format!(".sc-character[data-character-id='{bo}']"), "Hit Points 10 / 10");
    type_into(&session, "#sc-setting-epic_index", "4");
    press(&session, "#sc-setting-epic_index-save");
    session.wait_until("the Epic Index saved", || {
        let value: i64 = conn
            .query_row("SELECT value FROM table_settings WHERE game_id = ?1 AND name = 'epic_index'", [&game], |r| {
                r.get(0)
            })
            .ok()?;
        (value == 4).then_some(())
    });
    type_into(&session, "#sc-setting-critical_juncture", "99");
    press(&session, "#sc-setting-critical_juncture-save");
    // The box is out of its range (the page says so) and nothing is saved.
    assert_eq!(
        session.execute("return document.getElementById('sc-setting-critical_juncture').checkValidity();", json!([])),
        json!(false),
    );
    let juncture: Option<i64> = conn
        .query_row("SELECT value FROM table_settings WHERE game_id = ?1 AND name = 'critical_juncture'", [&game], |r| {
            r.get(0)
        })
        .ok();
    assert_eq!(juncture, Some(7), "a value out of range is not sent");
    // The stock is tapped up, a die a tap.
    for n in 1..=5 {
        press(&session, "#sc-gm-dice-plus");
        session.wait_text("#sc-gm-dice", &n.to_string());
    }
    wait_contains(&session, "#sc-gm-dice-now", "5 experience dice");
    shots_of(&session, "scattershot-table", "#sc-characters");

    // After the session: 2 each, Cy's share withheld, a bonus die for Bo.
    press(&session, "#sc-tab-rewards");
    type_into(&session, "#sc-rw-equal", "2");
    press(&session, &format!("#sc-rw-withhold-{cy}"));
    type_into(&session, &format!("#sc-rw-bonus-{bo}"), "1");
    type_into(&session, &format!("#sc-rw-reason-{bo}"), "saved the evening");
    press(&session, "#sc-rw-session-give");
    wait_contains(&session, &format!("#sc-pools-list li[data-character-id='{bo}']"), "3 experience dice");
    assert_eq!(pools(&conn, &who), [2, 3, 0]);

    // By vote: Bo gets two of three votes and the die.
    choose(&session, &format!("#sc-rw-vote-{ada}"), &bo);
    choose(&session, &format!("#sc-rw-vote-{bo}"), &ada);
    choose(&session, &format!("#sc-rw-vote-{cy}"), &bo);
    press(&session, "#sc-rw-vote-give");
    wait_contains(&session, &format!("#sc-pools-list li[data-character-id='{bo}']"), "4 experience dice");
    assert_eq!(pools(&conn, &who), [2, 4, 0]);
    shots_of(&session, "scattershot-rewards", "#sc-rw-session");

    // On the spot from Ada's own pool: not to herself (the core says why), then to Cy.
    choose(&session, "#sc-rw-giver", &ada);
    press(&session, "#sc-rw-replaced");
    choose(&session, "#sc-rw-to", &ada);
    press(&session, "#sc-rw-spot-give");
    let error = text_of(&session, "#error-message");
    assert!(error.contains("nobody awards their own character"), "{error:?}");
    press(&session, "#error-dismiss");
    session.wait_gone("#error");
    assert_eq!(pools(&conn, &who), [2, 4, 0], "a refused award changes nothing");
    choose(&session, "#sc-rw-to", &cy);
    press(&session, "#sc-rw-spot-give");
    wait_contains(&session, &format!("#sc-pools-list li[data-character-id='{cy}']"), "1 experience die");
    assert_eq!(pools(&conn, &who), [1, 4, 1]);

    // The log lists every move; undo takes the last award back.
    press(&session, "#sc-tab-log");
    wait_contains(&session, "#sc-log-last", "Experience dice: Cy +1");
    press(&session, "#sc-log-undo");
    session.wait_until("the undo in the log", || session.find(".mz-log-entry.undone").ok());
    assert_eq!(pools(&conn, &who), [2, 4, 0]);
}

/// On the Roll tab, every die by hand: Ada's Agility (10) + 2 contested by Bo's Reaction (10),
/// once the contest's odds show.
pub(crate) fn agility_against_reaction(session: &Session, ada: &str, bo: &str) {
    press(session, "#sc-tab-roll");
    press(session, "#sc-roll-by-hand");
    choose(session, "#sc-roll-actor", ada);
    choose(session, "#sc-roll-actor-rating", "statistic:agility");
    type_into(session, "#sc-roll-actor-modifier", "2");
    press(session, "#sc-roll-contested");
    choose(session, "#sc-roll-resistor", bo);
    choose(session, "#sc-roll-resistor-rating", "statistic:reaction");
    wait_contains(session, "#sc-odds-resistor", "Bo: rating 10");
}
