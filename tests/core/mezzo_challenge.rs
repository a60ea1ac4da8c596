//! Mezzo challenges through the services on the real SQLite file: a whole challenge — its
//! start, major actions rolled from an action check or typed in, perks traded, declared and
//! settled (Hinder, Damage, Bind, Push), adversity on a failed action, a surrender with its
//! momentum boosts awarded, spending on leaving, the end — each move undone exactly and the
//! store reopened to read the same challenge; refused moves naming the field and changing
//! nothing; a game with a running challenge exported and imported; Rest & Recuperation
//! refused during the challenge and working after it.

use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};
use sheetkeeper::rules::mezzo::action_check::{BaseChance, SideKind, SideSetup, Surge};
use sheetkeeper::rules::mezzo::challenge::{
    ActionResult, ChallengerSetup, Closed, GoalSetup, HealEffect, Leave, Phase, SideSetup as Side, Status, Why,
};
use sheetkeeper::rules::mezzo::element::{AdversitySpend, Element, ElementKind, Template};
use sheetkeeper::rules::mezzo::plot::InChallenge;
use sheetkeeper::rules::mezzo::recovery::RecoveryCheck;
use sheetkeeper::services::{
    self, CheckDraft, CheckRequest, DiceInput, ExportScope, ImportOptions, MezzoChallengeDraft, MezzoChallengeView,
};
use sheetkeeper::{Error, Result, Store};
use uuid::Uuid;

use crate::support::{self, bytes_on_disk, mezzo_harbour, MezzoHarbour, Scratch};

/// Mira (claimed by Ada) and Rook against the Ogre, a faction of the table; the heroes push
/// for the goal "Reach the cove".
type Table = support::Table<Harbour>;

struct Harbour {
    mira: Uuid,
    rook: Uuid,
    ogre: Uuid,
    cove: Uuid,
}

/// What a move changes: the table and the characters' sheets.
type State = crate::support::MezzoState;

/// Ids the test gives the traits it names later (the app gives the others).
const GASHED: u128 = 0x6a;
const PINNED: u128 = 0x6b;
const TRUMP: u128 = 0x6c;

fn fixed(n: u128) -> Uuid {
    Uuid::from_u128(0x7200_0000_0000_4000_8000_0000_0000_0000 | n)
}

impl Table {
    fn new() -> Table {
        let MezzoHarbour { scratch, mut store, game, ada, bo, mira, rook } = mezzo_harbour();
        services::mezzo_start_arc(&mut store, game).unwrap();
        services::mezzo_add_element(&mut store, game, ElementKind::Faction, "The Ogre").unwrap();
        let view = services::mezzo_add_element(&mut store, game, ElementKind::Goal, "Reach the cove").unwrap().view;
        let (ogre, cove) = (view.elements[0].element.id, view.elements[1].element.id);
        Table { scratch, store, game, ada, bo, rng: StdRng::seed_from_u64(3), more: Harbour { mira, rook, ogre, cove } }
    }

    fn state(&self) -> State {
        State::of_game(&self.store, self.game)
    }

    fn el(&self, id: Uuid) -> Element {
        let v = services::mezzo_table(&self.store, self.game).unwrap();
        v.characters.into_iter().chain(v.elements).find(|e| e.element.id == id).unwrap().element
    }

    fn view(&self) -> MezzoChallengeView {
        services::mezzo_challenge(&self.store, self.game).unwrap().expect("a challenge")
    }

    fn trait_id(&self, element: Uuid, name: &str) -> Uuid {
        self.el(element).traits.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("{name}")).id
    }

    fn play(&mut self, draft: Value) -> Result<String> {
        services::mezzo_challenge_play(&mut self.store, self.game, &draft).map(|c| c.change.message)
    }

    /// The store closed and opened again reads the same table (every row of the challenge).
    fn reopen(&mut self) {
        let before = self.state();
        self.store = self.scratch.open();
        assert_eq!(self.state(), before, "the challenge reads back the same after a reopen");
        assert!(self.store.check().unwrap().ok, "{:?}", self.store.check().unwrap());
    }

    /// Expects `mv` to be refused naming `field`, the database unchanged byte for byte.
    fn refused(&mut self, field: &str, mv: impl FnOnce(&mut Table) -> Result<String>) {
        let before = bytes_on_disk(&self.scratch.db());
        match mv(self) {
            Err(Error::Invalid { field: f, problem }) => assert_eq!(f, field, "{problem}"),
            other => panic!("{field}: expected a refusal, got {other:?}"),
        }
        assert_eq!(bytes_on_disk(&self.scratch.db()), before, "{field}: the database must not change");
    }

    /// Plays `mv`, undoes it (table and sheets exactly as before, the message "Undone: …"),
    /// plays it again and returns its message.
    fn step(&mut self, what: &str, mv: impl Fn(&mut Table) -> Result<String>) -> String {
        let before = self.state();
        let message = mv(self).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_ne!(self.state(), before, "{what} changes something");
        let undone = services::undo_game(&mut self.store, self.game).unwrap_or_else(|e| panic!("undo {what}: {e}"));
        assert_eq!(undone.message, format!("Undone: {message}"), "{what}");
        assert_eq!(self.state(), before, "undo {what}");
        let again = mv(self).unwrap_or_else(|e| panic!("{what} again: {e}"));
        assert_eq!(again, message, "{what} says the same again");
        self.reopen();
        message
    }
}

fn draft(t: &Table) -> MezzoChallengeDraft {
    MezzoChallengeDraft {
        description: "Run from the ogre".into(),
        sides: vec![Side { name: "Heroes".into() }, Side { name: "The ogre".into() }],
        challengers: vec![
            ChallengerSetup { element: t.more.mira, side: 0, stake: Some("Reach the cove".into()) },
            ChallengerSetup { element: t.more.rook, side: 0, stake: None },
            ChallengerSetup { element: t.more.ogre, side: 1, stake: None },
        ],
        goals: vec![GoalSetup { element: t.more.cove, supporters: vec![t.more.mira] }],
    }
}

/// Mira slips past the ogre (common) or is caught (occasional).
/// A challenge of `challenger` alone against the Ogre: two unnamed sides, no description,
/// stakes or goals.
fn against_the_ogre(t: &Table, challenger: Uuid) -> MezzoChallengeDraft {
    MezzoChallengeDraft {
        description: String::new(),
        sides: vec![Side::default(), Side::default()],
        challengers: vec![
            ChallengerSetup { element: challenger, side: 0, stake: None },
            ChallengerSetup { element: t.more.ogre, side: 1, stake: None },
        ],
        goals: Vec::new(),
    }
}

fn slip_past(t: &Table) -> CheckRequest {
    CheckRequest {
        setup: CheckDraft {
            description: "Past the ogre".into(),
            sides: vec![
                SideSetup {
                    kind: SideKind::Action { element: t.more.mira },
                    description: "slips past".into(),
                    chance: BaseChance::Common,
                    aptitude: 0,
                },
                SideSetup {
                    kind: SideKind::Failure,
                    description: "caught".into(),
                    chance: BaseChance::Occasional,
                    aptitude: 0,
                },
            ],
            involved: Vec::new(),
        },
        casts: Vec::new(),
        perks: Vec::new(),
    }
}

fn action(element: Uuid, score: u32) -> Value {
    json!({ "kind": { "kind": "action", "element": element }, "score": score })
}

fn failure(score: u32) -> Value {
    json!({ "kind": { "kind": "failure" }, "score": score })
}

fn has_modifier(e: &Element, flaw: Uuid, template: Template) -> bool {
    e.traits.iter().any(|t| t.target_trait == Some(flaw) && t.template == Some(template))
}

/// A new table whose challenge was played up to the Ogre's surrender, and the Ogre surrendered.
fn the_ogre_surrendered() -> Table {
    let mut t = Table::new();
    up_to_the_surrender(&mut t);
    let ogre = t.more.ogre;
    t.play(json!({ "move": "surrender", "challenger": ogre })).unwrap();
    t
}

/// Plays the challenge up to the Ogre's surrender, checking each step.
fn up_to_the_surrender(t: &mut Table) {
    // Start: both sides, each challenger joins (4 edge slots for a first challenge).
    let message = t.step("start", |t| {
        let d = draft(t);
        services::mezzo_challenge_start(&mut t.store, t.game, &d).map(|c| c.change.message)
    });
    assert_eq!(
        message,
        "The challenge “Run from the ogre” begins: Heroes (Mira and Rook) against The ogre (The Ogre)."
    );
    let v = t.view();
    assert_eq!((v.phase, v.round, v.over), (Phase::Rounds, 1, false));
    assert_eq!(v.challengers.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["Mira", "Rook", "The Ogre"]);
    assert_eq!((v.challengers[0].side_name.as_str(), v.challengers[0].claimed_by), ("Heroes", Some(t.ada)));
    assert_eq!(v.goals[0].name, "Reach the cove");
    assert!(t.el(t.more.mira).in_challenge && t.el(t.more.ogre).in_challenge);
    assert!(t.el(t.more.mira).awards.first_challenge);

    // Refusals that change nothing: a second challenge; Rest & Recuperation in a challenge.
    t.refused("challenge", |t| {
        let d = draft(t);
        services::mezzo_challenge_start(&mut t.store, t.game, &d).map(|c| c.change.message)
    });
    t.refused("element", |t| {
        services::mezzo_take_breather(&mut t.store, t.game, t.more.ogre, Uuid::nil()).map(|c| c.message)
    });
    // A plot option names the challenge being played.
    t.refused("challenge.id", |t| {
        let elsewhere = InChallenge { id: Uuid::nil(), challengers: vec![t.more.mira] };
        services::mezzo_raise_stakes(&mut t.store, t.game, &[], &elsewhere, t.more.mira, &[]).map(|c| c.change.message)
    });

    // Round 1. Mira's major action from an action check, typed-in dice: d6 shows 6, the
    // failure's d4 shows 3: at least double, 2 major perks.
    let message = t.step("roll majors", |t| {
        let (request, majors) = (slip_past(t), [t.more.mira]);
        let dice = DiceInput::Entered { values: vec![6, 3] };
        services::mezzo_challenge_roll_majors(&mut t.store, t.game, &request, &majors, &dice, &mut t.rng)
            .map(|c| c.change.message)
    });
    assert_eq!(message, "Action check “Past the ogre”: Mira's major action: 6 against 3 — 2 major perks.");
    let v = t.view();
    assert_eq!((v.phase, v.open_action), (Phase::Perks, Some(0)));
    assert_eq!(
        (v.actions[0].action.result, v.actions[0].majors_left, v.actions[0].minors_left),
        (ActionResult::DoubleSuccess, 2, 0)
    );
    assert!(v.actions[0].action.check.is_some());
    assert!(v.challengers[0].acted);
    assert!(t.el(t.more.mira).awards.first_action_check, "the check gave its first-check slots");

    // While perks are open, no other major action and no round's end.
    t.refused("move", |t| t.play(json!({ "move": "end_round" })));

    let message = t.step("trade", |t| t.play(json!({ "move": "trade", "action": 0 })));
    assert_eq!(message, "Mira trades a major perk for two minor perks.");
    assert_eq!((t.view().actions[0].majors_left, t.view().actions[0].minors_left), (1, 2));

    // A Hinder whose flaw leaves out its id, kind and via: the app gives them.
    let message = t.step("declare hinder", |t| {
        let ogre = t.more.ogre;
        t.play(json!({ "move": "declare", "action": 0,
            "perk": { "kind": "hinder", "target": ogre, "flaw": { "template": "impaired_ability", "name": "Winded" } } }))
    });
    assert_eq!(message, "Mira declares Hinder on The Ogre.");
    t.reopen();
    assert_eq!(t.view().actions[0].action.declared.len(), 1, "a declared perk is kept until it settles");

    let message = t.step("declare damage", |t| {
        let ogre = t.more.ogre;
        t.play(json!({ "move": "declare", "action": 0, "perk": { "kind": "damage", "target": ogre,
            "wound": { "kind": "new_flaw", "flaw": { "id": fixed(GASHED), "template": "vulnerability", "name": "Gashed" } } } }))
    });
    assert_eq!(message, "Mira declares Damage on The Ogre.");
    // No major perk is left for another.
    t.refused("perk", |t| {
        let ogre = t.more.ogre;
        t.play(json!({ "move": "declare", "action": 0, "perk": { "kind": "ruin", "goal": ogre } }))
    });

    let message = t.step("settle", |t| t.play(json!({ "move": "settle", "action": 0 })));
    assert_eq!(
        message,
        "Mira's perks take effect: Hinder on The Ogre and Damage on The Ogre. 0 major and 1 minor perk(s) forfeited."
    );
    let ogre = t.el(t.more.ogre);
    let winded = t.trait_id(t.more.ogre, "Winded");
    assert!(has_modifier(&ogre, winded, Template::OneShot) && has_modifier(&ogre, winded, Template::TransientFlaw));
    assert!(ogre.is_wound(fixed(GASHED)) && has_modifier(&ogre, fixed(GASHED), Template::TransientFlaw));
    let v = t.view();
    assert_eq!((v.phase, v.actions[0].action.closed), (Phase::Rounds, Some(Closed::Settled)));
    assert!(v.challengers[2].may_surrender);
    assert_eq!(v.challengers[2].boosts_held, 1, "the wound it gained");
    assert_eq!(v.challengers[2].gained, vec![winded, fixed(GASHED)], "what Recover and Heal may remove");
    assert!(v.challengers[0].gained.is_empty());

    // Rook's major action typed in as scores: 2 against the failure's 5 — 1 adversity.
    let message = t.step("failed action", |t| {
        let rook = t.more.rook;
        t.play(json!({ "move": "major_actions", "rolls": [action(rook, 2), failure(5)], "majors": [rook] }))
    });
    assert_eq!(message, "Rook's major action: 2 against 5 — no perk, 1 adversity.");
    assert_eq!(t.el(t.more.rook).adversity, 1);
    assert_eq!(t.view().phase, Phase::Rounds, "a failure leaves no perks open");

    // Refused moves name the field and change nothing.
    t.refused("majors[0]", |t| {
        let rook = t.more.rook;
        t.play(json!({ "move": "major_actions", "rolls": [action(rook, 4), failure(1)], "majors": [rook] }))
    });
    t.refused("challenger", |t| t.play(json!({ "move": "surrender", "challenger": "not an id" })));
    t.refused("move", |t| t.play(json!({ "move": "fly" })));
    t.refused("move", |t| t.play(json!({ "move": "award_boost", "to": Uuid::nil() })));

    let message = t.step("end round", |t| t.play(json!({ "move": "end_round" })));
    assert_eq!(message, "Round 1 ends.");
    assert_eq!(t.view().round, 2);

    // Round 2: Mira 8 against the Ogre's 3: Bind the Ogre and Push the cove.
    let message = t.step("contested action", |t| {
        let (mira, ogre) = (t.more.mira, t.more.ogre);
        t.play(json!({ "move": "major_actions", "rolls": [action(mira, 8), action(ogre, 3)], "majors": [mira] }))
    });
    assert_eq!(message, "Mira's major action: 8 against 3 — 2 major perks.");
    t.step("declare bind", |t| {
        let ogre = t.more.ogre;
        t.play(json!({ "move": "declare", "action": 2, "perk": { "kind": "bind", "target": ogre,
            "restraint": { "id": fixed(PINNED), "template": "restraint", "name": "Pinned" } } }))
    });
    t.step("declare push", |t| {
        let cove = t.more.cove;
        t.play(
            json!({ "move": "declare", "action": 2, "perk": { "kind": "push", "goal": cove, "trump": fixed(TRUMP) } }),
        )
    });
    let message = t.step("settle bind and push", |t| t.play(json!({ "move": "settle", "action": 2 })));
    assert_eq!(message, "Mira's perks take effect: Bind on The Ogre and Push on Reach the cove.");
    let v = t.view();
    assert_eq!((v.goals[0].trumps, v.counterable.len()), (1, 1));
    assert_eq!(v.challengers[2].boosts_held, 2, "a wound and a restraint");
    assert!(v.challengers[2].may_surrender);
}

#[test]
fn a_whole_challenge_is_played_through_the_services_and_each_move_is_undone_exactly() {
    let mut t = Table::new();
    let ideas: Vec<String> = (1..=6).map(|i| format!("idea {i}")).collect();
    services::mezzo_build_deck(&mut t.store, t.game, &ideas, &mut t.rng).unwrap();
    let may_refresh = |t: &Table| {
        services::mezzo_deck(&t.store, t.game).unwrap().seats.iter().map(|s| s.may_refresh).collect::<Vec<_>>()
    };
    up_to_the_surrender(&mut t);

    // The Ogre surrenders at once after its restraint: its 2 boosts go to its opponents, the
    // first to the one the table picks (both have no momentum), the second to the other.
    let message = t.step("surrender", |t| {
        let ogre = t.more.ogre;
        t.play(json!({ "move": "surrender", "challenger": ogre }))
    });
    assert_eq!(message, "The Ogre surrenders. The Ogre leaves in defeat (surrendered).");
    let v = t.view();
    assert_eq!(v.phase, Phase::Departure);
    let d = v.departure.as_ref().unwrap();
    assert_eq!((d.leavers.clone(), d.boosts[0].awards), (vec![t.more.ogre], 2));
    assert_eq!(d.award_choices, vec![t.more.mira, t.more.rook]);
    assert!(matches!(v.challengers[2].status, Status::Leaving { how: Leave::Defeat, why: Why::Surrender }));
    t.refused("to", |t| {
        let ogre = t.more.ogre;
        t.play(json!({ "move": "award_boost", "to": ogre }))
    });

    let message = t.step("award", |t| {
        let mira = t.more.mira;
        t.play(json!({ "move": "award_boost", "to": mira }))
    });
    assert_eq!(
        message,
        "Mira gets a momentum boost. Rook gets a momentum boost. Mira leaves in victory (no opponent left). Rook \
         leaves in victory (no opponent left). Mira gets a momentum boost."
    );
    let v = t.view();
    let d = v.departure.as_ref().unwrap();
    assert_eq!(d.leavers, vec![t.more.mira, t.more.rook], "the ogre is gone; the heroes leave with no opponent");
    assert_eq!(d.may_spend, vec![t.more.mira, t.more.rook]);
    assert_eq!(
        (t.el(t.more.mira).momentum, t.el(t.more.rook).momentum),
        (2, 1),
        "Mira also got the cove's trump boost"
    );

    // Mira is Ada's: Bo may not spend for her.
    t.refused("by", |t| {
        let (mira, bo) = (t.more.mira, t.bo);
        t.play(json!({ "move": "spend", "challenger": mira, "by": bo, "spend": { "kind": "victory_narration", "votes": 1 } }))
    });
    let message = t.step("spend a boon", |t| {
        let (mira, ada) = (t.more.mira, t.ada);
        t.play(json!({ "move": "spend", "challenger": mira, "by": ada,
            "spend": { "kind": "boon", "boon": { "kind": "uses", "uses": 3 }, "edge": { "name": "Second wind" } } }))
    });
    assert_eq!(message, "Mira spends 2 momentum on the boon “Second wind”.");
    assert!(t.el(t.more.mira).traits.iter().any(|e| e.name == "Second wind" && e.uses_left == Some(3)));

    assert_eq!(may_refresh(&t), [false, false], "no refresh while the challenge goes on");
    let message = t.step("last spend ends the challenge", |t| {
        let (rook, bo) = (t.more.rook, t.bo);
        t.play(json!({ "move": "spend", "challenger": rook, "by": bo, "spend": { "kind": "victory_narration", "votes": 1 } }))
    });
    assert_eq!(message, "Rook spends 1 momentum on victory narration (1 vote). The challenge is over.");
    // DEV-3: the end of the challenge opens the seed deck's refresh for every player.
    assert_eq!(may_refresh(&t), [true, true]);
    let v = t.view();
    assert_eq!((v.phase, v.over), (Phase::Over, true), "the finished challenge stays on the table");
    // The end: momentum lost, trumps gone, Transient flaws grant Favored Flaws.
    let ogre = t.el(t.more.ogre);
    let winded = t.trait_id(t.more.ogre, "Winded");
    assert!(
        has_modifier(&ogre, winded, Template::FavoredFlaw) && has_modifier(&ogre, fixed(GASHED), Template::FavoredFlaw)
    );
    assert_eq!((t.el(t.more.cove).trumps(), t.el(t.more.mira).in_challenge), (0, false));
    t.refused("challenge", |t| t.play(json!({ "move": "end_round" })));

    // Rest & Recuperation after the challenge.
    let message = t.step("breather", |t| {
        let (ogre, winded) = (t.more.ogre, t.trait_id(t.more.ogre, "Winded"));
        services::mezzo_take_breather(&mut t.store, t.game, ogre, winded).map(|c| c.message)
    });
    assert_eq!(message, "The Ogre takes a breather and shakes off “Winded”.");
    t.step("escape", |t| {
        let ogre = t.more.ogre;
        services::mezzo_escape_restraints(&mut t.store, t.game, ogre, fixed(PINNED)).map(|c| c.message)
    });
    assert!(t.el(t.more.ogre).trait_by_id(fixed(PINNED)).is_none());
    let message = t.step("treat wounds", |t| {
        let ogre = t.more.ogre;
        let effect = HealEffect::OneShot;
        services::mezzo_treat_wounds(&mut t.store, t.game, ogre, fixed(GASHED), &effect, RecoveryCheck::NotMade)
            .map(|c| c.message)
    });
    assert_eq!(message, "The Ogre treats the wound “Gashed”: now One-Shot.");
    assert!(has_modifier(&t.el(t.more.ogre), fixed(GASHED), Template::OneShot));

    // A new challenge replaces the finished one.
    let d = against_the_ogre(&t, t.more.mira);
    let started = services::mezzo_challenge_start(&mut t.store, t.game, &d).unwrap();
    assert_eq!(started.change.message, "A challenge begins: Mira against The Ogre.");
    assert_eq!(started.challenge.unwrap().round, 1);
}

/// RULES.md §3.4 (2026-11-25): claiming stakes applies the perk it buys, undoably, and
/// what the perk makes last until the end of a challenge lasts through the next one.
#[test]
fn claiming_stakes_applies_its_perk_and_it_lasts_into_the_next_challenge() {
    let mut t = the_ogre_surrendered();
    let mira = t.more.mira;
    t.play(json!({ "move": "award_boost", "to": mira })).unwrap();
    assert_eq!(t.el(t.more.mira).momentum, 2);
    // A minor perk is not for sale; the refusal names the perk's place in the move.
    t.refused("spend.uses[0]", |t| {
        let (mira, ada, ogre) = (t.more.mira, t.ada, t.more.ogre);
        t.play(json!({ "move": "spend", "challenger": mira, "by": ada, "spend": { "kind": "claiming_stakes",
            "perks": 1, "uses": [{ "kind": "hinder", "target": ogre,
            "flaw": { "template": "impaired_ability", "name": "Shaken" } }] } }))
    });
    let message = t.step("claim stakes", |t| {
        let (mira, ada, ogre) = (t.more.mira, t.ada, t.more.ogre);
        t.play(json!({ "move": "spend", "challenger": mira, "by": ada, "spend": { "kind": "claiming_stakes",
            "perks": 1, "uses": [{ "kind": "bind", "target": ogre,
            "restraint": { "template": "restraint", "name": "Chained" } }] } }))
    });
    assert_eq!(message, "Mira spends 1 momentum on claiming stakes: Bind on The Ogre.");
    let chained = t.trait_id(t.more.ogre, "Chained");
    assert_eq!(t.el(t.more.ogre).carried, vec![chained], "kept for the ogre's next challenge");
    // Everyone spends out: the challenge ends; the carried restraint stays carried.
    let (mira, ada, rook, bo) = (t.more.mira, t.ada, t.more.rook, t.bo);
    t.play(
        json!({ "move": "spend", "challenger": mira, "by": ada, "spend": { "kind": "victory_narration", "votes": 1 } }),
    )
    .unwrap();
    t.play(
        json!({ "move": "spend", "challenger": rook, "by": bo, "spend": { "kind": "victory_narration", "votes": 1 } }),
    )
    .unwrap();
    assert!(t.view().over);
    assert_eq!(t.el(t.more.ogre).carried, vec![chained]);
    t.reopen();

    // The next challenge: the restraint counts as gained there (its boost, Break Free).
    let d = against_the_ogre(&t, t.more.rook);
    services::mezzo_challenge_start(&mut t.store, t.game, &d).unwrap();
    let v = t.view();
    let ogre = v.challengers.iter().find(|c| c.element == t.more.ogre).unwrap();
    assert!(ogre.gained.contains(&chained));
    assert!(t.el(t.more.ogre).carried.is_empty());
}

/// Audit #9: No Escape's pay-off reads the challenge itself: refused while the challenger is
/// still in, paid (2 momentum) once it leaves in victory; the caller no longer vouches.
#[test]
fn no_escape_pays_off_only_for_a_challenger_the_challenge_says_left_in_victory() {
    use sheetkeeper::rules::mezzo::plot::{InChallenge, Resource, User};
    let mut t = Table::new();
    up_to_the_surrender(&mut t);
    let ada = User { player: t.ada, element: None };
    let mut hooks = Vec::new();
    for text in ["One", "Two", "Three"] {
        let draft = services::HookDraft { text: text.into(), elements: Vec::new(), pay_with: Resource::Influence };
        let plot = services::mezzo_create_hook(&mut t.store, t.game, &ada, &draft).unwrap().plot;
        hooks.push(plot.hooks.last().unwrap().hook.id);
    }
    let ch = t.view().id;
    let within = InChallenge { id: ch, challengers: vec![t.more.mira, t.more.rook, t.more.ogre] };
    let mira = User { player: t.ada, element: Some(t.more.mira) };
    services::mezzo_no_escape(&mut t.store, t.game, &hooks, &within, &mira, t.more.ogre).unwrap();
    services::mezzo_gain_momentum(
        &mut t.store,
        t.game,
        t.more.mira,
        2,
        sheetkeeper::rules::mezzo::element::MomentumSource::Boost,
    )
    .unwrap();
    t.refused("user.element", |t| {
        let (mira, ogre) = (User { player: t.ada, element: Some(t.more.mira) }, t.more.ogre);
        services::mezzo_ignore_protection(&mut t.store, t.game, ch, &mira, ogre).map(|c| c.change.message)
    });
    let ogre = t.more.ogre;
    t.play(json!({ "move": "surrender", "challenger": ogre })).unwrap();
    assert!(matches!(t.view().challengers[0].status, Status::Leaving { how: Leave::Victory, .. }));
    let before = t.el(t.more.mira).momentum;
    let message = t.step("ignore protection", |t| {
        let (mira, ogre) = (User { player: t.ada, element: Some(t.more.mira) }, t.more.ogre);
        services::mezzo_ignore_protection(&mut t.store, t.game, ch, &mira, ogre).map(|c| c.change.message)
    });
    assert!(message.contains("The Ogre"), "{message}");
    assert_eq!(t.el(t.more.mira).momentum, before - 2);
    assert!(services::mezzo_plot(&t.store, t.game).unwrap().no_escape[0].used);
}

#[test]
fn a_game_with_a_running_challenge_travels_in_a_file_and_a_broken_one_is_refused() {
    let mut t = the_ogre_surrendered();
    let table = t.state().table;
    assert!(table.challenge.as_ref().unwrap().departure.is_some());

    // The schema keeps what the rules keep: a challenger on a side that does not exist, more
    // boosts than one owner triggers, a declared perk whose JSON is not its kind.
    let mut wrong = table.clone();
    wrong.challenge.as_mut().unwrap().challengers[0].side = 7;
    let err = t.store.write(|tx| tx.put_mezzo_table(t.game, &wrong)).unwrap_err();
    assert!(err.to_string().contains("FOREIGN KEY constraint failed"), "{err}");
    let mut wrong = table.clone();
    wrong.challenge.as_mut().unwrap().challengers[2].boosts_triggered = 6;
    let err = t.store.write(|tx| tx.put_mezzo_table(t.game, &wrong)).unwrap_err();
    assert!(err.to_string().contains("CHECK constraint failed"), "{err}");
    assert_eq!(t.state().table, table, "a refused write changes nothing");

    let out = t.scratch.file("harbour.json");
    services::export(&t.store, ExportScope::Game(t.game), &out).unwrap();
    let other = Scratch::new();
    let mut store = other.open();
    services::import(&mut store, &out, ImportOptions::default()).unwrap();
    assert_eq!(store.read().mezzo_table(t.game).unwrap(), table, "the challenge arrives as it was");
    assert!(store.check().unwrap().ok);
    // Play goes on on the other device.
    let picked =
        services::mezzo_challenge_play(&mut store, t.game, &json!({ "move": "award_boost", "to": t.more.rook }))
            .unwrap();
    assert_eq!(picked.challenge.unwrap().departure.unwrap().leavers, vec![t.more.mira, t.more.rook]);

    // As copies: the challenge names the copied characters.
    services::import(&mut store, &out, ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    let copy = services::list(&store).unwrap().into_iter().find(|g| g.game.id != t.game).unwrap();
    let mira = copy.characters.iter().find(|c| c.name == "Mira").unwrap().id;
    let ch = store.read().mezzo_table(copy.game.id).unwrap().challenge.unwrap();
    assert_eq!(ch.challengers[0].element, mira);
    assert_eq!(ch.goals[0].supporters, vec![mira]);
    assert_eq!(ch.actions[0].challenger, mira);
    assert_eq!(ch.departure.unwrap().boosts[0].targets[0], mira);

    // A challenge naming a side it does not have, or an element the file does not have.
    let mut file: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    file["data"]["games"][0]["mezzo_table"]["challenge"]["goals"][0]["side"] = json!(5);
    let broken = t.scratch.file("broken.json");
    std::fs::write(&broken, serde_json::to_vec(&file).unwrap()).unwrap();
    let before = bytes_on_disk(&other.db());
    let problems = match services::import(&mut store, &broken, ImportOptions::default()) {
        Err(Error::BadFile { problems, .. }) => problems,
        other => panic!("expected a refused file, got {other:?}"),
    };
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "$.data.games[0].mezzo_table.challenge.goals[0].side",
            "$.data.games[0].mezzo_table.challenge.goals[0].supporters[0]"
        ],
        "the goal's side does not exist, so its supporter is not of it"
    );
    assert_eq!(bytes_on_disk(&other.db()), before, "a refused file changes nothing");
    challenge_only_names_missing_element(&mut file, &broken, &mut store);
}

/// With the side mended and the Ogre (a challenger) left out of the table's elements, the
/// missing element is named.
fn challenge_only_names_missing_element(file: &mut Value, broken: &std::path::Path, store: &mut Store) {
    let table = &mut file["data"]["games"][0]["mezzo_table"];
    table["challenge"]["goals"][0]["side"] = json!(0);
    assert_eq!(table["elements"][0]["name"], "The Ogre");
    table["elements"].as_array_mut().unwrap().remove(0);
    std::fs::write(broken, serde_json::to_vec(&file).unwrap()).unwrap();
    match services::import(store, broken, ImportOptions::default()) {
        Err(Error::BadFile { problems, .. }) => {
            let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
            assert_eq!(paths, ["$.data.games[0].mezzo_table.challenge.challengers[2].element"]);
        }
        other => panic!("expected a refused file, got {other:?}"),
    }
}

const CHALLENGE_FILE: &str = "mezzo-challenge-game.sheetkeeper.json";

/// The scene of `mezzo_store` in the middle of a challenge: Tomas and the lighthouse against
/// the smugglers, pushing for the cove; Tomas's major action was a double success, one perk
/// traded and a Hinder declared, not settled yet; his stake's pool holds 2 momentum.
fn challenge_scene() -> crate::mezzo_store::Scene {
    use crate::mezzo_store::{scene, uuid, COVE, LIGHTHOUSE, SMUGGLERS, TOMAS};
    use sheetkeeper::rules::mezzo::challenge::{self as rules, ChallengeSetup, Move, PerkUse, SideScore};
    use sheetkeeper::rules::mezzo::element::{Trait, Via};

    let mut s = scene();
    let (tomas, lighthouse, smugglers, cove) = (uuid(TOMAS), uuid(LIGHTHOUSE), uuid(SMUGGLERS), uuid(COVE));
    let mut elements: Vec<Element> =
        s.characters.iter().filter_map(|r| r.mezzo.clone()).chain(s.table.elements.clone()).collect();
    let setup = ChallengeSetup {
        id: fixed(0x90),
        description: "The smugglers' run".into(),
        sides: vec![Side { name: "Tomas's crew".into() }, Side { name: "The Smugglers".into() }],
        challengers: vec![
            ChallengerSetup { element: tomas, side: 0, stake: Some("Passage out of the harbour".into()) },
            ChallengerSetup { element: lighthouse, side: 0, stake: None },
            ChallengerSetup { element: smugglers, side: 1, stake: None },
        ],
        goals: vec![GoalSetup { element: cove, supporters: vec![tomas] }],
    };
    let merge = |elements: &mut Vec<Element>, changed: Vec<Element>| {
        for c in changed {
            if let Some(e) = elements.iter_mut().find(|e| e.id == c.id) {
                *e = c;
            }
        }
    };
    let (mut ch, changes, _) = rules::start(&setup, &elements).unwrap();
    merge(&mut elements, changes.elements);
    let docks = elements.iter().find(|e| e.id == smugglers).unwrap().traits.iter().find(|t| t.name == "Bribed harbour");
    let shaken = Trait::from_template(fixed(0x91), Template::DulledEdge, "Shaken", Via::Granted).on(docks.unwrap().id);
    let moves = [
        Move::MajorActions {
            check: None,
            rolls: vec![
                SideScore { kind: SideKind::Action { element: tomas }, score: 6 },
                SideScore { kind: SideKind::Action { element: smugglers }, score: 2 },
            ],
            majors: vec![tomas],
        },
        Move::Trade { action: 0 },
        Move::Declare { action: 0, perk: PerkUse::Hinder { target: smugglers, flaw: Box::new(shaken) } },
    ];
    for mv in moves {
        let (next, changes, _) = rules::play(&ch, &mv, &elements).unwrap();
        ch = next;
        merge(&mut elements, changes.elements);
    }
    // A Raise Stakes put 2 momentum into Tomas's stake: the file carries the stake's pool.
    ch = rules::raise_stake(&ch, tomas, 2).unwrap().0;
    for r in &mut s.characters {
        r.mezzo = elements.iter().find(|e| e.id == r.character.id).cloned();
    }
    for e in &mut s.table.elements {
        *e = elements.iter().find(|x| x.id == e.id).cloned().unwrap();
    }
    s.table.challenge = Some(ch);
    s
}

#[test]
fn the_golden_game_file_with_a_challenge_is_the_scene_byte_for_byte_and_travels_both_ways() {
    use crate::support::files::a_golden_game_file_travels_both_ways;

    let s = challenge_scene();
    let ch = s.table.challenge.as_ref().unwrap();
    assert!(ch.problems().is_empty(), "{:?}", ch.problems());
    assert_eq!(ch.actions[0].declared.len(), 1);
    let doc = crate::mezzo_exchange::game_file(&s);
    let (_scratch, mut store) = a_golden_game_file_travels_both_ways((CHALLENGE_FILE, &doc), s.game.id, |store| {
        assert_eq!(store.read().mezzo_table(s.game.id).unwrap(), s.table);
        assert!(store.check().unwrap().ok);
    });
    // The declared Hinder settles on the device that imported it.
    let settled =
        services::mezzo_challenge_play(&mut store, s.game.id, &json!({ "move": "settle", "action": 0 })).unwrap();
    assert_eq!(
        settled.change.message,
        "Tomas's perks take effect: Hinder on The Smugglers. 1 major and 1 minor perk(s) forfeited."
    );
}

#[test]
fn a_major_action_rolled_as_a_check_takes_sudden_surges_after_the_dice() {
    let mut t = Table::new();
    services::mezzo_gain_adversity(&mut t.store, t.game, t.more.mira, 3).unwrap();
    let d = draft(&t);
    services::mezzo_challenge_start(&mut t.store, t.game, &d).unwrap();
    // No check on the table yet: refused, nothing changes.
    t.refused("check", |t| {
        let majors = [t.more.mira];
        services::mezzo_challenge_resolve_majors(&mut t.store, t.game, &[], &majors).map(|c| c.change.message)
    });
    // The check rolled as any other: Mira's d6 shows 3, the failure's d4 shows 3.
    let request = slip_past(&t);
    let dice = DiceInput::Entered { values: vec![3, 3] };
    services::mezzo_check_roll(&mut t.store, t.game, &request, &dice, &mut t.rng).unwrap();
    let before = t.state();
    // Having seen the tie, Ada buys Mira a Sudden Surge: 4 against 3, a major perk.
    let surge = Surge { element: t.more.mira, by: t.ada, allow_debt: false };
    let change = services::mezzo_challenge_resolve_majors(&mut t.store, t.game, &[surge], &[t.more.mira]).unwrap();
    assert_eq!(change.change.message, "Action check “Past the ogre”: Mira's major action: 4 against 3 — 1 major perk.");
    let v = t.view();
    assert_eq!((v.actions[0].action.result, v.actions[0].majors_left), (ActionResult::Success, 1));
    assert_eq!(v.phase, Phase::Perks);
    assert_eq!(t.el(t.more.mira).adversity, 0, "the surge cost Mira's 3 adversity");
    assert_eq!(services::mezzo_check_pending(&t.store, t.game).unwrap(), None, "the check is used");
    t.reopen();
    // Undo: the adversity is back, no action is recorded, and the rolled check waits again.
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.state(), before);
    assert!(services::mezzo_check_pending(&t.store, t.game).unwrap().is_some());
    // Without the surge the tie needs no tiebreak: it earns a minor perk.
    services::mezzo_challenge_resolve_majors(&mut t.store, t.game, &[], &[t.more.mira]).unwrap();
    let v = t.view();
    assert_eq!((v.actions[0].action.result, v.actions[0].minors_left), (ActionResult::Tie, 1));
    assert_eq!(t.el(t.more.mira).adversity, 3);
}

/// Rolls `slip_past` with the typed-in faces (Mira's d6, the failure's d4) and resolves it.
fn resolved_check(t: &mut Table, faces: Vec<u8>) -> services::CheckResult {
    let request = slip_past(t);
    services::mezzo_check_roll(&mut t.store, t.game, &request, &DiceInput::Entered { values: faces }, &mut t.rng)
        .unwrap();
    services::mezzo_check_resolve(&mut t.store, t.game, &[]).unwrap().result
}

#[test]
fn a_challenge_starts_from_a_lost_check_with_its_scores_as_the_first_round() {
    let mut t = Table::new();
    // Mira's 2 against the failure's 4: Mira lost the check; Rook backs her against the Ogre.
    let lost = resolved_check(&mut t, vec![2, 4]);
    assert_eq!(lost.winner, Some(1));
    let d = draft(&t);
    let id = lost.check.id;
    let message = t.step("start from the check", |t| {
        services::mezzo_challenge_from_check(&mut t.store, t.game, id, &d).map(|c| c.change.message)
    });
    assert_eq!(
        message,
        "The challenge “Run from the ogre” begins from the action check “Past the ogre”, its first round: \
         Mira's major action: 2 against 4 — no perk, 1 adversity."
    );
    let v = t.view();
    assert_eq!(v.round, 1);
    assert_eq!(
        (v.actions.len(), v.actions[0].action.check, v.actions[0].action.result),
        (1, Some(id), ActionResult::Failure)
    );
    assert_eq!(t.el(t.more.mira).adversity, 1, "a failed major action gains adversity");
    assert_eq!(v.challengers.len(), 3, "Rook, who backs the loser, joined");
    // Used once: refused by name, nothing changes; another check meets the running challenge.
    t.refused("check", |t| {
        services::mezzo_challenge_from_check(&mut t.store, t.game, id, &d).map(|c| c.change.message)
    });
    services::undo_game(&mut t.store, t.game).unwrap();
    let other = resolved_check(&mut t, vec![1, 3]).check.id;
    services::mezzo_challenge_start(&mut t.store, t.game, &d).unwrap();
    t.refused("challenge", |t| {
        services::mezzo_challenge_from_check(&mut t.store, t.game, other, &d).map(|c| c.change.message)
    });
}

#[test]
fn a_check_settled_by_compromise_or_never_resolved_starts_no_challenge() {
    let mut t = Table::new();
    let d = draft(&t);
    t.refused("check", |t| {
        services::mezzo_challenge_from_check(&mut t.store, t.game, Uuid::from_u128(7), &d).map(|c| c.change.message)
    });
    let tied = resolved_check(&mut t, vec![3, 3]);
    assert_eq!(tied.tied, vec![0, 1]);
    let agreed = services::mezzo_check_compromise(&mut t.store, t.game, "Mira slips by, bruised").unwrap();
    let id = agreed.result.check.id;
    t.refused("check", |t| {
        services::mezzo_challenge_from_check(&mut t.store, t.game, id, &d).map(|c| c.change.message)
    });
    let err = services::mezzo_challenge_from_check(&mut t.store, t.game, id, &d).unwrap_err().to_string();
    assert!(err.contains("compromise"), "{err}");
}

#[test]
fn tempting_target_pays_off_a_debtors_debt_with_the_setters_adversity() {
    let mut t = Table::new();
    let d = draft(&t);
    services::mezzo_challenge_start(&mut t.store, t.game, &d).unwrap();
    // Mira's double success binds the Ogre: a harmful perk on it.
    t.play(json!({ "move": "major_actions", "rolls": [action(t.more.mira, 8), action(t.more.ogre, 4)], "majors": [t.more.mira] }))
        .unwrap();
    let (ogre, mira) = (t.more.ogre, t.more.mira);
    t.play(json!({ "move": "declare", "action": 0, "perk": { "kind": "bind", "target": ogre,
        "restraint": { "template": "restraint", "name": "Pinned" } } }))
        .unwrap();
    // The Ogre owes nothing yet: refused by name, nothing changes.
    t.refused("target", |t| {
        services::mezzo_tempting_target(&mut t.store, t.game, 0, t.more.ogre).map(|c| c.change.message)
    });
    // 1 adversity held, Fortune's Favor costs 2: 1 of it is debt.
    services::mezzo_gain_adversity(&mut t.store, t.game, ogre, 1).unwrap();
    services::mezzo_spend_adversity(&mut t.store, t.game, ogre, None, AdversitySpend::FortunesFavor, true).unwrap();
    assert_eq!(t.el(ogre).adversity_debt, 1);
    let before = t.el(mira).adversity;
    let message = t.step("tempting target", |t| {
        services::mezzo_tempting_target(&mut t.store, t.game, 0, ogre).map(|c| c.change.message)
    });
    assert_eq!(
        message,
        "Tempting Target: Mira takes 1 adversity for a harmful perk on The Ogre, who pays off 1 adversity debt."
    );
    assert_eq!((t.el(mira).adversity, t.el(ogre).adversity_debt), (before + 1, 0));
    // One harmful perk pays off once, even with debt owed again.
    services::mezzo_gain_adversity(&mut t.store, t.game, ogre, 1).unwrap();
    services::mezzo_spend_adversity(&mut t.store, t.game, ogre, None, AdversitySpend::FortunesFavor, true).unwrap();
    t.refused("target", |t| {
        services::mezzo_tempting_target(&mut t.store, t.game, 0, t.more.ogre).map(|c| c.change.message)
    });
    t.refused("target", |t| {
        services::mezzo_tempting_target(&mut t.store, t.game, 0, t.more.rook).map(|c| c.change.message)
    });
}

/// DEV-2 in a challenge: a major action rolled from an action check takes the vote sources a
/// conflict takes. Mira withdraws in victory on the cove's trump and buys Victory Narration;
/// then Rook's major action counts 1 narration vote of hers, the game's Setting Law and the
/// detail Mira discovered for him, and Ill Fated (his debt paid off) for his failure: dice
/// that only those votes allow (a d12 for 5 votes, a d6 for 2), the bank spent, the debt
/// paid, and undo gives both back.
#[test]
fn a_challenges_major_action_counts_narration_laws_discoveries_and_ill_fated() {
    use sheetkeeper::rules::mezzo::action_check::{Cast, Direction, Law};
    use sheetkeeper::rules::mezzo::element::MomentumSource;

    let mut t = Table::new();
    let (mira, rook, ogre, cove, ada, bo) = (t.more.mira, t.more.rook, t.more.ogre, t.more.cove, t.ada, t.bo);
    services::mezzo_put_law(&mut t.store, t.game, None, "Law of Tides", "The sea gives back what it takes").unwrap();
    let law = services::mezzo_conflict_sources(&t.store, t.game).unwrap().laws[0].id;
    // 1 adversity debt on Rook.
    services::mezzo_gain_adversity(&mut t.store, t.game, rook, 1).unwrap();
    services::mezzo_spend_adversity(&mut t.store, t.game, rook, Some(bo), AdversitySpend::FortunesFavor, true).unwrap();
    assert_eq!(t.el(rook).adversity_debt, 1);

    let d = draft(&t);
    services::mezzo_challenge_start(&mut t.store, t.game, &d).unwrap();
    // Round 1: Mira 8 against the Ogre's 3: she pushes the cove and discovers a ledge.
    t.play(json!({ "move": "major_actions", "rolls": [action(mira, 8), action(ogre, 3)], "majors": [mira] })).unwrap();
    t.play(json!({ "move": "declare", "action": 0, "perk": { "kind": "push", "goal": cove, "trump": fixed(TRUMP) } }))
        .unwrap();
    t.play(json!({ "move": "trade", "action": 0 })).unwrap();
    t.play(json!({ "move": "declare", "action": 0, "perk": { "kind": "discover", "detail": "A hidden ledge" } }))
        .unwrap();
    t.play(json!({ "move": "settle", "action": 0 })).unwrap();
    // The cove's trump: Mira withdraws in victory, and buys narration with her momentum.
    services::mezzo_gain_momentum(&mut t.store, t.game, mira, 2, MomentumSource::PlotHook).unwrap();
    t.play(json!({ "move": "end_round", "trumps": [{ "kind": "victorious_withdrawal", "goal": cove }] })).unwrap();
    for _ in 0..5 {
        let Some(d) = t.view().departure else { break };
        if let Some(to) = d.award_choices.first() {
            t.play(json!({ "move": "award_boost", "to": to })).unwrap();
        } else if d.may_spend.contains(&mira) {
            break;
        } else {
            t.play(json!({ "move": "draw_trump", "points": 0 })).unwrap();
        }
    }
    let momentum = t.el(mira).momentum;
    assert!(momentum >= 2, "Mira leaves with momentum to spend");
    t.play(json!({ "move": "spend", "challenger": mira, "by": ada,
        "spend": { "kind": "victory_narration", "votes": momentum } }))
        .unwrap();
    if t.view().phase == Phase::Departure {
        t.play(json!({ "move": "depart" })).unwrap();
    }
    let v = t.view();
    assert_eq!((v.phase, v.over), (Phase::Rounds, false), "Rook and the Ogre play on");
    let sources = services::mezzo_conflict_sources(&t.store, t.game).unwrap();
    assert_eq!(sources.victory_votes[0].votes, momentum, "Mira's narration votes");

    let state = |t: &Table| {
        let bank = services::mezzo_conflict_sources(&t.store, t.game).unwrap().victory_votes;
        (t.el(rook).adversity_debt, bank.first().map_or(0, |b| b.votes))
    };
    let before = (t.state(), state(&t));
    // Rook (common: 2 votes) +1 narration, +1 law, +1 discovered detail: 5 votes, a d12.
    // His failure (occasional: 1 vote) +1 Ill Fated: 2 votes, a d6.
    let mut request = slip_past(&t);
    request.setup.description = "Along the ledge".into();
    request.setup.sides[0].kind = SideKind::Action { element: rook };
    request.casts = vec![
        Cast::Narration { element: mira, by: ada, side: 0, votes: 1 },
        Cast::Law { player: ada, side: 0, law: Law::Custom { id: law }, direction: Direction::For },
        Cast::Discover { detail: "A hidden ledge".into(), side: 0 },
        Cast::IllFated { element: rook, by: bo, side: 1, points: 1 },
    ];
    let dice = DiceInput::Entered { values: vec![11, 5] };
    let out = services::mezzo_challenge_roll_majors(&mut t.store, t.game, &request, &[rook], &dice, &mut t.rng)
        .unwrap_or_else(|e| panic!("the counted votes allow these dice: {e}"))
        .change
        .message;
    assert!(out.contains("Rook's major action: 11 against 5"), "{out}");
    assert_eq!(state(&t), (0, momentum - 1), "the debt paid off, a narration vote spent");

    // Without the votes the sources give, the same dice are out of range.
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!((t.state(), state(&t)), before, "undo gives the debt and the vote back");
    let mut bare = request.clone();
    bare.casts.truncate(3);
    let on_disk = bytes_on_disk(&t.scratch.db());
    match services::mezzo_challenge_roll_majors(&mut t.store, t.game, &bare, &[rook], &dice, &mut t.rng) {
        Err(Error::Invalid { problem, .. }) => assert!(problem.contains("5 cannot be rolled on a d4"), "{problem}"),
        other => panic!("without Ill Fated the failure rolls a d4: {:?}", other.map(|c| c.change.message)),
    }
    assert_eq!(bytes_on_disk(&t.scratch.db()), on_disk, "a refusal changes nothing");
}
