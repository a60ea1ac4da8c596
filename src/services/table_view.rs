//! Every view of a game for a viewer: each game's part of it comes from that game's
//! services, so this sits above them (the viewers themselves, which the games' services
//! use, are in `viewer.rs`).

use serde::Serialize;
use uuid::Uuid;

use super::viewer::{device_viewer, not_yours, Viewer};
use crate::error::Result;
use crate::model::{Character, Game, System};
use crate::store::Store;

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
    let g = super::lookup::existing_game(read, game)?;
    let characters = read.characters_of(game)?;
    let viewer_characters = match viewer {
        // A Mezzo viewer's ids name the players they sit as too: only characters are listed.
        Viewer::Player(ids) => ids.iter().copied().filter(|id| characters.iter().any(|c| c.id == *id)).collect(),
        Viewer::PassedAround => characters.iter().map(|c| c.id).collect(),
        Viewer::Table | Viewer::Everyone => Vec::new(),
    };
    let system = match g.system {
        System::Nsu => SystemView::Nsu {
            sheets: characters.iter().map(|c| super::nsu::nsu_sheet_as(read, c.id, viewer)).collect::<Result<_>>()?,
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
        super::lookup::existing_game(read, game)?;
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
        super::lookup::existing_game(read, game)?;
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
