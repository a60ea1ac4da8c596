//! The No Stone Unturned commands for play from one player's device: a helper on another
//! device typed in, and "I helped with…" on the helper's own device. Each converts its
//! arguments, calls one service, and maps the error. No rules and no SQL here.

use sheetkeeper::model::parse_id;
use sheetkeeper::rules::nsu::roll::{HelpedWith, Need, RemoteHelper};
use sheetkeeper::services::{self, DiceInput, HelpedResult, PendingRoll};
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

#[tauri::command(async)]
pub fn nsu_roll_help_elsewhere(
    state: State<'_, AppState>,
    id: String,
    helper: RemoteHelper,
    dice: DiceInput,
) -> Reply<PendingRoll> {
    let id = parse_id("id", &id)?;
    Ok(services::nsu_roll_help_elsewhere(&mut *state.store()?, id, &helper, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_helped_with_needs(state: State<'_, AppState>, id: String, input: HelpedWith) -> Reply<Vec<Need>> {
    Ok(services::nsu_helped_with_needs(&*state.store()?, parse_id("id", &id)?, &input)?)
}

#[tauri::command(async)]
pub fn nsu_helped_with(state: State<'_, AppState>, id: String, input: HelpedWith) -> Reply<HelpedResult> {
    Ok(services::nsu_helped_with(&mut *state.store()?, parse_id("id", &id)?, &input)?)
}
