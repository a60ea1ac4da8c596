//! What the rules' unit tests share: ids by number, the players and Scattershot's
//! characters, a Penny Ante character's pile and the message of an expected error.

use std::fmt::{Debug, Display};

use uuid::Uuid;

use crate::rules::penny_ante::ledger::Account;

/// The id numbered `n`: the tests name players, characters and elements by small numbers.
pub fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

/// The players Ada, Bo and Cy.
pub const ADA: Uuid = Uuid::from_u128(1);
pub const BO: Uuid = Uuid::from_u128(2);
pub const CY: Uuid = Uuid::from_u128(3);

/// Scattershot's characters: Ada's Ash and Alder, Bo's Birch, Cy's Cedar.
pub mod scattershot {
    use uuid::Uuid;

    pub const ASH: Uuid = Uuid::from_u128(11);
    pub const ALDER: Uuid = Uuid::from_u128(12);
    pub const BIRCH: Uuid = Uuid::from_u128(21);
    pub const CEDAR: Uuid = Uuid::from_u128(31);
}

/// The pile of the Penny Ante character numbered `n`.
pub fn ch(n: u128) -> Account {
    Account::Character(id(n))
}

/// The message of the error `result` must be.
pub fn err<T: Debug, E: Display>(result: Result<T, E>) -> String {
    result.unwrap_err().to_string()
}
