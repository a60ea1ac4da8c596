//! The quick roll's set-up (issue 32): a roll started by tapping a mood, an aspect or a skill
//! on the sheet opens on one screen with everything filled in — what was tapped first, then
//! the character's last settled roll, then a plain default — so the table changes only what
//! differs and rolls. Every choice stays open to change on that screen; nothing here decides
//! for the table, it only fills in where the table last left things.
//!
//! What RULES.md §1.3 makes the player state before rolling (step 1, the desired outcome) may
//! be left to write later on the roll's log entry: the roll is then logged with
//! `OUTCOME_TO_BE_WRITTEN`, and the log entry offers to write it.

use serde::{Deserialize, Serialize};

use super::roll::{AtRisk, MoodChoice, RollSetup, SkillChoice};
use super::sheet::{Aspect, Sheet};

/// The desired outcome of a roll whose player said it aloud but left it to write later.
pub const OUTCOME_TO_BE_WRITTEN: &str = "— to be written";

/// What was tapped on the sheet to start the roll (any, or none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickStart {
    #[serde(default)]
    pub mood_line: Option<usize>,
    #[serde(default)]
    pub aspect: Option<Aspect>,
    #[serde(default)]
    pub skill_line: Option<usize>,
}

/// The set-up a quick roll opens with, on `sheet`, after `last` (the character's last settled
/// roll, if any) and with `start` (what was tapped):
/// - the aspect tapped, else the last roll's, else the aspect with the biggest die;
/// - what is at risk as in the last roll, else the Character;
/// - the mood tapped, else the last roll's line if it holds a mood now, else the first mood
///   on the sheet (none: a new mood on the d8 line, which the table names);
/// - the skill tapped, else the last roll's if its line holds a skill now, else none;
/// - no details counted, no sentiment risked, no desired outcome yet: those belong to this
///   moment of the story, not to the last roll, and are not a scouting roll.
pub fn quick_setup(sheet: &Sheet, last: Option<&RollSetup>, start: &QuickStart) -> RollSetup {
    let aspect = start.aspect.or(last.map(|l| l.aspect)).unwrap_or_else(|| biggest_aspect(sheet));
    let at_risk = last.map_or(AtRisk::Character, |l| l.at_risk);
    let holds_mood = |line: usize| sheet.moods.get(line).is_some_and(Option::is_some);
    let mood_line = start
        .mood_line
        .filter(|&l| holds_mood(l))
        .or(last.map(|l| l.mood.line()).filter(|&l| holds_mood(l)))
        .or((0..sheet.moods.len()).find(|&l| holds_mood(l)));
    let mood = match mood_line {
        Some(line) => MoodChoice::Existing { line },
        None => MoodChoice::New { line: 0, name: String::new() },
    };
    let holds_skill = |line: usize| sheet.skills.get(line).is_some_and(Option::is_some);
    let skill_line = match start.skill_line {
        Some(line) => Some(line).filter(|&l| holds_skill(l)),
        None => last.and_then(|l| l.skill.as_ref()).map(SkillChoice::line).filter(|&l| holds_skill(l)),
    };
    let mut setup = RollSetup::new("", aspect, at_risk, mood);
    setup.skill = skill_line.map(|line| SkillChoice::Existing { line });
    setup
}

/// The aspect with the biggest die (Body, Mind, Heart on a tie); Body before aspects are chosen.
fn biggest_aspect(sheet: &Sheet) -> Aspect {
    let Some(aspects) = sheet.aspects else { return Aspect::Body };
    Aspect::ALL.into_iter().rev().max_by_key(|&a| aspects.die(a).sides()).unwrap_or(Aspect::Body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::nsu::sheet::{AspectBoxes, Aspects, Die, Mood, Skill};

    fn sheet() -> Sheet {
        let mut sheet =
            Sheet { aspects: Some(Aspects { body: Die::D6, mind: Die::D8, heart: Die::D4 }), ..Sheet::default() };
        sheet.moods[1] = Some(Mood { name: "Curious".into(), level: 1, overloaded: false });
        sheet.moods[4] = Some(Mood { name: "Wary".into(), level: 2, overloaded: false });
        sheet.skills[2] = Some(Skill { name: "Climb".into(), modifier: 1, boxes: AspectBoxes::default() });
        sheet
    }

    #[test]
    fn with_nothing_tapped_and_no_last_roll_the_biggest_aspect_and_the_first_mood() {
        let setup = quick_setup(&sheet(), None, &QuickStart::default());
        assert_eq!((setup.aspect, setup.at_risk), (Aspect::Mind, AtRisk::Character));
        assert_eq!(setup.mood, MoodChoice::Existing { line: 1 });
        assert_eq!((setup.skill, setup.risked_sentiment, setup.desired_outcome.as_str()), (None, None, ""));
    }

    #[test]
    fn what_was_tapped_wins_over_the_last_roll_and_the_rest_follows_it() {
        let mut last = RollSetup::new("Cross", Aspect::Heart, AtRisk::World, MoodChoice::Existing { line: 1 });
        last.skill = Some(SkillChoice::New { line: 2, name: "Climb".into() });
        last.risked_sentiment = Some(0);
        last.aspect_advantages = 2;
        let start = QuickStart { mood_line: Some(4), ..QuickStart::default() };
        let setup = quick_setup(&sheet(), Some(&last), &start);
        assert_eq!((setup.aspect, setup.at_risk), (Aspect::Heart, AtRisk::World), "from the last roll");
        assert_eq!(setup.mood, MoodChoice::Existing { line: 4 }, "the mood tapped");
        assert_eq!(setup.skill, Some(SkillChoice::Existing { line: 2 }), "the skill named then is on the sheet now");
        assert_eq!((setup.risked_sentiment, setup.aspect_advantages), (None, 0), "this moment's own");
        assert_eq!(setup.desired_outcome, "");
    }

    #[test]
    fn a_tapped_skill_or_aspect_is_taken_and_an_empty_line_is_not() {
        let start = QuickStart { aspect: Some(Aspect::Body), skill_line: Some(2), mood_line: Some(0) };
        let setup = quick_setup(&sheet(), None, &start);
        assert_eq!(setup.aspect, Aspect::Body);
        assert_eq!(setup.skill, Some(SkillChoice::Existing { line: 2 }));
        assert_eq!(setup.mood, MoodChoice::Existing { line: 1 }, "line 0 is open: the first mood instead");
        let empty = QuickStart { skill_line: Some(0), ..QuickStart::default() };
        assert_eq!(quick_setup(&sheet(), None, &empty).skill, None);
        let bare = quick_setup(&Sheet::default(), None, &QuickStart::default());
        assert_eq!((bare.aspect, bare.mood), (Aspect::Body, MoodChoice::New { line: 0, name: String::new() }));
    }
}
