//! Reading a Penny Ante table for a viewer: the views, with what the viewer may not see
//! left out, and the words of the log.

use super::*;

/// The game, which must exist and play Penny Ante.
pub(super) fn penny_game(read: Reader<'_>, game: Uuid) -> Result<Game> {
    game_playing(read, game, System::PennyAnte)
}

pub(super) fn setting(game: &Game, name: &str) -> u64 {
    let default = crate::rules::table_settings::defaults(System::PennyAnte).get(name).copied().unwrap_or(0);
    u64::try_from(game.table_settings.get(name).copied().unwrap_or(default)).unwrap_or(0)
}

pub(super) fn cap(game: &Game) -> Option<u64> {
    Some(setting(game, "antagonist_cap")).filter(|&c| c > 0)
}

/// The game's characters with their sheets.
pub(super) fn players(read: Reader<'_>, game: Uuid) -> Result<Vec<CharacterRecord>> {
    read.characters_of(game)?.into_iter().map(|c| load(read, c.id)).collect()
}

pub(super) fn roster(players: &[CharacterRecord]) -> Roster {
    players
        .iter()
        .map(|r| (r.character.id, r.penny_ante.as_ref().map(|s| s.characteristics.clone()).unwrap_or_default()))
        .collect()
}

/// Names every account.
pub(super) struct Names(BTreeMap<Account, String>);

impl Names {
    pub(super) fn new(players: &[CharacterRecord], table: &PennyTable) -> Self {
        let mut names = BTreeMap::new();
        for p in players {
            names.insert(Account::Character(p.character.id), p.character.name.clone());
        }
        for a in &table.antagonists {
            names.insert(Account::Antagonist(a.id), a.name.clone());
        }
        Names(names)
    }

    pub(super) fn of(&self, account: Account) -> String {
        match account {
            Account::Bank => "the Bank".into(),
            Account::House => "the House".into(),
            Account::Pot(_) => "the pot".into(),
            other => self.0.get(&other).cloned().unwrap_or_else(|| "someone no longer at the table".into()),
        }
    }

    fn named(&self, account: Account) -> Named {
        Named { account, name: self.of(account) }
    }

    pub(super) fn side(&self, c: &Challenge, side: Side) -> String {
        let names: Vec<String> = c.side(side).accounts().map(|a| self.of(a)).collect();
        match names.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => side.label().into(),
        }
    }
}

/// Whether `viewer`'s view of the table holds the House's secrets (purses, hidden
/// characteristics, devoted pennies). A device passed around does not: its screen is the
/// whole table's, and the House's secrets open only behind the window's hand-over
/// ([`penny_table_as_house`]).
pub(crate) fn shows_house_secrets(viewer: &Viewer) -> bool {
    *viewer == Viewer::Table
}

/// Whether `account` is a purse kept from a viewer without the House's secrets: an
/// antagonist not yet revealed by a direct challenge (RULES.md §2.2 decision 2026-11-28).
fn hidden_purse(table: &PennyTable, account: Account) -> bool {
    match account {
        Account::Antagonist(id) => !table.revealed(id),
        _ => false,
    }
}

/// The House's pile as a viewer sees it: without the House's secrets, what sits in the
/// purses still hidden counts as the House's, so that funding one (which such a viewer
/// does not see) cannot be worked out from the House's pile going down (D-PA2).
fn house_pile(table: &PennyTable, secrets: bool) -> i64 {
    let hidden: i64 = if secrets {
        0
    } else {
        table
            .antagonists
            .iter()
            .map(|a| Account::Antagonist(a.id))
            .filter(|&a| hidden_purse(table, a))
            .map(|a| table.pile(&a))
            .sum()
    };
    table.pile(&Account::House) + hidden
}

pub(super) fn view(read: Reader<'_>, game: &Game, table: &PennyTable, viewer: &Viewer) -> Result<PennyView> {
    let secrets = shows_house_secrets(viewer);
    let players = players(read, game.id)?;
    let names = Names::new(&players, table);
    let pile = |a: Account| table.pile(&a);
    let budget = table.house_budget(&players.iter().map(|p| p.character.id).collect::<Vec<_>>());
    let recurring_purses =
        table.antagonists.iter().filter(|a| a.recurring).map(|a| pile(Account::Antagonist(a.id))).sum();
    Ok(PennyView {
        game: game.clone(),
        starting_pennies: setting(game, "starting_pennies"),
        antagonist_cap: cap(game),
        adventure: table.adventure,
        house: house_pile(table, secrets),
        default_house_funding: budget.amount,
        house_budget: budget_view(&names, &budget),
        recurring_purses: secrets.then_some(recurring_purses),
        players: players
            .iter()
            .map(|p| {
                let id = p.character.id;
                let characteristics = p.penny_ante.as_ref().map(|s| s.characteristics.clone()).unwrap_or_default();
                let lost = p.penny_ante.as_ref().map_or(0, |s| s.lost);
                let characteristic_waits = if !table.adventure.running {
                    None
                } else if characteristics.is_empty() && lost > 0 {
                    Some("Lost in a buyout: a new free characteristic waits until the adventure ends.".to_owned())
                } else if !characteristics.is_empty() {
                    Some("Characteristics are bought only between adventures.".to_owned())
                } else {
                    None
                };
                PlayerView {
                    id,
                    name: p.character.name.clone(),
                    pile: pile(Account::Character(id)),
                    next_price: if characteristics.is_empty() { 0 } else { 5 },
                    lost,
                    characteristic_waits,
                    characteristics,
                    purchases: table.purchases(id),
                    received_starting_pennies: table
                        .ledger
                        .entries
                        .iter()
                        .any(|e| e.reason == Reason::StartingPennies && e.to == Account::Character(id)),
                }
            })
            .collect(),
        antagonists: table
            .antagonists
            .iter()
            .map(|a| AntagonistView {
                id: a.id,
                name: a.name.clone(),
                purse: (secrets || table.revealed(a.id)).then(|| pile(Account::Antagonist(a.id))),
                characteristics: a
                    .characteristics
                    .iter()
                    .filter(|c| secrets || table.revealed(a.id) || !c.hidden)
                    .map(|c| Characteristic { hidden: c.hidden && !table.revealed(a.id), ..c.clone() })
                    .collect(),
                recurring: a.recurring,
                revealed: table.revealed(a.id),
            })
            .collect(),
        loans: table
            .loans
            .iter()
            .map(|l| LoanView {
                id: l.id,
                lender: names.named(l.lender),
                borrower: names.named(l.borrower),
                amount: l.amount,
                repaid: l.repaid,
                outstanding: l.outstanding(),
                adventure: l.adventure,
                flagged: l.flagged,
                in_debt: l.in_debt,
            })
            .collect(),
        debts: table.ledger.debts.iter().map(|d: &Debt| debt_view(&names, d)).collect(),
        challenge: table.challenge.as_ref().map(|c| challenge_view(table, &players, &names, c, secrets)),
        history: table.history.iter().rev().map(|r| history_view(table, &names, r, viewer)).collect(),
    })
}

fn budget_view(names: &Names, b: &HouseBudget) -> HouseBudgetView {
    let joined: Vec<String> = b.newcomers.iter().map(|&c| names.of(Account::Character(c))).collect();
    let newcomers = match joined.as_slice() {
        [] => String::new(),
        [one] => format!(", and {one}'s starting pennies ({one} joined since)"),
        [rest @ .., last] => format!(", and the starting pennies of {} and {last}, who joined since", rest.join(", ")),
    };
    let words = match b.basis {
        FundingBasis::StartingPennies => {
            "the players' starting pennies, before any characteristic was bought (the first adventure)".to_owned()
        }
        FundingBasis::EndOf(n) => format!("the players' piles when adventure {n} ended{newcomers}"),
        FundingBasis::PilesNow => {
            "the players' piles now (no figure was kept when the last adventure ended)".to_owned()
        }
    };
    HouseBudgetView { amount: b.amount, basis: b.basis, words: sentence(words) }
}

fn history_view(table: &PennyTable, names: &Names, r: &ChallengeRecord, viewer: &Viewer) -> HistoryView {
    // A device passed around shows a hidden characteristic only behind the House's hand-over.
    let secrets = shows_house_secrets(viewer);
    let side_name = |s: Side| {
        let list: Vec<String> = r.side(s).members.iter().map(|a| names.of(*a)).collect();
        match list.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => s.label().into(),
        }
    };
    let side = |s: Side| {
        let rs = r.side(s);
        HistorySideView {
            side: s,
            name: side_name(s),
            members: rs.members.iter().map(|a| names.named(*a)).collect(),
            used: rs.used.iter().map(|u| used_view(table, names, u, secrets)).collect(),
            hand: rs.hand.as_ref().map(HandView::from),
            given_up: rs.given_up.iter().map(|u| used_view(table, names, u, secrets)).collect(),
        }
    };
    // The record keeps no payments, so a fold at the ante reads like any fold here.
    let hands = [r.side(Side::Challenger).hand.as_ref(), r.side(Side::Opponent).hand.as_ref()];
    let ending =
        Ending { winner: r.winner, folded: r.folded, nothing_at_stake: false, pot: r.pot, hands, narrator: r.narrator };
    let summary = ending.words(side_name);
    HistoryView {
        challenge: r.challenge,
        adventure: r.adventure,
        stake: r.stake.clone(),
        ante: r.ante,
        pot: r.pot,
        winner: r.winner,
        folded: r.folded,
        narrator: r.narrator,
        narrator_name: r.narrator.map(side_name),
        sides: [side(Side::Challenger), side(Side::Opponent)],
        summary: sentence(summary),
        narration: r.narration.clone(),
        can_narrate: may_narrate(viewer, r),
        characters: r
            .sides
            .iter()
            .flat_map(|s| &s.members)
            .filter_map(|a| match a {
                Account::Character(id) => Some(*id),
                _ => None,
            })
            .collect(),
    }
}

fn debt_view(names: &Names, d: &Debt) -> DebtView {
    DebtView { debtor: names.named(d.debtor), creditor: names.named(d.creditor), amount: d.amount }
}

/// The challenge as the table sees it; without `secrets`, an antagonist's purse (its pile,
/// what its side can still put in, what it devoted) and the text of its hidden
/// characteristics are left out.
fn challenge_view(
    table: &PennyTable,
    players: &[CharacterRecord],
    names: &Names,
    c: &Challenge,
    secrets: bool,
) -> ChallengeView {
    let shown = |a: Account| secrets || !hidden_purse(table, a);
    let over = c.phase == Phase::Over;
    let folded = c.outcome.as_ref().is_some_and(|o| o.folded.is_some());
    let anonymous_side = c.devoted.and_then(|_| {
        Side::BOTH
            .into_iter()
            .find(|&s| c.side(s).members.len() == 1 && matches!(c.side(s).lead(), Account::Antagonist(_)))
    });
    let side_view = |side: Side| {
        let s = c.side(side);
        SideView {
            side,
            name: names.side(c, side),
            members: s
                .members
                .iter()
                .map(|m| MemberView {
                    account: m.account,
                    name: names.of(m.account),
                    paid: m.paid,
                    pile: shown(m.account).then(|| table.pile(&m.account)),
                })
                .collect(),
            used: s.used.iter().map(|u| used_view(table, names, u, secrets)).collect(),
            dice_count: if s.dice.is_empty() { 1 + s.used.len() } else { s.dice.len() },
            rolled: !s.dice.is_empty(),
            cup_chosen: s.cup_chosen,
            revealed: c.revealed(side),
            in_cup: if c.cups_revealed() { s.cup.len() } else { 0 },
            // After a fold the dice still in a cup are never revealed (RULES §2.3): the view
            // keeps to what was on the table.
            dice: (over && !folded).then(|| s.dice.clone()),
            wager: s.wager,
            doubled: s.doubled,
            all_in: s.all_in,
            done: s.done,
            available: s.accounts().all(shown).then(|| challenge::available(&table.ledger, c, side)),
            anonymous: anonymous_side == Some(side),
            ante_owed: challenge::ante_owed(c, side),
        }
    };
    let in_challenge = |a: Account| c.side_of(a).is_some();
    let betting = matches!(c.phase, Phase::Betting1 | Phase::Betting2);
    let lenders = players
        .iter()
        .map(|p| Account::Character(p.character.id))
        .filter(|&a| betting && !in_challenge(a) && !c.lenders.contains(&a) && table.pile(&a) > 0)
        .map(|a| names.named(a))
        .collect();
    let loser = c.outcome.as_ref().and_then(|o| o.winner).map(Side::other);
    let bidders = if c.phase == Phase::AfterLoss {
        players
            .iter()
            .map(|p| Account::Character(p.character.id))
            .chain([Account::House])
            .filter(|&a| loser.is_none_or(|l| c.side(l).accounts().all(|m| m != a)) && table.pile(&a) > 0)
            .map(|a| names.named(a))
            .collect()
    } else {
        Vec::new()
    };
    ChallengeView {
        id: c.id,
        stake: c.stake.clone(),
        ante: c.ante,
        devoted: c.devoted.filter(|_| secrets),
        phase: c.phase,
        step: step_words(names, c),
        turn: c.turn,
        pot: table.pile(&Account::Pot(c.id)),
        sides: [side_view(Side::Challenger), side_view(Side::Opponent)],
        circumstances: c.circumstances.clone(),
        offer: c.offer.as_ref().map(|o| OfferView {
            lender: names.named(o.lender),
            side: o.side,
            amount: o.amount,
            borrower: names.named(o.borrower_in(c)),
        }),
        bids: c.bids.iter().map(|b: &Bid| BidView { bidder: names.named(b.bidder), amount: b.amount }).collect(),
        lenders,
        bidders,
        outcome: c.outcome.as_ref().map(|o| OutcomeView {
            winner: o.winner,
            folded: o.folded,
            hands: o.hands.as_ref().map(|[a, b]| [HandView::from(a), HandView::from(b)]),
            narrator: o.narrator,
            pot: o.pot,
            summary: outcome_words(names, c),
        }),
    }
}

fn used_view(table: &PennyTable, names: &Names, u: &Used, secrets: bool) -> UsedView {
    let hidden =
        match u.owner {
            Account::Antagonist(id) => table.antagonists.iter().find(|a| a.id == id).is_some_and(|a| {
                !table.revealed(a.id) && a.characteristics.iter().any(|c| c.hidden && c.text == u.text)
            }),
            _ => false,
        };
    let text = if hidden && !secrets { "a hidden characteristic".to_owned() } else { u.text.clone() };
    UsedView { owner: u.owner, owner_name: names.of(u.owner), text }
}

/// `text` with its first letter in capitals: names such as "the House" start sentences.
pub(super) fn sentence(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

fn step_words(names: &Names, c: &Challenge) -> String {
    sentence(step_text(names, c))
}

fn step_text(names: &Names, c: &Challenge) -> String {
    let who = |s: Side| names.side(c, s);
    let waiting = || Side::BOTH.into_iter().filter(|s| !c.side(*s).done).map(who).collect::<Vec<_>>().join(" and ");
    let both_waiting = c.sides.iter().all(|s| !s.done);
    match c.phase {
        Phase::Circumstances => format!("Circumstances: {} may name one", waiting()),
        Phase::Characteristics => format!("{} declares characteristics", c.turn.map(who).unwrap_or_default()),
        Phase::Roll if both_waiting => format!("Private roll: {} roll and choose dice to reroll", waiting()),
        Phase::Roll => format!("Private roll: {} rolls and chooses dice to reroll", waiting()),
        Phase::Betting1 => format!("First betting round: {} to act", c.turn.map(who).unwrap_or_default()),
        Phase::NewCircumstances => format!("New circumstances (double down?): {}", waiting()),
        Phase::Reroll => format!("Reroll the cup: {}", waiting()),
        Phase::Betting2 => format!("Second betting round: {} to act", c.turn.map(who).unwrap_or_default()),
        Phase::AfterLoss => {
            let loser = c.outcome.as_ref().and_then(|o| o.winner).map(Side::other).map(who).unwrap_or_default();
            format!("{loser} lost everything: take the highest buyout, or go into debt")
        }
        Phase::Over => outcome_words(names, c),
    }
}

pub(super) fn outcome_words(names: &Names, c: &Challenge) -> String {
    sentence(outcome_text(names, c))
}

fn outcome_text(names: &Names, c: &Challenge) -> String {
    let Some(o) = &c.outcome else { return String::new() };
    // A short side that folded at the ante paid nothing: nobody took anything.
    let nothing_at_stake = o.folded.is_some_and(|f| c.side(f).members.iter().all(|m| m.paid == 0));
    let hands = o.hands.as_ref().map_or([None, None], |h| [Some(&h[0]), Some(&h[1])]);
    let ending =
        Ending { winner: o.winner, folded: o.folded, nothing_at_stake, pot: o.pot, hands, narrator: o.narrator };
    ending.words(|s| names.side(c, s))
}

/// How a challenge ended: the live challenge's and the campaign history's one sentence.
struct Ending<'a> {
    winner: Option<Side>,
    folded: Option<Side>,
    /// The side that folded had paid nothing (at the ante): the antes went back.
    nothing_at_stake: bool,
    pot: u64,
    /// The challenger's and the opponent's hands, at a showdown.
    hands: [Option<&'a Hand>; 2],
    narrator: Option<Side>,
}

impl Ending<'_> {
    fn words(&self, who: impl Fn(Side) -> String) -> String {
        let narrates = self.narrator.map(|n| format!(" {} narrates.", sentence(who(n)))).unwrap_or_default();
        let hand = |s: Side| self.hands[if s == Side::Challenger { 0 } else { 1 }];
        match (self.winner, self.folded) {
            (Some(_), Some(f)) if self.nothing_at_stake => {
                format!("{} folded before anything was at stake; the antes went back.{narrates}", who(f))
            }
            (Some(w), Some(f)) => format!("{} folded; {} takes the pot of {}.{narrates}", who(f), who(w), self.pot),
            (Some(w), None) => match (hand(w), hand(w.other())) {
                (Some(h), Some(l)) => format!(
                    "{} wins the pot of {} with {}, {} against {}, {}.{narrates}",
                    who(w),
                    self.pot,
                    h.category.label(),
                    h.score,
                    l.category.label(),
                    l.score
                ),
                _ => format!("{} wins the pot of {}.{narrates}", who(w), self.pot),
            },
            (None, _) => match hand(Side::Challenger) {
                Some(h) => format!("A tie at {} ({}): each side takes back its wager.", h.score, h.category.label()),
                None => "A tie: each side takes back its wager.".to_owned(),
            },
        }
    }
}

/// The Penny Ante table of a game, as everyone may see it.
/// The table as this device may see it (its role in the game).
pub fn penny_table(store: &Store, game: Uuid) -> Result<PennyView> {
    let read = store.read();
    table_for(read, game, &device_viewer(read, game)?)
}

pub(in crate::services) fn table_for(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<PennyView> {
    let g = penny_game(read, game)?;
    view(read, &g, &read.penny_table(game)?, viewer)
}

/// Whether `viewer` may look into `side`'s cup: a player into a side with one of their
/// characters, the table into a side the House or an antagonist plays.
pub(crate) fn sees_side(viewer: &Viewer, c: &Challenge, side: Side) -> bool {
    c.side(side).accounts().any(|a| match a {
        Account::Character(id) => viewer.sees_character(id),
        _ => viewer.sees_table_secrets(),
    })
}

/// The private views of the running challenge's sides `viewer` may see.
pub(in crate::services) fn private_sides(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<Vec<PrivateView>> {
    let table = read.penny_table(game)?;
    let Some(c) = table.challenge.as_ref() else { return Ok(Vec::new()) };
    Side::BOTH
        .into_iter()
        .filter(|&side| *viewer != Viewer::PassedAround && sees_side(viewer, c, side))
        .map(|side| private_view(read, game, side, None))
        .collect()
}

/// What `side` sees of the running challenge, with its exact odds; with `cup`, the odds as
/// if it put those dice in its cup.
pub fn penny_private(store: &Store, game: Uuid, side: Side, cup: Option<Vec<usize>>) -> Result<PrivateView> {
    let read = store.read();
    own_side(read, game, side)?;
    private_view(read, game, side, cup)
}

/// While `side` chooses its cup: every choice of its dice to put in, with the odds it would
/// see with that cup and the best marked (issue 34). The side's own to see, like its cup.
pub fn penny_cup_choices(store: &Store, game: Uuid, side: Side) -> Result<Vec<CupChoiceView>> {
    let read = store.read();
    let c = own_side(read, game, side)?;
    let dice = &c.side(side).dice;
    let choices = c.cup_choices(side)?;
    Ok(choices
        .into_iter()
        .map(|choice| {
            // The faces as dice on the side's tray: the first unused die showing each face.
            let mut cup: Vec<usize> = Vec::new();
            for face in &choice.reroll {
                let at = (0..dice.len()).find(|i| dice[*i] == *face && !cup.contains(i)).expect("a face of its dice");
                cup.push(at);
            }
            cup.sort_unstable();
            CupChoiceView { cup, faces: choice.reroll, odds: choice.odds.into(), best: choice.best }
        })
        .collect())
}

/// What `side` sees while it declares its characteristics, with its odds as if it used
/// `declared` of them (the opponent's declared dice unknown): the numbers follow the boxes
/// ticked (RULES §2.3 decision).
pub fn penny_private_declaring(store: &Store, game: Uuid, side: Side, declared: usize) -> Result<PrivateView> {
    let read = store.read();
    let c = own_side(read, game, side)?;
    let mut view = private_view(read, game, side, None)?;
    view.odds = Some(c.odds_declaring(side, declared)?.into());
    Ok(view)
}

/// The running challenge, when this device may look into `side`'s cup.
fn own_side(read: Reader<'_>, game: Uuid, side: Side) -> Result<Challenge> {
    penny_game(read, game)?;
    let table = read.penny_table(game)?;
    let c = table.challenge.ok_or_else(|| Error::invalid("challenge", "no challenge at this table"))?;
    let viewer = device_viewer(read, game)?;
    if !sees_side(&viewer, &c, side) {
        return Err(not_yours("side", "That side's cup"));
    }
    // After a fold no cup is opened again (RULES.md §2.3): a device passed around the table
    // is everyone's screen now, with no hand-over to a side any more.
    let folded = c.phase == Phase::Over && c.outcome.as_ref().is_some_and(|o| o.folded.is_some());
    if folded && viewer == Viewer::PassedAround {
        return Err(Error::invalid("side", "the challenge ended with a fold: the cups stay closed"));
    }
    Ok(c)
}

/// The table as the House sees it, with its secrets (purses, hidden characteristics, devoted
/// pennies): on the House's own device, or on a device passed around once the window has
/// handed it to the House. A player's device is refused.
pub fn penny_table_as_house(store: &Store, game: Uuid) -> Result<PennyView> {
    let read = store.read();
    if !device_viewer(read, game)?.sees_table_secrets() {
        return Err(not_yours("house", "The House's secrets"));
    }
    table_for(read, game, &Viewer::Table)
}

fn private_view(read: Reader<'_>, game: Uuid, side: Side, cup: Option<Vec<usize>>) -> Result<PrivateView> {
    let table = read.penny_table(game)?;
    let c = table.challenge.as_ref().ok_or_else(|| Error::invalid("challenge", "no challenge at this table"))?;
    let players = players(read, game)?;
    let names = Names::new(&players, &table);
    let roster = roster(&players);
    let mut characteristics = Vec::new();
    for account in c.side(side).accounts() {
        let texts: Vec<String> = match account {
            Account::Character(id) => roster.get(&id).cloned().unwrap_or_default(),
            Account::Antagonist(id) => table.antagonist(id)?.characteristics.iter().map(|c| c.text.clone()).collect(),
            _ => Vec::new(),
        };
        characteristics.extend(texts.into_iter().map(|text| UsedView {
            owner: account,
            owner_name: names.of(account),
            text,
        }));
    }
    let s = c.side(side);
    let odds = if c.phase == Phase::Over { None } else { Some(c.odds_for(side, cup.as_deref())?.into()) };
    let lone_antagonist = s.members.len() == 1 && matches!(s.lead(), Account::Antagonist(_));
    Ok(PrivateView {
        side,
        dice: s.dice.clone(),
        cup: s.cup.clone(),
        odds,
        characteristics,
        available: challenge::available(&table.ledger, c, side),
        devoted: c.devoted.filter(|_| lone_antagonist),
    })
}

/// Whether this device's ledger and log hold the House's secrets: on the House's device; on
/// a device passed around only with `house` (once the window handed it to the House);
/// `house` on a player's device is refused.
fn house_secrets_here(read: Reader<'_>, game: Uuid, house: bool) -> Result<bool> {
    let viewer = device_viewer(read, game)?;
    if house && !viewer.sees_table_secrets() {
        return Err(not_yours("house", "The House's secrets"));
    }
    Ok(house || shows_house_secrets(&viewer))
}

/// The ledger of a game, or of one account in it; newest first, at most `limit` entries.
/// Without the House's secrets ([`house_secrets_here`]), the antagonists' purses stay out:
/// no entry to or from one, and no ledger of one.
pub fn penny_ledger(
    store: &Store,
    game: Uuid,
    account: Option<Account>,
    limit: usize,
    house: bool,
) -> Result<LedgerView> {
    let read = store.read();
    penny_game(read, game)?;
    let table = read.penny_table(game)?;
    let secrets = house_secrets_here(read, game, house)?;
    let shown = |a: Account| secrets || !hidden_purse(&table, a);
    if account.is_some_and(|a| !shown(a)) {
        return Err(not_yours("account", "An antagonist's purse"));
    }
    let players = players(read, game)?;
    let names = Names::new(&players, &table);
    // Without the House's secrets the House's account holds the hidden purses too (D-PA2):
    // its pile, and its pile after each entry, count them as the House's.
    let holds = |owner: Account, a: Account| a == owner || (owner == Account::House && !shown(a));
    let mut pile = 0i64;
    let mut seen = 0usize;
    let mut entries = Vec::new();
    for e in &table.ledger.entries {
        if !shown(e.from) || !shown(e.to) {
            if let Some(owner) = account.filter(|&o| holds(o, e.from) != holds(o, e.to)) {
                let amount = i64::try_from(e.amount).unwrap_or(i64::MAX);
                pile += if holds(owner, e.to) { amount } else { -amount };
            }
            continue;
        }
        // Entries are numbered among those this viewer sees: no gap tells of a hidden one.
        seen += 1;
        let touches = account.is_none_or(|a| e.from == a || e.to == a);
        if !touches {
            continue;
        }
        let amount = i64::try_from(e.amount).unwrap_or(i64::MAX);
        if let Some(a) = account {
            if e.to == a {
                pile += amount;
            }
            if e.from == a {
                pile -= amount;
            }
        }
        entries.push(entry_view(&names, seen, e, account.map(|_| pile)));
    }
    entries.reverse();
    entries.truncate(limit);
    let pile_of = |a: Account| if a == Account::House { house_pile(&table, secrets) } else { table.pile(&a) };
    Ok(LedgerView { account: account.map(|a| names.named(a)), pile: account.map(pile_of), entries })
}

/// The `n`th entry (from 1) among those the viewer sees.
fn entry_view(names: &Names, n: usize, e: &Entry, pile_after: Option<i64>) -> EntryView {
    EntryView {
        n,
        from: names.named(e.from),
        to: names.named(e.to),
        amount: e.amount,
        reason: e.reason,
        reason_words: reason_words(e.reason),
        challenge: e.challenge,
        pile_after,
    }
}

pub(super) fn reason_words(r: Reason) -> &'static str {
    match r {
        Reason::StartingPennies => "starting pennies",
        Reason::CharacteristicBought => "characteristic bought",
        Reason::HouseFunding => "House funding",
        Reason::HouseReturned => "House's pennies back to the Bank",
        Reason::CarriedIn => "brought from another table",
        Reason::AntagonistFunding => "antagonist funded",
        Reason::PurseReturned => "purse returned",
        Reason::Ante => "ante",
        Reason::Wager => "wager",
        Reason::PotWon => "pot won",
        Reason::WagerReturned => "wager returned",
        Reason::Loan => "loan",
        Reason::LoanRepaid => "loan repaid",
        Reason::DebtRecorded => "given back as a debt",
        Reason::DebtRepaid => "debt repaid",
        Reason::Buyout => "buyout",
    }
}

/// The game's Penny Ante moves, newest first; the House's readying of its antagonists in
/// words only with its secrets ([`house_secrets_here`]).
pub fn penny_log(store: &Store, game: Uuid, limit: u32, house: bool) -> Result<Vec<PennyLogEntry>> {
    let read = store.read();
    penny_game(read, game)?;
    let secrets = house_secrets_here(read, game, house)?;
    log_in(read, game, (0, i64::MAX), limit, secrets)
}

/// The game's Penny Ante moves as `viewer` reads them: the House's secrets only for the table.
pub(crate) fn penny_log_for(read: Reader<'_>, game: Uuid, limit: u32, viewer: &Viewer) -> Result<Vec<PennyLogEntry>> {
    log_in(read, game, (0, i64::MAX), limit, shows_house_secrets(viewer))
}

/// [`penny_log_for`] after event `within.0` and up to event `within.1` (a journal
/// session's), with the House's secrets only when `secrets`.
pub(crate) fn penny_log_within(
    read: Reader<'_>,
    game: Uuid,
    within: (i64, i64),
    secrets: bool,
) -> Result<Vec<PennyLogEntry>> {
    log_in(read, game, within, u32::MAX, secrets)
}

fn log_in(read: Reader<'_>, game: Uuid, within: (i64, i64), limit: u32, secrets: bool) -> Result<Vec<PennyLogEntry>> {
    let mut out = Vec::new();
    for kind in [EventKind::PennyTableChanged, EventKind::PennyChallengeMove] {
        for (e, undone) in read.events_of_kind_within(game, None, kind, within, limit)? {
            let action = if !secrets && e.payload["house_secret"].as_bool() == Some(true) {
                "The House readied its antagonists.".to_owned()
            } else {
                e.payload["action"].as_str().unwrap_or_default().to_owned()
            };
            let challenge = e.payload["challenge"].as_str().and_then(|s| Uuid::parse_str(s).ok());
            out.push(PennyLogEntry {
                seq: e.seq,
                at: crate::model::timestamp(e.at),
                action,
                challenge,
                undone,
                dice: false,
            });
        }
    }
    for t in crate::services::dice_tray::tray_entries_within(read, game, within, limit)? {
        let seq = t.seq.unwrap_or_default();
        out.push(PennyLogEntry { seq, at: t.at, action: t.action, challenge: None, undone: false, dice: true });
    }
    out.sort_by_key(|e| std::cmp::Reverse(e.seq));
    out.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(out)
}
