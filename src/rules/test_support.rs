//! What the rules' unit tests share: ids by number, a Penny Ante character's pile and the
//! message of an expected error.

use std::fmt::{Debug, Display};

use uuid::Uuid;

use crate::rules::penny_ante::ledger::Account;

/// The id numbered `n`: the tests name players, characters and elements by small numbers.
pub fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

/// The pile of the Penny Ante character numbered `n`.
pub fn ch(n: u128) -> Account {
    Account::Character(id(n))
}

/// The message of the error `result` must be.
pub fn err<T: Debug, E: Display>(result: Result<T, E>) -> String {
    result.unwrap_err().to_string()
}
