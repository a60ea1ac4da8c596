//! A seeded, structure-aware mutation fuzzer over the importer, for stable Rust and CI.
//!
//! Each mutant is a golden file (`tests/fixtures/*.sheetkeeper.json`) with one to three
//! mutations: a number or string leaf set to an edge value, an array emptied or grown, a key
//! removed or added, two siblings swapped, an id copied from elsewhere, or a byte-level change
//! of the serialized text. It is previewed and imported into a real database that holds every
//! golden file, and must:
//!
//! 1. never panic (every step runs under `catch_unwind`);
//! 2. when refused, fail with a clear error (a bad file, a conflict or an invalid value, each
//!    with a path, never a raw SQL error) and leave the database's bytes unchanged;
//! 3. when accepted, leave a database that `check` finds sound, whose export of everything
//!    re-imports into a fresh database, and where the golden file it came from can then be
//!    imported with "replace" (refused clearly or accepted, `check` still sound).
//!
//! Mutant `i` depends only on the seed and `i`, so any failure can be replayed alone:
//!
//! * `SHEETKEEPER_FUZZ_MUTANTS=N`: how many mutants to run (default [`DEFAULT_MUTANTS`]);
//! * `SHEETKEEPER_FUZZ_SEED=S`: the seed, decimal or `0x…` hex (default [`DEFAULT_SEED`]);
//! * `SHEETKEEPER_FUZZ_ONLY=i`: run mutant `i` only and keep its file (the path is printed);
//! * `SHEETKEEPER_FUZZ_VERBOSE=1`: print every mutant and what became of it.
//!
//! Run with `cargo test -p sheetkeeper --test core fuzz_import -- --nocapture` to see the
//! counts and the distinct failure classes.

use std::any::Any;
use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::Instant;

use serde_json::{Number, Value};
use sheetkeeper::services::{export, import, import_preview, ExportScope, ImportOptions};
use sheetkeeper::store::CheckReport;
use sheetkeeper::{Error, Store};
use uuid::Uuid;

use crate::support::{bytes_on_disk, fixture};

/// Mutants per run by default: about 3 minutes in a debug build on a 2-core machine with the
/// other core running the other tests (15 golden files in the base: 10 to 15 mutants a second;
/// 5 000 took 13 minutes under load, the longest pole of CI's core tests). Deeper runs set
/// `SHEETKEEPER_FUZZ_MUTANTS`.
const DEFAULT_MUTANTS: u64 = 2500;
const DEFAULT_SEED: u64 = 0x5EED_F122;
/// Failing mutants listed in full when the test fails.
const LISTED: usize = 20;

/// The golden files, games and backups first, so the richest version of each game is the
/// one in the base database; a file that conflicts with one already in is imported as copies.
/// The NSU game comes first: its world names Wren, whom the backup and the character file
/// carry in another game (a cross-game id the importer must not use to move her).
const GOLDEN: [&str; 15] = [
    "nsu-game.sheetkeeper.json",
    "backup.sheetkeeper.json",
    "game.sheetkeeper.json",
    "penny-ante-game.sheetkeeper.json",
    "mezzo-plot-game.sheetkeeper.json",
    "mezzo-open-votes-game.sheetkeeper.json",
    "mezzo-game.sheetkeeper.json",
    "mezzo-challenge-game.sheetkeeper.json",
    "scattershot-game.sheetkeeper.json",
    "journal-game.sheetkeeper.json",
    "character.sheetkeeper.json",
    "nsu-character-without-sheet.sheetkeeper.json",
    "penny-ante-character.sheetkeeper.json",
    "mezzo-character.sheetkeeper.json",
    "scattershot-character.sheetkeeper.json",
];

// ---------------------------------------------------------------------------------------
// Randomness: SplitMix64, so a seed means the same mutants whatever `rand` version is locked.

struct Rng(u64);

impl Rng {
    /// The generator of mutant `index` under `seed`.
    fn for_mutant(seed: u64, index: u64) -> Rng {
        let mut rng = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "a choice among nothing");
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
}

// ---------------------------------------------------------------------------------------
// Paths into a JSON value.

#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

type JsonPath = Vec<Seg>;

fn show(path: &[Seg]) -> String {
    let mut s = String::from("$");
    for seg in path {
        match seg {
            Seg::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

fn at<'a>(v: &'a mut Value, path: &[Seg]) -> &'a mut Value {
    path.iter().fold(v, |v, seg| match seg {
        Seg::Key(k) => v.get_mut(k.as_str()).expect("a path found by walking"),
        Seg::Index(i) => v.get_mut(*i).expect("a path found by walking"),
    })
}

/// Every node of `v` with its path, parents before children.
fn nodes(v: &Value) -> Vec<(JsonPath, &Value)> {
    fn walk<'v>(v: &'v Value, path: &mut JsonPath, out: &mut Vec<(JsonPath, &'v Value)>) {
        out.push((path.clone(), v));
        match v {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(Seg::Index(i));
                    walk(item, path, out);
                    path.pop();
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    path.push(Seg::Key(k.clone()));
                    walk(item, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

fn is_uuid(s: &str) -> bool {
    s.len() == 36 && Uuid::parse_str(s).is_ok()
}

/// Every id-like string in `v`, each once.
fn ids(v: &Value) -> Vec<String> {
    let set: BTreeSet<String> =
        nodes(v).into_iter().filter_map(|(_, n)| n.as_str().filter(|s| is_uuid(s)).map(str::to_owned)).collect();
    set.into_iter().collect()
}

/// A value for a description: strings escaped (bidi and zero-width too), long ones cut.
fn brief(v: &Value) -> String {
    match v {
        Value::String(s) if s.chars().count() > 40 => {
            let head: String = s.chars().take(12).collect();
            format!("{head:?}… ({} chars)", s.chars().count())
        }
        Value::String(s) => format!("{s:?}"),
        other => {
            let text = other.to_string();
            if text.len() > 80 {
                format!("{}… ({} bytes)", &text[..text.floor_char_boundary(60)], text.len())
            } else {
                text
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Mutations.

/// What a mutation may borrow from: the ids of this file and of every golden file.
struct Pools<'a> {
    own_ids: Vec<String>,
    golden_ids: &'a [String],
}

fn edge_number(rng: &mut Rng) -> Value {
    let n = match rng.below(18) {
        0 => Number::from(1u64 << 63),
        1 => Number::from(i64::MIN),
        2 => Number::from(i64::MAX),
        3 => Number::from(u64::MAX),
        4 => Number::from(1i64 << 31),
        5 => Number::from(-(1i64 << 31)),
        6 => Number::from(i64::from(i32::MAX)),
        7 => Number::from(u32::MAX),
        8 => Number::from(1u64 << 32),
        9 => Number::from(-1),
        10 => Number::from(0),
        11 => Number::from(1),
        12 => Number::from(255),
        13 => Number::from(65536),
        14 => Number::from_f64(1.5).expect("finite"),
        15 => Number::from_f64(1e308).expect("finite"),
        16 => Number::from_f64(-1e308).expect("finite"),
        _ => Number::from(-(1i64 << 32)),
    };
    Value::Number(n)
}

fn edge_string(rng: &mut Rng, old: &Value, pools: &Pools) -> Value {
    let old_text = match old {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let s = match rng.below(13) {
        0 => String::new(),
        1 => " ".into(),
        2 => "x".repeat(2001),
        3 => format!("\u{202E}{old_text}\u{200B}"),
        4 => "\u{0000}".into(),
        5 => format!("{old_text}\u{0000}"),
        6 => Uuid::from_u64_pair(rng.next(), rng.next()).to_string(),
        7 if !pools.own_ids.is_empty() => rng.pick(pools.own_ids.as_slice()).clone(),
        7 | 8 => rng.pick(pools.golden_ids).clone(),
        9 => old.as_number().map_or_else(|| "7".into(), |n| n.to_string()),
        10 => "\u{1b}[2J".into(),
        11 => "9999-12-31T23:59:59.999Z".into(),
        _ => "\u{200B}".into(),
    };
    Value::String(s)
}

/// A replacement for a leaf: mostly an edge value of its own type, sometimes of another type.
fn replacement(rng: &mut Rng, old: &Value, pools: &Pools) -> Value {
    let own_type = |rng: &mut Rng| if old.is_string() { edge_string(rng, old, pools) } else { edge_number(rng) };
    let other_type = |rng: &mut Rng| if old.is_string() { edge_number(rng) } else { edge_string(rng, old, pools) };
    match rng.below(20) {
        0..=1 => Value::Null,
        2 => Value::Bool(rng.percent(50)),
        3..=6 => other_type(rng),
        _ => own_type(rng),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mutator {
    Number,
    String,
    Other,
    Array,
    RemoveKey,
    AddKey,
    Swap,
    CopyId,
    Bytes,
}

/// Mutators with their weights.
const MUTATORS: [(Mutator, usize); 9] = [
    (Mutator::Number, 30),
    (Mutator::String, 20),
    (Mutator::Other, 4),
    (Mutator::Array, 10),
    (Mutator::RemoveKey, 8),
    (Mutator::AddKey, 3),
    (Mutator::Swap, 8),
    (Mutator::CopyId, 12),
    (Mutator::Bytes, 7),
];

/// The leaves a leaf mutator changes; `None` for the other mutators.
fn leaf_kind(m: Mutator) -> Option<fn(&Value) -> bool> {
    match m {
        Mutator::Number => Some(Value::is_number),
        Mutator::String => Some(Value::is_string),
        Mutator::Other => Some(|v| v.is_null() || v.is_boolean()),
        Mutator::CopyId => Some(|v| v.as_str().is_some_and(is_uuid)),
        _ => None,
    }
}

fn pick_mutator(rng: &mut Rng) -> Mutator {
    let total: usize = MUTATORS.iter().map(|(_, w)| w).sum();
    let mut roll = rng.below(total);
    for (m, w) in MUTATORS {
        if roll < w {
            return m;
        }
        roll -= w;
    }
    unreachable!("the weights add up")
}

/// Applies one structural mutation; returns its description, or `None` if nothing fitted.
fn mutate(doc: &mut Value, m: Mutator, rng: &mut Rng, golden_ids: &[String]) -> Option<String> {
    let pools = Pools { own_ids: ids(doc), golden_ids };
    let all = nodes(doc);
    let choose = |rng: &mut Rng, keep: &dyn Fn(&Value) -> bool| -> Option<JsonPath> {
        let fits: Vec<&JsonPath> = all.iter().filter(|(_, v)| keep(v)).map(|(p, _)| p).collect();
        (!fits.is_empty()).then(|| rng.pick(&fits).to_vec())
    };
    let desc = match m {
        Mutator::Number | Mutator::String | Mutator::Other => {
            let path = choose(rng, &leaf_kind(m).expect("a leaf mutator"))?;
            let slot = at(doc, &path);
            let new = replacement(rng, slot, &pools);
            let desc = format!("{} {} → {}", show(&path), brief(slot), brief(&new));
            *slot = new;
            desc
        }
        Mutator::CopyId => {
            let path = choose(rng, &leaf_kind(m).expect("a leaf mutator"))?;
            let slot = at(doc, &path);
            let others: Vec<&String> = pools.own_ids.iter().filter(|id| slot.as_str() != Some(id.as_str())).collect();
            let (new, whence) = if !others.is_empty() && rng.percent(70) {
                ((*rng.pick(&others)).clone(), "an id of this file")
            } else {
                (rng.pick(golden_ids).clone(), "an id of the golden files")
            };
            let desc = format!("{} {} → {new:?} ({whence})", show(&path), brief(slot));
            *slot = Value::String(new);
            desc
        }
        Mutator::Array => {
            let path = choose(rng, &|v| v.is_array())?;
            let Value::Array(items) = at(doc, &path) else { unreachable!("an array") };
            let len = items.len();
            match (len, rng.below(4)) {
                (0, _) | (_, 0) => {
                    items.clear();
                    format!("{} emptied (had {len})", show(&path))
                }
                (_, 1) => {
                    let i = rng.below(len);
                    items.insert(rng.below(len + 1), items[i].clone());
                    format!("{}[{i}] duplicated", show(&path))
                }
                (_, 2) => {
                    let i = rng.below(len);
                    items.remove(i);
                    format!("{}[{i}] removed", show(&path))
                }
                _ => {
                    // 300 copies, or fewer of a big element so a mutant stays near 1 MiB.
                    let i = rng.below(len);
                    let size = serde_json::to_vec(&items[i]).expect("serializable").len();
                    let copies = if size <= 4096 { 300 } else { (1 << 20) / size }.clamp(2, 300);
                    let copy = items[i].clone();
                    items.extend(std::iter::repeat_n(copy, copies));
                    format!("{}[{i}] grown by {copies} copies", show(&path))
                }
            }
        }
        Mutator::RemoveKey => {
            let path = choose(rng, &|v| v.as_object().is_some_and(|m| !m.is_empty()))?;
            let Value::Object(map) = at(doc, &path) else { unreachable!("an object") };
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = rng.pick(&keys).clone();
            map.remove(&key);
            format!("{}.{key} removed", show(&path))
        }
        Mutator::AddKey => {
            let path = choose(rng, &|v| v.is_object())?;
            let Value::Object(map) = at(doc, &path) else { unreachable!("an object") };
            let key = (*rng.pick(&["fuzz_unknown", "", "\u{1b}[2J", "id "])).to_owned();
            map.insert(key.clone(), Value::from(1));
            format!("{} unknown key {key:?} added", show(&path))
        }
        Mutator::Swap => {
            let path = choose(rng, &|v| match v {
                Value::Array(a) => a.len() >= 2,
                Value::Object(m) => m.len() >= 2,
                _ => false,
            })?;
            match at(doc, &path) {
                Value::Array(items) => {
                    let (i, j) = (rng.below(items.len()), rng.below(items.len()));
                    items.swap(i, j);
                    format!("{}: [{i}] and [{j}] swapped", show(&path))
                }
                Value::Object(map) => {
                    let keys: Vec<String> = map.keys().cloned().collect();
                    let (a, b) = (rng.pick(&keys).clone(), rng.pick(&keys).clone());
                    let va = map[&a].clone();
                    let vb = std::mem::replace(map.get_mut(&b).expect("a key"), va);
                    map.insert(a.clone(), vb);
                    format!("{}: values of .{a} and .{b} swapped", show(&path))
                }
                _ => unreachable!("a container"),
            }
        }
        Mutator::Bytes => unreachable!("byte mutations apply to the text"),
    };
    Some(desc)
}

/// A byte-level mutation of the serialized text.
fn mutate_bytes(bytes: &mut Vec<u8>, rng: &mut Rng) -> String {
    let len = bytes.len();
    match rng.below(3) {
        0 => {
            let to = rng.below(len.max(1));
            bytes.truncate(to);
            format!("bytes: truncated to {to} of {len}")
        }
        1 if len > 0 => {
            let (i, bit) = (rng.below(len), rng.below(8));
            bytes[i] ^= 1 << bit;
            format!("bytes: bit {bit} of byte {i} flipped")
        }
        _ => {
            let i = rng.below(len + 1);
            let c = *rng.pick(&[0x00u8, 0x01, 0x07, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f]);
            bytes.insert(i, c);
            format!("bytes: 0x{c:02x} inserted at byte {i}")
        }
    }
}

/// Mutant `index`: its bytes, how to import it, and what was done to which golden file.
struct Mutant {
    bytes: Vec<u8>,
    options: ImportOptions,
    desc: String,
    /// The golden file it was made from.
    golden: &'static str,
}

/// A golden file, parsed.
struct Golden {
    name: &'static str,
    doc: Value,
}

/// Picks the file to mutate. For a leaf mutation, each leaf of that kind in all the golden
/// files is as likely as any other (so the big Mezzo files get most of them); otherwise each
/// file is as likely as any other.
fn pick_file<'g>(rng: &mut Rng, golden: &'g [Golden], first: Mutator) -> &'g Golden {
    let Some(keep) = leaf_kind(first) else { return rng.pick(golden) };
    fn count(v: &Value, keep: fn(&Value) -> bool) -> usize {
        let inner = match v {
            Value::Array(items) => items.iter().map(|i| count(i, keep)).sum(),
            Value::Object(map) => map.values().map(|i| count(i, keep)).sum(),
            _ => 0,
        };
        inner + usize::from(keep(v))
    }
    let weights: Vec<usize> = golden.iter().map(|g| count(&g.doc, keep)).collect();
    let mut roll = rng.below(weights.iter().sum::<usize>().max(1));
    for (g, w) in golden.iter().zip(weights) {
        if roll < w {
            return g;
        }
        roll -= w;
    }
    &golden[0]
}

fn make_mutant(seed: u64, index: u64, golden: &[Golden], golden_ids: &[String]) -> Mutant {
    let mut rng = Rng::for_mutant(seed, index);
    // Most game files conflict with the base's version of their game; replacing lets the
    // apply run too.
    let options = match rng.below(20) {
        0..=9 => ImportOptions::default(),
        10..=16 => ImportOptions { replace_conflicts: true, ..Default::default() },
        _ => ImportOptions { as_copy: true, ..Default::default() },
    };
    // One mutation (55 %), two (30 %) or three (15 %): each more makes a refusal likelier.
    let count = match rng.below(20) {
        0..=10 => 1,
        11..=16 => 2,
        _ => 3,
    };
    let mutators: Vec<Mutator> = (0..count).map(|_| pick_mutator(&mut rng)).collect();
    let Golden { name, doc: original } = pick_file(&mut rng, golden, mutators[0]);
    let mut doc = original.clone();
    let mut done = Vec::new();
    let mut byte_mutations = 0;
    for m in mutators {
        match m {
            Mutator::Bytes => byte_mutations += 1,
            m => done.extend(mutate(&mut doc, m, &mut rng, golden_ids)),
        }
    }
    let mut bytes = serde_json::to_vec(&doc).expect("serializable");
    for _ in 0..byte_mutations {
        done.push(mutate_bytes(&mut bytes, &mut rng));
    }
    let how = match (options.as_copy, options.replace_conflicts) {
        (true, _) => "import --as-copy",
        (_, true) => "import --replace",
        _ => "import",
    };
    Mutant { bytes, options, desc: format!("{name} ({how}): {}", done.join("; ")), golden: name }
}

// ---------------------------------------------------------------------------------------
// Running a step so that a panic is caught and named.

thread_local! {
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic without a message)".into())
}

/// The first frame of a backtrace in this crate's `src/`: `file:line` when there is debug
/// info, else the function's name.
fn frame_in_crate(backtrace: &Backtrace) -> Option<String> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/");
    let text = backtrace.to_string();
    let mut function = None;
    for line in text.lines().map(str::trim) {
        if let Some(at) = line.strip_prefix("at ") {
            let at = at.strip_prefix(root).or_else(|| at.strip_prefix("./")).unwrap_or(at);
            if at.starts_with("src/") {
                return Some(at.rsplit_once(':').map_or(at, |(file_line, _column)| file_line).to_owned());
            }
        } else if let Some((_, name)) = line.split_once(": ") {
            if function.is_none() && name.starts_with("sheetkeeper::") {
                function = Some(name.rsplit_once("::h").map_or(name, |(name, _hash)| name).to_owned());
            }
        }
    }
    function
}

/// Where a panic happened: its own place when that is in this crate, else the caller in this
/// crate that led to it (an overflow inside `i32::abs` is reported where `abs` was called).
fn panic_place(info: &panic::PanicHookInfo) -> String {
    let own = info.location().map(|l| (l.file().to_owned(), l.line()));
    match own {
        Some((file, line)) if file.starts_with("src/") => format!("{file}:{line}"),
        other => {
            let own = other.map_or_else(String::new, |(file, line)| {
                // The standard library's files, without the compiler's build folder.
                let file = match file.strip_prefix("/rustc/") {
                    Some(rest) => rest.split_once('/').map_or(rest, |(_hash, path)| path).to_owned(),
                    None => file,
                };
                format!("{file}:{line}")
            });
            match frame_in_crate(&Backtrace::force_capture()) {
                Some(caller) => format!("{caller} (in {own})"),
                None => own,
            }
        }
    }
}

/// A panic hook that, on a thread running a guarded step, keeps the message and place of the
/// panic instead of printing it; elsewhere it does what the previous hook did.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) {
                let text = format!("{} at {}", payload_text(info.payload()), panic_place(info));
                CAUGHT.with(|c| *c.borrow_mut() = Some(text));
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`; a panic becomes `Err` with its message and place.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    CATCHING.with(|c| c.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(false));
    result.map_err(|payload| CAUGHT.with(|c| c.borrow_mut().take()).unwrap_or_else(|| payload_text(payload.as_ref())))
}

// ---------------------------------------------------------------------------------------
// Judging a mutant.

/// Replaces ids with `<id>` and runs of digits with `N`, so failures group by kind.
fn normalize(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if rest.len() >= 36 && rest.is_char_boundary(36) && is_uuid(&rest[..36]) {
            out.push_str("<id>");
            rest = &rest[36..];
        } else if c.is_ascii_digit() {
            out.push('N');
            rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    let first_line = out.lines().next().unwrap_or_default();
    first_line.chars().take(200).collect()
}

/// A short text of an error: its kind and first problem (not a list of thousands).
fn error_text(e: &Error) -> String {
    match e {
        Error::BadFile { problems, .. } => match problems.first() {
            Some(p) => format!("bad_file ({} problem(s)) {p}", problems.len()),
            None => "bad_file with no problem listed".into(),
        },
        Error::Conflict { conflicts, .. } => format!("conflict ({} conflict(s))", conflicts.len()),
        other => format!("{}: {}", other.kind(), other.to_string().lines().next().unwrap_or_default()),
    }
}

/// Whether an import's refusal names what is wrong and where (and is no raw SQL message).
fn is_clear(e: &Error) -> bool {
    let named = match e {
        Error::BadFile { problems, .. } => !problems.is_empty() && problems.iter().all(|p| !p.path.is_empty()),
        Error::Conflict { conflicts, .. } => !conflicts.is_empty(),
        Error::Invalid { field, .. } => !field.is_empty(),
        _ => false,
    };
    named && !e.to_string().contains("constraint failed")
}

fn check_text(report: &CheckReport) -> Option<String> {
    if report.ok {
        return None;
    }
    let parts: Vec<String> = [
        ("integrity", &report.integrity),
        ("foreign keys", &report.foreign_key_violations),
        ("penny ante", &report.penny_ante),
        ("mezzo", &report.mezzo),
        ("scattershot", &report.scattershot),
    ]
    .into_iter()
    .filter(|(what, lines)| *what != "integrity" || lines.as_slice() != ["ok"])
    .filter(|(_, lines)| !lines.is_empty())
    .map(|(what, lines)| format!("{what}: {}", lines[0]))
    .collect();
    Some(parts.join("; "))
}

/// What went wrong with a mutant: a class to group by, and the details of this one.
struct Failure {
    class: String,
    detail: String,
}

fn failure(class: impl Into<String>, detail: impl Into<String>) -> Failure {
    Failure { class: class.into(), detail: detail.into() }
}

fn panicked(step: &str, message: String) -> Failure {
    // The place stays as it is; the message is grouped like an error.
    let (text, place) = message.rsplit_once(" at ").map_or((message.as_str(), ""), |(t, p)| (t, p));
    failure(format!("panic in {step}: {} at {place}", normalize(text)), format!("panic in {step}: {message}"))
}

enum Verdict {
    Accepted,
    /// Refused cleanly, with this error.
    Refused(String),
    /// Refused by the apply, with this error, after the preview had said it could be imported.
    RefusedAtApply(String),
    Failed(Failure),
}

/// The files one run works with, in a temporary folder.
struct Bench {
    dir: tempfile::TempDir,
    /// The base database (every golden file), checkpointed, as bytes.
    base: Vec<u8>,
    /// An empty database at the latest schema, as bytes.
    empty: Vec<u8>,
    /// Whether `work.db` may differ from `base`.
    dirty: bool,
}

impl Bench {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Puts `bytes` at `db` as a closed database (no WAL, no shared memory).
    fn place(db: &Path, bytes: &[u8]) {
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        std::fs::write(db, bytes).expect("a database copy");
    }

    fn new() -> Bench {
        let dir = tempfile::Builder::new().prefix("sheetkeeper-fuzz-").tempdir().expect("a temp dir");
        let empty_db = dir.path().join("empty.db");
        drop(Store::open(&empty_db).expect("an empty database"));
        let empty = std::fs::read(&empty_db).expect("the empty database");

        let base_db = dir.path().join("base.db");
        let mut store = Store::open(&base_db).expect("the base database");
        for name in GOLDEN {
            let file = fixture(name);
            let plain = import(&mut store, &file, ImportOptions::default());
            // A file that conflicts, or that would move a character its game names (the
            // golden backup's Wren scouts in the NSU game), lands as copies.
            if let Err(Error::Conflict { .. } | Error::BadFile { .. }) = plain {
                import(&mut store, &file, ImportOptions { as_copy: true, ..Default::default() })
                    .unwrap_or_else(|e| panic!("{name} imports as copies into the base: {e}"));
            } else {
                plain.unwrap_or_else(|e| panic!("{name} imports into the base: {e}"));
            }
        }
        let report = sheetkeeper::services::check(&store).expect("the base checks");
        assert!(report.ok, "the base database is sound: {report:?}");
        drop(store);
        let (base, wal) = bytes_on_disk(&base_db);
        assert!(wal.is_none(), "closing the base checkpoints its WAL");
        let bench = Bench { dir, base, empty, dirty: true };
        // The base itself must survive the round trip, or every accepted mutant would fail.
        let store = Store::open(&base_db).expect("the base opens");
        if let Err(f) = bench.round_trip(&store) {
            panic!("the base database does not survive an export and re-import: {}", f.detail);
        }
        bench
    }

    /// Exports everything in `store` and imports it into a fresh database.
    fn round_trip(&self, store: &Store) -> Result<(), Failure> {
        let file = self.path("export.sheetkeeper.json");
        match guarded(|| export(store, ExportScope::All, &file)) {
            Err(p) => return Err(panicked("export", p)),
            Ok(Err(e)) => return Err(failure(format!("export fails: {}", normalize(&error_text(&e))), error_text(&e))),
            Ok(Ok(_)) => {}
        }
        let fresh_db = self.path("fresh.db");
        Self::place(&fresh_db, &self.empty);
        let outcome = guarded(|| {
            let mut fresh = Store::open(&fresh_db).expect("the fresh database opens");
            let imported = import(&mut fresh, &file, ImportOptions::default());
            (imported.map(|_| ()), fresh.check())
        });
        let result = match outcome {
            Err(p) => Err(panicked("re-import of the export", p)),
            Ok((Err(e), _)) => Err(failure(
                format!("the export of everything does not re-import: {}", normalize(&error_text(&e))),
                format!("the export of everything does not re-import: {}", error_text(&e)),
            )),
            Ok((Ok(()), Err(e))) => Err(failure("check fails on the re-imported export", error_text(&e))),
            Ok((Ok(()), Ok(report))) => match check_text(&report) {
                Some(text) => Err(failure(
                    format!("check finds problems after re-importing the export: {}", normalize(&text)),
                    format!("check finds problems after re-importing the export: {text}"),
                )),
                None => Ok(()),
            },
        };
        Self::place(&fresh_db, &[]);
        result
    }

    /// After an accepted mutant, imports the golden file it came from with "replace": what the
    /// mutant left (a revision of i64::MAX, say) must not break a later, ordinary import.
    fn follow_up(store: &mut Store, golden: &str) -> Result<(), Failure> {
        let file = fixture(golden);
        let replace = ImportOptions { replace_conflicts: true, ..Default::default() };
        let then = "then importing the original file with --replace";
        match guarded(|| import(store, &file, replace)) {
            Err(p) => return Err(panicked(then, p)),
            Ok(Err(e)) if !is_clear(&e) => {
                let text = error_text(&e);
                return Err(failure(
                    format!("{then} is refused with an unclear {} error: {}", e.kind(), normalize(&text)),
                    format!("{then} is refused with an unclear error: {text}"),
                ));
            }
            Ok(_) => {}
        }
        match guarded(|| store.check()) {
            Err(p) => Err(panicked("check", p)),
            Ok(Err(e)) => Err(failure(format!("check fails {then}"), error_text(&e))),
            Ok(Ok(report)) => match check_text(&report) {
                Some(text) => Err(failure(
                    format!("check finds problems {then}: {}", normalize(&text)),
                    format!("check finds problems {then}: {text}"),
                )),
                None => Ok(()),
            },
        }
    }

    /// Previews and imports one mutant into a copy of the base, and judges what happened.
    fn judge(&mut self, mutant: &Mutant) -> Verdict {
        let file = self.path("mutant.sheetkeeper.json");
        std::fs::write(&file, &mutant.bytes).expect("the mutant is written");
        let work_db = self.path("work.db");
        if self.dirty {
            Self::place(&work_db, &self.base);
        }
        // Assume the worst until the bytes are seen unchanged.
        self.dirty = true;
        let mut store = Store::open(&work_db).expect("the work database opens");
        let options = mutant.options;

        let preview = match guarded(|| import_preview(&store, &file, options.as_copy)) {
            Ok(p) => p,
            Err(p) => return Verdict::Failed(panicked("import_preview", p)),
        };
        let imported = match guarded(|| import(&mut store, &file, options)) {
            Ok(r) => r,
            Err(p) => return Verdict::Failed(panicked("import", p)),
        };

        match imported {
            Err(e) => {
                drop(store);
                let (main, wal) = bytes_on_disk(&work_db);
                if main != self.base || wal.is_some() {
                    return Verdict::Failed(failure(
                        "a refused import changed the database",
                        format!("refused with {}, but the database's bytes changed", error_text(&e)),
                    ));
                }
                self.dirty = false;
                if !is_clear(&e) {
                    let text = error_text(&e);
                    let when = if preview.is_ok() { "after an OK preview" } else { "also in the preview" };
                    return Verdict::Failed(failure(
                        format!("refused with an unclear {} error {when}: {}", e.kind(), normalize(&text)),
                        format!("refused with an unclear error {when}: {text}"),
                    ));
                }
                match (&preview, &e) {
                    (Ok(_), Error::BadFile { .. }) => {
                        Verdict::Failed(failure("the preview accepts what the import calls a bad file", error_text(&e)))
                    }
                    (Ok(p), Error::Conflict { .. }) if p.counts.conflict == 0 => {
                        Verdict::Failed(failure("the import finds a conflict the preview did not show", error_text(&e)))
                    }
                    (Ok(p), Error::Conflict { .. }) if p.counts.conflict > 0 => Verdict::Refused(error_text(&e)),
                    (Ok(_), _) => Verdict::RefusedAtApply(error_text(&e)),
                    (Err(_), _) => Verdict::Refused(error_text(&e)),
                }
            }
            Ok(report) => {
                if let Err(e) = &preview {
                    return Verdict::Failed(failure(
                        "the preview refuses what the import accepts",
                        format!("the preview said {}", error_text(e)),
                    ));
                }
                if let Ok(p) = &preview {
                    if p.counts != report.counts {
                        return Verdict::Failed(failure(
                            "the import's counts differ from the preview's",
                            format!("preview {:?}, import {:?}", p.counts, report.counts),
                        ));
                    }
                }
                match guarded(|| store.check()) {
                    Err(p) => return Verdict::Failed(panicked("check", p)),
                    Ok(Err(e)) => return Verdict::Failed(failure("check fails after an import", error_text(&e))),
                    Ok(Ok(report)) => {
                        if let Some(text) = check_text(&report) {
                            return Verdict::Failed(failure(
                                format!("check finds problems after an accepted import: {}", normalize(&text)),
                                format!("check finds problems after an accepted import: {text}"),
                            ));
                        }
                    }
                }
                match self.round_trip(&store).and_then(|()| Self::follow_up(&mut store, mutant.golden)) {
                    Ok(()) => Verdict::Accepted,
                    Err(f) => Verdict::Failed(f),
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The test.

fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={text:?} is not a number")))
}

struct Listed {
    index: u64,
    desc: String,
    detail: String,
}

#[test]
fn mutated_golden_files_import_cleanly_or_are_refused_cleanly() {
    install_hook();
    let seed = env_number("SHEETKEEPER_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let only = env_number("SHEETKEEPER_FUZZ_ONLY");
    let count = env_number("SHEETKEEPER_FUZZ_MUTANTS").unwrap_or(DEFAULT_MUTANTS);
    let verbose = only.is_some() || env_number("SHEETKEEPER_FUZZ_VERBOSE").is_some_and(|v| v > 0);
    let golden: Vec<Golden> = GOLDEN
        .iter()
        .map(|name| {
            let text = std::fs::read(fixture(name)).expect("a golden file");
            Golden { name, doc: serde_json::from_slice(&text).expect("golden JSON") }
        })
        .collect();
    let golden_ids: Vec<String> =
        golden.iter().flat_map(|g| ids(&g.doc)).collect::<BTreeSet<_>>().into_iter().collect();

    let mut bench = Bench::new();
    let indices: Box<dyn Iterator<Item = u64>> = match only {
        Some(i) => Box::new(std::iter::once(i)),
        None => Box::new(0..count),
    };
    let started = Instant::now();
    let (mut executed, mut accepted, mut refused, mut refused_at_apply) = (0u64, 0u64, 0u64, 0u64);
    let mut listed: Vec<Listed> = Vec::new();
    let mut classes: BTreeMap<String, (u64, u64, String)> = BTreeMap::new();
    let mut failures = 0u64;
    for index in indices {
        let mutant = make_mutant(seed, index, &golden, &golden_ids);
        if only.is_some() {
            let kept = tempfile::Builder::new().prefix("sheetkeeper-fuzz-only-").tempdir().expect("a temp dir").keep();
            let file = kept.join(format!("mutant-{seed:#x}-{index}.sheetkeeper.json"));
            std::fs::write(&file, &mutant.bytes).expect("the mutant is kept");
            eprintln!("mutant {index} (seed {seed:#x}): {}\nwritten to {}", mutant.desc, file.display());
        }
        executed += 1;
        let verdict = bench.judge(&mutant);
        if verbose {
            let what = match &verdict {
                Verdict::Accepted => "accepted".to_string(),
                Verdict::Refused(e) => format!("refused: {e}"),
                Verdict::RefusedAtApply(e) => format!("refused at apply: {e}"),
                Verdict::Failed(f) => format!("FAILED: {}", f.detail),
            };
            eprintln!("{index}: {}\n    {}", mutant.desc, what.lines().next().unwrap_or_default());
        }
        match verdict {
            Verdict::Accepted => accepted += 1,
            Verdict::Refused(_) => refused += 1,
            Verdict::RefusedAtApply(_) => refused_at_apply += 1,
            Verdict::Failed(f) => {
                failures += 1;
                let entry = classes.entry(f.class).or_insert((0, index, mutant.desc.clone()));
                entry.0 += 1;
                if listed.len() < LISTED {
                    listed.push(Listed { index, desc: mutant.desc, detail: f.detail });
                }
            }
        }
        if executed % 5000 == 0 {
            eprintln!("fuzz_import: {executed} mutants, {failures} failures so far");
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "fuzz_import: seed {seed:#x}: {executed} mutants in {seconds:.1} s ({:.1}/s): {accepted} accepted, \
         {refused} refused, {refused_at_apply} refused at apply after an OK preview, {failures} failures \
         in {} classes",
        executed as f64 / seconds.max(1e-9),
        classes.len()
    );
    for (class, (n, first, desc)) in &classes {
        eprintln!("  {n:>5} × {class}\n          e.g. mutant {first}: {desc}");
    }
    if !listed.is_empty() {
        let list: Vec<String> = listed
            .iter()
            .map(|l| format!("- mutant {} (seed {seed:#x}): {}\n    {}", l.index, l.desc, l.detail))
            .collect();
        panic!(
            "{failures} of {executed} mutants failed (the first {} below); replay one with \
             SHEETKEEPER_FUZZ_SEED={seed:#x} SHEETKEEPER_FUZZ_ONLY=<index> \
             cargo test -p sheetkeeper --test core fuzz_import -- --nocapture\n{}",
            listed.len(),
            list.join("\n")
        );
    }
}
