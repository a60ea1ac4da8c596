//! Reading a No Stone Unturned sheet and world.

use std::collections::HashSet;

use serde_json::Value;
use uuid::Uuid;

use crate::rules::nsu::sheet::{
    AspectBoxes, Aspects, Detail, Die, Mood, Sentiment, SentimentState, Sheet, Skill, SENTIMENT_LINES, SKILL_LINES,
};
use crate::rules::nsu::world::World;
use crate::Problem;

use super::{type_name, Obj, Validator};

/// The No Stone Unturned sheet inside a character (`"nsu": {…}`) and the world inside a game.
impl Validator {
    /// The world is read by its types in one pass (the first type error is reported at its
    /// path), then every invariant of `World::problems` is listed (the party's location,
    /// paths, NPC thresholds among them). Characters it names (project owners, scouts, card
    /// authors) must be characters of the same game in the file.
    pub(super) fn nsu_world(&mut self, path: &str, v: &Value, characters: &HashSet<Uuid>) -> Option<World> {
        let world: World = self.typed(path, v)?;
        let mut found = world.problems(path);
        for (i, p) in world.projects.iter().enumerate() {
            if !characters.contains(&p.owner) {
                found.push(Problem {
                    path: format!("{path}.projects[{i}].owner"),
                    message: format!("{} is not a character of this game", p.owner),
                });
            }
        }
        for (i, l) in world.locations.iter().enumerate() {
            if let Some(c) = l.author_character.filter(|c| !characters.contains(c)) {
                found.push(Problem {
                    path: format!("{path}.locations[{i}].author_character"),
                    message: format!("{c} is not a character of this game"),
                });
            }
            for (j, c) in l.scouted_by.iter().enumerate() {
                if !characters.contains(c) {
                    found.push(Problem {
                        path: format!("{path}.locations[{i}].scouted_by[{j}]"),
                        message: format!("{c} is not a character of this game"),
                    });
                }
            }
        }
        let ok = found.is_empty();
        self.extend(found);
        ok.then_some(world)
    }

    pub(super) fn nsu_sheet(&mut self, path: &str, v: &Value) -> Option<Sheet> {
        const KEYS: &[&str] = &[
            "pronouns",
            "look",
            "aspects",
            "moods",
            "skills",
            "sentiments",
            "harm",
            "recovery_points",
            "other_details",
            "scars",
            "rumours",
            "private_rumours",
            "private_notes",
        ];
        let map = self.object(path, v, KEYS)?;
        let pronouns = self.string(path, map, "pronouns").map(str::to_owned);
        let look = self.string(path, map, "look").map(str::to_owned);
        let rumours = self.string(path, map, "rumours").map(str::to_owned);
        // Private lines (audit D10) are left out of a file while empty: a file from before
        // them has none.
        let mut private = |key: &str| match map.contains_key(key) {
            true => self.string(path, map, key).map(str::to_owned),
            false => Some(String::new()),
        };
        let (private_rumours, private_notes) = (private("private_rumours"), private("private_notes"));
        let aspects = match self.field(path, map, "aspects") {
            Some(Value::Null) => Some(None),
            Some(v) => self.aspects(&format!("{path}.aspects"), v).map(Some),
            None => None,
        };
        let moods = self.lines::<6, _>(path, map, "moods", |s, at, v| s.mood(at, v));
        let skills = self.lines::<SKILL_LINES, _>(path, map, "skills", |s, at, v| s.skill(at, v));
        let sentiments = self.lines::<SENTIMENT_LINES, _>(path, map, "sentiments", |s, at, v| s.sentiment(at, v));
        let harm = self.texts(path, map, "harm");
        let scars = self.texts(path, map, "scars");
        let recovery_points = self.integer(path, map, "recovery_points").and_then(|n| {
            let points = u32::try_from(n).ok();
            if points.is_none() {
                self.problem(format!("{path}.recovery_points"), format!("{n} is out of range: 0 or more"));
            }
            points
        });
        let other_details = self.list(path, map, "other_details").and_then(|items| {
            let mut details = Vec::with_capacity(items.len());
            for (i, d) in items.iter().enumerate() {
                if self.full() {
                    return None;
                }
                let at = format!("{path}.other_details[{i}]");
                let Some(m) = self.object(&at, d, &["text", "positive"]) else { continue };
                let text = self.string(&at, m, "text").map(str::to_owned);
                let positive = self.boolean(&at, m, "positive");
                details.extend(text.zip(positive).map(|(text, positive)| Detail { text, positive }));
            }
            Some(details)
        });
        let sheet = Sheet {
            pronouns: pronouns?,
            look: look?,
            aspects: aspects?,
            moods: moods?,
            skills: skills?,
            sentiments: sentiments?,
            harm: harm?,
            recovery_points: recovery_points?,
            other_details: other_details?,
            scars: scars?,
            rumours: rumours?,
            private_rumours: private_rumours?,
            private_notes: private_notes?,
        };
        let found = sheet.problems(path);
        let ok = found.is_empty();
        self.extend(found);
        ok.then_some(sheet)
    }

    fn boolean(&mut self, path: &str, map: &Obj, key: &str) -> Option<bool> {
        match self.field(path, map, key)? {
            Value::Bool(b) => Some(*b),
            other => {
                self.problem(format!("{path}.{key}"), format!("expected true or false, found {}", type_name(other)));
                None
            }
        }
    }

    fn small(&mut self, path: &str, map: &Obj, key: &str, what: &str) -> Option<u8> {
        let n = self.integer(path, map, key)?;
        let small = u8::try_from(n).ok();
        if small.is_none() {
            self.problem(format!("{path}.{key}"), format!("{n} is out of range: {what}"));
        }
        small
    }

    pub(super) fn die(&mut self, at: &str, v: &Value) -> Option<Die> {
        let found = v.as_str().and_then(|s| s.strip_prefix('d')).and_then(|n| n.parse().ok()).and_then(Die::from_sides);
        if found.is_none() {
            self.problem(at, format!("expected \"d4\", \"d6\" or \"d8\", found {v}"));
        }
        found
    }

    fn aspects(&mut self, path: &str, v: &Value) -> Option<Aspects> {
        let map = self.object(path, v, &["body", "mind", "heart"])?;
        let mut die = |key: &str| {
            let value = self.field(path, map, key)?;
            self.die(&format!("{path}.{key}"), value)
        };
        let (body, mind, heart) = (die("body"), die("mind"), die("heart"));
        Some(Aspects { body: body?, mind: mind?, heart: heart? })
    }

    /// A list of exactly `N` lines, each `null` (an open line) or an entry.
    fn lines<const N: usize, T>(
        &mut self,
        path: &str,
        map: &Obj,
        key: &str,
        mut entry: impl FnMut(&mut Self, &str, &Value) -> Option<T>,
    ) -> Option<[Option<T>; N]> {
        let items = self.list(path, map, key)?;
        if items.len() != N {
            self.problem(
                format!("{path}.{key}"),
                format!("expected {N} lines (null for an open one), found {}", items.len()),
            );
            return None;
        }
        let mut ok = true;
        let lines: Vec<Option<T>> = items
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Null => None,
                v => {
                    let parsed = entry(self, &format!("{path}.{key}[{i}]"), v);
                    ok &= parsed.is_some();
                    parsed
                }
            })
            .collect();
        if !ok {
            return None;
        }
        lines.try_into().ok()
    }

    fn mood(&mut self, path: &str, v: &Value) -> Option<Mood> {
        let map = self.object(path, v, &["name", "level", "overloaded"])?;
        let name = self.name(path, map, "name");
        let level = self.small(path, map, "level", "a mood level is 0 to 9");
        let overloaded = self.boolean(path, map, "overloaded");
        Some(Mood { name: name?, level: level?, overloaded: overloaded? })
    }

    fn skill(&mut self, path: &str, v: &Value) -> Option<Skill> {
        let map = self.object(path, v, &["name", "modifier", "boxes"])?;
        let name = self.name(path, map, "name");
        let modifier = self.small(path, map, "modifier", "a skill modifier is 0 to 255");
        let boxes = self.field(path, map, "boxes").and_then(|b| {
            let at = format!("{path}.boxes");
            let m = self.object(&at, b, &["body", "mind", "heart"])?;
            let (body, mind, heart) =
                (self.boolean(&at, m, "body"), self.boolean(&at, m, "mind"), self.boolean(&at, m, "heart"));
            Some(AspectBoxes { body: body?, mind: mind?, heart: heart? })
        });
        Some(Skill { name: name?, modifier: modifier?, boxes: boxes? })
    }

    fn sentiment(&mut self, path: &str, v: &Value) -> Option<Sentiment> {
        let map = self.object(path, v, &["name", "state"])?;
        let name = self.name(path, map, "name");
        let state = self.string(path, map, "state").and_then(|s| {
            let state = match s {
                "connected" => Some(SentimentState::Connected),
                "at_risk" => Some(SentimentState::AtRisk),
                "lost" => Some(SentimentState::Lost),
                _ => None,
            };
            if state.is_none() {
                self.problem(
                    format!("{path}.state"),
                    format!("unknown state {s:?}; expected connected, at_risk or lost"),
                );
            }
            state
        });
        Some(Sentiment { name: name?, state: state? })
    }

    pub(super) fn texts(&mut self, path: &str, map: &Obj, key: &str) -> Option<Vec<String>> {
        let items = self.list(path, map, key)?;
        let mut texts = Vec::with_capacity(items.len());
        for (i, v) in items.iter().enumerate() {
            match v.as_str() {
                Some(text) => texts.push(text.to_owned()),
                None if self.full() => return None,
                None => {
                    self.problem(format!("{path}.{key}[{i}]"), format!("expected a string, found {}", type_name(v)))
                }
            }
        }
        (texts.len() == items.len()).then_some(texts)
    }
}
