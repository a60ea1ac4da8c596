//! The `sheetkeeper` command line: JSON output, exit codes, errors on stderr.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::cli::json;
use crate::support::{fixture, game_with, Scratch};

/// The CLI on the database `db`, named with `--db` (`SHEETKEEPER_DB` not set), to be given
/// its arguments.
fn on_db(db: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sheetkeeper"));
    command.arg("--db").arg(db).env_remove("SHEETKEEPER_DB");
    command
}

fn sheetkeeper(db: &Path, args: &[&str]) -> Output {
    on_db(db).args(args).output().expect("the CLI runs")
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

#[test]
fn check_says_each_problem_under_its_section_scattershot_too() {
    let (s, _) = Scratch::with_game("Junkyard", "scattershot", &["Gizmo"]);
    // Five points bought in creation, past a limit of 0: only the rules see it.
    rusqlite::Connection::open(s.db())
        .unwrap()
        .execute("UPDATE sc_sheets SET stage = 'creation', creation_limit = 0, strength = 5", [])
        .unwrap();
    let out = sheetkeeper(&s.db(), &["check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["problems found:", "Scattershot:"], "{text}");
    assert!(lines[2].starts_with("  - Scattershot game “Junkyard”") && lines[2].contains("creation_limit"), "{text}");
    // The same sheet keeps its game's file from importing: the files section says so.
    assert_eq!(lines[3], "files:", "{text}");
    assert!(lines[4].contains("its file would be refused") && lines[4].contains("creation_limit"), "{text}");
    assert_eq!(lines.len(), 5, "integrity's \"ok\" is not a problem: {text}");
}

#[test]
fn a_reader_that_stops_early_is_a_quiet_exit_not_a_panic() {
    let s = Scratch::new();
    let mut store = s.open();
    // Far more output than a pipe holds (64 KiB), so the CLI is still writing when the
    // reader goes away.
    let long = "x".repeat(100);
    for i in 0..200 {
        game_with(&mut store, &format!("{long} {i}"), "nsu", &[&format!("{long} a"), &format!("{long} b")]);
    }
    drop(store);
    for args in [&["--json", "list"][..], &["list"]] {
        let mut child = on_db(&s.db()).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_db_in_a_folder_that_does_not_exist_is_refused_and_nothing_is_created() {
    let s = Scratch::new();
    let folder = s.file("tpyo/data");
    let out = sheetkeeper(&folder.join("x.db"), &["list"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(&format!("the folder {} does not exist", folder.display())), "{}", stderr(&out));
    // The same through $SHEETKEEPER_DB.
    let out = Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .arg("check")
        .env("SHEETKEEPER_DB", folder.join("x.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(&format!("the folder {} does not exist", folder.display())), "{}", stderr(&out));
    assert!(!s.file("tpyo").exists(), "no folder was made");
}

#[cfg(target_os = "linux")]
#[test]
fn the_apps_own_data_folder_is_created_on_first_use() {
    let s = Scratch::new();
    let data = s.file("home/.local/share");
    let out = Command::new(env!("CARGO_BIN_EXE_sheetkeeper"))
        .arg("list")
        .env_remove("SHEETKEEPER_DB")
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(data.join("app.sheetkeeper/sheetkeeper.db").is_file());
}

#[cfg(unix)]
#[test]
fn importing_a_fifo_or_a_folder_is_refused_at_once() {
    let s = Scratch::new();
    let fifo = s.file("pipe.sheetkeeper.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for (file, says) in
        [(fifo.as_path(), "is a named pipe (FIFO), not a file"), (s.dir.path(), "is a folder, not a file")]
    {
        let mut child =
            on_db(&s.db()).arg("import").arg(file).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(20) {
                child.kill().unwrap();
                panic!("import {} still waiting after 20 s", file.display());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains(&format!("{} {says}", file.display())), "{}", stderr(&out));
    }
}

#[test]
fn an_io_error_is_said_once_naming_the_file_asked_for() {
    let s = Scratch::new();
    drop(s.open());
    let target = s.file("nodir/out.sheetkeeper.json");
    let out = sheetkeeper(&s.db(), &["export", "--all", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert_eq!(text.trim_end(), format!("sheetkeeper: {}: No such file or directory (os error 2)", target.display()));
}

#[test]
fn with_json_errors_are_json_on_stderr_and_exit_codes_stay() {
    let s = Scratch::new();
    let error = |out: &Output| -> Value {
        assert!(out.stdout.is_empty());
        serde_json::from_slice(&out.stderr).unwrap_or_else(|e| panic!("{e}: {}", stderr(out)))
    };
    let missing = s.file("missing.json");
    let out = sheetkeeper(&s.db(), &["--json", "import", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let e = error(&out);
    assert_eq!(e["kind"], "io");
    assert!(e["message"].as_str().unwrap().starts_with(&format!("{}: ", missing.display())), "{e}");

    let out = sheetkeeper(&s.db(), &["--json", "export", "--character", "nonsense", "x.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(error(&out)["kind"], "invalid");

    let out = sheetkeeper(&s.db(), &["--json", "import", fixture("malformed/wrong-types.json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(error(&out)["kind"], "bad_file");

    let out = sheetkeeper(&s.db(), &["--json", "frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    let e = error(&out);
    assert_eq!(e["kind"], "usage");
    assert!(e["message"].as_str().unwrap().contains("frobnicate"), "{e}");

    // Without --json, the same errors stay words.
    let out = sheetkeeper(&s.db(), &["import", missing.to_str().unwrap()]);
    assert!(stderr(&out).starts_with("sheetkeeper: "), "{}", stderr(&out));
}

#[test]
fn roll_prints_each_die_and_the_total_and_names_a_bad_expression() {
    let s = Scratch::new();
    let rolled = json(&sheetkeeper(&s.db(), &["roll", "2d6+1d4+3", "--seed", "7"]));
    assert_eq!(rolled["expression"], "2d6+d4+3");
    assert_eq!(rolled["modifier"], 3);
    let dice = rolled["dice"].as_array().expect("the dice");
    let sides: Vec<u64> = dice.iter().map(|d| d["sides"].as_u64().unwrap()).collect();
    assert_eq!(sides, [6, 6, 4]);
    let faces: Vec<u64> = dice.iter().map(|d| d["face"].as_u64().unwrap()).collect();
    assert!(faces.iter().zip(&sides).all(|(f, s)| (1..=*s).contains(f)), "{faces:?}");
    assert_eq!(rolled["total"].as_u64(), Some(faces.iter().sum::<u64>() + 3));
    // The same seed, the same dice; a modifier taken away reads as typed.
    assert_eq!(json(&sheetkeeper(&s.db(), &["roll", "2d6+1d4+3", "--seed", "7"])), rolled);
    assert_eq!(json(&sheetkeeper(&s.db(), &["roll", "-2+3d8", "--seed", "1"]))["expression"], "3d8-2");

    let out = sheetkeeper(&s.db(), &["roll", "2d1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("expression: '2d1': a die has at least 2 sides"), "{}", stderr(&out));

    for args in [&["roll"][..], &["roll", "d6", "--seed", "many"]] {
        let out = sheetkeeper(&s.db(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    assert!(!s.db().exists(), "rolling opens no database");
}
