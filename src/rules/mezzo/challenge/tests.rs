use proptest::prelude::*;

use super::*;
use crate::rules::dice::Entered;
use crate::rules::mezzo::action_check::{BaseChance, CheckSetup, SideSetup as CheckSideSetup, Sources};
use crate::rules::mezzo::element::{Lasts, ProtectionSource};
use crate::rules::mezzo::recovery::{escape_restraints, take_breather, treat_wounds, RecoveryCheck};
use crate::rules::test_support::mezzo::{element, player, ADA, MIRA};
use crate::rules::test_support::{err, id};

const JON: u128 = 11;
const OGRE: u128 = 20;
const WALL: u128 = 21;
const COVE: u128 = 30;
const LAIR: u128 = 31;
const CHALLENGE: u128 = 99;

/// Mira and Jon (side 0) against the ogre and the wall it guards (side 1); the cove the
/// heroes run for, the lair the ogre guards.
fn elements() -> Vec<Element> {
    vec![
        element(MIRA, ElementKind::Character, "Mira"),
        element(JON, ElementKind::Character, "Jon"),
        element(OGRE, ElementKind::Character, "Ogre"),
        element(WALL, ElementKind::Location, "Wall"),
        element(COVE, ElementKind::Goal, "Reach the cove"),
        element(LAIR, ElementKind::Goal, "Guard the lair"),
    ]
}

fn joins(element: u128, side: usize, stake: Option<&str>) -> ChallengerSetup {
    ChallengerSetup { element: id(element), side, stake: stake.map(str::to_owned) }
}

fn setup() -> ChallengeSetup {
    ChallengeSetup {
        id: id(CHALLENGE),
        description: "Run from the ogre".into(),
        sides: vec![SideSetup { name: "Heroes".into() }, SideSetup { name: "The ogre".into() }],
        challengers: vec![
            joins(MIRA, 0, Some("Reach the cove")),
            joins(JON, 0, None),
            joins(OGRE, 1, None),
            joins(WALL, 1, None),
        ],
        goals: vec![
            GoalSetup { element: id(COVE), supporters: vec![id(MIRA), id(JON)] },
            GoalSetup { element: id(LAIR), supporters: vec![id(OGRE)] },
        ],
    }
}

/// A challenge being played, with the elements as the moves left them.
struct Game {
    ch: Challenge,
    els: Vec<Element>,
    events: Vec<ChallengeEvent>,
}

impl Game {
    fn new() -> Game {
        Game::from(&setup(), elements())
    }

    fn from(setup: &ChallengeSetup, els: Vec<Element>) -> Game {
        let (ch, changes, events) = start(setup, &els).unwrap();
        Game { ch, els: merge(&els, &changes.elements), events }
    }

    fn try_play(&mut self, mv: Move) -> Result<()> {
        let (ch, changes, events) = play(&self.ch, &mv, &self.els)?;
        self.ch = ch;
        self.els = merge(&self.els, &changes.elements);
        self.events = events;
        Ok(())
    }

    fn play(&mut self, mv: Move) -> &mut Game {
        let shown = format!("{mv:?}");
        self.try_play(mv).unwrap_or_else(|e| panic!("{shown}: {e}"));
        self
    }

    /// The move's error; the game is unchanged.
    fn err(&self, mv: Move) -> String {
        play(&self.ch, &mv, &self.els).unwrap_err().to_string()
    }

    fn el(&self, who: u128) -> &Element {
        self.els.iter().find(|e| e.id == id(who)).unwrap()
    }

    fn set(&mut self, who: u128, f: impl Fn(&mut Element)) {
        for e in &mut self.els {
            if e.id == id(who) {
                f(e);
            }
        }
    }

    fn status(&self, who: u128) -> Status {
        self.ch.challenger(id(who)).unwrap().status
    }

    /// `actor` rolls `score` against `opposing` by `against`, as its major action.
    fn act(&mut self, actor: u128, score: u32, against: u128, opposing: u32) -> usize {
        self.play(roll(&[(actor, score), (against, opposing)], &[actor]));
        self.ch.actions.len() - 1
    }

    /// `actor` takes a double success and uses `perks` at once (trading a major perk when
    /// a minor one is wanted).
    fn perks(&mut self, actor: u128, against: u128, perks: Vec<PerkUse>) -> usize {
        let action = self.act(actor, 8, against, 4);
        for p in perks {
            if !p.name().is_major() && self.ch.actions[action].minors_left() == 0 {
                self.play(Move::Trade { action });
            }
            self.play(Move::Declare { action, perk: p });
        }
        self.play(Move::Settle { action });
        action
    }

    fn has(&self, kind: impl Fn(&ChallengeEvent) -> bool) -> bool {
        self.events.iter().any(kind)
    }
}

fn merge(all: &[Element], changed: &[Element]) -> Vec<Element> {
    all.iter().map(|e| changed.iter().find(|c| c.id == e.id).unwrap_or(e).clone()).collect()
}

fn roll(scores: &[(u128, u32)], majors: &[u128]) -> Move {
    Move::MajorActions {
        check: None,
        rolls: scores
            .iter()
            .map(|&(who, score)| SideScore { kind: SideKind::Action { element: id(who) }, score })
            .collect(),
        majors: majors.iter().map(|&m| id(m)).collect(),
    }
}

fn flaw(n: u128, template: Template, name: &str) -> Box<Trait> {
    Box::new(Trait::from_template(id(n), template, name, Via::Granted))
}

fn extra(n: u128, template: Template) -> Trait {
    Trait::from_template(id(n), template, template.word(), Via::Granted)
}

fn bind(target: u128, n: u128) -> PerkUse {
    PerkUse::Bind { target: id(target), restraint: flaw(n, Template::Restraint, "Grappled") }
}

fn wound(target: u128, n: u128) -> PerkUse {
    PerkUse::Damage {
        target: id(target),
        wound: Wounding::NewFlaw { flaw: flaw(n, Template::Vulnerability, "Bleeding") },
        expend: vec![],
        extras: vec![],
        takes_out: false,
    }
}

fn hinder(target: u128, n: u128) -> PerkUse {
    PerkUse::Hinder { target: id(target), flaw: flaw(n, Template::ImpairedAbility, "Winded") }
}

/// Ada, for `challenger`, spends its own momentum on `spend`.
fn spends(challenger: u128, spend: Spend) -> Move {
    Move::Spend { from_stake: false, challenger: id(challenger), by: id(ADA), spend }
}

/// Push perks putting the trumps numbered `trumps` on `goal`.
fn pushes(goal: u128, trumps: &[u128]) -> Vec<PerkUse> {
    trumps.iter().map(|&n| PerkUse::Push { goal: id(goal), trump: id(n) }).collect()
}

fn templates_on(e: &Element, flaw: u128) -> Vec<Template> {
    let mut all: Vec<Template> = e.modifiers_of(id(flaw)).filter_map(|m| m.template).collect();
    all.sort_by_key(|t| t.word());
    all
}

/// Gives `who` `n` wounds this challenge inflicted (ids from `from`).
fn wounded(g: &mut Game, who: u128, n: u128, from: u128) {
    for k in 0..n {
        let f = Trait::from_template(id(from + k), Template::Vulnerability, "Cut", Via::Granted);
        let e = element::add_trait(g.el(who), &f, id(ADA)).unwrap().0;
        let e = element::add_trait(&e, &modifier(id(from + k), Template::Wound), id(ADA)).unwrap().0;
        g.set(who, |x| *x = e.clone());
        g.ch.gained.push(Gained { element: id(who), flaw: id(from + k) });
    }
}

// --- setting up

#[test]
fn a_challenge_opens_with_two_sides_each_with_a_challenger_who_joins() {
    let g = Game::new();
    assert_eq!((g.ch.phase(), g.ch.round, g.ch.sides.len()), (Phase::Rounds, 1, 2));
    for who in [MIRA, JON, OGRE, WALL] {
        let e = g.el(who);
        assert!(e.in_challenge, "{}", e.name);
        assert_eq!(e.edge_slots(), 4, "the first challenge gives {} 4 edge slots", e.name);
        assert_eq!(e.protection_sources(), vec![ProtectionSource::Challenge], "Protected Event");
    }
    assert_eq!(g.ch.challenger(id(WALL)).unwrap().kind, ElementKind::Location, "an obstacle");
    assert_eq!(g.ch.challenger(id(MIRA)).unwrap().stake.as_deref(), Some("Reach the cove"));
    assert_eq!(g.ch.goal(id(COVE)).unwrap().side, 0);

    let mut one_side = setup();
    one_side.sides.pop();
    assert_eq!(err(start(&one_side, &elements())), "sides: a challenge has 2 to 32 sides, not 1");
    let mut empty_side = setup();
    empty_side.sides.push(SideSetup::default());
    assert_eq!(err(start(&empty_side, &elements())), "sides: side 2 has no challenger: each side starts with one");
    let mut goal_in = setup();
    goal_in.challengers.push(joins(COVE, 1, None));
    assert_eq!(
        err(start(&goal_in, &elements())),
        "challengers[4].element: Reach the cove is a goal: goals gain trumps, they do not take part"
    );
    let mut blank = setup();
    blank.challengers[1].stake = Some("  ".into());
    assert_eq!(err(start(&blank, &elements())), "challengers[1].stake: state the stake, or leave it out");
    let mut mixed = setup();
    mixed.goals[0].supporters = vec![id(MIRA), id(OGRE)];
    assert_eq!(err(start(&mixed, &elements())), "supporters[1]: a goal's supporters are all of one side");
    let busy = merge(&elements(), &[element::join_challenge(&elements()[0]).unwrap().0]);
    assert_eq!(err(start(&setup(), &busy)), "element: Mira is already in a challenge");
}

#[test]
fn an_element_whose_restraints_lock_out_every_die_cannot_join() {
    let mut els = elements();
    for k in 0..5 {
        let r = Trait::from_template(id(200 + k), Template::Restraint, "Chain", Via::Granted);
        els[2] = element::add_trait(&els[2], &r, id(ADA)).unwrap().0;
    }
    assert_eq!(
        err(start(&setup(), &els)),
        "challengers[2].element: Ogre's restraints lock out every die: it cannot take part in challenges"
    );
}

#[test]
fn challengers_join_a_side_with_someone_in_or_a_new_side_and_never_come_back() {
    let mut els = elements();
    els.push(element(40, ElementKind::Faction, "Bandits"));
    els.push(element(41, ElementKind::Character, "Kit"));
    let mut g = Game::from(&setup(), els);
    g.play(Move::AddChallenger {
        element: id(40),
        joining: Joining::NewSide { name: "Bandits".into() },
        stake: Some("Loot".into()),
    });
    assert_eq!(g.ch.challenger(id(40)).unwrap().side, 2);
    assert!(g.el(40).in_challenge);
    g.play(Move::AddChallenger { element: id(41), joining: Joining::Side { side: 0 }, stake: None });
    assert_eq!(g.ch.challenger(id(41)).unwrap().side, 0);
    assert_eq!(
        g.err(Move::AddChallenger { element: id(41), joining: Joining::Side { side: 0 }, stake: None }),
        "element: Kit already took part: nobody joins twice"
    );
    assert_eq!(
        g.err(Move::AddChallenger { element: id(COVE), joining: Joining::Side { side: 9 }, stake: None }),
        "joining.side: there is no side 9"
    );
}

// --- major actions

#[test]
fn a_major_action_is_compared_with_the_highest_opposing_roll() {
    assert_eq!(compare(5, 4), ActionResult::Success);
    assert_eq!(compare(7, 4), ActionResult::Success);
    assert_eq!(compare(8, 4), ActionResult::DoubleSuccess, "double or more");
    assert_eq!(compare(12, 1), ActionResult::DoubleSuccess);
    assert_eq!(compare(4, 4), ActionResult::Tie);
    assert_eq!(compare(3, 4), ActionResult::Failure);
    assert_eq!(
        [ActionResult::DoubleSuccess, ActionResult::Success, ActionResult::Tie, ActionResult::Failure]
            .map(ActionResult::perks),
        [(2, 0), (1, 0), (0, 1), (0, 0)]
    );

    // Against a failure side and the wall: the highest (5) counts; Jon's 9 is an ally's.
    let mut g = Game::new();
    g.play(Move::MajorActions {
        check: None,
        rolls: vec![
            SideScore { kind: SideKind::Action { element: id(MIRA) }, score: 7 },
            SideScore { kind: SideKind::Action { element: id(JON) }, score: 9 },
            SideScore { kind: SideKind::Action { element: id(WALL) }, score: 5 },
            SideScore { kind: SideKind::Failure, score: 3 },
        ],
        majors: vec![id(MIRA)],
    });
    let a = &g.ch.actions[0];
    assert_eq!((a.score, a.opposing, a.result, a.major_perks, a.minor_perks), (7, 5, ActionResult::Success, 1, 0));
    assert_eq!(g.ch.phase(), Phase::Perks);
    assert_eq!(g.ch.acted, vec![id(MIRA)]);
}

#[test]
fn perks_and_trades_of_any_size_are_problems_not_overflows() {
    let mut g = Game::new();
    let action = g.act(MIRA, 8, OGRE, 4);
    assert_eq!(g.ch.problems(), vec![]);
    for (minor_perks, traded) in [(u32::MAX, 0), (0, u32::MAX), (u32::MAX, u32::MAX)] {
        let mut ch = g.ch.clone();
        ch.actions[action].minor_perks = minor_perks;
        ch.actions[action].traded = traded;
        let paths: Vec<_> = ch.problems().into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["actions[0].major_perks"], "{minor_perks} {traded}");
        assert_eq!(ch.actions[action].minors_left(), u32::MAX, "saturates");
    }
}

#[test]
fn a_challenge_with_many_challengers_is_one_cap_problem_found_in_linear_time() {
    let mut ch = Game::new().ch;
    let extra = ch.challengers[0].clone();
    ch.challengers.extend((0..200_000).map(|n| Challenger { element: id(1_000 + n), ..extra.clone() }));
    ch.acted = ch.challengers.iter().map(|c| c.element).collect();
    let problems = ch.problems();
    assert_eq!(problems[0].path, "challengers");
    assert_eq!(problems.len(), 1, "{:?}", &problems[..3]);
}

#[test]
fn tied_major_actions_each_gain_a_minor_perk_and_a_lower_roll_gains_adversity() {
    let mut g = Game::new();
    g.play(roll(&[(MIRA, 6), (OGRE, 6)], &[MIRA, OGRE]));
    let results: Vec<(ActionResult, u32, u32)> =
        g.ch.actions.iter().map(|a| (a.result, a.major_perks, a.minor_perks)).collect();
    assert_eq!(results, vec![(ActionResult::Tie, 0, 1), (ActionResult::Tie, 0, 1)]);
    assert_eq!(g.ch.open, vec![0, 1]);

    // A failure: the ogre (3) against the wall's ally Jon (5), paying its debt first.
    let mut g = Game::new();
    g.set(OGRE, |e| e.adversity_debt = 1);
    g.play(roll(&[(JON, 5), (OGRE, 3)], &[JON, OGRE]));
    assert_eq!(g.ch.actions[1].result, ActionResult::Failure);
    assert_eq!((g.el(OGRE).adversity, g.el(OGRE).adversity_debt), (0, 0), "the point paid the debt");
    assert_eq!(g.ch.actions[0].result, ActionResult::Success, "5 is not double 3");
    assert_eq!(g.ch.open, vec![0], "a failure has no perks to resolve");
    g.play(Move::Settle { action: 0 }).play(Move::EndRound { trumps: vec![] });
    g.play(roll(&[(JON, 5), (OGRE, 3)], &[OGRE]));
    assert_eq!(g.el(OGRE).adversity, 1);
    assert!(g.has(|e| matches!(e, ChallengeEvent::Element { change: ElementEvent::AdversityGained { .. } })));
}

#[test]
fn each_challenger_takes_one_major_action_a_round() {
    let mut g = Game::new();
    g.play(roll(&[(MIRA, 3), (OGRE, 5)], &[MIRA]));
    assert_eq!(
        g.err(roll(&[(MIRA, 9), (OGRE, 5)], &[MIRA])),
        format!("majors[0]: element {} already took its major action this round", id(MIRA))
    );
    assert_eq!(g.err(roll(&[(JON, 9)], &[JON])), "rolls: a major action is compared with at least one opposing roll");
    assert_eq!(g.err(roll(&[(JON, 9), (MIRA, 2)], &[JON])), "majors[0]: no opposing roll: only allies rolled");
    assert_eq!(g.err(roll(&[(JON, 0), (OGRE, 2)], &[JON])), "rolls[0].score: a score is at least 1");
    // A check's score of 0 (a Specialty's −1 on a 1) is recorded: the other side wins.
    let mut from_check = roll(&[(JON, 0), (OGRE, 2)], &[OGRE]);
    if let Move::MajorActions { check, .. } = &mut from_check {
        *check = Some(id(99));
    }
    let mut other = Game::new();
    other.play(from_check);
    assert_eq!(other.ch.actions[0].result, ActionResult::DoubleSuccess, "2 is at least double 0");
    assert_eq!(
        g.err(roll(&[(JON, 4), (OGRE, 2)], &[WALL])),
        format!("majors[0]: element {} does not act in this check", id(WALL))
    );
    assert_eq!(
        g.err(roll(&[(JON, 4), (COVE, 2)], &[JON])),
        format!("rolls[1].kind.element: element {} is not a challenger here", id(COVE))
    );
    g.play(Move::EndRound { trumps: vec![] });
    assert_eq!((g.ch.round, g.ch.acted.len()), (2, 0));
    g.play(roll(&[(MIRA, 9), (OGRE, 5)], &[MIRA]));
    assert_eq!(g.ch.actions[1].round, 2);
    assert_eq!(
        g.err(Move::EndRound { trumps: vec![] }),
        "move: a round ends: a major action's perks are being resolved"
    );
}

#[test]
fn a_major_action_may_change_stakes_and_sides_instead() {
    let mut g = Game::new();
    g.play(Move::ChangeStakes {
        challenger: id(JON),
        stake: "Take the ogre's gold".into(),
        joining: Some(Joining::Side { side: 1 }),
    });
    let jon = g.ch.challenger(id(JON)).unwrap();
    assert_eq!((jon.side, jon.stake.as_deref()), (1, Some("Take the ogre's gold")));
    assert_eq!(g.ch.goal(id(COVE)).unwrap().supporters, vec![id(MIRA)], "no longer the heroes' goal");
    assert!(g.ch.acted.contains(&id(JON)), "it was Jon's major action");
    assert_eq!(
        g.err(roll(&[(JON, 9), (MIRA, 2)], &[JON])),
        format!("majors[0]: element {} already took its major action this round", id(JON))
    );
    assert_eq!(
        g.err(Move::ChangeStakes { challenger: id(MIRA), stake: "x".into(), joining: Some(Joining::Side { side: 0 }) }),
        "joining.side: the challenger is already on this side"
    );
    // Mira, the last hero, joins the ogre: nobody has an opponent left, all win.
    g.play(Move::ChangeStakes {
        challenger: id(MIRA),
        stake: "Share the gold".into(),
        joining: Some(Joining::Side { side: 1 }),
    });
    assert_eq!(g.ch.phase(), Phase::Over);
    assert!(g.ch.challengers.iter().all(|c| c.status == Status::Left { how: Leave::Victory, why: Why::NoOpponents }));
}

// --- perks

#[test]
fn a_major_perk_trades_for_two_minor_perks() {
    let mut g = Game::new();
    let action = g.act(MIRA, 5, OGRE, 4);
    assert_eq!((g.ch.actions[action].majors_left(), g.ch.actions[action].minors_left()), (1, 0));
    assert_eq!(
        g.err(Move::Declare { action, perk: hinder(OGRE, 100) }),
        "perk: this action has no minor perk left (trade a major perk for two)"
    );
    g.play(Move::Trade { action });
    assert_eq!((g.ch.actions[action].majors_left(), g.ch.actions[action].minors_left()), (0, 2));
    assert_eq!(g.err(Move::Trade { action }), "action: no major perk is left to trade");
    assert_eq!(g.err(Move::Declare { action, perk: bind(OGRE, 100) }), "perk: this action has no major perk left");
    g.play(Move::Declare { action, perk: hinder(OGRE, 100) });
    g.play(Move::Declare { action, perk: PerkUse::Discover { detail: "A loose stone".into() } });
    assert_eq!(g.err(Move::Declare { action, perk: hinder(OGRE, 101) }), "perk: this action has no minor perk left");
    g.play(Move::Settle { action });
    assert!(g.el(OGRE).trait_by_id(id(100)).is_some());
    assert_eq!(g.ch.phase(), Phase::Rounds);
}

#[test]
fn hinder_and_expose_give_one_shot_transient_flaws_of_their_templates() {
    let mut g = Game::new();
    let action = g.act(MIRA, 8, OGRE, 4);
    g.play(Move::Trade { action });
    assert_eq!(
        g.err(Move::Declare {
            action,
            perk: PerkUse::Hinder { target: id(OGRE), flaw: flaw(100, Template::Vulnerability, "Open") }
        }),
        "perk.flaw: Hinder gives a flaw made from Dulled Edge or Impaired Ability"
    );
    assert_eq!(
        g.err(Move::Declare {
            action,
            perk: PerkUse::Expose { target: id(OGRE), flaw: flaw(100, Template::Restraint, "Open") }
        }),
        "perk.flaw: Expose gives a flaw made from Vulnerability"
    );
    g.play(Move::Declare { action, perk: hinder(OGRE, 100) });
    g.play(Move::Declare {
        action,
        perk: PerkUse::Expose { target: id(WALL), flaw: flaw(101, Template::Vulnerability, "Crumbling") },
    });
    g.play(Move::Settle { action });
    assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::OneShot, Template::TransientFlaw]);
    assert_eq!(templates_on(g.el(WALL), 101), vec![Template::OneShot, Template::TransientFlaw]);
    assert_eq!(g.el(OGRE).trait_by_id(modifier_id(id(100), Template::OneShot)).unwrap().target_trait, Some(id(100)));
    assert_eq!(
        g.ch.gained,
        vec![Gained { element: id(OGRE), flaw: id(100) }, Gained { element: id(WALL), flaw: id(101) }]
    );
    assert!(g.has(|e| matches!(e, ChallengeEvent::PerksForfeited { majors: 1, minors: 0, .. })), "the unused major");
}

#[test]
fn recover_removes_a_one_shot_transient_flaw_gained_in_this_challenge() {
    let mut els = elements();
    let old = Trait::from_template(id(150), Template::Vulnerability, "Old scar", Via::Granted);
    els[2] = element::add_trait(&els[2], &old, id(ADA)).unwrap().0;
    for m in [Template::OneShot, Template::TransientFlaw] {
        els[2] = element::add_trait(&els[2], &modifier(id(150), m), id(ADA)).unwrap().0;
    }
    let mut g = Game::from(&setup(), els);
    g.perks(MIRA, OGRE, vec![hinder(OGRE, 100), wound(OGRE, 101)]);
    let action = g.act(OGRE, 8, MIRA, 4);
    g.play(Move::Trade { action });
    assert_eq!(
        g.err(Move::Declare { action, perk: PerkUse::Recover { target: id(OGRE), flaw: id(150) } }),
        "perk.flaw: Recover removes a flaw gained during this challenge"
    );
    assert_eq!(
        g.err(Move::Declare { action, perk: PerkUse::Recover { target: id(OGRE), flaw: id(101) } }),
        "perk.flaw: Recover removes a flaw with the One-Shot and Transient Flaw modifiers"
    );
    g.play(Move::Declare { action, perk: PerkUse::Recover { target: id(OGRE), flaw: id(100) } });
    g.play(Move::Settle { action });
    let ogre = g.el(OGRE);
    assert!(ogre.trait_by_id(id(100)).is_none() && ogre.modifiers_of(id(100)).next().is_none());
    assert!(ogre.trait_by_id(id(101)).is_some() && ogre.trait_by_id(id(150)).is_some());
}

#[test]
fn discover_adds_a_detail_found_by_the_acting_challenger() {
    let mut g = Game::new();
    g.play(roll(&[(JON, 4), (OGRE, 4)], &[JON]));
    assert_eq!(
        g.err(Move::Declare { action: 0, perk: PerkUse::Discover { detail: " ".into() } }),
        "perk.detail: say what the challenger finds"
    );
    g.play(Move::Declare { action: 0, perk: PerkUse::Discover { detail: "A rope ladder".into() } });
    g.play(Move::Settle { action: 0 });
    assert!(
        g.has(|e| *e == ChallengeEvent::Discovered { action: 0, challenger: id(JON), detail: "A rope ladder".into() })
    );
}

#[test]
fn bind_gives_a_transient_restraint_and_all_five_lock_the_challenger_out_in_defeat() {
    let mut els = elements();
    for k in 0..4 {
        let r = Trait::from_template(id(200 + k), Template::Restraint, "Chain", Via::Granted);
        els[2] = element::add_trait(&els[2], &r, id(ADA)).unwrap().0;
    }
    let mut g = Game::from(&setup(), els);
    assert!(!locked_out(g.el(OGRE)), "four restraints: the ogre still rolls d4s");
    g.perks(MIRA, OGRE, vec![bind(OGRE, 100)]);
    assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::TransientFlaw]);
    assert_eq!(g.el(OGRE).restraints().count(), 5);
    // Locked out: the ogre leaves in defeat; its one boost (this challenge's restraint,
    // not the four old chains) waits for the table to pick between Mira and Jon.
    assert_eq!(g.status(OGRE), Status::Leaving { how: Leave::Defeat, why: Why::LockedOut });
    assert_eq!(g.ch.phase(), Phase::Departure);
    assert_eq!(g.ch.departure.as_ref().unwrap().boosts[0].awards, 1);
    assert_eq!(g.err(Move::AwardBoost { to: id(WALL) }).split(':').next(), Some("to"));
    g.play(Move::AwardBoost { to: id(JON) });
    assert_eq!((g.el(JON).momentum, g.el(JON).momentum_awards), (1, 1));
    assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::LockedOut }, "nothing to spend");
    assert!(!g.el(OGRE).in_challenge);
    assert_eq!(g.ch.phase(), Phase::Rounds, "the wall fights on");
}

/// An import as copies gives copied characters new ids: the targets of the perks an open
/// action declared follow them (an element's or a goal's), and Discover has none to follow.
#[test]
fn copied_elements_take_the_perks_declared_on_them_along() {
    let mut g = Game::new();
    let action = g.act(MIRA, 8, OGRE, 4);
    g.play(Move::Declare { action, perk: bind(OGRE, 100) });
    g.play(Move::Trade { action });
    g.play(Move::Declare { action, perk: PerkUse::Discover { detail: "A rope ladder".into() } });
    g.play(Move::Declare { action, perk: hinder(WALL, 101) });
    let copy = |old: Uuid| Uuid::from_u128(old.as_u128() + 1000);
    let before: Vec<Option<Uuid>> = g.ch.actions[action].declared.iter().map(PerkUse::target).collect();
    assert_eq!(before, [Some(id(OGRE)), None, Some(id(WALL))]);
    g.ch.map_elements(copy);
    let after: Vec<Option<Uuid>> = g.ch.actions[action].declared.iter().map(PerkUse::target).collect();
    assert_eq!(after, [Some(copy(id(OGRE))), None, Some(copy(id(WALL)))]);
    assert_eq!(g.ch.actions[action].challenger, copy(id(MIRA)));
}

#[test]
fn break_free_swaps_a_transient_restraint_for_a_minor_one_shot_flaw() {
    let mut els = elements();
    let chain = Trait::from_template(id(150), Template::Restraint, "Old chain", Via::Granted);
    els[2] = element::add_trait(&els[2], &chain, id(ADA)).unwrap().0;
    let mut g = Game::from(&setup(), els);
    g.perks(MIRA, OGRE, vec![bind(OGRE, 100)]);
    let action = g.act(OGRE, 8, MIRA, 4);
    let free =
        |restraint: u128, f: Box<Trait>| PerkUse::BreakFree { target: id(OGRE), restraint: id(restraint), flaw: f };
    assert_eq!(
        g.err(Move::Declare { action, perk: free(150, flaw(101, Template::Vulnerability, "Sore")) }),
        "perk.restraint: Break Free removes a restraint with the Transient Flaw modifier"
    );
    assert_eq!(
        g.err(Move::Declare { action, perk: free(100, flaw(101, Template::Restraint, "Sore")) }),
        "perk.flaw: Break Free gives a flaw made from Dulled Edge or Impaired Ability or Vulnerability"
    );
    g.play(Move::Declare { action, perk: free(100, flaw(101, Template::Vulnerability, "Sore wrists")) });
    g.play(Move::Settle { action });
    let ogre = g.el(OGRE);
    assert_eq!(ogre.restraints().map(|r| r.id).collect::<Vec<_>>(), vec![id(150)]);
    assert_eq!(templates_on(ogre, 101), vec![Template::OneShot, Template::TransientFlaw]);
}

#[test]
fn damage_wounds_or_worsens_a_wound_and_expends_one_shot_flaws_for_extras() {
    let mut g = Game::new();
    g.perks(MIRA, OGRE, vec![hinder(OGRE, 100), wound(OGRE, 101)]);
    assert!(g.el(OGRE).is_wound(id(101)));
    assert_eq!(templates_on(g.el(OGRE), 101), vec![Template::TransientFlaw, Template::Wound]);
    assert!(g.ch.may_surrender.contains(&id(OGRE)), "a wound: it may surrender at once");

    let action = g.act(JON, 8, OGRE, 4);
    let worsen = |extras: Vec<Trait>, expend: Vec<Uuid>| PerkUse::Damage {
        target: id(OGRE),
        wound: Wounding::Worsen { wound: id(101) },
        expend,
        extras,
        takes_out: false,
    };
    assert_eq!(
        g.err(Move::Declare { action, perk: worsen(vec![extra(110, Template::ViciousWound)], vec![]) }),
        "perk.extras: the wound gains 2 extras here (2 for worsening a wound, 1 per One-Shot flaw expended), not 1"
    );
    assert_eq!(
        g.err(Move::Declare {
            action,
            perk: worsen(vec![extra(110, Template::CorrosiveWound), extra(111, Template::ViciousWound)], vec![])
        }),
        "target_trait: Corrosive Wound is an extra of a wound made with the Dulled Edge template"
    );
    assert_eq!(
        g.err(Move::Declare { action, perk: worsen(vec![], vec![id(101)]) }),
        format!("perk.expend[0]: Ogre has no other One-Shot flaw {}", id(101))
    );
    // 2 extras for worsening, a third for the Hinder flaw expended.
    g.play(Move::Declare {
        action,
        perk: worsen(
            vec![
                extra(110, Template::ViciousWound),
                extra(111, Template::ViciousWound),
                extra(112, Template::ViciousWound),
            ],
            vec![id(100)],
        ),
    });
    g.play(Move::Declare {
        action,
        perk: PerkUse::Damage {
            target: id(WALL),
            wound: Wounding::NewFlaw { flaw: flaw(120, Template::Vulnerability, "Cracked") },
            expend: vec![],
            extras: vec![],
            takes_out: true,
        },
    });
    g.play(Move::Settle { action });
    let ogre = g.el(OGRE);
    assert_eq!(ogre.extras_of(id(101)).count(), 3);
    assert!(ogre.trait_by_id(id(100)).is_none(), "the One-Shot flaw was used up");
    // Taken out: the wall's new wound gives a boost, Mira and Jon tie for it.
    assert_eq!(g.status(WALL), Status::Leaving { how: Leave::Defeat, why: Why::TakenOut });
    g.play(Move::AwardBoost { to: id(JON) });
    assert_eq!((g.el(JON).momentum, g.el(MIRA).momentum), (1, 0));
    assert_eq!(g.status(WALL), Status::Left { how: Leave::Defeat, why: Why::TakenOut }, "nothing to convert");
}

#[test]
fn heal_removes_two_extras_vicious_first_or_turns_a_bare_wound_one_shot() {
    let mut g = Game::new();
    g.perks(OGRE, MIRA, vec![wound(MIRA, 100), wound(MIRA, 101)]);
    g.play(Move::EndRound { trumps: vec![] });
    let worsen = PerkUse::Damage {
        target: id(MIRA),
        wound: Wounding::Worsen { wound: id(100) },
        expend: vec![],
        extras: vec![extra(110, Template::ViciousWound), extra(111, Template::Fortified)],
        takes_out: false,
    };
    let action = g.act(OGRE, 8, MIRA, 4);
    assert!(g.err(Move::Declare { action, perk: worsen }).starts_with("perk.extras[1]"));
    let worsen = PerkUse::Damage {
        target: id(MIRA),
        wound: Wounding::Worsen { wound: id(100) },
        expend: vec![],
        extras: vec![extra(110, Template::ViciousWound), extra(111, Template::ViciousWound)],
        takes_out: false,
    };
    g.play(Move::Declare { action, perk: worsen });
    g.play(Move::Settle { action });
    let mira = g.el(MIRA);
    assert_eq!(mira.extras_of(id(100)).count(), 2);

    let heal = |wound: u128, effect: HealEffect| PerkUse::Heal { target: id(MIRA), wound: id(wound), effect };
    let action = g.act(JON, 8, OGRE, 4);
    assert_eq!(
        g.err(Move::Declare { action, perk: heal(100, HealEffect::OneShot) }),
        "effect: only a wound with no extras turns One-Shot"
    );
    assert_eq!(
        g.err(Move::Declare { action, perk: heal(100, HealEffect::RemoveExtras { extras: vec![] }) }),
        "effect.extras: Heal removes 1 or 2 extras"
    );
    g.play(Move::Declare { action, perk: heal(100, HealEffect::RemoveExtras { extras: vec![id(110), id(111)] }) });
    g.play(Move::Declare { action, perk: heal(101, HealEffect::OneShot) });
    g.play(Move::Settle { action });
    let mira = g.el(MIRA);
    assert_eq!(mira.extras_of(id(100)).count(), 0);
    assert!(!mira.is_wound(id(101)), "no longer a wound");
    assert_eq!(templates_on(mira, 101), vec![Template::OneShot, Template::TransientFlaw]);
    assert_eq!(g.ch.boosts_held(mira), 1, "only the wound still a wound gives a boost");
}

#[test]
fn heal_keeps_its_order_vicious_before_others_and_targeted_under_pervasive() {
    let base = element(MIRA, ElementKind::Character, "Mira");
    let add = |e: &Element, t: Trait| element::add_trait(e, &t, id(ADA)).unwrap().0;
    let mut mira = add(&base, Trait::from_template(id(100), Template::ImpairedAbility, "Bad leg", Via::Granted));
    for m in [Template::Wound, Template::TransientFlaw] {
        mira = add(&mira, modifier(id(100), m));
    }
    mira = add(&mira, extra(110, Template::TargetedWound).on(id(100)));
    mira = add(&mira, extra(111, Template::PervasiveWound).on(id(100)));
    mira = add(&mira, extra(112, Template::ViciousWound).on(id(100)));
    let remove = |ids: &[u128]| HealEffect::RemoveExtras { extras: ids.iter().map(|&n| id(n)).collect() };
    assert_eq!(
        err(heal_wound(&mira, id(100), &remove(&[111]))),
        "effect.extras: every Vicious Wound extra goes before any other extra can be removed"
    );
    assert_eq!(
        err(heal_wound(&mira, id(100), &remove(&[112, 110]))),
        "effect.extras: a Pervasive Wound needs its Targeted Wound: remove it first"
    );
    let (healed, _) = heal_wound(&mira, id(100), &remove(&[112, 111])).unwrap();
    assert_eq!(healed.extras_of(id(100)).map(|x| x.id).collect::<Vec<_>>(), vec![id(110)]);
}

#[test]
fn heal_treats_only_a_transient_wound_gained_in_this_challenge() {
    let mut els = elements();
    let add = |e: &Element, t: Trait| element::add_trait(e, &t, id(ADA)).unwrap().0;
    els[0] = add(&els[0], Trait::from_template(id(150), Template::Vulnerability, "Old wound", Via::Granted));
    els[0] = add(&els[0], modifier(id(150), Template::Wound));
    let mut g = Game::from(&setup(), els);
    let action = g.act(JON, 8, OGRE, 4);
    assert_eq!(
        g.err(Move::Declare {
            action,
            perk: PerkUse::Heal { target: id(MIRA), wound: id(150), effect: HealEffect::OneShot }
        }),
        "perk.wound: Heal treats a wound gained during this challenge"
    );
    let mira = g.el(MIRA).clone();
    assert_eq!(
        err(heal_wound(&mira, id(150), &HealEffect::OneShot)),
        "wound: only a wound with the Transient Flaw modifier is healed"
    );
}

#[test]
fn push_adds_a_trump_ruin_takes_one_for_a_point_of_momentum_unless_protected() {
    let mut g = Game::new();
    let action = g.act(MIRA, 8, OGRE, 4);
    assert_eq!(
        g.err(Move::Declare { action, perk: PerkUse::Push { goal: id(LAIR), trump: id(300) } }),
        "perk.goal: Push targets a goal the acting challenger's side supports"
    );
    assert_eq!(
        g.err(Move::Declare { action, perk: PerkUse::Ruin { goal: id(COVE) } }),
        "perk.goal: Ruin targets a goal the acting challenger's side can interfere with (another side's)"
    );
    assert_eq!(
        g.err(Move::Declare { action, perk: PerkUse::Ruin { goal: id(LAIR) } }),
        "perk.goal: Guard the lair has no trump to lose"
    );
    g.play(Move::Declare { action, perk: PerkUse::Push { goal: id(COVE), trump: id(300) } });
    g.play(Move::Declare { action, perk: PerkUse::Push { goal: id(COVE), trump: id(301) } });
    g.play(Move::Settle { action });
    assert_eq!(g.el(COVE).trumps(), 2);

    let action = g.act(OGRE, 5, MIRA, 4);
    g.play(Move::Declare { action, perk: PerkUse::Ruin { goal: id(COVE) } });
    g.play(Move::Settle { action });
    assert_eq!((g.el(COVE).trumps(), g.el(COVE).momentum), (1, 1));
    assert!(g.el(COVE).trait_by_id(id(300)).is_some(), "the last trump went");

    g.set(COVE, |e| e.momentum = 2);
    let action = g.act(WALL, 5, JON, 4);
    assert_eq!(
        g.err(Move::Declare { action, perk: PerkUse::Ruin { goal: id(COVE) } }),
        "perk.goal: Reach the cove holds 2 momentum, at least twice its 1 trumps: they are protected"
    );
}

#[test]
fn a_complication_counters_a_push_until_the_next_major_action() {
    let mut g = Game::new();
    g.perks(MIRA, OGRE, pushes(COVE, &[300]));
    assert_eq!(
        g.err(Move::Complicate { goal: id(LAIR), text: "The tide".into() }),
        "goal: no Push on this goal can be countered now"
    );
    g.play(Move::Complicate { goal: id(COVE), text: "The tide is in".into() });
    assert_eq!((g.el(COVE).trumps(), g.el(COVE).momentum), (0, 1));
    assert!(g.err(Move::Complicate { goal: id(COVE), text: "Again".into() }).starts_with("goal: no Push"));

    g.perks(JON, OGRE, pushes(COVE, &[301]));
    g.act(OGRE, 2, JON, 4);
    assert_eq!(
        g.err(Move::Complicate { goal: id(COVE), text: "Fog".into() }),
        "goal: no Push on this goal can be countered now"
    );
    assert_eq!(g.el(COVE).trumps(), 1);
}

#[test]
fn a_final_counter_removes_every_perk_of_an_action() {
    let mut g = Game::new();
    let action = g.act(MIRA, 8, OGRE, 4);
    g.play(Move::Declare { action, perk: bind(OGRE, 100) });
    g.play(Move::FinalCounter { action, element: id(OGRE) });
    assert_eq!(g.ch.actions[action].closed, Some(Closed::Countered { by: id(OGRE) }));
    assert!(g.ch.actions[action].declared.is_empty());
    assert_eq!(g.el(OGRE).restraints().count(), 0);
    assert!(!g.el(OGRE).has_plot_protection(), "sacrificed until the challenge is over");
    assert_eq!(g.ch.phase(), Phase::Rounds);
    let action = g.act(JON, 8, OGRE, 4);
    assert_eq!(
        g.err(Move::FinalCounter { action, element: id(OGRE) }),
        "element: Ogre already sacrificed its protection"
    );
}

// --- boosts

#[test]
fn an_owner_triggers_at_most_five_boosts_and_each_goes_to_the_least_momentum() {
    let mut g = Game::new();
    wounded(&mut g, OGRE, 6, 100);
    assert_eq!(g.ch.boosts_held(g.el(OGRE)), 5, "six wounds, five boosts");
    g.set(MIRA, |e| e.momentum = 2);
    g.play(Move::Surrender { challenger: id(OGRE) });
    // Jon (0) gets two before Mira (2) ties; then the table picks.
    assert_eq!((g.el(JON).momentum, g.el(MIRA).momentum), (2, 2));
    assert_eq!(g.ch.departure.as_ref().unwrap().boosts[0].awards, 3);
    g.play(Move::AwardBoost { to: id(MIRA) });
    assert_eq!((g.el(JON).momentum, g.el(MIRA).momentum), (3, 3), "Jon was least: automatic");
    g.play(Move::AwardBoost { to: id(JON) });
    assert_eq!((g.el(JON).momentum, g.el(MIRA).momentum), (4, 3));
    assert_eq!(g.ch.challenger(id(OGRE)).unwrap().boosts_triggered, 5);
    assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::Surrender });
    assert_eq!((g.el(JON).momentum_awards, g.el(MIRA).momentum_awards), (4, 1));
}

#[test]
fn a_challenger_gains_at_most_five_awards_a_challenge_and_the_rest_lapse() {
    let mut g = Game::new();
    g.play(Move::ChangeStakes { challenger: id(JON), stake: "Gold".into(), joining: Some(Joining::Side { side: 1 }) });
    g.play(Move::EndRound { trumps: vec![] });
    wounded(&mut g, OGRE, 4, 100);
    g.set(MIRA, |e| e.momentum_awards = 3);
    g.play(Move::Surrender { challenger: id(OGRE) });
    assert_eq!((g.el(MIRA).momentum, g.el(MIRA).momentum_awards), (2, 5));
    assert!(g.has(|e| matches!(e, ChallengeEvent::BoostLapsed { awards: 2, .. })));
    assert_eq!(g.el(JON).momentum, 0, "Jon is the ogre's ally now");
}

#[test]
fn trumps_trigger_when_their_supporters_withdraw_and_draw_from_their_goal() {
    let mut g = Game::new();
    g.perks(MIRA, OGRE, pushes(COVE, &[300]));
    assert_eq!(
        g.err(Move::EndRound { trumps: vec![TrumpEffect::VictoriousWithdrawal { goal: id(COVE) }] }),
        "trumps[0]: the goal holds 1 trumps and has 2 supporters still in: it needs as many"
    );
    g.perks(JON, OGRE, pushes(COVE, &[301, 302]));
    g.set(COVE, |e| e.momentum = 3);
    g.play(Move::EndRound { trumps: vec![TrumpEffect::VictoriousWithdrawal { goal: id(COVE) }] });
    assert_eq!(g.status(MIRA), Status::Leaving { how: Leave::Victory, why: Why::Withdrawal });
    assert_eq!(g.ch.departure.as_ref().unwrap().boosts.len(), 1, "one boost per trump not spent");
    assert_eq!(g.err(Move::DrawTrump { points: 4 }), "points: the trump draws at most 3 (its goal holds 3; 4 at most)");
    assert_eq!(
        g.err(spends(MIRA, Spend::VictoryNarration { votes: 1 })),
        "move: momentum is spent once every boost is awarded"
    );
    g.play(Move::DrawTrump { points: 2 });
    assert_eq!(g.el(COVE).momentum, 1);
    // 3 awards: a tie (pick Mira), Jon automatically, a tie again (pick Jon).
    g.play(Move::AwardBoost { to: id(MIRA) });
    assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (1, 1));
    g.play(Move::AwardBoost { to: id(JON) });
    assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (1, 2));
    assert_eq!(g.ch.phase(), Phase::Departure, "now they spend");
    g.play(spends(MIRA, Spend::VictoryNarration { votes: 1 }));
    g.play(spends(
        JON,
        Spend::Boon {
            boon: Boon::Uses { uses: 3 },
            edge: Box::new(Trait::new(id(400), TraitKind::Edge, "Sea legs", Via::Boon)),
        },
    ));
    // Both spent out: gone; the ogre and the wall have no opponent and win; the end.
    assert_eq!(g.ch.phase(), Phase::Over);
    assert_eq!(g.status(OGRE), Status::Left { how: Leave::Victory, why: Why::NoOpponents });
    assert_eq!(g.el(JON).trait_by_id(id(400)).unwrap().uses_left, Some(3));
    assert_eq!((g.el(COVE).trumps(), g.el(COVE).momentum), (0, 0), "trumps and momentum lost at the end");
    assert!(g.ch.goal(id(COVE)).unwrap().triggered);
}

#[test]
fn a_defeated_exile_forces_every_opponent_out() {
    let mut g = Game::new();
    g.perks(OGRE, MIRA, pushes(LAIR, &[300]));
    assert_eq!(
        g.err(Move::EndRound { trumps: vec![TrumpEffect::DefeatedExile { goal: id(LAIR) }] }),
        "trumps[0]: the goal holds 1 trumps and has 2 opponents still in: it needs as many"
    );
    g.perks(WALL, JON, pushes(LAIR, &[301, 302]));
    g.set(OGRE, |e| e.momentum = 1);
    assert_eq!(
        g.err(Move::EndRound {
            trumps: vec![
                TrumpEffect::DefeatedExile { goal: id(LAIR) },
                TrumpEffect::VictoriousWithdrawal { goal: id(LAIR) }
            ]
        }),
        "trumps[1]: each goal uses one trump effect at a round's end"
    );
    g.play(Move::EndRound { trumps: vec![TrumpEffect::DefeatedExile { goal: id(LAIR) }] });
    // The heroes are exiled (two trumps spent); the ogre and the wall then win; the trump
    // left triggers for the ogre, its supporter, leaving in victory.
    assert_eq!(g.status(MIRA), Status::Left { how: Leave::Defeat, why: Why::Exile });
    assert_eq!(g.status(JON), Status::Left { how: Leave::Defeat, why: Why::Exile });
    assert_eq!(g.status(OGRE), Status::Leaving { how: Leave::Victory, why: Why::NoOpponents });
    assert_eq!(g.el(LAIR).trumps(), 1, "the exile spent two trumps");
    assert_eq!((g.el(OGRE).momentum, g.el(OGRE).momentum_awards), (2, 1), "one award for the trump left");
    g.play(spends(OGRE, Spend::VictoryNarration { votes: 1 }));
    assert_eq!(
        g.err(spends(MIRA, Spend::VictoryNarration { votes: 1 })),
        format!("challenger: element {} is not leaving now", id(MIRA))
    );
    g.play(Move::Depart);
    assert_eq!(g.ch.phase(), Phase::Over);
    assert_eq!(g.el(OGRE).momentum, 0, "unspent momentum is lost");
}

// --- leaving

#[test]
fn victors_spend_momentum_on_narration_stakes_lasting_effects_and_boons() {
    let mut g = Game::new();
    g.perks(MIRA, OGRE, vec![hinder(OGRE, 100), wound(OGRE, 101)]);
    g.play(Move::EndRound { trumps: vec![] });
    g.play(Move::Surrender { challenger: id(JON) });
    g.set(MIRA, |e| e.momentum = 20);
    g.set(WALL, |e| e.momentum = 20);
    g.play(Move::Surrender { challenger: id(OGRE) });
    g.play(Move::Surrender { challenger: id(WALL) });
    // The wall surrendered last on its side: Mira has no opponent left and wins.
    assert_eq!(g.status(WALL), Status::Leaving { how: Leave::Defeat, why: Why::Surrender });
    assert_eq!(
        g.err(spends(WALL, Spend::VictoryNarration { votes: 1 })),
        "spend: a defeated challenger only turns momentum into adversity"
    );
    g.play(spends(WALL, Spend::DefeatConversion { adversity: 10 }));
    assert_eq!(g.status(MIRA), Status::Leaving { how: Leave::Victory, why: Why::NoOpponents });
    let spend = |s: Spend| spends(MIRA, s);
    assert_eq!(
        g.err(spend(Spend::DefeatConversion { adversity: 1 })),
        "spend: only a defeated challenger turns momentum into adversity"
    );
    assert_eq!(g.el(MIRA).momentum, 21, "the ogre's wound gave her a point");
    g.play(spend(Spend::VictoryNarration { votes: 2 }));
    assert_eq!(g.el(MIRA).momentum, 19);
    g.play(spend(Spend::ClaimingStakes { perks: 2, uses: vec![bind(OGRE, 110), bind(WALL, 111)] }));
    assert_eq!(g.el(MIRA).momentum, 17);
    // Lasting effects: the ogre's Hinder flaw stops being transient; its wound keeps it.
    g.play(spend(Spend::LastingEffect { element: id(OGRE), flaw: id(100), transient: false, part_of_stake: false }));
    assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::OneShot]);
    assert_eq!(g.el(MIRA).momentum, 16);
    g.play(spend(Spend::LastingEffect { element: id(OGRE), flaw: id(100), transient: true, part_of_stake: false }));
    assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::OneShot, Template::TransientFlaw]);
    assert_eq!(
        g.err(spend(Spend::LastingEffect { element: id(OGRE), flaw: id(100), transient: true, part_of_stake: false })),
        "spend.transient: the flaw already has the Transient Flaw modifier"
    );
    // Boons by the cost table: 1 → one use, 2 → 3 uses, 3 → 5 uses, 4 → 7 uses, 3 → one
    // challenge (15 − 13 = 2 left); 5 → the arc is then too dear.
    let boons = [
        (Boon::Uses { uses: 1 }, 1, Lasts::Lasting, Some(1)),
        (Boon::Uses { uses: 3 }, 2, Lasts::Lasting, Some(3)),
        (Boon::Uses { uses: 5 }, 3, Lasts::Lasting, Some(5)),
        (Boon::Uses { uses: 7 }, 4, Lasts::Lasting, Some(7)),
        (Boon::OneChallenge, 3, Lasts::NextChallenge, None),
    ];
    for (k, (boon, cost, lasts, uses)) in boons.into_iter().enumerate() {
        let before = g.el(MIRA).momentum;
        let edge = Box::new(Trait::new(id(500 + k as u128), TraitKind::Edge, "Boon", Via::Boon));
        g.play(spend(Spend::Boon { boon, edge }));
        assert_eq!(before - g.el(MIRA).momentum, cost, "{boon:?}");
        let t = g.el(MIRA).trait_by_id(id(500 + k as u128)).unwrap();
        assert_eq!((t.lasts, t.uses_left, t.via), (lasts, uses, Via::Boon));
    }
    assert_eq!(g.el(MIRA).momentum, 2);
    let arc = Box::new(Trait::new(id(600), TraitKind::Edge, "Legend", Via::Boon));
    assert_eq!(
        g.err(spend(Spend::Boon { boon: Boon::OneArc, edge: arc })),
        "momentum: Mira holds 2 momentum; this costs 5"
    );
    g.play(Move::Depart);
    assert_eq!(g.ch.phase(), Phase::Over);
    assert_eq!(g.el(MIRA).momentum, 0);
}

#[test]
fn claiming_stakes_needs_a_stake_and_lasting_effects_an_element_of_the_challenge() {
    let mut els = elements();
    els.push(element(40, ElementKind::Object, "Map"));
    let map = Trait::from_template(id(150), Template::Vulnerability, "Torn", Via::Granted);
    els[6] = element::add_trait(&els[6], &map, id(ADA)).unwrap().0;
    let mut g = Game::from(&setup(), els);
    g.play(Move::Surrender { challenger: id(MIRA) });
    g.set(JON, |e| e.momentum = 3);
    g.play(Move::Surrender { challenger: id(OGRE) });
    g.play(Move::Surrender { challenger: id(WALL) });
    let spend = |s: Spend| spends(JON, s);
    assert_eq!(
        g.err(spend(Spend::ClaimingStakes { perks: 1, uses: vec![bind(OGRE, 110)] })),
        "spend: claiming stakes needs stakes: this challenger set none"
    );
    assert_eq!(
        g.err(spend(Spend::LastingEffect { element: id(40), flaw: id(150), transient: true, part_of_stake: true })),
        "spend.element: a lasting effect targets an element of this challenge or of the spender's stake"
    );
    assert_eq!(
        g.err(spend(Spend::LastingEffect { element: id(COVE), flaw: id(150), transient: true, part_of_stake: false })),
        format!("spend.flaw: Reach the cove has no flaw {}", id(150))
    );
}

/// RULES.md §3.4 (2026-11-25): claiming stakes applies its major perks, and what they make
/// last until the end of the challenge lasts until the end of the next one.
#[test]
fn claimed_stakes_apply_their_perks_which_last_until_the_end_of_the_next_challenge() {
    let mut g = Game::new();
    g.set(MIRA, |e| e.momentum = 3);
    g.play(Move::Surrender { challenger: id(OGRE) });
    g.play(Move::Surrender { challenger: id(WALL) });
    assert_eq!(g.status(MIRA), Status::Leaving { how: Leave::Victory, why: Why::NoOpponents });
    let claim = |uses: Vec<PerkUse>| spends(MIRA, Spend::ClaimingStakes { perks: uses.len() as u32, uses });
    assert_eq!(g.err(claim(vec![hinder(OGRE, 100)])), "spend.uses[0]: claiming stakes buys major perks");
    assert_eq!(
        g.err(spends(MIRA, Spend::ClaimingStakes { perks: 2, uses: vec![bind(OGRE, 100)] })),
        "spend.uses: name each major perk claimed and its target: 2 bought, 1 named"
    );
    assert_eq!(
        g.err(claim(pushes(LAIR, &[300]))),
        "spend.uses[0].goal: Push targets a goal the acting challenger's side supports"
    );
    assert_eq!(g.el(MIRA).momentum, 3, "a refused claim costs nothing");
    // The ogre has left; the claimed Bind still lands on it, and the cove gains a trump.
    g.play(claim(vec![bind(OGRE, 100), PerkUse::Push { goal: id(COVE), trump: id(300) }]));
    assert_eq!(g.el(MIRA).momentum, 1);
    assert_eq!(templates_on(g.el(OGRE), 100), vec![Template::TransientFlaw]);
    assert_eq!(g.el(OGRE).carried, vec![id(100)]);
    assert_eq!(g.el(COVE).trumps(), 1);
    assert!(g.has(|e| matches!(e, ChallengeEvent::StakesClaimed { perk: PerkName::Bind, .. })));
    g.play(Move::Depart);
    assert_eq!(g.ch.phase(), Phase::Over);
    // This challenge's end keeps them: the trump and the restraint's challenge-long effects.
    assert_eq!(g.el(COVE).trumps(), 1, "a claimed trump outlasts its challenge");
    assert_eq!(g.el(OGRE).carried, vec![id(100)]);

    // The next challenge: the restraint counts as gained there (a boost, Break Free's and
    // Heal's "this challenge"), and the trump is the cove's until that challenge ends.
    let mut next = Game::from(&setup(), g.els.clone());
    assert!(next.ch.gained.contains(&Gained { element: id(OGRE), flaw: id(100) }));
    assert_eq!(next.ch.boosts_held(next.el(OGRE)), 1);
    assert!(next.el(OGRE).carried.is_empty());
    assert_eq!(next.el(COVE).trumps(), 1);
    finish(&mut next);
    assert_eq!(next.el(COVE).trumps(), 0, "gone at the end of the next challenge");
    let after = Game::from(&setup(), next.els.clone());
    assert_eq!(after.ch.boosts_held(after.el(OGRE)), 0, "only the next challenge");
}

/// RULES.md §3.4 (2026-11-25): a trump used for Victorious Withdrawal or Defeated Exile is
/// spent, so it no longer triggers a boost; trumps never used trigger when their supporters
/// leave and are lost at the end.
#[test]
fn trumps_used_at_a_rounds_end_are_spent_and_give_no_boost() {
    let mut g = Game::new();
    g.perks(MIRA, OGRE, pushes(COVE, &[300, 301]));
    g.perks(JON, OGRE, pushes(COVE, &[302]));
    assert_eq!(g.el(COVE).trumps(), 3);
    // Two supporters still in: the withdrawal spends two trumps; the third is left to
    // trigger as they go (the old reading kept all three, three awards).
    g.play(Move::EndRound { trumps: vec![TrumpEffect::VictoriousWithdrawal { goal: id(COVE) }] });
    assert!(g.has(|e| matches!(
        e,
        ChallengeEvent::Element { change: ElementEvent::TraitRemoved { trait_id, .. } } if *trait_id == id(302)
    )));
    assert_eq!(g.el(COVE).trumps(), 1);
    assert!(g.el(COVE).trait_by_id(id(300)).is_some(), "the first trump gained is kept");
    let boosts = &g.ch.departure.as_ref().unwrap().boosts;
    assert_eq!(boosts.len(), 1, "one boost: the trump not spent");
    assert_eq!(boosts[0].owner, BoostOwner::Trump { goal: id(COVE), trump: id(300) });
}

/// RULES.md §3.4 (2026-11-25): Raise Stakes momentum is the stake's own pool, shared by
/// its owners, spent by one leaving in victory in support of the stake only, and never
/// counted as anyone's momentum (boost targets, the 2:1 conversion); it ends with the stake.
#[test]
fn a_stake_pool_is_its_owners_to_spend_in_support_of_the_stake_only() {
    let mut s = setup();
    s.challengers[1].stake = Some(" reach the COVE".into());
    let mut g = Game::from(&s, elements());
    assert_eq!(err(raise_stake(&g.ch, id(OGRE), 2)), "challenger: this challenger set no stake to raise");
    let (ch, events) = raise_stake(&g.ch, id(MIRA), 3).unwrap();
    g.ch = ch;
    assert!(matches!(&events[..], [ChallengeEvent::StakeRaised { momentum: 3, .. }]));
    assert_eq!((g.ch.pool_of(id(MIRA)), g.ch.pool_of(id(JON))), (3, 3), "Jon holds the same stake");
    assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (0, 0), "nobody's own momentum");

    // The ogre's wound boost goes to the hero with the least momentum of their own.
    g.set(JON, |e| e.momentum = 1);
    g.perks(MIRA, OGRE, vec![wound(OGRE, 100)]);
    g.play(Move::EndRound { trumps: vec![] });
    g.play(Move::Surrender { challenger: id(WALL) });
    g.play(Move::Surrender { challenger: id(OGRE) });
    assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (1, 1), "the pool does not count for the boost");
    let spend = |who: u128, s: Spend| Move::Spend { challenger: id(who), by: id(ADA), spend: s, from_stake: true };
    assert_eq!(
        g.err(spend(
            MIRA,
            Spend::Boon {
                boon: Boon::Uses { uses: 1 },
                edge: Box::new(Trait::new(id(400), TraitKind::Edge, "Luck", Via::Boon))
            }
        )),
        "from_stake: a stake's momentum is spent in support of the stake: claiming it, victory narration or a lasting effect"
    );
    assert_eq!(
        g.err(spend(MIRA, Spend::VictoryNarration { votes: 4 })),
        "from_stake: the stake “Reach the cove” holds 3 momentum; this costs 4"
    );
    // Mira claims her stake with 2 of the pool; Jon narrates with the last point. Their own
    // momentum stays theirs.
    g.play(spend(MIRA, Spend::ClaimingStakes { perks: 2, uses: vec![bind(OGRE, 110), bind(WALL, 111)] }));
    assert_eq!((g.ch.pool_of(id(JON)), g.el(MIRA).momentum), (1, 1));
    assert_eq!(g.el(OGRE).restraints().count(), 1);
    g.play(spend(JON, Spend::VictoryNarration { votes: 1 }));
    assert_eq!((g.ch.pool_of(id(JON)), g.el(JON).momentum), (0, 1));
    g.play(Move::Depart);
    assert_eq!(g.ch.phase(), Phase::Over);
    assert!(g.ch.stake_pools.is_empty(), "a pool ends with its challenge");
}

#[test]
fn a_stake_pool_ends_when_nobody_holds_the_stake_and_the_defeated_cannot_spend_it() {
    let mut g = Game::new();
    g.ch = raise_stake(&g.ch, id(MIRA), 2).unwrap().0;
    g.play(Move::ChangeStakes { challenger: id(MIRA), stake: "Hide".into(), joining: None });
    assert!(g.ch.stake_pools.is_empty());
    assert!(g.has(|e| matches!(e, ChallengeEvent::StakePoolLapsed { momentum: 2, .. })));

    let mut g = Game::new();
    g.ch = raise_stake(&g.ch, id(MIRA), 2).unwrap().0;
    g.set(MIRA, |e| e.momentum = 2);
    g.play(Move::Surrender { challenger: id(MIRA) });
    let mv = Move::Spend {
        challenger: id(MIRA),
        by: id(ADA),
        spend: Spend::DefeatConversion { adversity: 1 },
        from_stake: true,
    };
    assert_eq!(g.err(mv), "from_stake: a stake's momentum is spent by an owner leaving in victory");
}

/// RULES.md §3.4 (2026-11-25), audit #13: protection a challenger lent to a bystander ends
/// with the challenge; protection lent by someone outside it stays.
#[test]
fn protection_lent_to_a_bystander_ends_with_the_challenge() {
    let mut els = elements();
    let mut map = element(40, ElementKind::Object, "Map");
    map.plot_protection.lent_by = Some(id(MIRA));
    let mut bell = element(41, ElementKind::Object, "Bell");
    bell.plot_protection.lent_by = Some(id(ADA));
    els.extend([map, bell]);
    let mut g = Game::from(&setup(), els);
    finish(&mut g);
    assert_eq!(g.el(40).plot_protection.lent_by, None);
    assert!(g.has(|e| matches!(
        e,
        ChallengeEvent::Element { change: ElementEvent::LentProtectionEnded { from, .. } } if *from == id(MIRA)
    )));
    assert_eq!(g.el(41).plot_protection.lent_by, Some(id(ADA)), "not lent from this challenge");
}

/// Audit #14: worsening a wound adds extras that can remove targets, so its target may
/// surrender at once, free, as after a new wound.
#[test]
fn worsening_a_wound_opens_the_free_surrender() {
    let mut g = Game::new();
    wounded(&mut g, OGRE, 1, 150);
    g.act(OGRE, 1, MIRA, 3);
    let worsen = PerkUse::Damage {
        target: id(OGRE),
        wound: Wounding::Worsen { wound: id(150) },
        expend: vec![],
        extras: vec![extra(160, Template::ViciousWound), extra(161, Template::ViciousWound)],
        takes_out: false,
    };
    g.perks(MIRA, OGRE, vec![worsen]);
    assert!(g.ch.may_surrender.contains(&id(OGRE)));
    g.play(Move::Surrender { challenger: id(OGRE) });
    assert!(matches!(g.status(OGRE), Status::Leaving { how: Leave::Defeat, .. } | Status::Left { .. }));
}

#[test]
fn a_defeat_turns_two_momentum_into_one_adversity_after_every_award() {
    let mut g = Game::new();
    wounded(&mut g, MIRA, 1, 100);
    g.set(OGRE, |e| e.momentum = 5);
    g.set(WALL, |e| e.momentum = 5);
    g.play(Move::Surrender { challenger: id(MIRA) });
    // Mira's wound boost waits for the pick between the ogre and the wall.
    assert_eq!(g.ch.phase(), Phase::Departure);
    g.play(Move::AwardBoost { to: id(OGRE) });
    assert_eq!(g.ch.phase(), Phase::Rounds, "Mira had nothing to convert");
    g.play(Move::EndRound { trumps: vec![] });
    g.play(Move::Surrender { challenger: id(OGRE) });
    let convert = |n| spends(OGRE, Spend::DefeatConversion { adversity: n });
    assert_eq!(g.err(convert(4)), "momentum: Ogre holds 6 momentum; this costs 8");
    g.play(convert(2));
    assert_eq!((g.el(OGRE).momentum, g.el(OGRE).adversity), (2, 2));
    g.play(convert(1));
    assert_eq!((g.el(OGRE).momentum, g.el(OGRE).adversity), (0, 3));
    assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::Surrender }, "nothing left: gone");
}

#[test]
fn surrender_takes_a_major_action_unless_it_follows_a_wound_or_restraint() {
    let mut g = Game::new();
    g.play(roll(&[(OGRE, 2), (MIRA, 5)], &[OGRE, MIRA]));
    assert_eq!(
        g.err(Move::Surrender { challenger: id(OGRE) }),
        "move: a challenger surrenders: the open perks are resolved first"
    );
    g.play(Move::Declare { action: 1, perk: wound(OGRE, 100) });
    g.play(Move::Settle { action: 1 });
    // The ogre acted already, but it was just wounded: it may leave at once.
    g.play(Move::Surrender { challenger: id(OGRE) });
    g.play(Move::AwardBoost { to: id(MIRA) });
    assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::Surrender });
    assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (1, 0));

    // Without a new wound, an acted challenger cannot surrender this round.
    let mut g = Game::new();
    g.play(roll(&[(OGRE, 2), (MIRA, 5)], &[OGRE]));
    assert_eq!(
        g.err(Move::Surrender { challenger: id(OGRE) }),
        "challenger: surrendering takes a major action, and it already took one this round"
    );
    g.play(Move::Surrender { challenger: id(WALL) });
    assert!(g.ch.acted.contains(&id(WALL)));
    assert_eq!(g.status(WALL), Status::Left { how: Leave::Defeat, why: Why::Surrender });
    // The chance to leave at once closes with the next major action.
    g.play(Move::EndRound { trumps: vec![] });
    g.perks(MIRA, OGRE, vec![wound(OGRE, 101)]);
    assert!(g.ch.may_surrender.contains(&id(OGRE)));
    g.act(JON, 2, OGRE, 4);
    assert!(g.ch.may_surrender.is_empty());
}

#[test]
fn the_end_loses_momentum_and_trumps_lapses_boosts_and_favours_transient_flaws() {
    let mut g = Game::new();
    g.perks(MIRA, OGRE, vec![wound(OGRE, 100), PerkUse::Push { goal: id(COVE), trump: id(300) }]);
    g.play(Move::EndRound { trumps: vec![] });
    g.play(Move::Surrender { challenger: id(WALL) });
    g.play(Move::EndRound { trumps: vec![] });
    g.play(Move::Surrender { challenger: id(OGRE) });
    // The ogre's wound boost goes to Jon or Mira; the heroes win with 1 point between them.
    g.play(Move::AwardBoost { to: id(MIRA) });
    // Mira's trump triggers for the heroes as they leave: one more point, to Jon (least).
    assert_eq!((g.el(MIRA).momentum, g.el(JON).momentum), (1, 1));
    g.play(Move::Depart);
    assert_eq!(g.ch.phase(), Phase::Over);
    assert!(g.has(|e| *e == ChallengeEvent::Ended { challenge: id(CHALLENGE) }));
    for who in [MIRA, JON, OGRE, WALL, COVE] {
        let e = g.el(who);
        assert_eq!((e.momentum, e.momentum_awards, e.in_challenge), (0, 0, false), "{}", e.name);
    }
    assert_eq!(g.el(COVE).trumps(), 0);
    let ogre = g.el(OGRE);
    let favored = ogre.trait_by_id(element::favored_flaw_id(modifier_id(id(100), Template::TransientFlaw))).unwrap();
    assert_eq!((favored.template, favored.target_trait), (Some(Template::FavoredFlaw), Some(id(100))));

    // The next challenge: the old wound gives no boost.
    let next = Game::from(&setup(), g.els.clone());
    assert_eq!(next.ch.boosts_held(next.el(OGRE)), 0);
    assert_eq!(next.el(OGRE).edge_slots(), 4, "the first-challenge slots come once");
}

// --- rolled through the action check

#[test]
fn a_major_action_can_be_rolled_through_the_action_check() {
    let g = Game::new();
    let check_setup = CheckSetup {
        id: id(98),
        description: "Mira dodges past".into(),
        sides: vec![
            CheckSideSetup {
                kind: SideKind::Action { element: id(MIRA) },
                description: String::new(),
                chance: BaseChance::Common,
                aptitude: 0,
            },
            CheckSideSetup {
                kind: SideKind::Action { element: id(OGRE) },
                description: String::new(),
                chance: BaseChance::Occasional,
                aptitude: 0,
            },
        ],
        involved: vec![],
    };
    let (check, awarded, _) = action_check::start(&check_setup, &g.els).unwrap();
    let els = merge(&g.els, &awarded.elements);
    let players = vec![player(ADA, "Ada")];
    // Mira's d6 shows 6, the ogre's d4 shows 3: 6 against 3 is double.
    let mut dice = Entered::new([6, 3]);
    let (ch, resolved, changes, events) =
        roll_major_actions(&g.ch, &check, &[id(MIRA)], &players, &els, &Sources::default(), &mut dice).unwrap();
    assert_eq!(scores_of(&resolved).unwrap().iter().map(|s| s.score).collect::<Vec<_>>(), vec![6, 3]);
    let a = &ch.actions[0];
    assert_eq!((a.check, a.score, a.opposing, a.result), (Some(id(98)), 6, 3, ActionResult::DoubleSuccess));
    assert!(changes.elements.is_empty() && changes.players.is_empty(), "no spend, no failure");
    assert!(matches!(events[0], ChallengeEvent::Check { .. }));
    assert_eq!(err(scores_of(&check)), "check: a major action compares rolled scores: resolve a rolled check first");
}

// --- rest & recuperation

#[test]
fn rest_clears_flaws_outside_challenges() {
    let mut g = Game::new();
    g.perks(OGRE, MIRA, vec![bind(MIRA, 100), wound(MIRA, 101)]);
    let action = g.act(WALL, 8, MIRA, 4);
    g.play(Move::Trade { action });
    g.play(Move::Declare { action, perk: hinder(MIRA, 102) });
    g.play(Move::Settle { action });
    let busy = g.el(MIRA).clone();
    assert_eq!(
        err(take_breather(&busy, id(102))),
        "element: Mira is in a challenge: restorative actions are for after it"
    );
    let mira = element::challenge_ended(&busy).unwrap().0;
    assert_eq!(
        err(take_breather(&mira, id(101))),
        "flaw: a breather shakes off a flaw with the One-Shot and Transient Flaw modifiers"
    );
    let (mira, _) = take_breather(&mira, id(102)).unwrap();
    assert!(mira.trait_by_id(id(102)).is_none(), "no limit to this challenge's flaws");
    let (mira, _) = escape_restraints(&mira, id(100)).unwrap();
    assert_eq!(mira.restraints().count(), 0);
    let flaws_before = mira.traits.iter().filter(|t| t.kind == TraitKind::Flaw).count();
    assert_eq!(flaws_before, 1, "escaping gives no new flaw");

    // A Vicious Wound needs a Recovery Check or ample time.
    let mira = element::add_trait(&mira, &extra(110, Template::ViciousWound).on(id(101)), id(ADA)).unwrap().0;
    let all = HealEffect::RemoveExtras { extras: vec![id(110)] };
    assert_eq!(
        err(treat_wounds(&mira, id(101), &all, RecoveryCheck::NotMade)),
        "recovery: a Vicious Wound needs a Recovery Check first (or triple the time to skip it)"
    );
    let (mira, _) = treat_wounds(&mira, id(101), &all, RecoveryCheck::AmpleTime).unwrap();
    let (mira, _) = treat_wounds(&mira, id(101), &HealEffect::OneShot, RecoveryCheck::NotMade).unwrap();
    assert!(!mira.is_wound(id(101)));
    let (mira, _) = take_breather(&mira, id(101)).unwrap();
    assert!(mira.traits.iter().all(|t| t.template == Some(Template::FavoredFlaw) || t.kind != TraitKind::Flaw));
}

// --- data

#[test]
fn a_challenge_and_its_moves_round_trip_and_refuse_unknown_fields() {
    let mut g = Game::new();
    g.act(MIRA, 8, OGRE, 4);
    g.play(Move::Declare { action: 0, perk: bind(OGRE, 100) });
    let json = serde_json::to_string(&g.ch).unwrap();
    assert_eq!(serde_json::from_str::<Challenge>(&json).unwrap(), g.ch);
    let mv = Move::Declare { action: 0, perk: wound(OGRE, 101) };
    let text = serde_json::to_string(&mv).unwrap();
    assert!(text.starts_with(r#"{"move":"declare","action":0,"perk":{"kind":"damage""#), "{text}");
    assert_eq!(serde_json::from_str::<Move>(&text).unwrap(), mv);
    assert!(serde_json::from_str::<Move>(r#"{"move":"trade","action":0,"extra":1}"#).is_err());
    let events = serde_json::to_string(&g.events).unwrap();
    assert_eq!(serde_json::from_str::<Vec<ChallengeEvent>>(&events).unwrap(), g.events);
}

// --- properties

/// A random table: 2 to 4 sides of 1 to 3 challengers, each side with a goal.
fn random_game(sides: usize, per_side: &[usize]) -> Game {
    let mut els = Vec::new();
    let mut challengers = Vec::new();
    let mut goals = Vec::new();
    for (s, &members) in per_side.iter().enumerate().take(sides) {
        let mut supporters = Vec::new();
        for k in 0..members {
            let n = 1000 + (s * 10 + k) as u128;
            els.push(element(n, ElementKind::Character, &format!("C{s}{k}")));
            challengers.push(joins(n, s, Some("Win")));
            supporters.push(id(n));
        }
        let g = 2000 + s as u128;
        els.push(element(g, ElementKind::Goal, &format!("Goal {s}")));
        goals.push(GoalSetup { element: id(g), supporters });
    }
    let setup = ChallengeSetup {
        id: id(CHALLENGE),
        description: String::new(),
        sides: (0..sides).map(|s| SideSetup { name: format!("Side {s}") }).collect(),
        challengers,
        goals,
    };
    Game::from(&setup, els)
}

/// One random attempt at a move, from the numbers drawn; refused moves are skipped.
fn random_move(g: &mut Game, op: u8, a: usize, b: usize, n: u32, fresh: &mut u128) {
    let all: Vec<Uuid> = g.ch.challengers.iter().map(|c| c.element).collect();
    let pick = |k: usize| all[k % all.len()];
    *fresh += 10;
    let f = *fresh;
    let mv = match (g.ch.phase(), op % 16) {
        (Phase::Departure, 0..=11) => {
            let d = g.ch.departure.clone().unwrap();
            match d.boosts.first() {
                Some(b0) if b0.draw_pending => Move::DrawTrump { points: n % 5 },
                Some(b0) => Move::AwardBoost { to: b0.targets[a % b0.targets.len().max(1)] },
                None => {
                    let who = d.leavers[a % d.leavers.len()];
                    let spend = match g.ch.challenger(who).unwrap().leaving() {
                        Some(Leave::Defeat) => Spend::DefeatConversion { adversity: n % 4 },
                        _ => Spend::VictoryNarration { votes: n % 3 },
                    };
                    Move::Spend { from_stake: false, challenger: who, by: id(ADA), spend }
                }
            }
        }
        (Phase::Departure, _) => Move::Depart,
        (Phase::Rounds, 0..=8) => {
            let (x, y) = (pick(a), pick(b));
            Move::MajorActions {
                check: None,
                rolls: vec![
                    SideScore { kind: SideKind::Action { element: x }, score: 1 + n % 12 },
                    SideScore { kind: SideKind::Action { element: y }, score: 1 + (n / 12) % 12 },
                ],
                majors: if n.is_multiple_of(2) { vec![x] } else { vec![x, y] },
            }
        }
        (Phase::Perks, 0..=12) => {
            let action = g.ch.open[0];
            let target = pick(b);
            let actor = g.ch.actions[action].challenger;
            let side = g.ch.challenger(actor).unwrap().side;
            let own_goal = id(2000 + side as u128);
            let other_goal = id(2000 + g.ch.challenger(target).unwrap().side as u128);
            let perk = match n % 8 {
                0 | 7 => PerkUse::Bind { target, restraint: flaw(f, Template::Restraint, "Held") },
                1 | 2 => PerkUse::Damage {
                    target,
                    wound: Wounding::NewFlaw { flaw: flaw(f, Template::Vulnerability, "Hurt") },
                    expend: vec![],
                    extras: vec![],
                    takes_out: n.is_multiple_of(11),
                },
                3 => PerkUse::Push { goal: own_goal, trump: id(f) },
                4 => PerkUse::Ruin { goal: other_goal },
                5 => PerkUse::Hinder { target, flaw: flaw(f, Template::ImpairedAbility, "Slowed") },
                _ => PerkUse::Discover { detail: "Something".into() },
            };
            if g.ch.actions[action].majors_left() > 0 && !perk.name().is_major() {
                Move::Trade { action }
            } else {
                Move::Declare { action, perk }
            }
        }
        (Phase::Perks, _) => Move::Settle { action: g.ch.open[0] },
        (_, 9) => Move::Surrender { challenger: pick(a) },
        (_, 10..=12) => {
            let goal = id(2000 + (a % g.ch.sides.len()) as u128);
            let effect = if n.is_multiple_of(2) {
                TrumpEffect::VictoriousWithdrawal { goal }
            } else {
                TrumpEffect::DefeatedExile { goal }
            };
            Move::EndRound { trumps: vec![effect] }
        }
        _ => Move::EndRound { trumps: vec![] },
    };
    let before = (g.ch.clone(), g.els.clone());
    if g.try_play(mv).is_err() {
        assert_eq!((g.ch.clone(), g.els.clone()), before, "a refused move changes nothing");
    }
}

/// Plays until the challenge is over: awards, departures, settles, surrenders.
fn finish(g: &mut Game) {
    for _ in 0..500 {
        let mv = match g.ch.phase() {
            Phase::Over => return,
            Phase::Departure => {
                let d = g.ch.departure.clone().unwrap();
                match d.boosts.first() {
                    Some(b) if b.draw_pending => Move::DrawTrump { points: 0 },
                    Some(_) => Move::AwardBoost { to: award_candidates(&g.ch, &Table::new(&g.els)).unwrap()[0] },
                    None => Move::Depart,
                }
            }
            Phase::Perks => Move::Settle { action: g.ch.open[0] },
            Phase::Rounds => match g.ch.remaining().find(|c| !g.ch.acted.contains(&c.element)) {
                Some(c) => Move::Surrender { challenger: c.element },
                None => Move::EndRound { trumps: vec![] },
            },
        };
        g.play(mv);
    }
    panic!("the challenge did not end");
}

/// The limits every state keeps.
fn check_limits(g: &Game, awards: &std::collections::HashMap<BoostOwner, u32>) {
    for e in &g.els {
        assert!(e.momentum_awards <= MAX_MOMENTUM_AWARDS, "{} gained {} awards", e.name, e.momentum_awards);
    }
    for c in &g.ch.challengers {
        assert!(c.boosts_triggered <= MAX_BOOSTS_PER_OWNER);
    }
    for (owner, n) in awards {
        assert!(*n <= MAX_BOOSTS_PER_OWNER, "{owner:?} gave {n} awards");
    }
    if !g.ch.over && g.ch.departure.is_none() {
        assert!(g.ch.sides_in().len() >= 2, "a challenge runs only while two sides are in");
    }
}

fn steps() -> impl Strategy<Value = Vec<(u8, usize, usize, u32)>> {
    proptest::collection::vec((any::<u8>(), 0usize..12, 0usize..12, 0u32..400), 1..120)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn momentum_boosts_never_exceed_their_limits(
        sides in 2usize..4,
        per_side in proptest::collection::vec(1usize..4, 4),
        wounds in proptest::collection::vec(0u128..9, 12),
        moves in steps(),
    ) {
        let mut g = random_game(sides, &per_side);
        let all: Vec<u128> = g.ch.challengers.iter().map(|c| c.element.as_u128()).collect();
        for (k, who) in all.into_iter().enumerate() {
            wounded(&mut g, who, wounds[k], 50_000 + 100 * k as u128);
        }
        let mut fresh = 10_000u128;
        let mut awards: std::collections::HashMap<BoostOwner, u32> = Default::default();
        let mut received: std::collections::HashMap<Uuid, u32> = Default::default();
        for (op, a, b, n) in moves {
            random_move(&mut g, op, a, b, n, &mut fresh);
            for e in &g.events {
                if let ChallengeEvent::BoostAwarded { owner, to } = e {
                    *awards.entry(*owner).or_default() += 1;
                    *received.entry(*to).or_default() += 1;
                }
            }
            g.events.clear();
            check_limits(&g, &awards);
            prop_assert!(received.values().all(|&n| n <= MAX_MOMENTUM_AWARDS));
        }
    }

    #[test]
    fn leaving_in_defeat_converts_momentum_two_to_one_exactly(
        momentum in 0u32..12,
        adversity in 0u32..3,
        debt in 0u32..3,
        convert in 1u32..8,
    ) {
        let mut g = Game::new();
        let debt = if adversity > 0 { 0 } else { debt };
        g.set(OGRE, |e| { e.momentum = momentum; e.adversity = adversity; e.adversity_debt = debt; });
        g.play(Move::Surrender { challenger: id(OGRE) });
        if momentum < 2 {
            prop_assert_eq!(g.status(OGRE), Status::Left { how: Leave::Defeat, why: Why::Surrender });
            return Ok(());
        }
        let before = g.el(OGRE).clone();
        let mv = spends(OGRE, Spend::DefeatConversion { adversity: convert });
        match g.try_play(mv) {
            Ok(()) => {
                let after = g.el(OGRE);
                prop_assert!(2 * convert <= momentum);
                prop_assert_eq!(after.momentum, momentum - 2 * convert);
                prop_assert_eq!((after.adversity - before.adversity) + (before.adversity_debt - after.adversity_debt), convert);
            }
            Err(_) => {
                prop_assert!(2 * convert > momentum);
                prop_assert_eq!(g.el(OGRE), &before);
            }
        }
    }

    #[test]
    fn the_challenge_ends_when_every_side_but_one_has_left(
        sides in 2usize..5,
        per_side in proptest::collection::vec(1usize..4, 4),
        moves in steps(),
    ) {
        let mut g = random_game(sides, &per_side);
        let mut fresh = 10_000u128;
        let awards = Default::default();
        for (op, a, b, n) in moves {
            random_move(&mut g, op, a, b, n, &mut fresh);
            check_limits(&g, &awards);
        }
        finish(&mut g);
        prop_assert_eq!(g.ch.phase(), Phase::Over);
        prop_assert!(g.ch.challengers.iter().all(|c| matches!(c.status, Status::Left { .. })), "everyone left");
        let winners: Vec<usize> = g.ch.challengers.iter()
            .filter(|c| matches!(c.status, Status::Left { why: Why::NoOpponents, .. }))
            .map(|c| c.side).collect();
        prop_assert!(winners.windows(2).all(|w| w[0] == w[1]), "only one side is left to win by default");
        for e in &g.els {
            prop_assert!(!e.in_challenge && e.momentum == 0 && e.momentum_awards == 0 && e.trumps() == 0, "{} keeps nothing", e.name);
        }
    }
}

// --- started from a lost action check (audit #16)

/// Mira (common, a d6) against the ogre (occasional, a d4), rolled with `faces` and resolved.
fn lost_check(faces: [u8; 2]) -> (ActionCheck, Vec<Element>) {
    let setup = CheckSetup {
        id: id(97),
        description: "Mira slips past the ogre".into(),
        sides: [(MIRA, BaseChance::Common), (OGRE, BaseChance::Occasional)]
            .map(|(who, chance)| CheckSideSetup {
                kind: SideKind::Action { element: id(who) },
                description: String::new(),
                chance,
                aptitude: 0,
            })
            .to_vec(),
        involved: vec![],
    };
    let (check, awarded, _) = action_check::start(&setup, &elements()).unwrap();
    let els = merge(&elements(), &awarded.elements);
    let (rolled, _) = action_check::roll(&check, &els, &mut Entered::new(faces)).unwrap();
    let players = vec![player(ADA, "Ada")];
    let (resolved, _, _) = action_check::resolve(&rolled, &players, &els, &Sources::default()).unwrap();
    (resolved, els)
}

/// Mira and Jon (who backs her, the loser) against the ogre: the check's two sides.
fn backing_the_loser() -> ChallengeSetup {
    ChallengeSetup {
        id: id(CHALLENGE),
        description: "Past the ogre".into(),
        sides: vec![SideSetup { name: "Mira".into() }, SideSetup { name: "The ogre".into() }],
        challengers: vec![joins(MIRA, 0, Some("Past the ogre")), joins(JON, 0, None), joins(OGRE, 1, None)],
        goals: vec![],
    }
}

#[test]
fn a_challenge_started_from_a_lost_check_takes_its_scores_as_the_first_round() {
    // Mira's 3 against the ogre's 4: the ogre won, Mira lost; Jon backs her.
    let (check, els) = lost_check([3, 4]);
    assert_eq!(check.winner(), Some(1));
    let (ch, changes, events) = start_from_check(&backing_the_loser(), &check, &els).unwrap();
    assert_eq!(ch.round, 1);
    assert_eq!(ch.acted, vec![id(MIRA), id(OGRE)], "both acting elements took their major action");
    let mira = &ch.actions[0];
    assert_eq!((mira.check, mira.score, mira.opposing, mira.result), (Some(id(97)), 3, 4, ActionResult::Failure));
    let ogre = &ch.actions[1];
    assert_eq!((ogre.score, ogre.opposing, ogre.result, ogre.major_perks), (4, 3, ActionResult::Success, 1));
    assert_eq!(ch.open, vec![1], "the winner's perks are open, the loser's failure is not");
    assert_eq!(ch.phase(), Phase::Perks);
    let mira = changes.elements.iter().find(|e| e.id == id(MIRA)).unwrap();
    assert_eq!(mira.adversity, 1, "a failed major action gains adversity");
    assert!(events.iter().any(|e| matches!(e, ChallengeEvent::Started { .. })));
    // Jon joined but has not acted: his major action is still his to take this round.
    assert!(ch.challenger(id(JON)).is_some() && !ch.acted.contains(&id(JON)));
}

#[test]
fn only_a_check_one_side_lost_starts_a_challenge_with_every_actor_taking_part() {
    let (check, els) = lost_check([3, 4]);
    let mut tied = check.clone();
    tied.outcome = None;
    tied.phase = action_check::Phase::Tied;
    assert!(start_from_check(&backing_the_loser(), &tied, &els).unwrap_err().to_string().contains("not resolved"));
    let mut agreed = check.clone();
    agreed.outcome = Some(action_check::Outcome::Compromise { sides: vec![0, 1], text: "both".into() });
    assert!(start_from_check(&backing_the_loser(), &agreed, &els).unwrap_err().to_string().contains("compromise"));
    let mut free = check.clone();
    free.outcome = Some(action_check::Outcome::NoCheckNeeded { winner: 0 });
    assert!(start_from_check(&backing_the_loser(), &free, &els).unwrap_err().to_string().contains("no side lost"));
    // The ogre acted in the check but is left out of the challenge.
    let mut setup = backing_the_loser();
    setup.challengers[2] = joins(WALL, 1, None);
    let err = start_from_check(&setup, &check, &els).unwrap_err().to_string();
    assert!(err.contains("Ogre acted in the check"), "{err}");
}

// --- Tempting Target (audit #10)

#[test]
fn a_harmful_perk_on_a_debtor_gives_its_setter_adversity_and_pays_off_a_point_of_debt() {
    let mut g = Game::new();
    g.set(OGRE, |e| e.adversity_debt = 2);
    // Mira hinders the ogre and heals nobody: one harmful perk on the ogre.
    let action = g.perks(MIRA, OGRE, vec![hinder(OGRE, 200)]);
    let mira_before = g.el(MIRA).adversity;
    let (changes, events) = tempting_target(&g.ch, action, id(OGRE), 0, &g.els).unwrap();
    let after = merge(&g.els, &changes.elements);
    let of = |who| after.iter().find(|e| e.id == id(who)).unwrap();
    assert_eq!(of(MIRA).adversity, mira_before + 1, "the setter gains a point of adversity");
    assert_eq!(of(OGRE).adversity_debt, 1, "the debtor pays off a point of debt");
    assert_eq!(events.len(), 2);
    // Once per harmful perk; and only for the perk's own target, who owes debt.
    let err = tempting_target(&g.ch, action, id(OGRE), 1, &g.els).unwrap_err().to_string();
    assert!(err.contains("once"), "{err}");
    let err = tempting_target(&g.ch, action, id(JON), 0, &g.els).unwrap_err().to_string();
    assert!(err.contains("no harmful perk of this action targets Jon"), "{err}");
    g.set(OGRE, |e| e.adversity_debt = 0);
    let err = tempting_target(&g.ch, action, id(OGRE), 0, &g.els).unwrap_err().to_string();
    assert!(err.contains("Ogre owes no adversity debt"), "{err}");
}
