//! Penny Ante: a character's characteristics and each game's table (the adventure, the penny
//! ledger, debts, loans, antagonists and the current or last challenge), in real columns
//! (schema v5), read back into the rules' own types.
//!
//! The ledger only grows during play and is cut back by undo, so [`Tx::put_penny_table`]
//! syncs it by length (appending or deleting the tail) instead of rewriting it; everything
//! else of a table is small and written whole.

use std::collections::HashMap;

use rusqlite::{params, OptionalExtension, Row};
use uuid::Uuid;

use super::columns::{bad, broken, name_of, named, opt_named, opt_uuid_at, uuid_at};
use super::queries::{games_to_check, select_all, Reader, Tx};
use crate::error::{Error, Result};
use crate::model::System;
use crate::rules::penny_ante::challenge::{
    Bid, Challenge, Circumstance, LoanOffer, Member, Outcome, Side, SideState, Used,
};
use crate::rules::penny_ante::check::table_problems;
use crate::rules::penny_ante::history::{ChallengeRecord, RecordSide};
use crate::rules::penny_ante::ledger::{Account, Debt, Entry, Handover};
use crate::rules::penny_ante::table::{
    Adventure, AdventureEnd, Antagonist, Characteristic, EndPile, Loan, PennySheet, PennyTable,
};
use crate::rules::penny_ante::Hand;

/// Pennies: stored as SQLite integers, which are signed.
fn u64_at(r: &Row<'_>, col: usize) -> rusqlite::Result<u64> {
    let v: i64 = r.get(col)?;
    u64::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(col, v))
}

fn opt_u64_at(r: &Row<'_>, col: usize) -> rusqlite::Result<Option<u64>> {
    r.get::<_, Option<i64>>(col)?
        .map(|v| u64::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(col, v)))
        .transpose()
}

/// Pennies as an SQLite integer; a count beyond `i64::MAX` cannot be stored.
fn int(v: u64) -> Result<i64> {
    i64::try_from(v).map_err(|_| Error::invalid("pennies", format!("{v} is too large to store")))
}

fn opt_int(v: Option<u64>) -> Result<Option<i64>> {
    v.map(int).transpose()
}

/// An account as its kind and id columns.
fn account_columns(a: Account) -> (&'static str, Option<String>) {
    match a {
        Account::Bank => ("bank", None),
        Account::Character(id) => ("character", Some(id.to_string())),
        Account::House => ("house", None),
        Account::Antagonist(id) => ("antagonist", Some(id.to_string())),
        Account::Pot(id) => ("pot", Some(id.to_string())),
    }
}

/// The account in columns `kind` and `kind + 1`.
fn account_at(r: &Row<'_>, kind: usize) -> rusqlite::Result<Account> {
    let text: String = r.get(kind)?;
    let id = || uuid_at(r, kind + 1);
    Ok(match text.as_str() {
        "bank" => Account::Bank,
        "house" => Account::House,
        "character" => Account::Character(id()?),
        "antagonist" => Account::Antagonist(id()?),
        "pot" => Account::Pot(id()?),
        other => return Err(bad(kind, format!("unknown account kind {other:?}"))),
    })
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Challenger => 0,
        Side::Opponent => 1,
    }
}

fn entry_from_row(r: &Row<'_>) -> rusqlite::Result<Entry> {
    Ok(Entry {
        from: account_at(r, 0)?,
        to: account_at(r, 2)?,
        amount: u64_at(r, 4)?,
        reason: named(r, 5)?,
        challenge: opt_uuid_at(r, 6)?,
    })
}

const ENTRY_COLUMNS: &str = "from_kind, from_id, to_kind, to_id, amount, reason, challenge_id";

fn seq_of(i: usize) -> Result<i64> {
    i64::try_from(i).map_err(|_| Error::invalid("ledger", "too many entries"))
}

impl Reader<'_> {
    /// A character's Penny Ante sheet, or None when it has none.
    pub fn penny_sheet(&self, character: Uuid) -> Result<Option<PennySheet>> {
        let id = character.to_string();
        let conn = self.conn();
        let head = conn
            .prepare_cached("SELECT carried, lost FROM pa_sheets WHERE character_id = ?1")?
            .query_row([&id], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, u32>(1)?)))
            .optional()?;
        let Some((carried, lost)) = head else { return Ok(None) };
        let characteristics: Vec<String> = select_all(
            conn,
            "SELECT text FROM pa_characteristics WHERE character_id = ?1 ORDER BY position",
            [&id],
            |r| r.get(0),
        )?;
        Ok(Some(PennySheet { characteristics, carried, lost }))
    }

    /// How many entries the game's ledger holds (one past the last position).
    pub fn penny_ledger_len(&self, game: Uuid) -> Result<usize> {
        let next: i64 = self
            .conn()
            .prepare_cached("SELECT coalesce(max(seq) + 1, 0) FROM pa_ledger WHERE game_id = ?1")?
            .query_row([game.to_string()], |r| r.get(0))?;
        usize::try_from(next).map_err(|_| broken(format!("the ledger of game {game} has a negative position")))
    }

    /// The entry at position `seq` of the game's ledger.
    fn penny_entry(&self, game: Uuid, seq: usize) -> Result<Option<Entry>> {
        let mut stmt = self
            .conn()
            .prepare_cached(&format!("SELECT {ENTRY_COLUMNS} FROM pa_ledger WHERE game_id = ?1 AND seq = ?2"))?;
        Ok(stmt.query_row(params![game.to_string(), seq_of(seq)?], entry_from_row).optional()?)
    }

    /// The entries of the game's ledger that touch the character `character`, in order: what
    /// its character file carries, without reading the whole ledger.
    pub fn penny_entries_of(&self, game: Uuid, character: Uuid) -> Result<Vec<Entry>> {
        let mut stmt = self.conn().prepare_cached(&format!(
            "SELECT {ENTRY_COLUMNS} FROM pa_ledger WHERE game_id = ?1 AND \
             ((from_kind = 'character' AND from_id = ?2) OR (to_kind = 'character' AND to_id = ?2)) ORDER BY seq"
        ))?;
        let rows = stmt.query_map(params![game.to_string(), character.to_string()], entry_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The table of game `game`; an empty table when nothing was stored for it yet.
    pub fn penny_table(&self, game: Uuid) -> Result<PennyTable> {
        let id = game.to_string();
        let conn = self.conn();
        let mut t = PennyTable::default();
        if let Some((adventure, last_end)) = conn
            .prepare_cached("SELECT adventure, running, last_end FROM pa_tables WHERE game_id = ?1")?
            .query_row([&id], |r| {
                Ok((Adventure { number: r.get(0)?, running: r.get(1)? }, r.get::<_, Option<u32>>(2)?))
            })
            .optional()?
        {
            t.adventure = adventure;
            if let Some(ended) = last_end {
                let piles = select_all(
                    conn,
                    "SELECT character_id, pile FROM pa_end_piles WHERE game_id = ?1 ORDER BY position",
                    [&id],
                    |r| Ok(EndPile { character: uuid_at(r, 0)?, pile: r.get(1)? }),
                )?;
                t.last_end = Some(AdventureEnd { adventure: ended, piles });
            }
        }
        t.ledger.entries = select_all(
            conn,
            &format!("SELECT {ENTRY_COLUMNS} FROM pa_ledger WHERE game_id = ?1 ORDER BY seq"),
            [&id],
            entry_from_row,
        )?;
        t.ledger.debts = select_all(
            conn,
            "SELECT debtor_kind, debtor_id, creditor_kind, creditor_id, amount FROM pa_debts \
             WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(Debt { debtor: account_at(r, 0)?, creditor: account_at(r, 2)?, amount: u64_at(r, 4)? }),
        )?;
        t.ledger.handed_over = select_all(
            conn,
            "SELECT debtor_kind, debtor_id, antagonist, amount FROM pa_debt_handovers \
             WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| Ok(Handover { debtor: account_at(r, 0)?, antagonist: uuid_at(r, 2)?, amount: u64_at(r, 3)? }),
        )?;
        t.loans = select_all(
            conn,
            "SELECT id, lender_kind, lender_id, borrower_kind, borrower_id, amount, repaid, challenge_id, adventure, \
             flagged, in_debt FROM pa_loans WHERE game_id = ?1 ORDER BY position",
            [&id],
            |r| {
                Ok(Loan {
                    id: uuid_at(r, 0)?,
                    lender: account_at(r, 1)?,
                    borrower: account_at(r, 3)?,
                    amount: u64_at(r, 5)?,
                    repaid: u64_at(r, 6)?,
                    challenge: opt_uuid_at(r, 7)?,
                    adventure: r.get(8)?,
                    flagged: r.get(9)?,
                    in_debt: u64_at(r, 10)?,
                })
            },
        )?;
        t.antagonists = self.penny_antagonists(&id)?;
        t.challenge = self.penny_challenge(&id)?;
        t.history = self.penny_history(&id)?;
        Ok(t)
    }

    fn penny_antagonists(&self, game: &str) -> Result<Vec<Antagonist>> {
        let conn = self.conn();
        let mut characteristics: HashMap<Uuid, Vec<Characteristic>> = HashMap::new();
        let mut stmt = conn.prepare_cached(
            "SELECT antagonist_id, text, hidden FROM pa_antagonist_characteristics WHERE game_id = ?1 \
             ORDER BY antagonist_id, position",
        )?;
        let rows =
            stmt.query_map([game], |r| Ok((uuid_at(r, 0)?, Characteristic { text: r.get(1)?, hidden: r.get(2)? })))?;
        for row in rows {
            let (antagonist, c) = row?;
            characteristics.entry(antagonist).or_default().push(c);
        }
        let mut stmt = conn.prepare_cached(
            "SELECT id, name, recurring, revealed FROM pa_antagonists WHERE game_id = ?1 ORDER BY position",
        )?;
        let rows = stmt.query_map([game], |r| {
            Ok((uuid_at(r, 0)?, r.get::<_, String>(1)?, r.get::<_, bool>(2)?, r.get::<_, bool>(3)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, name, recurring, revealed) = row?;
            let characteristics = characteristics.remove(&id).unwrap_or_default();
            out.push(Antagonist { id, name, characteristics, recurring, revealed });
        }
        Ok(out)
    }

    /// The finished challenges of a game, oldest first.
    fn penny_history(&self, game: &str) -> Result<Vec<ChallengeRecord>> {
        let conn = self.conn();
        let empty = || RecordSide { members: Vec::new(), used: Vec::new(), hand: None, given_up: Vec::new() };
        let mut stmt = conn.prepare_cached(
            "SELECT challenge_id, adventure, stake, ante, pot, winner, folded, narrator, narration \
             FROM pa_history WHERE game_id = ?1 ORDER BY position",
        )?;
        let mut out: Vec<ChallengeRecord> = stmt
            .query_map([game], |r| {
                Ok(ChallengeRecord {
                    challenge: uuid_at(r, 0)?,
                    adventure: r.get(1)?,
                    stake: r.get(2)?,
                    ante: u64_at(r, 3)?,
                    pot: u64_at(r, 4)?,
                    winner: opt_named(r, 5)?,
                    folded: opt_named(r, 6)?,
                    narrator: opt_named(r, 7)?,
                    sides: [empty(), empty()],
                    narration: r.get(8)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let len = out.len();
        let at = |position: i64| -> Result<usize> {
            usize::try_from(position)
                .ok()
                .filter(|&p| p < len)
                .ok_or_else(|| broken(format!("the history of game {game} has a row at position {position}")))
        };
        let mut hands: Vec<[Option<Hand>; 2]> = vec![[None, None]; out.len()];
        let mut stmt = conn.prepare_cached(
            "SELECT position, side, hand_score, hand_category FROM pa_history_sides WHERE game_id = ?1 \
             AND hand_score IS NOT NULL",
        )?;
        let rows =
            stmt.query_map([game], |r| Ok((r.get::<_, i64>(0)?, named(r, 1)?, r.get::<_, u32>(2)?, named(r, 3)?)))?;
        for row in rows {
            let (position, side, score, category) = row?;
            hands[at(position)?][side_index(side)] = Some(Hand { score, category, dice: Vec::new() });
        }
        let mut stmt = conn.prepare_cached(
            "SELECT position, side, face FROM pa_history_dice WHERE game_id = ?1 ORDER BY position, side, n",
        )?;
        let rows = stmt.query_map([game], |r| Ok((r.get::<_, i64>(0)?, named(r, 1)?, r.get::<_, u8>(2)?)))?;
        for row in rows {
            let (position, side, face) = row?;
            match &mut hands[at(position)?][side_index(side)] {
                Some(hand) => hand.dice.push(face),
                None => return Err(broken(format!("the history of game {game} has hand dice but no hand"))),
            }
        }
        for (record, [a, b]) in out.iter_mut().zip(hands) {
            record.sides[0].hand = a;
            record.sides[1].hand = b;
        }
        let mut stmt = conn.prepare_cached(
            "SELECT position, side, list, kind, id, text FROM pa_history_accounts WHERE game_id = ?1 \
             ORDER BY position, side, list, n",
        )?;
        let rows = stmt.query_map([game], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                named(r, 1)?,
                r.get::<_, String>(2)?,
                account_at(r, 3)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?;
        for row in rows {
            let (position, side, list, account, text) = row?;
            let s = &mut out[at(position)?].sides[side_index(side)];
            match (list.as_str(), text) {
                ("used", Some(text)) => s.used.push(Used { owner: account, text }),
                ("given_up", Some(text)) => s.given_up.push(Used { owner: account, text }),
                _ => s.members.push(account),
            }
        }
        Ok(out)
    }

    fn penny_challenge(&self, game: &str) -> Result<Option<Challenge>> {
        let conn = self.conn();
        // The outcome's pot, winner, folder and narrator come with the head row.
        type Head = (Challenge, Option<(u64, Option<Side>, Option<Side>, Option<Side>)>);
        let head: Option<Head> = conn
            .prepare_cached(
                "SELECT id, stake, ante, devoted, phase, turn, offer_id, offer_lender_kind, offer_lender_id, \
                 offer_side, offer_amount, outcome_pot, winner, folded, narrator, offer_borrower FROM pa_challenges \
                 WHERE game_id = ?1",
            )?
            .query_row([game], |r| {
                let offer = match opt_uuid_at(r, 6)? {
                    None => None,
                    Some(id) => Some(LoanOffer {
                        id,
                        lender: account_at(r, 7)?,
                        side: named(r, 9)?,
                        amount: u64_at(r, 10)?,
                        borrower: opt_uuid_at(r, 15)?.map(Account::Character),
                    }),
                };
                let outcome = match opt_u64_at(r, 11)? {
                    None => None,
                    Some(pot) => Some((pot, opt_named(r, 12)?, opt_named(r, 13)?, opt_named(r, 14)?)),
                };
                let empty = SideState::new(&[]);
                let c = Challenge {
                    id: uuid_at(r, 0)?,
                    stake: r.get(1)?,
                    ante: u64_at(r, 2)?,
                    devoted: opt_u64_at(r, 3)?,
                    phase: named(r, 4)?,
                    turn: opt_named(r, 5)?,
                    sides: [empty.clone(), empty],
                    circumstances: Vec::new(),
                    lenders: Vec::new(),
                    offer,
                    bids: Vec::new(),
                    outcome: None,
                };
                Ok((c, outcome))
            })
            .optional()?;
        let Some((mut c, outcome)) = head else { return Ok(None) };

        let mut stmt = conn.prepare_cached(
            "SELECT side, cup_chosen, wager, doubled, all_in, done, hand_score, hand_category \
             FROM pa_challenge_sides WHERE game_id = ?1",
        )?;
        let rows = stmt.query_map([game], |r| {
            let side = named(r, 0)?;
            let hand = match r.get::<_, Option<u32>>(6)? {
                None => None,
                Some(score) => Some((score, named(r, 7)?)),
            };
            Ok((side, r.get(1)?, u64_at(r, 2)?, u64_at(r, 3)?, r.get(4)?, r.get(5)?, hand))
        })?;
        let mut seen = [false; 2];
        let mut hands: [Option<Hand>; 2] = [None, None];
        for row in rows {
            let (side, cup_chosen, wager, doubled, all_in, done, hand) = row?;
            let i = side_index(side);
            seen[i] = true;
            let s = &mut c.sides[i];
            (s.cup_chosen, s.wager, s.doubled, s.all_in, s.done) = (cup_chosen, wager, doubled, all_in, done);
            hands[i] = hand.map(|(score, category)| Hand { score, category, dice: Vec::new() });
        }
        if seen != [true, true] {
            return Err(broken(format!("the challenge of game {game} lacks a side")));
        }

        let mut stmt = conn.prepare_cached(
            "SELECT side, list, kind, id, paid FROM pa_challenge_members WHERE game_id = ?1 \
             ORDER BY side, list, position",
        )?;
        let rows = stmt.query_map([game], |r| {
            let member = Member { account: account_at(r, 2)?, paid: u64_at(r, 4)? };
            Ok((named(r, 0)?, r.get::<_, String>(1)?, member))
        })?;
        for row in rows {
            let (side, list, member) = row?;
            let s = &mut c.sides[side_index(side)];
            match list.as_str() {
                "lost" => s.lost.push(member),
                _ => s.members.push(member),
            }
        }
        let mut stmt = conn.prepare_cached(
            "SELECT side, owner_kind, owner_id, text FROM pa_challenge_used WHERE game_id = ?1 ORDER BY side, position",
        )?;
        let rows =
            stmt.query_map([game], |r| Ok((named(r, 0)?, Used { owner: account_at(r, 1)?, text: r.get(3)? })))?;
        for row in rows {
            let (side, used) = row?;
            c.sides[side_index(side)].used.push(used);
        }
        let mut stmt = conn.prepare_cached(
            "SELECT side, kind, face, in_cup FROM pa_challenge_dice WHERE game_id = ?1 ORDER BY side, kind, position",
        )?;
        let rows = stmt.query_map([game], |r| {
            Ok((named(r, 0)?, r.get::<_, String>(1)?, r.get::<_, u8>(2)?, r.get::<_, Option<bool>>(3)?))
        })?;
        for row in rows {
            let (side, kind, face, in_cup) = row?;
            let i = side_index(side);
            if kind == "hand" {
                match &mut hands[i] {
                    Some(hand) => hand.dice.push(face),
                    None => return Err(broken(format!("the challenge of game {game} has hand dice but no hand"))),
                }
            } else {
                let s = &mut c.sides[i];
                if in_cup == Some(true) {
                    s.cup.push(s.dice.len());
                }
                s.dice.push(face);
            }
        }
        c.circumstances = select_all(
            conn,
            "SELECT name, by_side, die, barred FROM pa_challenge_circumstances WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(Circumstance { name: r.get(0)?, by: named(r, 1)?, die: r.get(2)?, barred: opt_named(r, 3)? }),
        )?;
        c.lenders = select_all(
            conn,
            "SELECT kind, id FROM pa_challenge_lenders WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| account_at(r, 0),
        )?;
        c.bids = select_all(
            conn,
            "SELECT bidder_kind, bidder_id, amount FROM pa_challenge_bids WHERE game_id = ?1 ORDER BY position",
            [game],
            |r| Ok(Bid { bidder: account_at(r, 0)?, amount: u64_at(r, 2)? }),
        )?;
        c.outcome = outcome.map(|(pot, winner, folded, narrator)| {
            let [a, b] = hands;
            let hands = match (a, b) {
                (Some(a), Some(b)) => Some([a, b]),
                _ => None,
            };
            Outcome { winner, folded, hands, narrator, pot }
        });
        Ok(Some(c))
    }

    /// What `sheetkeeper check` finds wrong with every Penny Ante table: the positions of
    /// each ledger's entries (0, 1, 2… without gaps), a table that cannot be read, and the
    /// rules' [`table_problems`] (the ledger's own problems, debts and loans that disagree
    /// with the entries, a loan repaid beyond its amount…).
    pub(super) fn penny_check(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let games = games_to_check(self.conn(), System::PennyAnte)?;
        for (id, name) in games {
            let said = |problem: String| format!("Penny Ante game “{name}” ({id}): {problem}");
            let (count, last): (i64, i64) = self
                .conn()
                .prepare_cached("SELECT count(*), coalesce(max(seq), -1) FROM pa_ledger WHERE game_id = ?1")?
                .query_row([&id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            if count != last + 1 {
                out.push(said(format!(
                    "the ledger's {count} entries are not at positions 0 to {} without gaps (the last is at {last})",
                    count - 1
                )));
            }
            let Ok(game) = Uuid::parse_str(&id) else {
                out.push(said("the game's id is not an id".into()));
                continue;
            };
            match self.penny_table(game) {
                Ok(table) => out.extend(table_problems(&table, "table").into_iter().map(|p| said(p.to_string()))),
                Err(e) => out.push(said(format!("the table cannot be read: {e}"))),
            }
        }
        Ok(out)
    }
}

impl Tx<'_> {
    /// Writes a character's Penny Ante sheet, replacing what it had.
    pub fn put_penny_sheet(&self, character: Uuid, sheet: &PennySheet) -> Result<()> {
        let id = character.to_string();
        let tx = self.conn();
        self.delete_penny_sheet(character)?;
        tx.prepare_cached("INSERT INTO pa_sheets (character_id, carried, lost) VALUES (?1, ?2, ?3)")?
            .execute(params![id, sheet.carried, sheet.lost])?;
        let mut stmt =
            tx.prepare_cached("INSERT INTO pa_characteristics (character_id, position, text) VALUES (?1, ?2, ?3)")?;
        for (i, text) in sheet.characteristics.iter().enumerate() {
            stmt.execute(params![id, seq_of(i)?, text])?;
        }
        Ok(())
    }

    /// Removes a character's Penny Ante sheet (its characteristics go with it).
    pub fn delete_penny_sheet(&self, character: Uuid) -> Result<()> {
        self.conn()
            .prepare_cached("DELETE FROM pa_sheets WHERE character_id = ?1")?
            .execute([character.to_string()])?;
        Ok(())
    }

    /// Writes a game's table. The ledger is synced by length: when the stored ledger holds
    /// n entries and the table m ≥ n, entries n.. are appended; when m < n, the entries from
    /// position m on are deleted (an undo). The last entry both share is compared first;
    /// should it differ (the two are not one the other's beginning), the whole ledger is
    /// rewritten. Everything else (adventure, debts, loans, antagonists, challenge) is
    /// replaced whole.
    pub fn put_penny_table(&self, game: Uuid, t: &PennyTable) -> Result<()> {
        self.put_penny_head(game, t)?;
        let entries = &t.ledger.entries;
        let read = self.read();
        let stored = read.penny_ledger_len(game)?;
        let shared = stored.min(entries.len());
        if shared > 0 && read.penny_entry(game, shared - 1)?.as_ref() != Some(&entries[shared - 1]) {
            self.delete_penny_entries(game, 0)?;
            self.insert_penny_entries(game, 0, entries)?;
        } else if entries.len() < stored {
            self.delete_penny_entries(game, entries.len())?;
        } else {
            self.insert_penny_entries(game, stored, &entries[stored..])?;
        }
        self.put_penny_rest(game, t)
    }

    /// Writes a game's table, rewriting its whole ledger (an import, whose ledger may share
    /// nothing with the one stored here).
    pub fn replace_penny_table(&self, game: Uuid, t: &PennyTable) -> Result<()> {
        self.put_penny_head(game, t)?;
        self.delete_penny_entries(game, 0)?;
        self.insert_penny_entries(game, 0, &t.ledger.entries)?;
        self.put_penny_rest(game, t)
    }

    /// The table's own row. An upsert, never a REPLACE: deleting the row would take the
    /// ledger with it (ON DELETE CASCADE).
    fn put_penny_head(&self, game: Uuid, t: &PennyTable) -> Result<()> {
        let adventure = t.adventure;
        self.conn()
            .prepare_cached(
                "INSERT INTO pa_tables (game_id, adventure, running, last_end) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (game_id) DO UPDATE SET adventure = excluded.adventure, running = excluded.running, \
                 last_end = excluded.last_end",
            )?
            .execute(params![
                game.to_string(),
                adventure.number,
                adventure.running,
                t.last_end.as_ref().map(|e| e.adventure)
            ])?;
        Ok(())
    }

    fn delete_penny_entries(&self, game: Uuid, from: usize) -> Result<()> {
        self.conn()
            .prepare_cached("DELETE FROM pa_ledger WHERE game_id = ?1 AND seq >= ?2")?
            .execute(params![game.to_string(), seq_of(from)?])?;
        Ok(())
    }

    /// Inserts `entries` at positions `first`, `first + 1`, …
    fn insert_penny_entries(&self, game: Uuid, first: usize, entries: &[Entry]) -> Result<()> {
        let id = game.to_string();
        let mut stmt = self.conn().prepare_cached(&format!(
            "INSERT INTO pa_ledger (game_id, seq, {ENTRY_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
        ))?;
        for (i, e) in entries.iter().enumerate() {
            let (from_kind, from_id) = account_columns(e.from);
            let (to_kind, to_id) = account_columns(e.to);
            stmt.execute(params![
                id,
                seq_of(first + i)?,
                from_kind,
                from_id,
                to_kind,
                to_id,
                int(e.amount)?,
                name_of(e.reason),
                e.challenge.map(|c| c.to_string()),
            ])?;
        }
        Ok(())
    }

    /// Replaces the debts, loans, antagonists and challenge of a table.
    fn put_penny_rest(&self, game: Uuid, t: &PennyTable) -> Result<()> {
        let id = game.to_string();
        let tx = self.conn();
        for table in [
            "pa_debts",
            "pa_debt_handovers",
            "pa_loans",
            "pa_antagonists",
            "pa_challenges",
            "pa_end_piles",
            "pa_history",
        ] {
            tx.prepare_cached(&format!("DELETE FROM {table} WHERE game_id = ?1"))?.execute([&id])?;
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO pa_debts (game_id, position, debtor_kind, debtor_id, creditor_kind, creditor_id, amount) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (i, d) in t.ledger.debts.iter().enumerate() {
            let (debtor_kind, debtor_id) = account_columns(d.debtor);
            let (creditor_kind, creditor_id) = account_columns(d.creditor);
            stmt.execute(params![id, seq_of(i)?, debtor_kind, debtor_id, creditor_kind, creditor_id, int(d.amount)?])?;
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO pa_debt_handovers (game_id, position, debtor_kind, debtor_id, antagonist, amount) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (i, h) in t.ledger.handed_over.iter().enumerate() {
            let (debtor_kind, debtor_id) = account_columns(h.debtor);
            stmt.execute(params![id, seq_of(i)?, debtor_kind, debtor_id, h.antagonist.to_string(), int(h.amount)?])?;
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO pa_loans (game_id, position, id, lender_kind, lender_id, borrower_kind, borrower_id, amount, \
             repaid, challenge_id, adventure, flagged, in_debt) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        )?;
        for (i, l) in t.loans.iter().enumerate() {
            let (lender_kind, lender_id) = account_columns(l.lender);
            let (borrower_kind, borrower_id) = account_columns(l.borrower);
            stmt.execute(params![
                id,
                seq_of(i)?,
                l.id.to_string(),
                lender_kind,
                lender_id,
                borrower_kind,
                borrower_id,
                int(l.amount)?,
                int(l.repaid)?,
                l.challenge.map(|c| c.to_string()),
                l.adventure,
                l.flagged,
                int(l.in_debt)?,
            ])?;
        }
        let mut antagonist = tx.prepare_cached(
            "INSERT INTO pa_antagonists (game_id, id, position, name, recurring, revealed) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut characteristic = tx.prepare_cached(
            "INSERT INTO pa_antagonist_characteristics (game_id, antagonist_id, position, text, hidden) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, a) in t.antagonists.iter().enumerate() {
            let antagonist_id = a.id.to_string();
            antagonist.execute(params![id, antagonist_id, seq_of(i)?, a.name, a.recurring, a.revealed])?;
            for (j, c) in a.characteristics.iter().enumerate() {
                characteristic.execute(params![id, antagonist_id, seq_of(j)?, c.text, c.hidden])?;
            }
        }
        if let Some(c) = &t.challenge {
            self.put_penny_challenge(&id, c)?;
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO pa_end_piles (game_id, position, character_id, pile) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, p) in t.last_end.iter().flat_map(|e| &e.piles).enumerate() {
            stmt.execute(params![id, seq_of(i)?, p.character.to_string(), p.pile])?;
        }
        self.put_penny_history(&id, &t.history)
    }

    /// Writes the finished challenges (the old rows are already gone).
    fn put_penny_history(&self, game: &str, history: &[ChallengeRecord]) -> Result<()> {
        let tx = self.conn();
        let mut head = tx.prepare_cached(
            "INSERT INTO pa_history (game_id, position, challenge_id, adventure, stake, ante, pot, winner, folded, \
             narrator, narration) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?;
        let mut side_row = tx.prepare_cached(
            "INSERT INTO pa_history_sides (game_id, position, side, hand_score, hand_category) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut account = tx.prepare_cached(
            "INSERT INTO pa_history_accounts (game_id, position, side, list, n, kind, id, text) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        let mut die = tx.prepare_cached(
            "INSERT INTO pa_history_dice (game_id, position, side, n, face) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, r) in history.iter().enumerate() {
            let position = seq_of(i)?;
            head.execute(params![
                game,
                position,
                r.challenge.to_string(),
                r.adventure,
                r.stake,
                int(r.ante)?,
                int(r.pot)?,
                r.winner.map(name_of),
                r.folded.map(name_of),
                r.narrator.map(name_of),
                r.narration,
            ])?;
            for side in Side::BOTH {
                let s = r.side(side);
                let name = name_of(side);
                let hand = s.hand.as_ref();
                side_row.execute(params![
                    game,
                    position,
                    name,
                    hand.map(|h| h.score),
                    hand.map(|h| name_of(h.category))
                ])?;
                for (j, member) in s.members.iter().enumerate() {
                    let (kind, member_id) = account_columns(*member);
                    account.execute(params![
                        game,
                        position,
                        name,
                        "members",
                        seq_of(j)?,
                        kind,
                        member_id,
                        None::<String>
                    ])?;
                }
                for (list, used) in [("used", &s.used), ("given_up", &s.given_up)] {
                    for (j, u) in used.iter().enumerate() {
                        let (kind, owner) = account_columns(u.owner);
                        account.execute(params![game, position, name, list, seq_of(j)?, kind, owner, u.text])?;
                    }
                }
                for (j, face) in hand.map(|h| h.dice.as_slice()).unwrap_or_default().iter().enumerate() {
                    die.execute(params![game, position, name, seq_of(j)?, face])?;
                }
            }
        }
        Ok(())
    }

    fn put_penny_challenge(&self, game: &str, c: &Challenge) -> Result<()> {
        let tx = self.conn();
        let offer = c.offer.as_ref().map(|o| {
            let (kind, lender) = account_columns(o.lender);
            let borrower = match o.borrower {
                Some(Account::Character(id)) => Some(id.to_string()),
                _ => None,
            };
            Ok::<_, Error>((o.id.to_string(), kind, lender, name_of(o.side), int(o.amount)?, borrower))
        });
        let offer = offer.transpose()?;
        let outcome = c.outcome.as_ref();
        tx.prepare_cached(
            "INSERT INTO pa_challenges (game_id, id, stake, ante, devoted, phase, turn, offer_id, offer_lender_kind, \
             offer_lender_id, offer_side, offer_amount, outcome_pot, winner, folded, narrator, offer_borrower) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        )?
        .execute(params![
            game,
            c.id.to_string(),
            c.stake,
            int(c.ante)?,
            opt_int(c.devoted)?,
            name_of(c.phase),
            c.turn.map(name_of),
            offer.as_ref().map(|o| o.0.clone()),
            offer.as_ref().map(|o| o.1),
            offer.as_ref().and_then(|o| o.2.clone()),
            offer.as_ref().map(|o| &o.3),
            offer.as_ref().map(|o| o.4),
            opt_int(outcome.map(|o| o.pot))?,
            outcome.and_then(|o| o.winner).map(name_of),
            outcome.and_then(|o| o.folded).map(name_of),
            outcome.and_then(|o| o.narrator).map(name_of),
            offer.as_ref().and_then(|o| o.5.clone()),
        ])?;
        let hands = outcome.and_then(|o| o.hands.as_ref());
        let mut side_row = tx.prepare_cached(
            "INSERT INTO pa_challenge_sides (game_id, side, cup_chosen, wager, doubled, all_in, done, hand_score, \
             hand_category) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        let mut member = tx.prepare_cached(
            "INSERT INTO pa_challenge_members (game_id, side, list, position, kind, id, paid) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut used = tx.prepare_cached(
            "INSERT INTO pa_challenge_used (game_id, side, position, owner_kind, owner_id, text) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut die = tx.prepare_cached(
            "INSERT INTO pa_challenge_dice (game_id, side, kind, position, face, in_cup) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for side in Side::BOTH {
            let i = side_index(side);
            let s = &c.sides[i];
            let name = name_of(side);
            let hand = hands.map(|h| &h[i]);
            side_row.execute(params![
                game,
                name,
                s.cup_chosen,
                int(s.wager)?,
                int(s.doubled)?,
                s.all_in,
                s.done,
                hand.map(|h| h.score),
                hand.map(|h| name_of(h.category)),
            ])?;
            for (list, members) in [("members", &s.members), ("lost", &s.lost)] {
                for (j, m) in members.iter().enumerate() {
                    let (kind, account) = account_columns(m.account);
                    member.execute(params![game, name, list, seq_of(j)?, kind, account, int(m.paid)?])?;
                }
            }
            for (j, u) in s.used.iter().enumerate() {
                let (kind, owner) = account_columns(u.owner);
                used.execute(params![game, name, seq_of(j)?, kind, owner, u.text])?;
            }
            for (j, face) in s.dice.iter().enumerate() {
                die.execute(params![game, name, "rolled", seq_of(j)?, face, s.cup.contains(&j)])?;
            }
            for (j, face) in hand.map(|h| h.dice.as_slice()).unwrap_or_default().iter().enumerate() {
                die.execute(params![game, name, "hand", seq_of(j)?, face, None::<bool>])?;
            }
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO pa_challenge_circumstances (game_id, position, name, by_side, die, barred) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (j, x) in c.circumstances.iter().enumerate() {
            stmt.execute(params![game, seq_of(j)?, x.name, name_of(x.by), x.die, x.barred.map(name_of)])?;
        }
        let mut stmt = tx
            .prepare_cached("INSERT INTO pa_challenge_lenders (game_id, position, kind, id) VALUES (?1, ?2, ?3, ?4)")?;
        for (j, lender) in c.lenders.iter().enumerate() {
            let (kind, account) = account_columns(*lender);
            stmt.execute(params![game, seq_of(j)?, kind, account])?;
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO pa_challenge_bids (game_id, position, bidder_kind, bidder_id, amount) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (j, b) in c.bids.iter().enumerate() {
            let (kind, bidder) = account_columns(b.bidder);
            stmt.execute(params![game, seq_of(j)?, kind, bidder, int(b.amount)?])?;
        }
        Ok(())
    }
}

/// The names this module writes are the names serde writes, so the schema's CHECK lists,
/// the file format and the database agree.
#[cfg(test)]
mod tests {

    use super::*;
    use crate::store::{migrated_from, old_game_row};

    #[test]
    fn a_version_4_database_is_backed_up_then_migrated_to_hold_penny_tables() {
        let dir = tempfile::tempdir().unwrap();
        let game = "2a4b6c8d-0e1f-4a3b-9c5d-6e7f8091a2b3";
        let (mut store, backup) = migrated_from(dir.path(), 4, |conn| {
            old_game_row(conn, game, "Stakes", "penny_ante");
            conn.execute(
                "INSERT INTO characters VALUES ('3c5d7e9f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', ?1, 'penny_ante', 'Dolly', \
                 '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1)",
                [game],
            )
            .unwrap();
        });
        let characters: i64 = backup.query_row("SELECT count(*) FROM characters", [], |r| r.get(0)).unwrap();
        assert_eq!(characters, 1, "the backup is the database as it was");

        // The migrated file keeps its data and holds tables and sheets.
        let game = Uuid::parse_str(game).unwrap();
        let dolly = Uuid::parse_str("3c5d7e9f-1a2b-4c3d-8e4f-5a6b7c8d9e0f").unwrap();
        assert_eq!(store.read().penny_table(game).unwrap(), PennyTable::default());
        assert_eq!(store.read().penny_sheet(dolly).unwrap(), None);
        let table = PennyTable::default().starting_pennies(dolly, 30, 25).unwrap().0;
        let sheet = PennySheet { characteristics: vec!["Lucky".into()], carried: 0, lost: 0 };
        store
            .write(|tx| {
                tx.put_penny_table(game, &table)?;
                tx.put_penny_sheet(dolly, &sheet)
            })
            .unwrap();
        assert_eq!(store.read().penny_table(game).unwrap(), table);
        assert_eq!(store.read().penny_sheet(dolly).unwrap(), Some(sheet));
        assert_eq!(store.read().characters().unwrap()[0].name, "Dolly");
    }
}
