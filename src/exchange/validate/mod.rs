//! Reading a file: every problem is collected with its JSON path before anything is built,
//! so a person sees the whole list at once.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::format::{Document, FileJournal, GameEntry, Kind, PennyPile, FORMAT, FORMAT_VERSION};
use crate::model::{
    free_text_problem, is_unprintable, name_problem, unknown_system, Character, Game, System, TableSettings,
    MAX_NOTES_CHARS, MAX_REVISION,
};
use crate::rules::journal::Journal;
use crate::rules::mezzo::element::Element;
use crate::rules::mezzo::table::MezzoTable;
use crate::rules::penny_ante::check::paid_for_problem;
use crate::rules::penny_ante::ledger::{Account, Reason};
use crate::rules::penny_ante::table::PennySheet;
use crate::rules::record::{mezzo_sheet, CharacterRecord};
use crate::rules::scattershot::sheet::Sheet as ScattershotSheet;
use crate::rules::scattershot::table::{sheet_player_problems, ScattershotTable};
use crate::rules::table_settings;
use crate::Problem;

mod mezzo;
mod nsu;
mod penny_ante;
mod scattershot;

use mezzo::{challenge_element_problems, mezzo_claim_problems, open_vote_problems};

const MAX_APP_VERSION_CHARS: usize = 64;

/// The most problems a refusal lists. One more says how many were left out: a hostile file
/// can hold millions, and every one listed is memory here, text in the error and a line in
/// the window.
pub const MAX_PROBLEMS: usize = 100;

/// How far ahead of this device's clock a file's time stamps may be (clocks disagree a
/// little; a stamp years ahead would make the file look newer than anything edited here).
const CLOCK_SLACK: chrono::TimeDelta = chrono::TimeDelta::days(1);

/// Parses and validates a file's bytes against this device's clock ([`parse_at`]).
pub fn parse(bytes: &[u8]) -> Result<Document, Vec<Problem>> {
    parse_at(bytes, crate::model::now())
}

/// Parses and validates a file's bytes; `now` is this device's time, the limit for the
/// file's time stamps (one day of slack). On failure, returns the problems found: at most
/// [`MAX_PROBLEMS`] and one that says how many more there were.
pub fn parse_at(bytes: &[u8], now: DateTime<Utc>) -> Result<Document, Vec<Problem>> {
    // A duplicate key is refused before anything else: `Value` would keep the last one
    // silently, where other readers keep the first.
    if let Err(problem) = keys::refuse_duplicates(bytes) {
        return Err(vec![printable(problem)]);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| vec![json_problem(&e)])?;
    let mut v = Validator { now, ..Validator::default() };
    keys::nul_characters(&value, &mut |path, message| v.problem(path, message));
    if v.found > 0 {
        return Err(v.finish());
    }
    let doc = v.document(&value);
    match doc {
        Some(doc) if v.found == 0 => Ok(doc),
        _ => Err(v.finish()),
    }
}

/// A problem as it may be shown anywhere: control, format and separator characters (from a
/// file's keys, or its values echoed by a message) written escaped, so none reaches a
/// terminal raw.
fn printable(p: Problem) -> Problem {
    fn clean(text: String) -> String {
        if !text.chars().any(is_unprintable) {
            return text;
        }
        text.chars().map(|c| if is_unprintable(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect()
    }
    Problem { path: clean(p.path), message: clean(p.message) }
}

/// `path` followed by an object's key: `.key` for a plain name, `["…"]` (escaped) for any
/// other key a file may hold.
fn key_path(path: &str, key: &str) -> String {
    let plain = key.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        format!("{path}.{key}")
    } else {
        format!("{path}[{key:?}]")
    }
}

/// Reading the raw JSON before it becomes a `Value`: duplicate keys, and NUL characters.
mod keys {
    use std::borrow::Cow;
    use std::cell::RefCell;
    use std::collections::HashSet;
    use std::fmt;

    use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
    use serde_json::Value;

    use crate::Problem;

    /// Where a duplicate key was found: the path's segments, innermost first, while the
    /// error travels out of the nested values.
    #[derive(Default)]
    struct Found {
        key: String,
        segments: Vec<Segment>,
    }

    enum Segment {
        Key(String),
        Index(usize),
    }

    /// Walks the whole document once (linear: one set of keys per object), refusing the
    /// first object that holds a key twice, with its JSON path. Other errors (syntax, depth)
    /// are left to the parse that follows, which reports them with their line and column.
    pub(super) fn refuse_duplicates(bytes: &[u8]) -> Result<(), Problem> {
        let found = RefCell::new(None::<Found>);
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let walked = Walk(&found).deserialize(&mut de).and_then(|()| de.end());
        match (walked, found.into_inner()) {
            (Err(_), Some(f)) => {
                let mut path = String::from("$");
                for segment in f.segments.iter().rev() {
                    path = match segment {
                        Segment::Key(k) => super::key_path(&path, k),
                        Segment::Index(i) => format!("{path}[{i}]"),
                    };
                }
                Err(Problem { path, message: format!("the key {:?} appears twice in this object", f.key) })
            }
            _ => Ok(()),
        }
    }

    #[derive(Clone, Copy)]
    struct Walk<'a>(&'a RefCell<Option<Found>>);

    impl<'de> DeserializeSeed<'de> for Walk<'_> {
        type Value = ();

        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Walk<'_> {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut i = 0;
            loop {
                match seq.next_element_seed(self) {
                    Ok(Some(())) => i += 1,
                    Ok(None) => return Ok(()),
                    Err(e) => {
                        if let Some(f) = self.0.borrow_mut().as_mut() {
                            f.segments.push(Segment::Index(i));
                        }
                        return Err(e);
                    }
                }
            }
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen: HashSet<Cow<'de, str>> = HashSet::new();
            while let Some(Key(key)) = map.next_key()? {
                if seen.contains(&key) {
                    *self.0.borrow_mut() =
                        Some(Found { key: key.to_string(), segments: vec![Segment::Key(key.into())] });
                    return Err(de::Error::custom("a duplicate key"));
                }
                if let Err(e) = map.next_value_seed(self) {
                    if let Some(f) = self.0.borrow_mut().as_mut() {
                        f.segments.push(Segment::Key(key.into()));
                    }
                    return Err(e);
                }
                seen.insert(key);
            }
            Ok(())
        }
    }

    /// A key, borrowed from the file's bytes when it has no escapes.
    struct Key<'de>(Cow<'de, str>);

    impl<'de> de::Deserialize<'de> for Key<'de> {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct KeyVisitor;
            impl<'de> Visitor<'de> for KeyVisitor {
                type Value = Key<'de>;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a key")
                }
                fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                    Ok(Key(Cow::Borrowed(v)))
                }
                fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                    Ok(Key(Cow::Owned(v.to_owned())))
                }
                fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                    Ok(Key(Cow::Owned(v)))
                }
            }
            d.deserialize_str(KeyVisitor)
        }
    }

    /// Every string (and key) that holds a NUL character, at its path. The database's texts
    /// end at a NUL, so such a text would not be stored as read.
    pub(super) fn nul_characters(value: &Value, found: &mut dyn FnMut(String, String)) {
        /// A step of the path, borrowed from the value: nothing is copied unless found.
        enum Step<'v> {
            Key(&'v str),
            Index(usize),
        }
        fn at(path: &[Step<'_>]) -> String {
            path.iter().fold(String::from("$"), |at, s| match s {
                Step::Key(k) => super::key_path(&at, k),
                Step::Index(i) => format!("{at}[{i}]"),
            })
        }
        fn walk<'v>(v: &'v Value, path: &mut Vec<Step<'v>>, found: &mut dyn FnMut(String, String)) {
            match v {
                Value::String(s) if s.contains('\0') => {
                    found(at(path), "must not contain the NUL character (\\u0000)".into());
                }
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        path.push(Step::Index(i));
                        walk(item, path, found);
                        path.pop();
                    }
                }
                Value::Object(map) => {
                    for (k, item) in map {
                        if k.contains('\0') {
                            found(at(path), format!("the key {k:?} must not contain the NUL character"));
                        }
                        path.push(Step::Key(k));
                        walk(item, path, found);
                        path.pop();
                    }
                }
                _ => {}
            }
        }
        walk(value, &mut Vec::new(), found);
    }
}

fn json_problem(e: &serde_json::Error) -> Problem {
    let at = format!("line {} column {}", e.line(), e.column());
    let message = if e.to_string().contains("recursion limit") {
        format!("the JSON is nested too deeply (more than 128 levels), at {at}")
    } else if e.is_eof() {
        format!("the JSON ends too early, at {at}; the file may be cut off")
    } else {
        let text = e.to_string();
        let reason = text.rsplit_once(" at line").map_or(text.as_str(), |(r, _)| r);
        format!("this is not valid JSON ({reason}), at {at}")
    };
    printable(Problem { path: "$".into(), message })
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[derive(Default)]
struct Validator {
    /// The first [`MAX_PROBLEMS`] problems found.
    problems: Vec<Problem>,
    /// Every problem found, listed or not: whether a part is sound is asked of this count.
    found: usize,
    /// Some of the file was left unread once the list was full.
    stopped: bool,
    /// The file's kind, once read: what a character may carry depends on it.
    kind: Option<Kind>,
    /// This device's time: time stamps later than a day after it are refused.
    now: DateTime<Utc>,
}

type Obj = Map<String, Value>;

/// A part of a game or character entry that only one system has: a game's world or table,
/// a character's sheet.
struct SystemPart {
    key: &'static str,
    system: System,
    /// "game" or "character", and what the part is: "a Mezzo game has no Penny Ante table".
    holder: &'static str,
    name: &'static str,
    /// Why a character file may not carry it, when it may not.
    not_in_character_file: Option<&'static str>,
}

impl SystemPart {
    const fn of_game(
        key: &'static str,
        system: System,
        name: &'static str,
        not_in_character_file: Option<&'static str>,
    ) -> Self {
        SystemPart { key, system, holder: "game", name, not_in_character_file }
    }

    const fn of_character(key: &'static str, system: System, name: &'static str) -> Self {
        SystemPart { key, system, holder: "character", name, not_in_character_file: None }
    }
}

const NSU_WORLD: SystemPart = SystemPart::of_game("nsu_world", System::Nsu, "No Stone Unturned world", None);
const PENNY_TABLE: SystemPart = SystemPart::of_game(
    "penny_table",
    System::PennyAnte,
    "Penny Ante table",
    Some("a character file carries no table, only its character's pile and ledger entries"),
);
const MEZZO_TABLE: SystemPart = SystemPart::of_game(
    "mezzo_table",
    System::Mezzo,
    "Mezzo table",
    Some("a character file carries no table: its character's claim is the one its table records"),
);
const SCATTERSHOT_TABLE: SystemPart = SystemPart::of_game(
    "scattershot_table",
    System::Scattershot,
    "Scattershot table",
    Some("a character file carries no table: mechanical play is its game's"),
);
const NSU_SHEET: SystemPart = SystemPart::of_character("nsu", System::Nsu, "No Stone Unturned sheet");
const PENNY_SHEET: SystemPart = SystemPart::of_character("penny_ante", System::PennyAnte, "Penny Ante sheet");
const MEZZO_SHEET: SystemPart = SystemPart::of_character("mezzo", System::Mezzo, "Mezzo sheet");
const SCATTERSHOT_SHEET: SystemPart = SystemPart::of_character("scattershot", System::Scattershot, "Scattershot sheet");

impl Validator {
    fn problem(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.push(Problem { path: path.into(), message: message.into() });
    }

    fn push(&mut self, p: Problem) {
        self.found += 1;
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(p);
        }
    }

    fn extend(&mut self, found: impl IntoIterator<Item = Problem>) {
        for p in found {
            self.push(p);
        }
    }

    /// The list is full: what is left of a long list of games or characters is not read
    /// (the file is refused anyway), so a hostile file costs no more than a short one.
    fn full(&mut self) -> bool {
        let full = self.found >= MAX_PROBLEMS;
        self.stopped |= full;
        full
    }

    /// The problems to show, each printable, with one more that counts those left out.
    fn finish(self) -> Vec<Problem> {
        let more = self.found - self.problems.len();
        let mut out: Vec<Problem> = self.problems.into_iter().map(printable).collect();
        if more > 0 || self.stopped {
            let s = if more == 1 { "" } else { "s" };
            let message = if self.stopped {
                format!("…and {more} more problem{s}, and maybe others: reading stopped once {MAX_PROBLEMS} were found")
            } else {
                format!("…and {more} more problem{s}")
            };
            out.push(Problem { path: "$".into(), message });
        }
        out
    }

    /// An object with exactly the `allowed` keys (unknown keys are problems).
    fn object<'v>(&mut self, path: &str, v: &'v Value, allowed: &[&str]) -> Option<&'v Obj> {
        let Value::Object(map) = v else {
            self.problem(path, format!("expected an object, found {}", type_name(v)));
            return None;
        };
        for key in map.keys().filter(|k| !allowed.contains(&k.as_str())) {
            self.problem(key_path(path, key), format!("unknown field; expected only {}", allowed.join(", ")));
        }
        Some(map)
    }

    fn field<'v>(&mut self, path: &str, map: &'v Obj, key: &str) -> Option<&'v Value> {
        let found = map.get(key);
        if found.is_none() {
            self.problem(format!("{path}.{key}"), "is missing");
        }
        found
    }

    /// A game's or a character's notes: optional (empty when absent), free text.
    fn notes(&mut self, path: &str, map: &Obj) -> Option<String> {
        if !map.contains_key("notes") {
            return Some(String::new());
        }
        let text = self.string(path, map, "notes")?;
        match free_text_problem(text, MAX_NOTES_CHARS) {
            Some(problem) => {
                self.problem(format!("{path}.notes"), problem);
                None
            }
            None => Some(text.to_owned()),
        }
    }

    fn string<'v>(&mut self, path: &str, map: &'v Obj, key: &str) -> Option<&'v str> {
        self.field_as(path, map, key, "a string", Value::as_str)
    }

    /// Field `key`, when it is what `read` takes (`what`: "a string", "a list"); a problem
    /// naming what it is instead when it is not.
    fn field_as<'v, T>(
        &mut self,
        path: &str,
        map: &'v Obj,
        key: &str,
        what: &str,
        read: impl FnOnce(&'v Value) -> Option<T>,
    ) -> Option<T> {
        let v = self.field(path, map, key)?;
        let read = read(v);
        if read.is_none() {
            self.problem(format!("{path}.{key}"), format!("expected {what}, found {}", type_name(v)));
        }
        read
    }

    fn integer(&mut self, path: &str, map: &Obj, key: &str) -> Option<i64> {
        let v = self.field(path, map, key)?;
        let at = format!("{path}.{key}");
        self.as_integer(&at, v)
    }

    fn as_integer(&mut self, at: &str, v: &Value) -> Option<i64> {
        match v.as_i64() {
            Some(n) => Some(n),
            None if v.is_number() => {
                self.problem(at, format!("expected a whole number, found {v}"));
                None
            }
            None => {
                self.problem(at, format!("expected a whole number, found {}", type_name(v)));
                None
            }
        }
    }

    fn list<'v>(&mut self, path: &str, map: &'v Obj, key: &str) -> Option<&'v Vec<Value>> {
        self.field_as(path, map, key, "a list", Value::as_array)
    }

    fn id(&mut self, path: &str, map: &Obj, key: &str) -> Option<Uuid> {
        let s = self.string(path, map, key)?;
        let parsed = Uuid::try_parse(s).ok().filter(|_| s.len() == 36);
        if parsed.is_none() {
            self.problem(format!("{path}.{key}"), format!("{s:?} is not an id (a UUID like 0f8e…-…)"));
        }
        parsed
    }

    fn time(&mut self, path: &str, map: &Obj, key: &str) -> Option<DateTime<Utc>> {
        let s = self.string(path, map, key)?;
        match DateTime::parse_from_rfc3339(s) {
            Ok(t) if t.with_timezone(&Utc) > self.now + CLOCK_SLACK => {
                self.problem(
                    format!("{path}.{key}"),
                    format!(
                        "{s:?} is in the future: this device's clock says {}; a time stamp may be at most a day ahead",
                        crate::model::timestamp(self.now)
                    ),
                );
                None
            }
            Ok(t) => Some(t.with_timezone(&Utc)),
            Err(_) => {
                self.problem(
                    format!("{path}.{key}"),
                    format!("{s:?} is not a time stamp (RFC 3339, e.g. 2026-01-31T18:00:00Z)"),
                );
                None
            }
        }
    }

    fn name(&mut self, path: &str, map: &Obj, key: &str) -> Option<String> {
        let s = self.string(path, map, key)?;
        if let Some(p) = name_problem(s) {
            self.problem(format!("{path}.{key}"), p);
            return None;
        }
        Some(s.trim().to_owned())
    }

    fn system(&mut self, at: &str, v: &Value) -> Option<System> {
        match v {
            Value::String(s) => {
                let found = System::from_id(s);
                if found.is_none() {
                    self.problem(at, unknown_system(s));
                }
                found
            }
            other => {
                self.problem(at, format!("expected a system id (a string), found {}", type_name(other)));
                None
            }
        }
    }

    fn document(&mut self, root: &Value) -> Option<Document> {
        const KEYS: &[&str] = &["format", "format_version", "kind", "system", "app_version", "exported_at", "data"];
        let map = self.object("$", root, KEYS)?;

        let format = self.string("$", map, "format");
        if format.is_some_and(|f| f != FORMAT) {
            self.problem("$.format", format!("expected {FORMAT:?}: this is not a Sheetkeeper file"));
        }
        let version = self.integer("$", map, "format_version");
        match version {
            Some(v) if v > FORMAT_VERSION => self.problem(
                "$.format_version",
                format!("version {v} was written by a newer Sheetkeeper; this one reads version {FORMAT_VERSION}: update the app"),
            ),
            Some(v) if v < 1 => self.problem("$.format_version", format!("{v} is not a format version; expected {FORMAT_VERSION}")),
            _ => {}
        }
        let kind = self.string("$", map, "kind").and_then(|k| {
            let found = Kind::ALL.into_iter().find(|x| x.id() == k);
            if found.is_none() {
                self.problem("$.kind", format!("unknown kind {k:?}; expected character, game or backup"));
            }
            found
        });
        self.kind = kind;
        let system = match self.field("$", map, "system") {
            Some(Value::Null) => Some(None),
            Some(v) => self.system("$.system", v).map(Some),
            None => None,
        };
        let app_version = self.string("$", map, "app_version").map(str::to_owned);
        if app_version.as_ref().is_some_and(|v| v.is_empty() || v.chars().count() > MAX_APP_VERSION_CHARS) {
            self.problem("$.app_version", format!("must be 1 to {MAX_APP_VERSION_CHARS} characters"));
        }
        let exported_at = self.time("$", map, "exported_at");
        let raw_games = self
            .field("$", map, "data")
            .and_then(|d| self.object("$.data", d, &["games"]))
            .and_then(|data| self.list("$.data", data, "games"));
        let games = raw_games.map(|games| {
            let mut read = Vec::new();
            for (i, g) in games.iter().enumerate() {
                if self.full() {
                    break;
                }
                read.extend(self.game(&format!("$.data.games[{i}]"), g));
            }
            read
        });
        // What each kind holds is counted on the raw lists, so one bad character is not
        // also reported as a missing one.
        let raw_characters: usize = raw_games
            .into_iter()
            .flatten()
            .filter_map(|g| g.get("characters").and_then(Value::as_array))
            .map(Vec::len)
            .sum();
        if let (Some(kind), Some(raw)) = (kind, raw_games) {
            self.kind_holds(kind, raw.len(), raw_characters);
        }

        let (kind, system, app_version, exported_at, games) = (kind?, system?, app_version?, exported_at?, games?);
        self.whole_file(kind, system, &games);
        Some(Document { kind, system, app_version, exported_at, games })
    }

    /// One system's part of a game or character entry (`nsu_world`, `penny_table`, `mezzo`,
    /// …): absent, it is none; in a character file that carries no such part, a problem; in
    /// an entry of its system, read by `read`; in another system's, a problem. `None` when it
    /// could not be read (its problems are recorded), or when the system is unknown (said there).
    fn system_part<T>(
        &mut self,
        path: &str,
        map: &Obj,
        system: Option<System>,
        part: &SystemPart,
        read: impl FnOnce(&mut Self, &str, &Value) -> Option<T>,
    ) -> Option<Option<T>> {
        let Some(value) = map.get(part.key) else {
            return Some(None);
        };
        let at = format!("{path}.{}", part.key);
        if let (Some(why), Some(Kind::Character)) = (part.not_in_character_file, self.kind) {
            self.problem(at, why);
            return None;
        }
        match system {
            Some(s) if s == part.system => read(self, &at, value).map(Some),
            Some(other) => {
                self.problem(at, format!("a {} {} has no {}", other.label(), part.holder, part.name));
                None
            }
            None => None,
        }
    }

    fn game(&mut self, path: &str, v: &Value) -> Option<GameEntry> {
        const KEYS: &[&str] = &[
            "id",
            "name",
            "system",
            "created_at",
            "updated_at",
            "table_settings",
            "notes",
            "characters",
            "nsu_world",
            "penny_table",
            "mezzo_table",
            "scattershot_table",
            "journal",
        ];
        let map = self.object(path, v, KEYS)?;
        let id = self.id(path, map, "id");
        let name = self.name(path, map, "name");
        let system = self.field(path, map, "system").and_then(|s| self.system(&format!("{path}.system"), s));
        let created_at = self.time(path, map, "created_at");
        let updated_at = self.time(path, map, "updated_at");
        let settings = self.settings(path, map, system);
        let notes = self.notes(path, map);
        let characters = self.list(path, map, "characters").map(|list| {
            let mut read = Vec::new();
            for (i, c) in list.iter().enumerate() {
                if self.full() {
                    break;
                }
                read.extend(self.character(&format!("{path}.characters[{i}]"), c, id, system).map(|c| (i, c)));
            }
            read
        });
        self.times_in_order(path, created_at, updated_at);
        let nsu_world = self.system_part(path, map, system, &NSU_WORLD, |this, at, world| {
            let known = characters.iter().flatten().map(|(_, (c, _))| c.character.id).collect::<HashSet<_>>();
            this.nsu_world(at, world, &known)
        });
        let penny_table =
            self.system_part(path, map, system, &PENNY_TABLE, |this, at, table| this.penny_table(at, table));
        let mezzo_table =
            self.system_part(path, map, system, &MEZZO_TABLE, |this, at, table| this.mezzo_table(at, table));
        let scattershot_table = self.system_part(path, map, system, &SCATTERSHOT_TABLE, |this, at, table| {
            // Every character the file lists counts, also one whose own entry has problems
            // (those are reported there, not again here).
            let known = map
                .get("characters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|c| c.get("id")?.as_str().and_then(|t| Uuid::parse_str(t).ok()))
                .collect::<Vec<_>>();
            this.scattershot_table(at, table, &known)
        });
        let journal = self.journal(path, map);
        // In a game file or a backup, the table and the characters' sheets agree on claims.
        if let (Some(System::Mezzo), Some(table), Some(list)) =
            (system, mezzo_table.as_ref().map(Option::as_ref), characters.as_ref())
        {
            if self.kind != Some(Kind::Character) {
                let empty = MezzoTable::default();
                let sheets: Vec<(usize, &Element)> =
                    list.iter().filter_map(|(j, (r, _))| r.mezzo.as_ref().map(|e| (*j, e))).collect();
                let found = mezzo_claim_problems(table.unwrap_or(&empty), &sheets, path);
                self.extend(found);
                let found = challenge_element_problems(table.unwrap_or(&empty), &sheets, path);
                self.extend(found);
                let found = open_vote_problems(table.unwrap_or(&empty), &sheets, path);
                self.extend(found);
            }
        }
        // In a game file or a backup, each Scattershot sheet's player is on the table, and
        // holds the character's experience dice in their stock (audit D-SC4). A character file
        // carries no table: its player is kept and read only where the table knows them.
        if let (Some(System::Scattershot), Some(table), Some(list)) =
            (system, scattershot_table.as_ref().map(Option::as_ref), characters.as_ref())
        {
            if self.kind != Some(Kind::Character) {
                let empty = ScattershotTable::default();
                let sheets: Vec<(usize, &ScattershotSheet)> =
                    list.iter().filter_map(|(j, (r, _))| r.scattershot.as_ref().map(|s| (*j, s))).collect();
                let found = sheet_player_problems(table.unwrap_or(&empty), &sheets, path);
                self.extend(found);
            }
        }
        // A sheet lists one free characteristic and one per purchase in the file's ledger:
        // the table's, or in a character file the entries carried with the character. A
        // table that could not be read says nothing either way.
        let table_failed = map.contains_key("penny_table") && !matches!(penny_table, Some(Some(_)));
        // Each character's purchases in the table's ledger, counted in one pass.
        let mut bought: HashMap<Account, usize> = HashMap::new();
        for e in penny_table.iter().flatten().flat_map(|t| &t.ledger.entries) {
            if e.reason == Reason::CharacteristicBought {
                *bought.entry(e.from).or_default() += 1;
            }
        }
        for (j, (record, pile)) in characters.iter().flatten().filter(|_| !table_failed) {
            let Some(sheet) = &record.penny_ante else { continue };
            let account = Account::Character(record.character.id);
            let purchases = match (penny_table.as_ref().and_then(Option::as_ref), pile) {
                (Some(_), _) => bought.get(&account).copied().unwrap_or(0),
                (None, Some(pile)) => {
                    pile.ledger.iter().filter(|e| e.reason == Reason::CharacteristicBought && e.from == account).count()
                }
                (None, None) => 0,
            };
            if let Some(p) = paid_for_problem(sheet, purchases, &format!("{path}.characters[{j}].penny_ante")) {
                self.push(p);
            }
        }
        // An older file counted a Scattershot game's sessions on its table, a Mezzo game's on
        // its seed deck: without a journal of its own, the file's sessions are those, dated
        // its game's last change (a deck's latest being played while its initial draw is open).
        let counted = match (scattershot_table.as_ref().and_then(Option::as_ref), mezzo_table.as_ref()) {
            (Some(table), _) => Some((table.older_sessions, table.older_in_session)),
            (None, Some(Some(MezzoTable { deck: Some(deck), .. }))) => Some((deck.older_sessions, deck.initial_draw)),
            _ => None,
        };
        let journal = match (journal, counted, updated_at) {
            (Some(None), Some((count, playing)), Some(changed)) => {
                Some(Journal::counted_by_older_version(count, playing, &changed.date_naive().to_string()))
            }
            (journal, _, _) => journal,
        };
        let characters = characters.map(|list| list.into_iter().map(|(_, c)| c).collect::<Vec<_>>());
        let penny_piles = characters.as_ref().map(|list| list.iter().filter_map(|(_, p)| p.clone()).collect());
        Some(GameEntry {
            nsu_world: nsu_world?,
            penny_table: penny_table?,
            mezzo_table: mezzo_table?,
            scattershot_table: scattershot_table?,
            journal: journal?,
            penny_piles: penny_piles?,
            game: Game {
                id: id?,
                name: name?,
                system: system?,
                table_settings: settings?,
                created_at: created_at?,
                updated_at: updated_at?,
                notes: notes?,
            },
            characters: characters?.into_iter().map(|(record, _)| record).collect(),
        })
    }

    fn settings(&mut self, path: &str, map: &Obj, system: Option<System>) -> Option<TableSettings> {
        let at = format!("{path}.table_settings");
        let Value::Object(entries) = self.field(path, map, "table_settings")? else {
            self.problem(&at, "expected an object of whole numbers");
            return None;
        };
        let mut settings = TableSettings::new();
        let mut ok = true;
        for (name, value) in entries {
            match self.as_integer(&key_path(&at, name), value) {
                Some(n) => {
                    settings.insert(name.clone(), n);
                }
                None => ok = false,
            }
        }
        if let Some(system) = system {
            let found = table_settings::problems(system, &settings, &at);
            ok &= found.is_empty();
            self.extend(found);
        }
        ok.then_some(settings)
    }

    fn character(
        &mut self,
        path: &str,
        v: &Value,
        game_id: Option<Uuid>,
        system: Option<System>,
    ) -> Option<(CharacterRecord, Option<PennyPile>)> {
        const KEYS: &[&str] = &[
            "id",
            "name",
            "created_at",
            "updated_at",
            "revision",
            "notes",
            "nsu",
            "penny_ante",
            "penny_pile",
            "penny_ledger",
            "mezzo",
            "scattershot",
        ];
        let map = self.object(path, v, KEYS)?;
        let id = self.id(path, map, "id");
        let name = self.name(path, map, "name");
        let created_at = self.time(path, map, "created_at");
        let updated_at = self.time(path, map, "updated_at");
        let revision = self.integer(path, map, "revision").filter(|&r| {
            let ok = (1..=MAX_REVISION).contains(&r);
            if !ok {
                self.problem(
                    format!("{path}.revision"),
                    format!("{r} is out of range: a revision is 1 to {MAX_REVISION}"),
                );
            }
            ok
        });
        let notes = self.notes(path, map);
        self.times_in_order(path, created_at, updated_at);
        // A sheet is optional in the file (older files have none): an NSU or Penny Ante
        // character without one gets an empty sheet.
        let nsu = self.system_part(path, map, system, &NSU_SHEET, |this, at, sheet| this.nsu_sheet(at, sheet));
        let nsu = nsu.map(|sheet| sheet.or_else(|| (system == Some(System::Nsu)).then(Default::default)));
        let penny_ante =
            self.system_part(path, map, system, &PENNY_SHEET, |this, at, sheet| this.penny_sheet(at, sheet));
        let penny_ante =
            penny_ante.map(|sheet| sheet.or_else(|| (system == Some(System::PennyAnte)).then(PennySheet::default)));
        // A Mezzo character without its element (an older file) gets an empty one below.
        let mezzo = self.system_part(path, map, system, &MEZZO_SHEET, |this, at, element| {
            this.mezzo_sheet(at, element, id, name.as_deref())
        });
        // A Scattershot character without a sheet (an older file) keeps none: it plays with a
        // new sheet until its first edit writes one.
        let scattershot = self
            .system_part(path, map, system, &SCATTERSHOT_SHEET, |this, at, sheet| this.scattershot_sheet(at, sheet));
        let pile = self.penny_pile(path, map, id, system);
        let character = Character {
            id: id?,
            game_id: game_id?,
            system: system?,
            name: name?,
            created_at: created_at?,
            updated_at: updated_at?,
            revision: revision?,
            notes: notes?,
        };
        let mezzo = match mezzo? {
            None if character.system == System::Mezzo => Some(mezzo_sheet(&character)),
            found => found,
        };
        Some((
            CharacterRecord { character, nsu: nsu?, penny_ante: penny_ante?, mezzo, scattershot: scattershot? },
            pile?,
        ))
    }

    fn times_in_order(&mut self, path: &str, created: Option<DateTime<Utc>>, updated: Option<DateTime<Utc>>) {
        if let (Some(c), Some(u)) = (created, updated) {
            if u < c {
                self.problem(format!("{path}.updated_at"), "is earlier than created_at");
            }
        }
    }

    /// What each kind of file holds: one game with one character, one game, or any.
    fn kind_holds(&mut self, kind: Kind, games: usize, characters: usize) {
        match kind {
            Kind::Character if games != 1 || characters != 1 => self.problem(
                "$.data.games",
                format!(
                    "a character file holds one game with one character; found {games} game(s) and {characters} character(s)"
                ),
            ),
            Kind::Game if games != 1 => {
                self.problem("$.data.games", format!("a game file holds exactly one game; found {games}"))
            }
            _ => {}
        }
    }

    /// Rules that span the file: the envelope's system and unique ids.
    fn whole_file(&mut self, kind: Kind, system: Option<System>, games: &[GameEntry]) {
        match (kind, system) {
            (Kind::Backup, Some(s)) => self.problem("$.system", format!("must be null in a backup (found {s:?})")),
            (Kind::Character | Kind::Game, None) => self.problem("$.system", "must name the game's system"),
            (Kind::Character | Kind::Game, Some(s)) => {
                if let Some(g) = games.first().filter(|g| g.game.system != s) {
                    self.problem("$.system", format!("says {} but the game is {}", s.id(), g.game.system.id()));
                }
            }
            (Kind::Backup, None) => {}
        }
        let mut seen_games = HashMap::new();
        let mut seen_characters = HashMap::new();
        for (i, entry) in games.iter().enumerate() {
            let at = format!("$.data.games[{i}].id");
            if let Some(first) = seen_games.insert(entry.game.id, at.clone()) {
                self.problem(at, format!("duplicate id {}: also used at {first}", entry.game.id));
            }
            for (j, c) in entry.characters.iter().enumerate() {
                let at = format!("$.data.games[{i}].characters[{j}].id");
                let id = c.character.id;
                if let Some(first) = seen_characters.insert(id, at.clone()) {
                    self.problem(at, format!("duplicate id {id}: also used at {first}"));
                }
            }
        }
    }
}

impl Validator {
    /// A game's campaign journal (`journal`): absent, none; in a character file, a problem;
    /// read by its serde types, then its sessions checked (numbers, dates in order, one
    /// open and the newest, names and texts), each problem at its place.
    fn journal(&mut self, path: &str, map: &Obj) -> Option<Option<Journal>> {
        let Some(value) = map.get("journal") else {
            return Some(None);
        };
        let at = format!("{path}.journal");
        if self.kind == Some(Kind::Character) {
            self.problem(at, "a character file carries no journal: the sessions are its game's");
            return None;
        }
        let journal = self.typed::<FileJournal>(&at, value)?.journal();
        let found = journal.problems();
        if found.is_empty() {
            return Some(Some(journal));
        }
        for (place, message) in found {
            self.problem(format!("{at}.{place}"), message);
        }
        None
    }

    /// A value read by its serde types in one pass; the first type error is reported at its
    /// JSON path.
    fn typed<T: DeserializeOwned>(&mut self, path: &str, v: &Value) -> Option<T> {
        match serde_path_to_error::deserialize(v) {
            Ok(value) => Some(value),
            Err(e) => {
                let at = e.path().to_string();
                let at = match at.as_str() {
                    "." => path.to_owned(),
                    _ if at.starts_with('[') => format!("{path}{at}"),
                    _ => format!("{path}.{at}"),
                };
                self.problem(at, e.inner().to_string());
                None
            }
        }
    }
}
