//! Creating, renaming, deleting, copying and moving characters, and loading and saving a
//! character together with its system's sheet.

use uuid::Uuid;

use super::log::{character_event, character_event_from_roll, Change};
use super::lookup::existing_game;
use super::Done;
use crate::error::{Error, Result};
use crate::model::{clean_name, now, Character, MAX_REVISION};
use crate::rules::mezzo::element::{gift_targets, invested_in, Element, Template};
use crate::rules::record::CharacterRecord;
use crate::store::{EventKind, Reader, Store, Tx};

pub(super) fn existing_character(read: Reader<'_>, id: Uuid) -> Result<Character> {
    read.character(id)?.ok_or_else(|| Error::NotFound { what: "character", id: id.to_string() })
}

/// A character with its sheet.
pub(super) fn load(read: Reader<'_>, id: Uuid) -> Result<CharacterRecord> {
    let character = existing_character(read, id)?;
    Ok(CharacterRecord {
        nsu: read.nsu_sheet(id)?,
        penny_ante: read.penny_sheet(id)?,
        mezzo: read.mezzo_sheet(id)?,
        scattershot: read.scattershot_sheet(id)?,
        character,
    })
}

/// The game's characters with their sheets, by name.
pub(super) fn records(read: Reader<'_>, game: Uuid) -> Result<Vec<CharacterRecord>> {
    read.characters_of(game)?.into_iter().map(|c| load(read, c.id)).collect()
}

/// Writes a new character with its sheet.
pub(super) fn insert(tx: &Tx<'_>, record: &CharacterRecord) -> Result<()> {
    tx.insert_character(&record.character)?;
    if let Some(sheet) = &record.nsu {
        tx.put_nsu_sheet(record.character.id, sheet)?;
    }
    if let Some(sheet) = &record.penny_ante {
        tx.put_penny_sheet(record.character.id, sheet)?;
    }
    if let Some(element) = &record.mezzo {
        tx.put_mezzo_sheet(record.character.id, element)?;
    }
    if let Some(sheet) = &record.scattershot {
        tx.put_scattershot_sheet(record.character.id, sheet)?;
    }
    Ok(())
}

/// Writes an existing character and its sheet as `record` has them.
pub(super) fn update(tx: &Tx<'_>, record: &CharacterRecord) -> Result<()> {
    tx.update_character(&record.character)?;
    match &record.nsu {
        Some(sheet) => tx.put_nsu_sheet(record.character.id, sheet)?,
        None => tx.delete_nsu_sheet(record.character.id)?,
    }
    match &record.penny_ante {
        Some(sheet) => tx.put_penny_sheet(record.character.id, sheet)?,
        None => tx.delete_penny_sheet(record.character.id)?,
    }
    match &record.mezzo {
        Some(element) => tx.put_mezzo_sheet(record.character.id, element)?,
        None => tx.delete_mezzo_sheet(record.character.id)?,
    }
    match &record.scattershot {
        Some(sheet) => tx.put_scattershot_sheet(record.character.id, sheet),
        None => tx.delete_scattershot_sheet(record.character.id),
    }
}

/// Saves a changed character with its event, bumping its revision.
pub(super) fn save(tx: &Tx<'_>, kind: EventKind, before: CharacterRecord, after: CharacterRecord) -> Result<Character> {
    save_logged(tx, before, after, |change, game, id| character_event(tx, kind, game, id, change, None))
}

/// Saves a sheet changed by writing a detail that settled roll `roll` granted: its event
/// names the roll, so the roll's written details can be counted.
pub(super) fn save_detail_from_roll(
    tx: &Tx<'_>,
    before: CharacterRecord,
    after: CharacterRecord,
    roll: i64,
) -> Result<Character> {
    save_logged(tx, before, after, |change, game, id| character_event_from_roll(tx, game, id, change, roll))
}

fn save_logged(
    tx: &Tx<'_>,
    before: CharacterRecord,
    mut after: CharacterRecord,
    log: impl FnOnce(&Change<CharacterRecord>, Uuid, Uuid) -> Result<i64>,
) -> Result<Character> {
    after.character.revision = next_revision(before.character.revision)?;
    after.character.updated_at = now();
    update(tx, &after)?;
    let (game, id) = (after.character.game_id, after.character.id);
    log(&Change { before: Some(before), after: Some(after.clone()) }, game, id)?;
    Ok(after.character)
}

fn insert_new(tx: &Tx<'_>, kind: EventKind, record: CharacterRecord) -> Result<Character> {
    insert(tx, &record)?;
    let (game, id) = (record.character.game_id, record.character.id);
    character_event(tx, kind, game, id, &Change { before: None, after: Some(record.clone()) }, None)?;
    Ok(record.character)
}

/// Adds a character to a game; it plays in the game's system, with that system's empty sheet.
pub fn create_character(store: &mut Store, game_id: Uuid, name: &str) -> Result<Character> {
    let name = clean_name("name", name)?;
    store.write(|tx| {
        let game = existing_game(tx.read(), game_id)?;
        let at = now();
        let character = Character {
            id: Uuid::new_v4(),
            game_id,
            system: game.system,
            name,
            created_at: at,
            updated_at: at,
            revision: 1,
            notes: String::new(),
        };
        let mut record = CharacterRecord::new(character);
        // A Scattershot character's creation starts with the table's limit, if it sets one.
        if let Some(sheet) = &mut record.scattershot {
            sheet.creation_limit = crate::rules::scattershot::table::creation_limit(&game.table_settings);
        }
        insert_new(tx, EventKind::CharacterCreated, record)
    })
}

pub fn rename_character(store: &mut Store, id: Uuid, name: &str) -> Result<Character> {
    let name = clean_name("name", name)?;
    store.write(|tx| {
        let before = load(tx.read(), id)?;
        if before.character.name == name {
            return Ok(before.character);
        }
        let mut after = before.clone();
        // A Mezzo character's element carries its name.
        if let Some(element) = &mut after.mezzo {
            element.name.clone_from(&name);
        }
        after.character.name = name;
        save(tx, EventKind::CharacterRenamed, before, after)
    })
}

pub fn delete_character(store: &mut Store, id: Uuid) -> Result<Done> {
    store.write(|tx| {
        let before = load(tx.read(), id)?;
        unclaimed("id", &before, "deleted")?;
        out_of_play(tx.read(), "id", &before, "deleted")?;
        gives_no_edge(tx.read(), &before, "deleted")?;
        tx.delete_character(id)?;
        let message = format!("Deleted “{}”.", before.character.name);
        let game = before.character.game_id;
        character_event(
            tx,
            EventKind::CharacterDeleted,
            game,
            id,
            &Change { before: Some(before), after: None },
            None,
        )?;
        Ok(Done::new(message))
    })
}

/// A Mezzo character claimed by a player stays at its table: the claim is the table's.
fn unclaimed(field: &str, record: &CharacterRecord, what: &str) -> Result<()> {
    if record.mezzo.as_ref().is_some_and(|e| e.claimed_by.is_some()) {
        return Err(Error::invalid(
            field,
            format!(
                "“{}” is claimed by a player: the claim must be given up before it is {what}",
                record.character.name
            ),
        ));
    }
    Ok(())
}

/// Writes `sheet`, a changed copy of the stored `old`, as its next revision; returns what
/// was written.
pub(super) fn revise(tx: &Tx<'_>, old: &CharacterRecord, sheet: &CharacterRecord) -> Result<CharacterRecord> {
    let mut record = sheet.clone();
    record.character.revision = next_revision(old.character.revision)?;
    record.character.updated_at = now();
    update(tx, &record)?;
    Ok(record)
}

/// Writes each of a move's `sheets` that `same` does not find unchanged from its record in
/// `characters`, and returns each written one's id, record before and record after.
pub(super) fn revise_changed(
    tx: &Tx<'_>,
    characters: &[CharacterRecord],
    sheets: &[CharacterRecord],
    same: impl Fn(&CharacterRecord, &CharacterRecord) -> bool,
) -> Result<Vec<(Uuid, CharacterRecord, CharacterRecord)>> {
    let mut changed = Vec::new();
    for sheet in sheets {
        let id = sheet.character.id;
        let Some(old) = characters.iter().find(|r| r.character.id == id) else { continue };
        if !same(old, sheet) {
            changed.push((id, old.clone(), revise(tx, old, sheet)?));
        }
    }
    Ok(changed)
}

/// The revision after `revision`, refused (rather than wrapped) at the end of the range.
pub(super) fn next_revision(revision: i64) -> Result<i64> {
    revision.checked_add(1).filter(|&r| r <= MAX_REVISION).ok_or_else(|| {
        Error::invalid("revision", format!("{revision} is the last revision a character can have; copy it to go on"))
    })
}

/// Refuses to undo a table move while a sheet it changed has changed since: `after` is what
/// the move left of each character (`None`: it deleted it), `same` whether a record now is
/// still the one the move left. The refusal names the character, whose later changes are
/// to be undone first.
pub(super) fn unchanged_since(
    read: Reader<'_>,
    after: &[(Uuid, Option<CharacterRecord>)],
    same: impl Fn(&CharacterRecord, &CharacterRecord) -> bool,
) -> Result<()> {
    for (id, after) in after {
        let now_record = read.character(*id)?.map(|_| load(read, *id)).transpose()?;
        let unchanged = match (&now_record, after) {
            (Some(a), Some(b)) => same(a, b),
            (None, None) => true,
            _ => false,
        };
        if !unchanged {
            let name = now_record.as_ref().or(after.as_ref()).map(|r| r.character.name.clone()).unwrap_or_default();
            return Err(Error::invalid("character", format!("“{name}” changed since this move; undo that first")));
        }
    }
    Ok(())
}

/// Puts a character back as a table move found it, as its next revision; `None` (the move
/// made it) deletes it again. Returns what it put back.
pub(super) fn restore(tx: &Tx<'_>, id: Uuid, before: Option<&CharacterRecord>) -> Result<Option<CharacterRecord>> {
    let Some(record) = before else {
        tx.delete_character(id)?;
        return Ok(None);
    };
    let mut record = record.clone();
    record.character.revision = next_revision(load(tx.read(), id)?.character.revision)?;
    record.character.updated_at = now();
    update(tx, &record)?;
    Ok(Some(record))
}

/// Refuses to take a character out of its game (a move, or an import that puts it in
/// another game) while its game still names it: a player's claim, mechanical play, the NSU
/// world's scouted cards or project clocks. What it leaves would otherwise point at a
/// character that is not there, and the game's own backup would no longer import.
pub(super) fn may_leave_game(read: Reader<'_>, record: &CharacterRecord, what: &str) -> Result<()> {
    unclaimed("id", record, what)?;
    out_of_play(read, "id", record, what)?;
    gives_no_edge(read, record, what)?;
    if record.character.system == crate::model::System::Nsu {
        let world = read.nsu_world(record.character.game_id)?;
        let id = record.character.id;
        let named = if world.projects.iter().any(|p| p.owner == id) {
            Some("owns a project clock")
        } else if world.locations.iter().any(|l| l.scouted_by.contains(&id)) {
            Some("has scouted cards of its map")
        } else {
            None
        };
        if let Some(why) = named {
            return Err(Error::invalid(
                "id",
                format!("“{}” {why} in its game: it stays there, so it cannot be {what}", record.character.name),
            ));
        }
    }
    Ok(())
}

/// A Mezzo character whose Asset Investment or Empowering Gift gives another element of its
/// game an edge stays until that is taken back: the edge is known by the trait that gives it,
/// and the backup of the game would otherwise hold an edge given by nobody.
fn gives_no_edge(read: Reader<'_>, record: &CharacterRecord, what: &str) -> Result<()> {
    let Some(element) = &record.mezzo else { return Ok(()) };
    let game = record.character.game_id;
    let others: Vec<Element> = records(read, game)?
        .into_iter()
        .filter(|r| r.character.id != record.character.id)
        .filter_map(|r| r.mezzo)
        .chain(read.mezzo_table(game)?.elements)
        .collect();
    let given = element.traits.iter().find_map(|t| {
        let held = match t.template {
            Some(Template::AssetInvestment) => invested_in(t.id, &others),
            Some(Template::EmpoweringGift) => gift_targets(t.id, &others).first().copied(),
            _ => None,
        }?;
        others.iter().find(|e| e.id == held).map(|e| (t.name.clone(), e.name.clone()))
    });
    match given {
        Some((gift, holder)) => Err(Error::invalid(
            "id",
            format!(
                "“{}”'s “{gift}” gives {holder} an edge: take it back before “{}” is {what}",
                record.character.name, record.character.name
            ),
        )),
        None => Ok(()),
    }
}

/// A Scattershot character in its game's mechanical play stays until the play ends: the
/// tracker (and results an older version left waiting for the lull) name it.
fn out_of_play(read: Reader<'_>, field: &str, record: &CharacterRecord, what: &str) -> Result<()> {
    if record.character.system != crate::model::System::Scattershot {
        return Ok(());
    }
    let table = read.scattershot_table(record.character.game_id)?;
    let id = record.character.id;
    if table
        .play
        .is_some_and(|p| p.combatants.iter().any(|c| c.character == id) || p.pending.iter().any(|r| r.target == id))
    {
        return Err(Error::invalid(
            field,
            format!("“{}” is in mechanical play: end it (the lull) before it is {what}", record.character.name),
        ));
    }
    Ok(())
}

/// Checks that `to_game` exists and plays the character's system.
pub(super) fn same_system_game(read: Reader<'_>, c: &Character, to_game: Uuid) -> Result<()> {
    let game = existing_game(read, to_game)?;
    if game.system != c.system {
        return Err(Error::invalid(
            "to_game",
            format!("“{}” plays {}, but “{}” is a {} game", c.name, c.system.label(), game.name, game.system.label()),
        ));
    }
    Ok(())
}

/// Makes a copy of a character and its sheet, with a new id, in a game of its system.
pub fn copy_character(store: &mut Store, id: Uuid, to_game: Uuid) -> Result<Character> {
    store.write(|tx| {
        let original = load(tx.read(), id)?;
        same_system_game(tx.read(), &original.character, to_game)?;
        let at = now();
        let character = Character {
            id: Uuid::new_v4(),
            game_id: to_game,
            created_at: at,
            updated_at: at,
            revision: 1,
            ..original.character
        };
        // Characteristics bought at the old table count as paid for elsewhere.
        let penny_ante = original.penny_ante.as_ref().map(|s| s.arriving(0));
        // The copy is its own element, claimed by no one.
        let mezzo = original.mezzo.as_ref().map(|e| Element { id: character.id, claimed_by: None, ..e.clone() });
        insert_new(tx, EventKind::CharacterCopied, CharacterRecord { character, penny_ante, mezzo, ..original })
    })
}
