//! Mezzo through the services on the real SQLite file: every move and its undo, moves the
//! rules refuse changing nothing (the database's bytes), claims that keep a character at its
//! table, and a game's deletion undone with its table.

use sheetkeeper::rules::mezzo::element::{
    AdversitySpend, Boon, Element, ElementKind, MomentumSource, MomentumSpend, Properties, Role, Sacrifice, SlotAward,
    Template, Trait, TraitKind, Via,
};
use sheetkeeper::rules::mezzo::table::MezzoTable;
use sheetkeeper::services::{self, MezzoChange, MezzoView, TraitDraft};
use sheetkeeper::{Error, Result, Store};
use uuid::Uuid;

use crate::support::trait_draft as draft;
use crate::support::{bytes_on_disk, mezzo_depart, mezzo_storm, mezzo_surrender, new_game, Scratch};

struct Table {
    scratch: Scratch,
    store: Store,
    game: Uuid,
    mira: Uuid,
    tomas: Uuid,
}

/// What a move changes: the table and the game's characters' sheets.
type State = crate::support::MezzoState;

impl Table {
    /// A Mezzo game with two characters, Mira and Tomas, and no players yet.
    fn new() -> Table {
        let (scratch, store, game, [mira, tomas]) = new_game("The Drowned Cove", "mezzo", ["Mira", "Tomas"]);
        Table { scratch, store, game, mira, tomas }
    }

    fn view(&self) -> MezzoView {
        services::mezzo_table(&self.store, self.game).unwrap()
    }

    fn state(&self) -> State {
        State::of(&self.store, self.game, &[self.mira, self.tomas])
    }

    fn player(&self, name: &str) -> Uuid {
        self.view().players.iter().find(|p| p.player.name == name).unwrap_or_else(|| panic!("no {name}")).player.id
    }

    fn element(&self, name: &str) -> Element {
        let v = self.view();
        v.characters.into_iter().chain(v.elements).find(|e| e.element.name == name).unwrap().element
    }

    /// Adds the player `name`, who takes the Actor role: their id.
    fn add_actor(&mut self, name: &str) -> Uuid {
        services::mezzo_add_player(&mut self.store, self.game, name).unwrap();
        let id = self.player(name);
        services::mezzo_take_role(&mut self.store, self.game, id, Role::Actor).unwrap();
        id
    }

    fn sheet(&self, id: Uuid) -> Element {
        self.store.read().mezzo_sheet(id).unwrap().unwrap()
    }

    fn trait_id(&self, element: &str, name: &str) -> Uuid {
        self.element(element).traits.iter().find(|t| t.name == name).unwrap().id
    }

    /// Expects `result` to be refused with `words`, the database unchanged byte for byte.
    fn refused(&mut self, what: &str, words: &str, mv: impl FnOnce(&mut Table) -> Result<MezzoChange>) {
        let before = bytes_on_disk(&self.scratch.db());
        let err = mv(self).map(|c| c.message).expect_err(what);
        assert!(err.to_string().contains(words), "{what}: {err}");
        assert_eq!(bytes_on_disk(&self.scratch.db()), before, "{what}: the database must not change");
    }
}

type Step = (&'static str, fn(&mut Table) -> Result<MezzoChange>, fn(&Table));

/// Bo makes a plot hook with his influence.
fn plot_hook(t: &mut Table, text: &str) -> Result<MezzoChange> {
    use sheetkeeper::rules::mezzo::plot::{Resource, User};
    let user = User { player: t.player("Bo Tanner"), element: None };
    let draft = services::HookDraft { text: text.into(), elements: Vec::new(), pay_with: Resource::Influence };
    services::mezzo_create_hook(&mut t.store, t.game, &user, &draft).map(|c| c.change)
}

/// Each move, in order: it changes the table or the sheets, `undo_game` puts back exactly
/// what was there, and played again (new things get new ids) it leaves what `check` expects
/// for the next move.
#[test]
fn every_move_changes_the_table_and_undo_game_takes_it_back() {
    let mut t = Table::new();
    let steps: Vec<Step> = vec![
        (
            "add Ada",
            |t| services::mezzo_add_player(&mut t.store, t.game, "Ada"),
            |t| {
                assert_eq!(t.view().players[0].player.influence, 3);
            },
        ),
        ("add Bo", |t| services::mezzo_add_player(&mut t.store, t.game, " Bo "), |_| {}),
        (
            "rename Bo",
            |t| {
                let p = t.player("Bo");
                services::mezzo_rename_player(&mut t.store, t.game, p, "Bo Tanner")
            },
            |_| {},
        ),
        (
            "Ada takes the Actor role",
            |t| {
                let p = t.player("Ada");
                services::mezzo_take_role(&mut t.store, t.game, p, Role::Actor)
            },
            |t| {
                assert!(t.view().players[0].actor);
            },
        ),
        (
            "Ada claims Mira",
            |t| {
                let p = t.player("Ada");
                services::mezzo_claim(&mut t.store, t.game, p, t.mira)
            },
            |t| {
                let v = t.view();
                assert_eq!(v.players[0].claimed_names, ["Mira"]);
                let mira = v.characters.iter().find(|c| c.element.id == t.mira).unwrap();
                assert_eq!(
                    (mira.edge_slots, mira.claimed_by_name.as_deref(), mira.has_plot_protection),
                    (6, Some("Ada"), true),
                    "4 from her introduction, 2 from her first claim"
                );
            },
        ),
        (
            "Mira's first challenge's slots",
            |t| services::mezzo_award_edge_slots(&mut t.store, t.game, t.mira, SlotAward::FirstChallenge),
            |t| assert_eq!(t.sheet(t.mira).edge_slots(), 10),
        ),
        (
            "Mira learns Swordplay",
            |t| {
                let by = Some(t.player("Ada"));
                services::mezzo_add_trait(
                    &mut t.store,
                    t.game,
                    t.mira,
                    by,
                    draft(Some(Template::Ability), None, "Swordplay", Via::EdgeSlot),
                )
            },
            |t| assert_eq!(t.sheet(t.mira).filled_slots(), 1),
        ),
        (
            "Swordplay's free extra",
            |t| {
                let mut d = draft(Some(Template::Aptitude), None, "Quick hands", Via::FreeExtra);
                d.target_trait = Some(t.trait_id("Mira", "Swordplay"));
                services::mezzo_add_trait(&mut t.store, t.game, t.mira, None, d)
            },
            |t| assert_eq!(t.sheet(t.mira).traits.len(), 2),
        ),
        (
            "Swordplay is edited",
            |t| {
                let (id, by) = (t.trait_id("Mira", "Swordplay"), Some(t.player("Ada")));
                let p = Properties { set_up: "melee attacks".into(), ..Properties::default() };
                services::mezzo_edit_trait(&mut t.store, t.game, t.mira, id, by, "Sabre play", &p)
            },
            |t| assert_eq!(t.sheet(t.mira).traits[0].properties.set_up, "melee attacks"),
        ),
        (
            "a flaw on Mira",
            |t| {
                services::mezzo_add_trait(
                    &mut t.store,
                    t.game,
                    t.mira,
                    None,
                    draft(None, Some(TraitKind::Flaw), "Seasick", Via::Granted),
                )
            },
            |_| {},
        ),
        (
            "the flaw goes",
            |t| {
                let id = t.trait_id("Mira", "Seasick");
                services::mezzo_remove_trait(&mut t.store, t.game, t.mira, id)
            },
            |t| assert_eq!(t.sheet(t.mira).traits.len(), 2),
        ),
        ("Mira gains adversity", |t| services::mezzo_gain_adversity(&mut t.store, t.game, t.mira, 1), |_| {}),
        (
            "Mira's Sudden Surge on debt",
            |t| {
                let by = Some(t.player("Ada"));
                services::mezzo_spend_adversity(&mut t.store, t.game, t.mira, by, AdversitySpend::SuddenSurge, true)
            },
            |t| {
                let mira = t.sheet(t.mira);
                assert_eq!((mira.adversity, mira.adversity_debt), (0, 2));
            },
        ),
        (
            "the lighthouse",
            |t| services::mezzo_add_element(&mut t.store, t.game, ElementKind::Location, "Lighthouse"),
            |t| {
                assert_eq!(t.view().elements.len(), 1);
            },
        ),
        (
            "the lighthouse renamed",
            |t| {
                let id = t.element("Lighthouse").id;
                services::mezzo_rename_element(&mut t.store, t.game, id, "The Lighthouse")
            },
            |_| {},
        ),
        (
            "the lighthouse's momentum",
            |t| {
                let id = t.element("The Lighthouse").id;
                services::mezzo_gain_momentum(&mut t.store, t.game, id, 3, MomentumSource::PlotHook)
            },
            |_| {},
        ),
        (
            "a boon for the lighthouse",
            |t| {
                let id = t.element("The Lighthouse").id;
                // The app gives the new edge its own id, whatever the UI sent.
                let edge = Box::new(Trait::new(Uuid::nil(), TraitKind::Edge, "Beacon", Via::Boon));
                let spend = MomentumSpend::Boon { boon: Boon::Uses { uses: 2 }, edge };
                services::mezzo_spend_momentum(&mut t.store, t.game, id, None, spend)
            },
            |t| {
                let lighthouse = t.element("The Lighthouse");
                assert_eq!((lighthouse.momentum, lighthouse.traits[0].uses_left), (1, Some(2)));
                assert_ne!(lighthouse.traits[0].id, Uuid::nil());
            },
        ),
        (
            "the first arc",
            |t| services::mezzo_start_arc(&mut t.store, t.game),
            |t| {
                let v = t.view();
                assert_eq!(v.arc, 1);
                assert_eq!(t.sheet(t.mira).adversity_debt, 2, "nothing ended before the first arc");
            },
        ),
        (
            "Ada spends influence",
            |t| {
                let p = t.player("Ada");
                services::mezzo_spend_influence(&mut t.store, t.game, p, 2)
            },
            |t| {
                assert_eq!(t.view().players[0].player.influence, 1);
            },
        ),
        (
            "Bo gains influence",
            |t| {
                let p = t.player("Bo Tanner");
                services::mezzo_gain_influence(&mut t.store, t.game, p, 2)
            },
            |_| {},
        ),
        (
            "Bo names the lighthouse memorable",
            |t| {
                let (id, bo) = (t.element("The Lighthouse").id, t.player("Bo Tanner"));
                services::mezzo_award_memorable(&mut t.store, t.game, id, bo, true)
            },
            |t| {
                assert_eq!(t.element("The Lighthouse").awards.memorable_arcs, [1]);
                assert_eq!(t.view().players[1].player.free_award_arc, Some(1));
            },
        ),
        (
            "Mira's Heroic Sacrifice",
            |t| {
                let lighthouse = t.element("The Lighthouse").id;
                services::mezzo_plot_protection(
                    &mut t.store,
                    t.game,
                    t.mira,
                    Sacrifice::HeroicSacrifice,
                    Some(lighthouse),
                )
            },
            |t| {
                assert!(t.sheet(t.mira).plot_protection.sacrificed);
                assert_eq!(t.element("The Lighthouse").plot_protection.lent_by, Some(t.mira));
            },
        ),
        // An arc ends only after its Turning Point: five hooks, one of them holding a point
        // for the one challenger, tied together in a challenge.
        ("Bo's first plot hook", |t| plot_hook(t, "Where is the map?"), |_| {}),
        ("Bo's second plot hook", |t| plot_hook(t, "Who sank the ship?"), |_| {}),
        ("Bo's third plot hook", |t| plot_hook(t, "Reach the cove first"), |_| {}),
        ("Bo's fourth plot hook", |t| plot_hook(t, "The jacket on the rocks"), |_| {}),
        ("Bo's fifth plot hook", |t| plot_hook(t, "The lighthouse keeper lies"), |_| {}),
        (
            "Ada invests in a hook",
            |t| {
                use sheetkeeper::rules::mezzo::plot::{Resource, User};
                let (ada, hook) = (t.player("Ada"), services::mezzo_plot(&t.store, t.game).unwrap().hooks[0].hook.id);
                let user = User { player: ada, element: None };
                services::mezzo_invest(&mut t.store, t.game, hook, &user, Resource::Influence, 1).map(|c| c.change)
            },
            |_| {},
        ),
        (
            "a storm at the lighthouse",
            |t| {
                use sheetkeeper::rules::mezzo::challenge::{ChallengerSetup, SideSetup};
                let draft = services::MezzoChallengeDraft {
                    description: "The storm".into(),
                    sides: vec![SideSetup { name: "Keepers".into() }, SideSetup { name: "Storm".into() }],
                    challengers: vec![
                        ChallengerSetup { element: t.element("The Lighthouse").id, side: 0, stake: None },
                        ChallengerSetup { element: t.tomas, side: 1, stake: None },
                    ],
                    goals: Vec::new(),
                };
                services::mezzo_challenge_start(&mut t.store, t.game, &draft).map(|c| c.change)
            },
            |t| assert!(services::mezzo_challenge(&t.store, t.game).unwrap().is_some()),
        ),
        (
            "the Turning Point",
            |t| {
                use sheetkeeper::rules::mezzo::plot::InChallenge;
                let hooks: Vec<Uuid> =
                    services::mezzo_plot(&t.store, t.game).unwrap().hooks.iter().map(|h| h.hook.id).collect();
                let id = services::mezzo_challenge(&t.store, t.game).unwrap().expect("the storm").id;
                let challenge = InChallenge { id, challengers: vec![t.element("The Lighthouse").id] };
                services::mezzo_turning_point(&mut t.store, t.game, &hooks, &challenge, &[], &[]).map(|c| c.change)
            },
            |t| assert!(services::mezzo_plot(&t.store, t.game).unwrap().can_end),
        ),
        (
            "Tomas surrenders (an arc ends after its challenges)",
            |t| mezzo_surrender(&mut t.store, t.game, t.tomas),
            |t| assert!(mezzo_storm(&t.store, t.game).departure.is_some()),
        ),
        (
            "the challengers depart: the storm is over",
            |t| mezzo_depart(&mut t.store, t.game),
            |t| assert!(mezzo_storm(&t.store, t.game).over),
        ),
        (
            "the next arc",
            |t| services::mezzo_start_arc(&mut t.store, t.game),
            |t| {
                let v = t.view();
                assert_eq!(v.arc, 2);
                assert!(v.players.iter().all(|p| p.player.influence == 3));
                let mira = t.sheet(t.mira);
                assert_eq!(
                    (mira.adversity_debt, mira.plot_protection.sacrificed),
                    (0, false),
                    "the arc's end ended the scene"
                );
                assert_eq!(t.element("The Lighthouse").momentum, 0);
            },
        ),
        (
            "Ada gives up Mira",
            |t| {
                let p = t.player("Ada");
                services::mezzo_unclaim(&mut t.store, t.game, p, t.mira)
            },
            |t| {
                assert_eq!(t.sheet(t.mira).claimed_by, None);
            },
        ),
        (
            "Ada leaves the Actor role",
            |t| {
                let p = t.player("Ada");
                services::mezzo_leave_role(&mut t.store, t.game, p, Role::Actor, &[])
            },
            |_| {},
        ),
        ("the key", |t| services::mezzo_add_element(&mut t.store, t.game, ElementKind::Object, "Key"), |_| {}),
        (
            "the key is lost",
            |t| {
                let id = t.element("Key").id;
                services::mezzo_remove_element(&mut t.store, t.game, id)
            },
            |t| assert_eq!(t.view().elements.len(), 1),
        ),
        (
            "Bo leaves",
            |t| {
                let p = t.player("Bo Tanner");
                services::mezzo_remove_player(&mut t.store, t.game, p)
            },
            |t| {
                assert_eq!(t.view().players.len(), 1);
            },
        ),
    ];
    for (what, mv, check) in steps {
        let before = t.state();
        let change = mv(&mut t).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(!change.message.is_empty() && change.message.chars().next().unwrap().is_uppercase(), "{what}");
        let after = t.state();
        assert_ne!(after, before, "{what} changes something");
        let undone = services::undo_game(&mut t.store, t.game).unwrap_or_else(|e| panic!("undo {what}: {e}"));
        assert_eq!(undone.message, format!("Undone: {}", change.message), "{what}");
        assert_eq!(t.state(), before, "undo {what}");
        mv(&mut t).unwrap_or_else(|e| panic!("{what} again: {e}"));

        check(&t);
    }
    assert!(t.store.check().unwrap().ok);
    let log = services::mezzo_log(&t.store, t.game, 500).unwrap();
    assert_eq!(log.iter().filter(|e| e.undone).count(), 38);
    assert_eq!(log.iter().filter(|e| !e.undone).count(), 38);
    assert_eq!(log[0].action, "Bo Tanner leaves the table.");
}

#[test]
fn a_player_leaving_gives_up_their_claims() {
    let mut t = Table::new();
    let ada = t.add_actor("Ada");
    services::mezzo_claim(&mut t.store, t.game, ada, t.tomas).unwrap();
    let gone = services::mezzo_remove_player(&mut t.store, t.game, ada).unwrap();
    assert_eq!(gone.message, "Ada leaves the table (Tomas no longer claimed).");
    let tomas = t.sheet(t.tomas);
    assert_eq!((tomas.claimed_by, tomas.edge_slots()), (None, 6), "the first claim's slots stay");
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.sheet(t.tomas).claimed_by, Some(ada));
}

#[test]
fn moves_the_rules_refuse_change_nothing() {
    let mut t = Table::new();
    let ada = t.add_actor("Ada");
    services::mezzo_add_player(&mut t.store, t.game, "Bo").unwrap();
    let bo = t.player("Bo");
    services::mezzo_claim(&mut t.store, t.game, ada, t.mira).unwrap();
    let (game, mira, tomas) = (t.game, t.mira, t.tomas);
    t.refused("more influence than held", "points: Ada holds 3 influence, not 4", |t| {
        services::mezzo_spend_influence(&mut t.store, game, ada, 4)
    });
    t.refused("negative points", "points: -1 is out of range", |t| {
        services::mezzo_gain_influence(&mut t.store, game, ada, -1)
    });
    t.refused("no points", "points: must be at least 1", |t| {
        services::mezzo_gain_adversity(&mut t.store, game, mira, 0)
    });
    t.refused("a claim without the Actor role", "must take the Actor role", |t| {
        services::mezzo_claim(&mut t.store, game, bo, tomas)
    });
    services::mezzo_take_role(&mut t.store, game, bo, Role::Actor).unwrap();
    t.refused("a claimed character claimed again", "Mira is claimed by another player", |t| {
        services::mezzo_claim(&mut t.store, game, bo, mira)
    });
    t.refused("a slot filled by another player", "only they may fill its edge slots", |t| {
        let d = draft(None, Some(TraitKind::Edge), "Lucky", Via::EdgeSlot);
        services::mezzo_add_trait(&mut t.store, game, mira, Some(bo), d)
    });
    // Tomas's 4 slots from his introduction, filled.
    for name in ["Quick", "Strong", "Wary", "Brave"] {
        let d = draft(None, Some(TraitKind::Edge), name, Via::EdgeSlot);
        services::mezzo_add_trait(&mut t.store, game, tomas, None, d).unwrap();
    }
    t.refused("an edge without a free slot", "Tomas has no free edge slot", |t| {
        services::mezzo_add_trait(
            &mut t.store,
            game,
            tomas,
            None,
            draft(None, Some(TraitKind::Edge), "Lucky", Via::EdgeSlot),
        )
    });
    t.refused("a trait without a kind", "kind: choose edge", |t| {
        services::mezzo_add_trait(&mut t.store, game, tomas, None, draft(None, None, "Lucky", Via::Granted))
    });
    t.refused("debt without adversity", "debt can only cover the rest when at least 1 adversity is held", |t| {
        services::mezzo_spend_adversity(&mut t.store, game, mira, Some(ada), AdversitySpend::FortunesFavor, true)
    });
    t.refused("the same award twice", "Mira already had its first claim's slots", |t| {
        services::mezzo_award_edge_slots(&mut t.store, game, mira, SlotAward::FirstClaim)
    });
    t.refused("a character as a table element", "kind: a character is added as a character", |t| {
        services::mezzo_add_element(&mut t.store, game, ElementKind::Character, "Nemo")
    });
    t.refused("a character renamed as an element", "renamed or deleted as a character", |t| {
        services::mezzo_rename_element(&mut t.store, game, mira, "Nemo")
    });
    t.refused("an empty name", "name: must not be empty", |t| services::mezzo_add_player(&mut t.store, game, "  "));
    t.refused("someone not at the table", "is not a player at this table", |t| {
        services::mezzo_take_role(&mut t.store, game, Uuid::new_v4(), Role::Actor)
    });
    t.refused("an element not in the game", "is not a story element of this game", |t| {
        services::mezzo_gain_momentum(&mut t.store, game, Uuid::new_v4(), 1, MomentumSource::PlotHook)
    });
    // Made on the challenge, against one action's perks (sacrificing here alone removed none).
    t.refused("a Final Counter from the sheet", "how: a Final Counter is made on the challenge", |t| {
        services::mezzo_plot_protection(&mut t.store, game, mira, Sacrifice::FinalCounter, None)
    });
    t.refused("boosts outside a challenge", "is not in a challenge", |t| {
        services::mezzo_gain_momentum(&mut t.store, game, mira, 1, MomentumSource::Boost)
    });
    let penny = services::create_game(&mut t.store, "Stakes", "penny_ante").unwrap().game.id;
    t.refused("a Mezzo move at a Penny Ante table", "is a Penny Ante game, not Mezzo", |t| {
        services::mezzo_add_player(&mut t.store, penny, "Ada")
    });
}

#[test]
fn a_claimed_character_stays_at_its_table_and_a_copy_is_its_own_unclaimed_element() {
    let mut t = Table::new();
    let ada = t.add_actor("Ada");
    services::mezzo_claim(&mut t.store, t.game, ada, t.mira).unwrap();
    let other = services::create_game(&mut t.store, "Elsewhere", "mezzo").unwrap().game.id;
    let before = bytes_on_disk(&t.scratch.db());
    let err = services::delete_character(&mut t.store, t.mira).unwrap_err();
    assert!(err.to_string().contains("“Mira” is claimed by a player"), "{err}");
    let err = services::move_character(&mut t.store, t.mira, other).unwrap_err();
    assert!(err.to_string().contains("before it is moved"), "{err}");
    assert_eq!(bytes_on_disk(&t.scratch.db()), before);

    let copy = services::copy_character(&mut t.store, t.mira, other).unwrap();
    let sheet = t.sheet(copy.id);
    assert_eq!((sheet.id, sheet.claimed_by, sheet.awards.first_claim), (copy.id, None, true));
    // Unclaimed, Mira may go.
    services::mezzo_unclaim(&mut t.store, t.game, ada, t.mira).unwrap();
    services::move_character(&mut t.store, t.mira, other).unwrap();
    assert!(t.view().characters.iter().all(|c| c.element.id != t.mira));
}

#[test]
fn a_game_move_that_changed_a_sheet_waits_for_the_characters_later_change_to_be_undone() {
    let mut t = Table::new();
    let ada = t.add_actor("Ada");
    let revision = |t: &Table| t.store.read().character(t.mira).unwrap().unwrap().revision;
    let first = revision(&t);
    services::mezzo_claim(&mut t.store, t.game, ada, t.mira).unwrap();
    assert_eq!(revision(&t), first + 1, "a sheet changed by the table moves its revision on");
    // The character's own undo sees the table's change and waits for it.
    let err = services::undo_character(&mut t.store, t.mira).unwrap_err();
    assert!(err.to_string().contains("was changed since"), "{err}");

    services::rename_character(&mut t.store, t.mira, "Mira Vell").unwrap();
    assert_eq!(t.sheet(t.mira).name, "Mira Vell");
    let err = services::undo_game(&mut t.store, t.game).unwrap_err();
    assert!(err.to_string().contains("“Mira Vell” changed since this move"), "{err}");
    services::undo_character(&mut t.store, t.mira).unwrap();
    services::undo_game(&mut t.store, t.game).unwrap();
    let mira = t.sheet(t.mira);
    assert_eq!((mira.name.as_str(), mira.claimed_by), ("Mira", None));
    assert!(t.view().players[0].player.claimed.is_empty());
}

#[test]
fn deleting_a_game_keeps_its_table_in_the_log_and_undo_brings_it_back() {
    let mut t = Table::new();
    let ada = t.add_actor("Ada");
    services::mezzo_claim(&mut t.store, t.game, ada, t.mira).unwrap();
    services::mezzo_add_element(&mut t.store, t.game, ElementKind::Goal, "Reach the cove").unwrap();
    services::mezzo_start_arc(&mut t.store, t.game).unwrap();
    let before = t.state();
    services::delete_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.store.read().mezzo_table(t.game).unwrap(), MezzoTable::default());
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.state(), before);
    assert!(t.store.check().unwrap().ok);
    // And the moves before the deletion can still be undone, one by one.
    services::undo_game(&mut t.store, t.game).unwrap();
    assert_eq!(t.view().arc, 0);
}

#[test]
fn an_unknown_game_is_not_found() {
    let t = Table::new();
    let err = services::mezzo_table(&t.store, Uuid::new_v4()).unwrap_err();
    assert!(matches!(err, Error::NotFound { .. }), "{err}");
}

/// Audit #17: a Favored Flaw's flaw used against Mira gives her 1 adversity, once per scene:
/// a second time is refused and changes nothing; the scene's end makes it ready again (kept
/// in the database, so the state survives a reopen); each move is undone exactly.
#[test]
fn a_favored_flaw_gives_adversity_once_per_scene() {
    let mut t = Table::new();
    let (game, mira) = (t.game, t.mira);
    let flaw = draft(Some(Template::Vulnerability), None, "Fear of heights", Via::Granted);
    services::mezzo_add_trait(&mut t.store, game, mira, None, flaw).unwrap();
    let fear = t.trait_id("Mira", "Fear of heights");
    let favored =
        TraitDraft { target_trait: Some(fear), ..draft(Some(Template::FavoredFlaw), None, "Vertigo", Via::Granted) };
    services::mezzo_add_trait(&mut t.store, game, mira, None, favored).unwrap();
    let vertigo = t.trait_id("Mira", "Vertigo");
    services::mezzo_start_scene(&mut t.store, game).unwrap();

    let before = t.state();
    let used = services::mezzo_favored_flaw_used(&mut t.store, game, mira, vertigo).unwrap();
    assert_eq!(used.message, "Mira's Favored Flaw “Vertigo” worked against them: +1 adversity (1 now).");
    assert_eq!(t.sheet(mira).adversity, 1);
    assert!(t.scratch.open().read().mezzo_sheet(mira).unwrap().unwrap().trait_by_id(vertigo).unwrap().favored_used);
    t.refused("a second time in the scene", "Vertigo already gave Mira adversity in this scene", |t| {
        services::mezzo_favored_flaw_used(&mut t.store, game, mira, vertigo)
    });
    t.refused("not a Favored Flaw", "Fear of heights is not a Favored Flaw", |t| {
        services::mezzo_favored_flaw_used(&mut t.store, game, mira, fear)
    });
    services::undo_game(&mut t.store, game).unwrap();
    assert_eq!(t.state(), before, "undo takes the point and the mark back");

    services::mezzo_favored_flaw_used(&mut t.store, game, mira, vertigo).unwrap();
    services::mezzo_end_scene(&mut t.store, game).unwrap();
    assert!(!t.sheet(mira).trait_by_id(vertigo).unwrap().favored_used, "a new scene");
    services::mezzo_favored_flaw_used(&mut t.store, game, mira, vertigo).unwrap();
    assert_eq!(t.sheet(mira).adversity, 2);
}

/// DEV-7: Character Protection is the character's, not only the claim's. Ada claims Mira and
/// surrenders the claim: Mira keeps Plot Protection as the edge (in no slot), saved on her
/// sheet; undoing the surrender gives the claim back without the edge.
#[test]
fn a_character_keeps_its_plot_protection_when_the_claim_is_surrendered() {
    let mut t = Table::new();
    let ada = t.add_actor("Ada");
    services::mezzo_claim(&mut t.store, t.game, ada, t.mira).unwrap();
    let claimed = t.view().characters.into_iter().find(|c| c.element.id == t.mira).unwrap();
    assert!(claimed.has_plot_protection);
    assert_eq!(claimed.protection_sources, vec![sheetkeeper::rules::mezzo::element::ProtectionSource::Claim]);
    let change = services::mezzo_unclaim(&mut t.store, t.game, ada, t.mira).unwrap();
    assert_eq!(change.message, "Ada gives up the claim on Mira: Mira keeps Plot Protection as an edge.");
    let mira = t.view().characters.into_iter().find(|c| c.element.id == t.mira).unwrap();
    assert!(mira.has_plot_protection, "Mira keeps Character Protection");
    assert_eq!(mira.protection_sources, vec![sheetkeeper::rules::mezzo::element::ProtectionSource::Edge]);
    assert_eq!(mira.filled_slots, 0, "the edge is given by play, in no slot");
    let sheet = t.sheet(t.mira);
    assert!(sheet.traits.iter().any(|e| e.template == Some(Template::PlotProtection) && e.via == Via::Granted));
    services::undo_game(&mut t.store, t.game).unwrap();
    let mira = t.view().characters.into_iter().find(|c| c.element.id == t.mira).unwrap();
    assert_eq!((mira.element.claimed_by, mira.element.traits.len()), (Some(ada), 0));
}
