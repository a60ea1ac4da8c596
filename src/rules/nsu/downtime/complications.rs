//! Complications: the tables by collateral, starting a phase and its complication rolls.

use super::*;

/// The three complication tables, by collateral ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CollateralBand {
    /// 1–3 ticks.
    Low,
    /// 4–5 ticks.
    Middle,
    /// 6–8 ticks (8 uses the 6–7 table).
    High,
}

impl CollateralBand {
    /// The table for `ticks`; 0 ticks means no complication roll.
    pub fn for_ticks(ticks: u8) -> Option<CollateralBand> {
        match ticks {
            0 => None,
            1..=3 => Some(CollateralBand::Low),
            4..=5 => Some(CollateralBand::Middle),
            _ => Some(CollateralBand::High),
        }
    }
}

/// What the collateral does at a location while the explorers rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Complication {
    AreaInRecovery,
    ProblemIntensifiesOrSideEffect,
    RelationsWorsen,
    ProblemSpreads,
    ProblemIntensifiesOrRelationsWorsen,
    ThoseAffectedFlee,
    RelationsWorsenOrProblemSpreads,
    ProblemIntensifies,
}

impl Complication {
    /// The prompt's name as the app shows it.
    pub fn label(self) -> &'static str {
        match self {
            Complication::AreaInRecovery => "The area recovers",
            Complication::ProblemIntensifiesOrSideEffect => "The problem grows, or an unforeseen side effect",
            Complication::RelationsWorsen => "Relations worsen",
            Complication::ProblemSpreads => "The problem spreads elsewhere",
            Complication::ProblemIntensifiesOrRelationsWorsen => "The problem grows, or relations worsen",
            Complication::ThoseAffectedFlee => "Those affected flee",
            Complication::RelationsWorsenOrProblemSpreads => "Relations worsen, or the problem spreads elsewhere",
            Complication::ProblemIntensifies => "The problem grows",
        }
    }
}

/// The complication for a d6 `roll` at a location with `ticks` of collateral; None for 0
/// ticks (no roll is made) or a roll outside 1..=6.
pub fn complication(ticks: u8, roll: u8) -> Option<Complication> {
    use Complication::*;
    let band = CollateralBand::for_ticks(ticks)?;
    Some(match (band, roll) {
        (CollateralBand::Low, 1) => AreaInRecovery,
        (CollateralBand::Low, 2..=3) => ProblemIntensifiesOrSideEffect,
        (CollateralBand::Low, 4..=5) => RelationsWorsen,
        (CollateralBand::Low, 6) => ProblemSpreads,
        (CollateralBand::Middle, 1..=3) => ProblemIntensifiesOrRelationsWorsen,
        (CollateralBand::Middle, 4..=5) => ProblemSpreads,
        (CollateralBand::Middle, 6) => ThoseAffectedFlee,
        (CollateralBand::High, 1..=3) => RelationsWorsenOrProblemSpreads,
        (CollateralBand::High, 4..=5) => ThoseAffectedFlee,
        (CollateralBand::High, 6) => ProblemIntensifies,
        _ => return None,
    })
}

/// One complication table as the table reads it before rolling: the collateral ticks it
/// covers and its rows, built from [`complication`] itself so the two cannot disagree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ComplicationTable {
    pub band: CollateralBand,
    /// The lowest and highest ticks that roll on this table.
    pub ticks: [u8; 2],
    pub rows: Vec<ComplicationRow>,
}

/// A run of d6 faces that bring the same complication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ComplicationRow {
    /// The lowest and highest face of the run.
    pub faces: [u8; 2],
    pub complication: Complication,
    pub label: &'static str,
}

/// The three complication tables (RULES.md §1.4), for the reference card and the downtime
/// screen.
pub fn complication_tables() -> Vec<ComplicationTable> {
    [(CollateralBand::Low, [1, 3]), (CollateralBand::Middle, [4, 5]), (CollateralBand::High, [6, 8])]
        .into_iter()
        .map(|(band, ticks)| {
            let mut rows: Vec<ComplicationRow> = Vec::new();
            for face in 1..=6 {
                let Some(c) = complication(ticks[0], face) else { continue };
                match rows.last_mut() {
                    Some(row) if row.complication == c => row.faces[1] = face,
                    _ => rows.push(ComplicationRow { faces: [face, face], complication: c, label: c.label() }),
                }
            }
            ComplicationTable { band, ticks, rows }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Starting the phase and complications

/// Starts a phase for the characters in `sheets`. At home every character gains a recovery
/// point; each time unit, wherever the party rests (decision 2026-11-28), gives every
/// character one more action and the table one more complication roll. The location just
/// left (whose complication roll comes first) is where the party was (`World::party_at`;
/// none from home); at home the party goes home, camped elsewhere it stays where it is.
pub fn start(
    world: &World,
    sheets: &BTreeMap<Uuid, Sheet>,
    setup: PhaseSetup,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    if sheets.is_empty() {
        return Err(Error::invalid("characters", "a downtime phase needs at least one character"));
    }
    if setup.time_units > MAX_TIME_UNITS {
        return Err(Error::invalid("time_units", format!("{} is more than {MAX_TIME_UNITS}", setup.time_units)));
    }
    let just_left = world.party_at;
    let actions_each = 1 + setup.time_units;
    let mut events = vec![DowntimeEvent::PhaseStarted {
        at_home: setup.at_home,
        time_units: setup.time_units,
        just_left,
        actions_each,
    }];
    let mut world = world.clone();
    if just_left.is_some() && setup.at_home {
        let (home, moved) = world::set_party_location(&world, None)?;
        world = home;
        events.extend(moved.into_iter().map(|change| DowntimeEvent::World { change }));
    }
    let mut sheets = sheets.clone();
    if setup.at_home {
        for (id, sheet) in sheets.iter_mut() {
            let before = sheet.recovery_points;
            sheet.recovery_points = before
                .checked_add(1)
                .ok_or_else(|| Error::invalid("recovery_points", format!("character {id} cannot hold more")))?;
            events.push(DowntimeEvent::RecoveryPointsChanged {
                character: *id,
                source: RecoverySource::Home,
                before,
                after: sheet.recovery_points,
            });
        }
    }
    let characters = sheets
        .keys()
        .map(|id| {
            let phase = CharacterPhase {
                actions_left: actions_each,
                recovered_harm: false,
                upgraded_skills: false,
                awaiting: None,
                final_boxes: Vec::new(),
            };
            (*id, phase)
        })
        .collect();
    let phase = DowntimePhase {
        at_home: setup.at_home,
        time_units: setup.time_units,
        just_left,
        just_left_rolled: false,
        extra_complications_left: setup.time_units,
        characters,
        collateral_attempts: Vec::new(),
    };
    Ok((Downtime { world, sheets, phase }, events))
}

/// Rolls a complication for `location` (one d6, "complication die"). The location just left
/// comes first; after it, one roll per time unit on a revealed location. A clock at 0 uses
/// the roll without rolling a die.
pub fn roll_complication(
    state: &Downtime,
    location: Uuid,
    dice: &mut dyn DiceSource,
) -> Result<(Downtime, Vec<DowntimeEvent>)> {
    let i = state.world.location_index(location, "location")?;
    let card = &state.world.locations[i];
    let mut next = state.clone();
    let phase = &mut next.phase;
    let extra = match phase.just_left {
        Some(left) if !phase.just_left_rolled => {
            if left != location {
                return Err(Error::invalid("location", "roll first for the location the characters just left"));
            }
            phase.just_left_rolled = true;
            false
        }
        _ => {
            if phase.extra_complications_left == 0 {
                return Err(Error::invalid("location", "no complication roll is due in this phase"));
            }
            if !card.revealed {
                return Err(Error::invalid(
                    "location",
                    format!("{:?} is face down; choose a revealed location", card.name),
                ));
            }
            phase.extra_complications_left -= 1;
            true
        }
    };
    let ticks = card.collateral;
    let roll = if ticks == 0 { None } else { Some(dice.roll(6, "complication die")?) };
    let complication = roll.and_then(|r| complication(ticks, r));
    Ok((next, vec![DowntimeEvent::ComplicationRolled { location, extra, ticks, roll, complication }]))
}
