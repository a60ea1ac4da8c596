//! A Scattershot's Mechanix character sheet (RULES.md §4.2): six statistics, free skills,
//! skills, special abilities, advantages and disadvantages, two resources and the experience
//! dice pool. Ratings are bought with development points: 1 point raises a rating by 1.
//! The character's name lives on the character record.
//!
//! - Statistics start at 10 (the source counts that as 8 plus 2 implied points each, 12 in
//!   all); each point bought raises one by 1.
//! - Free skills come from the game's list with their starting levels: a development point
//!   buys up to 5 of them, and each later +1 costs a point.
//! - A skill's (or special ability's) rating is its difficulty's base (Easy 11 …
//!   Legendary 4) plus the points spent on it.
//! - While the sheet is in creation, points cost nothing but count against the creation
//!   limit when one is set; after creation each point costs experience dice (the table's
//!   *experience dice per development point*).
//! - Hit Points and Power are also resources: the maximum is the statistic's rating, and the
//!   sheet keeps what has been lost, so raising the statistic raises both.
//!
//! Rulings where the source is silent:
//! - A statistic is never bought below its base of 10: deficiencies are disadvantages.
//! - Every ability costs at least 1 point (the source: every rating costs at least 1), so a
//!   skill or special ability enters the sheet with 1 point, at its base + 1 (an Easy skill
//!   at 12). A skill not on the sheet is used by Defaulting, outside the sheet.
//! - The first free skill of each group of five costs the point; the next four are free.
//! - An advantage costs the points its listing asks (at least 1) and gives a residual
//!   modifier of 0 or more; a disadvantage costs and refunds nothing and gives a modifier of
//!   0 or less. Disadvantages may be added or removed at any time (a Telling Blow may add
//!   one); an advantage is removed, and a point taken back, only during creation.
//! - A resource's current value may fall below 0 (what that means is the narrative's); it is
//!   never above the maximum. Power is expended only while enough of it is left.
//! - Resources change only through a roll's result ([`Sheet::apply_results`], at the end of
//!   its Application Phase, also during mechanical play) or an explicit edit
//!   ([`Sheet::set_resource`], [`Sheet::expend_power`]). The app models no penalty for a
//!   reduced resource, so nothing about a resource waits for a lull.
//! - Residual modifiers ([`Modifier`]: a result's Bonus, a Telling Blow's lasting
//!   consequence) are temporary: each lasts until removed, until the session ends or until
//!   mechanical play ends, and is added to every roll of the character while it lasts. At
//!   most [`MAX_ENTRIES`], each −99 to 99.
//! - The description (the "contract" post-session rewards are judged by) and whether the
//!   character is a non-player character (the Gamemaster's) are the sheet's.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{clean_name, clean_text, name_problem, text_problem, Settings};
use crate::error::{Error, Result};
use crate::Problem;

/// Every statistic's starting rating.
pub const STATISTIC_BASE: i32 = 10;
/// The development points the base of 10 counts as already spent, over all six statistics.
pub const IMPLIED_STATISTIC_POINTS: u32 = 12;
/// Free skills a development point buys.
pub const FREE_SKILLS_PER_POINT: usize = 5;
/// The most points one rating holds.
pub const MAX_POINTS: u32 = 200;
/// The most entries in one list (free skills, skills, abilities, advantages/disadvantages).
pub const MAX_ENTRIES: usize = 200;
/// The largest residual modifier or free-skill starting level, either way.
pub const MAX_MODIFIER: i32 = 99;
/// The most a resource may have lost.
pub const MAX_LOSS: u32 = 100_000;

/// The six statistics every character has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Statistic {
    /// Raw muscle power.
    Strength,
    /// Untrained physical prowess.
    Agility,
    /// The fight left in the character; also a resource.
    HitPoints,
    /// Response time.
    Reaction,
    /// Gathering information.
    Observation,
    /// The magnitude of special abilities; also a resource.
    Power,
}

impl Statistic {
    pub const ALL: [Statistic; 6] = [
        Statistic::Strength,
        Statistic::Agility,
        Statistic::HitPoints,
        Statistic::Reaction,
        Statistic::Observation,
        Statistic::Power,
    ];

    /// Its field name in files and on the sheet (`hit_points`).
    pub fn field(self) -> &'static str {
        match self {
            Statistic::Strength => "strength",
            Statistic::Agility => "agility",
            Statistic::HitPoints => "hit_points",
            Statistic::Reaction => "reaction",
            Statistic::Observation => "observation",
            Statistic::Power => "power",
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Statistic::Strength => "Strength",
            Statistic::Agility => "Agility",
            Statistic::HitPoints => "Hit Points",
            Statistic::Reaction => "Reaction",
            Statistic::Observation => "Observation",
            Statistic::Power => "Power",
        }
    }
}

/// The development points bought into each statistic (beyond the base of 10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatisticPoints {
    pub strength: u32,
    pub agility: u32,
    pub hit_points: u32,
    pub reaction: u32,
    pub observation: u32,
    pub power: u32,
}

impl StatisticPoints {
    pub fn get(&self, statistic: Statistic) -> u32 {
        // One match (get_mut's) names each statistic's field; the points are six numbers to copy.
        let mut points = *self;
        *points.get_mut(statistic)
    }

    fn get_mut(&mut self, statistic: Statistic) -> &mut u32 {
        match statistic {
            Statistic::Strength => &mut self.strength,
            Statistic::Agility => &mut self.agility,
            Statistic::HitPoints => &mut self.hit_points,
            Statistic::Reaction => &mut self.reaction,
            Statistic::Observation => &mut self.observation,
            Statistic::Power => &mut self.power,
        }
    }
}

/// How hard a skill (or special ability) is: its rating is this base plus its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Easy,
    Intermediate,
    Difficult,
    Exceptional,
    Renowned,
    Incredible,
    NighImpossible,
    Legendary,
}

impl Difficulty {
    pub const ALL: [Difficulty; 8] = [
        Difficulty::Easy,
        Difficulty::Intermediate,
        Difficulty::Difficult,
        Difficulty::Exceptional,
        Difficulty::Renowned,
        Difficulty::Incredible,
        Difficulty::NighImpossible,
        Difficulty::Legendary,
    ];

    /// The rating before any points: Easy 11 down to Legendary 4.
    pub fn base(self) -> i32 {
        match self {
            Difficulty::Easy => 11,
            Difficulty::Intermediate => 10,
            Difficulty::Difficult => 9,
            Difficulty::Exceptional => 8,
            Difficulty::Renowned => 7,
            Difficulty::Incredible => 6,
            Difficulty::NighImpossible => 5,
            Difficulty::Legendary => 4,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Difficulty::Easy => "Easy",
            Difficulty::Intermediate => "Intermediate",
            Difficulty::Difficult => "Difficult",
            Difficulty::Exceptional => "Exceptional",
            Difficulty::Renowned => "Renowned",
            Difficulty::Incredible => "Incredible",
            Difficulty::NighImpossible => "Nigh Impossible",
            Difficulty::Legendary => "Legendary",
        }
    }
}

/// A skill from the game's free-skill list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreeSkill {
    pub name: String,
    /// The level the list gives it.
    pub starting_level: i32,
    /// Points bought on top, +1 each.
    #[serde(default)]
    pub raised: u32,
}

impl FreeSkill {
    pub fn rating(&self) -> i32 {
        self.starting_level + self.raised as i32
    }
}

/// A skill: its difficulty's base plus the points spent on it (at least 1).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    pub name: String,
    pub difficulty: Difficulty,
    pub points: u32,
}

impl Skill {
    pub fn rating(&self) -> i32 {
        self.difficulty.base() + self.points as i32
    }
}

/// What kind of extra-normal ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityKind {
    /// Flashy, narrowly defined, rarely needs Power.
    Superpower,
    /// Nearly any effect, made possible by expending Power.
    Magic,
    /// Narrow, discrete, rarely needs Power.
    Spell,
}

/// A special ability, tied to the Power statistic for how much it may affect.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialAbility {
    pub name: String,
    pub kind: AbilityKind,
    pub difficulty: Difficulty,
    /// At least 1.
    pub points: u32,
    /// Its effects as set at creation or evolution.
    #[serde(default)]
    pub notes: String,
}

impl SpecialAbility {
    pub fn rating(&self) -> i32 {
        self.difficulty.base() + self.points as i32
    }
}

/// An advantage or a disadvantage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QualityKind {
    Advantage,
    Disadvantage,
}

/// An advantage or disadvantage (the source's "Character"): a residual modifier in the
/// situations it relates to, and a guide to characterization for rewards.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quality {
    pub kind: QualityKind,
    pub name: String,
    /// When it applies ("with the hands").
    #[serde(default)]
    pub situation: String,
    /// Added to rolls it applies to: 0 or more for an advantage, 0 or less for a disadvantage.
    #[serde(default)]
    pub modifier: i32,
    /// The development points it cost (an advantage: at least 1; a disadvantage: 0).
    #[serde(default)]
    pub points: u32,
}

/// The two statistics that are also resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    HitPoints,
    Power,
}

impl Resource {
    pub const ALL: [Resource; 2] = [Resource::HitPoints, Resource::Power];

    /// Its field name in files (`hit_points`).
    pub fn field(self) -> &'static str {
        self.statistic().field()
    }

    pub fn statistic(self) -> Statistic {
        match self {
            Resource::HitPoints => Statistic::HitPoints,
            Resource::Power => Statistic::Power,
        }
    }
}

/// MIB × Factor to subtract from a character's resource when the roll concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceResult {
    /// The character whose resource it comes off.
    pub target: Uuid,
    pub resource: Resource,
    pub amount: u32,
}

/// What each resource has lost below its maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceLoss {
    pub hit_points: u32,
    pub power: u32,
}

impl ResourceLoss {
    pub fn get(&self, resource: Resource) -> u32 {
        // One match (get_mut's) names each resource's field; the losses are two numbers to copy.
        let mut loss = *self;
        *loss.get_mut(resource)
    }

    fn get_mut(&mut self, resource: Resource) -> &mut u32 {
        match resource {
            Resource::HitPoints => &mut self.hit_points,
            Resource::Power => &mut self.power,
        }
    }
}

/// Whether the character is still being created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Points are free (within the creation limit, if any) and may be taken back.
    #[default]
    Creation,
    /// Points cost experience dice.
    Play,
}

/// How long a residual modifier lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lasts {
    /// Until someone removes it.
    #[default]
    UntilRemoved,
    /// Until the session ends.
    Session,
    /// Until mechanical play ends.
    MechanicalPlay,
}

/// A temporary residual modifier on the character, added to each of its rolls.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Modifier {
    pub text: String,
    pub value: i32,
    #[serde(default)]
    pub lasts: Lasts,
}

/// A Scattershot's Mechanix character sheet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    pub stage: Stage,
    /// The most development points creation may spend; None: no limit.
    #[serde(default)]
    pub creation_limit: Option<u32>,
    pub statistics: StatisticPoints,
    #[serde(default)]
    pub free_skills: Vec<FreeSkill>,
    #[serde(default)]
    pub skills: Vec<Skill>,
    #[serde(default)]
    pub special_abilities: Vec<SpecialAbility>,
    #[serde(default)]
    pub qualities: Vec<Quality>,
    #[serde(default)]
    pub lost: ResourceLoss,
    #[serde(default)]
    pub experience_dice: u32,
    /// Who the character is: the "contract" of characterization rewards are judged by.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// A non-player character, played by the Gamemaster.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub npc: bool,
    /// Who plays it: a player on its game's table, whose stock holds its experience dice
    /// (then `experience_dice` stays 0). None: it stands as its own player (audit D-SC4; see
    /// [`super::Stocks`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Uuid>,
    /// Temporary residual modifiers, added to each of its rolls while they last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
}

/// A rating a roll may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Rating {
    Statistic {
        statistic: Statistic,
    },
    FreeSkill {
        index: usize,
    },
    Skill {
        index: usize,
    },
    SpecialAbility {
        index: usize,
    },
    /// A listed skill the character has not bought, at its listing's default (audit D-SC5;
    /// read from the game's listings by `skill_listings::default_rating`, not from the sheet).
    Default {
        listing: usize,
    },
}

/// Something bought with development points.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "purchase", rename_all = "snake_case", deny_unknown_fields)]
pub enum Purchase {
    /// +1 to a statistic.
    Statistic { statistic: Statistic },
    /// A free skill from the list at its starting level (a point buys five).
    NewFreeSkill { name: String, starting_level: i32 },
    /// +1 to a free skill.
    FreeSkill { index: usize },
    /// A skill at its base + 1.
    NewSkill { name: String, difficulty: Difficulty },
    /// +1 to a skill.
    Skill { index: usize },
    /// A special ability at its base + 1.
    NewSpecialAbility {
        name: String,
        kind: AbilityKind,
        difficulty: Difficulty,
        #[serde(default)]
        notes: String,
    },
    /// +1 to a special ability.
    SpecialAbility { index: usize },
    /// An advantage at its listing's cost.
    NewAdvantage {
        name: String,
        #[serde(default)]
        situation: String,
        modifier: i32,
        points: u32,
    },
}

/// What a sheet move did, for the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum SheetEvent {
    /// Development points spent; `experience_dice` is what they cost after creation.
    Bought {
        purchase: Purchase,
        points: u32,
        experience_dice: u32,
        points_spent: u32,
    },
    /// A point taken back during creation (the ability removed when it was its last).
    TakenBack {
        rating: Rating,
        points: u32,
        removed: bool,
        points_spent: u32,
    },
    CreationLimitSet {
        before: Option<u32>,
        after: Option<u32>,
    },
    CreationFinished {
        points_spent: u32,
    },
    DisadvantageAdded {
        name: String,
        modifier: i32,
    },
    QualityRemoved {
        kind: QualityKind,
        name: String,
        points_refunded: u32,
    },
    /// An explicit edit of a resource's current value.
    ResourceSet {
        resource: Resource,
        before: i32,
        after: i32,
    },
    /// Power expended on a special ability.
    PowerExpended {
        ability: String,
        amount: u32,
        before: i32,
        after: i32,
    },
    /// A roll's result (MIB × Factor) subtracted.
    ResultApplied {
        resource: Resource,
        amount: u32,
        before: i32,
        after: i32,
    },
    ExperienceDiceSet {
        before: u32,
        after: u32,
    },
    DescriptionSet {
        description: String,
    },
    NpcSet {
        npc: bool,
    },
    ModifierAdded {
        text: String,
        value: i32,
        lasts: Lasts,
    },
    /// Removed by hand, or because what it lasted for ended.
    ModifierRemoved {
        text: String,
        value: i32,
        lasts: Lasts,
    },
}

fn entry<'a, T>(list: &'a [T], field: &str, index: usize, what: &str) -> Result<&'a T> {
    list.get(index).ok_or_else(|| Error::invalid(field, format!("there is no {what} {index} on the sheet")))
}

fn check_modifier(field: &str, value: i32) -> Result<()> {
    if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&value) {
        return Err(Error::invalid(field, format!("{value} is out of range: -{MAX_MODIFIER} to {MAX_MODIFIER}")));
    }
    Ok(())
}

fn room(field: &str, len: usize, what: &str) -> Result<()> {
    if len >= MAX_ENTRIES {
        return Err(Error::invalid(field, format!("a sheet holds at most {MAX_ENTRIES} {what}")));
    }
    Ok(())
}

fn raise(field: &str, points: &mut u32) -> Result<()> {
    if *points >= MAX_POINTS {
        return Err(Error::invalid(field, format!("a rating holds at most {MAX_POINTS} points")));
    }
    *points += 1;
    Ok(())
}

impl Sheet {
    /// A new sheet in creation: every statistic at 10, nothing else, with an optional limit on
    /// the development points creation may spend.
    pub fn new(creation_limit: Option<u32>) -> Sheet {
        Sheet { creation_limit, ..Sheet::default() }
    }

    pub fn statistic(&self, statistic: Statistic) -> i32 {
        STATISTIC_BASE + self.statistics.get(statistic) as i32
    }

    /// The rating `rating` names, or an error naming `field` when it is not on the sheet.
    pub fn rating(&self, field: &str, rating: Rating) -> Result<i32> {
        Ok(match rating {
            Rating::Statistic { statistic } => self.statistic(statistic),
            Rating::FreeSkill { index } => entry(&self.free_skills, field, index, "free skill")?.rating(),
            Rating::Skill { index } => entry(&self.skills, field, index, "skill")?.rating(),
            Rating::SpecialAbility { index } => {
                entry(&self.special_abilities, field, index, "special ability")?.rating()
            }
            Rating::Default { .. } => {
                return Err(Error::invalid(
                    field,
                    "a skill rolled by default is not on the sheet: its listing gives it",
                ))
            }
        })
    }

    /// The rating that sets how much special ability `index` may affect: Power.
    pub fn ability_magnitude(&self, index: usize) -> Result<i32> {
        entry(&self.special_abilities, "ability", index, "special ability")?;
        Ok(self.statistic(Statistic::Power))
    }

    /// The sum of the residual modifiers of the advantages and disadvantages at `indices`
    /// (those the situation calls for).
    pub fn residual_modifier(&self, indices: &[usize]) -> Result<i32> {
        let mut total = 0;
        for (i, &index) in indices.iter().enumerate() {
            if indices[..i].contains(&index) {
                return Err(Error::invalid(format!("qualities[{i}]"), "each advantage or disadvantage counts once"));
            }
            total += entry(&self.qualities, &format!("qualities[{i}]"), index, "advantage or disadvantage")?.modifier;
        }
        Ok(total)
    }

    /// A resource's maximum: its statistic's rating.
    pub fn maximum(&self, resource: Resource) -> i32 {
        self.statistic(resource.statistic())
    }

    /// A resource's current value: the maximum less what it lost (may be below 0).
    pub fn current(&self, resource: Resource) -> i32 {
        self.maximum(resource) - self.lost.get(resource) as i32
    }

    /// The development points spent beyond the 12 implied in the statistics' base.
    pub fn points_spent(&self) -> u32 {
        // Saturating: a sheet read from a file may hold any numbers until its problems are
        // listed, and this sum is one of the checks.
        let sum = |points: &mut dyn Iterator<Item = u32>| points.fold(0u32, u32::saturating_add);
        let free_skill_count =
            u32::try_from(self.free_skills.len().div_ceil(FREE_SKILLS_PER_POINT)).unwrap_or(u32::MAX);
        sum(&mut [
            sum(&mut Statistic::ALL.iter().map(|&s| self.statistics.get(s))),
            free_skill_count,
            sum(&mut self.free_skills.iter().map(|f| f.raised)),
            sum(&mut self.skills.iter().map(|s| s.points)),
            sum(&mut self.special_abilities.iter().map(|a| a.points)),
            sum(&mut self.qualities.iter().map(|q| q.points)),
        ]
        .into_iter())
    }

    /// The development points `purchase` costs now.
    pub fn points_for(&self, purchase: &Purchase) -> u32 {
        match purchase {
            Purchase::NewFreeSkill { .. } => u32::from(self.free_skills.len().is_multiple_of(FREE_SKILLS_PER_POINT)),
            Purchase::NewAdvantage { points, .. } => *points,
            _ => 1,
        }
    }

    /// Buys `purchase` with development points: free (within the creation limit) during
    /// creation, for experience dice after it.
    pub fn buy(&self, settings: &Settings, purchase: &Purchase) -> Result<(Sheet, Vec<SheetEvent>)> {
        let mut next = self.clone();
        let purchase = match purchase {
            Purchase::Statistic { statistic } => {
                raise("statistic", next.statistics.get_mut(*statistic))?;
                purchase.clone()
            }
            Purchase::NewFreeSkill { name, starting_level } => {
                room("free_skills", self.free_skills.len(), "free skills")?;
                let name = clean_name("name", name)?;
                if self.free_skills.iter().any(|f| f.name.eq_ignore_ascii_case(&name)) {
                    return Err(Error::invalid("name", format!("the sheet already has the free skill {name:?}")));
                }
                check_modifier("starting_level", *starting_level)?;
                next.free_skills.push(FreeSkill { name: name.clone(), starting_level: *starting_level, raised: 0 });
                Purchase::NewFreeSkill { name, starting_level: *starting_level }
            }
            Purchase::FreeSkill { index } => {
                entry(&self.free_skills, "index", *index, "free skill")?;
                raise("index", &mut next.free_skills[*index].raised)?;
                purchase.clone()
            }
            Purchase::NewSkill { name, difficulty } => {
                room("skills", self.skills.len(), "skills")?;
                let name = clean_name("name", name)?;
                if self.skills.iter().any(|s| s.name.eq_ignore_ascii_case(&name)) {
                    return Err(Error::invalid("name", format!("the sheet already has the skill {name:?}")));
                }
                next.skills.push(Skill { name: name.clone(), difficulty: *difficulty, points: 1 });
                Purchase::NewSkill { name, difficulty: *difficulty }
            }
            Purchase::Skill { index } => {
                entry(&self.skills, "index", *index, "skill")?;
                raise("index", &mut next.skills[*index].points)?;
                purchase.clone()
            }
            Purchase::NewSpecialAbility { name, kind, difficulty, notes } => {
                room("special_abilities", self.special_abilities.len(), "special abilities")?;
                let name = clean_name("name", name)?;
                let notes = clean_text("notes", notes)?;
                next.special_abilities.push(SpecialAbility {
                    name: name.clone(),
                    kind: *kind,
                    difficulty: *difficulty,
                    points: 1,
                    notes: notes.clone(),
                });
                Purchase::NewSpecialAbility { name, kind: *kind, difficulty: *difficulty, notes }
            }
            Purchase::SpecialAbility { index } => {
                entry(&self.special_abilities, "index", *index, "special ability")?;
                raise("index", &mut next.special_abilities[*index].points)?;
                purchase.clone()
            }
            Purchase::NewAdvantage { name, situation, modifier, points } => {
                room("qualities", self.qualities.len(), "advantages and disadvantages")?;
                let name = clean_name("name", name)?;
                let situation = clean_text("situation", situation)?;
                check_modifier("modifier", *modifier)?;
                if *modifier < 0 {
                    return Err(Error::invalid("modifier", "an advantage's modifier is 0 or more"));
                }
                if !(1..=MAX_POINTS).contains(points) {
                    return Err(Error::invalid("points", format!("an advantage costs 1 to {MAX_POINTS} points")));
                }
                next.qualities.push(Quality {
                    kind: QualityKind::Advantage,
                    name: name.clone(),
                    situation: situation.clone(),
                    modifier: *modifier,
                    points: *points,
                });
                Purchase::NewAdvantage { name, situation, modifier: *modifier, points: *points }
            }
        };
        let points = self.points_for(&purchase);
        let mut experience_dice = 0;
        match self.stage {
            Stage::Creation => {
                if let Some(limit) = self.creation_limit {
                    let spent = self.points_spent();
                    if spent + points > limit {
                        return Err(Error::invalid(
                            "points",
                            format!("{points} more point(s) would pass the creation limit of {limit} ({spent} spent)"),
                        ));
                    }
                }
            }
            Stage::Play => {
                experience_dice = points * settings.experience_dice_per_point;
                if experience_dice > self.experience_dice {
                    return Err(Error::invalid(
                        "experience_dice",
                        format!(
                            "{points} point(s) cost {experience_dice} experience dice; the pool holds {}",
                            self.experience_dice
                        ),
                    ));
                }
                next.experience_dice -= experience_dice;
            }
        }
        let points_spent = next.points_spent();
        Ok((next, vec![SheetEvent::Bought { purchase, points, experience_dice, points_spent }]))
    }

    fn in_creation(&self, doing: &str) -> Result<()> {
        if self.stage != Stage::Creation {
            return Err(Error::invalid("stage", format!("creation is finished; {doing} only during creation")));
        }
        Ok(())
    }

    /// Takes back the last point bought into `rating`, during creation only; a skill, free
    /// skill or special ability goes when its last point does.
    pub fn take_back(&self, rating: Rating) -> Result<(Sheet, Vec<SheetEvent>)> {
        self.in_creation("points are taken back")?;
        self.rating("rating", rating)?;
        let mut next = self.clone();
        let mut removed = false;
        match rating {
            Rating::Statistic { statistic } => {
                let points = next.statistics.get_mut(statistic);
                if *points == 0 {
                    return Err(Error::invalid(
                        "rating",
                        format!("{} is at its base of {STATISTIC_BASE}", statistic.word()),
                    ));
                }
                *points -= 1;
            }
            Rating::FreeSkill { index } => {
                if next.free_skills[index].raised == 0 {
                    next.free_skills.remove(index);
                    removed = true;
                } else {
                    next.free_skills[index].raised -= 1;
                }
            }
            Rating::Skill { index } => {
                next.skills[index].points -= 1;
                if next.skills[index].points == 0 {
                    next.skills.remove(index);
                    removed = true;
                }
            }
            Rating::SpecialAbility { index } => {
                next.special_abilities[index].points -= 1;
                if next.special_abilities[index].points == 0 {
                    next.special_abilities.remove(index);
                    removed = true;
                }
            }
            // Refused by `rating` above: nothing was bought.
            Rating::Default { .. } => {
                return Err(Error::invalid("rating", "a skill rolled by default was never bought"))
            }
        }
        let points = self.points_spent() - next.points_spent();
        let points_spent = next.points_spent();
        Ok((next, vec![SheetEvent::TakenBack { rating, points, removed, points_spent }]))
    }

    /// Sets (or lifts) the creation limit, during creation, never below the points spent.
    pub fn set_creation_limit(&self, limit: Option<u32>) -> Result<(Sheet, Vec<SheetEvent>)> {
        self.in_creation("the creation limit is set")?;
        if let Some(limit) = limit {
            if limit < self.points_spent() {
                return Err(Error::invalid(
                    "creation_limit",
                    format!("{} points are spent already, more than {limit}", self.points_spent()),
                ));
            }
        }
        let next = Sheet { creation_limit: limit, ..self.clone() };
        Ok((next, vec![SheetEvent::CreationLimitSet { before: self.creation_limit, after: limit }]))
    }

    /// Ends creation: from now on points cost experience dice.
    pub fn finish_creation(&self) -> Result<(Sheet, Vec<SheetEvent>)> {
        self.in_creation("it is finished")?;
        let next = Sheet { stage: Stage::Play, ..self.clone() };
        Ok((next, vec![SheetEvent::CreationFinished { points_spent: self.points_spent() }]))
    }

    /// Adds a disadvantage (free; at any time).
    pub fn add_disadvantage(&self, name: &str, situation: &str, modifier: i32) -> Result<(Sheet, Vec<SheetEvent>)> {
        room("qualities", self.qualities.len(), "advantages and disadvantages")?;
        let name = clean_name("name", name)?;
        let situation = clean_text("situation", situation)?;
        check_modifier("modifier", modifier)?;
        if modifier > 0 {
            return Err(Error::invalid("modifier", "a disadvantage's modifier is 0 or less"));
        }
        let mut next = self.clone();
        next.qualities.push(Quality {
            kind: QualityKind::Disadvantage,
            name: name.clone(),
            situation,
            modifier,
            points: 0,
        });
        Ok((next, vec![SheetEvent::DisadvantageAdded { name, modifier }]))
    }

    /// Removes an advantage (during creation, refunding its points) or a disadvantage.
    pub fn remove_quality(&self, index: usize) -> Result<(Sheet, Vec<SheetEvent>)> {
        let quality = entry(&self.qualities, "index", index, "advantage or disadvantage")?;
        if quality.kind == QualityKind::Advantage {
            self.in_creation("an advantage is removed")?;
        }
        let mut next = self.clone();
        let quality = next.qualities.remove(index);
        Ok((
            next,
            vec![SheetEvent::QualityRemoved {
                kind: quality.kind,
                name: quality.name,
                points_refunded: quality.points,
            }],
        ))
    }

    fn with_current(&self, field: &str, resource: Resource, current: i64) -> Result<Sheet> {
        let maximum = i64::from(self.maximum(resource));
        if current > maximum {
            return Err(Error::invalid(field, format!("{current} is above the maximum of {maximum}")));
        }
        let lost = maximum - current;
        if lost > i64::from(MAX_LOSS) {
            return Err(Error::invalid(field, format!("{current} is too far below 0 (at most {MAX_LOSS} lost)")));
        }
        let mut next = self.clone();
        *next.lost.get_mut(resource) = lost as u32;
        Ok(next)
    }

    /// An explicit edit: sets a resource's current value (at most its maximum).
    pub fn set_resource(&self, resource: Resource, current: i32) -> Result<(Sheet, Vec<SheetEvent>)> {
        let next = self.with_current("current", resource, i64::from(current))?;
        let before = self.current(resource);
        Ok((next, vec![SheetEvent::ResourceSet { resource, before, after: current }]))
    }

    /// An explicit edit: Power expended on special ability `ability` (while enough is left).
    pub fn expend_power(&self, ability: usize, amount: u32) -> Result<(Sheet, Vec<SheetEvent>)> {
        let name = entry(&self.special_abilities, "ability", ability, "special ability")?.name.clone();
        let before = self.current(Resource::Power);
        if amount == 0 || i64::from(amount) > i64::from(before) {
            return Err(Error::invalid("amount", format!("expend 1 to {} Power (the Power left)", before.max(0))));
        }
        let after = before - amount as i32;
        let next = self.with_current("amount", Resource::Power, i64::from(after))?;
        Ok((next, vec![SheetEvent::PowerExpended { ability: name, amount, before, after }]))
    }

    /// Subtracts every result aimed at character `me` from its resource. Either every result
    /// lands or (when one would take a resource past [`MAX_LOSS`]) none does.
    pub fn apply_results(&self, me: Uuid, results: &[ResourceResult]) -> Result<(Sheet, Vec<SheetEvent>)> {
        let mut next = self.clone();
        let mut events = Vec::new();
        for (i, result) in results.iter().enumerate().filter(|(_, r)| r.target == me) {
            let before = next.current(result.resource);
            next = next.with_current(
                &format!("results[{i}].amount"),
                result.resource,
                i64::from(before) - i64::from(result.amount),
            )?;
            let after = next.current(result.resource);
            events.push(SheetEvent::ResultApplied { resource: result.resource, amount: result.amount, before, after });
        }
        Ok((next, events))
    }

    /// The character's description (may be empty).
    pub fn set_description(&self, text: &str) -> Result<(Sheet, Vec<SheetEvent>)> {
        let description = clean_text("description", text)?;
        let next = Sheet { description: description.clone(), ..self.clone() };
        Ok((next, vec![SheetEvent::DescriptionSet { description }]))
    }

    /// Marks the character a non-player character (the Gamemaster's) or a player's.
    pub fn set_npc(&self, npc: bool) -> (Sheet, Vec<SheetEvent>) {
        (Sheet { npc, ..self.clone() }, vec![SheetEvent::NpcSet { npc }])
    }

    /// Adds a temporary residual modifier.
    pub fn add_modifier(&self, text: &str, value: i32, lasts: Lasts) -> Result<(Sheet, Vec<SheetEvent>)> {
        room("modifiers", self.modifiers.len(), "residual modifiers")?;
        let text = clean_name("text", text)?;
        check_modifier("value", value)?;
        let mut next = self.clone();
        next.modifiers.push(Modifier { text: text.clone(), value, lasts });
        Ok((next, vec![SheetEvent::ModifierAdded { text, value, lasts }]))
    }

    /// Removes residual modifier `index`.
    pub fn remove_modifier(&self, index: usize) -> Result<(Sheet, Vec<SheetEvent>)> {
        entry(&self.modifiers, "index", index, "residual modifier")?;
        let mut next = self.clone();
        let m = next.modifiers.remove(index);
        Ok((next, vec![SheetEvent::ModifierRemoved { text: m.text, value: m.value, lasts: m.lasts }]))
    }

    /// Ends every residual modifier that lasts `lasts` (the session or mechanical play ended).
    pub fn end_modifiers(&self, lasts: Lasts) -> (Sheet, Vec<SheetEvent>) {
        let mut next = self.clone();
        let (gone, kept): (Vec<Modifier>, Vec<Modifier>) =
            self.modifiers.iter().cloned().partition(|m| m.lasts == lasts);
        next.modifiers = kept;
        let events = gone
            .into_iter()
            .map(|m| SheetEvent::ModifierRemoved { text: m.text, value: m.value, lasts: m.lasts })
            .collect();
        (next, events)
    }

    /// The residual modifiers now on the character, added up.
    pub fn temporary_modifier(&self) -> i32 {
        self.modifiers.iter().map(|m| m.value).sum()
    }

    /// An explicit edit of the experience dice pool.
    pub fn set_experience_dice(&self, dice: u32) -> (Sheet, Vec<SheetEvent>) {
        let next = Sheet { experience_dice: dice, ..self.clone() };
        (next, vec![SheetEvent::ExperienceDiceSet { before: self.experience_dice, after: dice }])
    }

    /// Every broken invariant, each at `path` + its field (e.g. `$.skills[2].points`).
    pub fn problems(&self, path: &str) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
        for statistic in Statistic::ALL {
            if self.statistics.get(statistic) > MAX_POINTS {
                problem(format!("{path}.statistics.{}", statistic.field()), format!("at most {MAX_POINTS} points"));
            }
        }
        let lists = [
            ("free_skills", self.free_skills.len()),
            ("skills", self.skills.len()),
            ("special_abilities", self.special_abilities.len()),
            ("qualities", self.qualities.len()),
        ];
        for (field, len) in lists {
            if len > MAX_ENTRIES {
                problem(format!("{path}.{field}"), format!("{len} entries; the limit is {MAX_ENTRIES}"));
            }
        }
        let mut names = |field: &str, list: Vec<&String>| {
            for (i, name) in list.into_iter().enumerate() {
                if let Some(p) = name_problem(name) {
                    problem(format!("{path}.{field}[{i}].name"), p);
                }
            }
        };
        names("free_skills", self.free_skills.iter().map(|f| &f.name).collect());
        names("skills", self.skills.iter().map(|s| &s.name).collect());
        names("special_abilities", self.special_abilities.iter().map(|a| &a.name).collect());
        names("qualities", self.qualities.iter().map(|q| &q.name).collect());
        let texts = self
            .special_abilities
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("special_abilities[{i}].notes"), &a.notes))
            .chain(self.qualities.iter().enumerate().map(|(i, q)| (format!("qualities[{i}].situation"), &q.situation)));
        for (field, text) in texts {
            if let Some(p) = text_problem(text) {
                problem(format!("{path}.{field}"), p);
            }
        }
        let mut problem = |at: String, message: String| out.push(Problem { path: at, message });
        for (i, f) in self.free_skills.iter().enumerate() {
            if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&f.starting_level) {
                problem(
                    format!("{path}.free_skills[{i}].starting_level"),
                    format!("-{MAX_MODIFIER} to {MAX_MODIFIER}"),
                );
            }
            if f.raised > MAX_POINTS {
                problem(format!("{path}.free_skills[{i}].raised"), format!("at most {MAX_POINTS} points"));
            }
        }
        let points = self
            .skills
            .iter()
            .map(|s| ("skills", s.points))
            .chain(self.special_abilities.iter().map(|a| ("special_abilities", a.points)));
        let mut index = (0, 0);
        for (field, points) in points {
            let i = if field == "skills" { &mut index.0 } else { &mut index.1 };
            if !(1..=MAX_POINTS).contains(&points) {
                problem(format!("{path}.{field}[{i}].points"), format!("1 to {MAX_POINTS} points"));
            }
            *i += 1;
        }
        for (i, q) in self.qualities.iter().enumerate() {
            let (sign_ok, points_ok) = match q.kind {
                QualityKind::Advantage => (q.modifier >= 0, (1..=MAX_POINTS).contains(&q.points)),
                QualityKind::Disadvantage => (q.modifier <= 0, q.points == 0),
            };
            // unsigned_abs: -2^31 has no i32 opposite, and must be refused, not wrapped.
            if !sign_ok || q.modifier.unsigned_abs() > MAX_MODIFIER.unsigned_abs() {
                problem(
                    format!("{path}.qualities[{i}].modifier"),
                    "an advantage's modifier is 0 to 99, a disadvantage's -99 to 0".into(),
                );
            }
            if !points_ok {
                problem(
                    format!("{path}.qualities[{i}].points"),
                    "an advantage costs 1 to 200 points, a disadvantage 0".into(),
                );
            }
        }
        if self.modifiers.len() > MAX_ENTRIES {
            problem(
                format!("{path}.modifiers"),
                format!("{} entries; the limit is {MAX_ENTRIES}", self.modifiers.len()),
            );
        }
        for (i, m) in self.modifiers.iter().enumerate() {
            if let Some(p) = name_problem(&m.text) {
                problem(format!("{path}.modifiers[{i}].text"), p);
            }
            if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&m.value) {
                problem(format!("{path}.modifiers[{i}].value"), format!("-{MAX_MODIFIER} to {MAX_MODIFIER}"));
            }
        }
        if let Some(p) = text_problem(&self.description) {
            problem(format!("{path}.description"), p);
        }
        for resource in Resource::ALL {
            if self.lost.get(resource) > MAX_LOSS {
                problem(format!("{path}.lost.{}", resource.field()), format!("at most {MAX_LOSS}"));
            }
        }
        if let (Stage::Creation, Some(limit)) = (self.stage, self.creation_limit) {
            if self.points_spent() > limit {
                problem(
                    format!("{path}.creation_limit"),
                    format!("{} points are spent, more than the limit of {limit}", self.points_spent()),
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::scattershot::MAX_TEXT_CHARS as MAX_TEXT;
    use crate::rules::test_support::err;

    fn bought(sheet: &Sheet, purchase: Purchase) -> Sheet {
        sheet.buy(&Settings::default(), &purchase).unwrap().0
    }

    fn stat(statistic: Statistic) -> Purchase {
        Purchase::Statistic { statistic }
    }

    fn free(name: &str, starting_level: i32) -> Purchase {
        Purchase::NewFreeSkill { name: name.into(), starting_level }
    }

    fn skill(name: &str, difficulty: Difficulty) -> Purchase {
        Purchase::NewSkill { name: name.into(), difficulty }
    }

    #[test]
    fn statistics_start_at_ten_and_a_point_raises_one_by_one() {
        let sheet = Sheet::new(None);
        for s in Statistic::ALL {
            assert_eq!(sheet.statistic(s), 10, "{}", s.word());
        }
        assert_eq!(sheet.points_spent(), 0);
        let (sheet, events) = sheet.buy(&Settings::default(), &stat(Statistic::Agility)).unwrap();
        assert_eq!(sheet.statistic(Statistic::Agility), 11);
        assert_eq!(sheet.rating("r", Rating::Statistic { statistic: Statistic::Agility }).unwrap(), 11);
        assert_eq!(
            events,
            vec![SheetEvent::Bought {
                purchase: stat(Statistic::Agility),
                points: 1,
                experience_dice: 0,
                points_spent: 1
            }]
        );
        assert_eq!(IMPLIED_STATISTIC_POINTS, 2 * Statistic::ALL.len() as u32, "10 is 8 plus 2 implied points each");
        assert_eq!(
            err(Sheet::new(None).take_back(Rating::Statistic { statistic: Statistic::Power })),
            "rating: Power is at its base of 10"
        );
    }

    #[test]
    fn a_point_buys_up_to_five_free_skills_and_each_raise_costs_a_point() {
        let mut sheet = Sheet::new(None);
        let mut costs = Vec::new();
        for i in 0..11 {
            costs.push(sheet.points_for(&free(&format!("Skill {i}"), 8)));
            sheet = bought(&sheet, free(&format!("Skill {i}"), 8));
        }
        assert_eq!(costs, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
        assert_eq!(sheet.points_spent(), 3);
        assert_eq!(sheet.free_skills[0].rating(), 8, "a free skill starts at the list's level");
        let sheet = bought(&sheet, Purchase::FreeSkill { index: 0 });
        assert_eq!((sheet.free_skills[0].rating(), sheet.points_spent()), (9, 4));
        assert!(err(sheet.buy(&Settings::default(), &free("skill 3", 2))).contains("already has the free skill"));
        // Taking back the 11th free skill refunds the point it started.
        let (fewer, events) = sheet.take_back(Rating::FreeSkill { index: 10 }).unwrap();
        assert_eq!(fewer.points_spent(), 3);
        assert_eq!(
            events,
            vec![SheetEvent::TakenBack {
                rating: Rating::FreeSkill { index: 10 },
                points: 1,
                removed: true,
                points_spent: 3
            }]
        );
    }

    #[test]
    fn a_skill_is_its_difficulty_s_base_plus_its_points() {
        let bases: Vec<i32> = Difficulty::ALL.iter().map(|d| d.base()).collect();
        assert_eq!(bases, [11, 10, 9, 8, 7, 6, 5, 4]);
        let sheet = bought(&Sheet::new(None), skill("Climbing", Difficulty::Easy));
        assert_eq!((sheet.skills[0].points, sheet.skills[0].rating()), (1, 12));
        let sheet = bought(&sheet, Purchase::Skill { index: 0 });
        let sheet = bought(&sheet, skill("Surgery", Difficulty::Difficult));
        assert_eq!(sheet.rating("r", Rating::Skill { index: 0 }).unwrap(), 13);
        assert_eq!(sheet.rating("r", Rating::Skill { index: 1 }).unwrap(), 10);
        assert_eq!(sheet.points_spent(), 3);
        assert_eq!(err(sheet.rating("rating", Rating::Skill { index: 2 })), "rating: there is no skill 2 on the sheet");
        // Its last point taken back removes it.
        let (sheet, _) = sheet.take_back(Rating::Skill { index: 1 }).unwrap();
        assert_eq!(sheet.skills.len(), 1);
    }

    #[test]
    fn special_abilities_are_tied_to_power() {
        let purchase = Purchase::NewSpecialAbility {
            name: "Fireball".into(),
            kind: AbilityKind::Magic,
            difficulty: Difficulty::Renowned,
            notes: "".into(),
        };
        let sheet = bought(&bought(&Sheet::new(None), purchase), stat(Statistic::Power));
        assert_eq!(sheet.special_abilities[0].rating(), 8);
        assert_eq!(sheet.ability_magnitude(0).unwrap(), 11);
        let (spent, events) = sheet.expend_power(0, 4).unwrap();
        assert_eq!((spent.current(Resource::Power), spent.maximum(Resource::Power)), (7, 11));
        assert_eq!(
            events,
            vec![SheetEvent::PowerExpended { ability: "Fireball".into(), amount: 4, before: 11, after: 7 }]
        );
        assert_eq!(err(spent.expend_power(0, 8)), "amount: expend 1 to 7 Power (the Power left)");
        assert!(err(spent.expend_power(1, 1)).starts_with("ability: there is no special ability 1"));
    }

    #[test]
    fn advantages_and_disadvantages_give_residual_modifiers() {
        let dexterity = Purchase::NewAdvantage {
            name: "Dexterity".into(),
            situation: "Agility with the hands".into(),
            modifier: 1,
            points: 1,
        };
        let sheet = bought(&Sheet::new(None), dexterity);
        let (sheet, _) = sheet.add_disadvantage("Bad knee", "running", -2).unwrap();
        assert_eq!(sheet.points_spent(), 1, "a disadvantage refunds nothing");
        assert_eq!(sheet.residual_modifier(&[0]).unwrap(), 1);
        assert_eq!(sheet.residual_modifier(&[0, 1]).unwrap(), -1);
        assert_eq!(err(sheet.residual_modifier(&[1, 1])), "qualities[1]: each advantage or disadvantage counts once");
        assert!(err(sheet.add_disadvantage("Lucky", "", 1)).contains("0 or less"));
        let bad = Purchase::NewAdvantage { name: "Clumsy".into(), situation: "".into(), modifier: -1, points: 1 };
        assert!(err(sheet.buy(&Settings::default(), &bad)).contains("0 or more"));
        let free_lunch = Purchase::NewAdvantage { name: "Rich".into(), situation: "".into(), modifier: 0, points: 0 };
        assert!(err(sheet.buy(&Settings::default(), &free_lunch)).starts_with("points: an advantage costs 1"));
        // After creation an advantage stays; a disadvantage may go.
        let (playing, _) = sheet.finish_creation().unwrap();
        assert!(err(playing.remove_quality(0)).starts_with("stage: creation is finished"));
        let (playing, events) = playing.remove_quality(1).unwrap();
        assert_eq!(playing.qualities.len(), 1);
        assert_eq!(
            events,
            vec![SheetEvent::QualityRemoved {
                kind: QualityKind::Disadvantage,
                name: "Bad knee".into(),
                points_refunded: 0
            }]
        );
    }

    #[test]
    fn creation_has_no_limit_unless_one_is_set() {
        let mut sheet = Sheet::new(None);
        for _ in 0..50 {
            sheet = bought(&sheet, stat(Statistic::Strength));
        }
        assert_eq!(sheet.statistic(Statistic::Strength), 60);
        let sheet = bought(&Sheet::new(Some(2)), stat(Statistic::Reaction));
        let sheet = bought(&sheet, free("Swimming", 9));
        assert_eq!(
            err(sheet.buy(&Settings::default(), &stat(Statistic::Reaction))),
            "points: 1 more point(s) would pass the creation limit of 2 (2 spent)"
        );
        // Four more free skills fit in the point already spent.
        let sheet = bought(&sheet, free("Dancing", 9));
        assert_eq!(sheet.points_spent(), 2);
        assert!(err(sheet.set_creation_limit(Some(1))).contains("more than 1"));
        let (sheet, _) = sheet.set_creation_limit(None).unwrap();
        assert_eq!(bought(&sheet, stat(Statistic::Reaction)).points_spent(), 3);
    }

    #[test]
    fn after_creation_points_cost_experience_dice() {
        let (sheet, events) = Sheet::new(None).finish_creation().unwrap();
        assert_eq!(events, vec![SheetEvent::CreationFinished { points_spent: 0 }]);
        let settings = Settings { experience_dice_per_point: 2, ..Settings::default() };
        assert_eq!(
            err(sheet.buy(&settings, &stat(Statistic::Observation))),
            "experience_dice: 1 point(s) cost 2 experience dice; the pool holds 0"
        );
        let sheet = Sheet { experience_dice: 5, ..sheet };
        let (sheet, events) = sheet.buy(&settings, &stat(Statistic::Observation)).unwrap();
        assert_eq!((sheet.experience_dice, sheet.statistic(Statistic::Observation)), (3, 11));
        assert!(matches!(events[0], SheetEvent::Bought { points: 1, experience_dice: 2, .. }));
        // A free skill inside a started group of five costs nothing.
        let (sheet, _) = sheet.buy(&settings, &free("Cooking", 7)).unwrap();
        let (sheet, _) = sheet.buy(&settings, &free("Singing", 7)).unwrap();
        assert_eq!(sheet.experience_dice, 1);
        assert!(err(sheet.take_back(Rating::Statistic { statistic: Statistic::Observation })).starts_with("stage:"));
        assert!(err(sheet.finish_creation()).starts_with("stage:"));
    }

    #[test]
    fn resources_have_a_current_value_below_a_maximum_that_follows_the_statistic() {
        let sheet = Sheet::new(None);
        assert_eq!((sheet.current(Resource::HitPoints), sheet.maximum(Resource::HitPoints)), (10, 10));
        let (hurt, events) = sheet.set_resource(Resource::HitPoints, 4).unwrap();
        assert_eq!(events, vec![SheetEvent::ResourceSet { resource: Resource::HitPoints, before: 10, after: 4 }]);
        assert_eq!(err(hurt.set_resource(Resource::HitPoints, 11)), "current: 11 is above the maximum of 10");
        let (below, _) = hurt.set_resource(Resource::HitPoints, -3).unwrap();
        assert_eq!(below.current(Resource::HitPoints), -3);
        let tougher = bought(&hurt, stat(Statistic::HitPoints));
        assert_eq!((tougher.current(Resource::HitPoints), tougher.maximum(Resource::HitPoints)), (5, 11));
    }

    #[test]
    fn results_land_on_their_target() {
        let (me, other) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let results = [
            ResourceResult { target: me, resource: Resource::HitPoints, amount: 6 },
            ResourceResult { target: other, resource: Resource::HitPoints, amount: 9 },
            ResourceResult { target: me, resource: Resource::HitPoints, amount: 6 },
        ];
        let (after, events) = Sheet::new(None).apply_results(me, &results).unwrap();
        assert_eq!(after.current(Resource::HitPoints), -2);
        assert_eq!(
            events,
            vec![
                SheetEvent::ResultApplied { resource: Resource::HitPoints, amount: 6, before: 10, after: 4 },
                SheetEvent::ResultApplied { resource: Resource::HitPoints, amount: 6, before: 4, after: -2 },
            ]
        );
        let huge = [ResourceResult { target: me, resource: Resource::Power, amount: MAX_LOSS + 1 }];
        assert!(err(Sheet::new(None).apply_results(me, &huge)).starts_with("results[0].amount:"));
    }

    #[test]
    fn residual_modifiers_add_up_until_removed_or_until_what_they_last_for_ends() {
        let sheet = Sheet::new(None);
        let (sheet, events) = sheet.add_modifier(" Bonus: the lock ", 1, Lasts::Session).unwrap();
        assert_eq!(
            events,
            vec![SheetEvent::ModifierAdded { text: "Bonus: the lock".into(), value: 1, lasts: Lasts::Session }]
        );
        let (sheet, _) = sheet.add_modifier("Dazed", -2, Lasts::MechanicalPlay).unwrap();
        let (sheet, _) = sheet.add_modifier("Blessed", 3, Lasts::UntilRemoved).unwrap();
        assert_eq!(sheet.temporary_modifier(), 2);
        let (fight_over, events) = sheet.end_modifiers(Lasts::MechanicalPlay);
        assert_eq!(events.len(), 1);
        assert_eq!(fight_over.temporary_modifier(), 4);
        let (removed, _) = fight_over.remove_modifier(1).unwrap();
        assert_eq!(removed.modifiers.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(), ["Bonus: the lock"]);
        assert_eq!(err(removed.remove_modifier(5)), "index: there is no residual modifier 5 on the sheet");
        assert_eq!(err(sheet.add_modifier("Huge", 100, Lasts::Session)), "value: 100 is out of range: -99 to 99");
        assert!(err(sheet.add_modifier(" ", 1, Lasts::Session)).starts_with("text:"));
        let mut bad = sheet.clone();
        bad.modifiers[0].value = -120;
        assert_eq!(bad.problems("$")[0].path, "$.modifiers[0].value");
    }

    #[test]
    fn the_description_and_the_npc_flag_are_the_sheet_s() {
        let (sheet, _) = Sheet::new(None).set_description(" A retired smuggler, loyal to the crew. ").unwrap();
        assert_eq!(sheet.description, "A retired smuggler, loyal to the crew.");
        let (npc, events) = sheet.set_npc(true);
        assert_eq!((npc.npc, events), (true, vec![SheetEvent::NpcSet { npc: true }]));
        let json = serde_json::to_string(&Sheet::new(None)).unwrap();
        assert!(!json.contains("npc") && !json.contains("description"), "an older sheet's shape: {json}");
        assert!(err(sheet.set_description(&"x".repeat(MAX_TEXT + 1))).starts_with("description:"));
    }

    #[test]
    fn a_sheet_round_trips_through_json_and_its_problems_are_named() {
        let sheet = bought(&Sheet::new(Some(10)), skill("Climbing", Difficulty::Easy));
        let (sheet, _) = sheet.add_disadvantage("Can't Cook", "food", 0).unwrap();
        let json = serde_json::to_string(&sheet).unwrap();
        assert_eq!(serde_json::from_str::<Sheet>(&json).unwrap(), sheet);
        assert!(serde_json::from_str::<Sheet>(&json.replacen('{', r#"{"luck":1,"#, 1)).is_err());
        assert_eq!(sheet.problems("$"), vec![]);
        let mut bad = sheet.clone();
        bad.skills[0].points = 0;
        bad.qualities[0].modifier = 2;
        bad.statistics.strength = 1;
        bad.creation_limit = Some(0);
        let paths: Vec<String> = bad.problems("$").into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["$.skills[0].points", "$.qualities[0].modifier", "$.creation_limit"]);
    }

    #[test]
    fn numbers_at_the_ends_of_their_types_are_problems_not_panics() {
        let sheet = bought(&Sheet::new(Some(10)), skill("Climbing", Difficulty::Easy));
        let (sheet, _) = sheet.add_disadvantage("Can't Cook", "food", 0).unwrap();
        let mut bad = sheet.clone();
        bad.qualities[0].modifier = i32::MIN;
        bad.skills[0].points = u32::MAX;
        bad.statistics.strength = u32::MAX;
        let paths: Vec<String> = bad.problems("$").into_iter().map(|p| p.path).collect();
        assert_eq!(
            paths,
            ["$.statistics.strength", "$.skills[0].points", "$.qualities[0].modifier", "$.creation_limit"]
        );
        assert_eq!(bad.points_spent(), u32::MAX, "saturates");
    }

    #[test]
    fn notes_and_situations_are_free_text_of_at_most_2000_characters() {
        let sheet = bought(&Sheet::new(None), skill("Climbing", Difficulty::Easy));
        let (mut sheet, _) = sheet.add_disadvantage("Can't Cook", "food", 0).unwrap();
        sheet.qualities[0].situation = "x".repeat(2001);
        sheet.special_abilities.push(SpecialAbility {
            name: "Spark".into(),
            kind: AbilityKind::Spell,
            difficulty: Difficulty::Easy,
            points: 1,
            notes: "a\u{0}b".into(),
        });
        let found: Vec<(String, String)> = sheet.problems("$").into_iter().map(|p| (p.path, p.message)).collect();
        assert_eq!(
            found,
            [
                ("$.special_abilities[0].notes".to_owned(), "must not contain the NUL character (\\u0000)".to_owned()),
                ("$.qualities[0].situation".to_owned(), "is 2001 characters long; the limit is 2000".to_owned()),
            ]
        );
    }

    fn any_purchase() -> impl Strategy<Value = Purchase> {
        prop_oneof![
            (0usize..6).prop_map(|i| stat(Statistic::ALL[i])),
            (0u8..20, -5i32..15).prop_map(|(n, l)| free(&format!("free {n}"), l)),
            (0usize..4).prop_map(|index| Purchase::FreeSkill { index }),
            (0u8..20, 0usize..8).prop_map(|(n, d)| skill(&format!("skill {n}"), Difficulty::ALL[d])),
            (0usize..4).prop_map(|index| Purchase::Skill { index }),
            (0u8..3, 0i32..3, 0u32..3).prop_map(|(n, modifier, points)| Purchase::NewAdvantage {
                name: format!("adv {n}"),
                situation: String::new(),
                modifier,
                points
            }),
        ]
    }

    proptest! {
        /// Whatever is bought, taken back, finished or removed, the resources' losses change
        /// only through a roll's result or an explicit resource edit; every refused move
        /// leaves the sheet as it was; the points spent always match what the sheet holds.
        #[test]
        fn resources_change_only_by_a_result_or_an_explicit_edit(
            limit in proptest::option::of(0u32..30),
            moves in proptest::collection::vec((0u8..8, any_purchase(), 0usize..4, -20i32..12, 0u32..25), 1..40),
        ) {
            let me = Uuid::from_u128(7);
            let settings = Settings::default();
            let mut sheet = Sheet { experience_dice: 10, ..Sheet::new(limit) };
            for (kind, purchase, index, value, amount) in moves {
                let before = sheet.clone();
                let (explicit, result) = match kind {
                    0 | 1 => (false, sheet.buy(&settings, &purchase)),
                    2 => (false, sheet.take_back(Rating::Skill { index })),
                    3 => (false, sheet.finish_creation()),
                    4 => (false, sheet.remove_quality(index)),
                    5 => (true, sheet.set_resource(Resource::ALL[index % 2], value)),
                    6 => (true, sheet.expend_power(index, amount)),
                    _ => (true, sheet.apply_results(me, &[ResourceResult { target: me, resource: Resource::ALL[index % 2], amount }])),
                };
                match result {
                    Ok((next, _)) => sheet = next,
                    Err(_) => prop_assert_eq!(&sheet, &before, "a refused move changes nothing"),
                }
                if !explicit {
                    prop_assert_eq!(sheet.lost, before.lost);
                }
                prop_assert_eq!(sheet.problems("$"), vec![]);
                for resource in Resource::ALL {
                    prop_assert!(sheet.current(resource) <= sheet.maximum(resource));
                }
            }
        }
    }
}
