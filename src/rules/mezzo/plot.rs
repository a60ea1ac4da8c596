//! Mezzo plot hooks and arcs (RULES.md §3.5; the source's "Plot Hooks" and "Ending Arcs").
//! An [`Arc`] holds its number, whether its Turning Point was reached, and its open hooks.
//! Every move takes the arc by reference and returns the new arc, the resource changes it
//! causes ([`Grant`]s, for the service to apply to players and elements in the same
//! transaction) and what happened, or an [`Error::Invalid`] naming the field that changes
//! nothing. The rules here never see a player or an element: they are ids, and where a move
//! costs something the caller passes what the payer holds.
//!
//! What the source fixes, and these moves enforce:
//! - Making a hook ([`create_hook`]) costs 1 influence, 1 momentum or 2 adversity; twice as
//!   much after the Turning Point. Influence is a player's, adversity and momentum an
//!   element's.
//! - A triggered hook offers one effect per triggering action or event: invest
//!   ([`invest`], each kind of point kept apart), tap ([`tap`]: one point of a kind it
//!   holds) or resolve ([`resolve`]: the user takes 1 influence, 1 momentum or 2 adversity,
//!   twice as much after the Turning Point, and shares the hook's points out so that nobody
//!   gets n + 1 before everyone has n).
//! - With several hooks triggered at once: Raise Stakes ([`raise_stakes`], at least 2)
//!   moves their points into one challenger's stake as momentum (1 influence, 1 momentum or
//!   2 adversity → 1 momentum); No Escape ([`no_escape`], at least 3) names an element whose
//!   Plot Protection the user may ignore, for 2 momentum, after leaving the challenge in
//!   victory ([`ignore_protection`]) until the challenge is over ([`challenge_over`]);
//!   the Turning Point ([`turning_point`], at least 5, once per arc, only during a
//!   challenge, the hooks holding at least one point per challenger) lets each challenger
//!   draw a point of adversity from the hooks, a theme per challenger who leaves
//!   ([`set_theme`]), doubles costs and rewards for the rest of the arc, and lets the arc
//!   end.
//! - The arc ends ([`end_arc`]) only after its Turning Point: every element's adversity,
//!   adversity debt and momentum go to 0 and its one-arc boons expire, the open hooks expire
//!   with their points, memorable elements get their awards, and every player starts the
//!   next arc with 3 influence.
//!
//! Rulings where the source is silent:
//! - The *user* of a hook is the player who triggered it and, when they acted through an
//!   element or gave a detail about one, that element ([`User`]). Influence is paid by and
//!   goes to the player; adversity and momentum to and from the element.
//! - The creation cost is spent, not stored in the hook; a hook starts empty. Adversity debt
//!   cannot pay for a hook or an investment: the payer must hold the points.
//! - An investment is one kind of point, 1 or more, from the user. A tap takes the most
//!   recently invested point of the kind asked for; each investment remembers who made it.
//! - Invest, tap and resolve act on one of the triggered hooks; the multi-hook options act
//!   on all the hooks named, which must be distinct open hooks of the arc.
//! - Sharing out on resolve: the potential targets are every other player (for influence)
//!   and every other element (for adversity and momentum) that the caller lists — the user's
//!   own player and element are left out. Adversity and momentum points are counted
//!   together, a point being a point; influence is counted among the players. Every point
//!   the hook holds is handed out, in whatever order the user likes as long as no target
//!   ends more than one point ahead of another (which is exactly what awarding them one at
//!   a time under the cap allows). A kind with no potential target is lost.
//!   [`even_share`] proposes a share: round robin in the order the targets are listed.
//! - Raise Stakes moves adversity two points at a time (an odd total is refused) and at
//!   least one point; the momentum goes into the challenger's stake, not its reserves
//!   ([`Grant::stake`]).
//! - No Escape names one target per challenger per challenge, never the challenger itself.
//!   Ignoring Plot Protection costs 2 momentum of the challenger (not doubled: it is no hook
//!   cost).
//! - The Turning Point's "adversity sacrifice" takes a point of momentum or influence out of
//!   one of the triggered hooks and puts 2 adversity into that hook; it is allowed only while
//!   the hooks hold less adversity than the challengers who draw. The minimum counts every
//!   point in the triggered hooks, whatever its kind. The move stands for an attempt the
//!   table did not block (a blocked attempt is a conflict, and changes nothing here).
//! - A theme of the arc is set at most once by each challenger of the Turning Point's
//!   challenge.
//! - Memorable-element awards: each element at most once per arc, each player at most one
//!   undisputable award; the others stood up to the table's dispute before they are passed
//!   in.
//! - Ending an arc starts the next one (number + 1) at once: a series goes on, and a table
//!   that stops simply does not play it.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::text::clean_line;
use crate::error::{Error, Result};

/// Influence each player holds at the start of an arc.
pub const NEXT_ARC_INFLUENCE: u32 = 3;
/// Triggered hooks Raise Stakes needs.
pub const RAISE_STAKES_HOOKS: usize = 2;
/// Triggered hooks No Escape needs.
pub const NO_ESCAPE_HOOKS: usize = 3;
/// Triggered hooks the Turning Point needs.
pub const TURNING_POINT_HOOKS: usize = 5;
/// Momentum No Escape's user spends to ignore the target's Plot Protection.
pub const NO_ESCAPE_COST: u32 = 2;
/// The most points of one kind a hook holds.
pub const MAX_STORED: u32 = 10_000;
/// The longest hook focus or arc theme, in characters.
pub const MAX_TEXT_CHARS: usize = 500;
/// The most open plot hooks an arc holds (a Turning Point ties in at most as many).
pub const MAX_HOOKS: usize = 200;
/// The most elements a hook's focus names.
pub const MAX_HOOK_ELEMENTS: usize = 100;

/// A point-based resource a hook costs, holds or rewards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    /// A player's.
    Influence,
    /// An element's.
    Adversity,
    /// An element's.
    Momentum,
}

impl Resource {
    pub const ALL: [Resource; 3] = [Resource::Influence, Resource::Adversity, Resource::Momentum];

    /// What a hook costs, and what resolving one gives, in this resource before the Turning
    /// Point: 2 adversity, else 1.
    pub fn base_amount(self) -> u32 {
        match self {
            Resource::Adversity => 2,
            Resource::Influence | Resource::Momentum => 1,
        }
    }

    /// Held by a player (influence), not by an element.
    pub fn is_players(self) -> bool {
        self == Resource::Influence
    }

    pub fn word(self) -> &'static str {
        match self {
            Resource::Influence => "influence",
            Resource::Adversity => "adversity",
            Resource::Momentum => "momentum",
        }
    }
}

/// Who triggered a hook: a player, and the element they acted through or gave a detail
/// about, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct User {
    pub player: Uuid,
    #[serde(default)]
    pub element: Option<Uuid>,
}

impl User {
    /// Who holds `resource` for this user: the player for influence, the element otherwise.
    pub fn holder(&self, resource: Resource, field: &str) -> Result<Uuid> {
        if resource.is_players() {
            return Ok(self.player);
        }
        self.element.ok_or_else(|| {
            Error::invalid(
                field,
                format!("{} is an element's: name the element the user acted through", resource.word()),
            )
        })
    }
}

/// A change of a resource for the service to apply: `amount` is added to what `to` holds
/// (negative: paid). Influence goes to a player, adversity and momentum to an element;
/// gained adversity pays the element's adversity debt first (the element rules do that).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grant {
    pub to: Uuid,
    pub resource: Resource,
    pub amount: i64,
    /// Momentum for the stake that challenger `to` set in the challenge, spendable by the
    /// stake's owners who leave in victory, in support of that stake (Raise Stakes).
    #[serde(default, skip_serializing_if = "crate::rules::is_default")]
    pub stake: bool,
}

impl Grant {
    fn of(to: Uuid, resource: Resource, amount: i64) -> Grant {
        Grant { to, resource, amount, stake: false }
    }
}

/// Points put into a hook by one investor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Investment {
    /// The player (influence) or element (adversity, momentum) that paid them.
    pub by: Uuid,
    pub resource: Resource,
    pub points: u32,
}

/// A plot hook: a question, goal or statement the table turned into a resource of the arc.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotHook {
    pub id: Uuid,
    /// The focus.
    pub text: String,
    /// The player who made it.
    pub creator: Uuid,
    /// The elements the focus is about, as the table lists them (for display and for
    /// suggesting triggers; triggering is the table's call).
    #[serde(default)]
    pub elements: Vec<Uuid>,
    /// Its points, oldest investment first.
    #[serde(default)]
    pub stored: Vec<Investment>,
}

impl PlotHook {
    /// The points of one kind it holds.
    pub fn points(&self, resource: Resource) -> u32 {
        self.stored.iter().filter(|i| i.resource == resource).map(|i| i.points).sum()
    }

    /// Every point it holds, whatever the kind.
    pub fn total(&self) -> u32 {
        self.stored.iter().map(|i| i.points).sum()
    }

    fn put(&mut self, by: Uuid, resource: Resource, points: u32, field: &str) -> Result<()> {
        let held = self.points(resource);
        if held.checked_add(points).is_none_or(|n| n > MAX_STORED) {
            return Err(Error::invalid(
                field,
                format!("the hook holds {held} {}; it holds at most {MAX_STORED} of a kind", resource.word()),
            ));
        }
        match self.stored.last_mut() {
            Some(last) if last.by == by && last.resource == resource => last.points += points,
            _ => self.stored.push(Investment { by, resource, points }),
        }
        Ok(())
    }

    /// Takes `points` of one kind out, the latest invested first.
    fn take(&mut self, resource: Resource, points: u32, field: &str) -> Result<Vec<Investment>> {
        let held = self.points(resource);
        if held < points {
            return Err(Error::invalid(
                field,
                format!("the hook “{}” holds {held} {}, not {points}", self.text, resource.word()),
            ));
        }
        let mut left = points;
        let mut taken = Vec::new();
        for inv in self.stored.iter_mut().rev().filter(|i| i.resource == resource) {
            if left == 0 {
                break;
            }
            let n = inv.points.min(left);
            inv.points -= n;
            left -= n;
            taken.push(Investment { by: inv.by, resource, points: n });
        }
        self.stored.retain(|i| i.points > 0);
        Ok(taken)
    }
}

/// A theme of the arc, set by a challenger leaving the Turning Point's challenge; it works as
/// a Setting Law until the arc ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    pub by: Uuid,
    pub text: String,
}

/// The arc's Turning Point, once reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurningPoint {
    /// The challenge it happened in.
    pub challenge: Uuid,
    /// That challenge's challengers, who may set the arc's themes.
    pub challengers: Vec<Uuid>,
    /// The hooks tied into it.
    pub hooks: Vec<Uuid>,
    #[serde(default)]
    pub themes: Vec<Theme>,
}

/// A No Escape target chosen with a challenger's stakes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoEscape {
    pub challenge: Uuid,
    /// The challenger (an element) that chose it.
    pub by: Uuid,
    /// The element to be removed.
    pub target: Uuid,
    /// The 2 momentum were spent: the target's Plot Protection is ignored until the
    /// challenge is over.
    #[serde(default)]
    pub used: bool,
}

/// A plot arc: its number, its Turning Point and its open hooks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arc {
    /// From 1.
    pub number: u32,
    #[serde(default)]
    pub turning_point: Option<TurningPoint>,
    /// Open hooks, oldest first (resolved and expired ones are gone; the log keeps them).
    #[serde(default)]
    pub hooks: Vec<PlotHook>,
    /// No Escape targets of challenges not over yet.
    #[serde(default)]
    pub no_escape: Vec<NoEscape>,
    /// Actions' side effects spreading through the story ([`Consequence`]).
    #[serde(default)]
    pub consequences: Vec<Consequence>,
}

/// The side effects of an action bought with the Lingering Consequences scope perk, kept as
/// an entry of the arc so the table remembers them. Ruling (the seed: Lingering "only spreads
/// until the end of the plot arc"; Contagious "keeps the action's Lingering Repercussions
/// perk from expiring at the end of a plot arc"): a lingering entry fades when the arc it was
/// made in ends; a contagious one (Contagious or Inescapable Consequences bought too) is kept
/// into the next arcs until the table strikes it out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Consequence {
    pub id: Uuid,
    /// The arc it was made in.
    pub arc: u32,
    /// What spreads, in the table's words.
    pub text: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub contagious: bool,
}

/// The most consequences an arc keeps.
pub const MAX_CONSEQUENCES: usize = 200;

impl Default for Arc {
    fn default() -> Self {
        Arc::new(1)
    }
}

/// The challenge being played, as the challenge rules know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InChallenge {
    pub id: Uuid,
    /// Its challengers (elements: characters and obstacles), still in it or not.
    pub challengers: Vec<Uuid>,
}

/// Points of one kind handed to one target when a hook is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Award {
    pub to: Uuid,
    pub resource: Resource,
    pub points: u32,
}

/// Who may get a resolved hook's points: the players and elements of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Targets {
    #[serde(default)]
    pub players: Vec<Uuid>,
    #[serde(default)]
    pub elements: Vec<Uuid>,
}

/// Points taken out of a hook by Raise Stakes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Take {
    pub hook: Uuid,
    pub resource: Resource,
    pub points: u32,
}

/// Turning Point: a point of momentum or influence in `hook` becomes 2 adversity there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sacrifice {
    pub hook: Uuid,
    pub resource: Resource,
}

/// Turning Point: `challenger` draws a point of adversity from `hook`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoostDraw {
    pub challenger: Uuid,
    pub hook: Uuid,
}

/// An edge-slot award to a memorable element at the end of the arc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemorableAward {
    /// The player giving it.
    pub by: Uuid,
    pub element: Uuid,
    /// The player's one award of the arc that cannot be disputed.
    #[serde(default)]
    pub undisputable: bool,
}

/// A value the arc's end sets outright.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tracked {
    Influence,
    Adversity,
    AdversityDebt,
    Momentum,
}

/// `of`'s `what` becomes `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reset {
    pub of: Uuid,
    pub what: Tracked,
    pub to: u32,
}

/// What the end of an arc does to players and elements, for the service to apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArcEnding {
    /// The arc that ended.
    pub arc: u32,
    /// Adversity, adversity debt and momentum of every element to 0; influence of every
    /// player to 3 for the next arc.
    pub resets: Vec<Reset>,
    /// Elements whose one-arc boons (and anything else lasting the arc) expire.
    pub boons_expire: Vec<Uuid>,
    /// One edge slot each.
    pub memorable: Vec<MemorableAward>,
    /// The hooks that expired, with the points they held (lost).
    pub expired_hooks: Vec<PlotHook>,
}

/// A kind of points lost because nobody could be given them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lost {
    pub resource: Resource,
    pub points: u32,
}

/// What a plot move did, for the log and the toast.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum PlotEvent {
    HookCreated {
        hook: Uuid,
        text: String,
        creator: Uuid,
        paid: Grant,
    },
    Invested {
        hook: Uuid,
        by: Uuid,
        resource: Resource,
        points: u32,
    },
    Tapped {
        hook: Uuid,
        to: Uuid,
        resource: Resource,
        from: Uuid,
    },
    Resolved {
        hook: Uuid,
        text: String,
        reward: Grant,
        shared: Vec<Award>,
        lost: Vec<Lost>,
    },
    StakesRaised {
        hooks: Vec<Uuid>,
        challenge: Uuid,
        challenger: Uuid,
        taken: Vec<Take>,
        momentum: u32,
    },
    NoEscapeChosen {
        hooks: Vec<Uuid>,
        challenge: Uuid,
        by: Uuid,
        target: Uuid,
    },
    ProtectionIgnored {
        challenge: Uuid,
        by: Uuid,
        target: Uuid,
    },
    NoEscapeLapsed {
        challenge: Uuid,
        by: Uuid,
        target: Uuid,
    },
    TurningPoint {
        arc: u32,
        challenge: Uuid,
        hooks: Vec<Uuid>,
        sacrifices: Vec<Sacrifice>,
        draws: Vec<BoostDraw>,
    },
    ThemeSet {
        by: Uuid,
        text: String,
    },
    MemorableAwarded {
        by: Uuid,
        element: Uuid,
        undisputable: bool,
    },
    ArcEnded {
        number: u32,
        expired_hooks: Vec<Uuid>,
        points_lost: u32,
    },
    ConsequenceKept {
        id: Uuid,
        text: String,
        contagious: bool,
    },
    ConsequenceStruck {
        id: Uuid,
        text: String,
    },
    /// At the arc's end: lingering consequences fade, contagious ones carry on.
    ConsequencesFaded {
        faded: Vec<Uuid>,
        kept: Vec<Uuid>,
    },
    ArcStarted {
        number: u32,
    },
}

/// A move's result: the new arc, the resource changes for players and elements, and what
/// happened.
pub type Moved = (Arc, Vec<Grant>, Vec<PlotEvent>);

fn to_i64(n: u32) -> i64 {
    i64::from(n)
}

impl Arc {
    pub fn new(number: u32) -> Arc {
        Arc { number, turning_point: None, hooks: Vec::new(), no_escape: Vec::new(), consequences: Vec::new() }
    }

    pub fn turning_point_reached(&self) -> bool {
        self.turning_point.is_some()
    }

    /// 2 after the Turning Point (Resolution), else 1.
    pub fn multiplier(&self) -> u32 {
        if self.turning_point_reached() {
            2
        } else {
            1
        }
    }

    /// What making a hook costs, paid in `resource`.
    pub fn hook_cost(&self, resource: Resource) -> u32 {
        resource.base_amount() * self.multiplier()
    }

    /// What resolving a hook gives its user, taken in `resource`.
    pub fn resolve_reward(&self, resource: Resource) -> u32 {
        resource.base_amount() * self.multiplier()
    }

    /// The arc may end (at the end of a scene): its Turning Point was reached.
    pub fn can_end(&self) -> bool {
        self.turning_point_reached()
    }

    pub fn hook(&self, id: Uuid) -> Result<&PlotHook> {
        self.hooks.iter().find(|h| h.id == id).ok_or_else(|| no_hook("hook", id))
    }

    fn index(&self, id: Uuid, field: &str) -> Result<usize> {
        self.hooks.iter().position(|h| h.id == id).ok_or_else(|| no_hook(field, id))
    }

    /// The open hooks: the facts the Law of Inertia may use when the arc's end is disputed.
    pub fn open_hooks(&self) -> &[PlotHook] {
        &self.hooks
    }
}

fn no_hook(field: &str, id: Uuid) -> Error {
    Error::invalid(field, format!("there is no open plot hook {id} in this arc"))
}

fn check_has(has: u32, cost: u32, resource: Resource, doing: &str) -> Result<()> {
    if has < cost {
        return Err(Error::invalid("has", format!("holds {has} {r}; {doing} costs {cost} {r}", r = resource.word())));
    }
    Ok(())
}

/// Turns an idea brought up in play into a plot hook `id` with focus `text`, paid by `user`
/// in `pay_with` (1 influence, 1 momentum or 2 adversity; doubled after the Turning Point).
/// `has` is what the payer holds of it.
pub fn create_hook(
    arc: &Arc,
    id: Uuid,
    text: &str,
    elements: &[Uuid],
    user: &User,
    pay_with: Resource,
    has: u32,
) -> Result<Moved> {
    if arc.hooks.iter().any(|h| h.id == id) {
        return Err(Error::invalid("id", format!("the arc already has a plot hook {id}")));
    }
    let text = clean_line("text", text, MAX_TEXT_CHARS)?;
    let payer = user.holder(pay_with, "pay_with")?;
    let cost = arc.hook_cost(pay_with);
    check_has(has, cost, pay_with, "making a plot hook")?;
    if arc.hooks.len() >= MAX_HOOKS {
        return Err(Error::invalid("id", format!("an arc holds at most {MAX_HOOKS} open plot hooks")));
    }
    let mut seen = BTreeSet::new();
    let ties: Vec<Uuid> = elements.iter().copied().filter(|e| seen.insert(*e)).collect();
    if ties.len() > MAX_HOOK_ELEMENTS {
        return Err(Error::invalid("elements", format!("a hook names at most {MAX_HOOK_ELEMENTS} elements")));
    }
    let mut next = arc.clone();
    next.hooks.push(PlotHook { id, text: text.clone(), creator: user.player, elements: ties, stored: Vec::new() });
    let paid = Grant::of(payer, pay_with, -to_i64(cost));
    Ok((next, vec![paid], vec![PlotEvent::HookCreated { hook: id, text, creator: user.player, paid }]))
}

/// Invest: the user stores `points` of `resource` in a triggered hook. `has` is what the
/// payer holds of it.
pub fn invest(arc: &Arc, hook: Uuid, user: &User, resource: Resource, points: u32, has: u32) -> Result<Moved> {
    if points == 0 {
        return Err(Error::invalid("points", "must be at least 1"));
    }
    let i = arc.index(hook, "hook")?;
    let by = user.holder(resource, "resource")?;
    check_has(has, points, resource, "this investment")?;
    let mut next = arc.clone();
    next.hooks[i].put(by, resource, points, "points")?;
    Ok((next, vec![Grant::of(by, resource, -to_i64(points))], vec![PlotEvent::Invested { hook, by, resource, points }]))
}

/// Tap: the user draws one point of `resource` from a triggered hook into their reserves.
pub fn tap(arc: &Arc, hook: Uuid, user: &User, resource: Resource) -> Result<Moved> {
    let i = arc.index(hook, "hook")?;
    let to = user.holder(resource, "resource")?;
    let mut next = arc.clone();
    let taken = next.hooks[i].take(resource, 1, "resource")?;
    Ok((next, vec![Grant::of(to, resource, 1)], vec![PlotEvent::Tapped { hook, to, resource, from: taken[0].by }]))
}

/// `list` without `user` and repeats, in order.
fn others(list: &[Uuid], user: Option<Uuid>) -> Vec<Uuid> {
    let mut out: Vec<Uuid> = Vec::new();
    for id in list {
        if Some(*id) != user && !out.contains(id) {
            out.push(*id);
        }
    }
    out
}

/// Round robin over `targets` in order, the kinds one after the other.
fn deal(targets: &[Uuid], kinds: &[(Resource, u32)], out: &mut Vec<Award>) {
    let n = targets.len() as u64;
    if n == 0 {
        return;
    }
    let mut dealt = 0u64;
    for &(resource, points) in kinds {
        let points = u64::from(points);
        for (j, &to) in targets.iter().enumerate() {
            let j = j as u64;
            // Slots dealt..dealt+points; slot k goes to target k % n.
            let first = (j + n - dealt % n) % n + dealt;
            let end = dealt + points;
            let count = if first < end { (end - first).div_ceil(n) } else { 0 };
            if count > 0 {
                out.push(Award { to, resource, points: u32::try_from(count).unwrap_or(u32::MAX) });
            }
        }
        dealt += points;
    }
}

/// A share of `hook`'s points that the rule allows: round robin in the order the targets
/// are listed (influence among the other players, then adversity followed by momentum among
/// the other elements), so the first listed get the odd points.
pub fn even_share(hook: &PlotHook, user: &User, targets: &Targets) -> Vec<Award> {
    let mut out = Vec::new();
    deal(
        &others(&targets.players, Some(user.player)),
        &[(Resource::Influence, hook.points(Resource::Influence))],
        &mut out,
    );
    deal(
        &others(&targets.elements, user.element),
        &[
            (Resource::Adversity, hook.points(Resource::Adversity)),
            (Resource::Momentum, hook.points(Resource::Momentum)),
        ],
        &mut out,
    );
    out
}

/// Checks a share of `hook`'s points; returns the kinds nobody could be given.
fn check_share(hook: &PlotHook, user: &User, targets: &Targets, share: &[Award]) -> Result<Vec<Lost>> {
    let players = others(&targets.players, Some(user.player));
    let elements = others(&targets.elements, user.element);
    let mut per_player: BTreeMap<Uuid, u64> = players.iter().map(|p| (*p, 0)).collect();
    let mut per_element: BTreeMap<Uuid, u64> = elements.iter().map(|e| (*e, 0)).collect();
    let mut given: BTreeMap<Resource, u64> = BTreeMap::new();
    for (i, a) in share.iter().enumerate() {
        if a.points == 0 {
            return Err(Error::invalid(format!("share[{i}].points"), "must be at least 1"));
        }
        let (group, whom) = if a.resource.is_players() {
            (&mut per_player, "influence goes to another player of the game (not the user)")
        } else {
            (&mut per_element, "adversity and momentum go to another element of the game (not the user's)")
        };
        match group.get_mut(&a.to) {
            Some(n) => *n += u64::from(a.points),
            None => return Err(Error::invalid(format!("share[{i}].to"), format!("{} cannot take it: {whom}", a.to))),
        }
        *given.entry(a.resource).or_default() += u64::from(a.points);
    }
    let mut lost = Vec::new();
    for r in Resource::ALL {
        let stored = hook.points(r);
        let handed = given.get(&r).copied().unwrap_or(0);
        let reachable = if r.is_players() { !players.is_empty() } else { !elements.is_empty() };
        if !reachable {
            if stored > 0 {
                lost.push(Lost { resource: r, points: stored });
            }
        } else if handed != u64::from(stored) {
            return Err(Error::invalid(
                "share",
                format!(
                    "hands out {handed} {w}; the hook holds {stored} {w}, and all of it is shared out",
                    w = r.word()
                ),
            ));
        }
    }
    for (group, what) in [(&per_player, "player"), (&per_element, "element")] {
        let most = group.iter().max_by_key(|(_, n)| **n);
        let fewest = group.iter().min_by_key(|(_, n)| **n);
        if let (Some((a, &max)), Some((b, &min))) = (most, fewest) {
            if max > min + 1 {
                return Err(Error::invalid(
                    "share",
                    format!(
                        "gives {what} {a} {max} points while {what} {b} gets {min}: nobody gets a point more \
                         until everyone has as many"
                    ),
                ));
            }
        }
    }
    Ok(lost)
}

/// Resolve: a triggered hook whose focus no longer matters leaves play. The user takes
/// `reward` (1 influence, 1 momentum or 2 adversity; doubled after the Turning Point) and
/// hands the hook's points out as `share` says among `targets` (see [`even_share`]).
pub fn resolve(
    arc: &Arc,
    hook: Uuid,
    user: &User,
    reward: Resource,
    share: &[Award],
    targets: &Targets,
) -> Result<Moved> {
    let i = arc.index(hook, "hook")?;
    let to = user.holder(reward, "reward")?;
    let h = &arc.hooks[i];
    let lost = check_share(h, user, targets, share)?;
    let reward = Grant::of(to, reward, to_i64(arc.resolve_reward(reward)));
    let mut grants = vec![reward];
    grants.extend(share.iter().map(|a| Grant::of(a.to, a.resource, to_i64(a.points))));
    let event = PlotEvent::Resolved { hook, text: h.text.clone(), reward, shared: share.to_vec(), lost };
    let mut next = arc.clone();
    next.hooks.remove(i);
    Ok((next, grants, vec![event]))
}

/// The triggered hooks: distinct open hooks of the arc, at least `need` of them.
fn triggered(arc: &Arc, hooks: &[Uuid], need: usize, option: &str) -> Result<Vec<usize>> {
    let mut seen = BTreeSet::new();
    let mut at = Vec::new();
    for (i, id) in hooks.iter().enumerate() {
        let field = format!("hooks[{i}]");
        if !seen.insert(*id) {
            return Err(Error::invalid(field, "names a hook already named"));
        }
        at.push(arc.index(*id, &field)?);
    }
    if hooks.len() < need {
        return Err(Error::invalid(
            "hooks",
            format!("{option} needs at least {need} triggered plot hooks; {} named", hooks.len()),
        ));
    }
    Ok(at)
}

fn during<'c>(challenge: Option<&'c InChallenge>, option: &str) -> Result<&'c InChallenge> {
    challenge.ok_or_else(|| Error::invalid("challenge", format!("{option} is only used during a challenge")))
}

fn challenger_of(c: &InChallenge, id: Uuid, field: &str) -> Result<()> {
    if !c.challengers.contains(&id) {
        return Err(Error::invalid(field, format!("{id} is not a challenger in this challenge")));
    }
    Ok(())
}

/// Raise Stakes (at least 2 triggered hooks): points taken out of them go into the stake of
/// `challenger` as momentum — 1 per point of influence or momentum, 1 per 2 adversity.
pub fn raise_stakes(
    arc: &Arc,
    hooks: &[Uuid],
    challenge: Option<&InChallenge>,
    challenger: Uuid,
    take: &[Take],
) -> Result<Moved> {
    let c = during(challenge, "Raise Stakes")?;
    triggered(arc, hooks, RAISE_STAKES_HOOKS, "Raise Stakes")?;
    challenger_of(c, challenger, "challenger")?;
    if take.is_empty() {
        return Err(Error::invalid("take", "names no points to move into the stake"));
    }
    let mut next = arc.clone();
    let mut by_kind: BTreeMap<Resource, u64> = BTreeMap::new();
    for (i, t) in take.iter().enumerate() {
        if !hooks.contains(&t.hook) {
            return Err(Error::invalid(format!("take[{i}].hook"), "is not one of the triggered hooks"));
        }
        if t.points == 0 {
            return Err(Error::invalid(format!("take[{i}].points"), "must be at least 1"));
        }
        let h = next.index(t.hook, "hook")?;
        next.hooks[h].take(t.resource, t.points, &format!("take[{i}].points"))?;
        *by_kind.entry(t.resource).or_default() += u64::from(t.points);
    }
    let kind = |r: Resource| by_kind.get(&r).copied().unwrap_or(0);
    let adversity = kind(Resource::Adversity);
    if adversity % 2 == 1 {
        return Err(Error::invalid(
            "take",
            format!("takes {adversity} adversity: it turns into momentum 2 points at a time, so take an even number"),
        ));
    }
    let momentum = kind(Resource::Influence) + kind(Resource::Momentum) + adversity / 2;
    let momentum = u32::try_from(momentum).map_err(|_| Error::invalid("take", "moves too many points"))?;
    let grant = Grant { to: challenger, resource: Resource::Momentum, amount: to_i64(momentum), stake: true };
    let event =
        PlotEvent::StakesRaised { hooks: hooks.to_vec(), challenge: c.id, challenger, taken: take.to_vec(), momentum };
    Ok((next, vec![grant], vec![event]))
}

/// No Escape (at least 3 triggered hooks): the user's challenger, setting its stakes, names
/// `target` for removal.
pub fn no_escape(
    arc: &Arc,
    hooks: &[Uuid],
    challenge: Option<&InChallenge>,
    user: &User,
    target: Uuid,
) -> Result<Moved> {
    let c = during(challenge, "No Escape")?;
    triggered(arc, hooks, NO_ESCAPE_HOOKS, "No Escape")?;
    let by = user.element.ok_or_else(|| Error::invalid("user.element", "name the challenger setting its stakes"))?;
    challenger_of(c, by, "user.element")?;
    if target == by {
        return Err(Error::invalid("target", "a challenger cannot name itself for removal"));
    }
    if let Some(n) = arc.no_escape.iter().find(|n| n.challenge == c.id && n.by == by) {
        return Err(Error::invalid(
            "user.element",
            format!("already named {} with No Escape in this challenge", n.target),
        ));
    }
    let mut next = arc.clone();
    next.no_escape.push(NoEscape { challenge: c.id, by, target, used: false });
    Ok((next, Vec::new(), vec![PlotEvent::NoEscapeChosen { hooks: hooks.to_vec(), challenge: c.id, by, target }]))
}

/// No Escape's pay-off: `by`, having left `challenge` in victory, spends 2 momentum (it
/// holds `has`) to ignore `target`'s Plot Protection until the challenge is over.
pub fn ignore_protection(
    arc: &Arc,
    challenge: Uuid,
    by: Uuid,
    target: Uuid,
    left_in_victory: bool,
    has: u32,
) -> Result<Moved> {
    let i =
        arc.no_escape.iter().position(|n| n.challenge == challenge && n.by == by && n.target == target).ok_or_else(
            || Error::invalid("target", format!("{by} did not name {target} with No Escape in this challenge")),
        )?;
    if arc.no_escape[i].used {
        return Err(Error::invalid("target", "its Plot Protection is already ignored"));
    }
    if !left_in_victory {
        return Err(Error::invalid("user.element", "only a challenger that left in victory may use No Escape"));
    }
    check_has(has, NO_ESCAPE_COST, Resource::Momentum, "ignoring Plot Protection")?;
    let mut next = arc.clone();
    next.no_escape[i].used = true;
    Ok((
        next,
        vec![Grant::of(by, Resource::Momentum, -to_i64(NO_ESCAPE_COST))],
        vec![PlotEvent::ProtectionIgnored { challenge, by, target }],
    ))
}

/// A challenge is over: its No Escape targets lapse (an ignored Plot Protection counts
/// again).
pub fn challenge_over(arc: &Arc, challenge: Uuid) -> (Arc, Vec<PlotEvent>) {
    let mut next = arc.clone();
    let events = arc
        .no_escape
        .iter()
        .filter(|n| n.challenge == challenge)
        .map(|n| PlotEvent::NoEscapeLapsed { challenge, by: n.by, target: n.target })
        .collect();
    next.no_escape.retain(|n| n.challenge != challenge);
    (next, events)
}

/// The Turning Point (at least 5 triggered hooks, once per arc, during a challenge, the hooks
/// holding at least one point per challenger), not blocked by the table. `sacrifices` turn a
/// point of momentum or influence into 2 adversity in its hook, only as far as the hooks'
/// adversity falls short of the `draws`; then each drawing challenger (at most once) takes a
/// point of adversity from the hook it names.
pub fn turning_point(
    arc: &Arc,
    hooks: &[Uuid],
    challenge: Option<&InChallenge>,
    sacrifices: &[Sacrifice],
    draws: &[BoostDraw],
) -> Result<Moved> {
    if let Some(tp) = &arc.turning_point {
        return Err(Error::invalid(
            "turning_point",
            format!("arc {} had its Turning Point in challenge {}: it comes once per arc", arc.number, tp.challenge),
        ));
    }
    let c = during(challenge, "the Turning Point")?;
    if c.challengers.is_empty() {
        return Err(Error::invalid("challenge.challengers", "names no challenger"));
    }
    let challengers = others(&c.challengers, None);
    let at = triggered(arc, hooks, TURNING_POINT_HOOKS, "the Turning Point")?;
    let total: u64 = at.iter().map(|&i| u64::from(arc.hooks[i].total())).sum();
    if total < challengers.len() as u64 {
        return Err(Error::invalid(
            "hooks",
            format!(
                "the triggered hooks hold {total} points; the Turning Point needs at least one per challenger ({})",
                challengers.len()
            ),
        ));
    }
    let mut drawn = BTreeSet::new();
    for (i, d) in draws.iter().enumerate() {
        challenger_of(c, d.challenger, &format!("draws[{i}].challenger"))?;
        if !drawn.insert(d.challenger) {
            return Err(Error::invalid(format!("draws[{i}].challenger"), "draws only one point of adversity"));
        }
        if !hooks.contains(&d.hook) {
            return Err(Error::invalid(format!("draws[{i}].hook"), "is not one of the triggered hooks"));
        }
    }
    let adversity: u64 = at.iter().map(|&i| u64::from(arc.hooks[i].points(Resource::Adversity))).sum();
    let missing = (draws.len() as u64).saturating_sub(adversity);
    let allowed = missing.div_ceil(2);
    if sacrifices.len() as u64 > allowed {
        let why = if missing == 0 {
            format!("the hooks hold {adversity} adversity, enough for every draw: nothing is sacrificed")
        } else {
            format!("{allowed} sacrifice(s) cover the {missing} adversity missing for the draws")
        };
        return Err(Error::invalid("sacrifices", why));
    }
    let mut next = arc.clone();
    for (i, s) in sacrifices.iter().enumerate() {
        if s.resource == Resource::Adversity {
            return Err(Error::invalid(format!("sacrifices[{i}].resource"), "sacrifice momentum or influence"));
        }
        if !hooks.contains(&s.hook) {
            return Err(Error::invalid(format!("sacrifices[{i}].hook"), "is not one of the triggered hooks"));
        }
        let h = next.index(s.hook, "hook")?;
        let taken = next.hooks[h].take(s.resource, 1, &format!("sacrifices[{i}].resource"))?;
        next.hooks[h].put(taken[0].by, Resource::Adversity, 2, &format!("sacrifices[{i}]"))?;
    }
    let mut grants = Vec::new();
    for (i, d) in draws.iter().enumerate() {
        let h = next.index(d.hook, "hook")?;
        next.hooks[h].take(Resource::Adversity, 1, &format!("draws[{i}].hook"))?;
        grants.push(Grant::of(d.challenger, Resource::Adversity, 1));
    }
    next.turning_point = Some(TurningPoint { challenge: c.id, challengers, hooks: hooks.to_vec(), themes: Vec::new() });
    let event = PlotEvent::TurningPoint {
        arc: arc.number,
        challenge: c.id,
        hooks: hooks.to_vec(),
        sacrifices: sacrifices.to_vec(),
        draws: draws.to_vec(),
    };
    Ok((next, grants, vec![event]))
}

/// Arc Theme: a challenger of the Turning Point's challenge, leaving it, sets a theme for
/// the arc (a Setting Law until the arc ends).
pub fn set_theme(arc: &Arc, by: Uuid, text: &str) -> Result<Moved> {
    let tp = arc
        .turning_point
        .as_ref()
        .ok_or_else(|| Error::invalid("turning_point", "the arc has no theme before its Turning Point"))?;
    if !tp.challengers.contains(&by) {
        return Err(Error::invalid("by", format!("{by} was not a challenger when the Turning Point came")));
    }
    if tp.themes.iter().any(|t| t.by == by) {
        return Err(Error::invalid("by", format!("{by} already set a theme of this arc")));
    }
    let text = clean_line("text", text, MAX_TEXT_CHARS)?;
    let mut next = arc.clone();
    if let Some(tp) = next.turning_point.as_mut() {
        tp.themes.push(Theme { by, text: text.clone() });
    }
    Ok((next, Vec::new(), vec![PlotEvent::ThemeSet { by, text }]))
}

/// Ends the arc (after its Turning Point) and starts the next. `players` and `elements` are
/// everyone of the game; `memorable` the edge-slot awards given.
pub fn end_arc(
    arc: &Arc,
    players: &[Uuid],
    elements: &[Uuid],
    memorable: &[MemorableAward],
) -> Result<(Arc, ArcEnding, Vec<PlotEvent>)> {
    if !arc.can_end() {
        return Err(Error::invalid("turning_point", format!("arc {} cannot end before its Turning Point", arc.number)));
    }
    let players = others(players, None);
    let elements = others(elements, None);
    let mut awarded = BTreeSet::new();
    let mut free = BTreeSet::new();
    for (i, m) in memorable.iter().enumerate() {
        if !players.contains(&m.by) {
            return Err(Error::invalid(format!("memorable[{i}].by"), format!("{} is not a player of the game", m.by)));
        }
        if !elements.contains(&m.element) {
            return Err(Error::invalid(
                format!("memorable[{i}].element"),
                format!("{} is not an element of the game", m.element),
            ));
        }
        if !awarded.insert(m.element) {
            return Err(Error::invalid(
                format!("memorable[{i}].element"),
                "already has its memorable-element award of this arc",
            ));
        }
        if m.undisputable && !free.insert(m.by) {
            return Err(Error::invalid(
                format!("memorable[{i}].undisputable"),
                "each player gives one undisputable award per arc",
            ));
        }
    }
    let mut resets = Vec::new();
    for e in &elements {
        for what in [Tracked::Adversity, Tracked::AdversityDebt, Tracked::Momentum] {
            resets.push(Reset { of: *e, what, to: 0 });
        }
    }
    for p in &players {
        resets.push(Reset { of: *p, what: Tracked::Influence, to: NEXT_ARC_INFLUENCE });
    }
    let points_lost = arc.hooks.iter().map(PlotHook::total).sum();
    let mut events = vec![PlotEvent::ArcEnded {
        number: arc.number,
        expired_hooks: arc.hooks.iter().map(|h| h.id).collect(),
        points_lost,
    }];
    events.extend(memorable.iter().map(|m| PlotEvent::MemorableAwarded {
        by: m.by,
        element: m.element,
        undisputable: m.undisputable,
    }));
    let mut next = Arc::new(arc.number + 1);
    let (kept, faded): (Vec<Consequence>, Vec<Consequence>) =
        arc.consequences.iter().cloned().partition(|c| c.contagious);
    if !arc.consequences.is_empty() {
        events.push(PlotEvent::ConsequencesFaded {
            faded: faded.iter().map(|c| c.id).collect(),
            kept: kept.iter().map(|c| c.id).collect(),
        });
    }
    next.consequences = kept;
    events.push(PlotEvent::ArcStarted { number: next.number });
    let ending = ArcEnding {
        arc: arc.number,
        resets,
        boons_expire: elements,
        memorable: memorable.to_vec(),
        expired_hooks: arc.hooks.clone(),
    };
    Ok((next, ending, events))
}

/// Keeps an action's side effects on the arc (`id` new), or rewrites consequence `id` (its
/// arc stays). `contagious`: it outlasts the arc's end.
pub fn put_consequence(arc: &Arc, id: Uuid, text: &str, contagious: bool) -> Result<Moved> {
    let text = clean_line("text", text, MAX_TEXT_CHARS)?;
    let mut next = arc.clone();
    let full = next.consequences.len() >= MAX_CONSEQUENCES;
    match next.consequences.iter_mut().find(|c| c.id == id) {
        Some(c) => (c.text, c.contagious) = (text.clone(), contagious),
        None if full => {
            return Err(Error::invalid(
                "consequences",
                format!("an arc keeps at most {MAX_CONSEQUENCES} consequences"),
            ));
        }
        None => next.consequences.push(Consequence { id, arc: arc.number, text: text.clone(), contagious }),
    }
    Ok((next, Vec::new(), vec![PlotEvent::ConsequenceKept { id, text, contagious }]))
}

/// Strikes consequence `id` out (its side effects are over).
pub fn remove_consequence(arc: &Arc, id: Uuid) -> Result<Moved> {
    let Some(gone) = arc.consequences.iter().find(|c| c.id == id) else {
        return Err(Error::invalid("id", "is not a consequence kept on this arc"));
    };
    let mut next = arc.clone();
    next.consequences.retain(|c| c.id != id);
    Ok((next, Vec::new(), vec![PlotEvent::ConsequenceStruck { id, text: gone.text.clone() }]))
}

// ---------------------------------------------------------------------------------------
// The game's own Setting Laws and the arc's facts register (RULES.md §3.2)

/// The most Setting Laws a game defines.
pub const MAX_LAWS: usize = 50;
/// The most facts a table keeps (every arc together).
pub const MAX_FACTS: usize = 1000;
/// The source's own laws: a game's law does not take their names.
const DEFAULT_LAWS: [&str; 3] = ["consistency", "inertia", "potential"];

/// A Setting Law the table made for its game (the seed: "individual games may … add their
/// own"): invoked in a conflict like Potential, ±1, once per player per conflict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomLaw {
    pub id: Uuid,
    pub name: String,
    /// What it does, as the table wrote it.
    pub effect: String,
}

/// An established fact of an arc, offered by name to Consistency and Inertia.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    pub id: Uuid,
    /// The arc it was established in.
    pub arc: u32,
    pub text: String,
}

/// Adds law `id`, or renames and rewrites it. Names are unique (case aside) and are not
/// the source's own laws'.
pub fn put_law(laws: &[CustomLaw], id: Uuid, name: &str, effect: &str) -> Result<Vec<CustomLaw>> {
    let name = clean_line("name", name, crate::model::MAX_NAME_CHARS)?;
    let effect = clean_line("effect", effect, MAX_TEXT_CHARS)?;
    let bare = name.to_lowercase();
    let bare = bare.strip_prefix("law of ").unwrap_or(&bare);
    if DEFAULT_LAWS.contains(&bare) {
        return Err(Error::invalid("name", format!("“{name}” is one of the source's own laws")));
    }
    if laws.iter().any(|l| l.id != id && l.name.to_lowercase() == name.to_lowercase()) {
        return Err(Error::invalid("name", format!("the game already has a law “{name}”")));
    }
    put_entry(
        laws,
        CustomLaw { id, name, effect },
        |l| l.id,
        MAX_LAWS,
        || Error::invalid("laws", format!("a game defines at most {MAX_LAWS} Setting Laws")),
    )
}

/// Removes law `id`.
pub fn remove_law(laws: &[CustomLaw], id: Uuid) -> Result<Vec<CustomLaw>> {
    remove_entry(laws, id, |l| l.id, "is not one of this game's Setting Laws")
}

/// Adds fact `id` to arc `arc`, or rewrites it (it stays in its arc). A fact is written
/// once per arc (case aside).
pub fn put_fact(facts: &[Fact], arc: u32, id: Uuid, text: &str) -> Result<Vec<Fact>> {
    let text = clean_line("text", text, MAX_TEXT_CHARS)?;
    let arc = facts.iter().find(|f| f.id == id).map_or(arc, |f| f.arc);
    if facts.iter().any(|f| f.id != id && f.arc == arc && f.text.to_lowercase() == text.to_lowercase()) {
        return Err(Error::invalid("text", format!("“{text}” is already a fact of this arc")));
    }
    put_entry(
        facts,
        Fact { id, arc, text },
        |f| f.id,
        MAX_FACTS,
        || Error::invalid("facts", format!("a table keeps at most {MAX_FACTS} facts")),
    )
}

/// Removes fact `id`.
pub fn remove_fact(facts: &[Fact], id: Uuid) -> Result<Vec<Fact>> {
    remove_entry(facts, id, |f| f.id, "is not a fact of this table")
}

/// `list` with `entry` in place of the entry with its id (`id_of`), or with `entry` added
/// when there is none and the list holds fewer than `max` (else the error `full` makes).
fn put_entry<T: Clone>(
    list: &[T],
    entry: T,
    id_of: impl Fn(&T) -> Uuid,
    max: usize,
    full: impl FnOnce() -> Error,
) -> Result<Vec<T>> {
    let mut next = list.to_vec();
    match next.iter().position(|e| id_of(e) == id_of(&entry)) {
        Some(i) => next[i] = entry,
        None if next.len() >= max => return Err(full()),
        None => next.push(entry),
    }
    Ok(next)
}

/// `list` without the entry whose id (`id_of`) is `id`; `missing` is the problem when there
/// is none.
fn remove_entry<T: Clone>(list: &[T], id: Uuid, id_of: impl Fn(&T) -> Uuid, missing: &str) -> Result<Vec<T>> {
    if !list.iter().any(|e| id_of(e) == id) {
        return Err(Error::invalid("id", missing));
    }
    Ok(list.iter().filter(|e| id_of(e) != id).cloned().collect())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::test_support::id;

    /// Players Ada (1), Bo (2), Cy (3); Ada plays element 11.
    const ADA: User = User { player: Uuid::from_u128(1), element: Some(Uuid::from_u128(11)) };
    const BO: User = User { player: Uuid::from_u128(2), element: Some(Uuid::from_u128(12)) };

    fn targets() -> Targets {
        Targets { players: vec![id(1), id(2), id(3)], elements: vec![id(11), id(12), id(13), id(14)] }
    }

    fn hook_id(n: u128) -> Uuid {
        id(100 + n)
    }

    /// An arc with `n` hooks (101, 102, …) made with Ada's influence.
    fn arc_with(n: u128) -> Arc {
        let mut arc = Arc::new(1);
        for k in 1..=n {
            arc = create_hook(&arc, hook_id(k), &format!("Where is map {k}?"), &[], &ADA, Resource::Influence, 9)
                .unwrap()
                .0;
        }
        arc
    }

    fn put(arc: &Arc, hook: u128, user: &User, resource: Resource, points: u32) -> Arc {
        invest(arc, hook_id(hook), user, resource, points, points).unwrap().0
    }

    fn field(err: Error) -> String {
        match err {
            Error::Invalid { field, .. } => field,
            other => panic!("not an invalid-input error: {other}"),
        }
    }

    fn challenge(challengers: &[u128]) -> InChallenge {
        InChallenge { id: id(500), challengers: challengers.iter().map(|&n| id(n)).collect() }
    }

    fn after_turning_point(arc: &Arc) -> Arc {
        let mut a = arc.clone();
        a.turning_point =
            Some(TurningPoint { challenge: id(500), challengers: vec![id(11), id(12)], hooks: vec![], themes: vec![] });
        a
    }

    #[test]
    fn a_hook_names_at_most_100_elements_and_an_arc_holds_at_most_200_hooks() {
        let many: Vec<Uuid> = (0..=MAX_HOOK_ELEMENTS as u128).map(|n| id(1_000 + n)).collect();
        let refused = create_hook(&Arc::new(1), id(101), "Where?", &many, &ADA, Resource::Influence, 1).unwrap_err();
        assert_eq!(refused.to_string(), "elements: a hook names at most 100 elements");
        // The same element named many times is one element.
        let twice = vec![id(13); 1_000];
        let (arc, _, _) = create_hook(&Arc::new(1), id(101), "Where?", &twice, &ADA, Resource::Influence, 1).unwrap();
        assert_eq!(arc.hooks[0].elements, [id(13)]);
        let full = arc_with(MAX_HOOKS as u128);
        let refused = create_hook(&full, id(1), "One more?", &[], &ADA, Resource::Influence, 1).unwrap_err();
        assert_eq!(refused.to_string(), "id: an arc holds at most 200 open plot hooks");
    }

    #[test]
    fn a_hook_costs_one_influence_one_momentum_or_two_adversity() {
        let arc = Arc::new(1);
        for (resource, payer, cost) in
            [(Resource::Influence, id(1), 1), (Resource::Momentum, id(11), 1), (Resource::Adversity, id(11), 2)]
        {
            let (next, grants, events) =
                create_hook(&arc, id(101), "  Where is the map?  ", &[id(13), id(13)], &ADA, resource, cost).unwrap();
            assert_eq!(grants, vec![Grant::of(payer, resource, -(cost as i64))]);
            let hook = next.hook(id(101)).unwrap();
            assert_eq!(hook.text, "Where is the map?");
            assert_eq!(hook.creator, id(1));
            assert_eq!(hook.elements, vec![id(13)]);
            assert_eq!(hook.total(), 0, "the cost is spent, not stored");
            assert!(matches!(events[0], PlotEvent::HookCreated { .. }));
            let short = create_hook(&arc, id(101), "Where is the map?", &[], &ADA, resource, cost - 1).unwrap_err();
            assert_eq!(field(short), "has");
        }
        let no_element = User { player: id(1), element: None };
        let err = create_hook(&arc, id(101), "x", &[], &no_element, Resource::Momentum, 5).unwrap_err();
        assert_eq!(field(err), "pay_with");
        assert_eq!(field(create_hook(&arc, id(101), "  ", &[], &ADA, Resource::Influence, 5).unwrap_err()), "text");
        let one = arc_with(1);
        assert_eq!(field(create_hook(&one, hook_id(1), "again", &[], &ADA, Resource::Influence, 5).unwrap_err()), "id");
    }

    #[test]
    fn after_the_turning_point_hooks_cost_and_give_twice_as_much() {
        let arc = after_turning_point(&arc_with(1));
        assert_eq!([Resource::Influence, Resource::Momentum, Resource::Adversity].map(|r| arc.hook_cost(r)), [2, 2, 4]);
        let err = create_hook(&arc, id(150), "Who betrayed us?", &[], &ADA, Resource::Adversity, 3).unwrap_err();
        assert_eq!(field(err), "has");
        let (_, grants, _) = create_hook(&arc, id(150), "Who betrayed us?", &[], &ADA, Resource::Adversity, 4).unwrap();
        assert_eq!(grants, vec![Grant::of(id(11), Resource::Adversity, -4)]);
        for (reward, to, amount) in
            [(Resource::Influence, id(1), 2), (Resource::Momentum, id(11), 2), (Resource::Adversity, id(11), 4)]
        {
            let (next, grants, _) = resolve(&arc, hook_id(1), &ADA, reward, &[], &targets()).unwrap();
            assert_eq!(grants, vec![Grant::of(to, reward, amount)]);
            assert!(next.hooks.is_empty());
        }
        let before = arc_with(1);
        let (_, grants, _) = resolve(&before, hook_id(1), &ADA, Resource::Adversity, &[], &targets()).unwrap();
        assert_eq!(grants, vec![Grant::of(id(11), Resource::Adversity, 2)]);
    }

    #[test]
    fn investments_keep_each_kind_apart_and_remember_the_investor() {
        let arc = arc_with(1);
        let (arc, grants, _) = invest(&arc, hook_id(1), &ADA, Resource::Influence, 2, 3).unwrap();
        assert_eq!(grants, vec![Grant::of(id(1), Resource::Influence, -2)]);
        let arc = put(&arc, 1, &BO, Resource::Momentum, 1);
        let arc = put(&arc, 1, &BO, Resource::Adversity, 3);
        let hook = arc.hook(hook_id(1)).unwrap();
        assert_eq!(
            Resource::ALL.map(|r| hook.points(r)),
            [2, 3, 1],
            "influence, adversity and momentum are counted apart"
        );
        assert_eq!(hook.stored[0], Investment { by: id(1), resource: Resource::Influence, points: 2 });
        assert_eq!(hook.stored[1].by, id(12), "momentum is paid by Bo's element");
        assert_eq!(field(invest(&arc, hook_id(1), &ADA, Resource::Adversity, 3, 2).unwrap_err()), "has");
        assert_eq!(field(invest(&arc, hook_id(1), &ADA, Resource::Adversity, 0, 2).unwrap_err()), "points");
        assert_eq!(field(invest(&arc, id(999), &ADA, Resource::Adversity, 1, 2).unwrap_err()), "hook");
    }

    #[test]
    fn a_tap_draws_one_point_the_latest_invested_first() {
        let arc = put(&put(&arc_with(1), 1, &ADA, Resource::Momentum, 1), 1, &BO, Resource::Momentum, 2);
        let (next, grants, events) = tap(&arc, hook_id(1), &ADA, Resource::Momentum).unwrap();
        assert_eq!(grants, vec![Grant::of(id(11), Resource::Momentum, 1)]);
        assert_eq!(
            events,
            vec![PlotEvent::Tapped { hook: hook_id(1), to: id(11), resource: Resource::Momentum, from: id(12) }]
        );
        let hook = next.hook(hook_id(1)).unwrap();
        assert_eq!(hook.points(Resource::Momentum), 2);
        assert_eq!(hook.stored[1], Investment { by: id(12), resource: Resource::Momentum, points: 1 });
        let err = tap(&next, hook_id(1), &ADA, Resource::Influence).unwrap_err();
        assert_eq!(field(err), "resource");
    }

    /// A hook with 3 influence, 2 adversity and 1 momentum.
    fn rich() -> Arc {
        let arc = put(&arc_with(1), 1, &ADA, Resource::Influence, 3);
        put(&put(&arc, 1, &BO, Resource::Adversity, 2), 1, &BO, Resource::Momentum, 1)
    }

    fn award(to: u128, resource: Resource, points: u32) -> Award {
        Award { to: id(to), resource, points }
    }

    #[test]
    fn resolving_rewards_the_user_and_shares_the_points_out_evenly() {
        let arc = rich();
        // Influence among Bo and Cy (Ada resolves), adversity and momentum among 12, 13, 14.
        let share = [
            award(2, Resource::Influence, 2),
            award(3, Resource::Influence, 1),
            award(12, Resource::Adversity, 1),
            award(13, Resource::Adversity, 1),
            award(14, Resource::Momentum, 1),
        ];
        let (next, grants, events) = resolve(&arc, hook_id(1), &ADA, Resource::Influence, &share, &targets()).unwrap();
        assert!(next.hooks.is_empty(), "a resolved hook leaves play");
        assert_eq!(grants[0], Grant::of(id(1), Resource::Influence, 1));
        assert_eq!(grants[1..].iter().map(|g| g.amount).sum::<i64>(), 6, "every stored point is handed out");
        assert!(matches!(&events[0], PlotEvent::Resolved { lost, .. } if lost.is_empty()));

        // Bo 3, Cy 0: Bo would get a second point before Cy has one.
        let uneven = [award(2, Resource::Influence, 3), share[2], share[3], share[4]];
        assert_eq!(
            field(resolve(&arc, hook_id(1), &ADA, Resource::Influence, &uneven, &targets()).unwrap_err()),
            "share"
        );
        // Adversity and momentum count together: 12 with 2 points while 14 has none.
        let pooled = [share[0], share[1], award(12, Resource::Adversity, 2), award(13, Resource::Momentum, 1)];
        assert_eq!(
            field(resolve(&arc, hook_id(1), &ADA, Resource::Influence, &pooled, &targets()).unwrap_err()),
            "share"
        );
        // The user's own player and element are not potential targets.
        let to_self =
            [award(1, Resource::Influence, 1), award(2, Resource::Influence, 1), award(3, Resource::Influence, 1)];
        let err =
            resolve(&arc, hook_id(1), &ADA, Resource::Influence, &[&to_self[..], &share[2..]].concat(), &targets());
        assert_eq!(field(err.unwrap_err()), "share[0].to");
        let err = resolve(
            &arc,
            hook_id(1),
            &ADA,
            Resource::Momentum,
            &[share[0], share[1], award(11, Resource::Adversity, 1), share[3], share[4]],
            &targets(),
        );
        assert_eq!(field(err.unwrap_err()), "share[2].to");
        // Influence to an element, a point held back, an empty award.
        let err =
            resolve(&arc, hook_id(1), &ADA, Resource::Influence, &[award(12, Resource::Influence, 3)], &targets());
        assert_eq!(field(err.unwrap_err()), "share[0].to");
        assert_eq!(
            field(resolve(&arc, hook_id(1), &ADA, Resource::Influence, &share[..4], &targets()).unwrap_err()),
            "share"
        );
        let zero = [&share[..], &[award(3, Resource::Influence, 0)]].concat();
        assert_eq!(
            field(resolve(&arc, hook_id(1), &ADA, Resource::Influence, &zero, &targets()).unwrap_err()),
            "share[5].points"
        );
    }

    #[test]
    fn points_no_one_can_take_are_lost() {
        let arc = rich();
        let alone = Targets { players: vec![id(1)], elements: vec![id(11), id(12)] };
        let share = [award(12, Resource::Adversity, 2), award(12, Resource::Momentum, 1)];
        let (_, grants, events) = resolve(&arc, hook_id(1), &ADA, Resource::Influence, &share, &alone).unwrap();
        assert_eq!(grants.len(), 3);
        let PlotEvent::Resolved { lost, .. } = &events[0] else { panic!() };
        assert_eq!(lost, &vec![Lost { resource: Resource::Influence, points: 3 }]);
    }

    #[test]
    fn the_proposed_share_deals_round_robin_in_the_listed_order() {
        let mut arc = put(&arc_with(1), 1, &ADA, Resource::Influence, 5);
        arc = put(&put(&arc, 1, &BO, Resource::Adversity, 3), 1, &BO, Resource::Momentum, 2);
        let hook = arc.hook(hook_id(1)).unwrap();
        let t = Targets { players: vec![id(3), id(1), id(2), id(4)], elements: vec![id(13), id(11), id(12)] };
        let share = even_share(hook, &ADA, &t);
        assert_eq!(
            share,
            vec![
                award(3, Resource::Influence, 2),
                award(2, Resource::Influence, 2),
                award(4, Resource::Influence, 1),
                award(13, Resource::Adversity, 2),
                award(12, Resource::Adversity, 1),
                award(13, Resource::Momentum, 1),
                award(12, Resource::Momentum, 1),
            ]
        );
        resolve(&arc, hook_id(1), &ADA, Resource::Influence, &share, &t).unwrap();
    }

    #[test]
    fn raise_stakes_turns_hook_points_into_stake_momentum() {
        let mut arc = put(&arc_with(3), 1, &ADA, Resource::Influence, 2);
        arc = put(&put(&arc, 2, &BO, Resource::Adversity, 5), 2, &BO, Resource::Momentum, 1);
        let c = challenge(&[11, 12]);
        let hooks = [hook_id(1), hook_id(2)];
        let take = [
            Take { hook: hook_id(1), resource: Resource::Influence, points: 2 },
            Take { hook: hook_id(2), resource: Resource::Adversity, points: 4 },
            Take { hook: hook_id(2), resource: Resource::Momentum, points: 1 },
        ];
        let (next, grants, _) = raise_stakes(&arc, &hooks, Some(&c), id(12), &take).unwrap();
        assert_eq!(grants, vec![Grant { to: id(12), resource: Resource::Momentum, amount: 5, stake: true }]);
        assert_eq!(next.hook(hook_id(1)).unwrap().total(), 0);
        assert_eq!(next.hook(hook_id(2)).unwrap().points(Resource::Adversity), 1);

        assert_eq!(field(raise_stakes(&arc, &hooks[..1], Some(&c), id(12), &take[..1]).unwrap_err()), "hooks");
        assert_eq!(field(raise_stakes(&arc, &hooks, None, id(12), &take).unwrap_err()), "challenge");
        assert_eq!(field(raise_stakes(&arc, &hooks, Some(&c), id(13), &take).unwrap_err()), "challenger");
        assert_eq!(
            field(raise_stakes(&arc, &[hook_id(1), hook_id(1)], Some(&c), id(12), &take).unwrap_err()),
            "hooks[1]"
        );
        let odd = [Take { hook: hook_id(2), resource: Resource::Adversity, points: 3 }];
        assert_eq!(field(raise_stakes(&arc, &hooks, Some(&c), id(12), &odd).unwrap_err()), "take");
        let too_much = [Take { hook: hook_id(1), resource: Resource::Influence, points: 3 }];
        assert_eq!(field(raise_stakes(&arc, &hooks, Some(&c), id(12), &too_much).unwrap_err()), "take[0].points");
        let elsewhere = [Take { hook: hook_id(3), resource: Resource::Influence, points: 1 }];
        assert_eq!(field(raise_stakes(&arc, &hooks, Some(&c), id(12), &elsewhere).unwrap_err()), "take[0].hook");
        assert_eq!(field(raise_stakes(&arc, &hooks, Some(&c), id(12), &[]).unwrap_err()), "take");
    }

    #[test]
    fn no_escape_lets_a_victor_ignore_plot_protection_until_the_challenge_is_over() {
        let arc = arc_with(3);
        let c = challenge(&[11, 12]);
        let hooks = [hook_id(1), hook_id(2), hook_id(3)];
        assert_eq!(field(no_escape(&arc, &hooks[..2], Some(&c), &ADA, id(12)).unwrap_err()), "hooks");
        assert_eq!(field(no_escape(&arc, &hooks, None, &ADA, id(12)).unwrap_err()), "challenge");
        assert_eq!(field(no_escape(&arc, &hooks, Some(&c), &ADA, id(11)).unwrap_err()), "target");
        let outsider = User { player: id(3), element: Some(id(13)) };
        assert_eq!(field(no_escape(&arc, &hooks, Some(&c), &outsider, id(12)).unwrap_err()), "user.element");
        let (arc, grants, _) = no_escape(&arc, &hooks, Some(&c), &ADA, id(12)).unwrap();
        assert!(grants.is_empty());
        assert_eq!(field(no_escape(&arc, &hooks, Some(&c), &ADA, id(13)).unwrap_err()), "user.element");

        assert_eq!(field(ignore_protection(&arc, c.id, id(11), id(12), false, 5).unwrap_err()), "user.element");
        assert_eq!(field(ignore_protection(&arc, c.id, id(11), id(12), true, 1).unwrap_err()), "has");
        assert_eq!(field(ignore_protection(&arc, c.id, id(11), id(13), true, 5).unwrap_err()), "target");
        let (arc, grants, _) = ignore_protection(&arc, c.id, id(11), id(12), true, 2).unwrap();
        assert_eq!(grants, vec![Grant::of(id(11), Resource::Momentum, -2)]);
        assert_eq!(field(ignore_protection(&arc, c.id, id(11), id(12), true, 2).unwrap_err()), "target");
        let (arc, events) = challenge_over(&arc, c.id);
        assert!(arc.no_escape.is_empty());
        assert_eq!(events, vec![PlotEvent::NoEscapeLapsed { challenge: c.id, by: id(11), target: id(12) }]);
    }

    /// Five hooks: 101 holds 1 influence, 102 1 momentum, 103 1 adversity.
    fn five() -> Arc {
        let arc = put(&arc_with(5), 1, &ADA, Resource::Influence, 1);
        put(&put(&arc, 2, &BO, Resource::Momentum, 1), 3, &BO, Resource::Adversity, 1)
    }

    fn five_ids() -> Vec<Uuid> {
        (1..=5).map(hook_id).collect()
    }

    #[test]
    fn the_turning_point_needs_five_hooks_a_challenge_and_a_point_per_challenger() {
        let arc = five();
        let c = challenge(&[11, 12, 13]);
        assert_eq!(field(turning_point(&arc, &five_ids()[..4], Some(&c), &[], &[]).unwrap_err()), "hooks");
        assert_eq!(field(turning_point(&arc, &five_ids(), None, &[], &[]).unwrap_err()), "challenge");
        let crowd = challenge(&[11, 12, 13, 14]);
        assert_eq!(field(turning_point(&arc, &five_ids(), Some(&crowd), &[], &[]).unwrap_err()), "hooks");
        let (next, grants, _) = turning_point(&arc, &five_ids(), Some(&c), &[], &[]).unwrap();
        assert!(grants.is_empty(), "drawing adversity is a choice");
        assert!(next.turning_point_reached());
        assert_eq!(field(turning_point(&next, &five_ids(), Some(&c), &[], &[]).unwrap_err()), "turning_point");
    }

    #[test]
    fn turning_point_draws_adversity_and_sacrifices_only_what_is_missing() {
        let arc = five();
        let c = challenge(&[11, 12, 13]);
        let draw = |ch: u128, hook: u128| BoostDraw { challenger: id(ch), hook: hook_id(hook) };
        let sac = |hook: u128, resource: Resource| Sacrifice { hook: hook_id(hook), resource };
        // One adversity for three draws: one sacrifice makes two more.
        let draws = [draw(11, 3), draw(12, 1), draw(13, 1)];
        let (next, grants, _) =
            turning_point(&arc, &five_ids(), Some(&c), &[sac(1, Resource::Influence)], &draws).unwrap();
        assert_eq!(grants, [11, 12, 13].map(|n| Grant::of(id(n), Resource::Adversity, 1)).to_vec());
        assert_eq!(next.hook(hook_id(1)).unwrap().total(), 0);
        assert_eq!(next.hook(hook_id(2)).unwrap().points(Resource::Momentum), 1);
        assert_eq!(next.hook(hook_id(3)).unwrap().total(), 0);
        // Two sacrifices where one covers the shortfall; a sacrifice with enough adversity.
        let two = [sac(1, Resource::Influence), sac(2, Resource::Momentum)];
        assert_eq!(field(turning_point(&arc, &five_ids(), Some(&c), &two, &draws).unwrap_err()), "sacrifices");
        let err =
            turning_point(&arc, &five_ids(), Some(&c), &[sac(2, Resource::Momentum)], &[draw(11, 3)]).unwrap_err();
        assert_eq!(field(err), "sacrifices");
        let err = turning_point(&arc, &five_ids(), Some(&c), &[sac(3, Resource::Adversity)], &draws).unwrap_err();
        assert_eq!(field(err), "sacrifices[0].resource");
        // A draw from a hook with no adversity left; twice by one challenger; by an outsider.
        let err =
            turning_point(&arc, &five_ids(), Some(&c), &[sac(1, Resource::Influence)], &[draw(11, 3), draw(12, 3)]);
        assert_eq!(field(err.unwrap_err()), "draws[1].hook");
        assert_eq!(
            field(turning_point(&arc, &five_ids(), Some(&c), &[], &[draw(11, 3), draw(11, 3)]).unwrap_err()),
            "draws[1].challenger"
        );
        assert_eq!(
            field(turning_point(&arc, &five_ids(), Some(&c), &[], &[draw(14, 3)]).unwrap_err()),
            "draws[0].challenger"
        );
    }

    #[test]
    fn themes_come_from_the_turning_points_challengers_once_each() {
        let arc = five();
        assert_eq!(field(set_theme(&arc, id(11), "Betrayal").unwrap_err()), "turning_point");
        let c = challenge(&[11, 12]);
        let arc = turning_point(&arc, &five_ids(), Some(&c), &[], &[]).unwrap().0;
        let (arc, _, events) = set_theme(&arc, id(11), " Betrayal ").unwrap();
        assert_eq!(events, vec![PlotEvent::ThemeSet { by: id(11), text: "Betrayal".into() }]);
        assert_eq!(field(set_theme(&arc, id(11), "Greed").unwrap_err()), "by");
        assert_eq!(field(set_theme(&arc, id(13), "Greed").unwrap_err()), "by");
        assert_eq!(arc.turning_point.unwrap().themes.len(), 1);
    }

    #[test]
    fn an_arc_ends_after_its_turning_point_resetting_everyone() {
        let players = [id(1), id(2)];
        let elements = [id(11), id(12)];
        let arc = five();
        assert_eq!(field(end_arc(&arc, &players, &elements, &[]).unwrap_err()), "turning_point");
        let c = challenge(&[11, 12]);
        let arc = turning_point(&arc, &five_ids(), Some(&c), &[], &[]).unwrap().0;
        let memorable = [
            MemorableAward { by: id(1), element: id(11), undisputable: true },
            MemorableAward { by: id(1), element: id(12), undisputable: false },
        ];
        let (next, ending, events) = end_arc(&arc, &players, &elements, &memorable).unwrap();
        assert_eq!(next, Arc::new(2), "the next arc starts with no hooks and no Turning Point");
        assert_eq!(ending.arc, 1);
        assert_eq!(ending.resets.len(), 2 * 3 + 2);
        assert!(ending.resets.contains(&Reset { of: id(12), what: Tracked::AdversityDebt, to: 0 }));
        assert!(ending.resets.contains(&Reset { of: id(11), what: Tracked::Momentum, to: 0 }));
        assert!(ending.resets.contains(&Reset { of: id(2), what: Tracked::Influence, to: 3 }));
        assert_eq!(ending.boons_expire, elements.to_vec());
        assert_eq!(ending.expired_hooks.len(), 5, "open hooks expire without a reward");
        assert!(matches!(events[0], PlotEvent::ArcEnded { number: 1, points_lost: 3, .. }));
        assert_eq!(events.last(), Some(&PlotEvent::ArcStarted { number: 2 }));

        let twice = [memorable[0], MemorableAward { by: id(2), element: id(11), undisputable: false }];
        assert_eq!(field(end_arc(&arc, &players, &elements, &twice).unwrap_err()), "memorable[1].element");
        let two_free = [memorable[0], MemorableAward { by: id(1), element: id(12), undisputable: true }];
        assert_eq!(field(end_arc(&arc, &players, &elements, &two_free).unwrap_err()), "memorable[1].undisputable");
        let stranger = [MemorableAward { by: id(9), element: id(11), undisputable: false }];
        assert_eq!(field(end_arc(&arc, &players, &elements, &stranger).unwrap_err()), "memorable[0].by");
    }

    /// Lingering and Contagious Consequences: both are kept on the arc; at its end the
    /// lingering one fades and the contagious one carries into the next arc (keeping the arc
    /// it was made in), until struck out.
    #[test]
    fn lingering_consequences_fade_at_the_arcs_end_and_contagious_ones_stay() {
        let c = challenge(&[11, 12]);
        let arc = turning_point(&five(), &five_ids(), Some(&c), &[], &[]).unwrap().0;
        let arc = put_consequence(&arc, id(900), "Rumours of the duel", false).unwrap().0;
        let arc = put_consequence(&arc, id(901), "The plague spreads", true).unwrap().0;
        assert_eq!(field(put_consequence(&arc, id(902), "  ", false).unwrap_err()), "text");
        let (next, _, events) = end_arc(&arc, &[id(1)], &[id(11)], &[]).unwrap();
        assert_eq!(
            next.consequences,
            vec![Consequence { id: id(901), arc: 1, text: "The plague spreads".into(), contagious: true }]
        );
        assert!(events.contains(&PlotEvent::ConsequencesFaded { faded: vec![id(900)], kept: vec![id(901)] }));
        let struck = remove_consequence(&next, id(901)).unwrap().0;
        assert!(struck.consequences.is_empty());
        assert_eq!(field(remove_consequence(&struck, id(901)).unwrap_err()), "id");
    }

    #[test]
    fn arcs_and_events_round_trip_and_refuse_unknown_fields() {
        let arc = rich();
        let json = serde_json::to_string(&arc).unwrap();
        assert_eq!(serde_json::from_str::<Arc>(&json).unwrap(), arc);
        let mut value = serde_json::to_value(&arc).unwrap();
        value["extra"] = serde_json::json!(1);
        assert!(serde_json::from_value::<Arc>(value).is_err());
        let (_, _, events) = tap(&arc, hook_id(1), &ADA, Resource::Influence).unwrap();
        let json = serde_json::to_value(&events).unwrap();
        assert_eq!(json[0]["event"], "tapped");
        assert_eq!(serde_json::from_value::<Vec<PlotEvent>>(json).unwrap(), events);
        let stake = Grant { to: id(1), resource: Resource::Momentum, amount: 1, stake: true };
        assert_eq!(serde_json::to_value(stake).unwrap()["stake"], true);
        assert!(serde_json::to_value(Grant::of(id(1), Resource::Momentum, 1)).unwrap().get("stake").is_none());
    }

    /// Hands points out one at a time, each to a target with the fewest so far that still
    /// wants one: the share is allowed exactly when this hands out everything wanted.
    fn cap_allows(wanted: &BTreeMap<Uuid, u64>) -> bool {
        let mut got: BTreeMap<Uuid, u64> = wanted.keys().map(|k| (*k, 0)).collect();
        loop {
            let Some(min) = got.values().min().copied() else { return true };
            let next = got.iter().find(|(k, n)| **n == min && wanted[*k] > **n).map(|(k, _)| *k);
            match next {
                Some(k) => *got.get_mut(&k).unwrap() += 1,
                None => return got == *wanted,
            }
        }
    }

    fn stored_arc(inf: u32, adv: u32, mom: u32) -> Arc {
        let mut arc = arc_with(1);
        for (r, n) in [(Resource::Influence, inf), (Resource::Adversity, adv), (Resource::Momentum, mom)] {
            if n > 0 {
                arc = put(&arc, 1, &BO, r, n);
            }
        }
        arc
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The proposed share hands out exactly the stored points (less what nobody can
        /// take), nobody more than one point ahead of another, and the rule accepts it.
        #[test]
        fn the_proposed_share_is_even_and_exact(
            inf in 0u32..30, adv in 0u32..30, mom in 0u32..30, players in 1u128..6, elements in 0u128..7,
        ) {
            let arc = stored_arc(inf, adv, mom);
            let t = Targets {
                players: (1..=players).map(id).collect(),
                elements: (11..11 + elements).map(id).collect(),
            };
            let hook = arc.hook(hook_id(1)).unwrap();
            let share = even_share(hook, &ADA, &t);
            let (_, grants, events) = resolve(&arc, hook_id(1), &ADA, Resource::Influence, &share, &t).unwrap();
            let mut per: BTreeMap<(bool, Uuid), u64> = BTreeMap::new();
            for p in others(&t.players, Some(ADA.player)) { per.insert((true, p), 0); }
            for e in others(&t.elements, ADA.element) { per.insert((false, e), 0); }
            let mut given = [0u64; 3];
            for a in &share {
                prop_assert!(a.points > 0);
                *per.get_mut(&(a.resource.is_players(), a.to)).unwrap() += u64::from(a.points);
                given[Resource::ALL.iter().position(|r| *r == a.resource).unwrap()] += u64::from(a.points);
            }
            let PlotEvent::Resolved { lost, .. } = &events[0] else { panic!() };
            for (k, r) in Resource::ALL.iter().enumerate() {
                let lost_here = lost.iter().filter(|l| l.resource == *r).map(|l| u64::from(l.points)).sum::<u64>();
                prop_assert_eq!(given[k] + lost_here, u64::from(hook.points(*r)));
            }
            for group in [true, false] {
                let counts: Vec<u64> = per.iter().filter(|((g, _), _)| *g == group).map(|(_, n)| *n).collect();
                if let (Some(max), Some(min)) = (counts.iter().max(), counts.iter().min()) {
                    prop_assert!(max - min <= 1, "{counts:?}");
                }
            }
            prop_assert_eq!(grants.len(), share.len() + 1);
        }

        /// Any share the user proposes is accepted exactly when it hands out every point and
        /// could have been awarded one point at a time without anyone getting n + 1 before
        /// everyone had n.
        #[test]
        fn a_share_is_accepted_exactly_when_the_cap_allows_it(
            inf in 0u32..6, adv in 0u32..6, mom in 0u32..6,
            awards in proptest::collection::vec((0usize..6, 0usize..3, 0u32..4), 0..8),
        ) {
            let arc = stored_arc(inf, adv, mom);
            let t = Targets { players: vec![id(1), id(2), id(3)], elements: vec![id(11), id(12), id(13)] };
            let pool = [1u128, 2, 3, 11, 12, 13];
            let share: Vec<Award> = awards
                .iter()
                .map(|&(to, r, points)| Award { to: id(pool[to]), resource: Resource::ALL[r], points })
                .collect();
            let valid_targets = share.iter().all(|a| {
                let allowed = if a.resource.is_players() { [id(2), id(3)] } else { [id(12), id(13)] };
                a.points > 0 && allowed.contains(&a.to)
            });
            let mut handed = [0u64; 3];
            let mut players: BTreeMap<Uuid, u64> = [(id(2), 0), (id(3), 0)].into_iter().collect();
            let mut elements: BTreeMap<Uuid, u64> = [(id(12), 0), (id(13), 0)].into_iter().collect();
            if valid_targets {
                for a in &share {
                    handed[Resource::ALL.iter().position(|r| *r == a.resource).unwrap()] += u64::from(a.points);
                    let group = if a.resource.is_players() { &mut players } else { &mut elements };
                    *group.get_mut(&a.to).unwrap() += u64::from(a.points);
                }
            }
            let exact = handed == [inf, adv, mom].map(u64::from);
            let expected = valid_targets && exact && cap_allows(&players) && cap_allows(&elements);
            let got = resolve(&arc, hook_id(1), &ADA, Resource::Momentum, &share, &t);
            prop_assert_eq!(got.is_ok(), expected, "{:?} → {:?}", share, got.err().map(|e| e.to_string()));
        }

        /// Moving one point of the proposed share from one target to another is accepted
        /// exactly when the counts still allow handing the points out one at a time under
        /// the cap.
        #[test]
        fn moving_a_point_of_an_even_share_breaks_it_unless_the_cap_still_holds(
            inf in 0u32..8, adv in 0u32..8, mom in 0u32..8, from in 0usize..16, to in 0usize..3,
        ) {
            let arc = stored_arc(inf, adv, mom);
            let t = Targets {
                players: [1, 2, 3, 4].map(id).to_vec(),
                elements: [11, 12, 13, 14].map(id).to_vec(),
            };
            let mut share = even_share(arc.hook(hook_id(1)).unwrap(), &ADA, &t);
            if share.is_empty() {
                return Ok(());
            }
            let k = from % share.len();
            let group: [u128; 3] = if share[k].resource.is_players() { [2, 3, 4] } else { [12, 13, 14] };
            let moved = Award { to: id(group[to]), resource: share[k].resource, points: 1 };
            share[k].points -= 1;
            share.retain(|a| a.points > 0);
            share.push(moved);
            let mut players: BTreeMap<Uuid, u64> = [2, 3, 4].map(|n| (id(n), 0)).into_iter().collect();
            let mut elements: BTreeMap<Uuid, u64> = [12, 13, 14].map(|n| (id(n), 0)).into_iter().collect();
            for a in &share {
                let g = if a.resource.is_players() { &mut players } else { &mut elements };
                *g.get_mut(&a.to).unwrap() += u64::from(a.points);
            }
            let expected = cap_allows(&players) && cap_allows(&elements);
            let got = resolve(&arc, hook_id(1), &ADA, Resource::Momentum, &share, &t);
            prop_assert_eq!(got.is_ok(), expected, "{:?}", share);
        }

        /// However hooks are made, filled and tied together, an arc has at most one Turning
        /// Point, and it ends only after it.
        #[test]
        fn the_turning_point_comes_at_most_once_per_arc(
            ops in proptest::collection::vec((0u8..5, 0u128..12, 1u32..4, any::<bool>()), 1..60),
        ) {
            random_arcs(&ops)?;
        }
    }
    /// What [`random_arcs`] saw: Turning Points reached, refused because the arc had one,
    /// and arcs ended.
    #[derive(Default)]
    struct Seen {
        turning_points: u32,
        refused_twice: u32,
        arcs_ended: u32,
    }

    /// Plays `ops` (make a hook, invest, try the Turning Point, try to end the arc, resolve)
    /// and checks that no arc has two Turning Points and none ends without one.
    fn random_arcs(ops: &[(u8, u128, u32, bool)]) -> std::result::Result<Seen, TestCaseError> {
        let mut arc = Arc::new(1);
        let mut per_arc: BTreeMap<u32, u32> = BTreeMap::new();
        let mut seen = Seen::default();
        let mut next_id = 1000u128;
        let t = Targets { players: vec![id(1), id(2)], elements: vec![id(11), id(12), id(13)] };
        for &(op, n, points, flag) in ops {
            let hooks: Vec<Uuid> = arc.hooks.iter().map(|h| h.id).collect();
            match op {
                0 => {
                    next_id += 1;
                    arc = create_hook(&arc, id(next_id), "a hook", &[], &ADA, Resource::Influence, 9).unwrap().0;
                }
                1 if !hooks.is_empty() => {
                    let h = hooks[n as usize % hooks.len()];
                    arc = invest(&arc, h, &BO, Resource::ALL[points as usize % 3], points, points).unwrap().0;
                }
                2 => {
                    let chosen: Vec<Uuid> = hooks.iter().take(n as usize % 4 + 3).copied().collect();
                    let c = challenge(&[11, 12]);
                    let draws: Vec<BoostDraw> = if n % 2 == 1 {
                        chosen.iter().take(1).map(|&hook| BoostDraw { challenger: id(11), hook }).collect()
                    } else {
                        Vec::new()
                    };
                    let before = arc.turning_point_reached();
                    match turning_point(&arc, &chosen, if flag { Some(&c) } else { None }, &[], &draws) {
                        Ok((a, _, _)) => {
                            prop_assert!(!before && flag && chosen.len() >= TURNING_POINT_HOOKS);
                            *per_arc.entry(arc.number).or_default() += 1;
                            seen.turning_points += 1;
                            arc = a;
                            prop_assert!(arc.turning_point_reached());
                        }
                        Err(e) => {
                            prop_assert_eq!(arc.turning_point_reached(), before);
                            if field(e) == "turning_point" {
                                seen.refused_twice += 1;
                            }
                        }
                    }
                }
                3 => {
                    let before = arc.clone();
                    match end_arc(&arc, &t.players, &t.elements, &[]) {
                        Ok((a, _, _)) => {
                            prop_assert!(before.turning_point_reached());
                            prop_assert_eq!(a.number, before.number + 1);
                            seen.arcs_ended += 1;
                            arc = a;
                        }
                        Err(_) => prop_assert!(!before.turning_point_reached()),
                    }
                }
                _ if !hooks.is_empty() => {
                    let h = hooks[n as usize % hooks.len()];
                    let share = even_share(arc.hook(h).unwrap(), &ADA, &t);
                    arc = resolve(&arc, h, &ADA, Resource::Influence, &share, &t).unwrap().0;
                }
                _ => {}
            }
        }
        prop_assert!(per_arc.values().all(|&n| n <= 1), "{per_arc:?}");
        Ok(seen)
    }

    /// The random plays above reach Turning Points, second attempts and arc ends, so the
    /// property covers them.
    #[test]
    fn random_arcs_reach_every_outcome() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut total = Seen::default();
        for _ in 0..300 {
            let ops: Vec<(u8, u128, u32, bool)> = (0..60)
                .map(|_| {
                    (rng.random_range(0..5), rng.random_range(0..12), rng.random_range(1..4), rng.random_bool(0.5))
                })
                .collect();
            let seen = random_arcs(&ops).unwrap();
            total.turning_points += seen.turning_points;
            total.refused_twice += seen.refused_twice;
            total.arcs_ended += seen.arcs_ended;
        }
        assert!(total.turning_points > 0 && total.refused_twice > 0 && total.arcs_ended > 0);
    }

    #[test]
    fn the_games_own_laws_are_named_once_and_never_as_the_sources_laws() {
        let law = |n| Uuid::from_u128(n);
        let laws = put_law(&[], law(1), " Law of Heroes ", "Heroes win in the end").unwrap();
        assert_eq!(laws[0].name, "Law of Heroes");
        let laws = put_law(&laws, law(2), "Doom", "Omens come true").unwrap();
        assert_eq!(
            put_law(&laws, law(3), "law of heroes", "x").unwrap_err().to_string(),
            "name: the game already has a law “law of heroes”"
        );
        assert_eq!(
            put_law(&laws, law(3), "Law of Inertia", "x").unwrap_err().to_string(),
            "name: “Law of Inertia” is one of the source's own laws"
        );
        assert!(put_law(&laws, law(3), "Fate", "").unwrap_err().to_string().starts_with("effect:"));
        let edited = put_law(&laws, law(2), "Dark omens", "Omens come true, twice").unwrap();
        assert_eq!((edited.len(), edited[1].name.as_str()), (2, "Dark omens"));
        assert_eq!(remove_law(&edited, law(1)).unwrap().len(), 1);
        assert_eq!(remove_law(&edited, law(9)).unwrap_err().to_string(), "id: is not one of this game's Setting Laws");
    }

    #[test]
    fn facts_belong_to_their_arc_and_are_written_once_per_arc() {
        let f = |n| Uuid::from_u128(n);
        let facts = put_fact(&[], 1, f(1), "The bridge is down").unwrap();
        assert_eq!(
            put_fact(&facts, 1, f(2), "the bridge is down").unwrap_err().to_string(),
            "text: “the bridge is down” is already a fact of this arc"
        );
        let facts = put_fact(&facts, 2, f(2), "The bridge is down").unwrap();
        assert_eq!((facts[0].arc, facts[1].arc), (1, 2), "the same words may be a fact of another arc");
        let edited = put_fact(&facts, 2, f(1), "The bridge is rebuilt").unwrap();
        assert_eq!((edited[0].arc, edited[0].text.as_str()), (1, "The bridge is rebuilt"), "a rewrite keeps its arc");
        assert!(put_fact(&facts, 2, f(3), "line\nbreak").is_err());
        assert_eq!(remove_fact(&edited, f(2)).unwrap().len(), 1);
        assert!(remove_fact(&edited, f(9)).is_err());
    }
}
