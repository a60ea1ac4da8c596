//! `sheetkeeper odds scattershot`: the library's exact Made-It-By odds as JSON, bad input
//! named by its flag, no database.

use std::process::{Command, Output};

use serde_json::Value;
use sheetkeeper::rules::scattershot::odds::mib_odds;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .args(args)
        .env("SHEETKEEPER_DB", "/nonexistent-dir/never-opened.db")
        .output()
        .expect("the CLI runs")
}

fn json(args: &[&str]) -> (String, Value) {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8 output").trim().to_owned();
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (text, value)
}

fn p(value: &Value) -> f64 {
    value.as_f64().unwrap_or_else(|| panic!("a number: {value}"))
}

#[test]
fn hand_counted_odds_at_rating_12() {
    // MIB = 12 − 2d10, from −8 to 10. Success: 2d10 ≤ 12, 1 + 2 + … + 10 + 9 = 64/100.
    // Telling Blow (MIB ≥ 7): 2d10 ≤ 5, 1+2+3+4 = 10/100. Catastrophic (MIB < −7): 2d10 = 20,
    // 1/100.
    let (text, odds) = json(&["odds", "scattershot", "--rating", "12"]);
    assert_eq!(p(&odds["success"]), 0.64, "{text}");
    assert_eq!(p(&odds["telling_blow"]), 0.1, "{text}");
    assert_eq!(p(&odds["catastrophic"]), 0.01, "{text}");
    let mib = odds["mib"].as_object().expect("an mib object");
    assert_eq!(mib.len(), 19, "{text}");
    assert_eq!(p(&mib["10"]), 0.01);
    assert_eq!(p(&mib["1"]), 0.1, "2d10 = 11 comes up 10 ways");
    assert_eq!(p(&mib["-8"]), 0.01);
    let sum: f64 = mib.values().map(p).sum();
    assert!((sum - 1.0).abs() < 1e-12, "{text}");
    // In rising order, as the contract shows ("-12" first).
    assert!(text.contains(r#""mib":{"-8":"#), "{text}");
}

#[test]
fn modifier_and_critical_juncture_change_the_odds() {
    let (_, base) = json(&["odds", "scattershot", "--rating", "12"]);
    let (_, worse) = json(&["odds", "scattershot", "--rating", "12", "--modifier", "-4"]);
    assert!(p(&worse["success"]) < p(&base["success"]));
    assert_eq!(p(&worse["success"]), 0.28, "2d10 ≤ 8: 1 + 2 + … + 7 ways");
    let (_, wide) = json(&["odds", "scattershot", "--rating", "12", "--critical-juncture", "3"]);
    // MIB ≥ 3: 2d10 ≤ 9, 36 ways; MIB < −3: 2d10 ≥ 16, 15 ways.
    assert_eq!(p(&wide["telling_blow"]), 0.36);
    assert_eq!(p(&wide["catastrophic"]), 0.15);
}

#[test]
fn odds_print_the_librarys_exact_values() {
    for (rating, modifier, cj) in [(10, 0, 7), (4, 3, 7), (20, -2, 5), (1, 0, 1), (30, 0, 30)] {
        let (text, _) = json(&[
            "odds",
            "scattershot",
            "--rating",
            &rating.to_string(),
            "--modifier",
            &modifier.to_string(),
            "--critical-juncture",
            &cj.to_string(),
        ]);
        let odds = mib_odds(rating, modifier, cj).unwrap();
        let mib: Vec<String> = odds.mib.iter().map(|(v, c)| format!("\"{v}\":{}", c.decimal(15))).collect();
        let want = format!(
            "{{\"success\":{},\"telling_blow\":{},\"catastrophic\":{},\"mib\":{{{}}}}}",
            odds.success.decimal(15),
            odds.telling_blow.decimal(15),
            odds.catastrophic.decimal(15),
            mib.join(",")
        );
        assert_eq!(text, want);
    }
}

#[test]
fn bad_input_is_named_by_its_flag() {
    let check = |args: &[&str], code: i32, named: &str| {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    };
    check(&["odds", "scattershot"], 2, "--rating");
    check(&["odds", "scattershot", "--rating", "ten"], 2, "--rating");
    check(&["odds", "scattershot", "--rating", "99999"], 1, "--rating");
    check(&["odds", "scattershot", "--rating", "10", "--critical-juncture", "0"], 1, "--critical-juncture");
    check(&["odds", "scattershot", "--rating", "10", "--critical-juncture", "31"], 1, "--critical-juncture");
}
