//! The exact odds of a No Stone Unturned action roll (RULES.md §1.3, "Odds"): the
//! distribution of the player's signed margin (win by d = +d, lose by d = −d, tie = 0) when
//! every choice goes the way of whoever makes it.
//!
//! The margin is a sum of independent terms: the aspect die's face with a sign, the mood
//! die's face with the other sign (which the helper's die may replace), and the skill
//! modifier, which the player always turns in their own favour. So each die's term is
//! counted on its own and the two are convolved, in whole numbers of equally likely
//! outcomes of the physical dice: the result is exact, never sampled or rounded.

use std::cmp::Ordering;

use super::roll::{AtRisk, Edge, RollPlan};
use super::sheet::Die;
pub use crate::rules::odds::Chance;

/// Both things that can be at risk, to list every set-up.
const AT_RISK: [AtRisk; 2] = [AtRisk::Character, AtRisk::World];

/// Every edge a die can have, to list every set-up.
const EDGES: [Edge; 3] = [Edge::None, Edge::Advantage, Edge::Disadvantage];

/// The signs with which the aspect die and the mood die count in the player's margin: the
/// player holds the aspect die when the Character is at risk and the mood die when the
/// World is.
fn signs(at_risk: AtRisk) -> (i32, i32) {
    match at_risk {
        AtRisk::Character => (1, -1),
        AtRisk::World => (-1, 1),
    }
}

/// Everything settled before an action roll that changes its odds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionRollSetup {
    /// The die of the aspect the Arbiters chose.
    pub aspect_die: Die,
    /// The die of the mood the player acts with.
    pub mood_die: Die,
    pub at_risk: AtRisk,
    /// The net aspect advantage or disadvantage from details.
    pub aspect_edge: Edge,
    /// The net mood advantage or disadvantage from a risked sentiment and overload.
    pub mood_edge: Edge,
    /// The skill's modifier; 0 without a skill (a new skill starts at 0, too).
    pub skill: u8,
    /// The die of the helper's mood, when another character helps.
    pub helper_die: Option<Die>,
    /// The helper's die's edge: it follows the overload rules like a mood die (RULES.md §1.3
    /// step 7); the player keeps a face with advantage, the Arbiters with disadvantage.
    pub helper_edge: Edge,
}

impl ActionRollSetup {
    /// The aspect die against the mood die with `at_risk`: no edges, no skill, no helper.
    pub fn new(aspect_die: Die, mood_die: Die, at_risk: AtRisk) -> ActionRollSetup {
        ActionRollSetup {
            aspect_die,
            mood_die,
            at_risk,
            aspect_edge: Edge::None,
            mood_edge: Edge::None,
            skill: 0,
            helper_die: None,
            helper_edge: Edge::None,
        }
    }

    /// What a roll planned as `plan` (its dice, edges and skill) counts, with a helper's die
    /// and its edge when someone helps.
    pub fn planned(plan: &RollPlan, at_risk: AtRisk, helper: Option<(Die, Edge)>) -> ActionRollSetup {
        ActionRollSetup {
            aspect_edge: plan.aspect_edge,
            mood_edge: plan.mood_edge,
            skill: plan.skill_modifier,
            helper_die: helper.map(|(die, _)| die),
            helper_edge: helper.map_or(Edge::None, |(_, edge)| edge),
            ..ActionRollSetup::new(plan.aspect_die, plan.mood_die, at_risk)
        }
    }

    /// Every set-up with a skill modifier in `skills`: each aspect die, mood die, thing at
    /// risk, aspect edge, mood edge and helper (none or any die), for tests and benchmarks
    /// that cover them all.
    pub fn every(skills: std::ops::RangeInclusive<u8>) -> Vec<ActionRollSetup> {
        let mut every = Vec::new();
        for aspect_die in Die::ALL {
            for mood_die in Die::ALL {
                for at_risk in AT_RISK {
                    for aspect_edge in EDGES {
                        for mood_edge in EDGES {
                            for skill in skills.clone() {
                                for (helper_die, helper_edge) in helpers() {
                                    every.push(ActionRollSetup {
                                        aspect_die,
                                        mood_die,
                                        at_risk,
                                        aspect_edge,
                                        mood_edge,
                                        skill,
                                        helper_die,
                                        helper_edge,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        every
    }
}

/// No helper, or a helper with any die and any edge.
fn helpers() -> Vec<(Option<Die>, Edge)> {
    std::iter::once((None, Edge::None))
        .chain(Die::ALL.into_iter().flat_map(|d| EDGES.into_iter().map(move |e| (Some(d), e))))
        .collect()
}

/// The odds of an action roll, all over the same number of outcomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionOdds {
    /// The player wins (margin > 0).
    pub win: Chance,
    /// Neither side wins (margin 0).
    pub tie: Chance,
    /// The Arbiters win (margin < 0).
    pub lose: Chance,
    /// Every margin that can occur, ascending and with no gaps, with its chance.
    pub margin: Vec<(i32, Chance)>,
}

/// The exact odds of an action roll set up as `setup`, with every choice made by whoever
/// makes it in their own favour (RULES.md §1.3, "Decision" and "Odds").
pub fn action_odds(setup: &ActionRollSetup) -> ActionOdds {
    let (aspect_sign, mood_sign) = signs(setup.at_risk);
    let aspect = Spread::die(setup.aspect_die, aspect_sign, setup.aspect_edge);
    let mut mood = Spread::die(setup.mood_die, mood_sign, setup.mood_edge);
    if let Some(helper) = setup.helper_die {
        // The helper's kept face is chosen first (by the player with advantage, the Arbiters
        // with disadvantage); the player then uses it when it beats their own mood die.
        mood = mood.or_better(&Spread::die(helper, mood_sign, setup.helper_edge));
    }
    let mut margin = aspect.plus(&mood);
    // The player adds the skill to the aspect die or subtracts it, whichever helps them.
    margin.lowest += i32::from(setup.skill);

    let outcomes = margin.counts.iter().sum();
    let (mut win, mut tie, mut lose) = (0, 0, 0);
    for (value, &count) in margin.values().zip(&margin.counts) {
        match value.cmp(&0) {
            Ordering::Greater => win += count,
            Ordering::Equal => tie += count,
            Ordering::Less => lose += count,
        }
    }
    ActionOdds {
        win: Chance::new(win, outcomes),
        tie: Chance::new(tie, outcomes),
        lose: Chance::new(lose, outcomes),
        margin: margin
            .values()
            .zip(&margin.counts)
            .map(|(value, &count)| (value, Chance::new(count, outcomes)))
            .collect(),
    }
}

/// How many equally likely outcomes give each value of one term of the margin, for
/// consecutive values from `lowest`. Every count is positive.
#[derive(Clone, Debug)]
struct Spread {
    lowest: i32,
    counts: Vec<u64>,
}

impl Spread {
    /// The term of one die whose face counts `sign` times in the margin, rolled once, or
    /// twice with an edge.
    fn die(die: Die, sign: i32, edge: Edge) -> Spread {
        let sides = i32::from(die.sides());
        // The term's values, ascending (worst for the player first), are 1..=sides or
        // -sides..=-1; `k` counts from the worst.
        let lowest = if sign > 0 { 1 } else { -sides };
        let counts = (0..sides)
            .map(|k| match edge {
                Edge::None => 1,
                // The better of two rolls is the k-th value when both are at most it but
                // not both below it: (k + 1)² − k² pairs.
                Edge::Advantage => 2 * k + 1,
                // The worse of two rolls, likewise from the other end.
                Edge::Disadvantage => 2 * (sides - 1 - k) + 1,
            } as u64)
            .collect();
        Spread { lowest, counts }
    }

    fn highest(&self) -> i32 {
        self.lowest + self.counts.len() as i32 - 1
    }

    fn values(&self) -> impl Iterator<Item = i32> {
        self.lowest..=self.highest()
    }

    /// The outcomes whose value is at most `value`.
    fn at_most(&self, value: i32) -> u64 {
        let taken = (value - self.lowest + 1).clamp(0, self.counts.len() as i32) as usize;
        self.counts[..taken].iter().sum()
    }

    /// The player's pick of this term or `other`, rolled independently: the larger one.
    /// The larger is at most v exactly when both are, so the outcomes multiply.
    fn or_better(&self, other: &Spread) -> Spread {
        let lowest = self.lowest.max(other.lowest);
        let mut below = 0;
        let counts = (lowest..=self.highest().max(other.highest()))
            .map(|value| {
                let at_most = self.at_most(value) * other.at_most(value);
                let count = at_most - below;
                below = at_most;
                count
            })
            .collect();
        Spread { lowest, counts }
    }

    /// The sum of this term and `other`, rolled independently.
    fn plus(&self, other: &Spread) -> Spread {
        let mut counts = vec![0; self.counts.len() + other.counts.len() - 1];
        for (i, &a) in self.counts.iter().enumerate() {
            for (j, &b) in other.counts.iter().enumerate() {
                counts[i + j] += a * b;
            }
        }
        Spread { lowest: self.lowest + other.lowest, counts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn setup(aspect_die: Die, mood_die: Die, at_risk: AtRisk) -> ActionRollSetup {
        ActionRollSetup::new(aspect_die, mood_die, at_risk)
    }

    /// Checks the odds' win, tie and lose counts over `outcomes`, exactly.
    fn check(setup: ActionRollSetup, outcomes: u64, [win, tie, lose]: [u64; 3]) {
        let odds = action_odds(&setup);
        let got = [odds.win, odds.tie, odds.lose].map(|c| (c.count(), c.outcomes()));
        assert_eq!(got, [(win, outcomes), (tie, outcomes), (lose, outcomes)], "{setup:?}");
    }

    #[test]
    fn hand_counted_odds() {
        use AtRisk::{Character, World};
        use Die::{D4, D6, D8};
        // d6 against d6: 6 ties on the diagonal, 15 pairs on either side.
        check(setup(D6, D6, Character), 36, [15, 6, 15]);
        check(setup(D6, D6, World), 36, [15, 6, 15]);
        // d8 aspect against d4 mood, Character at risk: a tie needs aspect ≤ 4 (4 ways);
        // the aspect is lower in 0 + 1 + 2 + 3 = 6 ways.
        check(setup(D8, D4, Character), 32, [22, 4, 6]);
        check(setup(D8, D4, World), 32, [6, 4, 22]);
        // Aspect advantage, Character at risk: the higher of two d4 is a with (2a − 1) of
        // 16 pairs; it beats a d4 mood in a − 1 of 4 ways: 0·1 + 1·3 + 2·5 + 3·7 = 34.
        check(ActionRollSetup { aspect_edge: Edge::Advantage, ..setup(D4, D4, Character) }, 64, [34, 16, 14]);
        // Aspect disadvantage, World at risk: the Arbiters keep the higher aspect die, which
        // the mood beats in 4 − a ways: 1·3 + 3·2 + 5·1 = 14.
        check(ActionRollSetup { aspect_edge: Edge::Disadvantage, ..setup(D4, D4, World) }, 64, [14, 16, 34]);
        // Aspect disadvantage, Character at risk: the lower of two d4 is a with 2(4 − a) + 1
        // pairs, beating the mood in a − 1 ways: 5·1 + 3·2 + 1·3 = 14.
        check(ActionRollSetup { aspect_edge: Edge::Disadvantage, ..setup(D4, D4, Character) }, 64, [14, 16, 34]);
        // Mood advantage, World at risk: the same as aspect advantage with the dice swapped.
        check(ActionRollSetup { mood_edge: Edge::Advantage, ..setup(D4, D4, World) }, 64, [34, 16, 14]);
        // A d4 helper with Character at risk: the player takes the lower of mood and helper
        // (7, 5, 3, 1 of 16 pairs for 1..4), which a d4 aspect beats in 3, 2, 1, 0 ways.
        check(ActionRollSetup { helper_die: Some(D4), ..setup(D4, D4, Character) }, 64, [34, 16, 14]);
        // The same helper with disadvantage (helping with another mood while overloaded): the
        // Arbiters keep the higher of its two faces, so it helps less often: min(m, max(h1, h2))
        // is 1, 2, 3, 4 in 19, 21, 17, 7 of 64 ways, which a d4 aspect beats in 3, 2, 1, 0
        // ways: 57 + 42 + 17 = 116 wins and 64 ties of 256.
        check(
            ActionRollSetup { helper_die: Some(D4), helper_edge: Edge::Disadvantage, ..setup(D4, D4, Character) },
            256,
            [116, 64, 76],
        );
        // Skill 1 on d4 against d4: the player wins unless the mood is higher by 1 (3 ways,
        // a tie) or by 2 or 3 (2 + 1 ways).
        check(ActionRollSetup { skill: 1, ..setup(D4, D4, Character) }, 16, [10, 3, 3]);
        check(ActionRollSetup { skill: 1, ..setup(D4, D4, World) }, 16, [10, 3, 3]);
        // Skill 8 on d8 against d8: even the worst roll, 1 against 8, is a win by 1.
        check(ActionRollSetup { skill: 8, ..setup(D8, D8, Character) }, 64, [64, 0, 0]);
    }

    #[test]
    fn the_margin_of_d6_against_d6_is_a_triangle() {
        let odds = action_odds(&setup(Die::D6, Die::D6, AtRisk::Character));
        let margin: Vec<_> = odds.margin.iter().map(|&(m, c)| (m, c.count())).collect();
        let expected: Vec<_> = (-5..=5).map(|m: i32| (m, 6 - m.unsigned_abs() as u64)).collect();
        assert_eq!(margin, expected);
    }

    #[test]
    fn every_setup_is_listed_once() {
        let all = ActionRollSetup::every(0..=3);
        assert_eq!(all.len(), 3 * 3 * 2 * 3 * 3 * 4 * 10);
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), all.len());
    }

    #[test]
    fn counts_add_up_to_every_outcome_of_the_dice_rolled() {
        for setup in ActionRollSetup::every(0..=3) {
            let odds = action_odds(&setup);
            let rolled = |die: Die, edge: Edge| u64::from(die.sides()).pow(edge.dice() as u32);
            let outcomes = rolled(setup.aspect_die, setup.aspect_edge)
                * rolled(setup.mood_die, setup.mood_edge)
                * setup.helper_die.map_or(1, |d| rolled(d, setup.helper_edge));
            assert_eq!(odds.win.outcomes(), outcomes, "{setup:?}");
            assert_eq!(odds.win.count() + odds.tie.count() + odds.lose.count(), outcomes, "{setup:?}");
            assert_eq!(odds.margin.iter().map(|(_, c)| c.count()).sum::<u64>(), outcomes, "{setup:?}");
            assert!(odds.margin.iter().all(|(_, c)| c.count() > 0 && c.outcomes() == outcomes), "{setup:?}");
            assert!(odds.margin.windows(2).all(|w| w[1].0 == w[0].0 + 1), "{setup:?}");
        }
    }

    /// The margin of one physical roll once every choice is made literally, in the order
    /// of play (RULES.md §1.3): the kept aspect die and the kept mood die (the player keeps
    /// one with advantage, the Arbiters with disadvantage), then whether the helper's die
    /// replaces the mood die, then whether the skill is added to or subtracted from the
    /// aspect die. The helper's kept face (the player keeps one with advantage, the Arbiters
    /// with disadvantage) is chosen before the player decides whether to use it. Each chooser
    /// looks ahead to the choices still to come. (Plain loops, because this runs some ten
    /// million times in an unoptimised test build.)
    fn settle(setup: &ActionRollSetup, aspects: &[i32], moods: &[i32], helper: Option<&[i32]>) -> i32 {
        let skill = i32::from(setup.skill);
        let mut kept_aspect = None;
        for &aspect in aspects {
            let mut kept_mood = None;
            for &mood in moods {
                let mut kept_helper = None;
                // Without a helper the player's only mood die counts twice, which changes nothing.
                for &help in helper.unwrap_or(&[mood]) {
                    let mut best = i32::MIN;
                    for mood in [mood, help] {
                        for aspect in [aspect + skill, aspect - skill] {
                            best = best.max(winner(setup.at_risk, aspect, mood));
                        }
                    }
                    let edge = if helper.is_some() { setup.helper_edge } else { Edge::None };
                    kept_helper = Some(keep(edge, kept_helper, best));
                }
                kept_mood = Some(keep(setup.mood_edge, kept_mood, kept_helper.unwrap()));
            }
            kept_aspect = Some(keep(setup.aspect_edge, kept_aspect, kept_mood.unwrap()));
        }
        kept_aspect.unwrap()
    }

    /// The margin kept so far among the faces of one die, given the margin of one more face.
    fn keep(edge: Edge, so_far: Option<i32>, margin: i32) -> i32 {
        match (edge, so_far) {
            (_, None) => margin,
            (Edge::None, Some(_)) => panic!("a die without an edge is rolled once"),
            (Edge::Advantage, Some(kept)) => kept.max(margin),
            (Edge::Disadvantage, Some(kept)) => kept.min(margin),
        }
    }

    /// Step 9: the player's signed margin from the final aspect (skill applied) and mood.
    fn winner(at_risk: AtRisk, aspect: i32, mood: i32) -> i32 {
        let (players, arbiters) = match at_risk {
            AtRisk::Character => (aspect, mood),
            AtRisk::World => (mood, aspect),
        };
        match players.cmp(&arbiters) {
            Ordering::Greater => players - arbiters,
            Ordering::Equal => 0,
            Ordering::Less => -(arbiters - players),
        }
    }

    /// Every way the dice can land: one face per roll.
    fn rolls(die: Die, edge: Edge) -> Vec<Vec<i32>> {
        let faces = 1..=i32::from(die.sides());
        match edge.dice() {
            1 => faces.map(|f| vec![f]).collect(),
            _ => faces.clone().flat_map(|f| faces.clone().map(move |g| vec![f, g])).collect(),
        }
    }

    /// Counts every margin over every physical roll, ascending.
    fn brute_force(setup: &ActionRollSetup) -> Vec<(i32, u64)> {
        const OFFSET: i32 = 16;
        let mut counts = [0u64; 2 * OFFSET as usize];
        let helpers: Vec<Option<Vec<i32>>> = match setup.helper_die {
            None => vec![None],
            Some(die) => rolls(die, setup.helper_edge).into_iter().map(Some).collect(),
        };
        for aspects in rolls(setup.aspect_die, setup.aspect_edge) {
            for moods in rolls(setup.mood_die, setup.mood_edge) {
                for helper in &helpers {
                    counts[(settle(setup, &aspects, &moods, helper.as_deref()) + OFFSET) as usize] += 1;
                }
            }
        }
        (-OFFSET..OFFSET).zip(counts).filter(|&(_, count)| count > 0).collect()
    }

    #[test]
    fn every_setup_matches_rolling_every_die_and_choosing_literally() {
        // A helper's die with an edge is checked with skills 0 and 1 and no aspect edge, which
        // keeps this unoptimised brute force to a few million rolls; its edge is independent of
        // the aspect die's and the skill's, which the other set-ups cover.
        let setups = ActionRollSetup::every(0..=3)
            .into_iter()
            .filter(|s| s.helper_edge == Edge::None || (s.skill <= 1 && s.aspect_edge == Edge::None));
        for setup in setups {
            let odds = action_odds(&setup);
            let fast: Vec<_> = odds.margin.iter().map(|&(m, c)| (m, c.count())).collect();
            assert_eq!(fast, brute_force(&setup), "{setup:?}");
        }
    }

    /// True when `better` gives the player a margin of at least k at least as often as
    /// `worse`, for every k (first-order stochastic dominance); at k = 1 that is P(win).
    fn dominates(better: &ActionOdds, worse: &ActionOdds) -> bool {
        let at_least = |odds: &ActionOdds, k: i32| {
            let outcomes = odds.win.outcomes();
            Chance::new(odds.margin.iter().filter(|&&(m, _)| m >= k).map(|(_, c)| c.count()).sum(), outcomes)
        };
        (-20..=20).all(|k| at_least(better, k) >= at_least(worse, k))
    }

    #[test]
    fn advantage_never_lowers_and_disadvantage_never_raises_the_chance_to_win() {
        for plain in ActionRollSetup::every(0..=3).into_iter().filter(|s| s.aspect_edge == Edge::None) {
            let odds = action_odds(&plain);
            let with = |aspect_edge| action_odds(&ActionRollSetup { aspect_edge, ..plain });
            assert!(dominates(&with(Edge::Advantage), &odds), "{plain:?}");
            assert!(dominates(&odds, &with(Edge::Disadvantage)), "{plain:?}");
            assert!(with(Edge::Advantage).win >= odds.win && odds.win >= with(Edge::Disadvantage).win);
        }
        for plain in ActionRollSetup::every(0..=3).into_iter().filter(|s| s.mood_edge == Edge::None) {
            let odds = action_odds(&plain);
            let with = |mood_edge| action_odds(&ActionRollSetup { mood_edge, ..plain });
            assert!(dominates(&with(Edge::Advantage), &odds), "{plain:?}");
            assert!(dominates(&odds, &with(Edge::Disadvantage)), "{plain:?}");
            assert!(with(Edge::Advantage).win >= odds.win && odds.win >= with(Edge::Disadvantage).win);
        }
    }

    #[test]
    fn a_higher_skill_or_a_helper_never_lowers_the_chance_to_win() {
        for setup in ActionRollSetup::every(0..=3) {
            let odds = action_odds(&setup);
            let higher = action_odds(&ActionRollSetup { skill: setup.skill + 1, ..setup });
            assert!(dominates(&higher, &odds) && higher.win >= odds.win, "{setup:?}");
            if setup.helper_die.is_some() {
                let alone = action_odds(&ActionRollSetup { helper_die: None, helper_edge: Edge::None, ..setup });
                assert!(dominates(&odds, &alone) && odds.win >= alone.win, "{setup:?}");
            }
        }
    }

    fn any_setup() -> impl Strategy<Value = ActionRollSetup> {
        let die = || prop::sample::select(Die::ALL.to_vec());
        let edge = || prop::sample::select(EDGES.to_vec());
        (
            die(),
            die(),
            prop::sample::select(AT_RISK.to_vec()),
            edge(),
            edge(),
            any::<u8>(),
            prop::option::of(die()),
            edge(),
        )
            .prop_map(
                |(aspect_die, mood_die, at_risk, aspect_edge, mood_edge, skill, helper_die, helper_edge)| {
                    ActionRollSetup {
                        aspect_die,
                        mood_die,
                        at_risk,
                        aspect_edge,
                        mood_edge,
                        skill,
                        helper_die,
                        helper_edge,
                    }
                },
            )
    }

    proptest! {
        #[test]
        fn any_skill_shifts_the_margin_by_its_modifier(setup in any_setup()) {
            let odds = action_odds(&setup);
            let without = action_odds(&ActionRollSetup { skill: 0, ..setup });
            let shifted: Vec<_> = without.margin.iter().map(|&(m, c)| (m + i32::from(setup.skill), c)).collect();
            prop_assert_eq!(&odds.margin, &shifted);
            let total: f64 = odds.margin.iter().map(|(_, c)| c.probability()).sum();
            prop_assert!((total - 1.0).abs() < 1e-12);
        }
    }
}
