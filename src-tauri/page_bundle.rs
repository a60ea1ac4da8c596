//! The page the window serves: `ui/` with its modules bundled by rollup (build.rs runs this).
//!
//! The start (app.js and every module it imports) becomes one file, app.js, and each game's
//! screens a chunk loaded when first opened, which imports what it shares from app.js; so
//! every module still exists once (the call queue in api.js, the screens' registry in
//! systems.js). The start's 18 separate modules took about 35 ms to arrive and link even
//! with all of them preloaded; the one file, about 15.
//!
//! Everything else (the HTML, the stylesheets, the plain scripts index.html names) is copied
//! as it is. `ui/` itself stays a working page, unbundled.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes the bundled page into `out` (emptied first, so no stale chunk is served).
/// `config` is rollup's settings file, page_bundle.mjs.
pub fn bundle(ui: &Path, config: &Path, out: &Path) -> Result<(), String> {
    if out.exists() {
        fs::remove_dir_all(out).map_err(|e| format!("could not empty {}: {e}", out.display()))?;
    }
    let status = Command::new("rollup")
        .arg("--config")
        .arg(config)
        .arg("--input")
        .arg(ui.join("app.js"))
        .args(["--silent", "--dir"])
        .arg(out)
        .status()
        .map_err(|e| {
            format!(
                "rollup could not be run ({e}). The page's modules are bundled with rollup: \
                 `bash scripts/setup.sh` installs it (Debian: `apt-get install rollup`)"
            )
        })?;
    if !status.success() {
        return Err(format!("rollup could not bundle {} (its message is above)", ui.join("app.js").display()));
    }

    // The start must be the one file (page_bundle.mjs): a static import would be a second
    // request before the first screen.
    let app = read(&out.join("app.js"))?;
    let static_import = |l: &&str| l.starts_with("import ") && (l.contains(" from '") || l.starts_with("import '"));
    if let Some(import) = app.lines().find(static_import) {
        return Err(format!("the bundled app.js imports another file, so the start is not one file: {import}"));
    }
    let index = read(&ui.join("index.html"))?;
    copy_page_files(ui, out, &plain_scripts(&index))
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))
}

/// The `src` of each plain (non-module) `<script src="…">` in index.html.
fn plain_scripts(index: &str) -> Vec<String> {
    index
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("<script src=\"") && !l.contains("type=\"module\""))
        .filter_map(|l| l.strip_prefix("<script src=\"")?.split_once('"').map(|(src, _)| src.to_owned()))
        .collect()
}

/// Copies every file under `ui` that is not a module: all but `.js`, and the plain scripts.
fn copy_page_files(ui: &Path, out: &Path, plain_scripts: &[String]) -> Result<(), String> {
    let mut folders = vec![PathBuf::new()];
    while let Some(folder) = folders.pop() {
        let entries =
            fs::read_dir(ui.join(&folder)).map_err(|e| format!("could not list ui/{}: {e}", folder.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("could not list ui/{}: {e}", folder.display()))?;
            let relative = folder.join(entry.file_name());
            if entry.path().is_dir() {
                folders.push(relative);
                continue;
            }
            let name = relative.to_string_lossy().replace('\\', "/");
            if name.ends_with(".js") && !plain_scripts.contains(&name) {
                continue;
            }
            let to = out.join(&relative);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent).map_err(|e| format!("could not make {}: {e}", parent.display()))?;
            }
            fs::copy(entry.path(), &to).map_err(|e| format!("could not copy ui/{name}: {e}"))?;
        }
    }
    Ok(())
}
