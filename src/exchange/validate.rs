//! Reading a file: every problem is collected with its JSON path before anything is built,
//! so a person sees the whole list at once.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::format::{Document, GameEntry, Kind, PennyPile, FORMAT, FORMAT_VERSION};
use crate::error::Error;
use crate::model::{
    free_text_problem, is_unprintable, mezzo_sheet, name_problem, text_problem, unknown_system, Character,
    CharacterRecord, Game, System, TableSettings, MAX_NOTES_CHARS, MAX_REVISION,
};
use crate::rules::mezzo::challenge::{Challenge, MAX_CHALLENGERS};
use crate::rules::mezzo::element::{clean_text, Element, ElementKind, Lasts, Player, TraitKind, Via};
use crate::rules::mezzo::plot::{self, Resource};
use crate::rules::mezzo::seed_deck::{self, Card, KeywordDie, SeedDeck};
use crate::rules::mezzo::table::MezzoTable;
use crate::rules::nsu::sheet::{
    AspectBoxes, Aspects, Detail, Die, Mood, Sentiment, SentimentState, Sheet, Skill, SENTIMENT_LINES, SKILL_LINES,
};
use crate::rules::nsu::world::World;
use crate::rules::penny_ante::check::{entry_problems, paid_for_problem, sheet_problems, table_problems};
use crate::rules::penny_ante::ledger::{Account, Entry, Ledger, Reason, MAX_ENTRY};
use crate::rules::penny_ante::table::{PennySheet, PennyTable};
use crate::rules::scattershot::sheet::Sheet as ScattershotSheet;
use crate::rules::scattershot::table::ScattershotTable;
use crate::rules::table_settings;
use crate::Problem;

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
        match self.field(path, map, key)? {
            Value::String(s) => Some(s),
            other => {
                self.problem(format!("{path}.{key}"), format!("expected a string, found {}", type_name(other)));
                None
            }
        }
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
        match self.field(path, map, key)? {
            Value::Array(items) => Some(items),
            other => {
                self.problem(format!("{path}.{key}"), format!("expected a list, found {}", type_name(other)));
                None
            }
        }
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
        let nsu_world = match (map.get("nsu_world"), system) {
            (None, _) => Some(None),
            (Some(world), Some(System::Nsu)) => {
                let known = characters.iter().flatten().map(|(_, (c, _))| c.character.id).collect::<HashSet<_>>();
                self.nsu_world(&format!("{path}.nsu_world"), world, &known).map(Some)
            }
            (Some(_), Some(other)) => {
                self.problem(
                    format!("{path}.nsu_world"),
                    format!("a {} game has no No Stone Unturned world", other.label()),
                );
                None
            }
            (Some(_), None) => None,
        };
        let penny_table = match (map.get("penny_table"), system) {
            (None, _) => Some(None),
            (Some(_), _) if self.kind == Some(Kind::Character) => {
                self.problem(
                    format!("{path}.penny_table"),
                    "a character file carries no table, only its character's pile and ledger entries",
                );
                None
            }
            (Some(table), Some(System::PennyAnte)) => self.penny_table(&format!("{path}.penny_table"), table).map(Some),
            (Some(_), Some(other)) => {
                self.problem(
                    format!("{path}.penny_table"),
                    format!("a {} game has no Penny Ante table", other.label()),
                );
                None
            }
            (Some(_), None) => None,
        };
        let mezzo_table = match (map.get("mezzo_table"), system) {
            (None, _) => Some(None),
            (Some(_), _) if self.kind == Some(Kind::Character) => {
                self.problem(
                    format!("{path}.mezzo_table"),
                    "a character file carries no table: its character's claim is the one its table records",
                );
                None
            }
            (Some(table), Some(System::Mezzo)) => self.mezzo_table(&format!("{path}.mezzo_table"), table).map(Some),
            (Some(_), Some(other)) => {
                self.problem(format!("{path}.mezzo_table"), format!("a {} game has no Mezzo table", other.label()));
                None
            }
            (Some(_), None) => None,
        };
        let scattershot_table = match (map.get("scattershot_table"), system) {
            (None, _) => Some(None),
            (Some(_), _) if self.kind == Some(Kind::Character) => {
                self.problem(
                    format!("{path}.scattershot_table"),
                    "a character file carries no table: mechanical play is its game's",
                );
                None
            }
            (Some(table), Some(System::Scattershot)) => {
                // Every character the file lists counts, also one whose own entry has problems
                // (those are reported there, not again here).
                let known = map
                    .get("characters")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|c| c.get("id")?.as_str().and_then(|t| Uuid::parse_str(t).ok()))
                    .collect::<Vec<_>>();
                self.scattershot_table(&format!("{path}.scattershot_table"), table, &known).map(Some)
            }
            (Some(_), Some(other)) => {
                self.problem(
                    format!("{path}.scattershot_table"),
                    format!("a {} game has no Scattershot table", other.label()),
                );
                None
            }
            (Some(_), None) => None,
        };
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
        let characters = characters.map(|list| list.into_iter().map(|(_, c)| c).collect::<Vec<_>>());
        let penny_piles = characters.as_ref().map(|list| list.iter().filter_map(|(_, p)| p.clone()).collect());
        Some(GameEntry {
            nsu_world: nsu_world?,
            penny_table: penny_table?,
            mezzo_table: mezzo_table?,
            scattershot_table: scattershot_table?,
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
        // A sheet is optional in the file (older files have none): an NSU character without
        // one gets an empty sheet.
        let nsu = match (map.get("nsu"), system) {
            (None, Some(System::Nsu)) => Some(Some(crate::rules::nsu::Sheet::default())),
            (None, _) => Some(None),
            (Some(sheet), Some(System::Nsu)) => self.nsu_sheet(&format!("{path}.nsu"), sheet).map(Some),
            (Some(_), Some(other)) => {
                self.problem(
                    format!("{path}.nsu"),
                    format!("a {} character has no No Stone Unturned sheet", other.label()),
                );
                None
            }
            (Some(_), None) => None,
        };
        let penny_ante = match (map.get("penny_ante"), system) {
            (None, Some(System::PennyAnte)) => Some(Some(PennySheet::default())),
            (None, _) => Some(None),
            (Some(sheet), Some(System::PennyAnte)) => self.penny_sheet(&format!("{path}.penny_ante"), sheet).map(Some),
            (Some(_), Some(other)) => {
                self.problem(
                    format!("{path}.penny_ante"),
                    format!("a {} character has no Penny Ante sheet", other.label()),
                );
                None
            }
            (Some(_), None) => None,
        };
        // A Mezzo character without its element (an older file) gets an empty one below.
        let mezzo = match (map.get("mezzo"), system) {
            (None, _) => Some(None),
            (Some(element), Some(System::Mezzo)) => {
                self.mezzo_sheet(&format!("{path}.mezzo"), element, id, name.as_deref()).map(Some)
            }
            (Some(_), Some(other)) => {
                self.problem(format!("{path}.mezzo"), format!("a {} character has no Mezzo sheet", other.label()));
                None
            }
            (Some(_), None) => None,
        };
        // A Scattershot character without a sheet (an older file) keeps none: it plays with a
        // new sheet until its first edit writes one.
        let scattershot = match (map.get("scattershot"), system) {
            (None, _) => Some(None),
            (Some(sheet), Some(System::Scattershot)) => {
                self.scattershot_sheet(&format!("{path}.scattershot"), sheet).map(Some)
            }
            (Some(_), Some(other)) => {
                self.problem(
                    format!("{path}.scattershot"),
                    format!("a {} character has no Scattershot sheet", other.label()),
                );
                None
            }
            (Some(_), None) => None,
        };
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

/// The No Stone Unturned sheet inside a character (`"nsu": {…}`) and the world inside a game.
impl Validator {
    /// The world is read by its types in one pass (the first type error is reported at its
    /// path), then every invariant of `World::problems` is listed (the party's location,
    /// paths, NPC thresholds among them). Characters it names (project owners, scouts, card
    /// authors) must be characters of the same game in the file.
    fn nsu_world(&mut self, path: &str, v: &Value, characters: &HashSet<Uuid>) -> Option<World> {
        let world: World = self.typed(path, v)?;
        let mut found = world.problems(path);
        for (i, p) in world.projects.iter().enumerate() {
            if !characters.contains(&p.owner) {
                found.push(Problem {
                    path: format!("{path}.projects[{i}].owner"),
                    message: format!("{} is not a character of this game", p.owner),
                });
            }
        }
        for (i, l) in world.locations.iter().enumerate() {
            if let Some(c) = l.author_character.filter(|c| !characters.contains(c)) {
                found.push(Problem {
                    path: format!("{path}.locations[{i}].author_character"),
                    message: format!("{c} is not a character of this game"),
                });
            }
            for (j, c) in l.scouted_by.iter().enumerate() {
                if !characters.contains(c) {
                    found.push(Problem {
                        path: format!("{path}.locations[{i}].scouted_by[{j}]"),
                        message: format!("{c} is not a character of this game"),
                    });
                }
            }
        }
        let ok = found.is_empty();
        self.extend(found);
        ok.then_some(world)
    }

    fn nsu_sheet(&mut self, path: &str, v: &Value) -> Option<Sheet> {
        const KEYS: &[&str] = &[
            "pronouns",
            "look",
            "aspects",
            "moods",
            "skills",
            "sentiments",
            "harm",
            "recovery_points",
            "other_details",
            "scars",
            "rumours",
        ];
        let map = self.object(path, v, KEYS)?;
        let pronouns = self.string(path, map, "pronouns").map(str::to_owned);
        let look = self.string(path, map, "look").map(str::to_owned);
        let rumours = self.string(path, map, "rumours").map(str::to_owned);
        let aspects = match self.field(path, map, "aspects") {
            Some(Value::Null) => Some(None),
            Some(v) => self.aspects(&format!("{path}.aspects"), v).map(Some),
            None => None,
        };
        let moods = self.lines::<6, _>(path, map, "moods", |s, at, v| s.mood(at, v));
        let skills = self.lines::<SKILL_LINES, _>(path, map, "skills", |s, at, v| s.skill(at, v));
        let sentiments = self.lines::<SENTIMENT_LINES, _>(path, map, "sentiments", |s, at, v| s.sentiment(at, v));
        let harm = self.texts(path, map, "harm");
        let scars = self.texts(path, map, "scars");
        let recovery_points = self.integer(path, map, "recovery_points").and_then(|n| {
            let points = u32::try_from(n).ok();
            if points.is_none() {
                self.problem(format!("{path}.recovery_points"), format!("{n} is out of range: 0 or more"));
            }
            points
        });
        let other_details = self.list(path, map, "other_details").and_then(|items| {
            let mut details = Vec::with_capacity(items.len());
            for (i, d) in items.iter().enumerate() {
                if self.full() {
                    return None;
                }
                let at = format!("{path}.other_details[{i}]");
                let Some(m) = self.object(&at, d, &["text", "positive"]) else { continue };
                let text = self.string(&at, m, "text").map(str::to_owned);
                let positive = self.boolean(&at, m, "positive");
                details.extend(text.zip(positive).map(|(text, positive)| Detail { text, positive }));
            }
            Some(details)
        });
        let sheet = Sheet {
            pronouns: pronouns?,
            look: look?,
            aspects: aspects?,
            moods: moods?,
            skills: skills?,
            sentiments: sentiments?,
            harm: harm?,
            recovery_points: recovery_points?,
            other_details: other_details?,
            scars: scars?,
            rumours: rumours?,
        };
        let found = sheet.problems(path);
        let ok = found.is_empty();
        self.extend(found);
        ok.then_some(sheet)
    }

    fn boolean(&mut self, path: &str, map: &Obj, key: &str) -> Option<bool> {
        match self.field(path, map, key)? {
            Value::Bool(b) => Some(*b),
            other => {
                self.problem(format!("{path}.{key}"), format!("expected true or false, found {}", type_name(other)));
                None
            }
        }
    }

    fn small(&mut self, path: &str, map: &Obj, key: &str, what: &str) -> Option<u8> {
        let n = self.integer(path, map, key)?;
        let small = u8::try_from(n).ok();
        if small.is_none() {
            self.problem(format!("{path}.{key}"), format!("{n} is out of range: {what}"));
        }
        small
    }

    fn die(&mut self, at: &str, v: &Value) -> Option<Die> {
        let found = v.as_str().and_then(|s| s.strip_prefix('d')).and_then(|n| n.parse().ok()).and_then(Die::from_sides);
        if found.is_none() {
            self.problem(at, format!("expected \"d4\", \"d6\" or \"d8\", found {v}"));
        }
        found
    }

    fn aspects(&mut self, path: &str, v: &Value) -> Option<Aspects> {
        let map = self.object(path, v, &["body", "mind", "heart"])?;
        let mut die = |key: &str| {
            let value = self.field(path, map, key)?;
            self.die(&format!("{path}.{key}"), value)
        };
        let (body, mind, heart) = (die("body"), die("mind"), die("heart"));
        Some(Aspects { body: body?, mind: mind?, heart: heart? })
    }

    /// A list of exactly `N` lines, each `null` (an open line) or an entry.
    fn lines<const N: usize, T>(
        &mut self,
        path: &str,
        map: &Obj,
        key: &str,
        mut entry: impl FnMut(&mut Self, &str, &Value) -> Option<T>,
    ) -> Option<[Option<T>; N]> {
        let items = self.list(path, map, key)?;
        if items.len() != N {
            self.problem(
                format!("{path}.{key}"),
                format!("expected {N} lines (null for an open one), found {}", items.len()),
            );
            return None;
        }
        let mut ok = true;
        let lines: Vec<Option<T>> = items
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Null => None,
                v => {
                    let parsed = entry(self, &format!("{path}.{key}[{i}]"), v);
                    ok &= parsed.is_some();
                    parsed
                }
            })
            .collect();
        if !ok {
            return None;
        }
        lines.try_into().ok()
    }

    fn mood(&mut self, path: &str, v: &Value) -> Option<Mood> {
        let map = self.object(path, v, &["name", "level", "overloaded"])?;
        let name = self.name(path, map, "name");
        let level = self.small(path, map, "level", "a mood level is 0 to 9");
        let overloaded = self.boolean(path, map, "overloaded");
        Some(Mood { name: name?, level: level?, overloaded: overloaded? })
    }

    fn skill(&mut self, path: &str, v: &Value) -> Option<Skill> {
        let map = self.object(path, v, &["name", "modifier", "boxes"])?;
        let name = self.name(path, map, "name");
        let modifier = self.small(path, map, "modifier", "a skill modifier is 0 to 255");
        let boxes = self.field(path, map, "boxes").and_then(|b| {
            let at = format!("{path}.boxes");
            let m = self.object(&at, b, &["body", "mind", "heart"])?;
            let (body, mind, heart) =
                (self.boolean(&at, m, "body"), self.boolean(&at, m, "mind"), self.boolean(&at, m, "heart"));
            Some(AspectBoxes { body: body?, mind: mind?, heart: heart? })
        });
        Some(Skill { name: name?, modifier: modifier?, boxes: boxes? })
    }

    fn sentiment(&mut self, path: &str, v: &Value) -> Option<Sentiment> {
        let map = self.object(path, v, &["name", "state"])?;
        let name = self.name(path, map, "name");
        let state = self.string(path, map, "state").and_then(|s| {
            let state = match s {
                "connected" => Some(SentimentState::Connected),
                "at_risk" => Some(SentimentState::AtRisk),
                "lost" => Some(SentimentState::Lost),
                _ => None,
            };
            if state.is_none() {
                self.problem(
                    format!("{path}.state"),
                    format!("unknown state {s:?}; expected connected, at_risk or lost"),
                );
            }
            state
        });
        Some(Sentiment { name: name?, state: state? })
    }

    fn texts(&mut self, path: &str, map: &Obj, key: &str) -> Option<Vec<String>> {
        let items = self.list(path, map, key)?;
        let mut texts = Vec::with_capacity(items.len());
        for (i, v) in items.iter().enumerate() {
            match v.as_str() {
                Some(text) => texts.push(text.to_owned()),
                None if self.full() => return None,
                None => {
                    self.problem(format!("{path}.{key}[{i}]"), format!("expected a string, found {}", type_name(v)))
                }
            }
        }
        (texts.len() == items.len()).then_some(texts)
    }
}

impl Validator {
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

/// Penny Ante: a character's sheet and its carried pile, and a game's table.
impl Validator {
    fn penny_sheet(&mut self, path: &str, v: &Value) -> Option<PennySheet> {
        let map = self.object(path, v, &["characteristics", "carried", "lost"])?;
        let characteristics = self.texts(path, map, "characteristics")?;
        let mut count = |key: &str| match map.get(key) {
            None => Some(0),
            Some(n) => {
                let n = n.as_u64().and_then(|n| u32::try_from(n).ok());
                if n.is_none() {
                    self.problem(format!("{path}.{key}"), "must be a whole number, 0 or more");
                }
                n
            }
        };
        let (carried, lost) = (count("carried"), count("lost"));
        let (carried, lost) = (carried?, lost?);
        let sheet = PennySheet { characteristics, carried, lost };
        let found = sheet_problems(&sheet, path);
        let ok = found.is_empty();
        self.extend(found);
        // Stored as the rules keep them: trimmed.
        let characteristics = sheet.characteristics.iter().map(|c| c.trim().to_owned()).collect();
        ok.then_some(PennySheet { characteristics, carried, lost })
    }

    /// The table is read by its types (the first type error is reported at its path), then
    /// every problem of `check::table_problems` is listed.
    fn penny_table(&mut self, path: &str, v: &Value) -> Option<PennyTable> {
        let table: PennyTable = self.typed(path, v)?;
        let found = table_problems(&table, path);
        let ok = found.is_empty();
        self.extend(found);
        ok.then_some(table)
    }

    /// `penny_pile` and `penny_ledger` beside a character in a Penny Ante character file.
    /// Returns None when they are malformed, `Some(None)` when there are none.
    fn penny_pile(
        &mut self,
        path: &str,
        map: &Obj,
        id: Option<Uuid>,
        system: Option<System>,
    ) -> Option<Option<PennyPile>> {
        let present: Vec<&str> = ["penny_pile", "penny_ledger"].into_iter().filter(|k| map.contains_key(*k)).collect();
        if present.is_empty() {
            return Some(None);
        }
        if self.kind != Some(Kind::Character) || system != Some(System::PennyAnte) {
            for key in present {
                self.problem(
                    format!("{path}.{key}"),
                    "only a Penny Ante character file carries a pile and its ledger entries (a game file's table \
                     holds the whole ledger)",
                );
            }
            return None;
        }
        let pile = self.integer(path, map, "penny_pile");
        let at = format!("{path}.penny_ledger");
        let ledger: Option<Vec<Entry>> = self.field(path, map, "penny_ledger").and_then(|v| self.typed(&at, v));
        let (pile, ledger, id) = (pile?, ledger?, id?);
        let before = self.found;
        self.extend(entry_problems(&ledger, &at));
        let account = Account::Character(id);
        for (i, e) in ledger.iter().enumerate() {
            if e.from != account && e.to != account {
                self.problem(format!("{at}[{i}]"), "does not touch this character");
            }
        }
        let sum = Ledger { entries: ledger.clone(), debts: Vec::new() }.pile(&account);
        let pile_at = format!("{path}.penny_pile");
        if pile < 0 {
            self.problem(&pile_at, format!("{pile} is out of range: a pile is 0 or more"));
        } else if pile.unsigned_abs() > MAX_ENTRY {
            self.problem(&pile_at, format!("{pile} pennies cannot be carried: at most {MAX_ENTRY}"));
        }
        if pile != sum {
            self.problem(&pile_at, format!("says {pile} pennies, but its ledger entries add up to {sum}"));
        }
        (self.found == before).then_some(Some(PennyPile { character: id, pile, ledger }))
    }
}

/// Scattershot's Mechanix: a character's sheet and a game's table.
impl Validator {
    /// A sheet read by its types (the first type error is reported at its path), then
    /// every broken invariant the rules find (`Sheet::problems`), each at its path. Returned
    /// with its names and texts trimmed, as the rules keep them.
    fn scattershot_sheet(&mut self, path: &str, v: &Value) -> Option<ScattershotSheet> {
        let mut sheet: ScattershotSheet = self.typed(path, v)?;
        let found = sheet.problems(path);
        if !found.is_empty() {
            self.extend(found);
            return None;
        }
        let trim = |t: &mut String| *t = t.trim().to_owned();
        sheet.free_skills.iter_mut().for_each(|f| trim(&mut f.name));
        sheet.skills.iter_mut().for_each(|k| trim(&mut k.name));
        for a in &mut sheet.special_abilities {
            trim(&mut a.name);
            trim(&mut a.notes);
        }
        for q in &mut sheet.qualities {
            trim(&mut q.name);
            trim(&mut q.situation);
        }
        Some(sheet)
    }

    /// A table read by its types, then what `ScattershotTable::problems` finds: mechanical
    /// play's settings, turn and round, each combatant a character of the game's file once,
    /// what each used, advantages against an engaged foe, results aimed at its characters.
    fn scattershot_table(&mut self, path: &str, v: &Value, characters: &[Uuid]) -> Option<ScattershotTable> {
        let mut table: ScattershotTable = self.typed(path, v)?;
        let found = table.problems(path, characters);
        if !found.is_empty() {
            self.extend(found);
            return None;
        }
        if let Some(play) = &mut table.play {
            for c in &mut play.combatants {
                c.free_kinds.iter_mut().for_each(|k| *k = k.trim().to_owned());
            }
        }
        Some(table)
    }
}

/// Mezzo: a character's story element and a game's table.
impl Validator {
    /// A character's element read by its types (the first type error is reported at its
    /// path), then everything [`element_problems`] finds, and that its id and name are the
    /// character's and it is a character. Returned as the rules keep it: names and texts
    /// trimmed.
    fn mezzo_sheet(&mut self, path: &str, v: &Value, id: Option<Uuid>, name: Option<&str>) -> Option<Element> {
        let element: Element = self.typed(path, v)?;
        let before = self.found;
        self.extend(element_problems(&element, path));
        if id.is_some_and(|id| id != element.id) {
            self.problem(format!("{path}.id"), format!("{} is not the character's id", element.id));
        }
        if element.kind != ElementKind::Character {
            self.problem(format!("{path}.kind"), "a character's element is a character");
        }
        if name.is_some_and(|name| name != element.name.trim()) {
            self.problem(format!("{path}.name"), format!("{:?} is not the character's name", element.name));
        }
        (self.found == before).then(|| trimmed(element))
    }

    /// A table read by its types, then its players (names, unique ids and roles, each
    /// character claimed once), its own elements (not characters, unique ids, each
    /// element's problems), its plot (hooks and their points, the Turning Point, No Escape
    /// targets), its seed deck and its keyword die. Claims against the characters are
    /// checked by the game.
    fn mezzo_table(&mut self, path: &str, v: &Value) -> Option<MezzoTable> {
        let mut table: MezzoTable = self.typed(path, v)?;
        let before = self.found;
        let mut players = HashMap::new();
        let mut claims = HashMap::new();
        for (i, p) in table.players.iter().enumerate() {
            let at = format!("{path}.players[{i}]");
            if let Some(problem) = name_problem(&p.name) {
                self.problem(format!("{at}.name"), problem);
            }
            if let Some(first) = players.insert(p.id, i) {
                self.problem(format!("{at}.id"), format!("duplicate player id {}: also players[{first}]", p.id));
            }
            let mut roles = HashSet::new();
            for (j, role) in p.roles.iter().enumerate() {
                if !roles.insert(role) {
                    self.problem(format!("{at}.roles[{j}]"), "each role is taken at most once");
                }
            }
            for (j, c) in p.claimed.iter().enumerate() {
                if let Some(first) = claims.insert(*c, format!("players[{i}].claimed")) {
                    self.problem(format!("{at}.claimed[{j}]"), format!("{c} is claimed twice: also in {first}"));
                }
            }
        }
        let mut elements = HashMap::new();
        for (i, e) in table.elements.iter().enumerate() {
            let at = format!("{path}.elements[{i}]");
            self.extend(element_problems(e, &at));
            if e.kind == ElementKind::Character {
                self.problem(
                    format!("{at}.kind"),
                    "characters are the game's characters; a table's own elements are objects, locations, \
                     factions and goals",
                );
            }
            if let Some(first) = elements.insert(e.id, i) {
                self.problem(format!("{at}.id"), format!("duplicate element id {}: also elements[{first}]", e.id));
            }
        }
        self.extend(plot_problems(&table, path));
        // The scene's active elements: each once. A file may leave out characters the game
        // keeps here, so an id it does not carry is not refused (the app shows only those
        // it knows).
        for (i, id) in table.scene.active.iter().enumerate() {
            if table.scene.active[..i].contains(id) {
                self.problem(format!("{path}.scene.active[{i}]"), format!("{id} is active twice"));
            }
        }
        if let Some(deck) = &table.deck {
            self.extend(deck_problems(deck, &format!("{path}.deck")));
        }
        for p in table.challenge.iter().flat_map(Challenge::problems) {
            self.problem(format!("{path}.challenge.{}", p.path), p.message);
        }
        self.extend(register_problems(&table, path));
        if let Some(die) = &mut table.keyword_die {
            match KeywordDie::new(die.sides, &die.keywords) {
                Ok(clean) => *die = clean,
                Err(e) => {
                    let (field, message) = match e {
                        Error::Invalid { field, problem } => (field, problem),
                        other => ("sides".to_owned(), other.to_string()),
                    };
                    self.problem(format!("{path}.keyword_die.{field}"), message);
                }
            }
        }
        if self.found > before {
            return None;
        }
        for p in &mut table.players {
            p.name = p.name.trim().to_owned();
        }
        table.elements = table.elements.into_iter().map(trimmed).collect();
        for h in &mut table.plot.hooks {
            h.text = h.text.trim().to_owned();
        }
        for t in table.plot.turning_point.iter_mut().flat_map(|tp| tp.themes.iter_mut()) {
            t.text = t.text.trim().to_owned();
        }
        if let Some(deck) = &mut table.deck {
            trim_cards(deck);
        }
        for l in &mut table.laws {
            (l.name, l.effect) = (l.name.trim().to_owned(), l.effect.trim().to_owned());
        }
        for f in &mut table.facts {
            f.text = f.text.trim().to_owned();
        }
        for c in &mut table.plot.consequences {
            c.text = c.text.trim().to_owned();
        }
        if let Some(ch) = &mut table.challenge {
            ch.description = ch.description.trim().to_owned();
            ch.sides.iter_mut().for_each(|s| s.name = s.name.trim().to_owned());
            ch.challengers.iter_mut().for_each(|c| c.stake = c.stake.as_ref().map(|s| s.trim().to_owned()));
        }
        Some(table)
    }
}

/// What is wrong with a table's own Setting Laws, facts register and narration votes: each
/// checked as the rules' moves would make it (ids once, texts clean, names not taken twice).
fn register_problems(table: &MezzoTable, path: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
    let mut laws = Vec::new();
    for (i, l) in table.laws.iter().enumerate() {
        let at = format!("{path}.laws[{i}]");
        if laws.contains(&l.id) {
            problem(format!("{at}.id"), format!("duplicate law id {}", l.id));
        }
        laws.push(l.id);
        // The same check a table's move makes, against the laws before this one.
        if let Err(Error::Invalid { field, problem: p }) = plot::put_law(&table.laws[..i], l.id, &l.name, &l.effect) {
            problem(format!("{at}.{field}"), p);
        }
    }
    let mut facts = Vec::new();
    for (i, f) in table.facts.iter().enumerate() {
        let at = format!("{path}.facts[{i}]");
        if facts.contains(&f.id) {
            problem(format!("{at}.id"), format!("duplicate fact id {}", f.id));
        }
        facts.push(f.id);
        if f.arc > table.arc() {
            problem(
                format!("{at}.arc"),
                format!("arc {} has not started (the table is in arc {})", f.arc, table.arc()),
            );
        }
        if let Err(Error::Invalid { field, problem: p }) = plot::put_fact(&table.facts[..i], f.arc, f.id, &f.text) {
            problem(format!("{at}.{field}"), p);
        }
    }
    // An arc's consequences (written in the file's `plot`): ids once, clean text, made in an
    // arc already played.
    let mut kept = Vec::new();
    for (i, c) in table.plot.consequences.iter().enumerate() {
        let at = format!("{path}.plot.consequences[{i}]");
        if kept.contains(&c.id) {
            problem(format!("{at}.id"), format!("duplicate consequence id {}", c.id));
        }
        kept.push(c.id);
        if c.arc > table.arc() || c.arc == 0 {
            problem(
                format!("{at}.arc"),
                format!("arc {} is not an arc played (the table is in arc {})", c.arc, table.arc()),
            );
        }
        let before = plot::Arc { consequences: table.plot.consequences[..i].to_vec(), ..plot::Arc::new(c.arc) };
        if let Err(Error::Invalid { field, problem: p }) = plot::put_consequence(&before, c.id, &c.text, c.contagious) {
            problem(format!("{at}.{field}"), p);
        }
    }
    let mut banked = Vec::new();
    for (i, v) in table.victory_votes.iter().enumerate() {
        let at = format!("{path}.victory_votes[{i}]");
        if v.votes == 0 {
            problem(format!("{at}.votes"), "a narration bank holds at least 1 vote".into());
        }
        if banked.contains(&(v.element, v.challenge)) {
            problem(format!("{at}.element"), "is listed twice for the same challenge".into());
        }
        banked.push((v.element, v.challenge));
    }
    out
}

/// Everything wrong with a stored or imported story element: the rules' own
/// [`Element::problems`], and what else the rules' moves never produce (a property text too
/// long or with control characters, a trait in a slot that is not an edge or does not last,
/// an element lending its protection to itself).
fn element_problems(e: &Element, path: &str) -> Vec<Problem> {
    let mut out: Vec<Problem> =
        e.problems().into_iter().map(|p| Problem { path: format!("{path}.{}", p.path), message: p.message }).collect();
    let mut problem = |at: String, message: &str| out.push(Problem { path: at, message: message.into() });
    if e.plot_protection.lent_by == Some(e.id) {
        problem(format!("{path}.plot_protection.lent_by"), "an element does not lend its protection to itself");
    }
    for (i, t) in e.traits.iter().enumerate() {
        let at = format!("{path}.traits[{i}]");
        let p = &t.properties;
        for (field, text) in [
            ("requirements", &p.requirements),
            ("restrictions", &p.restrictions),
            ("owner", &p.owner),
            ("target", &p.target),
            ("set_up", &p.set_up),
            ("effects", &p.effects),
            ("details", &p.details),
        ] {
            if let Err(e) = clean_text(field, text) {
                let message = match e {
                    Error::Invalid { problem, .. } => problem,
                    other => other.to_string(),
                };
                problem(format!("{at}.properties.{field}"), &message);
            }
        }
        match t.via {
            Via::EdgeSlot if !matches!(t.kind, TraitKind::Edge | TraitKind::Extra) => {
                problem(format!("{at}.via"), "only edges (and extras bought as edges) fill edge slots");
            }
            Via::EdgeSlot if t.lasts != Lasts::Lasting || t.uses_left.is_some() => {
                problem(format!("{at}.lasts"), "an edge in a slot lasts until it is lost");
            }
            Via::FreeExtra if t.kind != TraitKind::Extra => {
                problem(format!("{at}.via"), "only an extra comes free with its trait");
            }
            Via::UnexpectedEdge | Via::Boon if t.kind != TraitKind::Edge => {
                problem(format!("{at}.kind"), "unexpected edges and boons are edges");
            }
            _ => {}
        }
    }
    out
}

/// Everything wrong with a table's plot: a plot before the first arc; a hook twice, with an
/// unfit focus, an element named twice, an empty investment or more than a hook holds of a
/// kind; a Turning Point without challengers, naming one twice, or with a theme not by one
/// of them or twice by one; a No Escape target that is its chooser or chosen twice by one
/// challenger in a challenge.
fn plot_problems(table: &MezzoTable, path: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
    let plot = &table.plot;
    let at = format!("{path}.plot");
    if plot.number == 0 && (!plot.hooks.is_empty() || plot.turning_point.is_some() || !plot.no_escape.is_empty()) {
        problem(at.clone(), "the table's arc is 0: plot hooks and Turning Points belong to an arc".into());
    }
    if plot.hooks.len() > plot::MAX_HOOKS {
        problem(
            format!("{at}.hooks"),
            format!("{} open plot hooks; an arc holds at most {}", plot.hooks.len(), plot::MAX_HOOKS),
        );
    }
    let mut hooks = HashMap::new();
    for (i, h) in plot.hooks.iter().enumerate().take(plot::MAX_HOOKS) {
        let at = format!("{at}.hooks[{i}]");
        if let Some(first) = hooks.insert(h.id, i) {
            problem(format!("{at}.id"), format!("duplicate hook id {}: also hooks[{first}]", h.id));
        }
        if let Some(p) = text_problem(&h.text, plot::MAX_TEXT_CHARS) {
            problem(format!("{at}.text"), p);
        }
        if h.elements.len() > plot::MAX_HOOK_ELEMENTS {
            problem(
                format!("{at}.elements"),
                format!("names {} elements; a hook names at most {}", h.elements.len(), plot::MAX_HOOK_ELEMENTS),
            );
        } else {
            let mut named = HashSet::new();
            for (j, e) in h.elements.iter().enumerate() {
                if !named.insert(e) {
                    problem(format!("{at}.elements[{j}]"), format!("{e} is named twice"));
                }
            }
        }
        for (j, inv) in h.stored.iter().enumerate() {
            if inv.points == 0 {
                problem(format!("{at}.stored[{j}].points"), "must be at least 1".into());
            }
        }
        for r in Resource::ALL {
            let held: u64 = h.stored.iter().filter(|i| i.resource == r).map(|i| u64::from(i.points)).sum();
            if held > u64::from(plot::MAX_STORED) {
                problem(
                    format!("{at}.stored"),
                    format!("holds {held} {}; a hook holds at most {} of a kind", r.word(), plot::MAX_STORED),
                );
            }
        }
    }
    if let Some(tp) = &plot.turning_point {
        let at = format!("{at}.turning_point");
        if tp.challengers.is_empty() {
            problem(format!("{at}.challengers"), "names no challenger".into());
        }
        for (field, len, cap) in [
            ("challengers", tp.challengers.len(), MAX_CHALLENGERS),
            ("hooks", tp.hooks.len(), plot::MAX_HOOKS),
            ("themes", tp.themes.len(), MAX_CHALLENGERS),
        ] {
            if len > cap {
                problem(format!("{at}.{field}"), format!("{len} {field}; a Turning Point has at most {cap}"));
            }
        }
        let mut challengers = HashSet::new();
        for (k, c) in tp.challengers.iter().enumerate() {
            if !challengers.insert(c) {
                problem(format!("{at}.challengers[{k}]"), format!("{c} is named twice"));
            }
        }
        let mut tied = HashSet::new();
        for (k, h) in tp.hooks.iter().enumerate() {
            if !tied.insert(h) {
                problem(format!("{at}.hooks[{k}]"), format!("{h} is named twice"));
            }
        }
        let mut setters = HashSet::new();
        for (k, t) in tp.themes.iter().enumerate() {
            if !challengers.contains(&t.by) {
                problem(format!("{at}.themes[{k}].by"), format!("{} was not a challenger at the Turning Point", t.by));
            } else if !setters.insert(t.by) {
                problem(format!("{at}.themes[{k}].by"), "sets one theme of the arc".into());
            }
            if let Some(p) = text_problem(&t.text, plot::MAX_TEXT_CHARS) {
                problem(format!("{at}.themes[{k}].text"), p);
            }
        }
    }
    let mut chosen = HashSet::new();
    for (k, n) in plot.no_escape.iter().enumerate() {
        let at = format!("{at}.no_escape[{k}]");
        if n.by == n.target {
            problem(format!("{at}.target"), "a challenger cannot name itself for removal".into());
        }
        if !chosen.insert((n.challenge, n.by)) {
            problem(format!("{at}.by"), "names one No Escape target per challenge".into());
        }
    }
    out
}

/// Every card of a deck with its path, wherever it lies.
fn cards_with_paths<'d>(deck: &'d SeedDeck, path: &str) -> Vec<(String, &'d Card)> {
    let mut out: Vec<(String, &Card)> = Vec::new();
    out.extend(deck.draw_pile.iter().enumerate().map(|(i, c)| (format!("{path}.draw_pile[{i}]"), c)));
    out.extend(deck.discard.iter().enumerate().map(|(i, c)| (format!("{path}.discard[{i}]"), c)));
    for (i, h) in deck.players.iter().enumerate() {
        let at = format!("{path}.players[{i}]");
        out.extend(h.hand.iter().enumerate().map(|(j, c)| (format!("{at}.hand[{j}]"), c)));
        out.extend(h.active.iter().enumerate().map(|(j, a)| (format!("{at}.active[{j}].card"), &a.card)));
        out.extend(h.depleted.iter().enumerate().map(|(j, c)| (format!("{at}.depleted[{j}]"), c)));
    }
    out.extend(deck.inspiration.iter().map(|c| (format!("{path}.inspiration"), c)));
    out.extend(deck.shown.iter().map(|c| (format!("{path}.shown"), c)));
    out
}

/// Everything wrong with a seed deck: the rules' own [`SeedDeck::problems`], a card's text,
/// a link made by someone not at the deck, a player refreshing twice.
fn deck_problems(deck: &SeedDeck, path: &str) -> Vec<Problem> {
    let mut out: Vec<Problem> = deck
        .problems()
        .into_iter()
        .map(|p| Problem { path: format!("{path}.{}", p.path), message: p.message })
        .collect();
    for (at, card) in cards_with_paths(deck, path).into_iter().take(seed_deck::MAX_CARDS) {
        if let Some(message) = text_problem(&card.text, seed_deck::MAX_CARD_CHARS) {
            out.push(Problem { path: format!("{at}.text"), message });
        }
    }
    let players: HashSet<Uuid> = deck.players.iter().map(|h| h.player).collect();
    for (i, l) in deck.links.iter().enumerate().take(seed_deck::MAX_CARDS) {
        if !players.contains(&l.by) {
            out.push(Problem {
                path: format!("{path}.links[{i}].by"),
                message: format!("{} is not at the deck", l.by),
            });
        }
    }
    let mut refreshing = HashSet::new();
    for (i, p) in deck.refresh.iter().enumerate() {
        if !refreshing.insert(p) {
            out.push(Problem { path: format!("{path}.refresh[{i}]"), message: format!("{p} refreshes once") });
        }
    }
    out
}

/// A deck as the rules keep it: card texts trimmed.
fn trim_cards(deck: &mut SeedDeck) {
    let mut trim = |c: &mut Card| c.text = c.text.trim().to_owned();
    deck.draw_pile.iter_mut().for_each(&mut trim);
    deck.discard.iter_mut().for_each(&mut trim);
    for h in &mut deck.players {
        h.hand.iter_mut().for_each(&mut trim);
        h.active.iter_mut().for_each(|a| trim(&mut a.card));
        h.depleted.iter_mut().for_each(&mut trim);
    }
    deck.inspiration.iter_mut().for_each(&mut trim);
    deck.shown.iter_mut().for_each(&mut trim);
}

/// An element as the rules keep it: names and property texts trimmed.
fn trimmed(mut e: Element) -> Element {
    e.name = e.name.trim().to_owned();
    for t in &mut e.traits {
        t.name = t.name.trim().to_owned();
        let p = &mut t.properties;
        for text in
            [&mut p.requirements, &mut p.restrictions, &mut p.owner, &mut p.target, &mut p.set_up, &mut p.effects]
        {
            *text = text.trim().to_owned();
        }
        p.details = p.details.trim().to_owned();
    }
    e
}

/// A game file's challenge names story elements of the file: each challenger a character's
/// sheet or one of the table's own elements of the kind it was when it joined, each goal one
/// of the table's goals.
fn challenge_element_problems(table: &MezzoTable, sheets: &[(usize, &Element)], game: &str) -> Vec<Problem> {
    let Some(ch) = &table.challenge else { return Vec::new() };
    let at = format!("{game}.mezzo_table.challenge");
    // The first element of each id, as a search in this order would find it.
    let kinds: HashMap<Uuid, ElementKind> =
        sheets.iter().map(|(_, e)| *e).chain(&table.elements).rev().map(|e| (e.id, e.kind)).collect();
    let kind_of = |id: Uuid| kinds.get(&id).copied();
    let mut out = Vec::new();
    for (i, c) in ch.challengers.iter().enumerate() {
        match kind_of(c.element) {
            None => out.push(Problem {
                path: format!("{at}.challengers[{i}].element"),
                message: format!("{} is not a story element of this game", c.element),
            }),
            Some(kind) if kind != c.kind => out.push(Problem {
                path: format!("{at}.challengers[{i}].kind"),
                message: format!("the element is a {kind:?}, not a {:?}", c.kind).to_lowercase(),
            }),
            Some(_) => {}
        }
    }
    for (i, g) in ch.goals.iter().enumerate() {
        if kind_of(g.element) != Some(ElementKind::Goal) {
            out.push(Problem {
                path: format!("{at}.goals[{i}].element"),
                message: format!("{} is not a goal of this game", g.element),
            });
        }
    }
    out
}

/// Claims in a game file: every claim the table records names a character of the game
/// whose element says so, and every character's element names the player whose claim the
/// table records (or none). A table's own element does not share a character's id.
fn mezzo_claim_problems(table: &MezzoTable, sheets: &[(usize, &Element)], game: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let at_table = format!("{game}.mezzo_table");
    let characters: HashMap<Uuid, usize> = sheets.iter().map(|(j, e)| (e.id, *j)).collect();
    for (i, p) in table.players.iter().enumerate() {
        for (k, c) in p.claimed.iter().enumerate() {
            if !characters.contains_key(c) {
                out.push(Problem {
                    path: format!("{at_table}.players[{i}].claimed[{k}]"),
                    message: format!("{c} is not a character of this game"),
                });
            }
        }
    }
    // The first player whose claims name each character, as a search in order would find.
    let claimers: HashMap<Uuid, &Player> =
        table.players.iter().rev().flat_map(|p| p.claimed.iter().rev().map(move |c| (*c, p))).collect();
    for (j, e) in sheets {
        let claimer = claimers.get(&e.id).copied();
        if e.claimed_by != claimer.map(|p| p.id) {
            let message = match claimer {
                Some(p) => format!("the table records {}'s claim on this character", p.name.trim()),
                None => "the table records no claim on this character".into(),
            };
            out.push(Problem { path: format!("{game}.characters[{j}].mezzo.claimed_by"), message });
        }
    }
    for (i, e) in table.elements.iter().enumerate() {
        if characters.contains_key(&e.id) {
            out.push(Problem {
                path: format!("{at_table}.elements[{i}].id"),
                message: format!("{} is also a character's id", e.id),
            });
        }
    }
    out
}
