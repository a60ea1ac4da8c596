//! What travels between a host and a joined device, and how.
//!
//! A connection is TCP, cut into frames by tokio-util's length-delimited codec. It opens
//! with one clear-text frame each way: pairing (SPAKE2 on the code, its two messages) or
//! resuming. Then a Noise handshake (snow): `XXpsk3` when pairing, its PSK derived from the
//! SPAKE2 key, so only a device that knows the code completes it; plain `XX` when resuming,
//! where each side checks the other's static key against the one pinned at pairing. After
//! it, every frame is one Noise transport message: encrypted and authenticated, with an
//! implicit counter, so a replayed, reordered, truncated or forged frame fails to decrypt
//! and closes the connection.
//!
//! An application message is JSON. One larger than a Noise message (64 KiB) spans several
//! frames: the first byte of each decrypted frame says whether more of the message follows.
//! A message larger than `MAX_MESSAGE` closes the connection.

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use snow::{HandshakeState, TransportState};
use spake2::{Ed25519Group, Identity, Password, Spake2};
use tokio::net::TcpStream;
use tokio_util::codec::{Framed, LengthDelimitedCodec};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::System;
use crate::services::{CopyPatch, FeedCard, GameMove, Note, Snapshot};

/// The protocol this build speaks; a device with another one is told so and disconnected.
pub const PROTOCOL: u32 = 5;

/// The largest application message (a game's snapshot): as large as a file an import reads.
pub const MAX_MESSAGE: usize = 16 * 1024 * 1024;
/// The largest message a device sends the host: one character's document, a move or a
/// note. Much less than a snapshot, so a paired device cannot make the host hold 16 MiB
/// per connection (an import caps a character's texts far below this).
pub const MAX_TO_HOST: usize = 2 * 1024 * 1024;

/// The largest Noise message, and so the largest frame after the opening.
const NOISE_MAX: usize = 65_535;
/// Noise's authentication tag.
const TAG: usize = 16;
/// Plain text carried per frame: a Noise message less its tag and the "more follows" byte.
const CHUNK: usize = NOISE_MAX - TAG - 1;
/// The opening frames are small.
const OPENING_MAX: usize = 4096;

const PAIRING: &str = "Noise_XXpsk3_25519_ChaChaPoly_BLAKE2s";
const RESUMING: &str = "Noise_XX_25519_ChaChaPoly_BLAKE2s";

/// Makes this device's Noise static key pair: (private, public).
pub fn generate_keypair() -> (Vec<u8>, Vec<u8>) {
    let params = PAIRING.parse().expect("a known Noise pattern");
    let keypair = snow::Builder::new(params).generate_keypair().expect("the system's random source works");
    (keypair.private, keypair.public)
}

/// The first frame a joining device sends, in clear.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Opening {
    /// First time: the SPAKE2 message made from the code (hex).
    Pair { protocol: u32, spake: String },
    /// A paired device coming back: its pinned key will be checked.
    Resume { protocol: u32 },
}

/// The host's clear-text answer to the opening, or its refusal at any point before the
/// encrypted channel exists.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum OpeningReply {
    Pair { spake: String },
    Resume {},
    Refused { reason: String },
}

/// From a joined device to the host.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToHost {
    Hello {
        protocol: u32,
        device: Uuid,
        name: String,
        /// The digest of the copy of the game this device holds from an earlier link, if
        /// any: the host sends what changed since, when it knows that copy.
        holds: Option<String>,
    },
    /// One of its characters as it is now (a character file's document), changed from the
    /// host's version with digest `base` (none: made on the device).
    Change {
        id: Uuid,
        document: serde_json::Value,
        base: Option<String>,
    },
    /// A change of one of its characters as a JSON Patch on the host's version of it with
    /// digest `base` (the character as the game's file lists it).
    Edit {
        id: Uuid,
        character: Uuid,
        base: String,
        ops: serde_json::Value,
    },
    /// "My copy is not the one your patch was made for: send the whole snapshot."
    Resync {},
    /// "This character at the table is mine."
    Claim {
        id: Uuid,
        character: Uuid,
    },
    Move {
        id: Uuid,
        mv: GameMove,
    },
    /// A note for the device that plays `note.to()` (or the table's, if none does).
    Note {
        id: Uuid,
        note: Note,
    },
    /// "Send to the table": a character's or a game's file (as an export writes it) for the
    /// host's person to look at and import.
    Give {
        id: Uuid,
        file: String,
    },
    /// A struct variant, not a unit one: serde checks unknown fields only on those.
    Ping {},
}

/// From the host to a joined device.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToDevice {
    Welcome {
        game: Uuid,
        game_name: String,
        system: System,
        host: Uuid,
        host_name: String,
    },
    Snapshot {
        snapshot: Snapshot,
    },
    /// What changed in the device's copy since the one it holds.
    Patch {
        patch: CopyPatch,
    },
    /// The answer to a change, claim or move: `refused` holds the reason when it was not
    /// done; `asked`: a claim waits for the host's person to approve it.
    Answer {
        id: Uuid,
        refused: Option<String>,
        asked: bool,
    },
    /// The host's person declined this device's claim of `character`.
    Declined {
        character: Uuid,
        reason: String,
    },
    /// A note another device sent this one (`from`: that device's name).
    Note {
        from: String,
        note: Note,
    },
    /// "Give to a device": a character's or a game's file from the host (`from`: its name)
    /// for this device's person to look at and import.
    Given {
        from: String,
        file: String,
    },
    /// The feed's new cards for this device (as its viewer may see them), oldest first.
    Feed {
        cards: Vec<FeedCard>,
    },
    /// The link ends (the host stopped, or removed this device).
    Bye {
        reason: String,
    },
    Pong {},
}

fn codec(max: usize) -> LengthDelimitedCodec {
    LengthDelimitedCodec::builder().max_frame_length(max).new_codec()
}

/// A TCP connection cut into frames, before encryption.
pub struct Frames(Framed<TcpStream, LengthDelimitedCodec>);

impl Frames {
    pub fn new(stream: TcpStream) -> Self {
        let _ = stream.set_nodelay(true);
        Frames(Framed::new(stream, codec(NOISE_MAX)))
    }

    async fn send_raw(&mut self, bytes: Vec<u8>) -> Result<()> {
        self.0.send(Bytes::from(bytes)).await.map_err(|e| Error::link(format!("the connection failed: {e}")))
    }

    async fn recv_raw(&mut self) -> Result<Vec<u8>> {
        match self.0.next().await {
            Some(Ok(frame)) => Ok(frame.to_vec()),
            Some(Err(e)) => Err(Error::link(format!("the connection failed: {e}"))),
            None => Err(Error::link("the other device closed the connection")),
        }
    }

    /// Sends a clear-text opening frame.
    pub async fn send_clear<T: Serialize>(&mut self, msg: &T) -> Result<()> {
        self.send_raw(serde_json::to_vec(msg).expect("messages always serialize")).await
    }

    /// Receives a clear-text opening frame.
    pub async fn recv_clear<T: DeserializeOwned>(&mut self) -> Result<T> {
        let bytes = self.recv_raw().await?;
        if bytes.len() > OPENING_MAX {
            return Err(Error::link("the other device sent an opening that is too large"));
        }
        serde_json::from_slice(&bytes).map_err(|_| Error::link("the other device sent a malformed opening"))
    }
}

/// The SPAKE2 side of each end, on the code's digits.
fn spake_start(code: &str, host: bool) -> (Spake2<Ed25519Group>, Vec<u8>) {
    let password = Password::new(normalize_code(code).as_bytes());
    let (joiner, hoster) = (Identity::new(b"sheetkeeper joining device"), Identity::new(b"sheetkeeper host"));
    if host {
        Spake2::<Ed25519Group>::start_b(&password, &joiner, &hoster)
    } else {
        Spake2::<Ed25519Group>::start_a(&password, &joiner, &hoster)
    }
}

/// The digits of a code as typed ("123 456", "123-456" and "123456" are the same code).
pub fn normalize_code(code: &str) -> String {
    code.chars().filter(char::is_ascii_digit).collect()
}

/// The Noise PSK from the SPAKE2 key: the same on both ends only if both used the same code.
fn psk_of(key: &[u8]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"sheetkeeper link v1 pairing psk");
    hasher.update(key);
    hasher.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || text.len() > 256 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

/// The joining side's SPAKE2 message for the opening, and its state.
pub fn pair_start(code: &str) -> (Spake2<Ed25519Group>, Opening) {
    let (state, msg) = spake_start(code, false);
    (state, Opening::Pair { protocol: PROTOCOL, spake: hex(&msg) })
}

/// The host's side of SPAKE2: its reply and the PSK (the same as the device's only if the
/// codes matched, which the Noise handshake then shows).
pub fn pair_answer(code: &str, their_spake: &str) -> Result<(OpeningReply, [u8; 32])> {
    let theirs = unhex(their_spake).ok_or_else(|| Error::link("a malformed pairing message"))?;
    let (state, msg) = spake_start(code, true);
    let key = state.finish(&theirs).map_err(|_| Error::link("a malformed pairing message"))?;
    Ok((OpeningReply::Pair { spake: hex(&msg) }, psk_of(&key)))
}

/// The joining side finishes SPAKE2 with the host's reply.
pub fn pair_finish(state: Spake2<Ed25519Group>, their_spake: &str) -> Result<[u8; 32]> {
    let theirs = unhex(their_spake).ok_or_else(|| Error::link("the table sent a malformed pairing message"))?;
    let key = state.finish(&theirs).map_err(|_| Error::link("the table sent a malformed pairing message"))?;
    Ok(psk_of(&key))
}

fn noise(private_key: &[u8], psk: Option<&[u8; 32]>, initiator: bool) -> Result<HandshakeState> {
    let pattern = if psk.is_some() { PAIRING } else { RESUMING };
    let builder = snow::Builder::new(pattern.parse().expect("a known Noise pattern"))
        .local_private_key(private_key)
        .map_err(|_| Error::link("this device's link key is not usable"))?;
    let builder = match psk {
        Some(psk) => builder.psk(3, psk).map_err(|_| Error::link("the pairing key is not usable"))?,
        None => builder,
    };
    let state = if initiator { builder.build_initiator() } else { builder.build_responder() };
    state.map_err(|_| Error::link("the encrypted channel could not be set up"))
}

/// Why a handshake failed: the code (or pinned key) did not match, or the connection broke.
#[derive(Debug)]
pub enum HandshakeError {
    /// The Noise handshake failed to authenticate: with a PSK, the codes differed.
    Mismatch,
    Other(Error),
}

impl From<Error> for HandshakeError {
    fn from(e: Error) -> Self {
        HandshakeError::Other(e)
    }
}

/// The joining device's Noise handshake (`-> e`, `<- e, ee, s, es`, `-> s, se[, psk]`).
pub async fn handshake_initiator(
    frames: &mut Frames,
    private_key: &[u8],
    psk: Option<&[u8; 32]>,
) -> std::result::Result<(TransportState, Vec<u8>), HandshakeError> {
    let mut hs = noise(private_key, psk, true)?;
    let mut buf = vec![0u8; NOISE_MAX];
    send_next(frames, &mut hs, &mut buf).await?;
    let msg = frames.recv_raw().await?;
    if serde_json::from_slice::<OpeningReply>(&msg).is_ok() {
        // A clear-text refusal mid-handshake is unauthenticated: its words are not shown.
        return Err(HandshakeError::Other(Error::link("the table turned the connection away")));
    }
    hs.read_message(&msg, &mut buf).map_err(|_| HandshakeError::Mismatch)?;
    send_next(frames, &mut hs, &mut buf).await?;
    finished(hs)
}

/// The host's side of the Noise handshake.
pub async fn handshake_responder(
    frames: &mut Frames,
    private_key: &[u8],
    psk: Option<&[u8; 32]>,
) -> std::result::Result<(TransportState, Vec<u8>), HandshakeError> {
    let mut hs = noise(private_key, psk, false)?;
    let mut buf = vec![0u8; NOISE_MAX];
    let msg = frames.recv_raw().await?;
    hs.read_message(&msg, &mut buf).map_err(|_| HandshakeError::Mismatch)?;
    send_next(frames, &mut hs, &mut buf).await?;
    let msg = frames.recv_raw().await?;
    hs.read_message(&msg, &mut buf).map_err(|_| HandshakeError::Mismatch)?;
    finished(hs)
}

/// Writes this device's next handshake message and sends it.
async fn send_next(
    frames: &mut Frames,
    hs: &mut HandshakeState,
    buf: &mut [u8],
) -> std::result::Result<(), HandshakeError> {
    let n = hs.write_message(&[], buf).map_err(|_| HandshakeError::Mismatch)?;
    frames.send_raw(buf[..n].to_vec()).await?;
    Ok(())
}

/// A completed handshake: the transport, and the other device's static key.
fn finished(hs: HandshakeState) -> std::result::Result<(TransportState, Vec<u8>), HandshakeError> {
    let remote = hs.get_remote_static().map(<[u8]>::to_vec).ok_or(HandshakeError::Mismatch)?;
    let noise = hs.into_transport_mode().map_err(|_| HandshakeError::Mismatch)?;
    Ok((noise, remote))
}

/// An encrypted, authenticated connection to one other device.
pub struct Channel {
    frames: Frames,
    noise: TransportState,
    /// A message's frames received so far: kept here, so a `recv` dropped while it waits
    /// for the next frame (in a `select!`) loses nothing.
    partial: Vec<u8>,
    /// The other device's static public key.
    pub remote: Vec<u8>,
}

impl Channel {
    pub fn new(frames: Frames, noise: TransportState, remote: Vec<u8>) -> Self {
        Channel { frames, noise, partial: Vec::new(), remote }
    }

    /// Sends one message (as many frames as it needs).
    pub async fn send<T: Serialize>(&mut self, msg: &T) -> Result<()> {
        let json = serde_json::to_vec(msg).expect("messages always serialize");
        if json.len() > MAX_MESSAGE {
            return Err(Error::link("a message would be larger than the link carries"));
        }
        let mut chunks = json.chunks(CHUNK).peekable();
        let mut plain = Vec::with_capacity(CHUNK + 1);
        let mut buf = vec![0u8; NOISE_MAX];
        loop {
            let chunk = chunks.next().unwrap_or(&[]);
            plain.clear();
            plain.push(u8::from(chunks.peek().is_some()));
            plain.extend_from_slice(chunk);
            let n = self
                .noise
                .write_message(&plain, &mut buf)
                .map_err(|_| Error::link("a message could not be encrypted"))?;
            self.frames.send_raw(buf[..n].to_vec()).await?;
            if chunks.peek().is_none() {
                return Ok(());
            }
        }
    }

    /// Receives the first message after the handshake; `None` when the frame did not
    /// decrypt. When pairing, that is how the host's clear-text "the code did not match"
    /// arrives (it could not make the channel); its words are never shown, since anyone on
    /// the path could have written them. Every other refusal comes encrypted.
    pub async fn recv_first<T: DeserializeOwned>(&mut self) -> Result<Option<T>> {
        let frame = self.frames.recv_raw().await?;
        let mut buf = vec![0u8; NOISE_MAX];
        let Ok(n) = self.noise.read_message(&frame, &mut buf) else { return Ok(None) };
        let Some((&0, json)) = buf[..n].split_first() else {
            return Err(Error::link("the table's first message is malformed"));
        };
        serde_json::from_slice(json).map(Some).map_err(|e| Error::link(format!("a malformed message: {e}")))
    }

    /// Receives one message from a joined device (at most `MAX_TO_HOST`).
    pub async fn recv_to_host(&mut self) -> Result<ToHost> {
        self.recv_at_most(MAX_TO_HOST).await
    }

    /// Receives one message. Anything that does not decrypt, is too large or is not a
    /// well-formed message of type `T` is an error: the caller closes the connection.
    /// Cancel-safe: it awaits only whole frames and keeps a message's parts in `self`.
    pub async fn recv<T: DeserializeOwned>(&mut self) -> Result<T> {
        self.recv_at_most(MAX_MESSAGE).await
    }

    async fn recv_at_most<T: DeserializeOwned>(&mut self, max: usize) -> Result<T> {
        let mut buf = vec![0u8; NOISE_MAX];
        loop {
            let frame = self.frames.recv_raw().await?;
            let n = self
                .noise
                .read_message(&frame, &mut buf)
                .map_err(|_| Error::link("a message did not decrypt (forged, replayed or damaged)"))?;
            let Some((&more, chunk)) = buf[..n].split_first() else {
                return Err(Error::link("an empty message"));
            };
            if self.partial.len() + chunk.len() > max {
                return Err(Error::link("a message larger than the link carries"));
            }
            self.partial.extend_from_slice(chunk);
            match more {
                0 => break,
                1 => continue,
                _ => return Err(Error::link("a malformed message")),
            }
        }
        let json = std::mem::take(&mut self.partial);
        serde_json::from_slice(&json).map_err(|e| Error::link(format!("a malformed message: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_however_they_are_typed() {
        assert_eq!(normalize_code("123-456"), "123456");
        assert_eq!(normalize_code(" 123 456 "), "123456");
    }

    #[test]
    fn the_same_code_gives_the_same_psk_and_another_code_does_not() {
        let (joiner, opening) = pair_start("123-456");
        let Opening::Pair { spake, .. } = opening else { panic!("a pairing opening") };
        let (reply, host_psk) = pair_answer("123456", &spake).unwrap();
        let OpeningReply::Pair { spake: reply } = reply else { panic!("a pairing reply") };
        assert_eq!(pair_finish(joiner, &reply).unwrap(), host_psk);

        let (joiner, opening) = pair_start("123-457");
        let Opening::Pair { spake, .. } = opening else { panic!("a pairing opening") };
        let (reply, host_psk) = pair_answer("123456", &spake).unwrap();
        let OpeningReply::Pair { spake: reply } = reply else { panic!("a pairing reply") };
        assert_ne!(pair_finish(joiner, &reply).unwrap(), host_psk);
    }

    #[test]
    fn malformed_pairing_messages_are_refused() {
        assert!(pair_answer("123456", "zz").is_err());
        assert!(pair_answer("123456", &"ab".repeat(200)).is_err());
        assert!(pair_answer("123456", "").is_err());
    }
}
