//! Hosting a game: listening while hosting, pairing devices with the code, serving each
//! device its snapshot, and running their changes and moves through the services in the
//! order they arrive (one database connection, one change at a time).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::Rng;
use serde::Serialize;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch, Notify, Semaphore};
use uuid::Uuid;

use super::wire::{self, Channel, Frames, HandshakeError, Opening, OpeningReply, ToDevice, ToHost, PROTOCOL};
use super::{lock, Running};
use crate::error::{Error, Result};
use crate::services::{self, Note};
use crate::store::LinkIdentity;
use crate::Store;

/// Wrong codes allowed before the code is replaced by a new one.
pub const TRIES_PER_CODE: u32 = 3;
/// Codes replaced after wrong tries before pairing pauses until the host's person opens it
/// again: a guesser gets `TRIES_PER_CODE × CODES_BEFORE_PAUSE` tries (9 in 10⁶) per opening.
pub const CODES_BEFORE_PAUSE: u32 = 3;
/// How long the first wrong code waits before its answer; each next one waits twice as
/// long, up to `WRONG_CODE_PAUSE_MAX` (it holds the one pairing at a time meanwhile).
const WRONG_CODE_PAUSE: Duration = Duration::from_millis(800);
const WRONG_CODE_PAUSE_MAX: Duration = Duration::from_secs(5);
/// How long a device has to finish the opening and handshake.
const HANDSHAKE_TIME: Duration = Duration::from_secs(10);
/// A device silent this long is gone (joined devices ping every few seconds).
const SILENCE: Duration = Duration::from_secs(20);
/// Connections at once (a table has a handful of devices; this bounds a flood).
const MAX_CONNECTIONS: usize = 32;
/// How often the host looks for changes made to its database by others (its window, the CLI).
const WATCH_EVERY: Duration = Duration::from_millis(100);

/// What to host.
#[derive(Clone, Debug)]
pub struct HostConfig {
    pub db: PathBuf,
    pub game: Uuid,
    pub listen: SocketAddr,
    /// The name devices see (the host device's name).
    pub name: String,
}

/// The host as the window or the CLI shows it.
#[derive(Clone, Debug, Serialize)]
pub struct HostStatus {
    pub game: Uuid,
    pub listen: String,
    /// The code a new device pairs with, as shown ("123-456").
    pub code: String,
    /// The devices connected now.
    pub online: Vec<Uuid>,
    /// Wrong codes tried against the current code.
    pub wrong_tries: u32,
    /// Wrong codes tried since pairing was last opened (what the host's person is told).
    pub wrong_codes: u32,
    /// Pairing is paused after too many wrong codes: only paired devices come in until the
    /// host's person opens it again (`open_pairing`).
    pub pairing_paused: bool,
    /// Bumps when the code is replaced (after too many wrong tries).
    pub code_number: u32,
    /// Notes devices sent the table (for characters no device plays).
    pub inbox: Vec<super::Inbound>,
    /// Devices asking to play a character no device plays, waiting for the host's person.
    pub claims: Vec<ClaimRequest>,
    /// Characters and games devices sent the table, until imported or put away.
    pub gifts: Vec<services::Gift>,
}

/// A device asks to play a character at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimRequest {
    pub device: Uuid,
    pub device_name: String,
    pub character: Uuid,
    pub character_name: String,
}

/// A running host. Dropping it (or `stop`) ends the link: every device is told and keeps
/// its data.
pub struct HostHandle {
    status: Arc<Mutex<HostStatus>>,
    host: Arc<Host>,
    running: Running,
}

impl HostHandle {
    /// Opens the database, listens, and returns once devices can connect. The host runs on
    /// a thread of its own with its own runtime, so this may be called from any thread,
    /// an async runtime's included.
    pub fn start(config: HostConfig) -> Result<HostHandle> {
        let mut store = Store::open(&config.db)?;
        let game = services::list(&store)?
            .into_iter()
            .find(|g| g.game.id == config.game)
            .ok_or_else(|| Error::NotFound { what: "game", id: config.game.to_string() })?;
        let identity = services::link_identity(&mut store, wire::generate_keypair)?;
        let (stop, stopped) = watch::channel(false);
        let (ready, listening) = std::sync::mpsc::channel();
        let status = Arc::new(Mutex::new(HostStatus {
            game: config.game,
            listen: String::new(),
            code: new_code(),
            online: Vec::new(),
            wrong_tries: 0,
            wrong_codes: 0,
            pairing_paused: false,
            code_number: 1,
            inbox: Vec::new(),
            claims: Vec::new(),
            gifts: Vec::new(),
        }));
        let host = Arc::new(Host {
            game: config.game,
            game_name: game.game.name.clone(),
            system: game.game.system,
            name: config.name,
            identity,
            store: Mutex::new(store),
            status: status.clone(),
            devices: Mutex::new(HashMap::new()),
            pairing: Semaphore::new(1),
            copies: Mutex::new(HashMap::new()),
            fed: Mutex::new(HashMap::new()),
            changed: Notify::new(),
            unlogged: AtomicBool::new(false),
            connections: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            stopped,
        });
        let listen = config.listen;
        let shared = host.clone();
        let thread = std::thread::Builder::new()
            .name("sheetkeeper-host".into())
            .spawn(move || {
                let started = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| Error::link(format!("the link could not start: {e}")))
                    .and_then(|runtime| {
                        let listener = runtime
                            .block_on(TcpListener::bind(listen))
                            .map_err(|e| Error::link(format!("could not listen on {listen}: {e}")))?;
                        Ok((runtime, listener))
                    });
                match started {
                    Ok((runtime, listener)) => {
                        let _ = ready.send(listener.local_addr().map_err(|e| Error::link(e.to_string())));
                        runtime.block_on(serve(host, listener));
                    }
                    Err(e) => {
                        let _ = ready.send(Err(e));
                    }
                }
            })
            .map_err(|e| Error::link(format!("the link could not start: {e}")))?;
        let mut handle = HostHandle { status, host: shared, running: Running { stop, thread: Some(thread) } };
        match listening.recv() {
            Ok(Ok(addr)) => {
                lock(&handle.status).listen = addr.to_string();
                Ok(handle)
            }
            Ok(Err(e)) => {
                handle.running.finish();
                Err(e)
            }
            Err(_) => {
                handle.running.finish();
                Err(Error::link("the link could not start"))
            }
        }
    }

    pub fn status(&self) -> HostStatus {
        lock(&self.status).clone()
    }

    /// Takes a note out of the table's inbox (used or dismissed).
    pub fn take_note(&self, id: Uuid) -> Result<super::Inbound> {
        super::take_from_inbox(&mut lock(&self.status).inbox, id)
    }

    /// Takes a file a device sent out of the table's list (imported or put away).
    pub fn take_gift(&self, id: Uuid) -> Result<services::Gift> {
        services::take_gift(&mut lock(&self.status).gifts, id)
    }

    /// "Give to a device": sends `device`, linked now, the file `file` (a character's or a
    /// game's, as `services::gift_file` makes it) for its person to look at and import.
    pub fn give(&self, device: Uuid, file: String) -> Result<()> {
        if file.len() + 1024 > wire::MAX_MESSAGE {
            return Err(Error::invalid(
                "gift",
                "this file is larger than the link carries; export it to a file instead",
            ));
        }
        let devices = lock(&self.host.devices);
        let linked = devices
            .values()
            .find(|l| l.device == device)
            .ok_or_else(|| Error::invalid("device", "that device is not linked right now"))?;
        let _ = linked.outgoing.send(Outgoing::Given(self.host.name.clone(), file));
        Ok(())
    }

    /// Opens pairing again after it paused: a new code, the wrong codes forgotten.
    pub fn open_pairing(&self) {
        let mut status = lock(&self.status);
        status.pairing_paused = false;
        status.wrong_codes = 0;
        replace_code(&mut status);
    }

    /// The host's person lets `device` play `character` (it asked to): from now on its
    /// changes of the character are accepted and it sees the character's private things.
    pub fn approve_claim(&self, device: Uuid, character: Uuid) -> Result<()> {
        self.take_claim(device, character)?;
        let game = self.host.game;
        let mut store = lock(&self.host.store);
        match services::host_claim(&mut store, game, device, character)? {
            Ok(()) => {
                drop(store);
                self.host.refresh_all();
                Ok(())
            }
            Err(reason) => Err(Error::invalid("claim", reason)),
        }
    }

    /// The host's person says no: the device is told, nothing changes.
    pub fn decline_claim(&self, device: Uuid, character: Uuid) -> Result<()> {
        let request = self.take_claim(device, character)?;
        let reason = format!("the table declined your claim on “{}”", request.character_name);
        if let Some(linked) = lock(&self.host.devices).values().find(|l| l.device == device) {
            let _ = linked.outgoing.send(Outgoing::Declined(character, reason));
        }
        Ok(())
    }

    fn take_claim(&self, device: Uuid, character: Uuid) -> Result<ClaimRequest> {
        let mut status = lock(&self.status);
        match status.claims.iter().position(|c| c.device == device && c.character == character) {
            Some(i) => Ok(status.claims.remove(i)),
            None => Err(Error::NotFound { what: "claim", id: character.to_string() }),
        }
    }

    /// "The hosted game just changed" (through the services, which log what they change):
    /// the devices get it now, not at the next look (the window calls it after each of its
    /// writes; other processes' writes are found within `WATCH_EVERY`).
    pub fn nudge(&self) {
        self.host.refresh_all();
    }

    /// Ends the link cleanly: every device is told; the listener closes.
    pub fn stop(mut self) {
        self.running.finish();
    }
}

/// The name `device` was paired under at `game` ("A device" if it is not listed).
fn device_name(store: &Store, game: Uuid, device: Uuid) -> Result<String> {
    Ok(services::link_devices(store, Some(game))?
        .into_iter()
        .find(|d| d.peer.device_id == device)
        .map_or_else(|| "A device".to_string(), |d| d.peer.name))
}

/// A six-digit code, shown as "123-456".
fn new_code() -> String {
    let n: u32 = rand::rng().random_range(0..1_000_000);
    format!("{:03}-{:03}", n / 1000, n % 1000)
}

/// A device connected now.
struct Linked {
    device: Uuid,
    /// Messages for it from elsewhere than its own requests, in the order they are sent.
    outgoing: mpsc::UnboundedSender<Outgoing>,
}

/// What reaches a linked device from elsewhere than its own requests.
enum Outgoing {
    /// What changed in its copy (a patch or the whole snapshot).
    Update(ToDevice),
    /// A note from another device: (the sender's name, the note).
    Note(String, Note),
    /// The host's person declined its claim of this character, for this reason.
    Declined(Uuid, String),
    /// A file the host's person gives it: (the host's name, the file).
    Given(String, String),
    /// It was removed from the table: it is told, and the connection ends.
    Removed,
}

/// Which devices a round of updates is for.
#[derive(Clone, Copy)]
enum Round {
    /// Every linked device; `forced` gets an update even if nothing changed in its copy
    /// (a device that just made a change: the answer follows its update).
    All { forced: Option<Uuid> },
    /// One device, always sent an update; `fresh`: the whole snapshot, whatever the host
    /// knows of its copy (it asked for it).
    One { device: Uuid, fresh: bool },
}

struct Host {
    game: Uuid,
    game_name: String,
    system: crate::model::System,
    name: String,
    identity: LinkIdentity,
    store: Mutex<Store>,
    status: Arc<Mutex<HostStatus>>,
    /// Connected devices: connection number → device and its outgoing messages.
    devices: Mutex<HashMap<u64, Linked>>,
    /// Connections at once, handshaking or linked: more are turned away.
    connections: Arc<Semaphore>,
    /// One pairing at a time, so guesses cannot run in parallel.
    pairing: Semaphore,
    /// What each device was sent last (kept when it goes away): its next update is what
    /// changed since, when it comes back holding that copy. Changed only by rounds, which
    /// run one at a time under the database's lock.
    copies: Mutex<HashMap<Uuid, services::SentCopy>>,
    /// The place in the game's log of the last feed card each device was sent (kept when it
    /// goes away, so it is not sent the same cards again). Changed only by rounds.
    fed: Mutex<HashMap<Uuid, i64>>,
    /// "The game changed": a round of updates for every device is due. Notifications
    /// coalesce, so changes in quick succession make one round.
    changed: Notify,
    /// Another process wrote to the database since the last round for every device (it may
    /// not have logged what it changed).
    unlogged: AtomicBool,
    stopped: watch::Receiver<bool>,
}

impl Host {
    /// Runs `f` on the database off the async thread.
    async fn db<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let host = self.clone();
        tokio::task::spawn_blocking(move || f(&mut lock(&host.store)))
            .await
            .map_err(|_| Error::link("the host's database task failed"))?
    }

    fn refresh_all(&self) {
        self.changed.notify_one();
    }

    /// Queues `out` for every connection of `device`.
    fn tell(&self, device: Uuid, out: impl Fn() -> Outgoing) {
        for linked in lock(&self.devices).values().filter(|l| l.device == device) {
            let _ = linked.outgoing.send(out());
        }
    }

    /// A round of updates: each device of `round` is sent what changed in its copy, all
    /// from one reading of the database (what they share is read once), and a device no
    /// longer paired is told to go. Updates are queued in the order rounds run, so a device
    /// never gets a patch before the one it builds on.
    async fn round(self: &Arc<Self>, round: Round) -> Result<()> {
        let unlogged = matches!(round, Round::All { .. }) && self.unlogged.swap(false, Ordering::SeqCst);
        let host = self.clone();
        let done = self
            .db(move |s| {
                let game = host.game;
                let linked: BTreeSet<Uuid> = lock(&host.devices).values().map(|l| l.device).collect();
                let paired: HashSet<Uuid> = services::link_devices(s, Some(game))?
                    .into_iter()
                    .filter(|d| d.peer.removed_at.is_none())
                    .map(|d| d.peer.device_id)
                    .collect();
                let mut copies = lock(&host.copies);
                let mut due = Vec::new();
                for device in linked {
                    let force = match round {
                        Round::All { forced } => forced == Some(device),
                        Round::One { device: one, .. } if one == device => true,
                        Round::One { .. } => continue,
                    };
                    if !paired.contains(&device) {
                        host.tell(device, || Outgoing::Removed);
                        continue;
                    }
                    // A device that asked for the whole snapshot gets it, whatever copy the host kept.
                    let last = copies.remove(&device).filter(|_| !matches!(round, Round::One { fresh: true, .. }));
                    due.push(services::Due { device, last, force });
                }
                let devices: Vec<Uuid> = due.iter().map(|d| d.device).collect();
                for (device, sent, update) in services::host_copies(s, game, due, unlogged)? {
                    copies.insert(device, sent);
                    let msg = match update {
                        services::CopyUpdate::Same => continue,
                        services::CopyUpdate::Whole(snapshot) => ToDevice::Snapshot { snapshot },
                        services::CopyUpdate::Patch(patch) => ToDevice::Patch { patch },
                    };
                    host.tell(device, || Outgoing::Update(msg.clone()));
                }
                // After its copy: the feed's new cards, which may name what the copy brought.
                let mut fed = lock(&host.fed);
                for device in devices {
                    let since = fed.get(&device).copied().unwrap_or(0);
                    let cards = services::host_feed(s, game, device, since)?;
                    let Some(last) = cards.last().map(|c| c.seq) else { continue };
                    fed.insert(device, last);
                    let msg = ToDevice::Feed { cards };
                    host.tell(device, || Outgoing::Update(msg.clone()));
                }
                Ok(())
            })
            .await;
        if done.is_err() && unlogged {
            self.unlogged.store(true, Ordering::SeqCst);
        }
        done
    }

    /// Passes a device's note to the device that plays its character, or to the table's
    /// inbox when no device does.
    async fn pass_note(self: &Arc<Self>, device: Uuid, note: Note) -> Result<services::Outcome> {
        let game = self.game;
        let checked = note.clone();
        let routed = self
            .db(move |s| {
                let from = device_name(s, game, device)?;
                Ok(services::host_route_note(s, game, device, &checked).map(|to| (from, to)))
            })
            .await?;
        let (from, to) = match routed {
            Ok(routed) => routed,
            Err(Error::Invalid { problem, .. }) => return Ok(Err(problem)),
            Err(e) => return Ok(Err(e.to_string())),
        };
        match to {
            None => {
                super::add_to_inbox(&mut lock(&self.status).inbox, from, note);
                Ok(Ok(()))
            }
            Some(to) => {
                let devices = lock(&self.devices);
                let Some(linked) = devices.values().find(|l| l.device == to) else {
                    return Ok(Err("that character's device is not linked right now".into()));
                };
                let _ = linked.outgoing.send(Outgoing::Note(from, note));
                Ok(Ok(()))
            }
        }
    }

    /// A file `device` sent the table: checked like an import, then kept for the host's
    /// person; refused with the reason when it is not a file this app imports.
    async fn receive_gift(self: &Arc<Self>, device: Uuid, file: String) -> Result<services::Outcome> {
        let game = self.game;
        let from = self.db(move |s| device_name(s, game, device)).await?;
        match services::receive_gift(&from, file) {
            Ok(gift) => {
                services::keep_gift(&mut lock(&self.status).gifts, gift);
                Ok(Ok(()))
            }
            Err(Error::Invalid { problem, .. }) => Ok(Err(problem)),
            Err(e) => Ok(Err(e.to_string())),
        }
    }

    fn online(&self) {
        let online = lock(&self.devices).values().map(|l| l.device).collect();
        lock(&self.status).online = online;
    }
}

async fn serve(host: Arc<Host>, listener: TcpListener) {
    let mut stopped = host.stopped.clone();
    let watcher = tokio::spawn(watch_database(host.clone()));
    let rounds = tokio::spawn(run_rounds(host.clone()));
    let mut next = 0u64;
    loop {
        tokio::select! {
            _ = stopped.changed() => break,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                // Over the cap the connection is simply closed.
                let Ok(permit) = host.connections.clone().try_acquire_owned() else { continue };
                next += 1;
                let host = host.clone();
                tokio::spawn(async move {
                    connection(host, stream, next).await;
                    drop(permit);
                });
            }
        }
    }
    drop(listener);
    watcher.abort();
    rounds.abort();
    // Give the connections a moment to say goodbye.
    for _ in 0..50 {
        if lock(&host.devices).is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A round of updates for every device each time the game changed (coalesced).
async fn run_rounds(host: Arc<Host>) {
    loop {
        host.changed.notified().await;
        // A failed round leaves the devices' copies unknown: their next update is whole.
        let _ = host.round(Round::All { forced: None }).await;
    }
}

/// Changes made by another connection (the host's window, `sheetkeeper import`) reach the
/// devices: `data_version` moves when another connection commits.
async fn watch_database(host: Arc<Host>) {
    let game = host.game;
    let removed = move |s: &mut Store| -> Result<usize> {
        Ok(services::link_devices(s, Some(game))?.iter().filter(|d| d.peer.removed_at.is_some()).count())
    };
    let mut last = None;
    let mut removed_before = host.db(removed).await.unwrap_or(0);
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        let looked = host.db(move |s| Ok((s.read().data_version()?, s.read().last_event_of_game(game)?))).await;
        let Ok((version, seq)) = looked else { continue };
        if let Some((_, seq_before)) = last.filter(|(v, _)| *v != version) {
            // A device removed (by the window or `sheetkeeper unpair`) knew the code: a new
            // one is shown, so it cannot simply pair again.
            if let Ok(now) = host.db(removed).await {
                if now > removed_before {
                    new_code_shown(&host);
                }
                removed_before = now;
            }
            // A write that logged nothing of the game may have changed it all the same.
            if seq == seq_before {
                host.unlogged.store(true, Ordering::SeqCst);
            }
            host.refresh_all();
        }
        last = Some((version, seq));
    }
}

/// One device's connection, from its opening to its end. Anything malformed ends it.
async fn connection(host: Arc<Host>, stream: TcpStream, number: u64) {
    let frames = Frames::new(stream);
    let (channel, (device, holds)) = match tokio::time::timeout(HANDSHAKE_TIME, open(&host, frames)).await {
        Ok(Ok(opened)) => opened,
        Ok(Err(Refusal::Clear(mut frames, reason))) => {
            // In clear: the device has no channel yet (or its code did not make one).
            let _ = frames.send_clear(&OpeningReply::Refused { reason }).await;
            return;
        }
        Ok(Err(Refusal::Encrypted(mut channel, reason))) => {
            // The channel exists: the refusal is the host's own, no one on the path can forge it.
            let _ = channel.send(&ToDevice::Bye { reason }).await;
            return;
        }
        Err(_) => return,
    };
    // The copy it holds, if the host knows it: its first update is what changed since.
    {
        let mut copies = lock(&host.copies);
        if copies.get(&device).is_some_and(|c| holds.as_deref() != Some(c.digest())) {
            copies.remove(&device);
        }
    }
    let (outgoing, inbox) = mpsc::unbounded_channel();
    lock(&host.devices).insert(number, Linked { device, outgoing });
    host.online();
    let _ = serve_device(&host, channel, device, inbox).await;
    lock(&host.devices).remove(&number);
    host.online();
}

/// Why a device is not let in, and how it is told.
enum Refusal {
    Clear(Frames, String),
    Encrypted(Channel, String),
}

/// The opening and handshake: a paired device by its pinned key, a new one by the code.
/// Returns the channel, the device and the digest of the copy it holds; or the frames and
/// the reason to refuse it.
async fn open(host: &Arc<Host>, mut frames: Frames) -> std::result::Result<(Channel, (Uuid, Option<String>)), Refusal> {
    let opening: Opening = match frames.recv_clear().await {
        Ok(opening) => opening,
        Err(e) => return Err(Refusal::Clear(frames, e.to_string())),
    };
    let (psk, _permit) = match opening {
        Opening::Pair { protocol, .. } | Opening::Resume { protocol } if protocol != PROTOCOL => {
            let reason = format!("this table speaks link protocol {PROTOCOL}, the device {protocol}; update the app");
            return Err(Refusal::Clear(frames, reason));
        }
        Opening::Pair { spake, .. } => {
            let Ok(permit) = host.pairing.acquire().await else {
                return Err(Refusal::Clear(frames, "the table is closing".into()));
            };
            let (code, paused) = {
                let status = lock(&host.status);
                (status.code.clone(), status.pairing_paused)
            };
            if paused {
                return Err(Refusal::Clear(frames, PAUSED.into()));
            }
            let (reply, psk) = match wire::pair_answer(&code, &spake) {
                Ok(answer) => answer,
                Err(e) => return Err(Refusal::Clear(frames, e.to_string())),
            };
            if let Err(e) = frames.send_clear(&reply).await {
                return Err(Refusal::Clear(frames, e.to_string()));
            }
            (Some(psk), Some(permit))
        }
        Opening::Resume { .. } => {
            if let Err(e) = frames.send_clear(&OpeningReply::Resume {}).await {
                return Err(Refusal::Clear(frames, e.to_string()));
            }
            (None, None)
        }
    };
    let (noise, remote) = match wire::handshake_responder(&mut frames, &host.identity.private_key, psk.as_ref()).await {
        Ok(done) => done,
        Err(HandshakeError::Mismatch) if psk.is_some() => {
            tokio::time::sleep(wrong_code(host)).await;
            return Err(Refusal::Clear(frames, "the code did not match".into()));
        }
        Err(HandshakeError::Mismatch) => {
            return Err(Refusal::Clear(frames, "the encrypted channel could not be set up".into()))
        }
        Err(HandshakeError::Other(e)) => return Err(Refusal::Clear(frames, e.to_string())),
    };
    let mut channel = Channel::new(frames, noise, remote.clone());
    match admit(host, &mut channel, psk.is_some(), remote).await {
        Ok(device) => Ok((channel, device)),
        Err(reason) => Err(Refusal::Encrypted(channel, reason)),
    }
}

/// What a device that tries to pair while pairing is paused is told.
const PAUSED: &str =
    "pairing at this table is paused after too many wrong codes; ask the table's person to open it again";

/// After the handshake: the device's hello, and whether it may come in (paired now with
/// the code, or paired before and not removed). Returns the device and the digest of the
/// copy it holds.
async fn admit(
    host: &Arc<Host>,
    channel: &mut Channel,
    paired_now: bool,
    key: Vec<u8>,
) -> std::result::Result<(Uuid, Option<String>), String> {
    let hello = channel.recv_to_host().await.map_err(|e| e.to_string())?;
    let ToHost::Hello { protocol, device, name, holds } = hello else {
        return Err("a device must say hello first".into());
    };
    if protocol != PROTOCOL {
        return Err(format!("this table speaks link protocol {PROTOCOL}, the device {protocol}; update the app"));
    }
    let game = host.game;
    if paired_now {
        host.db(move |s| services::host_pair(s, game, device, &name, &key)).await.map_err(|e| match e {
            Error::Invalid { problem, .. } => problem,
            other => other.to_string(),
        })?;
        lock(&host.status).wrong_tries = 0;
        return Ok((device, None));
    }
    let pinned = key.clone();
    let known = host.db(move |s| services::host_known_device(s, game, &pinned)).await.map_err(|e| e.to_string())?;
    match known {
        Some(peer) if peer.device_id == device => Ok((device, holds)),
        Some(_) => Err("this device's key belongs to another device".into()),
        None => {
            let removed = host.db(move |s| services::host_removed_device(s, game, &key)).await.unwrap_or(false);
            Err(if removed {
                "this device was removed from the table; ask the table for a new code".into()
            } else {
                "this device is not paired with the table; join with the table's code".into()
            })
        }
    }
}

/// Counts a wrong code: the code is replaced after `TRIES_PER_CODE`, and pairing pauses
/// after `CODES_BEFORE_PAUSE` codes were replaced so. Returns how long its answer waits.
fn wrong_code(host: &Host) -> Duration {
    let mut status = lock(&host.status);
    status.wrong_tries += 1;
    status.wrong_codes += 1;
    if status.wrong_tries >= TRIES_PER_CODE {
        replace_code(&mut status);
        if status.wrong_codes >= TRIES_PER_CODE * CODES_BEFORE_PAUSE {
            status.pairing_paused = true;
        }
    }
    wrong_code_pause(status.wrong_codes)
}

/// The wait before the answer to the `n`th wrong code since pairing opened: doubling.
fn wrong_code_pause(n: u32) -> Duration {
    WRONG_CODE_PAUSE.saturating_mul(1 << n.saturating_sub(1).min(8)).min(WRONG_CODE_PAUSE_MAX)
}

/// Replaces the code (after too many wrong tries, or a device's removal).
fn new_code_shown(host: &Host) {
    replace_code(&mut lock(&host.status));
}

fn replace_code(status: &mut HostStatus) {
    status.code = new_code();
    status.code_number += 1;
    status.wrong_tries = 0;
}

/// Serves one paired device: its welcome and its copy's updates, its changes and moves in
/// order. What it was sent last stays with the host for its next connection.
async fn serve_device(
    host: &Arc<Host>,
    mut channel: Channel,
    device: Uuid,
    mut inbox: mpsc::UnboundedReceiver<Outgoing>,
) -> Result<()> {
    let mut stopped = host.stopped.clone();
    channel
        .send(&ToDevice::Welcome {
            game: host.game,
            game_name: host.game_name.clone(),
            system: host.system,
            host: host.identity.device_id,
            host_name: host.name.clone(),
        })
        .await?;
    host.round(Round::One { device, fresh: false }).await?;
    loop {
        let msg = tokio::select! {
            _ = stopped.changed() => {
                let _ = channel.send(&ToDevice::Bye { reason: "the table stopped hosting".into() }).await;
                return Ok(());
            }
            Some(out) = inbox.recv() => {
                if !deliver(&mut channel, out).await? {
                    return Ok(());
                }
                continue;
            }
            msg = tokio::time::timeout(SILENCE, channel.recv_to_host()) => match msg {
                Ok(msg) => msg?,
                Err(_) => return Err(Error::link("the device went silent")),
            },
        };
        let game = host.game;
        let (id, outcome) = match msg {
            ToHost::Ping {} => {
                channel.send(&ToDevice::Pong {}).await?;
                continue;
            }
            ToHost::Resync {} => {
                host.round(Round::One { device, fresh: true }).await?;
                continue;
            }
            ToHost::Hello { .. } => return Err(Error::link("a device said hello twice")),
            ToHost::Change { id, document, base } => {
                let outcome =
                    host.db(move |s| services::host_apply_change(s, game, device, &document, base.as_deref())).await?;
                (id, outcome)
            }
            ToHost::Edit { id, character, base, ops } => {
                let outcome =
                    host.db(move |s| services::host_apply_edit(s, game, device, character, &base, &ops)).await?;
                (id, outcome)
            }
            ToHost::Claim { id, character } => {
                match host.db(move |s| services::host_claim_check(s, game, device, character)).await? {
                    services::ClaimCheck::Yours => (id, Ok(())),
                    services::ClaimCheck::Refused(reason) => (id, Err(reason)),
                    services::ClaimCheck::Ask { character_name, device_name } => {
                        let request = ClaimRequest { device, device_name, character, character_name };
                        {
                            let mut status = lock(&host.status);
                            if !status.claims.contains(&request) {
                                status.claims.push(request);
                            }
                        }
                        channel.send(&ToDevice::Answer { id, refused: None, asked: true }).await?;
                        continue;
                    }
                }
            }
            ToHost::Note { id, note } => (id, host.pass_note(device, note).await?),
            ToHost::Give { id, file } => {
                // Nothing of the game changes: the file waits for the host's person.
                let refused = host.receive_gift(device, file).await?.err();
                channel.send(&ToDevice::Answer { id, refused, asked: false }).await?;
                continue;
            }
            ToHost::Move { id, mv } => {
                (id, host.db(move |s| services::host_apply_move(s, game, device, &mv, &mut rand::rng())).await?)
            }
        };
        // The device's own update comes before the answer, so when the answer arrives its
        // copy already shows the outcome. It is sent even if nothing changed: the device
        // always applies the update that followed its change, never an older one (after a
        // refusal, it brings the host's version of the character back over the change).
        // The same round brings the change to every other device.
        host.round(Round::All { forced: Some(device) }).await?;
        while let Ok(out) = inbox.try_recv() {
            if !deliver(&mut channel, out).await? {
                return Ok(());
            }
        }
        channel.send(&ToDevice::Answer { id, refused: outcome.err(), asked: false }).await?;
    }
}

/// Sends the device what was queued for it; `false` once it was told to go.
async fn deliver(channel: &mut Channel, out: Outgoing) -> Result<bool> {
    match out {
        Outgoing::Update(update) => channel.send(&update).await?,
        Outgoing::Note(from, note) => channel.send(&ToDevice::Note { from, note }).await?,
        Outgoing::Declined(character, reason) => channel.send(&ToDevice::Declined { character, reason }).await?,
        Outgoing::Given(from, file) => channel.send(&ToDevice::Given { from, file }).await?,
        Outgoing::Removed => {
            let _ = channel.send(&ToDevice::Bye { reason: "this device was removed from the table".into() }).await;
            return Ok(false);
        }
    }
    Ok(true)
}
