//! Mezzo: a character's sheet (its story element) and each game's table (the arc, the
//! players, the other story elements — schema v6 —; the plot hooks, the Turning Point,
//! No Escape targets, the seed deck and the keyword die — v7; the challenge — v8), in real
//! columns, read back into the rules' own types.
//!
//! Both are small and written whole: a sheet replaces the character's element row (its
//! traits and awards go with it), a table replaces the game's `mz_tables` row and
//! everything hanging off it.

use rusqlite::{params, OptionalExtension, Row};
use uuid::Uuid;

use super::columns::{bad, index_at, name_of, named, opt_named, opt_uuid_at, position, uuid_at};
use super::queries::{games_to_check, select_all, Reader, Tx};
use crate::error::{Error, Result};
use crate::model::System;
use crate::rules::mezzo::ballot::Sources;
use crate::rules::mezzo::challenge::{
    ActionResult, Boost, BoostOwner, Challenge, Challenger, Closed, Departure, Gained, Goal, MajorAction, PerkUse,
    Pushed, Side, StakePool, Status,
};
use crate::rules::mezzo::conflict::Variant;
use crate::rules::mezzo::element::{Awards, Element, Player, PlotProtection, Properties, Role, Trait};
use crate::rules::mezzo::plot::{Consequence, CustomLaw, Fact, Investment, NoEscape, PlotHook, Theme, TurningPoint};
use crate::rules::mezzo::seed_deck::{ActiveCard, Card, Holding, KeywordDie, Link, SeedDeck};
use crate::rules::mezzo::table::MezzoTable;
use crate::rules::mezzo::vote::VictoryVotes;

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
            carried: Vec::new(),
        },
    ))
}

const TRAIT_COLUMNS: &str = "id, kind, template, name, requirements, restrictions, owner, target, set_up, effects, \
    details, target_trait, granted_by, via, lasts, uses_left, favored_used";

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
        favored_used: r.get(16)?,
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
        let Some((arc, variant, scene_open)) = conn
            .prepare_cached("SELECT arc, dice_variant, scene_open FROM mz_tables WHERE game_id = ?1")?
            .query_row([&id], |r| Ok((r.get::<_, u32>(0)?, named::<Variant>(r, 1)?, r.get::<_, bool>(2)?)))
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
        let rows = select_all(
            conn,
            &format!("SELECT {ELEMENT_COLUMNS} FROM mz_elements WHERE game_id = ?1 ORDER BY position"),
            [&id],
            element_from_row,
        )?;
        let elements =
            rows.into_iter().map(|(key, element)| self.mezzo_element_parts(key, element)).collect::<Result<_>>()?;
        // Built from the default, so parts of the table stored elsewhere keep their defaults.
        let mut table = MezzoTable::default();
        (table.plot.number, table.players, table.elements) = (arc, players, elements);
        table.variant = variant;
        table.scene.open = scene_open;
        table.scene.active = select_all(
            conn,
            "SELECT element_id FROM mz_scene_active WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| uuid_at(r, 0),
        )?;
        table.plot.hooks = self.mezzo_hooks(&id)?;
        table.plot.turning_point = self.mezzo_turning_point(&id)?;
        table.plot.no_escape = select_all(
            conn,
            "SELECT challenge_id, by_id, target_id, used FROM mz_no_escape WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(NoEscape { challenge: uuid_at(r, 0)?, by: uuid_at(r, 1)?, target: uuid_at(r, 2)?, used: r.get(3)? }),
        )?;
        table.deck = self.mezzo_deck(&id)?;
        table.keyword_die = self.mezzo_keyword_die(&id)?;
        table.challenge = self.mezzo_challenge(&id)?;
        self.mezzo_votes_parts(&id, &mut table)?;
        table.open_conflict = conn
            .prepare_cached("SELECT conflict FROM mz_open_conflicts WHERE game_id = ?1")?
            .query_row([&id], |r| r.get::<_, String>(0))
            .optional()?
            .map(|text| {
                serde_json::from_str(&text)
                    .map_err(|e| Error::invalid("open_conflict", format!("the open conflict cannot be read: {e}")))
            })
            .transpose()?;
        table.open_check = conn
            .prepare_cached("SELECT check_json FROM mz_open_checks WHERE game_id = ?1")?
            .query_row([&id], |r| r.get::<_, String>(0))
            .optional()?
            .map(|text| {
                serde_json::from_str(&text)
                    .map_err(|e| Error::invalid("open_check", format!("the open action check cannot be read: {e}")))
            })
            .transpose()?;
        Ok(table)
    }

    /// The table's own Setting Laws, its facts register and its unspent narration votes.
    fn mezzo_votes_parts(&self, game: &str, table: &mut MezzoTable) -> Result<()> {
        let conn = self.conn();
        table.laws = select_all(
            conn,
            "SELECT id, name, effect FROM mz_laws WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(CustomLaw { id: uuid_at(r, 0)?, name: r.get(1)?, effect: r.get(2)? }),
        )?;
        table.facts =
            select_all(conn, "SELECT id, arc, text FROM mz_facts WHERE game_id = ?1 ORDER BY position", [game], |r| {
                Ok(Fact { id: uuid_at(r, 0)?, arc: r.get(1)?, text: r.get(2)? })
            })?;
        table.plot.consequences = select_all(
            conn,
            "SELECT id, arc, text, contagious FROM mz_consequences WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(Consequence { id: uuid_at(r, 0)?, arc: r.get(1)?, text: r.get(2)?, contagious: r.get(3)? }),
        )?;
        table.victory_votes = select_all(
            conn,
            "SELECT element_id, challenge_id, votes FROM mz_victory_votes WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(VictoryVotes { element: uuid_at(r, 0)?, challenge: uuid_at(r, 1)?, votes: r.get(2)? }),
        )?;
        Ok(())
    }

    /// A table's open plot hooks, oldest first, with their elements and stored points.
    fn mezzo_hooks(&self, game: &str) -> Result<Vec<PlotHook>> {
        let conn = self.conn();
        let mut hooks = select_all(
            conn,
            "SELECT id, text, creator FROM mz_hooks WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| {
                Ok(PlotHook {
                    id: uuid_at(r, 0)?,
                    text: r.get(1)?,
                    creator: uuid_at(r, 2)?,
                    elements: Vec::new(),
                    stored: Vec::new(),
                })
            },
        )?;
        let mut elements = conn.prepare_cached(
            "SELECT element_id FROM mz_hook_elements WHERE game_id = ?1 AND hook_id = ?2 ORDER BY position",
        )?;
        let mut points = conn.prepare_cached(
            "SELECT investor, resource, points FROM mz_hook_points WHERE game_id = ?1 AND hook_id = ?2 \
             ORDER BY position",
        )?;
        for h in &mut hooks {
            let hook = h.id.to_string();
            h.elements = elements.query_map([game, &hook], |r| uuid_at(r, 0))?.collect::<rusqlite::Result<_>>()?;
            h.stored = points
                .query_map([game, &hook], |r| {
                    Ok(Investment { by: uuid_at(r, 0)?, resource: named(r, 1)?, points: r.get(2)? })
                })?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(hooks)
    }

    /// The arc's Turning Point, if it was reached.
    fn mezzo_turning_point(&self, game: &str) -> Result<Option<TurningPoint>> {
        let conn = self.conn();
        let Some(challenge) = conn
            .prepare_cached("SELECT challenge_id FROM mz_turning_points WHERE game_id = ?1")?
            .query_row([game], |r| uuid_at(r, 0))
            .optional()?
        else {
            return Ok(None);
        };
        let ids = |sql: &str| -> Result<Vec<Uuid>> { select_all(conn, sql, [game], |r| uuid_at(r, 0)) };
        let challengers =
            ids("SELECT element_id FROM mz_turning_point_challengers WHERE game_id = ?1 ORDER BY position")?;
        let hooks = ids("SELECT hook_id FROM mz_turning_point_hooks WHERE game_id = ?1 ORDER BY position")?;
        let themes =
            select_all(conn, "SELECT by_id, text FROM mz_themes WHERE game_id = ?1 ORDER BY position", [game], |r| {
                Ok(Theme { by: uuid_at(r, 0)?, text: r.get(1)? })
            })?;
        Ok(Some(TurningPoint { challenge, challengers, hooks, themes }))
    }

    /// A table's seed deck, if it built one: every card where it lies, in order.
    fn mezzo_deck(&self, game: &str) -> Result<Option<SeedDeck>> {
        let conn = self.conn();
        let Some(initial_draw) = conn
            .prepare_cached("SELECT initial_draw FROM mz_decks WHERE game_id = ?1")?
            .query_row([game], |r| r.get(0))
            .optional()?
        else {
            return Ok(None);
        };
        let mut deck = SeedDeck { initial_draw, ..SeedDeck::default() };
        let players = select_all(
            conn,
            "SELECT player_id, refresh FROM mz_deck_players WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok((uuid_at(r, 0)?, r.get::<_, Option<i64>>(1)?)),
        )?;
        let mut refresh: Vec<(i64, Uuid)> = players.iter().filter_map(|(p, at)| at.map(|at| (at, *p))).collect();
        refresh.sort_unstable();
        deck.refresh = refresh.into_iter().map(|(_, p)| p).collect();
        deck.players = players
            .into_iter()
            .map(|(player, _)| Holding { player, hand: Vec::new(), active: Vec::new(), depleted: Vec::new() })
            .collect();
        let cards = select_all(
            conn,
            "SELECT id, text, place, player_id, linked FROM mz_cards WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| {
                let card = Card { id: uuid_at(r, 0)?, text: r.get(1)? };
                Ok((card, r.get::<_, String>(2)?, opt_uuid_at(r, 3)?, r.get::<_, bool>(4)?))
            },
        )?;
        for (card, place, player, linked) in cards {
            let holding = match player {
                Some(p) => deck.players.iter().position(|h| h.player == p),
                None => None,
            };
            match (place.as_str(), holding) {
                ("draw_pile", _) => deck.draw_pile.push(card),
                ("discard", _) => deck.discard.push(card),
                ("inspiration", _) => deck.inspiration = Some(card),
                ("shown", _) => deck.shown = Some(card),
                ("hand", Some(h)) => deck.players[h].hand.push(card),
                ("active", Some(h)) => deck.players[h].active.push(ActiveCard { card, linked }),
                ("depleted", Some(h)) => deck.players[h].depleted.push(card),
                _ => return Err(Error::invalid("deck", format!("card {} lies nowhere a card can be", card.id))),
            }
        }
        deck.links = select_all(
            conn,
            "SELECT by_id, card_id, to_id FROM mz_card_links WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(Link { by: uuid_at(r, 0)?, card: uuid_at(r, 1)?, to: uuid_at(r, 2)? }),
        )?;
        Ok(Some(deck))
    }

    /// The keyword die the table chose, if any.
    fn mezzo_keyword_die(&self, game: &str) -> Result<Option<KeywordDie>> {
        let conn = self.conn();
        let Some(sides) = conn
            .prepare_cached("SELECT sides FROM mz_keyword_dice WHERE game_id = ?1")?
            .query_row([game], |r| r.get::<_, u8>(0))
            .optional()?
        else {
            return Ok(None);
        };
        let keywords: Vec<String> =
            select_all(conn, "SELECT keyword FROM mz_keyword_faces WHERE game_id = ?1 ORDER BY face", [game], |r| {
                r.get(0)
            })?;
        KeywordDie::new(sides, &keywords).map(Some)
    }

    /// The table's challenge, if one was started: every row of it, in order.
    fn mezzo_challenge(&self, game: &str) -> Result<Option<Challenge>> {
        let conn = self.conn();
        let Some(mut ch) = conn
            .prepare_cached("SELECT id, description, round, over FROM mz_challenges WHERE game_id = ?1")?
            .query_row([game], |r| {
                Ok(Challenge {
                    round: r.get(2)?,
                    over: r.get(3)?,
                    // Its sides, goals, actions and the rest are read from their own rows below.
                    ..Challenge::new(uuid_at(r, 0)?, r.get(1)?)
                })
            })
            .optional()?
        else {
            return Ok(None);
        };
        ch.sides = select_all(
            conn,
            "SELECT name FROM mz_challenge_sides WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(Side { name: r.get(0)? }),
        )?;
        // Challengers, with their places in the ordered lists kept as columns.
        let mut acted = Vec::new();
        let mut may_surrender = Vec::new();
        let mut leaving = Vec::new();
        let rows = select_all(
            conn,
            "SELECT element_id, kind, side, stake, status, leave, why, boosts_triggered, acted, may_surrender, \
                 leaving FROM mz_challengers WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| {
                let element = uuid_at(r, 0)?;
                let status = match (r.get::<_, String>(4)?.as_str(), opt_named(r, 5)?, opt_named(r, 6)?) {
                    ("in", None, None) => Status::In,
                    ("leaving", Some(how), Some(why)) => Status::Leaving { how, why },
                    ("left", Some(how), Some(why)) => Status::Left { how, why },
                    (other, _, _) => return Err(bad(4, format!("unknown status {other:?}"))),
                };
                let places: [Option<i64>; 3] = [r.get(8)?, r.get(9)?, r.get(10)?];
                let c = Challenger {
                    element,
                    kind: named(r, 1)?,
                    side: index_at(r, 2)?,
                    stake: r.get(3)?,
                    status,
                    boosts_triggered: r.get(7)?,
                };
                Ok((c, places))
            },
        )?;
        for (c, [a, m, l]) in rows {
            for (place, list) in [(a, &mut acted), (m, &mut may_surrender), (l, &mut leaving)] {
                if let Some(at) = place {
                    list.push((at, c.element));
                }
            }
            ch.challengers.push(c);
        }
        let in_order = |mut list: Vec<(i64, Uuid)>| -> Vec<Uuid> {
            list.sort_unstable();
            list.into_iter().map(|(_, id)| id).collect()
        };
        ch.acted = in_order(acted);
        ch.may_surrender = in_order(may_surrender);
        let leavers = in_order(leaving);
        ch.goals = select_all(
            conn,
            "SELECT element_id, side, triggered FROM mz_challenge_goals WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| {
                Ok(Goal {
                    element: uuid_at(r, 0)?,
                    side: index_at(r, 1)?,
                    supporters: Vec::new(),
                    triggered: r.get(2)?,
                })
            },
        )?;
        let mut supporters = conn.prepare_cached(
            "SELECT element_id FROM mz_challenge_supporters WHERE game_id = ?1 AND goal_id = ?2 ORDER BY position",
        )?;
        for g in &mut ch.goals {
            g.supporters = supporters
                .query_map([game, &g.element.to_string()], |r| uuid_at(r, 0))?
                .collect::<rusqlite::Result<_>>()?;
        }
        let mut open = Vec::new();
        let actions = select_all(
            conn,
            "SELECT position, round, challenger, check_id, score, opposing, result, major_perks, minor_perks, \
                 traded, closed, countered_by, open_at FROM mz_challenge_actions WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| {
                let closed = match (r.get::<_, Option<String>>(10)?.as_deref(), opt_uuid_at(r, 11)?) {
                    (None, None) => None,
                    (Some("settled"), None) => Some(Closed::Settled),
                    (Some("countered"), Some(by)) => Some(Closed::Countered { by }),
                    (Some("lapsed"), None) => Some(Closed::Lapsed),
                    (other, _) => return Err(bad(10, format!("unknown closing {other:?}"))),
                };
                let action = MajorAction {
                    round: r.get(1)?,
                    challenger: uuid_at(r, 2)?,
                    check: opt_uuid_at(r, 3)?,
                    score: r.get(4)?,
                    opposing: r.get(5)?,
                    result: named::<ActionResult>(r, 6)?,
                    major_perks: r.get(7)?,
                    minor_perks: r.get(8)?,
                    traded: r.get(9)?,
                    declared: Vec::new(),
                    closed,
                };
                Ok((r.get::<_, i64>(0)?, action, r.get::<_, Option<i64>>(12)?))
            },
        )?;
        let mut perks = conn.prepare_cached(
            "SELECT perk FROM mz_challenge_perks WHERE game_id = ?1 AND action = ?2 ORDER BY position",
        )?;
        for (at, mut action, open_at) in actions {
            let texts = perks.query_map(params![game, at], |r| r.get::<_, String>(0))?;
            for text in texts {
                let perk: PerkUse = serde_json::from_str(&text?)
                    .map_err(|e| Error::invalid("challenge", format!("a declared perk cannot be read: {e}")))?;
                action.declared.push(perk);
            }
            if let Some(place) = open_at {
                open.push((place, ch.actions.len()));
            }
            ch.actions.push(action);
        }
        open.sort_unstable();
        ch.open = open.into_iter().map(|(_, a)| a).collect();
        ch.gained = select_all(
            conn,
            "SELECT element_id, flaw_id FROM mz_challenge_gained WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(Gained { element: uuid_at(r, 0)?, flaw: uuid_at(r, 1)? }),
        )?;
        ch.stake_pools = select_all(
            conn,
            "SELECT stake, momentum FROM mz_challenge_stake_pools WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(StakePool { stake: r.get(0)?, momentum: r.get(1)? }),
        )?;
        ch.counterable = select_all(
            conn,
            "SELECT goal_id, trump_id FROM mz_challenge_counterable WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(Pushed { goal: uuid_at(r, 0)?, trump: uuid_at(r, 1)? }),
        )?;
        // A departure is being resolved while challengers are leaving; its boosts wait with it.
        if !leavers.is_empty() {
            let mut boosts = select_all(
                conn,
                "SELECT position, owner, element_id, trump_id, awards, draw_pending FROM mz_challenge_boosts \
                     WHERE game_id = ?1 ORDER BY position",
                [game],
                |r| {
                    let owner = match (r.get::<_, String>(1)?.as_str(), opt_uuid_at(r, 3)?) {
                        ("challenger", None) => BoostOwner::Challenger { element: uuid_at(r, 2)? },
                        ("trump", Some(trump)) => BoostOwner::Trump { goal: uuid_at(r, 2)?, trump },
                        (other, _) => return Err(bad(1, format!("unknown boost owner {other:?}"))),
                    };
                    let boost = Boost { owner, targets: Vec::new(), awards: r.get(4)?, draw_pending: r.get(5)? };
                    Ok((r.get::<_, i64>(0)?, boost))
                },
            )?;
            let mut targets = conn.prepare_cached(
                "SELECT element_id FROM mz_challenge_boost_targets WHERE game_id = ?1 AND boost = ?2 \
                 ORDER BY position",
            )?;
            for (at, b) in &mut boosts {
                b.targets =
                    targets.query_map(params![game, *at], |r| uuid_at(r, 0))?.collect::<rusqlite::Result<_>>()?;
            }
            ch.departure = Some(Departure { leavers, boosts: boosts.into_iter().map(|(_, b)| b).collect() });
        }
        Ok(Some(ch))
    }

    /// Fills in an element's traits and memorable awards.
    fn mezzo_element_parts(&self, key: i64, mut element: Element) -> Result<Element> {
        let conn = self.conn();
        element.traits = select_all(
            conn,
            &format!("SELECT {TRAIT_COLUMNS} FROM mz_traits WHERE element_key = ?1 ORDER BY position"),
            [key],
            trait_from_row,
        )?;
        element.awards.memorable_arcs =
            select_all(conn, "SELECT arc FROM mz_memorable_awards WHERE element_key = ?1 ORDER BY arc", [key], |r| {
                r.get(0)
            })?;
        element.carried = select_all(
            conn,
            "SELECT flaw FROM mz_carried_flaws WHERE element_key = ?1 ORDER BY position",
            [key],
            |r| uuid_at(r, 0),
        )?;
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
        tx.prepare_cached("INSERT INTO mz_tables (game_id, arc, dice_variant, scene_open) VALUES (?1, ?2, ?3, ?4)")?
            .execute(params![id, table.arc(), name_of(table.variant), table.scene.open])?;
        let mut active =
            tx.prepare_cached("INSERT INTO mz_scene_active (game_id, position, element_id) VALUES (?1, ?2, ?3)")?;
        for (i, e) in table.scene.active.iter().enumerate() {
            active.execute(params![id, position(i)?, e.to_string()])?;
        }
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
        self.insert_mezzo_plot(&id, table)?;
        self.insert_mezzo_votes_parts(&id, table)?;
        if let Some(open) = &table.open_conflict {
            let text = serde_json::to_string(open)
                .map_err(|e| Error::invalid("open_conflict", format!("cannot be written: {e}")))?;
            tx.prepare_cached("INSERT INTO mz_open_conflicts (game_id, conflict) VALUES (?1, ?2)")?
                .execute(params![id, text])?;
        }
        if let Some(open) = &table.open_check {
            let text = serde_json::to_string(open)
                .map_err(|e| Error::invalid("open_check", format!("cannot be written: {e}")))?;
            tx.prepare_cached("INSERT INTO mz_open_checks (game_id, check_json) VALUES (?1, ?2)")?
                .execute(params![id, text])?;
        }
        if let Some(deck) = &table.deck {
            self.insert_mezzo_deck(&id, deck)?;
        }
        if let Some(challenge) = &table.challenge {
            self.insert_mezzo_challenge(&id, challenge)?;
        }
        if let Some(die) = &table.keyword_die {
            tx.prepare_cached("INSERT INTO mz_keyword_dice (game_id, sides) VALUES (?1, ?2)")?
                .execute(params![id, die.sides])?;
            let mut face = tx.prepare_cached(
                "INSERT INTO mz_keyword_faces (game_id, sides, face, keyword) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (i, keyword) in die.keywords.iter().enumerate() {
                face.execute(params![id, die.sides, position(i + 1)?, keyword])?;
            }
        }
        Ok(())
    }

    /// The table's own Setting Laws, its facts register and its unspent narration votes.
    fn insert_mezzo_votes_parts(&self, game: &str, table: &MezzoTable) -> Result<()> {
        let tx = self.conn();
        let mut law =
            tx.prepare_cached("INSERT INTO mz_laws (game_id, position, id, name, effect) VALUES (?1, ?2, ?3, ?4, ?5)")?;
        for (i, l) in table.laws.iter().enumerate() {
            law.execute(params![game, position(i)?, l.id.to_string(), l.name, l.effect])?;
        }
        let mut fact =
            tx.prepare_cached("INSERT INTO mz_facts (game_id, position, id, arc, text) VALUES (?1, ?2, ?3, ?4, ?5)")?;
        for (i, f) in table.facts.iter().enumerate() {
            fact.execute(params![game, position(i)?, f.id.to_string(), f.arc, f.text])?;
        }
        let mut consequence = tx.prepare_cached(
            "INSERT INTO mz_consequences (game_id, position, id, arc, text, contagious) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (i, c) in table.plot.consequences.iter().enumerate() {
            consequence.execute(params![game, position(i)?, c.id.to_string(), c.arc, c.text, c.contagious])?;
        }
        let mut votes = tx.prepare_cached(
            "INSERT INTO mz_victory_votes (game_id, position, element_id, challenge_id, votes) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, v) in table.victory_votes.iter().enumerate() {
            votes.execute(params![game, position(i)?, v.element.to_string(), v.challenge.to_string(), v.votes])?;
        }
        Ok(())
    }

    /// The arc's hooks with their points, its Turning Point and its No Escape targets.
    fn insert_mezzo_plot(&self, game: &str, table: &MezzoTable) -> Result<()> {
        let tx = self.conn();
        let mut hook = tx.prepare_cached(
            "INSERT INTO mz_hooks (game_id, id, position, text, creator) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut element = tx.prepare_cached(
            "INSERT INTO mz_hook_elements (game_id, hook_id, position, element_id) VALUES (?1, ?2, ?3, ?4)",
        )?;
        let mut points = tx.prepare_cached(
            "INSERT INTO mz_hook_points (game_id, hook_id, position, investor, resource, points) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (i, h) in table.plot.hooks.iter().enumerate() {
            let hook_id = h.id.to_string();
            hook.execute(params![game, hook_id, position(i)?, h.text, h.creator.to_string()])?;
            for (j, e) in h.elements.iter().enumerate() {
                element.execute(params![game, hook_id, position(j)?, e.to_string()])?;
            }
            for (j, inv) in h.stored.iter().enumerate() {
                points.execute(params![
                    game,
                    hook_id,
                    position(j)?,
                    inv.by.to_string(),
                    name_of(inv.resource),
                    inv.points
                ])?;
            }
        }
        if let Some(tp) = &table.plot.turning_point {
            tx.prepare_cached("INSERT INTO mz_turning_points (game_id, challenge_id) VALUES (?1, ?2)")?
                .execute(params![game, tp.challenge.to_string()])?;
            let mut challenger = tx.prepare_cached(
                "INSERT INTO mz_turning_point_challengers (game_id, position, element_id) VALUES (?1, ?2, ?3)",
            )?;
            for (i, c) in tp.challengers.iter().enumerate() {
                challenger.execute(params![game, position(i)?, c.to_string()])?;
            }
            let mut tied = tx.prepare_cached(
                "INSERT INTO mz_turning_point_hooks (game_id, position, hook_id) VALUES (?1, ?2, ?3)",
            )?;
            for (i, h) in tp.hooks.iter().enumerate() {
                tied.execute(params![game, position(i)?, h.to_string()])?;
            }
            let mut theme =
                tx.prepare_cached("INSERT INTO mz_themes (game_id, position, by_id, text) VALUES (?1, ?2, ?3, ?4)")?;
            for (i, t) in tp.themes.iter().enumerate() {
                theme.execute(params![game, position(i)?, t.by.to_string(), t.text])?;
            }
        }
        let mut no_escape = tx.prepare_cached(
            "INSERT INTO mz_no_escape (game_id, position, challenge_id, by_id, target_id, used) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (i, n) in table.plot.no_escape.iter().enumerate() {
            no_escape.execute(params![
                game,
                position(i)?,
                n.challenge.to_string(),
                n.by.to_string(),
                n.target.to_string(),
                n.used
            ])?;
        }
        Ok(())
    }

    /// The seed deck: its players (and who may still refresh), every card where it lies,
    /// and the links between cards in play.
    fn insert_mezzo_deck(&self, game: &str, deck: &SeedDeck) -> Result<()> {
        let tx = self.conn();
        tx.prepare_cached("INSERT INTO mz_decks (game_id, initial_draw) VALUES (?1, ?2)")?
            .execute(params![game, deck.initial_draw])?;
        let mut player = tx.prepare_cached(
            "INSERT INTO mz_deck_players (game_id, player_id, position, refresh) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, h) in deck.players.iter().enumerate() {
            let refresh = deck.refresh.iter().position(|p| *p == h.player).map(position).transpose()?;
            player.execute(params![game, h.player.to_string(), position(i)?, refresh])?;
        }
        let mut card = tx.prepare_cached(
            "INSERT INTO mz_cards (game_id, id, text, place, player_id, position, linked) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut put = |c: &Card, place: &str, holder: Option<Uuid>, at: usize, linked: bool| -> Result<()> {
            card.execute(params![
                game,
                c.id.to_string(),
                c.text,
                place,
                holder.map(|p| p.to_string()),
                position(at)?,
                linked
            ])?;
            Ok(())
        };
        for (i, c) in deck.draw_pile.iter().enumerate() {
            put(c, "draw_pile", None, i, false)?;
        }
        for (i, c) in deck.discard.iter().enumerate() {
            put(c, "discard", None, i, false)?;
        }
        for h in &deck.players {
            for (i, c) in h.hand.iter().enumerate() {
                put(c, "hand", Some(h.player), i, false)?;
            }
            for (i, a) in h.active.iter().enumerate() {
                put(&a.card, "active", Some(h.player), i, a.linked)?;
            }
            for (i, c) in h.depleted.iter().enumerate() {
                put(c, "depleted", Some(h.player), i, false)?;
            }
        }
        if let Some(c) = &deck.inspiration {
            put(c, "inspiration", None, 0, false)?;
        }
        if let Some(c) = &deck.shown {
            put(c, "shown", None, 0, false)?;
        }
        let mut link = tx.prepare_cached(
            "INSERT INTO mz_card_links (game_id, position, by_id, card_id, to_id) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, l) in deck.links.iter().enumerate() {
            link.execute(params![game, position(i)?, l.by.to_string(), l.card.to_string(), l.to.to_string()])?;
        }
        Ok(())
    }

    /// The challenge, row by row (see schema v8).
    fn insert_mezzo_challenge(&self, game: &str, ch: &Challenge) -> Result<()> {
        let tx = self.conn();
        tx.prepare_cached(
            "INSERT INTO mz_challenges (game_id, id, description, round, over) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![game, ch.id.to_string(), ch.description, ch.round, ch.over])?;
        let mut side =
            tx.prepare_cached("INSERT INTO mz_challenge_sides (game_id, position, name) VALUES (?1, ?2, ?3)")?;
        for (i, s) in ch.sides.iter().enumerate() {
            side.execute(params![game, position(i)?, s.name])?;
        }
        let place = |list: &[Uuid], id: Uuid| list.iter().position(|x| *x == id).map(position).transpose();
        let leavers = ch.departure.as_ref().map_or(&[][..], |d| &d.leavers[..]);
        let mut challenger = tx.prepare_cached(
            "INSERT INTO mz_challengers (game_id, position, element_id, kind, side, stake, status, leave, why, \
             boosts_triggered, acted, may_surrender, leaving) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        )?;
        for (i, c) in ch.challengers.iter().enumerate() {
            let (status, how, why) = match c.status {
                Status::In => ("in", None, None),
                Status::Leaving { how, why } => ("leaving", Some(how), Some(why)),
                Status::Left { how, why } => ("left", Some(how), Some(why)),
            };
            challenger.execute(params![
                game,
                position(i)?,
                c.element.to_string(),
                name_of(c.kind),
                position(c.side)?,
                c.stake,
                status,
                how.map(name_of),
                why.map(name_of),
                c.boosts_triggered,
                place(&ch.acted, c.element)?,
                place(&ch.may_surrender, c.element)?,
                place(leavers, c.element)?,
            ])?;
        }
        let mut goal = tx.prepare_cached(
            "INSERT INTO mz_challenge_goals (game_id, position, element_id, side, triggered) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut supporter = tx.prepare_cached(
            "INSERT INTO mz_challenge_supporters (game_id, goal_id, position, element_id) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, g) in ch.goals.iter().enumerate() {
            let goal_id = g.element.to_string();
            goal.execute(params![game, position(i)?, goal_id, position(g.side)?, g.triggered])?;
            for (j, s) in g.supporters.iter().enumerate() {
                supporter.execute(params![game, goal_id, position(j)?, s.to_string()])?;
            }
        }
        let mut action = tx.prepare_cached(
            "INSERT INTO mz_challenge_actions (game_id, position, round, challenger, check_id, score, opposing, \
             result, major_perks, minor_perks, traded, closed, countered_by, open_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        )?;
        let mut perk = tx.prepare_cached(
            "INSERT INTO mz_challenge_perks (game_id, action, position, kind, perk) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, a) in ch.actions.iter().enumerate() {
            let (closed, by) = match a.closed {
                None => (None, None),
                Some(Closed::Settled) => (Some("settled"), None),
                Some(Closed::Countered { by }) => (Some("countered"), Some(by.to_string())),
                Some(Closed::Lapsed) => (Some("lapsed"), None),
            };
            let open_at = ch.open.iter().position(|o| *o == i).map(position).transpose()?;
            action.execute(params![
                game,
                position(i)?,
                a.round,
                a.challenger.to_string(),
                a.check.map(|c| c.to_string()),
                a.score,
                a.opposing,
                name_of(a.result),
                a.major_perks,
                a.minor_perks,
                a.traded,
                closed,
                by,
                open_at,
            ])?;
            for (j, p) in a.declared.iter().enumerate() {
                let json = serde_json::to_string(p).map_err(|e| Error::invalid("perk", e.to_string()))?;
                perk.execute(params![game, position(i)?, position(j)?, name_of(p.name()), json])?;
            }
        }
        let mut gained = tx.prepare_cached(
            "INSERT INTO mz_challenge_gained (game_id, position, element_id, flaw_id) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, g) in ch.gained.iter().enumerate() {
            gained.execute(params![game, position(i)?, g.element.to_string(), g.flaw.to_string()])?;
        }
        let mut pushed = tx.prepare_cached(
            "INSERT INTO mz_challenge_counterable (game_id, position, goal_id, trump_id) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, p) in ch.counterable.iter().enumerate() {
            pushed.execute(params![game, position(i)?, p.goal.to_string(), p.trump.to_string()])?;
        }
        let mut pool = tx.prepare_cached(
            "INSERT INTO mz_challenge_stake_pools (game_id, position, stake, momentum) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, p) in ch.stake_pools.iter().enumerate() {
            pool.execute(params![game, position(i)?, p.stake, p.momentum])?;
        }
        let mut boost = tx.prepare_cached(
            "INSERT INTO mz_challenge_boosts (game_id, position, owner, element_id, trump_id, awards, draw_pending) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut target = tx.prepare_cached(
            "INSERT INTO mz_challenge_boost_targets (game_id, boost, position, element_id) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, b) in ch.departure.iter().flat_map(|d| d.boosts.iter()).enumerate() {
            let (owner, element, trump) = match b.owner {
                BoostOwner::Challenger { element } => ("challenger", element, None),
                BoostOwner::Trump { goal, trump } => ("trump", goal, Some(trump.to_string())),
            };
            boost.execute(params![game, position(i)?, owner, element.to_string(), trump, b.awards, b.draw_pending])?;
            for (j, t) in b.targets.iter().enumerate() {
                target.execute(params![game, position(i)?, position(j)?, t.to_string()])?;
            }
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
        let mut carried =
            tx.prepare_cached("INSERT INTO mz_carried_flaws (element_key, position, flaw) VALUES (?1, ?2, ?3)")?;
        for (i, flaw) in e.carried.iter().enumerate() {
            carried.execute(params![key, position(i)?, flaw.to_string()])?;
        }
        let mut insert = tx.prepare_cached(&format!(
            "INSERT INTO mz_traits (element_key, position, {TRAIT_COLUMNS}) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"
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
                t.favored_used,
            ])?;
        }
        Ok(())
    }
}

impl Reader<'_> {
    /// What is wrong with the Mezzo games' elements, sheets and seed decks (`sheetkeeper
    /// check`): each one's own invariants, read back through the rules.
    pub(super) fn mezzo_check(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let games = games_to_check(self.conn(), System::Mezzo)?;
        for (id, name) in games {
            let said = |problem: String| format!("Mezzo game “{name}” ({id}): {problem}");
            let Ok(game) = Uuid::parse_str(&id) else {
                out.push(said("the game's id is not an id".into()));
                continue;
            };
            let table = self.mezzo_table(game);
            match &table {
                Ok(table) => {
                    for (i, e) in table.elements.iter().enumerate() {
                        out.extend(e.problems().into_iter().map(|p| said(format!("elements[{i}]: {p}"))));
                    }
                    for p in table.deck.iter().flat_map(SeedDeck::problems) {
                        out.push(said(format!("deck.{p}")));
                    }
                    for p in table.challenge.iter().flat_map(Challenge::problems) {
                        out.push(said(format!("challenge.{p}")));
                    }
                }
                Err(e) => out.push(said(format!("the table cannot be read: {e}"))),
            }
            let mut sheets = Vec::new();
            for c in self.characters_of(game)? {
                match self.mezzo_sheet(c.id) {
                    Ok(Some(sheet)) => {
                        out.extend(sheet.problems().into_iter().map(|p| said(format!("“{}”: {p}", c.name))));
                        sheets.push(sheet);
                    }
                    Ok(None) => out.push(said(format!("“{}” has no sheet", c.name))),
                    Err(e) => out.push(said(format!("the sheet of “{}” cannot be read: {e}", c.name))),
                }
            }
            // The conflict open for votes (DEV-1): each ballot within what its player holds.
            if let Ok(table) = &table {
                if let Some(open) = &table.open_conflict {
                    let elements: Vec<_> = sheets.iter().cloned().chain(table.elements.iter().cloned()).collect();
                    let found = open.problems("open_conflict", &table.players, &elements, &Sources::of(table));
                    out.extend(found.into_iter().map(|(path, problem)| said(format!("{path}: {problem}"))));
                }
                if let Some(open) = &table.open_check {
                    let elements: Vec<_> = sheets.iter().cloned().chain(table.elements.iter().cloned()).collect();
                    let found = open.problems("open_check", &table.players, &elements, &Sources::of(table));
                    out.extend(found.into_iter().map(|(path, problem)| said(format!("{path}: {problem}"))));
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::rules::mezzo::element::{ElementKind, Lasts, Template, TraitKind, Via};
    use crate::store::{migrated_from, old_game_row, Store};

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    /// Stores the Mezzo game “Cove” as `game`.
    fn cove(store: &mut Store, game: Uuid) {
        let at = crate::model::now();
        let g = crate::model::Game {
            id: game,
            name: "Cove".into(),
            system: crate::model::System::Mezzo,
            table_settings: Default::default(),
            created_at: at,
            updated_at: at,
            notes: String::new(),
        };
        store.write(|tx| tx.insert_game(&g)).unwrap();
    }

    /// DEV-1: the conflict open for votes is kept with the table and read back as written;
    /// `check` reads it through the rules, so a ballot over what its player holds is named.
    #[test]
    fn an_open_conflict_is_kept_with_the_table_and_checked_through_the_rules() {
        use crate::rules::mezzo::open_conflict::{Ballot, OpenConflict};
        use crate::rules::mezzo::vote::ConflictCast;
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let (game, bo) = (id(1), id(2));
        cove(&mut store, game);
        let mut table = MezzoTable::default();
        let mut player = Player::new(bo, "Bo").unwrap();
        player.influence = 3;
        table.players.push(player);
        let influence = |points| ConflictCast::Influence { player: bo, option: 1, points };
        table.open_conflict = Some(OpenConflict {
            question: "Does the old bridge hold?".into(),
            options: vec!["It holds".into(), "It falls".into()],
            about: vec![],
            active_in_scene: vec![],
            ballots: vec![Ballot { player: bo, casts: vec![influence(2)] }],
        });
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        assert_eq!(store.read().mezzo_table(game).unwrap(), table);
        assert!(store.check().unwrap().mezzo.is_empty());
        table.open_conflict.as_mut().unwrap().ballots[0].casts = vec![influence(5)];
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        let said = store.check().unwrap().mezzo;
        assert_eq!(
            said,
            vec![format!(
                "Mezzo game “Cove” ({game}): open_conflict.ballots[0].casts[0].points: Bo holds 3 influence, not 5"
            )]
        );
        // Withdrawn: nothing is left of it.
        table.open_conflict = None;
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        assert_eq!(store.read().mezzo_table(game).unwrap().open_conflict, None);
    }

    #[test]
    fn an_open_action_check_is_kept_with_the_table_and_checked_through_the_rules() {
        use crate::rules::mezzo::action_check::{BaseChance, Cast, CheckSetup, SideKind, SideSetup};
        use crate::rules::mezzo::open_check::OpenCheck;
        use crate::rules::mezzo::open_conflict::Ballot;
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let (game, bo, wall) = (id(1), id(2), id(3));
        cove(&mut store, game);
        let mut table = MezzoTable::default();
        let mut player = Player::new(bo, "Bo").unwrap();
        player.influence = 3;
        table.players.push(player);
        table.elements.push(Element::new(wall, ElementKind::Location, "The wall").unwrap());
        let side = |kind, chance| SideSetup { kind, description: String::new(), chance, aptitude: 0 };
        let setup = CheckSetup {
            id: id(9),
            description: "The wall holds".into(),
            sides: vec![
                side(SideKind::Action { element: wall }, BaseChance::Common),
                side(SideKind::Failure, BaseChance::Occasional),
            ],
            involved: vec![],
        };
        let influence = |points| Cast::Influence { player: bo, side: 1, points };
        let mut open = OpenCheck::open(&setup, &table.elements).unwrap();
        open.ballots = vec![Ballot { player: bo, casts: vec![influence(2)] }];
        table.open_check = Some(open);
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        assert_eq!(store.read().mezzo_table(game).unwrap(), table);
        assert!(store.check().unwrap().mezzo.is_empty());
        table.open_check.as_mut().unwrap().ballots[0].casts = vec![influence(5)];
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        let said = store.check().unwrap().mezzo;
        assert_eq!(
            said,
            vec![format!(
                "Mezzo game “Cove” ({game}): open_check.ballots[0].casts[0].points: Bo holds 3 influence, not 5"
            )]
        );
        // Rolled and resolved, or withdrawn: nothing is left of it.
        table.open_check = None;
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        assert_eq!(store.read().mezzo_table(game).unwrap().open_check, None);
    }

    #[test]
    fn the_schema_accepts_every_template_with_its_kind_and_refuses_a_kind_that_is_not_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        let game = id(1);
        let mut element = Element::new(id(2), ElementKind::Goal, "Reach the cove").unwrap();
        // Every template (the schema's CHECK lists must accept each with its kind).
        for (i, template) in Template::ALL.iter().copied().enumerate() {
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
        cove(&mut store, game);
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
        let game = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";
        let mira = "6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0";
        let (mut store, _) = migrated_from(dir.path(), 5, |conn| {
            old_game_row(conn, game, "Cove", "mezzo");
            conn.execute(
                "INSERT INTO characters VALUES (?1, ?2, 'mezzo', 'Mira', '2026-01-01T00:00:00.000Z', \
                 '2026-01-01T00:00:00.000Z', 3)",
                [mira, game],
            )
            .unwrap();
        });

        // The character got its element; the game an empty table until something is written.
        let (game, mira) = (Uuid::parse_str(game).unwrap(), Uuid::parse_str(mira).unwrap());
        let sheet = store.read().mezzo_sheet(mira).unwrap();
        assert_eq!(sheet, Some(Element::new(mira, ElementKind::Character, "Mira").unwrap()));
        assert_eq!(store.read().mezzo_table(game).unwrap(), MezzoTable::default());
        let ada = Player::new(id(7), "Ada").unwrap();
        let mut table = MezzoTable::default();
        (table.plot.number, table.players) = (1, vec![ada]);
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
            notes: String::new(),
        };
        store.write(|tx| tx.insert_game(&g)).unwrap();
        let err = store.write(|tx| tx.put_mezzo_table(id(1), &MezzoTable::default())).unwrap_err();
        assert!(err.to_string().contains("only a Mezzo game has a Mezzo table"), "{err}");
    }

    #[test]
    fn a_version_6_database_is_backed_up_then_migrated_keeping_its_tables_with_no_hooks_and_no_deck() {
        use crate::rules::mezzo::plot::{create_hook, Resource, User};
        let dir = tempfile::tempdir().unwrap();
        let game = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";
        let (ada, goal) = ("1b2c3d4e-5f60-4a71-8b82-9c0d1e2f3a40", "60718293-a4b5-4fc6-90d7-e15c6d7e8f95");
        let (mut store, _) = migrated_from(dir.path(), 6, |conn| {
            old_game_row(conn, game, "Cove", "mezzo");
            conn.execute("INSERT INTO mz_tables (game_id, arc) VALUES (?1, 2)", [game]).unwrap();
            conn.execute(
                "INSERT INTO mz_players (game_id, id, position, name, influence) VALUES (?1, ?2, 0, 'Ada', 1)",
                [game, ada],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO mz_elements (game_id, position, id, kind, name, adversity, adversity_debt, momentum, \
                 momentum_awards, in_challenge, protection_sacrificed, first_action_check, first_challenge, \
                 first_claim) VALUES (?1, 0, ?2, 'goal', 'Reach the cove', 0, 0, 3, 0, 0, 0, 0, 0, 0)",
                [game, goal],
            )
            .unwrap();
        });

        let game = Uuid::parse_str(game).unwrap();
        let mut table = store.read().mezzo_table(game).unwrap();
        assert_eq!((table.arc(), table.players.len(), table.elements[0].momentum), (2, 1, 3), "kept as it was");
        assert!(table.plot.hooks.is_empty() && table.plot.turning_point.is_none() && table.deck.is_none());
        let user = User { player: table.players[0].id, element: None };
        table.plot =
            create_hook(&table.plot, id(9), "Where is the map?", &[], &user, Resource::Influence, 1).unwrap().0;
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
        assert_eq!(store.read().mezzo_table(game).unwrap(), table);
    }
}
