//! Reading a Mezzo element and table: the register, plot, seed deck and challenge.

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use uuid::Uuid;

use crate::error::Error;
use crate::model::{name_problem, text_problem};
use crate::rules::mezzo::ballot::Sources;
use crate::rules::mezzo::challenge::{Challenge, MAX_CHALLENGERS};
use crate::rules::mezzo::element::{clean_text, Element, ElementKind, Lasts, Player, TraitKind, Via};
use crate::rules::mezzo::plot::{self, Resource};
use crate::rules::mezzo::seed_deck::{self, Card, KeywordDie, SeedDeck};
use crate::rules::mezzo::table::MezzoTable;
use crate::Problem;

use super::Validator;

/// Mezzo: a character's story element and a game's table.
impl Validator {
    /// A character's element read by its types (the first type error is reported at its
    /// path), then everything [`element_problems`] finds, and that its id and name are the
    /// character's and it is a character. Returned as the rules keep it: names and texts
    /// trimmed.
    pub(super) fn mezzo_sheet(
        &mut self,
        path: &str,
        v: &Value,
        id: Option<Uuid>,
        name: Option<&str>,
    ) -> Option<Element> {
        let element: Element = self.typed(path, v)?;
        let before = self.found;
        self.extend(element_problems(&element, path));
        if id.is_some_and(|id| id != element.id) {
            self.problem(format!("{path}.id"), format!("{} is not the character's id", element.id));
        }
        if element.kind != ElementKind::Character {
            self.problem(format!("{path}.kind"), "a character's element is a character");
        }
        if name.is_some_and(|name| name != element.name.trim()) {
            self.problem(format!("{path}.name"), format!("{:?} is not the character's name", element.name));
        }
        (self.found == before).then(|| trimmed(element))
    }

    /// A table read by its types, then its players (names, unique ids and roles, each
    /// character claimed once), its own elements (not characters, unique ids, each
    /// element's problems), its plot (hooks and their points, the Turning Point, No Escape
    /// targets), its seed deck and its keyword die. Claims against the characters are
    /// checked by the game.
    pub(super) fn mezzo_table(&mut self, path: &str, v: &Value) -> Option<MezzoTable> {
        let mut table: MezzoTable = self.typed(path, v)?;
        let before = self.found;
        let mut players = HashMap::new();
        let mut claims = HashMap::new();
        for (i, p) in table.players.iter().enumerate() {
            let at = format!("{path}.players[{i}]");
            if let Some(problem) = name_problem(&p.name) {
                self.problem(format!("{at}.name"), problem);
            }
            if let Some(first) = players.insert(p.id, i) {
                self.problem(format!("{at}.id"), format!("duplicate player id {}: also players[{first}]", p.id));
            }
            let mut roles = HashSet::new();
            for (j, role) in p.roles.iter().enumerate() {
                if !roles.insert(role) {
                    self.problem(format!("{at}.roles[{j}]"), "each role is taken at most once");
                }
            }
            for (j, c) in p.claimed.iter().enumerate() {
                if let Some(first) = claims.insert(*c, format!("players[{i}].claimed")) {
                    self.problem(format!("{at}.claimed[{j}]"), format!("{c} is claimed twice: also in {first}"));
                }
            }
        }
        let mut elements = HashMap::new();
        for (i, e) in table.elements.iter().enumerate() {
            let at = format!("{path}.elements[{i}]");
            self.extend(element_problems(e, &at));
            if e.kind == ElementKind::Character {
                self.problem(
                    format!("{at}.kind"),
                    "characters are the game's characters; a table's own elements are objects, locations, \
                     factions and goals",
                );
            }
            if let Some(first) = elements.insert(e.id, i) {
                self.problem(format!("{at}.id"), format!("duplicate element id {}: also elements[{first}]", e.id));
            }
        }
        self.extend(plot_problems(&table, path));
        // The scene's active elements: each once. A file may leave out characters the game
        // keeps here, so an id it does not carry is not refused (the app shows only those
        // it knows).
        for (i, id) in table.scene.active.iter().enumerate() {
            if table.scene.active[..i].contains(id) {
                self.problem(format!("{path}.scene.active[{i}]"), format!("{id} is active twice"));
            }
        }
        if let Some(deck) = &table.deck {
            self.extend(deck_problems(deck, &format!("{path}.deck")));
        }
        for p in table.challenge.iter().flat_map(Challenge::problems) {
            self.problem(format!("{path}.challenge.{}", p.path), p.message);
        }
        self.extend(register_problems(&table, path));
        if let Some(die) = &mut table.keyword_die {
            match KeywordDie::new(die.sides, &die.keywords) {
                Ok(clean) => *die = clean,
                Err(e) => {
                    let (field, message) = match e {
                        Error::Invalid { field, problem } => (field, problem),
                        other => ("sides".to_owned(), other.to_string()),
                    };
                    self.problem(format!("{path}.keyword_die.{field}"), message);
                }
            }
        }
        if self.found > before {
            return None;
        }
        for p in &mut table.players {
            p.name = p.name.trim().to_owned();
        }
        table.elements = table.elements.into_iter().map(trimmed).collect();
        for h in &mut table.plot.hooks {
            h.text = h.text.trim().to_owned();
        }
        for t in table.plot.turning_point.iter_mut().flat_map(|tp| tp.themes.iter_mut()) {
            t.text = t.text.trim().to_owned();
        }
        if let Some(deck) = &mut table.deck {
            trim_cards(deck);
        }
        for l in &mut table.laws {
            (l.name, l.effect) = (l.name.trim().to_owned(), l.effect.trim().to_owned());
        }
        for f in &mut table.facts {
            f.text = f.text.trim().to_owned();
        }
        for c in &mut table.plot.consequences {
            c.text = c.text.trim().to_owned();
        }
        if let Some(ch) = &mut table.challenge {
            ch.description = ch.description.trim().to_owned();
            ch.sides.iter_mut().for_each(|s| s.name = s.name.trim().to_owned());
            ch.challengers.iter_mut().for_each(|c| c.stake = c.stake.as_ref().map(|s| s.trim().to_owned()));
        }
        Some(table)
    }
}

/// "duplicate law id …" (`what` names the kind) when `id` is in `seen` already, the ids of
/// the list before it; else `id` joins them.
fn repeated_id(seen: &mut Vec<Uuid>, id: Uuid, what: &str) -> Option<String> {
    if seen.contains(&id) {
        return Some(format!("duplicate {what} id {id}"));
    }
    seen.push(id);
    None
}

/// What is wrong with a table's own Setting Laws, facts register and narration votes: each
/// checked as the rules' moves would make it (ids once, texts clean, names not taken twice).
fn register_problems(table: &MezzoTable, path: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
    let mut laws = Vec::new();
    for (i, l) in table.laws.iter().enumerate() {
        let at = format!("{path}.laws[{i}]");
        if let Some(p) = repeated_id(&mut laws, l.id, "law") {
            problem(format!("{at}.id"), p);
        }
        // The same check a table's move makes, against the laws before this one.
        if let Err(Error::Invalid { field, problem: p }) = plot::put_law(&table.laws[..i], l.id, &l.name, &l.effect) {
            problem(format!("{at}.{field}"), p);
        }
    }
    let mut facts = Vec::new();
    for (i, f) in table.facts.iter().enumerate() {
        let at = format!("{path}.facts[{i}]");
        if let Some(p) = repeated_id(&mut facts, f.id, "fact") {
            problem(format!("{at}.id"), p);
        }
        if f.arc > table.arc() {
            problem(
                format!("{at}.arc"),
                format!("arc {} has not started (the table is in arc {})", f.arc, table.arc()),
            );
        }
        if let Err(Error::Invalid { field, problem: p }) = plot::put_fact(&table.facts[..i], f.arc, f.id, &f.text) {
            problem(format!("{at}.{field}"), p);
        }
    }
    // An arc's consequences (written in the file's `plot`): ids once, clean text, made in an
    // arc already played.
    let mut kept = Vec::new();
    for (i, c) in table.plot.consequences.iter().enumerate() {
        let at = format!("{path}.plot.consequences[{i}]");
        if let Some(p) = repeated_id(&mut kept, c.id, "consequence") {
            problem(format!("{at}.id"), p);
        }
        if c.arc > table.arc() || c.arc == 0 {
            problem(
                format!("{at}.arc"),
                format!("arc {} is not an arc played (the table is in arc {})", c.arc, table.arc()),
            );
        }
        let before = plot::Arc { consequences: table.plot.consequences[..i].to_vec(), ..plot::Arc::new(c.arc) };
        if let Err(Error::Invalid { field, problem: p }) = plot::put_consequence(&before, c.id, &c.text, c.contagious) {
            problem(format!("{at}.{field}"), p);
        }
    }
    let mut banked = Vec::new();
    for (i, v) in table.victory_votes.iter().enumerate() {
        let at = format!("{path}.victory_votes[{i}]");
        if v.votes == 0 {
            problem(format!("{at}.votes"), "a narration bank holds at least 1 vote".into());
        }
        if banked.contains(&(v.element, v.challenge)) {
            problem(format!("{at}.element"), "is listed twice for the same challenge".into());
        }
        banked.push((v.element, v.challenge));
    }
    out
}

/// Everything wrong with a stored or imported story element: the rules' own
/// [`Element::problems`], and what else the rules' moves never produce (a property text too
/// long or with control characters, a trait in a slot that is not an edge or does not last,
/// an element lending its protection to itself).
fn element_problems(e: &Element, path: &str) -> Vec<Problem> {
    let mut out: Vec<Problem> =
        e.problems().into_iter().map(|p| Problem { path: format!("{path}.{}", p.path), message: p.message }).collect();
    let mut problem = |at: String, message: &str| out.push(Problem { path: at, message: message.into() });
    if e.plot_protection.lent_by == Some(e.id) {
        problem(format!("{path}.plot_protection.lent_by"), "an element does not lend its protection to itself");
    }
    for (i, t) in e.traits.iter().enumerate() {
        let at = format!("{path}.traits[{i}]");
        let p = &t.properties;
        for (field, text) in [
            ("requirements", &p.requirements),
            ("restrictions", &p.restrictions),
            ("owner", &p.owner),
            ("target", &p.target),
            ("set_up", &p.set_up),
            ("effects", &p.effects),
            ("details", &p.details),
        ] {
            if let Err(e) = clean_text(field, text) {
                let message = match e {
                    Error::Invalid { problem, .. } => problem,
                    other => other.to_string(),
                };
                problem(format!("{at}.properties.{field}"), &message);
            }
        }
        match t.via {
            Via::EdgeSlot if !matches!(t.kind, TraitKind::Edge | TraitKind::Extra) => {
                problem(format!("{at}.via"), "only edges (and extras bought as edges) fill edge slots");
            }
            Via::EdgeSlot if t.lasts != Lasts::Lasting || t.uses_left.is_some() => {
                problem(format!("{at}.lasts"), "an edge in a slot lasts until it is lost");
            }
            Via::FreeExtra if t.kind != TraitKind::Extra => {
                problem(format!("{at}.via"), "only an extra comes free with its trait");
            }
            Via::UnexpectedEdge | Via::Boon if t.kind != TraitKind::Edge => {
                problem(format!("{at}.kind"), "unexpected edges and boons are edges");
            }
            _ => {}
        }
    }
    out
}

/// Everything wrong with a table's plot: a plot before the first arc; a hook twice, with an
/// unfit focus, an element named twice, an empty investment or more than a hook holds of a
/// kind; a Turning Point without challengers, naming one twice, or with a theme not by one
/// of them or twice by one; a No Escape target that is its chooser or chosen twice by one
/// challenger in a challenge.
fn plot_problems(table: &MezzoTable, path: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
    let plot = &table.plot;
    let at = format!("{path}.plot");
    if plot.number == 0 && (!plot.hooks.is_empty() || plot.turning_point.is_some() || !plot.no_escape.is_empty()) {
        problem(at.clone(), "the table's arc is 0: plot hooks and Turning Points belong to an arc".into());
    }
    if plot.hooks.len() > plot::MAX_HOOKS {
        problem(
            format!("{at}.hooks"),
            format!("{} open plot hooks; an arc holds at most {}", plot.hooks.len(), plot::MAX_HOOKS),
        );
    }
    let mut hooks = HashMap::new();
    for (i, h) in plot.hooks.iter().enumerate().take(plot::MAX_HOOKS) {
        let at = format!("{at}.hooks[{i}]");
        if let Some(first) = hooks.insert(h.id, i) {
            problem(format!("{at}.id"), format!("duplicate hook id {}: also hooks[{first}]", h.id));
        }
        if let Some(p) = text_problem(&h.text, plot::MAX_TEXT_CHARS) {
            problem(format!("{at}.text"), p);
        }
        if h.elements.len() > plot::MAX_HOOK_ELEMENTS {
            problem(
                format!("{at}.elements"),
                format!("names {} elements; a hook names at most {}", h.elements.len(), plot::MAX_HOOK_ELEMENTS),
            );
        } else {
            let mut named = HashSet::new();
            for (j, e) in h.elements.iter().enumerate() {
                if !named.insert(e) {
                    problem(format!("{at}.elements[{j}]"), format!("{e} is named twice"));
                }
            }
        }
        for (j, inv) in h.stored.iter().enumerate() {
            if inv.points == 0 {
                problem(format!("{at}.stored[{j}].points"), "must be at least 1".into());
            }
        }
        for r in Resource::ALL {
            let held: u64 = h.stored.iter().filter(|i| i.resource == r).map(|i| u64::from(i.points)).sum();
            if held > u64::from(plot::MAX_STORED) {
                problem(
                    format!("{at}.stored"),
                    format!("holds {held} {}; a hook holds at most {} of a kind", r.word(), plot::MAX_STORED),
                );
            }
        }
    }
    if let Some(tp) = &plot.turning_point {
        let at = format!("{at}.turning_point");
        if tp.challengers.is_empty() {
            problem(format!("{at}.challengers"), "names no challenger".into());
        }
        for (field, len, cap) in [
            ("challengers", tp.challengers.len(), MAX_CHALLENGERS),
            ("hooks", tp.hooks.len(), plot::MAX_HOOKS),
            ("themes", tp.themes.len(), MAX_CHALLENGERS),
        ] {
            if len > cap {
                problem(format!("{at}.{field}"), format!("{len} {field}; a Turning Point has at most {cap}"));
            }
        }
        let mut challengers = HashSet::new();
        for (k, c) in tp.challengers.iter().enumerate() {
            if !challengers.insert(c) {
                problem(format!("{at}.challengers[{k}]"), format!("{c} is named twice"));
            }
        }
        let mut tied = HashSet::new();
        for (k, h) in tp.hooks.iter().enumerate() {
            if !tied.insert(h) {
                problem(format!("{at}.hooks[{k}]"), format!("{h} is named twice"));
            }
        }
        let mut setters = HashSet::new();
        for (k, t) in tp.themes.iter().enumerate() {
            if !challengers.contains(&t.by) {
                problem(format!("{at}.themes[{k}].by"), format!("{} was not a challenger at the Turning Point", t.by));
            } else if !setters.insert(t.by) {
                problem(format!("{at}.themes[{k}].by"), "sets one theme of the arc".into());
            }
            if let Some(p) = text_problem(&t.text, plot::MAX_TEXT_CHARS) {
                problem(format!("{at}.themes[{k}].text"), p);
            }
        }
    }
    let mut chosen = HashSet::new();
    for (k, n) in plot.no_escape.iter().enumerate() {
        let at = format!("{at}.no_escape[{k}]");
        if n.by == n.target {
            problem(format!("{at}.target"), "a challenger cannot name itself for removal".into());
        }
        if !chosen.insert((n.challenge, n.by)) {
            problem(format!("{at}.by"), "names one No Escape target per challenge".into());
        }
    }
    out
}

/// Every card of a deck with its path, wherever it lies.
fn cards_with_paths<'d>(deck: &'d SeedDeck, path: &str) -> Vec<(String, &'d Card)> {
    let mut out: Vec<(String, &Card)> = Vec::new();
    out.extend(deck.draw_pile.iter().enumerate().map(|(i, c)| (format!("{path}.draw_pile[{i}]"), c)));
    out.extend(deck.discard.iter().enumerate().map(|(i, c)| (format!("{path}.discard[{i}]"), c)));
    for (i, h) in deck.players.iter().enumerate() {
        let at = format!("{path}.players[{i}]");
        out.extend(h.hand.iter().enumerate().map(|(j, c)| (format!("{at}.hand[{j}]"), c)));
        out.extend(h.active.iter().enumerate().map(|(j, a)| (format!("{at}.active[{j}].card"), &a.card)));
        out.extend(h.depleted.iter().enumerate().map(|(j, c)| (format!("{at}.depleted[{j}]"), c)));
    }
    out.extend(deck.inspiration.iter().map(|c| (format!("{path}.inspiration"), c)));
    out.extend(deck.shown.iter().map(|c| (format!("{path}.shown"), c)));
    out
}

/// Everything wrong with a seed deck: the rules' own [`SeedDeck::problems`], a card's text,
/// a link made by someone not at the deck, a player refreshing twice.
fn deck_problems(deck: &SeedDeck, path: &str) -> Vec<Problem> {
    let mut out: Vec<Problem> = deck
        .problems()
        .into_iter()
        .map(|p| Problem { path: format!("{path}.{}", p.path), message: p.message })
        .collect();
    for (at, card) in cards_with_paths(deck, path).into_iter().take(seed_deck::MAX_CARDS) {
        if let Some(message) = text_problem(&card.text, seed_deck::MAX_CARD_CHARS) {
            out.push(Problem { path: format!("{at}.text"), message });
        }
    }
    let players: HashSet<Uuid> = deck.players.iter().map(|h| h.player).collect();
    for (i, l) in deck.links.iter().enumerate().take(seed_deck::MAX_CARDS) {
        if !players.contains(&l.by) {
            out.push(Problem {
                path: format!("{path}.links[{i}].by"),
                message: format!("{} is not at the deck", l.by),
            });
        }
    }
    let mut refreshing = HashSet::new();
    for (i, p) in deck.refresh.iter().enumerate() {
        if !refreshing.insert(p) {
            out.push(Problem { path: format!("{path}.refresh[{i}]"), message: format!("{p} refreshes once") });
        }
    }
    out
}

/// A deck as the rules keep it: card texts trimmed.
fn trim_cards(deck: &mut SeedDeck) {
    let mut trim = |c: &mut Card| c.text = c.text.trim().to_owned();
    deck.draw_pile.iter_mut().for_each(&mut trim);
    deck.discard.iter_mut().for_each(&mut trim);
    for h in &mut deck.players {
        h.hand.iter_mut().for_each(&mut trim);
        h.active.iter_mut().for_each(|a| trim(&mut a.card));
        h.depleted.iter_mut().for_each(&mut trim);
    }
    deck.inspiration.iter_mut().for_each(&mut trim);
    deck.shown.iter_mut().for_each(&mut trim);
}

/// An element as the rules keep it: names and property texts trimmed.
pub(super) fn trimmed(mut e: Element) -> Element {
    e.name = e.name.trim().to_owned();
    for t in &mut e.traits {
        t.name = t.name.trim().to_owned();
        let p = &mut t.properties;
        for text in
            [&mut p.requirements, &mut p.restrictions, &mut p.owner, &mut p.target, &mut p.set_up, &mut p.effects]
        {
            *text = text.trim().to_owned();
        }
        p.details = p.details.trim().to_owned();
    }
    e
}

/// A game file's challenge names story elements of the file: each challenger a character's
/// sheet or one of the table's own elements of the kind it was when it joined, each goal one
/// of the table's goals.
pub(super) fn challenge_element_problems(table: &MezzoTable, sheets: &[(usize, &Element)], game: &str) -> Vec<Problem> {
    let Some(ch) = &table.challenge else { return Vec::new() };
    let at = format!("{game}.mezzo_table.challenge");
    // The first element of each id, as a search in this order would find it.
    let kinds: HashMap<Uuid, ElementKind> =
        sheets.iter().map(|(_, e)| *e).chain(&table.elements).rev().map(|e| (e.id, e.kind)).collect();
    let kind_of = |id: Uuid| kinds.get(&id).copied();
    let mut out = Vec::new();
    for (i, c) in ch.challengers.iter().enumerate() {
        match kind_of(c.element) {
            None => out.push(Problem {
                path: format!("{at}.challengers[{i}].element"),
                message: format!("{} is not a story element of this game", c.element),
            }),
            Some(kind) if kind != c.kind => out.push(Problem {
                path: format!("{at}.challengers[{i}].kind"),
                message: format!("the element is a {kind:?}, not a {:?}", c.kind).to_lowercase(),
            }),
            Some(_) => {}
        }
    }
    for (i, g) in ch.goals.iter().enumerate() {
        if kind_of(g.element) != Some(ElementKind::Goal) {
            out.push(Problem {
                path: format!("{at}.goals[{i}].element"),
                message: format!("{} is not a goal of this game", g.element),
            });
        }
    }
    out
}

/// Claims in a game file: every claim the table records names a character of the game
/// whose element says so, and every character's element names the player whose claim the
/// table records (or none). A table's own element does not share a character's id.
/// The table's open conflict and open action check (DEV-1), checked against the game's
/// players and story elements (the characters' sheets and the table's own) as the table would
/// cast them: each problem at its path under `mezzo_table.open_conflict` or `.open_check`.
pub(super) fn open_vote_problems(table: &MezzoTable, sheets: &[(usize, &Element)], game: &str) -> Vec<Problem> {
    let elements: Vec<Element> =
        sheets.iter().map(|(_, e)| (*e).clone()).chain(table.elements.iter().cloned()).collect();
    let sources = Sources::of(table);
    let mut found = Vec::new();
    if let Some(open) = &table.open_conflict {
        found.extend(open.problems(&format!("{game}.mezzo_table.open_conflict"), &table.players, &elements, &sources));
    }
    if let Some(open) = &table.open_check {
        found.extend(open.problems(&format!("{game}.mezzo_table.open_check"), &table.players, &elements, &sources));
    }
    found.into_iter().map(|(path, message)| Problem { path, message }).collect()
}

pub(super) fn mezzo_claim_problems(table: &MezzoTable, sheets: &[(usize, &Element)], game: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let at_table = format!("{game}.mezzo_table");
    let characters: HashMap<Uuid, usize> = sheets.iter().map(|(j, e)| (e.id, *j)).collect();
    for (i, p) in table.players.iter().enumerate() {
        for (k, c) in p.claimed.iter().enumerate() {
            if !characters.contains_key(c) {
                out.push(Problem {
                    path: format!("{at_table}.players[{i}].claimed[{k}]"),
                    message: format!("{c} is not a character of this game"),
                });
            }
        }
    }
    // The first player whose claims name each character, as a search in order would find.
    let claimers: HashMap<Uuid, &Player> =
        table.players.iter().rev().flat_map(|p| p.claimed.iter().rev().map(move |c| (*c, p))).collect();
    for (j, e) in sheets {
        let claimer = claimers.get(&e.id).copied();
        if e.claimed_by != claimer.map(|p| p.id) {
            let message = match claimer {
                Some(p) => format!("the table records {}'s claim on this character", p.name.trim()),
                None => "the table records no claim on this character".into(),
            };
            out.push(Problem { path: format!("{game}.characters[{j}].mezzo.claimed_by"), message });
        }
    }
    for (i, e) in table.elements.iter().enumerate() {
        if characters.contains_key(&e.id) {
            out.push(Problem {
                path: format!("{at_table}.elements[{i}].id"),
                message: format!("{} is also a character's id", e.id),
            });
        }
    }
    out
}
