//! Sheetkeeper's core: the rules of four tabletop RPGs, the SQLite store that keeps every
//! player's sheets, the `*.sheetkeeper.json` file exchange, and the services that the Tauri
//! window and the `sheetkeeper` CLI both call.
//!
//! Layers point one way: `services` → `rules` + `store` + `exchange`. See ARCHITECTURE.md.

pub mod error;
pub mod exchange;
pub mod link;
pub mod model;
pub mod paths;
pub mod rules;
pub mod services;
pub mod store;

pub use error::{Error, Problem, Result};
pub use store::Store;

/// The version written into exported files' `app_version`.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");
