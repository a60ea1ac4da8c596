//! The commands about this device and its owner: the role it plays in each game, which
//! characters are the owner's own, notes, the home screen's cards, settings, and a game's
//! view for a viewer. One line each, like `commands.rs` (`command.rs` writes the wrapper).

use serde::Serialize;
use sheetkeeper::model::DeviceRole;
use sheetkeeper::services::{self, CharacterCard, DeviceSettings, Done, GameView, SystemInfo, TableView};
use sheetkeeper::Store;

use crate::command::commands;

commands! {
    read device_role(id game) -> DeviceRole;
    write set_device_role(id game, ref role: String) -> Done;
    write set_dice_by_hand(id game, val by_hand: bool) -> Done;
    write set_mine(id character, val mine: bool) -> Done;
    write set_character_notes(id id, ref notes: String) -> Done;
    write set_game_notes(id id, ref notes: String) -> Done;
    read character_cards() -> Vec<CharacterCard>;
    read home() -> Home = home_view;
    write set_device_setting(ref key: String, ref value: String) -> Done;
    /// The game as this device's role sees it, or — with `viewer` — as a narrower viewer
    /// (`everyone`, or one of this device's characters) sees it. Never wider than the role.
    read game_view(id game, deref viewer: Option<String>) -> TableView = services::game_view_on_device;
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
