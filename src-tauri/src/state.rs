//! The window's state: the open database (or why it could not be opened), and the files a
//! person picked to import but has not yet imported or cancelled.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use sheetkeeper::exchange::Preview;
use sheetkeeper::Store;
use uuid::Uuid;

use crate::error::AppError;

pub struct AppState {
    store: Result<Mutex<Store>, String>,
    imports: Mutex<Imports>,
}

impl AppState {
    pub fn new(store: sheetkeeper::Result<Store>) -> Self {
        AppState {
            store: store.map(Mutex::new).map_err(|e| format!("The database could not be opened: {e}")),
            imports: Mutex::new(Imports::default()),
        }
    }

    /// The store, for one command at a time. Callers hold it only inside a synchronous
    /// command or a blocking task, never across an `.await`.
    pub fn store(&self) -> Result<MutexGuard<'_, Store>, AppError> {
        let store = self.store.as_ref().map_err(|e| AppError::unavailable(e))?;
        // A panic while holding the lock cannot leave a half-written change behind (every
        // write is one transaction), so a poisoned lock is safe to reuse.
        Ok(store.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// The picked imports. Held only for a lookup or an update, never while the store is
    /// locked or a file is read, so the two locks are never held together.
    pub fn imports(&self) -> MutexGuard<'_, Imports> {
        // Every method of `Imports` leaves it whole, so a poisoned lock is safe to reuse too.
        self.imports.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A file picked in the open dialog. The page knows it only by its token (and its name).
#[derive(Clone, Debug)]
pub struct PendingImport {
    pub path: PathBuf,
    /// Whether `seen` was planned as copies.
    pub as_copy: bool,
    /// The last preview the page was given for this file: what the person saw.
    pub seen: Preview,
}

/// Picked imports by one-time token (a random UUID v4). A token ends with its import or its
/// cancellation; past `MAX_PENDING` the oldest is forgotten (a page that never cancels
/// cannot grow this without bound).
#[derive(Debug, Default)]
pub struct Imports {
    pending: Vec<(Uuid, PendingImport)>,
}

/// More open imports than a person could be looking at.
const MAX_PENDING: usize = 8;

impl Imports {
    /// Keeps `import` and returns its new token.
    pub fn add(&mut self, import: PendingImport) -> Uuid {
        let token = Uuid::new_v4();
        if self.pending.len() >= MAX_PENDING {
            self.pending.remove(0);
        }
        self.pending.push((token, import));
        token
    }

    /// The import of `token`.
    pub fn get(&self, token: &str) -> Result<&PendingImport, AppError> {
        let token = parse_token(token)?;
        self.pending.iter().find(|(t, _)| *t == token).map(|(_, i)| i).ok_or_else(gone)
    }

    /// Records that the page was shown `preview` (planned with `as_copy`) for `token`.
    pub fn saw(&mut self, token: &str, as_copy: bool, preview: Preview) -> Result<(), AppError> {
        let token = parse_token(token)?;
        let (_, import) = self.pending.iter_mut().find(|(t, _)| *t == token).ok_or_else(gone)?;
        import.as_copy = as_copy;
        import.seen = preview;
        Ok(())
    }

    /// Ends `token` and returns its import, when the page last saw it planned with `as_copy`
    /// (otherwise the token stays and the page is asked to preview again).
    pub fn take(&mut self, token: &str, as_copy: bool) -> Result<PendingImport, AppError> {
        let token = parse_token(token)?;
        let at = self.pending.iter().position(|(t, _)| *t == token).ok_or_else(gone)?;
        if self.pending[at].1.as_copy != as_copy {
            return Err(AppError::invalid(
                "The preview on screen is not for this way of importing; look at it again before importing.",
            ));
        }
        Ok(self.pending.remove(at).1)
    }

    /// Ends `token` without importing; true when it was open.
    pub fn forget(&mut self, token: &str) -> bool {
        let Ok(token) = parse_token(token) else { return false };
        let before = self.pending.len();
        self.pending.retain(|(t, _)| *t != token);
        self.pending.len() != before
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.pending.len()
    }
}

fn parse_token(token: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(token).map_err(|_| gone())
}

/// The same answer for a token that never was, was used, or was cancelled.
fn gone() -> AppError {
    AppError::not_found("This import is no longer open; choose the file again.")
}

#[cfg(test)]
mod tests {
    use sheetkeeper::exchange::{Counts, Kind};

    use super::*;

    fn picked(name: &str) -> PendingImport {
        PendingImport {
            path: PathBuf::from(name),
            as_copy: false,
            seen: Preview {
                kind: Kind::Backup,
                system: None,
                games: vec![],
                characters: vec![],
                counts: Counts::default(),
                digest: String::new(),
            },
        }
    }

    #[test]
    fn a_token_is_random_and_used_once() {
        let mut imports = Imports::default();
        let a = imports.add(picked("a.json")).to_string();
        let b = imports.add(picked("b.json")).to_string();
        assert_ne!(a, b);
        assert_eq!(Uuid::parse_str(&a).unwrap().get_version_num(), 4);
        assert_eq!(imports.get(&a).unwrap().path, PathBuf::from("a.json"));
        assert_eq!(imports.take(&a, false).unwrap().path, PathBuf::from("a.json"));
        assert_eq!(imports.take(&a, false).unwrap_err().kind, "not_found", "a token works once");
        assert!(imports.get(&a).is_err());
        assert!(imports.get(&b).is_ok(), "other tokens are kept");
    }

    #[test]
    fn a_cancelled_token_is_forgotten() {
        let mut imports = Imports::default();
        let a = imports.add(picked("a.json")).to_string();
        assert!(imports.forget(&a));
        assert!(!imports.forget(&a));
        assert_eq!(imports.take(&a, false).unwrap_err().kind, "not_found");
        assert_eq!(imports.len(), 0);
    }

    #[test]
    fn made_up_tokens_and_paths_are_refused_alike() {
        let mut imports = Imports::default();
        imports.add(picked("a.json"));
        for token in ["", "/etc/passwd", "a.json", &Uuid::new_v4().to_string()] {
            let e = imports.take(token, false).unwrap_err();
            assert_eq!((e.kind, e.message.as_str()), ("not_found", gone().message.as_str()), "{token:?}");
            assert!(!imports.forget(token));
        }
        assert_eq!(imports.len(), 1);
    }

    #[test]
    fn apply_needs_the_preview_of_the_same_choice() {
        let mut imports = Imports::default();
        let a = imports.add(picked("a.json")).to_string();
        assert_eq!(imports.take(&a, true).unwrap_err().kind, "invalid");
        assert!(imports.get(&a).is_ok(), "a refused apply keeps the token");
        let mut copies = imports.get(&a).unwrap().seen.clone();
        copies.counts.new = 3;
        imports.saw(&a, true, copies.clone()).unwrap();
        let taken = imports.take(&a, true).unwrap();
        assert!(taken.as_copy);
        assert_eq!(taken.seen, copies, "the last preview shown is what apply checks against");
    }

    #[test]
    fn only_the_newest_few_stay_open() {
        let mut imports = Imports::default();
        let first = imports.add(picked("first.json")).to_string();
        for i in 0..MAX_PENDING {
            imports.add(picked(&format!("{i}.json")));
        }
        assert_eq!(imports.len(), MAX_PENDING);
        assert!(imports.get(&first).is_err());
    }
}
