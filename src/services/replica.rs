//! A game as a file document for one viewer: what a linked table sends to a joined device.
//!
//! The document is the game's own file (kind "game", as an export writes it) with what the
//! viewer may not see taken out, the same secrets the views leave out (RULES.md, and
//! ARCHITECTURE.md "Secrets live in the core"). What is taken out is replaced, where the
//! file format needs something there, by a neutral stand-in that still validates, so the
//! document parses and imports like any file:
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
//!   the cup after; a hidden die reads 1), and the cup itself before it is chosen. Once the
//!   challenge is over, its dice are everyone's, as the view shows them.
//! - **Mezzo.** The cards of the hands the viewer may not see, and every player's depleted
//!   (face-down) cards but the viewer's own, keep their ids and count but read
//!   "Face-down card"; so do the cards of the draw pile, which nobody sees.
//! - **No Stone Unturned.** A face-down card on the map that none of the viewer's
//!   characters scouted keeps its back (its author, levels, clock and place) and is named
//!   "Face-down card", with no text and no scene details.
//! - **Scattershot's Mechanix** keeps nothing from anyone.

use std::collections::BTreeMap;

use uuid::Uuid;

use super::transfer::{document, ExportScope};
use super::viewer::Viewer;
use crate::error::Result;
use crate::exchange::{Document, GameEntry};
use crate::rules::mezzo::seed_deck::Card;
use crate::rules::mezzo::table::MezzoTable;
use crate::rules::nsu::world::World;
use crate::rules::penny_ante::challenge::{Phase, Side, SideState};
use crate::rules::penny_ante::ledger::{Account, Entry, Reason, MAX_ENTRY};
use crate::rules::penny_ante::table::PennyTable;
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
    for entry in &mut doc.games {
        redact_entry(read, entry, viewer)?;
    }
    Ok(doc)
}

fn redact_entry(read: Reader<'_>, entry: &mut GameEntry, viewer: &Viewer) -> Result<()> {
    if let Some(world) = entry.nsu_world.as_mut() {
        redact_world(world, viewer);
    }
    if let Some(table) = entry.penny_table.as_mut() {
        redact_penny(table, viewer);
    }
    if let Some(table) = entry.mezzo_table.as_mut() {
        let holders = super::mezzo_plot::hand_holders_for(read, entry.game.id, viewer)?;
        redact_mezzo(table, &holders);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// No Stone Unturned

fn redact_world(world: &mut World, viewer: &Viewer) {
    // The view's own filter clears what a closed card says; the file needs a name and an
    // author.
    super::nsu_world::seen_by(world, viewer);
    for l in &mut world.locations {
        if l.name.is_empty() {
            l.name = FACE_DOWN.to_owned();
        }
        if l.author.is_empty() {
            l.author = FACE_DOWN.to_owned();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Mezzo

fn face_down(cards: &mut [Card]) {
    for card in cards {
        card.text = FACE_DOWN.to_owned();
    }
}

/// Leaves in the seed deck only the cards the viewer may read: the hands of `holders`
/// (the players whose hands the viewer sees) and every card face up on the table.
fn redact_mezzo(table: &mut MezzoTable, holders: &[Uuid]) {
    let Some(deck) = table.deck.as_mut() else { return };
    face_down(&mut deck.draw_pile);
    for h in deck.players.iter_mut().filter(|h| !holders.contains(&h.player)) {
        face_down(&mut h.hand);
        face_down(&mut h.depleted);
    }
}

// ---------------------------------------------------------------------------------------
// Penny Ante

fn redact_penny(table: &mut PennyTable, viewer: &Viewer) {
    let secrets = viewer.sees_table_secrets();
    if let Some(c) = table.challenge.as_mut() {
        if c.phase != Phase::Over {
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
            // The anonymous side is the one an antagonist plays alone.
            let paid = c
                .sides
                .iter()
                .filter(|s| s.members.len() == 1 && matches!(s.lead(), Account::Antagonist(_)))
                .map(|s| s.members[0].paid)
                .max()
                .unwrap_or(0);
            c.devoted = c.devoted.map(|_| c.ante.max(paid));
            for used in c.sides.iter_mut().flat_map(|s| s.used.iter_mut()) {
                let Account::Antagonist(id) = used.owner else { continue };
                let hidden = table
                    .antagonists
                    .iter()
                    .find(|a| a.id == id)
                    .is_some_and(|a| a.characteristics.iter().any(|x| x.hidden && x.text == used.text));
                if hidden {
                    used.text = HIDDEN_CHARACTERISTIC.to_owned();
                }
            }
        }
    }
    if !secrets {
        // The campaign's history tells an antagonist's hidden characteristic as the view does.
        let hidden_of = |owner: Account, text: &str| match owner {
            Account::Antagonist(id) => table
                .antagonists
                .iter()
                .find(|a| a.id == id)
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
        for a in &mut table.antagonists {
            a.characteristics.retain(|x| !x.hidden);
        }
        table.ledger.entries = without_purses(&table.ledger.entries, table);
    }
}

/// A side's dice as those who may not look into its cup see them: the dice on the table
/// (once both cups are chosen, those outside its cup) keep their faces, the others show
/// [`HIDDEN_DIE`]; before then, no cup either.
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

/// The ledger without what tells the antagonists' purses: no funding of a purse and no
/// purse taken back. The House's pile stays what it was (the net of those entries goes to
/// or comes from the Bank in the last entries), and an antagonist whose pennies in play
/// (antes, wagers, winnings, loans, debts — all seen at the table) would leave it below 0
/// beyond its debts is funded with just enough to be at 0.
fn without_purses(entries: &[Entry], table: &PennyTable) -> Vec<Entry> {
    let mut kept = Vec::with_capacity(entries.len() + 2);
    // What the House put into purses less what it took back (may be negative).
    let mut to_purses: i128 = 0;
    for e in entries {
        match e.reason {
            Reason::AntagonistFunding => to_purses += i128::from(e.amount),
            Reason::PurseReturned => to_purses -= i128::from(e.amount),
            _ => kept.push(e.clone()),
        }
    }
    // Each antagonist's pile from what is left, and the debts it carries.
    let mut piles: BTreeMap<Uuid, i128> = table.antagonists.iter().map(|a| (a.id, 0)).collect();
    for e in &kept {
        if let Account::Antagonist(id) = e.to {
            *piles.entry(id).or_default() += i128::from(e.amount);
        }
        if let Account::Antagonist(id) = e.from {
            *piles.entry(id).or_default() -= i128::from(e.amount);
        }
    }
    let mut fundings = Vec::new();
    for (id, pile) in piles {
        let account = Account::Antagonist(id);
        let owed: i128 = table.ledger.debts.iter().filter(|d| d.debtor == account).map(|d| i128::from(d.amount)).sum();
        let short = -(pile + owed);
        if short > 0 {
            to_purses -= short;
            fundings.push((account, short));
        }
    }
    // The House's balance with the purses, settled with the Bank first so the House never
    // pays a purse more than it holds.
    if to_purses < 0 {
        push_split(&mut kept, Account::Bank, Account::House, Reason::HouseFunding, -to_purses);
    }
    for (account, amount) in fundings {
        push_split(&mut kept, Account::House, account, Reason::AntagonistFunding, amount);
    }
    if to_purses > 0 {
        push_split(&mut kept, Account::House, Account::Bank, Reason::HouseReturned, to_purses);
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
