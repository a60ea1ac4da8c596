//! The Sheetkeeper window: a Tauri 2 shell that opens the database and exposes the core's
//! services as commands. Rules, SQL and file formats live in the `sheetkeeper` crate.

mod command;
mod commands;
mod device_commands;
mod error;
mod gift_commands;
mod join_link;
mod link_commands;
mod link_note_commands;
mod mezzo_challenge_commands;
mod mezzo_commands;
mod nsu_commands;
mod penny_commands;
mod print_commands;
mod scattershot_commands;
mod startup;
mod state;
mod transfer_commands;
mod webview;

use std::path::PathBuf;

use tauri::Manager;
use tauri_plugin_deep_link::DeepLinkExt;

pub use error::AppError;
use state::AppState;

/// Which database to open, as the environment names it. Read on the main thread before the
/// start thread exists: GTK changes the environment while it starts (GDK unsets
/// DESKTOP_STARTUP_ID, which a desktop launcher sets), and libc's getenv on another thread
/// may then miss a variable, so the thread would open the default database instead.
struct DbPlace {
    /// `$SHEETKEEPER_DB` when set (tests; its folder must exist).
    db: Option<PathBuf>,
    /// The app data folder, which holds `sheetkeeper.db` and is made on first start.
    folder: Result<PathBuf, String>,
}

impl DbPlace {
    fn read(folder: Result<PathBuf, String>) -> DbPlace {
        DbPlace { db: db_from_env(), folder }
    }
}

/// `$SHEETKEEPER_DB` when set and not empty.
fn db_from_env() -> Option<PathBuf> {
    std::env::var_os(sheetkeeper::paths::DB_ENV).filter(|p| !p.is_empty()).map(PathBuf::from)
}

fn open_store(place: DbPlace) -> sheetkeeper::Result<sheetkeeper::Store> {
    match place.db {
        Some(db) => sheetkeeper::Store::open_beside(&db, place.folder.as_deref().ok()),
        None => {
            let folder = place.folder.map_err(|problem| sheetkeeper::Error::Invalid {
                field: "database".into(),
                problem: format!("no app data folder: {problem}"),
            })?;
            sheetkeeper::Store::open_creating_folder(&folder.join(sheetkeeper::paths::DB_FILE_NAME))
        }
    }
}

/// The database, and the home screen's data for the window to carry (`webview::open_main`).
type Opened = (sheetkeeper::Result<sheetkeeper::Store>, Option<device_commands::Home>);

fn open_with_home(place: DbPlace) -> Opened {
    let store = open_store(place);
    let home = store.as_ref().ok().and_then(|s| device_commands::home_view(s).ok());
    (store, home)
}

/// On a desktop, a second launch of the app on the same database hands its arguments (a
/// join link a phone's camera or a browser opened) to the running one and exits.
#[cfg(desktop)]
fn platform_plugins<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    let db = db_from_env();
    let plugin = tauri_plugin_single_instance::Builder::new()
        .dbus_id(join_link::instance_id(IDENTIFIER, db.as_deref()))
        .callback(|app, args, _cwd| join_link::offer(app, args))
        .build();
    builder.plugin(plugin)
}

/// On a phone, the join dialog can scan the host's QR code with the camera.
#[cfg(mobile)]
fn platform_plugins<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder.plugin(tauri_plugin_barcode_scanner::init())
}

/// The app's identifier (`tauri.conf.json`), the base of its single-instance name.
const IDENTIFIER: &str = "app.sheetkeeper";

fn url_text(url: &tauri::Url) -> String {
    url.as_str().to_owned()
}

/// Builds the app on `builder`; tests can pass a mock builder. `opening` is the database
/// being opened on a thread (see `run`); without it, it opens in `setup`.
pub fn run_app<R: tauri::Runtime>(
    builder: tauri::Builder<R>,
    opening: Option<std::thread::JoinHandle<Opened>>,
) -> tauri::Builder<R> {
    platform_plugins(builder)
        .plugin(tauri_plugin_deep_link::init())
        .plugin(tauri_plugin_dialog::init())
        .manage(join_link::JoinRequests::default())
        .setup(move |app| {
            let (store, home) = match opening.map(std::thread::JoinHandle::join) {
                Some(Ok(opened)) => opened,
                // A phone (its data folder comes from the app), or the thread failed.
                _ => open_with_home(DbPlace::read(app.path().app_data_dir().map_err(|e| e.to_string()))),
            };
            if let Err(e) = &store {
                eprintln!("sheetkeeper: {e}");
            }
            app.manage(AppState::new(store));
            // A join link the app was started with (read before the page exists; the page asks).
            join_link::offer(app.handle(), std::env::args());
            let handle = app.handle().clone();
            app.deep_link().on_open_url(move |event| {
                join_link::offer(&handle, event.urls().iter().map(url_text));
            });
            if let Ok(Some(urls)) = app.deep_link().get_current() {
                join_link::offer(app.handle(), urls.iter().map(url_text));
            }
            webview::open_main(app, home.as_ref())?;
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            join_link::link_join_request,
            join_link::link_can_scan,
            device_commands::device_role,
            device_commands::set_device_role,
            device_commands::set_dice_by_hand,
            device_commands::set_mine,
            device_commands::set_character_notes,
            device_commands::set_game_notes,
            device_commands::character_cards,
            device_commands::home,
            device_commands::set_device_setting,
            device_commands::game_view,
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
            commands::dice_tray_roll,
            commands::dice_tray_log,
            commands::journal,
            commands::journal_start,
            commands::journal_end,
            commands::journal_edit,
            commands::game_feed,
            transfer_commands::export_character,
            transfer_commands::export_game,
            transfer_commands::export_all,
            transfer_commands::import_pick,
            transfer_commands::import_preview,
            transfer_commands::import_apply,
            transfer_commands::import_cancel,
            print_commands::save_sheet_pdf,
            commands::nsu_sheet,
            commands::save_nsu_sheet,
            commands::nsu_roll_preview,
            penny_commands::penny_table,
            penny_commands::penny_private,
            penny_commands::penny_cup_choices,
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
            penny_commands::penny_set_recurring,
            penny_commands::penny_narrate,
            penny_commands::penny_start_challenge,
            penny_commands::penny_challenge_move,
            mezzo_commands::mezzo_conflict_preview,
            mezzo_commands::mezzo_resolve_conflict,
            mezzo_commands::mezzo_open_conflict,
            mezzo_commands::mezzo_open_conflict_for_votes,
            mezzo_commands::mezzo_withdraw_open_conflict,
            mezzo_commands::mezzo_resolve_open_conflict,
            mezzo_commands::mezzo_cast_ballot,
            mezzo_commands::mezzo_open_check,
            mezzo_commands::mezzo_open_check_for_votes,
            mezzo_commands::mezzo_withdraw_open_check,
            mezzo_commands::mezzo_roll_open_check,
            mezzo_commands::mezzo_cast_check_ballot,
            mezzo_commands::mezzo_break_tie,
            mezzo_commands::mezzo_compromise,
            mezzo_commands::mezzo_table,
            mezzo_commands::mezzo_log,
            mezzo_commands::mezzo_check_write_attempt,
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
            mezzo_commands::mezzo_conflict_sources,
            mezzo_commands::mezzo_put_law,
            mezzo_commands::mezzo_remove_law,
            mezzo_commands::mezzo_put_fact,
            mezzo_commands::mezzo_remove_fact,
            mezzo_commands::mezzo_conflict_d6_first,
            mezzo_commands::mezzo_end_arc,
            mezzo_commands::mezzo_deck,
            mezzo_commands::mezzo_hand,
            mezzo_commands::mezzo_seats,
            mezzo_commands::mezzo_sit,
            mezzo_commands::mezzo_build_deck,
            mezzo_commands::mezzo_add_cards,
            mezzo_commands::mezzo_start_session,
            mezzo_commands::mezzo_end_session,
            mezzo_commands::mezzo_card_move,
            mezzo_commands::mezzo_settle_inspiration,
            mezzo_commands::mezzo_set_keyword_die,
            mezzo_commands::mezzo_roll_keyword,
            mezzo_commands::mezzo_check_preview,
            mezzo_commands::mezzo_check_roll,
            mezzo_commands::mezzo_check_pending,
            mezzo_commands::mezzo_check_resolve,
            mezzo_commands::mezzo_check_break_tie,
            mezzo_commands::mezzo_check_compromise,
            mezzo_commands::mezzo_check_burst,
            mezzo_commands::mezzo_set_dice_variant,
            mezzo_commands::mezzo_set_active,
            mezzo_commands::mezzo_start_scene,
            mezzo_commands::mezzo_end_scene,
            mezzo_commands::mezzo_favored_flaw_used,
            mezzo_commands::mezzo_asset_access,
            mezzo_commands::mezzo_lend_gift,
            mezzo_commands::mezzo_invest_asset,
            mezzo_commands::mezzo_put_consequence,
            mezzo_commands::mezzo_remove_consequence,
            mezzo_challenge_commands::mezzo_challenge,
            mezzo_challenge_commands::mezzo_challenge_start,
            mezzo_challenge_commands::mezzo_challenge_play,
            mezzo_challenge_commands::mezzo_challenge_roll_majors,
            mezzo_challenge_commands::mezzo_challenge_resolve_majors,
            mezzo_challenge_commands::mezzo_challenge_from_check,
            mezzo_challenge_commands::mezzo_tempting_target,
            mezzo_challenge_commands::mezzo_take_breather,
            mezzo_challenge_commands::mezzo_escape_restraints,
            mezzo_challenge_commands::mezzo_treat_wounds,
            commands::nsu_roll_dice,
            commands::nsu_roll_help,
            nsu_commands::nsu_roll_help_elsewhere,
            nsu_commands::nsu_roll_approaches,
            nsu_commands::nsu_quick_roll,
            nsu_commands::nsu_roll_write_outcome,
            nsu_commands::nsu_helped_with_needs,
            nsu_commands::nsu_helped_with,
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
            commands::nsu_world_add_guiding_questions,
            commands::nsu_world_guiding_missing,
            commands::nsu_world_answer_scope,
            commands::nsu_world_create_resources,
            commands::nsu_world_set_resource,
            commands::nsu_world_author_location,
            commands::nsu_world_roll_levels,
            commands::nsu_world_place,
            commands::nsu_world_reveal,
            commands::nsu_world_tick_collateral,
            commands::nsu_world_add_scene_detail,
            commands::nsu_world_start_project,
            commands::nsu_world_mark_project,
            commands::nsu_world_add_npc,
            commands::nsu_world_add_npc_detail,
            commands::nsu_world_remove_npc_detail,
            commands::nsu_world_set_party_location,
            commands::nsu_roll_write_detail,
            commands::nsu_world_deal,
            commands::nsu_world_add_path,
            commands::nsu_world_remove_path,
            commands::nsu_world_link_author,
            commands::nsu_world_set_npc_threshold,
            commands::nsu_world_add_npc_harm,
            commands::nsu_world_remove_npc_harm,
            commands::nsu_downtime,
            commands::nsu_downtime_start,
            commands::nsu_complication_tables,
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
            commands::nsu_downtime_final_box,
            commands::nsu_downtime_end,
            commands::ui_ready,
            scattershot_commands::scattershot_table,
            scattershot_commands::scattershot_log,
            scattershot_commands::scattershot_sheet,
            scattershot_commands::scattershot_sheet_edit,
            scattershot_commands::scattershot_table_edit,
            scattershot_commands::scattershot_roll_preview,
            scattershot_commands::scattershot_bidding,
            scattershot_commands::scattershot_roll,
            scattershot_commands::scattershot_play,
            scattershot_commands::scattershot_reward,
            link_note_commands::link_send_note,
            link_note_commands::link_inbox,
            link_note_commands::link_take_note,
            gift_commands::link_give,
            gift_commands::link_gift_open,
            gift_commands::link_gift_put_away,
            link_commands::link_host_start,
            link_commands::link_host_status,
            link_commands::link_stop,
            link_commands::link_join,
            link_commands::link_join_status,
            link_commands::link_nearby,
            link_commands::link_devices,
            link_commands::link_unpair,
            link_commands::link_refused,
            link_commands::link_dismiss_refused,
            link_commands::link_claim,
            link_commands::link_host_approve_claim,
            link_commands::link_host_decline_claim,
            link_commands::link_host_open_pairing,
        ])
}

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    startup::mark_start();
    webview::draw_without_gl();
    // On a desktop the data folder is known before the app exists (paths.rs: the folder
    // Tauri's `app_data_dir` names), so the database opens, and home's data is read, while
    // the window system starts; the window is built with that data, so it waits for them.
    #[cfg(desktop)]
    let opening = {
        let place = DbPlace::read(sheetkeeper::paths::app_data_folder().ok_or_else(|| "no home folder".to_owned()));
        Some(std::thread::spawn(move || open_with_home(place)))
    };
    #[cfg(mobile)]
    let opening = None;
    if let Err(e) = run_app(tauri::Builder::default(), opening).run(tauri::generate_context!()) {
        eprintln!("sheetkeeper: the window could not start: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// The `"name",` lines of a file's list (build.rs's `COMMANDS`).
    fn quoted_lines(text: &str) -> BTreeSet<String> {
        text.lines().filter_map(|l| l.trim().strip_prefix('"')?.strip_suffix("\",")).map(str::to_owned).collect()
    }

    fn file(name: &str) -> String {
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).expect(name)
    }

    /// Guards F9 of the security review: the window is granted exactly the app's own
    /// commands (those `build.rs` declares and `generate_handler!` serves), and no plugin
    /// command, so the page cannot open a file dialog or name a path itself.
    #[test]
    fn capabilities_grant_exactly_our_commands() {
        let declared = quoted_lines(&file("build.rs"));
        let lib = file("src/lib.rs");
        let handler = &lib[lib.find("generate_handler![").expect("a generate_handler! list")..];
        let handler = &handler[..handler.find("])").expect("the end of the list")];
        let served: BTreeSet<String> = handler
            .lines()
            .filter_map(|l| l.trim().strip_suffix(',')?.rsplit("::").next().map(str::to_owned))
            .collect();
        assert_eq!(declared, served, "build.rs and generate_handler! list the same commands");

        let capability: serde_json::Value = serde_json::from_str(&file("capabilities/default.json")).unwrap();
        let granted: BTreeSet<String> = capability["permissions"]
            .as_array()
            .expect("a permissions list")
            .iter()
            .map(|p| p.as_str().expect("plain permission names").to_owned())
            .collect();
        let wanted: BTreeSet<String> = declared.iter().map(|c| format!("allow-{}", c.replace('_', "-"))).collect();
        assert_eq!(granted, wanted, "one grant per command, and nothing else (no dialog:, fs: or core:)");

        // On a phone, the camera's QR scan for the join dialog, and nothing else of a plugin.
        let mobile: serde_json::Value = serde_json::from_str(&file("capabilities/mobile.json")).unwrap();
        assert_eq!(mobile["platforms"], serde_json::json!(["android", "iOS"]));
        let scanner: Vec<&str> = mobile["permissions"].as_array().unwrap().iter().filter_map(|p| p.as_str()).collect();
        let scanner_only = ["scan", "cancel", "check-permissions", "request-permissions"]
            .map(|c| format!("barcode-scanner:allow-{c}"));
        assert_eq!(scanner, scanner_only);
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("capabilities");
        let mut files: Vec<String> =
            std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        files.sort();
        assert_eq!(files, ["default.json", "mobile.json"], "no other capability");
    }

    /// Issue 32: `sheetkeeper://` links reach this app. The deep-link plugin's scheme, the
    /// package's desktop entry (which hands the link to the app as its argument, `%u`) and the
    /// single-instance name's base are the configuration's.
    #[test]
    fn the_join_link_scheme_is_declared_everywhere() {
        let conf: serde_json::Value = serde_json::from_str(&file("tauri.conf.json")).unwrap();
        assert_eq!(conf["identifier"], super::IDENTIFIER);
        let deep_link = &conf["plugins"]["deep-link"];
        assert_eq!(deep_link["desktop"]["schemes"], serde_json::json!(["sheetkeeper"]));
        assert_eq!(deep_link["mobile"][0]["scheme"], serde_json::json!(["sheetkeeper"]));
        let entry = file("../packaging/linux/sheetkeeper.desktop");
        assert!(entry.lines().any(|l| l == "MimeType=x-scheme-handler/sheetkeeper;"), "{entry}");
        assert!(entry.lines().any(|l| l == "Exec=sheetkeeper-app %u"), "{entry}");
        let link = sheetkeeper::link::qr::join_link("10.0.0.2:4000", "K7P-4QY");
        assert!(link.starts_with("sheetkeeper://"), "the QR code's link is in the declared scheme: {link}");
    }

    /// Guards F8 of the security review: a plain `#[tauri::command] fn` runs on the main
    /// thread and freezes the window while it works, so every command that takes the store
    /// (its `State`) is `#[tauri::command(async)]` or an `async fn`. The one-line commands
    /// (`commands!`, `command.rs`) are all made `#[tauri::command(async)]`.
    #[test]
    fn every_store_command_runs_off_the_main_thread() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let maker = std::fs::read_to_string(dir.join("command.rs")).unwrap();
        let made: Vec<&str> = maker.lines().map(str::trim).filter(|l| l.starts_with("#[tauri::command")).collect();
        assert_eq!(made, ["#[tauri::command(async)]"], "commands! makes async commands only");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if !path.to_string_lossy().ends_with("commands.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let one_liners = text.lines().map(str::trim_start);
            checked += one_liners.filter(|l| l.starts_with("read ") || l.starts_with("write ")).count();
            for (at, _) in text.match_indices("#[tauri::command") {
                let rest = &text[at..];
                let signature = &rest[..rest.find('{').expect("a command has a body")];
                checked += 1;
                let off_main = signature.starts_with("#[tauri::command(async)]") || signature.contains("async fn");
                assert!(
                    off_main || !signature.contains("State<"),
                    "{} runs on the main thread: {signature}",
                    path.display()
                );
            }
        }
        assert!(checked > 160, "found the commands ({checked})");
    }

    /// The page loads nothing but its own files: no `data:` or remote sources in the CSP.
    #[test]
    fn the_csp_allows_only_our_own_files() {
        let conf: serde_json::Value = serde_json::from_str(&file("tauri.conf.json")).unwrap();
        let csp = conf["app"]["security"]["csp"].as_str().expect("a CSP string");
        for part in ["default-src 'self'", "script-src 'self'", "img-src 'self';", "object-src 'none'"] {
            assert!(csp.contains(part), "{part:?} in {csp:?}");
        }
        for absent in ["data:", "http://", "https://", "'unsafe-inline'", "'unsafe-eval'", "*"] {
            let without_ipc = csp.replace("http://ipc.localhost", "");
            assert!(!without_ipc.contains(absent), "{absent:?} in {csp:?}");
        }
    }

    /// Start-up (issue 18): the window serves the page bundled (build.rs, page_bundle.rs). The
    /// start is one file, with no import of its own; each game's screens are chunks that take
    /// the start's modules from it, so each module exists once (api.js's call queue, the
    /// screens' registry in systems.js); start.js, a plain script, is copied and runs first.
    #[test]
    fn the_page_is_served_bundled() {
        let page = std::path::Path::new(env!("OUT_DIR")).join("page");
        let read = |name: &str| std::fs::read_to_string(page.join(name)).expect(name);
        let files: Vec<(String, String)> = ["app.js", "chunks/nsu-screen.js", "chunks/penny_ante-screen.js"]
            .into_iter()
            .chain(["chunks/mezzo-screen.js", "chunks/scattershot-screen.js", "chunks/print-sheet.js"])
            .map(|name| (name.to_owned(), read(name)))
            .collect();
        let app = &files[0].1;
        assert!(!app.lines().any(|l| l.starts_with("import ") && l.contains(" from '")), "app.js imports nothing");
        for (name, text) in &files[1..] {
            assert!(text.contains(" from '../app.js';"), "{name} takes the start's modules from app.js");
        }
        for once in ["performance.mark(\"modules\")", "function registerLoader("] {
            let copies: Vec<&str> = files.iter().filter(|(_, t)| t.contains(once)).map(|(n, _)| n.as_str()).collect();
            assert_eq!(copies, ["app.js"], "{once} is in app.js alone");
        }
        let mut folders = vec![page.clone()];
        while let Some(folder) = folders.pop() {
            for path in std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().path()) {
                let name = path.strip_prefix(&page).unwrap().to_string_lossy().replace('\\', "/");
                if path.is_dir() {
                    folders.push(path);
                } else if name.ends_with(".js") {
                    let bundled = name == "app.js" || name == "start.js" || name.starts_with("chunks/");
                    assert!(bundled, "{name} is a module served unbundled");
                }
            }
        }
        let index = read("index.html");
        let start = index.find("<script src=\"start.js\"></script>").expect("start.js as a plain script");
        assert!(start < index.find("<link rel=\"stylesheet\"").unwrap(), "start.js first in <head>");
        assert_eq!(read("start.js"), file("../ui/start.js"));
    }
}
