//! No Stone Unturned (RULES.md §1): the character sheet, the action roll and its odds,
//! downtime, and the world.

pub mod downtime;
pub mod odds;
pub mod roll;
pub mod sheet;
pub mod world;

pub use sheet::{Aspect, AspectBoxes, Aspects, Detail, Die, Mood, Sentiment, SentimentState, Sheet, Skill};
