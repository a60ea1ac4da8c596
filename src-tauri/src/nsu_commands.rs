//! The No Stone Unturned commands for play from one player's device: a helper on another
//! device typed in, and "I helped with…" on the helper's own device; and the approaches
//! before a roll, every aspect and mood with its odds (issue 34). One line each
//! (`command.rs` writes the wrapper once): each converts its arguments, calls one service,
//! and maps the error. No rules and no SQL here.

use sheetkeeper::rules::nsu::roll::{Edge, HelpedWith, Need, RemoteHelper, RollSetup};
use sheetkeeper::rules::nsu::Die;
use sheetkeeper::services::{ApproachView, DiceInput, HelpedResult, PendingRoll};

use crate::command::commands;

commands! {
    write nsu_roll_help_elsewhere(id_first id, ref helper: RemoteHelper, ref dice: DiceInput; &mut rand::rng())
        -> PendingRoll;
    read nsu_roll_approaches(id id, ref setup: RollSetup, val helper_die: Option<Die>, or_default helper_edge: Edge)
        -> Vec<ApproachView>;
    read nsu_helped_with_needs(id id, ref input: HelpedWith) -> Vec<Need>;
    write nsu_helped_with(id id, ref input: HelpedWith) -> HelpedResult;
}
