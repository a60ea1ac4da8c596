// Declares the app's commands so each needs an explicit grant in capabilities/default.json.
const COMMANDS: &[&str] = &[
    "list_systems",
    "list_games",
    "create_game",
    "rename_game",
    "delete_game",
    "undo_game",
    "create_character",
    "rename_character",
    "delete_character",
    "undo_character",
    "copy_character",
    "move_character",
    "export_character",
    "export_game",
    "export_all",
    "import_preview",
    "import_apply",
    "nsu_sheet",
    "save_nsu_sheet",
    "nsu_roll_preview",
    "nsu_roll_dice",
    "nsu_roll_help",
    "nsu_pending_roll",
    "nsu_roll_needs",
    "nsu_roll_resolve",
    "nsu_roll_log",
    "ui_ready",
];

fn main() {
    tauri_build::try_build(
        tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .expect("the Tauri build step failed");
}
