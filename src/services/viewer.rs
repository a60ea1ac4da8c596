//! Who is looking. Every view of a game is computed for a viewer, and what that viewer may
//! not see is left out here, in the core — not hidden by the window (DESIGN.md "viewers").
//!
//! The secrets (RULES.md): a Penny Ante side's cup and the House's antagonists (their
//! hidden characteristics, their purses, what an anonymous antagonist devoted), a Mezzo
//! player's hand of seed cards, and an NSU face-down map card's name and text (seen only by
//! the characters who scouted it). Scattershot's Mechanix keeps nothing from anyone.

use serde::Serialize;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::{Character, DeviceRole, Game, System};
use crate::store::{Reader, Store};

/// Who a view is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The table side (the Gamemaster, the House, the Arbiters): its own secrets, not the
    /// players'.
    Table,
    /// What the whole table may see: nobody's secrets.
    Everyone,
    /// A player: what everyone sees, and the private things of these characters.
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

    /// Reads `table`, `everyone` or a character id of `game` (the player of that character),
    /// as the CLI's `--viewer` takes it.
    pub fn parse(read: Reader<'_>, game: Uuid, text: &str) -> Result<Viewer> {
        match text {
            "table" => Ok(Viewer::Table),
            "everyone" => Ok(Viewer::Everyone),
            other => {
                let id = Uuid::parse_str(other).map_err(|_| {
                    Error::invalid("viewer", format!("{other:?} is not table, everyone or a character's id"))
                })?;
                match read.character(id)? {
                    Some(c) if c.game_id == game => Ok(Viewer::Player(vec![id])),
                    Some(c) => Err(Error::invalid("viewer", format!("“{}” plays in another game", c.name))),
                    None => Err(Error::invalid("viewer", format!("no character {id} on this device"))),
                }
            }
        }
    }
}

/// The viewer this device is in `game`, from the role it plays there: a player device sees
/// as the player of its own characters in that game (not those it keeps for others).
pub fn device_viewer(read: Reader<'_>, game: Uuid) -> Result<Viewer> {
    Ok(match read.device_role(game)? {
        DeviceRole::Both => Viewer::PassedAround,
        DeviceRole::Table => Viewer::Table,
        DeviceRole::Player => Viewer::Player(my_characters_of(read, game)?),
    })
}

/// This device owner's own characters in `game`.
pub(super) fn my_characters_of(read: Reader<'_>, game: Uuid) -> Result<Vec<Uuid>> {
    let others = read.kept_for_others()?;
    Ok(read.characters_of(game)?.into_iter().map(|c| c.id).filter(|id| !others.contains(id)).collect())
}

/// The refusal for a secret this viewer may not see.
pub(super) fn not_yours(field: &str, what: &str) -> Error {
    Error::invalid(field, format!("{what} is not for this device's eyes (see the device's role in this game)"))
}

/// A game and everything in it, as one viewer may see it: what `sheetkeeper view` prints,
/// what the window renders, and what a linked table will send to that viewer's device.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableView {
    /// "table", "everyone", "player" or "passed_around".
    pub viewer: &'static str,
    /// The characters whose private things this view holds.
    pub viewer_characters: Vec<Uuid>,
    pub game: Game,
    pub characters: Vec<Character>,
    #[serde(flatten)]
    pub system: SystemView,
}

/// Each system's part of a [`TableView`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "system", rename_all = "snake_case")]
pub enum SystemView {
    Nsu {
        sheets: Vec<super::NsuSheetView>,
        world: Box<crate::rules::nsu::world::World>,
        map: Vec<super::MapCard>,
    },
    PennyAnte {
        table: Box<super::PennyView>,
        /// The cups and odds of the sides of the running challenge this viewer may see.
        private: Vec<super::PrivateView>,
    },
    Mezzo {
        table: Box<super::MezzoView>,
        plot: Box<super::PlotView>,
        deck: Box<super::DeckView>,
        /// The hands of seed cards this viewer may see.
        hands: Vec<super::HandView>,
    },
    Scattershot {
        table: Box<super::ScattershotView>,
    },
}

/// `game` as `viewer` may see it.
pub fn game_view(store: &Store, game: Uuid, viewer: &Viewer) -> Result<TableView> {
    let read = store.read();
    let g = super::games::existing_game(read, game)?;
    let characters = read.characters_of(game)?;
    let viewer_characters = match viewer {
        Viewer::Player(ids) => ids.clone(),
        Viewer::PassedAround => characters.iter().map(|c| c.id).collect(),
        Viewer::Table | Viewer::Everyone => Vec::new(),
    };
    let system = match g.system {
        System::Nsu => SystemView::Nsu {
            sheets: characters.iter().map(|c| super::nsu::nsu_sheet(store, c.id)).collect::<Result<_>>()?,
            world: Box::new(super::nsu::world::world_for(read, game, viewer)?),
            map: super::nsu::world::map_for(read, game, viewer)?,
        },
        System::PennyAnte => {
            let table = super::penny_ante::table_for(read, game, viewer)?;
            let private = match &table.challenge {
                Some(_) => super::penny_ante::private_sides(read, game, viewer)?,
                None => Vec::new(),
            };
            SystemView::PennyAnte { table: Box::new(table), private }
        }
        System::Mezzo => SystemView::Mezzo {
            table: Box::new(super::mezzo::mezzo_table(store, game)?),
            plot: Box::new(super::mezzo::plot::mezzo_plot(store, game)?),
            deck: Box::new(super::mezzo::plot::mezzo_deck(store, game)?),
            hands: super::mezzo::plot::hands_for(read, game, viewer)?,
        },
        System::Scattershot => {
            SystemView::Scattershot { table: Box::new(super::scattershot::scattershot_table(store, game)?) }
        }
    };
    Ok(TableView { viewer: viewer.label(), viewer_characters, game: g, characters, system })
}

/// `game` as the viewer named by `text` may see it (`table`, `everyone` or a character id).
pub fn game_view_as(store: &Store, game: Uuid, text: &str) -> Result<TableView> {
    let viewer = {
        let read = store.read();
        super::games::existing_game(read, game)?;
        Viewer::parse(read, game, text)?
    };
    game_view(store, game, &viewer)
}

/// `game` as this device sees it, or — with `narrower` — as a viewer no wider than the
/// device's role: `everyone`, the table's side where the device plays it, or one of the
/// characters whose private things the device holds.
pub fn game_view_on_device(store: &Store, game: Uuid, narrower: Option<&str>) -> Result<TableView> {
    let viewer = {
        let read = store.read();
        super::games::existing_game(read, game)?;
        let device = device_viewer(read, game)?;
        match narrower {
            None => device,
            Some(text) => {
                let asked = Viewer::parse(read, game, text)?;
                let allowed = match &asked {
                    Viewer::Everyone => true,
                    Viewer::Table => device.sees_table_secrets(),
                    Viewer::Player(ids) => ids.iter().all(|id| device.sees_character(*id)),
                    Viewer::PassedAround => false,
                };
                if !allowed {
                    return Err(not_yours("viewer", "That view"));
                }
                asked
            }
        }
    };
    game_view(store, game, &viewer)
}
