//! Every vote source in a Mezzo conflict, as a table uses them: Mira leaves a challenge in
//! victory and spends her momentum on Victory Narration; on the plot tab the table sets the
//! arc's Theme, makes its own Setting Law and establishes a fact; in the conflict that
//! follows, Ada spends the narration votes, Mira's Attractant adds its vote, Ada invokes
//! Consistency with the fact picked from the register, Bo the table's law and Cy the Theme.
//! The tally shows each source, the log names them. Then a D6 conflict where the owner keeps
//! a roll the app would have burst. Photographed at 1280 and 360 px, light and dark.

use serde_json::json;
use sheetkeeper::rules::mezzo::challenge::ChallengerSetup;
use sheetkeeper::rules::mezzo::element::{ElementKind, MomentumSource, Role};
use sheetkeeper::rules::mezzo::plot::TurningPoint;
use sheetkeeper::services::{self, MezzoChallengeDraft};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::mezzo::{
    choose, conflict_options, db, open_mezzo, press, reopen_mezzo, shots_of, text_of, type_into, wait_contains,
};
use crate::webdriver::Session;
use crate::{begin, open, open_dark};

const GAME: &str = "Bridge Night";

struct Seeded {
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
    Seeded { ada, bo, cy, mira, magnet }
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
