//! A device's copy of the hosted game, and what changed in it.
//!
//! The host keeps, per device, the copy it sent last: the device's snapshot (its viewer's
//! redacted game document, the host's digest of each character, the device's characters)
//! as JSON, with the SHA-256 of that JSON. When the game changes it sends what changed as a
//! JSON Patch (RFC 6902, the `json-patch` crate) from that copy to the new one, with both
//! digests. Redaction happens before the diff: a patch holds only values of the new copy,
//! which holds nothing its viewer may not see.
//!
//! The work per change follows the change: the event log says what changed since the copy
//! was made. When only characters changed (their sheets, names, notes, a linked change),
//! and the device plays the same characters, only those are read again and patched into the
//! copy; anything else (the game itself, its world or table, a character added or removed,
//! an undo) makes the copy again whole and diffs it.
//!
//! The device applies a patch to the copy it holds and checks the result's digest; a patch
//! that does not apply or ends elsewhere makes it ask for the whole snapshot (`resync`). A
//! patch that touched only characters is validated and applied for those characters only,
//! as a character file of them would be; anything else is validated and imported whole.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use json_patch::PatchOperation;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::characters;
use super::link_snapshot::{record_digest, snapshot_in, Snapshot};
use super::viewer::Viewer;
use crate::error::{Error, Result};
use crate::exchange::{self, Kind};
use crate::rules::penny_ante::ledger::{Account, Entry, Ledger};
use crate::rules::record::CharacterRecord;
use crate::store::{EventKind, Reader, Store};

/// The most operations one patch may hold: past it the whole snapshot is sent, and a patch
/// with more is refused.
pub const MAX_PATCH_OPS: usize = 10_000;
/// The largest copy a device keeps: as large as a file an import reads.
const MAX_COPY: usize = exchange::MAX_FILE_BYTES as usize;

/// Where a copy's characters are.
const CHARACTERS: &str = "/document/data/games/0/characters";

/// What changed in a copy, as the host sends it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CopyPatch {
    /// The digest of the copy the patch applies to.
    pub base: String,
    /// The JSON Patch (an array of add, remove and replace operations).
    pub ops: Value,
    /// The digest of the copy after it.
    pub digest: String,
}

/// Where a snapshot's document lists the characters.
const IN_DOCUMENT: &str = "/data/games/0/characters";

/// One part of a copy: the SHA-256 of it as JSON, and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    hash: [u8; 32],
    len: usize,
}

impl Part {
    fn of<T: Serialize + ?Sized>(value: &T) -> Part {
        let bytes = serde_json::to_vec(value).expect("copies always serialize");
        Part { hash: Sha256::digest(&bytes).into(), len: bytes.len() }
    }
}

/// A device's copy of the game: a [`Snapshot`], with its digest. The digest is SHA-256 over
/// the hashes of the copy's parts — the document without its characters, the host's
/// digests, the device's characters, and each character in order — so a patch of one
/// character hashes that character again, not the game.
#[derive(Clone, Debug)]
pub struct Copy {
    snapshot: Snapshot,
    rest: Part,
    digests: Part,
    owned: Part,
    characters: Vec<Part>,
    digest: String,
}

/// The parts of a copy a patch touched.
#[derive(Default)]
struct Touched {
    rest: bool,
    digests: bool,
    owned: bool,
    /// All the characters (the list itself changed).
    all: bool,
    /// Characters by position.
    characters: BTreeSet<usize>,
}

impl Copy {
    /// A whole snapshot, as sent or received.
    pub fn new(snapshot: Snapshot) -> Copy {
        let mut copy = Copy {
            snapshot,
            rest: Part::of(&()),
            digests: Part::of(&()),
            owned: Part::of(&()),
            characters: Vec::new(),
            digest: String::new(),
        };
        copy.rehash(&Touched { rest: true, digests: true, owned: true, all: true, characters: BTreeSet::new() });
        copy
    }

    /// A copy of a snapshot (which stays the caller's).
    pub fn of(snapshot: &Snapshot) -> Copy {
        Copy::new(snapshot.clone())
    }

    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The snapshot this copy is.
    pub fn view(&self) -> &Snapshot {
        &self.snapshot
    }

    /// Its size as JSON, near enough to choose between a patch and the whole.
    fn len(&self) -> usize {
        self.rest.len + self.digests.len + self.owned.len + self.characters.iter().map(|p| p.len).sum::<usize>()
    }

    fn characters(&self) -> &[Value] {
        self.snapshot.document.pointer(IN_DOCUMENT).and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }

    /// The character `id` as the copy holds it, if the host's digest of it is `digest`.
    fn character_at(&self, id: Uuid, digest: &str) -> Option<&Value> {
        if self.snapshot.digests.get(&id).map(String::as_str) != Some(digest) {
            return None;
        }
        let id = id.to_string();
        self.characters().iter().find(|c| c.get("id").and_then(Value::as_str) == Some(id.as_str()))
    }

    /// Hashes again the parts `touched` names, and the digest.
    fn rehash(&mut self, touched: &Touched) {
        if touched.rest {
            // The document without its characters: they are parts of their own.
            let list = self.snapshot.document.pointer_mut(IN_DOCUMENT).map(std::mem::take);
            self.rest = Part::of(&self.snapshot.document);
            if let (Some(list), Some(slot)) = (list, self.snapshot.document.pointer_mut(IN_DOCUMENT)) {
                *slot = list;
            }
        }
        if touched.digests {
            self.digests = Part::of(&self.snapshot.digests);
        }
        if touched.owned {
            // The Mezzo players the device sits as count with the characters it plays (as
            // before when it sits as nobody, so such a copy's digest is what it was).
            self.owned = match self.snapshot.seats.is_empty() {
                true => Part::of(&self.snapshot.owned),
                false => Part::of(&(&self.snapshot.owned, &self.snapshot.seats)),
            };
        }
        if touched.all {
            self.characters = self.characters().iter().map(Part::of).collect();
        } else {
            for &i in &touched.characters {
                let part = self.characters().get(i).map(Part::of);
                if let (Some(part), Some(slot)) = (part, self.characters.get_mut(i)) {
                    *slot = part;
                }
            }
        }
        let mut h = Sha256::new();
        for part in [&self.rest, &self.digests, &self.owned].into_iter().chain(&self.characters) {
            h.update(part.hash);
        }
        self.digest = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    }

    /// Applies `ops` (paths into the snapshot: `/document/…`, `/digests/…`, `/owned/…`,
    /// `/seats/…`) and
    /// hashes again what they touched. On an error the copy is left half changed: the
    /// caller drops it.
    fn apply(&mut self, ops: &[PatchOperation]) -> Result<()> {
        let mut on_document = Vec::new();
        let mut on_digests = Vec::new();
        let mut on_lists = Vec::new();
        let mut touched = Touched::default();
        for op in ops {
            let path = op.path().to_string();
            if let Some(inner) = path.strip_prefix("/document") {
                if !(inner.is_empty() || inner.starts_with('/')) {
                    return Err(Error::invalid("patch", format!("“{path}” is no part of a copy")));
                }
                touch(&mut touched, inner);
                on_document.push(rebased(op, inner));
            } else if let Some(key) = path.strip_prefix("/digests/") {
                // One character's digest: set in the map itself, not through JSON.
                touched.digests = true;
                on_digests.push((key.to_string(), op));
            } else if path == "/digests" {
                touched.digests = true;
                on_lists.push(op.clone());
            } else if path == "/owned" || path.starts_with("/owned/") || path == "/seats" || path.starts_with("/seats/")
            {
                touched.owned = true;
                on_lists.push(op.clone());
            } else {
                return Err(Error::invalid("patch", format!("“{path}” is no part of a copy")));
            }
        }
        let bad = |e: json_patch::PatchError| Error::invalid("patch", format!("it does not apply ({e})"));
        json_patch::patch_unsafe(&mut self.snapshot.document, &on_document).map_err(bad)?;
        for (key, op) in on_digests {
            let bad = || Error::invalid("patch", format!("“/digests/{key}” does not apply to the copy's digests"));
            let id = Uuid::parse_str(&key).map_err(|_| bad())?;
            let digests = &mut self.snapshot.digests;
            match op {
                PatchOperation::Add(add) => {
                    digests.insert(id, add.value.as_str().ok_or_else(bad)?.to_string());
                }
                PatchOperation::Replace(replace) if digests.contains_key(&id) => {
                    digests.insert(id, replace.value.as_str().ok_or_else(bad)?.to_string());
                }
                PatchOperation::Remove(_) if digests.remove(&id).is_some() => {}
                _ => return Err(bad()),
            }
        }
        if !on_lists.is_empty() {
            let mut lists = serde_json::json!({
                "digests": &self.snapshot.digests,
                "owned": &self.snapshot.owned,
                "seats": &self.snapshot.seats,
            });
            json_patch::patch_unsafe(&mut lists, &on_lists).map_err(bad)?;
            let bad = |e: serde_json::Error| Error::invalid("patch", format!("the copy's lists do not read ({e})"));
            self.snapshot.digests = serde_json::from_value(lists["digests"].take()).map_err(bad)?;
            self.snapshot.owned = serde_json::from_value(lists["owned"].take()).map_err(bad)?;
            // A snapshot that seats the device as nobody leaves `seats` out: removed, it is empty.
            let seats = lists.get_mut("seats").map(Value::take).filter(|v| !v.is_null());
            self.snapshot.seats = seats.map(serde_json::from_value).transpose().map_err(bad)?.unwrap_or_default();
        }
        self.rehash(&touched);
        Ok(())
    }
}

/// Where an operation on the document (at `inner`, relative to it) lands.
enum Slot {
    /// Inside the character at this position of the list.
    Character(usize),
    /// The list itself: a character added, removed or replaced whole.
    List,
    /// Beside the list.
    Rest,
    /// A part that holds the list (the document, its data, the game).
    Around,
}

fn slot(inner: &str) -> Slot {
    match inner.strip_prefix(IN_DOCUMENT) {
        Some(rest) => match rest.strip_prefix('/').and_then(|r| r.split_once('/')).map(|(i, _)| i.parse()) {
            Some(Ok(i)) => Slot::Character(i),
            _ => Slot::List,
        },
        None if IN_DOCUMENT.starts_with(inner) => Slot::Around,
        None => Slot::Rest,
    }
}

/// Marks what an operation on the document at `inner` touches.
fn touch(touched: &mut Touched, inner: &str) {
    match slot(inner) {
        Slot::Character(i) => {
            touched.characters.insert(i);
        }
        // (A key beside the list that starts like it reads as the list: both, to be safe.)
        Slot::List | Slot::Around => {
            touched.all = true;
            touched.rest = true;
        }
        Slot::Rest => touched.rest = true,
    }
}

/// The operation `op` with its path (and `from`) made `inner`: relative to the document.
fn rebased(op: &PatchOperation, inner: &str) -> PatchOperation {
    let mut json = serde_json::to_value(op).expect("operations always serialize");
    json["path"] = Value::String(inner.to_string());
    serde_json::from_value(json).expect("a path is a path")
}

/// What the host sent one device last, and what it was made from.
#[derive(Clone, Debug)]
pub struct SentCopy {
    copy: Copy,
    /// The newest event of the game it shows.
    seq: i64,
    /// The device's characters.
    owned: Vec<Uuid>,
    /// The game's characters, in the document's order.
    order: Vec<Uuid>,
}

impl SentCopy {
    pub fn digest(&self) -> &str {
        &self.copy.digest
    }
}

/// What goes to a device.
#[derive(Clone, Debug)]
pub enum CopyUpdate {
    /// Nothing changed.
    Same,
    Whole(Snapshot),
    Patch(CopyPatch),
}

/// The events that change one character's record and nothing else of the game.
fn one_character_only(kind: Option<EventKind>) -> bool {
    matches!(
        kind,
        Some(
            EventKind::SheetEdited
                | EventKind::CharacterRenamed
                | EventKind::CharacterNotesEdited
                | EventKind::LinkedChange
        )
    )
}

/// The characters changed since event `seq` (none when no event was logged since), or
/// `None` if something else of the game changed.
fn characters_touched(read: Reader<'_>, game: Uuid, seq: i64) -> Result<Option<BTreeSet<Uuid>>> {
    let mut touched = BTreeSet::new();
    for (kind, character) in read.events_since(game, seq)? {
        match character {
            Some(id) if one_character_only(kind) => {
                touched.insert(id);
            }
            _ => return Ok(None),
        }
    }
    Ok(Some(touched))
}

/// One device in a round of updates: what it was sent last (if the host still knows it),
/// and whether it gets an update even if nothing changed.
pub struct Due {
    pub device: Uuid,
    pub last: Option<SentCopy>,
    pub force: bool,
}

/// The update for `device` at the hosted `game` after `last` (what it was sent last, if
/// the host still knows it): the patch from it, the whole snapshot when that is smaller or
/// there is no `last`, or nothing when nothing changed (unless `force`). Returns what the
/// device holds after it.
pub fn host_copy(
    store: &Store,
    game: Uuid,
    device: Uuid,
    last: Option<SentCopy>,
    force: bool,
) -> Result<(SentCopy, CopyUpdate)> {
    let mut round = host_copies(store, game, vec![Due { device, last, force }], true)?;
    let (_, sent, update) = round.pop().expect("one update per device");
    Ok((sent, update))
}

/// The updates of a round, one per device `due`, from one reading of the database: what the
/// devices share (the log since their copies, the characters read again, a whole snapshot
/// of the same viewer) is read once. `unlogged`: the database may have been written without
/// logging an event (by another process) since the copies were made, so a copy with no event
/// since is made again whole; else no event since means nothing changed.
pub fn host_copies(
    store: &Store,
    game: Uuid,
    due: Vec<Due>,
    unlogged: bool,
) -> Result<Vec<(Uuid, SentCopy, CopyUpdate)>> {
    store.snapshot(|read| {
        let owners = read.link_owners(game)?;
        let seq = read.last_event_of_game(game)?;
        let order: Vec<Uuid> = read.characters_of(game)?.into_iter().map(|c| c.id).collect();
        let mut shared =
            Shared { read, game, touched: HashMap::new(), records: HashMap::new(), snapshots: HashMap::new() };
        let mut out = Vec::with_capacity(due.len());
        for Due { device, last, force } in due {
            let owned: Vec<Uuid> = owners.iter().filter(|(_, d)| *d == device).map(|(c, _)| *c).collect();
            let (sent, update) = shared.update(last, owned, seq, &order, force, unlogged)?;
            out.push((device, sent, update));
        }
        Ok(out)
    })
}

/// What the devices of a round share, read once.
struct Shared<'r> {
    read: Reader<'r>,
    game: Uuid,
    /// The characters touched since an event (see `characters_touched`).
    touched: HashMap<i64, Option<BTreeSet<Uuid>>>,
    /// Characters read again, by id and whether the device plays it: as a copy holds them,
    /// and the host's digest.
    records: HashMap<(Uuid, bool), (Value, String)>,
    /// Whole snapshots by the characters their viewer plays.
    snapshots: HashMap<Vec<Uuid>, Snapshot>,
}

impl Shared<'_> {
    fn snapshot(&mut self, owned: &[Uuid]) -> Result<Snapshot> {
        if let Some(s) = self.snapshots.get(owned) {
            return Ok(s.clone());
        }
        let snapshot = snapshot_in(self.read, self.game, owned.to_vec())?;
        self.snapshots.insert(owned.to_vec(), snapshot.clone());
        Ok(snapshot)
    }

    fn touched(&mut self, since: i64) -> Result<Option<BTreeSet<Uuid>>> {
        if let Some(t) = self.touched.get(&since) {
            return Ok(t.clone());
        }
        let t = characters_touched(self.read, self.game, since)?;
        self.touched.insert(since, t.clone());
        Ok(t)
    }

    /// Character `id` as a device that plays `owned` holds it (another player's NSU
    /// private lines left out: `replica::character_for`), and the digest of that.
    fn record(&mut self, id: Uuid, owned: &[Uuid]) -> Result<&(Value, String)> {
        let key = (id, owned.contains(&id));
        if !self.records.contains_key(&key) {
            let stored = characters::load(self.read, id)?;
            let record = super::replica::character_for(&stored, &Viewer::Player(owned.to_vec()));
            self.records.insert(key, (exchange::character_value(&record), record_digest(&record)));
        }
        Ok(&self.records[&key])
    }

    fn update(
        &mut self,
        last: Option<SentCopy>,
        owned: Vec<Uuid>,
        seq: i64,
        order: &[Uuid],
        force: bool,
        unlogged: bool,
    ) -> Result<(SentCopy, CopyUpdate)> {
        let Some(mut last) = last else {
            let snapshot = self.snapshot(&owned)?;
            let sent = SentCopy { copy: Copy::new(snapshot.clone()), seq, owned, order: order.to_vec() };
            return Ok((sent, CopyUpdate::Whole(snapshot)));
        };
        let touched = match last.owned == owned && last.order == order {
            true => self.touched(last.seq)?.filter(|t| !(unlogged && t.is_empty())),
            false => None,
        };
        let base = last.copy.digest.clone();
        let ops = match touched.map(|t| self.character_ops(&last, &t)).transpose()?.flatten() {
            Some(ops) => ops,
            None => {
                let mut snapshot = self.snapshot(&owned)?;
                // The moment a copy was made is no news.
                if let (Some(then), Some(now)) =
                    (last.copy.snapshot.document.get("exported_at"), snapshot.document.get_mut("exported_at"))
                {
                    *now = then.clone();
                }
                let before = serde_json::to_value(&last.copy.snapshot).expect("snapshots always serialize");
                let after = serde_json::to_value(&snapshot).expect("snapshots always serialize");
                let ops = json_patch::diff(&before, &after).0;
                let sent = SentCopy { copy: Copy::new(snapshot), seq, owned, order: order.to_vec() };
                return Ok(finish(&base, sent, ops, force));
            }
        };
        // The host's copy changes by the very operations the device gets.
        last.copy.apply(&ops)?;
        let sent = SentCopy { copy: last.copy, seq, owned, order: order.to_vec() };
        Ok(finish(&base, sent, ops, force))
    }

    /// The operations that read the characters `touched` again into the copy `last`; `None`
    /// if the copy does not hold them where the game lists them.
    fn character_ops(&mut self, last: &SentCopy, touched: &BTreeSet<Uuid>) -> Result<Option<Vec<PatchOperation>>> {
        let mut ops = Vec::new();
        for id in touched {
            let Some(i) = last.order.iter().position(|c| c == id) else { return Ok(None) };
            let Some(old) = last.copy.characters().get(i) else { return Ok(None) };
            let (value, digest) = self.record(*id, &last.owned)?;
            ops.extend(prefixed(&format!("{CHARACTERS}/{i}"), json_patch::diff(old, value).0));
            if last.copy.snapshot.digests.get(id) != Some(digest) {
                let replace =
                    serde_json::json!([{ "op": "replace", "path": format!("/digests/{id}"), "value": digest }]);
                ops.extend(serde_json::from_value::<Vec<PatchOperation>>(replace).expect("a replace is an operation"));
            }
        }
        Ok(Some(ops))
    }
}

/// The operations of a patch made on a part of a document, as operations on the document.
fn prefixed(at: &str, ops: Vec<PatchOperation>) -> Vec<PatchOperation> {
    let json = serde_json::to_value(&ops).expect("patches always serialize");
    let Value::Array(mut ops) = json else { unreachable!("a patch is an array") };
    for op in &mut ops {
        if let Some(Value::String(path)) = op.get_mut("path") {
            *path = format!("{at}{path}");
        }
    }
    serde_json::from_value(Value::Array(ops)).expect("prefixed paths are paths")
}

fn finish(base: &str, sent: SentCopy, ops: Vec<PatchOperation>, force: bool) -> (SentCopy, CopyUpdate) {
    if sent.copy.digest == base && !force {
        return (sent, CopyUpdate::Same);
    }
    let patch = (ops.len() <= MAX_PATCH_OPS)
        .then(|| serde_json::to_value(&ops).expect("patches always serialize"))
        .filter(|ops| serde_json::to_vec(ops).map_or(usize::MAX, |b| b.len()) < sent.copy.len());
    let update = match patch {
        Some(ops) => CopyUpdate::Patch(CopyPatch { base: base.to_string(), ops, digest: sent.copy.digest.clone() }),
        None => CopyUpdate::Whole(sent.copy.snapshot.clone()),
    };
    (sent, update)
}

/// Reads a patch from the other device: add, remove and replace operations only (a copy or
/// a move could make a small message grow without bound), at most `MAX_PATCH_OPS`.
fn checked_ops(ops: &Value) -> Result<Vec<PatchOperation>> {
    let Value::Array(list) = ops else { return Err(Error::invalid("patch", "a patch is a list of operations")) };
    if list.len() > MAX_PATCH_OPS {
        return Err(Error::invalid("patch", format!("a patch holds at most {MAX_PATCH_OPS} operations")));
    }
    let ops: Vec<PatchOperation> = serde_json::from_value(ops.clone())
        .map_err(|e| Error::invalid("patch", format!("an operation is not one of JSON Patch's ({e})")))?;
    if let Some(op) = ops
        .iter()
        .find(|op| !matches!(op, PatchOperation::Add(_) | PatchOperation::Remove(_) | PatchOperation::Replace(_)))
    {
        return Err(Error::invalid("patch", format!("“{op}” is not an operation a patch may hold here")));
    }
    Ok(ops)
}

// ---- a joined device ----

/// What a patch from the host changed in this device's copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Changed<T = BTreeSet<Uuid>> {
    /// The game itself, its world or table, or which characters it holds.
    Whole,
    /// Only these characters (and the host's digests of them).
    Characters(T),
}

impl Changed {
    /// What changed in two updates applied one after the other.
    pub fn and(self, other: Changed) -> Changed {
        match (self, other) {
            (Changed::Characters(mut a), Changed::Characters(b)) => {
                a.extend(b);
                Changed::Characters(a)
            }
            _ => Changed::Whole,
        }
    }
}

/// The copy `held` with the host's `patch` applied, and what it changed. An error means the
/// copy here is not the one the patch was made for, or the patch is not one: the device
/// drops its copy, asks for the whole snapshot, and nothing here changed.
pub fn joined_patch(held: Copy, patch: &CopyPatch) -> Result<(Copy, Changed)> {
    if patch.base != held.digest {
        return Err(Error::link("the table's change was made on another copy than this device's"));
    }
    let ops = checked_ops(&patch.ops)?;
    let before = what_changed(&held, &ops);
    let mut copy = held;
    copy.apply(&ops)?;
    if copy.len() > MAX_COPY {
        return Err(Error::invalid("patch", "the table's copy would grow past what a file may hold"));
    }
    if copy.digest != patch.digest {
        return Err(Error::link("the table's change did not end where the table said"));
    }
    // Each character touched inside is still the one it was.
    let changed = match before {
        Changed::Characters(at) => {
            let mut ids = BTreeSet::new();
            for (i, id) in at {
                match copy.characters().get(i).and_then(|c| c.get("id")).and_then(Value::as_str) {
                    Some(now) if now == id.to_string() => {
                        ids.insert(id);
                    }
                    _ => return Ok((copy, Changed::Whole)),
                }
            }
            Changed::Characters(ids)
        }
        Changed::Whole => Changed::Whole,
    };
    Ok((copy, changed))
}

/// Which characters (by position, with their ids before) the operations touched inside, or
/// `Whole` if they touched anything else but the digests and the moment the copy was made.
fn what_changed(before: &Copy, ops: &[PatchOperation]) -> Changed<Vec<(usize, Uuid)>> {
    let mut touched = Vec::new();
    for op in ops {
        let path = op.path().to_string();
        if path.starts_with("/digests/") || path == "/document/exported_at" {
            continue;
        }
        let Some(Slot::Character(i)) = path.strip_prefix("/document").map(slot) else { return Changed::Whole };
        let id = before.characters().get(i).and_then(|c| c.get("id")).and_then(Value::as_str);
        match id.map(Uuid::parse_str) {
            Some(Ok(id)) => touched.push((i, id)),
            _ => return Changed::Whole,
        }
    }
    Changed::Characters(touched)
}

/// The characters `ids` of a snapshot, each validated as its character file would be (the
/// game, the character, and for Penny Ante its pile and ledger entries from the table):
/// what the patch left alone was validated with the copy it came in.
pub(super) fn characters_of_snapshot(
    game: Uuid,
    snapshot: &Snapshot,
    ids: &BTreeSet<Uuid>,
) -> Result<Vec<CharacterRecord>> {
    let broken = || Error::link("the table's copy does not name its characters consistently");
    if ids.iter().any(|id| !snapshot.digests.contains_key(id)) {
        return Err(broken());
    }
    let Value::Object(document) = &snapshot.document else { return Err(broken()) };
    let Some(Value::Object(entry)) = snapshot.document.pointer("/data/games/0") else { return Err(broken()) };
    let Some(Value::Array(all)) = entry.get("characters") else { return Err(broken()) };
    let ledger = entry.get("penny_table").and_then(|t| t.pointer("/ledger/entries")).and_then(Value::as_array);
    let mut records = Vec::new();
    for id in ids {
        let text = id.to_string();
        let Some(character) = all.iter().find(|c| c.get("id").and_then(Value::as_str) == Some(&text)) else {
            return Err(broken());
        };
        let mut character = character.clone();
        if let (Some(ledger), Value::Object(fields)) = (ledger, &mut character) {
            let (pile, entries) = pile_of(ledger, *id)?;
            fields.insert("penny_pile".into(), pile.into());
            fields.insert("penny_ledger".into(), entries);
        }
        let mut game_part: serde_json::Map<String, Value> = entry
            .iter()
            .filter(|(k, _)| {
                !matches!(k.as_str(), "characters" | "nsu_world" | "penny_table" | "mezzo_table" | "scattershot_table")
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        game_part.insert("characters".into(), Value::Array(vec![character]));
        let mut file: serde_json::Map<String, Value> =
            document.iter().filter(|(k, _)| *k != "data").map(|(k, v)| (k.clone(), v.clone())).collect();
        file.insert("kind".into(), "character".into());
        file.insert("data".into(), serde_json::json!({ "games": [Value::Object(game_part)] }));
        let bytes = serde_json::to_vec(&Value::Object(file)).expect("JSON values always serialize");
        let doc = exchange::parse(&bytes)
            .map_err(|problems| Error::BadFile { file: Path::new("the table's change").into(), problems })?;
        let [entry] = doc.games.as_slice() else { return Err(broken()) };
        let [record] = entry.characters.as_slice() else { return Err(broken()) };
        if doc.kind != Kind::Character || entry.game.id != game || record.character.id != *id {
            return Err(Error::link("the table's change is not of this table's game"));
        }
        records.push(record.clone());
    }
    Ok(records)
}

/// A Penny Ante character's pile and ledger entries, as its character file carries them,
/// from the entries of the table's ledger (as JSON).
fn pile_of(ledger: &[Value], character: Uuid) -> Result<(i64, Value)> {
    let account = Account::Character(character);
    let key = serde_json::to_value(account).expect("accounts always serialize");
    let touching: Vec<Value> =
        ledger.iter().filter(|e| e.get("from") == Some(&key) || e.get("to") == Some(&key)).cloned().collect();
    let entries: Vec<Entry> = serde_json::from_value(Value::Array(touching.clone()))
        .map_err(|e| Error::link(format!("the table's ledger does not read ({e})")))?;
    Ok((Ledger { entries, debts: Vec::new(), handed_over: Vec::new() }.pile(&account), Value::Array(touching)))
}

/// The change of one of this device's characters as a patch on the host's version it was
/// made from (in `held`, the copy the host sent), when that is smaller than the character's
/// whole document. `document`: the character's file document as it is here.
pub fn joined_edit(held: Option<&Copy>, character: Uuid, base: &str, document: &Value) -> Option<Value> {
    let from = held?.character_at(character, base)?;
    let mut to = document.pointer("/data/games/0/characters/0")?.clone();
    if let Value::Object(fields) = &mut to {
        // A character file's own: the game file lists the pile in its table.
        fields.remove("penny_pile");
        fields.remove("penny_ledger");
    }
    let ops = serde_json::to_value(json_patch::diff(from, &to).0).ok()?;
    let smaller = serde_json::to_vec(&ops).ok()?.len() < serde_json::to_vec(document).ok()?.len();
    smaller.then_some(ops)
}

/// The character file document a device's patch `ops` of `character` makes of the host's
/// version of it: what `host_apply_change` then checks like any change. An error names
/// what is wrong with the patch; nothing changes.
pub(super) fn host_edit_document(
    read: Reader<'_>,
    game: Uuid,
    character: Uuid,
    viewer: &Viewer,
    ops: &Value,
) -> Result<Value> {
    match read.character(character)? {
        Some(c) if c.game_id == game => {}
        _ => return Err(Error::invalid("character", "that character is not at this table")),
    }
    let ops = checked_ops(ops)?;
    if let Some(op) = ops.iter().find(|op| {
        let path = op.path().to_string();
        path.starts_with("/penny_pile") || path.starts_with("/penny_ledger")
    }) {
        return Err(Error::invalid(
            "patch",
            format!("“{}”: a character's pennies change only by the table's moves", op.path()),
        ));
    }
    // The patch was made on the character as the device (`viewer`) holds it (`Shared::record`).
    let record = super::replica::character_for(&characters::load(read, character)?, viewer);
    let mut edited = exchange::character_value(&record);
    json_patch::patch_unsafe(&mut edited, &ops)
        .map_err(|e| Error::invalid("patch", format!("it does not apply ({e})")))?;
    if edited.get("id").and_then(Value::as_str) != Some(character.to_string().as_str()) {
        return Err(Error::invalid("id", "a change may not give a character another id"));
    }
    let doc = super::transfer::document(read, super::transfer::ExportScope::Character(character))?;
    let mut document: Value = serde_json::from_slice(&exchange::to_json(&doc)).expect("documents always serialize");
    let Some(Value::Object(slot)) = document.pointer_mut("/data/games/0/characters/0") else {
        return Err(Error::invalid("character", "that character is not at this table"));
    };
    let (pile, ledger) = (slot.remove("penny_pile"), slot.remove("penny_ledger"));
    let Value::Object(mut fields) = edited else {
        return Err(Error::invalid("patch", "a character is an object"));
    };
    fields.remove("penny_pile");
    fields.remove("penny_ledger");
    fields.extend(pile.map(|p| ("penny_pile".to_string(), p)));
    fields.extend(ledger.map(|l| ("penny_ledger".to_string(), l)));
    *slot = fields;
    Ok(document)
}
