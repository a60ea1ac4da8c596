//! The `sheetkeeper` command line as the tests run it: its output read as text or JSON, and
//! a refused call checked for its exit code and message.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the CLI with `args`; `SHEETKEEPER_DB` is `db`, or not set.
pub fn run(args: &[&str], db: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sheetkeeper"));
    command.args(args).env_remove("SHEETKEEPER_DB");
    if let Some(db) = db {
        command.env("SHEETKEEPER_DB", db);
    }
    command.output().expect("the CLI runs")
}

/// What a successful run printed.
pub fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// What a successful run printed, as JSON.
pub fn json(out: &Output) -> Value {
    let text = stdout(out);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Runs `args` with no database and checks the exit code, that stderr mentions `named` and
/// that nothing was printed on stdout.
pub fn check_error(args: &[&str], code: i32, named: &str) {
    let out = run(args, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(stderr.contains(named), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
}
