//! Downtime in a No Stone Unturned game (RULES.md §1.4), one service per thing the table
//! does. The phase in progress is stored with the game; every move loads it with the world
//! and the sheets of the characters taking part, applies the rules, and writes the world,
//! the phase and every changed sheet (as a new revision) in one transaction with one
//! `nsu_downtime_*` event holding all of it before and after, so `undo_game` restores it.

use std::collections::{BTreeMap, BTreeSet};

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::{now, Game, System};
use crate::rules::nsu::downtime::{
    self, Downtime, DowntimeEvent, DowntimePhase, EndBlocker, FinalBoxChoice, HarmRecovery, Introspection, MoodPick,
    PhaseSetup, ProjectTarget, ProjectWork, Reconnection, ScoutOutcome, SeekRecovery, Votes,
};
use crate::rules::nsu::scouting::close_enough_to_scout;
use crate::rules::nsu::{Aspect, Sheet};
use crate::rules::record::CharacterRecord;
use crate::rules::table_settings;
use crate::services::characters::{load, update};
use crate::services::dice::{with_dice, DiceInput};
use crate::services::log::table_event;
use crate::services::nsu::world::{member, nsu_game, WorldPayload, WorldSnapshot};
use crate::services::nsu::{nsu_sheet_in, NsuSheetView};
use crate::store::{EventKind, Reader, Store, Tx};

/// The table setting that makes a failed attempt to address collateral add a tick.
const NEGATIVE_COLLATERAL_ADDS_TICK: &str = "negative_collateral_adds_tick";

/// A downtime phase as the screen shows it, with what the last move did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DowntimeView {
    /// None once the phase has ended.
    pub phase: Option<DowntimePhase>,
    pub world: crate::rules::nsu::world::World,
    /// The sheets of the characters taking part.
    pub characters: Vec<NsuSheetView>,
    pub events: Vec<DowntimeEvent>,
    /// The face-down cards close enough to scout from where the party is (a hint: the table
    /// may pick another); None at home, which the map does not place.
    pub close_to_scout: Option<BTreeSet<Uuid>>,
}

/// Which project a Long-Term Project action works on (a new one gets its id here).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProjectChoice {
    Existing { project: Uuid },
    New { name: String, size: u8 },
}

/// A Long-Term Project action.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ProjectAction {
    pub project: ProjectChoice,
    pub aspect: Aspect,
    pub mood: MoodPick,
    #[serde(default)]
    pub skill: Option<usize>,
}

/// The state of a phase as loaded: the rules' view and the records it came from.
pub(in crate::services) struct Loaded {
    game: Game,
    state: Downtime,
    records: Vec<CharacterRecord>,
}

fn sheets_of(records: &[CharacterRecord]) -> BTreeMap<Uuid, Sheet> {
    records.iter().map(|r| (r.character.id, r.nsu.clone().unwrap_or_default())).collect()
}

pub(in crate::services) fn load_phase(read: Reader<'_>, game: Uuid) -> Result<Loaded> {
    let g = nsu_game(read, game)?;
    let phase = read
        .nsu_downtime(game)?
        .ok_or_else(|| Error::invalid("downtime", "no downtime phase is in progress in this game; start one first"))?;
    let world = read.nsu_world(game)?;
    let records = phase.characters.keys().map(|id| load(read, *id)).collect::<Result<Vec<_>>>()?;
    let state = Downtime { world, sheets: sheets_of(&records), phase };
    Ok(Loaded { game: g, state, records })
}

/// Writes what a move produced and logs it: the world, the phase (None ends it) and every
/// sheet that changed, each as a new revision.
#[allow(clippy::too_many_arguments)]
fn commit(
    tx: &Tx<'_>,
    game: Uuid,
    kind: EventKind,
    action: &str,
    before: (&Downtime, Option<&DowntimePhase>),
    records: Vec<CharacterRecord>,
    next: &Downtime,
    phase: Option<&DowntimePhase>,
    events: Vec<DowntimeEvent>,
) -> Result<DowntimeView> {
    let (state, phase_before) = before;
    if next.world != state.world {
        tx.put_nsu_world(game, &next.world)?;
        tx.touch_game(game, now())?;
    }
    tx.put_nsu_downtime(game, phase)?;
    let mut changed_before = Vec::new();
    let mut changed_after = Vec::new();
    for record in records {
        let sheet = &next.sheets[&record.character.id];
        if record.nsu.clone().unwrap_or_default() == *sheet {
            continue;
        }
        let mut after = CharacterRecord { nsu: Some(sheet.clone()), ..record.clone() };
        after.character.revision += 1;
        after.character.updated_at = now();
        update(tx, &after)?;
        changed_before.push(record);
        changed_after.push(after);
    }
    let payload = WorldPayload {
        action: action.to_owned(),
        before: WorldSnapshot {
            world: state.world.clone(),
            downtime: phase_before.cloned(),
            characters: changed_before,
        },
        after: WorldSnapshot { world: next.world.clone(), downtime: phase.cloned(), characters: changed_after },
        events: serde_json::to_value(&events).expect("downtime events serialize"),
    };
    table_event(tx, kind, game, &payload, None)?;
    let read = tx.read();
    let characters = next.sheets.keys().map(|id| nsu_sheet_in(read, *id)).collect::<Result<Vec<_>>>()?;
    let mut world = next.world.clone();
    crate::services::nsu::world::seen_by(&mut world, &crate::services::viewer::device_viewer(tx.read(), game)?);
    let close_to_scout = close_enough_to_scout(&world);
    Ok(DowntimeView { phase: phase.cloned(), world, characters, events, close_to_scout })
}

/// Applies one move to the phase in progress in one transaction.
fn play(
    store: &mut Store,
    game: Uuid,
    action: &str,
    mv: impl FnOnce(&Game, &Downtime) -> Result<(Downtime, Vec<DowntimeEvent>)>,
) -> Result<DowntimeView> {
    store.write(|tx| {
        let Loaded { game: g, state, records } = load_phase(tx.read(), game)?;
        let (next, events) = mv(&g, &state)?;
        let before = (&state, Some(&state.phase));
        commit(tx, game, EventKind::NsuDowntimeMove, action, before, records, &next, Some(&next.phase), events)
    })
}

/// The phase in progress, if any.
pub fn nsu_downtime(store: &Store, game: Uuid) -> Result<Option<DowntimeView>> {
    let read = store.read();
    nsu_game(read, game)?;
    if read.nsu_downtime(game)?.is_none() {
        return Ok(None);
    }
    let Loaded { state, .. } = load_phase(read, game)?;
    let characters = state.sheets.keys().map(|id| nsu_sheet_in(read, *id)).collect::<Result<Vec<_>>>()?;
    let mut world = state.world;
    crate::services::nsu::world::seen_by(&mut world, &crate::services::viewer::device_viewer(read, game)?);
    let close_to_scout = close_enough_to_scout(&world);
    Ok(Some(DowntimeView { phase: Some(state.phase), world, characters, events: Vec::new(), close_to_scout }))
}

/// Starts a downtime phase for `characters` (at home: a recovery point each, and the time
/// units the table lets pass).
pub fn nsu_downtime_start(
    store: &mut Store,
    game: Uuid,
    characters: &[Uuid],
    setup: PhaseSetup,
) -> Result<DowntimeView> {
    store.write(|tx| {
        let read = tx.read();
        nsu_game(read, game)?;
        if read.nsu_downtime(game)?.is_some() {
            return Err(Error::invalid("downtime", "a downtime phase is already in progress; end it first"));
        }
        let mut records = Vec::new();
        for (i, id) in characters.iter().enumerate() {
            if characters[..i].contains(id) {
                return Err(Error::invalid(format!("characters[{i}]"), "the same character is listed twice"));
            }
            records.push(member(read, game, *id, &format!("characters[{i}]"))?);
        }
        let world = read.nsu_world(game)?;
        let (next, events) = downtime::start(&world, &sheets_of(&records), setup)?;
        let before = Downtime { world, sheets: sheets_of(&records), phase: next.phase.clone() };
        let before = (&before, None);
        commit(
            tx,
            game,
            EventKind::NsuDowntimeStarted,
            "starting downtime",
            before,
            records,
            &next,
            Some(&next.phase),
            events,
        )
    })
}

/// The three complication tables as the core rolls them (the reference card, the downtime
/// screen before its d6).
pub fn nsu_complication_tables() -> Vec<crate::rules::nsu::downtime::ComplicationTable> {
    crate::rules::nsu::downtime::complication_tables()
}

/// Rolls a complication (one d6) for a location: first the one just left, then one per
/// time unit on revealed cards.
pub fn nsu_downtime_complication<R: Rng>(
    store: &mut Store,
    game: Uuid,
    location: Uuid,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<DowntimeView> {
    play(store, game, "rolling a complication", |_, s| {
        with_dice(dice, rng, |d| downtime::roll_complication(s, location, d))
    })
}

pub fn nsu_downtime_recover_harm(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    recoveries: &[HarmRecovery],
) -> Result<DowntimeView> {
    play(store, game, "recovering harm", |_, s| downtime::recover_harm(s, character, recoveries))
}

pub fn nsu_downtime_upgrade_skills(store: &mut Store, game: Uuid, character: Uuid) -> Result<DowntimeView> {
    play(store, game, "upgrading skills", |_, s| downtime::upgrade_skills(s, character))
}

/// Long-Term Project: the aspect die, then the mood die.
pub fn nsu_downtime_project<R: Rng>(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    action: &ProjectAction,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<DowntimeView> {
    let project = match &action.project {
        ProjectChoice::Existing { project } => ProjectTarget::Existing(*project),
        ProjectChoice::New { name, size } => ProjectTarget::New { id: Uuid::new_v4(), name: name.clone(), size: *size },
    };
    let work = ProjectWork { project, aspect: action.aspect, mood: action.mood.clone(), skill: action.skill };
    play(store, game, "working on a project", |_, s| {
        with_dice(dice, rng, |d| downtime::long_term_project(s, character, &work, d))
    })
}

pub fn nsu_downtime_reconnect(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    choice: &Reconnection,
) -> Result<DowntimeView> {
    play(store, game, "reconnecting with a sentiment", |_, s| downtime::reconnect(s, character, choice))
}

/// Introspection, first half: the Heart die.
pub fn nsu_downtime_introspection_roll<R: Rng>(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<DowntimeView> {
    play(store, game, "rolling for introspection", |_, s| {
        with_dice(dice, rng, |d| downtime::introspection_roll(s, character, d))
    })
}

pub fn nsu_downtime_introspection_finish(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    choice: &Introspection,
) -> Result<DowntimeView> {
    play(store, game, "finishing introspection", |_, s| downtime::introspection_finish(s, character, choice))
}

/// Address Collateral, first action: opens an attempt and rolls the Mind die.
pub fn nsu_downtime_address_collateral<R: Rng>(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    location: Uuid,
    votes: Votes,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<DowntimeView> {
    play(store, game, "addressing collateral", |_, s| {
        with_dice(dice, rng, |d| downtime::address_collateral(s, character, location, votes, d))
    })
}

/// Address Collateral, a further action: one more die on the open attempt.
pub fn nsu_downtime_add_collateral_die<R: Rng>(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    location: Uuid,
    aspect: Aspect,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<DowntimeView> {
    play(store, game, "adding a die against collateral", |_, s| {
        with_dice(dice, rng, |d| downtime::add_collateral_die(s, character, location, aspect, d))
    })
}

/// Settles the open attempt on `location`, with the game's table setting for a negative
/// result.
pub fn nsu_downtime_settle_collateral(store: &mut Store, game: Uuid, location: Uuid) -> Result<DowntimeView> {
    play(store, game, "settling an attempt on collateral", |g, s| {
        let adds_tick = g
            .table_settings
            .get(NEGATIVE_COLLATERAL_ADDS_TICK)
            .copied()
            .or_else(|| table_settings::defaults(System::Nsu).get(NEGATIVE_COLLATERAL_ADDS_TICK).copied())
            .is_some_and(|v| v != 0);
        downtime::settle_collateral(s, location, adds_tick)
    })
}

/// Train Skills, first half: the chosen aspect's die.
pub fn nsu_downtime_train_roll<R: Rng>(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    aspect: Aspect,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<DowntimeView> {
    play(store, game, "rolling to train skills", |_, s| {
        with_dice(dice, rng, |d| downtime::train_skills_roll(s, character, aspect, d))
    })
}

pub fn nsu_downtime_train_mark(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    skills: &[usize],
) -> Result<DowntimeView> {
    play(store, game, "training skills", |_, s| downtime::train_skills_mark(s, character, skills))
}

/// Seek Recovery: the Body die (twice with a healer), then a helper's Heart die.
pub fn nsu_downtime_seek_recovery<R: Rng>(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    choice: SeekRecovery,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<DowntimeView> {
    play(store, game, "seeking recovery", |_, s| {
        with_dice(dice, rng, |d| downtime::seek_recovery(s, character, choice, d))
    })
}

/// Whether `character` may scout `location` now: a downtime phase is in progress in its game
/// and the rules allow it (`downtime::check_scout`). Asked before a scouting roll is
/// previewed or rolled.
pub(in crate::services) fn check_scout(read: Reader<'_>, game: Uuid, character: Uuid, location: Uuid) -> Result<()> {
    if read.nsu_downtime(game)?.is_none() {
        return Err(Error::invalid(
            "setup.scout",
            "no downtime phase is in progress: scouting is a downtime action; start downtime first",
        ));
    }
    let Loaded { state, .. } = load_phase(read, game)?;
    downtime::check_scout(&state, character, location)
}

/// A mood whose last box a downtime move filled waits for its final box there (a new name,
/// a sentiment marked): an action roll with it meanwhile would give it a second final box,
/// and the phase would wait for one already given. Refused until the phase's is resolved.
pub(in crate::services) fn check_no_final_box_waiting(
    read: Reader<'_>,
    game: Uuid,
    character: Uuid,
    line: usize,
    field: &str,
) -> Result<()> {
    let Some(phase) = read.nsu_downtime(game)? else { return Ok(()) };
    match phase.characters.get(&character).and_then(|c| c.final_boxes.iter().find(|f| f.line == line)) {
        None => Ok(()),
        Some(f) => Err(Error::invalid(
            field,
            format!(
                "{:?} waits for its final box in downtime (a new name, a sentiment marked); resolve it first",
                f.mood
            ),
        )),
    }
}

/// Scout, settled with its action roll (RULES.md §1.4): spends the character's action and,
/// unless they turned back, records that they saw the card — in the transaction that settles
/// the roll, as a downtime move whose payload names the roll's character (`roll_of`): the
/// roll's undo takes it back, and the game's undo of it undoes the roll (see `undo`).
/// Returns the event's sequence number.
pub(in crate::services) fn record_scout_of_roll(
    tx: &Tx<'_>,
    game: Uuid,
    character: Uuid,
    location: Uuid,
    outcome: ScoutOutcome,
) -> Result<i64> {
    let Loaded { state, .. } = load_phase(tx.read(), game)?;
    let (next, events) = downtime::scout(&state, character, location, outcome)?;
    tx.put_nsu_world(game, &next.world)?;
    tx.touch_game(game, now())?;
    tx.put_nsu_downtime(game, Some(&next.phase))?;
    let snapshot = |d: &Downtime| WorldSnapshot {
        world: d.world.clone(),
        downtime: Some(d.phase.clone()),
        characters: Vec::new(),
    };
    let payload = WorldPayload {
        action: "scouting".into(),
        before: snapshot(&state),
        after: snapshot(&next),
        events: serde_json::to_value(&events).expect("downtime events serialize"),
    };
    let mut body = serde_json::to_value(&payload).expect("world payloads serialize");
    body[ROLL_OF] = serde_json::json!(character);
    table_event(tx, EventKind::NsuDowntimeMove, game, &body, None)
}

/// The field of a downtime move made by settling a character's roll: that character.
pub(in crate::services) const ROLL_OF: &str = "roll_of";

/// The final-box effect for a mood whose last box filled: a new name, a sentiment marked.
pub fn nsu_downtime_final_box(
    store: &mut Store,
    game: Uuid,
    character: Uuid,
    line: usize,
    choice: &FinalBoxChoice,
) -> Result<DowntimeView> {
    play(store, game, "resolving a final box", |_, s| downtime::resolve_final_box(s, character, line, choice))
}

/// Ends the phase. Refused while a complication roll is owed (the location just left's, one
/// per extra time unit), or a choice: a two-step action waiting for its second half, a final
/// box to resolve, or an attempt on collateral left open.
pub fn nsu_downtime_end(store: &mut Store, game: Uuid) -> Result<DowntimeView> {
    store.write(|tx| {
        let Loaded { state, records, .. } = load_phase(tx.read(), game)?;
        let read = tx.read();
        let name = |id: Uuid| -> Result<String> { Ok(read.character(id)?.map(|c| c.name).unwrap_or_default()) };
        match downtime::end_blocker(&state) {
            Some(EndBlocker::ComplicationDue { just_left: Some(location), .. }) => {
                let name = state.world.location(location).map(|l| l.name.clone()).unwrap_or_default();
                return Err(Error::invalid(
                    "downtime",
                    format!("the complication roll for “{name}”, the location just left, is still due; roll it first"),
                ));
            }
            Some(EndBlocker::ComplicationDue { extra, .. }) => {
                let rolls = if extra == 1 {
                    "1 extra complication roll is".to_owned()
                } else {
                    format!("{extra} extra complication rolls are")
                };
                return Err(Error::invalid(
                    "downtime",
                    format!("{rolls} still due (one per extra time unit, on revealed locations); roll them first"),
                ));
            }
            Some(EndBlocker::OwesChoice { character }) => {
                let name = name(character)?;
                return Err(Error::invalid("downtime", format!("“{name}” still owes the choice after their roll")));
            }
            Some(EndBlocker::FinalBox { character, mood }) => {
                let name = name(character)?;
                return Err(Error::invalid(
                    "downtime",
                    format!("the mood {mood:?} of “{name}” waits for its final box"),
                ));
            }
            Some(EndBlocker::OpenCollateral) => {
                return Err(Error::invalid(
                    "downtime",
                    "an attempt to address collateral is still open; settle it first",
                ));
            }
            None => {}
        }
        let before = (&state, Some(&state.phase));
        commit(tx, game, EventKind::NsuDowntimeEnded, "ending downtime", before, records, &state, None, Vec::new())
    })
}
