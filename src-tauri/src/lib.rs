//! The Sheetkeeper window: a Tauri 2 shell that opens the database and exposes the core's
//! services as commands. Rules, SQL and file formats live in the `sheetkeeper` crate.

mod commands;
mod error;
mod mezzo_challenge_commands;
mod mezzo_commands;
mod penny_commands;
mod scattershot_commands;
mod startup;
mod state;

use std::path::PathBuf;

use tauri::Manager;

pub use error::AppError;
use state::AppState;

/// Opens `$SHEETKEEPER_DB` when set (tests; its folder must exist), else `sheetkeeper.db`
/// in the app data folder, which is made on first start.
fn open_store<R: tauri::Runtime>(app: &tauri::App<R>) -> sheetkeeper::Result<sheetkeeper::Store> {
    match std::env::var_os(sheetkeeper::paths::DB_ENV) {
        Some(p) if !p.is_empty() => sheetkeeper::Store::open(&PathBuf::from(p)),
        _ => {
            let folder = app.path().app_data_dir().map_err(|e| sheetkeeper::Error::Invalid {
                field: "database".into(),
                problem: format!("no app data folder: {e}"),
            })?;
            sheetkeeper::Store::open_creating_folder(&folder.join(sheetkeeper::paths::DB_FILE_NAME))
        }
    }
}

/// Builds the app on `builder`; tests can pass a mock builder.
pub fn run_app<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            let store = open_store(app);
            if let Err(e) = &store {
                eprintln!("sheetkeeper: {e}");
            }
            app.manage(AppState::new(store));
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::list_systems,
            commands::list_games,
            commands::create_game,
            commands::rename_game,
            commands::delete_game,
            commands::undo_game,
            commands::create_character,
            commands::rename_character,
            commands::delete_character,
            commands::undo_character,
            commands::copy_character,
            commands::move_character,
            commands::export_character,
            commands::export_game,
            commands::export_all,
            commands::import_preview,
            commands::import_apply,
            commands::nsu_sheet,
            commands::save_nsu_sheet,
            commands::nsu_roll_preview,
            penny_commands::penny_table,
            penny_commands::penny_private,
            penny_commands::penny_ledger,
            penny_commands::penny_log,
            penny_commands::penny_create_character,
            penny_commands::penny_starting_pennies,
            penny_commands::penny_buy_characteristic,
            penny_commands::penny_start_adventure,
            penny_commands::penny_end_adventure,
            penny_commands::penny_add_antagonist,
            penny_commands::penny_edit_antagonist,
            penny_commands::penny_fund_antagonist,
            penny_commands::penny_recall_purse,
            penny_commands::penny_repay_loan,
            penny_commands::penny_repay_debt,
            penny_commands::penny_start_challenge,
            penny_commands::penny_challenge_move,
            mezzo_commands::mezzo_conflict_preview,
            mezzo_commands::mezzo_resolve_conflict,
            mezzo_commands::mezzo_break_tie,
            mezzo_commands::mezzo_compromise,
            mezzo_commands::mezzo_table,
            mezzo_commands::mezzo_log,
            mezzo_commands::mezzo_add_player,
            mezzo_commands::mezzo_rename_player,
            mezzo_commands::mezzo_remove_player,
            mezzo_commands::mezzo_take_role,
            mezzo_commands::mezzo_leave_role,
            mezzo_commands::mezzo_claim,
            mezzo_commands::mezzo_unclaim,
            mezzo_commands::mezzo_spend_influence,
            mezzo_commands::mezzo_gain_influence,
            mezzo_commands::mezzo_start_arc,
            mezzo_commands::mezzo_add_element,
            mezzo_commands::mezzo_rename_element,
            mezzo_commands::mezzo_remove_element,
            mezzo_commands::mezzo_add_trait,
            mezzo_commands::mezzo_edit_trait,
            mezzo_commands::mezzo_remove_trait,
            mezzo_commands::mezzo_award_edge_slots,
            mezzo_commands::mezzo_award_memorable,
            mezzo_commands::mezzo_gain_adversity,
            mezzo_commands::mezzo_spend_adversity,
            mezzo_commands::mezzo_gain_momentum,
            mezzo_commands::mezzo_spend_momentum,
            mezzo_commands::mezzo_plot_protection,
            mezzo_commands::mezzo_plot,
            mezzo_commands::mezzo_even_share,
            mezzo_commands::mezzo_create_hook,
            mezzo_commands::mezzo_invest,
            mezzo_commands::mezzo_tap,
            mezzo_commands::mezzo_resolve_hook,
            mezzo_commands::mezzo_raise_stakes,
            mezzo_commands::mezzo_no_escape,
            mezzo_commands::mezzo_ignore_protection,
            mezzo_commands::mezzo_no_escape_lapses,
            mezzo_commands::mezzo_turning_point,
            mezzo_commands::mezzo_set_theme,
            mezzo_commands::mezzo_end_arc,
            mezzo_commands::mezzo_deck,
            mezzo_commands::mezzo_hand,
            mezzo_commands::mezzo_build_deck,
            mezzo_commands::mezzo_add_cards,
            mezzo_commands::mezzo_start_session,
            mezzo_commands::mezzo_buy_cards,
            mezzo_commands::mezzo_play_card,
            mezzo_commands::mezzo_deplete_card,
            mezzo_commands::mezzo_link_cards,
            mezzo_commands::mezzo_deck_end_of,
            mezzo_commands::mezzo_refresh,
            mezzo_commands::mezzo_draw_inspiration,
            mezzo_commands::mezzo_settle_inspiration,
            mezzo_commands::mezzo_set_keyword_die,
            mezzo_commands::mezzo_roll_keyword,
            mezzo_commands::mezzo_check_preview,
            mezzo_commands::mezzo_check_roll,
            mezzo_commands::mezzo_check_pending,
            mezzo_commands::mezzo_check_resolve,
            mezzo_commands::mezzo_check_break_tie,
            mezzo_commands::mezzo_check_compromise,
            mezzo_challenge_commands::mezzo_challenge,
            mezzo_challenge_commands::mezzo_challenge_start,
            mezzo_challenge_commands::mezzo_challenge_play,
            mezzo_challenge_commands::mezzo_challenge_roll_majors,
            mezzo_challenge_commands::mezzo_challenge_resolve_majors,
            mezzo_challenge_commands::mezzo_take_breather,
            mezzo_challenge_commands::mezzo_escape_restraints,
            mezzo_challenge_commands::mezzo_treat_wounds,
            commands::nsu_roll_dice,
            commands::nsu_roll_help,
            commands::nsu_pending_roll,
            commands::nsu_roll_needs,
            commands::nsu_roll_resolve,
            commands::nsu_roll_log,
            commands::nsu_world,
            commands::nsu_map,
            commands::nsu_world_add_safety,
            commands::nsu_world_remove_safety,
            commands::nsu_world_ban,
            commands::nsu_world_add_statement,
            commands::nsu_world_add_scope_question,
            commands::nsu_world_answer_scope,
            commands::nsu_world_create_resources,
            commands::nsu_world_set_resource,
            commands::nsu_world_author_location,
            commands::nsu_world_roll_levels,
            commands::nsu_world_place,
            commands::nsu_world_reveal,
            commands::nsu_world_tick_collateral,
            commands::nsu_world_add_scene_detail,
            commands::nsu_world_record_scout,
            commands::nsu_world_start_project,
            commands::nsu_world_mark_project,
            commands::nsu_world_add_npc,
            commands::nsu_world_add_npc_detail,
            commands::nsu_world_remove_npc_detail,
            commands::nsu_downtime,
            commands::nsu_downtime_start,
            commands::nsu_downtime_complication,
            commands::nsu_downtime_recover_harm,
            commands::nsu_downtime_upgrade_skills,
            commands::nsu_downtime_project,
            commands::nsu_downtime_reconnect,
            commands::nsu_downtime_introspection_roll,
            commands::nsu_downtime_introspection_finish,
            commands::nsu_downtime_address_collateral,
            commands::nsu_downtime_add_collateral_die,
            commands::nsu_downtime_settle_collateral,
            commands::nsu_downtime_train_roll,
            commands::nsu_downtime_train_mark,
            commands::nsu_downtime_seek_recovery,
            commands::nsu_downtime_scout,
            commands::nsu_downtime_final_box,
            commands::nsu_downtime_end,
            commands::ui_ready,
            scattershot_commands::scattershot_table,
            scattershot_commands::scattershot_log,
            scattershot_commands::scattershot_sheet,
            scattershot_commands::scattershot_sheet_edit,
            scattershot_commands::scattershot_table_edit,
            scattershot_commands::scattershot_roll_preview,
            scattershot_commands::scattershot_roll,
            scattershot_commands::scattershot_play,
            scattershot_commands::scattershot_reward,
        ])
}

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    startup::mark_start();
    if let Err(e) = run_app(tauri::Builder::default()).run(tauri::generate_context!()) {
        eprintln!("sheetkeeper: the window could not start: {e}");
        std::process::exit(1);
    }
}
