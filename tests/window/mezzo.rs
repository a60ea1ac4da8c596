//! The Mezzo screens, driven like a person: a Mezzo game from the home screen, the first arc,
//! two players and a character made on the Mezzo table, an Actor's claim, a sheet edited
//! (a trait added, renamed and the rename taken back with Undo; adversity spent into debt),
//! then three conflicts — three options left to chance with every die typed in by hand (the
//! live odds and step dice checked as votes change, the winner on screen and the influence
//! spent read back from `mz_players`), three options by Take Median (its steps and the
//! winner), and a two-way tie settled by a compromise, undone, and broken with typed d12s
//! over two rounds; after a restart in dark mode, a conflict in the D6 variant whose typed
//! first roll bursts. Apart, an Actor gives up her claim and the character keeps its Plot
//! Protection as an edge (audit DEV-7). Screenshots at 1280 and 360 px wide, light and dark.

use std::path::Path;

use serde_json::json;

use crate::webdriver::{screenshot_dir, Session};
use crate::{begin_with, find_named, new_game, open, open_dark, open_game, shot};

pub(crate) use crate::fixtures::db;

/// Each player's influence as saved, by name.
pub(crate) fn influence(conn: &rusqlite::Connection, game: &str) -> Vec<(String, i64)> {
    conn.prepare("SELECT name, influence FROM mz_players WHERE game_id = ?1 ORDER BY position")
        .and_then(|mut st| st.query_map([game], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>())
        .expect("read mz_players")
}

/// Closes the toast when it shows, so it covers nothing the next click needs (in one step in
/// the page: the toast also goes by itself).
pub(crate) fn dismiss_toast(session: &Session) {
    let closed = session.execute(
        "const toast = document.getElementById('toast'); \
         if (toast.hidden) return false; \
         document.getElementById('toast-close').click(); return true;",
        json!([]),
    );
    if closed == json!(true) {
        session.wait_gone("#toast");
    }
}

/// Scrolls `selector` to the middle of the window, as a person scrolls before tapping: the
/// WebDriver's own scroll may leave it under the screen's sticky bar.
pub(crate) fn reveal(session: &Session, selector: &str) {
    session.to_middle(selector);
}

/// Clicks `selector` with the toast out of the way.
/// The plot hooks' ids as the Plot tab lists them, once it lists `n`, read in one script:
/// the tab may be drawn again at any time after a move, which would leave elements found one
/// call earlier stale (and their attributes unreadable).
pub(crate) fn hook_ids(session: &Session, n: usize) -> Vec<String> {
    session.wait_until(&format!("{n} plot hooks listed"), || {
        let ids = session
            .execute("return [...document.querySelectorAll('.mzp-hook')].map((h) => h.dataset.hookId);", json!([]));
        let ids: Vec<String> = serde_json::from_value(ids).unwrap_or_default();
        (ids.len() == n).then_some(ids)
    })
}

pub(crate) fn press(session: &Session, selector: &str) {
    session.wait_settled();
    dismiss_toast(session);
    reveal(session, selector);
    session.click(selector);
}

/// Types `text` into `selector` after clicking and emptying it, as a person would.
pub(crate) fn type_into(session: &Session, selector: &str, text: &str) {
    session.wait_settled();
    dismiss_toast(session);
    reveal(session, selector);
    let field = session.wait_for(selector);
    field.click();
    field.clear();
    field.send_keys(text);
}

/// Picks the option with `value` in the select `selector`.
pub(crate) fn choose(session: &Session, selector: &str, value: &str) {
    session.wait_settled();
    dismiss_toast(session);
    reveal(session, selector);
    session.click(&format!("{selector} option[value='{value}']"));
    session.wait_until(&format!("{selector} to hold {value:?}"), || {
        let now = session.execute("return document.querySelector(arguments[0]).value;", json!([selector]));
        (now == json!(value)).then_some(())
    });
}

/// The text of `selector` once it shows some (the odds are redrawn as answers come in, so an
/// element found a moment ago may be gone: it is looked up again).
pub(crate) fn text_of(session: &Session, selector: &str) -> String {
    session.wait_until(&format!("`{selector}` to show text"), || {
        session.find(selector).ok().map(|e| e.text()).filter(|t| !t.is_empty())
    })
}

/// Waits until the text of `selector` contains `part`.
pub(crate) fn wait_contains(session: &Session, selector: &str, part: &str) -> String {
    session.wait_until(&format!("`{selector}` to contain {part:?}"), || {
        session.find(selector).ok().map(|e| e.text()).filter(|t| t.contains(part))
    })
}

pub(crate) fn scroll_to(session: &Session, selector: &str) {
    session.execute("document.querySelector(arguments[0]).scrollIntoView({block: 'start'});", json!([selector]));
}

/// Screenshots at 1280 and 360 px wide, `selector` at the top; nothing may stick out
/// sideways at 360 px, every visible control of the open Mezzo or Scattershot screen is at least 44 px high, every box has a label and no id
/// is used twice.
/// Whether the control `selector` is disabled (itself or by its fieldset).
pub(crate) fn disabled(session: &Session, selector: &str) -> serde_json::Value {
    session.execute("return document.querySelector(arguments[0]).matches(':disabled');", json!([selector]))
}

pub(crate) fn shots_of(session: &Session, name: &str, selector: &str) {
    dismiss_toast(session);
    crate::shots_at_both_widths_with(session, name, || scroll_to(session, selector), || phone_checks(session, name));
}

/// What `shots_of` checks at 360 px: nothing sticks out sideways, every visible control of the
/// open screen is at least 44 px high, every box has a label and no id is used twice.
fn phone_checks(session: &Session, name: &str) {
    // On failure, name the boxes whose content is wider than they are.
    crate::assert_nothing_sticks_out(
        session,
        name,
        "return [...document.querySelectorAll('.mz-screen:not([hidden]), .mz-screen:not([hidden]) *')] \
           .filter((e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 0.5) \
           .slice(-3).map((e) => `${e.tagName}#${e.id}.${e.className} ${e.scrollWidth}>${e.clientWidth}`);",
    );
    let small = session.execute(
        "return [...document.querySelectorAll('.mz-screen:not([hidden]) button, .mz-screen:not([hidden]) input:not([type=checkbox]):not([type=radio]), .mz-screen:not([hidden]) select, .mz-screen:not([hidden]) summary')] \
           .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().height < 43.5) \
           .map((b) => b.id || b.className || b.textContent);",
        json!([]),
    );
    assert_eq!(small, json!([]), "{name}: every control is at least 44 px high");
    let unlabelled = session.execute(
        "return [...document.querySelectorAll('.mz-screen:not([hidden]) input, .mz-screen:not([hidden]) select, .mz-screen:not([hidden]) textarea')] \
           .filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).map((c) => c.id || c.className);",
        json!([]),
    );
    assert_eq!(unlabelled, json!([]), "{name}: every box has a label");
    let twice = session.execute(
        "const ids = [...document.querySelectorAll('[id]')].map((e) => e.id); \
         return ids.filter((id, i) => ids.indexOf(id) !== i);",
        json!([]),
    );
    assert_eq!(twice, json!([]), "{name}: no id is used twice");
}

/// Types the check's two dice in (the actor's, then the failure's) and rolls.
pub(crate) fn roll_typed(session: &Session, actor: &str, failure: &str) {
    press(session, "#mzc-hand");
    session.wait_for("#mzc-die-2");
    type_into(session, "#mzc-die-1", actor);
    type_into(session, "#mzc-die-2", failure);
    press(session, "#mzc-roll");
    session.wait_for("#mzc-rolled");
}

/// Resolves the rolled check and waits for its result.
pub(crate) fn resolve_check(session: &Session) {
    press(session, "#mzc-resolve");
    session.wait_for("#mzc-result");
}

/// Adds the edge `name` as the first trait of the sheet shown (the add-trait form's other
/// choices as they are); returns its id.
pub(crate) fn first_edge(session: &Session, name: &str) -> String {
    choose(session, "#mz-trait-kind", "edge");
    type_into(session, "#mz-trait-name", name);
    press(session, "#mz-trait-submit");
    session.wait_for("#mz-trait-list .mz-trait").attribute("data-trait-id").expect("a trait id")
}

/// Fills the Challenge tab's start form: `description`, the two sides' names, the element
/// `hero` on the first side with its stake, and `foe` on the second.
pub(crate) fn challenge_form(session: &Session, description: &str, sides: [&str; 2], hero: (&str, &str), foe: &str) {
    let (hero, stake) = hero;
    press(session, "#mezzo-tab-challenge");
    type_into(session, "#mzch-description", description);
    type_into(session, "#mzch-side-name-0", sides[0]);
    type_into(session, "#mzch-side-name-1", sides[1]);
    choose(session, &format!("#mzch-side-of-{hero}"), "0");
    choose(session, &format!("#mzch-side-of-{foe}"), "1");
    type_into(session, &format!("#mzch-stake-of-{hero}"), stake);
}

/// Whether the checkbox or radio button `selector` is ticked.
pub(crate) fn checked(session: &Session, selector: &str) -> serde_json::Value {
    session.execute("return document.querySelector(arguments[0]).checked;", json!([selector]))
}

/// Closes the error the app shows, as a person taps its button.
pub(crate) fn dismiss_error(session: &Session) {
    press(session, "#error-dismiss");
    session.wait_gone("#error");
}

/// Opens the game `name` from the home screen, then its Mezzo screen.
pub(crate) fn open_mezzo(session: &Session, name: &str) {
    open_game(session, name);
    press(session, "#game-mezzo");
    session.wait_for("#mezzo-screen");
}

/// After a restart: back home from the screen the app opened on, then `name`'s Mezzo screen.
pub(crate) fn reopen_mezzo(session: &Session, name: &str) {
    crate::back_home(session);
    open_mezzo(session, name);
}

/// Makes the character `name` on the story elements tab; returns its id.
pub(crate) fn new_character(session: &Session, name: &str) -> String {
    press(session, "#mezzo-tab-elements");
    type_into(session, "#mz-new-character", name);
    press(session, "#mz-new-character-submit");
    element_id(session, name)
}

/// Makes the story element `name` of `kind` on the elements tab shown; returns its id.
pub(crate) fn new_element(session: &Session, kind: &str, name: &str) -> String {
    choose(session, "#mz-new-element-kind", kind);
    type_into(session, "#mz-new-element-name", name);
    press(session, "#mz-new-element-submit");
    element_id(session, name)
}

/// Opens the sheet of `element` (named `name`) from the elements list shown.
pub(crate) fn open_element_sheet(session: &Session, element: &str, name: &str) {
    press(session, &format!(".mz-element[data-element-id='{element}'] .mz-open-sheet"));
    session.wait_text("#mz-sheet-heading", name);
}

/// The id of the player named `name` on the table tab.
pub(crate) fn player_id(session: &Session, name: &str) -> String {
    session.wait_until(&format!("the player {name:?} on the table"), || {
        find_named(session, ".mz-player", ".mz-name", name)?.attribute("data-player-id")
    })
}

/// The id of the story element named `name` on the elements tab.
pub(crate) fn element_id(session: &Session, name: &str) -> String {
    session.wait_until(&format!("the element {name:?} in the list"), || {
        find_named(session, ".mz-element", ".mz-name", name)?.attribute("data-element-id")
    })
}

pub(crate) fn add_player(session: &Session, name: &str) -> String {
    type_into(session, "#mz-new-player", name);
    press(session, "#mz-new-player-submit");
    let id = player_id(session, name);
    session.wait_text(&format!("#mz-influence-{id}"), "3");
    id
}

/// Sets up a conflict's question and options (adding options beyond the first two).
pub(crate) fn conflict_options(session: &Session, question: &str, options: &[&str]) {
    type_into(session, "#mz-question", question);
    for (i, option) in options.iter().enumerate() {
        if i >= 2 {
            press(session, "#mz-add-option");
        }
        type_into(session, &format!("#mz-option-{i}"), option);
    }
}

/// The game with its first arc, Ada and Bo, the character Mira (claimed by Ada, an Actor) and
/// the object Old Key; returns (game, Ada, Bo, Mira, Old Key).
fn table(session: &Session) -> (String, String, String, String, String) {
    let game = new_game(session, "Mezzo Night", "mezzo");
    assert!(text_of(session, "#mezzo-character-hint").contains("Mezzo table"), "the game says where sheets are");
    press(session, "#game-mezzo");
    session.wait_for("#mezzo-screen");
    session.wait_text("#mezzo-screen-heading", "Mezzo Night");
    assert_eq!(text_of(session, "#mz-arc-status"), "No arc has started yet.");
    press(session, "#mz-start-arc");
    session.wait_text("#mz-arc-status", "Arc 1 is being played.");

    let ada = add_player(session, "Ada");
    let bo = add_player(session, "Bo");

    // Influence spent with one tap of its stepper, the spend taken back with Undo.
    press(session, &format!("#mz-influence-step-{bo}-minus"));
    session.wait_text(&format!("#mz-influence-{bo}"), "2");
    assert!(text_of(session, "#toast-message").contains("Bo spends 1 influence"));
    session.click("#toast-undo");
    session.wait_text(&format!("#mz-influence-{bo}"), "3");

    // A character and an object, made on the story elements tab.
    let mira = new_character(session, "Mira");
    let key = new_element(session, "object", "Old Key");
    shots_of(session, "mezzo-elements", "#mz-characters");
    assert!(text_of(session, &format!(".mz-element[data-element-id='{key}']")).contains("Object"), "the kind is shown");

    // Ada takes the Actor role and claims Mira (2 edge slots, the first time).
    claim(session, &ada, &mira, "Mira");
    assert!(text_of(session, "#toast-message").contains("Ada claims Mira (2 edge slots)"));
    shots_of(session, "mezzo-table", "#mezzo-screen");
    (game, ada, bo, mira, key)
}

/// On the Table tab, `player` takes the Actor role and claims the character `id` (`name`).
pub(crate) fn claim(session: &Session, player: &str, id: &str, name: &str) {
    let row = format!(".mz-player[data-player-id='{player}']");
    press(session, "#mezzo-tab-table");
    press(session, &format!("{row} .mz-take-role"));
    session.wait_for(&format!("{row} .mz-actor-badge"));
    choose(session, &format!("#mz-claim-pick-{player}"), id);
    press(session, &format!("{row} .mz-claim-submit"));
    wait_contains(session, &format!("{row} .mz-claims"), &format!("Claims {name}"));
}

/// On the Seed deck tab, the table's six seed cards are written and the deck is built.
pub(crate) fn build_deck(session: &Session) {
    press(session, "#mezzo-tab-deck");
    type_into(
        session,
        "#mzd-cards",
        &["A storm", "An old debt", "A locked door", "A rival", "A map", "A lost letter"].join(crate::webdriver::ENTER),
    );
    press(session, "#mzd-build-submit");
}

/// Mira's sheet: a trait in an edge slot, renamed and the rename undone; the Old Key's
/// adversity spent into debt.
fn sheets(session: &Session, mira: &str, key: &str) {
    press(session, "#mezzo-tab-elements");
    open_element_sheet(session, mira, "Mira");
    assert!(
        text_of(session, "#mz-slots-status").contains("6 slots: 0 filled, 6 free"),
        "4 from her introduction, 2 from the claim"
    );
    assert!(text_of(session, "#mz-protection-status").starts_with("Protected"), "a claim protects");
    assert!(text_of(session, "#mz-protection").contains("From a player's claim"));

    // The add-trait form is open on an empty sheet.
    choose(session, "#mz-trait-kind", "edge");
    choose(session, "#mz-trait-template", "ability");
    type_into(session, "#mz-trait-name", "Quick Hands");
    assert_eq!(
        session.execute("return document.getElementById('mz-trait-via').value;", json!([])),
        json!("edge_slot"),
        "an edge goes into a free slot"
    );
    press(session, "#mz-add-trait .mz-props-more summary");
    type_into(session, "#mz-trait-prop-effects", "Picks any lock in the city.");
    press(session, "#mz-trait-submit");
    let trait_item = session.wait_for("#mz-trait-list .mz-trait");
    let trait_id = trait_item.attribute("data-trait-id").expect("a trait id");
    let row = format!(".mz-trait[data-trait-id='{trait_id}']");
    session.wait_text(&format!("{row} .mz-trait-name"), "Quick Hands");
    let facts = text_of(session, &format!("{row} .mz-trait-facts"));
    assert!(facts.contains("Ability") && facts.contains("in an edge slot"), "{facts:?}");
    assert!(text_of(session, &row).contains("Picks any lock in the city."), "the properties are shown");
    session.wait_until("the slot to be filled", || {
        session.find("#mz-slots-status").ok().map(|e| e.text()).filter(|t| t.contains("1 filled, 5 free"))
    });

    // Rename it, then the toast's Undo puts the old name back.
    press(session, &format!("{row} .mz-edit-trait summary"));
    type_into(session, &format!("#mz-edit-{trait_id}-name"), "Very Quick Hands");
    press(session, &format!("#mz-edit-{trait_id}-form .mz-edit-submit"));
    session.wait_text(&format!("{row} .mz-trait-name"), "Very Quick Hands");
    assert!(text_of(session, "#toast-message").contains("Mira changes its trait “Very Quick Hands”"));
    session.click("#toast-undo");
    session.wait_text(&format!("{row} .mz-trait-name"), "Quick Hands");
    session.wait_text("#mz-sheet-heading", "Mira");
    shots_of(session, "mezzo-sheet", "#mz-sheet");
    shots_of(session, "mezzo-traits", "#mz-traits");

    // The Old Key: 1 adversity, Fortune's Favor (2) with the shortfall as debt.
    press(session, "#mz-sheet-back");
    open_element_sheet(session, key, "Old Key");
    press(session, "#mz-adversity-value-plus");
    session.wait_text("#mz-adversity-value", "1");
    press(session, "#mz-adversity-debt");
    press(session, "#mz-spend-fortunes_favor");
    session.wait_text("#mz-adversity-value", "0");
    wait_contains(session, "#mz-adversity-debt-value", "Debt 1");
    // The toast's Undo takes the spend back.
    session.click("#toast-undo");
    session.wait_text("#mz-adversity-value", "1");
    session.wait_gone("#mz-adversity-debt-value");
    press(session, "#mz-sheet-back");
}

/// Conflict 1, Leave to Chance with dice typed in: the thief 3 votes (d8), the guard 4 (d10),
/// nobody 1 (d4); faces 5, 9, 2: the guard wins and Bo's 3 influence is spent.
fn leave_to_chance(session: &Session, db_path: &Path, game: &str, ada: &str, bo: &str, mira: &str) {
    press(session, "#mezzo-tab-conflict");
    session.wait_for("#mz-question");
    conflict_options(session, "Who gets the key?", &["The thief", "The guard", "Nobody"]);
    // About Mira: Ada, her Actor, casts 3 free votes.
    press(session, &format!("#mz-about-{mira}"));
    session.wait_for(&format!("#mz-free-2-{ada}"));
    choose(session, &format!("#mz-free-0-{ada}"), "0");
    choose(session, &format!("#mz-free-1-{ada}"), "0");
    choose(session, &format!("#mz-free-2-{ada}"), "2");
    choose(session, &format!("#mz-law-{ada}"), "potential");
    choose(session, &format!("#mz-law-option-{ada}"), "0");
    choose(session, &format!("#mz-free-0-{bo}"), "1");
    session.wait_text("#mz-dice-0", "d8");
    session.wait_text("#mz-dice-1", "d4");
    let before = text_of(session, "#mz-odds-pct-1");
    // Bo's influence: the guard climbs to d10 and its odds change as it is typed.
    choose(session, &format!("#mz-influence-option-{bo}"), "1");
    type_into(session, &format!("#mz-influence-points-{bo}"), "3");
    session.wait_text("#mz-dice-1", "d10");
    session.wait_text("#mz-dice-2", "d4");
    session.wait_text("#mz-votes-1", "4 votes");
    let after = text_of(session, "#mz-odds-pct-1");
    assert!(after.ends_with('%') && after != before, "the odds follow the votes: {before} → {after}");
    let total: f64 = (0..3)
        .map(|i| text_of(session, &format!("#mz-odds-pct-{i}")).trim_end_matches('%').parse::<f64>().unwrap())
        .sum();
    assert!((total - 100.0).abs() < 0.2, "the odds add up to 100%: {total}");
    assert!(text_of(session, "#mz-odds-list").contains("free 2, laws +1"), "where the votes come from");

    press(session, "#mz-hand");
    session.wait_for("#mz-die-3");
    assert!(text_of(session, "#mz-hand-host").contains("“The guard” (d10)"), "the boxes name option and die");
    shots_of(session, "mezzo-casts", "#mz-casts");
    shots_of(session, "mezzo-conflict", "#mz-conflict-question");
    shots_of(session, "mezzo-odds", "#mz-odds");
    type_into(session, "#mz-die-1", "5");
    type_into(session, "#mz-die-2", "9");
    type_into(session, "#mz-die-3", "2");
    press(session, "#mz-resolve-submit");
    session.wait_for("#mz-result");
    session.wait_text("#mz-summary", "“The guard” wins.");
    session.wait_text("#mz-winner", "“The guard” takes effect.");
    assert_eq!(text_of(session, "#mz-score-0"), "5");
    assert_eq!(text_of(session, "#mz-score-1"), "9");
    assert_eq!(text_of(session, "#mz-score-2"), "2");
    assert!(session
        .wait_for(".mz-result-option[data-option='1']")
        .attribute("class")
        .unwrap_or_default()
        .contains("winner"));
    shots_of(session, "mezzo-result", "#mz-result");

    let conn = db(db_path);
    assert_eq!(
        influence(&conn, game),
        vec![("Ada".into(), 3), ("Bo".into(), 0)],
        "Bo's 3 influence is spent and saved"
    );
    drop(conn);
    press(session, "#mezzo-tab-table");
    session.wait_text(&format!("#mz-influence-{bo}"), "0");
}

/// Conflict 2, Take Median: Storm 3 votes, Calm 1, Fog 1 — Storm and Fog first (the two ends
/// of the list, RULES.md §3.2), Fog drops; then Storm and Calm, Calm drops: Storm is left.
fn take_median(session: &Session, ada: &str, bo: &str, mira: &str) {
    press(session, "#mezzo-tab-conflict");
    press(session, "#mz-new-conflict");
    conflict_options(session, "Which weather rolls in?", &["Storm", "Calm", "Fog"]);
    press(session, &format!("#mz-about-{mira}"));
    // Decided before the votes (RULES.md §3.2).
    press(session, "#mz-approach-take_median");
    session.wait_for(&format!("#mz-free-2-{ada}"));
    for k in 0..3 {
        choose(session, &format!("#mz-free-{k}-{ada}"), "0");
    }
    choose(session, &format!("#mz-influence-option-{ada}"), "2");
    type_into(session, &format!("#mz-influence-points-{ada}"), "1");
    choose(session, &format!("#mz-free-0-{bo}"), "1");
    session.wait_text("#mz-odds-heading", "Take Median, step by step");
    let steps = wait_contains(session, "#mz-median-preview-steps", "Step 2");
    assert!(
        steps.contains(
            "Step 1: “Storm” (3) and “Fog” (1) — pre-selected, the two ends — each lose 1 vote; “Fog” drops."
        ),
        "{steps:?}"
    );
    assert!(steps.contains("Step 2: “Storm” (2) and “Calm” (1)"), "{steps:?}");
    session.wait_text("#mz-median-preview-outcome", "“Storm” is left: it would win.");
    assert!(session.find("#mz-hand").is_err(), "Take Median rolls no dice");
    shots_of(session, "mezzo-median", "#mz-odds");
    press(session, "#mz-resolve-submit");
    session.wait_for("#mz-result");
    session.wait_text("#mz-summary", "“Storm” wins.");
    let steps = text_of(session, "#mz-median-result-steps");
    assert!(steps.contains("Step 1: “Storm” (3) and “Fog” (1) each lose 1 vote; “Fog” drops."), "{steps:?}");
    assert!(steps.contains("Step 2: “Storm” (2) and “Calm” (1) each lose 1 vote; “Calm” drops."), "{steps:?}");
    assert_eq!(text_of(session, "#mz-median-result-outcome"), "“Storm” is left: it wins.");
    session.wait_text("#mz-winner", "“Storm” takes effect.");
}

/// Conflict 3, a two-way tie by Take Median: a compromise (undone), then the tiebreak with
/// typed d12s: 4 and 4 tie again, 2 and 9 — the inn wins.
fn tie(session: &Session, ada: &str, bo: &str) {
    press(session, "#mz-new-conflict");
    conflict_options(session, "Where do they sleep?", &["The barn", "The inn"]);
    press(session, "#mz-approach-take_median");
    choose(session, &format!("#mz-free-0-{bo}"), "0");
    choose(session, &format!("#mz-influence-option-{ada}"), "1");
    type_into(session, &format!("#mz-influence-points-{ada}"), "1");
    wait_contains(session, "#mz-median-preview-outcome", "would tie");
    press(session, "#mz-resolve-submit");
    session.wait_for("#mz-tie");
    wait_contains(session, "#mz-summary", "A tie between “The barn” and “The inn”");
    type_into(session, "#mz-compromise", "The hayloft above the inn's stable");
    press(session, "#mz-compromise-submit");
    session.wait_text("#mz-compromise-done", "Settled by compromise: “The hayloft above the inn's stable”.");
    session.click("#toast-undo");
    session.wait_for("#mz-compromise-form");

    press(session, "#mz-tie-hand");
    type_into(session, "#mz-tie-die-1", "4");
    type_into(session, "#mz-tie-die-2", "4");
    session.wait_for("#mz-tie-die-4");
    assert!(text_of(session, "#mz-tie-dice").contains("round 2"), "a second round after a tied round");
    type_into(session, "#mz-tie-die-3", "2");
    type_into(session, "#mz-tie-die-4", "9");
    shots_of(session, "mezzo-tie", "#mz-result");
    press(session, "#mz-break-tie");
    session.wait_text("#mz-winner", "“The inn” takes effect.");
    let rounds = text_of(session, "#mz-tie-rounds");
    assert!(rounds.contains("Round 1: “The barn” 4, “The inn” 4 — tied again."), "{rounds:?}");
    assert!(rounds.contains("Round 2: “The barn” 2, “The inn” 9 — “The inn” wins."), "{rounds:?}");
}

/// Audit DEV-7 (RULES.md decision 2026-11-28): Ada gives up her claim on Mira on the Table
/// tab, and Mira keeps her Plot Protection, now as the Plot Protection edge (in no slot);
/// Undo gives the claim back, the protection coming from it again.
#[test]
fn a_character_keeps_its_plot_protection_when_the_claim_is_given_up() {
    let (_window, _scratch, _db_path, session) = begin_with("mezzo-unclaim", open);
    let (_game, ada, _bo, mira, _key) = table(&session);
    let row = format!(".mz-player[data-player-id='{ada}']");
    press(&session, "#mezzo-tab-table");
    press(&session, &format!("{row} .mz-unclaim"));
    session.wait_for(&format!("{row} .mz-claims-none"));
    wait_contains(&session, "#toast-message", "Ada gives up the claim on Mira: Mira keeps Plot Protection as an edge.");
    shots_of(&session, "mezzo-unclaimed", &row);

    press(&session, "#mezzo-tab-elements");
    open_element_sheet(&session, &mira, "Mira");
    assert!(text_of(&session, "#mz-protection-status").starts_with("Protected"), "Mira is still protected");
    let sources = text_of(&session, "#mz-protection");
    assert!(sources.contains("From the Plot Protection edge"), "{sources:?}");
    assert!(!sources.contains("From a player's claim"), "no claim any more: {sources:?}");
    let traits = text_of(&session, "#mz-trait-list");
    assert!(traits.contains("Plot Protection"), "the edge is on her sheet: {traits:?}");
    assert!(text_of(&session, "#mz-slots-status").contains("0 filled"), "the edge takes no slot");
    shots_of(&session, "mezzo-unclaimed-protection", "#mz-protection");

    // Undo in the log: Ada's claim is back, and the protection comes from it.
    press(&session, "#mezzo-tab-log");
    press(&session, "#mz-log-undo");
    press(&session, "#mezzo-tab-table");
    wait_contains(&session, &format!("{row} .mz-claims"), "Claims Mira");
    press(&session, "#mezzo-tab-elements");
    // The tab may come back on Mira's sheet, or on the list.
    session.wait_until("the elements tab", || {
        session.find("#mz-sheet-heading").ok().or_else(|| session.find(".mz-element .mz-open-sheet").ok())
    });
    if session.find("#mz-sheet-heading").is_err() {
        open_element_sheet(&session, &mira, "Mira");
    }
    wait_contains(&session, "#mz-protection", "From a player's claim");
    assert!(
        !text_of(&session, "#mz-protection").contains("From the Plot Protection edge"),
        "the edge went with the Undo"
    );
}

#[test]
fn a_mezzo_table_sheets_and_conflicts() {
    let (_window, _scratch, db_path, session) = begin_with("mezzo", open);
    let (game, ada, bo, mira, key) = table(&session);
    sheets(&session, &mira, &key);
    leave_to_chance(&session, &db_path, &game, &ada, &bo, &mira);
    take_median(&session, &ada, &bo, &mira);
    tie(&session, &ada, &bo);
    {
        let conn = db(&db_path);
        assert_eq!(
            influence(&conn, &game),
            vec![("Ada".into(), 1), ("Bo".into(), 0)],
            "Ada paid 1 influence in each of the last two conflicts"
        );
    }
    press(&session, "#mezzo-tab-log");
    let log = text_of(&session, "#mz-log-list");
    assert!(log.contains("Who gets the key? “The guard” wins."), "{log:?}");
    assert!(log.contains("Tie broken by dice"), "{log:?}");
    shot(&session, "mezzo-log-1280");
    drop(session);

    // After a restart, in dark mode: the table and a conflict with its odds.
    let session = open_dark(&db_path);
    reopen_mezzo(&session, "Mezzo Night");
    // A game with characters opens on the sheet; the table is one tab away.
    session.wait_for("#mezzo-tab-sheet[aria-current='page']");
    press(&session, "#mezzo-tab-table");
    session.wait_text(&format!("#mz-influence-{ada}"), "1");
    session.screenshot(&screenshot_dir().join("mezzo-dark-table-1280.png"));
    press(&session, "#mezzo-tab-elements");
    open_element_sheet(&session, &mira, "Mira");
    shots_of(&session, "mezzo-dark-sheet", "#mz-sheet");
    press(&session, "#mezzo-tab-conflict");
    conflict_options(&session, "Does the bridge hold?", &["It holds", "It breaks"]);
    choose(&session, &format!("#mz-free-0-{bo}"), "1");
    session.wait_text("#mz-dice-1", "d4");
    shots_of(&session, "mezzo-dark-conflict", "#mz-conflict-question");

    // The approach was fixed by the first vote ("decide before casting votes"): the vote is
    // taken back to choose the D6 variant, then cast again.
    assert_eq!(disabled(&session, "#mz-approach-d6"), json!(true), "fixed once a vote is cast");
    session.wait_text("#mz-approach-note", "Fixed: the votes are cast. Take every vote back to choose again.");
    choose(&session, &format!("#mz-free-0-{bo}"), "-1");
    session.wait_text("#mz-approach-note", "Decided before anyone casts a vote.");
    // The D6 variant with dice typed in: a first roll of 1 bursts (×2) and asks for a reroll.
    press(&session, "#mz-approach-d6");
    choose(&session, &format!("#mz-free-0-{bo}"), "1");
    session.wait_text("#mz-dice-1", "d6 × 1, burst on a 1");
    session.wait_text("#mz-dice-0", "no die (scores 1)");
    press(&session, "#mz-hand");
    type_into(&session, "#mz-die-1", "1");
    session.wait_for("#mz-die-2");
    assert!(text_of(&session, "#mz-hand-host").contains("“It breaks” burst reroll"), "the burst asks for its reroll");
    type_into(&session, "#mz-die-2", "5");
    press(&session, "#mz-resolve-submit");
    session.wait_text("#mz-summary", "“It breaks” wins.");
    assert_eq!(text_of(&session, "#mz-score-0"), "1", "no votes scores 1");
    assert_eq!(text_of(&session, "#mz-score-1"), "10", "the reroll 5 × the raised multiplier 2");
    shots_of(&session, "mezzo-dark-d6", "#mz-result");
}
