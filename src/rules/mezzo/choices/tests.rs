use proptest::prelude::*;

use super::*;
use crate::rules::dice::Entered;
use crate::rules::mezzo::conflict::{step_dice, MAX_OPTIONS};

/// `numerator / denominator` as the engine writes it.
fn exact(fraction: &Fraction) -> (String, String) {
    (fraction.numerator().to_string(), fraction.denominator().to_string())
}

fn ratio(numerator: u128, denominator: u128) -> (String, String) {
    let mut g = (numerator, denominator);
    while g.1 != 0 {
        g = (g.1, g.0 % g.1);
    }
    ((numerator / g.0).to_string(), (denominator / g.0).to_string())
}

/// Every way each option can score, with how many equally likely outcomes give it: the step
/// dice face by face, or the D6 variant's first roll and reroll, a burst taken when it pays.
fn outcomes(votes: u32, variant: Variant) -> Vec<(u32, u128)> {
    match variant {
        Variant::Steps => {
            let mut all = vec![(1, 1)];
            let dice = step_dice(votes).unwrap();
            if !dice.is_empty() {
                all = vec![(0, 1)];
                for die in dice {
                    all =
                        all.iter().flat_map(|&(best, n)| (1..=u32::from(die)).map(move |f| (best.max(f), n))).collect();
                }
            }
            all
        }
        Variant::D6 => match crate::rules::mezzo::conflict::d6_die(votes).unwrap() {
            None => vec![(1, 1)],
            Some(die) => (1..=6u8)
                .flat_map(|first| {
                    (1..=6u32).map(move |reroll| match die.burst_pays(first) {
                        true => (reroll * (die.multiplier + 1), 1),
                        false => (u32::from(first) * die.multiplier, 1),
                    })
                })
                .collect(),
        },
    }
}

/// Each option's chance of the highest score, ties split evenly, by walking every outcome
/// of every option: a plain enumeration, nothing shared with the engine.
fn enumerated(each: &[Vec<(u32, u128)>]) -> Vec<(String, String)> {
    let n = each.len();
    let lcm = (1..=n as u128).fold(1, |l, k| {
        let mut g = (l, k);
        while g.1 != 0 {
            g = (g.1, g.0 % g.1);
        }
        l / g.0 * k
    });
    let mut wins = vec![0u128; n];
    let mut total = 0u128;
    let mut walk = vec![0usize; n];
    'all: loop {
        let scores: Vec<(u32, u128)> = (0..n).map(|i| each[i][walk[i]]).collect();
        let weight: u128 = scores.iter().map(|s| s.1).product();
        let top = scores.iter().map(|s| s.0).max().unwrap();
        let tied = scores.iter().filter(|s| s.0 == top).count() as u128;
        for (i, s) in scores.iter().enumerate() {
            if s.0 == top {
                wins[i] += weight * lcm / tied;
            }
        }
        total += weight * lcm;
        for i in 0..n {
            walk[i] += 1;
            if walk[i] < each[i].len() {
                continue 'all;
            }
            walk[i] = 0;
        }
        break;
    }
    wins.iter().map(|&w| ratio(w, total)).collect()
}

fn enumerated_votes(votes: &[u32], variant: Variant) -> Vec<(String, String)> {
    enumerated(&votes.iter().map(|&v| outcomes(v, variant)).collect::<Vec<_>>())
}

#[test]
fn each_next_vote_is_the_plain_enumeration_of_the_conflict_with_that_vote() {
    for variant in [Variant::Steps, Variant::D6] {
        for votes in [vec![0, 0], vec![1, 0], vec![3, 1, 0], vec![2, 2, 1], vec![5, 6], vec![4, 7, 2]] {
            let choices = next_vote(&votes, variant).unwrap();
            assert_eq!(choices.len(), votes.len(), "every option may take a vote");
            let now = enumerated_votes(&votes, variant);
            for choice in &choices {
                let mut more = votes.clone();
                more[choice.option] += 1;
                let after: Vec<_> = choice.after.iter().map(exact).collect();
                assert_eq!(after, enumerated_votes(&more, variant), "{variant:?} {votes:?} +1 on {}", choice.option);
                assert_eq!(exact(&choice.now), now[choice.option]);
                assert_eq!(choice.votes, votes[choice.option]);
            }
        }
    }
}

#[test]
fn the_next_vote_marks_where_one_vote_moves_the_odds_most() {
    // A d6 against a d4: a vote on the d4 (to a d6: even) moves it from 1/3 to 1/2; a vote
    // on the d6 (to a d8) moves it from 2/3 to 3/4. The d4's vote counts for more.
    let choices = next_vote(&[2, 1], Variant::Steps).unwrap();
    let shown: Vec<_> = choices.iter().map(|c| (exact(&c.now), exact(c.with_vote()), c.best)).collect();
    assert_eq!(
        shown,
        [(ratio(2, 3), ratio(3, 4), false), (ratio(1, 3), ratio(1, 2), true)],
        "the d8 against a d4 wins 18 of 32 outright and splits 4 ties: 3/4"
    );
    // Two equal options: one vote moves either by the same amount, so both are marked.
    assert!(next_vote(&[3, 3], Variant::D6).unwrap().iter().all(|c| c.best));
}

#[test]
fn an_option_at_the_most_votes_takes_no_more() {
    let choices = next_vote(&[MAX_VOTES, 2], Variant::Steps).unwrap();
    assert_eq!(choices.iter().map(|c| c.option).collect::<Vec<_>>(), [1]);
    assert!(choices[0].best);
    let error = next_vote(&[1], Variant::Steps).unwrap_err().to_string();
    assert!(error.starts_with("votes:"), "{error}");
}

#[test]
fn a_sixth_vote_can_lower_an_option_s_chance_in_the_d6_variant() {
    // Five votes burst on 1–5 (to ×2) and keep a 6; six votes are ×2 with no burst. Against
    // an option whose scores sit between, the sure 6 is worth more than the ×2 reroll.
    let falls = (0..=12).flat_map(|other| (0..=12).map(move |more| [5, other, more])).find(|votes| {
        let choice = &next_vote(votes, Variant::D6).unwrap()[0];
        choice.with_vote() < &choice.now
    });
    assert!(falls.is_some(), "some field makes the sixth vote a loss for the option");
}

/// A conflict rolled in the D6 variant with these first rolls (an option without votes
/// rolls nothing).
fn rolled(votes: &[u32], firsts: &[u8]) -> D6Conflict {
    D6Conflict::roll(votes, &mut Entered::new(firsts.iter().copied())).unwrap()
}

#[test]
fn a_burst_is_chosen_by_the_chance_to_win_not_by_the_expected_score() {
    // Three votes (×1, burst on 1–3) rolled a 3; one vote rolled a 2 and stands (above its
    // threshold 1). Keeping the 3 wins outright; a burst (2 × the reroll) ties on a 1: 11/12.
    // The expected score says burst (7 > 3); the chance to win says keep.
    let conflict = rolled(&[3, 1], &[3, 2]);
    assert_eq!(conflict.bursts_that_pay(), [0]);
    let choices = conflict_bursts(&conflict).unwrap();
    assert_eq!(choices.len(), 1);
    let c = &choices[0];
    assert_eq!((c.option, c.first, exact(&c.keep), exact(&c.burst)), (0, 3, ratio(1, 1), ratio(11, 12)));
    assert_eq!(c.better, Better::Keep);

    // Against a 5, keeping a 2 loses; bursting wins on a reroll of 3 or more: 2/3.
    let c = &conflict_bursts(&rolled(&[3, 1], &[2, 5])).unwrap()[0];
    assert_eq!((exact(&c.keep), exact(&c.burst), c.better), (ratio(0, 1), ratio(2, 3), Better::Burst));

    // No open burst: nothing to choose.
    assert!(conflict_bursts(&rolled(&[3, 1], &[6, 2])).unwrap().is_empty());
}

#[test]
fn every_other_open_owner_is_taken_to_choose_as_the_app_suggests() {
    // Both may burst: option 0 (×1, threshold 3) rolled 3, option 1 (×1, threshold 2)
    // rolled 1, whose burst pays, so it is counted as 2 × a reroll.
    let conflict = rolled(&[3, 2], &[3, 1]);
    let choices = conflict_bursts(&conflict).unwrap();
    assert_eq!(choices.iter().map(|c| c.option).collect::<Vec<_>>(), [0, 1]);
    let by_hand = enumerated(&[vec![(3, 6)], (1..=6).map(|r| (2 * r, 1)).collect()]);
    assert_eq!(exact(&choices[0].keep), by_hand[0]);
    let by_hand = enumerated(&[(1..=6).map(|r| (2 * r, 1)).collect(), (1..=6).map(|r| (2 * r, 1)).collect()]);
    assert_eq!(exact(&choices[0].burst), by_hand[0]);
    assert_eq!(exact(&choices[0].burst), ratio(1, 2), "the same die each: even");
}

proptest! {
    #[test]
    fn the_marked_next_vote_is_the_largest_change(
        votes in prop::collection::vec(0u32..=12, 2..=4),
        d6 in any::<bool>(),
    ) {
        let variant = if d6 { Variant::D6 } else { Variant::Steps };
        let choices = next_vote(&votes, variant).unwrap();
        let change = |c: &NextVote| c.with_vote().probability() - c.now.probability();
        let top = choices.iter().map(change).fold(f64::NEG_INFINITY, f64::max);
        prop_assert!(choices.iter().any(|c| c.best));
        for c in &choices {
            if c.best {
                prop_assert!((change(c) - top).abs() < 1e-12);
            } else {
                prop_assert!(change(c) < top);
            }
        }
    }

    #[test]
    fn burst_and_keep_are_the_plain_enumeration_of_each_choice(
        votes in prop::collection::vec(1u32..=11, 2..=3),
        firsts in prop::collection::vec(1u8..=6, 3),
    ) {
        let conflict = rolled(&votes, &firsts[..votes.len()]);
        for choice in conflict_bursts(&conflict).unwrap() {
            let each = |burst: bool| -> Vec<Vec<(u32, u128)>> {
                conflict.options().iter().enumerate().map(|(j, roll)| {
                    let (die, first) = (roll.die().unwrap(), roll.first().unwrap());
                    let bursts = if j == choice.option { burst } else { roll.may_burst() && die.burst_pays(first) };
                    match bursts {
                        true => (1..=6).map(|r| (r * (die.multiplier + 1), 1)).collect(),
                        false => vec![(u32::from(first) * die.multiplier, 1)],
                    }
                }).collect()
            };
            prop_assert_eq!(exact(&choice.keep), enumerated(&each(false))[choice.option].clone());
            prop_assert_eq!(exact(&choice.burst), enumerated(&each(true))[choice.option].clone());
            let better = match choice.burst.probability().partial_cmp(&choice.keep.probability()) {
                Some(Ordering::Greater) => Better::Burst,
                Some(Ordering::Less) => Better::Keep,
                _ => Better::Either,
            };
            prop_assert_eq!(choice.better, better);
        }
    }
}

#[test]
fn the_largest_conflict_takes_its_next_votes() {
    let choices = next_vote(&[20; MAX_OPTIONS], Variant::Steps).unwrap();
    assert!(choices.iter().all(|c| c.best), "equal options: equal changes");
}
