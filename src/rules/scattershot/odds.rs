//! The exact odds of a Made-It-By roll before the dice (RULES.md §4.3, "Odds";
//! `sheetkeeper odds scattershot`): the distribution of the basic MIB, and the chances of a
//! success (MIB ≥ 0), a Telling Blow (MIB ≥ Critical Juncture) and a Catastrophic Failure
//! (MIB < −Critical Juncture).
//!
//! A MIB is a fixed number (rating + modifiers) less the sum of two d10, so its
//! distribution is the two d10's faces convolved and shifted, counted in whole numbers of
//! the 100 equally likely rolls: exact, never sampled. A contest's RMIB is the actor's MIB
//! less the resistor's, counted over the 10 000 rolls of all four dice; it is read against
//! the Critical Juncture only when one of the two basic MIBs was itself a Telling Blow
//! ([`made_it_by::contest_reaches_juncture`]), so those chances come from the joint counts.
//! With several resistors the RMIB is the actor's MIB less the best of theirs
//! ([`made_it_by::MibRoll::best_resistor`]): the ways each best MIB comes up are counted
//! from each resistor's own counts ([`best_of`]: the ways all are at most a value, less the
//! ways all are below it), over the 100 rolls of each resistor rolling here.
//! Experience dice and the Application Phase's complications and benefits are choices made
//! after the odds are shown, so they are not in them.

use std::collections::{BTreeMap, BTreeSet};

use super::check_setting;
use super::made_it_by::{self, Party, Reading, D10, MAX_RESISTORS, MAX_TARGET};
use crate::error::{Error, Result};
pub use crate::rules::odds::Chance;

/// The exact odds of a roll's basic MIB (or RMIB), all over the same number of outcomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MibOdds {
    /// MIB ≥ 0.
    pub success: Chance,
    /// MIB ≥ the Critical Juncture (in a contest, only when it counts).
    pub telling_blow: Chance,
    /// MIB < −the Critical Juncture (in a contest, only when it counts).
    pub catastrophic: Chance,
    /// Each MIB that can come up, with its chance.
    pub mib: BTreeMap<i32, Chance>,
}

/// Ways each value comes up, by value.
pub(super) type Counts = BTreeMap<i64, u64>;

/// One die: each face once.
pub(super) fn die(sides: u8) -> Counts {
    (1..=i64::from(sides)).map(|face| (face, 1)).collect()
}

/// The ways each sum of one value from `a` and one from `b` comes up.
fn convolve(a: &Counts, b: &Counts) -> Counts {
    let mut sums = Counts::new();
    for (&x, &m) in a {
        for (&y, &n) in b {
            *sums.entry(x + y).or_default() += m * n;
        }
    }
    sums
}

/// The ways each basic MIB of rating + modifier (`target`) comes up, out of 100.
pub(super) fn mib_counts(target: i64) -> Counts {
    convolve(&die(D10), &die(D10)).into_iter().map(|(sum, ways)| (target - sum, ways)).collect()
}

fn target(field: &str, rating: i32, modifier: i32) -> Result<i64> {
    for (name, value) in [("rating", rating), ("modifier", modifier)] {
        if !(-MAX_TARGET..=MAX_TARGET).contains(&value) {
            let at = if field.is_empty() { name.to_owned() } else { format!("{field}.{name}") };
            return Err(Error::invalid(at, format!("{value} is out of range: -{MAX_TARGET} to {MAX_TARGET}")));
        }
    }
    Ok(i64::from(rating) + i64::from(modifier))
}

/// The ways each highest value among several independent parties comes up, over the
/// product of their outcomes: the ways all are at most a value, less the ways all are at
/// most the value below it. Empty without parties.
pub(super) fn best_of(parties: &[Counts]) -> Counts {
    let values: BTreeSet<i64> = parties.iter().flat_map(|c| c.keys().copied()).collect();
    let (mut best, mut below) = (Counts::new(), 0u64);
    for value in values {
        let at_most: u64 = parties.iter().map(|c| c.range(..=value).map(|(_, n)| n).sum::<u64>()).product();
        if at_most > below {
            best.insert(value, at_most - below);
        }
        below = at_most;
    }
    best
}

/// A resistor as the odds see it: rolling its 2d10 here at (rating, modifier), or with its
/// basic MIB rolled elsewhere and typed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opposing {
    Rolls(i32, i32),
    Rolled(i32),
}

/// How a contest's RMIB (the actor's basic MIB `actor` less the resistor's) reads: against
/// the Critical Juncture only when one of the two basic MIBs was a Telling Blow by itself.
pub(super) fn contest_reading(actor: i64, resistor: i64, critical_juncture: u32) -> Reading {
    let rmib = (actor - resistor) as i32;
    if made_it_by::contest_reaches_juncture(actor as i32, resistor as i32, critical_juncture) {
        made_it_by::read(rmib, critical_juncture)
    } else if rmib >= 0 {
        Reading::Success
    } else {
        Reading::Failure
    }
}

/// Sums the counts into the odds, reading each MIB with `reading` (which knows whether the
/// Critical Juncture counts for it).
fn odds(cases: impl Iterator<Item = (i64, Reading, u64)>, outcomes: u64) -> MibOdds {
    let (mut success, mut telling_blow, mut catastrophic) = (0, 0, 0);
    let mut mib = BTreeMap::<i32, u64>::new();
    for (value, reading, ways) in cases {
        *mib.entry(value as i32).or_default() += ways;
        success += if value >= 0 { ways } else { 0 };
        telling_blow += if reading == Reading::TellingBlow { ways } else { 0 };
        catastrophic += if reading == Reading::CatastrophicFailure { ways } else { 0 };
    }
    debug_assert_eq!(mib.values().sum::<u64>(), outcomes);
    MibOdds {
        success: Chance::new(success, outcomes),
        telling_blow: Chance::new(telling_blow, outcomes),
        catastrophic: Chance::new(catastrophic, outcomes),
        mib: mib.into_iter().map(|(value, ways)| (value, Chance::new(ways, outcomes))).collect(),
    }
}

/// The exact odds of a roll at `rating` with `modifier` against the Critical Juncture.
/// An error names a rating or modifier out of range, or a Critical Juncture outside its
/// table setting's range.
pub fn mib_odds(rating: i32, modifier: i32, critical_juncture: u32) -> Result<MibOdds> {
    let target = target("", rating, modifier)?;
    check_setting("critical_juncture", i64::from(critical_juncture))?;
    let cases =
        mib_counts(target).into_iter().map(|(mib, ways)| (mib, made_it_by::read(mib as i32, critical_juncture), ways));
    Ok(odds(cases, 100))
}

/// The exact odds of a contest's RMIB: the actor's (rating, modifier) against the
/// resistor's.
pub fn contest_odds(actor: (i32, i32), resistor: (i32, i32), critical_juncture: u32) -> Result<MibOdds> {
    contest_odds_many(actor, &[Opposing::Rolls(resistor.0, resistor.1)], critical_juncture)
}

/// The exact odds of a contest's RMIB against one or more resistors (audit D-SC6): the
/// actor's MIB less the best of theirs, over every roll of the actor's 2d10 and of each
/// resistor rolling here. An error names a resistor (`resistor`, `resistor_2`…) whose
/// number is out of range, or a contest of none or of more than [`MAX_RESISTORS`].
pub fn contest_odds_many(actor: (i32, i32), resistors: &[Opposing], critical_juncture: u32) -> Result<MibOdds> {
    let actor = mib_counts(target("actor", actor.0, actor.1)?);
    if resistors.is_empty() || resistors.len() > MAX_RESISTORS {
        return Err(Error::invalid(
            "resistors",
            format!("a contest has 1 to {MAX_RESISTORS} resistors, not {}", resistors.len()),
        ));
    }
    let mut counts = Vec::with_capacity(resistors.len());
    let mut outcomes = 100u64;
    for (i, resistor) in resistors.iter().enumerate() {
        let field = Party::Resistor(i).key();
        counts.push(match *resistor {
            Opposing::Rolls(rating, modifier) => {
                outcomes *= 100;
                mib_counts(target(&field, rating, modifier)?)
            }
            Opposing::Rolled(mib) => {
                if !(-MAX_TARGET..=MAX_TARGET).contains(&mib) {
                    return Err(Error::invalid(
                        format!("{field}.rolled"),
                        format!("{mib} is out of range: -{MAX_TARGET} to {MAX_TARGET}"),
                    ));
                }
                Counts::from([(i64::from(mib), 1)])
            }
        });
    }
    check_setting("critical_juncture", i64::from(critical_juncture))?;
    let best = best_of(&counts);
    let mut cases = Vec::with_capacity(actor.len() * best.len());
    for (&a, &m) in &actor {
        for (&r, &n) in &best {
            cases.push((a - r, contest_reading(a, r, critical_juncture), m * n));
        }
    }
    Ok(odds(cases.into_iter(), outcomes))
}

/// The exact odds of a contest whose resistor rolled elsewhere and typed in its basic MIB
/// (`resistor_mib`): only the actor's 2d10 are unknown, so the RMIB is counted over their 100
/// rolls, read against the Critical Juncture as a contest is.
pub fn contest_odds_against_rolled(actor: (i32, i32), resistor_mib: i32, critical_juncture: u32) -> Result<MibOdds> {
    contest_odds_many(actor, &[Opposing::Rolled(resistor_mib)], critical_juncture)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::dice::Entered;
    use crate::rules::scattershot::made_it_by::{MibRoll, Party, RollSetup};
    use crate::rules::scattershot::{Pools, Settings};

    fn c(count: u64, outcomes: u64) -> Chance {
        Chance::new(count, outcomes)
    }

    /// Plays every roll of the dice through the rules themselves and counts the readings.
    fn brute_force(actor: (i32, i32), resistor: Option<(i32, i32)>, cj: u32) -> MibOdds {
        let resistors: Vec<Opposing> = resistor.map(|(r, m)| Opposing::Rolls(r, m)).into_iter().collect();
        play_every_roll(actor, &resistors, cj)
    }

    /// The same against a resistor whose MIB was typed in: only the actor's dice are rolled.
    fn brute_force_against_rolled(actor: (i32, i32), resistor_mib: i32, cj: u32) -> MibOdds {
        play_every_roll(actor, &[Opposing::Rolled(resistor_mib)], cj)
    }

    /// Every 2d10 of the actor (and of each resistor rolling here), played through the rules.
    fn play_every_roll(actor: (i32, i32), resistors: &[Opposing], cj: u32) -> MibOdds {
        let settings = Settings { critical_juncture: cj, ..Settings::default() };
        let action =
            |rating, modifier, rolled| made_it_by::Action { description: String::new(), rating, modifier, rolled };
        let setup = RollSetup {
            actor: action(actor.0, actor.1, None),
            resistors: resistors
                .iter()
                .map(|r| match *r {
                    Opposing::Rolls(rating, modifier) => action(rating, modifier, None),
                    Opposing::Rolled(mib) => action(0, 0, Some(mib)),
                })
                .collect(),
            facets: Default::default(),
            chart: Vec::new(),
        };
        let faces: Vec<[u8; 2]> = (1..=10).flat_map(|a| (1..=10).map(move |b| [a, b])).collect();
        // Every combination of the resistors' 2d10 (None for one typed in).
        let mut resistor_faces: Vec<Vec<Option<[u8; 2]>>> = vec![Vec::new()];
        for r in resistors {
            let options: Vec<Option<[u8; 2]>> = match r {
                Opposing::Rolls(..) => faces.iter().copied().map(Some).collect(),
                Opposing::Rolled(_) => vec![None],
            };
            resistor_faces = resistor_faces
                .iter()
                .flat_map(|so_far| options.iter().map(|o| [so_far.clone(), vec![*o]].concat()))
                .collect();
        }
        let outcomes = (faces.len() * resistor_faces.len()) as u64;
        let (mut success, mut telling, mut catastrophic) = (0, 0, 0);
        let mut mib = BTreeMap::<i32, u64>::new();
        for &a in &faces {
            for rs in &resistor_faces {
                let (roll, _) = MibRoll::start(&setup, &settings).unwrap();
                let (mut roll, _) = roll.roll_dice(Party::Actor, &mut Entered::new(a)).unwrap();
                for (i, r) in rs.iter().enumerate() {
                    if let Some(r) = r {
                        roll = roll.roll_dice(Party::Resistor(i), &mut Entered::new(*r)).unwrap().0;
                    }
                }
                let basic = roll.basic().unwrap();
                let (decided, _, _) = roll.decide(&Pools::new()).unwrap();
                let outcome = decided.conclude().unwrap().0.outcome.unwrap();
                *mib.entry(basic).or_default() += 1;
                success += u64::from(basic >= 0);
                telling += u64::from(outcome.reading == Reading::TellingBlow);
                catastrophic += u64::from(outcome.reading == Reading::CatastrophicFailure);
            }
        }
        MibOdds {
            success: c(success, outcomes),
            telling_blow: c(telling, outcomes),
            catastrophic: c(catastrophic, outcomes),
            mib: mib.into_iter().map(|(v, n)| (v, c(n, outcomes))).collect(),
        }
    }

    #[test]
    fn a_rating_of_eleven_succeeds_on_55_rolls_in_100() {
        let odds = mib_odds(11, 0, 7).unwrap();
        assert_eq!(odds.success, c(55, 100));
        // A Telling Blow needs 2d10 ≤ 4 (6 ways), a Catastrophic Failure 2d10 ≥ 19 (3 ways).
        assert_eq!((odds.telling_blow, odds.catastrophic), (c(6, 100), c(3, 100)));
        assert_eq!(odds.mib.keys().copied().collect::<Vec<_>>(), (-9..=9).collect::<Vec<_>>());
        assert_eq!((odds.mib[&9], odds.mib[&0], odds.mib[&-9]), (c(1, 100), c(10, 100), c(1, 100)));
        // A modifier shifts the distribution like the rating does.
        assert_eq!(mib_odds(9, 2, 7).unwrap(), odds);
        assert_eq!(mib_odds(11, 0, 7).unwrap().success.decimal(12), "0.550000000000");
    }

    #[test]
    fn out_of_range_inputs_are_named() {
        assert!(mib_odds(MAX_TARGET + 1, 0, 7).unwrap_err().to_string().starts_with("rating: "));
        assert!(mib_odds(10, 0, 0).unwrap_err().to_string().starts_with("critical_juncture: 0 is out of range"));
        assert!(contest_odds((10, 0), (10, -MAX_TARGET - 1), 7)
            .unwrap_err()
            .to_string()
            .starts_with("resistor.modifier: "));
    }

    #[test]
    fn the_odds_equal_playing_every_roll() {
        for (rating, modifier, cj) in [(11, 0, 7), (20, -3, 5), (4, 0, 1), (30, 4, 30), (-5, 0, 7)] {
            assert_eq!(mib_odds(rating, modifier, cj).unwrap(), brute_force((rating, modifier), None, cj));
        }
        for (actor, resistor, cj) in [((14, 0), (12, 1), 7), ((20, 0), (8, 0), 3), ((10, 0), (10, 0), 7)] {
            assert_eq!(contest_odds(actor, resistor, cj).unwrap(), brute_force(actor, Some(resistor), cj));
        }
    }

    #[test]
    fn a_contest_reads_the_critical_juncture_only_through_an_initial_mib() {
        // Equal sides: an RMIB of 7 or more is common, but a Telling Blow needs an initial
        // MIB at 7 or more as well (or a Catastrophic Failure on either side).
        let odds = contest_odds((11, 0), (11, 0), 7).unwrap();
        let raw: u64 = odds.mib.iter().filter(|(&v, _)| v >= 7).map(|(_, c)| c.count()).sum();
        assert!(odds.telling_blow.count() < raw, "{} of {raw}", odds.telling_blow.count());
        let raw: u64 = odds.mib.iter().filter(|(&v, _)| v < -7).map(|(_, c)| c.count()).sum();
        assert!(odds.catastrophic.count() < raw, "{} of {raw}", odds.catastrophic.count());
        assert_eq!(odds.mib.values().map(|c| c.count()).sum::<u64>(), 10_000);
    }

    #[test]
    fn a_resistor_rolled_elsewhere_counts_only_the_actor_s_dice() {
        // Rating 14 against a resistor who made it by 2: RMIB = 12 − 2d10, a success on
        // 2d10 ≤ 12 (64 of the 100 rolls).
        let odds = contest_odds_against_rolled((14, 0), 2, 7).unwrap();
        assert_eq!(odds.success, c(64, 100));
        assert_eq!(odds.mib.values().map(|c| c.count()).sum::<u64>(), 100);
        for (actor, resistor, cj) in [((14, 0), 2, 7), ((20, -3), -9, 5), ((4, 0), 8, 1), ((11, 0), 0, 7)] {
            assert_eq!(
                contest_odds_against_rolled(actor, resistor, cj).unwrap(),
                brute_force_against_rolled(actor, resistor, cj)
            );
        }
        assert!(contest_odds_against_rolled((10, 0), MAX_TARGET + 1, 7)
            .unwrap_err()
            .to_string()
            .starts_with("resistor.rolled: "));
    }

    #[test]
    fn several_resistors_are_counted_against_the_best_of_them() {
        // By hand: rating 11 against two resistors who made it by 2 and by 3 elsewhere. The
        // best is 3, so RMIB = 8 - 2d10: a success on 2d10 <= 8, 28 of the 100 rolls (against
        // their sum it would be 2d10 <= 6, 15).
        let typed = [Opposing::Rolled(2), Opposing::Rolled(3)];
        assert_eq!(contest_odds_many((11, 0), &typed, 7).unwrap().success, c(28, 100));
        // Counted by hand, without the counts the odds are built from: the actor and two
        // resistors rolling here, each party's 2d10 sum weighted by its ways (10 - |sum - 11|
        // of 100), 1 000 000 rolls in all.
        let (actor, r1, r2, cj) = (15, 12, 9, 5);
        let (mut success, mut telling, mut catastrophic) = (0u64, 0u64, 0u64);
        for a in 2..=20 {
            for b in 2..=20 {
                for d in 2..=20 {
                    let ways = |sum: i32| 10 - (sum - 11).abs();
                    let n = (ways(a) * ways(b) * ways(d)) as u64;
                    let (mine, first, second) = (actor - a, r1 - b, r2 - d);
                    let rmib = mine - first.max(second);
                    let counts = mine >= cj || first.max(second) >= cj;
                    success += if rmib >= 0 { n } else { 0 };
                    telling += if counts && rmib >= cj { n } else { 0 };
                    catastrophic += if counts && rmib < -cj { n } else { 0 };
                }
            }
        }
        let odds = contest_odds_many((actor, 0), &[Opposing::Rolls(r1, 0), Opposing::Rolls(r2, 0)], cj as u32).unwrap();
        assert_eq!(
            (odds.success, odds.telling_blow, odds.catastrophic),
            (c(success, 1_000_000), c(telling, 1_000_000), c(catastrophic, 1_000_000))
        );
        // And played through the rules' own moves, one resistor rolling here and one typed in.
        let mixed = [Opposing::Rolls(12, 1), Opposing::Rolled(4)];
        assert_eq!(contest_odds_many((14, 0), &mixed, 7).unwrap(), play_every_roll((14, 0), &mixed, 7));
        // One resistor is the contest it always was.
        assert_eq!(
            contest_odds_many((14, 0), &[Opposing::Rolls(12, 1)], 7).unwrap(),
            contest_odds((14, 0), (12, 1), 7).unwrap()
        );
        // The resistor out of range is named; none, or six, is no contest.
        let bad = [Opposing::Rolled(0), Opposing::Rolls(10, MAX_TARGET + 1)];
        assert!(contest_odds_many((10, 0), &bad, 7).unwrap_err().to_string().starts_with("resistor_2.modifier: "));
        assert!(contest_odds_many((10, 0), &[], 7).unwrap_err().to_string().starts_with("resistors: "));
        assert!(contest_odds_many((10, 0), &[Opposing::Rolled(0); 6], 7).is_err());
    }

    proptest! {
        /// The convolution equals counting all 100 rolls one by one, for any rating,
        /// modifier and Critical Juncture.
        #[test]
        fn the_mib_distribution_equals_brute_force_enumeration(
            rating in -MAX_TARGET..=MAX_TARGET,
            modifier in -50i32..50,
            cj in 1u32..=30,
        ) {
            let odds = mib_odds(rating, modifier, cj).unwrap();
            let mut ways = BTreeMap::<i32, u64>::new();
            let (mut success, mut telling, mut catastrophic) = (0, 0, 0);
            for a in 1..=10 {
                for b in 1..=10 {
                    let mib = rating + modifier - a - b;
                    *ways.entry(mib).or_default() += 1;
                    success += u64::from(mib >= 0);
                    telling += u64::from(mib >= cj as i32);
                    catastrophic += u64::from(mib < -(cj as i32));
                }
            }
            let expected: BTreeMap<i32, Chance> = ways.into_iter().map(|(v, n)| (v, c(n, 100))).collect();
            prop_assert_eq!(&odds.mib, &expected);
            prop_assert_eq!(odds.success, c(success, 100));
            prop_assert_eq!(odds.telling_blow, c(telling, 100));
            prop_assert_eq!(odds.catastrophic, c(catastrophic, 100));
        }
    }

    proptest! {
        // Each case plays 10 000 rolls through the rules.
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// A contest's odds equal counting all 10 000 rolls through the rules.
        #[test]
        fn contest_odds_equal_brute_force(
            actor in (0i32..30, -3i32..3),
            resistor in (0i32..30, -3i32..3),
            cj in 1u32..12,
        ) {
            prop_assert_eq!(contest_odds(actor, resistor, cj).unwrap(), brute_force(actor, Some(resistor), cj));
        }
    }
}
