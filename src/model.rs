//! The records every system shares: games (tables, campaigns) and the characters in them.

use std::collections::BTreeMap;
use std::fmt;

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};

/// The four game systems. A game is played in exactly one; its characters share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    Nsu,
    PennyAnte,
    Mezzo,
    Scattershot,
}

impl System {
    pub const ALL: [System; 4] = [System::Nsu, System::PennyAnte, System::Mezzo, System::Scattershot];

    /// The id used in the database, in files and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            System::Nsu => "nsu",
            System::PennyAnte => "penny_ante",
            System::Mezzo => "mezzo",
            System::Scattershot => "scattershot",
        }
    }

    /// The game's name as players know it.
    pub fn label(self) -> &'static str {
        match self {
            System::Nsu => "No Stone Unturned",
            System::PennyAnte => "Penny Ante",
            System::Mezzo => "Mezzo",
            System::Scattershot => "Scattershot's Mechanix",
        }
    }

    pub fn from_id(id: &str) -> Option<System> {
        System::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Parses a system id, naming `field` and the accepted ids when it is unknown.
    pub fn parse(field: &str, id: &str) -> Result<System> {
        System::from_id(id).ok_or_else(|| Error::invalid(field, unknown_system(id)))
    }
}

pub(crate) fn unknown_system(id: &str) -> String {
    let known: Vec<_> = System::ALL.iter().map(|s| s.id()).collect();
    format!("unknown system {id:?}; expected one of {}", known.join(", "))
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The part this device plays in a game: a player's own phone, the table's device (the
/// Gamemaster, the House, the Arbiters), or both at once (one device passed around).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceRole {
    Player,
    Table,
    #[default]
    Both,
}

impl DeviceRole {
    pub const ALL: [DeviceRole; 3] = [DeviceRole::Player, DeviceRole::Table, DeviceRole::Both];

    pub fn id(self) -> &'static str {
        match self {
            DeviceRole::Player => "player",
            DeviceRole::Table => "table",
            DeviceRole::Both => "both",
        }
    }

    pub fn from_id(id: &str) -> Option<DeviceRole> {
        DeviceRole::ALL.into_iter().find(|r| r.id() == id)
    }

    /// Whether this device sees the table's secrets (the House's, the Gamemaster's).
    pub fn sees_table_secrets(self) -> bool {
        self != DeviceRole::Player
    }
}

/// A table's integer settings (e.g. Penny Ante's starting pennies), by name.
pub type TableSettings = BTreeMap<String, i64>;

/// A game: one table playing one system.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub id: Uuid,
    pub name: String,
    pub system: System,
    pub table_settings: TableSettings,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The table's free-form notes about the game (may be empty).
    #[serde(default)]
    pub notes: String,
}

/// A character. `revision` counts its changes on this device and in the files it came from,
/// so an import can tell a newer copy from a conflicting one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    pub id: Uuid,
    pub game_id: Uuid,
    pub system: System,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub revision: i64,
    /// The player's free-form notes about the character (may be empty).
    #[serde(default)]
    pub notes: String,
}

/// The longest name the app accepts, in characters.
pub const MAX_NAME_CHARS: usize = 120;

/// The highest revision a character may have (2^31 − 1). A revision counts changes, so real
/// play never comes near it; the bound keeps it exact in JavaScript (the window reads it as a
/// double, exact only up to 2^53) and leaves room for every `revision + 1` an edit or an
/// import adds without overflowing the i64 the database keeps. Imports refuse more.
pub const MAX_REVISION: i64 = i32::MAX as i64;
const _: () = assert!(MAX_REVISION < 1 << 53, "a revision stays exact in JavaScript");

/// The longest notes a character or a game may hold, in characters.
pub const MAX_NOTES_CHARS: usize = 20_000;

/// Checks a name a person typed: trimmed, 1 to 120 characters, no control characters.
/// Returns the trimmed name, or a problem naming `field`.
pub fn clean_name(field: &str, raw: &str) -> Result<String> {
    name_problem(raw).map_or_else(|| Ok(raw.trim().to_owned()), |p| Err(Error::invalid(field, p)))
}

/// What is wrong with a name, if anything (shared by typed input and imported files).
pub fn name_problem(raw: &str) -> Option<String> {
    text_problem(raw, MAX_NAME_CHARS)
}

/// What is wrong with a one-line text (a name, a hook's focus, a seed card), if anything:
/// empty once trimmed, longer than `limit` characters, or with a character a line of text
/// must not hold ([`line_chars_problem`]).
pub fn text_problem(raw: &str, limit: usize) -> Option<String> {
    let text = raw.trim();
    let chars = text.chars().count();
    if chars == 0 {
        Some("must not be empty".into())
    } else if chars > limit {
        Some(format!("is {chars} characters long; the limit is {limit}"))
    } else {
        line_chars_problem(text).map(str::to_owned)
    }
}

/// What is wrong with a free text of several lines (a look, notes, a location's danger), if
/// anything: longer than `limit` characters (counted untrimmed, as the database counts), or
/// with a character free text must not hold ([`block_chars_problem`]). It may be empty.
pub fn free_text_problem(raw: &str, limit: usize) -> Option<String> {
    let chars = raw.chars().count();
    if chars > limit {
        return Some(format!("is {chars} characters long; the limit is {limit}"));
    }
    block_chars_problem(raw).map(str::to_owned)
}

// The text rules, in one place for names and texts typed in the app and read from files.
// No Unicode tables are needed: the few ranges are written out below (Unicode 15).

/// Format characters (general category Cf): invisible, they steer how text around them is
/// shown. Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) can make a
/// name read backwards; zero-width spaces and the BOM make names that look alike differ;
/// tag characters (U+E0000–U+E007F) hide text.
fn is_format(c: char) -> bool {
    matches!(c,
        '\u{AD}' | '\u{600}'..='\u{605}' | '\u{61C}' | '\u{6DD}' | '\u{70F}' | '\u{890}'..='\u{891}'
        | '\u{8E2}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
        | '\u{110BD}' | '\u{110CD}' | '\u{13430}'..='\u{1343F}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0001}' | '\u{E0020}'..='\u{E007F}')
}

/// The bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The zero-width non-joiner and joiner: format characters, but part of ordinary writing
/// (Persian and Indic words, emoji sequences such as 👩‍🚀) when they stand between two
/// characters that show.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Line and paragraph separators (Zl, Zp).
fn is_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// Noncharacters: U+FDD0–U+FDEF and the last two code points of every plane.
fn is_noncharacter(c: char) -> bool {
    matches!(c, '\u{FDD0}'..='\u{FDEF}') || (c as u32) & 0xFFFE == 0xFFFE
}

/// Characters that take up no visible room although they are not spaces: the Hangul
/// fillers, the braille blank, the combining grapheme joiner, the Khmer inherent vowels,
/// the Mongolian free variation selectors and the variation selectors.
fn is_blank(c: char) -> bool {
    matches!(c,
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}' | '\u{34F}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// A character that shows: not a space, a control, a format character or a blank.
fn is_visible(c: char) -> bool {
    !(c.is_whitespace() || c.is_control() || is_format(c) || is_blank(c))
}

const NUL_PROBLEM: &str = "must not contain the NUL character (\\u0000)";

/// What is wrong with the characters of a one-line text (a name…), if anything: control
/// characters, format characters (a joiner only between two characters that show), line
/// or paragraph separators, noncharacters, or nothing that shows at all.
pub fn line_chars_problem(text: &str) -> Option<&'static str> {
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '\0' {
            return Some(NUL_PROBLEM);
        }
        if c.is_control() {
            return Some("must not contain control characters (such as line breaks or tabs)");
        }
        if is_joiner(c) {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            let shows = |c: Option<char>| c.is_some_and(|c| !(c.is_whitespace() || is_format(c) || c.is_control()));
            if !(shows(before) && after.is_some_and(is_visible)) {
                return Some("a zero-width joiner or non-joiner must stand between two characters that show");
            }
        } else if is_format(c) {
            return Some(
                "must not contain invisible formatting characters (such as direction overrides or zero-width spaces)",
            );
        }
        if is_separator(c) {
            return Some("must not contain line or paragraph separators (U+2028, U+2029)");
        }
        if is_noncharacter(c) {
            return Some("must not contain Unicode noncharacters (such as U+FFFF)");
        }
    }
    if !chars.iter().any(|&c| is_visible(c)) {
        return Some("must contain at least one character that shows");
    }
    None
}

/// What is wrong with the characters of a free text of several lines, if anything: control
/// characters other than line breaks (LF, or CR LF) and tabs, bidi embeddings, overrides
/// and isolates, or noncharacters.
pub fn block_chars_problem(text: &str) -> Option<&'static str> {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\0' {
            return Some(NUL_PROBLEM);
        }
        let line_break = c == '\n' || (c == '\r' && chars.peek() == Some(&'\n'));
        if c.is_control() && !line_break && c != '\t' {
            return Some("must not contain control characters other than line breaks and tabs");
        }
        if is_bidi_control(c) {
            return Some("must not contain direction overrides or isolates (U+202A–U+202E, U+2066–U+2069)");
        }
        if is_noncharacter(c) {
            return Some("must not contain Unicode noncharacters (such as U+FFFF)");
        }
    }
    None
}

/// Whether a character must not reach a terminal or a log raw: a control, format or
/// separator character. Problem messages write such characters escaped.
pub fn is_unprintable(c: char) -> bool {
    c.is_control() || is_format(c) || is_separator(c) || is_noncharacter(c)
}

/// The current time, cut to milliseconds so it survives a round trip through text.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(3)
}

/// Parses an id typed on the command line or sent by the UI.
pub fn parse_id(field: &str, raw: &str) -> Result<Uuid> {
    Uuid::parse_str(raw.trim()).map_err(|_| Error::invalid(field, format!("{raw:?} is not an id (a UUID)")))
}

/// How time stamps are written, in the database and in files: RFC 3339, UTC, milliseconds.
pub fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_every_script_and_emoji_sequences_are_names() {
        for name in ["Wren", "  Dolly “Two Bits” Marsh ", "Zoë", "می‌خواهم", "👩‍🚀 Ana", "❤️‍🔥", "李小龍", "👍🏽"]
        {
            assert_eq!(name_problem(name), None, "{name:?}");
        }
    }

    #[test]
    fn invisible_spoofing_and_control_characters_are_not_names() {
        let cases = [
            ("a\0b", "NUL"),
            ("a\u{1b}[2Jb", "control characters"),
            ("a\tb", "control characters"),
            ("\u{202e}evil", "formatting characters"),
            ("a\u{2066}b\u{2069}", "formatting characters"),
            ("x\u{200b}y", "formatting characters"),
            ("\u{feff}Wren", "formatting characters"),
            ("Wren\u{e0041}", "formatting characters"),
            ("\u{200b}", "formatting characters"),
            ("\u{200d}\u{200d}", "joiner"),
            ("a\u{200d}", "joiner"),
            ("\u{200d}a", "joiner"),
            ("a\u{2028}b", "separators"),
            ("a\u{ffff}", "noncharacters"),
            ("a\u{fdd0}", "noncharacters"),
            ("\u{3164}", "shows"),
            ("\u{2800}\u{2800}", "shows"),
            ("\u{115f}\u{1160}", "shows"),
            ("\u{fe0f}", "shows"),
        ];
        for (name, words) in cases {
            let problem = name_problem(name).unwrap_or_else(|| panic!("{name:?} was accepted"));
            assert!(problem.contains(words), "{name:?}: {problem}");
        }
    }

    #[test]
    fn free_text_keeps_line_breaks_and_tabs_but_no_other_control_or_bidi_override() {
        for text in ["", "A look.\nAnother line.\tTabbed.", "Windows lines\r\nend so", "שלום\u{200f} ok"] {
            assert_eq!(free_text_problem(text, 2000), None, "{text:?}");
        }
        let cases = [
            ("a\0", "NUL"),
            ("\u{1b}]0;title\u{7}", "control characters other than line breaks"),
            ("a\rb", "control characters other than line breaks"),
            ("\u{85}", "control characters other than line breaks"),
            ("\u{202e}txt", "direction overrides"),
            ("\u{2067}", "direction overrides"),
            ("\u{ffff}", "noncharacters"),
        ];
        for (text, words) in cases {
            let problem = free_text_problem(text, 2000).unwrap_or_else(|| panic!("{text:?} was accepted"));
            assert!(problem.contains(words), "{text:?}: {problem}");
        }
        assert_eq!(free_text_problem(&"x".repeat(2001), 2000).unwrap(), "is 2001 characters long; the limit is 2000");
    }
}
