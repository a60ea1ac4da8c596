//! Moving characters and games between devices as `*.sheetkeeper.json` files.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Serialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::characters;
use super::log::{character_event, game_event, Change, GameSnapshot};
use super::lookup::existing_game;
use super::Done;
use crate::error::{Error, Result};
use crate::exchange::{self, Counts, Document, GameEntry, Kind, Local, PennyPile, Plan, Preview, Status};
use crate::model::{now, Character, Game, System};
use crate::rules::mezzo::table::MezzoTable;
use crate::rules::nsu::world::World;
use crate::rules::penny_ante::ledger::{Account, Entry, Ledger, Reason};
use crate::rules::penny_ante::table::PennyTable;
use crate::rules::record::CharacterRecord;
use crate::store::{EventKind, Reader, Store, Tx};
use crate::APP_VERSION;

/// What to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportScope {
    Character(Uuid),
    Game(Uuid),
    All,
}

/// Writes a file (atomically) with a character, a game, or everything. Everything is read
/// from one snapshot, so a file written while another process changes the database is
/// still one consistent moment that imports again.
pub fn export(store: &Store, scope: ExportScope, path: &Path) -> Result<Done> {
    exchange::refuse_database_target(path, store.path())?;
    let exported = export_text(store, scope)?;
    exchange::write_atomic(path, &exported.text)?;
    let left_out = match exported.left_out.as_slice() {
        [] => String::new(),
        names => format!(
            " Left out, as linked tables' games this device holds only as it was shown them: {}.",
            names.iter().map(|n| format!("“{n}”")).collect::<Vec<_>>().join(", ")
        ),
    };
    Ok(Done::new(format!("Exported {} to {}.{left_out}", exported.what, path.display())))
}

/// A file's contents made for `scope`, what it holds in words, and the linked tables'
/// games left out of it.
pub(crate) struct Exported {
    pub text: Vec<u8>,
    /// "“Wren”", "the game “Harbor” with 3 character(s)"…
    pub what: String,
    pub left_out: Vec<String>,
}

/// The file `export` writes for `scope`, made from one snapshot; refused when it would be
/// larger than an import reads, or when it is a linked table's game held as stand-ins.
pub(crate) fn export_text(store: &Store, scope: ExportScope) -> Result<Exported> {
    let (doc, left_out) = store.snapshot(|read| {
        let mut doc = document(read, scope)?;
        let mut left_out = Vec::new();
        for entry in &doc.games {
            if doc.kind != Kind::Character && holds_stand_ins(read, &entry.game)? {
                left_out.push((entry.game.id, entry.game.name.clone()));
            }
        }
        if let (Kind::Game, Some((_, name))) = (doc.kind, left_out.first()) {
            return Err(Error::invalid(
                "game",
                format!(
                    "“{name}” is a linked table's game as this device was shown it: what the table keeps from \
                     this device (hidden dice, purses, face-down cards) is held here as stand-ins, not as the \
                     game's real state, so it is not exported as a game. Export your characters, or ask the \
                     table's device for the game's file"
                ),
            ));
        }
        doc.games.retain(|g| left_out.iter().all(|(id, _)| *id != g.game.id));
        Ok((doc, left_out.into_iter().map(|(_, name)| name).collect::<Vec<_>>()))
    })?;
    let text = exchange::to_json(&doc);
    if text.len() as u64 > exchange::MAX_FILE_BYTES {
        return Err(Error::invalid(
            "FILE",
            format!(
                "this file would be {:.1} MiB, more than the 16 MiB an import reads, so it could not be \
                 imported again; nothing was written. Export the games one at a time instead",
                text.len() as f64 / (1024.0 * 1024.0)
            ),
        ));
    }
    Ok(Exported { text, what: holds(&doc), left_out })
}

/// What a file holds, in words.
pub(crate) fn holds(doc: &Document) -> String {
    let count: usize = doc.games.iter().map(|g| g.characters.len()).sum();
    match (doc.kind, doc.games.first()) {
        (Kind::Character, Some(g)) if !g.characters.is_empty() => format!("“{}”", g.characters[0].character.name),
        (Kind::Game, Some(g)) => format!("the game “{}” with {count} character(s)", g.game.name),
        _ => format!("{} game(s) with {count} character(s)", doc.games.len()),
    }
}

/// Whether `game` here may hold stand-ins for what a table kept from this device: a
/// linked table's copy of a system with secrets (Scattershot's Mechanix keeps none).
fn holds_stand_ins(read: Reader<'_>, game: &Game) -> Result<bool> {
    Ok(game.system != System::Scattershot && read.link_joined_ever(game.id)?)
}

/// The file's contents for `scope`, as `read` sees them.
pub(crate) fn document(read: Reader<'_>, scope: ExportScope) -> Result<Document> {
    let records = |characters: Vec<Character>| -> Result<Vec<CharacterRecord>> {
        characters.into_iter().map(|c| characters::load(read, c.id)).collect()
    };
    let (kind, games) = match scope {
        ExportScope::Character(id) => {
            let record = characters::load(read, id)?;
            let game = existing_game(read, record.character.game_id)?;
            // Only the entries that touch the character: a ledger may hold thousands.
            let penny_piles = match game.system {
                System::PennyAnte => {
                    let entries = read.penny_entries_of(game.id, id)?;
                    let pile = Ledger { entries: entries.clone(), debts: Vec::new(), handed_over: Vec::new() }
                        .pile(&Account::Character(id));
                    vec![PennyPile { character: id, pile, ledger: entries }]
                }
                _ => Vec::new(),
            };
            let entry = GameEntry {
                game,
                characters: vec![record],
                nsu_world: None,
                penny_table: None,
                mezzo_table: None,
                scattershot_table: None,
                journal: None,
                penny_piles,
            };
            (Kind::Character, vec![entry])
        }
        ExportScope::Game(id) => {
            let game = existing_game(read, id)?;
            (Kind::Game, vec![game_entry(read, game, records(read.characters_of(id)?)?)?])
        }
        ExportScope::All => {
            let mut by_game: HashMap<Uuid, Vec<Character>> = HashMap::new();
            for c in read.characters()? {
                by_game.entry(c.game_id).or_default().push(c);
            }
            let games = read
                .games()?
                .into_iter()
                .map(|game| {
                    let characters = records(by_game.remove(&game.id).unwrap_or_default())?;
                    game_entry(read, game, characters)
                })
                .collect::<Result<Vec<_>>>()?;
            (Kind::Backup, games)
        }
    };
    let system = match kind {
        Kind::Backup => None,
        _ => games.first().map(|g| g.game.system),
    };
    Ok(Document { kind, system, app_version: APP_VERSION.into(), exported_at: now(), games })
}

/// What would stop the game `id`'s file from importing, as `read` sees it: the promise that
/// every backup restores, checked after a change that could break it (an import, a move)
/// and by `sheetkeeper check`.
pub(super) fn export_problems(read: Reader<'_>, id: Uuid) -> Result<Vec<crate::Problem>> {
    let doc = document(read, ExportScope::Game(id))?;
    Ok(exchange::parse(&exchange::to_json(&doc)).err().unwrap_or_default())
}

/// Refuses a change that would leave any of `games` unable to export a file that imports.
pub(super) fn games_still_export(read: Reader<'_>, games: impl IntoIterator<Item = Uuid>, doing: &str) -> Result<()> {
    let mut seen = HashSet::new();
    for id in games.into_iter().filter(|id| seen.insert(*id)) {
        let Some(game) = read.game(id)? else { continue };
        let problems = export_problems(read, id)?;
        if let Some(first) = problems.first() {
            return Err(Error::invalid(
                "file",
                format!(
                    "{doing} would leave the game “{}” in a state its own backup could not restore \
                     ({} problem{}; the first: {first}); nothing was changed",
                    game.name,
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses a change of one character that would leave its own file unable to import (its
/// sheet's rules; for Penny Ante, its pile and ledger entries and the characteristics they
/// paid for). A change of a character's own record touches nothing else of its game, so
/// this is what a whole game's check would find of it, at the cost of the one character.
pub(super) fn character_still_exports(read: Reader<'_>, id: Uuid, doing: &str) -> Result<()> {
    let doc = document(read, ExportScope::Character(id))?;
    let problems = exchange::parse(&exchange::to_json(&doc)).err().unwrap_or_default();
    match problems.first() {
        None => Ok(()),
        Some(first) => Err(Error::invalid(
            "file",
            format!(
                "{doing} would leave “{}” in a state its own file could not restore ({} problem{}; the first: \
                 {first}); nothing was changed",
                doc.games.first().and_then(|g| g.characters.first()).map_or("", |c| c.character.name.as_str()),
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            ),
        )),
    }
}

/// A game with its characters and its system's world or table, for game files and backups.
fn game_entry(read: Reader<'_>, game: Game, characters: Vec<CharacterRecord>) -> Result<GameEntry> {
    Ok(GameEntry {
        nsu_world: world_of(read, &game)?,
        penny_table: table_of(read, &game)?,
        mezzo_table: mezzo_table_of(read, &game)?,
        scattershot_table: (game.system == System::Scattershot).then(|| read.scattershot_table(game.id)).transpose()?,
        journal: Some(super::journal::journal_for_file(read, game.id, game.system)?).filter(|j| !j.sessions.is_empty()),
        penny_piles: Vec::new(),
        game,
        characters,
    })
}

/// An NSU game's world, for game files and backups.
fn world_of(read: Reader<'_>, game: &Game) -> Result<Option<World>> {
    (game.system == System::Nsu).then(|| read.nsu_world(game.id)).transpose()
}

/// A Penny Ante game's table.
fn table_of(read: Reader<'_>, game: &Game) -> Result<Option<PennyTable>> {
    (game.system == System::PennyAnte).then(|| read.penny_table(game.id)).transpose()
}

/// A Mezzo game's table.
fn mezzo_table_of(read: Reader<'_>, game: &Game) -> Result<Option<MezzoTable>> {
    (game.system == System::Mezzo).then(|| read.mezzo_table(game.id)).transpose()
}

/// How to import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Give everything in the file new ids, so it lands beside what is here.
    pub as_copy: bool,
    /// Let the file win where it conflicts with changes made on this device.
    pub replace_conflicts: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    pub message: String,
    pub counts: Counts,
}

/// Reads a file and validates it, with the SHA-256 of the bytes read (hex), so an apply can
/// tell whether the file is still the one that was previewed.
fn read_document(path: &Path) -> Result<(Document, String)> {
    let bytes = exchange::read_limited(path)?;
    let digest = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    let doc = exchange::parse(&bytes).map_err(|problems| Error::BadFile { file: path.to_owned(), problems })?;
    Ok((doc, digest))
}

/// What this device holds of the games and characters the file names.
fn local_of(read: Reader<'_>, doc: &Document) -> Result<Local> {
    let mut local = Local::default();
    for entry in &doc.games {
        if let Some(g) = read.game(entry.game.id)? {
            if g.system == System::Nsu {
                local.worlds.insert(g.id, read.nsu_world(g.id)?);
            }
            if g.system == System::PennyAnte {
                local.penny_tables.insert(g.id, read.penny_table(g.id)?);
            }
            if g.system == System::Mezzo {
                local.mezzo_tables.insert(g.id, read.mezzo_table(g.id)?);
            }
            if g.system == System::Scattershot {
                local.scattershot_tables.insert(g.id, read.scattershot_table(g.id)?);
            }
            local.journals.insert(g.id, super::journal::journal_for_file(read, g.id, g.system)?);
            local.games.insert(g.id, g);
        }
        for c in &entry.characters {
            if read.character(c.character.id)?.is_some() {
                local.characters.insert(c.character.id, characters::load(read, c.character.id)?);
            }
        }
    }
    Ok(local)
}

/// Plans the import against what `read` sees. A character the file puts in another game
/// than this device's is a move, refused where `move_character` would refuse it.
fn make_plan(read: Reader<'_>, path: &Path, doc: &Document, digest: &str, as_copy: bool) -> Result<Plan> {
    let bad_file = |problems| Error::BadFile { file: path.to_owned(), problems };
    let mut plan = exchange::plan(doc, &local_of(read, doc)?, as_copy, Uuid::new_v4, now()).map_err(bad_file)?;
    plan.preview.digest = digest.to_owned();
    let mut problems = Vec::new();
    for (_, record, mine) in plan.characters.iter().filter(|(s, _, _)| *s != Status::Unchanged) {
        let Some(mine) = mine.as_ref().filter(|m| m.character.game_id != record.character.game_id) else { continue };
        if let Err(e) = characters::may_leave_game(read, mine, "moved to another game by this file") {
            let message = match e {
                Error::Invalid { problem, .. } => problem,
                other => return Err(other),
            };
            problems.push(crate::Problem { path: format!("character “{}”", mine.character.name), message });
        }
    }
    problems.extend(world_parts_elsewhere(read, &plan)?);
    if problems.is_empty() {
        Ok(plan)
    } else {
        Err(bad_file(problems))
    }
}

/// A world's cards, project clocks and NPCs have ids unique across games: one the file
/// gives a game that this device (or the file) already uses in another game is refused,
/// naming it, rather than failing as a raw database error.
fn world_parts_elsewhere(read: Reader<'_>, plan: &Plan) -> Result<Vec<crate::Problem>> {
    let mut problems = Vec::new();
    let mut in_file: HashMap<Uuid, Uuid> = HashMap::new();
    for (game, world) in &plan.worlds {
        let name = plan.games.iter().find(|(_, g, _)| g.id == *game).map_or("", |(_, g, _)| g.name.as_str());
        let parts = (world.locations.iter().map(|l| ("location card", l.id, &l.name)))
            .chain(world.projects.iter().map(|p| ("project clock", p.id, &p.name)))
            .chain(world.npcs.iter().map(|n| ("NPC", n.id, &n.name)));
        for (what, id, part) in parts {
            let elsewhere = match in_file.insert(id, *game).filter(|g| g != game) {
                Some(other) => Some(other),
                None => read.nsu_world_part_game(id)?.filter(|g| g != game),
            };
            if elsewhere.is_some() {
                problems.push(crate::Problem {
                    path: format!("game “{name}”: {what} “{part}”"),
                    message: format!("its id {id} belongs to another game's world here; import the file as copies"),
                });
            }
        }
    }
    Ok(problems)
}

/// Reads and validates a file and says what importing it would do. Writes nothing.
pub fn import_preview(store: &Store, path: &Path, as_copy: bool) -> Result<Preview> {
    let (doc, digest) = read_document(path)?;
    store.snapshot(|read| Ok(make_plan(read, path, &doc, &digest, as_copy)?.preview))
}

/// Imports a file in one transaction: everything in it lands, or nothing does. The plan is
/// made inside that transaction, so a change committed meanwhile by another process (or a
/// second import of the same file) is seen, never overwritten.
pub fn import(store: &mut Store, path: &Path, options: ImportOptions) -> Result<ImportReport> {
    import_checked(store, path, options, None)
}

/// Imports a file the person saw the preview `seen` of, only if the file is still the one
/// previewed and importing it still does what the preview said; otherwise nothing changes
/// and the error asks for a new look.
pub fn import_seen(store: &mut Store, path: &Path, options: ImportOptions, seen: &Preview) -> Result<ImportReport> {
    import_checked(store, path, options, Some(seen))
}

fn import_checked(
    store: &mut Store,
    path: &Path,
    options: ImportOptions,
    seen: Option<&Preview>,
) -> Result<ImportReport> {
    let (doc, digest) = read_document(path)?;
    if seen.is_some_and(|s| s.digest != digest) {
        return Err(Error::invalid(
            "file",
            format!(
                "{} changed since its preview; nothing was imported. Open it again to see what it holds",
                path.display()
            ),
        ));
    }
    let counts = store.write(|tx| {
        let plan = make_plan(tx.read(), path, &doc, &digest, options.as_copy)?;
        if seen.is_some_and(|s| !s.same_outcome(&plan.preview)) {
            return Err(Error::invalid(
                "file",
                "what this import would do changed since its preview (this device changed meanwhile); \
                 nothing was imported. Open the file again to see what it would do now",
            ));
        }
        apply(tx, path, &plan, options)?;
        Ok(plan.preview.counts)
    })?;
    let written = counts.new + counts.update + counts.conflict;
    let message = if written == 0 {
        "Nothing to import: everything in the file is already here.".to_string()
    } else {
        format!(
            "Imported {written} record(s): {} new, {} updated{}.",
            counts.new,
            counts.update,
            if counts.conflict > 0 { format!(", {} replaced", counts.conflict) } else { String::new() }
        )
    };
    Ok(ImportReport { message, counts })
}

/// Imports a document that did not come from a file (the linked table's snapshot of a
/// game) in one transaction: `proceed` decides first (false: nothing is written, `None`),
/// then the import, then `then`. `from` names where it came from in messages; the document
/// was validated like a file.
pub(crate) fn import_document(
    store: &mut Store,
    from: &Path,
    doc: &Document,
    options: ImportOptions,
    proceed: impl FnOnce(&Tx<'_>) -> Result<bool>,
    then: impl FnOnce(&Tx<'_>) -> Result<()>,
) -> Result<Option<Counts>> {
    store.write(|tx| {
        if !proceed(tx)? {
            return Ok(None);
        }
        let plan = make_plan(tx.read(), from, doc, "", options.as_copy)?;
        apply(tx, from, &plan, options)?;
        then(tx)?;
        Ok(Some(plan.preview.counts))
    })
}

/// Writes a plan inside the import's transaction, then checks that every game it touched
/// (and every game a character left) still exports a file that imports.
fn apply(tx: &Tx<'_>, path: &Path, plan: &Plan, options: ImportOptions) -> Result<()> {
    let counts = plan.preview.counts;
    if counts.conflict > 0 && !options.replace_conflicts {
        let conflicts = plan
            .preview
            .games
            .iter()
            .map(|i| ("game", i))
            .chain(plan.preview.characters.iter().map(|i| ("character", i)))
            .filter(|(_, i)| i.status == Status::Conflict)
            .map(|(what, i)| crate::Problem {
                path: format!("{what} “{}”", i.name),
                message: i
                    .differences
                    .iter()
                    .map(|d| format!("{}: here {:?}, file {:?}", d.field, d.mine, d.theirs))
                    .collect::<Vec<_>>()
                    .join("; "),
            })
            .collect();
        return Err(Error::Conflict { file: path.to_owned(), conflicts });
    }
    let mut touched: Vec<Uuid> = Vec::new();
    {
        let world_of = |id: Uuid| plan.worlds.iter().find(|(g, _)| *g == id).map(|(_, w)| w.clone());
        for (status, game, mine) in &plan.games {
            match status {
                Status::Unchanged => continue,
                Status::New => tx.insert_game(game)?,
                Status::Update | Status::Conflict => tx.update_game(game)?,
            }
            touched.push(game.id);
            // The world travels in the game's event, so undoing the import restores it too.
            let incoming = world_of(game.id);
            let incoming_table = plan.penny_tables.iter().find(|(g, _)| *g == game.id).map(|(_, t)| t.clone());
            let incoming_mezzo = plan.mezzo_tables.iter().find(|(g, _)| *g == game.id).map(|(_, t)| t.clone());
            let incoming_scattershot =
                plan.scattershot_tables.iter().find(|(g, _)| *g == game.id).map(|(_, t)| t.clone());
            let incoming_journal = plan.journals.iter().find(|(g, _)| *g == game.id).map(|(_, j)| j.clone());
            let before = match mine {
                Some(m) => {
                    let read = tx.read();
                    let nsu_world = incoming.as_ref().map(|_| read.nsu_world(m.id)).transpose()?;
                    let penny_table = incoming_table.as_ref().map(|_| read.penny_table(m.id)).transpose()?;
                    let mezzo_table = incoming_mezzo.as_ref().map(|_| read.mezzo_table(m.id)).transpose()?;
                    let scattershot_table =
                        incoming_scattershot.as_ref().map(|_| read.scattershot_table(m.id)).transpose()?;
                    let journal = incoming_journal.as_ref().map(|_| read.journal(m.id)).transpose()?;
                    Some(GameSnapshot {
                        nsu_world,
                        penny_table,
                        mezzo_table,
                        scattershot_table,
                        journal,
                        ..GameSnapshot::bare(m.clone())
                    })
                }
                None => None,
            };
            let after = GameSnapshot {
                nsu_world: incoming,
                penny_table: incoming_table,
                mezzo_table: incoming_mezzo,
                scattershot_table: incoming_scattershot,
                journal: incoming_journal,
                ..GameSnapshot::bare(game.clone())
            };
            game_event(tx, EventKind::GameImported, game.id, &Change { before, after: Some(after) }, None)?;
        }
        for (status, record, mine) in &plan.characters {
            let mut record = record.clone();
            match (status, mine) {
                (Status::Unchanged, _) => continue,
                (Status::New, _) | (_, None) => characters::insert(tx, &record)?,
                (Status::Update, Some(_)) => characters::update(tx, &record)?,
                (Status::Conflict, Some(m)) => {
                    // The file wins, as a change made after both versions.
                    let c = &mut record.character;
                    c.revision = characters::next_revision(c.revision.max(m.character.revision))?;
                    characters::update(tx, &record)?;
                }
            }
            touched.push(record.character.game_id);
            touched.extend(mine.as_ref().map(|m| m.character.game_id));
            let (game, id) = (record.character.game_id, record.character.id);
            let change = Change { before: mine.clone(), after: Some(record) };
            character_event(tx, EventKind::CharacterImported, game, id, &change, None)?;
        }
    }
    // Worlds last: their clocks and scouts name the characters written above.
    for (game, world) in &plan.worlds {
        tx.put_nsu_world(*game, world)?;
    }
    // A Penny Ante table in the file replaces this device's whole, ledger included.
    for (game, table) in &plan.penny_tables {
        tx.replace_penny_table(*game, table)?;
    }
    // A Mezzo table in the file replaces this device's whole; the sheets of characters
    // of the game that the file does not carry follow its claims.
    for (game, table) in &plan.mezzo_tables {
        tx.put_mezzo_table(*game, table)?;
        super::claims::settle_claims(tx, *game)?;
    }
    // A Scattershot table in the file replaces this device's whole.
    for (game, table) in &plan.scattershot_tables {
        tx.put_scattershot_table(*game, table)?;
    }
    // A journal in the file replaces this device's whole: its sessions as the file recorded them.
    for (game, journal) in &plan.journals {
        super::journal::import_journal(tx, *game, Some(journal))?;
    }
    // A Penny Ante character new to its game brings its pile from the Bank.
    for (game, character, pile) in &plan.carried_in {
        let mut table = tx.read().penny_table(*game)?;
        let entry = Entry {
            from: Account::Bank,
            to: Account::Character(*character),
            amount: *pile,
            reason: Reason::CarriedIn,
            challenge: None,
        };
        table.ledger = table.ledger.record(entry)?.0;
        tx.put_penny_table(*game, &table)?;
    }
    games_still_export(tx.read(), touched, "this import")
}
