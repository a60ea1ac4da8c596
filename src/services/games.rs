//! Creating, renaming, deleting and listing games.

use std::collections::HashMap;

use uuid::Uuid;

use super::log::{game_event, Change, GameSnapshot};
use super::lookup::existing_game;
use super::{Done, GameView};
use crate::error::Result;
use crate::model::{clean_name, now, Game, System};
use crate::rules::nsu::scope;
use crate::rules::nsu::world::World;
use crate::rules::table_settings;
use crate::store::{EventKind, Reader, Store};

/// Every game with its characters, games and characters by name.
pub fn list(store: &Store) -> Result<Vec<GameView>> {
    let read = store.read();
    let kept = read.kept_for_others()?;
    let mut by_game: HashMap<Uuid, Vec<_>> = HashMap::new();
    for c in read.characters()? {
        by_game.entry(c.game_id).or_default().push(c);
    }
    read.games()?
        .into_iter()
        .map(|g| {
            let characters = by_game.remove(&g.id).unwrap_or_default();
            let device = (read.device_role(g.id)?, read.dice_by_hand(g.id)?);
            Ok(GameView::new(g, characters, device, &kept))
        })
        .collect()
}

pub(super) fn game_view(read: Reader<'_>, id: Uuid) -> Result<GameView> {
    let game = existing_game(read, id)?;
    let device = (read.device_role(id)?, read.dice_by_hand(id)?);
    Ok(GameView::new(game, read.characters_of(id)?, device, &read.kept_for_others()?))
}

/// Starts a new game of `system` with the system's default table settings (and, for No Stone
/// Unturned, a world whose scope holds the guiding questions).
pub fn create_game(store: &mut Store, name: &str, system: &str) -> Result<GameView> {
    let name = clean_name("name", name)?;
    let system = System::parse("system", system)?;
    let at = now();
    let game = Game {
        id: Uuid::new_v4(),
        name,
        system,
        table_settings: table_settings::defaults(system),
        created_at: at,
        updated_at: at,
        notes: String::new(),
    };
    // A No Stone Unturned world starts with the scope's guiding questions (Part 1, step 4),
    // written with the game so the creation is one step.
    let nsu_world = (system == System::Nsu).then(|| World { scope: scope::starting_scope(), ..World::default() });
    store.write(|tx| {
        tx.insert_game(&game)?;
        if let Some(world) = &nsu_world {
            tx.put_nsu_world(game.id, world)?;
        }
        let after = GameSnapshot { nsu_world: nsu_world.clone(), ..GameSnapshot::bare(game.clone()) };
        let change = Change { before: None, after: Some(after) };
        game_event(tx, EventKind::GameCreated, game.id, &change, None)?;
        game_view(tx.read(), game.id)
    })
}

pub fn rename_game(store: &mut Store, id: Uuid, name: &str) -> Result<GameView> {
    let name = clean_name("name", name)?;
    store.write(|tx| {
        let before = existing_game(tx.read(), id)?;
        if before.name == name {
            return game_view(tx.read(), id);
        }
        let after = Game { name, updated_at: now(), ..before.clone() };
        tx.update_game(&after)?;
        let change = Change { before: Some(GameSnapshot::bare(before)), after: Some(GameSnapshot::bare(after)) };
        game_event(tx, EventKind::GameRenamed, id, &change, None)?;
        game_view(tx.read(), id)
    })
}

/// Deletes a game with all its characters; the log keeps them so the deletion can be undone.
pub fn delete_game(store: &mut Store, id: Uuid) -> Result<Done> {
    store.write(|tx| {
        let game = existing_game(tx.read(), id)?;
        let characters = tx
            .read()
            .characters_of(id)?
            .into_iter()
            .map(|c| super::characters::load(tx.read(), c.id))
            .collect::<Result<Vec<_>>>()?;
        let count = characters.len();
        let message = format!(
            "Deleted the game “{}”{}.",
            game.name,
            match count {
                0 => String::new(),
                1 => " and its character".into(),
                n => format!(" and its {n} characters"),
            }
        );
        let nsu_world = (game.system == System::Nsu).then(|| tx.read().nsu_world(id)).transpose()?;
        // The pennies go with the game into the log, so undoing the deletion brings them back.
        let penny_table = (game.system == System::PennyAnte).then(|| tx.read().penny_table(id)).transpose()?;
        let mezzo_table = (game.system == System::Mezzo).then(|| tx.read().mezzo_table(id)).transpose()?;
        let scattershot_table =
            (game.system == System::Scattershot).then(|| tx.read().scattershot_table(id)).transpose()?;
        // So does the journal.
        let journal = Some(tx.read().journal(id)?).filter(|j| !j.sessions.is_empty());
        tx.delete_game(id)?;
        let snapshot =
            GameSnapshot { game, characters, nsu_world, penny_table, mezzo_table, scattershot_table, journal };
        let change = Change { before: Some(snapshot), after: None };
        game_event(tx, EventKind::GameDeleted, id, &change, None)?;
        Ok(Done::new(message))
    })
}
