//! Mezzo's one-tap action check (issue 32), driven like a person and every tap counted from
//! the sheet: a tap on Mira's trait opens the check with her acting and the trait's vote
//! counted, each side's chance in one line beside Roll (focused) before any die, nothing to
//! type; Roll and Resolve settle it — 3 taps; Roll again rolls the same set-up; the attempt
//! left empty is written later on the check's log entry; a changed
//! choice (the failure made common) changes the odds at once, as the core counts them.
//! Screenshots at 1280 and 360 px, light and dark.

use serde_json::json;

use crate::mezzo::{
    choose, dismiss_toast, first_edge, open_element_sheet, press, shots_of, text_of, type_into, wait_contains,
};
use crate::mezzo_play::table;
use crate::webdriver::Session;
use crate::{begin_with, in_dark, on_screen, open, Taps};

/// Waits for the resolved check. A tie (a d8 and a d4 show the same face one time in 8) is a
/// step of its own, which the table may settle by a compromise instead: here its d12s are
/// rolled until it is broken. Returns whether it was tied.
fn resolved(session: &Session) -> bool {
    let mut tied = false;
    loop {
        let next = session.wait_until("the result, or a tie", || {
            if session.find("#mzc-result").is_ok_and(|e| e.is_displayed()) {
                Some(false)
            } else if session.find("#mzc-break-tie").is_ok_and(|e| e.is_displayed()) {
                Some(true)
            } else {
                None
            }
        });
        if !next {
            return tied;
        }
        tied = true;
        session.execute("document.getElementById('mzc-tie-summary').dataset.old = 'yes';", json!([]));
        press(session, "#mzc-break-tie");
        session.wait_gone("#mzc-tie-summary[data-old='yes']");
    }
}

#[test]
fn a_trait_on_the_sheet_checks_to_a_resolved_result_in_three_taps_and_rolls_again() {
    let (_window, _scratch, db_path, session) = begin_with("mezzo-quick-check", open);
    let (_game, ada, _bo, mira, _key) = table(&session, "Quick Night");
    // Ada claims Mira (her edge slots), then Mira gets an edge on her sheet.
    crate::mezzo::claim(&session, &ada, &mira, "Mira");
    press(&session, "#mezzo-tab-elements");
    open_element_sheet(&session, &mira, "Mira");
    let trait_id = first_edge(&session, "Quick Hands");
    dismiss_toast(&session);

    // Tap 1: the trait. Mira acts (common, 2 votes, and her edge's +1: a d8) against the
    // failure (occasional, 1 vote: a d4); the chances are on screen at once, Roll focused.
    let mut taps = Taps::new(&session, press);
    taps.tap(&format!(".mz-trait[data-trait-id='{trait_id}'] .mz-trait-act"));
    session.wait_for("#mezzo-tab-check[aria-current='page']");
    session.wait_for("#mzc-roll-quick");
    assert_eq!(session.execute("return document.getElementById('mzc-actor-0').value;", json!([])), json!(mira));
    // A d8 against a d4, a tie shared evenly: (22 + 2) of 32 for Mira.
    session.wait_text("#mzc-odds-summary", "Mira 75.0% · Failure 25.0%");
    assert!(on_screen(&session, "#mzc-odds-summary"), "the chances are on screen at once");
    assert!(on_screen(&session, "#mzc-roll-quick"), "and Roll beside them");
    session.wait_until("Roll focused", || {
        (session.execute("return document.activeElement && document.activeElement.id;", json!([]))
            == json!("mzc-roll-quick"))
        .then_some(())
    });
    assert_eq!(session.execute("return document.getElementById('mzc-description').value;", json!([])), json!(""));
    shots_of(&session, "mezzo-quick-check", "#mzc-quick-bar");
    in_dark(&session, || shots_of(&session, "mezzo-quick-check-dark", "#mzc-quick-bar"));

    // Tap 2: Roll, nothing typed. Tap 3: Resolve.
    taps.tap("#mzc-roll-quick");
    session.wait_for("#mzc-rolled");
    taps.tap("#mzc-resolve");
    let tied = resolved(&session);
    wait_contains(&session, "#mzc-result-heading", "Resolved: the action check");
    assert!(taps.count <= 3, "sheet → resolved check in {} taps (a tie broken after them: {tied})", taps.count);
    shots_of(&session, "mezzo-quick-check-result", "#mzc-result");
    in_dark(&session, || shots_of(&session, "mezzo-quick-check-result-dark", "#mzc-result"));

    // Roll again: the same set-up, rolled at once; Resolve settles it.
    let first = text_of(&session, "#mzc-summary");
    press(&session, "#mzc-roll-again");
    session.wait_for("#mzc-rolled");
    press(&session, "#mzc-resolve");
    resolved(&session);
    assert!(!first.is_empty());
    press(&session, "#mezzo-tab-log");
    let log = text_of(&session, "#mz-log-list");
    assert_eq!(log.matches("Action check resolved.").count(), 2, "two checks of the same set-up: {log}");

    // Nothing was typed as the attempt: it is written later, on the check's log entry.
    let open_form = session.wait_for("#mz-log-list .mz-attempt-open").attribute("id").expect("an id");
    let seq = open_form.trim_start_matches("mz-attempt-").trim_end_matches("-open").to_owned();
    press(&session, &format!("#{open_form}"));
    type_into(&session, &format!("#mz-attempt-{seq}-text"), "Pick the harbour lock");
    press(&session, &format!("#mz-attempt-{seq}-save"));
    wait_contains(&session, &format!("#mz-attempt-{seq}-written"), "Attempted: “Pick the harbour lock”");
    let kept: String = crate::mezzo::db(&db_path)
        .query_row(
            "SELECT json_extract(payload, '$.attempt') FROM events WHERE kind = 'mezzo_check_attempt_written'",
            [],
            |r| r.get(0),
        )
        .expect("the words are in the log");
    assert_eq!(kept, "Pick the harbour lock");
    let entry = format!("#mz-log-list li[data-seq='{seq}']");
    shots_of(&session, "mezzo-check-attempt-written", &entry);
    in_dark(&session, || shots_of(&session, "mezzo-check-attempt-written-dark", &entry));

    // A changed choice changes the chances at once: the failure made common (a d6).
    press(&session, "#mezzo-tab-check");
    press(&session, "#mzc-new");
    dismiss_toast(&session);
    press(&session, "#mezzo-tab-elements");
    // The tab shows Mira's sheet again, as it was left.
    session.wait_text("#mz-sheet-heading", "Mira");
    press(&session, &format!(".mz-trait[data-trait-id='{trait_id}'] .mz-trait-act"));
    session.wait_text("#mzc-odds-summary", "Mira 75.0% · Failure 25.0%");
    choose(&session, "#mzc-failure-chance", "common");
    session.wait_until("the chances to change", || {
        let now = text_of(&session, "#mzc-odds-summary");
        (now != "Mira 75.0% · Failure 25.0%" && now.starts_with("Mira ")).then_some(now)
    });
    let failure = text_of(&session, "#mzc-odds-pct-1");
    wait_contains(&session, "#mzc-odds-summary", &format!("Failure {failure}"));
}
