//! `sheetkeeper odds mezzo`: the library's exact conflict odds as JSON, bad input named by
//! its flag, no database.

use serde_json::Value;
use sheetkeeper::rules::mezzo::conflict::Variant;
use sheetkeeper::rules::mezzo::odds::odds;

use crate::support::cli::{check_error, run, stdout};
use crate::support::Scratch;

/// What a successful run of `args` printed, without its last line break.
fn printed(args: &[&str]) -> String {
    stdout(&run(args, None)).trim().to_owned()
}

/// Runs `odds mezzo` for `votes` and checks the JSON against the library, option by option:
/// the exact decimal text and the value as a number.
fn check(votes: &[u32], variant: Variant) {
    let list = votes.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let mut args = vec!["odds", "mezzo", "--votes", &list];
    if variant == Variant::D6 {
        args.extend(["--variant", "d6"]);
    }
    let text = printed(&args);
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let options = json["options"].as_array().unwrap_or_else(|| panic!("an options array: {text}"));
    let odds = odds(votes, variant).unwrap().options();
    assert_eq!(options.len(), odds.len(), "{text}");
    let decimals: Vec<String> = odds.iter().map(|chance| chance.decimal(15)).collect();
    assert_eq!(text, format!("{{\"options\":[{}]}}", decimals.join(",")));
    for (got, chance) in options.iter().zip(&odds) {
        let (got, want) = (got.as_f64().unwrap(), chance.probability());
        assert!((got - want).abs() <= 1e-14 * want.max(1e-300), "{got} ≠ {want} for {votes:?} {variant:?}");
    }
    let sum: f64 = options.iter().map(|p| p.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-12, "{text}");
}

#[test]
fn odds_print_the_librarys_exact_odds() {
    for variant in [Variant::Steps, Variant::D6] {
        check(&[3, 1, 0], variant);
        check(&[0, 0], variant);
        check(&[6, 10, 11, 2, 5], variant);
        check(&[20; 8], variant);
        check(&[40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25], variant);
    }
}

/// DEV-13: the source caps neither votes nor options; `odds mezzo --votes 41,0` (once refused
/// at 40) prints its odds, and so do 17 options and the new bound's 175 votes.
#[test]
fn odds_beyond_the_old_caps() {
    for variant in [Variant::Steps, Variant::D6] {
        check(&[41, 0], variant);
        check(&[1; 17], variant);
        check(&[175, 174, 3], variant);
    }
    let text = printed(&["odds", "mezzo", "--votes", "41,0"]);
    assert!(text.starts_with(r#"{"options":[0.99"#), "nine dice against none: {text}");
}

#[test]
fn hand_counted_odds() {
    // A d4 against no dice: 3/4 wins, a quarter ties (split).
    assert_eq!(printed(&["odds", "mezzo", "--votes", "1,0"]), r#"{"options":[0.875000000000000,0.125000000000000]}"#);
    // A d8, a d4 and no dice: 143/192, 47/192, 2/192.
    assert_eq!(
        printed(&["odds", "mezzo", "--votes", "3,1,0", "--variant", "steps"]),
        r#"{"options":[0.744791666666667,0.244791666666667,0.0104166666666667]}"#
    );
    // D6: 5 votes (bursts on 1–5) against 6 votes (×2): 35/72.
    assert_eq!(
        printed(&["odds", "mezzo", "--votes", "5, 6", "--variant", "d6"]),
        r#"{"options":[0.486111111111111,0.513888888888889]}"#
    );
    assert_eq!(
        printed(&["odds", "mezzo", "--variant", "d6", "--votes", "0,0,0"]),
        r#"{"options":[0.333333333333333,0.333333333333333,0.333333333333333]}"#
    );
}

#[test]
fn odds_name_the_bad_argument() {
    // Not a count, or more than an option holds: usage (2), from the argument's parser.
    check_error(&["odds", "mezzo", "--votes", "a,1"], 2, "--votes");
    check_error(&["odds", "mezzo", "--votes", "3,,1"], 2, "--votes");
    check_error(&["odds", "mezzo", "--votes=-1,2"], 2, "--votes");
    check_error(&["odds", "mezzo", "--votes", "176,1"], 2, "--votes");
    check_error(&["odds", "mezzo", "--votes", "1,99999999999"], 2, "--votes");
    check_error(&["odds", "mezzo", "--votes", "1,1", "--variant", "d8"], 2, "--variant");
    check_error(&["odds", "mezzo"], 2, "--votes");
    // Too few or too many options: invalid input (1), named by the flag.
    check_error(&["odds", "mezzo", "--votes", ""], 1, "--votes: a conflict has 2 to 32 options, not 0");
    check_error(&["odds", "mezzo", "--votes", "4"], 1, "--votes: a conflict has 2 to 32 options, not 1");
    let many = vec!["1"; 33].join(",");
    check_error(&["odds", "mezzo", "--votes", &many], 1, "--votes: a conflict has 2 to 32 options, not 33");
}

#[test]
fn odds_never_open_the_database() {
    let scratch = Scratch::new();
    let db = scratch.db();
    assert!(run(&["odds", "mezzo", "--votes", "2,1"], Some(&db)).status.success());
    assert!(run(&["--db", db.to_str().unwrap(), "odds", "mezzo", "--votes", "2,1", "--variant", "d6"], None)
        .status
        .success());
    assert!(!db.exists(), "no database was created");
}
