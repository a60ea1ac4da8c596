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
use super::conflict::Variant;
use super::element::{Element, Player};
use super::plot::{Arc, NoEscape, PlotHook, TurningPoint};
use super::seed_deck::{KeywordDie, SeedDeck};

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
    /// How Leave to Chance rolls at this table: the step dice, or the D6 variant for
    /// conflicts, action checks and challenge actions alike (RULES.md §3.2).
    pub variant: Variant,
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
            variant: Variant::Steps,
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
    /// Written only for the D6 variant, so files of a step-dice table read as before.
    #[serde(default, skip_serializing_if = "is_steps")]
    variant: Variant,
}

fn is_steps(v: &Variant) -> bool {
    *v == Variant::Steps
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
            variant: f.variant,
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
            variant: t.variant,
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

    #[test]
    fn the_d6_variant_is_written_only_when_chosen() {
        let table = MezzoTable { variant: Variant::D6, ..MezzoTable::default() };
        let value = serde_json::to_value(&table).unwrap();
        assert_eq!(value["variant"], "d6");
        assert_eq!(serde_json::from_value::<MezzoTable>(value).unwrap(), table);
        assert!(serde_json::to_value(MezzoTable::default()).unwrap().get("variant").is_none());
    }
}
