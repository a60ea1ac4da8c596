//! Mezzo action checks through the services on the real SQLite file: live tallies and exact
//! odds, a scope perk, the roll kept in the log, Sudden Surges after it, the spends paid
//! (with adversity debt) and the first-check edge slots given when it resolves, "no check
//! needed", contested actions, ties broken by d12s or settled by a compromise, undo of each
//! step, and refusals that change nothing.

use rand::{rngs::StdRng, SeedableRng};
use sheetkeeper::rules::mezzo::action_check::{
    BaseChance, Cast, Direction, Law, Outcome, Phase, ScopePerk, SideKind, SideSetup, Surge,
};
use sheetkeeper::rules::mezzo::element::{Element, ElementKind, SlotAward};
use sheetkeeper::services::{self, CheckDraft, CheckRequest, DiceInput, MezzoElementView, PerkPurchase};
use uuid::Uuid;

use crate::support::{self, bytes_on_disk, mezzo_harbour, MezzoHarbour};

fn entered(values: &[u8]) -> DiceInput {
    DiceInput::Entered { values: values.to_vec() }
}

/// Players: Ada (an Actor who claimed Mira) and Bo.
type Table = support::Table<Harbour>;

struct Harbour {
    /// Characters: Mira (claimed by Ada, 4 adversity) and Rook.
    mira: Uuid,
    rook: Uuid,
    /// One of the table's own elements.
    wall: Uuid,
}

impl Table {
    fn new() -> Table {
        let MezzoHarbour { scratch, mut store, game, ada, bo, mira, rook } = mezzo_harbour();
        services::mezzo_gain_adversity(&mut store, game, mira, 4).unwrap();
        let view = services::mezzo_add_element(&mut store, game, ElementKind::Object, "Sea wall").unwrap().view;
        let wall = view.elements[0].element.id;
        Table { scratch, store, game, ada, bo, rng: StdRng::seed_from_u64(7), more: Harbour { mira, rook, wall } }
    }

    fn element(&self, id: Uuid) -> MezzoElementView {
        let v = services::mezzo_table(&self.store, self.game).unwrap();
        v.characters.into_iter().chain(v.elements).find(|e| e.element.id == id).unwrap()
    }

    fn el(&self, id: Uuid) -> Element {
        self.element(id).element
    }

    fn influence(&self, who: Uuid) -> u32 {
        let v = services::mezzo_table(&self.store, self.game).unwrap();
        v.players.into_iter().find(|p| p.player.id == who).unwrap().player.influence
    }

    fn bytes(&self) -> (Vec<u8>, Option<Vec<u8>>) {
        bytes_on_disk(&self.scratch.db())
    }
}

fn action(element: Uuid, chance: BaseChance, description: &str) -> SideSetup {
    SideSetup { kind: SideKind::Action { element }, description: description.into(), chance, aptitude: 0 }
}

fn failure(chance: BaseChance, description: &str) -> SideSetup {
    SideSetup { kind: SideKind::Failure, description: description.into(), chance, aptitude: 0 }
}

/// Mira climbs the sea wall (common), or falls (occasional); Ada spends 2 influence on the
/// climb, which buys Extended Coverage with one of its votes.
fn climb(t: &Table) -> CheckRequest {
    CheckRequest {
        setup: CheckDraft {
            description: "Over the sea wall".into(),
            sides: vec![
                action(t.more.mira, BaseChance::Common, "climbs the wall"),
                failure(BaseChance::Occasional, "falls"),
            ],
            involved: vec![t.more.wall],
        },
        casts: vec![Cast::Influence { player: t.ada, side: 0, points: 2 }],
        perks: vec![PerkPurchase { side: 0, perk: ScopePerk::ExtendedCoverage }],
    }
}

#[test]
fn a_check_with_a_scope_perk_and_sudden_surges_after_the_roll_pays_and_awards_when_it_resolves() {
    let mut t = Table::new();
    let request = climb(&t);
    // The preview: Mira's 2 base votes + 2 influence = 4, 1 spent on the perk: 3 votes, a d8;
    // the failure's 1 vote, a d4. d8 against d4: 22/32 above, 4/32 tied (split): 3/4.
    let preview = services::mezzo_check_preview(&t.store, t.game, &request).unwrap();
    let mira = preview.tallies[0];
    assert_eq!((mira.base, mira.influence, mira.total, mira.perks, mira.dice_votes), (2, 2, 4, 1, 3));
    assert_eq!((preview.tallies[1].total, preview.tallies[1].dice_votes), (1, 1));
    let dice: Vec<Vec<u8>> = preview.dice.iter().map(|d| d.as_ref().unwrap().dice.clone()).collect();
    assert_eq!(dice, vec![vec![8], vec![4]]);
    let exact: Vec<&str> = preview.odds.iter().map(|o| o.exact.as_str()).collect();
    assert_eq!(exact, ["3/4", "1/4"]);
    assert_eq!((preview.success[0].element, preview.success[0].odds.exact.as_str()), (t.more.mira, "3/4"));
    assert_eq!(preview.no_check_needed, None);
    assert!(preview.first_check_awards.is_empty(), "Mira and the wall had their slots when introduced");
    assert_eq!(preview.check.sides[0].perks, vec![ScopePerk::ExtendedCoverage]);
    assert_eq!(preview.check.phase, Phase::Perks);
    assert_eq!(preview.summary, "Mira (“climbs the wall”) (common): d8; Failure (“falls”) (occasional): d4.",);

    // The roll, typed in: the d8 shows 3, the d4 shows 4. Nothing is paid or awarded yet.
    let pending = services::mezzo_check_roll(&mut t.store, t.game, &request, &entered(&[3, 4]), &mut t.rng).unwrap();
    assert_eq!(pending.check.phase, Phase::Rolled);
    assert_eq!(pending.rolled, vec![Some(3), Some(4)]);
    assert_eq!(pending.tallies[0].perks, 1);
    assert_eq!(
        pending.summary,
        "Action check “Over the sea wall” rolled. Mira (“climbs the wall”): d8 shows 3; Failure (“falls”): d4 shows 4."
    );
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), Some(pending.clone()));
    assert_eq!((t.influence(t.ada), t.el(t.more.mira).adversity), (3, 4), "nothing is paid before the result");
    assert_eq!(
        (t.element(t.more.mira).edge_slots, t.element(t.more.wall).edge_slots),
        (6, 4),
        "4 from their introduction, 2 from Mira's claim"
    );
    // A second check cannot be rolled while this one waits.
    let err = services::mezzo_check_roll(&mut t.store, t.game, &request, &DiceInput::Rolled, &mut t.rng).unwrap_err();
    assert_eq!(err.to_string(), "check: a rolled check is already on the table: resolve it or undo it first");

    // A surge only Mira's claimer may buy: refused, nothing changes.
    let before = t.bytes();
    let by_bo = Surge { element: t.more.mira, by: t.bo, allow_debt: false };
    let err = services::mezzo_check_resolve(&mut t.store, t.game, &[by_bo]).unwrap_err();
    assert!(err.to_string().starts_with("surges[0].by: Mira is claimed by another player"), "{err}");
    // The second surge needs debt (1 adversity left, it costs 3): refused unless allowed.
    let surge = Surge { element: t.more.mira, by: t.ada, allow_debt: false };
    let err = services::mezzo_check_resolve(&mut t.store, t.game, &[surge, surge]).unwrap_err();
    assert!(err.to_string().starts_with("surges[1].adversity: Mira holds 1 adversity and this costs 3"), "{err}");
    assert_eq!(t.bytes(), before);

    // Two Sudden Surges after the roll: 3 + 2 = 5 beats the failure's 4 (without them the
    // failure takes effect; with one, a tie).
    let with_debt = Surge { allow_debt: true, ..surge };
    let out = services::mezzo_check_resolve(&mut t.store, t.game, &[surge, with_debt]).unwrap();
    assert_eq!(out.result.winner, Some(0));
    assert_eq!(out.result.check.scores(), vec![Some(5), Some(4)]);
    assert_eq!(out.result.check.surges.len(), 2);
    assert!(out.result.tied.is_empty());
    assert_eq!(
        out.result.summary,
        "Action check “Over the sea wall” resolved. Ada spends 2 influence. Mira spends 6 adversity (2 as debt). \
         Mira (“climbs the wall”) takes effect: Mira 5 (+2 Sudden Surges) against Failure 4."
    );
    assert_eq!(out.change.message, out.result.summary);
    // Paid: Ada's influence, Mira's adversity (4, then 2 as debt); no slots awarded: each
    // had its 4 when introduced.
    assert_eq!(t.influence(t.ada), 1);
    let m = t.el(t.more.mira);
    assert_eq!((m.adversity, m.adversity_debt), (0, 2));
    assert_eq!((t.element(t.more.mira).edge_slots, t.element(t.more.wall).edge_slots), (6, 4));
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), None);
    let log = services::mezzo_log(&t.store, t.game, 5).unwrap();
    assert_eq!(log[0].action, out.result.summary);

    // Undo the resolution: everything paid and awarded is back, and the rolled check waits
    // again; undo once more: the dice are off the table, nothing else changes.
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!((t.influence(t.ada), t.el(t.more.mira).adversity, t.el(t.more.mira).adversity_debt), (3, 4, 0));
    assert_eq!((t.element(t.more.mira).edge_slots, t.element(t.more.wall).edge_slots), (6, 4));
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), Some(pending));
    let table = t.store.read().mezzo_table(t.game).unwrap();
    let done = services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(done.message, "Undone: the dice of “Over the sea wall” are off the table.");
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), None);
    assert_eq!(t.store.read().mezzo_table(t.game).unwrap(), table);
    assert_eq!(t.el(t.more.mira).adversity, 4);
    // The next undo is the move before the check: the sea wall leaves the story.
    let done = services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(done.message, "Undone: The object Sea wall enters the story with 4 edge slots.");
    let err = services::mezzo_check_resolve(&mut t.store, t.game, &[]).unwrap_err();
    assert_eq!(err.to_string(), "check: no action check is on the table: roll one first");
}

/// An element made before the introduction grant (its first-check award not yet had, as an
/// older version stored it) still gets its 4 slots: named by the preview, given before the
/// check by "Give the slots now" (the award service), and then its check gives nothing more.
#[test]
fn an_element_from_an_older_version_gets_its_first_check_slots_once() {
    let mut t = Table::new();
    let conn = rusqlite::Connection::open(t.scratch.db()).unwrap();
    let old =
        conn.execute("UPDATE mz_elements SET first_action_check = 0 WHERE id = ?1", [t.more.wall.to_string()]).unwrap();
    assert_eq!(old, 1);
    drop(conn);
    assert_eq!(t.element(t.more.wall).edge_slots, 0);
    let request = climb(&t);
    let preview = services::mezzo_check_preview(&t.store, t.game, &request).unwrap();
    assert_eq!(preview.first_check_awards, vec![t.more.wall], "only the wall, Mira had hers when introduced");
    services::mezzo_award_edge_slots(&mut t.store, t.game, t.more.wall, SlotAward::FirstActionCheck).unwrap();
    assert_eq!(t.element(t.more.wall).edge_slots, 4);
    let preview = services::mezzo_check_preview(&t.store, t.game, &request).unwrap();
    assert!(preview.first_check_awards.is_empty(), "given once");
}

#[test]
fn no_check_is_needed_when_one_side_is_negligible_and_nothing_is_rolled() {
    let mut t = Table::new();
    let mut request = climb(&t);
    request.setup.sides[1].chance = BaseChance::Negligible;
    request.casts.clear();
    request.perks.clear();
    let preview = services::mezzo_check_preview(&t.store, t.game, &request).unwrap();
    assert_eq!(preview.no_check_needed, Some(0));
    assert_eq!(preview.check.outcome, Some(Outcome::NoCheckNeeded { winner: 0 }));
    assert_eq!(preview.summary, "No check is needed: Mira (“climbs the wall”) takes effect.");
    let exact: Vec<&str> = preview.odds.iter().map(|o| o.exact.as_str()).collect();
    assert_eq!(exact, ["1/1", "0/1"]);
    assert!(preview.first_check_awards.is_empty() && preview.dice.iter().all(Option::is_none));
    // Nothing to roll, and nothing may be cast: refused, naming the field, changing nothing.
    let before = t.bytes();
    let err = services::mezzo_check_roll(&mut t.store, t.game, &request, &DiceInput::Rolled, &mut t.rng).unwrap_err();
    assert_eq!(
        err.to_string(),
        "setup.sides: no check is needed: Mira (“climbs the wall”) takes effect without a roll"
    );
    let with_vote = CheckRequest { casts: climb(&t).casts, ..request.clone() };
    let err = services::mezzo_check_preview(&t.store, t.game, &with_vote).unwrap_err();
    assert!(err.to_string().starts_with("casts: no check is needed: side 0 takes effect"), "{err}");
    // Both sides negligible: the table agrees the odds first.
    request.setup.sides[0].chance = BaseChance::Negligible;
    let err = services::mezzo_check_preview(&t.store, t.game, &request).unwrap_err();
    assert!(err.to_string().starts_with("setup.sides: every side is negligible"), "{err}");
    // An Aptitude makes the negligible action occasional: a check again.
    request.setup.sides[0].aptitude = 1;
    request.setup.sides[1].chance = BaseChance::Common;
    let preview = services::mezzo_check_preview(&t.store, t.game, &request).unwrap();
    assert_eq!((preview.no_check_needed, preview.tallies[0].base), (None, 1));
    assert_eq!(t.bytes(), before);
}

#[test]
fn contested_actions_roll_each_side_and_a_tie_is_broken_by_d12s_or_a_compromise() {
    let mut t = Table::new();
    let request = CheckRequest {
        setup: CheckDraft {
            description: "The key on the table".into(),
            sides: vec![
                action(t.more.mira, BaseChance::Common, "grabs the key"),
                action(t.more.rook, BaseChance::Common, "grabs it first"),
            ],
            involved: vec![],
        },
        casts: vec![
            Cast::Law {
                player: t.bo,
                side: 1,
                law: Law::Consistency { fact: "Rook is quick".into() },
                direction: Direction::For,
            },
            Cast::Law { player: t.ada, side: 1, law: Law::Potential, direction: Direction::Against },
        ],
        perks: vec![],
    };
    // Two d6 (the laws cancel out on Rook's side): even odds.
    let preview = services::mezzo_check_preview(&t.store, t.game, &request).unwrap();
    assert_eq!((preview.tallies[1].laws_cast, preview.tallies[1].total), (0, 2));
    let exact: Vec<&str> = preview.odds.iter().map(|o| o.exact.as_str()).collect();
    assert_eq!(exact, ["1/2", "1/2"]);
    assert_eq!(preview.success.iter().map(|s| s.element).collect::<Vec<_>>(), vec![t.more.mira, t.more.rook]);
    services::mezzo_check_roll(&mut t.store, t.game, &request, &entered(&[5, 5]), &mut t.rng).unwrap();
    // 5 against 5: the result is logged (and both get their first-check slots), the tie waits.
    let out = services::mezzo_check_resolve(&mut t.store, t.game, &[]).unwrap();
    assert_eq!((out.result.winner, out.result.tied.clone()), (None, vec![0, 1]));
    assert!(
        out.result.summary.ends_with("Break it with a d12 per tied side, or agree a compromise."),
        "{}",
        out.result.summary
    );
    assert_eq!((t.element(t.more.mira).edge_slots, t.element(t.more.rook).edge_slots), (6, 4));
    let tied = services::mezzo_check_pending(&t.store, t.game).unwrap().unwrap();
    assert_eq!((tied.check.phase, tied.tied.clone()), (Phase::Tied, vec![0, 1]));
    let err = services::mezzo_check_resolve(&mut t.store, t.game, &[]).unwrap_err();
    assert_eq!(err.to_string(), "check: the check is tied: break the tie or agree a compromise");
    let err = services::mezzo_check_roll(&mut t.store, t.game, &request, &DiceInput::Rolled, &mut t.rng).unwrap_err();
    assert!(err.to_string().contains("a tied check is already on the table"), "{err}");

    // Typed-in d12s: 7 against 7 is still tied (logged, still waiting); 3 against 9: Rook.
    let again = services::mezzo_check_break_tie(&mut t.store, t.game, &entered(&[7, 7]), &mut t.rng).unwrap();
    assert_eq!((again.result.winner, again.result.tied.clone()), (None, vec![0, 1]));
    assert!(again.result.summary.contains("still tied"), "{}", again.result.summary);
    let err = services::mezzo_check_break_tie(&mut t.store, t.game, &entered(&[3, 9, 1]), &mut t.rng).unwrap_err();
    assert_eq!(err.to_string(), "dice: 3 values were entered but the tiebreak used 2");
    let won = services::mezzo_check_break_tie(&mut t.store, t.game, &entered(&[3, 9]), &mut t.rng).unwrap();
    assert_eq!(won.result.winner, Some(1));
    assert_eq!(won.result.check.outcome, Some(Outcome::Won { winner: 1, tiebreak: true }));
    assert_eq!(won.result.check.tiebreaks.len(), 2);
    assert_eq!(
        won.result.summary,
        "Action check “The key on the table”: tie broken by d12s (3 against 9): Rook (“grabs it first”) takes effect."
    );
    assert_eq!(won.result.check.succeeded(t.more.rook), Some(true));
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), None);

    // Undo the tiebreak: the tie (after its first round) waits again; the table settles it
    // with a compromise instead.
    services::undo_game(&mut t.store, t.game).unwrap();
    let tied = services::mezzo_check_pending(&t.store, t.game).unwrap().unwrap();
    assert_eq!((tied.check.phase, tied.check.tiebreaks.len()), (Phase::Tied, 1));
    let err = services::mezzo_check_compromise(&mut t.store, t.game, "  ").unwrap_err();
    assert_eq!(err.to_string(), "text: describe the compromise");
    let agreed = services::mezzo_check_compromise(&mut t.store, t.game, "They each hold an end").unwrap();
    assert_eq!(
        agreed.result.check.outcome,
        Some(Outcome::Compromise { sides: vec![0, 1], text: "They each hold an end".into() })
    );
    assert_eq!(
        agreed.result.summary,
        "Action check “The key on the table”: Settled by compromise: “They each hold an end”."
    );
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), None);

    // Undo walks back: the compromise, the still-tied round, the tie itself (its result stays),
    // then the resolution (the rolled check waits again).
    services::undo_game(&mut t.store, t.game).unwrap();
    services::undo_game(&mut t.store, t.game).unwrap();
    services::undo_game(&mut t.store, t.game).unwrap();
    let tie_off = services::undo_game(&mut t.store, t.game).unwrap();
    assert!(
        tie_off.message.starts_with("Undone: the tie of “The key on the table” is off the table"),
        "{}",
        tie_off.message
    );
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), None);
    assert_eq!(t.element(t.more.rook).edge_slots, 4);
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.element(t.more.rook).edge_slots, 4, "introduced with them, not given by the check");
    let rolled = services::mezzo_check_pending(&t.store, t.game).unwrap().unwrap();
    assert_eq!((rolled.check.phase, rolled.rolled.clone()), (Phase::Rolled, vec![Some(5), Some(5)]));

    // The app's own tiebreak dice always settle it.
    services::mezzo_check_resolve(&mut t.store, t.game, &[]).unwrap();
    let won = services::mezzo_check_break_tie(&mut t.store, t.game, &DiceInput::Rolled, &mut t.rng).unwrap();
    assert!(won.result.winner.is_some());
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), None);
}

#[test]
fn a_refused_cast_names_its_field_and_changes_nothing() {
    let mut t = Table::new();
    let before = t.bytes();
    let refused = |t: &mut Table, request: &CheckRequest, words: &str| {
        let err = services::mezzo_check_roll(&mut t.store, t.game, request, &entered(&[1, 1]), &mut t.rng).unwrap_err();
        assert_eq!(err.to_string(), words);
        let err = services::mezzo_check_preview(&t.store, t.game, request).unwrap_err();
        assert_eq!(err.to_string(), words);
    };
    // More influence than Ada holds.
    let mut request = climb(&t);
    request.casts[0] = Cast::Influence { player: t.ada, side: 0, points: 4 };
    refused(&mut t, &request, "casts[0].points: Ada holds 3 influence, not 4");
    // A player invokes a second law.
    let mut request = climb(&t);
    let law = |fact: &str| Cast::Law {
        player: t.bo,
        side: 1,
        law: Law::Consistency { fact: fact.into() },
        direction: Direction::For,
    };
    request.casts.extend([law("Wet stones"), law("Loose mortar")]);
    refused(&mut t, &request, "casts[2].law: Bo already invoked a law in this check");
    // Fortune's Favor paid by a player who does not hold Mira's claim.
    let mut request = climb(&t);
    request.casts.push(Cast::FortunesFavor { element: t.more.mira, by: t.bo, allow_debt: false });
    refused(&mut t, &request, "casts[1].by: Mira is claimed by another player: only they may spend its adversity");
    // A perk before the one it needs, and a side that is not there.
    let mut request = climb(&t);
    request.perks = vec![PerkPurchase { side: 0, perk: ScopePerk::LocalCoverage }];
    refused(&mut t, &request, "perks[0].perk: Local Coverage needs Extended Coverage first");
    let mut request = climb(&t);
    request.casts[0] = Cast::Influence { player: t.ada, side: 5, points: 1 };
    refused(&mut t, &request, "casts[0].side: there is no side 5");
    // A setup naming an element that is not at the table.
    let mut request = climb(&t);
    request.setup.involved = vec![Uuid::from_u128(9)];
    refused(&mut t, &request, &format!("setup.involved[0]: element {} is not at the table", Uuid::from_u128(9)));
    // Typed-in dice the check cannot use.
    let request = climb(&t);
    let err = services::mezzo_check_roll(&mut t.store, t.game, &request, &entered(&[9, 1]), &mut t.rng).unwrap_err();
    assert_eq!(err.to_string(), "sides[0][0]: 9 cannot be rolled on a d8 (1 to 8)");
    let err = services::mezzo_check_roll(&mut t.store, t.game, &request, &entered(&[1, 1, 1]), &mut t.rng).unwrap_err();
    assert_eq!(err.to_string(), "dice: 3 values were entered but this roll uses 2 dice");
    // Nothing on the table to settle, undo or break.
    let err = services::mezzo_check_break_tie(&mut t.store, t.game, &DiceInput::Rolled, &mut t.rng).unwrap_err();
    assert_eq!(err.to_string(), "check: no action check is on the table: roll one first");
    assert_eq!(t.bytes(), before);
    // A check is a Mezzo game's.
    let nsu = services::create_game(&mut t.store, "Elsewhere", "nsu").unwrap().game.id;
    let err = services::mezzo_check_pending(&t.store, nsu).unwrap_err();
    assert!(err.to_string().starts_with("game: "), "{err}");
}

#[test]
fn a_d6_table_rolls_its_checks_with_one_d6_a_side_and_each_owner_chooses_the_burst() {
    use sheetkeeper::rules::mezzo::conflict::Variant;
    let mut t = Table::new();
    let change = services::mezzo_set_dice_variant(&mut t.store, t.game, Variant::D6).unwrap();
    assert_eq!(change.view.variant, Variant::D6);
    assert!(change.message.starts_with("The table rolls the D6 variant from now on"), "{}", change.message);
    let err = services::mezzo_set_dice_variant(&mut t.store, t.game, Variant::D6).unwrap_err();
    assert_eq!(err.to_string(), "variant: the table already rolls this way");
    let request = CheckRequest { casts: vec![], perks: vec![], ..climb(&t) };

    // Mira's 2 votes: d6 ×1, may burst on 1–2; the failure's 1: d6 ×1, may burst on 1. The
    // odds assume each owner bursts when it raises the expected score.
    let preview = services::mezzo_check_preview(&t.store, t.game, &request).unwrap();
    let exact: Vec<&str> = preview.odds.iter().map(|o| o.exact.as_str()).collect();
    assert_eq!(exact, ["65/108", "43/108"]);
    assert_eq!(
        preview.summary,
        "Mira (“climbs the wall”) (common): d6 ×1, may burst on 1–2; Failure (“falls”) (occasional): d6 ×1, may burst on 1."
    );

    // The first roll: Mira 2 (within her threshold), the failure 5 (above its own).
    let pending = services::mezzo_check_roll(&mut t.store, t.game, &request, &entered(&[2, 5]), &mut t.rng).unwrap();
    assert_eq!((pending.open_bursts.clone(), pending.suggested_bursts.clone()), (vec![0], vec![0]));
    assert_eq!(
        pending.summary,
        "Action check “Over the sea wall” rolled. Mira (“climbs the wall”): d6 shows 2 ×1 = 2 (may burst); \
         Failure (“falls”): d6 shows 5 ×1 = 5."
    );
    let before = t.bytes();
    let err = services::mezzo_check_resolve(&mut t.store, t.game, &[]).unwrap_err();
    assert!(err.to_string().starts_with("bursts: side 0 may still burst"), "{err}");
    let err = services::mezzo_check_burst(&mut t.store, t.game, &[1], &entered(&[3]), &mut t.rng).unwrap_err();
    assert_eq!(err.to_string(), "bursts[0]: side 1 has no burst to choose");
    assert_eq!(t.bytes(), before);

    // Mira's owner bursts: ×2 and a reroll of 4 score 8.
    let burst = services::mezzo_check_burst(&mut t.store, t.game, &[0], &entered(&[4]), &mut t.rng).unwrap();
    assert!(burst.open_bursts.is_empty());
    assert_eq!(burst.rolled, vec![Some(8), Some(5)]);
    assert!(burst.summary.contains("d6 shows 2 ×1 = 2, bursts: d6 shows 4 ×2 = 8"), "{}", burst.summary);
    // Undo takes the choice back; the first roll waits for it again.
    let done = services::undo_game(&mut t.store, t.game).unwrap();
    assert!(
        done.message.starts_with("Undone: the burst choices of “Over the sea wall” are taken back"),
        "{}",
        done.message
    );
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), Some(pending));

    // This time she keeps her 2, though the app suggested the burst: the failure takes effect.
    let kept = services::mezzo_check_burst(&mut t.store, t.game, &[], &entered(&[]), &mut t.rng).unwrap();
    assert!(kept.summary.contains("d6 shows 2 ×1 = 2, kept"), "{}", kept.summary);
    let out = services::mezzo_check_resolve(&mut t.store, t.game, &[]).unwrap();
    assert_eq!((out.result.winner, out.result.check.scores()), (Some(1), vec![Some(2), Some(5)]));

    // Back to step dice: the next check rolls a d6 for Mira's 2 votes and a d4 for the failure.
    services::mezzo_set_dice_variant(&mut t.store, t.game, Variant::Steps).unwrap();
    let preview = services::mezzo_check_preview(&t.store, t.game, &request).unwrap();
    let dice: Vec<Vec<u8>> = preview.dice.iter().map(|d| d.as_ref().unwrap().dice.clone()).collect();
    assert_eq!(dice, vec![vec![6], vec![4]]);
    assert!(preview.dice[0].as_ref().unwrap().d6.is_none());
}

#[test]
fn a_scene_keeps_who_is_active_and_its_end_takes_the_phantom_edge_of_a_background() {
    use sheetkeeper::rules::mezzo::element::{AdversitySpend, Template, Trait, TraitKind, Via};
    let mut t = Table::new();
    let view = services::mezzo_set_active(&mut t.store, t.game, &[t.more.mira, t.more.wall]).unwrap().view;
    assert_eq!(view.scene.active, vec![t.more.mira, t.more.wall]);
    let err = services::mezzo_set_active(&mut t.store, t.game, &[t.more.mira, t.more.mira]).unwrap_err();
    assert_eq!(err.to_string(), "active[1]: each element is active once");
    let err = services::mezzo_end_scene(&mut t.store, t.game).unwrap_err();
    assert_eq!(err.to_string(), "scene: no scene is being played: start one first");
    let change = services::mezzo_start_scene(&mut t.store, t.game).unwrap();
    assert!(change.view.scene.open);
    // Stored: a fresh read (a reload) finds the scene and who is active.
    let again = services::mezzo_table(&t.store, t.game).unwrap();
    assert_eq!((again.scene.open, again.scene.active.clone()), (true, vec![t.more.mira, t.more.wall]));

    // Mira's Background buys a phantom edge for 1 adversity; it lasts the scene.
    let draft = crate::support::trait_draft(Some(Template::Background), None, "Harbour rat", Via::Granted);
    let background = services::mezzo_add_trait(&mut t.store, t.game, t.more.mira, None, draft).unwrap().view;
    let bg = background.characters.iter().find(|c| c.element.id == t.more.mira).unwrap();
    let bg = bg.element.traits.iter().find(|x| x.name == "Harbour rat").unwrap().id;
    let edge = Trait::new(Uuid::new_v4(), TraitKind::Edge, "Knows the docks", Via::Granted);
    let spend = AdversitySpend::Background { background: bg, edge: Box::new(edge) };
    services::mezzo_spend_adversity(&mut t.store, t.game, t.more.mira, Some(t.ada), spend, false).unwrap();
    assert!(t.el(t.more.mira).traits.iter().any(|x| x.name == "Knows the docks"));
    assert_eq!(t.el(t.more.mira).adversity, 3);

    let change = services::mezzo_end_scene(&mut t.store, t.game).unwrap();
    assert_eq!(change.message, "The scene ends: 1 trait that lasted the scene is gone.");
    assert!(!change.view.scene.open);
    assert!(!t.el(t.more.mira).traits.iter().any(|x| x.name == "Knows the docks"), "the phantom edge is gone");
    assert!(t.el(t.more.mira).traits.iter().any(|x| x.name == "Harbour rat"), "the Background stays");
    // Undo brings the scene and the edge back.
    services::undo_game(&mut t.store, t.game).unwrap();
    assert!(services::mezzo_table(&t.store, t.game).unwrap().scene.open);
    assert!(t.el(t.more.mira).traits.iter().any(|x| x.name == "Knows the docks"));
}

#[test]
fn a_check_resolved_with_nothing_attempted_takes_its_attempt_later_on_its_log_entry() {
    let mut t = Table::new();
    // A one-tap check: nothing typed as its attempt. Mira's d8 shows 7, the failure's d4 2.
    let mut request = climb(&t);
    request.setup.description = String::new();
    services::mezzo_check_roll(&mut t.store, t.game, &request, &entered(&[7, 2]), &mut t.rng).unwrap();
    services::mezzo_check_resolve(&mut t.store, t.game, &[]).unwrap();
    let log = services::mezzo_log(&t.store, t.game, 50).unwrap();
    let resolved = log.iter().find(|e| e.attempt.is_some()).expect("the resolving move is marked").clone();
    assert_eq!(resolved.attempt.as_ref().unwrap().written, None);
    assert!(resolved.action.starts_with("Action check resolved."), "{}", resolved.action);
    assert_eq!(log.iter().filter(|e| e.attempt.is_some()).count(), 1, "only the resolving move");

    // Refused: empty words, a move that resolved no check; nothing changes.
    let before = t.bytes();
    let empty = services::mezzo_check_write_attempt(&mut t.store, t.game, resolved.seq, "  ").unwrap_err();
    assert!(empty.to_string().starts_with("attempt: "), "{empty}");
    let other = log.iter().find(|e| e.attempt.is_none() && !e.dice).unwrap().seq;
    let not_a_check = services::mezzo_check_write_attempt(&mut t.store, t.game, other, "x").unwrap_err();
    assert!(not_a_check.to_string().starts_with("move: "), "{not_a_check}");
    assert_eq!(t.bytes(), before);

    // Written, then put better: the newest words stand, on that entry.
    let done = services::mezzo_check_write_attempt(&mut t.store, t.game, resolved.seq, "Over the wal").unwrap();
    assert_eq!(done.message, "The action check attempted: “Over the wal”.");
    services::mezzo_check_write_attempt(&mut t.store, t.game, resolved.seq, " Over the sea wall ").unwrap();
    let log = services::mezzo_log(&t.store, t.game, 50).unwrap();
    let entry = log.iter().find(|e| e.seq == resolved.seq).unwrap();
    assert_eq!(entry.attempt.as_ref().unwrap().written.as_deref(), Some("Over the sea wall"));
    // It changes nothing: undo passes over it and takes back the check's resolution.
    let influence = t.influence(t.ada);
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_ne!(t.influence(t.ada), influence, "the resolution was undone, not the words");
    let taken_back = services::mezzo_check_write_attempt(&mut t.store, t.game, resolved.seq, "x").unwrap_err();
    assert_eq!(taken_back.to_string(), "move: that check was taken back with undo");
}
