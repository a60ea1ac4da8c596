//! `sheetkeeper odds nsu`: the library's exact odds as JSON, usage errors, no database.

use std::process::{Command, Output};

use serde_json::Value;
use sheetkeeper::rules::nsu::odds::{action_odds, ActionRollSetup};
use sheetkeeper::rules::nsu::roll::{AtRisk, Edge};
use sheetkeeper::rules::nsu::Die;

use crate::support::cli::{run, stdout};
use crate::support::Scratch;

fn odds_nsu(args: &[&str]) -> Output {
    run(&[&["odds", "nsu"][..], args].concat(), None)
}

/// The flags that describe `setup`.
fn flags(setup: &ActionRollSetup) -> Vec<String> {
    let mut flags = vec![
        "--aspect-die".to_owned(),
        setup.aspect_die.sides().to_string(),
        "--mood-die".to_owned(),
        setup.mood_die.sides().to_string(),
        "--at-risk".to_owned(),
        match setup.at_risk {
            AtRisk::Character => "character".to_owned(),
            AtRisk::World => "world".to_owned(),
        },
        "--skill".to_owned(),
        setup.skill.to_string(),
    ];
    for (edge, name) in [(setup.aspect_edge, "aspect"), (setup.mood_edge, "mood"), (setup.helper_edge, "helper")] {
        match edge {
            Edge::None => {}
            Edge::Advantage => flags.push(format!("--{name}-advantage")),
            Edge::Disadvantage => flags.push(format!("--{name}-disadvantage")),
        }
    }
    if let Some(helper) = setup.helper_die {
        flags.extend(["--helper-die".to_owned(), helper.sides().to_string()]);
    }
    flags
}

/// Runs the CLI for `setup` and checks its JSON against the library, value by value and
/// margin keys in ascending order.
fn check(setup: ActionRollSetup) {
    let flags = flags(&setup);
    let text = stdout(&odds_nsu(&flags.iter().map(String::as_str).collect::<Vec<_>>()));
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let odds = action_odds(&setup);
    let close = |got: &Value, want: f64| {
        let got = got.as_f64().unwrap_or_else(|| panic!("a number: {got}"));
        assert!((got - want).abs() <= 1e-14 * want.max(1e-300), "{got} ≠ {want} for {setup:?}");
    };
    close(&json["win"], odds.win.probability());
    close(&json["tie"], odds.tie.probability());
    close(&json["lose"], odds.lose.probability());
    let margin = json["margin"].as_object().expect("a margin object");
    assert_eq!(margin.len(), odds.margin.len(), "{text}");
    let mut last_at = 0;
    for (m, chance) in &odds.margin {
        close(&margin[&m.to_string()], chance.probability());
        let at = text.find(&format!("\"{m}\":")).expect("every margin is a key");
        assert!(at > last_at, "margin keys ascend: {text}");
        last_at = at;
    }
}

fn setup(aspect_die: Die, mood_die: Die, at_risk: AtRisk) -> ActionRollSetup {
    ActionRollSetup::new(aspect_die, mood_die, at_risk)
}

#[test]
fn odds_nsu_prints_the_librarys_odds() {
    check(setup(Die::D6, Die::D6, AtRisk::Character));
    check(setup(Die::D4, Die::D8, AtRisk::World));
    check(ActionRollSetup { aspect_edge: Edge::Advantage, skill: 2, ..setup(Die::D8, Die::D4, AtRisk::Character) });
    check(ActionRollSetup {
        aspect_edge: Edge::Disadvantage,
        mood_edge: Edge::Advantage,
        skill: 1,
        helper_die: Some(Die::D6),
        ..setup(Die::D8, Die::D6, AtRisk::World)
    });
    check(ActionRollSetup {
        mood_edge: Edge::Disadvantage,
        helper_die: Some(Die::D4),
        ..setup(Die::D6, Die::D8, AtRisk::Character)
    });
    check(ActionRollSetup {
        helper_die: Some(Die::D8),
        helper_edge: Edge::Advantage,
        ..setup(Die::D6, Die::D6, AtRisk::World)
    });
    check(ActionRollSetup {
        helper_die: Some(Die::D6),
        helper_edge: Edge::Disadvantage,
        ..setup(Die::D6, Die::D4, AtRisk::Character)
    });
    // A skill so high that the player cannot lose: "lose" is an exact zero.
    check(ActionRollSetup { skill: 9, ..setup(Die::D8, Die::D8, AtRisk::Character) });
}

#[test]
fn odds_nsu_prints_exact_values_to_fifteen_significant_digits() {
    let text = stdout(&odds_nsu(&["--aspect-die", "6", "--mood-die", "6", "--at-risk", "character"]));
    assert_eq!(
        text.trim_end(),
        concat!(
            r#"{"win":0.416666666666667,"tie":0.166666666666667,"lose":0.416666666666667,"margin":{"#,
            r#""-5":0.0277777777777778,"-4":0.0555555555555556,"-3":0.0833333333333333,"-2":0.111111111111111,"#,
            r#""-1":0.138888888888889,"0":0.166666666666667,"1":0.138888888888889,"2":0.111111111111111,"#,
            r#""3":0.0833333333333333,"4":0.0555555555555556,"5":0.0277777777777778}}"#
        )
    );
    // An even split is written with its full precision, not as 0.5.
    let text = stdout(&odds_nsu(&["--aspect-die", "4", "--mood-die", "4", "--at-risk", "world", "--skill", "1"]));
    assert!(text.contains(r#""win":0.625000000000000,"#), "{text}");
}

#[test]
fn odds_nsu_never_opens_a_database() {
    let s = Scratch::new();
    let db = s.db();
    let out = Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .arg("--db")
        .arg(&db)
        .args(["odds", "nsu", "--aspect-die", "8", "--mood-die", "4", "--at-risk", "world"])
        .env("SHEETKEEPER_DB", s.file("from-env.db"))
        .output()
        .expect("the CLI runs");
    stdout(&out);
    assert!(!db.exists() && !s.file("from-env.db").exists(), "no database file was created");
}

#[test]
fn odds_nsu_usage_errors_exit_2_naming_the_argument() {
    let base = ["--aspect-die", "6", "--mood-die", "6", "--at-risk", "character"];
    let cases: [(&[&str], &str); 6] = [
        (&["--aspect-advantage", "--aspect-disadvantage"], "--aspect-disadvantage"),
        (&["--mood-disadvantage", "--mood-advantage"], "--mood-"),
        (&["--helper-die", "10"], "--helper-die"),
        (&["--skill=-1"], "--skill"),
        (&["--skill", "256"], "--skill"),
        (&["--at-risk", "both"], "--at-risk"),
    ];
    for (extra, named) in cases {
        let out = odds_nsu(&[&base[..], extra].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(named), "{extra:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{extra:?}");
    }
    let out = odds_nsu(&["--aspect-die", "5", "--mood-die", "6", "--at-risk", "world"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--aspect-die"));
    let out = odds_nsu(&["--aspect-die", "6", "--mood-die", "6"]);
    assert_eq!(out.status.code(), Some(2), "--at-risk is required");
}
