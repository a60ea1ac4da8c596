//! The core's one error type. Every variant carries what a person needs to fix the problem:
//! the field, the value, the file.

use std::fmt;
use std::path::PathBuf;

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// One thing wrong with an imported file, at a JSON path such as `$.data.games[0].name`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// "3 problems", or "more than 100 problems" when the list was cut and its last line counts
/// the rest ([`crate::exchange::MAX_PROBLEMS`]).
fn counted(problems: &[Problem]) -> String {
    match problems.len() {
        1 => "1 problem".into(),
        n if n > crate::exchange::MAX_PROBLEMS => format!("more than {} problems", crate::exchange::MAX_PROBLEMS),
        n => format!("{n} problems"),
    }
}

fn lines(problems: &[Problem]) -> String {
    problems.iter().map(|p| format!("- {p}")).collect::<Vec<_>>().join("\n")
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A value a person typed or sent breaks a rule; `field` names the input.
    #[error("{field}: {problem}")]
    Invalid { field: String, problem: String },

    /// The game or character asked for is not in this database.
    #[error("there is no {what} with id {id}")]
    NotFound { what: &'static str, id: String },

    /// Undo was asked for but the log holds no change that can be taken back.
    #[error("{0}")]
    NothingToUndo(String),

    /// A file failed validation; every problem found is listed, nothing was written.
    #[error("{} cannot be imported ({}); nothing was changed:\n{}", file.display(), counted(problems), lines(problems))]
    BadFile { file: PathBuf, problems: Vec<Problem> },

    /// An import would overwrite changes made on this device; nothing was written.
    #[error("{} would overwrite changes made here ({} conflict{}); nothing was changed. \
        Import as copies, or choose to replace them:\n{}",
        file.display(), conflicts.len(), if conflicts.len() == 1 { "" } else { "s" }, lines(conflicts))]
    Conflict { file: PathBuf, conflicts: Vec<Problem> },

    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },

    /// The bundled SQLite is older than the version the store relies on.
    #[error("SQLite {found} is too old: Sheetkeeper needs {required} or newer")]
    SqliteTooOld { found: String, required: &'static str },

    /// The database was written by a newer Sheetkeeper than this one.
    #[error("the database {} has schema version {found}, newer than this app's {known}; update Sheetkeeper", path.display())]
    DatabaseTooNew { path: PathBuf, found: i64, known: i64 },

    /// SQLite refused an operation (a constraint, a locked or damaged file).
    #[error("database: {0}")]
    Storage(#[from] rusqlite::Error),

    /// A schema migration failed; the database was left at its previous version.
    #[error("database migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),

    /// The linked table could not do what was asked (the host is unreachable, the code did
    /// not match, a message was malformed, the host refused a change); the words say which.
    #[error("{0}")]
    Link(String),
}

impl Error {
    /// A stable one-word name of the variant, for the UI and the CLI's JSON errors.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Invalid { .. } => "invalid",
            Error::NotFound { .. } => "not_found",
            Error::NothingToUndo(_) => "nothing_to_undo",
            Error::BadFile { .. } => "bad_file",
            Error::Conflict { .. } => "conflict",
            Error::Io { .. } => "io",
            Error::SqliteTooOld { .. } | Error::DatabaseTooNew { .. } => "unsupported",
            Error::Storage(_) | Error::Migration(_) => "storage",
            Error::Link(_) => "link",
        }
    }

    pub(crate) fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::Invalid { field: field.into(), problem: problem.into() }
    }

    pub(crate) fn link(message: impl Into<String>) -> Self {
        Error::Link(message.into())
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}
