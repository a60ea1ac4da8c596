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
use sheetkeeper::rules::nsu::odds::{action_odds, ActionRollSetup};
use sheetkeeper::rules::nsu::roll::{AtRisk, Edge};
use sheetkeeper::rules::nsu::Die;

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
    group.finish();
}

criterion_group!(benches, nsu_odds);
criterion_main!(benches);
