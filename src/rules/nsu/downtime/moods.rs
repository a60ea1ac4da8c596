//! Moods going up in downtime, and the final box a mood can reach.

use super::*;

/// A mood's level going up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoodIncrease {
    pub line: usize,
    pub mood: String,
    pub before: u8,
    pub after: u8,
    /// Some when the increase filled the last box.
    pub final_box: Option<FinalBox>,
}

/// Raises the mood on `line` by `by` boxes, stopping at its last box; filling the last box
/// returns a pending [`FinalBox`]. A mood whose last box is already filled is refused.
pub fn increment_mood(sheet: &Sheet, line: usize, by: u8) -> Result<(Sheet, MoodIncrease)> {
    let mood = existing_mood(sheet, line)?;
    let last = MOOD_LINE_DICE[line].track_len();
    if mood.level >= last {
        return Err(Error::invalid(
            "mood",
            format!("{:?} has its last box filled; resolve the final box (new name, sentiment) first", mood.name),
        ));
    }
    let before = mood.level;
    let after = before.saturating_add(by).min(last);
    let mut next = sheet.clone();
    let name = mood.name.clone();
    next.moods[line].as_mut().expect("checked above").level = after;
    let final_box = (after == last).then(|| FinalBox { line, mood: name.clone() });
    Ok((next, MoodIncrease { line, mood: name, before, after, final_box }))
}

/// The player's answer to a filled last box.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalBoxChoice {
    /// The mood's new, more intense name.
    pub new_name: String,
    /// The sentiment line to mark one step; None only when no sentiment can be marked.
    pub sentiment: Option<usize>,
}

/// What keeps a downtime phase from ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndBlocker {
    /// A complication roll the phase owes is not rolled: the location just left's (named),
    /// or `extra` rolls for the time units (while a location is revealed to roll them on).
    ComplicationDue { just_left: Option<Uuid>, extra: u8 },
    /// The character rolled for a two-step action and still owes the choice.
    OwesChoice { character: Uuid },
    /// A mood of the character filled its last box and waits for its final box.
    FinalBox { character: Uuid, mood: String },
    /// An attempt to address collateral is still open.
    OpenCollateral,
}

/// The first thing that keeps the phase from ending, if any: the complication rolls it owes
/// (decision 2026-11-28), then every owed choice, final box and collateral attempt must be
/// settled first. Extra rolls are owed only while a revealed location can take them.
pub fn end_blocker(state: &Downtime) -> Option<EndBlocker> {
    let phase = &state.phase;
    let first = phase.just_left.filter(|_| !phase.just_left_rolled);
    let revealed = state.world.locations.iter().any(|l| l.revealed);
    let extra = if revealed { phase.extra_complications_left } else { 0 };
    if first.is_some() || extra > 0 {
        return Some(EndBlocker::ComplicationDue { just_left: first, extra });
    }
    for (&character, c) in &state.phase.characters {
        if c.awaiting.is_some() {
            return Some(EndBlocker::OwesChoice { character });
        }
        if let Some(f) = c.final_boxes.first() {
            return Some(EndBlocker::FinalBox { character, mood: f.mood.clone() });
        }
    }
    (!state.phase.collateral_attempts.is_empty()).then_some(EndBlocker::OpenCollateral)
}

/// Applies the final-box effect to the mood on `line`: marks the chosen sentiment one step,
/// renames the mood and sets its level to 0, which ends its overload if it had one (decision
/// 2026-11-25: the evolved mood starts fresh).
pub fn resolve_final_box(
    state: &Downtime,
    character: Uuid,
    line: usize,
    choice: &FinalBoxChoice,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let mut next = state.clone();
    let (sheet, phase) = next.character_mut(character)?;
    let pending = phase
        .final_boxes
        .iter()
        .position(|f| f.line == line)
        .ok_or_else(|| Error::invalid("line", format!("mood line {line} has no final box waiting")))?;
    check_name("new_name", &choice.new_name)?;
    let old = existing_mood(sheet, line)?.clone();
    if same_name(&old.name, &choice.new_name) {
        return Err(Error::invalid("new_name", "the mood must take a new name"));
    }
    check_mood_name_free(sheet, &choice.new_name, Some(line))?;
    let markable = |s: &Option<Sentiment>| s.as_ref().is_some_and(|s| s.state != SentimentState::Lost);
    let mut events = Vec::new();
    match choice.sentiment {
        None if sheet.sentiments.iter().any(markable) => {
            return Err(Error::invalid("sentiment", "choose a sentiment to mark"));
        }
        None => {}
        Some(i) => {
            let s = sheet.sentiments.get(i).ok_or_else(|| {
                Error::invalid("sentiment", format!("{i} is not a sentiment line (0 to {})", SENTIMENT_LINES - 1))
            })?;
            if !markable(s) {
                return Err(Error::invalid("sentiment", format!("sentiment line {i} is empty or already lost")));
            }
            let s = sheet.sentiments[i].as_mut().expect("checked above");
            let before = s.state;
            s.state = before.marked();
            events.push(DowntimeEvent::SentimentChanged {
                character,
                line: i,
                name_before: Some(s.name.clone()),
                name_after: s.name.clone(),
                before: Some(before),
                after: s.state,
            });
        }
    }
    let mood = sheet.moods[line].as_mut().expect("checked above");
    mood.name = choice.new_name.trim().to_owned();
    mood.level = 0;
    let overload_ended = std::mem::take(&mut mood.overloaded);
    events.push(DowntimeEvent::FinalBoxResolved {
        character,
        line,
        before: old.name,
        after: mood.name.clone(),
        level_before: old.level,
        overload_ended,
    });
    phase.final_boxes.remove(pending);
    Ok((next, events))
}

/// Which mood a downtime move uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoodPick {
    /// The mood on this line.
    Line(usize),
    /// A new mood named on this empty line.
    New { line: usize, name: String },
}
