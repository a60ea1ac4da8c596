//! A Made-It-By roll through the services (RULES.md §4.3): its exact odds before the dice
//! (with every modifier, the combat advantages held against the roller included), then each
//! step as one logged Scattershot move — start (solo or contested), the 2d10 rolled in the
//! app or typed in, experience dice from any character's pool or the Gamemaster's stock with
//! their roller choosing to add or subtract (a bidding war), the end of the Decision Phase
//! (which pays the dice), complications, benefits, and the conclusion.
//!
//! The roll on the table lives in the event log (see `scattershot`): every step is undoable
//! and undoing it puts the roll back as it was.
//!
//! Rulings:
//! - (audit #1) A concluded roll aimed at a character's resource takes
//!   MIB × Factor from it at once, at the end of the Application Phase, also during
//!   mechanical play (the target's Hit Points drop while the fight goes on). Undoing the
//!   conclusion gives the resource back.
//! - (audit D-SC2) Only the penalty a reduced resource gives (a table setting: at or below
//!   some % of its maximum, −N to every roll) waits for the lull: a combatant plays with
//!   the penalty it had when mechanical play began; outside it, the penalty follows the
//!   resources at once.
//! - (audit #6) A contest may also name a resistor's target on the actor's side: a negative
//!   final RMIB takes |RMIB| × Factor from it, the same way.
//! - (audit D-SC6) A contest names one to five resistors. Ruling: a Telling Blow's
//!   complications (or a Catastrophic Failure's benefits) go to the resistor whose MIB
//!   counted (the best; the first listed among equals), else to the target; a negative
//!   RMIB's result goes to the one resistor's target the roll names.
//! - The Factor is read on the table's UE chart at the action's Magnitude (when the roll
//!   names one), Points and Bonus at the final MIB; facets typed for the roll override the
//!   chart.
//! - Every residual modifier on a character's sheet is added to its rolls while it lasts.
//! - (audit D-SC5) A side may roll a listed skill its character has not bought at the
//!   listing's default (`Rating::Default`): the odds use the default rating, and the
//!   default's Opportunity restriction is in the preview and in the log line that starts the
//!   roll. A listing with no default, or a skill bought, is refused.
//! - (audit #17) A side marked as a Last-Ditch Dodge rolls at −2; a Catastrophic Failure
//!   concluded during mechanical play upsets every advantage its actor held.

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::TableSettings;
use crate::rules::record::CharacterRecord;
use crate::rules::scattershot::made_it_by::{
    Action, Facets, Juncture, MibEvent, MibRoll, Party, Phase, Reading, ResourceResult, RollSetup, Sign, MAX_RESISTORS,
    MAX_TARGET,
};
use crate::rules::scattershot::mechanical_play::MechanicalPlay;
use crate::rules::scattershot::odds::{contest_odds_many, mib_odds, MibOdds, Opposing};
use crate::rules::scattershot::sheet::{Lasts, Rating};
use crate::rules::scattershot::skill_listings::{self, Defaulted, SkillListing};
use crate::rules::scattershot::table as sc_table;
use crate::rules::scattershot::ue_chart::{self, UeRow};
use crate::rules::scattershot::{stock_of, Settings};
use crate::services::characters::records;
use crate::services::dice::{with_dice, DiceInput};
use crate::services::scattershot::{change, scattershot_game, ScattershotChange, Work};
use crate::store::Store;

use super::roll_state::lasts_words;
pub use super::roll_state::{RollState, RollView, Target};

/// One side of a roll as the UI sends it: a character's rating from its sheet, a rating
/// typed in (`value`), or — for a resistor who is not on this device — the MIB they rolled
/// (`rolled`), with the situation's modifier and the advantages or disadvantages
/// whose residual modifiers apply.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDraft {
    #[serde(default)]
    pub character: Option<Uuid>,
    #[serde(default)]
    pub rating: Option<Rating>,
    #[serde(default)]
    pub value: Option<i32>,
    /// The resistor's basic MIB as rolled elsewhere (another player's device) and typed in:
    /// no rating is needed and no 2d10 are rolled for it here.
    #[serde(default)]
    pub rolled: Option<i32>,
    /// Indices into the character's advantages and disadvantages.
    #[serde(default)]
    pub qualities: Vec<usize>,
    /// The situation's modifier.
    #[serde(default)]
    pub modifier: i32,
    #[serde(default)]
    pub description: String,
    /// A Last-Ditch Dodge: −2, applied by the app.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last_ditch_dodge: bool,
}

/// What a Last-Ditch Dodge takes off the roll.
pub const LAST_DITCH_DODGE: i32 = -2;

/// A roll as the UI asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollRequest {
    pub actor: SideDraft,
    /// The resistors, in a contested roll (audit D-SC6: one or more; older requests name
    /// one, or none, as `resistor`).
    #[serde(default, alias = "resistor", deserialize_with = "crate::rules::scattershot::one_or_many")]
    pub resistors: Vec<SideDraft>,
    /// Factor, Points and Bonus typed for this roll; left out, they come from the table's
    /// UE chart (or its defaults).
    #[serde(default)]
    pub facets: Option<Facets>,
    /// The action's Magnitude rating, at which the UE chart gives its Factor.
    #[serde(default)]
    pub magnitude: Option<i32>,
    #[serde(default)]
    pub target: Option<Target>,
    /// In a contest: the actor's side's resource a negative RMIB takes from.
    #[serde(default)]
    pub resistor_target: Option<Target>,
}

/// How a side's number is made up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideBreakdown {
    pub character: Option<Uuid>,
    pub name: String,
    pub rating: i32,
    /// The situation's modifier.
    pub situation: i32,
    /// The residual modifiers of the advantages and disadvantages chosen.
    pub residual: i32,
    /// −1 for each combat advantage held against the character in mechanical play.
    pub advantages: i32,
    /// The table's penalty for the character's reduced resources (held from the start of
    /// mechanical play until the lull).
    pub reduced: i32,
    /// The residual modifiers on the character's sheet (a Bonus, a lasting consequence).
    pub temporary: i32,
    /// −2 for a Last-Ditch Dodge, else 0.
    pub dodge: i32,
    /// A listed skill rolled at its default (audit D-SC5): its rating is `rating`, and its
    /// Opportunity restriction is shown before the roll and written in the log.
    pub defaulted: Option<Defaulted>,
    /// All modifiers together.
    pub modifier: i32,
    /// The MIB typed in for a side rolled elsewhere (its rating and modifiers then are 0).
    pub rolled: Option<i32>,
}

/// Exact odds, as probabilities, with the counts they come from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScattershotOdds {
    /// MIB ≥ 0.
    pub success: f64,
    /// MIB ≥ the Critical Juncture (in a contest, only when it counts).
    pub telling_blow: f64,
    /// MIB < −the Critical Juncture.
    pub catastrophic: f64,
    /// (MIB, probability), ascending.
    pub mib: Vec<(i32, f64)>,
    /// The equally likely outcomes every chance counts (100, or 10 000 in a contest), and
    /// how many of them succeed, are Telling Blows, are Catastrophic Failures.
    pub outcomes: u64,
    pub ways: [u64; 3],
}

impl From<MibOdds> for ScattershotOdds {
    fn from(o: MibOdds) -> Self {
        ScattershotOdds {
            success: o.success.probability(),
            telling_blow: o.telling_blow.probability(),
            catastrophic: o.catastrophic.probability(),
            outcomes: o.success.outcomes(),
            ways: [o.success.count(), o.telling_blow.count(), o.catastrophic.count()],
            mib: o.mib.into_iter().map(|(m, c)| (m, c.probability())).collect(),
        }
    }
}

/// What a roll comes to before the dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MibPreview {
    pub actor: SideBreakdown,
    /// Each resistor's, in order.
    pub resistors: Vec<SideBreakdown>,
    pub facets: Facets,
    pub critical_juncture: u32,
    pub odds: ScattershotOdds,
}

/// A side's action and how it is made up. `play` is the mechanical play running, whose
/// combat advantages held against the character lower its rolls.
fn side(
    field: &str,
    draft: &SideDraft,
    characters: &[CharacterRecord],
    play: Option<&MechanicalPlay>,
    settings: &TableSettings,
    listings: &[SkillListing],
) -> Result<(Action, SideBreakdown)> {
    let at = |name: &str| format!("{field}.{name}");
    let record = match draft.character {
        Some(id) => Some(
            characters
                .iter()
                .find(|r| r.character.id == id)
                .ok_or_else(|| Error::invalid(at("character"), format!("{id} is not a character of this game")))?,
        ),
        None => None,
    };
    let sheet = record.map(|r| r.scattershot.clone().unwrap_or_default());
    if let Some(rolled) = draft.rolled {
        if draft.rating.is_some()
            || draft.value.is_some()
            || !draft.qualities.is_empty()
            || draft.modifier != 0
            || draft.last_ditch_dodge
        {
            return Err(Error::invalid(
                at("rolled"),
                "a MIB rolled elsewhere already holds its rating and modifiers: type in the MIB alone",
            ));
        }
        if !(-MAX_TARGET..=MAX_TARGET).contains(&rolled) {
            return Err(Error::invalid(
                at("rolled"),
                format!("{rolled} is out of range: -{MAX_TARGET} to {MAX_TARGET}"),
            ));
        }
        let name = record.map_or_else(|| draft.description.clone(), |r| r.character.name.clone());
        let action = Action { description: draft.description.clone(), rating: 0, modifier: 0, rolled: Some(rolled) };
        let breakdown = SideBreakdown {
            character: draft.character,
            name,
            rating: 0,
            situation: 0,
            residual: 0,
            advantages: 0,
            reduced: 0,
            temporary: 0,
            dodge: 0,
            defaulted: None,
            modifier: 0,
            rolled: Some(rolled),
        };
        return Ok((action, breakdown));
    }
    let mut defaulted = None;
    let rating = match (draft.rating, draft.value, &sheet) {
        (Some(_), Some(_), _) => {
            return Err(Error::invalid(at("value"), "choose a rating from the sheet or type one in, not both"))
        }
        (None, None, _) => return Err(Error::invalid(at("rating"), "choose a rating from the sheet or type one in")),
        (Some(_), None, None) => {
            return Err(Error::invalid(at("character"), "a rating from the sheet needs its character"))
        }
        (Some(Rating::Default { listing }), None, Some(sheet)) => {
            let d = skill_listings::default_rating(listings, sheet, &at("rating"), listing)?;
            let rating = d.rating;
            defaulted = Some(d);
            rating
        }
        (Some(rating), None, Some(sheet)) => sheet.rating(&at("rating"), rating)?,
        (None, Some(value), _) => value,
    };
    let in_range = |name: &str, value: i32| {
        if (-MAX_TARGET..=MAX_TARGET).contains(&value) {
            Ok(())
        } else {
            Err(Error::invalid(at(name), format!("{value} is out of range: -{MAX_TARGET} to {MAX_TARGET}")))
        }
    };
    in_range("value", rating)?;
    in_range("modifier", draft.modifier)?;
    let residual = match (&sheet, draft.qualities.is_empty()) {
        (_, true) => 0,
        (None, false) => return Err(Error::invalid(at("qualities"), "advantages and disadvantages are a character's")),
        (Some(sheet), false) => sheet.residual_modifier(&draft.qualities).map_err(|e| match e {
            Error::Invalid { field, problem } => Error::invalid(at(&field), problem),
            other => other,
        })?,
    };
    let advantages = match (play, draft.character) {
        (Some(play), Some(id)) => play.penalty(id),
        _ => 0,
    };
    // In mechanical play the penalty held since it began; outside it, every moment is a lull.
    let reduced = match (draft.character, &sheet) {
        (Some(id), Some(sheet)) => super::reduced_penalty(play, settings, id, sheet),
        _ => 0,
    };
    let temporary = sheet.as_ref().map_or(0, |s| s.temporary_modifier());
    let dodge = if draft.last_ditch_dodge { LAST_DITCH_DODGE } else { 0 };
    let modifier = draft.modifier + residual + advantages + reduced + temporary + dodge;
    in_range("modifier", modifier)?;
    let name = record.map_or_else(|| draft.description.clone(), |r| r.character.name.clone());
    let action = Action { description: draft.description.clone(), rating, modifier, rolled: None };
    let breakdown = SideBreakdown {
        character: draft.character,
        name,
        rating,
        situation: draft.modifier,
        residual,
        advantages,
        reduced,
        temporary,
        dodge,
        defaulted,
        modifier,
        rolled: None,
    };
    Ok((action, breakdown))
}

/// The setup a request makes, with each side's breakdown.
fn setup(
    request: &RollRequest,
    characters: &[CharacterRecord],
    play: Option<&MechanicalPlay>,
    settings: &TableSettings,
    chart: &[UeRow],
    listings: &[SkillListing],
) -> Result<(RollSetup, SideBreakdown, Vec<SideBreakdown>)> {
    let defaults = sc_table::default_facets(settings);
    let (actor, actor_view) = side("actor", &request.actor, characters, play, settings, listings)?;
    if request.resistors.len() > MAX_RESISTORS {
        return Err(Error::invalid(
            "resistors",
            format!("a contest takes at most {MAX_RESISTORS} resistors, not {}", request.resistors.len()),
        ));
    }
    let (resistors, resistor_views): (Vec<Action>, Vec<SideBreakdown>) = request
        .resistors
        .iter()
        .enumerate()
        .map(|(i, r)| side(&Party::Resistor(i).key(), r, characters, play, settings, listings))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .unzip();
    if let Some(target) = &request.target {
        if !characters.iter().any(|r| r.character.id == target.character) {
            return Err(Error::invalid(
                "target.character",
                format!("{} is not a character of this game", target.character),
            ));
        }
    }
    if let Some(target) = &request.resistor_target {
        if request.resistors.is_empty() {
            return Err(Error::invalid("resistor_target", "only a contested roll has a resistor's result"));
        }
        if !characters.iter().any(|r| r.character.id == target.character) {
            return Err(Error::invalid(
                "resistor_target.character",
                format!("{} is not a character of this game", target.character),
            ));
        }
    }
    if let Some(m) = request.magnitude {
        if !(-ue_chart::MAX_INDEX..=ue_chart::MAX_INDEX).contains(&m) {
            return Err(Error::invalid(
                "magnitude",
                format!("{m} is out of range: -{} to {}", ue_chart::MAX_INDEX, ue_chart::MAX_INDEX),
            ));
        }
    }
    // Facets typed for the roll win; otherwise the chart gives the Factor at the action's
    // Magnitude, and Points and Bonus later at the final MIB.
    let (facets, chart) = match request.facets {
        Some(facets) => (facets, Vec::new()),
        None => {
            let factor = request.magnitude.map_or(defaults.factor, |m| ue_chart::read(chart, m, defaults).factor);
            (Facets { factor, ..defaults }, chart.to_vec())
        }
    };
    let setup = RollSetup { actor, resistors, facets, chart };
    Ok((setup, actor_view, resistor_views))
}

/// What a roll comes to before the dice — each side's rating and modifiers (the combat
/// advantages held against it included) and the exact odds — with nothing saved.
pub fn scattershot_roll_preview(store: &Store, game: Uuid, request: &RollRequest) -> Result<MibPreview> {
    let read = store.read();
    let g = scattershot_game(read, game)?;
    let settings = Settings::from_table(&g.table_settings)?;
    let table = read.scattershot_table(game)?;
    let characters = records(read, game)?;
    let (setup, actor, resistors) =
        setup(request, &characters, table.play.as_ref(), &g.table_settings, &table.ue_chart, &table.skill_listings)?;
    let cj = settings.critical_juncture;
    let a = (setup.actor.rating, setup.actor.modifier);
    let odds = if setup.resistors.is_empty() {
        mib_odds(a.0, a.1, cj)?
    } else {
        let opposing: Vec<Opposing> = setup
            .resistors
            .iter()
            .map(|r| match r.rolled {
                Some(mib) => Opposing::Rolled(mib),
                None => Opposing::Rolls(r.rating, r.modifier),
            })
            .collect();
        contest_odds_many(a, &opposing, cj)?
    };
    Ok(MibPreview { actor, resistors, facets: setup.facets, critical_juncture: cj, odds: odds.into() })
}

/// A step of a roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case", deny_unknown_fields)]
pub enum RollMove {
    /// Puts a new roll on the table (the last one, if concluded, goes).
    Start {
        request: Box<RollRequest>,
    },
    /// Rolls a party's 2d10.
    Dice {
        party: Party,
    },
    /// Rolls an experience die from `contributor`'s stock into `party`'s MIB: a player's (by
    /// the player's id, or by any character they play), a character's with no player, or the
    /// game's id for the Gamemaster's stock.
    Experience {
        party: Party,
        contributor: Uuid,
    },
    /// The experience die just rolled is added or subtracted.
    Sign {
        sign: Sign,
    },
    /// Ends the Decision Phase: the experience dice are paid from their pools.
    Decide,
    Complications {
        party: Party,
        count: u32,
    },
    Benefits {
        party: Party,
        count: u32,
    },
    /// Reads the final number; a result aimed at a resource lands at once.
    Conclude,
    /// The actor's player splits a Telling Blow's or Catastrophic Failure's points.
    Juncture {
        to_actor: u32,
        to_subject: u32,
    },
    /// Records the concluded success's Bonus on the actor as a residual modifier.
    RecordBonus {
        #[serde(default)]
        lasts: Lasts,
    },
    /// Takes the roll off the table (before the Decision Phase ends nothing was paid).
    Abandon,
    /// One tap from the set-up to as far as the rules leave nothing to decide (issue 32): the
    /// roll starts and every 2d10 it needs is rolled here; when no pool at the table holds an
    /// experience die (nobody may bid) the Decision Phase ends, and when neither side may then
    /// take a complication or spend a benefit the roll concludes. One undoable move.
    Quick {
        request: Box<RollRequest>,
    },
    /// Ends the Decision Phase and concludes at once, with no complications taken and no
    /// benefits spent: the table's choice to let the number stand. One undoable move.
    Settle,
}

fn party_word(party: Party) -> String {
    match party {
        Party::Actor => "the actor".to_owned(),
        Party::Resistor(0) => "the resistor".to_owned(),
        Party::Resistor(i) => format!("resistor {}", i + 1),
    }
}

fn reading_words(reading: Reading) -> &'static str {
    match reading {
        Reading::CatastrophicFailure => "a Catastrophic Failure",
        Reading::Failure => "a failure",
        Reading::Success => "a success",
        Reading::TellingBlow => "a Telling Blow",
    }
}

/// Plays one step of the roll on the table, as one undoable move. Dice come from `dice`:
/// rolled with `rng`, or typed in (two values for a 2d10, one for an experience die).
pub fn scattershot_roll<R: Rng>(
    store: &mut Store,
    game: Uuid,
    step: &RollMove,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<ScattershotChange> {
    change(store, game, |w| play(w, step, dice, rng))
}

/// Whether a side of the roll on the table still waits for its 2d10 (a side rolled elsewhere
/// never does).
fn waits_for_dice(w: &Work<'_>, party: Party) -> Result<bool> {
    let state = on_table(w)?;
    Ok(state.roll.party(party).is_ok_and(|p| p.dice.is_none() && p.action.rolled.is_none()))
}

/// One step of the roll on the work, in words.
fn play<R: Rng>(w: &mut Work<'_>, step: &RollMove, dice: &DiceInput, rng: &mut R) -> Result<String> {
    match step {
        RollMove::Quick { request } => {
            if !matches!(dice, DiceInput::Rolled) {
                return Err(Error::invalid("dice", "a quick roll rolls its dice here; start the roll to type dice in"));
            }
            let mut said = vec![play(w, &RollMove::Start { request: request.clone() }, dice, rng)?];
            let parties: Vec<Party> = on_table(w)?.roll.parties().map(|(p, _)| p).collect();
            for &party in &parties {
                if waits_for_dice(w, party)? {
                    said.push(play(w, &RollMove::Dice { party }, dice, rng)?);
                }
            }
            if w.pools().values().all(|&n| n == 0) {
                said.push(play(w, &RollMove::Decide, dice, rng)?);
                let state = on_table(w)?;
                let nothing =
                    parties.iter().all(|&p| state.roll.room(p).is_none_or(|r| r.complications == 0 && r.benefits == 0));
                if nothing {
                    said.push(play(w, &RollMove::Conclude, dice, rng)?);
                }
            }
            Ok(said.join(" "))
        }
        RollMove::Settle => {
            let decided = play(w, &RollMove::Decide, dice, rng)?;
            let concluded = play(w, &RollMove::Conclude, dice, rng)?;
            Ok(format!("{decided} {concluded}"))
        }
        RollMove::Start { request } => {
            if let Some(state) = &w.roll {
                if state.roll.phase != Phase::Done {
                    return Err(Error::invalid("roll", "a roll is on the table; conclude or abandon it first"));
                }
            }
            let settings = w.rules()?;
            let chart = w.table.ue_chart.clone();
            let listings = w.table.skill_listings.clone();
            let (setup, actor, resistors) =
                setup(request, &w.characters(), w.table.play.as_ref(), &w.settings, &chart, &listings)?;
            let (roll, events) = MibRoll::start(&setup, &settings)?;
            w.note(&events);
            w.roll = Some(RollState {
                roll,
                actor: request.actor.character,
                resistors: request.resistors.iter().map(|r| r.character).collect(),
                target: request.target,
                result: None,
                result_waits: false,
                resistor_target: request.resistor_target,
                resistor_result: None,
                bonus_recorded: false,
            });
            let against: Vec<String> = resistors
                .iter()
                .map(|r| {
                    let who = if r.name.is_empty() { "someone elsewhere" } else { r.name.as_str() };
                    match r.rolled {
                        Some(mib) => format!("{who}, who made it by {mib}"),
                        None => format!("{who} ({}{})", r.rating + r.modifier, by_default(r)),
                    }
                })
                .collect();
            let against = if against.is_empty() { String::new() } else { format!(" against {}", and_list(&against)) };
            let who = if actor.name.is_empty() { "Someone".to_owned() } else { actor.name.clone() };
            Ok(format!("{who} rolls at {} {:+}{}{against}.", actor.rating, actor.modifier, by_default(&actor)))
        }
        RollMove::Dice { party } => {
            let roll = step_live_roll(w, |roll| with_dice(dice, rng, |src| roll.roll_dice(*party, src)))?;
            let faces = roll.party(*party)?.dice.unwrap_or_default();
            let basic = roll.party(*party)?.basic_mib().unwrap_or_default();
            Ok(format!("2d10 for {}: {} and {} (MIB {basic}).", party_word(*party), faces[0], faces[1]))
        }
        RollMove::Experience { party, contributor } => {
            live(&on_table(w)?)?;
            let contributor = &if *contributor == w.game.id || w.table.player(*contributor).is_some() {
                *contributor
            } else {
                w.character("contributor", *contributor)?;
                stock_of(&w.stocks(), *contributor)
            };
            let pools = w.pools();
            let roll = step_live_roll(w, |roll| {
                with_dice(dice, rng, |src| roll.add_experience_die(*party, *contributor, &pools, src))
            })?;
            let face = roll.party(*party)?.experience.last().map_or(0, |d| d.face);
            Ok(format!(
                "{} rolls an experience die for {}: {face}.",
                capital(&w.name(*contributor)),
                party_word(*party)
            ))
        }
        RollMove::Sign { sign } => {
            let roll = step_live_roll(w, |roll| roll.choose_sign(*sign))?;
            let mib = roll.basic().map_or(String::new(), |m| format!(" (MIB {m})"));
            let how = match sign {
                Sign::Add => "added",
                Sign::Subtract => "subtracted",
            };
            Ok(format!("The experience die is {how}{mib}."))
        }
        RollMove::Decide => {
            let mut state = on_table(w)?;
            live(&state)?;
            let pools = w.pools();
            let (roll, pools, events) = state.roll.decide(&pools)?;
            w.set_pools(&pools)?;
            w.note(&events);
            let auto = roll.automatic_benefits;
            state.roll = roll;
            let mib = state.roll.mib().unwrap_or_default();
            w.roll = Some(state);
            let auto = if auto > 0 {
                format!("; {auto} point(s) above the Critical Juncture go to benefits")
            } else {
                String::new()
            };
            Ok(format!("The Decision Phase ends at {mib}{auto}."))
        }
        RollMove::Complications { party, count } => {
            let mib = step_live_roll(w, |roll| roll.buy_complications(*party, *count))?.mib().unwrap_or_default();
            Ok(format!("{} takes {count} complication(s): the MIB is {mib}.", capital(&party_word(*party))))
        }
        RollMove::Benefits { party, count } => {
            let mib = step_live_roll(w, |roll| roll.spend_benefits(*party, *count))?.mib().unwrap_or_default();
            Ok(format!("{} spends {count} point(s) on benefits: the MIB is {mib}.", capital(&party_word(*party))))
        }
        RollMove::Conclude => {
            let mut state = on_table(w)?;
            live(&state)?;
            let (roll, events) = state.roll.conclude()?;
            w.note(&events);
            let outcome = roll.outcome.expect("concluded");
            let mut message = format!("The roll ends at {}: {}.", outcome.mib, reading_words(outcome.reading));
            if let Some(target) = state.target {
                let result = roll.resource_result(target.character, target.resource)?;
                land(w, "target.character", result, &mut message)?;
                state.result = Some(result);
            }
            if let Some(target) = state.resistor_target {
                let result = roll.resistor_result(target.character, target.resource)?;
                land(w, "resistor_target.character", result, &mut message)?;
                state.resistor_result = Some(result);
            }
            if let (Reading::CatastrophicFailure, Some(play), Some(actor)) =
                (outcome.reading, &w.table.play, state.actor)
            {
                let (play, events) = play.upset_by_mistake(actor);
                if !events.is_empty() {
                    message.push_str(&format!(" An upset: {} loses every advantage it held.", w.name(actor)));
                    w.note(&events);
                    w.table.play = Some(play);
                }
            }
            if outcome.juncture_points > 0 {
                message.push_str(&format!(
                    " {} point(s) to account for: the actor's player chooses where they go.",
                    outcome.juncture_points
                ));
            }
            state.roll = roll;
            w.roll = Some(state);
            Ok(message)
        }
        RollMove::Juncture { to_actor, to_subject } => {
            let mut state = on_table(w)?;
            let (roll, events) =
                state.roll.account_juncture(Juncture { to_actor: *to_actor, to_subject: *to_subject })?;
            w.note(&events);
            let reading = roll.outcome.expect("concluded").reading;
            let subject = state.subject().map_or_else(|| "the subject".to_owned(), |id| w.name(id));
            let actor = state.actor.map_or_else(|| "the actor".to_owned(), |id| w.name(id));
            state.roll = roll;
            w.roll = Some(state);
            Ok(if reading == Reading::TellingBlow {
                format!("Telling Blow: {to_actor} benefit(s) for {actor}, {to_subject} complication(s) for {subject}.")
            } else {
                format!(
                        "Catastrophic Failure: {to_actor} complication(s) for {actor}, {to_subject} benefit(s) for {subject}."
                    )
            })
        }
        RollMove::RecordBonus { lasts } => {
            let mut state = on_table(w)?;
            let bonus = state
                .roll
                .residual_bonus()
                .ok_or_else(|| Error::invalid("roll", "only a concluded success leaves a residual Bonus"))?;
            if bonus == 0 {
                return Err(Error::invalid("roll", "the UE chart gives this result a Bonus of 0"));
            }
            if state.bonus_recorded {
                return Err(Error::invalid("roll", "this result's Bonus is recorded already"));
            }
            let actor = state.actor.ok_or_else(|| Error::invalid("actor", "the actor has no sheet here"))?;
            let description = state.roll.actor.action.description.trim();
            let mib = state.roll.outcome.map_or(0, |o| o.mib);
            let text = if description.is_empty() {
                format!("Bonus of a result (MIB {mib})")
            } else {
                format!("Bonus: {}", description.chars().take(150).collect::<String>())
            };
            let value = i32::try_from(bonus).unwrap_or(i32::MAX);
            let (sheet, events) = w.sheet("actor", actor)?.add_modifier(&text, value, *lasts)?;
            w.note(&events);
            w.set_sheet(actor, sheet);
            state.bonus_recorded = true;
            w.roll = Some(state);
            Ok(format!("{} keeps a residual modifier of +{bonus} ({}).", w.name(actor), lasts_words(*lasts)))
        }
        RollMove::Abandon => {
            let state = on_table(w)?;
            w.roll = None;
            Ok(match state.roll.phase {
                Phase::Decision => "The roll is abandoned; no experience dice were paid.".into(),
                Phase::Application => "The roll is abandoned; the experience dice stay paid.".into(),
                Phase::Done => "The concluded roll is cleared from the table.".into(),
            })
        }
    }
}

/// The roll on the table, in progress or concluded.
fn on_table(w: &Work<'_>) -> Result<RollState> {
    w.roll.clone().ok_or_else(|| Error::invalid("roll", "no roll is on the table; start one first"))
}

/// Refused when the roll on the table is concluded.
fn live(state: &RollState) -> Result<()> {
    if state.roll.phase == Phase::Done {
        Err(Error::invalid("roll", "the roll on the table is concluded; start a new one"))
    } else {
        Ok(())
    }
}

/// One step of the rules on the roll in progress: `step` makes the next roll, whose events
/// are noted and which goes back on the table. Returns the next roll.
fn step_live_roll(
    w: &mut Work<'_>,
    step: impl FnOnce(&MibRoll) -> Result<(MibRoll, Vec<MibEvent>)>,
) -> Result<MibRoll> {
    let mut state = on_table(w)?;
    live(&state)?;
    let (roll, events) = step(&state.roll)?;
    w.note(&events);
    state.roll = roll.clone();
    w.roll = Some(state);
    Ok(roll)
}

/// A result lands on its target's resource at once (nothing from 0).
fn land(w: &mut Work<'_>, field: &str, result: ResourceResult, message: &mut String) -> Result<()> {
    if result.amount == 0 {
        return Ok(());
    }
    let sheet = w.sheet(field, result.target)?;
    let (sheet, events) = sheet.apply_results(result.target, &[result])?;
    w.note(&events);
    w.set_sheet(result.target, sheet);
    let word = result.resource.statistic().word();
    message.push_str(&format!(" {} loses {} {word}.", w.name(result.target), result.amount));
    Ok(())
}

/// ", Climbing by default (only with a rope to hand)" for a side rolling a listed skill at its
/// default, else nothing.
fn by_default(side: &SideBreakdown) -> String {
    side.defaulted.as_ref().map_or(String::new(), |d| format!(", {} by default ({})", d.skill, d.restriction))
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
