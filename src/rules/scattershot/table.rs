//! What a Scattershot's Mechanix game keeps beside its characters' sheets: the players and
//! their stocks of experience dice (audit D-SC4), the Gamemaster's common stock of experience dice, the mechanical play in progress, the UE
//! chart the group filled in (its sessions are the campaign journal's). Small pure helpers read the table settings the rules
//! do not carry in [`Settings`] (the default facets of an action, the creation limit).

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::free_skills::{self, ListedFreeSkill};
use super::made_it_by::Facets;
use super::mechanical_play::{
    MechanicalPlay, FORFEITS_PER_ROUND, IMMEDIATE_ACTIONS, MAX_COMBATANTS, MIN_REDUCED_PENALTY,
};
use super::sheet::{Resource, Sheet, MAX_LOSS};
use super::skill_listings::{self, SkillListing};
use super::ue_chart::{self, UeRow};
use super::{clean_name, name_problem, Pools, Stocks};
use crate::error::{Error, Result};
use crate::model::{System, TableSettings};
use crate::rules::journal::MAX_SESSIONS;
use crate::rules::table_settings;
use crate::Problem;

/// A player at the table and their own stock of experience dice (audit D-SC4).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub id: Uuid,
    pub name: String,
    /// The player's stock of experience dice, shared by every character they play.
    #[serde(default)]
    pub dice: u32,
}

/// The most players a table lists.
pub const MAX_PLAYERS: usize = 100;

/// What setting a character's player did, for the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum PlayerEvent {
    PlayerAdded {
        player: Uuid,
        name: String,
    },
    /// `character`'s player is now `after` (None: it stands as its own player); `moved` of its
    /// own experience dice joined the new player's stock.
    PlayerSet {
        character: Uuid,
        before: Option<Uuid>,
        after: Option<Uuid>,
        moved: u32,
    },
    /// The player `player` is now called `after`.
    PlayerRenamed {
        player: Uuid,
        before: String,
        after: String,
    },
    /// The player `player` (`name`) left the table; the `dice` left in their stock went to the
    /// Gamemaster's common stock.
    PlayerRemoved {
        player: Uuid,
        name: String,
        dice: u32,
    },
}

/// A Scattershot game's own state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScattershotTable {
    /// The players and their stocks of experience dice; a sheet names its player by id
    /// (empty: every character stands as its own player, as in older games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<Player>,
    /// The Gamemaster's common stock of experience dice: in a roll's bidding war it is the
    /// pool whose id is the game's.
    #[serde(default)]
    pub gm_dice: u32,
    /// Mechanical play in progress; None between fights.
    #[serde(default)]
    pub play: Option<MechanicalPlay>,
    /// The UE chart the group filled in, by ascending index (empty: the default facets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ue_chart: Vec<UeRow>,
    /// The game's list of free skills with their starting levels, which sheets take their
    /// free skills from (empty: none written down yet, any free skill may be named).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub free_skill_list: Vec<ListedFreeSkill>,
    /// The game's skill listings (audit D-SC5): difficulty and how to default to each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skill_listings: Vec<SkillListing>,
    /// Sessions an older version counted here, before the campaign journal kept them (the
    /// sessions are the journal's now): read from older files only, where it gives a file
    /// without a journal its sessions
    /// ([`crate::rules::journal::Journal::counted_by_older_version`]); never written.
    #[serde(default, rename = "sessions", skip_serializing)]
    pub older_sessions: u32,
    /// The latest of those was being played, in an older file.
    #[serde(default, rename = "in_session", skip_serializing)]
    pub older_in_session: bool,
}

fn setting(settings: &TableSettings, name: &str) -> i64 {
    settings.get(name).copied().unwrap_or_else(|| {
        table_settings::specs(System::Scattershot).iter().find(|s| s.name == name).map_or(0, |s| s.default)
    })
}

/// The facets a new roll starts with: the table's defaults.
pub fn default_facets(settings: &TableSettings) -> Facets {
    let facet = |name| u32::try_from(setting(settings, name)).unwrap_or(1);
    Facets { factor: facet("default_factor"), points: facet("default_points"), bonus: facet("default_bonus") }
}

/// The limit a new character's creation starts with (the table's; 0 is none).
pub fn creation_limit(settings: &TableSettings) -> Option<u32> {
    u32::try_from(setting(settings, "creation_limit")).ok().filter(|&n| n > 0)
}

/// The penalty a character's reduced resources give its rolls (RULES.md §4.3; audit D-SC2):
/// each resource at or below the table's `low_resource_percent` of its maximum gives
/// −`low_resource_penalty`; a percent of 0 is no penalty. The seed gives no formula, so the
/// table sets it. When it takes effect (at the lull) is mechanical play's to say
/// ([`MechanicalPlay::held_penalty`]).
pub fn reduced_resource_penalty(settings: &TableSettings, sheet: &Sheet) -> i32 {
    let percent = setting(settings, "low_resource_percent");
    let each = i32::try_from(setting(settings, "low_resource_penalty")).unwrap_or(0);
    if percent <= 0 {
        return 0;
    }
    let low = Resource::ALL.iter().filter(|&&r| {
        let maximum = i64::from(sheet.maximum(r));
        maximum > 0 && i64::from(sheet.current(r)) * 100 <= maximum * percent
    });
    -each * low.count() as i32
}

impl ScattershotTable {
    /// The player `id` on this table.
    pub fn player(&self, id: Uuid) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// Whose stock each character's dice are: the player its sheet names, when this table
    /// lists them. A sheet naming a player the table does not know (a character file
    /// imported alone into another game) stands as its own player.
    pub fn stocks<'a>(&self, sheets: impl IntoIterator<Item = (Uuid, &'a Sheet)>) -> Stocks {
        sheets
            .into_iter()
            .filter_map(|(id, s)| s.player.filter(|p| self.player(*p).is_some()).map(|p| (id, p)))
            .collect()
    }

    /// Every pool a roll may draw on: each player's stock, the experience dice of each
    /// character with no player, and the Gamemaster's stock under the game's id.
    pub fn pools<'a>(&self, game: Uuid, sheets: impl IntoIterator<Item = (Uuid, &'a Sheet)>) -> Pools {
        let sheets: Vec<(Uuid, &Sheet)> = sheets.into_iter().collect();
        let stocks = self.stocks(sheets.iter().copied());
        let mut pools: Pools =
            sheets.iter().filter(|(id, _)| !stocks.contains_key(id)).map(|(id, s)| (*id, s.experience_dice)).collect();
        pools.extend(self.players.iter().map(|p| (p.id, p.dice)));
        pools.insert(game, self.gm_dice);
        pools
    }

    /// Adds a player named `name` under `id` (a new id the caller made), with an empty stock.
    pub fn add_player(&self, id: Uuid, name: &str) -> Result<(ScattershotTable, PlayerEvent)> {
        let name = clean_name("name", name)?;
        if self.players.len() >= MAX_PLAYERS {
            return Err(Error::invalid("players", format!("a table lists at most {MAX_PLAYERS} players")));
        }
        if self.players.iter().any(|p| p.name.eq_ignore_ascii_case(&name)) {
            return Err(Error::invalid("name", format!("{name} is already a player at this table")));
        }
        if self.player(id).is_some() {
            return Err(Error::invalid("id", format!("{id} is already a player")));
        }
        let mut next = self.clone();
        next.players.push(Player { id, name: name.clone(), dice: 0 });
        Ok((next, PlayerEvent::PlayerAdded { player: id, name }))
    }

    /// Renames the player `id` to `name`: trimmed, not empty, and no other player's name at
    /// this table (case aside); a player may change the case of their own name.
    pub fn rename_player(&self, id: Uuid, name: &str) -> Result<(ScattershotTable, PlayerEvent)> {
        let before = self
            .player(id)
            .ok_or_else(|| Error::invalid("player", format!("{id} is not a player at this table")))?
            .name
            .clone();
        let name = clean_name("name", name)?;
        if name == before {
            return Err(Error::invalid("name", format!("{name} is already this player's name")));
        }
        if self.players.iter().any(|p| p.id != id && p.name.eq_ignore_ascii_case(&name)) {
            return Err(Error::invalid("name", format!("{name} is already a player at this table")));
        }
        let mut next = self.clone();
        let player = next.players.iter_mut().find(|p| p.id == id).expect("a player of the table");
        player.name = name.clone();
        Ok((next, PlayerEvent::PlayerRenamed { player: id, before, after: name }))
    }

    /// Removes the player `id` from the table. `plays` are the names of the characters whose
    /// sheets name this player.
    ///
    /// Ruling (audit D-SC4; the seed is silent on a player leaving): a player who still plays
    /// a character is not removed (the refusal names the characters): the table first names
    /// another player for them or lets them stand as their own, which settles their dice as
    /// [`Self::set_player`] does. No die is lost when the player goes: what is left in their
    /// stock goes to the Gamemaster's common stock, from which the Gamemaster hands out and
    /// replaces awards (004:110).
    pub fn remove_player(&self, id: Uuid, plays: &[String]) -> Result<(ScattershotTable, PlayerEvent)> {
        let player = self
            .player(id)
            .ok_or_else(|| Error::invalid("player", format!("{id} is not a player at this table")))?
            .clone();
        if !plays.is_empty() {
            return Err(Error::invalid(
                "player",
                format!(
                    "{} still plays {}: name another player for them, or let them stand as their own, first",
                    player.name,
                    plays.join(", ")
                ),
            ));
        }
        let mut next = self.clone();
        next.gm_dice = next
            .gm_dice
            .checked_add(player.dice)
            .ok_or_else(|| Error::invalid("player", "the Gamemaster's common stock would overflow"))?;
        next.players.retain(|p| p.id != id);
        Ok((next, PlayerEvent::PlayerRemoved { player: id, name: player.name, dice: player.dice }))
    }

    /// Sets who plays `character` (None: it stands as its own player again).
    ///
    /// Ruling (audit D-SC4): nothing moves silently. A character that stood as its own
    /// player held its player's dice on its sheet: naming its player moves them into that
    /// player's stock. A character leaving a player takes nothing from the stock (the dice are
    /// the player's) and starts again with none of its own; moving to another player leaves
    /// the dice with the one who earned them.
    pub fn set_player(
        &self,
        character: Uuid,
        sheet: &Sheet,
        player: Option<Uuid>,
    ) -> Result<(ScattershotTable, Sheet, PlayerEvent)> {
        if let Some(p) = player {
            if self.player(p).is_none() {
                return Err(Error::invalid("player", format!("{p} is not a player at this table")));
            }
        }
        let before = sheet.player.filter(|p| self.player(*p).is_some());
        if before == player {
            let what = player
                .map_or("its own player".to_owned(), |p| self.player(p).map_or(String::new(), |p| p.name.clone()));
            return Err(Error::invalid("player", format!("the character is already played by {what}")));
        }
        let mut next = self.clone();
        let mut sheet = sheet.clone();
        let moved = if before.is_none() { sheet.experience_dice } else { 0 };
        if let Some(p) = player {
            let stock = next.players.iter_mut().find(|x| x.id == p).expect("a player of the table");
            stock.dice =
                stock.dice.checked_add(moved).ok_or_else(|| Error::invalid("player", "the stock would overflow"))?;
        }
        sheet.experience_dice = if player.is_some() || before.is_some() { 0 } else { sheet.experience_dice };
        sheet.player = player;
        Ok((next, sheet, PlayerEvent::PlayerSet { character, before, after: player, moved }))
    }

    /// Every broken invariant of a stored or imported table, each at `path` + its field.
    /// `characters` are the game's characters: every combatant and every result's target is
    /// one of them.
    pub fn problems(&self, path: &str, characters: &[Uuid]) -> Vec<Problem> {
        let mut out = ue_chart::problems(&self.ue_chart, &format!("{path}.ue_chart"));
        out.extend(free_skills::problems(&self.free_skill_list, &format!("{path}.free_skill_list")));
        if self.players.len() > MAX_PLAYERS {
            out.push(Problem { path: format!("{path}.players"), message: format!("at most {MAX_PLAYERS} players") });
        }
        for (i, p) in self.players.iter().enumerate() {
            if self.players[..i].iter().any(|q| q.id == p.id) {
                out.push(Problem { path: format!("{path}.players[{i}].id"), message: "each player once".into() });
            }
            if characters.contains(&p.id) {
                out.push(Problem {
                    path: format!("{path}.players[{i}].id"),
                    message: format!("{} is a character's id, not a player's", p.id),
                });
            }
            if let Some(m) = name_problem(&p.name) {
                out.push(Problem { path: format!("{path}.players[{i}].name"), message: m });
            }
        }
        out.extend(skill_listings::problems(&self.skill_listings, &format!("{path}.skill_listings")));
        if self.older_sessions as usize > MAX_SESSIONS {
            out.push(Problem {
                path: format!("{path}.sessions"),
                message: format!("a journal holds at most {MAX_SESSIONS} sessions"),
            });
        }
        if self.older_in_session && self.older_sessions == 0 {
            out.push(Problem {
                path: format!("{path}.in_session"),
                message: "no session was started (sessions is 0)".into(),
            });
        }
        let Some(play) = &self.play else { return out };
        let at = format!("{path}.play");
        let mut problem = |p: String, m: String| out.push(Problem { path: p, message: m });
        if let Err(e) = play.settings.check() {
            problem(format!("{at}.settings"), e.to_string());
        }
        let epic = play.settings.epic_index;
        let n = play.combatants.len();
        if n == 0 || n > MAX_COMBATANTS {
            problem(format!("{at}.combatants"), format!("1 to {MAX_COMBATANTS} characters take part"));
        }
        if play.round == 0 {
            problem(format!("{at}.round"), "rounds count from 1".into());
        }
        if play.turn >= n.max(1) {
            problem(format!("{at}.turn"), format!("{} is not a combatant's place (0 to {})", play.turn, n.max(1) - 1));
        }
        if play.actions_used > IMMEDIATE_ACTIONS {
            problem(format!("{at}.actions_used"), format!("a turn has {IMMEDIATE_ACTIONS} immediate actions"));
        }
        // Sets, so that a table read from a file costs time in proportion to its size.
        let characters: HashSet<&Uuid> = characters.iter().collect();
        let ids: HashSet<Uuid> = play.combatants.iter().map(|c| c.character).collect();
        let mut seen = BTreeSet::new();
        for (i, c) in play.combatants.iter().enumerate() {
            let at = format!("{at}.combatants[{i}]");
            if !seen.insert(c.character) {
                problem(format!("{at}.character"), "a character takes one seat".into());
            }
            if !characters.contains(&c.character) {
                problem(format!("{at}.character"), format!("{} is not a character of this game", c.character));
            }
            if c.forfeited > IMMEDIATE_ACTIONS {
                problem(format!("{at}.forfeited"), format!("at most {IMMEDIATE_ACTIONS}"));
            }
            if c.forfeits > FORFEITS_PER_ROUND {
                problem(format!("{at}.forfeits"), format!("at most {FORFEITS_PER_ROUND} a round"));
            }
            if !(MIN_REDUCED_PENALTY..=0).contains(&c.reduced_penalty) {
                problem(format!("{at}.reduced_penalty"), format!("{MIN_REDUCED_PENALTY} to 0"));
            }
            if c.free_actions > epic {
                problem(format!("{at}.free_actions"), format!("at most {epic} (the Epic Index)"));
            }
            if c.free_kinds.len() > 2 * epic as usize {
                problem(format!("{at}.free_kinds"), format!("at most {} free actions a round", 2 * epic));
            }
            for (j, kind) in c.free_kinds.iter().enumerate() {
                if let Some(p) = name_problem(kind) {
                    problem(format!("{at}.free_kinds[{j}]"), p);
                }
            }
            match c.engaged {
                Some(foe) if foe == c.character => {
                    problem(format!("{at}.engaged"), "a character does not engage itself".into())
                }
                Some(foe) if !ids.contains(&foe) => {
                    problem(format!("{at}.engaged"), format!("{foe} is not in mechanical play"))
                }
                None if c.advantages > 0 => {
                    problem(format!("{at}.advantages"), "advantages are held against an engaged foe".into())
                }
                _ => {}
            }
            if c.advantages > epic {
                problem(format!("{at}.advantages"), format!("at most {epic} (the Epic Index)"));
            }
        }
        if play.pending.len() > 10_000 {
            problem(format!("{at}.pending"), "at most 10000 results wait for the lull".into());
        }
        for (i, r) in play.pending.iter().enumerate() {
            if !characters.contains(&r.target) {
                problem(format!("{at}.pending[{i}].target"), format!("{} is not a character of this game", r.target));
            }
            if r.amount > MAX_LOSS {
                problem(format!("{at}.pending[{i}].amount"), format!("at most {MAX_LOSS}"));
            }
        }
        out
    }
}

/// In a game file or a backup, where the table and the sheets travel together: a sheet
/// (`(index in the file's characters, sheet)`) whose player the table lists holds no
/// experience dice of its own (they are in its player's stock).
///
/// Ruling (audit D-SC4): a sheet naming a player the table does not list is not a problem;
/// the character stands as its own player (one brought in alone by a character file from
/// another table, which carries its player's id but none of the player's stock).
pub fn sheet_player_problems(table: &ScattershotTable, sheets: &[(usize, &Sheet)], path: &str) -> Vec<Problem> {
    sheets
        .iter()
        .filter(|(_, sheet)| sheet.player.is_some_and(|p| table.player(p).is_some()) && sheet.experience_dice > 0)
        .map(|(j, _)| Problem {
            path: format!("{path}.characters[{j}].scattershot.experience_dice"),
            message: "a character with a player holds no dice of its own: they are in its player's stock".into(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scattershot::mechanical_play::Seat;
    use crate::rules::scattershot::Settings;
    use crate::rules::test_support::err;

    #[test]
    fn a_table_s_problems_are_named_at_their_paths() {
        let (a, b) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let seats = [Seat { character: a, player: a }, Seat { character: b, player: b }];
        let (play, _) = MechanicalPlay::start(&seats, a, &Settings::default(), false).unwrap();
        let mut table = ScattershotTable { gm_dice: 4, play: Some(play), ..ScattershotTable::default() };
        assert_eq!(table.problems("$", &[a, b]), vec![]);
        let play = table.play.as_mut().unwrap();
        play.turn = 2;
        play.combatants[1].advantages = 1;
        let paths: Vec<String> = table.problems("$", &[a]).into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.play.turn", "$.play.combatants[1].character", "$.play.combatants[1].advantages"]);
    }

    #[test]
    fn two_characters_of_one_player_draw_on_one_stock_and_an_old_character_keeps_its_own() {
        use crate::rules::scattershot::stock_of;
        use crate::rules::test_support::scattershot::{ALDER, ASH, BIRCH};
        let (game, dana) = (Uuid::from_u128(99), Uuid::from_u128(77));
        let (table, _) =
            ScattershotTable { gm_dice: 1, ..ScattershotTable::default() }.add_player(dana, " Dana ").unwrap();
        assert_eq!(table.players[0].name, "Dana");
        assert_eq!(err(table.add_player(Uuid::from_u128(78), "dana")), "name: dana is already a player at this table");
        let with_dice = |n| Sheet { experience_dice: n, ..Sheet::new(None) };
        // Naming Dana for Ash and Alder: the dice each held join her stock, one undoable move each.
        let (table, ash, event) = table.set_player(ASH, &with_dice(2), Some(dana)).unwrap();
        assert_eq!(event, PlayerEvent::PlayerSet { character: ASH, before: None, after: Some(dana), moved: 2 });
        let (table, alder, _) = table.set_player(ALDER, &with_dice(1), Some(dana)).unwrap();
        let birch = with_dice(4);
        let sheets = [(ASH, &ash), (ALDER, &alder), (BIRCH, &birch)];
        let pools = table.pools(game, sheets);
        assert_eq!(
            pools,
            [(ASH, 0), (BIRCH, 4), (dana, 3), (game, 1)].into_iter().filter(|&(id, _)| id != ASH).collect()
        );
        // Both characters' rolls draw on that one stock (made_it_by's tests spend it).
        let stocks = table.stocks(sheets);
        assert_eq!((stock_of(&stocks, ASH), stock_of(&stocks, ALDER), stock_of(&stocks, BIRCH)), (dana, dana, BIRCH));
        // Leaving a player takes nothing from the stock.
        let (after, alone, _) = table.set_player(ALDER, &alder, None).unwrap();
        assert_eq!((after.players[0].dice, alone.experience_dice, alone.player), (3, 0, None));
        assert!(table.set_player(ASH, &ash, Some(dana)).is_err(), "already hers");
        assert!(table.set_player(ASH, &ash, Some(BIRCH)).is_err(), "not a player");
        // An old character with no player keeps its own stock; one naming a player this
        // table does not know (a character file from elsewhere) stands as its own too.
        let stranger = Sheet { player: Some(Uuid::from_u128(5)), ..with_dice(2) };
        let pools = table.pools(game, [(BIRCH, &birch), (ALDER, &stranger)]);
        assert_eq!((pools[&BIRCH], pools[&ALDER]), (4, 2));
    }

    #[test]
    fn a_player_is_renamed_by_the_name_rules_and_removed_only_when_they_play_nobody_their_dice_kept() {
        let (dana, eli) = (Uuid::from_u128(77), Uuid::from_u128(78));
        let (table, _) =
            ScattershotTable { gm_dice: 1, ..ScattershotTable::default() }.add_player(dana, "Dana").unwrap();
        let (table, _) = table.add_player(eli, "Eli").unwrap();
        // Renamed: trimmed, and the log line says who was who.
        let (renamed, event) = table.rename_player(dana, "  Dani ").unwrap();
        assert_eq!(event, PlayerEvent::PlayerRenamed { player: dana, before: "Dana".into(), after: "Dani".into() });
        assert_eq!((renamed.players[0].name.as_str(), renamed.players[1].name.as_str()), ("Dani", "Eli"));
        // Refused, each naming the field, the table unchanged (the rules return a new table).
        assert_eq!(err(table.rename_player(dana, "  ")), "name: must not be empty");
        assert_eq!(err(table.rename_player(dana, "eli")), "name: eli is already a player at this table");
        assert_eq!(err(table.rename_player(dana, "Dana")), "name: Dana is already this player's name");
        assert_eq!(
            err(table.rename_player(Uuid::from_u128(5), "Zed")),
            format!("player: {} is not a player at this table", Uuid::from_u128(5))
        );
        assert_eq!(table.rename_player(dana, "DANA").unwrap().0.players[0].name, "DANA", "her own name, another case");

        // Removing a player who still plays someone is refused, naming who.
        let mut stocked = table.clone();
        stocked.players[0].dice = 3;
        assert_eq!(
            err(stocked.remove_player(dana, &["Ada".into(), "Bo".into()])),
            "player: Dana still plays Ada, Bo: name another player for them, or let them stand as their own, first"
        );
        // Once she plays nobody she goes, and her 3 dice go to the Gamemaster's stock: none lost.
        let (gone, event) = stocked.remove_player(dana, &[]).unwrap();
        assert_eq!(event, PlayerEvent::PlayerRemoved { player: dana, name: "Dana".into(), dice: 3 });
        assert_eq!((gone.players.len(), gone.players[0].id, gone.gm_dice), (1, eli, 4));
        assert!(gone.remove_player(dana, &[]).is_err(), "already gone");
    }

    #[test]
    fn players_and_sheets_naming_them_are_checked_at_their_paths() {
        let (a, dana) = (Uuid::from_u128(1), Uuid::from_u128(77));
        let player = |id, name: &str| Player { id, name: name.into(), dice: 1 };
        let table = ScattershotTable {
            players: vec![player(dana, "Dana"), player(dana, ""), player(a, "Ash")],
            ..ScattershotTable::default()
        };
        let paths: Vec<String> = table.problems("$", &[a]).into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.players[1].id", "$.players[1].name", "$.players[2].id"]);
        let played = Sheet { player: Some(dana), ..Sheet::new(None) };
        let holding = Sheet { experience_dice: 2, ..played.clone() };
        let unknown = Sheet { player: Some(Uuid::from_u128(5)), ..holding.clone() };
        let found = sheet_player_problems(&table, &[(0, &played), (1, &holding), (2, &unknown)], "$");
        let paths: Vec<String> = found.into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.characters[1].scattershot.experience_dice"], "an unknown player: it stands as its own");
    }

    #[test]
    fn facets_and_creation_limit_come_from_the_table_settings() {
        let mut settings = table_settings::defaults(System::Scattershot);
        assert_eq!(default_facets(&settings), Facets::default());
        assert_eq!(creation_limit(&settings), None);
        settings.insert("default_factor".into(), 3);
        settings.insert("creation_limit".into(), 40);
        assert_eq!(default_facets(&settings).factor, 3);
        assert_eq!(creation_limit(&settings), Some(40));
    }

    #[test]
    fn a_resource_at_or_below_the_tables_percent_gives_its_penalty_and_a_fight_holds_it_until_the_lull() {
        let mut settings = table_settings::defaults(System::Scattershot);
        let hurt = |hp: i32, power: i32| {
            let sheet = Sheet::new(None).set_resource(Resource::HitPoints, hp).unwrap().0;
            sheet.set_resource(Resource::Power, power).unwrap().0
        };
        // No penalty unless the table sets one (a percent of 0).
        assert_eq!(reduced_resource_penalty(&settings, &hurt(1, 1)), 0);
        settings.insert("low_resource_percent".into(), 30);
        settings.insert("low_resource_penalty".into(), 2);
        // Hit Points 10: 3 is 30 %, at the line; 4 is above it. Both resources low: twice.
        assert_eq!(reduced_resource_penalty(&settings, &hurt(4, 10)), 0);
        assert_eq!(reduced_resource_penalty(&settings, &hurt(3, 10)), -2);
        assert_eq!(reduced_resource_penalty(&settings, &hurt(-5, 0)), -4);
        // Mechanical play holds each combatant's penalty from its start until it ends.
        let (a, b) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let seats = [Seat { character: a, player: a }, Seat { character: b, player: b }];
        let (play, _) = MechanicalPlay::start(&seats, a, &Settings::default(), false).unwrap();
        let play = play.hold_penalties(|id| if id == a { -2 } else { 0 });
        assert_eq!((play.held_penalty(a), play.held_penalty(b)), (Some(-2), Some(0)));
        assert_eq!(play.held_penalty(Uuid::from_u128(3)), None, "not in the fight: it follows its resources");
        let mut table = ScattershotTable { play: Some(play.hold_penalties(|_| -99)), ..ScattershotTable::default() };
        assert_eq!(table.play.as_ref().unwrap().held_penalty(a), Some(MIN_REDUCED_PENALTY), "bounded");
        table.play.as_mut().unwrap().combatants[0].reduced_penalty = 1;
        let paths: Vec<String> = table.problems("$", &[a, b]).into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.play.combatants[0].reduced_penalty"]);
    }
}
