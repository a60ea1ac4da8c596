//! Reading a Penny Ante sheet, pile and table.

use serde_json::Value;
use uuid::Uuid;

use crate::exchange::format::{Kind, PennyPile};
use crate::model::System;
use crate::rules::penny_ante::check::{entry_problems, sheet_problems, table_problems};
use crate::rules::penny_ante::ledger::{Account, Entry, Ledger, MAX_ENTRY};
use crate::rules::penny_ante::table::{PennySheet, PennyTable};

use super::{Obj, Validator};

/// Penny Ante: a character's sheet and its carried pile, and a game's table.
impl Validator {
    pub(super) fn penny_sheet(&mut self, path: &str, v: &Value) -> Option<PennySheet> {
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
    pub(super) fn penny_table(&mut self, path: &str, v: &Value) -> Option<PennyTable> {
        let table: PennyTable = self.typed(path, v)?;
        let found = table_problems(&table, path);
        let ok = found.is_empty();
        self.extend(found);
        ok.then_some(table)
    }

    /// `penny_pile` and `penny_ledger` beside a character in a Penny Ante character file.
    /// Returns None when they are malformed, `Some(None)` when there are none.
    pub(super) fn penny_pile(
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
        let sum = Ledger { entries: ledger.clone(), debts: Vec::new(), handed_over: Vec::new() }.pile(&account);
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
