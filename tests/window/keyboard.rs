//! Issue 35: one main journey per system with the keyboard alone — Tab, Shift+Tab, Enter,
//! Space, Escape and typing, pressed on whatever has the focus (WebDriver key actions, no
//! element clicked or focused by the test) — asserting where the focus is after each step:
//! on the screen's heading when a screen opens, inside a dialog when it opens, on the result
//! when a roll or check settles, and back on the opener when a dialog or screen closes.

use serde_json::{json, Value};

use crate::fixtures::nsu_fixture_path;
use crate::webdriver::Session;
use crate::{begin_with, dismiss_toast, open, wait_card};

pub(crate) const TAB: &str = "\u{E004}";
pub(crate) const SHIFT: &str = "\u{E008}";
pub(crate) const ENTER: &str = "\u{E007}";
pub(crate) const SPACE: &str = "\u{E00D}";
pub(crate) const ESCAPE: &str = "\u{E00C}";

/// How many Tab presses a journey may take to reach one control before the test says the
/// control cannot be reached (home has about 30 stops; a dialog's Tab cycles inside it).
const MOST_TABS: usize = 60;

/// The focused element: its tag, id, classes, accessible text and whether it is the body.
pub(crate) fn focused(session: &Session) -> Value {
    session.execute(
        "const a = document.activeElement;
         return a ? { tag: a.tagName.toLowerCase(), id: a.id, class: String(a.className),
                      text: (a.getAttribute('aria-label') || a.textContent || a.value || '').trim().slice(0, 60) } : null;",
        json!([]),
    )
}

/// Whether the focused element matches the CSS `selector` (and, when `text` is given, its
/// text or accessible name contains it).
fn focus_matches(session: &Session, selector: &str, text: Option<&str>) -> bool {
    session.execute(
        "const a = document.activeElement; if (!a || !a.matches(arguments[0])) return false;
         const t = arguments[1]; if (t === null) return true;
         return ((a.getAttribute('aria-label') || '') + ' ' + a.textContent).includes(t);",
        json!([selector, text]),
    ) == json!(true)
}

/// Waits until the focus is on `selector` (after a redraw it may arrive a moment later);
/// on failure says what has it instead. Never the page's body.
pub(crate) fn wait_focus_on(session: &Session, selector: &str, what: &str) {
    session.wait_until(&format!("the focus on {what} ({selector}); it is on {}", focused(session)), || {
        focus_matches(session, selector, None).then_some(())
    });
    let now = focused(session);
    assert_ne!(now["tag"], json!("body"), "{what}: the focus is not on the page's body ({now})");
}

/// Presses one key (or a chord) on what has the focus.
pub(crate) fn press(session: &Session, chord: &[&str]) {
    session.press_keys(&[chord]);
}

/// Types `text` into what has the focus, key by key.
fn type_keys(session: &Session, text: &str) {
    let keys: Vec<String> = text.chars().map(String::from).collect();
    let chords: Vec<[&str; 1]> = keys.iter().map(|k| [k.as_str()]).collect();
    let chords: Vec<&[&str]> = chords.iter().map(|c| c.as_slice()).collect();
    session.press_keys(&chords);
}

/// Presses Tab (or Shift+Tab when `back`) until the focus is on `selector` (with `text` in
/// its name, when given); returns how many presses it took. Fails naming every stop passed
/// when the control is not reached within `MOST_TABS`.
fn tab_to_with(session: &Session, selector: &str, text: Option<&str>, back: bool) -> usize {
    let mut stops = Vec::new();
    for presses in 0..=MOST_TABS {
        if focus_matches(session, selector, text) {
            return presses;
        }
        if back {
            press(session, &[SHIFT, TAB]);
        } else {
            press(session, &[TAB]);
        }
        stops.push(focused(session));
    }
    panic!("{selector} ({text:?}) is not reached by {MOST_TABS} presses of Tab; the stops: {stops:?}");
}

pub(crate) fn tab_to(session: &Session, selector: &str) -> usize {
    tab_to_with(session, selector, None, false)
}

fn tab_to_named(session: &Session, selector: &str, text: &str) -> usize {
    tab_to_with(session, selector, Some(text), false)
}

fn shift_tab_to(session: &Session, selector: &str) -> usize {
    tab_to_with(session, selector, None, true)
}

/// Tabs to `selector` and presses Enter on it.
fn activate(session: &Session, selector: &str) {
    tab_to(session, selector);
    press(session, &[ENTER]);
}

/// Shift+Tab back to "← Home", Enter: home shows with the focus on `opener`, what opened
/// the screen.
fn home_by_keyboard(session: &Session, opener: &str, what: &str) {
    shift_tab_to(session, ".frame-back");
    press(session, &[ENTER]);
    session.wait_for("#home-layout");
    wait_focus_on(session, opener, what);
}

/// Whether a dialog matching `selector` is open.
fn dialog_open(session: &Session, selector: &str) -> bool {
    session.execute("return document.querySelector(arguments[0])?.open === true;", json!([selector])) == json!(true)
}

/// The wizard's step now (its data-step).
fn nsu_step(session: &Session) -> String {
    session
        .execute("return document.getElementById('roll-wizard')?.dataset.step ?? '';", json!([]))
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Tabs to the wizard's Next, presses Enter, and waits for `step` with the focus on its
/// heading.
fn next_step(session: &Session, step: &str) {
    activate(session, "#roll-next");
    session.wait_until(&format!("the {step} step"), || (nsu_step(session) == step).then_some(()));
    wait_focus_on(session, "#roll-body h3", &format!("the {step} step's heading"));
}

/// NSU: Wren's card on home → her sheet → Roll → every step of the wizard by Tab, Space and
/// Enter (the outcome typed) → the dice rolled → settled → Escape back to the sheet; the
/// rules reference and the dice tray opened and closed; "← Home" back to her card.
#[test]
fn nsu_sheet_roll_and_settle_by_keyboard() {
    let (_window, scratch, _db, session) = begin_with("keyboard-nsu", open);
    let file = scratch.path("nsu.sheetkeeper.json");
    std::fs::copy(nsu_fixture_path(), &file).expect("copy the NSU fixture");
    let session = crate::nsu_roll::imported_into(session, &file);
    dismiss_toast(&session);
    wait_card(&session, "Wren Ashdown");

    // Home: from the top of the page to Wren's card, then Enter opens her sheet.
    session.execute("document.activeElement?.blur(); window.scrollTo(0, 0);", json!([]));
    tab_to_named(&session, ".character-card", "Wren Ashdown");
    press(&session, &[ENTER]);
    session.wait_text("#nsu-screen-heading", "Wren Ashdown — Lanterns over Brackwater");
    wait_focus_on(&session, "#nsu-screen-heading", "the opened sheet's heading");

    // The sheet's Roll opens the wizard with the focus inside it.
    activate(&session, "#sheet-roll");
    session.wait_for("#roll-wizard");
    wait_focus_on(&session, "#roll-wizard *", "the roll wizard");

    // Step 1: what the character wants to happen, typed. Each Next gives the focus to the
    // new step's heading.
    tab_to(&session, "#roll-outcome");
    type_keys(&session, "Cross the weir");
    next_step(&session, "aspect");
    // Step 2: Body, the Character at risk (a radio group is one Tab stop; Space picks).
    tab_to(&session, "#roll-aspect-body");
    press(&session, &[SPACE]);
    tab_to(&session, "#roll-at-risk-character");
    press(&session, &[SPACE]);
    next_step(&session, "mood");
    tab_to(&session, "#roll-mood-0");
    press(&session, &[SPACE]);
    next_step(&session, "details");
    // The odds are read on the way; "Go to the dice", then "Roll the dice".
    next_step(&session, "odds");
    session.wait_until("the odds", || session.find("#roll-odds-win").ok().filter(|e| e.text().ends_with('%')));
    next_step(&session, "roll");
    activate(&session, "#roll-dice");
    session.wait_until("the help step", || (nsu_step(&session) == "help").then_some(()));
    wait_focus_on(&session, "#roll-body h3", "the help step's heading");
    // "No help: go on", then Next through each choice to "Settle the roll".
    let mut screens = Vec::new();
    while session.find("#roll-result").is_err() {
        let heading = focused(&session);
        screens.push(heading["text"].clone());
        assert!(screens.len() < 8, "the roll settles: {screens:?}");
        activate(&session, "#roll-next");
        session.wait_until("the next screen's heading", || {
            let now = focused(&session);
            (now["tag"] == json!("h3") && now != heading).then_some(())
        });
    }
    wait_focus_on(&session, "#roll-winner", "the settled roll's result");

    // Escape closes the wizard; the focus is back on Roll.
    press(&session, &[ESCAPE]);
    session.wait_gone("#roll-wizard");
    wait_focus_on(&session, "#sheet-roll", "Roll, which opened the wizard");

    // The rules reference and the dice tray: opened with Enter, closed with Escape.
    activate(&session, "#sheet-reference");
    session.wait_until("the reference open", || dialog_open(&session, "#nsu-reference").then_some(()));
    wait_focus_on(&session, "#nsu-reference *", "inside the reference");
    press(&session, &[ESCAPE]);
    wait_focus_on(&session, "#sheet-reference", "Rules, which opened the reference");
    shift_tab_to(&session, ".frame-dice");
    press(&session, &[ENTER]);
    wait_focus_on(&session, "#dice-tray-title", "the dice tray's title");
    tab_to(&session, "#dice-tray-presets button");
    press(&session, &[ENTER]);
    session.wait_for("#dice-tray-result");
    wait_focus_on(&session, "#dice-tray-presets button", "the die just rolled, to roll it again");
    press(&session, &[ESCAPE]);
    wait_focus_on(&session, ".frame-dice", "Dice, which opened the tray");

    // "← Home": the focus goes back to Wren's card.
    home_by_keyboard(&session, ".character-card", "Wren's card, which opened the sheet");
    assert!(focus_matches(&session, ".character-card", Some("Wren Ashdown")), "{}", focused(&session));
}

/// Scattershot: Ada's sheet by its tab → Strength's roll button (Roll focused) → "Start the roll" → "Roll
/// 2d10" → "End the Decision Phase" → "Conclude the roll" → the reading; "← Home" back to
/// the game panel's button that opened the screen.
#[test]
fn scattershot_rating_roll_to_conclusion_by_keyboard() {
    let (_window, _scratch, _db, session) = begin_with("keyboard-scattershot", open);
    let (_game, _ada, _bo, _cy) = crate::scattershot::table(&session, "Key Town");
    dismiss_toast(&session);
    wait_focus_on(&session, "#scattershot-screen-heading", "the screen's heading");

    // The Sheet tab: the screen's heading keeps the focus, the first of Ada's sheet below it.
    activate(&session, "#sc-tab-sheet");
    session.wait_for("#sc-sheet-strength-roll");
    wait_focus_on(&session, "#scattershot-screen-heading", "the screen's heading, the sheet drawn under it");
    // Strength's name rolls it: the Roll tab, set up with it, Roll focused (issue 32's one
    // tap); "Start the roll" goes step by step.
    activate(&session, "#sc-sheet-strength-roll");
    wait_focus_on(&session, "#sc-roll-quick", "Roll, the rating filled in");
    assert_eq!(
        session.execute("return document.getElementById('sc-roll-actor-rating').value;", json!([])),
        json!("statistic:strength")
    );
    activate(&session, "#sc-roll-start");
    session.wait_for("#sc-roll-live");
    // Each step's button goes with its step: the focus goes to the roll's card heading.
    wait_focus_on(&session, "#sc-roll-live-heading", "the roll on the table");
    activate(&session, "#sc-dice-actor");
    session.wait_until("the 2d10 rolled", || {
        session.find("#sc-roll-number").ok().filter(|n| n.text() != "not rolled yet").map(|_| ())
    });
    wait_focus_on(&session, "#sc-roll-live-heading", "the roll with its dice");
    activate(&session, "#sc-roll-decide");
    session.wait_for("#sc-roll-conclude");
    wait_focus_on(&session, "#sc-roll-live-heading", "the roll in its Application Phase");
    activate(&session, "#sc-roll-conclude");
    session.wait_for("#sc-roll-reading");
    wait_focus_on(&session, "#sc-roll-result-heading", "the concluded roll's reading");

    // "← Home": the focus goes back to the game panel's button that opened the screen.
    home_by_keyboard(&session, "#game-scattershot", "the Scattershot table button");
}

/// Mezzo: an action check on its tab — what is attempted typed, Mira chosen as the actor by
/// typing her name into the select, her action and the failure typed, the dice typed in as
/// rolled at the table — rolled and resolved;
/// the X-card opened and closed; "← Home" back to the game panel's button.
#[test]
fn mezzo_action_check_by_keyboard() {
    let (_window, _scratch, _db, session) = begin_with("keyboard-mezzo", open);
    let (_game, _ada, _bo, mira, _key) = crate::mezzo_play::table(&session, "Wall Night");
    dismiss_toast(&session);

    // The Action check tab: the screen's heading keeps the focus, the check's form below it.
    activate(&session, "#mezzo-tab-check");
    session.wait_for("#mzc-description");
    wait_focus_on(&session, "#mezzo-screen-heading", "the screen's heading, the check drawn under it");
    tab_to(&session, "#mzc-description");
    type_keys(&session, "Climb the wall");
    // A select takes its option from the letters typed, as on any page.
    tab_to(&session, "#mzc-actor-0");
    type_keys(&session, "Mira");
    session.wait_until("Mira chosen as the actor", || {
        (session.execute("return document.getElementById('mzc-actor-0').value;", json!([])) == json!(mira))
            .then_some(())
    });
    tab_to(&session, "#mzc-action-0");
    type_keys(&session, "climbs over");
    tab_to(&session, "#mzc-failure");
    type_keys(&session, "falls into the moat");
    session.wait_until("the odds", || session.find("#mzc-odds-pct-0").ok().filter(|e| e.text().ends_with('%')));
    // The dice as rolled at the table (Mira 5, the failure 2: no tie), typed in; then Roll
    // and Resolve, each result's heading taking the focus.
    tab_to(&session, "#mzc-hand");
    press(&session, &[SPACE]);
    tab_to(&session, "#mzc-die-1");
    type_keys(&session, "5");
    tab_to(&session, "#mzc-die-2");
    type_keys(&session, "2");
    activate(&session, "#mzc-roll");
    session.wait_for("#mzc-rolled");
    wait_focus_on(&session, "#mzc-rolled-heading", "the rolled check");
    activate(&session, "#mzc-resolve");
    session.wait_for("#mzc-result");
    wait_focus_on(&session, "#mzc-result-heading", "the resolved check");
    assert!(session.wait_for("#mzc-result").text().contains("The action succeeds."), "Mira's 5 beats the 2");

    // The X-card opens on its Close and gives the focus back when it closes.
    activate(&session, "#xcard");
    wait_focus_on(&session, "#xcard-close", "the X-card's Close");
    press(&session, &[ESCAPE]);
    wait_focus_on(&session, "#xcard", "the X-card button");
    home_by_keyboard(&session, "#game-mezzo", "the Mezzo table button");
}

/// Penny Ante: a challenge issued, played and folded with the keyboard alone — the stake typed,
/// the circumstances passed, each side's characteristics and cup behind its pass screen, Ada
/// folding in the first betting round — each screen's heading or next control focused.
#[test]
fn penny_challenge_to_a_fold_by_keyboard() {
    let (_window, _scratch, _db, session) = begin_with("keyboard-penny", open);
    let _game = crate::penny_ante::new_penny_game(&session, "Penny Night");
    let _ada = crate::penny_ante::add_player(&session, "Ada", "Strong", "30");
    crate::penny_ante::start_adventure(&session, "30");
    dismiss_toast(&session);

    // Each press is followed by where the focus must be: the next thing to type or read.
    let step = |selector: &str, then: &str, what: &str| {
        activate(&session, selector);
        wait_focus_on(&session, then, what);
    };
    step("#penny-issue", "#penny-stake", "the stake, the first thing to type");
    type_keys(&session, "Bluff the guard");
    step("#penny-start-challenge", "#penny-challenge-heading", "the challenge just started");
    step("#penny-circ-challenger-pass", "#penny-circ-heading", "the circumstances, the opponent's turn");
    // Behind each pass screen: "I am … — show my cup" opens that side's own view, its heading
    // focused; what the side does there hands the device on, the next pass screen focused.
    step("#penny-circ-opponent-pass", "#penny-pass-heading", "the pass screen for Ada");
    for (side, task) in [("Ada", "#penny-char-submit"), ("the House", "#penny-char-submit")] {
        step("#penny-reveal", "#penny-private-heading", &format!("{side}'s own view"));
        step(task, "#penny-pass-heading", &format!("the pass screen after {side}'s characteristics"));
    }
    for side in ["Ada", "the House"] {
        step("#penny-reveal", "#penny-private-heading", &format!("{side}'s own view"));
        step("#penny-roll", "#penny-private-heading", &format!("{side}'s dice, the cup to choose"));
        step("#penny-cup-submit", "#penny-pass-heading", &format!("the pass screen after {side}'s cup"));
    }
    session.wait_text("#penny-pass-heading", "Pass the device to Ada");
    step("#penny-reveal", "#penny-private-heading", "Ada's bet");
    step("#penny-fold", "#penny-result-heading", "the challenge's result");
    assert!(session.wait_for("#penny-summary").text().contains("Ada folded"), "the fold is the result");

    // "← Home": the focus goes back to the game panel's button that opened the screen.
    home_by_keyboard(&session, "#game-penny", "the Penny Ante table button");
}
