//! The window's state: the open database (or why it could not be opened), the files a
//! person picked to import but has not yet imported or cancelled, and the linked table this
//! app runs (at most one: hosting one game, or joined to one table).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use sheetkeeper::link::discovery::Advertisement;
use sheetkeeper::link::{HostHandle, JoinHandle};

use sheetkeeper::exchange::Preview;
use sheetkeeper::Store;
use uuid::Uuid;

use crate::error::AppError;

pub struct AppState {
    store: Result<Mutex<Store>, String>,
    imports: Mutex<Imports>,
    link: Mutex<Option<Link>>,
}

/// The link this app runs.
pub enum Link {
    /// Hosting one game; `advert` is its announcement on the network, when multicast works.
    Host { host: Arc<Hosting>, advert: Option<Advertisement> },
    /// Joined to a table.
    Join(Arc<Joined>),
}

/// A link's handle that stops it: a host's, or a joined device's.
pub trait Stop {
    fn stop(self);
}

impl Stop for HostHandle {
    fn stop(self) {
        HostHandle::stop(self)
    }
}

impl Stop for JoinHandle {
    fn stop(self) {
        JoinHandle::stop(self)
    }
}

/// A running link, stopped when the last holder lets go: a command may be reading a host's
/// status while another stops it, and a move may be waiting for the host's answer while
/// "Leave" is pressed.
pub struct Running<H: Stop>(Option<H>);

impl<H: Stop> Running<H> {
    pub fn handle(&self) -> &H {
        self.0.as_ref().expect("a link is stopped only on drop")
    }
}

impl<H: Stop> Drop for Running<H> {
    fn drop(&mut self) {
        if let Some(link) = self.0.take() {
            link.stop();
        }
    }
}

/// A running host.
pub type Hosting = Running<HostHandle>;

/// A joined device's link.
pub type Joined = Running<JoinHandle>;

impl AppState {
    pub fn new(store: sheetkeeper::Result<Store>) -> Self {
        AppState {
            store: store.map(Mutex::new).map_err(|e| format!("The database could not be opened: {e}")),
            imports: Mutex::new(Imports::default()),
            link: Mutex::new(None),
        }
    }

    /// The link slot. Held only to look at, put in or take out the link, never while a link
    /// call waits on the network or while the store is locked.
    fn link(&self) -> MutexGuard<'_, Option<Link>> {
        // Every use below leaves the slot whole, so a poisoned lock is safe to reuse.
        self.link.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts `start`'s link when no other runs; refused (nothing started) when one does.
    pub fn start_link(&self, start: impl FnOnce() -> Result<Link, AppError>) -> Result<(), AppError> {
        let mut slot = self.link();
        if let Some(running) = slot.as_ref() {
            return Err(AppError::invalid(match running {
                Link::Host { .. } => "This device is already hosting a table; stop hosting first.",
                Link::Join(_) => "This device is already joined to a table; leave it first.",
            }));
        }
        *slot = Some(start()?);
        Ok(())
    }

    /// Ends the link (if any); true when one ran. The host or join stops once no command
    /// uses it any more; every device keeps its data.
    pub fn stop_link(&self) -> bool {
        let link = self.link().take();
        link.is_some()
    }

    /// The running host, if this app hosts.
    pub fn hosting(&self) -> Option<Arc<Hosting>> {
        match self.link().as_ref() {
            Some(Link::Host { host, .. }) => Some(Arc::clone(host)),
            _ => None,
        }
    }

    /// Whether the hosted table is announced on the network (false when not hosting).
    pub fn announced(&self) -> bool {
        matches!(self.link().as_ref(), Some(Link::Host { advert: Some(_), .. }))
    }

    /// The running join, if this app is joined to a table.
    pub fn joined(&self) -> Option<Arc<Joined>> {
        match self.link().as_ref() {
            Some(Link::Join(join)) => Some(Arc::clone(join)),
            _ => None,
        }
    }

    /// The store, for one command at a time. Callers hold it only inside a synchronous
    /// command or a blocking task, never across an `.await`. When the command wrote, the
    /// link this app runs is nudged as it lets go, so the change reaches the table at once.
    pub fn store(&self) -> Result<StoreGuard<'_>, AppError> {
        let store = self.store.as_ref().map_err(|e| AppError::unavailable(e))?;
        // A panic while holding the lock cannot leave a half-written change behind (every
        // write is one transaction), so a poisoned lock is safe to reuse.
        let store = store.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let writes = store.writes();
        Ok(StoreGuard { store: Some(store), writes, state: self })
    }

    /// Tells the link this app runs that the database changed.
    fn nudge_link(&self) {
        match self.link().as_ref() {
            Some(Link::Host { host, .. }) => host.handle().nudge(),
            Some(Link::Join(join)) => join.handle().nudge(),
            None => {}
        }
    }

    /// The picked imports. Held only for a lookup or an update, never while the store is
    /// locked or a file is read, so the two locks are never held together.
    pub fn imports(&self) -> MutexGuard<'_, Imports> {
        // Every method of `Imports` leaves it whole, so a poisoned lock is safe to reuse too.
        self.imports.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The store, held by one command (see `AppState::store`).
pub struct StoreGuard<'a> {
    store: Option<MutexGuard<'a, Store>>,
    /// The connection's writes when the command took it.
    writes: u64,
    state: &'a AppState,
}

impl std::ops::Deref for StoreGuard<'_> {
    type Target = Store;
    fn deref(&self) -> &Store {
        self.store.as_ref().expect("the store is let go only on drop")
    }
}

impl std::ops::DerefMut for StoreGuard<'_> {
    fn deref_mut(&mut self) -> &mut Store {
        self.store.as_mut().expect("the store is let go only on drop")
    }
}

impl Drop for StoreGuard<'_> {
    fn drop(&mut self) {
        let wrote = self.store.take().is_some_and(|store| store.writes() != self.writes);
        // The store is let go first: the link slot is never held while the store is locked.
        if wrote {
            self.state.nudge_link();
        }
    }
}

impl Link {
    pub fn host(host: HostHandle, advert: Option<Advertisement>) -> Link {
        Link::Host { host: Arc::new(Running(Some(host))), advert }
    }

    pub fn join(join: JoinHandle) -> Link {
        Link::Join(Arc::new(Running(Some(join))))
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
