//! Scattershot's Mechanix (RULES.md §4): ratings bought with development points, the
//! Made-It-By roll and its exact odds, Mechanical Play's rounds and turns, and the
//! experience dice a table hands out.
//!
//! - [`sheet`]: statistics, free skills, skills, special abilities, advantages and
//!   disadvantages, resources, the experience dice pool; buying with development points.
//! - [`made_it_by`]: a MIB (or contested RMIB) roll from the Opportunity Phase to the end of
//!   the Application Phase, and its result on a resource.
//! - [`odds`]: the exact MIB distribution and the chances of success, a Telling Blow and a
//!   Catastrophic Failure (`sheetkeeper odds scattershot`).
//! - [`choices`]: the bidding war's choices: each experience die as + and as −, into either
//!   MIB, with its exact chances and the best marked for each side (`--choices`).
//! - [`mechanical_play`]: the round and turn tracker, free and reactive actions, combat
//!   advantages, and the lull that ends it.
//! - [`rewards`]: experience dice after a session, on the spot, and by vote.
//! - [`table`]: what a game keeps beside the sheets (the Gamemaster's stock, mechanical
//!   play in progress, the UE chart) and the table settings the rules read from it.
//! - [`ue_chart`]: the UE chart the group fills in (Factor, Points, Bonus, Magnitude).
//!
//! Every move takes its state by reference and returns the new state and what happened; an
//! illegal move is an [`Error::Invalid`] naming the field and changes nothing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::{System, TableSettings};
use crate::rules::table_settings::{self, SettingSpec};

pub mod choices;
pub mod free_skills;
pub mod made_it_by;
pub mod mechanical_play;
pub mod odds;
pub mod rewards;
pub mod sheet;
pub mod skill_listings;
pub mod table;
pub mod ue_chart;

/// Experience dice held, by stock: a player's stock (under the player's id), the pool of a
/// character that has no player yet (under its own id), or the Gamemaster's common stock the
/// table keeps under the game's id.
pub type Pools = BTreeMap<Uuid, u32>;

/// Whose stock each character's experience dice are, by character: its player's id. A
/// character left out stands as its own player (its stock is under its own id).
///
/// Ruling (audit D-SC4; 004:110 "Players receive Rewards of Experience Dice… Players out of
/// their own stock"): experience dice belong to players. The game's table lists its players
/// and each sheet may name the player who plays it; a character with no player (an older
/// game or file, or one nobody has been named for) stands as its own player, its stock on its
/// own sheet, so old games and files read unchanged.
pub type Stocks = BTreeMap<Uuid, Uuid>;

/// The stock that holds `character`'s experience dice ([`Stocks`]).
pub fn stock_of(stocks: &Stocks, character: Uuid) -> Uuid {
    stocks.get(&character).copied().unwrap_or(character)
}

/// Takes `dice` out of `owner`'s pool: refused naming `field`, in the words `short` gives
/// for what it holds, when it holds fewer. Returns what it held before.
pub(crate) fn take_dice(
    pools: &mut Pools,
    owner: Uuid,
    dice: u32,
    field: &str,
    short: impl FnOnce(u32) -> String,
) -> Result<u32> {
    let held = pools.get(&owner).copied().unwrap_or(0);
    if held < dice {
        return Err(Error::invalid(field, short(held)));
    }
    pools.insert(owner, held - dice);
    Ok(held)
}

/// Reads a list written as a list, as one item (older files, when there could be only
/// one), or as null (none).
pub(crate) fn one_or_many<'de, D, T>(deserializer: D) -> std::result::Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany<T> {
        Many(Vec<T>),
        One(T),
    }
    Ok(match Option::<OneOrMany<T>>::deserialize(deserializer)? {
        None => Vec::new(),
        Some(OneOrMany::Many(many)) => many,
        Some(OneOrMany::One(one)) => vec![one],
    })
}

/// The longest name (of a skill, an ability, an advantage) the sheet keeps, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// The numbers a Scattershot table plays with (RULES.md §4.1, *table settings*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The most complications bought on one roll, free actions per cycle, combat advantages
    /// held, and actions in a flurry.
    pub epic_index: u32,
    /// A MIB at or above it is a Telling Blow, one below minus it a Catastrophic Failure.
    pub critical_juncture: u32,
    /// The sides of an experience die.
    pub experience_die: u8,
    /// The experience dice a development point costs after creation.
    pub experience_dice_per_point: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        let default = |name| spec(name).default;
        Settings {
            epic_index: default("epic_index") as u32,
            critical_juncture: default("critical_juncture") as u32,
            experience_die: default("experience_die") as u8,
            experience_dice_per_point: default("experience_dice_per_point") as u32,
        }
    }
}

fn spec(name: &str) -> &'static SettingSpec {
    table_settings::specs(System::Scattershot)
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("Scattershot has the table setting {name}"))
}

/// Checks `value` against the range of the Scattershot setting `name`, naming it.
pub(crate) fn check_setting(name: &str, value: i64) -> Result<()> {
    let spec = spec(name);
    if !(spec.min..=spec.max).contains(&value) {
        return Err(Error::invalid(
            name,
            format!("{value} is out of range: {} must be {} to {}", spec.label, spec.min, spec.max),
        ));
    }
    Ok(())
}

impl Settings {
    /// The settings a game keeps, refused (naming the first setting at fault) when one is
    /// missing, unknown or out of range.
    pub fn from_table(settings: &TableSettings) -> Result<Settings> {
        if let Some(problem) =
            table_settings::problems(System::Scattershot, settings, "table_settings").into_iter().next()
        {
            return Err(Error::invalid(problem.path, problem.message));
        }
        let get = |name: &str| settings[name];
        Ok(Settings {
            epic_index: get("epic_index") as u32,
            critical_juncture: get("critical_juncture") as u32,
            experience_die: get("experience_die") as u8,
            experience_dice_per_point: get("experience_dice_per_point") as u32,
        })
    }

    /// Refuses a value outside its setting's range, naming the setting.
    pub fn check(&self) -> Result<()> {
        check_setting("epic_index", i64::from(self.epic_index))?;
        check_setting("critical_juncture", i64::from(self.critical_juncture))?;
        check_setting("experience_die", i64::from(self.experience_die))?;
        check_setting("experience_dice_per_point", i64::from(self.experience_dice_per_point))
    }
}

/// A name a person typed: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
pub(crate) fn clean_name(field: &str, raw: &str) -> Result<String> {
    let text = raw.trim();
    if let Some(problem) = name_problem(text) {
        return Err(Error::invalid(field, problem));
    }
    Ok(text.to_owned())
}

/// What is wrong with a stored name, if anything: the app's name rules
/// ([`crate::model::text_problem`]) with this system's longer limit.
pub(crate) fn name_problem(text: &str) -> Option<String> {
    crate::model::text_problem(text, MAX_NAME_CHARS)
}

/// What is wrong with the name of an entry of one of the game's lists (its free skills, its
/// skill listings), if anything: a stored name's problem, spaces at its ends, or a name
/// already in `seen` (the list's names before it, whatever their case), where it is added.
pub(crate) fn listed_name_problem(name: &str, seen: &mut std::collections::HashSet<String>) -> Option<String> {
    if let Some(p) = name_problem(name) {
        Some(p)
    } else if name != name.trim() {
        Some("has spaces at its ends".into())
    } else if !seen.insert(name.to_lowercase()) {
        Some(format!("{name:?} is on the list twice"))
    } else {
        None
    }
}

/// The longest free text (a description, notes, a situation), in characters.
pub const MAX_TEXT_CHARS: usize = 2_000;

/// What is wrong with a stored free text, if anything ([`crate::model::free_text_problem`]):
/// counted as stored, trimmed.
pub(crate) fn text_problem(text: &str) -> Option<String> {
    crate::model::free_text_problem(text.trim(), MAX_TEXT_CHARS)
}

/// Free text (a description, notes): may be empty, at most 2 000 characters.
pub(crate) fn clean_text(field: &str, raw: &str) -> Result<String> {
    let text = raw.trim();
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(Error::invalid(field, format!("must be at most {MAX_TEXT_CHARS} characters")));
    }
    if let Some(p) = crate::model::block_chars_problem(text) {
        return Err(Error::invalid(field, p));
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_default_to_the_table_defaults_and_read_a_game_s_settings() {
        let settings = Settings::default();
        assert_eq!(
            settings,
            Settings { epic_index: 3, critical_juncture: 7, experience_die: 6, experience_dice_per_point: 1 }
        );
        let mut table = table_settings::defaults(System::Scattershot);
        table.insert("epic_index".into(), 5);
        assert_eq!(Settings::from_table(&table).unwrap().epic_index, 5);
        table.insert("critical_juncture".into(), 0);
        let err = Settings::from_table(&table).unwrap_err().to_string();
        assert!(err.starts_with("table_settings.critical_juncture: 0 is out of range"), "{err}");
        table.remove("critical_juncture");
        assert_eq!(
            Settings::from_table(&table).unwrap_err().to_string(),
            "table_settings.critical_juncture: is missing"
        );
        let bad = Settings { experience_die: 1, ..settings };
        assert!(bad.check().unwrap_err().to_string().starts_with("experience_die: 1 is out of range"));
    }

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(clean_name("name", "  Lockpicking ").unwrap(), "Lockpicking");
        assert_eq!(clean_name("name", " ").unwrap_err().to_string(), "name: must not be empty");
        assert!(clean_name("name", "a\tb").is_err());
        assert!(clean_name("name", &"x".repeat(MAX_NAME_CHARS + 1)).is_err());
        assert_eq!(clean_text("notes", " two\nlines ").unwrap(), "two\nlines");
    }
}
