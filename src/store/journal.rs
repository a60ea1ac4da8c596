//! The campaign journal (schema v24): a game's sessions, who was there, and what happened
//! in those read from a file. Read back into the rules' own types.

use rusqlite::params;
use uuid::Uuid;

use super::queries::{Reader, Tx};
use crate::error::{Error, Result};
use crate::rules::journal::{Group, Journal, Line, Session, Span};

impl Reader<'_> {
    /// `game`'s journal, its sessions in order (empty when it has none).
    pub fn journal(&self, game: Uuid) -> Result<Journal> {
        let g = game.to_string();
        let mut stmt = self.conn().prepare_cached(
            "SELECT number, date, notes, open, from_seq, to_seq FROM journal_sessions WHERE game_id = ?1 ORDER BY number",
        )?;
        let rows = stmt
            .query_map([&g], |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, bool>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    r.get::<_, Option<i64>>(5)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut names = self.conn().prepare_cached(
            "SELECT name FROM journal_attendees WHERE game_id = ?1 AND number = ?2 ORDER BY position",
        )?;
        let mut lines = self.conn().prepare_cached(
            "SELECT grp, words, table_words FROM journal_lines WHERE game_id = ?1 AND number = ?2 ORDER BY position",
        )?;
        let mut sessions = Vec::with_capacity(rows.len());
        for (number, date, notes, open, from, to) in rows {
            let attendees =
                names.query_map(params![&g, number], |r| r.get::<_, String>(0))?.collect::<rusqlite::Result<_>>()?;
            let recorded = lines
                .query_map(params![&g, number], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, Option<String>>(2)?))
                })?
                .map(|row| {
                    let (grp, words, table_words) = row?;
                    let group = Group::from_id(&grp)
                        .ok_or_else(|| Error::invalid("journal", format!("a line's kind “{grp}” is unknown")))?;
                    Ok(Line { group, words, table_words })
                })
                .collect::<Result<Vec<_>>>()?;
            let span = from.map(|from| Span { from, to });
            sessions.push(Session { number, date, attendees, notes, open, span, recorded });
        }
        Ok(Journal { sessions })
    }

    /// The newest event in the log (0 when it is empty): where a session starts or ends.
    pub fn last_event_seq(&self) -> Result<i64> {
        Ok(self.conn().prepare_cached("SELECT COALESCE(MAX(seq), 0) FROM events")?.query_row([], |r| r.get(0))?)
    }
}

impl Tx<'_> {
    /// Writes `game`'s journal whole (it is small), in place of what it held.
    pub fn put_journal(&self, game: Uuid, journal: &Journal) -> Result<()> {
        let g = game.to_string();
        self.conn().prepare_cached("DELETE FROM journal_sessions WHERE game_id = ?1")?.execute([&g])?;
        let mut session = self.conn().prepare_cached(
            "INSERT INTO journal_sessions (game_id, number, date, notes, open, from_seq, to_seq) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut attendee = self.conn().prepare_cached(
            "INSERT INTO journal_attendees (game_id, number, position, name) VALUES (?1, ?2, ?3, ?4)",
        )?;
        let mut line = self.conn().prepare_cached(
            "INSERT INTO journal_lines (game_id, number, position, grp, words, table_words) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for s in &journal.sessions {
            let (from, to) = s.span.map_or((None, None), |sp| (Some(sp.from), sp.to));
            session.execute(params![&g, s.number, s.date, s.notes, s.open, from, to])?;
            for (i, name) in s.attendees.iter().enumerate() {
                attendee.execute(params![&g, s.number, i as i64, name])?;
            }
            for (i, l) in s.recorded.iter().enumerate() {
                line.execute(params![&g, s.number, i as i64, l.group.id(), l.words, l.table_words])?;
            }
        }
        Ok(())
    }
}
