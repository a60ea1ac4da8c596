//! Penny Ante (RULES.md §2): the penny ledger, the table (adventures, the House, antagonists,
//! loans), challenges and the campaign's history of them, the Yahtzee score of a hand and the
//! exact odds of a showdown.

pub mod challenge;
pub mod check;
pub mod choices;
pub mod history;
pub mod ledger;
pub mod odds;
pub mod score;
pub mod table;

pub use score::{score, Category, Hand};
