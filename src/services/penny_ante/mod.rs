//! Penny Ante at the table (RULES.md §2): the penny ledger, adventures and the House,
//! antagonists, characteristics, loans and debts, and challenges move by move.
//!
//! Every move is one transaction that saves the table (and the sheets it touched) and logs
//! one event holding the state before and after — without the ledger's entries, which only
//! grow: the event records the ledger's length instead, so undo cuts the ledger back to it.
//! `undo_game` takes back the last move, whether at the table or in a challenge.

use std::collections::BTreeMap;

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::characters::{load, restore, unchanged_since};
use super::dice::{with_dice, DiceInput};
use super::log::{payload_of, table_event};
use super::lookup::game_playing;
use super::viewer::{device_viewer, not_yours, Viewer};
use crate::error::{Error, Result};
use crate::model::{clean_name, now, Character, Game, System};
use crate::rules::penny_ante::challenge::{
    self, Bid, Challenge, ChallengeEvent, Move, Phase, Roster, Setup, Side, Used,
};
use crate::rules::penny_ante::history::ChallengeRecord;
use crate::rules::penny_ante::ledger::{Account, Debt, Entry, Reason};
use crate::rules::penny_ante::odds::ShowdownOdds;
use crate::rules::penny_ante::score::Hand;
use crate::rules::penny_ante::table::{
    Adventure, Characteristic, FundingBasis, HouseBudget, PennySheet, PennyTable, TableEvent,
};
use crate::rules::record::CharacterRecord;
use crate::store::{Event, EventKind, Reader, Store, Tx};

mod reading;
mod views;

use reading::*;
pub use reading::{
    penny_cup_choices, penny_ledger, penny_log, penny_private, penny_private_declaring, penny_table,
    penny_table_as_house,
};
pub(super) use reading::{penny_log_for, penny_log_within, private_sides, sees_side, shows_house_secrets, table_for};
pub use views::*;

/// The state a Penny Ante event snapshots: the table without its ledger entries (but with
/// the ledger's length and its debts) and without its history (but with its length and the
/// records the move changed), and the characters whose sheets the move changed. Entries
/// and records only grow during play, so a campaign's events stay small.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Snapshot {
    table: PennyTable,
    ledger_len: usize,
    /// None in events logged before the history was kept: undoing them keeps it as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    history_len: Option<usize>,
    /// The records the move added or changed, by position, as they were in this state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    history_changed: Vec<(usize, ChallengeRecord)>,
    /// Each changed character as it was (None: it did not exist).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    characters: Vec<(Uuid, Option<CharacterRecord>)>,
}

impl Snapshot {
    /// `table` as a snapshot; `changed` are the positions of the history records the move
    /// added or changed (those present in `table` are kept).
    fn of(table: &PennyTable, changed: &[usize], characters: Vec<(Uuid, Option<CharacterRecord>)>) -> Self {
        let mut table = table.clone();
        let ledger_len = table.ledger.entries.len();
        table.ledger.entries.clear();
        let history = std::mem::take(&mut table.history);
        let history_len = Some(history.len());
        let history_changed = changed.iter().filter_map(|&i| history.get(i).map(|r| (i, r.clone()))).collect();
        Snapshot { table, ledger_len, history_len, history_changed, characters }
    }

    /// The history this snapshot stood for, given the history `now` (which holds every
    /// record up to its length that the move did not change).
    fn history(&self, now: &[ChallengeRecord]) -> Vec<ChallengeRecord> {
        let Some(len) = self.history_len else { return now.to_vec() };
        let mut out = now[..len.min(now.len())].to_vec();
        for (i, r) in &self.history_changed {
            if let Some(slot) = out.get_mut(*i) {
                *slot = r.clone();
            }
        }
        out
    }
}

/// The positions of the history records that differ between two tables.
fn history_changes(before: &PennyTable, after: &PennyTable) -> Vec<usize> {
    let longest = before.history.len().max(after.history.len());
    (0..longest).filter(|&i| before.history.get(i) != after.history.get(i)).collect()
}

/// The payload of every Penny Ante event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Payload {
    /// What was done, in words ("Ada raised by 2").
    action: String,
    before: Snapshot,
    after: Snapshot,
    /// The challenge the move belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    challenge: Option<Uuid>,
    /// The rules' own events, for history.
    #[serde(default)]
    events: serde_json::Value,
    /// A move of the House's own between challenges (its antagonists, their purses): the
    /// log tells only the table side what it was.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    house_secret: bool,
}

/// Whether undoing `kind` restores a Penny Ante snapshot.
pub(super) fn is_penny_event(kind: EventKind) -> bool {
    matches!(kind, EventKind::PennyTableChanged | EventKind::PennyChallengeMove)
}

// ---------------------------------------------------------------------------------------
// Changing

/// What a move hands back to [`change`]: the new table, the sheets it changed, the
/// message, and the rules' events.
struct Moved {
    table: PennyTable,
    sheets: Vec<CharacterRecord>,
    message: String,
    events: serde_json::Value,
}

impl Moved {
    fn table(table: PennyTable, message: String, events: &impl Serialize) -> Self {
        let events = serde_json::to_value(events).expect("events serialize");
        Moved { table, sheets: Vec::new(), message: sentence(message), events }
    }
}

/// The context a move is played in.
struct Ctx<'a> {
    read: Reader<'a>,
    game: Game,
    players: Vec<CharacterRecord>,
    names: Names,
}

/// Applies one move to game `game` in one transaction and logs it.
fn change(
    store: &mut Store,
    game: Uuid,
    kind: EventKind,
    play: impl FnOnce(&Ctx<'_>, &PennyTable) -> Result<Moved>,
) -> Result<PennyChange> {
    store.write(|tx| {
        let read = tx.read();
        let g = penny_game(read, game)?;
        let before = read.penny_table(game)?;
        let players = players(read, game)?;
        let names = Names::new(&players, &before);
        let ctx = Ctx { read, game: g.clone(), players, names };
        let moved = play(&ctx, &before)?;
        let mut changed = Vec::new();
        for sheet in &moved.sheets {
            let id = sheet.character.id;
            let old = read.character(id)?.map(|_| load(read, id)).transpose()?;
            let record = match &old {
                Some(old) => super::characters::revise(tx, old, sheet)?,
                None => {
                    super::characters::insert(tx, sheet)?;
                    sheet.clone()
                }
            };
            changed.push((id, old, record));
        }
        tx.put_penny_table(game, &moved.table)?;
        tx.touch_game(game, now())?;
        let challenge = moved.table.challenge.as_ref().filter(|_| kind == EventKind::PennyChallengeMove).map(|c| c.id);
        let kept = history_changes(&before, &moved.table);
        let payload = Payload {
            action: moved.message.clone(),
            before: Snapshot::of(&before, &kept, changed.iter().map(|(id, old, _)| (*id, old.clone())).collect()),
            after: Snapshot::of(&moved.table, &kept, changed.into_iter().map(|(id, _, new)| (id, Some(new))).collect()),
            challenge,
            events: moved.events,
            house_secret: kind == EventKind::PennyTableChanged && touches_antagonists(&before, &moved.table),
        };
        table_event(tx, kind, game, &payload, None)?;
        let g = read.game(game)?.unwrap_or(g);
        let viewer = device_viewer(read, game)?;
        Ok(PennyChange { view: view(read, &g, &moved.table, &viewer)?, message: moved.message })
    })
}

/// Whether a move between challenges changed an antagonist or moved pennies to or from one.
fn touches_antagonists(before: &PennyTable, after: &PennyTable) -> bool {
    let antagonist = |a: &Account| matches!(a, Account::Antagonist(_));
    before.antagonists != after.antagonists
        || after
            .ledger
            .entries
            .iter()
            .skip(before.ledger.entries.len())
            .any(|e| antagonist(&e.from) || antagonist(&e.to))
}

/// Takes back a Penny Ante move: the ledger is cut back to its length before the move, the
/// rest of the table and the sheets the move changed are restored.
pub(super) fn undo_penny_event(tx: &Tx<'_>, event: &Event) -> Result<String> {
    let payload: Payload = payload_of(event)?;
    let read = tx.read();
    let game = event.game_id;
    let current = read.penny_table(game)?;
    if current.ledger.entries.len() != payload.after.ledger_len {
        return Err(Error::invalid("ledger", "the ledger changed since this move (an import?); undo that first"));
    }
    if payload.after.history_len.is_some_and(|len| len != current.history.len()) {
        return Err(Error::invalid("history", "the history changed since this move (an import?); undo that first"));
    }
    unchanged_since(read, &payload.after.characters, |a, b| {
        a.penny_ante == b.penny_ante && a.character.name == b.character.name
    })?;
    let mut restored = payload.before.table.clone();
    restored.ledger.entries =
        current.ledger.entries[..payload.before.ledger_len.min(current.ledger.entries.len())].to_vec();
    restored.history = payload.before.history(&current.history);
    let kept = history_changes(&current, &restored);
    for (id, before) in &payload.before.characters {
        restore(tx, *id, before.as_ref())?;
    }
    tx.put_penny_table(game, &restored)?;
    tx.touch_game(game, now())?;
    let message = format!("Undone: {}", payload.action);
    let undo = Payload {
        action: message.clone(),
        before: Snapshot::of(&current, &kept, payload.after.characters.clone()),
        after: Snapshot::of(&restored, &kept, payload.before.characters.clone()),
        challenge: payload.challenge,
        events: serde_json::Value::Null,
        house_secret: payload.house_secret,
    };
    table_event(tx, EventKind::Undo, game, &undo, Some(event.seq))?;
    Ok(message)
}

fn amount_of(field: &str, n: i64) -> Result<u64> {
    u64::try_from(n)
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| Error::invalid(field, "must be a whole number of pennies, at least 1"))
}

/// A new Penny Ante character with its first (free) characteristic and its starting pennies.
pub fn penny_create_character(
    store: &mut Store,
    game: Uuid,
    name: &str,
    characteristic: &str,
    pennies: i64,
) -> Result<PennyChange> {
    let name = clean_name("name", name)?;
    let pennies = amount_of("pennies", pennies)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let at = now();
        let character = Character {
            id: Uuid::new_v4(),
            game_id: game,
            system: System::PennyAnte,
            name: name.clone(),
            created_at: at,
            updated_at: at,
            revision: 1,
            notes: String::new(),
        };
        let id = character.id;
        let mut record = CharacterRecord::new(character);
        let (t, sheet, mut events) = table.buy_characteristic(id, &PennySheet::default(), characteristic)?;
        let (t, more) = t.starting_pennies(id, pennies, setting(&ctx.game, "starting_pennies"))?;
        events.extend(more);
        record.penny_ante = Some(sheet);
        let mut moved = Moved::table(t, format!("{name} joins the table with {pennies} pennies."), &events);
        moved.sheets.push(record);
        Ok(moved)
    })
}

/// Gives starting pennies to a character of the game that has none yet.
pub fn penny_starting_pennies(store: &mut Store, game: Uuid, character: Uuid, pennies: i64) -> Result<PennyChange> {
    let pennies = amount_of("pennies", pennies)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let who = player(ctx, character)?;
        let (t, events) = table.starting_pennies(character, pennies, setting(&ctx.game, "starting_pennies"))?;
        Ok(Moved::table(t, format!("{} receives {pennies} starting pennies.", who.character.name), &events))
    })
}

fn player<'a>(ctx: &'a Ctx<'_>, id: Uuid) -> Result<&'a CharacterRecord> {
    ctx.players
        .iter()
        .find(|p| p.character.id == id)
        .ok_or_else(|| Error::invalid("character", "is not a character of this game"))
}

/// A character takes a characteristic (free if it is the first, else 5 pennies).
pub fn penny_buy_characteristic(store: &mut Store, game: Uuid, character: Uuid, text: &str) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let mut record = player(ctx, character)?.clone();
        let sheet = record.penny_ante.clone().unwrap_or_default();
        let (t, sheet, events) = table.buy_characteristic(character, &sheet, text)?;
        let cost = if events.is_empty() { "free".to_owned() } else { "5 pennies".to_owned() };
        let added = sheet.characteristics.last().cloned().unwrap_or_default();
        record.penny_ante = Some(sheet);
        let mut moved = Moved::table(t, format!("{} takes “{added}” ({cost}).", record.character.name), &events);
        moved.sheets.push(record);
        Ok(moved)
    })
}

/// Starts the next adventure; the House gets `funding`, or by default the players' piles.
pub fn penny_start_adventure(store: &mut Store, game: Uuid, funding: Option<i64>) -> Result<PennyChange> {
    let funding = funding
        .map(|f| u64::try_from(f).map_err(|_| Error::invalid("funding", "must be 0 or more pennies")))
        .transpose()?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let ids: Vec<Uuid> = ctx.players.iter().map(|p| p.character.id).collect();
        let (t, events) = table.start_adventure(&ids, funding)?;
        let warning: String = events
            .iter()
            .filter_map(|e| match e {
                TableEvent::LoanBecameDebt { debtor, creditor, amount, .. } => Some(format!(
                    " {}'s unpaid loan of {amount} becomes a debt to {}, who narrates the setback.",
                    ctx.names.of(*debtor),
                    ctx.names.of(*creditor)
                )),
                _ => None,
            })
            .collect();
        let house = t.pile(&Account::House);
        Ok(Moved::table(
            t,
            format!("Adventure {} begins; the House holds {house}.{warning}", table.adventure.number + 1),
            &events,
        ))
    })
}

/// Ends the running adventure.
pub fn penny_end_adventure(store: &mut Store, game: Uuid) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let ids: Vec<Uuid> = ctx.players.iter().map(|p| p.character.id).collect();
        let (t, events) = table.end_adventure(&ids)?;
        let budget = t.house_budget(&ids).amount;
        Ok(Moved::table(
            t,
            format!("Adventure {} ends; the next one's House starts from {budget}.", table.adventure.number),
            &events,
        ))
    })
}

/// The House creates an antagonist.
pub fn penny_add_antagonist(
    store: &mut Store,
    game: Uuid,
    name: &str,
    characteristics: Vec<Characteristic>,
) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |_, table| {
        let (t, events) = table.add_antagonist(Uuid::new_v4(), name, &characteristics)?;
        let name = t.antagonists.last().map(|a| a.name.clone()).unwrap_or_default();
        Ok(Moved::table(t, format!("The House creates {name}."), &events))
    })
}

/// The House renames an antagonist or rewrites its characteristics.
pub fn penny_edit_antagonist(
    store: &mut Store,
    game: Uuid,
    antagonist: Uuid,
    name: &str,
    characteristics: Vec<Characteristic>,
) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |_, table| {
        let (t, events) = table.edit_antagonist(antagonist, name, &characteristics)?;
        Ok(Moved::table(t, format!("The House changes {}.", name.trim()), &events))
    })
}

/// The House funds an antagonist's purse (within the table's cap).
pub fn penny_fund_antagonist(store: &mut Store, game: Uuid, antagonist: Uuid, amount: i64) -> Result<PennyChange> {
    let amount = amount_of("amount", amount)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.fund_antagonist(antagonist, amount, cap(&ctx.game))?;
        let name = ctx.names.of(Account::Antagonist(antagonist));
        Ok(Moved::table(t, format!("The House gives {name} {amount} pennies."), &events))
    })
}

/// The House takes pennies back from an antagonist's purse.
pub fn penny_recall_purse(store: &mut Store, game: Uuid, antagonist: Uuid, amount: i64) -> Result<PennyChange> {
    let amount = amount_of("amount", amount)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.recall_purse(antagonist, amount)?;
        let name = ctx.names.of(Account::Antagonist(antagonist));
        Ok(Moved::table(t, format!("The House takes {amount} pennies back from {name}."), &events))
    })
}

/// A borrower pays back part or all of a loan.
pub fn penny_repay_loan(store: &mut Store, game: Uuid, loan: Uuid, amount: i64) -> Result<PennyChange> {
    let amount = amount_of("amount", amount)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.repay_loan(loan, amount)?;
        let l = t.loans.iter().find(|l| l.id == loan).expect("repaid above");
        let (from, to) = (ctx.names.of(l.borrower), ctx.names.of(l.lender));
        Ok(Moved::table(t.clone(), format!("{from} pays {to} back {amount} pennies."), &events))
    })
}

/// A debtor pays back part or all of a debt.
pub fn penny_repay_debt(
    store: &mut Store,
    game: Uuid,
    debtor: Account,
    creditor: Account,
    amount: i64,
) -> Result<PennyChange> {
    let amount = amount_of("amount", amount)?;
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.repay_debt(debtor, creditor, amount)?;
        let (from, to) = (ctx.names.of(debtor), ctx.names.of(creditor));
        Ok(Moved::table(t, format!("{from} repays {to} {amount} pennies of a debt."), &events))
    })
}

/// The House marks an antagonist as recurring (its purse stays with it between adventures)
/// or not.
pub fn penny_set_recurring(store: &mut Store, game: Uuid, antagonist: Uuid, recurring: bool) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let (t, events) = table.set_recurring(antagonist, recurring)?;
        let name = ctx.names.of(Account::Antagonist(antagonist));
        let words = if recurring {
            format!("{name} will recur: its purse stays with it between adventures.")
        } else {
            format!("{name} no longer recurs: its purse goes back to the House when the adventure ends.")
        };
        Ok(Moved::table(t, words, &events))
    })
}

/// Writes what the narrator told of a finished challenge's outcome (an empty text clears
/// it). The narrator's player, or the table, writes it.
pub fn penny_narrate(store: &mut Store, game: Uuid, challenge: Uuid, text: &str) -> Result<PennyChange> {
    change(store, game, EventKind::PennyTableChanged, |ctx, table| {
        let record =
            table.history.iter().find(|r| r.challenge == challenge).ok_or_else(|| {
                Error::invalid("challenge", format!("no finished challenge {challenge} at this table"))
            })?;
        if !may_narrate(&device_viewer(ctx.read, game)?, record) {
            return Err(not_yours("narration", "Another side's narration"));
        }
        let (t, events) = table.narrate(challenge, text)?;
        let words = if text.trim().is_empty() {
            format!("The narration of “{}” is cleared.", record.stake)
        } else {
            format!("The narration of “{}” is written.", record.stake)
        };
        Ok(Moved::table(t, words, &events))
    })
}

/// Whether `viewer` may write a finished challenge's narration: the table, or a player of a
/// character on the narrating side (on either side when no one narrates, a tie).
fn may_narrate(viewer: &Viewer, r: &ChallengeRecord) -> bool {
    if viewer.sees_table_secrets() {
        return true;
    }
    let sides: Vec<Side> = r.narrator.map_or_else(|| Side::BOTH.to_vec(), |n| vec![n]);
    sides
        .into_iter()
        .flat_map(|s| r.side(s).members.clone())
        .any(|a| matches!(a, Account::Character(id) if viewer.sees_character(id)))
}

/// How a challenge starts, as the UI sends it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ChallengeDraft {
    pub stake: String,
    pub ante: i64,
    pub challenger: Vec<Account>,
    pub opponent: Vec<Account>,
    #[serde(default)]
    pub devoted: Option<i64>,
}

/// Issues a challenge and takes the antes.
pub fn penny_start_challenge(store: &mut Store, game: Uuid, draft: ChallengeDraft) -> Result<PennyChange> {
    let ante = amount_of("ante", draft.ante)?;
    let devoted = draft.devoted.map(|d| amount_of("devoted", d)).transpose()?;
    change(store, game, EventKind::PennyChallengeMove, |ctx, table| {
        let setup = Setup {
            id: Uuid::new_v4(),
            stake: draft.stake.clone(),
            ante,
            challenger: draft.challenger.clone(),
            opponent: draft.opponent.clone(),
            devoted,
        };
        let (t, events) = challenge::start(table, &roster(&ctx.players), setup)?;
        let c = t.challenge.as_ref().expect("started");
        let names = Names::new(&ctx.players, &t);
        let message = format!(
            "{} challenges {} over “{}” (ante {}).",
            names.side(c, Side::Challenger),
            names.side(c, Side::Opponent),
            c.stake,
            ante
        );
        Ok(Moved::table(t, message, &events))
    })
}

/// One move in the running challenge, with dice rolled by the app or typed in.
pub fn penny_challenge_move<R: Rng>(
    store: &mut Store,
    game: Uuid,
    mv: Move,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<PennyChange> {
    change(store, game, EventKind::PennyChallengeMove, |ctx, table| {
        let roster = roster(&ctx.players);
        let (t, events) = with_dice(dice, rng, |d| challenge::play(table, &roster, &mv, d))?;
        let names = Names::new(&ctx.players, &t);
        let c = t.challenge.as_ref().expect("a move keeps its challenge");
        let mut message = move_words(&names, c, &mv, &events);
        if c.phase == Phase::Over && table.running().is_some() {
            message = format!("{message} {}", outcome_words(&names, c));
        }
        // The challenge that ends here is kept in the campaign's history, with the
        // characteristics its buyout cost.
        let given_up: Vec<Used> = events
            .iter()
            .filter_map(|e| match e {
                ChallengeEvent::CharacteristicLost { owner, text } => Some(Used { owner: *owner, text: text.clone() }),
                _ => None,
            })
            .collect();
        let t = if c.phase == Phase::Over && table.running().is_some() {
            t.keep_finished_challenge(&given_up).0
        } else {
            t
        };
        let mut moved = Moved::table(t, message, &events);
        // A buyout costs each losing character a characteristic, for good (§2.2).
        for u in &given_up {
            if let Account::Character(id) = u.owner {
                let mut record =
                    moved.sheets.iter().find(|r| r.character.id == id).cloned().unwrap_or(player(ctx, id)?.clone());
                if let Some(sheet) = &mut record.penny_ante {
                    sheet.characteristics.retain(|c| *c != u.text);
                    sheet.lost = sheet.lost.saturating_add(1);
                }
                moved.sheets.retain(|r| r.character.id != id);
                moved.sheets.push(record);
            }
        }
        let _ = ctx.read;
        Ok(moved)
    })
}

/// A move in words for the log, without the dice in a cup.
fn move_words(names: &Names, c: &Challenge, mv: &Move, events: &[ChallengeEvent]) -> String {
    sentence(move_text(names, c, mv, events))
}

fn move_text(names: &Names, c: &Challenge, mv: &Move, events: &[ChallengeEvent]) -> String {
    let who = |s: Side| names.side(c, s);
    match mv {
        Move::Circumstance { side, name, double_down } => {
            let die = events.iter().find_map(|e| match e {
                ChallengeEvent::CircumstanceNamed { die, .. } => Some(*die),
                _ => None,
            });
            let dd = if *double_down { " and doubles down" } else { "" };
            format!("{} names the circumstance “{name}” ({}){dd}.", who(*side), die.unwrap_or(0))
        }
        Move::Pass { side } => format!("{} names no circumstance.", who(*side)),
        Move::Characteristics { side, used } => {
            let list: Vec<String> = used.iter().map(|u| format!("“{}”", u.text)).collect();
            if list.is_empty() {
                format!("{} uses no characteristic (1 die).", who(*side))
            } else {
                format!("{} uses {} ({} dice).", who(*side), list.join(", "), 1 + list.len())
            }
        }
        Move::Roll { side } => format!("{} rolls in private.", who(*side)),
        // Nothing shows until both cups are chosen; then both sides' dice at once.
        Move::Cup { side, .. } if !c.cups_revealed() => format!("{} has chosen its cup.", who(*side)),
        Move::Cup { side, .. } => {
            let shows = |s: Side| {
                let shown: Vec<String> = c.revealed(s).iter().map(u8::to_string).collect();
                let dice = if shown.is_empty() { "nothing".to_owned() } else { shown.join(" ") };
                format!("{} shows {dice} ({} in the cup)", who(s), c.side(s).cup.len())
            };
            format!(
                "{} has chosen its cup. Both cups are chosen: {}; {}.",
                who(*side),
                shows(Side::Challenger),
                shows(Side::Opponent)
            )
        }
        Move::Stand { side } => format!("{} stands.", who(*side)),
        Move::Raise { side, by } => format!("{} raises by {by} (wager {}).", who(*side), c.side(*side).wager),
        Move::Call { side } => format!("{} calls (wager {}).", who(*side), c.side(*side).wager),
        Move::Fold { side } if events.iter().any(|e| matches!(e, ChallengeEvent::FoldedAtAnte { .. })) => {
            format!("{} cannot pay the ante and folds before anything is at stake; the antes go back.", who(*side))
        }
        Move::Fold { side } => format!("{} folds.", who(*side)),
        Move::AllIn { side } if events.iter().any(|e| matches!(e, ChallengeEvent::AllInAtAnte { .. })) => {
            format!("{} cannot pay the ante and goes all in with {}.", who(*side), c.side(*side).wager)
        }
        Move::AllIn { side } => format!("{} goes all in (wager {}).", who(*side), c.side(*side).wager),
        Move::OfferLoan { lender, side, amount, borrower, .. } => {
            let to = borrower.map_or_else(|| who(*side), |b| names.of(b));
            format!("{} offers {to} a loan of {amount}.", names.of(*lender))
        }
        Move::AnswerLoan { accept } => {
            let (lender, borrower, amount) = events
                .iter()
                .find_map(|e| match e {
                    ChallengeEvent::LoanAnswered { lender, borrower, amount, .. } => {
                        Some((*lender, *borrower, *amount))
                    }
                    _ => None,
                })
                .unwrap_or((Account::Bank, Account::Bank, 0));
            let verb = if *accept { "accepts" } else { "declines" };
            let repaid: u64 = events
                .iter()
                .map(|e| match e {
                    ChallengeEvent::RepaidThroughLoan { amount, .. } => *amount,
                    _ => 0,
                })
                .sum();
            let through = if repaid > 0 {
                format!("; {repaid} of it pays back what {} owed {}", names.of(lender), names.of(borrower))
            } else {
                String::new()
            };
            format!("{} {verb} the loan of {amount} from {}{through}.", names.of(borrower), names.of(lender))
        }
        Move::Reroll { side } => format!("{} rerolls the cup.", who(*side)),
        Move::Bid { bidder, amount } => format!("{} offers a buyout of {amount}.", names.of(*bidder)),
        Move::AcceptBuyout { losses } => {
            let lost: Vec<String> =
                losses.iter().map(|u| format!("{} gives up “{}”", names.of(u.owner), u.text)).collect();
            format!("The buyout is accepted; {}.", lost.join(", "))
        }
        Move::Debt => "The losers go into debt; the winner narrates.".into(),
    }
}
