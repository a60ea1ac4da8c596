//! The linked table — PLACEHOLDER on the `linkui` branch until the core lands on main: the
//! contract's types with stand-in bodies, so the window's commands and screens can be built
//! against it. The merge takes main's version of this file.

pub mod discovery;
pub mod qr;

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::rules::penny_ante::challenge::Move;
use crate::services::{ChallengeDraft, DiceInput, Done};
use crate::{Error, Result, Store};

pub struct HostConfig {
    pub db: PathBuf,
    pub game: Uuid,
    pub listen: SocketAddr,
    pub name: String,
}

pub struct HostHandle {
    status: HostStatus,
    _listener: TcpListener,
}

#[derive(Clone, Debug, Serialize)]
pub struct HostStatus {
    pub game: Uuid,
    pub listen: String,
    pub code: String,
    pub online: Vec<Uuid>,
    pub wrong_tries: u32,
}

impl HostHandle {
    pub fn start(config: HostConfig) -> Result<HostHandle> {
        let listener = TcpListener::bind(config.listen)
            .map_err(|e| Error::Invalid { field: "listen".into(), problem: e.to_string() })?;
        let listen =
            listener.local_addr().map_err(|e| Error::Invalid { field: "listen".into(), problem: e.to_string() })?;
        Ok(HostHandle {
            status: HostStatus {
                game: config.game,
                listen: listen.to_string(),
                code: "K7P-4QX".into(),
                online: vec![],
                wrong_tries: 0,
            },
            _listener: listener,
        })
    }
    pub fn status(&self) -> HostStatus {
        self.status.clone()
    }
    pub fn stop(self) {}
}

pub struct JoinConfig {
    pub db: PathBuf,
    pub addr: SocketAddr,
    pub code: Option<String>,
    pub name: String,
}

pub struct JoinHandle {
    _config: JoinConfig,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkState {
    Connecting,
    Linked,
    Away,
    Ended,
    WrongCode,
}

#[derive(Clone, Debug, Serialize)]
pub struct JoinStatus {
    pub state: LinkState,
    pub game: Option<Uuid>,
    pub revision: u64,
    pub message: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameMove {
    PennyChallenge { mv: Move, dice: DiceInput },
    PennyStartChallenge { draft: ChallengeDraftWire },
}

/// Stand-in: `ChallengeDraft` is not `Serialize` yet.
#[derive(Serialize, Deserialize)]
pub struct ChallengeDraftWire;

impl From<ChallengeDraft> for ChallengeDraftWire {
    fn from(_: ChallengeDraft) -> Self {
        ChallengeDraftWire
    }
}

impl JoinHandle {
    pub fn start(config: JoinConfig) -> JoinHandle {
        JoinHandle { _config: config }
    }
    pub fn status(&self) -> JoinStatus {
        JoinStatus { state: LinkState::Connecting, game: None, revision: 0, message: None }
    }
    pub fn claim(&self, _character: Uuid) -> Result<()> {
        Err(Error::Invalid { field: "link".into(), problem: "not built yet".into() })
    }
    pub fn submit_move(&self, _mv: GameMove) -> Result<()> {
        Err(Error::Invalid { field: "link".into(), problem: "not built yet".into() })
    }
    pub fn stop(self) {}
}

#[derive(Clone, Debug, Serialize)]
pub struct PairedDevice {
    pub id: Uuid,
    pub name: String,
    pub game: Uuid,
    pub game_name: String,
    pub side: String,
    pub characters: Vec<Uuid>,
    pub paired_at: String,
    pub removed: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct RefusedChange {
    pub id: Uuid,
    pub character: Uuid,
    pub name: String,
    pub reason: String,
    pub at: String,
}

pub fn link_devices(_store: &Store, _game: Option<Uuid>) -> Result<Vec<PairedDevice>> {
    Ok(vec![])
}
pub fn link_unpair(_store: &mut Store, _device: Uuid) -> Result<Done> {
    Err(Error::Invalid { field: "device".into(), problem: "not built yet".into() })
}
pub fn link_refused(_store: &Store, _game: Uuid) -> Result<Vec<RefusedChange>> {
    Ok(vec![])
}
pub fn link_dismiss_refused(_store: &mut Store, _id: Uuid) -> Result<Done> {
    Err(Error::Invalid { field: "id".into(), problem: "not built yet".into() })
}
