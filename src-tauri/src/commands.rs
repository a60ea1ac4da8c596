//! The commands the UI invokes, one line each (`command.rs` writes the wrapper once): each
//! converts its arguments, calls one service, and maps the error. No rules and no SQL here.
//! Every command that touches the store is `#[tauri::command(async)]`: Tauri runs it on its
//! async runtime's threads, not on the main thread, so a slow call (or a write waiting for
//! another program's lock) never freezes the window. Export and import, with their file
//! dialogs, are in `transfer_commands.rs`.

use sheetkeeper::model::{parse_id, Character};
use sheetkeeper::rules::journal::SessionEdit;
use sheetkeeper::rules::nsu::downtime::{
    FinalBoxChoice, HarmRecovery, Introspection, PhaseSetup, Reconnection, SeekRecovery, Votes,
};
use sheetkeeper::rules::nsu::roll::{Choices, Edge, MoodChoice, Need, RollSetup};
use sheetkeeper::rules::nsu::world::{GridPos, ResourceState, SafetyList, World};
use sheetkeeper::rules::nsu::{Aspect, Die, Sheet};
use sheetkeeper::services::{
    self, DiceInput, Done, DowntimeView, FeedCard, GameView, JournalChange, JournalView, LocationDraft, MapCard,
    NsuSheetView, PendingRoll, ProjectAction, RollLogEntry, RollPreview, RollResult, TrayEntry, WorldChange,
};
use tauri::{AppHandle, Runtime, State};

use crate::command::commands;
use crate::error::AppError;
use crate::state::AppState;

commands! {
    read list_games() -> Vec<GameView> = services::list;
    write create_game(ref name: String, ref system: String) -> GameView;
    write rename_game(id id, ref name: String) -> GameView;
    write delete_game(id id) -> Done;
    write undo_game(id id) -> Done;
    write create_character(id game_id as "gameId", ref name: String) -> Character;
    write rename_character(id id, ref name: String) -> Character;
    write delete_character(id id) -> Done;
    write undo_character(id id) -> Done;
    write copy_character(id id, id to_game as "toGame") -> Character;
    read dice_tray_log(id game; 50) -> Vec<TrayEntry>;
    read journal(id game) -> JournalView;
    write journal_start(id game, ref date: String, ref attendees: Vec<String>) -> JournalChange;
    write journal_end(id game) -> JournalChange;
    write journal_edit(id game, val number: u32, ref edit: SessionEdit) -> JournalChange;
    write move_character(id id, id to_game as "toGame") -> Character;

    read nsu_sheet(id id) -> NsuSheetView;
    write save_nsu_sheet(id id, val sheet: Sheet) -> NsuSheetView;
    read nsu_roll_preview(id id, ref setup: RollSetup, val helper_die: Option<Die>, or_default helper_edge: Edge)
        -> RollPreview;
    write nsu_roll_dice(id id, ref setup: RollSetup, ref dice: DiceInput; &mut rand::rng()) -> PendingRoll;
    write nsu_roll_help(id_first id, id_first helper, ref mood: MoodChoice, ref dice: DiceInput; &mut rand::rng())
        -> PendingRoll;
    read nsu_pending_roll(id id) -> Option<PendingRoll>;
    read nsu_roll_needs(id id, ref choices: Choices) -> Vec<Need>;
    write nsu_roll_resolve(id id, ref choices: Choices) -> RollResult;
    read nsu_roll_log(id game, opt_id_first character; 200) -> Vec<RollLogEntry>;
}

// ---- No Stone Unturned: world and downtime ------------------------------------------------

commands! {
    read nsu_world(id game) -> World;
    read nsu_map(id game, opt_id_first viewer) -> Vec<MapCard>;
    write nsu_world_add_safety(id game, val list: SafetyList, ref text: String) -> WorldChange;
    write nsu_world_remove_safety(id game, val list: SafetyList, val index: usize) -> WorldChange;
    write nsu_world_ban(id game, ref player: String, deref ban: Option<String>) -> WorldChange;
    write nsu_world_add_statement(id game, ref author: String, ref text: String) -> WorldChange;
    write nsu_world_add_scope_question(id game, ref question: String) -> WorldChange;
    write nsu_world_add_guiding_questions(id game) -> WorldChange;
    read nsu_world_guiding_missing(id game) -> usize;
    write nsu_world_answer_scope(id game, val index: usize, ref answer: String) -> WorldChange;
    write nsu_world_create_resources(id game, ref names: Vec<String>, val abundance: usize) -> WorldChange;
    write nsu_world_set_resource(id game, val index: usize, val resource_state: ResourceState) -> WorldChange;
    write nsu_world_author_location(id game, ref draft: LocationDraft) -> WorldChange;
    write nsu_world_roll_levels(id_first game, id_first location, ref dice: DiceInput; &mut rand::rng())
        -> WorldChange;
    write nsu_world_place(id game, id location, val at: GridPos) -> WorldChange;
    write nsu_world_reveal(id game, id location) -> WorldChange;
    write nsu_world_tick_collateral(id_first game, id_first location, val delta: i8) -> WorldChange;
    write nsu_world_add_scene_detail(id_first game, id_first location, ref text: String, val world_at_risk: bool)
        -> WorldChange;
    write nsu_world_start_project(id_first game, id_first owner, ref name: String, val size: u8) -> WorldChange;
    write nsu_world_mark_project(id_first game, id_first project, val segments: u8) -> WorldChange;
    write nsu_world_add_npc(id game, ref name: String) -> WorldChange;
    write nsu_world_add_npc_detail(id_first game, id_first npc, ref text: String, val positive: bool) -> WorldChange;
    /// A detail granted by settled roll `roll` of character `id`; ticks the party's location
    /// when that roll had the World at risk.
    write nsu_roll_write_detail(id id, val roll: i64, ref target: services::DetailTarget, ref text: String)
        -> services::RollDetailWritten;
    write nsu_world_set_party_location(id game, opt_id_first location) -> WorldChange;
    write nsu_world_deal(id game, ref cells: Vec<GridPos>, ref dice: DiceInput; &mut rand::rng()) -> WorldChange;
    write nsu_world_add_path(id_first game, id_first a, id_first b) -> WorldChange;
    write nsu_world_remove_path(id_first game, id_first a, id_first b) -> WorldChange;
    write nsu_world_link_author(id_first game, id_first location, opt_id_first character) -> WorldChange;
    write nsu_world_set_npc_threshold(id_first game, id_first npc, val threshold: Option<u8>) -> WorldChange;
    write nsu_world_add_npc_harm(id_first game, id_first npc, ref text: String) -> WorldChange;
    write nsu_world_remove_npc_harm(id_first game, id_first npc, val index: usize) -> WorldChange;
    write nsu_world_remove_npc_detail(id_first game, id_first npc, val index: usize) -> WorldChange;

    read nsu_downtime(id game) -> Option<DowntimeView>;
    write nsu_downtime_start(id game, ids_first characters, val setup: PhaseSetup) -> DowntimeView;
    write nsu_downtime_complication(id_first game, id_first location, ref dice: DiceInput; &mut rand::rng())
        -> DowntimeView;
    write nsu_downtime_recover_harm(id_first game, id_first character, ref recoveries: Vec<HarmRecovery>)
        -> DowntimeView;
    write nsu_downtime_upgrade_skills(id_first game, id_first character) -> DowntimeView;
    write nsu_downtime_project(
        id_first game, id_first character, ref action: ProjectAction, ref dice: DiceInput; &mut rand::rng()
    ) -> DowntimeView;
    write nsu_downtime_reconnect(id_first game, id_first character, ref choice: Reconnection) -> DowntimeView;
    write nsu_downtime_introspection_roll(id_first game, id_first character, ref dice: DiceInput; &mut rand::rng())
        -> DowntimeView;
    write nsu_downtime_introspection_finish(id_first game, id_first character, ref choice: Introspection)
        -> DowntimeView;
    write nsu_downtime_address_collateral(
        id_first game, id_first character, id_first location, val votes: Votes, ref dice: DiceInput; &mut rand::rng()
    ) -> DowntimeView;
    write nsu_downtime_add_collateral_die(
        id_first game, id_first character, id_first location, val aspect: Aspect, ref dice: DiceInput;
        &mut rand::rng()
    ) -> DowntimeView;
    write nsu_downtime_settle_collateral(id_first game, id_first location) -> DowntimeView;
    write nsu_downtime_train_roll(
        id_first game, id_first character, val aspect: Aspect, ref dice: DiceInput; &mut rand::rng()
    ) -> DowntimeView;
    write nsu_downtime_train_mark(id_first game, id_first character, ref skills: Vec<usize>) -> DowntimeView;
    write nsu_downtime_seek_recovery(
        id_first game, id_first character, val choice: SeekRecovery, ref dice: DiceInput; &mut rand::rng()
    ) -> DowntimeView;
    write nsu_downtime_final_box(id_first game, id_first character, val line: usize, ref choice: FinalBoxChoice)
        -> DowntimeView;
    write nsu_downtime_end(id game) -> DowntimeView;
}

/// A roll on a game's dice tray. Hand-written: on a device joined to the game's table the
/// dice are rolled here and the roll is sent to the table's device, which logs it (the game's
/// log is the table's; the store is not held while the host answers); elsewhere the roll is
/// made and logged here.
#[tauri::command(async)]
pub fn dice_tray_roll(
    state: State<'_, AppState>,
    game: String,
    character: Option<String>,
    expression: String,
) -> Result<TrayEntry, AppError> {
    let game = parse_id("game", &game)?;
    let character = character.map(|c| parse_id("character", &c)).transpose()?;
    if let Some(join) = state.joined().filter(|j| j.handle().status().game == Some(game)) {
        let (mv, entry) =
            services::dice_tray_roll_here(&*state.store()?, game, character, &expression, &mut rand::rng())?;
        join.handle().submit_move(mv)?;
        return Ok(entry);
    }
    Ok(services::dice_tray_roll(&mut *state.store()?, game, character, &expression, &mut rand::rng())?)
}

/// The table feed's cards of `game` after `since` (a place in its log), oldest first.
/// Written out: on a device joined to the table, the cards are the table's, as its link
/// received them (the log is the table's); elsewhere they are read from this device's log.
#[tauri::command(async)]
pub fn game_feed(state: State<'_, AppState>, game: String, since: i64) -> Result<Vec<FeedCard>, AppError> {
    let game = parse_id("game", &game)?;
    if let Some(join) = state.joined().filter(|j| j.handle().status().game == Some(game)) {
        return Ok(join.handle().feed(since));
    }
    Ok(services::game_feed(&*state.store()?, game, since)?)
}

/// The three complication tables as the core rolls them. Hand-written: no store, no error.
#[tauri::command(async)]
pub fn nsu_complication_tables() -> Vec<sheetkeeper::rules::nsu::downtime::ComplicationTable> {
    services::nsu_complication_tables()
}

/// The UI shows its first screen with data: the startup probe's finish line. `origin` and
/// `marks` are the page's own timings (see `startup`). Hand-written: the app, not the store.
#[tauri::command]
pub fn ui_ready<R: Runtime>(app: AppHandle<R>, origin: Option<f64>, marks: Option<Vec<(String, f64)>>) {
    crate::startup::ready(&app, origin, &marks.unwrap_or_default());
}
