//! Every vote source in a Mezzo conflict, as a table uses them: Mira leaves a challenge in
//! victory and spends her momentum on Victory Narration; on the plot tab the table sets the
//! arc's Theme, makes its own Setting Law and establishes a fact; in the conflict that
//! follows, Ada spends the narration votes, Mira's Attractant adds its vote, Ada invokes
//! Consistency with the fact picked from the register, Bo the table's law and Cy the Theme.
//! The tally shows each source, the log names them. Then a D6 conflict where the owner keeps
//! a roll the app would have burst. Photographed at 1280 and 360 px, light and dark.

use serde_json::json;
use sheetkeeper::rules::mezzo::challenge::ChallengerSetup;
use sheetkeeper::rules::mezzo::element::{AdversitySpend, ElementKind, MomentumSource, Role};
use sheetkeeper::rules::mezzo::plot::TurningPoint;
use sheetkeeper::services::{self, MezzoChallengeDraft};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::mezzo::{
    choose, conflict_options, db, dismiss_error, open_element_sheet, open_mezzo, press, reopen_mezzo, resolve_check,
    roll_typed, shots_of, text_of, type_into, wait_contains,
};
use crate::webdriver::Session;
use crate::{begin, open, open_dark};

const GAME: &str = "Bridge Night";

struct Seeded {
    game: Uuid,
    ada: Uuid,
    bo: Uuid,
    cy: Uuid,
    mira: Uuid,
    magnet: Uuid,
}

/// The faction "The Ogre" is made and challenges Mira over `description`, one on each side
/// and no stakes (the challenge both tests play on from the Mezzo screen); returns the Ogre's
/// id and the challenge's.
fn the_ogre_challenges_mira(store: &mut Store, game: Uuid, mira: Uuid, description: &str) -> (Uuid, Uuid) {
    let ogre =
        services::mezzo_add_element(store, game, ElementKind::Faction, "The Ogre").unwrap().view.elements[0].element.id;
    let start = MezzoChallengeDraft {
        description: description.into(),
        sides: vec![Default::default(), Default::default()],
        challengers: vec![
            ChallengerSetup { element: mira, side: 0, stake: None },
            ChallengerSetup { element: ogre, side: 1, stake: None },
        ],
        goals: Vec::new(),
    };
    let challenge = services::mezzo_challenge_start(store, game, &start).unwrap().challenge.unwrap().id;
    (ogre, challenge)
}

/// Ada (Actor, Mira's claimer), Bo and Cy in arc 1, past its Turning Point (Mira was its
/// challenger); Mira has the Attractant "Danger magnet" and 2 momentum, and the Ogre just
/// surrendered the challenge against her.
fn seeded(db_path: &std::path::Path) -> Seeded {
    let mut store = Store::open(db_path).expect("the database");
    let game = services::create_game(&mut store, GAME, "mezzo").unwrap().game.id;
    let mira = services::create_character(&mut store, game, "Mira").unwrap().id;
    let mut player = |name| {
        let v = services::mezzo_add_player(&mut store, game, name).unwrap().view;
        v.players.iter().find(|p| p.player.name == name).unwrap().player.id
    };
    let (ada, bo, cy) = (player("Ada"), player("Bo"), player("Cy"));
    services::mezzo_take_role(&mut store, game, ada, Role::Actor).unwrap();
    services::mezzo_claim(&mut store, game, ada, mira).unwrap();
    services::mezzo_start_arc(&mut store, game).unwrap();
    let draft =
        serde_json::from_value(json!({ "template": "attractant", "name": "Danger magnet", "via": "edge_slot" }))
            .unwrap();
    let v = services::mezzo_add_trait(&mut store, game, mira, Some(ada), draft).unwrap().view;
    let magnet = v.characters[0].element.traits.iter().find(|t| t.name == "Danger magnet").unwrap().id;
    let (ogre, challenge) = the_ogre_challenges_mira(&mut store, game, mira, "The bridge");
    services::mezzo_gain_momentum(&mut store, game, mira, 2, MomentumSource::PlotHook).unwrap();
    services::mezzo_challenge_play(&mut store, game, &json!({ "move": "surrender", "challenger": ogre })).unwrap();
    // The Turning Point came in this challenge (reaching it takes five hooks; the table is
    // set as it left it): Mira may set a Theme.
    let mut table = store.read().mezzo_table(game).unwrap();
    table.plot.turning_point =
        Some(TurningPoint { challenge, challengers: vec![mira], hooks: Vec::new(), themes: Vec::new() });
    store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
    Seeded { game, ada, bo, cy, mira, magnet }
}

/// The value of the option of `select` whose text starts with `text`.
fn option_value(session: &Session, select: &str, text: &str) -> String {
    session.wait_until(&format!("an option {text:?} in {select}"), || {
        session
            .execute(
                "const o = [...document.querySelectorAll(arguments[0] + ' option')].find((o) => o.textContent.startsWith(arguments[1])); \
                 return o ? o.value : null;",
                json!([select, text]),
            )
            .as_str()
            .map(str::to_owned)
    })
}

/// On the plot tab, the register's `entry` form (theme, law or fact): types each of `fields`
/// (the box's name in the form, the text) into `#mzp-{entry}-{box}`, submits the form and waits
/// for the register's list `#mzp-{entry}s` to show `shown`.
fn add_to_register(session: &Session, entry: &str, fields: &[(&str, &str)], shown: &str) {
    for (field, text) in fields {
        type_into(session, &format!("#mzp-{entry}-{field}"), text);
    }
    press(session, &format!("#mzp-{entry}-submit"));
    wait_contains(session, &format!("#mzp-{entry}s"), shown);
}

#[test]
fn every_vote_source_in_a_conflict() {
    let (_window, _scratch, db_path) = begin("mezzo-votes");
    let s = seeded(&db_path);
    let (ada, bo, cy, mira) = (s.ada, s.bo, s.cy, s.mira);
    let session = open(&db_path);
    open_mezzo(&session, GAME);

    // Mira leaves in victory: 2 momentum on Victory Narration.
    press(&session, "#mezzo-tab-challenge");
    session.wait_for(&format!("#mzch-spend-{mira}-form"));
    choose(&session, &format!("#mzch-spend-{mira}-kind"), "victory_narration");
    type_into(&session, &format!("#mzch-spend-{mira}-count"), "2");
    press(&session, &format!("#mzch-spend-{mira}-submit"));
    wait_contains(&session, "#toast-message", "Mira spends 2 momentum on victory narration (2 votes).");

    // The plot tab: the Theme, the table's own law, an established fact.
    press(&session, "#mezzo-tab-plot");
    assert!(!text_of(&session, "#mzp-theme-form").contains("works as a Setting Law"), "the label says how it is used");
    add_to_register(&session, "theme", &[("text", "Trust is earned")], "Trust is earned");
    add_to_register(
        &session,
        "law",
        &[("name", "Law of Tides"), ("effect", "The sea gives back what it takes")],
        "Law of Tides: The sea gives back what it takes",
    );
    add_to_register(&session, "fact", &[("text", "The bridge is rotten")], "The bridge is rotten");
    wait_contains(&session, "#toast-message", "A fact is established: “The bridge is rotten”.");
    shots_of(&session, "mezzo-votes-register", "#mzp-register");

    // The conflict: Mira is in the scene.
    press(&session, "#mezzo-tab-conflict");
    conflict_options(&session, "Does the bridge hold?", &["It holds", "It breaks"]);
    press(&session, &format!("#mz-conflict-scene-active-{mira}"));
    // Ada spends the 2 narration votes; Mira's Attractant gives its vote where danger is.
    choose(&session, &format!("#mz-narration-element-{ada}"), &mira.to_string());
    type_into(&session, &format!("#mz-narration-votes-{ada}"), "2");
    choose(&session, &format!("#mz-trait-{}", s.magnet), "0");
    session.wait_text("#mz-votes-0", "3 votes");
    // Ada's Consistency on the fact from the register; Bo's law and Cy's Theme on "It breaks".
    choose(&session, &format!("#mz-law-{ada}"), "consistency");
    choose(&session, &format!("#mz-law-fact-pick-{ada}"), "fact:The bridge is rotten");
    session.wait_until("the picked fact in the box", || {
        let v = session
            .execute("return document.querySelector(arguments[0]).value;", json!([format!("#mz-law-fact-{ada}")]));
        (v == json!("The bridge is rotten")).then_some(())
    });
    session.wait_text("#mz-votes-0", "4 votes");
    let tides = option_value(&session, &format!("#mz-law-{bo}"), "Law of Tides");
    choose(&session, &format!("#mz-law-{bo}"), &tides);
    choose(&session, &format!("#mz-law-option-{bo}"), "1");
    choose(&session, &format!("#mz-law-{cy}"), &format!("theme:{mira}"));
    choose(&session, &format!("#mz-law-option-{cy}"), "1");
    session.wait_text("#mz-votes-1", "2 votes");
    let tally = text_of(&session, "#mz-odds-list");
    assert!(tally.contains("narration 2") && tally.contains("traits 1") && tally.contains("laws +1"), "{tally:?}");
    shots_of(&session, "mezzo-votes-casts", &format!(".mz-caster[data-player-id='{ada}']"));
    press(&session, "#mz-resolve-submit");
    session.wait_for("#mz-summary");
    press(&session, "#mezzo-tab-log");
    let log = text_of(&session, "#mz-log-list");
    for part in [
        "Votes from: Mira's Victory Narration (2) for “It holds”",
        "Mira's “Danger magnet” for “It holds”",
        "Bo's law “Law of Tides” for “It breaks”",
        "Cy's Theme “Trust is earned” for “It breaks”",
    ] {
        assert!(log.contains(part), "{part:?} in {log:?}");
    }
    let spent: i64 = db(&db_path).query_row("SELECT count(*) FROM mz_victory_votes", [], |r| r.get(0)).unwrap();
    assert_eq!(spent, 0, "the narration votes are spent");

    // The D6 variant, the audit's case with dice typed in: Mira's 5 votes show 5, the Ogre's
    // 6 votes (d6 × 2) show 2. The app suggests Mira's burst; her owner keeps the 5 and wins.
    press(&session, "#mezzo-tab-conflict");
    rope_conflict(&session, "Who reaches the rope first?");
    session.wait_text("#mz-dice-0", "d6 × 1, burst on 1–5");
    session.wait_text("#mz-dice-1", "d6 × 2");
    press(&session, "#mz-hand");
    type_into(&session, "#mz-die-1", "5");
    type_into(&session, "#mz-die-2", "2");
    session.wait_for("#mz-die-3");
    let checked = |s: &Session| s.execute("return document.querySelector('#mz-burst-0').checked;", json!([]));
    assert_eq!(checked(&session), json!(true), "the expected-score choice is suggested");
    assert!(text_of(&session, "#mz-bursts").contains("suggested: raises the expected score"));
    press(&session, "#mz-burst-0");
    session.wait_gone("#mz-die-3");
    assert_eq!(checked(&session), json!(false), "the owner keeps the roll");
    shots_of(&session, "mezzo-votes-d6-keep", "#mz-resolve");
    press(&session, "#mz-resolve-submit");
    session.wait_text("#mz-summary", "“Mira” wins.");
    assert_eq!(text_of(&session, "#mz-score-0"), "5", "the kept roll");
    assert_eq!(text_of(&session, "#mz-score-1"), "4", "2 × 2");

    // Rolled in the app: the first dice show before anyone decides, then the choices resolve.
    rope_conflict(&session, "Who grabs the rope?");
    session.wait_text("#mz-votes-1", "6 votes");
    if session.execute("return document.querySelector('#mz-hand').checked;", json!([])) == json!(true) {
        press(&session, "#mz-hand");
    }
    session.wait_gone("#mz-resolve-submit");
    press(&session, "#mz-d6-roll-first");
    wait_contains(&session, "#mz-first-1", "The Ogre”: showed");
    session.wait_for("#mz-bursts");
    shots_of(&session, "mezzo-votes-d6-first", "#mz-resolve");
    press(&session, "#mz-resolve-submit");
    session.wait_for("#mz-summary");
    drop(session);

    // In dark mode: the register and a new conflict's laws with the facts offered.
    let session = open_dark(&db_path);
    reopen_mezzo(&session, GAME);
    press(&session, "#mezzo-tab-plot");
    wait_contains(&session, "#mzp-facts", "The bridge is rotten");
    shots_of(&session, "mezzo-votes-dark-register", "#mzp-register");
    press(&session, "#mezzo-tab-conflict");
    session.wait_for(&format!("#mz-law-{ada}"));
    choose(&session, &format!("#mz-law-{ada}"), "inertia");
    shots_of(&session, "mezzo-votes-dark-casts", &format!("#mz-law-{ada}"));
}

/// A new D6 conflict `question`, Mira against the Ogre, with the table's counted totals:
/// 5 votes for Mira (d6 ×1, burst on 1–5) and 6 for the Ogre (d6 ×2, no burst).
fn rope_conflict(session: &Session, question: &str) {
    press(session, "#mz-new-conflict");
    conflict_options(session, question, &["Mira", "The Ogre"]);
    press(session, "#mz-approach-d6");
    press(session, "#mz-entry-totals");
    for (option, votes) in [(0, 5), (1, 6)] {
        for _ in 0..votes {
            press(session, &format!("#mz-total-{option}-plus"));
        }
    }
}

/// Discover's extra free vote: Mira's Discover perk added “A rope ladder” in the table's
/// challenge; in the conflict that follows the table casts the discovered detail's vote for
/// “Climb down” (no player pays for it), the tally counts it, and the log names it. Light at
/// 1280 and 360 px, then dark.
#[test]
fn a_discovered_detail_casts_its_free_vote_in_a_conflict() {
    let (_window, _scratch, db_path) = begin("mezzo-discover");
    {
        let mut store = Store::open(&db_path).expect("the database");
        let game = services::create_game(&mut store, "Cliff Night", "mezzo").unwrap().game.id;
        let mira = services::create_character(&mut store, game, "Mira").unwrap().id;
        services::mezzo_add_player(&mut store, game, "Ada").unwrap();
        services::mezzo_start_arc(&mut store, game).unwrap();
        let (ogre, _challenge) = the_ogre_challenges_mira(&mut store, game, mira, "The cliff");
        let score = |e: Uuid, s: u32| json!({ "kind": { "kind": "action", "element": e }, "score": s });
        for mv in [
            json!({ "move": "major_actions", "rolls": [score(mira, 5), score(ogre, 3)], "majors": [mira] }),
            json!({ "move": "trade", "action": 0 }),
            json!({ "move": "declare", "action": 0, "perk": { "kind": "discover", "detail": "A rope ladder" } }),
            json!({ "move": "settle", "action": 0 }),
        ] {
            services::mezzo_challenge_play(&mut store, game, &mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
    }
    let session = open(&db_path);
    open_mezzo(&session, "Cliff Night");
    press(&session, "#mezzo-tab-conflict");
    conflict_options(&session, "How does Mira get down?", &["Climb down", "Jump"]);
    wait_contains(&session, "#mz-story-votes", "Discovered “A rope ladder”: an extra vote where it exists");
    choose(&session, "#mz-discover-0", "0");
    session.wait_text("#mz-votes-0", "1 vote");
    wait_contains(&session, "#mz-odds-list", "discovered 1");
    shots_of(&session, "mezzo-votes-discover", "#mz-story-votes");
    press(&session, "#mz-resolve-submit");
    session.wait_for("#mz-summary");
    press(&session, "#mezzo-tab-log");
    wait_contains(&session, "#mz-log-list", "the discovered “A rope ladder” for “Climb down”");
    drop(session);

    let session = open_dark(&db_path);
    reopen_mezzo(&session, "Cliff Night");
    press(&session, "#mezzo-tab-conflict");
    conflict_options(&session, "Does the ladder hold?", &["It holds", "It snaps"]);
    choose(&session, "#mz-discover-0", "0");
    session.wait_text("#mz-votes-0", "1 vote");
    shots_of(&session, "mezzo-votes-discover-dark", "#mz-story-votes");
}

/// DEV-10 (seed: after the Turning Point "players can call for the end of the current plot
/// arc at the end of each scene"): arc 1 past its Turning Point with a scene being played.
/// The Plot tab offers no arc end but says to end the scene first; once the Table tab ends
/// the scene, the arc ends and arc 2 begins.
#[test]
fn an_arc_ends_at_the_end_of_a_scene() {
    let (_window, _scratch, db_path) = begin("mezzo-arc-end");
    {
        let mut store = Store::open(&db_path).expect("the database");
        let game = services::create_game(&mut store, GAME, "mezzo").unwrap().game.id;
        services::mezzo_add_player(&mut store, game, "Ada").unwrap();
        services::mezzo_start_arc(&mut store, game).unwrap();
        services::mezzo_start_scene(&mut store, game).unwrap();
        // The Turning Point came in an earlier challenge (reaching it takes five hooks; the
        // table is set as it left it).
        let mut table = store.read().mezzo_table(game).unwrap();
        table.plot.turning_point = Some(TurningPoint {
            challenge: Uuid::new_v4(),
            challengers: Vec::new(),
            hooks: Vec::new(),
            themes: Vec::new(),
        });
        store.write(|tx| tx.put_mezzo_table(game, &table)).unwrap();
    }
    let session = open(&db_path);
    open_mezzo(&session, GAME);
    press(&session, "#mezzo-tab-plot");
    session.wait_text(
        "#mzp-end-hint",
        "The arc ends at the end of a scene: end the scene being played (Table tab), then end the arc here.",
    );
    assert!(session.find("#mzp-end-arc").is_err(), "no arc end mid-scene");
    shots_of(&session, "mezzo-arc-end-mid-scene", "#mzp-arc");

    press(&session, "#mezzo-tab-table");
    press(&session, "#mz-scene-toggle");
    session.wait_text("#mz-scene-status", "No scene is being played.");
    press(&session, "#mezzo-tab-plot");
    press(&session, "#mzp-end-arc");
    wait_contains(&session, "#toast-message", "Arc 1 ends");
    wait_contains(&session, "#mzp-arc", "Arc 2");
}

/// The vote sources of a conflict in an action check (DEV-2), and a conflict about two claimed
/// characters (DEV-8): Mira bought 2 Victory Narration votes leaving the challenge and owes 1
/// adversity debt; in her check Ada spends both narration votes for her and her debt on the
/// fall that would harm her, Bo invokes the table's Law of Tides. The tally names each, the
/// check resolves, the narration votes are spent and the debt paid off. Then a conflict about
/// Mira and Rook: Ada (Mira's Actor) and Bo (Rook's) each cast 3 free votes. Light at 1280
/// and 360 px, then dark.
#[test]
fn an_action_check_takes_the_conflicts_vote_sources() {
    let (_window, _scratch, db_path) = begin("mezzo-check-votes");
    let s = seeded(&db_path);
    let (game, ada, bo, mira) = (s.game, s.ada, s.bo, s.mira);
    let rook = {
        let mut store = Store::open(&db_path).expect("the database");
        let spend = json!({ "move": "spend", "challenger": mira, "by": ada,
            "spend": { "kind": "victory_narration", "votes": 2 } });
        services::mezzo_challenge_play(&mut store, game, &spend).unwrap();
        services::mezzo_gain_adversity(&mut store, game, mira, 1).unwrap();
        services::mezzo_spend_adversity(&mut store, game, mira, Some(ada), AdversitySpend::FortunesFavor, true)
            .unwrap();
        services::mezzo_put_law(&mut store, game, None, "Law of Tides", "The sea gives back what it takes").unwrap();
        let rook = services::create_character(&mut store, game, "Rook").unwrap().id;
        services::mezzo_take_role(&mut store, game, bo, Role::Actor).unwrap();
        services::mezzo_claim(&mut store, game, bo, rook).unwrap();
        rook
    };
    let session = open(&db_path);
    open_mezzo(&session, GAME);

    press(&session, "#mezzo-tab-check");
    type_into(&session, "#mzc-description", "Mira leaps the gap");
    choose(&session, "#mzc-actor-0", &mira.to_string());
    type_into(&session, "#mzc-failure", "She falls");
    choose(&session, &format!("#mzc-narration-element-{ada}"), &mira.to_string());
    type_into(&session, &format!("#mzc-narration-votes-{ada}"), "2");
    choose(&session, &format!("#mzc-ill-element-{ada}"), &mira.to_string());
    type_into(&session, &format!("#mzc-ill-points-{ada}"), "1");
    choose(&session, &format!("#mzc-ill-side-{ada}"), "1");
    let tides = option_value(&session, &format!("#mzc-law-{bo}"), "Law of Tides");
    choose(&session, &format!("#mzc-law-{bo}"), &tides);
    choose(&session, &format!("#mzc-law-side-{bo}"), "0");
    // Mira: common (2) + narration 2 + the law 1 = 5 votes, a d12; the fall: 1 + Ill Fated 1, a d6.
    session.wait_text("#mzc-dice-0", "d12");
    session.wait_text("#mzc-dice-1", "d6");
    let tally = text_of(&session, "#mzc-odds-list");
    assert!(tally.contains("narration 2") && tally.contains("laws +1") && tally.contains("Ill Fated 1"), "{tally:?}");
    shots_of(&session, "mezzo-check-votes", &format!(".mzc-player[data-player-id='{ada}']"));
    shots_of(&session, "mezzo-check-votes-odds", "#mzc-odds-list");
    roll_typed(&session, "9", "3");
    resolve_check(&session);
    let left: i64 = db(&db_path).query_row("SELECT count(*) FROM mz_victory_votes", [], |r| r.get(0)).unwrap();
    assert_eq!(left, 0, "the narration votes are spent");
    // The debt is paid off: a new check offers no Ill Fated for Mira.
    press(&session, "#mzc-new");
    choose(&session, "#mzc-actor-0", &mira.to_string());
    session.wait_for(&format!(".mzc-element[data-element-id='{mira}']"));
    let title = text_of(&session, &format!(".mzc-element[data-element-id='{mira}'] .mz-cast-title"));
    assert!(!title.contains("debt"), "{title:?}");
    assert_eq!(
        session.execute(
            "return document.querySelector(arguments[0]) === null;",
            json!([format!("#mzc-ill-element-{ada}")])
        ),
        json!(true),
        "no debt left to pay off"
    );

    // A conflict about Mira and Rook: both Actors have Creative Control.
    press(&session, "#mezzo-tab-conflict");
    conflict_options(&session, "Who jumps first?", &["Mira", "Rook"]);
    press(&session, &format!("#mz-about-{mira}"));
    session.wait_for(&format!("#mz-free-2-{ada}"));
    assert_eq!(
        session.execute("return document.querySelector(arguments[0]) === null;", json!([format!("#mz-free-0-{bo}")])),
        json!(true),
        "an Actor has no free vote on another character's matters"
    );
    press(&session, &format!("#mz-about-{rook}"));
    session.wait_for(&format!("#mz-free-2-{bo}"));
    for k in 0..3 {
        choose(&session, &format!("#mz-free-{k}-{ada}"), "0");
        choose(&session, &format!("#mz-free-{k}-{bo}"), "1");
    }
    session.wait_text("#mz-votes-0", "3 votes");
    session.wait_text("#mz-votes-1", "3 votes");
    shots_of(&session, "mezzo-conflict-about", "#mz-conflict-question");
    drop(session);

    let session = open_dark(&db_path);
    reopen_mezzo(&session, GAME);
    press(&session, "#mezzo-tab-conflict");
    session.wait_for(&format!("#mz-about-{rook}"));
    shots_of(&session, "mezzo-conflict-about-dark", "#mz-conflict-question");
}

/// Asset Investment (DEV-4): the Smithy's Asset "The blade" with an investment in "Keen edge";
/// the Blade holds two Empowering Gifts and lends one. Invested from the Smithy's sheet, the
/// Blade gains “Keen edge” and lends its second gift; light at 1280 and 360 px, then dark.
#[test]
fn an_asset_investment_lets_the_asset_lend_a_second_gift() {
    let (_window, _scratch, db_path) = begin("mezzo-invest");
    let (smithy, blade, investment, wings, forge, phantom) = {
        let mut store = Store::open(&db_path).expect("the database");
        let game = services::create_game(&mut store, "Forge Night", "mezzo").unwrap().game.id;
        services::mezzo_add_player(&mut store, game, "Ada").unwrap();
        services::mezzo_start_arc(&mut store, game).unwrap();
        let mut element = |kind, name: &str| {
            let v = services::mezzo_add_element(&mut store, game, kind, name).unwrap().view;
            v.elements.iter().find(|e| e.element.name == name).unwrap().element.id
        };
        let (smithy, blade, shield) = (
            element(ElementKind::Location, "Smithy"),
            element(ElementKind::Object, "Blade"),
            element(ElementKind::Object, "Shield"),
        );
        let mut add = |element: Uuid, draft: serde_json::Value| {
            let name = draft["name"].as_str().unwrap().to_owned();
            let v = services::mezzo_add_trait(&mut store, game, element, None, serde_json::from_value(draft).unwrap())
                .unwrap()
                .view;
            let e = v.elements.into_iter().find(|e| e.element.id == element).unwrap();
            e.element.traits.iter().find(|t| t.name == name).unwrap().id
        };
        let asset = add(
            smithy,
            json!({ "template": "asset", "name": "The blade", "via": "edge_slot", "properties": { "set_up": "Blade" } }),
        );
        let investment = add(
            smithy,
            json!({ "template": "asset_investment", "name": "Investment", "via": "edge_slot",
                "target_trait": asset, "properties": { "set_up": "Keen edge" } }),
        );
        let fire = add(
            blade,
            json!({ "template": "empowering_gift", "name": "Gift of fire", "via": "edge_slot", "properties": { "set_up": "Fire" } }),
        );
        let wings = add(
            blade,
            json!({ "template": "empowering_gift", "name": "Gift of wings", "via": "edge_slot", "properties": { "set_up": "Wings" } }),
        );
        // The Blade's Background and the phantom edge it granted (DEV-12).
        let forge = add(blade, json!({ "template": "background", "name": "Old forge", "via": "edge_slot" }));
        let phantom = add(
            blade,
            json!({ "kind": "edge", "name": "Forge-born", "via": "granted", "granted_by": forge, "lasts": "scene" }),
        );
        services::mezzo_lend_gift(&mut store, game, blade, fire, shield, true).unwrap();
        (smithy, blade, investment, wings, forge, phantom)
    };
    let session = open(&db_path);
    open_mezzo(&session, "Forge Night");
    press(&session, "#mezzo-tab-elements");
    open_element_sheet(&session, &smithy.to_string(), "Smithy");
    choose(&session, &format!("#mz-invest-target-{investment}"), &blade.to_string());
    shots_of(&session, "mezzo-invest", &format!("#mz-invest-{investment}"));
    press(&session, &format!("#mz-invest-{investment}"));
    let shown = session.wait_until("the investment made, or refused", || {
        ["#error-message", &format!("#mz-invested-{investment}")].iter().find_map(|sel| {
            session.find(sel).ok().map(|e| e.text()).filter(|t| !t.is_empty()).map(|t| format!("{sel}: {t}"))
        })
    });
    assert!(shown.starts_with("#mz-invested"), "{shown}");
    wait_contains(&session, "#toast-message", "Smithy's asset Blade gains “Keen edge” from its Asset Investment.");
    session.wait_text(&format!("#mz-invested-{investment}"), "Invested in Blade");
    press(&session, "#mz-sheet-back");
    open_element_sheet(&session, &blade.to_string(), "Blade");
    wait_contains(&session, "#mz-traits", "Keen edge");
    session.wait_text(
        &format!("#mz-gift-at-once-{wings}"),
        "Blade lends up to 2 Empowering Gifts at a time (its Asset Investments).",
    );
    choose(&session, &format!("#mz-gift-target-{wings}"), &smithy.to_string());
    press(&session, &format!("#mz-gift-lend-{wings}"));
    wait_contains(&session, &format!("#mz-gift-holders-{wings}"), "Lent to Smithy");
    shots_of(&session, "mezzo-invest-gifts", "#mz-traits");

    // DEV-12: a Dulled Edge on the Background must go to the phantom edge it granted first.
    if session.execute("return document.querySelector('#mz-sheet-mode').dataset.mode;", json!([])) == json!("play") {
        press(&session, "#mz-sheet-mode");
    }
    session.wait_for("#mz-add-trait");
    let dull = |target: &Uuid| {
        if session.execute("return document.querySelector('#mz-add-trait').open;", json!([])) != json!(true) {
            press(&session, "#mz-add-trait summary");
        }
        choose(&session, "#mz-trait-kind", "flaw");
        choose(&session, "#mz-trait-template", "dulled_edge");
        type_into(&session, "#mz-trait-name", "Cold embers");
        choose(&session, "#mz-trait-target", &target.to_string());
        press(&session, "#mz-trait-submit");
    };
    dull(&forge);
    let error = text_of(&session, "#error-message");
    assert!(
        error.contains(
            "Old forge has a dependent trait without a Dulled Edge (Forge-born): the flaw must target it instead"
        ),
        "{error:?}"
    );
    dismiss_error(&session);
    dull(&phantom);
    wait_contains(&session, "#toast-message", "Cold embers");
    drop(session);

    let session = open_dark(&db_path);
    reopen_mezzo(&session, "Forge Night");
    press(&session, "#mezzo-tab-elements");
    open_element_sheet(&session, &smithy.to_string(), "Smithy");
    session.wait_text(&format!("#mz-invested-{investment}"), "Invested in Blade");
    shots_of(&session, "mezzo-invest-dark", ".mz-invest");
}
