//! `sheetkeeper check`: the store's own checks, plus the promise that every game's file
//! imports again.

use super::transfer::export_problems;
use crate::error::Result;
use crate::store::{CheckReport, Store};

/// Checks the whole database: SQLite's integrity and foreign keys, each system's
/// invariants, and that each game, exported now, would pass an import's validation (which
/// catches what points at a character no longer in its game).
pub fn check(store: &Store) -> Result<CheckReport> {
    let mut report = store.check()?;
    report.files = store.snapshot(|read| {
        let mut out = Vec::new();
        for game in read.games()? {
            for problem in export_problems(read, game.id)? {
                out.push(format!("game “{}” ({}): its file would be refused: {problem}", game.name, game.id));
            }
        }
        Ok(out)
    })?;
    report.ok &= report.files.is_empty();
    Ok(report)
}
