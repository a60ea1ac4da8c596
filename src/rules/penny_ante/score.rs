//! The Yahtzee score of a hand (RULES.md §2.5): a side picks the five of its dice that score
//! best — the sum of the five (chance), a full house 25, a small straight 30, a large
//! straight 40 or five of a kind 50. With fewer than five dice (the Decision) the hand
//! scores the dice present: their sum, or 30 for four in a row.
//!
//! When two categories give the same score, the hand is named after the higher category
//! (in the order of [`Category`]); the score is the same either way.

use crate::error::{Error, Result};

/// The most dice a hand may be chosen from: a side's six dice and up to four circumstances.
pub const MAX_DICE: usize = 10;

/// The dice a hand is scored from.
const HAND: usize = 5;

/// How many dice show each face: `faces[0]` counts the ones, `faces[5]` the sixes.
pub(crate) type Faces = [u8; 6];

/// What a hand scores as, from the lowest category to the highest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// The sum of the dice.
    Chance,
    /// Three of one face and two of another: 25.
    FullHouse,
    /// Four faces in a row: 30.
    SmallStraight,
    /// Five faces in a row: 40.
    LargeStraight,
    /// Five dice showing the same face: 50.
    FiveOfAKind,
}

impl Category {
    /// The category's name as the table says it ("full house").
    pub fn label(self) -> &'static str {
        match self {
            Category::Chance => "chance",
            Category::FullHouse => "full house",
            Category::SmallStraight => "small straight",
            Category::LargeStraight => "large straight",
            Category::FiveOfAKind => "five of a kind",
        }
    }
}

/// The best hand that a set of dice makes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hand {
    pub score: u32,
    pub category: Category,
    /// The dice chosen for the hand (five, or all of them when there are fewer), highest
    /// face first.
    pub dice: Vec<u8>,
}

/// The best hand of 1 to [`MAX_DICE`] dice with faces 1 to 6. An error names the die that
/// is not a face of a d6, or the count when there are no dice or too many.
pub fn score(dice: &[u8]) -> Result<Hand> {
    if dice.is_empty() || dice.len() > MAX_DICE {
        return Err(Error::invalid("dice", format!("a hand has 1 to {MAX_DICE} dice, not {}", dice.len())));
    }
    let mut faces = [0; 6];
    for (i, &die) in dice.iter().enumerate() {
        if !(1..=6).contains(&die) {
            return Err(Error::invalid(format!("dice[{i}]"), format!("{die} is not a face of a d6")));
        }
        faces[usize::from(die - 1)] += 1;
    }
    let (score, category) = best(&faces);
    Ok(Hand { score, category, dice: chosen(&faces, category) })
}

/// The score and category of the best hand of the dice counted in `faces`. This is the
/// scoring itself, without a die list, so that the odds can call it millions of times.
pub(crate) fn best(faces: &Faces) -> (u32, Category) {
    let count: u8 = faces.iter().sum();
    if count < HAND as u8 {
        return if count == 4 && run(faces, 4).is_some() {
            (30, Category::SmallStraight)
        } else {
            (faces.iter().zip(1..).map(|(&n, face)| u32::from(n) * face).sum(), Category::Chance)
        };
    }
    if faces.iter().any(|&n| n >= 5) {
        return (50, Category::FiveOfAKind);
    }
    if run(faces, 5).is_some() {
        return (40, Category::LargeStraight);
    }
    // The sum of five dice reaches 30 only with five sixes, which scored 50 above.
    if run(faces, 4).is_some() {
        return (30, Category::SmallStraight);
    }
    let chance = highest(faces, HAND).iter().map(|&d| u32::from(d)).sum();
    if full_house(faces).is_some() && chance <= 25 {
        (25, Category::FullHouse)
    } else {
        (chance, Category::Chance)
    }
}

/// The lowest face (1-based) of the highest run of `length` faces in a row, if any.
fn run(faces: &Faces, length: usize) -> Option<u8> {
    (0..=6 - length).rev().find(|&low| faces[low..low + length].iter().all(|&n| n > 0)).map(|low| low as u8 + 1)
}

/// The faces of the highest full house (three of the first, two of the second), if any.
fn full_house(faces: &Faces) -> Option<(u8, u8)> {
    let three = (0..6).rev().find(|&f| faces[f] >= 3)?;
    let two = (0..6).rev().find(|&f| f != three && faces[f] >= 2)?;
    Some((three as u8 + 1, two as u8 + 1))
}

/// The `n` highest dice (or all of them when there are fewer), highest first.
fn highest(faces: &Faces, n: usize) -> Vec<u8> {
    (1..=6u8)
        .rev()
        .flat_map(|face| std::iter::repeat_n(face, usize::from(faces[usize::from(face - 1)])))
        .take(n)
        .collect()
}

/// The dice that make the hand of `category` from `faces`, highest first: where several
/// choices score the same, the highest faces.
fn chosen(faces: &Faces, category: Category) -> Vec<u8> {
    let mut dice = match category {
        Category::Chance => highest(faces, HAND),
        Category::FiveOfAKind => {
            let face = (1..=6u8).rev().find(|&f| faces[usize::from(f - 1)] >= 5).expect("five of a kind");
            vec![face; HAND]
        }
        Category::LargeStraight => {
            let low = run(faces, 5).expect("a large straight");
            (low..low + 5).collect()
        }
        Category::SmallStraight => {
            let low = run(faces, 4).expect("a small straight");
            let mut rest = *faces;
            for face in low..low + 4 {
                rest[usize::from(face - 1)] -= 1;
            }
            let mut dice: Vec<u8> = (low..low + 4).collect();
            dice.extend(highest(&rest, 1));
            dice
        }
        Category::FullHouse => {
            let (three, two) = full_house(faces).expect("a full house");
            vec![three, three, three, two, two]
        }
    };
    dice.sort_unstable_by(|a, b| b.cmp(a));
    dice
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores `dice` and checks the hand against what was counted by hand.
    fn check(dice: &[u8], score: u32, category: Category, chosen: &[u8]) {
        let hand = super::score(dice).unwrap_or_else(|e| panic!("{dice:?}: {e}"));
        assert_eq!(hand, Hand { score, category, dice: chosen.to_vec() }, "{dice:?}");
    }

    #[test]
    fn every_category_of_five_dice() {
        check(&[1, 3, 4, 6, 6], 20, Category::Chance, &[6, 6, 4, 3, 1]);
        check(&[2, 2, 5, 5, 5], 25, Category::FullHouse, &[5, 5, 5, 2, 2]);
        check(&[3, 1, 2, 4, 4], 30, Category::SmallStraight, &[4, 4, 3, 2, 1]);
        check(&[6, 3, 5, 1, 4], 30, Category::SmallStraight, &[6, 5, 4, 3, 1]);
        check(&[2, 3, 4, 5, 6], 40, Category::LargeStraight, &[6, 5, 4, 3, 2]);
        check(&[5, 4, 3, 2, 1], 40, Category::LargeStraight, &[5, 4, 3, 2, 1]);
        check(&[4, 4, 4, 4, 4], 50, Category::FiveOfAKind, &[4, 4, 4, 4, 4]);
    }

    #[test]
    fn the_higher_score_wins_between_categories() {
        // Five sixes sum to 30 but are five of a kind.
        check(&[6, 6, 6, 6, 6], 50, Category::FiveOfAKind, &[6, 6, 6, 6, 6]);
        // A full house is worth 25, less than this one's sum.
        check(&[6, 6, 6, 5, 5], 28, Category::Chance, &[6, 6, 6, 5, 5]);
        check(&[1, 1, 1, 2, 2], 25, Category::FullHouse, &[2, 2, 1, 1, 1]);
        // Five of a kind is not also a full house. From more than five dice, a sum of 25
        // can tie with a full house: the higher category names the hand.
        check(&[5, 5, 5, 5, 5], 50, Category::FiveOfAKind, &[5, 5, 5, 5, 5]);
        check(&[6, 6, 6, 3, 3, 4, 1], 25, Category::FullHouse, &[6, 6, 6, 3, 3]);
        check(&[6, 6, 6, 5, 4, 1, 1], 27, Category::Chance, &[6, 6, 6, 5, 4]);
        check(&[5, 5, 5, 5, 3, 3, 1], 25, Category::FullHouse, &[5, 5, 5, 3, 3]);
    }

    #[test]
    fn fewer_than_five_dice_score_their_sum_or_thirty_for_four_in_a_row() {
        check(&[6], 6, Category::Chance, &[6]);
        check(&[2, 6, 6], 14, Category::Chance, &[6, 6, 2]);
        check(&[6, 6, 6, 6], 24, Category::Chance, &[6, 6, 6, 6]);
        check(&[1, 2, 3, 5], 11, Category::Chance, &[5, 3, 2, 1]);
        check(&[4, 1, 3, 2], 30, Category::SmallStraight, &[4, 3, 2, 1]);
        check(&[3, 6, 5, 4], 30, Category::SmallStraight, &[6, 5, 4, 3]);
    }

    #[test]
    fn more_than_five_dice_choose_the_best_five() {
        check(&[1, 1, 2, 2, 3, 3, 6, 6, 6, 6], 27, Category::Chance, &[6, 6, 6, 6, 3]);
        check(&[1, 2, 3, 4, 5, 6, 6, 6, 6, 6], 50, Category::FiveOfAKind, &[6, 6, 6, 6, 6]);
        check(&[1, 2, 3, 4, 5, 6, 1, 1, 1, 1], 50, Category::FiveOfAKind, &[1, 1, 1, 1, 1]);
        check(&[1, 2, 3, 4, 5, 6, 6, 6, 6, 1], 40, Category::LargeStraight, &[6, 5, 4, 3, 2]);
        check(&[1, 2, 3, 4, 6, 6, 6, 6, 5, 5], 40, Category::LargeStraight, &[6, 5, 4, 3, 2]);
        check(&[1, 1, 2, 3, 4, 6, 6, 6, 6, 1], 30, Category::SmallStraight, &[6, 4, 3, 2, 1]);
        check(&[1, 1, 1, 2, 2, 2, 3], 25, Category::FullHouse, &[2, 2, 2, 1, 1]);
        check(&[1, 1, 2, 2, 2, 3, 3], 25, Category::FullHouse, &[3, 3, 2, 2, 2]);
        check(&[3, 3, 3, 4, 4, 6, 6], 25, Category::FullHouse, &[6, 6, 3, 3, 3]);
    }

    #[test]
    fn a_die_that_is_not_a_d6_face_is_named() {
        let err = score(&[1, 2, 3, 7, 5]).unwrap_err();
        assert_eq!(err.to_string(), "dice[3]: 7 is not a face of a d6");
        assert_eq!(score(&[0]).unwrap_err().to_string(), "dice[0]: 0 is not a face of a d6");
    }

    #[test]
    fn a_hand_has_one_to_ten_dice() {
        assert_eq!(score(&[]).unwrap_err().to_string(), "dice: a hand has 1 to 10 dice, not 0");
        assert_eq!(score(&[1; 11]).unwrap_err().to_string(), "dice: a hand has 1 to 10 dice, not 11");
        check(&[1; 10], 50, Category::FiveOfAKind, &[1; 5]);
    }

    #[test]
    fn every_hand_of_five_is_scored_as_the_best_category_it_fits() {
        // Every ordered roll of five dice, scored from first principles.
        for roll in 0..6u32.pow(5) {
            let dice: Vec<u8> = (0..5).map(|i| (roll / 6u32.pow(i) % 6) as u8 + 1).collect();
            let mut sorted = dice.clone();
            sorted.sort_unstable();
            sorted.dedup();
            let mut counts: Vec<usize> =
                (1..=6).map(|f| dice.iter().filter(|&&d| d == f).count()).filter(|&n| n > 0).collect();
            counts.sort_unstable();
            let in_a_row = |n: usize| sorted.windows(n).any(|w| w[n - 1] - w[0] == n as u8 - 1);
            let sum: u32 = dice.iter().map(|&d| u32::from(d)).sum();
            let expected = if counts == [5] {
                50
            } else if in_a_row(5) {
                40
            } else if in_a_row(4) {
                30
            } else if counts == [2, 3] {
                sum.max(25)
            } else {
                sum
            };
            assert_eq!(score(&dice).unwrap().score, expected, "{dice:?}");
        }
    }
}
