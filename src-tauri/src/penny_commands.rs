//! The Penny Ante commands, one line each (`command.rs` writes the wrapper once): each
//! converts its arguments, calls one service, and maps the error. No rules and no SQL here.
//! The reads that choose between services, and the challenge's moves (on a device joined to
//! a linked table they go to the host instead, `through_the_host`), are written out.

use sheetkeeper::model::parse_id;
use sheetkeeper::rules::penny_ante::challenge::{Move, Side};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::rules::penny_ante::table::Characteristic;
use sheetkeeper::services::{
    self, ChallengeDraft, CupChoiceView, DiceInput, GameMove, LedgerView, PennyChange, PennyLogEntry, PennyView,
    PrivateView,
};
use tauri::State;
use uuid::Uuid;

use crate::command::commands;
use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

/// The table as this device shows it; with `house`, as the House sees it (after the window
/// handed a device passed around to the House). Hand-written: it chooses the service.
#[tauri::command(async)]
pub fn penny_table(state: State<'_, AppState>, game: String, house: Option<bool>) -> Reply<PennyView> {
    let (store, game) = (&*state.store()?, parse_id("game", &game)?);
    Ok(if house == Some(true) {
        services::penny_table_as_house(store, game)?
    } else {
        services::penny_table(store, game)?
    })
}

/// A side's own view; with `declared` (while it declares), its odds for that many
/// characteristics. Hand-written: it chooses the service.
#[tauri::command(async)]
pub fn penny_private(
    state: State<'_, AppState>,
    game: String,
    side: Side,
    cup: Option<Vec<usize>>,
    declared: Option<usize>,
) -> Reply<PrivateView> {
    let (store, game) = (&*state.store()?, parse_id("game", &game)?);
    Ok(match declared {
        Some(n) => services::penny_private_declaring(store, game, side, n)?,
        None => services::penny_private(store, game, side, cup)?,
    })
}

/// With `house`, as the House sees it (a device passed around, handed to the House).
/// Hand-written, like `penny_log`: the page size comes before the House's flag.
#[tauri::command(async)]
pub fn penny_ledger(
    state: State<'_, AppState>,
    game: String,
    account: Option<Account>,
    house: Option<bool>,
) -> Reply<LedgerView> {
    let house = house == Some(true);
    Ok(services::penny_ledger(&*state.store()?, parse_id("game", &game)?, account, 500, house)?)
}

/// With `house`, as the House sees it (a device passed around, handed to the House).
#[tauri::command(async)]
pub fn penny_log(state: State<'_, AppState>, game: String, house: Option<bool>) -> Reply<Vec<PennyLogEntry>> {
    Ok(services::penny_log(&*state.store()?, parse_id("game", &game)?, 200, house == Some(true))?)
}

commands! {
    read penny_cup_choices(id game, val side: Side) -> Vec<CupChoiceView>;
    write penny_create_character(id game, ref name: String, ref characteristic: String, val pennies: i64) -> PennyChange;
    write penny_starting_pennies(id game, id character, val pennies: i64) -> PennyChange;
    write penny_buy_characteristic(id game, id character, ref text: String) -> PennyChange;
    write penny_start_adventure(id game, val funding: Option<i64>) -> PennyChange;
    write penny_end_adventure(id game) -> PennyChange;
    write penny_add_antagonist(id game, ref name: String, val characteristics: Vec<Characteristic>) -> PennyChange;
    write penny_edit_antagonist(
        id game, id antagonist, ref name: String, val characteristics: Vec<Characteristic>
    ) -> PennyChange;
    write penny_fund_antagonist(id game, id antagonist, val amount: i64) -> PennyChange;
    write penny_recall_purse(id game, id antagonist, val amount: i64) -> PennyChange;
    write penny_repay_loan(id game, id loan, val amount: i64) -> PennyChange;
    write penny_repay_debt(id game, val debtor: Account, val creditor: Account, val amount: i64) -> PennyChange;
    write penny_set_recurring(id game, id antagonist, val recurring: bool) -> PennyChange;
    write penny_narrate(id game, id challenge, ref text: String) -> PennyChange;
}

/// On a device joined to `game`'s table, `mv` goes to the host (which runs it through its
/// services) and the answer is the table as the replica shows it once the host's next
/// snapshot is in, with the move in the table's words (its feed card, which the host sends
/// before its answer); `None` when this device is not joined to that game (it plays locally).
fn through_the_host(state: &AppState, game: Uuid, mv: impl FnOnce() -> GameMove) -> Reply<Option<PennyChange>> {
    let Some(join) = state.joined().filter(|j| j.handle().status().game == Some(game)) else { return Ok(None) };
    let before = join.handle().feed(0).last().map_or(0, |c| c.seq);
    // The store is not locked while the host answers: the link writes the snapshot itself.
    join.handle().submit_move(mv())?;
    let view = services::penny_table(&*state.store()?, game)?;
    let said = join.handle().feed(before).into_iter().rev().find(|c| c.who.is_none() && !c.undone);
    let message = said.map_or_else(|| "The table took the move.".into(), |c| c.outcome);
    Ok(Some(PennyChange { view, message }))
}

/// A challenge is issued at the table: on a device joined to `game`'s table it is refused
/// (it would change only this device's copy, which the host's next snapshot replaces).
#[tauri::command(async)]
pub fn penny_start_challenge(state: State<'_, AppState>, game: String, draft: ChallengeDraft) -> Reply<PennyChange> {
    let game = parse_id("game", &game)?;
    if state.joined().is_some_and(|j| j.handle().status().game == Some(game)) {
        return Err(AppError::invalid(
            "challenge: at a linked table the host's device issues challenges; ask the table to start this one",
        ));
    }
    Ok(services::penny_start_challenge(&mut *state.store()?, game, draft)?)
}

#[tauri::command(async)]
pub fn penny_challenge_move(state: State<'_, AppState>, game: String, mv: Move, dice: DiceInput) -> Reply<PennyChange> {
    let game = parse_id("game", &game)?;
    if let Some(change) =
        through_the_host(&state, game, || GameMove::PennyChallenge { mv: mv.clone(), dice: dice.clone() })?
    {
        return Ok(change);
    }
    Ok(services::penny_challenge_move(&mut *state.store()?, game, mv, &dice, &mut rand::rng())?)
}
