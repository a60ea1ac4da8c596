//! The Scattershot's Mechanix commands: each converts its arguments, calls one service, and
//! maps the error. No rules and no SQL here. Ids arrive as strings; moves arrive as the
//! services' tagged JSON (`{"move": "dice", "party": "actor"}`).

use sheetkeeper::model::parse_id;
use sheetkeeper::services::{
    self, DiceInput, MibPreview, PlayMove, RewardMove, RollMove, RollRequest, ScattershotChange, ScattershotLogEntry,
    ScattershotSheetChange, ScattershotSheetView, ScattershotView, SheetEdit, TableEdit,
};
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

#[tauri::command(async)]
pub fn scattershot_table(state: State<'_, AppState>, game: String) -> Reply<ScattershotView> {
    Ok(services::scattershot_table(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn scattershot_log(state: State<'_, AppState>, game: String) -> Reply<Vec<ScattershotLogEntry>> {
    Ok(services::scattershot_log(&*state.store()?, parse_id("game", &game)?, 200)?)
}

#[tauri::command(async)]
pub fn scattershot_sheet(state: State<'_, AppState>, character: String) -> Reply<ScattershotSheetView> {
    Ok(services::scattershot_sheet(&*state.store()?, parse_id("character", &character)?)?)
}

#[tauri::command(async)]
pub fn scattershot_sheet_edit(
    state: State<'_, AppState>,
    character: String,
    edit: SheetEdit,
) -> Reply<ScattershotSheetChange> {
    Ok(services::scattershot_sheet_edit(&mut *state.store()?, parse_id("character", &character)?, &edit)?)
}

#[tauri::command(async)]
pub fn scattershot_table_edit(state: State<'_, AppState>, game: String, edit: TableEdit) -> Reply<ScattershotChange> {
    Ok(services::scattershot_table_edit(&mut *state.store()?, parse_id("game", &game)?, &edit)?)
}

#[tauri::command(async)]
pub fn scattershot_roll_preview(state: State<'_, AppState>, game: String, request: RollRequest) -> Reply<MibPreview> {
    Ok(services::scattershot_roll_preview(&*state.store()?, parse_id("game", &game)?, &request)?)
}

#[tauri::command(async)]
pub fn scattershot_roll(
    state: State<'_, AppState>,
    game: String,
    step: RollMove,
    dice: DiceInput,
) -> Reply<ScattershotChange> {
    Ok(services::scattershot_roll(&mut *state.store()?, parse_id("game", &game)?, &step, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn scattershot_play(state: State<'_, AppState>, game: String, step: PlayMove) -> Reply<ScattershotChange> {
    Ok(services::scattershot_play(&mut *state.store()?, parse_id("game", &game)?, &step)?)
}

#[tauri::command(async)]
pub fn scattershot_reward(state: State<'_, AppState>, game: String, reward: RewardMove) -> Reply<ScattershotChange> {
    Ok(services::scattershot_reward(&mut *state.store()?, parse_id("game", &game)?, &reward)?)
}
