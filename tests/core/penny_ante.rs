//! `sheetkeeper score penny-ante` and `sheetkeeper odds penny-ante`: the library's hands and
//! exact odds as JSON, bad input named, no database.

use serde_json::Value;
use sheetkeeper::rules::penny_ante::choices::reroll_choices;
use sheetkeeper::rules::penny_ante::odds::{showdown_odds, Dice, Showdown};

use crate::support::cli::{check_error, json, run};
use crate::support::Scratch;

#[test]
fn score_prints_the_best_hand_as_json() {
    for (dice, expected) in [
        (&["6", "6", "6", "5", "5"][..], r#"{"score":28,"category":"chance","dice":[6,6,6,5,5]}"#),
        (&["1", "1", "1", "2", "2"], r#"{"score":25,"category":"full house","dice":[2,2,1,1,1]}"#),
        (&["4", "1", "3", "2"], r#"{"score":30,"category":"small straight","dice":[4,3,2,1]}"#),
        (
            &["1", "2", "3", "4", "5", "6", "6", "6", "6", "1"],
            r#"{"score":40,"category":"large straight","dice":[6,5,4,3,2]}"#,
        ),
        (&["6", "6", "6", "6", "6", "1"], r#"{"score":50,"category":"five of a kind","dice":[6,6,6,6,6]}"#),
    ] {
        let out = run(&[&["score", "penny-ante"][..], dice].concat(), None);
        assert_eq!(json(&out), serde_json::from_str::<Value>(expected).unwrap(), "{dice:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), expected);
    }
}

#[test]
fn score_names_a_bad_die_and_refuses_a_wrong_count() {
    check_error(&["score", "penny-ante", "1", "2", "3", "7"], 1, "dice[3]: 7 is not a face of a d6");
    check_error(&["score", "penny-ante"], 2, "<D>");
    check_error(&["score", "penny-ante", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1"], 2, "<D>");
    check_error(&["score", "penny-ante", "x"], 2, "<D>");
}

/// Runs `odds penny-ante` for `showdown` and checks the JSON against the library.
fn check_odds(showdown: &Showdown) {
    let list = |dice: &[u8]| dice.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let mut args = vec!["odds".to_owned(), "penny-ante".to_owned()];
    for (name, side) in
        [("mine", &showdown.mine), ("theirs", &showdown.theirs), ("circumstances", &showdown.circumstances)]
    {
        if !side.known.is_empty() {
            args.extend([format!("--{name}"), list(&side.known)]);
        }
        args.extend([format!("--{name}-unknown"), side.unknown.to_string()]);
    }
    let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>(), None);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let value = json(&out);
    let odds = showdown_odds(showdown).unwrap();
    for (key, chance) in [("win", odds.win), ("tie", odds.tie), ("lose", odds.lose)] {
        let got = value[key].as_f64().unwrap_or_else(|| panic!("{key} is a number: {text}"));
        let want = chance.probability();
        assert!((got - want).abs() <= 1e-14 * want.max(1e-300), "{key}: {got} ≠ {want} for {showdown:?}");
        assert!(text.contains(&format!("\"{key}\":{}", chance.decimal(15))), "{text}");
    }
    let keys: Vec<usize> = ["\"win\"", "\"tie\"", "\"lose\""].iter().map(|k| text.find(k).unwrap()).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "keys in order: {text}");
}

#[test]
fn odds_print_the_librarys_exact_odds() {
    let dice = |known: &[u8], unknown| Dice { known: known.to_vec(), unknown };
    check_odds(&Showdown { mine: dice(&[6, 6, 3], 2), theirs: dice(&[5, 1], 3), circumstances: dice(&[4, 2], 0) });
    check_odds(&Showdown { mine: dice(&[], 6), theirs: dice(&[], 6), circumstances: dice(&[], 2) });
    check_odds(&Showdown { mine: dice(&[], 1), theirs: dice(&[], 1), circumstances: dice(&[], 0) });
    check_odds(&Showdown { mine: dice(&[6, 6, 6, 6, 6], 0), theirs: dice(&[1], 0), circumstances: dice(&[], 0) });
}

#[test]
fn odds_with_every_list_absent_but_unknown_dice() {
    let out = run(&["odds", "penny-ante", "--mine-unknown", "1", "--theirs-unknown", "1"], None);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r#"{"win":0.416666666666667,"tie":0.166666666666667,"lose":0.416666666666667}"#
    );
}

/// Issue 34: `--choices` prints every choice of mine's seen dice to put back in the cup, as
/// the library counts it, in DESIGN.md's shape, the highest win chance marked best.
#[test]
fn odds_choices_print_every_reroll_with_its_exact_odds() {
    let out = run(&["odds", "penny-ante", "--mine", "6,6,3", "--theirs-unknown", "2", "--choices"], None);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let value = json(&out);
    let mine = Dice { known: vec![6, 6, 3], unknown: 0 };
    let showdown = Showdown { mine, theirs: Dice { known: vec![], unknown: 2 }, circumstances: Dice::default() };
    let want = reroll_choices(&showdown).unwrap();
    let got = value["choices"].as_array().unwrap_or_else(|| panic!("a choices list: {text}"));
    assert_eq!(got.len(), want.len(), "{text}");
    let rerolls: Vec<String> = got.iter().map(|c| c["reroll"].to_string()).collect();
    assert_eq!(rerolls, ["[]", "[3]", "[6]", "[3,6]", "[6,6]", "[3,6,6]"], "the empty set first");
    for (got, want) in got.iter().zip(&want) {
        for (key, chance) in [("win", want.odds.win), ("tie", want.odds.tie), ("lose", want.odds.lose)] {
            let (got, want) = (got[key].as_f64().unwrap_or(f64::NAN), chance.probability());
            assert!((got - want).abs() <= 1e-14, "{key}: {got} ≠ {want}");
        }
        assert_eq!(got["best"], want.best, "{got}");
        assert_eq!(got.as_object().unwrap().len(), 5, "reroll, win, tie, lose, best: {got}");
    }
    // 15 against at most 12: keeping all, or putting back the 3 (6 + 6 + any), always wins.
    let best: Vec<String> = got.iter().filter(|c| c["best"] == true).map(|c| c["reroll"].to_string()).collect();
    assert_eq!(best, ["[]", "[3]"], "{text}");
    check_error(&["odds", "penny-ante", "--mine", "6,9", "--theirs-unknown", "2", "--choices"], 2, "--mine");
}

#[test]
fn odds_name_the_bad_argument() {
    check_error(&["odds", "penny-ante", "--mine", "6,7", "--theirs-unknown", "1"], 2, "--mine");
    check_error(&["odds", "penny-ante", "--theirs", "a", "--mine-unknown", "1"], 2, "--theirs");
    check_error(&["odds", "penny-ante", "--mine-unknown", "x"], 2, "--mine-unknown");
    check_error(
        &["odds", "penny-ante", "--mine-unknown", "9", "--theirs-unknown", "1", "--circumstances", "1,2"],
        1,
        "--mine",
    );
    check_error(&["odds", "penny-ante", "--mine-unknown", "1"], 1, "--theirs");
}

#[test]
fn score_and_odds_never_open_the_database() {
    let scratch = Scratch::new();
    let db = scratch.db();
    assert!(run(&["score", "penny-ante", "1", "2"], Some(&db)).status.success());
    assert!(run(&["--db", db.to_str().unwrap(), "score", "penny-ante", "1", "2"], None).status.success());
    assert!(run(
        &["--db", db.to_str().unwrap(), "odds", "penny-ante", "--mine-unknown", "2", "--theirs-unknown", "1"],
        None
    )
    .status
    .success());
    assert!(!db.exists(), "no database was created");
}
