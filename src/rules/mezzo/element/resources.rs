//! An element's adversity, adversity debt and momentum.

use super::*;

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
    let after = spent(element.adversity_debt, points, "points", || {
        format!("{} owes {} adversity debt, not {points}", element.name, element.adversity_debt)
    })?;
    let event = ElementEvent::DebtPaidOff { element: element.id, points, how, before: element.adversity_debt, after };
    Ok((Element { adversity_debt: after, ..element.clone() }, vec![event]))
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
    let mut next = element.clone();
    next.momentum = spent(element.momentum, cost, "momentum", || {
        format!("{} holds {} momentum; this costs {cost}", element.name, element.momentum)
    })?;
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
