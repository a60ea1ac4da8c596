//! Which dice go back in the cup (issue 34): after a side rolls, it chooses which of its
//! dice to reroll (RULES.md §2.3 step 2). For every distinct set of faces it could put back
//! — none, one die, … all — this gives the exact win, tie and lose chances of the showdown,
//! as [`showdown_odds`](super::odds::showdown_odds) would for the side with those dice turned
//! unknown, and marks the best: the highest chance to win.
//!
//! Done naively that is up to 64 showdowns. The work they share is done once: a hand's score
//! depends only on how many dice show each face, so every hand of up to ten dice is scored
//! once into a table indexed by its face counts (each count ≤ 10, so the counts are digits
//! in base 11 and the index of a sum of hands is the sum of their indices); the opponent's
//! score distribution is counted once per roll of the unseen circumstances, and each choice
//! only counts its own.

use super::odds::{known_faces, multisets, plus, seen_faces, Showdown, ShowdownOdds, TOP_SCORE};
use super::score::{best, Faces, MAX_DICE};
use crate::error::{Error, Result};
use crate::rules::odds::Chance;

/// One choice of dice to put back in the cup, with the showdown's odds after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RerollChoice {
    /// The faces put back, lowest first (empty: keep every die).
    pub reroll: Vec<u8>,
    pub odds: ShowdownOdds,
    /// Whether no other choice has a higher chance to win (more than one when they are equal).
    pub best: bool,
}

/// Every distinct choice of mine's seen dice to put back in the cup, fewest first, with its
/// exact odds. Mine's seen dice are the ones it may reroll; anything unknown stays unknown.
/// Errors as [`showdown_odds`](super::odds::showdown_odds).
pub fn reroll_choices(showdown: &Showdown) -> Result<Vec<RerollChoice>> {
    reroll_choices_among(showdown, &showdown.mine.known)
}

/// The same when only `rerollable` of mine's seen dice may go back in the cup: at a table, a
/// circumstance barred to the other side counts for mine alone, but it stays on the table.
/// An error also names `rerollable` when it holds a die mine does not show.
pub fn reroll_choices_among(showdown: &Showdown, rerollable: &[u8]) -> Result<Vec<RerollChoice>> {
    let (mine, theirs, middle) = seen_faces(showdown)?;
    let movable = known_faces("rerollable", rerollable)?;
    if movable.iter().zip(&mine).any(|(back, shown)| back > shown) {
        return Err(Error::invalid("rerollable", "names a die mine does not show"));
    }
    let table = ScoreTable::new();
    let put_back = sub_multisets(&movable);
    let rolls: Vec<Vec<(usize, u64)>> =
        (0..=MAX_DICE as u8).map(|n| multisets(n).into_iter().map(|(f, w)| (index(&f), w)).collect()).collect();
    let dice_back = |faces: &Faces| faces.iter().sum::<u8>();
    let theirs_rolls = &rolls[usize::from(showdown.theirs.unknown)];

    // [win, tie, lose] counts per choice, over that choice's equally likely outcomes.
    let mut counts = vec![[0u128; 3]; put_back.len()];
    for (rolled, weight) in multisets(showdown.circumstances.unknown) {
        let middle = plus(&middle, &rolled);
        let theirs = table.distribution(index(&plus(&theirs, &middle)), theirs_rolls);
        // below[s]: their rolls scoring less than s; total - below[s] - theirs[s]: more.
        let total: u128 = theirs.iter().map(|&n| u128::from(n)).sum();
        let mut below = [0u128; TOP_SCORE + 1];
        for s in 1..=TOP_SCORE {
            below[s] = below[s - 1] + u128::from(theirs[s - 1]);
        }
        let weight = u128::from(weight);
        for (back, count) in put_back.iter().zip(counts.iter_mut()) {
            let kept: Faces = std::array::from_fn(|f| mine[f] - back[f]);
            let own_rolls = &rolls[usize::from(showdown.mine.unknown + dice_back(back))];
            let mine = table.distribution(index(&plus(&kept, &middle)), own_rolls);
            for (s, &m) in mine.iter().enumerate().filter(|(_, &m)| m > 0) {
                let (m, th) = (u128::from(m), u128::from(theirs[s]));
                count[0] += weight * m * below[s];
                count[1] += weight * m * th;
                count[2] += weight * m * (total - below[s] - th);
            }
        }
    }

    let unknown_but_mine = u32::from(showdown.theirs.unknown) + u32::from(showdown.circumstances.unknown);
    let mut choices: Vec<RerollChoice> = put_back
        .iter()
        .zip(&counts)
        .map(|(back, count)| {
            // At most 20 unknown dice (10 a side counting the circumstances): 6^20 fits a u64.
            let outcomes = 6u64.pow(u32::from(showdown.mine.unknown + dice_back(back)) + unknown_but_mine);
            debug_assert_eq!(count.iter().sum::<u128>(), u128::from(outcomes));
            let chance = |n: u128| Chance::new(u64::try_from(n).expect("at most every outcome"), outcomes);
            RerollChoice {
                reroll: (1..=6u8)
                    .flat_map(|face| std::iter::repeat_n(face, usize::from(back[usize::from(face - 1)])))
                    .collect(),
                odds: ShowdownOdds { win: chance(count[0]), tie: chance(count[1]), lose: chance(count[2]) },
                best: false,
            }
        })
        .collect();
    choices.sort_by(|a, b| (a.reroll.len(), &a.reroll).cmp(&(b.reroll.len(), &b.reroll)));
    if let Some(top) = choices.iter().map(|c| c.odds.win).max() {
        for choice in &mut choices {
            choice.best = choice.odds.win == top;
        }
    }
    Ok(choices)
}

/// Every multiset of dice within `faces` (as face counts), the empty one and `faces` included.
fn sub_multisets(faces: &Faces) -> Vec<Faces> {
    let mut out = vec![[0; 6]];
    for f in 0..6 {
        out = out
            .into_iter()
            .flat_map(|partial| {
                (0..=faces[f]).map(move |k| {
                    let mut next = partial;
                    next[f] = k;
                    next
                })
            })
            .collect();
    }
    out
}

/// A hand's face counts as one number: the counts are digits in base 11.
fn index(faces: &Faces) -> usize {
    faces.iter().rev().fold(0, |at, &count| at * 11 + usize::from(count))
}

/// The score of every hand of up to [`MAX_DICE`] dice, by [`index`].
struct ScoreTable(Vec<u8>);

impl ScoreTable {
    fn new() -> ScoreTable {
        let mut scores = vec![0u8; 11usize.pow(6)];
        for n in 1..=MAX_DICE as u8 {
            for (faces, _) in multisets(n) {
                // A score is at most 50.
                scores[index(&faces)] = best(&faces).0 as u8;
            }
        }
        ScoreTable(scores)
    }

    /// How many ordered rolls of the hand at `base` plus each of `rolls` (indexed, with their
    /// weights) score each value from 0 to 50.
    fn distribution(&self, base: usize, rolls: &[(usize, u64)]) -> [u64; TOP_SCORE + 1] {
        let mut counts = [0; TOP_SCORE + 1];
        for &(rolled, weight) in rolls {
            counts[usize::from(self.0[base + rolled])] += weight;
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::penny_ante::odds::{showdown_odds, Dice};
    use proptest::prelude::*;

    fn showdown(mine: &[u8], mine_unknown: u8, theirs: (&[u8], u8), circumstances: (&[u8], u8)) -> Showdown {
        Showdown {
            mine: Dice { known: mine.to_vec(), unknown: mine_unknown },
            theirs: Dice { known: theirs.0.to_vec(), unknown: theirs.1 },
            circumstances: Dice { known: circumstances.0.to_vec(), unknown: circumstances.1 },
        }
    }

    /// The plain way: the showdown with the chosen faces taken out of mine's seen dice and
    /// made unknown, counted on its own.
    fn plainly(s: &Showdown, reroll: &[u8]) -> ShowdownOdds {
        let mut kept = s.mine.known.clone();
        for face in reroll {
            let at = kept.iter().position(|k| k == face).expect("a face mine has");
            kept.remove(at);
        }
        let mine = Dice { known: kept, unknown: s.mine.unknown + reroll.len() as u8 };
        showdown_odds(&Showdown { mine, ..s.clone() }).unwrap()
    }

    #[test]
    fn only_the_rerollable_dice_are_choices() {
        // Mine shows 6, 6 and 2, the 2 a circumstance barred to theirs: it stays on the table.
        let s = showdown(&[6, 6, 2], 0, (&[], 3), (&[], 1));
        let choices = reroll_choices_among(&s, &[6, 6]).unwrap();
        let faces: Vec<&[u8]> = choices.iter().map(|c| &c.reroll[..]).collect();
        assert_eq!(faces, [&[][..], &[6], &[6, 6]]);
        for choice in &choices {
            assert_eq!(choice.odds, plainly(&s, &choice.reroll));
        }
        let err = reroll_choices_among(&s, &[5]).unwrap_err().to_string();
        assert!(err.starts_with("rerollable: names a die mine does not show"), "{err}");
        assert!(reroll_choices_among(&s, &[9]).unwrap_err().to_string().starts_with("rerollable[0]"));
    }

    fn assert_each_choice_is_its_showdown(s: &Showdown) {
        let choices = reroll_choices(s).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for choice in &choices {
            assert_eq!(choice.odds, plainly(s, &choice.reroll), "{s:?} putting back {:?}", choice.reroll);
            assert!(seen.insert(choice.reroll.clone()), "{:?} twice", choice.reroll);
        }
        let top = choices.iter().map(|c| c.odds.win).max().unwrap();
        for choice in &choices {
            assert_eq!(choice.best, choice.odds.win == top, "best marks the highest win chance: {choice:?}");
        }
    }

    #[test]
    fn one_choice_per_distinct_set_of_faces_put_back_the_empty_one_included() {
        let s = showdown(&[6, 6, 3], 0, (&[], 2), (&[], 0));
        let rerolls: Vec<Vec<u8>> = reroll_choices(&s).unwrap().into_iter().map(|c| c.reroll).collect();
        assert_eq!(rerolls, [vec![], vec![3], vec![6], vec![3, 6], vec![6, 6], vec![3, 6, 6]]);
        assert_each_choice_is_its_showdown(&s);
        // Six different faces: every one of the 2^6 subsets is its own choice.
        assert_eq!(reroll_choices(&showdown(&[1, 2, 3, 4, 5, 6], 0, (&[], 1), (&[], 0))).unwrap().len(), 64);
    }

    #[test]
    fn the_choices_match_their_showdowns_with_circumstances_and_the_opponents_dice() {
        assert_each_choice_is_its_showdown(&showdown(&[5, 5, 2, 1], 0, (&[4], 1), (&[3], 1)));
        assert_each_choice_is_its_showdown(&showdown(&[6, 1], 1, (&[6, 6], 0), (&[], 2)));
        assert_each_choice_is_its_showdown(&showdown(&[], 2, (&[], 2), (&[2], 0)));
    }

    #[test]
    fn a_made_hand_is_kept() {
        // Five sixes score 50, the most there is: putting any back can only lose chances.
        let choices = reroll_choices(&showdown(&[6, 6, 6, 6, 6], 0, (&[], 5), (&[], 0))).unwrap();
        let best: Vec<&Vec<u8>> = choices.iter().filter(|c| c.best).map(|c| &c.reroll).collect();
        assert_eq!(best, [&Vec::<u8>::new()]);
        // A lone 1 against a known 5: only rerolling it can win.
        let choices = reroll_choices(&showdown(&[1], 0, (&[5], 0), (&[], 0))).unwrap();
        assert_eq!(choices[0].odds.win, Chance::new(0, 1));
        assert!(choices[1].best && choices[1].reroll == [1]);
    }

    #[test]
    fn bad_dice_are_named_as_for_the_odds() {
        let e = reroll_choices(&showdown(&[6, 7], 0, (&[], 1), (&[], 0))).unwrap_err();
        assert_eq!(e.to_string(), showdown_odds(&showdown(&[6, 7], 0, (&[], 1), (&[], 0))).unwrap_err().to_string());
        assert!(e.to_string().contains("mine[1]"), "{e}");
        assert!(reroll_choices(&showdown(&[6; 6], 0, (&[], 1), (&[], 5))).is_err(), "eleven dice for mine");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn every_choice_is_the_plain_count_of_its_showdown(
            mine in proptest::collection::vec(1u8..=6, 0..=4),
            mine_unknown in 0u8..=1,
            theirs in proptest::collection::vec(1u8..=6, 0..=2),
            theirs_unknown in 0u8..=2,
            middle in proptest::collection::vec(1u8..=6, 0..=1),
            middle_unknown in 0u8..=1,
        ) {
            let s = showdown(&mine, mine_unknown, (&theirs, theirs_unknown), (&middle, middle_unknown));
            prop_assume!(seen_faces(&s).is_ok());
            assert_each_choice_is_its_showdown(&s);
        }
    }
}
