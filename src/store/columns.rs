//! Reading and writing column values the same way in every table: ids as text, positions
//! and counts as integers, enumerations under the names serde gives them. A stored value
//! that does not read back is a conversion error naming its column, never a panic.

use rusqlite::types::{Type, ValueRef};
use rusqlite::Row;
use serde::de::DeserializeOwned;
use serde::Serialize;
use uuid::Uuid;

use crate::error::{Error, Result};

/// Why a stored value could not be read back, as text.
#[derive(Debug)]
pub(super) struct BadValue(pub(super) String);
impl std::fmt::Display for BadValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BadValue {}

/// A value of column `col` that cannot be read back, for `error`'s reason.
pub(super) fn conversion(col: usize, error: impl std::error::Error + Send + Sync + 'static) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(col, Type::Text, Box::new(error))
}

/// A value of column `col` that cannot be read back, for the reason `message`.
pub(super) fn bad(col: usize, message: String) -> rusqlite::Error {
    conversion(col, BadValue(message))
}

/// A stored table that cannot be put back together (rows missing or out of place).
pub(super) fn broken(message: String) -> Error {
    Error::Storage(rusqlite::Error::FromSqlConversionFailure(0, Type::Null, Box::new(BadValue(message))))
}

fn parse_uuid(col: usize, text: &str) -> rusqlite::Result<Uuid> {
    Uuid::parse_str(text).map_err(|e| conversion(col, e))
}

pub(super) fn uuid_at(r: &Row<'_>, col: usize) -> rusqlite::Result<Uuid> {
    parse_uuid(col, &r.get::<_, String>(col)?)
}

pub(super) fn opt_uuid_at(r: &Row<'_>, col: usize) -> rusqlite::Result<Option<Uuid>> {
    r.get::<_, Option<String>>(col)?.map(|t| parse_uuid(col, &t)).transpose()
}

/// A position or index, stored as a non-negative integer.
pub(super) fn index_at(r: &Row<'_>, col: usize) -> rusqlite::Result<usize> {
    let v: i64 = r.get(col)?;
    usize::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(col, v))
}

/// A position as SQLite stores it.
pub(super) fn position(i: usize) -> Result<i64> {
    i64::try_from(i).map_err(|_| Error::invalid("position", "too many rows"))
}

/// The name serde gives a unit variant (`"edge_slot"`): what the schema's CHECKs list and
/// what files carry, so the database and the file format cannot drift apart.
pub(super) fn name_of<T: Serialize>(value: T) -> String {
    // Every type stored this way is a unit-variant enum, which serializes as a string;
    // anything else would be written empty, which the schema's CHECKs refuse.
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// Reads back a name written by [`name_of`].
pub(super) fn named<T: DeserializeOwned>(r: &Row<'_>, col: usize) -> rusqlite::Result<T> {
    let text: String = r.get(col)?;
    serde_json::from_value(serde_json::Value::String(text.clone()))
        .map_err(|_| bad(col, format!("unknown value {text:?}")))
}

pub(super) fn opt_named<T: DeserializeOwned>(r: &Row<'_>, col: usize) -> rusqlite::Result<Option<T>> {
    match r.get_ref(col)? {
        ValueRef::Null => Ok(None),
        _ => named(r, col).map(Some),
    }
}
