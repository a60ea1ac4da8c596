//! The Mezzo commands: each converts its arguments, calls one service, and maps the error.
//! No rules and no SQL here. Ids arrive as strings; `by` (the acting player) may be null.

use sheetkeeper::model::parse_id;
use sheetkeeper::rules::mezzo::conflict::Variant;
use sheetkeeper::rules::mezzo::element::{
    AdversitySpend, ElementKind, MomentumSource, MomentumSpend, Properties, Role, Sacrifice, SlotAward,
};
use sheetkeeper::rules::mezzo::vote::ConflictDraft;
use sheetkeeper::services::{
    self, Approach, ConflictOutcome, ConflictPreview, DiceInput, MezzoChange, MezzoLogEntry, MezzoView, TieOutcome,
    TraitDraft,
};
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

#[tauri::command]
pub fn mezzo_table(state: State<'_, AppState>, game: String) -> Reply<MezzoView> {
    Ok(services::mezzo_table(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command]
pub fn mezzo_log(state: State<'_, AppState>, game: String) -> Reply<Vec<MezzoLogEntry>> {
    Ok(services::mezzo_log(&*state.store()?, parse_id("game", &game)?, 200)?)
}

#[tauri::command]
pub fn mezzo_add_player(state: State<'_, AppState>, game: String, name: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_add_player(&mut *state.store()?, parse_id("game", &game)?, &name)?)
}

#[tauri::command]
pub fn mezzo_rename_player(
    state: State<'_, AppState>,
    game: String,
    player: String,
    name: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_rename_player(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        &name,
    )?)
}

#[tauri::command]
pub fn mezzo_remove_player(state: State<'_, AppState>, game: String, player: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_remove_player(&mut *state.store()?, parse_id("game", &game)?, parse_id("player", &player)?)?)
}

#[tauri::command]
pub fn mezzo_take_role(state: State<'_, AppState>, game: String, player: String, role: Role) -> Reply<MezzoChange> {
    Ok(services::mezzo_take_role(&mut *state.store()?, parse_id("game", &game)?, parse_id("player", &player)?, role)?)
}

#[tauri::command]
pub fn mezzo_leave_role(
    state: State<'_, AppState>,
    game: String,
    player: String,
    role: Role,
    active: Vec<String>,
) -> Reply<MezzoChange> {
    let active = active.iter().map(|id| parse_id("active", id)).collect::<sheetkeeper::Result<Vec<_>>>()?;
    Ok(services::mezzo_leave_role(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        role,
        &active,
    )?)
}

#[tauri::command]
pub fn mezzo_claim(state: State<'_, AppState>, game: String, player: String, character: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_claim(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        parse_id("character", &character)?,
    )?)
}

#[tauri::command]
pub fn mezzo_unclaim(
    state: State<'_, AppState>,
    game: String,
    player: String,
    character: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_unclaim(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        parse_id("character", &character)?,
    )?)
}

#[tauri::command]
pub fn mezzo_spend_influence(
    state: State<'_, AppState>,
    game: String,
    player: String,
    points: i64,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_spend_influence(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        points,
    )?)
}

#[tauri::command]
pub fn mezzo_gain_influence(
    state: State<'_, AppState>,
    game: String,
    player: String,
    points: i64,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_gain_influence(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        points,
    )?)
}

#[tauri::command]
pub fn mezzo_start_arc(state: State<'_, AppState>, game: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_start_arc(&mut *state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command]
pub fn mezzo_add_element(
    state: State<'_, AppState>,
    game: String,
    kind: ElementKind,
    name: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_add_element(&mut *state.store()?, parse_id("game", &game)?, kind, &name)?)
}

#[tauri::command]
pub fn mezzo_rename_element(
    state: State<'_, AppState>,
    game: String,
    element: String,
    name: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_rename_element(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        &name,
    )?)
}

#[tauri::command]
pub fn mezzo_remove_element(state: State<'_, AppState>, game: String, element: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_remove_element(&mut *state.store()?, parse_id("game", &game)?, parse_id("element", &element)?)?)
}

#[tauri::command]
pub fn mezzo_add_trait(
    state: State<'_, AppState>,
    game: String,
    element: String,
    by: Option<String>,
    draft: TraitDraft,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_add_trait(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        by.map(|id| parse_id("by", &id)).transpose()?,
        draft,
    )?)
}

#[tauri::command]
pub fn mezzo_edit_trait(
    state: State<'_, AppState>,
    game: String,
    element: String,
    trait_id: String,
    by: Option<String>,
    name: String,
    properties: Properties,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_edit_trait(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        parse_id("traitId", &trait_id)?,
        by.map(|id| parse_id("by", &id)).transpose()?,
        &name,
        &properties,
    )?)
}

#[tauri::command]
pub fn mezzo_remove_trait(
    state: State<'_, AppState>,
    game: String,
    element: String,
    trait_id: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_remove_trait(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        parse_id("traitId", &trait_id)?,
    )?)
}

#[tauri::command]
pub fn mezzo_award_edge_slots(
    state: State<'_, AppState>,
    game: String,
    element: String,
    award: SlotAward,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_award_edge_slots(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        award,
    )?)
}

#[tauri::command]
pub fn mezzo_award_memorable(
    state: State<'_, AppState>,
    game: String,
    element: String,
    player: String,
    undisputable: bool,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_award_memorable(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        parse_id("player", &player)?,
        undisputable,
    )?)
}

#[tauri::command]
pub fn mezzo_gain_adversity(
    state: State<'_, AppState>,
    game: String,
    element: String,
    points: i64,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_gain_adversity(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        points,
    )?)
}

#[tauri::command]
pub fn mezzo_spend_adversity(
    state: State<'_, AppState>,
    game: String,
    element: String,
    by: Option<String>,
    spend: AdversitySpend,
    allow_debt: bool,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_spend_adversity(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        by.map(|id| parse_id("by", &id)).transpose()?,
        spend,
        allow_debt,
    )?)
}

#[tauri::command]
pub fn mezzo_gain_momentum(
    state: State<'_, AppState>,
    game: String,
    element: String,
    points: i64,
    source: MomentumSource,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_gain_momentum(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        points,
        source,
    )?)
}

#[tauri::command]
pub fn mezzo_spend_momentum(
    state: State<'_, AppState>,
    game: String,
    element: String,
    by: Option<String>,
    spend: MomentumSpend,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_spend_momentum(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        by.map(|id| parse_id("by", &id)).transpose()?,
        spend,
    )?)
}

#[tauri::command]
pub fn mezzo_plot_protection(
    state: State<'_, AppState>,
    game: String,
    element: String,
    how: Sacrifice,
    receiver: Option<String>,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_plot_protection(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        how,
        receiver.map(|id| parse_id("receiver", &id)).transpose()?,
    )?)
}

#[tauri::command]
pub fn mezzo_conflict_preview(
    state: State<'_, AppState>,
    game: String,
    draft: ConflictDraft,
) -> Reply<ConflictPreview> {
    Ok(services::mezzo_conflict_preview(&*state.store()?, parse_id("game", &game)?, &draft)?)
}

#[tauri::command]
pub fn mezzo_resolve_conflict(
    state: State<'_, AppState>,
    game: String,
    draft: ConflictDraft,
    approach: Approach,
    dice: DiceInput,
) -> Reply<ConflictOutcome> {
    Ok(services::mezzo_resolve_conflict(
        &mut *state.store()?,
        parse_id("game", &game)?,
        &draft,
        &approach,
        &dice,
        &mut rand::rng(),
    )?)
}

#[tauri::command]
pub fn mezzo_break_tie(
    state: State<'_, AppState>,
    game: String,
    draft: ConflictDraft,
    tied: Vec<usize>,
    variant: Variant,
    dice: DiceInput,
) -> Reply<TieOutcome> {
    Ok(services::mezzo_break_tie(
        &mut *state.store()?,
        parse_id("game", &game)?,
        &draft,
        &tied,
        variant,
        &dice,
        &mut rand::rng(),
    )?)
}

#[tauri::command]
pub fn mezzo_compromise(
    state: State<'_, AppState>,
    game: String,
    question: String,
    compromise: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_compromise(&mut *state.store()?, parse_id("game", &game)?, &question, &compromise)?)
}
