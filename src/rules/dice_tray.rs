//! The dice tray: any roll a table asks for that no rule of the game rolls itself, typed as
//! `XdY±N` ("2d6+1", "d20", "3d8-2", "2d6+1d4+3"). Shared by every system; the games'
//! own dice are presets written in the same words. Pure: the RNG is passed in.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The most dice one roll may throw (all groups together).
pub const MAX_DICE: u32 = 100;
/// The fewest and the most sides a die may have.
pub const MIN_SIDES: u32 = 2;
pub const MAX_SIDES: u32 = 1000;
/// The largest modifier, up or down.
pub const MAX_MODIFIER: i32 = 1000;
/// The longest expression read, in characters.
pub const MAX_LENGTH: usize = 100;

const FIELD: &str = "expression";

/// A number of dice with the same number of sides ("3d8").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceGroup {
    pub count: u32,
    pub sides: u32,
}

/// A roll to make: groups of dice, in the order typed, and a modifier added to their sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expression {
    pub groups: Vec<DiceGroup>,
    pub modifier: i32,
}

/// One die thrown: its sides and the face it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieFace {
    pub sides: u32,
    pub face: u32,
}

/// A roll made: the expression as printed, each die's face, the modifier and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrayRoll {
    pub expression: String,
    pub dice: Vec<DieFace>,
    pub modifier: i32,
    pub total: i64,
}

impl fmt::Display for Expression {
    /// The expression as the app writes it: "2d6+1d4+3", "d20", "3d8-2".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, g) in self.groups.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            if g.count == 1 {
                write!(f, "d{}", g.sides)?;
            } else {
                write!(f, "{}d{}", g.count, g.sides)?;
            }
        }
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

impl Expression {
    /// How many dice the expression throws.
    pub fn dice(&self) -> u32 {
        self.groups.iter().map(|g| g.count).sum()
    }
}

/// Reads an expression. Spaces are ignored and `D` is `d`; a bad one is an error that quotes
/// it and says what is wrong.
pub fn parse(text: &str) -> Result<Expression> {
    let shown = text.trim();
    if shown.is_empty() {
        return Err(Error::invalid(FIELD, "type the dice to roll, like 2d6+1"));
    }
    if shown.chars().count() > MAX_LENGTH {
        return Err(Error::invalid(FIELD, format!("at most {MAX_LENGTH} characters")));
    }
    let bad = |problem: String| Error::invalid(FIELD, format!("'{shown}': {problem}"));
    let compact: String = shown.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_lowercase();
    if let Some(c) = compact.chars().find(|c| !(c.is_ascii_digit() || matches!(c, 'd' | '+' | '-'))) {
        return Err(bad(format!("'{c}' is not part of a dice roll (write dice like 2d6+1)")));
    }

    let mut groups = Vec::new();
    let mut modifier: i64 = 0;
    let mut rest = compact.as_str();
    let mut first = true;
    while !rest.is_empty() || first {
        let negative = match rest.chars().next() {
            Some('+') => {
                rest = &rest[1..];
                false
            }
            Some('-') => {
                rest = &rest[1..];
                true
            }
            _ if first => false,
            _ => return Err(bad("put + or - between the parts".into())),
        };
        first = false;
        let end = rest.find(['+', '-']).unwrap_or(rest.len());
        let term = &rest[..end];
        rest = &rest[end..];
        if term.is_empty() {
            return Err(bad("a + or - must be followed by dice or a number".into()));
        }
        match term.split_once('d') {
            Some((count, sides)) => {
                if negative {
                    return Err(bad(format!("dice cannot be taken away ('-{term}'); add them")));
                }
                let count = if count.is_empty() { 1 } else { number(count, &bad)? };
                if sides.is_empty() {
                    return Err(bad(format!("'{term}': write the die's number of sides after the d")));
                }
                if sides.contains('d') {
                    return Err(bad(format!("'{term}': one d per group of dice")));
                }
                let sides = number(sides, &bad)?;
                if count == 0 {
                    return Err(bad(format!("'{term}': roll at least 1 die")));
                }
                let at = if term == compact { String::new() } else { format!(" ('{term}')") };
                if sides < MIN_SIDES {
                    return Err(bad(format!("a die has at least {MIN_SIDES} sides{at}")));
                }
                if sides > MAX_SIDES {
                    return Err(bad(format!("a die has at most {MAX_SIDES} sides{at}")));
                }
                groups.push(DiceGroup { count, sides });
            }
            None => {
                let n = i64::from(number(term, &bad)?);
                modifier += if negative { -n } else { n };
                if modifier.abs() > i64::from(MAX_MODIFIER) {
                    return Err(bad(format!("the modifier is at most {MAX_MODIFIER} up or down")));
                }
            }
        }
    }
    if groups.is_empty() {
        return Err(bad("roll at least one die, like 1d6".into()));
    }
    let expression = Expression { groups, modifier: i32::try_from(modifier).unwrap_or_default() };
    if expression.dice() > MAX_DICE {
        return Err(bad(format!("at most {MAX_DICE} dice in one roll (this is {})", expression.dice())));
    }
    Ok(expression)
}

fn number(digits: &str, bad: &impl Fn(String) -> Error) -> Result<u32> {
    // Every number allowed is at most four digits; longer ones are too large whatever they say.
    if digits.len() > 6 {
        return Err(bad(format!("{digits} is too large")));
    }
    digits.parse().map_err(|_| bad(format!("'{digits}' is not a number")))
}

/// Rolls an expression with the RNG passed in: each die in the order typed, then the total
/// (their faces and the modifier).
pub fn roll<R: Rng + ?Sized>(expression: &Expression, rng: &mut R) -> TrayRoll {
    let dice = sides_of(expression).map(|sides| DieFace { sides, face: rng.random_range(1..=sides) }).collect();
    made(expression, dice)
}

/// Each die's sides, in the order typed.
fn sides_of(expression: &Expression) -> impl Iterator<Item = u32> + '_ {
    expression.groups.iter().flat_map(|g| std::iter::repeat_n(g.sides, g.count as usize))
}

/// The roll of `expression` whose dice came up as `dice`, with its total.
fn made(expression: &Expression, dice: Vec<DieFace>) -> TrayRoll {
    let total = dice.iter().map(|d| i64::from(d.face)).sum::<i64>() + i64::from(expression.modifier);
    TrayRoll { expression: expression.to_string(), dice, modifier: expression.modifier, total }
}

/// The roll of `expression` whose dice showed `faces` (rolled on another device at the table),
/// checked: one face per die, in the order typed, each on its die.
pub fn entered(expression: &Expression, faces: &[u32]) -> Result<TrayRoll> {
    let sides: Vec<u32> = sides_of(expression).collect();
    if faces.len() != sides.len() {
        return Err(Error::invalid("faces", format!("{expression} rolls {} dice, not {}", sides.len(), faces.len())));
    }
    if let Some((face, sides)) = faces.iter().zip(&sides).find(|(f, s)| !(1..=**s).contains(*f)) {
        return Err(Error::invalid("faces", format!("{face} cannot be rolled on a d{sides} (1 to {sides})")));
    }
    Ok(made(expression, faces.iter().zip(sides).map(|(&face, sides)| DieFace { sides, face }).collect()))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;

    use super::*;

    fn message(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn the_usual_rolls_are_read() {
        let e = parse("2d6+1").unwrap();
        assert_eq!(e, Expression { groups: vec![DiceGroup { count: 2, sides: 6 }], modifier: 1 });
        assert_eq!(parse("d20").unwrap().groups, vec![DiceGroup { count: 1, sides: 20 }]);
        assert_eq!(parse("3d8-2").unwrap().modifier, -2);
        let mixed = parse(" 2D6 + 1d4 + 3 ").unwrap();
        assert_eq!(mixed.groups.len(), 2);
        assert_eq!(mixed.modifier, 3);
        assert_eq!(mixed.to_string(), "2d6+d4+3");
        assert_eq!(parse("2d10").unwrap().to_string(), "2d10");
        assert_eq!(parse("1+d6-3").unwrap().to_string(), "d6-2");
    }

    #[test]
    fn a_bad_roll_names_what_is_wrong() {
        assert_eq!(message("2d1"), "expression: '2d1': a die has at least 2 sides");
        assert_eq!(message("2d6+d1"), "expression: '2d6+d1': a die has at least 2 sides ('d1')");
        assert!(message("").contains("type the dice to roll"));
        assert!(message("0d6").contains("roll at least 1 die"));
        assert!(message("101d6").contains("at most 100 dice in one roll (this is 101)"));
        assert!(message("60d6+50d4").contains("at most 100 dice"));
        assert!(message("d1001").contains("a die has at most 1000 sides"));
        assert!(message("d6+1001").contains("the modifier is at most 1000"));
        assert!(message("2x6").contains("'x' is not part of a dice roll"));
        assert!(message("2d").contains("number of sides after the d"));
        assert!(message("2d6+").contains("must be followed by dice or a number"));
        assert!(message("d6--1").contains("must be followed"));
        assert!(message("5").contains("roll at least one die"));
        assert!(message("d6-d4").contains("dice cannot be taken away"));
        assert!(message("2d6d4").contains("one d per group"));
        assert!(message("d99999999999").contains("too large"));
        assert!(message(&"1".repeat(101)).contains("at most 100 characters"));
    }

    #[test]
    fn a_roll_is_the_same_for_the_same_seed() {
        let e = parse("3d8-2").unwrap();
        let a = roll(&e, &mut rand::rngs::StdRng::seed_from_u64(9));
        let b = roll(&e, &mut rand::rngs::StdRng::seed_from_u64(9));
        assert_eq!(a, b);
        assert_eq!(a.expression, "3d8-2");
        assert_eq!(a.dice.len(), 3);
    }

    #[test]
    fn faces_rolled_elsewhere_are_checked_against_the_dice() {
        let e = parse("2d6+d4-1").unwrap();
        let roll = entered(&e, &[6, 1, 4]).unwrap();
        assert_eq!((roll.total, roll.dice[2]), (10, DieFace { sides: 4, face: 4 }));
        assert_eq!(entered(&e, &[6, 1]).unwrap_err().to_string(), "faces: 2d6+d4-1 rolls 3 dice, not 2");
        assert_eq!(entered(&e, &[6, 1, 5]).unwrap_err().to_string(), "faces: 5 cannot be rolled on a d4 (1 to 4)");
        assert!(entered(&e, &[0, 1, 1]).is_err());
    }

    fn expressions() -> impl Strategy<Value = Expression> {
        (prop::collection::vec((1u32..=10, MIN_SIDES..=MAX_SIDES), 1..=5), -MAX_MODIFIER..=MAX_MODIFIER).prop_map(
            |(groups, modifier)| Expression {
                groups: groups.into_iter().map(|(count, sides)| DiceGroup { count, sides }).collect(),
                modifier,
            },
        )
    }

    proptest! {
        #[test]
        fn a_roll_adds_up_and_its_printed_expression_reads_back(e in expressions(), seed in any::<u64>()) {
            prop_assert_eq!(parse(&e.to_string())?, e.clone());
            let rolled = roll(&e, &mut rand::rngs::StdRng::seed_from_u64(seed));
            prop_assert_eq!(rolled.dice.len() as u32, e.dice());
            let mut faces = rolled.dice.iter();
            for g in &e.groups {
                for d in faces.by_ref().take(g.count as usize) {
                    prop_assert_eq!(d.sides, g.sides);
                    prop_assert!((1..=g.sides).contains(&d.face));
                }
            }
            let sum: i64 = rolled.dice.iter().map(|d| i64::from(d.face)).sum();
            prop_assert_eq!(rolled.total, sum + i64::from(e.modifier));
            prop_assert_eq!(rolled.modifier, e.modifier);
            let faces: Vec<u32> = rolled.dice.iter().map(|d| d.face).collect();
            prop_assert_eq!(entered(&e, &faces)?, rolled);
        }

        #[test]
        fn any_text_is_read_or_refused_without_panicking(text in "[0-9dD+ -]{0,24}") {
            if let Ok(e) = parse(&text) {
                prop_assert!(e.dice() >= 1 && e.dice() <= MAX_DICE);
                prop_assert_eq!(parse(&e.to_string())?, e);
            }
        }
    }
}
