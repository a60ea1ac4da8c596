//! The layers point one way (ARCHITECTURE.md "Bird's-eye view"): the rules import no other
//! layer, and a game's services never import another game's (what games share is in the
//! common services they all import).

use std::path::{Path, PathBuf};

const GAMES: [&str; 4] = ["nsu", "mezzo", "penny_ante", "scattershot"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The Rust files below `dir`, with their code (line comments left out).
fn code_below(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
                out.push((path, code.join("\n")));
            }
        }
    }
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
