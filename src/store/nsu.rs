//! No Stone Unturned sheets: their SQL, kept in the store like every other statement.

use rusqlite::{params, Connection, OptionalExtension, Row};
use uuid::Uuid;

use super::queries::{Reader, Tx};
use crate::error::Result;
use crate::rules::nsu::sheet::{AspectBoxes, Aspects, Detail, Die, Mood, Sentiment, SentimentState, Sheet, Skill};

fn die_at(value: Option<i64>, col: usize) -> rusqlite::Result<Option<Die>> {
    value
        .map(|v| u8::try_from(v).ok().and_then(Die::from_sides).ok_or(rusqlite::Error::IntegralValueOutOfRange(col, v)))
        .transpose()
}

fn state_text(s: SentimentState) -> &'static str {
    match s {
        SentimentState::Connected => "connected",
        SentimentState::AtRisk => "at_risk",
        SentimentState::Lost => "lost",
    }
}

fn state_from(text: &str) -> Option<SentimentState> {
    [SentimentState::Connected, SentimentState::AtRisk, SentimentState::Lost]
        .into_iter()
        .find(|s| state_text(*s) == text)
}

fn line(col: usize, v: i64, len: usize) -> rusqlite::Result<usize> {
    usize::try_from(v).ok().filter(|&l| l < len).ok_or(rusqlite::Error::IntegralValueOutOfRange(col, v))
}

/// Reads a sheet's numbered lines (moods, skills, sentiments) into their places: each row's
/// first column is its line, one of `lines`; `row` reads what stands on it.
fn fill_lines<T>(
    conn: &Connection,
    sql: &str,
    id: &str,
    lines: &mut [Option<T>],
    mut row: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<()> {
    let len = lines.len();
    let mut stmt = conn.prepare_cached(sql)?;
    for read in stmt.query_map([id], |r| Ok((line(0, r.get(0)?, len)?, row(r)?)))? {
        let (i, value) = read?;
        lines[i] = Some(value);
    }
    Ok(())
}

impl Reader<'_> {
    /// A character's No Stone Unturned sheet, or None when it has none.
    pub fn nsu_sheet(&self, character: Uuid) -> Result<Option<Sheet>> {
        let id = character.to_string();
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT pronouns, look, rumours, body_die, mind_die, heart_die, recovery_points, private_rumours, \
             private_notes \
             FROM nsu_sheets WHERE character_id = ?1",
        )?;
        let head = stmt
            .query_row([&id], |r| {
                let dice = (die_at(r.get(3)?, 3)?, die_at(r.get(4)?, 4)?, die_at(r.get(5)?, 5)?);
                Ok(Sheet {
                    pronouns: r.get(0)?,
                    look: r.get(1)?,
                    rumours: r.get(2)?,
                    private_rumours: r.get(7)?,
                    private_notes: r.get(8)?,
                    aspects: match dice {
                        (Some(body), Some(mind), Some(heart)) => Some(Aspects { body, mind, heart }),
                        _ => None,
                    },
                    recovery_points: r.get(6)?,
                    ..Sheet::default()
                })
            })
            .optional()?;
        let Some(mut sheet) = head else { return Ok(None) };

        fill_lines(
            conn,
            "SELECT line, name, level, overloaded FROM nsu_moods WHERE character_id = ?1",
            &id,
            &mut sheet.moods,
            |r| Ok(Mood { name: r.get(1)?, level: r.get(2)?, overloaded: r.get(3)? }),
        )?;
        fill_lines(
            conn,
            "SELECT line, name, modifier, body_box, mind_box, heart_box FROM nsu_skills WHERE character_id = ?1",
            &id,
            &mut sheet.skills,
            |r| {
                let boxes = AspectBoxes { body: r.get(3)?, mind: r.get(4)?, heart: r.get(5)? };
                Ok(Skill { name: r.get(1)?, modifier: r.get(2)?, boxes })
            },
        )?;
        fill_lines(
            conn,
            "SELECT line, name, state FROM nsu_sentiments WHERE character_id = ?1",
            &id,
            &mut sheet.sentiments,
            |r| {
                let state: String = r.get(2)?;
                let state = state_from(&state).ok_or(rusqlite::Error::InvalidColumnName(state))?;
                Ok(Sentiment { name: r.get(1)?, state })
            },
        )?;
        let mut stmt = conn.prepare_cached(
            "SELECT kind, text, positive FROM nsu_details WHERE character_id = ?1 ORDER BY kind, position",
        )?;
        let rows = stmt
            .query_map([&id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, Option<bool>>(2)?)))?;
        for row in rows {
            match row? {
                (kind, text, _) if kind == "harm" => sheet.harm.push(text),
                (kind, text, _) if kind == "scar" => sheet.scars.push(text),
                (_, text, positive) => sheet.other_details.push(Detail { text, positive: positive.unwrap_or(false) }),
            }
        }
        Ok(Some(sheet))
    }
}

impl Tx<'_> {
    /// Writes a character's whole NSU sheet, replacing what it had.
    pub fn put_nsu_sheet(&self, character: Uuid, sheet: &Sheet) -> Result<()> {
        let id = character.to_string();
        let tx = self.conn();
        self.delete_nsu_sheet(character)?;
        let aspects = sheet.aspects.map(|a| (a.body.sides(), a.mind.sides(), a.heart.sides()));
        tx.prepare_cached(
            "INSERT INTO nsu_sheets (character_id, pronouns, look, rumours, body_die, mind_die, heart_die, recovery_points, \
             private_rumours, private_notes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?
        .execute(params![
            id,
            sheet.pronouns,
            sheet.look,
            sheet.rumours,
            aspects.map(|a| a.0),
            aspects.map(|a| a.1),
            aspects.map(|a| a.2),
            sheet.recovery_points,
            sheet.private_rumours,
            sheet.private_notes,
        ])?;
        let mut stmt = tx.prepare_cached(
            "INSERT INTO nsu_moods (character_id, line, die, name, level, overloaded) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (i, mood) in sheet.moods.iter().enumerate() {
            if let Some(m) = mood {
                stmt.execute(params![id, i as i64, Sheet::mood_die(i).sides(), m.name, m.level, m.overloaded])?;
            }
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO nsu_skills (character_id, line, name, modifier, body_box, mind_box, heart_box) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (i, skill) in sheet.skills.iter().enumerate() {
            if let Some(s) = skill {
                stmt.execute(params![id, i as i64, s.name, s.modifier, s.boxes.body, s.boxes.mind, s.boxes.heart])?;
            }
        }
        let mut stmt =
            tx.prepare_cached("INSERT INTO nsu_sentiments (character_id, line, name, state) VALUES (?1, ?2, ?3, ?4)")?;
        for (i, sentiment) in sheet.sentiments.iter().enumerate() {
            if let Some(s) = sentiment {
                stmt.execute(params![id, i as i64, s.name, state_text(s.state)])?;
            }
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO nsu_details (character_id, kind, position, text, positive) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, text) in sheet.harm.iter().enumerate() {
            stmt.execute(params![id, "harm", i as i64, text, None::<bool>])?;
        }
        for (i, text) in sheet.scars.iter().enumerate() {
            stmt.execute(params![id, "scar", i as i64, text, None::<bool>])?;
        }
        for (i, d) in sheet.other_details.iter().enumerate() {
            stmt.execute(params![id, "other", i as i64, d.text, Some(d.positive)])?;
        }
        Ok(())
    }

    /// Removes a character's NSU sheet (its lines go with it).
    pub fn delete_nsu_sheet(&self, character: Uuid) -> Result<()> {
        self.conn()
            .prepare_cached("DELETE FROM nsu_sheets WHERE character_id = ?1")?
            .execute([character.to_string()])?;
        Ok(())
    }
}
