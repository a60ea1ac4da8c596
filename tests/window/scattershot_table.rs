//! Scattershot's Mechanix at a real table, driven like a person (every die typed in):
//! - damage during mechanical play: Bo and Cy marked non-player characters on their sheets
//!   (the Scope reminder shows: two against one), Ada's player calls for mechanical play,
//!   Ada hits Bo's Hit Points, and Bo's Hit Points drop at once (read back from `sc_sheets`)
//!   while the fight goes on, Ada's turn still running; after the session the equal share is
//!   Ada's alone (the Rewards tab lists none for the Gamemaster's Bo and Cy);
//! - the UE chart filled in on the table (a Factor out of range first refused in words naming its
//!   row and column), then a Telling Blow whose points (the chart's
//!   Points at its MIB) are all taken as complications for Bo, and the chart's Bonus kept on
//!   Ada as a residual modifier until the session ends, shown on her sheet; dark theme;
//! - experience dice belong to players (audit D-SC4): Dana joins the table and is named for
//!   Ada (her 2 dice join Dana's stock) and for Bo; the table, the rewards and the roll show
//!   one stock of 2 for both (Ada's sheet points to it), and a die Ada's roll takes comes out of it (read back from
//!   `sc_players`), leaving Ada's own sheet at 0; Dana is renamed Dani, is refused removal while
//!   she plays Ada and Bo (the error says so), and once they stand as their own she leaves the
//!   table, her last die going to the Gamemaster's stock.
//!
//! Screenshots at 1280 and 360 px wide.

use crate::mezzo::{db, shots_of, wait_contains};
use crate::scattershot::{enter_2d10, experience_die, fill_stock, give_dice, sheet_row, table};
use crate::scattershot_sheet::{choose, press, type_into};
use crate::{begin_with, open, open_dark};

/// Sets a by-hand roll of Ada's Strength + `modifier` at Bo's Hit Points and starts it.
fn attack(session: &crate::webdriver::Session, ada: &str, bo: &str, modifier: &str) {
    press(session, "#sc-tab-roll");
    press(session, "#sc-roll-by-hand");
    choose(session, "#sc-roll-actor", ada);
    choose(session, "#sc-roll-actor-rating", "statistic:strength");
    type_into(session, "#sc-roll-actor-modifier", modifier);
    choose(session, "#sc-roll-target", bo);
    choose(session, "#sc-roll-target-resource", "hit_points");
    session.wait_for("#sc-odds-telling");
    press(session, "#sc-roll-start");
    session.wait_for("#sc-roll-live");
}

#[test]
fn damage_lands_at_once_during_mechanical_play() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-damage", open);
    let (_game, ada, bo, cy) = table(&session, "Iron Wharf");
    let conn = db(&db_path);
    for npc in [&bo, &cy] {
        press(&session, "#sc-tab-table");
        press(&session, &format!(".sc-character[data-character-id='{npc}'] .sc-open-sheet"));
        press(&session, "#sc-sheet-npc");
        session.wait_until("the NPC flag saved", || {
            conn.query_row("SELECT npc FROM sc_sheets WHERE character_id = ?1", [npc.as_str()], |r| r.get::<_, i64>(0))
                .ok()
                .filter(|&n| n == 1)
        });
    }

    press(&session, "#sc-tab-play");
    choose(&session, "#sc-play-caller", &ada);
    press(&session, "#sc-play-start-submit");
    session.wait_text("#sc-play-current", "Ada's turn: 2 immediate actions left");
    wait_contains(&session, "#sc-play-scope", "2 non-player characters against 1 player");

    // Strength 10 − (3 + 4) = 3: a success, 3 × Factor 1 off Bo's Hit Points.
    attack(&session, &ada, &bo, "0");
    enter_2d10(&session, "actor", "3", "4");
    session.wait_text("#sc-roll-number", "3");
    press(&session, "#sc-roll-decide");
    press(&session, "#sc-roll-conclude");
    session.wait_text("#sc-roll-reading", "Success");
    wait_contains(&session, "#sc-roll-effect", "Bo lost 3 Hit Points");
    assert_eq!(sheet_row(&conn, &bo).1, 3, "Bo's Hit Points drop at once");
    shots_of(&session, "scattershot-table-damage-result", "#sc-roll-result");

    // The fight goes on: still Ada's turn in round 1, and Bo's 7 Hit Points on the table.
    press(&session, "#sc-tab-play");
    crate::scattershot::turn_is(&session, "Ada's turn: 2 immediate actions left", "Round 1");
    shots_of(&session, "scattershot-table-damage-play", "#sc-play-scope");
    press(&session, "#sc-tab-table");
    wait_contains(&session, &format!(".sc-character[data-character-id='{bo}']"), "Hit Points 7 / 10");
    shots_of(&session, "scattershot-table-damage-fight", "#sc-characters");

    // After the session the equal share is Ada's alone: Bo and Cy are the Gamemaster's.
    press(&session, "#sc-tab-rewards");
    session.wait_for(&format!("#sc-rw-withhold-{ada}"));
    for npc in [&bo, &cy] {
        assert!(session.find(&format!("#sc-rw-withhold-{npc}")).is_err(), "no share for a non-player character");
    }
    shots_of(&session, "scattershot-table-npc-rewards", "#sc-rw-session");
    type_into(&session, "#sc-rw-equal", "2");
    press(&session, "#sc-rw-session-give");
    wait_contains(&session, &format!("#sc-pools-list li[data-character-id='{ada}']"), "2 experience dice");
    assert_eq!((sheet_row(&conn, &ada).0, sheet_row(&conn, &bo).0, sheet_row(&conn, &cy).0), (2, 0, 0));
}

#[test]
fn a_telling_blow_taken_as_complications_for_the_subject_with_the_ue_chart() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-telling", open_dark);
    let (game, ada, bo, _cy) = table(&session, "Brass Canyon");
    let conn = db(&db_path);

    // The group's chart: from 1 the defaults, from 7 two Points and a Bonus of 2.
    press(&session, "#sc-tab-table");
    press(&session, "#sc-chart-add");
    press(&session, "#sc-chart-add");
    type_into(&session, "#sc-chart-1-index", "7");
    type_into(&session, "#sc-chart-1-points", "2");
    type_into(&session, "#sc-chart-1-bonus", "2");
    type_into(&session, "#sc-chart-1-magnitude", "a room");
    // A Factor out of range is refused in words that name the row and the column, and nothing is saved.
    type_into(&session, "#sc-chart-1-factor", "300");
    press(&session, "#sc-chart-save");
    wait_contains(&session, "#error-message", "Row 2, Factor: type a whole number from 0 to 100.");
    let saved: i64 =
        conn.query_row("SELECT count(*) FROM sc_ue_chart WHERE game_id = ?1", [&game], |r| r.get(0)).unwrap();
    assert_eq!(saved, 0, "a refused chart saves no row");
    // The person reads the message and dismisses it before correcting the box, so the error
    // area below is empty unless the next save is refused too.
    press(&session, "#error-dismiss");
    session.wait_until("the error dismissed", || session.find("#error").ok().filter(|e| !e.is_displayed()).map(|_| ()));
    type_into(&session, "#sc-chart-1-factor", "1");
    press(&session, "#sc-chart-save");
    // Saved when the window says so (a refusal would name its field in the error area).
    session.wait_until("the chart saved", || {
        let said = session.execute(
            "return [document.getElementById('toast-message')?.textContent ?? '', \
                     document.getElementById('error-message')?.textContent ?? ''];",
            serde_json::json!([]),
        );
        assert_eq!(said[1], "", "the chart was refused");
        said[0].as_str().is_some_and(|t| t.contains("The UE chart has 2 row(s).")).then_some(())
    });
    let rows: i64 =
        conn.query_row("SELECT count(*) FROM sc_ue_chart WHERE game_id = ?1", [&game], |r| r.get(0)).unwrap();
    assert_eq!(rows, 2, "the chart's rows in the database");
    press(&session, "#sc-session-start");
    wait_contains(&session, "#sc-session-now", "Session 1 is being played");
    // The session is the journal's: dated today, with every player's character there.
    let journal = || -> (i64, i64, i64, i64) {
        conn.query_row(
            "SELECT number, open, length(date), (SELECT count(*) FROM journal_attendees a WHERE a.game_id = s.game_id) \
             FROM journal_sessions s WHERE game_id = ?1",
            [&game],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("the journal's session")
    };
    assert_eq!(journal(), (1, 1, 10, 3), "session 1 open, dated, Ada, Bo and Cy there");
    shots_of(&session, "scattershot-table-chart", "#sc-chart");
    // On a phone the headings row folds away: each box shows its column's name above it.
    crate::phone_width(&session);
    let labels = session.execute(
        "return ['index','factor','points','bonus','magnitude'].map((n) => \
           getComputedStyle(document.getElementById('sc-chart-1-' + n).parentElement, '::before').content);",
        serde_json::json!([]),
    );
    assert_eq!(labels, serde_json::json!(["\"Index\"", "\"Factor\"", "\"Points\"", "\"Bonus\"", "\"Magnitude\""]));
    crate::desktop_width(&session);

    // Strength 10 + 5 − (1 + 2) = 12, a Telling Blow: 5 points above the Juncture go to
    // benefits, leaving 7 (still a Telling Blow), which reads 2 Points and a Bonus of 2.
    attack(&session, &ada, &bo, "5");
    crate::scattershot::telling_blow_of_seven(&session);
    assert_eq!(sheet_row(&conn, &bo).1, 7, "7 × Factor 1 off Bo at once");
    wait_contains(&session, "#sc-juncture", "2 points to account for");
    wait_contains(&session, "#sc-juncture-rest", "2 as complications for Bo");
    shots_of(&session, "scattershot-table-telling", "#sc-roll-result");
    type_into(&session, "#sc-juncture-actor", "0");
    press(&session, "#sc-juncture-save");
    wait_contains(&session, "#sc-juncture-done", "0 benefits for Ada, 2 complications for Bo");

    // The Bonus stays on Ada until the end of the session, on her sheet and in her rolls.
    choose(&session, "#sc-roll-bonus-lasts", "session");
    press(&session, "#sc-roll-keep-bonus");
    wait_contains(&session, "#sc-roll-bonus-kept", "Ada keeps the Bonus of +2");
    press(&session, "#sc-tab-table");
    wait_contains(&session, &format!(".sc-character[data-character-id='{ada}']"), "+2 residual modifiers");
    press(&session, &format!(".sc-character[data-character-id='{ada}'] .sc-open-sheet"));
    wait_contains(&session, "#sc-sheet-mod-total", "Together +2 to every roll");
    shots_of(&session, "scattershot-table-modifiers", "#sc-sheet-modifiers");
    press(&session, "#sc-tab-table");
    press(&session, "#sc-session-end");
    wait_contains(&session, "#sc-session-now", "Session 1 has ended");
    assert_eq!(journal().1, 0, "the journal's session 1 ended");
    let left: i64 = conn
        .query_row("SELECT count(*) FROM sc_modifiers WHERE character_id = ?1", [&ada], |r| r.get(0))
        .expect("read sc_modifiers");
    assert_eq!(left, 0, "the session's end ends the Bonus");
}

/// Dana's stock of experience dice, as saved.
fn stock_of(conn: &rusqlite::Connection, name: &str) -> (String, i64) {
    conn.query_row("SELECT player_id, dice FROM sc_players WHERE name = ?1", [name], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("read sc_players")
}

#[test]
fn one_player_of_two_characters_holds_one_stock_of_experience_dice() {
    let (_window, _scratch, db_path, session) = begin_with("scattershot-players", open);
    let (_game, ada, bo, _cy) = table(&session, "Copper Hollow");
    let conn = db(&db_path);
    // Ada has 2 dice of her own, given by the Gamemaster before anyone is named for her.
    fill_stock(&session, 0, 2);
    give_dice(&session, &ada, "2", "2");

    // Dana joins the table and is named for Ada: Ada's 2 dice join Dana's stock.
    press(&session, "#sc-tab-table");
    session.wait_for("#sc-players-none");
    type_into(&session, "#sc-player-name", "Dana");
    press(&session, "#sc-player-add");
    session.wait_for("#sc-players-list");
    let dana = stock_of(&conn, "Dana").0;
    let row = format!("#sc-players-list li[data-player-id='{dana}']");
    wait_contains(&session, &row, "plays nobody yet");
    choose(&session, &format!("#sc-player-of-{ada}"), &dana);
    wait_contains(&session, &row, "Dana plays Ada");
    wait_contains(&session, &row, "2 experience dice");
    assert_eq!((stock_of(&conn, "Dana").1, sheet_row(&conn, &ada).0), (2, 0), "the dice moved, none lost");
    // And for Bo: one stock for both, shown on each character.
    choose(&session, &format!("#sc-player-of-{bo}"), &dana);
    wait_contains(&session, &row, "Dana plays Ada, Bo");
    for who in [&ada, &bo] {
        wait_contains(
            &session,
            &format!(".sc-character[data-character-id='{who}']"),
            "2 experience dice in Dana's stock",
        );
    }
    shots_of(&session, "scattershot-table-players", "#sc-players");
    crate::in_dark(&session, || shots_of(&session, "scattershot-table-players-dark", "#sc-characters"));

    // Ada's sheet points to Dana's stock, set on the Table tab, not on the sheet.
    press(&session, &format!(".sc-character[data-character-id='{ada}'] .sc-open-sheet"));
    wait_contains(&session, "#sc-sheet-dice", "2 experience dice in Dana's stock (Dana plays this character)");
    session.wait_text("#sc-sheet-pool-stock", "Experience dice: Dana's stock, on the Table tab.");
    assert!(session.find("#sc-sheet-pool").is_err(), "no stepper for a stock the sheet does not hold");

    // The rewards list one stock for Dana, none for Ada or Bo.
    press(&session, "#sc-tab-rewards");
    let pool = format!("#sc-pools-list li[data-player-id='{dana}']");
    wait_contains(&session, &pool, "Dana's stock (Ada, Bo)");
    wait_contains(&session, &pool, "2 experience dice");
    assert!(session.find(&format!("#sc-pools-list li[data-character-id='{ada}']")).is_err());

    // Ada's roll names Dana's stock among the dice to add, and the die comes out of it.
    attack(&session, &ada, &bo, "0");
    session.wait_text(&format!("#sc-xp-contributor option[value='{dana}']"), "Dana's stock: 2 left");
    experience_die(&session, &dana, "actor", "3", "add");
    session.wait_text(&format!("#sc-xp-contributor option[value='{dana}']"), "Dana's stock: 1 of 2 left");
    shots_of(&session, "scattershot-table-players-roll", "#sc-xp-form");
    enter_2d10(&session, "actor", "3", "4");
    press(&session, "#sc-roll-decide");
    session.wait_until("Dana's stock paid", || Some(stock_of(&conn, "Dana").1).filter(|&n| n == 1));
    assert_eq!((sheet_row(&conn, &ada).0, sheet_row(&conn, &bo).0), (0, 0));

    // Dana goes by Dani now: renamed on the Table tab, her stock and characters kept.
    press(&session, "#sc-tab-table");
    press(&session, &format!("#sc-player-rename-{dana}"));
    let input = session.wait_for("#rename-input");
    input.clear();
    input.send_keys("Dani");
    session.click("#rename-submit");
    wait_contains(&session, &row, "Dani plays Ada, Bo");
    assert_eq!(stock_of(&conn, "Dani"), (dana.clone(), 1));
    shots_of(&session, "scattershot-table-players-renamed", "#sc-players");
    crate::in_dark(&session, || shots_of(&session, "scattershot-table-players-renamed-dark", "#sc-players"));

    // Dani leaves the group: refused while she plays Ada and Bo, saying so.
    press(&session, &format!("#sc-player-remove-{dana}"));
    wait_contains(&session, "#error-message", "Dani still plays Ada, Bo");
    // Brought into sight, as the refusal of a tap far down the tab is (not scrolled to here).
    assert!(crate::on_screen(&session, "#error"), "the refusal shows without scrolling");
    shots_of(&session, "scattershot-table-players-remove-refused", "#error");
    press(&session, "#error-dismiss");
    session.wait_until("the error dismissed", || session.find("#error").ok().filter(|e| !e.is_displayed()).map(|_| ()));
    // Ada and Bo stand as their own again; then she goes, and her last die goes to the
    // Gamemaster's stock, none lost.
    for who in [&ada, &bo] {
        choose(&session, &format!("#sc-player-of-{who}"), "");
        wait_contains(&session, &format!(".sc-character[data-character-id='{who}']"), "0 experience dice");
    }
    wait_contains(&session, &row, "Dani plays nobody yet");
    press(&session, &format!("#sc-player-remove-{dana}"));
    session.wait_for("#sc-players-none");
    wait_contains(&session, "#sc-gm-dice-now", "The Gamemaster holds 1 experience die");
    let players: i64 = conn.query_row("SELECT count(*) FROM sc_players", [], |r| r.get(0)).unwrap();
    assert_eq!(players, 0);
    shots_of(&session, "scattershot-table-players-removed", "#sc-players");
}
