//! Who is looking. Every view of a game is computed for a viewer, and what that viewer may
//! not see is left out here, in the core — not hidden by the window (DESIGN.md "viewers").
//!
//! The secrets (RULES.md): a Penny Ante side's cup and the House's antagonists (their
//! hidden characteristics, their purses, what an anonymous antagonist devoted), a Mezzo
//! player's hand of seed cards, an NSU face-down map card's name and text (seen only by
//! the characters who scouted it), and an NSU sheet's rumours and notes marked private (seen
//! only by the character's player, audit D10). Scattershot's Mechanix keeps nothing from
//! anyone.

use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::DeviceRole;
use crate::store::Reader;

/// Who a view is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The table side (the Gamemaster, the House, the Arbiters): its own secrets, not the
    /// players'.
    Table,
    /// What the whole table may see: nobody's secrets.
    Everyone,
    /// A player: what everyone sees, and the private things of these ids: the characters
    /// they play and, at a Mezzo table, the players they sit as (a Mezzo player is a viewer
    /// in their own right, with or without a claimed character: their hand is theirs).
    Player(Vec<Uuid>),
    /// One device passed around the table (the role "both"): it holds every secret, and the
    /// window asks for the device to be handed over before it shows one.
    PassedAround,
}

impl Viewer {
    /// Whether this viewer sees the table's secrets (the House's antagonists, its cup).
    pub fn sees_table_secrets(&self) -> bool {
        matches!(self, Viewer::Table | Viewer::PassedAround)
    }

    /// Whether this viewer sees `character`'s private things (its cup, its scouted cards).
    pub fn sees_character(&self, character: Uuid) -> bool {
        match self {
            Viewer::PassedAround => true,
            Viewer::Player(mine) => mine.contains(&character),
            Viewer::Table | Viewer::Everyone => false,
        }
    }

    /// How the view names its viewer ("table", "everyone", "player", "passed_around").
    pub fn label(&self) -> &'static str {
        match self {
            Viewer::Table => "table",
            Viewer::Everyone => "everyone",
            Viewer::Player(_) => "player",
            Viewer::PassedAround => "passed_around",
        }
    }

    /// Whether this viewer sits as Mezzo player `player` (their hand, influence and votes).
    pub fn sits_as(&self, player: Uuid) -> bool {
        matches!(self, Viewer::Player(mine) if mine.contains(&player))
    }

    /// Reads `table`, `everyone`, a character id of `game` (the player of that character) or
    /// the id of a Mezzo player of `game` (that player), as the CLI's `--viewer` takes it.
    pub fn parse(read: Reader<'_>, game: Uuid, text: &str) -> Result<Viewer> {
        match text {
            "table" => Ok(Viewer::Table),
            "everyone" => Ok(Viewer::Everyone),
            other => {
                let id = Uuid::parse_str(other).map_err(|_| {
                    Error::invalid(
                        "viewer",
                        format!("{other:?} is not table, everyone, a character's or a player's id"),
                    )
                })?;
                match read.character(id)? {
                    Some(c) if c.game_id == game => Ok(Viewer::Player(vec![id])),
                    Some(c) => Err(Error::invalid("viewer", format!("“{}” plays in another game", c.name))),
                    None if read.mezzo_table(game)?.players.iter().any(|p| p.id == id) => Ok(Viewer::Player(vec![id])),
                    None => Err(Error::invalid("viewer", format!("no character or Mezzo player {id} in this game"))),
                }
            }
        }
    }
}

/// The viewer this device is in `game`, from the role it plays there: a player device sees
/// as the player of its own characters in that game (not those it keeps for others) and, at
/// a Mezzo table, as the players its person sits as.
pub fn device_viewer(read: Reader<'_>, game: Uuid) -> Result<Viewer> {
    Ok(match read.device_role(game)? {
        DeviceRole::Both => Viewer::PassedAround,
        DeviceRole::Table => Viewer::Table,
        DeviceRole::Player => {
            let mut mine = my_characters_of(read, game)?;
            mine.extend(read.mezzo_seats(game)?);
            Viewer::Player(mine)
        }
    })
}

/// This device owner's own characters in `game`: not those it keeps for others, nor, on the
/// device hosting a linked table, those played from another device there.
pub(super) fn my_characters_of(read: Reader<'_>, game: Uuid) -> Result<Vec<Uuid>> {
    let mut others = read.kept_for_others()?;
    others.extend(read.link_owners(game)?.into_iter().map(|(character, _)| character));
    Ok(read.characters_of(game)?.into_iter().map(|c| c.id).filter(|id| !others.contains(id)).collect())
}

/// The refusal for a secret this viewer may not see.
pub(super) fn not_yours(field: &str, what: &str) -> Error {
    Error::invalid(field, format!("{what} is not for this device's eyes (see the device's role in this game)"))
}
