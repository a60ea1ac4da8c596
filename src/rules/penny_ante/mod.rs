//! Penny Ante (RULES.md §2): the Yahtzee score of a hand and the exact odds of a showdown.

pub mod ledger;
pub mod odds;
pub mod score;

pub use score::{score, Category, Hand};
