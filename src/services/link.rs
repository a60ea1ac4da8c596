//! The linked table's database side: what the host sends each device, what it does with a
//! device's change or move, and what a joined device does with a snapshot. The network
//! (pairing, encryption, messages) is `crate::link`; this module never touches a socket.
//!
//! The host is the authority: a joined device's change to its own character is validated
//! like an import, checked against the host's copy it was based on, and applied with its
//! event; a game-level move runs through the host's services. A joined device holds what
//! its viewer may see (a snapshot redacted for it) and changes only its own characters.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use chrono::Utc;
use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::characters;
use super::dice_tray::TrayEntry;
use super::link_copy::{characters_of_snapshot, Changed};
use super::link_snapshot::{record_digest, snapshot_in, Snapshot};
use super::lookup::existing_game;
use super::mezzo::cards::CardMove;
use super::mezzo::plot::hand_holders_for;
use super::transfer::{
    character_still_exports, document, games_still_export, import_document, ExportScope, ImportOptions,
};
use super::viewer::Viewer;
use super::{DiceInput, Done};
use crate::error::{Error, Result};
use crate::exchange::{self, Document, Kind};
use crate::model::{now, DeviceRole};
use crate::rules;
use crate::rules::mezzo::action_check::Cast;
use crate::rules::mezzo::vote::ConflictCast;
use crate::rules::nsu::roll::{Edge, RemoteHelper};
use crate::rules::penny_ante::challenge::Move as PennyMove;
use crate::rules::record::CharacterRecord;
use crate::store::{Base, EventKind, LinkIdentity, Peer, PeerSide, Reader, Refused, Store, Tx};

/// A move a joined device asks the host to make at the table (not a change of its own
/// character, which travels as the character itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum GameMove {
    /// A Penny Ante challenge move of a side the device plays.
    PennyChallenge { mv: PennyMove, dice: DiceInput },
    /// A roll on the dice tray made on the device (its expression and the faces its dice
    /// showed, for one of the device's characters or none), for the game's log.
    DiceTray {
        expression: String,
        faces: Vec<u32>,
        #[serde(default)]
        character: Option<Uuid>,
    },
    /// A Mezzo seed-deck move of a player the device sits as (or who claimed one of its
    /// characters): their own hand and influence (DEV-1).
    MezzoCard { mv: CardMove },
    /// A Mezzo ballot of a player the device sits as, into the conflict the table opened for
    /// votes: their own votes, replacing their ballot before (none takes it back) (DEV-1).
    MezzoBallot { player: Uuid, casts: Vec<ConflictCast> },
    /// A Mezzo ballot of a player the device sits as, into the action check the table opened
    /// for votes: their law and spends, replacing their ballot before (none takes it back).
    MezzoCheckBallot { player: Uuid, casts: Vec<Cast> },
}

/// Something one device hands another at the table, through the host, without changing
/// either database: the receiving person uses it (or not) like a value typed in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Note {
    /// NSU: a helper's die for `roller`'s roll, rolled on the helper's own device: their
    /// name, die and edge, and the face or faces it showed (two with an edge).
    NsuHelp { roller: Uuid, helper: RemoteHelper, faces: Vec<u8> },
}

impl Note {
    /// The character the note is for.
    pub fn to(&self) -> Uuid {
        match self {
            Note::NsuHelp { roller, .. } => *roller,
        }
    }
}

/// Checks a note a device sends at the hosted `game` and says which device it goes to
/// (`None`: a character no device plays, so the table's own). The sender must play a
/// character at the table; the note must be well formed for its game.
pub fn host_route_note(store: &Store, game: Uuid, device: Uuid, note: &Note) -> Result<Option<Uuid>> {
    let read = store.read();
    if owned_by(read, game, device)?.is_empty() {
        return Err(Error::invalid("note", "this device plays no character at this table yet"));
    }
    let to = match read.character(note.to())? {
        Some(c) if c.game_id == game => c,
        // Whatever else the id names on the host stays unsaid.
        _ => return Err(Error::invalid("note", "that character is not at this table")),
    };
    match note {
        Note::NsuHelp { helper, faces, .. } => {
            let sides = helper.die.sides();
            let wanted = if helper.edge == Edge::None { 1 } else { 2 };
            if faces.len() != wanted || faces.iter().any(|&f| f == 0 || f > sides) {
                return Err(Error::invalid(
                    "faces",
                    format!(
                        "a d{sides}{} shows {wanted} face(s) from 1 to {sides}",
                        if wanted == 2 { " with an edge" } else { "" }
                    ),
                ));
            }
            if helper.name.trim().is_empty() || helper.name.chars().count() > 100 {
                return Err(Error::invalid("name", "the helper's name is 1 to 100 characters"));
            }
        }
    }
    Ok(read.link_owners(game)?.into_iter().find(|(c, _)| *c == to.id).map(|(_, d)| d))
}

/// A change of one of this device's characters, waiting to go to the host.
#[derive(Clone, Debug)]
pub struct Pending {
    pub character: Uuid,
    pub name: String,
    /// The character's file document (kind "character"), as JSON.
    pub document: serde_json::Value,
    /// The host's digest this change was made on; `None` for a character made here.
    pub base: Option<String>,
    /// This device's digest of the character as sent.
    pub digest: String,
}

/// Changes the host accepted whose snapshot has not been applied yet, by character. Such a
/// character counts as agreed.
pub type Accepted = std::collections::HashMap<Uuid, Agreed>;

/// A change the host accepted: what this device sent, and the host's digest after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreed {
    /// This device's digest of the character as sent.
    pub local: String,
    /// The host's digest of the character once it applied the change (from the snapshot
    /// it sent just before its answer): the base of a next change made here before that
    /// snapshot is applied. `None` if the host's snapshot did not name the character.
    pub host: Option<String>,
}

/// A paired device, for the devices list.
#[derive(Clone, Debug, Serialize)]
pub struct PairedDevice {
    #[serde(flatten)]
    pub peer: Peer,
    pub game_name: Option<String>,
    /// At a hosted table: the characters the device plays.
    pub characters: Vec<Uuid>,
}

/// This device's identity on the local network, made with `generate` (a Noise key pair:
/// private, public) the first time.
pub fn link_identity(store: &mut Store, generate: impl FnOnce() -> (Vec<u8>, Vec<u8>)) -> Result<LinkIdentity> {
    if let Some(identity) = store.read().link_identity()? {
        return Ok(identity);
    }
    let (private_key, public_key) = generate();
    store.write(|tx| {
        // Another process may have made one meanwhile: the first one stays.
        if let Some(identity) = tx.read().link_identity()? {
            return Ok(identity);
        }
        let identity = LinkIdentity { device_id: Uuid::new_v4(), private_key, public_key };
        tx.put_link_identity(&identity)?;
        Ok(identity)
    })
}

// ---- the host ----

/// The characters `device` plays at the hosted `game`.
pub(super) fn owned_by(read: Reader<'_>, game: Uuid, device: Uuid) -> Result<Vec<Uuid>> {
    Ok(read.link_owners(game)?.into_iter().filter(|(_, d)| *d == device).map(|(c, _)| c).collect())
}

/// The snapshot of the hosted `game` for `device`: as the player of its characters sees it.
pub fn host_snapshot(store: &Store, game: Uuid, device: Uuid) -> Result<Snapshot> {
    store.snapshot(|read| snapshot_in(read, game, owned_by(read, game, device)?))
}

/// The paired, not removed device with `key` at the hosted `game`.
pub fn host_known_device(store: &Store, game: Uuid, key: &[u8]) -> Result<Option<Peer>> {
    Ok(store
        .read()
        .link_peers()?
        .into_iter()
        .find(|p| p.side == PeerSide::Host && p.game_id == game && p.public_key == key && p.removed_at.is_none()))
}

/// Whether a device with `key` was removed from the hosted `game` (it may pair again only
/// with a new code, which the host's person gives out).
pub fn host_removed_device(store: &Store, game: Uuid, key: &[u8]) -> Result<bool> {
    Ok(store
        .read()
        .link_peers()?
        .into_iter()
        .any(|p| p.side == PeerSide::Host && p.game_id == game && p.public_key == key && p.removed_at.is_some()))
}

/// Records a device that just paired with the hosted `game` using the code. A device is
/// its pinned key, not the id it says it has: an id already paired here with another key
/// (removed or not), or a key already paired under another id, is refused, so knowing a
/// device's id (it is no secret) never takes its place, characters or views.
pub fn host_pair(store: &mut Store, game: Uuid, device: Uuid, name: &str, key: &[u8]) -> Result<()> {
    let name = clean_device_name(name);
    store.write(|tx| {
        existing_game(tx.read(), game)?;
        let peers = tx.read().link_peers()?;
        let here = || peers.iter().filter(|p| p.side == PeerSide::Host && p.game_id == game);
        if here().any(|p| p.device_id == device && p.public_key != key) {
            return Err(Error::invalid(
                "device",
                "another device at this table already has this device's id; this pairing was refused",
            ));
        }
        if here().any(|p| p.device_id != device && p.public_key == key) {
            return Err(Error::invalid("device", "this device's key is paired under another id at this table"));
        }
        tx.put_link_peer(&Peer {
            device_id: device,
            game_id: game,
            side: PeerSide::Host,
            name,
            public_key: key.to_vec(),
            address: None,
            paired_at: Utc::now(),
            removed_at: None,
        })
    })
}

/// A device's name as it is shown: one line, at most 60 characters, never empty.
fn clean_device_name(name: &str) -> String {
    let name: String = name.chars().filter(|c| !c.is_control()).take(60).collect();
    let name = name.trim();
    if name.is_empty() {
        "A device".into()
    } else {
        name.into()
    }
}

/// The host's answer to a device's change or move: `Err(reason)` is a refusal the device's
/// player sees; nothing changed.
pub type Outcome = std::result::Result<(), String>;

fn refusal(e: Error) -> Outcome {
    Err(match e {
        Error::Invalid { problem, .. } => problem,
        Error::BadFile { problems, .. } => match problems.first() {
            Some(p) => format!("the change did not pass the table's checks: {p}"),
            None => "the change did not pass the table's checks".into(),
        },
        other => other.to_string(),
    })
}

/// A device's change of its character: validated like an import, applied only if the host's
/// copy is still `base` (the one the device changed) and the device plays that character.
pub fn host_apply_change(
    store: &mut Store,
    game: Uuid,
    device: Uuid,
    doc: &serde_json::Value,
    base: Option<&str>,
) -> Result<Outcome> {
    let record = match character_of(game, doc) {
        Ok(record) => record,
        Err(e) => return Ok(refusal(e)),
    };
    let id = record.character.id;
    let name = record.character.name.clone();
    let applied = store.write(|tx| {
        let read = tx.read();
        let owner = read.link_owners(game)?.into_iter().find(|(c, _)| *c == id).map(|(_, d)| d);
        match (read.character(id)?, owner) {
            (_, Some(other)) if other != device => {
                return Err(Error::invalid(
                    "character",
                    format!("“{name}” is played from another device at this table"),
                ))
            }
            (None, _) => {
                let mut record = record.clone();
                record.character.revision = 1;
                super::linked_change::check(read, game, None, &record)?;
                characters::insert(tx, &record)?;
                tx.set_link_owner(game, id, device)?;
                let change = super::log::Change { before: None, after: Some(record) };
                super::log::character_event(tx, EventKind::LinkedChange, game, id, &change, None)?;
                // A new character joins the game's world and table: the whole game is checked.
                games_still_export(tx.read(), [game], "this change")?;
            }
            (Some(_), None) => {
                return Err(Error::invalid(
                    "character",
                    format!("the table already has “{name}”; ask the table's device to give it to you"),
                ))
            }
            (Some(current), Some(_)) => {
                if current.game_id != game {
                    return Err(Error::invalid("character", format!("“{name}” plays in another game here")));
                }
                let before = characters::load(read, id)?;
                // The character as this device was sent it: its digest is the base a change
                // is made on, and what the device could not see is kept as it is.
                let viewer = Viewer::Player(owned_by(read, game, device)?);
                let shown = super::replica::character_for(&before, &viewer);
                if same_content(&shown, &record) {
                    // Already applied: the device sends it again after a crash, before it
                    // heard the answer.
                    return Ok(());
                }
                if base != Some(record_digest(&shown).as_str()) {
                    return Err(Error::invalid(
                        "character",
                        format!(
                            "“{name}” was changed at the table meanwhile; your change was not applied and is kept \
                             on your device"
                        ),
                    ));
                }
                let mut after = keep_hidden(&before, record.clone(), &viewer)?;
                after.character.created_at = before.character.created_at;
                super::linked_change::check(read, game, Some(&before), &after)?;
                characters::save(tx, EventKind::LinkedChange, before, after)?;
                character_still_exports(tx.read(), id, "this change")?;
            }
        }
        Ok(())
    });
    Ok(applied.or_else(refusal))
}

/// A device's change of its `character` at the hosted `game` sent as a JSON Patch `ops` on
/// the host's version with digest `base`: the patch makes the character's document from the
/// host's copy of it, which then passes the same checks as a whole document would.
pub fn host_apply_edit(
    store: &mut Store,
    game: Uuid,
    device: Uuid,
    character: Uuid,
    base: &str,
    ops: &serde_json::Value,
) -> Result<Outcome> {
    let document = match store.snapshot(|read| {
        let viewer = Viewer::Player(owned_by(read, game, device)?);
        super::link_copy::host_edit_document(read, game, character, &viewer, ops)
    }) {
        Ok(document) => document,
        Err(e) => return Ok(refusal(e)),
    };
    host_apply_change(store, game, device, &document, Some(base))
}

/// `after`, a whole character sent by a device whose viewer is `viewer`: what that viewer
/// could not see of `before` (an NSU sheet's private rumours and notes, audit D10) kept as
/// it is; a private line sent by a device that could not read them is refused.
fn keep_hidden(before: &CharacterRecord, mut after: CharacterRecord, viewer: &Viewer) -> Result<CharacterRecord> {
    if viewer.sees_character(before.character.id) {
        return Ok(after);
    }
    if let (Some(held), Some(sent)) = (&before.nsu, after.nsu.take()) {
        let kept = crate::rules::nsu::Sheet::keep_private(held, sent)
            .map_err(|p| Error::invalid(&p.path, format!("{}: {}; the change was not applied", p.path, p.message)))?;
        after.nsu = Some(kept);
    }
    Ok(after)
}

/// Whether two versions of a character hold the same things, whatever their revision and
/// time stamps say.
fn same_content(a: &CharacterRecord, b: &CharacterRecord) -> bool {
    let plain = |r: &CharacterRecord| {
        let mut r = r.clone();
        r.character.revision = 0;
        r.character.created_at = chrono::DateTime::UNIX_EPOCH;
        r.character.updated_at = chrono::DateTime::UNIX_EPOCH;
        r
    };
    plain(a) == plain(b)
}

/// The one character of a character document sent for the hosted `game`.
fn character_of(game: Uuid, doc: &serde_json::Value) -> Result<CharacterRecord> {
    let text = doc.to_string();
    let parsed = exchange::parse(text.as_bytes())
        .map_err(|problems| Error::BadFile { file: Path::new("the change").into(), problems })?;
    let [entry] = parsed.games.as_slice() else {
        return Err(Error::invalid("change", "a change holds exactly one game"));
    };
    if parsed.kind != Kind::Character || entry.game.id != game {
        return Err(Error::invalid("change", "a change holds one character of this table's game"));
    }
    let [record] = entry.characters.as_slice() else {
        return Err(Error::invalid("change", "a change holds exactly one character"));
    };
    if record.character.game_id != game {
        return Err(Error::invalid("change", "the character plays in another game"));
    }
    Ok(record.clone())
}

/// What becomes of a device's claim of a character at the hosted table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimCheck {
    /// The device plays it already (it made it here, or the claim was approved).
    Yours,
    /// No device plays it: the host's person decides (`host_claim` once they approve).
    Ask {
        character_name: String,
        device_name: String,
    },
    Refused(String),
}

/// What a device may ask to play at the hosted `game`, by name: one of its characters or, at
/// a Mezzo table, one of its players (a player is a viewer in their own right: the device
/// sits as them, claim or no claim, and sees their hand). None: nothing of this table.
fn claimable(read: Reader<'_>, game: Uuid, id: Uuid) -> Result<Option<String>> {
    if let Some(c) = read.character(id)? {
        return Ok((c.game_id == game).then_some(c.name));
    }
    Ok(read.mezzo_table(game)?.players.into_iter().find(|p| p.id == id).map(|p| p.name))
}

/// A device asks to play `character` at the hosted `game`: nothing changes here. Claims are
/// not first come, first served: a character no device plays (an absent player's, the
/// table's own) goes to a device only when the host's person approves.
pub fn host_claim_check(store: &Store, game: Uuid, device: Uuid, character: Uuid) -> Result<ClaimCheck> {
    store.snapshot(|read| {
        let Some(name) = claimable(read, game, character)? else {
            return Ok(ClaimCheck::Refused("that character is not at this table".into()));
        };
        Ok(match read.link_owners(game)?.into_iter().find(|(id, _)| *id == character) {
            Some((_, d)) if d == device => ClaimCheck::Yours,
            Some(_) => ClaimCheck::Refused(format!("“{name}” is played from another device")),
            None => {
                let device_name = read
                    .link_peers()?
                    .into_iter()
                    .find(|p| p.side == PeerSide::Host && p.game_id == game && p.device_id == device)
                    .map_or_else(|| "A device".to_string(), |p| p.name);
                ClaimCheck::Ask { character_name: name, device_name }
            }
        })
    })
}

/// Records that `device` plays `character` at the hosted `game` (a claim the host's person
/// approved, of a character already at the table that no other device plays).
pub fn host_claim(store: &mut Store, game: Uuid, device: Uuid, character: Uuid) -> Result<Outcome> {
    let done = store.write(|tx| {
        let Some(name) = claimable(tx.read(), game, character)? else {
            return Err(Error::invalid("character", "that character is not at this table"));
        };
        match tx.read().link_owners(game)?.into_iter().find(|(id, _)| *id == character) {
            Some((_, d)) if d == device => Ok(()),
            Some(_) => Err(Error::invalid("character", format!("“{name}” is played from another device"))),
            None => tx.set_link_owner(game, character, device),
        }
    });
    Ok(done.or_else(refusal))
}

/// A device's move at the table, run through the host's services as the player of its
/// characters.
pub fn host_apply_move<R: Rng>(
    store: &mut Store,
    game: Uuid,
    device: Uuid,
    mv: &GameMove,
    rng: &mut R,
) -> Result<Outcome> {
    let owned = owned_by(store.read(), game, device)?;
    match mv {
        GameMove::PennyChallenge { mv, dice } => {
            let table = store.read().penny_table(game)?;
            let Some(challenge) = table.challenge.as_ref() else {
                return Ok(Err("there is no challenge at the table now".into()));
            };
            let plays =
                mv.side().is_some_and(|side| super::penny_ante::sees_side(&Viewer::Player(owned), challenge, side));
            if !plays {
                return Ok(Err(
                    "that move is for a side this device does not play; make it on the table's device".into()
                ));
            }
            Ok(super::penny_challenge_move(store, game, mv.clone(), dice, rng).map(|_| ()).or_else(refusal))
        }
        GameMove::DiceTray { expression, faces, character } => {
            if owned.is_empty() {
                return Ok(Err("this device plays no character at this table yet".into()));
            }
            if character.is_some_and(|c| !owned.contains(&c)) {
                return Ok(Err("that character is played from another device".into()));
            }
            Ok(super::dice_tray::dice_tray_entered(store, game, *character, expression, faces)
                .map(|_| ())
                .or_else(refusal))
        }
        GameMove::MezzoCard { mv } => {
            let holders = hand_holders_for(store.read(), game, &Viewer::Player(owned))?;
            if !holders.contains(&mv.player()) {
                return Ok(Err("those cards are another player's: this device does not sit as them".into()));
            }
            Ok(super::mezzo_card_move(store, game, mv, rng).map(|_| ()).or_else(refusal))
        }
        GameMove::MezzoBallot { player, casts } => {
            let holders = hand_holders_for(store.read(), game, &Viewer::Player(owned))?;
            if !holders.contains(player) {
                return Ok(Err("that ballot is another player's: this device does not sit as them".into()));
            }
            // The field stays in the reason ("casts[0].points: …"): the phone shows it by the cast.
            Ok(super::mezzo_cast_ballot(store, game, *player, casts).map(|_| ()).map_err(ballot_refusal))
        }
        GameMove::MezzoCheckBallot { player, casts } => {
            let holders = hand_holders_for(store.read(), game, &Viewer::Player(owned))?;
            if !holders.contains(player) {
                return Ok(Err("that ballot is another player's: this device does not sit as them".into()));
            }
            Ok(super::mezzo_cast_check_ballot(store, game, *player, casts).map(|_| ()).map_err(ballot_refusal))
        }
    }
}

/// A ballot's refusal: an invalid cast keeps its field ("casts[0].points: …"), which the
/// phone shows by the cast; anything else is said as any move's refusal.
fn ballot_refusal(e: Error) -> String {
    match e {
        Error::Invalid { .. } => e.to_string(),
        other => refusal(other).err().unwrap_or_default(),
    }
}

// ---- a joined device ----

/// This device's identity for joining: the stored one, or a new one made with `generate`
/// and kept only in memory until a pairing succeeds (a wrong code changes nothing here).
pub fn joining_identity(store: &Store, generate: impl FnOnce() -> (Vec<u8>, Vec<u8>)) -> Result<LinkIdentity> {
    if let Some(identity) = store.read().link_identity()? {
        return Ok(identity);
    }
    let (private_key, public_key) = generate();
    Ok(LinkIdentity { device_id: Uuid::new_v4(), private_key, public_key })
}

/// Records the host this device paired with for `game` (and this device's identity, the
/// first time).
pub fn joined_pair(
    store: &mut Store,
    identity: &LinkIdentity,
    game: Uuid,
    host: Uuid,
    name: &str,
    key: &[u8],
    address: &str,
) -> Result<()> {
    let name = clean_device_name(name);
    store.write(|tx| {
        if tx.read().link_identity()?.is_none() {
            tx.put_link_identity(identity)?;
        }
        tx.put_link_peer(&Peer {
            device_id: host,
            game_id: game,
            side: PeerSide::Joined,
            name,
            public_key: key.to_vec(),
            address: Some(address.chars().take(100).collect()),
            paired_at: Utc::now(),
            removed_at: None,
        })
    })
}

/// The hosts this device paired with (and did not leave), the one last reached at
/// `address` first.
pub fn joined_hosts(store: &Store, address: &str) -> Result<Vec<Peer>> {
    let mut peers: Vec<Peer> = store
        .read()
        .link_peers()?
        .into_iter()
        .filter(|p| p.side == PeerSide::Joined && p.removed_at.is_none())
        .collect();
    peers.sort_by_key(|p| p.address.as_deref() != Some(address));
    Ok(peers)
}

/// The changes made here to the linked `game`'s characters since they were last agreed with
/// the host. A change to a character another device plays cannot go to the host: it is kept
/// as refused (with the reason), and is returned: the host's version of it must be brought
/// back (the caller applies it again from its latest snapshot).
///
/// `others`: also look at the characters other devices play (reading every one of them);
/// otherwise only this device's own and those made here are read, so a change costs what
/// this device plays, not the game.
pub fn joined_pending(
    store: &mut Store,
    game: Uuid,
    accepted: &Accepted,
    others: bool,
) -> Result<(Vec<Pending>, Vec<Uuid>)> {
    // Most looks find only changes to send: they read, and take the write lock (which the
    // window may be waiting for) only when a change must be kept as refused.
    let found = store.snapshot(|read| changes_here(read, game, accepted, others))?;
    if !found.iter().any(|f| matches!(f, Found::Refused { .. })) {
        let pending = found.into_iter().filter_map(|f| if let Found::Send(p) = f { Some(p) } else { None });
        return Ok((pending.collect(), Vec::new()));
    }
    store.write(|tx| {
        let mut pending = Vec::new();
        let mut restore = Vec::new();
        for found in changes_here(tx.read(), game, accepted, others)? {
            match found {
                Found::Send(p) => pending.push(p),
                Found::Refused { record, json, digest, base } => {
                    keep_refused(
                        tx,
                        game,
                        &record,
                        &json,
                        "this character is played from another device; the change made here was not sent",
                    )?;
                    // Agreed again as it is now, so it is kept once; the host's version comes back.
                    tx.put_link_base(game, &Base { local_digest: digest, ..base })?;
                    restore.push(record.character.id);
                }
            }
        }
        Ok((pending, restore))
    })
}

/// A change made here since the host last agreed: one to send, or one to another device's
/// character, which cannot be sent.
enum Found {
    Send(Pending),
    Refused { record: Box<CharacterRecord>, json: serde_json::Value, digest: String, base: Base },
}

/// The changes made here to the linked `game`'s characters (see `joined_pending`).
fn changes_here(read: Reader<'_>, game: Uuid, accepted: &Accepted, others: bool) -> Result<Vec<Found>> {
    let bases = read.link_bases(game)?;
    if read.game(game)?.is_none() {
        return Ok(Vec::new()); // not linked yet: nothing was agreed
    }
    let mut found = Vec::new();
    for c in read.characters_of(game)? {
        let base = bases.iter().find(|b| b.character_id == c.id);
        if !others && base.is_some_and(|b| !b.owned) {
            continue;
        }
        let record = characters::load(read, c.id)?;
        let digest = record_digest(&record);
        let changed = base.is_none_or(|b| b.local_digest != digest);
        let agreed = accepted.get(&c.id);
        if !changed || agreed.is_some_and(|a| a.local == digest) {
            continue;
        }
        let doc = document(read, ExportScope::Character(c.id))?;
        let json: serde_json::Value =
            serde_json::from_slice(&exchange::to_json(&doc)).expect("documents always serialize");
        found.push(match base {
            Some(b) if !b.owned => Found::Refused { record: Box::new(record), json, digest, base: b.clone() },
            _ => Found::Send(Pending {
                character: c.id,
                name: c.name.clone(),
                document: json,
                // A change made after one the host accepted (its snapshot not applied yet)
                // builds on the host's version with that change in it.
                base: agreed.and_then(|a| a.host.clone()).or_else(|| base.map(|b| b.host_digest.clone())),
                digest,
            }),
        });
    }
    Ok(found)
}

fn keep_refused(
    tx: &Tx<'_>,
    game: Uuid,
    record: &CharacterRecord,
    json: &serde_json::Value,
    reason: &str,
) -> Result<()> {
    tx.put_link_refused(&Refused {
        id: Uuid::new_v4(),
        game_id: game,
        character_id: record.character.id,
        name: record.character.name.clone(),
        reason: reason.chars().take(2000).collect(),
        record: json.clone(),
        at: Utc::now(),
    })
}

/// The host refused a change this device sent: keep it with the reason, and agree again on
/// the character as it is here, so it is not sent again. The host answers a refusal with a
/// fresh snapshot, which brings its version back; the refused change stays listed until
/// dismissed.
pub fn joined_refused(store: &mut Store, game: Uuid, pending: &Pending, reason: &str) -> Result<()> {
    store.write(|tx| {
        let read = tx.read();
        if read.character(pending.character)?.is_none() {
            return Ok(());
        }
        let record = characters::load(read, pending.character)?;
        keep_refused(tx, game, &record, &pending.document, reason)?;
        let base = read.link_bases(game)?.into_iter().find(|b| b.character_id == pending.character);
        let local_digest = record_digest(&record);
        let base = match base {
            Some(b) => Base { local_digest, ..b },
            // Made here and refused: not this device's at the table.
            None => Base { character_id: pending.character, host_digest: "0".repeat(64), local_digest, owned: false },
        };
        tx.put_link_base(game, &base)
    })
}

/// Applies the host's snapshot of `game`: validated like an import and imported over what
/// is here, in one transaction, unless a change made here is still waiting for the host
/// (then nothing changes and `false` is returned: the host's answer brings the next one).
pub fn joined_apply_snapshot(
    store: &mut Store,
    game: Uuid,
    snapshot: &Snapshot,
    changed: &Changed,
    accepted: &Accepted,
) -> Result<bool> {
    if let Changed::Characters(ids) = changed {
        return joined_apply_characters(store, game, snapshot, ids, accepted);
    }
    let text = snapshot.document.to_string();
    let doc: Document = exchange::parse(text.as_bytes())
        .map_err(|problems| Error::BadFile { file: Path::new("the table's snapshot").into(), problems })?;
    let [entry] = doc.games.as_slice() else {
        return Err(Error::link("the table's snapshot does not hold exactly one game"));
    };
    if doc.kind != Kind::Game || entry.game.id != game {
        return Err(Error::link("the table's snapshot is not of this table's game"));
    }
    let in_doc: HashSet<Uuid> = entry.characters.iter().map(|c| c.character.id).collect();
    if in_doc.iter().any(|id| !snapshot.digests.contains_key(id))
        || snapshot.owned.iter().any(|id| !in_doc.contains(id))
    {
        return Err(Error::link("the table's snapshot does not name its characters consistently"));
    }
    let players = entry.mezzo_table.as_ref().map(|t| t.players.as_slice()).unwrap_or_default();
    seats_at(players, &snapshot.seats)?;
    not_of_other_games(store.read(), game, &entry.characters)?;
    let options = ImportOptions { as_copy: false, replace_conflicts: true };
    let applied = import_document(
        store,
        Path::new("the table's snapshot"),
        &doc,
        options,
        |tx| Ok(!has_unsent(tx.read(), game, accepted)?),
        |tx| {
            let read = tx.read();
            for id in &in_doc {
                let local_digest = record_digest(&characters::load(read, *id)?);
                let owned = snapshot.owned.contains(id);
                let host_digest = snapshot.digests[id].clone();
                tx.put_link_base(game, &Base { character_id: *id, host_digest, local_digest, owned })?;
                tx.set_mine(*id, owned)?;
            }
            tx.set_mezzo_seats(game, &snapshot.seats)?;
            tx.set_device_role(game, DeviceRole::Player)
        },
    )?;
    Ok(applied.is_some())
}

/// A snapshot's seats are players at its table, each named once (checked like an import).
fn seats_at(players: &[crate::rules::mezzo::element::Player], seats: &[Uuid]) -> Result<()> {
    let once: HashSet<&Uuid> = seats.iter().collect();
    if once.len() != seats.len() || seats.iter().any(|s| !players.iter().any(|p| p.id == *s)) {
        return Err(Error::link("the table's snapshot seats this device as someone who is not a player at its table"));
    }
    Ok(())
}

/// Applies the characters `ids` of the host's snapshot, the rest of which this device holds
/// already: validated as a file of them, written in one transaction with their bases, unless
/// a change made here is still waiting for the host (then `false`, and nothing changes).
fn joined_apply_characters(
    store: &mut Store,
    game: Uuid,
    snapshot: &Snapshot,
    ids: &BTreeSet<Uuid>,
    accepted: &Accepted,
) -> Result<bool> {
    if snapshot.owned.iter().any(|id| !snapshot.digests.contains_key(id)) {
        return Err(Error::link("the table's snapshot does not name its characters consistently"));
    }
    let records = if ids.is_empty() { Vec::new() } else { characters_of_snapshot(game, snapshot, ids)? };
    not_of_other_games(store.read(), game, &records)?;
    store.write(|tx| {
        if has_unsent(tx.read(), game, accepted)? {
            return Ok(false);
        }
        // The table is as the last whole snapshot left it: the seats are its players.
        seats_at(&tx.read().mezzo_table(game)?.players, &snapshot.seats)?;
        tx.set_mezzo_seats(game, &snapshot.seats)?;
        for record in records {
            let id = record.character.id;
            let mine = match tx.read().character(id)? {
                Some(_) => Some(characters::load(tx.read(), id)?),
                None => None,
            };
            let written = match &mine {
                None => {
                    characters::insert(tx, &record)?;
                    record
                }
                // The same things: as an import, nothing is written (the time stamps here stay).
                Some(m) if same_content(m, &record) => m.clone(),
                Some(m) => {
                    let mut record = record;
                    if record.character.revision <= m.character.revision {
                        // As an import's conflict: the table wins, as a change made after both.
                        let c = &mut record.character;
                        c.revision = characters::next_revision(c.revision.max(m.character.revision))?;
                    }
                    characters::update(tx, &record)?;
                    let change = super::log::Change { before: mine.clone(), after: Some(record.clone()) };
                    super::log::character_event(tx, EventKind::CharacterImported, game, id, &change, None)?;
                    record
                }
            };
            let owned = snapshot.owned.contains(&id);
            let host_digest = snapshot.digests[&id].clone();
            let local_digest = record_digest(&written);
            tx.put_link_base(game, &Base { character_id: id, host_digest, local_digest, owned })?;
            tx.set_mine(id, owned)?;
        }
        Ok(true)
    })
}

/// A snapshot never moves or overwrites what is not its game: a character in it that this
/// device keeps in another game (a host's hostile choice of ids, or the Gamemaster who
/// imported a player's character file and then hosted) stops the snapshot, with a reason
/// the person can act on. Nothing changes here. (A world's cards, clocks and NPCs in
/// another game are refused by the import's own plan.)
fn not_of_other_games(read: Reader<'_>, game: Uuid, characters: &[CharacterRecord]) -> Result<()> {
    for c in characters {
        let Some(here) = read.character(c.character.id)? else { continue };
        if here.game_id == game {
            continue;
        }
        let other = read.game(here.game_id)?.map_or_else(|| "another game".into(), |g| format!("“{}”", g.name));
        return Err(Error::invalid(
            "snapshot",
            format!(
                "the table's “{}” has the same id as “{}” in your game {other} on this device, so the table's game \
                 was not brought in and nothing here changed. To join, copy “{}” within {other} and delete the \
                 original (or ask the table's device to import the character's file as a copy), then join again",
                c.character.name, here.name, here.name
            ),
        ));
    }
    Ok(())
}

/// Whether this device may bring the hosted `game` in: not when it already has a game of
/// that id of its own, one it never joined at a table (a snapshot would overwrite it).
pub fn joined_may_take(store: &Store, game: Uuid) -> Result<()> {
    let read = store.read();
    let Some(here) = read.game(game)? else { return Ok(()) };
    if read.link_joined_ever(game)? {
        return Ok(());
    }
    Err(Error::invalid(
        "game",
        format!(
            "this device has a game “{}” of its own with the id of the table's game; it was not touched. To join, \
             export it and delete it here (or ask the table's device to host a copy), then join again",
            here.name
        ),
    ))
}

/// Whether a change made here to one of this device's characters in `game` has not been
/// agreed with the host yet.
fn has_unsent(read: Reader<'_>, game: Uuid, accepted: &Accepted) -> Result<bool> {
    let bases = read.link_bases(game)?;
    // A table without characters has no bases: a character made here is still unsent.
    for c in read.characters_of(game)? {
        let base = bases.iter().find(|b| b.character_id == c.id);
        if base.is_some_and(|b| !b.owned) {
            continue; // another device's: a change here to it is never sent
        }
        let digest = record_digest(&characters::load(read, c.id)?);
        match base {
            Some(b) if b.local_digest == digest => {}
            _ if accepted.get(&c.id).is_some_and(|a| a.local == digest) => {}
            _ => return Ok(true),
        }
    }
    Ok(false)
}

// ---- what a person sees and does ----

/// The devices paired with this one (in `game`, or in every game), removed ones too.
pub fn link_devices(store: &Store, game: Option<Uuid>) -> Result<Vec<PairedDevice>> {
    store.snapshot(|read| {
        let mut out = Vec::new();
        for peer in read.link_peers()?.into_iter().filter(|p| game.is_none_or(|g| g == p.game_id)) {
            let characters = match peer.side {
                PeerSide::Host => owned_by(read, peer.game_id, peer.device_id)?,
                PeerSide::Joined => Vec::new(),
            };
            let game_name = read.game(peer.game_id)?.map(|g| g.name);
            out.push(PairedDevice { peer, game_name, characters });
        }
        Ok(out)
    })
}

/// Removes a paired device. At a table this device hosts: that device cannot reconnect
/// with its key (it may pair again only with a code the host's person gives it), and its
/// characters stay at the table, played by no device. A table this device joined: it leaves
/// that table for good and may change the game on its own again.
pub fn link_unpair(store: &mut Store, device: Uuid) -> Result<Done> {
    store.write(|tx| {
        let peers: Vec<Peer> = tx.read().link_peers()?.into_iter().filter(|p| p.device_id == device).collect();
        let Some(peer) = peers.first() else {
            return Err(Error::NotFound { what: "paired device", id: device.to_string() });
        };
        if tx.remove_link_peer(device, now())? == 0 {
            return Ok(Done::new(format!("“{}” was already removed.", peer.name)));
        }
        Ok(Done::new(match peer.side {
            PeerSide::Host => format!("“{}” was removed; it cannot reconnect without a new code.", peer.name),
            PeerSide::Joined => {
                format!(
                    "This device left the table “{}”; the game here is yours to change again. It stays as the \
                     table showed it: what the table kept from this device is held as stand-ins, so the game is \
                     not exported as a game (your characters are).",
                    peer.name
                )
            }
        }))
    })
}

/// The feed's cards of the hosted `game` after `since` for `device`: as the viewer of the
/// characters it plays sees them (a Penny Ante cup stays a cup; the House's secrets stay out).
pub fn host_feed(store: &Store, game: Uuid, device: Uuid, since: i64) -> Result<Vec<super::FeedCard>> {
    let owned = owned_by(store.read(), game, device)?;
    super::feed_for(store, game, &Viewer::Player(owned), since)
}

/// The changes the host refused in `game`, kept here with its reasons.
pub fn link_refused(store: &Store, game: Uuid) -> Result<Vec<Refused>> {
    store.read().link_refused(game)
}

/// Forgets a refused change (the person read it and let it go).
pub fn link_dismiss_refused(store: &mut Store, id: Uuid) -> Result<Done> {
    store.write(|tx| match tx.delete_link_refused(id)? {
        0 => Err(Error::NotFound { what: "refused change", id: id.to_string() }),
        _ => Ok(Done::new("The refused change was dismissed.")),
    })
}

/// On a device that joined the game at a linked table: the roll made here, as the tray shows
/// it, and the move that asks the table's device to log it (`GameMove::DiceTray`). Nothing is
/// written here: the game's log is the table's.
pub fn dice_tray_roll_here<R: Rng>(
    store: &Store,
    game: Uuid,
    character: Option<Uuid>,
    expression: &str,
    rng: &mut R,
) -> Result<(GameMove, TrayEntry)> {
    let roll = rules::dice_tray::roll(&rules::dice_tray::parse(expression)?, rng);
    let entry = super::dice_tray::unlogged(store.read(), game, character, roll)?;
    let faces = entry.roll.dice.iter().map(|d| d.face).collect();
    Ok((GameMove::DiceTray { expression: entry.roll.expression.clone(), faces, character }, entry))
}
