//! NSU action-roll odds: `cargo bench -p sheetkeeper --bench nsu_odds`.
//! Budget (DESIGN.md): any configuration ≤ 50 µs.
//!
//! "every configuration" computes the odds of all 3 888 set-ups (skill 0..=5) per
//! iteration; its throughput in elements per second is configurations per second, and the
//! time per configuration is the iteration time divided by the count. "worst case" is the
//! set-up with the most outcomes and the widest spreads: d8 against d8, both dice rolled
//! twice, a d8 helper and a skill.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sheetkeeper::rules::nsu::choices::approaches;
use sheetkeeper::rules::nsu::odds::{action_odds, ActionRollSetup};
use sheetkeeper::rules::nsu::roll::{AtRisk, Edge, MoodChoice, RollSetup, SkillChoice};
use sheetkeeper::rules::nsu::{Aspect, AspectBoxes, Aspects, Die, Mood, Sheet, Skill};

fn nsu_odds(c: &mut Criterion) {
    let every = ActionRollSetup::every(0..=5);
    let mut group = c.benchmark_group("nsu odds");
    group.throughput(Throughput::Elements(every.len() as u64));
    group.bench_function(format!("every configuration ({})", every.len()), |b| {
        b.iter(|| {
            for setup in &every {
                black_box(action_odds(black_box(setup)));
            }
        })
    });
    let worst = ActionRollSetup {
        aspect_die: Die::D8,
        mood_die: Die::D8,
        at_risk: AtRisk::World,
        aspect_edge: Edge::Disadvantage,
        mood_edge: Edge::Advantage,
        skill: 3,
        helper_die: Some(Die::D8),
        helper_edge: Edge::None,
    };
    group.throughput(Throughput::Elements(1));
    group.bench_function("worst case (d8 twice against d8 twice, d8 helper)", |b| {
        b.iter(|| action_odds(black_box(&worst)))
    });
    // Issue 34, the approach's worst case: every aspect with all six mood lines (18 rolls),
    // one mood overloaded (so every approach rolls the mood die twice), a skill, aspect
    // disadvantage and a d8 helper with advantage.
    let mut sheet =
        Sheet { aspects: Some(Aspects { body: Die::D8, mind: Die::D6, heart: Die::D4 }), ..Sheet::default() };
    for line in 0..6 {
        sheet.moods[line] = Some(Mood { name: format!("mood {line}"), level: 0, overloaded: false });
    }
    sheet.moods[0] = Some(Mood { name: "mood 0".into(), level: 8, overloaded: true });
    sheet.skills[0] = Some(Skill { name: "Climbing".into(), modifier: 3, boxes: AspectBoxes::default() });
    let setup = RollSetup {
        aspect_disadvantages: 1,
        skill: Some(SkillChoice::Existing { line: 0 }),
        ..RollSetup::new("", Aspect::Body, AtRisk::World, MoodChoice::Existing { line: 0 })
    };
    group.bench_function("approach choices, worst case (18 approaches, overload, d8 helper)", |b| {
        b.iter(|| approaches(black_box(&sheet), &setup, Some((Die::D8, Edge::Advantage))).unwrap())
    });
    group.finish();
}

criterion_group!(benches, nsu_odds);
criterion_main!(benches);
