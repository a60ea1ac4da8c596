//! Undo: take back the latest change of a character or a game that is not undone yet, by
//! restoring the state the event log recorded before it. The undo is itself logged.

use uuid::Uuid;

use super::characters;
use super::log::{change_of, character_event, game_event, Change, GameSnapshot};
use super::Done;
use crate::error::{Error, Result};
use crate::model::now;
use crate::rules::record::CharacterRecord;
use crate::store::{Event, EventKind, Store, Tx};

pub fn undo_character(store: &mut Store, id: Uuid) -> Result<Done> {
    store.write(|tx| undo_character_in(tx, id))
}

fn undo_character_in(tx: &Tx<'_>, id: Uuid) -> Result<Done> {
    let event = tx
        .read()
        .last_undoable_of_character(id)?
        .ok_or_else(|| Error::NothingToUndo("There is nothing to undo for this character.".into()))?;
    let message = undo_character_event(tx, &event)?;
    // Changes made together (a roll and its helper's sheet, or the downtime move a
    // scouting roll made) are undone together.
    for seq in event.payload["together"].as_array().into_iter().flatten().filter_map(|v| v.as_i64()) {
        let linked =
            tx.read().event(seq)?.ok_or_else(|| Error::invalid("event log", format!("event {seq} is missing")))?;
        if linked.character_id.is_none() {
            if tx.read().last_undoable_of_game(linked.game_id)?.map(|e| e.seq) != Some(seq) {
                return Err(Error::invalid(
                    "game",
                    "the world or downtime changed after this roll; undo those later changes first",
                ));
            }
            super::nsu::world::undo_world_event(tx, &linked)?;
            continue;
        }
        let other = linked.character_id.unwrap_or_default();
        if tx.read().last_undoable_of_character(other)?.map(|e| e.seq) != Some(seq) {
            let name = tx.read().character(other)?.map(|c| c.name).unwrap_or_default();
            return Err(Error::invalid(
                "character",
                format!("“{name}” changed after this roll; undo their later changes first"),
            ));
        }
        undo_character_event(tx, &linked)?;
    }
    Ok(Done::new(message))
}

/// Restores the record as it was before `event` and logs the undo.
fn undo_character_event(tx: &Tx<'_>, event: &Event) -> Result<String> {
    let read = tx.read();
    let id = event.character_id.unwrap_or_default();
    let change: Change<CharacterRecord> = change_of(event)?;
    let current = match read.character(id)? {
        Some(_) => Some(characters::load(read, id)?),
        None => None,
    };
    if let (None, Some(after)) = (&current, &change.after) {
        if read.game(after.character.game_id)?.is_none() {
            let name = &after.character.name;
            return Err(Error::invalid("character", format!("the game of “{name}” was deleted; undo that first")));
        }
    }
    if !same_content(current.as_ref(), change.after.as_ref()) {
        let name = current.as_ref().or(change.after.as_ref()).map(|r| r.character.name.clone()).unwrap_or_default();
        return Err(Error::invalid(
            "character",
            format!("“{name}” was changed since (by downtime or an import of its game); undo that first"),
        ));
    }
    // A Mezzo character's claim is its table's: the undo must leave the sheet as the table
    // records it.
    let claimed_now = current.as_ref().and_then(|r| r.mezzo.as_ref()).and_then(|e| e.claimed_by);
    let claim_kept = match &change.before {
        None => claimed_now.is_none(),
        Some(before) => super::claims::claim_agrees(read, before)?,
    };
    if !claim_kept {
        let name = current.as_ref().or(change.before.as_ref()).map(|r| r.character.name.clone()).unwrap_or_default();
        return Err(Error::invalid(
            "character",
            format!("the claim on “{name}” is its table's, which changed since; undo the table's change first"),
        ));
    }
    let restored = match change.before {
        None => {
            if current.is_none() {
                return Err(Error::NothingToUndo(
                    "This character no longer exists here (was its game deleted?).".into(),
                ));
            }
            tx.delete_character(id)?;
            None
        }
        Some(mut before) => {
            let c = &mut before.character;
            if read.game(c.game_id)?.is_none() {
                return Err(Error::invalid(
                    "character",
                    format!("the game of “{}” was deleted; undo that first", c.name),
                ));
            }
            // Undoing a move (or an import that moved it) moves it back: the game it is in
            // now must let it go, as for any move.
            if let Some(now_in) = current.as_ref().filter(|r| r.character.game_id != c.game_id) {
                characters::may_leave_game(read, now_in, "moved back by this undo")?;
            }
            // The restored state is a new change: its revision moves on.
            let latest = current.as_ref().map_or(c.revision, |r| r.character.revision).max(c.revision);
            c.revision = characters::next_revision(latest)?;
            c.updated_at = now();
            if current.is_some() {
                characters::update(tx, &before)?;
            } else {
                characters::insert(tx, &before)?;
            }
            Some(before)
        }
    };
    if let (Some(now_in), Some(back_in)) = (&current, &restored) {
        let games = [now_in.character.game_id, back_in.character.game_id];
        if games[0] != games[1] {
            super::transfer::games_still_export(read, games, "this undo")?;
        }
    }
    let name = |r: Option<&CharacterRecord>| r.map(|r| r.character.name.clone());
    let message = describe_character_undo(event.kind, name(current.as_ref()), name(restored.as_ref()));
    let game_id = restored.as_ref().or(current.as_ref()).map_or(event.game_id, |r| r.character.game_id);
    let change = Change { before: current, after: restored };
    character_event(tx, EventKind::Undo, game_id, id, &change, Some(event.seq))?;
    Ok(message)
}

fn describe_character_undo(kind: EventKind, before: Option<String>, after: Option<String>) -> String {
    let name = |n: &Option<String>| n.clone().unwrap_or_default();
    match kind {
        EventKind::CharacterCreated | EventKind::CharacterCopied | EventKind::CharacterImported if after.is_none() => {
            format!("Undone: “{}” is removed again.", name(&before))
        }
        EventKind::CharacterDeleted => format!("Undone: “{}” is back.", name(&after)),
        EventKind::CharacterRenamed => format!("Undone: “{}” is called “{}” again.", name(&before), name(&after)),
        EventKind::CharacterMoved => format!("Undone: “{}” is back in its previous game.", name(&after)),
        EventKind::NsuDiceRolled => format!("Undone: the dice of “{}” are off the table.", name(&after)),
        EventKind::NsuRollResolved => format!("Undone: the last roll of “{}”.", name(&after)),
        _ => format!("Undone: the last change to “{}”.", name(if after.is_some() { &after } else { &before })),
    }
}

pub fn undo_game(store: &mut Store, id: Uuid) -> Result<Done> {
    store.write(|tx| {
        let read = tx.read();
        let event = read
            .last_undoable_of_game(id)?
            .ok_or_else(|| Error::NothingToUndo("There is nothing to undo for this game.".into()))?;
        // A downtime move made by settling a scouting roll is undone with that roll.
        if let Some(roller) = event.payload.get(super::nsu::downtime::ROLL_OF).and_then(|v| v.as_str()) {
            let roller = Uuid::parse_str(roller)
                .map_err(|e| Error::invalid("event log", format!("event {} cannot be read: {e}", event.seq)))?;
            let roll = read.last_undoable_of_character(roller)?;
            let with_roll = roll
                .as_ref()
                .and_then(|r| r.payload["together"].as_array())
                .is_some_and(|t| t.iter().any(|v| v.as_i64() == Some(event.seq)));
            if !with_roll {
                let name = read.character(roller)?.map(|c| c.name).unwrap_or_default();
                return Err(Error::invalid(
                    "character",
                    format!("“{name}” changed after their scouting roll; undo their later changes first"),
                ));
            }
            return undo_character_in(tx, roller);
        }
        // A world or downtime event snapshots the world, not the game record.
        if super::nsu::world::is_world_event(event.kind) {
            return super::nsu::world::undo_world_event(tx, &event).map(Done::new);
        }
        if super::penny_ante::is_penny_event(event.kind) {
            return super::penny_ante::undo_penny_event(tx, &event).map(Done::new);
        }
        // A pending action check changes nothing: its undo only takes it off the table.
        if event.kind == EventKind::MezzoCheckRolled {
            return super::mezzo::check::undo_check_rolled(tx, &event).map(Done::new);
        }
        if super::mezzo::is_mezzo_event(event.kind) {
            return super::mezzo::undo_mezzo_event(tx, &event).map(Done::new);
        }
        if super::journal::is_journal_event(event.kind) {
            return super::journal::undo_journal_event(tx, &event).map(Done::new);
        }
        if super::scattershot::is_scattershot_event(event.kind) {
            return super::scattershot::undo_scattershot_event(tx, &event).map(Done::new);
        }
        let change: Change<GameSnapshot> = change_of(&event)?;
        let current = read.game(id)?;
        let message = match (change.before, &current) {
            (None, Some(game)) => {
                let count = read.characters_of(id)?.len();
                if count > 0 {
                    return Err(Error::invalid(
                        "game",
                        format!(
                            "“{}” has {count} character(s) now; delete or move them before undoing its creation",
                            game.name
                        ),
                    ));
                }
                tx.delete_game(id)?;
                format!("Undone: the game “{}” is removed again.", game.name)
            }
            (Some(snapshot), None) => {
                tx.insert_game(&snapshot.game)?;
                for c in &snapshot.characters {
                    if read.character(c.character.id)?.is_none() {
                        characters::insert(tx, c)?;
                    }
                }
                restore_table(tx, id, &snapshot)?;
                format!("Undone: the game “{}” is back.", snapshot.game.name)
            }
            (Some(snapshot), Some(game)) => {
                let restored = crate::model::Game { updated_at: now(), ..snapshot.game.clone() };
                tx.update_game(&restored)?;
                restore_table(tx, id, &snapshot)?;
                if game.name == restored.name {
                    format!("Undone: the last change to the game “{}”.", restored.name)
                } else {
                    format!("Undone: the game “{}” is “{}” again.", game.name, restored.name)
                }
            }
            (None, None) => return Err(Error::NothingToUndo("This game no longer exists here.".into())),
        };
        let after = tx.read().game(id)?.map(GameSnapshot::bare);
        let change = Change { before: current.map(GameSnapshot::bare), after };
        game_event(tx, EventKind::Undo, id, &change, Some(event.seq))?;
        Ok(Done::new(message))
    })
}

/// Puts back the world or table a game snapshot holds (a Mezzo table settles its claims
/// on the sheets again).
fn restore_table(tx: &Tx<'_>, id: Uuid, snapshot: &GameSnapshot) -> Result<()> {
    if let Some(world) = &snapshot.nsu_world {
        tx.put_nsu_world(id, world)?;
    }
    if let Some(table) = &snapshot.penny_table {
        tx.replace_penny_table(id, table)?;
    }
    if let Some(table) = &snapshot.mezzo_table {
        tx.put_mezzo_table(id, table)?;
        super::claims::settle_claims(tx, id)?;
    }
    if let Some(table) = &snapshot.scattershot_table {
        tx.put_scattershot_table(id, table)?;
    }
    if let Some(journal) = &snapshot.journal {
        tx.put_journal(id, journal)?;
    }
    Ok(())
}

/// Whether two records hold the same content, leaving aside the bookkeeping (revision and
/// time stamps) that every change moves on.
fn same_content(a: Option<&CharacterRecord>, b: Option<&CharacterRecord>) -> bool {
    let strip = |r: &CharacterRecord| {
        let mut r = r.clone();
        r.character.revision = 0;
        r.character.updated_at = r.character.created_at;
        r
    };
    match (a, b) {
        (Some(a), Some(b)) => strip(a) == strip(b),
        (None, None) => true,
        _ => false,
    }
}
