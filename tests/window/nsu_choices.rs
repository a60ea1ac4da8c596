//! Issue 34 in the No Stone Unturned roll wizard: at the mood step, under the rules hints,
//! every approach (aspect and mood) with its chances, the best marked, as the library's
//! `rules::nsu::choices::approaches` counts them for the same sheet and set-up; tapping one
//! sets that aspect and mood.

use serde_json::json;
use sheetkeeper::rules::nsu::choices::{approaches, Approach};
use sheetkeeper::rules::nsu::roll::{AtRisk, Edge, MoodChoice, RollSetup};
use sheetkeeper::rules::nsu::{Aspect, Die, Sheet};

use crate::fixtures::{nsu_fixture, write_game_file, WREN};
use crate::nsu_roll::{
    new_win_chance, next, on_to_the_mood, on_to_the_odds, open_imported, tap, text_of, wait_step, win_chance,
};
use crate::webdriver::Session;
use crate::{begin, click_in_character_row, in_dark, shots_at_both_widths_with};

/// The word the window shows for a serialized value (an aspect, a die, an edge).
fn word(value: impl serde::Serialize) -> String {
    serde_json::to_value(value).expect("serializes").as_str().expect("a word").to_string()
}

/// "Heart with “Curious” (d8, disadvantage): " — what a row says before its chances.
fn row_start(sheet: &Sheet, a: &Approach) -> String {
    let aspect = word(a.aspect);
    let aspect = aspect[..1].to_uppercase() + &aspect[1..];
    let mood = match &sheet.moods[a.mood_line] {
        Some(m) => format!("“{}”", m.name),
        None => "a new mood".to_string(),
    };
    let edge = if a.plan.mood_edge == Edge::None { String::new() } else { format!(", {}", word(a.plan.mood_edge)) };
    format!("{aspect} with {mood} ({}{edge}): ", word(a.plan.mood_die))
}

/// The percentage before `words` in `row` ("42.0% to win" → 42.0).
fn percent_before(row: &str, words: &str) -> f64 {
    let end = row.find(&format!("% {words}")).unwrap_or_else(|| panic!("no “% {words}” in {row:?}"));
    let start = row[..end].rfind(' ').map_or(0, |i| i + 1);
    row[start..end].parse().unwrap_or_else(|e| panic!("{row:?}: {e}"))
}

/// The rows listed now, in order.
fn rows(session: &Session, count: usize) -> Vec<String> {
    session.wait_until(&format!("{count} approaches listed"), || {
        let rows: Vec<String> =
            session.find_all("#roll-approach-list .roll-approach").iter().map(|b| b.text()).collect();
        (rows.len() == count).then_some(rows)
    })
}

/// Each row says the library's approach: its aspect, mood, die and edge, its chances to win
/// and to tie to the tenth shown, and "— best" or "— best for <aspect>" exactly where the
/// library marks it.
fn assert_rows(sheet: &Sheet, shown: &[String], expected: &[&Approach]) {
    assert_eq!(shown.len(), expected.len(), "{shown:#?}");
    for (row, a) in shown.iter().zip(expected) {
        let start = row_start(sheet, a);
        assert!(row.starts_with(&start), "{row:?} starts with {start:?}");
        for (words, chance) in [("to win", a.odds.win), ("to tie", a.odds.tie)] {
            let exact = chance.probability() * 100.0;
            let shown = percent_before(row, words);
            assert!((shown - exact).abs() <= 0.05 + 1e-9, "{row:?}: {words} {shown}% for the library's {exact}%");
        }
        let aspect = start.split(' ').next().expect("the aspect");
        let mark = if a.best {
            " — best".to_string()
        } else if a.best_for_aspect {
            format!(" — best for {aspect}")
        } else {
            String::new()
        };
        assert!(row.ends_with(&format!("to tie{mark}")), "{row:?} ends with {mark:?}");
    }
}

fn checked(session: &Session, id: &str) -> bool {
    session.execute("return document.getElementById(arguments[0]).checked;", json!([id])) == json!(true)
}

/// Screenshots of the mood step with the approaches in view, at 1280 and 360 px wide.
fn approach_shots(session: &Session, name: &str) {
    let to_list = || {
        session.execute("document.getElementById('roll-approaches').scrollIntoView({ block: 'start' });", json!([]));
        session.wait_for_paint();
    };
    shots_at_both_widths_with(session, name, to_list, || {
        let overflow = session.execute(
            "const d = document.getElementById('roll-wizard'); return d.scrollWidth - d.clientWidth;",
            json!([]),
        );
        assert!(overflow.as_f64().unwrap_or(1.0) <= 0.0, "{name}: nothing sticks out sideways at 360 px ({overflow})");
    });
}

/// Wren as the fixture has her (Wary, her d6 mood, overloaded: acting with it gives mood
/// advantage, with any other mood disadvantage), Heart chosen with her Character at risk:
/// the mood step lists Heart's six mood lines, then all eighteen approaches, each as the
/// library counts it. Tapping an approach of another aspect sets both radios; the odds step
/// shows the same chance to win as its row; a helper's d6 offered there changes the list to
/// the library's count with that die.
#[test]
fn every_approach_s_chances_at_the_mood_step() {
    let (_window, scratch, db_path) = begin("nsu-approach");
    let file = scratch.path("approach.sheetkeeper.json");
    let game = nsu_fixture();
    let wren = &game["data"]["games"][0]["characters"][0];
    assert_eq!(wren["id"], WREN);
    let sheet: Sheet = serde_json::from_value(wren["nsu"].clone()).expect("Wren's sheet");
    write_game_file(&file, &game);
    let session = open_imported(&db_path, &file);

    let setup = RollSetup::new("x", Aspect::Heart, AtRisk::Character, MoodChoice::Existing { line: 0 });
    let library = approaches(&sheet, &setup, None).expect("Wren's approaches");
    assert_eq!(library.len(), 18, "three aspects, six mood lines");
    let of = |aspect: Aspect, all: &[Approach]| all.iter().filter(|a| a.aspect == aspect).cloned().collect::<Vec<_>>();

    click_in_character_row(&session, "Wren Ashdown", ".character-roll");
    wait_step(&session, "outcome");
    on_to_the_mood(&session, "Calm the frightened miller", "heart", "character");
    wait_step(&session, "mood");

    // Heart's moods first, phrased as chances, the best for Heart marked.
    let heart = of(Aspect::Heart, &library);
    let shown = rows(&session, 6);
    assert_rows(&sheet, &shown, &heart.iter().collect::<Vec<_>>());
    assert!(shown.iter().any(|r| r.contains("— best")), "the best for Heart is marked: {shown:#?}");
    assert!(session.find_all("#roll-approach-list [aria-pressed='true']").is_empty(), "no mood chosen yet");

    // Every aspect: eighteen rows, the best overall marked.
    tap(&session, "#roll-approach-all");
    let shown = rows(&session, 18);
    assert_rows(&sheet, &shown, &library.iter().collect::<Vec<_>>());
    let best = library.iter().position(|a| a.best).expect("a best approach");
    assert!(shown[best].ends_with("— best"), "the best overall: {:?}", shown[best]);

    // Tapping an approach of another aspect sets the aspect and the mood.
    let pick = library.iter().find(|a| a.aspect == Aspect::Body && a.mood_line == 2).expect("Body with Wary");
    let id = format!("#roll-approach-body-{}", pick.mood_line);
    tap(&session, &id);
    session.wait_until("the tapped approach chosen", || {
        (session.wait_for(&id).attribute("aria-pressed").as_deref() == Some("true")).then_some(())
    });
    assert!(checked(&session, "roll-mood-2"), "Wary's radio is on");
    let focused = session.execute("return document.activeElement.id;", json!([]));
    assert_eq!(focused, json!("roll-approach-body-2"), "the focus stays on the row tapped (drawn again at once)");
    approach_shots(&session, "nsu-approach");
    in_dark(&session, || approach_shots(&session, "nsu-approach-dark"));
    session.click("#roll-back");
    wait_step(&session, "aspect");
    assert!(checked(&session, "roll-aspect-body"), "the aspect is Body now");
    assert!(checked(&session, "roll-at-risk-character"), "what is at risk stays");
    next(&session);
    wait_step(&session, "mood");
    rows(&session, 18);

    // The odds step shows the chance of the row tapped; a helper's d6 offered there …
    on_to_the_odds(&session);
    let win = win_chance(&session);
    let body_wary = rows_after(&session, &sheet, pick, &win);
    session.click("#roll-helper-die option[value='d6']");
    new_win_chance(&session, "the odds with a helper's d6", &win);
    // … counts in every approach, back at the mood step.
    back_to_the_mood(&session);
    assert!(text_of(&session, "#roll-approaches").contains("helper’s d6"), "the list says it counts the helper");
    let helped = approaches(&sheet, &setup, Some((Die::D6, Edge::None))).expect("with a helper");
    let shown = rows(&session, 18);
    assert_ne!(shown, body_wary, "the helper's die changes the chances");
    assert_rows(&sheet, &shown, &helped.iter().collect::<Vec<_>>());
}

/// The rows at the mood step said for `pick` the chance to win that the odds step shows
/// (`win`, "61.3%"); returns what the rows said.
fn rows_after(session: &Session, sheet: &Sheet, pick: &Approach, win: &str) -> Vec<String> {
    back_to_the_mood(session);
    let shown = rows(session, 18);
    let row = shown.iter().find(|r| r.starts_with(&row_start(sheet, pick))).expect("the tapped row");
    assert!(row.contains(&format!(": {win} to win")), "the odds step's {win} in {row:?}");
    on_to_the_odds(session);
    shown
}

/// From the odds step, Back past the details to the mood step.
fn back_to_the_mood(session: &Session) {
    session.click("#roll-back");
    wait_step(session, "details");
    session.click("#roll-back");
    wait_step(session, "mood");
}
