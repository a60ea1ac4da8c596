//! The Mezzo challenge commands: each converts its arguments, calls one service, and maps
//! the error. No rules and no SQL here. Ids arrive as strings; a move arrives as the rules'
//! JSON (its new traits may leave out their ids: the service gives them).

use sheetkeeper::model::parse_id;
use sheetkeeper::rules::mezzo::action_check::Surge;
use sheetkeeper::rules::mezzo::challenge::HealEffect;
use sheetkeeper::rules::mezzo::recovery::RecoveryCheck;
use sheetkeeper::services::{
    self, CheckRequest, DiceInput, MezzoChallengeChange, MezzoChallengeDraft, MezzoChallengeView, MezzoChange,
};
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

#[tauri::command(async)]
pub fn mezzo_challenge(state: State<'_, AppState>, game: String) -> Reply<Option<MezzoChallengeView>> {
    Ok(services::mezzo_challenge(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_challenge_start(
    state: State<'_, AppState>,
    game: String,
    draft: MezzoChallengeDraft,
) -> Reply<MezzoChallengeChange> {
    Ok(services::mezzo_challenge_start(&mut *state.store()?, parse_id("game", &game)?, &draft)?)
}

#[tauri::command(async)]
pub fn mezzo_challenge_play(
    state: State<'_, AppState>,
    game: String,
    draft: serde_json::Value,
) -> Reply<MezzoChallengeChange> {
    Ok(services::mezzo_challenge_play(&mut *state.store()?, parse_id("game", &game)?, &draft)?)
}

#[tauri::command(async)]
pub fn mezzo_challenge_roll_majors(
    state: State<'_, AppState>,
    game: String,
    request: CheckRequest,
    majors: Vec<String>,
    dice: DiceInput,
) -> Reply<MezzoChallengeChange> {
    let majors = majors.iter().map(|id| parse_id("majors", id)).collect::<sheetkeeper::Result<Vec<_>>>()?;
    Ok(services::mezzo_challenge_roll_majors(
        &mut *state.store()?,
        parse_id("game", &game)?,
        &request,
        &majors,
        &dice,
        &mut rand::rng(),
    )?)
}

#[tauri::command(async)]
pub fn mezzo_challenge_resolve_majors(
    state: State<'_, AppState>,
    game: String,
    surges: Vec<Surge>,
    majors: Vec<String>,
) -> Reply<MezzoChallengeChange> {
    let majors = majors.iter().map(|id| parse_id("majors", id)).collect::<sheetkeeper::Result<Vec<_>>>()?;
    Ok(services::mezzo_challenge_resolve_majors(&mut *state.store()?, parse_id("game", &game)?, &surges, &majors)?)
}

#[tauri::command(async)]
pub fn mezzo_take_breather(
    state: State<'_, AppState>,
    game: String,
    element: String,
    flaw: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_take_breather(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        parse_id("flaw", &flaw)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_escape_restraints(
    state: State<'_, AppState>,
    game: String,
    element: String,
    restraint: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_escape_restraints(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        parse_id("restraint", &restraint)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_treat_wounds(
    state: State<'_, AppState>,
    game: String,
    element: String,
    wound: String,
    effect: HealEffect,
    recovery: RecoveryCheck,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_treat_wounds(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        parse_id("wound", &wound)?,
        &effect,
        recovery,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_challenge_from_check(
    state: State<'_, AppState>,
    game: String,
    check: String,
    draft: MezzoChallengeDraft,
) -> Reply<MezzoChallengeChange> {
    Ok(services::mezzo_challenge_from_check(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("check", &check)?,
        &draft,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_tempting_target(
    state: State<'_, AppState>,
    game: String,
    action: usize,
    target: String,
) -> Reply<MezzoChallengeChange> {
    Ok(services::mezzo_tempting_target(
        &mut *state.store()?,
        parse_id("game", &game)?,
        action,
        parse_id("target", &target)?,
    )?)
}
