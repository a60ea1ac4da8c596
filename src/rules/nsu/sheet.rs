//! The No Stone Unturned character sheet (RULES.md §1.1), laid out like the official one:
//! aspects, six mood lines, six skill lines, three sentiments, four harm slots, other
//! details, scars and recovery points. The character's name lives on the character record.

use serde::{Deserialize, Serialize};

use crate::model::name_problem;
use crate::Problem;

/// The dice NSU uses for aspects and moods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Die {
    D4,
    D6,
    D8,
}

impl Die {
    pub const ALL: [Die; 3] = [Die::D4, Die::D6, Die::D8];

    pub fn sides(self) -> u8 {
        match self {
            Die::D4 => 4,
            Die::D6 => 6,
            Die::D8 => 8,
        }
    }

    pub fn from_sides(sides: u8) -> Option<Die> {
        Die::ALL.into_iter().find(|d| d.sides() == sides)
    }

    /// Boxes on a mood's level track: die + 1 (d8: 9, d6: 7, d4: 5).
    pub fn track_len(self) -> u8 {
        self.sides() + 1
    }

    /// A mood is past its threshold when its level is above die / 2 (d8: 4, d6: 3, d4: 2).
    pub fn overload_threshold(self) -> u8 {
        self.sides() / 2
    }
}

/// Body, Mind and Heart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Aspect {
    Body,
    Mind,
    Heart,
}

impl Aspect {
    pub const ALL: [Aspect; 3] = [Aspect::Body, Aspect::Mind, Aspect::Heart];

    /// The aspect's name in messages: "body", "mind", "heart".
    pub fn word(self) -> &'static str {
        match self {
            Aspect::Body => "body",
            Aspect::Mind => "mind",
            Aspect::Heart => "heart",
        }
    }
}

/// Each aspect's die: a permutation of d4, d6, d8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aspects {
    pub body: Die,
    pub mind: Die,
    pub heart: Die,
}

impl Aspects {
    pub fn die(&self, aspect: Aspect) -> Die {
        match aspect {
            Aspect::Body => self.body,
            Aspect::Mind => self.mind,
            Aspect::Heart => self.heart,
        }
    }

    /// True when the three aspects use three different dice.
    pub fn is_permutation(&self) -> bool {
        self.body != self.mind && self.mind != self.heart && self.body != self.heart
    }
}

/// A mood on one of the six mood lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mood {
    pub name: String,
    /// Marked boxes on the level track, 0..=die + 1.
    pub level: u8,
    pub overloaded: bool,
}

/// The three boxes of a skill line, one per aspect, marked when the skill is used with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AspectBoxes {
    pub body: bool,
    pub mind: bool,
    pub heart: bool,
}

impl AspectBoxes {
    pub fn get(&self, aspect: Aspect) -> bool {
        match aspect {
            Aspect::Body => self.body,
            Aspect::Mind => self.mind,
            Aspect::Heart => self.heart,
        }
    }

    pub fn mark(&mut self, aspect: Aspect) {
        match aspect {
            Aspect::Body => self.body = true,
            Aspect::Mind => self.mind = true,
            Aspect::Heart => self.heart = true,
        }
    }

    pub fn all(&self) -> bool {
        self.body && self.mind && self.heart
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skill {
    pub name: String,
    /// Added to or subtracted from the aspect die, as the player likes; never negative.
    pub modifier: u8,
    pub boxes: AspectBoxes,
}

/// Connected → at risk → lost: "mark the next box".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SentimentState {
    Connected,
    AtRisk,
    Lost,
}

impl SentimentState {
    /// The next box; a lost sentiment stays lost.
    pub fn marked(self) -> SentimentState {
        match self {
            SentimentState::Connected => SentimentState::AtRisk,
            SentimentState::AtRisk | SentimentState::Lost => SentimentState::Lost,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sentiment {
    pub name: String,
    pub state: SentimentState,
}

/// An "other detail" on the sheet: positive or negative.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detail {
    pub text: String,
    pub positive: bool,
}

/// Mood lines by die size, as printed on the sheet.
pub const MOOD_LINE_DICE: [Die; 6] = [Die::D8, Die::D8, Die::D6, Die::D6, Die::D4, Die::D4];
pub const SKILL_LINES: usize = 6;
pub const SENTIMENT_LINES: usize = 3;
/// Recording a fourth harm detail makes the character Overcome.
pub const HARM_SLOTS: usize = 4;
/// The longest free text (look, rumours, a detail) the sheet keeps, in characters.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// The most scars a sheet keeps: far more than a campaign's recovered harm.
pub const MAX_SCARS: usize = 100;
/// The most other details a sheet keeps.
pub const MAX_OTHER_DETAILS: usize = 100;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    pub pronouns: String,
    pub look: String,
    /// None until chosen at creation.
    pub aspects: Option<Aspects>,
    /// Line i uses die `MOOD_LINE_DICE[i]`; None is an open line.
    pub moods: [Option<Mood>; 6],
    pub skills: [Option<Skill>; SKILL_LINES],
    pub sentiments: [Option<Sentiment>; SENTIMENT_LINES],
    /// At most four; the fourth makes the character Overcome.
    pub harm: Vec<String>,
    pub recovery_points: u32,
    pub other_details: Vec<Detail>,
    /// Recovered harm, kept on the sheet, never counted as harm.
    pub scars: Vec<String>,
    /// What the character has heard about the locations its player authored, one a line:
    /// the table's, read by everyone.
    pub rumours: String,
    /// Rumours marked private, one a line (audit D10): read only by the character's player
    /// (and a device passed around, after its hand-over). Left out of every view, file and
    /// linked copy made for anyone else, so free text does not give away a face-down card.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub private_rumours: String,
    /// Notes marked private, one a line, read as `private_rumours` are (the table's notes
    /// are the character's own `notes`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub private_notes: String,
}

/// Which of a sheet's private lines: its rumours or its notes.
pub const PRIVATE_FIELDS: [&str; 2] = ["private_rumours", "private_notes"];

impl Sheet {
    /// Whether the sheet holds a private rumour or note.
    pub fn has_private(&self) -> bool {
        !self.private_rumours.is_empty() || !self.private_notes.is_empty()
    }

    /// The sheet as someone who may not read the character's private lines sees it: the
    /// table's lines only. Ruling (audit D10): in No Stone Unturned the Arbiters are the other
    /// players, so the table's view (the table side's device) does not read a player's
    /// private lines either; only the player of the character does.
    pub fn without_private(&self) -> Sheet {
        Sheet { private_rumours: String::new(), private_notes: String::new(), ..self.clone() }
    }

    /// `after`, a whole sheet sent back by someone who could not read `before`'s private
    /// lines (their view of it held none): the private lines kept as `before` has them.
    /// Refused, changing nothing, when `after` holds a private line at all: a private line
    /// cannot be written, changed or taken off by someone who cannot read it (an empty one
    /// is read as "not shown", never as "taken off").
    pub fn keep_private(before: &Sheet, after: Sheet) -> Result<Sheet, Problem> {
        if let Some(field) = PRIVATE_FIELDS
            .into_iter()
            .zip([&after.private_rumours, &after.private_notes])
            .find_map(|(field, text)| (!text.is_empty()).then_some(field))
        {
            return Err(Problem {
                path: format!("sheet.{field}"),
                message: "only the character's player writes its private lines, and this view of the sheet does \
                          not hold them"
                    .into(),
            });
        }
        Ok(Sheet {
            private_rumours: before.private_rumours.clone(),
            private_notes: before.private_notes.clone(),
            ..after
        })
    }

    /// An Overcome character cannot make action rolls until a harm detail is recovered.
    pub fn overcome(&self) -> bool {
        self.harm.len() >= HARM_SLOTS
    }

    /// The die of mood line `line`.
    pub fn mood_die(line: usize) -> Die {
        MOOD_LINE_DICE[line]
    }

    /// The overloaded mood's line, if any.
    pub fn overloaded_line(&self) -> Option<usize> {
        self.moods.iter().position(|m| m.as_ref().is_some_and(|m| m.overloaded))
    }

    /// Whether creation is done: one mood of each die size, aspects a permutation, three
    /// skills, three sentiments.
    pub fn creation_missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        for die in Die::ALL {
            let has = self.moods.iter().enumerate().any(|(i, m)| m.is_some() && MOOD_LINE_DICE[i] == die);
            if !has {
                missing.push(match die {
                    Die::D8 => "a mood on a d8 line",
                    Die::D6 => "a mood on a d6 line",
                    Die::D4 => "a mood on a d4 line",
                });
            }
        }
        if !self.aspects.is_some_and(|a| a.is_permutation()) {
            missing.push("aspects on d4, d6 and d8");
        }
        if self.skills.iter().flatten().count() < 3 {
            missing.push("three skills");
        }
        if self.sentiments.iter().flatten().count() < 3 {
            missing.push("three sentiments");
        }
        missing
    }

    /// Every broken invariant, each at `path` + its field (e.g. `$.moods[2].level`).
    pub fn problems(&self, path: &str) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
        for (field, text) in [
            ("pronouns", &self.pronouns),
            ("look", &self.look),
            ("rumours", &self.rumours),
            ("private_rumours", &self.private_rumours),
        ] {
            if let Some(p) = text_problem(text) {
                problem(format!("{path}.{field}"), p);
            }
        }
        if let Some(p) = crate::model::free_text_problem(&self.private_notes, crate::model::MAX_NOTES_CHARS) {
            problem(format!("{path}.private_notes"), p);
        }
        if let Some(a) = self.aspects {
            if !a.is_permutation() {
                problem(
                    format!("{path}.aspects"),
                    "Body, Mind and Heart must each use a different die (d4, d6, d8)".into(),
                );
            }
        }
        let mut overloaded = 0;
        for (i, mood) in self.moods.iter().enumerate() {
            let Some(mood) = mood else { continue };
            let die = MOOD_LINE_DICE[i];
            if let Some(p) = name_problem(&mood.name) {
                problem(format!("{path}.moods[{i}].name"), p);
            }
            if mood.level > die.track_len() {
                problem(
                    format!("{path}.moods[{i}].level"),
                    format!("{} is out of range: a {die:?} mood's level is 0 to {}", mood.level, die.track_len()),
                );
            }
            if mood.overloaded {
                overloaded += 1;
                if overloaded > 1 {
                    problem(
                        format!("{path}.moods[{i}].overloaded"),
                        "only one mood can be overloaded at a time".into(),
                    );
                }
                if mood.level == 0 {
                    // Decision 2026-11-25: reaching 0 ends an overload (audit D13).
                    problem(format!("{path}.moods[{i}].overloaded"), "a mood at level 0 is never overloaded".into());
                }
            }
        }
        for (i, skill) in self.skills.iter().enumerate() {
            if let Some(p) = skill.as_ref().and_then(|s| name_problem(&s.name)) {
                problem(format!("{path}.skills[{i}].name"), p);
            }
        }
        for (i, s) in self.sentiments.iter().enumerate() {
            if let Some(p) = s.as_ref().and_then(|s| name_problem(&s.name)) {
                problem(format!("{path}.sentiments[{i}].name"), p);
            }
        }
        if self.harm.len() > HARM_SLOTS {
            problem(
                format!("{path}.harm"),
                format!("{} harm details; a sheet has {HARM_SLOTS} slots", self.harm.len()),
            );
        }
        // A list over its cap is one problem; its entries are not read one by one.
        if self.scars.len() > MAX_SCARS {
            problem(format!("{path}.scars"), format!("{} scars; a sheet keeps at most {MAX_SCARS}", self.scars.len()));
        }
        if self.other_details.len() > MAX_OTHER_DETAILS {
            problem(
                format!("{path}.other_details"),
                format!("{} details; a sheet keeps at most {MAX_OTHER_DETAILS}", self.other_details.len()),
            );
        }
        let lists = [("harm", &self.harm, HARM_SLOTS), ("scars", &self.scars, MAX_SCARS)];
        for (field, list, cap) in lists {
            for (i, text) in list.iter().enumerate().take_while(|_| list.len() <= cap) {
                if let Some(p) = required_text_problem(text) {
                    problem(format!("{path}.{field}[{i}]"), p);
                }
            }
        }
        if self.other_details.len() <= MAX_OTHER_DETAILS {
            for (i, d) in self.other_details.iter().enumerate() {
                if let Some(p) = required_text_problem(&d.text) {
                    problem(format!("{path}.other_details[{i}].text"), p);
                }
            }
        }
        out
    }
}

/// Free text may be empty but not huge, and holds no control characters but line breaks
/// and tabs ([`crate::model::free_text_problem`]).
pub(crate) fn text_problem(text: &str) -> Option<String> {
    crate::model::free_text_problem(text, MAX_TEXT_CHARS)
}

/// Text that must say something (a detail, a statement), and not too much.
pub(crate) fn required_text_problem(text: &str) -> Option<String> {
    if text.trim().is_empty() {
        Some("must not be empty".into())
    } else {
        text_problem(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mood(name: &str, level: u8, overloaded: bool) -> Option<Mood> {
        Some(Mood { name: name.into(), level, overloaded })
    }

    #[test]
    fn track_lengths_and_thresholds_follow_the_die() {
        assert_eq!([Die::D8.track_len(), Die::D6.track_len(), Die::D4.track_len()], [9, 7, 5]);
        assert_eq!(
            [Die::D8.overload_threshold(), Die::D6.overload_threshold(), Die::D4.overload_threshold()],
            [4, 3, 2]
        );
    }

    #[test]
    fn a_mood_level_above_die_plus_one_and_a_second_overload_are_named() {
        let mut sheet = Sheet::default();
        sheet.moods[0] = mood("Wary", 10, true);
        sheet.moods[4] = mood("Calm", 5, true);
        let problems = sheet.problems("$.nsu");
        let paths: Vec<_> = problems.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["$.nsu.moods[0].level", "$.nsu.moods[4].overloaded"]);
    }

    #[test]
    fn a_mood_overloaded_at_level_0_is_named() {
        // Decision 2026-11-25: reaching 0 ends an overload, so no sheet holds one (audit D13).
        let mut sheet = Sheet::default();
        sheet.moods[2] = mood("Wary", 0, true);
        let problems = sheet.problems("$.nsu");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].path, "$.nsu.moods[2].overloaded");
        assert_eq!(problems[0].message, "a mood at level 0 is never overloaded");
        sheet.moods[2] = mood("Wary", 1, true);
        assert!(sheet.problems("$.nsu").is_empty());
    }

    #[test]
    fn five_harm_details_and_a_repeated_aspect_die_are_named() {
        let sheet = Sheet {
            harm: vec!["a".into(); 5],
            aspects: Some(Aspects { body: Die::D8, mind: Die::D8, heart: Die::D4 }),
            ..Sheet::default()
        };
        let paths: Vec<_> = sheet.problems("$").into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.aspects", "$.harm"]);
    }

    #[test]
    fn scars_and_details_stop_at_their_caps_and_texts_refuse_nul() {
        let mut sheet = Sheet { scars: vec!["x".into(); MAX_SCARS], ..Sheet::default() };
        sheet.other_details = vec![Detail { text: "y".into(), positive: true }; MAX_OTHER_DETAILS];
        assert_eq!(sheet.problems("$"), vec![]);
        sheet.scars.push("\u{0}".into());
        sheet.other_details.push(Detail { text: "\u{0}".into(), positive: true });
        let found: Vec<_> = sheet.problems("$").into_iter().map(|p| (p.path, p.message)).collect();
        assert_eq!(
            found,
            [
                ("$.scars".to_owned(), "101 scars; a sheet keeps at most 100".to_owned()),
                ("$.other_details".to_owned(), "101 details; a sheet keeps at most 100".to_owned()),
            ]
        );
        let sheet = Sheet { harm: vec!["\u{0}".into()], look: "a\u{202e}b".into(), ..Sheet::default() };
        let paths: Vec<_> = sheet.problems("$").into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.look", "$.harm[0]"]);
    }

    #[test]
    fn the_fourth_harm_detail_makes_the_character_overcome() {
        let mut sheet = Sheet { harm: vec!["cut".into(); 3], ..Sheet::default() };
        assert!(!sheet.overcome());
        sheet.harm.push("broken arm".into());
        assert!(sheet.overcome());
    }

    #[test]
    fn sentiments_move_connected_at_risk_lost_and_stay_lost() {
        let s = SentimentState::Connected.marked();
        assert_eq!(s, SentimentState::AtRisk);
        assert_eq!(s.marked(), SentimentState::Lost);
        assert_eq!(SentimentState::Lost.marked(), SentimentState::Lost);
    }

    #[test]
    fn creation_needs_a_mood_of_each_size_aspects_skills_and_sentiments() {
        let mut sheet = Sheet::default();
        assert_eq!(sheet.creation_missing().len(), 6);
        sheet.moods[1] = mood("Curious", 0, false);
        sheet.moods[3] = mood("Anxious", 0, false);
        sheet.moods[5] = mood("Content", 0, false);
        sheet.aspects = Some(Aspects { body: Die::D6, mind: Die::D8, heart: Die::D4 });
        for i in 0..3 {
            sheet.skills[i] = Some(Skill { name: format!("S{i}"), modifier: 1, boxes: AspectBoxes::default() });
            sheet.sentiments[i] = Some(Sentiment { name: format!("T{i}"), state: SentimentState::Connected });
        }
        assert_eq!(sheet.creation_missing(), Vec::<&str>::new());
    }

    fn with_secret() -> Sheet {
        Sheet {
            rumours: "The library's stacks go down further than the stairs.".into(),
            private_rumours: "The mill wheel turns at night, though the river is dry.".into(),
            private_notes: "I wrote the Mill.".into(),
            ..Sheet::default()
        }
    }

    #[test]
    fn a_sheet_without_its_private_lines_keeps_the_tables_rumours_only() {
        let shown = with_secret().without_private();
        assert_eq!(shown.rumours, "The library's stacks go down further than the stairs.");
        assert!(!shown.has_private());
        let json = serde_json::to_string(&shown).unwrap();
        assert!(!json.contains("mill") && !json.contains("Mill"), "{json}");
        assert!(!json.contains("private"), "an empty private line is not written at all: {json}");
        assert!(with_secret().has_private());
    }

    #[test]
    fn a_whole_sheet_sent_back_without_the_private_lines_keeps_them() {
        let before = with_secret();
        let mut after = before.without_private();
        after.look = "Ink on the fingers".into();
        after.rumours = "Nothing about the stacks.".into();
        let kept = Sheet::keep_private(&before, after).expect("an edit of what the sender sees");
        assert_eq!(kept.look, "Ink on the fingers");
        assert_eq!(kept.rumours, "Nothing about the stacks.");
        assert_eq!(kept.private_rumours, before.private_rumours, "not erased");
        assert_eq!(kept.private_notes, before.private_notes, "not erased");
    }

    #[test]
    fn a_private_line_the_sender_cannot_read_is_neither_written_nor_changed() {
        let before = with_secret();
        let forged = Sheet { private_rumours: "The mill is empty.".into(), ..before.without_private() };
        let refused = Sheet::keep_private(&before, forged).unwrap_err();
        assert_eq!(refused.path, "sheet.private_rumours");
        assert!(refused.message.contains("only the character's player"), "{}", refused.message);
        let added = Sheet { private_notes: "A note of my own".into(), ..Sheet::default() };
        assert_eq!(Sheet::keep_private(&Sheet::default(), added).unwrap_err().path, "sheet.private_notes");
    }

    #[test]
    fn private_lines_keep_the_texts_rules() {
        let sheet = Sheet { private_rumours: "x".repeat(MAX_TEXT_CHARS + 1), ..Sheet::default() };
        let found = sheet.problems("$.nsu");
        assert_eq!(found[0].path, "$.nsu.private_rumours");
        let sheet = Sheet { private_notes: "a\u{202e}b".into(), ..Sheet::default() };
        assert_eq!(sheet.problems("$.nsu")[0].path, "$.nsu.private_notes");
    }
}
