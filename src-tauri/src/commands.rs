//! The commands the UI invokes: each converts its arguments, calls one service, and maps
//! the error. No rules and no SQL here. Every command that touches the store is
//! `#[tauri::command(async)]`: Tauri runs it on its async runtime's threads, not on the main
//! thread, so a slow call (or a write waiting for another program's lock) never freezes the
//! window. Export and import, with their file dialogs, are in `transfer_commands.rs`.

use sheetkeeper::model::parse_id;
use sheetkeeper::model::Character;
use sheetkeeper::rules::nsu::downtime::{
    FinalBoxChoice, HarmRecovery, Introspection, PhaseSetup, Reconnection, SeekRecovery, Votes,
};
use sheetkeeper::rules::nsu::roll::{Choices, Edge, MoodChoice, Need, RollSetup};
use sheetkeeper::rules::nsu::world::{GridPos, ResourceState, SafetyList, World};
use sheetkeeper::rules::nsu::{Aspect, Die, Sheet};
use sheetkeeper::services::{
    self, DiceInput, Done, DowntimeView, GameView, LocationDraft, MapCard, NsuSheetView, PendingRoll, ProjectAction,
    RollLogEntry, RollPreview, RollResult, WorldChange,
};
use tauri::{AppHandle, Runtime, State};

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

#[tauri::command(async)]
pub fn list_games(state: State<'_, AppState>) -> Reply<Vec<GameView>> {
    Ok(services::list(&*state.store()?)?)
}

#[tauri::command(async)]
pub fn create_game(state: State<'_, AppState>, name: String, system: String) -> Reply<GameView> {
    Ok(services::create_game(&mut *state.store()?, &name, &system)?)
}

#[tauri::command(async)]
pub fn rename_game(state: State<'_, AppState>, id: String, name: String) -> Reply<GameView> {
    Ok(services::rename_game(&mut *state.store()?, parse_id("id", &id)?, &name)?)
}

#[tauri::command(async)]
pub fn delete_game(state: State<'_, AppState>, id: String) -> Reply<Done> {
    Ok(services::delete_game(&mut *state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn undo_game(state: State<'_, AppState>, id: String) -> Reply<Done> {
    Ok(services::undo_game(&mut *state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn create_character(state: State<'_, AppState>, game_id: String, name: String) -> Reply<Character> {
    Ok(services::create_character(&mut *state.store()?, parse_id("gameId", &game_id)?, &name)?)
}

#[tauri::command(async)]
pub fn rename_character(state: State<'_, AppState>, id: String, name: String) -> Reply<Character> {
    Ok(services::rename_character(&mut *state.store()?, parse_id("id", &id)?, &name)?)
}

#[tauri::command(async)]
pub fn delete_character(state: State<'_, AppState>, id: String) -> Reply<Done> {
    Ok(services::delete_character(&mut *state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn undo_character(state: State<'_, AppState>, id: String) -> Reply<Done> {
    Ok(services::undo_character(&mut *state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn copy_character(state: State<'_, AppState>, id: String, to_game: String) -> Reply<Character> {
    Ok(services::copy_character(&mut *state.store()?, parse_id("id", &id)?, parse_id("toGame", &to_game)?)?)
}

#[tauri::command(async)]
pub fn move_character(state: State<'_, AppState>, id: String, to_game: String) -> Reply<Character> {
    Ok(services::move_character(&mut *state.store()?, parse_id("id", &id)?, parse_id("toGame", &to_game)?)?)
}

#[tauri::command(async)]
pub fn nsu_sheet(state: State<'_, AppState>, id: String) -> Reply<NsuSheetView> {
    Ok(services::nsu_sheet(&*state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn save_nsu_sheet(state: State<'_, AppState>, id: String, sheet: Sheet) -> Reply<NsuSheetView> {
    Ok(services::save_nsu_sheet(&mut *state.store()?, parse_id("id", &id)?, sheet)?)
}

#[tauri::command(async)]
pub fn nsu_roll_preview(
    state: State<'_, AppState>,
    id: String,
    setup: RollSetup,
    helper_die: Option<Die>,
    helper_edge: Option<Edge>,
) -> Reply<RollPreview> {
    let edge = helper_edge.unwrap_or_default();
    Ok(services::nsu_roll_preview(&*state.store()?, parse_id("id", &id)?, &setup, helper_die, edge)?)
}

#[tauri::command(async)]
pub fn nsu_roll_dice(state: State<'_, AppState>, id: String, setup: RollSetup, dice: DiceInput) -> Reply<PendingRoll> {
    Ok(services::nsu_roll_dice(&mut *state.store()?, parse_id("id", &id)?, &setup, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
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

#[tauri::command(async)]
pub fn nsu_pending_roll(state: State<'_, AppState>, id: String) -> Reply<Option<PendingRoll>> {
    Ok(services::nsu_pending_roll(&*state.store()?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn nsu_roll_needs(state: State<'_, AppState>, id: String, choices: Choices) -> Reply<Vec<Need>> {
    Ok(services::nsu_roll_needs(&*state.store()?, parse_id("id", &id)?, &choices)?)
}

#[tauri::command(async)]
pub fn nsu_roll_resolve(state: State<'_, AppState>, id: String, choices: Choices) -> Reply<RollResult> {
    Ok(services::nsu_roll_resolve(&mut *state.store()?, parse_id("id", &id)?, &choices)?)
}

#[tauri::command(async)]
pub fn nsu_roll_log(state: State<'_, AppState>, game: String, character: Option<String>) -> Reply<Vec<RollLogEntry>> {
    let character = character.map(|c| parse_id("character", &c)).transpose()?;
    Ok(services::nsu_roll_log(&*state.store()?, parse_id("game", &game)?, character, 200)?)
}

// ---- No Stone Unturned: world and downtime ------------------------------------------------

#[tauri::command(async)]
pub fn nsu_world(state: State<'_, AppState>, game: String) -> Reply<World> {
    Ok(services::nsu_world(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn nsu_map(state: State<'_, AppState>, game: String, viewer: Option<String>) -> Reply<Vec<MapCard>> {
    let viewer = viewer.map(|v| parse_id("viewer", &v)).transpose()?;
    Ok(services::nsu_map(&*state.store()?, parse_id("game", &game)?, viewer)?)
}

#[tauri::command(async)]
pub fn nsu_world_add_safety(
    state: State<'_, AppState>,
    game: String,
    list: SafetyList,
    text: String,
) -> Reply<WorldChange> {
    Ok(services::nsu_world_add_safety(&mut *state.store()?, parse_id("game", &game)?, list, &text)?)
}

#[tauri::command(async)]
pub fn nsu_world_remove_safety(
    state: State<'_, AppState>,
    game: String,
    list: SafetyList,
    index: usize,
) -> Reply<WorldChange> {
    Ok(services::nsu_world_remove_safety(&mut *state.store()?, parse_id("game", &game)?, list, index)?)
}

#[tauri::command(async)]
pub fn nsu_world_ban(
    state: State<'_, AppState>,
    game: String,
    player: String,
    ban: Option<String>,
) -> Reply<WorldChange> {
    Ok(services::nsu_world_ban(&mut *state.store()?, parse_id("game", &game)?, &player, ban.as_deref())?)
}

#[tauri::command(async)]
pub fn nsu_world_add_statement(
    state: State<'_, AppState>,
    game: String,
    author: String,
    text: String,
) -> Reply<WorldChange> {
    Ok(services::nsu_world_add_statement(&mut *state.store()?, parse_id("game", &game)?, &author, &text)?)
}

#[tauri::command(async)]
pub fn nsu_world_add_scope_question(state: State<'_, AppState>, game: String, question: String) -> Reply<WorldChange> {
    Ok(services::nsu_world_add_scope_question(&mut *state.store()?, parse_id("game", &game)?, &question)?)
}

#[tauri::command(async)]
pub fn nsu_world_add_guiding_questions(state: State<'_, AppState>, game: String) -> Reply<WorldChange> {
    Ok(services::nsu_world_add_guiding_questions(&mut *state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn nsu_world_guiding_missing(state: State<'_, AppState>, game: String) -> Reply<usize> {
    Ok(services::nsu_world_guiding_missing(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn nsu_world_answer_scope(
    state: State<'_, AppState>,
    game: String,
    index: usize,
    answer: String,
) -> Reply<WorldChange> {
    Ok(services::nsu_world_answer_scope(&mut *state.store()?, parse_id("game", &game)?, index, &answer)?)
}

#[tauri::command(async)]
pub fn nsu_world_create_resources(
    state: State<'_, AppState>,
    game: String,
    names: Vec<String>,
    abundance: usize,
) -> Reply<WorldChange> {
    Ok(services::nsu_world_create_resources(&mut *state.store()?, parse_id("game", &game)?, &names, abundance)?)
}

#[tauri::command(async)]
pub fn nsu_world_set_resource(
    state: State<'_, AppState>,
    game: String,
    index: usize,
    resource_state: ResourceState,
) -> Reply<WorldChange> {
    Ok(services::nsu_world_set_resource(&mut *state.store()?, parse_id("game", &game)?, index, resource_state)?)
}

#[tauri::command(async)]
pub fn nsu_world_author_location(state: State<'_, AppState>, game: String, draft: LocationDraft) -> Reply<WorldChange> {
    Ok(services::nsu_world_author_location(&mut *state.store()?, parse_id("game", &game)?, &draft)?)
}

#[tauri::command(async)]
pub fn nsu_world_roll_levels(
    state: State<'_, AppState>,
    game: String,
    location: String,
    dice: DiceInput,
) -> Reply<WorldChange> {
    let (game, location) = (parse_id("game", &game)?, parse_id("location", &location)?);
    Ok(services::nsu_world_roll_levels(&mut *state.store()?, game, location, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_world_place(state: State<'_, AppState>, game: String, location: String, at: GridPos) -> Reply<WorldChange> {
    Ok(services::nsu_world_place(&mut *state.store()?, parse_id("game", &game)?, parse_id("location", &location)?, at)?)
}

#[tauri::command(async)]
pub fn nsu_world_reveal(state: State<'_, AppState>, game: String, location: String) -> Reply<WorldChange> {
    Ok(services::nsu_world_reveal(&mut *state.store()?, parse_id("game", &game)?, parse_id("location", &location)?)?)
}

#[tauri::command(async)]
pub fn nsu_world_tick_collateral(
    state: State<'_, AppState>,
    game: String,
    location: String,
    delta: i8,
) -> Reply<WorldChange> {
    let (game, location) = (parse_id("game", &game)?, parse_id("location", &location)?);
    Ok(services::nsu_world_tick_collateral(&mut *state.store()?, game, location, delta)?)
}

#[tauri::command(async)]
pub fn nsu_world_add_scene_detail(
    state: State<'_, AppState>,
    game: String,
    location: String,
    text: String,
    world_at_risk: bool,
) -> Reply<WorldChange> {
    let (game, location) = (parse_id("game", &game)?, parse_id("location", &location)?);
    Ok(services::nsu_world_add_scene_detail(&mut *state.store()?, game, location, &text, world_at_risk)?)
}

#[tauri::command(async)]
pub fn nsu_world_start_project(
    state: State<'_, AppState>,
    game: String,
    owner: String,
    name: String,
    size: u8,
) -> Reply<WorldChange> {
    let (game, owner) = (parse_id("game", &game)?, parse_id("owner", &owner)?);
    Ok(services::nsu_world_start_project(&mut *state.store()?, game, owner, &name, size)?)
}

#[tauri::command(async)]
pub fn nsu_world_mark_project(
    state: State<'_, AppState>,
    game: String,
    project: String,
    segments: u8,
) -> Reply<WorldChange> {
    let (game, project) = (parse_id("game", &game)?, parse_id("project", &project)?);
    Ok(services::nsu_world_mark_project(&mut *state.store()?, game, project, segments)?)
}

#[tauri::command(async)]
pub fn nsu_world_add_npc(state: State<'_, AppState>, game: String, name: String) -> Reply<WorldChange> {
    Ok(services::nsu_world_add_npc(&mut *state.store()?, parse_id("game", &game)?, &name)?)
}

#[tauri::command(async)]
pub fn nsu_world_add_npc_detail(
    state: State<'_, AppState>,
    game: String,
    npc: String,
    text: String,
    positive: bool,
) -> Reply<WorldChange> {
    let (game, npc) = (parse_id("game", &game)?, parse_id("npc", &npc)?);
    Ok(services::nsu_world_add_npc_detail(&mut *state.store()?, game, npc, &text, positive)?)
}

/// A detail granted by settled roll `roll` of character `id`; ticks the party's location
/// when that roll had the World at risk.
#[tauri::command(async)]
pub fn nsu_roll_write_detail(
    state: State<'_, AppState>,
    id: String,
    roll: i64,
    target: services::DetailTarget,
    text: String,
) -> Reply<services::RollDetailWritten> {
    Ok(services::nsu_roll_write_detail(&mut *state.store()?, parse_id("id", &id)?, roll, &target, &text)?)
}

#[tauri::command(async)]
pub fn nsu_world_set_party_location(
    state: State<'_, AppState>,
    game: String,
    location: Option<String>,
) -> Reply<WorldChange> {
    let location = location.map(|l| parse_id("location", &l)).transpose()?;
    Ok(services::nsu_world_set_party_location(&mut *state.store()?, parse_id("game", &game)?, location)?)
}

#[tauri::command(async)]
pub fn nsu_world_deal(
    state: State<'_, AppState>,
    game: String,
    cells: Vec<GridPos>,
    dice: DiceInput,
) -> Reply<WorldChange> {
    Ok(services::nsu_world_deal(&mut *state.store()?, parse_id("game", &game)?, &cells, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_world_add_path(state: State<'_, AppState>, game: String, a: String, b: String) -> Reply<WorldChange> {
    let (game, a, b) = (parse_id("game", &game)?, parse_id("a", &a)?, parse_id("b", &b)?);
    Ok(services::nsu_world_add_path(&mut *state.store()?, game, a, b)?)
}

#[tauri::command(async)]
pub fn nsu_world_remove_path(state: State<'_, AppState>, game: String, a: String, b: String) -> Reply<WorldChange> {
    let (game, a, b) = (parse_id("game", &game)?, parse_id("a", &a)?, parse_id("b", &b)?);
    Ok(services::nsu_world_remove_path(&mut *state.store()?, game, a, b)?)
}

#[tauri::command(async)]
pub fn nsu_world_link_author(
    state: State<'_, AppState>,
    game: String,
    location: String,
    character: Option<String>,
) -> Reply<WorldChange> {
    let (game, location) = (parse_id("game", &game)?, parse_id("location", &location)?);
    let character = character.map(|c| parse_id("character", &c)).transpose()?;
    Ok(services::nsu_world_link_author(&mut *state.store()?, game, location, character)?)
}

#[tauri::command(async)]
pub fn nsu_world_set_npc_threshold(
    state: State<'_, AppState>,
    game: String,
    npc: String,
    threshold: Option<u8>,
) -> Reply<WorldChange> {
    let (game, npc) = (parse_id("game", &game)?, parse_id("npc", &npc)?);
    Ok(services::nsu_world_set_npc_threshold(&mut *state.store()?, game, npc, threshold)?)
}

#[tauri::command(async)]
pub fn nsu_world_add_npc_harm(
    state: State<'_, AppState>,
    game: String,
    npc: String,
    text: String,
) -> Reply<WorldChange> {
    let (game, npc) = (parse_id("game", &game)?, parse_id("npc", &npc)?);
    Ok(services::nsu_world_add_npc_harm(&mut *state.store()?, game, npc, &text)?)
}

#[tauri::command(async)]
pub fn nsu_world_remove_npc_harm(
    state: State<'_, AppState>,
    game: String,
    npc: String,
    index: usize,
) -> Reply<WorldChange> {
    let (game, npc) = (parse_id("game", &game)?, parse_id("npc", &npc)?);
    Ok(services::nsu_world_remove_npc_harm(&mut *state.store()?, game, npc, index)?)
}

#[tauri::command(async)]
pub fn nsu_world_remove_npc_detail(
    state: State<'_, AppState>,
    game: String,
    npc: String,
    index: usize,
) -> Reply<WorldChange> {
    let (game, npc) = (parse_id("game", &game)?, parse_id("npc", &npc)?);
    Ok(services::nsu_world_remove_npc_detail(&mut *state.store()?, game, npc, index)?)
}

#[tauri::command(async)]
pub fn nsu_downtime(state: State<'_, AppState>, game: String) -> Reply<Option<DowntimeView>> {
    Ok(services::nsu_downtime(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn nsu_downtime_start(
    state: State<'_, AppState>,
    game: String,
    characters: Vec<String>,
    setup: PhaseSetup,
) -> Reply<DowntimeView> {
    let characters = characters.iter().map(|c| parse_id("characters", c)).collect::<Result<Vec<_>, _>>()?;
    Ok(services::nsu_downtime_start(&mut *state.store()?, parse_id("game", &game)?, &characters, setup)?)
}

/// The three complication tables as the core rolls them.
#[tauri::command(async)]
pub fn nsu_complication_tables() -> Vec<sheetkeeper::rules::nsu::downtime::ComplicationTable> {
    services::nsu_complication_tables()
}

#[tauri::command(async)]
pub fn nsu_downtime_complication(
    state: State<'_, AppState>,
    game: String,
    location: String,
    dice: DiceInput,
) -> Reply<DowntimeView> {
    let (game, location) = (parse_id("game", &game)?, parse_id("location", &location)?);
    Ok(services::nsu_downtime_complication(&mut *state.store()?, game, location, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_downtime_recover_harm(
    state: State<'_, AppState>,
    game: String,
    character: String,
    recoveries: Vec<HarmRecovery>,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_recover_harm(&mut *state.store()?, game, character, &recoveries)?)
}

#[tauri::command(async)]
pub fn nsu_downtime_upgrade_skills(state: State<'_, AppState>, game: String, character: String) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_upgrade_skills(&mut *state.store()?, game, character)?)
}

#[tauri::command(async)]
pub fn nsu_downtime_project(
    state: State<'_, AppState>,
    game: String,
    character: String,
    action: ProjectAction,
    dice: DiceInput,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_project(&mut *state.store()?, game, character, &action, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_downtime_reconnect(
    state: State<'_, AppState>,
    game: String,
    character: String,
    choice: Reconnection,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_reconnect(&mut *state.store()?, game, character, &choice)?)
}

#[tauri::command(async)]
pub fn nsu_downtime_introspection_roll(
    state: State<'_, AppState>,
    game: String,
    character: String,
    dice: DiceInput,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_introspection_roll(&mut *state.store()?, game, character, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_downtime_introspection_finish(
    state: State<'_, AppState>,
    game: String,
    character: String,
    choice: Introspection,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_introspection_finish(&mut *state.store()?, game, character, &choice)?)
}

#[tauri::command(async)]
pub fn nsu_downtime_address_collateral(
    state: State<'_, AppState>,
    game: String,
    character: String,
    location: String,
    votes: Votes,
    dice: DiceInput,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    let location = parse_id("location", &location)?;
    let store = &mut *state.store()?;
    Ok(services::nsu_downtime_address_collateral(store, game, character, location, votes, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_downtime_add_collateral_die(
    state: State<'_, AppState>,
    game: String,
    character: String,
    location: String,
    aspect: Aspect,
    dice: DiceInput,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    let location = parse_id("location", &location)?;
    let store = &mut *state.store()?;
    Ok(services::nsu_downtime_add_collateral_die(store, game, character, location, aspect, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_downtime_settle_collateral(
    state: State<'_, AppState>,
    game: String,
    location: String,
) -> Reply<DowntimeView> {
    let (game, location) = (parse_id("game", &game)?, parse_id("location", &location)?);
    Ok(services::nsu_downtime_settle_collateral(&mut *state.store()?, game, location)?)
}

#[tauri::command(async)]
pub fn nsu_downtime_train_roll(
    state: State<'_, AppState>,
    game: String,
    character: String,
    aspect: Aspect,
    dice: DiceInput,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_train_roll(&mut *state.store()?, game, character, aspect, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_downtime_train_mark(
    state: State<'_, AppState>,
    game: String,
    character: String,
    skills: Vec<usize>,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_train_mark(&mut *state.store()?, game, character, &skills)?)
}

#[tauri::command(async)]
pub fn nsu_downtime_seek_recovery(
    state: State<'_, AppState>,
    game: String,
    character: String,
    choice: SeekRecovery,
    dice: DiceInput,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_seek_recovery(&mut *state.store()?, game, character, choice, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn nsu_downtime_final_box(
    state: State<'_, AppState>,
    game: String,
    character: String,
    line: usize,
    choice: FinalBoxChoice,
) -> Reply<DowntimeView> {
    let (game, character) = (parse_id("game", &game)?, parse_id("character", &character)?);
    Ok(services::nsu_downtime_final_box(&mut *state.store()?, game, character, line, &choice)?)
}

#[tauri::command(async)]
pub fn nsu_downtime_end(state: State<'_, AppState>, game: String) -> Reply<DowntimeView> {
    Ok(services::nsu_downtime_end(&mut *state.store()?, parse_id("game", &game)?)?)
}

/// The UI shows its first screen with data: the startup probe's finish line. `origin` and
/// `marks` are the page's own timings (see `startup`).
#[tauri::command]
pub fn ui_ready<R: Runtime>(app: AppHandle<R>, origin: Option<f64>, marks: Option<Vec<(String, f64)>>) {
    crate::startup::ready(&app, origin, &marks.unwrap_or_default());
}
