//! The world of a No Stone Unturned game and its downtime phase in progress: their SQL, kept
//! in the store like every other statement. Both are written whole (replacing what was
//! stored) and read back into the rules' own types.

use rusqlite::{params, OptionalExtension, Row};
use uuid::Uuid;

use super::columns::{bad, uuid_at};
use super::queries::{insert_in_order, select_all, Reader, Tx};
use crate::error::Result;
use crate::rules::nsu::downtime::{
    Awaiting, CharacterPhase, CollateralAttempt, CollateralDie, DowntimePhase, FinalBox,
};
use crate::rules::nsu::sheet::Detail;
use crate::rules::nsu::world::{
    Ban, GridPos, Location, MapPath, Npc, ProjectClock, Resource, ResourceState, SafetyList, SceneDetail,
    ScopeQuestion, Statement, World, RESOURCE_COUNT,
};
use crate::rules::nsu::{Aspect, Die};

fn safety_text(list: SafetyList) -> &'static str {
    match list {
        SafetyList::Lines => "lines",
        SafetyList::Veils => "veils",
    }
}

const RESOURCE_STATES: [(ResourceState, &str); 3] = [
    (ResourceState::Scarcity, "scarcity"),
    (ResourceState::Neutral, "neutral"),
    (ResourceState::Abundance, "abundance"),
];

fn resource_text(state: ResourceState) -> &'static str {
    RESOURCE_STATES.iter().find(|(s, _)| *s == state).map(|(_, t)| *t).expect("every state has a name")
}

fn aspect_text(aspect: Aspect) -> &'static str {
    match aspect {
        Aspect::Body => "body",
        Aspect::Mind => "mind",
        Aspect::Heart => "heart",
    }
}

fn aspect_at(r: &Row<'_>, col: usize) -> rusqlite::Result<Aspect> {
    let text: String = r.get(col)?;
    Aspect::ALL
        .into_iter()
        .find(|a| aspect_text(*a) == text)
        .ok_or_else(|| bad(col, format!("unknown aspect {text:?}")))
}

impl Reader<'_> {
    /// The game whose world holds the location card, project clock or NPC with this id
    /// (their ids are unique across games).
    pub fn nsu_world_part_game(&self, id: Uuid) -> Result<Option<Uuid>> {
        let game: Option<String> = self
            .conn()
            .prepare_cached(
                "SELECT game_id FROM nsu_locations WHERE id = ?1 UNION ALL \
                 SELECT game_id FROM nsu_projects WHERE id = ?1 UNION ALL \
                 SELECT game_id FROM nsu_npcs WHERE id = ?1 LIMIT 1",
            )?
            .query_row([id.to_string()], |r| r.get(0))
            .optional()?;
        Ok(game.and_then(|g| Uuid::parse_str(&g).ok()))
    }

    /// Whether event `seq` has been taken back by an undo.
    pub fn event_undone(&self, seq: i64) -> Result<bool> {
        Ok(self
            .conn()
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM events WHERE undoes = ?1)")?
            .query_row([seq], |r| r.get(0))?)
    }

    /// How many details written from settled roll `roll` of game `game` stand (not undone): a
    /// detail on a sheet alone is a `sheet_edited` event naming the roll in `from_roll`, one
    /// that changed the world is an `nsu_world_changed` event naming it in `events.roll`.
    pub fn details_written_from_roll(&self, game: Uuid, roll: i64) -> Result<usize> {
        let count: i64 = self
            .conn()
            .prepare_cached(
                "SELECT COUNT(*) FROM events e WHERE e.game_id = ?1 AND e.seq > ?2 \
                 AND e.kind IN ('sheet_edited', 'nsu_world_changed') \
                 AND ?2 IN (json_extract(e.payload, '$.from_roll'), json_extract(e.payload, '$.events.roll')) \
                 AND NOT EXISTS (SELECT 1 FROM events u WHERE u.undoes = e.seq)",
            )?
            .query_row(params![game.to_string(), roll], |r| r.get(0))?;
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// The world of game `game`; an empty world when the table has not built one yet.
    pub fn nsu_world(&self, game: Uuid) -> Result<World> {
        let id = game.to_string();
        let conn = self.conn();
        let mut world = World::default();

        let mut stmt =
            conn.prepare_cached("SELECT list, text FROM nsu_safety WHERE game_id = ?1 ORDER BY list, position")?;
        let rows = stmt.query_map([&id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        for row in rows {
            match row? {
                (list, text) if list == "lines" => world.safety.lines.push(text),
                (_, text) => world.safety.veils.push(text),
            }
        }

        world.bans =
            select_all(conn, "SELECT player, ban FROM nsu_bans WHERE game_id = ?1 ORDER BY position", [&id], |r| {
                Ok(Ban { player: r.get(0)?, ban: r.get(1)? })
            })?;

        world.settlement = select_all(
            conn,
            "SELECT author, text FROM nsu_settlement WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(Statement { author: r.get(0)?, text: r.get(1)? }),
        )?;

        world.scope = select_all(
            conn,
            "SELECT question, answer FROM nsu_scope WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(ScopeQuestion { question: r.get(0)?, answer: r.get(1)? }),
        )?;

        let resources = select_all(
            conn,
            "SELECT name, state FROM nsu_resources WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| {
                let state: String = r.get(1)?;
                let state = RESOURCE_STATES
                    .iter()
                    .find(|(_, t)| *t == state)
                    .map(|(s, _)| *s)
                    .ok_or_else(|| bad(1, format!("unknown resource state {state:?}")))?;
                Ok(Resource { name: r.get(0)?, state })
            },
        )?;
        world.resources = match resources.len() {
            0 => None,
            n => Some(<[Resource; RESOURCE_COUNT]>::try_from(resources).map_err(|_| {
                bad(0, format!("game {game} has {n} resources stored; a world has none or {RESOURCE_COUNT}"))
            })?),
        };

        world.locations = select_all(
            conn,
            "SELECT id, name, author, description, collateral_harms, danger, treasure, danger_level, reward_level, \
             collateral, revealed, x, y, author_character FROM nsu_locations WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| {
                let position = match (r.get::<_, Option<i16>>(11)?, r.get::<_, Option<i16>>(12)?) {
                    (Some(x), Some(y)) => Some(GridPos { x, y }),
                    _ => None,
                };
                Ok(Location {
                    id: uuid_at(r, 0)?,
                    name: r.get(1)?,
                    author: r.get(2)?,
                    description: r.get(3)?,
                    collateral_harms: r.get(4)?,
                    danger: r.get(5)?,
                    treasure: r.get(6)?,
                    danger_level: r.get(7)?,
                    reward_level: r.get(8)?,
                    collateral: r.get(9)?,
                    revealed: r.get(10)?,
                    position,
                    scene_details: Vec::new(),
                    scouted_by: Vec::new(),
                    author_character: r
                        .get::<_, Option<String>>(13)?
                        .map(|s| Uuid::parse_str(&s))
                        .transpose()
                        .map_err(|e| bad(13, e.to_string()))?,
                })
            },
        )?;
        let mut details = conn.prepare_cached(
            "SELECT text, world_at_risk FROM nsu_scene_details WHERE location_id = ?1 ORDER BY position",
        )?;
        let mut scouts =
            conn.prepare_cached("SELECT character_id FROM nsu_scouts WHERE location_id = ?1 ORDER BY position")?;
        for location in &mut world.locations {
            let lid = location.id.to_string();
            location.scene_details = details
                .query_map([&lid], |r| Ok(SceneDetail { text: r.get(0)?, world_at_risk: r.get(1)? }))?
                .collect::<rusqlite::Result<_>>()?;
            location.scouted_by = scouts.query_map([&lid], |r| uuid_at(r, 0))?.collect::<rusqlite::Result<_>>()?;
        }

        world.projects = select_all(
            conn,
            "SELECT id, name, owner_id, size, filled FROM nsu_projects WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| {
                Ok(ProjectClock {
                    id: uuid_at(r, 0)?,
                    name: r.get(1)?,
                    owner: uuid_at(r, 2)?,
                    size: r.get(3)?,
                    filled: r.get(4)?,
                })
            },
        )?;

        world.npcs = select_all(
            conn,
            "SELECT id, name, threshold FROM nsu_npcs WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| {
                Ok(Npc {
                    id: uuid_at(r, 0)?,
                    name: r.get(1)?,
                    details: Vec::new(),
                    threshold: r.get(2)?,
                    harm: Vec::new(),
                })
            },
        )?;
        let mut details =
            conn.prepare_cached("SELECT text, positive FROM nsu_npc_details WHERE npc_id = ?1 ORDER BY position")?;
        let mut harm = conn.prepare_cached("SELECT text FROM nsu_npc_harm WHERE npc_id = ?1 ORDER BY position")?;
        for npc in &mut world.npcs {
            let nid = npc.id.to_string();
            npc.details = details
                .query_map([&nid], |r| Ok(Detail { text: r.get(0)?, positive: r.get(1)? }))?
                .collect::<rusqlite::Result<_>>()?;
            npc.harm = harm.query_map([&nid], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        }

        world.party_at = conn
            .prepare_cached("SELECT location_id FROM nsu_party WHERE game_id = ?1")?
            .query_row([&id], |r| uuid_at(r, 0))
            .optional()?;
        world.paths =
            select_all(conn, "SELECT a, b FROM nsu_paths WHERE game_id = ?1 ORDER BY position", [&id], |r| {
                Ok(MapPath { a: uuid_at(r, 0)?, b: uuid_at(r, 1)? })
            })?;
        Ok(world)
    }

    /// The downtime phase in progress in game `game`, if any.
    pub fn nsu_downtime(&self, game: Uuid) -> Result<Option<DowntimePhase>> {
        let id = game.to_string();
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT at_home, time_units, just_left, just_left_rolled, extra_complications_left \
             FROM nsu_downtime WHERE game_id = ?1",
        )?;
        let head = stmt
            .query_row([&id], |r| {
                Ok(DowntimePhase {
                    at_home: r.get(0)?,
                    time_units: r.get(1)?,
                    just_left: r
                        .get::<_, Option<String>>(2)?
                        .map(|s| Uuid::parse_str(&s))
                        .transpose()
                        .map_err(|e| bad(2, e.to_string()))?,
                    just_left_rolled: r.get(3)?,
                    extra_complications_left: r.get(4)?,
                    characters: Default::default(),
                    collateral_attempts: Vec::new(),
                })
            })
            .optional()?;
        let Some(mut phase) = head else { return Ok(None) };

        let mut stmt = conn.prepare_cached(
            "SELECT character_id, actions_left, recovered_harm, upgraded_skills, awaiting, awaiting_aspect, \
             awaiting_roll FROM nsu_downtime_characters WHERE game_id = ?1",
        )?;
        let rows = stmt.query_map([&id], |r| {
            let awaiting = match (r.get::<_, Option<String>>(4)?, r.get::<_, Option<u8>>(6)?) {
                (Some(what), Some(roll)) if what == "introspection" => Some(Awaiting::Introspection { roll }),
                (Some(what), Some(roll)) if what == "train_skills" => {
                    Some(Awaiting::TrainSkills { aspect: aspect_at(r, 5)?, roll })
                }
                (None, None) => None,
                (what, _) => return Err(bad(4, format!("cannot read the awaited choice {what:?}"))),
            };
            let phase = CharacterPhase {
                actions_left: r.get(1)?,
                recovered_harm: r.get(2)?,
                upgraded_skills: r.get(3)?,
                awaiting,
                final_boxes: Vec::new(),
            };
            Ok((uuid_at(r, 0)?, phase))
        })?;
        for row in rows {
            let (character, c) = row?;
            phase.characters.insert(character, c);
        }
        let mut stmt = conn.prepare_cached(
            "SELECT character_id, line, mood FROM nsu_downtime_final_boxes WHERE game_id = ?1 \
             ORDER BY character_id, position",
        )?;
        let rows = stmt.query_map([&id], |r| {
            let line = r.get::<_, u8>(1)?;
            Ok((uuid_at(r, 0)?, FinalBox { line: usize::from(line), mood: r.get(2)? }))
        })?;
        for row in rows {
            let (character, f) = row?;
            if let Some(c) = phase.characters.get_mut(&character) {
                c.final_boxes.push(f);
            }
        }

        phase.collateral_attempts = select_all(
            conn,
            "SELECT location_id, started_by, votes_for, votes_against FROM nsu_collateral_attempts \
             WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| {
                Ok(CollateralAttempt {
                    location: uuid_at(r, 0)?,
                    started_by: uuid_at(r, 1)?,
                    votes_for: r.get(2)?,
                    votes_against: r.get(3)?,
                    dice: Vec::new(),
                })
            },
        )?;
        let mut stmt = conn.prepare_cached(
            "SELECT character_id, aspect, die, roll FROM nsu_collateral_dice \
             WHERE game_id = ?1 AND location_id = ?2 ORDER BY position",
        )?;
        for attempt in &mut phase.collateral_attempts {
            attempt.dice = stmt
                .query_map(params![id, attempt.location.to_string()], |r| {
                    let sides: u8 = r.get(2)?;
                    Ok(CollateralDie {
                        character: uuid_at(r, 0)?,
                        aspect: aspect_at(r, 1)?,
                        die: Die::from_sides(sides).ok_or_else(|| bad(2, format!("d{sides} is not an NSU die")))?,
                        roll: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(Some(phase))
    }
}

impl Tx<'_> {
    /// Writes the whole world of game `game`, replacing what was stored.
    pub fn put_nsu_world(&self, game: Uuid, world: &World) -> Result<()> {
        let id = game.to_string();
        let tx = self.conn();
        for sql in [
            "DELETE FROM nsu_party WHERE game_id = ?1",
            "DELETE FROM nsu_paths WHERE game_id = ?1",
            "DELETE FROM nsu_safety WHERE game_id = ?1",
            "DELETE FROM nsu_bans WHERE game_id = ?1",
            "DELETE FROM nsu_settlement WHERE game_id = ?1",
            "DELETE FROM nsu_scope WHERE game_id = ?1",
            "DELETE FROM nsu_resources WHERE game_id = ?1",
            "DELETE FROM nsu_locations WHERE game_id = ?1",
            "DELETE FROM nsu_projects WHERE game_id = ?1",
            "DELETE FROM nsu_npcs WHERE game_id = ?1",
        ] {
            tx.prepare_cached(sql)?.execute([&id])?;
        }

        for (list, entries) in [(SafetyList::Lines, &world.safety.lines), (SafetyList::Veils, &world.safety.veils)] {
            let sql = "INSERT INTO nsu_safety (game_id, position, list, text) VALUES (?1, ?2, ?3, ?4)";
            insert_in_order(tx, sql, &id, entries.iter().map(|text| (safety_text(list), text)))?;
        }
        let sql = "INSERT INTO nsu_bans (game_id, position, player, ban) VALUES (?1, ?2, ?3, ?4)";
        insert_in_order(tx, sql, &id, world.bans.iter().map(|b| (&b.player, &b.ban)))?;
        let sql = "INSERT INTO nsu_settlement (game_id, position, author, text) VALUES (?1, ?2, ?3, ?4)";
        insert_in_order(tx, sql, &id, world.settlement.iter().map(|s| (&s.author, &s.text)))?;
        let sql = "INSERT INTO nsu_scope (game_id, position, question, answer) VALUES (?1, ?2, ?3, ?4)";
        insert_in_order(tx, sql, &id, world.scope.iter().map(|q| (&q.question, &q.answer)))?;
        let sql = "INSERT INTO nsu_resources (game_id, position, name, state) VALUES (?1, ?2, ?3, ?4)";
        insert_in_order(tx, sql, &id, world.resources.iter().flatten().map(|r| (&r.name, resource_text(r.state))))?;

        let mut card = tx.prepare_cached(
            "INSERT INTO nsu_locations (id, game_id, position, name, author, description, collateral_harms, danger, \
             treasure, danger_level, reward_level, collateral, revealed, x, y, author_character) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        )?;
        let mut detail = tx.prepare_cached(
            "INSERT INTO nsu_scene_details (location_id, position, text, world_at_risk) VALUES (?1, ?2, ?3, ?4)",
        )?;
        let mut scout =
            tx.prepare_cached("INSERT INTO nsu_scouts (location_id, character_id, position) VALUES (?1, ?2, ?3)")?;
        for (i, l) in world.locations.iter().enumerate() {
            let lid = l.id.to_string();
            card.execute(params![
                lid,
                id,
                i as i64,
                l.name,
                l.author,
                l.description,
                l.collateral_harms,
                l.danger,
                l.treasure,
                l.danger_level,
                l.reward_level,
                l.collateral,
                l.revealed,
                l.position.map(|p| p.x),
                l.position.map(|p| p.y),
                l.author_character.map(|c| c.to_string()),
            ])?;
            for (j, d) in l.scene_details.iter().enumerate() {
                detail.execute(params![lid, j as i64, d.text, d.world_at_risk])?;
            }
            for (j, c) in l.scouted_by.iter().enumerate() {
                scout.execute(params![lid, c.to_string(), j as i64])?;
            }
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO nsu_projects (id, game_id, position, name, owner_id, size, filled) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (i, p) in world.projects.iter().enumerate() {
            stmt.execute(params![p.id.to_string(), id, i as i64, p.name, p.owner.to_string(), p.size, p.filled])?;
        }
        let mut npc = tx.prepare_cached(
            "INSERT INTO nsu_npcs (id, game_id, position, name, threshold) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut detail = tx
            .prepare_cached("INSERT INTO nsu_npc_details (npc_id, position, text, positive) VALUES (?1, ?2, ?3, ?4)")?;
        let mut harm = tx.prepare_cached("INSERT INTO nsu_npc_harm (npc_id, position, text) VALUES (?1, ?2, ?3)")?;
        for (i, n) in world.npcs.iter().enumerate() {
            let nid = n.id.to_string();
            npc.execute(params![nid, id, i as i64, n.name, n.threshold])?;
            for (j, d) in n.details.iter().enumerate() {
                detail.execute(params![nid, j as i64, d.text, d.positive])?;
            }
            for (j, h) in n.harm.iter().enumerate() {
                harm.execute(params![nid, j as i64, h])?;
            }
        }
        if let Some(at) = world.party_at {
            tx.prepare_cached("INSERT INTO nsu_party (game_id, location_id) VALUES (?1, ?2)")?
                .execute(params![id, at.to_string()])?;
        }
        let sql = "INSERT INTO nsu_paths (game_id, position, a, b) VALUES (?1, ?2, ?3, ?4)";
        insert_in_order(tx, sql, &id, world.paths.iter().map(|p| (p.a.to_string(), p.b.to_string())))
    }

    /// Writes the downtime phase of game `game`, replacing what was stored; None ends it.
    pub fn put_nsu_downtime(&self, game: Uuid, phase: Option<&DowntimePhase>) -> Result<()> {
        let id = game.to_string();
        let tx = self.conn();
        tx.prepare_cached("DELETE FROM nsu_downtime WHERE game_id = ?1")?.execute([&id])?;
        let Some(phase) = phase else { return Ok(()) };
        tx.prepare_cached(
            "INSERT INTO nsu_downtime (game_id, at_home, time_units, just_left, just_left_rolled, \
             extra_complications_left) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            id,
            phase.at_home,
            phase.time_units,
            phase.just_left.map(|l| l.to_string()),
            phase.just_left_rolled,
            phase.extra_complications_left,
        ])?;
        let mut who = tx.prepare_cached(
            "INSERT INTO nsu_downtime_characters (game_id, character_id, actions_left, recovered_harm, \
             upgraded_skills, awaiting, awaiting_aspect, awaiting_roll) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        let mut boxes = tx.prepare_cached(
            "INSERT INTO nsu_downtime_final_boxes (game_id, character_id, position, line, mood) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (character, c) in &phase.characters {
            let cid = character.to_string();
            let (awaiting, aspect, roll) = match c.awaiting {
                None => (None, None, None),
                Some(Awaiting::Introspection { roll }) => (Some("introspection"), None, Some(roll)),
                Some(Awaiting::TrainSkills { aspect, roll }) => {
                    (Some("train_skills"), Some(aspect_text(aspect)), Some(roll))
                }
            };
            who.execute(params![id, cid, c.actions_left, c.recovered_harm, c.upgraded_skills, awaiting, aspect, roll])?;
            for (i, f) in c.final_boxes.iter().enumerate() {
                boxes.execute(params![id, cid, i as i64, f.line as i64, f.mood])?;
            }
        }
        let mut attempt = tx.prepare_cached(
            "INSERT INTO nsu_collateral_attempts (game_id, location_id, position, started_by, votes_for, \
             votes_against) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut die = tx.prepare_cached(
            "INSERT INTO nsu_collateral_dice (game_id, location_id, position, character_id, aspect, die, roll) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (i, a) in phase.collateral_attempts.iter().enumerate() {
            let lid = a.location.to_string();
            attempt.execute(params![id, lid, i as i64, a.started_by.to_string(), a.votes_for, a.votes_against])?;
            for (j, d) in a.dice.iter().enumerate() {
                die.execute(params![
                    id,
                    lid,
                    j as i64,
                    d.character.to_string(),
                    aspect_text(d.aspect),
                    d.die.sides(),
                    d.roll
                ])?;
            }
        }
        Ok(())
    }
}
