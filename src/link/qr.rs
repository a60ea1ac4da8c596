//! The QR code a host shows: the address and the code of the table, for a phone's camera.
//! Encoded by the `qrcode` crate; the window draws the modules itself (SVG rects made with
//! `createElementNS`), so no image or markup crosses from here to the page.
//!
//! The text in it: `sheetkeeper://join?addr=ADDR:PORT&code=CODE` ([`join_link`]);
//! [`parse_join_link`] reads one back (a link pasted or scanned on a joining device).

use serde::Serialize;

use crate::{Error, Result};

/// A QR code as its modules: `size` × `size`, row-major, `true` for dark. No quiet zone
/// (the page leaves four modules of margin around it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Qr {
    pub size: usize,
    pub dark: Vec<bool>,
}

impl Qr {
    /// Whether the module at column `x`, row `y` is dark (false outside the code).
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.size && y < self.size && self.dark[y * self.size + x]
    }
}

/// A table's link is short; anything longer than this is not one.
const MAX_TEXT: usize = 512;

/// The QR code of `text` (medium error correction: a screen photographed at an angle still
/// reads).
pub fn qr(text: &str) -> Result<Qr> {
    if text.is_empty() || text.len() > MAX_TEXT {
        return Err(Error::Invalid {
            field: "qr".into(),
            problem: format!("a QR code here holds 1 to {MAX_TEXT} bytes, not {}", text.len()),
        });
    }
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map_err(|e| Error::Invalid { field: "qr".into(), problem: format!("cannot be encoded: {e}") })?;
    let size = code.width();
    let dark = code.into_colors().into_iter().map(|c| c == qrcode::Color::Dark).collect();
    Ok(Qr { size, dark })
}

/// The scheme and path of a table's link.
const LINK_START: &str = "sheetkeeper://join?";

/// `sheetkeeper://join?addr=ADDR:PORT&code=CODE`, the address and code percent-encoded
/// where they hold anything but letters, digits and `.:-[]`.
pub fn join_link(addr: &str, code: &str) -> String {
    format!("{LINK_START}addr={}&code={}", encode(addr), encode(code))
}

/// The address and code of a table's link; `None` for any other text.
pub fn parse_join_link(text: &str) -> Option<(String, String)> {
    let query = text.trim().strip_prefix(LINK_START)?;
    let (mut addr, mut code) = (None, None);
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=')?;
        let value = decode(value)?;
        match key {
            "addr" if addr.is_none() => addr = Some(value),
            "code" if code.is_none() => code = Some(value),
            _ => return None,
        }
    }
    let (addr, code) = (addr?, code?);
    (!addr.is_empty() && !code.is_empty()).then_some((addr, code))
}

fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b".:-[]".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().filter(|s| !s.chars().any(char::is_control))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 7 × 7 finder pattern every QR code has in three corners.
    fn has_finder(qr: &Qr, x0: usize, y0: usize) -> bool {
        (0..7).all(|y| {
            (0..7).all(|x| {
                let ring = x == 0 || y == 0 || x == 6 || y == 6;
                let centre = (2..=4).contains(&x) && (2..=4).contains(&y);
                qr.is_dark(x0 + x, y0 + y) == (ring || centre)
            })
        })
    }

    #[test]
    fn a_link_becomes_a_square_code_with_its_three_finders() {
        let link = join_link("192.168.1.20:41234", "K7P-4QX");
        let code = qr(&link).unwrap();
        assert_eq!(code.dark.len(), code.size * code.size);
        assert_eq!((code.size - 21) % 4, 0, "a QR version's size is 21 + 4k");
        assert!(code.size >= 25, "this much text needs more than version 1: {}", code.size);
        let n = code.size;
        assert!(has_finder(&code, 0, 0) && has_finder(&code, n - 7, 0) && has_finder(&code, 0, n - 7));
        assert!(!has_finder(&code, n - 7, n - 7), "no finder in the fourth corner");
        assert_eq!(qr(&link).unwrap(), code, "the same text gives the same code");
        assert_ne!(qr(&join_link("192.168.1.20:41234", "K7P-4QY")).unwrap(), code);
    }

    #[test]
    fn empty_or_huge_text_is_refused_with_the_field() {
        for text in [String::new(), "x".repeat(MAX_TEXT + 1)] {
            let e = qr(&text).unwrap_err();
            assert!(e.to_string().starts_with("qr:"), "{e}");
        }
    }

    #[test]
    fn a_link_reads_back() {
        let link = join_link("[fd00::7]:4000", "AB 12&x=y");
        assert_eq!(link, "sheetkeeper://join?addr=[fd00::7]:4000&code=AB%2012%26x%3Dy");
        assert_eq!(parse_join_link(&link), Some(("[fd00::7]:4000".into(), "AB 12&x=y".into())));
        assert_eq!(
            parse_join_link(" sheetkeeper://join?addr=10.0.0.2:1&code=Z \n"),
            Some(("10.0.0.2:1".into(), "Z".into()))
        );
        for bad in [
            "https://join?addr=1:1&code=Z",
            "sheetkeeper://join?addr=1:1",
            "sheetkeeper://join?addr=1:1&code=",
            "sheetkeeper://join?addr=1:1&code=Z&code=Y",
            "sheetkeeper://join?addr=1:1&code=Z&other=1",
            "sheetkeeper://join?addr=1:1&code=%4",
            "sheetkeeper://join?addr=1:1&code=%0A",
            "sheetkeeper://join?addr=1:1&code=%FF",
        ] {
            assert_eq!(parse_join_link(bad), None, "{bad}");
        }
    }
}
