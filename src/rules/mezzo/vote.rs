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
//! - The other sources the seed grants come from what the table recorded ([`Sources`]):
//!   Victory Narration votes a victor bought when leaving the table's challenge (kept until
//!   the next challenge starts, spent here), an Attractant or Repellent of an element active
//!   in the scene (+1, once per trait), a detail a Discover perk of that challenge added (an
//!   extra vote, once per detail), Ill Fated (a point of the element's adversity debt paid
//!   off per vote). The momentum, debt and narration votes of a claimed element are its
//!   claimer's to spend.
//! - A custom Setting Law or an arc Theme counts like Potential: +1 for, −1 against, and it
//!   is the player's one law of the conflict.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub use super::ballot::VictoryVotes;
use super::ballot::{text, under, Ledger};
pub use super::ballot::{Direction, Law, Sources};
use super::challenge::{ChallengeEvent, Spend};
use super::conflict::MAX_VOTES;
use super::element::{free_votes, spend_adversity, spend_influence, AdversitySpend, Element, Player, Template};
#[cfg(doc)]
use super::plot::CustomLaw;
use crate::error::{Error, Result};

/// A Setting Law invoked in a conflict (its direction inside; an action check keeps it
/// beside the [`Law`]): the same laws, checked by the same [`Ledger`].
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
    /// A Setting Law the table made for its game ([`CustomLaw`], by id): ±1 like Potential.
    Custom { id: Uuid, direction: Direction },
    /// The arc Theme player `by` set at the Turning Point: ±1 like Potential.
    Theme { by: Uuid, direction: Direction },
}

impl ConflictLaw {
    /// The law and its direction, as the shared vote model takes them.
    pub fn parts(&self) -> (Law, Direction) {
        match self {
            ConflictLaw::Consistency { fact, direction } => (Law::Consistency { fact: fact.clone() }, *direction),
            ConflictLaw::Inertia { fact } => (Law::Inertia { fact: fact.clone() }, Direction::Against),
            ConflictLaw::Potential { direction } => (Law::Potential, *direction),
            ConflictLaw::Custom { id, direction } => (Law::Custom { id: *id }, *direction),
            ConflictLaw::Theme { by, direction } => (Law::Theme { by: *by }, *direction),
        }
    }
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
    /// Victory Narration: `votes` of the votes `element` bought with momentum when it left
    /// the table's challenge in victory, spent by player `by`.
    Narration { element: Uuid, by: Uuid, option: usize, votes: u32 },
    /// An Attractant (the option where its element is present) or Repellent (the option where
    /// it is absent) of `element`, active in the scene: a vote.
    Trait { element: Uuid, trait_id: Uuid, option: usize },
    /// A detail a Discover perk added in the table's challenge: an extra vote for the option
    /// where it exists.
    Discover { detail: String, option: usize },
    /// Ill Fated: `points` of `element`'s adversity debt paid off, a vote each for the option
    /// that makes life harder for it, by player `by`.
    IllFated { element: Uuid, by: Uuid, option: usize, points: u32 },
}

/// The bank after a challenge's events: the narration votes `events` bought are added to
/// those already kept for `challenge`; votes of any other challenge are gone.
pub fn bank_victory_votes(bank: &[VictoryVotes], challenge: Uuid, events: &[ChallengeEvent]) -> Vec<VictoryVotes> {
    let mut next: Vec<VictoryVotes> = bank.iter().filter(|v| v.challenge == challenge).cloned().collect();
    for e in events {
        if let ChallengeEvent::Spent { challenger, spend: Spend::VictoryNarration { votes } } = e {
            match next.iter_mut().find(|v| v.element == *challenger) {
                Some(v) => v.votes = v.votes.saturating_add(*votes),
                None => next.push(VictoryVotes { element: *challenger, challenge, votes: *votes }),
            }
        }
    }
    next
}

/// A conflict as the table sets it up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConflictDraft {
    /// What is disputed.
    pub question: String,
    pub options: Vec<String>,
    /// The characters whose matters the conflict is about (an Actor's claims), none for
    /// any other matter. Also read: one id, or null (a draft of one character at most).
    #[serde(default, deserialize_with = "one_or_many")]
    pub about: Vec<Uuid>,
    /// The characters active in the scene (an Actor plays only while one is).
    #[serde(default)]
    pub active_in_scene: Vec<Uuid>,
    #[serde(default)]
    pub casts: Vec<ConflictCast>,
}

/// `about` as a list, a single id or null.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Vec<Uuid>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum About {
        Many(Vec<Uuid>),
        One(Option<Uuid>),
    }
    Ok(match About::deserialize(d)? {
        About::Many(ids) => ids,
        About::One(one) => one.into_iter().collect(),
    })
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
    /// Victory Narration votes.
    #[serde(default)]
    pub narration: u32,
    /// Attractant and Repellent votes.
    #[serde(default)]
    pub traits: u32,
    /// Discovered details' extra votes.
    #[serde(default)]
    pub discover: u32,
    /// Ill Fated votes (adversity debt paid off).
    #[serde(default)]
    pub ill_fated: u32,
    /// Everything together, at least 0.
    pub total: u32,
}

/// The players and elements after paying for the casts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paid {
    pub players: Vec<Player>,
    pub elements: Vec<Element>,
    /// The Victory Narration votes left after the casts.
    #[serde(default)]
    pub victory_votes: Vec<VictoryVotes>,
}

/// Checks every cast and counts each option's votes.
pub fn tally(
    draft: &ConflictDraft,
    players: &[Player],
    elements: &[Element],
    sources: &Sources,
) -> Result<Vec<OptionVotes>> {
    Ok(settle(draft, players, elements, sources)?.0)
}

/// [`tally`], and the players and elements (only those that paid) after paying.
pub fn settle(
    draft: &ConflictDraft,
    players: &[Player],
    elements: &[Element],
    sources: &Sources,
) -> Result<(Vec<OptionVotes>, Paid)> {
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
    let mut counted: BTreeSet<usize> = BTreeSet::new();
    let mut ledger = Ledger::new("conflict", players, elements, sources);
    let mut traits_used: BTreeSet<Uuid> = BTreeSet::new();
    for (i, cast) in draft.casts.iter().enumerate() {
        let at = |field: &str| format!("casts[{i}].{field}");
        let prefix = format!("casts[{i}]");
        let within = |e: Error| under(&prefix, e);
        let option = match cast {
            ConflictCast::Free { option, .. }
            | ConflictCast::Law { option, .. }
            | ConflictCast::Influence { option, .. }
            | ConflictCast::FortunesFavor { option, .. }
            | ConflictCast::Counted { option, .. }
            | ConflictCast::Narration { option, .. }
            | ConflictCast::Trait { option, .. }
            | ConflictCast::Discover { option, .. }
            | ConflictCast::IllFated { option, .. } => *option,
        };
        if option >= draft.options.len() {
            return Err(Error::invalid(at("option"), format!("there is no option {}", option + 1)));
        }
        let v = &mut votes[option];
        match cast {
            ConflictCast::Free { player: id, votes: n, .. } => {
                let p = ledger.player("player", *id).map_err(within)?;
                let has = free_votes(&p, &draft.about, &draft.active_in_scene);
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
                let (law, direction) = law.parts();
                v.laws += ledger.law(*id, &law, direction).map_err(within)?;
            }
            ConflictCast::Influence { player: id, points, .. } => {
                let p = ledger.player("player", *id).map_err(within)?;
                let (after, events) = spend_influence(&p, *points).map_err(|e| rename(e, &at("points")))?;
                ledger.put_player(after, events);
                v.influence += points;
            }
            ConflictCast::FortunesFavor { element, by, allow_debt, .. } => {
                ledger.player("player", *by).map_err(within)?;
                let e = ledger.element("element", *element).map_err(within)?;
                let (after, events) = spend_adversity(&e, &AdversitySpend::FortunesFavor, *by, *allow_debt)
                    .map_err(|err| rename(err, &at("element")))?;
                ledger.put_element(after, events);
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
            ConflictCast::Narration { element: id, by, votes: n, .. } => {
                ledger.narration(*id, *by, *n).map_err(within)?;
                v.narration += n;
            }
            ConflictCast::Trait { element: id, trait_id, .. } => {
                let e = ledger.element("element", *id).map_err(within)?;
                let t = e
                    .trait_by_id(*trait_id)
                    .ok_or_else(|| Error::invalid(at("trait_id"), format!("{} has no trait {trait_id}", e.name)))?;
                if !matches!(t.template, Some(Template::Attractant | Template::Repellent)) {
                    return Err(Error::invalid(
                        at("trait_id"),
                        format!("“{}” is not an Attractant or a Repellent: it gives no vote in a conflict", t.name),
                    ));
                }
                if !draft.active_in_scene.contains(id) {
                    return Err(Error::invalid(
                        at("element"),
                        format!("{} is not active in the scene: its “{}” does not apply", e.name, t.name),
                    ));
                }
                if !traits_used.insert(*trait_id) {
                    return Err(Error::invalid(at("trait_id"), format!("“{}” already gave its vote", t.name)));
                }
                v.traits += 1;
            }
            ConflictCast::Discover { detail, .. } => {
                ledger.discover(detail).map_err(within)?;
                v.discover += 1;
            }
            ConflictCast::IllFated { element: id, by, points, .. } => {
                ledger.ill_fated(*id, *by, *points).map_err(within)?;
                v.ill_fated += points;
            }
        }
    }
    for (i, v) in votes.iter_mut().enumerate() {
        let total = i64::from(v.free)
            + v.laws
            + i64::from(v.influence)
            + i64::from(v.fortunes_favor)
            + i64::from(v.counted)
            + i64::from(v.narration)
            + i64::from(v.traits)
            + i64::from(v.discover)
            + i64::from(v.ill_fated);
        v.total = u32::try_from(total.max(0)).unwrap_or(u32::MAX);
        if v.total > MAX_VOTES {
            return Err(Error::invalid(
                format!("options[{i}]"),
                format!("holds {} votes; an option may hold at most {MAX_VOTES}", v.total),
            ));
        }
    }
    let bill = ledger.bill();
    let mut bank = bill.victory_votes.unwrap_or_else(|| sources.victory_votes.clone());
    bank.retain(|b| b.votes > 0);
    let paid = Paid { players: bill.players, elements: bill.elements, victory_votes: bank };
    Ok((votes, paid))
}

/// The vote counts alone.
pub fn counts(votes: &[OptionVotes]) -> Vec<u32> {
    votes.iter().map(|v| v.total).collect()
}

/// The rules' error, at the cast's field.
fn rename(e: Error, field: &str) -> Error {
    super::ballot::rename(e, field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mezzo::element::{ElementKind, Role};
    use crate::rules::mezzo::plot::{CustomLaw, Theme};
    use crate::rules::test_support::id;

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
            about: vec![id(10)],
            active_in_scene: vec![id(10)],
            casts,
        }
    }

    fn err(d: ConflictDraft) -> String {
        tally(&d, &players(), &[], &Sources::default()).unwrap_err().to_string()
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
        let (votes, paid) = settle(&draft(casts), &players(), &[], &Sources::default()).unwrap();
        assert_eq!(counts(&votes), vec![1, 4, 1]);
        assert_eq!(paid.players.len(), 1);
        assert_eq!(paid.players[0].influence, 1);
    }

    /// seed:593, Creative Control: a conflict about several characters (PC against PC) gives
    /// every Actor whose claimed character it is about 3 free votes, not only the first.
    #[test]
    fn every_actor_whose_character_the_conflict_is_about_has_three_free_votes() {
        let mut table = players();
        table[1].claimed.push(id(11));
        table[1].roles.push(Role::Actor);
        let free = |p: u128, option| ConflictCast::Free { player: id(p), option, votes: 3 };
        let mut both = draft(vec![free(1, 0), free(2, 1)]);
        both.about = vec![id(10), id(11)];
        both.active_in_scene = vec![id(10), id(11)];
        let votes = tally(&both, &table, &[], &Sources::default()).unwrap();
        assert_eq!(counts(&votes), vec![3, 3, 0]);
        // About Ann's character alone, Ben (an Actor) votes nowhere.
        both.about = vec![id(10)];
        assert_eq!(
            tally(&both, &table, &[], &Sources::default()).unwrap_err().to_string(),
            "casts[1].votes: Ben has 0 free vote(s) in this conflict, 0 given already"
        );
        // A draft written with one character (or none) still reads.
        let one: ConflictDraft = serde_json::from_value(serde_json::json!({
            "question": "q", "options": ["a", "b"], "about": id(10)
        }))
        .unwrap();
        assert_eq!(one.about, vec![id(10)]);
        let none: ConflictDraft =
            serde_json::from_value(serde_json::json!({ "question": "q", "options": ["a", "b"], "about": null }))
                .unwrap();
        assert!(none.about.is_empty());
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
            "casts[1].law: Ann already invoked a law in this conflict"
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
            "casts[0].player: player 00000000-0000-0000-0000-000000000009 is not at the table"
        );
        let mut one = draft(vec![]);
        one.options.truncate(1);
        assert!(err(one).starts_with("options: a conflict has 2 to"));
    }

    #[test]
    fn an_actor_has_no_free_vote_on_other_matters_and_laws_never_go_below_zero() {
        let mut d = draft(vec![ConflictCast::Free { player: id(1), option: 0, votes: 1 }]);
        d.about = Vec::new();
        assert!(err(d).contains("Ann has 0 free vote(s)"));
        let d =
            draft(vec![ConflictCast::Law { player: id(2), option: 2, law: ConflictLaw::Inertia { fact: "x".into() } }]);
        assert_eq!(counts(&tally(&d, &players(), &[], &Sources::default()).unwrap()), vec![0, 0, 0]);
    }

    #[test]
    fn fortunes_favor_spends_two_adversity_for_a_vote() {
        let mut e = Element::new(id(20), ElementKind::Object, "Old key").unwrap();
        e.adversity = 3;
        let d = draft(vec![ConflictCast::FortunesFavor { element: id(20), by: id(2), option: 0, allow_debt: false }]);
        let (votes, paid) = settle(&d, &players(), std::slice::from_ref(&e), &Sources::default()).unwrap();
        assert_eq!(votes[0].fortunes_favor, 1);
        assert_eq!(paid.elements[0].adversity, 1);
        // A second one would need debt: refused unless the player agrees.
        let twice = draft(vec![
            ConflictCast::FortunesFavor { element: id(20), by: id(2), option: 0, allow_debt: false },
            ConflictCast::FortunesFavor { element: id(20), by: id(2), option: 0, allow_debt: false },
        ]);
        assert!(tally(&twice, &players(), &[e], &Sources::default())
            .unwrap_err()
            .to_string()
            .starts_with("casts[1].element:"));
    }

    /// Regression guard for totals entered per option: each total lands on its own option,
    /// mixes with this device's casts, pays nothing, and is refused at 0, twice or past the cap.
    #[test]
    fn totals_counted_at_the_table_add_to_their_option_and_pay_nothing() {
        let counted = |option, votes| ConflictCast::Counted { option, votes };
        let (votes, paid) =
            settle(&draft(vec![counted(0, 3), counted(1, 1)]), &players(), &[], &Sources::default()).unwrap();
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
        let (votes, paid) = settle(&mixed, &players(), &[], &Sources::default()).unwrap();
        assert_eq!(counts(&votes), vec![0, 0, 3]);
        assert_eq!(paid.players[0].influence, 2);
        assert_eq!(err(draft(vec![counted(1, 0)])), "casts[0].votes: a counted total is at least 1 (leave 0 out)");
        assert_eq!(
            err(draft(vec![counted(1, 2), counted(1, 1)])),
            "casts[1].option: option 2 already has the total the table counted"
        );
        assert_eq!(err(draft(vec![counted(3, 1)])), "casts[0].option: there is no option 4");
        assert_eq!(err(draft(vec![counted(0, 176)])), "casts[0].votes: an option may hold at most 175 votes");
    }

    fn sources() -> Sources {
        Sources {
            laws: vec![CustomLaw { id: id(70), name: "Law of Heroes".into(), effect: "Heroes win in the end".into() }],
            themes: vec![Theme { by: id(10), text: "Trust is earned".into() }],
            victory_votes: vec![VictoryVotes { element: id(10), challenge: id(99), votes: 2 }],
            discoveries: vec!["A rope ladder".into()],
        }
    }

    fn mira() -> Element {
        let mut e = Element::new(id(10), ElementKind::Character, "Mira").unwrap();
        e.claimed_by = Some(id(1));
        e.traits.push(crate::rules::mezzo::element::Trait::from_template(
            id(30),
            Template::Attractant,
            "Danger magnet",
            crate::rules::mezzo::element::Via::EdgeSlot,
        ));
        e.traits.push(crate::rules::mezzo::element::Trait::new(
            id(31),
            crate::rules::mezzo::element::TraitKind::Edge,
            "Climber",
            crate::rules::mezzo::element::Via::EdgeSlot,
        ));
        e.adversity = 1;
        e.adversity_debt = 2;
        e
    }

    #[test]
    fn every_other_source_adds_its_votes_and_pays_what_it_spends() {
        let casts = vec![
            ConflictCast::Narration { element: id(10), by: id(1), option: 0, votes: 2 },
            ConflictCast::Trait { element: id(10), trait_id: id(30), option: 0 },
            ConflictCast::Discover { detail: "a rope ladder".into(), option: 1 },
            ConflictCast::IllFated { element: id(10), by: id(1), option: 2, points: 2 },
            ConflictCast::Law {
                player: id(1),
                option: 1,
                law: ConflictLaw::Custom { id: id(70), direction: Direction::For },
            },
            ConflictCast::Law {
                player: id(2),
                option: 2,
                law: ConflictLaw::Theme { by: id(10), direction: Direction::Against },
            },
        ];
        let (votes, paid) = settle(&draft(casts), &players(), &[mira()], &sources()).unwrap();
        assert_eq!(counts(&votes), vec![3, 2, 1]);
        assert_eq!((votes[0].narration, votes[0].traits, votes[1].discover, votes[2].ill_fated), (2, 1, 1, 2));
        assert_eq!((votes[1].laws, votes[2].laws), (1, -1));
        assert!(paid.victory_votes.is_empty(), "both narration votes are spent");
        assert_eq!(paid.elements[0].adversity_debt, 0, "Ill Fated paid the debt off");
        assert_eq!(paid.elements[0].adversity, 1, "and left the adversity alone");
    }

    #[test]
    fn a_source_that_is_not_there_is_refused_naming_the_cast() {
        let e = |casts| settle(&draft(casts), &players(), &[mira()], &sources()).unwrap_err().to_string();
        let narr = |by, votes| ConflictCast::Narration { element: id(10), by: id(by), option: 0, votes };
        assert_eq!(
            e(vec![narr(1, 3)]),
            "casts[0].votes: Mira holds 2 Victory Narration vote(s) from the table's challenge"
        );
        assert_eq!(
            e(vec![narr(1, 1), narr(1, 2)]),
            "casts[1].votes: Mira holds 1 Victory Narration vote(s) from the table's challenge"
        );
        assert_eq!(e(vec![narr(2, 1)]), "casts[0].by: Mira is claimed: its momentum is its claimer's");
        let no_bank = Sources { victory_votes: vec![], ..sources() };
        assert!(settle(&draft(vec![narr(1, 1)]), &players(), &[mira()], &no_bank)
            .unwrap_err()
            .to_string()
            .contains("holds 0 Victory Narration"));
        let t = |trait_id| ConflictCast::Trait { element: id(10), trait_id: id(trait_id), option: 0 };
        assert_eq!(
            e(vec![t(31)]),
            "casts[0].trait_id: “Climber” is not an Attractant or a Repellent: it gives no vote in a conflict"
        );
        assert_eq!(e(vec![t(30), t(30)]), "casts[1].trait_id: “Danger magnet” already gave its vote");
        let mut away = draft(vec![t(30)]);
        away.active_in_scene.clear();
        assert_eq!(
            settle(&away, &players(), &[mira()], &sources()).unwrap_err().to_string(),
            "casts[0].element: Mira is not active in the scene: its “Danger magnet” does not apply"
        );
        let d = |detail: &str| ConflictCast::Discover { detail: detail.into(), option: 0 };
        assert_eq!(e(vec![d("A boat")]), "casts[0].detail: no Discover perk of the table's challenge added “A boat”");
        assert_eq!(
            e(vec![d("A rope ladder"), d("a rope ladder")]),
            "casts[1].detail: “a rope ladder” already has its extra vote"
        );
        let ill = |points| ConflictCast::IllFated { element: id(10), by: id(1), option: 0, points };
        assert_eq!(e(vec![ill(3)]), "casts[0].points: Mira owes 2 adversity debt, not 3");
        assert_eq!(e(vec![ill(1), ill(2)]), "casts[1].points: Mira owes 1 adversity debt, not 2");
        let law = |law| ConflictCast::Law { player: id(1), option: 0, law };
        assert_eq!(
            e(vec![law(ConflictLaw::Custom { id: id(71), direction: Direction::For })]),
            "casts[0].law.id: is not one of this game's Setting Laws"
        );
        assert_eq!(
            e(vec![law(ConflictLaw::Theme { by: id(2), direction: Direction::For })]),
            "casts[0].law.by: set no Theme of this arc"
        );
        // A custom law or a Theme is the player's one law of the conflict.
        assert_eq!(
            e(vec![
                law(ConflictLaw::Potential { direction: Direction::For }),
                law(ConflictLaw::Theme { by: id(10), direction: Direction::For }),
            ]),
            "casts[1].law: Ann already invoked a law in this conflict"
        );
    }

    #[test]
    fn victory_narration_bought_in_a_challenge_is_banked_for_it_alone() {
        use crate::rules::mezzo::challenge::{ChallengeEvent, Spend};
        let spent = |votes| ChallengeEvent::Spent { challenger: id(10), spend: Spend::VictoryNarration { votes } };
        let bank = bank_victory_votes(&[], id(99), &[spent(2), spent(1)]);
        assert_eq!(bank, vec![VictoryVotes { element: id(10), challenge: id(99), votes: 3 }]);
        let other =
            ChallengeEvent::Spent { challenger: id(10), spend: Spend::ClaimingStakes { perks: 1, uses: Vec::new() } };
        assert_eq!(bank_victory_votes(&bank, id(99), &[other]), bank, "other spends buy no votes");
        assert!(bank_victory_votes(&bank, id(98), &[]).is_empty(), "the next challenge ends the old votes");
    }
}
