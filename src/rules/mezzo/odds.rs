//! The exact odds of a Mezzo conflict left to chance (RULES.md §3.2, "Odds"): each option's
//! probability of winning, with the step dice or in the D6 variant. A tie is split evenly
//! among the tied options: the tiebreak roll gives each of them the same die, so each is
//! equally likely to take it. In the D6 variant every owner takes a burst exactly when it
//! raises the expected score ([`D6Die::burst_pays`](super::conflict::D6Die::burst_pays), the
//! app's pre-selection).
//!
//! The method. Options score independently, each from a count of its own equally likely
//! outcomes ([`ScoreCounts`]: all faces of its step dice, or a first d6 and its reroll).
//! Option i wins at score s when every other option scores less, and shares a tie of k + 1
//! options when k others also score s and the rest less, so
//!
//! ```text
//! P(i wins) = Σ_s P(i = s) · Σ_k e_k(s) / (k + 1)
//! e_k(s)    = the coefficient of x^k in Π_{j≠i} (P(j < s) + P(j = s) · x)
//! ```
//!
//! In counts (P(j < s) = below_j(s) / D_j, D_j option j's outcomes) and with L the least
//! common multiple of 1 to N, every term is a whole number over L · Π_j D_j. The whole
//! numbers outgrow 128 bits (eight options of 40 votes have 12^64 outcomes between them),
//! so they are kept in [`Natural`], a small unbounded natural number: the odds are exact,
//! never sampled or rounded, and each option's share is reduced to lowest terms on demand
//! ([`Fraction`]).

use std::cmp::Ordering;
use std::fmt;

use serde::ser::SerializeStruct;
use serde::Serialize;

use super::conflict::{check_dice, check_options, check_votes, d6_die, step_dice, Variant};
use crate::error::{Error, Result};
pub use crate::rules::odds::Chance;
use crate::rules::odds::{decimal_from, LongDivision};

/// The most scores an option's [`ScoreCounts`] may list (scores 0 to 1 023), to bound the work.
pub const MAX_SCORES: usize = 1024;

/// How an option's equally likely outcomes score: `counts[s]` of its `outcomes` score `s`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoreCounts {
    pub counts: Vec<u128>,
    pub outcomes: u128,
}

/// The scores of step dice: every face of every die equally likely, the highest face counts,
/// no dice score 1. Errors name the dice (`dice`, `dice[k]`).
pub fn step_counts(dice: &[u8]) -> Result<ScoreCounts> {
    check_dice("dice", dice)?;
    if dice.is_empty() {
        return Ok(ScoreCounts { counts: vec![0, 1], outcomes: 1 });
    }
    // At most MAX_DICE d12s: 12^35 fits 128 bits. `at_most(s)` counts rolls whose every face is ≤ s.
    let at_most = |s: u128| dice.iter().map(|&d| s.min(u128::from(d))).product::<u128>();
    let top = dice.iter().copied().max().map_or(1, u128::from);
    let counts = (0..=top).map(|s| if s == 0 { 0 } else { at_most(s) - at_most(s - 1) }).collect();
    Ok(ScoreCounts { counts, outcomes: at_most(top) })
}

/// The scores of an option with `votes` votes in the D6 variant, over the 36 equally likely
/// pairs (first roll, reroll) — the reroll only counts after a burst, taken when it pays. No
/// votes score 1 (one outcome). More than the most votes is refused (field `votes`).
pub fn d6_counts(votes: u32) -> Result<ScoreCounts> {
    let Some(die) = d6_die(votes)? else {
        return Ok(ScoreCounts { counts: vec![0, 1], outcomes: 1 });
    };
    let mut counts = vec![0; 6 * (die.multiplier as usize + 1) + 1];
    for first in 1..=6u8 {
        for reroll in 1..=6u8 {
            let score = if die.burst_pays(first) {
                u32::from(reroll) * (die.multiplier + 1)
            } else {
                u32::from(first) * die.multiplier
            };
            counts[score as usize] += 1;
        }
    }
    Ok(ScoreCounts { counts, outcomes: 36 })
}

/// Each option's exact chance of winning a conflict whose options have `votes` votes (checked
/// like [`check_votes`]: errors name `votes` or `votes[i]`), with `variant`'s dice.
pub fn odds(votes: &[u32], variant: Variant) -> Result<ConflictOdds> {
    check_votes(votes)?;
    let options = match variant {
        Variant::Steps => votes.iter().map(|&v| step_counts(&step_dice(v)?)).collect::<Result<Vec<_>>>()?,
        Variant::D6 => votes.iter().map(|&v| d6_counts(v)).collect::<Result<Vec<_>>>()?,
    };
    win_odds(&options)
}

/// Each option's exact chance of having the highest score, ties split evenly, when option i
/// scores as `options[i]` says. Errors name `options` (too few or too many) or `options[i]`
/// (no outcomes, counts that do not add up to them, more than [`MAX_SCORES`] scores).
pub fn win_odds(options: &[ScoreCounts]) -> Result<ConflictOdds> {
    check_options("options", options.len())?;
    for (i, option) in options.iter().enumerate() {
        check_counts(&format!("options[{i}]"), option)?;
    }
    let n = options.len();
    let top = options.iter().map(|o| o.counts.len()).max().unwrap_or(0);
    // columns[s][j]: how many of option j's outcomes score less than s, and exactly s.
    let mut running = vec![0u128; n];
    let columns: Vec<Vec<(u128, u128)>> = (0..top)
        .map(|s| {
            (0..n)
                .map(|j| {
                    let equal = options[j].counts.get(s).copied().unwrap_or(0);
                    let less = running[j];
                    running[j] += equal;
                    (less, equal)
                })
                .collect()
        })
        .collect();
    // L = lcm(1..=n): a tie of k + 1 options gives each L / (k + 1) of L.
    let lcm = (1..=n as u64).fold(1, |l, k| l / gcd_u64(l, k) * k);
    let mut wins = vec![Natural::zero(); n];
    let mut poly: Vec<Natural> = Vec::with_capacity(n);
    for (i, win) in wins.iter_mut().enumerate() {
        'score: for column in &columns {
            let mine = column[i].1;
            if mine == 0 {
                continue;
            }
            // Π_{j≠i} (less_j + equal_j · x): coefficient k counts the others' outcomes with
            // k of them at this score and the rest below it.
            poly.clear();
            poly.push(Natural::from(1u64));
            for (j, &(less, equal)) in column.iter().enumerate() {
                if j == i {
                    continue;
                }
                if equal == 0 {
                    if less == 0 {
                        continue 'score; // j always scores more: i cannot win here
                    }
                    poly.iter_mut().for_each(|c| c.mul_wide(less));
                    continue;
                }
                poly.push(Natural::zero());
                for k in (0..poly.len()).rev() {
                    let (lower, upper) = poly.split_at_mut(k);
                    upper[0].mul_wide(less);
                    if let Some(previous) = lower.last() {
                        upper[0].add_mul_wide(previous, equal);
                    }
                }
            }
            let mut shares = Natural::zero();
            for (k, c) in poly.iter().enumerate() {
                shares.add_mul_small(c, lcm / (k as u64 + 1));
            }
            win.add_mul_wide(&shares, mine);
        }
    }
    let mut outcomes = Natural::from(lcm);
    for option in options {
        outcomes.mul_wide(option.outcomes);
    }
    Ok(ConflictOdds { counts: wins, outcomes })
}

fn check_counts(field: &str, option: &ScoreCounts) -> Result<()> {
    if option.counts.len() > MAX_SCORES {
        return Err(Error::invalid(field, format!("at most {MAX_SCORES} scores, not {}", option.counts.len())));
    }
    let sum = option.counts.iter().try_fold(0u128, |sum, &c| sum.checked_add(c));
    if option.outcomes == 0 || sum != Some(option.outcomes) {
        let sum = sum.map_or_else(|| "more than 128 bits hold".to_owned(), |s| s.to_string());
        return Err(Error::invalid(
            field,
            format!("the counts add up to {sum}, not to the {} outcomes (at least 1)", option.outcomes),
        ));
    }
    Ok(())
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Each option's exact chance of winning: its share of a common number of outcomes (the
/// shares add up to exactly that number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictOdds {
    counts: Vec<Natural>,
    outcomes: Natural,
}

impl ConflictOdds {
    /// Each option's share of [`ConflictOdds::outcomes`], in order.
    pub fn counts(&self) -> &[Natural] {
        &self.counts
    }

    /// The common denominator: lcm(1..=N) × each option's outcomes.
    pub fn outcomes(&self) -> &Natural {
        &self.outcomes
    }

    /// How many options.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether there are no options (never, for odds computed here).
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Option `option`'s chance in lowest terms, if there is such an option.
    pub fn option(&self, option: usize) -> Option<Fraction> {
        self.counts.get(option).map(|count| Fraction::reduced(count.clone(), self.outcomes.clone()))
    }

    /// Every option's chance in lowest terms, in order.
    pub fn options(&self) -> Vec<Fraction> {
        self.counts.iter().map(|count| Fraction::reduced(count.clone(), self.outcomes.clone())).collect()
    }
}

/// An exact probability (0 to 1) in lowest terms, of any size.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fraction {
    numerator: Natural,
    denominator: Natural,
}

impl Fraction {
    /// `numerator / denominator` in lowest terms (`denominator` > 0, `numerator` ≤ it).
    fn reduced(numerator: Natural, denominator: Natural) -> Fraction {
        let divisor = Natural::gcd(numerator.clone(), denominator.clone());
        if divisor == Natural::from(1u64) {
            return Fraction { numerator, denominator };
        }
        Fraction { numerator: numerator.div_rem(&divisor).0, denominator: denominator.div_rem(&divisor).0 }
    }

    pub fn numerator(&self) -> &Natural {
        &self.numerator
    }

    pub fn denominator(&self) -> &Natural {
        &self.denominator
    }

    /// The same value as a [`Chance`], when numerator and denominator fit in 64 bits.
    pub fn chance(&self) -> Option<Chance> {
        Some(Chance::new(self.numerator.to_u64()?, self.denominator.to_u64()?))
    }

    /// The nearest `f64` (from 17 significant digits: within an ulp or two).
    pub fn probability(&self) -> f64 {
        self.decimal(17).parse().unwrap_or(f64::NAN)
    }

    /// The exact value in plain decimal notation, rounded half up to `significant`
    /// significant digits (at least one), trailing zeros kept: written exactly as
    /// [`Chance::decimal`] writes the same value.
    pub fn decimal(&self, significant: usize) -> String {
        let significant = significant.max(1);
        if self.numerator.is_zero() {
            return format!("0.{}", "0".repeat(significant - 1));
        }
        let (units, rest) = self.numerator.div_rem(&self.denominator);
        let units = units.to_u64().map_or(0, |u| u.min(9) as u8);
        decimal_from(units, &mut NaturalDivision { rest, denominator: &self.denominator }, significant)
    }
}

/// The long division of a `Fraction`'s numerator by its denominator.
struct NaturalDivision<'a> {
    rest: Natural,
    denominator: &'a Natural,
}

impl LongDivision for NaturalDivision<'_> {
    fn next_digit(&mut self) -> u8 {
        self.rest.mul_small(10);
        let mut digit = 0;
        while self.rest >= *self.denominator {
            self.rest.sub_assign(self.denominator);
            digit += 1;
        }
        digit
    }

    fn half_or_more(&self) -> bool {
        let mut twice = self.rest.clone();
        twice.mul_small(2);
        twice >= *self.denominator
    }
}

/// `{"numerator":"…","denominator":"…","probability":p}`: the exact fraction as decimal
/// strings (they may exceed what JSON numbers hold), and the nearest `f64` for display.
impl Serialize for Fraction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Fraction", 3)?;
        s.serialize_field("numerator", &self.numerator.to_string())?;
        s.serialize_field("denominator", &self.denominator.to_string())?;
        s.serialize_field("probability", &self.probability())?;
        s.end()
    }
}

/// A natural number of any size: just what exact odds need (add a multiple, multiply by a
/// small number, subtract, divide, gcd, print), on 64-bit limbs, least significant first,
/// with no zero limb on top (so zero has none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Natural {
    limbs: Vec<u64>,
}

impl From<u64> for Natural {
    fn from(value: u64) -> Natural {
        let mut n = Natural { limbs: vec![value] };
        n.trim();
        n
    }
}

impl From<u128> for Natural {
    fn from(value: u128) -> Natural {
        let mut n = Natural { limbs: vec![value as u64, (value >> 64) as u64] };
        n.trim();
        n
    }
}

impl Natural {
    pub fn zero() -> Natural {
        Natural { limbs: Vec::new() }
    }

    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The value, if it fits in 64 bits.
    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs[..] {
            [] => Some(0),
            [value] => Some(value),
            _ => None,
        }
    }

    /// The value, if it fits in 128 bits.
    pub fn to_u128(&self) -> Option<u128> {
        match self.limbs[..] {
            [] => Some(0),
            [low] => Some(u128::from(low)),
            [low, high] => Some(u128::from(high) << 64 | u128::from(low)),
            _ => None,
        }
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// self × factor.
    fn mul_small(&mut self, factor: u64) {
        if factor == 0 {
            self.limbs.clear();
            return;
        }
        let mut carry = 0u128;
        for limb in &mut self.limbs {
            let product = u128::from(*limb) * u128::from(factor) + carry;
            *limb = product as u64;
            carry = product >> 64;
        }
        if carry > 0 {
            self.limbs.push(carry as u64);
        }
    }

    /// self + other × factor. Each step is at most (2^64 − 1) + (2^64 − 1)² + (2^64 − 1),
    /// which is 2^128 − 1: it fits.
    fn add_mul_small(&mut self, other: &Natural, factor: u64) {
        if factor == 0 || other.is_zero() {
            return;
        }
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = 0u128;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let add = match other.limbs.get(i) {
                Some(&o) => u128::from(o) * u128::from(factor),
                None if carry == 0 => break,
                None => 0,
            };
            let sum = u128::from(*limb) + add + carry;
            *limb = sum as u64;
            carry = sum >> 64;
        }
        if carry > 0 {
            self.limbs.push(carry as u64);
        }
    }

    /// self × factor, for a factor of up to 128 bits.
    fn mul_wide(&mut self, factor: u128) {
        if let Ok(small) = u64::try_from(factor) {
            return self.mul_small(small);
        }
        let mut high = self.clone();
        high.mul_small((factor >> 64) as u64);
        high.shl(64);
        self.mul_small(factor as u64);
        self.add_mul_small(&high, 1);
    }

    /// self + other × factor, for a factor of up to 128 bits.
    fn add_mul_wide(&mut self, other: &Natural, factor: u128) {
        if let Ok(small) = u64::try_from(factor) {
            return self.add_mul_small(other, small);
        }
        let mut high = other.clone();
        high.mul_small((factor >> 64) as u64);
        high.shl(64);
        self.add_mul_small(other, factor as u64);
        self.add_mul_small(&high, 1);
    }

    /// self − other, for other ≤ self (otherwise the result is meaningless, never a panic).
    fn sub_assign(&mut self, other: &Natural) {
        debug_assert!(*other <= *self);
        let mut borrow = false;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let o = match other.limbs.get(i) {
                Some(&o) => o,
                None if !borrow => break,
                None => 0,
            };
            let (d, b1) = limb.overflowing_sub(o);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            *limb = d;
            borrow = b1 || b2;
        }
        self.trim();
    }

    fn bits(&self) -> u64 {
        self.limbs.last().map_or(0, |&top| 64 * self.limbs.len() as u64 - u64::from(top.leading_zeros()))
    }

    fn bit(&self, i: u64) -> bool {
        self.limbs.get((i / 64) as usize).is_some_and(|&limb| limb >> (i % 64) & 1 == 1)
    }

    fn trailing_zeros(&self) -> u64 {
        match self.limbs.iter().position(|&limb| limb != 0) {
            Some(i) => 64 * i as u64 + u64::from(self.limbs[i].trailing_zeros()),
            None => 0,
        }
    }

    fn shl(&mut self, shift: u64) {
        if self.is_zero() || shift == 0 {
            return;
        }
        let (whole, part) = ((shift / 64) as usize, (shift % 64) as u32);
        if part > 0 {
            let mut carry = 0;
            for limb in &mut self.limbs {
                let next = *limb >> (64 - part);
                *limb = *limb << part | carry;
                carry = next;
            }
            if carry > 0 {
                self.limbs.push(carry);
            }
        }
        self.limbs.splice(0..0, std::iter::repeat_n(0, whole));
    }

    fn shr(&mut self, shift: u64) {
        let (whole, part) = ((shift / 64) as usize, (shift % 64) as u32);
        self.limbs.drain(..whole.min(self.limbs.len()));
        if part > 0 {
            for i in 0..self.limbs.len() {
                let high = self.limbs.get(i + 1).map_or(0, |&h| h << (64 - part));
                self.limbs[i] = self.limbs[i] >> part | high;
            }
        }
        self.trim();
    }

    /// self / divisor, returning the remainder (divisor > 0).
    fn div_small(&mut self, divisor: u64) -> u64 {
        let divisor = u128::from(divisor.max(1));
        let mut rest = 0u128;
        for limb in self.limbs.iter_mut().rev() {
            let current = rest << 64 | u128::from(*limb);
            *limb = (current / divisor) as u64;
            rest = current % divisor;
        }
        self.trim();
        rest as u64
    }

    /// The quotient and remainder of self / divisor (divisor > 0; by 0 gives (0, self)).
    fn div_rem(&self, divisor: &Natural) -> (Natural, Natural) {
        if divisor.is_zero() {
            return (Natural::zero(), self.clone());
        }
        if let Some(small) = divisor.to_u64() {
            let mut quotient = self.clone();
            let rest = quotient.div_small(small);
            return (quotient, Natural::from(rest));
        }
        // Bit by bit: the numbers here have a few hundred bits at most.
        let mut quotient = Natural { limbs: vec![0; self.limbs.len()] };
        let mut rest = Natural::zero();
        for i in (0..self.bits()).rev() {
            rest.shl(1);
            if self.bit(i) {
                match rest.limbs.first_mut() {
                    Some(low) => *low |= 1,
                    None => rest.limbs.push(1),
                }
            }
            if rest >= *divisor {
                rest.sub_assign(divisor);
                quotient.limbs[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        quotient.trim();
        (quotient, rest)
    }

    /// self × other, limb by limb. Each step is at most (2^64 − 1)² + 2 (2^64 − 1), which is
    /// 2^128 − 1: it fits.
    fn mul(&self, other: &Natural) -> Natural {
        let mut product = Natural { limbs: vec![0; self.limbs.len() + other.limbs.len()] };
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &b) in other.limbs.iter().enumerate() {
                let sum = u128::from(a) * u128::from(b) + u128::from(product.limbs[i + j]) + carry;
                product.limbs[i + j] = sum as u64;
                carry = sum >> 64;
            }
            // Row i has not reached this limb yet: the rows before it end one limb lower.
            product.limbs[i + other.limbs.len()] = carry as u64;
        }
        product.trim();
        product
    }

    /// The greatest common divisor (binary: shifts and subtractions only).
    fn gcd(mut a: Natural, mut b: Natural) -> Natural {
        if a.is_zero() {
            return b;
        }
        if b.is_zero() {
            return a;
        }
        let shift = a.trailing_zeros().min(b.trailing_zeros());
        a.shr(a.trailing_zeros());
        loop {
            b.shr(b.trailing_zeros());
            if a > b {
                std::mem::swap(&mut a, &mut b);
            }
            b.sub_assign(&a);
            if b.is_zero() {
                break;
            }
        }
        a.shl(shift);
        a
    }
}

impl Ord for Natural {
    fn cmp(&self, other: &Natural) -> Ordering {
        self.limbs.len().cmp(&other.limbs.len()).then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for Natural {
    fn partial_cmp(&self, other: &Natural) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// In decimal.
impl fmt::Display for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19, the largest power of 10 in a u64
        let mut rest = self.clone();
        let mut chunks = Vec::new();
        loop {
            chunks.push(rest.div_small(CHUNK));
            if rest.is_zero() {
                break;
            }
        }
        let mut chunks = chunks.iter().rev();
        write!(f, "{}", chunks.next().copied().unwrap_or(0))?;
        chunks.try_for_each(|chunk| write!(f, "{chunk:019}"))
    }
}

/// Exact comparison: a/b against c/d is a·d against c·b.
impl Ord for Fraction {
    fn cmp(&self, other: &Fraction) -> Ordering {
        self.numerator.mul(&other.denominator).cmp(&other.numerator.mul(&self.denominator))
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Fraction) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Compares `a.0 − a.1` with `b.0 − b.1` exactly, as `a.0 + b.1` against `b.0 + a.1`: the
/// rise (or fall) of one chance against another's, with no negative numbers on the way.
pub fn cmp_differences(a: (&Fraction, &Fraction), b: (&Fraction, &Fraction)) -> Ordering {
    // p/q + r/s = (p·s + r·q) / (q·s), and x/y against z/w is x·w against z·y.
    let sum = |p: &Fraction, r: &Fraction| {
        let mut numerator = p.numerator.mul(&r.denominator);
        numerator.add_mul_small(&r.numerator.mul(&p.denominator), 1);
        (numerator, p.denominator.mul(&r.denominator))
    };
    let (left, left_of) = sum(a.0, b.1);
    let (right, right_of) = sum(b.0, a.1);
    left.mul(&right_of).cmp(&right.mul(&left_of))
}

// ---------------------------------------------------------------------------------------
// For action checks (action_check.rs, which counts its odds with `win_odds` above)

impl Fraction {
    /// Exactly 0: the chance of a side that takes no part.
    pub fn zero() -> Fraction {
        Fraction { numerator: Natural::zero(), denominator: Natural::from(1u64) }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::dice::Entered;
    use crate::rules::mezzo::conflict::{leave_to_chance, option_dice, D6Conflict, Outcome, MAX_OPTIONS, MAX_VOTES};

    fn fraction(numerator: u128, denominator: u128) -> Fraction {
        Fraction::reduced(Natural::from(numerator), Natural::from(denominator))
    }

    fn exact(odds: &ConflictOdds) -> Vec<(String, String)> {
        odds.options().iter().map(|f| (f.numerator.to_string(), f.denominator.to_string())).collect()
    }

    fn sums_to_one(odds: &ConflictOdds) -> bool {
        let mut sum = Natural::zero();
        odds.counts().iter().for_each(|c| sum.add_mul_small(c, 1));
        sum == *odds.outcomes()
    }

    proptest! {
        #[test]
        fn products_and_comparisons_are_exact(a in any::<u64>(), b in any::<u64>(), c in 1u64.., d in 1u64..) {
            let product = Natural::from(a).mul(&Natural::from(b));
            prop_assert_eq!(product.to_u128(), Some(u128::from(a) * u128::from(b)));
            let wide = product.mul(&Natural::from(u64::MAX));
            prop_assert_eq!(wide.div_rem(&Natural::from(u64::MAX)), (product, Natural::zero()));
            let (x, y) = (fraction(u128::from(a.min(c)), u128::from(c)), fraction(u128::from(b.min(d)), u128::from(d)));
            let by_hand = (u128::from(a.min(c)) * u128::from(d)).cmp(&(u128::from(b.min(d)) * u128::from(c)));
            prop_assert_eq!(x.cmp(&y), by_hand);
            // x − y against y − x: the larger difference is the one with x on top.
            prop_assert_eq!(cmp_differences((&x, &y), (&y, &x)), by_hand);
        }
    }

    #[test]
    fn hand_counted_odds() {
        let f = |votes: &[u32], variant| exact(&odds(votes, variant).unwrap());
        let pair = |n: u32, d: u32| (n.to_string(), d.to_string());
        // A d4 against no dice: the d4 wins on 2–4 (3/4), ties on 1 (1/4, split): 7/8.
        assert_eq!(f(&[1, 0], Variant::Steps), [pair(7, 8), pair(1, 8)]);
        // A d6 against a d4: 14 of 24 wins, 4 ties: (14 + 2) / 24 = 2/3.
        assert_eq!(f(&[2, 1], Variant::Steps), [pair(2, 3), pair(1, 3)]);
        assert_eq!(f(&[1, 1], Variant::Steps), [pair(1, 2), pair(1, 2)]);
        assert_eq!(f(&[0, 0, 0], Variant::Steps), [pair(1, 3), pair(1, 3), pair(1, 3)]);
        assert_eq!(f(&[5, 5, 5, 5], Variant::D6), vec![pair(1, 4); 4]);
        // D6: 1 vote always beats none: a first 1 bursts (×2: at least 2), 2 to 6 stand.
        assert_eq!(f(&[1, 0], Variant::D6), [pair(1, 1), pair(0, 1)]);
        // D6: 5 votes against 6. The 5 votes burst on 1–5 (×2: 2, 4, … 12) and keep a 6; the
        // 6 votes score 2, 4, … 12. Evens against evens: 15/36 wins, 6/36 ties.
        // P(5 votes win) = 5/6 · (15/36 + 3/36) + 1/6 · (P(2r < 6) + P(2r = 6) / 2)
        //                = 5/12 + 1/6 · (2/6 + 1/12) = 35/72.
        assert_eq!(f(&[5, 6], Variant::D6), [pair(35, 72), pair(37, 72)]);
        let odds = odds(&[2, 1], Variant::Steps).unwrap();
        assert_eq!(odds.option(0).unwrap().chance(), Some(Chance::new(2, 3)));
        assert_eq!(odds.option(2), None);
    }

    /// Every roll of every option's step dice, one by one: the shares of L = lcm(1..=n) each
    /// option takes (L / k for each of k tied on top), over L × every roll.
    fn brute_force_steps(votes: &[u32]) -> Vec<Fraction> {
        let rolls: Vec<Vec<u32>> = votes
            .iter()
            .map(|&v| {
                let dice = step_dice(v).unwrap();
                let total: u32 = dice.iter().map(|&d| u32::from(d)).product();
                (0..total)
                    .map(|mut roll| {
                        let mut best = 1;
                        for &d in &dice {
                            best = best.max(roll % u32::from(d) + 1);
                            roll /= u32::from(d);
                        }
                        best
                    })
                    .collect()
            })
            .collect();
        tally(&rolls)
    }

    /// Each option's first roll and reroll (36 pairs; no votes: one outcome scoring 1), the
    /// burst taken when 3.5 × (m + 1) > first × m, written here in floating point.
    fn brute_force_d6(votes: &[u32]) -> Vec<Fraction> {
        let rolls: Vec<Vec<u32>> = votes
            .iter()
            .map(|&v| {
                if v == 0 {
                    return vec![1];
                }
                let (m, t) = (1 + v / 6, v % 6);
                let mut scores = Vec::new();
                for first in 1..=6 {
                    for reroll in 1..=6 {
                        let burst = first <= t && 3.5 * f64::from(m + 1) > f64::from(first * m);
                        scores.push(if burst { reroll * (m + 1) } else { first * m });
                    }
                }
                scores
            })
            .collect();
        tally(&rolls)
    }

    /// Every combination of each option's equally likely scores.
    fn tally(rolls: &[Vec<u32>]) -> Vec<Fraction> {
        let n = rolls.len();
        let lcm = (1..=n as u128).fold(1, |l, k| l / u128::from(gcd_u64(l as u64, k as u64)) * k);
        let mut shares = vec![0u128; n];
        let total: u128 = rolls.iter().map(|r| r.len() as u128).product();
        let mut index = vec![0usize; n];
        loop {
            let scores: Vec<u32> = (0..n).map(|i| rolls[i][index[i]]).collect();
            let top = *scores.iter().max().unwrap();
            let k = scores.iter().filter(|&&s| s == top).count() as u128;
            for i in 0..n {
                if scores[i] == top {
                    shares[i] += lcm / k;
                }
            }
            // Next combination, like an odometer.
            let mut i = 0;
            while i < n {
                index[i] += 1;
                if index[i] < rolls[i].len() {
                    break;
                }
                index[i] = 0;
                i += 1;
            }
            if i == n {
                break;
            }
        }
        shares.iter().map(|&s| fraction(s, lcm * total)).collect()
    }

    #[test]
    fn step_odds_match_rolling_every_die() {
        for a in 0..=6 {
            for b in 0..=6 {
                let votes = [a, b];
                assert_eq!(odds(&votes, Variant::Steps).unwrap().options(), brute_force_steps(&votes), "{votes:?}");
                for c in 0..=6 {
                    let votes = [a, b, c];
                    assert_eq!(odds(&votes, Variant::Steps).unwrap().options(), brute_force_steps(&votes), "{votes:?}");
                }
            }
        }
        for votes in [[11, 3, 8], [10, 10, 0], [7, 12, 2]] {
            assert_eq!(odds(&votes, Variant::Steps).unwrap().options(), brute_force_steps(&votes), "{votes:?}");
        }
    }

    #[test]
    fn d6_odds_match_rolling_every_die() {
        let interesting = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 16, 17, 18, 23, 29, 35, 36, 39, 40];
        for a in interesting {
            for b in interesting {
                let votes = [a, b];
                assert_eq!(odds(&votes, Variant::D6).unwrap().options(), brute_force_d6(&votes), "{votes:?}");
            }
        }
        for a in 0..=6 {
            for b in 0..=6 {
                for c in [0, 2, 5, 6, 17] {
                    let votes = [a, b, c];
                    assert_eq!(odds(&votes, Variant::D6).unwrap().options(), brute_force_d6(&votes), "{votes:?}");
                }
            }
        }
    }

    /// The rules' own rolls — Leave to Chance with every face typed in, the D6 variant with
    /// every first roll and reroll typed in and the pre-selected bursts taken — give the odds.
    #[test]
    fn odds_match_the_rules_rolling_every_die() {
        for votes in [[2u32, 1, 0], [6, 3, 1], [1, 1, 1]] {
            let dice = option_dice(&votes).unwrap();
            let all: Vec<u8> = dice.iter().flatten().copied().collect();
            let total: u32 = all.iter().map(|&d| u32::from(d)).product();
            let mut shares = [0u128; 3];
            for mut roll in 0..total {
                let faces: Vec<u8> = all
                    .iter()
                    .map(|&d| {
                        let face = (roll % u32::from(d)) as u8 + 1;
                        roll /= u32::from(d);
                        face
                    })
                    .collect();
                let outcome = leave_to_chance(&dice, &mut Entered::new(faces)).unwrap().outcome;
                add_shares(&mut shares, &outcome);
            }
            let expected: Vec<Fraction> = shares.iter().map(|&s| fraction(s, 6 * u128::from(total))).collect();
            assert_eq!(odds(&votes, Variant::Steps).unwrap().options(), expected, "{votes:?}");
        }
        for votes in [[2u32, 7, 0], [5, 17, 1], [3, 3, 9]] {
            let with_die: Vec<usize> = (0..3).filter(|&i| votes[i] > 0).collect();
            let total = 36u32.pow(with_die.len() as u32);
            let mut shares = [0u128; 3];
            for mut roll in 0..total {
                // (first, reroll) for each option with a die.
                let pairs: Vec<(u8, u8)> = with_die
                    .iter()
                    .map(|_| {
                        let pair = ((roll % 6) as u8 + 1, (roll / 6 % 6) as u8 + 1);
                        roll /= 36;
                        pair
                    })
                    .collect();
                let mut conflict = D6Conflict::roll(&votes, &mut Entered::new(pairs.iter().map(|p| p.0))).unwrap();
                for option in conflict.bursts_that_pay() {
                    let k = with_die.iter().position(|&i| i == option).unwrap();
                    conflict = conflict.burst(option, &mut Entered::new([pairs[k].1])).unwrap();
                }
                add_shares(&mut shares, &conflict.outcome());
            }
            let expected: Vec<Fraction> = shares.iter().map(|&s| fraction(s, 6 * u128::from(total))).collect();
            assert_eq!(odds(&votes, Variant::D6).unwrap().options(), expected, "{votes:?}");
        }
    }

    /// Adds each winner's share of 6 (a tie of k: 6 / k each).
    fn add_shares(shares: &mut [u128; 3], outcome: &Outcome) {
        match outcome {
            Outcome::Winner(w) => shares[*w] += 6,
            Outcome::Tie(tied) => tied.iter().for_each(|&t| shares[t] += 6 / tied.len() as u128),
        }
    }

    #[test]
    fn the_largest_conflicts_add_up_to_one_exactly() {
        for variant in [Variant::Steps, Variant::D6] {
            for votes in [vec![MAX_VOTES; 8], vec![MAX_VOTES; MAX_OPTIONS], (0..16).map(|v| v * 2 + 9).collect()] {
                let odds = odds(&votes, variant).unwrap();
                assert!(sums_to_one(&odds), "{votes:?} {variant:?}");
                assert!(odds.outcomes().to_u128().is_none() || variant == Variant::D6, "beyond 128 bits");
                if votes.iter().all(|&v| v == votes[0]) {
                    let n = votes.len().to_string();
                    assert!(odds
                        .options()
                        .iter()
                        .all(|f| f.numerator.to_string() == "1" && f.denominator.to_string() == n));
                }
            }
        }
    }

    /// DEV-13: the source caps neither votes nor options. 41 votes (nine dice) and 17 options
    /// have their exact odds; so do the new bounds' largest, 35 d12s, whose 12^35 outcomes
    /// need all 128 bits of an option's count.
    #[test]
    fn votes_and_options_beyond_the_old_caps_have_exact_odds() {
        for variant in [Variant::Steps, Variant::D6] {
            let odds41 = odds(&[41, 0], variant).unwrap();
            assert!(sums_to_one(&odds41));
            assert!(odds41.options()[0] > odds41.options()[1]);
            assert!(sums_to_one(&odds(&[1; 17], variant).unwrap()));
            assert!(sums_to_one(&odds(&[MAX_VOTES, MAX_VOTES - 1, 0], variant).unwrap()));
        }
        let most = step_counts(&step_dice(MAX_VOTES).unwrap()).unwrap();
        assert_eq!(most.outcomes, 12u128.pow(35));
        // Two equal options of the most dice: one half each, exactly.
        let halves = odds(&[MAX_VOTES, MAX_VOTES], Variant::Steps).unwrap().options();
        assert!(halves.iter().all(|f| f.numerator.to_string() == "1" && f.denominator.to_string() == "2"));
    }

    #[test]
    fn wide_factors_multiply_exactly() {
        let big = (u128::from(u64::MAX) << 3) + 5;
        let mut n = Natural::from(7u64);
        n.mul_wide(big);
        assert_eq!(n.to_u128(), Some(big * 7));
        let mut sum = Natural::from(1u64);
        sum.add_mul_wide(&Natural::from(3u64), big);
        assert_eq!(sum.to_u128(), Some(big * 3 + 1));
    }

    #[test]
    fn bad_input_is_named() {
        let err = |r: Result<ConflictOdds>| r.unwrap_err().to_string();
        assert_eq!(err(odds(&[], Variant::Steps)), "votes: a conflict has 2 to 32 options, not 0");
        assert_eq!(err(odds(&[3], Variant::D6)), "votes: a conflict has 2 to 32 options, not 1");
        assert_eq!(err(odds(&[3, 176], Variant::D6)), "votes[1]: an option holds at most 175 votes, not 176");
        assert_eq!(
            err(odds(&[u32::MAX, 1], Variant::Steps)),
            "votes[0]: an option holds at most 175 votes, not 4294967295"
        );
        let counts = |counts: Vec<u128>, outcomes| ScoreCounts { counts, outcomes };
        assert_eq!(
            err(win_odds(&[counts(vec![0, 1], 1), counts(vec![1, 1], 3)])),
            "options[1]: the counts add up to 2, not to the 3 outcomes (at least 1)"
        );
        assert_eq!(
            err(win_odds(&[counts(vec![0, 1], 1), counts(vec![], 0)])),
            "options[1]: the counts add up to 0, not to the 0 outcomes (at least 1)"
        );
        assert_eq!(
            err(win_odds(&[counts(vec![0, 1], 1), counts(vec![0; 1025], 1)])),
            "options[1]: at most 1024 scores, not 1025"
        );
        // Overflowing counts are compared as the u128 sum they are, not wrapped.
        assert!(win_odds(&[counts(vec![0, 1], 1), counts(vec![u128::from(u64::MAX), 2], 1)]).is_err());
        assert_eq!(
            err(win_odds(&[counts(vec![0, 1], 1), counts(vec![u128::MAX, 2], 1)])),
            "options[1]: the counts add up to more than 128 bits hold, not to the 1 outcomes (at least 1)"
        );
    }

    #[test]
    fn score_counts() {
        assert_eq!(step_counts(&[]).unwrap(), ScoreCounts { counts: vec![0, 1], outcomes: 1 });
        // d12 + d4: max ≤ s has min(s,12)·min(s,4) rolls.
        let c = step_counts(&[12, 4]).unwrap();
        assert_eq!(c.outcomes, 48);
        assert_eq!(&c.counts[..6], [0, 1, 3, 5, 7, 4]);
        assert_eq!(c.counts[12], 4);
        // 5 votes in the D6 variant: bursts on 1–5 (×2 uniform over 2..=12 evens), keeps a 6.
        let c = d6_counts(5).unwrap();
        assert_eq!((c.counts[2], c.counts[6], c.counts[12], c.outcomes), (5, 11, 5, 36));
        // 17 votes: ×3, threshold 5, but a 5 is kept (15 > 14).
        let c = d6_counts(17).unwrap();
        assert_eq!(c.counts[15], 6);
        assert_eq!(c.counts[4], 4, "bursts on 1–4 give ×4: 4 of each reroll");
    }

    #[test]
    fn decimals_match_chance_decimals() {
        let cases = [
            (15, 36, 15),
            (1, 2, 15),
            (36, 36, 15),
            (0, 36, 15),
            (1, 32768, 15),
            (2, 3, 3),
            (1, 8, 2),
            (999, 1000, 2),
            (99, 1000, 1),
            (96, 100, 1),
            (1, 3, 0),
        ];
        for (count, outcomes, significant) in cases {
            let chance = Chance::new(count, outcomes);
            let expected = if significant == 0 { chance.decimal(1) } else { chance.decimal(significant) };
            assert_eq!(fraction(count.into(), outcomes.into()).decimal(significant), expected, "{count}/{outcomes}");
        }
        // Beyond 128 bits: 1 / 3^100 and (3^100 − 1) / 3^100.
        let mut power = Natural::from(1u64);
        (0..100).for_each(|_| power.mul_small(3));
        let mut almost = power.clone();
        almost.sub_assign(&Natural::from(1u64));
        assert_eq!(power.to_string(), "515377520732011331036461129765621272702107522001");
        let tiny = Fraction::reduced(Natural::from(1u64), power.clone());
        assert_eq!(tiny.decimal(15), format!("0.{}194032521748263", "0".repeat(47)));
        assert_eq!(Fraction::reduced(almost, power).decimal(15), "1.00000000000000");
        assert_eq!(tiny.chance(), None);
        assert_eq!(
            serde_json::to_string(&fraction(2, 4)).unwrap(),
            r#"{"numerator":"1","denominator":"2","probability":0.5}"#
        );
    }

    proptest! {
        #[test]
        fn odds_add_up_to_one_exactly_and_equal_votes_have_equal_odds(
            votes in proptest::collection::vec(0u32..=MAX_VOTES, 2..=MAX_OPTIONS),
            d6 in any::<bool>(),
        ) {
            let variant = if d6 { Variant::D6 } else { Variant::Steps };
            let odds = odds(&votes, variant).unwrap();
            prop_assert!(sums_to_one(&odds));
            for i in 1..votes.len() {
                if votes[i] == votes[0] {
                    prop_assert_eq!(&odds.counts()[i], &odds.counts()[0]);
                }
            }
        }

        #[test]
        fn natural_arithmetic_agrees_with_u128(a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), d in 1u64..) {
            // (a·b + c) and friends stay within u128.
            let mut n = Natural::from(a);
            n.mul_small(b);
            n.add_mul_small(&Natural::from(c), 1);
            let value = u128::from(a) * u128::from(b) + u128::from(c);
            prop_assert_eq!(n.to_u128(), Some(value));
            prop_assert_eq!(n.to_string(), value.to_string());
            let (q, r) = n.div_rem(&Natural::from(u128::from(d) << 32 | 1));
            let divisor = u128::from(d) << 32 | 1;
            prop_assert_eq!((q.to_u128(), r.to_u128()), (Some(value / divisor), Some(value % divisor)));
            let mut m = n.clone();
            m.sub_assign(&Natural::from(c));
            prop_assert_eq!(m.to_u128(), Some(value - u128::from(c)));
            let g = Natural::gcd(n.clone(), Natural::from(divisor));
            let (mut x, mut y) = (value, divisor);
            while y != 0 {
                (x, y) = (y, x % y);
            }
            prop_assert_eq!(g.to_u128(), Some(x));
            let mut s = n.clone();
            s.shl(70);
            s.shr(70);
            prop_assert_eq!(s, n);
        }

        #[test]
        fn fraction_decimals_agree_with_chance(count in any::<u64>(), extra in any::<u64>(), significant in 1usize..25) {
            let outcomes = count.saturating_add(extra).max(1);
            let count = count.min(outcomes);
            let f = fraction(count.into(), outcomes.into());
            prop_assert_eq!(f.decimal(significant), Chance::new(count, outcomes).decimal(significant));
            let p = f.probability();
            let exact = count as f64 / outcomes as f64;
            prop_assert!((p - exact).abs() <= 4.0 * f64::EPSILON * exact);
        }
    }
}
