//! The commands about this device and its owner: the role it plays in each game, which
//! characters are the owner's own, notes, the home screen's cards, settings, and a game's
//! view for a viewer. One line each, like `commands.rs`.

use serde::Serialize;
use sheetkeeper::model::{parse_id, DeviceRole};
use sheetkeeper::services::{self, CharacterCard, DeviceSettings, Done, GameView, SystemInfo, TableView};
use sheetkeeper::Store;
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

#[tauri::command(async)]
pub fn device_role(state: State<'_, AppState>, game: String) -> Reply<DeviceRole> {
    Ok(services::device_role(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn set_device_role(state: State<'_, AppState>, game: String, role: String) -> Reply<Done> {
    Ok(services::set_device_role(&mut *state.store()?, parse_id("game", &game)?, &role)?)
}

#[tauri::command(async)]
pub fn set_dice_by_hand(state: State<'_, AppState>, game: String, by_hand: bool) -> Reply<Done> {
    Ok(services::set_dice_by_hand(&mut *state.store()?, parse_id("game", &game)?, by_hand)?)
}

#[tauri::command(async)]
pub fn set_mine(state: State<'_, AppState>, character: String, mine: bool) -> Reply<Done> {
    Ok(services::set_mine(&mut *state.store()?, parse_id("character", &character)?, mine)?)
}

#[tauri::command(async)]
pub fn set_character_notes(state: State<'_, AppState>, id: String, notes: String) -> Reply<Done> {
    Ok(services::set_character_notes(&mut *state.store()?, parse_id("id", &id)?, &notes)?)
}

#[tauri::command(async)]
pub fn set_game_notes(state: State<'_, AppState>, id: String, notes: String) -> Reply<Done> {
    Ok(services::set_game_notes(&mut *state.store()?, parse_id("id", &id)?, &notes)?)
}

#[tauri::command(async)]
pub fn character_cards(state: State<'_, AppState>) -> Reply<Vec<CharacterCard>> {
    Ok(services::character_cards(&*state.store()?)?)
}

/// What the home screen shows first, read in one call so the first screen waits for one
/// round trip instead of four.
#[derive(Serialize)]
pub struct Home {
    settings: DeviceSettings,
    systems: Vec<SystemInfo>,
    games: Vec<GameView>,
    cards: Vec<CharacterCard>,
}

#[tauri::command(async)]
pub fn home(state: State<'_, AppState>) -> Reply<Home> {
    Ok(home_view(&*state.store()?)?)
}

/// The `home` command's answer; the window is also built with it (`webview::open_main`), so
/// the first screen needs no round trip.
pub fn home_view(store: &Store) -> sheetkeeper::Result<Home> {
    Ok(Home {
        settings: services::settings(store)?,
        systems: services::systems(),
        games: services::list(store)?,
        cards: services::character_cards(store)?,
    })
}

#[tauri::command(async)]
pub fn set_device_setting(state: State<'_, AppState>, key: String, value: String) -> Reply<Done> {
    Ok(services::set_device_setting(&mut *state.store()?, &key, &value)?)
}

/// The game as this device's role sees it, or — with `viewer` — as a narrower viewer
/// (`everyone`, or one of this device's characters) sees it. Never wider than the role.
#[tauri::command(async)]
pub fn game_view(state: State<'_, AppState>, game: String, viewer: Option<String>) -> Reply<TableView> {
    Ok(services::game_view_on_device(&*state.store()?, parse_id("game", &game)?, viewer.as_deref())?)
}
