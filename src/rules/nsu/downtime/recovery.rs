//! The free actions: recovering harm and upgrading skills.

use super::*;

/// One harm detail to turn into a scar.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HarmRecovery {
    /// Index into the harm details as they are before this action.
    pub harm: usize,
    /// The scar it becomes.
    pub scar: String,
}

/// Recover Harm (free, once per phase): each conversion, in order, costs as many recovery
/// points as there are harm details at that moment.
pub fn recover_harm(
    state: &Downtime,
    character: Uuid,
    recoveries: &[HarmRecovery],
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let mut next = state.clone();
    let (sheet, phase) = next.ready_character_mut(character)?;
    if phase.recovered_harm {
        return Err(Error::invalid("action", "Recover Harm was already used this downtime phase"));
    }
    if recoveries.is_empty() {
        return Err(Error::invalid("recoveries", "choose at least one harm detail to recover"));
    }
    let count = sheet.harm.len();
    let mut cost_total: u64 = 0;
    for (k, r) in recoveries.iter().enumerate() {
        if r.harm >= count {
            return Err(Error::invalid(format!("recoveries[{k}].harm"), format!("there is no harm detail {}", r.harm)));
        }
        if recoveries[..k].iter().any(|o| o.harm == r.harm) {
            return Err(Error::invalid(format!("recoveries[{k}].harm"), "the same harm detail is chosen twice"));
        }
        if crate::rules::nsu::sheet::required_text_problem(&r.scar).is_some() {
            return Err(Error::invalid(format!("recoveries[{k}].scar"), "must be a short, non-empty detail"));
        }
        cost_total += (count - k) as u64;
    }
    if sheet.scars.len() + recoveries.len() > crate::rules::nsu::sheet::MAX_SCARS {
        return Err(Error::invalid(
            "recoveries",
            format!(
                "the sheet keeps at most {} scars; it has {}",
                crate::rules::nsu::sheet::MAX_SCARS,
                sheet.scars.len()
            ),
        ));
    }
    if cost_total > u64::from(sheet.recovery_points) {
        return Err(Error::invalid(
            "recoveries",
            format!(
                "{} recoveries cost {cost_total} recovery points; the character has {}",
                recoveries.len(),
                sheet.recovery_points
            ),
        ));
    }
    let was_overcome = sheet.overcome();
    let mut events = vec![DowntimeEvent::FreeActionUsed { character, action: FreeAction::RecoverHarm }];
    for (k, r) in recoveries.iter().enumerate() {
        let harm_before = sheet.harm.len();
        let cost = harm_before as u32;
        // Indices name the list before this action; earlier removals shift the later ones.
        let at = r.harm - recoveries[..k].iter().filter(|o| o.harm < r.harm).count();
        let harm = sheet.harm.remove(at);
        sheet.scars.push(r.scar.trim().to_owned());
        let before = sheet.recovery_points;
        sheet.recovery_points -= cost;
        events.push(DowntimeEvent::RecoveryPointsChanged {
            character,
            source: RecoverySource::RecoverHarm,
            before,
            after: sheet.recovery_points,
        });
        events.push(DowntimeEvent::HarmRecovered {
            character,
            harm,
            scar: r.scar.trim().to_owned(),
            cost,
            harm_before,
            harm_after: sheet.harm.len(),
        });
    }
    if was_overcome && sheet.harm.len() < HARM_SLOTS {
        events.push(DowntimeEvent::OvercomeCleared { character });
    }
    phase.recovered_harm = true;
    Ok((next, events))
}

/// Upgrade Skills (free, once per phase): every skill with all three boxes marked gains +1
/// and its boxes clear. Refused when no skill qualifies.
pub fn upgrade_skills(state: &Downtime, character: Uuid) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let mut next = state.clone();
    let (sheet, phase) = next.ready_character_mut(character)?;
    if phase.upgraded_skills {
        return Err(Error::invalid("action", "Upgrade Skills was already used this downtime phase"));
    }
    let mut events = vec![DowntimeEvent::FreeActionUsed { character, action: FreeAction::UpgradeSkills }];
    for (line, skill) in sheet.skills.iter_mut().enumerate() {
        let Some(skill) = skill.as_mut().filter(|s| s.boxes.all()) else { continue };
        let before = skill.modifier;
        skill.modifier = before
            .checked_add(1)
            .ok_or_else(|| Error::invalid(format!("skills[{line}].modifier"), "is at its highest"))?;
        skill.boxes = Default::default();
        events.push(DowntimeEvent::SkillUpgraded {
            character,
            line,
            skill: skill.name.clone(),
            before,
            after: skill.modifier,
        });
    }
    if events.len() == 1 {
        return Err(Error::invalid("skills", "no skill has all three boxes marked"));
    }
    phase.upgraded_skills = true;
    Ok((next, events))
}
