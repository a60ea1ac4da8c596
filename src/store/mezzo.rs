//! Mezzo: a character's sheet (its story element) and each game's table (the arc, the
//! players, the other story elements), in real columns (schema v6), read back into the
//! rules' own types.
//!
//! Both are small and written whole: a sheet replaces the character's element row (its
//! traits and awards go with it), a table replaces the game's `mz_tables` row and
//! everything hanging off it.

use rusqlite::types::{Type, ValueRef};
use rusqlite::{params, OptionalExtension, Row};
use serde::de::DeserializeOwned;
use serde::Serialize;
use uuid::Uuid;

use super::queries::{Reader, Tx};
use crate::error::{Error, Result};
use crate::rules::mezzo::element::{Awards, Element, Player, PlotProtection, Properties, Role, Trait};
use crate::rules::mezzo::table::MezzoTable;

#[derive(Debug)]
struct BadValue(String);
impl std::fmt::Display for BadValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BadValue {}

fn bad(col: usize, message: String) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(col, Type::Text, Box::new(BadValue(message)))
}

fn uuid_at(r: &Row<'_>, col: usize) -> rusqlite::Result<Uuid> {
    let text: String = r.get(col)?;
    Uuid::parse_str(&text).map_err(|e| bad(col, e.to_string()))
}

fn opt_uuid_at(r: &Row<'_>, col: usize) -> rusqlite::Result<Option<Uuid>> {
    r.get::<_, Option<String>>(col)?.map(|t| Uuid::parse_str(&t).map_err(|e| bad(col, e.to_string()))).transpose()
}

/// The name serde gives a unit variant (`"edge_slot"`): what the schema's CHECKs list and
/// what files carry, so the database and the file format cannot drift apart.
fn name_of<T: Serialize>(value: T) -> String {
    // Every type stored this way is a unit-variant enum, which serializes as a string;
    // anything else would be written empty, which the schema's CHECKs refuse.
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// Reads back a name written by [`name_of`].
fn named<T: DeserializeOwned>(r: &Row<'_>, col: usize) -> rusqlite::Result<T> {
    let text: String = r.get(col)?;
    serde_json::from_value(serde_json::Value::String(text.clone()))
        .map_err(|_| bad(col, format!("unknown value {text:?}")))
}

fn opt_named<T: DeserializeOwned>(r: &Row<'_>, col: usize) -> rusqlite::Result<Option<T>> {
    match r.get_ref(col)? {
        ValueRef::Null => Ok(None),
        _ => named(r, col).map(Some),
    }
}

fn position(i: usize) -> Result<i64> {
    i64::try_from(i).map_err(|_| Error::invalid("position", "too many rows"))
}

/// Whose element a row is.
#[derive(Clone, Copy)]
enum Owner {
    /// A character's sheet.
    Sheet(Uuid),
    /// One of a table's own elements, at this position.
    Table(Uuid, usize),
}

const ELEMENT_COLUMNS: &str = "key, id, kind, name, adversity, adversity_debt, momentum, momentum_awards, \
    in_challenge, protection_lent_by, protection_sacrificed, claimed_by, first_action_check, first_challenge, \
    first_claim";

/// An element row (without its traits and memorable awards) and its key.
fn element_from_row(r: &Row<'_>) -> rusqlite::Result<(i64, Element)> {
    Ok((
        r.get(0)?,
        Element {
            id: uuid_at(r, 1)?,
            kind: named(r, 2)?,
            name: r.get(3)?,
            traits: Vec::new(),
            adversity: r.get(4)?,
            adversity_debt: r.get(5)?,
            momentum: r.get(6)?,
            momentum_awards: r.get(7)?,
            in_challenge: r.get(8)?,
            plot_protection: PlotProtection { lent_by: opt_uuid_at(r, 9)?, sacrificed: r.get(10)? },
            claimed_by: opt_uuid_at(r, 11)?,
            awards: Awards {
                first_action_check: r.get(12)?,
                first_challenge: r.get(13)?,
                first_claim: r.get(14)?,
                memorable_arcs: Vec::new(),
            },
        },
    ))
}

const TRAIT_COLUMNS: &str = "id, kind, template, name, requirements, restrictions, owner, target, set_up, effects, \
    details, target_trait, granted_by, via, lasts, uses_left";

fn trait_from_row(r: &Row<'_>) -> rusqlite::Result<Trait> {
    Ok(Trait {
        id: uuid_at(r, 0)?,
        kind: named(r, 1)?,
        template: opt_named(r, 2)?,
        name: r.get(3)?,
        properties: Properties {
            requirements: r.get(4)?,
            restrictions: r.get(5)?,
            owner: r.get(6)?,
            target: r.get(7)?,
            set_up: r.get(8)?,
            effects: r.get(9)?,
            details: r.get(10)?,
        },
        target_trait: opt_uuid_at(r, 11)?,
        granted_by: opt_uuid_at(r, 12)?,
        via: named(r, 13)?,
        lasts: named(r, 14)?,
        uses_left: r.get(15)?,
    })
}

impl Reader<'_> {
    /// A character's Mezzo sheet (its story element), or None when it has none.
    pub fn mezzo_sheet(&self, character: Uuid) -> Result<Option<Element>> {
        let found = self
            .conn()
            .prepare_cached(&format!("SELECT {ELEMENT_COLUMNS} FROM mz_elements WHERE character_id = ?1"))?
            .query_row([character.to_string()], element_from_row)
            .optional()?;
        found.map(|(key, element)| self.mezzo_element_parts(key, element)).transpose()
    }

    /// The Mezzo table of game `game`; an empty table when nothing was stored for it yet.
    pub fn mezzo_table(&self, game: Uuid) -> Result<MezzoTable> {
        let id = game.to_string();
        let conn = self.conn();
        let Some(arc) = conn
            .prepare_cached("SELECT arc FROM mz_tables WHERE game_id = ?1")?
            .query_row([&id], |r| r.get::<_, u32>(0))
            .optional()?
        else {
            return Ok(MezzoTable::default());
        };
        let mut stmt = conn.prepare_cached(
            "SELECT id, name, influence, free_award_arc FROM mz_players WHERE game_id = ?1 ORDER BY position",
        )?;
        let mut players = stmt
            .query_map([&id], |r| {
                Ok(Player {
                    id: uuid_at(r, 0)?,
                    name: r.get(1)?,
                    influence: r.get(2)?,
                    roles: Vec::new(),
                    claimed: Vec::new(),
                    free_award_arc: r.get(3)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut roles = conn.prepare_cached(
            "SELECT role FROM mz_player_roles WHERE game_id = ?1 AND player_id = ?2 ORDER BY position",
        )?;
        let mut claims = conn.prepare_cached(
            "SELECT character_id FROM mz_claims WHERE game_id = ?1 AND player_id = ?2 ORDER BY position",
        )?;
        for p in &mut players {
            let player = p.id.to_string();
            p.roles = roles.query_map([&id, &player], |r| named::<Role>(r, 0))?.collect::<rusqlite::Result<_>>()?;
            p.claimed = claims.query_map([&id, &player], |r| uuid_at(r, 0))?.collect::<rusqlite::Result<_>>()?;
        }
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {ELEMENT_COLUMNS} FROM mz_elements WHERE game_id = ?1 ORDER BY position"
        ))?;
        let rows = stmt.query_map([&id], element_from_row)?.collect::<rusqlite::Result<Vec<_>>>()?;
        let elements =
            rows.into_iter().map(|(key, element)| self.mezzo_element_parts(key, element)).collect::<Result<_>>()?;
        // Built from the default, so parts of the table stored elsewhere keep their defaults.
        let mut table = MezzoTable::default();
        (table.arc, table.players, table.elements) = (arc, players, elements);
        Ok(table)
    }

    /// Fills in an element's traits and memorable awards.
    fn mezzo_element_parts(&self, key: i64, mut element: Element) -> Result<Element> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {TRAIT_COLUMNS} FROM mz_traits WHERE element_key = ?1 ORDER BY position"
        ))?;
        element.traits = stmt.query_map([key], trait_from_row)?.collect::<rusqlite::Result<_>>()?;
        let mut stmt =
            conn.prepare_cached("SELECT arc FROM mz_memorable_awards WHERE element_key = ?1 ORDER BY arc")?;
        element.awards.memorable_arcs = stmt.query_map([key], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        Ok(element)
    }
}

impl Tx<'_> {
    /// Writes a character's Mezzo sheet, replacing what it had.
    pub fn put_mezzo_sheet(&self, character: Uuid, element: &Element) -> Result<()> {
        self.delete_mezzo_sheet(character)?;
        self.insert_mezzo_element(Owner::Sheet(character), element)
    }

    /// Removes a character's Mezzo sheet (its traits and awards go with it).
    pub fn delete_mezzo_sheet(&self, character: Uuid) -> Result<()> {
        self.conn()
            .prepare_cached("DELETE FROM mz_elements WHERE character_id = ?1")?
            .execute([character.to_string()])?;
        Ok(())
    }

    /// Writes a game's Mezzo table whole: the arc, the players with their roles and claims,
    /// and the table's own elements.
    pub fn put_mezzo_table(&self, game: Uuid, table: &MezzoTable) -> Result<()> {
        let id = game.to_string();
        let tx = self.conn();
        // Everything of the table hangs off this row: deleting it clears the rest.
        tx.prepare_cached("DELETE FROM mz_tables WHERE game_id = ?1")?.execute([&id])?;
        tx.prepare_cached("INSERT INTO mz_tables (game_id, arc) VALUES (?1, ?2)")?.execute(params![id, table.arc])?;
        let mut player = tx.prepare_cached(
            "INSERT INTO mz_players (game_id, id, position, name, influence, free_award_arc) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut role = tx.prepare_cached(
            "INSERT INTO mz_player_roles (game_id, player_id, position, role) VALUES (?1, ?2, ?3, ?4)",
        )?;
        let mut claim = tx.prepare_cached(
            "INSERT INTO mz_claims (game_id, player_id, position, character_id) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, p) in table.players.iter().enumerate() {
            let player_id = p.id.to_string();
            player.execute(params![id, player_id, position(i)?, p.name, p.influence, p.free_award_arc])?;
            for (j, r) in p.roles.iter().enumerate() {
                role.execute(params![id, player_id, position(j)?, name_of(r)])?;
            }
            for (j, c) in p.claimed.iter().enumerate() {
                claim.execute(params![id, player_id, position(j)?, c.to_string()])?;
            }
        }
        for (i, element) in table.elements.iter().enumerate() {
            self.insert_mezzo_element(Owner::Table(game, i), element)?;
        }
        Ok(())
    }

    fn insert_mezzo_element(&self, owner: Owner, e: &Element) -> Result<()> {
        let tx = self.conn();
        let (character, game, at) = match owner {
            Owner::Sheet(c) => (Some(c.to_string()), None, None),
            Owner::Table(g, i) => (None, Some(g.to_string()), Some(position(i)?)),
        };
        tx.prepare_cached(
            "INSERT INTO mz_elements (character_id, game_id, position, id, kind, name, adversity, adversity_debt, \
             momentum, momentum_awards, in_challenge, protection_lent_by, protection_sacrificed, claimed_by, \
             first_action_check, first_challenge, first_claim) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        )?
        .execute(params![
            character,
            game,
            at,
            e.id.to_string(),
            name_of(e.kind),
            e.name,
            e.adversity,
            e.adversity_debt,
            e.momentum,
            e.momentum_awards,
            e.in_challenge,
            e.plot_protection.lent_by.map(|u| u.to_string()),
            e.plot_protection.sacrificed,
            e.claimed_by.map(|u| u.to_string()),
            e.awards.first_action_check,
            e.awards.first_challenge,
            e.awards.first_claim,
        ])?;
        let key = tx.last_insert_rowid();
        let mut award = tx.prepare_cached("INSERT INTO mz_memorable_awards (element_key, arc) VALUES (?1, ?2)")?;
        for arc in &e.awards.memorable_arcs {
            award.execute(params![key, arc])?;
        }
        let mut insert = tx.prepare_cached(&format!(
            "INSERT INTO mz_traits (element_key, position, {TRAIT_COLUMNS}) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
        ))?;
        for (i, t) in e.traits.iter().enumerate() {
            let p = &t.properties;
            insert.execute(params![
                key,
                position(i)?,
                t.id.to_string(),
                name_of(t.kind),
                t.template.map(name_of),
                t.name,
                p.requirements,
                p.restrictions,
                p.owner,
                p.target,
                p.set_up,
                p.effects,
                p.details,
                t.target_trait.map(|u| u.to_string()),
                t.granted_by.map(|u| u.to_string()),
                name_of(t.via),
                name_of(t.lasts),
                t.uses_left,
            ])?;
        }
        Ok(())
    }
}

impl Reader<'_> {
    /// What is wrong with the Mezzo games' elements and sheets (`sheetkeeper check`): each
    /// element's own invariants, read back through the rules.
    pub(super) fn mezzo_check(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let games = self
            .conn()
            .prepare("SELECT id, name FROM games WHERE system = 'mezzo' ORDER BY name, id")?
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (id, name) in games {
            let said = |problem: String| format!("Mezzo game “{name}” ({id}): {problem}");
            let Ok(game) = Uuid::parse_str(&id) else {
                out.push(said("the game's id is not an id".into()));
                continue;
            };
            match self.mezzo_table(game) {
                Ok(table) => {
                    for (i, e) in table.elements.iter().enumerate() {
                        out.extend(e.problems().into_iter().map(|p| said(format!("elements[{i}]: {p}"))));
                    }
                }
                Err(e) => out.push(said(format!("the table cannot be read: {e}"))),
            }
            for c in self.characters_of(game)? {
                match self.mezzo_sheet(c.id) {
                    Ok(Some(sheet)) => {
                        out.extend(sheet.problems().into_iter().map(|p| said(format!("“{}”: {p}", c.name))));
                    }
                    Ok(None) => out.push(said(format!("“{}” has no sheet", c.name))),
                    Err(e) => out.push(said(format!("the sheet of “{}” cannot be read: {e}", c.name))),
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::*;
    use crate::rules::mezzo::element::{ElementKind, Lasts, Template, TraitKind, Via};
    use crate::store::Store;

    /// Every variant of the stored enums, each with the name serde gives it; the schema's
    /// CHECK lists must accept exactly these.
    fn templates() -> Vec<Template> {
        use Template::*;
        vec![
            Ability,
            Asset,
            Attractant,
            Background,
            EmpoweringGift,
            Repellent,
            Resistance,
            SignatureFlaw,
            FavoredFlaw,
            PlotProtection,
            Trump,
            DulledEdge,
            ImpairedAbility,
            Vulnerability,
            Restraint,
            OneShot,
            TransientFlaw,
            Wound,
            TreacherousEdge,
            PhantomEdge,
            Aptitude,
            CrossTraining,
            ExtraordinaryAbility,
            Focused,
            Forte,
            Specialty,
            Versatile,
            Fortified,
            AssetInvestment,
            EmpowerSelf,
            LingeringGift,
            SharedGift,
            EmpoweringFlaw,
            CorrosiveWound,
            TargetedWound,
            PervasiveWound,
            ViciousWound,
        ]
    }

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    #[test]
    fn the_schema_accepts_every_template_with_its_kind_and_refuses_a_kind_that_is_not_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let game = id(1);
        let mut element = Element::new(id(2), ElementKind::Goal, "Reach the cove").unwrap();
        for (i, template) in templates().into_iter().enumerate() {
            // A granted trait of each template, attached to the first so extras and
            // modifiers have a target (the store checks columns, not the rules).
            let mut t = Trait::from_template(id(100 + i as u128), template, template.word(), Via::Granted);
            if i > 0 {
                t.target_trait = Some(id(100));
            }
            element.traits.push(t);
        }
        let mut table = MezzoTable::default();
        table.elements.push(element);
        let at = crate::model::now();
        let g = crate::model::Game {
            id: game,
            name: "Cove".into(),
            system: crate::model::System::Mezzo,
            table_settings: Default::default(),
            created_at: at,
            updated_at: at,
        };
        store.write(|tx| tx.insert_game(&g)).unwrap();
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        assert_eq!(store.read().mezzo_table(game).unwrap(), table);

        for (kind, template) in [(TraitKind::Flaw, Template::Ability), (TraitKind::Edge, Template::Aptitude)] {
            let mut wrong = table.clone();
            wrong.elements[0].traits[0].kind = kind;
            wrong.elements[0].traits[0].template = Some(template);
            let err = store.write(|tx| tx.put_mezzo_table(game, &wrong)).unwrap_err();
            assert!(err.to_string().contains("CHECK constraint failed"), "{err}");
        }
        // A trait in a slot lasts until lost.
        let mut wrong = table.clone();
        wrong.elements[0].traits[0].via = Via::EdgeSlot;
        wrong.elements[0].traits[0].lasts = Lasts::Arc;
        assert!(store.write(|tx| tx.put_mezzo_table(game, &wrong)).is_err());
        // A target that is not a trait of the element.
        let mut wrong = table.clone();
        wrong.elements[0].traits[1].target_trait = Some(id(999));
        let err = store.write(|tx| tx.put_mezzo_table(game, &wrong)).unwrap_err();
        assert!(err.to_string().contains("FOREIGN KEY constraint failed"), "{err}");
        assert_eq!(store.read().mezzo_table(game).unwrap(), table, "a refused write changes nothing");
    }

    #[test]
    fn a_version_5_database_is_backed_up_then_migrated_giving_each_mezzo_character_a_sheet() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v5.db");
        let game = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";
        let mira = "6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0";
        {
            let mut conn = Connection::open(&path).unwrap();
            super::super::schema::MIGRATIONS.to_version(&mut conn, 5).unwrap();
            conn.execute(
                "INSERT INTO games VALUES (?1, 'Cove', 'mezzo', '2026-01-01T00:00:00.000Z', \
                 '2026-01-01T00:00:00.000Z')",
                [game],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO characters VALUES (?1, ?2, 'mezzo', 'Mira', '2026-01-01T00:00:00.000Z', \
                 '2026-01-01T00:00:00.000Z', 3)",
                [mira, game],
            )
            .unwrap();
        }
        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.check().unwrap().schema_version, 6);
        assert!(store.check().unwrap().ok);
        let backup = Connection::open(dir.path().join("v5.db.v5.backup")).unwrap();
        let version: i64 = backup.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version, 5, "the backup is the database as it was");

        // The character got its element; the game an empty table until something is written.
        let (game, mira) = (Uuid::parse_str(game).unwrap(), Uuid::parse_str(mira).unwrap());
        let sheet = store.read().mezzo_sheet(mira).unwrap();
        assert_eq!(sheet, Some(Element::new(mira, ElementKind::Character, "Mira").unwrap()));
        assert_eq!(store.read().mezzo_table(game).unwrap(), MezzoTable::default());
        let ada = Player::new(id(7), "Ada").unwrap();
        let mut table = MezzoTable::default();
        (table.arc, table.players) = (1, vec![ada]);
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        assert_eq!(store.read().mezzo_table(game).unwrap(), table);
        assert_eq!(store.read().characters().unwrap()[0].revision, 3, "the character is kept as it was");
    }

    #[test]
    fn only_mezzo_games_and_characters_hold_mezzo_rows() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let at = crate::model::now();
        let g = crate::model::Game {
            id: id(1),
            name: "Valley".into(),
            system: crate::model::System::Nsu,
            table_settings: Default::default(),
            created_at: at,
            updated_at: at,
        };
        store.write(|tx| tx.insert_game(&g)).unwrap();
        let err = store.write(|tx| tx.put_mezzo_table(id(1), &MezzoTable::default())).unwrap_err();
        assert!(err.to_string().contains("only a Mezzo game has a Mezzo table"), "{err}");
    }
}
