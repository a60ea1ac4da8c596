//! The Mezzo seed deck (RULES.md §3.6; the source's "Seed Deck"): cards with ideas that the
//! players draw, play into the game, link to each other's for influence, and refresh at the
//! end of a scene or challenge, plus the inspiration card and the dice variant. Every move
//! takes the deck by reference and returns the new deck, the influence it costs or earns
//! ([`Grant`]s, for the service to apply to the players in the same transaction) and what
//! happened, or an [`Error::Invalid`] naming the field that changes nothing. Shuffling and
//! drawing use a passed-in [`rand::Rng`]; the dice variant rolls through a [`DiceSource`].
//!
//! What the source fixes, and these moves enforce:
//! - A deck starts with at least 3 cards per player ([`build`], [`add_player`]); cards may
//!   be added later, mixed into the deck ([`add_cards`]).
//! - At the start of a session each player may buy cards with influence, 1 each
//!   ([`start_session`], [`buy_cards`]). The sessions are the campaign journal's; the
//!   deck only opens and closes its initial draw with them ([`end_session`]).
//! - A card played from the hand becomes active in front of its owner ([`play`]); a played
//!   card whose idea does not make it into the game is depleted ([`deplete`]).
//! - Linking ([`link`]) ties the player's newly active card to another player's active
//!   card (or to the inspiration card); when a card first becomes linked its owner gains 1
//!   influence and the card is marked, so each card earns it once. A player links two of
//!   their own cards only when they are the only player who holds cards. The inspiration
//!   card has no owner and earns nobody anything.
//! - At the end of a scene or challenge ([`end_of`]) each player may discard one of their
//!   cards (hand, active or depleted) and then draw one ([`refresh`]).
//! - Inspiration ([`draw_inspiration`], [`settle_inspiration`]): the top card is shown to
//!   all; if its idea makes it into the game it becomes the active inspiration card,
//!   replacing (discarding) the previous one; otherwise it is discarded.
//! - Dice variant ([`KeywordDie`]): a keyword per face of a chosen die; a roll picks one.
//! - A hand is its player's (seed: "a player starts with no roles"; DESIGN.md "viewers"):
//!   [`sees_hand`] says whose hand a player's own device reads. A player is a viewer in
//!   their own right: whether or not they claim a character, their hand is theirs.
//!
//! Rulings where the source is silent:
//! - When the draw pile is empty and a card must be drawn, the discard pile is shuffled into
//!   a new draw pile. A draw asking for more cards than the two piles hold is refused.
//! - The initial draw is open from the start of a session until the first card is played,
//!   depleted or linked, an inspiration is drawn, or a scene or challenge ends; a player may
//!   buy in several goes while it is open. Hands, active and depleted cards stay from one
//!   session to the next.
//! - The refresh is open from the end of a scene or challenge until the next card is played,
//!   depleted or linked, an inspiration is drawn or a session starts; each player refreshes
//!   once in it. The card is discarded first, so a reshuffle may bring it back.
//! - A link is made by a player between two cards in play, one of them their own newly
//!   active card: the card they played last, for as long as it stays active (the seed's "a
//!   newly active card builds on another active card"); the other is another player's active
//!   card or the inspiration card. A player never links someone else's card, to the
//!   inspiration card or anywhere (that would earn the other player influence by a third
//!   hand). A newly active card may be linked to several cards. A pair is linked once. A card leaving play (depleted or discarded, or an inspiration replaced)
//!   takes its links with it; the influence stays. A card that comes back into play later is
//!   a fresh card and may earn its point again.
//! - "Owning cards", for linking one's own cards, is holding any card: in hand, active or
//!   depleted. The seed's words count every card drawn and still held: "Players can only link
//!   their own cards if they are the only player who owns cards", and in the initial draw "If
//!   only one player draws cards, they can link their own cards"; a depleted card lies "face
//!   down in front of the owning player". (The audit's DEV-11 asked for active cards only;
//!   the seed's words do not say so, so this stays.)
//! - Cards added to a deck in play are shuffled into the draw pile only.
//! - The dice variant stands apart from the deck: a roll gives a player a keyword, which the
//!   table uses as a card's idea.

use std::collections::{BTreeSet, HashSet};

use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::element::Element;
use super::plot::{Grant, Resource};
use super::text::clean_line;
use crate::error::{Error, Result};
use crate::rules::dice::DiceSource;
use crate::rules::journal::MAX_SESSIONS;
use crate::Problem;

/// A starting deck holds at least this many cards per player.
pub const CARDS_PER_PLAYER: usize = 3;
/// Influence a card costs in the initial draw.
pub const CARD_PRICE: u32 = 1;
/// Influence a card earns its owner when it is first linked.
pub const LINK_INFLUENCE: u32 = 1;
/// The longest card text or keyword, in characters.
pub const MAX_CARD_CHARS: usize = 500;
/// The most cards a deck holds, wherever they lie (and so the most links between them).
pub const MAX_CARDS: usize = 1_000;
/// The dice a keyword die may be.
pub const KEYWORD_DICE: [u8; 6] = [4, 6, 8, 10, 12, 20];

/// A seed card: an idea.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: Uuid,
    pub text: String,
}

/// A card played into the game, face up in front of its owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActiveCard {
    pub card: Card,
    /// Marked: it was linked and earned its owner's influence.
    #[serde(default)]
    pub linked: bool,
}

/// One player's cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Holding {
    pub player: Uuid,
    #[serde(default)]
    pub hand: Vec<Card>,
    #[serde(default)]
    pub active: Vec<ActiveCard>,
    /// Played, but the idea did not make it into the game: face down.
    #[serde(default)]
    pub depleted: Vec<Card>,
}

impl Holding {
    fn new(player: Uuid) -> Holding {
        Holding { player, hand: Vec::new(), active: Vec::new(), depleted: Vec::new() }
    }

    /// The player's newly active card: the one they played last, while it is still active.
    pub fn newly_active(&self) -> Option<Uuid> {
        self.active.last().map(|a| a.card.id)
    }

    /// Holds any card at all.
    pub fn owns_cards(&self) -> bool {
        !(self.hand.is_empty() && self.active.is_empty() && self.depleted.is_empty())
    }

    fn cards(&self) -> impl Iterator<Item = &Card> + '_ {
        self.hand.iter().chain(self.active.iter().map(|a| &a.card)).chain(self.depleted.iter())
    }

    /// Takes card `card` out of the hand or the active cards, if it is there.
    fn take_from_play(&mut self, card: Uuid) -> Option<Card> {
        if let Some(i) = self.hand.iter().position(|c| c.id == card) {
            Some(self.hand.remove(i))
        } else {
            self.active.iter().position(|a| a.card.id == card).map(|i| self.active.remove(i).card)
        }
    }
}

/// Two cards in play tied by a common bond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// The player who made it.
    pub by: Uuid,
    pub card: Uuid,
    pub to: Uuid,
}

impl Link {
    fn joins(&self, a: Uuid, b: Uuid) -> bool {
        (self.card == a && self.to == b) || (self.card == b && self.to == a)
    }

    fn touches(&self, c: Uuid) -> bool {
        self.card == c || self.to == c
    }
}

/// What ends and opens the refresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    Scene,
    Challenge,
}

/// A game's seed deck and everyone's cards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedDeck {
    /// Face down; the top card is the last.
    #[serde(default)]
    pub draw_pile: Vec<Card>,
    /// Face up; the latest discarded is the last.
    #[serde(default)]
    pub discard: Vec<Card>,
    /// Every player at the table, in the order they joined.
    #[serde(default)]
    pub players: Vec<Holding>,
    /// The active inspiration card, face up in front of all players.
    #[serde(default)]
    pub inspiration: Option<Card>,
    /// An inspiration draw shown to all, not yet played into the game or discarded.
    #[serde(default)]
    pub shown: Option<Card>,
    #[serde(default)]
    pub links: Vec<Link>,
    /// Sessions an older version counted here, before the campaign journal kept them (a
    /// table's sessions are its journal's now): read from older files only, where it gives
    /// a game without a journal its sessions ([`crate::rules::journal::Journal::counted_by_older_version`]); never
    /// written.
    #[serde(default, rename = "session", skip_serializing)]
    pub older_sessions: u32,
    /// The session's initial draw is open.
    #[serde(default)]
    pub initial_draw: bool,
    /// Players who may still discard one card and draw one at this end of a scene or
    /// challenge.
    #[serde(default)]
    pub refresh: Vec<Uuid>,
}

/// What a deck move did, for the log and the toast.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeedEvent {
    DeckBuilt {
        cards: usize,
        players: usize,
    },
    CardsAdded {
        cards: Vec<Uuid>,
    },
    PlayerJoined {
        player: Uuid,
    },
    SessionStarted {
        session: u32,
    },
    /// The discard pile was shuffled into a new draw pile.
    Reshuffled {
        cards: usize,
    },
    Bought {
        player: Uuid,
        cards: Vec<Uuid>,
        paid: Grant,
    },
    Played {
        player: Uuid,
        card: Uuid,
    },
    Depleted {
        player: Uuid,
        card: Uuid,
    },
    Linked {
        by: Uuid,
        card: Uuid,
        to: Uuid,
        earned: Vec<Grant>,
    },
    Ended {
        ending: Ending,
    },
    Refreshed {
        player: Uuid,
        discarded: Uuid,
        drawn: Option<Uuid>,
    },
    InspirationShown {
        by: Uuid,
        card: Card,
    },
    InspirationPlayed {
        card: Uuid,
        replaced: Option<Uuid>,
    },
    InspirationDiscarded {
        card: Uuid,
    },
}

/// A move's result: the new deck, the influence changes for players, and what happened.
pub type Dealt = (SeedDeck, Vec<Grant>, Vec<SeedEvent>);

/// Where a card in play is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InPlay {
    /// Active card `index` of player `holder` (an index into `players`).
    Owned {
        holder: usize,
        index: usize,
    },
    Inspiration,
}

impl SeedDeck {
    /// Every card of the deck, wherever it is.
    pub fn all_cards(&self) -> Vec<&Card> {
        let mut out: Vec<&Card> = self.draw_pile.iter().chain(self.discard.iter()).collect();
        for h in &self.players {
            out.extend(h.cards());
        }
        out.extend(self.inspiration.iter());
        out.extend(self.shown.iter());
        out
    }

    /// Cards left to draw, the discard pile included (it is reshuffled when needed).
    pub fn drawable(&self) -> usize {
        self.draw_pile.len() + self.discard.len()
    }

    pub fn holding(&self, player: Uuid) -> Option<&Holding> {
        self.players.iter().find(|h| h.player == player)
    }

    fn holder(&self, player: Uuid, field: &str) -> Result<usize> {
        self.players
            .iter()
            .position(|h| h.player == player)
            .ok_or_else(|| Error::invalid(field, format!("{player} is not a player at this deck")))
    }

    fn in_play(&self, card: Uuid) -> Option<InPlay> {
        if self.inspiration.as_ref().is_some_and(|c| c.id == card) {
            return Some(InPlay::Inspiration);
        }
        self.players.iter().enumerate().find_map(|(holder, h)| {
            h.active.iter().position(|a| a.card.id == card).map(|index| InPlay::Owned { holder, index })
        })
    }

    /// A game move: the initial draw and the refresh are over.
    fn close_windows(&mut self) {
        self.initial_draw = false;
        self.refresh.clear();
    }

    /// Draws the top card, reshuffling the discard pile into the draw pile when it is empty.
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R, events: &mut Vec<SeedEvent>) -> Option<Card> {
        if self.draw_pile.is_empty() && !self.discard.is_empty() {
            self.draw_pile = std::mem::take(&mut self.discard);
            self.draw_pile.shuffle(rng);
            events.push(SeedEvent::Reshuffled { cards: self.draw_pile.len() });
        }
        self.draw_pile.pop()
    }

    /// Drops the links of a card that left play.
    fn unlink(&mut self, card: Uuid) {
        self.links.retain(|l| !l.touches(card));
    }

    /// What is wrong with a stored or imported deck, if anything. Linear: sets, no pairs.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let cards = self.all_cards();
        if cards.len() > MAX_CARDS {
            let message = format!("{} cards; a deck holds at most {MAX_CARDS}", cards.len());
            out.push(Problem { path: "cards".into(), message });
        }
        if self.links.len() > MAX_CARDS {
            let message = format!("{} links; a deck holds at most {MAX_CARDS}", self.links.len());
            out.push(Problem { path: "links".into(), message });
        }
        if self.older_sessions as usize > MAX_SESSIONS {
            let message = format!("a journal holds at most {MAX_SESSIONS} sessions");
            out.push(Problem { path: "session".into(), message });
        }
        if !out.is_empty() {
            return out;
        }
        let mut seen = HashSet::new();
        for card in cards {
            if !seen.insert(card.id) {
                out.push(Problem { path: "cards".into(), message: format!("card {} is in the deck twice", card.id) });
            }
        }
        let mut players = HashSet::new();
        for (i, h) in self.players.iter().enumerate() {
            if !players.insert(h.player) {
                out.push(Problem { path: format!("players[{i}]"), message: "lists a player twice".into() });
            }
        }
        let in_play: HashSet<Uuid> = self
            .inspiration
            .iter()
            .chain(self.players.iter().flat_map(|h| h.active.iter().map(|a| &a.card)))
            .map(|c| c.id)
            .collect();
        for (i, l) in self.links.iter().enumerate() {
            if !in_play.contains(&l.card) || !in_play.contains(&l.to) || l.card == l.to {
                out.push(Problem { path: format!("links[{i}]"), message: "joins a card that is not in play".into() });
            }
        }
        for (i, p) in self.refresh.iter().enumerate() {
            if !players.contains(p) {
                out.push(Problem { path: format!("refresh[{i}]"), message: format!("{p} is not a player") });
            }
        }
        out
    }
}

fn check_new_cards(deck: &SeedDeck, cards: &[Card]) -> Result<Vec<Card>> {
    let mut seen: BTreeSet<Uuid> = deck.all_cards().iter().map(|c| c.id).collect();
    if seen.len().saturating_add(cards.len()) > MAX_CARDS {
        return Err(Error::invalid(
            "cards",
            format!("a deck holds at most {MAX_CARDS} cards; it has {} and {} would join", seen.len(), cards.len()),
        ));
    }
    let mut out = Vec::new();
    for (i, c) in cards.iter().enumerate() {
        if !seen.insert(c.id) {
            return Err(Error::invalid(format!("cards[{i}].id"), format!("card {} is already in the deck", c.id)));
        }
        out.push(Card { id: c.id, text: clean_line(&format!("cards[{i}].text"), &c.text, MAX_CARD_CHARS)? });
    }
    Ok(out)
}

fn need_cards(cards: usize, players: usize) -> Result<()> {
    let need = CARDS_PER_PLAYER * players;
    if cards < need {
        return Err(Error::invalid(
            "cards",
            format!(
                "a deck for {players} player(s) needs at least {need} cards ({CARDS_PER_PLAYER} each); it has {cards}"
            ),
        ));
    }
    Ok(())
}

/// Builds a shuffled deck of `cards` for `players` (at least 3 cards per player).
pub fn build<R: Rng + ?Sized>(cards: &[Card], players: &[Uuid], rng: &mut R) -> Result<Dealt> {
    if players.is_empty() {
        return Err(Error::invalid("players", "names no player"));
    }
    let mut deck = SeedDeck::default();
    for (i, p) in players.iter().enumerate() {
        if deck.holding(*p).is_some() {
            return Err(Error::invalid(format!("players[{i}]"), "lists a player twice"));
        }
        deck.players.push(Holding::new(*p));
    }
    deck.draw_pile = check_new_cards(&deck, cards)?;
    need_cards(deck.draw_pile.len(), players.len())?;
    deck.draw_pile.shuffle(rng);
    let event = SeedEvent::DeckBuilt { cards: deck.draw_pile.len(), players: players.len() };
    Ok((deck, Vec::new(), vec![event]))
}

/// Mixes new cards into the draw pile.
pub fn add_cards<R: Rng + ?Sized>(deck: &SeedDeck, cards: &[Card], rng: &mut R) -> Result<Dealt> {
    if cards.is_empty() {
        return Err(Error::invalid("cards", "names no card"));
    }
    let new = check_new_cards(deck, cards)?;
    let mut next = deck.clone();
    let ids = new.iter().map(|c| c.id).collect();
    next.draw_pile.extend(new);
    next.draw_pile.shuffle(rng);
    Ok((next, Vec::new(), vec![SeedEvent::CardsAdded { cards: ids }]))
}

/// A player joins the table; the deck must still hold 3 cards per player.
pub fn add_player(deck: &SeedDeck, player: Uuid) -> Result<Dealt> {
    if deck.holding(player).is_some() {
        return Err(Error::invalid("player", format!("{player} already plays with this deck")));
    }
    need_cards(deck.all_cards().len(), deck.players.len() + 1)?;
    let mut next = deck.clone();
    next.players.push(Holding::new(player));
    Ok((next, Vec::new(), vec![SeedEvent::PlayerJoined { player }]))
}

/// Session `session` (the journal's number) starts: its initial draw opens.
pub fn start_session(deck: &SeedDeck, session: u32) -> Dealt {
    let mut next = deck.clone();
    next.refresh.clear();
    next.initial_draw = true;
    (next, Vec::new(), vec![SeedEvent::SessionStarted { session }])
}

/// The session ends: an initial draw still open closes with it (cards are bought at the
/// start of a session, not carried into the next).
pub fn end_session(deck: &SeedDeck) -> Dealt {
    let mut next = deck.clone();
    next.initial_draw = false;
    (next, Vec::new(), Vec::new())
}

/// The initial draw: `player`, holding `influence`, buys `count` cards at 1 influence each.
pub fn buy_cards<R: Rng + ?Sized>(
    deck: &SeedDeck,
    player: Uuid,
    count: u32,
    influence: u32,
    rng: &mut R,
) -> Result<Dealt> {
    let h = deck.holder(player, "player")?;
    if !deck.initial_draw {
        return Err(Error::invalid("initial_draw", "cards are bought only at the start of a session, before play"));
    }
    if count == 0 {
        return Err(Error::invalid("count", "must be at least 1"));
    }
    let cost = count.saturating_mul(CARD_PRICE);
    if influence < cost {
        return Err(Error::invalid("has", format!("holds {influence} influence; {count} card(s) cost {cost}")));
    }
    if (count as usize) > deck.drawable() {
        return Err(Error::invalid("count", format!("only {} card(s) are left to draw", deck.drawable())));
    }
    let mut next = deck.clone();
    let mut events = Vec::new();
    let mut drawn = Vec::new();
    for _ in 0..count {
        let card = next.draw(rng, &mut events).ok_or_else(|| Error::invalid("count", "no card is left to draw"))?;
        drawn.push(card.id);
        next.players[h].hand.push(card);
    }
    let paid = Grant { to: player, resource: Resource::Influence, amount: -i64::from(cost), stake: false };
    events.push(SeedEvent::Bought { player, cards: drawn, paid });
    Ok((next, vec![paid], events))
}

/// `player` plays a card from the hand: its idea joins the game and it becomes active.
pub fn play(deck: &SeedDeck, player: Uuid, card: Uuid) -> Result<Dealt> {
    let h = deck.holder(player, "player")?;
    let i = deck.players[h]
        .hand
        .iter()
        .position(|c| c.id == card)
        .ok_or_else(|| Error::invalid("card", format!("{card} is not in the player's hand")))?;
    let mut next = deck.clone();
    next.close_windows();
    let c = next.players[h].hand.remove(i);
    next.players[h].active.push(ActiveCard { card: c, linked: false });
    Ok((next, Vec::new(), vec![SeedEvent::Played { player, card }]))
}

/// A card `player` played (from the hand, or already active) whose idea did not make it into
/// the game is depleted: face down, out of play.
pub fn deplete(deck: &SeedDeck, player: Uuid, card: Uuid) -> Result<Dealt> {
    let h = deck.holder(player, "player")?;
    let mut next = deck.clone();
    let holding = &mut next.players[h];
    let c = holding
        .take_from_play(card)
        .ok_or_else(|| Error::invalid("card", format!("{card} is neither in the player's hand nor active")))?;
    holding.depleted.push(c);
    next.unlink(card);
    next.close_windows();
    Ok((next, Vec::new(), vec![SeedEvent::Depleted { player, card }]))
}

/// `by` links two cards in play that share a bond: their own newly active card (the one they
/// played last) to another player's active card or to the inspiration card (or, while no
/// other player holds cards, to another of their own). Each card linked for the first time
/// earns its owner 1 influence.
pub fn link(deck: &SeedDeck, by: Uuid, card: Uuid, to: Uuid) -> Result<Dealt> {
    let me = deck.holder(by, "by")?;
    if card == to {
        return Err(Error::invalid("to", "a card is not linked to itself"));
    }
    if deck.links.len() >= MAX_CARDS {
        return Err(Error::invalid("card", format!("a deck holds at most {MAX_CARDS} links")));
    }
    let a = deck.in_play(card).ok_or_else(|| Error::invalid("card", format!("{card} is not in play")))?;
    let b = deck.in_play(to).ok_or_else(|| Error::invalid("to", format!("{to} is not in play")))?;
    let owner = |p: InPlay| match p {
        InPlay::Owned { holder, .. } => Some(holder),
        InPlay::Inspiration => None,
    };
    let (oa, ob) = (owner(a), owner(b));
    // The seed: "If the player can show that a newly active card builds on another active
    // card, the two are linked" — one of the two is the linking player's own newly active card.
    // So nobody links two cards of others, nor another player's card to the inspiration card.
    if oa != Some(me) && ob != Some(me) {
        return Err(Error::invalid(
            "card",
            "link a card of your own: another player's card is linked by its owner when they play it",
        ));
    }
    let newly = deck.players[me].newly_active();
    let is_newly = |c: Uuid, o: Option<usize>| o == Some(me) && newly == Some(c);
    if !is_newly(card, oa) && !is_newly(to, ob) {
        return Err(Error::invalid(
            "card",
            "only a newly active card links: the card you played last, while it is active",
        ));
    }
    if oa.is_some() && oa == ob {
        let others_hold = deck.players.iter().enumerate().any(|(i, h)| i != me && h.owns_cards());
        if others_hold {
            return Err(Error::invalid(
                "to",
                "your own cards link to each other only while no other player holds cards",
            ));
        }
    }
    if deck.links.iter().any(|l| l.joins(card, to)) {
        return Err(Error::invalid("to", "these two cards are already linked"));
    }
    let mut next = deck.clone();
    next.close_windows();
    let mut earned = Vec::new();
    for p in [a, b] {
        if let InPlay::Owned { holder, index } = p {
            let active = &mut next.players[holder].active[index];
            if !active.linked {
                active.linked = true;
                let player = next.players[holder].player;
                earned.push(Grant {
                    to: player,
                    resource: Resource::Influence,
                    amount: i64::from(LINK_INFLUENCE),
                    stake: false,
                });
            }
        }
    }
    next.links.push(Link { by, card, to });
    let event = SeedEvent::Linked { by, card, to, earned: earned.clone() };
    Ok((next, earned, vec![event]))
}

/// A scene or challenge ends: every player may refresh once.
pub fn end_of(deck: &SeedDeck, ending: Ending) -> Dealt {
    let mut next = deck.clone();
    next.initial_draw = false;
    next.refresh = deck.players.iter().map(|h| h.player).collect();
    (next, Vec::new(), vec![SeedEvent::Ended { ending }])
}

/// At the end of a scene or challenge `player` surrenders one of their cards (hand, active
/// or depleted) to the discard pile and, if `draw`, draws one into the hand.
pub fn refresh<R: Rng + ?Sized>(deck: &SeedDeck, player: Uuid, card: Uuid, draw: bool, rng: &mut R) -> Result<Dealt> {
    let h = deck.holder(player, "player")?;
    let Some(slot) = deck.refresh.iter().position(|p| *p == player) else {
        return Err(Error::invalid(
            "player",
            "refreshes once, at the end of a scene or challenge, before play goes on",
        ));
    };
    let mut next = deck.clone();
    let holding = &mut next.players[h];
    let c = if let Some(c) = holding.take_from_play(card) {
        c
    } else if let Some(i) = holding.depleted.iter().position(|c| c.id == card) {
        holding.depleted.remove(i)
    } else {
        return Err(Error::invalid("card", format!("{card} is not one of the player's cards")));
    };
    next.discard.push(c);
    next.unlink(card);
    next.refresh.remove(slot);
    let mut events = Vec::new();
    let drawn = if draw {
        let c = next.draw(rng, &mut events).ok_or_else(|| Error::invalid("draw", "no card is left to draw"))?;
        let id = c.id;
        next.players[h].hand.push(c);
        Some(id)
    } else {
        None
    };
    events.push(SeedEvent::Refreshed { player, discarded: card, drawn });
    Ok((next, Vec::new(), events))
}

/// `by` draws inspiration: the top card is shown to all.
pub fn draw_inspiration<R: Rng + ?Sized>(deck: &SeedDeck, by: Uuid, rng: &mut R) -> Result<Dealt> {
    deck.holder(by, "by")?;
    if let Some(c) = &deck.shown {
        return Err(Error::invalid("shown", format!("“{}” is shown already: play or discard it first", c.text)));
    }
    if deck.drawable() == 0 {
        return Err(Error::invalid("draw_pile", "no card is left to draw"));
    }
    let mut next = deck.clone();
    next.close_windows();
    let mut events = Vec::new();
    let card = next.draw(rng, &mut events).ok_or_else(|| Error::invalid("draw_pile", "no card is left to draw"))?;
    next.shown = Some(card.clone());
    events.push(SeedEvent::InspirationShown { by, card });
    Ok((next, Vec::new(), events))
}

/// The shown inspiration card's idea made it into the game (`played`): it becomes the
/// inspiration card, the previous one discarded; or it did not, and it is discarded.
pub fn settle_inspiration(deck: &SeedDeck, played: bool) -> Result<Dealt> {
    let mut next = deck.clone();
    let card = next.shown.take().ok_or_else(|| Error::invalid("shown", "no inspiration card is shown"))?;
    let id = card.id;
    let event = if played {
        let replaced = next.inspiration.replace(card);
        let replaced_id = replaced.as_ref().map(|c| c.id);
        if let Some(old) = replaced {
            next.unlink(old.id);
            next.discard.push(old);
        }
        SeedEvent::InspirationPlayed { card: id, replaced: replaced_id }
    } else {
        next.discard.push(card);
        SeedEvent::InspirationDiscarded { card: id }
    };
    Ok((next, Vec::new(), vec![event]))
}

/// The dice variant: a keyword for each face of a chosen die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeywordDie {
    pub sides: u8,
    /// The keyword of face 1, face 2, …
    pub keywords: Vec<String>,
}

/// A keyword "drawn" by a roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeywordDraw {
    pub player: Uuid,
    pub face: u8,
    pub keyword: String,
}

impl KeywordDie {
    /// A die of `sides` faces (4, 6, 8, 10, 12 or 20) with one keyword per face.
    pub fn new(sides: u8, keywords: &[String]) -> Result<KeywordDie> {
        if !KEYWORD_DICE.contains(&sides) {
            return Err(Error::invalid(
                "sides",
                format!("a d{sides} is not one of the dice d4, d6, d8, d10, d12, d20"),
            ));
        }
        if keywords.len() != usize::from(sides) {
            return Err(Error::invalid(
                "keywords",
                format!("a d{sides} needs {sides} keywords, one per face; {} given", keywords.len()),
            ));
        }
        let keywords = keywords
            .iter()
            .enumerate()
            .map(|(i, k)| clean_line(&format!("keywords[{i}]"), k, MAX_CARD_CHARS))
            .collect::<Result<Vec<_>>>()?;
        Ok(KeywordDie { sides, keywords })
    }

    /// `player` "draws a card": the die is rolled and its face's keyword is theirs.
    pub fn draw(&self, player: Uuid, dice: &mut dyn DiceSource) -> Result<KeywordDraw> {
        if usize::from(self.sides) != self.keywords.len() || self.sides == 0 {
            return Err(Error::invalid("keywords", "the die needs one keyword per face"));
        }
        let face = dice.roll(self.sides, "keyword die")?;
        let keyword = self.keywords[usize::from(face) - 1].clone();
        Ok(KeywordDraw { player, face, keyword })
    }
}

/// Whether a player's own view reads `player`'s hand (their cards in hand and face down, and
/// their influence): `mine` are the ids the viewer is — the players they sit as and the
/// characters they play. Their own seat always does, with or without a claimed character;
/// so does playing a character `player` claimed (the claimer's device before they sat).
/// Nobody else's does: the table's side and everyone see no hand at all.
pub fn sees_hand(player: Uuid, mine: &[Uuid], elements: &[Element]) -> bool {
    mine.contains(&player) || elements.iter().any(|e| e.claimed_by == Some(player) && mine.contains(&e.id))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::rules::dice::Entered;
    use crate::rules::test_support::{id, ADA, BO, CY};

    fn cards(n: u128) -> Vec<Card> {
        (1..=n).map(|k| Card { id: id(100 + k), text: format!("idea {k}") }).collect()
    }

    fn rng() -> StdRng {
        StdRng::seed_from_u64(7)
    }

    fn field(err: Error) -> String {
        match err {
            Error::Invalid { field, .. } => field,
            other => panic!("not an invalid-input error: {other}"),
        }
    }

    /// A deck of `n` cards for Ada, Bo and Cy, session 1 started.
    fn deck(n: u128) -> SeedDeck {
        let d = build(&cards(n), &[ADA, BO, CY], &mut rng()).unwrap().0;
        start_session(&d, 1).0
    }

    fn hand(d: &SeedDeck, p: Uuid) -> Vec<Uuid> {
        d.holding(p).unwrap().hand.iter().map(|c| c.id).collect()
    }

    /// Each player buys `k` cards.
    fn dealt(n: u128, k: u32) -> SeedDeck {
        let mut d = deck(n);
        let mut r = rng();
        for p in [ADA, BO, CY] {
            d = buy_cards(&d, p, k, 3, &mut r).unwrap().0;
        }
        d
    }

    fn sorted(d: &SeedDeck) -> Vec<Card> {
        let mut all: Vec<Card> = d.all_cards().into_iter().cloned().collect();
        all.sort();
        all
    }

    #[test]
    fn a_deck_holds_at_most_1000_cards_and_its_problems_are_found_in_one_pass() {
        let d = build(&cards(MAX_CARDS as u128), &[ADA, BO, CY], &mut rng()).unwrap().0;
        assert_eq!(d.problems(), vec![]);
        let more = [Card { id: id(5_000), text: "one more".into() }];
        assert!(add_cards(&d, &more, &mut rng())
            .unwrap_err()
            .to_string()
            .starts_with("cards: a deck holds at most 1000"));
        let mut big = d.clone();
        big.draw_pile.extend((0..100_000).map(|k| Card { id: id(10_000 + k), text: "x".into() }));
        let problems = big.problems();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].message, "101000 cards; a deck holds at most 1000");
        // Many players listed once each: no pairwise comparison.
        let mut crowd = d.clone();
        crowd.players.extend((0..100_000).map(|k| Holding::new(id(20_000 + k))));
        assert_eq!(crowd.problems(), vec![]);
    }

    #[test]
    fn a_deck_needs_three_cards_per_player() {
        assert_eq!(field(build(&cards(8), &[ADA, BO, CY], &mut rng()).unwrap_err()), "cards");
        let (d, grants, events) = build(&cards(9), &[ADA, BO, CY], &mut rng()).unwrap();
        assert!(grants.is_empty());
        assert_eq!(events, vec![SeedEvent::DeckBuilt { cards: 9, players: 3 }]);
        assert_eq!(d.draw_pile.len(), 9);
        assert_ne!(d.draw_pile, cards(9), "the deck is shuffled");
        assert_eq!(d, build(&cards(9), &[ADA, BO, CY], &mut rng()).unwrap().0, "with the RNG passed in");
        assert_eq!(field(build(&cards(9), &[], &mut rng()).unwrap_err()), "players");
        assert_eq!(field(build(&cards(9), &[ADA, ADA], &mut rng()).unwrap_err()), "players[1]");
        let mut twice = cards(9);
        twice[4].id = twice[0].id;
        assert_eq!(field(build(&twice, &[ADA], &mut rng()).unwrap_err()), "cards[4].id");
        let mut blank = cards(9);
        blank[2].text = " \t".into();
        assert_eq!(field(build(&blank, &[ADA], &mut rng()).unwrap_err()), "cards[2].text");

        // A fourth player needs 12 cards.
        let d = deck(9);
        assert_eq!(field(add_player(&d, id(4)).unwrap_err()), "cards");
        assert_eq!(field(add_player(&d, ADA).unwrap_err()), "player");
        let more = vec![
            Card { id: id(200), text: "a storm".into() },
            Card { id: id(201), text: "a debt".into() },
            Card { id: id(202), text: "a ghost".into() },
        ];
        let (d, _, _) = add_cards(&d, &more, &mut rng()).unwrap();
        assert_eq!(d.draw_pile.len(), 12);
        assert_eq!(field(add_cards(&d, &more[..1], &mut rng()).unwrap_err()), "cards[0].id");
        assert_eq!(add_player(&d, id(4)).unwrap().0.players.len(), 4);
    }

    #[test]
    fn the_initial_draw_costs_one_influence_a_card_at_the_start_of_a_session() {
        let built = build(&cards(9), &[ADA, BO, CY], &mut rng()).unwrap().0;
        assert_eq!(field(buy_cards(&built, ADA, 1, 3, &mut rng()).unwrap_err()), "initial_draw");
        let d = deck(9);
        let top: Vec<Uuid> = d.draw_pile.iter().rev().take(2).map(|c| c.id).collect();
        let (d, grants, _) = buy_cards(&d, ADA, 2, 3, &mut rng()).unwrap();
        assert_eq!(grants, vec![Grant { to: ADA, resource: Resource::Influence, amount: -2, stake: false }]);
        assert_eq!(hand(&d, ADA), top, "drawn from the top");
        assert_eq!(field(buy_cards(&d, BO, 2, 1, &mut rng()).unwrap_err()), "has");
        assert_eq!(field(buy_cards(&d, BO, 0, 1, &mut rng()).unwrap_err()), "count");
        assert_eq!(field(buy_cards(&d, BO, 8, 9, &mut rng()).unwrap_err()), "count");
        assert_eq!(field(buy_cards(&d, id(9), 1, 3, &mut rng()).unwrap_err()), "player");
        let (d, _, _) = buy_cards(&d, ADA, 1, 1, &mut rng()).unwrap();
        assert_eq!(hand(&d, ADA).len(), 3, "several goes while the draw is open");
        let (d, _, _) = play(&d, ADA, hand(&d, ADA)[0]).unwrap();
        assert_eq!(field(buy_cards(&d, BO, 1, 3, &mut rng()).unwrap_err()), "initial_draw");
        assert!(start_session(&d, 2).0.initial_draw);
    }

    #[test]
    fn an_initial_draw_left_open_closes_when_its_session_ends() {
        let d = deck(9);
        assert!(d.initial_draw);
        let (ended, grants, _) = end_session(&d);
        assert!(!ended.initial_draw);
        assert!(grants.is_empty());
        assert_eq!(field(buy_cards(&ended, ADA, 1, 3, &mut rng()).unwrap_err()), "initial_draw");
        assert_eq!(ended.players, d.players, "hands stay from one session to the next");
    }

    #[test]
    fn played_cards_become_active_and_unused_ideas_are_depleted() {
        let d = dealt(12, 2);
        let [a1, a2] = [hand(&d, ADA)[0], hand(&d, ADA)[1]];
        assert_eq!(field(play(&d, ADA, hand(&d, BO)[0]).unwrap_err()), "card");
        let (d, _, events) = play(&d, ADA, a1).unwrap();
        assert_eq!(events, vec![SeedEvent::Played { player: ADA, card: a1 }]);
        let ada = d.holding(ADA).unwrap();
        assert_eq!(
            ada.active,
            vec![ActiveCard { card: Card { id: a1, text: ada.active[0].card.text.clone() }, linked: false }]
        );
        let (d, _, _) = deplete(&d, ADA, a2).unwrap();
        let (d, _, _) = deplete(&d, ADA, a1).unwrap();
        let ada = d.holding(ADA).unwrap();
        assert!(ada.hand.is_empty() && ada.active.is_empty());
        assert_eq!(ada.depleted.iter().map(|c| c.id).collect::<Vec<_>>(), vec![a2, a1]);
        assert_eq!(field(deplete(&d, ADA, a1).unwrap_err()), "card");
    }

    #[test]
    fn a_card_earns_its_owner_one_influence_the_first_time_it_is_linked() {
        let mut d = dealt(12, 2);
        let (a, b, c) = (hand(&d, ADA), hand(&d, BO), hand(&d, CY));
        for (p, card) in [(BO, b[0]), (CY, c[0]), (ADA, a[0])] {
            d = play(&d, p, card).unwrap().0;
        }
        let plus = |to: Uuid| Grant { to, resource: Resource::Influence, amount: 1, stake: false };
        // Ada builds her newly active card on Bo's: both are linked for the first time.
        let (d, grants, _) = link(&d, ADA, a[0], b[0]).unwrap();
        assert_eq!(grants, vec![plus(ADA), plus(BO)]);
        assert!(d.holding(ADA).unwrap().active[0].linked);
        // Ada's card again, to Cy's: only Cy's card is new.
        let (d, grants, _) = link(&d, ADA, a[0], c[0]).unwrap();
        assert_eq!(grants, vec![plus(CY)]);
        // The same pair again; a card in hand; two other players' cards; a card to itself.
        assert_eq!(field(link(&d, BO, b[0], a[0]).unwrap_err()), "to");
        assert_eq!(field(link(&d, BO, b[1], a[0]).unwrap_err()), "card");
        assert_eq!(field(link(&d, ADA, b[0], c[0]).unwrap_err()), "card");
        assert_eq!(field(link(&d, ADA, a[0], a[0]).unwrap_err()), "to");
        // Ada plays her second card, Cy his: her first is not newly active any more.
        let d = play(&play(&d, ADA, a[1]).unwrap().0, CY, c[1]).unwrap().0;
        assert_eq!(
            link(&d, ADA, a[0], c[1]).unwrap_err().to_string(),
            "card: only a newly active card links: the card you played last, while it is active"
        );
        // Her own two cards while others hold cards.
        assert_eq!(field(link(&d, ADA, a[1], a[0]).unwrap_err()), "to");
        // Bo links his card (the one he played last) to Ada's second: only Ada's second earns.
        let (_, grants, _) = link(&d, BO, b[0], a[1]).unwrap();
        assert_eq!(grants, vec![plus(ADA)]);
    }

    #[test]
    fn the_only_player_holding_cards_links_their_own() {
        let mut d = deck(9);
        d = buy_cards(&d, ADA, 3, 3, &mut rng()).unwrap().0;
        let a = hand(&d, ADA);
        d = play(&play(&d, ADA, a[0]).unwrap().0, ADA, a[1]).unwrap().0;
        let (_, grants, _) = link(&d, ADA, a[0], a[1]).unwrap();
        assert_eq!(grants.iter().map(|g| (g.to, g.amount)).collect::<Vec<_>>(), vec![(ADA, 1), (ADA, 1)]);
    }

    #[test]
    fn the_inspiration_card_is_shown_to_all_and_replaces_the_last_one() {
        let d = dealt(12, 1);
        let top = d.draw_pile.last().unwrap().clone();
        let (d, _, events) = draw_inspiration(&d, BO, &mut rng()).unwrap();
        assert_eq!(events, vec![SeedEvent::InspirationShown { by: BO, card: top.clone() }]);
        assert_eq!(d.shown, Some(top.clone()));
        assert_eq!(field(draw_inspiration(&d, BO, &mut rng()).unwrap_err()), "shown");
        let (d, _, _) = settle_inspiration(&d, true).unwrap();
        assert_eq!(d.inspiration, Some(top.clone()));
        assert_eq!(field(settle_inspiration(&d, true).unwrap_err()), "shown");

        // Ada links her card to the inspiration card: she earns, the card has no owner.
        let a = hand(&d, ADA)[0];
        let d = play(&d, ADA, a).unwrap().0;
        let (d, grants, _) = link(&d, ADA, a, top.id).unwrap();
        assert_eq!(grants.iter().map(|g| g.to).collect::<Vec<_>>(), vec![ADA]);
        // Cy may not link Bo's card to the inspiration card: that is Bo's to do (DEV-11).
        let b = hand(&d, BO)[0];
        let d = play(&d, BO, b).unwrap().0;
        assert_eq!(
            link(&d, CY, top.id, b).unwrap_err().to_string(),
            "card: link a card of your own: another player's card is linked by its owner when they play it"
        );
        // Bo links it, either way round: his card earns.
        let (d, grants, _) = link(&d, BO, top.id, b).unwrap();
        assert_eq!(grants.iter().map(|g| g.to).collect::<Vec<_>>(), vec![BO]);

        // A new inspiration replaces it; its links go with it.
        let next = d.draw_pile.last().unwrap().clone();
        let (d, _, _) = draw_inspiration(&d, CY, &mut rng()).unwrap();
        let (d, _, events) = settle_inspiration(&d, true).unwrap();
        assert_eq!(events, vec![SeedEvent::InspirationPlayed { card: next.id, replaced: Some(top.id) }]);
        assert_eq!(d.discard.last(), Some(&top));
        assert!(d.links.is_empty());
        // One that does not make it into the game is discarded.
        let third = d.draw_pile.last().unwrap().clone();
        let (d, _, _) = draw_inspiration(&d, CY, &mut rng()).unwrap();
        let (d, _, _) = settle_inspiration(&d, false).unwrap();
        assert_eq!(d.inspiration, Some(next));
        assert_eq!(d.discard.last(), Some(&third));
        assert!(d.shown.is_none());
    }

    #[test]
    fn each_player_refreshes_once_at_the_end_of_a_scene_or_challenge() {
        let d = dealt(12, 2);
        let a = hand(&d, ADA);
        let d = deplete(&d, ADA, a[0]).unwrap().0;
        assert_eq!(field(refresh(&d, ADA, a[0], true, &mut rng()).unwrap_err()), "player");
        let (d, _, _) = end_of(&d, Ending::Challenge);
        let top = d.draw_pile.last().unwrap().id;
        let (d, grants, events) = refresh(&d, ADA, a[0], true, &mut rng()).unwrap();
        assert!(grants.is_empty());
        assert_eq!(events, vec![SeedEvent::Refreshed { player: ADA, discarded: a[0], drawn: Some(top) }]);
        assert_eq!(hand(&d, ADA), vec![a[1], top]);
        assert_eq!(d.discard.last().unwrap().id, a[0]);
        assert_eq!(field(refresh(&d, ADA, a[1], true, &mut rng()).unwrap_err()), "player");
        assert_eq!(field(refresh(&d, BO, a[1], true, &mut rng()).unwrap_err()), "card");
        let b = hand(&d, BO)[0];
        let (d, _, _) = refresh(&d, BO, b, false, &mut rng()).unwrap();
        assert_eq!(hand(&d, BO).len(), 1, "drawing is a choice");
        // Play goes on: Cy's chance is gone.
        let d = play(&d, ADA, a[1]).unwrap().0;
        assert_eq!(field(refresh(&d, CY, hand(&d, CY)[0], true, &mut rng()).unwrap_err()), "player");
    }

    #[test]
    fn an_empty_draw_pile_is_refilled_from_the_discard_pile() {
        let mut d = dealt(9, 3);
        assert!(d.draw_pile.is_empty());
        assert_eq!(field(draw_inspiration(&d, ADA, &mut rng()).unwrap_err()), "draw_pile");
        let a = hand(&d, ADA);
        d = end_of(&d, Ending::Scene).0;
        d = refresh(&d, ADA, a[0], false, &mut rng()).unwrap().0;
        d = refresh(&d, BO, hand(&d, BO)[0], false, &mut rng()).unwrap().0;
        let (d, _, events) = draw_inspiration(&d, CY, &mut rng()).unwrap();
        assert_eq!(events[0], SeedEvent::Reshuffled { cards: 2 });
        assert_eq!(d.discard.len(), 0);
        assert_eq!(d.draw_pile.len(), 1);
        assert_eq!(sorted(&d), sorted(&dealt(9, 3)));
    }

    #[test]
    fn the_dice_variant_gives_the_keyword_of_the_rolled_face() {
        let words: Vec<String> = ["storm", "debt", "ghost", "crown", "river", "oath"].map(String::from).to_vec();
        assert_eq!(field(KeywordDie::new(7, &words).unwrap_err()), "sides");
        assert_eq!(field(KeywordDie::new(6, &words[..5]).unwrap_err()), "keywords");
        let mut blank = words.clone();
        blank[3] = "".into();
        assert_eq!(field(KeywordDie::new(6, &blank).unwrap_err()), "keywords[3]");
        let die = KeywordDie::new(6, &words).unwrap();
        let mut dice = Entered::new([4, 1, 6, 9]);
        let got: Vec<String> = (0..3).map(|_| die.draw(ADA, &mut dice).unwrap().keyword).collect();
        assert_eq!(got, vec!["crown", "storm", "oath"]);
        assert_eq!(field(die.draw(ADA, &mut dice).unwrap_err()), "keyword die");
        let mut r = rng();
        let mut rolled = crate::rules::dice::Rolled(&mut r);
        let draw = die.draw(BO, &mut rolled).unwrap();
        assert_eq!(words[usize::from(draw.face) - 1], draw.keyword);
    }

    #[test]
    fn decks_round_trip_and_refuse_unknown_fields() {
        let mut d = dealt(12, 2);
        let a = hand(&d, ADA)[0];
        let b = hand(&d, BO)[0];
        d = play(&play(&d, ADA, a).unwrap().0, BO, b).unwrap().0;
        d = link(&d, ADA, a, b).unwrap().0;
        assert!(d.problems().is_empty());
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(serde_json::from_value::<SeedDeck>(json.clone()).unwrap(), d);
        let mut bad = json;
        bad["players"][0]["extra"] = serde_json::json!(true);
        assert!(serde_json::from_value::<SeedDeck>(bad).is_err());
        let mut twice = d.clone();
        twice.discard.push(twice.draw_pile[0].clone());
        assert_eq!(twice.problems().len(), 1);
    }

    /// One random move by a random player with a random card; errors are allowed.
    fn random_move(d: &SeedDeck, r: &mut StdRng) -> Result<Dealt> {
        let players = [ADA, BO, CY, id(9)];
        let p = players[r.random_range(0..players.len())];
        let all: Vec<Uuid> = d.all_cards().iter().map(|c| c.id).chain([id(999)]).collect();
        let card = all[r.random_range(0..all.len())];
        let to = all[r.random_range(0..all.len())];
        match r.random_range(0..11) {
            0 => Ok(start_session(d, 1)),
            1 => buy_cards(d, p, r.random_range(0..4), r.random_range(0..4), r),
            2 | 3 => {
                // Prefer a card in the player's hand so that play goes somewhere.
                let card = d.holding(p).and_then(|h| h.hand.first()).map_or(card, |c| c.id);
                play(d, p, card)
            }
            4 => deplete(d, p, card),
            5 | 6 => link(d, p, card, to),
            7 => Ok(end_of(d, Ending::Scene)),
            8 => refresh(d, p, card, r.random_bool(0.7), r),
            9 => draw_inspiration(d, p, r),
            _ => settle_inspiration(d, r.random_bool(0.5)),
        }
    }

    /// The random moves above reach every kind of deck move, so the property covers them.
    #[test]
    fn random_moves_reach_every_kind_of_move() {
        let mut seen = BTreeSet::new();
        for seed in 0..200u64 {
            let mut r = StdRng::seed_from_u64(seed);
            let mut d = build(&cards(9 + u128::from(seed % 6)), &[ADA, BO, CY], &mut r).unwrap().0;
            for _ in 0..120 {
                if let Ok((next, _, events)) = random_move(&d, &mut r) {
                    for e in events {
                        seen.insert(serde_json::to_value(&e).unwrap()["event"].as_str().unwrap().to_owned());
                    }
                    d = next;
                }
            }
        }
        for wanted in [
            "session_started",
            "reshuffled",
            "bought",
            "played",
            "depleted",
            "linked",
            "ended",
            "refreshed",
            "inspiration_shown",
            "inspiration_played",
            "inspiration_discarded",
        ] {
            assert!(seen.contains(wanted), "no {wanted} in {seen:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Whatever is played, bought, linked, refreshed or drawn, the deck, the hands, the
        /// active and depleted cards, the discard pile and the inspiration cards hold the same
        /// cards; every link joins two cards in play; a card earns at most one influence
        /// while it stays in play; buying costs exactly what it draws.
        #[test]
        fn cards_are_conserved(seed in any::<u64>(), n in 9u128..20, steps in 1usize..120) {
            let mut r = StdRng::seed_from_u64(seed);
            let mut d = build(&cards(n), &[ADA, BO, CY], &mut r).unwrap().0;
            let start = sorted(&d);
            for _ in 0..steps {
                let before = d.clone();
                match random_move(&d, &mut r) {
                    Ok((next, grants, events)) => {
                        prop_assert_eq!(sorted(&next), start.clone());
                        prop_assert!(next.problems().is_empty(), "{:?}", next.problems());
                        for e in &events {
                            match e {
                                SeedEvent::Linked { earned, .. } => {
                                    prop_assert!(earned.len() <= 2);
                                    prop_assert!(earned.iter().all(|g| g.amount == 1));
                                }
                                SeedEvent::Bought { cards, paid, .. } => {
                                    prop_assert_eq!(paid.amount, -(cards.len() as i64));
                                }
                                _ => {}
                            }
                        }
                        let marked = |deck: &SeedDeck| -> usize {
                            deck.players.iter().flat_map(|h| &h.active).filter(|a| a.linked).count()
                        };
                        match events.last() {
                            Some(SeedEvent::Linked { earned, .. }) => {
                                prop_assert_eq!(marked(&next), marked(&before) + earned.len());
                                prop_assert_eq!(&grants, earned);
                            }
                            Some(SeedEvent::Bought { paid, .. }) => prop_assert_eq!(&grants, &vec![*paid]),
                            _ => prop_assert!(grants.is_empty()),
                        }
                        d = next;
                    }
                    Err(e) => prop_assert!(matches!(e, Error::Invalid { .. }), "{}", e),
                }
            }
        }
    }

    /// DEV-1: a player who claims no character still reads their own hand on their own view;
    /// a claimed character's player reads its claimer's; nobody reads another player's.
    #[test]
    fn a_player_reads_their_own_hand_with_or_without_a_claim() {
        use crate::rules::mezzo::element::ElementKind;
        use crate::rules::test_support::mezzo::{element, MIRA};
        let mut mira = element(MIRA, ElementKind::Character, "Mira");
        mira.claimed_by = Some(ADA);
        let elements = [mira, element(11, ElementKind::Character, "Tomas")];
        // Bo sits at his own device with no character claimed: his hand is his.
        assert!(sees_hand(BO, &[BO], &elements));
        assert!(!sees_hand(ADA, &[BO], &elements), "Ada's hand is not Bo's to read");
        assert!(!sees_hand(CY, &[BO], &elements));
        // Ada plays Mira, whom she claimed: her hand, through the claim or her own seat.
        assert!(sees_hand(ADA, &[id(MIRA)], &elements));
        assert!(sees_hand(ADA, &[ADA], &elements));
        // Playing the unclaimed Tomas reads nobody's hand; a view of no ids reads none.
        assert!(!sees_hand(BO, &[id(11)], &elements));
        assert!(!sees_hand(ADA, &[], &elements));
    }
}
