//! DEV-1 at a linked table: a seated Mezzo player casts their conflict votes on their own
//! phone. The real window is Bo's phone, joined to the table's device in this process (the
//! Mezzo plot game; Bo claims nothing and holds 3 influence). The table opens "Does the old
//! bridge hold?" for votes; Bo's phone shows it, Bo gives his free vote, 1 influence and the
//! game's Law of the Tides to "It falls", and the table's database holds his ballot; the table
//! resolves with it (Ada's influence for "It falls" and Cy's vote for "It holds" added there):
//! 4 votes to 1, "It falls"
//! wins and Bo has paid 1 influence. A refusal on the phone stays shown while newer copies of
//! the table arrive, until Bo dismisses it.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sheetkeeper::link::{Claimed, HostHandle, JoinHandle};
use sheetkeeper::rules::mezzo::action_check::{Cast, Law};
use sheetkeeper::rules::mezzo::ballot::Direction;
use sheetkeeper::rules::mezzo::vote::{ConflictCast, ConflictDraft, ConflictLaw};
use sheetkeeper::services::{self, Approach, DiceInput, GameMove};
use sheetkeeper::Store;
use uuid::Uuid;

use crate::link_notes::{host_in_window, host_table, join_in_process, join_in_window, on_the_table, tap, wait_for};
use crate::mezzo::{choose, conflict_options, press, type_into, wait_contains};
use crate::webdriver::Session;
use crate::{one_window, shots_at_both_widths, Scratch};

const GAME: &str = "The Drowned Cove";
const ADA: &str = "1b2c3d4e-5f60-4a71-8b82-9c0d1e2f3a40";
const BO: &str = "2c3d4e5f-6071-4b82-9c93-ad1e2f3a4b51";
const CY: &str = "3d4e5f60-7182-4c93-8da4-be2f3a4b5c62";
const TOMAS: &str = "5f607182-93a4-4eb5-8fc6-d04b5c6d7e84";
/// The game's own Setting Law, the Law of the Tides.
const TIDES: &str = "70000000-0000-4000-8000-000000000050";
/// Tomas's flaw Hungover.
const HUNGOVER: &str = "70000000-0000-4000-8000-000000000016";

fn plot_game() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/mezzo-plot-game.sheetkeeper.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the Mezzo plot fixture")).expect("JSON")
}

fn id(text: &str) -> Uuid {
    Uuid::parse_str(text).expect("an id")
}

/// The Mezzo plot game on the table's device, hosted, and Bo's phone (the real window) joined
/// and seated as Bo: the table's and the phone's databases, the game, the host, the phone.
fn bos_phone_at_the_table(scratch: &Scratch) -> (PathBuf, PathBuf, Uuid, HostHandle, Session) {
    bos_phone_at_the_table_with(scratch, &plot_game())
}

/// `bos_phone_at_the_table` with the game file `file` (the plot game, changed).
fn bos_phone_at_the_table_with(scratch: &Scratch, file: &Value) -> (PathBuf, PathBuf, Uuid, HostHandle, Session) {
    let [table_db, phone_db] = ["table.db", "phone.db"].map(|db| scratch.path(db));
    let game = on_the_table(scratch, &table_db, file);
    let (host, addr) = host_table(&table_db, game);
    let code = host.status().code;
    let phone = join_in_window(&phone_db, "Bo's phone", addr, &code, GAME);

    // Bo's phone asks to sit as Bo; the table's person approves.
    tap(&phone, "#game-mezzo");
    tap(&phone, "#mezzo-tab-deck");
    tap(&phone, &format!("#mzd-me-{BO}"));
    let asked = wait_for("the table to be asked", || host.status().claims.into_iter().find(|c| c.character == id(BO)));
    host.approve_claim(asked.device, id(BO)).expect("the table's person seats the phone as Bo");
    phone.wait_for(&format!("#mzd-show-{BO}"));
    (table_db, phone_db, game, host, phone)
}

/// The Mezzo plot game on the table's device, the real window, hosting it; Bo's phone joined
/// in this process and seated as Bo (approved on the window): the table's database, the game,
/// the window, the phone.
fn table_window_with_bos_phone(scratch: &Scratch) -> (PathBuf, Uuid, Session, JoinHandle) {
    let [table_db, phone_db] = ["table.db", "phone.db"].map(|db| scratch.path(db));
    let game = on_the_table(scratch, &table_db, &plot_game());
    let (window, code, addr) = host_in_window(&table_db, GAME);

    // Bo's phone joins and asks to sit as Bo; the table's person approves on the window.
    let phone = join_in_process(&phone_db, addr, &code, "Bo's phone");
    assert_eq!(phone.claim(id(BO)).expect("the claim reaches the table"), Claimed::Asked);
    tap(&window, &format!(".link-claim-request[data-character='{BO}'] .link-claim-approve"));
    wait_for("Bo to be the phone's", || phone.status().claims.is_empty().then_some(()));
    (table_db, game, window, phone)
}

/// Waits until the window's table feed has read as far as the table's log goes now.
fn feed_read_to_the_end(window: &Session, table_db: &Path, game: Uuid) {
    let store = Store::open(table_db).expect("the table's database");
    let last = services::game_feed(&store, game, 0).expect("the table's feed").last().map_or(0, |c| c.seq);
    window.wait_until("the feed to have read the table's latest entry", || {
        let since =
            window.execute("return document.getElementById('feed')?.dataset.since ?? null;", serde_json::json!([]));
        since.as_str()?.parse::<i64>().ok().filter(|&s| s >= last)
    });
}

/// Bo's ballot as the table's device holds it, once there is one.
fn bos_ballot_at_the_table(table_db: &Path, game: Uuid) -> Option<Vec<ConflictCast>> {
    let store = Store::open(table_db).expect("the table's database");
    let open = services::mezzo_open_conflict(&store, game).expect("the table's open conflict")?;
    open.ballots.into_iter().find(|b| b.player == id(BO)).map(|b| b.casts)
}

#[test]
fn a_seated_player_votes_on_their_phone_and_the_table_resolves_with_the_votes() {
    let _window = one_window();
    let scratch = Scratch::new("mezzo-linked-votes");
    let (table_db, phone_db, game, _host, phone) = bos_phone_at_the_table(&scratch);

    // The table opens the conflict for votes; it reaches Bo's phone with the next update.
    let draft = ConflictDraft {
        question: "Does the old bridge hold?".into(),
        options: vec!["It holds".into(), "It falls".into()],
        about: vec![],
        active_in_scene: vec![],
        casts: vec![],
    };
    {
        let mut table = Store::open(&table_db).expect("the table's database");
        services::mezzo_open_conflict_for_votes(&mut table, game, &draft).expect("the table opens the conflict");
    }
    wait_for("the open conflict to reach the phone", || {
        let store = Store::open(&phone_db).expect("the phone's database");
        services::mezzo_open_conflict(&store, game).expect("the phone's copy")
    });
    tap(&phone, "#mezzo-tab-conflict");
    phone.wait_text("#mz-open-question", "Does the old bridge hold?");
    wait_contains(&phone, "#mz-ballots-none", "Nobody has voted");
    // The seat's toast goes first and the screen settles.
    crate::mezzo::dismiss_toast(&phone);
    phone.wait_settled();

    // More influence than Bo holds is refused, naming the cast, and nothing reaches the table.
    choose(&phone, &format!("#mz-ballot-free-0-{BO}"), "1");
    type_on_phone(&phone, &format!("#mz-ballot-influence-points-{BO}"), "4");
    choose(&phone, &format!("#mz-ballot-influence-option-{BO}"), "1");
    tap(&phone, &format!("#mz-ballot-cast-{BO}"));
    let said = wait_contains(&phone, "#error-message", "Bo holds 3 influence, not 4");
    assert!(said.contains("casts[1].points"), "the refusal names the field: {said}");
    assert_eq!(bos_ballot_at_the_table(&table_db, game), None, "a refusal changes nothing at the table");
    // A newer copy of the table arriving meanwhile leaves the refusal for Bo to read: Ada
    // casts 1 influence for "It falls" on the table's device, and the phone draws it.
    {
        let mut table = Store::open(&table_db).expect("the table's database");
        let ada = [ConflictCast::Influence { player: id(ADA), option: 1, points: 1 }];
        services::mezzo_cast_ballot(&mut table, game, id(ADA), &ada).expect("Ada's ballot at the table");
    }
    wait_contains(&phone, &format!("#mz-ballot-{ADA}"), "Ada:");
    wait_contains(&phone, "#error-message", "Bo holds 3 influence, not 4");
    phone.execute("window.scrollTo(0, 0);", serde_json::json!([]));
    shots_at_both_widths(&phone, "mezzo-linked-votes-refused");
    tap(&phone, "#error-dismiss");
    phone.wait_gone("#error-message");

    // Bo casts his free vote, 1 influence and the game's own Law of the Tides for "It falls"
    // (his phone offers the sources he may use, as the table's form does): the table holds
    // his ballot.
    type_on_phone(&phone, &format!("#mz-ballot-influence-points-{BO}"), "1");
    choose(&phone, &format!("#mz-ballot-law-{BO}"), &format!("custom:{TIDES}"));
    choose(&phone, &format!("#mz-ballot-law-option-{BO}"), "1");
    tap(&phone, &format!("#mz-ballot-cast-{BO}"));
    let ballot = wait_for("Bo's ballot at the table", || bos_ballot_at_the_table(&table_db, game));
    assert_eq!(
        ballot,
        vec![
            ConflictCast::Free { player: id(BO), option: 1, votes: 1 },
            ConflictCast::Law {
                player: id(BO),
                option: 1,
                law: ConflictLaw::Custom { id: id(TIDES), direction: Direction::For }
            },
            ConflictCast::Influence { player: id(BO), option: 1, points: 1 },
        ]
    );
    let listed = wait_contains(&phone, &format!("#mz-ballot-{BO}"), "Bo:");
    assert_eq!(listed, "Bo: 1 free vote for “It falls”; a law for “It falls”; 1 influence for “It falls”");
    // His form shows the ballot as cast.
    let law = phone.execute(
        "return document.querySelector(arguments[0]).value;",
        serde_json::json!([format!("#mz-ballot-law-{BO}")]),
    );
    assert_eq!(law, serde_json::json!(format!("custom:{TIDES}")));
    phone.wait_text(&format!("#mz-ballot-cast-{BO}"), "Change my votes");
    shots_at_both_widths(&phone, "mezzo-linked-votes");
    crate::in_dark(&phone, || crate::shot(&phone, "mezzo-linked-votes-dark"));

    // The table resolves, adding Cy's free vote for "It holds": Bo's 2 votes count.
    let mut table = Store::open(&table_db).expect("the table's database");
    let preview = services::mezzo_conflict_preview(
        &table,
        game,
        &services::mezzo_open_conflict_draft(&table, game, &[]).expect("the open conflict"),
        &[],
    )
    .expect("the odds");
    assert_eq!(preview.counts, vec![0, 4], "Bo's ballot and Ada's count at the table");
    let outcome = services::mezzo_resolve_open_conflict(
        &mut table,
        game,
        &[ConflictCast::Free { player: id(CY), option: 0, votes: 1 }],
        &Approach::TakeMedian { selections: vec![] },
        &DiceInput::Rolled,
        &mut rand::rng(),
    )
    .expect("the table resolves");
    assert_eq!((outcome.result.counts.clone(), outcome.result.summary.as_str()), (vec![1, 4], "“It falls” wins."));
    let bo =
        services::mezzo_table(&table, game).expect("the table").players.into_iter().find(|p| p.player.id == id(BO));
    assert_eq!(bo.expect("Bo").player.influence, 2, "Bo's influence is paid at the resolve");
    drop(table);
    // The phone's conflict tab is back to the table's own composer: nothing is open.
    wait_for("the closed conflict to reach the phone", || {
        let store = Store::open(&phone_db).expect("the phone's database");
        services::mezzo_open_conflict(&store, game).expect("the phone's copy").is_none().then_some(())
    });
    phone.wait_gone("#mz-open-question");
}

/// DEV-1/DEV-2, an action check: the table opens "Tomas climbs the lighthouse" (Tomas common,
/// the fall occasional) for votes; Bo's phone shows its sides and the ballot Bo cast before (2
/// influence for the fall) in his form, and Bo changes it to the Law of the Tides and 1
/// influence for Tomas on the same form the table uses for a player; the table's
/// database holds his ballot, the phone lists it. The table rolls with it (Tomas 4 votes, the
/// fall 1) and the resolve pays Bo's influence; the phone's check tab is the table's own again.
#[test]
fn a_seated_player_votes_in_an_action_check_on_their_phone_and_the_table_resolves_with_it() {
    let _window = one_window();
    let scratch = Scratch::new("mezzo-linked-check-votes");
    // Tomas holds 1 adversity: a flaw overcome (2) takes it and 1 of debt.
    let mut file = plot_game();
    let mut characters = file["data"]["games"][0]["characters"].as_array_mut().expect("characters").iter_mut();
    let tomas = characters.find(|c| c["id"] == TOMAS).expect("Tomas in the plot game");
    tomas["mezzo"]["adversity"] = 1.into();
    let (table_db, phone_db, game, _host, phone) = bos_phone_at_the_table_with(&scratch, &file);
    let climb = crate::mezzo_drafts::climb(id(TOMAS), vec![]);
    // The table opens the check; Bo's first ballot (2 influence for the fall) is already in,
    // as if cast from this phone before the app was opened again.
    {
        let mut table = Store::open(&table_db).expect("the table's database");
        services::mezzo_open_check_for_votes(&mut table, game, &climb).expect("the table opens the check");
        let first = [Cast::Influence { player: id(BO), side: 1, points: 2 }];
        services::mezzo_cast_check_ballot(&mut table, game, id(BO), &first).expect("Bo's first ballot");
    }
    wait_for("the open check to reach the phone", || {
        let store = Store::open(&phone_db).expect("the phone's database");
        services::mezzo_open_check(&store, game).expect("the phone's copy").filter(|o| !o.ballots.is_empty())
    });
    tap(&phone, "#mezzo-tab-check");
    phone.wait_text("#mzc-open-description", "Tomas climbs the lighthouse");
    wait_contains(&phone, "#mzc-open-sides", "Failure (“He falls”)");
    wait_contains(&phone, &format!("#mz-ballot-{BO}"), "Bo: 2 influence for “Failure (“He falls”)”");
    // His form starts from that ballot, to be changed.
    phone.wait_text(&format!("#mzc-ballot-cast-{BO}"), "Change my votes");
    let form = phone.execute(
        "return [arguments[0], arguments[1]].map((s) => document.querySelector(s).value);",
        serde_json::json!([format!("#mzc-ballot-influence-{BO}"), format!("#mzc-ballot-influence-side-{BO}")]),
    );
    assert_eq!(form, serde_json::json!(["2", "1"]));
    crate::mezzo::dismiss_toast(&phone);
    phone.wait_settled();

    // Bo changes his ballot: the Law of the Tides and 1 influence for Tomas's climb, and
    // Tomas (nobody's) overcomes his flaw Hungover: his 1 adversity and 1 taken as debt.
    choose(&phone, &format!("#mzc-ballot-law-{BO}"), &format!("custom:{TIDES}"));
    choose(&phone, &format!("#mzc-ballot-law-side-{BO}"), "0");
    type_on_phone(&phone, &format!("#mzc-ballot-influence-{BO}"), "1");
    choose(&phone, &format!("#mzc-ballot-influence-side-{BO}"), "0");
    choose(&phone, &format!("#mzc-ballot-flaw-{BO}-{TOMAS}"), HUNGOVER);
    tap(&phone, &format!("#mzc-ballot-debt-{BO}-{TOMAS}"));
    tap(&phone, &format!("#mzc-ballot-cast-{BO}"));
    let ballot = wait_for("Bo's changed check ballot at the table", || {
        let store = Store::open(&table_db).expect("the table's database");
        let open = services::mezzo_open_check(&store, game).expect("the table's open check")?;
        open.ballots.into_iter().find(|b| b.player == id(BO)).map(|b| b.casts).filter(|c| c.len() == 3)
    });
    assert_eq!(
        ballot,
        vec![
            Cast::Law { player: id(BO), side: 0, law: Law::Custom { id: id(TIDES) }, direction: Direction::For },
            Cast::Influence { player: id(BO), side: 0, points: 1 },
            Cast::OvercomeFlaw { element: id(TOMAS), flaw: id(HUNGOVER), by: id(BO), allow_debt: true },
        ]
    );
    let listed = wait_contains(&phone, &format!("#mz-ballot-{BO}"), "Bo: a law");
    assert_eq!(listed, "Bo: a law for “Tomas”; 1 influence for “Tomas”; a flaw overcome");
    phone.execute("window.scrollTo(0, 0);", serde_json::json!([]));
    shots_at_both_widths(&phone, "mezzo-linked-check-votes");
    crate::in_dark(&phone, || crate::shot(&phone, "mezzo-linked-check-votes-dark"));

    // The table rolls with Bo's ballot (Tomas: 2 + the law + 1 influence; the fall: 1) and
    // resolves: Bo has paid his influence, and the vote is closed.
    let mut table = Store::open(&table_db).expect("the table's database");
    let pending = services::mezzo_roll_open_check(&mut table, game, &[], &[], &DiceInput::Rolled, &mut rand::rng())
        .expect("the table rolls");
    assert_eq!((pending.tallies[0].total, pending.tallies[1].total), (4, 1), "Bo's ballot counts at the table");
    if !pending.open_bursts.is_empty() {
        services::mezzo_check_burst(&mut table, game, &[], &DiceInput::Rolled, &mut rand::rng()).expect("kept");
    }
    services::mezzo_check_resolve(&mut table, game, &[]).expect("the table resolves");
    let bo =
        services::mezzo_table(&table, game).expect("the table").players.into_iter().find(|p| p.player.id == id(BO));
    assert_eq!(bo.expect("Bo").player.influence, 2, "Bo's influence is paid at the resolve");
    let tomas = services::mezzo_table(&table, game)
        .expect("the table")
        .characters
        .into_iter()
        .find(|c| c.element.id == id(TOMAS));
    let tomas = tomas.expect("Tomas").element;
    assert_eq!((tomas.adversity, tomas.adversity_debt), (0, 1), "the flaw overcome is paid at the resolve");
    drop(table);
    wait_for("the closed check to reach the phone", || {
        let store = Store::open(&phone_db).expect("the phone's database");
        services::mezzo_open_check(&store, game).expect("the phone's copy").is_none().then_some(())
    });
    phone.wait_gone("#mzc-open-description");
}

/// The other side: the real window is the table's device, hosting the game; Bo's phone is a
/// device in this process, seated as Bo. The table sets up "Does the old bridge hold?" and opens
/// it for votes; Bo's ballot from his phone shows under "Who has voted" (and Bo is no longer
/// among the players who vote on the table's device); the table adds Cy's free vote for "It
/// holds" and takes the median: "It falls" wins, 2 votes to 1, and Bo has paid 1 influence.
#[test]
fn the_tables_window_lists_a_phones_ballot_and_resolves_with_it() {
    let _window = one_window();
    let scratch = Scratch::new("mezzo-table-votes");
    let (table_db, game, window, phone) = table_window_with_bos_phone(&scratch);

    // The table sets the conflict up, with its approach (chosen before any vote is cast), and
    // opens it for votes on phones.
    tap(&window, "#game-mezzo");
    tap(&window, "#mezzo-tab-conflict");
    conflict_options(&window, "Does the old bridge hold?", &["It holds", "It falls"]);
    press(&window, "#mz-approach-take_median");
    tap(&window, "#mz-open-for-votes-submit");
    window.wait_text("#mz-open-question", "Does the old bridge hold?");
    wait_contains(&window, "#mz-ballots-none", "Nobody has voted");

    // Bo votes on his phone: his free vote and 1 influence for "It falls".
    let casts = vec![
        ConflictCast::Free { player: id(BO), option: 1, votes: 1 },
        ConflictCast::Influence { player: id(BO), option: 1, points: 1 },
    ];
    phone.submit_move(GameMove::MezzoBallot { player: id(BO), casts }).expect("the table takes Bo's ballot");
    let listed = wait_contains(&window, &format!("#mz-ballot-{BO}"), "Bo:");
    assert_eq!(listed, "Bo: 1 free vote for “It falls”; 1 influence for “It falls”");
    window.wait_gone(&format!("#mz-free-0-{BO}"));

    // The table takes the median with Cy's free vote for "It holds": Bo's 2 votes count.
    choose(&window, &format!("#mz-free-0-{CY}"), "0");
    window.wait_text("#mz-votes-1", "2 votes");
    window.wait_text("#mz-votes-0", "1 vote");
    window.execute(
        "document.getElementById('mz-open-conflict').scrollIntoView({ block: 'start' });",
        serde_json::json!([]),
    );
    shots_at_both_widths(&window, "mezzo-table-votes");
    tap(&window, "#mz-resolve-submit");
    wait_contains(&window, "#mz-result", "“It falls” wins.");
    let store = Store::open(&table_db).expect("the table's database");
    let bo =
        services::mezzo_table(&store, game).expect("the table").players.into_iter().find(|p| p.player.id == id(BO));
    assert_eq!(bo.expect("Bo").player.influence, 2, "Bo's influence is paid at the resolve");
    assert!(services::mezzo_open_conflict(&store, game).expect("the table").is_none(), "the conflict is closed");
    drop(phone);
}

/// The table's side of an action check open for votes: the real window is the table's device;
/// Bo's phone is a device in this process, seated as Bo. The table sets up "Tomas climbs the
/// lighthouse" and opens it for votes; Bo's ballot from his phone (the Law of the Tides and 1
/// influence for Tomas) shows under "Who has voted" and Bo leaves the table's own form; the
/// table rolls its dice by hand (6 for Tomas, 2 for the fall) and resolves: Tomas climbs, and
/// Bo has paid 1 influence.
#[test]
fn the_tables_window_opens_a_check_for_votes_and_rolls_with_a_phones_ballot() {
    let _window = one_window();
    let scratch = Scratch::new("mezzo-table-check-votes");
    let (table_db, game, window, phone) = table_window_with_bos_phone(&scratch);

    tap(&window, "#game-mezzo");
    tap(&window, "#mezzo-tab-check");
    type_into(&window, "#mzc-description", "Tomas climbs the lighthouse");
    choose(&window, "#mzc-actor-0", TOMAS);
    type_into(&window, "#mzc-failure", "He falls");
    tap(&window, "#mzc-open-for-votes-submit");
    window.wait_text("#mzc-open-description", "Tomas climbs the lighthouse");
    wait_contains(&window, "#mz-ballots-none", "Nobody has voted");
    window.wait_for(&format!(".mzc-player[data-player-id='{BO}']"));

    // Bo votes on his phone: the Law of the Tides and 1 influence for Tomas.
    let casts = vec![
        Cast::Law { player: id(BO), side: 0, law: Law::Custom { id: id(TIDES) }, direction: Direction::For },
        Cast::Influence { player: id(BO), side: 0, points: 1 },
    ];
    phone.submit_move(GameMove::MezzoCheckBallot { player: id(BO), casts }).expect("the table takes Bo's ballot");
    let listed = wait_contains(&window, &format!("#mz-ballot-{BO}"), "Bo:");
    assert_eq!(listed, "Bo: a law for “Tomas”; 1 influence for “Tomas”");
    window.wait_gone(&format!(".mzc-player[data-player-id='{BO}']"));
    // The table feed's passing cards (Bo voted…) float over the screen for a few seconds;
    // the screenshots are of the screen once they have gone: once the feed has read every
    // entry the table holds (before that, no card may have come yet), then none is left.
    feed_read_to_the_end(&window, &table_db, game);
    window.wait_gone("#feed .feed-card");
    window.execute(
        "document.getElementById('mzc-open-check').scrollIntoView({ block: 'start' });",
        serde_json::json!([]),
    );
    shots_at_both_widths(&window, "mezzo-table-check-votes");

    // The dice by hand: 6 for Tomas (4 votes, no burst), 2 for the fall (1 vote).
    press(&window, "#mzc-hand");
    window.wait_for("#mzc-die-2");
    type_into(&window, "#mzc-die-1", "6");
    type_into(&window, "#mzc-die-2", "2");
    press(&window, "#mzc-roll");
    window.wait_for("#mzc-rolled");
    press(&window, "#mzc-resolve");
    wait_contains(&window, "#mzc-summary", "Tomas");
    let store = Store::open(&table_db).expect("the table's database");
    let bo =
        services::mezzo_table(&store, game).expect("the table").players.into_iter().find(|p| p.player.id == id(BO));
    assert_eq!(bo.expect("Bo").player.influence, 2, "Bo's influence is paid at the resolve");
    assert!(services::mezzo_open_check(&store, game).expect("the table").is_none(), "the vote is closed");
    drop(phone);
}

/// Types `text` into the phone's field `selector` in place of what it held, as a person does:
/// a tap on the box, everything in it selected, the keys. A joined device's screen is drawn
/// anew whenever a newer copy of the table arrives, at a moment the test cannot know (not
/// while a box has the focus, but a redraw already under way when the box is tapped still
/// lands): the keys go to whatever has the focus, which the redraw keeps on the box of the
/// same id, and the form keeps what was typed; so no element found before it goes stale here.
fn type_on_phone(phone: &Session, selector: &str, text: &str) {
    const CONTROL: &str = "\u{E009}";
    press(phone, selector);
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let singles: Vec<[&str; 1]> = chars.iter().map(|c| [c.as_str()]).collect();
    let mut keys: Vec<&[&str]> = vec![&[CONTROL, "a"]];
    keys.extend(singles.iter().map(|k| &k[..]));
    phone.press_keys(&keys);
    phone.wait_until(&format!("{selector} to hold {text:?}"), || {
        let now =
            phone.execute("return document.querySelector(arguments[0])?.value ?? null;", serde_json::json!([selector]));
        (now == serde_json::json!(text)).then_some(())
    });
}
