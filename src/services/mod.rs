//! One function per thing a person does. Each loads what it needs, applies the rules, and
//! saves the new state together with its event in one transaction, then returns a view.
//! The Tauri commands and the CLI call these and hold no logic of their own.

mod character_move;
mod characters;
mod check;
mod claims;
mod device;
mod dice;
mod dice_tray;
mod feed;
mod games;
mod gift;
mod journal;
mod link;
mod link_copy;
mod link_snapshot;
mod linked_change;
mod log;
mod lookup;
mod mezzo;
mod moves;
mod nsu;
mod penny_ante;
mod replica;
mod scattershot;
mod table_view;
mod transfer;
mod undo;
mod viewer;

use serde::Serialize;

use crate::model::{Character, DeviceRole, Game, System};

pub use character_move::move_character;
pub use characters::{copy_character, create_character, delete_character, rename_character};
pub use check::check;
pub use device::{
    character_cards, device_role, set_character_notes, set_device_role, set_device_setting, set_dice_by_hand,
    set_game_notes, set_mine, settings, CharacterCard, DeviceSettings, Stat,
};
pub use dice::DiceInput;
pub use dice_tray::{dice_tray_log, dice_tray_roll, tray_words, TrayEntry};
pub use feed::{feed_for, game_feed, FeedCard, FEED_MAX};
pub use games::{create_game, delete_game, list, rename_game};
pub use gift::{forget_gift, gift_file, keep_gift, receive_gift, save_gift, take_gift, Gift};
pub use journal::{
    journal, journal_edit, journal_end, journal_for, journal_start, JournalChange, JournalView, SessionView,
};
pub use link::{
    dice_tray_roll_here, host_apply_change, host_apply_edit, host_apply_move, host_claim, host_claim_check, host_feed,
    host_known_device, host_pair, host_removed_device, host_route_note, host_snapshot, joined_apply_snapshot,
    joined_hosts, joined_may_take, joined_pair, joined_pending, joined_refused, joining_identity, link_devices,
    link_dismiss_refused, link_identity, link_refused, link_unpair, Accepted, Agreed, ClaimCheck, GameMove, Note,
    Outcome, PairedDevice, Pending,
};
pub use link_copy::{
    host_copies, host_copy, joined_edit, joined_patch, Changed, Copy, CopyPatch, CopyUpdate, Due, SentCopy,
    MAX_PATCH_OPS,
};
pub use link_snapshot::Snapshot;
pub use log::TableChange;
pub use mezzo::attempt::mezzo_check_write_attempt;
pub use mezzo::cards::{mezzo_card_move, CardMove};
pub use mezzo::challenge::{
    mezzo_challenge, mezzo_challenge_from_check, mezzo_challenge_play, mezzo_challenge_resolve_majors,
    mezzo_challenge_roll_majors, mezzo_challenge_start, mezzo_escape_restraints, mezzo_take_breather,
    mezzo_tempting_target, mezzo_treat_wounds, ActionView, ChallengerView, DepartureView, GoalView,
    MezzoChallengeChange, MezzoChallengeDraft, MezzoChallengeView, SideView, TrumpDraw,
};
pub use mezzo::check::{
    mezzo_cast_check_ballot, mezzo_check_break_tie, mezzo_check_burst, mezzo_check_compromise, mezzo_check_pending,
    mezzo_check_preview, mezzo_check_resolve, mezzo_check_roll, mezzo_open_check, mezzo_open_check_for_votes,
    mezzo_roll_open_check, mezzo_withdraw_open_check, CheckBallotView, CheckDraft, CheckOdds, CheckOutcome,
    CheckPreview, CheckRequest, CheckResult, ElementOdds, OpenCheckView, PendingCheck, PerkPurchase,
};
pub use mezzo::conflict::{
    mezzo_break_tie, mezzo_cast_ballot, mezzo_compromise, mezzo_conflict_d6_first, mezzo_conflict_preview,
    mezzo_conflict_sources, mezzo_open_conflict, mezzo_open_conflict_draft, mezzo_open_conflict_for_votes,
    mezzo_resolve_conflict, mezzo_resolve_open_conflict, mezzo_withdraw_open_conflict, Approach, BallotView,
    ConflictOutcome, ConflictPreview, ConflictResult, ConflictSources, D6First, OpenConflictView, TieOutcome,
};
pub use mezzo::plot::{
    mezzo_add_cards, mezzo_build_deck, mezzo_buy_cards, mezzo_create_hook, mezzo_deck, mezzo_deplete_card,
    mezzo_draw_inspiration, mezzo_end_arc, mezzo_end_session, mezzo_even_share, mezzo_hand, mezzo_ignore_protection,
    mezzo_invest, mezzo_link_cards, mezzo_no_escape, mezzo_no_escape_lapses, mezzo_play_card, mezzo_plot,
    mezzo_raise_stakes, mezzo_refresh, mezzo_resolve_hook, mezzo_roll_keyword, mezzo_seats, mezzo_set_keyword_die,
    mezzo_set_theme, mezzo_settle_inspiration, mezzo_sit, mezzo_start_session, mezzo_tap, mezzo_turning_point,
    DeckChange, DeckView, HandView, HookDraft, HookView, KeywordOutcome, PlotChange, PlotView, Points, SeatView,
    SeatsView,
};
pub use mezzo::plot::{
    mezzo_put_consequence, mezzo_put_fact, mezzo_put_law, mezzo_remove_consequence, mezzo_remove_fact,
    mezzo_remove_law, mezzo_start_arc,
};
pub use mezzo::{
    mezzo_add_element, mezzo_add_player, mezzo_add_trait, mezzo_asset_access, mezzo_award_edge_slots,
    mezzo_award_memorable, mezzo_claim, mezzo_edit_trait, mezzo_end_scene, mezzo_favored_flaw_used,
    mezzo_gain_adversity, mezzo_gain_influence, mezzo_gain_momentum, mezzo_invest_asset, mezzo_leave_role,
    mezzo_lend_gift, mezzo_log, mezzo_plot_protection, mezzo_remove_element, mezzo_remove_player, mezzo_remove_trait,
    mezzo_rename_element, mezzo_rename_player, mezzo_set_active, mezzo_set_dice_variant, mezzo_spend_adversity,
    mezzo_spend_influence, mezzo_spend_momentum, mezzo_start_scene, mezzo_table, mezzo_take_role, mezzo_unclaim,
    LentGift, MezzoChange, MezzoElementView, MezzoPlayerView, MezzoView, TraitDraft,
};
pub use moves::MoveEntry;
pub use nsu::downtime::{
    nsu_complication_tables, nsu_downtime, nsu_downtime_add_collateral_die, nsu_downtime_address_collateral,
    nsu_downtime_complication, nsu_downtime_end, nsu_downtime_final_box, nsu_downtime_introspection_finish,
    nsu_downtime_introspection_roll, nsu_downtime_project, nsu_downtime_reconnect, nsu_downtime_recover_harm,
    nsu_downtime_seek_recovery, nsu_downtime_settle_collateral, nsu_downtime_start, nsu_downtime_train_mark,
    nsu_downtime_train_roll, nsu_downtime_upgrade_skills, DowntimeView, ProjectAction, ProjectChoice,
};
pub use nsu::quick::{nsu_quick_roll, nsu_roll_write_outcome, QuickRoll};
pub use nsu::roll::{
    nsu_helped_with, nsu_helped_with_needs, nsu_pending_roll, nsu_roll_dice, nsu_roll_help, nsu_roll_help_elsewhere,
    nsu_roll_log, nsu_roll_needs, nsu_roll_preview, nsu_roll_resolve, HelpedResult, OddsView, PendingRoll,
    RollLogEntry, RollPreview, RollRecord, RollResult,
};
pub use nsu::roll::{nsu_roll_approaches, ApproachView};
pub use nsu::world::{
    nsu_map, nsu_world, nsu_world_add_guiding_questions, nsu_world_add_npc, nsu_world_add_npc_detail,
    nsu_world_add_safety, nsu_world_add_scene_detail, nsu_world_add_scope_question, nsu_world_add_statement,
    nsu_world_answer_scope, nsu_world_author_location, nsu_world_ban, nsu_world_create_resources,
    nsu_world_guiding_missing, nsu_world_mark_project, nsu_world_place, nsu_world_record_scout,
    nsu_world_remove_npc_detail, nsu_world_remove_safety, nsu_world_reveal, nsu_world_roll_levels,
    nsu_world_set_resource, nsu_world_start_project, nsu_world_tick_collateral, LocationDraft, MapCard, WorldChange,
};
pub use nsu::world::{
    nsu_roll_write_detail, nsu_world_add_npc_harm, nsu_world_add_path, nsu_world_deal, nsu_world_link_author,
    nsu_world_remove_npc_harm, nsu_world_remove_path, nsu_world_set_npc_threshold, nsu_world_set_party_location,
    ClockTick, DetailTarget, RollDetailWritten, UndoScope,
};
pub use nsu::{nsu_sheet, save_nsu_sheet, NsuSheetView};
pub use penny_ante::{
    penny_add_antagonist, penny_buy_characteristic, penny_challenge_move, penny_create_character, penny_cup_choices,
    penny_edit_antagonist, penny_end_adventure, penny_fund_antagonist, penny_ledger, penny_log, penny_narrate,
    penny_private, penny_private_declaring, penny_recall_purse, penny_repay_debt, penny_repay_loan,
    penny_set_recurring, penny_start_adventure, penny_start_challenge, penny_starting_pennies, penny_table,
    penny_table_as_house, ChallengeDraft, ChallengeView, CupChoiceView, LedgerView, PennyChange, PennyLogEntry,
    PennyView, PrivateView,
};
pub use replica::game_document_for;
pub use scattershot::bidding::{scattershot_bidding, BidChance, BidChancesView, BidView, BiddingView};
pub use scattershot::play::{scattershot_play, scattershot_reward, PlayMove, RewardMove, SeatDraft};
pub use scattershot::roll::{
    scattershot_roll, scattershot_roll_preview, MibPreview, RollMove, RollRequest, RollState, RollView,
    ScattershotOdds, SideBreakdown, SideDraft, Target,
};
pub use scattershot::{
    scattershot_log, scattershot_sheet, scattershot_sheet_edit, scattershot_table, scattershot_table_edit,
    CombatantView, PendingResultView, PlayView, ResourceView, ScattershotChange, ScattershotCharacterView,
    ScattershotSheetChange, ScattershotSheetView, ScattershotView, SheetEdit, StatisticView, TableEdit,
};
pub use table_view::{game_view, game_view_as, game_view_on_device, SystemView, TableView};
pub use transfer::{export, import, import_preview, import_seen, ExportScope, ImportOptions, ImportReport};
pub use undo::{undo_character, undo_game};
pub use viewer::{device_viewer, Viewer};

/// A game as the UI and `sheetkeeper list` show it, with the part this device plays in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    #[serde(flatten)]
    pub game: Game,
    pub system_label: &'static str,
    pub role: DeviceRole,
    /// The people at this device roll real dice in this game and type them in: every roll
    /// screen opens on "typed in".
    pub dice_by_hand: bool,
    pub characters: Vec<CharacterEntry>,
}

/// A character in a game's list: whether it is this device owner's own (`mine`) or a copy
/// kept for someone else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CharacterEntry {
    #[serde(flatten)]
    pub character: Character,
    pub mine: bool,
}

impl std::ops::Deref for CharacterEntry {
    type Target = Character;
    fn deref(&self) -> &Character {
        &self.character
    }
}

impl GameView {
    fn new(game: Game, characters: Vec<Character>, device: (DeviceRole, bool), kept_for_others: &[uuid::Uuid]) -> Self {
        let characters = characters
            .into_iter()
            .map(|c| CharacterEntry { mine: !kept_for_others.contains(&c.id), character: c })
            .collect();
        let (role, dice_by_hand) = device;
        GameView { system_label: game.system.label(), role, dice_by_hand, game, characters }
    }
}

/// A system a new game can be played in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SystemInfo {
    pub id: &'static str,
    pub label: &'static str,
}

pub fn systems() -> Vec<SystemInfo> {
    System::ALL.iter().map(|s| SystemInfo { id: s.id(), label: s.label() }).collect()
}

/// The outcome of a change with nothing more to show than a sentence (e.g. for a toast).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Done {
    pub message: String,
}

impl Done {
    fn new(message: impl Into<String>) -> Self {
        Done { message: message.into() }
    }
}
