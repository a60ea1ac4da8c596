//! DEV-1 at a linked table: a Mezzo player who claims no character plays their own seed cards
//! from their own phone. The real window is Bo's phone, joined through "Join a table nearby"
//! to the table's device in this process (the Mezzo plot game: Bo holds "a ghost", Ada "a
//! wreck"). "I am Bo" asks the table, as a character is claimed; once the table's person
//! approves, Bo's hand opens on the phone, and playing "a ghost" is made by the table's device:
//! the card lies face up before Bo there and on the phone.

use std::path::Path;

use serde_json::Value;
use sheetkeeper::services;
use sheetkeeper::Store;
use uuid::Uuid;

use crate::link_notes::{host_table, join_in_window, on_the_table, tap, wait_for};
use crate::{one_window, shots_at_both_widths, Scratch};

const GAME: &str = "The Drowned Cove";
const BO: &str = "2c3d4e5f-6071-4b82-9c93-ad1e2f3a4b51";
const ADA: &str = "1b2c3d4e-5f60-4a71-8b82-9c0d1e2f3a40";
const A_GHOST: &str = "71000000-0000-4000-8000-0000000000ca";

fn plot_game() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/mezzo-plot-game.sheetkeeper.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the Mezzo plot fixture")).expect("JSON")
}

/// Whether Bo's seat at the table's device shows "a ghost" face up.
fn ghost_played_at_the_table(table_db: &Path, game: Uuid) -> bool {
    let store = Store::open(table_db).expect("the table's database");
    let deck = services::mezzo_deck(&store, game).expect("the table's deck");
    let bo = Uuid::parse_str(BO).expect("Bo's id");
    deck.seats.iter().any(|s| s.player == bo && s.active.iter().any(|a| a.card.text == "a ghost"))
}

#[test]
fn a_seated_player_plays_their_own_card_from_their_phone_through_the_table() {
    let _window = one_window();
    let scratch = Scratch::new("mezzo-linked-hand");
    let [table_db, phone_db] = ["table.db", "phone.db"].map(|db| scratch.path(db));
    let game = on_the_table(&scratch, &table_db, &plot_game());
    let (host, addr) = host_table(&table_db, game);
    let code = host.status().code;
    let phone = join_in_window(&phone_db, "Bo's phone", addr, &code, GAME);

    tap(&phone, "#game-mezzo");
    tap(&phone, "#mezzo-tab-deck");
    // No hand is offered until the table seats the phone; Ada's never is.
    phone.wait_text(&format!("#mzd-me-{BO}"), "I am Bo");
    assert!(phone.find(&format!("#mzd-show-{BO}")).is_err(), "Bo's hand waits for the table");
    assert!(phone.find(&format!("#mzd-show-{ADA}")).is_err(), "Ada's hand is not offered here");
    tap(&phone, &format!("#mzd-me-{BO}"));
    let bo = Uuid::parse_str(BO).expect("Bo's id");
    let asked = wait_for("the table to be asked", || host.status().claims.into_iter().find(|c| c.character == bo));
    host.approve_claim(asked.device, bo).expect("the table's person seats the phone as Bo");

    // Bo's hand opens on his phone; he plays "a ghost", and the table's device makes the move.
    tap(&phone, &format!("#mzd-show-{BO}"));
    phone.wait_text(&format!("#mzd-text-{A_GHOST}"), "“a ghost”");
    assert!(!ghost_played_at_the_table(&table_db, game), "not played yet");
    tap(&phone, &format!("#mzd-play-{A_GHOST}"));
    phone.wait_for(&format!(".mzd-seat[data-player-id='{BO}'] .mzd-active [data-card-id='{A_GHOST}']"));
    wait_for("the table's device to hold the move", || ghost_played_at_the_table(&table_db, game).then_some(()));
    phone.wait_text(&format!("#mzd-hand-count-{BO}"), "0 cards");
    let deck = crate::mezzo::text_of(&phone, "#mzd-seats");
    assert!(!deck.contains("a wreck"), "Ada's hand stays hidden from Bo's phone: {deck}");
    shots_at_both_widths(&phone, "mezzo-linked-hand");
}
