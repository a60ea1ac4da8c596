//! This device and its owner: the part it plays in each game, which characters are the
//! owner's own, their notes, the home screen's character cards and the device's settings.

use serde::Serialize;
use uuid::Uuid;

use super::characters::{load, save};
use super::log::{game_event, Change, GameSnapshot};
use super::lookup::existing_game;
use super::Done;
use crate::error::{Error, Result};
use crate::model::{free_text_problem, now, DeviceRole, Game, System, MAX_NOTES_CHARS};
use crate::rules::penny_ante::ledger::Account;
use crate::rules::scattershot::sheet::Resource;
use crate::store::{EventKind, Reader, Store};

/// The part this device plays in `game`.
pub fn device_role(store: &Store, game: Uuid) -> Result<DeviceRole> {
    let read = store.read();
    existing_game(read, game)?;
    read.device_role(game)
}

/// Sets the part this device plays in `game` (`player`, `table` or `both`). A device
/// preference, not a move at the table: it is not logged and travels in no file.
pub fn set_device_role(store: &mut Store, game: Uuid, role: &str) -> Result<Done> {
    let role = DeviceRole::from_id(role)
        .ok_or_else(|| Error::invalid("role", format!("{role:?} is not player, table or both")))?;
    store.write(|tx| {
        let g = existing_game(tx.read(), game)?;
        tx.set_device_role(game, role)?;
        Ok(Done::new(match role {
            DeviceRole::Player => format!("This device is a player's own in “{}”.", g.name),
            DeviceRole::Table => format!("This device is the table's in “{}”.", g.name),
            DeviceRole::Both => format!("This device is passed around the table in “{}”.", g.name),
        }))
    })
}

/// Whether the people at this device roll real dice in `game` and type them in (one
/// preference per game instead of a switch on every roll screen).
pub fn set_dice_by_hand(store: &mut Store, game: Uuid, by_hand: bool) -> Result<Done> {
    store.write(|tx| {
        let g = existing_game(tx.read(), game)?;
        tx.set_dice_by_hand(game, by_hand)?;
        Ok(Done::new(if by_hand {
            format!("In “{}” you roll real dice and type them in.", g.name)
        } else {
            format!("In “{}” the app rolls the dice.", g.name)
        }))
    })
}

/// Marks a character as this device owner's own, or as a copy kept for someone else.
pub fn set_mine(store: &mut Store, character: Uuid, mine: bool) -> Result<Done> {
    store.write(|tx| {
        let c = load(tx.read(), character)?.character;
        tx.set_mine(character, mine)?;
        Ok(Done::new(if mine {
            format!("“{}” is yours.", c.name)
        } else {
            format!("“{}” is kept here for someone else.", c.name)
        }))
    })
}

fn clean_notes(notes: &str) -> Result<String> {
    match free_text_problem(notes, MAX_NOTES_CHARS) {
        Some(problem) => Err(Error::invalid("notes", problem)),
        None => Ok(notes.to_owned()),
    }
}

/// A character's notes; logged with the character, so undo takes them back.
pub fn set_character_notes(store: &mut Store, id: Uuid, notes: &str) -> Result<Done> {
    let notes = clean_notes(notes)?;
    store.write(|tx| {
        let before = load(tx.read(), id)?;
        let name = before.character.name.clone();
        if before.character.notes == notes {
            return Ok(Done::new(format!("The notes of “{name}” are unchanged.")));
        }
        let mut after = before.clone();
        after.character.notes = notes;
        save(tx, EventKind::CharacterNotesEdited, before, after)?;
        Ok(Done::new(format!("Saved the notes of “{name}”.")))
    })
}

/// A game's notes; logged with the game, so undo takes them back.
pub fn set_game_notes(store: &mut Store, id: Uuid, notes: &str) -> Result<Done> {
    let notes = clean_notes(notes)?;
    store.write(|tx| {
        let before = existing_game(tx.read(), id)?;
        if before.notes == notes {
            return Ok(Done::new(format!("The notes of “{}” are unchanged.", before.name)));
        }
        let after = Game { notes, updated_at: now(), ..before.clone() };
        tx.update_game(&after)?;
        let message = format!("Saved the notes of “{}”.", after.name);
        let change = Change { before: Some(GameSnapshot::bare(before)), after: Some(GameSnapshot::bare(after)) };
        game_event(tx, EventKind::GameNotesEdited, id, &change, None)?;
        Ok(Done::new(message))
    })
}

/// One number on a character's card ("Pile", "12").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stat {
    pub label: &'static str,
    pub value: String,
}

/// A character as the home screen lists it: who, where, and the numbers a player glances at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CharacterCard {
    pub id: Uuid,
    pub name: String,
    pub notes: String,
    pub mine: bool,
    pub game_id: Uuid,
    pub game_name: String,
    pub system: System,
    pub system_label: &'static str,
    pub role: DeviceRole,
    pub stats: Vec<Stat>,
}

/// Every character on the device, the owner's own first, each with its key numbers.
pub fn character_cards(store: &Store) -> Result<Vec<CharacterCard>> {
    let read = store.read();
    let kept = read.kept_for_others()?;
    let games = read.games()?;
    let mut cards = Vec::new();
    for c in read.characters()? {
        let Some(game) = games.iter().find(|g| g.id == c.game_id) else { continue };
        cards.push(CharacterCard {
            stats: stats(read, c.id)?,
            mine: !kept.contains(&c.id),
            id: c.id,
            name: c.name,
            notes: c.notes,
            game_id: game.id,
            game_name: game.name.clone(),
            system: game.system,
            system_label: game.system.label(),
            role: read.device_role(game.id)?,
        });
    }
    // Stable: within each group the store's order (by name) stays.
    cards.sort_by_key(|c| !c.mine);
    Ok(cards)
}

fn stat(label: &'static str, value: impl ToString) -> Stat {
    Stat { label, value: value.to_string() }
}

/// The one or two numbers a player of each system looks at first.
fn stats(read: Reader<'_>, id: Uuid) -> Result<Vec<Stat>> {
    let record = load(read, id)?;
    let c = &record.character;
    Ok(match c.system {
        System::Nsu => {
            let sheet = record.nsu.unwrap_or_default();
            let overloaded = sheet.moods.iter().flatten().find(|m| m.overloaded).map(|m| m.name.clone());
            vec![
                stat("Harm", format!("{} of 4", sheet.harm.len())),
                stat("Overloaded", overloaded.filter(|n| !n.is_empty()).unwrap_or_else(|| "none".into())),
            ]
        }
        System::PennyAnte => {
            let table = read.penny_table(c.game_id)?;
            vec![stat("Pile", table.pile(&Account::Character(c.id)))]
        }
        System::Mezzo => {
            let element = record.mezzo.unwrap_or_else(|| crate::rules::record::mezzo_sheet(c));
            vec![stat("Momentum", element.momentum), stat("Adversity", element.adversity)]
        }
        System::Scattershot => {
            let view = super::scattershot::sheet_view(read, c.id)?;
            view.resources
                .iter()
                .map(|r| {
                    let label = match r.resource {
                        Resource::HitPoints => "HP",
                        Resource::Power => "Power",
                    };
                    stat(label, format!("{}/{}", r.current, r.maximum))
                })
                .collect()
        }
    })
}

/// This device's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeviceSettings {
    /// "system", "light" or "dark".
    pub theme: String,
    /// Where the window was left: the window's own JSON, or None.
    pub place: Option<String>,
    /// Whether the screens show the rules' hints (on until a table that knows them turns
    /// them off).
    pub hints: bool,
}

pub fn settings(store: &Store) -> Result<DeviceSettings> {
    let read = store.read();
    Ok(DeviceSettings {
        theme: read.device_setting("theme")?.unwrap_or_else(|| "system".into()),
        place: read.device_setting("place")?,
        hints: read.device_setting("hints")?.as_deref() != Some("off"),
    })
}

/// The longest `place` the window may keep.
const MAX_PLACE_CHARS: usize = 2000;

/// Sets `theme` (system, light or dark), `hints` (on or off) or `place` (a JSON object the
/// window writes).
pub fn set_device_setting(store: &mut Store, key: &str, value: &str) -> Result<Done> {
    match key {
        "theme" => {
            if !matches!(value, "system" | "light" | "dark") {
                return Err(Error::invalid("theme", format!("{value:?} is not system, light or dark")));
            }
        }
        "hints" => {
            if !matches!(value, "on" | "off") {
                return Err(Error::invalid("hints", format!("{value:?} is not on or off")));
            }
        }
        "place" => {
            let chars = value.chars().count();
            if chars > MAX_PLACE_CHARS {
                return Err(Error::invalid(
                    "place",
                    format!("is {chars} characters long; the limit is {MAX_PLACE_CHARS}"),
                ));
            }
            if !matches!(serde_json::from_str::<serde_json::Value>(value), Ok(serde_json::Value::Object(_))) {
                return Err(Error::invalid("place", "is not a JSON object"));
            }
        }
        other => return Err(Error::invalid("key", format!("{other:?} is not a setting (theme, hints or place)"))),
    }
    store.write(|tx| tx.set_device_setting(key, value))?;
    Ok(Done::new(format!("Saved the {key}.")))
}
