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

pub use host::{HostConfig, HostHandle, HostStatus};
pub use join::{JoinConfig, JoinHandle, JoinStatus, LinkState};
