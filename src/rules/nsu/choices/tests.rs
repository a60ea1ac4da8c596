use super::*;
use crate::rules::nsu::roll::{AtRisk, SkillChoice};
use crate::rules::nsu::sheet::{AspectBoxes, Aspects, Mood, Sentiment, SentimentState, Skill, MOOD_LINE_DICE};
use crate::rules::odds::Chance;

fn mood(name: &str, overloaded: bool) -> Option<Mood> {
    Some(Mood { name: name.into(), level: if overloaded { 5 } else { 0 }, overloaded })
}

/// Body d8, Mind d6, Heart d4; moods on lines 0 (d8), 2 (d6) and 4 (d4), the others open;
/// a skill at +2 and a sentiment that can be risked.
fn sheet() -> Sheet {
    Sheet {
        aspects: Some(Aspects { body: Die::D8, mind: Die::D6, heart: Die::D4 }),
        moods: [mood("Curious", false), None, mood("Anxious", false), None, mood("Calm", false), None],
        skills: [
            Some(Skill { name: "Climbing".into(), modifier: 2, boxes: AspectBoxes::default() }),
            None,
            None,
            None,
            None,
            None,
        ],
        sentiments: [Some(Sentiment { name: "Home".into(), state: SentimentState::Connected }), None, None],
        ..Sheet::default()
    }
}

fn setup(at_risk: AtRisk) -> RollSetup {
    RollSetup {
        skill: Some(SkillChoice::Existing { line: 0 }),
        ..RollSetup::new("", Aspect::Body, at_risk, MoodChoice::Existing { line: 0 })
    }
}

/// The faces a die with `edge` can keep, each way it comes up: the player keeps the face
/// that is best for them with advantage, the Arbiters the worst for the player with
/// disadvantage; `for_player` says which face is better for the player.
fn kept(die: Die, edge: Edge, for_player: impl Fn(u8) -> i32) -> Vec<u8> {
    let faces: Vec<u8> = (1..=die.sides()).collect();
    match edge {
        Edge::None => faces,
        _ => {
            let mut kept = Vec::new();
            for &a in &faces {
                for &b in &faces {
                    let player_prefers_a = for_player(a) >= for_player(b);
                    kept.push(if player_prefers_a == (edge == Edge::Advantage) { a } else { b });
                }
            }
            kept
        }
    }
}

/// Win, tie and lose counts by rolling every face: the player holds the aspect die when the
/// Character is at risk and the mood die when the World is, and turns the skill their way.
fn by_hand(plan: &RollPlan, at_risk: AtRisk) -> [u64; 3] {
    let skill = i32::from(plan.skill_modifier);
    let sign = if at_risk == AtRisk::Character { 1 } else { -1 };
    let aspects = kept(plan.aspect_die, plan.aspect_edge, |f| sign * i32::from(f));
    let moods = kept(plan.mood_die, plan.mood_edge, |f| -sign * i32::from(f));
    let mut counts = [0; 3];
    for &a in &aspects {
        for &m in &moods {
            let margin = sign * (i32::from(a) - i32::from(m)) + skill;
            counts[match margin.cmp(&0) {
                Ordering::Greater => 0,
                Ordering::Equal => 1,
                Ordering::Less => 2,
            }] += 1;
        }
    }
    counts
}

#[test]
fn every_aspect_with_every_mood_line_has_the_odds_of_rolling_every_face() {
    let mut overloaded = sheet();
    overloaded.moods[2] = mood("Anxious", true);
    for sheet in [sheet(), overloaded] {
        for at_risk in [AtRisk::Character, AtRisk::World] {
            for risked in [None, Some(0)] {
                let setup = RollSetup { risked_sentiment: risked, aspect_advantages: 1, ..setup(at_risk) };
                let approaches = approaches(&sheet, &setup, None).unwrap();
                assert_eq!(approaches.len(), 18, "three aspects, six mood lines");
                for a in &approaches {
                    assert_eq!(a.plan.mood_die, MOOD_LINE_DICE[a.mood_line]);
                    assert_eq!(a.new_mood, sheet.moods[a.mood_line].is_none());
                    let [win, tie, lose] = by_hand(&a.plan, at_risk);
                    let all = win + tie + lose;
                    assert_eq!(
                        (a.odds.win, a.odds.tie, a.odds.lose),
                        (Chance::new(win, all), Chance::new(tie, all), Chance::new(lose, all)),
                        "{:?} with mood line {}",
                        a.aspect,
                        a.mood_line
                    );
                }
            }
        }
    }
}

#[test]
fn acting_with_the_overloaded_mood_is_marked_best_when_its_advantage_wins() {
    // Line 4 (a d4) is overloaded: acting with it has mood advantage, any other mood
    // disadvantage. World at risk: the player holds the mood die.
    let mut sheet = sheet();
    sheet.moods[4] = mood("Calm", true);
    let approaches = approaches(&sheet, &setup(AtRisk::World), None).unwrap();
    let plan = |aspect, line| &approaches.iter().find(|a| a.aspect == aspect && a.mood_line == line).unwrap().plan;
    assert_eq!(plan(Aspect::Heart, 4).mood_edge, Edge::Advantage);
    assert_eq!(plan(Aspect::Heart, 0).mood_edge, Edge::Disadvantage);
    for aspect in Aspect::ALL {
        let of_aspect: Vec<&Approach> = approaches.iter().filter(|a| a.aspect == aspect).collect();
        let top = of_aspect.iter().map(|a| &a.odds).max_by(|a, b| better(a, b)).unwrap();
        for a in &of_aspect {
            assert_eq!(a.best_for_aspect, better(&a.odds, top) == Ordering::Equal);
        }
    }
    let top = approaches.iter().map(|a| &a.odds).max_by(|a, b| better(a, b)).unwrap();
    assert!(approaches.iter().all(|a| a.best == (better(&a.odds, top) == Ordering::Equal)));
    assert!(approaches.iter().any(|a| a.best));
    // Against a Heart d4, the d4 rolled twice and kept by the player beats a d8 whose worse
    // face the Arbiters keep.
    let heart = |line| &approaches.iter().find(|a| a.aspect == Aspect::Heart && a.mood_line == line).unwrap().odds;
    assert!(heart(4).win > heart(0).win, "{:?} vs {:?}", heart(4).win, heart(0).win);
}

#[test]
fn a_helper_s_die_counts_in_every_approach() {
    let setup = setup(AtRisk::World);
    let alone = approaches(&sheet(), &setup, None).unwrap();
    let helped = approaches(&sheet(), &setup, Some((Die::D8, Edge::None))).unwrap();
    for (a, h) in alone.iter().zip(&helped) {
        assert!(h.odds.win >= a.odds.win, "a helper's die is used only when it helps");
        let expected = action_odds(&ActionRollSetup {
            aspect_die: h.plan.aspect_die,
            mood_die: h.plan.mood_die,
            at_risk: AtRisk::World,
            aspect_edge: h.plan.aspect_edge,
            mood_edge: h.plan.mood_edge,
            skill: h.plan.skill_modifier,
            helper_die: Some(Die::D8),
            helper_edge: Edge::None,
        });
        assert_eq!(h.odds, expected);
    }
}

#[test]
fn what_else_is_wrong_with_the_set_up_is_named() {
    let setup = RollSetup { skill: Some(SkillChoice::Existing { line: 3 }), ..setup(AtRisk::Character) };
    let err = approaches(&sheet(), &setup, None).unwrap_err().to_string();
    assert!(err.starts_with("setup.skill.line: skill line 3 is empty"), "{err}");
    let mut unready = sheet();
    unready.aspects = None;
    assert!(approaches(&unready, &setup, None).unwrap_err().to_string().starts_with("sheet.aspects"));
}

/// A roll with an edge on the mood die (a risked sentiment), a skill and a helper's die with
/// an edge: every way of counting it is listed once, and each comes to what the settlement
/// makes of the same choices.
#[test]
fn each_way_of_counting_the_dice_comes_to_what_the_settlement_counts() {
    use crate::rules::dice::Entered;
    use crate::rules::nsu::roll::{default_choices, help, resolve, roll, Choices};
    let sheet = sheet();
    let mut helper = sheet.clone();
    helper.moods[0] = mood("Eager", false);
    for at_risk in [AtRisk::Character, AtRisk::World] {
        let setup = RollSetup { risked_sentiment: Some(0), desired_outcome: "over the wall".into(), ..setup(at_risk) };
        for faces in [[5u8, 2, 7, 1, 3], [1, 8, 4, 4, 6], [8, 1, 1, 8, 2]] {
            let rolled = roll(&sheet, &setup, &mut Entered::new(faces[..3].iter().copied())).unwrap();
            assert_eq!(
                (rolled.aspect_rolls.len(), rolled.mood_rolls.len()),
                (1, 2),
                "the risked sentiment: two mood dice"
            );
            let helped = help(
                &rolled,
                &helper,
                &MoodChoice::Existing { line: 0 },
                &mut Entered::new(faces[3..].iter().copied()),
            );
            for (rolled, helper) in [(rolled.clone(), None), (helped.unwrap(), Some(&helper))] {
                let all = kept_results(&rolled);
                let helper_faces = rolled.help.as_ref().map_or(0, |h| h.rolls().len());
                let helps = if helper_faces == 0 { 1 } else { helper_faces * 2 };
                assert_eq!(all.len(), 2 * 2 * helps, "two mood dice × two signs × the helper's ways");
                for way in &all {
                    let choices = Choices {
                        aspect_kept: way.aspect_kept,
                        mood_kept: way.mood_kept,
                        skill_sign: way.skill_sign,
                        helper_kept: way.helper_kept,
                        use_helper_die: way.use_helper_die,
                        ..default_choices(&rolled)
                    };
                    let settled = resolve(&sheet, helper, &rolled, &choices).unwrap();
                    let got = (way.aspect_total, way.mood_used, way.winner, way.difference);
                    let want = (settled.aspect_total, settled.mood_used, settled.winner, settled.difference);
                    assert_eq!(got, want, "{at_risk:?} {faces:?} {way:?}");
                }
            }
        }
    }
}
