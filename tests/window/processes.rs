//! What one WebDriver session's processes are, and who listens on a port, read from Linux's
//! `/proc`. A session's `tauri-driver` runs in a process group of its own, with everything it
//! starts (WebKitWebDriver, the app, WebKit's processes), so the session can check that the
//! ports it talks to are its own and, when it ends, wait for all of them to be gone.

use std::collections::HashSet;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

const POLL: Duration = Duration::from_millis(50);

/// The live processes of the process group `group` (zombies hold no port, window or file).
pub fn members(group: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| state_and_group(pid).is_some_and(|(state, g)| g == group && state != 'Z' && state != 'X'))
        .collect()
}

/// A process's state letter and process group, from `/proc/PID/stat`.
fn state_and_group(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name, in parentheses, may hold spaces and parentheses itself: read after the last.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let _parent = fields.next()?;
    Some((state, fields.next()?.parse().ok()?))
}

/// Who listens on a local TCP port.
#[derive(Debug, PartialEq, Eq)]
pub enum Listener {
    Nobody,
    /// A process of the group.
    Group,
    /// A process outside the group: another session's driver or app, or anything else.
    Other,
}

/// Who listens on TCP `port` (any local address), as seen from the process group `group`.
pub fn listener(port: u16, group: u32) -> Listener {
    let sockets = listening_sockets(port);
    if sockets.is_empty() {
        Listener::Nobody
    } else if members(group).into_iter().any(|pid| holds_any(pid, &sockets)) {
        Listener::Group
    } else {
        Listener::Other
    }
}

/// The inodes of the sockets listening on `port`, from `/proc/net/tcp` and `tcp6`.
fn listening_sockets(port: u16) -> HashSet<u64> {
    const LISTEN: &str = "0A";
    let mut sockets = HashSet::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else { continue };
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
        for fields in text.lines().skip(1).map(|line| line.split_whitespace().collect::<Vec<_>>()) {
            let local_port =
                fields.get(1).and_then(|a| a.rsplit(':').next()).and_then(|p| u16::from_str_radix(p, 16).ok());
            if local_port == Some(port) && fields.get(3) == Some(&LISTEN) {
                sockets.extend(fields.get(9).and_then(|inode| inode.parse::<u64>().ok()));
            }
        }
    }
    sockets
}

/// True when process `pid` has one of `sockets` open.
fn holds_any(pid: u32, sockets: &HashSet<u64>) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return false };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter_map(|target| target.to_str()?.strip_prefix("socket:[")?.strip_suffix(']')?.parse::<u64>().ok())
        .any(|inode| sockets.contains(&inode))
}

/// The port of the app's WebKit inspector server: WebKitWebDriver picks a free one and hands
/// it to the app it starts as `WEBKIT_INSPECTOR_SERVER`, then drives whatever answers there.
pub fn inspector_port(group: u32) -> Option<u16> {
    members(group).into_iter().find_map(|pid| {
        let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
        environ.split(|&b| b == 0).find_map(|var| {
            let address = std::str::from_utf8(var.strip_prefix(b"WEBKIT_INSPECTOR_SERVER=")?).ok()?;
            address.rsplit(':').next()?.parse().ok()
        })
    })
}

/// Sends `signal` (`TERM`, `KILL`) to every process of the group.
pub fn signal(group: u32, signal: &str) {
    assert!(group > 1, "not a process group of our own: {group}");
    let _ = Command::new("kill").arg(format!("-{signal}")).arg("--").arg(format!("-{group}")).status();
}

/// Polls until the group has no live process, for at most `limit`; true once it has none.
pub fn wait_gone(group: u32, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while !members(group).is_empty() {
        if Instant::now() >= deadline {
            return false;
        }
        sleep(POLL);
    }
    true
}
