//! Dice for every system. Rules never roll by themselves: they ask a [`DiceSource`], which is
//! either a seeded/passed-in RNG or the values a person rolled by hand and typed in.

use crate::error::{Error, Result};

/// Where die results come from.
pub trait DiceSource {
    /// One roll of a die with `sides` faces (1..=sides). `what` names the die for messages
    /// ("aspect die", "mood die (second roll)").
    fn roll(&mut self, sides: u8, what: &str) -> Result<u8>;
}

/// Dice rolled by the app with a passed-in random number generator.
pub struct Rolled<'r, R: rand::Rng + ?Sized>(pub &'r mut R);

impl<R: rand::Rng + ?Sized> DiceSource for Rolled<'_, R> {
    fn roll(&mut self, sides: u8, _what: &str) -> Result<u8> {
        Ok(self.0.random_range(1..=sides))
    }
}

/// Dice rolled at the table and typed in, used in order. Running out, or a value that the
/// die cannot show, is an error naming the die.
#[derive(Clone, Debug, Default)]
pub struct Entered {
    values: std::collections::VecDeque<u8>,
}

impl Entered {
    pub fn new(values: impl IntoIterator<Item = u8>) -> Self {
        Entered { values: values.into_iter().collect() }
    }

    /// The values not used yet.
    pub fn remaining(&self) -> usize {
        self.values.len()
    }
}

impl DiceSource for Entered {
    fn roll(&mut self, sides: u8, what: &str) -> Result<u8> {
        let value = self.values.pop_front().ok_or_else(|| Error::invalid(what, "no value was entered for this die"))?;
        if !(1..=sides).contains(&value) {
            return Err(Error::invalid(what, format!("{value} cannot be rolled on a d{sides} (1 to {sides})")));
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn entered_dice_are_used_in_order_and_checked_against_the_die() {
        let mut dice = Entered::new([3, 9]);
        assert_eq!(dice.roll(6, "aspect die").unwrap(), 3);
        let err = dice.roll(8, "mood die").unwrap_err();
        assert_eq!(err.to_string(), "mood die: 9 cannot be rolled on a d8 (1 to 8)");
        assert!(dice.roll(8, "helper die").unwrap_err().to_string().contains("no value was entered"));
    }

    #[test]
    fn rolled_dice_stay_on_the_die() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut dice = Rolled(&mut rng);
        for _ in 0..1000 {
            assert!((1..=4).contains(&dice.roll(4, "d4").unwrap()));
        }
    }
}
