//! Mechanical Play (RULES.md §4.4): the round and turn tracker, free actions, forfeiting
//! for reactive actions, combat advantages, and the lull that ends it.
//!
//! - [`MechanicalPlay::start`]: the character whose player called for mechanical play takes
//!   the first turn; play then passes to the right. Once around the table is a round.
//! - Each turn, its character has 2 immediate actions ([`MechanicalPlay::take_action`]);
//!   a flurry of following actions counts as one and lasts at most the Epic Index.
//! - Free actions ([`MechanicalPlay::free_action`]), on any character's turn: up to the
//!   Epic Index a round, and not two of a kind (except in a cinematic game); an action spent
//!   restores a second cycle.
//! - Forfeiting ([`MechanicalPlay::forfeit`]): a character engaged on another's turn gives
//!   up one of its upcoming actions for a reactive action, at most twice a round.
//! - Combat advantages ([`MechanicalPlay::gain_advantage`], [`MechanicalPlay::check_advantage`])
//!   are held against the foe a character has engaged, at most the Epic Index of them, each
//!   −1 to all of that foe's rolls ([`MechanicalPlay::penalty`]); engaging someone else
//!   ([`MechanicalPlay::engage`]) erases them.
//! - The lull comes when mechanical play ends ([`MechanicalPlay::end`]). A penalty for a
//!   reduced resource (a table setting) is held from the start of play until then
//!   ([`MechanicalPlay::hold_penalties`]): damage taken in the fight lowers the resource at
//!   once, its penalty waits for the lull.
//!
//! Rulings where the source is silent:
//! - The seating is given going to the right, each character with its player. The caller's
//!   character goes first, then its player's other characters, then each player to the
//!   right with all of theirs, in the order given.
//! - A turn ends when its player says so; actions left unused are lost.
//! - Restoring the free actions costs one of the turn's immediate actions, on the
//!   character's own turn, once a round, and only when the current cycle is used up. The
//!   kinds of free actions are compared by name, ignoring case and surrounding spaces.
//! - A character may forfeit only when the character whose turn it is has engaged it; the
//!   forfeited action comes off its next turn (this round's if it has not had it yet). It
//!   cannot forfeit more actions than that turn has.
//! - An advantage is seized only when none is held against that foe, held (one more) only
//!   when some is; each needs the holder to have engaged the foe. A check removes one; an
//!   upset (a crucial mistake such as a Catastrophic Failure, or a trick into yielding)
//!   removes all. Engaging nobody erases them too.
//! - (audit #17) A roll concluded as a Catastrophic Failure during mechanical
//!   play is its actor's crucial mistake: an upset of every advantage the actor held
//!   ([`MechanicalPlay::upset_by_mistake`]), without anyone asking for it.
//! - (audit #1) A roll's result on a resource (MIB × Factor) lands at the end
//!   of its Application Phase, during mechanical play too: the tracker holds no damage.
//!   Only the penalties that follow from a reduced resource would wait for the next lull,
//!   and the app models none (what low Hit Points mean is the table's call), so nothing
//!   waits. `pending` is read only from trackers saved by older versions, whose results
//!   still land when mechanical play ends.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::made_it_by::ResourceResult;
use super::{clean_name, Settings};
use crate::error::{Error, Result};

/// Immediate actions in a turn.
pub const IMMEDIATE_ACTIONS: u32 = 2;
/// Reactive actions a character may forfeit for in a round.
pub const FORFEITS_PER_ROUND: u32 = 2;
/// The most characters a tracker follows.
pub const MAX_COMBATANTS: usize = 100;

/// A character at the table and the player who plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seat {
    pub character: Uuid,
    pub player: Uuid,
}

/// A character in mechanical play and what it has used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combatant {
    pub character: Uuid,
    pub player: Uuid,
    /// Actions forfeited from its next turn.
    #[serde(default)]
    pub forfeited: u32,
    /// Forfeits this round.
    #[serde(default)]
    pub forfeits: u32,
    /// Free actions used in the current cycle.
    #[serde(default)]
    pub free_actions: u32,
    /// The free actions were restored for a second cycle this round.
    #[serde(default)]
    pub second_cycle: bool,
    /// The kinds of free action used this round.
    #[serde(default)]
    pub free_kinds: Vec<String>,
    /// The character it has engaged.
    #[serde(default)]
    pub engaged: Option<Uuid>,
    /// Combat advantages it holds against the character it has engaged.
    #[serde(default)]
    pub advantages: u32,
    /// The penalty its reduced resources gave when play began (0 or less): it holds until
    /// the lull, whatever the fight takes off meanwhile ([`MechanicalPlay::held_penalty`]).
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    pub reduced_penalty: i32,
}

/// The lowest penalty reduced resources may give (two resources, at most 20 each).
pub const MIN_REDUCED_PENALTY: i32 = -40;

/// What a character does with an immediate action of its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// An immediate action (its MIB roll, if any, is its own).
    Immediate,
    /// A flurry of following actions: one action, `length` actions long.
    Flurry { length: u32 },
    /// Restores the free actions for a second cycle this round.
    RestoreFreeActions,
}

/// How an advantage is gained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gain {
    /// Where none was held.
    Seize,
    /// One more, where some is held.
    Hold,
}

/// How an advantage held against a character is reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// One fewer.
    Check,
    /// All gone.
    Upset,
}

/// Mechanical play in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MechanicalPlay {
    pub settings: Settings,
    /// Free actions of a kind may repeat in a round.
    #[serde(default)]
    pub cinematic: bool,
    /// In turn order: the caller's character first.
    pub combatants: Vec<Combatant>,
    /// From 1.
    pub round: u32,
    /// Whose turn it is (an index into `combatants`).
    pub turn: usize,
    /// Immediate actions used this turn.
    #[serde(default)]
    pub actions_used: u32,
    /// Results an older version left waiting for the lull (no new ones are added).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<ResourceResult>,
}

/// What a move did, for the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum PlayEvent {
    Started {
        order: Vec<Uuid>,
    },
    ActionTaken {
        character: Uuid,
        action: Action,
        actions_left: u32,
    },
    FreeActionsRestored {
        character: Uuid,
    },
    FreeActionTaken {
        character: Uuid,
        kind: String,
        left_in_cycle: u32,
    },
    Forfeited {
        character: Uuid,
        engaged_by: Uuid,
        forfeited: u32,
    },
    TurnEnded {
        character: Uuid,
        next: Uuid,
    },
    RoundStarted {
        round: u32,
    },
    Engaged {
        character: Uuid,
        foe: Option<Uuid>,
        advantages_erased: u32,
    },
    AdvantageGained {
        holder: Uuid,
        foe: Uuid,
        gain: Gain,
        held: u32,
    },
    AdvantageChecked {
        holder: Uuid,
        by: Uuid,
        check: Check,
        held: u32,
    },
    /// Written by older versions, which held results for the lull.
    ResultRecorded {
        result: ResourceResult,
    },
    /// The lull: mechanical play is over and these results land.
    Ended {
        rounds: u32,
        results: Vec<ResourceResult>,
    },
}

impl MechanicalPlay {
    /// Starts mechanical play: `seating` going to the right, `caller` the character whose
    /// player called for it.
    pub fn start(
        seating: &[Seat],
        caller: Uuid,
        settings: &Settings,
        cinematic: bool,
    ) -> Result<(MechanicalPlay, Vec<PlayEvent>)> {
        settings.check()?;
        if seating.is_empty() || seating.len() > MAX_COMBATANTS {
            return Err(Error::invalid("seating", format!("1 to {MAX_COMBATANTS} characters take part")));
        }
        for (i, seat) in seating.iter().enumerate() {
            if seating[..i].iter().any(|s| s.character == seat.character) {
                return Err(Error::invalid(format!("seating[{i}]"), "a character takes one seat"));
            }
        }
        let first = seating
            .iter()
            .find(|s| s.character == caller)
            .ok_or_else(|| Error::invalid("caller", "the caller's character is not in the seating"))?;
        // Players in seating order, from the caller's, each with all their characters.
        let mut players: Vec<Uuid> = Vec::new();
        for seat in seating {
            if !players.contains(&seat.player) {
                players.push(seat.player);
            }
        }
        let at = players.iter().position(|&p| p == first.player).expect("seated");
        players.rotate_left(at);
        let mut order = vec![*first];
        for player in players {
            order.extend(seating.iter().filter(|s| s.player == player && s.character != caller));
        }
        let combatants = order
            .iter()
            .map(|s| Combatant {
                character: s.character,
                player: s.player,
                forfeited: 0,
                forfeits: 0,
                free_actions: 0,
                second_cycle: false,
                free_kinds: Vec::new(),
                engaged: None,
                advantages: 0,
                reduced_penalty: 0,
            })
            .collect();
        let play = MechanicalPlay {
            settings: *settings,
            cinematic,
            combatants,
            round: 1,
            turn: 0,
            actions_used: 0,
            pending: Vec::new(),
        };
        Ok((play, vec![PlayEvent::Started { order: order.iter().map(|s| s.character).collect() }]))
    }

    /// The character whose turn it is.
    pub fn current(&self) -> Uuid {
        self.combatants[self.turn].character
    }

    fn index(&self, field: &str, character: Uuid) -> Result<usize> {
        self.combatants
            .iter()
            .position(|c| c.character == character)
            .ok_or_else(|| Error::invalid(field, format!("{character} is not in mechanical play")))
    }

    /// Immediate actions left in this turn.
    pub fn actions_left(&self) -> u32 {
        let forfeited = self.combatants[self.turn].forfeited;
        IMMEDIATE_ACTIONS.saturating_sub(forfeited).saturating_sub(self.actions_used)
    }

    /// The character whose turn it is uses an immediate action.
    pub fn take_action(&self, character: Uuid, action: Action) -> Result<(MechanicalPlay, Vec<PlayEvent>)> {
        self.index("character", character)?;
        if character != self.current() {
            return Err(Error::invalid("character", format!("it is {}'s turn", self.current())));
        }
        if self.actions_left() == 0 {
            return Err(Error::invalid("action", "no immediate action is left this turn (forfeited ones included)"));
        }
        let epic_index = self.settings.epic_index;
        let mut next = self.clone();
        let me = &mut next.combatants[self.turn];
        let mut events = Vec::new();
        match action {
            Action::Immediate => {}
            Action::Flurry { length } => {
                if !(1..=epic_index).contains(&length) {
                    return Err(Error::invalid(
                        "length",
                        format!("a flurry lasts 1 to {epic_index} actions (the Epic Index)"),
                    ));
                }
            }
            Action::RestoreFreeActions => {
                if me.second_cycle {
                    return Err(Error::invalid("action", "the free actions were restored once this round already"));
                }
                if me.free_actions < epic_index {
                    return Err(Error::invalid(
                        "action",
                        format!("{} free action(s) are left in this cycle", epic_index - me.free_actions),
                    ));
                }
                me.free_actions = 0;
                me.second_cycle = true;
                events.push(PlayEvent::FreeActionsRestored { character });
            }
        }
        next.actions_used += 1;
        events.insert(0, PlayEvent::ActionTaken { character, action, actions_left: next.actions_left() });
        Ok((next, events))
    }

    /// A free action of `kind` (looking around, dropping an item…), on anyone's turn.
    pub fn free_action(&self, character: Uuid, kind: &str) -> Result<(MechanicalPlay, Vec<PlayEvent>)> {
        let i = self.index("character", character)?;
        let kind = clean_name("kind", kind)?;
        let me = &self.combatants[i];
        let epic_index = self.settings.epic_index;
        if me.free_actions >= epic_index {
            let how = if me.second_cycle { "until the next round" } else { "until an action restores them" };
            return Err(Error::invalid(
                "character",
                format!("no free action is left ({epic_index}, the Epic Index, are used) {how}"),
            ));
        }
        if !self.cinematic && me.free_kinds.iter().any(|k| k.eq_ignore_ascii_case(&kind)) {
            return Err(Error::invalid("kind", format!("one {kind:?} a round, except in a cinematic game")));
        }
        let mut next = self.clone();
        let me = &mut next.combatants[i];
        me.free_actions += 1;
        me.free_kinds.push(kind.clone());
        let left_in_cycle = epic_index - me.free_actions;
        Ok((next, vec![PlayEvent::FreeActionTaken { character, kind, left_in_cycle }]))
    }

    /// `character`, engaged by the character whose turn it is, forfeits one of its upcoming
    /// actions to react now.
    pub fn forfeit(&self, character: Uuid) -> Result<(MechanicalPlay, Vec<PlayEvent>)> {
        let i = self.index("character", character)?;
        let engaged_by = self.current();
        if character == engaged_by {
            return Err(Error::invalid("character", "a character does not react on its own turn"));
        }
        if self.combatants[self.turn].engaged != Some(character) {
            return Err(Error::invalid(
                "character",
                format!("{engaged_by}, whose turn it is, has not engaged {character}"),
            ));
        }
        let me = &self.combatants[i];
        if me.forfeits >= FORFEITS_PER_ROUND {
            return Err(Error::invalid("character", format!("at most {FORFEITS_PER_ROUND} forfeits a round")));
        }
        if me.forfeited >= IMMEDIATE_ACTIONS {
            return Err(Error::invalid("character", "its next turn's actions are all forfeited already"));
        }
        let mut next = self.clone();
        let me = &mut next.combatants[i];
        me.forfeits += 1;
        me.forfeited += 1;
        let forfeited = me.forfeited;
        Ok((next, vec![PlayEvent::Forfeited { character, engaged_by, forfeited }]))
    }

    /// Ends the turn: play passes to the right, and back to the first character starts a
    /// new round.
    pub fn end_turn(&self) -> Result<(MechanicalPlay, Vec<PlayEvent>)> {
        let mut next = self.clone();
        let character = self.current();
        next.combatants[self.turn].forfeited = 0;
        next.actions_used = 0;
        next.turn = (self.turn + 1) % self.combatants.len();
        let mut events = vec![PlayEvent::TurnEnded { character, next: next.current() }];
        if next.turn == 0 {
            next.round += 1;
            for c in &mut next.combatants {
                c.forfeits = 0;
                c.free_actions = 0;
                c.second_cycle = false;
                c.free_kinds.clear();
            }
            events.push(PlayEvent::RoundStarted { round: next.round });
        }
        Ok((next, events))
    }

    /// `character` engages `foe` (or nobody): advantages it held against anyone else go.
    pub fn engage(&self, character: Uuid, foe: Option<Uuid>) -> Result<(MechanicalPlay, Vec<PlayEvent>)> {
        let i = self.index("character", character)?;
        if let Some(foe) = foe {
            self.index("foe", foe)?;
            if foe == character {
                return Err(Error::invalid("foe", "a character does not engage itself"));
            }
        }
        let mut next = self.clone();
        let me = &mut next.combatants[i];
        let mut advantages_erased = 0;
        if me.engaged != foe {
            advantages_erased = me.advantages;
            me.advantages = 0;
            me.engaged = foe;
        }
        Ok((next, vec![PlayEvent::Engaged { character, foe, advantages_erased }]))
    }

    /// `holder` seizes or holds a combat advantage against `foe`, whom it has engaged, up to
    /// the Epic Index.
    pub fn gain_advantage(&self, holder: Uuid, foe: Uuid, gain: Gain) -> Result<(MechanicalPlay, Vec<PlayEvent>)> {
        let i = self.index("holder", holder)?;
        self.index("foe", foe)?;
        let me = &self.combatants[i];
        if me.engaged != Some(foe) {
            return Err(Error::invalid("foe", format!("{holder} has not engaged {foe}")));
        }
        match gain {
            Gain::Seize if me.advantages > 0 => {
                return Err(Error::invalid("gain", "an advantage is held already: hold it, do not seize it"))
            }
            Gain::Hold if me.advantages == 0 => {
                return Err(Error::invalid("gain", "no advantage is held yet: seize one first"))
            }
            _ => {}
        }
        let epic_index = self.settings.epic_index;
        if me.advantages >= epic_index {
            return Err(Error::invalid(
                "gain",
                format!("at most {epic_index} advantages (the Epic Index) against a foe"),
            ));
        }
        let mut next = self.clone();
        next.combatants[i].advantages += 1;
        let held = next.combatants[i].advantages;
        Ok((next, vec![PlayEvent::AdvantageGained { holder, foe, gain, held }]))
    }

    /// `by` checks an advantage `holder` holds against it (one), or an upset erases them all.
    pub fn check_advantage(&self, by: Uuid, holder: Uuid, check: Check) -> Result<(MechanicalPlay, Vec<PlayEvent>)> {
        self.index("by", by)?;
        let i = self.index("holder", holder)?;
        let them = &self.combatants[i];
        if them.engaged != Some(by) || them.advantages == 0 {
            return Err(Error::invalid("holder", format!("{holder} holds no advantage against {by}")));
        }
        let mut next = self.clone();
        let them = &mut next.combatants[i];
        them.advantages = match check {
            Check::Check => them.advantages - 1,
            Check::Upset => 0,
        };
        let held = them.advantages;
        Ok((next, vec![PlayEvent::AdvantageChecked { holder, by, check, held }]))
    }

    /// A Catastrophic Failure of `holder` is a crucial mistake: an upset that erases every
    /// advantage it held (nothing happens when it holds none or is not in mechanical play).
    pub fn upset_by_mistake(&self, holder: Uuid) -> (MechanicalPlay, Vec<PlayEvent>) {
        let Some(i) = self.combatants.iter().position(|c| c.character == holder) else {
            return (self.clone(), Vec::new());
        };
        let them = &self.combatants[i];
        match them.engaged {
            Some(by) if them.advantages > 0 => {
                let mut next = self.clone();
                next.combatants[i].advantages = 0;
                (next, vec![PlayEvent::AdvantageChecked { holder, by, check: Check::Upset, held: 0 }])
            }
            _ => (self.clone(), Vec::new()),
        }
    }

    /// The penalty to all of `subject`'s rolls: −1 for each advantage held against it.
    pub fn penalty(&self, subject: Uuid) -> i32 {
        -(self.combatants.iter().filter(|c| c.engaged == Some(subject)).map(|c| c.advantages as i32).sum::<i32>())
    }

    /// Holds each combatant's penalty for reduced resources, as `penalty_of` gives it when
    /// play begins: until the lull, it does not follow what the fight takes off (seed:
    /// "Calculated penalties for reduced Resource Ratings do not take affect until the next
    /// 'lull'").
    pub fn hold_penalties(mut self, penalty_of: impl Fn(Uuid) -> i32) -> MechanicalPlay {
        for c in &mut self.combatants {
            c.reduced_penalty = penalty_of(c.character).clamp(MIN_REDUCED_PENALTY, 0);
        }
        self
    }

    /// The penalty for reduced resources `subject` plays with until the lull, when it takes
    /// part in this play; None otherwise (outside a fight it follows its resources at once).
    pub fn held_penalty(&self, subject: Uuid) -> Option<i32> {
        self.combatants.iter().find(|c| c.character == subject).map(|c| c.reduced_penalty)
    }

    /// Ends mechanical play: the lull. Results an older version left waiting land now
    /// (hand each character's sheet the results to [`super::sheet::Sheet::apply_results`]).
    pub fn end(&self) -> (Vec<ResourceResult>, Vec<PlayEvent>) {
        let results = self.pending.clone();
        (results.clone(), vec![PlayEvent::Ended { rounds: self.round, results }])
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::scattershot::sheet::{Resource, Sheet};
    use crate::rules::test_support::scattershot::{ALDER, ASH, BIRCH, CEDAR};
    use crate::rules::test_support::{err, ADA, BO, CY};

    fn seating() -> Vec<Seat> {
        vec![
            Seat { character: ASH, player: ADA },
            Seat { character: BIRCH, player: BO },
            Seat { character: ALDER, player: ADA },
            Seat { character: CEDAR, player: CY },
        ]
    }

    fn play(caller: Uuid) -> MechanicalPlay {
        MechanicalPlay::start(&seating(), caller, &Settings::default(), false).unwrap().0
    }

    fn ok(result: Result<(MechanicalPlay, Vec<PlayEvent>)>) -> MechanicalPlay {
        result.unwrap().0
    }

    #[test]
    fn the_caller_goes_first_and_play_passes_to_the_right() {
        let (p, events) = MechanicalPlay::start(&seating(), BIRCH, &Settings::default(), false).unwrap();
        assert_eq!(events, vec![PlayEvent::Started { order: vec![BIRCH, CEDAR, ASH, ALDER] }]);
        assert_eq!((p.current(), p.round), (BIRCH, 1));
        let order = play(ALDER).combatants.iter().map(|c| c.character).collect::<Vec<_>>();
        assert_eq!(order, vec![ALDER, ASH, BIRCH, CEDAR], "a player's characters go together, the caller's first");
        // Around the circle and back to the first: a new round.
        let mut p = p;
        for expected in [CEDAR, ASH, ALDER] {
            p = ok(p.end_turn());
            assert_eq!(p.current(), expected);
        }
        let (p, events) = p.end_turn().unwrap();
        assert_eq!(
            events,
            vec![PlayEvent::TurnEnded { character: ALDER, next: BIRCH }, PlayEvent::RoundStarted { round: 2 }]
        );
        assert_eq!((p.current(), p.round), (BIRCH, 2));
        assert_eq!(
            err(MechanicalPlay::start(&seating(), Uuid::from_u128(99), &Settings::default(), false)),
            "caller: the caller's character is not in the seating"
        );
        let twice = [seating()[0], seating()[0]];
        assert_eq!(
            err(MechanicalPlay::start(&twice, ASH, &Settings::default(), false)),
            "seating[1]: a character takes one seat"
        );
    }

    #[test]
    fn a_turn_has_two_immediate_actions() {
        let p = play(ASH);
        assert_eq!(err(p.take_action(BIRCH, Action::Immediate)), format!("character: it is {ASH}'s turn"));
        let (p, events) = p.take_action(ASH, Action::Immediate).unwrap();
        assert_eq!(events, vec![PlayEvent::ActionTaken { character: ASH, action: Action::Immediate, actions_left: 1 }]);
        let p = ok(p.take_action(ASH, Action::Flurry { length: 3 }));
        assert_eq!(
            err(p.take_action(ASH, Action::Immediate)),
            "action: no immediate action is left this turn (forfeited ones included)"
        );
        assert_eq!(
            err(play(ASH).take_action(ASH, Action::Flurry { length: 4 })),
            "length: a flurry lasts 1 to 3 actions (the Epic Index)"
        );
        let p = ok(ok(p.end_turn()).take_action(ALDER, Action::Immediate));
        assert_eq!(p.actions_left(), 1);
    }

    #[test]
    fn free_actions_per_round_are_the_epic_index_and_an_action_restores_a_second_cycle() {
        let mut p = play(ASH);
        for kind in ["Look around", "Drop an item", "Soliloquy"] {
            p = ok(p.free_action(BIRCH, kind));
        }
        assert_eq!(
            err(p.free_action(BIRCH, "Fall down")),
            "character: no free action is left (3, the Epic Index, are used) until an action restores them"
        );
        // Not Birch's turn: the restore waits for it, and needs the cycle used up.
        assert!(err(p.take_action(BIRCH, Action::RestoreFreeActions)).starts_with("character: it is"));
        assert_eq!(
            err(p.take_action(ASH, Action::RestoreFreeActions)),
            "action: 3 free action(s) are left in this cycle"
        );
        let p = ok(ok(p.end_turn()).end_turn());
        assert_eq!(p.current(), BIRCH);
        let (p, events) = p.take_action(BIRCH, Action::RestoreFreeActions).unwrap();
        assert_eq!(events[1], PlayEvent::FreeActionsRestored { character: BIRCH });
        // One of each kind a round, except in a cinematic game.
        assert_eq!(
            err(p.free_action(BIRCH, " look AROUND ")),
            "kind: one \"look AROUND\" a round, except in a cinematic game"
        );
        let mut p = p;
        for kind in ["Fall down", "Step", "Last-Ditch Dodge"] {
            p = ok(p.free_action(BIRCH, kind));
        }
        assert!(err(p.free_action(BIRCH, "Wave")).ends_with("until the next round"));
        assert_eq!(
            err(p.take_action(BIRCH, Action::RestoreFreeActions)),
            "action: the free actions were restored once this round already"
        );
        // A new round gives a fresh cycle.
        let p = ok(ok(p.end_turn()).end_turn());
        assert_eq!(p.round, 2);
        assert!(p.free_action(BIRCH, "Look around").is_ok());
        let cinematic = MechanicalPlay::start(&seating(), ASH, &Settings::default(), true).unwrap().0;
        assert!(ok(cinematic.free_action(ASH, "Step")).free_action(ASH, "step").is_ok());
    }

    #[test]
    fn an_engaged_character_forfeits_an_upcoming_action_at_most_twice_a_round() {
        let p = play(ASH);
        assert_eq!(err(p.forfeit(BIRCH)), format!("character: {ASH}, whose turn it is, has not engaged {BIRCH}"));
        let p = ok(p.engage(ASH, Some(BIRCH)));
        let (p, events) = p.forfeit(BIRCH).unwrap();
        assert_eq!(events, vec![PlayEvent::Forfeited { character: BIRCH, engaged_by: ASH, forfeited: 1 }]);
        let p = ok(p.forfeit(BIRCH));
        assert_eq!(err(p.forfeit(BIRCH)), "character: at most 2 forfeits a round");
        assert_eq!(err(p.forfeit(ASH)), "character: a character does not react on its own turn");
        // Birch's turn has no actions left; the next one has both again.
        let p = ok(ok(p.end_turn()).end_turn());
        assert_eq!((p.current(), p.actions_left()), (BIRCH, 0));
        assert!(p.take_action(BIRCH, Action::Immediate).is_err());
        let p = ok(ok(p.end_turn()).end_turn());
        assert_eq!((p.current(), p.round), (ASH, 2));
        let p = ok(ok(p.end_turn()).end_turn());
        assert_eq!((p.current(), p.actions_left()), (BIRCH, 2));
    }

    #[test]
    fn advantages_are_held_against_a_foe_up_to_the_epic_index_and_penalise_its_rolls() {
        let p = play(ASH);
        assert_eq!(err(p.gain_advantage(ASH, BIRCH, Gain::Seize)), format!("foe: {ASH} has not engaged {BIRCH}"));
        let p = ok(p.engage(ASH, Some(BIRCH)));
        assert!(err(p.gain_advantage(ASH, BIRCH, Gain::Hold)).contains("seize one first"));
        let p = ok(p.gain_advantage(ASH, BIRCH, Gain::Seize));
        assert!(err(p.gain_advantage(ASH, BIRCH, Gain::Seize)).contains("hold it"));
        let p = ok(ok(p.gain_advantage(ASH, BIRCH, Gain::Hold)).gain_advantage(ASH, BIRCH, Gain::Hold));
        assert_eq!(
            err(p.gain_advantage(ASH, BIRCH, Gain::Hold)),
            "gain: at most 3 advantages (the Epic Index) against a foe"
        );
        assert_eq!((p.penalty(BIRCH), p.penalty(ASH)), (-3, 0));
        // Cedar piles on from another side: the penalties add up.
        let p = ok(ok(p.engage(CEDAR, Some(BIRCH))).gain_advantage(CEDAR, BIRCH, Gain::Seize));
        assert_eq!(p.penalty(BIRCH), -4);
        // Birch checks one of Ash's; an upset erases the rest.
        let (p, events) = p.check_advantage(BIRCH, ASH, Check::Check).unwrap();
        assert_eq!(events, vec![PlayEvent::AdvantageChecked { holder: ASH, by: BIRCH, check: Check::Check, held: 2 }]);
        let p = ok(p.check_advantage(BIRCH, ASH, Check::Upset));
        assert_eq!(p.penalty(BIRCH), -1);
        assert_eq!(
            err(p.check_advantage(BIRCH, ASH, Check::Check)),
            format!("holder: {ASH} holds no advantage against {BIRCH}")
        );
        // Changing engagement erases what Cedar held.
        let (p, events) = p.engage(CEDAR, Some(ASH)).unwrap();
        assert_eq!(events, vec![PlayEvent::Engaged { character: CEDAR, foe: Some(ASH), advantages_erased: 1 }]);
        assert_eq!(p.penalty(BIRCH), 0);
        assert_eq!(err(p.engage(CEDAR, Some(CEDAR))), "foe: a character does not engage itself");
    }

    #[test]
    fn results_an_older_tracker_kept_land_when_mechanical_play_ends() {
        let hit = ResourceResult { target: BIRCH, resource: Resource::HitPoints, amount: 4 };
        let mut p = play(ASH);
        assert!(!serde_json::to_string(&p).unwrap().contains("pending"), "a new tracker holds none");
        p.pending = vec![hit, hit];
        let sheet = Sheet::new(None);
        let (results, events) = p.end();
        assert_eq!(events, vec![PlayEvent::Ended { rounds: 1, results: vec![hit, hit] }]);
        let (after, _) = sheet.apply_results(BIRCH, &results).unwrap();
        assert_eq!(after.current(Resource::HitPoints), 2);
    }

    #[test]
    fn a_catastrophic_failure_upsets_every_advantage_its_actor_held() {
        let p = ok(ok(ok(play(ASH).engage(ASH, Some(BIRCH))).gain_advantage(ASH, BIRCH, Gain::Seize)).gain_advantage(
            ASH,
            BIRCH,
            Gain::Hold,
        ));
        assert_eq!(p.penalty(BIRCH), -2);
        let (after, events) = p.upset_by_mistake(ASH);
        assert_eq!(events, vec![PlayEvent::AdvantageChecked { holder: ASH, by: BIRCH, check: Check::Upset, held: 0 }]);
        assert_eq!(after.penalty(BIRCH), 0);
        assert_eq!(after.upset_by_mistake(ASH).1, vec![], "nothing left to upset");
        assert_eq!(p.upset_by_mistake(Uuid::from_u128(77)).0, p, "someone outside the fight changes nothing");
    }

    #[test]
    fn a_tracker_round_trips_through_json() {
        let p = ok(ok(ok(play(ASH).engage(ASH, Some(BIRCH))).gain_advantage(ASH, BIRCH, Gain::Seize))
            .free_action(CEDAR, "Look"));
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<MechanicalPlay>(&json).unwrap(), p);
        assert!(serde_json::from_str::<MechanicalPlay>(&json.replacen('{', r#"{"luck":1,"#, 1)).is_err());
    }

    proptest! {
        /// Any sequence of moves, legal or not: free actions never pass the Epic Index in a
        /// cycle (two cycles at most a round), advantages never pass it, a turn never uses
        /// more than two actions, forfeits stay at two a round, and refused moves change
        /// nothing.
        #[test]
        fn free_actions_and_advantages_never_exceed_the_epic_index(
            epic_index in 1u32..5,
            moves in proptest::collection::vec((0u8..9, 0usize..4, 0usize..4, 0u8..4), 1..120),
        ) {
            let settings = Settings { epic_index, ..Settings::default() };
            let (mut p, _) = MechanicalPlay::start(&seating(), ASH, &settings, false).unwrap();
            let who = [ASH, ALDER, BIRCH, CEDAR];
            let kinds = ["Look", "Drop", "Step", "Fall"];
            let mut free_this_round = [0u32; 4];
            for (kind, a, b, k) in moves {
                let before = p.clone();
                let (x, y) = (who[a], who[b]);
                let result = match kind {
                    0 => p.take_action(p.current(), Action::Immediate),
                    1 => p.take_action(p.current(), Action::RestoreFreeActions),
                    2 => p.free_action(x, kinds[usize::from(k)]),
                    3 => p.forfeit(x),
                    4 => p.end_turn(),
                    5 => p.engage(x, Some(y)),
                    6 => p.gain_advantage(x, y, if k % 2 == 0 { Gain::Seize } else { Gain::Hold }),
                    7 => p.check_advantage(x, y, if k == 0 { Check::Upset } else { Check::Check }),
                    _ => p.engage(p.current(), Some(x)),
                };
                match result {
                    Ok((next, events)) => {
                        if events.iter().any(|e| matches!(e, PlayEvent::RoundStarted { .. })) {
                            free_this_round = [0; 4];
                        }
                        if let Some(PlayEvent::FreeActionTaken { character, .. }) = events.first() {
                            free_this_round[who.iter().position(|w| w == character).unwrap()] += 1;
                        }
                        p = next;
                    }
                    Err(_) => prop_assert_eq!(&p, &before),
                }
                prop_assert!(p.actions_used <= IMMEDIATE_ACTIONS);
                for (i, c) in p.combatants.iter().enumerate() {
                    prop_assert!(c.free_actions <= epic_index);
                    prop_assert!(c.advantages <= epic_index);
                    prop_assert!(c.forfeits <= FORFEITS_PER_ROUND && c.forfeited <= IMMEDIATE_ACTIONS);
                    let at = who.iter().position(|&w| w == c.character).unwrap();
                    prop_assert!(free_this_round[at] <= 2 * epic_index, "{i}: {}", free_this_round[at]);
                    prop_assert!(c.advantages == 0 || c.engaged.is_some());
                }
            }
        }
    }
}
