//! The `*.sheetkeeper.json` file format: writing it atomically, reading it with a size cap,
//! validating everything before anything is written, and planning an import (new, update,
//! conflict, unchanged) against what this device already holds.
//!
//! No SQL here: services hand in what the store holds and apply the plan in a transaction.

mod file;
mod format;
mod plan;
mod validate;

pub use file::{read_limited, refuse_database_target, write_atomic, MAX_FILE_BYTES};
pub use format::{character_value, to_json, Document, GameEntry, Kind, PennyPile, FORMAT, FORMAT_VERSION};
pub use plan::{plan, Counts, Difference, Item, Local, Plan, Preview, Status};
pub use validate::{parse, parse_at, MAX_PROBLEMS};
