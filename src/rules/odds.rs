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
        // Long division: the units digit (0 or 1), then decimals until there are enough
        // digits from the first non-zero one.
        let mut digits = vec![(count / outcomes) as u8];
        let mut rest = count % outcomes;
        let mut first = (digits[0] != 0).then_some(0);
        while first.is_none_or(|first| digits.len() - first < significant) {
            rest *= 10;
            digits.push((rest / outcomes) as u8);
            rest %= outcomes;
            if first.is_none() && digits[digits.len() - 1] != 0 {
                first = Some(digits.len() - 1);
            }
        }
        // What is left is `rest / outcomes` of the last digit: round half up.
        if rest * 2 >= outcomes {
            let mut i = digits.len() - 1;
            while digits[i] == 9 {
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
