//! The page the window serves, made from `ui/` at build time. The files are the same, except
//! that `index.html` loads one stylesheet (its stylesheets joined in their order, so the
//! cascade is unchanged) and names the start's modules with `modulepreload` (WebKit then asks
//! for them all at once, not one level of imports after another). Both cut the requests the
//! start waits for; the start-up budget counts them (DESIGN.md, ARCHITECTURE.md "Start-up").

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The stylesheet `index.html` links instead of its own list.
const JOINED_CSS: &str = "app.css";
const STYLESHEET: (&str, &str) = ("<link rel=\"stylesheet\" href=\"", "\">");
const MODULE_SCRIPT: (&str, &str) = ("<script type=\"module\" src=\"", "\"></script>");

/// Writes the page made from `ui` into `out`. Files are written only when their content
/// changed, so an unchanged UI does not rebuild the app.
pub fn make(ui: &Path, out: &Path) -> Result<(), String> {
    let mut keep = BTreeSet::new();
    copy_tree(ui, ui, out, &mut keep)?;
    let index = read(&ui.join("index.html"))?;
    let (index, sheets) = join_stylesheets(&index)?;
    let css = sheets.iter().map(|name| read(&ui.join(name))).collect::<Result<Vec<_>, _>>()?;
    write_if_changed(&out.join(JOINED_CSS), &css.join("\n"))?;
    keep.insert(out.join(JOINED_CSS));
    let index = preload_modules(&index, ui)?;
    write_if_changed(&out.join("index.html"), &index)?;
    remove_stale(out, &keep)
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Copies every file of `dir` (under `root`) into `out`, noting what it wrote in `keep`.
fn copy_tree(root: &Path, dir: &Path, out: &Path, keep: &mut BTreeSet<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            copy_tree(root, &path, out, keep)?;
            continue;
        }
        let target = out.join(path.strip_prefix(root).map_err(|e| e.to_string())?);
        let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if fs::read(&target).ok() != Some(bytes.clone()) {
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            fs::write(&target, bytes).map_err(|e| format!("{}: {e}", target.display()))?;
        }
        keep.insert(target);
    }
    Ok(())
}

/// Deletes files in `out` that the UI no longer has (a renamed or removed file).
fn remove_stale(out: &Path, keep: &BTreeSet<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", out.display()))?.path();
        if path.is_dir() {
            remove_stale(&path, keep)?;
        } else if !keep.contains(&path) {
            fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The value between `open` and `close` when `line` (trimmed) is exactly that tag.
fn tag_value<'a>(line: &'a str, (open, close): (&str, &str)) -> Option<&'a str> {
    line.trim().strip_prefix(open)?.strip_suffix(close)
}

/// `index` with its stylesheet links replaced by one link to the joined file, and the
/// stylesheets' names in their order.
fn join_stylesheets(index: &str) -> Result<(String, Vec<String>), String> {
    let mut sheets = Vec::new();
    let mut lines = Vec::new();
    for line in index.lines() {
        match tag_value(line, STYLESHEET) {
            Some(name) => {
                if sheets.is_empty() {
                    let indent = &line[..line.len() - line.trim_start().len()];
                    lines.push(format!("{indent}{}{JOINED_CSS}{}", STYLESHEET.0, STYLESHEET.1));
                }
                sheets.push(name.to_owned());
            }
            None => lines.push(line.to_owned()),
        }
    }
    if sheets.is_empty() {
        return Err("ui/index.html links no stylesheet".into());
    }
    Ok((lines.join("\n") + "\n", sheets))
}

/// `index` with a `modulepreload` link, before its module script, for every module that
/// script imports statically (directly or through others), in the order they are first met.
fn preload_modules(index: &str, ui: &Path) -> Result<String, String> {
    let script = index.lines().find_map(|l| tag_value(l, MODULE_SCRIPT)).ok_or("ui/index.html has no module script")?;
    let mut found = Vec::new();
    imports_of(ui, script, &mut found)?;
    let mut lines = Vec::new();
    for line in index.lines() {
        if tag_value(line, MODULE_SCRIPT).is_some() {
            let indent = &line[..line.len() - line.trim_start().len()];
            lines.extend(found.iter().skip(1).map(|m| format!("{indent}<link rel=\"modulepreload\" href=\"{m}\">")));
        }
        lines.push(line.to_owned());
    }
    Ok(lines.join("\n") + "\n")
}

/// Adds `module` (a path under `ui`) and, depth first, the modules it imports statically.
/// Dynamic `import(…)`s are left out: they load when a screen first opens.
fn imports_of(ui: &Path, module: &str, found: &mut Vec<String>) -> Result<(), String> {
    if found.iter().any(|m| m == module) {
        return Ok(());
    }
    found.push(module.to_owned());
    let text = read(&ui.join(module))?;
    let base = Path::new(module).parent().unwrap_or(Path::new(""));
    for line in text.lines() {
        let line = line.trim_start();
        let is_static = line.starts_with("import ") || line.starts_with("} from ") || line.starts_with("export ");
        let Some(spec) = line.split_once(" from \"").map(|(_, rest)| rest).and_then(|r| r.split_once('"')) else {
            continue;
        };
        if !is_static || !(spec.0.starts_with("./") || spec.0.starts_with("../")) {
            continue;
        }
        imports_of(ui, &normalize(&base.join(spec.0)), found)?;
    }
    Ok(())
}

/// `a/./b/../c.js` as `a/c.js`, with `/` between parts (the page's own URL form).
fn normalize(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for part in path.components() {
        match part.as_os_str().to_string_lossy().as_ref() {
            "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p.to_owned()),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ui() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui")
    }

    /// The page made from the real `ui/` in a folder of its own (removed after).
    fn made(name: &str) -> (PathBuf, String) {
        let out = std::env::temp_dir().join(format!("sheetkeeper-page-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&out);
        make(&ui(), &out).expect("the page is made");
        let index = read(&out.join("index.html")).unwrap();
        (out, index)
    }

    /// The start asks for one stylesheet, holding every sheet of ui/index.html in its order
    /// (the same cascade as the separate links).
    #[test]
    fn the_start_loads_one_stylesheet_with_every_sheet_in_order() {
        let (out, index) = made("css");
        let links: Vec<&str> = index.lines().filter_map(|l| tag_value(l, STYLESHEET)).collect();
        assert_eq!(links, [JOINED_CSS]);
        let (_, sheets) = join_stylesheets(&read(&ui().join("index.html")).unwrap()).unwrap();
        assert!(sheets.len() > 1 && sheets[0] == "styles.css", "{sheets:?}");
        let joined = read(&out.join(JOINED_CSS)).unwrap();
        let mut at = 0;
        for sheet in &sheets {
            let text = read(&ui().join(sheet)).unwrap();
            let found =
                joined[at..].find(&text).unwrap_or_else(|| panic!("{sheet} is in app.css after the one before"));
            at += found + text.len();
        }
        fs::remove_dir_all(out).unwrap();
    }

    /// Every module the start imports is preloaded, and nothing a system's screen needs: those
    /// load when a screen first opens (systems.js's loaders).
    #[test]
    fn the_start_preloads_its_own_modules_and_no_screens() {
        let (out, index) = made("js");
        let preloaded: Vec<&str> = index
            .lines()
            .filter_map(|l| l.trim().strip_prefix("<link rel=\"modulepreload\" href=\"")?.strip_suffix("\">"))
            .collect();
        for module in ["api.js", "state.js", "views/dom.js", "views/home.js", "views/systems.js", "views/kit.js"] {
            assert!(preloaded.contains(&module), "{module} preloaded: {preloaded:?}");
        }
        for module in &preloaded {
            assert!(out.join(module).is_file(), "{module} is a file of the page");
            for screen in ["nsu-", "penny-", "mezzo-", "scattershot-"] {
                assert!(!module.starts_with(&format!("views/{screen}")), "{module} loads only with its screen");
            }
        }
        let lines: Vec<&str> = index.lines().collect();
        let script = lines.iter().position(|l| tag_value(l, MODULE_SCRIPT).is_some()).unwrap();
        let last_preload = lines.iter().rposition(|l| l.contains("modulepreload")).unwrap();
        assert!(last_preload < script, "the preloads come before the script");
        fs::remove_dir_all(out).unwrap();
    }

    /// A file the UI no longer has leaves the page too.
    #[test]
    fn a_removed_file_leaves_the_page() {
        let (out, _) = made("stale");
        fs::write(out.join("views/gone.js"), "export {}").unwrap();
        make(&ui(), &out).unwrap();
        assert!(!out.join("views/gone.js").exists());
        assert!(out.join("views/home.js").is_file());
        fs::remove_dir_all(out).unwrap();
    }
}
