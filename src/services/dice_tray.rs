//! The dice tray of every game: a roll the table asks for (`XdY±N`, or one of the game's own
//! dice), rolled with the RNG passed in and written to the game's log in one transaction, so
//! it shows with the game's other moves. A tray roll is a record of dice, not a change:
//! undo passes over it (`Reader::last_undoable_of_game`).

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::characters::existing_character;
use super::log::{payload_of, table_event};
use super::lookup::existing_game;
use crate::error::{Error, Result};
use crate::model::timestamp;
use crate::rules::dice_tray::{self, TrayRoll};
use crate::store::{EventKind, Reader, Store, Tx};

/// What the log keeps of a tray roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Logged {
    /// The roll in words, as the game's log shows it.
    action: String,
    roll: TrayRoll,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    character: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    character_name: Option<String>,
}

/// A tray roll as the screens show it. `seq` is its place in the game's log; `None` when it
/// was not logged here (a game joined at a linked table is written only by its host).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrayEntry {
    pub seq: Option<i64>,
    pub at: String,
    /// The roll in words: "Wren — dice tray: 2d6+1 → 4 + 2 + 1 = 7".
    pub action: String,
    pub character_name: Option<String>,
    #[serde(flatten)]
    pub roll: TrayRoll,
}

/// The roll in words, as the game's log shows it.
pub fn tray_words(roll: &TrayRoll, who: Option<&str>) -> String {
    let who = who.map(|w| format!("{w} — ")).unwrap_or_default();
    format!("{who}dice tray: {} → {}", roll.expression, sum_words(roll))
}

/// What the dice came to: "4 + 2 + 1 = 7", or "7" for one die alone.
pub(super) fn sum_words(roll: &TrayRoll) -> String {
    let mut sum = roll.dice.iter().map(|d| d.face.to_string()).collect::<Vec<_>>().join(" + ");
    match roll.modifier {
        0 => {}
        m if m > 0 => sum.push_str(&format!(" + {m}")),
        m => sum.push_str(&format!(" − {}", m.unsigned_abs())),
    }
    if roll.dice.len() == 1 && roll.modifier == 0 {
        return roll.total.to_string();
    }
    format!("{sum} = {}", roll.total)
}

/// Rolls `expression` on a game's dice tray (for one of its characters, if named) and logs
/// it with the game's moves. A bad expression is refused and nothing is logged.
pub fn dice_tray_roll<R: Rng>(
    store: &mut Store,
    game: Uuid,
    character: Option<Uuid>,
    expression: &str,
    rng: &mut R,
) -> Result<TrayEntry> {
    let parsed = dice_tray::parse(expression)?;
    store.write(|tx| log_in(tx, game, character, dice_tray::roll(&parsed, rng)))
}

/// A roll made on a joined device (`expression` and the `faces` it showed), checked and logged
/// by the table's device.
pub(super) fn dice_tray_entered(
    store: &mut Store,
    game: Uuid,
    character: Option<Uuid>,
    expression: &str,
    faces: &[u32],
) -> Result<TrayEntry> {
    let roll = dice_tray::entered(&dice_tray::parse(expression)?, faces)?;
    store.write(|tx| log_in(tx, game, character, roll))
}

/// The character's name, checking that the game exists and the character is in it.
fn named(read: Reader<'_>, game: Uuid, character: Option<Uuid>) -> Result<Option<String>> {
    existing_game(read, game)?;
    let Some(id) = character else { return Ok(None) };
    let c = existing_character(read, id)?;
    if c.game_id != game {
        return Err(Error::invalid("character", format!("“{}” is not in this game", c.name)));
    }
    Ok(Some(c.name))
}

/// `roll` as the tray shows it, not (yet) logged: its character named (checked to be in the
/// game), in words, made now.
pub(super) fn unlogged(read: Reader<'_>, game: Uuid, character: Option<Uuid>, roll: TrayRoll) -> Result<TrayEntry> {
    let character_name = named(read, game, character)?;
    let action = tray_words(&roll, character_name.as_deref());
    Ok(TrayEntry { seq: None, at: timestamp(crate::model::now()), action, character_name, roll })
}

/// Logs `roll` with the game's moves; on a device that joined the game only the table's
/// device writes its log, so there it is shown and not logged.
fn log_in(tx: &Tx<'_>, game: Uuid, character: Option<Uuid>, roll: TrayRoll) -> Result<TrayEntry> {
    let mut entry = unlogged(tx.read(), game, character, roll)?;
    if tx.read().link_joined(game)? {
        return Ok(entry);
    }
    let logged = Logged {
        action: entry.action.clone(),
        roll: entry.roll.clone(),
        character,
        character_name: entry.character_name.clone(),
    };
    let seq = table_event(tx, EventKind::DiceTrayRolled, game, &logged, None)?;
    // The time the log keeps, not a second reading of the clock (which can fall in the next
    // millisecond, and then the roll shown and the roll logged differ).
    if let Some(event) = tx.read().event(seq)? {
        entry.at = timestamp(event.at);
    }
    entry.seq = Some(seq);
    Ok(entry)
}

/// A game's tray rolls, newest first.
pub fn dice_tray_log(store: &Store, game: Uuid, limit: u32) -> Result<Vec<TrayEntry>> {
    let read = store.read();
    existing_game(read, game)?;
    tray_entries(read, game, limit)
}

/// The tray rolls of a game, newest first, for the games' own logs to show among their moves.
pub(super) fn tray_entries(read: Reader<'_>, game: Uuid, limit: u32) -> Result<Vec<TrayEntry>> {
    tray_entries_within(read, game, (0, i64::MAX), limit)
}

/// [`tray_entries`] after event `within.0` and up to event `within.1`.
pub(super) fn tray_entries_within(
    read: Reader<'_>,
    game: Uuid,
    within: (i64, i64),
    limit: u32,
) -> Result<Vec<TrayEntry>> {
    read.events_of_kind_within(game, None, EventKind::DiceTrayRolled, within, limit)?
        .into_iter()
        .map(|(event, _)| {
            let logged: Logged = payload_of(&event)?;
            Ok(TrayEntry {
                seq: Some(event.seq),
                at: timestamp(event.at),
                action: logged.action,
                character_name: logged.character_name,
                roll: logged.roll,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::services::{create_character, create_game, undo_game};

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("a folder");
        let store = Store::open(&dir.path().join("t.db")).expect("a store");
        (dir, store)
    }

    #[test]
    fn a_tray_roll_is_logged_with_its_faces_and_total() {
        let (_dir, mut store) = store();
        let game = create_game(&mut store, "Brackwater", "nsu").expect("a game").game.id;
        let wren = create_character(&mut store, game, "Wren").expect("a character").id;
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let rolled = dice_tray_roll(&mut store, game, Some(wren), "2d6+1", &mut rng).expect("a roll");
        assert_eq!(rolled.roll.dice.len(), 2);
        let sum: i64 = rolled.roll.dice.iter().map(|d| i64::from(d.face)).sum();
        assert_eq!(rolled.roll.total, sum + 1);
        assert!(rolled.action.starts_with("Wren — dice tray: 2d6+1 → "), "{}", rolled.action);
        assert!(rolled.action.ends_with(&format!(" + 1 = {}", rolled.roll.total)), "{}", rolled.action);
        let log = dice_tray_log(&store, game, 10).expect("the log");
        assert_eq!(log, vec![rolled]);
    }

    #[test]
    fn a_bad_expression_or_a_stranger_logs_nothing() {
        let (_dir, mut store) = store();
        let game = create_game(&mut store, "Brackwater", "mezzo").expect("a game").game.id;
        let other = create_game(&mut store, "Elsewhere", "mezzo").expect("a game").game.id;
        let stranger = create_character(&mut store, other, "Ash").expect("a character").id;
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let err = dice_tray_roll(&mut store, game, None, "2d1", &mut rng).unwrap_err();
        assert_eq!(err.to_string(), "expression: '2d1': a die has at least 2 sides");
        let err = dice_tray_roll(&mut store, game, Some(stranger), "d6", &mut rng).unwrap_err();
        assert_eq!(err.to_string(), "character: “Ash” is not in this game");
        assert!(dice_tray_roll(&mut store, Uuid::new_v4(), None, "d6", &mut rng).is_err());
        assert!(dice_tray_log(&store, game, 10).expect("the log").is_empty());
    }

    #[test]
    fn a_game_joined_at_a_linked_table_rolls_without_logging() {
        use crate::store::{Peer, PeerSide};
        let (_dir, mut store) = store();
        let game = create_game(&mut store, "Penny Night", "penny_ante").expect("a game").game.id;
        store
            .write(|tx| {
                tx.put_link_peer(&Peer {
                    device_id: Uuid::new_v4(),
                    game_id: game,
                    side: PeerSide::Joined,
                    name: "The table".into(),
                    public_key: vec![7; 32],
                    address: None,
                    paired_at: crate::model::now(),
                    removed_at: None,
                })
            })
            .expect("joined");
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let rolled = dice_tray_roll(&mut store, game, None, "3d6", &mut rng).expect("a roll");
        assert_eq!((rolled.seq, rolled.roll.dice.len()), (None, 3), "rolled, not logged");
        assert!(dice_tray_log(&store, game, 10).expect("the log").is_empty());
    }

    #[test]
    fn undo_passes_over_a_tray_roll() {
        let (_dir, mut store) = store();
        let game = create_game(&mut store, "Brackwater", "mezzo").expect("a game").game.id;
        crate::services::mezzo_add_player(&mut store, game, "Kim").expect("a player");
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        dice_tray_roll(&mut store, game, None, "d12", &mut rng).expect("a roll");
        // The player's arrival is the change to take back, not the dice.
        undo_game(&mut store, game).expect("an undo");
        assert!(crate::services::mezzo_table(&store, game).expect("the table").players.is_empty());
        assert_eq!(dice_tray_log(&store, game, 10).expect("the log").len(), 1, "the roll stays in the log");
        // Logged with the game's moves, after them.
        let log = crate::services::mezzo_log(&store, game, 10).expect("the Mezzo log");
        assert_eq!(
            log[0].action,
            format!("dice tray: d12 → {}", dice_tray_log(&store, game, 1).unwrap()[0].roll.total)
        );
        assert!(log[0].dice && !log[1].dice, "the roll is marked as dice, the player's arrival as a move");
    }
}
