//! A Penny Ante campaign's history: every finished challenge, kept when it ends, with the
//! narration of its outcome written afterwards (RULES.md §2.4: the loser, or the winner
//! after a debt, tells what the loss meant).
//!
//! A record is read from the challenge's own `Outcome` when the challenge reaches its end;
//! the state machine is not changed by it. Dice that were in a cup are in the record: the
//! challenge is over, and the showdown revealed them.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::challenge::state::{Challenge, Phase, Side, Used};
use super::ledger::Account;
use super::score::Hand;
use crate::error::{Error, Result};

/// The longest narration, in characters.
pub const MAX_NARRATION_CHARS: usize = 2000;

/// One side of a finished challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordSide {
    /// Its lead first, then its allies.
    pub members: Vec<Account>,
    /// The characteristics it declared.
    #[serde(default)]
    pub used: Vec<Used>,
    /// Its best hand at a showdown; none after a fold.
    #[serde(default)]
    pub hand: Option<Hand>,
    /// The characteristics its characters gave up in a buyout (§2.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub given_up: Vec<Used>,
}

/// A finished challenge, as the campaign remembers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRecord {
    /// The challenge's id.
    pub challenge: Uuid,
    /// The adventure it was played in.
    pub adventure: u32,
    pub stake: String,
    pub ante: u64,
    /// The pot before it was paid out.
    pub pot: u64,
    /// None for a tie.
    pub winner: Option<Side>,
    pub folded: Option<Side>,
    /// Who tells the outcome: the loser, or the winner when the loser went into debt.
    pub narrator: Option<Side>,
    /// The challenger, then the opponent.
    pub sides: [RecordSide; 2],
    /// What the narrator told, written after the end (empty until then).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub narration: String,
}

impl ChallengeRecord {
    /// The record of `c`, once it is over; `given_up` are the characteristics lost in its
    /// buyout (the challenge's events name them; the challenge itself does not keep them).
    pub fn of(c: &Challenge, adventure: u32, given_up: &[Used]) -> Option<ChallengeRecord> {
        if c.phase != Phase::Over {
            return None;
        }
        let o = c.outcome.as_ref()?;
        let side = |s: Side| {
            let state = c.side(s);
            let hand = o.hands.as_ref().map(|h| h[if s == Side::Challenger { 0 } else { 1 }].clone());
            RecordSide {
                members: state.accounts().collect(),
                used: state.used.clone(),
                hand,
                given_up: given_up.iter().filter(|u| state.accounts().any(|a| a == u.owner)).cloned().collect(),
            }
        };
        Some(ChallengeRecord {
            challenge: c.id,
            adventure,
            stake: c.stake.clone(),
            ante: c.ante,
            pot: o.pot,
            winner: o.winner,
            folded: o.folded,
            narrator: o.narrator,
            sides: [side(Side::Challenger), side(Side::Opponent)],
            narration: String::new(),
        })
    }

    pub fn side(&self, s: Side) -> &RecordSide {
        &self.sides[if s == Side::Challenger { 0 } else { 1 }]
    }

    /// Whether `account` played in the challenge, on either side.
    pub fn involves(&self, account: Account) -> bool {
        self.sides.iter().any(|s| s.members.contains(&account))
    }
}

/// Checks a narration a person typed: up to [`MAX_NARRATION_CHARS`], several lines allowed;
/// empty clears it. Returned trimmed.
pub fn clean_narration(raw: &str) -> Result<String> {
    let text = raw.trim();
    if let Some(p) = crate::model::free_text_problem(text, MAX_NARRATION_CHARS) {
        return Err(Error::invalid("narration", p));
    }
    Ok(text.to_owned())
}
