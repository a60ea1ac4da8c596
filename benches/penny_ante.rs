//! Penny Ante scoring and showdown odds: `cargo bench -p sheetkeeper --bench penny_ante`.
//! Budget (DESIGN.md): exact odds, worst case (6 + 6 unknown dice, 2 unknown
//! circumstances) ≤ 20 ms.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use sheetkeeper::rules::penny_ante::odds::{showdown_odds, Dice, Showdown};
use sheetkeeper::rules::penny_ante::score;

fn penny_ante(c: &mut Criterion) {
    let mut group = c.benchmark_group("penny ante");
    let unknown = |unknown| Dice { known: Vec::new(), unknown };
    let worst = Showdown { mine: unknown(6), theirs: unknown(6), circumstances: unknown(2) };
    group.bench_function("odds, worst case (6 + 6 unknown dice, 2 unknown circumstances)", |b| {
        b.iter(|| showdown_odds(black_box(&worst)).unwrap())
    });
    let hand = [1, 2, 3, 4, 6, 6, 6, 6, 5, 5];
    group.bench_function("score of a 10-die hand", |b| b.iter(|| score(black_box(&hand)).unwrap()));
    group.finish();
}

criterion_group!(benches, penny_ante);
criterion_main!(benches);
