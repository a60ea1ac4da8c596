//! Penny Ante scoring and showdown odds: `cargo bench -p sheetkeeper --bench penny_ante`.
//! Budget (DESIGN.md): exact odds, worst case (6 + 6 unknown dice, 2 unknown
//! circumstances) ≤ 20 ms; every choice of dice to reroll (issue 34) ≤ 16 ms, one frame; a
//! service call (move + save + view) ≤ 2 ms median.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rand::{rngs::StdRng, SeedableRng};
use sheetkeeper::rules::penny_ante::challenge::{Move, Side};
use sheetkeeper::rules::penny_ante::choices::reroll_choices;
use sheetkeeper::rules::penny_ante::ledger::Account;
use sheetkeeper::rules::penny_ante::odds::{showdown_odds, Dice, Showdown};
use sheetkeeper::rules::penny_ante::score;
use sheetkeeper::services::{self, ChallengeDraft, DiceInput};
use sheetkeeper::Store;

fn penny_ante(c: &mut Criterion) {
    let mut group = c.benchmark_group("penny ante");
    let unknown = |unknown| Dice { known: Vec::new(), unknown };
    let worst = Showdown { mine: unknown(6), theirs: unknown(6), circumstances: unknown(2) };
    group.bench_function("odds, worst case (6 + 6 unknown dice, 2 unknown circumstances)", |b| {
        b.iter(|| showdown_odds(black_box(&worst)).unwrap())
    });
    // Issue 34: which dice go back in the cup, every choice's odds. Six different faces give
    // the most choices (2^6 = 64); the opponent's six dice are unknown; 2 circumstance dice
    // unknown (round 2's, the worst case), and 4, the most the dice limits allow.
    for circumstances in [2, 4] {
        let choosing = Showdown {
            mine: Dice { known: vec![1, 2, 3, 4, 5, 6], unknown: 0 },
            theirs: unknown(6),
            circumstances: unknown(circumstances),
        };
        let name =
            format!("reroll choices, worst case (64 choices, 6 unknown dice, {circumstances} unknown circumstances)");
        group.bench_function(name, |b| b.iter(|| reroll_choices(black_box(&choosing)).unwrap()));
    }
    let hand = [1, 2, 3, 4, 6, 6, 6, 6, 5, 5];
    group.bench_function("score of a 10-die hand", |b| b.iter(|| score(black_box(&hand)).unwrap()));
    group.finish();
}

/// A game whose ledger already holds a long history (`rounds` finished challenges), with a
/// challenge running at the first betting round.
fn table_at_betting(dir: &std::path::Path, rounds: usize) -> (Store, uuid::Uuid) {
    let mut store = Store::open(&dir.join("bench.db")).unwrap();
    let game = services::create_game(&mut store, "Bench", "penny_ante").unwrap().game.id;
    let ada =
        services::penny_create_character(&mut store, game, "Ada", "Strong", 1_000_000).unwrap().view.players[0].id;
    services::penny_start_adventure(&mut store, game, None).unwrap();
    let mut rng = StdRng::seed_from_u64(3);
    let mut mv = |store: &mut Store, m: Move| {
        services::penny_challenge_move(store, game, m, &DiceInput::Rolled, &mut rng).unwrap();
    };
    for round in 0..=rounds {
        let draft = ChallengeDraft {
            stake: "a bench".into(),
            ante: 1,
            challenger: vec![Account::Character(ada)],
            opponent: vec![Account::House],
            devoted: None,
        };
        services::penny_start_challenge(&mut store, game, draft).unwrap();
        for side in Side::BOTH {
            mv(&mut store, Move::Pass { side });
        }
        for side in Side::BOTH {
            mv(&mut store, Move::Characteristics { side, used: Vec::new() });
        }
        for side in Side::BOTH {
            mv(&mut store, Move::Roll { side });
            mv(&mut store, Move::Cup { side, cup: Vec::new() });
        }
        if round < rounds {
            mv(&mut store, Move::Fold { side: Side::Challenger });
        }
    }
    (store, game)
}

fn service_calls(c: &mut Criterion) {
    let mut group = c.benchmark_group("penny ante services");
    for rounds in [0, 200] {
        let dir = tempfile::tempdir().unwrap();
        let (mut store, game) = table_at_betting(dir.path(), rounds);
        let entries = services::penny_ledger(&store, game, None, usize::MAX, true).unwrap().entries.len();
        let mut rng = StdRng::seed_from_u64(4);
        group.bench_function(format!("raise + undo, ledger of {entries} entries"), |b| {
            b.iter_batched(
                || (),
                |_| {
                    let raise = Move::Raise { side: Side::Challenger, by: 1 };
                    services::penny_challenge_move(&mut store, game, raise, &DiceInput::Rolled, &mut rng).unwrap();
                    services::undo_game(&mut store, game).unwrap();
                },
                BatchSize::SmallInput,
            )
        });
        group.bench_function(format!("table view, ledger of {entries} entries"), |b| {
            b.iter(|| services::penny_table(&store, game).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, penny_ante, service_calls);
criterion_main!(benches);
