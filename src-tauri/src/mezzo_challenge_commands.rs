//! The Mezzo challenge commands, one line each (`command.rs` writes the wrapper once): each
//! converts its arguments, calls one service, and maps the error. No rules and no SQL here.
//! Ids arrive as strings; a move arrives as the rules' JSON (its new traits may leave out
//! their ids: the service gives them).

use sheetkeeper::rules::mezzo::action_check::Surge;
use sheetkeeper::rules::mezzo::challenge::HealEffect;
use sheetkeeper::rules::mezzo::recovery::RecoveryCheck;
use sheetkeeper::services::{
    CheckRequest, DiceInput, MezzoChallengeChange, MezzoChallengeDraft, MezzoChallengeView, MezzoChange,
};

use crate::command::commands;

commands! {
    read mezzo_challenge(id game) -> Option<MezzoChallengeView>;
    write mezzo_challenge_start(id game, ref draft: MezzoChallengeDraft) -> MezzoChallengeChange;
    write mezzo_challenge_play(id game, ref draft: serde_json::Value) -> MezzoChallengeChange;
    write mezzo_challenge_roll_majors(
        id game, ref request: CheckRequest, ids_first majors, ref dice: DiceInput; &mut rand::rng()
    ) -> MezzoChallengeChange;
    write mezzo_challenge_resolve_majors(id game, ref surges: Vec<Surge>, ids_first majors) -> MezzoChallengeChange;
    write mezzo_take_breather(id game, id element, id flaw) -> MezzoChange;
    write mezzo_escape_restraints(id game, id element, id restraint) -> MezzoChange;
    write mezzo_treat_wounds(id game, id element, id wound, ref effect: HealEffect, val recovery: RecoveryCheck)
        -> MezzoChange;
    write mezzo_challenge_from_check(id game, id check, ref draft: MezzoChallengeDraft) -> MezzoChallengeChange;
    write mezzo_tempting_target(id game, val action: usize, id target) -> MezzoChallengeChange;
}
