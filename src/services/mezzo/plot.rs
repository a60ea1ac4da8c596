//! Mezzo plot hooks and arcs (RULES.md §3.5) and the seed deck (§3.6) at the table. The
//! rules (`rules::mezzo::plot`, `rules::mezzo::seed_deck`) decide every move and return the
//! resource changes it causes; a move here finds who pays and who gains, calls the rule, and
//! applies those changes to the players and elements through the element rules, all in the
//! one transaction and the one undoable `mezzo_table_changed` event of [`change`].
//!
//! Rulings where the rules leave the table to the app:
//! - The challenge a Raise Stakes, No Escape or Turning Point happens in is named by the
//!   caller (its id and its challengers, which must be story elements of the game). While the
//!   table plays a challenge (`mezzo_challenge`), it must be that one, naming its
//!   challengers; its No Escape targets lapse when it ends.
//! - Raise Stakes' momentum goes into the pool of the stake it raises, kept with the challenge
//!   being played (`rules::mezzo::challenge::raise_stake`): the stake's owners spend it on
//!   leaving in victory, and it ends with the stake or the challenge.
//! - The deck's players are the table's: building the deck deals every player in, and a
//!   player who joined the table since is dealt in when a session starts. A card's owner who
//!   left the table earns nothing from a link (nobody holds their influence).
//! - Every deck move is made by a player at the table.
//! - The keyword die is chosen once for the table and rolled by a player; the roll is logged
//!   (with no change to the table) so the keyword stays in the history.

use std::collections::BTreeMap;

use rand::Rng;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::rules::journal::{self, Journal};
use crate::rules::mezzo::element::{self as rules, AdversitySpend, Element, MomentumSource, MomentumSpend, Player};
use crate::rules::mezzo::plot::{
    self, Arc, Award, BoostDraw, Consequence, Grant, InChallenge, MemorableAward, NoEscape, PlotHook, Resource,
    Sacrifice, Take, Targets, TurningPoint, User,
};
use crate::rules::mezzo::seed_deck::{self as seeds, ActiveCard, Card, KeywordDie, KeywordDraw, Link, SeedDeck};
use crate::rules::mezzo::table::MezzoTable;
use crate::services::dice::{with_dice, DiceInput};
use crate::services::mezzo::{change, participants, MezzoChange, Work};
use crate::services::viewer::{device_viewer, not_yours, Viewer};
use crate::store::{Reader, Store};

// ---------------------------------------------------------------------------------------
// Views

/// Points of each kind: what a hook holds, costs or gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Points {
    pub influence: u32,
    pub adversity: u32,
    pub momentum: u32,
}

impl Points {
    fn of(amount: impl Fn(Resource) -> u32) -> Points {
        Points {
            influence: amount(Resource::Influence),
            adversity: amount(Resource::Adversity),
            momentum: amount(Resource::Momentum),
        }
    }
}

/// An open plot hook with the points it stores (each investment, oldest first, in
/// `stored`), counted by kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HookView {
    #[serde(flatten)]
    pub hook: PlotHook,
    pub points: Points,
    pub total: u32,
}

/// The arc being played, as the whole table sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlotView {
    /// From 1 (0 before the first arc starts).
    pub arc: u32,
    pub turning_point: Option<TurningPoint>,
    /// What making a hook costs in each resource (doubled after the Turning Point)…
    pub hook_cost: Points,
    /// …and what resolving one gives its user.
    pub resolve_reward: Points,
    /// The arc may end: its Turning Point came.
    pub can_end: bool,
    pub hooks: Vec<HookView>,
    pub no_escape: Vec<NoEscape>,
    /// Actions' side effects kept on the arc (lingering, or contagious: past its end).
    pub consequences: Vec<Consequence>,
    /// The name of every player and story element of the game, by id (investors,
    /// challengers, themes' authors, No Escape targets).
    pub names: BTreeMap<Uuid, String>,
}

/// A plot move: the table after it, and the plot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlotChange {
    pub change: MezzoChange,
    pub plot: PlotView,
}

/// One player's seat at the deck, as the table sees it: their active cards face up, their
/// hand and depleted cards counted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub player: Uuid,
    pub name: String,
    pub hand: usize,
    pub active: Vec<ActiveCard>,
    pub depleted: usize,
    /// May still discard one card and draw one at this end of a scene or challenge.
    pub may_refresh: bool,
}

/// The seed deck as the whole table sees it: nobody's hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeckView {
    /// The table built its deck (until then the rest is empty).
    pub built: bool,
    /// The journal's latest session (0: none yet), being played or ended.
    pub session: u32,
    /// A session is being played (the journal's).
    pub in_session: bool,
    /// The session's initial draw is open (cards at 1 influence each).
    pub initial_draw: bool,
    /// Cards face down in the draw pile.
    pub draw_pile: usize,
    /// Face up; the latest discarded last.
    pub discard: Vec<Card>,
    pub seats: Vec<SeatView>,
    pub links: Vec<Link>,
    /// The active inspiration card.
    pub inspiration: Option<Card>,
    /// An inspiration draw shown to all, waiting to be played or discarded.
    pub shown: Option<Card>,
    pub keyword_die: Option<KeywordDie>,
}

/// One player's own cards, for their eyes (behind a "pass the device" screen).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandView {
    pub player: Uuid,
    pub name: String,
    pub hand: Vec<Card>,
    pub active: Vec<ActiveCard>,
    pub depleted: Vec<Card>,
    pub may_refresh: bool,
    /// Influence they hold (cards cost 1 each in the initial draw).
    pub influence: u32,
}

/// A deck move: the table after it, and the deck as the table sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeckChange {
    pub change: MezzoChange,
    pub deck: DeckView,
}

/// A keyword die rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeywordOutcome {
    pub change: MezzoChange,
    pub draw: KeywordDraw,
}

/// A new plot hook as the UI sends it: the app gives it its id.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookDraft {
    /// The focus: a question, goal or statement.
    pub text: String,
    /// The story elements the focus is about.
    #[serde(default)]
    pub elements: Vec<Uuid>,
    /// 1 influence (the player's), 1 momentum or 2 adversity (the element's); doubled
    /// after the Turning Point.
    pub pay_with: Resource,
}

fn names(players: &[Player], elements: &[Element]) -> BTreeMap<Uuid, String> {
    players.iter().map(|p| (p.id, p.name.clone())).chain(elements.iter().map(|e| (e.id, e.name.clone()))).collect()
}

fn plot_view(table: &MezzoTable, players: &[Player], elements: &[Element]) -> PlotView {
    let plot = &table.plot;
    PlotView {
        arc: plot.number,
        turning_point: plot.turning_point.clone(),
        hook_cost: Points::of(|r| plot.hook_cost(r)),
        resolve_reward: Points::of(|r| plot.resolve_reward(r)),
        can_end: plot.can_end(),
        hooks: plot
            .hooks
            .iter()
            .map(|h| HookView { points: Points::of(|r| h.points(r)), total: h.total(), hook: h.clone() })
            .collect(),
        no_escape: plot.no_escape.clone(),
        consequences: plot.consequences.clone(),
        names: names(players, elements),
    }
}

fn deck_view(table: &MezzoTable, journal: &Journal) -> DeckView {
    let empty = SeedDeck::default();
    let deck = table.deck.as_ref().unwrap_or(&empty);
    let name = |id: Uuid| table.players.iter().find(|p| p.id == id).map_or_else(String::new, |p| p.name.clone());
    DeckView {
        built: table.deck.is_some(),
        session: journal.latest_number(),
        in_session: journal.open_session().is_some(),
        initial_draw: deck.initial_draw,
        draw_pile: deck.draw_pile.len(),
        discard: deck.discard.clone(),
        seats: deck
            .players
            .iter()
            .map(|h| SeatView {
                player: h.player,
                name: name(h.player),
                hand: h.hand.len(),
                active: h.active.clone(),
                depleted: h.depleted.len(),
                may_refresh: deck.refresh.contains(&h.player),
            })
            .collect(),
        links: deck.links.clone(),
        inspiration: deck.inspiration.clone(),
        shown: deck.shown.clone(),
        keyword_die: table.keyword_die.clone(),
    }
}

/// The arc being played: its hooks with their stored points, its Turning Point, No Escape
/// targets, and what hooks cost and give now.
pub fn mezzo_plot(store: &Store, game: Uuid) -> Result<PlotView> {
    let read = store.read();
    let (players, elements) = participants(read, game)?;
    Ok(plot_view(&read.mezzo_table(game)?, &players, &elements))
}

/// The seed deck as the table sees it, with the keyword die.
pub fn mezzo_deck(store: &Store, game: Uuid) -> Result<DeckView> {
    let read = store.read();
    participants(read, game)?;
    Ok(deck_view(&read.mezzo_table(game)?, &read.journal(game)?))
}

/// `player`'s own cards.
pub fn mezzo_hand(store: &Store, game: Uuid, player: Uuid) -> Result<HandView> {
    let read = store.read();
    let (_, elements) = participants(read, game)?;
    let viewer = device_viewer(read, game)?;
    if !holds_for(&viewer, &elements, player) {
        return Err(not_yours("player", "That player's hand"));
    }
    hand_of(read, game, player)
}

/// Whether `viewer` may see `player`'s hand: a device passed around may (behind its "pass
/// the device" screen); a player's device sees the hands of the players its person sits as
/// and of those who claimed one of its characters (`seeds::sees_hand`); the table and
/// everyone see no hand.
fn holds_for(viewer: &Viewer, elements: &[Element], player: Uuid) -> bool {
    match viewer {
        Viewer::PassedAround => true,
        Viewer::Player(mine) => seeds::sees_hand(player, mine, elements),
        Viewer::Table | Viewer::Everyone => false,
    }
}

/// The Mezzo players of a game as this device plays them (DEV-1: a player is a viewer in
/// their own right, whether or not they claim a character).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatsView {
    /// The players this device's person sits as (chosen here: "This is me").
    pub sat: Vec<Uuid>,
    /// The players this device acts for and whose hands it shows: on a player's own device
    /// those it sits as and those who claimed one of its characters; every player on a device
    /// passed around; none on the table's.
    pub mine: Vec<Uuid>,
    /// This device joined the game at a linked table: the host seats it (a seat is asked for
    /// like a character, through the link), not this device.
    pub linked: bool,
}

fn seats_in(read: Reader<'_>, game: Uuid) -> Result<SeatsView> {
    let (players, _) = participants(read, game)?;
    let sat = read.mezzo_seats(game)?;
    let viewer = device_viewer(read, game)?;
    Ok(SeatsView {
        sat: players.iter().map(|p| p.id).filter(|id| sat.contains(id)).collect(),
        mine: hand_holders_for(read, game, &viewer)?,
        linked: read.link_joined(game)?,
    })
}

/// Which players this device sits as and acts for in `game`.
pub fn mezzo_seats(store: &Store, game: Uuid) -> Result<SeatsView> {
    store.snapshot(|read| seats_in(read, game))
}

/// This device's person sits as `player` (`mine`: "This is me"), or stands up. From then on
/// a player's device shows that player's hand and influence and casts their votes, with or
/// without a claimed character. It is the device's own setting, like its role: no move of
/// the table, nothing logged, no file carries it. At a linked table the host seats a joined
/// device (it asks as for a character), so it is refused there.
pub fn mezzo_sit(store: &mut Store, game: Uuid, player: Uuid, mine: bool) -> Result<SeatsView> {
    store.write(|tx| {
        let (players, _) = participants(tx.read(), game)?;
        if !players.iter().any(|p| p.id == player) {
            return Err(Error::invalid("player", format!("{player} is not a player at this table")));
        }
        if tx.read().link_joined(game)? {
            return Err(Error::invalid("player", "at a linked table the table seats this device: ask it to"));
        }
        tx.set_mezzo_seat(game, player, mine)?;
        seats_in(tx.read(), game)
    })
}

/// The players whose hands `viewer` may see (every one for a device passed around).
pub(crate) fn hand_holders_for(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<Vec<Uuid>> {
    let (players, elements) = participants(read, game)?;
    Ok(players.iter().filter(|p| holds_for(viewer, &elements, p.id)).map(|p| p.id).collect())
}

/// The hands `viewer` may see (none for a device passed around: it asks for each).
pub(in crate::services) fn hands_for(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<Vec<HandView>> {
    let (players, elements) = participants(read, game)?;
    let table = read.mezzo_table(game)?;
    let Some(deck) = table.deck.as_ref() else { return Ok(Vec::new()) };
    players
        .iter()
        .filter(|p| *viewer != Viewer::PassedAround && holds_for(viewer, &elements, p.id))
        .filter(|p| deck.holding(p.id).is_some())
        .map(|p| hand_of(read, game, p.id))
        .collect()
}

fn hand_of(read: Reader<'_>, game: Uuid, player: Uuid) -> Result<HandView> {
    let table = read.mezzo_table(game)?;
    let p = table
        .players
        .iter()
        .find(|p| p.id == player)
        .ok_or_else(|| Error::invalid("player", format!("{player} is not a player at this table")))?;
    let deck = table.deck.as_ref().ok_or_else(no_deck)?;
    let h = deck
        .holding(player)
        .ok_or_else(|| Error::invalid("player", format!("{} is not dealt in yet: start a session", p.name)))?;
    Ok(HandView {
        player,
        name: p.name.clone(),
        hand: h.hand.clone(),
        active: h.active.clone(),
        depleted: h.depleted.clone(),
        may_refresh: deck.refresh.contains(&player),
        influence: p.influence,
    })
}

/// The share-out [`mezzo_resolve_hook`] uses when none is given: round robin over the other
/// players and elements in the table's order.
pub fn mezzo_even_share(store: &Store, game: Uuid, hook: Uuid, user: &User) -> Result<Vec<Award>> {
    let read = store.read();
    let (players, elements) = participants(read, game)?;
    let table = read.mezzo_table(game)?;
    Ok(plot::even_share(table.plot.hook(hook)?, user, &targets(&players, &elements)))
}

// ---------------------------------------------------------------------------------------
// Applying the rules' grants

fn points(field: &str, amount: i64) -> Result<u32> {
    u32::try_from(amount.unsigned_abs()).map_err(|_| Error::invalid(field, "too many points"))
}

/// Applies the rules' resource changes: influence to or from a player, adversity and
/// momentum to or from an element. A payment is spent by `by` (a claimed element's points
/// are its claimer's to spend) and never runs into adversity debt; gained adversity pays
/// debt first.
fn apply(w: &mut Work<'_>, grants: &[Grant], by: Uuid) -> Result<()> {
    for g in grants {
        let n = points("points", g.amount)?;
        if n == 0 {
            continue;
        }
        let paid = g.amount < 0;
        if g.resource.is_players() {
            let p = w.player(g.to)?;
            let (after, events) = if paid { rules::spend_influence(&p, n)? } else { rules::gain_influence(&p, n)? };
            w.set_player(after);
            w.done(events, String::new())?;
            continue;
        }
        let e = w.element(g.to)?;
        let (after, events) = match (g.resource, paid) {
            (Resource::Adversity, true) => {
                rules::spend_adversity(&e, &AdversitySpend::PlotHook { points: n }, by, false)?
            }
            (Resource::Adversity, false) => rules::gain_adversity(&e, n)?,
            (_, true) => rules::spend_momentum(&e, &MomentumSpend::PlotHook { points: n }, by)?,
            (_, false) => rules::gain_momentum(&e, n, MomentumSource::PlotHook)?,
        };
        w.set_element(after);
        w.done(events, String::new())?;
    }
    Ok(())
}

/// A user of the table: a player at it, and an element of the game if named.
fn check_user(w: &Work<'_>, user: &User) -> Result<()> {
    w.player(user.player)
        .map_err(|_| Error::invalid("user.player", format!("{} is not a player at this table", user.player)))?;
    if let Some(e) = user.element {
        w.element(e).map_err(|_| Error::invalid("user.element", format!("{e} is not a story element of this game")))?;
    }
    Ok(())
}

/// What the user's holder of `resource` holds: the player's influence, the element's
/// adversity or momentum.
fn held(w: &Work<'_>, user: &User, resource: Resource, field: &str) -> Result<u32> {
    let holder = user.holder(resource, field)?;
    Ok(match resource {
        Resource::Influence => w.player(holder)?.influence,
        Resource::Adversity => w.element(holder)?.adversity,
        Resource::Momentum => w.element(holder)?.momentum,
    })
}

fn targets(players: &[Player], elements: &[Element]) -> Targets {
    Targets { players: players.iter().map(|p| p.id).collect(), elements: elements.iter().map(|e| e.id).collect() }
}

/// The name of a player or element of the game, for messages.
fn name(w: &Work<'_>, id: Uuid) -> String {
    if let Ok(p) = w.player(id) {
        return p.name;
    }
    w.element(id).map_or_else(|_| id.to_string(), |e| e.name)
}

/// The user's name: the player, "through" the element if any.
fn user_name(w: &Work<'_>, user: &User) -> String {
    match user.element {
        Some(e) => format!("{} (through {})", name(w, user.player), name(w, e)),
        None => name(w, user.player),
    }
}

fn amount(n: u32, resource: Resource) -> String {
    format!("{n} {}", resource.word())
}

/// Plot moves happen in an arc.
fn in_arc(w: &Work<'_>) -> Result<()> {
    if w.table.arc() == 0 {
        return Err(Error::invalid("arc", "no arc has started: plot hooks belong to an arc"));
    }
    Ok(())
}

/// The challenge named by the caller is the one the table is playing (Raise Stakes, No
/// Escape and the Turning Point are only used during a challenge), and its challengers are
/// that challenge's and story elements of the game.
fn check_challenge(w: &Work<'_>, challenge: &InChallenge) -> Result<()> {
    // These options are only used during a challenge: the one on the table.
    let Some(playing) = w.table.challenge.as_ref().filter(|ch| !ch.over) else {
        return Err(Error::invalid("challenge", "no challenge is being played: start one first"));
    };
    if challenge.id != playing.id {
        return Err(Error::invalid("challenge.id", format!("the challenge being played is {}", playing.id)));
    }
    for (i, c) in challenge.challengers.iter().enumerate() {
        if playing.challenger(*c).is_none() {
            return Err(Error::invalid(
                format!("challenge.challengers[{i}]"),
                format!("{c} is not a challenger of the challenge being played"),
            ));
        }
    }
    for (i, c) in challenge.challengers.iter().enumerate() {
        w.element(*c).map_err(|_| {
            Error::invalid(format!("challenge.challengers[{i}]"), format!("{c} is not a story element of this game"))
        })?;
    }
    Ok(())
}

/// Plays a plot move through [`change`] and returns the plot as it left it.
fn plot_move(store: &mut Store, game: Uuid, play: impl FnOnce(&mut Work<'_>) -> Result<String>) -> Result<PlotChange> {
    let mut seen = None;
    let change = change(store, game, |w| {
        let message = play(w)?;
        let (players, elements) = w.participants();
        seen = Some(plot_view(&w.table, &players, &elements));
        Ok(message)
    })?;
    let plot = seen.ok_or_else(|| Error::invalid("plot", "the move left no plot"))?;
    Ok(PlotChange { change, plot })
}

// ---------------------------------------------------------------------------------------
// Plot hooks

/// Turns an idea brought up in play into a plot hook, paid by `user` (1 influence, 1
/// momentum or 2 adversity; twice as much after the Turning Point).
pub fn mezzo_create_hook(store: &mut Store, game: Uuid, user: &User, draft: &HookDraft) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        in_arc(w)?;
        check_user(w, user)?;
        for (i, e) in draft.elements.iter().enumerate() {
            w.element(*e).map_err(|_| {
                Error::invalid(format!("elements[{i}]"), format!("{e} is not a story element of this game"))
            })?;
        }
        let has = held(w, user, draft.pay_with, "pay_with")?;
        let id = Uuid::new_v4();
        let (arc, grants, events) =
            plot::create_hook(&w.table.plot, id, &draft.text, &draft.elements, user, draft.pay_with, has)?;
        apply(w, &grants, user.player)?;
        let cost = w.table.plot.hook_cost(draft.pay_with);
        w.table.plot = arc;
        w.note(&events);
        Ok(format!(
            "{} makes the plot hook “{}” for {}.",
            user_name(w, user),
            draft.text.trim(),
            amount(cost, draft.pay_with)
        ))
    })
}

/// Invest: the user stores `points` of `resource` in a triggered hook.
pub fn mezzo_invest(
    store: &mut Store,
    game: Uuid,
    hook: Uuid,
    user: &User,
    resource: Resource,
    points: u32,
) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        check_user(w, user)?;
        let has = held(w, user, resource, "resource")?;
        let (arc, grants, events) = plot::invest(&w.table.plot, hook, user, resource, points, has)?;
        apply(w, &grants, user.player)?;
        let text = arc.hook(hook)?.text.clone();
        w.table.plot = arc;
        w.note(&events);
        Ok(format!("{} invests {} in “{text}”.", user_name(w, user), amount(points, resource)))
    })
}

/// Tap: the user draws one point of `resource` from a triggered hook.
pub fn mezzo_tap(store: &mut Store, game: Uuid, hook: Uuid, user: &User, resource: Resource) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        check_user(w, user)?;
        let text = w.table.plot.hook(hook)?.text.clone();
        let (arc, grants, events) = plot::tap(&w.table.plot, hook, user, resource)?;
        apply(w, &grants, user.player)?;
        w.table.plot = arc;
        w.note(&events);
        Ok(format!("{} taps “{text}” for {}.", user_name(w, user), amount(1, resource)))
    })
}

/// Resolve: a triggered hook leaves play; the user takes `reward` (1 influence, 1 momentum
/// or 2 adversity, doubled after the Turning Point) and its stored points are shared out
/// among the other players and elements as `share` says, or evenly ([`plot::even_share`])
/// without one.
pub fn mezzo_resolve_hook(
    store: &mut Store,
    game: Uuid,
    hook: Uuid,
    user: &User,
    reward: Resource,
    share: Option<&[Award]>,
) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        check_user(w, user)?;
        let (players, elements) = w.participants();
        let targets = targets(&players, &elements);
        let h = w.table.plot.hook(hook)?;
        let share = share.map_or_else(|| plot::even_share(h, user, &targets), <[Award]>::to_vec);
        let given = w.table.plot.resolve_reward(reward);
        let text = h.text.clone();
        let (arc, grants, events) = plot::resolve(&w.table.plot, hook, user, reward, &share, &targets)?;
        apply(w, &grants, user.player)?;
        w.table.plot = arc;
        w.note(&events);
        let shared: u32 = share.iter().map(|a| a.points).sum();
        let shared = if shared > 0 { format!("; {shared} stored point(s) shared out") } else { String::new() };
        Ok(format!("{} resolves “{text}” and takes {}{shared}.", user_name(w, user), amount(given, reward)))
    })
}

/// Raise Stakes (at least 2 triggered hooks): the points taken out of them become momentum
/// for `challenger`'s stake (see the ruling above).
pub fn mezzo_raise_stakes(
    store: &mut Store,
    game: Uuid,
    hooks: &[Uuid],
    challenge: &InChallenge,
    challenger: Uuid,
    take: &[Take],
) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        check_challenge(w, challenge)?;
        let (arc, grants, events) = plot::raise_stakes(&w.table.plot, hooks, Some(challenge), challenger, take)?;
        let (to_stake, other): (Vec<Grant>, Vec<Grant>) = grants.into_iter().partition(|g| g.stake);
        apply(w, &other, Uuid::nil())?;
        let momentum: i64 = to_stake.iter().map(|g| g.amount).sum();
        let running = w
            .table
            .challenge
            .as_ref()
            .filter(|ch| !ch.over && ch.id == challenge.id)
            .ok_or_else(|| Error::invalid("challenge.id", "a stake is raised in the challenge being played"))?;
        let (ch, raised) = crate::rules::mezzo::challenge::raise_stake(running, challenger, points("take", momentum)?)?;
        w.table.challenge = Some(ch);
        w.table.plot = arc;
        w.note(&events);
        w.note(&raised);
        Ok(format!(
            "{} hooks raise the stakes of {}: {momentum} momentum. It goes to the stake's own pool.",
            hooks.len(),
            name(w, challenger)
        ))
    })
}

/// No Escape (at least 3 triggered hooks): the user's challenger names `target` for removal.
pub fn mezzo_no_escape(
    store: &mut Store,
    game: Uuid,
    hooks: &[Uuid],
    challenge: &InChallenge,
    user: &User,
    target: Uuid,
) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        check_user(w, user)?;
        check_challenge(w, challenge)?;
        w.element(target)
            .map_err(|_| Error::invalid("target", format!("{target} is not a story element of this game")))?;
        let (arc, _, events) = plot::no_escape(&w.table.plot, hooks, Some(challenge), user, target)?;
        w.table.plot = arc;
        w.note(&events);
        Ok(format!("No Escape: {} names {} for removal.", user_name(w, user), name(w, target)))
    })
}

/// No Escape's pay-off: the user's challenger, leaving or gone from `challenge` in victory
/// (as the stored challenge says, while it is played: its No Escape lapses when it ends),
/// spends 2 momentum to ignore `target`'s Plot Protection until the challenge is over.
pub fn mezzo_ignore_protection(
    store: &mut Store,
    game: Uuid,
    challenge: Uuid,
    user: &User,
    target: Uuid,
) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        check_user(w, user)?;
        let by =
            user.element.ok_or_else(|| Error::invalid("user.element", "name the challenger that left in victory"))?;
        let left_in_victory = w
            .table
            .challenge
            .as_ref()
            .filter(|ch| ch.id == challenge && !ch.over)
            .and_then(|ch| ch.challenger(by))
            .and_then(|c| c.gone())
            .is_some_and(|(how, _)| how == crate::rules::mezzo::challenge::Leave::Victory);
        let has = w.element(by)?.momentum;
        let (arc, grants, events) =
            plot::ignore_protection(&w.table.plot, challenge, by, target, left_in_victory, has)?;
        apply(w, &grants, user.player)?;
        w.table.plot = arc;
        w.note(&events);
        Ok(format!("{} ignores the Plot Protection of {} (2 momentum).", name(w, by), name(w, target)))
    })
}

/// A challenge is over: its No Escape targets lapse.
pub fn mezzo_no_escape_lapses(store: &mut Store, game: Uuid, challenge: Uuid) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        let (arc, events) = plot::challenge_over(&w.table.plot, challenge);
        if events.is_empty() {
            return Err(Error::invalid("challenge", "no No Escape target was named in this challenge"));
        }
        w.table.plot = arc;
        w.note(&events);
        Ok(format!("The challenge is over: {} No Escape target(s) lapse.", events.len()))
    })
}

/// The Turning Point (at least 5 triggered hooks, once per arc, during `challenge`):
/// `sacrifices` make adversity where the hooks lack it, each of `draws` gives a challenger a
/// point of adversity; costs and rewards double for the rest of the arc.
pub fn mezzo_turning_point(
    store: &mut Store,
    game: Uuid,
    hooks: &[Uuid],
    challenge: &InChallenge,
    sacrifices: &[Sacrifice],
    draws: &[BoostDraw],
) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        in_arc(w)?;
        check_challenge(w, challenge)?;
        let (arc, grants, events) = plot::turning_point(&w.table.plot, hooks, Some(challenge), sacrifices, draws)?;
        apply(w, &grants, Uuid::nil())?;
        w.table.plot = arc;
        w.note(&events);
        Ok(format!(
            "The Turning Point of arc {}: {} hooks tied together; hooks cost and give twice as much until the arc \
             ends.",
            w.table.arc(),
            hooks.len()
        ))
    })
}

/// A challenger of the Turning Point's challenge, leaving it, sets a theme of the arc.
pub fn mezzo_set_theme(store: &mut Store, game: Uuid, by: Uuid, text: &str) -> Result<PlotChange> {
    plot_move(store, game, |w| {
        let (arc, _, events) = plot::set_theme(&w.table.plot, by, text)?;
        w.table.plot = arc;
        w.note(&events);
        Ok(format!("{} sets a theme of the arc: “{}”.", name(w, by), text.trim()))
    })
}

/// Keeps an action's side effects on the arc being played (`id` None), or rewrites
/// consequence `id`; `contagious` (Contagious Consequences bought) keeps it past the arc's end.
/// The table's own record, like the facts: a player's device does not change it.
pub fn mezzo_put_consequence(
    store: &mut Store,
    game: Uuid,
    id: Option<Uuid>,
    text: &str,
    contagious: bool,
) -> Result<PlotChange> {
    table_register(store, game, "consequences")?;
    plot_move(store, game, |w| {
        in_arc(w)?;
        known_id(id, w.table.plot.consequences.iter().map(|c| c.id), "is not a consequence kept on this arc")?;
        let (arc, _, events) = plot::put_consequence(&w.table.plot, id.unwrap_or_else(Uuid::new_v4), text, contagious)?;
        w.table.plot = arc;
        w.note(&events);
        let how = if contagious { "contagious: it outlasts the arc" } else { "lingering until the arc's end" };
        Ok(format!("Consequences kept on the arc ({how}): “{}”.", text.trim()))
    })
}

/// `id` when it names one of `ids` (a rewrite), None without one (a new entry); refused with
/// `problem` when it names none of them.
fn known_id(id: Option<Uuid>, mut ids: impl Iterator<Item = Uuid>, problem: &str) -> Result<Option<Uuid>> {
    match id {
        Some(id) if !ids.any(|i| i == id) => Err(Error::invalid("id", problem)),
        known => Ok(known),
    }
}

/// Strikes consequence `id` out.
pub fn mezzo_remove_consequence(store: &mut Store, game: Uuid, id: Uuid) -> Result<PlotChange> {
    table_register(store, game, "consequences")?;
    plot_move(store, game, |w| {
        let (arc, _, events) = plot::remove_consequence(&w.table.plot, id)?;
        let text = w.table.plot.consequences.iter().find(|c| c.id == id).map(|c| c.text.clone()).unwrap_or_default();
        w.table.plot = arc;
        w.note(&events);
        Ok(format!("The consequence “{text}” is over."))
    })
}

/// Ends the arc (after its Turning Point) with its memorable-element awards, and starts the
/// next.
pub fn mezzo_end_arc(store: &mut Store, game: Uuid, memorable: &[MemorableAward]) -> Result<PlotChange> {
    plot_move(store, game, |w| next_arc(w, memorable))
}

/// Starts the first or the next arc: every player back to 3 influence; the arc before ends,
/// only after its Turning Point, through the plot rules (its hooks expire) and for every
/// element (adversity, debt and momentum lost, one-arc and one-scene traits gone).
pub fn mezzo_start_arc(store: &mut Store, game: Uuid) -> Result<MezzoChange> {
    change(store, game, |w| next_arc(w, &[]))
}

/// Starts the first arc, or ends the one being played (through the plot rules: only after
/// its Turning Point; its hooks expire, `memorable` elements get their awards, every
/// element's adversity, debt and momentum and one-arc traits go) and starts the next; every
/// player holds 3 influence.
pub(in crate::services) fn next_arc(w: &mut Work<'_>, memorable: &[MemorableAward]) -> Result<String> {
    let ended = w.table.arc();
    if ended == u32::MAX {
        return Err(Error::invalid("arc", "no arc comes after this one"));
    }
    crate::rules::mezzo::table::check_influence_may_reset(&w.table)?;
    let mut said = Vec::new();
    if ended == 0 {
        if !memorable.is_empty() {
            return Err(Error::invalid("memorable", "no arc has ended yet: awards come at an arc's end"));
        }
        w.table.plot = Arc::new(1);
    } else {
        crate::rules::mezzo::table::check_arc_may_end(&w.table)?;
        let (players, elements) = w.participants();
        let player_ids: Vec<Uuid> = players.iter().map(|p| p.id).collect();
        let element_ids: Vec<Uuid> = elements.iter().map(|e| e.id).collect();
        let (next, ending, events) = plot::end_arc(&w.table.plot, &player_ids, &element_ids, memorable)?;
        for m in &ending.memorable {
            let (e, p) = (w.element(m.element)?, w.player(m.by)?);
            let (e, p, events) = rules::award_memorable(&e, &p, ending.arc, m.undisputable)?;
            w.set_element(e);
            w.set_player(p);
            w.done(events, String::new())?;
        }
        // The element rules carry out what the arc's end resets and expires for elements.
        for id in &ending.boons_expire {
            let (after, events) = rules::end_arc(&w.element(*id)?)?;
            w.set_element(after);
            w.done(events, String::new())?;
        }
        if !ending.expired_hooks.is_empty() {
            said.push(format!("{} plot hook(s) expire", ending.expired_hooks.len()));
        }
        let faded = w.table.plot.consequences.len() - next.consequences.len();
        if faded > 0 {
            said.push(format!("{faded} lingering consequence(s) fade"));
        }
        if !ending.memorable.is_empty() {
            said.push(format!("{} memorable element(s)", ending.memorable.len()));
        }
        w.table.plot = next;
        w.note(&events);
    }
    for p in w.table.players.clone() {
        let (after, events) = rules::start_arc(&p);
        w.set_player(after);
        w.done(events, String::new())?;
    }
    let next = w.table.arc();
    let said = if said.is_empty() { String::new() } else { format!(" ({})", said.join(", ")) };
    Ok(if ended > 0 {
        format!("Arc {ended} ends{said} and arc {next} begins: every player holds 3 influence again.")
    } else {
        format!("Arc {next} begins: every player holds 3 influence.")
    })
}

// ---------------------------------------------------------------------------------------
// The seed deck

fn no_deck() -> Error {
    Error::invalid("deck", "the table has no seed deck yet: build one")
}

fn deck_of(w: &Work<'_>) -> Result<SeedDeck> {
    w.table.deck.clone().ok_or_else(no_deck)
}

/// A player at the table, for a deck move.
fn seated(w: &Work<'_>, player: Uuid, field: &str) -> Result<String> {
    w.player(player)
        .map(|p| p.name)
        .map_err(|_| Error::invalid(field, format!("{player} is not a player at this table")))
}

/// New cards from their texts, each with a new id.
fn new_cards(texts: &[String]) -> Vec<Card> {
    texts.iter().map(|t| Card { id: Uuid::new_v4(), text: t.clone() }).collect()
}

/// Plays a deck move through [`change`] and returns the deck as the table sees it.
fn deck_move(store: &mut Store, game: Uuid, play: impl FnOnce(&mut Work<'_>) -> Result<String>) -> Result<DeckChange> {
    let mut seen = None;
    let change = change(store, game, |w| {
        let message = play(w)?;
        seen = Some(deck_view(&w.table, &w.journal));
        Ok(message)
    })?;
    let deck = seen.ok_or_else(no_deck)?;
    Ok(DeckChange { change, deck })
}

/// Saves the deck a rule returned, applies its influence changes, and notes its events.
fn dealt(w: &mut Work<'_>, (deck, grants, events): seeds::Dealt) -> Result<()> {
    // A card's owner who left the table earns nothing (see the rulings above).
    let grants: Vec<Grant> = grants.into_iter().filter(|g| w.player(g.to).is_ok()).collect();
    apply(w, &grants, Uuid::nil())?;
    w.table.deck = Some(deck);
    w.note(&events);
    Ok(())
}

/// Builds the table's seed deck from card texts (at least 3 per player), shuffled, every
/// player dealt in.
pub fn mezzo_build_deck<R: Rng>(store: &mut Store, game: Uuid, cards: &[String], rng: &mut R) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        if w.table.deck.is_some() {
            return Err(Error::invalid("deck", "the table has its seed deck: add cards to it"));
        }
        let players: Vec<Uuid> = w.table.players.iter().map(|p| p.id).collect();
        let moved = seeds::build(&new_cards(cards), &players, rng)?;
        let n = moved.0.draw_pile.len();
        dealt(w, moved)?;
        Ok(format!("The seed deck is built: {n} cards for {} players.", players.len()))
    })
}

/// Mixes new cards into the draw pile.
pub fn mezzo_add_cards<R: Rng>(store: &mut Store, game: Uuid, cards: &[String], rng: &mut R) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let moved = seeds::add_cards(&deck_of(w)?, &new_cards(cards), rng)?;
        dealt(w, moved)?;
        Ok(format!("{} card(s) are shuffled into the seed deck.", cards.len()))
    })
}

/// The campaign journal's next session starts on `date` (`YYYY-MM-DD`) with `attendees`
/// there (None: every player at the table). With a seed deck, players who joined the table
/// since are dealt in and the initial draw opens: one move, one undo.
pub fn mezzo_start_session(
    store: &mut Store,
    game: Uuid,
    date: &str,
    attendees: Option<&[String]>,
) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let players = w.table.players.clone();
        let everyone: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        let characters = w.characters.iter().map(|r| r.character.name.clone());
        let roster = journal::roster(characters, everyone.iter().cloned());
        w.journal = w.journal.start(date, attendees.unwrap_or(&everyone), &roster, w.log_at)?;
        let session = w.journal.latest_number();
        let Some(mut deck) = w.table.deck.clone() else {
            return Ok(format!("Session {session} starts."));
        };
        for p in players {
            if deck.holding(p.id).is_none() {
                let (next, _, events) = seeds::add_player(&deck, p.id)?;
                deck = next;
                w.note(&events);
            }
        }
        dealt(w, seeds::start_session(&deck, session))?;
        Ok(format!("Session {session} starts: each player may buy seed cards, 1 influence each."))
    })
}

/// The session being played ends (the journal's); an initial draw still open closes.
pub fn mezzo_end_session(store: &mut Store, game: Uuid) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let session = w.journal.open_session().map(|s| s.number);
        w.journal = w.journal.end(w.log_at)?;
        if let Some(deck) = &w.table.deck {
            let moved = seeds::end_session(deck);
            dealt(w, moved)?;
        }
        Ok(format!("Session {} ends.", session.unwrap_or_default()))
    })
}

/// The initial draw: `player` buys `count` cards at 1 influence each.
pub fn mezzo_buy_cards<R: Rng>(
    store: &mut Store,
    game: Uuid,
    player: Uuid,
    count: u32,
    rng: &mut R,
) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let who = seated(w, player, "player")?;
        let influence = w.player(player)?.influence;
        let moved = seeds::buy_cards(&deck_of(w)?, player, count, influence, rng)?;
        dealt(w, moved)?;
        Ok(format!("{who} buys {count} seed card(s) for {count} influence."))
    })
}

/// `player` plays a card from their hand: it becomes active.
pub fn mezzo_play_card(store: &mut Store, game: Uuid, player: Uuid, card: Uuid) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let who = seated(w, player, "player")?;
        let moved = seeds::play(&deck_of(w)?, player, card)?;
        let text = moved.0.holding(player).and_then(|h| h.active.last()).map(|a| a.card.text.clone());
        dealt(w, moved)?;
        Ok(format!("{who} plays “{}”.", text.unwrap_or_default()))
    })
}

/// A card `player` played whose idea did not make it into the game is depleted.
pub fn mezzo_deplete_card(store: &mut Store, game: Uuid, player: Uuid, card: Uuid) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let who = seated(w, player, "player")?;
        let moved = seeds::deplete(&deck_of(w)?, player, card)?;
        let text = moved.0.holding(player).and_then(|h| h.depleted.last()).map(|c| c.text.clone());
        dealt(w, moved)?;
        Ok(format!("{who} depletes “{}”.", text.unwrap_or_default()))
    })
}

/// `by` links one of their active cards to another player's (or the inspiration card): each
/// card linked for the first time earns its owner 1 influence.
pub fn mezzo_link_cards(store: &mut Store, game: Uuid, by: Uuid, card: Uuid, to: Uuid) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let who = seated(w, by, "by")?;
        let moved = seeds::link(&deck_of(w)?, by, card, to)?;
        let earned: Vec<String> = moved.1.iter().filter_map(|g| w.player(g.to).ok()).map(|p| p.name).collect();
        dealt(w, moved)?;
        let earned = if earned.is_empty() { String::new() } else { format!(" (+1 influence: {})", earned.join(", ")) };
        Ok(format!("{who} links two seed cards{earned}."))
    })
}

/// `player` discards one of their cards and, if `draw`, draws one.
pub fn mezzo_refresh<R: Rng>(
    store: &mut Store,
    game: Uuid,
    player: Uuid,
    card: Uuid,
    draw: bool,
    rng: &mut R,
) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let who = seated(w, player, "player")?;
        let moved = seeds::refresh(&deck_of(w)?, player, card, draw, rng)?;
        let text = moved.0.discard.last().map(|c| c.text.clone()).unwrap_or_default();
        dealt(w, moved)?;
        Ok(format!("{who} discards “{text}”{}.", if draw { " and draws a card" } else { "" }))
    })
}

/// `by` draws inspiration: the top card is shown to all.
pub fn mezzo_draw_inspiration<R: Rng>(store: &mut Store, game: Uuid, by: Uuid, rng: &mut R) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let who = seated(w, by, "by")?;
        let moved = seeds::draw_inspiration(&deck_of(w)?, by, rng)?;
        let text = moved.0.shown.as_ref().map(|c| c.text.clone()).unwrap_or_default();
        dealt(w, moved)?;
        Ok(format!("{who} draws inspiration: “{text}”."))
    })
}

/// The shown inspiration card's idea made it into the game (`played`: it becomes the
/// inspiration card) or did not (it is discarded).
pub fn mezzo_settle_inspiration(store: &mut Store, game: Uuid, played: bool) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        let deck = deck_of(w)?;
        let text = deck.shown.as_ref().map(|c| c.text.clone()).unwrap_or_default();
        let moved = seeds::settle_inspiration(&deck, played)?;
        dealt(w, moved)?;
        Ok(if played {
            format!("“{text}” is the inspiration card now.")
        } else {
            format!("“{text}” is discarded.")
        })
    })
}

/// The dice variant: the table chooses a die (d4 to d20) and a keyword for each face.
pub fn mezzo_set_keyword_die(store: &mut Store, game: Uuid, sides: u8, keywords: &[String]) -> Result<DeckChange> {
    deck_move(store, game, |w| {
        w.table.keyword_die = Some(KeywordDie::new(sides, keywords)?);
        Ok(format!("The keyword die is a d{sides}, a keyword on each face."))
    })
}

/// `player` rolls the keyword die (or types in the face rolled at the table): the face's
/// keyword is theirs, as a card's idea.
pub fn mezzo_roll_keyword<R: Rng>(
    store: &mut Store,
    game: Uuid,
    player: Uuid,
    dice: &DiceInput,
    rng: &mut R,
) -> Result<KeywordOutcome> {
    let mut drawn = None;
    let change = change(store, game, |w| {
        let who = seated(w, player, "player")?;
        let die = w
            .table
            .keyword_die
            .clone()
            .ok_or_else(|| Error::invalid("keyword_die", "the table has not chosen a keyword die"))?;
        let draw = with_dice(dice, rng, |d| die.draw(player, d))?;
        let message = format!("{who} rolls the keyword die: {}, “{}”.", draw.face, draw.keyword);
        w.note(std::slice::from_ref(&draw));
        drawn = Some(draw);
        Ok(message)
    })?;
    let draw = drawn.ok_or_else(|| Error::invalid("keyword_die", "nothing was rolled"))?;
    Ok(KeywordOutcome { change, draw })
}

// ---------------------------------------------------------------------------------------
// The game's own Setting Laws and the facts register (RULES.md §3.2)

/// The laws and facts belong to the whole table: a player's device on a linked table does
/// not change them (its player owns none of them).
fn table_register(store: &Store, game: Uuid, field: &str) -> Result<()> {
    match device_viewer(store.read(), game)? {
        Viewer::Player(_) => {
            Err(Error::invalid(field, "the table keeps its Setting Laws and facts: change them on the table's device"))
        }
        _ => Ok(()),
    }
}

/// Adds a Setting Law of the game (`id` None), or renames and rewrites law `id`.
pub fn mezzo_put_law(store: &mut Store, game: Uuid, id: Option<Uuid>, name: &str, effect: &str) -> Result<MezzoChange> {
    table_register(store, game, "laws")?;
    change(store, game, |w| {
        let known = known_id(id, w.table.laws.iter().map(|l| l.id), "is not one of this game's Setting Laws")?;
        w.table.laws = plot::put_law(&w.table.laws, id.unwrap_or_else(Uuid::new_v4), name, effect)?;
        Ok(match known {
            Some(_) => format!("The Setting Law “{}” is rewritten.", name.trim()),
            None => format!("A new Setting Law of the game: “{}”.", name.trim()),
        })
    })
}

/// Removes Setting Law `id` of the game.
pub fn mezzo_remove_law(store: &mut Store, game: Uuid, id: Uuid) -> Result<MezzoChange> {
    table_register(store, game, "laws")?;
    change(store, game, |w| {
        let name = w.table.laws.iter().find(|l| l.id == id).map(|l| l.name.clone()).unwrap_or_default();
        w.table.laws = plot::remove_law(&w.table.laws, id)?;
        Ok(format!("The Setting Law “{name}” is removed."))
    })
}

/// Adds an established fact to the arc being played (`id` None), or rewrites fact `id`.
pub fn mezzo_put_fact(store: &mut Store, game: Uuid, id: Option<Uuid>, text: &str) -> Result<MezzoChange> {
    table_register(store, game, "facts")?;
    change(store, game, |w| {
        let known = known_id(id, w.table.facts.iter().map(|f| f.id), "is not a fact of this table")?;
        let arc = w.table.arc();
        w.table.facts = plot::put_fact(&w.table.facts, arc, id.unwrap_or_else(Uuid::new_v4), text)?;
        Ok(match known {
            Some(_) => format!("A fact is rewritten: “{}”.", text.trim()),
            None => format!("A fact is established: “{}”.", text.trim()),
        })
    })
}

/// Removes fact `id` from the register.
pub fn mezzo_remove_fact(store: &mut Store, game: Uuid, id: Uuid) -> Result<MezzoChange> {
    table_register(store, game, "facts")?;
    change(store, game, |w| {
        let text = w.table.facts.iter().find(|f| f.id == id).map(|f| f.text.clone()).unwrap_or_default();
        w.table.facts = plot::remove_fact(&w.table.facts, id)?;
        Ok(format!("The fact “{text}” is struck from the register."))
    })
}
