//! `sheetkeeper`: the command line over the same services as the window.
//!
//! Exit codes: 0 ok, 1 invalid input (or anything the command could not do), 2 usage.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context};
use clap::{Args, Parser, Subcommand};
use serde::Serialize;
use sheetkeeper::model::parse_id;
use sheetkeeper::rules::dice::Entered;
use sheetkeeper::rules::dice_tray;
use sheetkeeper::rules::mezzo::choices::{conflict_bursts, next_vote, BurstChoice, NextVote};
use sheetkeeper::rules::mezzo::conflict::{D6Conflict, Variant as MezzoVariant, MAX_VOTES as MEZZO_MAX_VOTES};
use sheetkeeper::rules::mezzo::odds as mezzo_odds;
use sheetkeeper::rules::nsu::choices::{approaches, Approach};
use sheetkeeper::rules::nsu::odds::{self as nsu_odds, ActionRollSetup};
use sheetkeeper::rules::nsu::roll::{AtRisk, Edge, MoodChoice, RollSetup as NsuRollSetup, SkillChoice};
use sheetkeeper::rules::nsu::sheet::MOOD_LINE_DICE;
use sheetkeeper::rules::nsu::{Aspect, AspectBoxes, Aspects, Die, Mood, Sentiment, SentimentState, Sheet, Skill};
use sheetkeeper::rules::odds::Chance;
use sheetkeeper::rules::penny_ante::choices::{reroll_choices, RerollChoice};
use sheetkeeper::rules::penny_ante::odds::{self as penny_ante_odds, Dice, Showdown};
use sheetkeeper::rules::penny_ante::{self, score::MAX_DICE};
use sheetkeeper::rules::scattershot::choices::{bidding, Bidding, Chances as BidChances};
use sheetkeeper::rules::scattershot::made_it_by::{Action, MibRoll, Party, RollSetup};
use sheetkeeper::rules::scattershot::odds::{self as scattershot_odds, MibOdds};
use sheetkeeper::rules::scattershot::Settings as ScattershotSettings;
use sheetkeeper::services::{self, ExportScope, ImportOptions};
use sheetkeeper::{link, paths, Store};

#[derive(Parser)]
#[command(
    name = "sheetkeeper",
    version,
    about = "Sheetkeeper's command line: list, check, back up, import and export."
)]
struct Cli {
    /// The database file [default: $SHEETKEEPER_DB, else the app's own database]
    #[arg(long, global = true, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Print the result as JSON on stdout
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every game and its characters
    List,
    /// Check the database's integrity and foreign keys (exit 1 when a check fails)
    Check,
    /// A game as one viewer may see it, as JSON: the table's side, everyone, the player of a
    /// character (its id) or a Mezzo player (their id). The same view the window renders for
    /// that viewer.
    View {
        #[arg(long)]
        game: uuid::Uuid,
        /// table, everyone, a character's id or a Mezzo player's id
        #[arg(long)]
        viewer: String,
    },
    /// Copy the whole database into a new SQLite file
    Backup { file: PathBuf },
    /// Import a *.sheetkeeper.json file (one transaction: all of it or nothing)
    Import {
        file: PathBuf,
        /// Validate and show what would change, without writing
        #[arg(long)]
        dry_run: bool,
        /// Give everything imported new ids, so it lands beside what is here
        #[arg(long)]
        as_copy: bool,
        /// Let the file win where it conflicts with changes made here
        #[arg(long)]
        replace: bool,
    },
    /// Export a character, a game, or everything to a *.sheetkeeper.json file
    Export {
        #[command(flatten)]
        what: ExportWhat,
        file: PathBuf,
    },
    /// Exact odds of a roll, as JSON (never opens the database)
    Odds {
        #[command(subcommand)]
        game: OddsGame,
    },
    /// The score of a hand of dice, as JSON (never opens the database)
    Score {
        #[command(subcommand)]
        game: ScoreGame,
    },
    /// Roll dice like a dice tray, as JSON (never opens the database): `roll 2d6+1`, `roll d20`,
    /// `roll 2d6+1d4+3` → {"expression","dice":[{"sides","face"},…],"modifier","total"}
    Roll {
        /// The dice: XdY±N, groups of dice and numbers joined by + or -
        #[arg(allow_hyphen_values = true)]
        expression: String,
        /// Roll the same dice again from this seed
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Host a game for the devices at the table, on the local network. Prints one line when
    /// ready (`hosting game=ID listen=ADDR:PORT code=CODE`, and `code=CODE` again whenever
    /// too many wrong codes replaced it), then serves until interrupted. It prints
    /// `paused wrong_codes=N` when wrong codes paused pairing, and `claim device=ID
    /// character=ID name=…` when a device asks to play a character; typed on its input,
    /// `approve CHARACTER_ID`, `decline CHARACTER_ID` and `open` (pairing again) answer them
    Host {
        #[arg(long)]
        game: uuid::Uuid,
        /// Where to listen [default: every address, a free port]
        #[arg(long, value_name = "ADDR:PORT", default_value = "0.0.0.0:0")]
        listen: std::net::SocketAddr,
        /// The name devices see for this table
        #[arg(long, default_value = "The table")]
        name: String,
    },
    /// Join a hosted table: pair (the code is needed the first time only), bring its game
    /// here as this device may see it, print `joined game=ID`, then follow it live
    Join {
        #[arg(value_name = "ADDR:PORT")]
        addr: std::net::SocketAddr,
        #[arg(long)]
        code: Option<String>,
        /// Exit once caught up instead of following the table
        #[arg(long)]
        once: bool,
        /// Characters at the table this device plays, or Mezzo players it sits as (their ids)
        #[arg(long, value_name = "CHARACTER_ID")]
        claim: Vec<uuid::Uuid>,
        /// The name the table sees for this device
        #[arg(long, default_value = "A command line")]
        name: String,
    },
    /// The devices paired with this one (in one game, or all)
    Devices {
        #[arg(long)]
        game: Option<uuid::Uuid>,
    },
    /// Remove a paired device: it cannot reconnect without a new code
    Unpair { device: uuid::Uuid },
}

#[derive(Subcommand)]
enum ScoreGame {
    /// Penny Ante: the best Yahtzee hand of five chosen from 1 to 10 dice
    PennyAnte {
        /// The dice's faces, 1 to 6 each
        #[arg(value_name = "D", required = true, num_args = 1..=MAX_DICE)]
        dice: Vec<u8>,
    },
}

#[derive(Subcommand)]
enum OddsGame {
    /// No Stone Unturned action roll: the distribution of the player's signed margin
    Nsu(NsuOdds),
    /// Penny Ante showdown: win, tie and lose for "mine", unknown dice uniform, every
    /// circumstance die usable by both
    PennyAnte(PennyAnteOdds),
    /// Mezzo conflict left to chance: each option's chance of winning, ties split evenly
    Mezzo(MezzoOdds),
    /// Scattershot's Mechanix Made-It-By roll: the basic MIB's distribution and the chances
    /// of a success, a Telling Blow and a Catastrophic Failure
    Scattershot(ScattershotOdds),
}

#[derive(Args)]
struct ScattershotOdds {
    /// The rating rolled against
    #[arg(long, value_name = "R", allow_hyphen_values = true)]
    rating: i32,
    /// Modifiers added to the rating (may be negative)
    #[arg(long, value_name = "M", default_value_t = 0, allow_hyphen_values = true)]
    modifier: i32,
    /// The table's Critical Juncture [default: the table setting's default]
    #[arg(long, value_name = "CJ")]
    critical_juncture: Option<u32>,
    /// The bidding war: every experience die as + and as −, into each MIB, with its chances
    /// and the best marked for each side
    #[arg(long)]
    choices: bool,
    /// With --choices: the actor's 2d10 once rolled, e.g. 4,5
    #[arg(long, value_name = "A,B", value_parser = parse_d10s, requires = "choices")]
    dice: Option<[u8; 2]>,
    /// With --choices: a contest's resistors' ratings, one per resistor (1 to 5), e.g. 9 or
    /// 9,11 (or the flag once per resistor)
    #[arg(long, value_name = "R,…", value_delimiter = ',', allow_hyphen_values = true, requires = "choices")]
    resistor_rating: Vec<i32>,
    /// With --choices: the resistors' modifiers, one per resistor in the ratings' order, e.g.
    /// 0,-2 [default: 0 each]
    #[arg(long, value_name = "M,…", value_delimiter = ',', allow_hyphen_values = true, requires = "resistor_rating")]
    resistor_modifier: Vec<i32>,
    /// With --choices: a resistor's 2d10 once rolled, the flag once per resistor in the
    /// ratings' order (the first resistor's first), e.g. --resistor-dice 4,5 --resistor-dice 2,9
    #[arg(long, value_name = "A,B", value_parser = parse_d10s, requires = "resistor_rating")]
    resistor_dice: Vec<[u8; 2]>,
    /// With --choices: the sides of the table's experience die [default: the table setting's default]
    #[arg(long, value_name = "SIDES", requires = "choices")]
    experience_die: Option<u8>,
}

/// A unit enum's word as the library serializes it (`actor`, `add`, `advantage`).
fn word(value: impl Serialize) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// Two d10 faces, e.g. `4,5`.
fn parse_d10s(list: &str) -> Result<[u8; 2], String> {
    let faces: Vec<Option<u8>> =
        list.split(',').map(|f| f.trim().parse().ok().filter(|f| (1..=10).contains(f))).collect();
    match faces[..] {
        [Some(a), Some(b)] => Ok([a, b]),
        _ => Err(format!("{list:?} is not two d10 faces (each 1 to 10), e.g. 4,5")),
    }
}

/// The bidding as one line of JSON: `{"experience_die":6,"now":{…}|null,"choices":[{"party":
/// "actor","sign":"add","success":p,"telling_blow":p,"catastrophic":p,"best_for_actor":bool,
/// "best_for_resistor":bool},…]}`.
fn scattershot_choices_json(bidding: &Bidding) -> String {
    let fields = |c: &BidChances| {
        chance_fields(&[("success", c.success), ("telling_blow", c.telling_blow), ("catastrophic", c.catastrophic)])
    };
    let choices: Vec<String> = bidding
        .bids
        .iter()
        .map(|b| {
            let (party, sign) = (word(b.party), word(b.sign));
            format!(
                "{{\"party\":\"{party}\",\"sign\":\"{sign}\",{},\"best_for_actor\":{},\"best_for_resistor\":{}}}",
                fields(&b.chances),
                b.best_for_actor,
                b.best_for_resistor
            )
        })
        .collect();
    let now = bidding.now.as_ref().map_or("null".to_owned(), |now| format!("{{{}}}", fields(now)));
    format!("{{\"experience_die\":{},\"now\":{now},\"choices\":[{}]}}", bidding.sides, choices.join(","))
}

/// The roll `--choices` describes: set up (a contest of every resistor rating given, each
/// with its modifier), and the 2d10 given rolled (the resistors' in their order).
fn scattershot_roll(args: &ScattershotOdds, settings: &ScattershotSettings) -> sheetkeeper::Result<MibRoll> {
    let resistors = args.resistor_rating.len();
    if !args.resistor_modifier.is_empty() && args.resistor_modifier.len() != resistors {
        return Err(sheetkeeper::Error::Invalid {
            field: "resistor_modifier".into(),
            problem: format!(
                "{} modifier(s) for {resistors} resistor(s): one per resistor rating, in order",
                args.resistor_modifier.len()
            ),
        });
    }
    if args.resistor_dice.len() > resistors {
        return Err(sheetkeeper::Error::Invalid {
            field: "resistor_dice".into(),
            problem: format!(
                "{} pairs of dice for {resistors} resistor(s): at most one pair per resistor, in order",
                args.resistor_dice.len()
            ),
        });
    }
    let action = |rating, modifier| Action { description: String::new(), rating, modifier, rolled: None };
    let modifier = |i: usize| args.resistor_modifier.get(i).copied().unwrap_or(0);
    let setup = RollSetup {
        actor: action(args.rating, args.modifier),
        resistors: args.resistor_rating.iter().enumerate().map(|(i, &r)| action(r, modifier(i))).collect(),
        facets: Default::default(),
        chart: Vec::new(),
    };
    let (mut roll, _) = MibRoll::start(&setup, settings)?;
    let resistor_dice = args.resistor_dice.iter().enumerate().map(|(i, &dice)| (Party::Resistor(i), Some(dice)));
    for (party, dice) in std::iter::once((Party::Actor, args.dice)).chain(resistor_dice) {
        if let Some(dice) = dice {
            roll = roll.roll_dice(party, &mut Entered::new(dice))?.0;
        }
    }
    Ok(roll)
}

/// The flag a Scattershot odds error is about, from the library's field: `rating`,
/// `actor.modifier` (`--modifier`), `resistor_2.rating` (`--resistor-rating`, the resistor
/// named when there are several), `resistors` (how many: `--resistor-rating`).
fn scattershot_flag_error(field: &str, problem: &str, resistors: usize) -> anyhow::Error {
    let (flag, party) = match field.split_once('.') {
        Some(("actor", name)) => (name.to_owned(), None),
        Some((party, name)) if party.starts_with("resistor") => {
            (format!("resistor_{name}"), (resistors > 1).then(|| party.to_owned()))
        }
        _ if field == "resistors" => ("resistor_rating".to_owned(), None),
        _ => (field.to_owned(), None),
    };
    let flag = flag.replace(['_', '.'], "-");
    match party {
        Some(party) => anyhow!("--{flag}: {party}: {problem}"),
        None => anyhow!("--{flag}: {problem}"),
    }
}

/// The odds as one line of JSON, `{"success":p,"telling_blow":p,"catastrophic":p,
/// "mib":{"-12":p,…}}`, each the exact value rounded to 15 significant digits, the MIBs in
/// rising order.
fn scattershot_odds_json(odds: &MibOdds) -> String {
    odds_object(
        &[("success", odds.success), ("telling_blow", odds.telling_blow), ("catastrophic", odds.catastrophic)],
        "mib",
        odds.mib.iter().map(|(value, chance)| (value, *chance)),
    )
}

#[derive(Args)]
struct MezzoOdds {
    /// Each option's votes, e.g. 3,1,0 (2 to 32 options, 0 to 175 votes each)
    #[arg(long, value_name = "COUNTS", value_parser = parse_votes)]
    votes: Votes,
    /// The step dice (d4 to d12) or the D6 variant (multiplier and burst)
    #[arg(long, value_enum, default_value = "steps")]
    variant: VariantArg,
    /// Every option's chance now and with one more vote on it, the largest change marked;
    /// with --firsts, every open burst's chance to win kept and burst
    #[arg(long)]
    choices: bool,
    /// With --choices and --variant d6: the first d6 rolled by each option that has votes, in
    /// order, e.g. 3,5
    #[arg(long, value_name = "FACES", value_parser = parse_faces, requires = "choices")]
    firsts: Option<Faces>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum VariantArg {
    Steps,
    D6,
}

/// A comma-separated list of vote counts (possibly empty, which the rules then refuse), as
/// one argument value. A count that is not a number or is above the most an option holds is
/// a usage error here, like a die's face; how many options there are is the rules' check.
#[derive(Clone, Debug)]
struct Votes(Vec<u32>);

fn parse_votes(list: &str) -> Result<Votes, String> {
    let refused = |count: &str| format!("{count:?} is not a vote count (a whole number from 0 to {MEZZO_MAX_VOTES})");
    parse_numbers(list, |&count| count <= MEZZO_MAX_VOTES, refused).map(Votes)
}

/// A comma-separated list of numbers (possibly empty), each one that `fits`; any other item
/// is a usage error in the words `refused` gives for it.
fn parse_numbers<T: std::str::FromStr>(
    list: &str,
    fits: impl Fn(&T) -> bool,
    refused: impl Fn(&str) -> String,
) -> Result<Vec<T>, String> {
    if list.trim().is_empty() {
        return Ok(Vec::new());
    }
    list.split(',')
        .map(|item| match item.trim().parse() {
            Ok(n) if fits(&n) => Ok(n),
            _ => Err(refused(item.trim())),
        })
        .collect()
}

/// The odds as one line of JSON, `{"options":[p0,p1,…]}`, each the exact value rounded to 15
/// significant digits (by hand, like `nsu_odds_json`).
fn mezzo_odds_json(odds: &mezzo_odds::ConflictOdds) -> String {
    let options: Vec<String> = odds.options().iter().map(|chance| chance.decimal(SIGNIFICANT)).collect();
    format!("{{\"options\":[{}]}}", options.join(","))
}

/// `{"next_vote":[{"option":i,"votes":n,"now":p,"with_vote":p,"after":[p,…],"best":b},…]}`.
fn mezzo_next_vote_json(choices: &[NextVote]) -> String {
    let decimal = |f: &mezzo_odds::Fraction| f.decimal(SIGNIFICANT);
    let entries: Vec<String> = choices
        .iter()
        .map(|c| {
            let after: Vec<String> = c.after.iter().map(decimal).collect();
            format!(
                "{{\"option\":{},\"votes\":{},\"now\":{},\"with_vote\":{},\"after\":[{}],\"best\":{}}}",
                c.option,
                c.votes,
                decimal(&c.now),
                decimal(c.with_vote()),
                after.join(","),
                c.best
            )
        })
        .collect();
    format!("{{\"next_vote\":[{}]}}", entries.join(","))
}

/// `{"bursts":[{"option":i,"first":f,"keep":p,"burst":p,"better":"burst|keep|either"},…]}`.
fn mezzo_bursts_json(choices: &[BurstChoice]) -> String {
    let entries: Vec<String> = choices
        .iter()
        .map(|c| {
            format!(
                "{{\"option\":{},\"first\":{},\"keep\":{},\"burst\":{},\"better\":\"{}\"}}",
                c.option,
                c.first,
                c.keep.decimal(SIGNIFICANT),
                c.burst.decimal(SIGNIFICANT),
                word(c.better)
            )
        })
        .collect();
    format!("{{\"bursts\":[{}]}}", entries.join(","))
}

#[derive(Args)]
struct PennyAnteOdds {
    /// Mine's dice seen, e.g. 6,6,3
    #[arg(long, value_name = "FACES", value_parser = parse_faces, default_value = "")]
    mine: Faces,
    /// How many of mine's dice are not seen yet
    #[arg(long, value_name = "N", default_value_t = 0)]
    mine_unknown: u8,
    /// Their dice seen, e.g. 5,1
    #[arg(long, value_name = "FACES", value_parser = parse_faces, default_value = "")]
    theirs: Faces,
    /// How many of their dice are not seen yet
    #[arg(long, value_name = "N", default_value_t = 0)]
    theirs_unknown: u8,
    /// The circumstance dice seen, e.g. 4,2
    #[arg(long, value_name = "FACES", value_parser = parse_faces, default_value = "")]
    circumstances: Faces,
    /// How many circumstance dice are not seen yet
    #[arg(long, value_name = "N", default_value_t = 0)]
    circumstances_unknown: u8,
    /// Every choice of mine's seen dice to put back in the cup, with its odds, the best marked
    #[arg(long)]
    choices: bool,
}

/// A comma-separated list of d6 faces (possibly empty), as one argument value.
#[derive(Clone, Debug)]
struct Faces(Vec<u8>);

fn parse_faces(list: &str) -> Result<Faces, String> {
    let refused = |face: &str| format!("{face:?} is not a face of a d6 (1 to 6)");
    parse_numbers(list, |face| (1..=6).contains(face), refused).map(Faces)
}

/// The odds as one line of JSON, `{"win":p,"tie":p,"lose":p}`, each the exact value rounded
/// to 15 significant digits (by hand, like `nsu_odds_json`).
fn penny_ante_odds_json(odds: &penny_ante_odds::ShowdownOdds) -> String {
    format!("{{{}}}", penny_ante_odds_fields(odds))
}

/// `"win":p,"tie":p,"lose":p` as exact decimals.
fn penny_ante_odds_fields(odds: &penny_ante_odds::ShowdownOdds) -> String {
    chance_fields(&[("win", odds.win), ("tie", odds.tie), ("lose", odds.lose)])
}

/// `{"choices":[{"reroll":[3],"win":p,"tie":p,"lose":p,"best":bool},…]}` (DESIGN.md).
fn penny_ante_choices_json(choices: &[RerollChoice]) -> String {
    let entries: Vec<String> = choices
        .iter()
        .map(|c| {
            let reroll: Vec<String> = c.reroll.iter().map(u8::to_string).collect();
            format!("{{\"reroll\":[{}],{},\"best\":{}}}", reroll.join(","), penny_ante_odds_fields(&c.odds), c.best)
        })
        .collect();
    format!("{{\"choices\":[{}]}}", entries.join(","))
}

#[derive(Args)]
struct NsuOdds {
    /// The aspect's die: 4, 6 or 8
    #[arg(long, value_name = "SIDES", value_parser = parse_nsu_die, required_unless_present = "choices")]
    aspect_die: Option<Die>,
    /// The mood's die: 4, 6 or 8
    #[arg(long, value_name = "SIDES", value_parser = parse_nsu_die, required_unless_present = "choices")]
    mood_die: Option<Die>,
    /// What is most at risk
    #[arg(long, value_enum)]
    at_risk: AtRiskArg,
    /// Net aspect advantage (roll twice, the player keeps one)
    #[arg(long, conflicts_with = "aspect_disadvantage")]
    aspect_advantage: bool,
    /// Net aspect disadvantage (roll twice, the Arbiters keep one)
    #[arg(long)]
    aspect_disadvantage: bool,
    /// Net mood advantage (roll twice, the player keeps one)
    #[arg(long, conflicts_with = "mood_disadvantage")]
    mood_advantage: bool,
    /// Net mood disadvantage (roll twice, the Arbiters keep one)
    #[arg(long)]
    mood_disadvantage: bool,
    /// The skill's modifier (0 = no skill)
    #[arg(long, value_name = "N", default_value_t = 0)]
    skill: u8,
    /// The helper's mood die: 4, 6 or 8
    #[arg(long, value_name = "SIDES", value_parser = parse_nsu_die)]
    helper_die: Option<Die>,
    /// The helper's die has advantage (helping with their overloaded mood; the player keeps one)
    #[arg(long, requires = "helper_die", conflicts_with = "helper_disadvantage")]
    helper_advantage: bool,
    /// The helper's die has disadvantage (helping with another mood while overloaded; the Arbiters keep one)
    #[arg(long, requires = "helper_die")]
    helper_disadvantage: bool,
    /// The approach: every aspect with every mood line, its odds, the best marked
    #[arg(long, requires = "aspects", conflicts_with_all = ["aspect_die", "mood_die", "mood_advantage", "mood_disadvantage"])]
    choices: bool,
    /// With --choices: Body, Mind and Heart's dice, e.g. 8,6,4
    #[arg(long, value_name = "B,M,H", value_parser = parse_nsu_aspects, requires = "choices")]
    aspects: Option<Aspects>,
    /// With --choices: the mood lines that hold a mood (0 to 5; lines 0–1 are d8, 2–3 d6,
    /// 4–5 d4), e.g. 0,2,4; the open lines are offered as new moods
    #[arg(long, value_name = "LINES", value_delimiter = ',', requires = "choices")]
    moods: Vec<usize>,
    /// With --choices: the overloaded mood's line
    #[arg(long, value_name = "LINE", requires = "choices")]
    overloaded: Option<usize>,
    /// With --choices: a sentiment is put at risk for mood advantage
    #[arg(long, requires = "choices")]
    risk_sentiment: bool,
}

fn parse_nsu_aspects(list: &str) -> Result<Aspects, String> {
    let dice: Vec<Option<Die>> = list.split(',').map(|d| parse_nsu_die(d.trim()).ok()).collect();
    match dice[..] {
        [Some(body), Some(mind), Some(heart)] => Ok(Aspects { body, mind, heart }),
        _ => Err(format!("{list:?} is not three NSU dice (4, 6 or 8) for Body, Mind and Heart, e.g. 8,6,4")),
    }
}

/// The sheet and set-up `--choices` describes: only what changes the dice is on it.
fn nsu_approach(args: &NsuOdds, at_risk: AtRisk, aspects: Aspects) -> anyhow::Result<(Sheet, NsuRollSetup)> {
    let mut sheet = Sheet { aspects: Some(aspects), ..Sheet::default() };
    for &line in args.moods.iter().chain(&args.overloaded) {
        let slot =
            sheet.moods.get_mut(line).ok_or_else(|| anyhow!("--moods: there is no mood line {line} (0 to 5)"))?;
        let overloaded = args.overloaded == Some(line);
        // An overloaded mood's level is past its threshold; the level does not change the dice.
        let level = if overloaded { MOOD_LINE_DICE[line].sides() } else { 0 };
        *slot = Some(Mood { name: format!("mood {line}"), level, overloaded });
    }
    if args.skill > 0 {
        sheet.skills[0] = Some(Skill { name: "skill".into(), modifier: args.skill, boxes: AspectBoxes::default() });
    }
    if args.risk_sentiment {
        sheet.sentiments[0] = Some(Sentiment { name: "sentiment".into(), state: SentimentState::Connected });
    }
    let setup = NsuRollSetup {
        aspect_advantages: args.aspect_advantage.into(),
        aspect_disadvantages: args.aspect_disadvantage.into(),
        skill: (args.skill > 0).then_some(SkillChoice::Existing { line: 0 }),
        risked_sentiment: args.risk_sentiment.then_some(0),
        // The aspect and the mood are what the choices vary.
        ..NsuRollSetup::new("", Aspect::Body, at_risk, MoodChoice::Existing { line: 0 })
    };
    Ok((sheet, setup))
}

/// `{"choices":[{"aspect":"body","mood_line":0,"mood_die":8,"new_mood":false,"mood_edge":
/// "none","win":p,"tie":p,"lose":p,"best":bool,"best_for_aspect":bool},…]}`.
fn nsu_choices_json(approaches: &[Approach]) -> String {
    let entries: Vec<String> = approaches
        .iter()
        .map(|a| {
            let edge = word(a.plan.mood_edge);
            format!(
                "{{\"aspect\":\"{}\",\"mood_line\":{},\"mood_die\":{},\"new_mood\":{},\"mood_edge\":\"{edge}\",{},\"best\":{},\"best_for_aspect\":{}}}",
                a.aspect.word().to_lowercase(),
                a.mood_line,
                a.plan.mood_die.sides(),
                a.new_mood,
                chance_fields(&[("win", a.odds.win), ("tie", a.odds.tie), ("lose", a.odds.lose)]),
                a.best,
                a.best_for_aspect
            )
        })
        .collect();
    format!("{{\"choices\":[{}]}}", entries.join(","))
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum AtRiskArg {
    Character,
    World,
}

fn parse_nsu_die(sides: &str) -> Result<Die, String> {
    sides.parse().ok().and_then(Die::from_sides).ok_or_else(|| "an NSU die has 4, 6 or 8 sides".to_owned())
}

fn edge(advantage: bool, disadvantage: bool) -> Edge {
    Edge::net(advantage.into(), disadvantage.into())
}

/// The odds as one line of JSON, `{"win":p,"tie":p,"lose":p,"margin":{"-7":p,…}}`, with
/// margins ascending. Each probability is the exact value rounded to 15 significant digits
/// (written by hand because serde_json would print 1/2 as `0.5` and reorder the keys).
fn nsu_odds_json(odds: &nsu_odds::ActionOdds) -> String {
    odds_object(
        &[("win", odds.win), ("tie", odds.tie), ("lose", odds.lose)],
        "margin",
        odds.margin.iter().map(|(m, chance)| (m, *chance)),
    )
}

/// Probabilities in the odds' JSON: the exact value rounded to this many significant digits.
const SIGNIFICANT: usize = 15;

/// `"name":p` for each named chance, joined by commas.
fn chance_fields(named: &[(&str, Chance)]) -> String {
    let fields: Vec<String> = named.iter().map(|(name, c)| format!("\"{name}\":{}", c.decimal(SIGNIFICANT))).collect();
    fields.join(",")
}

/// One JSON object: the named chances, then `"table":{"key":p,…}` with its keys in the
/// order given.
fn odds_object<K: std::fmt::Display>(
    named: &[(&str, Chance)],
    table: &str,
    rows: impl IntoIterator<Item = (K, Chance)>,
) -> String {
    let rows: Vec<String> = rows.into_iter().map(|(k, c)| format!("\"{k}\":{}", c.decimal(SIGNIFICANT))).collect();
    format!("{{{},\"{table}\":{{{}}}}}", chance_fields(named), rows.join(","))
}

#[derive(Args)]
#[group(required = true, multiple = false)]
struct ExportWhat {
    /// The character's id
    #[arg(long, value_name = "ID")]
    character: Option<String>,
    /// The game's id (with all its characters)
    #[arg(long, value_name = "ID")]
    game: Option<String>,
    /// Every game and character
    #[arg(long)]
    all: bool,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match run(&cli) {
        Ok(code) => code,
        // The reader went away (`sheetkeeper list | head -1`): nothing left to say to it.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let message = error_message(&e);
            let text = if cli.json {
                let kind =
                    e.chain().find_map(|c| c.downcast_ref::<sheetkeeper::Error>()).map_or("invalid", |e| e.kind());
                serde_json::json!({ "kind": kind, "message": message }).to_string()
            } else {
                format!("sheetkeeper: {message}")
            };
            to_stderr(&text);
            ExitCode::from(1)
        }
    }
}

/// A usage error (exit 2) as clap words it — as `{"kind":"usage","message":…}` on stderr
/// when `--json` was given. `--help` and `--version` print as usual.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let json = std::env::args_os().skip(1).take_while(|a| a != "--").any(|a| a == "--json");
    let code = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    if json && !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let message = e.render().to_string();
        let message = message.trim().strip_prefix("error: ").unwrap_or(message.trim());
        to_stderr(&serde_json::json!({ "kind": "usage", "message": message }).to_string());
    } else {
        // A closed stdout or stderr is not worth a panic.
        let _ = e.print();
    }
    code
}

/// The error and its causes, each said once: a core error already repeats its cause's text
/// (`path: No such file…`), which anyhow's `{:#}` would print a second time.
fn error_message(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

fn to_stderr(text: &str) {
    // Nowhere left to report a failure to write the error itself.
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// One result on stdout. A closed stdout is an error here (not a panic, as with `println!`);
/// `main` takes a broken pipe as a quiet exit.
fn out(text: &str) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{text}")?;
    stdout.flush()
}

fn db_path(db: Option<&Path>) -> anyhow::Result<PathBuf> {
    db.map(Path::to_owned)
        .or_else(paths::default_db_path)
        .ok_or_else(|| anyhow!("--db: no database path given and no home folder to find the app's database in"))
}

fn open(db: Option<&Path>) -> anyhow::Result<Store> {
    let path = db_path(db)?;
    Store::open(&path).with_context(|| format!("opening the database {}", path.display()))
}

/// SIGINT and SIGTERM, listened for from before a long-running command says it is ready
/// (a signal sent as soon as the ready line is read ends it cleanly, never by default) to
/// its end; each listener lives as long as the wait, so no signal falls between two looks.
struct Interrupts {
    runtime: tokio::runtime::Runtime,
    #[cfg(unix)]
    signals: [tokio::signal::unix::Signal; 2],
}

impl Interrupts {
    fn listen() -> anyhow::Result<Interrupts> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        #[cfg(unix)]
        let signals = {
            use tokio::signal::unix::{signal, SignalKind};
            let _entered = runtime.enter();
            [signal(SignalKind::interrupt())?, signal(SignalKind::terminate())?]
        };
        Ok(Interrupts {
            runtime,
            #[cfg(unix)]
            signals,
        })
    }

    /// Waits for a signal, calling `tick` every 100 ms meanwhile.
    fn wait(self, mut tick: impl FnMut()) -> anyhow::Result<()> {
        #[cfg(unix)]
        let [mut interrupt, mut terminate] = self.signals;
        self.runtime.block_on(async {
            #[cfg(unix)]
            let signalled = async {
                tokio::select! {
                    _ = interrupt.recv() => {},
                    _ = terminate.recv() => {},
                }
            };
            #[cfg(not(unix))]
            let signalled = tokio::signal::ctrl_c();
            tokio::pin!(signalled);
            let mut every = tokio::time::interval(std::time::Duration::from_millis(100));
            loop {
                tokio::select! {
                    _ = &mut signalled => return Ok(()),
                    _ = every.tick() => tick(),
                }
            }
        })
    }
}

fn host(db: Option<&Path>, game: uuid::Uuid, listen: std::net::SocketAddr, name: &str) -> anyhow::Result<()> {
    let config = link::HostConfig { db: db_path(db)?, game, listen, name: name.to_owned() };
    let game_name = services::list(&open(db)?)?.into_iter().find(|g| g.game.id == game).map(|g| g.game.name);
    let handle = link::HostHandle::start(config)?;
    let interrupts = Interrupts::listen()?;
    let status = handle.status();
    out(&format!("hosting game={} listen={} code={}", status.game, status.listen, status.code))?;
    // "Join a table nearby" finds it; best effort: without multicast the address still works.
    let port = status.listen.parse::<std::net::SocketAddr>().map_or(0, |a| a.port());
    let _advertised = match link::discovery::advertise(game_name.as_deref().unwrap_or(name), game, port) {
        Ok(advert) => Some(advert),
        Err(e) => {
            to_stderr(&format!("sheetkeeper: not announced on the local network ({e}); join by the address"));
            None
        }
    };
    let mut code_number = status.code_number;
    let (mut paused, mut told) = (false, Vec::new());
    let mut failed = None;
    let typed = typed_lines();
    interrupts.wait(|| {
        while let Ok(line) = typed.try_recv() {
            if let Err(e) = host_command(&handle, &line) {
                to_stderr(&format!("sheetkeeper: {e}"));
            }
        }
        let status = handle.status();
        let mut lines = Vec::new();
        if status.code_number != code_number {
            code_number = status.code_number;
            lines.push(format!("code={}", status.code));
        }
        if status.pairing_paused != paused {
            paused = status.pairing_paused;
            if paused {
                lines.push(format!("paused wrong_codes={}", status.wrong_codes));
                to_stderr(&format!(
                    "sheetkeeper: someone tried {} wrong codes; pairing is paused (paired devices still come in). \
                     Type `open` to open it again with a new code",
                    status.wrong_codes
                ));
            }
        }
        for c in status.claims.iter().filter(|c| !told.contains(*c)) {
            lines.push(format!("claim device={} character={} name={}", c.device, c.character, c.character_name));
            to_stderr(&format!(
                "sheetkeeper: “{}” asks to play “{}”; type `approve {}` or `decline {}`",
                c.device_name, c.character_name, c.character, c.character
            ));
        }
        told = status.claims;
        for line in lines {
            if let Err(e) = out(&line) {
                failed.get_or_insert(e);
            }
        }
    })?;
    handle.stop();
    failed.map_or(Ok(()), |e| Err(e.into()))
}

/// The lines typed on standard input, read on a thread of their own.
fn typed_lines() -> std::sync::mpsc::Receiver<String> {
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in io::stdin().lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// What the host's person typed: `approve ID`, `decline ID`, `open`.
fn host_command(handle: &link::HostHandle, line: &str) -> anyhow::Result<()> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let claim_of = |id: &str| -> anyhow::Result<(uuid::Uuid, uuid::Uuid)> {
        let character = uuid::Uuid::parse_str(id).map_err(|_| anyhow!("{id:?} is not a character id"))?;
        let request = handle.status().claims.into_iter().find(|c| c.character == character);
        let request = request.ok_or_else(|| anyhow!("no device asks to play {character}"))?;
        Ok((request.device, character))
    };
    match words.as_slice() {
        [] => Ok(()),
        ["open"] => {
            handle.open_pairing();
            Ok(())
        }
        ["approve", id] => {
            let (device, character) = claim_of(id)?;
            Ok(handle.approve_claim(device, character)?)
        }
        ["decline", id] => {
            let (device, character) = claim_of(id)?;
            Ok(handle.decline_claim(device, character)?)
        }
        _ => Err(anyhow!("{line:?}: type `approve CHARACTER_ID`, `decline CHARACTER_ID` or `open`")),
    }
}

fn join(
    db: Option<&Path>,
    addr: std::net::SocketAddr,
    code: Option<&str>,
    once: bool,
    claims: &[uuid::Uuid],
    name: &str,
) -> anyhow::Result<()> {
    let config = link::JoinConfig { db: db_path(db)?, addr, code: code.map(str::to_owned), name: name.to_owned() };
    let handle = link::JoinHandle::start(config);
    let linked = |status: &link::JoinStatus| -> anyhow::Result<uuid::Uuid> {
        match (status.state, status.game) {
            (_, Some(game)) if status.caught_up => Ok(game),
            (link::LinkState::WrongCode, _) => Err(anyhow!("the code did not match; nothing was changed")),
            _ => Err(anyhow!(status.message.clone().unwrap_or_else(|| format!("the table at {addr} did not answer")))),
        }
    };
    let mut game = linked(&handle.wait(std::time::Duration::from_secs(30)))?;
    for character in claims {
        if handle.claim(*character)? == link::Claimed::Asked {
            to_stderr(&format!("sheetkeeper: asked the table's person to let this device play {character}"));
        }
        game = linked(&handle.wait(std::time::Duration::from_secs(30)))?;
    }
    let interrupts = if once { None } else { Some(Interrupts::listen()?) };
    out(&format!("joined game={game}"))?;
    if let Some(interrupts) = interrupts {
        let mut last = handle.status().state;
        interrupts.wait(|| {
            let state = handle.status();
            if state.state != last {
                last = state.state;
                to_stderr(&format!(
                    "link: {:?}{}",
                    state.state,
                    state.message.map(|m| format!(" — {m}")).unwrap_or_default()
                ));
            }
        })?;
    } else {
        // Whatever this device changed meanwhile has gone out and been answered.
        linked(&handle.wait(std::time::Duration::from_secs(30)))?;
    }
    handle.stop();
    Ok(())
}

/// Prints `value` as JSON with --json, else the human line(s).
fn print<T: Serialize>(json: bool, value: &T, human: impl FnOnce(&T) -> String) -> io::Result<()> {
    if json {
        out(&serde_json::to_string_pretty(value).expect("views always serialize"))
    } else {
        out(&human(value))
    }
}

/// `check`'s human report: every section that found something, by name, each problem on
/// its own line below it (`integrity`'s lone "ok" is not a problem).
fn check_text(r: &sheetkeeper::store::CheckReport) -> String {
    if r.ok {
        return format!("ok (schema {}, SQLite {})", r.schema_version, r.sqlite_version);
    }
    let integrity: &[String] = if r.integrity == ["ok"] { &[] } else { &r.integrity };
    let sections = [
        ("integrity", integrity),
        ("foreign keys", &r.foreign_key_violations[..]),
        ("Penny Ante", &r.penny_ante[..]),
        ("Mezzo", &r.mezzo[..]),
        ("Scattershot", &r.scattershot[..]),
        ("files", &r.files[..]),
    ];
    let mut lines = vec!["problems found:".to_owned()];
    for (name, problems) in sections.into_iter().filter(|(_, p)| !p.is_empty()) {
        lines.push(format!("{name}:"));
        lines.extend(problems.iter().map(|p| format!("  - {p}")));
    }
    lines.join("\n")
}

fn run(cli: &Cli) -> anyhow::Result<ExitCode> {
    let db = cli.db.as_deref();
    match &cli.command {
        Command::List => {
            let store = open(db)?;
            let games = services::list(&store)?;
            #[derive(Serialize)]
            struct Listing<'a> {
                games: &'a [services::GameView],
            }
            print(cli.json, &Listing { games: &games }, |l| {
                let mut out = Vec::new();
                for g in l.games {
                    out.push(format!("{}  {} ({})", g.game.id, g.game.name, g.system_label));
                    out.extend(g.characters.iter().map(|c| format!("  {}  {}", c.id, c.name)));
                }
                if out.is_empty() {
                    "No games yet.".into()
                } else {
                    out.join("\n")
                }
            })?;
        }
        Command::View { game, viewer } => {
            let store = open(db)?;
            let view = services::game_view_as(&store, *game, viewer)?;
            print(true, &view, |_| String::new())?;
        }
        Command::Host { game, listen, name } => host(db, *game, *listen, name)?,
        Command::Join { addr, code, once, claim, name } => join(db, *addr, code.as_deref(), *once, claim, name)?,
        Command::Devices { game } => {
            let devices = services::link_devices(&open(db)?, *game)?;
            print(cli.json, &devices, |list| {
                if list.is_empty() {
                    return "No paired devices.".into();
                }
                list.iter()
                    .map(|d| {
                        let side = match d.peer.side {
                            sheetkeeper::store::PeerSide::Host => "joined this device's table",
                            sheetkeeper::store::PeerSide::Joined => "hosts a table this device joined",
                        };
                        let removed = if d.peer.removed_at.is_some() { " (removed)" } else { "" };
                        format!(
                            "{}  {}  {side}: {}{removed}",
                            d.peer.device_id,
                            d.peer.name,
                            d.game_name.as_deref().unwrap_or("?")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            })?;
        }
        Command::Unpair { device } => {
            let done = services::link_unpair(&mut open(db)?, *device)?;
            print(cli.json, &done, |d| d.message.clone())?;
        }
        Command::Check => {
            let report = services::check(&open(db)?)?;
            let printed = print(cli.json, &report, check_text);
            if !report.ok {
                // Exit 1 even when nobody stayed to read the report.
                return Ok(ExitCode::from(1));
            }
            printed?;
        }
        Command::Backup { file } => {
            open(db)?.backup_to(file)?;
            let done = services::Done { message: format!("Backed up the database to {}.", file.display()) };
            print(cli.json, &done, |d| d.message.clone())?;
        }
        Command::Import { file, dry_run, as_copy, replace } => {
            let mut store = open(db)?;
            if *dry_run {
                let preview = services::import_preview(&store, file, *as_copy)?;
                print(cli.json, &preview, |p| {
                    let c = p.counts;
                    let mut out = vec![format!(
                        "Would import: {} new, {} updated, {} conflicting, {} unchanged.",
                        c.new, c.update, c.conflict, c.unchanged
                    )];
                    for (what, item) in
                        p.games.iter().map(|i| ("game", i)).chain(p.characters.iter().map(|i| ("character", i)))
                    {
                        out.push(format!("  {what} {} “{}”: {:?}", item.id, item.name, item.status));
                    }
                    out.join("\n")
                })?;
            } else {
                let options = ImportOptions { as_copy: *as_copy, replace_conflicts: *replace };
                let report = services::import(&mut store, file, options)?;
                print(cli.json, &report, |r| r.message.clone())?;
            }
        }
        Command::Export { what, file } => {
            let scope = match (&what.character, &what.game) {
                (Some(id), _) => ExportScope::Character(parse_id("--character", id)?),
                (_, Some(id)) => ExportScope::Game(parse_id("--game", id)?),
                _ => ExportScope::All,
            };
            let done = services::export(&open(db)?, scope, file)?;
            print(cli.json, &done, |d| d.message.clone())?;
        }
        // Odds and scores are pure arithmetic: always JSON, and no database is opened.
        Command::Odds { game: OddsGame::Nsu(args) } => {
            let at_risk = match args.at_risk {
                AtRiskArg::Character => AtRisk::Character,
                AtRiskArg::World => AtRisk::World,
            };
            let helper = args.helper_die.map(|die| (die, edge(args.helper_advantage, args.helper_disadvantage)));
            if let (true, Some(aspects)) = (args.choices, args.aspects) {
                let (sheet, setup) = nsu_approach(args, at_risk, aspects)?;
                out(&nsu_choices_json(&approaches(&sheet, &setup, helper)?))?;
                return Ok(ExitCode::SUCCESS);
            }
            let (Some(aspect_die), Some(mood_die)) = (args.aspect_die, args.mood_die) else {
                return Err(anyhow!("--aspect-die and --mood-die: both are needed without --choices"));
            };
            let setup = ActionRollSetup {
                aspect_die,
                mood_die,
                at_risk,
                aspect_edge: edge(args.aspect_advantage, args.aspect_disadvantage),
                mood_edge: edge(args.mood_advantage, args.mood_disadvantage),
                skill: args.skill,
                helper_die: args.helper_die,
                helper_edge: edge(args.helper_advantage, args.helper_disadvantage),
            };
            out(&nsu_odds_json(&nsu_odds::action_odds(&setup)))?;
        }
        Command::Odds { game: OddsGame::PennyAnte(args) } => {
            let showdown = Showdown {
                mine: Dice { known: args.mine.0.clone(), unknown: args.mine_unknown },
                theirs: Dice { known: args.theirs.0.clone(), unknown: args.theirs_unknown },
                circumstances: Dice { known: args.circumstances.0.clone(), unknown: args.circumstances_unknown },
            };
            let flags = |e: sheetkeeper::Error| -> anyhow::Error {
                match e {
                    // The library names a side ("mine"); name the arguments that make it up.
                    sheetkeeper::Error::Invalid { field, problem } if field == "mine" || field == "theirs" => {
                        anyhow!("--{field}, --{field}-unknown, --circumstances, --circumstances-unknown: {problem}")
                    }
                    e => e.into(),
                }
            };
            if args.choices {
                out(&penny_ante_choices_json(&reroll_choices(&showdown).map_err(flags)?))?;
            } else {
                out(&penny_ante_odds_json(&penny_ante_odds::showdown_odds(&showdown).map_err(flags)?))?;
            }
        }
        Command::Odds { game: OddsGame::Mezzo(args) } => {
            let variant = match args.variant {
                VariantArg::Steps => MezzoVariant::Steps,
                VariantArg::D6 => MezzoVariant::D6,
            };
            let flag = |e: sheetkeeper::Error| match e {
                // The library names the list (`votes`) or a count in it (`votes[2]`).
                sheetkeeper::Error::Invalid { field, problem } if field == "votes" => anyhow!("--votes: {problem}"),
                sheetkeeper::Error::Invalid { field, problem } if field.starts_with("votes[") => {
                    anyhow!("--votes: {field}: {problem}")
                }
                // A first roll missing: the roll names the option's die (`options[1].first`).
                sheetkeeper::Error::Invalid { field, problem } if field.starts_with("options[") => {
                    anyhow!("--firsts: {field}: {problem}")
                }
                e => e.into(),
            };
            match (args.choices, &args.firsts) {
                (false, _) => out(&mezzo_odds_json(&mezzo_odds::odds(&args.votes.0, variant).map_err(flag)?))?,
                (true, None) => out(&mezzo_next_vote_json(&next_vote(&args.votes.0, variant).map_err(flag)?))?,
                (true, Some(firsts)) => {
                    if variant != MezzoVariant::D6 {
                        bail!("--firsts: only the D6 variant bursts (add --variant d6)");
                    }
                    let mut source = Entered::new(firsts.0.iter().copied());
                    let conflict = D6Conflict::roll(&args.votes.0, &mut source).map_err(flag)?;
                    if source.remaining() > 0 {
                        bail!(
                            "--firsts: {} faces for the options that have votes, but {} of them have votes",
                            firsts.0.len(),
                            firsts.0.len() - source.remaining()
                        );
                    }
                    out(&mezzo_bursts_json(&conflict_bursts(&conflict).map_err(flag)?))?;
                }
            }
        }
        Command::Odds { game: OddsGame::Scattershot(args) } => {
            let defaults = ScattershotSettings::default();
            let cj = args.critical_juncture.unwrap_or(defaults.critical_juncture);
            // The library names the value (`rating`, `actor.modifier`, `resistor_2.rating`);
            // name the flag.
            let flag = |e: sheetkeeper::Error| match e {
                sheetkeeper::Error::Invalid { field, problem } => {
                    scattershot_flag_error(&field, &problem, args.resistor_rating.len())
                }
                e => e.into(),
            };
            if args.choices {
                let experience_die = args.experience_die.unwrap_or(defaults.experience_die);
                let settings = ScattershotSettings { critical_juncture: cj, experience_die, ..defaults };
                let roll = scattershot_roll(args, &settings).map_err(flag)?;
                out(&scattershot_choices_json(&bidding(&roll).map_err(flag)?))?;
            } else {
                let odds = scattershot_odds::mib_odds(args.rating, args.modifier, cj).map_err(flag)?;
                out(&scattershot_odds_json(&odds))?;
            }
        }
        Command::Roll { expression, seed } => {
            use rand::SeedableRng;
            let parsed = dice_tray::parse(expression)?;
            let rolled = match seed {
                Some(seed) => dice_tray::roll(&parsed, &mut rand::rngs::StdRng::seed_from_u64(*seed)),
                None => dice_tray::roll(&parsed, &mut rand::rng()),
            };
            out(&serde_json::to_string(&rolled).expect("a roll always serializes"))?;
        }
        Command::Score { game: ScoreGame::PennyAnte { dice } } => {
            let hand = penny_ante::score(dice)?;
            #[derive(Serialize)]
            struct HandJson<'a> {
                score: u32,
                category: &'static str,
                dice: &'a [u8],
            }
            let json = HandJson { score: hand.score, category: hand.category.label(), dice: &hand.dice };
            out(&serde_json::to_string(&json).expect("a hand always serializes"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
