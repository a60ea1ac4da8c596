//! The `sheetkeeper` command line: JSON output, exit codes, errors on stderr.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::{fixture, game_with, Scratch};

fn sheetkeeper(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("SHEETKEEPER_DB")
        .output()
        .expect("the CLI runs")
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn list_shows_games_and_characters_as_json() {
    let s = Scratch::new();
    let mut store = s.open();
    let game = game_with(&mut store, "Valley", "nsu", &["Wren"]);
    let listed = json(&sheetkeeper(&s.db(), &["--json", "list"]));
    assert_eq!(listed["games"][0]["id"], game.game.id.to_string());
    assert_eq!(listed["games"][0]["system"], "nsu");
    assert_eq!(listed["games"][0]["characters"][0]["name"], "Wren");
    // Without --json: one line per game and character, ids first.
    let text = String::from_utf8(sheetkeeper(&s.db(), &["list"]).stdout).unwrap();
    assert!(text.contains(&format!("{}  Valley (No Stone Unturned)", game.game.id)), "{text}");
}

#[test]
fn check_reports_an_intact_database() {
    let s = Scratch::new();
    drop(s.open());
    let report = json(&sheetkeeper(&s.db(), &["check", "--json"]));
    assert_eq!(report["ok"], true);
    assert_eq!(report["integrity"], serde_json::json!(["ok"]));
}

#[test]
fn export_then_import_on_another_database_with_dry_run_first() {
    let a = Scratch::new();
    let mut store = a.open();
    let game = game_with(&mut store, "Valley", "nsu", &["Wren", "Ash"]);
    let file = a.file("valley.sheetkeeper.json");
    let out = sheetkeeper(&a.db(), &["export", "--game", &game.game.id.to_string(), file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));

    let b = Scratch::new();
    let preview = json(&sheetkeeper(&b.db(), &["--json", "import", file.to_str().unwrap(), "--dry-run"]));
    assert_eq!(preview["counts"]["new"], 3);
    assert_eq!(
        json(&sheetkeeper(&b.db(), &["--json", "list"]))["games"],
        serde_json::json!([]),
        "dry run wrote nothing"
    );

    let report = json(&sheetkeeper(&b.db(), &["--json", "import", file.to_str().unwrap()]));
    assert_eq!(report["counts"]["new"], 3);
    let copy = json(&sheetkeeper(&b.db(), &["--json", "import", "--as-copy", file.to_str().unwrap()]));
    assert_eq!(copy["counts"]["new"], 3);
    assert_eq!(json(&sheetkeeper(&b.db(), &["--json", "list"]))["games"].as_array().unwrap().len(), 2);
}

#[test]
fn export_all_and_backup_write_files() {
    let s = Scratch::new();
    let mut store = s.open();
    game_with(&mut store, "Valley", "nsu", &["Wren"]);
    let all = s.file("all.json");
    assert!(sheetkeeper(&s.db(), &["export", "--all", all.to_str().unwrap()]).status.success());
    assert!(std::fs::read_to_string(&all).unwrap().contains("\"kind\":\"backup\""));
    let backup = s.file("copy.db");
    let done = json(&sheetkeeper(&s.db(), &["--json", "backup", backup.to_str().unwrap()]));
    assert!(done["message"].as_str().unwrap().starts_with("Backed up"));
    let listed = json(&sheetkeeper(&backup, &["--json", "list"]));
    assert_eq!(listed["games"][0]["characters"][0]["name"], "Wren");
}

#[test]
fn invalid_input_exits_1_with_the_problem_on_stderr() {
    let s = Scratch::new();
    let out = sheetkeeper(&s.db(), &["import", fixture("malformed/wrong-types.json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("$.data.games[0].characters[0].revision: expected a whole number"),
        "{}",
        stderr(&out)
    );

    let out = sheetkeeper(&s.db(), &["export", "--character", "nonsense", "x.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--character: \"nonsense\" is not an id"), "{}", stderr(&out));
}

#[test]
fn usage_errors_exit_2() {
    let s = Scratch::new();
    for args in [&["export", "x.json"][..], &["export", "--all", "--game", "g", "x.json"], &["frobnicate"], &[]] {
        let out = sheetkeeper(&s.db(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn sheetkeeper_db_names_the_database_when_no_flag_does() {
    let s = Scratch::new();
    let mut store = s.open();
    game_with(&mut store, "Valley", "nsu", &[]);
    let out = Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .args(["--json", "list"])
        .env("SHEETKEEPER_DB", s.db())
        .output()
        .unwrap();
    assert_eq!(json(&out)["games"][0]["name"], "Valley");
}
