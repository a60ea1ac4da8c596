//! Rewards (RULES.md §4.4, "Rewards"): experience dice handed to players' stocks after a
//! session (an equal share for all players plus bonuses for exceptional contributions), on
//! the spot for well-played detail, or by vote (a "most valuable player").
//!
//! Every function takes the pools (experience dice by stock, see [`Pools`]) and whose stock
//! each character's dice are ([`Stocks`]: a character with no player is its own) by
//! reference, and returns the pools after it and what happened; a refused award changes
//! nothing. Awards name characters; the dice go to the stock of the character's player.
//!
//! Rulings where the source is silent:
//! - (audit D-SC4) The equal share is each player's: a player with two characters in the
//!   group gets one share, not two. A withheld character (played well outside its
//!   description) withholds its player's equal share; bonuses are given or not as the table
//!   decides, each into the stock of the character's player.
//! - A player's on-the-spot award comes out of their own stock (named by one of their
//!   characters), which must hold the dice; when the Gamemaster replaces it from the common
//!   stock (the usual case) the giver's stock gets them back at once. Nobody awards their own
//!   characters.
//! - (audit #9) The Gamemaster's awards and replacements come out of the common
//!   stock (the pool under the game's id), which must hold the dice: a short stock refuses
//!   the award and changes nothing. Post-session rewards and votes are the table's and
//!   leave the stock alone. Every die an on-the-spot award moves is accounted: the pools
//!   together (the stock included) stay the same.
//! - A vote names characters; each voter votes once, for any character in the group. Votes
//!   count for the character's player (votes for two characters of one player add up). The
//!   most votes win; a tie gives every tied player the award.
//! - One award is at most 1 000 dice, and a pool at most `u32::MAX`.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{clean_text, stock_of, take_dice, Pools, Stocks};
use crate::error::{Error, Result};

/// The most experience dice one award gives.
pub const MAX_AWARD: u32 = 1_000;

/// A bonus for an exceptional contribution to the session.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bonus {
    pub character: Uuid,
    pub dice: u32,
    #[serde(default)]
    pub reason: String,
}

/// The rewards a table agrees after a session.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionRewards {
    /// Each character's equal share.
    pub equal: u32,
    #[serde(default)]
    pub bonuses: Vec<Bonus>,
    /// Characters whose equal share is withheld.
    #[serde(default)]
    pub withheld: Vec<Uuid>,
}

/// Who gives an on-the-spot award.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Giver {
    /// From the common stock.
    Gamemaster,
    /// From the stock of the player of the character `from`; `replaced` when the Gamemaster
    /// gives the dice back from the common stock.
    Player { from: Uuid, replaced: bool },
}

/// One vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vote {
    pub voter: Uuid,
    pub character: Uuid,
}

/// Why dice were given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    EqualShare,
    Bonus,
    OnTheSpot,
    Vote,
    /// The Gamemaster replaced dice a player gave.
    Replaced,
}

/// What a reward did, for the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum RewardEvent {
    /// Dice given to a stock: `character` is the stock's id (its player's, or a character's
    /// own when it has no player).
    Awarded {
        character: Uuid,
        dice: u32,
        reason: Reason,
        note: String,
        before: u32,
        after: u32,
    },
    /// A player gave dice from a pool.
    Given {
        from: Uuid,
        dice: u32,
        before: u32,
        after: u32,
    },
    Withheld {
        character: Uuid,
        dice: u32,
    },
    Counted {
        votes: Vec<(Uuid, u32)>,
        winners: Vec<Uuid>,
    },
}

fn check_dice(field: &str, dice: u32) -> Result<()> {
    if !(1..=MAX_AWARD).contains(&dice) {
        return Err(Error::invalid(field, format!("an award is 1 to {MAX_AWARD} experience dice")));
    }
    Ok(())
}

fn give(
    pools: &mut Pools,
    field: &str,
    character: Uuid,
    dice: u32,
    reason: Reason,
    note: String,
) -> Result<RewardEvent> {
    let before = pools.get(&character).copied().unwrap_or(0);
    let after = before.checked_add(dice).ok_or_else(|| Error::invalid(field, "the pool would overflow"))?;
    pools.insert(character, after);
    Ok(RewardEvent::Awarded { character, dice, reason, note, before, after })
}

/// A character a reward may be given to: its id, its name, and whether it is a non-player
/// character (the Gamemaster's).
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    pub id: Uuid,
    pub name: &'a str,
    pub npc: bool,
}

/// The group a post-session reward or a vote is among: `given` (each a character of
/// `characters`), or when left out every character that is not the Gamemaster's.
///
/// Ruling (seed 004:110: "Players receive Rewards of Experience Dice … equal for all Players
/// plus bonuses", a "most valuable Player"): the rewards are the players'. A non-player
/// character, played by the Gamemaster, earns no equal share, bonus or vote, so it is left out
/// of the group and refused when named in it. A character no player is named for but that
/// is not a non-player character still stands as its own player (audit D-SC4) and gets its
/// share, as in games made before players were named.
pub fn group(characters: &[Candidate<'_>], given: Option<&[Uuid]>) -> Result<Vec<Uuid>> {
    let Some(given) = given else {
        return Ok(characters.iter().filter(|c| !c.npc).map(|c| c.id).collect());
    };
    for (i, id) in given.iter().enumerate() {
        let field = format!("characters[{i}]");
        match characters.iter().find(|c| c.id == *id) {
            None => return Err(Error::invalid(field, format!("{id} is not a character of this game"))),
            Some(c) if c.npc => {
                return Err(Error::invalid(
                    field,
                    format!("{} is a non-player character, the Gamemaster's: rewards are the players'", c.name),
                ))
            }
            Some(_) => {}
        }
    }
    Ok(given.to_vec())
}

/// The session's rewards to the group's `characters`: the equal share to each of their
/// players once (unless withheld) and the bonuses.
pub fn after_session(
    stocks: &Stocks,
    pools: &Pools,
    characters: &[Uuid],
    rewards: &SessionRewards,
) -> Result<(Pools, Vec<RewardEvent>)> {
    if rewards.equal > MAX_AWARD {
        return Err(Error::invalid("equal", format!("an award is at most {MAX_AWARD} experience dice")));
    }
    for (i, c) in characters.iter().enumerate() {
        if characters[..i].contains(c) {
            return Err(Error::invalid(format!("characters[{i}]"), "each character once"));
        }
    }
    for (i, w) in rewards.withheld.iter().enumerate() {
        if !characters.contains(w) || rewards.withheld[..i].contains(w) {
            return Err(Error::invalid(format!("withheld[{i}]"), "a character of the group, once"));
        }
    }
    let mut bonuses = Vec::with_capacity(rewards.bonuses.len());
    for (i, b) in rewards.bonuses.iter().enumerate() {
        if !characters.contains(&b.character) {
            return Err(Error::invalid(
                format!("bonuses[{i}].character"),
                format!("{} is not in the group", b.character),
            ));
        }
        check_dice(&format!("bonuses[{i}].dice"), b.dice)?;
        bonuses.push((b, clean_text(&format!("bonuses[{i}].reason"), &b.reason)?));
    }
    let mut next = pools.clone();
    let mut events = Vec::new();
    let mut shared = Vec::new();
    for &character in characters {
        let stock = stock_of(stocks, character);
        if rewards.equal == 0 || shared.contains(&stock) {
            continue;
        }
        shared.push(stock);
        let played = characters.iter().filter(|&&c| stock_of(stocks, c) == stock);
        if let Some(&withheld) = played.clone().find(|c| rewards.withheld.contains(c)) {
            events.push(RewardEvent::Withheld { character: withheld, dice: rewards.equal });
        } else {
            events.push(give(&mut next, "equal", stock, rewards.equal, Reason::EqualShare, String::new())?);
        }
    }
    for (i, (b, reason)) in bonuses.into_iter().enumerate() {
        let stock = stock_of(stocks, b.character);
        events.push(give(&mut next, &format!("bonuses[{i}].dice"), stock, b.dice, Reason::Bonus, reason)?);
    }
    Ok((next, events))
}

/// Takes `dice` out of the Gamemaster's common stock (the pool `gm`), refused when it is short.
fn from_stock(pools: &mut Pools, gm: Uuid, dice: u32, events: &mut Vec<RewardEvent>) -> Result<()> {
    let before = take_dice(pools, gm, dice, "dice", |held| {
        format!("the Gamemaster's common stock holds {held} experience dice, fewer than {dice}")
    })?;
    events.push(RewardEvent::Given { from: gm, dice, before, after: before - dice });
    Ok(())
}

/// An on-the-spot award of `dice` to `to` for well-played detail. `gm` is the pool of the
/// Gamemaster's common stock, which pays the Gamemaster's awards and replacements.
pub fn on_the_spot(
    stocks: &Stocks,
    pools: &Pools,
    gm: Uuid,
    giver: Giver,
    to: Uuid,
    dice: u32,
    note: &str,
) -> Result<(Pools, Vec<RewardEvent>)> {
    check_dice("dice", dice)?;
    let note = clean_text("note", note)?;
    let mut next = pools.clone();
    let mut events = Vec::new();
    let to = stock_of(stocks, to);
    if let Giver::Player { from, replaced } = giver {
        let from = stock_of(stocks, from);
        if from == to {
            return Err(Error::invalid("to", "nobody awards their own character"));
        }
        let before = take_dice(&mut next, from, dice, "dice", |held| {
            format!("{from} holds {held} experience dice, fewer than {dice}")
        })?;
        events.push(RewardEvent::Given { from, dice, before, after: before - dice });
        events.push(give(&mut next, "dice", to, dice, Reason::OnTheSpot, note)?);
        if replaced {
            from_stock(&mut next, gm, dice, &mut events)?;
            events.push(give(&mut next, "dice", from, dice, Reason::Replaced, String::new())?);
        }
    } else {
        from_stock(&mut next, gm, dice, &mut events)?;
        events.push(give(&mut next, "dice", to, dice, Reason::OnTheSpot, note)?);
    }
    Ok((next, events))
}

/// Counts `votes` for characters of the group, each for the character's player, and gives
/// `dice` to the most voted players' stocks (each of them in a tie).
pub fn by_vote(
    stocks: &Stocks,
    pools: &Pools,
    characters: &[Uuid],
    votes: &[Vote],
    dice: u32,
) -> Result<(Pools, Vec<RewardEvent>)> {
    check_dice("dice", dice)?;
    if votes.is_empty() {
        return Err(Error::invalid("votes", "at least one vote"));
    }
    let mut tally: Vec<(Uuid, u32)> = Vec::new();
    for (i, vote) in votes.iter().enumerate() {
        if votes[..i].iter().any(|v| v.voter == vote.voter) {
            return Err(Error::invalid(format!("votes[{i}].voter"), "each voter votes once"));
        }
        if !characters.contains(&vote.character) {
            return Err(Error::invalid(
                format!("votes[{i}].character"),
                format!("{} is not in the group", vote.character),
            ));
        }
        let stock = stock_of(stocks, vote.character);
        match tally.iter_mut().find(|(c, _)| *c == stock) {
            Some((_, n)) => *n += 1,
            None => tally.push((stock, 1)),
        }
    }
    let top = tally.iter().map(|&(_, n)| n).max().expect("a vote");
    let winners: Vec<Uuid> = tally.iter().filter(|&&(_, n)| n == top).map(|&(c, _)| c).collect();
    let mut next = pools.clone();
    let mut events = vec![RewardEvent::Counted { votes: tally, winners: winners.clone() }];
    for character in winners {
        events.push(give(&mut next, "dice", character, dice, Reason::Vote, String::new())?);
    }
    Ok((next, events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_support::err;
    use crate::rules::test_support::scattershot::{ALDER, ASH, BIRCH, CEDAR};
    /// The Gamemaster's common stock (the game's id).
    const GM: Uuid = Uuid::from_u128(99);
    /// No character has a player: each stands as its own.
    const NO_PLAYERS: Stocks = Stocks::new();
    /// Dana, who plays Ash and Alder.
    const DANA: Uuid = Uuid::from_u128(77);

    #[test]
    fn the_group_leaves_the_gamemaster_s_characters_out_and_refuses_them_when_named() {
        let at = |id, name, npc| Candidate { id, name, npc };
        let all = [at(ASH, "Ash", false), at(BIRCH, "Rook", true), at(ALDER, "Alder", false)];
        // Left out: every character but the non-player one, each with no player its own.
        let group = group(&all, None).unwrap();
        assert_eq!(group, vec![ASH, ALDER]);
        let (pools, _) = after_session(
            &NO_PLAYERS,
            &Pools::new(),
            &group,
            &SessionRewards { equal: 2, ..SessionRewards::default() },
        )
        .unwrap();
        assert_eq!((pools.get(&ASH), pools.get(&ALDER), pools.get(&BIRCH)), (Some(&2), Some(&2), None));
        // Named: refused at its place, with its name.
        assert_eq!(
            err(super::group(&all, Some(&[ASH, BIRCH]))),
            "characters[1]: Rook is a non-player character, the Gamemaster's: rewards are the players'"
        );
        assert_eq!(
            err(super::group(&all, Some(&[CEDAR]))),
            format!("characters[0]: {CEDAR} is not a character of this game")
        );
        assert_eq!(super::group(&all, Some(&[ALDER])).unwrap(), vec![ALDER]);
    }

    fn dana_plays_ash_and_alder() -> Stocks {
        [(ASH, DANA), (ALDER, DANA)].into_iter().collect()
    }

    fn pools(entries: &[(Uuid, u32)]) -> Pools {
        entries.iter().copied().collect()
    }

    #[test]
    fn after_a_session_everyone_gets_an_equal_share_plus_bonuses() {
        let group = [ASH, BIRCH, CEDAR];
        let rewards = SessionRewards {
            equal: 2,
            bonuses: vec![Bonus { character: CEDAR, dice: 1, reason: " saved the evening ".into() }],
            withheld: vec![BIRCH],
        };
        let (after, events) = after_session(&NO_PLAYERS, &pools(&[(ASH, 1)]), &group, &rewards).unwrap();
        assert_eq!(after, pools(&[(ASH, 3), (CEDAR, 3)]));
        assert_eq!(events[1], RewardEvent::Withheld { character: BIRCH, dice: 2 });
        assert_eq!(
            events[3],
            RewardEvent::Awarded {
                character: CEDAR,
                dice: 1,
                reason: Reason::Bonus,
                note: "saved the evening".into(),
                before: 2,
                after: 3
            }
        );
        let stranger = SessionRewards {
            bonuses: vec![Bonus { character: Uuid::nil(), dice: 1, reason: String::new() }],
            ..rewards.clone()
        };
        assert!(err(after_session(&NO_PLAYERS, &Pools::new(), &group, &stranger)).starts_with("bonuses[0].character:"));
        let zero =
            SessionRewards { bonuses: vec![Bonus { character: ASH, dice: 0, reason: String::new() }], ..rewards };
        assert_eq!(
            err(after_session(&NO_PLAYERS, &Pools::new(), &group, &zero)),
            "bonuses[0].dice: an award is 1 to 1000 experience dice"
        );
        let only_bonus = SessionRewards { equal: 0, bonuses: vec![], withheld: vec![] };
        assert_eq!(after_session(&NO_PLAYERS, &Pools::new(), &group, &only_bonus).unwrap(), (Pools::new(), vec![]));
    }

    #[test]
    fn an_on_the_spot_award_from_a_player_comes_out_of_their_pool_unless_replaced() {
        let (after, events) =
            on_the_spot(&NO_PLAYERS, &pools(&[(GM, 3)]), GM, Giver::Gamemaster, ASH, 1, "great scene").unwrap();
        assert_eq!(after, pools(&[(ASH, 1), (GM, 2)]));
        assert_eq!(events[0], RewardEvent::Given { from: GM, dice: 1, before: 3, after: 2 });
        let start = pools(&[(BIRCH, 2), (GM, 5)]);
        let (after, _) =
            on_the_spot(&NO_PLAYERS, &start, GM, Giver::Player { from: BIRCH, replaced: false }, ASH, 2, "").unwrap();
        assert_eq!(after, pools(&[(ASH, 2), (BIRCH, 0), (GM, 5)]), "not replaced: the stock is untouched");
        let (after, events) =
            on_the_spot(&NO_PLAYERS, &start, GM, Giver::Player { from: BIRCH, replaced: true }, ASH, 2, "").unwrap();
        assert_eq!(after, pools(&[(ASH, 2), (BIRCH, 2), (GM, 3)]), "replaced out of the common stock");
        assert!(matches!(events[3], RewardEvent::Awarded { reason: Reason::Replaced, character: BIRCH, .. }));
        assert_eq!(
            err(on_the_spot(&NO_PLAYERS, &start, GM, Giver::Player { from: BIRCH, replaced: true }, ASH, 3, "")),
            format!("dice: {BIRCH} holds 2 experience dice, fewer than 3")
        );
        assert_eq!(
            err(on_the_spot(&NO_PLAYERS, &start, GM, Giver::Player { from: BIRCH, replaced: true }, BIRCH, 1, "")),
            "to: nobody awards their own character"
        );
        let full = pools(&[(ASH, u32::MAX), (GM, 1)]);
        assert_eq!(
            err(on_the_spot(&NO_PLAYERS, &full, GM, Giver::Gamemaster, ASH, 1, "")),
            "dice: the pool would overflow"
        );
    }

    #[test]
    fn the_gamemaster_s_awards_and_replacements_are_refused_when_the_common_stock_is_short() {
        let start = pools(&[(BIRCH, 4), (GM, 1)]);
        assert_eq!(
            err(on_the_spot(&NO_PLAYERS, &start, GM, Giver::Gamemaster, ASH, 2, "")),
            "dice: the Gamemaster's common stock holds 1 experience dice, fewer than 2"
        );
        assert_eq!(
            err(on_the_spot(&NO_PLAYERS, &start, GM, Giver::Player { from: BIRCH, replaced: true }, ASH, 3, "")),
            "dice: the Gamemaster's common stock holds 1 experience dice, fewer than 3"
        );
        assert!(on_the_spot(&NO_PLAYERS, &Pools::new(), GM, Giver::Gamemaster, ASH, 1, "").is_err(), "no stock at all");
    }

    proptest::proptest! {
        /// An on-the-spot award moves dice between pools and never makes or loses one: the
        /// pools together, the Gamemaster's stock included, hold the same number after it.
        #[test]
        fn on_the_spot_awards_conserve_experience_dice_with_the_common_stock(
            gm in 0u32..10, birch in 0u32..10, ash in 0u32..10, dice in 0u32..12,
            by_player in proptest::bool::ANY, replaced in proptest::bool::ANY,
        ) {
            let start = pools(&[(GM, gm), (BIRCH, birch), (ASH, ash)]);
            let giver = if by_player { Giver::Player { from: BIRCH, replaced } } else { Giver::Gamemaster };
            let total = |p: &Pools| p.values().map(|&n| u64::from(n)).sum::<u64>();
            match on_the_spot(&NO_PLAYERS, &start, GM, giver, ASH, dice, "") {
                Ok((after, _)) => {
                    proptest::prop_assert_eq!(total(&after), total(&start));
                    proptest::prop_assert_eq!(after[&ASH], ash + dice);
                }
                Err(_) => {
                    let short = (by_player && birch < dice) || ((!by_player || replaced) && gm < dice);
                    proptest::prop_assert!(dice == 0 || short);
                }
            }
        }
    }

    #[test]
    fn a_vote_rewards_the_most_voted_and_every_tied_character() {
        let group = [ASH, BIRCH, CEDAR];
        let vote = |voter: u128, character| Vote { voter: Uuid::from_u128(voter), character };
        let (after, events) =
            by_vote(&NO_PLAYERS, &Pools::new(), &group, &[vote(1, BIRCH), vote(2, BIRCH), vote(3, ASH)], 2).unwrap();
        assert_eq!(after, pools(&[(BIRCH, 2)]));
        assert_eq!(events[0], RewardEvent::Counted { votes: vec![(BIRCH, 2), (ASH, 1)], winners: vec![BIRCH] });
        let (tied, _) = by_vote(&NO_PLAYERS, &Pools::new(), &group, &[vote(1, BIRCH), vote(2, ASH)], 1).unwrap();
        assert_eq!(tied, pools(&[(ASH, 1), (BIRCH, 1)]));
        assert_eq!(
            err(by_vote(&NO_PLAYERS, &Pools::new(), &group, &[vote(1, BIRCH), vote(1, ASH)], 1)),
            "votes[1].voter: each voter votes once"
        );
        assert_eq!(err(by_vote(&NO_PLAYERS, &Pools::new(), &group, &[], 1)), "votes: at least one vote");
    }

    #[test]
    fn two_characters_of_one_player_share_one_stock_and_one_equal_share() {
        let stocks = dana_plays_ash_and_alder();
        let group = [ASH, ALDER, BIRCH];
        let rewards = SessionRewards { equal: 2, ..SessionRewards::default() };
        let (after, _) = after_session(&stocks, &pools(&[(DANA, 1)]), &group, &rewards).unwrap();
        assert_eq!(after, pools(&[(DANA, 3), (BIRCH, 2)]), "one share for Dana, not one per character");
        // A bonus for either character goes into Dana's stock; withholding one withholds hers.
        let rewards = SessionRewards {
            equal: 2,
            bonuses: vec![Bonus { character: ALDER, dice: 1, reason: String::new() }],
            withheld: vec![ALDER],
        };
        let (after, events) = after_session(&stocks, &Pools::new(), &group, &rewards).unwrap();
        assert_eq!(after, pools(&[(DANA, 1), (BIRCH, 2)]));
        assert_eq!(events[0], RewardEvent::Withheld { character: ALDER, dice: 2 });
        // A character with no player (an older game) keeps its own stock and its own share.
        let (after, _) =
            after_session(&NO_PLAYERS, &Pools::new(), &group, &SessionRewards { equal: 1, ..rewards }).unwrap();
        assert_eq!(after, pools(&[(ASH, 1), (ALDER, 1), (BIRCH, 1)]));
    }

    #[test]
    fn a_player_gives_from_their_one_stock_and_votes_count_for_the_player() {
        let stocks = dana_plays_ash_and_alder();
        let start = pools(&[(DANA, 2), (GM, 5)]);
        // Dana gives from her stock, named by either character.
        let (after, _) =
            on_the_spot(&stocks, &start, GM, Giver::Player { from: ALDER, replaced: false }, BIRCH, 2, "").unwrap();
        assert_eq!(after, pools(&[(DANA, 0), (BIRCH, 2), (GM, 5)]));
        assert_eq!(
            err(on_the_spot(&stocks, &start, GM, Giver::Player { from: ASH, replaced: true }, ALDER, 1, "")),
            "to: nobody awards their own character"
        );
        // The Gamemaster's award to Ash lands in Dana's stock.
        let (after, _) = on_the_spot(&stocks, &start, GM, Giver::Gamemaster, ASH, 1, "").unwrap();
        assert_eq!(after, pools(&[(DANA, 3), (GM, 4)]));
        // One vote for Ash and one for Alder are two votes for Dana: she beats Birch's one.
        let vote = |voter: u128, character| Vote { voter: Uuid::from_u128(voter), character };
        let group = [ASH, ALDER, BIRCH];
        let votes = [vote(1, ASH), vote(2, ALDER), vote(3, BIRCH)];
        let (after, events) = by_vote(&stocks, &Pools::new(), &group, &votes, 1).unwrap();
        assert_eq!(after, pools(&[(DANA, 1)]));
        assert_eq!(events[0], RewardEvent::Counted { votes: vec![(DANA, 2), (BIRCH, 1)], winners: vec![DANA] });
    }

    #[test]
    fn rewards_round_trip_through_json() {
        let rewards = SessionRewards {
            equal: 1,
            bonuses: vec![Bonus { character: ASH, dice: 2, reason: "MVP".into() }],
            withheld: vec![CEDAR],
        };
        let json = serde_json::to_string(&rewards).unwrap();
        assert_eq!(serde_json::from_str::<SessionRewards>(&json).unwrap(), rewards);
        assert!(serde_json::from_str::<SessionRewards>(&json.replacen('{', r#"{"luck":1,"#, 1)).is_err());
        let giver = Giver::Player { from: ASH, replaced: true };
        assert_eq!(serde_json::from_str::<Giver>(&serde_json::to_string(&giver).unwrap()).unwrap(), giver);
    }
}
