//! The Penny Ante screens, driven like a person on one device passed around: a game from the
//! home screen, two players, a characteristic bought (and taken back with Undo), an
//! adventure, then a full challenge against the House with every die typed in by hand — a
//! circumstance, characteristics, private rolls and cups behind "pass the device" screens, a
//! raise and a call, a doubling down, rerolls and a showdown — and a second challenge that
//! ends with a fold. The piles are checked on screen and in the database's `pa_ledger`; the
//! screens are photographed at 1280 and 360 px wide, and in dark mode after a restart.

use serde_json::json;

use crate::webdriver::{screenshot_dir, Session};
use crate::{begin_with, create_game, find_named, in_dark, new_game, open, open_dark, open_game, shot};

pub(crate) use crate::fixtures::db;

/// The pile of an account in game `game`, summed from the ledger's entries.
pub(crate) fn pile(conn: &rusqlite::Connection, game: &str, kind: &str, id: Option<&str>) -> i64 {
    conn.query_row(
        "SELECT COALESCE(SUM(CASE WHEN to_kind = ?2 AND to_id IS ?3 THEN amount ELSE 0 END), 0) \
              - COALESCE(SUM(CASE WHEN from_kind = ?2 AND from_id IS ?3 THEN amount ELSE 0 END), 0) \
         FROM pa_ledger WHERE game_id = ?1",
        rusqlite::params![game, kind, id],
        |r| r.get(0),
    )
    .expect("sum a pile from pa_ledger")
}

pub(crate) use crate::mezzo::dismiss_toast;

/// Brings `selector` to the middle of the window, clear of the screen's sticky bar at the
/// top and the toast and phone tab bar at the bottom, as a person scrolls before a tap.
fn into_view(session: &Session, selector: &str) {
    session.to_middle(selector);
}

/// Clicks `selector` with the toast out of the way.
pub(crate) fn press(session: &Session, selector: &str) {
    dismiss_toast(session);
    into_view(session, selector);
    session.click(selector);
}

/// Types `text` into `selector` after clicking and emptying it, as a person would.
pub(crate) fn type_into(session: &Session, selector: &str, text: &str) {
    dismiss_toast(session);
    into_view(session, selector);
    let field = session.wait_for(selector);
    field.click();
    field.clear();
    field.send_keys(text);
}

pub(crate) fn text_of(session: &Session, selector: &str) -> String {
    session.wait_for(selector).text()
}

use crate::mezzo::scroll_to;

/// Screenshots at 1280 and 360 px wide, `selector` at the top; nothing may stick out
/// sideways at 360 px.
pub(crate) fn shots_of(session: &Session, name: &str, selector: &str) {
    dismiss_toast(session);
    // On failure, name the boxes that reach past the window's right edge.
    let culprits = "return [...document.querySelectorAll('body *')] \
           .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 || e.scrollWidth > e.clientWidth + 1) \
           .slice(0, 5).map((e) => e.tagName + '#' + e.id + '.' + e.className).join(', ');";
    crate::shots_at_both_widths_with(
        session,
        name,
        || scroll_to(session, selector),
        || {
            crate::assert_nothing_sticks_out(session, name, culprits);
            // Each percentage of the exact odds reads on one line ("100.0%", not "100.0" over "%").
            let broken = session.execute(
                "return [...document.querySelectorAll('.penny-odds strong')] \
                   .filter((e) => e.getClientRects().length > 0 \
                     && e.getBoundingClientRect().height > parseFloat(getComputedStyle(e).fontSize) * 1.8) \
                   .map((e) => e.id);",
                serde_json::json!([]),
            );
            assert_eq!(broken, serde_json::json!([]), "{name}: a percentage wraps at 360 px");
        },
    );
}

/// The House's antagonist `antagonist` issues an anonymous challenge for `stake` to the player
/// `player`, with `devoted` pennies devoted.
pub(crate) fn anonymous_challenge(session: &Session, stake: &str, antagonist: &str, player: &str, devoted: &str) {
    press(session, "#penny-issue");
    type_into(session, "#penny-stake", stake);
    choose(session, "#penny-challenger", &format!("antagonist:{antagonist}"));
    choose(session, "#penny-opponent", &format!("character:{player}"));
    press(session, "#penny-anonymous");
    type_into(session, "#penny-devoted", devoted);
    press(session, "#penny-start-challenge");
}

/// Makes the Penny Ante game `name` on home and opens its screen; returns the game's id.
pub(crate) fn new_penny_game(session: &Session, name: &str) -> String {
    let game = create_game(session, name, "penny_ante");
    open_penny(session, name);
    game
}

/// Opens the game `name` from home, then its Penny Ante screen.
pub(crate) fn open_penny(session: &Session, name: &str) {
    open_game(session, name);
    press(session, "#game-penny");
    session.wait_for("#penny-screen");
}

/// Starts an adventure with the House's default funding; its pile then reads `house_pile`.
pub(crate) fn start_adventure(session: &Session, house_pile: &str) {
    press(session, "#penny-start-adventure");
    session.wait_text("#penny-house-pile", house_pile);
}

/// The id of the player named `name` on the table tab.
pub(crate) fn player_id(session: &Session, name: &str) -> String {
    session.wait_until(&format!("the player {name:?} on the table"), || {
        find_named(session, ".penny-player", ".penny-name", name)?.attribute("data-character-id")
    })
}

/// Adds a character through the table's new-character form and returns its id.
pub(crate) fn add_player(session: &Session, name: &str, characteristic: &str, pennies: &str) -> String {
    type_into(session, "#penny-new-name", name);
    type_into(session, "#penny-new-characteristic", characteristic);
    // Starting pennies are tapped up from the table's 25 (a stepper: nothing typed).
    let wanted: u32 = pennies.parse().expect("a whole number of pennies");
    for n in 26..=wanted {
        press(session, "#penny-new-pennies-plus");
        session.wait_text("#penny-new-pennies", &n.to_string());
    }
    press(session, "#penny-new-submit");
    let id = player_id(session, name);
    session.wait_text(&format!("#penny-pile-{id}"), pennies);
    // The form's last step puts the focus back in the name box for the next character;
    // until then the table may still be redrawn under the next click.
    session.wait_until("the new-character form to be ready again", || {
        let focused = session.execute("return document.activeElement && document.activeElement.id;", json!([]));
        (focused == json!("penny-new-name")).then_some(())
    });
    session.wait_for_paint();
    id
}

/// Waits for the pass-the-device screen of `side` for `task`, checks it hides the dice, and
/// presses "I am … — show my cup"; then waits for that side's own view.
pub(crate) fn pass_to(session: &Session, side: &str, task: &str, name: &str) {
    let pass = format!("#penny-pass[data-side='{side}'][data-task='{task}']");
    session.wait_for(&pass);
    assert_eq!(text_of(session, "#penny-pass-heading"), format!("Pass the device to {name}"));
    assert!(session.find("#penny-private").is_err(), "no side's own view shows on the pass screen");
    assert!(text_of(session, "#penny-reveal").starts_with(&format!("I am {name}")), "the button names the side");
    press(session, "#penny-reveal");
    session.wait_for(&format!("#penny-private[data-side='{side}'][data-task='{task}']"));
}

/// Step 1 of a challenge, in the open: the challenger passes, then the opponent. The table
/// redraws once the first pass lands: the opponent's Pass is pressed on the redrawn table.
pub(crate) fn both_sides_pass_the_circumstances(session: &Session) {
    press(session, "#penny-circ-challenger-pass");
    session.wait_gone("#penny-circ-challenger");
    press(session, "#penny-circ-opponent-pass");
}

/// A private roll: the device is passed to `name` (`side`), who rolls `dice` typed in by hand
/// and submits the cup as the table proposes it.
pub(crate) fn roll_and_cup(session: &Session, side: &str, name: &str, dice: &[&str]) {
    pass_to(session, side, "roll", name);
    type_dice(session, "penny-die", dice);
    press(session, "#penny-roll");
    press(session, "#penny-cup-submit");
}

/// Against the House, the dice typed in by hand: the challenger `name` ticks the
/// characteristics at `ticked` and declares, the House declares none; then `name` rolls
/// `dice` and the House `house_dice`, each into its cup as the table proposes it.
pub(crate) fn declare_and_roll(session: &Session, name: &str, ticked: &[usize], dice: &[&str], house_dice: &[&str]) {
    pass_to(session, "challenger", "characteristics", name);
    for i in ticked {
        press(session, &format!("#penny-char-{i}"));
    }
    press(session, "#penny-char-submit");
    pass_to(session, "opponent", "characteristics", "the House");
    press(session, "#penny-char-submit");
    roll_and_cup(session, "challenger", name, dice);
    roll_and_cup(session, "opponent", "the House", house_dice);
}

/// Types `values` into the dice boxes `prefix-1`, `prefix-2`, …
pub(crate) fn type_dice(session: &Session, prefix: &str, values: &[&str]) {
    for (i, v) in values.iter().enumerate() {
        type_into(session, &format!("#{prefix}-{}", i + 1), v);
    }
}

/// The game, its two players and an adventure; returns (game, Ada, Bo).
fn table_with_two_players(session: &Session) -> (String, String, String) {
    let game = new_penny_game(session, "Penny Night");
    session.wait_text("#penny-screen-heading", "Penny Night");
    assert_eq!(text_of(session, "#penny-house-pile"), "0");

    let ada = add_player(session, "Ada", "Strong", "30");
    let bo = add_player(session, "Bo", "Clever", "25");

    // A second characteristic costs 5 pennies between adventures; Undo gives them back.
    let buy = format!(".penny-player[data-character-id='{ada}']");
    assert!(text_of(session, &format!("{buy} .penny-buy")).contains("5 pennies"), "the price is shown");
    type_into(session, &format!("#penny-buy-{ada}"), "Quick");
    press(session, &format!("{buy} .penny-buy"));
    session.wait_text(&format!("#penny-pile-{ada}"), "25");
    assert!(text_of(session, &format!("{buy} .penny-tags")).contains("Quick"));
    session.click("#toast-undo");
    session.wait_text(&format!("#penny-pile-{ada}"), "30");
    assert!(!text_of(session, &format!("{buy} .penny-tags")).contains("Quick"), "Undo took the purchase back");
    type_into(session, &format!("#penny-buy-{ada}"), "Quick");
    press(session, &format!("{buy} .penny-buy"));
    session.wait_text(&format!("#penny-pile-{ada}"), "25");

    // The House gets the players' starting pennies by default (from before Quick was bought).
    assert!(text_of(session, "#penny-adventure").contains("Default: 55 pennies"), "the default funding is shown");
    start_adventure(session, "55");
    assert!(text_of(session, "#penny-adventure-status").contains("Adventure 1 is running"));
    let disabled = session.wait_for(&format!("{buy} .penny-buy")).attribute("disabled");
    assert!(disabled.is_some(), "no buying during an adventure");
    assert!(text_of(session, &buy).contains("only between adventures"), "the reason is shown");

    // An antagonist with a hidden characteristic; the House funds its purse and takes it back.
    add_the_troll(session);
    // Passed around, the House's secrets show after the hand-over (audit #2).
    crate::penny_secrets::show_house_secrets(session);
    let troll = session.wait_for(".penny-antagonist");
    assert!(troll.text().contains("Hates riddles (hidden)"), "hidden ones are marked: {:?}", troll.text());
    press(session, ".penny-antagonist .penny-fund[data-amount='5']");
    session.wait_text(".penny-antagonist .penny-purse", "5");
    session.wait_text("#penny-house-pile", "50");
    press(session, ".penny-antagonist .penny-recall[data-amount='5']");
    session.wait_text(".penny-antagonist .penny-purse", "0");
    session.wait_text("#penny-house-pile", "55");

    // The system's badge sits right after the title, as on the other systems' screens.
    let gap = session.execute(
        "const h = document.querySelector('#penny-screen .frame-title h1').getBoundingClientRect(); \
         const b = document.querySelector('#penny-screen .frame-title .system-badge').getBoundingClientRect(); \
         return Math.abs(b.top - h.top) < h.height ? b.left - h.right : null;",
        serde_json::json!([]),
    );
    assert!(gap.as_f64().is_some_and(|g| (0.0..=24.0).contains(&g)), "the badge follows the title: {gap}");
    shots_of(session, "penny-table", "#penny-screen");
    shots_of(session, "penny-players", "#penny-players");
    shots_of(session, "penny-antagonists", "#penny-antagonists");
    (game, ada, bo)
}

/// A new Penny Ante game `game`, open on its table with Ada (Strong, 25 pennies) and the
/// first adventure started (the House funded with her 25); returns Ada's id.
pub(crate) fn ada_at_the_table(session: &Session, game: &str) -> String {
    let [ada] = at_the_table(session, game, [("Ada", "Strong", "25")], "25");
    ada
}

/// A new Penny Ante game `game`, open on its table with `players` (name, characteristic,
/// starting pennies) and the first adventure started, the House's pile then `house_pile`;
/// returns the players' ids.
pub(crate) fn at_the_table<const N: usize>(
    session: &Session,
    game: &str,
    players: [(&str, &str, &str); N],
    house_pile: &str,
) -> [String; N] {
    new_penny_game(session, game);
    press(session, "#penny-tab-table");
    let ids = players.map(|(name, characteristic, pennies)| add_player(session, name, characteristic, pennies));
    start_adventure(session, house_pile);
    ids
}

/// A new Penny Ante game `game` with Ada (Strong), Bo (Clever) and Cy (Lucky), 25 pennies
/// each, and the first adventure started (the House funded with their 75); returns the ids
/// (game, Ada, Bo, Cy).
fn ada_bo_and_cy(session: &Session, game: &str) -> (String, String, String, String) {
    let game = new_penny_game(session, game);
    let ada = add_player(session, "Ada", "Strong", "25");
    let bo = add_player(session, "Bo", "Clever", "25");
    let cy = add_player(session, "Cy", "Lucky", "25");
    start_adventure(session, "75");
    (game, ada, bo, cy)
}

/// Opens the challenge form and types the stake and the ante.
pub(crate) fn issue(session: &Session, stake: &str, ante: &str) {
    press(session, "#penny-issue");
    session.wait_for("#penny-setup-form");
    type_into(session, "#penny-stake", stake);
    type_into(session, "#penny-ante", ante);
}

/// The Troll, made on the table: "Huge" and the hidden "Hates riddles"; returns its id.
pub(crate) fn add_the_troll(session: &Session) -> String {
    add_antagonist(session, "The Troll", &[("Huge", false), ("Hates riddles", true)])
}

/// An antagonist made on the table: `name` with its `characteristics` (the text, and
/// whether it is hidden), a row each; returns its id.
fn add_antagonist(session: &Session, name: &str, characteristics: &[(&str, bool)]) -> String {
    press(session, "#penny-new-antagonist summary");
    type_into(session, "#penny-antagonist-new-name", name);
    for (i, (text, hidden)) in characteristics.iter().enumerate() {
        if i > 0 {
            press(session, "#penny-antagonist-new-form .penny-trait-add");
        }
        let row = format!("#penny-antagonist-new-form .penny-trait-row:nth-child({})", i + 1);
        type_into(session, &format!("{row} .penny-trait-text"), text);
        if *hidden {
            press(session, &format!("{row} .penny-trait-hidden"));
        }
    }
    press(session, "#penny-antagonist-new-submit");
    session.wait_for(".penny-antagonist").attribute("data-antagonist-id").expect("an antagonist id")
}

/// Challenge 1: Ada against the House over the rope bridge, dice typed in by hand.
/// Issue 34, at Ada's cup (5, 4 and 1): every cup her three dice allow, with its chance to
/// win, the best marked; the one she holds (the 1) is pressed and has the odds shown above;
/// tapping a cup puts exactly those dice in.
fn every_cup_s_chance(session: &Session) {
    let rows = session.wait_until("every cup's chance", || {
        let rows: Vec<String> =
            session.find_all("#penny-cup-choices .penny-cup-choice").iter().map(|b| b.text()).collect();
        (rows.len() == 8).then_some(rows)
    });
    assert!(rows[0].starts_with("Keep every die: "), "{rows:?}");
    assert!(rows.iter().any(|r| r.ends_with("— best")), "the best is marked: {rows:?}");
    assert!(rows.iter().all(|r| r.contains("% to win")), "phrased as chances: {rows:?}");
    let one = rows.iter().position(|r| r.starts_with("Reroll the 1:")).expect("putting back the 1");
    let row = format!("#penny-cup-choice-{one}");
    assert_eq!(session.wait_for(&row).attribute("aria-pressed").as_deref(), Some("true"), "the cup she holds");
    let win = text_of(session, "#penny-odds-win");
    assert!(rows[one].contains(&format!(": {win} to win")), "the same number as her odds: {win} in {:?}", rows[one]);
    press(session, "#penny-cup-choice-0");
    session.wait_until("the cup emptied", || {
        (session.wait_for("#penny-cup-2").attribute("aria-pressed").as_deref() == Some("false")).then_some(())
    });
    press(session, &row);
    session.wait_until("the 1 back in the cup", || {
        let pressed = |id: &str| session.wait_for(id).attribute("aria-pressed");
        (pressed("#penny-cup-2").as_deref() == Some("true") && pressed("#penny-cup-0").as_deref() == Some("false"))
            .then_some(())
    });
}

fn showdown_challenge(session: &Session) {
    issue(session, "Cross the rope bridge", "2");
    assert_eq!(
        session.execute("return document.getElementById('penny-opponent').value;", json!([])),
        json!("house"),
        "the House is the default opponent"
    );
    shots_of(session, "penny-setup", "#penny-setup");
    press(session, "#penny-start-challenge");
    session.wait_text("#penny-pot", "4");
    press(session, "#penny-hand");

    // Step 1, in the open: Ada names Rain (a 3); the House passes.
    type_into(session, "#penny-circ-challenger-name", "Rain");
    type_dice(session, "penny-circ-challenger-die", &["3"]);
    press(session, "#penny-circ-challenger-submit");
    session.wait_gone("#penny-circ-challenger");
    press(session, "#penny-circ-opponent-pass");

    // Characteristics, behind the pass screens: Ada uses both (3 dice), the House none.
    pass_to(session, "challenger", "characteristics", "Ada");
    press(session, "#penny-char-0");
    press(session, "#penny-char-1");
    session.wait_text("#penny-char-submit", "Declare (3 dice)");
    press(session, "#penny-char-submit");
    pass_to(session, "opponent", "characteristics", "the House");
    press(session, "#penny-char-submit");

    // Private rolls: Ada 5 4 1 and puts the 1 in her cup; the House rolls a 4 and cups it.
    pass_to(session, "challenger", "roll", "Ada");
    type_dice(session, "penny-die", &["5", "4", "1"]);
    press(session, "#penny-roll");
    session.wait_for("#penny-cup-2");
    let before = text_of(session, "#penny-odds-win");
    press(session, "#penny-cup-2");
    assert_eq!(session.wait_for("#penny-cup-2").attribute("aria-pressed").as_deref(), Some("true"));
    session.wait_until("the odds for the proposed cup", || {
        session.find("#penny-odds-win").ok().map(|e| e.text()).filter(|t| t.ends_with('%') && *t != before)
    });
    every_cup_s_chance(session);
    shots_of(session, "penny-cup", "#penny-private");
    in_dark(session, || shots_of(session, "penny-cup-dark", "#penny-private"));
    press(session, "#penny-cup-submit");

    pass_to(session, "opponent", "roll", "the House");
    // The reveal is simultaneous (audit #3): the House sees none of Ada's dice while it
    // chooses; once it has, Ada's two shown dice and one hidden die, never the 1.
    let ada_side = text_of(session, ".penny-side[data-side='challenger']");
    assert!(ada_side.contains("Cup chosen; shown when both sides have chosen"), "{ada_side:?}");
    type_dice(session, "penny-die", &["4"]);
    press(session, "#penny-roll");
    press(session, "#penny-cup-0");
    press(session, "#penny-cup-submit");
    session.wait_for("#penny-pass[data-side='challenger'][data-task='bet']");
    let ada_side = text_of(session, ".penny-side[data-side='challenger']");
    assert!(ada_side.contains("2 showing, 1 in the cup"), "{ada_side:?}");

    // Betting round 1: Ada raises by 2, the House calls.
    pass_to(session, "challenger", "bet", "Ada");
    assert!(session.find("#penny-stand").is_ok(), "Ada may stand: the wagers are equal");
    assert!(session.find("#penny-call").is_err(), "nothing to call");
    assert!(text_of(session, "#penny-odds").contains('%'), "the odds are next to the bets");
    shots_of(session, "penny-bet", "#penny-private");
    session.wait_text("#penny-raise", "Raise 2");
    press(session, "#penny-raise");
    session.wait_for("#penny-pass[data-side='opponent'][data-task='bet']");
    assert!(
        session.find_all("#penny-lenders .penny-offer-loan").iter().any(|b| b.text().contains("Bo")),
        "Bo, outside the challenge, may offer a loan"
    );
    shots_of(session, "penny-pass", "#penny-action");
    pass_to(session, "opponent", "bet", "the House");
    assert!(session.find("#penny-stand").is_err(), "no standing while behind");
    session.wait_text("#penny-call", "Call 2");
    press(session, "#penny-call");

    // New circumstances: Ada names Wind (a 2) and doubles down; the House passes.
    pass_to(session, "challenger", "new_circumstance", "Ada");
    type_into(session, "#penny-nc-name", "Wind");
    press(session, "#penny-nc-double");
    type_dice(session, "penny-nc-die", &["2"]);
    press(session, "#penny-nc-submit");
    pass_to(session, "opponent", "new_circumstance", "the House");
    press(session, "#penny-nc-pass");
    // The challenge is drawn again after the pass: read the circumstances once it is.
    session.wait_until("Wind among the circumstances", || {
        let circumstances = text_of(session, "#penny-circumstances");
        (circumstances.contains("Wind") && circumstances.contains("may not use it")).then_some(())
    });
    assert!(text_of(session, ".penny-side[data-side='challenger']").contains("4 doubled down"));

    // Rerolls, still hidden: Ada's 1 becomes a 6, the House's 4 a 1.
    pass_to(session, "challenger", "reroll", "Ada");
    type_dice(session, "penny-reroll-die", &["6"]);
    press(session, "#penny-reroll");
    session.wait_for("#penny-hide");
    press(session, "#penny-hide");
    pass_to(session, "opponent", "reroll", "the House");
    type_dice(session, "penny-reroll-die", &["1"]);
    press(session, "#penny-reroll");
    press(session, "#penny-hide");

    // Betting round 2: both stand; the showdown follows.
    pass_to(session, "challenger", "bet", "Ada");
    press(session, "#penny-stand");
    pass_to(session, "opponent", "bet", "the House");
    press(session, "#penny-stand");
    session.wait_for("#penny-result");
    let summary = text_of(session, "#penny-summary");
    assert!(summary.contains("Ada wins the pot of 12"), "{summary:?}");
    assert_eq!(text_of(session, ".penny-hand[data-side='challenger'] .penny-hand-words"), "large straight, 40");
    let house = text_of(session, ".penny-hand[data-side='opponent']");
    assert!(house.contains("The 2 dice that score (fewer than five available)"), "{house:?}");
    assert!(summary.contains("The House narrates"), "the loser narrates: {summary:?}");
    shots_of(session, "penny-result", "#penny-result");
}

/// Challenge 2: Bo against the House; Bo folds in the first betting round.
fn fold_challenge(session: &Session, bo: &str) {
    press(session, "#penny-new-challenge");
    session.wait_for("#penny-setup-form");
    type_into(session, "#penny-stake", "Bluff the guard");
    session.click(&format!("#penny-challenger option[value='character:{bo}']"));
    press(session, "#penny-start-challenge");
    session.wait_text("#penny-pot", "2");
    both_sides_pass_the_circumstances(session);
    // Bo declares nothing, rolls a 2 and puts it back in his cup; the House rolls a 6 and shows it.
    pass_to(session, "challenger", "characteristics", "Bo");
    press(session, "#penny-char-submit");
    pass_to(session, "opponent", "characteristics", "the House");
    press(session, "#penny-char-submit");
    pass_to(session, "challenger", "roll", "Bo");
    type_dice(session, "penny-die", &["2"]);
    press(session, "#penny-roll");
    session.wait_for("#penny-cup-0");
    if session.find("#penny-cup-0[aria-pressed='false']").is_ok() {
        press(session, "#penny-cup-0");
    }
    session.wait_for("#penny-cup-0[aria-pressed='true']");
    press(session, "#penny-cup-submit");
    roll_and_cup(session, "opponent", "the House", &["6"]);
    pass_to(session, "challenger", "bet", "Bo");
    // What the table sees of each side's dice once both cups are chosen: Bo's 2 in his cup.
    let before = dice_on_the_table(session);
    assert!(before.iter().any(|(words, _)| words.contains("1 in the cup")), "a die in a cup: {before:?}");
    press(session, "#penny-fold");
    session.wait_for("#penny-result");
    let summary = text_of(session, "#penny-summary");
    assert!(summary.contains("Bo folded") && summary.contains("the House takes the pot of 2"), "{summary:?}");
    // A fold reveals nothing (audit D-PA1, RULES §2.3): neither side's cup opens on the shared
    // screen, and no side can be handed the device to open one.
    let after = dice_on_the_table(session);
    assert_eq!(after, before, "after the fold each side shows what it showed before, its cup still a cup");
    assert!(after.iter().all(|(words, _)| !words.contains("All dice")), "{after:?}");
    assert!(session.find("#penny-pass").is_err() && session.find("#penny-private").is_err(), "no cup to open");
    shots_of(session, "penny-fold-result", "#penny-screen");
}

/// Each side's box on the shared challenge screen: its dice words and the faces it shows (a
/// die in a cup shows none).
fn dice_on_the_table(session: &Session) -> Vec<(String, Vec<String>)> {
    let sides = session.execute(
        r#"return [...document.querySelectorAll('#penny-screen .penny-side')].map((s) => [
          s.querySelector('.penny-dice-words')?.textContent ?? '',
          [...s.querySelectorAll('.penny-dice [aria-label]')].map((d) => d.getAttribute('aria-label')),
        ]);"#,
        json!([]),
    );
    serde_json::from_value(sides).expect("the sides' dice")
}

#[test]
fn a_table_two_challenges_and_the_ledger() {
    let (_window, _scratch, db_path, session) = begin_with("penny", open);
    let (game, ada, bo) = table_with_two_players(&session);

    showdown_challenge(&session);
    press(&session, "#penny-to-table");
    session.wait_text(&format!("#penny-pile-{ada}"), "29");
    session.wait_text(&format!("#penny-pile-{bo}"), "25");
    session.wait_text("#penny-house-pile", "51");
    {
        let conn = db(&db_path);
        assert_eq!(pile(&conn, &game, "character", Some(&ada)), 29, "Ada: 30 − 5 − 2 − 2 − 4 + 12");
        assert_eq!(pile(&conn, &game, "character", Some(&bo)), 25);
        assert_eq!(pile(&conn, &game, "house", None), 51, "the House: 55 − 2 − 2");
    }

    press(&session, "#penny-tab-challenge");
    fold_challenge(&session, &bo);
    press(&session, "#penny-to-table");
    session.wait_text(&format!("#penny-pile-{ada}"), "29");
    session.wait_text(&format!("#penny-pile-{bo}"), "24");
    session.wait_text("#penny-house-pile", "52");
    {
        let conn = db(&db_path);
        assert_eq!(pile(&conn, &game, "character", Some(&ada)), 29);
        assert_eq!(pile(&conn, &game, "character", Some(&bo)), 24, "Bo lost his ante");
        assert_eq!(pile(&conn, &game, "house", None), 52, "the House won Bo's ante");
    }

    // Ada's ledger, newest first, with her pile after each entry.
    press(&session, &format!(".penny-player[data-character-id='{ada}'] .penny-player-ledger"));
    session.wait_text("#penny-ledger-pile", "29");
    let first = session.wait_for("#penny-ledger-list .penny-entry");
    assert!(first.text().contains("pot won") && first.text().contains("pile after: 29"), "{:?}", first.text());
    shot(&session, "penny-ledger-1280");
    press(&session, "#penny-tab-log");
    let log = text_of(&session, "#penny-log-list");
    assert!(log.contains("Bo folds"), "{log:?}");
    assert!(session.find("#penny-log-undo").is_ok(), "the log offers Undo of the last move");
    drop(session);

    // After a restart, in dark mode: the table and the last challenge are still there.
    // The app reopens where it was: the Penny Ante screen.
    let session = open_dark(&db_path);
    session.wait_for("#penny-screen");
    press(&session, "#penny-tab-table");
    session.wait_text("#penny-house-pile", "52");
    session.screenshot(&screenshot_dir().join("penny-dark-table-1280.png"));
    press(&session, "#penny-tab-challenge");
    session.wait_for("#penny-result");
    shots_of(&session, "penny-dark-result", "#penny-screen");
    // A side's own view in the dark colours.
    press(&session, "#penny-new-challenge");
    type_into(&session, "#penny-stake", "Climb the tower");
    press(&session, "#penny-start-challenge");
    both_sides_pass_the_circumstances(&session);
    pass_to(&session, "challenger", "characteristics", "Ada");
    shots_of(&session, "penny-dark-private", "#penny-screen");
}

/// A loan offered from outside the challenge and accepted, a raise Bo cannot match so he
/// goes all in, the showdown right after the new circumstances, and — Bo left with nothing —
/// the House's automatic one-penny bid, Cy's better bid and a buyout that costs Bo the
/// characteristic he used; then Bo pays part of the loan back at the table.
#[test]
fn a_loan_an_all_in_and_a_buyout() {
    let (_window, _scratch, db_path, session) = begin_with("penny-loss", open);
    let (game, ada, bo, cy) = ada_bo_and_cy(&session, "Penny Stakes");

    issue(&session, "Win the race", "5");
    session.click(&format!("#penny-challenger option[value='character:{bo}']"));
    press(&session, "#penny-start-challenge");
    session.wait_text("#penny-pot", "10");
    press(&session, "#penny-hand");
    both_sides_pass_the_circumstances(&session);
    declare_and_roll(&session, "Bo", &[0], &["1", "1"], &["6"]);

    // Ada, outside the challenge, offers Bo 5 pennies; Bo answers behind the pass screen.
    session.wait_for("#penny-pass[data-side='challenger'][data-task='bet']");
    press(&session, &format!(".penny-offer-loan[data-lender='character:{ada}']"));
    type_into(&session, "#penny-loan-amount", "5");
    press(&session, "#penny-loan-offer");
    session.wait_for("#penny-offer");
    shots_of(&session, "penny-loan", "#penny-action");
    pass_to(&session, "challenger", "loan", "Bo");
    press(&session, "#penny-loan-accept");
    pass_to(&session, "challenger", "bet", "Bo");
    assert!(text_of(&session, "#penny-bet-state").contains("You can still put in 25 pennies"));
    press(&session, "#penny-stand");
    pass_to(&session, "opponent", "bet", "the House");
    // The House raises all it can, far past Bo's 25.
    press(&session, "#penny-raise-most");
    press(&session, "#penny-raise");
    pass_to(&session, "challenger", "bet", "Bo");
    assert!(session.find("#penny-call").is_err(), "Bo cannot match 40");
    session.wait_text("#penny-allin", "All in (25 pennies)");
    press(&session, "#penny-allin");
    pass_to(&session, "opponent", "bet", "the House");
    assert!(session.find("#penny-raise").is_err(), "after an all-in: call or fold only");
    press(&session, "#penny-call");
    pass_to(&session, "challenger", "new_circumstance", "Bo");
    assert!(session.wait_for("#penny-nc-double").attribute("disabled").is_some(), "no doubling down when all in");
    press(&session, "#penny-nc-pass");
    pass_to(&session, "opponent", "new_circumstance", "the House");
    press(&session, "#penny-nc-pass");

    // Bo lost everything: the House bid 1 by itself; Cy bids 3 and Bo takes it.
    session.wait_for("#penny-after-loss");
    assert!(text_of(&session, "#penny-bids-now").contains("The House bids 1 penny"));
    session.click(&format!("#penny-bid-bidder option[value='character:{cy}']"));
    type_into(&session, "#penny-bid-amount", "3");
    press(&session, "#penny-bid-submit");
    session.wait_until("Cy's bid", || {
        session.find("#penny-bids-now").ok().map(|e| e.text()).filter(|t| t.contains("Cy bids 3 pennies"))
    });
    shots_of(&session, "penny-after-loss", "#penny-after-loss");
    assert_eq!(
        session.execute("return document.getElementById(arguments[0]).value;", json!([format!("penny-loss-{bo}")])),
        json!("Clever"),
        "Bo gives up the characteristic he used"
    );
    press(&session, "#penny-accept-buyout");
    session.wait_for("#penny-result");

    press(&session, "#penny-to-table");
    session.wait_text(&format!("#penny-pile-{bo}"), "3");
    let bo_card = format!(".penny-player[data-character-id='{bo}']");
    assert!(!text_of(&session, &bo_card).contains("Clever"), "the buyout cost Bo his characteristic");
    assert!(text_of(&session, &bo_card).contains("Owes Ada 5 pennies (loan)"));
    // Three one-tap repayments of a penny each.
    for left in ["2", "1", "0"] {
        press(&session, ".penny-loan .penny-quick button:first-child");
        session.wait_text(&format!("#penny-pile-{bo}"), left);
    }
    assert!(text_of(&session, ".penny-loan").contains("2 pennies still owed"));
    session.wait_text(&format!("#penny-pile-{ada}"), "23");
    session.wait_text(&format!("#penny-pile-{cy}"), "22");
    session.wait_text("#penny-house-pile", "105");
    shots_of(&session, "penny-loans", "#penny-loans");

    let conn = db(&db_path);
    assert_eq!(pile(&conn, &game, "character", Some(&ada)), 23, "Ada: 25 − 5 lent + 3 repaid");
    assert_eq!(pile(&conn, &game, "character", Some(&bo)), 0, "Bo: 25 − 5 + 5 − 25 + 3 − 3");
    assert_eq!(pile(&conn, &game, "character", Some(&cy)), 22, "Cy paid the buyout");
    assert_eq!(pile(&conn, &game, "house", None), 105, "the House: 75 − 5 − 40 + 15 back + 60");
}

/// An anonymous challenge the House issues with an antagonist: the House devotes 4 pennies,
/// names a characteristic that was not on the antagonist's list (set in stone), and — facing
/// a raise beyond what it devoted — may only fold.
#[test]
fn an_anonymous_challenge_against_an_antagonist() {
    let (_window, _scratch, db_path, session) = begin_with("penny-anonymous", open);
    let game = new_penny_game(&session, "Penny Troll");
    let ada = add_player(&session, "Ada", "Strong", "25");
    start_adventure(&session, "25");
    let troll = add_antagonist(&session, "The Troll", &[("Huge", true)]);
    crate::penny_secrets::show_house_secrets(&session);
    press(&session, ".penny-antagonist .penny-fund[data-amount='10']");
    session.wait_text(".penny-antagonist .penny-purse", "10");

    // Only the House issues an anonymous challenge (audit #16): the Troll challenges Ada.
    anonymous_challenge(&session, "Pass under the bridge", &troll, &ada, "4");
    session.wait_text("#penny-pot", "2");
    // The devoted pennies are the House's secret on the shared screen (audit #2).
    assert!(text_of(&session, ".penny-pot-line").contains("anonymous, ? pennies devoted"));
    press(&session, "#penny-hand");
    both_sides_pass_the_circumstances(&session);
    pass_to(&session, "challenger", "characteristics", "The Troll");
    assert!(text_of(&session, "#penny-private").contains("Huge"), "the House sees the hidden characteristic");
    type_into(&session, "#penny-char-new", "Smelly");
    session.wait_text("#penny-char-submit", "Declare (2 dice)");
    press(&session, "#penny-char-submit");
    pass_to(&session, "opponent", "characteristics", "Ada");
    press(&session, "#penny-char-submit");
    roll_and_cup(&session, "challenger", "The Troll", &["2", "2"]);
    roll_and_cup(&session, "opponent", "Ada", &["3"]);
    pass_to(&session, "challenger", "bet", "The Troll");
    assert!(text_of(&session, "#penny-devoted-own").contains("devoted 4 pennies"), "the House's own view");
    press(&session, "#penny-stand");
    pass_to(&session, "opponent", "bet", "Ada");
    for n in ["2", "3", "4"] {
        press(&session, "#penny-raise-by-plus");
        session.wait_text("#penny-raise-by", n);
    }
    press(&session, "#penny-raise");
    pass_to(&session, "challenger", "bet", "The Troll");
    for absent in ["#penny-call", "#penny-allin", "#penny-raise", "#penny-stand"] {
        assert!(session.find(absent).is_err(), "{absent}: past its devoted pennies the antagonist may only fold");
    }
    press(&session, "#penny-fold");
    session.wait_for("#penny-result");
    press(&session, "#penny-to-table");
    session.wait_text(&format!("#penny-pile-{ada}"), "26");
    crate::penny_secrets::show_house_secrets(&session);
    session.wait_text(".penny-antagonist .penny-purse", "9");
    let tags = text_of(&session, ".penny-antagonist .penny-tags");
    assert!(tags.contains("Smelly") && !tags.contains("Smelly (hidden)"), "set in stone, in the open: {tags:?}");

    let conn = db(&db_path);
    assert_eq!(pile(&conn, &game, "character", Some(&ada)), 26, "Ada: 25 − 1 − 4 + 6");
    assert_eq!(pile(&conn, &game, "antagonist", Some(&troll)), 9, "the Troll lost its ante");
}

/// Whether the page's source holds `text` anywhere (the DOM as it is now, hidden parts too).
pub(crate) fn page_has(session: &Session, text: &str) -> bool {
    session.execute("return document.documentElement.outerHTML.includes(arguments[0]);", json!([text])) == json!(true)
}

/// Goes home, sets this device's role in the selected game (the home screen's choice), and
/// opens the game's Penny Ante screen again.
pub(crate) fn set_role(session: &Session, role: &str) {
    press(session, "#penny-back");
    session.wait_for("#mine-panel");
    press(session, &format!("#role-{role}"));
    session.wait_until(&format!("the role {role:?} to be kept"), || {
        let toast = session.find("#toast-message").ok().map(|e| e.text()).unwrap_or_default();
        toast.contains("This device is").then_some(())
    });
    press(session, "#game-penny");
    session.wait_for("#penny-screen");
}

/// Picks `value` in the select `selector`.
pub(crate) fn choose(session: &Session, selector: &str, value: &str) {
    session.wait_settled();
    dismiss_toast(session);
    session.click(&format!("{selector} option[value='{value}']"));
    session.wait_until(&format!("{selector} to hold {value:?}"), || {
        let now = session.execute("return document.querySelector(arguments[0]).value;", json!([selector]));
        (now == json!(value)).then_some(())
    });
}

/// Issue 13: on a player's own phone the House's secret never reaches the page until the
/// rules reveal it. The antagonist's hidden characteristic shows on a device passed around
/// and on the House's device; with the role set to "player", no tab's page source holds it
/// (the core leaves it out), the House's panels are gone, and Ada's own view of the
/// challenge opens at once, with no "pass the device" screen, while the antagonist's turn is
/// only awaited. Once Ada challenges the Troll directly, it is revealed to the table, purse
/// and characteristics (RULES.md §2.2 decision 2026-11-28).
#[test]
fn a_player_device_shows_an_antagonist_s_hidden_characteristic_only_once_revealed() {
    let (_window, _scratch, _db_path, session) = begin_with("penny-roles", open);
    ada_at_the_table(&session, "Penny Roles");
    let troll = add_the_troll(&session);
    dismiss_toast(&session);
    assert!(!page_has(&session, "Hates riddles"), "passed around, the shared table keeps it");
    crate::penny_secrets::show_house_secrets(&session);
    press(&session, ".penny-antagonist .penny-fund[data-amount='10']");
    session.wait_text(".penny-antagonist .penny-purse", "10");
    dismiss_toast(&session);
    assert!(page_has(&session, "Hates riddles"), "handed to the House, the table shows the hidden characteristic");

    // The House's device shows it too, with the House's panels.
    set_role(&session, "table");
    press(&session, "#penny-tab-table");
    session.wait_for(".penny-antagonist .penny-purse");
    dismiss_toast(&session);
    assert!(page_has(&session, "Hates riddles"), "the House's device shows it");
    assert!(session.find("#penny-new-antagonist").is_ok(), "the House manages her antagonists");

    // A player's phone: Ada challenges the Troll.
    set_role(&session, "player");
    press(&session, "#penny-tab-table");
    session.wait_until("the House's panels to go", || session.find("#penny-new-antagonist").is_err().then_some(()));
    assert!(session.find(".penny-fund").is_err(), "no purse controls here");
    assert_eq!(text_of(&session, ".penny-antagonist .penny-purse"), "? pennies", "no purse here");
    assert!(session.find("#penny-start-adventure").is_err() && session.find("#penny-end-adventure").is_err());
    for tab in ["sheet", "table", "challenge", "ledger", "log"] {
        press(&session, &format!("#penny-tab-{tab}"));
        session.wait_for(&format!("#penny-body[data-tab='{tab}']"));
        session.wait_settled();
        dismiss_toast(&session);
        assert!(
            !page_has(&session, "Hates riddles"),
            "the {tab} tab of a player's phone holds the hidden characteristic"
        );
        if tab == "table" {
            assert!(page_has(&session, "Huge"), "the Troll's open characteristic still shows");
        }
    }
    press(&session, "#penny-tab-table");
    press(&session, "#penny-issue");
    type_into(&session, "#penny-stake", "Riddle at the bridge");
    choose(&session, "#penny-opponent", &format!("antagonist:{troll}"));
    press(&session, "#penny-start-challenge");
    session.wait_for("#penny-circ-challenger");
    both_sides_pass_the_circumstances(&session);
    // Ada's own view opens at once: no pass screen on her own phone.
    session.wait_for("#penny-private[data-side='challenger'][data-task='characteristics']");
    assert!(session.find("#penny-pass").is_err(), "no 'pass the device' on a player's phone");
    assert!(session.find("#penny-hide-cup").is_err(), "nothing to hide from on one's own phone");
    shots_of(&session, "penny-player-own-view", "#penny-screen");
    press(&session, "#penny-char-0");
    press(&session, "#penny-char-submit");
    // The Troll's turn is the House's, on her device: only awaited here.
    session.wait_for("#penny-waiting[data-side='opponent']");
    assert!(session.find("#penny-pass").is_err() && session.find("#penny-private").is_err());
    shots_of(&session, "penny-player-waiting", "#penny-screen");

    // In a direct challenge the Troll is revealed: its purse and every characteristic.
    press(&session, "#penny-tab-table");
    session.wait_for("#penny-body[data-tab='table']");
    session.wait_settled();
    dismiss_toast(&session);
    assert!(page_has(&session, "Hates riddles"), "revealed by the direct challenge");
    assert_ne!(text_of(&session, ".penny-antagonist .penny-purse"), "? pennies", "its purse is the table's now");
}

/// The character card named `name` on home, pressed: one tap to its sheet.
fn tap_card(session: &Session, name: &str) {
    session.wait_settled();
    dismiss_toast(session);
    let card = crate::wait_card(session, name);
    card.find(".character-card").expect("a card is a button").click();
}

/// Presses the screen's "← Home" and waits for home.
fn home(session: &Session, back: &str) {
    press(session, back);
    session.wait_for("#mine-panel");
    session.wait_settled();
}

/// Issue 13, at 360 px: a newcomer makes a Penny Ante character from home and lands in its
/// creation (the first characteristic, the starting pennies tapped up), writes a note and
/// takes it back with Undo; a Scattershot character made the same way lands on its sheet,
/// with no chooser of other sheets. From home each sheet is one tap on its card.
#[test]
fn a_newcomer_reaches_penny_and_scattershot_sheets_from_home() {
    let (_window, _scratch, _db_path, session) = begin_with("penny-newcomer", open);
    crate::phone_width(&session);

    new_game(&session, "Harbour Job", "penny_ante");
    type_into(&session, "#new-character-name", "Pip");
    press(&session, "#new-character-submit");
    // Straight into the character's creation on the Sheet tab.
    session.wait_for("#penny-sheet-creation");
    session.wait_text("#penny-sheet-heading", "Pip");
    assert!(session.find("#penny-sheet-character").is_err(), "no chooser of other sheets");
    shot(&session, "penny-sheet-creation-360");
    type_into(&session, "#penny-sheet-characteristic", "Nimble");
    press(&session, "#penny-sheet-characteristic-take");
    session.wait_until("the first characteristic", || {
        session.find("#penny-sheet-characteristic-list").ok().filter(|e| e.text().contains("Nimble"))
    });
    for n in ["26", "27"] {
        press(&session, "#penny-sheet-starting-amount-plus");
        session.wait_text("#penny-sheet-starting-amount", n);
    }
    press(&session, "#penny-sheet-starting-give");
    session.wait_text("#penny-sheet-pile", "27");
    session.wait_gone("#penny-sheet-creation");

    // Notes, written in edit mode (a made character's sheet opens in play mode), saved and
    // taken back with the toast's Undo.
    press(&session, "#penny-sheet-mode");
    type_into(&session, "#penny-sheet-notes", "Owes the ferryman a song.");
    press(&session, "#penny-sheet-notes-save");
    session.wait_for("#toast-undo");
    session.click("#toast-undo");
    session.wait_until("the note to be taken back", || {
        let v = session.execute("return document.getElementById('penny-sheet-notes')?.value;", json!([]));
        (v == json!("")).then_some(())
    });
    type_into(&session, "#penny-sheet-notes", "Owes the ferryman a song.");
    press(&session, "#penny-sheet-notes-save");
    session.wait_for("#toast-undo");
    dismiss_toast(&session);
    shots_of(&session, "penny-sheet", "#penny-screen");

    // Home, then one tap on Pip's card: the sheet again, the note kept.
    home(&session, "#penny-back");
    tap_card(&session, "Pip");
    session.wait_text("#penny-sheet-heading", "Pip");
    assert_eq!(
        session.execute("return document.getElementById('penny-sheet-notes').value;", json!([])),
        json!("Owes the ferryman a song.")
    );
    home(&session, "#penny-back");

    // A Scattershot character lands on its own sheet: no "Sheet shown" chooser.
    new_game(&session, "Night Shift", "scattershot");
    type_into(&session, "#new-character-name", "Bo");
    press(&session, "#new-character-submit");
    session.wait_text("#sc-sheet-heading", "Bo");
    assert!(session.find("#sc-sheet-character").is_err(), "no chooser when opened for a character");
    press(&session, "#sc-sheet-resource-hit_points-minus");
    session.wait_text("#sc-sheet-current-hit_points", "9 / 10");
    home(&session, "#scattershot-back");
    tap_card(&session, "Bo");
    session.wait_text("#sc-sheet-heading", "Bo");
    session.wait_text("#sc-sheet-current-hit_points", "9 / 10");
    shot(&session, "scattershot-sheet-from-home-360");
}

/// D-PA5: a lender outside the challenge chooses which ally of a side borrows — Cy lends to
/// Bo, Ada's ally, and Bo (not the side's lead) gets the pennies and owes them.
#[test]
fn a_loan_goes_to_the_ally_the_lender_chooses() {
    let (_window, _scratch, db_path, session) = begin_with("penny-ally-loan", open);
    let (game, ada, bo, cy) = ada_bo_and_cy(&session, "Penny Allies");

    issue(&session, "Hold the bridge", "2");
    press(&session, &format!("#penny-challenger-ally-{bo}"));
    press(&session, "#penny-start-challenge");
    session.wait_text("#penny-pot", "6");
    press(&session, "#penny-hand");
    both_sides_pass_the_circumstances(&session);
    declare_and_roll(&session, "Ada and Bo", &[], &["3"], &["6"]);

    session.wait_for("#penny-pass[data-side='challenger'][data-task='bet']");
    press(&session, &format!(".penny-offer-loan[data-lender='character:{cy}']"));
    let options: Vec<String> = session
        .execute(
            "return [...document.querySelectorAll('#penny-loan-side option')].map((o) => o.textContent);",
            json!([]),
        )
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(options, vec!["Ada (Ada and Bo)", "Bo (Ada and Bo)"], "each ally of the side, by name");
    session.click(&format!("#penny-loan-side option[value='challenger:{bo}']"));
    type_into(&session, "#penny-loan-amount", "4");
    shots_of(&session, "penny-loan-ally", "#penny-lenders");
    press(&session, "#penny-loan-offer");
    session.wait_for("#penny-offer");
    assert!(text_of(&session, "#penny-offer").contains("Cy offers Bo 4 pennies"));
    pass_to(&session, "challenger", "loan", "Ada and Bo");
    assert_eq!(
        text_of(&session, "#penny-loan-words"),
        "Cy offers Bo a loan of 4 pennies, due before the next adventure."
    );
    shots_of(&session, "penny-loan-ally-answer", "#penny-private");
    press(&session, "#penny-loan-accept");
    pass_to(&session, "challenger", "bet", "Ada and Bo");

    let conn = db(&db_path);
    assert_eq!(pile(&conn, &game, "character", Some(&bo)), 27, "Bo: 25 − 2 ante + 4 borrowed");
    assert_eq!(pile(&conn, &game, "character", Some(&ada)), 23, "Ada: 25 − 2 ante, no loan");
    let borrower: String =
        conn.query_row("SELECT borrower_id FROM pa_loans WHERE game_id = ?1", [&game], |r| r.get(0)).expect("one loan");
    assert_eq!(borrower, bo, "Bo owes the loan");

    // D-PA6: the side folds; in Cy's next challenge Bo lends her 6, which first pays back his 4.
    press(&session, "#penny-fold");
    session.wait_for("#penny-result");
    press(&session, "#penny-new-challenge");
    session.wait_for("#penny-setup-form");
    type_into(&session, "#penny-stake", "Cross the river");
    type_into(&session, "#penny-ante", "2");
    session.click(&format!("#penny-challenger option[value='character:{cy}']"));
    press(&session, "#penny-start-challenge");
    session.wait_text("#penny-pot", "4");
    both_sides_pass_the_circumstances(&session);
    declare_and_roll(&session, "Cy", &[], &["3"], &["6"]);
    session.wait_for("#penny-pass[data-side='challenger'][data-task='bet']");
    press(&session, &format!(".penny-offer-loan[data-lender='character:{bo}']"));
    assert_eq!(text_of(&session, "#penny-loan-repays"), "Bo owes Cy 4 pennies: this loan pays that back first.");
    type_into(&session, "#penny-loan-amount", "6");
    shots_of(&session, "penny-loan-repays", "#penny-lenders");
    press(&session, "#penny-loan-offer");
    pass_to(&session, "challenger", "loan", "Cy");
    press(&session, "#penny-loan-accept");
    pass_to(&session, "challenger", "bet", "Cy");
    let conn = db(&db_path);
    let loans: Vec<(String, String, i64, i64)> = conn
        .prepare("SELECT lender_id, borrower_id, amount, repaid FROM pa_loans WHERE game_id = ?1 ORDER BY position")
        .unwrap()
        .query_map([&game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(loans, vec![(cy.clone(), bo.clone(), 4, 4), (bo.clone(), cy.clone(), 2, 0)], "4 repaid, 2 lent anew");
}

/// Issue 32: the reroll decides nothing (RULES.md §2.3 step 4: each cup is rerolled, still
/// hidden). With the dice rolled here it takes one tap a side on the table, and no side's cup
/// is shown for it (it was the pass screen, the cup shown, Reroll, and the cup hidden again:
/// 3 taps a side); each side sees its new dice at its next bet.
#[test]
fn each_cup_is_rerolled_unseen_in_one_tap() {
    let (_window, _scratch, _db_path, session) = begin_with("penny-reroll-unseen", open);
    ada_at_the_table(&session, "Reroll Night");
    issue(&session, "Outrun the rain", "1");
    press(&session, "#penny-start-challenge");
    session.wait_text("#penny-pot", "2");
    both_sides_pass_the_circumstances(&session);
    let both = [("challenger", "Ada"), ("opponent", "the House")];
    // Each side in turn, behind the pass screen, does `task` with one tap on `button`.
    let each_side = |task: &str, button: &str| {
        for (side, name) in both {
            pass_to(&session, side, task, name);
            press(&session, button);
        }
    };
    each_side("characteristics", "#penny-char-submit");
    // One die each, rolled here and put in the cup.
    for (side, name) in both {
        pass_to(&session, side, "roll", name);
        press(&session, "#penny-roll");
        session.wait_for("#penny-cup-0");
        if session.wait_for("#penny-cup-0").attribute("aria-pressed").as_deref() != Some("true") {
            press(&session, "#penny-cup-0");
        }
        press(&session, "#penny-cup-submit");
    }
    each_side("bet", "#penny-stand");
    each_side("new_circumstance", "#penny-nc-pass");

    // The rerolls: one tap each, on the table, nobody's cup on screen.
    let mut taps = 0;
    for (side, name) in both {
        session.wait_for(&format!("#penny-pass[data-side='{side}'][data-task='reroll']"));
        assert!(text_of(&session, "#penny-reroll-unseen").starts_with(&format!("Reroll {name}'s cup unseen (1 die)")));
        if side == "challenger" {
            // Both cups are offered: the House's may go first as well.
            assert!(text_of(&session, "#penny-reroll-unseen-opponent").starts_with("Reroll the House's cup unseen"));
            shots_of(&session, "penny-reroll-unseen", "#penny-action");
            in_dark(&session, || shots_of(&session, "penny-reroll-unseen-dark", "#penny-action"));
        }
        press(&session, "#penny-reroll-unseen");
        taps += 1;
        assert!(session.find("#penny-private").is_err(), "no cup is shown for the reroll");
    }
    session.wait_for("#penny-pass[data-side='challenger'][data-task='bet']");
    assert_eq!(taps, 2, "both cups rerolled in 2 taps (was 6)");
    assert!(text_of(&session, ".penny-side[data-side='challenger']").contains("0 showing, 1 in the cup"));
    // Ada sees her rerolled die at her next bet, behind the pass screen as before.
    pass_to(&session, "challenger", "bet", "Ada");
    session.wait_for("#penny-stand");
}
