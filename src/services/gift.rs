//! Giving a character, or a whole game, to another device at a linked table: "Give to a
//! device" on the host, "Send to the table" on a joined device. The file travels over the
//! encrypted link instead of through a file dialog, and waits on the other device until its
//! person looks at it: the import preview (new, update, conflict), then import or put away.
//! The network is `crate::link`; this module makes the file, checks one that arrived like an
//! import checks a file, and saves it where the import reads it.

use std::path::{Path, PathBuf};

use serde::Serialize;
use uuid::Uuid;

use super::transfer::{export_text, holds, ExportScope};
use crate::error::{Error, Result};
use crate::exchange::{self, Kind};
use crate::store::Store;

/// A file another device gave this one, waiting for its person.
#[derive(Clone, Debug, Serialize)]
pub struct Gift {
    pub id: Uuid,
    /// The giving device's name.
    pub from: String,
    /// What the file holds, in words: "“Wren”", "the game “Harbor” with 3 character(s)".
    pub what: String,
    /// The file's text, as it travelled.
    #[serde(skip)]
    pub file: String,
}

/// The file to give for `scope` (a character or a game) and what it holds, in words.
/// Refused, as an export would be, for a linked table's game this device holds only as it
/// was shown it.
pub fn gift_file(store: &Store, scope: ExportScope) -> Result<(String, String)> {
    if scope == ExportScope::All {
        return Err(Error::invalid("gift", "a device gives one character or one game at a time"));
    }
    let exported = export_text(store, scope)?;
    // The file format is JSON, so UTF-8: nothing is replaced here.
    Ok((String::from_utf8_lossy(&exported.text).into_owned(), exported.what))
}

/// A file that arrived from the device `from`, checked as an import checks a file (the
/// format, every record, every rule); a backup of a whole device is not given this way.
pub fn receive_gift(from: &str, file: String) -> Result<Gift> {
    let doc = exchange::parse(file.as_bytes()).map_err(|problems| {
        let words: Vec<String> = problems.iter().take(3).map(|p| format!("{}: {}", p.path, p.message)).collect();
        Error::invalid("file", format!("the file sent is not one this app imports ({})", words.join("; ")))
    })?;
    if doc.kind == Kind::Backup {
        return Err(Error::invalid("file", "a device gives one character or one game at a time, not a backup"));
    }
    let from: String = from.chars().filter(|c| !c.is_control()).take(60).collect();
    Ok(Gift { id: Uuid::new_v4(), from, what: holds(&doc), file })
}

/// Saves `gift` as a file in `dir` (made if missing), where the import reads it; the same
/// gift is saved to the same file.
pub fn save_gift(dir: &Path, gift: &Gift) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let path = dir.join(gift_file_name(gift.id));
    exchange::write_atomic(&path, gift.file.as_bytes())?;
    Ok(path)
}

/// Removes the file `save_gift` wrote for `id`, if any (the gift was imported or put away).
pub fn forget_gift(dir: &Path, id: Uuid) {
    let _ = std::fs::remove_file(dir.join(gift_file_name(id)));
}

fn gift_file_name(id: Uuid) -> String {
    format!("received-{id}.sheetkeeper.json")
}

/// Gifts waiting on a device at most; the oldest goes first.
const GIFTS_MAX: usize = 20;

/// Keeps `gift` in `gifts`, forgetting the oldest past `GIFTS_MAX`.
pub fn keep_gift(gifts: &mut Vec<Gift>, gift: Gift) {
    if gifts.len() >= GIFTS_MAX {
        gifts.remove(0);
    }
    gifts.push(gift);
}

/// Takes the gift `id` out of `gifts` (it was imported or put away).
pub fn take_gift(gifts: &mut Vec<Gift>, id: Uuid) -> Result<Gift> {
    match gifts.iter().position(|g| g.id == id) {
        Some(i) => Ok(gifts.remove(i)),
        None => Err(Error::NotFound { what: "file sent from a device", id: id.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_file_is_refused_with_its_problem_named() {
        let e = receive_gift("Ada's phone", "{\"format\": \"something else\"}".into()).unwrap_err();
        assert!(e.to_string().contains("not one this app imports"), "{e}");
        let e = receive_gift("Ada's phone", "not json".into()).unwrap_err();
        assert!(e.to_string().contains("not one this app imports"), "{e}");
    }

    #[test]
    fn gifts_are_kept_up_to_a_limit_and_taken_once() {
        let gift = |n: usize| Gift {
            id: Uuid::new_v4(),
            from: format!("device {n}"),
            what: String::new(),
            file: String::new(),
        };
        let mut gifts = Vec::new();
        let first = gift(0);
        keep_gift(&mut gifts, first.clone());
        for n in 1..=GIFTS_MAX {
            keep_gift(&mut gifts, gift(n));
        }
        assert_eq!(gifts.len(), GIFTS_MAX);
        assert!(take_gift(&mut gifts, first.id).is_err(), "the oldest went first");
        let last = gifts[GIFTS_MAX - 1].id;
        assert_eq!(take_gift(&mut gifts, last).unwrap().from, format!("device {GIFTS_MAX}"));
        assert!(take_gift(&mut gifts, last).is_err(), "a gift is taken once");
    }
}
