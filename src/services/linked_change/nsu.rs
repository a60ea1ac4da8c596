//! No Stone Unturned: the sheet mirrors the paper one, and a player changes every box of it
//! by hand (`save_nsu_sheet`); rolls and downtime made on the device change it too. A change
//! is a sheet that keeps the sheet's rules.

use super::first_problem;
use crate::error::Result;
use crate::rules::record::CharacterRecord;

pub(super) fn check(after: &CharacterRecord) -> Result<()> {
    match &after.nsu {
        Some(sheet) => first_problem(sheet.problems("sheet")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{now, Character, System};
    use crate::rules::nsu::{Mood, Sheet};

    fn record(sheet: Sheet) -> CharacterRecord {
        let character = Character {
            id: uuid::Uuid::from_u128(1),
            game_id: uuid::Uuid::from_u128(2),
            system: System::Nsu,
            name: "Wren".into(),
            created_at: now(),
            updated_at: now(),
            revision: 1,
            notes: String::new(),
        };
        CharacterRecord { nsu: Some(sheet), ..CharacterRecord::new(character) }
    }

    #[test]
    fn any_box_of_the_sheet_but_not_past_its_rules() {
        let mut sheet = Sheet { look: "Ink on the fingers".into(), recovery_points: 3, ..Sheet::default() };
        sheet.moods[0] = Some(Mood { name: "Hopeful".into(), level: 9, overloaded: true });
        sheet.harm = vec!["A cut".into()];
        assert!(check(&record(sheet.clone())).is_ok());
        sheet.moods[1] = Some(Mood { name: "Angry".into(), level: 2, overloaded: true });
        let err = check(&record(sheet)).unwrap_err().to_string();
        assert!(err.contains("only one mood can be overloaded"), "{err}");
        assert!(err.contains("the change was not applied"), "{err}");
    }
}
