//! Which face-down cards are close enough to scout (Part 3, Scout: "choose a facedown card
//! that is close enough that it makes sense for you to scout during this downtime. Typically
//! this means it's neighboring where you currently are or you can get there through known and
//! non-hostile locations"). A hint for the table, never a refusal: the table may still pick
//! any card that makes sense to it.
//!
//! Rulings where the source is silent:
//! - Neighbours are the cards joined by a drawn path when the table drew any (Part 1: "define
//!   the paths that you will need to take to get from card to card"); on a map with no path,
//!   the cards in the eight cells around a card.
//! - Known locations are the revealed cards; whether one is hostile is the table's call, so
//!   every revealed card is passed through.
//! - Home is not on the map, so at home nothing is said: the table judges.

use std::collections::{BTreeSet, VecDeque};

use uuid::Uuid;

use super::world::{GridPos, World};

/// The face-down cards on the map close enough to scout from where the party is: the
/// neighbours of its card and of every revealed card reached from it through revealed cards.
/// None at home (home is not on the map).
pub fn close_enough_to_scout(world: &World) -> Option<BTreeSet<Uuid>> {
    let start = world.party_at?;
    let placed: Vec<(Uuid, GridPos, bool)> =
        world.locations.iter().filter_map(|l| l.position.map(|p| (l.id, p, l.revealed))).collect();
    let neighbours = |of: Uuid| -> Vec<Uuid> {
        if !world.paths.is_empty() {
            return world
                .paths
                .iter()
                .filter_map(|p| [(p.a, p.b), (p.b, p.a)].into_iter().find(|&(x, _)| x == of))
                .map(|(_, y)| y)
                .collect();
        }
        let Some(&(_, at, _)) = placed.iter().find(|(id, _, _)| *id == of) else { return Vec::new() };
        let next_to = |p: GridPos| p != at && (p.x - at.x).abs() <= 1 && (p.y - at.y).abs() <= 1;
        placed.iter().filter(|(_, p, _)| next_to(*p)).map(|(id, _, _)| *id).collect()
    };
    let revealed = |id: Uuid| placed.iter().any(|&(c, _, shown)| c == id && shown);
    let (mut seen, mut close, mut queue) = (BTreeSet::from([start]), BTreeSet::new(), VecDeque::from([start]));
    while let Some(here) = queue.pop_front() {
        for next in neighbours(here) {
            if !placed.iter().any(|(id, _, _)| *id == next) {
                continue;
            }
            if !revealed(next) {
                close.insert(next);
            } else if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    Some(close)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::nsu::world::{Location, MapPath};

    fn card(n: u128, x: i16, y: i16, revealed: bool) -> Location {
        Location {
            id: Uuid::from_u128(n),
            name: format!("Card {n}"),
            author: String::new(),
            description: String::new(),
            collateral_harms: String::new(),
            danger: String::new(),
            treasure: String::new(),
            danger_level: Some(1),
            reward_level: Some(1),
            collateral: 0,
            revealed,
            position: Some(GridPos { x, y }),
            scene_details: Vec::new(),
            scouted_by: Vec::new(),
            author_character: None,
        }
    }

    fn ids(ns: &[u128]) -> BTreeSet<Uuid> {
        ns.iter().map(|&n| Uuid::from_u128(n)).collect()
    }

    /// A row of cards: 1 (revealed, the party's) 2 (revealed) 3 (face down) 4 (face down),
    /// with 5 face down under 1 and 6 face down far away.
    fn map() -> World {
        World {
            locations: vec![
                card(1, 0, 0, true),
                card(2, 1, 0, true),
                card(3, 2, 0, false),
                card(4, 3, 0, false),
                card(5, 0, 1, false),
                card(6, 9, 9, false),
            ],
            party_at: Some(Uuid::from_u128(1)),
            ..World::default()
        }
    }

    #[test]
    fn a_card_next_to_the_party_or_reached_through_seen_cards_is_close_enough() {
        // 5 is next to the party's card; 3 is next to 2, a revealed card next to it; 4 is
        // behind a face-down card; 6 is far away.
        assert_eq!(close_enough_to_scout(&map()), Some(ids(&[3, 5])));
        // At home nothing is said: home is not on the map.
        assert_eq!(close_enough_to_scout(&World { party_at: None, ..map() }), None);
    }

    #[test]
    fn drawn_paths_decide_the_neighbours_where_the_table_drew_them() {
        let path = |a: u128, b: u128| MapPath { a: Uuid::from_u128(a), b: Uuid::from_u128(b) };
        // A path from the party's card to 6, and from 2 to 4: the grid no longer counts.
        let world = World { paths: vec![path(6, 1), path(1, 2), path(2, 4)], ..map() };
        assert_eq!(close_enough_to_scout(&world), Some(ids(&[4, 6])));
    }
}
