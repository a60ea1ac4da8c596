//! Mezzo conflicts through the services on the real SQLite file: live odds, Leave to
//! Chance with typed-in dice, Take Median, ties, and undo giving the influence back.

use rand::{rngs::StdRng, SeedableRng};
use sheetkeeper::rules::mezzo::conflict::{Outcome, Variant};
use sheetkeeper::rules::mezzo::vote::{ConflictCast, ConflictDraft};
use sheetkeeper::services::{self, Approach, DiceInput};
use uuid::Uuid;

use crate::support::{bytes_on_disk, Scratch};

fn entered(values: &[u8]) -> DiceInput {
    DiceInput::Entered { values: values.to_vec() }
}

/// A Mezzo game with Ann and Ben (3 influence each).
fn table() -> (Scratch, sheetkeeper::Store, Uuid, Uuid, Uuid) {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = services::create_game(&mut store, "Canal town", "mezzo").unwrap().game.id;
    services::mezzo_add_player(&mut store, game, "Ann").unwrap();
    let view = services::mezzo_add_player(&mut store, game, "Ben").unwrap().view;
    let id = |name: &str| view.players.iter().find(|p| p.player.name == name).unwrap().player.id;
    let (ann, ben) = (id("Ann"), id("Ben"));
    (scratch, store, game, ann, ben)
}

fn draft(ann: Uuid, ben: Uuid) -> ConflictDraft {
    ConflictDraft {
        question: "Who holds the lantern?".into(),
        options: vec!["The ferryman".into(), "The smuggler".into(), "Nobody".into()],
        about: Vec::new(),
        active_in_scene: vec![],
        casts: vec![
            ConflictCast::Free { player: ann, option: 0, votes: 1 },
            ConflictCast::Free { player: ben, option: 1, votes: 1 },
            ConflictCast::Influence { player: ann, option: 0, points: 2 },
        ],
    }
}

fn influence(store: &sheetkeeper::Store, game: Uuid, who: Uuid) -> u32 {
    services::mezzo_table(store, game).unwrap().players.iter().find(|p| p.player.id == who).unwrap().player.influence
}

#[test]
fn leave_to_chance_pays_the_influence_rolls_the_step_dice_and_undo_takes_it_back() {
    let (_s, mut store, game, ann, ben) = table();
    let d = draft(ann, ben);
    let preview = services::mezzo_conflict_preview(&store, game, &d, &[]).unwrap();
    assert_eq!(preview.counts, vec![3, 1, 0]);
    assert_eq!(preview.dice, vec![vec![8], vec![4], vec![]]);
    // The exact odds of `sheetkeeper odds mezzo --votes 3,1,0`.
    let exact: Vec<&str> = preview.steps_odds.iter().map(|o| o.exact.as_str()).collect();
    assert_eq!(exact, ["143/192", "47/192", "1/96"]);
    assert_eq!(influence(&store, game, ann), 3, "a preview pays nothing");
    let mut rng = StdRng::seed_from_u64(1);
    // d8 shows 7, d4 shows 2: the ferryman wins.
    let out =
        services::mezzo_resolve_conflict(&mut store, game, &d, &Approach::LeaveToChance, &entered(&[7, 2]), &mut rng)
            .unwrap();
    assert_eq!(out.result.outcome, Outcome::Winner(0));
    assert_eq!(out.result.rolls.as_ref().unwrap().scores(), vec![7, 2, 1]);
    assert_eq!(out.result.summary, "“The ferryman” wins.");
    assert_eq!(influence(&store, game, ann), 1);
    services::undo_game(&mut store, game).unwrap();
    assert_eq!(influence(&store, game, ann), 3);
}

#[test]
fn take_median_follows_the_tables_selections_and_a_tie_is_broken_by_d12s() {
    let (_s, mut store, game, ann, ben) = table();
    let mut d = draft(ann, ben);
    d.casts.push(ConflictCast::Influence { player: ben, option: 2, points: 2 });
    let mut rng = StdRng::seed_from_u64(2);
    // The preview follows the table's marks (the pre-selection where it marked nothing); a
    // lone mark is refused there, and on resolving, naming the step.
    let marked = services::mezzo_conflict_preview(&store, game, &d, &[vec![1, 2]]).unwrap();
    let first = &marked.median.steps[0];
    assert_eq!((first.preselected.clone(), first.step.as_ref().unwrap().selected.clone()), (vec![0, 2], vec![1, 2]));
    assert_eq!(marked.median.outcome, Some(Outcome::Winner(0)), "1 and 2 lose 1, then 3 and 1 lose 1");
    let lone = services::mezzo_conflict_preview(&store, game, &d, &[vec![1]]).unwrap();
    assert_eq!(lone.median.problem.as_deref(), Some("Step 1: mark at least two of the options left."));
    let approach = Approach::TakeMedian { selections: vec![vec![1]] };
    let err = services::mezzo_resolve_conflict(&mut store, game, &d, &approach, &DiceInput::Rolled, &mut rng);
    assert_eq!(err.unwrap_err().to_string(), "selections[0]: Step 1: mark at least two of the options left.");
    // Votes 3, 1, 2: the pre-selection (3 against 2) leaves 1, 1 → then 1 against 1: a tie.
    let out = services::mezzo_resolve_conflict(
        &mut store,
        game,
        &d,
        &Approach::TakeMedian { selections: vec![] },
        &DiceInput::Rolled,
        &mut rng,
    )
    .unwrap();
    assert_eq!(out.result.counts, vec![3, 1, 2]);
    assert_eq!(out.result.median[0].selected, vec![0, 2]);
    let Outcome::Tie(tied) = out.result.outcome.clone() else { panic!("{:?}", out.result.outcome) };
    let broken =
        services::mezzo_break_tie(&mut store, game, &d, &tied, Variant::Steps, &entered(&[5, 5, 9, 3]), &mut rng)
            .unwrap();
    assert_eq!(broken.rounds.len(), 2);
    assert_eq!(broken.winner, tied[0]);
    let log = services::mezzo_log(&store, game, 10).unwrap();
    assert!(log[0].action.contains("Tie broken by dice"), "{}", log[0].action);
}

/// DEV-5, RULES.md §3.2 (Decision 2026-11-28): options listed along the question's spectrum,
/// the app pre-selects the two ends of what remains. A 5, B 4 (the middle road), C 3: the
/// ends cancel first and B wins, where "the two with the most votes" let C win.
#[test]
fn take_median_preselects_the_ends_of_the_spectrum_and_the_middle_road_wins() {
    let (_s, mut store, game, _, _) = table();
    let d = ConflictDraft {
        question: "How hard does the guild push?".into(),
        options: vec!["A strike".into(), "A petition".into(), "Nothing".into()],
        about: vec![],
        active_in_scene: vec![],
        casts: vec![
            ConflictCast::Counted { option: 0, votes: 5 },
            ConflictCast::Counted { option: 1, votes: 4 },
            ConflictCast::Counted { option: 2, votes: 3 },
        ],
    };
    let preview = services::mezzo_conflict_preview(&store, game, &d, &[]).unwrap();
    assert_eq!(preview.median.steps[0].preselected, vec![0, 2], "the two ends");
    assert_eq!(preview.median.steps[1].preselected, vec![0, 1], "the ends of what remains");
    assert_eq!(preview.median.outcome, Some(Outcome::Winner(1)));
    let approach = Approach::TakeMedian { selections: vec![] };
    let mut rng = StdRng::seed_from_u64(4);
    let out = services::mezzo_resolve_conflict(&mut store, game, &d, &approach, &DiceInput::Rolled, &mut rng).unwrap();
    assert_eq!(out.result.summary, "“A petition” wins.");
}

#[test]
fn d6_variant_shows_each_options_faces_and_the_burst_it_took() {
    let (_s, mut store, game, ann, ben) = table();
    let d = draft(ann, ben);
    let mut rng = StdRng::seed_from_u64(3);
    // Votes 3, 1, 0. The ferryman's d6 shows 2, within its burst threshold 3, and a burst
    // pays (3.5 × 2 > 2): it rerolls a 6 at ×2 = 12. The smuggler's 5 is above its threshold 1.
    let approach = Approach::D6 { no_bursts: false, first: None, bursts: None };
    let out =
        services::mezzo_resolve_conflict(&mut store, game, &d, &approach, &entered(&[2, 5, 6]), &mut rng).unwrap();
    assert_eq!(out.result.outcome, Outcome::Winner(0));
    assert_eq!(out.result.d6_scores, Some(vec![12, 5, 1]));
    let rolls = out.result.d6_rolls.expect("the D6 dice");
    let faces: Vec<_> = rolls.iter().map(|r| (r.first(), r.reroll(), r.multiplier())).collect();
    assert_eq!(faces, vec![(Some(2), Some(6), 2), (Some(5), None, 1), (None, None, 1)]);
    let json = serde_json::to_value(&rolls[0]).unwrap();
    assert_eq!((json["first"].as_u64(), json["reroll"].as_u64()), (Some(2), Some(6)), "the UI reads the faces");
}

#[test]
fn a_cast_over_the_limits_is_refused_naming_it_and_changes_nothing() {
    let (s, mut store, game, ann, ben) = table();
    let mut d = draft(ann, ben);
    d.casts.push(ConflictCast::Influence { player: ann, option: 1, points: 2 });
    let before = bytes_on_disk(&s.db());
    let mut rng = StdRng::seed_from_u64(3);
    let err =
        services::mezzo_resolve_conflict(&mut store, game, &d, &Approach::LeaveToChance, &DiceInput::Rolled, &mut rng)
            .unwrap_err();
    assert_eq!(err.to_string(), "casts[3].points: Ann holds 1 influence, not 2");
    assert_eq!(bytes_on_disk(&s.db()), before);
    let err = services::mezzo_resolve_conflict(
        &mut store,
        game,
        &draft(ann, ben),
        &Approach::LeaveToChance,
        &entered(&[7]),
        &mut rng,
    )
    .unwrap_err();
    assert!(err.to_string().contains("no value was entered"), "{err}");
    assert_eq!(bytes_on_disk(&s.db()), before);
}

/// Votes entered as the totals the table counted (each player cast on their own device): the
/// same exact odds as `sheetkeeper odds mezzo --votes 3,1,0`, a resolution logged like any
/// other, nobody's influence paid on this device, and undo takes the result back.
#[test]
fn a_conflict_resolved_from_the_totals_the_table_counted() {
    let (_s, mut store, game, ann, _ben) = table();
    let d = ConflictDraft {
        question: "Who holds the lantern?".into(),
        options: vec!["The ferryman".into(), "The smuggler".into(), "Nobody".into()],
        about: Vec::new(),
        active_in_scene: vec![],
        casts: vec![ConflictCast::Counted { option: 0, votes: 3 }, ConflictCast::Counted { option: 1, votes: 1 }],
    };
    let preview = services::mezzo_conflict_preview(&store, game, &d, &[]).unwrap();
    assert_eq!(preview.counts, vec![3, 1, 0]);
    let exact: Vec<&str> = preview.steps_odds.iter().map(|o| o.exact.as_str()).collect();
    assert_eq!(exact, ["143/192", "47/192", "1/96"]);
    let cli = sheetkeeper::rules::mezzo::odds::odds(&[3, 1, 0], Variant::D6).unwrap();
    let d6: Vec<String> = cli.options().iter().map(|f| format!("{}/{}", f.numerator(), f.denominator())).collect();
    assert_eq!(preview.d6_odds.iter().map(|o| o.exact.clone()).collect::<Vec<_>>(), d6);
    let mut rng = StdRng::seed_from_u64(4);
    // d8 shows 2, d4 shows 4: the smuggler wins with fewer votes.
    let out =
        services::mezzo_resolve_conflict(&mut store, game, &d, &Approach::LeaveToChance, &entered(&[2, 4]), &mut rng)
            .unwrap();
    assert_eq!(out.result.outcome, Outcome::Winner(1));
    assert_eq!(influence(&store, game, ann), 3, "counted votes are paid on the devices that cast them");
    let log = services::mezzo_log(&store, game, 10).unwrap();
    assert!(log[0].action.contains("“The smuggler” wins."), "{}", log[0].action);
    // Totals that count one option twice are refused, and change nothing.
    let mut twice = d.clone();
    twice.casts.push(ConflictCast::Counted { option: 0, votes: 1 });
    let before = services::mezzo_log(&store, game, 10).unwrap().len();
    let e = services::mezzo_resolve_conflict(
        &mut store,
        game,
        &twice,
        &Approach::LeaveToChance,
        &entered(&[2, 4]),
        &mut rng,
    );
    assert_eq!(e.unwrap_err().to_string(), "casts[2].option: option 1 already has the total the table counted");
    assert_eq!(services::mezzo_log(&store, game, 10).unwrap().len(), before);
    services::undo_game(&mut store, game).unwrap();
    assert!(services::mezzo_log(&store, game, 10).unwrap()[0].undone);
}
