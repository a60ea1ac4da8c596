//! Mezzo action checks at the table (RULES.md §3.3): the votes and spends cast, their exact
//! odds shown live, the roll, the Sudden Surges bought after it, and the result — paid and
//! logged in one move — with a tie broken by d12s or settled by a compromise. Contested
//! actions (a side per acting element) take the same steps.
//!
//! A check takes two moves with the dice in between, kept in the event log:
//! 1. [`mezzo_check_roll`] builds the check from a [`CheckRequest`] (as
//!    [`mezzo_check_preview`] does), rolls its dice and appends a `mezzo_check_rolled` game
//!    event holding the whole check. Nothing is paid or awarded, and the table does not
//!    change. The pending check is the game's latest live game-level event when it is a
//!    `mezzo_check_rolled` ([`mezzo_check_pending`]): `undo_game` takes it off the table.
//! 2. [`mezzo_check_resolve`] takes the Sudden Surges, gives the first-check edge slots, pays
//!    every spend (adversity debt where the caster allowed it) and compares the scores: one
//!    `mezzo_table_changed` move, undone by `undo_game` — which puts the rolled check back on
//!    the table, waiting to be resolved again.
//!
//! A tie: the resolution is paid and logged as above, and in the same transaction the tied
//! check is appended as a new `mezzo_check_rolled` event (phase `tied`): it is the pending
//! check until [`mezzo_check_break_tie`] or [`mezzo_check_compromise`] settles it with a
//! `mezzo_table_changed` move of words only. Undo walks back one step at a time: the
//! settlement (the tie is pending again), the tie (off the table; the paid resolution stays),
//! the resolution (the rolled check is pending again), the roll.
//!
//! Rulings:
//! - The first-check award (4 edge slots to every element taking part that never had an
//!   action check) is saved with the resolution, not with the roll, so that the roll changes
//!   nothing and its undo only takes the dice away. The preview and the roll count the slots
//!   already (the rules give them at the start). To fill the new slots for this very check,
//!   award them first (`mezzo_award_edge_slots`, first action check; the window's "Give the
//!   slots now"): the check then gives none.
//! - When no check is needed (one side left after the negligible ones drop), the preview says
//!   which side takes effect; nothing may be cast, and there is nothing to roll or log.
//! - Any other game-level move made while a check is pending (a table move, a conflict, an
//!   import) sets the check aside: it is no longer the latest live event. Undoing that move
//!   brings the check back. Spends are checked again when the check resolves, against the
//!   players and elements as they are then.
//! - D6 variant (the table's [`Variant`], read when the check is built): the roll gives each
//!   side its first d6. While an owner may burst, [`mezzo_check_burst`] takes every open
//!   choice at once (burst or keep; the view lists the app's suggestion, the bursts that raise
//!   the expected score) and rolls the rerolls; it is logged as a new `mezzo_check_rolled`
//!   event, so undo takes the choices back and leaves the first roll. Surges and the result
//!   wait for it.
//! - Typed-in tiebreak dice are used a round at a time (a d12 per tied side): values that
//!   end on a round still tied leave the tie pending, with those rounds logged; a value left
//!   over after the winner is refused.

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::now;
use crate::rules::dice::{Entered, Rolled};
use crate::rules::mezzo::action_check::{
    self as rules, ActionCheck, BaseChance, Cast, CheckEvent, CheckSetup, Outcome, Phase, ScopePerk, SideDice,
    SideKind, SideSetup, Sources, Surge, Tally,
};
use crate::rules::mezzo::choices;
use crate::rules::mezzo::conflict::Variant;
use crate::rules::mezzo::element::{self, Element, Player, SlotAward};
use crate::rules::mezzo::odds::Fraction;
use crate::rules::mezzo::open_check::OpenCheck;
use crate::rules::odds::Chance;
use crate::services::dice::{with_dice, DiceInput};
use crate::services::mezzo::conflict::{BurstOdds, NextVoteOdds};
use crate::services::mezzo::{change, change_in, participants, MezzoChange};
use crate::store::{Event, EventKind, NewEvent, Reader, Store, Tx};

/// The most tiebreak rounds the app rolls in one call (a tie left after them stays pending).
const MAX_TIE_ROUNDS: usize = 100;

/// An action check as the table sets it up (the app gives it its id).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckDraft {
    /// What is being attempted.
    #[serde(default)]
    pub description: String,
    /// The acting elements' actions and the failure side, each with its base chance.
    pub sides: Vec<SideSetup>,
    /// Other elements taking part (targets, obstacles).
    #[serde(default)]
    pub involved: Vec<Uuid>,
}

/// A scope perk bought by a side, after every vote is cast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerkPurchase {
    pub side: usize,
    pub perk: ScopePerk,
}

/// Everything cast before the roll: the setup, the votes and spends in order, the perks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    pub setup: CheckDraft,
    #[serde(default)]
    pub casts: Vec<Cast>,
    #[serde(default)]
    pub perks: Vec<PerkPurchase>,
}

/// An exact chance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckOdds {
    pub probability: f64,
    /// The exact fraction, "numerator/denominator".
    pub exact: String,
}

impl From<Chance> for CheckOdds {
    fn from(c: Chance) -> Self {
        CheckOdds { probability: c.probability(), exact: format!("{}/{}", c.count(), c.outcomes()) }
    }
}

impl From<Fraction> for CheckOdds {
    fn from(f: Fraction) -> Self {
        CheckOdds { probability: f.probability(), exact: format!("{}/{}", f.numerator(), f.denominator()) }
    }
}

/// An acting element's chance that its action takes effect.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElementOdds {
    pub element: Uuid,
    pub side: usize,
    #[serde(flatten)]
    pub odds: CheckOdds,
}

/// What a request comes to before anything is rolled or paid.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckPreview {
    /// The check as built (phase `votes` or `perks`; `done` when no check is needed).
    pub check: ActionCheck,
    /// How each side's votes add up.
    pub tallies: Vec<Tally>,
    /// The dice each side would roll (None: negligible, or no check needed).
    pub dice: Vec<Option<SideDice>>,
    /// Each side's exact chance of taking effect, a tie split evenly.
    pub odds: Vec<CheckOdds>,
    /// Each acting element's chance of success.
    pub success: Vec<ElementOdds>,
    /// Each side's chance with one more vote on it (issue 34; empty when no check is needed).
    pub next_vote: Vec<NextVoteOdds>,
    /// The side that takes effect without a roll, when no check is needed.
    pub no_check_needed: Option<usize>,
    /// The elements the check gives their 4 first-check edge slots (when it resolves).
    pub first_check_awards: Vec<Uuid>,
    /// In words: "No check is needed: …", or the sides and their dice.
    pub summary: String,
}

/// The check on the table: rolled and waiting for its Sudden Surges and result, or tied.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PendingCheck {
    pub check: ActionCheck,
    pub tallies: Vec<Tally>,
    /// Each side's highest face (None: negligible); the score adds the Sudden Surges.
    pub rolled: Vec<Option<u32>>,
    /// The sides tied now (empty unless the check is tied).
    pub tied: Vec<usize>,
    /// D6 variant: the sides whose owner may still burst (decide with [`mezzo_check_burst`]
    /// before the Sudden Surges and the result).
    pub open_bursts: Vec<usize>,
    /// Of those, the bursts the app suggests: they raise the expected score.
    pub suggested_bursts: Vec<usize>,
    /// For each of those, the chance to take effect kept and burst (issue 34).
    pub burst_odds: Vec<BurstOdds>,
    /// What was rolled (or the tie), in words.
    pub summary: String,
}

/// How a step of a check ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckResult {
    pub check: ActionCheck,
    /// The side that took effect (None: tied, or a compromise).
    pub winner: Option<usize>,
    /// The sides tied now: the check stays pending for a tiebreak or a compromise.
    pub tied: Vec<usize>,
    pub summary: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckOutcome {
    pub change: MezzoChange,
    pub result: CheckResult,
}

/// The payload of a `mezzo_check_rolled` event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(in crate::services) struct Pending {
    /// What was rolled, in words.
    action: String,
    pub(in crate::services) check: ActionCheck,
    /// The owners' burst choices (D6 variant), logged after the first roll.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    bursts: bool,
}

// ---------------------------------------------------------------------------------------
// Building a check

/// An invalid field's path under `prefix` (`casts[2]` + `side` → `casts[2].side`); the
/// move's own name ("cast", "surge") is the item itself.
fn under(prefix: &str) -> impl Fn(Error) -> Error + '_ {
    move |e| match e {
        Error::Invalid { field, problem } => {
            let field =
                if field == "cast" || field == "surge" { prefix.to_owned() } else { format!("{prefix}.{field}") };
            Error::Invalid { field, problem }
        }
        other => other,
    }
}

/// `elements` with `changed` in place of the ones with the same id.
pub(in crate::services) fn merged(elements: &[Element], changed: &[Element]) -> Vec<Element> {
    elements.iter().map(|e| changed.iter().find(|c| c.id == e.id).unwrap_or(e).clone()).collect()
}

pub(in crate::services) struct Built {
    pub(in crate::services) check: ActionCheck,
    /// The elements as the check sees them (the first-check slots given).
    pub(in crate::services) elements: Vec<Element>,
    pub(in crate::services) awards: Vec<Uuid>,
}

/// The check a request describes: started, every cast cast and every perk bought, each
/// checked by the rules against the players and elements as they are.
pub(in crate::services) fn build(
    request: &CheckRequest,
    id: Uuid,
    players: &[Player],
    elements: &[Element],
    variant: Variant,
    sources: &Sources,
) -> Result<Built> {
    let d = &request.setup;
    let setup =
        CheckSetup { id, description: d.description.clone(), sides: d.sides.clone(), involved: d.involved.clone() };
    let (mut check, awarded, _) = rules::start_with(&setup, variant, elements).map_err(under("setup"))?;
    let elements = merged(elements, &awarded.elements);
    if let Some(Outcome::NoCheckNeeded { winner }) = check.outcome {
        let why = format!("no check is needed: side {winner} takes effect, so nothing is cast or bought");
        if !request.casts.is_empty() {
            return Err(Error::invalid("casts", why));
        }
        if !request.perks.is_empty() {
            return Err(Error::invalid("perks", why));
        }
    }
    for (i, c) in request.casts.iter().enumerate() {
        check = rules::cast(&check, c, players, &elements, sources).map_err(under(&format!("casts[{i}]")))?.0;
    }
    for (i, p) in request.perks.iter().enumerate() {
        check = rules::buy_perk(&check, p.side, p.perk).map_err(under(&format!("perks[{i}]")))?.0;
    }
    Ok(Built { check, elements, awards: awarded.elements.iter().map(|e| e.id).collect() })
}

// ---------------------------------------------------------------------------------------
// Words

fn element_name(elements: &[Element], id: Uuid) -> String {
    elements.iter().find(|e| e.id == id).map_or_else(|| "An element no longer at the table".into(), |e| e.name.clone())
}

/// "Mira (“climbs the wall”)", "Failure (“she falls”)".
fn side_name(check: &ActionCheck, side: usize, elements: &[Element]) -> String {
    let Some(s) = check.sides.get(side) else { return format!("side {side}") };
    side_words(s.kind, &s.description, elements)
}

/// A side of kind `kind` described as `description`, in words.
fn side_words(kind: SideKind, description: &str, elements: &[Element]) -> String {
    let who = match kind {
        SideKind::Action { element } => element_name(elements, element),
        SideKind::Failure => "Failure".into(),
    };
    if description.is_empty() {
        who
    } else {
        format!("{who} (“{description}”)")
    }
}

fn title(check: &ActionCheck) -> String {
    if check.description.is_empty() {
        "Action check".into()
    } else {
        format!("Action check “{}”", check.description)
    }
}

fn chance_word(c: BaseChance) -> &'static str {
    match c {
        BaseChance::Negligible => "negligible",
        BaseChance::Occasional => "occasional",
        BaseChance::Common => "common",
    }
}

fn dice_word(side: &SideDice) -> String {
    if let Some(die) = side.d6 {
        return match die.threshold {
            0 => format!("d6 ×{}", die.multiplier),
            t => format!("d6 ×{}, may burst on {}", die.multiplier, if t == 1 { "1".into() } else { format!("1–{t}") }),
        };
    }
    let dice = &side.dice;
    if dice.is_empty() {
        "no dice".into()
    } else {
        dice.iter().map(|d| format!("d{d}")).collect::<Vec<_>>().join(" + ")
    }
}

fn and_list(items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// Each live side and the dice it rolled: "Mira: d6 shows 3; Failure: d4 shows 4."
fn rolled_words(check: &ActionCheck, elements: &[Element]) -> String {
    let mut parts = Vec::new();
    for (i, s) in check.sides.iter().enumerate() {
        let Some(roll) = &s.roll else { continue };
        let dice = if roll.locked_out {
            "every die locked out by restraints, scores 1".to_owned()
        } else if roll.dice.is_empty() {
            "no dice, scores 1".to_owned()
        } else if let Some(d6) = roll.d6 {
            let first = format!("d6 shows {} ×{} = {}", d6.first, d6.multiplier, u32::from(d6.first) * d6.multiplier);
            match (d6.reroll, d6.decided) {
                (Some(r), _) => format!("{first}, bursts: d6 shows {r} ×{} = {}", d6.multiplier + 1, d6.score()),
                (None, false) => format!("{first} (may burst)"),
                (None, true) if d6.first as u32 <= d6.threshold => format!("{first}, kept"),
                (None, true) => first,
            }
        } else {
            let shown = roll.dice.iter().map(|d| format!("d{} shows {}", d.sides, d.face)).collect::<Vec<_>>();
            if shown.len() == 1 {
                shown[0].clone()
            } else {
                format!("{} (highest {})", shown.join(", "), roll.highest)
            }
        };
        parts.push(format!("{}: {dice}", side_name(check, i, elements)));
    }
    format!("{}.", parts.join("; "))
}

/// "Mira 5 (+2 Sudden Surges) against Failure 4".
fn score_words(check: &ActionCheck, sides: &[usize], elements: &[Element]) -> String {
    sides
        .iter()
        .map(|&i| {
            let who = match check.sides[i].kind {
                SideKind::Action { element } => element_name(elements, element),
                SideKind::Failure => "Failure".into(),
            };
            let score = check.sides[i].score.unwrap_or(1);
            let plus = match check.surges_for(i) {
                0 => String::new(),
                1 => " (+1 Sudden Surge)".into(),
                n => format!(" (+{n} Sudden Surges)"),
            };
            let minus = if check.sides[i].specialty_minus { " (−1 Specialty: no minor perk)" } else { "" };
            format!("{who} {score}{plus}{minus}")
        })
        .collect::<Vec<_>>()
        .join(" against ")
}

fn outcome_words(check: &ActionCheck, elements: &[Element]) -> String {
    let live: Vec<usize> = (0..check.sides.len()).filter(|&i| check.sides[i].score.is_some()).collect();
    match (&check.outcome, check.phase) {
        (_, Phase::Tied) => format!(
            "A tie: {}. Break it with a d{} per tied side, or agree a compromise.",
            score_words(check, &check.tied, elements),
            check.variant.tiebreak_die()
        ),
        (Some(Outcome::Won { winner, tiebreak: false }), _) => {
            format!("{} takes effect: {}.", side_name(check, *winner, elements), score_words(check, &live, elements))
        }
        (Some(Outcome::Won { winner, tiebreak: true }), _) => {
            let faces = check.tiebreaks.last().map(|r| r.faces.iter().map(u8::to_string).collect::<Vec<_>>());
            format!(
                "Tie broken by d{}s ({}): {} takes effect.",
                check.variant.tiebreak_die(),
                faces.unwrap_or_default().join(" against "),
                side_name(check, *winner, elements)
            )
        }
        (Some(Outcome::Compromise { text, .. }), _) => format!("Settled by compromise: “{text}”."),
        (Some(Outcome::NoCheckNeeded { winner }), _) => {
            format!("No check is needed: {} takes effect.", side_name(check, *winner, elements))
        }
        (None, _) => String::new(),
    }
}

/// What a resolution paid and awarded: "Ada spends 1 influence. Mira spends 3 adversity (1
/// as debt). Mira gains 4 edge slots (first action check)."
fn paid_words(
    before: (&[Player], &[Element]),
    after: (&[Player], &[Element]),
    awards: &[Uuid],
    check: &ActionCheck,
) -> String {
    let mut parts = Vec::new();
    for p in after.0 {
        let Some(was) = before.0.iter().find(|q| q.id == p.id) else { continue };
        if was.influence > p.influence {
            parts.push(format!("{} spends {} influence.", p.name, was.influence - p.influence));
        }
    }
    for e in after.1 {
        let Some(was) = before.1.iter().find(|x| x.id == e.id) else { continue };
        let spent = (was.adversity + e.adversity_debt).saturating_sub(e.adversity + was.adversity_debt);
        if spent > 0 {
            let debt = e.adversity_debt.saturating_sub(was.adversity_debt);
            let debt = if debt > 0 { format!(" ({debt} as debt)") } else { String::new() };
            parts.push(format!("{} spends {spent} adversity{debt}.", e.name));
        }
    }
    for id in check.participants() {
        if awards.contains(&id) {
            parts.push(format!("{} gains 4 edge slots (first action check).", element_name(after.1, id)));
        }
    }
    parts.join(" ")
}

// ---------------------------------------------------------------------------------------
// The pending check

fn pending_in(read: Reader<'_>, game: Uuid) -> Result<Option<(Event, Pending)>> {
    let Some(event) = read.last_undoable_of_game(game)?.filter(|e| e.kind == EventKind::MezzoCheckRolled) else {
        return Ok(None);
    };
    let payload: Pending = serde_json::from_value(event.payload.clone())
        .map_err(|e| Error::invalid("event log", format!("event {} cannot be read: {e}", event.seq)))?;
    Ok(Some((event, payload)))
}

fn pending_view(p: Pending) -> Result<PendingCheck> {
    let check = p.check;
    // The bursts' odds only exist between the roll and the result (a tie comes after).
    let burst_odds = match check.phase {
        Phase::Rolled => choices::check_bursts(&check)?.iter().map(BurstOdds::from).collect(),
        _ => Vec::new(),
    };
    Ok(PendingCheck {
        burst_odds,
        tallies: (0..check.sides.len()).map(|i| check.tally(i)).collect(),
        rolled: check.sides.iter().map(|s| s.roll.as_ref().map(|r| r.highest)).collect(),
        tied: check.tied.clone(),
        open_bursts: rules::open_bursts(&check),
        suggested_bursts: rules::suggested_bursts(&check),
        summary: p.action,
        check,
    })
}

fn log_pending(tx: &Tx<'_>, game: Uuid, pending: &Pending) -> Result<()> {
    let payload = serde_json::to_value(pending).map_err(|e| Error::invalid("event log", e.to_string()))?;
    tx.append_event(&NewEvent {
        at: now(),
        game_id: game,
        character_id: None,
        kind: EventKind::MezzoCheckRolled,
        undoes: None,
        payload,
    })?;
    Ok(())
}

/// Takes a pending check off the table: nothing else changes (nothing was paid).
pub(in crate::services) fn undo_check_rolled(tx: &Tx<'_>, event: &Event) -> Result<String> {
    let what = serde_json::from_value::<Pending>(event.payload.clone())
        .map(|p| if p.check.description.is_empty() { "the check".into() } else { format!("“{}”", p.check.description) })
        .unwrap_or_else(|_| "the check".into());
    let tied = event.payload["check"]["phase"] == "tied";
    let message = if event.payload["bursts"] == true {
        format!("Undone: the burst choices of {what} are taken back; its first roll waits for them again.")
    } else if tied {
        format!("Undone: the tie of {what} is off the table; its paid result stays (undo again to take it back).")
    } else {
        format!("Undone: the dice of {what} are off the table.")
    };
    tx.append_event(&NewEvent {
        at: now(),
        game_id: event.game_id,
        character_id: None,
        kind: EventKind::Undo,
        undoes: Some(event.seq),
        payload: serde_json::json!({ "action": message }),
    })?;
    Ok(message)
}

// ---------------------------------------------------------------------------------------
// Services

/// What a request comes to — each side's tally, dice and exact odds, or that no check is
/// needed — with nothing saved (shown live as votes change).
pub fn mezzo_check_preview(store: &Store, game: Uuid, request: &CheckRequest) -> Result<CheckPreview> {
    let (players, elements) = participants(store.read(), game)?;
    let table = store.read().mezzo_table(game)?;
    let Built { check, elements, awards } =
        build(request, Uuid::nil(), &players, &elements, table.variant, &Sources::of(&table))?;
    let tallies = (0..check.sides.len()).map(|i| check.tally(i)).collect();
    if let Some(Outcome::NoCheckNeeded { winner }) = check.outcome {
        let odds = (0..check.sides.len()).map(|i| Chance::new(u64::from(i == winner), 1).into()).collect();
        let success = actors(&check)
            .map(|(side, element)| ElementOdds {
                element,
                side,
                odds: Chance::new(u64::from(side == winner), 1).into(),
            })
            .collect();
        return Ok(CheckPreview {
            summary: outcome_words(&check, &elements),
            dice: vec![None; check.sides.len()],
            check,
            tallies,
            odds,
            success,
            next_vote: Vec::new(),
            no_check_needed: Some(winner),
            first_check_awards: Vec::new(),
        });
    }
    let dice = rules::dice(&check, &elements)?;
    let odds = rules::odds(&check, &elements)?;
    let next_vote = choices::check_next_vote(&check, &elements)?.iter().map(NextVoteOdds::from).collect();
    let mut success = Vec::new();
    for (side, element) in actors(&check) {
        if !check.sides[side].dropped {
            let odds = rules::success_odds(&check, &elements, element)?.into();
            success.push(ElementOdds { element, side, odds });
        }
    }
    let summary = dice
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let s = &check.sides[i];
            let what = match d {
                Some(d) => dice_word(d),
                None => "takes no part".into(),
            };
            let chance = if s.aptitude > 0 {
                format!("{} + {} Aptitude", chance_word(s.chance), s.aptitude)
            } else {
                chance_word(s.chance).to_owned()
            };
            format!("{} ({chance}): {what}", side_name(&check, i, &elements))
        })
        .collect::<Vec<_>>()
        .join("; ");
    Ok(CheckPreview {
        summary: format!("{summary}."),
        dice,
        odds: odds.into_iter().map(CheckOdds::from).collect(),
        success,
        next_vote,
        no_check_needed: None,
        first_check_awards: awards,
        check,
        tallies,
    })
}

/// The request with a new id for each Unexpected Edge it casts: the app gives the new trait
/// its id, whatever the request said (a check rolled alone or as a challenge's majors).
pub(super) fn with_new_edge_ids(request: &CheckRequest) -> CheckRequest {
    let mut request = request.clone();
    for c in &mut request.casts {
        if let Cast::UnexpectedEdge { edge, .. } = c {
            edge.id = Uuid::new_v4();
        }
    }
    request
}

/// The acting sides: (side, element).
fn actors(check: &ActionCheck) -> impl Iterator<Item = (usize, Uuid)> + '_ {
    check.sides.iter().enumerate().filter_map(|(i, s)| s.kind.element().map(|e| (i, e)))
}

/// Builds the check a request describes and rolls its dice (rolled by the app or typed in,
/// side by side in order), and puts it on the table to wait for its Sudden Surges and
/// result. Nothing is paid yet. Refused while another check is pending.
pub fn mezzo_check_roll<R: Rng>(
    store: &mut Store,
    game: Uuid,
    request: &CheckRequest,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PendingCheck> {
    roll_as(store, game, request, Uuid::new_v4(), dice, rng)
}

/// [`mezzo_check_roll`], the check given `id`.
fn roll_as<R: Rng>(
    store: &mut Store,
    game: Uuid,
    request: &CheckRequest,
    id: Uuid,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PendingCheck> {
    let request = with_new_edge_ids(request);
    store.write(|tx| {
        let read = tx.read();
        let (players, elements) = participants(read, game)?;
        if let Some((_, p)) = pending_in(read, game)? {
            let what = if p.check.phase == Phase::Tied { "a tied check" } else { "a rolled check" };
            return Err(Error::invalid(
                "check",
                format!("{what} is already on the table: resolve it or undo it first"),
            ));
        }
        let table = read.mezzo_table(game)?;
        let built = build(&request, id, &players, &elements, table.variant, &Sources::of(&table))?;
        if let Some(Outcome::NoCheckNeeded { winner }) = built.check.outcome {
            return Err(Error::invalid(
                "setup.sides",
                format!(
                    "no check is needed: {} takes effect without a roll",
                    side_name(&built.check, winner, &built.elements)
                ),
            ));
        }
        let (check, _) = with_dice(dice, rng, |d| rules::roll(&built.check, &built.elements, d))?;
        let action = format!("{} rolled. {}", title(&check), rolled_words(&check, &built.elements));
        let pending = Pending { action, check, bursts: false };
        log_pending(tx, game, &pending)?;
        pending_view(pending)
    })
}

// ---------------------------------------------------------------------------------------
// A check open for votes on the players' own devices (DEV-1, DEV-2)

/// One player's ballot in the open check, as every device sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckBallotView {
    pub player: Uuid,
    pub name: String,
    pub casts: Vec<Cast>,
}

/// The action check the table opened for votes, as every device sees it (votes are open at
/// the table: see [`crate::rules::mezzo::open_conflict`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenCheckView {
    pub setup: CheckSetup,
    /// Each side in words: "Mira (“climbs the wall”)", "Failure (“she falls”)".
    pub sides: Vec<String>,
    /// Who has voted, and what, in the order they first voted.
    pub ballots: Vec<CheckBallotView>,
    /// The dice are rolled: the ballots are in the check, paid when it resolves.
    pub rolled: bool,
}

fn no_open_check() -> Error {
    Error::invalid("open_check", "no action check is open for votes at the table")
}

/// Whether the check on the table (rolled or tied) is check `id`.
fn rolled_is(read: Reader<'_>, game: Uuid, id: Uuid) -> Result<bool> {
    Ok(pending_in(read, game)?.is_some_and(|(_, p)| p.check.id == id))
}

/// The action check `game`'s table opened for votes, if any.
pub fn mezzo_open_check(store: &Store, game: Uuid) -> Result<Option<OpenCheckView>> {
    let read = store.read();
    let (_, elements) = participants(read, game)?;
    let table = read.mezzo_table(game)?;
    let Some(open) = table.open_check else { return Ok(None) };
    let name = |id: Uuid| table.players.iter().find(|p| p.id == id).map_or_else(String::new, |p| p.name.clone());
    // Named from the setup as kept (an element removed since still leaves the check to withdraw).
    Ok(Some(OpenCheckView {
        sides: open.setup.sides.iter().map(|s| side_words(s.kind, s.description.trim(), &elements)).collect(),
        ballots: open
            .ballots
            .iter()
            .map(|b| CheckBallotView { player: b.player, name: name(b.player), casts: b.casts.clone() })
            .collect(),
        rolled: rolled_is(read, game, open.setup.id)?,
        setup: open.setup,
    }))
}

/// The table opens the check `draft` sets up (no votes) for the players to vote on from
/// their own devices: one undoable move. A check that needs no roll is refused.
pub fn mezzo_open_check_for_votes(store: &mut Store, game: Uuid, draft: &CheckDraft) -> Result<MezzoChange> {
    change(store, game, |work| {
        if work.table.open_check.is_some() {
            return Err(Error::invalid(
                "open_check",
                "an action check is already open for votes: roll or withdraw it first",
            ));
        }
        let (_, elements) = work.participants();
        let setup = CheckSetup {
            id: Uuid::new_v4(),
            description: draft.description.clone(),
            sides: draft.sides.clone(),
            involved: draft.involved.clone(),
        };
        let open = OpenCheck::open(&setup, &elements).map_err(under("setup"))?;
        let (check, _, _) = rules::start(&open.setup, &elements)?;
        let words = format!("{} open for votes", title(&check));
        work.table.open_check = Some(open);
        Ok(words)
    })
}

/// Player `player` casts `casts` into the open check, replacing their ballot (none takes
/// their votes back). Checked against what the player holds now; paid when the table
/// resolves the check. Refused once its dice are rolled. A refusal names the ballot's field
/// and changes nothing.
pub fn mezzo_cast_check_ballot(store: &mut Store, game: Uuid, player: Uuid, casts: &[Cast]) -> Result<MezzoChange> {
    let open = store.read().mezzo_table(game)?.open_check.ok_or_else(no_open_check)?;
    if rolled_is(store.read(), game, open.setup.id)? {
        return Err(Error::invalid("casts", "the dice are rolled: votes come before"));
    }
    change(store, game, |work| {
        let open = work.table.open_check.clone().ok_or_else(no_open_check)?;
        let (players, elements) = work.participants();
        let next = open.cast(player, casts, &players, &elements, &Sources::of(&work.table))?;
        let (check, _, _) = rules::start(&open.setup, &elements)?;
        let name = players.iter().find(|p| p.id == player).map_or_else(String::new, |p| p.name.clone());
        let words = if casts.is_empty() {
            format!("{name} took back their votes in {}", title(&check))
        } else {
            format!("{name} voted in {}", title(&check))
        };
        work.table.open_check = Some(next);
        Ok(words)
    })
}

/// The table withdraws the check it opened for votes, before its roll: the ballots go with
/// it, nothing was paid.
pub fn mezzo_withdraw_open_check(store: &mut Store, game: Uuid) -> Result<MezzoChange> {
    if let Some(open) = store.read().mezzo_table(game)?.open_check {
        if rolled_is(store.read(), game, open.setup.id)? {
            return Err(Error::invalid("open_check", "the dice are rolled: resolve the check or undo the roll first"));
        }
    }
    change(store, game, |work| {
        let open = work.table.open_check.take().ok_or_else(no_open_check)?;
        let description = if open.setup.description.trim().is_empty() {
            "Action check withdrawn".to_string()
        } else {
            format!("Action check withdrawn: “{}”", open.setup.description.trim())
        };
        Ok(description)
    })
}

/// Rolls the check open for votes: the table's own `casts` first (none for a player who voted
/// from their own device), then every player's ballot, then the scope perks, as
/// [`mezzo_check_roll`] rolls any check. The ballots can no longer change; the resolve pays
/// them and closes the vote.
pub fn mezzo_roll_open_check<R: Rng>(
    store: &mut Store,
    game: Uuid,
    casts: &[Cast],
    perks: &[PerkPurchase],
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PendingCheck> {
    let table = store.read().mezzo_table(game)?;
    let open = table.open_check.ok_or_else(no_open_check)?;
    let casts = open.with_table_casts(casts, &table.players)?;
    let request = CheckRequest {
        setup: CheckDraft {
            description: open.setup.description.clone(),
            sides: open.setup.sides.clone(),
            involved: open.setup.involved.clone(),
        },
        casts,
        perks: perks.to_vec(),
    };
    roll_as(store, game, &request, open.setup.id, dice, rng)
}

/// The check on the table, if one is rolled (or tied) and waiting.
pub fn mezzo_check_pending(store: &Store, game: Uuid) -> Result<Option<PendingCheck>> {
    let read = store.read();
    participants(read, game)?;
    pending_in(read, game)?.map(|(_, p)| pending_view(p)).transpose()
}

/// D6 variant: every owner who may burst has seen the first roll and chooses — the sides in
/// `bursts` burst and reroll (rolled by the app or typed in, in side order), the other open
/// sides keep their roll. Logged as the check's next step; undo takes the choices back.
pub fn mezzo_check_burst<R: Rng>(
    store: &mut Store,
    game: Uuid,
    bursts: &[usize],
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PendingCheck> {
    store.write(|tx| {
        let read = tx.read();
        let (_, elements) = participants(read, game)?;
        let pending = waiting(read, game)?;
        let open = rules::open_bursts(&pending.check);
        if open.is_empty() {
            return Err(Error::invalid("bursts", "no side of the check on the table may burst"));
        }
        for (i, side) in bursts.iter().enumerate() {
            if !open.contains(side) || bursts[..i].contains(side) {
                return Err(Error::invalid(format!("bursts[{i}]"), format!("side {side} has no burst to choose")));
            }
        }
        let check = with_dice(dice, rng, |d| {
            let mut check = pending.check.clone();
            for &side in &open {
                check = rules::choose_burst(&check, side, bursts.contains(&side), d)?.0;
            }
            Ok(check)
        })?;
        let action = format!("{}: bursts chosen. {}", title(&check), rolled_words(&check, &elements));
        let pending = Pending { action, check, bursts: true };
        log_pending(tx, game, &pending)?;
        pending_view(pending)
    })
}

pub(in crate::services) fn waiting(read: Reader<'_>, game: Uuid) -> Result<Pending> {
    pending_in(read, game)?
        .map(|(_, p)| p)
        .ok_or_else(|| Error::invalid("check", "no action check is on the table: roll one first"))
}

/// Settles the check on the table: the Sudden Surges (after the roll, in order), the
/// first-check edge slots, every spend paid and the scores compared, in one move. On a tie
/// the check stays on the table for [`mezzo_check_break_tie`] or [`mezzo_check_compromise`].
pub fn mezzo_check_resolve(store: &mut Store, game: Uuid, surges: &[Surge]) -> Result<CheckOutcome> {
    store.write(|tx| {
        let pending = waiting(tx.read(), game)?;
        if pending.check.phase == Phase::Tied {
            return Err(Error::invalid("check", "the check is tied: break the tie or agree a compromise"));
        }
        let mut result = None;
        let change = change_in(tx, game, |w| {
            let (players, elements) = w.participants();
            let (before_players, before_elements) = (players.clone(), elements.clone());
            let sources = Sources::of(&w.table);
            let Surged { check, elements, awarded, events: mut record } =
                surged(&pending.check, surges, &players, &elements, &sources)?;
            let (check, changes, events) = rules::resolve(&check, &players, &elements, &sources)?;
            // The phones' ballots are in the check since its roll: paid now, the vote closed.
            if w.table.open_check.as_ref().is_some_and(|o| o.setup.id == check.id) {
                w.table.open_check = None;
            }
            for e in awarded.iter().chain(&changes.elements) {
                w.set_element(e.clone());
            }
            if let Some(bank) = changes.victory_votes.clone() {
                w.table.victory_votes = bank;
            }
            for p in &changes.players {
                w.set_player(p.clone());
            }
            record.extend(events.into_iter().filter_map(|e| match e {
                CheckEvent::Element { change } => Some(change),
                _ => None,
            }));
            let (after_players, after_elements) = w.participants();
            let awards: Vec<Uuid> = awarded.iter().map(|e| e.id).collect();
            let paid =
                paid_words((&before_players, &before_elements), (&after_players, &after_elements), &awards, &check);
            let words = outcome_words(&check, &after_elements);
            let summary = [format!("{} resolved.", title(&check)), paid, words.clone()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let tied_words = format!("{}: {words}", title(&check));
            // Kept with the move: a challenge may start from a check one side lost.
            if check.phase == Phase::Done {
                w.note(&[serde_json::json!({ "event": "check_resolved", "check": &check })]);
            }
            result = Some((check, summary.clone(), tied_words));
            w.done(record, summary)
        })?;
        let (check, summary, tied_words) = result.expect("set by the move");
        if check.phase == Phase::Tied {
            log_pending(tx, game, &Pending { action: tied_words, check: check.clone(), bursts: false })?;
        }
        Ok(CheckOutcome { change, result: result_of(check, summary) })
    })
}

/// A rolled check made ready to resolve ([`surged`]).
pub(in crate::services) struct Surged {
    pub(in crate::services) check: ActionCheck,
    /// Every element, with the first-check slots given.
    pub(in crate::services) elements: Vec<Element>,
    /// The elements given them.
    pub(in crate::services) awarded: Vec<Element>,
    pub(in crate::services) events: Vec<element::ElementEvent>,
}

/// A rolled check made ready to resolve: the first-check edge slots given to those who
/// never had an action check, then the Sudden Surges bought after the roll, in order.
pub(in crate::services) fn surged(
    rolled: &ActionCheck,
    surges: &[Surge],
    players: &[Player],
    elements: &[Element],
    sources: &Sources,
) -> Result<Surged> {
    let mut awarded = Vec::new();
    let mut record = Vec::new();
    for id in rolled.participants() {
        let e = elements
            .iter()
            .find(|e| e.id == id)
            .ok_or_else(|| Error::invalid("check", format!("element {id} of this check is no longer at the table")))?;
        if !e.awards.has(SlotAward::FirstActionCheck) {
            let (e, events) = element::award_edge_slots(e, SlotAward::FirstActionCheck)?;
            record.extend(events);
            awarded.push(e);
        }
    }
    let elements = merged(elements, &awarded);
    let mut check = rolled.clone();
    for (i, s) in surges.iter().enumerate() {
        check = rules::surge(&check, s, players, &elements, sources).map_err(under(&format!("surges[{i}]")))?.0;
    }
    Ok(Surged { check, elements, awarded, events: record })
}

fn result_of(check: ActionCheck, summary: String) -> CheckResult {
    CheckResult { winner: check.winner(), tied: check.tied.clone(), check, summary }
}

/// Rolls the tiebreak of the tied check on the table: a d12 per tied side, again while tied
/// (typed-in values: as many rounds as they fill; a tie left after them stays pending).
pub fn mezzo_check_break_tie<R: Rng>(
    store: &mut Store,
    game: Uuid,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<CheckOutcome> {
    store.write(|tx| {
        let pending = waiting(tx.read(), game)?;
        if pending.check.phase != Phase::Tied {
            return Err(Error::invalid("check", "the check on the table is not tied: resolve it first"));
        }
        let mut check = pending.check.clone();
        match dice {
            DiceInput::Rolled => {
                let mut source = Rolled(rng);
                for _ in 0..MAX_TIE_ROUNDS {
                    check = rules::break_tie(&check, &mut source)?.0;
                    if check.phase != Phase::Tied {
                        break;
                    }
                }
            }
            DiceInput::Entered { values } => {
                if values.is_empty() {
                    return Err(Error::invalid("dice", "type in a d12 for each tied side"));
                }
                let mut source = Entered::new(values.iter().copied());
                while check.phase == Phase::Tied && source.remaining() > 0 {
                    check = rules::break_tie(&check, &mut source)?.0;
                }
                if source.remaining() > 0 {
                    let used = values.len() - source.remaining();
                    return Err(Error::invalid(
                        "dice",
                        format!("{} values were entered but the tiebreak used {used}", values.len()),
                    ));
                }
            }
        }
        let rounds = &check.tiebreaks[pending.check.tiebreaks.len()..];
        let mut out = None;
        let change = change_in(tx, game, |w| {
            if check.phase == Phase::Done {
                w.note(&[serde_json::json!({ "event": "check_resolved", "check": &check })]);
            }
            let (_, elements) = w.participants();
            let shown = rounds
                .iter()
                .map(|r| r.faces.iter().map(u8::to_string).collect::<Vec<_>>().join(" against "))
                .collect::<Vec<_>>()
                .join(", then ");
            let words = if check.phase == Phase::Tied {
                format!(
                    "{}: the tiebreak d12s show {shown}, still tied between {}: roll again or agree a compromise.",
                    title(&check),
                    and_list(check.tied.iter().map(|&i| side_name(&check, i, &elements)).collect())
                )
            } else {
                let winner = check.winner().map(|i| side_name(&check, i, &elements)).unwrap_or_default();
                format!("{}: tie broken by d12s ({shown}): {winner} takes effect.", title(&check))
            };
            out = Some(words.clone());
            Ok(words)
        })?;
        let summary = out.expect("set by the move");
        if check.phase == Phase::Tied {
            log_pending(tx, game, &Pending { action: summary.clone(), check: check.clone(), bursts: false })?;
        }
        Ok(CheckOutcome { change, result: result_of(check, summary) })
    })
}

/// Records the compromise the table agreed for the tied check on the table.
pub fn mezzo_check_compromise(store: &mut Store, game: Uuid, text: &str) -> Result<CheckOutcome> {
    store.write(|tx| {
        let pending = waiting(tx.read(), game)?;
        let (check, _) = rules::compromise(&pending.check, text)?;
        let mut out = None;
        let change = change_in(tx, game, |w| {
            w.note(&[serde_json::json!({ "event": "check_resolved", "check": &check })]);
            let words = format!("{}: {}", title(&check), outcome_words(&check, &[]));
            out = Some(words.clone());
            Ok(words)
        })?;
        Ok(CheckOutcome { change, result: result_of(check, out.expect("set by the move")) })
    })
}
