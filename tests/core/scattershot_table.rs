//! Scattershot's Mechanix at a real table, through the services against a real SQLite file:
//! Telling Blow points taken as complications for the subject, a resistor's success against
//! the actor, the UE chart the group filled in, residual modifiers that end with the session
//! or mechanical play, the Gamemaster's common stock paying the Gamemaster's awards, and
//! non-player characters driving the Scope-shift reminder. Every move is undone.

use sheetkeeper::rules::scattershot::made_it_by::{Party, Reading};
use sheetkeeper::rules::scattershot::rewards::{Giver, SessionRewards, Vote};
use sheetkeeper::rules::scattershot::sheet::{Lasts, Purchase, Resource, Statistic};
use sheetkeeper::rules::scattershot::ue_chart::UeRow;
use sheetkeeper::services::{self, *};
use uuid::Uuid;

use crate::support::{self, bytes_on_disk, invalid, scattershot_request, scattershot_typed, Scratch};

/// What the table tests of Scattershot's Mechanix add to the table: nothing.
struct AtTheTable;

type Table = support::Table<AtTheTable>;

fn table() -> Table {
    Table::rust_belt(0, AtTheTable)
}

fn rng() -> rand::rngs::StdRng {
    rand::SeedableRng::seed_from_u64(16)
}

impl Table {
    fn roll(&mut self, step: RollMove, values: &[u8]) -> ScattershotChange {
        let dice = DiceInput::Entered { values: values.to_vec() };
        let mut rng = rng();
        services::scattershot_roll(&mut self.store, self.game, &step, &dice, &mut rng)
            .unwrap_or_else(|e| panic!("{step:?}: {e}"))
    }

    fn start(&mut self, request: RollRequest) -> ScattershotChange {
        self.roll(RollMove::Start { request: Box::new(request) }, &[])
    }

    fn edit(&mut self, edit: TableEdit) -> ScattershotChange {
        services::scattershot_table_edit(&mut self.store, self.game, &edit).unwrap_or_else(|e| panic!("{edit:?}: {e}"))
    }

    fn sheet_edit(&mut self, who: Uuid, edit: SheetEdit) -> ScattershotSheetChange {
        services::scattershot_sheet_edit(&mut self.store, who, &edit).unwrap_or_else(|e| panic!("{edit:?}: {e}"))
    }

    fn hit_points(&self, who: Uuid) -> i32 {
        services::scattershot_sheet(&self.store, who).unwrap().sheet.current(Resource::HitPoints)
    }

    fn temporary(&self, who: Uuid) -> i32 {
        services::scattershot_sheet(&self.store, who).unwrap().temporary_modifier
    }
}

#[test]
fn a_telling_blow_s_point_is_taken_as_a_complication_for_the_subject_and_undone() {
    let mut t = table();
    let target = Target { character: t.bo, resource: Resource::HitPoints };
    t.start(RollRequest {
        target: Some(target),
        ..scattershot_request(SideDraft { character: Some(t.ada), ..scattershot_typed(16) }, None)
    });
    t.roll(RollMove::Dice { party: Party::Actor }, &[1, 1]);
    t.roll(RollMove::Decide, &[]);
    let change = t.roll(RollMove::Conclude, &[]);
    let outcome = change.view.roll.unwrap().state.roll.outcome.unwrap();
    assert_eq!((outcome.reading, outcome.juncture_points), (Reading::TellingBlow, 1));
    let (field, _) = invalid(services::scattershot_roll(
        &mut t.store,
        t.game,
        &RollMove::Juncture { to_actor: 1, to_subject: 1 },
        &DiceInput::Rolled,
        &mut rng(),
    ));
    assert_eq!(field, "to_subject", "the points are split, not doubled");
    let change = t.roll(RollMove::Juncture { to_actor: 0, to_subject: 1 }, &[]);
    assert_eq!(change.message, "Telling Blow: 0 benefit(s) for Ada, 1 complication(s) for Bo.");
    let juncture = change.view.roll.unwrap().state.roll.juncture.unwrap();
    assert_eq!((juncture.to_actor, juncture.to_subject), (0, 1));
    services::undo_game(&mut t.store, t.game).unwrap();
    assert!(t.view_roll_juncture().is_none(), "undone: the points wait for the choice again");
}

impl Table {
    fn view_roll_juncture(&self) -> Option<sheetkeeper::rules::scattershot::made_it_by::Juncture> {
        services::scattershot_table(&self.store, self.game).unwrap().roll.unwrap().state.roll.juncture
    }
}

#[test]
fn a_negative_rmib_takes_from_the_actor_s_side_at_once() {
    let mut t = table();
    let (ada, bo) = (t.ada, t.bo);
    let against_ada = Target { character: ada, resource: Resource::HitPoints };
    t.start(RollRequest {
        target: Some(Target { character: bo, resource: Resource::HitPoints }),
        resistor_target: Some(against_ada),
        ..scattershot_request(
            SideDraft { character: Some(ada), ..scattershot_typed(10) },
            Some(SideDraft { character: Some(bo), ..scattershot_typed(12) }),
        )
    });
    t.roll(RollMove::Dice { party: Party::Actor }, &[4, 4]);
    t.roll(RollMove::Dice { party: Party::RESISTOR }, &[3, 3]);
    t.roll(RollMove::Decide, &[]);
    // 2 against 6: RMIB -4, Bo's success against Ada.
    let change = t.roll(RollMove::Conclude, &[]);
    assert_eq!(change.message, "The roll ends at -4: a failure. Ada loses 4 Hit Points.");
    assert_eq!((t.hit_points(ada), t.hit_points(bo)), (6, 10));
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.hit_points(ada), 10);
    // Only a contest has a resistor's result.
    let alone = RollRequest { resistor_target: Some(against_ada), ..scattershot_request(scattershot_typed(10), None) };
    let (field, _) = invalid(services::scattershot_roll_preview(&t.store, t.game, &alone));
    assert_eq!(field, "resistor_target");
}

#[test]
fn the_ue_chart_gives_the_factor_at_the_magnitude_and_the_bonus_at_the_mib() {
    let mut t = table();
    let row = |index, factor, points, bonus, magnitude: &str| UeRow {
        index,
        factor,
        points,
        bonus,
        magnitude: magnitude.into(),
    };
    let change = t.edit(TableEdit::UeChart {
        rows: vec![row(5, 3, 2, 2, " a room "), row(1, 1, 1, 1, "a person"), row(3, 2, 1, 1, "")],
    });
    assert_eq!(change.message, "The UE chart has 3 row(s).");
    assert_eq!(change.view.ue_chart.iter().map(|r| r.index).collect::<Vec<_>>(), [1, 3, 5]);
    assert_eq!(change.view.ue_chart[2].magnitude, "a room");
    let (field, _) = invalid(services::scattershot_table_edit(
        &mut t.store,
        t.game,
        &TableEdit::UeChart { rows: vec![row(1, 1, 1, 1, ""), row(1, 2, 1, 1, "")] },
    ));
    assert_eq!(field, "rows[1].index");

    // Magnitude 4 reads the row at 3: Factor 2. The MIB 5 reads the row at 5: Bonus 2.
    let target = Target { character: t.bo, resource: Resource::HitPoints };
    let preview = services::scattershot_roll_preview(
        &t.store,
        t.game,
        &RollRequest { magnitude: Some(4), target: Some(target), ..scattershot_request(scattershot_typed(12), None) },
    )
    .unwrap();
    assert_eq!(preview.facets.factor, 2);
    t.start(RollRequest {
        magnitude: Some(4),
        target: Some(target),
        ..scattershot_request(
            SideDraft { character: Some(t.ada), description: "Kick the door".into(), ..scattershot_typed(12) },
            None,
        )
    });
    t.roll(RollMove::Dice { party: Party::Actor }, &[3, 4]);
    t.roll(RollMove::Decide, &[]);
    let change = t.roll(RollMove::Conclude, &[]);
    assert_eq!(change.message, "The roll ends at 5: a success. Bo loses 10 Hit Points.");
    assert_eq!(change.view.roll.unwrap().state.roll.residual_bonus(), Some(2));
    // The Bonus is kept on Ada until the session ends, and raises her next roll.
    t.edit(start_session("2026-11-30"));
    let change = t.roll(RollMove::RecordBonus { lasts: Lasts::Session }, &[]);
    assert_eq!(change.message, "Ada keeps a residual modifier of +2 (until the end of the session).");
    assert_eq!(t.temporary(t.ada), 2);
    let preview = services::scattershot_roll_preview(
        &t.store,
        t.game,
        &scattershot_request(SideDraft { character: Some(t.ada), ..scattershot_typed(10) }, None),
    )
    .unwrap();
    assert_eq!((preview.actor.temporary, preview.actor.modifier), (2, 2));
    let (field, _) = invalid(services::scattershot_roll(
        &mut t.store,
        t.game,
        &RollMove::RecordBonus { lasts: Lasts::Session },
        &DiceInput::Rolled,
        &mut rng(),
    ));
    assert_eq!(field, "roll", "a Bonus is kept once");
    let change = t.edit(TableEdit::EndSession);
    assert_eq!(change.message, "Session 1 ends; residual modifiers end for Ada.");
    assert_eq!(t.temporary(t.ada), 0);
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.temporary(t.ada), 2, "undoing the session's end brings the Bonus back");
}

#[test]
fn residual_modifiers_are_added_and_removed_on_the_sheet_and_end_with_mechanical_play() {
    let mut t = table();
    let (ada, bo) = (t.ada, t.bo);
    let change = t.sheet_edit(
        ada,
        SheetEdit::AddModifier { text: "Off balance".into(), value: -2, lasts: Lasts::MechanicalPlay },
    );
    assert_eq!(change.message, "Ada keeps Off balance (-2, until mechanical play ends).");
    t.sheet_edit(ada, SheetEdit::AddModifier { text: "Blessed".into(), value: 1, lasts: Lasts::UntilRemoved });
    assert_eq!(t.temporary(ada), -1);
    let seating = vec![SeatDraft { character: ada, player: None }, SeatDraft { character: bo, player: None }];
    services::scattershot_play(&mut t.store, t.game, &PlayMove::Start { caller: ada, seating, cinematic: false })
        .unwrap();
    let change = services::scattershot_play(&mut t.store, t.game, &PlayMove::End).unwrap();
    assert_eq!(change.message, "Mechanical play ends after 1 round(s); the lull; residual modifiers end for Ada.");
    assert_eq!(t.temporary(ada), 1);
    let change = t.sheet_edit(ada, SheetEdit::RemoveModifier { index: 0 });
    assert_eq!(change.message, "Ada's Blessed (+1) ends.");
    services::undo_character(&mut t.store, ada).unwrap();
    assert_eq!(t.temporary(ada), 1, "the removal is undone");
    let before = bytes_on_disk(&t.scratch.db());
    let (field, _) = invalid(services::scattershot_sheet_edit(
        &mut t.store,
        ada,
        &SheetEdit::AddModifier { text: "Huge".into(), value: 150, lasts: Lasts::Session },
    ));
    assert_eq!(field, "value");
    assert_eq!(bytes_on_disk(&t.scratch.db()), before, "a refused edit writes nothing");
}

#[test]
fn the_gamemaster_s_awards_come_out_of_the_common_stock() {
    let mut t = table();
    let (ada, bo, game) = (t.ada, t.bo, t.game);
    let gm_award = RewardMove::OnTheSpot { giver: Giver::Gamemaster, to: ada, dice: 2, note: "a fine scene".into() };
    let before = bytes_on_disk(&t.scratch.db());
    let (field, problem) = invalid(services::scattershot_reward(&mut t.store, game, &gm_award));
    assert_eq!(
        (field.as_str(), problem.as_str()),
        ("dice", "the Gamemaster's common stock holds 0 experience dice, fewer than 2")
    );
    assert_eq!(bytes_on_disk(&t.scratch.db()), before);
    t.edit(TableEdit::GmDice { dice: 3 });
    let change = services::scattershot_reward(&mut t.store, game, &gm_award).unwrap();
    assert_eq!(change.view.gm_dice, 1);
    t.sheet_edit(bo, SheetEdit::SetExperienceDice { dice: 2 });
    let replaced =
        RewardMove::OnTheSpot { giver: Giver::Player { from: bo, replaced: true }, to: ada, dice: 2, note: "".into() };
    let (field, _) = invalid(services::scattershot_reward(&mut t.store, game, &replaced));
    assert_eq!(field, "dice", "the stock cannot replace 2");
    let replaced =
        RewardMove::OnTheSpot { giver: Giver::Player { from: bo, replaced: true }, to: ada, dice: 1, note: "".into() };
    let change = services::scattershot_reward(&mut t.store, game, &replaced).unwrap();
    let dice = |v: &ScattershotView, id| v.characters.iter().find(|c| c.id == id).unwrap().experience_dice;
    assert_eq!((change.view.gm_dice, dice(&change.view, ada), dice(&change.view, bo)), (0, 3, 2));
    services::undo_game(&mut t.store, game).unwrap();
    assert_eq!(services::scattershot_table(&t.store, game).unwrap().gm_dice, 1);
}

fn start_session(date: &str) -> TableEdit {
    TableEdit::StartSession { date: date.into(), attendees: None }
}

#[test]
fn sessions_start_and_end_and_the_post_session_reward_names_its_session() {
    let mut t = table();
    let (field, _) = invalid(services::scattershot_table_edit(&mut t.store, t.game, &TableEdit::EndSession));
    assert_eq!(field, "session");
    assert_eq!(t.edit(start_session("2026-11-30")).message, "Session 1 begins.");
    let (field, _) = invalid(services::scattershot_table_edit(&mut t.store, t.game, &start_session("2026-11-30")));
    assert_eq!(field, "session");
    let change = t.edit(TableEdit::EndSession);
    assert_eq!((change.view.sessions, change.view.in_session), (1, false));
    let rewards = SessionRewards { equal: 1, ..SessionRewards::default() };
    let change =
        services::scattershot_reward(&mut t.store, t.game, &RewardMove::AfterSession { rewards, characters: None })
            .unwrap();
    assert_eq!(change.message, "Experience dice after session 1: Ada +1, Bo +1.");
}

#[test]
fn a_session_is_the_journals_whether_started_at_the_table_or_in_the_journal() {
    let mut t = table();
    // Started on the table: the journal's session 1, today, every player's character there.
    t.edit(start_session("2026-11-30"));
    let journal = services::journal(&t.store, t.game).unwrap();
    let s = &journal.sessions[0];
    assert_eq!(
        (s.number, s.date.as_str(), s.open, s.attendees.clone()),
        (1, "2026-11-30", true, vec!["Ada".into(), "Bo".into()])
    );
    // The journal cannot start another while it is open, nor a date that is not one.
    let refused = services::journal_start(&mut t.store, t.game, "2026-11-30", &[]).unwrap_err();
    assert!(refused.to_string().starts_with("session:"), "{refused}");
    t.edit(TableEdit::EndSession);
    let bad = services::scattershot_table_edit(&mut t.store, t.game, &start_session("30/11/2026")).unwrap_err();
    assert!(bad.to_string().starts_with("date:"), "{bad}");
    // Started in the journal: the table's session 2, and a Bonus kept until it ends ends when
    // the journal ends it.
    let started = services::journal_start(&mut t.store, t.game, "2026-12-07", &["Ada".to_owned()]).unwrap();
    assert_eq!(started.message, "Session 2 begins.");
    let view = services::scattershot_table(&t.store, t.game).unwrap();
    assert_eq!((view.sessions, view.in_session), (2, true));
    t.sheet_edit(t.ada, SheetEdit::AddModifier { text: "Bonus".into(), value: 2, lasts: Lasts::Session });
    assert_eq!(t.temporary(t.ada), 2);
    let ended = services::journal_end(&mut t.store, t.game).unwrap();
    assert_eq!(ended.message, "Session 2 ends; residual modifiers end for Ada.");
    assert_eq!(t.temporary(t.ada), 0);
    assert!(!services::scattershot_table(&t.store, t.game).unwrap().in_session);
    // One undo takes the end back: the journal's session is open again, on the table too.
    services::undo_game(&mut t.store, t.game).unwrap();
    assert!(services::journal(&t.store, t.game).unwrap().sessions[1].open);
    assert!(services::scattershot_table(&t.store, t.game).unwrap().in_session);
    assert_eq!(t.temporary(t.ada), 2, "the Bonus is back with it");
    assert!(t.store.check().unwrap().ok);
}

#[test]
fn non_player_characters_and_the_description_are_on_the_sheet_and_drive_the_scope_reminder() {
    let mut t = table();
    let (ada, bo) = (t.ada, t.bo);
    let change = t.sheet_edit(bo, SheetEdit::SetNpc { npc: true });
    assert_eq!(change.message, "Bo is a non-player character.");
    let change = t.sheet_edit(ada, SheetEdit::SetDescription { description: " Brave, and never lies. ".into() });
    assert_eq!(change.view.sheet.description, "Brave, and never lies.");
    let seating = vec![SeatDraft { character: ada, player: None }, SeatDraft { character: bo, player: None }];
    let change =
        services::scattershot_play(&mut t.store, t.game, &PlayMove::Start { caller: ada, seating, cinematic: false })
            .unwrap();
    let play = change.view.play.unwrap();
    assert_eq!((play.npcs, play.players, play.scope_shift), (1, 1, true));
    let view = services::scattershot_table(&t.store, t.game).unwrap();
    assert!(view.characters.iter().find(|c| c.id == bo).unwrap().npc);
    services::undo_character(&mut t.store, ada).unwrap();
    assert_eq!(services::scattershot_sheet(&t.store, ada).unwrap().sheet.description, "");
}

#[test]
fn a_last_ditch_dodge_rolls_at_minus_two_and_a_catastrophic_failure_upsets_the_actor_s_advantages() {
    let mut t = table();
    let (ada, bo) = (t.ada, t.bo);
    let dodge = SideDraft { character: Some(bo), last_ditch_dodge: true, ..scattershot_typed(10) };
    let preview = services::scattershot_roll_preview(&t.store, t.game, &scattershot_request(dodge, None)).unwrap();
    assert_eq!((preview.actor.dodge, preview.actor.modifier), (-2, -2));
    let typed_in = SideDraft { rolled: Some(3), last_ditch_dodge: true, ..SideDraft::default() };
    let (field, _) = invalid(services::scattershot_roll_preview(
        &t.store,
        t.game,
        &scattershot_request(scattershot_typed(10), Some(typed_in)),
    ));
    assert_eq!(field, "resistor.rolled", "a MIB rolled elsewhere holds its modifiers already");

    // Ada holds an advantage against Bo, then fails catastrophically: an upset.
    let seating = vec![SeatDraft { character: ada, player: None }, SeatDraft { character: bo, player: None }];
    let play = |t: &mut Table, m: PlayMove| services::scattershot_play(&mut t.store, t.game, &m).unwrap();
    play(&mut t, PlayMove::Start { caller: ada, seating, cinematic: false });
    play(&mut t, PlayMove::Engage { character: ada, foe: Some(bo) });
    play(
        &mut t,
        PlayMove::Advantage {
            holder: ada,
            foe: bo,
            gain: sheetkeeper::rules::scattershot::mechanical_play::Gain::Seize,
        },
    );
    t.start(scattershot_request(SideDraft { character: Some(ada), ..scattershot_typed(2) }, None));
    t.roll(RollMove::Dice { party: Party::Actor }, &[10, 10]);
    t.roll(RollMove::Decide, &[]);
    let change = t.roll(RollMove::Conclude, &[]);
    assert_eq!(
        change.message,
        "The roll ends at -18: a Catastrophic Failure. An upset: Ada loses every advantage it held. 1 point(s) to \
         account for: the actor's player chooses where they go."
    );
    assert_eq!(change.view.play.unwrap().combatants[1].penalty, 0, "nothing held against Bo any more");
    services::undo_game(&mut t.store, t.game).unwrap();
    let view = services::scattershot_table(&t.store, t.game).unwrap();
    assert_eq!(view.play.unwrap().combatants[1].penalty, -1, "undone: the advantage is back");
}

#[test]
fn a_sheet_takes_its_free_skills_from_the_games_list_at_the_level_the_list_gives() {
    use sheetkeeper::rules::scattershot::free_skills::ListedFreeSkill;
    use sheetkeeper::rules::scattershot::sheet::Purchase;
    let mut t = table();
    let listed = |name: &str, starting_level| ListedFreeSkill { name: name.into(), starting_level };
    let new_free_skill = |name: &str, starting_level| SheetEdit::Buy {
        purchase: Purchase::NewFreeSkill { name: name.into(), starting_level },
    };
    // With no list written down, a sheet names any free skill at the level it states.
    t.sheet_edit(t.ada, new_free_skill("Juggling", 4));
    let change = t.edit(TableEdit::FreeSkillList { skills: vec![listed(" Swimming ", 9), listed("Haggling", 8)] });
    assert_eq!(change.message, "The list of free skills has 2 skill(s).");
    assert_eq!(change.view.free_skill_list, [listed("Swimming", 9), listed("Haggling", 8)]);
    t.store = t.scratch.open();
    assert_eq!(services::scattershot_table(&t.store, t.game).unwrap().free_skill_list.len(), 2, "kept in the file");
    // Now a sheet takes a listed skill, in the list's spelling, at the list's level.
    t.sheet_edit(t.bo, new_free_skill("swimming", 9));
    let sheet = services::scattershot_sheet(&t.store, t.bo).unwrap().sheet;
    assert_eq!((sheet.free_skills[0].name.as_str(), sheet.free_skills[0].starting_level), ("Swimming", 9));
    // Off the list, or at another level: refused by field, and nothing changes.
    for (edit, field) in [(new_free_skill("Juggling", 4), "name"), (new_free_skill("Haggling", 12), "starting_level")] {
        let before = bytes_on_disk(&t.scratch.db());
        let (got, _) = invalid(services::scattershot_sheet_edit(&mut t.store, t.bo, &edit));
        assert_eq!(got, field);
        assert_eq!(bytes_on_disk(&t.scratch.db()), before);
    }
    let (field, message) = invalid(services::scattershot_table_edit(
        &mut t.store,
        t.game,
        &TableEdit::FreeSkillList { skills: vec![listed("Haggling", 8), listed("HAGGLING", 2)] },
    ));
    assert_eq!((field.as_str(), message.as_str()), ("skills[1].name", "\"HAGGLING\" is on the list twice"));
    // A sheet keeps what it took when the list changes; undo brings the list back.
    t.edit(TableEdit::FreeSkillList { skills: vec![] });
    assert_eq!(services::scattershot_sheet(&t.store, t.ada).unwrap().sheet.free_skills[0].name, "Juggling");
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(services::scattershot_table(&t.store, t.game).unwrap().free_skill_list.len(), 2);
}

#[test]
fn a_reduced_resource_lowers_rolls_at_once_outside_a_fight_and_only_after_the_lull_in_one() {
    let mut t = table();
    let (ada, bo) = (t.ada, t.bo);
    let reduced = |t: &Table| {
        let request = scattershot_request(
            SideDraft { character: Some(t.ada), rating: Some(strength()), value: None, ..scattershot_typed(0) },
            None,
        );
        services::scattershot_roll_preview(&t.store, t.game, &request).unwrap().actor.reduced
    };
    let hp =
        |t: &mut Table, current| t.sheet_edit(ada, SheetEdit::SetResource { resource: Resource::HitPoints, current });
    hp(&mut t, 2);
    assert_eq!(reduced(&t), 0, "no penalty until the table sets one");
    // The table's rule: at or below 30 % of its maximum, −1 a resource.
    t.edit(TableEdit::Setting { name: "low_resource_percent".into(), value: 30 });
    assert_eq!(reduced(&t), -1, "outside a fight every moment is a lull");
    let sheet = services::scattershot_sheet(&t.store, ada).unwrap();
    assert_eq!((sheet.reduced_penalty, sheet.temporary_modifier), (-1, 0));
    // A fight begins with Ada whole; damage in it lowers her Hit Points at once, but her
    // penalty waits for the lull.
    hp(&mut t, 10);
    let seating = vec![SeatDraft { character: ada, player: None }, SeatDraft { character: bo, player: None }];
    services::scattershot_play(&mut t.store, t.game, &PlayMove::Start { caller: ada, seating, cinematic: false })
        .unwrap();
    hp(&mut t, 1);
    assert_eq!(reduced(&t), 0, "held at the start of mechanical play");
    t.store = t.scratch.open();
    assert_eq!(reduced(&t), 0, "held in the file too");
    // Her combatant plays with the penalty held, and the table sees the one the lull brings.
    let view = services::scattershot_table(&t.store, t.game).unwrap();
    let combatant = view.play.unwrap().combatants.into_iter().find(|c| c.combatant.character == ada).unwrap();
    assert_eq!((combatant.combatant.reduced_penalty, combatant.lull_penalty), (0, -1));
    services::scattershot_play(&mut t.store, t.game, &PlayMove::End).unwrap();
    assert_eq!(reduced(&t), -1, "the lull: the penalty takes effect");
    let view = services::scattershot_table(&t.store, t.game).unwrap();
    assert_eq!(view.characters.iter().find(|c| c.id == ada).unwrap().reduced_penalty, -1);
    // Out of range, the setting is refused by field.
    let (field, _) = invalid(services::scattershot_table_edit(
        &mut t.store,
        t.game,
        &TableEdit::Setting { name: "low_resource_percent".into(), value: 101 },
    ));
    assert_eq!(field, "value");
}

fn strength() -> sheetkeeper::rules::scattershot::sheet::Rating {
    sheetkeeper::rules::scattershot::sheet::Rating::Statistic {
        statistic: sheetkeeper::rules::scattershot::sheet::Statistic::Strength,
    }
}

/// Takes a database back to the schema before players held experience dice (version 25, so
/// without the later skill listings, open conflicts and open action checks either, and with
/// the tables' own counts of sessions):
/// what a device that never ran this version has on disk.
fn as_before_players(db: &std::path::Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(
        "DROP TABLE mz_open_checks; DROP TABLE mz_open_conflicts; DROP TABLE sc_skill_listings; DROP TABLE sc_players; \
         ALTER TABLE sc_sheets DROP COLUMN player_id; \
         ALTER TABLE sc_tables ADD COLUMN sessions INTEGER NOT NULL DEFAULT 0; \
         ALTER TABLE sc_tables ADD COLUMN in_session INTEGER NOT NULL DEFAULT 0; \
         ALTER TABLE mz_decks ADD COLUMN session INTEGER NOT NULL DEFAULT 0; PRAGMA user_version = 25;",
    )
    .unwrap();
}

#[test]
fn an_older_game_keeps_every_die_and_one_player_of_two_characters_then_has_one_stock() {
    let mut t = table();
    let (ada, bo, game) = (t.ada, t.bo, t.game);
    t.sheet_edit(ada, SheetEdit::SetExperienceDice { dice: 3 });
    t.sheet_edit(bo, SheetEdit::SetExperienceDice { dice: 2 });
    t.edit(TableEdit::GmDice { dice: 4 });
    // The file as an older version left it, opened by this one: every die is where it was,
    // each character standing as its own player.
    drop(std::mem::replace(&mut t.store, Scratch::new().open()));
    as_before_players(&t.scratch.db());
    t.store = t.scratch.open();
    assert!(t.store.check().unwrap().ok);
    let view = services::scattershot_table(&t.store, game).unwrap();
    let dice: Vec<(Option<Uuid>, u32)> = view.characters.iter().map(|c| (c.player, c.experience_dice)).collect();
    assert_eq!((dice, view.gm_dice, view.players.len()), (vec![(None, 3), (None, 2)], 4, 0));

    // Cy joins and is named for both: the dice each held join Cy's one stock, each a move
    // with its log line.
    let joined = t.edit(TableEdit::AddPlayer { name: "Cy".into() });
    assert_eq!(joined.message, "Cy joins the table as a player, with no experience dice yet.");
    let cy = joined.view.players[0].id;
    let named = t.edit(TableEdit::SetPlayer { character: ada, player: Some(cy) });
    assert_eq!(named.message, "Cy plays Ada; the 3 experience dice Ada held join the stock (Cy's stock: 3).");
    let named = t.edit(TableEdit::SetPlayer { character: bo, player: Some(cy) });
    assert_eq!(named.view.players[0].dice, 5);
    assert_eq!(named.view.players[0].characters, vec![ada, bo]);
    assert!(named.view.characters.iter().all(|c| c.player == Some(cy) && c.experience_dice == 5));
    assert!(t.store.check().unwrap().ok);
    let set = t.edit(TableEdit::PlayerDice { player: cy, dice: 5 });
    assert_eq!(set.message, "Cy's stock goes from 5 to 5 experience dice.");
    let stranger = TableEdit::PlayerDice { player: ada, dice: 1 };
    assert_eq!(invalid(services::scattershot_table_edit(&mut t.store, game, &stranger)).0, "player");
    services::undo_game(&mut t.store, game).unwrap();
    // In mechanical play they are one player: with an NPC against them, the Scope shifts.
    let npc = services::create_character(&mut t.store, game, "Rook").unwrap().id;
    t.sheet_edit(npc, SheetEdit::SetNpc { npc: true });
    let seat = |character| SeatDraft { character, player: None };
    let start = PlayMove::Start { caller: ada, seating: vec![seat(ada), seat(bo), seat(npc)], cinematic: false };
    let play = services::scattershot_play(&mut t.store, game, &start).unwrap().view.play.unwrap();
    assert_eq!((play.players, play.npcs, play.scope_shift), (1, 1, true));
    services::undo_game(&mut t.store, game).unwrap();

    // One equal share after the session, for Cy, not one per character.
    let rewards = SessionRewards { equal: 2, ..SessionRewards::default() };
    let change = services::scattershot_reward(
        &mut t.store,
        game,
        &RewardMove::AfterSession { rewards, characters: Some(vec![ada, bo]) },
    )
    .unwrap();
    assert_eq!(change.message, "Experience dice: Cy +2.");
    // Cy gives Ada's great scene... to nobody of their own: refused, nothing changes.
    let own =
        RewardMove::OnTheSpot { giver: Giver::Player { from: ada, replaced: true }, to: bo, dice: 1, note: "".into() };
    assert_eq!(invalid(services::scattershot_reward(&mut t.store, game, &own)).0, "to");

    // A point Ada buys after creation is paid from Cy's stock, and undone with it.
    t.sheet_edit(ada, SheetEdit::FinishCreation);
    let strength = Purchase::Statistic { statistic: Statistic::Strength };
    let bought = t.sheet_edit(ada, SheetEdit::Buy { purchase: strength });
    assert!(bought.message.ends_with("From Cy's stock: 6 left."), "{}", bought.message);
    assert_eq!(bought.view.player.as_ref().map(|p| p.dice), Some(6));
    let refused = services::scattershot_sheet_edit(&mut t.store, ada, &SheetEdit::SetExperienceDice { dice: 9 });
    assert_eq!(invalid(refused), ("dice".into(), "Ada's experience dice are Cy's stock: set it on the table".into()));
    services::undo_game(&mut t.store, game).unwrap();
    let view = services::scattershot_table(&t.store, game).unwrap();
    assert_eq!((view.players[0].dice, view.characters[0].points_spent), (7, 0));

    // A roll through either character draws on the one stock: Bo's die is Cy's.
    t.start(scattershot_request(scattershot_typed(12), None));
    let change = t.roll(RollMove::Experience { party: Party::Actor, contributor: bo }, &[4]);
    assert_eq!(change.message, "Cy rolls an experience die for the actor: 4.");

    // Undoing the moves puts every die back where the older version had it.
    for _ in 0..3 {
        services::undo_game(&mut t.store, game).unwrap(); // the die, the roll, the reward
    }
    services::undo_character(&mut t.store, ada).unwrap(); // finishing creation
    for _ in 0..3 {
        services::undo_game(&mut t.store, game).unwrap(); // Bo's player, Ada's, Cy joining
    }
    let view = services::scattershot_table(&t.store, game).unwrap();
    let dice: Vec<(Option<Uuid>, u32)> =
        view.characters.iter().filter(|c| c.id != npc).map(|c| (c.player, c.experience_dice)).collect();
    assert_eq!((dice, view.gm_dice, view.players.len()), (vec![(None, 3), (None, 2)], 4, 0));
}

/// Audit D-SC5: the group's skill listings. A listed skill Ada has not bought is rolled at its
/// default (Agility −3: 7), its restriction in the odds' breakdown and in the log line; one
/// with no default is refused by field; once bought, the skill is its own rating and the
/// default is refused; a skill bought under a listed name takes the listing's difficulty.
#[test]
fn a_listed_skill_not_bought_is_rolled_at_its_default_and_its_restriction_is_logged() {
    use sheetkeeper::rules::scattershot::sheet::{Difficulty, Purchase, Rating, Statistic};
    use sheetkeeper::rules::scattershot::skill_listings::{DefaultFrom, SkillDefault, SkillListing};
    let mut t = table();
    let climbing = SkillListing {
        name: "Climbing".into(),
        difficulty: Difficulty::Difficult,
        default: Some(SkillDefault {
            from: DefaultFrom::Statistic(Statistic::Agility),
            modifier: -3,
            restriction: "only with a rope to hand".into(),
        }),
    };
    let surgery = SkillListing { name: "Surgery".into(), difficulty: Difficulty::Renowned, default: None };
    let change = t.edit(TableEdit::SkillListings { listings: vec![surgery, climbing.clone()] });
    assert_eq!(change.message, "The game has 2 skill listing(s), 1 with a default.");
    t.store = t.scratch.open();
    assert_eq!(services::scattershot_table(&t.store, t.game).unwrap().skill_listings[1], climbing, "kept in the file");
    // The sheet offers Climbing by default (not Surgery, which has none).
    let view = services::scattershot_sheet(&t.store, t.ada).unwrap();
    let offered: Vec<(usize, &str, i32, &str)> =
        view.defaults.iter().map(|d| (d.listing, d.name.as_str(), d.rating, d.from.as_str())).collect();
    assert_eq!(offered, [(1, "Climbing", 7, "Agility −3")]);
    // The odds before the roll use the default rating: 7 − 2d10 ≥ 0 in 21 of 100 (2d10 at most 7).
    let ada = t.ada;
    let by_default =
        |listing| SideDraft { character: Some(ada), rating: Some(Rating::Default { listing }), ..SideDraft::default() };
    let preview =
        services::scattershot_roll_preview(&t.store, t.game, &scattershot_request(by_default(1), None)).unwrap();
    assert_eq!(preview.actor.rating, 7);
    assert_eq!(preview.actor.defaulted.as_ref().unwrap().restriction, "only with a rope to hand");
    assert_eq!(preview.odds.ways[0], 21);
    // Surgery has no default: refused by field, nothing saved.
    let before = bytes_on_disk(&t.scratch.db());
    let (field, message) = invalid(services::scattershot_roll(
        &mut t.store,
        t.game,
        &RollMove::Start { request: Box::new(scattershot_request(by_default(0), None)) },
        &DiceInput::Rolled,
        &mut rng(),
    ));
    assert_eq!(field, "actor.rating");
    assert_eq!(message, "\"Surgery\" has no default in its listing: only a character who bought it rolls it");
    assert_eq!(bytes_on_disk(&t.scratch.db()), before);
    // Climbing by default: the restriction is in the log line that starts the roll.
    let change = t.start(scattershot_request(by_default(1), None));
    assert_eq!(change.message, "Ada rolls at 7 +0, Climbing by default (only with a rope to hand).");
    t.roll(RollMove::Abandon, &[]);
    // Bought under its listed name, at another difficulty: refused; at the listing's: bought,
    // and from then on rolled at its own rating, never at the default.
    let buy = |difficulty| SheetEdit::Buy { purchase: Purchase::NewSkill { name: "climbing".into(), difficulty } };
    let (field, _) = invalid(services::scattershot_sheet_edit(&mut t.store, t.ada, &buy(Difficulty::Easy)));
    assert_eq!(field, "difficulty");
    let view = t.sheet_edit(t.ada, buy(Difficulty::Difficult)).view;
    assert_eq!(view.sheet.skills[0].name, "Climbing");
    assert!(view.defaults.is_empty(), "a bought skill is not offered by default");
    let (field, message) =
        invalid(services::scattershot_roll_preview(&t.store, t.game, &scattershot_request(by_default(1), None)));
    assert_eq!(field, "actor.rating");
    assert!(message.contains("roll it at its own rating"), "{message}");
}

#[test]
fn a_player_is_renamed_and_leaves_the_table_each_an_undoable_move_and_no_die_is_lost() {
    let mut t = table();
    let (ada, game) = (t.ada, t.game);
    let cy = t.edit(TableEdit::AddPlayer { name: "Cy".into() }).view.players[0].id;
    t.edit(TableEdit::AddPlayer { name: "Dee".into() });
    t.edit(TableEdit::SetPlayer { character: ada, player: Some(cy) });
    t.edit(TableEdit::PlayerDice { player: cy, dice: 3 });
    let gm = services::scattershot_table(&t.store, game).unwrap().gm_dice;

    // Renamed by the name rules; each refusal names the field and changes nothing.
    let rename = |name: &str| TableEdit::RenamePlayer { player: cy, name: name.into() };
    for (name, problem) in [
        ("   ", "must not be empty"),
        ("dee", "dee is already a player at this table"),
        ("Cy", "Cy is already this player's name"),
    ] {
        let refused = invalid(services::scattershot_table_edit(&mut t.store, game, &rename(name)));
        assert_eq!(refused, ("name".into(), problem.into()));
    }
    let renamed = t.edit(rename(" Cyra "));
    assert_eq!(renamed.message, "Cy is now called Cyra.");
    let cyra = &renamed.view.players[0];
    assert_eq!((cyra.name.as_str(), cyra.dice, cyra.characters.clone()), ("Cyra", 3, vec![ada]));
    services::undo_game(&mut t.store, game).unwrap();
    assert_eq!(services::scattershot_table(&t.store, game).unwrap().players[0].name, "Cy");

    // Cy plays Ada: not removed, and the refusal says whom Cy plays.
    let remove = TableEdit::RemovePlayer { player: cy };
    let refused = invalid(services::scattershot_table_edit(&mut t.store, game, &remove));
    assert_eq!(
        refused,
        (
            "player".into(),
            "Cy still plays Ada: name another player for them, or let them stand as their own, first".into()
        )
    );
    // Ada stands as her own again; then Cy leaves, and Cy's 3 dice go to the Gamemaster's stock.
    t.edit(TableEdit::SetPlayer { character: ada, player: None });
    let gone = t.edit(remove);
    assert_eq!(
        gone.message,
        format!("Cy leaves the table; the 3 experience dice in Cy's stock go to the Gamemaster's stock ({}).", gm + 3)
    );
    let names: Vec<&str> = gone.view.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!((names, gone.view.gm_dice), (vec!["Dee"], gm + 3));
    assert!(t.store.check().unwrap().ok);
    // Undone: Cy is back with the stock, the Gamemaster's stock as it was.
    services::undo_game(&mut t.store, game).unwrap();
    let view = services::scattershot_table(&t.store, game).unwrap();
    assert_eq!((view.players[0].name.as_str(), view.players[0].dice, view.gm_dice), ("Cy", 3, gm));
}

#[test]
fn after_a_session_and_in_a_vote_the_gamemaster_s_non_player_characters_earn_nothing() {
    let mut t = table();
    let (ada, bo, game) = (t.ada, t.bo, t.game);
    let rook = services::create_character(&mut t.store, game, "Rook").unwrap().id;
    t.sheet_edit(rook, SheetEdit::SetNpc { npc: true });
    // No group named: Ada and Bo, each with no player their own, get a share; Rook none.
    let rewards = SessionRewards { equal: 2, ..SessionRewards::default() };
    let session = RewardMove::AfterSession { rewards: rewards.clone(), characters: None };
    let change = services::scattershot_reward(&mut t.store, game, &session).unwrap();
    assert_eq!(change.message, "Experience dice: Ada +2, Bo +2.");
    let dice = |view: &ScattershotView, who| view.characters.iter().find(|c| c.id == who).unwrap().experience_dice;
    assert_eq!((dice(&change.view, ada), dice(&change.view, bo), dice(&change.view, rook)), (2, 2, 0));
    // Named in the group, or voted for, Rook is refused and nothing changes.
    let named = RewardMove::AfterSession { rewards, characters: Some(vec![ada, rook]) };
    assert_eq!(
        invalid(services::scattershot_reward(&mut t.store, game, &named)),
        ("characters[1]".into(), "Rook is a non-player character, the Gamemaster's: rewards are the players'".into())
    );
    let votes = vec![Vote { voter: ada, character: rook }];
    let vote = RewardMove::ByVote { votes, dice: 1, characters: None };
    assert_eq!(invalid(services::scattershot_reward(&mut t.store, game, &vote)).0, "votes[0].character");
    let view = services::scattershot_table(&t.store, game).unwrap();
    assert_eq!((dice(&view, ada), dice(&view, rook)), (2, 0));
}
