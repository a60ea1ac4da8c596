//! Service-call benchmarks on a real database file: `cargo bench -p sheetkeeper`.
//! Budgets (DESIGN.md): a service call ≤ 2 ms median; a 10 000-character backup imports in
//! ≤ 2 s and exports in ≤ 1 s.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rand::SeedableRng;
use sheetkeeper::exchange;
use sheetkeeper::services::{self, ExportScope, ImportOptions};
use sheetkeeper::Store;

#[path = "../tests/core/sample.rs"]
mod sample;

/// A database with `games` NSU games of `per_game` characters each, written in one import
/// (one transaction) so setting up is quick.
fn store_with(dir: &std::path::Path, games: usize, per_game: usize) -> Store {
    let doc = sample::backup(games, per_game);
    let file = dir.join("seed.sheetkeeper.json");
    std::fs::write(&file, exchange::to_json(&doc)).unwrap();
    let mut store = Store::open(&dir.join("bench.db")).unwrap();
    services::import(&mut store, &file, ImportOptions::default()).unwrap();
    store
}

fn service_calls(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 10, 100);
    let id = services::list(&store).unwrap()[0].characters[0].id;
    let mut n = 0u64;
    c.bench_function("rename_character (load, save, log, view)", |b| {
        b.iter(|| {
            n += 1;
            services::rename_character(&mut store, id, &format!("Wren {n}")).unwrap()
        })
    });
    c.bench_function("rename then undo_character (two service calls)", |b| {
        b.iter(|| {
            services::rename_character(&mut store, id, "Before undo").unwrap();
            services::undo_character(&mut store, id).unwrap()
        })
    });
    c.bench_function("list (10 games, 1000 characters)", |b| b.iter(|| services::list(&store).unwrap()));
    // The home screen's first call, and a whole game as one player's device sees it.
    c.bench_function("character_cards (1000 characters, key numbers)", |b| {
        b.iter(|| services::character_cards(&store).unwrap())
    });
    let game = services::list(&store).unwrap()[0].game.id;
    let viewer = id.to_string();
    c.bench_function("game view for a player (NSU, 100 sheets and the world)", |b| {
        b.iter(|| services::game_view_as(&store, game, &viewer).unwrap())
    });
}

fn exchange(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), 10, 1_000);
    let file = dir.path().join("all.sheetkeeper.json");
    let mut group = c.benchmark_group("10 000-character backup");
    group.sample_size(10);
    group.bench_function("export", |b| b.iter(|| services::export(&store, ExportScope::All, &file).unwrap()));
    group.bench_function("import into a fresh database", |b| {
        b.iter_batched(
            || {
                let fresh = tempfile::tempdir().unwrap();
                let store = Store::open(&fresh.path().join("fresh.db")).unwrap();
                (fresh, store)
            },
            |(_fresh, mut store)| services::import(&mut store, &file, ImportOptions::default()).unwrap(),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("check (every game's file validated too)", |b| b.iter(|| services::check(&store).unwrap()));
    group.finish();
}

fn nsu_roll(c: &mut Criterion) {
    use sheetkeeper::rules::nsu::roll::{AtRisk, Edge, MoodChoice, RollSetup, SkillChoice};
    use sheetkeeper::rules::nsu::{Aspect, AspectBoxes, Aspects, Die, Mood, Sheet, Skill};
    use sheetkeeper::services::DiceInput;

    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, 10);
    let id = services::list(&store).unwrap()[0].characters[0].id;
    let mut sheet =
        Sheet { aspects: Some(Aspects { body: Die::D4, mind: Die::D8, heart: Die::D6 }), ..Sheet::default() };
    sheet.moods[0] = Some(Mood { name: "Curious".into(), level: 0, overloaded: false });
    sheet.skills[0] = Some(Skill { name: "Lore".into(), modifier: 1, boxes: AspectBoxes::default() });
    services::save_nsu_sheet(&mut store, id, sheet).unwrap();
    let setup = RollSetup {
        aspect_advantages: 1,
        skill: Some(SkillChoice::Existing { line: 0 }),
        ..RollSetup::new("Find the door", Aspect::Mind, AtRisk::World, MoodChoice::Existing { line: 0 })
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    c.bench_function("nsu roll preview (plan + exact odds)", |b| {
        b.iter(|| services::nsu_roll_preview(&store, id, &setup, Some(Die::D6), Edge::None).unwrap())
    });
    c.bench_function("nsu full roll: dice, resolve, undo (three service calls)", |b| {
        b.iter(|| {
            let pending = services::nsu_roll_dice(&mut store, id, &setup, &DiceInput::Rolled, &mut rng).unwrap();
            let result = services::nsu_roll_resolve(&mut store, id, &pending.choices);
            // A roll that fills the last box needs a name; the bench keeps to ordinary rolls.
            if result.is_err() {
                services::undo_character(&mut store, id).unwrap();
                return;
            }
            services::undo_character(&mut store, id).unwrap();
        })
    });
}

/// Budget: open + render a character with 100 000 events in its log ≤ 50 ms. (In a debug
/// build — `cargo test --benches` — the log is kept small so the check stays quick.)
fn long_log(c: &mut Criterion) {
    let events = if cfg!(debug_assertions) { 1_000 } else { 100_000 };
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, 1);
    let id = services::list(&store).unwrap()[0].characters[0].id;
    for n in 0..events {
        services::rename_character(&mut store, id, &format!("Wren {n}")).unwrap();
    }
    c.bench_function(&format!("open a character sheet with {events} events in its log"), |b| {
        b.iter(|| {
            let view = services::nsu_sheet(&store, id).unwrap();
            let pending = services::nsu_pending_roll(&store, id).unwrap();
            (view, pending)
        })
    });
}

criterion_group!(benches, service_calls, exchange, nsu_roll, long_log);
criterion_main!(benches);
