//! Penny Ante: a player's sheet holds its characteristics, and every one but the first free
//! one is bought with pennies on the table's ledger, which no character change carries. So a
//! change may add only the free one, as the rules give it, and keeps the rest as it was.

use uuid::Uuid;

use super::{kept, refused};
use crate::error::{Error, Result};
use crate::rules::penny_ante::ledger::CHARACTERISTIC_PRICE;
use crate::rules::penny_ante::table::{PennySheet, PennyTable};
use crate::rules::record::CharacterRecord;

/// `table`: reads the table, whose ledger may be long; only a characteristic added needs it.
pub(super) fn check(
    table: impl FnOnce() -> Result<PennyTable>,
    before: Option<&CharacterRecord>,
    after: &CharacterRecord,
) -> Result<()> {
    let id = after.character.id;
    let before = before.and_then(|r| r.penny_ante.clone()).unwrap_or_default();
    let after = after.penny_ante.clone().unwrap_or_default();
    let table =
        if after.characteristics.len() > before.characteristics.len() { table()? } else { PennyTable::default() };
    sheet(&table, id, &before, &after)
}

/// `after` as the player may make it from `before` at this `table`.
fn sheet(table: &PennyTable, id: Uuid, before: &PennySheet, after: &PennySheet) -> Result<()> {
    kept(
        "carried",
        &before.carried,
        &after.carried,
        "carried (characteristics paid for at another table)",
        "is set when a character is copied, moved or imported",
    )?;
    kept(
        "lost",
        &before.lost,
        &after.lost,
        "lost (characteristics given up in buyouts)",
        "changes only when a buyout at the table takes one",
    )?;
    let held = before.characteristics.len();
    if let Some(gone) = before.characteristics.iter().zip(&after.characteristics).find(|(b, a)| b != a).map(|(b, _)| b)
    {
        return Err(rewritten(gone));
    }
    if let Some(gone) = before.characteristics.get(after.characteristics.len()) {
        return Err(rewritten(gone));
    }
    let mut sheet = before.clone();
    for text in after.characteristics.iter().skip(held) {
        let paid = !sheet.characteristics.is_empty();
        sheet = match table.buy_characteristic(id, &sheet, text) {
            // The first one: free, no penny moves.
            Ok((_, next, events)) if events.is_empty() => next,
            Ok(_) => return Err(costs(text)),
            Err(_) if paid => return Err(costs(text)),
            Err(Error::Invalid { problem, .. }) => {
                return Err(refused("characteristics", format!("the characteristic “{text}”: {problem}")))
            }
            Err(other) => return Err(other),
        };
    }
    if sheet.characteristics != after.characteristics {
        // The rules keep a characteristic trimmed; the sheet must hold it as they do.
        return Err(refused("characteristics", "a characteristic is kept as it was taken, without spaces around it"));
    }
    Ok(())
}

fn rewritten(text: &str) -> Error {
    refused(
        "characteristics",
        format!(
            "the characteristic “{text}” was taken off or rewritten: one is lost only in a buyout at the table, and \
             stays as it was taken"
        ),
    )
}

fn costs(text: &str) -> Error {
    refused(
        "characteristics",
        format!(
            "the characteristic “{text}” costs {CHARACTERISTIC_PRICE} pennies: a characteristic beyond the first is \
             bought with {CHARACTERISTIC_PRICE} pennies on the table's device, between adventures"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::penny_ante::ledger::DEFAULT_STARTING_MINIMUM;

    fn id() -> Uuid {
        Uuid::from_u128(1)
    }

    fn sheet_of(characteristics: &[&str], carried: u32, lost: u32) -> PennySheet {
        PennySheet { characteristics: characteristics.iter().map(|&c| c.into()).collect(), carried, lost }
    }

    /// A table with the character's 30 pennies; `running`: an adventure runs.
    fn table(running: bool) -> PennyTable {
        let t = PennyTable::default().starting_pennies(id(), 30, DEFAULT_STARTING_MINIMUM).unwrap().0;
        if running {
            t.start_adventure(&[id()], None).unwrap().0
        } else {
            t
        }
    }

    fn refusal(table: &PennyTable, before: &PennySheet, after: &PennySheet) -> String {
        sheet(table, id(), before, after).unwrap_err().to_string()
    }

    #[test]
    fn the_first_characteristic_is_free_and_the_next_costs_pennies_the_change_does_not_carry() {
        let none = sheet_of(&[], 0, 0);
        assert!(sheet(&table(true), id(), &none, &sheet_of(&["Strong"], 0, 0)).is_ok());
        assert!(sheet(&table(false), id(), &none, &sheet_of(&["Strong"], 0, 0)).is_ok());
        for running in [false, true] {
            let err = refusal(&table(running), &none, &sheet_of(&["Strong", "Quick"], 0, 0));
            assert!(err.contains("“Quick” costs 5 pennies"), "{err}");
            let err = refusal(&table(running), &sheet_of(&["Strong"], 0, 0), &sheet_of(&["Strong", "Quick"], 0, 0));
            assert!(err.contains("“Quick” costs 5 pennies"), "{err}");
        }
    }

    #[test]
    fn carried_and_lost_are_the_tables_bookkeeping() {
        let one = sheet_of(&["Strong"], 0, 0);
        let err = refusal(&table(false), &one, &sheet_of(&["Strong", "Rich"], 1, 0));
        assert!(err.starts_with("carried: carried (characteristics paid for at another table)"), "{err}");
        let err = refusal(&table(false), &one, &sheet_of(&["Strong"], 0, 1));
        assert!(err.contains("lost (characteristics given up in buyouts)"), "{err}");
        let err = refusal(&table(false), &sheet_of(&["Strong"], 0, 2), &sheet_of(&["Strong"], 0, 0));
        assert!(err.contains("lost (characteristics given up in buyouts)"), "{err}");
    }

    #[test]
    fn a_characteristic_stays_as_it_was_taken() {
        let two = sheet_of(&["Strong", "Quick"], 1, 0);
        for after in
            [sheet_of(&["Strong"], 1, 0), sheet_of(&["Quick", "Strong"], 1, 0), sheet_of(&["Strong", "Fast"], 1, 0)]
        {
            let err = refusal(&table(false), &two, &after);
            assert!(err.contains("was taken off or rewritten"), "{after:?}: {err}");
        }
        assert!(sheet(&table(false), id(), &two, &two).is_ok());
    }

    #[test]
    fn after_a_buyout_took_the_last_one_the_free_one_waits_for_the_adventure_to_end() {
        let bought_out = sheet_of(&[], 0, 1);
        let err = refusal(&table(true), &bought_out, &sheet_of(&["Fresh"], 0, 1));
        assert!(err.contains("a new free one is taken only between adventures"), "{err}");
        assert!(sheet(&table(false), id(), &bought_out, &sheet_of(&["Fresh"], 0, 1)).is_ok());
        let err = refusal(&table(false), &sheet_of(&[], 0, 0), &sheet_of(&[" Padded "], 0, 0));
        assert!(err.contains("without spaces around it"), "{err}");
    }
}
