//! The UI's wings point one way (ARCHITECTURE.md "The UI"): the kit imports only the kit; the
//! shell imports the kit and itself, and a game only when it loads one (a dynamic `import()`);
//! a game's folder imports the kit, the shell and itself, never another game's; and no module
//! comes back to itself through its imports.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use crate::support::files_below;

/// A module's import: the file it names (from `ui/`) and whether it loads it later (`import()`).
#[derive(Debug)]
struct Import {
    target: String,
    dynamic: bool,
}

fn ui() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ui")
}

/// Every module below `ui/` (its path from `ui/`, with `/`) and what it imports.
fn modules() -> BTreeMap<String, Vec<Import>> {
    let root = ui();
    let out: BTreeMap<String, Vec<Import>> = files_below(&root, "js")
        .into_iter()
        .map(|path| {
            let name = from_ui(&path);
            let text = std::fs::read_to_string(&path).unwrap();
            let imports = imports(&name, &text);
            (name, imports)
        })
        .collect();
    assert!(out.len() > 40, "the UI's modules were not found below {}", root.display());
    out
}

fn from_ui(path: &Path) -> String {
    path.strip_prefix(ui()).unwrap().to_string_lossy().replace('\\', "/")
}

/// The relative imports of the module `name`: `from "…"`, `import "…"` and `import("…")`,
/// outside comments.
fn imports(name: &str, text: &str) -> Vec<Import> {
    let dir = Path::new(name).parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    for line in text.lines().map(str::trim_start) {
        if line.starts_with("//") || line.starts_with('*') || line.starts_with("/*") {
            continue;
        }
        for (opening, dynamic) in [("from ", false), ("import ", false), ("import(", true)] {
            for (at, _) in line.match_indices(opening) {
                let rest = &line[at + opening.len()..];
                let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else { continue };
                let Some((spec, _)) = rest[1..].split_once(quote) else { continue };
                if spec.starts_with("./") || spec.starts_with("../") {
                    out.push(Import { target: normalise(&dir.join(spec)), dynamic });
                }
            }
        }
    }
    out
}

/// `games/nsu/../../kit/dom.js` → `kit/dom.js`.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                parts.pop();
            }
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    parts.join("/")
}

/// The wing a module lives in: "kit", "shell", "games/<game>", or "" for the page's entry.
fn wing(module: &str) -> String {
    match module.split('/').collect::<Vec<_>>()[..] {
        ["games", game, ..] => format!("games/{game}"),
        [folder, _, ..] => folder.to_owned(),
        _ => String::new(),
    }
}

/// Whether a module of `from` may import one of `to` (`dynamic`: loaded when needed).
fn allowed(from: &str, to: &str, dynamic: bool) -> bool {
    match (from, to) {
        (_, _) if from == to => true,
        ("", _) => true,
        ("kit", _) => false,
        ("shell", "kit") => true,
        ("shell", game) => game.starts_with("games/") && dynamic,
        (_, "kit" | "shell") => from.starts_with("games/"),
        _ => false,
    }
}

#[test]
fn every_import_names_a_module_that_exists() {
    let modules = modules();
    for (module, imports) in &modules {
        for import in imports {
            assert!(modules.contains_key(&import.target), "{module} imports {}, which is not there", import.target);
        }
    }
}

#[test]
fn the_kit_the_shell_and_each_game_import_only_what_is_below_them() {
    let modules = modules();
    for folder in ["kit", "shell", "games/nsu", "games/mezzo", "games/penny_ante", "games/scattershot"] {
        assert!(modules.keys().any(|m| wing(m) == folder), "no module in ui/{folder}");
    }
    for (module, imports) in &modules {
        for import in imports {
            let (from, to) = (wing(module), wing(&import.target));
            let how = if import.dynamic { "loads" } else { "imports" };
            assert!(allowed(&from, &to, import.dynamic), "{module} {how} {} ({from} may not use {to})", import.target);
        }
    }
}

#[test]
fn no_module_imports_itself_back() {
    let modules = modules();
    // Depth-first; a module met again while it is still on the path closes a loop.
    fn visit<'a>(
        module: &'a str,
        modules: &'a BTreeMap<String, Vec<Import>>,
        path: &mut Vec<&'a str>,
        done: &mut Vec<&'a str>,
    ) {
        if done.contains(&module) {
            return;
        }
        if let Some(at) = path.iter().position(|m| *m == module) {
            panic!("an import loop: {} → {module}", path[at..].join(" → "));
        }
        path.push(module);
        for import in modules.get(module).into_iter().flatten() {
            visit(&import.target, modules, path, done);
        }
        path.pop();
        done.push(module);
    }
    let mut done = Vec::new();
    for module in modules.keys() {
        visit(module, &modules, &mut Vec::new(), &mut done);
    }
}

#[test]
fn the_checks_see_the_loops_and_the_crossings_they_are_for() {
    // Each check read on a made-up module, so a change to the parsing cannot make them blind.
    let found = imports(
        "games/mezzo/check.js",
        "// import { x } from \"../nsu/roll.js\";\nimport { el } from \"../../kit/dom.js\";\n\
         const m = await import(\"../../shell/print-sheet.js\");",
    );
    let targets: Vec<(&str, bool)> = found.iter().map(|i| (i.target.as_str(), i.dynamic)).collect();
    assert_eq!(targets, [("kit/dom.js", false), ("shell/print-sheet.js", true)]);
    assert!(!allowed("games/mezzo", "games/nsu", false));
    assert!(!allowed("games/mezzo", "games/nsu", true));
    assert!(!allowed("kit", "shell", false));
    assert!(!allowed("shell", "games/nsu", false));
    assert!(allowed("shell", "games/nsu", true));
    assert!(allowed("games/nsu", "kit", false) && allowed("games/nsu", "shell", false));
}
