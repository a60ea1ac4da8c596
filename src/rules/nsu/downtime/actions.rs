//! The seven downtime actions: projects, reconnecting, introspection, collateral, training,
//! seeking recovery and scouting.

use super::*;

/// Which project a Long-Term Project action works on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProjectTarget {
    Existing(Uuid),
    /// A brand new clock, owned by the acting character.
    New {
        id: Uuid,
        name: String,
        size: u8,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectWork {
    pub project: ProjectTarget,
    pub aspect: Aspect,
    pub mood: MoodPick,
    /// A skill line whose modifier applies.
    pub skill: Option<usize>,
}

/// Long-Term Project: rolls the aspect die, then the mood die; marks |aspect − mood| + skill
/// segments on the clock and raises the mood by one.
pub fn long_term_project(
    state: &Downtime,
    character: Uuid,
    work: &ProjectWork,
    dice: &mut dyn DiceSource,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let (mut next, mut events) = state.spend_action(character, ActionKind::LongTermProject)?;
    let skill_modifier = skill_modifier_of(&next.sheets[&character], work.skill, "skill")?;
    let aspect_die = aspect_die(&next.sheets[&character], work.aspect)?;
    let project = match &work.project {
        ProjectTarget::Existing(id) => {
            let p = next
                .world
                .project(*id)
                .ok_or_else(|| Error::invalid("project", format!("there is no project {id}")))?;
            if p.complete() {
                return Err(Error::invalid("project", format!("{:?} is already complete", p.name)));
            }
            *id
        }
        ProjectTarget::New { id, name, size } => {
            let new = NewProject { id: *id, name: name.clone(), owner: character, size: *size };
            next.take_world(world::start_project(&next.world, &new)?, &mut events);
            *id
        }
    };
    let line = next.pick_mood(character, &work.mood, &mut events)?;
    next.raise_mood(character, line, 1, &mut events)?;
    let aspect_roll = dice.roll(aspect_die.sides(), "aspect die")?;
    let mood_roll = dice.roll(MOOD_LINE_DICE[line].sides(), "mood die")?;
    let segments = aspect_roll.abs_diff(mood_roll).saturating_add(skill_modifier);
    events.push(DowntimeEvent::ProjectRolled {
        character,
        project,
        aspect: work.aspect,
        aspect_roll,
        mood_line: line,
        mood_roll,
        skill_modifier,
        segments,
    });
    next.take_world(world::mark_project(&next.world, project, segments)?, &mut events);
    Ok((next, events))
}

/// Reconnect with Sentiments, one sentiment per action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reconnection {
    /// The sentiment line.
    pub sentiment: usize,
    /// The relevant mood whose level rises.
    pub mood: MoodPick,
    /// Some: forge a new sentiment with this name in place of a lost one (or on an empty
    /// line). None: reconnect (lost → at risk, at risk → connected).
    pub forge: Option<String>,
}

/// Reconnect with Sentiments: lost → at risk raises the mood by 3, at risk → connected by 2,
/// forging a new sentiment in place of a lost one by 4.
pub fn reconnect(state: &Downtime, character: Uuid, choice: &Reconnection) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let (mut next, mut events) = state.spend_action(character, ActionKind::Reconnect)?;
    let sheet = &next.sheets[&character];
    let line = choice.sentiment;
    let current = sheet.sentiments.get(line).ok_or_else(|| {
        Error::invalid("sentiment", format!("{line} is not a sentiment line (0 to {})", SENTIMENT_LINES - 1))
    })?;
    let before = current.as_ref().map(|s| s.state);
    let name_before = current.as_ref().map(|s| s.name.clone());
    let (cost, after, name_after) = match (&choice.forge, before) {
        (Some(name), None | Some(SentimentState::Lost)) => {
            check_name("forge", name)?;
            if sheet.sentiments.iter().flatten().any(|s| same_name(&s.name, name)) {
                return Err(Error::invalid("forge", format!("{:?} is already a sentiment", name.trim())));
            }
            (FORGE_COST, SentimentState::Connected, name.trim().to_owned())
        }
        (Some(_), Some(_)) => {
            return Err(Error::invalid("sentiment", "a new sentiment is forged only in place of a lost one"));
        }
        (None, Some(SentimentState::Lost)) => {
            (RECONNECT_LOST_COST, SentimentState::AtRisk, name_before.clone().unwrap())
        }
        (None, Some(SentimentState::AtRisk)) => {
            (RECONNECT_AT_RISK_COST, SentimentState::Connected, name_before.clone().unwrap())
        }
        (None, Some(SentimentState::Connected)) => {
            return Err(Error::invalid("sentiment", "this sentiment is connected; there is nothing to reconnect"));
        }
        (None, None) => return Err(Error::invalid("sentiment", "the line is empty; forge a new sentiment instead")),
    };
    let mood_line = next.pick_mood(character, &choice.mood, &mut events)?;
    next.raise_mood(character, mood_line, cost, &mut events)?;
    let sheet = next.sheets.get_mut(&character).expect("checked");
    sheet.sentiments[line] = Some(Sentiment { name: name_after.clone(), state: after });
    events.push(DowntimeEvent::SentimentChanged { character, line, name_before, name_after, before, after });
    Ok((next, events))
}

/// Introspection, first half: spends the action and rolls the Heart die ("heart die"). The
/// player then distributes the ticks with [`introspection_finish`].
pub fn introspection_roll(
    state: &Downtime,
    character: Uuid,
    dice: &mut dyn DiceSource,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let (mut next, mut events) = state.spend_action(character, ActionKind::Introspection)?;
    let die = aspect_die(&next.sheets[&character], Aspect::Heart)?;
    let roll = dice.roll(die.sides(), "heart die")?;
    next.phase.characters.get_mut(&character).expect("checked").awaiting = Some(Awaiting::Introspection { roll });
    events.push(DowntimeEvent::HeartRolled { character, roll });
    Ok((next, events))
}

/// Ticks to remove from one mood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoodReduction {
    pub line: usize,
    pub ticks: u8,
}

/// The player's introspection choices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Introspection {
    /// At most the Heart roll in total; no level below 0.
    pub reductions: Vec<MoodReduction>,
    /// Two mood lines of different die sizes whose moods trade places, levels included.
    pub swap: Option<[usize; 2]>,
    /// A mood at level 0 replaced by a new one.
    pub replace: Option<(usize, String)>,
}

/// Introspection, second half: removes ticks, then swaps, then replaces (see the module's
/// rulings).
pub fn introspection_finish(
    state: &Downtime,
    character: Uuid,
    choice: &Introspection,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let mut next = state.clone();
    let (sheet, phase) = next.character_mut(character)?;
    let Some(Awaiting::Introspection { roll }) = phase.awaiting else {
        return Err(Error::invalid("action", "roll the Heart die for Introspection first"));
    };
    let pending = |line: usize| phase.final_boxes.iter().any(|f| f.line == line);
    let mut events = Vec::new();
    let mut total: u32 = 0;
    for (k, r) in choice.reductions.iter().enumerate() {
        let field = format!("reductions[{k}]");
        if choice.reductions[..k].iter().any(|o| o.line == r.line) {
            return Err(Error::invalid(field, "the same mood is chosen twice"));
        }
        let mood = existing_mood(sheet, r.line).map_err(|e| rename_field(e, &field))?;
        if pending(r.line) {
            return Err(Error::invalid(field, format!("{:?} waits for its final box", mood.name)));
        }
        if r.ticks == 0 || r.ticks > mood.level {
            return Err(Error::invalid(
                field,
                format!("{:?} is at level {}; remove 1 to {}", mood.name, mood.level, mood.level),
            ));
        }
        total += u32::from(r.ticks);
    }
    if total > u32::from(roll) {
        return Err(Error::invalid("reductions", format!("{total} ticks is more than the Heart roll of {roll}")));
    }
    for r in &choice.reductions {
        let mood = sheet.moods[r.line].as_mut().expect("checked");
        let before = mood.level;
        mood.level -= r.ticks;
        events.push(DowntimeEvent::MoodLevelChanged {
            character,
            line: r.line,
            mood: mood.name.clone(),
            before,
            after: mood.level,
        });
        if mood.level == 0 && mood.overloaded {
            mood.overloaded = false;
            events.push(DowntimeEvent::OverloadEnded { character, line: r.line, mood: mood.name.clone() });
        }
    }
    if let Some([a, b]) = choice.swap {
        let ma = existing_mood(sheet, a).map_err(|e| rename_field(e, "swap"))?.clone();
        let mb = existing_mood(sheet, b).map_err(|e| rename_field(e, "swap"))?.clone();
        let (da, db) = (MOOD_LINE_DICE[a], MOOD_LINE_DICE[b]);
        if da == db {
            return Err(Error::invalid("swap", "both moods are on the same die; swapping changes nothing"));
        }
        if pending(a) || pending(b) {
            return Err(Error::invalid("swap", "a mood waiting for its final box cannot be swapped"));
        }
        for (m, die) in [(&ma, db), (&mb, da)] {
            if m.level > die.sides() {
                return Err(Error::invalid(
                    "swap",
                    format!(
                        "{:?} is at level {}; on a {die:?} it may be at most {}; lower it first",
                        m.name,
                        m.level,
                        die.sides()
                    ),
                ));
            }
        }
        sheet.moods.swap(a, b);
        events.push(DowntimeEvent::MoodsSwapped { character, lines: [a, b], moods: [ma.name, mb.name] });
    }
    if let Some((line, name)) = &choice.replace {
        let old = existing_mood(sheet, *line).map_err(|e| rename_field(e, "replace"))?.clone();
        if old.level != 0 {
            return Err(Error::invalid(
                "replace",
                format!("{:?} is at level {}; only a mood at 0 is replaced", old.name, old.level),
            ));
        }
        check_name("replace", name)?;
        check_mood_name_free(sheet, name, Some(*line)).map_err(|e| rename_field(e, "replace"))?;
        sheet.moods[*line] = Some(Mood { name: name.trim().to_owned(), level: 0, overloaded: false });
        // Only a sheet from before the level-0 rule holds an overloaded mood at 0: say so.
        if old.overloaded {
            events.push(DowntimeEvent::OverloadEnded { character, line: *line, mood: old.name.clone() });
        }
        events.push(DowntimeEvent::MoodReplaced {
            character,
            line: *line,
            before: old.name,
            after: name.trim().to_owned(),
        });
    }
    phase.awaiting = None;
    Ok((next, events))
}

/// The other players' votes on a plan to address collateral.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Votes {
    /// Players who think the plan is sound and resourced (+1 each).
    pub sound: u8,
    /// Players who dissent (−1 each).
    pub unsound: u8,
}

/// Address Collateral, first action: opens an attempt on `location` and rolls the Mind die
/// ("mind die"). The event shows the running result; [`add_collateral_die`] adds dice and
/// [`settle_collateral`] applies it.
pub fn address_collateral(
    state: &Downtime,
    character: Uuid,
    location: Uuid,
    votes: Votes,
    dice: &mut dyn DiceSource,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let (mut next, mut events) = state.spend_action(character, ActionKind::AddressCollateral)?;
    let i = next.world.location_index(location, "location")?;
    let card = &next.world.locations[i];
    if card.collateral == 0 {
        return Err(Error::invalid("location", format!("{:?} has no collateral to address", card.name)));
    }
    if next.phase.collateral_attempts.iter().any(|a| a.location == location) {
        return Err(Error::invalid("location", "an attempt on this location is open; add a die or settle it"));
    }
    let others = next.sheets.len() - 1;
    if usize::from(votes.sound) + usize::from(votes.unsound) > others {
        return Err(Error::invalid("votes", format!("only the {others} other players vote")));
    }
    let mut attempt = CollateralAttempt {
        location,
        started_by: character,
        votes_for: votes.sound,
        votes_against: votes.unsound,
        dice: Vec::new(),
    };
    let die = aspect_die(&next.sheets[&character], Aspect::Mind)?;
    let roll = dice.roll(die.sides(), "mind die")?;
    events.push(attempt.add_die(character, Aspect::Mind, die, roll, card.collateral));
    next.phase.collateral_attempts.push(attempt);
    Ok((next, events))
}

/// Address Collateral, a further action by anyone: rolls their Body, Mind or Heart die and
/// adds it to the open attempt on `location`.
pub fn add_collateral_die(
    state: &Downtime,
    character: Uuid,
    location: Uuid,
    aspect: Aspect,
    dice: &mut dyn DiceSource,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let (mut next, mut events) = state.spend_action(character, ActionKind::AddressCollateral)?;
    let ticks = next.world.location(location).map(|l| l.collateral).unwrap_or(0);
    let a = next.phase.open_attempt(location)?;
    let die = aspect_die(&next.sheets[&character], aspect)?;
    let roll = dice.roll(die.sides(), &format!("{} die", Aspect::word(aspect)))?;
    events.push(next.phase.collateral_attempts[a].add_die(character, aspect, die, roll, ticks));
    Ok((next, events))
}

/// Closes the attempt on `location`: result = total − current ticks. A positive result
/// removes that many ticks (stopping at 0); a negative one adds a tick when
/// `negative_collateral_adds_tick` (the table setting) is on.
pub fn settle_collateral(
    state: &Downtime,
    location: Uuid,
    negative_collateral_adds_tick: bool,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let mut next = state.clone();
    let a = next.phase.open_attempt(location)?;
    let attempt = next.phase.collateral_attempts.remove(a);
    let i = next.world.location_index(location, "location")?;
    let ticks = next.world.locations[i].collateral;
    let result = attempt.result(ticks);
    let mut events = vec![DowntimeEvent::CollateralSettled { location, total: attempt.total(), ticks, result }];
    let delta = if result > 0 {
        -(result.min(i32::from(world::COLLATERAL_SEGMENTS)) as i16)
    } else if result < 0 && negative_collateral_adds_tick {
        1
    } else {
        0
    };
    if delta != 0 {
        next.take_world(world::shift_collateral_clamped(&next.world, location, delta)?, &mut events);
    }
    Ok((next, events))
}

/// Train Skills, first half: spends the action and rolls the chosen aspect's die. Refused
/// when no skill has that box unmarked.
pub fn train_skills_roll(
    state: &Downtime,
    character: Uuid,
    aspect: Aspect,
    dice: &mut dyn DiceSource,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let (mut next, mut events) = state.spend_action(character, ActionKind::TrainSkills)?;
    let sheet = &next.sheets[&character];
    if !sheet.skills.iter().flatten().any(|s| !s.boxes.get(aspect)) {
        return Err(Error::invalid("aspect", format!("no skill has its {} box unmarked", Aspect::word(aspect))));
    }
    let die = aspect_die(sheet, aspect)?;
    let roll = dice.roll(die.sides(), &format!("{} die", Aspect::word(aspect)))?;
    next.phase.characters.get_mut(&character).expect("checked").awaiting = Some(Awaiting::TrainSkills { aspect, roll });
    events.push(DowntimeEvent::TrainingRolled { character, aspect, roll });
    Ok((next, events))
}

/// Train Skills, second half: marks the rolled aspect's box on the chosen skill lines —
/// exactly as many as rolled, or every unmarked one when there are fewer.
pub fn train_skills_mark(
    state: &Downtime,
    character: Uuid,
    skills: &[usize],
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let mut next = state.clone();
    let (sheet, phase) = next.character_mut(character)?;
    let Some(Awaiting::TrainSkills { aspect, roll }) = phase.awaiting else {
        return Err(Error::invalid("action", "roll a die for Train Skills first"));
    };
    let unmarked = sheet.skills.iter().flatten().filter(|s| !s.boxes.get(aspect)).count();
    let due = unmarked.min(usize::from(roll));
    if skills.len() != due {
        let plural = if due == 1 { "" } else { "s" };
        return Err(Error::invalid(
            "skills",
            format!("choose {due} skill{plural} to mark (rolled {roll}, {unmarked} unmarked)"),
        ));
    }
    let mut events = Vec::new();
    for (k, &line) in skills.iter().enumerate() {
        let field = format!("skills[{k}]");
        if skills[..k].contains(&line) {
            return Err(Error::invalid(field, "the same skill is chosen twice"));
        }
        let skill = sheet.skills.get_mut(line).and_then(Option::as_mut).ok_or_else(|| {
            Error::invalid(field.clone(), format!("skill line {line} is empty or not one of 0 to {}", SKILL_LINES - 1))
        })?;
        if skill.boxes.get(aspect) {
            return Err(Error::invalid(
                field,
                format!("{:?} already has its {} box marked", skill.name, Aspect::word(aspect)),
            ));
        }
        skill.boxes.mark(aspect);
        events.push(DowntimeEvent::SkillBoxMarked { character, line, skill: skill.name.clone(), aspect });
    }
    phase.awaiting = None;
    Ok((next, events))
}

/// A teammate helping with Seek Recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryHelper {
    pub character: Uuid,
    /// One of the helper's skill lines.
    pub skill: Option<usize>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekRecovery {
    /// A healer or healing facilities: the Body die is rolled twice.
    pub healer: bool,
    /// A relevant skill line of the character.
    pub skill: Option<usize>,
    pub helper: Option<RecoveryHelper>,
}

/// Seek Recovery: the Body die ("body die", twice with a healer), plus a skill, plus a
/// helper's Heart die ("helper heart die") and skill, in recovery points.
pub fn seek_recovery(
    state: &Downtime,
    character: Uuid,
    choice: SeekRecovery,
    dice: &mut dyn DiceSource,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let (mut next, mut events) = state.spend_action(character, ActionKind::SeekRecovery)?;
    let sheet = &next.sheets[&character];
    let skill_modifier = skill_modifier_of(sheet, choice.skill, "skill")?;
    let body = aspect_die(sheet, Aspect::Body)?;
    let (helper_die, helper_skill_modifier) = match choice.helper {
        None => (None, 0),
        Some(h) => {
            if h.character == character {
                return Err(Error::invalid("helper", "a character cannot help themself"));
            }
            let hs = next.sheets.get(&h.character).ok_or_else(|| {
                Error::invalid("helper", format!("character {} is not in this downtime", h.character))
            })?;
            (
                Some(aspect_die(hs, Aspect::Heart).map_err(|e| rename_field(e, "helper"))?),
                skill_modifier_of(hs, h.skill, "helper.skill")?,
            )
        }
    };
    let mut body_rolls = vec![dice.roll(body.sides(), "body die")?];
    if choice.healer {
        body_rolls.push(dice.roll(body.sides(), "body die (second roll)")?);
    }
    let helper_roll = match helper_die {
        Some(d) => Some(dice.roll(d.sides(), "helper heart die")?),
        None => None,
    };
    let total: u32 = body_rolls.iter().map(|&r| u32::from(r)).sum::<u32>()
        + u32::from(skill_modifier)
        + u32::from(helper_roll.unwrap_or(0))
        + u32::from(helper_skill_modifier);
    events.push(DowntimeEvent::RecoveryRolled {
        character,
        body_rolls,
        skill_modifier,
        helper: choice.helper.map(|h| h.character),
        helper_roll,
        helper_skill_modifier,
        total,
    });
    let sheet = next.sheets.get_mut(&character).expect("checked");
    let before = sheet.recovery_points;
    sheet.recovery_points =
        before.checked_add(total).ok_or_else(|| Error::invalid("recovery_points", "the character cannot hold more"))?;
    events.push(DowntimeEvent::RecoveryPointsChanged {
        character,
        source: RecoverySource::SeekRecovery,
        before,
        after: sheet.recovery_points,
    });
    Ok((next, events))
}

/// Whether `character` may scout the card `location` now (RULES.md §1.4 Scout): a Scout is
/// a downtime action, so the complication roll comes first, the character owes no choice
/// (a two-step action or a final box), has an action left and is not Overcome; the card is a
/// face-down card on the map that this character has not scouted yet (once seen, it stays
/// seen: a second look would spend an action for nothing). Checked before the scouting roll
/// is planned or rolled, and again when it is settled.
pub fn check_scout(state: &Downtime, character: Uuid, location: Uuid) -> Result<()> {
    let mut probe = state.clone();
    let (sheet, phase) = probe.ready_character_mut(character)?;
    if let Some(f) = phase.final_boxes.first() {
        return Err(Error::invalid(
            "action",
            format!("the mood {:?} waits for its final box (a new name, a sentiment marked); resolve it first", f.mood),
        ));
    }
    if phase.actions_left == 0 {
        return Err(Error::invalid("action", "this character has no downtime actions left this phase"));
    }
    if sheet.overcome() {
        return Err(Error::invalid(
            "character",
            "is Overcome (four harm details): an Overcome character cannot scout until a harm detail is recovered",
        ));
    }
    let card = &state.world.locations[state.world.location_index(location, "location")?];
    if card.revealed {
        return Err(Error::invalid("location", "scouting looks at a face-down card; this one is face up"));
    }
    if card.position.is_none() {
        return Err(Error::invalid(
            "location",
            "this card is not on the map yet: only a card on the map can be scouted",
        ));
    }
    if card.scouted_by.contains(&character) {
        return Err(Error::invalid("location", "this character has already scouted this card"));
    }
    Ok(())
}

/// Scout, settled: the scouting action roll (a roll whose `RollSetup::scout` names the card)
/// decided `outcome`; this spends the action and, on a win or accepted details, lets the
/// character privately see the card. Only the roll's settlement calls it, in the same
/// transaction as the roll: no outcome is ever picked by hand.
pub fn scout(
    state: &Downtime,
    character: Uuid,
    location: Uuid,
    outcome: ScoutOutcome,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    check_scout(state, character, location)?;
    let (mut next, mut events) = state.spend_action(character, ActionKind::Scout)?;
    events.push(DowntimeEvent::Scouted { character, location, outcome });
    if outcome != ScoutOutcome::TurnedBack {
        next.take_world(world::record_scout(&next.world, location, character)?, &mut events);
    }
    Ok((next, events))
}
