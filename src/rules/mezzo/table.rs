//! A Mezzo table: the players, the arc being played with its plot hooks, the story elements
//! that are not characters (objects, locations, factions, goals), the seed deck, the
//! keyword die, and the challenge being played (or the last one, over). A character's
//! element is its sheet, kept with the character so that it travels with it; everything
//! else lives here.
//!
//! Ruling: a table plays one challenge at a time. The finished challenge stays on the table
//! (over) until the next one starts, so that the table can still see how it ended.
//!
//! The arc's number is one fact, [`Arc::number`] (0 before the first arc starts), read as
//! [`MezzoTable::arc`]. Files and event snapshots keep it as `arc`, as they did before the
//! plot joined the table, and carry the rest of the plot without it; a file written before
//! then (no `plot`, no `deck`) reads as a table with no hooks and no deck. Later parts of
//! the table join the file the same way, each with a default, so older files still read.

use serde::{Deserialize, Serialize};

use super::challenge::Challenge;
use super::element::{Element, Player};
use super::plot::{Arc, CustomLaw, Fact, NoEscape, PlotHook, TurningPoint};
use super::seed_deck::{KeywordDie, SeedDeck};
use super::vote::VictoryVotes;

/// Everything a Mezzo game keeps beyond its characters' sheets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "TableFile", into = "TableFile")]
pub struct MezzoTable {
    pub players: Vec<Player>,
    /// Story elements other than characters.
    pub elements: Vec<Element>,
    /// The arc being played: its number (from 1; 0 before the first starts), its Turning
    /// Point, its open plot hooks and No Escape targets.
    pub plot: Arc,
    /// The seed deck, once the table built one.
    pub deck: Option<SeedDeck>,
    /// The dice variant of the seed deck: a keyword per face of the die the table chose.
    pub keyword_die: Option<KeywordDie>,
    /// The challenge being played, or the last one (over) until the next starts.
    pub challenge: Option<Challenge>,
    /// The Setting Laws the table made for this game.
    pub laws: Vec<CustomLaw>,
    /// The facts register: established facts, each with its arc.
    pub facts: Vec<Fact>,
    /// Victory Narration votes bought in the table's challenge, not spent yet.
    pub victory_votes: Vec<VictoryVotes>,
}

impl Default for MezzoTable {
    /// A table before its first arc: no players, no elements, no hooks, no deck.
    fn default() -> Self {
        MezzoTable {
            players: Vec::new(),
            elements: Vec::new(),
            plot: Arc::new(0),
            deck: None,
            keyword_die: None,
            challenge: None,
            laws: Vec::new(),
            facts: Vec::new(),
            victory_votes: Vec::new(),
        }
    }
}

impl MezzoTable {
    /// The arc being played, from 1 (0 before the first starts).
    pub fn arc(&self) -> u32 {
        self.plot.number
    }
}

/// The table as files and event snapshots carry it.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    #[serde(default)]
    arc: u32,
    #[serde(default)]
    players: Vec<Player>,
    #[serde(default)]
    elements: Vec<Element>,
    #[serde(default, skip_serializing_if = "PlotFile::is_empty")]
    plot: PlotFile,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deck: Option<SeedDeck>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keyword_die: Option<KeywordDie>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    challenge: Option<Challenge>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    laws: Vec<CustomLaw>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    facts: Vec<Fact>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    victory_votes: Vec<VictoryVotes>,
}

/// An [`Arc`] without its number, which the table file keeps as `arc`.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlotFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turning_point: Option<TurningPoint>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    hooks: Vec<PlotHook>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    no_escape: Vec<NoEscape>,
}

impl PlotFile {
    fn is_empty(&self) -> bool {
        self.turning_point.is_none() && self.hooks.is_empty() && self.no_escape.is_empty()
    }
}

impl From<TableFile> for MezzoTable {
    fn from(f: TableFile) -> Self {
        let plot = Arc {
            number: f.arc,
            turning_point: f.plot.turning_point,
            hooks: f.plot.hooks,
            no_escape: f.plot.no_escape,
        };
        MezzoTable {
            players: f.players,
            elements: f.elements,
            plot,
            deck: f.deck,
            keyword_die: f.keyword_die,
            challenge: f.challenge,
            laws: f.laws,
            facts: f.facts,
            victory_votes: f.victory_votes,
        }
    }
}

impl From<MezzoTable> for TableFile {
    fn from(t: MezzoTable) -> Self {
        let plot = PlotFile { turning_point: t.plot.turning_point, hooks: t.plot.hooks, no_escape: t.plot.no_escape };
        TableFile {
            arc: t.plot.number,
            players: t.players,
            elements: t.elements,
            plot,
            deck: t.deck,
            keyword_die: t.keyword_die,
            challenge: t.challenge,
            laws: t.laws,
            facts: t.facts,
            victory_votes: t.victory_votes,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use uuid::Uuid;

    use super::*;
    use crate::rules::mezzo::plot::{Investment, Resource};

    #[test]
    fn an_empty_table_is_before_the_first_arc_and_reads_from_an_empty_object() {
        let table = MezzoTable::default();
        assert_eq!(table.arc(), 0);
        assert_eq!(serde_json::to_value(&table).unwrap(), json!({"arc": 0, "players": [], "elements": []}));
        assert_eq!(serde_json::from_value::<MezzoTable>(json!({})).unwrap(), table);
    }

    #[test]
    fn the_arc_number_is_written_once_as_arc_and_the_plot_goes_without_it() {
        let mut table = MezzoTable { plot: Arc::new(3), ..MezzoTable::default() };
        let hook = PlotHook {
            id: Uuid::from_u128(1),
            text: "Where is the map?".into(),
            creator: Uuid::from_u128(2),
            elements: Vec::new(),
            stored: vec![Investment { by: Uuid::from_u128(2), resource: Resource::Influence, points: 2 }],
        };
        table.plot.hooks.push(hook);
        table.deck = Some(SeedDeck::default());
        let value = serde_json::to_value(&table).unwrap();
        assert_eq!(value["arc"], 3);
        assert!(value["plot"].get("number").is_none());
        assert_eq!(value["plot"]["hooks"][0]["stored"][0]["points"], 2);
        assert_eq!(serde_json::from_value::<MezzoTable>(value.clone()).unwrap(), table);

        let mut twice = value;
        twice["plot"]["number"] = json!(3);
        assert!(serde_json::from_value::<MezzoTable>(twice).is_err(), "the number is not written twice");
    }
}
