//! The snapshot the host sends a device (the game as that device's viewer may see it, with
//! the host's digest of each character): what the link (`link.rs`) and a device's copy
//! (`link_copy.rs`) are both made of.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::replica::game_document_for;
use super::viewer::Viewer;
use crate::error::Result;
use crate::exchange;
use crate::rules::record::CharacterRecord;
use crate::store::Reader;

/// What the host sends a device: the game as that device may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// The game's file document, redacted for the device's viewer.
    pub document: serde_json::Value,
    /// The host's digest of each character in it: the base a change is sent against.
    pub digests: BTreeMap<Uuid, String>,
    /// The characters this device plays at the table.
    pub owned: Vec<Uuid>,
    /// At a Mezzo table, the players this device's person sits as (a player is a viewer in
    /// their own right, claim or no claim): their hands are in the document face up.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<Uuid>,
}

/// The SHA-256 (hex) of a character as stored: any change to it changes the digest.
pub(crate) fn record_digest(record: &CharacterRecord) -> String {
    let json = serde_json::to_vec(record).expect("records always serialize");
    Sha256::digest(json).iter().map(|b| format!("{b:02x}")).collect()
}

/// The snapshot of `game` for the device that plays `owned` (the characters it plays and,
/// at a Mezzo table, the players it sits as: those go in `seats`).
pub(super) fn snapshot_in(read: Reader<'_>, game: Uuid, owned: Vec<Uuid>) -> Result<Snapshot> {
    let doc = game_document_for(read, game, &Viewer::Player(owned.clone()))?;
    let players = read.mezzo_table(game)?.players;
    let (seats, owned) = owned.into_iter().partition(|id| players.iter().any(|p| p.id == *id));
    let mut digests = BTreeMap::new();
    for entry in &doc.games {
        for c in &entry.characters {
            // The record as this device holds it: the stored one, but for another player's
            // NSU private lines (`replica::character_for`), so the device's copy matches.
            digests.insert(c.character.id, record_digest(c));
        }
    }
    let document = serde_json::from_slice(&exchange::to_json(&doc)).expect("documents always serialize");
    Ok(Snapshot { document, digests, owned, seats })
}
