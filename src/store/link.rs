//! The linked table's bookkeeping: this device's key pair, the devices paired with it, who
//! plays which character at a hosted table, and on a joined device its bases and refused
//! changes. None of it travels in files.

use chrono::{DateTime, Utc};
use rusqlite::{params, OptionalExtension, Row};
use serde::Serialize;
use uuid::Uuid;

use super::events::EventKind;
use super::queries::{Reader, Tx};
use crate::error::{Error, Result};

/// This device's identity on the local network.
#[derive(Clone)]
pub struct LinkIdentity {
    pub device_id: Uuid,
    pub private_key: Vec<u8>,
    pub public_key: Vec<u8>,
}

/// Which end of a link this device is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PeerSide {
    /// This device hosts the game; the peer joined it.
    Host,
    /// The peer hosts the game; this device joined it.
    Joined,
}

impl PeerSide {
    fn id(self) -> &'static str {
        match self {
            PeerSide::Host => "host",
            PeerSide::Joined => "joined",
        }
    }
}

/// A device paired with this one.
#[derive(Clone, Debug, Serialize)]
pub struct Peer {
    pub device_id: Uuid,
    pub game_id: Uuid,
    pub side: PeerSide,
    pub name: String,
    #[serde(skip)]
    pub public_key: Vec<u8>,
    pub address: Option<String>,
    pub paired_at: DateTime<Utc>,
    pub removed_at: Option<DateTime<Utc>>,
}

/// What a joined device last agreed with the host about one character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    pub character_id: Uuid,
    pub host_digest: String,
    pub local_digest: String,
    pub owned: bool,
}

/// A change the host refused, kept on the joined device with the host's reason.
#[derive(Clone, Debug, Serialize)]
pub struct Refused {
    pub id: Uuid,
    pub game_id: Uuid,
    pub character_id: Uuid,
    pub name: String,
    pub reason: String,
    pub record: serde_json::Value,
    pub at: DateTime<Utc>,
}

fn uuid(text: String) -> Result<Uuid> {
    Uuid::parse_str(&text).map_err(|_| Error::link(format!("a stored id is not a UUID: {text:?}")))
}

fn time(text: String) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(&text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| Error::link(format!("a stored time is not RFC 3339: {text:?}")))
}

type PeerRow = (String, String, String, String, Vec<u8>, Option<String>, String, Option<String>);

fn peer_row(r: &Row<'_>) -> rusqlite::Result<PeerRow> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?))
}

fn peer((device, game, side, name, key, address, paired, removed): PeerRow) -> Result<Peer> {
    Ok(Peer {
        device_id: uuid(device)?,
        game_id: uuid(game)?,
        side: if side == "host" { PeerSide::Host } else { PeerSide::Joined },
        name,
        public_key: key,
        address,
        paired_at: time(paired)?,
        removed_at: removed.map(time).transpose()?,
    })
}

const PEER_COLUMNS: &str = "device_id, game_id, side, name, public_key, address, paired_at, removed_at";

impl Reader<'_> {
    pub fn link_identity(&self) -> Result<Option<LinkIdentity>> {
        let row: Option<(String, Vec<u8>, Vec<u8>)> = self
            .conn()
            .prepare_cached("SELECT device_id, private_key, public_key FROM link_identity WHERE id = 1")?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        row.map(|(id, private_key, public_key)| Ok(LinkIdentity { device_id: uuid(id)?, private_key, public_key }))
            .transpose()
    }

    /// Every paired device, removed ones too, newest first.
    pub fn link_peers(&self) -> Result<Vec<Peer>> {
        let mut stmt =
            self.conn().prepare_cached(&format!("SELECT {PEER_COLUMNS} FROM link_peers ORDER BY paired_at DESC"))?;
        let rows = stmt.query_map([], peer_row)?.collect::<rusqlite::Result<Vec<_>>>()?;
        rows.into_iter().map(peer).collect()
    }

    /// The characters each device plays at the hosted `game`.
    pub fn link_owners(&self, game: Uuid) -> Result<Vec<(Uuid, Uuid)>> {
        let mut stmt =
            self.conn().prepare_cached("SELECT character_id, device_id FROM link_owners WHERE game_id = ?1")?;
        let rows = stmt
            .query_map([game.to_string()], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows.into_iter().map(|(c, d)| Ok((uuid(c)?, uuid(d)?))).collect()
    }

    pub fn link_bases(&self, game: Uuid) -> Result<Vec<Base>> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT character_id, host_digest, local_digest, owned FROM link_bases WHERE game_id = ?1",
        )?;
        let rows = stmt
            .query_map([game.to_string()], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, i64>(3)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows.into_iter()
            .map(|(c, host_digest, local_digest, owned)| {
                Ok(Base { character_id: uuid(c)?, host_digest, local_digest, owned: owned == 1 })
            })
            .collect()
    }

    pub fn link_refused(&self, game: Uuid) -> Result<Vec<Refused>> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT id, game_id, character_id, name, reason, record, at FROM link_refused \
             WHERE game_id = ?1 ORDER BY at DESC",
        )?;
        type RefusedRow = (String, String, String, String, String, String, String);
        let rows = stmt
            .query_map([game.to_string()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?))
            })?
            .collect::<rusqlite::Result<Vec<RefusedRow>>>()?;
        rows.into_iter()
            .map(|(id, game, character, name, reason, record, at)| {
                Ok(Refused {
                    id: uuid(id)?,
                    game_id: uuid(game)?,
                    character_id: uuid(character)?,
                    name,
                    reason,
                    record: serde_json::from_str(&record)
                        .map_err(|e| Error::link(format!("a refused change is not JSON: {e}")))?,
                    at: time(at)?,
                })
            })
            .collect()
    }

    /// Whether this device joined `game` at a linked table (and has not left it).
    pub fn link_joined(&self, game: Uuid) -> Result<bool> {
        Ok(self
            .conn()
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM link_peers WHERE game_id = ?1 AND side = 'joined' AND removed_at IS NULL)",
            )?
            .query_row([game.to_string()], |r| r.get(0))?)
    }

    /// Whether this device ever joined `game` at a linked table (left since or not): its copy
    /// is the table's as this device was shown it.
    pub fn link_joined_ever(&self, game: Uuid) -> Result<bool> {
        Ok(self
            .conn()
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM link_peers WHERE game_id = ?1 AND side = 'joined')")?
            .query_row([game.to_string()], |r| r.get(0))?)
    }

    /// The newest event of `game` (0 when it has none): what a device's copy was made at.
    pub fn last_event_of_game(&self, game: Uuid) -> Result<i64> {
        Ok(self
            .conn()
            .prepare_cached("SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?1")?
            .query_row([game.to_string()], |r| r.get(0))?)
    }

    /// What each event of `game` after `seq` touched: (its kind, its character or none for
    /// the game itself), oldest first. Unknown kinds read as `None` (something changed).
    pub fn events_since(&self, game: Uuid, seq: i64) -> Result<Vec<(Option<EventKind>, Option<Uuid>)>> {
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT kind, character_id FROM events WHERE game_id = ?1 AND seq > ?2 ORDER BY seq")?;
        let rows = stmt
            .query_map(params![game.to_string(), seq], |r| {
                let kind: String = r.get(0)?;
                let character: Option<String> = r.get(1)?;
                Ok((EventKind::parse(&kind), character.and_then(|c| Uuid::parse_str(&c).ok())))
            })?
            .collect::<rusqlite::Result<Vec<_>>>();
        Ok(rows?)
    }

    /// SQLite's `data_version`: it changes when another connection commits to the file.
    pub fn data_version(&self) -> Result<i64> {
        Ok(self.conn().query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }
}

impl Tx<'_> {
    pub fn put_link_identity(&self, identity: &LinkIdentity) -> Result<()> {
        self.conn()
            .prepare_cached(
                "INSERT INTO link_identity (id, device_id, private_key, public_key) VALUES (1, ?1, ?2, ?3)",
            )?
            .execute(params![identity.device_id.to_string(), identity.private_key, identity.public_key])?;
        Ok(())
    }

    /// Records a paired device (pairing again replaces its key and name, and un-removes it).
    pub fn put_link_peer(&self, peer: &Peer) -> Result<()> {
        self.conn()
            .prepare_cached(&format!(
                "INSERT INTO link_peers ({PEER_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
                 ON CONFLICT (device_id, game_id, side) DO UPDATE SET name = excluded.name, \
                 public_key = excluded.public_key, address = excluded.address, \
                 paired_at = excluded.paired_at, removed_at = excluded.removed_at"
            ))?
            .execute(params![
                peer.device_id.to_string(),
                peer.game_id.to_string(),
                peer.side.id(),
                peer.name,
                peer.public_key,
                peer.address,
                peer.paired_at.to_rfc3339(),
                peer.removed_at.map(|t| t.to_rfc3339()),
            ])?;
        Ok(())
    }

    /// Marks a device removed: it can no longer connect with its key. Returns how many rows.
    pub fn remove_link_peer(&self, device: Uuid, at: DateTime<Utc>) -> Result<usize> {
        let n = self
            .conn()
            .prepare_cached("UPDATE link_peers SET removed_at = ?2 WHERE device_id = ?1 AND removed_at IS NULL")?
            .execute(params![device.to_string(), at.to_rfc3339()])?;
        self.conn().prepare_cached("DELETE FROM link_owners WHERE device_id = ?1")?.execute([device.to_string()])?;
        Ok(n)
    }

    pub fn set_link_owner(&self, game: Uuid, character: Uuid, device: Uuid) -> Result<()> {
        self.conn()
            .prepare_cached(
                "INSERT INTO link_owners (character_id, game_id, device_id) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (character_id) DO UPDATE SET device_id = excluded.device_id, game_id = excluded.game_id",
            )?
            .execute(params![character.to_string(), game.to_string(), device.to_string()])?;
        Ok(())
    }

    pub fn put_link_base(&self, game: Uuid, base: &Base) -> Result<()> {
        self.conn()
            .prepare_cached(
                "INSERT INTO link_bases (character_id, game_id, host_digest, local_digest, owned) \
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (character_id) DO UPDATE SET \
                 game_id = excluded.game_id, host_digest = excluded.host_digest, \
                 local_digest = excluded.local_digest, owned = excluded.owned",
            )?
            .execute(params![
                base.character_id.to_string(),
                game.to_string(),
                base.host_digest,
                base.local_digest,
                i64::from(base.owned)
            ])?;
        Ok(())
    }

    pub fn put_link_refused(&self, refused: &Refused) -> Result<()> {
        self.conn()
            .prepare_cached(
                "INSERT INTO link_refused (id, game_id, character_id, name, reason, record, at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                refused.id.to_string(),
                refused.game_id.to_string(),
                refused.character_id.to_string(),
                refused.name,
                refused.reason,
                refused.record.to_string(),
                refused.at.to_rfc3339(),
            ])?;
        Ok(())
    }

    pub fn delete_link_refused(&self, id: Uuid) -> Result<usize> {
        Ok(self.conn().prepare_cached("DELETE FROM link_refused WHERE id = ?1")?.execute([id.to_string()])?)
    }
}
