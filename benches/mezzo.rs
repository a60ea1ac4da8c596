//! Mezzo conflict odds: `cargo bench -p sheetkeeper --bench mezzo`.
//! Budget (DESIGN.md): 8 options × up to 20 votes ≤ 5 ms; the odds of every choice at one
//! decision ≤ 16 ms (one frame).
//!
//! "8 × 20 votes" is the budget's worst case for each variant: the most options with the
//! most dice (four d12s each) or the widest D6 scores. "… with decimals" adds what the CLI
//! and the UI do with the result: reduce each chance to lowest terms and write 15 digits.
//! "32 × 175 votes" is the largest conflict the rules accept (bounds no real table meets,
//! DEV-13), for scale.
//!
//! "mezzo choices": every option's next vote at the budget's worst case (each option one
//! more conflict counted), with the chances written as the CLI and the window write them;
//! and the D6 variant's burst choices with all eight owners still choosing.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use sheetkeeper::rules::dice::Entered;
use sheetkeeper::rules::mezzo::choices::{conflict_bursts, next_vote};
use sheetkeeper::rules::mezzo::conflict::{D6Conflict, Variant, MAX_OPTIONS, MAX_VOTES};
use sheetkeeper::rules::mezzo::odds::odds;

fn mezzo_odds(c: &mut Criterion) {
    let mut group = c.benchmark_group("mezzo odds");
    let budget = [20u32; 8];
    let mixed = [20u32, 19, 17, 14, 11, 6, 1, 0];
    let largest = [MAX_VOTES; MAX_OPTIONS];
    for (variant, name) in [(Variant::Steps, "steps"), (Variant::D6, "d6")] {
        group.bench_function(format!("{name}, 8 × 20 votes"), |b| {
            b.iter(|| odds(black_box(&budget), variant).unwrap())
        });
        group.bench_function(format!("{name}, 8 × 20 votes, with decimals"), |b| {
            b.iter(|| {
                let odds = odds(black_box(&budget), variant).unwrap();
                odds.options().iter().map(|chance| chance.decimal(15)).collect::<Vec<_>>()
            })
        });
        group.bench_function(format!("{name}, 8 options, 0 to 20 votes, with decimals"), |b| {
            b.iter(|| {
                let odds = odds(black_box(&mixed), variant).unwrap();
                odds.options().iter().map(|chance| chance.decimal(15)).collect::<Vec<_>>()
            })
        });
        group.bench_function(format!("{name}, {MAX_OPTIONS} × {MAX_VOTES} votes, with decimals"), |b| {
            b.iter(|| {
                let odds = odds(black_box(&largest), variant).unwrap();
                odds.options().iter().map(|chance| chance.decimal(15)).collect::<Vec<_>>()
            })
        });
    }
    group.finish();
}

fn mezzo_choices(c: &mut Criterion) {
    let mut group = c.benchmark_group("mezzo choices");
    let budget = [20u32; 8];
    for (variant, name) in [(Variant::Steps, "steps"), (Variant::D6, "d6")] {
        group.bench_function(format!("next vote, {name}, 8 × 20 votes, with decimals"), |b| {
            b.iter(|| {
                let choices = next_vote(black_box(&budget), variant).unwrap();
                choices.iter().map(|c| (c.now.decimal(15), c.with_vote().decimal(15))).collect::<Vec<_>>()
            })
        });
    }
    // Eight owners who may all burst: 5 votes each (×1, threshold 5), every first roll a 5.
    let open = D6Conflict::roll(&[5; 8], &mut Entered::new([5; 8])).unwrap();
    group.bench_function("bursts, 8 owners choosing, with decimals", |b| {
        b.iter(|| {
            let choices = conflict_bursts(black_box(&open)).unwrap();
            choices.iter().map(|c| (c.keep.decimal(15), c.burst.decimal(15))).collect::<Vec<_>>()
        })
    });
    group.finish();
}

criterion_group!(benches, mezzo_odds, mezzo_choices);
criterion_main!(benches);
