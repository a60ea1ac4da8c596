//! Planning an import: what each game and character in the file would do to this device.
//!
//! A character is compared by its `revision`: a higher one in the file is an update; the
//! same content is unchanged; anything else is a conflict (this device changed it too).
//! Games have no revision, so their `updated_at` decides; a game's NSU world and Penny Ante
//! table count as part of it. A character file never changes the game it names when that
//! game is already here; a Penny Ante character it brings as new carries its pile in, and a
//! Mezzo character arrives claimed as the destination table records (by no one when new).

use crate::rules::journal::Journal;
use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::format::{Document, Kind};
use crate::model::{Game, System};
use crate::rules::mezzo::table::MezzoTable;
use crate::rules::nsu::world::World;
use crate::rules::penny_ante::ledger::Account;
use crate::rules::penny_ante::table::PennyTable;
use crate::rules::record::CharacterRecord;
use crate::rules::scattershot::table::ScattershotTable;
use crate::Problem;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    New,
    Update,
    Conflict,
    Unchanged,
}

/// One field that differs between this device (`mine`) and the file (`theirs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    pub field: String,
    pub mine: String,
    pub theirs: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Item {
    pub id: Uuid,
    pub name: String,
    pub status: Status,
    pub differences: Vec<Difference>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub new: usize,
    pub update: usize,
    pub conflict: usize,
    pub unchanged: usize,
}

/// What an import would do, for a person to read before confirming.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Preview {
    pub kind: Kind,
    pub system: Option<System>,
    pub games: Vec<Item>,
    pub characters: Vec<Item>,
    pub counts: Counts,
    /// The SHA-256 (hex) of the file's bytes as previewed, so an apply can tell whether the
    /// file changed since; set by whoever read the file.
    pub digest: String,
}

impl Preview {
    /// Whether importing would do the same to this device as `other` said it would: the
    /// same items with the same statuses and differences. Ids are left out, since a copy's
    /// are new each time it is planned.
    pub fn same_outcome(&self, other: &Preview) -> bool {
        let outcome = |items: &[Item]| -> Vec<(String, Status, Vec<Difference>)> {
            items.iter().map(|i| (i.name.clone(), i.status, i.differences.clone())).collect()
        };
        (self.kind, self.system, self.counts) == (other.kind, other.system, other.counts)
            && outcome(&self.games) == outcome(&other.games)
            && outcome(&self.characters) == outcome(&other.characters)
    }
}

/// The games and characters of this device that share an id with the file's.
#[derive(Clone, Debug, Default)]
pub struct Local {
    pub games: HashMap<Uuid, Game>,
    /// The worlds of those games that are NSU games.
    pub worlds: HashMap<Uuid, World>,
    /// The tables of those games that are Penny Ante games.
    pub penny_tables: HashMap<Uuid, PennyTable>,
    /// The tables of those games that are Mezzo games.
    pub mezzo_tables: HashMap<Uuid, MezzoTable>,
    /// The tables of those games that are Scattershot games.
    pub scattershot_tables: HashMap<Uuid, ScattershotTable>,
    /// The journals of those games, as a file would carry them.
    pub journals: HashMap<Uuid, Journal>,
    pub characters: HashMap<Uuid, CharacterRecord>,
}

/// The preview plus the records to write, each with its status and what it replaces.
#[derive(Clone, Debug)]
pub struct Plan {
    pub preview: Preview,
    pub games: Vec<(Status, Game, Option<Game>)>,
    /// The worlds to write, by target game (for games written, i.e. not unchanged).
    pub worlds: Vec<(Uuid, World)>,
    /// The Penny Ante tables to write whole, by target game (for games written).
    pub penny_tables: Vec<(Uuid, PennyTable)>,
    /// The Mezzo tables to write whole, by target game (for games written).
    pub mezzo_tables: Vec<(Uuid, MezzoTable)>,
    /// The Scattershot tables to write whole, by target game (for games written).
    pub scattershot_tables: Vec<(Uuid, ScattershotTable)>,
    /// The campaign journals to write whole, by target game (for games written).
    pub journals: Vec<(Uuid, Journal)>,
    pub characters: Vec<(Status, CharacterRecord, Option<CharacterRecord>)>,
    /// Penny Ante characters new to their game from a character file, with the pile each
    /// brings: (game, character, pennies), to record as a `carried_in` entry.
    pub carried_in: Vec<(Uuid, Uuid, u64)>,
}

/// What a game holds beyond its header, on one side of the comparison.
#[derive(Clone, Copy)]
struct Parts<'a> {
    world: Option<&'a World>,
    table: Option<&'a PennyTable>,
    mezzo: Option<&'a MezzoTable>,
    scattershot: Option<&'a ScattershotTable>,
    journal: Option<&'a Journal>,
}

/// Plans importing `doc` given what this device holds. `as_copy` gives every new record a
/// fresh id (a character file's game is reused when it is already here). `fresh_id` makes
/// those ids and `now` stamps the copies. Fails when the file and the device disagree on
/// something no choice can settle, such as a game's system.
pub fn plan(
    doc: &Document,
    local: &Local,
    as_copy: bool,
    mut fresh_id: impl FnMut() -> Uuid,
    now: DateTime<Utc>,
) -> Result<Plan, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut games = Vec::new();
    let mut characters = Vec::new();
    let mut worlds = Vec::new();
    let mut penny_tables = Vec::new();
    let mut mezzo_tables = Vec::new();
    let mut scattershot_tables = Vec::new();
    let mut journals = Vec::new();
    let mut carried_in = Vec::new();
    for (i, entry) in doc.games.iter().enumerate() {
        let mine = local.games.get(&entry.game.id);
        if let Some(mine) = mine.filter(|m| m.system != entry.game.system) {
            problems.push(Problem {
                path: format!("$.data.games[{i}].system"),
                message: format!(
                    "this device has the game {:?} as {}, the file as {}",
                    mine.name,
                    mine.system.label(),
                    entry.game.system.label()
                ),
            });
            continue;
        }
        let keep_local_game = doc.kind == Kind::Character && mine.is_some();
        let mut game = entry.game.clone();
        if as_copy && !keep_local_game {
            game.id = fresh_id();
        }
        let status = match (as_copy, mine) {
            (_, Some(_)) if keep_local_game => Status::Unchanged,
            (true, _) | (false, None) => Status::New,
            (false, Some(m)) => game_status(m, &game, local_parts(local, entry), file_parts(entry)),
        };
        let target_game = game.id;
        games.push((status, game, mine.filter(|_| !as_copy || keep_local_game).cloned()));

        let mut new_ids = HashMap::new();
        let first_character = characters.len();
        // A character file's Mezzo character arrives claimed as this device's table says.
        let local_claims = (doc.kind == Kind::Character).then(|| local.mezzo_tables.get(&target_game));
        for (j, incoming) in entry.characters.iter().enumerate() {
            let mut record = incoming.clone();
            let c = &mut record.character;
            c.game_id = target_game;
            // A character file's Penny Ante character new here brings its pile.
            let pile = entry.penny_piles.iter().find(|p| p.character == incoming.character.id);
            let carried = pile.and_then(|p| u64::try_from(p.pile).ok()).filter(|&p| p > 0);
            // Its purchases stay in the other table's ledger: here they count as made
            // elsewhere.
            let arriving = |r: &mut CharacterRecord, bought_here: usize| {
                if pile.is_some() {
                    r.penny_ante = r.penny_ante.as_ref().map(|s| s.arriving(bought_here));
                }
            };
            if as_copy {
                arriving(&mut record, 0);
                let c = &mut record.character;
                c.id = fresh_id();
                if let Some(element) = &mut record.mezzo {
                    element.id = c.id;
                    if let Some(table) = local_claims {
                        element.claimed_by = claimer(table, c.id);
                    }
                }
                new_ids.insert(incoming.character.id, c.id);
                c.revision = 1;
                c.created_at = now;
                c.updated_at = now;
                if let Some(pennies) = carried {
                    carried_in.push((target_game, c.id, pennies));
                }
                characters.push((Status::New, record, None));
                continue;
            }
            let mine = local.characters.get(&c.id);
            if let Some(m) = mine.filter(|m| m.character.system != c.system) {
                problems.push(Problem {
                    path: format!("$.data.games[{i}].characters[{j}].id"),
                    message: format!(
                        "this device has {:?} as a {} character",
                        m.character.name,
                        m.character.system.label()
                    ),
                });
                continue;
            }
            let bought_here = local.penny_tables.get(&target_game).map_or(0, |t| t.purchases(record.character.id));
            arriving(&mut record, bought_here);
            if let (Some(table), Some(element)) = (local_claims, &mut record.mezzo) {
                element.claimed_by = claimer(table, element.id);
            }
            let status = mine.map_or(Status::New, |m| character_status(m, &record));
            if let (Status::New, Some(pennies)) = (status, carried) {
                carried_in.push((target_game, record.character.id, pennies));
            }
            characters.push((status, record, mine.cloned()));
        }
        if as_copy {
            // Protection lent by a copied character is lent by its copy.
            for (_, record, _) in &mut characters[first_character..] {
                if let Some(element) = &mut record.mezzo {
                    let lent = &mut element.plot_protection.lent_by;
                    *lent = lent.map(|id| new_ids.get(&id).copied().unwrap_or(id));
                }
            }
        }
        if let (Some(world), true) = (&entry.nsu_world, status != Status::Unchanged) {
            let mut world = world.clone();
            if as_copy {
                // A copy's cards, clocks and NPCs get new ids; the characters they name are the
                // copies; the party's place and the paths follow the cards.
                let new_id = |id: &Uuid| new_ids.get(id).copied().unwrap_or(*id);
                let mut cards = HashMap::new();
                for l in &mut world.locations {
                    let id = fresh_id();
                    cards.insert(l.id, id);
                    l.id = id;
                    l.scouted_by = l.scouted_by.iter().map(new_id).collect();
                    l.author_character = l.author_character.as_ref().map(new_id);
                }
                let card = |id: &Uuid| cards.get(id).copied().unwrap_or(*id);
                world.party_at = world.party_at.as_ref().map(card);
                for p in &mut world.paths {
                    (p.a, p.b) = (card(&p.a), card(&p.b));
                }
                for p in &mut world.projects {
                    p.id = fresh_id();
                    p.owner = new_id(&p.owner);
                }
                for n in &mut world.npcs {
                    n.id = fresh_id();
                }
            }
            worlds.push((target_game, world));
        }
        if let (Some(table), true) = (&entry.penny_table, status != Status::Unchanged) {
            let mut table = table.clone();
            if as_copy {
                // The copy's pennies belong to the copied characters. Antagonists, loans and
                // challenges are the game's own: their ids stay.
                remap_characters(&mut table, |id| new_ids.get(&id).copied().unwrap_or(id));
            }
            penny_tables.push((target_game, table));
        }
        if let (Some(table), true) = (&entry.mezzo_table, status != Status::Unchanged) {
            let mut table = table.clone();
            if as_copy {
                // Players and the table's own elements are the game's: their ids stay; the
                // characters they claim or were lent protection by are the copies.
                let new_id = |id: Uuid| new_ids.get(&id).copied().unwrap_or(id);
                for p in &mut table.players {
                    p.claimed = p.claimed.iter().map(|&c| new_id(c)).collect();
                }
                for e in &mut table.elements {
                    e.plot_protection.lent_by = e.plot_protection.lent_by.map(new_id);
                }
                // The plot names characters too: hooks' elements and investors, the Turning
                // Point's challengers and themes' authors, No Escape challengers and targets.
                let plot = &mut table.plot;
                for h in &mut plot.hooks {
                    h.elements = h.elements.iter().map(|&e| new_id(e)).collect();
                    h.stored.iter_mut().for_each(|i| i.by = new_id(i.by));
                }
                if let Some(tp) = &mut plot.turning_point {
                    tp.challengers = tp.challengers.iter().map(|&c| new_id(c)).collect();
                    tp.themes.iter_mut().for_each(|t| t.by = new_id(t.by));
                }
                plot.no_escape.iter_mut().for_each(|n| (n.by, n.target) = (new_id(n.by), new_id(n.target)));
                // And the elements active in the scene.
                table.scene.active = table.scene.active.iter().map(|&e| new_id(e)).collect();
                // So does the challenge: its challengers and whatever names them.
                if let Some(ch) = &mut table.challenge {
                    ch.map_elements(new_id);
                }
                // And the conflict or check open for votes on phones.
                if let Some(open) = &mut table.open_conflict {
                    open.map_elements(new_id);
                }
                if let Some(open) = &mut table.open_check {
                    open.map_elements(new_id);
                }
            }
            mezzo_tables.push((target_game, table));
        }
        if let (Some(table), true) = (&entry.scattershot_table, status != Status::Unchanged) {
            let mut table = table.clone();
            if as_copy {
                // Mechanical play names the copied characters (a player's id that was a
                // character's follows it too).
                let new_id = |id: Uuid| new_ids.get(&id).copied().unwrap_or(id);
                if let Some(play) = &mut table.play {
                    for c in &mut play.combatants {
                        c.character = new_id(c.character);
                        c.player = new_id(c.player);
                        c.engaged = c.engaged.map(new_id);
                    }
                    play.pending.iter_mut().for_each(|r| r.target = new_id(r.target));
                }
            }
            scattershot_tables.push((target_game, table));
        }
        if let (Some(journal), true) = (&entry.journal, status != Status::Unchanged) {
            journals.push((target_game, journal.clone()));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let preview = Preview {
        kind: doc.kind,
        system: doc.system,
        games: games
            .iter()
            .zip(&doc.games)
            .map(|((s, g, mine), entry)| {
                let (my_parts, their_parts) = (local_parts(local, entry), file_parts(entry));
                item(g.id, &g.name, *s, mine.as_ref().map(|m| game_differences(m, g, my_parts, their_parts)))
            })
            .collect(),
        characters: characters
            .iter()
            .map(|(s, r, mine)| {
                item(r.character.id, &r.character.name, *s, mine.as_ref().map(|m| character_differences(m, r)))
            })
            .collect(),
        counts: count(games.iter().map(|g| g.0).chain(characters.iter().map(|c| c.0))),
        digest: String::new(),
    };
    Ok(Plan {
        preview,
        games,
        characters,
        worlds,
        penny_tables,
        mezzo_tables,
        scattershot_tables,
        journals,
        carried_in,
    })
}

/// The player whose claim on `character` the table records.
fn claimer(table: Option<&MezzoTable>, character: Uuid) -> Option<Uuid> {
    table?.players.iter().find(|p| p.claimed.contains(&character)).map(|p| p.id)
}

fn local_parts<'a>(local: &'a Local, entry: &super::format::GameEntry) -> Parts<'a> {
    Parts {
        world: local.worlds.get(&entry.game.id),
        table: local.penny_tables.get(&entry.game.id),
        mezzo: local.mezzo_tables.get(&entry.game.id),
        scattershot: local.scattershot_tables.get(&entry.game.id),
        journal: local.journals.get(&entry.game.id),
    }
}

fn file_parts(entry: &super::format::GameEntry) -> Parts<'_> {
    Parts {
        world: entry.nsu_world.as_ref(),
        table: entry.penny_table.as_ref(),
        mezzo: entry.mezzo_table.as_ref(),
        scattershot: entry.scattershot_table.as_ref(),
        journal: entry.journal.as_ref(),
    }
}

/// Gives every character account of a table the id `new_id` maps it to.
fn remap_characters(t: &mut PennyTable, new_id: impl Fn(Uuid) -> Uuid) {
    let map = |a: &mut Account| {
        if let Account::Character(id) = a {
            *id = new_id(*id);
        }
    };
    for e in &mut t.ledger.entries {
        map(&mut e.from);
        map(&mut e.to);
    }
    for d in &mut t.ledger.debts {
        map(&mut d.debtor);
        map(&mut d.creditor);
    }
    for h in &mut t.ledger.handed_over {
        map(&mut h.debtor);
        let mut antagonist = Account::Antagonist(h.antagonist);
        map(&mut antagonist);
        if let Account::Antagonist(id) = antagonist {
            h.antagonist = id;
        }
    }
    for l in &mut t.loans {
        map(&mut l.lender);
        map(&mut l.borrower);
    }
    if let Some(c) = &mut t.challenge {
        for s in &mut c.sides {
            s.members.iter_mut().chain(s.lost.iter_mut()).for_each(|m| map(&mut m.account));
            s.used.iter_mut().for_each(|u| map(&mut u.owner));
        }
        c.lenders.iter_mut().for_each(map);
        if let Some(o) = &mut c.offer {
            map(&mut o.lender);
            if let Some(b) = &mut o.borrower {
                map(b);
            }
        }
        c.bids.iter_mut().for_each(|b| map(&mut b.bidder));
    }
}

fn item(id: Uuid, name: &str, status: Status, differences: Option<Vec<Difference>>) -> Item {
    let differences = if status == Status::Unchanged { Vec::new() } else { differences.unwrap_or_default() };
    Item { id, name: name.to_owned(), status, differences }
}

fn count(statuses: impl Iterator<Item = Status>) -> Counts {
    let mut c = Counts::default();
    for s in statuses {
        match s {
            Status::New => c.new += 1,
            Status::Update => c.update += 1,
            Status::Conflict => c.conflict += 1,
            Status::Unchanged => c.unchanged += 1,
        }
    }
    c
}

fn game_status(mine: &Game, theirs: &Game, my_parts: Parts<'_>, their_parts: Parts<'_>) -> Status {
    if game_differences(mine, theirs, my_parts, their_parts).is_empty() {
        Status::Unchanged
    } else if theirs.updated_at > mine.updated_at {
        Status::Update
    } else {
        Status::Conflict
    }
}

fn character_status(mine: &CharacterRecord, theirs: &CharacterRecord) -> Status {
    if character_differences(mine, theirs).is_empty() {
        Status::Unchanged
    } else if theirs.character.revision > mine.character.revision {
        Status::Update
    } else {
        Status::Conflict
    }
}

fn difference(out: &mut Vec<Difference>, field: &str, mine: String, theirs: String) {
    if mine != theirs {
        out.push(Difference { field: field.into(), mine, theirs });
    }
}

/// Whether a part of a game the file carries (a world, a table, a journal) differs from this
/// device's, which counts as empty when it has none; a part the file lacks differs in nothing.
fn part_differs<T: Clone + Default + PartialEq>(mine: Option<&T>, theirs: Option<&T>) -> bool {
    theirs.is_some_and(|theirs| mine.cloned().unwrap_or_default() != *theirs)
}

fn game_differences(mine: &Game, theirs: &Game, my_parts: Parts<'_>, their_parts: Parts<'_>) -> Vec<Difference> {
    let mut out = Vec::new();
    let whole = |field: &str| Difference {
        field: field.into(),
        mine: "as on this device".into(),
        theirs: "as in the file".into(),
    };
    // A file without a world or table (a character file) says nothing about this device's.
    let parts = [
        ("world", part_differs(my_parts.world, their_parts.world)),
        ("penny table", part_differs(my_parts.table, their_parts.table)),
        ("mezzo table", part_differs(my_parts.mezzo, their_parts.mezzo)),
        ("scattershot table", part_differs(my_parts.scattershot, their_parts.scattershot)),
        ("journal", part_differs(my_parts.journal, their_parts.journal)),
    ];
    out.extend(parts.into_iter().filter(|(_, differs)| *differs).map(|(field, _)| whole(field)));
    difference(&mut out, "name", mine.name.clone(), theirs.name.clone());
    if mine.notes != theirs.notes {
        out.push(whole("notes"));
    }
    let names = mine.table_settings.keys().chain(theirs.table_settings.keys());
    let mut seen = std::collections::BTreeSet::new();
    for name in names.filter(|n| seen.insert(*n)) {
        let show = |v: Option<&i64>| v.map_or("—".to_owned(), i64::to_string);
        difference(
            &mut out,
            &format!("table_settings.{name}"),
            show(mine.table_settings.get(name)),
            show(theirs.table_settings.get(name)),
        );
    }
    out
}

/// The fields a person edits (time stamps and revisions are bookkeeping, not content).
fn character_differences(mine: &CharacterRecord, theirs: &CharacterRecord) -> Vec<Difference> {
    let (m, t) = (&mine.character, &theirs.character);
    let mut out = Vec::new();
    difference(&mut out, "name", m.name.clone(), t.name.clone());
    difference(&mut out, "game", m.game_id.to_string(), t.game_id.to_string());
    if m.notes != t.notes {
        // Notes are long free text: the preview says that they differ, not how.
        out.push(Difference {
            field: "notes".into(),
            mine: "as on this device".into(),
            theirs: "as in the file".into(),
        });
    }
    if mine.nsu != theirs.nsu
        || mine.penny_ante != theirs.penny_ante
        || mine.mezzo != theirs.mezzo
        || mine.scattershot != theirs.scattershot
    {
        out.push(Difference {
            field: "sheet".into(),
            mine: "as on this device".into(),
            theirs: "as in the file".into(),
        });
    }
    out
}
