//! The Mezzo commands: each converts its arguments, calls one service, and maps the error.
//! No rules and no SQL here. Ids arrive as strings; `by` (the acting player) may be null.

use sheetkeeper::model::parse_id;
use sheetkeeper::rules::mezzo::conflict::Variant;
use sheetkeeper::rules::mezzo::element::{
    AdversitySpend, ElementKind, MomentumSource, MomentumSpend, Properties, Role, Sacrifice, SlotAward,
};
use sheetkeeper::rules::mezzo::vote::ConflictDraft;
use sheetkeeper::services::{
    self, Approach, ConflictOutcome, ConflictPreview, ConflictSources, D6First, DiceInput, MezzoChange, MezzoLogEntry,
    MezzoView, TieOutcome, TraitDraft,
};
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

#[tauri::command(async)]
pub fn mezzo_table(state: State<'_, AppState>, game: String) -> Reply<MezzoView> {
    Ok(services::mezzo_table(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_log(state: State<'_, AppState>, game: String) -> Reply<Vec<MezzoLogEntry>> {
    Ok(services::mezzo_log(&*state.store()?, parse_id("game", &game)?, 200)?)
}

#[tauri::command(async)]
pub fn mezzo_add_player(state: State<'_, AppState>, game: String, name: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_add_player(&mut *state.store()?, parse_id("game", &game)?, &name)?)
}

#[tauri::command(async)]
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

#[tauri::command(async)]
pub fn mezzo_remove_player(state: State<'_, AppState>, game: String, player: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_remove_player(&mut *state.store()?, parse_id("game", &game)?, parse_id("player", &player)?)?)
}

#[tauri::command(async)]
pub fn mezzo_take_role(state: State<'_, AppState>, game: String, player: String, role: Role) -> Reply<MezzoChange> {
    Ok(services::mezzo_take_role(&mut *state.store()?, parse_id("game", &game)?, parse_id("player", &player)?, role)?)
}

#[tauri::command(async)]
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

#[tauri::command(async)]
pub fn mezzo_claim(state: State<'_, AppState>, game: String, player: String, character: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_claim(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        parse_id("character", &character)?,
    )?)
}

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
pub fn mezzo_start_arc(state: State<'_, AppState>, game: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_start_arc(&mut *state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_add_element(
    state: State<'_, AppState>,
    game: String,
    kind: ElementKind,
    name: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_add_element(&mut *state.store()?, parse_id("game", &game)?, kind, &name)?)
}

#[tauri::command(async)]
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

#[tauri::command(async)]
pub fn mezzo_remove_element(state: State<'_, AppState>, game: String, element: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_remove_element(&mut *state.store()?, parse_id("game", &game)?, parse_id("element", &element)?)?)
}

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
pub fn mezzo_conflict_preview(
    state: State<'_, AppState>,
    game: String,
    draft: ConflictDraft,
    selections: Option<Vec<Vec<usize>>>,
) -> Reply<ConflictPreview> {
    let selections = selections.unwrap_or_default();
    Ok(services::mezzo_conflict_preview(&*state.store()?, parse_id("game", &game)?, &draft, &selections)?)
}

#[tauri::command(async)]
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

#[tauri::command(async)]
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

#[tauri::command(async)]
pub fn mezzo_compromise(
    state: State<'_, AppState>,
    game: String,
    question: String,
    compromise: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_compromise(&mut *state.store()?, parse_id("game", &game)?, &question, &compromise)?)
}

// ---------------------------------------------------------------------------------------
// Action checks: preview (live), roll, the check on the table, resolve, tie.

#[tauri::command(async)]
pub fn mezzo_check_preview(
    state: State<'_, AppState>,
    game: String,
    request: services::CheckRequest,
) -> Reply<services::CheckPreview> {
    Ok(services::mezzo_check_preview(&*state.store()?, parse_id("game", &game)?, &request)?)
}

#[tauri::command(async)]
pub fn mezzo_check_roll(
    state: State<'_, AppState>,
    game: String,
    request: services::CheckRequest,
    dice: DiceInput,
) -> Reply<services::PendingCheck> {
    Ok(services::mezzo_check_roll(&mut *state.store()?, parse_id("game", &game)?, &request, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn mezzo_check_pending(state: State<'_, AppState>, game: String) -> Reply<Option<services::PendingCheck>> {
    Ok(services::mezzo_check_pending(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_check_resolve(
    state: State<'_, AppState>,
    game: String,
    surges: Vec<sheetkeeper::rules::mezzo::action_check::Surge>,
) -> Reply<services::CheckOutcome> {
    Ok(services::mezzo_check_resolve(&mut *state.store()?, parse_id("game", &game)?, &surges)?)
}

#[tauri::command(async)]
pub fn mezzo_check_break_tie(
    state: State<'_, AppState>,
    game: String,
    dice: DiceInput,
) -> Reply<services::CheckOutcome> {
    Ok(services::mezzo_check_break_tie(&mut *state.store()?, parse_id("game", &game)?, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn mezzo_check_burst(
    state: State<'_, AppState>,
    game: String,
    bursts: Vec<usize>,
    dice: DiceInput,
) -> Reply<services::PendingCheck> {
    Ok(services::mezzo_check_burst(&mut *state.store()?, parse_id("game", &game)?, &bursts, &dice, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn mezzo_set_dice_variant(
    state: State<'_, AppState>,
    game: String,
    variant: sheetkeeper::rules::mezzo::conflict::Variant,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_set_dice_variant(&mut *state.store()?, parse_id("game", &game)?, variant)?)
}

#[tauri::command(async)]
pub fn mezzo_set_active(state: State<'_, AppState>, game: String, active: Vec<String>) -> Reply<MezzoChange> {
    let active = active
        .iter()
        .enumerate()
        .map(|(i, id)| parse_id(&format!("active[{i}]"), id))
        .collect::<sheetkeeper::Result<Vec<_>>>()?;
    Ok(services::mezzo_set_active(&mut *state.store()?, parse_id("game", &game)?, &active)?)
}

#[tauri::command(async)]
pub fn mezzo_start_scene(state: State<'_, AppState>, game: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_start_scene(&mut *state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_end_scene(state: State<'_, AppState>, game: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_end_scene(&mut *state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_favored_flaw_used(
    state: State<'_, AppState>,
    game: String,
    element: String,
    trait_id: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_favored_flaw_used(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        parse_id("trait_id", &trait_id)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_asset_access(
    state: State<'_, AppState>,
    game: String,
    element: String,
    trait_id: String,
    lost: bool,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_asset_access(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("element", &element)?,
        parse_id("trait_id", &trait_id)?,
        lost,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_lend_gift(
    state: State<'_, AppState>,
    game: String,
    owner: String,
    gift: String,
    target: String,
    lend: bool,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_lend_gift(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("owner", &owner)?,
        parse_id("gift", &gift)?,
        parse_id("target", &target)?,
        lend,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_check_compromise(state: State<'_, AppState>, game: String, text: String) -> Reply<services::CheckOutcome> {
    Ok(services::mezzo_check_compromise(&mut *state.store()?, parse_id("game", &game)?, &text)?)
}

// ---------------------------------------------------------------------------------------
// Plot hooks and arcs, the seed deck and the keyword die

use sheetkeeper::rules::mezzo::plot::{
    Award, BoostDraw, InChallenge, MemorableAward, Resource, Sacrifice as PlotSacrifice, Take, User,
};
use sheetkeeper::rules::mezzo::seed_deck::Ending;
use sheetkeeper::services::{DeckChange, DeckView, HandView, HookDraft, KeywordOutcome, PlotChange, PlotView};

#[tauri::command(async)]
pub fn mezzo_plot(state: State<'_, AppState>, game: String) -> Reply<PlotView> {
    Ok(services::mezzo_plot(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_even_share(state: State<'_, AppState>, game: String, hook: String, user: User) -> Reply<Vec<Award>> {
    Ok(services::mezzo_even_share(&*state.store()?, parse_id("game", &game)?, parse_id("hook", &hook)?, &user)?)
}

#[tauri::command(async)]
pub fn mezzo_create_hook(state: State<'_, AppState>, game: String, user: User, draft: HookDraft) -> Reply<PlotChange> {
    Ok(services::mezzo_create_hook(&mut *state.store()?, parse_id("game", &game)?, &user, &draft)?)
}

#[tauri::command(async)]
pub fn mezzo_invest(
    state: State<'_, AppState>,
    game: String,
    hook: String,
    user: User,
    resource: Resource,
    points: u32,
) -> Reply<PlotChange> {
    Ok(services::mezzo_invest(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("hook", &hook)?,
        &user,
        resource,
        points,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_tap(
    state: State<'_, AppState>,
    game: String,
    hook: String,
    user: User,
    resource: Resource,
) -> Reply<PlotChange> {
    Ok(services::mezzo_tap(&mut *state.store()?, parse_id("game", &game)?, parse_id("hook", &hook)?, &user, resource)?)
}

#[tauri::command(async)]
pub fn mezzo_resolve_hook(
    state: State<'_, AppState>,
    game: String,
    hook: String,
    user: User,
    reward: Resource,
    share: Option<Vec<Award>>,
) -> Reply<PlotChange> {
    Ok(services::mezzo_resolve_hook(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("hook", &hook)?,
        &user,
        reward,
        share.as_deref(),
    )?)
}

#[tauri::command(async)]
pub fn mezzo_raise_stakes(
    state: State<'_, AppState>,
    game: String,
    hooks: Vec<String>,
    challenge: InChallenge,
    challenger: String,
    take: Vec<Take>,
) -> Reply<PlotChange> {
    Ok(services::mezzo_raise_stakes(
        &mut *state.store()?,
        parse_id("game", &game)?,
        &hooks.iter().map(|id| parse_id("hooks", id)).collect::<sheetkeeper::Result<Vec<_>>>()?,
        &challenge,
        parse_id("challenger", &challenger)?,
        &take,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_no_escape(
    state: State<'_, AppState>,
    game: String,
    hooks: Vec<String>,
    challenge: InChallenge,
    user: User,
    target: String,
) -> Reply<PlotChange> {
    Ok(services::mezzo_no_escape(
        &mut *state.store()?,
        parse_id("game", &game)?,
        &hooks.iter().map(|id| parse_id("hooks", id)).collect::<sheetkeeper::Result<Vec<_>>>()?,
        &challenge,
        &user,
        parse_id("target", &target)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_ignore_protection(
    state: State<'_, AppState>,
    game: String,
    challenge: String,
    user: User,
    target: String,
) -> Reply<PlotChange> {
    Ok(services::mezzo_ignore_protection(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("challenge", &challenge)?,
        &user,
        parse_id("target", &target)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_no_escape_lapses(state: State<'_, AppState>, game: String, challenge: String) -> Reply<PlotChange> {
    Ok(services::mezzo_no_escape_lapses(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("challenge", &challenge)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_turning_point(
    state: State<'_, AppState>,
    game: String,
    hooks: Vec<String>,
    challenge: InChallenge,
    sacrifices: Vec<PlotSacrifice>,
    draws: Vec<BoostDraw>,
) -> Reply<PlotChange> {
    Ok(services::mezzo_turning_point(
        &mut *state.store()?,
        parse_id("game", &game)?,
        &hooks.iter().map(|id| parse_id("hooks", id)).collect::<sheetkeeper::Result<Vec<_>>>()?,
        &challenge,
        &sacrifices,
        &draws,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_set_theme(state: State<'_, AppState>, game: String, by: String, text: String) -> Reply<PlotChange> {
    Ok(services::mezzo_set_theme(&mut *state.store()?, parse_id("game", &game)?, parse_id("by", &by)?, &text)?)
}

#[tauri::command(async)]
pub fn mezzo_end_arc(state: State<'_, AppState>, game: String, memorable: Vec<MemorableAward>) -> Reply<PlotChange> {
    Ok(services::mezzo_end_arc(&mut *state.store()?, parse_id("game", &game)?, &memorable)?)
}

#[tauri::command(async)]
pub fn mezzo_deck(state: State<'_, AppState>, game: String) -> Reply<DeckView> {
    Ok(services::mezzo_deck(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_hand(state: State<'_, AppState>, game: String, player: String) -> Reply<HandView> {
    Ok(services::mezzo_hand(&*state.store()?, parse_id("game", &game)?, parse_id("player", &player)?)?)
}

#[tauri::command(async)]
pub fn mezzo_build_deck(state: State<'_, AppState>, game: String, cards: Vec<String>) -> Reply<DeckChange> {
    Ok(services::mezzo_build_deck(&mut *state.store()?, parse_id("game", &game)?, &cards, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn mezzo_add_cards(state: State<'_, AppState>, game: String, cards: Vec<String>) -> Reply<DeckChange> {
    Ok(services::mezzo_add_cards(&mut *state.store()?, parse_id("game", &game)?, &cards, &mut rand::rng())?)
}

#[tauri::command(async)]
pub fn mezzo_start_session(state: State<'_, AppState>, game: String) -> Reply<DeckChange> {
    Ok(services::mezzo_start_session(&mut *state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_buy_cards(state: State<'_, AppState>, game: String, player: String, count: u32) -> Reply<DeckChange> {
    Ok(services::mezzo_buy_cards(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        count,
        &mut rand::rng(),
    )?)
}

#[tauri::command(async)]
pub fn mezzo_play_card(state: State<'_, AppState>, game: String, player: String, card: String) -> Reply<DeckChange> {
    Ok(services::mezzo_play_card(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        parse_id("card", &card)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_deplete_card(state: State<'_, AppState>, game: String, player: String, card: String) -> Reply<DeckChange> {
    Ok(services::mezzo_deplete_card(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        parse_id("card", &card)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_link_cards(
    state: State<'_, AppState>,
    game: String,
    by: String,
    card: String,
    to: String,
) -> Reply<DeckChange> {
    Ok(services::mezzo_link_cards(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("by", &by)?,
        parse_id("card", &card)?,
        parse_id("to", &to)?,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_deck_end_of(state: State<'_, AppState>, game: String, ending: Ending) -> Reply<DeckChange> {
    Ok(services::mezzo_deck_end_of(&mut *state.store()?, parse_id("game", &game)?, ending)?)
}

#[tauri::command(async)]
pub fn mezzo_refresh(
    state: State<'_, AppState>,
    game: String,
    player: String,
    card: String,
    draw: bool,
) -> Reply<DeckChange> {
    Ok(services::mezzo_refresh(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        parse_id("card", &card)?,
        draw,
        &mut rand::rng(),
    )?)
}

#[tauri::command(async)]
pub fn mezzo_draw_inspiration(state: State<'_, AppState>, game: String, by: String) -> Reply<DeckChange> {
    Ok(services::mezzo_draw_inspiration(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("by", &by)?,
        &mut rand::rng(),
    )?)
}

#[tauri::command(async)]
pub fn mezzo_settle_inspiration(state: State<'_, AppState>, game: String, played: bool) -> Reply<DeckChange> {
    Ok(services::mezzo_settle_inspiration(&mut *state.store()?, parse_id("game", &game)?, played)?)
}

#[tauri::command(async)]
pub fn mezzo_set_keyword_die(
    state: State<'_, AppState>,
    game: String,
    sides: u8,
    keywords: Vec<String>,
) -> Reply<DeckChange> {
    Ok(services::mezzo_set_keyword_die(&mut *state.store()?, parse_id("game", &game)?, sides, &keywords)?)
}

#[tauri::command(async)]
pub fn mezzo_roll_keyword(
    state: State<'_, AppState>,
    game: String,
    player: String,
    dice: DiceInput,
) -> Reply<KeywordOutcome> {
    Ok(services::mezzo_roll_keyword(
        &mut *state.store()?,
        parse_id("game", &game)?,
        parse_id("player", &player)?,
        &dice,
        &mut rand::rng(),
    )?)
}

#[tauri::command(async)]
pub fn mezzo_conflict_sources(state: State<'_, AppState>, game: String) -> Reply<ConflictSources> {
    Ok(services::mezzo_conflict_sources(&*state.store()?, parse_id("game", &game)?)?)
}

#[tauri::command(async)]
pub fn mezzo_put_law(
    state: State<'_, AppState>,
    game: String,
    id: Option<String>,
    name: String,
    effect: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_put_law(
        &mut *state.store()?,
        parse_id("game", &game)?,
        id.map(|id| parse_id("id", &id)).transpose()?,
        &name,
        &effect,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_remove_law(state: State<'_, AppState>, game: String, id: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_remove_law(&mut *state.store()?, parse_id("game", &game)?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn mezzo_put_fact(
    state: State<'_, AppState>,
    game: String,
    id: Option<String>,
    text: String,
) -> Reply<MezzoChange> {
    Ok(services::mezzo_put_fact(
        &mut *state.store()?,
        parse_id("game", &game)?,
        id.map(|id| parse_id("id", &id)).transpose()?,
        &text,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_remove_fact(state: State<'_, AppState>, game: String, id: String) -> Reply<MezzoChange> {
    Ok(services::mezzo_remove_fact(&mut *state.store()?, parse_id("game", &game)?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn mezzo_put_consequence(
    state: State<'_, AppState>,
    game: String,
    id: Option<String>,
    text: String,
    contagious: bool,
) -> Reply<PlotChange> {
    Ok(services::mezzo_put_consequence(
        &mut *state.store()?,
        parse_id("game", &game)?,
        id.map(|id| parse_id("id", &id)).transpose()?,
        &text,
        contagious,
    )?)
}

#[tauri::command(async)]
pub fn mezzo_remove_consequence(state: State<'_, AppState>, game: String, id: String) -> Reply<PlotChange> {
    Ok(services::mezzo_remove_consequence(&mut *state.store()?, parse_id("game", &game)?, parse_id("id", &id)?)?)
}

#[tauri::command(async)]
pub fn mezzo_conflict_d6_first(
    state: State<'_, AppState>,
    game: String,
    draft: ConflictDraft,
    dice: DiceInput,
) -> Reply<D6First> {
    Ok(services::mezzo_conflict_d6_first(&*state.store()?, parse_id("game", &game)?, &draft, &dice, &mut rand::rng())?)
}
