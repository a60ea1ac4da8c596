//! The one error the window sees: `{kind, message}`, where `kind` is a stable word the UI
//! may branch on and `message` is plain words for people.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AppError {
    pub kind: &'static str,
    pub message: String,
}

impl From<sheetkeeper::Error> for AppError {
    fn from(e: sheetkeeper::Error) -> Self {
        AppError { kind: e.kind(), message: e.to_string() }
    }
}

impl AppError {
    /// The database could not be opened at start-up; every command reports why.
    pub fn unavailable(message: &str) -> Self {
        AppError { kind: "unavailable", message: message.to_owned() }
    }

    /// What the page asked for does not exist (any more).
    pub fn not_found(message: &str) -> Self {
        AppError { kind: "not_found", message: message.to_owned() }
    }

    /// What the page asked for does not make sense as asked.
    pub fn invalid(message: &str) -> Self {
        AppError { kind: "invalid", message: message.to_owned() }
    }

    /// The window itself failed (a command's task panicked): nothing for the person to fix.
    pub fn internal(message: &str) -> Self {
        AppError { kind: "internal", message: message.to_owned() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_kind_and_message() {
        let e = AppError::from(sheetkeeper::Error::NothingToUndo("There is nothing to undo.".into()));
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"kind":"nothing_to_undo","message":"There is nothing to undo."}"#
        );
    }
}
