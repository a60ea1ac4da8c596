//! Finding a hosted table on the local network: DNS-SD over mDNS (`_sheetkeeper._tcp`),
//! through the `mdns-sd` crate (no async runtime of its own; it runs one thread per daemon).
//!
//! A host advertises one service per hosted game: the instance is named after the game, and
//! its TXT record holds the game's id and name. A joining device browses for a moment and
//! lists what answered. Both are best effort: where multicast is unavailable (a network that
//! drops it, a sandbox), `advertise` fails with a message the host logs and ignores, and
//! `browse` finds nothing; typing the address is the fallback.
//!
//! What a browse hears comes from anyone on the network, so it is checked like any other
//! input: the game id must be a UUID, the name is cut to a sane length without control
//! characters, and only so many hosts and addresses are kept. Nothing found here is trusted
//! for more than showing a list: joining still needs the code (SPAKE2) or a pinned key.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use mdns_sd::{ServiceDaemon, ServiceEvent, ServiceInfo};
use serde::Serialize;
use uuid::Uuid;

use crate::{Error, Result};

/// The DNS-SD service type of a hosted table.
pub const SERVICE_TYPE: &str = "_sheetkeeper._tcp.local.";

/// TXT keys: the game's id and its name.
const TXT_GAME: &str = "game";
const TXT_NAME: &str = "name";

/// A game's name in a TXT value (each value is at most 255 bytes on the wire).
const MAX_NAME_CHARS: usize = 80;
/// An instance label is at most 63 bytes; the name part leaves room for a short id.
const MAX_INSTANCE_NAME_BYTES: usize = 40;
/// More hosts than any room holds: a flood of answers cannot grow the list without bound.
const MAX_HOSTS: usize = 32;
/// Addresses kept per host.
const MAX_ADDRS: usize = 8;

/// A hosted table heard on the network.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Nearby {
    /// The game's name as the host advertises it (cut and cleaned).
    pub name: String,
    pub game: Uuid,
    /// Where the host listens, `ADDR:PORT` (IPv4 first), ready for "join".
    pub addrs: Vec<String>,
}

/// A running advertisement; dropping it withdraws the service (a goodbye packet) and stops
/// its daemon thread.
pub struct Advertisement {
    daemon: ServiceDaemon,
    fullname: String,
}

impl std::fmt::Debug for Advertisement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Advertisement").field("fullname", &self.fullname).finish()
    }
}

impl Drop for Advertisement {
    fn drop(&mut self) {
        // Wait a little for the goodbye to go out, never for long: stopping a host must not hang.
        if let Ok(done) = self.daemon.unregister(&self.fullname) {
            let _ = done.recv_timeout(Duration::from_secs(1));
        }
        if let Ok(done) = self.daemon.shutdown() {
            let _ = done.recv_timeout(Duration::from_secs(1));
        }
    }
}

fn unavailable(e: impl std::fmt::Display) -> Error {
    Error::Invalid {
        field: "discovery".into(),
        problem: format!("tables nearby cannot be announced or found on this network ({e}); type the address instead"),
    }
}

/// Advertises the game `game` named `name`, hosted on `port` of this device's LAN
/// addresses, until the returned value is dropped.
pub fn advertise(name: &str, game: Uuid, port: u16) -> Result<Advertisement> {
    if port == 0 {
        return Err(Error::Invalid {
            field: "port".into(),
            problem: "a hosted table needs its real port, not 0".into(),
        });
    }
    let daemon = ServiceDaemon::new().map_err(unavailable)?;
    let shown = clean_name(name, MAX_NAME_CHARS);
    let game_text = game.to_string();
    // Two hosts of games with the same name stay two instances: the id's start tells them apart.
    let instance = format!("{} {}", cut_to_bytes(&shown, MAX_INSTANCE_NAME_BYTES), &game_text[..8]);
    let host = format!("sheetkeeper-{}.local.", &game_text[..8]);
    let properties = [(TXT_GAME, game_text.as_str()), (TXT_NAME, shown.as_str())];
    let info = ServiceInfo::new(SERVICE_TYPE, instance.trim(), &host, "", port, &properties[..])
        .map_err(unavailable)?
        .enable_addr_auto();
    let fullname = info.get_fullname().to_string();
    if let Err(e) = daemon.register(info) {
        let _ = daemon.shutdown();
        return Err(unavailable(e));
    }
    Ok(Advertisement { daemon, fullname })
}

/// Listens for hosted tables for `wait` and returns those heard, by name. An empty list when
/// none answered (or multicast does not reach this device); an error only when mDNS cannot
/// start at all here.
pub fn browse(wait: Duration) -> Result<Vec<Nearby>> {
    let daemon = ServiceDaemon::new().map_err(unavailable)?;
    let events = match daemon.browse(SERVICE_TYPE) {
        Ok(events) => events,
        Err(e) => {
            let _ = daemon.shutdown();
            return Err(unavailable(e));
        }
    };
    let mut found: BTreeMap<Uuid, Nearby> = BTreeMap::new();
    let deadline = Instant::now() + wait;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        let Ok(event) = events.recv_timeout(left) else { break };
        let ServiceEvent::ServiceResolved(service) = event else { continue };
        let name = service.txt_properties.get_property_val_str(TXT_NAME).map(str::to_owned);
        let game = service.txt_properties.get_property_val_str(TXT_GAME).map(str::to_owned);
        let ips: Vec<IpAddr> = service.addresses.iter().map(|a| a.to_ip_addr()).collect();
        if let Some(nearby) = heard(name.as_deref(), game.as_deref(), &ips, service.port) {
            if found.len() < MAX_HOSTS || found.contains_key(&nearby.game) {
                let entry = found.entry(nearby.game).or_insert_with(|| Nearby { addrs: vec![], ..nearby.clone() });
                for addr in nearby.addrs {
                    if !entry.addrs.contains(&addr) && entry.addrs.len() < MAX_ADDRS {
                        entry.addrs.push(addr);
                    }
                }
            }
        }
    }
    let _ = daemon.stop_browse(SERVICE_TYPE);
    if let Ok(done) = daemon.shutdown() {
        let _ = done.recv_timeout(Duration::from_secs(1));
    }
    let mut list: Vec<Nearby> = found.into_values().collect();
    for nearby in &mut list {
        nearby.addrs.sort_by_key(|a| a.parse::<SocketAddr>().map(|a| address_order(&a.ip())).ok());
    }
    list.sort_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.game.cmp(&b.game)));
    Ok(list)
}

/// Where another device can reach a host listening on `listen`: that address itself when it
/// names one, else (listening on every interface) this device's own addresses on `listen`'s
/// port, IPv4 first and loopback last, as `ADDR:PORT`.
pub fn reachable_at(listen: SocketAddr) -> Vec<String> {
    if !listen.ip().is_unspecified() {
        return vec![listen.to_string()];
    }
    let mut ips: Vec<IpAddr> =
        if_addrs::get_if_addrs().map(|interfaces| interfaces.into_iter().map(|i| i.ip()).collect()).unwrap_or_default();
    ips.retain(usable);
    if listen.is_ipv4() {
        ips.retain(IpAddr::is_ipv4);
    }
    ips.sort_by_key(address_order);
    ips.dedup();
    if ips.is_empty() {
        ips.push(listen.ip());
    }
    ips.into_iter().take(MAX_ADDRS).map(|ip| SocketAddr::new(ip, listen.port()).to_string()).collect()
}

/// What one answer says, checked: `None` when it is not a Sheetkeeper table (no or a bad
/// game id, no usable address).
fn heard(name: Option<&str>, game: Option<&str>, ips: &[IpAddr], port: u16) -> Option<Nearby> {
    let game = Uuid::parse_str(game?.trim()).ok()?;
    if port == 0 {
        return None;
    }
    let mut ips: Vec<IpAddr> = ips.iter().copied().filter(usable).collect();
    ips.sort_by_key(address_order);
    ips.dedup();
    let addrs: Vec<String> = ips.into_iter().take(MAX_ADDRS).map(|ip| SocketAddr::new(ip, port).to_string()).collect();
    if addrs.is_empty() {
        return None;
    }
    let name = clean_name(name.unwrap_or(""), MAX_NAME_CHARS);
    let name = if name.is_empty() { "A table".to_owned() } else { name };
    Some(Nearby { name, game, addrs })
}

/// IPv4 first (what people read and type), then IPv6, this device's own loopback last (only
/// another app on the same device can use it); each in a stable order.
fn address_order(ip: &IpAddr) -> (bool, bool, IpAddr) {
    (ip.is_loopback(), ip.is_ipv6(), *ip)
}

/// An address another device could connect to: not unspecified or multicast, and no IPv6
/// link-local one (it needs a scope this list does not carry).
fn usable(ip: &IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => !v4.is_unspecified() && !v4.is_multicast() && !v4.is_broadcast(),
        IpAddr::V6(v6) => !v6.is_unspecified() && !v6.is_multicast() && (v6.segments()[0] & 0xffc0) != 0xfe80,
    }
}

/// The longest start of `text` that fits in `max` bytes, cut between characters.
fn cut_to_bytes(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].trim_end()
}

/// `name` without control characters, spaces collapsed, at most `max` characters.
fn clean_name(name: &str, max: usize) -> String {
    let spaced: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, Ipv6Addr};

    use super::*;

    #[test]
    fn an_answer_without_a_game_id_is_not_a_table() {
        let ip = [IpAddr::V4(Ipv4Addr::new(192, 168, 1, 5))];
        assert_eq!(heard(Some("Night"), None, &ip, 4000), None);
        assert_eq!(heard(Some("Night"), Some("not-a-uuid"), &ip, 4000), None);
        let game = Uuid::new_v4().to_string();
        assert_eq!(heard(Some("Night"), Some(&game), &[], 4000), None, "no address");
        assert_eq!(heard(Some("Night"), Some(&game), &ip, 0), None, "no port");
    }

    #[test]
    fn an_answer_is_cleaned_and_ipv4_comes_first() {
        let game = Uuid::new_v4();
        let ips = [
            IpAddr::V6(Ipv6Addr::new(0xfd00, 0, 0, 0, 0, 0, 0, 7)),
            IpAddr::V6(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 1)),
            IpAddr::V4(Ipv4Addr::new(192, 168, 1, 9)),
            IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)),
            IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)),
        ];
        let long = format!("Thursday\u{7}\n  Mystery {}", "x".repeat(200));
        let nearby = heard(Some(&long), Some(&game.to_string()), &ips, 4321).unwrap();
        assert_eq!(nearby.game, game);
        assert_eq!(nearby.addrs, vec!["10.0.0.2:4321", "192.168.1.9:4321", "[fd00::7]:4321"]);
        assert!(nearby.name.starts_with("Thursday Mystery xx"), "{:?}", nearby.name);
        assert_eq!(nearby.name.chars().count(), MAX_NAME_CHARS);
        assert!(!nearby.name.chars().any(char::is_control));
        let unnamed = heard(None, Some(&game.to_string()), &ips[2..3], 1).unwrap();
        assert_eq!(unnamed.name, "A table");
    }

    #[test]
    fn a_name_is_cut_between_characters() {
        assert_eq!(cut_to_bytes("Ünïcødé table", 4), "Ün");
        assert_eq!(cut_to_bytes("Ünïcødé table", 5), "Ünï");
        assert_eq!(cut_to_bytes("ab cd", 3), "ab");
        assert_eq!(cut_to_bytes("short", 40), "short");
    }

    #[test]
    fn a_host_on_one_address_is_reached_there_and_on_all_at_its_own() {
        let one: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        assert_eq!(reachable_at(one), vec!["127.0.0.1:4000"]);
        let all = reachable_at("0.0.0.0:4001".parse().unwrap());
        assert!(!all.is_empty());
        for addr in &all {
            let addr: SocketAddr = addr.parse().unwrap();
            assert!(addr.is_ipv4() && !addr.ip().is_unspecified() && addr.port() == 4001, "{addr}");
        }
        let last_is_loopback = all.iter().position(|a| a.starts_with("127."));
        assert!(last_is_loopback.is_none_or(|at| at == all.len() - 1), "loopback last: {all:?}");
    }

    #[test]
    fn advertising_needs_a_real_port() {
        let e = advertise("Night", Uuid::new_v4(), 0).unwrap_err();
        assert!(e.to_string().starts_with("port:"), "{e}");
    }
}

/// Multicast reaches this machine's own interfaces (checked on the development machines and
/// CI, which are the same kind): a table advertised here is heard by a browse here.
#[cfg(test)]
mod on_this_machine {
    use super::*;

    #[test]
    fn an_advertised_table_is_found_and_withdrawn() {
        let game = Uuid::new_v4();
        let advert = advertise("Harbour\nNight", game, 45678).unwrap();
        // A browse listens for a fixed moment; a slow machine gets a few of them.
        let mut heard = None;
        for _ in 0..5 {
            heard = browse(Duration::from_secs(2)).unwrap().into_iter().find(|n| n.game == game);
            if heard.is_some() {
                break;
            }
        }
        let heard = heard.expect("the advertised table was heard");
        assert_eq!(heard.name, "Harbour Night");
        assert!(!heard.addrs.is_empty() && heard.addrs.iter().all(|a| a.ends_with(":45678")), "{:?}", heard.addrs);
        let addrs: Vec<SocketAddr> = heard.addrs.iter().map(|a| a.parse().unwrap()).collect();
        let mut sorted = addrs.clone();
        sorted.sort_by_key(|a| address_order(&a.ip()));
        assert_eq!(addrs, sorted, "IPv4 first, loopback last");
        drop(advert);
    }
}
