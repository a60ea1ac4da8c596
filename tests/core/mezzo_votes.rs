//! Every vote source of a Mezzo conflict through the services on the real SQLite file:
//! Victory Narration bought when leaving a challenge and spent in a conflict or an action
//! check, Ill Fated, the game's own Setting Laws and the facts register, each undone exactly;
//! Creative Control for every Actor whose character a conflict is about; an Asset
//! Investment's second Empowering Gift.

use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;
use sheetkeeper::rules::mezzo::action_check::{BaseChance, Cast, Direction, SideKind, SideSetup as CheckSide};
use sheetkeeper::rules::mezzo::challenge::{ChallengerSetup, SideSetup};
use sheetkeeper::rules::mezzo::conflict::Outcome;
use sheetkeeper::rules::mezzo::element::{
    AdversitySpend, ElementKind, Lasts, MomentumSource, Properties, Role, Template, Via,
};
use sheetkeeper::rules::mezzo::plot::{Resource, User};
use sheetkeeper::rules::mezzo::vote::{ConflictCast, ConflictDraft, ConflictLaw};
use sheetkeeper::services::{
    self, Approach, CheckDraft, CheckRequest, DiceInput, HookDraft, MezzoChallengeDraft, TraitDraft,
};
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

/// Mira and the Ogre meet at the bridge; the Ogre gives up, and Mira leaves in victory and
/// buys 2 votes of Victory Narration with her 2 momentum.
fn mira_bought_victory_narration(g: &mut Game) {
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
    let play = |g: &mut Game, mv| services::mezzo_challenge_play(&mut g.store, g.game, &mv).unwrap();
    play(g, json!({ "move": "surrender", "challenger": g.ogre }));
    let spend = json!({ "move": "spend", "challenger": g.mira, "by": g.ada,
        "spend": { "kind": "victory_narration", "votes": 2 } });
    play(g, spend);
}

#[test]
fn victory_narration_bought_leaving_a_challenge_becomes_votes_a_conflict_spends() {
    let s = Scratch::new();
    let mut g = game(&s);
    mira_bought_victory_narration(&mut g);
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

/// DEV-2: an action check takes the vote sources a conflict takes — Victory Narration (the
/// bank is spent), Ill Fated (the debt is paid off), the game's law and Discover's detail
/// aside — paid when it resolves; undo gives every one back.
#[test]
fn an_action_check_spends_narration_and_ill_fated_and_undo_gives_them_back() {
    let s = Scratch::new();
    let mut g = game(&s);
    mira_bought_victory_narration(&mut g);
    // 1 adversity debt on Mira.
    services::mezzo_gain_adversity(&mut g.store, g.game, g.mira, 1).unwrap();
    services::mezzo_spend_adversity(&mut g.store, g.game, g.mira, Some(g.ada), AdversitySpend::FortunesFavor, true)
        .unwrap();
    let state = |g: &Game| {
        let v = services::mezzo_table(&g.store, g.game).unwrap();
        let debt = v.characters.iter().find(|c| c.element.id == g.mira).unwrap().element.adversity_debt;
        let bank = services::mezzo_conflict_sources(&g.store, g.game).unwrap().victory_votes;
        (debt, bank.first().map_or(0, |b| b.votes))
    };
    assert_eq!(state(&g), (1, 2));

    // Mira crosses the gap (common) against her fall (occasional): 1 narration vote for her,
    // her 1 debt for the fall that would harm her.
    let request = CheckRequest {
        setup: CheckDraft {
            description: "Mira leaps the gap".into(),
            sides: vec![
                CheckSide {
                    kind: SideKind::Action { element: g.mira },
                    description: String::new(),
                    chance: BaseChance::Common,
                    aptitude: 0,
                },
                CheckSide {
                    kind: SideKind::Failure,
                    description: "She falls".into(),
                    chance: BaseChance::Occasional,
                    aptitude: 0,
                },
            ],
            involved: vec![],
        },
        casts: vec![
            Cast::Narration { element: g.mira, by: g.ada, side: 0, votes: 1 },
            Cast::IllFated { element: g.mira, by: g.ada, side: 1, points: 1 },
        ],
        perks: vec![],
    };
    let preview = services::mezzo_check_preview(&g.store, g.game, &request).unwrap();
    assert_eq!(
        (
            preview.tallies[0].narration,
            preview.tallies[0].total,
            preview.tallies[1].ill_fated,
            preview.tallies[1].total
        ),
        (1, 3, 1, 2)
    );
    // Her own action is no event against her: refused, naming the cast.
    let mut own = request.clone();
    own.casts[1] = Cast::IllFated { element: g.mira, by: g.ada, side: 0, points: 1 };
    assert_eq!(field(services::mezzo_check_preview(&g.store, g.game, &own).unwrap_err()), "casts[1].side");
    let mut greedy = request.clone();
    greedy.casts[0] = Cast::Narration { element: g.mira, by: g.ada, side: 0, votes: 3 };
    assert_eq!(field(services::mezzo_check_preview(&g.store, g.game, &greedy).unwrap_err()), "casts[0].votes");

    let mut rng = StdRng::seed_from_u64(3);
    services::mezzo_check_roll(&mut g.store, g.game, &request, &DiceInput::Entered { values: vec![7, 2] }, &mut rng)
        .unwrap();
    assert_eq!(state(&g), (1, 2), "nothing is paid by the roll");
    let out = services::mezzo_check_resolve(&mut g.store, g.game, &[]).unwrap();
    assert_eq!(out.result.winner, Some(0));
    assert_eq!(state(&g), (0, 1), "the debt is paid off and a narration vote spent");
    services::undo_game(&mut g.store, g.game).unwrap();
    assert_eq!(state(&g), (1, 2), "undo gives both back");
}

/// DEV-8: a conflict about two claimed characters gives each of their Actors 3 free votes.
#[test]
fn a_conflict_about_two_claimed_characters_gives_both_actors_creative_control() {
    let s = Scratch::new();
    let mut g = game(&s);
    let rook = services::create_character(&mut g.store, g.game, "Rook").unwrap().id;
    let bo = services::mezzo_add_player(&mut g.store, g.game, "Bo").unwrap().view.players[1].player.id;
    services::mezzo_take_role(&mut g.store, g.game, bo, Role::Actor).unwrap();
    services::mezzo_claim(&mut g.store, g.game, bo, rook).unwrap();
    let free = |player, option| ConflictCast::Free { player, option, votes: 3 };
    let mut d = draft(&g, vec![free(g.ada, 0), free(bo, 1)]);
    d.about = vec![g.mira, rook];
    d.active_in_scene = vec![g.mira, rook];
    assert_eq!(services::mezzo_conflict_preview(&g.store, g.game, &d, &[]).unwrap().counts, vec![3, 3]);
    d.about = vec![g.mira];
    assert_eq!(field(services::mezzo_conflict_preview(&g.store, g.game, &d, &[]).unwrap_err()), "casts[1].votes");
}

/// DEV-4: an Asset Investment put into the asset's selected element gives it the edge and one
/// more Empowering Gift at a time, through the services; undo takes it back.
#[test]
fn an_asset_investment_lets_its_element_lend_a_second_gift() {
    let s = Scratch::new();
    let mut g = game(&s);
    let (game_id, mira, ogre) = (g.game, g.mira, g.ogre);
    // Mira's Asset "The Ogre" with an investment in "Iron hide"; the Ogre holds two gifts.
    let asset = lasting_trait(&mut g, mira, Template::Asset, "Pet ogre", None, "The Ogre");
    let investment = lasting_trait(&mut g, mira, Template::AssetInvestment, "Investment", Some(asset), "Iron hide");
    let fire = lasting_trait(&mut g, ogre, Template::EmpoweringGift, "Gift of fire", None, "Fire");
    let wings = lasting_trait(&mut g, ogre, Template::EmpoweringGift, "Gift of wings", None, "Wings");
    let lend = |g: &mut Game, gift| services::mezzo_lend_gift(&mut g.store, game_id, ogre, gift, mira, true);
    lend(&mut g, fire).unwrap();
    assert_eq!(field(lend(&mut g, wings).unwrap_err()), "trait_id", "one gift at a time");
    let out = services::mezzo_invest_asset(&mut g.store, game_id, mira, investment, ogre, true).unwrap();
    assert_eq!(out.message, "Mira's asset The Ogre gains “Iron hide” from its Asset Investment.");
    let ogre_view = out.view.elements.iter().find(|e| e.element.id == ogre).unwrap();
    assert_eq!(ogre_view.gifts_at_once, 2);
    assert!(ogre_view.element.traits.iter().any(|t| t.name == "Iron hide"));
    let mira_view = out.view.characters.iter().find(|e| e.element.id == mira).unwrap();
    assert_eq!((mira_view.investments[0].investment, mira_view.investments[0].target), (investment, ogre));
    lend(&mut g, wings).unwrap();
    // Undo the second gift and the investment: one gift at a time again.
    services::undo_game(&mut g.store, game_id).unwrap();
    services::undo_game(&mut g.store, game_id).unwrap();
    assert_eq!(field(lend(&mut g, wings).unwrap_err()), "trait_id");
    assert_eq!(
        field(services::mezzo_invest_asset(&mut g.store, game_id, mira, fire, ogre, true).unwrap_err()),
        "trait_id",
        "only an Asset Investment invests"
    );
    // The investment lost takes its edge and the extra gift with it, in the same move.
    services::mezzo_invest_asset(&mut g.store, game_id, mira, investment, ogre, true).unwrap();
    let out = services::mezzo_remove_trait(&mut g.store, game_id, mira, investment).unwrap();
    assert_eq!(out.message, "Mira loses “Investment”. The Ogre loses “Iron hide”, the investment's edge.");
    let ogre_view = out.view.elements.iter().find(|e| e.element.id == ogre).unwrap();
    assert_eq!(ogre_view.gifts_at_once, 1);
    assert!(!ogre_view.element.traits.iter().any(|t| t.name == "Iron hide"));
    assert_eq!(field(lend(&mut g, wings).unwrap_err()), "trait_id", "one gift at a time again");
    // Undo gives back both the extra and the edge.
    services::undo_game(&mut g.store, game_id).unwrap();
    let v = services::mezzo_table(&g.store, game_id).unwrap();
    assert!(v
        .elements
        .iter()
        .find(|e| e.element.id == ogre)
        .unwrap()
        .element
        .traits
        .iter()
        .any(|t| t.name == "Iron hide"));
}

/// DEV-4: a table's element that leaves the story loses its Asset Investments with it: the
/// asset's selected element gives back the invested edge, in the same undoable move.
#[test]
fn an_element_leaving_the_story_takes_back_its_investments_edge() {
    let s = Scratch::new();
    let mut g = game(&s);
    let (game_id, mira, ogre) = (g.game, g.mira, g.ogre);
    // The Ogre's Asset "Mira" with an investment in "Iron hide", invested in Mira.
    let asset = lasting_trait(&mut g, ogre, Template::Asset, "Our champion", None, "Mira");
    let investment = lasting_trait(&mut g, ogre, Template::AssetInvestment, "Investment", Some(asset), "Iron hide");
    services::mezzo_invest_asset(&mut g.store, game_id, ogre, investment, mira, true).unwrap();
    let holds_iron_hide = |g: &Game| {
        let v = services::mezzo_table(&g.store, game_id).unwrap();
        let m = v.characters.into_iter().find(|e| e.element.id == mira).unwrap();
        m.element.traits.iter().any(|t| t.name == "Iron hide")
    };
    assert!(holds_iron_hide(&g));

    let out = services::mezzo_remove_element(&mut g.store, game_id, ogre).unwrap();
    assert_eq!(out.message, "The Ogre leaves the story. Mira loses “Iron hide”, the investment's edge.");
    assert!(out.view.elements.is_empty());
    assert!(!holds_iron_hide(&g));
    // One move: one undo gives back the Ogre and Mira's edge.
    services::undo_game(&mut g.store, game_id).unwrap();
    assert!(holds_iron_hide(&g));
    let v = services::mezzo_table(&g.store, game_id).unwrap();
    assert!(v.elements.iter().any(|e| e.element.id == ogre));
}

/// A character whose Asset Investment gives another element its edge is not deleted (nor
/// moved to another game) until the investment is taken back: the edge would be given by
/// nobody. Refused, naming the edge's source and holder, and nothing changes.
#[test]
fn a_character_whose_investment_gives_an_edge_stays_until_it_is_taken_back() {
    let s = Scratch::new();
    let mut g = game(&s);
    let (game_id, ogre) = (g.game, g.ogre);
    let tomas = services::create_character(&mut g.store, game_id, "Tomas").unwrap().id;
    let asset = lasting_trait(&mut g, tomas, Template::Asset, "Old friend", None, "The Ogre");
    let investment = lasting_trait(&mut g, tomas, Template::AssetInvestment, "Favour owed", Some(asset), "Thick skull");
    services::mezzo_invest_asset(&mut g.store, game_id, tomas, investment, ogre, true).unwrap();

    let refused = services::delete_character(&mut g.store, tomas).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "id: “Tomas”'s “Favour owed” gives The Ogre an edge: take it back before “Tomas” is deleted"
    );
    assert!(services::mezzo_table(&g.store, game_id).unwrap().characters.iter().any(|e| e.element.id == tomas));

    services::mezzo_remove_trait(&mut g.store, game_id, tomas, investment).unwrap();
    services::delete_character(&mut g.store, tomas).unwrap();
    let v = services::mezzo_table(&g.store, game_id).unwrap();
    assert!(v.characters.iter().all(|e| e.element.id != tomas));
}

/// Adds to `owner` (a character or one of the table's elements) a lasting trait of
/// `template` in an edge slot, set up with `set_up` (an Asset's name of what it is, an
/// investment's edge), and returns its id. Mira's are added by Ada, who claims her.
fn lasting_trait(
    g: &mut Game,
    owner: Uuid,
    template: Template,
    name: &str,
    target: Option<Uuid>,
    set_up: &str,
) -> Uuid {
    let draft = TraitDraft {
        kind: None,
        template: Some(template),
        name: name.into(),
        properties: Properties { set_up: set_up.into(), ..Properties::default() },
        target_trait: target,
        granted_by: None,
        via: Via::EdgeSlot,
        lasts: Lasts::Lasting,
        uses_left: None,
    };
    let by = (owner == g.mira).then_some(g.ada);
    let v = services::mezzo_add_trait(&mut g.store, g.game, owner, by, draft).unwrap().view;
    let e = v.characters.into_iter().chain(v.elements).find(|e| e.element.id == owner).unwrap();
    e.element.traits.iter().find(|t| t.name == name).unwrap().id
}
