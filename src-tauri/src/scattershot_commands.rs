//! The Scattershot's Mechanix commands, one line each (`command.rs`). Ids arrive as strings;
//! moves arrive as the services' tagged JSON (`{"move": "dice", "party": "actor"}`).

use sheetkeeper::services::{
    BiddingView, DiceInput, MibPreview, MoveEntry, PlayMove, RewardMove, RollMove, RollRequest, ScattershotChange,
    ScattershotSheetChange, ScattershotSheetView, ScattershotView, SheetEdit, TableEdit,
};

use crate::command::commands;

commands! {
    read scattershot_table(id game) -> ScattershotView;
    read scattershot_log(id game; 200) -> Vec<MoveEntry>;
    read scattershot_sheet(id character) -> ScattershotSheetView;
    write scattershot_sheet_edit(id character, ref edit: SheetEdit) -> ScattershotSheetChange;
    write scattershot_table_edit(id game, ref edit: TableEdit) -> ScattershotChange;
    read scattershot_roll_preview(id game, ref request: RollRequest) -> MibPreview;
    read scattershot_bidding(id game) -> BiddingView;
    write scattershot_roll(id game, ref step: RollMove, ref dice: DiceInput; &mut rand::rng()) -> ScattershotChange;
    write scattershot_play(id game, ref step: PlayMove) -> ScattershotChange;
    write scattershot_reward(id game, ref reward: RewardMove) -> ScattershotChange;
}
