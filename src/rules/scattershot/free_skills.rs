//! The game's list of free skills (RULES.md §4.2; seed: "The starting level of each Free
//! Skill is given on that list"). The Gamemaster keeps one list for the game; a sheet takes
//! its free skills from it, at the level the list gives.
//!
//! Rulings where the source is silent:
//! - A game with no list yet lets a sheet name any free skill at a level it states, as
//!   before the list existed (a group that has not written its list down can still play).
//! - Names are unique on the list whatever their case; a list holds at most [`MAX_ENTRIES`]
//!   skills, each at −[`MAX_MODIFIER`] to [`MAX_MODIFIER`].
//! - Changing the list changes no sheet: a skill already taken keeps the level it was taken at.

use serde::{Deserialize, Serialize};

use super::listed_name_problem;
use super::sheet::{MAX_ENTRIES, MAX_MODIFIER};
use crate::error::{Error, Result};
use crate::Problem;

/// A free skill on the game's list, with the level a sheet starts it at.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListedFreeSkill {
    pub name: String,
    pub starting_level: i32,
}

/// Every broken rule of a list, each at `path` + `[i]` + its field.
pub fn problems(list: &[ListedFreeSkill], path: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    if list.len() > MAX_ENTRIES {
        out.push(Problem { path: path.to_owned(), message: format!("at most {MAX_ENTRIES} free skills") });
    }
    let mut seen = std::collections::HashSet::new();
    for (i, skill) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        if let Some(p) = listed_name_problem(&skill.name, &mut seen) {
            out.push(Problem { path: format!("{at}.name"), message: p });
        }
        if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&skill.starting_level) {
            out.push(Problem {
                path: format!("{at}.starting_level"),
                message: format!("{} is out of range: -{MAX_MODIFIER} to {MAX_MODIFIER}", skill.starting_level),
            });
        }
    }
    out
}

/// A list as the Gamemaster typed it: names trimmed, in the order given, refused (naming the
/// first problem's field) when it breaks a rule.
pub fn clean(rows: &[ListedFreeSkill]) -> Result<Vec<ListedFreeSkill>> {
    let list: Vec<ListedFreeSkill> =
        rows.iter().map(|r| ListedFreeSkill { name: r.name.trim().to_owned(), ..r.clone() }).collect();
    match problems(&list, "skills").into_iter().next() {
        Some(p) => Err(Error::invalid(p.path, p.message)),
        None => Ok(list),
    }
}

/// The free skill a sheet takes when it names `name` at `starting_level`: with a list, the
/// listed skill (its own spelling) at the level the list gives, and a name off the list or
/// another level is refused; with no list, what was named, unchanged.
pub fn take(list: &[ListedFreeSkill], name: &str, starting_level: i32) -> Result<ListedFreeSkill> {
    if list.is_empty() {
        return Ok(ListedFreeSkill { name: name.to_owned(), starting_level });
    }
    let wanted = name.trim();
    let listed = list
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(wanted))
        .ok_or_else(|| Error::invalid("name", format!("{wanted:?} is not on the game's list of free skills")))?;
    if listed.starting_level != starting_level {
        return Err(Error::invalid(
            "starting_level",
            format!("the game's list starts {:?} at {}, not {starting_level}", listed.name, listed.starting_level),
        ));
    }
    Ok(listed.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, starting_level: i32) -> ListedFreeSkill {
        ListedFreeSkill { name: name.into(), starting_level }
    }

    #[test]
    fn a_sheet_takes_a_listed_free_skill_at_the_level_the_list_gives() {
        let list = [skill("Swimming", 3), skill("First aid", -1)];
        assert_eq!(take(&list, " swimming ", 3).unwrap(), skill("Swimming", 3), "the list's own spelling");
        assert_eq!(take(&list, "First aid", -1).unwrap(), skill("First aid", -1));
        let off = take(&list, "Juggling", 2).unwrap_err().to_string();
        assert_eq!(off, "name: \"Juggling\" is not on the game's list of free skills");
        let level = take(&list, "Swimming", 5).unwrap_err().to_string();
        assert_eq!(level, "starting_level: the game's list starts \"Swimming\" at 3, not 5");
        // With no list, whatever the sheet names.
        assert_eq!(take(&[], "Juggling", 2).unwrap(), skill("Juggling", 2));
    }

    #[test]
    fn a_list_is_refused_for_a_name_twice_a_blank_name_or_a_level_out_of_range() {
        assert_eq!(clean(&[skill(" Climbing ", 2)]).unwrap(), [skill("Climbing", 2)]);
        let twice = clean(&[skill("Climbing", 2), skill("climbing", 1)]).unwrap_err().to_string();
        assert_eq!(twice, "skills[1].name: \"climbing\" is on the list twice");
        assert!(clean(&[skill("  ", 2)]).unwrap_err().to_string().starts_with("skills[0].name: "));
        let far = clean(&[skill("Climbing", 100)]).unwrap_err().to_string();
        assert_eq!(far, "skills[0].starting_level: 100 is out of range: -99 to 99");
        let long: Vec<_> = (0..=MAX_ENTRIES).map(|i| skill(&format!("Skill {i}"), 0)).collect();
        assert!(clean(&long).unwrap_err().to_string().starts_with("skills: at most"));
        // A file's list is checked the same way, field by field.
        let found = problems(&[skill("Climbing ", 2)], "table.free_skill_list");
        assert_eq!(found[0].path, "table.free_skill_list[0].name");
    }
}
