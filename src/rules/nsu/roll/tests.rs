//! Tests of the action roll: one per rule, dice fixed with `Entered`, plus a property test.

use proptest::prelude::*;
use rand::SeedableRng;

use super::*;
use crate::rules::dice::{Entered, Rolled};
use crate::rules::nsu::sheet::{Aspects, Sentiment};

fn mood(name: &str, level: u8, overloaded: bool) -> Option<Mood> {
    Some(Mood { name: name.into(), level, overloaded })
}

fn skill(name: &str, modifier: u8) -> Option<Skill> {
    Some(Skill { name: name.into(), modifier, boxes: AspectBoxes::default() })
}

fn sentiment(name: &str, state: SentimentState) -> Option<Sentiment> {
    Some(Sentiment { name: name.into(), state })
}

/// Body d8, Mind d6, Heart d4; moods on lines 0 (d8), 2 (d6), 4 (d4); three skills; sentiments
/// connected, at risk, lost.
fn sheet() -> Sheet {
    Sheet {
        aspects: Some(Aspects { body: Die::D8, mind: Die::D6, heart: Die::D4 }),
        moods: [mood("Curious", 0, false), None, mood("Anxious", 0, false), None, mood("Calm", 0, false), None],
        skills: [skill("Climbing", 2), skill("Lying", 1), skill("Origami", 0), None, None, None],
        sentiments: [
            sentiment("Home", SentimentState::Connected),
            sentiment("Sister", SentimentState::AtRisk),
            sentiment("Faith", SentimentState::Lost),
        ],
        ..Sheet::default()
    }
}

/// Body, Character at risk, the d8 mood on line 0, no skill, nothing risked.
fn setup() -> RollSetup {
    RollSetup::new("Open the flooded gate", Aspect::Body, AtRisk::Character, MoodChoice::Existing { line: 0 })
}

fn with_mood(line: usize, level: u8, overloaded: bool) -> Sheet {
    let mut s = sheet();
    s.moods[line].as_mut().unwrap().level = level;
    s.moods[line].as_mut().unwrap().overloaded = overloaded;
    s
}

fn rolled(sheet: &Sheet, setup: &RollSetup, dice: &[u8]) -> ActionRoll {
    let mut entered = Entered::new(dice.iter().copied());
    let r = roll(sheet, setup, &mut entered).unwrap();
    assert_eq!(entered.remaining(), 0, "every entered die is used");
    r
}

/// Rolls `dice`, takes the default choices, lets `edit` change them, and resolves.
fn run(sheet: &Sheet, setup: &RollSetup, dice: &[u8], edit: impl FnOnce(&mut Choices)) -> Result<RollOutcome> {
    let r = rolled(sheet, setup, dice);
    let mut choices = default_choices(&r);
    edit(&mut choices);
    resolve(sheet, None, &r, &choices)
}

fn ok(sheet: &Sheet, setup: &RollSetup, dice: &[u8]) -> RollOutcome {
    run(sheet, setup, dice, |_| {}).unwrap()
}

fn message(result: Result<impl std::fmt::Debug>) -> String {
    result.unwrap_err().to_string()
}

fn marked(outcome: &RollOutcome) -> Vec<(usize, MarkReason)> {
    outcome
        .events
        .iter()
        .filter_map(|e| match e {
            RollEvent::SentimentMarked { line, reason, .. } => Some((*line, *reason)),
            _ => None,
        })
        .collect()
}

#[test]
fn advantages_and_disadvantages_cancel_one_for_one_and_do_not_stack() {
    let cases =
        [((0, 0), Edge::None), ((1, 0), Edge::Advantage), ((3, 0), Edge::Advantage), ((0, 2), Edge::Disadvantage)];
    let more = [((2, 1), Edge::Advantage), ((1, 1), Edge::None), ((2, 3), Edge::Disadvantage), ((4, 4), Edge::None)];
    for ((adv, dis), edge) in cases.into_iter().chain(more) {
        assert_eq!(Edge::net(adv, dis), edge, "{adv} advantages, {dis} disadvantages");
        let s = RollSetup { aspect_advantages: adv, aspect_disadvantages: dis, ..setup() };
        let p = plan(&sheet(), &s).unwrap();
        assert_eq!(p.aspect_edge, edge);
        // Three advantages still roll only two dice.
        let dice: Vec<u8> = vec![1; edge.dice() + 1];
        let r = rolled(&sheet(), &s, &dice);
        assert_eq!(r.aspect_rolls.len(), edge.dice());
    }
}

#[test]
fn the_player_chooses_a_doubled_die_with_advantage_to_maximise_the_margin() {
    // Character at risk: the player holds the aspect die and keeps the higher one.
    let s = RollSetup { aspect_advantages: 1, ..setup() };
    let r = rolled(&sheet(), &s, &[2, 7, 3]);
    assert_eq!(r.aspect_rolls, [2, 7]);
    assert_eq!(default_choices(&r).aspect_kept, Some(1));
    let o = ok(&sheet(), &s, &[2, 7, 3]);
    assert_eq!((o.aspect_value, o.winner, o.difference), (7, Winner::Player, 4));
    // World at risk: the Arbiters hold the aspect die; with advantage the player keeps the lower.
    let s = RollSetup { at_risk: AtRisk::World, ..s };
    assert_eq!(default_choices(&rolled(&sheet(), &s, &[6, 2, 3])).aspect_kept, Some(1));
    // The player may still pick the worse die.
    let o = run(&sheet(), &s, &[6, 2, 3], |c| c.aspect_kept = Some(0)).unwrap();
    assert_eq!((o.aspect_value, o.winner), (6, Winner::Arbiters));
}

#[test]
fn the_arbiters_choose_a_doubled_die_with_disadvantage_to_minimise_the_margin() {
    // Character at risk: the player's aspect die with disadvantage; the Arbiters keep the lower.
    let s = RollSetup { aspect_disadvantages: 1, ..setup() };
    assert_eq!(default_choices(&rolled(&sheet(), &s, &[7, 2, 3])).aspect_kept, Some(1));
    // Ties between the two dice keep the first.
    assert_eq!(default_choices(&rolled(&sheet(), &s, &[4, 4, 3])).aspect_kept, Some(0));
    // World at risk, mood disadvantage (another mood overloaded): the player holds the mood die,
    // the Arbiters keep the lower.
    let s = RollSetup { at_risk: AtRisk::World, ..setup() };
    let r = rolled(&with_mood(2, 1, true), &s, &[3, 8, 2]);
    assert_eq!(r.plan.mood_edge, Edge::Disadvantage);
    assert_eq!(default_choices(&r).mood_kept, Some(1));
    // Character at risk, mood disadvantage: the Arbiters hold the mood die and keep the higher.
    let r = rolled(&with_mood(2, 1, true), &setup(), &[3, 2, 8]);
    assert_eq!(default_choices(&r).mood_kept, Some(1));
}

#[test]
fn a_risked_sentiment_gives_mood_advantage_and_must_not_be_lost() {
    let s = RollSetup { risked_sentiment: Some(1), ..setup() };
    let p = plan(&sheet(), &s).unwrap();
    assert_eq!(
        (p.mood_edge, p.mood_edge_reasons),
        (Edge::Advantage, vec![MoodEdgeReason::RiskedSentiment { line: 1 }])
    );
    let lost = RollSetup { risked_sentiment: Some(2), ..setup() };
    assert_eq!(
        message(plan(&sheet(), &lost)),
        "setup.risked_sentiment: \"Faith\" is lost: a lost sentiment cannot be used"
    );
}

#[test]
fn acting_with_the_overloaded_mood_gives_mood_advantage_and_another_mood_disadvantage() {
    let overloaded = with_mood(0, 6, true);
    let p = plan(&overloaded, &setup()).unwrap();
    assert_eq!((p.mood_edge, p.mood_edge_reasons), (Edge::Advantage, vec![MoodEdgeReason::ActingWithOverloadedMood]));
    let other = RollSetup { mood: MoodChoice::Existing { line: 2 }, ..setup() };
    let p = plan(&overloaded, &other).unwrap();
    assert_eq!(p.mood_edge, Edge::Disadvantage);
    assert_eq!(p.mood_edge_reasons, [MoodEdgeReason::OtherMoodOverloaded { line: 0 }]);
    // A new mood is another mood too.
    let new = RollSetup { mood: MoodChoice::New { line: 5, name: "Giddy".into() }, ..setup() };
    assert_eq!(plan(&overloaded, &new).unwrap().mood_edge, Edge::Disadvantage);
    // Risking a sentiment cancels the disadvantage; with the overloaded mood it does not stack.
    let risked = RollSetup { risked_sentiment: Some(0), ..other };
    assert_eq!(plan(&overloaded, &risked).unwrap().mood_edge, Edge::None);
    let both = RollSetup { risked_sentiment: Some(0), ..setup() };
    assert_eq!(plan(&overloaded, &both).unwrap().mood_edge, Edge::Advantage);
    assert_eq!(rolled(&overloaded, &both, &[5, 1, 2]).mood_rolls.len(), 2);
}

#[test]
fn the_winner_follows_what_is_at_risk() {
    // (at risk, aspect d8, mood d8) → winner, signed margin.
    let cases = [
        (AtRisk::Character, 6, 2, Winner::Player, 4i32),
        (AtRisk::Character, 2, 6, Winner::Arbiters, -4),
        (AtRisk::Character, 5, 5, Winner::Tie, 0),
        (AtRisk::World, 2, 6, Winner::Player, 4),
        (AtRisk::World, 6, 2, Winner::Arbiters, -4),
        (AtRisk::World, 3, 3, Winner::Tie, 0),
    ];
    for (at_risk, aspect, mood, winner, margin) in cases {
        let o = ok(&sheet(), &RollSetup { at_risk, ..setup() }, &[aspect, mood]);
        assert_eq!((o.winner, o.margin, o.difference), (winner, margin, margin.unsigned_abs()), "{at_risk:?}");
    }
}

#[test]
fn the_skill_helps_the_player_by_default_and_may_be_subtracted() {
    let s = RollSetup { skill: Some(SkillChoice::Existing { line: 0 }), ..setup() };
    // Character at risk: aspect 4 + Climbing 2 = 6 beats mood 5.
    let o = ok(&sheet(), &s, &[4, 5]);
    assert_eq!((o.aspect_total, o.winner, o.difference), (6, Winner::Player, 1));
    let o = run(&sheet(), &s, &[4, 5], |c| c.skill_sign = SkillSign::Minus).unwrap();
    assert_eq!((o.aspect_total, o.winner, o.difference), (2, Winner::Arbiters, 3));
    // World at risk: the skill lowers the Arbiters' aspect die; 1 − 2 = −1 may go below 1.
    let s = RollSetup { at_risk: AtRisk::World, ..s };
    let o = ok(&sheet(), &s, &[1, 1]);
    assert_eq!((o.aspect_total, o.winner, o.margin), (-1, Winner::Player, 2));
}

#[test]
fn using_a_skill_marks_its_box_for_the_aspect_used() {
    let s = RollSetup { aspect: Aspect::Mind, skill: Some(SkillChoice::Existing { line: 1 }), ..setup() };
    let o = ok(&sheet(), &s, &[3, 3]);
    assert_eq!(o.roller.skills[1].as_ref().unwrap().boxes, AspectBoxes { body: false, mind: true, heart: false });
    assert!(o.events.contains(&RollEvent::SkillBoxMarked { line: 1, aspect: Aspect::Mind }));
    // A box already marked stays marked and is not reported again.
    let again = ok(&o.roller, &s, &[3, 3]);
    assert!(!again.events.iter().any(|e| matches!(e, RollEvent::SkillBoxMarked { .. })));
    assert_eq!(again.roller.skills[1], o.roller.skills[1]);
}

#[test]
fn a_new_skill_fills_an_empty_line_at_zero() {
    let s = RollSetup { skill: Some(SkillChoice::New { line: 4, name: "  Swimming ".into() }), ..setup() };
    let o = ok(&sheet(), &s, &[5, 2]);
    assert_eq!(
        o.roller.skills[4],
        Some(Skill {
            name: "Swimming".into(),
            modifier: 0,
            boxes: AspectBoxes { body: true, mind: false, heart: false }
        })
    );
    assert_eq!(o.events[1], RollEvent::SkillLineFilled { line: 4, name: "Swimming".into() });
    assert_eq!(o.aspect_total, 5);
}

#[test]
fn a_new_mood_fills_an_empty_line_with_that_lines_die() {
    let s = RollSetup { mood: MoodChoice::New { line: 3, name: "Wistful".into() }, ..setup() };
    let p = plan(&sheet(), &s).unwrap();
    assert_eq!(p.mood_die, Die::D6);
    // Line 3 is a d6 line: a 7 cannot be entered for it.
    assert_eq!(message(roll(&sheet(), &s, &mut Entered::new([3, 7]))), "mood die: 7 cannot be rolled on a d6 (1 to 6)");
    let o = ok(&sheet(), &s, &[3, 6]);
    assert_eq!(o.roller.moods[3], mood("Wistful", 1, false));
    assert_eq!(
        o.events[..2],
        [
            RollEvent::MoodLineFilled { who: Who::Roller, line: 3, name: "Wistful".into(), die: Die::D6 },
            RollEvent::MoodIncremented { who: Who::Roller, line: 3, before: 0, after: 1 },
        ]
    );
}

#[test]
fn the_chosen_mood_is_always_incremented_even_while_another_is_overloaded() {
    let o = ok(&sheet(), &setup(), &[5, 2]);
    assert_eq!(o.roller.moods[0].as_ref().unwrap().level, 1);
    let s = RollSetup { mood: MoodChoice::Existing { line: 4 }, ..setup() };
    let o = run(&with_mood(0, 3, true), &s, &[5, 2, 2], |_| {}).unwrap();
    assert_eq!(o.roller.moods[4].as_ref().unwrap().level, 1);
}

#[test]
fn a_mood_overloads_when_its_die_is_under_the_level_and_the_level_is_past_the_threshold() {
    // d8 mood, threshold 4. (level before, counted mood die) → overloaded?
    let cases = [(4, 4, true), (4, 5, false), (4, 6, false), (3, 1, false), (7, 7, true), (0, 1, false)];
    for (before, die, overloads) in cases {
        let o = ok(&with_mood(0, before, false), &setup(), &[8, die]);
        let m = o.roller.moods[0].as_ref().unwrap();
        assert_eq!(m.overloaded, overloads, "level {before} → {}, die {die}", before + 1);
        let event = RollEvent::MoodOverloaded { who: Who::Roller, line: 0, die_value: die, level: before + 1 };
        assert_eq!(o.events.contains(&event), overloads);
    }
    // The counted die decides: with disadvantage the Arbiters' pick can overload the mood.
    let s = RollSetup { at_risk: AtRisk::World, mood: MoodChoice::Existing { line: 4 }, ..setup() };
    let o = ok(&with_mood(4, 2, false), &RollSetup { risked_sentiment: None, ..s }, &[1, 2]);
    assert!(o.roller.moods[4].as_ref().unwrap().overloaded, "d4 level 3 > 2 and die 2 < 3");
}

#[test]
fn acting_with_another_mood_ends_the_overload_and_a_win_clears_its_level() {
    let s = RollSetup { mood: MoodChoice::Existing { line: 2 }, ..setup() };
    let o = ok(&with_mood(0, 6, true), &s, &[8, 1, 1]);
    assert_eq!(o.winner, Winner::Player);
    assert_eq!(o.roller.moods[0], mood("Curious", 0, false));
    assert_eq!(o.roller.sentiments, sheet().sentiments, "a win marks no sentiment");
    assert!(o.events.contains(&RollEvent::OverloadEnded {
        who: Who::Roller,
        line: 0,
        reason: OverloadEndReason::ActedWithOtherMood,
        level_before: 6,
        level_after: 0,
    }));
    assert_eq!(o.roller.overloaded_line(), None);
}

#[test]
fn acting_with_another_mood_and_losing_ends_the_overload_and_marks_a_sentiment() {
    let s = RollSetup { mood: MoodChoice::Existing { line: 2 }, ..setup() };
    let overloaded = with_mood(0, 6, true);
    let r = rolled(&overloaded, &s, &[1, 5, 5]);
    let choices = default_choices(&r);
    assert_eq!(
        needs(&overloaded, None, &r, &choices).unwrap(),
        [Need::OverloadEndSentiment { who: Who::Roller, line: 0, mood: "Curious".into(), sentiments: vec![0, 1] }]
    );
    assert_eq!(
        message(resolve(&overloaded, None, &r, &choices)),
        "choices.overload_end_sentiment: the overload of \"Curious\" ended without a win: the player marks one \
         sentiment one step"
    );
    let lost = Choices { overload_end_sentiment: Some(2), ..choices.clone() };
    assert!(message(resolve(&overloaded, None, &r, &lost)).contains("sentiment line 2 is empty or lost"));
    let o = resolve(&overloaded, None, &r, &Choices { overload_end_sentiment: Some(1), ..choices }).unwrap();
    assert_eq!(o.winner, Winner::Arbiters);
    assert_eq!(o.roller.moods[0], mood("Curious", 6, false), "a loss keeps the level");
    assert_eq!(o.roller.sentiments[1].as_ref().unwrap().state, SentimentState::Lost);
    assert_eq!(marked(&o), [(1, MarkReason::OverloadEndedWithoutWinning)]);
}

#[test]
fn acting_with_another_mood_and_tying_does_both() {
    let s = RollSetup { mood: MoodChoice::Existing { line: 2 }, ..setup() };
    let o = run(&with_mood(0, 6, true), &s, &[4, 4, 4], |c| c.overload_end_sentiment = Some(0)).unwrap();
    assert_eq!(o.winner, Winner::Tie);
    assert_eq!(o.roller.moods[0], mood("Curious", 0, false));
    assert_eq!(o.roller.sentiments[0].as_ref().unwrap().state, SentimentState::AtRisk);
    // Nothing to mark when every sentiment is lost: no input is needed.
    let mut all_lost = with_mood(0, 6, true);
    for s in all_lost.sentiments.iter_mut().flatten() {
        s.state = SentimentState::Lost;
    }
    let o = ok(&all_lost, &s, &[4, 4, 4]);
    assert_eq!(o.roller.moods[0], mood("Curious", 0, false));
    assert_eq!(marked(&o), []);
    assert!(message(run(&all_lost, &s, &[4, 4, 4], |c| c.overload_end_sentiment = Some(0))).contains("leave it out"));
}

#[test]
fn an_overload_sentiment_is_refused_when_no_overload_ended_without_a_win() {
    let s = RollSetup { mood: MoodChoice::Existing { line: 2 }, ..setup() };
    let win = run(&with_mood(0, 6, true), &s, &[8, 1, 1], |c| c.overload_end_sentiment = Some(0));
    assert_eq!(message(win), "choices.overload_end_sentiment: no overload ended without a win in this roll");
    let no_overload = run(&sheet(), &setup(), &[1, 8], |c| c.overload_end_sentiment = Some(0));
    assert!(message(no_overload).contains("did not act with another mood while overloaded"));
}

#[test]
fn the_overloaded_mood_stays_overloaded_when_acted_with() {
    let o = ok(&with_mood(0, 6, true), &setup(), &[1, 2, 8]);
    assert_eq!(o.roller.moods[0], mood("Curious", 7, true));
    assert!(!o.events.iter().any(|e| matches!(e, RollEvent::OverloadEnded { .. } | RollEvent::MoodOverloaded { .. })));
}

/// The choice a roll needs when `who`'s mood on `line` fills its final box: a new name from
/// `renamed_by`, and one of the sentiments on lines 0 and 1 (the same on both test sheets).
fn final_box_need(who: Who, line: usize, mood: &str, renamed_by: Winner) -> Need {
    Need::FinalBox { who, line, mood: mood.into(), renamed_by, sentiments: vec![0, 1] }
}

#[test]
fn filling_the_final_box_marks_a_sentiment_renames_the_mood_and_resets_the_level() {
    // d4 mood on line 4 at level 4 of 5: this increment fills the last box.
    let s = RollSetup { mood: MoodChoice::Existing { line: 4 }, ..setup() };
    let before = with_mood(4, 4, false);
    let r = rolled(&before, &s, &[7, 3]);
    let choices = default_choices(&r);
    let need = final_box_need(Who::Roller, 4, "Calm", Winner::Player);
    assert_eq!(needs(&before, None, &r, &choices).unwrap(), [need]);
    assert!(message(resolve(&before, None, &r, &choices))
        .starts_with("choices.final_box: the mood \"Calm\" filled its final box"));
    let bad = |f: FinalBox| message(resolve(&before, None, &r, &Choices { final_box: Some(f), ..choices.clone() }));
    assert!(bad(FinalBox { sentiment_line: Some(0), new_name: " ".into() })
        .starts_with("choices.final_box.new_name: must not be empty"));
    assert!(bad(FinalBox { sentiment_line: Some(2), new_name: "Serene".into() })
        .starts_with("choices.final_box.sentiment_line"));
    assert!(bad(FinalBox { sentiment_line: Some(3), new_name: "Serene".into() }).contains("there is no line 3"));
    assert!(bad(FinalBox { sentiment_line: None, new_name: "Serene".into() }).starts_with("choices.final_box:"));

    let f = FinalBox { sentiment_line: Some(0), new_name: "Serene".into() };
    let o = resolve(&before, None, &r, &Choices { final_box: Some(f), ..choices }).unwrap();
    // The full track always puts the die under the level past the threshold, so the mood
    // overloads first (RULES.md checks overload before the final box); the reset to 0 then ends
    // that overload (decision 2026-11-25: a mood is never overloaded at level 0).
    assert!(o.events.contains(&RollEvent::MoodOverloaded { who: Who::Roller, line: 4, die_value: 3, level: 5 }));
    assert_eq!(o.roller.moods[4], mood("Serene", 0, false));
    assert_eq!(o.roller.sentiments[0].as_ref().unwrap().state, SentimentState::AtRisk);
    assert_eq!(
        o.events[o.events.len() - 2..],
        [
            RollEvent::SentimentMarked {
                who: Who::Roller,
                line: 0,
                before: SentimentState::Connected,
                after: SentimentState::AtRisk,
                reason: MarkReason::FinalBox,
            },
            RollEvent::MoodFinalBox {
                who: Who::Roller,
                line: 4,
                name_before: "Calm".into(),
                name_after: "Serene".into(),
                level_before: 5,
                level_after: 0,
                renamed_by: Winner::Player,
                overload_ended: true,
            },
        ]
    );
}

#[test]
fn a_final_box_on_the_overloaded_mood_ends_its_overload() {
    // "Calm" (d4) is overloaded at level 4: acting with it has mood advantage, and the
    // increment fills the last box.
    let s = RollSetup { mood: MoodChoice::Existing { line: 4 }, ..setup() };
    let before = with_mood(4, 4, true);
    let f = FinalBox { sentiment_line: Some(1), new_name: "Serene".into() };
    let o = run(&before, &s, &[7, 3, 1], |c| c.final_box = Some(f)).unwrap();
    assert_eq!(o.roller.moods[4], mood("Serene", 0, false));
    assert!(o.roller.overloaded_line().is_none());
    assert!(o.events.iter().any(|e| matches!(e, RollEvent::MoodFinalBox { overload_ended: true, line: 4, .. })));
    // It was overloaded before: no new overload is logged, only its end at the reset.
    assert!(!o.events.iter().any(|e| matches!(e, RollEvent::MoodOverloaded { .. })));
}

#[test]
fn a_final_box_input_is_refused_when_no_box_was_filled() {
    let f = FinalBox { sentiment_line: Some(0), new_name: "Obsessed".into() };
    let r = run(&sheet(), &setup(), &[5, 2], |c| c.final_box = Some(f));
    assert_eq!(message(r), "choices.final_box: no mood filled its final box in this roll");
}

#[test]
fn a_track_that_is_already_full_counts_as_filling_the_final_box_again() {
    let s = RollSetup { mood: MoodChoice::Existing { line: 4 }, ..setup() };
    let f = FinalBox { sentiment_line: Some(1), new_name: "Placid".into() };
    let o = run(&with_mood(4, 5, false), &s, &[1, 4], |c| c.final_box = Some(f)).unwrap();
    assert!(o.events.contains(&RollEvent::MoodIncremented { who: Who::Roller, line: 4, before: 5, after: 5 }));
    assert_eq!(o.roller.moods[4].as_ref().unwrap().level, 0);
    assert_eq!(o.winner, Winner::Arbiters);
    assert!(o.events.iter().any(|e| matches!(e, RollEvent::MoodFinalBox { renamed_by: Winner::Arbiters, .. })));
}

#[test]
fn a_risked_sentiment_is_marked_when_the_player_loses_ties_or_wins_by_one() {
    let s = RollSetup { risked_sentiment: Some(0), ..setup() };
    // Character at risk, aspect d8 [value], mood d8 advantage [a, b]; the player keeps the lower.
    let cases = [([2, 6, 6], Some(SentimentState::AtRisk)), ([5, 5, 6], Some(SentimentState::AtRisk))];
    let more = [([6, 5, 8], Some(SentimentState::AtRisk)), ([7, 5, 8], None), ([8, 1, 8], None)];
    for (dice, after) in cases.into_iter().chain(more) {
        let o = ok(&sheet(), &s, &dice);
        let state = o.roller.sentiments[0].as_ref().unwrap().state;
        assert_eq!(state, after.unwrap_or(SentimentState::Connected), "margin {}", o.margin);
        assert_eq!(marked(&o).contains(&(0, MarkReason::Risked)), after.is_some());
    }
    // An at-risk sentiment becomes lost.
    let o = ok(&sheet(), &RollSetup { risked_sentiment: Some(1), ..setup() }, &[1, 8, 8]);
    assert_eq!(o.roller.sentiments[1].as_ref().unwrap().state, SentimentState::Lost);
}

#[test]
fn the_results_table_grants_by_difference() {
    use DetailKind::{Hard, Scene};
    use Granter::{Ally, Arbiters, Player};
    let g = |by, kind, against| Grant { by, kind, against };
    assert_eq!(grants(Winner::Tie, 0), [g(Player, Hard, None), g(Arbiters, Hard, None)]);
    assert_eq!(grants(Winner::Player, 1), [g(Player, Hard, None), g(Ally, Hard, Some(Side::Player))]);
    assert_eq!(grants(Winner::Arbiters, 1), [g(Arbiters, Hard, None), g(Ally, Hard, Some(Side::Arbiters))]);
    assert_eq!(grants(Winner::Player, 2), [g(Player, Hard, None)]);
    assert_eq!(grants(Winner::Arbiters, 3), [g(Arbiters, Hard, None), g(Arbiters, Scene, None)]);
    assert_eq!(grants(Winner::Player, 4), [g(Player, Hard, None), g(Ally, Hard, None)]);
    for d in [5, 7, 12] {
        assert_eq!(grants(Winner::Arbiters, d), [g(Arbiters, Hard, None), g(Arbiters, Hard, None)]);
    }
    // The outcome carries its row.
    assert_eq!(ok(&sheet(), &setup(), &[8, 5]).grants, grants(Winner::Player, 3));
}

#[test]
fn no_more_details_are_written_than_the_result_grants() {
    // Difference 2: one detail; 5+: two; a tie: one for each side.
    let one = grants(Winner::Player, 2);
    assert!(check_detail_granted(&one, 0).is_ok());
    let e = check_detail_granted(&one, 1).unwrap_err();
    assert_eq!(e.to_string(), "roll: granted one detail, and it is written already");
    let two = grants(Winner::Arbiters, 6);
    assert!(check_detail_granted(&two, 1).is_ok());
    assert!(check_detail_granted(&two, 2).unwrap_err().to_string().contains("all 2 are written"));
    assert!(check_detail_granted(&grants(Winner::Tie, 0), 1).is_ok());
}

fn helper_sheet() -> Sheet {
    let mut h = sheet();
    h.moods[2] = mood("Loyal", 4, false);
    h
}

/// Rolls for the roller, then the helper on `helper_mood` with `helper_die`.
fn helped(roller: &Sheet, setup: &RollSetup, dice: &[u8], helper_mood: MoodChoice, helper_die: u8) -> ActionRoll {
    let r = rolled(roller, setup, dice);
    help(&r, &helper_sheet(), &helper_mood, &mut Entered::new([helper_die])).unwrap()
}

#[test]
fn the_helpers_die_is_used_by_default_when_it_helps() {
    let loyal = MoodChoice::Existing { line: 2 };
    // Character at risk: a lower mood die helps the player.
    let r = helped(&sheet(), &setup(), &[4, 6], loyal.clone(), 2);
    assert_eq!(
        r.help,
        Some(HelpRoll {
            mood: Some(loyal.clone()),
            name: None,
            die: Die::D6,
            edge: Edge::None,
            value: 2,
            second: None
        })
    );
    let c = default_choices(&r);
    assert!(c.use_helper_die);
    let o = resolve(&sheet(), Some(&helper_sheet()), &r, &c).unwrap();
    assert_eq!((o.mood_value, o.mood_used, o.winner), (6, 2, Winner::Player));
    // …and not when it would hurt.
    assert!(!default_choices(&helped(&sheet(), &setup(), &[4, 6], loyal.clone(), 6)).use_helper_die);
    // World at risk: a higher mood die helps.
    let w = RollSetup { at_risk: AtRisk::World, ..setup() };
    assert!(default_choices(&helped(&sheet(), &w, &[4, 3], loyal.clone(), 5)).use_helper_die);
    assert!(!default_choices(&helped(&sheet(), &w, &[4, 3], loyal, 3)).use_helper_die);
}

#[test]
fn the_helper_increments_and_checks_their_own_mood() {
    // The helper's d6 "Loyal" goes 4 → 5 (past 3) and rolls 2 < 5: the helper overloads. The
    // roller's own mood die (8) does not overload the roller.
    let r = rolled(&with_mood(0, 6, false), &setup(), &[4, 8]);
    let r = help(&r, &helper_sheet(), &MoodChoice::Existing { line: 2 }, &mut Entered::new([2])).unwrap();
    let o = resolve(&with_mood(0, 6, false), Some(&helper_sheet()), &r, &default_choices(&r)).unwrap();
    assert_eq!(o.helper.unwrap().moods[2], mood("Loyal", 5, true));
    assert_eq!(o.roller.moods[0], mood("Curious", 7, false));
    assert!(o.events.contains(&RollEvent::MoodOverloaded { who: Who::Helper, line: 2, die_value: 2, level: 5 }));
}

#[test]
fn a_helper_helping_with_another_mood_while_overloaded_has_disadvantage_and_ends_the_overload() {
    // The helper's "Calm" (line 4) is overloaded; they help with "Loyal": their die has
    // disadvantage (rolled twice, the Arbiters keep one) and "Calm"'s overload ends as for a
    // roller acting with a different mood, judged on the roll's result.
    let mut hs = helper_sheet();
    hs.moods[4] = mood("Calm", 1, true);
    let loyal = MoodChoice::Existing { line: 2 };
    assert_eq!(helper_edge(&hs, &loyal), Edge::Disadvantage);
    assert_eq!(helper_edge(&hs, &MoodChoice::Existing { line: 4 }), Edge::Advantage);
    assert_eq!(helper_edge(&helper_sheet(), &loyal), Edge::None);
    let r = rolled(&with_mood(0, 6, false), &setup(), &[4, 8]);
    // One face is not enough: the die is rolled twice.
    assert!(help(&r, &hs, &loyal, &mut Entered::new([2])).is_err());
    let r = help(&r, &hs, &loyal, &mut Entered::new([2, 3])).unwrap();
    let h = r.help.clone().unwrap();
    assert_eq!((h.edge, h.rolls()), (Edge::Disadvantage, vec![2, 3]));
    // Character at risk: a higher mood die is worse for the player, so the Arbiters keep the 3;
    // it still beats the roller's own 8, so the player uses it and wins 4 against 3.
    let c = default_choices(&r);
    assert_eq!((c.helper_kept, c.use_helper_die), (Some(1), true));
    let o = resolve(&with_mood(0, 6, false), Some(&hs), &r, &c).unwrap();
    assert_eq!((o.mood_used, o.winner), (3, Winner::Player));
    let h = o.helper.unwrap();
    // The player won: the old overload's level → 0. Loyal 4 → 5, the kept 3 < 5: overloaded.
    assert_eq!(h.moods[4], mood("Calm", 0, false));
    assert_eq!(h.moods[2], mood("Loyal", 5, true));
    assert!(o.events.contains(&RollEvent::OverloadEnded {
        who: Who::Helper,
        line: 4,
        reason: OverloadEndReason::ActedWithOtherMood,
        level_before: 1,
        level_after: 0,
    }));
    // When the player loses, the helper marks a sentiment instead (and keeps the level).
    let r = rolled(&with_mood(0, 6, false), &setup(), &[1, 8]);
    let r = help(&r, &hs, &loyal, &mut Entered::new([6, 5])).unwrap();
    let c = default_choices(&r);
    let want = Need::OverloadEndSentiment { who: Who::Helper, line: 4, mood: "Calm".into(), sentiments: vec![0, 1] };
    assert!(needs(&with_mood(0, 6, false), Some(&hs), &r, &c).unwrap().contains(&want));
    assert!(message(resolve(&with_mood(0, 6, false), Some(&hs), &r, &c))
        .starts_with("choices.helper_overload_end_sentiment:"));
    let c = Choices { helper_overload_end_sentiment: Some(0), ..c };
    let h = resolve(&with_mood(0, 6, false), Some(&hs), &r, &c).unwrap().helper.unwrap();
    assert_eq!(h.moods[4], mood("Calm", 1, false));
    assert_eq!(h.sentiments[0].as_ref().unwrap().state, SentimentState::AtRisk);
    // A sheet whose overload changed since the help was rolled is refused.
    assert!(message(resolve(&with_mood(0, 6, false), Some(&helper_sheet()), &r, &c)).contains("has changed"));
}

#[test]
fn a_helper_on_another_device_is_typed_in_with_die_edge_and_faces() {
    let remote = |die, edge| RemoteHelper { name: "Ines".into(), die, edge };
    let r = rolled(&sheet(), &setup(), &[4, 7]);
    // Advantage: two faces, the player keeps one (the lower, with the Character at risk).
    let h = help_from_elsewhere(&r, &remote(Die::D8, Edge::Advantage), &mut Entered::new([6, 2])).unwrap();
    let help = h.help.clone().unwrap();
    assert_eq!((&help.mood, help.name.as_deref(), help.die, help.rolls()), (&None, Some("Ines"), Die::D8, vec![6, 2]));
    let c = default_choices(&h);
    assert_eq!((c.helper_kept, c.use_helper_die), (Some(1), true));
    // No sheet for a helper elsewhere: their mood changes on their own device.
    let o = resolve(&sheet(), None, &h, &c).unwrap();
    assert_eq!((o.mood_used, o.winner, o.margin), (2, Winner::Player, 2));
    assert_eq!(o.helper, None);
    assert!(o.events.iter().all(|e| !matches!(e, RollEvent::MoodIncremented { who: Who::Helper, .. })));
    assert!(message(resolve(&sheet(), Some(&helper_sheet()), &h, &c)).contains("another device"));
    // Disadvantage: the Arbiters keep the face worse for the player (the higher here).
    let h = help_from_elsewhere(&r, &remote(Die::D8, Edge::Disadvantage), &mut Entered::new([6, 2])).unwrap();
    let c = default_choices(&h);
    assert_eq!((c.helper_kept, c.use_helper_die), (Some(0), true));
    assert_eq!(resolve(&sheet(), None, &h, &c).unwrap().mood_used, 6);
    // Only a face that was rolled can be kept.
    let bad = Choices { helper_kept: Some(2), ..c.clone() };
    assert!(message(resolve(&sheet(), None, &h, &bad)).starts_with("choices.helper_kept"));
    // No edge: one face, in range, and a name.
    assert!(help_from_elsewhere(&r, &remote(Die::D4, Edge::None), &mut Entered::new([5])).is_err());
    let one = help_from_elsewhere(&r, &remote(Die::D4, Edge::None), &mut Entered::new([1])).unwrap();
    assert_eq!(default_choices(&one).helper_kept, None);
    let nameless = RemoteHelper { name: " ".into(), ..remote(Die::D4, Edge::None) };
    assert!(message(help_from_elsewhere(&r, &nameless, &mut Entered::new([1]))).starts_with("helper.name"));
    assert!(message(help_from_elsewhere(&one, &remote(Die::D4, Edge::None), &mut Entered::new([1])))
        .contains("already has a helper"));
}

#[test]
fn i_helped_with_changes_only_the_helpers_own_mood() {
    let loyal = MoodChoice::Existing { line: 2 };
    let input = |rolls: Vec<u8>, kept, winner| HelpedWith {
        roll: "Wren opening the flooded gate".into(),
        mood: loyal.clone(),
        rolls,
        kept,
        winner,
        final_box: None,
        overload_end_sentiment: None,
    };
    // Loyal 4 → 5 (past the d6's threshold 3), the face 2 < 5: overloaded.
    let o = helped_with(&helper_sheet(), &input(vec![2], None, Winner::Player)).unwrap();
    assert_eq!(o.helper.moods[2], mood("Loyal", 5, true));
    assert_eq!(o.events[0], RollEvent::MoodIncremented { who: Who::Helper, line: 2, before: 4, after: 5 });
    // A face of 5 does not overload.
    let o = helped_with(&helper_sheet(), &input(vec![5], None, Winner::Player)).unwrap();
    assert_eq!(o.helper.moods[2], mood("Loyal", 5, false));
    // While "Calm" is overloaded the die had disadvantage: two faces and which one counted.
    let mut hs = helper_sheet();
    hs.moods[4] = mood("Calm", 1, true);
    assert!(message(helped_with(&hs, &input(vec![2], None, Winner::Player))).starts_with("rolls:"));
    assert!(message(helped_with(&hs, &input(vec![2, 6], None, Winner::Player))).starts_with("kept:"));
    // The player won: Calm's overload ends, level → 0.
    let o = helped_with(&hs, &input(vec![2, 6], Some(1), Winner::Player)).unwrap();
    assert_eq!(o.helper.moods[4], mood("Calm", 0, false));
    assert_eq!(o.helper.moods[2], mood("Loyal", 5, false));
    // A tie: level → 0 and a sentiment marked, which the helper must pick.
    let tie = input(vec![2, 6], Some(0), Winner::Tie);
    let want = Need::OverloadEndSentiment { who: Who::Helper, line: 4, mood: "Calm".into(), sentiments: vec![0, 1] };
    assert_eq!(helped_with_needs(&hs, &tie).unwrap(), [want]);
    assert!(message(helped_with(&hs, &tie)).starts_with("overload_end_sentiment:"));
    let o = helped_with(&hs, &HelpedWith { overload_end_sentiment: Some(1), ..tie }).unwrap();
    assert_eq!(o.helper.moods[4], mood("Calm", 0, false));
    assert_eq!(o.helper.moods[2], mood("Loyal", 5, true));
    assert_eq!(o.helper.sentiments[1].as_ref().unwrap().state, SentimentState::Lost);
    // A final box: the winning side renames it, the helper marks a sentiment.
    let mut full = helper_sheet();
    full.moods[2] = mood("Loyal", 6, false);
    let boxed = input(vec![6], None, Winner::Arbiters);
    assert!(message(helped_with(&full, &boxed)).starts_with("final_box"));
    let f = FinalBox { sentiment_line: Some(0), new_name: "Devoted".into() };
    let o = helped_with(&full, &HelpedWith { final_box: Some(f), ..boxed.clone() }).unwrap();
    assert_eq!(o.helper.moods[2], mood("Devoted", 0, false));
    assert!(o.events.iter().any(|e| matches!(e, RollEvent::MoodFinalBox { overload_ended: true, .. })));
    assert_eq!(o.helper.sentiments[0].as_ref().unwrap().state, SentimentState::AtRisk);
    // What the roll was is kept: it must be said.
    assert!(message(helped_with(&helper_sheet(), &HelpedWith { roll: "".into(), ..boxed })).starts_with("roll:"));
}

#[test]
fn the_helpers_final_box_and_new_mood_are_on_the_helpers_sheet() {
    let mut hs = helper_sheet();
    hs.moods[2] = mood("Loyal", 6, false);
    let r = rolled(&sheet(), &setup(), &[2, 7]);
    let r = help(&r, &hs, &MoodChoice::Existing { line: 2 }, &mut Entered::new([6])).unwrap();
    let c = default_choices(&r);
    let need = final_box_need(Who::Helper, 2, "Loyal", Winner::Arbiters);
    assert_eq!(needs(&sheet(), Some(&hs), &r, &c).unwrap(), [need]);
    assert!(message(resolve(&sheet(), Some(&hs), &r, &c)).starts_with("choices.helper_final_box:"));
    let f = FinalBox { sentiment_line: Some(1), new_name: "Devoted".into() };
    let o = resolve(&sheet(), Some(&hs), &r, &Choices { helper_final_box: Some(f), ..c }).unwrap();
    let h = o.helper.unwrap();
    // The helper's reset ends the overload the full track caused, as for the roller.
    assert_eq!(h.moods[2], mood("Devoted", 0, false));
    assert!(o
        .events
        .iter()
        .any(|e| matches!(e, RollEvent::MoodFinalBox { who: Who::Helper, line: 2, overload_ended: true, .. })));
    assert_eq!(h.sentiments[1].as_ref().unwrap().state, SentimentState::Lost);
    assert_eq!(o.roller.sentiments, sheet().sentiments);

    // A helper's new mood fills a line of the helper's sheet.
    let r = rolled(&sheet(), &setup(), &[2, 7]);
    let r = help(&r, &hs, &MoodChoice::New { line: 5, name: "Brave".into() }, &mut Entered::new([3])).unwrap();
    let o = resolve(&sheet(), Some(&hs), &r, &default_choices(&r)).unwrap();
    assert_eq!(o.helper.unwrap().moods[5], mood("Brave", 1, false));
    assert_eq!(o.roller.moods[5], None);
}

#[test]
fn help_and_its_sheet_must_go_together() {
    let r = rolled(&sheet(), &setup(), &[2, 7]);
    assert_eq!(
        message(resolve(&sheet(), Some(&helper_sheet()), &r, &default_choices(&r))),
        "helper: nobody helped with this roll"
    );
    let c = Choices { use_helper_die: true, ..default_choices(&r) };
    assert!(message(resolve(&sheet(), None, &r, &c)).starts_with("choices.use_helper_die"));
    let h = help(&r, &helper_sheet(), &MoodChoice::Existing { line: 2 }, &mut Entered::new([3])).unwrap();
    assert!(message(resolve(&sheet(), None, &h, &default_choices(&h))).contains("the helper's sheet is needed"));
    let again = help(&h, &helper_sheet(), &MoodChoice::Existing { line: 2 }, &mut Entered::new([3]));
    assert_eq!(message(again), "helper: this roll already has a helper");
    let d6 = help(&r, &helper_sheet(), &MoodChoice::Existing { line: 2 }, &mut Entered::new([7]));
    assert_eq!(message(d6), "helper's mood die: 7 cannot be rolled on a d6 (1 to 6)");
}

#[test]
fn an_overcome_character_cannot_roll_or_help() {
    let overcome = Sheet { harm: vec!["broken arm".into(); 4], ..sheet() };
    assert_eq!(
        message(roll(&overcome, &setup(), &mut Entered::new([1, 1]))),
        "character: is Overcome (four harm details): an Overcome character cannot make action rolls until a harm \
         detail is recovered"
    );
    let r = rolled(&sheet(), &setup(), &[2, 7]);
    let h = help(&r, &overcome, &MoodChoice::Existing { line: 2 }, &mut Entered::new([3]));
    assert!(message(h).starts_with("helper: is Overcome"));
}

#[test]
fn illegal_setups_are_refused_naming_the_field() {
    let cases: Vec<(RollSetup, &str)> = vec![
        (RollSetup { desired_outcome: "  ".into(), ..setup() }, "setup.desired_outcome: must say"),
        (RollSetup { mood: MoodChoice::Existing { line: 6 }, ..setup() }, "setup.mood.line: there is no line 6"),
        (RollSetup { mood: MoodChoice::Existing { line: 1 }, ..setup() }, "setup.mood.line: mood line 1 is empty"),
        (
            RollSetup { mood: MoodChoice::New { line: 0, name: "Angry".into() }, ..setup() },
            "setup.mood.line: mood line 0 already holds \"Curious\"",
        ),
        (
            RollSetup { mood: MoodChoice::New { line: 1, name: " ".into() }, ..setup() },
            "setup.mood.name: must not be empty",
        ),
        (
            RollSetup { skill: Some(SkillChoice::Existing { line: 9 }), ..setup() },
            "setup.skill.line: there is no line 9",
        ),
        (
            RollSetup { skill: Some(SkillChoice::Existing { line: 3 }), ..setup() },
            "setup.skill.line: skill line 3 is empty",
        ),
        (
            RollSetup { skill: Some(SkillChoice::New { line: 0, name: "Running".into() }), ..setup() },
            "setup.skill.line: skill line 0 already holds \"Climbing\"",
        ),
        (
            RollSetup { skill: Some(SkillChoice::New { line: 5, name: "\t".into() }), ..setup() },
            "setup.skill.name: must not be empty",
        ),
        (RollSetup { risked_sentiment: Some(3), ..setup() }, "setup.risked_sentiment: there is no line 3"),
    ];
    for (s, expected) in cases {
        let got = message(roll(&sheet(), &s, &mut Entered::new([1, 1, 1])));
        assert!(got.starts_with(expected), "{got:?} should start with {expected:?}");
    }
    let mut empty_sentiment = sheet();
    empty_sentiment.sentiments[0] = None;
    let s = RollSetup { risked_sentiment: Some(0), ..setup() };
    assert_eq!(message(plan(&empty_sentiment, &s)), "setup.risked_sentiment: sentiment line 0 is empty");
    assert!(message(plan(&Sheet { aspects: None, ..sheet() }, &setup())).starts_with("sheet.aspects: are not chosen"));
    assert!(message(plan(&with_mood(0, 10, false), &setup())).starts_with("sheet: is not valid ($.moods[0].level"));
}

#[test]
fn entered_dice_out_of_range_are_refused_naming_the_die() {
    let cases: Vec<(RollSetup, Vec<u8>, &str)> = vec![
        (setup(), vec![9, 1], "aspect die: 9 cannot be rolled on a d8 (1 to 8)"),
        (RollSetup { aspect: Aspect::Heart, ..setup() }, vec![5, 1], "aspect die: 5 cannot be rolled on a d4 (1 to 4)"),
        (
            RollSetup { aspect_advantages: 1, ..setup() },
            vec![1, 0],
            "aspect die (second roll): 0 cannot be rolled on a d8 (1 to 8)",
        ),
        (setup(), vec![1, 9], "mood die: 9 cannot be rolled on a d8 (1 to 8)"),
        (
            RollSetup { risked_sentiment: Some(0), ..setup() },
            vec![1, 2, 9],
            "mood die (second roll): 9 cannot be rolled on a d8 (1 to 8)",
        ),
        (setup(), vec![1], "mood die: no value was entered for this die"),
    ];
    for (s, dice, expected) in cases {
        assert_eq!(message(roll(&sheet(), &s, &mut Entered::new(dice))), expected);
    }
}

#[test]
fn illegal_choices_and_stale_rolls_are_refused() {
    let r = rolled(&sheet(), &setup(), &[2, 7]);
    let c = default_choices(&r);
    let bad = |c: Choices| message(resolve(&sheet(), None, &r, &c));
    assert!(
        bad(Choices { aspect_kept: Some(0), ..c.clone() }).starts_with("choices.aspect_kept: this die was rolled once")
    );
    let doubled = rolled(&sheet(), &RollSetup { aspect_advantages: 2, ..setup() }, &[2, 7, 3]);
    let dc = default_choices(&doubled);
    let bad2 = |c: Choices| message(resolve(&sheet(), None, &doubled, &c));
    assert!(
        bad2(Choices { aspect_kept: None, ..dc.clone() }).starts_with("choices.aspect_kept: this die was rolled twice")
    );
    assert!(bad2(Choices { aspect_kept: Some(2), ..dc }).starts_with("choices.aspect_kept: 2 is not one of the dice"));
    // The sheet changed between the roll and its resolution (the mood became overloaded).
    assert_eq!(
        message(resolve(&with_mood(0, 6, true), None, &r, &c)),
        "sheet: has changed since the dice were rolled: roll again"
    );
    // A tampered roll log.
    let tampered = ActionRoll { mood_rolls: vec![12], ..r.clone() };
    assert!(message(resolve(&sheet(), None, &tampered, &c)).starts_with("roll.mood_rolls: 12 cannot be rolled on a d8"));
    let tampered = ActionRoll { aspect_rolls: vec![1, 2], ..r };
    assert!(message(resolve(&sheet(), None, &tampered, &c)).starts_with("roll.aspect_rolls: holds 2 values"));
}

#[test]
fn setup_choices_and_outcome_round_trip_through_json() {
    let s = RollSetup {
        mood: MoodChoice::New { line: 5, name: "Giddy".into() },
        skill: Some(SkillChoice::Existing { line: 0 }),
        risked_sentiment: Some(0),
        ..setup()
    };
    let r = rolled(&sheet(), &s, &[3, 1, 4]);
    let c = default_choices(&r);
    let o = resolve(&sheet(), None, &r, &c).unwrap();
    let json = serde_json::to_value((&s, &r, &c, &o)).unwrap();
    assert_eq!(json[0]["mood"], serde_json::json!({"kind": "new", "line": 5, "name": "Giddy"}));
    assert_eq!(json[0]["at_risk"], "character");
    assert_eq!(json[3]["winner"], "player");
    assert_eq!(json[3]["events"][0]["event"], "mood_line_filled");
    assert_eq!(json[3]["events"][1]["event"], "mood_incremented");
    let back: (RollSetup, ActionRoll, Choices, RollOutcome) = serde_json::from_value(json).unwrap();
    assert_eq!(back, (s, r, c, o));
}

#[test]
fn rolled_dice_come_from_the_passed_in_rng() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let s = RollSetup { aspect_advantages: 1, ..setup() };
    let r = roll(&sheet(), &s, &mut Rolled(&mut rng)).unwrap();
    let mut again = rand::rngs::StdRng::seed_from_u64(11);
    assert_eq!(roll(&sheet(), &s, &mut Rolled(&mut again)).unwrap(), r);
    assert!(r.aspect_rolls.iter().chain(&r.mood_rolls).all(|v| (1..=8).contains(v)));
}

/// A legal sheet: aspects a permutation, any moods at any level in range, at most one overloaded
/// (not at level 0),
/// any skills and sentiments, fewer than four harm details.
fn arb_sheet() -> impl Strategy<Value = Sheet> {
    let moods = proptest::collection::vec(proptest::option::of((0u8..=9, any::<bool>())), 6);
    let skills = proptest::collection::vec(proptest::option::of((0u8..4, any::<[bool; 3]>())), 6);
    let sentiments = proptest::collection::vec(proptest::option::of(0u8..3), 3);
    (0usize..6, moods, proptest::option::of(0usize..6), skills, sentiments, 0usize..4).prop_map(
        |(perm, moods, overloaded, skills, sentiments, harm)| {
            let dice = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][perm].map(|i| Die::ALL[i]);
            let mut s = Sheet {
                aspects: Some(Aspects { body: dice[0], mind: dice[1], heart: dice[2] }),
                harm: vec!["bruised".into(); harm],
                ..Sheet::default()
            };
            for (i, m) in moods.into_iter().enumerate() {
                s.moods[i] = m.map(|(level, _)| Mood {
                    name: format!("Mood {i}"),
                    level: level.min(MOOD_LINE_DICE[i].track_len()),
                    overloaded: false,
                });
            }
            // Never at level 0 (decision 2026-11-25).
            if let Some(m) = overloaded.and_then(|o| s.moods[o].as_mut()).filter(|m| m.level > 0) {
                m.overloaded = true;
            }
            for (i, k) in skills.into_iter().enumerate() {
                s.skills[i] = k.map(|(modifier, [body, mind, heart])| Skill {
                    name: format!("Skill {i}"),
                    modifier,
                    boxes: AspectBoxes { body, mind, heart },
                });
            }
            for (i, t) in sentiments.into_iter().enumerate() {
                let state =
                    t.map(|t| [SentimentState::Connected, SentimentState::AtRisk, SentimentState::Lost][t as usize]);
                s.sentiments[i] = state.map(|state| Sentiment { name: format!("Sentiment {i}"), state });
            }
            s
        },
    )
}

/// The mood choice for line `line`: the existing mood, or a new one on an empty line.
fn mood_on(sheet: &Sheet, line: usize) -> MoodChoice {
    match sheet.moods[line] {
        Some(_) => MoodChoice::Existing { line },
        None => MoodChoice::New { line, name: format!("New mood {line}") },
    }
}

/// Supplies the inputs `needs` asks for one at a time, in its order, picking the first or the
/// last sentiment it offers (an earlier answer may change what a later need offers).
fn answer(roller: &Sheet, helper: Option<&Sheet>, rolled: &ActionRoll, choices: &mut Choices, pick_last: bool) {
    let pick = |sentiments: &[usize]| if pick_last { sentiments.last().copied() } else { sentiments.first().copied() };
    for i in 0.. {
        let needs = needs(roller, helper, rolled, choices).unwrap();
        let Some(need) = needs.get(i) else { break };
        match need {
            Need::OverloadEndSentiment { who: Who::Roller, sentiments, .. } => {
                choices.overload_end_sentiment = pick(sentiments)
            }
            Need::OverloadEndSentiment { who: Who::Helper, sentiments, .. } => {
                choices.helper_overload_end_sentiment = pick(sentiments)
            }
            Need::FinalBox { who, sentiments, .. } => {
                let f = FinalBox { sentiment_line: pick(sentiments), new_name: "Intense".into() };
                match who {
                    Who::Roller => choices.final_box = Some(f),
                    Who::Helper => choices.helper_final_box = Some(f),
                }
            }
            Need::Scout { .. } => choices.scout_accepts_details = Some(pick_last),
        }
    }
}

proptest! {
    #[test]
    fn random_legal_rolls_keep_the_sheets_valid(
        roller in arb_sheet(),
        helper in proptest::option::of((arb_sheet(), 0usize..6)),
        mood_line in 0usize..6,
        aspect in 0usize..3,
        world in any::<bool>(),
        adv in 0u32..3,
        dis in 0u32..3,
        skill_line in proptest::option::of(0usize..6),
        risk in proptest::option::of(0usize..3),
        seed in any::<u64>(),
        pick_last in any::<bool>(),
    ) {
        let risk = risk.filter(|&i| roller.sentiments[i].as_ref().is_some_and(|s| s.state != SentimentState::Lost));
        let skill = skill_line.map(|line| match roller.skills[line] {
            Some(_) => SkillChoice::Existing { line },
            None => SkillChoice::New { line, name: "Improvised".into() },
        });
        let at_risk = if world { AtRisk::World } else { AtRisk::Character };
        let setup = RollSetup {
            aspect_advantages: adv,
            aspect_disadvantages: dis,
            skill,
            risked_sentiment: risk,
            ..RollSetup::new("Something", Aspect::ALL[aspect], at_risk, mood_on(&roller, mood_line))
        };
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut r = roll(&roller, &setup, &mut Rolled(&mut rng)).unwrap();
        if let Some((h, line)) = &helper {
            r = help(&r, h, &mood_on(h, *line), &mut Rolled(&mut rng)).unwrap();
        }
        let helper = helper.as_ref().map(|(h, _)| h);
        let mut choices = default_choices(&r);
        answer(&roller, helper, &r, &mut choices, pick_last);
        let o = resolve(&roller, helper, &r, &choices).unwrap();
        prop_assert_eq!(o.margin.unsigned_abs(), o.difference);
        prop_assert_eq!(o.winner == Winner::Tie, o.difference == 0);
        for sheet in std::iter::once(&o.roller).chain(o.helper.as_ref()) {
            prop_assert_eq!(sheet.problems("$"), vec![]);
            prop_assert!(sheet.moods.iter().flatten().filter(|m| m.overloaded).count() <= 1);
            for (i, m) in sheet.moods.iter().enumerate() {
                if let Some(m) = m {
                    prop_assert!(m.level <= MOOD_LINE_DICE[i].track_len());
                }
            }
        }
        // The acting mood's level rose by one, or was reset by the final box.
        let line = setup.mood.line();
        let before = roller.moods[line].as_ref().map_or(0, |m| m.level);
        let after = o.roller.moods[line].as_ref().unwrap().level;
        prop_assert!(after == before + 1 || after == 0);
        // A mood reset by its final box is never left overloaded (decision 2026-11-25).
        for e in &o.events {
            if let RollEvent::MoodFinalBox { who, line, .. } = e {
                let sheet = match who { Who::Roller => &o.roller, Who::Helper => o.helper.as_ref().unwrap() };
                prop_assert!(!sheet.moods[*line].as_ref().unwrap().overloaded);
            }
        }
        // Resolving is deterministic.
        prop_assert_eq!(resolve(&roller, helper, &r, &choices).unwrap(), o);
    }
}

const CARD: Uuid = Uuid::from_u128(77);

#[test]
fn a_won_scouting_roll_sees_the_card_and_asks_nothing() {
    let s = RollSetup { scout: Some(CARD), ..setup() };
    let r = rolled(&sheet(), &s, &[7, 3]);
    let c = default_choices(&r);
    assert_eq!(needs(&sheet(), None, &r, &c).unwrap(), []);
    let o = resolve(&sheet(), None, &r, &c).unwrap();
    assert_eq!((o.winner, o.scout), (Winner::Player, Some(ScoutOutcome::Won)));
    // The player won: there is nothing to accept or turn down.
    let asked = Choices { scout_accepts_details: Some(true), ..c };
    assert!(message(resolve(&sheet(), None, &r, &asked)).starts_with("choices.scout_accepts_details: the player won"));
}

#[test]
fn a_lost_or_tied_scouting_roll_asks_the_player_to_accept_the_details_or_turn_back() {
    let s = RollSetup { scout: Some(CARD), ..setup() };
    for dice in [[2, 7], [4, 4]] {
        let r = rolled(&sheet(), &s, &dice);
        let c = default_choices(&r);
        assert_eq!(needs(&sheet(), None, &r, &c).unwrap(), [Need::Scout { location: CARD }]);
        assert!(message(resolve(&sheet(), None, &r, &c))
            .starts_with("choices.scout_accepts_details: the player did not win"));
        let accept = resolve(&sheet(), None, &r, &Choices { scout_accepts_details: Some(true), ..c.clone() }).unwrap();
        assert_eq!(accept.scout, Some(ScoutOutcome::AcceptedDetails));
        let back = resolve(&sheet(), None, &r, &Choices { scout_accepts_details: Some(false), ..c }).unwrap();
        assert_eq!(back.scout, Some(ScoutOutcome::TurnedBack));
        // Turning back still settles the roll: the mood rose and the grants stand.
        assert_eq!(back.roller.moods[0].as_ref().unwrap().level, 1);
        assert!(!back.grants.is_empty());
    }
}

#[test]
fn a_roll_that_scouts_nothing_refuses_a_scouting_choice() {
    let r = rolled(&sheet(), &setup(), &[2, 7]);
    let c = Choices { scout_accepts_details: Some(true), ..default_choices(&r) };
    assert_eq!(message(resolve(&sheet(), None, &r, &c)), "choices.scout_accepts_details: this roll scouts no card");
    assert_eq!(resolve(&sheet(), None, &r, &default_choices(&r)).unwrap().scout, None);
}

#[test]
fn an_overcome_character_cannot_plan_a_scouting_roll() {
    let mut s = sheet();
    s.harm = (0..4).map(|i| format!("harm {i}")).collect();
    let e = message(plan(&s, &RollSetup { scout: Some(CARD), ..setup() }));
    assert!(e.starts_with("character: is Overcome"), "{e}");
}

#[test]
fn a_roll_stored_before_scouting_was_a_roll_still_reads() {
    let mut json = serde_json::to_value(setup()).unwrap();
    assert!(json.get("scout").is_none(), "a roll without a scout writes no field");
    json.as_object_mut().unwrap().remove("scout");
    assert_eq!(serde_json::from_value::<RollSetup>(json).unwrap(), setup());
    let old_event = serde_json::json!({
        "event": "mood_final_box", "who": "roller", "line": 4, "name_before": "Calm",
        "name_after": "Serene", "level_before": 5, "level_after": 0, "renamed_by": "player"
    });
    let e: RollEvent = serde_json::from_value(old_event).unwrap();
    assert!(matches!(e, RollEvent::MoodFinalBox { overload_ended: false, .. }));
}
