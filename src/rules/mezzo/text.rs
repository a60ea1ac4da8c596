//! Mezzo's two kinds of text, cleaned the same way in every module: a line (a name, a
//! hook's text, a seed card) and a free text (a description, a stake, a trait's
//! properties).

use crate::error::{Error, Result};
use crate::model::{block_chars_problem, text_problem, MAX_NAME_CHARS};

/// The longest text of a trait property, in characters.
pub const MAX_TEXT_CHARS: usize = 2_000;

/// A one-line text: trimmed, not empty, at most `limit` characters, no character a line of
/// text must not hold ([`crate::model::line_chars_problem`]).
pub(crate) fn clean_line(field: &str, raw: &str, limit: usize) -> Result<String> {
    match text_problem(raw, limit) {
        Some(problem) => Err(Error::invalid(field, problem)),
        None => Ok(raw.trim().to_owned()),
    }
}

/// A name: a line of at most [`MAX_NAME_CHARS`].
pub(crate) fn clean_name(field: &str, raw: &str) -> Result<String> {
    clean_line(field, raw, MAX_NAME_CHARS)
}

/// Free text: trimmed, may be empty, at most [`MAX_TEXT_CHARS`], no control characters but
/// line breaks and tabs ([`block_chars_problem`]).
pub(crate) fn clean_text(field: &str, raw: &str) -> Result<String> {
    let text = raw.trim();
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(Error::invalid(field, format!("must be at most {MAX_TEXT_CHARS} characters")));
    }
    if let Some(p) = block_chars_problem(text) {
        return Err(Error::invalid(field, p));
    }
    Ok(text.to_owned())
}
