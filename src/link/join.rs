//! A device joined to a hosted table: it pairs (the first time, with the code), keeps the
//! game as the host sends it, sends the changes made here to its own characters, and keeps
//! working on its own when the host is out of reach, catching up when it is back.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{mpsc as std_mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch, Notify};
use uuid::Uuid;

use super::wire::{self, Channel, Frames, HandshakeError, OpeningReply, ToDevice, ToHost, PROTOCOL};
use super::{lock, Running};
use crate::error::{Error, Result};
use crate::services::{self, Accepted, Agreed, Changed, Copy, GameMove, Note, Pending};
use crate::store::LinkIdentity;
use crate::Store;

/// How often the device looks for changes made here (by its window or the CLI).
const WATCH_EVERY: Duration = Duration::from_millis(10);
/// How often, at most, it reads the characters other devices play for a change made here
/// (one it may not send: the host's version comes back). Its own it reads at every change.
const OTHERS_EVERY: Duration = Duration::from_secs(1);
/// How often it tells the host it is still here.
const PING_EVERY: Duration = Duration::from_secs(5);
/// A host silent this long is out of reach.
const SILENCE: Duration = Duration::from_secs(15);
/// The longest wait between attempts to reach the host again.
const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// How long a claim or a move waits for the host's answer.
const ANSWER_TIME: Duration = Duration::from_secs(10);
/// How long reaching the host, the handshake and its welcome may take in all: a peer that
/// takes the connection and then says nothing (a stalled app, a relay) is out of reach.
const OPENING_TIME: Duration = Duration::from_secs(15);

/// What to join.
#[derive(Clone, Debug)]
pub struct JoinConfig {
    pub db: PathBuf,
    pub addr: SocketAddr,
    /// The host's code: needed the first time only.
    pub code: Option<String>,
    /// This device's name, as the host lists it.
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkState {
    Connecting,
    Linked,
    /// Out of reach of the host: working on its own characters, trying again.
    Away,
    /// The link ended (the host stopped, or removed this device, or this device left).
    Ended,
    /// The code did not match: nothing was learned or changed; try again with the right one.
    WrongCode,
}

#[derive(Clone, Debug, Serialize)]
pub struct JoinStatus {
    pub state: LinkState,
    pub game: Option<Uuid>,
    pub game_name: Option<String>,
    pub host_name: Option<String>,
    /// Grows with every snapshot applied: the window redraws when it moves.
    pub revision: u64,
    /// Linked, with the host's latest snapshot applied and nothing of this device's waiting.
    pub caught_up: bool,
    /// Why it is away or ended, in words.
    pub message: Option<String>,
    /// Notes other devices sent this one (a helper's die…), until used or dismissed.
    pub inbox: Vec<super::Inbound>,
    /// This device's claims the table's person has not approved yet, or declined.
    pub claims: Vec<ClaimState>,
    /// Characters and games the table gave this device, until imported or put away.
    pub gifts: Vec<services::Gift>,
    /// The table feed's newest cards (at most `FEED_KEPT`), oldest first; read with `feed`.
    #[serde(skip)]
    pub feed: Vec<crate::services::FeedCard>,
}

/// Feed cards a joined device keeps; the oldest go first.
const FEED_KEPT: usize = 50;

/// A claim this device made that is not (yet) its character at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimState {
    pub character: Uuid,
    /// None: waiting for the table's person; else why they said no.
    pub declined: Option<String>,
}

/// What became of a claim: the character is this device's now, or the table's person is
/// asked (the snapshot that makes it this device's comes once they approve).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Claimed {
    Yours,
    Asked,
}

enum Command {
    Claim(Uuid, std_mpsc::Sender<Result<()>>, Arc<Mutex<bool>>),
    Move(GameMove, std_mpsc::Sender<Result<()>>),
    Note(Note, std_mpsc::Sender<Result<()>>),
    Give(String, std_mpsc::Sender<Result<()>>),
}

/// A joined device, linked in the background.
pub struct JoinHandle {
    status: Arc<Mutex<JoinStatus>>,
    commands: mpsc::UnboundedSender<Command>,
    nudge: Arc<Notify>,
    running: Running,
}

impl JoinHandle {
    pub fn start(config: JoinConfig) -> JoinHandle {
        let status = Arc::new(Mutex::new(JoinStatus {
            state: LinkState::Connecting,
            game: None,
            game_name: None,
            host_name: None,
            revision: 0,
            caught_up: false,
            message: None,
            inbox: Vec::new(),
            claims: Vec::new(),
            gifts: Vec::new(),
            feed: Vec::new(),
        }));
        let (commands, command_rx) = mpsc::unbounded_channel();
        let (stop, stopped) = watch::channel(false);
        let shared = status.clone();
        let nudge = Arc::new(Notify::new());
        let nudged = nudge.clone();
        let thread = std::thread::Builder::new().name("sheetkeeper-join".into()).spawn(move || {
            match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(runtime) => runtime.block_on(run(config, shared, command_rx, stopped, nudged)),
                Err(e) => end(&shared, LinkState::Ended, format!("the link could not start: {e}")),
            }
        });
        let thread = match thread {
            Ok(t) => Some(t),
            Err(e) => {
                end(&status, LinkState::Ended, format!("the link could not start: {e}"));
                None
            }
        };
        JoinHandle { status, commands, nudge, running: Running { stop, thread } }
    }

    /// "This device's database just changed": what changed goes to the table now, not at
    /// the next look (the window calls it after each of its writes; other processes' writes
    /// are found within `WATCH_EVERY`).
    pub fn nudge(&self) {
        self.nudge.notify_one();
    }

    pub fn status(&self) -> JoinStatus {
        lock(&self.status).clone()
    }

    /// The table feed's cards after `since` (a place in the table's log), oldest first.
    pub fn feed(&self, since: i64) -> Vec<crate::services::FeedCard> {
        lock(&self.status).feed.iter().filter(|c| c.seq > since).cloned().collect()
    }

    /// Waits until the device is caught up, or the link ended, or `limit` passed.
    pub fn wait(&self, limit: Duration) -> JoinStatus {
        let start = Instant::now();
        loop {
            let status = self.status();
            let done = status.caught_up || matches!(status.state, LinkState::Ended | LinkState::WrongCode);
            if done || start.elapsed() >= limit {
                return status;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// "This character at the table is mine": the host records this device as its player,
    /// once the table's person approves (unless it is this device's already).
    pub fn claim(&self, character: Uuid) -> Result<Claimed> {
        let asked = Arc::new(Mutex::new(false));
        let flag = asked.clone();
        self.ask(|reply| Command::Claim(character, reply, flag))?;
        Ok(if *lock(&asked) { Claimed::Asked } else { Claimed::Yours })
    }

    /// A move at the table, made by the host's rules; returns once this device's copy shows
    /// its outcome. Refused with the host's reason, or when the host is out of reach.
    pub fn submit_move(&self, mv: GameMove) -> Result<()> {
        self.ask(|reply| Command::Move(mv, reply))
    }

    /// Sends a note to the device that plays its character (through the host); returns once
    /// the host passed it on, or with the host's reason why not.
    pub fn send_note(&self, note: Note) -> Result<()> {
        self.ask(|reply| Command::Note(note, reply))
    }

    /// "Send to the table": gives the host's person `file` (a character's or a game's, as
    /// `services::gift_file` makes it) to look at and import; returns once the host has it,
    /// or with its reason why not.
    pub fn give(&self, file: String) -> Result<()> {
        if file.len() + 1024 > wire::MAX_TO_HOST {
            return Err(Error::invalid(
                "gift",
                "this file is larger than a device sends the table; export it to a file instead",
            ));
        }
        self.ask(|reply| Command::Give(file, reply))
    }

    /// Takes a file the table gave out of this device's list (imported or put away).
    pub fn take_gift(&self, id: Uuid) -> Result<services::Gift> {
        services::take_gift(&mut lock(&self.status).gifts, id)
    }

    /// Takes a note out of this device's inbox (used or dismissed).
    pub fn take_note(&self, id: Uuid) -> Result<super::Inbound> {
        super::take_from_inbox(&mut lock(&self.status).inbox, id)
    }

    fn ask(&self, command: impl FnOnce(std_mpsc::Sender<Result<()>>) -> Command) -> Result<()> {
        if self.status().state != LinkState::Linked {
            return Err(Error::link("not linked to the table right now; try again when it is back in reach"));
        }
        let (reply, answer) = std_mpsc::channel();
        self.commands.send(command(reply)).map_err(|_| Error::link("the link has ended"))?;
        answer.recv_timeout(ANSWER_TIME).unwrap_or_else(|_| Err(Error::link("the table did not answer in time")))
    }

    /// Leaves the table: the link ends; everything stays on this device.
    pub fn stop(mut self) {
        self.running.finish();
    }
}

fn end(status: &Mutex<JoinStatus>, state: LinkState, message: String) {
    let mut s = lock(status);
    s.state = state;
    s.caught_up = false;
    s.message = Some(message);
}

/// How a session with the host ended.
enum SessionEnd {
    /// This device left.
    Stopped,
    /// The host said goodbye (stopped, or removed this device).
    Bye(String),
    /// The host refused this device (wrong code, removed, not paired).
    Refused(String),
    /// The connection broke or the host is out of reach: try again.
    Lost(String),
}

async fn run(
    config: JoinConfig,
    status: Arc<Mutex<JoinStatus>>,
    mut commands: mpsc::UnboundedReceiver<Command>,
    mut stopped: watch::Receiver<bool>,
    nudge: Arc<Notify>,
) {
    let mut store = match Store::open(&config.db) {
        Ok(store) => store,
        Err(e) => return end(&status, LinkState::Ended, e.to_string()),
    };
    let identity = match services::joining_identity(&store, wire::generate_keypair) {
        Ok(identity) => identity,
        Err(e) => return end(&status, LinkState::Ended, e.to_string()),
    };
    let mut code = config.code.clone();
    let mut backoff = Duration::from_millis(300);
    // The copy of the game the host sent last, kept across connections: coming back, the
    // device gets what changed since.
    let mut held: Option<Copy> = None;
    loop {
        {
            let mut s = lock(&status);
            s.state = LinkState::Connecting;
            s.caught_up = false;
        }
        let mut session = Session {
            store: &mut store,
            identity: &identity,
            config: &config,
            status: &status,
            held: &mut held,
            nudge: nudge.clone(),
        };
        let ended = session.run(code.as_deref(), &mut commands, &mut stopped).await;
        match ended {
            SessionEnd::Stopped => return end(&status, LinkState::Ended, "this device left the table".into()),
            SessionEnd::Bye(reason) => return end(&status, LinkState::Ended, reason),
            SessionEnd::Refused(reason) if reason.contains("code did not match") => {
                return end(&status, LinkState::WrongCode, reason)
            }
            SessionEnd::Refused(reason) => return end(&status, LinkState::Ended, reason),
            SessionEnd::Lost(reason) => {
                if lock(&status).game.is_some() {
                    // Paired: from now on this device comes back by its key, not the code.
                    code = None;
                }
                end(
                    &status,
                    LinkState::Away,
                    format!("{reason}; working on your own characters until the table is back"),
                );
                while let Ok(
                    Command::Claim(_, reply, _)
                    | Command::Move(_, reply)
                    | Command::Note(_, reply)
                    | Command::Give(_, reply),
                ) = commands.try_recv()
                {
                    let _ = reply.send(Err(Error::link("not linked to the table right now")));
                }
                tokio::select! {
                    _ = stopped.changed() => return end(&status, LinkState::Ended, "this device left the table".into()),
                    _ = tokio::time::sleep(backoff) => {}
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

struct Session<'a> {
    store: &'a mut Store,
    identity: &'a LinkIdentity,
    config: &'a JoinConfig,
    status: &'a Mutex<JoinStatus>,
    /// The copy of the game the host sent last (its patches apply to it).
    held: &'a mut Option<Copy>,
    /// Rung when this device's database changed (see `JoinHandle::nudge`).
    nudge: Arc<Notify>,
}

impl Session<'_> {
    async fn run(
        &mut self,
        code: Option<&str>,
        commands: &mut mpsc::UnboundedReceiver<Command>,
        stopped: &mut watch::Receiver<bool>,
    ) -> SessionEnd {
        // Leaving is heard while connecting too: stopping the link never waits on the host.
        let addr = self.config.addr;
        let (mut channel, game) = tokio::select! {
            _ = stopped.changed() => return SessionEnd::Stopped,
            opened = tokio::time::timeout(OPENING_TIME, self.connect(code)) => match opened {
                Ok(Ok(linked)) => linked,
                Ok(Err(end)) => return end,
                Err(_) => return SessionEnd::Lost(format!("the table at {addr} is out of reach (no welcome in time)")),
            },
        };
        match self.serve(&mut channel, game, commands, stopped).await {
            Ok(end) | Err(end) => end,
        }
    }

    /// Connects, pairs or resumes, and says hello: the channel and the game.
    async fn connect(&mut self, code: Option<&str>) -> std::result::Result<(Channel, Uuid), SessionEnd> {
        let addr = self.config.addr;
        let lost = |e: &dyn std::fmt::Display| SessionEnd::Lost(format!("the table at {addr} is out of reach ({e})"));
        let stream = match tokio::time::timeout(Duration::from_secs(5), TcpStream::connect(addr)).await {
            Ok(Ok(stream)) => stream,
            Ok(Err(e)) => return Err(lost(&e)),
            Err(_) => return Err(lost(&"no answer")),
        };
        let mut frames = Frames::new(stream);
        let address = addr.to_string();
        // Resuming: the hosts this device paired with (the one last reached at this address
        // first); the handshake shows which one answered, by its key.
        let candidates = match code {
            Some(_) => Vec::new(),
            None => match services::joined_hosts(self.store, &address) {
                Ok(peers) if !peers.is_empty() => peers,
                Ok(_) => {
                    return Err(SessionEnd::Refused(format!(
                        "this device has not paired with the table at {address}; enter the table's code"
                    )))
                }
                Err(e) => return Err(SessionEnd::Refused(e.to_string())),
            },
        };
        let psk = match code {
            Some(code) => {
                let (state, opening) = wire::pair_start(code);
                frames.send_clear(&opening).await.map_err(|e| lost(&e))?;
                match frames.recv_clear::<OpeningReply>().await.map_err(|e| lost(&e))? {
                    OpeningReply::Pair { spake } => Some(wire::pair_finish(state, &spake).map_err(|e| lost(&e))?),
                    OpeningReply::Refused { reason } => return Err(SessionEnd::Refused(clean_reason(&reason))),
                    OpeningReply::Resume {} => return Err(lost(&"the table answered out of turn")),
                }
            }
            None => {
                frames.send_clear(&wire::Opening::Resume { protocol: PROTOCOL }).await.map_err(|e| lost(&e))?;
                match frames.recv_clear::<OpeningReply>().await.map_err(|e| lost(&e))? {
                    OpeningReply::Resume {} => None,
                    // Clear text, so anyone on the path could have sent it: a paired device
                    // never gives up on it, it tries again later.
                    OpeningReply::Refused { reason } => return Err(lost(&clean_reason(&reason))),
                    OpeningReply::Pair { .. } => return Err(lost(&"the table answered out of turn")),
                }
            }
        };
        let (noise, remote) =
            match wire::handshake_initiator(&mut frames, &self.identity.private_key, psk.as_ref()).await {
                Ok(done) => done,
                Err(HandshakeError::Mismatch) => return Err(lost(&"the encrypted channel could not be set up")),
                Err(HandshakeError::Other(e)) => return Err(lost(&e)),
            };
        let pinned = candidates.into_iter().find(|p| p.public_key == remote);
        if code.is_none() && pinned.is_none() {
            return Err(SessionEnd::Refused(format!(
                "the device at {address} is not a table this device paired with; enter its code"
            )));
        }
        let mut channel = Channel::new(frames, noise, remote.clone());
        let hello = ToHost::Hello {
            protocol: PROTOCOL,
            device: self.identity.device_id,
            name: self.config.name.clone(),
            holds: self.held.as_ref().map(|c| c.digest().to_string()),
        };
        channel.send(&hello).await.map_err(|e| lost(&e))?;
        let (game, game_name, host, host_name) = match channel.recv_first::<ToDevice>().await.map_err(|e| lost(&e))? {
            Some(ToDevice::Welcome { game, game_name, host, host_name, .. }) => (game, game_name, host, host_name),
            // The host's refusal, encrypted: it is the host's own.
            Some(ToDevice::Bye { reason }) => return Err(SessionEnd::Refused(clean_reason(&reason))),
            Some(_) => return Err(lost(&"the table did not welcome this device")),
            // When pairing, the host could not make the channel: the code differed (or the
            // handshake was tampered with). When resuming, only tampering does that.
            None if code.is_some() => return Err(SessionEnd::Refused("the code did not match".into())),
            None => return Err(lost(&"a message did not decrypt (forged, replayed or damaged)")),
        };
        if pinned.as_ref().is_some_and(|p| p.game_id != game) {
            return Err(SessionEnd::Refused(format!("the table at {address} hosts another game now")));
        }
        if pinned.is_none() {
            // The first time: a game of this device's own with the table's id stays its own.
            if let Err(e) = services::joined_may_take(self.store, game) {
                return Err(SessionEnd::Refused(refused_text(e)));
            }
        }
        // Paired now, or found again (perhaps at a new address): remember where.
        services::joined_pair(self.store, self.identity, game, host, &host_name, &remote, &address)
            .map_err(|e| SessionEnd::Refused(e.to_string()))?;
        let mut s = lock(self.status);
        s.state = LinkState::Linked;
        s.game = Some(game);
        s.game_name = Some(game_name);
        s.host_name = Some(host_name);
        s.message = None;
        Ok((channel, game))
    }

    /// Linked: snapshots in, changes and moves out, until the link ends.
    async fn serve(
        &mut self,
        channel: &mut Channel,
        game: Uuid,
        commands: &mut mpsc::UnboundedReceiver<Command>,
        stopped: &mut watch::Receiver<bool>,
    ) -> std::result::Result<SessionEnd, SessionEnd> {
        let lost = |e: Error| SessionEnd::Lost(format!("the link to the table broke ({e})"));
        let mut sync = Sync {
            game,
            in_flight: Vec::new(),
            accepted: Accepted::new(),
            deferred: None,
            restore: BTreeSet::new(),
            applied: false,
            others_read: None,
            others_unread: true,
        };
        let mut waiting: Vec<Waiting> = Vec::new();
        let mut watch = tokio::time::interval(WATCH_EVERY);
        let mut ping = tokio::time::interval(PING_EVERY);
        let mut last_version = None;
        let nudge = self.nudge.clone();
        loop {
            tokio::select! {
                _ = stopped.changed() => return Ok(SessionEnd::Stopped),
                Some(command) = commands.recv() => {
                    // What changed here goes first: the host answers in order, so a claim of
                    // a character just made here finds it there.
                    self.send_pending(channel, &mut sync, false).await.map_err(lost)?;
                    let id = Uuid::new_v4();
                    let (msg, reply, claim) = match command {
                        Command::Claim(character, reply, asked) => {
                            (ToHost::Claim { id, character }, reply, Some((asked, character)))
                        }
                        Command::Move(mv, reply) => (ToHost::Move { id, mv }, reply, None),
                        Command::Note(note, reply) => (ToHost::Note { id, note }, reply, None),
                        Command::Give(file, reply) => (ToHost::Give { id, file }, reply, None),
                    };
                    channel.send(&msg).await.map_err(lost)?;
                    waiting.push((id, reply, claim));
                }
                _ = ping.tick() => channel.send(&ToHost::Ping {}).await.map_err(lost)?,
                _ = look_again(&mut watch, &nudge) => {
                    if !sync.in_flight.is_empty() {
                        continue;
                    }
                    let version = self.store.read().data_version().map_err(lost)?;
                    sync.others_unread |= last_version != Some(version);
                    let others = sync.others_unread && sync.others_read.is_none_or(|t| t.elapsed() >= OTHERS_EVERY);
                    if last_version == Some(version) && sync.applied && !others {
                        self.set_caught_up(&sync);
                        continue;
                    }
                    last_version = Some(version);
                    self.send_pending(channel, &mut sync, others).await.map_err(lost)?;
                    if self.try_apply(&mut sync)? {
                        lock(self.status).revision += 1;
                    }
                    self.set_caught_up(&sync);
                }
                msg = tokio::time::timeout(SILENCE, channel.recv::<ToDevice>()) => {
                    let msg = match msg {
                        Ok(msg) => msg.map_err(lost)?,
                        Err(_) => return Err(SessionEnd::Lost("the table stopped answering".into())),
                    };
                    match msg {
                        ToDevice::Snapshot { snapshot } => {
                            *self.held = Some(Copy::new(snapshot));
                            sync.deferred = Some(Changed::Whole);
                        }
                        ToDevice::Patch { patch } => {
                            let patched = self.held.take().map(|held| services::joined_patch(held, &patch));
                            match patched {
                                Some(Ok((copy, changed))) => {
                                    *self.held = Some(copy);
                                    sync.deferred = Some(match sync.deferred.take() {
                                        Some(before) => before.and(changed),
                                        None => changed,
                                    });
                                }
                                // Not the copy the patch was made for (or not a patch): the
                                // whole snapshot comes instead, and nothing here changed.
                                _ => {
                                    *self.held = None;
                                    channel.send(&ToHost::Resync {}).await.map_err(lost)?;
                                }
                            }
                        }
                        ToDevice::Answer { id, refused, asked } => {
                            if let Some(i) = sync.in_flight.iter().position(|(m, _)| *m == id) {
                                let (_, p) = sync.in_flight.remove(i);
                                match &refused {
                                    None => {
                                        // The host sends this device's snapshot just before its answer.
                                        let host = self.held.as_ref().and_then(|c| c.view().digests.get(&p.character)).cloned();
                                        sync.accepted.insert(p.character, Agreed { local: p.digest.clone(), host });
                                    }
                                    Some(reason) => {
                                        services::joined_refused(self.store, game, &p, reason).map_err(lost)?;
                                        sync.restore(p.character, self.held.is_some());
                                    }
                                }
                            }
                            if let Some(i) = waiting.iter().position(|(m, _, _)| *m == id) {
                                let (_, reply, claim) = waiting.remove(i);
                                if let (true, Some((flag, character))) = (asked, claim) {
                                    *lock(&flag) = true;
                                    let mut s = lock(self.status);
                                    s.claims.retain(|c| c.character != character);
                                    s.claims.push(ClaimState { character, declined: None });
                                }
                                let _ = reply.send(refused.map_or(Ok(()), |r| Err(Error::link(r))));
                            }
                        }
                        ToDevice::Bye { reason } => return Ok(SessionEnd::Bye(reason)),
                        ToDevice::Pong {} => {}
                        ToDevice::Declined { character, reason } => {
                            let mut s = lock(self.status);
                            s.claims.retain(|c| c.character != character);
                            s.claims.push(ClaimState { character, declined: Some(clean_reason(&reason)) });
                        }
                        ToDevice::Note { from, note } => super::add_to_inbox(&mut lock(self.status).inbox, from, note),
                        ToDevice::Given { from, file } => {
                            // Checked like an import; one that is not a file this app imports
                            // is a malformed message, and the connection closes.
                            let gift = services::receive_gift(&from, file).map_err(|e| SessionEnd::Lost(e.to_string()))?;
                            services::keep_gift(&mut lock(self.status).gifts, gift);
                        }
                        ToDevice::Feed { cards } => {
                            let feed = &mut lock(self.status).feed;
                            let last = feed.last().map_or(i64::MIN, |c| c.seq);
                            feed.extend(cards.into_iter().filter(|c| c.seq > last));
                            let extra = feed.len().saturating_sub(FEED_KEPT);
                            feed.drain(..extra);
                        }
                        ToDevice::Welcome { .. } => return Err(SessionEnd::Lost("the table welcomed this device twice".into())),
                    }
                    if self.try_apply(&mut sync)? {
                        lock(self.status).revision += 1;
                    }
                    self.set_caught_up(&sync);
                }
            }
        }
    }

    /// Sends the changes made here that are not on their way yet (`others`: and looks at the
    /// characters other devices play).
    async fn send_pending(&mut self, channel: &mut Channel, sync: &mut Sync, others: bool) -> Result<()> {
        let (pending, restore) = services::joined_pending(self.store, sync.game, &sync.accepted, others)?;
        if others {
            sync.others_read = Some(Instant::now());
            sync.others_unread = false;
        }
        for character in restore {
            // A change here to someone else's character: the host's version comes back.
            sync.restore(character, self.held.is_some());
        }
        for p in pending {
            if sync.in_flight.iter().any(|(_, sent)| sent.character == p.character) {
                continue; // its answer comes first; a later change goes after it
            }
            let id = Uuid::new_v4();
            let edit = p.base.as_deref().and_then(|base| {
                let ops = services::joined_edit(self.held.as_ref(), p.character, base, &p.document)?;
                Some(ToHost::Edit { id, character: p.character, base: base.to_string(), ops })
            });
            let msg = edit.unwrap_or_else(|| ToHost::Change { id, document: p.document.clone(), base: p.base.clone() });
            channel.send(&msg).await?;
            sync.in_flight.push((id, p));
        }
        Ok(())
    }

    /// Applies the latest snapshot once nothing of this device's is on its way to the host.
    fn try_apply(&mut self, sync: &mut Sync) -> std::result::Result<bool, SessionEnd> {
        if !sync.in_flight.is_empty() {
            return Ok(false);
        }
        let (Some(changed), Some(copy)) = (sync.deferred.as_ref(), self.held.as_ref()) else { return Ok(false) };
        let snapshot = copy.view();
        // A session's first update is imported whole: what came before it may not have been.
        let changed = match changed {
            Changed::Characters(ids) if sync.applied => {
                // (A character made here and refused is not the table's: nothing comes back.)
                let restore = sync.restore.iter().filter(|id| snapshot.digests.contains_key(id));
                Changed::Characters(ids.iter().chain(restore).copied().collect())
            }
            _ => Changed::Whole,
        };
        let applied = match services::joined_apply_snapshot(self.store, sync.game, snapshot, &changed, &sync.accepted) {
            Ok(applied) => applied,
            // It would touch another game here: the link stops, with the person's way out.
            Err(e @ Error::Invalid { .. }) => return Err(SessionEnd::Refused(refused_text(e))),
            Err(e) => return Err(SessionEnd::Lost(format!("the link to the table broke ({e})"))),
        };
        if !applied {
            return Ok(false); // a change made here meanwhile goes first; its answer brings another
        }
        let (owned, seats) = (&snapshot.owned, &snapshot.seats);
        lock(self.status).claims.retain(|c| !owned.contains(&c.character) && !seats.contains(&c.character));
        sync.deferred = None;
        sync.restore.clear();
        sync.accepted.clear();
        sync.applied = true;
        Ok(true)
    }

    fn set_caught_up(&self, sync: &Sync) {
        lock(self.status).caught_up = sync.applied && sync.in_flight.is_empty() && sync.deferred.is_none();
    }
}

/// Resolves at the next regular look for changes made here, or at once when nudged.
async fn look_again(watch: &mut tokio::time::Interval, nudge: &Notify) {
    tokio::select! {
        _ = watch.tick() => {}
        _ = nudge.notified() => {}
    }
}

/// A reason from the other side as it may be shown: one line, at most 300 characters.
fn clean_reason(reason: &str) -> String {
    reason.chars().map(|c| if c.is_control() { ' ' } else { c }).take(300).collect()
}

/// An error of this device's checks as the words a person reads.
fn refused_text(e: Error) -> String {
    match e {
        Error::Invalid { problem, .. } => problem,
        other => other.to_string(),
    }
}

/// A request waiting for the host's answer: its id, who waits for it, and for a claim the
/// flag set when the host's person was asked, with the character.
type Waiting = (Uuid, std_mpsc::Sender<Result<()>>, Option<(Arc<Mutex<bool>>, Uuid)>);

/// Where a joined device's copy stands against the host's.
struct Sync {
    game: Uuid,
    /// Changes sent, waiting for the host's answer (in the order sent).
    in_flight: Vec<(Uuid, Pending)>,
    accepted: Accepted,
    /// What changed in the copy the host sent (the session's `held`) since the snapshot
    /// last applied, while it is not applied yet.
    deferred: Option<Changed>,
    /// Characters whose host version must be written again with the next snapshot applied.
    restore: BTreeSet<Uuid>,
    /// A snapshot was applied in this session.
    applied: bool,
    /// When the characters other devices play were last read for changes made here, and
    /// whether the database changed since.
    others_read: Option<Instant>,
    others_unread: bool,
}

impl Sync {
    /// Brings the host's version of `character` back from the copy held (`held`: there is
    /// one) with the next snapshot applied, the held one again if none is waiting.
    fn restore(&mut self, character: Uuid, held: bool) {
        self.restore.insert(character);
        if self.deferred.is_none() && held {
            self.deferred = Some(Changed::Characters(BTreeSet::new()));
        }
    }
}
