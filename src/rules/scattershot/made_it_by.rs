//! A Made-It-By roll (RULES.md §4.3) through the three phases of Resolution, as pure moves.
//!
//! 1. Opportunity ([`MibRoll::start`]): the actor's rating and modifiers; in a contested
//!    roll, the resistor's too. The Factor, Points and Bonus facets default to 1 each.
//! 2. Decision: each party rolls 2d10 ([`MibRoll::roll_dice`]); its basic MIB is its rating
//!    plus modifiers less the two faces. Anyone may add experience dice from their own pool,
//!    to either MIB, before or after the 2d10 ([`MibRoll::add_experience_die`]); the roller
//!    sees the face and chooses to add or subtract it ([`MibRoll::choose_sign`]), and more
//!    may follow — a bidding war. [`MibRoll::decide`] ends the phase and pays the dice from
//!    the pools. A contest's number is the RMIB: the actor's MIB less the resistor's.
//! 3. Application: a party below 0 may buy its number up to 0 with complications, +1 each,
//!    at most the Epic Index ([`MibRoll::buy_complications`]); a party above 0 may spend
//!    points on benefits, 1 each ([`MibRoll::spend_benefits`]); every point above the
//!    Critical Juncture was taken as benefits when the phase began. [`MibRoll::conclude`]
//!    reads the final number: at or above the Critical Juncture a **Telling Blow**, below
//!    minus it a **Catastrophic Failure**, otherwise a success from 0 up or a failure.
//!    [`MibRoll::resource_result`] turns it into MIB × Factor off a resource, which lands
//!    at the end of the Application Phase ([`super::sheet::Sheet::apply_results`]); in a
//!    contest a negative RMIB is the resistor's success: [`MibRoll::resistor_result`]
//!    takes |RMIB| × Factor off a resource on the actor's side.
//! 4. A Telling Blow or a Catastrophic Failure has points to account for
//!    ([`MibRoll::account_juncture`]): the Points facet read at the final MIB on the UE
//!    chart ([`super::ue_chart`]), split as the actor's player decides.
//!
//! Rulings where the source is silent:
//! - An experience die's roller chooses add or subtract after seeing the face, and before
//!   any other die is rolled; the dice are paid from the pools when the Decision Phase ends
//!   (a roll abandoned before then costs nothing). A contributor may commit only dice their
//!   pool holds.
//! - In a contest each party adjusts from its own side: the actor's number is the RMIB and
//!   the resistor's is minus the RMIB. Each may buy its own number up to 0 (so the resistor's
//!   complications bring a positive RMIB down to 0) or spend it down to 0 on benefits, each
//!   with its own Epic Index of complications. Automatic benefits go to the actor only,
//!   as the RMIB is treated like any MIB.
//! - A contest reaches the Critical Juncture (Telling Blow, Catastrophic Failure,
//!   automatic benefits) only when the actor's or the resistor's basic MIB was itself a
//!   Telling Blow.
//! - The reading is taken from the number after every adjustment, so spending benefits
//!   below the Critical Juncture gives up the Telling Blow, and complications can lift a
//!   Catastrophic Failure.
//! - A result takes MIB × Factor only from a MIB above 0; a failure takes nothing. Each
//!   facet is 0 to 100. In a contest a negative RMIB is the resistor's success against the
//!   actor: |RMIB| × Factor off a resource on the actor's side (its Factor is the roll's).
//! - (audit #5, #6) A Telling Blow's points are the Points facet read at the final MIB on the
//!   UE chart (1 by default). The actor's player splits them between the actor's benefits
//!   and complications for the subject. A Catastrophic Failure's points (read at −MIB) are
//!   split the other way: complications on the actor, benefits for the subject's side. In
//!   a contest the subject is the resistor, so a Catastrophic RMIB is also the resistor's
//!   Telling Blow with the same accounting. The points above the Critical Juncture are
//!   still taken as the actor's benefits at once (they are not these points).
//! - (audit D-SC1, RULES.md §4.3 decision 2026-11-28) A contest reaches the Critical
//!   Juncture only when an initial MIB of either side is a Telling Blow (seed: "only when
//!   one of the initial MIB numbers succeeds the Critical Juncture threshold"). An initial
//!   Catastrophic Failure alone does not: actor −9 against resistor +1 (CJ 7) is a plain
//!   failure of −10. A resistor's initial Telling Blow still makes the actor's side fail
//!   catastrophically.
//! - (audit D-SC6) A contest may have several resistors (seed: "the two (or more)
//!   participants"); the seed settles one RMIB for them all, so the actor's MIB is set
//!   against the best of theirs: RMIB = actor's MIB − the highest resistor MIB (the first
//!   listed among equals is the one whose action characterizes a negative RMIB, and the
//!   subject of a Telling Blow). Every resistor rolls its own 2d10 and may take experience
//!   dice, buy complications (each within the Epic Index) and spend benefits, all on the
//!   resistors' side of the one RMIB. The Critical Juncture counts when an initial MIB of
//!   the actor or of any resistor is a Telling Blow — the best resistor's, as it is the
//!   highest. At most [`MAX_RESISTORS`].
//! - The Factor, Points and Bonus come from the UE chart the table filled in (Factor at
//!   the action's Magnitude, Points and Bonus at the final MIB) unless the roll typed its
//!   own facets; an empty chart reads the table's defaults.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::sheet::Resource;
pub use super::sheet::ResourceResult;
use super::ue_chart::{self, UeRow};
pub use super::ue_chart::{Facets, MAX_FACET};
use super::{clean_text, one_or_many, take_dice, Pools, Settings};
use crate::error::{Error, Result};
use crate::rules::dice::DiceSource;

/// The faces of the two dice every MIB subtracts.
pub const D10: u8 = 10;
/// The largest rating or modifier, either way, a roll accepts.
pub const MAX_TARGET: i32 = 10_000;
/// The most experience dice one roll takes.
pub const MAX_EXPERIENCE_DICE: usize = 1_000;
/// The most resistors one contest takes.
pub const MAX_RESISTORS: usize = 5;

/// One party's action as chosen in the Opportunity Phase.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    #[serde(default)]
    pub description: String,
    pub rating: i32,
    /// Every modifier added up (situation, residual modifiers, combat advantages held against
    /// the party).
    #[serde(default)]
    pub modifier: i32,
    /// The party's basic MIB as rolled somewhere else (another player's device or table) and
    /// typed in here: no 2d10 are rolled for it, and its rating and modifier are not used.
    /// Only a resistor's may be typed in; the actor rolls on this device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolled: Option<i32>,
}

/// A roll as the table sets it up.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollSetup {
    pub actor: Action,
    /// The resistors' actions in a contested roll (none: a roll against no one). Files
    /// written before several resistors name one, or none, as `resistor`.
    #[serde(default, alias = "resistor", deserialize_with = "one_or_many")]
    pub resistors: Vec<Action>,
    #[serde(default)]
    pub facets: Facets,
    /// The table's UE chart, which Points and Bonus are read from (empty: `facets`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chart: Vec<UeRow>,
}

/// Whose number a die or an adjustment goes to: the actor, or one of the resistors (0 the
/// first). Written "actor", "resistor" (the first resistor), "resistor_2", "resistor_3"…
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Party {
    Actor,
    Resistor(usize),
}

impl Party {
    /// The first (in most contests the only) resistor.
    pub const RESISTOR: Party = Party::Resistor(0);

    /// Its name in files, moves and error fields.
    pub fn key(self) -> String {
        match self {
            Party::Actor => "actor".to_owned(),
            Party::Resistor(0) => "resistor".to_owned(),
            Party::Resistor(i) => format!("resistor_{}", i + 1),
        }
    }

    /// Reads a name [`Party::key`] writes.
    pub fn from_key(key: &str) -> Option<Party> {
        match key {
            "actor" => Some(Party::Actor),
            "resistor" => Some(Party::RESISTOR),
            _ => {
                let n: usize = key.strip_prefix("resistor_")?.parse().ok()?;
                (2..=MAX_RESISTORS).contains(&n).then(|| Party::Resistor(n - 1))
            }
        }
    }
}

impl Serialize for Party {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.key())
    }
}

impl<'de> Deserialize<'de> for Party {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Party, D::Error> {
        let key = String::deserialize(deserializer)?;
        Party::from_key(&key).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown party {key:?}: expected \"actor\", \"resistor\" or \"resistor_2\" to \"resistor_{MAX_RESISTORS}\""
            ))
        })
    }
}

/// What an experience die's roller does with its face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sign {
    Add,
    Subtract,
}

/// An experience die rolled into a MIB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperienceDie {
    /// Whose pool it comes from.
    pub contributor: Uuid,
    pub sides: u8,
    pub face: u8,
    /// None until its roller chooses.
    pub sign: Option<Sign>,
}

impl ExperienceDie {
    /// What it adds to the MIB (0 while its sign is not chosen).
    pub fn value(&self) -> i32 {
        match self.sign {
            Some(Sign::Add) => i32::from(self.face),
            Some(Sign::Subtract) => -i32::from(self.face),
            None => 0,
        }
    }
}

/// One party's part of the roll.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartyRoll {
    pub action: Action,
    /// The 2d10, once rolled.
    #[serde(default)]
    pub dice: Option<[u8; 2]>,
    #[serde(default)]
    pub experience: Vec<ExperienceDie>,
    /// Complications taken to buy its number up, +1 each.
    #[serde(default)]
    pub complications: u32,
    /// Benefits it chose to spend its number on, 1 a point.
    #[serde(default)]
    pub benefits: u32,
}

impl PartyRoll {
    fn new(action: Action) -> PartyRoll {
        PartyRoll { action, dice: None, experience: Vec::new(), complications: 0, benefits: 0 }
    }

    /// Rating + modifiers − 2d10 ± the experience dice, once the 2d10 are rolled.
    /// A MIB rolled elsewhere is that number ± the experience dice added here.
    pub fn basic_mib(&self) -> Option<i32> {
        let experience: i32 = self.experience.iter().map(ExperienceDie::value).sum();
        if let Some(rolled) = self.action.rolled {
            return Some(rolled + experience);
        }
        let [a, b] = self.dice?;
        Some(self.action.rating + self.action.modifier - i32::from(a) - i32::from(b) + experience)
    }
}

/// Where a roll stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Dice are rolled, experience dice added.
    Decision,
    /// Complications bought, benefits spent.
    Application,
    /// Read.
    Done,
}

/// What a final MIB means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// Below minus the Critical Juncture.
    CatastrophicFailure,
    /// Below 0.
    Failure,
    /// 0 (a minimal success) or more.
    Success,
    /// At or above the Critical Juncture.
    TellingBlow,
}

impl Reading {
    pub fn succeeded(self) -> bool {
        self >= Reading::Success
    }
}

/// Reads a MIB against the Critical Juncture.
pub fn read(mib: i32, critical_juncture: u32) -> Reading {
    let cj = i64::from(critical_juncture);
    match i64::from(mib) {
        m if m >= cj => Reading::TellingBlow,
        m if m >= 0 => Reading::Success,
        m if m >= -cj => Reading::Failure,
        _ => Reading::CatastrophicFailure,
    }
}

/// Whether a contest's RMIB is read against the Critical Juncture: only when one of the two
/// basic MIBs was a Telling Blow by itself (an initial Catastrophic Failure is not enough).
pub fn contest_reaches_juncture(actor: i32, resistor: i32, critical_juncture: u32) -> bool {
    let succeeds = |mib| read(mib, critical_juncture) == Reading::TellingBlow;
    succeeds(actor) || succeeds(resistor)
}

/// How a roll ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The final MIB (RMIB in a contest) after every adjustment.
    pub mib: i32,
    pub reading: Reading,
    /// The actor's benefits, chosen and automatic.
    pub actor_benefits: u32,
    pub actor_complications: u32,
    pub resistor_benefits: u32,
    pub resistor_complications: u32,
    /// A Telling Blow's or Catastrophic Failure's points to account for (0 otherwise).
    #[serde(default)]
    pub juncture_points: u32,
}

/// How a Telling Blow's or Catastrophic Failure's points were split by the actor's player.
/// For a Telling Blow `to_actor` are the actor's benefits and `to_subject` complications for
/// the subject; for a Catastrophic Failure `to_actor` are complications on the actor and
/// `to_subject` benefits for the subject's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Juncture {
    pub to_actor: u32,
    pub to_subject: u32,
}

/// A MIB roll and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MibRoll {
    /// The table's settings when the roll began.
    pub settings: Settings,
    pub facets: Facets,
    pub phase: Phase,
    pub actor: PartyRoll,
    /// The resistors, in a contest (older rolls kept one, or none, as `resistor`).
    #[serde(default, alias = "resistor", deserialize_with = "one_or_many", skip_serializing_if = "Vec::is_empty")]
    pub resistors: Vec<PartyRoll>,
    /// Whether the Critical Juncture counts (always, except in some contests); set when the
    /// Decision Phase ends.
    #[serde(default)]
    pub juncture_applies: bool,
    /// The points above the Critical Juncture taken as the actor's benefits.
    #[serde(default)]
    pub automatic_benefits: u32,
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// The UE chart the roll reads Points and Bonus from (empty: `facets`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chart: Vec<UeRow>,
    /// How the Telling Blow's or Catastrophic Failure's points were split, once chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub juncture: Option<Juncture>,
}

/// What a roll move did, for the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum MibEvent {
    Started {
        contested: bool,
    },
    DiceRolled {
        party: Party,
        dice: [u8; 2],
    },
    ExperienceDieRolled {
        party: Party,
        contributor: Uuid,
        sides: u8,
        face: u8,
    },
    SignChosen {
        party: Party,
        contributor: Uuid,
        face: u8,
        sign: Sign,
    },
    /// The Decision Phase ended: the basic numbers, and the experience dice paid by each pool.
    Decided {
        actor_mib: i32,
        /// The resistor's MIB, the best of them when there are several.
        resistor_mib: Option<i32>,
        /// Every resistor's MIB, in order, when there are several.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        resistor_mibs: Vec<i32>,
        mib: i32,
        juncture_applies: bool,
        automatic_benefits: u32,
        paid: Vec<(Uuid, u32)>,
    },
    ComplicationsBought {
        party: Party,
        count: u32,
        mib: i32,
    },
    BenefitsSpent {
        party: Party,
        count: u32,
        mib: i32,
    },
    Concluded {
        outcome: Outcome,
    },
    JunctureAccounted {
        reading: Reading,
        to_actor: u32,
        to_subject: u32,
    },
}

fn check_action(party: Party, action: &Action) -> Result<Action> {
    let field = &party.key();
    for (name, value) in [("rating", action.rating), ("modifier", action.modifier)] {
        if !(-MAX_TARGET..=MAX_TARGET).contains(&value) {
            return Err(Error::invalid(
                format!("{field}.{name}"),
                format!("{value} is out of range: -{MAX_TARGET} to {MAX_TARGET}"),
            ));
        }
    }
    if let Some(rolled) = action.rolled {
        if party == Party::Actor {
            return Err(Error::invalid(
                "actor.rolled",
                "the actor rolls on this device; only the resistor's MIB can be typed in",
            ));
        }
        if !(-MAX_TARGET..=MAX_TARGET).contains(&rolled) {
            return Err(Error::invalid(
                format!("{field}.rolled"),
                format!("{rolled} is out of range: -{MAX_TARGET} to {MAX_TARGET}"),
            ));
        }
    }
    Ok(Action { description: clean_text(&format!("{field}.description"), &action.description)?, ..action.clone() })
}

impl MibRoll {
    /// Opens a roll (the Opportunity Phase is over: the actions and modifiers are chosen).
    pub fn start(setup: &RollSetup, settings: &Settings) -> Result<(MibRoll, Vec<MibEvent>)> {
        settings.check()?;
        let actor = check_action(Party::Actor, &setup.actor)?;
        if setup.resistors.len() > MAX_RESISTORS {
            return Err(Error::invalid(
                "resistors",
                format!("a contest takes at most {MAX_RESISTORS} resistors, not {}", setup.resistors.len()),
            ));
        }
        let resistors = setup
            .resistors
            .iter()
            .enumerate()
            .map(|(i, r)| check_action(Party::Resistor(i), r).map(PartyRoll::new))
            .collect::<Result<Vec<_>>>()?;
        for (name, value) in
            [("factor", setup.facets.factor), ("points", setup.facets.points), ("bonus", setup.facets.bonus)]
        {
            if value > MAX_FACET {
                return Err(Error::invalid(
                    format!("facets.{name}"),
                    format!("{value} is out of range: 0 to {MAX_FACET}"),
                ));
            }
        }
        let contested = !resistors.is_empty();
        let roll = MibRoll {
            settings: *settings,
            facets: setup.facets,
            phase: Phase::Decision,
            actor: PartyRoll::new(actor),
            resistors,
            juncture_applies: false,
            automatic_benefits: 0,
            outcome: None,
            chart: ue_chart::clean(&setup.chart).map_err(|e| match e {
                Error::Invalid { field, problem } => Error::invalid(format!("chart.{field}"), problem),
                other => other,
            })?,
            juncture: None,
        };
        Ok((roll, vec![MibEvent::Started { contested }]))
    }

    /// A party's part, or an error when a roll that is not contested is asked for its resistor.
    pub fn party(&self, party: Party) -> Result<&PartyRoll> {
        match party {
            Party::Actor => Ok(&self.actor),
            Party::Resistor(_) if self.resistors.is_empty() => {
                Err(Error::invalid("party", "this roll is not contested: it has no resistor"))
            }
            Party::Resistor(i) => self.resistors.get(i).ok_or_else(|| {
                Error::invalid("party", format!("this contest has {} resistor(s), not {}", self.resistors.len(), i + 1))
            }),
        }
    }

    fn party_mut(&mut self, party: Party) -> &mut PartyRoll {
        match party {
            Party::Actor => &mut self.actor,
            Party::Resistor(i) => &mut self.resistors[i],
        }
    }

    /// Every party with its part: the actor first, then each resistor in order.
    pub fn parties(&self) -> impl Iterator<Item = (Party, &PartyRoll)> {
        std::iter::once((Party::Actor, &self.actor))
            .chain(self.resistors.iter().enumerate().map(|(i, r)| (Party::Resistor(i), r)))
    }

    /// The resistor whose basic MIB counts against the actor's: the highest, the first
    /// listed among equals (None before every resistor has its number, or without one).
    ///
    /// Ruling (audit D-SC6): in a contest of several resistors (seed: "the two (or more)
    /// participants", one RMIB "settled" and the actions "commingled"), the actor's MIB is
    /// set against the best of theirs: the strongest counter-action is the one the actor
    /// must overcome and the one that characterizes a negative RMIB. So RMIB = actor's MIB
    /// − the highest resistor MIB. Each resistor still rolls, takes experience dice, buys
    /// complications and spends benefits on the resistors' side of the one RMIB.
    pub fn best_resistor(&self) -> Option<usize> {
        let mut best: Option<(usize, i32)> = None;
        for (i, r) in self.resistors.iter().enumerate() {
            let mib = r.basic_mib()?;
            if best.is_none_or(|(_, b)| mib > b) {
                best = Some((i, mib));
            }
        }
        best.map(|(i, _)| i)
    }

    fn in_phase(&self, phase: Phase, doing: &str) -> Result<()> {
        if self.phase != phase {
            let now = match self.phase {
                Phase::Decision => "the dice are still being rolled",
                Phase::Application => "the Decision Phase is over",
                Phase::Done => "the roll is concluded",
            };
            return Err(Error::invalid("phase", format!("{now}: {doing} is not possible now")));
        }
        Ok(())
    }

    fn pending(&self) -> Option<&ExperienceDie> {
        self.experience_dice().find(|d| d.sign.is_none())
    }

    /// The experience die waiting for its roller's sign, with whose MIB it is in.
    pub fn waiting_die(&self) -> Option<(Party, &ExperienceDie)> {
        self.parties().find_map(|(party, p)| p.experience.iter().find(|d| d.sign.is_none()).map(|d| (party, d)))
    }

    pub(super) fn experience_dice(&self) -> impl Iterator<Item = &ExperienceDie> {
        self.actor.experience.iter().chain(self.resistors.iter().flat_map(|r| &r.experience))
    }

    /// Rolls a party's 2d10.
    pub fn roll_dice(&self, party: Party, source: &mut (impl DiceSource + ?Sized)) -> Result<(MibRoll, Vec<MibEvent>)> {
        self.in_phase(Phase::Decision, "rolling the 2d10")?;
        let rolled = self.party(party)?;
        if rolled.action.rolled.is_some() {
            return Err(Error::invalid("party", "this party's MIB was rolled elsewhere and typed in"));
        }
        if rolled.dice.is_some() {
            return Err(Error::invalid("party", "this party's 2d10 are already rolled"));
        }
        let dice = [source.roll(D10, "first d10")?, source.roll(D10, "second d10")?];
        let mut next = self.clone();
        next.party_mut(party).dice = Some(dice);
        Ok((next, vec![MibEvent::DiceRolled { party, dice }]))
    }

    /// Rolls an experience die from `contributor`'s pool into `party`'s MIB; its roller then
    /// chooses its sign.
    pub fn add_experience_die(
        &self,
        party: Party,
        contributor: Uuid,
        pools: &Pools,
        source: &mut (impl DiceSource + ?Sized),
    ) -> Result<(MibRoll, Vec<MibEvent>)> {
        self.in_phase(Phase::Decision, "adding an experience die")?;
        self.party(party)?;
        if let Some(die) = self.pending() {
            return Err(Error::invalid(
                "sign",
                format!("choose to add or subtract the {} rolled by {} first", die.face, die.contributor),
            ));
        }
        if self.experience_dice().count() >= MAX_EXPERIENCE_DICE {
            return Err(Error::invalid(
                "experience",
                format!("a roll takes at most {MAX_EXPERIENCE_DICE} experience dice"),
            ));
        }
        let held = pools.get(&contributor).copied().unwrap_or(0);
        let committed = self.experience_dice().filter(|d| d.contributor == contributor).count() as u32;
        if committed >= held {
            return Err(Error::invalid(
                "contributor",
                format!("{contributor} holds {held} experience dice and has rolled {committed} into this roll"),
            ));
        }
        let sides = self.settings.experience_die;
        let face = source.roll(sides, "experience die")?;
        let mut next = self.clone();
        next.party_mut(party).experience.push(ExperienceDie { contributor, sides, face, sign: None });
        Ok((next, vec![MibEvent::ExperienceDieRolled { party, contributor, sides, face }]))
    }

    /// The roller of the experience die just rolled adds or subtracts its face.
    pub fn choose_sign(&self, sign: Sign) -> Result<(MibRoll, Vec<MibEvent>)> {
        self.in_phase(Phase::Decision, "choosing an experience die's sign")?;
        let Some((party, _)) = self.waiting_die() else {
            return Err(Error::invalid("sign", "no experience die is waiting for its sign"));
        };
        let mut next = self.clone();
        let die = next.party_mut(party).experience.iter_mut().find(|d| d.sign.is_none()).expect("found above");
        die.sign = Some(sign);
        let (contributor, face) = (die.contributor, die.face);
        Ok((next, vec![MibEvent::SignChosen { party, contributor, face, sign }]))
    }

    /// The basic MIB (RMIB in a contest: against the best resistor's MIB) once every 2d10
    /// is rolled, before any adjustment.
    pub fn basic(&self) -> Option<i32> {
        let actor = self.actor.basic_mib()?;
        if self.resistors.is_empty() {
            return Some(actor);
        }
        let best = self.resistors[self.best_resistor()?].basic_mib()?;
        Some(actor - best)
    }

    /// The number now, with the adjustments of the Application Phase.
    pub fn mib(&self) -> Option<i32> {
        let mut mib = i64::from(self.basic()?) - i64::from(self.automatic_benefits);
        mib += i64::from(self.actor.complications) - i64::from(self.actor.benefits);
        for r in &self.resistors {
            mib += i64::from(r.benefits) - i64::from(r.complications);
        }
        Some(mib as i32)
    }

    /// A party's own number: the MIB for the actor, minus it for the resistor.
    fn view(&self, party: Party) -> i32 {
        let mib = self.mib().expect("decided");
        if party == Party::Actor {
            mib
        } else {
            -mib
        }
    }

    /// Ends the Decision Phase: every 2d10 rolled and every experience die's sign chosen.
    /// Pays the experience dice from `pools` and takes the points above the Critical Juncture
    /// as the actor's benefits.
    pub fn decide(&self, pools: &Pools) -> Result<(MibRoll, Pools, Vec<MibEvent>)> {
        self.in_phase(Phase::Decision, "ending the Decision Phase")?;
        if self.parties().any(|(_, p)| p.basic_mib().is_none()) {
            return Err(Error::invalid("dice", "every party rolls its 2d10 first"));
        }
        if self.pending().is_some() {
            return Err(Error::invalid("sign", "an experience die is still waiting for its sign"));
        }
        let mut paid: Vec<(Uuid, u32)> = Vec::new();
        for die in self.experience_dice() {
            match paid.iter_mut().find(|(c, _)| *c == die.contributor) {
                Some((_, n)) => *n += 1,
                None => paid.push((die.contributor, 1)),
            }
        }
        let mut pools = pools.clone();
        for &(contributor, n) in &paid {
            take_dice(&mut pools, contributor, n, "pools", |held| {
                format!("{contributor} rolled {n} experience dice but holds only {held} now")
            })?;
        }
        let actor_mib = self.actor.basic_mib().expect("rolled");
        let resistor_mib = self.best_resistor().map(|i| self.resistors[i].basic_mib().expect("rolled"));
        let resistor_mibs = if self.resistors.len() > 1 {
            self.resistors.iter().map(|r| r.basic_mib().expect("rolled")).collect()
        } else {
            Vec::new()
        };
        let cj = self.settings.critical_juncture;
        let juncture_applies = resistor_mib.is_none_or(|r| contest_reaches_juncture(actor_mib, r, cj));
        let mut next = self.clone();
        next.phase = Phase::Application;
        next.juncture_applies = juncture_applies;
        let basic = next.basic().expect("rolled");
        next.automatic_benefits = if juncture_applies { (i64::from(basic) - i64::from(cj)).max(0) as u32 } else { 0 };
        let event = MibEvent::Decided {
            actor_mib,
            resistor_mib,
            resistor_mibs,
            mib: next.mib().expect("rolled"),
            juncture_applies,
            automatic_benefits: next.automatic_benefits,
            paid,
        };
        Ok((next, pools, vec![event]))
    }

    /// A party takes `count` complications, +1 each to its own number, up to 0 and at most
    /// the Epic Index in all.
    pub fn buy_complications(&self, party: Party, count: u32) -> Result<(MibRoll, Vec<MibEvent>)> {
        self.in_phase(Phase::Application, "buying complications")?;
        let taken = self.party(party)?.complications;
        if count == 0 {
            return Err(Error::invalid("count", "take at least 1 complication"));
        }
        let epic_index = self.settings.epic_index;
        if taken + count > epic_index {
            return Err(Error::invalid(
                "count",
                format!("at most {epic_index} complications (the Epic Index); {taken} taken already"),
            ));
        }
        let view = i64::from(self.view(party));
        if view + i64::from(count) > 0 {
            return Err(Error::invalid(
                "count",
                format!("complications buy a MIB up to 0 only: it is {view}, so at most {}", (-view).max(0)),
            ));
        }
        let mut next = self.clone();
        next.party_mut(party).complications += count;
        let mib = next.mib().expect("decided");
        Ok((next, vec![MibEvent::ComplicationsBought { party, count, mib }]))
    }

    /// A party spends `count` points of its own positive number on benefits, 1 each, down
    /// to 0 at most.
    pub fn spend_benefits(&self, party: Party, count: u32) -> Result<(MibRoll, Vec<MibEvent>)> {
        self.in_phase(Phase::Application, "spending benefits")?;
        self.party(party)?;
        if count == 0 {
            return Err(Error::invalid("count", "spend at least 1 point"));
        }
        let view = i64::from(self.view(party));
        if i64::from(count) > view {
            return Err(Error::invalid(
                "count",
                format!("benefits are spent from a MIB above 0 only: it is {view}, so at most {}", view.max(0)),
            ));
        }
        let mut next = self.clone();
        next.party_mut(party).benefits += count;
        let mib = next.mib().expect("decided");
        Ok((next, vec![MibEvent::BenefitsSpent { party, count, mib }]))
    }

    /// Ends the Application Phase and reads the final number.
    pub fn conclude(&self) -> Result<(MibRoll, Vec<MibEvent>)> {
        self.in_phase(Phase::Application, "concluding")?;
        let mib = self.mib().expect("decided");
        let reading = match read(mib, self.settings.critical_juncture) {
            Reading::TellingBlow if !self.juncture_applies => Reading::Success,
            Reading::CatastrophicFailure if !self.juncture_applies => Reading::Failure,
            reading => reading,
        };
        let outcome = Outcome {
            mib,
            reading,
            actor_benefits: self.actor.benefits + self.automatic_benefits,
            actor_complications: self.actor.complications,
            resistor_benefits: self.resistors.iter().map(|r| r.benefits).sum(),
            resistor_complications: self.resistors.iter().map(|r| r.complications).sum(),
            juncture_points: match reading {
                Reading::TellingBlow => self.read_chart(mib).points,
                Reading::CatastrophicFailure => self.read_chart(mib.saturating_neg()).points,
                _ => 0,
            },
        };
        let mut next = self.clone();
        next.phase = Phase::Done;
        next.outcome = Some(outcome);
        Ok((next, vec![MibEvent::Concluded { outcome }]))
    }

    /// The concluded roll's result on `target`'s resource: MIB × Factor, to subtract now
    /// (nothing from a MIB of 0 or less).
    pub fn resource_result(&self, target: Uuid, resource: Resource) -> Result<ResourceResult> {
        let outcome = self.outcome.ok_or_else(|| Error::invalid("phase", "conclude the roll first"))?;
        let amount = u64::from(outcome.mib.max(0) as u32) * u64::from(self.facets.factor);
        let amount = u32::try_from(amount).map_err(|_| Error::invalid("facets.factor", "the result is too large"))?;
        Ok(ResourceResult { target, resource, amount })
    }

    /// In a contest, a negative final RMIB is the resistor's success against the actor:
    /// |RMIB| × Factor off `target`'s resource (on the actor's side; nothing from an RMIB of
    /// 0 or more).
    pub fn resistor_result(&self, target: Uuid, resource: Resource) -> Result<ResourceResult> {
        let outcome = self.outcome.ok_or_else(|| Error::invalid("phase", "conclude the roll first"))?;
        if self.resistors.is_empty() {
            return Err(Error::invalid("resistor_target", "this roll is not contested: it has no resistor"));
        }
        let amount = u64::from(outcome.mib.min(0).unsigned_abs()) * u64::from(self.facets.factor);
        let amount = u32::try_from(amount).map_err(|_| Error::invalid("facets.factor", "the result is too large"))?;
        Ok(ResourceResult { target, resource, amount })
    }

    /// The facets the UE chart gives at `number` (the roll's own facets without a chart).
    pub fn read_chart(&self, number: i32) -> Facets {
        ue_chart::read(&self.chart, number, self.facets)
    }

    /// The residual modifier a concluded successful action may leave: the Bonus facet read
    /// at the final MIB.
    pub fn residual_bonus(&self) -> Option<u32> {
        self.outcome.filter(|o| o.reading.succeeded()).map(|o| self.read_chart(o.mib).bonus)
    }

    /// The actor's player splits a Telling Blow's or Catastrophic Failure's points (see
    /// [`Juncture`]); every point goes one way or the other, once.
    pub fn account_juncture(&self, split: Juncture) -> Result<(MibRoll, Vec<MibEvent>)> {
        let outcome = self.outcome.ok_or_else(|| Error::invalid("phase", "conclude the roll first"))?;
        if !matches!(outcome.reading, Reading::TellingBlow | Reading::CatastrophicFailure) {
            return Err(Error::invalid(
                "reading",
                "only a Telling Blow or a Catastrophic Failure has points to account for",
            ));
        }
        if self.juncture.is_some() {
            return Err(Error::invalid("juncture", "the points are accounted for already"));
        }
        let points = outcome.juncture_points;
        if u64::from(split.to_actor) + u64::from(split.to_subject) != u64::from(points) {
            return Err(Error::invalid(
                "to_subject",
                format!(
                    "the {points} point(s) go to one side or the other: {} and {} make {}",
                    split.to_actor,
                    split.to_subject,
                    u64::from(split.to_actor) + u64::from(split.to_subject)
                ),
            ));
        }
        let mut next = self.clone();
        next.juncture = Some(split);
        let event = MibEvent::JunctureAccounted {
            reading: outcome.reading,
            to_actor: split.to_actor,
            to_subject: split.to_subject,
        };
        Ok((next, vec![event]))
    }

    /// A party's own number now and what it may still buy or spend, during the Application
    /// Phase only (None before or after, or for the resistor of a roll with none).
    pub fn room(&self, party: Party) -> Option<Room> {
        if self.phase != Phase::Application {
            return None;
        }
        let taken = self.party(party).ok()?.complications;
        let number = self.view(party);
        let below = u32::try_from(-i64::from(number)).unwrap_or(0);
        Some(Room {
            number,
            complications: self.settings.epic_index.saturating_sub(taken).min(below),
            benefits: u32::try_from(number).unwrap_or(0),
        })
    }
}

/// A party's number in the Application Phase and the most it may adjust it by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Room {
    /// The MIB for the actor, minus it for the resistor.
    pub number: i32,
    /// Complications it may still take: up to 0, within the Epic Index.
    pub complications: u32,
    /// Points it may spend on benefits: down to 0.
    pub benefits: u32,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;

    use super::*;
    use crate::rules::dice::{Entered, Rolled};
    use crate::rules::test_support::{err, ADA, BO};

    const GM: Uuid = Uuid::from_u128(3);

    fn action(rating: i32, modifier: i32) -> Action {
        Action { description: String::new(), rating, modifier, rolled: None }
    }

    fn pools(entries: &[(Uuid, u32)]) -> Pools {
        entries.iter().copied().collect()
    }

    fn setup(actor: (i32, i32), resistor: Option<(i32, i32)>) -> RollSetup {
        RollSetup {
            actor: action(actor.0, actor.1),
            resistors: resistor.map(|(r, m)| action(r, m)).into_iter().collect(),
            facets: Facets::default(),
            chart: Vec::new(),
        }
    }

    /// A roll with its 2d10 typed in (the actor's, then the resistor's), decided.
    fn decided(setup: &RollSetup, actor: [u8; 2], resistor: Option<[u8; 2]>) -> MibRoll {
        let (roll, _) = MibRoll::start(setup, &Settings::default()).unwrap();
        let (mut roll, _) = roll.roll_dice(Party::Actor, &mut Entered::new(actor)).unwrap();
        if let Some(dice) = resistor {
            roll = roll.roll_dice(Party::RESISTOR, &mut Entered::new(dice)).unwrap().0;
        }
        roll.decide(&Pools::new()).unwrap().0
    }

    fn read_out(setup: &RollSetup, actor: [u8; 2], resistor: Option<[u8; 2]>) -> (i32, Reading) {
        let (done, _) = decided(setup, actor, resistor).conclude().unwrap();
        let outcome = done.outcome.unwrap();
        (outcome.mib, outcome.reading)
    }

    #[test]
    fn mib_is_rating_plus_modifiers_less_two_d10() {
        let (roll, events) = MibRoll::start(&setup((14, 2), None), &Settings::default()).unwrap();
        assert_eq!(events, vec![MibEvent::Started { contested: false }]);
        assert_eq!(roll.basic(), None);
        let (roll, events) = roll.roll_dice(Party::Actor, &mut Entered::new([3, 9])).unwrap();
        assert_eq!(events, vec![MibEvent::DiceRolled { party: Party::Actor, dice: [3, 9] }]);
        assert_eq!(roll.basic(), Some(4));
        assert_eq!(
            err(roll.roll_dice(Party::Actor, &mut Entered::new([1, 1]))),
            "party: this party's 2d10 are already rolled"
        );
        assert_eq!(
            err(roll.roll_dice(Party::RESISTOR, &mut Entered::new([1, 1]))),
            "party: this roll is not contested: it has no resistor"
        );
        let fresh = MibRoll::start(&setup((14, 2), None), &Settings::default()).unwrap().0;
        assert_eq!(
            err(fresh.roll_dice(Party::Actor, &mut Entered::new([11, 1]))),
            "first d10: 11 cannot be rolled on a d10 (1 to 10)"
        );
        assert!(
            err(MibRoll::start(&setup((MAX_TARGET + 1, 0), None), &Settings::default())).starts_with("actor.rating: ")
        );
    }

    #[test]
    fn the_reading_follows_the_critical_juncture() {
        // CJ 7: 7 and up a Telling Blow, 0 to 6 a success, -7 to -1 a failure, below -7 catastrophic.
        let cases = [
            (7, Reading::TellingBlow),
            (6, Reading::Success),
            (0, Reading::Success),
            (-1, Reading::Failure),
            (-7, Reading::Failure),
            (-8, Reading::CatastrophicFailure),
        ];
        for (mib, expected) in cases {
            assert_eq!(read(mib, 7), expected, "{mib}");
        }
        assert_eq!(read_out(&setup((20, 0), None), [1, 2], None), (7, Reading::TellingBlow));
        assert_eq!(read_out(&setup((10, 0), None), [9, 9], None), (-8, Reading::CatastrophicFailure));
        assert_eq!(read_out(&setup((10, 0), None), [5, 5], None), (0, Reading::Success));
    }

    #[test]
    fn every_point_above_the_critical_juncture_is_taken_as_benefits() {
        // 25 - 3 = 22 against CJ 7: 15 automatic benefits, the MIB stays a Telling Blow at 7.
        let roll = decided(&setup((25, 0), None), [1, 2], None);
        assert_eq!((roll.basic(), roll.mib(), roll.automatic_benefits), (Some(22), Some(7), 15));
        let (done, events) = roll.conclude().unwrap();
        let outcome = done.outcome.unwrap();
        assert_eq!((outcome.reading, outcome.actor_benefits), (Reading::TellingBlow, 15));
        assert_eq!(events, vec![MibEvent::Concluded { outcome }]);
    }

    #[test]
    fn benefits_are_spent_from_a_positive_mib_one_per_point() {
        // 15 - 5 = 10: 3 points above the Critical Juncture are benefits already.
        let roll = decided(&setup((15, 0), None), [2, 3], None);
        assert_eq!(roll.mib(), Some(10 - 3));
        let (spent, events) = roll.spend_benefits(Party::Actor, 2).unwrap();
        assert_eq!(events, vec![MibEvent::BenefitsSpent { party: Party::Actor, count: 2, mib: 5 }]);
        assert_eq!(
            err(spent.spend_benefits(Party::Actor, 6)),
            "count: benefits are spent from a MIB above 0 only: it is 5, so at most 5"
        );
        assert_eq!(err(spent.spend_benefits(Party::Actor, 0)), "count: spend at least 1 point");
        // Spending below the Critical Juncture gives up the Telling Blow.
        let outcome = spent.conclude().unwrap().0.outcome.unwrap();
        assert_eq!((outcome.mib, outcome.reading, outcome.actor_benefits), (5, Reading::Success, 2 + 3));
        let failed = decided(&setup((10, 0), None), [6, 6], None);
        assert!(err(failed.spend_benefits(Party::Actor, 1)).contains("it is -2, so at most 0"));
    }

    #[test]
    fn complications_buy_a_mib_up_to_zero_at_most_the_epic_index() {
        let roll = decided(&setup((10, 0), None), [6, 6], None);
        assert_eq!(roll.mib(), Some(-2));
        assert_eq!(
            err(roll.buy_complications(Party::Actor, 3)),
            "count: complications buy a MIB up to 0 only: it is -2, so at most 2"
        );
        let (bought, events) = roll.buy_complications(Party::Actor, 2).unwrap();
        assert_eq!(events, vec![MibEvent::ComplicationsBought { party: Party::Actor, count: 2, mib: 0 }]);
        let outcome = bought.conclude().unwrap().0.outcome.unwrap();
        assert_eq!((outcome.mib, outcome.reading, outcome.actor_complications), (0, Reading::Success, 2));
        // -6 needs 6, but the Epic Index (3) caps them: bought one at a time, the fourth is refused.
        let deep = decided(&setup((10, 0), None), [8, 8], None);
        let deep = deep.buy_complications(Party::Actor, 1).unwrap().0.buy_complications(Party::Actor, 2).unwrap().0;
        assert_eq!(
            err(deep.buy_complications(Party::Actor, 1)),
            "count: at most 3 complications (the Epic Index); 3 taken already"
        );
        assert_eq!(deep.mib(), Some(-3));
        // Complications lift a Catastrophic Failure (-9 → -6).
        let worst = decided(&setup((10, 0), None), [9, 10], None);
        let (lifted, _) = worst.buy_complications(Party::Actor, 3).unwrap();
        assert_eq!(lifted.conclude().unwrap().0.outcome.unwrap().reading, Reading::Failure);
        let up = decided(&setup((15, 0), None), [2, 3], None);
        assert_eq!(
            err(up.buy_complications(Party::Actor, 1)),
            "count: complications buy a MIB up to 0 only: it is 7, so at most 0"
        );
    }

    #[test]
    fn room_says_what_each_party_may_still_buy_or_spend() {
        // Before the Decision Phase ends there is nothing to buy or spend.
        let fresh = MibRoll::start(&setup((10, 0), None), &Settings::default()).unwrap().0;
        assert_eq!(fresh.room(Party::Actor), None);
        // -6: complications up to the Epic Index (3), then 2 more after one is taken.
        let deep = decided(&setup((10, 0), None), [8, 8], None);
        assert_eq!(deep.room(Party::Actor), Some(Room { number: -6, complications: 3, benefits: 0 }));
        let deep = deep.buy_complications(Party::Actor, 1).unwrap().0;
        assert_eq!(deep.room(Party::Actor), Some(Room { number: -5, complications: 2, benefits: 0 }));
        assert_eq!(deep.room(Party::RESISTOR), None, "no resistor");
        // A contest, RMIB 4 - (-1) = 5: the actor may spend 5, the resistor (at -5) buy 3.
        let contest = decided(&setup((12, 0), Some((10, 0))), [4, 4], Some([5, 6]));
        assert_eq!(contest.room(Party::Actor), Some(Room { number: 5, complications: 0, benefits: 5 }));
        assert_eq!(contest.room(Party::RESISTOR), Some(Room { number: -5, complications: 3, benefits: 0 }));
        assert_eq!(contest.conclude().unwrap().0.room(Party::Actor), None, "nothing after the conclusion");
    }

    #[test]
    fn experience_dice_added_through_either_character_of_one_player_come_from_the_one_stock() {
        use crate::rules::scattershot::{stock_of, Stocks};
        // Dana plays Ada and Bo (audit D-SC4): her stock holds 1 die.
        let dana = Uuid::from_u128(77);
        let stocks: Stocks = [(ADA, dana), (BO, dana)].into_iter().collect();
        let held = pools(&[(dana, 1)]);
        let (roll, _) = MibRoll::start(&setup((12, 0), None), &Settings::default()).unwrap();
        let from = |c| stock_of(&stocks, c);
        let (roll, _) = roll.add_experience_die(Party::Actor, from(ADA), &held, &mut Entered::new([5])).unwrap();
        let (roll, _) = roll.choose_sign(Sign::Add).unwrap();
        assert!(
            err(roll.add_experience_die(Party::Actor, from(BO), &held, &mut Entered::new([4])))
                .starts_with(&format!("contributor: {dana} holds 1 experience dice and has rolled 1")),
            "Bo's roll draws on the same stock, already spent"
        );
        let (roll, _) = roll.roll_dice(Party::Actor, &mut Entered::new([6, 6])).unwrap();
        let (_, left, _) = roll.decide(&held).unwrap();
        assert_eq!(left, pools(&[(dana, 0)]));
    }

    #[test]
    fn experience_dice_come_from_their_roller_s_pool_and_add_or_subtract_as_chosen() {
        let held = pools(&[(ADA, 2), (BO, 1)]);
        let (roll, _) = MibRoll::start(&setup((12, 0), None), &Settings::default()).unwrap();
        // Ada pre-empts the 2d10 with a die of her own and adds its 5.
        let (roll, events) = roll.add_experience_die(Party::Actor, ADA, &held, &mut Entered::new([5])).unwrap();
        assert_eq!(
            events,
            vec![MibEvent::ExperienceDieRolled { party: Party::Actor, contributor: ADA, sides: 6, face: 5 }]
        );
        assert_eq!(
            err(roll.add_experience_die(Party::Actor, BO, &held, &mut Entered::new([1]))),
            format!("sign: choose to add or subtract the 5 rolled by {ADA} first")
        );
        assert!(err(roll.decide(&held)).starts_with("dice:"));
        let (roll, _) = roll.choose_sign(Sign::Add).unwrap();
        let (roll, _) = roll.roll_dice(Party::Actor, &mut Entered::new([6, 6])).unwrap();
        assert_eq!(roll.basic(), Some(5), "12 less 12 on the dice, plus 5");
        // A bidding war: Bo subtracts his 4, Ada adds another 3.
        let (roll, _) = roll.add_experience_die(Party::Actor, BO, &held, &mut Entered::new([4])).unwrap();
        let (roll, events) = roll.choose_sign(Sign::Subtract).unwrap();
        assert_eq!(
            events,
            vec![MibEvent::SignChosen { party: Party::Actor, contributor: BO, face: 4, sign: Sign::Subtract }]
        );
        assert!(err(roll.add_experience_die(Party::Actor, BO, &held, &mut Entered::new([4])))
            .starts_with(&format!("contributor: {BO} holds 1 experience dice and has rolled 1")));
        assert!(err(roll.add_experience_die(Party::Actor, GM, &held, &mut Entered::new([4]))).contains("holds 0"));
        let (roll, _) = roll.add_experience_die(Party::Actor, ADA, &held, &mut Entered::new([3])).unwrap();
        assert!(err(roll.decide(&held)).starts_with("sign:"));
        let (roll, _) = roll.choose_sign(Sign::Add).unwrap();
        assert_eq!(roll.basic(), Some(4));
        assert_eq!(err(roll.choose_sign(Sign::Add)), "sign: no experience die is waiting for its sign");
        // The pools pay when the Decision Phase ends, and must still hold the dice.
        assert!(err(roll.decide(&pools(&[(ADA, 1), (BO, 1)]))).starts_with(&format!("pools: {ADA} rolled 2")));
        let (decided, left, events) = roll.decide(&held).unwrap();
        assert_eq!(left, pools(&[(ADA, 0), (BO, 0)]));
        assert!(matches!(&events[0], MibEvent::Decided { mib: 4, paid, .. } if paid == &vec![(ADA, 2), (BO, 1)]));
        assert!(err(decided.add_experience_die(Party::Actor, ADA, &held, &mut Entered::new([1])))
            .starts_with("phase: the Decision Phase is over"));
        // The die has the table's sides.
        let d10 = Settings { experience_die: 10, ..Settings::default() };
        let (roll, _) = MibRoll::start(&setup((12, 0), None), &d10).unwrap();
        assert!(err(roll.add_experience_die(Party::Actor, ADA, &held, &mut Entered::new([11]))).contains("on a d10"));
    }

    #[test]
    fn a_contest_subtracts_the_resistor_s_mib_from_the_actor_s() {
        let contest = setup((14, 0), Some((12, 1)));
        let roll = decided(&contest, [4, 5], Some([2, 3]));
        // 14 - 9 = 5 against 13 - 5 = 8: RMIB -3.
        assert_eq!(roll.basic(), Some(-3));
        // The actor buys up to 0 from its side; the resistor then cannot spend.
        let (bought, _) = roll.buy_complications(Party::Actor, 3).unwrap();
        assert!(err(bought.spend_benefits(Party::RESISTOR, 1)).contains("it is 0"));
        // The resistor instead spends its 3 on benefits, which brings the RMIB to 0.
        let (spent, _) = roll.spend_benefits(Party::RESISTOR, 3).unwrap();
        assert_eq!(spent.mib(), Some(0));
        let outcome = spent.conclude().unwrap().0.outcome.unwrap();
        assert_eq!((outcome.reading, outcome.resistor_benefits), (Reading::Success, 3));
        // A positive RMIB: the resistor's complications bring it down toward 0.
        let roll = decided(&contest, [1, 1], Some([5, 5]));
        assert_eq!(roll.basic(), Some(12 - 3));
        assert!(roll.juncture_applies, "the actor's 12 is a Telling Blow by itself");
        assert_eq!((roll.automatic_benefits, roll.mib()), (2, Some(7)));
        let (down, _) = roll.buy_complications(Party::RESISTOR, 3).unwrap();
        assert_eq!(down.mib(), Some(4));
        let outcome = down.conclude().unwrap().0.outcome.unwrap();
        assert_eq!((outcome.reading, outcome.resistor_complications, outcome.actor_benefits), (Reading::Success, 3, 2));
    }

    #[test]
    fn a_resistor_s_mib_rolled_elsewhere_is_typed_in_and_no_dice_are_rolled_for_it() {
        let settings = Settings::default();
        let elsewhere = Action { description: "Bo, on their phone".into(), rating: 0, modifier: 0, rolled: Some(3) };
        let setup = RollSetup {
            actor: action(14, 0),
            resistors: vec![elsewhere.clone()],
            facets: Facets::default(),
            chart: Vec::new(),
        };
        let (roll, events) = MibRoll::start(&setup, &settings).unwrap();
        assert_eq!(events, vec![MibEvent::Started { contested: true }]);
        assert_eq!(roll.resistors[0].basic_mib(), Some(3));
        assert_eq!(
            err(roll.roll_dice(Party::RESISTOR, &mut Entered::new([1, 1]))),
            "party: this party's MIB was rolled elsewhere and typed in"
        );
        // The actor rolls 2 and 3: MIB 9, RMIB 9 − 3 = 6.
        let (roll, _) = roll.roll_dice(Party::Actor, &mut Entered::new([2, 3])).unwrap();
        assert_eq!(roll.basic(), Some(6));
        let (decided, _, events) = roll.decide(&Pools::new()).unwrap();
        assert!(matches!(events[0], MibEvent::Decided { actor_mib: 9, resistor_mib: Some(3), mib: 6, .. }));
        assert_eq!(decided.conclude().unwrap().0.outcome.unwrap().reading, Reading::Success);
        // Only a resistor's MIB may be typed in, within range.
        let actor_typed =
            RollSetup { actor: elsewhere.clone(), resistors: Vec::new(), facets: Facets::default(), chart: Vec::new() };
        assert!(err(MibRoll::start(&actor_typed, &settings)).starts_with("actor.rolled: "));
        let far = Action { rolled: Some(MAX_TARGET + 1), ..elsewhere };
        let setup =
            RollSetup { actor: action(14, 0), resistors: vec![far], facets: Facets::default(), chart: Vec::new() };
        assert!(err(MibRoll::start(&setup, &settings)).starts_with("resistor.rolled: "));
    }

    #[test]
    fn a_contest_reaches_the_critical_juncture_only_through_an_initial_mib() {
        // Actor 14 - 2 = 12 (a Telling Blow by itself) against 10 - 15 = -5: RMIB 17.
        assert!(contest_reaches_juncture(12, -5, 7));
        // Actor 6, resistor -6: RMIB 12, but neither passed the Critical Juncture.
        assert!(!contest_reaches_juncture(6, -6, 7));
        assert!(contest_reaches_juncture(0, 7, 7), "the resistor's initial Telling Blow counts");
        // An initial Catastrophic Failure alone does not (audit D-SC1): actor -9 against
        // resistor +1 is a plain failure of -10, with no juncture points.
        assert!(!contest_reaches_juncture(-9, 1, 7));
        assert!(!contest_reaches_juncture(0, -8, 7));
        let (mib, reading) = read_out(&setup((2, 0), Some((12, 0))), [5, 6], Some([5, 6]));
        assert_eq!((mib, reading), (-10, Reading::Failure));
        let (done, _) = decided(&setup((2, 0), Some((12, 0))), [5, 6], Some([5, 6])).conclude().unwrap();
        assert_eq!(done.outcome.unwrap().juncture_points, 0);
        let (mib, reading) = read_out(&setup((18, 0), Some((12, 0))), [6, 6], Some([9, 9]));
        assert_eq!((mib, reading), (12, Reading::Success));
        let roll = decided(&setup((18, 0), Some((12, 0))), [6, 6], Some([9, 9]));
        assert_eq!(roll.automatic_benefits, 0);
        let (mib, reading) = read_out(&setup((16, 0), Some((20, 0))), [1, 1], Some([10, 10]));
        assert_eq!((mib, reading), (7, Reading::TellingBlow), "14 against 0 passes: 7 automatic benefits leave 7");
        let (mib, reading) = read_out(&setup((2, 0), Some((20, 0))), [10, 10], Some([1, 1]));
        assert_eq!((mib, reading), (-18 - 18, Reading::CatastrophicFailure));
    }

    #[test]
    fn a_result_is_mib_times_factor_off_a_resource() {
        assert_eq!(Facets::default(), Facets { factor: 1, points: 1, bonus: 1 }, "each facet defaults to 1");
        let with_factor = RollSetup { facets: Facets { factor: 3, ..Facets::default() }, ..setup((15, 0), None) };
        let roll = decided(&with_factor, [3, 4], None);
        assert_eq!(err(roll.resource_result(BO, Resource::HitPoints)), "phase: conclude the roll first");
        let (done, _) = roll.conclude().unwrap();
        // 15 - 7 = 8, less 1 automatic benefit: 7 × 3.
        assert_eq!(
            done.resource_result(BO, Resource::HitPoints).unwrap(),
            ResourceResult { target: BO, resource: Resource::HitPoints, amount: 21 }
        );
        assert_eq!(done.residual_bonus(), Some(1));
        let (missed, _) = decided(&with_factor, [9, 9], None).conclude().unwrap();
        assert_eq!(missed.resource_result(BO, Resource::HitPoints).unwrap().amount, 0);
        assert_eq!(missed.residual_bonus(), None);
        let too_big =
            RollSetup { facets: Facets { factor: MAX_FACET + 1, ..Facets::default() }, ..setup((15, 0), None) };
        assert!(err(MibRoll::start(&too_big, &Settings::default())).starts_with("facets.factor:"));
    }

    #[test]
    fn a_telling_blow_s_points_go_to_the_actor_s_benefits_or_the_subject_s_complications() {
        // 20 - 2 = 18: a Telling Blow; 11 points above the Juncture are automatic benefits,
        // which leave 7 (still a Telling Blow). The Points facet is 1 by default.
        let (done, _) = decided(&setup((20, 0), None), [1, 1], None).conclude().unwrap();
        let outcome = done.outcome.unwrap();
        assert_eq!((outcome.reading, outcome.juncture_points), (Reading::TellingBlow, 1));
        assert_eq!(
            err(done.account_juncture(Juncture { to_actor: 1, to_subject: 1 })),
            "to_subject: the 1 point(s) go to one side or the other: 1 and 1 make 2"
        );
        let (split, events) = done.account_juncture(Juncture { to_actor: 0, to_subject: 1 }).unwrap();
        assert_eq!(
            events,
            vec![MibEvent::JunctureAccounted { reading: Reading::TellingBlow, to_actor: 0, to_subject: 1 }]
        );
        assert_eq!(split.juncture, Some(Juncture { to_actor: 0, to_subject: 1 }));
        assert!(err(split.account_juncture(Juncture { to_actor: 1, to_subject: 0 })).starts_with("juncture:"));
        // With a chart, the Points are read at the final MIB (7 reads the row at 5).
        let chart = vec![
            UeRow { index: 1, factor: 1, points: 1, bonus: 1, magnitude: String::new() },
            UeRow { index: 5, factor: 2, points: 3, bonus: 2, magnitude: "a crowd".into() },
        ];
        let charted = RollSetup { chart: chart.clone(), ..setup((20, 0), None) };
        let (done, _) = decided(&charted, [1, 1], None).conclude().unwrap();
        assert_eq!(done.outcome.unwrap().juncture_points, 3);
        assert_eq!(done.residual_bonus(), Some(2));
        let (split, _) = done.account_juncture(Juncture { to_actor: 2, to_subject: 1 }).unwrap();
        assert_eq!(split.juncture.unwrap().to_actor, 2, "a split is allowed");
        // A plain success has nothing to account for.
        let (plain, _) = decided(&setup((12, 0), None), [3, 4], None).conclude().unwrap();
        assert!(err(plain.account_juncture(Juncture { to_actor: 0, to_subject: 0 })).starts_with("reading:"));
    }

    #[test]
    fn a_catastrophic_failure_is_accounted_the_other_way_for_the_actor_itself() {
        // 2 - 20 = -18: below -7, a Catastrophic Failure; its points read at 18.
        let chart = vec![UeRow { index: 10, factor: 1, points: 2, bonus: 1, magnitude: String::new() }];
        let (done, _) = decided(&RollSetup { chart, ..setup((2, 0), None) }, [10, 10], None).conclude().unwrap();
        let outcome = done.outcome.unwrap();
        assert_eq!((outcome.reading, outcome.juncture_points), (Reading::CatastrophicFailure, 2));
        let (split, events) = done.account_juncture(Juncture { to_actor: 2, to_subject: 0 }).unwrap();
        assert_eq!(
            events,
            vec![MibEvent::JunctureAccounted { reading: Reading::CatastrophicFailure, to_actor: 2, to_subject: 0 }]
        );
        assert!(split.juncture.is_some());
        assert_eq!(done.residual_bonus(), None, "a failure leaves no Bonus");
    }

    #[test]
    fn a_negative_rmib_is_the_resistor_s_success_against_the_actor() {
        let with_factor =
            RollSetup { facets: Facets { factor: 2, ..Facets::default() }, ..setup((10, 0), Some((14, 0))) };
        // 10 - 6 = 4 against 14 - 4 = 10: RMIB -6.
        let (done, _) = decided(&with_factor, [3, 3], Some([2, 2])).conclude().unwrap();
        assert_eq!(done.outcome.unwrap().mib, -6);
        assert_eq!(
            done.resistor_result(ADA, Resource::HitPoints).unwrap(),
            ResourceResult { target: ADA, resource: Resource::HitPoints, amount: 12 }
        );
        assert_eq!(done.resource_result(BO, Resource::HitPoints).unwrap().amount, 0, "the actor takes nothing");
        // A positive RMIB gives the resistor nothing; a roll without a resistor has no result.
        let (won, _) = decided(&with_factor, [1, 1], Some([5, 5])).conclude().unwrap();
        assert_eq!(won.resistor_result(ADA, Resource::HitPoints).unwrap().amount, 0);
        let (solo, _) = decided(&setup((10, 0), None), [5, 5], None).conclude().unwrap();
        assert!(err(solo.resistor_result(ADA, Resource::HitPoints)).starts_with("resistor_target:"));
    }

    #[test]
    fn moves_out_of_phase_are_refused() {
        let (roll, _) = MibRoll::start(&setup((10, 0), None), &Settings::default()).unwrap();
        assert_eq!(
            err(roll.buy_complications(Party::Actor, 1)),
            "phase: the dice are still being rolled: buying complications is not possible now"
        );
        assert!(err(roll.conclude()).starts_with("phase:"));
        let done = decided(&setup((10, 0), None), [1, 1], None).conclude().unwrap().0;
        assert!(err(done.spend_benefits(Party::Actor, 1)).starts_with("phase: the roll is concluded"));
        assert!(err(done.conclude()).starts_with("phase:"));
    }

    #[test]
    fn a_roll_round_trips_through_json() {
        let held = pools(&[(ADA, 1)]);
        let (roll, _) = MibRoll::start(&setup((14, 1), Some((11, 0))), &Settings::default()).unwrap();
        let (roll, _) = roll.add_experience_die(Party::RESISTOR, ADA, &held, &mut Entered::new([2])).unwrap();
        let (roll, _) = roll.choose_sign(Sign::Subtract).unwrap();
        let json = serde_json::to_string(&roll).unwrap();
        assert_eq!(serde_json::from_str::<MibRoll>(&json).unwrap(), roll);
        assert!(serde_json::from_str::<MibRoll>(&json.replacen('{', r#"{"luck":1,"#, 1)).is_err());
        let event = MibEvent::Decided {
            actor_mib: 1,
            resistor_mib: Some(2),
            resistor_mibs: Vec::new(),
            mib: -1,
            juncture_applies: false,
            automatic_benefits: 0,
            paid: vec![(ADA, 1)],
        };
        let json = serde_json::to_string(&event).unwrap();
        assert_eq!(serde_json::from_str::<MibEvent>(&json).unwrap(), event);
    }

    /// Actor rating 15 against resistors at 12, 14 and 9, each with its 2d10 typed in.
    fn gang(actor: [u8; 2], resistors: [[u8; 2]; 3]) -> MibRoll {
        let setup = RollSetup {
            actor: action(15, 0),
            resistors: vec![action(12, 0), action(14, 0), action(9, 0)],
            facets: Facets::default(),
            chart: Vec::new(),
        };
        let (mut roll, _) = MibRoll::start(&setup, &Settings::default()).unwrap();
        roll = roll.roll_dice(Party::Actor, &mut Entered::new(actor)).unwrap().0;
        for (i, dice) in resistors.into_iter().enumerate() {
            roll = roll.roll_dice(Party::Resistor(i), &mut Entered::new(dice)).unwrap().0;
        }
        roll
    }

    #[test]
    fn several_resistors_set_the_best_of_their_mibs_against_the_actor_s() {
        // Actor 15 - 6 = 9; resistors 12 - 10 = 2, 14 - 4 = 10, 9 - 2 = 7: the second counts.
        let roll = gang([3, 3], [[5, 5], [2, 2], [1, 1]]);
        assert_eq!(roll.best_resistor(), Some(1));
        assert_eq!(roll.basic(), Some(9 - 10), "against the best, not the first (9 - 2) nor the sum");
        let (decided, _, events) = roll.decide(&Pools::new()).unwrap();
        assert!(matches!(
            &events[0],
            MibEvent::Decided { actor_mib: 9, resistor_mib: Some(10), resistor_mibs, mib: -1, .. }
                if resistor_mibs == &vec![2, 10, 7]
        ));
        // The resistors' side shares the one RMIB: the third spends its 1 point, and no
        // other resistor has any left.
        assert_eq!(decided.room(Party::Resistor(2)).unwrap().benefits, 1);
        let (spent, _) = decided.spend_benefits(Party::Resistor(2), 1).unwrap();
        assert!(err(spent.spend_benefits(Party::Resistor(0), 1)).contains("it is 0"));
        let (done, _) = spent.conclude().unwrap();
        let outcome = done.outcome.unwrap();
        assert_eq!((outcome.mib, outcome.reading, outcome.resistor_benefits), (0, Reading::Success, 1));
        // Equal MIBs: the first listed counts.
        assert_eq!(gang([3, 3], [[2, 2], [2, 4], [1, 1]]).best_resistor(), Some(0));
        // Not every resistor rolled: no number yet, and the phase cannot end.
        let setup = RollSetup { resistors: vec![action(10, 0); 2], ..setup((15, 0), None) };
        let (partial, _) = MibRoll::start(&setup, &Settings::default()).unwrap();
        let (partial, _) = partial.roll_dice(Party::Actor, &mut Entered::new([1, 1])).unwrap();
        let (partial, _) = partial.roll_dice(Party::RESISTOR, &mut Entered::new([1, 1])).unwrap();
        assert_eq!(partial.basic(), None);
        assert!(err(partial.decide(&Pools::new())).starts_with("dice: "));
        // A resistor the contest does not have is named.
        assert_eq!(
            err(partial.roll_dice(Party::Resistor(2), &mut Entered::new([1, 1]))),
            "party: this contest has 2 resistor(s), not 3"
        );
    }

    #[test]
    fn any_resistor_s_initial_telling_blow_brings_the_critical_juncture() {
        // CJ 7. Actor 15 - 4 = 11, resistors 12 - 19 = -7, 14 - 3 = 11 (a Telling Blow), 9 - 2 = 7
        // (one too): RMIB 0, the juncture counts, no benefits are automatic.
        let (roll, _, _) = gang([2, 2], [[10, 9], [1, 2], [1, 1]]).decide(&Pools::new()).unwrap();
        assert!(roll.juncture_applies);
        // Actor 15 - 2 = 13 (a Telling Blow by itself) against 12 - 20 = -8, 14 - 20 = -6,
        // 9 - 20 = -11: RMIB 13 - (-6) = 19, 12 points above the Critical Juncture taken.
        let (roll, _, _) = gang([1, 1], [[10, 10], [10, 10], [10, 10]]).decide(&Pools::new()).unwrap();
        assert_eq!((roll.juncture_applies, roll.automatic_benefits), (true, 12));
        // Nobody's initial MIB passes it: actor 15 - 20 = -5 against 12 - 7 = 5, 14 - 8 = 6,
        // 9 - 3 = 6: RMIB -11, a plain failure although below minus the Critical Juncture.
        let (roll, _, _) = gang([10, 10], [[3, 4], [4, 4], [1, 2]]).decide(&Pools::new()).unwrap();
        assert!(!roll.juncture_applies);
        let (done, _) = roll.conclude().unwrap();
        assert_eq!((done.outcome.unwrap().mib, done.outcome.unwrap().reading), (-11, Reading::Failure));
    }

    #[test]
    fn resistors_are_named_and_read_back_as_before() {
        for (party, key) in [(Party::Actor, "actor"), (Party::RESISTOR, "resistor"), (Party::Resistor(1), "resistor_2")]
        {
            assert_eq!(serde_json::to_value(party).unwrap(), serde_json::json!(key));
            assert_eq!(serde_json::from_value::<Party>(serde_json::json!(key)).unwrap(), party);
        }
        for bad in ["resistor_1", "resistor_6", "resistor_x", "villain"] {
            assert!(serde_json::from_value::<Party>(serde_json::json!(bad)).is_err(), "{bad}");
        }
        // A roll kept before there could be several resistors named its one as `resistor`.
        let (roll, _) = MibRoll::start(&setup((14, 0), Some((11, 0))), &Settings::default()).unwrap();
        let old =
            serde_json::to_string(&roll).unwrap().replace(r#""resistors":["#, r#""resistor":"#).replace("}],", "},");
        assert_eq!(serde_json::from_str::<MibRoll>(&old).unwrap(), roll);
        let (solo, _) = MibRoll::start(&setup((14, 0), None), &Settings::default()).unwrap();
        let old = serde_json::to_string(&solo).unwrap().replacen('{', r#"{"resistor":null,"#, 1);
        assert_eq!(serde_json::from_str::<MibRoll>(&old).unwrap(), solo);
        // Six resistors are one too many; a resistor's bad number names which one.
        let six = RollSetup { resistors: vec![action(10, 0); 6], ..setup((14, 0), None) };
        assert!(err(MibRoll::start(&six, &Settings::default())).starts_with("resistors: a contest takes at most 5"));
        let bad = RollSetup { resistors: vec![action(10, 0), action(10, 99_999)], ..setup((14, 0), None) };
        assert!(err(MibRoll::start(&bad, &Settings::default())).starts_with("resistor_2.modifier: "));
    }

    proptest! {
        /// Played with random dice and random adjustments, a roll's number is always its
        /// basic MIB plus complications less benefits, complications never pass the Epic
        /// Index, and adjustments never carry a number across 0.
        #[test]
        fn random_rolls_keep_their_adjustments_within_the_rules(
            seed in any::<u64>(),
            actor in (-5i32..30, -5i32..5),
            resistors in proptest::collection::vec((-5i32..30, -5i32..5), 0..=3),
            moves in proptest::collection::vec((0usize..4, any::<bool>(), 1u32..5), 0..8),
        ) {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let settings = Settings::default();
            let setup = RollSetup { resistors: resistors.iter().map(|&(r, m)| action(r, m)).collect(), ..setup(actor, None) };
            let (roll, _) = MibRoll::start(&setup, &settings).unwrap();
            let (mut roll, _) = roll.roll_dice(Party::Actor, &mut Rolled(&mut rng)).unwrap();
            for i in 0..resistors.len() {
                roll = roll.roll_dice(Party::Resistor(i), &mut Rolled(&mut rng)).unwrap().0;
            }
            // Against the best of the resistors' basic MIBs.
            let best = roll.resistors.iter().map(|r| r.basic_mib().unwrap()).max();
            prop_assert_eq!(roll.basic().unwrap(), roll.actor.basic_mib().unwrap() - best.unwrap_or(0));
            let (mut roll, _, _) = roll.decide(&Pools::new()).unwrap();
            let start = roll.mib().unwrap();
            for (who, spend, count) in moves {
                // 0: the actor; 1 to 3: a resistor, when the contest has it.
                let party = if who > 0 && who <= resistors.len() { Party::Resistor(who - 1) } else { Party::Actor };
                let before = roll.mib().unwrap();
                let tried = if spend { roll.spend_benefits(party, count) } else { roll.buy_complications(party, count) };
                if let Ok((next, _)) = tried {
                    let after = next.mib().unwrap();
                    prop_assert!(before.signum() * after.signum() >= 0, "{before} → {after} crosses 0");
                    roll = next;
                }
                prop_assert!(roll.actor.complications <= settings.epic_index);
                prop_assert!(roll.resistors.iter().all(|r| r.complications <= settings.epic_index));
            }
            let r = roll.resistors.iter().fold((0, 0), |(c, b), r| (c + r.complications as i32, b + r.benefits as i32));
            prop_assert_eq!(roll.mib().unwrap(), start + roll.actor.complications as i32 - roll.actor.benefits as i32 - r.0 + r.1);
            let (done, _) = roll.conclude().unwrap();
            let outcome = done.outcome.unwrap();
            if done.juncture_applies {
                prop_assert_eq!(outcome.reading, read(outcome.mib, settings.critical_juncture));
            } else {
                prop_assert_eq!(outcome.reading.succeeded(), outcome.mib >= 0);
            }
        }
    }
}
