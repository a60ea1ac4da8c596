//! The game's skill listings (RULES.md §4.2; audit D-SC5; seed: "Each Skill listing gives …
//! information on 'how to Default to the Skill'", "The Defaults for abilities 'not paid for'
//! have specified Opportunity restrictions in their listings"). The seeds hold no listings,
//! so the group writes its own: each a name, a difficulty and, optionally, how to default to
//! it. A sheet may buy a skill from the list (its difficulty given), and a character may roll
//! a listed skill it has not bought at the listing's default.
//!
//! Rulings where the source is silent:
//! - A default is read from a statistic (its rating plus the default's modifier: "Agility
//!   −3") or is a fixed rating (plus the modifier, usually 0). Those two shapes are all a
//!   default may be.
//! - A default always states its Opportunity restriction (the seed: defaults "have specified
//!   Opportunity restrictions"); it is shown before the roll and written in the roll's log
//!   line. Whether the fiction allows the roll is the table's call.
//! - A listing without a default cannot be rolled by a character who has not bought it.
//! - A skill is bought when the sheet holds a skill of the listing's name (whatever its
//!   case): then it is rolled at its own rating, never at its default.
//! - A skill bought under a listed name takes the listing's difficulty; a name off the list
//!   is bought as typed.
//! - An advantage or disadvantage that removes defaults ("Can't Cook" eliminates food
//!   preparation defaults) is not modelled: the table leaves such a roll out.
//! - Names are unique on the list whatever their case; at most [`MAX_ENTRIES`] listings, a
//!   modifier or fixed rating −[`MAX_MODIFIER`] to [`MAX_MODIFIER`], a restriction at most
//!   [`MAX_RESTRICTION_CHARS`] characters. Changing the list changes no sheet.

use serde::{Deserialize, Serialize};

use super::listed_name_problem;
use super::sheet::{Difficulty, Sheet, Statistic, MAX_ENTRIES, MAX_MODIFIER};
use crate::error::{Error, Result};
use crate::Problem;

/// The longest Opportunity restriction, in characters.
pub const MAX_RESTRICTION_CHARS: usize = 300;

/// A skill on the game's list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillListing {
    pub name: String,
    pub difficulty: Difficulty,
    /// How a character who has not bought it may still roll it; None: it may not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<SkillDefault>,
}

/// How to default to a listed skill.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillDefault {
    /// What the default rating starts from.
    pub from: DefaultFrom,
    /// Added to it.
    #[serde(default)]
    pub modifier: i32,
    /// The Opportunity restriction that comes with defaulting ("only with a rope to hand").
    pub restriction: String,
}

/// What a default rating starts from: a statistic's rating, or a fixed rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DefaultFrom {
    Statistic(Statistic),
    Rating(i32),
}

impl SkillDefault {
    /// The rating a character rolls at by this default.
    pub fn rating(&self, sheet: &Sheet) -> i32 {
        let base = match self.from {
            DefaultFrom::Statistic(statistic) => sheet.statistic(statistic),
            DefaultFrom::Rating(rating) => rating,
        };
        base + self.modifier
    }

    /// "Agility −3", "6".
    pub fn words(&self) -> String {
        match (self.from, self.modifier) {
            (DefaultFrom::Statistic(s), 0) => s.word().to_owned(),
            (DefaultFrom::Statistic(s), m) => format!("{} {}", s.word(), signed(m)),
            (DefaultFrom::Rating(r), 0) => r.to_string(),
            (DefaultFrom::Rating(r), m) => format!("{r} {}", signed(m)),
        }
    }
}

fn signed(n: i32) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        format!("+{n}")
    }
}

/// A listed skill rolled by default: its name, the rating and the restriction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defaulted {
    pub skill: String,
    pub rating: i32,
    pub restriction: String,
}

/// Whether `sheet` has bought the skill `name` (whatever its case).
pub fn bought(sheet: &Sheet, name: &str) -> bool {
    sheet.skills.iter().any(|k| k.name.trim().eq_ignore_ascii_case(name.trim()))
}

/// Listing `index` rolled by default by a character with `sheet`; refused (naming `field`)
/// when there is no such listing, when the listing has no default, or when the skill is
/// bought (then it is rolled at its own rating).
pub fn default_rating(listings: &[SkillListing], sheet: &Sheet, field: &str, index: usize) -> Result<Defaulted> {
    let listing = listings
        .get(index)
        .ok_or_else(|| Error::invalid(field, format!("there is no skill listing {index} in this game")))?;
    if bought(sheet, &listing.name) {
        return Err(Error::invalid(
            field,
            format!("{:?} is bought on this sheet: roll it at its own rating, not its default", listing.name),
        ));
    }
    let default = listing.default.as_ref().ok_or_else(|| {
        Error::invalid(
            field,
            format!("{:?} has no default in its listing: only a character who bought it rolls it", listing.name),
        )
    })?;
    Ok(Defaulted {
        skill: listing.name.clone(),
        rating: default.rating(sheet),
        restriction: default.restriction.clone(),
    })
}

/// The difficulty a new skill named `name` is bought at: a listed skill's own (its listing's
/// spelling), refused when another is asked for; a name off the list, as asked.
pub fn take(listings: &[SkillListing], name: &str, difficulty: Difficulty) -> Result<(String, Difficulty)> {
    let wanted = name.trim();
    match listings.iter().find(|l| l.name.eq_ignore_ascii_case(wanted)) {
        None => Ok((name.to_owned(), difficulty)),
        Some(l) if l.difficulty == difficulty => Ok((l.name.clone(), l.difficulty)),
        Some(l) => Err(Error::invalid(
            "difficulty",
            format!("the game's listing makes {:?} {}, not {}", l.name, l.difficulty.word(), difficulty.word()),
        )),
    }
}

/// Every broken rule of a list, each at `path` + `[i]` + its field.
pub fn problems(list: &[SkillListing], path: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    if list.len() > MAX_ENTRIES {
        out.push(Problem { path: path.to_owned(), message: format!("at most {MAX_ENTRIES} skill listings") });
    }
    let in_range = |n: i32| (-MAX_MODIFIER..=MAX_MODIFIER).contains(&n);
    let range = |n: i32| format!("{n} is out of range: -{MAX_MODIFIER} to {MAX_MODIFIER}");
    let mut seen = std::collections::HashSet::new();
    for (i, listing) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        if let Some(p) = listed_name_problem(&listing.name, &mut seen) {
            out.push(Problem { path: format!("{at}.name"), message: p });
        }
        let Some(default) = &listing.default else { continue };
        if let DefaultFrom::Rating(r) = default.from {
            if !in_range(r) {
                out.push(Problem { path: format!("{at}.default.from.rating"), message: range(r) });
            }
        }
        if !in_range(default.modifier) {
            out.push(Problem { path: format!("{at}.default.modifier"), message: range(default.modifier) });
        }
        if let Some(p) = crate::model::text_problem(&default.restriction, MAX_RESTRICTION_CHARS) {
            let p = if default.restriction.trim().is_empty() {
                "a default states its Opportunity restriction".to_owned()
            } else {
                p
            };
            out.push(Problem { path: format!("{at}.default.restriction"), message: p });
        } else if default.restriction != default.restriction.trim() {
            out.push(Problem { path: format!("{at}.default.restriction"), message: "has spaces at its ends".into() });
        }
    }
    out
}

/// A list as the Gamemaster wrote it: names and restrictions trimmed, in the order given,
/// refused (naming the first problem's field) when it breaks a rule.
pub fn clean(rows: &[SkillListing]) -> Result<Vec<SkillListing>> {
    let list: Vec<SkillListing> = rows
        .iter()
        .map(|r| SkillListing {
            name: r.name.trim().to_owned(),
            default: r
                .default
                .as_ref()
                .map(|d| SkillDefault { restriction: d.restriction.trim().to_owned(), ..d.clone() }),
            ..r.clone()
        })
        .collect();
    match problems(&list, "listings").into_iter().next() {
        Some(p) => Err(Error::invalid(p.path, p.message)),
        None => Ok(list),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scattershot::sheet::Skill;

    fn climbing() -> SkillListing {
        SkillListing {
            name: "Climbing".into(),
            difficulty: Difficulty::Difficult,
            default: Some(SkillDefault {
                from: DefaultFrom::Statistic(Statistic::Agility),
                modifier: -3,
                restriction: "Only with a rope to hand".into(),
            }),
        }
    }

    fn surgery() -> SkillListing {
        SkillListing { name: "Surgery".into(), difficulty: Difficulty::Renowned, default: None }
    }

    fn err<T: std::fmt::Debug>(r: Result<T>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn an_unbought_listed_skill_is_rolled_at_its_default_with_its_restriction() {
        let mut sheet = Sheet::new(None);
        sheet.statistics.agility = 2; // Agility 12
        let listings = [surgery(), climbing()];
        let d = default_rating(&listings, &sheet, "rating", 1).unwrap();
        assert_eq!(
            d,
            Defaulted { skill: "Climbing".into(), rating: 9, restriction: "Only with a rope to hand".into() }
        );
        // A fixed rating, with its modifier.
        let fixed = SkillListing {
            default: Some(SkillDefault {
                from: DefaultFrom::Rating(6),
                modifier: 1,
                restriction: "Never in a fight".into(),
            }),
            ..surgery()
        };
        assert_eq!(default_rating(std::slice::from_ref(&fixed), &sheet, "rating", 0).unwrap().rating, 7);
        assert_eq!(fixed.default.unwrap().words(), "6 +1");
        assert_eq!(climbing().default.unwrap().words(), "Agility −3");
    }

    #[test]
    fn a_listing_without_a_default_or_a_missing_one_cannot_be_rolled_unbought() {
        let sheet = Sheet::new(None);
        let listings = [surgery(), climbing()];
        assert_eq!(
            err(default_rating(&listings, &sheet, "actor.rating", 0)),
            "actor.rating: \"Surgery\" has no default in its listing: only a character who bought it rolls it"
        );
        assert_eq!(
            err(default_rating(&listings, &sheet, "rating", 2)),
            "rating: there is no skill listing 2 in this game"
        );
    }

    #[test]
    fn a_bought_skill_is_never_rolled_at_its_default() {
        let mut sheet = Sheet::new(None);
        sheet.skills.push(Skill { name: "climbing".into(), difficulty: Difficulty::Difficult, points: 1 });
        assert!(bought(&sheet, "Climbing"));
        assert_eq!(
            err(default_rating(&[climbing()], &sheet, "rating", 0)),
            "rating: \"Climbing\" is bought on this sheet: roll it at its own rating, not its default"
        );
    }

    #[test]
    fn a_skill_bought_under_a_listed_name_takes_the_listing_s_difficulty() {
        let listings = [climbing()];
        assert_eq!(
            take(&listings, " climbing ", Difficulty::Difficult).unwrap(),
            ("Climbing".into(), Difficulty::Difficult)
        );
        assert_eq!(
            err(take(&listings, "Climbing", Difficulty::Easy)),
            "difficulty: the game's listing makes \"Climbing\" Difficult, not Easy"
        );
        assert_eq!(take(&listings, "Juggling", Difficulty::Easy).unwrap(), ("Juggling".into(), Difficulty::Easy));
    }

    #[test]
    fn a_list_is_refused_field_by_field() {
        let trimmed = clean(&[SkillListing { name: " Climbing ".into(), ..climbing() }]).unwrap();
        assert_eq!(trimmed, [climbing()]);
        let twice = err(clean(&[climbing(), SkillListing { name: "CLIMBING".into(), ..surgery() }]));
        assert_eq!(twice, "listings[1].name: \"CLIMBING\" is on the list twice");
        let no_restriction = SkillListing {
            default: Some(SkillDefault { restriction: "  ".into(), ..climbing().default.unwrap() }),
            ..climbing()
        };
        assert_eq!(
            err(clean(&[no_restriction])),
            "listings[0].default.restriction: a default states its Opportunity restriction"
        );
        let far =
            SkillListing { default: Some(SkillDefault { modifier: 100, ..climbing().default.unwrap() }), ..climbing() };
        assert_eq!(err(clean(&[far])), "listings[0].default.modifier: 100 is out of range: -99 to 99");
        let fixed = SkillListing {
            default: Some(SkillDefault { from: DefaultFrom::Rating(-100), ..climbing().default.unwrap() }),
            ..climbing()
        };
        let found = problems(&[surgery(), fixed], "table.skill_listings");
        assert_eq!(found[0].path, "table.skill_listings[1].default.from.rating");
        let long: Vec<_> =
            (0..=MAX_ENTRIES).map(|i| SkillListing { name: format!("Skill {i}"), ..surgery() }).collect();
        assert!(err(clean(&long)).starts_with("listings: at most"));
    }
}
