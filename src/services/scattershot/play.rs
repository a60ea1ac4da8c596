//! Mechanical play and rewards through the services (RULES.md §4.4), each move one logged,
//! undoable Scattershot move.
//!
//! - Mechanical play: start it (the caller's character first, the seating going to the
//!   right), take immediate actions and free actions, restore the free actions, forfeit for
//!   a reactive action, end a turn, engage a foe (erasing advantages held against another),
//!   seize, hold and check combat advantages, and end it: the lull, where any result an
//!   older version left waiting lands on its character's sheet.
//! - Rewards: experience dice after a session (an equal share plus bonuses; named after the
//!   session being played or the last one ended), on the spot, or by vote, into the
//!   stocks of the characters' players (a character with no player is its own). The Gamemaster's on-the-spot awards and replacements come out of
//!   the common stock (refused when it is short).
//! - Ending mechanical play ends the residual modifiers that lasted until then.
//!
//! Every combatant and every character a reward names is a character of the game.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::rules::scattershot::mechanical_play::{Action, Check, Gain, MechanicalPlay, Seat};
use crate::rules::scattershot::rewards::{self, Candidate, Giver, RewardEvent, SessionRewards, Vote};
use crate::rules::scattershot::sheet::Lasts;
use crate::rules::scattershot::stock_of;
use crate::rules::scattershot::table::reduced_resource_penalty;
use crate::services::scattershot::{change, ScattershotChange};
use crate::store::Store;

/// A seat at the table: a character and its player (by default the player the table names
/// for it, or the character as its own player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatDraft {
    pub character: Uuid,
    #[serde(default)]
    pub player: Option<Uuid>,
}

/// A move of mechanical play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case", deny_unknown_fields)]
pub enum PlayMove {
    /// `caller` is the character whose player called for mechanical play; `seating` goes
    /// to the right.
    Start {
        caller: Uuid,
        seating: Vec<SeatDraft>,
        #[serde(default)]
        cinematic: bool,
    },
    /// An immediate action of the character whose turn it is (`{"kind": "immediate"}`,
    /// `{"kind": "flurry", "length": 2}`, `{"kind": "restore_free_actions"}`).
    Action {
        character: Uuid,
        action: Action,
    },
    FreeAction {
        character: Uuid,
        kind: String,
    },
    /// `character`, engaged by the character whose turn it is, forfeits an upcoming action
    /// for a reactive one.
    Forfeit {
        character: Uuid,
    },
    EndTurn,
    /// `character` engages `foe` (null: nobody); advantages held against anyone else go.
    Engage {
        character: Uuid,
        #[serde(default)]
        foe: Option<Uuid>,
    },
    /// `holder` seizes (none held) or holds (one more) a combat advantage against `foe`.
    Advantage {
        holder: Uuid,
        foe: Uuid,
        gain: Gain,
    },
    /// `by` checks an advantage `holder` holds against it (one), or an upset (all).
    Check {
        by: Uuid,
        holder: Uuid,
        check: Check,
    },
    /// The lull: mechanical play ends (results an older version kept waiting land).
    End,
}

fn running(play: &Option<MechanicalPlay>) -> Result<MechanicalPlay> {
    play.clone().ok_or_else(|| Error::invalid("play", "mechanical play is not running; start it first"))
}

/// Plays one move of mechanical play, as one undoable move.
pub fn scattershot_play(store: &mut Store, game: Uuid, step: &PlayMove) -> Result<ScattershotChange> {
    change(store, game, |w| {
        let (play, events, message) = match step {
            PlayMove::Start { caller, seating, cinematic } => {
                if w.table.play.is_some() {
                    return Err(Error::invalid("play", "mechanical play is running already; end it first"));
                }
                let mut seats = Vec::with_capacity(seating.len());
                // A seat left without a player takes the one the table names for it.
                let stocks = w.stocks();
                for (i, s) in seating.iter().enumerate() {
                    w.character(&format!("seating[{i}].character"), s.character)?;
                    seats.push(Seat {
                        character: s.character,
                        player: s.player.unwrap_or(stock_of(&stocks, s.character)),
                    });
                }
                let (play, events) = MechanicalPlay::start(&seats, *caller, &w.rules()?, *cinematic)?;
                // Each combatant plays with the penalty its reduced resources give now, until the lull.
                let records = w.characters();
                let play = play.hold_penalties(|id| {
                    let sheet = records.iter().find(|r| r.character.id == id).and_then(|r| r.scattershot.as_ref());
                    sheet.map_or(0, |s| reduced_resource_penalty(&w.settings, s))
                });
                let order: Vec<String> = play.combatants.iter().map(|c| w.name(c.character)).collect();
                (Some(play), events, format!("Mechanical play begins: {}.", order.join(", ")))
            }
            PlayMove::Action { character, action } => {
                let (play, events) = running(&w.table.play)?.take_action(*character, *action)?;
                let what = match action {
                    Action::Immediate => "an immediate action".to_owned(),
                    Action::Flurry { length } => format!("a flurry of {length} actions"),
                    Action::RestoreFreeActions => "an action to restore the free actions".to_owned(),
                };
                let left = play.actions_left();
                (Some(play), events, format!("{} takes {what} ({left} left this turn).", w.name(*character)))
            }
            PlayMove::FreeAction { character, kind } => {
                let (play, events) = running(&w.table.play)?.free_action(*character, kind)?;
                (Some(play), events, format!("{} takes a free action: {}.", w.name(*character), kind.trim()))
            }
            PlayMove::Forfeit { character } => {
                let (play, events) = running(&w.table.play)?.forfeit(*character)?;
                (Some(play), events, format!("{} forfeits an action to react.", w.name(*character)))
            }
            PlayMove::EndTurn => {
                let before = running(&w.table.play)?;
                let (play, events) = before.end_turn()?;
                let round =
                    if play.round > before.round { format!(" Round {} begins.", play.round) } else { String::new() };
                let message =
                    format!("{}'s turn ends; {} is next.{round}", w.name(before.current()), w.name(play.current()));
                (Some(play), events, message)
            }
            PlayMove::Engage { character, foe } => {
                let (play, events) = running(&w.table.play)?.engage(*character, *foe)?;
                let whom = foe.map_or_else(|| "nobody".to_owned(), |f| w.name(f));
                (Some(play), events, format!("{} engages {whom}.", w.name(*character)))
            }
            PlayMove::Advantage { holder, foe, gain } => {
                let (play, events) = running(&w.table.play)?.gain_advantage(*holder, *foe, *gain)?;
                let verb = match gain {
                    Gain::Seize => "seizes",
                    Gain::Hold => "holds",
                };
                let held = play.penalty(*foe);
                let message = format!(
                    "{} {verb} a combat advantage against {} ({held} to its rolls).",
                    w.name(*holder),
                    w.name(*foe)
                );
                (Some(play), events, message)
            }
            PlayMove::Check { by, holder, check } => {
                let (play, events) = running(&w.table.play)?.check_advantage(*by, *holder, *check)?;
                let verb = match check {
                    Check::Check => "checks an advantage",
                    Check::Upset => "upsets every advantage",
                };
                (Some(play), events, format!("{} {verb} of {}.", w.name(*by), w.name(*holder)))
            }
            PlayMove::End => {
                let play = running(&w.table.play)?;
                let (results, events) = play.end();
                let mut landed = Vec::new();
                for id in w.ids() {
                    if !results.iter().any(|r| r.target == id) {
                        continue;
                    }
                    let sheet = w.sheet("results", id)?;
                    let (sheet, applied) = sheet.apply_results(id, &results)?;
                    w.note(&applied);
                    w.set_sheet(id, sheet);
                    landed.push(w.name(id));
                }
                let ended = w.end_modifiers(Lasts::MechanicalPlay)?;
                let message = if landed.is_empty() {
                    format!("Mechanical play ends after {} round(s); the lull{ended}.", play.round)
                } else {
                    format!(
                        "Mechanical play ends after {} round(s); at the lull results land on {}{ended}.",
                        play.round,
                        landed.join(", ")
                    )
                };
                (None, events, message)
            }
        };
        w.note(&events);
        w.table.play = play;
        Ok(message)
    })
}

/// A reward of experience dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reward", rename_all = "snake_case", deny_unknown_fields)]
pub enum RewardMove {
    /// After a session: the equal share to each of `characters` (every character of the
    /// game but the non-player ones when left out) unless withheld, and the bonuses.
    AfterSession {
        rewards: SessionRewards,
        #[serde(default)]
        characters: Option<Vec<Uuid>>,
    },
    /// On the spot, from the Gamemaster (`{"kind": "gamemaster"}`) or from the stock of the
    /// player of the character `from` (`{"kind": "player", "from": id, "replaced": bool}`).
    OnTheSpot {
        giver: Giver,
        to: Uuid,
        dice: u32,
        #[serde(default)]
        note: String,
    },
    /// By vote among `characters` (every character of the game but the non-player ones when
    /// left out).
    ByVote {
        votes: Vec<Vote>,
        dice: u32,
        #[serde(default)]
        characters: Option<Vec<Uuid>>,
    },
}

/// Hands out experience dice, as one undoable move.
pub fn scattershot_reward(store: &mut Store, game: Uuid, reward: &RewardMove) -> Result<ScattershotChange> {
    change(store, game, |w| {
        // The players' characters (the Gamemaster's earn no reward: `rewards::group`).
        let group = |w: &crate::services::scattershot::Work<'_>, given: &Option<Vec<Uuid>>| -> Result<Vec<Uuid>> {
            let mut known = Vec::new();
            for id in w.ids() {
                known.push((id, w.name(id), w.sheet("character", id)?.npc));
            }
            let candidates: Vec<Candidate<'_>> =
                known.iter().map(|(id, name, npc)| Candidate { id: *id, name, npc: *npc }).collect();
            rewards::group(&candidates, given.as_deref())
        };
        let pools = w.pools();
        let stocks = w.stocks();
        let (pools, events) = match reward {
            RewardMove::AfterSession { rewards, characters } => {
                rewards::after_session(&stocks, &pools, &group(w, characters)?, rewards)?
            }
            RewardMove::OnTheSpot { giver, to, dice, note } => {
                w.character("to", *to)?;
                if let Giver::Player { from, .. } = giver {
                    w.character("giver.from", *from)?;
                }
                rewards::on_the_spot(&stocks, &pools, w.game.id, *giver, *to, *dice, note)?
            }
            RewardMove::ByVote { votes, dice, characters } => {
                rewards::by_vote(&stocks, &pools, &group(w, characters)?, votes, *dice)?
            }
        };
        w.set_pools(&pools)?;
        w.note(&events);
        let awarded: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                RewardEvent::Awarded { character, dice, .. } => Some(format!("{} +{dice}", w.name(*character))),
                _ => None,
            })
            .collect();
        // A post-session reward belongs to the session being played or the last one ended.
        let after = match (reward, w.session()) {
            (RewardMove::AfterSession { .. }, n) if n > 0 => format!(" after session {n}"),
            _ => String::new(),
        };
        Ok(if awarded.is_empty() {
            format!("No experience dice are given{after}.")
        } else {
            format!("Experience dice{after}: {}.", awarded.join(", "))
        })
    })
}
