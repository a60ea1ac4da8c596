//! What the rules' unit tests share: ids by number, the players and Scattershot's
//! characters, Mezzo's cast, a Penny Ante character's pile and the message of an expected
//! error.

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

/// Mezzo's cast by number (for [`id`]): the players Ada, Bo and Cy and the character Mira;
/// and the players and story elements the tests make.
pub mod mezzo {
    use super::id;
    use crate::rules::mezzo::element::{Element, ElementKind, Player};

    pub const ADA: u128 = 1;
    pub const BO: u128 = 2;
    pub const CY: u128 = 3;
    pub const MIRA: u128 = 10;

    /// Player `n`, named `name`.
    pub fn player(n: u128, name: &str) -> Player {
        Player::new(id(n), name).unwrap()
    }

    /// Story element `n`: a `kind` named `name`.
    pub fn element(n: u128, kind: ElementKind, name: &str) -> Element {
        Element::new(id(n), kind, name).unwrap()
    }
}
