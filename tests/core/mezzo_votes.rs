//! Every vote source of a Mezzo conflict through the services on the real SQLite file:
//! Victory Narration bought when leaving a challenge and spent in a conflict, Ill Fated,
//! the game's own Setting Laws and the facts register, each undone exactly.

use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;
use sheetkeeper::rules::mezzo::action_check::Direction;
use sheetkeeper::rules::mezzo::challenge::{ChallengerSetup, SideSetup};
use sheetkeeper::rules::mezzo::conflict::Outcome;
use sheetkeeper::rules::mezzo::element::{AdversitySpend, ElementKind, MomentumSource, Role};
use sheetkeeper::rules::mezzo::plot::{Resource, User};
use sheetkeeper::rules::mezzo::vote::{ConflictCast, ConflictDraft, ConflictLaw};
use sheetkeeper::services::{self, Approach, DiceInput, HookDraft, MezzoChallengeDraft};
use sheetkeeper::{Error, Store};
use uuid::Uuid;

use crate::support::Scratch;

struct Game {
    store: Store,
    game: Uuid,
    ada: Uuid,
    mira: Uuid,
    ogre: Uuid,
}

/// Ada (Actor, Mira's claimer) and Mira against The Ogre, in arc 1.
fn game(scratch: &Scratch) -> Game {
    let mut store = scratch.open();
    let game = services::create_game(&mut store, "Harbour", "mezzo").unwrap().game.id;
    let mira = services::create_character(&mut store, game, "Mira").unwrap().id;
    let ada = services::mezzo_add_player(&mut store, game, "Ada").unwrap().view.players[0].player.id;
    services::mezzo_take_role(&mut store, game, ada, Role::Actor).unwrap();
    services::mezzo_claim(&mut store, game, ada, mira).unwrap();
    services::mezzo_start_arc(&mut store, game).unwrap();
    let ogre = services::mezzo_add_element(&mut store, game, ElementKind::Faction, "The Ogre").unwrap().view.elements
        [0]
    .element
    .id;
    Game { store, game, ada, mira, ogre }
}

fn draft(g: &Game, casts: Vec<ConflictCast>) -> ConflictDraft {
    ConflictDraft {
        question: "Does the bridge hold?".into(),
        options: vec!["It holds".into(), "It breaks".into()],
        about: vec![g.mira],
        active_in_scene: vec![g.mira],
        casts,
    }
}

fn resolve(g: &mut Game, d: &ConflictDraft) -> sheetkeeper::Result<services::ConflictOutcome> {
    let dice = DiceInput::Rolled;
    services::mezzo_resolve_conflict(
        &mut g.store,
        g.game,
        d,
        &Approach::LeaveToChance,
        &dice,
        &mut StdRng::seed_from_u64(1),
    )
}

fn field(e: Error) -> String {
    match e {
        Error::Invalid { field, .. } => field,
        other => panic!("expected a refusal, got {other}"),
    }
}

#[test]
fn victory_narration_bought_leaving_a_challenge_becomes_votes_a_conflict_spends() {
    let s = Scratch::new();
    let mut g = game(&s);
    let start = MezzoChallengeDraft {
        description: "The bridge".into(),
        sides: vec![SideSetup { name: "Mira".into() }, SideSetup { name: "The Ogre".into() }],
        challengers: vec![
            ChallengerSetup { element: g.mira, side: 0, stake: None },
            ChallengerSetup { element: g.ogre, side: 1, stake: None },
        ],
        goals: Vec::new(),
    };
    services::mezzo_challenge_start(&mut g.store, g.game, &start).unwrap();
    services::mezzo_gain_momentum(&mut g.store, g.game, g.mira, 2, MomentumSource::PlotHook).unwrap();
    // The Ogre gives up: Mira leaves in victory and buys 2 votes of Victory Narration.
    let (mira, ada, ogre) = (g.mira, g.ada, g.ogre);
    let play = |g: &mut Game, mv| services::mezzo_challenge_play(&mut g.store, g.game, &mv).unwrap();
    play(&mut g, json!({ "move": "surrender", "challenger": ogre }));
    play(
        &mut g,
        json!({ "move": "spend", "challenger": mira, "by": ada, "spend": { "kind": "victory_narration", "votes": 2 } }),
    );
    let sources = services::mezzo_conflict_sources(&g.store, g.game).unwrap();
    assert_eq!(sources.victory_votes.len(), 1);
    assert_eq!((sources.victory_votes[0].name.as_str(), sources.victory_votes[0].votes), ("Mira", 2));

    // The conflict about the victory: Ada's 3 free votes (Actor, Mira's matters) and the 2
    // narration votes on "It holds".
    let narration = |votes| ConflictCast::Narration { element: g.mira, by: g.ada, option: 0, votes };
    let d = draft(&g, vec![ConflictCast::Free { player: g.ada, option: 0, votes: 1 }, narration(2)]);
    let preview = services::mezzo_conflict_preview(&g.store, g.game, &d, &[]).unwrap();
    assert_eq!((preview.counts.clone(), preview.votes[0].narration), (vec![3, 0], 2));
    let too_many = draft(&g, vec![narration(3)]);
    assert_eq!(field(resolve(&mut g, &too_many).unwrap_err()), "casts[0].votes");
    let out = resolve(&mut g, &d).unwrap();
    assert!(
        out.change.message.contains("Votes from: Mira's Victory Narration (2) for “It holds”"),
        "{}",
        out.change.message
    );
    assert!(services::mezzo_conflict_sources(&g.store, g.game).unwrap().victory_votes.is_empty(), "spent");
    assert_eq!(field(resolve(&mut g, &d).unwrap_err()), "casts[1].votes", "no votes left to spend twice");
    services::undo_game(&mut g.store, g.game).unwrap();
    assert_eq!(
        services::mezzo_conflict_sources(&g.store, g.game).unwrap().victory_votes[0].votes,
        2,
        "undo gives them back"
    );
}

#[test]
fn ill_fated_pays_off_debt_for_the_hostile_option() {
    let s = Scratch::new();
    let mut g = game(&s);
    services::mezzo_gain_adversity(&mut g.store, g.game, g.mira, 1).unwrap();
    // Fortune's Favor with 1 adversity: 1 more as debt.
    services::mezzo_spend_adversity(&mut g.store, g.game, g.mira, Some(g.ada), AdversitySpend::FortunesFavor, true)
        .unwrap();
    let debt = |g: &Game| {
        let v = services::mezzo_table(&g.store, g.game).unwrap();
        v.characters.iter().find(|c| c.element.id == g.mira).unwrap().element.adversity_debt
    };
    assert_eq!(debt(&g), 1);
    let d = draft(&g, vec![ConflictCast::IllFated { element: g.mira, by: g.ada, option: 1, points: 1 }]);
    let out = resolve(&mut g, &d).unwrap();
    assert_eq!(out.result.counts, vec![0, 1]);
    assert!(out.change.message.contains("Mira Ill Fated (1 debt paid off) for “It breaks”"), "{}", out.change.message);
    assert_eq!(debt(&g), 0);
    services::undo_game(&mut g.store, g.game).unwrap();
    assert_eq!(debt(&g), 1);
}

#[test]
fn the_games_laws_and_the_arcs_facts_are_kept_offered_and_invoked() {
    let s = Scratch::new();
    let mut g = game(&s);
    let c = services::mezzo_put_law(&mut g.store, g.game, None, "Law of Tides", "The sea gives back what it takes")
        .unwrap();
    assert_eq!(c.message, "A new Setting Law of the game: “Law of Tides”.");
    let c = services::mezzo_put_fact(&mut g.store, g.game, None, "The bridge is rotten").unwrap();
    assert_eq!(c.message, "A fact is established: “The bridge is rotten”.");
    services::mezzo_create_hook(
        &mut g.store,
        g.game,
        &User { player: g.ada, element: None },
        &HookDraft { text: "Who cut the ropes?".into(), elements: vec![], pay_with: Resource::Influence },
    )
    .unwrap();
    let sources = services::mezzo_conflict_sources(&g.store, g.game).unwrap();
    assert_eq!(sources.laws[0].name, "Law of Tides");
    assert_eq!(sources.facts[0].text, "The bridge is rotten");
    assert_eq!(sources.open_hooks, vec!["Who cut the ropes?".to_owned()], "Inertia may name open hooks");
    let (law, fact) = (sources.laws[0].id, sources.facts[0].id);

    // A fact chosen from the register for Consistency, the game's law like Potential.
    let d = draft(
        &g,
        vec![ConflictCast::Law {
            player: g.ada,
            option: 1,
            law: ConflictLaw::Consistency { fact: "The bridge is rotten".into(), direction: Direction::For },
        }],
    );
    assert_eq!(services::mezzo_conflict_preview(&g.store, g.game, &d, &[]).unwrap().counts, vec![0, 1]);
    let custom = draft(
        &g,
        vec![ConflictCast::Law {
            player: g.ada,
            option: 0,
            law: ConflictLaw::Custom { id: law, direction: Direction::For },
        }],
    );
    let out = resolve(&mut g, &custom).unwrap();
    assert_eq!(out.result.counts, vec![1, 0]);
    assert!(out.change.message.contains("Ada's law “Law of Tides” for “It holds”"), "{}", out.change.message);

    // Rewritten, removed, and each undone.
    services::mezzo_put_fact(&mut g.store, g.game, Some(fact), "The bridge was rotten").unwrap();
    assert_eq!(services::mezzo_conflict_sources(&g.store, g.game).unwrap().facts[0].text, "The bridge was rotten");
    services::undo_game(&mut g.store, g.game).unwrap();
    assert_eq!(services::mezzo_conflict_sources(&g.store, g.game).unwrap().facts[0].text, "The bridge is rotten");
    services::mezzo_remove_law(&mut g.store, g.game, law).unwrap();
    assert!(services::mezzo_conflict_sources(&g.store, g.game).unwrap().laws.is_empty());
    assert_eq!(field(resolve(&mut g, &custom).unwrap_err()), "casts[0].law.id", "a removed law is not there");
    services::undo_game(&mut g.store, g.game).unwrap();
    assert_eq!(services::mezzo_conflict_sources(&g.store, g.game).unwrap().laws.len(), 1);
    assert_eq!(
        field(services::mezzo_put_law(&mut g.store, g.game, None, "Potential", "x").unwrap_err()),
        "name",
        "the source's own laws keep their names"
    );
    assert_eq!(field(services::mezzo_remove_fact(&mut g.store, g.game, Uuid::nil()).unwrap_err()), "id");
}

/// The audit's D6 case through the services: A (5 votes) shows 5, B (6 votes) shows 2 (a
/// score of 4). The app suggests A's burst; A's owner keeps the 5, and A wins. Without the
/// owners' choices the old policy still bursts (and here loses with a reroll of 1).
#[test]
fn a_d6_owner_keeps_a_roll_the_app_would_have_burst() {
    let s = Scratch::new();
    let mut g = game(&s);
    let counted = |option, votes| ConflictCast::Counted { option, votes };
    let d = draft(&g, vec![counted(0, 5), counted(1, 6)]);
    let shown = DiceInput::Entered { values: vec![5, 2] };
    let mut rng = StdRng::seed_from_u64(4);
    let first = services::mezzo_conflict_d6_first(&g.store, g.game, &d, &shown, &mut rng).unwrap();
    assert_eq!((first.faces.clone(), first.may_burst.clone(), first.suggested.clone()), (vec![5, 2], vec![0], vec![0]));
    let keep = Approach::D6 { no_bursts: false, first: Some(first.faces.clone()), bursts: Some(vec![]) };
    let none = DiceInput::Entered { values: vec![] };
    let out = services::mezzo_resolve_conflict(&mut g.store, g.game, &d, &keep, &none, &mut rng).unwrap();
    assert_eq!((out.result.d6_scores.clone(), out.result.outcome.clone()), (Some(vec![5, 4]), Outcome::Winner(0)));
    services::undo_game(&mut g.store, g.game).unwrap();
    // B has no burst to take: refused, naming the choice.
    let bad = Approach::D6 { no_bursts: false, first: Some(vec![5, 2]), bursts: Some(vec![1]) };
    let err = services::mezzo_resolve_conflict(&mut g.store, g.game, &d, &bad, &none, &mut rng).unwrap_err();
    assert_eq!(field(err), "approach.bursts");
    // The owner bursts after all: the reroll comes from the dice.
    let burst = Approach::D6 { no_bursts: false, first: Some(vec![5, 2]), bursts: Some(vec![0]) };
    let reroll = DiceInput::Entered { values: vec![1] };
    let out = services::mezzo_resolve_conflict(&mut g.store, g.game, &d, &burst, &reroll, &mut rng).unwrap();
    assert_eq!((out.result.d6_scores, out.result.outcome), (Some(vec![2, 4]), Outcome::Winner(1)));
}

/// The laws and facts are the whole table's: a player's own device does not change them, and
/// nothing changes when it tries.
#[test]
fn a_players_device_does_not_change_the_tables_laws_or_facts() {
    let s = Scratch::new();
    let mut g = game(&s);
    services::set_device_role(&mut g.store, g.game, "player").unwrap();
    let before = services::mezzo_conflict_sources(&g.store, g.game).unwrap();
    assert_eq!(field(services::mezzo_put_law(&mut g.store, g.game, None, "Fate", "It wins").unwrap_err()), "laws");
    assert_eq!(field(services::mezzo_put_fact(&mut g.store, g.game, None, "The sky is red").unwrap_err()), "facts");
    assert_eq!(services::mezzo_conflict_sources(&g.store, g.game).unwrap(), before);
    services::set_device_role(&mut g.store, g.game, "table").unwrap();
    services::mezzo_put_fact(&mut g.store, g.game, None, "The sky is red").unwrap();
}
