//! A TCP proxy between a device and the host that records every byte and can tamper with
//! the device's frames (tokio-util's length-delimited frames: a 4-byte big-endian length).

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What to do to the device's next frame after its hello (its fifth frame or later: the
/// opening, two handshake messages and the hello come first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tamper {
    /// Send it twice (a replay).
    Duplicate,
    /// Send its length and half of it, then close the way to the host.
    Truncate,
}

/// The frames a device sends before its first message after the hello.
const OPENING_FRAMES: usize = 4;

struct Conn {
    to_host: Arc<Mutex<TcpStream>>,
    host_closed: Arc<AtomicBool>,
}

#[derive(Default)]
struct Shared {
    captured: Mutex<Vec<u8>>,
    conns: Mutex<Vec<Conn>>,
    tamper: Mutex<Option<Tamper>>,
    /// The host's bytes wait here while set (the device hears nothing until released).
    held: AtomicBool,
}

pub struct Proxy {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Proxy {
    pub fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared::default());
        let s = shared.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(host) = TcpStream::connect(upstream) else { continue };
                let _ = (client.set_nodelay(true), host.set_nodelay(true));
                let to_host = Arc::new(Mutex::new(host.try_clone().unwrap()));
                let host_closed = Arc::new(AtomicBool::new(false));
                s.conns.lock().unwrap().push(Conn { to_host: to_host.clone(), host_closed: host_closed.clone() });
                let (s1, s2) = (s.clone(), s.clone());
                let client2 = client.try_clone().unwrap();
                std::thread::spawn(move || device_to_host(&s1, client, &to_host));
                std::thread::spawn(move || host_to_device(&s2, host, client2, &host_closed));
            }
        });
        Proxy { addr, shared }
    }

    /// Every byte that went through, both ways.
    pub fn captured(&self) -> Vec<u8> {
        self.shared.captured.lock().unwrap().clone()
    }

    pub fn connections(&self) -> usize {
        self.shared.conns.lock().unwrap().len()
    }

    /// Whether the host closed connection `i` (counted from 0, in the order they came).
    pub fn host_closed(&self, i: usize) -> bool {
        self.shared.conns.lock().unwrap().get(i).is_some_and(|c| c.host_closed.load(Ordering::SeqCst))
    }

    /// Writes `bytes` as they are to the host on connection `i`, between two whole frames.
    pub fn inject(&self, i: usize, bytes: &[u8]) {
        let conns = self.shared.conns.lock().unwrap();
        let mut to_host = conns[i].to_host.lock().unwrap();
        let _ = to_host.write_all(bytes);
    }

    pub fn tamper_next(&self, tamper: Tamper) {
        *self.shared.tamper.lock().unwrap() = Some(tamper);
    }

    /// Holds what the host sends (answers, snapshots) until `release`: what the device sends
    /// still goes through.
    pub fn hold(&self) {
        self.shared.held.store(true, Ordering::SeqCst);
    }

    pub fn release(&self) {
        self.shared.held.store(false, Ordering::SeqCst);
    }

    /// Whether the tampering asked for has been done.
    pub fn tampered(&self) -> bool {
        self.shared.tamper.lock().unwrap().is_none()
    }
}

fn device_to_host(shared: &Shared, mut client: TcpStream, to_host: &Mutex<TcpStream>) {
    let mut n = 0usize;
    loop {
        let mut len = [0u8; 4];
        if client.read_exact(&mut len).is_err() {
            break;
        }
        let size = u32::from_be_bytes(len) as usize;
        let mut body = vec![0u8; size.min(1 << 20)];
        if client.read_exact(&mut body).is_err() {
            break;
        }
        let mut frame = len.to_vec();
        frame.extend_from_slice(&body);
        shared.captured.lock().unwrap().extend_from_slice(&frame);
        let tamper = if n >= OPENING_FRAMES { shared.tamper.lock().unwrap().take() } else { None };
        n += 1;
        let mut host = to_host.lock().unwrap();
        let sent = match tamper {
            None => host.write_all(&frame),
            Some(Tamper::Duplicate) => host.write_all(&frame).and_then(|()| host.write_all(&frame)),
            Some(Tamper::Truncate) => {
                let _ = host.write_all(&frame[..4 + size / 2]);
                let _ = host.shutdown(Shutdown::Write);
                break;
            }
        };
        if sent.is_err() {
            break;
        }
    }
    let _ = to_host.lock().unwrap().shutdown(Shutdown::Write);
}

fn host_to_device(shared: &Shared, mut host: TcpStream, mut client: TcpStream, closed: &AtomicBool) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match host.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                shared.captured.lock().unwrap().extend_from_slice(&buf[..n]);
                while shared.held.load(Ordering::SeqCst) {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                if client.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
        }
    }
    closed.store(true, Ordering::SeqCst);
    let _ = client.shutdown(Shutdown::Both);
}
