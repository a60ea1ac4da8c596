//! Exact probabilities, shared by every system's odds: a count of equally likely outcomes
//! over their number, so sums are exact and nothing is sampled.

use std::cmp::Ordering;

/// An exact probability: `count` of `outcomes` equally likely outcomes. Two chances are
/// equal and ordered by their value, whatever their denominators.
#[derive(Clone, Copy, Debug)]
pub struct Chance {
    count: u64,
    outcomes: u64,
}

impl Chance {
    /// The chance of `count` of `outcomes` equally likely outcomes.
    ///
    /// # Panics
    /// When `outcomes` is 0 or `count` exceeds it.
    pub fn new(count: u64, outcomes: u64) -> Chance {
        assert!(outcomes > 0 && count <= outcomes, "a chance is a share of at least one outcome");
        Chance { count, outcomes }
    }

    /// The favourable outcomes.
    pub fn count(self) -> u64 {
        self.count
    }

    /// All equally likely outcomes (the denominator).
    pub fn outcomes(self) -> u64 {
        self.outcomes
    }

    /// The probability as the nearest `f64`.
    pub fn probability(self) -> f64 {
        self.count as f64 / self.outcomes as f64
    }

    /// The exact value in plain decimal notation, rounded half up to `significant`
    /// significant digits (trailing zeros kept, so every value shows the same precision).
    /// Zero, which has no significant digits, is written with as many decimals as one.
    ///
    /// # Panics
    /// When `significant` is 0.
    pub fn decimal(self, significant: usize) -> String {
        assert!(significant > 0, "at least one significant digit");
        let (count, outcomes) = (u128::from(self.count), u128::from(self.outcomes));
        if count == 0 {
            return format!("0.{}", "0".repeat(significant - 1));
        }
        let units = (count / outcomes) as u8;
        decimal_from(units, &mut U128Division { rest: count % outcomes, outcomes }, significant)
    }
}

/// A long division of a value in [0, 1] under way, past its units digit: it yields one
/// decimal at a time.
pub(crate) trait LongDivision {
    /// The next decimal digit.
    fn next_digit(&mut self) -> u8;
    /// Whether what is left is at least half of the last digit yielded.
    fn half_or_more(&self) -> bool;
}

/// The long division of a `Chance`'s count by its outcomes.
struct U128Division {
    rest: u128,
    outcomes: u128,
}

impl LongDivision for U128Division {
    fn next_digit(&mut self) -> u8 {
        self.rest *= 10;
        let digit = (self.rest / self.outcomes) as u8;
        self.rest %= self.outcomes;
        digit
    }

    fn half_or_more(&self) -> bool {
        self.rest * 2 >= self.outcomes
    }
}

/// A non-zero value in plain decimal notation from its long division: `units`, then decimals
/// from `division` until there are `significant` digits from the first non-zero one, rounded
/// half up (trailing zeros kept).
pub(crate) fn decimal_from(units: u8, division: &mut impl LongDivision, significant: usize) -> String {
    let mut digits = vec![units];
    let mut first = (units != 0).then_some(0);
    while first.is_none_or(|first| digits.len() - first < significant) {
        let digit = division.next_digit();
        digits.push(digit);
        if first.is_none() && digit != 0 {
            first = Some(digits.len() - 1);
        }
    }
    if division.half_or_more() {
        let mut i = digits.len() - 1;
        while digits[i] == 9 && i > 0 {
            digits[i] = 0;
            i -= 1;
        }
        digits[i] += 1;
        // A carry into a new leading digit (0.0999… → 0.100…) makes one digit too many.
        if first.is_some_and(|first| i < first) {
            digits.pop();
        }
    }
    let mut text = digits[0].to_string();
    if digits.len() > 1 {
        text.push('.');
        text.extend(digits[1..].iter().map(|&d| char::from(b'0' + d)));
    }
    text
}

impl PartialEq for Chance {
    fn eq(&self, other: &Chance) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Chance {}

impl PartialOrd for Chance {
    fn partial_cmp(&self, other: &Chance) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Chance {
    fn cmp(&self, other: &Chance) -> Ordering {
        let left = u128::from(self.count) * u128::from(other.outcomes);
        let right = u128::from(other.count) * u128::from(self.outcomes);
        left.cmp(&right)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_compare_by_value() {
        assert_eq!(Chance::new(15, 36), Chance::new(5, 12));
        assert!(Chance::new(1, 3) < Chance::new(34, 100));
        assert!(Chance::new(0, 7) < Chance::new(1, 32768));
    }

    #[test]
    fn decimals_are_exact_and_rounded_half_up() {
        let cases = [
            ((15, 36), 15, "0.416666666666667"),
            ((1, 2), 15, "0.500000000000000"),
            ((36, 36), 15, "1.00000000000000"),
            ((0, 36), 15, "0.00000000000000"),
            ((1, 32768), 15, "0.0000305175781250000"),
            ((2, 3), 3, "0.667"),
            ((1, 8), 2, "0.13"),
            ((999, 1000), 2, "1.0"),
            ((99, 1000), 1, "0.1"),
            ((96, 100), 1, "1"),
        ];
        for ((count, outcomes), significant, expected) in cases {
            assert_eq!(Chance::new(count, outcomes).decimal(significant), expected, "{count}/{outcomes}");
        }
    }
}
