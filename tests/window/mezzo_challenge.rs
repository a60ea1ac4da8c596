//! The Mezzo challenge tab, driven like a person: a two-side challenge started from its form,
//! a major action with typed-in dice that wins (a Damage perk declared on the opponent — first
//! refused without the wound's name, with the core's message — and settled: the opponent's
//! sheet shows the new wound), one that fails (the actor's adversity), the round's end, and the
//! end taken back with the toast's Undo, a surrender refused with its reason. After a restart
//! in dark mode the challenge is still there; the next round the opponent surrenders, the
//! victor spends the momentum its wound gave, the challenge ends, and Rest & Recuperation treats
//! the wound and shakes it off. Screenshots at 1280 and 360 px wide, light and dark.

use serde_json::json;

use crate::mezzo::{
    challenge_form, choose, db, dismiss_error, dismiss_toast, new_character, new_element, open_element_sheet,
    open_mezzo, press, reopen_mezzo, shots_of, text_of, type_into, wait_contains,
};
use crate::webdriver::Session;
use crate::{begin, begin_with, create_game, open, open_dark};

/// Opens the game `name`'s challenge tab and waits for `round` there.
fn challenge_tab(session: &Session, name: &str, round: &str) {
    open_mezzo(session, name);
    press(session, "#mezzo-tab-challenge");
    session.wait_text("#mzch-round", round);
}

/// After a restart: the game `name`'s challenge tab, once it shows `round`.
fn reopen_challenge_tab(session: &Session, name: &str, round: &str) {
    crate::back_home(session);
    challenge_tab(session, name, round);
}

/// `element` surrenders, picked in the surrender form.
fn surrender(session: &Session, element: &str) {
    choose(session, "#mzch-surrender-who", element);
    press(session, "#mzch-surrender");
}

/// Declares the perk set up in the form (it reads `declared`), then settles the action; the
/// round is back at `round`.
fn declare_and_settle(session: &Session, declared: &str, round: &str) {
    press(session, "#mzch-declare");
    session.wait_text("#mzch-declared", declared);
    press(session, "#mzch-settle");
    session.wait_text("#mzch-round", round);
}

/// Plays `moves` on the game's challenge through the services, before the window opens.
fn play_moves(store: &mut sheetkeeper::Store, game: uuid::Uuid, moves: &[serde_json::Value]) {
    for mv in moves {
        sheetkeeper::services::mezzo_challenge_play(store, game, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

/// A typed score for `element`'s action, as the challenge's moves write it.
fn action_score(element: uuid::Uuid, score: u32) -> serde_json::Value {
    json!({ "kind": { "kind": "action", "element": element }, "score": score })
}

/// Ticks `acts` for `element` on the major action form, types the dice in (the actor's d6, the
/// failure's d4) and records the action.
fn major_action(session: &Session, element: &str, actor: u8, failure: u8) {
    press(session, &format!("#mzch-acts-{element}"));
    session.wait_for(&format!("#mzch-chance-{element}"));
    press(session, "#mzch-mode-dice");
    // The core says which dice the check rolls: a d6 (common) against a d4 (occasional).
    let summary = text_of(session, "#mzch-dice-summary");
    assert!(summary.ends_with("Failure: d4") && summary.contains(": d6"), "{summary:?}");
    session.wait_for("#mzch-die-2");
    assert!(session.find("#mzch-die-3").is_err(), "two dice: the actor's and the failure's");
    type_into(session, "#mzch-die-1", &actor.to_string());
    type_into(session, "#mzch-die-2", &failure.to_string());
    press(session, "#mzch-major-submit");
}

/// The element's adversity as saved.
fn adversity(conn: &rusqlite::Connection, element: &str) -> i64 {
    conn.query_row("SELECT adversity FROM mz_elements WHERE id = ?1", [element], |r| r.get(0))
        .expect("read mz_elements")
}

/// Mira (a character) tries to get through the gate against the Gate Guard (a faction). Her
/// typed 3 beats the failure's 2 (higher, not double): one major perk, a Damage that wounds the
/// Guard with "Twisted Ankle". The Guard's 1 loses to the failure's 3: one adversity. The round
/// ends; Undo takes the end back.
#[test]
fn a_challenge_round_producing_perks_and_adversity() {
    let (_window, _scratch, db_path, session) = begin_with("mezzo-challenge", open);
    create_game(&session, "Gate Night", "mezzo");
    open_mezzo(&session, "Gate Night");
    let mira = new_character(&session, "Mira");
    let guard = new_element(&session, "faction", "Gate Guard");

    // The start form: two sides, a challenger on each, Mira with a stake.
    challenge_form(
        &session,
        "Get through the gate",
        ["Mira gets in", "The gate holds"],
        (&mira, "the archive beyond"),
        &guard,
    );
    shots_of(&session, "mezzo-challenge-start", "#mzch-start");
    press(&session, "#mzch-start-submit");
    session.wait_text("#mzch-round", "Round 1 · major actions");
    assert!(text_of(&session, "#toast-message").contains("Get through the gate"), "the toast names the challenge");
    session.wait_text("#mzch-side-0-heading", "Side 1: Mira gets in");
    session.wait_text(&format!("#mzch-status-{mira}"), "In · not acted yet");
    assert!(text_of(&session, &format!("#mzch-challenger-{mira}")).contains("Stake: the archive beyond"));

    // Set to the D6 variant, the table's major actions are rolled on the Action check tab (each
    // owner bursts after the first roll) or typed in as final scores; back to step dice after.
    press(&session, "#mezzo-tab-table");
    choose(&session, "#mz-variant", "d6");
    press(&session, "#mezzo-tab-challenge");
    wait_contains(&session, "#mzch-d6-note", "Action check tab");
    assert!(session.find("#mzch-mode-rolled").is_err() && session.find("#mzch-mode-scores").is_ok(), "scores only");
    press(&session, "#mezzo-tab-table");
    choose(&session, "#mz-variant", "steps");
    press(&session, "#mezzo-tab-challenge");
    session.wait_for("#mzch-mode-rolled");
    wait_contains(&session, "#mzch-next", "Mira, Gate Guard");

    // Mira's major action: 3 against 2, higher but not double.
    major_action(&session, &mira, 3, 2);
    session.wait_text("#mzch-round", "Round 1 · perks being resolved");
    session.wait_text("#mzch-perks-left", "Mira: 1 major perk and 0 minor perks left");
    assert!(text_of(&session, "#mzch-action-0").contains("Mira: 3 against 2 — higher: 1 major perk."));
    assert!(text_of(&session, "#toast-message").contains("Mira's major action: 3 against 2 — 1 major perk."));

    // Damage on the Guard: without the wound's name the core refuses and says why.
    choose(&session, "#mzch-perk-kind", "damage");
    session.wait_for("#mzch-perk-name");
    let target = session.execute("return document.querySelector('#mzch-perk-target').value;", json!([]));
    assert_eq!(target, json!(guard), "a harmful perk aims at the opponent first");
    press(&session, "#mzch-declare");
    let error = text_of(&session, "#error-message");
    assert!(error.starts_with("The perk was not declared.") && error.lines().count() >= 2, "{error:?}");
    dismiss_error(&session);
    choose(&session, "#mzch-perk-template", "impaired_ability");
    type_into(&session, "#mzch-perk-name", "Twisted Ankle");
    shots_of(&session, "mezzo-challenge-perks", "#mzch-perks");
    press(&session, "#mzch-declare");
    session.wait_text("#mzch-declared", "Damage on Gate Guard");
    session.wait_text("#mzch-perks-left", "Mira: 0 major perks and 0 minor perks left");
    press(&session, "#mzch-settle");
    session.wait_text("#mzch-round", "Round 1 · major actions");
    assert!(text_of(&session, "#toast-message").contains("Mira's perks take effect: Damage on Gate Guard."));
    wait_contains(
        &session,
        &format!("#mzch-flaws-{guard}"),
        "Twisted Ankle (Impaired Ability · Wound · Transient Flaw)",
    );
    wait_contains(&session, "#mzch-action-0", "Settled.");

    // The Guard's major action: 1 against 3, lower: 1 adversity.
    major_action(&session, &guard, 1, 3);
    session.wait_text(&format!("#mzch-adversity-{guard}"), "1");
    assert!(text_of(&session, "#mzch-action-1").contains("Gate Guard: 1 against 3 — lower: no perk, 1 adversity."));
    session.wait_text("#mzch-round", "Round 1 · major actions");
    session.wait_text("#mzch-next", "Everyone still in has acted: end the round.");
    session.wait_text(&format!("#mzch-status-{guard}"), "In · acted this round");
    assert_eq!(adversity(&db(&db_path), &guard), 1, "the adversity is saved");
    shots_of(&session, "mezzo-challenge-round", "#mzch-status");

    // The round ends; Undo takes the end back.
    press(&session, "#mzch-end-round");
    session.wait_text("#mzch-round", "Round 2 · major actions");
    session.wait_text(&format!("#mzch-status-{mira}"), "In · not acted yet");
    assert!(text_of(&session, "#toast-message").contains("Round 1 ends."));
    session.click("#toast-undo");
    session.wait_text("#mzch-round", "Round 1 · major actions");
    session.wait_text(&format!("#mzch-status-{mira}"), "In · acted this round");
    session.wait_text("#mzch-next", "Everyone still in has acted: end the round.");
    session.wait_text(&format!("#mzch-adversity-{guard}"), "1");
    dismiss_toast(&session);

    // The Guard already took its major action: surrendering now is refused, with the reason.
    surrender(&session, &guard);
    let error = text_of(&session, "#error-message");
    assert!(error.contains("it already took one this round"), "{error:?}");
    dismiss_error(&session);

    // The Guard's sheet shows the wound the Damage gave.
    press(&session, "#mezzo-tab-elements");
    open_element_sheet(&session, &guard, "Gate Guard");
    wait_contains(&session, "#mz-trait-list", "Twisted Ankle");
    session.wait_text("#mz-adversity-value", "1");
    // A Final Counter is made on the challenge, against an action's perks: the sheet says so
    // and takes the table there (it has no sacrifice button that would remove no perk).
    wait_contains(&session, "#mz-final-counter-note", "make it on the challenge");
    assert!(session.find("#mz-final-counter").is_err(), "no Final Counter button on the sheet");
    press(&session, "#mz-to-final-counter");
    session.wait_text("#mzch-round", "Round 1 · major actions");
    drop(session);

    // After a restart, in dark mode: the challenge is where it was.
    let session = open_dark(&db_path);
    reopen_challenge_tab(&session, "Gate Night", "Round 1 · major actions");
    wait_contains(&session, &format!("#mzch-flaws-{guard}"), "Twisted Ankle");
    shots_of(&session, "mezzo-challenge-dark", "#mzch-status");

    // Round 2: the Guard surrenders. Its wound's boost goes to Mira, the only opponent; with
    // no opponent left she leaves in victory and spends the point on victory narration.
    press(&session, "#mzch-end-round");
    session.wait_text("#mzch-round", "Round 2 · major actions");
    surrender(&session, &guard);
    session.wait_text("#mzch-round", "Round 2 · challengers leaving");
    session.wait_text(&format!("#mzch-status-{guard}"), "Left in defeat (surrendered)");
    session.wait_text(&format!("#mzch-status-{mira}"), "Leaving in victory (no opponent left)");
    session.wait_text(&format!("#mzch-momentum-{mira}"), "1");
    session.wait_for(&format!("#mzch-spend-{mira}-form"));
    shots_of(&session, "mezzo-challenge-departure", "#mzch-departure");
    choose(&session, &format!("#mzch-spend-{mira}-kind"), "victory_narration");
    type_into(&session, &format!("#mzch-spend-{mira}-count"), "1");
    press(&session, &format!("#mzch-spend-{mira}-submit"));
    session.wait_text("#mzch-round", "Over after round 2.");
    assert!(text_of(&session, "#toast-message").contains("Mira spends 1 momentum on victory narration (1 vote)."));
    let ending = text_of(&session, "#mzch-ending");
    assert!(ending.contains("Mira — victory (no opponent left)"), "{ending:?}");
    assert!(ending.contains("Gate Guard — defeat (surrendered)"), "{ending:?}");
    session.wait_for("#mzch-next-challenge");

    // Rest & Recuperation once it is over: the wound treated (it turns One-Shot), then a breather.
    choose(&session, "#mzch-rr-element", &guard);
    wait_contains(&session, "#mzch-rr-list", "Twisted Ankle (Impaired Ability · Wound · Transient Flaw)");
    shots_of(&session, "mezzo-challenge-over", "#mzch-status");
    press(&session, "#mzch-rr-list [id^='mzch-treat-']");
    wait_contains(&session, "#toast-message", "Gate Guard treats the wound “Twisted Ankle”: now One-Shot.");
    wait_contains(&session, "#mzch-rr-list", "Twisted Ankle (Impaired Ability · Transient Flaw · One-Shot)");
    press(&session, "#mzch-rr-list [id^='mzch-breather-']");
    wait_contains(&session, "#toast-message", "Gate Guard takes a breather and shakes off “Twisted Ankle”.");
    session.wait_text("#mzch-rr-list", "No flaws.");
}

/// Harbour: Mira (with a stake, supporting "Reach the cove") and Rook against the Ogre, made
/// through the services; Mira's major action has already pushed the cove twice (2 trumps).
/// Returns the game and the ids of Mira, Rook, the Ogre and the cove.
fn seeded_harbour(db: &std::path::Path) -> [String; 4] {
    let [mira, rook, ogre, cove, _] = seeded(db, true);
    [mira, rook, ogre, cove]
}

/// The Harbour challenge (with Mira's two Pushes, or without them and with 2 momentum in
/// Mira's stake's pool); the ids of Mira, Rook, the Ogre, the cove and the game.
fn seeded(db: &std::path::Path, pushes: bool) -> [String; 5] {
    use sheetkeeper::rules::mezzo::challenge::{ChallengerSetup, GoalSetup, SideSetup};
    use sheetkeeper::rules::mezzo::element::ElementKind;
    use sheetkeeper::services::{self, MezzoChallengeDraft};
    let mut store = sheetkeeper::Store::open(db).expect("a new database");
    let game = services::create_game(&mut store, "Harbour", "mezzo").unwrap().game.id;
    let mira = services::create_character(&mut store, game, "Mira").unwrap().id;
    let rook = services::create_character(&mut store, game, "Rook").unwrap().id;
    let view = services::mezzo_add_player(&mut store, game, "Ada").unwrap().view;
    let ada = view.players[0].player.id;
    let view = services::mezzo_add_player(&mut store, game, "Bo").unwrap().view;
    let bo = view.players.iter().find(|p| p.player.name == "Bo").unwrap().player.id;
    services::mezzo_start_arc(&mut store, game).unwrap();
    services::mezzo_add_element(&mut store, game, ElementKind::Faction, "The Ogre").unwrap();
    let view = services::mezzo_add_element(&mut store, game, ElementKind::Goal, "Reach the cove").unwrap().view;
    let (ogre, cove) = (view.elements[0].element.id, view.elements[1].element.id);
    let draft = MezzoChallengeDraft {
        description: "Run from the ogre".into(),
        sides: vec![SideSetup { name: "Heroes".into() }, SideSetup { name: "The ogre".into() }],
        challengers: vec![
            ChallengerSetup { element: mira, side: 0, stake: Some("Reach the cove".into()) },
            ChallengerSetup { element: rook, side: 0, stake: None },
            ChallengerSetup { element: ogre, side: 1, stake: None },
        ],
        goals: vec![GoalSetup { element: cove, supporters: vec![mira] }],
    };
    services::mezzo_challenge_start(&mut store, game, &draft).unwrap();
    if !pushes {
        // Two hooks the table triggered raise Mira's stake: Bo's 2 influence in them become
        // 2 momentum in the stake's pool.
        use sheetkeeper::rules::mezzo::plot::{InChallenge, Resource, Take, User};
        let mut hooks = Vec::new();
        for text in ["Who hired the ogre?", "Is the cove safe?"] {
            let draft = services::HookDraft { text: text.into(), elements: Vec::new(), pay_with: Resource::Influence };
            let plot = services::mezzo_create_hook(&mut store, game, &User { player: ada, element: None }, &draft)
                .unwrap()
                .plot;
            let hook = plot.hooks.last().unwrap().hook.id;
            services::mezzo_invest(&mut store, game, hook, &User { player: bo, element: None }, Resource::Influence, 1)
                .unwrap();
            hooks.push(hook);
        }
        let ch = services::mezzo_challenge(&store, game).unwrap().unwrap();
        let within = InChallenge { id: ch.id, challengers: vec![mira, rook, ogre] };
        let take: Vec<Take> =
            hooks.iter().map(|&hook| Take { hook, resource: Resource::Influence, points: 1 }).collect();
        services::mezzo_raise_stakes(&mut store, game, &hooks, &within, mira, &take).unwrap();
        return [mira, rook, ogre, cove, game].map(|id| id.to_string());
    }
    let rolls = [action_score(mira, 8), action_score(ogre, 3)];
    play_moves(
        &mut store,
        game,
        &[
            json!({ "move": "major_actions", "rolls": rolls, "majors": [mira] }),
            json!({ "move": "declare", "action": 0, "perk": { "kind": "push", "goal": cove } }),
            json!({ "move": "declare", "action": 0, "perk": { "kind": "push", "goal": cove } }),
            json!({ "move": "settle", "action": 0 }),
        ],
    );
    [mira, rook, ogre, cove, game].map(|id| id.to_string())
}

/// RULES.md §3.4 (2026-11-25), as a table plays it: the cove's Victorious Withdrawal spends a
/// trump per supporter (Mira gets one boost, from the trump left, not two); Mira, leaving in
/// victory, claims her stake with that point: a Push on the cove, chosen like a perk. When the
/// challenge ends the claimed trump stays, and the next challenge starts with it.
#[test]
fn a_withdrawal_spends_trumps_and_claimed_stakes_last_into_the_next_challenge() {
    let (_window, _scratch, db_path) = begin("mezzo-payoffs");
    let [mira, rook, ogre, cove] = seeded_harbour(&db_path);
    let session = open(&db_path);
    challenge_tab(&session, "Harbour", "Round 1 · major actions");
    wait_contains(&session, &format!("#mzch-goal-{cove}"), "2 trumps");

    // The round ends with the cove's Victorious Withdrawal: its one supporter still in leaves,
    // one trump is spent, the other triggers one boost for her.
    let label = session.execute(
        &format!(
            "return document.querySelector('#mzch-trump-{cove} option[value=victorious_withdrawal]').textContent;"
        ),
        json!([]),
    );
    assert!(label.as_str().unwrap_or_default().contains("spends 1 trump"), "{label}");
    choose(&session, &format!("#mzch-trump-{cove}"), "victorious_withdrawal");
    press(&session, "#mzch-end-round");
    session.wait_text(&format!("#mzch-status-{mira}"), "Leaving in victory (Victorious Withdrawal)");
    session.wait_text(&format!("#mzch-momentum-{mira}"), "1");
    wait_contains(&session, &format!("#mzch-goal-{cove}"), "1 trump ·");

    // Claiming stakes: the perk and its target, as a major action's perks are chosen.
    let form = format!("#mzch-spend-{mira}");
    choose(&session, &format!("{form}-kind"), "claiming_stakes");
    wait_contains(&session, &format!("{form}-stake"), "Stake: Reach the cove.");
    choose(&session, &format!("{form}-claim-perk-kind"), "push");
    session.wait_for(&format!("{form}-claim-perk-goal"));
    shots_of(&session, "mezzo-claim-stakes", &format!("{form}-form"));
    crate::assert_selects_fit_at_both_widths(&session, "claiming stakes");
    press(&session, &format!("{form}-submit"));
    wait_contains(&session, "#toast-message", "Mira spends 1 momentum on claiming stakes: Push on Reach the cove.");
    session.wait_text("#mzch-round", "Round 2 · major actions");
    wait_contains(&session, &format!("#mzch-goal-{cove}"), "2 trumps");

    // The Ogre surrenders: Rook wins, the challenge ends; the claimed trump stays.
    surrender(&session, &ogre);
    session.wait_text("#mzch-round", "Over after round 2.");
    wait_contains(&session, &format!("#mzch-goal-{cove}"), "1 trump ·");

    // The next challenge: Rook against the Ogre for the cove, which still holds the trump.
    press(&session, "#mzch-next-challenge");
    type_into(&session, "#mzch-description", "Back to the cove");
    choose(&session, &format!("#mzch-side-of-{rook}"), "0");
    choose(&session, &format!("#mzch-side-of-{ogre}"), "1");
    press(&session, &format!("#mzch-supports-{cove}-{rook}"));
    press(&session, "#mzch-start-submit");
    session.wait_text("#mzch-round", "Round 1 · major actions");
    wait_contains(&session, &format!("#mzch-goal-{cove}"), "1 trump ·");
    shots_of(&session, "mezzo-claimed-trump-next", "#mzch-sides");
}

/// RULES.md §3.4 (2026-11-25): Raise Stakes momentum is the stake's own pool. Mira leaves in
/// victory with none of her own; she pays from her stake's pool, for a claimed Bind and a
/// vote, and Rook (no stake) has nothing to spend.
#[test]
fn a_stake_pool_is_spent_by_its_owner_leaving_in_victory() {
    let (_window, _scratch, db_path) = begin("mezzo-stake-pool");
    let [mira, rook, ogre, _cove, _game] = seeded(&db_path, false);
    let session = open(&db_path);
    challenge_tab(&session, "Harbour", "Round 1 · major actions");
    wait_contains(&session, &format!("#mzch-stake-{mira}"), "its pool: 2 momentum");
    session.wait_text(&format!("#mzch-momentum-{mira}"), "0");

    surrender(&session, &ogre);
    session.wait_text(&format!("#mzch-status-{mira}"), "Leaving in victory (no opponent left)");
    let form = format!("#mzch-spend-{mira}");
    wait_contains(&session, &format!("{form}-form h4"), "2 in its stake's pool");
    assert!(session.find(&format!("#mzch-spend-{rook}-form")).is_err(), "Rook holds no stake and no momentum");
    let from = session.execute(&format!("return document.querySelector('{form}-from').value;"), json!([]));
    assert_eq!(from, json!("stake"), "with none of her own, the pool pays");
    let boon =
        session.execute(&format!("return !!document.querySelector('{form}-kind option[value=boon]');"), json!([]));
    assert_eq!(boon, json!(false), "a boon does not support the stake");
    choose(&session, &format!("{form}-kind"), "claiming_stakes");
    choose(&session, &format!("{form}-claim-perk-kind"), "bind");
    choose(&session, &format!("{form}-claim-perk-target"), &ogre);
    type_into(&session, &format!("{form}-claim-perk-name"), "Chained");
    shots_of(&session, "mezzo-stake-pool", &format!("{form}-form"));
    crate::assert_selects_fit_at_both_widths(&session, "claiming stakes from the pool");
    press(&session, &format!("{form}-submit"));
    wait_contains(
        &session,
        "#toast-message",
        "Mira spends 1 momentum of its stake's pool on claiming stakes: Bind on The Ogre.",
    );
    wait_contains(&session, &format!("{form}-form h4"), "1 in its stake's pool");
    wait_contains(&session, &format!("#mzch-flaws-{ogre}"), "Chained");
    choose(&session, &format!("{form}-kind"), "victory_narration");
    type_into(&session, &format!("{form}-count"), "1");
    press(&session, &format!("{form}-submit"));
    session.wait_text("#mzch-round", "Over after round 1.");
    assert!(text_of(&session, "#toast-message").contains("of its stake's pool on victory narration (1 vote)"));
    session.wait_text(&format!("#mzch-momentum-{mira}"), "0");
}

/// Audit #9: No Escape's pay-off has its button where it applies. Mira named the Ogre for
/// removal; once she leaves in victory the challenge offers to ignore its Plot Protection for
/// 2 of her momentum, and the core (not the screen) checks that she won.
#[test]
fn no_escape_is_paid_off_from_the_challenge_once_its_user_leaves_in_victory() {
    use sheetkeeper::rules::mezzo::element::MomentumSource;
    use sheetkeeper::rules::mezzo::plot::{InChallenge, Resource, User};
    use sheetkeeper::services::{self, HookDraft};
    let (_window, _scratch, db_path) = begin("mezzo-no-escape");
    let [mira, rook, ogre, _cove, game] = seeded(&db_path, false);
    {
        let id = |s: &str| uuid::Uuid::parse_str(s).unwrap();
        let (game, mira_id) = (id(&game), id(&mira));
        let mut store = sheetkeeper::Store::open(&db_path).unwrap();
        let ada = services::mezzo_table(&store, game).unwrap().players[0].player.id;
        let draft = HookDraft {
            text: "Where does the ogre sleep?".into(),
            elements: Vec::new(),
            pay_with: Resource::Influence,
        };
        services::mezzo_create_hook(&mut store, game, &User { player: ada, element: None }, &draft).unwrap();
        let hooks: Vec<uuid::Uuid> =
            services::mezzo_plot(&store, game).unwrap().hooks.iter().map(|h| h.hook.id).collect();
        let ch = services::mezzo_challenge(&store, game).unwrap().unwrap().id;
        let within = InChallenge { id: ch, challengers: vec![mira_id, id(&rook), id(&ogre)] };
        let user = User { player: ada, element: Some(mira_id) };
        services::mezzo_no_escape(&mut store, game, &hooks[..3], &within, &user, id(&ogre)).unwrap();
        services::mezzo_gain_momentum(&mut store, game, mira_id, 2, MomentumSource::Boost).unwrap();
    }
    let session = open(&db_path);
    challenge_tab(&session, "Harbour", "Round 1 · major actions");
    assert!(session.find("#mzch-no-escape").is_err(), "no pay-off while Mira is still in");

    surrender(&session, &ogre);
    session.wait_text(&format!("#mzch-status-{mira}"), "Leaving in victory (no opponent left)");
    session.wait_for(&format!("#mzch-ignore-{ogre}"));
    wait_contains(&session, "#mzch-no-escape", "Mira left in victory and named The Ogre for removal");
    shots_of(&session, "mezzo-no-escape", "#mzch-no-escape");
    press(&session, &format!("#mzch-ignore-{ogre}"));
    wait_contains(&session, "#toast-message", "The Ogre");
    session.wait_gone("#mzch-no-escape");
    session.wait_text(&format!("#mzch-momentum-{mira}"), "0");
}

/// Audit #14: the Ogre, wounded in round 1, already acted in round 2; Mira's Damage worsens
/// its wound (two Vicious Wound extras), and the Ogre may then surrender at once, free.
#[test]
fn a_worsened_wound_lets_its_target_surrender_at_once() {
    let (_window, _scratch, db_path) = begin("mezzo-worsen");
    let [mira, _rook, ogre, _cove, game] = seeded(&db_path, false);
    {
        let id = |s: &str| uuid::Uuid::parse_str(s).unwrap();
        let (game, m, o) = (id(&game), id(&mira), id(&ogre));
        let mut store = sheetkeeper::Store::open(&db_path).unwrap();
        let action = action_score;
        let failure = json!({ "kind": { "kind": "failure" }, "score": 3 });
        play_moves(
            &mut store,
            game,
            &[
                json!({ "move": "major_actions", "rolls": [action(m, 8), action(o, 3)], "majors": [m] }),
                json!({ "move": "declare", "action": 0, "perk": { "kind": "damage", "target": o,
                    "wound": { "kind": "new_flaw", "flaw": { "template": "vulnerability", "name": "Gashed" } } } }),
                json!({ "move": "settle", "action": 0 }),
                json!({ "move": "major_actions", "rolls": [action(o, 1), failure.clone()], "majors": [o] }),
                json!({ "move": "end_round" }),
                json!({ "move": "major_actions", "rolls": [action(o, 1), failure], "majors": [o] }),
            ],
        );
    }
    let session = open(&db_path);
    challenge_tab(&session, "Harbour", "Round 2 · major actions");
    session.wait_text(&format!("#mzch-status-{ogre}"), "In · acted this round");

    major_action(&session, &mira, 3, 2);
    session.wait_text("#mzch-round", "Round 2 · perks being resolved");
    choose(&session, "#mzch-perk-kind", "damage");
    session.wait_for("#mzch-perk-wound");
    let wound = session.execute(
        "return [...document.querySelectorAll('#mzch-perk-wound option')].find((o) => o.value !== 'new').value;",
        json!([]),
    );
    choose(&session, "#mzch-perk-wound", wound.as_str().unwrap());
    session.wait_for("#mzch-extra-1");
    choose(&session, "#mzch-extra-0", "vicious_wound");
    choose(&session, "#mzch-extra-1", "vicious_wound");
    declare_and_settle(&session, "Damage on The Ogre", "Round 2 · major actions");
    wait_contains(&session, &format!("#mzch-challenger-{ogre}"), "may surrender at once");
    surrender(&session, &ogre);
    // Free: it acted this round, and surrendering is not refused.
    session.wait_text(&format!("#mzch-status-{ogre}"), "Leaving in defeat (surrendered)");
}

/// Harbour with no challenge: Mira, Rook and the Ogre; Ada and Bo at the table. Returns the
/// game and the ids of Mira, Rook and the Ogre.
fn harbour_without_a_challenge(db: &std::path::Path) -> [String; 4] {
    use sheetkeeper::rules::mezzo::element::ElementKind;
    use sheetkeeper::services;
    let mut store = sheetkeeper::Store::open(db).expect("a new database");
    let game = services::create_game(&mut store, "Harbour", "mezzo").unwrap().game.id;
    let mira = services::create_character(&mut store, game, "Mira").unwrap().id;
    let rook = services::create_character(&mut store, game, "Rook").unwrap().id;
    services::mezzo_add_player(&mut store, game, "Ada").unwrap();
    services::mezzo_start_arc(&mut store, game).unwrap();
    let view = services::mezzo_add_element(&mut store, game, ElementKind::Faction, "The Ogre").unwrap().view;
    let ogre = view.elements[0].element.id;
    [game, mira, rook, ogre].map(|id| id.to_string())
}

/// Audit #16: Mira's check to slip past is rolled (her d6 shows 2, the failure's d4 4) and
/// resolved on the Action check tab: she lost. Rook backs her: "Start a challenge from this
/// check" opens the start form with Mira on side 1; the person puts Rook beside her and the
/// Ogre against them, gives Mira a stake, and the challenge starts with round 1's major action
/// done (Mira's 2 against 4: a failure, 1 adversity). Light at 1280 and 360 px; dark after a
/// restart.
#[test]
fn a_lost_action_check_starts_a_challenge_with_its_scores_as_round_one() {
    use sheetkeeper::rules::mezzo::action_check::{BaseChance, SideKind, SideSetup};
    use sheetkeeper::services::{self, CheckDraft, CheckRequest, DiceInput};
    let (_window, _scratch, db_path) = begin("mezzo-from-check");
    let [game, mira, rook, ogre] = harbour_without_a_challenge(&db_path);
    {
        let id = |s: &str| uuid::Uuid::parse_str(s).unwrap();
        let mut store = sheetkeeper::Store::open(&db_path).unwrap();
        let side = |kind, chance| SideSetup { kind, description: String::new(), chance, aptitude: 0 };
        let request = CheckRequest {
            setup: CheckDraft {
                description: "Slip past the ogre".into(),
                sides: vec![
                    side(SideKind::Action { element: id(&mira) }, BaseChance::Common),
                    side(SideKind::Failure, BaseChance::Occasional),
                ],
                involved: Vec::new(),
            },
            casts: Vec::new(),
            perks: Vec::new(),
        };
        let dice = DiceInput::Entered { values: vec![2, 4] };
        services::mezzo_check_roll(&mut store, id(&game), &request, &dice, &mut rand::rng()).unwrap();
    }
    let session = open(&db_path);
    open_mezzo(&session, "Harbour");
    press(&session, "#mezzo-tab-check");
    press(&session, "#mzc-resolve");
    wait_contains(&session, "#mzc-outcome", "The action fails");
    press(&session, "#mzc-challenge-from");

    // The challenge tab's start form, set up from the check.
    wait_contains(&session, "#mzch-from-check", "Mira lost (Mira 2, The failure 4)");
    session.wait_text("#mzch-start-heading", "Start a challenge from the action check");
    let value = |sel: &str| session.execute(&format!("return document.querySelector('{sel}').value;"), json!([]));
    assert_eq!(value(&format!("#mzch-side-of-{mira}")), json!("0"), "the loser is on side 1");
    assert_eq!(value("#mzch-description"), json!("Slip past the ogre"));
    choose(&session, &format!("#mzch-side-of-{rook}"), "0");
    choose(&session, &format!("#mzch-side-of-{ogre}"), "1");
    type_into(&session, &format!("#mzch-stake-of-{mira}"), "the cove");
    shots_of(&session, "mezzo-challenge-from-check", "#mzch-start");
    press(&session, "#mzch-start-submit");
    session.wait_text("#mzch-round", "Round 1 · major actions");
    assert!(
        text_of(&session, "#toast-message").contains("begins from the action check “Slip past the ogre”"),
        "the toast says where the challenge came from"
    );
    wait_contains(&session, "#mzch-action-0", "Mira: 2 against 4");
    session.wait_text(&format!("#mzch-status-{mira}"), "In · acted this round");
    session.wait_text(&format!("#mzch-status-{rook}"), "In · not acted yet");
    let conn = db(&db_path);
    assert_eq!(adversity(&conn, &mira), 1, "Mira's failed major action gains adversity");
    drop(session);

    let session = open_dark(&db_path);
    reopen_challenge_tab(&session, "Harbour", "Round 1 · major actions");
    shots_of(&session, "mezzo-challenge-from-check-dark", "#mzch-actions");
}

/// Audit #10, Tempting Target: the Ogre owes 1 adversity debt; Mira's major action binds it
/// (declared on the challenge screen), and the declared perk offers Tempting Target: Mira takes
/// 1 adversity and the Ogre pays off its debt. Light, then dark after a restart.
#[test]
fn tempting_target_is_offered_on_a_harmful_perk_aimed_at_a_debtor() {
    use sheetkeeper::rules::mezzo::element::AdversitySpend;
    use sheetkeeper::services;
    let (_window, _scratch, db_path) = begin("mezzo-tempting");
    let [mira, _rook, ogre, _cove, game] = seeded(&db_path, false);
    {
        let id = |s: &str| uuid::Uuid::parse_str(s).unwrap();
        let (game, m, o) = (id(&game), id(&mira), id(&ogre));
        let mut store = sheetkeeper::Store::open(&db_path).unwrap();
        services::mezzo_gain_adversity(&mut store, game, o, 1).unwrap();
        services::mezzo_spend_adversity(&mut store, game, o, None, AdversitySpend::FortunesFavor, true).unwrap();
        let rolls = [action_score(m, 8), action_score(o, 3)];
        play_moves(
            &mut store,
            game,
            &[
                json!({ "move": "major_actions", "rolls": rolls, "majors": [m] }),
                json!({ "move": "declare", "action": 0, "perk": { "kind": "bind", "target": o,
                    "restraint": { "template": "restraint", "name": "Netted" } } }),
            ],
        );
    }
    let session = open(&db_path);
    challenge_tab(&session, "Harbour", "Round 1 · perks being resolved");
    session.wait_text("#mzch-tempting-0", "Tempting Target: Mira takes 1 adversity, The Ogre pays off 1 debt");
    shots_of(&session, "mezzo-challenge-tempting", "#mzch-perks");
    drop(session);

    let session = open_dark(&db_path);
    reopen_mezzo(&session, "Harbour");
    press(&session, "#mezzo-tab-challenge");
    session.wait_for("#mzch-tempting-0");
    shots_of(&session, "mezzo-challenge-tempting-dark", "#mzch-perks");
    let conn = db(&db_path);
    let before = adversity(&conn, &mira);
    press(&session, "#mzch-tempting-0");
    wait_contains(&session, "#toast-message", "Tempting Target: Mira takes 1 adversity");
    session.wait_gone("#mzch-tempting-0");
    assert_eq!(adversity(&conn, &mira), before + 1);
    let debt: i64 = conn
        .query_row("SELECT adversity_debt FROM mz_elements WHERE id = ?1", [&ogre], |r| r.get(0))
        .expect("read mz_elements");
    assert_eq!(debt, 0, "the Ogre's debt is paid off");
}

/// Raise Stakes (audit follow-up): the picker offers only the ticked challengers who hold a
/// stake — Mira's “Reach the cove”, not Rook or the Ogre; with Mira unticked it says none
/// holds one and the button is off.
#[test]
fn the_raise_stakes_picker_lists_only_challengers_holding_a_stake() {
    use sheetkeeper::rules::mezzo::plot::{Resource, User};
    use sheetkeeper::services;
    let (_window, _scratch, db_path) = begin("mezzo-stake-picker");
    let [mira, rook, ogre, _cove, game] = seeded(&db_path, true);
    {
        let mut store = sheetkeeper::Store::open(&db_path).unwrap();
        let game = uuid::Uuid::parse_str(&game).unwrap();
        let ada = services::mezzo_table(&store, game).unwrap().players[0].player.id;
        for text in ["Who hired the ogre?", "Is the cove safe?"] {
            let draft = services::HookDraft { text: text.into(), elements: Vec::new(), pay_with: Resource::Influence };
            services::mezzo_create_hook(&mut store, game, &User { player: ada, element: None }, &draft).unwrap();
        }
    }
    let session = open(&db_path);
    open_mezzo(&session, "Harbour");
    press(&session, "#mezzo-tab-plot");
    session.wait_for(&format!("#mzp-challenger-{rook}"));
    let hooks = crate::mezzo::hook_ids(&session, 2);
    for hook in &hooks {
        press(&session, &format!("#mzp-trigger-{hook}"));
    }
    session.wait_gone("#mzp-stakes-why");
    let options = session.execute(
        "return [...document.querySelectorAll('#mzp-stakes-challenger option')].map((o) => [o.value, o.textContent]);",
        json!([]),
    );
    assert_eq!(options, json!([[mira, "Mira: “Reach the cove”"]]), "only Mira holds a stake");
    assert!(!text_of(&session, "#mzp-stakes-form").contains("Rook"), "Rook holds none");
    assert!(!text_of(&session, "#mzp-stakes-form").contains(&ogre), "nor the Ogre");
    shots_of(&session, "mezzo-plot-stake-picker", "#mzp-stakes-form");
    press(&session, &format!("#mzp-challenger-{mira}"));
    wait_contains(&session, "#mzp-stakes-none", "None of the challengers ticked holds a stake");
    let off = session.execute("return document.querySelector('#mzp-raise-stakes').disabled;", json!([]));
    assert_eq!(off, json!(true), "nothing to raise: the button is off");
}
