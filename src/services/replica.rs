//! A game as a file document for one viewer: what a linked table sends to a joined device.
//!
//! The document is the game's own file (kind "game", as an export writes it) with what the
//! viewer may not see taken out, the same secrets the views leave out (RULES.md, and
//! ARCHITECTURE.md "Secrets live in the core"). What is taken out is replaced, where the
//! file format needs something there, by a neutral stand-in that still validates, so the
//! document parses and imports like any file.
//!
//! A joined device keeps every document it was sent (its event log holds each import's
//! before and after), so a stand-in must not be traceable through that history either: a
//! face-down thing never carries an id or an order that an earlier document showed with its
//! face. A face-down card's id is a stand-in id ([`StandIns`]), made from where the card
//! lies (its place, whose it is, its position there) and the viewer, with a key only the
//! host holds; never from the card. The same spot gets the same id in every document (an
//! unchanged game gives the same document, which the host does not send again), and a card
//! that moves keeps no id: one shuffled from the discard pile into the draw pile, or dealt
//! from the authors' hands onto the map, cannot be followed there. What stays is what any
//! real table shows: how many cards lie in each pile, hand and row, where a map card's back
//! lies, how many dice a side rolls, the House's pile.
//!
//! - **Penny Ante.** Without the table's secrets: an antagonist's hidden characteristics
//!   (left off its sheet; where a side used one, its text reads "a hidden characteristic",
//!   as the view says), its purse and the ledger entries that fund it or take it back (the
//!   House's pile stays what it is: the pennies the House put into purses, less what it
//!   took back, leave it as one entry to the Bank at the end of the ledger; an antagonist
//!   whose pennies in play would leave its purse below 0 gets just enough for 0), and what
//!   an anonymous side devoted (the ante, or what the side paid in if more). For every
//!   viewer but a device passed around: the dice of a side whose cup the viewer may not
//!   see, while they are not on the table (all of them before the cup is chosen, those in
//!   the cup after; a hidden die reads 1 at its own position), and the cup itself before it
//!   is chosen. Once the challenge is over, its dice are everyone's, as the view shows
//!   them, but after a fold the dice still in a cup stay hidden (RULES §2.3).
//!   Nothing here has an id of its own: dice are known by position, which says nothing of
//!   a face, and the purses' entries are gone, not renamed.
//! - **Mezzo.** The cards of the hands the viewer may not see, every player's depleted
//!   (face-down) cards but the viewer's own, and the cards of the draw pile, which nobody
//!   sees, keep their count but read "Face-down card" under a stand-in id; their real ids
//!   are nowhere in the document (links join face-up cards only). A card that leaves such
//!   a place face up, or into the viewer's own hand, arrives with its real id and face.
//! - **No Stone Unturned.** A sheet's private rumours and notes (audit D10), on every
//!   character the viewer does not play (`character_for`).
//! - **No Stone Unturned.** A face-down card on the map that none of the viewer's
//!   characters scouted or wrote keeps its back (its levels, clock, place and scouts) and is
//!   named "Face-down card", with no author, no text and no scene details, under a stand-in
//!   id of its cell (of its rank among such cards while it waits to be dealt); the paths
//!   that touch it name that id.
//! - **Scattershot's Mechanix** keeps nothing from anyone.
//! - **The campaign journal** (every system): a session's lines for the table's eyes only
//!   (Penny Ante's House readying its antagonists, in words) are left out.

use std::collections::HashMap;

use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::transfer::{document, ExportScope};
use super::viewer::Viewer;
use crate::error::Result;
use crate::exchange::{Document, GameEntry};
use crate::rules::mezzo::seed_deck::{Card, SeedDeck};
use crate::rules::nsu::world::World;
use crate::rules::penny_ante::challenge::{Phase, Side, SideState};
use crate::rules::penny_ante::ledger::{Account, Entry, Reason, MAX_ENTRY};
use crate::rules::penny_ante::table::PennyTable;
use crate::rules::record::CharacterRecord;
use crate::store::Reader;

/// What a face-down card (a Mezzo seed card, an NSU map card) reads in a redacted document.
pub const FACE_DOWN: &str = "Face-down card";
/// What a Penny Ante side's use of a hidden characteristic reads without the table's secrets.
pub const HIDDEN_CHARACTERISTIC: &str = "a hidden characteristic";
/// The face a die the viewer may not see shows in a redacted document.
pub const HIDDEN_DIE: u8 = 1;

/// The game `game` as a file document (kind "game", like an export) redacted for `viewer`:
/// what that viewer may not see is not in it, and it still validates and imports.
pub fn game_document_for(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<Document> {
    let mut doc = document(read, ExportScope::Game(game))?;
    if *viewer == Viewer::PassedAround {
        return Ok(doc);
    }
    let ids = StandIns::new(read, game, viewer)?;
    for entry in &mut doc.games {
        redact_entry(read, entry, viewer, &ids)?;
    }
    Ok(doc)
}

/// A character as `viewer` may see it: an NSU sheet's private rumours and notes only for
/// the character's player (audit D10). Every other part of a character is the table's.
pub(super) fn character_for(record: &CharacterRecord, viewer: &Viewer) -> CharacterRecord {
    match &record.nsu {
        Some(sheet) if sheet.has_private() && !viewer.sees_character(record.character.id) => {
            CharacterRecord { nsu: Some(sheet.without_private()), ..record.clone() }
        }
        _ => record.clone(),
    }
}

fn redact_entry(read: Reader<'_>, entry: &mut GameEntry, viewer: &Viewer, ids: &StandIns) -> Result<()> {
    if let Some(journal) = entry.journal.as_mut() {
        super::journal::without_table_lines(journal, viewer);
    }
    for c in &mut entry.characters {
        *c = character_for(c, viewer);
    }
    if let Some(world) = entry.nsu_world.as_mut() {
        redact_world(world, viewer, ids);
    }
    if let Some(table) = entry.penny_table.as_mut() {
        redact_penny(table, viewer);
    }
    if let Some(deck) = entry.mezzo_table.as_mut().and_then(|t| t.deck.as_mut()) {
        let holders = super::mezzo::plot::hand_holders_for(read, entry.game.id, viewer)?;
        redact_deck(deck, &holders, ids);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Stand-in ids

/// Where a face-down thing lies, as its stand-in id is made from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    /// Mezzo: the draw pile, by position (the bottom card is 0).
    DrawPile(usize),
    /// Mezzo: a player's hand, by position.
    Hand(Uuid, usize),
    /// Mezzo: a player's depleted cards, by position.
    Depleted(Uuid, usize),
    /// NSU: a card on the map, by its cell.
    Cell(i16, i16),
    /// NSU: a card waiting to be dealt, by its rank among those the viewer does not read.
    Undealt(usize),
}

impl Spot {
    /// The spot as bytes of one fixed length: a tag, a player (or nil), two numbers.
    fn bytes(self) -> [u8; 33] {
        let (tag, holder, a, b) = match self {
            Spot::DrawPile(i) => (1, Uuid::nil(), i as i64, 0),
            Spot::Hand(p, i) => (2, p, i as i64, 0),
            Spot::Depleted(p, i) => (3, p, i as i64, 0),
            Spot::Cell(x, y) => (4, Uuid::nil(), i64::from(x), i64::from(y)),
            Spot::Undealt(i) => (5, Uuid::nil(), i as i64, 0),
        };
        let mut out = [0u8; 33];
        out[0] = tag;
        out[1..17].copy_from_slice(holder.as_bytes());
        out[17..25].copy_from_slice(&a.to_be_bytes());
        out[25..33].copy_from_slice(&b.to_be_bytes());
        out
    }
}

/// Ids for what a document shows only the back of. A stand-in is SHA-256 over a key (from
/// the host's own link private key, which never leaves it), the game, the viewer and the
/// [`Spot`], cut to a UUID (version 4 bits set): the same spot gives the same id in every
/// document for that device, and no card gives its id to anything. Nothing about the card
/// goes in, so even a device that knew the key would learn only the spot, which it sees
/// anyway; the key keeps the ids from being worked out ahead (without a link identity, as
/// when a test or a tool asks, there is no key and the ids are only unlinkable).
struct StandIns {
    seed: [u8; 32],
}

/// Names what the hash is for, so no other use of the same key can give the same bytes.
const STAND_IN_LABEL: &[u8] = b"sheetkeeper stand-in ids for a redacted document, v1\0";

impl StandIns {
    fn new(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<StandIns> {
        let secret = read.link_identity()?.map(|i| i.private_key).unwrap_or_default();
        Ok(StandIns::keyed(&secret, game, viewer))
    }

    fn keyed(secret: &[u8], game: Uuid, viewer: &Viewer) -> StandIns {
        let mut h = Sha256::new();
        h.update(STAND_IN_LABEL);
        h.update((secret.len() as u64).to_be_bytes());
        h.update(secret);
        h.update(game.as_bytes());
        match viewer {
            Viewer::Player(mine) => {
                // A set: the order the host lists a device's characters in is no part of it.
                let mut mine = mine.clone();
                mine.sort_unstable();
                mine.dedup();
                h.update(b"p");
                h.update((mine.len() as u64).to_be_bytes());
                for id in &mine {
                    h.update(id.as_bytes());
                }
            }
            Viewer::Table => h.update(b"t"),
            Viewer::Everyone => h.update(b"e"),
            Viewer::PassedAround => h.update(b"a"),
        }
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&h.finalize());
        StandIns { seed }
    }

    fn id(&self, spot: Spot) -> Uuid {
        let digest = Sha256::new().chain_update(self.seed).chain_update(spot.bytes()).finalize();
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&digest[..16]);
        uuid::Builder::from_random_bytes(bytes).into_uuid()
    }
}

// ---------------------------------------------------------------------------------------
// No Stone Unturned

fn redact_world(world: &mut World, viewer: &Viewer, ids: &StandIns) {
    // The view's own filter clears what a closed card says (a card's name is never empty,
    // so an empty one is a closed card); the file needs a name and an author.
    super::nsu::world::seen_by(world, viewer);
    let mut swapped: HashMap<Uuid, Uuid> = HashMap::new();
    let mut undealt = 0;
    for l in world.locations.iter_mut().filter(|l| l.name.is_empty()) {
        // Its cell is everyone's (its back lies there), and a card face down on the map
        // moves only in sight of the table. A card this device read before and may read no
        // more (an author link or a claim changed, an undo) stays in its cell: the device
        // remembers what it saw there, nothing more. What the stand-in of the cell breaks is
        // the thread from a card in its author's hand to where the deal put it.
        let stand_in = match l.position {
            Some(at) => ids.id(Spot::Cell(at.x, at.y)),
            None => {
                undealt += 1;
                ids.id(Spot::Undealt(undealt - 1))
            }
        };
        swapped.insert(l.id, stand_in);
        l.id = stand_in;
        l.name = FACE_DOWN.to_owned();
        l.author = FACE_DOWN.to_owned();
    }
    let to = |id: &mut Uuid| {
        if let Some(s) = swapped.get(id) {
            *id = *s;
        }
    };
    for p in &mut world.paths {
        to(&mut p.a);
        to(&mut p.b);
    }
    // The party is only ever at a revealed card; named the same way all the same.
    if let Some(at) = world.party_at.as_mut() {
        to(at);
    }
}

// ---------------------------------------------------------------------------------------
// Mezzo

/// Turns `cards` face down where they lie: no face, and the id of the spot, not the card.
fn face_down(cards: &mut [Card], spot: impl Fn(usize) -> Spot, ids: &StandIns, swapped: &mut HashMap<Uuid, Uuid>) {
    for (i, card) in cards.iter_mut().enumerate() {
        let stand_in = ids.id(spot(i));
        swapped.insert(card.id, stand_in);
        *card = Card { id: stand_in, text: FACE_DOWN.to_owned() };
    }
}

/// Leaves in the seed deck only the cards the viewer may read: the hands of `holders`
/// (the players whose hands the viewer sees) and every card face up on the table. How many
/// cards lie in the draw pile, in each hand and face down in front of each player is seen
/// at any table, and stays; which card lies where does not.
fn redact_deck(deck: &mut SeedDeck, holders: &[Uuid], ids: &StandIns) {
    let mut swapped = HashMap::new();
    face_down(&mut deck.draw_pile, Spot::DrawPile, ids, &mut swapped);
    for h in deck.players.iter_mut().filter(|h| !holders.contains(&h.player)) {
        let player = h.player;
        face_down(&mut h.hand, |i| Spot::Hand(player, i), ids, &mut swapped);
        face_down(&mut h.depleted, |i| Spot::Depleted(player, i), ids, &mut swapped);
    }
    // Links join cards in play, face up; one naming a face-down card would break the deck's
    // rules, and is left out rather than give a real id away.
    deck.links.retain(|l| !swapped.contains_key(&l.card) && !swapped.contains_key(&l.to));
}

// ---------------------------------------------------------------------------------------
// Penny Ante

fn redact_penny(table: &mut PennyTable, viewer: &Viewer) {
    let secrets = viewer.sees_table_secrets();
    if let Some(c) = table.challenge.as_mut() {
        // After a fold the dice still in a cup stay hidden for good (RULES §2.3).
        let folded = c.outcome.as_ref().is_some_and(|o| o.folded.is_some());
        if c.phase != Phase::Over || folded {
            let hidden: Vec<bool> =
                Side::BOTH.into_iter().map(|side| !super::penny_ante::sees_side(viewer, c, side)).collect();
            // The reveal is simultaneous: a side's dice show only once both cups are chosen.
            let shown = c.cups_revealed();
            for (side, hide) in c.sides.iter_mut().zip(hidden) {
                if hide {
                    hide_cup(side, shown);
                }
            }
        }
        if !secrets {
            c.devoted = c.devoted_shown();
            for used in c.sides.iter_mut().flat_map(|s| s.used.iter_mut()) {
                let Account::Antagonist(id) = used.owner else { continue };
                let hidden = table
                    .antagonists
                    .iter()
                    .find(|a| a.id == id && !a.revealed && c.devoted.is_some())
                    .is_some_and(|a| a.characteristics.iter().any(|x| x.hidden && x.text == used.text));
                if hidden {
                    used.text = HIDDEN_CHARACTERISTIC.to_owned();
                }
            }
        }
    }
    if !secrets {
        // The campaign's history tells an antagonist's hidden characteristic as the view does.
        // A characteristic used in a challenge was on the table (the rules show it and set
        // it in stone), so only one the House hid again afterwards is found here.
        let hidden_of = |owner: Account, text: &str| match owner {
            Account::Antagonist(id) => table
                .antagonists
                .iter()
                .find(|a| a.id == id && !table.revealed(id))
                .is_some_and(|a| a.characteristics.iter().any(|x| x.hidden && x.text == text)),
            _ => false,
        };
        let mut hide = Vec::new();
        for (i, r) in table.history.iter().enumerate() {
            for (s, side) in r.sides.iter().enumerate() {
                for (u, used) in side.used.iter().enumerate() {
                    if hidden_of(used.owner, &used.text) {
                        hide.push((i, s, u));
                    }
                }
            }
        }
        for (i, s, u) in hide {
            table.history[i].sides[s].used[u].text = HIDDEN_CHARACTERISTIC.to_owned();
        }
    }
    if !secrets {
        // An antagonist revealed by a direct challenge is the table's to see, purse and all
        // (RULES.md §2.2 decision 2026-11-28).
        let revealed: Vec<bool> = table.antagonists.iter().map(|a| table.revealed(a.id)).collect();
        for (a, revealed) in table.antagonists.iter_mut().zip(revealed) {
            if !revealed {
                a.characteristics.retain(|x| !x.hidden);
            }
        }
        table.ledger.entries = without_purses(&table.ledger.entries, table);
    }
}

/// A side's dice as those who may not look into its cup see them: the dice on the table
/// (once both cups are chosen, those outside its cup) keep their faces, the others show
/// [`HIDDEN_DIE`]; before then, no cup either. How many dice a side rolls (one, and one per
/// characteristic it declared) and, after the reveal, which of them went back in its cup
/// are seen at any table, and stay: a die is known by its position, which tells nothing of
/// its face, and a cup die reads 1 before and after its reroll alike.
fn hide_cup(side: &mut SideState, shown: bool) {
    let chosen = side.cup_chosen && shown;
    for (i, die) in side.dice.iter_mut().enumerate() {
        if !chosen || side.cup.contains(&i) {
            *die = HIDDEN_DIE;
        }
    }
    if !chosen {
        side.cup.clear();
    }
}

/// The ledger without what tells the hidden antagonists' purses: no funding of such a purse
/// and no such purse taken back (a purse revealed by a direct challenge keeps its entries).
/// An antagonist whose pennies in play (antes, wagers, winnings, loans, debts — all seen at
/// the table) would leave it below 0 beyond its debts is funded with just enough to be at 0.
/// The House's pile then comes out as players see it at the table: its own with what its
/// hidden purses hold (RULES.md §2.2 decision 2026-11-28), the difference settled with the
/// Bank in the last entries; how that is shared between the purses cannot be worked out.
fn without_purses(entries: &[Entry], table: &PennyTable) -> Vec<Entry> {
    let hidden = |a: Account| matches!(a, Account::Antagonist(id) if !table.revealed(id));
    let mut kept: Vec<Entry> = entries
        .iter()
        .filter(|e| {
            let funding = e.reason == Reason::AntagonistFunding && hidden(e.to);
            let returned = e.reason == Reason::PurseReturned && hidden(e.from);
            !funding && !returned
        })
        .cloned()
        .collect();
    let pile_in = |entries: &[Entry], account: Account| -> i128 {
        entries.iter().fold(0, |sum, e| {
            let amount = i128::from(e.amount);
            sum + if e.to == account { amount } else { 0 } - if e.from == account { amount } else { 0 }
        })
    };
    // Each hidden antagonist's pile from what is left, and the debts it carries.
    let mut fundings = Vec::new();
    let mut hidden_piles: i128 = 0;
    for a in table.antagonists.iter().map(|a| Account::Antagonist(a.id)).filter(|&a| hidden(a)) {
        let pile = pile_in(&kept, a);
        let owed: i128 = table.ledger.debts.iter().filter(|d| d.debtor == a).map(|d| i128::from(d.amount)).sum();
        let short = -(pile + owed);
        if short > 0 {
            fundings.push((a, short));
        }
        hidden_piles += pile + short.max(0);
    }
    // What the House holds as players see it, less what the purses left here hold.
    let real = |a: Account| i128::from(table.pile(&a));
    let seen: i128 = real(Account::House)
        + table.antagonists.iter().map(|a| Account::Antagonist(a.id)).filter(|&a| hidden(a)).map(real).sum::<i128>();
    let funded: i128 = fundings.iter().map(|(_, n)| n).sum();
    let settle = seen - hidden_piles - (pile_in(&kept, Account::House) - funded);
    // Settled with the Bank first when the House gets pennies, so it never pays a purse more
    // than it holds.
    if settle > 0 {
        push_split(&mut kept, Account::Bank, Account::House, Reason::HouseFunding, settle);
    }
    for (account, amount) in fundings {
        push_split(&mut kept, Account::House, account, Reason::AntagonistFunding, amount);
    }
    if settle < 0 {
        push_split(&mut kept, Account::House, Account::Bank, Reason::HouseReturned, -settle);
    }
    kept
}

/// Entries moving `amount` from `from` to `to`, each within [`MAX_ENTRY`].
fn push_split(out: &mut Vec<Entry>, from: Account, to: Account, reason: Reason, amount: i128) {
    let mut left = amount;
    let most = i128::from(MAX_ENTRY);
    while left > 0 {
        let part = left.min(most);
        left -= part;
        // `part` is between 1 and MAX_ENTRY, so it fits.
        let amount = u64::try_from(part).unwrap_or(MAX_ENTRY);
        out.push(Entry { from, to, amount, reason, challenge: None });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mezzo::seed_deck::{ActiveCard, Holding, Link};
    use crate::rules::nsu::world::{GridPos, Location, MapPath};

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    fn card(n: u128, text: &str) -> Card {
        Card { id: id(n), text: text.into() }
    }

    const GAME: Uuid = Uuid::from_u128(7);
    const ADA: Uuid = Uuid::from_u128(100);
    const BO: Uuid = Uuid::from_u128(200);

    fn ids() -> StandIns {
        StandIns::keyed(b"the host's key", GAME, &Viewer::Player(vec![id(1)]))
    }

    #[test]
    fn a_stand_in_comes_from_the_spot_the_viewer_the_game_and_the_key_only() {
        let spot = Spot::Hand(BO, 2);
        let a = ids().id(spot);
        assert_eq!(a, ids().id(spot), "the same spot, the same id");
        assert_eq!(a.get_version_num(), 4);
        let two = |v: Vec<Uuid>| StandIns::keyed(b"k", GAME, &Viewer::Player(v)).id(spot);
        assert_eq!(two(vec![id(1), id(2)]), two(vec![id(2), id(1), id(2)]), "a viewer is a set of characters");
        let others = [
            ids().id(Spot::Hand(BO, 1)),
            ids().id(Spot::Hand(ADA, 2)),
            ids().id(Spot::Depleted(BO, 2)),
            ids().id(Spot::DrawPile(2)),
            ids().id(Spot::Cell(2, 0)),
            ids().id(Spot::Cell(0, 2)),
            ids().id(Spot::Undealt(2)),
            StandIns::keyed(b"another key", GAME, &Viewer::Player(vec![id(1)])).id(spot),
            StandIns::keyed(b"the host's key", id(8), &Viewer::Player(vec![id(1)])).id(spot),
            StandIns::keyed(b"the host's key", GAME, &Viewer::Player(vec![id(2)])).id(spot),
            StandIns::keyed(b"the host's key", GAME, &Viewer::Everyone).id(spot),
            StandIns::keyed(b"the host's key", GAME, &Viewer::Table).id(spot),
        ];
        for (i, other) in others.iter().enumerate() {
            assert_ne!(*other, a, "{i}");
            assert!(others[..i].iter().all(|o| o != other), "{i}");
        }
    }

    /// Ada's and Bo's seats: Bo holds two cards and has one depleted; the draw pile holds
    /// `pile` (the top last); "a map" lies face up in the discard pile; their active cards
    /// are linked.
    fn deck(pile: &[Card]) -> SeedDeck {
        SeedDeck {
            draw_pile: pile.to_vec(),
            discard: vec![card(10, "a map")],
            players: vec![
                Holding {
                    player: ADA,
                    hand: vec![card(20, "a wreck")],
                    active: vec![ActiveCard { card: card(21, "a debt"), linked: true }],
                    depleted: vec![card(22, "a wedding")],
                },
                Holding {
                    player: BO,
                    hand: vec![card(30, "a ghost"), card(31, "a key")],
                    active: vec![ActiveCard { card: card(32, "a storm"), linked: true }],
                    depleted: vec![card(33, "a traitor")],
                },
            ],
            links: vec![Link { by: ADA, card: id(21), to: id(32) }],
            ..SeedDeck::default()
        }
    }

    #[test]
    fn a_face_down_seed_card_keeps_no_id_and_its_spot_gives_the_same_one_whatever_lies_there() {
        let pile = [card(40, "a song"), card(41, "a crown")];
        let mut d = deck(&pile);
        redact_deck(&mut d, &[ADA], &ids());
        assert!(d.problems().is_empty(), "{:?}", d.problems());
        let text = serde_json::to_string(&d).unwrap();
        for hidden in [30, 31, 33, 40, 41] {
            assert!(!text.contains(&id(hidden).to_string()), "card {hidden} in {text}");
        }
        for hidden in ["a ghost", "a key", "a traitor", "a song", "a crown"] {
            assert!(!text.contains(hidden), "{hidden} in {text}");
        }
        for open in [10, 20, 21, 22, 32] {
            assert!(text.contains(&id(open).to_string()), "card {open} is face up or Ada's own");
        }
        assert_eq!((d.draw_pile.len(), d.players[1].hand.len(), d.players[1].depleted.len()), (2, 2, 1));
        assert_eq!(d.links, vec![Link { by: ADA, card: id(21), to: id(32) }]);
        // Shuffled otherwise, or made of other cards, the pile reads the same.
        let mut shuffled = deck(&[card(41, "a crown"), card(40, "a song")]);
        redact_deck(&mut shuffled, &[ADA], &ids());
        assert_eq!(shuffled, d);
        let mut reshuffled = deck(&[card(10, "a map"), card(41, "a crown")]);
        reshuffled.discard = vec![card(40, "a song")];
        redact_deck(&mut reshuffled, &[ADA], &ids());
        assert_eq!(reshuffled.draw_pile, d.draw_pile, "a card seen face up enters the pile under no id of its own");
        // Bo's hand and depleted card as Bo's device sees them: his own, Ada's face down.
        let mut bos = deck(&pile);
        redact_deck(&mut bos, &[BO], &ids());
        let text = serde_json::to_string(&bos).unwrap();
        assert!(text.contains("a ghost") && !text.contains("a wreck") && !text.contains("a wedding"));
    }

    fn location(n: u128, name: &str, at: Option<(i16, i16)>) -> Location {
        Location {
            id: id(n),
            name: name.into(),
            author: "Ana".into(),
            description: format!("{name}, described"),
            collateral_harms: String::new(),
            danger: String::new(),
            treasure: String::new(),
            danger_level: Some(2),
            reward_level: Some(3),
            collateral: 1,
            revealed: false,
            position: at.map(|(x, y)| GridPos { x, y }),
            scene_details: Vec::new(),
            scouted_by: Vec::new(),
            author_character: None,
        }
    }

    /// A revealed library; two face-down cards on the map, a path from the library to one
    /// of them; two cards still to be dealt.
    fn world(mill: (i16, i16), barn: (i16, i16)) -> World {
        let mut library = location(50, "Library", Some((0, 0)));
        library.revealed = true;
        library.author = "Bea".into();
        World {
            locations: vec![
                library,
                location(51, "Mill", Some(mill)),
                location(52, "Barn", Some(barn)),
                location(53, "Chapel", None),
                location(54, "Orchard", None),
            ],
            paths: vec![MapPath { a: id(50), b: id(51) }],
            party_at: Some(id(50)),
            ..World::default()
        }
    }

    #[test]
    fn a_face_down_map_card_is_named_by_its_cell_or_its_rank_and_its_paths_follow() {
        let mut w = world((1, 0), (2, 0));
        redact_world(&mut w, &Viewer::Player(vec![id(1)]), &ids());
        assert!(w.problems("world").is_empty(), "{:?}", w.problems("world"));
        let text = serde_json::to_string(&w).unwrap();
        for hidden in [51, 52, 53, 54] {
            assert!(!text.contains(&id(hidden).to_string()), "card {hidden} in {text}");
        }
        for hidden in ["Mill", "Barn", "Chapel", "Orchard", "Ana"] {
            assert!(!text.contains(hidden), "{hidden} in {text}");
        }
        assert_eq!(w.locations[1].id, ids().id(Spot::Cell(1, 0)));
        assert_eq!(w.locations[4].id, ids().id(Spot::Undealt(1)));
        assert_eq!(w.paths, vec![MapPath { a: id(50), b: ids().id(Spot::Cell(1, 0)) }]);
        assert_eq!(w.party_at, Some(id(50)));
        assert_eq!((w.locations[1].danger_level, w.locations[1].collateral), (Some(2), 1), "its back stays");
        // Which card lies in which cell does not change the document.
        let mut swapped = world((2, 0), (1, 0));
        swapped.locations.swap(1, 2);
        swapped.paths = vec![MapPath { a: id(50), b: id(52) }];
        redact_world(&mut swapped, &Viewer::Player(vec![id(1)]), &ids());
        assert_eq!(swapped, w);
        // The Mill's scout reads it, under its own id.
        let mut scouted = world((1, 0), (2, 0));
        scouted.locations[1].scouted_by = vec![id(1)];
        redact_world(&mut scouted, &Viewer::Player(vec![id(1)]), &ids());
        assert_eq!((scouted.locations[1].id, scouted.locations[1].name.as_str()), (id(51), "Mill"));
        assert_eq!(scouted.paths, vec![MapPath { a: id(50), b: id(51) }]);
    }
}
