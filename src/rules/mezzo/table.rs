//! A Mezzo table: the players, the arc being played, and the story elements that are not
//! characters (objects, locations, factions, goals). A character's element is its sheet,
//! kept with the character so that it travels with it; everything else lives here.
//!
//! Later parts of the table (plot hooks, the seed deck, the conflict or challenge being
//! played) join this struct as they are built; each is `#[serde(default)]` so older files
//! and snapshots still read.

use serde::{Deserialize, Serialize};

use super::element::{Element, Player};

/// Everything a Mezzo game keeps beyond its characters' sheets.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MezzoTable {
    /// The arc being played, from 1 (0 before the first starts).
    #[serde(default)]
    pub arc: u32,
    #[serde(default)]
    pub players: Vec<Player>,
    /// Story elements other than characters.
    #[serde(default)]
    pub elements: Vec<Element>,
}
