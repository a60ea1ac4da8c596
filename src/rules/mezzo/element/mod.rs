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
//!   Ability, the element an Asset selects, a Specialty's two perks) are the trait's text; an
//!   Asset Investment's lent edge is added by the table as a granted trait. A Signature Flaw
//!   grants the flaw its set-up names, with a Favored Flaw and Empowering Flaw on it
//!   ([`signature_grant_ids`]); an Asset's lost access grants a Favored Flaw on the Asset
//!   ([`lose_asset_access`]); each goes with the trait that granted it.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::model::name_problem;
use crate::Problem;

pub use super::text::MAX_TEXT_CHARS;
pub(crate) use super::text::{clean_name, clean_text};

/// Influence each player holds at the start of an arc.
pub const START_INFLUENCE: u32 = 3;
/// A player's free votes in a conflict.
pub const FREE_VOTES: u32 = 1;
/// An Actor's free votes on matters of a character they claimed (Creative Control).
pub const CREATIVE_CONTROL_VOTES: u32 = 3;
// The momentum-boost limits (RULES.md §3.4), here only: the challenge and the element moves
// both read them.
/// Momentum boosts one owner (a wound or restraint's holder) triggers in a challenge.
pub const MAX_BOOSTS_PER_OWNER: u32 = 5;
/// Momentum-boost awards a challenger may gain in one challenge.
pub const MAX_MOMENTUM_AWARDS: u32 = 5;
/// Momentum a trump may draw from its goal when it triggers.
pub const MAX_TRUMP_TRANSFER: u32 = 4;
/// The most traits an element holds (with its extras and modifiers).
pub const MAX_TRAITS: usize = 200;
/// The most memorable-element awards an element keeps (one an arc at most).
pub const MAX_MEMORABLE_ARCS: usize = 1_000;

mod lifecycle;
mod player;
mod resources;
#[cfg(test)]
mod tests;
mod traits;

pub use self::lifecycle::*;
pub use self::player::*;
pub use self::resources::*;
pub use self::traits::*;

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
    /// Protection a Heroic Sacrifice lent ended (its challenge or scene is over).
    LentProtectionEnded {
        element: Uuid,
        from: Uuid,
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

/// Declares a fieldless enum with `ALL`, every variant in the order declared, so that a list
/// of them all (the store's schema checks it) cannot fall behind the enum.
macro_rules! enum_with_all {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$variant_meta:meta])* $variant:ident,)* }) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)*
        }

        impl $name {
            /// Every variant, in the order declared.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
        }
    };
}

enum_with_all! {
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
    /// A Favored Flaw that already gave its owner adversity in this scene or challenge (the
    /// seed allows it once per challenge or scene); cleared when that ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub favored_used: bool,
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
            favored_used: false,
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
    /// Flaws a claimed stake gave it: they count as gained in the next challenge it joins
    /// (their momentum boosts, Heal and Recover), as the perk would have in its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<Uuid>,
}

impl Element {
    /// A new element: no traits, slots or resources.
    pub fn new(id: Uuid, kind: ElementKind, name: &str) -> Result<Element> {
        Ok(Element::blank(id, kind, clean_name("name", name)?))
    }

    /// A new element named `name`, which is clean already (a character's checked name).
    pub(crate) fn blank(id: Uuid, kind: ElementKind, name: String) -> Element {
        Element {
            id,
            kind,
            name,
            traits: Vec::new(),
            adversity: 0,
            adversity_debt: 0,
            momentum: 0,
            momentum_awards: 0,
            in_challenge: false,
            plot_protection: PlotProtection::default(),
            claimed_by: None,
            awards: Awards::default(),
            carried: Vec::new(),
        }
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
    /// A trait with the Treacherous Edge modifier: a flaw now, its owner cannot use it, and
    /// an opponent may use it against them.
    pub fn is_treacherous(&self, id: Uuid) -> bool {
        self.has_attached(id, Template::TreacherousEdge)
    }

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
        for (i, f) in self.carried.iter().enumerate() {
            if !self.trait_by_id(*f).is_some_and(|t| t.kind == TraitKind::Flaw) || self.carried[..i].contains(f) {
                problem(format!("carried[{i}]"), format!("{f} is not one of its flaws (each carried once)"));
            }
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
            if t.favored_used && t.template != Some(Template::FavoredFlaw) {
                problem(format!("traits[{i}].favored_used"), "only a Favored Flaw is used up for a scene".into());
            }
        }
        problems
    }
}

// ---------------------------------------------------------------------------------------
// Helpers

/// Sealed Resources: only the claimer uses a claimed element's slots, adversity, momentum.
pub(in crate::rules::mezzo) fn sealed(element: &Element, by: Uuid, what: &str) -> Result<()> {
    match element.claimed_by {
        Some(holder) if holder != by => {
            Err(Error::invalid("by", format!("{} is claimed by another player: only they may {what}", element.name)))
        }
        _ => Ok(()),
    }
}

/// What is left of `held` once `points` are spent: refused naming `field`, in the words
/// `short` gives, when it holds fewer (influence, adversity debt, momentum).
fn spent(held: u32, points: u32, field: &str, short: impl FnOnce() -> String) -> Result<u32> {
    if points > held {
        return Err(Error::invalid(field, short()));
    }
    Ok(held - points)
}

fn at_least_one(field: &str, n: u32) -> Result<()> {
    if n == 0 {
        return Err(Error::invalid(field, "must be at least 1"));
    }
    Ok(())
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
