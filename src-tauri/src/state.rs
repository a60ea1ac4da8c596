//! The window's one piece of state: the open database (or why it could not be opened).

use std::sync::{Mutex, MutexGuard};

use sheetkeeper::Store;

use crate::error::AppError;

pub struct AppState {
    store: Result<Mutex<Store>, String>,
}

impl AppState {
    pub fn new(store: sheetkeeper::Result<Store>) -> Self {
        AppState { store: store.map(Mutex::new).map_err(|e| format!("The database could not be opened: {e}")) }
    }

    /// The store, for one command at a time.
    pub fn store(&self) -> Result<MutexGuard<'_, Store>, AppError> {
        let store = self.store.as_ref().map_err(|e| AppError::unavailable(e))?;
        // A panic while holding the lock cannot leave a half-written change behind (every
        // write is one transaction), so a poisoned lock is safe to reuse.
        Ok(store.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }
}
