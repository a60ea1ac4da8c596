//! The Penny Ante commands: each converts its arguments, calls one service, and maps the
//! error. No rules and no SQL here. On a device joined to a linked table, the challenge's
//! moves go to the host instead (`through_the_host`).

use sheetkeeper::model::parse_id;
use sheetkeeper::rules::penny_ante::challenge::{Move, Side};
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::rules::penny_ante::table::Characteristic;
use sheetkeeper::services::{
    self, ChallengeDraft, DiceInput, GameMove, LedgerView, PennyChange, PennyLogEntry, PennyView, PrivateView,
};
use tauri::State;
use uuid::Uuid;

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

/// The table as this device shows it; with `house`, as the House sees it (after the window
/// handed a device passed around to the House).
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
/// characteristics.
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

#[tauri::command(async)]
pub fn penny_create_character(
    state: State<'_, AppState>,
    game: String,
    name: String,
    characteristic: String,
    pennies: i64,
) -> Reply<PennyChange> {
    Ok(services::penny_create_character(
        &mut *state.store()?,
        parse_id("game", &game)?,
        &name,
        &characteristic,
        pennies,
    )?)
}

#[tauri::command(async)]
pub fn penny_starting_pennies(
    state: State<'_, AppState>,
    game: String,
    character: String,
    pennies: i64,
) -> Reply<PennyChange> {
    Ok(services::penny_starting_pennies(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("character", &character)?,
        pennies,
    )?)
}

#[tauri::command(async)]
pub fn penny_buy_characteristic(
    state: State<'_, AppState>,
    game: String,
    character: String,
    text: String,
) -> Reply<PennyChange> {
    Ok(services::penny_buy_characteristic(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("character", &character)?,
        &text,
    )?)
}

#[tauri::command(async)]
pub fn penny_start_adventure(state: State<'_, AppState>, game: String, funding: Option<i64>) -> Reply<PennyChange> {
    Ok(services::penny_start_adventure(&mut *state.store()?, parse_id("game", &game)?, funding)?)
}

#[tauri::command(async)]
pub fn penny_end_adventure(state: State<'_, AppState>, game: String) -> Reply<PennyChange> {
    Ok(services::penny_end_adventure(&mut *state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn penny_add_antagonist(
    state: State<'_, AppState>,
    game: String,
    name: String,
    characteristics: Vec<Characteristic>,
) -> Reply<PennyChange> {
    Ok(services::penny_add_antagonist(&mut *state.store()?, parse_id("game", &game)?, &name, characteristics)?)
}

#[tauri::command(async)]
pub fn penny_edit_antagonist(
    state: State<'_, AppState>,
    game: String,
    antagonist: String,
    name: String,
    characteristics: Vec<Characteristic>,
) -> Reply<PennyChange> {
    Ok(services::penny_edit_antagonist(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("antagonist", &antagonist)?,
        &name,
        characteristics,
    )?)
}

#[tauri::command(async)]
pub fn penny_fund_antagonist(
    state: State<'_, AppState>,
    game: String,
    antagonist: String,
    amount: i64,
) -> Reply<PennyChange> {
    Ok(services::penny_fund_antagonist(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("antagonist", &antagonist)?,
        amount,
    )?)
}

#[tauri::command(async)]
pub fn penny_recall_purse(
    state: State<'_, AppState>,
    game: String,
    antagonist: String,
    amount: i64,
) -> Reply<PennyChange> {
    Ok(services::penny_recall_purse(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("antagonist", &antagonist)?,
        amount,
    )?)
}

#[tauri::command(async)]
pub fn penny_repay_loan(state: State<'_, AppState>, game: String, loan: String, amount: i64) -> Reply<PennyChange> {
    Ok(services::penny_repay_loan(&mut *state.store()?, parse_id("game", &game)?, parse_id("loan", &loan)?, amount)?)
}

#[tauri::command(async)]
pub fn penny_repay_debt(
    state: State<'_, AppState>,
    game: String,
    debtor: Account,
    creditor: Account,
    amount: i64,
) -> Reply<PennyChange> {
    Ok(services::penny_repay_debt(&mut *state.store()?, parse_id("game", &game)?, debtor, creditor, amount)?)
}

#[tauri::command(async)]
pub fn penny_set_recurring(
    state: State<'_, AppState>,
    game: String,
    antagonist: String,
    recurring: bool,
) -> Reply<PennyChange> {
    Ok(services::penny_set_recurring(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("antagonist", &antagonist)?,
        recurring,
    )?)
}

#[tauri::command(async)]
pub fn penny_narrate(state: State<'_, AppState>, game: String, challenge: String, text: String) -> Reply<PennyChange> {
    Ok(services::penny_narrate(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("challenge", &challenge)?,
        &text,
    )?)
}

/// On a device joined to `game`'s table, `mv` goes to the host (which runs it through its
/// services) and the answer is the table as the replica shows it once the host's next
/// snapshot is in; `None` when this device is not joined to that game (it plays locally).
fn through_the_host(state: &AppState, game: Uuid, mv: impl FnOnce() -> GameMove) -> Reply<Option<PennyChange>> {
    let Some(join) = state.joined().filter(|j| j.handle().status().game == Some(game)) else { return Ok(None) };
    // The store is not locked while the host answers: the link writes the snapshot itself.
    join.handle().submit_move(mv())?;
    let view = services::penny_table(&*state.store()?, game)?;
    Ok(Some(PennyChange { view, message: "The table took the move.".into() }))
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
