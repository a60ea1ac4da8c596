//! One vote model for conflicts ([`super::vote`]) and action checks ([`super::action_check`],
//! and so every challenge major action): the vote sources both take, checked and paid in
//! one place (RULES.md §3.2 "every other vote source the seed grants"; seed: "Action checks
//! work as per Resolving Conflicts").
//!
//! - [`Law`] and [`Direction`]: a Setting Law invoked — Consistency, Inertia, Potential, one
//!   of the game's own laws, or an arc Theme — once per player, each fact once.
//! - [`Sources`]: what the table recorded that votes may be drawn from.
//! - [`Ledger`]: casts the sources in order on copies of the players and elements — laws,
//!   Victory Narration votes (the bank of the table's challenge), Ill Fated (adversity debt
//!   paid off, a vote a point), Discover (once per detail) — and keeps what they cost.
//!
//! Each caller adds only what is its own: a conflict's free votes and options, a check's
//! base chance, sides, ±2 clamp of the laws' net effect (RULES.md §3.3) and spends.
//!
//! Rulings where the source is silent:
//! - A custom Setting Law or an arc Theme counts like Potential: +1 for, −1 against, and it
//!   is the player's one law.
//! - The momentum, debt and narration votes of a claimed element are its claimer's to spend.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::element::{pay_off_debt, DebtPayoff, Element, ElementEvent, Player};
use super::plot::{CustomLaw, Theme};
use crate::error::{Error, Result};

/// Which way a vote goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The option or side gains a vote.
    For,
    /// The option or side loses a vote.
    Against,
}

impl Direction {
    pub fn sign(self) -> i64 {
        match self {
            Direction::For => 1,
            Direction::Against => -1,
        }
    }
}

/// A Setting Law invoked (its direction beside it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "law", rename_all = "snake_case", deny_unknown_fields)]
pub enum Law {
    /// A fact supports (for) or contradicts (against) the target; each fact once.
    Consistency { fact: String },
    /// The target changes a fact in a major way: it loses a vote.
    Inertia { fact: String },
    /// The target opens (for) or closes off (against) possibilities.
    Potential,
    /// A Setting Law the table made for its game ([`CustomLaw`], by id): ±1 like Potential.
    Custom { id: Uuid },
    /// The arc Theme player `by` set at the Turning Point: ±1 like Potential.
    Theme { by: Uuid },
}

/// Votes a victor bought with momentum (Victory Narration) when it left a challenge: the
/// conflicts about that victory spend them until the table's next challenge starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryVotes {
    pub element: Uuid,
    pub challenge: Uuid,
    pub votes: u32,
}

/// What the table recorded that votes may be drawn from (read from the table by
/// [`Sources::of`], which lives with the table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sources {
    /// The game's own Setting Laws.
    pub laws: Vec<CustomLaw>,
    /// The arc's Themes.
    pub themes: Vec<Theme>,
    /// Victory Narration votes not spent yet (of the table's challenge).
    pub victory_votes: Vec<VictoryVotes>,
    /// The details Discover perks added in the table's challenge.
    pub discoveries: Vec<String>,
}

/// The longest text of a fact or a detail.
const MAX_TEXT: usize = 500;

/// The vote sources cast so far, on copies of the players and elements. An illegal cast is an
/// [`Error::Invalid`] naming the cast's own field (`law.fact`, `votes`, `points`…) and
/// changes nothing.
#[derive(Clone, Debug)]
pub struct Ledger<'a> {
    players: &'a [Player],
    elements: &'a [Element],
    sources: &'a Sources,
    /// "conflict" or "check", for the messages.
    what: &'static str,
    /// Players and elements as paid so far, each once, in the order first paid.
    paid_players: Vec<Player>,
    paid_elements: Vec<Element>,
    /// The Victory Narration votes left.
    bank: Vec<VictoryVotes>,
    law_by: BTreeSet<Uuid>,
    facts: BTreeSet<String>,
    details: BTreeSet<String>,
    events: Vec<ElementEvent>,
}

/// What a [`Ledger`] cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bill {
    /// The players and elements that paid, as they are after.
    pub players: Vec<Player>,
    pub elements: Vec<Element>,
    /// The Victory Narration votes left (the table's bank after), when any was spent.
    pub victory_votes: Option<Vec<VictoryVotes>>,
    pub events: Vec<ElementEvent>,
}

impl<'a> Ledger<'a> {
    pub fn new(what: &'static str, players: &'a [Player], elements: &'a [Element], sources: &'a Sources) -> Self {
        Ledger {
            players,
            elements,
            sources,
            what,
            paid_players: Vec::new(),
            paid_elements: Vec::new(),
            bank: sources.victory_votes.clone(),
            law_by: BTreeSet::new(),
            facts: BTreeSet::new(),
            details: BTreeSet::new(),
            events: Vec::new(),
        }
    }

    /// Player `id` as paid so far.
    pub fn player(&self, field: &str, id: Uuid) -> Result<Player> {
        self.paid_players
            .iter()
            .find(|p| p.id == id)
            .or_else(|| self.players.iter().find(|p| p.id == id))
            .cloned()
            .ok_or_else(|| Error::invalid(field, format!("player {id} is not at the table")))
    }

    /// Element `id` as paid so far.
    pub fn element(&self, field: &str, id: Uuid) -> Result<Element> {
        self.paid_elements
            .iter()
            .find(|e| e.id == id)
            .or_else(|| self.elements.iter().find(|e| e.id == id))
            .cloned()
            .ok_or_else(|| Error::invalid(field, format!("element {id} is not a story element at this table")))
    }

    pub fn put_player(&mut self, p: Player, events: Vec<ElementEvent>) {
        match self.paid_players.iter_mut().find(|q| q.id == p.id) {
            Some(slot) => *slot = p,
            None => self.paid_players.push(p),
        }
        self.events.extend(events);
    }

    pub fn put_element(&mut self, e: Element, events: Vec<ElementEvent>) {
        match self.paid_elements.iter_mut().find(|f| f.id == e.id) {
            Some(slot) => *slot = e,
            None => self.paid_elements.push(e),
        }
        self.events.extend(events);
    }

    /// Player `player` invokes `law` in `direction`: the votes it adds (−1 or +1).
    pub fn law(&mut self, player: Uuid, law: &Law, direction: Direction) -> Result<i64> {
        let p = self.player("player", player)?;
        if self.law_by.contains(&player) {
            return Err(Error::invalid("law", format!("{} already invoked a law in this {}", p.name, self.what)));
        }
        let delta = match law {
            Law::Consistency { fact } => {
                let fact = text("law.fact", fact)?;
                if self.facts.contains(&fact.to_lowercase()) {
                    return Err(Error::invalid("law.fact", format!("“{fact}” serves once per {}", self.what)));
                }
                self.facts.insert(fact.to_lowercase());
                direction.sign()
            }
            Law::Inertia { fact } => {
                text("law.fact", fact)?;
                if direction == Direction::For {
                    return Err(Error::invalid("direction", "the Law of Inertia only takes a vote away"));
                }
                -1
            }
            Law::Potential => direction.sign(),
            Law::Custom { id } => {
                if !self.sources.laws.iter().any(|l| l.id == *id) {
                    return Err(Error::invalid("law.id", "is not one of this game's Setting Laws"));
                }
                direction.sign()
            }
            Law::Theme { by } => {
                if !self.sources.themes.iter().any(|t| t.by == *by) {
                    return Err(Error::invalid("law.by", "set no Theme of this arc"));
                }
                direction.sign()
            }
        };
        self.law_by.insert(player);
        Ok(delta)
    }

    /// A claimed element's resources are its claimer's to spend.
    fn claimer(e: &Element, by: Uuid, what: &str) -> Result<()> {
        match e.claimed_by {
            Some(p) if p != by => {
                Err(Error::invalid("by", format!("{} is claimed: its {what} is its claimer's", e.name)))
            }
            _ => Ok(()),
        }
    }

    /// Victory Narration: player `by` spends `votes` of the votes `element` bought with
    /// momentum when it left the table's challenge in victory.
    pub fn narration(&mut self, element: Uuid, by: Uuid, votes: u32) -> Result<()> {
        self.player("by", by)?;
        let e = self.element("element", element)?;
        Self::claimer(&e, by, "momentum")?;
        let held = self.bank.iter_mut().find(|b| b.element == element);
        let has = held.as_ref().map_or(0, |b| b.votes);
        if votes == 0 || votes > has {
            return Err(Error::invalid(
                "votes",
                format!("{} holds {has} Victory Narration vote(s) from the table's challenge", e.name),
            ));
        }
        if let Some(b) = held {
            b.votes -= votes;
        }
        Ok(())
    }

    /// Ill Fated: player `by` pays off `points` of `element`'s adversity debt, a vote each for
    /// the event that makes life harder for it.
    pub fn ill_fated(&mut self, element: Uuid, by: Uuid, points: u32) -> Result<()> {
        self.player("by", by)?;
        let e = self.element("element", element)?;
        Self::claimer(&e, by, "adversity debt")?;
        let (after, events) = pay_off_debt(&e, points, DebtPayoff::IllFated).map_err(|err| rename(err, "points"))?;
        self.put_element(after, events);
        Ok(())
    }

    /// Discover: the extra vote of a detail a Discover perk of the table's challenge added,
    /// once per detail. Returns the detail as cleaned.
    pub fn discover(&mut self, detail: &str) -> Result<String> {
        let detail = text("detail", detail)?;
        if !self.sources.discoveries.iter().any(|d| d.eq_ignore_ascii_case(&detail)) {
            return Err(Error::invalid(
                "detail",
                format!("no Discover perk of the table's challenge added “{detail}”"),
            ));
        }
        if !self.details.insert(detail.to_lowercase()) {
            return Err(Error::invalid("detail", format!("“{detail}” already has its extra vote")));
        }
        Ok(detail)
    }

    /// What every cast cost.
    pub fn bill(self) -> Bill {
        let spent = self.bank != self.sources.victory_votes;
        let mut bank = self.bank;
        bank.retain(|b| b.votes > 0);
        Bill {
            players: self.paid_players,
            elements: self.paid_elements,
            victory_votes: spent.then_some(bank),
            events: self.events,
        }
    }
}

/// A fact's or detail's text, trimmed: 1 to 500 characters, no control characters.
pub(super) fn text(field: &str, raw: &str) -> Result<String> {
    let t = raw.trim();
    if t.is_empty() || t.chars().count() > MAX_TEXT {
        return Err(Error::invalid(field, format!("must be 1 to {MAX_TEXT} characters, no control characters")));
    }
    if let Some(p) = crate::model::line_chars_problem(t) {
        return Err(Error::invalid(field, p));
    }
    Ok(t.to_owned())
}

/// The rules' error, at `field`.
pub(super) fn rename(e: Error, field: &str) -> Error {
    match e {
        Error::Invalid { problem, .. } => Error::invalid(field, problem),
        other => other,
    }
}

/// The error of a cast's own field, under `prefix` (`casts[2]` + `votes` → `casts[2].votes`).
pub(super) fn under(prefix: &str, e: Error) -> Error {
    match e {
        Error::Invalid { field, problem } => Error::invalid(format!("{prefix}.{field}"), problem),
        other => other,
    }
}
