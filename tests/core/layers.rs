//! The layers point one way (ARCHITECTURE.md "Bird's-eye view"): the rules import no other
//! layer, and a game's services never import another game's (what games share is in the
//! common services they all import).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::support::files_below;

const GAMES: [&str; 4] = ["nsu", "mezzo", "penny_ante", "scattershot"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The Rust files below `dir`, with their code (line comments left out).
fn code_below(dir: &Path) -> Vec<(PathBuf, String)> {
    let out: Vec<(PathBuf, String)> = files_below(dir, "rs")
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
            (path, code.join("\n"))
        })
        .collect();
    assert!(!out.is_empty(), "no Rust files below {}", dir.display());
    out
}

/// Where `code` names the module `name` as a path (`name::…`), as a whole word.
fn names_module(code: &str, name: &str) -> Vec<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(&format!("{name}::"))
        .map(|(i, _)| i)
        .filter(|&i| !code[..i].chars().next_back().is_some_and(word))
        .collect()
}

#[test]
fn the_rules_import_no_other_layer() {
    for (file, code) in code_below(&src().join("rules")) {
        for layer in ["services", "store", "exchange", "link"] {
            assert!(!code.contains(&format!("crate::{layer}")), "{} imports {layer}", file.display());
        }
    }
}

#[test]
fn a_games_services_never_import_another_games() {
    for game in GAMES {
        for (file, code) in code_below(&src().join("services").join(game)) {
            for other in GAMES.into_iter().filter(|o| *o != game) {
                // The other game's rules are its words (a Scattershot log reads like a
                // Mezzo one); its services are not.
                let through_services =
                    names_module(&code, other).into_iter().filter(|&i| !code[..i].ends_with("rules::")).count();
                assert_eq!(through_services, 0, "{} names the services of {other}", file.display());
            }
        }
    }
}

/// The modules a file's code names through `crate::`, `super::` or `self::` (a `use` or a
/// path; `mod` declarations are not counted), by their files' module paths: `rules/mezzo/
/// element` for `rules/mezzo/element/mod.rs`. A `#[cfg(test)]` module written in the file
/// and everything after it is left out, as are line comments.
fn imports(own: &[String], code: &str, modules: &BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    let code = match cfg_test_module(code) {
        Some(at) => &code[..at],
        None => code,
    };
    let word = |c: char| c.is_alphanumeric() || c == '_';
    // The longest leading part of `path` that is a file's module.
    let resolve = |path: &[String]| (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p));
    // `path` (after `crate`, `super` or `self`) from this file: `super` is the parent of
    // the file's own module (for a `mod.rs` too: its module path is its folder's).
    let absolute = |root: &str, segments: &[&str]| -> Vec<String> {
        let mut path: Vec<String> = if root == "crate" { Vec::new() } else { own.to_vec() };
        let mut rest = segments;
        if root == "super" {
            path.pop();
        }
        if root != "crate" {
            while let Some((first, tail)) = rest.split_first().filter(|(s, _)| **s == "super" || **s == "self") {
                if *first == "super" {
                    path.pop();
                }
                rest = tail;
            }
        }
        path.extend(rest.iter().map(|s| s.to_string()));
        path
    };
    let mut out = BTreeSet::new();
    for root in ["crate", "super", "self"] {
        for (at, _) in code.match_indices(root) {
            // Inside a longer name, or a later part of a path already read (`super::super`).
            if code[..at].chars().next_back().is_some_and(word) || code[..at].ends_with("::") {
                continue;
            }
            // root::a::b… as far as names go; then perhaps ::{x, y::z as w}
            let mut rest = &code[at + root.len()..];
            let mut segments = Vec::new();
            while let Some(after) = rest.strip_prefix("::") {
                let len = after.find(|c: char| !word(c)).unwrap_or(after.len());
                if len == 0 {
                    break;
                }
                segments.push(&after[..len]);
                rest = &after[len..];
            }
            if !segments.is_empty() {
                out.extend(resolve(&absolute(root, &segments)));
            }
            if let Some(group) = rest.strip_prefix("::{").and_then(|g| g.split('}').next()) {
                let prefix = absolute(root, &segments);
                for item in group.split(',').map(|i| i.split(" as ").next().unwrap().trim()).filter(|i| !i.is_empty()) {
                    let mut path = prefix.clone();
                    path.extend(item.split("::").map(str::to_owned));
                    out.extend(resolve(&path));
                }
            }
        }
    }
    out.remove(own);
    out
}

/// Where `#[cfg(test)] mod name {` begins in `code`, if it does.
fn cfg_test_module(code: &str) -> Option<usize> {
    code.match_indices("#[cfg(test)]").map(|(at, _)| at).find(|&at| {
        let rest = code[at + "#[cfg(test)]".len()..].trim_start();
        let Some(rest) = rest.strip_prefix("mod").filter(|r| r.starts_with(char::is_whitespace)) else {
            return false;
        };
        let rest = rest.trim_start();
        let name = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        name > 0 && rest[name..].trim_start().starts_with('{')
    })
}

#[test]
fn no_file_in_src_imports_itself_through_others() {
    let report = import_loops(&src());
    assert!(report.is_empty(), "import loops between files of src/:\n{}", report.join("\n"));
    let app = src().parent().unwrap().join("src-tauri").join("src");
    let report = import_loops(&app);
    assert!(report.is_empty(), "import loops between files of src-tauri/src/:\n{}", report.join("\n"));
}

/// The loops between the Rust files below `root` (a crate's `src`), each as its files.
fn import_loops(root: &Path) -> Vec<String> {
    let root = root.to_path_buf();
    // Each file's module path: `rules/nsu/roll.rs` is rules/nsu/roll, `services/mezzo/mod.rs`
    // is services/mezzo, `lib.rs` and `main.rs` are the crate.
    let module_of = |file: &Path| -> Vec<String> {
        let rel = file.strip_prefix(&root).unwrap().with_extension("");
        let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            parts.pop();
        }
        parts
    };
    let files = code_below(&root);
    let file_of: BTreeMap<Vec<String>, String> =
        files.iter().map(|(f, _)| (module_of(f), f.strip_prefix(&root).unwrap().display().to_string())).collect();
    let modules: BTreeSet<Vec<String>> = file_of.keys().cloned().collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (file, code) in &files {
        let own = module_of(file);
        edges.entry(own.clone()).or_default().extend(imports(&own, code, &modules));
    }
    // What each module reaches through its imports.
    let reach = |from: &Vec<String>| -> BTreeSet<Vec<String>> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&Vec<String>> = edges[from].iter().collect();
        while let Some(m) = todo.pop() {
            if seen.insert(m.clone()) {
                todo.extend(edges.get(m).into_iter().flatten());
            }
        }
        seen
    };
    let reaches: BTreeMap<&Vec<String>, BTreeSet<Vec<String>>> = edges.keys().map(|m| (m, reach(m))).collect();
    // A loop: the modules that reach each other.
    let mut loops: BTreeSet<Vec<String>> = BTreeSet::new();
    for (m, reached) in &reaches {
        if reached.contains(*m) {
            let members = reached.iter().filter(|o| reaches[o].contains(*m)).map(|o| file_of[o].clone()).collect();
            loops.insert(members);
        }
    }
    loops.iter().map(|l| format!("{} files: {}", l.len(), l.join(", "))).collect()
}
