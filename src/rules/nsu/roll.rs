//! The No Stone Unturned action roll (RULES.md §1.3) as pure rules code.
//!
//! The table decides some things only after seeing the dice, so a roll has phases:
//!
//! 1. [`plan`] (optional, before rolling): checks a [`RollSetup`] against the sheet and says which
//!    dice will be rolled and with what edge, so the odds can be shown first.
//! 2. [`roll`]: checks the setup again and rolls the aspect and mood dice through a
//!    [`DiceSource`] (twice for a die with an edge). **Nothing on the sheet changes yet**: the
//!    mood increment and every other mark is applied by [`resolve`], so a roll that is abandoned
//!    after the dice leaves the sheet as it was.
//! 3. [`help`] (optional): a helper rolls the die of one of their moods.
//! 4. [`default_choices`]: the choices pre-selected for each chooser (RULES.md's Decision), and
//!    [`needs`]: the inputs the roll's mood effects still ask for (a final box, an overload
//!    ended by a loss).
//! 5. [`resolve`]: applies the choices and returns the winner, the grants of the results table,
//!    the new sheets and the events, each with its before/after values.
//!
//! A roll may have a purpose beyond its grants: a downtime Scout of a face-down card
//! ([`RollSetup::scout`]). The roll then also says how the scouting ended
//! ([`RollOutcome::scout`]); after a loss or a tie the player chooses ([`Need::Scout`]). The
//! downtime phase it needs is the service's to check (`downtime::check_scout`).
//!
//! Every step takes the sheets by reference and returns new values: an illegal move is an
//! [`Error::Invalid`] naming the field, and changes nothing.

use serde::{Deserialize, Serialize};

use uuid::Uuid;

use super::downtime::ScoutOutcome;
use super::sheet::{Aspect, AspectBoxes, Die, Mood, SentimentState, Sheet, Skill, MAX_TEXT_CHARS, MOOD_LINE_DICE};
use crate::error::{Error, Result};
use crate::model::name_problem;
use crate::rules::dice::DiceSource;

/// What the Arbiters decide is at risk. It decides who holds which die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AtRisk {
    /// The player holds the aspect die, the Arbiters the mood die.
    Character,
    /// The player holds the mood die, the Arbiters the aspect die.
    World,
}

/// One side of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Player,
    Arbiters,
}

/// Advantage or disadvantage on one die, after cancelling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    #[default]
    None,
    Advantage,
    Disadvantage,
}

impl Edge {
    /// Advantages and disadvantages cancel one for one and do not stack: the net edge is the
    /// sign of their difference.
    pub fn net(advantages: u32, disadvantages: u32) -> Edge {
        match advantages.cmp(&disadvantages) {
            std::cmp::Ordering::Greater => Edge::Advantage,
            std::cmp::Ordering::Less => Edge::Disadvantage,
            std::cmp::Ordering::Equal => Edge::None,
        }
    }

    /// How many times the die is rolled.
    pub fn dice(self) -> usize {
        match self {
            Edge::None => 1,
            Edge::Advantage | Edge::Disadvantage => 2,
        }
    }

    /// Who picks the die that counts: the player with advantage, the Arbiters with disadvantage.
    pub fn chooser(self) -> Option<Side> {
        match self {
            Edge::None => None,
            Edge::Advantage => Some(Side::Player),
            Edge::Disadvantage => Some(Side::Arbiters),
        }
    }
}

/// A line of the sheet a roll uses: a mood (`MoodChoice`) or a skill (`SkillChoice`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LineChoice {
    /// What is on line `line` already.
    Existing { line: usize },
    /// A new one named on the empty line `line`.
    New { line: usize, name: String },
}

impl LineChoice {
    pub fn line(&self) -> usize {
        match self {
            LineChoice::Existing { line } | LineChoice::New { line, .. } => *line,
        }
    }
}

/// The mood a character acts with: a new mood's die is its line's (`MOOD_LINE_DICE`).
pub type MoodChoice = LineChoice;

/// The skill the player applies to the aspect die: a new skill starts at modifier 0.
pub type SkillChoice = LineChoice;

/// Everything decided before the dice are rolled (RULES.md §1.3 steps 1–6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollSetup {
    /// What the player wants to happen, kept in the roll log.
    pub desired_outcome: String,
    pub aspect: Aspect,
    pub at_risk: AtRisk,
    pub mood: MoodChoice,
    /// Details working for the character (they cancel disadvantages one for one).
    pub aspect_advantages: u32,
    /// Details working against the character.
    pub aspect_disadvantages: u32,
    pub skill: Option<SkillChoice>,
    /// A sentiment line put at risk for mood advantage; it must not be lost.
    pub risked_sentiment: Option<usize>,
    /// The roll's purpose when it is a downtime Scout action: the face-down card scouted
    /// (RULES.md §1.4). The sheet alone cannot judge it; the service checks it against the
    /// downtime phase (`downtime::check_scout`). Absent in rolls stored before scouting was
    /// a roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scout: Option<Uuid>,
}

impl RollSetup {
    /// A roll of `aspect` and `mood` with `at_risk`: no details either way, no skill, no
    /// sentiment risked, not a scouting roll. The other steps are set on top of it.
    pub fn new(desired_outcome: impl Into<String>, aspect: Aspect, at_risk: AtRisk, mood: MoodChoice) -> RollSetup {
        RollSetup {
            desired_outcome: desired_outcome.into(),
            aspect,
            at_risk,
            mood,
            aspect_advantages: 0,
            aspect_disadvantages: 0,
            skill: None,
            risked_sentiment: None,
            scout: None,
        }
    }
}

/// Why the mood die has an edge, to show the rule's name where it applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoodEdgeReason {
    /// A sentiment was put at risk: mood advantage.
    RiskedSentiment { line: usize },
    /// Acting with the overloaded mood: mood advantage.
    ActingWithOverloadedMood,
    /// Acting with another mood while mood `line` is overloaded: mood disadvantage.
    OtherMoodOverloaded { line: usize },
}

/// What a setup means on a sheet: the dice and their edges. Shown before rolling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollPlan {
    pub aspect_die: Die,
    pub mood_die: Die,
    /// The chosen skill's modifier (0 without a skill or for a new one).
    pub skill_modifier: u8,
    pub aspect_edge: Edge,
    pub mood_edge: Edge,
    pub mood_edge_reasons: Vec<MoodEdgeReason>,
}

/// A helper's rolled mood die (RULES.md §1.3 step 7). The die follows the overload rules like
/// a mood die: helping with the helper's overloaded mood gives it advantage, helping with
/// another mood while overloaded gives it disadvantage (then it is rolled twice).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelpRoll {
    /// The mood on the helper's own sheet, when the helper is a character on this device;
    /// `None` when the helper plays on another device and their die was typed in here (their
    /// own sheet changes on their device: [`helped_with`]).
    pub mood: Option<MoodChoice>,
    /// The name of a helper on another device, as typed in (kept in the roll log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub die: Die,
    #[serde(default)]
    pub edge: Edge,
    /// The first (or only) face rolled.
    pub value: u8,
    /// The second face, when the helper's die has an edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<u8>,
}

impl HelpRoll {
    /// Every face rolled, in order.
    pub fn rolls(&self) -> Vec<u8> {
        std::iter::once(self.value).chain(self.second).collect()
    }
}

/// A helper playing on another device, as the roller's device takes it down: their name,
/// their mood's die and its edge (they know their own overload), typed in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteHelper {
    pub name: String,
    pub die: Die,
    #[serde(default)]
    pub edge: Edge,
}

/// "I helped with…": a helper records on their own sheet, on their own device, what helping
/// with a roll made elsewhere did to their mood (RULES.md §1.3 step 7 and the mood effects).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelpedWith {
    /// Whose roll it was, and for what (kept in the log).
    pub roll: String,
    /// The mood the helper helped with (an existing one, or a new one on an empty line).
    pub mood: MoodChoice,
    /// The faces rolled on the helper's die: one, or two when it had an edge (the edge follows
    /// from this sheet's overload, see [`helper_edge`]).
    pub rolls: Vec<u8>,
    /// Which of two faces counted (0 or 1); `None` when the die was rolled once.
    #[serde(default)]
    pub kept: Option<usize>,
    /// Who won the roll the helper helped with.
    pub winner: Winner,
    /// Needed when the helper's mood filled its final box.
    #[serde(default)]
    pub final_box: Option<FinalBox>,
    /// Needed when helping ended the helper's old overload and the player did not win.
    #[serde(default)]
    pub overload_end_sentiment: Option<usize>,
}

/// What recording "I helped with…" did to the helper's sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelpedOutcome {
    pub helper: Sheet,
    pub events: Vec<RollEvent>,
}

/// The dice on the table, before any choice. Nothing on the sheet has changed yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRoll {
    pub setup: RollSetup,
    pub plan: RollPlan,
    /// One value, or two when the aspect die has an edge.
    pub aspect_rolls: Vec<u8>,
    /// One value, or two when the mood die has an edge.
    pub mood_rolls: Vec<u8>,
    pub help: Option<HelpRoll>,
}

/// Whether the skill modifier is added to or subtracted from the aspect die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillSign {
    Plus,
    Minus,
}

/// The input a filled final box asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalBox {
    /// The sentiment the (rolling or helping) player marks one step; `None` only when no
    /// sentiment on that sheet can be marked (every line empty or lost).
    pub sentiment_line: Option<usize>,
    /// The mood's more intense new name, given by the winning side.
    pub new_name: String,
}

/// Everything decided after the dice are seen (RULES.md §1.3 steps 7–8 and the mood effects).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choices {
    /// Which of the two aspect dice counts (0 or 1); `None` when the aspect die was rolled once.
    pub aspect_kept: Option<usize>,
    /// Which of the two mood dice counts (0 or 1); `None` when the mood die was rolled once.
    pub mood_kept: Option<usize>,
    /// Ignored without a skill.
    pub skill_sign: SkillSign,
    /// Use the helper's die in place of the roller's own mood die.
    pub use_helper_die: bool,
    /// Needed when the roller's mood filled its final box.
    pub final_box: Option<FinalBox>,
    /// Needed when the helper's mood filled its final box.
    pub helper_final_box: Option<FinalBox>,
    /// The sentiment marked when the roller acted with another mood while one was overloaded
    /// and did not win; needed only when a sentiment can be marked.
    pub overload_end_sentiment: Option<usize>,
    /// Which of the helper's two faces counts (0 or 1); `None` when it was rolled once.
    #[serde(default)]
    pub helper_kept: Option<usize>,
    /// The helper's sentiment marked when they helped with another mood while overloaded and
    /// the player did not win (a helper on this device only).
    #[serde(default)]
    pub helper_overload_end_sentiment: Option<usize>,
    /// A scouting roll the player did not win: `true` accepts the details and looks at the
    /// card, `false` turns back and sees nothing. Needed only then.
    #[serde(default)]
    pub scout_accepts_details: Option<bool>,
}

/// Who won the roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    Player,
    Arbiters,
    Tie,
}

impl Winner {
    pub fn side(self) -> Option<Side> {
        match self {
            Winner::Player => Some(Side::Player),
            Winner::Arbiters => Some(Side::Arbiters),
            Winner::Tie => None,
        }
    }
}

/// Who adds a granted detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Granter {
    Player,
    Arbiters,
    /// Another character at the table (the table decides who).
    Ally,
}

impl From<Side> for Granter {
    fn from(side: Side) -> Granter {
        match side {
            Side::Player => Granter::Player,
            Side::Arbiters => Granter::Arbiters,
        }
    }
}

/// The kind of detail granted. A hard detail may always be taken as a scene or soft one instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DetailKind {
    Hard,
    Scene,
}

/// One detail the results table grants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Grant {
    pub by: Granter,
    pub kind: DetailKind,
    /// `Some(side)` when it must be a negative detail against that side.
    pub against: Option<Side>,
}

/// Whose sheet an event is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    Roller,
    Helper,
}

/// Why a sentiment was marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkReason {
    /// The risked sentiment, when the player lost, tied or won by 1.
    Risked,
    /// A mood filled its final box.
    FinalBox,
    /// The roller (or helper) acted with another mood while overloaded and the player lost or tied.
    OverloadEndedWithoutWinning,
}

/// Why an overload ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OverloadEndReason {
    /// The roller (or helper) acted with a different mood.
    ActedWithOtherMood,
    /// Another mood on the same sheet became overloaded.
    AnotherMoodOverloaded,
}

/// What the roll changed, in order, each with the values before and after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RollEvent {
    /// A new mood was named on an empty line (level 0, not overloaded).
    MoodLineFilled {
        who: Who,
        line: usize,
        name: String,
        die: Die,
    },
    /// A new skill was named on an empty line at modifier 0.
    SkillLineFilled {
        line: usize,
        name: String,
    },
    /// The chosen mood's level went up by one (it stays at a full track's length).
    MoodIncremented {
        who: Who,
        line: usize,
        before: u8,
        after: u8,
    },
    /// The skill's box for the aspect used was marked (only when it was empty).
    SkillBoxMarked {
        line: usize,
        aspect: Aspect,
    },
    SentimentMarked {
        who: Who,
        line: usize,
        before: SentimentState,
        after: SentimentState,
        reason: MarkReason,
    },
    /// A mood stopped being overloaded; the level is cleared when the player won or tied.
    OverloadEnded {
        who: Who,
        line: usize,
        reason: OverloadEndReason,
        level_before: u8,
        level_after: u8,
    },
    /// The counted die was under the level and the level past the threshold.
    MoodOverloaded {
        who: Who,
        line: usize,
        die_value: u8,
        level: u8,
    },
    /// The increment filled the last box: renamed by `renamed_by` (both sides on a tie), level → 0.
    MoodFinalBox {
        who: Who,
        line: usize,
        name_before: String,
        name_after: String,
        level_before: u8,
        level_after: u8,
        renamed_by: Winner,
        /// The mood was overloaded and the reset ended it (decision 2026-11-25: a mood is
        /// never overloaded at level 0). Absent in rolls logged before that decision.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        overload_ended: bool,
    },
}

/// An input the roll's mood effects ask for before it can be resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Need {
    /// `Choices::final_box` (roller) or `Choices::helper_final_box` (helper): a new name from
    /// `renamed_by`, and one of `sentiments` (none to choose when it is empty).
    FinalBox { who: Who, line: usize, mood: String, renamed_by: Winner, sentiments: Vec<usize> },
    /// `Choices::overload_end_sentiment` (roller) or `Choices::helper_overload_end_sentiment`
    /// (helper), one of `sentiments`: they acted with another mood while `line` was overloaded
    /// and the player did not win.
    OverloadEndSentiment { who: Who, line: usize, mood: String, sentiments: Vec<usize> },
    /// `Choices::scout_accepts_details`: the player did not win the roll scouting the card at
    /// `location`; they accept the details and look, or turn back.
    Scout { location: Uuid },
}

/// The settled roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOutcome {
    /// The aspect die that counts, before the skill.
    pub aspect_value: u8,
    /// The aspect die with the skill modifier added or subtracted (may be below 1).
    pub aspect_total: i32,
    /// The roller's own mood die that counts (it decides the roller's overload).
    pub mood_value: u8,
    /// The mood value compared: the helper's die when it was used, else `mood_value`.
    pub mood_used: u8,
    pub winner: Winner,
    /// The player's signed margin: win by d = +d, lose by d = −d, tie = 0.
    pub margin: i32,
    /// |margin|, the row of the results table.
    pub difference: u32,
    pub grants: Vec<Grant>,
    pub roller: Sheet,
    pub helper: Option<Sheet>,
    pub events: Vec<RollEvent>,
    /// How a scouting roll ended (None for a roll that scouts nothing): the service records
    /// it in the downtime phase with the roll.
    pub scout: Option<ScoutOutcome>,
}

/// The results table: the details each side may add for a winner and a difference.
pub fn grants(winner: Winner, difference: u32) -> Vec<Grant> {
    let hard = |by: Granter| Grant { by, kind: DetailKind::Hard, against: None };
    let Some(side) = winner.side() else {
        return vec![hard(Granter::Player), hard(Granter::Arbiters)];
    };
    let w = Granter::from(side);
    match difference {
        0 => vec![hard(Granter::Player), hard(Granter::Arbiters)],
        1 => vec![hard(w), Grant { by: Granter::Ally, kind: DetailKind::Hard, against: Some(side) }],
        2 => vec![hard(w)],
        3 => vec![hard(w), Grant { by: w, kind: DetailKind::Scene, against: None }],
        4 => vec![hard(w), hard(Granter::Ally)],
        _ => vec![hard(w), hard(w)],
    }
}

/// Whether one more detail may be written from a settled roll that granted `grants` and has
/// `written` details already (RULES.md §1.3: the table writes the details the result grants,
/// no more). Each grant is one detail, whatever kind it is taken as; only granted details can
/// tick collateral, so a double tap or a second device cannot tick a clock twice.
pub fn check_detail_granted(grants: &[Grant], written: usize) -> Result<()> {
    match grants.len() {
        n if written < n => Ok(()),
        1 => Err(Error::invalid("roll", "granted one detail, and it is written already")),
        n => Err(Error::invalid("roll", format!("granted {n} details, and all {n} are written already"))),
    }
}

/// Checks a setup against the roller's sheet and says which dice will be rolled, with what edge.
pub fn plan(sheet: &Sheet, setup: &RollSetup) -> Result<RollPlan> {
    if sheet.overcome() {
        return Err(Error::invalid(
            "character",
            "is Overcome (four harm details): an Overcome character cannot make action rolls until a harm \
             detail is recovered",
        ));
    }
    check_sheet(sheet, "sheet")?;
    let Some(aspects) = sheet.aspects else {
        return Err(Error::invalid("sheet.aspects", "are not chosen yet: give Body, Mind and Heart their dice first"));
    };
    let outcome = setup.desired_outcome.trim();
    if outcome.is_empty() {
        return Err(Error::invalid("setup.desired_outcome", "must say what the player wants to happen"));
    }
    let chars = setup.desired_outcome.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(Error::invalid(
            "setup.desired_outcome",
            format!("is {chars} characters long; the limit is {MAX_TEXT_CHARS}"),
        ));
    }
    let (line, mood_die) = check_mood(sheet, &setup.mood, "setup.mood")?;
    let skill_modifier = match &setup.skill {
        None => 0,
        Some(SkillChoice::Existing { line }) => match sheet.skills.get(*line) {
            None => return Err(line_out_of_range("setup.skill.line", *line, sheet.skills.len())),
            Some(None) => {
                return Err(Error::invalid(
                    "setup.skill.line",
                    format!("skill line {line} is empty: name a new skill there instead"),
                ))
            }
            Some(Some(skill)) => skill.modifier,
        },
        Some(SkillChoice::New { line, name }) => {
            match sheet.skills.get(*line) {
                None => return Err(line_out_of_range("setup.skill.line", *line, sheet.skills.len())),
                Some(Some(skill)) => {
                    return Err(Error::invalid(
                        "setup.skill.line",
                        format!("skill line {line} already holds {:?}: choose it, or an empty line", skill.name),
                    ))
                }
                Some(None) => {}
            }
            check_name(name, "setup.skill.name")?;
            0
        }
    };
    let mut reasons = Vec::new();
    let (mut advantages, mut disadvantages) = (0, 0);
    if let Some(s) = setup.risked_sentiment {
        match sheet.sentiments.get(s) {
            None => return Err(line_out_of_range("setup.risked_sentiment", s, sheet.sentiments.len())),
            Some(None) => {
                return Err(Error::invalid("setup.risked_sentiment", format!("sentiment line {s} is empty")));
            }
            Some(Some(sentiment)) if sentiment.state == SentimentState::Lost => {
                return Err(Error::invalid(
                    "setup.risked_sentiment",
                    format!("{:?} is lost: a lost sentiment cannot be used", sentiment.name),
                ));
            }
            Some(Some(_)) => {}
        }
        advantages += 1;
        reasons.push(MoodEdgeReason::RiskedSentiment { line: s });
    }
    if let Some(overloaded) = sheet.overloaded_line() {
        if overloaded == line {
            advantages += 1;
            reasons.push(MoodEdgeReason::ActingWithOverloadedMood);
        } else {
            disadvantages += 1;
            reasons.push(MoodEdgeReason::OtherMoodOverloaded { line: overloaded });
        }
    }
    Ok(RollPlan {
        aspect_die: aspects.die(setup.aspect),
        mood_die,
        skill_modifier,
        aspect_edge: Edge::net(setup.aspect_advantages, setup.aspect_disadvantages),
        mood_edge: Edge::net(advantages, disadvantages),
        mood_edge_reasons: reasons,
    })
}

/// Checks the setup and rolls the aspect die and the mood die (each twice with an edge).
/// The sheet does not change: [`resolve`] applies the increment and every mark.
pub fn roll(sheet: &Sheet, setup: &RollSetup, dice: &mut (impl DiceSource + ?Sized)) -> Result<ActionRoll> {
    let plan = plan(sheet, setup)?;
    let aspect_rolls = roll_die(dice, plan.aspect_die, plan.aspect_edge, "aspect die")?;
    let mood_rolls = roll_die(dice, plan.mood_die, plan.mood_edge, "mood die")?;
    Ok(ActionRoll { setup: setup.clone(), plan, aspect_rolls, mood_rolls, help: None })
}

/// The edge of a helper's die (RULES.md §1.3 step 7, decision 2026-11-25): advantage when
/// helping with their overloaded mood, disadvantage when helping with another mood while one
/// is overloaded.
pub fn helper_edge(helper: &Sheet, mood: &MoodChoice) -> Edge {
    match helper.overloaded_line() {
        None => Edge::None,
        Some(line) if line == mood.line() => Edge::Advantage,
        Some(_) => Edge::Disadvantage,
    }
}

/// A helper on this device acts with one of their moods (existing, or new on an empty line of
/// their sheet) and rolls its die, twice when it has an edge. Their level rises and their mood
/// effects apply in [`resolve`].
pub fn help(
    rolled: &ActionRoll,
    helper: &Sheet,
    mood: &MoodChoice,
    dice: &mut (impl DiceSource + ?Sized),
) -> Result<ActionRoll> {
    joined_by(rolled, || {
        let die = check_helper(helper, mood)?;
        let edge = helper_edge(helper, mood);
        let rolls = roll_die(dice, die, edge, "helper's mood die")?;
        Ok(HelpRoll { mood: Some(mood.clone()), name: None, die, edge, value: rolls[0], second: rolls.get(1).copied() })
    })
}

/// `rolled` with the help `help` rolls; refused, before anything is rolled, when the roll
/// has a helper already.
fn joined_by(rolled: &ActionRoll, help: impl FnOnce() -> Result<HelpRoll>) -> Result<ActionRoll> {
    if rolled.help.is_some() {
        return Err(Error::invalid("helper", "this roll already has a helper"));
    }
    Ok(ActionRoll { help: Some(help()?), ..rolled.clone() })
}

/// A helper on another device joins the roll: the roller's device takes their die size and
/// edge as they say, and the face(s) rolled (typed in, or rolled here). Nothing on the
/// helper's sheet changes here: they record it on their own device ([`helped_with`]).
pub fn help_from_elsewhere(
    rolled: &ActionRoll,
    helper: &RemoteHelper,
    dice: &mut (impl DiceSource + ?Sized),
) -> Result<ActionRoll> {
    joined_by(rolled, || {
        let name = check_name(&helper.name, "helper.name")?;
        let rolls = roll_die(dice, helper.die, helper.edge, "helper's mood die")?;
        check_rolls(&rolls, helper.die, helper.edge, "helper.rolls")?;
        Ok(HelpRoll {
            mood: None,
            name: Some(name),
            die: helper.die,
            edge: helper.edge,
            value: rolls[0],
            second: rolls.get(1).copied(),
        })
    })
}

/// What "I helped with…" asks for on the helper's own sheet with this input, whether or not
/// the input already supplies it.
pub fn helped_with_needs(helper: &Sheet, input: &HelpedWith) -> Result<Vec<Need>> {
    settle_helped(helper, input, Mode::Probe).map(|(_, needs)| needs)
}

/// "I helped with…": applies to the helper's own sheet what helping with a roll made on
/// another device does — the mood's level rises, its overload and final box are checked
/// against the face that counted, and an old overload ends as for the roller, judged on the
/// roll's winner (the helper is on the player's side).
pub fn helped_with(helper: &Sheet, input: &HelpedWith) -> Result<HelpedOutcome> {
    settle_helped(helper, input, Mode::Strict).map(|(outcome, _)| outcome)
}

fn settle_helped(helper: &Sheet, input: &HelpedWith, mode: Mode) -> Result<(HelpedOutcome, Vec<Need>)> {
    let roll = input.roll.trim();
    if roll.is_empty() {
        return Err(Error::invalid("roll", "must say whose roll it was and for what"));
    }
    let chars = input.roll.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(Error::invalid("roll", format!("is {chars} characters long; the limit is {MAX_TEXT_CHARS}")));
    }
    let die = check_helper(helper, &input.mood)?;
    let edge = helper_edge(helper, &input.mood);
    check_rolls(&input.rolls, die, edge, "rolls")?;
    let value = input.rolls[check_kept(input.kept, &input.rolls, "kept")?];
    let mut settler = Settler { mode, needs: Vec::new() };
    let mut events = Vec::new();
    let mut sheet = helper.clone();
    let line = input.mood.line();
    act_with_mood(&mut sheet, Who::Helper, &input.mood, "mood", &mut events)?;
    settler.old_overload(
        helper,
        &mut sheet,
        Who::Helper,
        line,
        input.winner,
        input.overload_end_sentiment,
        "overload_end_sentiment",
        &mut events,
    )?;
    settler.mood_effects(
        &mut sheet,
        Who::Helper,
        line,
        value,
        input.winner,
        (input.final_box.as_ref(), "final_box"),
        &mut events,
    )?;
    Ok((HelpedOutcome { helper: sheet, events }, settler.needs))
}

/// The choices best for each chooser (RULES.md's Decision): a die the player picks maximises the
/// player's signed margin, one the Arbiters pick minimises it; the skill sign and the helper's
/// die are chosen to help the player. Inputs for mood effects are left empty (see [`needs`]).
pub fn default_choices(rolled: &ActionRoll) -> Choices {
    let at_risk = rolled.setup.at_risk;
    let (aspect_weight, mood_weight) = weights(at_risk);
    let aspect_kept = best_die(&rolled.aspect_rolls, rolled.plan.aspect_edge, aspect_weight);
    let mood_kept = best_die(&rolled.mood_rolls, rolled.plan.mood_edge, mood_weight);
    let skill_sign = match at_risk {
        AtRisk::Character => SkillSign::Plus,
        AtRisk::World => SkillSign::Minus,
    };
    let own = rolled.mood_rolls.get(mood_kept.unwrap_or(0)).copied().unwrap_or(0);
    let helper_rolls = rolled.help.as_ref().map(HelpRoll::rolls).unwrap_or_default();
    let helper_kept = rolled.help.as_ref().and_then(|h| best_die(&helper_rolls, h.edge, mood_weight));
    let use_helper_die = helper_rolls
        .get(helper_kept.unwrap_or(0))
        .is_some_and(|&h| mood_weight * i32::from(h) > mood_weight * i32::from(own));
    Choices {
        aspect_kept,
        mood_kept,
        skill_sign,
        use_helper_die,
        final_box: None,
        helper_final_box: None,
        overload_end_sentiment: None,
        helper_kept,
        helper_overload_end_sentiment: None,
        scout_accepts_details: None,
    }
}

/// The inputs the mood effects of this roll ask for, with these choices (the winner decides
/// some of them), whether or not `choices` already supplies them.
pub fn needs(roller: &Sheet, helper: Option<&Sheet>, rolled: &ActionRoll, choices: &Choices) -> Result<Vec<Need>> {
    settle(roller, helper, rolled, choices, Mode::Probe).map(|(_, needs)| needs)
}

/// Settles the roll: applies the choices, decides the winner and the grants, and applies every
/// mark and mood effect to new copies of the roller's (and helper's) sheet.
pub fn resolve(roller: &Sheet, helper: Option<&Sheet>, rolled: &ActionRoll, choices: &Choices) -> Result<RollOutcome> {
    settle(roller, helper, rolled, choices, Mode::Strict).map(|(outcome, _)| outcome)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every needed input must be supplied and valid; unneeded inputs are refused.
    Strict,
    /// Needed inputs are collected; missing or invalid ones are skipped.
    Probe,
}

/// How much one pip of each die moves the player's signed margin.
fn weights(at_risk: AtRisk) -> (i32, i32) {
    match at_risk {
        AtRisk::Character => (1, -1),
        AtRisk::World => (-1, 1),
    }
}

fn best_die(rolls: &[u8], edge: Edge, weight: i32) -> Option<usize> {
    let chooser = edge.chooser()?;
    if rolls.len() < 2 {
        return None;
    }
    let score = |i: usize| weight * i32::from(rolls[i]);
    Some((1..rolls.len()).fold(0, |best, i| {
        let better = match chooser {
            Side::Player => score(i) > score(best),
            Side::Arbiters => score(i) < score(best),
        };
        if better {
            i
        } else {
            best
        }
    }))
}

fn roll_die(dice: &mut (impl DiceSource + ?Sized), die: Die, edge: Edge, what: &str) -> Result<Vec<u8>> {
    let mut rolls = vec![dice.roll(die.sides(), what)?];
    if edge.dice() == 2 {
        rolls.push(dice.roll(die.sides(), &format!("{what} (second roll)"))?);
    }
    Ok(rolls)
}

fn check_sheet(sheet: &Sheet, field: &str) -> Result<()> {
    match sheet.problems("$").into_iter().next() {
        None => Ok(()),
        Some(p) => Err(Error::invalid(field, format!("is not valid ({p}); fix the sheet before rolling"))),
    }
}

fn check_helper(helper: &Sheet, mood: &MoodChoice) -> Result<Die> {
    if helper.overcome() {
        return Err(Error::invalid(
            "helper",
            "is Overcome (four harm details): an Overcome character cannot roll dice to help until a harm \
             detail is recovered",
        ));
    }
    check_sheet(helper, "helper.sheet")?;
    check_mood(helper, mood, "helper.mood").map(|(_, die)| die)
}

fn line_out_of_range(field: &str, line: usize, lines: usize) -> Error {
    Error::invalid(field, format!("there is no line {line}: the sheet has lines 0 to {}", lines - 1))
}

fn check_name(name: &str, field: &str) -> Result<String> {
    match name_problem(name) {
        Some(p) => Err(Error::invalid(field, p)),
        None => Ok(name.trim().to_owned()),
    }
}

/// The mood line and its die; a new mood must go on an empty line and have a name.
fn check_mood(sheet: &Sheet, choice: &MoodChoice, field: &str) -> Result<(usize, Die)> {
    let line = choice.line();
    let Some(slot) = sheet.moods.get(line) else {
        return Err(line_out_of_range(&format!("{field}.line"), line, sheet.moods.len()));
    };
    match (choice, slot) {
        (MoodChoice::Existing { .. }, None) => Err(Error::invalid(
            format!("{field}.line"),
            format!("mood line {line} is empty: name a new mood there instead"),
        )),
        (MoodChoice::New { .. }, Some(mood)) => Err(Error::invalid(
            format!("{field}.line"),
            format!("mood line {line} already holds {:?}: choose it, or an empty line", mood.name),
        )),
        (MoodChoice::New { name, .. }, None) => {
            check_name(name, &format!("{field}.name"))?;
            Ok((line, MOOD_LINE_DICE[line]))
        }
        (MoodChoice::Existing { .. }, Some(_)) => Ok((line, MOOD_LINE_DICE[line])),
    }
}

fn check_rolls(rolls: &[u8], die: Die, edge: Edge, field: &str) -> Result<()> {
    if rolls.len() != edge.dice() {
        return Err(Error::invalid(
            field,
            format!("holds {} values; this die was rolled {} time(s)", rolls.len(), edge.dice()),
        ));
    }
    match rolls.iter().find(|v| !(1..=die.sides()).contains(v)) {
        Some(v) => {
            Err(Error::invalid(field, format!("{v} cannot be rolled on a d{} (1 to {})", die.sides(), die.sides())))
        }
        None => Ok(()),
    }
}

fn check_kept(kept: Option<usize>, rolls: &[u8], field: &str) -> Result<usize> {
    match (rolls.len(), kept) {
        (1, None) => Ok(0),
        (1, Some(_)) => Err(Error::invalid(field, "this die was rolled once: there is nothing to choose")),
        (_, Some(i)) if i < rolls.len() => Ok(i),
        (n, Some(i)) => Err(Error::invalid(field, format!("{i} is not one of the dice rolled (0 to {})", n - 1))),
        (_, None) => Err(Error::invalid(field, "this die was rolled twice: choose which one counts")),
    }
}

/// The outcome of picking a sentiment to mark.
enum Pick {
    Mark(usize),
    /// No sentiment on the sheet can be marked.
    Nothing,
    Missing,
}

/// The sentiment lines that can be marked now: filled and not lost.
fn markable_sentiments(sheet: &Sheet) -> Vec<usize> {
    (0..sheet.sentiments.len())
        .filter(|&i| sheet.sentiments[i].as_ref().is_some_and(|s| s.state != SentimentState::Lost))
        .collect()
}

/// Checks the player's pick against the sentiments as they are at this point of the roll (a
/// sentiment lost earlier in the same roll cannot be picked).
fn pick_sentiment(markable: &[usize], choice: Option<usize>, field: &str, why: &str) -> Result<Pick> {
    match choice {
        None if markable.is_empty() => Ok(Pick::Nothing),
        None => Ok(Pick::Missing),
        Some(_) if markable.is_empty() => {
            Err(Error::invalid(field, "no sentiment can be marked (every line is empty or lost): leave it out"))
        }
        Some(i) if i >= super::sheet::SENTIMENT_LINES => {
            Err(line_out_of_range(field, i, super::sheet::SENTIMENT_LINES))
        }
        Some(i) if !markable.contains(&i) => Err(Error::invalid(
            field,
            format!("sentiment line {i} is empty or lost; {why}: choose one of lines {markable:?}"),
        )),
        Some(i) => Ok(Pick::Mark(i)),
    }
}

fn mark_sentiment(sheet: &mut Sheet, who: Who, line: usize, reason: MarkReason, events: &mut Vec<RollEvent>) {
    if let Some(s) = sheet.sentiments[line].as_mut() {
        let before = s.state;
        s.state = before.marked();
        events.push(RollEvent::SentimentMarked { who, line, before, after: s.state, reason });
    }
}

/// Names a new mood on its empty line (level 0, not overloaded), then increments the chosen
/// mood's level: always, even while another mood is overloaded.
fn act_with_mood(
    sheet: &mut Sheet,
    who: Who,
    choice: &MoodChoice,
    field: &str,
    events: &mut Vec<RollEvent>,
) -> Result<()> {
    let line = choice.line();
    let die = MOOD_LINE_DICE[line];
    if let MoodChoice::New { name, .. } = choice {
        let name = check_name(name, &format!("{field}.name"))?;
        sheet.moods[line] = Some(Mood { name: name.clone(), level: 0, overloaded: false });
        events.push(RollEvent::MoodLineFilled { who, line, name, die });
    }
    let mood = sheet.moods[line].as_mut().expect("the mood line was checked or just filled");
    let before = mood.level;
    // A track already full (a hand-edited or imported sheet) cannot take another box; the
    // increment then counts as filling the final box again.
    mood.level = (before + 1).min(die.track_len());
    events.push(RollEvent::MoodIncremented { who, line, before, after: mood.level });
    Ok(())
}

/// Collects needs (probe) or turns a missing/invalid input into an error (strict).
struct Settler {
    mode: Mode,
    needs: Vec<Need>,
}

impl Settler {
    /// In probe mode an invalid input counts as missing.
    fn soften<T>(&self, result: Result<T>, missing: T) -> Result<T> {
        match (self.mode, result) {
            (Mode::Probe, Err(_)) => Ok(missing),
            (_, r) => r,
        }
    }

    fn missing(&self, field: &str, problem: String) -> Result<()> {
        match self.mode {
            Mode::Strict => Err(Error::invalid(field, problem)),
            Mode::Probe => Ok(()),
        }
    }

    fn unneeded(&self, supplied: bool, field: &str, problem: &str) -> Result<()> {
        if supplied && self.mode == Mode::Strict {
            return Err(Error::invalid(field, problem));
        }
        Ok(())
    }

    /// Acting with a different mood while overloaded ends the old overload whoever wins: the
    /// player wins → its level → 0; the player loses → one sentiment marked one step; tie →
    /// both. `before` is the sheet before this roll (whose overload counts).
    #[allow(clippy::too_many_arguments)]
    fn old_overload(
        &mut self,
        before: &Sheet,
        sheet: &mut Sheet,
        who: Who,
        line: usize,
        winner: Winner,
        choice: Option<usize>,
        field: &str,
        events: &mut Vec<RollEvent>,
    ) -> Result<()> {
        let Some(old) = before.overloaded_line().filter(|&o| o != line) else {
            let who = match who {
                Who::Roller => "roller",
                Who::Helper => "helper",
            };
            let why = format!("the {who} did not act with another mood while overloaded");
            return self.unneeded(choice.is_some(), field, &why);
        };
        let mood = sheet.moods[old].as_mut().expect("an overloaded mood is on a filled line");
        let level_before = mood.level;
        mood.overloaded = false;
        if winner != Winner::Arbiters {
            mood.level = 0;
        }
        let old_name = mood.name.clone();
        events.push(RollEvent::OverloadEnded {
            who,
            line: old,
            reason: OverloadEndReason::ActedWithOtherMood,
            level_before,
            level_after: mood.level,
        });
        if winner == Winner::Player {
            return self.unneeded(choice.is_some(), field, "no overload ended without a win in this roll");
        }
        let why = format!("the overload of {old_name:?} ended without a win");
        let sentiments = markable_sentiments(sheet);
        let pick = pick_sentiment(&sentiments, choice, field, &why);
        let pick = self.soften(pick, Pick::Missing)?;
        if !sentiments.is_empty() {
            self.needs.push(Need::OverloadEndSentiment { who, line: old, mood: old_name, sentiments });
        }
        match pick {
            Pick::Mark(s) => mark_sentiment(sheet, who, s, MarkReason::OverloadEndedWithoutWinning, events),
            Pick::Missing => self.missing(field, format!("{why}: the player marks one sentiment one step"))?,
            Pick::Nothing => {}
        }
        Ok(())
    }

    /// How a scouting roll ends: a win sees the card; otherwise the player accepts the
    /// details and looks, or turns back (RULES.md §1.4 Scout).
    fn scout(&mut self, location: Option<Uuid>, winner: Winner, accepts: Option<bool>) -> Result<Option<ScoutOutcome>> {
        const FIELD: &str = "choices.scout_accepts_details";
        let Some(location) = location else {
            self.unneeded(accepts.is_some(), FIELD, "this roll scouts no card")?;
            return Ok(None);
        };
        if winner == Winner::Player {
            self.unneeded(accepts.is_some(), FIELD, "the player won the scouting roll: they look at the card")?;
            return Ok(Some(ScoutOutcome::Won));
        }
        self.needs.push(Need::Scout { location });
        match accepts {
            Some(true) => Ok(Some(ScoutOutcome::AcceptedDetails)),
            Some(false) => Ok(Some(ScoutOutcome::TurnedBack)),
            None => {
                self.missing(
                    FIELD,
                    "the player did not win the scouting roll: they accept the details and look at the card, or \
                     turn back"
                        .into(),
                )?;
                Ok(None)
            }
        }
    }

    /// The mood effects every acting mood shares (roller and helper): overload and the final
    /// box, after [`act_with_mood`] filled its line and incremented its level.
    #[allow(clippy::too_many_arguments)]
    fn mood_effects(
        &mut self,
        sheet: &mut Sheet,
        who: Who,
        line: usize,
        die_value: u8,
        winner: Winner,
        (final_box, box_field): (Option<&FinalBox>, &str),
        events: &mut Vec<RollEvent>,
    ) -> Result<()> {
        let die = MOOD_LINE_DICE[line];
        let mood = sheet.moods[line].as_mut().expect("the mood line was checked and filled");
        let level = mood.level;
        if die_value < level && level > die.overload_threshold() && !mood.overloaded {
            mood.overloaded = true;
            events.push(RollEvent::MoodOverloaded { who, line, die_value, level });
            for (other, m) in sheet.moods.iter_mut().enumerate() {
                if let Some(m) = m.as_mut().filter(|m| m.overloaded && other != line) {
                    m.overloaded = false;
                    events.push(RollEvent::OverloadEnded {
                        who,
                        line: other,
                        reason: OverloadEndReason::AnotherMoodOverloaded,
                        level_before: m.level,
                        level_after: m.level,
                    });
                }
            }
        }
        if level < die.track_len() {
            return self.unneeded(final_box.is_some(), box_field, "no mood filled its final box in this roll");
        }
        let name_before = sheet.moods[line].as_ref().map(|m| m.name.clone()).unwrap_or_default();
        let why = format!("the mood {name_before:?} filled its final box");
        let sentiments = markable_sentiments(sheet);
        let pick = match final_box {
            None => pick_sentiment(&sentiments, None, &format!("{box_field}.sentiment_line"), &why)?,
            Some(f) => {
                let p = pick_sentiment(&sentiments, f.sentiment_line, &format!("{box_field}.sentiment_line"), &why);
                self.soften(p, Pick::Missing)?
            }
        };
        self.needs.push(Need::FinalBox { who, line, mood: name_before.clone(), renamed_by: winner, sentiments });
        let new_name = match final_box {
            None => None,
            Some(f) => {
                let n = check_name(&f.new_name, &format!("{box_field}.new_name")).map(Some);
                self.soften(n, None)?
            }
        };
        let (Some(name_after), false) = (new_name, matches!(pick, Pick::Missing)) else {
            return self.missing(
                box_field,
                format!("{why}: the winning side gives it a new name, and the player marks a sentiment"),
            );
        };
        if let Pick::Mark(s) = pick {
            mark_sentiment(sheet, who, s, MarkReason::FinalBox, events);
        }
        let mood = sheet.moods[line].as_mut().expect("the mood line is filled");
        mood.name = name_after.clone();
        mood.level = 0;
        // The evolved mood starts fresh: a mood is never overloaded at level 0.
        let overload_ended = std::mem::take(&mut mood.overloaded);
        events.push(RollEvent::MoodFinalBox {
            who,
            line,
            name_before,
            name_after,
            level_before: level,
            level_after: 0,
            renamed_by: winner,
            overload_ended,
        });
        Ok(())
    }
}

/// What the kept dice come to (RULES.md §1.3 step 8): the aspect die with the skill added or
/// subtracted, against the mood die used; the margin is the player's (positive: they win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Counted {
    pub aspect_total: i32,
    pub margin: i32,
    pub winner: Winner,
    pub difference: u32,
}

pub(super) fn counted(setup: &RollSetup, plan: &RollPlan, aspect_value: u8, mood_used: u8, sign: SkillSign) -> Counted {
    let modifier = i32::from(plan.skill_modifier);
    let aspect_total = match (&setup.skill, sign) {
        (None, _) => i32::from(aspect_value),
        (Some(_), SkillSign::Plus) => i32::from(aspect_value) + modifier,
        (Some(_), SkillSign::Minus) => i32::from(aspect_value) - modifier,
    };
    let margin = match setup.at_risk {
        AtRisk::Character => aspect_total - i32::from(mood_used),
        AtRisk::World => i32::from(mood_used) - aspect_total,
    };
    let winner = match margin.signum() {
        1 => Winner::Player,
        -1 => Winner::Arbiters,
        _ => Winner::Tie,
    };
    Counted { aspect_total, margin, winner, difference: margin.unsigned_abs() }
}

fn settle(
    roller: &Sheet,
    helper: Option<&Sheet>,
    rolled: &ActionRoll,
    choices: &Choices,
    mode: Mode,
) -> Result<(RollOutcome, Vec<Need>)> {
    let setup = &rolled.setup;
    let plan = plan(roller, setup)?;
    if plan != rolled.plan {
        return Err(Error::invalid("sheet", "has changed since the dice were rolled: roll again"));
    }
    check_rolls(&rolled.aspect_rolls, plan.aspect_die, plan.aspect_edge, "roll.aspect_rolls")?;
    check_rolls(&rolled.mood_rolls, plan.mood_die, plan.mood_edge, "roll.mood_rolls")?;
    let mut settler = Settler { mode, needs: Vec::new() };
    let helper_value = match (helper, &rolled.help) {
        (None, None) => {
            settler.unneeded(choices.helper_kept.is_some(), "choices.helper_kept", "nobody helped")?;
            None
        }
        (Some(_), None) => return Err(Error::invalid("helper", "nobody helped with this roll")),
        (Some(_), Some(HelpRoll { mood: None, .. })) => {
            return Err(Error::invalid("helper", "the helper plays on another device: their sheet is not changed here"))
        }
        (None, Some(HelpRoll { mood: Some(_), .. })) => {
            return Err(Error::invalid("helper", "this roll was helped: the helper's sheet is needed"))
        }
        (sheet, Some(h)) => {
            if let (Some(sheet), Some(mood)) = (sheet, &h.mood) {
                let die = check_helper(sheet, mood)?;
                if die != h.die || helper_edge(sheet, mood) != h.edge {
                    return Err(Error::invalid("helper", "the helper's sheet has changed since the help was rolled"));
                }
            }
            let rolls = h.rolls();
            check_rolls(&rolls, h.die, h.edge, "roll.help.rolls")?;
            Some(rolls[check_kept(choices.helper_kept, &rolls, "choices.helper_kept")?])
        }
    };
    let aspect_value =
        rolled.aspect_rolls[check_kept(choices.aspect_kept, &rolled.aspect_rolls, "choices.aspect_kept")?];
    let mood_value = rolled.mood_rolls[check_kept(choices.mood_kept, &rolled.mood_rolls, "choices.mood_kept")?];
    let mood_used = match (helper_value, choices.use_helper_die) {
        (Some(h), true) => h,
        (None, true) => {
            return Err(Error::invalid("choices.use_helper_die", "nobody helped: there is no helper's die to use"))
        }
        (_, false) => mood_value,
    };
    let Counted { aspect_total, margin, winner, difference } =
        counted(setup, &plan, aspect_value, mood_used, choices.skill_sign);

    let mut events = Vec::new();
    let mut sheet = roller.clone();
    let line = setup.mood.line();

    act_with_mood(&mut sheet, Who::Roller, &setup.mood, "setup.mood", &mut events)?;
    if let Some(SkillChoice::New { line, name }) = &setup.skill {
        let name = check_name(name, "setup.skill.name")?;
        sheet.skills[*line] = Some(Skill { name: name.clone(), modifier: 0, boxes: AspectBoxes::default() });
        events.push(RollEvent::SkillLineFilled { line: *line, name });
    }
    if let Some(skill_line) = setup.skill.as_ref().map(SkillChoice::line) {
        let skill = sheet.skills[skill_line].as_mut().expect("the skill line was checked or just filled");
        if !skill.boxes.get(setup.aspect) {
            skill.boxes.mark(setup.aspect);
            events.push(RollEvent::SkillBoxMarked { line: skill_line, aspect: setup.aspect });
        }
    }
    // The Arbiters or an ally add negative details when the player loses, ties or wins by 1.
    if let Some(s) = setup.risked_sentiment.filter(|_| margin <= 1) {
        mark_sentiment(&mut sheet, Who::Roller, s, MarkReason::Risked, &mut events);
    }
    // Acting with a different mood while overloaded ends that overload whoever wins.
    settler.old_overload(
        roller,
        &mut sheet,
        Who::Roller,
        line,
        winner,
        choices.overload_end_sentiment,
        "choices.overload_end_sentiment",
        &mut events,
    )?;
    settler.mood_effects(
        &mut sheet,
        Who::Roller,
        line,
        mood_value,
        winner,
        (choices.final_box.as_ref(), "choices.final_box"),
        &mut events,
    )?;

    let helper_sheet = match (helper, &rolled.help, helper_value) {
        (Some(helper), Some(HelpRoll { mood: Some(mood), .. }), Some(value)) => {
            let mut hs = helper.clone();
            act_with_mood(&mut hs, Who::Helper, mood, "helper.mood", &mut events)?;
            settler.old_overload(
                helper,
                &mut hs,
                Who::Helper,
                mood.line(),
                winner,
                choices.helper_overload_end_sentiment,
                "choices.helper_overload_end_sentiment",
                &mut events,
            )?;
            settler.mood_effects(
                &mut hs,
                Who::Helper,
                mood.line(),
                value,
                winner,
                (choices.helper_final_box.as_ref(), "choices.helper_final_box"),
                &mut events,
            )?;
            Some(hs)
        }
        _ => {
            let why = "no helper on this device: a helper elsewhere records their own sheet";
            settler.unneeded(choices.helper_final_box.is_some(), "choices.helper_final_box", why)?;
            settler.unneeded(
                choices.helper_overload_end_sentiment.is_some(),
                "choices.helper_overload_end_sentiment",
                why,
            )?;
            None
        }
    };

    let scout = settler.scout(setup.scout, winner, choices.scout_accepts_details)?;

    let outcome = RollOutcome {
        aspect_value,
        aspect_total,
        mood_value,
        mood_used,
        winner,
        margin,
        difference,
        grants: grants(winner, difference),
        roller: sheet,
        helper: helper_sheet,
        events,
        scout,
    };
    Ok((outcome, settler.needs))
}

#[cfg(test)]
#[path = "roll/tests.rs"]
mod tests;
