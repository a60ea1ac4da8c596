//! Issue 34 through the CLI: `--choices` on the NSU, Scattershot and Mezzo odds commands prints
//! every option the player chooses between with the library's exact numbers, the best
//! marked, and names bad input.

use serde_json::Value;
use sheetkeeper::rules::dice::Entered;
use sheetkeeper::rules::mezzo::choices::{conflict_bursts, next_vote};
use sheetkeeper::rules::mezzo::conflict::{D6Conflict, Variant};
use sheetkeeper::rules::nsu::choices::approaches;
use sheetkeeper::rules::nsu::roll::{AtRisk, Edge, MoodChoice, RollSetup, SkillChoice};
use sheetkeeper::rules::nsu::{Aspect, AspectBoxes, Aspects, Die, Mood, Sheet, Skill};
use sheetkeeper::rules::odds::Chance;
use sheetkeeper::rules::scattershot::choices::bidding;
use sheetkeeper::rules::scattershot::made_it_by::{Action, MibRoll, Party, RollSetup as MibSetup, Sign};
use sheetkeeper::rules::scattershot::Settings;

use crate::support::cli::{check_error, json, run};

fn close(got: &Value, want: Chance, what: &str) {
    let got = got.as_f64().unwrap_or(f64::NAN);
    assert!((got - want.probability()).abs() <= 1e-14, "{what}: {got} ≠ {}", want.probability());
}

fn choices(out: &std::process::Output) -> Vec<Value> {
    let value = json(out);
    value["choices"].as_array().unwrap_or_else(|| panic!("a choices list: {value}")).clone()
}

#[test]
fn nsu_choices_print_every_aspect_with_every_mood_line() {
    let args = [
        "odds",
        "nsu",
        "--choices",
        "--aspects",
        "8,6,4",
        "--at-risk",
        "world",
        "--moods",
        "0,2",
        "--overloaded",
        "4",
        "--skill",
        "1",
        "--helper-die",
        "6",
    ];
    let got = choices(&run(&args, None));
    // The same sheet by hand: moods on lines 0 and 2, line 4 overloaded, a +1 skill.
    let mood = |name: &str, level, overloaded| Some(Mood { name: name.into(), level, overloaded });
    let mut sheet =
        Sheet { aspects: Some(Aspects { body: Die::D8, mind: Die::D6, heart: Die::D4 }), ..Sheet::default() };
    sheet.moods[0] = mood("a", 0, false);
    sheet.moods[2] = mood("b", 0, false);
    sheet.moods[4] = mood("c", 4, true);
    sheet.skills[0] = Some(Skill { name: "s".into(), modifier: 1, boxes: AspectBoxes::default() });
    let setup = RollSetup {
        skill: Some(SkillChoice::Existing { line: 0 }),
        ..RollSetup::new("x", Aspect::Body, AtRisk::World, MoodChoice::Existing { line: 0 })
    };
    let want = approaches(&sheet, &setup, Some((Die::D6, Edge::None))).unwrap();
    assert_eq!(got.len(), 18, "three aspects, six mood lines");
    for (got, want) in got.iter().zip(&want) {
        assert_eq!(got["aspect"], want.aspect.word().to_lowercase());
        assert_eq!(
            (got["mood_line"].as_u64(), got["new_mood"].as_bool()),
            (Some(want.mood_line as u64), Some(want.new_mood))
        );
        assert_eq!(got["mood_die"].as_u64(), Some(u64::from(want.plan.mood_die.sides())));
        close(&got["win"], want.odds.win, "win");
        close(&got["tie"], want.odds.tie, "tie");
        close(&got["lose"], want.odds.lose, "lose");
        assert_eq!(
            (got["best"].as_bool(), got["best_for_aspect"].as_bool()),
            (Some(want.best), Some(want.best_for_aspect))
        );
    }
    let overloaded = got.iter().find(|c| c["mood_line"] == 4).unwrap();
    assert_eq!(overloaded["mood_edge"], "advantage", "acting with the overloaded mood");
    check_error(&["odds", "nsu", "--choices", "--aspects", "8,6", "--at-risk", "world"], 2, "--aspects");
    check_error(
        &["odds", "nsu", "--choices", "--aspects", "8,6,4", "--at-risk", "world", "--moods", "7"],
        1,
        "--moods",
    );
    check_error(&["odds", "nsu", "--aspect-die", "8", "--at-risk", "world"], 2, "--mood-die");
}

#[test]
fn scattershot_choices_print_each_bid_into_each_side_s_mib() {
    let args = [
        "odds",
        "scattershot",
        "--rating",
        "14",
        "--choices",
        "--dice",
        "3,4",
        "--resistor-rating",
        "9",
        "--experience-die",
        "8",
    ];
    let out = run(&args, None);
    let value = json(&out);
    let action = |rating| Action { description: String::new(), rating, modifier: 0, rolled: None };
    let setup = MibSetup { actor: action(14), resistors: vec![action(9)], facets: Default::default(), chart: vec![] };
    let settings = Settings { experience_die: 8, ..Settings::default() };
    let roll = MibRoll::start(&setup, &settings).unwrap().0;
    let roll = roll.roll_dice(Party::Actor, &mut Entered::new([3, 4])).unwrap().0;
    let want = bidding(&roll).unwrap();
    assert_eq!(value["experience_die"], 8);
    let now = want.now.unwrap();
    close(&value["now"]["success"], now.success, "now");
    let got = choices(&out);
    assert_eq!(got.len(), 4, "+ and − into the actor's MIB and the resistor's");
    for (got, want) in got.iter().zip(&want.bids) {
        let party = if want.party == Party::Actor { "actor" } else { "resistor" };
        let sign = if want.sign == Sign::Add { "add" } else { "subtract" };
        assert_eq!((got["party"].as_str(), got["sign"].as_str()), (Some(party), Some(sign)));
        close(&got["success"], want.chances.success, "success");
        close(&got["telling_blow"], want.chances.telling_blow, "telling blow");
        close(&got["catastrophic"], want.chances.catastrophic, "catastrophic");
        assert_eq!(got["best_for_actor"].as_bool(), Some(want.best_for_actor));
        assert_eq!(got["best_for_resistor"].as_bool(), Some(want.best_for_resistor));
    }
    assert!(got[0]["best_for_actor"].as_bool().unwrap(), "adding to the actor's own MIB: {}", got[0]);
    check_error(&["odds", "scattershot", "--rating", "14", "--choices", "--dice", "3,11"], 2, "--dice");
    check_error(
        &["odds", "scattershot", "--rating", "14", "--choices", "--experience-die", "30"],
        1,
        "--experience-die",
    );
    check_error(&["odds", "scattershot", "--rating", "14", "--resistor-rating", "9"], 2, "--choices");
}

/// Audit D-SC6 through the CLI: a contest of several resistors, each with its rating, its
/// modifier and (once rolled) its 2d10, in the order given; the bids into every resistor's
/// MIB are the library's; a list that does not match the resistors is refused naming its flag.
#[test]
fn scattershot_choices_take_several_resistors() {
    let scattershot = ["odds", "scattershot", "--rating", "14", "--choices", "--dice", "3,4"];
    fn with<'a>(scattershot: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
        [scattershot, more].concat()
    }
    let with = |more: &[&'static str]| with(&scattershot, more);
    let listed = with(&[
        "--resistor-rating",
        "9,11,12",
        "--resistor-modifier",
        "0,-2,1",
        "--resistor-dice",
        "5,6",
        "--resistor-dice",
        "2,9",
    ]);
    let out = run(&listed, None);
    let action = |rating, modifier| Action { description: String::new(), rating, modifier, rolled: None };
    let setup = MibSetup {
        actor: action(14, 0),
        resistors: vec![action(9, 0), action(11, -2), action(12, 1)],
        facets: Default::default(),
        chart: vec![],
    };
    let mut roll = MibRoll::start(&setup, &Settings::default()).unwrap().0;
    for (party, dice) in [(Party::Actor, [3, 4]), (Party::Resistor(0), [5, 6]), (Party::Resistor(1), [2, 9])] {
        roll = roll.roll_dice(party, &mut Entered::new(dice)).unwrap().0;
    }
    let want = bidding(&roll).unwrap();
    let got = choices(&out);
    assert_eq!(got.len(), 8, "+ and − into the actor's MIB and each of the three resistors'");
    for (got, want) in got.iter().zip(&want.bids) {
        assert_eq!(got["party"].as_str(), Some(want.party.key().as_str()));
        close(&got["success"], want.chances.success, "success");
        close(&got["telling_blow"], want.chances.telling_blow, "telling blow");
        close(&got["catastrophic"], want.chances.catastrophic, "catastrophic");
        assert_eq!(got["best_for_resistor"].as_bool(), Some(want.best_for_resistor));
    }
    let parties: Vec<&str> = got.iter().filter_map(|c| c["party"].as_str()).collect();
    assert_eq!(
        parties,
        ["actor", "actor", "resistor", "resistor", "resistor_2", "resistor_2", "resistor_3", "resistor_3"]
    );
    // The flag once per resistor says the same as the lists.
    let repeated = with(&[
        "--resistor-rating",
        "9",
        "--resistor-rating",
        "11",
        "--resistor-rating",
        "12",
        "--resistor-modifier",
        "0",
        "--resistor-modifier",
        "-2",
        "--resistor-modifier",
        "1",
        "--resistor-dice",
        "5,6",
        "--resistor-dice",
        "2,9",
    ]);
    assert_eq!(json(&run(&repeated, None)), json(&out));

    check_error(&with(&["--resistor-rating", "9,11", "--resistor-modifier", "1"]), 1, "--resistor-modifier");
    check_error(
        &with(&["--resistor-rating", "9", "--resistor-dice", "5,6", "--resistor-dice", "2,9"]),
        1,
        "--resistor-dice",
    );
    check_error(&with(&["--resistor-rating", "1,2,3,4,5,6"]), 1, "--resistor-rating: a contest takes at most 5");
    check_error(&with(&["--resistor-rating", "9,20000"]), 1, "--resistor-rating: resistor_2: 20000 is out of range");
    check_error(&with(&["--resistor-rating", "9,11", "--resistor-modifier", "0,20000"]), 1, "--resistor-modifier");
    check_error(&with(&["--resistor-rating", "9,x"]), 2, "--resistor-rating");
}

#[test]
fn mezzo_choices_print_each_option_s_next_vote_and_each_open_burst() {
    let close_to = |got: &Value, want: &sheetkeeper::rules::mezzo::odds::Fraction, what: &str| {
        let got = got.as_f64().unwrap_or(f64::NAN);
        assert!((got - want.probability()).abs() <= 1e-14, "{what}: {got} ≠ {}", want.probability());
    };
    let value = json(&run(&["odds", "mezzo", "--votes", "4,2,1", "--choices"], None));
    let want = next_vote(&[4, 2, 1], Variant::Steps).unwrap();
    let got = value["next_vote"].as_array().unwrap_or_else(|| panic!("a next_vote list: {value}"));
    assert_eq!(got.len(), 3, "one per option");
    for (got, want) in got.iter().zip(&want) {
        assert_eq!(
            (got["option"].as_u64(), got["votes"].as_u64()),
            (Some(want.option as u64), Some(u64::from(want.votes)))
        );
        close_to(&got["now"], &want.now, "now");
        close_to(&got["with_vote"], want.with_vote(), "with a vote");
        for (g, w) in got["after"].as_array().unwrap().iter().zip(&want.after) {
            close_to(g, w, "after");
        }
        assert_eq!(got["best"].as_bool(), Some(want.best));
    }
    assert_eq!(got[2]["best"], true, "a vote on the d4 moves the odds most: {value}");

    // Both first rolls within the threshold: both owners choose.
    let args = ["odds", "mezzo", "--votes", "3,2,0", "--variant", "d6", "--choices", "--firsts", "3,1"];
    let value = json(&run(&args, None));
    let want = conflict_bursts(&D6Conflict::roll(&[3, 2, 0], &mut Entered::new([3, 1])).unwrap()).unwrap();
    let got = value["bursts"].as_array().unwrap_or_else(|| panic!("a bursts list: {value}"));
    assert_eq!(got.len(), 2);
    for (got, want) in got.iter().zip(&want) {
        assert_eq!(
            (got["option"].as_u64(), got["first"].as_u64()),
            (Some(want.option as u64), Some(u64::from(want.first)))
        );
        close_to(&got["keep"], &want.keep, "keep");
        close_to(&got["burst"], &want.burst, "burst");
        let better = serde_json::to_value(want.better).unwrap();
        assert_eq!(got["better"], better);
    }
    check_error(
        &["odds", "mezzo", "--votes", "3,1", "--variant", "d6", "--choices", "--firsts", "3"],
        1,
        "--firsts: options[1].first",
    );
    check_error(
        &["odds", "mezzo", "--votes", "3,1", "--choices", "--firsts", "3,2"],
        1,
        "--firsts: only the D6 variant",
    );
    check_error(
        &["odds", "mezzo", "--votes", "3,1", "--variant", "d6", "--choices", "--firsts", "3,2,2"],
        1,
        "--firsts: 3 faces",
    );
    check_error(&["odds", "mezzo", "--votes", "3,176", "--choices"], 2, "--votes");
    check_error(&["odds", "mezzo", "--votes", "3", "--choices"], 1, "--votes");
    check_error(&["odds", "mezzo", "--votes", "3,1", "--firsts", "3,2"], 2, "--choices");
}
