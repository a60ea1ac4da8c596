//! The No Stone Unturned commands for play from one player's device: a helper on another
//! device typed in, and "I helped with…" on the helper's own device; and the approaches
//! before a roll, every aspect and mood with its odds (issue 34); the quick roll from a tap on
//! the sheet and a desired outcome written later on the log (issue 32). One line each
//! (`command.rs` writes the wrapper once): each converts its arguments, calls one service,
//! and maps the error. No rules and no SQL here.

use sheetkeeper::rules::nsu::quick::QuickStart;
use sheetkeeper::rules::nsu::roll::{Edge, HelpedWith, Need, RemoteHelper, RollSetup};
use sheetkeeper::rules::nsu::Die;
use sheetkeeper::services::{ApproachView, DiceInput, Done, HelpedResult, PendingRoll, QuickRoll};

use crate::command::commands;

commands! {
    write nsu_roll_help_elsewhere(id_first id, ref helper: RemoteHelper, ref dice: DiceInput; &mut rand::rng())
        -> PendingRoll;
    read nsu_roll_approaches(id id, ref setup: RollSetup, val helper_die: Option<Die>, or_default helper_edge: Edge)
        -> Vec<ApproachView>;
    read nsu_helped_with_needs(id id, ref input: HelpedWith) -> Vec<Need>;
    write nsu_helped_with(id id, ref input: HelpedWith) -> HelpedResult;
    read nsu_quick_roll(id id, ref start: QuickStart) -> QuickRoll;
    write nsu_roll_write_outcome(id id, val roll: i64, ref text: String) -> Done;
}
