//! Scattershot's Mechanix (RULES.md §4): the character sheet and its edits, and the
//! machinery every game-level move shares (the table, the roll on the table, the sheets a
//! move changed, one logged event, undo).
//!
//! - A sheet edit (buying or taking back development points, free skills, skills, special
//!   abilities, advantages and disadvantages, the creation limit and stage, a resource, the
//!   experience dice) is a character-level change: one `sheet_edited` event with the record
//!   before and after; `undo_character` takes it back.
//! - A game-level move (a Made-It-By roll's step in `scattershot_roll`, mechanical play and
//!   rewards in `scattershot_play`, the Gamemaster's stock and the table settings here) logs
//!   one `scattershot_changed` event holding the table, the roll on the table, the game's
//!   settings and the sheets the move changed, before and after; `undo_game` takes back the
//!   last.
//! - **The roll on the table lives in the event log**: it is the `after.roll` of the game's
//!   latest live `scattershot_changed` event (a roll's steps are such events, and every other
//!   Scattershot move carries the roll forward unchanged). So undoing a step puts the roll
//!   back as it was before it, and a roll needs no rows of its own. A game-level change of
//!   another kind (a rename, an import of the game) takes the roll off the table until it is
//!   undone.

pub(super) mod bidding;
pub(super) mod play;
pub(super) mod roll;
mod roll_state;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use self::roll_state::{lasts_words, roll_view, RollState, RollView};
use super::characters::{load, records, revise_changed, save, unchanged_since, update};
use super::log::{payload_of, restore_sessions, save_sessions, table_event, Change, TableChange};
use super::lookup::{existing_game, game_playing};
use super::moves::{moves, MoveEntry};
use crate::error::{Error, Result};
use crate::model::{now, Character, Game, System, TableSettings};
use crate::rules::journal::{self, Journal};
use crate::rules::record::CharacterRecord;
use crate::rules::scattershot::free_skills::{self, ListedFreeSkill};
use crate::rules::scattershot::made_it_by::Facets;
use crate::rules::scattershot::mechanical_play::{Combatant, MechanicalPlay};
use crate::rules::scattershot::sheet::{
    Lasts, Purchase, QualityKind, Rating, Resource, Sheet, SheetEvent, Stage, Statistic, FREE_SKILLS_PER_POINT,
};
use crate::rules::scattershot::skill_listings::{self, SkillListing};
use crate::rules::scattershot::table::{self as sc_table, Player, ScattershotTable};
use crate::rules::scattershot::ue_chart::{self, UeRow};
use crate::rules::scattershot::{stock_of, Pools, Settings, Stocks};
use crate::rules::table_settings;
use crate::store::{Event, EventKind, Reader, Store, Tx};

// ---------------------------------------------------------------------------------------
// Views

/// A statistic with its points and rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatisticView {
    pub statistic: Statistic,
    pub name: &'static str,
    pub points: u32,
    pub rating: i32,
}

/// A resource's current value below its maximum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceView {
    pub resource: Resource,
    pub current: i32,
    pub maximum: i32,
}

/// What the sheet screen shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScattershotSheetView {
    pub character: Character,
    pub sheet: Sheet,
    pub statistics: Vec<StatisticView>,
    /// The ratings of the free skills, skills and special abilities, in the sheet's order.
    pub free_skill_ratings: Vec<i32>,
    pub skill_ratings: Vec<i32>,
    pub ability_ratings: Vec<i32>,
    /// Development points spent beyond the statistics' base.
    pub points_spent: u32,
    pub resources: Vec<ResourceView>,
    /// What a development point costs in experience dice now (0 during creation).
    pub dice_per_point: u32,
    /// The points the next new free skill costs (0 while a started group of five has room).
    pub next_free_skill_points: u32,
    /// −1 for each combat advantage held against the character in mechanical play.
    pub penalty: i32,
    /// The table's penalty for its reduced resources (0: none), added to each of its rolls.
    pub reduced_penalty: i32,
    /// The residual modifiers on the sheet, added up (added to each of its rolls).
    pub temporary_modifier: i32,
    /// The player who plays it, with their stock of experience dice (None: it stands as its
    /// own player, its dice on its sheet).
    pub player: Option<Player>,
    /// The listed skills the character has not bought but may roll by default (audit D-SC5).
    pub defaults: Vec<DefaultView>,
}

/// A listed skill a character may roll at its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DefaultView {
    /// Its place in the game's listings (`Rating::Default { listing }`).
    pub listing: usize,
    pub name: String,
    pub rating: i32,
    /// How the rating is made ("Agility −3").
    pub from: String,
    pub restriction: String,
}

/// Every listed skill `sheet` may roll by default.
fn defaults_of(listings: &[SkillListing], sheet: &Sheet) -> Vec<DefaultView> {
    listings
        .iter()
        .enumerate()
        .filter(|(_, l)| !skill_listings::bought(sheet, &l.name))
        .filter_map(|(listing, l)| {
            l.default.as_ref().map(|d| DefaultView {
                listing,
                name: l.name.clone(),
                rating: d.rating(sheet),
                from: d.words(),
                restriction: d.restriction.clone(),
            })
        })
        .collect()
}

/// A sheet after an edit, with what happened in words and the rules' events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScattershotSheetChange {
    pub view: ScattershotSheetView,
    pub message: String,
    pub events: Vec<SheetEvent>,
}

/// A character as the table sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScattershotCharacterView {
    pub id: Uuid,
    pub name: String,
    pub stage: Stage,
    pub points_spent: u32,
    /// The experience dice of its stock: its player's (shared with the player's other
    /// characters), or its own when it has no player.
    pub experience_dice: u32,
    /// The player who plays it (None: it stands as its own player).
    pub player: Option<Uuid>,
    pub resources: Vec<ResourceView>,
    /// −1 for each combat advantage held against it.
    pub penalty: i32,
    /// The table's penalty for its reduced resources (0: none).
    pub reduced_penalty: i32,
    /// A non-player character (the Gamemaster's).
    pub npc: bool,
    /// Who the character is (the "contract" rewards are judged by).
    pub description: String,
    /// Its residual modifiers, added up.
    pub temporary_modifier: i32,
}

/// A player at the table with their stock and the characters they play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub id: Uuid,
    pub name: String,
    pub dice: u32,
    pub characters: Vec<Uuid>,
}

/// A character in mechanical play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CombatantView {
    #[serde(flatten)]
    pub combatant: Combatant,
    pub name: String,
    /// −1 for each combat advantage held against it.
    pub penalty: i32,
    /// Free actions left in its current cycle.
    pub free_actions_left: u32,
    /// The penalty for reduced resources it takes at the lull, from what it holds now (its
    /// `reduced_penalty` is the one it began with and plays with until then).
    pub lull_penalty: i32,
}

/// Mechanical play in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayView {
    pub round: u32,
    pub turn: usize,
    /// Whose turn it is.
    pub current: Uuid,
    pub actions_left: u32,
    pub cinematic: bool,
    pub combatants: Vec<CombatantView>,
    /// Results an older version left waiting for the lull, each with its target's name.
    pub pending: Vec<PendingResultView>,
    /// Non-player characters among the combatants, and the players of the others (a player
    /// with two characters counts once).
    pub npcs: usize,
    pub players: usize,
    /// The seed's reminder: shift the Scope up at least one level when the non-player
    /// characters are as many as the players or more.
    pub scope_shift: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingResultView {
    pub target: Uuid,
    pub name: String,
    pub resource: Resource,
    pub amount: u32,
}

/// The whole Scattershot table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScattershotView {
    pub game: Game,
    pub settings: Settings,
    /// Every table setting the game keeps, with its label and range (the values are in
    /// `game.table_settings`), for the settings form.
    pub setting_specs: &'static [table_settings::SettingSpec],
    /// The facets a new roll starts with.
    pub facets: Facets,
    pub creation_limit: Option<u32>,
    /// The Gamemaster's stock of experience dice (its pool id is the game's id).
    pub gm_dice: u32,
    /// The players and their stocks (a pool id is the player's id).
    pub players: Vec<PlayerView>,
    pub characters: Vec<ScattershotCharacterView>,
    pub play: Option<PlayView>,
    /// The roll on the table (in progress, or the last one concluded).
    pub roll: Option<RollView>,
    /// The UE chart the group filled in (empty: every number reads the defaults in `facets`).
    pub ue_chart: Vec<UeRow>,
    /// The game's list of free skills (empty: none written down, any may be named).
    pub free_skill_list: Vec<ListedFreeSkill>,
    /// The game's skill listings (audit D-SC5).
    pub skill_listings: Vec<SkillListing>,
    /// Sessions started so far, and whether the latest is being played: the campaign
    /// journal's.
    pub sessions: u32,
    pub in_session: bool,
}

/// The table after a move, with what happened in words.
pub type ScattershotChange = TableChange<ScattershotView>;

// ---------------------------------------------------------------------------------------
// Reading

/// The game, which must exist and play Scattershot's Mechanix.
pub(super) fn scattershot_game(read: Reader<'_>, game: Uuid) -> Result<Game> {
    game_playing(read, game, System::Scattershot)
}

/// A Scattershot character's sheet; any other system's character is refused by name.
fn sheet_of(record: &CharacterRecord) -> Result<Sheet> {
    match (&record.scattershot, record.character.system) {
        (Some(sheet), _) => Ok(sheet.clone()),
        (None, System::Scattershot) => Ok(Sheet::new(None)),
        (None, other) => Err(Error::invalid(
            "character",
            format!("“{}” is a {} character, not a Scattershot one", record.character.name, other.label()),
        )),
    }
}

fn resources(sheet: &Sheet) -> Vec<ResourceView> {
    Resource::ALL
        .iter()
        .map(|&resource| ResourceView { resource, current: sheet.current(resource), maximum: sheet.maximum(resource) })
        .collect()
}

fn penalty(table: &ScattershotTable, character: Uuid) -> i32 {
    table.play.as_ref().map_or(0, |p| p.penalty(character))
}

/// The penalty `character`'s reduced resources give its rolls now: in mechanical play the
/// one held since it began (until the lull), else what its resources give at once.
pub(super) fn reduced_penalty(
    play: Option<&MechanicalPlay>,
    settings: &TableSettings,
    character: Uuid,
    sheet: &Sheet,
) -> i32 {
    play.and_then(|p| p.held_penalty(character)).unwrap_or_else(|| sc_table::reduced_resource_penalty(settings, sheet))
}

pub(super) fn sheet_view(read: Reader<'_>, id: Uuid) -> Result<ScattershotSheetView> {
    let record = load(read, id)?;
    let sheet = sheet_of(&record)?;
    let game = existing_game(read, record.character.game_id)?;
    let settings = Settings::from_table(&game.table_settings)?;
    let table = read.scattershot_table(game.id)?;
    let player = sheet.player.and_then(|p| table.player(p)).cloned();
    Ok(ScattershotSheetView {
        player,
        statistics: Statistic::ALL
            .iter()
            .map(|&s| StatisticView {
                statistic: s,
                name: s.word(),
                points: sheet.statistics.get(s),
                rating: sheet.statistic(s),
            })
            .collect(),
        free_skill_ratings: sheet.free_skills.iter().map(|f| f.rating()).collect(),
        skill_ratings: sheet.skills.iter().map(|s| s.rating()).collect(),
        ability_ratings: sheet.special_abilities.iter().map(|a| a.rating()).collect(),
        points_spent: sheet.points_spent(),
        resources: resources(&sheet),
        dice_per_point: if sheet.stage == Stage::Play { settings.experience_dice_per_point } else { 0 },
        next_free_skill_points: u32::from(sheet.free_skills.len().is_multiple_of(FREE_SKILLS_PER_POINT)),
        penalty: penalty(&table, id),
        reduced_penalty: reduced_penalty(table.play.as_ref(), &game.table_settings, id, &sheet),
        temporary_modifier: sheet.temporary_modifier(),
        defaults: defaults_of(&table.skill_listings, &sheet),
        sheet,
        character: record.character,
    })
}

/// A Scattershot character's sheet with what the rules derive from it.
pub fn scattershot_sheet(store: &Store, character: Uuid) -> Result<ScattershotSheetView> {
    sheet_view(store.read(), character)
}

/// The roll on the table: the `after.roll` of the game's latest live move, when that is a
/// Scattershot move.
pub(super) fn pending_roll(read: Reader<'_>, game: Uuid) -> Result<Option<RollState>> {
    let Some(event) = read.last_undoable_of_game(game)?.filter(|e| e.kind == EventKind::ScattershotChanged) else {
        return Ok(None);
    };
    serde_json::from_value(event.payload["after"]["roll"].clone())
        .map_err(|e| Error::invalid("event log", format!("event {} cannot be read: {e}", event.seq)))
}

fn name_in(characters: &[CharacterRecord], game: &Game, table: &ScattershotTable, id: Uuid) -> String {
    if id == game.id {
        return "the Gamemaster".into();
    }
    if let Some(p) = table.player(id) {
        return p.name.clone();
    }
    characters.iter().find(|r| r.character.id == id).map_or_else(|| id.to_string(), |r| r.character.name.clone())
}

fn view(
    game: &Game,
    table: &ScattershotTable,
    journal: &Journal,
    roll: Option<&RollState>,
    characters: &[CharacterRecord],
) -> Result<ScattershotView> {
    let name = |id: Uuid| name_in(characters, game, table, id);
    let sheets: Vec<(Uuid, Sheet)> =
        characters.iter().map(|r| (r.character.id, sheet_of(r).unwrap_or_default())).collect();
    let stocks = table.stocks(sheets.iter().map(|(id, s)| (*id, s)));
    let pools = table.pools(game.id, sheets.iter().map(|(id, s)| (*id, s)));
    let is_npc = |id: Uuid| {
        characters.iter().find(|r| r.character.id == id).and_then(|r| r.scattershot.as_ref()).is_some_and(|s| s.npc)
    };
    let count = |p: &MechanicalPlay| {
        let npcs = p.combatants.iter().filter(|c| is_npc(c.character)).count();
        let players: std::collections::BTreeSet<Uuid> =
            p.combatants.iter().filter(|c| !is_npc(c.character)).map(|c| c.player).collect();
        (npcs, players.len())
    };
    let play = table.play.as_ref().map(|p| PlayView {
        npcs: count(p).0,
        players: count(p).1,
        scope_shift: count(p).0 > 0 && count(p).0 >= count(p).1,
        round: p.round,
        turn: p.turn,
        current: p.current(),
        actions_left: p.actions_left(),
        cinematic: p.cinematic,
        combatants: p
            .combatants
            .iter()
            .map(|c| CombatantView {
                name: name(c.character),
                penalty: p.penalty(c.character),
                free_actions_left: p.settings.epic_index.saturating_sub(c.free_actions),
                lull_penalty: sheets
                    .iter()
                    .find(|(id, _)| *id == c.character)
                    .map_or(0, |(_, sheet)| sc_table::reduced_resource_penalty(&game.table_settings, sheet)),
                combatant: c.clone(),
            })
            .collect(),
        pending: p
            .pending
            .iter()
            .map(|r| PendingResultView {
                target: r.target,
                name: name(r.target),
                resource: r.resource,
                amount: r.amount,
            })
            .collect(),
    });
    Ok(ScattershotView {
        settings: Settings::from_table(&game.table_settings)?,
        setting_specs: table_settings::specs(System::Scattershot),
        facets: sc_table::default_facets(&game.table_settings),
        creation_limit: sc_table::creation_limit(&game.table_settings),
        gm_dice: table.gm_dice,
        players: table
            .players
            .iter()
            .map(|p| PlayerView {
                id: p.id,
                name: p.name.clone(),
                dice: p.dice,
                // In the table's order of characters.
                characters: sheets.iter().map(|(c, _)| *c).filter(|c| stocks.get(c) == Some(&p.id)).collect(),
            })
            .collect(),
        characters: characters
            .iter()
            .map(|r| {
                let sheet = sheet_of(r).unwrap_or_default();
                ScattershotCharacterView {
                    id: r.character.id,
                    name: r.character.name.clone(),
                    stage: sheet.stage,
                    points_spent: sheet.points_spent(),
                    experience_dice: pools.get(&stock_of(&stocks, r.character.id)).copied().unwrap_or(0),
                    player: stocks.get(&r.character.id).copied(),
                    resources: resources(&sheet),
                    penalty: penalty(table, r.character.id),
                    reduced_penalty: reduced_penalty(table.play.as_ref(), &game.table_settings, r.character.id, &sheet),
                    npc: sheet.npc,
                    description: sheet.description.clone(),
                    temporary_modifier: sheet.temporary_modifier(),
                }
            })
            .collect(),
        play,
        roll: roll.map(|r| roll_view(r, &name)),
        ue_chart: table.ue_chart.clone(),
        free_skill_list: table.free_skill_list.clone(),
        skill_listings: table.skill_listings.clone(),
        sessions: journal.latest_number(),
        in_session: journal.open_session().is_some(),
        game: game.clone(),
    })
}

pub(super) fn view_in(read: Reader<'_>, game: Uuid) -> Result<ScattershotView> {
    let g = scattershot_game(read, game)?;
    let table = read.scattershot_table(game)?;
    let roll = pending_roll(read, game)?;
    view(&g, &table, &read.journal(game)?, roll.as_ref(), &records(read, game)?)
}

/// The Scattershot table of a game: characters, the Gamemaster's stock, mechanical play and
/// the roll on the table.
pub fn scattershot_table(store: &Store, game: Uuid) -> Result<ScattershotView> {
    view_in(store.read(), game)
}

/// The game's Scattershot moves, newest first.
pub fn scattershot_log(store: &Store, game: Uuid, limit: u32) -> Result<Vec<MoveEntry>> {
    let read = store.read();
    scattershot_game(read, game)?;
    moves(read, game, EventKind::ScattershotChanged, limit)
}

// ---------------------------------------------------------------------------------------
// Sheet edits

/// An edit of a sheet, as the UI sends it (`{"edit": "buy", "purchase": {…}}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case", deny_unknown_fields)]
pub enum SheetEdit {
    /// Spends development points (free in creation, experience dice after).
    Buy {
        purchase: Purchase,
    },
    /// Takes back the last point of a rating, during creation.
    TakeBack {
        rating: Rating,
    },
    /// Sets or lifts (null) the creation limit, during creation.
    SetCreationLimit {
        #[serde(default)]
        limit: Option<u32>,
    },
    /// Ends creation: points cost experience dice from now on.
    FinishCreation,
    AddDisadvantage {
        name: String,
        #[serde(default)]
        situation: String,
        modifier: i32,
    },
    /// Removes an advantage (during creation) or a disadvantage.
    RemoveQuality {
        index: usize,
    },
    /// An explicit edit of a resource's current value.
    SetResource {
        resource: Resource,
        current: i32,
    },
    /// Power expended on a special ability.
    ExpendPower {
        ability: usize,
        amount: u32,
    },
    /// An explicit edit of the experience dice pool.
    SetExperienceDice {
        dice: u32,
    },
    /// The character's description (the "contract" rewards are judged by).
    SetDescription {
        description: String,
    },
    /// A non-player character (the Gamemaster's) or a player's.
    SetNpc {
        npc: bool,
    },
    /// A temporary residual modifier, added to the character's rolls while it lasts.
    AddModifier {
        text: String,
        value: i32,
        #[serde(default)]
        lasts: Lasts,
    },
    RemoveModifier {
        index: usize,
    },
}

/// "Ada buys +1 Strength (1 point(s) for 1 experience dice; 13 spent).": a purchase in the
/// sheet's words, said when it is made and read again in the journal.
fn bought_sentence(name: &str, what: &str, points: u32, experience_dice: u32, points_spent: u32) -> String {
    let cost = if experience_dice > 0 { format!(" for {experience_dice} experience dice") } else { String::new() };
    format!("{name} buys {what} ({points} point(s){cost}; {points_spent} spent).")
}

/// The development points Scattershot's characters bought after event `within.0` and up to
/// event `within.1` (sheet edits, here or from a linked device), taken-back ones left out,
/// each in words as the sheet's edit says it. A Scattershot sheet is read by everyone at the
/// table, so every viewer reads them.
pub(crate) fn purchases_within(read: Reader<'_>, game: Uuid, within: (i64, i64)) -> Result<Vec<(i64, String)>> {
    let mut out = Vec::new();
    for kind in [EventKind::SheetEdited, EventKind::LinkedChange] {
        for (event, undone) in read.events_of_kind_within(game, None, kind, within, u32::MAX)? {
            if undone {
                continue;
            }
            let change: Change<CharacterRecord> = payload_of(&event)?;
            let (Some(before), Some(after)) = (change.before, change.after) else { continue };
            if let (Some(was), Some(now)) = (&before.scattershot, &after.scattershot) {
                if let Some(words) = bought_words(&after.character.name, was, now) {
                    out.push((event.seq, words));
                }
            }
        }
    }
    out.sort_by_key(|(seq, _)| *seq);
    Ok(out)
}

/// What `now` bought over `was` with development points, in the sheet's words ("Ada buys
/// +1 Strength (1 point(s); 13 spent)."); None when nothing was bought (a point taken back,
/// a resource spent, a disadvantage taken).
fn bought_words(name: &str, was: &Sheet, now: &Sheet) -> Option<String> {
    let mut what: Vec<String> = Vec::new();
    let mut raised = |by: u32, rating: &str| {
        if by > 0 {
            what.push(format!("+{by} {rating}"));
        }
    };
    for s in Statistic::ALL {
        raised(now.statistics.get(s).saturating_sub(was.statistics.get(s)), s.word());
    }
    let mut new = Vec::new();
    for f in &now.free_skills {
        match was.free_skills.iter().find(|o| o.name == f.name) {
            Some(o) => raised(f.raised.saturating_sub(o.raised), &f.name),
            None => new.push(format!("the free skill {}", f.name)),
        }
    }
    for k in &now.skills {
        match was.skills.iter().find(|o| o.name == k.name) {
            Some(o) => raised(k.points.saturating_sub(o.points), &k.name),
            None => new.push(format!("the {} skill {}", k.difficulty.word(), k.name)),
        }
    }
    for a in &now.special_abilities {
        match was.special_abilities.iter().find(|o| o.name == a.name) {
            Some(o) => raised(a.points.saturating_sub(o.points), &a.name),
            None => new.push(format!("the special ability {}", a.name)),
        }
    }
    for q in now.qualities.iter().filter(|q| q.kind == QualityKind::Advantage) {
        if !was.qualities.iter().any(|o| o.kind == q.kind && o.name == q.name) {
            new.push(format!("the advantage {}", q.name));
        }
    }
    what.extend(new);
    if what.is_empty() {
        return None;
    }
    let points = now.points_spent().saturating_sub(was.points_spent());
    let dice = was.experience_dice.saturating_sub(now.experience_dice);
    Some(bought_sentence(name, &what.join(", "), points, dice, now.points_spent()))
}

fn describe_sheet(name: &str, sheet: &Sheet, event: &SheetEvent) -> String {
    let rating_name = |r: &Rating| match *r {
        Rating::Statistic { statistic } => statistic.word().to_owned(),
        Rating::FreeSkill { index } => sheet.free_skills.get(index).map_or("a free skill".into(), |f| f.name.clone()),
        Rating::Skill { index } => sheet.skills.get(index).map_or("a skill".into(), |s| s.name.clone()),
        Rating::SpecialAbility { index } => {
            sheet.special_abilities.get(index).map_or("a special ability".into(), |a| a.name.clone())
        }
        Rating::Default { .. } => "a skill by default".into(),
    };
    match event {
        SheetEvent::Bought { purchase, points, experience_dice, points_spent } => {
            let what = match purchase {
                Purchase::Statistic { statistic } => format!("+1 {}", statistic.word()),
                Purchase::NewFreeSkill { name, .. } => format!("the free skill {name}"),
                Purchase::FreeSkill { index } => format!("+1 {}", rating_name(&Rating::FreeSkill { index: *index })),
                Purchase::NewSkill { name, difficulty } => format!("the {} skill {name}", difficulty.word()),
                Purchase::Skill { index } => format!("+1 {}", rating_name(&Rating::Skill { index: *index })),
                Purchase::NewSpecialAbility { name, .. } => format!("the special ability {name}"),
                Purchase::SpecialAbility { index } => {
                    format!("+1 {}", rating_name(&Rating::SpecialAbility { index: *index }))
                }
                Purchase::NewAdvantage { name, .. } => format!("the advantage {name}"),
            };
            bought_sentence(name, &what, *points, *experience_dice, *points_spent)
        }
        SheetEvent::TakenBack { points, points_spent, removed, .. } => {
            let gone = if *removed { ", removing it" } else { "" };
            format!("{name} takes back {points} point(s){gone} ({points_spent} spent).")
        }
        SheetEvent::CreationLimitSet { after, .. } => match after {
            Some(limit) => format!("{name}'s creation is limited to {limit} development points."),
            None => format!("{name}'s creation has no limit."),
        },
        SheetEvent::CreationFinished { points_spent } => {
            format!("{name} finishes creation with {points_spent} development points spent.")
        }
        SheetEvent::DisadvantageAdded { name: what, modifier } => {
            format!("{name} takes the disadvantage {what} ({modifier}).")
        }
        SheetEvent::QualityRemoved { name: what, points_refunded, .. } => {
            format!("{name} drops {what} ({points_refunded} point(s) back).")
        }
        SheetEvent::ResourceSet { resource, before, after } => {
            format!("{name}'s {} set from {before} to {after}.", resource.statistic().word())
        }
        SheetEvent::PowerExpended { ability, amount, after, .. } => {
            format!("{name} expends {amount} Power on {ability} ({after} left).")
        }
        SheetEvent::ResultApplied { resource, amount, after, .. } => {
            format!("{name} loses {amount} {} ({after} left).", resource.statistic().word())
        }
        SheetEvent::ExperienceDiceSet { before, after } => {
            format!("{name}'s experience dice set from {before} to {after}.")
        }
        SheetEvent::DescriptionSet { .. } => format!("{name}'s description is changed."),
        SheetEvent::NpcSet { npc: true } => format!("{name} is a non-player character."),
        SheetEvent::NpcSet { npc: false } => format!("{name} is a player's character."),
        SheetEvent::ModifierAdded { text, value, lasts } => {
            format!("{name} keeps {text} ({value:+}, {}).", lasts_words(*lasts))
        }
        SheetEvent::ModifierRemoved { text, value, .. } => format!("{name}'s {text} ({value:+}) ends."),
    }
}

/// Edits a Scattershot character's sheet through the rules, as one undoable change. A
/// refused edit (naming its field) changes nothing.
pub fn scattershot_sheet_edit(store: &mut Store, character: Uuid, edit: &SheetEdit) -> Result<ScattershotSheetChange> {
    if let Some(change) = played_sheet_edit(store, character, edit)? {
        return Ok(change);
    }
    store.write(|tx| {
        let read = tx.read();
        let before = load(read, character)?;
        let sheet = sheet_of(&before)?;
        let game = existing_game(read, before.character.game_id)?;
        let settings = Settings::from_table(&game.table_settings)?;
        let (after, events) = match edit {
            // A new free skill comes from the game's list, at the level the list gives.
            SheetEdit::Buy { purchase: Purchase::NewFreeSkill { name, starting_level } } => {
                let list = read.scattershot_table(game.id)?.free_skill_list;
                let ListedFreeSkill { name, starting_level } = free_skills::take(&list, name, *starting_level)?;
                sheet.buy(&settings, &Purchase::NewFreeSkill { name, starting_level })?
            }
            // A new skill under a listed name takes the listing's difficulty (audit D-SC5).
            SheetEdit::Buy { purchase: Purchase::NewSkill { name, difficulty } } => {
                let listings = read.scattershot_table(game.id)?.skill_listings;
                let (name, difficulty) = skill_listings::take(&listings, name, *difficulty)?;
                sheet.buy(&settings, &Purchase::NewSkill { name, difficulty })?
            }
            SheetEdit::Buy { purchase } => sheet.buy(&settings, purchase)?,
            SheetEdit::TakeBack { rating } => sheet.take_back(*rating)?,
            SheetEdit::SetCreationLimit { limit } => sheet.set_creation_limit(*limit)?,
            SheetEdit::FinishCreation => sheet.finish_creation()?,
            SheetEdit::AddDisadvantage { name, situation, modifier } => {
                sheet.add_disadvantage(name, situation, *modifier)?
            }
            SheetEdit::RemoveQuality { index } => sheet.remove_quality(*index)?,
            SheetEdit::SetResource { resource, current } => sheet.set_resource(*resource, *current)?,
            SheetEdit::ExpendPower { ability, amount } => sheet.expend_power(*ability, *amount)?,
            SheetEdit::SetExperienceDice { dice } => sheet.set_experience_dice(*dice),
            SheetEdit::SetDescription { description } => sheet.set_description(description)?,
            SheetEdit::SetNpc { npc } => sheet.set_npc(*npc),
            SheetEdit::AddModifier { text, value, lasts } => sheet.add_modifier(text, *value, *lasts)?,
            SheetEdit::RemoveModifier { index } => sheet.remove_modifier(*index)?,
        };
        let name = before.character.name.clone();
        // Names of what was taken back or removed are read from the sheet before the edit.
        let message = events.iter().map(|e| describe_sheet(&name, &sheet, e)).collect::<Vec<_>>().join(" ");
        if after != sheet {
            let record = CharacterRecord { scattershot: Some(after), ..before.clone() };
            save(tx, EventKind::SheetEdited, before, record)?;
        }
        Ok(ScattershotSheetChange { view: sheet_view(tx.read(), character)?, message, events })
    })
}

/// A character with a player spends its player's stock (audit D-SC4): a development point
/// bought after creation is paid from the stock, as one undoable move of the game (it changes
/// the table's stock and the sheet together); its pool is the player's, set on the table, not
/// on the sheet. None: any other edit, an ordinary sheet edit.
fn played_sheet_edit(store: &mut Store, character: Uuid, edit: &SheetEdit) -> Result<Option<ScattershotSheetChange>> {
    let read = store.read();
    let record = load(read, character)?;
    let sheet = sheet_of(&record)?;
    let table = read.scattershot_table(record.character.game_id)?;
    let Some(player) = sheet.player.and_then(|p| table.player(p)).cloned() else { return Ok(None) };
    let name = record.character.name.clone();
    match edit {
        SheetEdit::SetExperienceDice { .. } => Err(Error::invalid(
            "dice",
            format!("{name}'s experience dice are {}'s stock: set it on the table", player.name),
        )),
        SheetEdit::Buy { purchase } if sheet.stage == Stage::Play => {
            let mut said = (String::new(), Vec::new());
            change(store, record.character.game_id, |w| {
                let settings = w.rules()?;
                let stocked = Sheet { experience_dice: player.dice, ..w.sheet("character", character)? };
                // A new free skill comes from the game's list, at the level the list gives.
                let purchase = match purchase {
                    Purchase::NewFreeSkill { name, starting_level } => {
                        let ListedFreeSkill { name, starting_level } =
                            free_skills::take(&w.table.free_skill_list, name, *starting_level)?;
                        Purchase::NewFreeSkill { name, starting_level }
                    }
                    other => other.clone(),
                };
                let (after, events) = stocked.buy(&settings, &purchase)?;
                let left = after.experience_dice;
                if let Some(p) = w.table.players.iter_mut().find(|p| p.id == player.id) {
                    p.dice = left;
                }
                w.set_sheet(character, Sheet { experience_dice: 0, ..after });
                w.note(&events);
                let message = events.iter().map(|e| describe_sheet(&name, &stocked, e)).collect::<Vec<_>>().join(" ");
                said = (format!("{message} From {}'s stock: {left} left.", player.name), events);
                Ok(said.0.clone())
            })?;
            let (message, events) = said;
            Ok(Some(ScattershotSheetChange { view: sheet_view(store.read(), character)?, message, events }))
        }
        _ => Ok(None),
    }
}

// ---------------------------------------------------------------------------------------
// Game-level moves

/// The state a Scattershot event snapshots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Snapshot {
    pub table: ScattershotTable,
    /// The roll on the table.
    #[serde(default)]
    pub roll: Option<RollState>,
    pub settings: TableSettings,
    /// Each changed character as it was (None: it did not exist).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<(Uuid, Option<CharacterRecord>)>,
    /// The campaign journal, when the move started or ended a session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal: Option<Journal>,
}

/// The payload of every Scattershot event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Payload {
    /// What was done, in words.
    action: String,
    before: Snapshot,
    after: Snapshot,
    /// The rules' own events, for history.
    #[serde(default)]
    events: serde_json::Value,
}

/// Whether undoing `kind` restores a Scattershot snapshot.
pub(super) fn is_scattershot_event(kind: EventKind) -> bool {
    kind == EventKind::ScattershotChanged
}

/// A move in progress: the table, the roll and the sheets as the move leaves them.
pub(super) struct Work<'a> {
    pub game: &'a Game,
    characters: &'a [CharacterRecord],
    pub table: ScattershotTable,
    pub roll: Option<RollState>,
    pub settings: TableSettings,
    /// The game's campaign journal: its sessions are the game's.
    pub journal: Journal,
    /// The last event of the log before this move (where a session starts or ends).
    pub log_at: i64,
    /// The characters whose sheets the move changed, as it leaves them.
    sheets: Vec<CharacterRecord>,
    events: Vec<serde_json::Value>,
}

impl Work<'_> {
    fn record(&self, id: Uuid) -> Option<&CharacterRecord> {
        self.sheets
            .iter()
            .find(|r| r.character.id == id)
            .or_else(|| self.characters.iter().find(|r| r.character.id == id))
    }

    /// The game's characters as the move has them so far.
    pub fn characters(&self) -> Vec<CharacterRecord> {
        self.characters.iter().map(|r| self.record(r.character.id).cloned().unwrap_or_else(|| r.clone())).collect()
    }

    pub fn ids(&self) -> Vec<Uuid> {
        self.characters.iter().map(|r| r.character.id).collect()
    }

    /// Refuses an id that is not a character of the game, naming `field`.
    pub fn character(&self, field: &str, id: Uuid) -> Result<()> {
        match self.record(id) {
            Some(_) => Ok(()),
            None => Err(Error::invalid(field, format!("{id} is not a character of this game"))),
        }
    }

    pub fn sheet(&self, field: &str, id: Uuid) -> Result<Sheet> {
        let record =
            self.record(id).ok_or_else(|| Error::invalid(field, format!("{id} is not a character of this game")))?;
        sheet_of(record)
    }

    pub fn set_sheet(&mut self, id: Uuid, sheet: Sheet) {
        if let Some(record) = self.record(id) {
            let record = CharacterRecord { scattershot: Some(sheet), ..record.clone() };
            self.sheets.retain(|r| r.character.id != id);
            self.sheets.push(record);
        }
    }

    /// A character's name, "the Gamemaster" for the game's id, or the id.
    pub fn name(&self, id: Uuid) -> String {
        name_in(self.characters, self.game, &self.table, id)
    }

    /// The table's rules settings (the game's).
    pub fn rules(&self) -> Result<Settings> {
        Settings::from_table(&self.settings)
    }

    fn sheets(&self) -> Vec<(Uuid, Sheet)> {
        self.characters
            .iter()
            .filter_map(|r| sheet_of(self.record(r.character.id)?).ok().map(|s| (r.character.id, s)))
            .collect()
    }

    /// Every pool of experience dice: the players' stocks, those of characters with no
    /// player, and the Gamemaster's (the game's id).
    pub fn pools(&self) -> Pools {
        let sheets = self.sheets();
        self.table.pools(self.game.id, sheets.iter().map(|(id, s)| (*id, s)))
    }

    /// Whose stock each character's experience dice are ([`Stocks`]).
    pub fn stocks(&self) -> Stocks {
        let sheets = self.sheets();
        self.table.stocks(sheets.iter().map(|(id, s)| (*id, s)))
    }

    /// Writes back the pools the rules returned.
    pub fn set_pools(&mut self, pools: &Pools) -> Result<()> {
        for (&id, &dice) in pools {
            if id == self.game.id {
                self.table.gm_dice = dice;
            } else if let Some(p) = self.table.players.iter_mut().find(|p| p.id == id) {
                p.dice = dice;
            } else if self.record(id).is_some() {
                let sheet = self.sheet("pools", id)?;
                if sheet.experience_dice != dice {
                    self.set_sheet(id, sheet.set_experience_dice(dice).0);
                }
            }
        }
        Ok(())
    }

    /// Ends every residual modifier that lasts `lasts` on the game's characters; says whose
    /// ended, in words ("" when none did).
    pub fn end_modifiers(&mut self, lasts: Lasts) -> Result<String> {
        let mut whose = Vec::new();
        for id in self.ids() {
            let sheet = self.sheet("characters", id)?;
            let (next, events) = sheet.end_modifiers(lasts);
            if !events.is_empty() {
                self.note(&events);
                self.set_sheet(id, next);
                whose.push(self.name(id));
            }
        }
        Ok(if whose.is_empty() { String::new() } else { format!("; residual modifiers end for {}", whose.join(", ")) })
    }

    /// The latest session of the journal (0: none yet): being played, or the last ended.
    pub fn session(&self) -> u32 {
        self.journal.latest_number()
    }

    /// Records the rules' events, for history.
    pub fn note<T: Serialize>(&mut self, events: &[T]) {
        self.events.extend(events.iter().filter_map(|e| serde_json::to_value(e).ok()));
    }
}

/// Applies one move to game `game` in one transaction and logs it: `play` changes the
/// table, the roll and the sheets through [`Work`] and returns what happened in words.
pub(super) fn change(
    store: &mut Store,
    game: Uuid,
    play: impl FnOnce(&mut Work<'_>) -> Result<String>,
) -> Result<ScattershotChange> {
    store.write(|tx| {
        let read = tx.read();
        let g = scattershot_game(read, game)?;
        let table = read.scattershot_table(game)?;
        let roll = pending_roll(read, game)?;
        let characters = records(read, game)?;
        let journal = read.journal(game)?;
        let mut work = Work {
            game: &g,
            characters: &characters,
            table: table.clone(),
            roll: roll.clone(),
            settings: g.table_settings.clone(),
            journal: journal.clone(),
            log_at: read.last_event_seq()?,
            sheets: Vec::new(),
            events: Vec::new(),
        };
        let message = play(&mut work)?;
        let changed = revise_changed(tx, &characters, &work.sheets, |old, new| old.scattershot == new.scattershot)?;
        tx.put_scattershot_table(game, &work.table)?;
        let sessions = save_sessions(tx, game, journal, &work.journal)?;
        if work.settings != g.table_settings {
            tx.update_game(&Game { table_settings: work.settings.clone(), updated_at: now(), ..g.clone() })?;
        } else {
            tx.touch_game(game, now())?;
        }
        let payload = Payload {
            action: message.clone(),
            before: Snapshot {
                table,
                roll,
                settings: g.table_settings.clone(),
                characters: changed.iter().map(|(id, old, _)| (*id, Some(old.clone()))).collect(),
                journal: sessions.as_ref().map(|(before, _)| before.clone()),
            },
            after: Snapshot {
                table: work.table.clone(),
                roll: work.roll.clone(),
                settings: work.settings.clone(),
                characters: changed.iter().map(|(id, _, new)| (*id, Some(new.clone()))).collect(),
                journal: sessions.map(|(_, after)| after),
            },
            events: serde_json::Value::Array(work.events),
        };
        table_event(tx, EventKind::ScattershotChanged, game, &payload, None)?;
        Ok(ScattershotChange { view: view_in(tx.read(), game)?, message })
    })
}

/// Takes back a Scattershot move: the table, the settings and the sheets the move changed
/// are restored, and the roll on the table is again the one before it.
pub(super) fn undo_scattershot_event(tx: &Tx<'_>, event: &Event) -> Result<String> {
    let payload: Payload = payload_of(event)?;
    let read = tx.read();
    let game = event.game_id;
    let g = scattershot_game(read, game)?;
    if read.scattershot_table(game)? != payload.after.table {
        return Err(Error::invalid("table", "the table changed since this move (an import?); undo that first"));
    }
    restore_sessions(tx, game, payload.before.journal.as_ref(), payload.after.journal.as_ref())?;
    unchanged_since(read, &payload.after.characters, |a, b| {
        a.scattershot == b.scattershot && a.character.game_id == b.character.game_id
    })?;
    let mut restored = Vec::new();
    for (id, before) in &payload.before.characters {
        let Some(record) = before else { continue };
        let mut record = record.clone();
        let current = load(read, *id)?;
        record.character = Character {
            revision: super::characters::next_revision(current.character.revision)?,
            updated_at: now(),
            ..current.character
        };
        update(tx, &record)?;
        restored.push((*id, Some(record)));
    }
    tx.put_scattershot_table(game, &payload.before.table)?;
    if g.table_settings != payload.before.settings {
        tx.update_game(&Game { table_settings: payload.before.settings.clone(), updated_at: now(), ..g })?;
    } else {
        tx.touch_game(game, now())?;
    }
    let message = format!("Undone: {}", payload.action);
    let undo = Payload {
        action: message.clone(),
        before: payload.after.clone(),
        after: Snapshot { characters: restored, ..payload.before.clone() },
        events: serde_json::Value::Null,
    };
    table_event(tx, EventKind::Undo, game, &undo, Some(event.seq))?;
    Ok(message)
}

// ---------------------------------------------------------------------------------------
// The table: the Gamemaster's stock and the table settings

/// A change to the table itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case", deny_unknown_fields)]
pub enum TableEdit {
    /// Sets the Gamemaster's stock of experience dice.
    GmDice { dice: u32 },
    /// Sets one of the game's table settings (Epic Index, Critical Juncture, experience die,
    /// dice per point, default Factor / Points / Bonus, creation limit).
    Setting { name: String, value: i64 },
    /// Replaces the UE chart with the rows the group filled in (any order; empty clears it).
    UeChart { rows: Vec<UeRow> },
    /// Replaces the game's list of free skills (in the order given; empty clears it).
    FreeSkillList { skills: Vec<ListedFreeSkill> },
    /// Replaces the game's skill listings (in the order given; empty clears them).
    SkillListings { listings: Vec<SkillListing> },
    /// The campaign journal's next session begins on `date` (`YYYY-MM-DD`, today's as the
    /// window gives it), with who is there (None: every player's character).
    StartSession {
        date: String,
        #[serde(default)]
        attendees: Option<Vec<String>>,
    },
    /// The journal's session ends: every residual modifier that lasted until then ends too.
    EndSession,
    /// A player joins the table, with an empty stock of experience dice.
    AddPlayer { name: String },
    /// Sets a player's stock of experience dice (as the Gamemaster's stock is set).
    PlayerDice { player: Uuid, dice: u32 },
    /// Renames a player (see `ScattershotTable::rename_player`).
    RenamePlayer { player: Uuid, name: String },
    /// A player leaves the table: refused while they play a character; their stock goes to
    /// the Gamemaster's (see `ScattershotTable::remove_player`).
    RemovePlayer { player: Uuid },
    /// Who plays `character` (None: it stands as its own player); the dice it held on its own
    /// join the player's stock (see `ScattershotTable::set_player`).
    SetPlayer {
        character: Uuid,
        #[serde(default)]
        player: Option<Uuid>,
    },
}

/// Changes the Gamemaster's stock or a table setting, as one undoable move.
pub fn scattershot_table_edit(store: &mut Store, game: Uuid, edit: &TableEdit) -> Result<ScattershotChange> {
    change(store, game, |w| match edit {
        TableEdit::GmDice { dice } => {
            let before = w.table.gm_dice;
            w.table.gm_dice = *dice;
            Ok(format!("The Gamemaster's stock goes from {before} to {dice} experience dice."))
        }
        TableEdit::Setting { name, value } => {
            let spec =
                table_settings::specs(System::Scattershot).iter().find(|s| s.name == name.trim()).ok_or_else(|| {
                    Error::invalid("name", format!("Scattershot's Mechanix has no table setting {name:?}"))
                })?;
            if !(spec.min..=spec.max).contains(value) {
                return Err(Error::invalid(
                    "value",
                    format!("{value} is out of range: {} must be {} to {}", spec.label, spec.min, spec.max),
                ));
            }
            let before = w.settings.insert(spec.name.to_owned(), *value);
            Ok(format!("{} goes from {} to {value}.", spec.label, before.map_or("—".into(), |b| b.to_string())))
        }
        TableEdit::UeChart { rows } => {
            let chart = ue_chart::clean(rows)?;
            let n = chart.len();
            w.table.ue_chart = chart;
            Ok(if n == 0 { "The UE chart is cleared.".to_owned() } else { format!("The UE chart has {n} row(s).") })
        }
        TableEdit::FreeSkillList { skills } => {
            let list = free_skills::clean(skills)?;
            let n = list.len();
            w.table.free_skill_list = list;
            Ok(match n {
                0 => "The list of free skills is cleared: a sheet may name any free skill.".to_owned(),
                n => format!("The list of free skills has {n} skill(s)."),
            })
        }
        TableEdit::SkillListings { listings } => {
            let list = skill_listings::clean(listings)?;
            let n = list.len();
            let defaults = list.iter().filter(|l| l.default.is_some()).count();
            w.table.skill_listings = list;
            Ok(match n {
                0 => "The skill listings are cleared.".to_owned(),
                n => format!("The game has {n} skill listing(s), {defaults} with a default."),
            })
        }
        TableEdit::StartSession { date, attendees } => {
            let characters = w.characters();
            let roster = journal::roster(characters.iter().map(|r| r.character.name.clone()), []);
            let players = || {
                let playing = characters.iter().filter(|r| !r.scattershot.as_ref().is_some_and(|s| s.npc));
                playing.map(|r| r.character.name.clone()).collect()
            };
            let attendees = attendees.clone().unwrap_or_else(players);
            w.journal = w.journal.start(date, &attendees, &roster, w.log_at)?;
            Ok(format!("Session {} begins.", w.session()))
        }
        TableEdit::EndSession => {
            let number = w.session();
            w.journal = w.journal.end(w.log_at)?;
            let ended = w.end_modifiers(Lasts::Session)?;
            Ok(format!("Session {number} ends{ended}."))
        }
        TableEdit::AddPlayer { name } => {
            let (table, event) = w.table.add_player(Uuid::new_v4(), name)?;
            w.table = table;
            w.note(&[&event]);
            let name = w.table.players.last().map_or(String::new(), |p| p.name.clone());
            Ok(format!("{name} joins the table as a player, with no experience dice yet."))
        }
        TableEdit::PlayerDice { player, dice } => {
            let stock = w
                .table
                .players
                .iter_mut()
                .find(|p| p.id == *player)
                .ok_or_else(|| Error::invalid("player", format!("{player} is not a player at this table")))?;
            let before = std::mem::replace(&mut stock.dice, *dice);
            Ok(format!("{}'s stock goes from {before} to {dice} experience dice.", stock.name))
        }
        TableEdit::RenamePlayer { player, name } => {
            let (table, event) = w.table.rename_player(*player, name)?;
            w.table = table;
            w.note(&[&event]);
            Ok(match &event {
                sc_table::PlayerEvent::PlayerRenamed { before, after, .. } => {
                    format!("{before} is now called {after}.")
                }
                _ => String::new(),
            })
        }
        TableEdit::RemovePlayer { player } => {
            let mut plays = Vec::new();
            for id in w.ids() {
                if w.sheet("character", id)?.player == Some(*player) {
                    plays.push(w.name(id));
                }
            }
            let (table, event) = w.table.remove_player(*player, &plays)?;
            w.table = table;
            w.note(&[&event]);
            Ok(match &event {
                sc_table::PlayerEvent::PlayerRemoved { name, dice: 0, .. } => format!("{name} leaves the table."),
                sc_table::PlayerEvent::PlayerRemoved { name, dice, .. } => format!(
                    "{name} leaves the table; the {dice} experience dice in {name}'s stock go to the Gamemaster's stock ({}).",
                    w.table.gm_dice
                ),
                _ => String::new(),
            })
        }
        TableEdit::SetPlayer { character, player } => {
            let sheet = w.sheet("character", *character)?;
            let (table, sheet, event) = w.table.set_player(*character, &sheet, *player)?;
            let who = w.name(*character);
            let message = match &event {
                sc_table::PlayerEvent::PlayerSet { after: Some(p), moved, .. } => {
                    let player = table.player(*p).map_or(String::new(), |p| p.name.clone());
                    let dice = table.player(*p).map_or(0, |p| p.dice);
                    let joined = if *moved > 0 {
                        format!("; the {moved} experience dice {who} held join the stock")
                    } else {
                        String::new()
                    };
                    format!("{player} plays {who}{joined} ({player}'s stock: {dice}).")
                }
                _ => format!("{who} stands as its own player, with no experience dice of its own."),
            };
            w.table = table;
            w.set_sheet(*character, sheet);
            w.note(&[&event]);
            Ok(message)
        }
    })
}
