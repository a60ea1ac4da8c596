//! What this device is at each table (its role per game, the characters it keeps for
//! others, the Mezzo players its person sits as) and its preferences. None of it travels in files: another device has its own.

use rusqlite::types::FromSql;
use rusqlite::{params, OptionalExtension};
use uuid::Uuid;

use super::queries::{Reader, Tx};
use crate::error::Result;
use crate::model::DeviceRole;

impl Reader<'_> {
    /// The role this device plays in `game` (both, when none was chosen).
    pub fn device_role(&self, game: Uuid) -> Result<DeviceRole> {
        let role: Option<String> = self.device_game(game, "SELECT role FROM device_games WHERE game_id = ?1")?;
        Ok(role.as_deref().and_then(DeviceRole::from_id).unwrap_or_default())
    }

    /// Whether the people at this device roll real dice in `game` and type them in.
    pub fn dice_by_hand(&self, game: Uuid) -> Result<bool> {
        let by_hand: Option<i64> =
            self.device_game(game, "SELECT dice_by_hand FROM device_games WHERE game_id = ?1")?;
        Ok(by_hand == Some(1))
    }

    /// What `sql` selects of this device's row for `game`; None when it keeps no row for it.
    fn device_game<T: FromSql>(&self, game: Uuid, sql: &str) -> Result<Option<T>> {
        Ok(self.conn().prepare_cached(sql)?.query_row([game.to_string()], |r| r.get(0)).optional()?)
    }

    /// The characters this device keeps for someone else.
    pub fn kept_for_others(&self) -> Result<Vec<Uuid>> {
        let mut stmt = self.conn().prepare_cached("SELECT character_id FROM kept_for_others")?;
        let ids = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for id in ids {
            // The column's CHECK keeps ids 36 characters long; a foreign key keeps them real.
            if let Ok(id) = Uuid::parse_str(&id?) {
                out.push(id);
            }
        }
        Ok(out)
    }

    /// The Mezzo players this device's person sits as in `game` (whether or not they claim
    /// a character), in no particular order.
    pub fn mezzo_seats(&self, game: Uuid) -> Result<Vec<Uuid>> {
        let mut stmt = self.conn().prepare_cached("SELECT player_id FROM device_mezzo_seats WHERE game_id = ?1")?;
        let ids = stmt.query_map([game.to_string()], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for id in ids {
            // The column's CHECK keeps ids 36 characters long; a stray one is nobody.
            if let Ok(id) = Uuid::parse_str(&id?) {
                out.push(id);
            }
        }
        Ok(out)
    }

    pub fn device_setting(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn()
            .prepare_cached("SELECT value FROM device_settings WHERE key = ?1")?
            .query_row([key], |r| r.get(0))
            .optional()?)
    }
}

impl Tx<'_> {
    pub fn set_device_role(&self, game: Uuid, role: DeviceRole) -> Result<()> {
        self.conn()
            .prepare_cached(
                "INSERT INTO device_games (game_id, role) VALUES (?1, ?2) \
                 ON CONFLICT (game_id) DO UPDATE SET role = excluded.role",
            )?
            .execute(params![game.to_string(), role.id()])?;
        Ok(())
    }

    pub fn set_dice_by_hand(&self, game: Uuid, by_hand: bool) -> Result<()> {
        self.conn()
            .prepare_cached(
                "INSERT INTO device_games (game_id, dice_by_hand) VALUES (?1, ?2) \
                 ON CONFLICT (game_id) DO UPDATE SET dice_by_hand = excluded.dice_by_hand",
            )?
            .execute(params![game.to_string(), i64::from(by_hand)])?;
        Ok(())
    }

    /// Marks a character as this device owner's own (`mine`) or kept for someone else.
    pub fn set_mine(&self, character: Uuid, mine: bool) -> Result<()> {
        let sql = if mine {
            "DELETE FROM kept_for_others WHERE character_id = ?1"
        } else {
            "INSERT OR IGNORE INTO kept_for_others (character_id) VALUES (?1)"
        };
        self.conn().prepare_cached(sql)?.execute([character.to_string()])?;
        Ok(())
    }

    /// Sits this device's person as Mezzo player `player` of `game` (`mine`), or stands them up.
    pub fn set_mezzo_seat(&self, game: Uuid, player: Uuid, mine: bool) -> Result<()> {
        let sql = if mine {
            "INSERT OR IGNORE INTO device_mezzo_seats (game_id, player_id) VALUES (?1, ?2)"
        } else {
            "DELETE FROM device_mezzo_seats WHERE game_id = ?1 AND player_id = ?2"
        };
        self.conn().prepare_cached(sql)?.execute([game.to_string(), player.to_string()])?;
        Ok(())
    }

    /// Sits this device's person as exactly `players` of `game` (a linked table's host says
    /// which ones it sits as).
    pub fn set_mezzo_seats(&self, game: Uuid, players: &[Uuid]) -> Result<()> {
        self.conn().prepare_cached("DELETE FROM device_mezzo_seats WHERE game_id = ?1")?.execute([game.to_string()])?;
        for p in players {
            self.set_mezzo_seat(game, *p, true)?;
        }
        Ok(())
    }

    pub fn set_device_setting(&self, key: &str, value: &str) -> Result<()> {
        self.conn()
            .prepare_cached(
                "INSERT INTO device_settings (key, value) VALUES (?1, ?2) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            )?
            .execute(params![key, value])?;
        Ok(())
    }
}
