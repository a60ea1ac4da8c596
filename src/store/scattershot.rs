//! Scattershot's Mechanix: a character's sheet and each game's table (the Gamemaster's
//! stock of experience dice, mechanical play in progress), in real columns (schema v9; the
//! description, NPC flag, residual modifiers and UE chart in schema v14; its sessions are the
//! journal's since v31), read
//! back into the rules' own types. Both are small and written whole on every change.
//!
//! Enumerations are stored under the names serde gives them (snake_case), which the
//! schema's CHECKs list.

use rusqlite::{params, OptionalExtension};
use uuid::Uuid;

use super::columns::{index_at, name_of, named, opt_named, opt_uuid_at, uuid_at};
use super::queries::{games_to_check, insert_in_order, select_all, Reader, Tx};
use crate::error::Result;
use crate::model::System;
use crate::rules::scattershot::free_skills::ListedFreeSkill;
use crate::rules::scattershot::made_it_by::ResourceResult;
use crate::rules::scattershot::mechanical_play::{Combatant, MechanicalPlay};
use crate::rules::scattershot::sheet::{
    FreeSkill, Modifier, Quality, ResourceLoss, Sheet, Skill, SpecialAbility, Stage, Statistic, StatisticPoints,
};
use crate::rules::scattershot::skill_listings::{DefaultFrom, SkillDefault, SkillListing};
use crate::rules::scattershot::table::{Player, ScattershotTable};
use crate::rules::scattershot::ue_chart::UeRow;
use crate::rules::scattershot::Settings;

/// A position as SQLite stores it (lists hold at most a few hundred entries).
fn pos(i: usize) -> i64 {
    i64::try_from(i).unwrap_or(i64::MAX)
}

impl Reader<'_> {
    /// A character's Scattershot sheet, or None when it has none.
    pub fn scattershot_sheet(&self, character: Uuid) -> Result<Option<Sheet>> {
        let id = character.to_string();
        let conn = self.conn();
        let head = conn
            .prepare_cached(
                "SELECT stage, creation_limit, strength, agility, hit_points, reaction, observation, power, \
                 hit_points_lost, power_lost, experience_dice, description, npc, player_id FROM sc_sheets \
                 WHERE character_id = ?1",
            )?
            .query_row([&id], |r| {
                Ok(Sheet {
                    stage: named::<Stage>(r, 0)?,
                    creation_limit: r.get(1)?,
                    statistics: StatisticPoints {
                        strength: r.get(2)?,
                        agility: r.get(3)?,
                        hit_points: r.get(4)?,
                        reaction: r.get(5)?,
                        observation: r.get(6)?,
                        power: r.get(7)?,
                    },
                    lost: ResourceLoss { hit_points: r.get(8)?, power: r.get(9)? },
                    experience_dice: r.get(10)?,
                    description: r.get(11)?,
                    npc: r.get(12)?,
                    player: opt_uuid_at(r, 13)?,
                    ..Sheet::default()
                })
            })
            .optional()?;
        let Some(mut sheet) = head else { return Ok(None) };
        sheet.free_skills = select_all(
            conn,
            "SELECT name, starting_level, raised FROM sc_free_skills WHERE character_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(FreeSkill { name: r.get(0)?, starting_level: r.get(1)?, raised: r.get(2)? }),
        )?;
        sheet.skills = select_all(
            conn,
            "SELECT name, difficulty, points FROM sc_skills WHERE character_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(Skill { name: r.get(0)?, difficulty: named(r, 1)?, points: r.get(2)? }),
        )?;
        sheet.special_abilities = select_all(
            conn,
            "SELECT name, kind, difficulty, points, notes FROM sc_special_abilities WHERE character_id = ?1 \
                 ORDER BY position",
            [&id],
            |r| {
                Ok(SpecialAbility {
                    name: r.get(0)?,
                    kind: named(r, 1)?,
                    difficulty: named(r, 2)?,
                    points: r.get(3)?,
                    notes: r.get(4)?,
                })
            },
        )?;
        sheet.qualities = select_all(
            conn,
            "SELECT kind, name, situation, modifier, points FROM sc_qualities WHERE character_id = ?1 \
                 ORDER BY position",
            [&id],
            |r| {
                Ok(Quality {
                    kind: named(r, 0)?,
                    name: r.get(1)?,
                    situation: r.get(2)?,
                    modifier: r.get(3)?,
                    points: r.get(4)?,
                })
            },
        )?;
        sheet.modifiers = select_all(
            conn,
            "SELECT text, value, lasts FROM sc_modifiers WHERE character_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(Modifier { text: r.get(0)?, value: r.get(1)?, lasts: named(r, 2)? }),
        )?;
        Ok(Some(sheet))
    }

    /// The table of game `game`; an empty one when nothing was stored for it yet.
    pub fn scattershot_table(&self, game: Uuid) -> Result<ScattershotTable> {
        let id = game.to_string();
        let conn = self.conn();
        let head = conn
            .prepare_cached("SELECT gm_dice FROM sc_tables WHERE game_id = ?1")?
            .query_row([&id], |r| Ok(ScattershotTable { gm_dice: r.get(0)?, ..ScattershotTable::default() }))
            .optional()?;
        let Some(mut table) = head else { return Ok(ScattershotTable::default()) };
        table.players = select_all(
            conn,
            "SELECT player_id, name, dice FROM sc_players WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(Player { id: uuid_at(r, 0)?, name: r.get(1)?, dice: r.get(2)? }),
        )?;
        table.ue_chart = select_all(
            conn,
            "SELECT idx, factor, points, bonus, magnitude FROM sc_ue_chart WHERE game_id = ?1 ORDER BY idx",
            [&id],
            |r| {
                Ok(UeRow {
                    index: r.get(0)?,
                    factor: r.get(1)?,
                    points: r.get(2)?,
                    bonus: r.get(3)?,
                    magnitude: r.get(4)?,
                })
            },
        )?;
        table.free_skill_list = select_all(
            conn,
            "SELECT name, starting_level FROM sc_free_skill_list WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(ListedFreeSkill { name: r.get(0)?, starting_level: r.get(1)? }),
        )?;
        table.skill_listings = select_all(
            conn,
            "SELECT name, difficulty, default_statistic, default_rating, default_modifier, default_restriction \
             FROM sc_skill_listings WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| {
                let statistic: Option<Statistic> = opt_named(r, 2)?;
                let rating: Option<i32> = r.get(3)?;
                let restriction: Option<String> = r.get(5)?;
                let default = match (restriction, statistic, rating) {
                    (Some(restriction), Some(s), _) => {
                        Some(SkillDefault { from: DefaultFrom::Statistic(s), modifier: r.get(4)?, restriction })
                    }
                    (Some(restriction), None, Some(n)) => {
                        Some(SkillDefault { from: DefaultFrom::Rating(n), modifier: r.get(4)?, restriction })
                    }
                    _ => None,
                };
                Ok(SkillListing { name: r.get(0)?, difficulty: named(r, 1)?, default })
            },
        )?;
        let play = conn
            .prepare_cached(
                "SELECT cinematic, round, turn, actions_used, epic_index, critical_juncture, experience_die, \
                 experience_dice_per_point FROM sc_play WHERE game_id = ?1",
            )?
            .query_row([&id], |r| {
                Ok(MechanicalPlay {
                    cinematic: r.get(0)?,
                    round: r.get(1)?,
                    turn: index_at(r, 2)?,
                    actions_used: r.get(3)?,
                    settings: Settings {
                        epic_index: r.get(4)?,
                        critical_juncture: r.get(5)?,
                        experience_die: r.get(6)?,
                        experience_dice_per_point: r.get(7)?,
                    },
                    combatants: Vec::new(),
                    pending: Vec::new(),
                })
            })
            .optional()?;
        let Some(mut play) = play else { return Ok(table) };
        play.combatants = select_all(
            conn,
            "SELECT character_id, player_id, forfeited, forfeits, free_actions, second_cycle, engaged, advantages, \
                 reduced_penalty FROM sc_combatants WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| {
                Ok(Combatant {
                    character: uuid_at(r, 0)?,
                    player: uuid_at(r, 1)?,
                    forfeited: r.get(2)?,
                    forfeits: r.get(3)?,
                    free_actions: r.get(4)?,
                    second_cycle: r.get(5)?,
                    free_kinds: Vec::new(),
                    engaged: opt_uuid_at(r, 6)?,
                    advantages: r.get(7)?,
                    reduced_penalty: r.get(8)?,
                })
            },
        )?;
        let mut stmt = conn.prepare_cached(
            "SELECT combatant, kind FROM sc_free_kinds WHERE game_id = ?1 ORDER BY combatant, position",
        )?;
        let rows = stmt.query_map([&id], |r| Ok((index_at(r, 0)?, r.get::<_, String>(1)?)))?;
        for row in rows {
            let (at, kind) = row?;
            if let Some(c) = play.combatants.get_mut(at) {
                c.free_kinds.push(kind);
            }
        }
        play.pending = select_all(
            conn,
            "SELECT target, resource, amount FROM sc_pending_results WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(ResourceResult { target: uuid_at(r, 0)?, resource: named(r, 1)?, amount: r.get(2)? }),
        )?;
        table.play = Some(play);
        Ok(table)
    }

    /// What `sheetkeeper check` finds wrong with the Scattershot sheets and tables.
    pub(super) fn scattershot_check(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let games = games_to_check(self.conn(), System::Scattershot)?;
        for (id, name) in games {
            let said = |problem: String| format!("Scattershot game “{name}” ({id}): {problem}");
            let Ok(game) = Uuid::parse_str(&id) else {
                out.push(said("the game's id is not an id".into()));
                continue;
            };
            let characters = self.characters_of(game)?;
            let ids: Vec<Uuid> = characters.iter().map(|c| c.id).collect();
            let table = match self.scattershot_table(game) {
                Ok(table) => {
                    out.extend(table.problems("table", &ids).into_iter().map(|p| said(p.to_string())));
                    Some(table)
                }
                Err(e) => {
                    out.push(said(format!("the table cannot be read: {e}")));
                    None
                }
            };
            let mut sheets = Vec::new();
            for c in characters {
                match self.scattershot_sheet(c.id) {
                    Ok(Some(sheet)) => {
                        out.extend(sheet.problems("sheet").into_iter().map(|p| said(format!("“{}”: {p}", c.name))));
                        sheets.push(sheet);
                    }
                    Ok(None) => {}
                    Err(e) => out.push(said(format!("the sheet of “{}” cannot be read: {e}", c.name))),
                }
            }
            if let Some(table) = &table {
                let listed: Vec<(usize, &Sheet)> = sheets.iter().enumerate().collect();
                let found = crate::rules::scattershot::table::sheet_player_problems(table, &listed, "game");
                out.extend(found.into_iter().map(|p| said(p.to_string())));
            }
        }
        Ok(out)
    }
}

impl Tx<'_> {
    /// Writes a character's sheet whole.
    pub fn put_scattershot_sheet(&self, character: Uuid, sheet: &Sheet) -> Result<()> {
        self.delete_scattershot_sheet(character)?;
        let id = character.to_string();
        let conn = self.conn();
        let s = &sheet.statistics;
        conn.prepare_cached(
            "INSERT INTO sc_sheets (character_id, stage, creation_limit, strength, agility, hit_points, reaction, \
             observation, power, hit_points_lost, power_lost, experience_dice, description, npc, player_id) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        )?
        .execute(params![
            id,
            name_of(sheet.stage),
            sheet.creation_limit,
            s.strength,
            s.agility,
            s.hit_points,
            s.reaction,
            s.observation,
            s.power,
            sheet.lost.hit_points,
            sheet.lost.power,
            sheet.experience_dice,
            sheet.description,
            sheet.npc,
            sheet.player.map(|p| p.to_string()),
        ])?;
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_free_skills (character_id, position, name, starting_level, raised) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, f) in sheet.free_skills.iter().enumerate() {
            stmt.execute(params![id, pos(i), f.name, f.starting_level, f.raised])?;
        }
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_skills (character_id, position, name, difficulty, points) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, k) in sheet.skills.iter().enumerate() {
            stmt.execute(params![id, pos(i), k.name, name_of(k.difficulty), k.points])?;
        }
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_special_abilities (character_id, position, name, kind, difficulty, points, notes) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (i, a) in sheet.special_abilities.iter().enumerate() {
            stmt.execute(params![id, pos(i), a.name, name_of(a.kind), name_of(a.difficulty), a.points, a.notes])?;
        }
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_qualities (character_id, position, kind, name, situation, modifier, points) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (i, q) in sheet.qualities.iter().enumerate() {
            stmt.execute(params![id, pos(i), name_of(q.kind), q.name, q.situation, q.modifier, q.points])?;
        }
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_modifiers (character_id, position, text, value, lasts) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, m) in sheet.modifiers.iter().enumerate() {
            stmt.execute(params![id, pos(i), m.text, m.value, name_of(m.lasts)])?;
        }
        Ok(())
    }

    /// Removes a character's sheet (its lists go with it).
    pub fn delete_scattershot_sheet(&self, character: Uuid) -> Result<()> {
        self.conn()
            .prepare_cached("DELETE FROM sc_sheets WHERE character_id = ?1")?
            .execute([character.to_string()])?;
        Ok(())
    }

    /// Writes a game's table whole.
    pub fn put_scattershot_table(&self, game: Uuid, table: &ScattershotTable) -> Result<()> {
        let id = game.to_string();
        let conn = self.conn();
        conn.prepare_cached("DELETE FROM sc_tables WHERE game_id = ?1")?.execute([&id])?;
        conn.prepare_cached("INSERT INTO sc_tables (game_id, gm_dice) VALUES (?1, ?2)")?
            .execute(params![id, table.gm_dice])?;
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_players (game_id, position, player_id, name, dice) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, p) in table.players.iter().enumerate() {
            stmt.execute(params![id, pos(i), p.id.to_string(), p.name, p.dice])?;
        }
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_ue_chart (game_id, idx, factor, points, bonus, magnitude) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for row in &table.ue_chart {
            stmt.execute(params![id, row.index, row.factor, row.points, row.bonus, row.magnitude])?;
        }
        insert_in_order(
            conn,
            "INSERT INTO sc_free_skill_list (game_id, position, name, starting_level) VALUES (?1, ?2, ?3, ?4)",
            &id,
            table.free_skill_list.iter().map(|s| (&s.name, s.starting_level)),
        )?;
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_skill_listings (game_id, position, name, difficulty, default_statistic, default_rating, \
             default_modifier, default_restriction) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        for (i, l) in table.skill_listings.iter().enumerate() {
            let d = l.default.as_ref();
            let statistic = d.and_then(|d| match d.from {
                DefaultFrom::Statistic(s) => Some(name_of(s)),
                DefaultFrom::Rating(_) => None,
            });
            let rating = d.and_then(|d| match d.from {
                DefaultFrom::Rating(n) => Some(n),
                DefaultFrom::Statistic(_) => None,
            });
            stmt.execute(params![
                id,
                pos(i),
                l.name,
                name_of(l.difficulty),
                statistic,
                rating,
                d.map(|d| d.modifier),
                d.map(|d| &d.restriction)
            ])?;
        }
        let Some(play) = &table.play else { return Ok(()) };
        let s = &play.settings;
        conn.prepare_cached(
            "INSERT INTO sc_play (game_id, cinematic, round, turn, actions_used, epic_index, critical_juncture, \
             experience_die, experience_dice_per_point) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(params![
            id,
            play.cinematic,
            play.round,
            pos(play.turn),
            play.actions_used,
            s.epic_index,
            s.critical_juncture,
            s.experience_die,
            s.experience_dice_per_point,
        ])?;
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_combatants (game_id, position, character_id, player_id, forfeited, forfeits, \
             free_actions, second_cycle, engaged, advantages, reduced_penalty) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?;
        let mut kinds = conn
            .prepare_cached("INSERT INTO sc_free_kinds (game_id, combatant, position, kind) VALUES (?1, ?2, ?3, ?4)")?;
        for (i, c) in play.combatants.iter().enumerate() {
            stmt.execute(params![
                id,
                pos(i),
                c.character.to_string(),
                c.player.to_string(),
                c.forfeited,
                c.forfeits,
                c.free_actions,
                c.second_cycle,
                c.engaged.map(|e| e.to_string()),
                c.advantages,
                c.reduced_penalty,
            ])?;
            for (j, kind) in c.free_kinds.iter().enumerate() {
                kinds.execute(params![id, pos(i), pos(j), kind])?;
            }
        }
        let mut stmt = conn.prepare_cached(
            "INSERT INTO sc_pending_results (game_id, position, target, resource, amount) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, r) in play.pending.iter().enumerate() {
            stmt.execute(params![id, pos(i), r.target.to_string(), name_of(r.resource), r.amount])?;
        }
        Ok(())
    }
}
