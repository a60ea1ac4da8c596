//! Casting votes in a conflict (RULES.md §3.2; the source's "Voting"): each player's free
//! votes, one Setting Law per player, influence (a vote per point) and Fortune's Favor
//! (2 adversity of an element for a vote). [`tally`] checks every cast against the limits
//! and counts the votes per option; [`settle`] also returns the players and elements after
//! paying the influence and adversity, for the service to save with the result.
//!
//! Rulings where the source is silent:
//! - A player's free votes may be split between options, up to the number the player has
//!   (1; an Actor has 3 on matters of a claimed character and none elsewhere).
//! - A law that takes a vote away cannot take an option below 0 votes.
//! - Fortune's Favor is spent by the player holding the element's claim, or by anyone for an
//!   unclaimed element (the element rules check who may spend it).
//! - Votes cast on other devices reach this one as the totals the table counted
//!   ([`ConflictCast::Counted`], one total per option): they are added as counted, and nothing
//!   is checked or paid for them here (the devices that cast them pay their own influence and
//!   adversity). They mix with casts this device makes itself.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::action_check::Direction;
use super::conflict::MAX_VOTES;
use super::element::{free_votes, spend_adversity, spend_influence, AdversitySpend, Element, Player};
use crate::error::{Error, Result};

/// The longest text of an option, a question or a fact.
const MAX_TEXT: usize = 500;

/// A Setting Law invoked in a conflict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "law", rename_all = "snake_case", deny_unknown_fields)]
pub enum ConflictLaw {
    /// A fact that has already happened supports (for) or contradicts (against) the option;
    /// each fact serves once per conflict.
    Consistency { fact: String, direction: Direction },
    /// The option changes a fact in a major way: it loses a vote.
    Inertia { fact: String },
    /// The option opens up (for) or closes off (against) possibilities.
    Potential { direction: Direction },
}

/// One thing cast in a conflict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ConflictCast {
    /// Free votes of `player` for an option.
    Free { player: Uuid, option: usize, votes: u32 },
    /// A Setting Law, once per player per conflict.
    Law { player: Uuid, option: usize, law: ConflictLaw },
    /// Influence of `player`: a vote per point.
    Influence { player: Uuid, option: usize, points: u32 },
    /// 2 adversity of `element`, spent by player `by`: a vote.
    FortunesFavor {
        element: Uuid,
        by: Uuid,
        option: usize,
        #[serde(default)]
        allow_debt: bool,
    },
    /// The votes the table counted for an option, cast elsewhere (other devices, by hand):
    /// added as they are, nothing paid here. One total per option.
    Counted { option: usize, votes: u32 },
}

/// A conflict as the table sets it up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConflictDraft {
    /// What is disputed.
    pub question: String,
    pub options: Vec<String>,
    /// The character whose matters the conflict is about, if any (an Actor's claim).
    #[serde(default)]
    pub about: Option<Uuid>,
    /// The characters active in the scene (an Actor plays only while one is).
    #[serde(default)]
    pub active_in_scene: Vec<Uuid>,
    #[serde(default)]
    pub casts: Vec<ConflictCast>,
}

/// The votes of one option, by where they came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionVotes {
    pub free: u32,
    pub laws: i64,
    pub influence: u32,
    pub fortunes_favor: u32,
    /// Votes the table counted elsewhere ([`ConflictCast::Counted`]).
    #[serde(default)]
    pub counted: u32,
    /// Everything together, at least 0.
    pub total: u32,
}

/// The players and elements after paying for the casts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paid {
    pub players: Vec<Player>,
    pub elements: Vec<Element>,
}

/// Checks every cast and counts each option's votes.
pub fn tally(draft: &ConflictDraft, players: &[Player], elements: &[Element]) -> Result<Vec<OptionVotes>> {
    Ok(settle(draft, players, elements)?.0)
}

/// [`tally`], and the players and elements (only those that paid) after paying.
pub fn settle(draft: &ConflictDraft, players: &[Player], elements: &[Element]) -> Result<(Vec<OptionVotes>, Paid)> {
    text("question", &draft.question)?;
    if !(2..=super::conflict::MAX_OPTIONS).contains(&draft.options.len()) {
        return Err(Error::invalid(
            "options",
            format!("a conflict has 2 to {} options, not {}", super::conflict::MAX_OPTIONS, draft.options.len()),
        ));
    }
    for (i, o) in draft.options.iter().enumerate() {
        text(&format!("options[{i}]"), o)?;
    }
    let mut votes = vec![OptionVotes::default(); draft.options.len()];
    let mut free_used: BTreeMap<Uuid, u32> = BTreeMap::new();
    let mut law_by: BTreeSet<Uuid> = BTreeSet::new();
    let mut facts: BTreeSet<String> = BTreeSet::new();
    let mut counted: BTreeSet<usize> = BTreeSet::new();
    let mut paid_players: BTreeMap<Uuid, Player> = BTreeMap::new();
    let mut paid_elements: BTreeMap<Uuid, Element> = BTreeMap::new();
    for (i, cast) in draft.casts.iter().enumerate() {
        let at = |field: &str| format!("casts[{i}].{field}");
        let option = match cast {
            ConflictCast::Free { option, .. }
            | ConflictCast::Law { option, .. }
            | ConflictCast::Influence { option, .. }
            | ConflictCast::FortunesFavor { option, .. }
            | ConflictCast::Counted { option, .. } => *option,
        };
        if option >= draft.options.len() {
            return Err(Error::invalid(at("option"), format!("there is no option {}", option + 1)));
        }
        let player = |id: Uuid| -> Result<Player> {
            paid_players
                .get(&id)
                .cloned()
                .or_else(|| players.iter().find(|p| p.id == id).cloned())
                .ok_or_else(|| Error::invalid(at("player"), "is not a player at this table"))
        };
        let v = &mut votes[option];
        match cast {
            ConflictCast::Free { player: id, votes: n, .. } => {
                let p = player(*id)?;
                let has = free_votes(&p, draft.about, &draft.active_in_scene);
                let used = free_used.entry(*id).or_default();
                if *n == 0 || used.saturating_add(*n) > has {
                    return Err(Error::invalid(
                        at("votes"),
                        format!("{} has {has} free vote(s) in this conflict, {} given already", p.name, used),
                    ));
                }
                *used += n;
                v.free += n;
            }
            ConflictCast::Law { player: id, law, .. } => {
                let p = player(*id)?;
                if !law_by.insert(*id) {
                    return Err(Error::invalid(at("law"), format!("{} has invoked a law in this conflict", p.name)));
                }
                let delta = match law {
                    ConflictLaw::Consistency { fact, direction } => {
                        let fact = text(&at("law.fact"), fact)?;
                        if !facts.insert(fact.to_lowercase()) {
                            return Err(Error::invalid(at("law.fact"), format!("“{fact}” serves once per conflict")));
                        }
                        sign(*direction)
                    }
                    ConflictLaw::Inertia { fact } => {
                        text(&at("law.fact"), fact)?;
                        -1
                    }
                    ConflictLaw::Potential { direction } => sign(*direction),
                };
                v.laws += delta;
            }
            ConflictCast::Influence { player: id, points, .. } => {
                let p = player(*id)?;
                let (after, _) = spend_influence(&p, *points).map_err(|e| rename(e, &at("points")))?;
                paid_players.insert(*id, after);
                v.influence += points;
            }
            ConflictCast::FortunesFavor { element, by, allow_debt, .. } => {
                player(*by)?;
                let e = paid_elements
                    .get(element)
                    .or_else(|| elements.iter().find(|e| e.id == *element))
                    .ok_or_else(|| Error::invalid(at("element"), "is not a story element at this table"))?;
                let (after, _) = spend_adversity(e, &AdversitySpend::FortunesFavor, *by, *allow_debt)
                    .map_err(|err| rename(err, &at("element")))?;
                paid_elements.insert(*element, after);
                v.fortunes_favor += 1;
            }
            ConflictCast::Counted { votes: n, .. } => {
                if *n == 0 {
                    return Err(Error::invalid(at("votes"), "a counted total is at least 1 (leave 0 out)"));
                }
                if *n > MAX_VOTES {
                    return Err(Error::invalid(at("votes"), format!("an option may hold at most {MAX_VOTES} votes")));
                }
                if !counted.insert(option) {
                    return Err(Error::invalid(
                        at("option"),
                        format!("option {} already has the total the table counted", option + 1),
                    ));
                }
                v.counted = *n;
            }
        }
    }
    for (i, v) in votes.iter_mut().enumerate() {
        let total =
            i64::from(v.free) + v.laws + i64::from(v.influence) + i64::from(v.fortunes_favor) + i64::from(v.counted);
        v.total = u32::try_from(total.max(0)).unwrap_or(u32::MAX);
        if v.total > MAX_VOTES {
            return Err(Error::invalid(
                format!("options[{i}]"),
                format!("holds {} votes; an option may hold at most {MAX_VOTES}", v.total),
            ));
        }
    }
    let paid = Paid { players: paid_players.into_values().collect(), elements: paid_elements.into_values().collect() };
    Ok((votes, paid))
}

/// The vote counts alone.
pub fn counts(votes: &[OptionVotes]) -> Vec<u32> {
    votes.iter().map(|v| v.total).collect()
}

fn sign(d: Direction) -> i64 {
    match d {
        Direction::For => 1,
        Direction::Against => -1,
    }
}

fn text(field: &str, raw: &str) -> Result<String> {
    let t = raw.trim();
    if t.is_empty() || t.chars().count() > MAX_TEXT {
        return Err(Error::invalid(field, format!("must be 1 to {MAX_TEXT} characters, no control characters")));
    }
    if let Some(p) = crate::model::line_chars_problem(t) {
        return Err(Error::invalid(field, p));
    }
    Ok(t.to_owned())
}

/// The rules' error, at the cast's field.
fn rename(e: Error, field: &str) -> Error {
    match e {
        Error::Invalid { problem, .. } => Error::invalid(field, problem),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mezzo::element::{ElementKind, Role};

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    fn players() -> Vec<Player> {
        let mut ann = Player::new(id(1), "Ann").unwrap();
        ann.claimed.push(id(10));
        ann.roles.push(Role::Actor);
        vec![ann, Player::new(id(2), "Ben").unwrap()]
    }

    fn draft(casts: Vec<ConflictCast>) -> ConflictDraft {
        ConflictDraft {
            question: "Who gets the key?".into(),
            options: vec!["The thief".into(), "The guard".into(), "Nobody".into()],
            about: Some(id(10)),
            active_in_scene: vec![id(10)],
            casts,
        }
    }

    fn err(d: ConflictDraft) -> String {
        tally(&d, &players(), &[]).unwrap_err().to_string()
    }

    #[test]
    fn free_votes_laws_and_influence_add_up_per_option() {
        let casts = vec![
            // Ann is the Actor of the character the conflict is about: 3 free votes.
            ConflictCast::Free { player: id(1), option: 0, votes: 2 },
            ConflictCast::Free { player: id(1), option: 2, votes: 1 },
            ConflictCast::Free { player: id(2), option: 1, votes: 1 },
            ConflictCast::Law {
                player: id(2),
                option: 0,
                law: ConflictLaw::Consistency { fact: "The door is locked".into(), direction: Direction::Against },
            },
            ConflictCast::Law { player: id(1), option: 1, law: ConflictLaw::Potential { direction: Direction::For } },
            ConflictCast::Influence { player: id(2), option: 1, points: 2 },
        ];
        let (votes, paid) = settle(&draft(casts), &players(), &[]).unwrap();
        assert_eq!(counts(&votes), vec![1, 4, 1]);
        assert_eq!(paid.players.len(), 1);
        assert_eq!(paid.players[0].influence, 1);
    }

    #[test]
    fn limits_are_refused_naming_the_cast() {
        assert_eq!(
            err(draft(vec![ConflictCast::Free { player: id(2), option: 0, votes: 2 }])),
            "casts[0].votes: Ben has 1 free vote(s) in this conflict, 0 given already"
        );
        let law = |p, fact: &str| ConflictCast::Law {
            player: p,
            option: 0,
            law: ConflictLaw::Consistency { fact: fact.into(), direction: Direction::For },
        };
        assert_eq!(
            err(draft(vec![law(id(1), "a"), law(id(1), "b")])),
            "casts[1].law: Ann has invoked a law in this conflict"
        );
        assert_eq!(
            err(draft(vec![law(id(1), "Rain"), law(id(2), "rain")])),
            "casts[1].law.fact: “rain” serves once per conflict"
        );
        assert_eq!(
            err(draft(vec![ConflictCast::Influence { player: id(2), option: 0, points: 4 }])),
            "casts[0].points: Ben holds 3 influence, not 4"
        );
        assert_eq!(
            err(draft(vec![ConflictCast::Free { player: id(2), option: 3, votes: 1 }])),
            "casts[0].option: there is no option 4"
        );
        assert_eq!(
            err(draft(vec![ConflictCast::Free { player: id(9), option: 0, votes: 1 }])),
            "casts[0].player: is not a player at this table"
        );
        let mut one = draft(vec![]);
        one.options.truncate(1);
        assert!(err(one).starts_with("options: a conflict has 2 to"));
    }

    #[test]
    fn an_actor_has_no_free_vote_on_other_matters_and_laws_never_go_below_zero() {
        let mut d = draft(vec![ConflictCast::Free { player: id(1), option: 0, votes: 1 }]);
        d.about = None;
        assert!(err(d).contains("Ann has 0 free vote(s)"));
        let d =
            draft(vec![ConflictCast::Law { player: id(2), option: 2, law: ConflictLaw::Inertia { fact: "x".into() } }]);
        assert_eq!(counts(&tally(&d, &players(), &[]).unwrap()), vec![0, 0, 0]);
    }

    #[test]
    fn fortunes_favor_spends_two_adversity_for_a_vote() {
        let mut e = Element::new(id(20), ElementKind::Object, "Old key").unwrap();
        e.adversity = 3;
        let d = draft(vec![ConflictCast::FortunesFavor { element: id(20), by: id(2), option: 0, allow_debt: false }]);
        let (votes, paid) = settle(&d, &players(), std::slice::from_ref(&e)).unwrap();
        assert_eq!(votes[0].fortunes_favor, 1);
        assert_eq!(paid.elements[0].adversity, 1);
        // A second one would need debt: refused unless the player agrees.
        let twice = draft(vec![
            ConflictCast::FortunesFavor { element: id(20), by: id(2), option: 0, allow_debt: false },
            ConflictCast::FortunesFavor { element: id(20), by: id(2), option: 0, allow_debt: false },
        ]);
        assert!(tally(&twice, &players(), &[e]).unwrap_err().to_string().starts_with("casts[1].element:"));
    }

    /// Regression guard for totals entered per option: each total lands on its own option,
    /// mixes with this device's casts, pays nothing, and is refused at 0, twice or past the cap.
    #[test]
    fn totals_counted_at_the_table_add_to_their_option_and_pay_nothing() {
        let counted = |option, votes| ConflictCast::Counted { option, votes };
        let (votes, paid) = settle(&draft(vec![counted(0, 3), counted(1, 1)]), &players(), &[]).unwrap();
        assert_eq!(counts(&votes), vec![3, 1, 0]);
        assert_eq!((votes[0].counted, votes[1].counted, votes[2].counted), (3, 1, 0));
        assert_eq!(paid, Paid::default(), "counted votes were paid on other devices");
        // The same odds as `sheetkeeper odds mezzo --votes 3,1,0`.
        let o =
            crate::rules::mezzo::odds::odds(&counts(&votes), crate::rules::mezzo::conflict::Variant::Steps).unwrap();
        let exact: Vec<String> = o.options().iter().map(|f| format!("{}/{}", f.numerator(), f.denominator())).collect();
        assert_eq!(exact, ["143/192", "47/192", "1/96"]);
        // Mixed with Ben's own influence on option 2 (paid here).
        let mixed = draft(vec![counted(2, 2), ConflictCast::Influence { player: id(2), option: 2, points: 1 }]);
        let (votes, paid) = settle(&mixed, &players(), &[]).unwrap();
        assert_eq!(counts(&votes), vec![0, 0, 3]);
        assert_eq!(paid.players[0].influence, 2);
        assert_eq!(err(draft(vec![counted(1, 0)])), "casts[0].votes: a counted total is at least 1 (leave 0 out)");
        assert_eq!(
            err(draft(vec![counted(1, 2), counted(1, 1)])),
            "casts[1].option: option 2 already has the total the table counted"
        );
        assert_eq!(err(draft(vec![counted(3, 1)])), "casts[0].option: there is no option 4");
        assert_eq!(err(draft(vec![counted(0, 41)])), "casts[0].votes: an option may hold at most 40 votes");
    }
}
