//! The numbers a table may agree on for its game (RULES.md marks them *table setting*),
//! with their defaults and the range each may take.

use serde::Serialize;

use crate::model::{System, TableSettings};
use crate::Problem;

/// One setting a game of some system keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SettingSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
}

const NSU: &[SettingSpec] = &[SettingSpec {
    name: "negative_collateral_adds_tick",
    label: "A negative 'address collateral' result adds a tick (1 = yes, 0 = no)",
    default: 1,
    min: 0,
    max: 1,
}];

const PENNY_ANTE: &[SettingSpec] = &[
    SettingSpec { name: "starting_pennies", label: "Starting pennies", default: 25, min: 25, max: 1_000_000 },
    SettingSpec {
        name: "antagonist_cap",
        label: "Most pennies the House may give one antagonist (0 = no cap)",
        default: 0,
        min: 0,
        max: 1_000_000,
    },
];

const MEZZO: &[SettingSpec] = &[];

const SCATTERSHOT: &[SettingSpec] = &[
    SettingSpec { name: "epic_index", label: "Epic Index", default: 3, min: 1, max: 20 },
    SettingSpec { name: "critical_juncture", label: "Critical Juncture", default: 7, min: 1, max: 30 },
    SettingSpec { name: "experience_die", label: "Experience die (sides)", default: 6, min: 2, max: 20 },
    SettingSpec {
        name: "experience_dice_per_point",
        label: "Experience dice per development point",
        default: 1,
        min: 1,
        max: 20,
    },
    SettingSpec {
        name: "default_factor",
        label: "Factor of an action (the default; editable per roll)",
        default: 1,
        min: 0,
        max: 100,
    },
    SettingSpec {
        name: "default_points",
        label: "Points of an action (the default; editable per roll)",
        default: 1,
        min: 0,
        max: 100,
    },
    SettingSpec {
        name: "default_bonus",
        label: "Bonus of an action (the default; editable per roll)",
        default: 1,
        min: 0,
        max: 100,
    },
    SettingSpec {
        name: "creation_limit",
        label: "Development points a new character may spend in creation (0 = no limit)",
        default: 0,
        min: 0,
        max: 100_000,
    },
    SettingSpec {
        name: "low_resource_percent",
        label: "A resource at or below this % of its maximum gives a penalty (0 = no penalty)",
        default: 0,
        min: 0,
        max: 100,
    },
    SettingSpec {
        name: "low_resource_penalty",
        label: "Penalty to every roll for each resource that low",
        default: 1,
        min: 0,
        max: 20,
    },
];

/// Settings a system gained after files of format 1 were first written (and databases
/// made): a game without one plays with its default, so it is never reported missing.
const ADDED_LATER: &[(System, &str)] = &[
    (System::Scattershot, "default_factor"),
    (System::Scattershot, "default_points"),
    (System::Scattershot, "default_bonus"),
    (System::Scattershot, "creation_limit"),
    (System::Scattershot, "low_resource_percent"),
    (System::Scattershot, "low_resource_penalty"),
];

/// The settings a game of `system` keeps.
pub fn specs(system: System) -> &'static [SettingSpec] {
    match system {
        System::Nsu => NSU,
        System::PennyAnte => PENNY_ANTE,
        System::Mezzo => MEZZO,
        System::Scattershot => SCATTERSHOT,
    }
}

/// A new game's settings: every default.
pub fn defaults(system: System) -> TableSettings {
    specs(system).iter().map(|s| (s.name.to_owned(), s.default)).collect()
}

/// Everything wrong with a set of settings for `system`, each at `path.name`. A missing
/// setting is a problem too, so a game always holds every setting its system needs.
pub fn problems(system: System, settings: &TableSettings, path: &str) -> Vec<Problem> {
    let specs = specs(system);
    let mut found = Vec::new();
    for (name, &value) in settings {
        let at = format!("{path}.{name}");
        match specs.iter().find(|s| s.name == name) {
            None => {
                found.push(Problem { path: at, message: format!("{} has no table setting {name:?}", system.label()) })
            }
            Some(spec) if !(spec.min..=spec.max).contains(&value) => found.push(Problem {
                path: at,
                message: format!("{value} is out of range: {} must be {} to {}", spec.label, spec.min, spec.max),
            }),
            Some(_) => {}
        }
    }
    let optional = |name: &str| ADDED_LATER.iter().any(|&(s, n)| s == system && n == name);
    for spec in specs.iter().filter(|s| !settings.contains_key(s.name) && !optional(s.name)) {
        found.push(Problem { path: format!("{path}.{}", spec.name), message: "is missing".into() });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_for_every_system() {
        for system in System::ALL {
            assert_eq!(problems(system, &defaults(system), "$"), vec![]);
        }
    }

    #[test]
    fn penny_ante_starting_pennies_are_at_least_25() {
        let mut settings = defaults(System::PennyAnte);
        settings.insert("starting_pennies".into(), 24);
        let found = problems(System::PennyAnte, &settings, "$.s");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, "$.s.starting_pennies");
        assert!(found[0].message.contains("25 to"), "{}", found[0].message);
    }

    #[test]
    fn settings_added_later_may_be_absent() {
        let mut settings = defaults(System::Scattershot);
        settings.remove("default_factor");
        settings.remove("creation_limit");
        assert_eq!(problems(System::Scattershot, &settings, "$"), vec![]);
        settings.remove("epic_index");
        assert_eq!(problems(System::Scattershot, &settings, "$")[0].path, "$.epic_index");
    }

    #[test]
    fn unknown_and_missing_settings_are_named() {
        let mut settings = TableSettings::new();
        settings.insert("dragons".into(), 1);
        let paths: Vec<_> = problems(System::Scattershot, &settings, "$").into_iter().map(|p| p.path).collect();
        assert!(paths.contains(&"$.dragons".to_string()));
        assert!(paths.contains(&"$.epic_index".to_string()));
    }
}
