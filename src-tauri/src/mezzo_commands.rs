//! The Mezzo commands, one line each (`command.rs` writes the wrapper once): each converts
//! its arguments, calls one service, and maps the error. No rules and no SQL here. Ids arrive
//! as strings; `by` (the acting player) may be null.

use sheetkeeper::model::parse_id;
use sheetkeeper::rules::mezzo::action_check::{Cast, Surge};
use sheetkeeper::rules::mezzo::conflict::Variant;
use sheetkeeper::rules::mezzo::element::{
    AdversitySpend, ElementKind, MomentumSource, MomentumSpend, Properties, Role, Sacrifice, SlotAward,
};
use sheetkeeper::rules::mezzo::plot::{
    Award, BoostDraw, InChallenge, MemorableAward, Resource, Sacrifice as PlotSacrifice, Take, User,
};
use sheetkeeper::rules::mezzo::vote::{ConflictCast, ConflictDraft};
use sheetkeeper::services::{
    self, Approach, CardMove, CheckDraft, CheckOutcome, CheckPreview, CheckRequest, ConflictOutcome, ConflictPreview,
    ConflictSources, D6First, DeckChange, DeckView, DiceInput, Done, GameMove, HandView, HookDraft, KeywordOutcome,
    MezzoChange, MezzoView, MoveEntry, OpenCheckView, OpenConflictView, PendingCheck, PerkPurchase, PlotChange,
    PlotView, SeatsView, TieOutcome, TraitDraft,
};
use tauri::State;

use crate::command::commands;
use crate::error::AppError;
use crate::state::AppState;

commands! {
    read mezzo_table(id game) -> MezzoView;
    read mezzo_log(id game; 200) -> Vec<MoveEntry>;
    write mezzo_check_write_attempt(id game, val entry: i64, ref text: String) -> Done;
    write mezzo_add_player(id game, ref name: String) -> MezzoChange;
    write mezzo_rename_player(id game, id player, ref name: String) -> MezzoChange;
    write mezzo_remove_player(id game, id player) -> MezzoChange;
    write mezzo_take_role(id game, id player, val role: Role) -> MezzoChange;
    write mezzo_leave_role(id game, id player, val role: Role, ids_first active) -> MezzoChange;
    write mezzo_claim(id game, id player, id character) -> MezzoChange;
    write mezzo_unclaim(id game, id player, id character) -> MezzoChange;
    write mezzo_spend_influence(id game, id player, val points: i64) -> MezzoChange;
    write mezzo_gain_influence(id game, id player, val points: i64) -> MezzoChange;
    write mezzo_start_arc(id game) -> MezzoChange;
    write mezzo_add_element(id game, val kind: ElementKind, ref name: String) -> MezzoChange;
    write mezzo_rename_element(id game, id element, ref name: String) -> MezzoChange;
    write mezzo_remove_element(id game, id element) -> MezzoChange;
    write mezzo_add_trait(id game, id element, opt_id by, val draft: TraitDraft) -> MezzoChange;
    write mezzo_edit_trait(
        id game, id element, id trait_id as "traitId", opt_id by, ref name: String, ref properties: Properties
    ) -> MezzoChange;
    write mezzo_remove_trait(id game, id element, id trait_id as "traitId") -> MezzoChange;
    write mezzo_award_edge_slots(id game, id element, val award: SlotAward) -> MezzoChange;
    write mezzo_award_memorable(id game, id element, id player, val undisputable: bool) -> MezzoChange;
    write mezzo_gain_adversity(id game, id element, val points: i64) -> MezzoChange;
    write mezzo_spend_adversity(id game, id element, opt_id by, val spend: AdversitySpend, val allow_debt: bool)
        -> MezzoChange;
    write mezzo_gain_momentum(id game, id element, val points: i64, val source: MomentumSource) -> MezzoChange;
    write mezzo_spend_momentum(id game, id element, opt_id by, val spend: MomentumSpend) -> MezzoChange;
    write mezzo_plot_protection(id game, id element, val how: Sacrifice, opt_id receiver) -> MezzoChange;
    read mezzo_conflict_preview(id game, ref draft: ConflictDraft, ref_or_default selections: Vec<Vec<usize>>)
        -> ConflictPreview;
    write mezzo_resolve_conflict(
        id game, ref draft: ConflictDraft, ref approach: Approach, ref dice: DiceInput; &mut rand::rng()
    ) -> ConflictOutcome;
    write mezzo_break_tie(
        id game, ref draft: ConflictDraft, ref tied: Vec<usize>, val variant: Variant, ref dice: DiceInput;
        &mut rand::rng()
    ) -> TieOutcome;
    write mezzo_compromise(id game, ref question: String, ref compromise: String) -> MezzoChange;
    read mezzo_open_conflict(id game) -> Option<OpenConflictView>;
    write mezzo_open_conflict_for_votes(id game, ref draft: ConflictDraft) -> MezzoChange;
    write mezzo_withdraw_open_conflict(id game) -> MezzoChange;
    write mezzo_resolve_open_conflict(
        id game, ref casts: Vec<ConflictCast>, ref approach: Approach, ref dice: DiceInput; &mut rand::rng()
    ) -> ConflictOutcome;
}

/// A player's own ballot in the conflict the table opened for votes (DEV-1). Hand-written: on
/// a device joined to `game`'s table the ballot goes to the table's device, which takes it if
/// this device sits as that player, and the answer is the table as the replica shows it once
/// the host's next update is in; elsewhere (the table's device, a shared one) it is cast here.
#[tauri::command(async)]
pub fn mezzo_cast_ballot(
    state: State<'_, AppState>,
    game: String,
    player: String,
    casts: Vec<ConflictCast>,
) -> Result<MezzoChange, AppError> {
    let (game, player) = (parse_id("game", &game)?, parse_id("player", &player)?);
    let Some(join) = state.joined().filter(|j| j.handle().status().game == Some(game)) else {
        return Ok(services::mezzo_cast_ballot(&mut *state.store()?, game, player, &casts)?);
    };
    let before = join.handle().feed(0).last().map_or(0, |c| c.seq);
    // The store is not locked while the host answers: the link writes the update itself.
    join.handle().submit_move(GameMove::MezzoBallot { player, casts })?;
    let store = state.store()?;
    let said = join.handle().feed(before).into_iter().rev().find(|c| c.who.is_none() && !c.undone);
    let message = said.map_or_else(|| "The table took your votes.".into(), |c| c.outcome);
    Ok(MezzoChange { view: services::mezzo_table(&store, game)?, message })
}

/// A player's own ballot in the action check the table opened for votes, sent to the table's
/// device from a joined one as [`mezzo_cast_ballot`] sends a conflict's.
#[tauri::command(async)]
pub fn mezzo_cast_check_ballot(
    state: State<'_, AppState>,
    game: String,
    player: String,
    casts: Vec<Cast>,
) -> Result<MezzoChange, AppError> {
    let (game, player) = (parse_id("game", &game)?, parse_id("player", &player)?);
    let Some(join) = state.joined().filter(|j| j.handle().status().game == Some(game)) else {
        return Ok(services::mezzo_cast_check_ballot(&mut *state.store()?, game, player, &casts)?);
    };
    let before = join.handle().feed(0).last().map_or(0, |c| c.seq);
    join.handle().submit_move(GameMove::MezzoCheckBallot { player, casts })?;
    let store = state.store()?;
    let said = join.handle().feed(before).into_iter().rev().find(|c| c.who.is_none() && !c.undone);
    let message = said.map_or_else(|| "The table took your votes.".into(), |c| c.outcome);
    Ok(MezzoChange { view: services::mezzo_table(&store, game)?, message })
}

// ---------------------------------------------------------------------------------------
// Action checks: preview (live), roll, the check on the table, resolve, tie.

commands! {
    read mezzo_check_preview(id game, ref request: CheckRequest) -> CheckPreview;
    write mezzo_check_roll(id game, ref request: CheckRequest, ref dice: DiceInput; &mut rand::rng()) -> PendingCheck;
    read mezzo_check_pending(id game) -> Option<PendingCheck>;
    write mezzo_check_resolve(id game, ref surges: Vec<Surge>) -> CheckOutcome;
    write mezzo_check_break_tie(id game, ref dice: DiceInput; &mut rand::rng()) -> CheckOutcome;
    write mezzo_check_burst(id game, ref bursts: Vec<usize>, ref dice: DiceInput; &mut rand::rng()) -> PendingCheck;
    read mezzo_open_check(id game) -> Option<OpenCheckView>;
    write mezzo_open_check_for_votes(id game, ref draft: CheckDraft) -> MezzoChange;
    write mezzo_withdraw_open_check(id game) -> MezzoChange;
    write mezzo_roll_open_check(
        id game, ref casts: Vec<Cast>, ref perks: Vec<PerkPurchase>, ref dice: DiceInput; &mut rand::rng()
    ) -> PendingCheck;
    write mezzo_set_dice_variant(id game, val variant: Variant) -> MezzoChange;
    write mezzo_start_scene(id game) -> MezzoChange;
    write mezzo_end_scene(id game) -> MezzoChange;
    write mezzo_favored_flaw_used(id game, id element, id trait_id) -> MezzoChange;
    write mezzo_asset_access(id game, id element, id trait_id, val lost: bool) -> MezzoChange;
    write mezzo_lend_gift(id game, id owner, id gift, id target, val lend: bool) -> MezzoChange;
    write mezzo_invest_asset(id game, id owner, id investment, id target, val invest: bool) -> MezzoChange;
    write mezzo_check_compromise(id game, ref text: String) -> CheckOutcome;
}

/// Hand-written: each active id is named by its place in the list (`active[2]`).
#[tauri::command(async)]
pub fn mezzo_set_active(
    state: State<'_, AppState>,
    game: String,
    active: Vec<String>,
) -> Result<MezzoChange, AppError> {
    let active = active
        .iter()
        .enumerate()
        .map(|(i, id)| parse_id(&format!("active[{i}]"), id))
        .collect::<sheetkeeper::Result<Vec<_>>>()?;
    Ok(services::mezzo_set_active(&mut *state.store()?, parse_id("game", &game)?, &active)?)
}

// ---------------------------------------------------------------------------------------
// Plot hooks and arcs, the seed deck and the keyword die

/// A player's own seed-deck move (buy, play, deplete, link, refresh, draw inspiration).
/// Hand-written: on a device joined to `game`'s table the move goes to the table's device,
/// which makes it if this device sits as that player (DEV-1), and the answer is the deck as
/// the replica shows it once the host's next update is in, with the move in the table's words
/// (its feed card, sent before the answer); elsewhere the move is made here.
#[tauri::command(async)]
pub fn mezzo_card_move(state: State<'_, AppState>, game: String, mv: CardMove) -> Result<DeckChange, AppError> {
    let game = parse_id("game", &game)?;
    let Some(join) = state.joined().filter(|j| j.handle().status().game == Some(game)) else {
        return Ok(services::mezzo_card_move(&mut *state.store()?, game, &mv, &mut rand::rng())?);
    };
    let before = join.handle().feed(0).last().map_or(0, |c| c.seq);
    // The store is not locked while the host answers: the link writes the update itself.
    join.handle().submit_move(GameMove::MezzoCard { mv })?;
    let store = state.store()?;
    let said = join.handle().feed(before).into_iter().rev().find(|c| c.who.is_none() && !c.undone);
    let message = said.map_or_else(|| "The table took the move.".into(), |c| c.outcome);
    let view = services::mezzo_table(&store, game)?;
    Ok(DeckChange { change: MezzoChange { view, message }, deck: services::mezzo_deck(&store, game)? })
}

commands! {
    read mezzo_plot(id game) -> PlotView;
    read mezzo_even_share(id game, id hook, ref user: User) -> Vec<Award>;
    write mezzo_create_hook(id game, ref user: User, ref draft: HookDraft) -> PlotChange;
    write mezzo_invest(id game, id hook, ref user: User, val resource: Resource, val points: u32) -> PlotChange;
    write mezzo_tap(id game, id hook, ref user: User, val resource: Resource) -> PlotChange;
    write mezzo_resolve_hook(
        id game, id hook, ref user: User, val reward: Resource, deref share: Option<Vec<Award>>
    ) -> PlotChange;
    write mezzo_raise_stakes(
        id game, ids hooks, ref challenge: InChallenge, id challenger, ref take: Vec<Take>
    ) -> PlotChange;
    write mezzo_no_escape(id game, ids hooks, ref challenge: InChallenge, ref user: User, id target) -> PlotChange;
    write mezzo_ignore_protection(id game, id challenge, ref user: User, id target) -> PlotChange;
    write mezzo_no_escape_lapses(id game, id challenge) -> PlotChange;
    write mezzo_turning_point(
        id game, ids hooks, ref challenge: InChallenge, ref sacrifices: Vec<PlotSacrifice>, ref draws: Vec<BoostDraw>
    ) -> PlotChange;
    write mezzo_set_theme(id game, id by, ref text: String) -> PlotChange;
    write mezzo_end_arc(id game, ref memorable: Vec<MemorableAward>) -> PlotChange;
    read mezzo_deck(id game) -> DeckView;
    read mezzo_hand(id game, id player) -> HandView;
    read mezzo_seats(id game) -> SeatsView;
    write mezzo_sit(id game, id player, val mine: bool) -> SeatsView;
    write mezzo_build_deck(id game, ref cards: Vec<String>; &mut rand::rng()) -> DeckChange;
    write mezzo_add_cards(id game, ref cards: Vec<String>; &mut rand::rng()) -> DeckChange;
    write mezzo_start_session(id game, ref date: String; None) -> DeckChange;
    write mezzo_end_session(id game) -> DeckChange;
    write mezzo_settle_inspiration(id game, val played: bool) -> DeckChange;
    write mezzo_set_keyword_die(id game, val sides: u8, ref keywords: Vec<String>) -> DeckChange;
    write mezzo_roll_keyword(id game, id player, ref dice: DiceInput; &mut rand::rng()) -> KeywordOutcome;
    read mezzo_conflict_sources(id game) -> ConflictSources;
    write mezzo_put_law(id game, opt_id id, ref name: String, ref effect: String) -> MezzoChange;
    write mezzo_remove_law(id game, id id) -> MezzoChange;
    write mezzo_put_fact(id game, opt_id id, ref text: String) -> MezzoChange;
    write mezzo_remove_fact(id game, id id) -> MezzoChange;
    write mezzo_put_consequence(id game, opt_id id, ref text: String, val contagious: bool) -> PlotChange;
    write mezzo_remove_consequence(id game, id id) -> PlotChange;
    read mezzo_conflict_d6_first(id game, ref draft: ConflictDraft, ref dice: DiceInput; &mut rand::rng()) -> D6First;
}
