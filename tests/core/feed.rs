//! The table feed (issue 32): a game's log as cards for a viewer — who, what, the dice and
//! the outcome — after a place in the log; a Penny Ante cup stays a cup until the reveal; at a
//! linked table a roll on one joined device reaches the table's feed and every other device's.

use rand::SeedableRng;
use sheetkeeper::rules::dice_tray::DieFace;
use sheetkeeper::rules::nsu::roll::{AtRisk, Edge, MoodChoice, RollSetup, SkillChoice};
use sheetkeeper::rules::nsu::{Aspect, Die};
use sheetkeeper::rules::penny_ante::challenge::{Move, Side};
use sheetkeeper::services::{self, DiceInput, FeedCard, Viewer};
use uuid::Uuid;

use crate::link::{eventually, open, valley_on_two_phones};
use crate::support::{full_nsu_sheet, new_game, penny_ada_and_bo, penny_duel, penny_duel_rolls, penny_move, Scratch};

#[test]
fn the_feed_is_the_logs_moves_and_rolls_after_a_place_oldest_first() {
    let s = Scratch::new();
    let mut store = s.open();
    let game = services::create_game(&mut store, "Harbour", "mezzo").unwrap().game.id;
    assert!(services::game_feed(&store, game, 0).unwrap().is_empty(), "nothing has happened yet");

    services::mezzo_add_player(&mut store, game, "Kim").unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(32);
    let rolled = services::dice_tray_roll(&mut store, game, None, "2d6+1", &mut rng).unwrap();
    let cards = services::game_feed(&store, game, 0).unwrap();
    assert_eq!(cards.len(), 2, "{cards:?}");
    let (joined_card, roll) = (&cards[0], &cards[1]);
    assert_eq!(
        (joined_card.who.as_deref(), joined_card.what.as_str(), joined_card.outcome.as_str()),
        (None, "Mezzo", "Kim joins the table with 3 influence."),
        "a move of the table's: what happened in words"
    );
    assert!(joined_card.dice.is_empty() && !joined_card.undone);
    let [a, b] = [rolled.roll.dice[0].face, rolled.roll.dice[1].face];
    assert_eq!(roll.what, "Dice tray 2d6+1");
    assert_eq!(roll.outcome, format!("{a} + {b} + 1 = {}", rolled.roll.total));
    assert_eq!(roll.dice, rolled.roll.dice, "the dice as thrown, each with its sides");
    assert_eq!(Some(roll.seq), rolled.seq, "the card is the log's entry");

    // Since a place: only what is newer.
    assert_eq!(services::game_feed(&store, game, joined_card.seq).unwrap(), vec![roll.clone()]);
    assert!(services::game_feed(&store, game, roll.seq).unwrap().is_empty());
    // Undone: the card says so, as the Log tab does.
    services::undo_game(&mut store, game).unwrap();
    let cards = services::game_feed(&store, game, 0).unwrap();
    assert!(cards.iter().any(|c| c.what == "Mezzo" && c.undone), "{cards:?}");
    assert!(services::game_feed(&store, Uuid::new_v4(), 0).is_err(), "an unknown game is not found");
}

#[test]
fn an_nsu_action_roll_is_a_card_with_the_odds_it_had_its_dice_and_who_won() {
    let (_scratch, mut store, game, [wren]) = new_game("Valley", "nsu", ["Wren"]);
    let sheet = full_nsu_sheet([Die::D4, Die::D8, Die::D6], [(2, false), (1, false), (0, false)]);
    services::save_nsu_sheet(&mut store, wren, sheet).unwrap();
    let setup = RollSetup {
        skill: Some(SkillChoice::Existing { line: 0 }),
        ..RollSetup::new("Find the hidden door", Aspect::Mind, AtRisk::Character, MoodChoice::Existing { line: 0 })
    };
    let preview = services::nsu_roll_preview(&store, wren, &setup, None, Edge::None).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let dice = DiceInput::Entered { values: vec![7, 3] };
    let pending = services::nsu_roll_dice(&mut store, wren, &setup, &dice, &mut rng).unwrap();
    services::nsu_roll_resolve(&mut store, wren, &pending.choices).unwrap();

    let cards = services::game_feed(&store, game, 0).unwrap();
    let [card] = cards.as_slice() else { panic!("one card: {cards:?}") };
    assert_eq!((card.who.as_deref(), card.what.as_str()), (Some("Wren"), "Action roll (Mind)"));
    assert_eq!(card.odds, Some(format!("{:.0}% to win", preview.odds.win * 100.0)), "the odds the roll had");
    let sides = |d: Die| u32::from(d.sides());
    let expected = [
        DieFace { sides: sides(preview.plan.aspect_die), face: 7 },
        DieFace { sides: sides(preview.plan.mood_die), face: 3 },
    ];
    assert_eq!(card.dice, expected);
    // Character at risk: aspect 7 + skill 1 = 8 against mood 3.
    assert_eq!(card.outcome, "the player wins by 5");
}

#[test]
fn a_penny_ante_cup_stays_a_cup_in_the_feed_until_both_are_chosen() {
    let (s, mut store, game, ada, bo) = penny_ada_and_bo("Heist", &[]);
    services::penny_start_adventure(&mut store, game, None).unwrap();
    penny_duel(&mut store, game, "the vault door", 2, ada, bo);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let mut mv = |mv: Move, dice: &[u8]| {
        penny_move(&mut store, game, mv, dice, &mut rng);
    };
    penny_duel_rolls(&mut mv, [(ada, "Strong"), (bo, "Clever")], (&[4, 5], &[2, 6]));
    let (a, b) = (Side::Challenger, Side::Opponent);
    mv(Move::Cup { side: a, cup: vec![1] }, &[]);

    // Bo's device, before Bo's cup: Ada rolled and chose a cup, and that is all it says.
    let bos = Viewer::Player(vec![bo]);
    let cards = services::feed_for(&s.open(), game, &bos, 0).unwrap();
    let said: Vec<&str> = cards.iter().map(|c| c.outcome.as_str()).collect();
    assert!(said.contains(&"Ada rolls in private."), "{said:?}");
    assert_eq!(said.last(), Some(&"Ada has chosen its cup."), "{said:?}");
    assert!(cards.iter().all(|c| c.dice.is_empty()), "no card shows a die of a roll in private");
    let table = services::feed_for(&s.open(), game, &Viewer::Table, 0).unwrap();
    assert_eq!(table.last().map(|c| c.outcome.as_str()), Some("Ada has chosen its cup."), "not even to the table");

    // The reveal: both cups at once, the dice in them never.
    let mut store = s.open();
    services::penny_challenge_move(&mut store, game, Move::Cup { side: b, cup: vec![0] }, &DiceInput::Rolled, &mut rng)
        .unwrap();
    let after = cards.last().unwrap().seq;
    let reveal = services::feed_for(&store, game, &bos, after).unwrap();
    assert_eq!(
        reveal.iter().map(|c| c.outcome.as_str()).collect::<Vec<_>>(),
        ["Bo has chosen its cup. Both cups are chosen: Ada shows 4 (1 in the cup); Bo shows 6 (1 in the cup)."]
    );
}

#[test]
fn a_roll_on_a_joined_device_reaches_the_tables_feed_and_every_other_devices() {
    let (h, pa, pb) = (Scratch::new(), Scratch::new(), Scratch::new());
    let (game, (wren, _tobias), (_host, ja, jb)) = valley_on_two_phones(&h, &pa, &pb);
    assert!(jb.feed(0).is_empty(), "nothing rolled yet");

    // Wren rolls on her phone (as the app's dice tray does there): the table logs it.
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let (sent, shown) = services::dice_tray_roll_here(&open(&pa.db()), game, Some(wren), "3d6", &mut rng).unwrap();
    ja.submit_move(sent).unwrap();
    let is_wrens = |c: &FeedCard| {
        c.who.as_deref() == Some("Wren") && c.what == "Dice tray 3d6" && c.dice == shown.roll.dice && !c.undone
    };
    let tables = services::game_feed(&open(&h.db()), game, 0).unwrap();
    assert!(tables.iter().any(is_wrens), "the table's feed: {tables:?}");
    eventually("the roll reaching Tobias's phone's feed", || jb.feed(0).iter().any(is_wrens));
    eventually("the roll reaching Wren's own feed", || ja.feed(0).iter().any(is_wrens));
    let card = jb.feed(0).into_iter().find(is_wrens).unwrap();
    assert_eq!(card, tables.into_iter().find(is_wrens).unwrap(), "the same card everywhere");
    // Since its place: nothing new.
    assert!(jb.feed(card.seq).is_empty());
    // Nothing of the feed is written on a joined device: its copy keeps no log of the table's.
    assert!(services::game_feed(&open(&pb.db()), game, 0).unwrap().iter().all(|c| !is_wrens(c)));
}
