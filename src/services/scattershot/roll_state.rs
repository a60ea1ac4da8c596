//! A Scattershot roll on the table as it is kept and as it is shown: what the roll's moves
//! (`roll.rs`) and the table's view (`mod.rs`) both use.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::rules::scattershot::made_it_by::{ExperienceDie, MibRoll, Party, ResourceResult, Room};
use crate::rules::scattershot::sheet::{Lasts, Resource};

/// The character a roll's result is aimed at, and which of its resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    pub character: Uuid,
    pub resource: Resource,
}

/// A roll on the table with who is who.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollState {
    pub roll: MibRoll,
    /// The acting character (None: someone without a sheet here).
    #[serde(default)]
    pub actor: Option<Uuid>,
    /// Each resistor's character, in the roll's order (None: someone without a sheet here).
    /// Older rolls kept one, or none, as `resistor`; a resistor past the list has no sheet.
    #[serde(default, alias = "resistor", deserialize_with = "crate::rules::scattershot::one_or_many")]
    pub resistors: Vec<Option<Uuid>>,
    /// Where the result goes.
    #[serde(default)]
    pub target: Option<Target>,
    /// Once concluded: MIB × Factor off the target's resource.
    #[serde(default)]
    pub result: Option<ResourceResult>,
    /// Written by older versions when the result waited for the lull; results now land
    /// when the roll concludes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub result_waits: bool,
    /// In a contest, where a negative RMIB goes (a resource on the actor's side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resistor_target: Option<Target>,
    /// Once concluded: |RMIB| × Factor off the resistor's target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resistor_result: Option<ResourceResult>,
    /// The result's Bonus was recorded on the actor as a residual modifier.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bonus_recorded: bool,
}

impl RollState {
    /// The character of resistor `i`, if it has a sheet here.
    pub fn resistor(&self, i: usize) -> Option<Uuid> {
        self.resistors.get(i).copied().flatten()
    }

    /// Who a Telling Blow's complications (or a Catastrophic Failure's benefits) go to: the
    /// resistor whose MIB counted (the first while none is rolled), else the target.
    pub fn subject(&self) -> Option<Uuid> {
        if self.roll.resistors.is_empty() {
            return self.target.map(|t| t.character);
        }
        self.resistor(self.roll.best_resistor().unwrap_or(0)).or(self.target.map(|t| t.character))
    }
}

/// One resistor of a contest on the table as it is shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResistorView {
    /// Its name in moves: "resistor", "resistor_2"…
    pub party: Party,
    pub name: Option<String>,
    /// Its basic MIB once its 2d10 are rolled (with its experience dice).
    pub basic: Option<i32>,
    /// In the Application Phase: its own number and what it may still buy or spend.
    pub room: Option<Room>,
    /// Its MIB is the one set against the actor's (the best of the resistors').
    pub counts: bool,
}

/// The roll on the table with what it comes to so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RollView {
    #[serde(flatten)]
    pub state: RollState,
    pub actor_name: Option<String>,
    pub target_name: Option<String>,
    /// The basic MIB (RMIB) once every 2d10 is rolled, and the number after adjustments.
    pub basic: Option<i32>,
    pub mib: Option<i32>,
    /// The experience die waiting for its roller to add or subtract it.
    pub waiting_sign: Option<(Party, ExperienceDie)>,
    /// Each party's basic MIB once its 2d10 are rolled (with its experience dice).
    pub actor_basic: Option<i32>,
    /// In the Application Phase: the actor's own number and what it may still buy or spend.
    pub actor_room: Option<Room>,
    /// Each resistor, in order.
    pub resistor_views: Vec<ResistorView>,
    pub resistor_target_name: Option<String>,
    /// The residual modifier a concluded success may leave (the UE chart's Bonus at its MIB).
    pub residual_bonus: Option<u32>,
    /// Who a Telling Blow's complications (or a Catastrophic Failure's benefits) go to: the
    /// resistor, else the target.
    pub subject_name: Option<String>,
}

pub(in crate::services) fn roll_view(state: &RollState, name: &dyn Fn(Uuid) -> String) -> RollView {
    let roll = &state.roll;
    let waiting_sign = roll.waiting_die().map(|(party, die)| (party, *die));
    let best = roll.best_resistor();
    let resistor_views = (0..roll.resistors.len())
        .map(|i| ResistorView {
            party: Party::Resistor(i),
            name: state.resistor(i).map(name),
            basic: roll.resistors[i].basic_mib(),
            room: roll.room(Party::Resistor(i)),
            counts: best == Some(i),
        })
        .collect();
    RollView {
        actor_name: state.actor.map(name),
        target_name: state.target.map(|t| name(t.character)),
        basic: roll.basic(),
        mib: roll.mib(),
        waiting_sign,
        actor_basic: roll.actor.basic_mib(),
        actor_room: roll.room(Party::Actor),
        resistor_views,
        resistor_target_name: state.resistor_target.map(|t| name(t.character)),
        residual_bonus: roll.residual_bonus(),
        subject_name: state.subject().map(name),
        state: state.clone(),
    }
}

/// How long a residual modifier lasts, in words.
pub(in crate::services) fn lasts_words(lasts: Lasts) -> &'static str {
    match lasts {
        Lasts::UntilRemoved => "until removed",
        Lasts::Session => "until the end of the session",
        Lasts::MechanicalPlay => "until mechanical play ends",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scattershot::made_it_by::{Action, RollSetup};
    use crate::rules::scattershot::Settings;

    /// A roll kept in the log before contests could have several resistors named its one
    /// resistor's character `resistor` (and the roll's part the same way): undo and the table
    /// still read it, as a contest of one.
    #[test]
    fn a_roll_kept_with_one_resistor_reads_back_as_a_contest_of_one() {
        let action = |rating| Action { description: String::new(), rating, modifier: 0, rolled: None };
        let setup =
            RollSetup { actor: action(12), resistors: vec![action(10)], facets: Default::default(), chart: Vec::new() };
        let (roll, _) = MibRoll::start(&setup, &Settings::default()).unwrap();
        let bo = Uuid::from_u128(2);
        let mut old = serde_json::json!({ "roll": serde_json::to_value(&roll).unwrap(), "resistor": bo.to_string() });
        let part = old["roll"].as_object_mut().unwrap().remove("resistors").unwrap();
        old["roll"]["resistor"] = part[0].clone();
        let state: RollState = serde_json::from_value(old).unwrap();
        assert_eq!((state.roll.resistors.len(), state.resistor(0), state.resistor(1)), (1, Some(bo), None));
        assert_eq!(state.subject(), Some(bo), "the one resistor is the subject");
        // One with no resistor's character (someone elsewhere), or none at all.
        let none: RollState = serde_json::from_value(
            serde_json::json!({ "roll": serde_json::to_value(&roll).unwrap(), "resistor": null }),
        )
        .unwrap();
        assert_eq!((none.resistors.len(), none.resistor(0), none.subject()), (0, None, None));
    }
}
