//! The commands the UI invokes: each converts its arguments, calls one service, and maps
//! the error. No rules and no SQL here.

use std::path::PathBuf;

use sheetkeeper::exchange::Preview;
use sheetkeeper::model::parse_id;
use sheetkeeper::model::Character;
use sheetkeeper::rules::nsu::roll::{Choices, MoodChoice, Need, RollSetup};
use sheetkeeper::rules::nsu::{Die, Sheet};
use sheetkeeper::services::{
    self, DiceInput, Done, ExportScope, GameView, ImportOptions, ImportReport, NsuSheetView, PendingRoll, RollLogEntry,
    RollPreview, RollResult, SystemInfo,
};
use tauri::{AppHandle, Runtime, State};

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

#[tauri::command]
pub fn list_systems() -> Vec<SystemInfo> {
    services::systems()
}

#[tauri::command]
pub fn list_games(state: State<'_, AppState>) -> Reply<Vec<GameView>> {
    Ok(services::list(&*state.store()?)?)
}

#[tauri::command]
pub fn create_game(state: State<'_, AppState>, name: String, system: String) -> Reply<GameView> {
    Ok(services::create_game(&mut *state.store()?, &name, &system)?)
}

#[tauri::command]
pub fn rename_game(state: State<'_, AppState>, id: String, name: String) -> Reply<GameView> {
    Ok(services::rename_game(&mut *state.store()?, parse_id("id", &id)?, &name)?)
}

#[tauri::command]
pub fn delete_game(state: State<'_, AppState>, id: String) -> Reply<Done> {
    Ok(services::delete_game(&mut *state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command]
pub fn undo_game(state: State<'_, AppState>, id: String) -> Reply<Done> {
    Ok(services::undo_game(&mut *state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command]
pub fn create_character(state: State<'_, AppState>, game_id: String, name: String) -> Reply<Character> {
    Ok(services::create_character(&mut *state.store()?, parse_id("gameId", &game_id)?, &name)?)
}

#[tauri::command]
pub fn rename_character(state: State<'_, AppState>, id: String, name: String) -> Reply<Character> {
    Ok(services::rename_character(&mut *state.store()?, parse_id("id", &id)?, &name)?)
}

#[tauri::command]
pub fn delete_character(state: State<'_, AppState>, id: String) -> Reply<Done> {
    Ok(services::delete_character(&mut *state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command]
pub fn undo_character(state: State<'_, AppState>, id: String) -> Reply<Done> {
    Ok(services::undo_character(&mut *state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command]
pub fn copy_character(state: State<'_, AppState>, id: String, to_game: String) -> Reply<Character> {
    Ok(services::copy_character(&mut *state.store()?, parse_id("id", &id)?, parse_id("toGame", &to_game)?)?)
}

#[tauri::command]
pub fn move_character(state: State<'_, AppState>, id: String, to_game: String) -> Reply<Character> {
    Ok(services::move_character(&mut *state.store()?, parse_id("id", &id)?, parse_id("toGame", &to_game)?)?)
}

#[tauri::command]
pub fn export_character(state: State<'_, AppState>, id: String, path: PathBuf) -> Reply<Done> {
    Ok(services::export(&*state.store()?, ExportScope::Character(parse_id("id", &id)?), &path)?)
}

#[tauri::command]
pub fn export_game(state: State<'_, AppState>, id: String, path: PathBuf) -> Reply<Done> {
    Ok(services::export(&*state.store()?, ExportScope::Game(parse_id("id", &id)?), &path)?)
}

#[tauri::command]
pub fn export_all(state: State<'_, AppState>, path: PathBuf) -> Reply<Done> {
    Ok(services::export(&*state.store()?, ExportScope::All, &path)?)
}

#[tauri::command]
pub fn import_preview(state: State<'_, AppState>, path: PathBuf, as_copy: bool) -> Reply<Preview> {
    Ok(services::import_preview(&*state.store()?, &path, as_copy)?)
}

#[tauri::command]
pub fn import_apply(
    state: State<'_, AppState>,
    path: PathBuf,
    as_copy: bool,
    replace_conflicts: bool,
) -> Reply<ImportReport> {
    Ok(services::import(&mut *state.store()?, &path, ImportOptions { as_copy, replace_conflicts })?)
}

#[tauri::command]
pub fn nsu_sheet(state: State<'_, AppState>, id: String) -> Reply<NsuSheetView> {
    Ok(services::nsu_sheet(&*state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command]
pub fn save_nsu_sheet(state: State<'_, AppState>, id: String, sheet: Sheet) -> Reply<NsuSheetView> {
    Ok(services::save_nsu_sheet(&mut *state.store()?, parse_id("id", &id)?, sheet)?)
}

#[tauri::command]
pub fn nsu_roll_preview(
    state: State<'_, AppState>,
    id: String,
    setup: RollSetup,
    helper_die: Option<Die>,
) -> Reply<RollPreview> {
    Ok(services::nsu_roll_preview(&*state.store()?, parse_id("id", &id)?, &setup, helper_die)?)
}

#[tauri::command]
pub fn nsu_roll_dice(state: State<'_, AppState>, id: String, setup: RollSetup, dice: DiceInput) -> Reply<PendingRoll> {
    Ok(services::nsu_roll_dice(&mut *state.store()?, parse_id("id", &id)?, &setup, &dice, &mut rand::rng())?)
}

#[tauri::command]
pub fn nsu_roll_help(
    state: State<'_, AppState>,
    id: String,
    helper: String,
    mood: MoodChoice,
    dice: DiceInput,
) -> Reply<PendingRoll> {
    let (id, helper) = (parse_id("id", &id)?, parse_id("helper", &helper)?);
    Ok(services::nsu_roll_help(&mut *state.store()?, id, helper, &mood, &dice, &mut rand::rng())?)
}

#[tauri::command]
pub fn nsu_pending_roll(state: State<'_, AppState>, id: String) -> Reply<Option<PendingRoll>> {
    Ok(services::nsu_pending_roll(&*state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command]
pub fn nsu_roll_needs(state: State<'_, AppState>, id: String, choices: Choices) -> Reply<Vec<Need>> {
    Ok(services::nsu_roll_needs(&*state.store()?, parse_id("id", &id)?, &choices)?)
}

#[tauri::command]
pub fn nsu_roll_resolve(state: State<'_, AppState>, id: String, choices: Choices) -> Reply<RollResult> {
    Ok(services::nsu_roll_resolve(&mut *state.store()?, parse_id("id", &id)?, &choices)?)
}

#[tauri::command]
pub fn nsu_roll_log(state: State<'_, AppState>, game: String, character: Option<String>) -> Reply<Vec<RollLogEntry>> {
    let character = character.map(|c| parse_id("character", &c)).transpose()?;
    Ok(services::nsu_roll_log(&*state.store()?, parse_id("game", &game)?, character, 200)?)
}

/// The UI shows its first screen with data: the startup probe's finish line.
#[tauri::command]
pub fn ui_ready<R: Runtime>(app: AppHandle<R>) {
    crate::startup::ready(&app);
}
