//! The linked table's commands: host a game, join a table, list and remove devices, the
//! changes the host refused, and "this character is mine". The link itself (pairing, the
//! encrypted connection, snapshots) is the core's `sheetkeeper::link`; this app keeps at most
//! one link running (`AppState`). The commands that only call a service are one line each
//! (`command.rs`); the others start, read or stop the link, so they are written out.
//!
//! A host listens on every interface (port chosen by the system) unless
//! `SHEETKEEPER_LINK_LISTEN=ADDR:PORT` names one (the window tests use 127.0.0.1).

use std::net::SocketAddr;
use std::time::Duration;

use serde::Serialize;
use sheetkeeper::link::discovery::{self, Nearby};
use sheetkeeper::link::qr::{self, Qr};
use sheetkeeper::link::{Claimed, HostConfig, HostHandle, HostStatus, JoinConfig, JoinHandle, JoinStatus};
use sheetkeeper::model::parse_id;
use sheetkeeper::services::{self, Done, PairedDevice};
use sheetkeeper::store::Refused;
use tauri::State;

use crate::command::commands;
use crate::error::AppError;
use crate::state::{AppState, Link};

type Reply<T> = Result<T, AppError>;

/// Where a host listens when the environment does not say.
const LISTEN_ENV: &str = "SHEETKEEPER_LINK_LISTEN";
/// This device's name as other devices list it, when the environment names it.
const NAME_ENV: &str = "SHEETKEEPER_DEVICE_NAME";
/// How long "Join a table nearby" listens for hosts.
const BROWSE: Duration = Duration::from_millis(1500);

/// What the host's panel shows: the code, the link and its QR code, the addresses.
#[derive(Serialize)]
pub struct HostView {
    #[serde(flatten)]
    pub status: HostStatus,
    /// Where other devices reach this host, `ADDR:PORT`, the likeliest first.
    pub addrs: Vec<String>,
    /// `sheetkeeper://join?addr=…&code=…` for the first address: what the QR code holds.
    pub link: String,
    pub qr: Qr,
    /// Whether the table is announced to "Join a table nearby" (multicast works here).
    pub announced: bool,
    /// Moves when another connection (the host's own, applying a device's change or move)
    /// wrote to the database: the page reloads the open screen when it does.
    pub changes: i64,
}

fn host_view(status: HostStatus, announced: bool, changes: i64) -> Reply<HostView> {
    let listen: Option<SocketAddr> = status.listen.parse().ok();
    let addrs = listen.map(discovery::reachable_at).unwrap_or_else(|| vec![status.listen.clone()]);
    let link = qr::join_link(addrs.first().map(String::as_str).unwrap_or(&status.listen), &status.code);
    let qr = qr::qr(&link)?;
    Ok(HostView { status, addrs, link, qr, announced, changes })
}

/// This device's name for the others: `SHEETKEEPER_DEVICE_NAME`, else the machine's name.
fn device_name() -> String {
    let from_env = std::env::var(NAME_ENV).ok();
    let from_host = || std::fs::read_to_string("/etc/hostname").ok();
    let name = from_env.or_else(from_host).unwrap_or_default();
    let name: String = name.trim().chars().filter(|c| !c.is_control()).take(60).collect();
    if name.is_empty() {
        "Sheetkeeper device".to_owned()
    } else {
        name
    }
}

fn listen_address() -> Reply<SocketAddr> {
    match std::env::var(LISTEN_ENV) {
        Ok(text) if !text.trim().is_empty() => text
            .trim()
            .parse()
            .map_err(|_| AppError::invalid(&format!("{LISTEN_ENV}: {text:?} is not an ADDRESS:PORT"))),
        _ => Ok(SocketAddr::from(([0, 0, 0, 0], 0))),
    }
}

/// Starts hosting `game` on this device: other devices join with the code shown.
#[tauri::command(async)]
pub fn link_host_start(state: State<'_, AppState>, game: String) -> Reply<HostView> {
    let game = parse_id("game", &game)?;
    let (db, name, changes) = {
        let store = state.store()?;
        let name = services::list(&store)?
            .into_iter()
            .find(|g| g.game.id == game)
            .map(|g| g.game.name)
            .ok_or_else(|| AppError::not_found("That game is not on this device any more."))?;
        (store.path().to_path_buf(), name, store.read().data_version()?)
    };
    let listen = listen_address()?;
    let mut view = None;
    state.start_link(|| {
        let config = HostConfig { db, game, listen, name: device_name() };
        let host = HostHandle::start(config)?;
        let status = host.status();
        let port = status.listen.parse::<SocketAddr>().map(|a| a.port()).unwrap_or(0);
        // Best effort: a network without multicast still links by the address typed in.
        let advert = match discovery::advertise(&name, game, port) {
            Ok(advert) => Some(advert),
            Err(e) => {
                eprintln!("sheetkeeper: {e}");
                None
            }
        };
        view = Some(host_view(status, advert.is_some(), changes)?);
        Ok(Link::host(host, advert))
    })?;
    view.ok_or_else(|| AppError::internal("the host started without a status"))
}

/// The host's panel again (null when this app hosts nothing). The page polls it slowly
/// while hosting, to redraw when a device's change landed (`changes`).
#[tauri::command(async)]
pub fn link_host_status(state: State<'_, AppState>) -> Reply<Option<HostView>> {
    let Some(host) = state.hosting() else { return Ok(None) };
    let announced = state.announced();
    let changes = state.store()?.read().data_version()?;
    Ok(Some(host_view(host.handle().status(), announced, changes)?))
}

/// Stops hosting or leaves the table; every device keeps its data.
#[tauri::command(async)]
pub fn link_stop(state: State<'_, AppState>) -> Reply<Done> {
    let hosting = state.hosting().is_some();
    Ok(Done {
        message: match (state.stop_link(), hosting) {
            (false, _) => "This device was not linked to a table.".into(),
            (true, true) => "Stopped hosting. Every device keeps what it has.".into(),
            (true, false) => "Left the table. This device keeps what it has.".into(),
        },
    })
}

/// Joins the table at `addr` (`ADDR:PORT`, or a whole `sheetkeeper://join?…` link) with
/// `code` (not needed again once paired); `name` is this device's name for the host.
#[tauri::command(async)]
pub fn link_join(
    state: State<'_, AppState>,
    addr: String,
    code: Option<String>,
    name: Option<String>,
) -> Reply<JoinStatus> {
    let (addr, code) = match qr::parse_join_link(&addr) {
        Some((addr, code)) => (addr, Some(code)),
        None => (addr.trim().to_owned(), code),
    };
    let addr: SocketAddr = addr.parse().map_err(|_| {
        AppError::invalid(&format!(
            "address: {addr:?} is not an address and port such as 192.168.1.20:41234 (the host's panel shows it)"
        ))
    })?;
    let code = code.map(|c| c.trim().to_owned()).filter(|c| !c.is_empty());
    let name = name.map(|n| n.trim().chars().filter(|c| !c.is_control()).take(60).collect::<String>());
    let name = name.filter(|n| !n.is_empty()).unwrap_or_else(device_name);
    let db = state.store()?.path().to_path_buf();
    let mut status = None;
    state.start_link(|| {
        let join = JoinHandle::start(JoinConfig { db, addr, code, name });
        status = Some(join.status());
        Ok(Link::join(join))
    })?;
    status.ok_or_else(|| AppError::internal("the join started without a status"))
}

/// The joined link's state (null when this app is not joined to a table). The page polls it
/// while joined and redraws when `revision` grows.
#[tauri::command(async)]
pub fn link_join_status(state: State<'_, AppState>) -> Reply<Option<JoinStatus>> {
    Ok(state.joined().map(|join| join.handle().status()))
}

/// Tables hosted nearby (listens for a moment; an empty list when none answered).
#[tauri::command(async)]
pub fn link_nearby() -> Reply<Vec<Nearby>> {
    Ok(discovery::browse(BROWSE)?)
}

commands! {
    /// The devices paired on this device (for `game`, or all).
    read link_devices(opt_id_first game) -> Vec<PairedDevice>;
    /// Removes a paired device: it cannot reconnect without a new code.
    write link_unpair(id device) -> Done;
    /// The changes of this device's characters that the host refused, with its reasons.
    read link_refused(id game) -> Vec<Refused>;
    /// Puts away one refused change's notice (the character keeps what it has here).
    write link_dismiss_refused(id id) -> Done;
}

/// What became of a claim: `yours` now, or `asked` (the table's person approves it first).
#[derive(Serialize)]
pub struct ClaimReply {
    pub claimed: Claimed,
    pub message: String,
}

/// "This character is mine": the host lets this device change it from now on, at once when
/// it is this device's already, else once the table's person approves.
#[tauri::command(async)]
pub fn link_claim(state: State<'_, AppState>, character: String) -> Reply<ClaimReply> {
    let id = parse_id("character", &character)?;
    let join = state.joined().ok_or_else(|| AppError::invalid("This device is not joined to a table."))?;
    let claimed = join.handle().claim(id)?;
    let message = match claimed {
        Claimed::Yours => "The table knows this character is yours.".to_owned(),
        Claimed::Asked => {
            let name = state.store()?.read().character(id)?.map(|c| c.name);
            let name = name.map_or_else(|| "this character".to_owned(), |n| format!("“{n}”"));
            format!("Asked the table: {name} becomes yours once the table's person approves.")
        }
    };
    Ok(ClaimReply { claimed, message })
}

/// The host's person lets `device` play `character` (it asked to).
#[tauri::command(async)]
pub fn link_host_approve_claim(state: State<'_, AppState>, device: String, character: String) -> Reply<()> {
    Ok(hosting(&state)?.handle().approve_claim(parse_id("device", &device)?, parse_id("character", &character)?)?)
}

/// The host's person says no to `device`'s claim of `character`; the device is told.
#[tauri::command(async)]
pub fn link_host_decline_claim(state: State<'_, AppState>, device: String, character: String) -> Reply<()> {
    Ok(hosting(&state)?.handle().decline_claim(parse_id("device", &device)?, parse_id("character", &character)?)?)
}

/// Opens pairing again after wrong codes paused it: a new code shows.
#[tauri::command(async)]
pub fn link_host_open_pairing(state: State<'_, AppState>) -> Reply<()> {
    hosting(&state)?.handle().open_pairing();
    Ok(())
}

fn hosting(state: &AppState) -> Reply<std::sync::Arc<crate::state::Hosting>> {
    state.hosting().ok_or_else(|| AppError::invalid("This device is not hosting a table."))
}
