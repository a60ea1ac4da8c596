//! Mezzo conflict odds: `cargo bench -p sheetkeeper --bench mezzo`.
//! Budget (DESIGN.md): 8 options × up to 20 votes ≤ 5 ms.
//!
//! "8 × 20 votes" is the budget's worst case for each variant: the most options with the
//! most dice (four d12s each) or the widest D6 scores. "… with decimals" adds what the CLI
//! and the UI do with the result: reduce each chance to lowest terms and write 15 digits.
//! "16 × 40 votes" is the largest conflict the rules accept, for scale.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use sheetkeeper::rules::mezzo::conflict::{Variant, MAX_OPTIONS, MAX_VOTES};
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
        group.bench_function(format!("{name}, 16 × 40 votes, with decimals"), |b| {
            b.iter(|| {
                let odds = odds(black_box(&largest), variant).unwrap();
                odds.options().iter().map(|chance| chance.decimal(15)).collect::<Vec<_>>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, mezzo_odds);
criterion_main!(benches);
