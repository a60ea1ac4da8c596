use proptest::prelude::*;

use super::*;
use crate::rules::scattershot::made_it_by::{Action, RollSetup};
use crate::rules::scattershot::Settings;

fn action(rating: i32) -> Action {
    Action { description: String::new(), rating, modifier: 0, rolled: None }
}

fn roll(actor: i32, resistor: Option<i32>, cj: u32, sides: u8) -> MibRoll {
    let setup = RollSetup {
        actor: action(actor),
        resistors: resistor.map(action).into_iter().collect(),
        facets: Default::default(),
        chart: vec![],
    };
    let settings = Settings { critical_juncture: cj, experience_die: sides, ..Settings::default() };
    MibRoll::start(&setup, &settings).unwrap().0
}

fn with_dice(roll: &MibRoll, party: Party, dice: [u8; 2]) -> MibRoll {
    roll.roll_dice(party, &mut Entered::new(dice)).unwrap().0
}

/// How a side ranks two bids' chances.
type Order = fn(&Chances, &Chances) -> Ordering;

fn bid(bidding: &Bidding, party: Party, sign: Sign) -> &Bid {
    bidding.bids.iter().find(|b| b.party == party && b.sign == sign).unwrap()
}

/// [success, Telling Blow, Catastrophic] ways and all ways, counted one outcome at a time.
type Tally = ([u64; 3], u64);

fn tally(tally: &mut Tally, reading: Reading) {
    tally.1 += 1;
    tally.0[0] += u64::from(reading >= Reading::Success);
    tally.0[1] += u64::from(reading == Reading::TellingBlow);
    tally.0[2] += u64::from(reading == Reading::CatastrophicFailure);
}

fn as_chances((ways, all): Tally) -> Chances {
    Chances {
        success: Chance::new(ways[0], all),
        telling_blow: Chance::new(ways[1], all),
        catastrophic: Chance::new(ways[2], all),
    }
}

fn signed(face: i32, sign: Sign) -> i32 {
    if sign == Sign::Add {
        face
    } else {
        -face
    }
}

/// A plain enumeration of a solo roll with one more die: every 2d10 and every face.
fn solo_by_hand(rating: i32, cj: u32, sides: u8, sign: Sign) -> Chances {
    let mut t = Tally::default();
    for a in 1..=10 {
        for b in 1..=10 {
            for face in 1..=i32::from(sides) {
                tally(&mut t, made_it_by::read(rating - a - b + signed(face, sign), cj));
            }
        }
    }
    as_chances(t)
}

/// A plain enumeration of a contest with one more die into `party`'s MIB: all four d10
/// and the face, the RMIB read against the Critical Juncture only when an initial MIB
/// (with the die in it) was a Telling Blow by itself (an initial Catastrophic Failure is not enough).
fn contest_by_hand(actor: i32, resistor: i32, cj: u32, sides: u8, party: Party, sign: Sign) -> Chances {
    let cj_i = cj as i32;
    let succeeds = |mib: i32| mib >= cj_i;
    let mut t = Tally::default();
    for roll in 0..10_000 {
        let [a1, a2, r1, r2] = [roll % 10 + 1, roll / 10 % 10 + 1, roll / 100 % 10 + 1, roll / 1000 + 1];
        for face in 1..=i32::from(sides) {
            let die = signed(face, sign);
            let a = actor - a1 - a2 + if party == Party::Actor { die } else { 0 };
            let r = resistor - r1 - r2 + if party == Party::RESISTOR { die } else { 0 };
            let reading = match a - r {
                rmib if succeeds(a) || succeeds(r) => made_it_by::read(rmib, cj),
                rmib if rmib >= 0 => Reading::Success,
                _ => Reading::Failure,
            };
            tally(&mut t, reading);
        }
    }
    as_chances(t)
}

#[test]
fn each_bid_on_a_solo_roll_equals_counting_every_face_and_every_2d10() {
    for (rating, cj, sides) in [(11, 7, 6), (4, 3, 4), (20, 7, 8), (-3, 1, 2)] {
        let bidding = bidding(&roll(rating, None, cj, sides)).unwrap();
        assert_eq!(bidding.sides, sides);
        assert_eq!(bidding.bids.len(), 2, "a solo roll bids into the actor's MIB only");
        for sign in [Sign::Add, Sign::Subtract] {
            assert_eq!(bid(&bidding, Party::Actor, sign).chances, solo_by_hand(rating, cj, sides, sign));
        }
        // Nobody bids again: the plain odds of the roll.
        let plain = crate::rules::scattershot::odds::mib_odds(rating, 0, cj).unwrap();
        let now = bidding.now.unwrap();
        assert_eq!(
            (now.success, now.telling_blow, now.catastrophic),
            (plain.success, plain.telling_blow, plain.catastrophic)
        );
    }
}

#[test]
fn each_bid_in_a_contest_equals_counting_every_die_of_both_sides() {
    for (actor, resistor, cj, sides) in [(12, 11, 7, 4), (18, 6, 3, 2)] {
        let bidding = bidding(&roll(actor, Some(resistor), cj, sides)).unwrap();
        assert_eq!(bidding.bids.len(), 4, "+ and − into each side's MIB");
        for party in [Party::Actor, Party::RESISTOR] {
            for sign in [Sign::Add, Sign::Subtract] {
                let by_hand = contest_by_hand(actor, resistor, cj, sides, party, sign);
                assert_eq!(bid(&bidding, party, sign).chances, by_hand, "{party:?} {sign:?}");
            }
        }
    }
}

#[test]
fn the_same_push_on_the_rmib_reads_the_juncture_through_the_side_it_went_into() {
    // Actor made it by 5, resistor by 0, Critical Juncture 7, a d6: adding 2 or more to the
    // actor's MIB makes it a Telling Blow by itself (5 faces in 6); taking the same off the
    // resistor's moves the RMIB as far, but neither initial MIB passes 7, so no Telling Blow.
    let contest = roll(7, Some(2), 7, 6);
    let contest = with_dice(&with_dice(&contest, Party::Actor, [1, 1]), Party::RESISTOR, [1, 1]);
    let bidding = bidding(&contest).unwrap();
    let into_actor = bid(&bidding, Party::Actor, Sign::Add).chances;
    let off_resistor = bid(&bidding, Party::RESISTOR, Sign::Subtract).chances;
    assert_eq!(into_actor.success, off_resistor.success);
    assert_eq!((into_actor.telling_blow, off_resistor.telling_blow), (Chance::new(5, 6), Chance::new(0, 6)));
    assert!(bid(&bidding, Party::Actor, Sign::Add).best_for_actor);
    assert!(!bid(&bidding, Party::RESISTOR, Sign::Subtract).best_for_actor);
    assert!(bid(&bidding, Party::Actor, Sign::Subtract).best_for_resistor);
}

#[test]
fn a_die_waiting_for_its_sign_offers_adding_or_subtracting_its_face() {
    // Rating 10, 2d10 = 9: MIB 1. A 3 on the experience die: 4 adding, −2 subtracting.
    let rolled = with_dice(&roll(10, None, 7, 6), Party::Actor, [4, 5]);
    let pools = Pools::from([(ANYONE, 1)]);
    let waiting = rolled.add_experience_die(Party::Actor, ANYONE, &pools, &mut Entered::new([3])).unwrap().0;
    let bidding = bidding(&waiting).unwrap();
    assert_eq!(bidding.now, None, "the roll stands nowhere until the sign is chosen");
    assert_eq!(bidding.bids.len(), 2);
    let add = bid(&bidding, Party::Actor, Sign::Add);
    let subtract = bid(&bidding, Party::Actor, Sign::Subtract);
    assert_eq!((add.face, subtract.face), (Some(3), Some(3)));
    assert_eq!((add.chances.success, subtract.chances.success), (Chance::new(1, 1), Chance::new(0, 1)));
    assert!(add.best_for_actor && !subtract.best_for_actor);
}

#[test]
fn no_bid_is_open_once_the_decision_phase_is_over() {
    let rolled = with_dice(&roll(10, None, 7, 6), Party::Actor, [4, 5]);
    let decided = rolled.decide(&Pools::new()).unwrap().0;
    let err = bidding(&decided).unwrap_err().to_string();
    assert!(err.starts_with("phase: the Decision Phase is over"), "{err}");
}

proptest! {
    /// The marked bids are the maximum for their side, and adding never does worse for the
    /// actor than nobody bidding, nor subtracting better.
    #[test]
    fn the_best_bid_is_the_maximum(
        actor in -5i32..30,
        resistor in proptest::option::of(-5i32..30),
        cj in 1u32..12,
        sides in 2u8..=12,
    ) {
        let roll = roll(actor, resistor, cj, sides);
        let bidding = bidding(&roll).unwrap();
        let sides: [(Order, Vec<bool>, bool); 2] = [
            (actor_order, bidding.bids.iter().map(|b| b.best_for_actor).collect(), true),
            (resistor_order, bidding.bids.iter().map(|b| b.best_for_resistor).collect(), resistor.is_some()),
        ];
        for (order, marked, in_play) in sides {
            if !in_play {
                prop_assert!(marked.iter().all(|m| !m), "a solo roll has no resistor to mark for");
                continue;
            }
            prop_assert!(marked.iter().any(|m| *m));
            for (bid, &best) in bidding.bids.iter().zip(&marked) {
                let beaten = bidding.bids.iter().any(|other| order(&other.chances, &bid.chances) == Ordering::Greater);
                prop_assert_eq!(best, !beaten);
            }
        }
        let now = bidding.now.unwrap();
        prop_assert!(bid(&bidding, Party::Actor, Sign::Add).chances.success >= now.success);
        prop_assert!(bid(&bidding, Party::Actor, Sign::Subtract).chances.success <= now.success);
    }
}

#[test]
fn with_two_resistors_each_bid_counts_against_the_best_of_theirs() {
    // Actor 14 and the second resistor at 12 still to roll; the first resistor rolled 3 and 4
    // at 13 (made it by 6). A d4, Critical Juncture 5.
    let (cj, sides) = (5u32, 4u8);
    let setup = RollSetup {
        actor: action(14),
        resistors: vec![action(13), action(12)],
        facets: Default::default(),
        chart: vec![],
    };
    let settings = Settings { critical_juncture: cj, experience_die: sides, ..Settings::default() };
    let roll = with_dice(&MibRoll::start(&setup, &settings).unwrap().0, Party::RESISTOR, [3, 4]);
    let bidding = bidding(&roll).unwrap();
    assert_eq!(bidding.bids.len(), 6, "+ and − into the actor's MIB and each resistor's");
    for party in [Party::Actor, Party::Resistor(0), Party::Resistor(1)] {
        for sign in [Sign::Add, Sign::Subtract] {
            let mut t = Tally::default();
            for dice in 0..10_000 {
                let [a1, a2, r1, r2] = [dice % 10 + 1, dice / 10 % 10 + 1, dice / 100 % 10 + 1, dice / 1000 + 1];
                for face in 1..=i32::from(sides) {
                    let die = |p: Party| if p == party { signed(face, sign) } else { 0 };
                    let a = 14 - a1 - a2 + die(Party::Actor);
                    let first = 6 + die(Party::Resistor(0));
                    let second = 12 - r1 - r2 + die(Party::Resistor(1));
                    let best = first.max(second);
                    let reading = match a - best {
                        rmib if a >= cj as i32 || best >= cj as i32 => made_it_by::read(rmib, cj),
                        rmib if rmib >= 0 => Reading::Success,
                        _ => Reading::Failure,
                    };
                    tally(&mut t, reading);
                }
            }
            assert_eq!(bid(&bidding, party, sign).chances, as_chances(t), "{party:?} {sign:?}");
        }
    }
}
