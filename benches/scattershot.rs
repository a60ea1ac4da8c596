//! Scattershot's Mechanix odds and a roll through the services:
//! `cargo bench -p sheetkeeper --bench scattershot`.
//! Budgets (DESIGN.md): a service call (roll + save + view) ≤ 2 ms median; the odds have no
//! budget of their own and are measured beside NSU's (≤ 50 µs).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::{rngs::StdRng, SeedableRng};
use sheetkeeper::rules::scattershot::choices::bidding;
use sheetkeeper::rules::scattershot::made_it_by::{Action, MibRoll, Party, RollSetup};
use sheetkeeper::rules::scattershot::odds::{contest_odds, mib_odds};
use sheetkeeper::rules::scattershot::sheet::{Rating, Resource, Statistic};
use sheetkeeper::rules::scattershot::Settings;
use sheetkeeper::services::{self, DiceInput, RollMove, RollRequest, SideDraft, Target};
use sheetkeeper::Store;

fn odds(c: &mut Criterion) {
    let mut group = c.benchmark_group("scattershot odds");
    group.bench_function("mib_odds (rating 12, modifier -1)", |b| b.iter(|| mib_odds(black_box(12), -1, 7).unwrap()));
    group.bench_function("contest_odds (12 -1 against 11 +2)", |b| {
        b.iter(|| contest_odds(black_box((12, -1)), (11, 2), 7).unwrap())
    });
    // Issue 34, the bidding war's worst case: a contest with neither 2d10 rolled (10 000
    // rolls) and the largest experience die the settings allow (d20), four bids.
    let action = |rating| Action { description: String::new(), rating, modifier: 0, rolled: None };
    let setup = RollSetup { actor: action(12), resistors: vec![action(11)], facets: Default::default(), chart: vec![] };
    let settings = Settings { experience_die: 20, ..Settings::default() };
    let (contest, _) = MibRoll::start(&setup, &settings).unwrap();
    group.bench_function("bidding choices, worst case (contest, no dice rolled, d20)", |b| {
        b.iter(|| bidding(black_box(&contest)).unwrap())
    });
    group.finish();
}

fn service_calls(c: &mut Criterion) {
    let mut group = c.benchmark_group("scattershot services");
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("bench.db")).unwrap();
    let game = services::create_game(&mut store, "Bench", "scattershot").unwrap().game.id;
    let ada = services::create_character(&mut store, game, "Ada").unwrap().id;
    let bo = services::create_character(&mut store, game, "Bo").unwrap().id;
    let request = RollRequest {
        actor: SideDraft {
            character: Some(ada),
            rating: Some(Rating::Statistic { statistic: Statistic::Agility }),
            ..SideDraft::default()
        },
        resistors: vec![SideDraft { character: Some(bo), value: Some(9), ..SideDraft::default() }],
        facets: None,
        magnitude: None,
        resistor_target: None,
        target: Some(Target { character: bo, resource: Resource::HitPoints }),
    };
    let mut rng = StdRng::seed_from_u64(9);
    let steps = [
        RollMove::Start { request: Box::new(request.clone()) },
        RollMove::Dice { party: Party::Actor },
        RollMove::Dice { party: Party::RESISTOR },
        RollMove::Decide,
        RollMove::Conclude,
    ];
    group.bench_function("roll preview (contested, from the sheet)", |b| {
        b.iter(|| services::scattershot_roll_preview(&store, game, black_box(&request)).unwrap())
    });
    services::scattershot_roll(&mut store, game, &steps[0], &DiceInput::Rolled, &mut rng).unwrap();
    group.bench_function("the actor's 2d10 (roll + save + view) + undo", |b| {
        b.iter(|| {
            services::scattershot_roll(&mut store, game, &steps[1], &DiceInput::Rolled, &mut rng).unwrap();
            services::undo_game(&mut store, game).unwrap();
        })
    });
    services::scattershot_roll(&mut store, game, &RollMove::Abandon, &DiceInput::Rolled, &mut rng).unwrap();
    group.bench_function("a whole roll: start + 2 × 2d10 + decide + conclude (+ a sheet edit)", |b| {
        b.iter(|| {
            for step in &steps {
                services::scattershot_roll(&mut store, game, step, &DiceInput::Rolled, &mut rng).unwrap();
            }
            // Bo's Hit Points back to full, so every round ends the same way.
            let full = services::SheetEdit::SetResource { resource: Resource::HitPoints, current: 10 };
            services::scattershot_sheet_edit(&mut store, bo, &full).unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, odds, service_calls);
criterion_main!(benches);
