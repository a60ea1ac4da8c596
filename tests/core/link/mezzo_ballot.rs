//! Mezzo at a linked table, DEV-1: a seated player votes on their own phone. The table opens a
//! conflict for votes; the host carries it to the joined devices; a device seated as Bo casts
//! Bo's ballot (and only Bo's, within what he holds) through the table's device; the table
//! resolves with it, paying his influence, in one undoable move.

use rand::SeedableRng;
use sheetkeeper::rules::mezzo::vote::ConflictCast;
use sheetkeeper::services::{self, Approach, Changed, DiceInput, GameMove, ImportOptions};
use uuid::Uuid;

use crate::mezzo_store::{bridge, ADA, BO, CY, GAME};
use crate::support::{uuid, Scratch};

/// The Mezzo plot game: Ada (Actor, claims Mira), Bo (3 influence, claims nothing), Cy.
#[test]
fn a_seated_phone_casts_its_players_ballot_and_the_table_resolves_with_it() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let (game, ada, bo, cy) = (uuid(GAME), uuid(ADA), uuid(BO), uuid(CY));
    let (mut host, phone, stranger) = super::mezzo_plot_table_with_bos_phone(&h);
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);

    // The table opens the conflict for votes: one move, and it reaches Bo's phone.
    let draft = bridge();
    services::mezzo_open_conflict_for_votes(&mut host, game, &draft).unwrap();
    let again = services::mezzo_open_conflict_for_votes(&mut host, game, &draft).unwrap_err().to_string();
    assert!(again.starts_with("open_conflict: a conflict is already open"), "{again}");
    let mut on_phone = p.open();
    let snapshot = services::host_snapshot(&host, game, phone).unwrap();
    assert!(
        services::joined_apply_snapshot(&mut on_phone, game, &snapshot, &Changed::Whole, &Default::default()).unwrap()
    );
    let seen = services::mezzo_open_conflict(&on_phone, game).unwrap().expect("the phone sees the open conflict");
    assert_eq!((seen.question.as_str(), seen.options.len()), ("Does the old bridge hold?", 2));

    // Refused, each with its reason, and nothing changes at the table: a ballot for Ada from
    // Bo's phone, Bo's from a phone seated as nobody, Bo's with more influence than he holds.
    let ballot = |player: Uuid, casts: Vec<ConflictCast>| GameMove::MezzoBallot { player, casts };
    let influence = |points| ConflictCast::Influence { player: bo, option: 1, points };
    let open_before = services::mezzo_open_conflict(&host, game).unwrap();
    let table_before = services::mezzo_table(&host, game).unwrap();
    let refused = |host: &mut sheetkeeper::Store, device, mv: &GameMove, rng: &mut rand::rngs::StdRng| {
        services::host_apply_move(host, game, device, mv, rng).unwrap().unwrap_err()
    };
    let ada_free = ConflictCast::Free { player: ada, option: 0, votes: 1 };
    assert!(refused(&mut host, phone, &ballot(ada, vec![ada_free]), &mut rng).contains("another player's"));
    assert!(refused(&mut host, stranger, &ballot(bo, vec![influence(1)]), &mut rng).contains("another player's"));
    let over = refused(&mut host, phone, &ballot(bo, vec![influence(4)]), &mut rng);
    assert!(over.contains("casts[0].points") && over.contains("Bo holds 3 influence, not 4"), "{over}");
    let cy_free = ConflictCast::Free { player: cy, option: 1, votes: 1 };
    let not_his = refused(&mut host, phone, &ballot(bo, vec![cy_free.clone()]), &mut rng);
    assert!(not_his.contains("casts[0].player"), "{not_his}");
    assert_eq!(services::mezzo_open_conflict(&host, game).unwrap(), open_before);
    assert_eq!(services::mezzo_table(&host, game).unwrap(), table_before, "a refusal changes nothing");

    // Bo votes from his phone, then changes his mind: his free vote and 1 influence for "It
    // falls". The ballot is on the table, and the update carries it to his phone.
    let bo_free = ConflictCast::Free { player: bo, option: 1, votes: 1 };
    services::host_apply_move(&mut host, game, phone, &ballot(bo, vec![influence(3)]), &mut rng).unwrap().unwrap();
    services::host_apply_move(&mut host, game, phone, &ballot(bo, vec![bo_free.clone(), influence(1)]), &mut rng)
        .unwrap()
        .unwrap();
    let open = services::mezzo_open_conflict(&host, game).unwrap().unwrap();
    assert_eq!(open.ballots.len(), 1);
    assert_eq!((open.ballots[0].name.as_str(), open.ballots[0].casts.clone()), ("Bo", vec![bo_free, influence(1)]));
    assert_eq!(services::mezzo_table(&host, game).unwrap().players[1].player.influence, 3, "paid only at the resolve");
    let snapshot = services::host_snapshot(&host, game, phone).unwrap();
    assert!(
        services::joined_apply_snapshot(&mut on_phone, game, &snapshot, &Changed::Whole, &Default::default()).unwrap()
    );
    assert_eq!(services::mezzo_open_conflict(&on_phone, game).unwrap().unwrap().ballots.len(), 1);

    // A game file carries the open conflict with Bo's ballot, and another database reads it back.
    let file = h.file("bridge.sheetkeeper.json");
    services::export(&host, services::ExportScope::Game(game), &file).unwrap();
    let elsewhere_dir = Scratch::new();
    let mut elsewhere = elsewhere_dir.open();
    services::import(&mut elsewhere, &file, ImportOptions::default()).unwrap();
    assert_eq!(
        services::mezzo_open_conflict(&elsewhere, game).unwrap(),
        services::mezzo_open_conflict(&host, game).unwrap()
    );

    // The table adds Cy's free vote for "It holds" on its own device and resolves by Take
    // Median: 1 against 2, "It falls" wins; Bo's influence is paid and the conflict is closed.
    let cy_holds = ConflictCast::Free { player: cy, option: 0, votes: 1 };
    // Bo voted from his phone: the table casts nothing more for him, and nothing changes.
    let twice = services::mezzo_resolve_open_conflict(
        &mut host,
        game,
        &[cy_holds.clone(), ConflictCast::Free { player: bo, option: 0, votes: 1 }],
        &Approach::TakeMedian { selections: vec![] },
        &DiceInput::Rolled,
        &mut rng,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(twice, "casts[1]: Bo voted from their own device: their ballot holds their votes");
    assert_eq!(services::mezzo_open_conflict(&host, game).unwrap().unwrap().ballots.len(), 1);
    let preview = services::mezzo_conflict_preview(
        &host,
        game,
        &services::mezzo_open_conflict_draft(&host, game, std::slice::from_ref(&cy_holds)).unwrap(),
        &[],
    )
    .unwrap();
    assert_eq!(preview.counts, vec![1, 2]);
    let outcome = services::mezzo_resolve_open_conflict(
        &mut host,
        game,
        &[cy_holds],
        &Approach::TakeMedian { selections: vec![] },
        &DiceInput::Rolled,
        &mut rng,
    )
    .unwrap();
    assert_eq!(outcome.result.counts, vec![1, 2]);
    assert_eq!(outcome.result.summary, "“It falls” wins.");
    let table = services::mezzo_table(&host, game).unwrap();
    assert_eq!(table.players.iter().find(|p| p.player.id == bo).unwrap().player.influence, 2);
    assert!(services::mezzo_open_conflict(&host, game).unwrap().is_none());
    // A ballot after the resolve is refused: nothing is open.
    let late = refused(&mut host, phone, &ballot(bo, vec![influence(1)]), &mut rng);
    assert!(late.contains("no conflict is open"), "{late}");

    // Undo takes the resolve back: the conflict is open again with Bo's ballot, unpaid.
    services::undo_game(&mut host, game).unwrap();
    assert_eq!(services::mezzo_open_conflict(&host, game).unwrap().unwrap().ballots.len(), 1);
    assert_eq!(services::mezzo_table(&host, game).unwrap().players[1].player.influence, 3);
    // And the table may withdraw it instead: the ballots go with it.
    services::mezzo_withdraw_open_conflict(&mut host, game).unwrap();
    assert!(services::mezzo_open_conflict(&host, game).unwrap().is_none());
}
