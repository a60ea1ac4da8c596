//! The table's feed (issue 32): the newest entries of a game's log as cards for one viewer —
//! who rolled or moved, what, the odds they had where the log keeps what they came from, the
//! dice and the outcome in words. Each card is made from what the game's own Log tab shows
//! that viewer (a Penny Ante cup stays a cup until both are chosen: the log's words never hold
//! its dice), so a card tells nothing the Log tab would not. `since` is a place in the game's
//! log: a device asks only for what is newer than the last card it has.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::dice_tray::{sum_words, tray_entries};
use super::lookup::existing_game;
use super::moves::moves;
use super::nsu::roll::nsu_roll_log;
use super::penny_ante::penny_log_for;
use super::viewer::{device_viewer, Viewer};
use crate::error::Result;
use crate::model::System;
use crate::rules::dice_tray::DieFace;
use crate::rules::nsu::odds::{action_odds, ActionRollSetup};
use crate::rules::nsu::roll::Winner;
use crate::store::{EventKind, Reader, Store};

/// Cards a device is given at most in one answer: the newest.
pub const FEED_MAX: u32 = 20;

/// One entry of a game's log as a card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedCard {
    /// Its place in the game's log (the table's log, on a joined device).
    pub seq: i64,
    pub at: String,
    /// Who rolled: the character's name; `None` for a move of the table's.
    pub who: Option<String>,
    /// What was rolled or done: "Dice tray 2d6+1", "Action roll (Body)", "Penny Ante".
    pub what: String,
    /// The chance they had, in words ("42% to win"), where the log has what it came from.
    pub odds: Option<String>,
    /// The dice thrown, each with its sides.
    pub dice: Vec<DieFace>,
    /// What came of it, in words.
    pub outcome: String,
    /// Taken back with undo since (kept, as the Log tab keeps it).
    pub undone: bool,
}

/// The cards of `game` after `since` for the viewer of this device, oldest first (at most
/// the newest [`FEED_MAX`]).
pub fn game_feed(store: &Store, game: Uuid, since: i64) -> Result<Vec<FeedCard>> {
    let viewer = device_viewer(store.read(), game)?;
    feed_for(store, game, &viewer, since)
}

/// The cards of `game` after `since` as `viewer` may see them, oldest first (at most the
/// newest [`FEED_MAX`]).
pub fn feed_for(store: &Store, game: Uuid, viewer: &Viewer, since: i64) -> Result<Vec<FeedCard>> {
    let read = store.read();
    let system = existing_game(read, game)?.system;
    let mut cards = tray_cards(read, game)?;
    match system {
        System::Nsu => cards.extend(nsu_cards(store, game)?),
        System::PennyAnte => {
            for e in penny_log_for(read, game, FEED_MAX, viewer)?.into_iter().filter(|e| !e.dice) {
                cards.push(move_card(e.seq, e.at, "Penny Ante", e.action, e.undone));
            }
        }
        System::Mezzo => cards.extend(kind_cards(read, game, EventKind::MezzoTableChanged, "Mezzo")?),
        System::Scattershot => cards.extend(kind_cards(read, game, EventKind::ScattershotChanged, "Scattershot")?),
    }
    cards.retain(|c| c.seq > since);
    cards.sort_by_key(|c| c.seq);
    let extra = cards.len().saturating_sub(FEED_MAX as usize);
    cards.drain(..extra);
    Ok(cards)
}

fn tray_cards(read: Reader<'_>, game: Uuid) -> Result<Vec<FeedCard>> {
    Ok(tray_entries(read, game, FEED_MAX)?
        .into_iter()
        .map(|t| FeedCard {
            seq: t.seq.unwrap_or_default(),
            at: t.at,
            who: t.character_name,
            what: format!("Dice tray {}", t.roll.expression),
            odds: None,
            outcome: sum_words(&t.roll),
            dice: t.roll.dice,
            undone: false,
        })
        .collect())
}

fn kind_cards(read: Reader<'_>, game: Uuid, kind: EventKind, what: &str) -> Result<Vec<FeedCard>> {
    Ok(moves(read, game, kind, FEED_MAX)?
        .into_iter()
        .filter(|e| !e.dice)
        .map(|e| move_card(e.seq, e.at, what, e.action, e.undone))
        .collect())
}

fn move_card(seq: i64, at: String, what: &str, action: String, undone: bool) -> FeedCard {
    FeedCard { seq, at, who: None, what: what.into(), odds: None, dice: Vec::new(), outcome: action, undone }
}

/// NSU's settled action rolls: the roller, the aspect, the player's chance to win as the
/// roll was planned, the aspect and mood dice (and a helper's) and who won by how much.
fn nsu_cards(store: &Store, game: Uuid) -> Result<Vec<FeedCard>> {
    Ok(nsu_roll_log(store, game, None, FEED_MAX)?
        .into_iter()
        .map(|e| {
            let roll = &e.record.roll;
            let helper = roll.help.as_ref().map(|h| (h.die, h.edge));
            let setup = ActionRollSetup::planned(&roll.plan, roll.setup.at_risk, helper);
            let win = action_odds(&setup).win.probability();
            let die = |sides: u8| move |face: &u8| DieFace { sides: u32::from(sides), face: u32::from(*face) };
            let mut dice: Vec<DieFace> = roll.aspect_rolls.iter().map(die(roll.plan.aspect_die.sides())).collect();
            dice.extend(roll.mood_rolls.iter().map(die(roll.plan.mood_die.sides())));
            if let Some(h) = &roll.help {
                dice.extend(h.rolls().iter().map(die(h.die.sides())));
            }
            let outcome = match e.record.winner {
                Winner::Player => format!("the player wins by {}", e.record.difference),
                Winner::Arbiters => format!("the Arbiters win by {}", e.record.difference),
                Winner::Tie => "a tie".to_owned(),
            };
            FeedCard {
                seq: e.event_id,
                at: e.at,
                who: Some(e.character_name),
                what: format!("Action roll ({:?})", roll.setup.aspect),
                odds: Some(format!("{:.0}% to win", win * 100.0)),
                dice,
                outcome,
                undone: e.undone,
            }
        })
        .collect())
}
