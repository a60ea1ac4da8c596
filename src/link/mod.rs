//! The linked table: the devices at one table share a game over the local network, with
//! no internet and no server (DESIGN.md "Linked table"). One device hosts the game and is
//! the authority; the players' devices join it.
//!
//! - `wire`: the messages, their framing, pairing (SPAKE2) and encryption (Noise).
//! - `host`: listening while hosting, serving each device, running their changes in order.
//! - `join`: a joined device, its copy of the game, its changes, its reconnecting.
//! - `discovery`: "Join a table nearby" — hosted tables announced and found over mDNS.
//! - `qr`: the QR code a host shows (its address and code as a join link).
//!
//! The database side (snapshots per viewer, applying a change, a joined device's pending
//! changes) is in `services::link`; this module holds the network and nothing of the rules.

pub mod discovery;
pub mod host;
pub mod join;
pub mod qr;
pub mod wire;

pub use host::{ClaimRequest, HostConfig, HostHandle, HostStatus};

/// A poison-tolerant lock: every holder in the link leaves the value whole, so a poisoned
/// lock is safe to reuse.
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The link's own thread (host or joined device) and the signal that stops it. Stopping
/// (or dropping) tells it and waits for it to say goodbye and end.
struct Running {
    stop: tokio::sync::watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    fn finish(&mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A note another device sent this one, waiting for its person to use or dismiss it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Inbound {
    pub id: uuid::Uuid,
    /// The sending device's name.
    pub from: String,
    pub note: crate::services::Note,
}

/// Notes kept at most; the oldest goes first.
const INBOX_MAX: usize = 20;

fn add_to_inbox(inbox: &mut Vec<Inbound>, from: String, note: crate::services::Note) {
    if inbox.len() >= INBOX_MAX {
        inbox.remove(0);
    }
    inbox.push(Inbound { id: uuid::Uuid::new_v4(), from, note });
}

/// Takes the note `id` out of `inbox` (it was used or dismissed).
fn take_from_inbox(inbox: &mut Vec<Inbound>, id: uuid::Uuid) -> crate::Result<Inbound> {
    match inbox.iter().position(|n| n.id == id) {
        Some(i) => Ok(inbox.remove(i)),
        None => Err(crate::Error::NotFound { what: "note", id: id.to_string() }),
    }
}
pub use join::{ClaimState, Claimed, JoinConfig, JoinHandle, JoinStatus, LinkState};
