//! Downtime in No Stone Unturned (RULES.md §1.4): complication rolls, rest at home, the two
//! free actions and the seven downtime actions, with a tracker of who has done what this
//! phase.
//!
//! The state of a phase is a [`Downtime`]: the world, every character's sheet and the
//! [`DowntimePhase`] tracker. Every move takes it by reference and returns the new state
//! with events carrying before/after values; an illegal move returns an error naming the
//! field and changes nothing. Dice come from a [`DiceSource`], in the order each move's
//! doc comment gives.
//!
//! Where the player chooses after seeing a die (Introspection, Train Skills), the move is
//! split in two: the roll spends the action and the character then owes that choice before
//! doing anything else.
//!
//! Rulings where the source is silent:
//! - Every mood that is rolled or raised in downtime goes up; an increase that reaches the
//!   last box stops there (extra ticks are lost) and leaves a pending [`FinalBox`]: the
//!   player marks one sentiment one step and renames the mood, and its level goes to 0
//!   ([`resolve_final_box`]). Until then that mood cannot be raised, lowered or swapped.
//!   Downtime rolls are not action rolls: no overload check, no advantage, and skills used
//!   in them do not mark their boxes (the source marks boxes after action rolls only).
//! - A skill in a project or recovery roll adds its modifier. In a project roll the player
//!   adds or subtracts it, whichever widens the difference, so segments = |aspect − mood| +
//!   modifier.
//! - Introspection applies the reductions first, then the swap, then the replacement, each
//!   on the lines as they are at that point. A swap must leave each level at most the new
//!   die's size (below its last box); a player lowers the level first if needed. Swapping
//!   two moods on the same die size changes nothing and is refused.
//! - Addressing collateral is an open attempt per location: the first action rolls the Mind
//!   die, further actions (anyone's) add a die, and [`settle_collateral`] applies
//!   total − current ticks. Removal stops at 0; a negative result adds one tick (stopping at
//!   8) when the table setting is on.
//! - Train Skills marks exactly as many unmarked boxes as rolled, or every unmarked box of
//!   that aspect when there are fewer.
//! - A teammate helping Seek Recovery does not spend their own action.
//! - Anyone may work on any project clock; a new clock is owned by the character starting it.
//! - Recover Harm takes all of the phase's conversions in one move, since it is used once.
//!   Upgrade Skills with no skill to upgrade is refused rather than used up.
//! - Scout is an action roll (the roll module) whose purpose is a face-down card on the map;
//!   settling that roll spends the action here with the outcome the roll decided
//!   ([`check_scout`], [`scout`]). A card the character already scouted is refused.
//! - The complication roll for the location just left comes first; no character move is
//!   accepted before it. Extra rolls (one per time unit) are on revealed locations.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::rules::dice::DiceSource;
use crate::rules::nsu::sheet::{
    Aspect, Die, Mood, Sentiment, SentimentState, Sheet, HARM_SLOTS, MOOD_LINE_DICE, SENTIMENT_LINES, SKILL_LINES,
};
use crate::rules::nsu::world::{self, check_name, same_name, NewProject, World, WorldEvent};
use crate::Problem;

mod actions;
mod complications;
mod moods;
mod recovery;
#[cfg(test)]
mod tests;

pub use actions::*;
pub use complications::*;
pub use moods::*;
pub use recovery::*;

/// The most extra time units a table may let pass in one phase.
pub const MAX_TIME_UNITS: u8 = 20;
/// Reconnecting a lost sentiment (to at risk) raises a mood by 3.
pub const RECONNECT_LOST_COST: u8 = 3;
/// Clearing an at-risk sentiment raises a mood by 2.
pub const RECONNECT_AT_RISK_COST: u8 = 2;
/// Forging a new sentiment in place of a lost one raises a mood by 4.
pub const FORGE_COST: u8 = 4;

// ---------------------------------------------------------------------------------------
// State

/// One downtime phase: the world, the characters' sheets and the tracker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Downtime {
    pub world: World,
    pub sheets: BTreeMap<Uuid, Sheet>,
    pub phase: DowntimePhase,
}

/// Who has done what this phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DowntimePhase {
    pub at_home: bool,
    pub time_units: u8,
    /// The location the characters just left, if any.
    pub just_left: Option<Uuid>,
    /// Whether its complication roll has been made.
    pub just_left_rolled: bool,
    /// Extra complication rolls still due (one per time unit).
    pub extra_complications_left: u8,
    pub characters: BTreeMap<Uuid, CharacterPhase>,
    /// Open attempts to address collateral, one per location at most.
    pub collateral_attempts: Vec<CollateralAttempt>,
}

/// One character's share of the phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterPhase {
    /// Downtime actions still to take (1 + time units at the start).
    pub actions_left: u8,
    pub recovered_harm: bool,
    pub upgraded_skills: bool,
    /// A choice the player owes after a roll.
    pub awaiting: Option<Awaiting>,
    /// Moods whose last box is filled, waiting for the final-box effect.
    pub final_boxes: Vec<FinalBox>,
}

/// A choice owed after a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Awaiting {
    /// Remove up to `roll` ticks across moods (and maybe swap or replace moods).
    Introspection { roll: u8 },
    /// Mark the `aspect` box on `roll` skills.
    TrainSkills { aspect: Aspect, roll: u8 },
}

/// A mood whose last box was filled: one sentiment is marked one step and the mood takes a
/// new, more intense name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalBox {
    pub line: usize,
    pub mood: String,
}

/// One die added to an attempt to address collateral.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollateralDie {
    pub character: Uuid,
    pub aspect: Aspect,
    pub die: Die,
    pub roll: u8,
}

/// An attempt to address the collateral at one location, open until settled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollateralAttempt {
    pub location: Uuid,
    pub started_by: Uuid,
    /// Players who think the plan is sound (+1 each).
    pub votes_for: u8,
    /// Players who dissent (−1 each).
    pub votes_against: u8,
    pub dice: Vec<CollateralDie>,
}

impl CollateralAttempt {
    /// Dice plus votes.
    pub fn total(&self) -> i32 {
        self.dice.iter().map(|d| i32::from(d.roll)).sum::<i32>() + i32::from(self.votes_for)
            - i32::from(self.votes_against)
    }

    /// The total less the clock's current ticks: > 0 removes that many ticks.
    pub fn result(&self, ticks: u8) -> i32 {
        self.total() - i32::from(ticks)
    }

    /// Adds `character`'s roll of their `aspect` die to the attempt, and says so: the votes,
    /// the total before and after, and the result against the clock's `ticks`.
    fn add_die(&mut self, character: Uuid, aspect: Aspect, die: Die, roll: u8, ticks: u8) -> DowntimeEvent {
        let total_before = self.total();
        self.dice.push(CollateralDie { character, aspect, die, roll });
        DowntimeEvent::CollateralDieRolled {
            character,
            location: self.location,
            aspect,
            roll,
            votes: i32::from(self.votes_for) - i32::from(self.votes_against),
            total_before,
            total_after: self.total(),
            result: self.result(ticks),
        }
    }
}

/// The kinds of downtime action, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    LongTermProject,
    Reconnect,
    Introspection,
    AddressCollateral,
    TrainSkills,
    SeekRecovery,
    Scout,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FreeAction {
    RecoverHarm,
    UpgradeSkills,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoverySource {
    /// Resting at home: one point each.
    Home,
    SeekRecovery,
    RecoverHarm,
}

/// How a scouting action roll ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoutOutcome {
    /// The player won: they see the card.
    Won,
    /// The player did not win but accepted the details to press on: they see the card.
    AcceptedDetails,
    /// The player did not win and went home: they see nothing.
    TurnedBack,
}

/// What changed, with before/after values. World changes are wrapped in `World`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DowntimeEvent {
    PhaseStarted {
        at_home: bool,
        time_units: u8,
        just_left: Option<Uuid>,
        actions_each: u8,
    },
    RecoveryPointsChanged {
        character: Uuid,
        source: RecoverySource,
        before: u32,
        after: u32,
    },
    /// `roll` and `complication` are None when the clock was at 0 (no roll).
    ComplicationRolled {
        location: Uuid,
        extra: bool,
        ticks: u8,
        roll: Option<u8>,
        complication: Option<Complication>,
    },
    ActionSpent {
        character: Uuid,
        action: ActionKind,
        before: u8,
        after: u8,
    },
    FreeActionUsed {
        character: Uuid,
        action: FreeAction,
    },
    HarmRecovered {
        character: Uuid,
        harm: String,
        scar: String,
        cost: u32,
        harm_before: usize,
        harm_after: usize,
    },
    OvercomeCleared {
        character: Uuid,
    },
    SkillUpgraded {
        character: Uuid,
        line: usize,
        skill: String,
        before: u8,
        after: u8,
    },
    MoodNamed {
        character: Uuid,
        line: usize,
        name: String,
    },
    MoodLevelChanged {
        character: Uuid,
        line: usize,
        mood: String,
        before: u8,
        after: u8,
    },
    FinalBoxFilled {
        character: Uuid,
        line: usize,
        mood: String,
    },
    FinalBoxResolved {
        character: Uuid,
        line: usize,
        before: String,
        after: String,
        level_before: u8,
        /// The mood was overloaded and the reset to 0 ended it (decision 2026-11-25). Absent
        /// in phases logged before that decision.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        overload_ended: bool,
    },
    /// A mood's level reached 0 while it was overloaded, which ends the overload (a mood is
    /// never overloaded at level 0).
    OverloadEnded {
        character: Uuid,
        line: usize,
        mood: String,
    },
    ProjectRolled {
        character: Uuid,
        project: Uuid,
        aspect: Aspect,
        aspect_roll: u8,
        mood_line: usize,
        mood_roll: u8,
        skill_modifier: u8,
        segments: u8,
    },
    SentimentChanged {
        character: Uuid,
        line: usize,
        name_before: Option<String>,
        name_after: String,
        before: Option<SentimentState>,
        after: SentimentState,
    },
    HeartRolled {
        character: Uuid,
        roll: u8,
    },
    MoodsSwapped {
        character: Uuid,
        lines: [usize; 2],
        moods: [String; 2],
    },
    MoodReplaced {
        character: Uuid,
        line: usize,
        before: String,
        after: String,
    },
    CollateralDieRolled {
        character: Uuid,
        location: Uuid,
        aspect: Aspect,
        roll: u8,
        votes: i32,
        total_before: i32,
        total_after: i32,
        result: i32,
    },
    CollateralSettled {
        location: Uuid,
        total: i32,
        ticks: u8,
        result: i32,
    },
    TrainingRolled {
        character: Uuid,
        aspect: Aspect,
        roll: u8,
    },
    SkillBoxMarked {
        character: Uuid,
        line: usize,
        skill: String,
        aspect: Aspect,
    },
    RecoveryRolled {
        character: Uuid,
        body_rolls: Vec<u8>,
        skill_modifier: u8,
        helper: Option<Uuid>,
        helper_roll: Option<u8>,
        helper_skill_modifier: u8,
        total: u32,
    },
    Scouted {
        character: Uuid,
        location: Uuid,
        outcome: ScoutOutcome,
    },
    World {
        change: WorldEvent,
    },
}

/// How a phase begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseSetup {
    /// Downtime at home (or anywhere safe): one recovery point each, time units allowed.
    pub at_home: bool,
    /// Extra units of time: one more action each and one more complication roll per unit.
    pub time_units: u8,
}

impl DowntimePhase {
    /// Where in the list the open attempt to address collateral on `location` is.
    fn open_attempt(&self, location: Uuid) -> Result<usize> {
        self.collateral_attempts
            .iter()
            .position(|a| a.location == location)
            .ok_or_else(|| Error::invalid("location", "no attempt to address collateral is open here"))
    }

    /// Every broken invariant of a saved phase against its state, at `path`.
    pub fn problems(&self, state: &Downtime, path: &str) -> Vec<Problem> {
        let mut out = Vec::new();
        let max_actions = 1 + self.time_units;
        if self.time_units > MAX_TIME_UNITS {
            out.push(Problem { path: format!("{path}.time_units"), message: format!("at most {MAX_TIME_UNITS}") });
        }
        if self.extra_complications_left > self.time_units {
            out.push(Problem {
                path: format!("{path}.extra_complications_left"),
                message: format!("more than the {} time units", self.time_units),
            });
        }
        for (id, c) in &self.characters {
            let at = format!("{path}.characters.{id}");
            if !state.sheets.contains_key(id) {
                out.push(Problem { path: at.clone(), message: "has no sheet in this downtime".into() });
            }
            if c.actions_left > max_actions {
                out.push(Problem { path: format!("{at}.actions_left"), message: format!("more than {max_actions}") });
            }
            for (i, f) in c.final_boxes.iter().enumerate() {
                let full = state
                    .sheets
                    .get(id)
                    .and_then(|s| s.moods.get(f.line).cloned().flatten())
                    .is_some_and(|m| m.level == MOOD_LINE_DICE[f.line].track_len());
                if !full {
                    out.push(Problem {
                        path: format!("{at}.final_boxes[{i}]"),
                        message: "names a mood whose last box is not filled".into(),
                    });
                }
            }
        }
        for (i, a) in self.collateral_attempts.iter().enumerate() {
            if state.world.location(a.location).is_none() {
                out.push(Problem {
                    path: format!("{path}.collateral_attempts[{i}].location"),
                    message: format!("there is no location {}", a.location),
                });
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------
// Helpers

impl Downtime {
    /// The character's sheet and phase record, for moves that need no readiness check.
    fn character_mut(&mut self, character: Uuid) -> Result<(&mut Sheet, &mut CharacterPhase)> {
        let sheet = self
            .sheets
            .get_mut(&character)
            .ok_or_else(|| Error::invalid("character", format!("character {character} is not in this downtime")))?;
        let phase = self
            .phase
            .characters
            .get_mut(&character)
            .ok_or_else(|| Error::invalid("character", format!("character {character} is not in this downtime")))?;
        Ok((sheet, phase))
    }

    /// As `character_mut`, for a character free to act: the first complication is rolled and
    /// no choice is owed.
    fn ready_character_mut(&mut self, character: Uuid) -> Result<(&mut Sheet, &mut CharacterPhase)> {
        if self.phase.just_left.is_some() && !self.phase.just_left_rolled {
            return Err(Error::invalid("action", "roll the complication for the location just left first"));
        }
        let (sheet, phase) = self.character_mut(character)?;
        if let Some(awaiting) = phase.awaiting {
            let what = match awaiting {
                Awaiting::Introspection { .. } => "finish Introspection first",
                Awaiting::TrainSkills { .. } => "choose the skills to train first",
            };
            return Err(Error::invalid("action", what));
        }
        Ok((sheet, phase))
    }

    /// The downtime once the character has spent one of its downtime actions on `action`, and
    /// the event saying so.
    fn spend_action(&self, character: Uuid, action: ActionKind) -> Result<(Downtime, Vec<DowntimeEvent>)> {
        let mut next = self.clone();
        let (_, phase) = next.ready_character_mut(character)?;
        if phase.actions_left == 0 {
            return Err(Error::invalid("action", "this character has no downtime actions left this phase"));
        }
        let before = phase.actions_left;
        phase.actions_left -= 1;
        let events = vec![DowntimeEvent::ActionSpent { character, action, before, after: phase.actions_left }];
        Ok((next, events))
    }

    /// Takes the world as a world rule `changed` it, with the changes as events.
    fn take_world(&mut self, (world, changes): (World, Vec<WorldEvent>), events: &mut Vec<DowntimeEvent>) {
        self.world = world;
        events.extend(changes.into_iter().map(|change| DowntimeEvent::World { change }));
    }

    /// The line of the picked mood, naming a new one if asked.
    fn pick_mood(&mut self, character: Uuid, pick: &MoodPick, events: &mut Vec<DowntimeEvent>) -> Result<usize> {
        let sheet = self.sheets.get_mut(&character).expect("checked");
        match pick {
            MoodPick::Line(line) => existing_mood(sheet, *line).map(|_| *line),
            MoodPick::New { line, name } => {
                let line = *line;
                if line >= MOOD_LINE_DICE.len() {
                    return Err(Error::invalid("mood", format!("{line} is not a mood line (0 to 5)")));
                }
                if sheet.moods[line].is_some() {
                    return Err(Error::invalid("mood", format!("mood line {line} is taken")));
                }
                check_name("mood", name)?;
                check_mood_name_free(sheet, name, None)?;
                sheet.moods[line] = Some(Mood { name: name.trim().to_owned(), level: 0, overloaded: false });
                events.push(DowntimeEvent::MoodNamed { character, line, name: name.trim().to_owned() });
                Ok(line)
            }
        }
    }

    /// Raises a mood and records a filled last box as pending.
    fn raise_mood(&mut self, character: Uuid, line: usize, by: u8, events: &mut Vec<DowntimeEvent>) -> Result<()> {
        let (sheet, phase) = self.character_mut(character)?;
        let (raised, inc) = increment_mood(sheet, line, by)?;
        *sheet = raised;
        events.push(DowntimeEvent::MoodLevelChanged {
            character,
            line,
            mood: inc.mood.clone(),
            before: inc.before,
            after: inc.after,
        });
        if let Some(f) = inc.final_box {
            events.push(DowntimeEvent::FinalBoxFilled { character, line, mood: f.mood.clone() });
            phase.final_boxes.push(f);
        }
        Ok(())
    }
}

fn existing_mood(sheet: &Sheet, line: usize) -> Result<&Mood> {
    sheet
        .moods
        .get(line)
        .ok_or_else(|| Error::invalid("mood", format!("{line} is not a mood line (0 to 5)")))?
        .as_ref()
        .ok_or_else(|| Error::invalid("mood", format!("mood line {line} is empty")))
}

fn check_mood_name_free(sheet: &Sheet, name: &str, except: Option<usize>) -> Result<()> {
    let taken = sheet
        .moods
        .iter()
        .enumerate()
        .any(|(i, m)| Some(i) != except && m.as_ref().is_some_and(|m| same_name(&m.name, name)));
    if taken {
        return Err(Error::invalid("mood", format!("{:?} is already one of the character's moods", name.trim())));
    }
    Ok(())
}

fn aspect_die(sheet: &Sheet, aspect: Aspect) -> Result<Die> {
    sheet
        .aspects
        .map(|a| a.die(aspect))
        .ok_or_else(|| Error::invalid("aspects", "the character's aspects are not chosen yet"))
}

fn skill_modifier_of(sheet: &Sheet, skill: Option<usize>, field: &str) -> Result<u8> {
    let Some(line) = skill else { return Ok(0) };
    sheet.skills.get(line).and_then(Option::as_ref).map(|s| s.modifier).ok_or_else(|| {
        Error::invalid(field, format!("skill line {line} is empty or not one of 0 to {}", SKILL_LINES - 1))
    })
}

/// Points an error from a shared helper at the caller's field.
fn rename_field(error: Error, field: &str) -> Error {
    match error {
        Error::Invalid { problem, .. } => Error::invalid(field, problem),
        other => other,
    }
}
