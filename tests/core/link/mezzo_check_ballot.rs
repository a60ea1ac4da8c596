//! Mezzo at a linked table, DEV-1 and DEV-2: a seated player votes in an action check from
//! their own phone, on the same ballot model as a conflict's. The table opens "Tomas climbs
//! the lighthouse" for votes; the host carries it to the joined devices; a device seated as Bo
//! casts Bo's ballot (his law and influence, only his, within what he holds) through the
//! table's device; the table rolls with it and the resolve pays it, in one undoable move.

use rand::SeedableRng;
use sheetkeeper::rules::mezzo::action_check::{Cast, Law};
use sheetkeeper::rules::mezzo::ballot::Direction;
use sheetkeeper::services::{self, Changed, CheckDraft, DiceInput, GameMove, ImportOptions};
use uuid::Uuid;

use crate::support::Scratch;

const GAME: &str = "3a9c1e5b-7d2f-4e8a-9b6c-0d1e2f3a4b5c";
const ADA: &str = "1b2c3d4e-5f60-4a71-8b82-9c0d1e2f3a40";
const BO: &str = "2c3d4e5f-6071-4b82-9c93-ad1e2f3a4b51";
const CY: &str = "3d4e5f60-7182-4c93-8da4-be2f3a4b5c62";
const TOMAS: &str = "5f607182-93a4-4eb5-8fc6-d04b5c6d7e84";
const LIGHTHOUSE: &str = "60718293-a4b5-4fc6-90d7-e15c6d7e8f95";
/// The game's own Setting Law.
const TIDES: &str = "70000000-0000-4000-8000-000000000050";

fn id(text: &str) -> Uuid {
    Uuid::parse_str(text).unwrap()
}

/// Tomas (common) climbs the lighthouse, or falls (occasional).
fn climb() -> CheckDraft {
    crate::support::mezzo_drafts::climb(id(TOMAS), vec![id(LIGHTHOUSE)])
}

#[test]
fn a_seated_phone_votes_in_an_action_check_and_the_tables_resolve_pays_it() {
    let (h, p) = (Scratch::new(), Scratch::new());
    let (game, ada, bo, cy) = (id(GAME), id(ADA), id(BO), id(CY));
    let mut host = super::mezzo_plot_table(&h);
    let (phone, stranger) = (Uuid::new_v4(), Uuid::new_v4());
    services::host_pair(&mut host, game, phone, "Bo's phone", &[3; 32]).unwrap();
    services::host_pair(&mut host, game, stranger, "a visitor's phone", &[4; 32]).unwrap();
    services::host_claim(&mut host, game, phone, bo).unwrap().unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);

    // The table opens the check for votes: one move, once, and it reaches Bo's phone.
    services::mezzo_open_check_for_votes(&mut host, game, &climb()).unwrap();
    let again = services::mezzo_open_check_for_votes(&mut host, game, &climb()).unwrap_err().to_string();
    assert!(again.starts_with("open_check: an action check is already open"), "{again}");
    let mut on_phone = p.open();
    let snapshot = services::host_snapshot(&host, game, phone).unwrap();
    assert!(
        services::joined_apply_snapshot(&mut on_phone, game, &snapshot, &Changed::Whole, &Default::default()).unwrap()
    );
    let seen = services::mezzo_open_check(&on_phone, game).unwrap().expect("the phone sees the open check");
    assert_eq!(seen.setup.description, "Tomas climbs the lighthouse");
    assert_eq!(seen.sides, vec!["Tomas".to_string(), "Failure (“He falls”)".to_string()]);

    // Refused, each with its reason, and nothing changes at the table: Ada's ballot from Bo's
    // phone, Bo's from a phone seated as nobody, more influence than Bo holds, a counted total.
    let ballot = |player: Uuid, casts: Vec<Cast>| GameMove::MezzoCheckBallot { player, casts };
    let influence = |who: Uuid, side, points| Cast::Influence { player: who, side, points };
    let tides = Cast::Law { player: bo, side: 0, law: Law::Custom { id: id(TIDES) }, direction: Direction::For };
    let table_before = services::mezzo_table(&host, game).unwrap();
    let open_before = services::mezzo_open_check(&host, game).unwrap();
    let refused = |host: &mut sheetkeeper::Store, device, mv: &GameMove, rng: &mut rand::rngs::StdRng| {
        services::host_apply_move(host, game, device, mv, rng).unwrap().unwrap_err()
    };
    assert!(refused(&mut host, phone, &ballot(ada, vec![influence(ada, 0, 1)]), &mut rng).contains("another player's"));
    assert!(refused(&mut host, stranger, &ballot(bo, vec![influence(bo, 0, 1)]), &mut rng).contains("another player's"));
    let over = refused(&mut host, phone, &ballot(bo, vec![tides.clone(), influence(bo, 0, 4)]), &mut rng);
    assert_eq!(over, "casts[1].points: Bo holds 3 influence, not 4");
    let counted = refused(&mut host, phone, &ballot(bo, vec![Cast::Counted { side: 0, votes: 2 }]), &mut rng);
    assert!(counted.starts_with("casts[0].kind: "), "{counted}");
    assert_eq!(services::mezzo_open_check(&host, game).unwrap(), open_before);
    assert_eq!(services::mezzo_table(&host, game).unwrap(), table_before, "a refusal changes nothing");

    // Bo votes from his phone, then changes his mind: the Law of the Tides and 1 influence for
    // Tomas. The ballot is on the table, unpaid, and the update carries it to his phone.
    services::host_apply_move(&mut host, game, phone, &ballot(bo, vec![influence(bo, 1, 2)]), &mut rng)
        .unwrap()
        .unwrap();
    let mine = vec![tides.clone(), influence(bo, 0, 1)];
    services::host_apply_move(&mut host, game, phone, &ballot(bo, mine.clone()), &mut rng).unwrap().unwrap();
    let open = services::mezzo_open_check(&host, game).unwrap().unwrap();
    assert_eq!(open.ballots.len(), 1);
    assert_eq!((open.ballots[0].name.as_str(), open.ballots[0].casts.clone()), ("Bo", mine));
    assert_eq!(services::mezzo_table(&host, game).unwrap().players[1].player.influence, 3, "paid only at the resolve");
    let snapshot = services::host_snapshot(&host, game, phone).unwrap();
    assert!(
        services::joined_apply_snapshot(&mut on_phone, game, &snapshot, &Changed::Whole, &Default::default()).unwrap()
    );
    assert_eq!(services::mezzo_open_check(&on_phone, game).unwrap().unwrap().ballots.len(), 1);

    // A game file carries the open check with Bo's ballot, and another database reads it back.
    let file = h.file("climb.sheetkeeper.json");
    services::export(&host, services::ExportScope::Game(game), &file).unwrap();
    let elsewhere_dir = Scratch::new();
    let mut elsewhere = elsewhere_dir.open();
    services::import(&mut elsewhere, &file, ImportOptions::default()).unwrap();
    assert_eq!(services::mezzo_open_check(&elsewhere, game).unwrap(), services::mezzo_open_check(&host, game).unwrap());

    // The table casts nothing more for Bo, who voted from his phone. It rolls with Cy's
    // influence for the fall, cast on its own device: Tomas holds
    // 2 + 1 law + 1 influence, the fall 1 + 1. Bo's ballot can no longer change, nor the check
    // be withdrawn.
    let twice =
        services::mezzo_roll_open_check(&mut host, game, &[influence(bo, 0, 1)], &[], &DiceInput::Rolled, &mut rng)
            .unwrap_err()
            .to_string();
    assert_eq!(twice, "casts[0]: Bo voted from their own device: their ballot holds their votes");
    let pending =
        services::mezzo_roll_open_check(&mut host, game, &[influence(cy, 1, 1)], &[], &DiceInput::Rolled, &mut rng)
            .unwrap();
    assert_eq!((pending.tallies[0].total, pending.tallies[1].total), (4, 2));
    assert!(services::mezzo_open_check(&host, game).unwrap().unwrap().rolled);
    let late = refused(&mut host, phone, &ballot(bo, vec![influence(bo, 0, 2)]), &mut rng);
    assert_eq!(late, "casts: the dice are rolled: votes come before");
    let withdraw = services::mezzo_withdraw_open_check(&mut host, game).unwrap_err().to_string();
    assert!(withdraw.contains("the dice are rolled"), "{withdraw}");

    // The resolve pays Bo's influence (and Cy's) and closes the vote, in one move. (The
    // table plays the D6 variant: a side that may burst keeps its roll first.)
    if !pending.open_bursts.is_empty() {
        services::mezzo_check_burst(&mut host, game, &[], &DiceInput::Rolled, &mut rng).unwrap();
    }
    services::mezzo_check_resolve(&mut host, game, &[]).unwrap();
    let table = services::mezzo_table(&host, game).unwrap();
    let influence_of = |who: Uuid| table.players.iter().find(|p| p.player.id == who).unwrap().player.influence;
    assert_eq!((influence_of(bo), influence_of(cy)), (2, 0));
    assert!(services::mezzo_open_check(&host, game).unwrap().is_none());
    let closed = refused(&mut host, phone, &ballot(bo, vec![influence(bo, 0, 1)]), &mut rng);
    assert!(closed.contains("no action check is open"), "{closed}");

    // Undo takes the resolve back: the check is open again with Bo's ballot, unpaid; undo of
    // the roll (and the burst choice) lets the table withdraw it.
    services::undo_game(&mut host, game).unwrap();
    assert_eq!(services::mezzo_open_check(&host, game).unwrap().unwrap().ballots.len(), 1);
    assert_eq!(services::mezzo_table(&host, game).unwrap().players[1].player.influence, 3);
    assert!(services::mezzo_open_check(&host, game).unwrap().unwrap().rolled, "the rolled check is back");
    services::undo_game(&mut host, game).unwrap();
    if !pending.open_bursts.is_empty() {
        services::undo_game(&mut host, game).unwrap();
    }
    services::mezzo_withdraw_open_check(&mut host, game).unwrap();
    assert!(services::mezzo_open_check(&host, game).unwrap().is_none());
}

/// The acting character is deleted while the check is open: the table still sees the check,
/// its side named for what it was, and withdraws it.
#[test]
fn a_check_open_for_votes_whose_actor_is_gone_is_still_shown_and_withdrawn() {
    let h = Scratch::new();
    let game = id(GAME);
    let mut host = super::mezzo_plot_table(&h);
    services::mezzo_open_check_for_votes(&mut host, game, &climb()).unwrap();
    services::delete_character(&mut host, id(TOMAS)).unwrap();
    let open = services::mezzo_open_check(&host, game).unwrap().expect("still open");
    assert_eq!(open.sides, vec!["An element no longer at the table".to_string(), "Failure (“He falls”)".to_string()]);
    services::mezzo_withdraw_open_check(&mut host, game).unwrap();
    assert!(services::mezzo_open_check(&host, game).unwrap().is_none());
}
