//! The world a No Stone Unturned table builds together (RULES.md §1.5): safety lists, bans,
//! the settlement, the adventure scope, five resources, the location cards on the map with
//! their collateral clocks, the long-term project clocks the characters own, and the NPCs
//! the table writes details onto (§1.3).
//!
//! Every move takes the world by reference and returns a new world with the events that
//! describe the change; an illegal move returns an error naming the field and changes
//! nothing. The X-card and knocks are things the window offers at all times; they keep no
//! state here.
//!
//! Rulings where the source is silent:
//! - A tick count a person types (`tick_collateral`) outside 0..=8 is refused. Ticks the
//!   rules add as a side effect (a scene detail while the World was at risk, a failed attempt
//!   to address collateral) stop at 8 and the event says `clamped`, so play never stalls on
//!   a full clock.
//! - Segments marked on a project clock beyond its size are dropped; the clock completes.
//! - A player authors at most two locations (Worldbuilding step 6).
//! - A card is placed on one grid cell; no two cards share a cell. Coordinates run from
//!   `-MAP_EXTENT` to `MAP_EXTENT` so the settlement can sit at the origin.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::name_problem;
use crate::rules::dice::DiceSource;
use crate::rules::nsu::sheet::{required_text_problem, text_problem, Detail};
use crate::Problem;

/// A collateral clock is an eight-piece pie.
pub const COLLATERAL_SEGMENTS: u8 = 8;
/// The table names five resources.
pub const RESOURCE_COUNT: usize = 5;
/// Each player authors two location cards.
pub const LOCATIONS_PER_PLAYER: usize = 2;
/// The sizes a long-term project clock may have: "usually" 4, 6 or 8 (Part 3), any from 2
/// to 12 by the table's choice (decision 2026-11-28).
pub const PROJECT_SIZES: std::ops::RangeInclusive<u8> = 2..=12;
/// The sizes offered first.
pub const USUAL_PROJECT_SIZES: [u8; 3] = [4, 6, 8];

/// Why `size` is no project clock's size, if it is not.
fn project_size_problem(size: u8) -> Option<String> {
    (!PROJECT_SIZES.contains(&size))
        .then(|| format!("{size} is not a project size: 2 to 12 segments (usually 4, 6 or 8)"))
}
/// Map coordinates run from `-MAP_EXTENT` to `MAP_EXTENT` on both axes.
pub const MAP_EXTENT: i16 = 64;
/// Danger and reward levels run 1..=4 (one d4 each).
pub const LEVEL_DIE: u8 = 4;

// How long each list of a world may grow: far beyond a table's play, small enough that a
// world read from a file cannot swell the database or the window.
/// Entries in each safety list (lines, veils).
pub const MAX_SAFETY_ENTRIES: usize = 100;
/// Bans: one per player.
pub const MAX_BANS: usize = 100;
/// Statements about the settlement.
pub const MAX_STATEMENTS: usize = 200;
/// Questions about the adventures' scope.
pub const MAX_SCOPE_QUESTIONS: usize = 100;
/// Location cards.
pub const MAX_LOCATIONS: usize = 200;
/// Scene details on one location.
pub const MAX_SCENE_DETAILS: usize = 200;
/// Long-term projects.
pub const MAX_PROJECTS: usize = 200;
/// NPCs.
pub const MAX_NPCS: usize = 500;
/// Details written on one NPC.
pub const MAX_NPC_DETAILS: usize = 100;
/// Paths drawn between cards: far more than a map of two hundred cards needs.
pub const MAX_PATHS: usize = 1000;
/// An NPC's Overcome threshold runs 2..=4 (Part 2: "a threshold … between 2 and 4").
pub const NPC_THRESHOLDS: std::ops::RangeInclusive<u8> = 2..=4;
/// An NPC keeps at most this many harm details (the largest threshold).
pub const MAX_NPC_HARM: usize = 4;

/// Everything the table established in worldbuilding, and what has changed since.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct World {
    pub safety: Safety,
    /// At most one per player; a player who passed has a ban of `None`.
    pub bans: Vec<Ban>,
    /// The settlement's statements in the order they were made.
    pub settlement: Vec<Statement>,
    pub scope: Vec<ScopeQuestion>,
    /// None until the table has named its five resources.
    pub resources: Option<[Resource; RESOURCE_COUNT]>,
    pub locations: Vec<Location>,
    pub projects: Vec<ProjectClock>,
    /// Absent from files and logs written before NPCs existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub npcs: Vec<Npc>,
    /// Where the party is: a revealed card on the map, or None at home. Absent from files
    /// written before the game knew it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party_at: Option<Uuid>,
    /// Paths drawn between two cards on the map, unordered, no two alike.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<MapPath>,
}

/// A path drawn on the map between two placed cards; `a`–`b` is the same path as `b`–`a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapPath {
    pub a: Uuid,
    pub b: Uuid,
}

impl MapPath {
    /// Whether this path joins `x` and `y`, either way round.
    pub fn joins(&self, x: Uuid, y: Uuid) -> bool {
        (self.a == x && self.b == y) || (self.a == y && self.b == x)
    }
}

/// Lines (never brought up) and veils (present but never zoomed in on).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Safety {
    pub lines: Vec<String>,
    pub veils: Vec<String>,
}

/// Which safety list an entry belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SafetyList {
    Lines,
    Veils,
}

/// A player's ban on a story element, or their pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ban {
    pub player: String,
    /// None: the player passed.
    pub ban: Option<String>,
}

/// One statement about the settlement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Statement {
    pub author: String,
    pub text: String,
}

/// A question about the adventures' scope; the answer is empty until given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopeQuestion {
    pub question: String,
    pub answer: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceState {
    Scarcity,
    Neutral,
    Abundance,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    pub name: String,
    pub state: ResourceState,
}

/// A cell of the map grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridPos {
    pub x: i16,
    pub y: i16,
}

/// A scene detail established at a location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneDetail {
    pub text: String,
    /// Whether the roll that made it had the World at risk (it then ticked the clock).
    pub world_at_risk: bool,
}

/// A location card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Location {
    pub id: Uuid,
    pub name: String,
    /// The player who wrote the card.
    pub author: String,
    pub description: String,
    /// What at this location collateral can harm.
    pub collateral_harms: String,
    /// The kind of danger that lurks here.
    pub danger: String,
    /// The treasure or knowledge to be found here.
    pub treasure: String,
    /// D1..=D4; None until rolled.
    pub danger_level: Option<u8>,
    /// R1..=R4; None until rolled.
    pub reward_level: Option<u8>,
    /// Ticks on the collateral clock, 0..=8.
    pub collateral: u8,
    pub revealed: bool,
    /// None until the card is laid on the map.
    pub position: Option<GridPos>,
    pub scene_details: Vec<SceneDetail>,
    /// Characters who have privately seen this card while it was face down.
    pub scouted_by: Vec<Uuid>,
    /// The character whose player wrote the card: they may read it while it is face down.
    /// None when the card was written on a device that plays no character and not linked
    /// since (then only the card's back is ever shown until it is revealed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_character: Option<Uuid>,
}

/// What a player writes on a new location card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewLocation {
    pub id: Uuid,
    pub name: String,
    pub author: String,
    pub description: String,
    pub collateral_harms: String,
    pub danger: String,
    pub treasure: String,
    /// The character whose player writes the card, when known.
    #[serde(default)]
    pub author_character: Option<Uuid>,
}

/// A long-term project clock of 2 to 12 segments (usually 4, 6 or 8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectClock {
    pub id: Uuid,
    pub name: String,
    /// The character who owns the project.
    pub owner: Uuid,
    /// 2 to 12 (usually 4, 6 or 8).
    pub size: u8,
    /// Marked segments, 0..=size.
    pub filled: u8,
}

impl ProjectClock {
    pub fn complete(&self) -> bool {
        self.filled >= self.size
    }
}

/// A new long-term project.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewProject {
    pub id: Uuid,
    pub name: String,
    pub owner: Uuid,
    pub size: u8,
}

/// A non-player character the table writes details onto after a roll (§1.3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Npc {
    pub id: Uuid,
    pub name: String,
    /// Details in the order they were written, each positive or negative.
    pub details: Vec<Detail>,
    /// How many harm details Overcome this NPC, 2..=4; None: an ordinary NPC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<u8>,
    /// Harm details, in the order they were written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub harm: Vec<String>,
}

impl Npc {
    /// Harm details it takes to Overcome this NPC. Ruling: an NPC without a threshold is an
    /// ordinary person, Overcome by one harm detail (Part 2 gives thresholds of 2 to 4 only
    /// to "a stronger person or monster").
    pub fn harm_to_overcome(&self) -> usize {
        usize::from(self.threshold.unwrap_or(1))
    }

    /// Overcome: at least as many harm details as its threshold. Lowering the threshold
    /// below the harm already written makes the NPC Overcome at once.
    pub fn overcome(&self) -> bool {
        self.harm.len() >= self.harm_to_overcome()
    }
}

/// A new NPC, with no details yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewNpc {
    pub id: Uuid,
    pub name: String,
}

/// What changed in the world, with the values before and after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum WorldEvent {
    SafetyEntryAdded {
        list: SafetyList,
        index: usize,
        text: String,
    },
    SafetyEntryRemoved {
        list: SafetyList,
        index: usize,
        text: String,
    },
    BanRecorded {
        player: String,
        ban: Option<String>,
    },
    StatementAdded {
        index: usize,
        author: String,
        text: String,
    },
    ScopeQuestionAdded {
        index: usize,
        question: String,
    },
    ScopeAnswered {
        index: usize,
        before: String,
        after: String,
    },
    ResourcesCreated {
        resources: Vec<Resource>,
    },
    ResourceStateChanged {
        index: usize,
        name: String,
        before: ResourceState,
        after: ResourceState,
    },
    LocationAuthored {
        location: Uuid,
        name: String,
        author: String,
    },
    LevelsRolled {
        location: Uuid,
        danger_level: u8,
        reward_level: u8,
    },
    LocationPlaced {
        location: Uuid,
        before: Option<GridPos>,
        after: GridPos,
    },
    LocationRevealed {
        location: Uuid,
    },
    /// `clamped`: the rules asked for more (or fewer) ticks than the clock has.
    CollateralChanged {
        location: Uuid,
        before: u8,
        after: u8,
        clamped: bool,
    },
    SceneDetailAdded {
        location: Uuid,
        index: usize,
        text: String,
        world_at_risk: bool,
    },
    LocationScouted {
        location: Uuid,
        character: Uuid,
        first_time: bool,
    },
    ProjectStarted {
        project: Uuid,
        name: String,
        owner: Uuid,
        size: u8,
    },
    /// `segments` as rolled; `after - before` may be fewer when the clock filled.
    ProjectMarked {
        project: Uuid,
        segments: u8,
        before: u8,
        after: u8,
        completed: bool,
    },
    NpcAdded {
        npc: Uuid,
        name: String,
    },
    /// `before` and `after`: the NPC's details around the change.
    NpcDetailAdded {
        npc: Uuid,
        index: usize,
        detail: Detail,
        before: Vec<Detail>,
        after: Vec<Detail>,
    },
    NpcDetailRemoved {
        npc: Uuid,
        index: usize,
        detail: Detail,
        before: Vec<Detail>,
        after: Vec<Detail>,
    },
    /// The party moved: None is home.
    PartyMoved {
        before: Option<Uuid>,
        after: Option<Uuid>,
    },
    /// The unplaced cards were shuffled and laid face down on `cells` (which card lies
    /// where is not said: that is the point of the deal).
    LocationsDealt {
        cells: Vec<GridPos>,
    },
    PathAdded {
        path: MapPath,
    },
    PathRemoved {
        path: MapPath,
    },
    AuthorLinked {
        location: Uuid,
        before: Option<Uuid>,
        after: Option<Uuid>,
    },
    NpcThresholdSet {
        npc: Uuid,
        before: Option<u8>,
        after: Option<u8>,
        overcome: bool,
    },
    NpcHarmAdded {
        npc: Uuid,
        index: usize,
        text: String,
        overcome: bool,
    },
    NpcHarmRemoved {
        npc: Uuid,
        index: usize,
        text: String,
        overcome: bool,
    },
}

impl World {
    pub fn location(&self, id: Uuid) -> Option<&Location> {
        self.locations.iter().find(|l| l.id == id)
    }

    pub fn project(&self, id: Uuid) -> Option<&ProjectClock> {
        self.projects.iter().find(|p| p.id == id)
    }

    pub fn npc(&self, id: Uuid) -> Option<&Npc> {
        self.npcs.iter().find(|n| n.id == id)
    }

    fn npc_index(&self, id: Uuid) -> Result<usize> {
        self.npcs
            .iter()
            .position(|n| n.id == id)
            .ok_or_else(|| Error::invalid("npc", format!("there is no NPC {id} in this world")))
    }

    /// The index of location `id`, or an error naming `field`.
    pub(crate) fn location_index(&self, id: Uuid, field: &str) -> Result<usize> {
        self.locations
            .iter()
            .position(|l| l.id == id)
            .ok_or_else(|| Error::invalid(field, format!("there is no location {id} in this world")))
    }

    fn project_index(&self, id: Uuid) -> Result<usize> {
        self.projects
            .iter()
            .position(|p| p.id == id)
            .ok_or_else(|| Error::invalid("project", format!("there is no project {id} in this world")))
    }

    /// Every broken invariant, each at `path` + its field (e.g. `$.locations[1].collateral`).
    /// A list longer than its cap is one problem and its entries are not read one by one, so
    /// a huge list costs no more than a short one. Duplicates are found with sets: linear.
    pub fn problems(&self, path: &str) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
        let caps = [
            ("safety.lines", self.safety.lines.len(), MAX_SAFETY_ENTRIES, "lines"),
            ("safety.veils", self.safety.veils.len(), MAX_SAFETY_ENTRIES, "veils"),
            ("bans", self.bans.len(), MAX_BANS, "bans"),
            ("settlement", self.settlement.len(), MAX_STATEMENTS, "statements"),
            ("scope", self.scope.len(), MAX_SCOPE_QUESTIONS, "scope questions"),
            ("locations", self.locations.len(), MAX_LOCATIONS, "locations"),
            ("projects", self.projects.len(), MAX_PROJECTS, "projects"),
            ("npcs", self.npcs.len(), MAX_NPCS, "NPCs"),
            ("paths", self.paths.len(), MAX_PATHS, "paths"),
        ];
        for (field, len, cap, what) in caps {
            if len > cap {
                problem(format!("{path}.{field}"), format!("{len} {what}; a world keeps at most {cap}"));
            }
        }
        let within = |len: usize, cap: usize| if len <= cap { len } else { 0 };
        for (field, list) in [("lines", &self.safety.lines), ("veils", &self.safety.veils)] {
            for (i, text) in list.iter().enumerate().take(within(list.len(), MAX_SAFETY_ENTRIES)) {
                if let Some(p) = required_text_problem(text) {
                    problem(format!("{path}.safety.{field}[{i}]"), p);
                }
            }
        }
        let mut players = HashSet::new();
        for (i, ban) in self.bans.iter().enumerate().take(within(self.bans.len(), MAX_BANS)) {
            if let Some(p) = name_problem(&ban.player) {
                problem(format!("{path}.bans[{i}].player"), p);
            }
            if !players.insert(name_key(&ban.player)) {
                problem(
                    format!("{path}.bans[{i}].player"),
                    format!("{:?} already has a ban; one per player", ban.player),
                );
            }
            if let Some(p) = ban.ban.as_deref().and_then(required_text_problem) {
                problem(format!("{path}.bans[{i}].ban"), p);
            }
        }
        for (i, s) in self.settlement.iter().enumerate().take(within(self.settlement.len(), MAX_STATEMENTS)) {
            if let Some(p) = name_problem(&s.author) {
                problem(format!("{path}.settlement[{i}].author"), p);
            }
            if let Some(p) = required_text_problem(&s.text) {
                problem(format!("{path}.settlement[{i}].text"), p);
            }
        }
        for (i, q) in self.scope.iter().enumerate().take(within(self.scope.len(), MAX_SCOPE_QUESTIONS)) {
            if let Some(p) = required_text_problem(&q.question) {
                problem(format!("{path}.scope[{i}].question"), p);
            }
            if let Some(p) = text_problem(&q.answer) {
                problem(format!("{path}.scope[{i}].answer"), p);
            }
        }
        if let Some(resources) = &self.resources {
            let mut names = HashSet::new();
            for (i, r) in resources.iter().enumerate() {
                if let Some(p) = name_problem(&r.name) {
                    problem(format!("{path}.resources[{i}].name"), p);
                }
                if !names.insert(name_key(&r.name)) {
                    problem(format!("{path}.resources[{i}].name"), format!("{:?} is named twice", r.name));
                }
            }
        }
        let mut ids = HashSet::new();
        let mut cells: HashMap<GridPos, &str> = HashMap::new();
        for (i, l) in self.locations.iter().enumerate().take(within(self.locations.len(), MAX_LOCATIONS)) {
            let at = format!("{path}.locations[{i}]");
            if !ids.insert(l.id) {
                problem(format!("{at}.id"), format!("{} is used by another location", l.id));
            }
            if let Some(p) = name_problem(&l.name) {
                problem(format!("{at}.name"), p);
            }
            if let Some(p) = name_problem(&l.author) {
                problem(format!("{at}.author"), p);
            }
            let texts = [
                ("description", &l.description),
                ("collateral_harms", &l.collateral_harms),
                ("danger", &l.danger),
                ("treasure", &l.treasure),
            ];
            for (field, text) in texts {
                if let Some(p) = text_problem(text) {
                    problem(format!("{at}.{field}"), p);
                }
            }
            for (field, level) in [("danger_level", l.danger_level), ("reward_level", l.reward_level)] {
                if let Some(level) = level.filter(|v| !(1..=LEVEL_DIE).contains(v)) {
                    problem(format!("{at}.{field}"), format!("{level} is out of range: levels are 1 to {LEVEL_DIE}"));
                }
            }
            // Both levels come from one roll (danger, then reward): a card has both or neither.
            if l.danger_level.is_some() != l.reward_level.is_some() {
                problem(
                    format!("{at}.reward_level"),
                    "a card has both a danger and a reward level, or neither (they are rolled together)".into(),
                );
            }
            if l.collateral > COLLATERAL_SEGMENTS {
                problem(
                    format!("{at}.collateral"),
                    format!(
                        "{} is out of range: a collateral clock has 0 to {COLLATERAL_SEGMENTS} ticks",
                        l.collateral
                    ),
                );
            }
            if let Some(pos) = l.position {
                if let Some(p) = position_problem(pos) {
                    problem(format!("{at}.position"), p);
                }
                if let Some(other) = cells.get(&pos) {
                    problem(format!("{at}.position"), format!("({}, {}) is taken by {other:?}", pos.x, pos.y));
                } else {
                    cells.insert(pos, &l.name);
                }
            }
            if l.scene_details.len() > MAX_SCENE_DETAILS {
                problem(
                    format!("{at}.scene_details"),
                    format!("{} scene details; a location keeps at most {MAX_SCENE_DETAILS}", l.scene_details.len()),
                );
            } else {
                for (j, d) in l.scene_details.iter().enumerate() {
                    if let Some(p) = required_text_problem(&d.text) {
                        problem(format!("{at}.scene_details[{j}].text"), p);
                    }
                }
            }
            let mut scouts = HashSet::new();
            for (j, c) in l.scouted_by.iter().enumerate() {
                if !scouts.insert(c) {
                    problem(format!("{at}.scouted_by[{j}]"), format!("{c} is listed twice"));
                }
            }
        }
        let mut ids = HashSet::new();
        for (i, p) in self.projects.iter().enumerate().take(within(self.projects.len(), MAX_PROJECTS)) {
            let at = format!("{path}.projects[{i}]");
            if !ids.insert(p.id) {
                problem(format!("{at}.id"), format!("{} is used by another project", p.id));
            }
            if let Some(m) = name_problem(&p.name) {
                problem(format!("{at}.name"), m);
            }
            if let Some(m) = project_size_problem(p.size) {
                problem(format!("{at}.size"), m);
            } else if p.filled > p.size {
                problem(
                    format!("{at}.filled"),
                    format!("{} is out of range: the clock has {} segments", p.filled, p.size),
                );
            }
        }
        let mut ids = HashSet::new();
        for (i, n) in self.npcs.iter().enumerate().take(within(self.npcs.len(), MAX_NPCS)) {
            let at = format!("{path}.npcs[{i}]");
            if !ids.insert(n.id) {
                problem(format!("{at}.id"), format!("{} is used by another NPC", n.id));
            }
            if let Some(m) = name_problem(&n.name) {
                problem(format!("{at}.name"), m);
            }
            if n.details.len() > MAX_NPC_DETAILS {
                problem(
                    format!("{at}.details"),
                    format!("{} details; an NPC keeps at most {MAX_NPC_DETAILS}", n.details.len()),
                );
                continue;
            }
            for (j, d) in n.details.iter().enumerate() {
                if let Some(m) = required_text_problem(&d.text) {
                    problem(format!("{at}.details[{j}].text"), m);
                }
            }
            if let Some(t) = n.threshold.filter(|t| !NPC_THRESHOLDS.contains(t)) {
                problem(format!("{at}.threshold"), format!("{t} is out of range: a threshold is 2 to 4"));
            }
            if n.harm.len() > MAX_NPC_HARM {
                problem(
                    format!("{at}.harm"),
                    format!("{} harm details; an NPC keeps at most {MAX_NPC_HARM}", n.harm.len()),
                );
                continue;
            }
            for (j, h) in n.harm.iter().enumerate() {
                if let Some(m) = required_text_problem(h) {
                    problem(format!("{at}.harm[{j}]"), m);
                }
            }
        }
        let placed: HashMap<Uuid, &Location> =
            self.locations.iter().filter(|l| l.position.is_some()).map(|l| (l.id, l)).collect();
        if let Some(at) = self.party_at {
            match placed.get(&at) {
                None => problem(format!("{path}.party_at"), format!("{at} is not a card on the map")),
                Some(l) if !l.revealed => problem(
                    format!("{path}.party_at"),
                    format!("{at} is face down; the party is only at a revealed card"),
                ),
                Some(_) => {}
            }
        }
        let mut seen = HashSet::new();
        for (i, p) in self.paths.iter().enumerate().take(within(self.paths.len(), MAX_PATHS)) {
            for (field, end) in [("a", p.a), ("b", p.b)] {
                if !placed.contains_key(&end) {
                    problem(format!("{path}.paths[{i}].{field}"), format!("{end} is not a card on the map"));
                }
            }
            if p.a == p.b {
                problem(format!("{path}.paths[{i}].b"), "a path joins two different cards".into());
            } else if !seen.insert(if p.a < p.b { (p.a, p.b) } else { (p.b, p.a) }) {
                problem(format!("{path}.paths[{i}]"), "the same path is drawn twice".into());
            }
        }
        out
    }
}

/// Adds an entry to the lines or veils list.
pub fn add_safety_entry(world: &World, list: SafetyList, text: &str) -> Result<(World, Vec<WorldEvent>)> {
    let field = safety_field(list);
    check_required_text(field, text)?;
    let len = match list {
        SafetyList::Lines => world.safety.lines.len(),
        SafetyList::Veils => world.safety.veils.len(),
    };
    room(field, len, MAX_SAFETY_ENTRIES, "entries in a safety list")?;
    let mut next = world.clone();
    let entries = safety_list_mut(&mut next, list);
    entries.push(text.trim().to_owned());
    let index = entries.len() - 1;
    Ok((next, vec![WorldEvent::SafetyEntryAdded { list, index, text: text.trim().to_owned() }]))
}

/// Removes entry `index` from the lines or veils list.
pub fn remove_safety_entry(world: &World, list: SafetyList, index: usize) -> Result<(World, Vec<WorldEvent>)> {
    let mut next = world.clone();
    let entries = safety_list_mut(&mut next, list);
    if index >= entries.len() {
        return Err(Error::invalid(
            safety_field(list),
            format!("there is no entry {index}; the list has {}", entries.len()),
        ));
    }
    let text = entries.remove(index);
    Ok((next, vec![WorldEvent::SafetyEntryRemoved { list, index, text }]))
}

/// Records `player`'s ban, or their pass (`None`). One per player.
pub fn record_ban(world: &World, player: &str, ban: Option<&str>) -> Result<(World, Vec<WorldEvent>)> {
    check_name("player", player)?;
    if let Some(ban) = ban {
        check_required_text("ban", ban)?;
    }
    if world.bans.iter().any(|b| same_name(&b.player, player)) {
        return Err(Error::invalid(
            "player",
            format!("{:?} has already banned or passed; one ban per player", player.trim()),
        ));
    }
    room("player", world.bans.len(), MAX_BANS, "bans")?;
    let mut next = world.clone();
    let entry = Ban { player: player.trim().to_owned(), ban: ban.map(|b| b.trim().to_owned()) };
    next.bans.push(entry.clone());
    Ok((next, vec![WorldEvent::BanRecorded { player: entry.player, ban: entry.ban }]))
}

/// Adds the next statement about the settlement.
pub fn add_statement(world: &World, author: &str, text: &str) -> Result<(World, Vec<WorldEvent>)> {
    check_name("author", author)?;
    check_required_text("statement", text)?;
    room("statement", world.settlement.len(), MAX_STATEMENTS, "statements")?;
    let mut next = world.clone();
    let s = Statement { author: author.trim().to_owned(), text: text.trim().to_owned() };
    next.settlement.push(s.clone());
    let index = next.settlement.len() - 1;
    Ok((next, vec![WorldEvent::StatementAdded { index, author: s.author, text: s.text }]))
}

/// Adds a scope question, unanswered.
pub fn add_scope_question(world: &World, question: &str) -> Result<(World, Vec<WorldEvent>)> {
    check_required_text("question", question)?;
    room("question", world.scope.len(), MAX_SCOPE_QUESTIONS, "scope questions")?;
    let mut next = world.clone();
    let question = question.trim().to_owned();
    next.scope.push(ScopeQuestion { question: question.clone(), answer: String::new() });
    let index = next.scope.len() - 1;
    Ok((next, vec![WorldEvent::ScopeQuestionAdded { index, question }]))
}

/// Answers (or re-answers) scope question `index`.
pub fn answer_scope_question(world: &World, index: usize, answer: &str) -> Result<(World, Vec<WorldEvent>)> {
    if let Some(p) = text_problem(answer) {
        return Err(Error::invalid("answer", p));
    }
    let mut next = world.clone();
    let len = next.scope.len();
    let q = next
        .scope
        .get_mut(index)
        .ok_or_else(|| Error::invalid("question", format!("there is no question {index}; there are {len}")))?;
    let before = std::mem::replace(&mut q.answer, answer.trim().to_owned());
    let after = q.answer.clone();
    Ok((next, vec![WorldEvent::ScopeAnswered { index, before, after }]))
}

/// Names the five resources; the one at `abundance` is in abundance, the rest are scarce.
pub fn create_resources(
    world: &World,
    names: &[&str; RESOURCE_COUNT],
    abundance: usize,
) -> Result<(World, Vec<WorldEvent>)> {
    if world.resources.is_some() {
        return Err(Error::invalid("resources", "the five resources are already named"));
    }
    if abundance >= RESOURCE_COUNT {
        return Err(Error::invalid("abundance", format!("{abundance} is not one of the resources 0 to 4")));
    }
    for (i, name) in names.iter().enumerate() {
        check_name(&format!("resources[{i}]"), name)?;
        if names[..i].iter().any(|o| same_name(o, name)) {
            return Err(Error::invalid(format!("resources[{i}]"), format!("{:?} is named twice", name.trim())));
        }
    }
    let resources: [Resource; RESOURCE_COUNT] = std::array::from_fn(|i| Resource {
        name: names[i].trim().to_owned(),
        state: if i == abundance { ResourceState::Abundance } else { ResourceState::Scarcity },
    });
    let mut next = world.clone();
    next.resources = Some(resources.clone());
    Ok((next, vec![WorldEvent::ResourcesCreated { resources: resources.to_vec() }]))
}

/// Moves resource `index` to `state` (after creation any mix is allowed).
pub fn set_resource_state(world: &World, index: usize, state: ResourceState) -> Result<(World, Vec<WorldEvent>)> {
    let mut next = world.clone();
    let resources =
        next.resources.as_mut().ok_or_else(|| Error::invalid("resources", "the five resources are not named yet"))?;
    let r = resources
        .get_mut(index)
        .ok_or_else(|| Error::invalid("resource", format!("{index} is not one of the resources 0 to 4")))?;
    if r.state == state {
        return Err(Error::invalid("state", format!("{:?} is already {state:?}", r.name)));
    }
    let before = std::mem::replace(&mut r.state, state);
    let name = r.name.clone();
    Ok((next, vec![WorldEvent::ResourceStateChanged { index, name, before, after: state }]))
}

/// Adds a face-down location card, not yet on the map, with its clock at 0.
pub fn author_location(world: &World, new: &NewLocation) -> Result<(World, Vec<WorldEvent>)> {
    check_name("name", &new.name)?;
    check_name("author", &new.author)?;
    let texts = [
        ("description", &new.description),
        ("collateral_harms", &new.collateral_harms),
        ("danger", &new.danger),
        ("treasure", &new.treasure),
    ];
    for (field, text) in texts {
        if let Some(p) = text_problem(text) {
            return Err(Error::invalid(field, p));
        }
    }
    if world.location(new.id).is_some() {
        return Err(Error::invalid("id", format!("{} is used by another location", new.id)));
    }
    room("id", world.locations.len(), MAX_LOCATIONS, "locations")?;
    let authored = world.locations.iter().filter(|l| same_name(&l.author, &new.author)).count();
    if authored >= LOCATIONS_PER_PLAYER {
        return Err(Error::invalid(
            "author",
            format!("{:?} has already authored {LOCATIONS_PER_PLAYER} locations", new.author.trim()),
        ));
    }
    let location = Location {
        id: new.id,
        name: new.name.trim().to_owned(),
        author: new.author.trim().to_owned(),
        description: new.description.trim().to_owned(),
        collateral_harms: new.collateral_harms.trim().to_owned(),
        danger: new.danger.trim().to_owned(),
        treasure: new.treasure.trim().to_owned(),
        danger_level: None,
        reward_level: None,
        collateral: 0,
        revealed: false,
        position: None,
        scene_details: Vec::new(),
        scouted_by: Vec::new(),
        author_character: new.author_character,
    };
    let event =
        WorldEvent::LocationAuthored { location: new.id, name: location.name.clone(), author: location.author.clone() };
    let mut next = world.clone();
    next.locations.push(location);
    Ok((next, vec![event]))
}

/// Rolls 2d4 for a card: the first die is its danger level, the second its reward level.
/// A card is rolled once.
pub fn roll_levels(world: &World, location: Uuid, dice: &mut dyn DiceSource) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.location_index(location, "location")?;
    let card = &world.locations[i];
    if card.danger_level.is_some() || card.reward_level.is_some() {
        return Err(Error::invalid("location", format!("{:?} already has its danger and reward levels", card.name)));
    }
    let danger = dice.roll(LEVEL_DIE, "danger die")?;
    let reward = dice.roll(LEVEL_DIE, "reward die")?;
    let mut next = world.clone();
    next.locations[i].danger_level = Some(danger);
    next.locations[i].reward_level = Some(reward);
    Ok((next, vec![WorldEvent::LevelsRolled { location, danger_level: danger, reward_level: reward }]))
}

/// Moves a card already on the map to a free cell. A card reaches the map only by the deal
/// ([`deal_locations`]), so that nobody who lays it knows which card it is.
pub fn place_location(world: &World, location: Uuid, at: GridPos) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.location_index(location, "location")?;
    if world.locations[i].position.is_none() {
        return Err(Error::invalid(
            "location",
            "a card goes on the map only by the deal: shuffle and deal the cards not yet on the map",
        ));
    }
    if let Some(p) = position_problem(at) {
        return Err(Error::invalid("position", p));
    }
    if let Some(other) = world.locations.iter().find(|l| l.position == Some(at)) {
        let problem = if other.id == location {
            "the card is already there".to_owned()
        } else {
            format!("({}, {}) is taken by another card", at.x, at.y)
        };
        return Err(Error::invalid("position", problem));
    }
    let mut next = world.clone();
    let before = next.locations[i].position.replace(at);
    Ok((next, vec![WorldEvent::LocationPlaced { location, before, after: at }]))
}

/// Turns a face-down card face up.
pub fn reveal_location(world: &World, location: Uuid) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.location_index(location, "location")?;
    if world.locations[i].revealed {
        return Err(Error::invalid("location", format!("{:?} is already revealed", world.locations[i].name)));
    }
    let mut next = world.clone();
    next.locations[i].revealed = true;
    Ok((next, vec![WorldEvent::LocationRevealed { location }]))
}

/// Ticks (`delta > 0`) or clears (`delta < 0`) the collateral clock by a number a person
/// chose. Leaving 0..=8 is refused.
pub fn tick_collateral(world: &World, location: Uuid, delta: i8) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.location_index(location, "location")?;
    let before = world.locations[i].collateral;
    let after = i16::from(before) + i16::from(delta);
    if delta == 0 {
        return Err(Error::invalid("ticks", "0 ticks changes nothing"));
    }
    if !(0..=i16::from(COLLATERAL_SEGMENTS)).contains(&after) {
        return Err(Error::invalid(
            "ticks",
            format!("the clock is at {before}; {delta:+} would leave 0 to {COLLATERAL_SEGMENTS}"),
        ));
    }
    let mut next = world.clone();
    next.locations[i].collateral = after as u8;
    Ok((next, vec![WorldEvent::CollateralChanged { location, before, after: after as u8, clamped: false }]))
}

/// Moves the collateral clock by `delta` ticks as a rule's side effect, stopping at 0 and 8.
/// The event says when it stopped short (`clamped`).
pub fn shift_collateral_clamped(world: &World, location: Uuid, delta: i16) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.location_index(location, "location")?;
    let before = world.locations[i].collateral;
    let wanted = i16::from(before) + delta;
    let after = wanted.clamp(0, i16::from(COLLATERAL_SEGMENTS)) as u8;
    let mut next = world.clone();
    next.locations[i].collateral = after;
    let event = WorldEvent::CollateralChanged { location, before, after, clamped: i16::from(after) != wanted };
    Ok((next, vec![event]))
}

/// Adds a scene detail to a location. `world_at_risk` records that it came from a roll with
/// the World at risk; it ticks nothing here: the tick such a roll's details make goes to
/// the party's location ([`tick_party_location`]), once per detail.
pub fn add_scene_detail(
    world: &World,
    location: Uuid,
    text: &str,
    world_at_risk: bool,
) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.location_index(location, "location")?;
    check_required_text("scene_detail", text)?;
    if world.locations[i].scene_details.len() >= MAX_SCENE_DETAILS {
        return Err(Error::invalid(
            "scene_detail",
            format!("a location keeps at most {MAX_SCENE_DETAILS} scene details"),
        ));
    }
    let mut next = world.clone();
    let text = text.trim().to_owned();
    next.locations[i].scene_details.push(SceneDetail { text: text.clone(), world_at_risk });
    let index = next.locations[i].scene_details.len() - 1;
    Ok((next, vec![WorldEvent::SceneDetailAdded { location, index, text, world_at_risk }]))
}

/// The collateral a detail written from a World-at-risk roll makes (RULES.md §1.3): one
/// tick on the clock of the card where the party is, stopping at 8; at home, nothing.
pub fn tick_party_location(world: &World) -> Result<(World, Vec<WorldEvent>)> {
    match world.party_at {
        Some(at) => shift_collateral_clamped(world, at, 1),
        None => Ok((world.clone(), Vec::new())),
    }
}

/// Moves the party to a revealed card on the map, or home (`None`).
pub fn set_party_location(world: &World, location: Option<Uuid>) -> Result<(World, Vec<WorldEvent>)> {
    if world.party_at == location {
        let here = if location.is_some() { "already at that location" } else { "already at home" };
        return Err(Error::invalid("location", format!("the party is {here}")));
    }
    if let Some(at) = location {
        let card = &world.locations[world.location_index(at, "location")?];
        if card.position.is_none() {
            return Err(Error::invalid("location", "that card is not on the map yet"));
        }
        if !card.revealed {
            return Err(Error::invalid("location", "that card is face down; reveal it before the party goes there"));
        }
    }
    let mut next = world.clone();
    let before = std::mem::replace(&mut next.party_at, location);
    Ok((next, vec![WorldEvent::PartyMoved { before, after: location }]))
}

/// Shuffles every card not yet on the map and lays them face down on `cells`, which the
/// table picked (one free cell per card). Levels may be rolled before or after: the SRD
/// rolls them once the cards lie on the map, and a card's back shows them either way.
///
/// The shuffle is Fisher–Yates with the dice: for k = n down to 2, one "shuffle die (dk)"
/// picks which of the first k cards goes k-th. Card k of the shuffled order lies on
/// `cells[k]`, and the dealt cards take the shuffled order in `World::locations` too (after
/// the cards already on the map), so neither list order nor cell tells whose card is where.
pub fn deal_locations(world: &World, cells: &[GridPos], dice: &mut dyn DiceSource) -> Result<(World, Vec<WorldEvent>)> {
    let (mut hand, placed): (Vec<Location>, Vec<Location>) =
        world.locations.iter().cloned().partition(|l| l.position.is_none());
    if hand.is_empty() {
        return Err(Error::invalid("cells", "every card is already on the map"));
    }
    if cells.len() != hand.len() {
        return Err(Error::invalid(
            "cells",
            format!("{} cards wait to be dealt; pick {} free cells, not {}", hand.len(), hand.len(), cells.len()),
        ));
    }
    for (i, &at) in cells.iter().enumerate() {
        if let Some(p) = position_problem(at) {
            return Err(Error::invalid(format!("cells[{i}]"), p));
        }
        if cells[..i].contains(&at) || placed.iter().any(|l| l.position == Some(at)) {
            return Err(Error::invalid(format!("cells[{i}]"), format!("({}, {}) is taken", at.x, at.y)));
        }
    }
    for k in (2..=hand.len()).rev() {
        // At most MAX_LOCATIONS (200) cards, so every die fits in a u8.
        let sides = u8::try_from(k).map_err(|_| Error::invalid("cells", "too many cards to shuffle"))?;
        let j = dice.roll(sides, &format!("shuffle die (d{k})"))?;
        hand.swap(k - 1, usize::from(j) - 1);
    }
    for (card, &at) in hand.iter_mut().zip(cells) {
        card.position = Some(at);
    }
    let mut next = world.clone();
    next.locations = placed.into_iter().chain(hand).collect();
    Ok((next, vec![WorldEvent::LocationsDealt { cells: cells.to_vec() }]))
}

/// Draws a path between two different cards on the map; each pair once.
pub fn add_path(world: &World, a: Uuid, b: Uuid) -> Result<(World, Vec<WorldEvent>)> {
    for (field, end) in [("a", a), ("b", b)] {
        let card = &world.locations[world.location_index(end, field)?];
        if card.position.is_none() {
            return Err(Error::invalid(field, "that card is not on the map yet"));
        }
    }
    if a == b {
        return Err(Error::invalid("b", "a path joins two different cards"));
    }
    if world.paths.iter().any(|p| p.joins(a, b)) {
        return Err(Error::invalid("b", "that path is already drawn"));
    }
    room("b", world.paths.len(), MAX_PATHS, "paths")?;
    let mut next = world.clone();
    let path = MapPath { a, b };
    next.paths.push(path);
    Ok((next, vec![WorldEvent::PathAdded { path }]))
}

/// Rubs out the path between two cards (either way round).
pub fn remove_path(world: &World, a: Uuid, b: Uuid) -> Result<(World, Vec<WorldEvent>)> {
    let i = world
        .paths
        .iter()
        .position(|p| p.joins(a, b))
        .ok_or_else(|| Error::invalid("b", "no path joins those two cards"))?;
    let mut next = world.clone();
    let path = next.paths.remove(i);
    Ok((next, vec![WorldEvent::PathRemoved { path }]))
}

/// Links a card to the character whose player wrote it (or unlinks it, `None`). Who may
/// read a face-down card follows this link.
pub fn link_author(world: &World, location: Uuid, character: Option<Uuid>) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.location_index(location, "location")?;
    let mut next = world.clone();
    let before = std::mem::replace(&mut next.locations[i].author_character, character);
    if before == character {
        return Err(Error::invalid("character", "the card is already linked so"));
    }
    Ok((next, vec![WorldEvent::AuthorLinked { location, before, after: character }]))
}

/// Sets an NPC's Overcome threshold (2..=4), or makes it ordinary again (`None`). A
/// threshold at or below the harm already written makes the NPC Overcome: allowed, since
/// the Arbiters may judge a foe weaker than first thought.
pub fn set_npc_threshold(world: &World, npc: Uuid, threshold: Option<u8>) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.npc_index(npc)?;
    if let Some(t) = threshold.filter(|t| !NPC_THRESHOLDS.contains(t)) {
        return Err(Error::invalid("threshold", format!("{t} is out of range: a threshold is 2 to 4")));
    }
    let mut next = world.clone();
    let before = std::mem::replace(&mut next.npcs[i].threshold, threshold);
    if before == threshold {
        return Err(Error::invalid("threshold", "the NPC already has that threshold"));
    }
    let overcome = next.npcs[i].overcome();
    Ok((next, vec![WorldEvent::NpcThresholdSet { npc, before, after: threshold, overcome }]))
}

/// Writes a harm detail on an NPC. An NPC already Overcome takes no more.
pub fn add_npc_harm(world: &World, npc: Uuid, text: &str) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.npc_index(npc)?;
    check_required_text("harm", text)?;
    let n = &world.npcs[i];
    if n.overcome() {
        return Err(Error::invalid("harm", format!("{:?} is already Overcome", n.name)));
    }
    let mut next = world.clone();
    let text = text.trim().to_owned();
    next.npcs[i].harm.push(text.clone());
    let index = next.npcs[i].harm.len() - 1;
    let overcome = next.npcs[i].overcome();
    Ok((next, vec![WorldEvent::NpcHarmAdded { npc, index, text, overcome }]))
}

/// Crosses harm detail `index` off an NPC.
pub fn remove_npc_harm(world: &World, npc: Uuid, index: usize) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.npc_index(npc)?;
    let len = world.npcs[i].harm.len();
    if index >= len {
        return Err(Error::invalid("harm", format!("there is no harm detail {index}; the NPC has {len}")));
    }
    let mut next = world.clone();
    let text = next.npcs[i].harm.remove(index);
    let overcome = next.npcs[i].overcome();
    Ok((next, vec![WorldEvent::NpcHarmRemoved { npc, index, text, overcome }]))
}

/// Records that `character` privately saw face-down card `location`. Seeing it again records
/// nothing new (`first_time: false`).
pub fn record_scout(world: &World, location: Uuid, character: Uuid) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.location_index(location, "location")?;
    if world.locations[i].revealed {
        return Err(Error::invalid("location", format!("{:?} is already face up", world.locations[i].name)));
    }
    let mut next = world.clone();
    let first_time = !next.locations[i].scouted_by.contains(&character);
    if first_time {
        next.locations[i].scouted_by.push(character);
    }
    Ok((next, vec![WorldEvent::LocationScouted { location, character, first_time }]))
}

/// Starts an empty long-term project clock of 2 to 12 segments.
pub fn start_project(world: &World, new: &NewProject) -> Result<(World, Vec<WorldEvent>)> {
    check_name("project_name", &new.name)?;
    if let Some(m) = project_size_problem(new.size) {
        return Err(Error::invalid("size", m));
    }
    if world.project(new.id).is_some() {
        return Err(Error::invalid("project", format!("{} is used by another project", new.id)));
    }
    room("project", world.projects.len(), MAX_PROJECTS, "projects")?;
    let mut next = world.clone();
    let name = new.name.trim().to_owned();
    next.projects.push(ProjectClock { id: new.id, name: name.clone(), owner: new.owner, size: new.size, filled: 0 });
    Ok((next, vec![WorldEvent::ProjectStarted { project: new.id, name, owner: new.owner, size: new.size }]))
}

/// Marks `segments` on a project clock; segments beyond its size are dropped. A complete
/// clock takes no more.
pub fn mark_project(world: &World, project: Uuid, segments: u8) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.project_index(project)?;
    let clock = &world.projects[i];
    if clock.complete() {
        return Err(Error::invalid("project", format!("{:?} is already complete", clock.name)));
    }
    let before = clock.filled;
    let after = before.saturating_add(segments).min(clock.size);
    let mut next = world.clone();
    next.projects[i].filled = after;
    let completed = after == clock.size;
    Ok((next, vec![WorldEvent::ProjectMarked { project, segments, before, after, completed }]))
}

/// Adds an NPC with no details yet.
pub fn add_npc(world: &World, new: &NewNpc) -> Result<(World, Vec<WorldEvent>)> {
    check_name("name", &new.name)?;
    if world.npc(new.id).is_some() {
        return Err(Error::invalid("npc", format!("{} is used by another NPC", new.id)));
    }
    room("npc", world.npcs.len(), MAX_NPCS, "NPCs")?;
    let mut next = world.clone();
    let name = new.name.trim().to_owned();
    next.npcs.push(Npc { id: new.id, name: name.clone(), details: Vec::new(), threshold: None, harm: Vec::new() });
    Ok((next, vec![WorldEvent::NpcAdded { npc: new.id, name }]))
}

/// Writes a detail, positive or negative, onto an NPC.
pub fn add_npc_detail(world: &World, npc: Uuid, text: &str, positive: bool) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.npc_index(npc)?;
    check_required_text("detail", text)?;
    if world.npcs[i].details.len() >= MAX_NPC_DETAILS {
        return Err(Error::invalid("detail", format!("an NPC keeps at most {MAX_NPC_DETAILS} details")));
    }
    let mut next = world.clone();
    let detail = Detail { text: text.trim().to_owned(), positive };
    let before = next.npcs[i].details.clone();
    next.npcs[i].details.push(detail.clone());
    let after = next.npcs[i].details.clone();
    let index = after.len() - 1;
    Ok((next, vec![WorldEvent::NpcDetailAdded { npc, index, detail, before, after }]))
}

/// Crosses detail `index` off an NPC.
pub fn remove_npc_detail(world: &World, npc: Uuid, index: usize) -> Result<(World, Vec<WorldEvent>)> {
    let i = world.npc_index(npc)?;
    let len = world.npcs[i].details.len();
    if index >= len {
        return Err(Error::invalid("detail", format!("there is no detail {index}; the NPC has {len}")));
    }
    let mut next = world.clone();
    let before = next.npcs[i].details.clone();
    let detail = next.npcs[i].details.remove(index);
    let after = next.npcs[i].details.clone();
    Ok((next, vec![WorldEvent::NpcDetailRemoved { npc, index, detail, before, after }]))
}

fn safety_field(list: SafetyList) -> &'static str {
    match list {
        SafetyList::Lines => "lines",
        SafetyList::Veils => "veils",
    }
}

fn safety_list_mut(world: &mut World, list: SafetyList) -> &mut Vec<String> {
    match list {
        SafetyList::Lines => &mut world.safety.lines,
        SafetyList::Veils => &mut world.safety.veils,
    }
}

fn position_problem(pos: GridPos) -> Option<String> {
    let range = -MAP_EXTENT..=MAP_EXTENT;
    (!range.contains(&pos.x) || !range.contains(&pos.y))
        .then(|| format!("({}, {}) is off the map: coordinates run from -{MAP_EXTENT} to {MAP_EXTENT}", pos.x, pos.y))
}

/// Names compare without case and surrounding spaces.
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b)
}

/// What a name is compared by ([`same_name`]): trimmed, in lower case.
fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// Refuses one more entry in a list that holds `len` of at most `cap`.
fn room(field: &str, len: usize, cap: usize, what: &str) -> Result<()> {
    if len >= cap {
        return Err(Error::invalid(field, format!("a world keeps at most {cap} {what}")));
    }
    Ok(())
}

pub(crate) fn check_name(field: &str, name: &str) -> Result<()> {
    match name_problem(name) {
        Some(p) => Err(Error::invalid(field, p)),
        None => Ok(()),
    }
}

fn check_required_text(field: &str, text: &str) -> Result<()> {
    match required_text_problem(text) {
        Some(p) => Err(Error::invalid(field, p)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::dice::{Entered, Rolled};
    use crate::rules::test_support::{err, id};

    fn new_location(n: u128, author: &str) -> NewLocation {
        NewLocation {
            id: id(n),
            name: format!("Place {n}"),
            author: author.into(),
            description: "A drowned library".into(),
            collateral_harms: "the archivist moths".into(),
            danger: "rising water".into(),
            treasure: "maps of the old roads".into(),
            author_character: None,
        }
    }

    /// A world with two locations by one player.
    fn world() -> World {
        let (w, _) = author_location(&World::default(), &new_location(1, "Ana")).unwrap();
        let (w, _) = author_location(&w, &new_location(2, "Ana")).unwrap();
        w
    }

    #[test]
    fn lines_and_veils_are_added_and_removed_and_empty_entries_refused() {
        let (w, ev) = add_safety_entry(&World::default(), SafetyList::Veils, " spiders ").unwrap();
        assert_eq!(w.safety.veils, ["spiders"]);
        assert_eq!(ev, [WorldEvent::SafetyEntryAdded { list: SafetyList::Veils, index: 0, text: "spiders".into() }]);
        assert_eq!(err(add_safety_entry(&w, SafetyList::Lines, "  ")), "lines: must not be empty");
        let (w, _) = remove_safety_entry(&w, SafetyList::Veils, 0).unwrap();
        assert!(w.safety.veils.is_empty());
        assert!(err(remove_safety_entry(&w, SafetyList::Veils, 0)).starts_with("veils: there is no entry 0"));
    }

    #[test]
    fn each_player_bans_once_or_passes() {
        let (w, _) = record_ban(&World::default(), "Ana", Some("dragons")).unwrap();
        let (w, ev) = record_ban(&w, "Bo", None).unwrap();
        assert_eq!(ev, [WorldEvent::BanRecorded { player: "Bo".into(), ban: None }]);
        let before = w.clone();
        assert!(err(record_ban(&w, " ana ", Some("magic"))).starts_with("player: \"ana\" has already banned"));
        assert_eq!(w, before);
    }

    #[test]
    fn settlement_statements_keep_their_order_and_author() {
        let (w, _) = add_statement(&World::default(), "Ana", "The roads form a grid").unwrap();
        let (w, ev) = add_statement(&w, "Bo", "The grid floods each spring").unwrap();
        assert_eq!(w.settlement.iter().map(|s| s.author.as_str()).collect::<Vec<_>>(), ["Ana", "Bo"]);
        assert!(matches!(&ev[0], WorldEvent::StatementAdded { index: 1, .. }));
    }

    #[test]
    fn scope_questions_are_answered_with_before_and_after() {
        let (w, _) = add_scope_question(&World::default(), "How long between adventures?").unwrap();
        let (w, ev) = answer_scope_question(&w, 0, "A season").unwrap();
        assert_eq!(ev, [WorldEvent::ScopeAnswered { index: 0, before: String::new(), after: "A season".into() }]);
        assert_eq!(w.scope[0].answer, "A season");
        assert!(err(answer_scope_question(&w, 1, "x")).starts_with("question: there is no question 1"));
    }

    #[test]
    fn five_resources_start_with_exactly_one_abundance_then_move_freely() {
        let names = ["water", "seed", "song", "iron", "trust"];
        let (w, _) = create_resources(&World::default(), &names, 2).unwrap();
        let states: Vec<_> = w.resources.as_ref().unwrap().iter().map(|r| r.state).collect();
        use ResourceState::*;
        assert_eq!(states, [Scarcity, Scarcity, Abundance, Scarcity, Scarcity]);
        assert!(err(create_resources(&w, &names, 0)).contains("already named"));
        assert!(err(create_resources(&World::default(), &names, 5)).starts_with("abundance:"));
        let twice = ["water", "Water", "song", "iron", "trust"];
        assert!(err(create_resources(&World::default(), &twice, 0)).starts_with("resources[1]:"));
        let (w, ev) = set_resource_state(&w, 0, Neutral).unwrap();
        assert_eq!(
            ev,
            [WorldEvent::ResourceStateChanged { index: 0, name: "water".into(), before: Scarcity, after: Neutral }]
        );
        let (w, _) = set_resource_state(&w, 1, Abundance).unwrap();
        assert_eq!(w.problems("$"), vec![]);
        assert!(err(set_resource_state(&w, 1, Abundance)).starts_with("state:"));
    }

    #[test]
    fn a_player_authors_two_face_down_locations() {
        let w = world();
        let card = &w.locations[0];
        assert!(!card.revealed && card.collateral == 0 && card.position.is_none() && card.danger_level.is_none());
        assert!(err(author_location(&w, &new_location(3, "ana"))).starts_with("author:"));
        assert!(err(author_location(&w, &new_location(1, "Bo"))).starts_with("id:"));
        let (w, _) = author_location(&w, &new_location(3, "Bo")).unwrap();
        assert_eq!(w.locations.len(), 3);
    }

    #[test]
    fn a_card_has_both_levels_or_neither() {
        let mut w = world();
        w.locations[0].danger_level = Some(2);
        let problems = w.problems("$.world");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].path, "$.world.locations[0].reward_level");
        w.locations[0].reward_level = Some(3);
        assert_eq!(w.problems("$.world"), vec![]);
    }

    #[test]
    fn danger_then_reward_level_come_from_2d4_once() {
        let w = world();
        let (w, ev) = roll_levels(&w, id(1), &mut Entered::new([2, 4])).unwrap();
        assert_eq!(ev, [WorldEvent::LevelsRolled { location: id(1), danger_level: 2, reward_level: 4 }]);
        assert_eq!((w.locations[0].danger_level, w.locations[0].reward_level), (Some(2), Some(4)));
        assert!(err(roll_levels(&w, id(1), &mut Entered::new([1, 1]))).contains("already has"));
        assert_eq!(
            err(roll_levels(&w, id(2), &mut Entered::new([5, 1]))),
            "danger die: 5 cannot be rolled on a d4 (1 to 4)"
        );
    }

    /// Deals both cards of `world()` with the shuffle die rolling `die` (a d2).
    fn dealt(w: &World, die: u8) -> World {
        deal_locations(w, &[GridPos { x: 0, y: 1 }, GridPos { x: 1, y: 1 }], &mut Entered::new([die])).unwrap().0
    }

    #[test]
    fn cards_reach_the_map_only_by_a_shuffled_deal_and_never_share_a_cell() {
        let w = world();
        assert!(err(place_location(&w, id(1), GridPos { x: 0, y: 1 })).contains("only by the deal"));
        // d2 rolls 1: the second card swaps with the first, so the Mill (id 2) comes first.
        let (d, ev) =
            deal_locations(&w, &[GridPos { x: 0, y: 1 }, GridPos { x: 1, y: 1 }], &mut Entered::new([1])).unwrap();
        assert_eq!(ev, [WorldEvent::LocationsDealt { cells: vec![GridPos { x: 0, y: 1 }, GridPos { x: 1, y: 1 }] }]);
        assert_eq!(
            d.locations.iter().map(|l| (l.id, l.position)).collect::<Vec<_>>(),
            [(id(2), Some(GridPos { x: 0, y: 1 })), (id(1), Some(GridPos { x: 1, y: 1 }))]
        );
        assert_eq!(dealt(&w, 2).locations[0].id, id(1), "a 2 keeps the order");
        assert!(
            err(deal_locations(&d, &[GridPos { x: 5, y: 5 }], &mut Entered::new([]))).contains("already on the map")
        );
        assert!(
            err(deal_locations(&w, &[GridPos { x: 0, y: 0 }], &mut Entered::new([1]))).contains("pick 2 free cells")
        );
        let same = [GridPos { x: 0, y: 0 }, GridPos { x: 0, y: 0 }];
        assert!(err(deal_locations(&w, &same, &mut Entered::new([1]))).starts_with("cells[1]:"));
        let off = [GridPos { x: 0, y: 0 }, GridPos { x: 65, y: 0 }];
        assert!(err(deal_locations(&w, &off, &mut Entered::new([1]))).contains("off the map"));
        // A third card dealt later may not land on a taken cell; it may go on a free one.
        let (d3, _) = author_location(&d, &new_location(3, "Bo")).unwrap();
        assert!(err(deal_locations(&d3, &[GridPos { x: 0, y: 1 }], &mut Entered::new([]))).contains("taken"));
        let (d3, _) = deal_locations(&d3, &[GridPos { x: 2, y: 1 }], &mut Entered::new([])).unwrap();
        assert_eq!(d3.locations[2].position, Some(GridPos { x: 2, y: 1 }));
        // A placed card moves to a free cell, never onto another card or off the map.
        assert!(err(place_location(&d, id(2), GridPos { x: 1, y: 1 })).contains("taken by another card"));
        assert!(err(place_location(&d, id(2), GridPos { x: 65, y: 0 })).contains("off the map"));
        let (d, ev) = place_location(&d, id(1), GridPos { x: -1, y: 1 }).unwrap();
        assert!(matches!(ev[0], WorldEvent::LocationPlaced { before: Some(GridPos { x: 1, y: 1 }), .. }));
        assert_eq!(d.problems("$"), vec![]);
    }

    #[test]
    fn the_deal_is_a_fair_shuffle() {
        // Every order of three cards comes from exactly one pair of shuffle dice (d3, d2).
        let mut w = world();
        w = author_location(&w, &new_location(3, "Bo")).unwrap().0;
        let cells = [GridPos { x: 0, y: 0 }, GridPos { x: 1, y: 0 }, GridPos { x: 2, y: 0 }];
        let mut orders = HashSet::new();
        for d3 in 1..=3 {
            for d2 in 1..=2 {
                let (d, _) = deal_locations(&w, &cells, &mut Entered::new([d3, d2])).unwrap();
                orders.insert(d.locations.iter().map(|l| l.id).collect::<Vec<_>>());
            }
        }
        assert_eq!(orders.len(), 6);
    }

    #[test]
    fn the_party_goes_only_to_a_revealed_card_on_the_map_or_home() {
        let w = dealt(&world(), 2);
        assert!(err(set_party_location(&w, Some(id(1)))).contains("face down"));
        assert!(err(set_party_location(&w, Some(id(9)))).starts_with("location: there is no location"));
        assert!(err(set_party_location(&w, None)).contains("already at home"));
        let (w, _) = reveal_location(&w, id(1)).unwrap();
        let (w, ev) = set_party_location(&w, Some(id(1))).unwrap();
        assert_eq!(ev, [WorldEvent::PartyMoved { before: None, after: Some(id(1)) }]);
        assert!(err(set_party_location(&w, Some(id(1)))).contains("already at that location"));
        assert_eq!(w.problems("$"), vec![]);
        let (unplaced, _) = reveal_location(&world(), id(1)).unwrap();
        assert!(err(set_party_location(&unplaced, Some(id(1)))).contains("not on the map"));
        let (home, ev) = set_party_location(&w, None).unwrap();
        assert_eq!((home.party_at, &ev[0]), (None, &WorldEvent::PartyMoved { before: Some(id(1)), after: None }));
    }

    #[test]
    fn a_detail_from_a_world_at_risk_roll_ticks_the_partys_location_and_at_home_nothing() {
        let w = reveal_location(&dealt(&world(), 2), id(1)).unwrap().0;
        let (same, ev) = tick_party_location(&w).unwrap();
        assert_eq!((same, ev), (w.clone(), vec![]), "at home nothing ticks");
        let (w, _) = set_party_location(&w, Some(id(1))).unwrap();
        let (w, ev) = tick_party_location(&w).unwrap();
        assert_eq!(ev, [WorldEvent::CollateralChanged { location: id(1), before: 0, after: 1, clamped: false }]);
        let (w, _) = tick_collateral(&w, id(1), 7).unwrap();
        let (w, ev) = tick_party_location(&w).unwrap();
        assert_eq!(ev, [WorldEvent::CollateralChanged { location: id(1), before: 8, after: 8, clamped: true }]);
        assert_eq!(w.locations[0].collateral, 8);
    }

    #[test]
    fn paths_join_two_different_cards_on_the_map_once_either_way_round() {
        let w = world();
        assert!(err(add_path(&w, id(1), id(2))).starts_with("a: that card is not on the map"));
        let w = dealt(&w, 2);
        assert!(err(add_path(&w, id(1), id(1))).starts_with("b: a path joins two different"));
        assert!(err(add_path(&w, id(1), id(9))).starts_with("b: there is no location"));
        let (w, ev) = add_path(&w, id(1), id(2)).unwrap();
        assert_eq!(ev, [WorldEvent::PathAdded { path: MapPath { a: id(1), b: id(2) } }]);
        assert!(err(add_path(&w, id(2), id(1))).contains("already drawn"));
        assert_eq!(w.problems("$"), vec![]);
        let (w, _) = remove_path(&w, id(2), id(1)).unwrap();
        assert!(w.paths.is_empty());
        assert!(err(remove_path(&w, id(2), id(1))).contains("no path"));
    }

    #[test]
    fn an_npc_is_overcome_by_one_harm_or_by_its_threshold_of_two_to_four() {
        let (w, _) = add_npc(&World::default(), &NewNpc { id: id(20), name: "Rook".into() }).unwrap();
        let (ordinary, ev) = add_npc_harm(&w, id(20), "a broken wing").unwrap();
        assert!(matches!(ev[0], WorldEvent::NpcHarmAdded { overcome: true, .. }), "one harm: ordinary NPC");
        assert!(err(add_npc_harm(&ordinary, id(20), "more")).contains("already Overcome"));
        assert!(err(set_npc_threshold(&w, id(20), Some(5))).starts_with("threshold: 5 is out of range"));
        assert!(err(set_npc_threshold(&w, id(20), Some(1))).starts_with("threshold:"));
        let (w, _) = set_npc_threshold(&w, id(20), Some(3)).unwrap();
        let (w, _) = add_npc_harm(&w, id(20), "cut").unwrap();
        let (w, ev) = add_npc_harm(&w, id(20), "bruised").unwrap();
        assert!(matches!(ev[0], WorldEvent::NpcHarmAdded { index: 1, overcome: false, .. }));
        assert!(!w.npcs[0].overcome());
        // Lowering the threshold to the harm already written Overcomes the NPC at once.
        let (low, ev) = set_npc_threshold(&w, id(20), Some(2)).unwrap();
        assert_eq!(ev, [WorldEvent::NpcThresholdSet { npc: id(20), before: Some(3), after: Some(2), overcome: true }]);
        assert!(low.npcs[0].overcome());
        let (w, _) = add_npc_harm(&w, id(20), "limping").unwrap();
        assert!(w.npcs[0].overcome());
        let (w, ev) = remove_npc_harm(&w, id(20), 0).unwrap();
        assert!(matches!(&ev[0], WorldEvent::NpcHarmRemoved { overcome: false, text, .. } if text == "cut"));
        assert!(err(remove_npc_harm(&w, id(20), 5)).starts_with("harm: there is no harm detail 5"));
        assert_eq!(w.problems("$"), vec![]);
    }

    #[test]
    fn a_card_links_to_the_character_whose_player_wrote_it() {
        let (w, ev) = link_author(&world(), id(1), Some(id(50))).unwrap();
        assert_eq!(ev, [WorldEvent::AuthorLinked { location: id(1), before: None, after: Some(id(50)) }]);
        assert!(err(link_author(&w, id(1), Some(id(50)))).contains("already linked"));
        let json = serde_json::to_value(&w).unwrap();
        assert_eq!(json["locations"][0]["author_character"], id(50).to_string());
        assert!(json["locations"][1].get("author_character").is_none(), "absent when unknown");
    }

    #[test]
    fn problems_name_a_bad_party_location_paths_and_npc_thresholds() {
        let mut w = dealt(&world(), 2);
        let (mut unplaced, _) = author_location(&w, &new_location(3, "Bo")).unwrap();
        unplaced.party_at = Some(id(3));
        assert_eq!(unplaced.problems("$")[0].path, "$.party_at");
        w.party_at = Some(id(1));
        w.paths = vec![
            MapPath { a: id(1), b: id(2) },
            MapPath { a: id(2), b: id(1) },
            MapPath { a: id(1), b: id(9) },
            MapPath { a: id(2), b: id(2) },
        ];
        w.npcs =
            vec![Npc { id: id(20), name: "Rook".into(), threshold: Some(5), harm: vec![" ".into()], ..Npc::default() }];
        let problems: Vec<_> = w.problems("$").into_iter().map(|p| p.path).collect();
        assert_eq!(
            problems,
            ["$.npcs[0].threshold", "$.npcs[0].harm[0]", "$.party_at", "$.paths[1]", "$.paths[2].b", "$.paths[3].b",]
        );
    }

    #[test]
    fn a_world_without_the_party_paths_or_thresholds_reads_as_before() {
        let json = serde_json::to_value(world()).unwrap();
        for field in ["party_at", "paths"] {
            assert!(json.get(field).is_none(), "{field} is left out when empty");
        }
        assert_eq!(serde_json::from_value::<World>(json).unwrap(), world());
    }

    #[test]
    fn a_card_is_revealed_once() {
        let (w, ev) = reveal_location(&world(), id(2)).unwrap();
        assert_eq!(ev, [WorldEvent::LocationRevealed { location: id(2) }]);
        assert!(err(reveal_location(&w, id(2))).contains("already revealed"));
        assert!(err(reveal_location(&w, id(9))).starts_with("location: there is no location"));
    }

    #[test]
    fn typed_collateral_ticks_outside_zero_to_eight_are_refused() {
        let (w, ev) = tick_collateral(&world(), id(1), 7).unwrap();
        assert_eq!(ev, [WorldEvent::CollateralChanged { location: id(1), before: 0, after: 7, clamped: false }]);
        let before = w.clone();
        assert!(err(tick_collateral(&w, id(1), 2)).starts_with("ticks: the clock is at 7"));
        assert!(err(tick_collateral(&w, id(1), -8)).starts_with("ticks:"));
        assert_eq!(w, before);
        let (w, _) = tick_collateral(&w, id(1), -7).unwrap();
        assert_eq!(w.locations[0].collateral, 0);
    }

    #[test]
    fn a_scene_detail_itself_ticks_no_clock() {
        let (w, ev) = add_scene_detail(&world(), id(1), "the shelves collapse", false).unwrap();
        assert_eq!(ev.len(), 1);
        let (w, ev) = add_scene_detail(&w, id(1), "the moths scatter", true).unwrap();
        assert_eq!(ev.len(), 1, "the roll's tick goes to the party's location, elsewhere");
        assert_eq!(w.locations[0].collateral, 0);
        assert!(w.locations[0].scene_details[1].world_at_risk);
        assert!(err(add_scene_detail(&w, id(1), " ", true)).starts_with("scene_detail:"));
    }

    #[test]
    fn scouting_records_a_character_once_and_only_on_face_down_cards() {
        let (w, ev) = record_scout(&world(), id(1), id(50)).unwrap();
        assert_eq!(ev, [WorldEvent::LocationScouted { location: id(1), character: id(50), first_time: true }]);
        let (w, ev) = record_scout(&w, id(1), id(50)).unwrap();
        assert!(matches!(ev[0], WorldEvent::LocationScouted { first_time: false, .. }));
        assert_eq!(w.locations[0].scouted_by, [id(50)]);
        let (w, _) = reveal_location(&w, id(1)).unwrap();
        assert!(err(record_scout(&w, id(1), id(51))).contains("face up"));
    }

    #[test]
    fn project_clocks_have_2_to_12_segments_and_stop_when_full() {
        let new = |size| NewProject { id: id(7), name: "Learn carpentry".into(), owner: id(50), size };
        for size in [0, 1, 13, 255] {
            assert!(err(start_project(&World::default(), &new(size))).starts_with("size:"), "{size}");
        }
        // Usually 4, 6 or 8; any size from 2 to 12 by the table's choice (decision 2026-11-28).
        for size in 2..=12 {
            let (w, _) = start_project(&World::default(), &new(size)).unwrap();
            assert_eq!(w.projects[0].size, size);
            assert!(w.problems("world").is_empty(), "{size}: {:?}", w.problems("world"));
        }
        let (w, _) = start_project(&World::default(), &new(4)).unwrap();
        assert!(err(start_project(&w, &new(6))).starts_with("project:"));
        let (w, _) = mark_project(&w, id(7), 3).unwrap();
        let (w, ev) = mark_project(&w, id(7), 3).unwrap();
        assert_eq!(
            ev,
            [WorldEvent::ProjectMarked { project: id(7), segments: 3, before: 3, after: 4, completed: true }]
        );
        assert!(err(mark_project(&w, id(7), 1)).contains("already complete"));
    }

    #[test]
    fn npcs_are_named_and_take_details_that_can_be_crossed_off() {
        let new = |n, name: &str| NewNpc { id: id(n), name: name.into() };
        assert_eq!(err(add_npc(&World::default(), &new(20, "  "))), "name: must not be empty");
        let (w, ev) = add_npc(&World::default(), &new(20, " Mother Rook ")).unwrap();
        assert_eq!(ev, [WorldEvent::NpcAdded { npc: id(20), name: "Mother Rook".into() }]);
        assert!(err(add_npc(&w, &new(20, "Other"))).starts_with("npc:"));
        let (w, ev) = add_npc_detail(&w, id(20), " owes us a favour ", true).unwrap();
        let favour = Detail { text: "owes us a favour".into(), positive: true };
        assert_eq!(
            ev,
            [WorldEvent::NpcDetailAdded {
                npc: id(20),
                index: 0,
                detail: favour.clone(),
                before: vec![],
                after: vec![favour.clone()]
            }]
        );
        let (w, _) = add_npc_detail(&w, id(20), "limps", false).unwrap();
        assert!(err(add_npc_detail(&w, id(20), " ", true)).starts_with("detail: must not be empty"));
        assert!(err(add_npc_detail(&w, id(21), "x", true)).starts_with("npc: there is no NPC"));
        let before = w.clone();
        assert!(err(remove_npc_detail(&w, id(20), 2)).starts_with("detail: there is no detail 2"));
        assert_eq!(w, before);
        let (w, ev) = remove_npc_detail(&w, id(20), 1).unwrap();
        assert!(
            matches!(&ev[0], WorldEvent::NpcDetailRemoved { index: 1, after, .. } if after.as_slice() == std::slice::from_ref(&favour))
        );
        assert_eq!(w.npcs[0].details, [favour]);
        assert_eq!(w.problems("$"), vec![]);
    }

    #[test]
    fn a_world_without_npcs_reads_and_writes_without_the_field() {
        let json = serde_json::to_value(world()).unwrap();
        assert!(json.get("npcs").is_none());
        assert_eq!(serde_json::from_value::<World>(json).unwrap(), world());
        let (w, _) = add_npc(&World::default(), &NewNpc { id: id(20), name: "Rook".into() }).unwrap();
        let json = serde_json::to_string(&w).unwrap();
        assert_eq!(serde_json::from_str::<World>(&json).unwrap(), w);
    }

    #[test]
    fn problems_name_every_broken_invariant() {
        let mut w = world();
        w.locations[0].collateral = 9;
        (w.locations[0].danger_level, w.locations[0].reward_level) = (Some(0), Some(1));
        (w.locations[1].danger_level, w.locations[1].reward_level) = (Some(1), Some(5));
        w.locations[0].position = Some(GridPos { x: 1, y: 1 });
        w.locations[1].position = Some(GridPos { x: 1, y: 1 });
        w.locations[1].scouted_by = vec![id(3), id(3)];
        w.locations[1].id = id(1);
        w.bans = vec![Ban { player: "Ana".into(), ban: None }, Ban { player: "ana".into(), ban: Some(" ".into()) }];
        w.projects = vec![
            ProjectClock { id: id(7), name: "A".into(), owner: id(1), size: 6, filled: 7 },
            ProjectClock { id: id(8), name: "B".into(), owner: id(1), size: 13, filled: 0 },
        ];
        w.npcs = vec![
            Npc {
                id: id(20),
                name: "Rook".into(),
                details: vec![Detail { text: " ".into(), positive: false }],
                ..Npc::default()
            },
            Npc { id: id(20), name: "".into(), ..Npc::default() },
        ];
        let paths: Vec<_> = w.problems("$.world").into_iter().map(|p| p.path).collect();
        assert_eq!(
            paths,
            [
                "$.world.bans[1].player",
                "$.world.bans[1].ban",
                "$.world.locations[0].danger_level",
                "$.world.locations[0].collateral",
                "$.world.locations[1].id",
                "$.world.locations[1].reward_level",
                "$.world.locations[1].position",
                "$.world.locations[1].scouted_by[1]",
                "$.world.projects[0].filled",
                "$.world.projects[1].size",
                "$.world.npcs[0].details[0].text",
                "$.world.npcs[1].id",
                "$.world.npcs[1].name",
            ]
        );
    }

    #[test]
    fn a_list_over_its_cap_is_one_problem_and_its_entries_are_not_read() {
        // Half a million bans, each named like the first: one problem, found at once.
        let ban = Ban { player: "Ana".into(), ban: Some("\u{0}".into()) };
        let w = World { bans: vec![ban; 500_000], ..world() };
        let problems = w.problems("$");
        assert_eq!(problems.len(), 1, "{:?}", &problems[..2]);
        assert_eq!(problems[0].path, "$.bans");
        assert_eq!(problems[0].message, "500000 bans; a world keeps at most 100");
        let details = vec![Detail { text: "x".into(), positive: true }; MAX_NPC_DETAILS + 1];
        let w = World {
            npcs: vec![Npc { id: id(20), name: "Rook".into(), details, ..Npc::default() }],
            ..World::default()
        };
        assert_eq!(w.problems("$")[0].message, "101 details; an NPC keeps at most 100");
    }

    #[test]
    fn moves_stop_at_each_lists_cap() {
        let mut w = World::default();
        for i in 0..MAX_BANS {
            w = record_ban(&w, &format!("Player {i}"), None).unwrap().0;
        }
        assert_eq!(err(record_ban(&w, "One more", None)), "player: a world keeps at most 100 bans");
        let mut w = world();
        for i in 0..MAX_SCENE_DETAILS {
            w = add_scene_detail(&w, id(1), &format!("detail {i}"), false).unwrap().0;
        }
        assert!(err(add_scene_detail(&w, id(1), "one more", false)).contains("at most 200 scene details"));
        let w = World { safety: Safety { lines: vec!["x".into(); MAX_SAFETY_ENTRIES], veils: vec![] }, ..world() };
        assert!(err(add_safety_entry(&w, SafetyList::Lines, "y")).starts_with("lines: a world keeps at most 100"));
        assert!(add_safety_entry(&w, SafetyList::Veils, "y").is_ok());
        assert_eq!(w.problems("$"), vec![], "a full list is within its cap");
    }

    #[test]
    fn texts_in_a_world_refuse_nul_escapes_and_bidi_overrides() {
        let mut w = world();
        w.scope = vec![ScopeQuestion { question: "\u{0}".into(), answer: "fine\nanswer".into() }];
        w.locations[0].danger = "\u{1b}[2J".into();
        w.locations[1].name = "\u{202e}Mill".into();
        let paths: Vec<_> = w.problems("$").into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.scope[0].question", "$.locations[0].danger", "$.locations[1].name"]);
        assert!(err(add_scope_question(&World::default(), "a\u{0}b")).starts_with("question: must not contain the NUL"));
    }

    #[test]
    fn a_world_round_trips_through_json() {
        let (w, _) = add_scene_detail(&world(), id(1), "smoke", true).unwrap();
        let json = serde_json::to_string(&w).unwrap();
        assert_eq!(serde_json::from_str::<World>(&json).unwrap(), w);
        let event = serde_json::to_value(WorldEvent::LocationRevealed { location: id(1) }).unwrap();
        assert_eq!(event["event"], "location_revealed");
    }

    proptest! {
        /// Whatever legal moves are made, in whatever order, the world keeps its invariants.
        #[test]
        fn random_moves_keep_the_world_valid(
            seed in any::<u64>(),
            moves in prop::collection::vec((0u8..14, -10i8..10, 0u8..6), 0..60),
        ) {
            use rand::SeedableRng;
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let mut w = world();
            let project = NewProject { id: id(7), name: "P".into(), owner: id(50), size: 6 };
            w = start_project(&w, &project).unwrap().0;
            for (kind, n, pick) in moves {
                let loc = id(u128::from(pick % 2) + 1);
                let result = match kind {
                    0 => tick_collateral(&w, loc, n),
                    1 => add_scene_detail(&w, loc, "detail", n > 0),
                    2 => place_location(&w, loc, GridPos { x: i16::from(n) * 8, y: i16::from(pick) }),
                    3 => reveal_location(&w, loc),
                    4 => roll_levels(&w, loc, &mut Rolled(&mut rng)),
                    5 => mark_project(&w, id(7), pick),
                    6 => record_scout(&w, loc, id(u128::from(pick))),
                    7 => shift_collateral_clamped(&w, loc, i16::from(n)),
                    8 => {
                        let cells: Vec<_> =
                            (0..w.locations.len()).map(|i| GridPos { x: i16::from(n), y: i as i16 }).collect();
                        deal_locations(&w, &cells, &mut Rolled(&mut rng))
                    }
                    9 => set_party_location(&w, (pick < 4).then_some(loc)),
                    10 => add_path(&w, id(1), loc),
                    11 => remove_path(&w, id(2), loc),
                    12 => author_location(&w, &new_location(u128::from(pick) + 3, &format!("P{pick}"))),
                    _ => tick_party_location(&w),
                };
                if let Ok((next, _)) = result {
                    w = next;
                }
                prop_assert_eq!(w.problems("$"), vec![]);
            }
        }
    }
}
