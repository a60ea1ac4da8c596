//! No Stone Unturned action rolls at the table (RULES.md §1.3): odds before the roll, the
//! dice (rolled by the app or typed in), a helper's die, the table's choices, and the result
//! written to the sheets — each step logged, the whole roll undoable.
//!
//! The dice of a roll not yet settled are the latest `nsu_dice_rolled` event of the
//! character: rolling changes no sheet, so undoing that event simply cancels the roll.
//!
//! A roll whose purpose is a downtime Scout (`RollSetup::scout`) is checked against the
//! downtime phase when it is previewed, rolled and settled; settling it spends the action and
//! records what the character saw in the same transaction (a downtime move listed in the
//! roll's `together`, so one undo takes back both).

use std::collections::HashMap;

use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::json;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::{now, Character};
use crate::rules::dice::DiceSource;
use crate::rules::nsu::choices::{self, approaches, KeptResult};
use crate::rules::nsu::downtime::ScoutOutcome;
use crate::rules::nsu::odds::{action_odds, ActionOdds, ActionRollSetup};
use crate::rules::nsu::quick::OUTCOME_TO_BE_WRITTEN;
use crate::rules::nsu::roll::{
    self, ActionRoll, Choices, Edge, Grant, HelpedWith, MoodChoice, Need, RemoteHelper, RollEvent, RollPlan, RollSetup,
    Winner,
};
use crate::rules::nsu::world::Location;
use crate::rules::nsu::{Aspect, Die, Sheet};
use crate::rules::record::CharacterRecord;
use crate::services::characters::{load, update};
use crate::services::dice::{with_dice, DiceInput};
use crate::services::log::Change;
use crate::services::nsu::NsuSheetView;
use crate::store::{Event, EventKind, NewEvent, Reader, Store, Tx};

/// Exact odds as shown before a roll: probabilities and the signed margin's distribution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OddsView {
    pub win: f64,
    pub tie: f64,
    pub lose: f64,
    /// (signed margin for the player, probability), ascending.
    pub margin: Vec<(i32, f64)>,
}

impl From<ActionOdds> for OddsView {
    fn from(o: ActionOdds) -> Self {
        OddsView {
            win: o.win.probability(),
            tie: o.tie.probability(),
            lose: o.lose.probability(),
            margin: o.margin.into_iter().map(|(m, c)| (m, c.probability())).collect(),
        }
    }
}

/// What a setup means before rolling: the dice with their edges, and the exact odds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RollPreview {
    pub plan: RollPlan,
    pub odds: OddsView,
}

/// A roll on the table waiting for the table's choices.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PendingRoll {
    pub roll: ActionRoll,
    pub helper: Option<Character>,
    /// The choices best for whoever makes each one, to start from.
    pub choices: Choices,
    /// What the mood effects will ask for with those choices.
    pub needs: Vec<Need>,
    /// Every way of counting the dice with what it comes to (issue 34: which kept die gives
    /// which result).
    pub kept_results: Vec<KeptResult>,
}

/// A settled roll, as the roll log shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RollRecord {
    pub roll: ActionRoll,
    pub choices: Choices,
    pub aspect_total: i32,
    pub mood_used: u8,
    pub winner: Winner,
    pub margin: i32,
    pub difference: u32,
    pub grants: Vec<Grant>,
    pub events: Vec<RollEvent>,
    pub helper: Option<Uuid>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RollResult {
    pub record: RollRecord,
    /// The settled roll's event: details its grants write name it (`nsu_roll_write_detail`).
    pub event_id: i64,
    pub sheet: NsuSheetView,
    /// What a scouting roll found; None for any other roll.
    pub scouted: Option<Scouted>,
}

/// How a scouting roll ended, for the person who made it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scouted {
    pub location: Uuid,
    pub outcome: ScoutOutcome,
    /// The card's face, only when the character may look (a win, or details accepted) and
    /// this device's viewer sees that character's private things (their player, or a device
    /// passed around): the table side and other players never get it here.
    pub face: Option<Location>,
}

/// One line of a roll log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RollLogEntry {
    pub at: String,
    pub character_id: Uuid,
    pub character_name: String,
    pub helper_name: Option<String>,
    pub record: RollRecord,
    /// The settled roll's event (`nsu_roll_write_detail` names it).
    pub event_id: i64,
    /// Taken back with undo (kept in the log, greyed out).
    pub undone: bool,
    /// The desired outcome still reads `OUTCOME_TO_BE_WRITTEN`: the player left it to write
    /// after the roll (`nsu_roll_write_outcome`). `record` holds the outcome written last.
    pub outcome_to_write: bool,
}

/// The payload of the `nsu_dice_rolled` event.
#[derive(Serialize, Deserialize)]
struct DicePayload {
    roll: ActionRoll,
    helper: Option<Uuid>,
    /// The earlier dice events of this roll (a helper's die supersedes the first), newest
    /// first: settling the roll undoes with all of them.
    #[serde(default)]
    earlier: Vec<i64>,
}

fn sheet_of(record: &CharacterRecord) -> Result<&Sheet> {
    record.nsu.as_ref().ok_or_else(|| {
        Error::invalid("character", format!("“{}” has no No Stone Unturned sheet", record.character.name))
    })
}

fn odds_for(plan: &RollPlan, at_risk: roll::AtRisk, helper_die: Option<Die>, helper_edge: Edge) -> OddsView {
    action_odds(&ActionRollSetup::planned(plan, at_risk, helper_die.map(|die| (die, helper_edge)))).into()
}

/// The dice and exact odds a setup would give, without rolling (shown live as options change):
/// with a helper's die of `helper_die` and its edge, when someone helps.
pub fn nsu_roll_preview(
    store: &Store,
    character: Uuid,
    setup: &RollSetup,
    helper_die: Option<Die>,
    helper_edge: Edge,
) -> Result<RollPreview> {
    let read = store.read();
    let record = load(read, character)?;
    let plan = roll::plan(sheet_of(&record)?, setup)?;
    check_purpose(read, &record, setup)?;
    Ok(RollPreview { odds: odds_for(&plan, setup.at_risk, helper_die, helper_edge), plan })
}

/// One aspect and mood the character could act with (issue 34), with the plan and odds the
/// roll would have: `rules::nsu::choices::approaches`, as the window shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ApproachView {
    pub aspect: Aspect,
    pub mood_line: usize,
    /// An open line: acting with it means naming a new mood there, with that line's die.
    pub new_mood: bool,
    pub plan: RollPlan,
    pub odds: OddsView,
    /// No approach has a better chance (to win, then to tie).
    pub best: bool,
    /// No other mood with the same aspect has a better chance.
    pub best_for_aspect: bool,
    /// Why this mood cannot be rolled now (its final box waits in downtime), or None.
    pub unavailable: Option<String>,
}

/// Before a roll (issue 34): every aspect with every mood line of the character, with the
/// plan and exact odds each would give, the best overall and per aspect marked. The rest of
/// `setup` counts as it is (what is at risk, details, skill, risked sentiment); its aspect,
/// mood and desired outcome are what the approaches vary, so any may be sent. With a
/// helper's die of `helper_die` and its edge, when someone helps.
pub fn nsu_roll_approaches(
    store: &Store,
    character: Uuid,
    setup: &RollSetup,
    helper_die: Option<Die>,
    helper_edge: Edge,
) -> Result<Vec<ApproachView>> {
    let read = store.read();
    let record = load(read, character)?;
    let all = approaches(sheet_of(&record)?, setup, helper_die.map(|die| (die, helper_edge)))?;
    let (game, id) = (record.character.game_id, record.character.id);
    all.into_iter()
        .map(|a| {
            let waiting =
                crate::services::nsu::downtime::check_no_final_box_waiting(read, game, id, a.mood_line, "mood");
            let unavailable = match waiting {
                Ok(()) => None,
                Err(Error::Invalid { problem, .. }) => Some(problem),
                Err(e) => return Err(e),
            };
            Ok(ApproachView {
                aspect: a.aspect,
                mood_line: a.mood_line,
                new_mood: a.new_mood,
                plan: a.plan,
                odds: a.odds.into(),
                best: a.best,
                best_for_aspect: a.best_for_aspect,
                unavailable,
            })
        })
        .collect()
}

/// A scouting roll must be a Scout the downtime phase allows now.
fn check_purpose(read: Reader<'_>, record: &CharacterRecord, setup: &RollSetup) -> Result<()> {
    let (game, id) = (record.character.game_id, record.character.id);
    crate::services::nsu::downtime::check_no_final_box_waiting(read, game, id, setup.mood.line(), "setup.mood")?;
    match setup.scout {
        None => Ok(()),
        Some(location) => {
            crate::services::nsu::downtime::check_scout(read, record.character.game_id, record.character.id, location)
        }
    }
}

/// The roll on the table for `character`, if one is waiting for its choices.
fn pending_event(read: Reader<'_>, character: Uuid) -> Result<Option<Event>> {
    let last = read.last_undoable_of_character(character)?;
    Ok(last.filter(|e| e.kind == EventKind::NsuDiceRolled))
}

fn pending(read: Reader<'_>, character: Uuid) -> Result<(Event, DicePayload)> {
    let event = pending_event(read, character)?
        .ok_or_else(|| Error::invalid("roll", "there is no roll waiting for its choices; roll the dice first"))?;
    let payload: DicePayload = serde_json::from_value(event.payload.clone())
        .map_err(|e| Error::invalid("event log", format!("event {} cannot be read: {e}", event.seq)))?;
    Ok((event, payload))
}

fn pending_view(read: Reader<'_>, roller: &Sheet, payload: DicePayload) -> Result<PendingRoll> {
    let helper = payload.helper.map(|id| load(read, id)).transpose()?;
    let helper_sheet = helper.as_ref().map(sheet_of).transpose()?;
    let choices = roll::default_choices(&payload.roll);
    let needs = roll::needs(roller, helper_sheet, &payload.roll, &choices)?;
    let kept_results = choices::kept_results(&payload.roll);
    Ok(PendingRoll { roll: payload.roll, helper: helper.map(|h| h.character), choices, needs, kept_results })
}

fn log_dice(tx: &Tx<'_>, record: &CharacterRecord, payload: &DicePayload) -> Result<()> {
    // The sheet does not change when dice are rolled; before = after keeps undo uniform.
    let change = Change { before: Some(record.clone()), after: Some(record.clone()) };
    let mut body = serde_json::to_value(&change).expect("records serialize");
    body["roll"] = serde_json::to_value(&payload.roll).expect("rolls serialize");
    body["helper"] = json!(payload.helper);
    body["earlier"] = json!(payload.earlier);
    // Taking these dice off the table takes the earlier ones of the same roll too.
    body["together"] = json!(payload.earlier);
    tx.append_event(&NewEvent {
        at: now(),
        game_id: record.character.game_id,
        character_id: Some(record.character.id),
        kind: EventKind::NsuDiceRolled,
        undoes: None,
        payload: body,
    })?;
    Ok(())
}

/// Rolls the dice for a setup (or takes the values rolled by hand). Nothing on the sheet
/// changes until the roll is settled; an Overcome character cannot roll.
pub fn nsu_roll_dice<R: Rng>(
    store: &mut Store,
    character: Uuid,
    setup: &RollSetup,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PendingRoll> {
    store.write(|tx| {
        let record = load(tx.read(), character)?;
        if pending_event(tx.read(), character)?.is_some() {
            return Err(Error::invalid("roll", "a roll is already on the table: settle it or undo it first"));
        }
        let sheet = sheet_of(&record)?;
        let rolled = with_dice(dice, rng, |d| roll::roll(sheet, setup, d))?;
        check_purpose(tx.read(), &record, setup)?;
        let payload = DicePayload { roll: rolled, helper: None, earlier: Vec::new() };
        log_dice(tx, &record, &payload)?;
        pending_view(tx.read(), sheet, payload)
    })
}

/// Adds a helper's die to the roll on the table as a new dice event that supersedes the
/// earlier ones: `help` makes the helped roll from the roll on the table.
fn join_roll<R: Rng>(
    store: &mut Store,
    character: Uuid,
    helper: Option<Uuid>,
    dice: &DiceInput,
    rng: &mut R,
    help: impl FnOnce(Reader<'_>, &CharacterRecord, &ActionRoll, &mut dyn DiceSource) -> Result<ActionRoll>,
) -> Result<PendingRoll> {
    store.write(|tx| {
        let record = load(tx.read(), character)?;
        let (first, payload) = pending(tx.read(), character)?;
        if payload.roll.help.is_some() {
            return Err(Error::invalid("helper", "this roll already has a helper"));
        }
        let rolled = with_dice(dice, rng, |d| help(tx.read(), &record, &payload.roll, d))?;
        let earlier = std::iter::once(first.seq).chain(payload.earlier).collect();
        let payload = DicePayload { roll: rolled, helper, earlier };
        log_dice(tx, &record, &payload)?;
        pending_view(tx.read(), sheet_of(&record)?, payload)
    })
}

/// A helper joins the roll on the table: their mood (an existing one or a new one named on an
/// empty line) and its die, rolled or typed in.
pub fn nsu_roll_help<R: Rng>(
    store: &mut Store,
    character: Uuid,
    helper: Uuid,
    mood: &MoodChoice,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PendingRoll> {
    if helper == character {
        return Err(Error::invalid("helper", "a character cannot help their own roll"));
    }
    join_roll(store, character, Some(helper), dice, rng, |read, record, roll, d| {
        let helper_record = load(read, helper)?;
        if helper_record.character.game_id != record.character.game_id {
            return Err(Error::invalid("helper", "the helper must play in the same game"));
        }
        crate::services::nsu::downtime::check_no_final_box_waiting(
            read,
            record.character.game_id,
            helper,
            mood.line(),
            "mood",
        )?;
        roll::help(roll, sheet_of(&helper_record)?, mood, d)
    })
}

/// A helper playing on another device joins the roll on the table: their name, their die and
/// its edge as they say, and the face(s) typed in (or rolled here). Their own sheet is not
/// touched here: they record "I helped with…" on their device ([`nsu_helped_with`]).
pub fn nsu_roll_help_elsewhere<R: Rng>(
    store: &mut Store,
    character: Uuid,
    helper: &RemoteHelper,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PendingRoll> {
    join_roll(store, character, None, dice, rng, |_, _, roll, d| roll::help_from_elsewhere(roll, helper, d))
}

/// What recording "I helped with…" on `character`'s sheet asks for with this input.
pub fn nsu_helped_with_needs(store: &Store, character: Uuid, input: &HelpedWith) -> Result<Vec<Need>> {
    let record = load(store.read(), character)?;
    roll::helped_with_needs(sheet_of(&record)?, input)
}

/// "I helped with…": a helper records on their own sheet, on their own device, what helping
/// with a roll made on another device did to their mood. One logged `nsu_helped` event,
/// undone with `undo_character`.
pub fn nsu_helped_with(store: &mut Store, character: Uuid, input: &HelpedWith) -> Result<HelpedResult> {
    store.write(|tx| {
        let before = load(tx.read(), character)?;
        let outcome = roll::helped_with(sheet_of(&before)?, input)?;
        let after = bump(&before, outcome.helper);
        update(tx, &after)?;
        let mut body = serde_json::to_value(Change { before: Some(before.clone()), after: Some(after) })
            .expect("records serialize");
        body["helped_with"] = serde_json::to_value(input).expect("inputs serialize");
        body["events"] = serde_json::to_value(&outcome.events).expect("events serialize");
        tx.append_event(&NewEvent {
            at: now(),
            game_id: before.character.game_id,
            character_id: Some(character),
            kind: EventKind::NsuHelped,
            undoes: None,
            payload: body,
        })?;
        Ok(HelpedResult {
            message: format!("{} helped with {}.", before.character.name, input.roll.trim()),
            events: outcome.events,
            sheet: crate::services::nsu::nsu_sheet_in(tx.read(), character)?,
        })
    })
}

/// What "I helped with…" did: the events on the helper's sheet and the sheet after.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HelpedResult {
    pub message: String,
    pub events: Vec<RollEvent>,
    pub sheet: NsuSheetView,
}

/// The roll on the table, if any, with its default choices.
pub fn nsu_pending_roll(store: &Store, character: Uuid) -> Result<Option<PendingRoll>> {
    let read = store.read();
    if pending_event(read, character)?.is_none() {
        return Ok(None);
    }
    let record = load(read, character)?;
    let (_, payload) = pending(read, character)?;
    pending_view(read, sheet_of(&record)?, payload).map(Some)
}

/// What the mood effects ask for with these choices (ask the table one at a time).
pub fn nsu_roll_needs(store: &Store, character: Uuid, choices: &Choices) -> Result<Vec<Need>> {
    let read = store.read();
    let record = load(read, character)?;
    let (_, payload) = pending(read, character)?;
    let helper = payload.helper.map(|id| load(read, id)).transpose()?;
    let helper_sheet = helper.as_ref().map(sheet_of).transpose()?;
    roll::needs(sheet_of(&record)?, helper_sheet, &payload.roll, choices)
}

/// Settles the roll on the table with the table's choices: the winner, the grants, and every
/// mark and mood effect written to the roller's (and helper's) sheet in one transaction.
pub fn nsu_roll_resolve(store: &mut Store, character: Uuid, choices: &Choices) -> Result<RollResult> {
    store.write(|tx| {
        let read = tx.read();
        let before = load(read, character)?;
        let (dice_event, payload) = pending(read, character)?;
        let helper_before = payload.helper.map(|id| load(read, id)).transpose()?;
        let helper_sheet = helper_before.as_ref().map(sheet_of).transpose()?;
        let outcome = roll::resolve(sheet_of(&before)?, helper_sheet, &payload.roll, choices)?;
        let record = RollRecord {
            roll: payload.roll,
            choices: choices.clone(),
            aspect_total: outcome.aspect_total,
            mood_used: outcome.mood_used,
            winner: outcome.winner,
            margin: outcome.margin,
            difference: outcome.difference,
            grants: outcome.grants.clone(),
            events: outcome.events.clone(),
            helper: payload.helper,
        };
        // Undoing the roll takes its dice off the table too (newest first), and the helper's
        // sheet change, which is its own event.
        let mut together: Vec<i64> = std::iter::once(dice_event.seq).chain(payload.earlier.iter().copied()).collect();
        let game = before.character.game_id;
        let scouted = match (record.roll.setup.scout, outcome.scout) {
            (Some(location), Some(found)) => {
                together
                    .push(crate::services::nsu::downtime::record_scout_of_roll(tx, game, character, location, found)?);
                Some((location, found))
            }
            _ => None,
        };
        if let (Some(hb), Some(sheet)) = (&helper_before, outcome.helper) {
            let after = bump(hb, sheet);
            update(tx, &after)?;
            let mut body =
                serde_json::to_value(Change { before: Some(hb.clone()), after: Some(after) }).expect("records");
            body["helped"] = json!(character);
            together.push(tx.append_event(&NewEvent {
                at: now(),
                game_id: hb.character.game_id,
                character_id: Some(hb.character.id),
                kind: EventKind::NsuHelped,
                undoes: None,
                payload: body,
            })?);
        }
        let after = bump(&before, outcome.roller);
        update(tx, &after)?;
        let mut body =
            serde_json::to_value(Change { before: Some(before.clone()), after: Some(after) }).expect("records");
        body["roll"] = serde_json::to_value(&record).expect("roll records serialize");
        body["together"] = json!(together);
        let event_id = tx.append_event(&NewEvent {
            at: now(),
            game_id: before.character.game_id,
            character_id: Some(character),
            kind: EventKind::NsuRollResolved,
            undoes: None,
            payload: body,
        })?;
        let scouted = match scouted {
            None => None,
            Some((location, outcome)) => {
                let read = tx.read();
                let looks = outcome != ScoutOutcome::TurnedBack
                    && crate::services::viewer::device_viewer(read, game)?.sees_character(character);
                let face = if looks { read.nsu_world(game)?.location(location).cloned() } else { None };
                Some(Scouted { location, outcome, face })
            }
        };
        Ok(RollResult { record, event_id, sheet: crate::services::nsu::nsu_sheet_in(tx.read(), character)?, scouted })
    })
}

/// A record with a new sheet, as a new revision.
fn bump(before: &CharacterRecord, sheet: Sheet) -> CharacterRecord {
    let mut after = CharacterRecord { nsu: Some(sheet), ..before.clone() };
    after.character.revision += 1;
    after.character.updated_at = now();
    after
}

/// The settled rolls of a game, or of one character, newest first.
pub fn nsu_roll_log(store: &Store, game: Uuid, character: Option<Uuid>, limit: u32) -> Result<Vec<RollLogEntry>> {
    nsu_roll_log_within(store.read(), game, character, (0, i64::MAX), limit)
}

/// [`nsu_roll_log`] after event `within.0` and up to event `within.1` (a journal session's).
pub(crate) fn nsu_roll_log_within(
    read: Reader<'_>,
    game: Uuid,
    character: Option<Uuid>,
    within: (i64, i64),
    limit: u32,
) -> Result<Vec<RollLogEntry>> {
    let events = read.events_of_kind_within(game, character, EventKind::NsuRollResolved, within, limit)?;
    let written = outcomes_written(read, game, character)?;
    events
        .into_iter()
        .map(|(event, undone)| {
            let mut record: RollRecord = serde_json::from_value(event.payload["roll"].clone())
                .map_err(|e| Error::invalid("event log", format!("roll {} cannot be read: {e}", event.seq)))?;
            if let Some(text) = written.get(&event.seq) {
                record.roll.setup.desired_outcome = text.clone();
            }
            let outcome_to_write = record.roll.setup.desired_outcome == OUTCOME_TO_BE_WRITTEN;
            let name_of = |v: &serde_json::Value| v["name"].as_str().unwrap_or_default().to_owned();
            let helper_name = match record.helper {
                Some(id) => Some(read.character(id)?.map(|c| c.name).unwrap_or_else(|| "(deleted)".into())),
                None => record.roll.help.as_ref().and_then(|h| h.name.clone()),
            };
            Ok(RollLogEntry {
                at: crate::model::timestamp(event.at),
                character_id: event.character_id.unwrap_or_default(),
                character_name: name_of(&event.payload["after"]),
                helper_name,
                record,
                event_id: event.seq,
                undone,
                outcome_to_write,
            })
        })
        .collect()
}

/// The desired outcomes written later, by the settled roll's event: the newest for each.
fn outcomes_written(read: Reader<'_>, game: Uuid, character: Option<Uuid>) -> Result<HashMap<i64, String>> {
    let mut written = HashMap::new();
    // Newest first: the first one met for a roll is the one that stands.
    for (event, _) in read.events_of_kind(game, character, EventKind::NsuRollOutcomeWritten, u32::MAX)? {
        let (Some(roll), Some(text)) = (event.payload["roll"].as_i64(), event.payload["outcome"].as_str()) else {
            continue;
        };
        written.entry(roll).or_insert_with(|| text.to_owned());
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::nsu::choices::approaches;
    use crate::rules::nsu::roll::AtRisk;
    use crate::rules::nsu::sheet::{Aspects, Mood};
    use crate::services::{create_character, create_game, save_nsu_sheet};

    #[test]
    fn the_approaches_are_the_rules_approaches_for_the_stored_sheet() {
        let dir = tempfile::tempdir().expect("a folder");
        let mut store = Store::open(&dir.path().join("t.db")).expect("a store");
        let game = create_game(&mut store, "Brackwater", "nsu").expect("a game").game.id;
        let wren = create_character(&mut store, game, "Wren").expect("a character").id;
        let mut sheet =
            Sheet { aspects: Some(Aspects { body: Die::D6, mind: Die::D8, heart: Die::D4 }), ..Sheet::default() };
        sheet.moods[0] = Some(Mood { name: "Curious".into(), level: 3, overloaded: false });
        sheet.moods[2] = Some(Mood { name: "Wary".into(), level: 5, overloaded: true });
        let sheet = save_nsu_sheet(&mut store, wren, sheet).expect("the sheet").sheet;

        let setup = RollSetup::new("", Aspect::Mind, AtRisk::World, MoodChoice::New { line: 5, name: String::new() });
        for helper in [None, Some((Die::D6, Edge::Disadvantage))] {
            let shown =
                nsu_roll_approaches(&store, wren, &setup, helper.map(|h| h.0), helper.map_or(Edge::None, |h| h.1))
                    .expect("the approaches");
            let rules = approaches(&sheet, &setup, helper).expect("the rules' approaches");
            assert_eq!(shown.len(), 18, "three aspects, six mood lines");
            for (view, rule) in shown.iter().zip(&rules) {
                assert_eq!((view.aspect, view.mood_line, view.new_mood), (rule.aspect, rule.mood_line, rule.new_mood));
                assert_eq!(view.plan, rule.plan);
                assert_eq!(view.odds, OddsView::from(rule.odds.clone()));
                assert_eq!((view.best, view.best_for_aspect), (rule.best, rule.best_for_aspect));
                assert_eq!(view.unavailable, None, "no downtime, no final box waiting");
            }
        }
        assert!(nsu_roll_approaches(&store, Uuid::new_v4(), &setup, None, Edge::None).is_err(), "no such character");
    }
}
