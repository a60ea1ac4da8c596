//! A player's own seed-deck moves as one value (DEV-1 at a linked table): buying, playing,
//! depleting, linking and refreshing cards, and drawing inspiration. Each names the player
//! whose hand or influence it uses, so the table's device can run a joined device's move only
//! for the players that device sits as (`services::link::host_apply_move`), through the same
//! services as a move made on the table's own device.

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::plot::{
    mezzo_buy_cards, mezzo_deplete_card, mezzo_draw_inspiration, mezzo_link_cards, mezzo_play_card, mezzo_refresh,
    DeckChange,
};
use crate::error::Result;
use crate::store::Store;

/// One of a player's own moves at the seed deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CardMove {
    /// `player` buys `count` cards with their influence.
    Buy { player: Uuid, count: u32 },
    /// `player` plays `card` from their hand.
    Play { player: Uuid, card: Uuid },
    /// `player`'s active `card` did not make it into the game.
    Deplete { player: Uuid, card: Uuid },
    /// `by` links their active `card` to `to`.
    Link { by: Uuid, card: Uuid, to: Uuid },
    /// At the end of a scene or challenge `player` discards `card` and, if `draw`, draws one.
    Refresh { player: Uuid, card: Uuid, draw: bool },
    /// `by` draws inspiration.
    DrawInspiration { by: Uuid },
}

impl CardMove {
    /// The player whose hand or influence the move uses.
    pub fn player(&self) -> Uuid {
        match self {
            CardMove::Buy { player, .. }
            | CardMove::Play { player, .. }
            | CardMove::Deplete { player, .. }
            | CardMove::Refresh { player, .. } => *player,
            CardMove::Link { by, .. } | CardMove::DrawInspiration { by } => *by,
        }
    }
}

/// Makes `mv` at `game`'s table, as the service of its kind does.
pub fn mezzo_card_move<R: Rng>(store: &mut Store, game: Uuid, mv: &CardMove, rng: &mut R) -> Result<DeckChange> {
    match *mv {
        CardMove::Buy { player, count } => mezzo_buy_cards(store, game, player, count, rng),
        CardMove::Play { player, card } => mezzo_play_card(store, game, player, card),
        CardMove::Deplete { player, card } => mezzo_deplete_card(store, game, player, card),
        CardMove::Link { by, card, to } => mezzo_link_cards(store, game, by, card, to),
        CardMove::Refresh { player, card, draw } => mezzo_refresh(store, game, player, card, draw, rng),
        CardMove::DrawInspiration { by } => mezzo_draw_inspiration(store, game, by, rng),
    }
}
