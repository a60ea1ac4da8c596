//! Mezzo (RULES.md §3): a game without a GM, where the table settles every dispute by votes
//! turned into dice (conflicts), checks actions, and plays challenges between story
//! elements.

pub mod action_check;
pub mod ballot;
pub mod challenge;
pub mod choices;
pub mod conflict;
pub mod element;
pub mod odds;
pub mod open_check;
pub mod open_conflict;
pub mod plot;
pub mod recovery;
pub mod seed_deck;
pub mod table;
pub(crate) mod text;
pub mod vote;
