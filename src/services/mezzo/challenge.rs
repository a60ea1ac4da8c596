//! Mezzo challenges at the table (RULES.md §3.4) and Rest & Recuperation outside them. The
//! rules (`rules::mezzo::challenge`) decide every move; a move here finds the challenge and
//! the elements, calls the rule and saves what it returns — the challenge is part of the
//! table — in the one transaction and the one undoable `mezzo_table_changed` event of
//! [`change`], with the rules' events kept in the payload for history.
//!
//! Rulings where the rules leave the table to the app:
//! - One challenge at a time per table. The finished one stays on the table (over), so the
//!   table sees how it ended, until [`mezzo_challenge_start`] replaces it; a challenge still
//!   being played is never replaced.
//! - A major action comes from an action check set up like any other ([`CheckRequest`]):
//!   [`mezzo_challenge_roll_majors`] builds it, rolls it (dice rolled by the app or typed in)
//!   and resolves it at once (its spends paid, first-check slots given), and its scores are
//!   the major actions of the challengers named. To see the dice before buying Sudden
//!   Surges, roll the check as any other (`mezzo_check_roll`) and resolve it here instead
//!   ([`mezzo_challenge_resolve_majors`]): a tie needs no tiebreak then, the tied actions each
//!   earn a minor perk. Scores of a check rolled away from the app are typed in with the
//!   `major_actions` move of [`mezzo_challenge_play`].
//! - New traits in a move (a Hinder's or Expose's flaw, a Bind's restraint, a Break Free's
//!   flaw, a Damage's wound and extras, a boon's edge) may leave out their id, kind and how
//!   they came (`via`): the app gives a fresh id, the kind their template makes (else a flaw,
//!   an extra or an edge as the perk needs) and "granted" (the rules set what the perk or boon
//!   makes of it). A Push may leave out the id of the trump it adds.
//! - When a move ends the challenge, its No Escape targets lapse in the same move.

use std::collections::BTreeMap;

use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::rules::mezzo::action_check::{ActionCheck, Phase as CheckPhase, Sources, Surge};
use crate::rules::mezzo::challenge::{
    self as rules, ActionResult, Boost, BoostOwner, Challenge, ChallengeEvent, ChallengeSetup, ChallengerSetup,
    GoalSetup, HealEffect, Leave, MajorAction, Move, PerkName, PerkUse, Phase, Pushed, SideSetup, Spend, StakePool,
    Status, Why,
};
use crate::rules::mezzo::element::{Element, ElementKind, Template, TraitKind, MAX_TRUMP_TRANSFER};
use crate::rules::mezzo::plot;
use crate::rules::mezzo::recovery::{self, RecoveryCheck};
use crate::services::dice::{with_dice, DiceInput};
use crate::services::mezzo::check::{build, surged, waiting, with_new_edge_ids, CheckRequest, Surged};
use crate::services::mezzo::{change, change_in, MezzoChange, Work};
use crate::store::{EventKind, Store, Tx};

// ---------------------------------------------------------------------------------------
// Views

/// A side and how many of its challengers are still in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideView {
    pub side: usize,
    pub name: String,
    pub still_in: usize,
}

/// A challenger with its element's resources as the challenge uses them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChallengerView {
    pub element: Uuid,
    pub name: String,
    pub kind: ElementKind,
    pub side: usize,
    pub side_name: String,
    pub stake: Option<String>,
    /// `{"status": "in"}`, or leaving / left with `how` and `why`.
    #[serde(flatten)]
    pub status: Status,
    pub momentum: u32,
    pub adversity: u32,
    pub adversity_debt: u32,
    /// Momentum-boost awards it got in this challenge (at most 5).
    pub momentum_awards: u32,
    /// The boosts it would trigger if it left now, and those it triggered when it left.
    pub boosts_held: u32,
    pub boosts_triggered: u32,
    /// It took its major action this round.
    pub acted: bool,
    /// It just gained a wound or restraint and may surrender at once.
    pub may_surrender: bool,
    /// The player who spends for it (its claimer), if any.
    pub claimed_by: Option<Uuid>,
    /// The flaws this challenge's perks gave it (what Recover and Heal may remove).
    pub gained: Vec<Uuid>,
    /// The momentum its stake's pool holds (Raise Stakes), shared with the stake's other
    /// owners; not its own.
    pub stake_momentum: u32,
}

/// A goal of the challenge: its trumps and momentum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GoalView {
    pub element: Uuid,
    pub name: String,
    pub side: usize,
    pub supporters: Vec<Uuid>,
    pub trumps: u32,
    pub momentum: u32,
    pub triggered: bool,
}

/// A major action with the perks it has left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ActionView {
    pub index: usize,
    #[serde(flatten)]
    pub action: MajorAction,
    pub name: String,
    pub majors_left: u32,
    pub minors_left: u32,
    /// Its perks are still to be resolved.
    pub open: bool,
}

/// A triggered trump waiting for the table to say how much momentum it draws from its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TrumpDraw {
    pub goal: Uuid,
    pub trump: Uuid,
    /// The most it may draw (0 to 4).
    pub most: u32,
}

/// Challengers leaving together, while their departure is resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DepartureView {
    pub leavers: Vec<Uuid>,
    /// Boosts still to award, the first one first.
    pub boosts: Vec<Boost>,
    /// The targets tied on the least momentum the table picks among for the next award.
    pub award_choices: Vec<Uuid>,
    pub trump_draw: Option<TrumpDraw>,
    /// The leavers who may spend momentum now (every award given, enough momentum).
    pub may_spend: Vec<Uuid>,
}

/// The challenge being played, or the last one (over).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MezzoChallengeView {
    pub id: Uuid,
    pub description: String,
    pub phase: Phase,
    pub round: u32,
    pub over: bool,
    pub sides: Vec<SideView>,
    pub challengers: Vec<ChallengerView>,
    pub goals: Vec<GoalView>,
    pub actions: Vec<ActionView>,
    /// The action whose perks are resolved now.
    pub open_action: Option<usize>,
    /// Pushes a complication may still counter.
    pub counterable: Vec<Pushed>,
    /// Stakes' own momentum (Raise Stakes).
    pub stake_pools: Vec<StakePool>,
    pub departure: Option<DepartureView>,
    /// The name of every element the challenge names, by id.
    pub names: BTreeMap<Uuid, String>,
}

/// A challenge move: the table after it, and the challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MezzoChallengeChange {
    pub change: MezzoChange,
    pub challenge: Option<MezzoChallengeView>,
}

/// A challenge as the table sets it up (the app gives it its id).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MezzoChallengeDraft {
    #[serde(default)]
    pub description: String,
    pub sides: Vec<SideSetup>,
    pub challengers: Vec<ChallengerSetup>,
    #[serde(default)]
    pub goals: Vec<GoalSetup>,
}

fn find(elements: &[Element], id: Uuid) -> Result<&Element> {
    elements
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| Error::invalid("challenge", format!("element {id} of the challenge is no longer at the table")))
}

fn name(elements: &[Element], id: Uuid) -> String {
    elements.iter().find(|e| e.id == id).map_or_else(|| "an element no longer at the table".into(), |e| e.name.clone())
}

/// The challenge as the table sees it, with the elements as they are.
fn view_of(ch: &Challenge, elements: &[Element]) -> Result<MezzoChallengeView> {
    let side_name = |s: usize| ch.sides.get(s).map_or_else(String::new, |x| x.name.clone());
    let mut challengers = Vec::new();
    for c in &ch.challengers {
        let e = find(elements, c.element)?;
        challengers.push(ChallengerView {
            element: c.element,
            name: e.name.clone(),
            kind: c.kind,
            side: c.side,
            side_name: side_name(c.side),
            stake: c.stake.clone(),
            status: c.status,
            momentum: e.momentum,
            adversity: e.adversity,
            adversity_debt: e.adversity_debt,
            momentum_awards: e.momentum_awards,
            boosts_held: if c.is_in() { ch.boosts_held(e) } else { 0 },
            boosts_triggered: c.boosts_triggered,
            acted: ch.acted.contains(&c.element),
            may_surrender: ch.may_surrender.contains(&c.element),
            claimed_by: e.claimed_by,
            gained: ch.gained.iter().filter(|g| g.element == c.element).map(|g| g.flaw).collect(),
            stake_momentum: ch.pool_of(c.element),
        });
    }
    let mut goals = Vec::new();
    for g in &ch.goals {
        let e = find(elements, g.element)?;
        goals.push(GoalView {
            element: g.element,
            name: e.name.clone(),
            side: g.side,
            supporters: g.supporters.clone(),
            trumps: e.trumps(),
            momentum: e.momentum,
            triggered: g.triggered,
        });
    }
    let actions = ch
        .actions
        .iter()
        .enumerate()
        .map(|(index, a)| ActionView {
            index,
            name: name(elements, a.challenger),
            majors_left: a.majors_left(),
            minors_left: a.minors_left(),
            open: ch.open.contains(&index),
            action: a.clone(),
        })
        .collect();
    let departure = match &ch.departure {
        None => None,
        Some(d) => {
            let trump_draw = match d.boosts.first() {
                Some(Boost { owner: BoostOwner::Trump { goal, trump }, draw_pending: true, .. }) => {
                    let most = find(elements, *goal)?.momentum.min(MAX_TRUMP_TRANSFER);
                    Some(TrumpDraw { goal: *goal, trump: *trump, most })
                }
                _ => None,
            };
            let mut may_spend = Vec::new();
            if d.boosts.is_empty() {
                for l in &d.leavers {
                    let how = ch.challenger(*l).and_then(|c| c.gone()).map_or(Leave::Defeat, |(how, _)| how);
                    let pool = if how == Leave::Victory { ch.pool_of(*l) } else { 0 };
                    if find(elements, *l)?.momentum >= rules::least_spend(how) || pool >= 1 {
                        may_spend.push(*l);
                    }
                }
            }
            Some(DepartureView {
                leavers: d.leavers.clone(),
                boosts: d.boosts.clone(),
                award_choices: rules::award_choices(ch, elements)?,
                trump_draw,
                may_spend,
            })
        }
    };
    Ok(MezzoChallengeView {
        id: ch.id,
        description: ch.description.clone(),
        phase: ch.phase(),
        round: ch.round,
        over: ch.over,
        sides: (0..ch.sides.len())
            .map(|s| SideView { side: s, name: side_name(s), still_in: ch.remaining().filter(|c| c.side == s).count() })
            .collect(),
        challengers,
        goals,
        actions,
        open_action: ch.open.first().copied(),
        counterable: ch.counterable.clone(),
        stake_pools: ch.stake_pools.clone(),
        departure,
        names: ch.elements().into_iter().map(|id| (id, name(elements, id))).collect(),
    })
}

/// The game's challenge (being played, or the last one, over), if one was ever started.
pub fn mezzo_challenge(store: &Store, game: Uuid) -> Result<Option<MezzoChallengeView>> {
    let read = store.read();
    let (_, elements) = crate::services::mezzo::participants(read, game)?;
    read.mezzo_table(game)?.challenge.map(|ch| view_of(&ch, &elements)).transpose()
}

// ---------------------------------------------------------------------------------------
// Playing

/// Plays a challenge move through [`change`] and returns the challenge as it left it.
fn challenge_move(
    store: &mut Store,
    game: Uuid,
    play: impl FnOnce(&mut Work<'_>) -> Result<String>,
) -> Result<MezzoChallengeChange> {
    store.write(|tx| challenge_move_in(tx, game, play))
}

/// [`challenge_move`] in a transaction already open (one that read the pending check).
fn challenge_move_in(
    tx: &Tx<'_>,
    game: Uuid,
    play: impl FnOnce(&mut Work<'_>) -> Result<String>,
) -> Result<MezzoChallengeChange> {
    let mut seen = None;
    let change = change_in(tx, game, |w| {
        let message = play(w)?;
        let (_, elements) = w.participants();
        seen = Some(w.table.challenge.as_ref().map(|ch| view_of(ch, &elements)).transpose()?);
        Ok(message)
    })?;
    Ok(MezzoChallengeChange { change, challenge: seen.flatten() })
}

/// The challenge being played.
fn running(w: &Work<'_>) -> Result<Challenge> {
    match &w.table.challenge {
        Some(ch) if !ch.over => Ok(ch.clone()),
        _ => Err(Error::invalid("challenge", "no challenge is being played: start one")),
    }
}

/// Saves what a challenge rule returned: the elements and players it changed, the
/// challenge, its events for history; a challenge that just ended lets its No Escape
/// targets lapse and opens the seed deck's refresh. Returns the rules' events for the message.
fn apply(w: &mut Work<'_>, step: rules::Step) -> Vec<ChallengeEvent> {
    let (ch, changes, events) = step;
    // Victory Narration votes a major action spent.
    if let Some(bank) = changes.victory_votes {
        w.table.victory_votes = bank;
    }
    for p in changes.players {
        w.set_player(p);
    }
    for e in changes.elements {
        w.set_element(e);
    }
    w.note(&events);
    // Victory Narration's votes wait here for the conflicts about the victory.
    w.table.victory_votes = crate::rules::mezzo::vote::bank_victory_votes(&w.table.victory_votes, ch.id, &events);
    if ch.over {
        let (arc, lapsed) = plot::challenge_over(&w.table.plot, ch.id);
        w.table.plot = arc;
        w.note(&lapsed);
        // The end of a challenge opens the seed deck's refresh (RULES.md §3.6).
        w.table = crate::rules::mezzo::table::challenge_over(&w.table);
    }
    w.table.challenge = Some(ch);
    events
}

/// A new challenge's set-up from `draft`; refused while another is being played.
fn new_challenge(w: &Work<'_>, draft: &MezzoChallengeDraft) -> Result<ChallengeSetup> {
    if w.table.challenge.as_ref().is_some_and(|ch| !ch.over) {
        return Err(Error::invalid("challenge", "a challenge is being played: one challenge at a time"));
    }
    Ok(ChallengeSetup {
        id: Uuid::new_v4(),
        description: draft.description.clone(),
        sides: draft.sides.clone(),
        challengers: draft.challengers.clone(),
        goals: draft.goals.clone(),
    })
}

/// Starts a challenge: its sides, challengers (each joins: 4 edge slots the first time,
/// Plot Protection while it takes part) and goals. Refused while another is being played.
pub fn mezzo_challenge_start(
    store: &mut Store,
    game: Uuid,
    draft: &MezzoChallengeDraft,
) -> Result<MezzoChallengeChange> {
    challenge_move(store, game, |w| {
        let setup = new_challenge(w, draft)?;
        let (_, elements) = w.participants();
        let step = rules::start(&setup, &elements)?;
        let ch = step.0.clone();
        apply(w, step);
        let sides: Vec<String> = (0..ch.sides.len())
            .map(|s| {
                let who: Vec<String> =
                    ch.challengers.iter().filter(|c| c.side == s).map(|c| name(&elements, c.element)).collect();
                let side = &ch.sides[s].name;
                if side.is_empty() {
                    and_list(who)
                } else {
                    format!("{side} ({})", and_list(who))
                }
            })
            .collect();
        let what = if ch.description.is_empty() {
            "A challenge".into()
        } else {
            format!("The challenge “{}”", ch.description)
        };
        Ok(format!("{what} begins: {}.", sides.join(" against ")))
    })
}

/// Plays one move of the challenge being played (`draft`: a [`Move`] as JSON, its new
/// traits' ids, kinds and `via` optional — see the module's rulings).
pub fn mezzo_challenge_play(store: &mut Store, game: Uuid, draft: &Value) -> Result<MezzoChallengeChange> {
    let mv = move_of(draft)?;
    challenge_move(store, game, |w| {
        let before = running(w)?;
        let (_, elements) = w.participants();
        let step = rules::play(&before, &mv, &elements)?;
        let events = apply(w, step);
        let (_, after) = w.participants();
        Ok(words(&before, &mv, &events, &elements, &after))
    })
}

/// Builds the action check `request` describes, rolls it (rolled by the app or typed in,
/// side by side in order), resolves it at once (spends paid, first-check edge slots given)
/// and records it as the major action of each of `majors` this round.
pub fn mezzo_challenge_roll_majors<R: Rng>(
    store: &mut Store,
    game: Uuid,
    request: &CheckRequest,
    majors: &[Uuid],
    dice: &DiceInput,
    rng: &mut R,
) -> Result<MezzoChallengeChange> {
    let request = with_new_edge_ids(request);
    challenge_move(store, game, |w| {
        let before = running(w)?;
        let (players, elements) = w.participants();
        let sources = Sources::of(&w.table);
        let built = build(&request, Uuid::new_v4(), &players, &elements, w.table.variant, &sources)?;
        let (ch, check, changes, events) = with_dice(dice, rng, |d| {
            rules::roll_major_actions(&before, &built.check, majors, &players, &built.elements, &sources, d)
        })?;
        // The first-check slots the check gave, then what resolving and recording changed.
        for id in &built.awards {
            if let Some(e) = built.elements.iter().find(|e| e.id == *id) {
                w.set_element(e.clone());
            }
        }
        let events = apply(w, (ch, changes, events));
        w.note(&[json!({ "event": "check_resolved", "check": check })]);
        let (_, after) = w.participants();
        let mv = Move::MajorActions { check: Some(check.id), rolls: Vec::new(), majors: majors.to_vec() };
        Ok(format!("{}: {}", check_title(&check), words(&before, &mv, &events, &elements, &after)))
    })
}

/// Resolves the action check on the table (rolled with `mezzo_check_roll`), with the Sudden
/// Surges bought after seeing its dice, as the major action of each of `majors`: its spends
/// paid, first-check slots given and the actions recorded, in one move. Undoing the move
/// puts the rolled check back on the table.
pub fn mezzo_challenge_resolve_majors(
    store: &mut Store,
    game: Uuid,
    surges: &[Surge],
    majors: &[Uuid],
) -> Result<MezzoChallengeChange> {
    store.write(|tx| {
        let pending = waiting(tx.read(), game)?;
        if pending.check.phase != CheckPhase::Rolled {
            return Err(Error::invalid("check", "the check on the table is already resolved and tied: break the tie"));
        }
        challenge_move_in(tx, game, |w| {
            let before = running(w)?;
            let (players, elements) = w.participants();
            let sources = Sources::of(&w.table);
            let Surged { check, elements, awarded, events: awards } =
                surged(&pending.check, surges, &players, &elements, &sources)?;
            let (ch, check, changes, events) =
                rules::record_major_actions(&before, &check, majors, &players, &elements, &sources)?;
            for e in &awarded {
                w.set_element(e.clone());
            }
            w.note(&awards);
            let events = apply(w, (ch, changes, events));
            w.note(&[json!({ "event": "check_resolved", "check": check })]);
            let (_, after) = w.participants();
            let mv = Move::MajorActions { check: Some(check.id), rolls: Vec::new(), majors: majors.to_vec() };
            Ok(format!("{}: {}", check_title(&check), words(&before, &mv, &events, &elements, &after)))
        })
    })
}

/// How far back in the game's moves a resolved check is looked for.
const CHECKS_LOOKED_BACK: u32 = 500;

/// A resolved action check of the game, from the live move that resolved it (its
/// `check_resolved` note), unless it was already recorded as a challenge's major action
/// or already started a challenge.
fn resolved_check(read: crate::store::Reader<'_>, game: Uuid, id: Uuid) -> Result<ActionCheck> {
    let key = id.to_string();
    for (event, undone) in read.events_of_kind(game, None, EventKind::MezzoTableChanged, CHECKS_LOOKED_BACK)? {
        if undone || event.undoes.is_some() {
            continue;
        }
        let notes = event.payload["events"].as_array().cloned().unwrap_or_default();
        let noted = |name: &'static str| notes.iter().filter(move |n| n["event"] == name);
        if noted("challenge_from_check").any(|n| n["check"] == key.as_str()) {
            return Err(Error::invalid("check", "this check already started a challenge"));
        }
        if let Some(note) = noted("check_resolved").find(|n| n["check"]["id"] == key.as_str()) {
            if noted("action_recorded").next().is_some() {
                return Err(Error::invalid("check", "this check was already a major action of a challenge"));
            }
            return serde_json::from_value(note["check"].clone())
                .map_err(|e| Error::invalid("check", format!("the stored check does not read back: {e}")));
        }
    }
    Err(Error::invalid("check", format!("no resolved action check {id} among this game's recent moves")))
}

/// Starts a challenge from a resolved action check that one side lost (audit #16): a
/// player backs the loser, so the check's sides (and whoever joins them in `draft`, with
/// their stakes) start a challenge whose first round of major actions is the check's
/// scores. The check's spends were paid when it resolved. Refused when the check was not
/// lost, was already used, or a challenge is being played.
pub fn mezzo_challenge_from_check(
    store: &mut Store,
    game: Uuid,
    check: Uuid,
    draft: &MezzoChallengeDraft,
) -> Result<MezzoChallengeChange> {
    store.write(|tx| {
        let resolved = resolved_check(tx.read(), game, check)?;
        challenge_move_in(tx, game, |w| {
            let setup = new_challenge(w, draft)?;
            let (_, elements) = w.participants();
            let step = rules::start_from_check(&setup, &resolved, &elements)?;
            let before = step.0.clone();
            let events = apply(w, step);
            w.note(&[json!({ "event": "challenge_from_check", "check": check })]);
            let (_, after) = w.participants();
            let mv = Move::MajorActions { check: Some(check), rolls: Vec::new(), majors: before.acted.clone() };
            let what = if before.description.is_empty() {
                "A challenge".to_owned()
            } else {
                format!("The challenge “{}”", before.description)
            };
            let round = words(&before, &mv, &events, &elements, &after);
            let from = if resolved.description.is_empty() {
                "an action check".to_owned()
            } else {
                format!("the action check “{}”", resolved.description)
            };
            Ok(format!("{what} begins from {from}, its first round: {round}"))
        })
    })
}

/// Tempting Target (audit #10): a harmful perk of the challenge's action `action` targets
/// `target`, who owes adversity debt; its setter takes 1 adversity and the target pays off
/// 1 debt. Each harmful perk offers it once: the uses are counted from the game's live moves.
pub fn mezzo_tempting_target(
    store: &mut Store,
    game: Uuid,
    action: usize,
    target: Uuid,
) -> Result<MezzoChallengeChange> {
    store.write(|tx| {
        let ch = tx.read().mezzo_table(game)?.challenge;
        let ch = ch.ok_or_else(|| Error::invalid("challenge", "no challenge was started: a perk is set in one"))?;
        let note = json!({ "event": "tempting_target", "challenge": ch.id, "action": action, "target": target });
        let mut used = 0;
        for (event, undone) in tx.read().events_of_kind(game, None, EventKind::MezzoTableChanged, CHECKS_LOOKED_BACK)? {
            if !undone && event.undoes.is_none() {
                let notes = event.payload["events"].as_array().cloned().unwrap_or_default();
                used += notes.iter().filter(|n| **n == note).count() as u32;
            }
        }
        challenge_move_in(tx, game, |w| {
            let (_, elements) = w.participants();
            let (changes, events) = rules::tempting_target(&ch, action, target, used, &elements)?;
            for e in changes.elements {
                w.set_element(e);
            }
            w.note(&events);
            w.note(&[note]);
            let setter = ch.actions.get(action).map_or_else(String::new, |a| name(&elements, a.challenger));
            let debtor = name(&elements, target);
            Ok(format!(
                "Tempting Target: {setter} takes 1 adversity for a harmful perk on {debtor}, who pays off 1 adversity debt."
            ))
        })
    })
}

fn check_title(check: &crate::rules::mezzo::action_check::ActionCheck) -> String {
    if check.description.is_empty() {
        "Action check".to_owned()
    } else {
        format!("Action check “{}”", check.description)
    }
}

// ---------------------------------------------------------------------------------------
// Rest & recuperation (outside challenges)

/// Saves an element rule's result with its message.
fn on_element(
    w: &mut Work<'_>,
    element: Uuid,
    rule: impl FnOnce(&Element) -> Result<(Element, Vec<crate::rules::mezzo::element::ElementEvent>)>,
    message: impl FnOnce(&Element) -> String,
) -> Result<String> {
    let e = w.element(element)?;
    let (after, events) = rule(&e)?;
    let message = message(&e);
    w.set_element(after);
    w.done(events, message)
}

fn trait_name(e: &Element, id: Uuid) -> String {
    e.trait_by_id(id).map_or_else(String::new, |t| t.name.clone())
}

/// Take Breather (Recover): shakes off a One-Shot, Transient flaw.
pub fn mezzo_take_breather(store: &mut Store, game: Uuid, element: Uuid, flaw: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        on_element(
            w,
            element,
            |e| recovery::take_breather(e, flaw),
            |e| format!("{} takes a breather and shakes off “{}”.", e.name, trait_name(e, flaw)),
        )
    })
}

/// Escape Restraints (Break Free, no new flaw): removes a Transient restraint.
pub fn mezzo_escape_restraints(store: &mut Store, game: Uuid, element: Uuid, restraint: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| {
        on_element(
            w,
            element,
            |e| recovery::escape_restraints(e, restraint),
            |e| format!("{} escapes the restraint “{}”.", e.name, trait_name(e, restraint)),
        )
    })
}

/// Treat Wounds (Heal): a Vicious Wound needs a passed Recovery Check or triple the time.
pub fn mezzo_treat_wounds(
    store: &mut Store,
    game: Uuid,
    element: Uuid,
    wound: Uuid,
    effect: &HealEffect,
    recovery: RecoveryCheck,
) -> Result<MezzoChange> {
    change(store, game, |w| {
        on_element(
            w,
            element,
            |e| recovery::treat_wounds(e, wound, effect, recovery),
            |e| {
                let what = match effect {
                    HealEffect::RemoveExtras { extras } => format!("{} of its extras removed", extras.len()),
                    HealEffect::OneShot => "now One-Shot".into(),
                };
                format!("{} treats the wound “{}”: {what}.", e.name, trait_name(e, wound))
            },
        )
    })
}

// ---------------------------------------------------------------------------------------
// Drafts

/// The move a draft describes, its new traits completed (see the module's rulings). A
/// draft that is not a move is refused naming the field.
fn move_of(draft: &Value) -> Result<Move> {
    let mut v = draft.clone();
    match v.get("move").and_then(Value::as_str) {
        Some("declare") => complete_perk(v.get_mut("perk")),
        Some("spend") => {
            if let Some(spend) = v.get_mut("spend").filter(|s| s["kind"] == "boon") {
                complete(spend.get_mut("edge"), TraitKind::Edge);
            }
            if let Some(Value::Array(uses)) = v.get_mut("spend").and_then(|s| s.get_mut("uses")) {
                uses.iter_mut().for_each(|p| complete_perk(Some(p)));
            }
        }
        _ => {}
    }
    serde_json::from_value::<Move>(v.clone()).map_err(|e| Error::invalid(blame(&v), e.to_string()))
}

/// The field a refused draft gets wrong. A move's tag hides the path from serde, so the
/// draft is probed: a field is at fault when leaving it out clears the error or only makes
/// it missing (a value is read before missing fields are told). Walks into objects.
fn blame(draft: &Value) -> String {
    fn at<'v>(v: &'v mut Value, path: &[String]) -> Option<&'v mut serde_json::Map<String, Value>> {
        path.iter().try_fold(v, |v, k| v.get_mut(k))?.as_object_mut()
    }
    let mut path: Vec<String> = Vec::new();
    let mut error = serde_json::from_value::<Move>(draft.clone()).err().map(|e| e.to_string()).unwrap_or_default();
    loop {
        let mut copy = draft.clone();
        let keys: Vec<String> = at(&mut copy, &path).map(|m| m.keys().cloned().collect()).unwrap_or_default();
        let found = keys.into_iter().filter(|k| !(path.is_empty() && k == "move") && k != "kind").find(|k| {
            let mut probe = draft.clone();
            if let Some(m) = at(&mut probe, &path) {
                m.remove(k);
            }
            match serde_json::from_value::<Move>(probe) {
                Ok(_) => true,
                Err(e) => e.to_string().starts_with(&format!("missing field `{k}`")),
            }
        });
        match found {
            Some(k) => path.push(k),
            None => break,
        }
        error.clear();
    }
    // A field left out is named by serde.
    if let Some(missing) = error.strip_prefix("missing field `").and_then(|r| r.split('`').next()) {
        path.push(missing.to_owned());
    }
    if path.is_empty() {
        "move".into()
    } else {
        path.join(".")
    }
}

/// Completes the new traits of a perk (declared, or bought by claiming stakes).
fn complete_perk(perk: Option<&mut Value>) {
    let Some(perk @ Value::Object(_)) = perk else { return };
    match perk.get("kind").and_then(Value::as_str).unwrap_or_default() {
        "hinder" | "expose" | "break_free" => complete(perk.get_mut("flaw"), TraitKind::Flaw),
        "bind" => complete(perk.get_mut("restraint"), TraitKind::Flaw),
        "damage" => {
            if let Some(wound) = perk.get_mut("wound").filter(|w| w["kind"] == "new_flaw") {
                complete(wound.get_mut("flaw"), TraitKind::Flaw);
            }
            if let Some(Value::Array(extras)) = perk.get_mut("extras") {
                extras.iter_mut().for_each(|x| complete(Some(x), TraitKind::Extra));
            }
        }
        "push" if perk.get("trump").is_none() => perk["trump"] = json!(Uuid::new_v4()),
        _ => {}
    }
}

/// Gives a new trait what it left out: an id, its kind, how it came.
fn complete(t: Option<&mut Value>, kind: TraitKind) {
    let Some(Value::Object(t)) = t else { return };
    t.entry("id").or_insert_with(|| json!(Uuid::new_v4()));
    t.entry("via").or_insert_with(|| json!("granted"));
    if !t.contains_key("kind") {
        let template = t.get("template").and_then(|x| serde_json::from_value::<Template>(x.clone()).ok());
        t.insert("kind".into(), json!(template.map_or(kind, Template::kind)));
    }
}

// ---------------------------------------------------------------------------------------
// Words

fn and_list(items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

fn perks_word(result: ActionResult) -> &'static str {
    match result {
        ActionResult::DoubleSuccess => "2 major perks",
        ActionResult::Success => "1 major perk",
        ActionResult::Tie => "1 minor perk",
        ActionResult::Failure => "no perk, 1 adversity",
    }
}

fn perk_word(p: PerkName) -> &'static str {
    match p {
        PerkName::Hinder => "Hinder",
        PerkName::Recover => "Recover",
        PerkName::Discover => "Discover",
        PerkName::Expose => "Expose",
        PerkName::Bind => "Bind",
        PerkName::BreakFree => "Break Free",
        PerkName::Damage => "Damage",
        PerkName::Heal => "Heal",
        PerkName::Push => "Push",
        PerkName::Ruin => "Ruin",
    }
}

fn why_word(why: Why) -> &'static str {
    match why {
        Why::Surrender => "surrendered",
        Why::NoOpponents => "no opponent left",
        Why::Withdrawal => "Victorious Withdrawal",
        Why::Exile => "Defeated Exile",
        Why::LockedOut => "every die locked out",
        Why::TakenOut => "taken out by a wound",
    }
}

fn leave_word(how: Leave) -> &'static str {
    match how {
        Leave::Victory => "victory",
        Leave::Defeat => "defeat",
    }
}

fn perk_use(p: &PerkUse, els: &[Element]) -> String {
    match (p, p.target()) {
        (PerkUse::Discover { detail }, _) => format!("Discover (“{detail}”)"),
        (_, Some(target)) => format!("{} on {}", perk_word(p.name()), name(els, target)),
        (_, None) => perk_word(p.name()).to_owned(),
    }
}

/// "1 vote", "2 votes".
fn counted(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn spend_word(s: &Spend, els: &[Element]) -> String {
    match s {
        Spend::VictoryNarration { votes } => format!("victory narration ({})", counted(*votes, "vote", "votes")),
        Spend::ClaimingStakes { perks, uses } if uses.is_empty() => {
            format!("claiming stakes ({})", counted(*perks, "major perk", "major perks"))
        }
        Spend::ClaimingStakes { uses, .. } => {
            let used: Vec<String> = uses.iter().map(|p| perk_use(p, els)).collect();
            format!("claiming stakes: {}", and_list(used))
        }
        Spend::LastingEffect { transient: true, .. } => "a lasting effect (a Transient Flaw added)".into(),
        Spend::LastingEffect { transient: false, .. } => "a lasting effect (a Transient Flaw removed)".into(),
        Spend::Boon { edge, .. } => format!("the boon “{}”", edge.name.trim()),
        Spend::DefeatConversion { adversity } => format!("{adversity} adversity"),
    }
}

/// What a move did, in words: the move itself, then who left, boosts given without a
/// choice, and the end.
fn words(before: &Challenge, mv: &Move, events: &[ChallengeEvent], old: &[Element], new: &[Element]) -> String {
    let n = |id: Uuid| name(new, id);
    let actor = |action: usize| before.actions.get(action).map_or_else(String::new, |a| n(a.challenger));
    let mut out = vec![match mv {
        Move::AddChallenger { element, .. } => {
            let side = events.iter().find_map(|e| match e {
                ChallengeEvent::Joined { side, .. } => Some(*side),
                _ => None,
            });
            // A side is named by the table, or by its number as the screen shows it (from 1).
            let side = side.map_or_else(String::new, |s| match before.sides.get(s) {
                Some(known) if !known.name.trim().is_empty() => format!("“{}”", known.name.trim()),
                _ => format!("side {}", s + 1),
            });
            format!("{} joins {side}.", n(*element))
        }
        Move::AddGoal { element, .. } => format!("{} becomes a goal of the challenge.", n(*element)),
        Move::MajorActions { .. } => {
            let recorded: Vec<String> = events
                .iter()
                .filter_map(|e| match e {
                    ChallengeEvent::ActionRecorded { challenger, score, opposing, result, .. } => Some(format!(
                        "{}'s major action: {score} against {opposing} — {}.",
                        n(*challenger),
                        perks_word(*result)
                    )),
                    _ => None,
                })
                .collect();
            recorded.join(" ")
        }
        Move::ChangeStakes { challenger, stake, .. } => {
            format!("{} changes its stakes to “{}”.", n(*challenger), stake.trim())
        }
        Move::Trade { action } => format!("{} trades a major perk for two minor perks.", actor(*action)),
        Move::Declare { action, perk } => format!("{} declares {}.", actor(*action), perk_use(perk, new)),
        Move::FinalCounter { action, element } => format!(
            "{} sacrifices its Plot Protection: a Final Counter removes {}'s perks.",
            n(*element),
            actor(*action)
        ),
        Move::Settle { action } => {
            let declared = before.actions.get(*action).map_or(&[][..], |a| &a.declared[..]);
            if declared.is_empty() {
                format!("{}'s perks are settled with none declared.", actor(*action))
            } else {
                let used: Vec<String> = declared.iter().map(|p| perk_use(p, new)).collect();
                format!("{}'s perks take effect: {}.", actor(*action), and_list(used))
            }
        }
        Move::Complicate { goal, text } => {
            format!("A complication counters the Push on {}: “{}”.", n(*goal), text.trim())
        }
        Move::Surrender { challenger } => format!("{} surrenders.", n(*challenger)),
        Move::EndRound { .. } => format!("Round {} ends.", before.round),
        Move::DrawTrump { points } => format!("The trump draws {points} momentum from its goal."),
        Move::AwardBoost { to } => format!("{} gets a momentum boost.", n(*to)),
        Move::Spend { challenger, spend, from_stake: true, .. } => {
            let cost = events.iter().find_map(|e| match e {
                ChallengeEvent::StakePoolSpent { cost, .. } => Some(*cost),
                _ => None,
            });
            format!(
                "{} spends {} momentum of its stake's pool on {}.",
                n(*challenger),
                cost.unwrap_or_default(),
                spend_word(spend, new)
            )
        }
        Move::Spend { challenger, spend, .. } => {
            let was = old.iter().find(|e| e.id == *challenger).map_or(0, |e| e.momentum);
            let now = new.iter().find(|e| e.id == *challenger).map_or(0, |e| e.momentum);
            format!("{} spends {} momentum on {}.", n(*challenger), was.saturating_sub(now), spend_word(spend, new))
        }
        Move::Depart => "The leavers depart.".into(),
    }];
    // The award the table picked is the move itself; awards given after it without a choice
    // are told.
    let mut picked = matches!(mv, Move::AwardBoost { .. });
    for e in events {
        match e {
            ChallengeEvent::PerksForfeited { majors, minors, .. } => {
                out.push(format!("{majors} major and {minors} minor perk(s) forfeited."));
            }
            ChallengeEvent::Leaving { challenger, how, why } => {
                out.push(format!("{} leaves in {} ({}).", n(*challenger), leave_word(*how), why_word(*why)));
            }
            ChallengeEvent::BoostAwarded { to, .. } if !std::mem::take(&mut picked) => {
                out.push(format!("{} gets a momentum boost.", n(*to)));
            }
            ChallengeEvent::BoostLapsed { awards, .. } => out.push(format!("{awards} boost award(s) lapse.")),
            ChallengeEvent::Ended { .. } => out.push("The challenge is over.".into()),
            _ => {}
        }
    }
    out.retain(|s| !s.is_empty());
    out.join(" ")
}
