//! Issue 32 item 6: a dice tray in every game. In each of the four systems, "Dice" in the
//! screen's bar opens the tray (the focus in it), a preset of the game's own dice and a typed
//! expression roll with their faces and total shown, each roll is in the game's log, a bad
//! expression shows its problem and logs nothing, and closing gives the focus back to "Dice".
//! Screenshots (and the layout check) at 1280 and 360 px, light and dark.

use serde_json::json;

use crate::mezzo::press;
use crate::webdriver::{Session, ESCAPE};
use crate::{begin_with, create_game, dismiss_toast, in_dark, open, open_game, shots_at_both_widths, wait_game_row};

/// The faces shown in the tray and its total.
fn shown_roll(session: &Session) -> (Vec<i64>, i64) {
    let seen = session.execute(
        "return {
           faces: [...document.querySelectorAll('#dice-tray-faces .dice-tray-face')].map((f) => Number(f.textContent)),
           total: Number(document.getElementById('dice-tray-total').textContent),
         };",
        json!([]),
    );
    let faces = seen["faces"].as_array().expect("the faces").iter().map(|f| f.as_i64().expect("a face")).collect();
    (faces, seen["total"].as_i64().expect("the total"))
}

/// Types `expression` into the open tray and rolls it: the faces shown and the total.
pub(crate) fn roll_typed(session: &Session, expression: &str) -> (Vec<i64>, i64) {
    let input = session.wait_for("#dice-tray-expression");
    input.click();
    input.send_keys(expression);
    session.click("#dice-tray-roll");
    session.wait_text("#dice-tray-rolled", expression);
    session.wait_settled();
    shown_roll(session)
}

/// The log lines of `list` (a selector of the log's list) reading like a tray roll.
fn tray_lines(session: &Session, list: &str) -> Vec<String> {
    let lines = session.execute(
        "return [...document.querySelectorAll(arguments[0] + ' li')].map((li) => li.textContent)
           .filter((t) => t.includes('dice tray: '));",
        json!([list]),
    );
    lines.as_array().expect("the lines").iter().map(|l| l.as_str().unwrap_or_default().to_string()).collect()
}

fn wait_focus(session: &Session, selector: &str) {
    let wanted = selector.to_string();
    session.wait_until(&format!("the focus on {selector}"), || {
        let on = session.execute("return document.activeElement?.matches(arguments[0]) ?? false;", json!([wanted]));
        (on == json!(true)).then_some(())
    });
}

/// Rolls the tray's preset `index` (expected to read `expression`), checks the faces on `sides`
/// and the total, and returns the total.
fn roll_preset(session: &Session, index: usize, expression: &str, sides: i64) -> i64 {
    let preset = format!("#dice-tray-preset-{index}");
    assert_eq!(session.wait_for(&preset).attribute("data-expression").as_deref(), Some(expression));
    session.click(&preset);
    session.wait_text("#dice-tray-rolled", expression);
    session.wait_settled();
    let (faces, total) = shown_roll(session);
    let count: usize = expression.split('d').next().and_then(|n| n.parse().ok()).unwrap_or(1);
    assert_eq!(faces.len(), count, "{expression}: one face per die ({faces:?})");
    assert!(faces.iter().all(|f| (1..=sides).contains(f)), "{expression}: faces on the die ({faces:?})");
    assert_eq!(total, faces.iter().sum::<i64>(), "{expression}: the total is the faces' sum");
    total
}

/// Opens the game `game` from home, then its screen through `opener` on the game's panel, and
/// waits for the screen (`#{name}-screen`) to show and settle.
pub(crate) fn open_screen(session: &Session, game: &str, opener: &str, name: &str) {
    wait_game_row(session, game);
    open_game(session, game);
    press(session, opener);
    session.wait_for(&format!("#{name}-screen:not([hidden])"));
    session.wait_settled();
}

#[test]
fn every_game_has_a_dice_tray_whose_rolls_are_logged() {
    let (_window, _scratch, _db, session) = begin_with("dice-tray", open);
    let _ = create_game(&session, "Brackwater", "nsu");
    let _ = create_game(&session, "Penny Night", "penny_ante");
    let _ = create_game(&session, "Mezzo Night", "mezzo");
    let _ = create_game(&session, "Gear Night", "scattershot");
    dismiss_toast(&session);

    // (game, its panel's button, the screen's name, the log tab, the log's list, a preset:
    //  its index, expression and sides)
    for (game, opener, name, log_tab, list, preset) in [
        ("Brackwater", "#game-roll-log", "nsu", "#nsu-tab-log", "#nsu-tray-log-list", (3, "2d4", 4)),
        ("Penny Night", "#game-penny", "penny", "#penny-tab-log", "#penny-log-list", (2, "3d6", 6)),
        ("Mezzo Night", "#game-mezzo", "mezzo", "#mezzo-tab-log", "#mz-log-list", (4, "d12", 12)),
        ("Gear Night", "#game-scattershot", "scattershot", "#sc-tab-log", "#sc-log-list", (0, "2d10", 10)),
    ] {
        open_screen(&session, game, opener, name);
        let dice = format!("#{name}-dice");
        let height = session
            .execute("return document.querySelector(arguments[0]).getBoundingClientRect().height;", json!([dice]));
        assert!(height.as_f64().unwrap_or(0.0) >= 44.0, "{game}: \"Dice\" is a big enough target ({height})");

        // Opened from "Dice": the focus goes into the tray, on its title.
        press(&session, &dice);
        session.wait_for("#dice-tray[open]");
        wait_focus(&session, "#dice-tray-title");

        // The game's own dice.
        let (index, expression, sides) = preset;
        let preset_total = roll_preset(&session, index, expression, sides);

        // A typed expression: faces and the modifier make the total.
        let (faces, total) = roll_typed(&session, "2d6+3");
        assert_eq!(faces.len(), 2, "{game}: two dice for 2d6+3");
        assert!(faces.iter().all(|f| (1..=6).contains(f)), "{game}: {faces:?}");
        assert_eq!(total, faces.iter().sum::<i64>() + 3, "{game}: the total adds the modifier");
        session.wait_until(&format!("{game}: both rolls among the last rolls"), || {
            (session.find_all("#dice-tray-recent li").len() >= 2).then_some(())
        });
        let recent = session.find("#dice-tray-recent li").expect("the newest roll").text();
        assert!(recent.contains(&format!("dice tray: 2d6+3 → {} + {} + 3 = {total}", faces[0], faces[1])), "{recent}");

        if name == "scattershot" {
            in_dark(&session, || shots_at_both_widths(&session, "dice-tray-rolled-dark"));
        } else if name == "nsu" {
            shots_at_both_widths(&session, "dice-tray-rolled");
        }

        // A bad expression: its problem shown, nothing rolled or logged.
        let input = session.wait_for("#dice-tray-expression");
        input.clear();
        input.send_keys("2d1");
        session.click("#dice-tray-roll");
        session.wait_text("#dice-tray-error", "expression: '2d1': a die has at least 2 sides");
        assert_eq!(
            session.find("#dice-tray-rolled").expect("the last roll").text(),
            "2d6+3",
            "{game}: still the last roll"
        );
        if name == "mezzo" {
            shots_at_both_widths(&session, "dice-tray-error");
            in_dark(&session, || shots_at_both_widths(&session, "dice-tray-error-dark"));
        }

        // Closed with Escape: the focus is back on "Dice".
        session.find("#dice-tray-expression").expect("the field").send_keys(ESCAPE);
        session.wait_gone("#dice-tray[open]");
        wait_focus(&session, &dice);

        // Both rolls are in the game's log, the typed one newest; the bad one is not.
        press(&session, log_tab);
        session.wait_for(list);
        session.wait_settled();
        let lines = tray_lines(&session, list);
        assert_eq!(lines.len(), 2, "{game}: the two rolls in the log ({lines:?})");
        assert!(
            lines[0].contains(&format!("dice tray: 2d6+3 → {} + {} + 3 = {total}", faces[0], faces[1])),
            "{lines:?}"
        );
        assert!(lines[1].contains(&format!("dice tray: {expression} → ")), "{lines:?}");
        assert!(lines[1].ends_with(&format!(" {preset_total}")), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains("dice tray: 2d1 ")), "{game}: the bad expression is not logged");
        if name != "nsu" {
            // A roll is not a move: "Undo the last move" is not offered for it.
            let last =
                session.find(&format!("#{}-log-last", list.trim_start_matches('#').trim_end_matches("-log-list")));
            assert!(
                last.map(|l| !l.text().contains("dice tray")).unwrap_or(true),
                "{game}: the last move is not a roll"
            );
        }
        if name == "penny" {
            shots_at_both_widths(&session, "dice-tray-penny-log");
        }
        session.click(&format!("#{name}-back"));
        session.wait_for("#home-layout");
        session.wait_settled();
    }
}
