//! Mezzo players and story elements (RULES.md §3.1, the arc's end of §3.5): a player's
//! influence, roles and claims; an element's traits, edge slots, adversity, adversity debt,
//! momentum and Plot Protection. Every move takes the player or element by reference and
//! returns the new value and what happened, or an [`Error::Invalid`] naming the field that
//! changes nothing.
//!
//! What the source fixes, and these moves enforce:
//! - A player starts each arc with 3 influence ([`start_arc`]); a point of influence is a
//!   vote. One free vote per conflict; an Actor casts 3 on matters of a character they
//!   claimed and none elsewhere ([`free_votes`]).
//! - Claiming ([`claim`]): only an Actor, only a character no one else holds. The claim
//!   seals the character's resources (only the claimer fills its edge slots or spends its
//!   adversity and momentum), gives it Plot Protection, and, the first time, 2 edge slots.
//!   A player in the Actor role cannot leave it while a character they claimed is active in
//!   the scene.
//! - Edge slots: 4 for the first action check, 4 for the first challenge, 2 for the first
//!   claim, each once per element; 1 per arc as a memorable element, and each player has one
//!   undisputable award per arc ([`award_edge_slots`], [`award_memorable`]). An edge bought
//!   with a slot fills a free one and frees it when lost; without a free slot it is refused.
//! - Adversity: spends cost Overcome Flaws 2, Fortune's Favor 2, Sudden Surge 3, Unexpected
//!   Edge 5 (in a challenge the element has no fitting trait for; the edge takes no slot).
//!   An element holding at least 1 adversity may pay a shortfall as adversity debt; gained
//!   adversity pays the debt first ([`gain_adversity`]); Ill Fated and Tempting Target pay it
//!   off too. Adversity and debt end with the arc.
//! - Momentum: a challenger gains at most 5 momentum-boost awards per challenge
//!   ([`MAX_MOMENTUM_AWARDS`]); a trump draws at most 4 from its goal; boons cost 1 for one
//!   use plus 1 per 2 further uses, 3 for one challenge, 5 for the rest of the arc; a
//!   defeated challenger turns 2 momentum into 1 adversity. Momentum ends with the challenge
//!   and the arc ([`challenge_ended`], [`end_arc`]).
//! - Plot Protection comes from a claim, from taking part in a challenge (Protected Event),
//!   from the edge bought with a slot (one instance at most), or lent by a Heroic Sacrifice;
//!   sacrificing it (Final Counter, Heroic Sacrifice) removes it until the challenge is over.
//!
//! Rulings where the source is silent:
//! - Claims outlive the Actor role: a player may leave the role (when none of their claimed
//!   characters is active in the scene) and keep their claims, and the role is entered again
//!   as soon as one of them is active ([`Player::is_actor`]). Out of the role a player casts
//!   the usual 1 free vote everywhere, their characters' matters included; Creative Control's
//!   3 votes are the Actor's. Sealed Resources and the claim's Plot Protection last as long as
//!   the claim.
//! - The claim's Plot Protection lapses with the claim; an edge bought with a slot stays.
//!   Only one Plot Protection *trait* is allowed; the claim's or a challenge's protection does
//!   not stop an element buying the edge.
//! - Edge slots come only from the four awards, so an element's slots are counted from its
//!   awards ([`Element::edge_slots`]) and cannot drift from them.
//! - Only a trait bought with an edge slot fills one: an edge, or an extra "purchased as an
//!   edge". The free extra of an Ability or Resistance, unexpected edges, boons and traits
//!   granted by play (flaws, modifiers, perks, a Transient Flaw's Favored Flaw) take none.
//! - A trait's kind, template and way of coming ([`Via`]) cannot be edited: remove it and add
//!   it again. Editing a trait in a slot counts as filling the slot (sealed by a claim).
//! - Removing a trait removes its extras and modifiers, and any trait that selects it or was
//!   granted by it (a Dulled Edge on a lost edge, a Favored Flaw on a lost flaw), except an
//!   Impaired Ability, which does not need its owner to have the ability: it just forgets it.
//! - Adversity debt may pay only the four benefits of the Adversity Point (Overcome Flaws,
//!   Fortune's Favor, Sudden Surge, Unexpected Edge); a plot hook, a Background's phantom
//!   edge or an investment must be paid in full. Each benefit may be bought more than once.
//! - Every element kind may hold adversity and momentum: obstacles and hazards are
//!   challengers too ("Unusual Characters" stretches character rules to factions).
//! - Momentum-boost awards go only to an element in a challenge. Ruin's momentum goes only
//!   to a goal. A one-challenge boon lasts through the next challenge the element joins; a
//!   boon of uses loses a use each time it is used and goes at 0; a one-arc boon goes at the
//!   arc's end.
//! - An arc ends at the end of a scene: an element still in a challenge cannot end it.
//!   The arc's end also ends the scene (phantom edges, lent protection go).
//! - A Favored Flaw that a Transient Flaw grants at a challenge's end gets an id derived
//!   from the modifier's ([`favored_flaw_id`]), so the rule stays pure and the grant is the
//!   same each time it is computed.
//! - The source's set-up choices that name other things in words (the type of action of an
//!   Ability, the element an Asset selects) are the trait's text; a Signature Flaw's flaw and
//!   Favored Flaw, and an Asset Investment's lent edge, are added by the table as granted
//!   traits.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::name_problem;
use crate::Problem;

/// Influence each player holds at the start of an arc.
pub const START_INFLUENCE: u32 = 3;
/// A player's free votes in a conflict.
pub const FREE_VOTES: u32 = 1;
/// An Actor's free votes on matters of a character they claimed (Creative Control).
pub const CREATIVE_CONTROL_VOTES: u32 = 3;
/// Momentum-boost awards a challenger may gain in one challenge.
pub const MAX_MOMENTUM_AWARDS: u32 = 5;
/// Momentum a trump may draw from its goal when it triggers.
pub const MAX_TRUMP_TRANSFER: u32 = 4;
/// The longest text of a trait property, in characters.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// The most traits an element holds (with its extras and modifiers).
pub const MAX_TRAITS: usize = 200;
/// The most memorable-element awards an element keeps (one an arc at most).
pub const MAX_MEMORABLE_ARCS: usize = 1_000;

// ---------------------------------------------------------------------------------------
// Players

/// A player role (a trait of the player). The source defines only the Actor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// May claim characters; casts free votes only on their matters (Creative Control).
    Actor,
}

/// A player at a Mezzo table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub id: Uuid,
    pub name: String,
    pub influence: u32,
    /// Roles taken, each at most once.
    #[serde(default)]
    pub roles: Vec<Role>,
    /// The characters this player claimed, in the order claimed.
    #[serde(default)]
    pub claimed: Vec<Uuid>,
    /// The arc in which the player gave their undisputable memorable-element award.
    #[serde(default)]
    pub free_award_arc: Option<u32>,
}

impl Player {
    /// A player starting an arc: 3 influence, no role, no claim.
    pub fn new(id: Uuid, name: &str) -> Result<Player> {
        Ok(Player {
            id,
            name: clean_name("name", name)?,
            influence: START_INFLUENCE,
            roles: Vec::new(),
            claimed: Vec::new(),
            free_award_arc: None,
        })
    }

    pub fn has_role(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    /// In the Actor role: taken, or entered because a claimed character is active in the scene.
    pub fn is_actor(&self, active_in_scene: &[Uuid]) -> bool {
        self.has_role(Role::Actor) || self.claimed.iter().any(|c| active_in_scene.contains(c))
    }
}

/// What a move on players or elements did, with the values before and after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum ElementEvent {
    RoleTaken {
        player: Uuid,
        role: Role,
    },
    RoleLeft {
        player: Uuid,
        role: Role,
    },
    InfluenceSpent {
        player: Uuid,
        points: u32,
        before: u32,
        after: u32,
    },
    InfluenceGained {
        player: Uuid,
        points: u32,
        before: u32,
        after: u32,
    },
    /// A new arc: influence back to 3.
    InfluenceReset {
        player: Uuid,
        before: u32,
        after: u32,
    },
    Claimed {
        player: Uuid,
        element: Uuid,
    },
    Unclaimed {
        player: Uuid,
        element: Uuid,
    },
    /// The player's undisputable memorable-element award of the arc.
    FreeAwardUsed {
        player: Uuid,
        arc: u32,
    },
    TraitAdded {
        element: Uuid,
        trait_id: Uuid,
        name: String,
        kind: TraitKind,
        via: Via,
    },
    TraitChanged {
        element: Uuid,
        trait_id: Uuid,
    },
    TraitUsed {
        element: Uuid,
        trait_id: Uuid,
        uses_left: Option<u32>,
    },
    TraitRemoved {
        element: Uuid,
        trait_id: Uuid,
        name: String,
        reason: Removal,
        /// It filled an edge slot, which is free again.
        freed_slot: bool,
    },
    EdgeSlotsAwarded {
        element: Uuid,
        award: SlotAward,
        slots: u32,
        before: u32,
        after: u32,
    },
    /// Gained adversity: `debt_paid` of the points went to the debt, the rest to adversity.
    AdversityGained {
        element: Uuid,
        points: u32,
        debt_paid: u32,
        before: u32,
        after: u32,
        debt_before: u32,
        debt_after: u32,
    },
    /// A benefit bought: `from_adversity` paid from adversity, `debt_taken` as debt.
    AdversitySpent {
        element: Uuid,
        benefit: Benefit,
        cost: u32,
        from_adversity: u32,
        debt_taken: u32,
        before: u32,
        after: u32,
        debt_before: u32,
        debt_after: u32,
    },
    DebtPaidOff {
        element: Uuid,
        points: u32,
        how: DebtPayoff,
        before: u32,
        after: u32,
    },
    MomentumGained {
        element: Uuid,
        points: u32,
        source: MomentumSource,
        before: u32,
        after: u32,
    },
    MomentumSpent {
        element: Uuid,
        on: MomentumUse,
        cost: u32,
        before: u32,
        after: u32,
    },
    PlotProtectionSacrificed {
        element: Uuid,
        how: Sacrifice,
    },
    PlotProtectionLent {
        from: Uuid,
        to: Uuid,
    },
    JoinedChallenge {
        element: Uuid,
    },
    LeftChallenge {
        element: Uuid,
    },
    /// The challenge is over: unspent momentum is lost, the award count starts again.
    ChallengeEnded {
        element: Uuid,
        momentum_lost: u32,
    },
    SceneEnded {
        element: Uuid,
    },
    /// The arc is over: adversity, debt and momentum are lost.
    ArcEnded {
        element: Uuid,
        adversity_lost: u32,
        debt_lost: u32,
        momentum_lost: u32,
    },
}

/// The free votes `player` casts in a conflict over the actions, details or history of the
/// character `about` (None: any other conflict). `active_in_scene` are the characters active
/// in the current scene (an Actor role is entered while one of the player's is).
pub fn free_votes(player: &Player, about: Option<Uuid>, active_in_scene: &[Uuid]) -> u32 {
    if !player.is_actor(active_in_scene) {
        return FREE_VOTES;
    }
    match about {
        Some(character) if player.claimed.contains(&character) => CREATIVE_CONTROL_VOTES,
        _ => 0,
    }
}

/// Takes a role.
pub fn take_role(player: &Player, role: Role) -> Result<(Player, Vec<ElementEvent>)> {
    if player.has_role(role) {
        return Err(Error::invalid("role", format!("{} already holds this role", player.name)));
    }
    let mut next = player.clone();
    next.roles.push(role);
    Ok((next, vec![ElementEvent::RoleTaken { player: player.id, role }]))
}

/// Leaves a role. The Actor role cannot be left while a claimed character is active in the
/// scene.
pub fn leave_role(player: &Player, role: Role, active_in_scene: &[Uuid]) -> Result<(Player, Vec<ElementEvent>)> {
    if !player.has_role(role) {
        return Err(Error::invalid("role", format!("{} does not hold this role", player.name)));
    }
    if role == Role::Actor && player.claimed.iter().any(|c| active_in_scene.contains(c)) {
        return Err(Error::invalid(
            "role",
            "a character this player claimed is active in the scene: the Actor role cannot be left until it leaves",
        ));
    }
    let mut next = player.clone();
    next.roles.retain(|&r| r != role);
    Ok((next, vec![ElementEvent::RoleLeft { player: player.id, role }]))
}

/// Spends influence: one vote per point.
pub fn spend_influence(player: &Player, points: u32) -> Result<(Player, Vec<ElementEvent>)> {
    at_least_one("points", points)?;
    if points > player.influence {
        return Err(Error::invalid(
            "points",
            format!("{} holds {} influence, not {points}", player.name, player.influence),
        ));
    }
    let mut next = player.clone();
    next.influence -= points;
    let event =
        ElementEvent::InfluenceSpent { player: player.id, points, before: player.influence, after: next.influence };
    Ok((next, vec![event]))
}

/// Gains influence (a resolved plot hook, a linked seed card).
pub fn gain_influence(player: &Player, points: u32) -> Result<(Player, Vec<ElementEvent>)> {
    at_least_one("points", points)?;
    let mut next = player.clone();
    next.influence = player.influence.checked_add(points).ok_or_else(|| Error::invalid("points", "too many"))?;
    let event =
        ElementEvent::InfluenceGained { player: player.id, points, before: player.influence, after: next.influence };
    Ok((next, vec![event]))
}

/// A new arc: influence does not carry over; every player starts with 3.
pub fn start_arc(player: &Player) -> (Player, Vec<ElementEvent>) {
    let mut next = player.clone();
    next.influence = START_INFLUENCE;
    let event = ElementEvent::InfluenceReset { player: player.id, before: player.influence, after: START_INFLUENCE };
    (next, vec![event])
}

/// An Actor claims a character no other player holds (the table settled any rival claim as a
/// conflict first). The first claim of a character gives it 2 edge slots.
pub fn claim(player: &Player, element: &Element) -> Result<(Player, Element, Vec<ElementEvent>)> {
    if !player.has_role(Role::Actor) {
        return Err(Error::invalid("player", format!("{} must take the Actor role to claim a character", player.name)));
    }
    if element.kind != ElementKind::Character {
        return Err(Error::invalid(
            "element",
            format!("{} is not a character: only characters are claimed", element.name),
        ));
    }
    match element.claimed_by {
        Some(holder) if holder == player.id => {
            return Err(Error::invalid("element", format!("{} already holds {}", player.name, element.name)));
        }
        Some(_) => {
            return Err(Error::invalid("element", format!("{} is claimed by another player", element.name)));
        }
        None => {}
    }
    let mut next_player = player.clone();
    next_player.claimed.push(element.id);
    let mut next = element.clone();
    next.claimed_by = Some(player.id);
    let mut events = vec![ElementEvent::Claimed { player: player.id, element: element.id }];
    if !element.awards.has(SlotAward::FirstClaim) {
        let (awarded, more) = award_edge_slots(&next, SlotAward::FirstClaim)?;
        next = awarded;
        events.extend(more);
    }
    Ok((next_player, next, events))
}

/// The claimer surrenders a claim (at any time).
pub fn unclaim(player: &Player, element: &Element) -> Result<(Player, Element, Vec<ElementEvent>)> {
    if element.claimed_by != Some(player.id) {
        return Err(Error::invalid("element", format!("{} does not hold {}", player.name, element.name)));
    }
    let mut next_player = player.clone();
    next_player.claimed.retain(|&c| c != element.id);
    let mut next = element.clone();
    next.claimed_by = None;
    Ok((next_player, next, vec![ElementEvent::Unclaimed { player: player.id, element: element.id }]))
}

// ---------------------------------------------------------------------------------------
// Elements and traits

/// What a story element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ElementKind {
    Character,
    Object,
    Location,
    Faction,
    Goal,
}

/// The trait types an element's traits have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraitKind {
    /// Makes its owner more effective.
    Edge,
    /// Makes its owner less effective.
    Flaw,
    /// Changes how another trait (its target) works.
    Modifier,
    /// A modifier made for one kind of trait (its associated trait).
    Extra,
}

/// The named traits and templates of the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Template {
    // Edge templates.
    Ability,
    Asset,
    Attractant,
    Background,
    EmpoweringGift,
    Repellent,
    Resistance,
    SignatureFlaw,
    FavoredFlaw,
    // Edges.
    PlotProtection,
    /// Goals only, never bought with an edge slot.
    Trump,
    // Flaw templates and flaws.
    DulledEdge,
    ImpairedAbility,
    Vulnerability,
    Restraint,
    // Modifiers.
    OneShot,
    TransientFlaw,
    Wound,
    TreacherousEdge,
    PhantomEdge,
    // Extras of Ability and Resistance.
    Aptitude,
    CrossTraining,
    ExtraordinaryAbility,
    Focused,
    Forte,
    Specialty,
    Versatile,
    Fortified,
    // Extras of Asset, Empowering Gift, Favored Flaw.
    AssetInvestment,
    EmpowerSelf,
    LingeringGift,
    SharedGift,
    EmpoweringFlaw,
    // Extras of wounds.
    CorrosiveWound,
    TargetedWound,
    PervasiveWound,
    ViciousWound,
}

impl Template {
    /// The trait type a trait made from this template has.
    pub fn kind(self) -> TraitKind {
        use Template::*;
        match self {
            Ability | Asset | Attractant | Background | EmpoweringGift | Repellent | Resistance | SignatureFlaw
            | FavoredFlaw | PlotProtection | Trump => TraitKind::Edge,
            DulledEdge | ImpairedAbility | Vulnerability | Restraint => TraitKind::Flaw,
            OneShot | TransientFlaw | Wound | TreacherousEdge | PhantomEdge => TraitKind::Modifier,
            Aptitude | CrossTraining | ExtraordinaryAbility | Focused | Forte | Specialty | Versatile | Fortified
            | AssetInvestment | EmpowerSelf | LingeringGift | SharedGift | EmpoweringFlaw | CorrosiveWound
            | TargetedWound | PervasiveWound | ViciousWound => TraitKind::Extra,
        }
    }

    /// The source's name, for messages.
    pub fn word(self) -> &'static str {
        use Template::*;
        match self {
            Ability => "Ability",
            Asset => "Asset",
            Attractant => "Attractant",
            Background => "Background",
            EmpoweringGift => "Empowering Gift",
            Repellent => "Repellent",
            Resistance => "Resistance",
            SignatureFlaw => "Signature Flaw",
            FavoredFlaw => "Favored Flaw",
            PlotProtection => "Plot Protection",
            Trump => "Trump",
            DulledEdge => "Dulled Edge",
            ImpairedAbility => "Impaired Ability",
            Vulnerability => "Vulnerability",
            Restraint => "Restraint",
            OneShot => "One-Shot",
            TransientFlaw => "Transient Flaw",
            Wound => "Wound",
            TreacherousEdge => "Treacherous Edge",
            PhantomEdge => "Phantom Edge",
            Aptitude => "Aptitude",
            CrossTraining => "Cross Training",
            ExtraordinaryAbility => "Extraordinary Ability",
            Focused => "Focused",
            Forte => "Forte",
            Specialty => "Specialty",
            Versatile => "Versatile",
            Fortified => "Fortified",
            AssetInvestment => "Asset Investment",
            EmpowerSelf => "Empower Self",
            LingeringGift => "Lingering Gift",
            SharedGift => "Shared Gift",
            EmpoweringFlaw => "Empowering Flaw",
            CorrosiveWound => "Corrosive Wound",
            TargetedWound => "Targeted Wound",
            PervasiveWound => "Pervasive Wound",
            ViciousWound => "Vicious Wound",
        }
    }

    /// For an extra: the templates of the traits it may be attached to (empty for the wound
    /// extras, which attach to a flaw with the Wound modifier).
    fn extra_for(self) -> &'static [Template] {
        use Template::*;
        match self {
            Aptitude | Focused => &[Ability, Resistance],
            CrossTraining | ExtraordinaryAbility | Forte | Specialty | Versatile => &[Ability],
            Fortified => &[Resistance],
            AssetInvestment => &[Asset],
            EmpowerSelf | LingeringGift | SharedGift => &[EmpoweringGift],
            EmpoweringFlaw => &[FavoredFlaw],
            _ => &[],
        }
    }

    fn is_wound_extra(self) -> bool {
        matches!(
            self,
            Template::CorrosiveWound | Template::TargetedWound | Template::PervasiveWound | Template::ViciousWound
        )
    }
}

/// A trait's properties, in the source's words and the table's (each may be empty).
/// Its extras are the traits attached to it ([`Element::extras_of`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Properties {
    #[serde(default)]
    pub requirements: String,
    #[serde(default)]
    pub restrictions: String,
    #[serde(default)]
    pub owner: String,
    #[serde(default)]
    pub target: String,
    /// A template's choices: the action type, the selected element or situation…
    #[serde(default)]
    pub set_up: String,
    #[serde(default)]
    pub effects: String,
    #[serde(default)]
    pub details: String,
}

/// How a trait came to its element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Via {
    /// Bought with an edge slot, which it fills.
    EdgeSlot,
    /// The free extra an Ability or Resistance comes with.
    FreeExtra,
    /// Bought with 5 adversity; takes no slot.
    UnexpectedEdge,
    /// Bought with momentum after a victory; takes no slot.
    Boon,
    /// Given by play: a flaw inflicted, a modifier, a perk's trait, a granted edge.
    Granted,
}

/// How long a trait lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lasts {
    /// Until lost.
    #[default]
    Lasting,
    /// Until the end of the scene (a phantom edge).
    Scene,
    /// Through the next challenge the element joins (a one-challenge boon).
    NextChallenge,
    /// Until the end of the current challenge.
    Challenge,
    /// Until the end of the arc (a one-arc boon).
    Arc,
}

/// A trait of a story element.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trait {
    pub id: Uuid,
    pub kind: TraitKind,
    /// The source's template or named trait it is made from; None for the table's own.
    #[serde(default)]
    pub template: Option<Template>,
    pub name: String,
    #[serde(default)]
    pub properties: Properties,
    /// For an extra, its associated trait; for a modifier, the trait it modifies; for a
    /// Dulled Edge, the edge it dulls; for a Favored Flaw, the flaw it favours; for an
    /// Impaired Ability, the ability it impairs (if the owner has it).
    #[serde(default)]
    pub target_trait: Option<Uuid>,
    /// The trait that granted it and whose loss takes it away (a Transient Flaw's Favored Flaw).
    #[serde(default)]
    pub granted_by: Option<Uuid>,
    pub via: Via,
    #[serde(default)]
    pub lasts: Lasts,
    /// Uses left, for a trait of limited uses (a boon of uses); None is unlimited.
    #[serde(default)]
    pub uses_left: Option<u32>,
}

impl Trait {
    /// A lasting trait with no template, target or limit.
    pub fn new(id: Uuid, kind: TraitKind, name: &str, via: Via) -> Trait {
        Trait {
            id,
            kind,
            template: None,
            name: name.to_owned(),
            properties: Properties::default(),
            target_trait: None,
            granted_by: None,
            via,
            lasts: Lasts::Lasting,
            uses_left: None,
        }
    }

    /// A lasting trait made from `template` (its kind is the template's).
    pub fn from_template(id: Uuid, template: Template, name: &str, via: Via) -> Trait {
        Trait { template: Some(template), ..Trait::new(id, template.kind(), name, via) }
    }

    /// The same trait attached to (or selecting) `target`.
    pub fn on(self, target: Uuid) -> Trait {
        Trait { target_trait: Some(target), ..self }
    }

    pub fn fills_slot(&self) -> bool {
        self.via == Via::EdgeSlot
    }
}

/// The one-time edge-slot awards, and the memorable-element award of an arc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SlotAward {
    /// 4 slots, the first time the element takes part in an action check.
    FirstActionCheck,
    /// 4 slots, the first time it takes part in a challenge.
    FirstChallenge,
    /// 2 slots, the first time a player claims it.
    FirstClaim,
    /// 1 slot at the end of an arc in which it was memorable.
    Memorable { arc: u32 },
}

impl SlotAward {
    pub fn slots(self) -> u32 {
        match self {
            SlotAward::FirstActionCheck | SlotAward::FirstChallenge => 4,
            SlotAward::FirstClaim => 2,
            SlotAward::Memorable { .. } => 1,
        }
    }
}

/// The awards an element has had.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Awards {
    #[serde(default)]
    pub first_action_check: bool,
    #[serde(default)]
    pub first_challenge: bool,
    #[serde(default)]
    pub first_claim: bool,
    /// The arcs in which it was a memorable element, ascending.
    #[serde(default)]
    pub memorable_arcs: Vec<u32>,
}

impl Awards {
    pub fn has(&self, award: SlotAward) -> bool {
        match award {
            SlotAward::FirstActionCheck => self.first_action_check,
            SlotAward::FirstChallenge => self.first_challenge,
            SlotAward::FirstClaim => self.first_claim,
            SlotAward::Memorable { arc } => self.memorable_arcs.contains(&arc),
        }
    }

    /// The edge slots these awards gave.
    pub fn slots(&self) -> u32 {
        let once = [
            (self.first_action_check, SlotAward::FirstActionCheck),
            (self.first_challenge, SlotAward::FirstChallenge),
            (self.first_claim, SlotAward::FirstClaim),
        ];
        once.iter().filter(|(had, _)| *had).map(|(_, a)| a.slots()).sum::<u32>() + self.memorable_arcs.len() as u32
    }
}

/// The state of an element's Plot Protection beyond where it comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotProtection {
    /// Lent by this element's Heroic Sacrifice, until the end of the challenge or scene.
    #[serde(default)]
    pub lent_by: Option<Uuid>,
    /// Sacrificed (Final Counter, Heroic Sacrifice): no protection until the challenge is over.
    #[serde(default)]
    pub sacrificed: bool,
}

/// Where an element's Plot Protection comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtectionSource {
    /// The Plot Protection edge.
    Edge,
    /// A player's claim (Character Protection).
    Claim,
    /// Taking part in a challenge (Protected Event).
    Challenge,
    /// Another element's Heroic Sacrifice.
    Lent,
}

/// A story element: a character, object, location, faction or goal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Element {
    pub id: Uuid,
    pub kind: ElementKind,
    pub name: String,
    #[serde(default)]
    pub traits: Vec<Trait>,
    #[serde(default)]
    pub adversity: u32,
    /// Adversity debt: gained adversity pays it first. Above 0 only while adversity is 0.
    #[serde(default)]
    pub adversity_debt: u32,
    #[serde(default)]
    pub momentum: u32,
    /// Momentum-boost awards gained in the current challenge (at most 5).
    #[serde(default)]
    pub momentum_awards: u32,
    /// Taking part in a challenge now.
    #[serde(default)]
    pub in_challenge: bool,
    #[serde(default)]
    pub plot_protection: PlotProtection,
    /// The player holding its claim (characters only).
    #[serde(default)]
    pub claimed_by: Option<Uuid>,
    #[serde(default)]
    pub awards: Awards,
}

impl Element {
    /// A new element: no traits, slots or resources.
    pub fn new(id: Uuid, kind: ElementKind, name: &str) -> Result<Element> {
        Ok(Element {
            id,
            kind,
            name: clean_name("name", name)?,
            traits: Vec::new(),
            adversity: 0,
            adversity_debt: 0,
            momentum: 0,
            momentum_awards: 0,
            in_challenge: false,
            plot_protection: PlotProtection::default(),
            claimed_by: None,
            awards: Awards::default(),
        })
    }

    pub fn trait_by_id(&self, id: Uuid) -> Option<&Trait> {
        self.traits.iter().find(|t| t.id == id)
    }

    fn find_trait(&self, field: &str, id: Uuid) -> Result<&Trait> {
        self.trait_by_id(id).ok_or_else(|| Error::invalid(field, format!("{} has no trait {id}", self.name)))
    }

    /// Every edge slot it was awarded.
    pub fn edge_slots(&self) -> u32 {
        self.awards.slots()
    }

    /// Slots holding an edge.
    pub fn filled_slots(&self) -> u32 {
        self.traits.iter().filter(|t| t.fills_slot()).count() as u32
    }

    pub fn free_slots(&self) -> u32 {
        self.edge_slots().saturating_sub(self.filled_slots())
    }

    /// The extras attached to trait `id`.
    pub fn extras_of(&self, id: Uuid) -> impl Iterator<Item = &Trait> + '_ {
        self.traits.iter().filter(move |t| t.kind == TraitKind::Extra && t.target_trait == Some(id))
    }

    /// The modifiers of trait `id`.
    pub fn modifiers_of(&self, id: Uuid) -> impl Iterator<Item = &Trait> + '_ {
        self.traits.iter().filter(move |t| t.kind == TraitKind::Modifier && t.target_trait == Some(id))
    }

    fn has_attached(&self, id: Uuid, template: Template) -> bool {
        self.traits.iter().any(|t| t.target_trait == Some(id) && t.template == Some(template))
    }

    /// A flaw with the Wound modifier.
    pub fn is_wound(&self, id: Uuid) -> bool {
        self.trait_by_id(id).is_some_and(|t| t.kind == TraitKind::Flaw)
            && self.modifiers_of(id).any(|m| m.template == Some(Template::Wound))
    }

    /// An edge a Dulled Edge flaw locks down.
    pub fn is_dulled(&self, id: Uuid) -> bool {
        self.traits.iter().any(|t| t.template == Some(Template::DulledEdge) && t.target_trait == Some(id))
    }

    /// Its Restraint flaws: each locks out the largest die left for its action checks.
    pub fn restraints(&self) -> impl Iterator<Item = &Trait> + '_ {
        self.traits.iter().filter(|t| t.kind == TraitKind::Flaw && t.template == Some(Template::Restraint))
    }

    /// Its trumps (goals only).
    pub fn trumps(&self) -> u32 {
        self.traits.iter().filter(|t| t.template == Some(Template::Trump)).count() as u32
    }

    /// A goal with at least twice as much momentum as trumps cannot be targeted by Ruin.
    pub fn ruin_proof(&self) -> bool {
        self.trumps() > 0 && self.momentum >= 2 * self.trumps()
    }

    /// Where its Plot Protection comes from now (whether or not it was sacrificed).
    pub fn protection_sources(&self) -> Vec<ProtectionSource> {
        let mut sources = Vec::new();
        if self.traits.iter().any(|t| t.template == Some(Template::PlotProtection)) {
            sources.push(ProtectionSource::Edge);
        }
        if self.claimed_by.is_some() {
            sources.push(ProtectionSource::Claim);
        }
        if self.in_challenge {
            sources.push(ProtectionSource::Challenge);
        }
        if self.plot_protection.lent_by.is_some() {
            sources.push(ProtectionSource::Lent);
        }
        sources
    }

    /// Narration cannot take it out of play.
    pub fn has_plot_protection(&self) -> bool {
        !self.plot_protection.sacrificed && !self.protection_sources().is_empty()
    }

    /// Everything wrong with a stored or imported element, each at its path below the
    /// element (`traits[2].target_trait`). Empty for every element these moves make.
    pub fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut problem = |path: String, message: String| problems.push(Problem { path, message });
        if let Some(p) = name_problem(&self.name) {
            problem("name".into(), p);
        }
        if self.adversity_debt > 0 && self.adversity > 0 {
            problem("adversity_debt".into(), "debt is paid before adversity accrues: both cannot be above 0".into());
        }
        if self.momentum_awards > MAX_MOMENTUM_AWARDS {
            problem(
                "momentum_awards".into(),
                format!("at most {MAX_MOMENTUM_AWARDS} momentum-boost awards per challenge"),
            );
        }
        if self.filled_slots() > self.edge_slots() {
            problem(
                "traits".into(),
                format!("{} traits fill edge slots but it has {} slots", self.filled_slots(), self.edge_slots()),
            );
        }
        if self.claimed_by.is_some() && self.kind != ElementKind::Character {
            problem("claimed_by".into(), "only characters are claimed".into());
        }
        if self.awards.memorable_arcs.len() > MAX_MEMORABLE_ARCS {
            problem(
                "awards.memorable_arcs".into(),
                format!("{} awards; an element keeps at most {MAX_MEMORABLE_ARCS}", self.awards.memorable_arcs.len()),
            );
        } else if !self.awards.memorable_arcs.windows(2).all(|w| w[0] < w[1]) {
            problem("awards.memorable_arcs".into(), "each arc at most once, ascending".into());
        }
        let protections = self.traits.iter().filter(|t| t.template == Some(Template::PlotProtection)).count();
        if protections > 1 {
            problem("traits".into(), "only one Plot Protection edge at a time".into());
        }
        if self.traits.len() > MAX_TRAITS {
            problem("traits".into(), format!("{} traits; an element holds at most {MAX_TRAITS}", self.traits.len()));
            return problems;
        }
        let ids: HashSet<Uuid> = self.traits.iter().map(|t| t.id).collect();
        let mut seen = HashSet::new();
        for (i, t) in self.traits.iter().enumerate() {
            if !seen.insert(t.id) {
                problem(format!("traits[{i}].id"), format!("trait {} is listed twice", t.id));
            }
            if let Some(p) = name_problem(&t.name) {
                problem(format!("traits[{i}].name"), p);
            }
            if let Some(template) = t.template {
                if template.kind() != t.kind {
                    problem(format!("traits[{i}].kind"), format!("a {} is not a {:?}", template.word(), t.kind));
                }
                if template == Template::Trump && (self.kind != ElementKind::Goal || t.fills_slot()) {
                    problem(format!("traits[{i}]"), "a trump belongs to a goal and is never bought with a slot".into());
                }
            }
            for (field, reference) in [("target_trait", t.target_trait), ("granted_by", t.granted_by)] {
                if let Some(r) = reference {
                    if r == t.id || !ids.contains(&r) {
                        problem(format!("traits[{i}].{field}"), format!("there is no other trait {r} on this element"));
                    }
                }
            }
            if matches!(t.kind, TraitKind::Extra | TraitKind::Modifier) && t.target_trait.is_none() {
                problem(format!("traits[{i}].target_trait"), "an extra or modifier is attached to a trait".into());
            }
            if t.uses_left == Some(0) {
                problem(format!("traits[{i}].uses_left"), "a trait with no use left is gone".into());
            }
        }
        problems
    }
}

/// Adds a trait. `by` is the player adding it: a claimed element's slots are filled only by
/// its claimer. Unexpected edges and boons come through [`spend_adversity`] and
/// [`spend_momentum`], not here.
pub fn add_trait(element: &Element, new: &Trait, by: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    if matches!(new.via, Via::UnexpectedEdge | Via::Boon) {
        return Err(Error::invalid(
            "via",
            "unexpected edges are bought with adversity and boons with momentum, not added directly",
        ));
    }
    if new.fills_slot() {
        sealed(element, by, "fill its edge slots")?;
    }
    insert_trait(element, new.clone())
}

/// Checks a new trait against the element and its rules, and adds it.
fn insert_trait(element: &Element, mut new: Trait) -> Result<(Element, Vec<ElementEvent>)> {
    new.name = clean_name("name", &new.name)?;
    new.properties = clean_properties(&new.properties)?;
    if element.trait_by_id(new.id).is_some() {
        return Err(Error::invalid("id", format!("{} already has a trait {}", element.name, new.id)));
    }
    if element.traits.len() >= MAX_TRAITS {
        return Err(Error::invalid(
            "id",
            format!("{} holds {MAX_TRAITS} traits, the most an element holds", element.name),
        ));
    }
    check_trait(element, &new)?;
    let mut next = element.clone();
    let event = ElementEvent::TraitAdded {
        element: element.id,
        trait_id: new.id,
        name: new.name.clone(),
        kind: new.kind,
        via: new.via,
    };
    next.traits.push(new);
    Ok((next, vec![event]))
}

/// Every rule a trait must meet on this element (its id and text already checked).
fn check_trait(element: &Element, t: &Trait) -> Result<()> {
    let named = |template: Template| t.template == Some(template);
    if let Some(template) = t.template {
        if template.kind() != t.kind {
            return Err(Error::invalid(
                "kind",
                format!("a {} is a {:?}, not a {:?}", template.word(), template.kind(), t.kind),
            ));
        }
    }
    if t.uses_left == Some(0) {
        return Err(Error::invalid("uses_left", "a trait of limited uses has at least 1"));
    }
    if let Some(g) = t.granted_by {
        element.find_trait("granted_by", g)?;
    }
    match t.via {
        Via::EdgeSlot => {
            if !matches!(t.kind, TraitKind::Edge | TraitKind::Extra) {
                return Err(Error::invalid("via", "only edges (and extras bought as edges) fill edge slots"));
            }
            if named(Template::Trump) {
                return Err(Error::invalid("via", "a trump cannot be bought with an edge slot"));
            }
            if t.lasts != Lasts::Lasting || t.uses_left.is_some() {
                return Err(Error::invalid("lasts", "an edge in a slot lasts until it is lost"));
            }
            if element.free_slots() == 0 {
                return Err(Error::invalid(
                    "via",
                    format!(
                        "{} has no free edge slot ({} of {} filled)",
                        element.name,
                        element.filled_slots(),
                        element.edge_slots()
                    ),
                ));
            }
        }
        Via::FreeExtra => {
            let associated = t.target_trait.and_then(|a| element.trait_by_id(a));
            if t.kind != TraitKind::Extra
                || !associated.is_some_and(|a| matches!(a.template, Some(Template::Ability | Template::Resistance)))
            {
                return Err(Error::invalid("via", "only an extra of an Ability or Resistance comes free"));
            }
            let a = t.target_trait.unwrap_or_default();
            if element.extras_of(a).any(|e| e.via == Via::FreeExtra) {
                return Err(Error::invalid("via", "this trait already has its free extra"));
            }
        }
        Via::UnexpectedEdge | Via::Boon => {
            if t.kind != TraitKind::Edge {
                return Err(Error::invalid("kind", "unexpected edges and boons are edges"));
            }
        }
        Via::Granted => {}
    }
    // Attached traits.
    let target = match t.target_trait {
        Some(id) if id == t.id => return Err(Error::invalid("target_trait", "a trait cannot target itself")),
        Some(id) => Some(element.find_trait("target_trait", id)?),
        None => None,
    };
    match t.kind {
        TraitKind::Extra => {
            let Some(a) = target else {
                return Err(Error::invalid("target_trait", "an extra is attached to its associated trait"));
            };
            if let Some(template) = t.template {
                check_extra(element, template, a)?;
            }
        }
        TraitKind::Modifier => {
            let Some(a) = target else {
                return Err(Error::invalid("target_trait", "a modifier names the trait it modifies"));
            };
            let wanted: &[TraitKind] = match t.template {
                Some(Template::OneShot) => &[TraitKind::Edge, TraitKind::Flaw],
                Some(Template::TransientFlaw | Template::Wound) => &[TraitKind::Flaw],
                Some(Template::TreacherousEdge | Template::PhantomEdge) => &[TraitKind::Edge],
                _ => &[TraitKind::Edge, TraitKind::Flaw, TraitKind::Modifier, TraitKind::Extra],
            };
            if !wanted.contains(&a.kind) {
                return Err(Error::invalid(
                    "target_trait",
                    format!(
                        "{} modifies a trait of kind {wanted:?}, not {:?}",
                        t.template.map_or("this modifier", Template::word),
                        a.kind
                    ),
                ));
            }
            if let Some(template) = t.template {
                if element.has_attached(a.id, template) {
                    return Err(Error::invalid("target_trait", format!("{} already has {}", a.name, template.word())));
                }
            }
        }
        TraitKind::Edge | TraitKind::Flaw => {}
    }
    // The named traits' requirements.
    match t.template {
        Some(Template::PlotProtection)
            if element.traits.iter().any(|u| u.template == Some(Template::PlotProtection)) =>
        {
            return Err(Error::invalid(
                "template",
                format!("{} already has Plot Protection (one at a time)", element.name),
            ));
        }
        Some(Template::Trump) if element.kind != ElementKind::Goal => {
            return Err(Error::invalid("template", "only goals gain trumps"));
        }
        Some(tpl @ (Template::Attractant | Template::Repellent)) => {
            let other = if tpl == Template::Attractant { Template::Repellent } else { Template::Attractant };
            let selected = t.properties.set_up.trim().to_lowercase();
            if element
                .traits
                .iter()
                .any(|u| u.template == Some(other) && u.properties.set_up.trim().to_lowercase() == selected)
            {
                return Err(Error::invalid(
                    "properties.set_up",
                    format!("{} already has a {} for this selection", element.name, other.word()),
                ));
            }
        }
        Some(Template::FavoredFlaw) => {
            if let Some(a) = target {
                if element
                    .traits
                    .iter()
                    .any(|u| u.template == Some(Template::FavoredFlaw) && u.target_trait == Some(a.id))
                {
                    return Err(Error::invalid("target_trait", format!("{} already has a Favored Flaw", a.name)));
                }
            }
        }
        Some(Template::DulledEdge) => {
            let Some(a) = target.filter(|a| a.kind == TraitKind::Edge || a.kind == TraitKind::Extra) else {
                return Err(Error::invalid("target_trait", "a Dulled Edge selects an edge (or an extra) of its owner"));
            };
            let undulled: Vec<&Trait> = element
                .traits
                .iter()
                .filter(|u| u.target_trait == Some(a.id) && u.kind == TraitKind::Extra && !element.is_dulled(u.id))
                .collect();
            if let Some(first) = undulled.first() {
                return Err(Error::invalid(
                    "target_trait",
                    format!(
                        "{} has an extra without a Dulled Edge ({}): the flaw must target it instead",
                        a.name, first.name
                    ),
                ));
            }
            if element.is_dulled(a.id) {
                return Err(Error::invalid("target_trait", format!("{} is already dulled", a.name)));
            }
        }
        Some(Template::ImpairedAbility) if target.is_some_and(|a| a.template != Some(Template::Ability)) => {
            return Err(Error::invalid("target_trait", "an Impaired Ability selects an Ability"));
        }
        _ => {}
    }
    if t.kind == TraitKind::Edge && target.is_some() && !matches!(t.template, Some(Template::FavoredFlaw) | None) {
        return Err(Error::invalid(
            "target_trait",
            format!("a {} does not select a trait", t.template.map_or("", Template::word)),
        ));
    }
    Ok(())
}

/// The requirements of an extra made from `template` attached to `a`.
fn check_extra(element: &Element, template: Template, a: &Trait) -> Result<()> {
    let wrong = |what: &str| Error::invalid("target_trait", format!("{} is an extra of {what}", template.word()));
    if template.is_wound_extra() {
        if !element.is_wound(a.id) {
            return Err(wrong("a wound (a flaw with the Wound modifier)"));
        }
        match template {
            Template::CorrosiveWound if a.template != Some(Template::DulledEdge) => {
                return Err(wrong("a wound made with the Dulled Edge template"));
            }
            Template::TargetedWound if a.template != Some(Template::ImpairedAbility) => {
                return Err(wrong("a wound made with the Impaired Ability template"));
            }
            Template::PervasiveWound if !element.has_attached(a.id, Template::TargetedWound) => {
                return Err(wrong("a wound with the Targeted Wound extra"));
            }
            _ => {}
        }
        return Ok(());
    }
    let allowed = template.extra_for();
    if !a.template.is_some_and(|at| allowed.contains(&at)) {
        let names: Vec<&str> = allowed.iter().map(|t| t.word()).collect();
        return Err(wrong(&format!("an {}", names.join(" or "))));
    }
    let others = element.extras_of(a.id).count();
    match template {
        Template::Focused if element.has_attached(a.id, Template::Focused) => {
            Err(Error::invalid("target_trait", format!("{} already has its one Focused extra", a.name)))
        }
        Template::CrossTraining if !element.has_attached(a.id, Template::Specialty) => {
            Err(Error::invalid("target_trait", format!("Cross Training needs a Specialty extra on {}", a.name)))
        }
        Template::ExtraordinaryAbility if others < 1 => {
            Err(Error::invalid("target_trait", format!("Extraordinary Ability needs another extra on {}", a.name)))
        }
        Template::Specialty if others < 2 => {
            Err(Error::invalid("target_trait", format!("Specialty needs 2 other extras on {}", a.name)))
        }
        _ => Ok(()),
    }
}

/// Edits a trait's name and properties (its kind, template and way of coming stay).
pub fn edit_trait(
    element: &Element,
    trait_id: Uuid,
    name: &str,
    properties: &Properties,
    by: Uuid,
) -> Result<(Element, Vec<ElementEvent>)> {
    let old = element.find_trait("trait", trait_id)?;
    if old.fills_slot() {
        sealed(element, by, "change the edges in its slots")?;
    }
    let mut edited = old.clone();
    edited.name = clean_name("name", name)?;
    edited.properties = clean_properties(properties)?;
    let mut next = element.clone();
    next.traits.retain(|t| t.id != trait_id);
    check_trait(&next, &edited)?;
    next.traits = element.traits.iter().map(|t| if t.id == trait_id { edited.clone() } else { t.clone() }).collect();
    Ok((next, vec![ElementEvent::TraitChanged { element: element.id, trait_id }]))
}

/// Why a trait went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// Lost or removed by the table.
    Removed,
    /// The trait it was attached to, or granted by, went.
    Dependent,
    /// Its last use (One-Shot, a boon of uses).
    UsedUp,
    /// Its time ran out (scene, challenge, arc).
    Expired,
}

/// Removes a trait and everything attached to it; the slots they filled are free again.
pub fn remove_trait(element: &Element, trait_id: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    element.find_trait("trait", trait_id)?;
    Ok(remove_all(element, &[trait_id], Removal::Removed))
}

/// Removes `ids` (with `reason`) and, transitively, their dependents.
fn remove_all(element: &Element, ids: &[Uuid], reason: Removal) -> (Element, Vec<ElementEvent>) {
    let mut gone: Vec<(Uuid, Removal)> = ids.iter().map(|&id| (id, reason)).collect();
    let mut i = 0;
    while i < gone.len() {
        let id = gone[i].0;
        for t in &element.traits {
            let attached = t.target_trait == Some(id) && t.template != Some(Template::ImpairedAbility);
            if (attached || t.granted_by == Some(id)) && !gone.iter().any(|(g, _)| *g == t.id) {
                gone.push((t.id, Removal::Dependent));
            }
        }
        i += 1;
    }
    let mut next = element.clone();
    let mut events = Vec::new();
    for t in &element.traits {
        if let Some((_, why)) = gone.iter().find(|(g, _)| *g == t.id) {
            events.push(ElementEvent::TraitRemoved {
                element: element.id,
                trait_id: t.id,
                name: t.name.clone(),
                reason: *why,
                freed_slot: t.fills_slot(),
            });
        }
    }
    next.traits.retain(|t| !gone.iter().any(|(g, _)| *g == t.id));
    for t in &mut next.traits {
        if t.target_trait.is_some_and(|target| gone.iter().any(|(g, _)| *g == target)) {
            t.target_trait = None; // an Impaired Ability whose ability went
        }
    }
    (next, events)
}

/// A trait was used: a trait of limited uses loses one and goes at 0; a trait with the
/// One-Shot modifier goes. A dulled edge cannot be used.
pub fn use_trait(element: &Element, trait_id: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    let t = element.find_trait("trait", trait_id)?;
    if element.is_dulled(trait_id) {
        return Err(Error::invalid("trait", format!("{} is dulled: it cannot be used until the flaw goes", t.name)));
    }
    let one_shot = element.modifiers_of(trait_id).any(|m| m.template == Some(Template::OneShot));
    let uses_left = t.uses_left.map(|n| n.saturating_sub(1));
    let used = ElementEvent::TraitUsed { element: element.id, trait_id, uses_left };
    if one_shot || uses_left == Some(0) {
        let (next, mut events) = remove_all(element, &[trait_id], Removal::UsedUp);
        events.insert(0, used);
        return Ok((next, events));
    }
    let mut next = element.clone();
    if let Some(t) = next.traits.iter_mut().find(|t| t.id == trait_id) {
        t.uses_left = uses_left;
    }
    Ok((next, vec![used]))
}

// ---------------------------------------------------------------------------------------
// Edge slots

/// Gives one of the one-time awards (first action check, first challenge, first claim).
/// Each comes once per element; a second time is refused. Memorable-element awards go
/// through [`award_memorable`].
pub fn award_edge_slots(element: &Element, award: SlotAward) -> Result<(Element, Vec<ElementEvent>)> {
    if matches!(award, SlotAward::Memorable { .. }) {
        return Err(Error::invalid("award", "a memorable-element award is given by a player at the arc's end"));
    }
    grant(element, award)
}

fn grant(element: &Element, award: SlotAward) -> Result<(Element, Vec<ElementEvent>)> {
    if element.awards.has(award) {
        let what = match award {
            SlotAward::FirstActionCheck => "its first action check's slots".to_string(),
            SlotAward::FirstChallenge => "its first challenge's slots".to_string(),
            SlotAward::FirstClaim => "its first claim's slots".to_string(),
            SlotAward::Memorable { arc } => format!("a memorable-element award in arc {arc}"),
        };
        return Err(Error::invalid("award", format!("{} already had {what}", element.name)));
    }
    let mut next = element.clone();
    match award {
        SlotAward::FirstActionCheck => next.awards.first_action_check = true,
        SlotAward::FirstChallenge => next.awards.first_challenge = true,
        SlotAward::FirstClaim => next.awards.first_claim = true,
        SlotAward::Memorable { .. } if element.awards.memorable_arcs.len() >= MAX_MEMORABLE_ARCS => {
            return Err(Error::invalid(
                "award",
                format!("{} already had {MAX_MEMORABLE_ARCS} memorable-element awards, the most kept", element.name),
            ));
        }
        SlotAward::Memorable { arc } => {
            next.awards.memorable_arcs.push(arc);
            next.awards.memorable_arcs.sort_unstable();
        }
    }
    let event = ElementEvent::EdgeSlotsAwarded {
        element: element.id,
        award,
        slots: award.slots(),
        before: element.edge_slots(),
        after: next.edge_slots(),
    };
    Ok((next, vec![event]))
}

/// At the end of arc `arc`, `player` gives `element` a memorable-element award: 1 edge slot,
/// once per element per arc. `undisputable` uses the player's one undisputable award of the
/// arc; any other award stood up to the table's dispute first.
pub fn award_memorable(
    element: &Element,
    player: &Player,
    arc: u32,
    undisputable: bool,
) -> Result<(Element, Player, Vec<ElementEvent>)> {
    if undisputable && player.free_award_arc == Some(arc) {
        return Err(Error::invalid(
            "undisputable",
            format!("{} already gave their undisputable award of arc {arc}", player.name),
        ));
    }
    let (next, mut events) = grant(element, SlotAward::Memorable { arc })?;
    let mut next_player = player.clone();
    if undisputable {
        next_player.free_award_arc = Some(arc);
        events.push(ElementEvent::FreeAwardUsed { player: player.id, arc });
    }
    Ok((next, next_player, events))
}

// ---------------------------------------------------------------------------------------
// Adversity

/// What adversity buys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AdversitySpend {
    /// 2: ignore the effects of one of its flaws for one action.
    OvercomeFlaws { flaw: Uuid },
    /// 2: one more vote for its current action.
    FortunesFavor,
    /// 3: +1 to its current action's rolled result.
    SuddenSurge,
    /// 5: an edge fitting the challenge, with no slot; only in a challenge for which the
    /// element has no fitting trait (the table confirms it with `no_fitting_trait`).
    UnexpectedEdge { edge: Box<Trait>, no_fitting_trait: bool },
    /// 1: a phantom edge, until the end of the scene, in an action related to `background`.
    Background { background: Uuid, edge: Box<Trait> },
    /// Making a plot hook (2, 4 after the Turning Point) or investing in one.
    PlotHook { points: u32 },
}

/// What was bought with adversity, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Benefit {
    OvercomeFlaws,
    FortunesFavor,
    SuddenSurge,
    UnexpectedEdge,
    Background,
    PlotHook,
}

impl AdversitySpend {
    pub fn benefit(&self) -> Benefit {
        match self {
            AdversitySpend::OvercomeFlaws { .. } => Benefit::OvercomeFlaws,
            AdversitySpend::FortunesFavor => Benefit::FortunesFavor,
            AdversitySpend::SuddenSurge => Benefit::SuddenSurge,
            AdversitySpend::UnexpectedEdge { .. } => Benefit::UnexpectedEdge,
            AdversitySpend::Background { .. } => Benefit::Background,
            AdversitySpend::PlotHook { .. } => Benefit::PlotHook,
        }
    }

    /// Its cost in adversity.
    pub fn cost(&self) -> u32 {
        match self {
            AdversitySpend::OvercomeFlaws { .. } | AdversitySpend::FortunesFavor => 2,
            AdversitySpend::SuddenSurge => 3,
            AdversitySpend::UnexpectedEdge { .. } => 5,
            AdversitySpend::Background { .. } => 1,
            AdversitySpend::PlotHook { points } => *points,
        }
    }

    /// A shortfall may be paid as adversity debt (the Adversity Point's four benefits).
    pub fn debt_allowed(&self) -> bool {
        matches!(
            self,
            AdversitySpend::OvercomeFlaws { .. }
                | AdversitySpend::FortunesFavor
                | AdversitySpend::SuddenSurge
                | AdversitySpend::UnexpectedEdge { .. }
        )
    }
}

/// Gains adversity; while there is debt, each point pays a point of debt instead.
pub fn gain_adversity(element: &Element, points: u32) -> Result<(Element, Vec<ElementEvent>)> {
    at_least_one("points", points)?;
    let mut next = element.clone();
    let debt_paid = points.min(element.adversity_debt);
    next.adversity_debt -= debt_paid;
    next.adversity =
        element.adversity.checked_add(points - debt_paid).ok_or_else(|| Error::invalid("points", "too many"))?;
    let event = ElementEvent::AdversityGained {
        element: element.id,
        points,
        debt_paid,
        before: element.adversity,
        after: next.adversity,
        debt_before: element.adversity_debt,
        debt_after: next.adversity_debt,
    };
    Ok((next, vec![event]))
}

/// Spends adversity on `spend`, by player `by` (a claimed element's adversity is its
/// claimer's to spend). With too little adversity, `allow_debt` pays the shortfall as debt,
/// provided the element holds at least 1 adversity and the benefit allows debt.
pub fn spend_adversity(
    element: &Element,
    spend: &AdversitySpend,
    by: Uuid,
    allow_debt: bool,
) -> Result<(Element, Vec<ElementEvent>)> {
    sealed(element, by, "spend its adversity")?;
    let cost = spend.cost();
    at_least_one("points", cost)?;
    let shortfall = cost.saturating_sub(element.adversity);
    if shortfall > 0 {
        let why = if element.adversity == 0 {
            "debt can only cover the rest when at least 1 adversity is held"
        } else if !spend.debt_allowed() {
            "this is paid in full: debt covers only Overcome Flaws, Fortune's Favor, Sudden Surge and Unexpected Edge"
        } else if !allow_debt {
            "the shortfall may be taken as adversity debt if the player agrees to it"
        } else {
            ""
        };
        if !why.is_empty() {
            return Err(Error::invalid(
                "adversity",
                format!("{} holds {} adversity and this costs {cost}: {why}", element.name, element.adversity),
            ));
        }
    }
    let mut next = element.clone();
    let mut events = Vec::new();
    match spend {
        AdversitySpend::OvercomeFlaws { flaw } => {
            if element.find_trait("flaw", *flaw)?.kind != TraitKind::Flaw {
                return Err(Error::invalid("flaw", "Overcome Flaws ignores one of the element's flaws"));
            }
        }
        AdversitySpend::UnexpectedEdge { edge, no_fitting_trait } => {
            if !element.in_challenge {
                return Err(Error::invalid("spend", "an unexpected edge is bought only in a challenge"));
            }
            if !no_fitting_trait {
                return Err(Error::invalid(
                    "no_fitting_trait",
                    "an unexpected edge is only for an element with no trait that fits the challenge",
                ));
            }
            let edge = Trait { via: Via::UnexpectedEdge, ..(**edge).clone() };
            let (added, more) = insert_trait(&next, edge)?;
            next = added;
            events.extend(more);
        }
        AdversitySpend::Background { background, edge } => {
            if element.find_trait("background", *background)?.template != Some(Template::Background) {
                return Err(Error::invalid("background", "a phantom edge comes from a Background edge"));
            }
            let edge =
                Trait { via: Via::Granted, lasts: Lasts::Scene, granted_by: Some(*background), ..(**edge).clone() };
            if edge.kind != TraitKind::Edge {
                return Err(Error::invalid("kind", "a Background's phantom trait is an edge"));
            }
            let (added, more) = insert_trait(&next, edge)?;
            next = added;
            events.extend(more);
        }
        AdversitySpend::FortunesFavor | AdversitySpend::SuddenSurge | AdversitySpend::PlotHook { .. } => {}
    }
    let from_adversity = cost - shortfall;
    next.adversity = element.adversity - from_adversity;
    next.adversity_debt = element.adversity_debt + shortfall;
    events.insert(
        0,
        ElementEvent::AdversitySpent {
            element: element.id,
            benefit: spend.benefit(),
            cost,
            from_adversity,
            debt_taken: shortfall,
            before: element.adversity,
            after: next.adversity,
            debt_before: element.adversity_debt,
            debt_after: next.adversity_debt,
        },
    );
    Ok((next, events))
}

/// Ways adversity debt is paid off other than by gaining adversity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DebtPayoff {
    /// Each point gave a hostile event against the element one more vote.
    IllFated,
    /// A harmful perk's setter took a point of adversity from it.
    TemptingTarget,
}

/// Pays off `points` of adversity debt.
pub fn pay_off_debt(element: &Element, points: u32, how: DebtPayoff) -> Result<(Element, Vec<ElementEvent>)> {
    at_least_one("points", points)?;
    if points > element.adversity_debt {
        return Err(Error::invalid(
            "points",
            format!("{} owes {} adversity debt, not {points}", element.name, element.adversity_debt),
        ));
    }
    let mut next = element.clone();
    next.adversity_debt -= points;
    let event = ElementEvent::DebtPaidOff {
        element: element.id,
        points,
        how,
        before: element.adversity_debt,
        after: next.adversity_debt,
    };
    Ok((next, vec![event]))
}

// ---------------------------------------------------------------------------------------
// Momentum

/// Where momentum comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentumSource {
    /// Momentum-boost awards (a wound's, a restraint's, a trump's and its transfers): each
    /// point is one award, at most 5 per challenger per challenge.
    Boost,
    /// A Ruin perk took a trump from this goal.
    Ruin,
    /// A plot hook tapped, resolved or raised into stakes.
    PlotHook,
}

/// What momentum buys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum MomentumSpend {
    /// After a victory: one vote per point on an event tied to it.
    VictoryNarration { votes: u32 },
    /// After a victory: one major perk per point on an action matching the stakes.
    ClaimingStakes { perks: u32 },
    /// After a victory: 1 to add or remove a Transient Flaw.
    LastingEffect,
    /// After a victory: a temporary edge, with no slot.
    Boon { boon: Boon, edge: Box<Trait> },
    /// After a defeat: 2 momentum for each point of adversity (which pays debt first).
    DefeatConversion { adversity: u32 },
    /// A triggered trump of this goal draws momentum to use its boost again (at most 4).
    TrumpTransfer { trump: Uuid, points: u32 },
    /// Making a plot hook (1, 2 after the Turning Point), investing in one, No Escape (2).
    PlotHook { points: u32 },
}

/// How long a boon lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Boon {
    /// A number of uses: 1 momentum for one, and 1 per 2 more (2 → 3 uses, 4 → 7).
    Uses { uses: u32 },
    /// Unlimited uses in one challenge: 3.
    OneChallenge,
    /// Unlimited uses until the end of the arc: 5.
    OneArc,
}

impl Boon {
    pub fn cost(self) -> u32 {
        match self {
            Boon::Uses { uses } => 1 + uses / 2,
            Boon::OneChallenge => 3,
            Boon::OneArc => 5,
        }
    }
}

/// What was bought with momentum, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentumUse {
    VictoryNarration,
    ClaimingStakes,
    LastingEffect,
    Boon,
    DefeatConversion,
    TrumpTransfer,
    PlotHook,
}

impl MomentumSpend {
    pub fn cost(&self) -> u32 {
        match self {
            MomentumSpend::VictoryNarration { votes: n }
            | MomentumSpend::ClaimingStakes { perks: n }
            | MomentumSpend::TrumpTransfer { points: n, .. }
            | MomentumSpend::PlotHook { points: n } => *n,
            MomentumSpend::LastingEffect => 1,
            MomentumSpend::Boon { boon, .. } => boon.cost(),
            MomentumSpend::DefeatConversion { adversity } => adversity.saturating_mul(2),
        }
    }

    pub fn on(&self) -> MomentumUse {
        match self {
            MomentumSpend::VictoryNarration { .. } => MomentumUse::VictoryNarration,
            MomentumSpend::ClaimingStakes { .. } => MomentumUse::ClaimingStakes,
            MomentumSpend::LastingEffect => MomentumUse::LastingEffect,
            MomentumSpend::Boon { .. } => MomentumUse::Boon,
            MomentumSpend::DefeatConversion { .. } => MomentumUse::DefeatConversion,
            MomentumSpend::TrumpTransfer { .. } => MomentumUse::TrumpTransfer,
            MomentumSpend::PlotHook { .. } => MomentumUse::PlotHook,
        }
    }
}

/// Gains momentum. Boost awards need the element in a challenge and stop at 5 per
/// challenge; Ruin's point goes to a goal.
pub fn gain_momentum(element: &Element, points: u32, source: MomentumSource) -> Result<(Element, Vec<ElementEvent>)> {
    at_least_one("points", points)?;
    let mut next = element.clone();
    match source {
        MomentumSource::Boost => {
            if !element.in_challenge {
                return Err(Error::invalid(
                    "source",
                    format!("{} is not in a challenge: boosts go to challengers", element.name),
                ));
            }
            let awards = element.momentum_awards + points;
            if awards > MAX_MOMENTUM_AWARDS {
                return Err(Error::invalid(
                    "points",
                    format!(
                        "{} gained {} of its {MAX_MOMENTUM_AWARDS} momentum-boost awards this challenge: {} more at most",
                        element.name,
                        element.momentum_awards,
                        MAX_MOMENTUM_AWARDS - element.momentum_awards.min(MAX_MOMENTUM_AWARDS)
                    ),
                ));
            }
            next.momentum_awards = awards;
        }
        MomentumSource::Ruin => {
            if element.kind != ElementKind::Goal {
                return Err(Error::invalid("source", "Ruin gives its momentum to the goal that lost a trump"));
            }
        }
        MomentumSource::PlotHook => {}
    }
    next.momentum = element.momentum.checked_add(points).ok_or_else(|| Error::invalid("points", "too many"))?;
    let event = ElementEvent::MomentumGained {
        element: element.id,
        points,
        source,
        before: element.momentum,
        after: next.momentum,
    };
    Ok((next, vec![event]))
}

/// Spends momentum, by player `by` (a claimed element's momentum is its claimer's). When the
/// element may spend (after a victory, after a defeat) is the challenge's to decide.
pub fn spend_momentum(element: &Element, spend: &MomentumSpend, by: Uuid) -> Result<(Element, Vec<ElementEvent>)> {
    sealed(element, by, "spend its momentum")?;
    let cost = spend.cost();
    at_least_one("points", cost)?;
    if cost > element.momentum {
        return Err(Error::invalid(
            "momentum",
            format!("{} holds {} momentum; this costs {cost}", element.name, element.momentum),
        ));
    }
    let mut next = element.clone();
    next.momentum -= cost;
    let mut events = vec![ElementEvent::MomentumSpent {
        element: element.id,
        on: spend.on(),
        cost,
        before: element.momentum,
        after: next.momentum,
    }];
    match spend {
        MomentumSpend::Boon { boon, edge } => {
            let (lasts, uses_left) = match *boon {
                Boon::Uses { uses } => {
                    at_least_one("uses", uses)?;
                    (Lasts::Lasting, Some(uses))
                }
                Boon::OneChallenge => (Lasts::NextChallenge, None),
                Boon::OneArc => (Lasts::Arc, None),
            };
            let edge = Trait { via: Via::Boon, lasts, uses_left, ..(**edge).clone() };
            let (added, more) = insert_trait(&next, edge)?;
            next = added;
            events.extend(more);
        }
        MomentumSpend::DefeatConversion { adversity } => {
            let (converted, more) = gain_adversity(&next, *adversity)?;
            next = converted;
            events.extend(more);
        }
        MomentumSpend::TrumpTransfer { trump, points } => {
            if element.find_trait("trump", *trump)?.template != Some(Template::Trump) {
                return Err(Error::invalid("trump", "momentum is drawn by one of the goal's trumps"));
            }
            if *points > MAX_TRUMP_TRANSFER {
                return Err(Error::invalid(
                    "points",
                    format!("a trump draws at most {MAX_TRUMP_TRANSFER} momentum from its goal"),
                ));
            }
        }
        MomentumSpend::VictoryNarration { .. }
        | MomentumSpend::ClaimingStakes { .. }
        | MomentumSpend::LastingEffect
        | MomentumSpend::PlotHook { .. } => {}
    }
    Ok((next, events))
}

// ---------------------------------------------------------------------------------------
// Challenges, scenes, arcs

/// The element joins a challenge: the first time, 4 edge slots; Plot Protection while it
/// takes part (Protected Event); a one-challenge boon now lasts through this challenge.
pub fn join_challenge(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    if element.in_challenge {
        return Err(Error::invalid("element", format!("{} is already in a challenge", element.name)));
    }
    let mut next = element.clone();
    next.in_challenge = true;
    for t in &mut next.traits {
        if t.lasts == Lasts::NextChallenge {
            t.lasts = Lasts::Challenge;
        }
    }
    let mut events = vec![ElementEvent::JoinedChallenge { element: element.id }];
    if !element.awards.first_challenge {
        let (awarded, more) = grant(&next, SlotAward::FirstChallenge)?;
        next = awarded;
        events.extend(more);
    }
    Ok((next, events))
}

/// The element leaves the challenge (its Protected Event ends; momentum stays to be spent
/// until the challenge ends).
pub fn leave_challenge(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    if !element.in_challenge {
        return Err(Error::invalid("element", format!("{} is not in a challenge", element.name)));
    }
    let mut next = element.clone();
    next.in_challenge = false;
    Ok((next, vec![ElementEvent::LeftChallenge { element: element.id }]))
}

/// Mixed into a Transient Flaw's id to make the id of the Favored Flaw it grants.
const FAVORED_FLAW_SALT: u128 = 0x6661_766f_7265_6420_666c_6177_2121_2121;

/// The id of the Favored Flaw a Transient Flaw grants: derived from the modifier's.
pub fn favored_flaw_id(transient_flaw: Uuid) -> Uuid {
    Uuid::from_u128(transient_flaw.as_u128() ^ FAVORED_FLAW_SALT)
}

/// The challenge the element took part in is over: unspent momentum is lost and the award
/// count starts again; trumps and one-challenge traits go; sacrificed or lent protection
/// ends; each Transient Flaw grants a Favored Flaw on its flaw.
pub fn challenge_ended(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    let ending: Vec<Uuid> = element
        .traits
        .iter()
        .filter(|t| t.lasts == Lasts::Challenge || t.template == Some(Template::Trump))
        .map(|t| t.id)
        .collect();
    let (mut next, mut events) = remove_all(element, &ending, Removal::Expired);
    events.insert(0, ElementEvent::ChallengeEnded { element: element.id, momentum_lost: element.momentum });
    next.momentum = 0;
    next.momentum_awards = 0;
    next.in_challenge = false;
    next.plot_protection = PlotProtection::default();
    let transients: Vec<(Uuid, Uuid)> = next
        .traits
        .iter()
        .filter(|t| t.template == Some(Template::TransientFlaw))
        .filter_map(|t| t.target_trait.map(|flaw| (t.id, flaw)))
        .collect();
    for (modifier, flaw) in transients {
        let has_one =
            next.traits.iter().any(|t| t.template == Some(Template::FavoredFlaw) && t.target_trait == Some(flaw));
        if has_one {
            continue;
        }
        let name = format!("Favored Flaw: {}", next.trait_by_id(flaw).map_or("", |f| f.name.as_str()));
        let name: String = name.chars().take(crate::model::MAX_NAME_CHARS).collect();
        let favored = Trait {
            granted_by: Some(modifier),
            ..Trait::from_template(favored_flaw_id(modifier), Template::FavoredFlaw, name.trim(), Via::Granted).on(flaw)
        };
        let (added, more) = insert_trait(&next, favored)?;
        next = added;
        events.extend(more);
    }
    Ok((next, events))
}

/// The scene is over: phantom edges go; protection lent by a Heroic Sacrifice outside a
/// challenge ends, and so does the sacrifice.
pub fn end_scene(element: &Element) -> (Element, Vec<ElementEvent>) {
    let ending: Vec<Uuid> = element.traits.iter().filter(|t| t.lasts == Lasts::Scene).map(|t| t.id).collect();
    let (mut next, mut events) = remove_all(element, &ending, Removal::Expired);
    events.insert(0, ElementEvent::SceneEnded { element: element.id });
    if !element.in_challenge {
        next.plot_protection = PlotProtection::default();
    }
    (next, events)
}

/// The arc is over: adversity, debt and momentum are lost, one-arc and one-scene traits go.
pub fn end_arc(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    if element.in_challenge {
        return Err(Error::invalid(
            "element",
            format!("{} is still in a challenge: an arc ends after it", element.name),
        ));
    }
    let (scene_over, scene_events) = end_scene(element);
    let ending: Vec<Uuid> = scene_over.traits.iter().filter(|t| t.lasts == Lasts::Arc).map(|t| t.id).collect();
    let (mut next, more) = remove_all(&scene_over, &ending, Removal::Expired);
    let mut events = vec![ElementEvent::ArcEnded {
        element: element.id,
        adversity_lost: element.adversity,
        debt_lost: element.adversity_debt,
        momentum_lost: element.momentum,
    }];
    events.extend(scene_events);
    events.extend(more);
    next.adversity = 0;
    next.adversity_debt = 0;
    next.momentum = 0;
    next.momentum_awards = 0;
    Ok((next, events))
}

/// How Plot Protection is sacrificed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sacrifice {
    /// In a challenge: removes every perk of one major action.
    FinalCounter,
    /// Lent to another element until the end of the challenge or scene.
    HeroicSacrifice,
}

fn can_sacrifice(element: &Element) -> Result<()> {
    if element.plot_protection.sacrificed {
        return Err(Error::invalid("element", format!("{} already sacrificed its protection", element.name)));
    }
    if !element.has_plot_protection() {
        return Err(Error::invalid("element", format!("{} has no Plot Protection", element.name)));
    }
    Ok(())
}

/// Final Counter: sacrifices the element's protection, in a challenge, to remove the perks
/// of one major action (the challenge removes them).
pub fn final_counter(element: &Element) -> Result<(Element, Vec<ElementEvent>)> {
    can_sacrifice(element)?;
    if !element.in_challenge {
        return Err(Error::invalid("element", "Final Counter is used during a challenge"));
    }
    let mut next = element.clone();
    next.plot_protection.sacrificed = true;
    Ok((next, vec![ElementEvent::PlotProtectionSacrificed { element: element.id, how: Sacrifice::FinalCounter }]))
}

/// Heroic Sacrifice: `giver` lends its protection to `receiver`.
pub fn heroic_sacrifice(giver: &Element, receiver: &Element) -> Result<(Element, Element, Vec<ElementEvent>)> {
    can_sacrifice(giver)?;
    if giver.id == receiver.id {
        return Err(Error::invalid("receiver", "the protection is lent to another element"));
    }
    let mut next_giver = giver.clone();
    next_giver.plot_protection.sacrificed = true;
    let mut next_receiver = receiver.clone();
    next_receiver.plot_protection.lent_by = Some(giver.id);
    let events = vec![
        ElementEvent::PlotProtectionSacrificed { element: giver.id, how: Sacrifice::HeroicSacrifice },
        ElementEvent::PlotProtectionLent { from: giver.id, to: receiver.id },
    ];
    Ok((next_giver, next_receiver, events))
}

// ---------------------------------------------------------------------------------------
// Helpers

/// Sealed Resources: only the claimer uses a claimed element's slots, adversity, momentum.
fn sealed(element: &Element, by: Uuid, what: &str) -> Result<()> {
    match element.claimed_by {
        Some(holder) if holder != by => {
            Err(Error::invalid("by", format!("{} is claimed by another player: only they may {what}", element.name)))
        }
        _ => Ok(()),
    }
}

fn at_least_one(field: &str, n: u32) -> Result<()> {
    if n == 0 {
        return Err(Error::invalid(field, "must be at least 1"));
    }
    Ok(())
}

fn clean_name(field: &str, raw: &str) -> Result<String> {
    match name_problem(raw) {
        Some(problem) => Err(Error::invalid(field, problem)),
        None => Ok(raw.trim().to_owned()),
    }
}

/// Free text: trimmed, at most [`MAX_TEXT_CHARS`], no control characters but line breaks
/// and tabs ([`crate::model::block_chars_problem`]).
pub(crate) fn clean_text(field: &str, raw: &str) -> Result<String> {
    let text = raw.trim();
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(Error::invalid(field, format!("must be at most {MAX_TEXT_CHARS} characters")));
    }
    if let Some(p) = crate::model::block_chars_problem(text) {
        return Err(Error::invalid(field, p));
    }
    Ok(text.to_owned())
}

fn clean_properties(p: &Properties) -> Result<Properties> {
    Ok(Properties {
        requirements: clean_text("properties.requirements", &p.requirements)?,
        restrictions: clean_text("properties.restrictions", &p.restrictions)?,
        owner: clean_text("properties.owner", &p.owner)?,
        target: clean_text("properties.target", &p.target)?,
        set_up: clean_text("properties.set_up", &p.set_up)?,
        effects: clean_text("properties.effects", &p.effects)?,
        details: clean_text("properties.details", &p.details)?,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    const ADA: u128 = 1;
    const BO: u128 = 2;
    const HERO: u128 = 10;
    const BLADE: u128 = 11;
    const TOWER: u128 = 12;
    const QUEST: u128 = 13;

    fn player(n: u128, name: &str) -> Player {
        Player::new(id(n), name).unwrap()
    }

    fn actor(n: u128, name: &str) -> Player {
        take_role(&player(n, name), Role::Actor).unwrap().0
    }

    fn hero() -> Element {
        Element::new(id(HERO), ElementKind::Character, "Mira").unwrap()
    }

    /// Mira with her first action check's 4 slots.
    fn hero_with_slots() -> Element {
        award_edge_slots(&hero(), SlotAward::FirstActionCheck).unwrap().0
    }

    fn edge(n: u128, template: Template, name: &str) -> Trait {
        Trait::from_template(id(n), template, name, Via::EdgeSlot)
    }

    fn with(element: &Element, t: Trait) -> Element {
        add_trait(element, &t, id(ADA)).unwrap_or_else(|e| panic!("{}: {e}", t.name)).0
    }

    fn err<T: std::fmt::Debug>(result: Result<T>) -> String {
        result.unwrap_err().to_string()
    }

    fn with_adversity(element: &Element, points: u32) -> Element {
        gain_adversity(element, points).unwrap().0
    }

    // --- players, votes, claims

    #[test]
    fn a_player_has_one_free_vote_and_an_actor_three_on_their_characters_and_none_elsewhere() {
        let ada = player(ADA, "Ada");
        assert_eq!(ada.influence, 3);
        assert_eq!(free_votes(&ada, None, &[]), 1);
        assert_eq!(free_votes(&ada, Some(id(HERO)), &[]), 1);

        let ada = actor(ADA, "Ada");
        assert_eq!(free_votes(&ada, Some(id(HERO)), &[]), 0, "an Actor without claims votes nowhere");
        let (ada, mira, _) = claim(&ada, &hero()).unwrap();
        assert_eq!(mira.claimed_by, Some(id(ADA)));
        assert_eq!(free_votes(&ada, Some(id(HERO)), &[]), 3, "Creative Control");
        assert_eq!(free_votes(&ada, Some(id(BLADE)), &[]), 0);
        assert_eq!(free_votes(&ada, None, &[]), 0);

        // Out of the role (Mira not in the scene) the claim stays but the usual vote returns.
        let (out, _) = leave_role(&ada, Role::Actor, &[]).unwrap();
        assert_eq!(out.claimed, vec![id(HERO)]);
        assert_eq!(free_votes(&out, None, &[]), 1);
        assert_eq!(free_votes(&out, Some(id(HERO)), &[]), 1);
        // Mira active in the scene: back in the role at once.
        assert!(out.is_actor(&[id(HERO)]));
        assert_eq!(free_votes(&out, Some(id(HERO)), &[id(HERO)]), 3);
        assert_eq!(free_votes(&out, None, &[id(HERO)]), 0);
    }

    #[test]
    fn the_actor_role_cannot_be_left_while_a_claimed_character_is_in_the_scene() {
        let (ada, _, _) = claim(&actor(ADA, "Ada"), &hero()).unwrap();
        assert!(err(leave_role(&ada, Role::Actor, &[id(HERO)])).starts_with("role: a character this player claimed"));
        assert!(leave_role(&ada, Role::Actor, &[id(BLADE)]).is_ok());
        assert_eq!(err(take_role(&ada, Role::Actor)), "role: Ada already holds this role");
        assert_eq!(err(leave_role(&player(BO, "Bo"), Role::Actor, &[])), "role: Bo does not hold this role");
    }

    #[test]
    fn only_an_actor_claims_only_an_unclaimed_character_and_the_first_claim_gives_two_slots() {
        let mira = hero();
        assert_eq!(err(claim(&player(ADA, "Ada"), &mira)), "player: Ada must take the Actor role to claim a character");
        let blade = Element::new(id(BLADE), ElementKind::Object, "Blade").unwrap();
        assert_eq!(
            err(claim(&actor(ADA, "Ada"), &blade)),
            "element: Blade is not a character: only characters are claimed"
        );

        let (ada, mira, events) = claim(&actor(ADA, "Ada"), &mira).unwrap();
        assert_eq!(mira.edge_slots(), 2);
        assert!(mira.has_plot_protection(), "Character Protection");
        assert_eq!(mira.protection_sources(), vec![ProtectionSource::Claim]);
        assert!(matches!(events[1], ElementEvent::EdgeSlotsAwarded { slots: 2, before: 0, after: 2, .. }));
        assert_eq!(err(claim(&actor(BO, "Bo"), &mira)), "element: Mira is claimed by another player");
        assert_eq!(err(claim(&ada, &mira)), "element: Ada already holds Mira");
        assert_eq!(err(unclaim(&actor(BO, "Bo"), &mira)), "element: Bo does not hold Mira");

        let (ada, mira, _) = unclaim(&ada, &mira).unwrap();
        assert!(ada.claimed.is_empty());
        assert!(!mira.has_plot_protection(), "the claim's protection goes with the claim");
        let (bo, mira, _) = claim(&actor(BO, "Bo"), &mira).unwrap();
        assert_eq!(bo.claimed, vec![id(HERO)]);
        assert_eq!(mira.edge_slots(), 2, "only the first claim gives slots");
    }

    #[test]
    fn a_claimed_characters_resources_are_sealed_to_its_claimer() {
        let (_, mira, _) = claim(&actor(ADA, "Ada"), &hero_with_slots()).unwrap();
        let mira = with_adversity(&mira, 5);
        let mira = Element { momentum: 2, ..mira };
        let sword = edge(20, Template::Ability, "Swordplay");
        assert_eq!(
            err(add_trait(&mira, &sword, id(BO))),
            "by: Mira is claimed by another player: only they may fill its edge slots"
        );
        assert!(
            err(spend_adversity(&mira, &AdversitySpend::FortunesFavor, id(BO), false)).contains("spend its adversity")
        );
        assert!(err(spend_momentum(&mira, &MomentumSpend::LastingEffect, id(BO))).contains("spend its momentum"));
        assert!(add_trait(&mira, &sword, id(ADA)).is_ok());
        assert!(spend_adversity(&mira, &AdversitySpend::FortunesFavor, id(ADA), false).is_ok());
        // A flaw inflicted by play is not a use of its resources.
        let flaw = Trait::from_template(id(21), Template::Restraint, "Pinned", Via::Granted);
        assert!(add_trait(&mira, &flaw, id(BO)).is_ok());
        // An unclaimed element is anyone's.
        assert!(spend_adversity(&with_adversity(&hero(), 2), &AdversitySpend::FortunesFavor, id(BO), false).is_ok());
    }

    #[test]
    fn influence_is_spent_a_point_a_vote_and_back_to_three_each_arc() {
        let ada = player(ADA, "Ada");
        let (ada, _) = spend_influence(&ada, 2).unwrap();
        assert_eq!(ada.influence, 1);
        assert_eq!(err(spend_influence(&ada, 2)), "points: Ada holds 1 influence, not 2");
        let (ada, _) = gain_influence(&ada, 4).unwrap();
        assert_eq!(ada.influence, 5);
        let (ada, events) = start_arc(&ada);
        assert_eq!(ada.influence, 3, "influence does not carry over");
        assert_eq!(events, vec![ElementEvent::InfluenceReset { player: id(ADA), before: 5, after: 3 }]);
    }

    // --- traits and slots

    #[test]
    fn an_edge_fills_a_free_slot_and_is_refused_without_one() {
        let sword = edge(20, Template::Ability, "Swordplay");
        assert_eq!(err(add_trait(&hero(), &sword, id(ADA))), "via: Mira has no free edge slot (0 of 0 filled)");
        let mut mira = hero_with_slots();
        for n in 0..4 {
            mira = with(&mira, Trait::new(id(30 + n), TraitKind::Edge, &format!("Edge {n}"), Via::EdgeSlot));
        }
        assert_eq!((mira.edge_slots(), mira.filled_slots(), mira.free_slots()), (4, 4, 0));
        assert_eq!(err(add_trait(&mira, &sword, id(ADA))), "via: Mira has no free edge slot (4 of 4 filled)");
        let (mira, events) = remove_trait(&mira, id(31)).unwrap();
        assert!(matches!(events[0], ElementEvent::TraitRemoved { freed_slot: true, reason: Removal::Removed, .. }));
        assert_eq!(mira.free_slots(), 1, "a lost edge frees its slot");
        let mira = with(&mira, sword);
        assert_eq!(mira.free_slots(), 0);
        // Flaws and granted traits take no slot.
        let mira = with(&mira, Trait::from_template(id(40), Template::Vulnerability, "Fire", Via::Granted));
        assert_eq!(mira.filled_slots(), 4);
        let flaw_in_slot = Trait::new(id(41), TraitKind::Flaw, "Greedy", Via::EdgeSlot);
        assert_eq!(
            err(add_trait(&hero_with_slots(), &flaw_in_slot, id(ADA))),
            "via: only edges (and extras bought as edges) fill edge slots"
        );
    }

    #[test]
    fn abilities_take_one_free_extra_and_their_extras_keep_their_requirements() {
        let mut mira = with(&hero_with_slots(), edge(20, Template::Ability, "Swordplay"));
        let extra = |n: u128, template: Template, via: Via| {
            Trait::from_template(id(n), template, template.word(), via).on(id(20))
        };
        // Specialty needs two other extras; Extraordinary Ability one; Cross Training a Specialty.
        assert_eq!(
            err(add_trait(&mira, &extra(21, Template::Specialty, Via::FreeExtra), id(ADA))),
            "target_trait: Specialty needs 2 other extras on Swordplay"
        );
        assert!(err(add_trait(&mira, &extra(21, Template::ExtraordinaryAbility, Via::FreeExtra), id(ADA)))
            .contains("needs another extra"));
        mira = with(&mira, extra(21, Template::Aptitude, Via::FreeExtra));
        assert_eq!(mira.filled_slots(), 1, "the free extra takes no slot");
        assert_eq!(
            err(add_trait(&mira, &extra(22, Template::Focused, Via::FreeExtra), id(ADA))),
            "via: this trait already has its free extra"
        );
        assert!(err(add_trait(&mira, &extra(22, Template::CrossTraining, Via::EdgeSlot), id(ADA)))
            .contains("Cross Training needs a Specialty"));
        mira = with(&mira, extra(22, Template::Focused, Via::EdgeSlot));
        assert_eq!(mira.filled_slots(), 2, "an extra bought as an edge fills a slot");
        assert_eq!(
            err(add_trait(&mira, &extra(23, Template::Focused, Via::EdgeSlot), id(ADA))),
            "target_trait: Swordplay already has its one Focused extra"
        );
        mira = with(&mira, extra(23, Template::Specialty, Via::EdgeSlot));
        mira = with(&mira, extra(24, Template::CrossTraining, Via::EdgeSlot));
        assert_eq!(mira.extras_of(id(20)).count(), 4);
        // An extra of another template does not fit.
        assert_eq!(
            err(add_trait(&mira, &extra(25, Template::Fortified, Via::Granted), id(ADA))),
            "target_trait: Fortified is an extra of an Resistance"
        );
        // Losing the ability takes its extras and frees their slots.
        let (mira, events) = remove_trait(&mira, id(20)).unwrap();
        assert!(mira.traits.is_empty());
        assert_eq!(events.len(), 5);
        assert_eq!(mira.free_slots(), 4);
    }

    #[test]
    fn named_traits_keep_their_requirements() {
        let mira = hero_with_slots();
        // Plot Protection: one at a time.
        let mira = with(&mira, edge(20, Template::PlotProtection, "Plot Protection"));
        assert_eq!(
            err(add_trait(&mira, &edge(21, Template::PlotProtection, "Again"), id(ADA))),
            "template: Mira already has Plot Protection (one at a time)"
        );
        // A trump: goals only, never with a slot.
        let trump = Trait::from_template(id(22), Template::Trump, "Trump", Via::Granted);
        assert_eq!(err(add_trait(&mira, &trump, id(ADA))), "template: only goals gain trumps");
        let quest = Element::new(id(QUEST), ElementKind::Goal, "Reach the cove").unwrap();
        let quest = award_edge_slots(&quest, SlotAward::FirstChallenge).unwrap().0;
        assert!(add_trait(&quest, &trump, id(ADA)).is_ok());
        assert_eq!(
            err(add_trait(&quest, &Trait { via: Via::EdgeSlot, ..trump }, id(ADA))),
            "via: a trump cannot be bought with an edge slot"
        );
        // Attractant and Repellent for the same selection exclude each other.
        let mut magnet = edge(23, Template::Attractant, "Danger magnet");
        magnet.properties.set_up = "Danger".into();
        let mira = with(&mira, magnet);
        let mut calm = edge(24, Template::Repellent, "Calming presence");
        calm.properties.set_up = " danger ".into();
        assert_eq!(
            err(add_trait(&mira, &calm, id(ADA))),
            "properties.set_up: Mira already has a Attractant for this selection"
        );
        calm.properties.set_up = "Crowds".into();
        let mira = with(&mira, calm);
        // A template's kind is fixed.
        let wrong = Trait { kind: TraitKind::Flaw, ..edge(25, Template::Asset, "Ship") };
        assert_eq!(err(add_trait(&mira, &wrong, id(ADA))), "kind: a Asset is a Edge, not a Flaw");
        // Unexpected edges and boons are bought, not added.
        let unexpected = Trait::new(id(26), TraitKind::Edge, "Lucky", Via::UnexpectedEdge);
        assert!(err(add_trait(&mira, &unexpected, id(ADA))).starts_with("via: unexpected edges are bought"));
    }

    #[test]
    fn a_dulled_edge_must_dull_the_edges_extras_first_and_locks_the_edge() {
        let mira = with(&hero_with_slots(), edge(20, Template::Ability, "Swordplay"));
        let mira = with(&mira, Trait::from_template(id(21), Template::Aptitude, "Aptitude", Via::FreeExtra).on(id(20)));
        let dull = |n: u128, target: u128| {
            Trait::from_template(id(n), Template::DulledEdge, "Numb", Via::Granted).on(id(target))
        };
        assert_eq!(
            err(add_trait(&mira, &dull(30, 20), id(ADA))),
            "target_trait: Swordplay has an extra without a Dulled Edge (Aptitude): the flaw must target it instead"
        );
        let mira = with(&mira, dull(30, 21));
        let mira = with(&mira, dull(31, 20));
        assert!(mira.is_dulled(id(20)));
        assert_eq!(err(use_trait(&mira, id(20))), "trait: Swordplay is dulled: it cannot be used until the flaw goes");
        assert_eq!(err(add_trait(&mira, &dull(32, 20), id(ADA))), "target_trait: Swordplay is already dulled");
        let (mira, _) = remove_trait(&mira, id(31)).unwrap();
        assert!(use_trait(&mira, id(20)).is_ok());
        // Losing the edge takes the flaws that dull it and its extra.
        let (mira, _) = remove_trait(&mira, id(20)).unwrap();
        assert!(mira.traits.is_empty());
    }

    #[test]
    fn modifiers_and_wound_extras_attach_to_the_right_traits() {
        let mira = hero_with_slots();
        let cut = Trait::from_template(id(30), Template::ImpairedAbility, "Cut arm", Via::Granted);
        let mira = with(&mira, cut);
        let wound = Trait::from_template(id(31), Template::Wound, "Wound", Via::Granted).on(id(30));
        let transient = Trait::from_template(id(32), Template::TransientFlaw, "Transient", Via::Granted).on(id(30));
        let targeted = Trait::from_template(id(33), Template::TargetedWound, "Arm", Via::Granted).on(id(30));
        let pervasive = Trait::from_template(id(34), Template::PervasiveWound, "All over", Via::Granted).on(id(30));
        let corrosive = Trait::from_template(id(35), Template::CorrosiveWound, "Spreads", Via::Granted).on(id(30));
        assert!(err(add_trait(&mira, &targeted, id(ADA))).contains("extra of a wound"));
        let mira = with(&mira, wound.clone());
        assert!(err(add_trait(&mira, &wound, id(ADA))).contains("already has"), "the same id");
        let again = Trait { id: id(36), ..wound };
        assert_eq!(err(add_trait(&mira, &again, id(ADA))), "target_trait: Cut arm already has Wound");
        assert!(mira.is_wound(id(30)));
        let mira = with(&mira, transient);
        assert!(err(add_trait(&mira, &pervasive, id(ADA))).contains("Targeted Wound extra"));
        assert!(err(add_trait(&mira, &corrosive, id(ADA))).contains("Dulled Edge template"));
        let mira = with(&mira, targeted);
        let mira = with(&mira, pervasive);
        // A Transient Flaw modifies a flaw, not an edge.
        let mira = with(&mira, edge(40, Template::Background, "Sailor"));
        let bad = Trait::from_template(id(41), Template::TransientFlaw, "Transient", Via::Granted).on(id(40));
        assert!(err(add_trait(&mira, &bad, id(ADA))).contains("modifies a trait of kind [Flaw], not Edge"));
        assert!(mira.problems().is_empty(), "{:?}", mira.problems());
    }

    #[test]
    fn an_impaired_ability_outlives_the_ability_it_names() {
        let mira = with(&hero_with_slots(), edge(20, Template::Ability, "Swordplay"));
        let mira =
            with(&mira, Trait::from_template(id(30), Template::ImpairedAbility, "Cut arm", Via::Granted).on(id(20)));
        let (mira, _) = remove_trait(&mira, id(20)).unwrap();
        assert_eq!(mira.traits.len(), 1);
        assert_eq!(mira.traits[0].target_trait, None);
        assert!(mira.problems().is_empty());
    }

    #[test]
    fn a_trait_is_edited_in_its_text_only() {
        let mut magnet = edge(20, Template::Attractant, "Danger magnet");
        magnet.properties.set_up = "Danger".into();
        let mira = with(&hero_with_slots(), magnet);
        let mut calm = edge(21, Template::Repellent, "Calm");
        calm.properties.set_up = "Crowds".into();
        let mira = with(&mira, calm);
        let props = Properties { set_up: "danger".into(), ..Properties::default() };
        assert!(err(edit_trait(&mira, id(21), "Calm", &props, id(ADA))).contains("already has a Attractant"));
        let props = Properties { effects: "Keeps crowds away.\nMostly.".into(), ..mira.traits[1].properties.clone() };
        let (edited, events) = edit_trait(&mira, id(21), "  Calming presence ", &props, id(ADA)).unwrap();
        assert_eq!(edited.traits[1].name, "Calming presence");
        assert_eq!(edited.traits[1].properties.effects, "Keeps crowds away.\nMostly.");
        assert_eq!(events, vec![ElementEvent::TraitChanged { element: id(HERO), trait_id: id(21) }]);
        assert_eq!(edited.filled_slots(), 2);
        assert!(err(edit_trait(&mira, id(21), "", &props, id(ADA))).starts_with("name: must not be empty"));
        // A tab is free text's; an escape sequence is not.
        let tab = Properties { details: "a\tb".into(), ..Properties::default() };
        assert!(edit_trait(&mira, id(21), "Calm", &tab, id(ADA)).is_ok());
        let escape = Properties { details: "a\u{1b}[2Jb".into(), ..Properties::default() };
        assert!(err(edit_trait(&mira, id(21), "Calm", &escape, id(ADA))).starts_with("properties.details"));
    }

    #[test]
    fn uses_run_out_and_one_shot_traits_go_after_their_use() {
        let mira = with_adversity(&hero(), 1);
        let mira = Element { momentum: 4, ..mira };
        let boon = MomentumSpend::Boon {
            boon: Boon::Uses { uses: 3 },
            edge: Box::new(Trait::new(id(20), TraitKind::Edge, "Rally", Via::Boon)),
        };
        let (mira, _) = spend_momentum(&mira, &boon, id(ADA)).unwrap();
        assert_eq!(mira.momentum, 2, "3 uses cost 2");
        assert_eq!(mira.traits[0].uses_left, Some(3));
        assert_eq!(mira.filled_slots(), 0);
        let (mira, _) = use_trait(&mira, id(20)).unwrap();
        let (mira, _) = use_trait(&mira, id(20)).unwrap();
        assert_eq!(mira.traits[0].uses_left, Some(1));
        let (mira, events) = use_trait(&mira, id(20)).unwrap();
        assert!(mira.traits.is_empty());
        assert!(matches!(events[1], ElementEvent::TraitRemoved { reason: Removal::UsedUp, .. }));

        let mira = with(&mira, Trait::from_template(id(30), Template::Vulnerability, "Fire", Via::Granted));
        let mira = with(&mira, Trait::from_template(id(31), Template::OneShot, "One-Shot", Via::Granted).on(id(30)));
        let (mira, _) = use_trait(&mira, id(30)).unwrap();
        assert!(mira.traits.is_empty(), "a One-Shot flaw goes after its use, with its modifier");
    }

    // --- awards

    #[test]
    fn each_one_time_award_comes_once_and_memorable_awards_once_per_arc() {
        let mira = hero();
        let (mira, _) = award_edge_slots(&mira, SlotAward::FirstActionCheck).unwrap();
        assert_eq!(mira.edge_slots(), 4);
        assert_eq!(
            err(award_edge_slots(&mira, SlotAward::FirstActionCheck)),
            "award: Mira already had its first action check's slots"
        );
        let (mira, _) = join_challenge(&mira).unwrap();
        assert_eq!(mira.edge_slots(), 8, "4 for the first challenge");
        let (mira, _) = challenge_ended(&mira).unwrap();
        let (mira, _) = join_challenge(&mira).unwrap();
        assert_eq!(mira.edge_slots(), 8, "a second challenge gives none");
        let (mira, _) = challenge_ended(&mira).unwrap();
        let (_, mira, _) = claim(&actor(ADA, "Ada"), &mira).unwrap();
        assert_eq!(mira.edge_slots(), 10, "the first arc caps out at 10");
        assert_eq!(
            err(award_edge_slots(&mira, SlotAward::FirstClaim)),
            "award: Mira already had its first claim's slots"
        );
        assert!(err(award_edge_slots(&mira, SlotAward::Memorable { arc: 1 })).contains("given by a player"));

        let bo = player(BO, "Bo");
        let (mira, bo, events) = award_memorable(&mira, &bo, 1, true).unwrap();
        assert_eq!(mira.edge_slots(), 11);
        assert_eq!(bo.free_award_arc, Some(1));
        assert!(events.contains(&ElementEvent::FreeAwardUsed { player: id(BO), arc: 1 }));
        assert_eq!(
            err(award_memorable(&mira, &player(ADA, "Ada"), 1, false)),
            "award: Mira already had a memorable-element award in arc 1"
        );
        let tower = Element::new(id(TOWER), ElementKind::Location, "Tower").unwrap();
        assert_eq!(
            err(award_memorable(&tower, &bo, 1, true)),
            "undisputable: Bo already gave their undisputable award of arc 1"
        );
        let (tower, _, _) = award_memorable(&tower, &bo, 1, false).unwrap();
        assert_eq!(tower.edge_slots(), 1, "a disputable award the table let stand");
        let (mira, _, _) = award_memorable(&mira, &bo, 2, true).unwrap();
        assert_eq!(mira.edge_slots(), 12);
        assert_eq!(mira.awards.memorable_arcs, vec![1, 2]);
    }

    // --- adversity

    #[test]
    fn gained_adversity_pays_the_debt_first() {
        let mira = Element { adversity_debt: 3, ..hero() };
        let (mira, events) = gain_adversity(&mira, 2).unwrap();
        assert_eq!((mira.adversity, mira.adversity_debt), (0, 1));
        assert_eq!(
            events,
            vec![ElementEvent::AdversityGained {
                element: id(HERO),
                points: 2,
                debt_paid: 2,
                before: 0,
                after: 0,
                debt_before: 3,
                debt_after: 1
            }]
        );
        let (mira, _) = gain_adversity(&mira, 4).unwrap();
        assert_eq!((mira.adversity, mira.adversity_debt), (3, 0));
    }

    #[test]
    fn adversity_buys_its_benefits_at_their_costs() {
        let costs = [
            (AdversitySpend::OvercomeFlaws { flaw: id(30) }, 2),
            (AdversitySpend::FortunesFavor, 2),
            (AdversitySpend::SuddenSurge, 3),
            (AdversitySpend::PlotHook { points: 2 }, 2),
        ];
        let mira = with(&with_adversity(&hero(), 9), Trait::new(id(30), TraitKind::Flaw, "Greedy", Via::Granted));
        for (spend, cost) in costs {
            assert_eq!(spend.cost(), cost);
            let (after, _) = spend_adversity(&mira, &spend, id(ADA), false).unwrap();
            assert_eq!(after.adversity, 9 - cost, "{spend:?}");
        }
        assert!(err(spend_adversity(&mira, &AdversitySpend::OvercomeFlaws { flaw: id(31) }, id(ADA), false))
            .starts_with("flaw: Mira has no trait"));
    }

    #[test]
    fn a_shortfall_is_paid_as_debt_only_with_some_adversity_and_for_the_four_benefits() {
        let mira = with_adversity(&hero(), 1);
        assert_eq!(
            err(spend_adversity(&mira, &AdversitySpend::SuddenSurge, id(ADA), false)),
            "adversity: Mira holds 1 adversity and this costs 3: the shortfall may be taken as adversity debt if the player agrees to it"
        );
        let (after, events) = spend_adversity(&mira, &AdversitySpend::SuddenSurge, id(ADA), true).unwrap();
        assert_eq!((after.adversity, after.adversity_debt), (0, 2));
        assert!(matches!(events[0], ElementEvent::AdversitySpent { from_adversity: 1, debt_taken: 2, cost: 3, .. }));
        assert!(err(spend_adversity(&after, &AdversitySpend::FortunesFavor, id(ADA), true))
            .ends_with("debt can only cover the rest when at least 1 adversity is held"));
        assert!(err(spend_adversity(&mira, &AdversitySpend::PlotHook { points: 2 }, id(ADA), true))
            .ends_with("debt covers only Overcome Flaws, Fortune's Favor, Sudden Surge and Unexpected Edge"));
        // Ill Fated and Tempting Target pay debt off.
        let (paid, _) = pay_off_debt(&after, 1, DebtPayoff::IllFated).unwrap();
        assert_eq!(paid.adversity_debt, 1);
        assert_eq!(
            err(pay_off_debt(&paid, 2, DebtPayoff::TemptingTarget)),
            "points: Mira owes 1 adversity debt, not 2"
        );
    }

    #[test]
    fn an_unexpected_edge_needs_a_challenge_with_no_fitting_trait_and_takes_no_slot() {
        let spend = |fits: bool| AdversitySpend::UnexpectedEdge {
            edge: Box::new(Trait::new(id(20), TraitKind::Edge, "Desperate strength", Via::Granted)),
            no_fitting_trait: fits,
        };
        let mira = with_adversity(&hero_with_slots(), 5);
        assert_eq!(
            err(spend_adversity(&mira, &spend(true), id(ADA), false)),
            "spend: an unexpected edge is bought only in a challenge"
        );
        let (mira, _) = join_challenge(&mira).unwrap();
        assert!(err(spend_adversity(&mira, &spend(false), id(ADA), false)).starts_with("no_fitting_trait"));
        let (after, _) = spend_adversity(&mira, &spend(true), id(ADA), false).unwrap();
        assert_eq!(after.adversity, 0);
        assert_eq!(after.traits[0].via, Via::UnexpectedEdge);
        assert_eq!(after.free_slots(), mira.free_slots(), "no slot used");
        let (lost, events) = remove_trait(&after, id(20)).unwrap();
        assert!(matches!(events[0], ElementEvent::TraitRemoved { freed_slot: false, .. }));
        assert_eq!(lost.free_slots(), mira.free_slots(), "and none freed when lost");
        // With 3 adversity and debt allowed, the rest is debt.
        let (mira3, _) = join_challenge(&with_adversity(&hero(), 3)).unwrap();
        let (after, _) = spend_adversity(&mira3, &spend(true), id(ADA), true).unwrap();
        assert_eq!((after.adversity, after.adversity_debt), (0, 2));
    }

    #[test]
    fn a_background_buys_a_phantom_edge_for_the_scene() {
        let mira = with(&with_adversity(&hero_with_slots(), 1), edge(20, Template::Background, "Sailor"));
        let spend = AdversitySpend::Background {
            background: id(20),
            edge: Box::new(Trait::new(id(21), TraitKind::Edge, "Knots", Via::EdgeSlot)),
        };
        let (mira, _) = spend_adversity(&mira, &spend, id(ADA), false).unwrap();
        assert_eq!(mira.traits[1].lasts, Lasts::Scene);
        assert_eq!(mira.filled_slots(), 1);
        let (mira, _) = end_scene(&mira);
        assert_eq!(mira.traits.len(), 1, "the phantom edge went with the scene");
    }

    // --- momentum

    #[test]
    fn a_challenger_gains_at_most_five_boost_awards_per_challenge() {
        let mira = hero();
        assert!(err(gain_momentum(&mira, 1, MomentumSource::Boost)).contains("not in a challenge"));
        let (mira, _) = join_challenge(&mira).unwrap();
        let (mira, _) = gain_momentum(&mira, 3, MomentumSource::Boost).unwrap();
        assert_eq!(
            err(gain_momentum(&mira, 3, MomentumSource::Boost)),
            "points: Mira gained 3 of its 5 momentum-boost awards this challenge: 2 more at most"
        );
        let (mira, _) = gain_momentum(&mira, 2, MomentumSource::Boost).unwrap();
        assert_eq!((mira.momentum, mira.momentum_awards), (5, 5));
        assert!(gain_momentum(&mira, 1, MomentumSource::Boost).is_err());
        let (mira, _) = gain_momentum(&mira, 2, MomentumSource::PlotHook).unwrap();
        assert_eq!(mira.momentum, 7, "a plot hook's momentum is no boost award");
        assert_eq!(
            err(gain_momentum(&mira, 1, MomentumSource::Ruin)),
            "source: Ruin gives its momentum to the goal that lost a trump"
        );
        let (mira, events) = challenge_ended(&mira).unwrap();
        assert_eq!((mira.momentum, mira.momentum_awards), (0, 0), "unspent momentum is lost");
        assert_eq!(events[0], ElementEvent::ChallengeEnded { element: id(HERO), momentum_lost: 7 });
        let (mira, _) = join_challenge(&mira).unwrap();
        assert!(gain_momentum(&mira, 5, MomentumSource::Boost).is_ok(), "a new challenge, five more");
    }

    #[test]
    fn momentum_buys_boons_and_a_defeat_turns_two_into_one_adversity() {
        assert_eq!(
            [1, 2, 3, 4, 5, 7].map(|uses| Boon::Uses { uses }.cost()),
            [1, 2, 2, 3, 3, 4],
            "1 for one use, 1 per 2 more"
        );
        assert_eq!((Boon::OneChallenge.cost(), Boon::OneArc.cost()), (3, 5));
        let mira = Element { momentum: 5, adversity_debt: 1, ..hero() };
        let (after, _) = spend_momentum(&mira, &MomentumSpend::DefeatConversion { adversity: 2 }, id(ADA)).unwrap();
        assert_eq!((after.momentum, after.adversity, after.adversity_debt), (1, 1, 0), "debt paid first");
        assert_eq!(
            err(spend_momentum(&mira, &MomentumSpend::DefeatConversion { adversity: 3 }, id(ADA))),
            "momentum: Mira holds 5 momentum; this costs 6"
        );
        let arc_boon = MomentumSpend::Boon {
            boon: Boon::OneArc,
            edge: Box::new(Trait::new(id(20), TraitKind::Edge, "Hero of the hour", Via::Granted)),
        };
        let (after, _) = spend_momentum(&mira, &arc_boon, id(ADA)).unwrap();
        assert_eq!((after.momentum, after.traits[0].lasts, after.traits[0].via), (0, Lasts::Arc, Via::Boon));
    }

    #[test]
    fn a_trump_draws_at_most_four_from_its_goal_and_trumps_are_lost_when_the_challenge_ends() {
        let quest = Element::new(id(QUEST), ElementKind::Goal, "Reach the cove").unwrap();
        let quest = with(&quest, Trait::from_template(id(20), Template::Trump, "Trump", Via::Granted));
        let quest = Element { momentum: 6, ..quest };
        assert!(quest.ruin_proof(), "6 momentum ≥ 2 × 1 trump");
        let draw = |points| MomentumSpend::TrumpTransfer { trump: id(20), points };
        assert_eq!(
            err(spend_momentum(&quest, &draw(5), id(ADA))),
            "points: a trump draws at most 4 momentum from its goal"
        );
        let (after, _) = spend_momentum(&quest, &draw(4), id(ADA)).unwrap();
        assert_eq!(after.momentum, 2);
        let (after, _) = gain_momentum(&after, 1, MomentumSource::Ruin).unwrap();
        assert_eq!(after.momentum, 3);
        let (ended, _) = challenge_ended(&after).unwrap();
        assert_eq!((ended.trumps(), ended.momentum), (0, 0));
    }

    // --- challenges, scenes, arcs

    #[test]
    fn a_transient_flaw_grants_a_favored_flaw_when_the_challenge_ends() {
        let (mira, _) = join_challenge(&hero()).unwrap();
        let mira = with(&mira, Trait::from_template(id(30), Template::Vulnerability, "Off balance", Via::Granted));
        let mira =
            with(&mira, Trait::from_template(id(31), Template::TransientFlaw, "Transient", Via::Granted).on(id(30)));
        let (ended, events) = challenge_ended(&mira).unwrap();
        let favored = ended.trait_by_id(favored_flaw_id(id(31))).expect("a Favored Flaw");
        assert_eq!(
            (favored.template, favored.target_trait, favored.via),
            (Some(Template::FavoredFlaw), Some(id(30)), Via::Granted)
        );
        assert_eq!(favored.name, "Favored Flaw: Off balance");
        assert!(events.iter().any(|e| matches!(e, ElementEvent::TraitAdded { kind: TraitKind::Edge, .. })));
        // A second challenge's end grants no second one.
        let (again, _) = challenge_ended(&join_challenge(&ended).unwrap().0).unwrap();
        assert_eq!(again.traits.len(), 3);
        // Losing the modifier loses the Favored Flaw it granted.
        let (lost, _) = remove_trait(&ended, id(31)).unwrap();
        assert_eq!(lost.traits.len(), 1);
    }

    #[test]
    fn a_one_challenge_boon_lasts_through_the_next_challenge() {
        let mira = Element { momentum: 3, ..hero() };
        let boon = MomentumSpend::Boon {
            boon: Boon::OneChallenge,
            edge: Box::new(Trait::new(id(20), TraitKind::Edge, "Second wind", Via::Boon)),
        };
        let (mira, _) = spend_momentum(&mira, &boon, id(ADA)).unwrap();
        let (mira, _) = challenge_ended(&mira).unwrap();
        assert_eq!(mira.traits.len(), 1, "bought after leaving: the current challenge's end does not take it");
        let (mira, _) = join_challenge(&mira).unwrap();
        assert_eq!(mira.traits[0].lasts, Lasts::Challenge);
        let (mira, _) = challenge_ended(&mira).unwrap();
        assert!(mira.traits.is_empty());
    }

    #[test]
    fn the_arc_end_drains_adversity_debt_and_momentum_and_one_arc_traits() {
        let mira = with(&hero_with_slots(), edge(20, Template::Ability, "Swordplay"));
        let mira = Element { adversity: 0, adversity_debt: 2, momentum: 5, ..mira };
        let mira = spend_momentum(
            &mira,
            &MomentumSpend::Boon {
                boon: Boon::OneArc,
                edge: Box::new(Trait::new(id(21), TraitKind::Edge, "Fame", Via::Boon)),
            },
            id(ADA),
        )
        .map(|(e, _)| Element { momentum: 3, ..e })
        .unwrap();
        let (in_challenge, _) = join_challenge(&mira).unwrap();
        assert!(err(end_arc(&in_challenge)).contains("still in a challenge"));
        let (ended, events) = end_arc(&mira).unwrap();
        assert_eq!((ended.adversity, ended.adversity_debt, ended.momentum), (0, 0, 0));
        assert_eq!(ended.traits.len(), 1, "the one-arc boon expired, the edge stays");
        assert_eq!(ended.edge_slots(), 4, "slots are kept");
        assert_eq!(
            events[0],
            ElementEvent::ArcEnded { element: id(HERO), adversity_lost: 0, debt_lost: 2, momentum_lost: 3 }
        );
    }

    #[test]
    fn plot_protection_is_sacrificed_until_the_challenge_is_over() {
        let mira = hero();
        assert!(!mira.has_plot_protection());
        assert_eq!(err(final_counter(&mira)), "element: Mira has no Plot Protection");
        let (mira, _) = join_challenge(&mira).unwrap();
        assert_eq!(mira.protection_sources(), vec![ProtectionSource::Challenge], "Protected Event");
        let (countered, _) = final_counter(&mira).unwrap();
        assert!(!countered.has_plot_protection());
        assert_eq!(err(final_counter(&countered)), "element: Mira already sacrificed its protection");
        let (ended, _) = challenge_ended(&countered).unwrap();
        assert!(!ended.plot_protection.sacrificed);

        // Heroic Sacrifice: the edge's protection lent to the tower.
        let mira = with(&hero_with_slots(), edge(20, Template::PlotProtection, "Plot Protection"));
        let tower = Element::new(id(TOWER), ElementKind::Location, "Tower").unwrap();
        assert_eq!(err(final_counter(&mira)), "element: Final Counter is used during a challenge");
        let (mira, tower, _) = heroic_sacrifice(&mira, &tower).unwrap();
        assert!(!mira.has_plot_protection() && tower.has_plot_protection());
        assert_eq!(tower.protection_sources(), vec![ProtectionSource::Lent]);
        let (mira, _) = end_scene(&mira);
        let (tower, _) = end_scene(&tower);
        assert!(mira.has_plot_protection() && !tower.has_plot_protection());
    }

    #[test]
    fn elements_and_players_round_trip_and_refuse_unknown_fields() {
        let (ada, mira, _) = claim(&actor(ADA, "Ada"), &hero_with_slots()).unwrap();
        let mira = with(&mira, edge(20, Template::Ability, "Swordplay"));
        let json = serde_json::to_string(&mira).unwrap();
        assert!(json.contains("\"kind\":\"character\"") && json.contains("\"template\":\"ability\""), "{json}");
        assert_eq!(serde_json::from_str::<Element>(&json).unwrap(), mira);
        assert_eq!(serde_json::from_str::<Player>(&serde_json::to_string(&ada).unwrap()).unwrap(), ada);
        let extra = json.replacen('{', "{\"hp\":3,", 1);
        assert!(serde_json::from_str::<Element>(&extra).is_err());
        let award = serde_json::to_string(&SlotAward::Memorable { arc: 2 }).unwrap();
        assert_eq!(award, r#"{"kind":"memorable","arc":2}"#);
    }

    #[test]
    fn problems_name_what_a_stored_element_breaks() {
        let bad = Element { adversity: 1, adversity_debt: 1, momentum_awards: 6, ..hero() };
        let bad = Element { traits: vec![Trait::new(id(20), TraitKind::Edge, "Lucky", Via::EdgeSlot)], ..bad };
        let paths: Vec<String> = bad.problems().into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["adversity_debt", "momentum_awards", "traits"]);
    }

    // --- properties

    #[derive(Clone, Debug)]
    enum Op {
        Gain(u32),
        Spend(u8, bool),
        PayOff(u32),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (1u32..6).prop_map(Op::Gain),
            (0u8..4, any::<bool>()).prop_map(|(s, d)| Op::Spend(s, d)),
            (1u32..3).prop_map(Op::PayOff),
        ]
    }

    proptest! {
        #[test]
        fn adversity_debt_is_paid_before_adversity_accrues(ops in proptest::collection::vec(op(), 1..40)) {
            let mut e = hero();
            for op in ops {
                let before = e.clone();
                match op {
                    Op::Gain(n) => {
                        e = gain_adversity(&e, n).unwrap().0;
                        prop_assert_eq!(e.adversity_debt, before.adversity_debt.saturating_sub(n));
                        prop_assert_eq!(e.adversity, before.adversity + n.saturating_sub(before.adversity_debt));
                    }
                    Op::Spend(which, debt) => {
                        let spend = [AdversitySpend::FortunesFavor, AdversitySpend::SuddenSurge,
                            AdversitySpend::PlotHook { points: 1 }, AdversitySpend::SuddenSurge][which as usize].clone();
                        match spend_adversity(&e, &spend, id(ADA), debt) {
                            Ok((after, _)) => {
                                prop_assert!(before.adversity >= 1);
                                prop_assert_eq!(
                                    before.adversity + after.adversity_debt,
                                    after.adversity + before.adversity_debt + spend.cost()
                                );
                                e = after;
                            }
                            Err(_) => prop_assert!(before.adversity < spend.cost()),
                        }
                    }
                    Op::PayOff(n) => {
                        if let Ok((after, _)) = pay_off_debt(&e, n, DebtPayoff::IllFated) {
                            e = after;
                        }
                    }
                }
                prop_assert!(e.adversity == 0 || e.adversity_debt == 0, "{:?}", e);
                prop_assert!(e.problems().is_empty());
            }
        }

        #[test]
        fn momentum_boost_awards_never_pass_five_a_challenge(
            steps in proptest::collection::vec((1u32..4, any::<bool>(), 0u8..6), 1..40)
        ) {
            let mut e = join_challenge(&hero()).unwrap().0;
            let mut gained_this_challenge = 0;
            for (points, end, spend) in steps {
                if end {
                    e = challenge_ended(&e).unwrap().0;
                    e = join_challenge(&e).unwrap().0;
                    gained_this_challenge = 0;
                    prop_assert_eq!(e.momentum, 0);
                }
                if spend > 0 && e.momentum > 0 {
                    e = spend_momentum(&e, &MomentumSpend::VictoryNarration { votes: 1 }, id(ADA)).unwrap().0;
                }
                match gain_momentum(&e, points, MomentumSource::Boost) {
                    Ok((after, _)) => {
                        gained_this_challenge += points;
                        e = after;
                    }
                    Err(_) => prop_assert!(gained_this_challenge + points > MAX_MOMENTUM_AWARDS),
                }
                prop_assert!(e.momentum_awards <= MAX_MOMENTUM_AWARDS);
                prop_assert_eq!(e.momentum_awards, gained_this_challenge);
                prop_assert!(e.momentum <= MAX_MOMENTUM_AWARDS, "boosts alone never give more than 5 a challenge");
            }
        }

        #[test]
        fn edge_slot_awards_happen_once(awards in proptest::collection::vec(0u8..7, 1..30)) {
            // 0: first action check (refused again); 1: a challenge (gives nothing again);
            // 2: claim or unclaim (gives nothing again); 3..=6: memorable in that arc.
            let mut e = hero();
            let mut ada = actor(ADA, "Ada");
            let mut had: Vec<u8> = Vec::new();
            for a in awards {
                let before = e.clone();
                let result = match a {
                    0 => award_edge_slots(&e, SlotAward::FirstActionCheck).map(|r| r.0),
                    1 => join_challenge(&e).and_then(|(j, _)| challenge_ended(&j)).map(|r| r.0),
                    2 if e.claimed_by.is_some() => unclaim(&ada, &e).map(|(p, el, _)| { ada = p; el }),
                    2 => claim(&ada, &e).map(|(p, el, _)| { ada = p; el }),
                    arc => award_memorable(&e, &player(BO, "Bo"), u32::from(arc), false).map(|r| r.0),
                };
                let again = had.contains(&a);
                match result {
                    Ok(after) => {
                        prop_assert!(!again || a == 1 || a == 2, "award {} given twice", a);
                        if again {
                            prop_assert_eq!(after.edge_slots(), before.edge_slots());
                        }
                        e = after;
                    }
                    Err(_) => {
                        prop_assert!(again && a != 1 && a != 2);
                        prop_assert_eq!(&e, &before);
                    }
                }
                if !had.contains(&a) && (a != 2 || e.claimed_by.is_some()) {
                    had.push(a);
                }
                let expected: u32 = had.iter().map(|&g| match g { 0 | 1 => 4, 2 => 2, _ => 1 }).sum();
                prop_assert_eq!(e.edge_slots(), expected);
                prop_assert!(e.problems().is_empty());
            }
        }
    }
}
