//! Mezzo plot hooks, arcs and the seed deck through the services on the real SQLite file:
//! hooks paid, invested in and resolved with their share-out, costs doubled after the
//! Turning Point, the arc's end; the deck's initial draw, links, refresh and the keyword
//! die; every move undone; refused moves changing nothing; a rich plot and deck read back
//! from the store and carried by a golden game file.
//!
//! `SHEETKEEPER_BLESS=1 cargo test -p sheetkeeper mezzo_plot` rewrites the golden file from
//! the scene; review the diff before keeping it.

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use sheetkeeper::exchange;
use sheetkeeper::rules::journal::{Journal, Session};
use sheetkeeper::rules::mezzo::element::{Element, ElementKind, MomentumSource, Role, Template, Via};
use sheetkeeper::rules::mezzo::plot::{
    self, Arc, Award, BoostDraw, InChallenge, MemorableAward, Resource, Sacrifice, User,
};
use sheetkeeper::rules::mezzo::seed_deck::{self, Card, Ending, KeywordDie};
use sheetkeeper::rules::mezzo::vote::ConflictCast;
use sheetkeeper::services::{self, DiceInput, HookDraft, ImportOptions, MezzoChange};
use sheetkeeper::{Error, Result, Store};
use uuid::Uuid;

use crate::mezzo_store::{bridge, insert_scene, scene, uuid, ADA, BO, COVE, CY, GAME, LIGHTHOUSE, MIRA, TOMAS};
use crate::support::files::a_golden_game_file_travels_both_ways;
use crate::support::{bytes_on_disk, fixture, mezzo_depart, mezzo_storm, mezzo_surrender, Scratch};

const PLOT_FILE: &str = "mezzo-plot-game.sheetkeeper.json";
const OLDER_FILE: &str = "mezzo-game.sheetkeeper.json";

/// A Mezzo game in arc 1: players Ada, Bo and Cy; characters Mira and Tomas; the
/// lighthouse, a location of the table.
struct Table {
    scratch: Scratch,
    store: Store,
    game: Uuid,
    rng: StdRng,
}

/// What a move changes: the table and the characters' sheets.
type State = crate::support::MezzoState;

impl Table {
    fn new() -> Table {
        let scratch = Scratch::new();
        let mut store = scratch.open();
        let game = services::create_game(&mut store, "The Drowned Cove", "mezzo").unwrap().game.id;
        for name in ["Mira", "Tomas"] {
            services::create_character(&mut store, game, name).unwrap();
        }
        for name in ["Ada", "Bo", "Cy"] {
            services::mezzo_add_player(&mut store, game, name).unwrap();
        }
        services::mezzo_add_element(&mut store, game, ElementKind::Location, "The Lighthouse").unwrap();
        services::mezzo_start_arc(&mut store, game).unwrap();
        Table { scratch, store, game, rng: StdRng::seed_from_u64(11) }
    }

    /// Starts a challenge of `a` against `b` (the plot's challenge options are only used
    /// during one) and names it as they do.
    fn challenge(&mut self, a: &str, b: &str) -> InChallenge {
        use sheetkeeper::rules::mezzo::challenge::{ChallengerSetup, SideSetup};
        let (a, b) = (self.element(a).id, self.element(b).id);
        let draft = services::MezzoChallengeDraft {
            description: "The storm".into(),
            sides: vec![SideSetup { name: "Crew".into() }, SideSetup { name: "Sea".into() }],
            challengers: vec![
                ChallengerSetup { element: a, side: 0, stake: None },
                ChallengerSetup { element: b, side: 1, stake: None },
            ],
            goals: Vec::new(),
        };
        let started = services::mezzo_challenge_start(&mut self.store, self.game, &draft).unwrap();
        InChallenge { id: started.challenge.expect("a challenge").id, challengers: vec![a, b] }
    }

    /// The challenge being played, named with its challengers still in.
    fn playing(&self) -> InChallenge {
        let ch = services::mezzo_challenge(&self.store, self.game).unwrap().expect("a challenge");
        InChallenge { id: ch.id, challengers: ch.challengers.iter().map(|c| c.element).collect() }
    }

    fn player(&self, name: &str) -> Uuid {
        let v = services::mezzo_table(&self.store, self.game).unwrap();
        v.players.iter().find(|p| p.player.name == name).unwrap_or_else(|| panic!("no {name}")).player.id
    }

    fn influence(&self, name: &str) -> u32 {
        let v = services::mezzo_table(&self.store, self.game).unwrap();
        v.players.iter().find(|p| p.player.name == name).unwrap().player.influence
    }

    fn element(&self, name: &str) -> Element {
        let v = services::mezzo_table(&self.store, self.game).unwrap();
        v.characters.into_iter().chain(v.elements).find(|e| e.element.name == name).unwrap().element
    }

    /// `player` acting through `element` (if any).
    fn user(&self, player: &str, element: Option<&str>) -> User {
        User { player: self.player(player), element: element.map(|e| self.element(e).id) }
    }

    fn hooks(&self) -> Vec<Uuid> {
        services::mezzo_plot(&self.store, self.game).unwrap().hooks.iter().map(|h| h.hook.id).collect()
    }

    fn hand(&self, name: &str) -> Vec<Card> {
        services::mezzo_hand(&self.store, self.game, self.player(name)).unwrap().hand
    }

    fn active(&self, name: &str) -> Vec<Uuid> {
        let hand = services::mezzo_hand(&self.store, self.game, self.player(name)).unwrap();
        hand.active.iter().map(|a| a.card.id).collect()
    }

    fn state(&self) -> State {
        State::of_game(&self.store, self.game)
    }

    /// `name` plays the first card of their hand.
    fn play_first_card(&mut self, name: &str) -> Result<MezzoChange> {
        let (player, card) = (self.player(name), self.hand(name)[0].id);
        services::mezzo_play_card(&mut self.store, self.game, player, card).map(|c| c.change)
    }

    /// Ada links her first card in play to the first of `to`'s.
    fn ada_links_to(&mut self, to: &str) -> Result<MezzoChange> {
        let (ada, card, to) = (self.player("Ada"), self.active("Ada")[0], self.active(to)[0]);
        services::mezzo_link_cards(&mut self.store, self.game, ada, card, to).map(|c| c.change)
    }

    fn hook(&mut self, by: &str, through: Option<&str>, text: &str, pay_with: Resource) -> Result<MezzoChange> {
        let user = self.user(by, through);
        let draft = HookDraft { text: text.into(), elements: Vec::new(), pay_with };
        services::mezzo_create_hook(&mut self.store, self.game, &user, &draft).map(|c| c.change)
    }

    /// `by` (through `through`, if any) invests `points` of `resource` in the first hook.
    fn invest(&mut self, by: &str, through: Option<&str>, resource: Resource, points: u32) -> Result<MezzoChange> {
        let (hook, user) = (self.hooks()[0], self.user(by, through));
        services::mezzo_invest(&mut self.store, self.game, hook, &user, resource, points).map(|c| c.change)
    }

    /// Expects `mv` to be refused naming `field`, the database unchanged byte for byte.
    fn refused(&mut self, field: &str, mv: impl FnOnce(&mut Table) -> Result<MezzoChange>) {
        let before = bytes_on_disk(&self.scratch.db());
        match mv(self) {
            Err(Error::Invalid { field: f, problem }) => assert_eq!(f, field, "{problem}"),
            other => panic!("{field}: expected a refusal, got {:?}", other.map(|c| c.message)),
        }
        assert_eq!(bytes_on_disk(&self.scratch.db()), before, "{field}: the database must not change");
    }
}

type Step = (&'static str, fn(&mut Table) -> Result<MezzoChange>, fn(&Table));

/// Plays each move, undoes it (the table and sheets are exactly as before), plays it again
/// and checks what it left.
fn play_and_undo_each(t: &mut Table, steps: Vec<Step>) {
    for (what, mv, check) in steps {
        let before = t.state();
        let change = mv(t).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_ne!(t.state(), before, "{what} changes something");
        let undone = services::undo_game(&mut t.store, t.game).unwrap_or_else(|e| panic!("undo {what}: {e}"));
        assert_eq!(undone.message, format!("Undone: {}", change.message), "{what}");
        assert_eq!(t.state(), before, "undo {what}");
        mv(t).unwrap_or_else(|e| panic!("{what} again: {e}"));
        check(t);
    }
    assert!(t.store.check().unwrap().ok);
}

#[test]
fn a_hook_is_paid_invested_in_and_resolved_with_its_points_shared_out_evenly() {
    let mut t = Table::new();
    let (tomas, lighthouse) = (t.element("Tomas").id, t.element("The Lighthouse").id);
    services::mezzo_gain_momentum(&mut t.store, t.game, tomas, 3, MomentumSource::PlotHook).unwrap();
    services::mezzo_gain_adversity(&mut t.store, t.game, lighthouse, 4).unwrap();
    let steps: Vec<Step> = vec![
        (
            "Ada makes a hook with her influence",
            |t| t.hook("Ada", None, "Where is the map?", Resource::Influence),
            |t| {
                assert_eq!(t.influence("Ada"), 2);
                let plot = services::mezzo_plot(&t.store, t.game).unwrap();
                assert_eq!((plot.hooks.len(), plot.hooks[0].total), (1, 0), "a hook starts empty");
            },
        ),
        (
            "Bo invests 2 momentum through Tomas",
            |t| t.invest("Bo", Some("Tomas"), Resource::Momentum, 2),
            |t| assert_eq!(t.element("Tomas").momentum, 1),
        ),
        (
            "Cy invests 2 influence",
            |t| t.invest("Cy", None, Resource::Influence, 2),
            |t| assert_eq!(t.influence("Cy"), 1),
        ),
        (
            "Cy invests the lighthouse's 4 adversity",
            |t| t.invest("Cy", Some("The Lighthouse"), Resource::Adversity, 4),
            |t| {
                assert_eq!(t.element("The Lighthouse").adversity, 0);
                let plot = services::mezzo_plot(&t.store, t.game).unwrap();
                let hook = &plot.hooks[0];
                assert_eq!((hook.points.influence, hook.points.adversity, hook.points.momentum), (2, 4, 2));
                let investors: Vec<&str> = hook.hook.stored.iter().map(|i| plot.names[&i.by].as_str()).collect();
                assert_eq!(investors, ["Tomas", "Cy", "The Lighthouse"], "each investment keeps its investor");
            },
        ),
        (
            "Ada taps a point of influence",
            |t| {
                let (hook, user) = (t.hooks()[0], t.user("Ada", None));
                services::mezzo_tap(&mut t.store, t.game, hook, &user, Resource::Influence).map(|c| c.change)
            },
            |t| assert_eq!(t.influence("Ada"), 3),
        ),
        (
            "Cy invests the point again",
            |t| t.invest("Cy", None, Resource::Influence, 1),
            |t| assert_eq!(t.influence("Cy"), 0),
        ),
        (
            "Ada resolves it through Mira, sharing out evenly",
            |t| {
                let (hook, user) = (t.hooks()[0], t.user("Ada", Some("Mira")));
                let even = services::mezzo_even_share(&t.store, t.game, hook, &user).unwrap();
                assert_eq!(even.iter().map(|a| a.points).sum::<u32>(), 8);
                services::mezzo_resolve_hook(&mut t.store, t.game, hook, &user, Resource::Momentum, None)
                    .map(|c| c.change)
            },
            |t| {
                assert!(t.hooks().is_empty());
                assert_eq!(t.element("Mira").momentum, 1, "the reward: 1 momentum");
                // Influence among the other players: 1 each. Adversity then momentum among
                // the other elements in the table's order (Tomas, then the lighthouse):
                // 3 points each, nobody a point ahead.
                assert_eq!((t.influence("Ada"), t.influence("Bo"), t.influence("Cy")), (3, 4, 1));
                let (tomas, lighthouse) = (t.element("Tomas"), t.element("The Lighthouse"));
                assert_eq!((tomas.adversity, tomas.momentum), (2, 1 + 1));
                assert_eq!((lighthouse.adversity, lighthouse.momentum), (2, 1));
            },
        ),
    ];
    play_and_undo_each(&mut t, steps);

    // The same hook, resolved with a share the user chose: any share that hands out every
    // point with nobody more than one ahead.
    services::undo_game(&mut t.store, t.game).unwrap();
    let (hook, user) = (t.hooks()[0], t.user("Ada", Some("Mira")));
    let (bo, cy, tomas, lighthouse) =
        (t.player("Bo"), t.player("Cy"), t.element("Tomas").id, t.element("The Lighthouse").id);
    let unfair = [
        Award { to: bo, resource: Resource::Influence, points: 2 },
        Award { to: tomas, resource: Resource::Adversity, points: 4 },
        Award { to: lighthouse, resource: Resource::Momentum, points: 2 },
    ];
    t.refused("share", |t| {
        services::mezzo_resolve_hook(&mut t.store, t.game, hook, &user, Resource::Influence, Some(&unfair))
            .map(|c| c.change)
    });
    let chosen = [
        Award { to: cy, resource: Resource::Influence, points: 1 },
        Award { to: bo, resource: Resource::Influence, points: 1 },
        Award { to: tomas, resource: Resource::Adversity, points: 3 },
        Award { to: lighthouse, resource: Resource::Adversity, points: 1 },
        Award { to: lighthouse, resource: Resource::Momentum, points: 2 },
    ];
    services::mezzo_resolve_hook(&mut t.store, t.game, hook, &user, Resource::Influence, Some(&chosen)).unwrap();
    assert_eq!((t.influence("Ada"), t.influence("Bo"), t.influence("Cy")), (4, 4, 1));
    assert_eq!((t.element("Tomas").adversity, t.element("The Lighthouse").momentum), (3, 2));
}

#[test]
fn after_the_turning_point_hooks_cost_and_give_twice_as_much_and_the_arc_may_end() {
    let mut t = Table::new();
    let lighthouse = t.element("The Lighthouse").id;
    services::mezzo_gain_momentum(&mut t.store, t.game, lighthouse, 10, MomentumSource::PlotHook).unwrap();
    for n in 1..=5 {
        t.hook("Cy", Some("The Lighthouse"), &format!("Hook {n}"), Resource::Momentum).unwrap();
    }
    assert_eq!(t.element("The Lighthouse").momentum, 5, "1 momentum a hook");
    let hooks = t.hooks();
    let bo = t.user("Bo", None);
    services::mezzo_invest(&mut t.store, t.game, hooks[0], &bo, Resource::Influence, 2).unwrap();
    // Outside a challenge the Turning Point is refused; in one, it needs 5 triggered hooks.
    t.refused("challenge", |t| {
        let (hooks, elsewhere) = (t.hooks(), InChallenge { id: Uuid::new_v4(), challengers: Vec::new() });
        services::mezzo_turning_point(&mut t.store, t.game, &hooks, &elsewhere, &[], &[]).map(|c| c.change)
    });
    let challenge = t.challenge("Mira", "The Lighthouse");
    t.refused("hooks", |t| {
        services::mezzo_turning_point(&mut t.store, t.game, &hooks[..4], &challenge, &[], &[]).map(|c| c.change)
    });

    let steps: Vec<Step> = vec![
        (
            "the Turning Point: a sacrifice makes the adversity Mira draws",
            |t| {
                let hooks = t.hooks();
                let (mira, challenge) = (t.element("Mira").id, t.playing());
                let sacrifices = [Sacrifice { hook: hooks[0], resource: Resource::Influence }];
                let draws = [BoostDraw { challenger: mira, hook: hooks[0] }];
                services::mezzo_turning_point(&mut t.store, t.game, &hooks, &challenge, &sacrifices, &draws)
                    .map(|c| c.change)
            },
            |t| {
                assert_eq!(t.element("Mira").adversity, 1);
                let plot = services::mezzo_plot(&t.store, t.game).unwrap();
                assert!(plot.can_end);
                assert_eq!((plot.hooks[0].points.influence, plot.hooks[0].points.adversity), (1, 1));
                assert_eq!((plot.hook_cost.influence, plot.hook_cost.adversity, plot.hook_cost.momentum), (2, 4, 2));
                assert_eq!(plot.resolve_reward, plot.hook_cost);
            },
        ),
        (
            "a hook now costs the lighthouse 2 momentum",
            |t| t.hook("Cy", Some("The Lighthouse"), "Hook 6", Resource::Momentum),
            |t| assert_eq!(t.element("The Lighthouse").momentum, 3),
        ),
        (
            "and Ada 2 influence",
            |t| t.hook("Ada", None, "Hook 7", Resource::Influence),
            |t| assert_eq!(t.influence("Ada"), 1),
        ),
        (
            "resolving one gives 2 influence",
            |t| {
                let (hook, user) = (*t.hooks().last().unwrap(), t.user("Ada", None));
                services::mezzo_resolve_hook(&mut t.store, t.game, hook, &user, Resource::Influence, None)
                    .map(|c| c.change)
            },
            |t| assert_eq!(t.influence("Ada"), 3),
        ),
        (
            "Mira sets a theme of the arc",
            |t| {
                let mira = t.element("Mira").id;
                services::mezzo_set_theme(&mut t.store, t.game, mira, "The sea keeps what it takes").map(|c| c.change)
            },
            |t| {
                let plot = services::mezzo_plot(&t.store, t.game).unwrap();
                assert_eq!(plot.turning_point.unwrap().themes[0].text, "The sea keeps what it takes");
            },
        ),
        (
            "Mira surrenders (an arc ends after its challenges)",
            |t| {
                let mira = t.element("Mira").id;
                mezzo_surrender(&mut t.store, t.game, mira)
            },
            |t| assert!(mezzo_storm(&t.store, t.game).departure.is_some()),
        ),
        (
            "the challengers depart: the storm is over",
            |t| mezzo_depart(&mut t.store, t.game),
            |t| assert!(mezzo_storm(&t.store, t.game).over),
        ),
        (
            "a rumour's contagious consequences are kept on the arc",
            |t| {
                services::mezzo_put_consequence(&mut t.store, t.game, None, "The town fears the lighthouse", true)
                    .map(|c| c.change)
            },
            |t| assert_eq!(services::mezzo_plot(&t.store, t.game).unwrap().consequences.len(), 1),
        ),
        (
            "a lingering consequence is kept on the arc",
            |t| {
                services::mezzo_put_consequence(&mut t.store, t.game, None, "Whispers at the inn", false)
                    .map(|c| c.change)
            },
            |t| assert_eq!(services::mezzo_plot(&t.store, t.game).unwrap().consequences.len(), 2),
        ),
        (
            "a scene starts",
            |t| services::mezzo_start_scene(&mut t.store, t.game),
            |t| assert!(services::mezzo_plot(&t.store, t.game).unwrap().can_end),
        ),
        (
            "the arc may not end mid-scene (DEV-10); the scene ends",
            |t| {
                let refused = services::mezzo_end_arc(&mut t.store, t.game, &[]).map(|c| c.change.message);
                match refused {
                    Err(Error::Invalid { field, problem }) => {
                        assert_eq!(field, "scene");
                        assert_eq!(
                            problem,
                            "an arc ends at the end of a scene: end the scene being played first (Table tab)"
                        );
                    }
                    other => panic!("expected a refusal, got {other:?}"),
                }
                services::mezzo_end_scene(&mut t.store, t.game)
            },
            |t| assert_eq!(services::mezzo_plot(&t.store, t.game).unwrap().arc, 1, "the arc goes on"),
        ),
        (
            "a conflict is opened for votes on the players' phones",
            |t| services::mezzo_open_conflict_for_votes(&mut t.store, t.game, &bridge()),
            |t| assert!(services::mezzo_open_conflict(&t.store, t.game).unwrap().is_some()),
        ),
        (
            "Ada votes 1 influence in it",
            |t| {
                let ada = t.player("Ada");
                let casts = [ConflictCast::Influence { player: ada, option: 0, points: 1 }];
                services::mezzo_cast_ballot(&mut t.store, t.game, ada, &casts)
            },
            |t| assert_eq!(services::mezzo_open_conflict(&t.store, t.game).unwrap().unwrap().ballots.len(), 1),
        ),
        (
            "no new arc resets Ada's influence under her ballot; the table withdraws the conflict",
            |t| {
                t.refused("open_conflict", |t| services::mezzo_end_arc(&mut t.store, t.game, &[]).map(|c| c.change));
                services::mezzo_withdraw_open_conflict(&mut t.store, t.game)
            },
            |t| assert!(services::mezzo_open_conflict(&t.store, t.game).unwrap().is_none()),
        ),
        (
            "the arc ends with the lighthouse memorable",
            |t| {
                let memorable = [MemorableAward {
                    by: t.player("Ada"),
                    element: t.element("The Lighthouse").id,
                    undisputable: true,
                }];
                services::mezzo_end_arc(&mut t.store, t.game, &memorable).map(|c| c.change)
            },
            |t| {
                let plot = services::mezzo_plot(&t.store, t.game).unwrap();
                assert_eq!((plot.arc, plot.hooks.len(), plot.can_end), (2, 0, false), "the hooks expired");
                let kept: Vec<(&str, u32)> = plot.consequences.iter().map(|c| (c.text.as_str(), c.arc)).collect();
                assert_eq!(
                    kept,
                    vec![("The town fears the lighthouse", 1)],
                    "the lingering one faded, the contagious one stays"
                );
                assert_eq!(plot.hook_cost.influence, 1, "costs are back to normal");
                let lighthouse = t.element("The Lighthouse");
                assert_eq!((lighthouse.momentum, lighthouse.awards.memorable_arcs.as_slice()), (0, &[1][..]));
                assert_eq!((t.element("Mira").adversity, t.influence("Ada"), t.influence("Bo")), (0, 3, 3));
            },
        ),
    ];
    play_and_undo_each(&mut t, steps);
    t.refused("turning_point", |t| services::mezzo_start_arc(&mut t.store, t.game));
}

#[test]
fn moves_the_rules_refuse_name_the_field_and_change_nothing() {
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let game = services::create_game(&mut store, "Cove", "mezzo").unwrap().game.id;
    services::mezzo_add_player(&mut store, game, "Ada").unwrap();
    let mut t = Table { scratch, store, game, rng: StdRng::seed_from_u64(1) };
    t.refused("arc", |t| t.hook("Ada", None, "Too early", Resource::Influence));
    t.refused("deck", |t| {
        let ada = t.player("Ada");
        services::mezzo_buy_cards(&mut t.store, t.game, ada, 1, &mut t.rng).map(|c| c.change)
    });

    let mut t = Table::new();
    t.refused("has", |t| t.hook("Ada", Some("Mira"), "No momentum", Resource::Momentum));
    t.refused("pay_with", |t| t.hook("Ada", None, "Whose adversity?", Resource::Adversity));
    t.refused("text", |t| t.hook("Ada", None, "  ", Resource::Influence));
    // A rewrite names an entry of its register: an id that is none of them is refused, not added.
    let stranger = Some(Uuid::new_v4());
    t.refused("id", |t| services::mezzo_put_law(&mut t.store, t.game, stranger, "Tides", "They rise at dusk"));
    t.refused("id", |t| services::mezzo_put_fact(&mut t.store, t.game, stranger, "The mill burned"));
    t.refused("id", |t| {
        services::mezzo_put_consequence(&mut t.store, t.game, stranger, "Rumours", false).map(|c| c.change)
    });
    t.refused("user.player", |t| {
        let user = User { player: Uuid::new_v4(), element: None };
        let draft = HookDraft { text: "A stranger's".into(), elements: Vec::new(), pay_with: Resource::Influence };
        services::mezzo_create_hook(&mut t.store, t.game, &user, &draft).map(|c| c.change)
    });
    t.hook("Ada", None, "Where is the map?", Resource::Influence).unwrap();
    t.refused("points", |t| t.invest("Bo", None, Resource::Influence, 0));
    t.refused("resource", |t| {
        let (hook, user) = (t.hooks()[0], t.user("Bo", None));
        services::mezzo_tap(&mut t.store, t.game, hook, &user, Resource::Influence).map(|c| c.change)
    });
    t.refused("turning_point", |t| {
        let mira = t.element("Mira").id;
        services::mezzo_set_theme(&mut t.store, t.game, mira, "Too soon").map(|c| c.change)
    });
    t.refused("challenge", |t| {
        let hooks = t.hooks();
        let challenge = InChallenge { id: Uuid::new_v4(), challengers: vec![Uuid::new_v4()] };
        services::mezzo_turning_point(&mut t.store, t.game, &hooks, &challenge, &[], &[]).map(|c| c.change)
    });
    // During a challenge: another challenge's id, then an element not taking part.
    let playing = t.challenge("Mira", "The Lighthouse");
    t.refused("challenge.id", |t| {
        let hooks = t.hooks();
        let elsewhere = InChallenge { id: Uuid::new_v4(), ..playing.clone() };
        services::mezzo_turning_point(&mut t.store, t.game, &hooks, &elsewhere, &[], &[]).map(|c| c.change)
    });
    t.refused("challenge.challengers[1]", |t| {
        let (hooks, tomas) = (t.hooks(), t.element("Tomas").id);
        let outsider = InChallenge { challengers: vec![playing.challengers[0], tomas], ..playing.clone() };
        services::mezzo_turning_point(&mut t.store, t.game, &hooks, &outsider, &[], &[]).map(|c| c.change)
    });
    t.refused("turning_point", |t| services::mezzo_start_arc(&mut t.store, t.game));
    t.refused("cards", |t| {
        let cards: Vec<String> = (1..=8).map(|n| format!("idea {n}")).collect();
        services::mezzo_build_deck(&mut t.store, t.game, &cards, &mut t.rng).map(|c| c.change)
    });
    t.refused("keywords", |t| {
        services::mezzo_set_keyword_die(&mut t.store, t.game, 4, &["storm".into()]).map(|c| c.change)
    });
}

/// Nine cards for Ada, Bo and Cy.
fn ideas() -> Vec<String> {
    ["a storm", "a debt", "a ghost", "a map", "a wreck", "a wedding", "a traitor", "a key", "a song"]
        .map(String::from)
        .to_vec()
}

#[test]
fn the_deck_sells_the_initial_draw_pays_a_link_once_and_refreshes_at_a_scenes_end() {
    let mut t = Table::new();
    let steps: Vec<Step> = vec![
        (
            "the deck is built",
            |t| services::mezzo_build_deck(&mut t.store, t.game, &ideas(), &mut t.rng).map(|c| c.change),
            |t| {
                let deck = services::mezzo_deck(&t.store, t.game).unwrap();
                assert!(deck.built);
                assert_eq!((deck.draw_pile, deck.seats.len(), deck.initial_draw), (9, 3, false));
            },
        ),
        (
            "the session starts",
            |t| services::mezzo_start_session(&mut t.store, t.game, "2026-11-01", None).map(|c| c.change),
            |t| {
                let deck = services::mezzo_deck(&t.store, t.game).unwrap();
                assert!(deck.initial_draw && deck.in_session);
                assert_eq!(services::journal(&t.store, t.game).unwrap().sessions[0].attendees, ["Ada", "Bo", "Cy"]);
            },
        ),
        (
            "Ada buys two cards",
            |t| {
                let ada = t.player("Ada");
                services::mezzo_buy_cards(&mut t.store, t.game, ada, 2, &mut t.rng).map(|c| c.change)
            },
            |t| {
                assert_eq!((t.influence("Ada"), t.hand("Ada").len()), (1, 2), "1 influence a card");
                let deck = services::mezzo_deck(&t.store, t.game).unwrap();
                assert_eq!((deck.draw_pile, deck.seats[0].hand), (7, 2));
                // The table sees how many cards Ada holds, never which.
                let shown = serde_json::to_string(&deck).unwrap();
                assert!(t.hand("Ada").iter().all(|c| !shown.contains(&c.text)), "{shown}");
            },
        ),
        (
            "Bo buys one",
            |t| {
                let bo = t.player("Bo");
                services::mezzo_buy_cards(&mut t.store, t.game, bo, 1, &mut t.rng).map(|c| c.change)
            },
            |t| assert_eq!(t.influence("Bo"), 2),
        ),
        (
            "Cy buys one",
            |t| {
                let cy = t.player("Cy");
                services::mezzo_buy_cards(&mut t.store, t.game, cy, 1, &mut t.rng).map(|c| c.change)
            },
            |t| assert_eq!(t.influence("Cy"), 2),
        ),
        (
            "Ada plays a card",
            |t| t.play_first_card("Ada"),
            |t| {
                assert_eq!(t.active("Ada").len(), 1);
                assert!(!services::mezzo_deck(&t.store, t.game).unwrap().initial_draw, "play closes the draw");
            },
        ),
        ("Bo plays his", |t| t.play_first_card("Bo"), |_| {}),
        (
            "Ada links her card to Bo's: +1 influence each",
            |t| t.ada_links_to("Bo"),
            |t| {
                assert_eq!((t.influence("Ada"), t.influence("Bo")), (2, 3));
                assert_eq!(services::mezzo_deck(&t.store, t.game).unwrap().links.len(), 1);
            },
        ),
        ("Cy plays his", |t| t.play_first_card("Cy"), |_| {}),
        (
            "Ada links the same card to Cy's: only Cy's card earns",
            |t| t.ada_links_to("Cy"),
            |t| assert_eq!((t.influence("Ada"), t.influence("Cy")), (2, 3), "a card earns its point once"),
        ),
        (
            "a scene starts: nobody refreshes mid-scene",
            |t| services::mezzo_start_scene(&mut t.store, t.game),
            |t| assert!(services::mezzo_deck(&t.store, t.game).unwrap().seats.iter().all(|s| !s.may_refresh)),
        ),
        (
            "the scene ends on the Table tab: the refresh opens (DEV-3)",
            |t| services::mezzo_end_scene(&mut t.store, t.game),
            |t| assert!(services::mezzo_deck(&t.store, t.game).unwrap().seats.iter().all(|s| s.may_refresh)),
        ),
        (
            "Ada discards her other card and draws one",
            |t| {
                let (ada, card) = (t.player("Ada"), t.hand("Ada")[0].id);
                services::mezzo_refresh(&mut t.store, t.game, ada, card, true, &mut t.rng).map(|c| c.change)
            },
            |t| {
                let deck = services::mezzo_deck(&t.store, t.game).unwrap();
                assert_eq!((deck.discard.len(), deck.draw_pile, deck.seats[0].hand), (1, 4, 1));
                assert!(!deck.seats[0].may_refresh && deck.seats[1].may_refresh);
            },
        ),
        (
            "Bo draws inspiration",
            |t| {
                let bo = t.player("Bo");
                services::mezzo_draw_inspiration(&mut t.store, t.game, bo, &mut t.rng).map(|c| c.change)
            },
            |t| assert!(services::mezzo_deck(&t.store, t.game).unwrap().shown.is_some()),
        ),
        (
            "it makes it into the game",
            |t| services::mezzo_settle_inspiration(&mut t.store, t.game, true).map(|c| c.change),
            |t| {
                let deck = services::mezzo_deck(&t.store, t.game).unwrap();
                assert!(deck.shown.is_none() && deck.inspiration.is_some());
            },
        ),
    ];
    play_and_undo_each(&mut t, steps);

    t.refused("to", |t| t.ada_links_to("Bo"));
    t.refused("initial_draw", |t| {
        let bo = t.player("Bo");
        services::mezzo_buy_cards(&mut t.store, t.game, bo, 1, &mut t.rng).map(|c| c.change)
    });
    t.refused("deck", |t| services::mezzo_build_deck(&mut t.store, t.game, &ideas(), &mut t.rng).map(|c| c.change));
    // A player who joins later is dealt in when the next session starts.
    services::mezzo_add_player(&mut t.store, t.game, "Dee").unwrap();
    services::mezzo_add_cards(&mut t.store, t.game, &["a lantern".into(), "a feud".into()], &mut t.rng).unwrap();
    let err = services::mezzo_start_session(&mut t.store, t.game, "2026-11-08", None).unwrap_err();
    assert!(err.to_string().contains("still open"), "the first session is being played: {err}");
    services::mezzo_end_session(&mut t.store, t.game).unwrap();
    let err = services::mezzo_start_session(&mut t.store, t.game, "2026-11-08", None).unwrap_err();
    assert!(err.to_string().contains("needs at least 12 cards"), "{err}");
    assert_eq!(services::journal(&t.store, t.game).unwrap().sessions.len(), 1, "a refused start starts nothing");
    services::mezzo_add_cards(&mut t.store, t.game, &["a bell".into()], &mut t.rng).unwrap();
    let session = services::mezzo_start_session(&mut t.store, t.game, "2026-11-08", None).unwrap();
    assert_eq!((session.deck.session, session.deck.in_session, session.deck.seats.len()), (2, true, 4));
}

#[test]
fn the_keyword_die_gives_the_keyword_of_the_face_rolled() {
    let mut t = Table::new();
    let words: Vec<String> = ["storm", "debt", "ghost", "map", "wreck", "song"].map(String::from).to_vec();
    services::mezzo_set_keyword_die(&mut t.store, t.game, 6, &words).unwrap();
    let ada = t.player("Ada");
    let typed = DiceInput::Entered { values: vec![4] };
    let rolled = services::mezzo_roll_keyword(&mut t.store, t.game, ada, &typed, &mut t.rng).unwrap();
    assert_eq!((rolled.draw.face, rolled.draw.keyword.as_str()), (4, "map"));
    assert_eq!(rolled.change.message, "Ada rolls the keyword die: 4, “map”.");
    let rolled = services::mezzo_roll_keyword(&mut t.store, t.game, ada, &DiceInput::Rolled, &mut t.rng).unwrap();
    assert_eq!(words[usize::from(rolled.draw.face) - 1], rolled.draw.keyword);
    t.refused("keyword die", |t| {
        let typed = DiceInput::Entered { values: vec![7] };
        services::mezzo_roll_keyword(&mut t.store, t.game, ada, &typed, &mut t.rng).map(|c| c.change)
    });
    let log = services::mezzo_log(&t.store, t.game, 10).unwrap();
    assert_eq!(log[1].action, "Ada rolls the keyword die: 4, “map”.", "the roll is in the history");
}

// ---------------------------------------------------------------------------------------
// The store and files

fn id(n: u128) -> Uuid {
    Uuid::from_u128(0x7100_0000_0000_4000_8000_0000_0000_0000 | n)
}

/// The scene of `mezzo_store` with a rich plot (arc 2 past its Turning Point: hooks holding
/// every kind of point, a theme, a No Escape target whose protection is ignored) and a seed
/// deck in play (hands, active and depleted cards, links, the inspiration card and one shown,
/// two players still to refresh), and a keyword die.
fn rich_scene() -> crate::mezzo_store::Scene {
    let mut s = scene();
    let (ada, bo, cy) = (uuid(ADA), uuid(BO), uuid(CY));
    let user = |player, element| User { player, element };
    let mut arc = Arc::new(2);
    for n in 1..=5 {
        let elements = if n == 1 { vec![uuid(LIGHTHOUSE), uuid(MIRA)] } else { Vec::new() };
        arc = plot::create_hook(&arc, id(n), &format!("Hook {n}"), &elements, &user(ada, None), Resource::Influence, 9)
            .unwrap()
            .0;
    }
    arc = plot::invest(&arc, id(1), &user(bo, None), Resource::Influence, 3, 9).unwrap().0;
    arc = plot::invest(&arc, id(1), &user(bo, Some(uuid(TOMAS))), Resource::Momentum, 2, 9).unwrap().0;
    arc = plot::invest(&arc, id(2), &user(cy, Some(uuid(LIGHTHOUSE))), Resource::Adversity, 4, 9).unwrap().0;
    arc = plot::invest(&arc, id(1), &user(bo, None), Resource::Influence, 1, 9).unwrap().0;
    let tp = InChallenge { id: id(90), challengers: vec![uuid(MIRA), uuid(LIGHTHOUSE)] };
    let draws = [BoostDraw { challenger: uuid(MIRA), hook: id(2) }];
    arc = plot::turning_point(&arc, &[id(1), id(2), id(3), id(4), id(5)], Some(&tp), &[], &draws).unwrap().0;
    arc = plot::set_theme(&arc, uuid(MIRA), "The sea keeps what it takes").unwrap().0;
    let fight = InChallenge { id: id(91), challengers: vec![uuid(TOMAS), uuid(COVE)] };
    arc = plot::no_escape(&arc, &[id(1), id(2), id(3)], Some(&fight), &user(bo, Some(uuid(TOMAS))), uuid(COVE))
        .unwrap()
        .0;
    arc = plot::ignore_protection(&arc, id(91), uuid(TOMAS), uuid(COVE), true, 2).unwrap().0;
    arc = plot::create_hook(&arc, id(6), "After the storm", &[], &user(ada, None), Resource::Influence, 9).unwrap().0;
    arc = plot::put_consequence(&arc, id(7), "The harbour fears the sea", true).unwrap().0;
    arc = plot::put_consequence(&arc, id(8), "Whispers at the inn", false).unwrap().0;

    let mut rng = StdRng::seed_from_u64(5);
    let cards: Vec<Card> =
        ideas().into_iter().enumerate().map(|(i, text)| Card { id: id(200 + i as u128), text }).collect();
    let mut deck = seed_deck::build(&cards, &[ada, bo, cy], &mut rng).unwrap().0;
    deck = seed_deck::start_session(&deck, 1).0;
    for (p, n) in [(ada, 2), (bo, 2), (cy, 1)] {
        deck = seed_deck::buy_cards(&deck, p, n, 3, &mut rng).unwrap().0;
    }
    let hand = |deck: &seed_deck::SeedDeck, p| deck.holding(p).unwrap().hand[0].id;
    deck = seed_deck::play(&deck, ada, hand(&deck, ada)).unwrap().0;
    deck = seed_deck::play(&deck, bo, hand(&deck, bo)).unwrap().0;
    deck = seed_deck::deplete(&deck, cy, hand(&deck, cy)).unwrap().0;
    let active = |deck: &seed_deck::SeedDeck, p: Uuid| deck.holding(p).unwrap().active[0].card.id;
    deck = seed_deck::link(&deck, ada, active(&deck, ada), active(&deck, bo)).unwrap().0;
    deck = seed_deck::draw_inspiration(&deck, bo, &mut rng).unwrap().0;
    deck = seed_deck::settle_inspiration(&deck, true).unwrap().0;
    let inspiration = deck.inspiration.as_ref().unwrap().id;
    deck = seed_deck::link(&deck, bo, inspiration, active(&deck, bo)).unwrap().0;
    deck = seed_deck::draw_inspiration(&deck, cy, &mut rng).unwrap().0;
    deck = seed_deck::end_of(&deck, Ending::Challenge).0;
    deck = seed_deck::refresh(&deck, bo, hand(&deck, bo), true, &mut rng).unwrap().0;

    s.table.plot = arc;
    s.table.deck = Some(deck);
    let words: Vec<String> = ["storm", "debt", "ghost", "map"].map(String::from).to_vec();
    s.table.keyword_die = Some(KeywordDie::new(4, &words).unwrap());
    s
}

#[test]
fn a_rich_plot_and_deck_read_back_exactly_and_go_with_their_game() {
    let s = rich_scene();
    let deck = s.table.deck.as_ref().unwrap();
    assert!(deck.problems().is_empty(), "{:?}", deck.problems());
    assert!(!deck.links.is_empty() && deck.inspiration.is_some() && deck.shown.is_some() && !deck.discard.is_empty());
    assert_eq!(deck.refresh.len(), 2);
    let scratch = Scratch::new();
    let mut store = scratch.open();
    insert_scene(&mut store, &s);
    assert_eq!(store.read().mezzo_table(s.game.id).unwrap(), s.table);
    drop(store);
    let mut store = scratch.open();
    assert_eq!(store.read().mezzo_table(s.game.id).unwrap(), s.table, "after a reopen");
    assert!(store.check().unwrap().ok);

    // The schema keeps what the rules keep: a hook holds at most 10000 points of a kind.
    let mut over = s.table.clone();
    over.plot.hooks[0].stored[0].points = 10_000;
    let err = store.write(|tx| tx.put_mezzo_table(s.game.id, &over)).unwrap_err();
    assert!(err.to_string().contains("at most 10000 points of a kind"), "{err}");
    let mut twice = s.table.clone();
    let theme = twice.plot.turning_point.as_ref().unwrap().themes[0].clone();
    twice.plot.turning_point.as_mut().unwrap().themes.push(theme);
    assert!(store.write(|tx| tx.put_mezzo_table(s.game.id, &twice)).is_err(), "one theme per challenger");
    assert_eq!(store.read().mezzo_table(s.game.id).unwrap(), s.table, "a refused write changes nothing");

    services::delete_game(&mut store, s.game.id).unwrap();
    let conn = rusqlite::Connection::open(scratch.db()).unwrap();
    for table in [
        "mz_hooks",
        "mz_hook_points",
        "mz_turning_points",
        "mz_themes",
        "mz_no_escape",
        "mz_cards",
        "mz_card_links",
        "mz_keyword_faces",
    ] {
        let n: i64 = conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap();
        assert_eq!(n, 0, "{table} goes with its game");
    }
}

/// The rich scene's journal: its deck's session, being played.
fn rich_journal() -> Journal {
    let session = Session {
        number: 1,
        date: "2026-09-15".into(),
        attendees: vec!["Ada".into(), "Bo".into(), "Cy".into()],
        notes: String::new(),
        open: true,
        span: None,
        recorded: Vec::new(),
    };
    Journal { sessions: vec![session] }
}

#[test]
fn a_game_file_carries_the_plot_and_the_deck_and_an_older_file_still_imports() {
    let s = rich_scene();
    let mut doc = crate::mezzo_exchange::game_file(&s);
    doc.games[0].journal = Some(rich_journal());
    let (_imported, mut store) = a_golden_game_file_travels_both_ways((PLOT_FILE, &doc), s.game.id, |store| {
        assert_eq!(store.read().mezzo_table(s.game.id).unwrap(), s.table);
        assert_eq!(store.read().journal(s.game.id).unwrap(), rich_journal());
        let deck = services::mezzo_deck(store, s.game.id).unwrap();
        assert_eq!((deck.session, deck.in_session), (1, true), "the deck's session is the journal's");
    });

    // As copies: a new game whose plot names the copied characters.
    services::import(&mut store, &fixture(PLOT_FILE), ImportOptions { as_copy: true, ..Default::default() }).unwrap();
    let copy = services::list(&store).unwrap().into_iter().find(|g| g.game.id != s.game.id).unwrap();
    let mira = copy.characters.iter().find(|c| c.name == "Mira Vell").unwrap().id;
    let table = store.read().mezzo_table(copy.game.id).unwrap();
    assert_eq!(table.plot.hooks[0].elements, [uuid(LIGHTHOUSE), mira]);
    let tp = table.plot.turning_point.as_ref().unwrap();
    assert_eq!((tp.challengers[0], tp.themes[0].by), (mira, mira));
    assert_eq!(table.deck, s.table.deck, "the deck names players, whose ids stay");
    assert!(store.check().unwrap().ok);

    // A file written before the plot and the deck joined the table: its arc, no hooks, no
    // deck.
    let older: Value = serde_json::from_slice(&std::fs::read(fixture(OLDER_FILE)).unwrap()).unwrap();
    let table = &older["data"]["games"][0]["mezzo_table"];
    assert!(table.get("plot").is_none() && table.get("deck").is_none(), "the older format");
    let scratch = Scratch::new();
    let mut store = scratch.open();
    services::import(&mut store, &fixture(OLDER_FILE), ImportOptions::default()).unwrap();
    let read = store.read().mezzo_table(s.game.id).unwrap();
    assert_eq!((read.arc(), read.plot.hooks.len(), read.deck.is_none()), (2, 0, true));
    assert_eq!(read, scene().table);
}

#[test]
fn an_older_files_count_of_deck_sessions_becomes_the_journals_sessions() {
    // As an older version wrote it: the deck counts its sessions, and there is no journal.
    // Its latest is being played while its initial draw is open (the deck never ended one).
    for (initial_draw, open) in [(true, true), (false, false)] {
        let scratch = Scratch::new();
        let mut store = scratch.open();
        let mut file: Value = serde_json::from_slice(&std::fs::read(fixture(PLOT_FILE)).unwrap()).unwrap();
        let game = file["data"]["games"][0].as_object_mut().unwrap();
        game.remove("journal");
        game["mezzo_table"]["deck"]["session"] = json!(2);
        game["mezzo_table"]["deck"]["initial_draw"] = json!(initial_draw);
        let older = scratch.file("older.json");
        std::fs::write(&older, serde_json::to_vec(&file).unwrap()).unwrap();
        services::import(&mut store, &older, ImportOptions::default()).unwrap();
        let journal = store.read().journal(uuid(GAME)).unwrap();
        let read: Vec<(u32, &str, bool)> =
            journal.sessions.iter().map(|s| (s.number, s.date.as_str(), s.open)).collect();
        assert_eq!(read, [(1, "2026-09-15", false), (2, "2026-09-15", open)], "dated the game's last change");
        assert!(journal.sessions.iter().all(|s| s.attendees.is_empty() && s.notes.contains("older version")));
        let deck = services::mezzo_deck(&store, uuid(GAME)).unwrap();
        assert_eq!((deck.session, deck.in_session, deck.initial_draw), (2, open, initial_draw));
        // Written again, the file carries the journal and no count.
        let out = scratch.file("again.json");
        services::export(&store, services::ExportScope::Game(uuid(GAME)), &out).unwrap();
        let again: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        let game = &again["data"]["games"][0];
        assert!(game["mezzo_table"]["deck"].get("session").is_none());
        assert_eq!(game["journal"]["sessions"].as_array().map(Vec::len), Some(2));
    }
    // More sessions than a journal holds are refused, naming the field.
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let mut file: Value = serde_json::from_slice(&std::fs::read(fixture(PLOT_FILE)).unwrap()).unwrap();
    file["data"]["games"][0]["mezzo_table"]["deck"]["session"] = json!(1001);
    let older = scratch.file("too-many.json");
    std::fs::write(&older, serde_json::to_vec(&file).unwrap()).unwrap();
    let err = services::import(&mut store, &older, ImportOptions::default()).unwrap_err();
    assert!(err.to_string().contains("mezzo_table.deck.session"), "{err}");
    assert!(services::list(&store).unwrap().is_empty(), "a refused file changes nothing");
}

#[test]
fn a_file_with_a_broken_plot_or_deck_is_refused_naming_every_problem() {
    let mut file: Value = serde_json::from_slice(&std::fs::read(fixture(PLOT_FILE)).unwrap()).unwrap();
    let table = &mut file["data"]["games"][0]["mezzo_table"];
    table["plot"]["hooks"][0]["stored"][0]["points"] = json!(0);
    table["plot"]["hooks"][1]["text"] = json!(" ");
    table["plot"]["hooks"][2]["id"] = table["plot"]["hooks"][0]["id"].clone();
    table["plot"]["turning_point"]["themes"][0]["by"] = json!(TOMAS);
    table["plot"]["no_escape"][0]["target"] = table["plot"]["no_escape"][0]["by"].clone();
    let shown = table["deck"]["shown"].clone();
    table["deck"]["draw_pile"].as_array_mut().unwrap().push(shown);
    table["deck"]["links"][0]["by"] = json!(MIRA);
    table["keyword_die"]["keywords"].as_array_mut().unwrap().pop();
    let problems = exchange::parse(&serde_json::to_vec(&file).unwrap()).unwrap_err();
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    let at = "$.data.games[0].mezzo_table";
    for expected in [
        format!("{at}.plot.hooks[0].stored[0].points"),
        format!("{at}.plot.hooks[1].text"),
        format!("{at}.plot.hooks[2].id"),
        format!("{at}.plot.turning_point.themes[0].by"),
        format!("{at}.plot.no_escape[0].target"),
        format!("{at}.deck.cards"),
        format!("{at}.deck.links[0].by"),
        format!("{at}.keyword_die.keywords"),
    ] {
        assert!(paths.contains(&expected.as_str()), "{expected} in {problems:#?}");
    }

    // Importing it changes nothing.
    let scratch = Scratch::new();
    let mut store = scratch.open();
    let path = scratch.file("broken.json");
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    let before = bytes_on_disk(&scratch.db());
    let err = services::import(&mut store, &path, ImportOptions::default()).unwrap_err();
    assert!(matches!(err, Error::BadFile { .. }), "{err}");
    assert_eq!(bytes_on_disk(&scratch.db()), before);
}

/// A player's device on a linked table keeps no consequences (the table's record) and
/// changes no Asset access of an element that is not its player's own character.
#[test]
fn a_players_device_keeps_no_consequences_and_changes_only_its_own_assets() {
    let mut t = Table::new();
    let lighthouse = t.element("The Lighthouse").id;
    let draft = crate::support::trait_draft(Some(Template::Asset), None, "The lamp", Via::Granted);
    services::mezzo_add_trait(&mut t.store, t.game, lighthouse, None, draft).unwrap();
    let lamp = t.element("The Lighthouse").traits[0].id;
    services::set_device_role(&mut t.store, t.game, "player").unwrap();
    t.refused("consequences", |t| {
        services::mezzo_put_consequence(&mut t.store, t.game, None, "Rumours", false).map(|c| c.change)
    });
    t.refused("element", |t| services::mezzo_asset_access(&mut t.store, t.game, lighthouse, lamp, true));
    services::set_device_role(&mut t.store, t.game, "table").unwrap();
    services::mezzo_asset_access(&mut t.store, t.game, lighthouse, lamp, true).unwrap();
    assert_eq!(t.element("The Lighthouse").traits.len(), 2, "the lamp and the Favored Flaw of its lost access");
}

/// DEV-1: a Mezzo player is a viewer in their own right. On a player's own device, Bo — who
/// claims no character — is refused his hand until the device's person says "I am Bo"; then
/// the device shows Bo's hand and influence, plays his cards, and keeps the others' hands out
/// of every view it returns and of the document a linked table would send it.
#[test]
fn a_player_with_no_claimed_character_sees_and_plays_their_own_hand_on_their_device() {
    let mut t = Table::new();
    let (ada, bo) = (t.player("Ada"), t.player("Bo"));
    let mira = t.element("Mira").id;
    services::mezzo_take_role(&mut t.store, t.game, ada, Role::Actor).unwrap();
    services::mezzo_claim(&mut t.store, t.game, ada, mira).unwrap();
    services::mezzo_build_deck(&mut t.store, t.game, &ideas(), &mut t.rng).unwrap();
    services::mezzo_start_session(&mut t.store, t.game, "2026-11-01", None).unwrap();
    services::mezzo_buy_cards(&mut t.store, t.game, ada, 1, &mut t.rng).unwrap();
    services::mezzo_buy_cards(&mut t.store, t.game, bo, 2, &mut t.rng).unwrap();
    let (ada_cards, bo_cards) = (t.hand("Ada"), t.hand("Bo"));
    let texts = |cards: &[Card]| cards.iter().map(|c| c.text.clone()).collect::<Vec<_>>();

    // Bo's phone: Mira and Tomas are kept here for the others.
    for name in ["Mira", "Tomas"] {
        let id = t.element(name).id;
        services::set_mine(&mut t.store, id, false).unwrap();
    }
    services::set_device_role(&mut t.store, t.game, "player").unwrap();
    let refused = services::mezzo_hand(&t.store, t.game, bo).unwrap_err();
    assert!(matches!(&refused, Error::Invalid { field, .. } if field == "player"), "{refused}");
    assert!(services::mezzo_seats(&t.store, t.game).unwrap().mine.is_empty());

    // Sitting as a player who is not at the table is refused and changes nothing.
    let before = bytes_on_disk(&t.scratch.db());
    let err = services::mezzo_sit(&mut t.store, t.game, Uuid::new_v4(), true).unwrap_err();
    assert!(matches!(&err, Error::Invalid { field, .. } if field == "player"), "{err}");
    assert_eq!(bytes_on_disk(&t.scratch.db()), before);

    // "I am Bo": his hand and influence are his on this device, Ada's are not.
    let seats = services::mezzo_sit(&mut t.store, t.game, bo, true).unwrap();
    assert_eq!((seats.sat, seats.mine), (vec![bo], vec![bo]));
    let hand = services::mezzo_hand(&t.store, t.game, bo).unwrap();
    assert_eq!((texts(&hand.hand), hand.influence), (texts(&bo_cards), 1));
    let err = services::mezzo_hand(&t.store, t.game, ada).unwrap_err();
    assert!(matches!(&err, Error::Invalid { field, .. } if field == "player"), "{err}");

    // The view this device renders holds Bo's hand only; nothing of Ada's cards is in it.
    let view = services::game_view_on_device(&t.store, t.game, None).unwrap();
    let shown = serde_json::to_string(&view).unwrap();
    let hands = serde_json::to_value(&view).unwrap()["hands"].clone();
    assert_eq!(hands.as_array().map(Vec::len), Some(1), "{hands}");
    assert_eq!(hands[0]["player"], json!(bo));
    assert!(ada_cards.iter().all(|c| !shown.contains(&c.text) && !shown.contains(&c.id.to_string())), "{shown}");
    // The same for the document a linked table sends this viewer: Bo's cards face up, Ada's not.
    let viewer = services::device_viewer(t.store.read(), t.game).unwrap();
    let doc = services::game_document_for(t.store.read(), t.game, &viewer).unwrap();
    let doc = String::from_utf8(exchange::to_json(&doc)).unwrap();
    assert!(bo_cards.iter().all(|c| doc.contains(&c.text)), "{doc}");
    assert!(ada_cards.iter().all(|c| !doc.contains(&c.text) && !doc.contains(&c.id.to_string())), "{doc}");
    // The CLI's `view --viewer` names a Mezzo player too.
    let as_bo = services::game_view_on_device(&t.store, t.game, Some(&bo.to_string())).unwrap();
    assert_eq!(serde_json::to_value(&as_bo).unwrap()["hands"][0]["player"], json!(bo));

    // Bo plays a card from his phone.
    let card = bo_cards[0].id;
    services::mezzo_play_card(&mut t.store, t.game, bo, card).unwrap();
    assert_eq!(t.active("Bo"), vec![card]);

    // "Bo is not me": the hand is closed to this device again.
    let seats = services::mezzo_sit(&mut t.store, t.game, bo, false).unwrap();
    assert!(seats.sat.is_empty() && seats.mine.is_empty());
    assert!(services::mezzo_hand(&t.store, t.game, bo).is_err());
}

/// Influence spent elsewhere after a ballot was cast: the resolve is refused at that ballot's
/// own cast, named by its player, and changes nothing.
#[test]
fn a_ballot_that_no_longer_fits_is_named_by_its_player_when_the_table_resolves() {
    let mut t = Table::new();
    let (ada, bo) = (t.player("Ada"), t.player("Bo"));
    services::mezzo_open_conflict_for_votes(&mut t.store, t.game, &bridge()).unwrap();
    let bo_casts = [
        ConflictCast::Free { player: bo, option: 1, votes: 1 },
        ConflictCast::Influence { player: bo, option: 1, points: 3 },
    ];
    services::mezzo_cast_ballot(&mut t.store, t.game, bo, &bo_casts).unwrap();
    // Bo spends 2 of his 3 influence on something else before the table resolves.
    services::mezzo_spend_influence(&mut t.store, t.game, bo, 2).unwrap();
    let table_casts = [ConflictCast::Free { player: ada, option: 0, votes: 1 }];
    t.refused("ballots[Bo].casts[1].points", |t| {
        services::mezzo_resolve_open_conflict(
            &mut t.store,
            t.game,
            &table_casts,
            &services::Approach::TakeMedian { selections: vec![] },
            &DiceInput::Rolled,
            &mut StdRng::seed_from_u64(1),
        )
        .map(|o| o.change)
    });
}
