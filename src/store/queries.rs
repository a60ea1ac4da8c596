//! Every SQL statement of the app, once each: reads on [`Reader`], writes on [`Tx`].

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension, Row, Transaction};
use uuid::Uuid;

use super::columns::{conversion, opt_uuid_at, uuid_at, BadValue};
use super::events::{Event, EventKind, NewEvent};
use crate::error::Result;
use crate::model::{timestamp as time_text, Character, Game, System, TableSettings};

/// Read access, on the plain connection or inside a write transaction.
#[derive(Clone, Copy)]
pub struct Reader<'c> {
    conn: &'c Connection,
}

/// Write access inside one transaction (see `Store::write`).
pub struct Tx<'c> {
    tx: &'c Transaction<'c>,
}

const GAME_COLUMNS: &str = "id, name, system, created_at, updated_at, notes";
const CHARACTER_COLUMNS: &str = "id, game_id, system, name, created_at, updated_at, revision, notes";
const EVENT_COLUMNS: &str = "seq, at, game_id, character_id, kind, undoes, payload";
/// Undo looks past dice tray rolls, an NSU roll's desired outcome and a Mezzo check's attempt
/// written after them: they are records that change nothing.
const A_CHANGE: &str = "kind NOT IN ('dice_tray_rolled', 'nsu_roll_outcome_written', 'mezzo_check_attempt_written')";

impl<'c> Reader<'c> {
    pub(super) fn new(conn: &'c Connection) -> Self {
        Reader { conn }
    }

    pub(super) fn conn(&self) -> &'c Connection {
        self.conn
    }

    /// Every game with its settings, by name.
    pub fn games(&self) -> Result<Vec<Game>> {
        let mut settings: HashMap<Uuid, TableSettings> = HashMap::new();
        let mut stmt = self.conn.prepare_cached("SELECT game_id, name, value FROM table_settings")?;
        let rows = stmt.query_map([], |r| Ok((uuid_at(r, 0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?)))?;
        for row in rows {
            let (game, name, value) = row?;
            settings.entry(game).or_default().insert(name, value);
        }
        let mut stmt =
            self.conn.prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games ORDER BY name COLLATE NOCASE, id"))?;
        let games = stmt.query_map([], game_from_row)?.collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(games
            .into_iter()
            .map(|mut g| {
                g.table_settings = settings.remove(&g.id).unwrap_or_default();
                g
            })
            .collect())
    }

    pub fn game(&self, id: Uuid) -> Result<Option<Game>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))?;
        let Some(mut game) = stmt.query_row([id.to_string()], game_from_row).optional()? else {
            return Ok(None);
        };
        game.table_settings = self.settings_of(id)?;
        Ok(Some(game))
    }

    fn settings_of(&self, game: Uuid) -> Result<TableSettings> {
        let mut stmt = self.conn.prepare_cached("SELECT name, value FROM table_settings WHERE game_id = ?1")?;
        let rows = stmt.query_map([game.to_string()], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every character of every game, by name.
    pub fn characters(&self) -> Result<Vec<Character>> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT {CHARACTER_COLUMNS} FROM characters ORDER BY name COLLATE NOCASE, id"))?;
        let rows = stmt.query_map([], character_from_row)?.collect::<rusqlite::Result<Vec<_>>>();
        Ok(rows?)
    }

    pub fn characters_of(&self, game: Uuid) -> Result<Vec<Character>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {CHARACTER_COLUMNS} FROM characters WHERE game_id = ?1 ORDER BY name COLLATE NOCASE, id"
        ))?;
        let rows = stmt.query_map([game.to_string()], character_from_row)?.collect::<rusqlite::Result<Vec<_>>>();
        Ok(rows?)
    }

    pub fn character(&self, id: Uuid) -> Result<Option<Character>> {
        let mut stmt =
            self.conn.prepare_cached(&format!("SELECT {CHARACTER_COLUMNS} FROM characters WHERE id = ?1"))?;
        Ok(stmt.query_row([id.to_string()], character_from_row).optional()?)
    }

    /// The latest change of a character that has not been undone yet (undos themselves
    /// are not undoable: there is no redo).
    pub fn last_undoable_of_character(&self, character: Uuid) -> Result<Option<Event>> {
        self.last_undoable("character_id = ?1", character)
    }

    /// The latest game-level change (not one of its characters') not undone yet.
    pub fn last_undoable_of_game(&self, game: Uuid) -> Result<Option<Event>> {
        self.last_undoable("game_id = ?1 AND character_id IS NULL", game)
    }

    /// The newest event under `filter` is either a change (live: an undo of it would come
    /// after it) or an undo, whose `resumes` names the live change below what it undid.
    /// Dice tray rolls change nothing and are passed over.
    fn last_undoable(&self, filter: &str, id: Uuid) -> Result<Option<Event>> {
        let sql = format!(
            "SELECT {EVENT_COLUMNS}, resumes FROM events e WHERE {filter} AND {A_CHANGE} ORDER BY seq DESC LIMIT 1"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let newest =
            stmt.query_row([id.to_string()], |r| Ok((event_from_row(r)?, r.get::<_, Option<i64>>(7)?))).optional()?;
        match newest {
            None => Ok(None),
            Some((event, _)) if event.kind != EventKind::Undo => Ok(Some(event)),
            Some((_, None)) => Ok(None),
            Some((_, Some(seq))) => self.event(seq),
        }
    }

    pub fn event(&self, seq: i64) -> Result<Option<Event>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {EVENT_COLUMNS} FROM events WHERE seq = ?1"))?;
        Ok(stmt.query_row([seq], event_from_row).optional()?)
    }

    /// Events of one kind in a game (or of one of its characters), newest first, each with
    /// whether it has been undone.
    pub fn events_of_kind(
        &self,
        game: Uuid,
        character: Option<Uuid>,
        kind: EventKind,
        limit: u32,
    ) -> Result<Vec<(Event, bool)>> {
        self.events_of_kind_within(game, character, kind, (0, i64::MAX), limit)
    }

    /// [`Self::events_of_kind`] after event `within.0` and up to event `within.1` (a
    /// journal session's part of the log).
    pub fn events_of_kind_within(
        &self,
        game: Uuid,
        character: Option<Uuid>,
        kind: EventKind,
        within: (i64, i64),
        limit: u32,
    ) -> Result<Vec<(Event, bool)>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {EVENT_COLUMNS}, EXISTS (SELECT 1 FROM events u WHERE u.undoes = e.seq) FROM events e \
             WHERE game_id = ?1 AND (?2 IS NULL OR character_id = ?2) AND kind = ?3 AND seq > ?5 AND seq <= ?6 \
             ORDER BY seq DESC LIMIT ?4"
        ))?;
        let args =
            params![game.to_string(), character.map(|c| c.to_string()), kind.as_str(), limit, within.0, within.1];
        let rows = stmt
            .query_map(args, |r| Ok((event_from_row(r)?, r.get::<_, bool>(7)?)))?
            .collect::<rusqlite::Result<Vec<_>>>();
        Ok(rows?)
    }

    /// A character's log, newest first, at most `limit` events.
    pub fn events_of_character(&self, character: Uuid, limit: u32) -> Result<Vec<Event>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {EVENT_COLUMNS} FROM events WHERE character_id = ?1 ORDER BY seq DESC LIMIT ?2"
        ))?;
        let rows = stmt
            .query_map(params![character.to_string(), limit], event_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>();
        Ok(rows?)
    }
}

impl<'c> Tx<'c> {
    pub(super) fn new(tx: &'c Transaction<'c>) -> Self {
        Tx { tx }
    }

    pub(super) fn conn(&self) -> &'c Transaction<'c> {
        self.tx
    }

    /// Reads that see this transaction's own writes.
    pub fn read(&self) -> Reader<'_> {
        Reader::new(self.tx)
    }

    pub fn insert_game(&self, game: &Game) -> Result<()> {
        self.tx
            .prepare_cached(&format!("INSERT INTO games ({GAME_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"))?
            .execute(game_params(game))?;
        self.put_settings(game)
    }

    /// Writes a game's name, time stamps and settings (its system never changes).
    pub fn update_game(&self, game: &Game) -> Result<()> {
        self.tx
            .prepare_cached(
                "UPDATE games SET name = ?2, system = ?3, created_at = ?4, updated_at = ?5, notes = ?6 WHERE id = ?1",
            )?
            .execute(game_params(game))?;
        self.tx.prepare_cached("DELETE FROM table_settings WHERE game_id = ?1")?.execute([game.id.to_string()])?;
        self.put_settings(game)
    }

    /// Marks a game as changed now (its world or downtime changed), so an import can tell
    /// a newer copy of the game from an older one.
    pub fn touch_game(&self, id: Uuid, at: DateTime<Utc>) -> Result<()> {
        self.tx
            .prepare_cached("UPDATE games SET updated_at = ?2 WHERE id = ?1")?
            .execute(params![id.to_string(), time_text(at)])?;
        Ok(())
    }

    fn put_settings(&self, game: &Game) -> Result<()> {
        let mut stmt =
            self.tx.prepare_cached("INSERT INTO table_settings (game_id, name, value) VALUES (?1, ?2, ?3)")?;
        for (name, value) in &game.table_settings {
            stmt.execute(params![game.id.to_string(), name, value])?;
        }
        Ok(())
    }

    /// Deletes a game; its characters and settings go with it (ON DELETE CASCADE).
    pub fn delete_game(&self, id: Uuid) -> Result<()> {
        self.tx.prepare_cached("DELETE FROM games WHERE id = ?1")?.execute([id.to_string()])?;
        Ok(())
    }

    pub fn insert_character(&self, c: &Character) -> Result<()> {
        self.tx
            .prepare_cached(&format!(
                "INSERT INTO characters ({CHARACTER_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
            ))?
            .execute(character_params(c))?;
        Ok(())
    }

    pub fn update_character(&self, c: &Character) -> Result<()> {
        self.tx
            .prepare_cached(
                "UPDATE characters SET game_id = ?2, system = ?3, name = ?4, created_at = ?5, updated_at = ?6, \
                 revision = ?7, notes = ?8 WHERE id = ?1",
            )?
            .execute(character_params(c))?;
        Ok(())
    }

    pub fn delete_character(&self, id: Uuid) -> Result<()> {
        self.tx.prepare_cached("DELETE FROM characters WHERE id = ?1")?.execute([id.to_string()])?;
        Ok(())
    }

    /// Appends to the event log and returns the new event's sequence number. An undo also
    /// records which change is live again below the one it undid (`resumes`).
    pub fn append_event(&self, e: &NewEvent) -> Result<i64> {
        // A game this device joined at a linked table changes only through its host (whose
        // snapshots arrive as imports): a change to the game itself made here would be
        // replaced by the next snapshot, so it is refused. Every game-level change of every
        // system appends its event here, in its transaction.
        if e.character_id.is_none() && e.kind != EventKind::GameImported && self.read().link_joined(e.game_id)? {
            return Err(crate::error::Error::Invalid {
                field: "game".into(),
                problem: "this game is hosted at a linked table: the table's device makes changes to the game \
                          itself (this device changes its own characters, and sends its moves through the link)"
                    .into(),
            });
        }
        let resumes = match e.undoes {
            Some(undone) => self.live_below(undone)?,
            None => None,
        };
        self.tx
            .prepare_cached(
                "INSERT INTO events (at, game_id, character_id, kind, undoes, resumes, payload) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                time_text(e.at),
                e.game_id.to_string(),
                e.character_id.map(|id| id.to_string()),
                e.kind.as_str(),
                e.undoes,
                resumes,
                e.payload.to_string(),
            ])?;
        Ok(self.tx.last_insert_rowid())
    }

    /// The live change just below event `seq` in its own log (the character's, or the
    /// game's own): the previous event if it is a change, or what that undo resumed.
    fn live_below(&self, seq: i64) -> Result<Option<i64>> {
        let Some(undone) = Reader::new(self.tx).event(seq)? else { return Ok(None) };
        let previous: Option<(String, i64, Option<i64>)> = match undone.character_id {
            Some(character) => self
                .tx
                .prepare_cached(&format!(
                    "SELECT kind, seq, resumes FROM events WHERE character_id = ?1 AND seq < ?2 \
                     AND {A_CHANGE} ORDER BY seq DESC LIMIT 1"
                ))?
                .query_row(params![character.to_string(), seq], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?,
            None => self
                .tx
                .prepare_cached(&format!(
                    "SELECT kind, seq, resumes FROM events WHERE game_id = ?1 AND character_id IS NULL AND seq < ?2 \
                     AND {A_CHANGE} ORDER BY seq DESC LIMIT 1"
                ))?
                .query_row(params![undone.game_id.to_string(), seq], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?,
        };
        Ok(match previous {
            None => None,
            Some((kind, _, resumes)) if kind == EventKind::Undo.as_str() => resumes,
            Some((_, seq, _)) => Some(seq),
        })
    }
}

/// Every row `sql` selects with `params`, each read by `row`, in the order selected.
pub(super) fn select_all<T, P: rusqlite::Params>(
    conn: &Connection,
    sql: &str,
    params: P,
    row: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>> {
    Ok(conn.prepare_cached(sql)?.query_map(params, row)?.collect::<rusqlite::Result<_>>()?)
}

/// Writes `rows` in their order with `sql`, whose parameters are `owner` (the id of what
/// keeps the list), the row's position from 0, then the row's two values.
pub(super) fn insert_in_order<A: rusqlite::ToSql, B: rusqlite::ToSql>(
    conn: &Connection,
    sql: &str,
    owner: &str,
    rows: impl IntoIterator<Item = (A, B)>,
) -> Result<()> {
    let mut stmt = conn.prepare_cached(sql)?;
    for (i, (a, b)) in rows.into_iter().enumerate() {
        stmt.execute(params![owner, i as i64, a, b])?;
    }
    Ok(())
}

/// A system's games as `sheetkeeper check` reports them, by name: each one's id as stored
/// (the check says when it is not an id) and its name.
pub(super) fn games_to_check(conn: &Connection, system: System) -> Result<Vec<(String, String)>> {
    select_all(conn, "SELECT id, name FROM games WHERE system = ?1 ORDER BY name, id", [system.id()], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })
}

/// A game's columns, in the order of `GAME_COLUMNS`.
fn game_params(g: &Game) -> [Box<dyn rusqlite::ToSql + '_>; 6] {
    [
        Box::new(g.id.to_string()),
        Box::new(g.name.as_str()),
        Box::new(g.system.id()),
        Box::new(time_text(g.created_at)),
        Box::new(time_text(g.updated_at)),
        Box::new(g.notes.as_str()),
    ]
}

fn character_params(c: &Character) -> [Box<dyn rusqlite::ToSql + '_>; 8] {
    [
        Box::new(c.id.to_string()),
        Box::new(c.game_id.to_string()),
        Box::new(c.system.id()),
        Box::new(c.name.as_str()),
        Box::new(time_text(c.created_at)),
        Box::new(time_text(c.updated_at)),
        Box::new(c.revision),
        Box::new(c.notes.as_str()),
    ]
}

fn time_at(r: &Row<'_>, col: usize) -> rusqlite::Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(&r.get::<_, String>(col)?)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| conversion(col, e))
}

fn system_at(r: &Row<'_>, col: usize) -> rusqlite::Result<System> {
    let id: String = r.get(col)?;
    System::from_id(&id).ok_or_else(|| conversion(col, BadValue(format!("unknown system {id:?}"))))
}

fn game_from_row(r: &Row<'_>) -> rusqlite::Result<Game> {
    Ok(Game {
        id: uuid_at(r, 0)?,
        name: r.get(1)?,
        system: system_at(r, 2)?,
        table_settings: TableSettings::new(),
        created_at: time_at(r, 3)?,
        updated_at: time_at(r, 4)?,
        notes: r.get(5)?,
    })
}

fn character_from_row(r: &Row<'_>) -> rusqlite::Result<Character> {
    Ok(Character {
        id: uuid_at(r, 0)?,
        game_id: uuid_at(r, 1)?,
        system: system_at(r, 2)?,
        name: r.get(3)?,
        created_at: time_at(r, 4)?,
        updated_at: time_at(r, 5)?,
        revision: r.get(6)?,
        notes: r.get(7)?,
    })
}

fn event_from_row(r: &Row<'_>) -> rusqlite::Result<Event> {
    let kind: String = r.get(4)?;
    let payload: String = r.get(6)?;
    Ok(Event {
        seq: r.get(0)?,
        at: time_at(r, 1)?,
        game_id: uuid_at(r, 2)?,
        character_id: opt_uuid_at(r, 3)?,
        kind: EventKind::parse(&kind).ok_or_else(|| conversion(4, BadValue(format!("unknown event kind {kind:?}"))))?,
        undoes: r.get(5)?,
        payload: serde_json::from_str(&payload).map_err(|e| conversion(6, e))?,
    })
}
