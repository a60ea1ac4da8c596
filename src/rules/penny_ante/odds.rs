//! The exact odds of a Penny Ante showdown (RULES.md §2.5, "Odds"): win, tie and lose for
//! "mine", treating every die not seen yet — in either cup or among the circumstances — as
//! a uniform, independent d6. Every circumstance die is usable by both sides, and each
//! side scores the best hand of its own dice and all the circumstance dice.
//!
//! The odds are counted in whole numbers of equally likely ordered rolls of the unseen
//! dice, so they are exact. A hand's score depends only on how many dice show each face,
//! so the rolls are grouped into multisets, each weighted by the number of ordered rolls
//! that give it (a multinomial coefficient). For each multiset of unseen circumstance dice,
//! each side's score distribution is counted over the multisets of its own unseen dice;
//! the sides are independent given the circumstances, so the two distributions combine as
//! win = Σ P(mine = a) · P(theirs < a).

use super::score::{best, Faces, MAX_DICE};
use crate::error::{Error, Result};
pub use crate::rules::odds::Chance;

/// The highest score a hand can have (five of a kind).
pub(super) const TOP_SCORE: usize = 50;

/// The dice in one place at the table: those seen, and how many are not seen yet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dice {
    /// The faces of the dice seen, 1 to 6 each.
    pub known: Vec<u8>,
    /// How many dice are still hidden or still to be rolled.
    pub unknown: u8,
}

impl Dice {
    fn count(&self) -> usize {
        self.known.len() + usize::from(self.unknown)
    }
}

/// A showdown as one side sees it before the dice are all known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Showdown {
    /// The side whose odds are asked for.
    pub mine: Dice,
    /// The opposing side.
    pub theirs: Dice,
    /// The circumstance dice in the middle, usable by both.
    pub circumstances: Dice,
}

/// The odds of a showdown for "mine", all over the same number of outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShowdownOdds {
    /// Mine scores higher.
    pub win: Chance,
    /// Both score the same (each side's wager returns).
    pub tie: Chance,
    /// Theirs scores higher.
    pub lose: Chance,
}

/// The exact odds of `showdown` for "mine". An error names a known die that is not a face
/// of a d6 (`mine[2]`), or a side (`mine`, `theirs`) whose own dice and the circumstances
/// are not 1 to 10 dice.
pub fn showdown_odds(showdown: &Showdown) -> Result<ShowdownOdds> {
    let (mine, theirs, middle) = seen_faces(showdown)?;
    let mine_rolls = multisets(showdown.mine.unknown);
    let theirs_rolls = multisets(showdown.theirs.unknown);
    let (mut win, mut tie, mut lose) = (0u128, 0u128, 0u128);
    for (rolled, weight) in multisets(showdown.circumstances.unknown) {
        let middle = plus(&middle, &rolled);
        let mine = distribution(&plus(&mine, &middle), &mine_rolls);
        let theirs = distribution(&plus(&theirs, &middle), &theirs_rolls);
        // `below` counts their rolls scoring less than `score`, `above` more.
        let mut below = 0u128;
        let mut above: u128 = theirs.iter().map(|&n| u128::from(n)).sum();
        let (mut w, mut t, mut l) = (0u128, 0u128, 0u128);
        for (&m, &th) in mine.iter().zip(&theirs) {
            let (m, th) = (u128::from(m), u128::from(th));
            above -= th;
            w += m * below;
            t += m * th;
            l += m * above;
            below += th;
        }
        let weight = u128::from(weight);
        win += weight * w;
        tie += weight * t;
        lose += weight * l;
    }
    let unknown = u32::from(showdown.mine.unknown)
        + u32::from(showdown.theirs.unknown)
        + u32::from(showdown.circumstances.unknown);
    // At most 20 unknown dice (10 a side counting the circumstances): 6^20 fits in a u64.
    let outcomes = 6u64.pow(unknown);
    debug_assert_eq!(win + tie + lose, u128::from(outcomes));
    let chance = |count: u128| Chance::new(u64::try_from(count).expect("at most every outcome"), outcomes);
    Ok(ShowdownOdds { win: chance(win), tie: chance(tie), lose: chance(lose) })
}

/// The faces seen of mine, theirs and the circumstances; an error names a die that is not a
/// face of a d6, or a side whose own dice and the circumstances are not 1 to 10 dice.
pub(super) fn seen_faces(showdown: &Showdown) -> Result<(Faces, Faces, Faces)> {
    let mine = known_faces("mine", &showdown.mine.known)?;
    let theirs = known_faces("theirs", &showdown.theirs.known)?;
    let middle = known_faces("circumstances", &showdown.circumstances.known)?;
    for (field, side) in [("mine", &showdown.mine), ("theirs", &showdown.theirs)] {
        let count = side.count() + showdown.circumstances.count();
        if count == 0 || count > MAX_DICE {
            return Err(Error::invalid(
                field,
                format!(
                    "a side scores 1 to {MAX_DICE} dice, its own and the circumstances together, \
                     not {count}"
                ),
            ));
        }
    }
    Ok((mine, theirs, middle))
}

/// Counts the faces of known dice, naming the first that is not a face of a d6.
pub(super) fn known_faces(field: &str, dice: &[u8]) -> Result<Faces> {
    let mut faces: Faces = [0; 6];
    for (i, &die) in dice.iter().enumerate() {
        if !(1..=6).contains(&die) {
            return Err(Error::invalid(format!("{field}[{i}]"), format!("{die} is not a face of a d6")));
        }
        // More than 255 dice are refused later as too many for a side; saturate until then.
        faces[usize::from(die - 1)] = faces[usize::from(die - 1)].saturating_add(1);
    }
    Ok(faces)
}

pub(super) fn plus(a: &Faces, b: &Faces) -> Faces {
    std::array::from_fn(|f| a[f] + b[f])
}

/// How many ordered rolls of `base` plus each multiset in `rolls` (with its weight) score
/// each value from 0 to 50.
fn distribution(base: &Faces, rolls: &[(Faces, u64)]) -> [u64; TOP_SCORE + 1] {
    let mut counts = [0; TOP_SCORE + 1];
    for (rolled, weight) in rolls {
        counts[best(&plus(base, rolled)).0 as usize] += weight;
    }
    counts
}

/// Every multiset of faces that `n` d6 can show, with the number of ordered rolls that
/// show it (n! / (k1! · … · k6!)).
pub(super) fn multisets(n: u8) -> Vec<(Faces, u64)> {
    fn factorial(n: u8) -> u64 {
        (1..=u64::from(n)).product()
    }
    fn fill(face: usize, left: u8, faces: &mut Faces, weight: u64, out: &mut Vec<(Faces, u64)>) {
        if face == 5 {
            faces[5] = left;
            out.push((*faces, weight / factorial(left)));
            return;
        }
        for k in 0..=left {
            faces[face] = k;
            fill(face + 1, left - k, faces, weight / factorial(k), out);
        }
    }
    let mut out = Vec::new();
    fill(0, n, &mut [0; 6], factorial(n), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::penny_ante::score;

    fn dice(known: &[u8], unknown: u8) -> Dice {
        Dice { known: known.to_vec(), unknown }
    }

    fn showdown(mine: Dice, theirs: Dice, circumstances: Dice) -> Showdown {
        Showdown { mine, theirs, circumstances }
    }

    /// The counts [win, tie, lose] over every ordered roll of the unknown dice, one by one:
    /// mine's, then theirs, then the circumstances', each side scored with `score`.
    fn brute_force(s: &Showdown) -> [u64; 3] {
        let (m, t, c) =
            (usize::from(s.mine.unknown), usize::from(s.theirs.unknown), usize::from(s.circumstances.unknown));
        let mut counts = [0; 3];
        for roll in 0..6u64.pow((m + t + c) as u32) {
            let faces: Vec<u8> = (0..m + t + c).map(|i| (roll / 6u64.pow(i as u32) % 6) as u8 + 1).collect();
            let middle: Vec<u8> = s.circumstances.known.iter().chain(&faces[m + t..]).copied().collect();
            let hand = |known: &[u8], rolled: &[u8]| {
                let all: Vec<u8> = known.iter().chain(rolled).chain(&middle).copied().collect();
                score(&all).unwrap().score
            };
            let (mine, theirs) = (hand(&s.mine.known, &faces[..m]), hand(&s.theirs.known, &faces[m..m + t]));
            counts[match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 2,
            }] += 1;
        }
        counts
    }

    fn counts(odds: &ShowdownOdds) -> [u64; 3] {
        [odds.win.count(), odds.tie.count(), odds.lose.count()]
    }

    /// Showdowns with up to five unknown dice in all, over a spread of known dice.
    fn small_showdowns() -> Vec<Showdown> {
        let knowns: [&[u8]; 5] = [&[], &[6], &[1, 2, 3], &[5, 5, 5, 2], &[2, 3, 4, 5, 6, 6]];
        let middles: [&[u8]; 3] = [&[], &[4], &[1, 1]];
        let mut every = Vec::new();
        for (i, mine) in knowns.iter().enumerate() {
            let theirs = knowns[(i + 2) % knowns.len()];
            for middle in middles {
                for m in 0..=2u8 {
                    for t in 0..=2u8 {
                        for c in 0..=1u8 {
                            let s = showdown(dice(mine, m), dice(theirs, t), dice(middle, c));
                            let fits = |side: &Dice| (1..=MAX_DICE).contains(&(side.count() + s.circumstances.count()));
                            if fits(&s.mine) && fits(&s.theirs) && m + t + c <= 5 {
                                every.push(s);
                            }
                        }
                    }
                }
            }
        }
        every
    }

    #[test]
    fn small_showdowns_match_rolling_every_die() {
        let every = small_showdowns();
        assert!(every.len() > 100, "{}", every.len());
        for s in every {
            assert_eq!(counts(&showdown_odds(&s).unwrap()), brute_force(&s), "{s:?}");
        }
        // Five unknown dice, split every way between the places.
        for s in [
            showdown(dice(&[], 5), dice(&[6, 6, 6, 6, 6], 0), dice(&[], 0)),
            showdown(dice(&[3], 2), dice(&[], 2), dice(&[4], 1)),
            showdown(dice(&[], 1), dice(&[], 1), dice(&[], 3)),
            showdown(dice(&[1, 2], 0), dice(&[5], 3), dice(&[3, 4], 2)),
        ] {
            assert_eq!(counts(&showdown_odds(&s).unwrap()), brute_force(&s), "{s:?}");
        }
    }

    #[test]
    fn hand_counted_odds() {
        // One unknown die each and nothing else: a tie when the faces match (6 of 36).
        let odds = showdown_odds(&showdown(dice(&[], 1), dice(&[], 1), dice(&[], 0))).unwrap();
        assert_eq!((counts(&odds), odds.win.outcomes()), ([15, 6, 15], 36));
        // Known hands only: one outcome, a certain result.
        let odds =
            showdown_odds(&showdown(dice(&[6, 6, 6, 5, 5], 0), dice(&[1, 1, 1, 2, 2], 0), dice(&[], 0))).unwrap();
        assert_eq!((counts(&odds), odds.win.outcomes()), ([1, 0, 0], 1));
        // A shared middle that is already five of a kind: both score 50.
        let odds = showdown_odds(&showdown(dice(&[], 2), dice(&[], 3), dice(&[2; 5], 0))).unwrap();
        assert_eq!(counts(&odds), [0, 6u64.pow(5), 0]);
    }

    #[test]
    fn counts_add_up_to_every_outcome_and_swapping_sides_swaps_win_and_lose() {
        let mut every = small_showdowns();
        every.push(showdown(dice(&[], 6), dice(&[], 6), dice(&[], 2)));
        every.push(showdown(dice(&[6, 2], 4), dice(&[3], 5), dice(&[1, 4], 2)));
        every.push(showdown(dice(&[], 10), dice(&[], 10), dice(&[], 0)));
        every.push(showdown(dice(&[], 0), dice(&[], 0), dice(&[], 10)));
        for s in every {
            let odds = showdown_odds(&s).unwrap();
            let outcomes = odds.win.outcomes();
            assert_eq!(odds.win.count() + odds.tie.count() + odds.lose.count(), outcomes, "{s:?}");
            let swapped = showdown_odds(&showdown(s.theirs.clone(), s.mine.clone(), s.circumstances.clone())).unwrap();
            assert_eq!((swapped.win, swapped.tie, swapped.lose), (odds.lose, odds.tie, odds.win), "{s:?}");
        }
    }

    #[test]
    fn bad_dice_are_named() {
        let err = |s: Showdown| showdown_odds(&s).unwrap_err().to_string();
        assert_eq!(err(showdown(dice(&[6, 7], 0), dice(&[], 1), dice(&[], 0))), "mine[1]: 7 is not a face of a d6");
        assert_eq!(err(showdown(dice(&[], 1), dice(&[0], 1), dice(&[], 0))), "theirs[0]: 0 is not a face of a d6");
        assert_eq!(
            err(showdown(dice(&[], 1), dice(&[], 1), dice(&[9], 0))),
            "circumstances[0]: 9 is not a face of a d6"
        );
        assert_eq!(
            err(showdown(dice(&[1, 2], 7), dice(&[], 1), dice(&[3], 1))),
            "mine: a side scores 1 to 10 dice, its own and the circumstances together, not 11"
        );
        assert_eq!(
            err(showdown(dice(&[], 1), dice(&[], 0), dice(&[], 0))),
            "theirs: a side scores 1 to 10 dice, its own and the circumstances together, not 0"
        );
    }
}
