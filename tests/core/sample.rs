//! A large generated backup, shared by the crash test and the benchmarks
//! (`#[path]`-included there).

use chrono::{DateTime, Utc};
use sheetkeeper::exchange::{Document, GameEntry, Kind};
use sheetkeeper::model::{Character, Game, System};
use sheetkeeper::rules::record::CharacterRecord;
use sheetkeeper::rules::table_settings;
use uuid::Uuid;

/// A backup of `games` No Stone Unturned games with `per_game` characters each.
pub fn backup(games: usize, per_game: usize) -> Document {
    let at: DateTime<Utc> = "2026-11-01T12:00:00Z".parse().expect("a valid time");
    let games = (0..games)
        .map(|g| {
            let game = Game {
                id: Uuid::new_v4(),
                name: format!("Table {g}"),
                system: System::Nsu,
                table_settings: table_settings::defaults(System::Nsu),
                created_at: at,
                updated_at: at,
                notes: String::new(),
            };
            let characters = (0..per_game)
                .map(|c| {
                    CharacterRecord::new(Character {
                        id: Uuid::new_v4(),
                        game_id: game.id,
                        system: System::Nsu,
                        name: format!("Character {g}-{c}"),
                        created_at: at,
                        updated_at: at,
                        revision: 1,
                        notes: String::new(),
                    })
                })
                .collect();
            entry(game, characters)
        })
        .collect();
    Document { kind: Kind::Backup, system: None, app_version: "sample".into(), exported_at: at, games }
}

/// `game` with `characters` and nothing else in a file: no world or table, no piles.
pub fn entry(game: Game, characters: Vec<CharacterRecord>) -> GameEntry {
    GameEntry {
        game,
        characters,
        nsu_world: None,
        penny_table: None,
        mezzo_table: None,
        scattershot_table: None,
        journal: None,
        penny_piles: Vec::new(),
    }
}
