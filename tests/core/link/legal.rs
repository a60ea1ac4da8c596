//! Every linked change is a legal move (audit finding M3): a joined player who edits their
//! own database (its SQLite, outside the app) and lets the link send it gets only what the
//! player's sheet lets them change. The host refuses the rest with the reason, the device
//! keeps the change in its refused list and shows the host's version again, and nothing
//! changes at the table. What the sheet does lets a player change still arrives.

use sheetkeeper::rules::nsu::Mood;
use sheetkeeper::rules::scattershot::sheet::{Difficulty, Purchase, Statistic};
use sheetkeeper::services::{self, SheetEdit, TableEdit};

use super::*;

/// A player edits their own database from outside the app, in one transaction.
fn tamper(db: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(DEADLINE).unwrap();
    conn.execute_batch(&format!("BEGIN IMMEDIATE; {sql}; COMMIT;")).unwrap();
}

/// The first column of the first row `sql` reads from the database at `db`, as text.
fn one(db: &Path, sql: &str) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    let value: rusqlite::types::Value = conn.query_row(sql, [], |r| r.get(0)).unwrap();
    format!("{value:?}")
}

/// The character `id` as the database at `db` lists it (None: not there).
fn listed(db: &Path, id: Uuid) -> Option<sheetkeeper::model::Character> {
    services::list(&open(db)).unwrap().into_iter().flat_map(|g| g.characters).find(|c| c.id == id).map(|c| c.character)
}

/// A character made on the player's device (it is theirs): its id, once it is at the table.
fn made_on_device(p: &Scratch, h: &Scratch, game: Uuid, name: &str) -> Uuid {
    let id = services::create_character(&mut p.open(), game, name).unwrap().id;
    eventually(&format!("{name}, made on the device, is at the table"), || listed(&h.db(), id).is_some());
    id
}

/// A table hosting a new game of `system` (with a character of the table's) and one player's
/// device linked to it.
fn table(system: &str) -> (Scratch, Scratch, Uuid, HostHandle, JoinHandle) {
    let (h, p) = (Scratch::new(), Scratch::new());
    // The table's own character: a device agrees with the host on the game's characters
    // before it sends one it made.
    let game = crate::support::game_with(&mut h.open(), "The table", system, &["The stranger"]).game.id;
    let (host, j) = paired(&h, &p, game, "The player's phone");
    (h, p, game, host, j)
}

/// The player's edit `sql` of their own database goes to the host, which refuses it: the
/// reason, which says `says`, kept on the device. Nothing changed at the table, and the
/// device shows the host's version again (`probe` reads the same from both databases).
fn refused(h: &Scratch, p: &Scratch, game: Uuid, j: &JoinHandle, sql: &str, probe: &str, says: &str) {
    caught_up(j, "the device is caught up before the edit");
    let table_before = fingerprint(&h.db());
    let host_copy = one(&h.db(), probe);
    tamper(&p.db(), sql);
    eventually("the host's refusal is kept on the device", || {
        !services::link_refused(&p.open(), game).unwrap().is_empty()
    });
    eventually("the device shows the host's version again", || one(&p.db(), probe) == host_copy);
    caught_up(j, "the device is caught up after the refusal");
    assert_eq!(fingerprint(&h.db()), table_before, "the refused change changed nothing at the table");
    let refused = services::link_refused(&p.open(), game).unwrap();
    assert_eq!(refused.len(), 1, "{refused:?}");
    services::link_dismiss_refused(&mut p.open(), refused[0].id).unwrap();
    let reason = &refused[0].reason;
    assert!(reason.contains("the change was not applied") && reason.contains(says), "{reason}");
}

/// What the player's sheet lets them change reaches the table (`reached` says when), and
/// nothing of it is refused.
fn arrives(p: &Scratch, game: Uuid, what: &str, reached: impl FnMut() -> bool) {
    eventually(what, reached);
    assert!(services::link_refused(&p.open(), game).unwrap().is_empty());
}

/// Ada at a Penny Ante table, played from her own device: her first characteristic (free),
/// one bought for 5 pennies, and an adventure running.
fn penny_ada(h: &Scratch, p: &Scratch, game: Uuid) -> Uuid {
    let ada = made_on_device(p, h, game, "Ada");
    let mut store = h.open();
    services::penny_starting_pennies(&mut store, game, ada, 30).unwrap();
    services::penny_buy_characteristic(&mut store, game, ada, "Strong").unwrap();
    services::penny_buy_characteristic(&mut store, game, ada, "Quick").unwrap();
    services::penny_start_adventure(&mut store, game, None).unwrap();
    eventually("Ada's characteristics reach her device", || {
        one(&p.db(), &characteristics(ada)) == one(&h.db(), &characteristics(ada))
    });
    ada
}

/// Reads a Penny Ante character's characteristics, carried and lost.
fn characteristics(id: Uuid) -> String {
    format!(
        "SELECT (SELECT group_concat(text, ',') FROM (SELECT text FROM pa_characteristics WHERE character_id = '{id}' \
         ORDER BY position)) || ' carried=' || carried || ' lost=' || lost FROM pa_sheets WHERE character_id = '{id}'"
    )
}

#[test]
fn m3_free_characteristics_carried_from_another_table_are_refused_during_an_adventure() {
    // The audit's reproduction: the player's database, edited while no link runs, then
    // `sheetkeeper join --once`.
    let (h, p, game, host, j) = table("penny_ante");
    let ada = penny_ada(&h, &p, game);
    caught_up(&j, "Ada's device is caught up");
    drop(j);
    let addr = addr(&host).to_string();
    let table_before = fingerprint(&h.db());
    tamper(
        &p.db(),
        &format!(
            "INSERT INTO pa_characteristics VALUES ('{ada}', 2, 'Invincible'), ('{ada}', 3, 'Immortal'), \
             ('{ada}', 4, 'Rich'); UPDATE pa_sheets SET carried = 3 WHERE character_id = '{ada}'"
        ),
    );
    let out = run(&p.db(), &["join", &addr, "--once"]);
    assert!(out.status.success(), "join failed: {}", text(&out.stderr));
    let refused = services::link_refused(&p.open(), game).unwrap();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!((refused[0].character_id, refused[0].name.as_str()), (ada, "Ada"));
    let reason = &refused[0].reason;
    assert!(reason.contains("carried (characteristics paid for at another table)"), "{reason}");
    assert!(refused[0].record.to_string().contains("Invincible"), "the refused change is kept whole");
    assert_eq!(fingerprint(&h.db()), table_before, "nothing changed at the table");
    assert_eq!(one(&h.db(), &characteristics(ada)), "Text(\"Strong,Quick carried=0 lost=0\")");
    assert_eq!(one(&p.db(), &characteristics(ada)), one(&h.db(), &characteristics(ada)), "the device shows the host's");

    // Without `carried`, the extra characteristic is refused too (by the count of what the
    // ledger paid for, already before this check: the audit's T3b).
    services::link_dismiss_refused(&mut p.open(), refused[0].id).unwrap();
    tamper(&p.db(), &format!("INSERT INTO pa_characteristics VALUES ('{ada}', 2, 'Rich')"));
    let out = run(&p.db(), &["join", &addr, "--once"]);
    assert!(out.status.success(), "join failed: {}", text(&out.stderr));
    let refused = services::link_refused(&p.open(), game).unwrap();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].reason.contains("characteristics"), "{}", refused[0].reason);
    assert_eq!(fingerprint(&h.db()), table_before, "nothing changed at the table");
    drop(host);
    assert_check(&h.db(), "the host");
    assert_check(&p.db(), "the player");
}

#[test]
fn penny_ante_a_player_renames_and_keeps_notes_but_changes_no_characteristic_and_no_bookkeeping() {
    let (h, p, game, _host, j) = table("penny_ante");
    let ada = penny_ada(&h, &p, game);
    let probe = characteristics(ada);

    // What the player's sheet changes: the name and the notes.
    services::rename_character(&mut p.open(), ada, "Ada Lovelace").unwrap();
    services::set_character_notes(&mut p.open(), ada, "Owes Bo a favour").unwrap();
    arrives(&p, game, "the new name and notes reach the table", || {
        listed(&h.db(), ada).is_some_and(|c| c.name == "Ada Lovelace" && c.notes == "Owes Bo a favour")
    });

    let lost = format!("UPDATE pa_sheets SET lost = 1 WHERE character_id = '{ada}'");
    refused(&h, &p, game, &j, &lost, &probe, "lost (characteristics given up in buyouts) changes only when a buyout");

    let rewritten =
        format!("UPDATE pa_characteristics SET text = 'Invincible' WHERE character_id = '{ada}' AND position = 1");
    refused(&h, &p, game, &j, &rewritten, &probe, "the characteristic “Quick” was taken off or rewritten");

    let taken_off = format!("DELETE FROM pa_characteristics WHERE character_id = '{ada}' AND position = 1");
    refused(&h, &p, game, &j, &taken_off, &probe, "the characteristic “Quick” was taken off or rewritten");
    assert_eq!(one(&h.db(), &probe), "Text(\"Strong,Quick carried=0 lost=0\")");
}

#[test]
fn penny_ante_a_character_made_on_the_device_brings_nothing_paid_for_elsewhere() {
    let (h, p, game, host, j) = table("penny_ante");
    drop(j);
    // Made while no link runs, with two characteristics "paid for at another table".
    let bo = services::create_character(&mut p.open(), game, "Bo").unwrap().id;
    tamper(
        &p.db(),
        &format!(
            "INSERT INTO pa_characteristics VALUES ('{bo}', 0, 'Clever'), ('{bo}', 1, 'Rich'); \
             UPDATE pa_sheets SET carried = 1 WHERE character_id = '{bo}'"
        ),
    );
    let out = run(&p.db(), &["join", &addr(&host).to_string(), "--once"]);
    assert!(out.status.success(), "join failed: {}", text(&out.stderr));
    let refused = services::link_refused(&p.open(), game).unwrap();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].reason.contains("carried (characteristics paid for at another table)"), "{}", refused[0].reason);
    assert!(listed(&h.db(), bo).is_none(), "Bo is not at the table");

    // Made with its first characteristic only, it comes: that one is free.
    let cy = services::create_character(&mut p.open(), game, "Cy").unwrap().id;
    tamper(&p.db(), &format!("INSERT INTO pa_characteristics VALUES ('{cy}', 0, 'Lucky')"));
    let out = run(&p.db(), &["join", &addr(&host).to_string(), "--once"]);
    assert!(out.status.success(), "join failed: {}", text(&out.stderr));
    assert_eq!(one(&h.db(), &characteristics(cy)), "Text(\"Lucky carried=0 lost=0\")");
}

#[test]
fn nsu_every_box_of_the_sheet_is_the_players_within_the_sheets_rules() {
    let (h, p, game, host, j) = table("nsu");
    let wren = made_on_device(&p, &h, game, "Wren");

    // The sheet, box by box: moods with a level and an overload, harm, recovery points.
    let mut store = p.open();
    let mut sheet = services::nsu_sheet(&store, wren).unwrap().sheet;
    sheet.moods[0] = Some(Mood { name: "Hopeful".into(), level: 6, overloaded: true });
    sheet.moods[2] = Some(Mood { name: "Wary".into(), level: 2, overloaded: false });
    sheet.harm = vec!["A cut hand".into()];
    sheet.recovery_points = 2;
    services::save_nsu_sheet(&mut store, wren, sheet.clone()).unwrap();
    eventually("Wren's sheet reaches the table", || {
        services::nsu_sheet(&open(&h.db()), wren).is_ok_and(|v| v.sheet == sheet)
    });
    caught_up(&j, "Wren's device is caught up");
    assert!(services::link_refused(&p.open(), game).unwrap().is_empty());

    // A sheet past its rules (a second overloaded mood) is refused. The database cannot
    // hold it, so a hostile device sends it to the host as a document of its own.
    let device = device_id(&p.db());
    let file = p.file("wren.sheetkeeper.json");
    services::export(&open(&p.db()), services::ExportScope::Character(wren), &file).unwrap();
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    doc["data"]["games"][0]["characters"][0]["nsu"]["moods"][2]["overloaded"] = true.into();
    let base = one(&p.db(), &format!("SELECT host_digest FROM link_bases WHERE character_id = '{wren}'"));
    let base = base.trim_start_matches("Text(\"").trim_end_matches("\")").to_owned();
    let table_before = fingerprint(&h.db());
    let outcome = services::host_apply_change(&mut h.open(), game, device, &doc, Some(&base)).unwrap();
    let reason = outcome.unwrap_err();
    assert!(reason.contains("only one mood can be overloaded"), "{reason}");
    assert_eq!(fingerprint(&h.db()), table_before, "nothing changed at the table");
    drop(host);
}

#[test]
fn mezzo_a_player_renames_their_character_and_its_element_but_adversity_and_momentum_are_the_tables() {
    let (h, p, game, _host, j) = table("mezzo");
    let vesper = made_on_device(&p, &h, game, "Vesper");
    let probe = format!(
        "SELECT name || ' adversity=' || adversity || ' momentum=' || momentum || ' claim=' || \
         ifnull(claimed_by, '-') FROM mz_elements WHERE character_id = '{vesper}'"
    );
    assert_eq!(one(&h.db(), &probe), one(&p.db(), &probe), "the fresh element came as it was made");

    let renamed = "Text(\"Vesper the Bold adversity=0 momentum=0 claim=-\")";
    services::rename_character(&mut p.open(), vesper, "Vesper the Bold").unwrap();
    arrives(&p, game, "the new name reaches the table, the element's with it", || one(&h.db(), &probe) == renamed);

    let adversity = format!("UPDATE mz_elements SET adversity = 3 WHERE character_id = '{vesper}'");
    refused(&h, &p, game, &j, &adversity, &probe, "adversity changes through the table's moves");
    let momentum = format!("UPDATE mz_elements SET momentum = 5 WHERE character_id = '{vesper}'");
    refused(&h, &p, game, &j, &momentum, &probe, "momentum changes through the table's moves");
    assert_eq!(one(&h.db(), &probe), renamed);
}

#[test]
fn scattershot_points_are_bought_on_the_sheet_and_never_taken_back_after_creation() {
    let (h, p, game, _host, j) = table("scattershot");
    let kit = made_on_device(&p, &h, game, "Kit");
    let probe = format!(
        "SELECT stage || ' strength=' || strength || ' agility=' || agility || ' dice=' || experience_dice || \
         ' skills=' || (SELECT count(*) FROM sc_skills WHERE character_id = '{kit}') FROM sc_sheets \
         WHERE character_id = '{kit}'"
    );
    let edit = |e: SheetEdit| services::scattershot_sheet_edit(&mut p.open(), kit, &e).unwrap();
    let buy = |purchase: Purchase| SheetEdit::Buy { purchase };

    // Creation, then play: points bought, the pool set on the sheet, a point bought with it.
    edit(buy(Purchase::Statistic { statistic: Statistic::Strength }));
    edit(buy(Purchase::NewSkill { name: "Stealth".into(), difficulty: Difficulty::Difficult }));
    edit(SheetEdit::FinishCreation);
    edit(SheetEdit::SetExperienceDice { dice: 3 });
    edit(buy(Purchase::Statistic { statistic: Statistic::Agility }));
    let bought = "Text(\"play strength=1 agility=1 dice=2 skills=1\")";
    arrives(&p, game, "Kit's sheet reaches the table", || one(&h.db(), &probe) == bought);

    let taken_back = format!("UPDATE sc_sheets SET strength = 0 WHERE character_id = '{kit}'");
    refused(&h, &p, game, &j, &taken_back, &probe, "Strength went from 1 to 0 points");
    let easier = format!("UPDATE sc_skills SET difficulty = 'easy' WHERE character_id = '{kit}'");
    refused(&h, &p, game, &j, &easier, &probe, "the skill “Stealth” was removed or rewritten");
    let again = format!("UPDATE sc_sheets SET stage = 'creation' WHERE character_id = '{kit}'");
    refused(&h, &p, game, &j, &again, &probe, "creation is finished and does not start again");
    assert_eq!(one(&h.db(), &probe), bought);
}

#[test]
fn scattershot_a_played_character_reads_its_players_stock_on_the_device_and_leaves_it_to_the_table() {
    let (h, p, game, _host, j) = table("scattershot");
    let kit = made_on_device(&p, &h, game, "Kit");
    // The table names Lee for Kit and fills Lee's stock (audit D-SC4).
    let mut store = h.open();
    let lee = services::scattershot_table_edit(&mut store, game, &TableEdit::AddPlayer { name: "Lee".into() })
        .unwrap()
        .view
        .players[0]
        .id;
    services::scattershot_table_edit(&mut store, game, &TableEdit::SetPlayer { character: kit, player: Some(lee) })
        .unwrap();
    services::scattershot_table_edit(&mut store, game, &TableEdit::PlayerDice { player: lee, dice: 4 }).unwrap();
    let mo = services::scattershot_table_edit(&mut store, game, &TableEdit::AddPlayer { name: "Mo".into() })
        .unwrap()
        .view
        .players[1]
        .id;
    drop(store);
    // The device reads Kit's dice from Lee's stock.
    eventually("Lee's stock reaches the device", || {
        let view = services::scattershot_table(&p.open(), game).unwrap();
        view.characters.iter().any(|c| c.id == kit && c.player == Some(lee) && c.experience_dice == 4)
            && view.players.iter().any(|p| p.id == mo)
    });
    let probe =
        format!("SELECT experience_dice || ' ' || ifnull(player_id, '-') FROM sc_sheets WHERE character_id = '{kit}'");
    let dice = format!("UPDATE sc_sheets SET experience_dice = 5 WHERE character_id = '{kit}'");
    refused(&h, &p, game, &j, &dice, &probe, "the experience dice are Lee's stock, kept at the table");
    let unplayed = format!("UPDATE sc_sheets SET player_id = NULL WHERE character_id = '{kit}'");
    refused(&h, &p, game, &j, &unplayed, &probe, "who plays the character is set at the table");
    // A point bought after creation is paid from the stock, on the table's device.
    services::scattershot_sheet_edit(&mut p.open(), kit, &SheetEdit::FinishCreation).unwrap();
    let buy = SheetEdit::Buy { purchase: Purchase::Statistic { statistic: Statistic::Agility } };
    let err = services::scattershot_sheet_edit(&mut p.open(), kit, &buy).unwrap_err().to_string();
    assert!(err.contains("the table's device makes changes to the game"), "{err}");
    // Renaming or removing a player is the table's too, as naming one is.
    for edit in [TableEdit::RenamePlayer { player: lee, name: "Leo".into() }, TableEdit::RemovePlayer { player: mo }] {
        let err = services::scattershot_table_edit(&mut p.open(), game, &edit).unwrap_err().to_string();
        assert!(err.contains("the table's device makes changes to the game"), "{edit:?}: {err}");
    }
}
