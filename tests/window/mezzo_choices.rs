//! Issue 34 in a Mezzo conflict: under the rules hints, each option's odds show its chance
//! with one more vote on it, the largest change marked — the library's numbers, with step
//! dice and in the D6 variant — and once the app rolls the first d6s, each owner who may
//! burst sees the chance to win kept and burst. Photographed at 1280 and 360 px, light and
//! dark.

use serde_json::json;
use sheetkeeper::rules::dice::Entered;
use sheetkeeper::rules::mezzo::choices::{conflict_bursts, next_vote, Better};
use sheetkeeper::rules::mezzo::conflict::{D6Conflict, Variant};
use sheetkeeper::services;
use sheetkeeper::Store;

use crate::mezzo::{conflict_options, open_mezzo, press, shots_of, text_of};
use crate::webdriver::Session;
use crate::{begin, in_dark, open};

/// As the window writes a chance: one decimal, then %.
fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// The table's counted totals, option by option, pressed in with the steppers.
fn totals(session: &Session, votes: &[u32]) {
    press(session, "#mz-entry-totals");
    for (option, &count) in votes.iter().enumerate() {
        for _ in 0..count {
            press(session, &format!("#mz-total-{option}-plus"));
        }
    }
    for (option, &count) in votes.iter().enumerate() {
        let words = if count == 1 { "1 vote".to_owned() } else { format!("{count} votes") };
        session.wait_text(&format!("#mz-votes-{option}"), &words);
    }
}

/// Each option's next-vote line says the library's chance with one more vote, and the
/// largest change (and only it) is marked.
fn next_votes_shown(session: &Session, votes: &[u32], variant: Variant) {
    for choice in next_vote(votes, variant).unwrap() {
        let line = format!("#mz-next-vote-{}", choice.option);
        let want = format!("One more vote here: {} to win", percent(choice.with_vote().probability()));
        session.wait_for(&line);
        let shown = text_of(session, &line);
        assert!(shown.starts_with(&want), "{variant:?} {votes:?}: {shown:?}, not {want:?}");
        assert_eq!(
            shown.ends_with("the largest change"),
            choice.best,
            "{variant:?} {votes:?} option {}: {shown:?}",
            choice.option
        );
    }
}

#[test]
fn each_option_s_next_vote_and_each_burst_show_their_chances() {
    let (_window, _scratch, db_path) = begin("mezzo-choices");
    {
        let mut store = Store::open(&db_path).expect("the database");
        let game = services::create_game(&mut store, "Rope Night", "mezzo").unwrap().game.id;
        services::mezzo_add_player(&mut store, game, "Ada").unwrap();
        services::mezzo_start_arc(&mut store, game).unwrap();
    }
    let session = open(&db_path);
    open_mezzo(&session, "Rope Night");
    press(&session, "#mezzo-tab-conflict");
    conflict_options(&session, "Who reaches the rope first?", &["Mira", "The Ogre", "Nobody"]);

    // Step dice: a d6, a d4 and no dice. A first die for "Nobody" moves its odds the most
    // (from 1.4% to 22.2%).
    totals(&session, &[2, 1, 0]);
    next_votes_shown(&session, &[2, 1, 0], Variant::Steps);
    assert!(text_of(&session, "#mz-next-vote-2").ends_with("the largest change"), "a first die counts most");
    shots_of(&session, "mezzo-next-vote", "#mz-odds-list");
    in_dark(&session, || shots_of(&session, "mezzo-next-vote-dark", "#mz-odds-list"));

    press(&session, "#mz-resolve-submit");
    session.wait_for("#mz-summary");

    // The D6 variant with 5, 6 and 4 votes: a sixth vote starts a new multiplier.
    press(&session, "#mz-new-conflict");
    conflict_options(&session, "Who grabs the rope?", &["Mira", "The Ogre", "Nobody"]);
    press(&session, "#mz-approach-d6");
    totals(&session, &[5, 6, 4]);
    next_votes_shown(&session, &[5, 6, 4], Variant::D6);

    // The app rolls the first d6s; each owner who may burst sees both chances.
    if session.execute("return document.querySelector('#mz-hand').checked;", json!([])) == json!(true) {
        press(&session, "#mz-hand");
    }
    press(&session, "#mz-d6-roll-first");
    session.wait_for("#mz-bursts");
    let firsts: Vec<u8> = (0..3)
        .map(|i| {
            let shown = text_of(&session, &format!("#mz-first-{i}"));
            let face =
                shown.split("showed ").nth(1).and_then(|rest| rest.split(' ').next()).and_then(|f| f.parse().ok());
            face.unwrap_or_else(|| panic!("a first roll in {shown:?}"))
        })
        .collect();
    let conflict = D6Conflict::roll(&[5, 6, 4], &mut Entered::new(firsts.clone())).unwrap();
    let want = conflict_bursts(&conflict).unwrap();
    let shown = session.execute("return [...document.querySelectorAll('.mz-burst-odds')].map((p) => p.id);", json!([]));
    let ids: Vec<String> = want.iter().map(|c| format!("mz-burst-odds-{}", c.option)).collect();
    assert_eq!(shown, json!(ids), "a line for each owner who may burst after {firsts:?}");
    for choice in &want {
        let line = text_of(&session, &format!("#mz-burst-odds-{}", choice.option));
        let (keep, burst) = (percent(choice.keep.probability()), percent(choice.burst.probability()));
        let marked = match choice.better {
            Better::Keep => format!("Keep: {keep} to win — better · Burst: {burst} to win"),
            Better::Burst => format!("Keep: {keep} to win · Burst: {burst} to win — better"),
            Better::Either => format!("Keep: {keep} to win · Burst: {burst} to win (the same either way)"),
        };
        assert_eq!(line, marked, "after {firsts:?}");
    }
    shots_of(&session, "mezzo-burst-odds", "#mz-bursts");
    in_dark(&session, || shots_of(&session, "mezzo-burst-odds-dark", "#mz-bursts"));
    press(&session, "#mz-resolve-submit");
    session.wait_for("#mz-summary");
}
