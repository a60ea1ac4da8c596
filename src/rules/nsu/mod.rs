//! No Stone Unturned (RULES.md §1): the character sheet, the action roll and its odds,
//! downtime, the world and its scope's guiding questions.

pub mod choices;
pub mod downtime;
pub mod odds;
pub mod quick;
pub mod roll;
pub mod scope;
pub mod scouting;
pub mod sheet;
pub mod world;

pub use sheet::{Aspect, AspectBoxes, Aspects, Detail, Die, Mood, Sentiment, SentimentState, Sheet, Skill};
