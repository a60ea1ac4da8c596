//! The accessibility check run with every screenshot: axe-core (installed, pinned, by
//! `scripts/setup.sh --tests` under `tests/window/axe/`) runs its default rules on the page
//! as it is. A critical, serious or moderate violation fails the test naming the rule, the
//! elements and the screen (issue 35 brought all three to zero); a minor one is printed. `SHEETKEEPER_AXE=report` only
//! prints, to survey a change.

use std::path::Path;
use std::sync::OnceLock;

use serde_json::{json, Value};

use crate::webdriver::Session;

/// axe-core's script, read once.
fn axe_script() -> &'static str {
    static SCRIPT: OnceLock<String> = OnceLock::new();
    SCRIPT.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/window/axe/node_modules/axe-core/axe.min.js");
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("axe-core is missing ({e}): run `bash scripts/setup.sh --tests`"))
    })
}

/// One rule's violation on the page: its impact, its id and help, and the elements.
#[derive(Debug, PartialEq)]
pub struct Violation {
    pub impact: String,
    pub rule: String,
    pub help: String,
    pub targets: Vec<String>,
}

impl Violation {
    /// Whether it fails a test: critical, serious or moderate.
    pub fn fails(&self) -> bool {
        matches!(self.impact.as_str(), "critical" | "serious" | "moderate")
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} ({}): {}", self.impact, self.rule, self.help, self.targets.join(", "))
    }
}

/// Reads axe's violations as the check's script returns them, or what went wrong.
fn violations_of(value: &Value) -> Result<Vec<Violation>, String> {
    if let Some(error) = value.get("error") {
        return Err(format!("axe-core failed on the page: {error}"));
    }
    let list = value.as_array().ok_or_else(|| format!("axe-core returned {value}"))?;
    Ok(list
        .iter()
        .map(|v| Violation {
            impact: v["impact"].as_str().unwrap_or("unknown").to_string(),
            rule: v["id"].as_str().unwrap_or_default().to_string(),
            help: v["help"].as_str().unwrap_or_default().to_string(),
            targets: v["targets"]
                .as_array()
                .map(|t| t.iter().map(|s| s.as_str().unwrap_or_default().to_string()).collect())
                .unwrap_or_default(),
        })
        .collect())
}

impl Session {
    /// axe-core's violations on the page now (loaded into the page on first use).
    pub fn accessibility_violations(&self) -> Vec<Violation> {
        let loaded = self.execute("return typeof window.axe === 'object';", json!([]));
        if loaded != json!(true) {
            // The script sets `window.axe`; run as the driver's script, not the page's.
            self.execute(&format!("{}\n;return true;", axe_script()), json!([]));
        }
        let value = self.execute_async(
            "const done = arguments[arguments.length - 1];\n\
             window.axe.run(document, { resultTypes: ['violations'] }).then(\n\
               (r) => done(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,\n\
                 targets: v.nodes.map((n) => n.target.join(' ')) }))),\n\
               (e) => done({ error: String(e) }));",
            json!([]),
        );
        violations_of(&value).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Runs axe-core and fails the test on a critical, serious or moderate violation, naming
    /// each with its elements and `what` (the screen); minor ones are printed.
    pub fn check_accessibility(&self, what: &str) {
        let violations = self.accessibility_violations();
        let fails = violations.iter().any(Violation::fails);
        let list: Vec<String> = violations.iter().map(Violation::to_string).collect();
        self.fail_or_print("accessibility check (axe-core)", what, &list, fails, "SHEETKEEPER_AXE");
    }
}

#[test]
fn axe_reads_violations_and_fails_on_moderate_and_worse() {
    let value = json!([
        { "id": "label-content-name-mismatch", "impact": "serious", "help": "Names start with the text",
          "targets": ["#roll-body"] },
        { "id": "region", "impact": "moderate", "help": "Content in landmarks", "targets": ["#x", "#y"] },
        { "id": "empty-table-header", "impact": "minor", "help": "Headers have text", "targets": ["th"] },
    ]);
    let [serious, moderate, minor] = <[Violation; 3]>::try_from(violations_of(&value).unwrap()).unwrap();
    assert!(serious.fails() && moderate.fails() && !minor.fails());
    assert_eq!(moderate.to_string(), "moderate region (Content in landmarks): #x, #y");
    assert_eq!(violations_of(&json!({"error": "boom"})), Err("axe-core failed on the page: \"boom\"".to_string()));
}
