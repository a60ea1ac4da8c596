//! Reading a Scattershot's Mechanix sheet and table.

use serde_json::Value;
use uuid::Uuid;

use crate::rules::scattershot::sheet::Sheet as ScattershotSheet;
use crate::rules::scattershot::table::ScattershotTable;

use super::Validator;

/// Scattershot's Mechanix: a character's sheet and a game's table.
impl Validator {
    /// A sheet read by its types (the first type error is reported at its path), then
    /// every broken invariant the rules find (`Sheet::problems`), each at its path. Returned
    /// with its names and texts trimmed, as the rules keep them.
    pub(super) fn scattershot_sheet(&mut self, path: &str, v: &Value) -> Option<ScattershotSheet> {
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
    pub(super) fn scattershot_table(&mut self, path: &str, v: &Value, characters: &[Uuid]) -> Option<ScattershotTable> {
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
