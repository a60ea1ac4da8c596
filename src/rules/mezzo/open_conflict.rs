//! A conflict the table opened for votes (DEV-1; RULES.md §3.2): its question, options and
//! who it is about are kept on the table, and each player may cast their own votes into it
//! from their own device — their free votes, their law, their influence and what they may
//! spend of elements (Fortune's Favor, Victory Narration, Ill Fated). The table resolves it
//! with its own casts added ([`OpenConflict::draft`]), as any conflict.
//!
//! The ballots are one model for conflicts and action checks (DEV-2: "one vote model for
//! conflicts and checks, not two"): [`Ballot`] over a vote's own cast ([`BallotCast`]),
//! [`cast_ballot`] (replace one player's ballot, checked alone then with the others) and
//! [`ballot_problems`] (a read vote named at its path). An action check open for votes
//! ([`super::open_check`]) keeps its ballots the same way.
//!
//! Rulings where the source is silent:
//! - The seed's votes are cast openly at the table, so every device sees who voted what
//!   before the resolve (a player's ballot hides nothing another player could not hear).
//! - A player's ballot may be changed, or emptied, by that player until the table resolves
//!   or withdraws the conflict; the latest ballot replaces the one before, whole.
//! - An Attractant or Repellent and a discovered detail are nobody's to spend, and counted
//!   totals are the table's own: they are cast on the table's device, not in a ballot.
//! - Nothing is paid when a ballot is cast: it is checked against what the player holds now
//!   (alone, then together with every other ballot), and paid when the table resolves.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::ballot::Sources;
use super::element::{Element, Player};
use super::vote::{settle, ConflictCast, ConflictDraft, ConflictLaw};
use crate::error::{Error, Result};

/// The most things one ballot casts.
pub const MAX_CASTS: usize = 64;

/// A conflict open for the players' votes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenConflict {
    pub question: String,
    pub options: Vec<String>,
    /// The characters whose matters it is about (an Actor's claims).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub about: Vec<Uuid>,
    /// The characters active in the scene when it was opened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active_in_scene: Vec<Uuid>,
    /// The players' ballots, one per player, in the order first cast.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ballots: Vec<Ballot>,
}

/// What one player cast into an open vote: a conflict's casts, or a check's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ballot<C = ConflictCast> {
    pub player: Uuid,
    pub casts: Vec<C>,
}

/// A cast a player may put in a ballot: who spends it, or none for what is the table's own
/// (counted totals, traits, discovered details).
pub trait BallotCast: Clone {
    fn spender(&self) -> Option<Uuid>;
}

impl BallotCast for ConflictCast {
    fn spender(&self) -> Option<Uuid> {
        match self {
            ConflictCast::Free { player, .. }
            | ConflictCast::Law { player, .. }
            | ConflictCast::Influence { player, .. } => Some(*player),
            ConflictCast::FortunesFavor { by, .. }
            | ConflictCast::Narration { by, .. }
            | ConflictCast::IllFated { by, .. } => Some(*by),
            ConflictCast::Counted { .. } | ConflictCast::Trait { .. } | ConflictCast::Discover { .. } => None,
        }
    }
}

/// An error at `casts[k]` of a list whose first `skip` casts are other ballots', at the new
/// ballot's own index.
fn own_index(e: Error, skip: usize) -> Error {
    let Error::Invalid { field, problem } = e else { return e };
    let shifted = field
        .strip_prefix("casts[")
        .and_then(|rest| rest.split_once(']'))
        .and_then(|(k, tail)| Some((k.parse::<usize>().ok()?.checked_sub(skip)?, tail)))
        .map(|(k, tail)| format!("casts[{k}]{tail}"));
    Error::invalid(shifted.unwrap_or(field), problem)
}

/// The ballots after player `player` casts `casts` (replacing their ballot; none empties
/// it). Each cast must be the player's own (`table_only` says what is cast on the table's
/// device instead) and within what they hold: `settle` checks a list of ballot casts,
/// naming `casts[i].field`; the new ballot is checked alone, then after every other ballot,
/// so a clash is named at its own index. A refusal changes nothing.
pub fn cast_ballot<C: BallotCast>(
    ballots: &[Ballot<C>],
    player: Uuid,
    casts: &[C],
    players: &[Player],
    table_only: &str,
    settle: impl Fn(&[C]) -> Result<()>,
) -> Result<Vec<Ballot<C>>> {
    let who = players
        .iter()
        .find(|p| p.id == player)
        .ok_or_else(|| Error::invalid("player", format!("player {player} is not at the table")))?;
    if casts.len() > MAX_CASTS {
        return Err(Error::invalid("casts", format!("a ballot casts at most {MAX_CASTS} things")));
    }
    for (i, c) in casts.iter().enumerate() {
        match c.spender() {
            None => return Err(Error::invalid(format!("casts[{i}].kind"), table_only)),
            Some(p) if p != player => {
                return Err(Error::invalid(
                    format!("casts[{i}].player"),
                    format!("{} casts only their own votes", who.name),
                ))
            }
            Some(_) => {}
        }
    }
    let mut next: Vec<Ballot<C>> = ballots.iter().filter(|b| b.player != player).cloned().collect();
    settle(casts)?;
    if !casts.is_empty() {
        // The other ballots first (they fit together already), so a clash is met at the new
        // ballot's cast and named at its own index.
        let others: Vec<C> = next.iter().flat_map(|b| b.casts.iter().cloned()).collect();
        let skip = others.len();
        let together: Vec<C> = others.into_iter().chain(casts.iter().cloned()).collect();
        settle(&together).map_err(|e| own_index(e, skip))?;
        let ballot = Ballot { player, casts: casts.to_vec() };
        match ballots.iter().position(|b| b.player == player) {
            Some(at) => next.insert(at, ballot),
            None => next.push(ballot),
        }
    }
    Ok(next)
}

/// The table's own `casts` for a vote with `ballots`: none may be spent by a player who voted
/// from their own device (their ballot is their votes, so they are not cast twice). A refusal
/// names the cast, `casts[i]`.
pub fn clear_of_ballots<C: BallotCast>(ballots: &[Ballot<C>], casts: &[C], players: &[Player]) -> Result<()> {
    for (i, c) in casts.iter().enumerate() {
        if let Some(p) = c.spender().filter(|p| ballots.iter().any(|b| b.player == *p)) {
            let name = players.iter().find(|q| q.id == p).map_or_else(|| p.to_string(), |q| q.name.clone());
            return Err(Error::invalid(
                format!("casts[{i}]"),
                format!("{name} voted from their own device: their ballot holds their votes"),
            ));
        }
    }
    Ok(())
}

/// Everything wrong with the ballots of a vote read from a file or the database, at `path`:
/// each ballot a player's own and within what they hold ([`cast_ballot`]), each player once,
/// and the ballots together (`settle`, only when each alone is sound).
pub fn ballot_problems<C: BallotCast>(
    ballots: &[Ballot<C>],
    path: &str,
    players: &[Player],
    table_only: &str,
    settle: impl Fn(&[C]) -> Result<()>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for (i, b) in ballots.iter().enumerate() {
        let at = format!("{path}.ballots[{i}]");
        if seen.contains(&b.player) {
            out.push((format!("{at}.player"), "casts one ballot".to_string()));
        }
        seen.push(b.player);
        if b.casts.is_empty() {
            out.push((format!("{at}.casts"), "a ballot casts at least one vote".to_string()));
        }
        if let Err(Error::Invalid { field, problem }) =
            cast_ballot(&[], b.player, &b.casts, players, table_only, &settle)
        {
            out.push((format!("{at}.{field}"), problem));
        }
    }
    if out.is_empty() {
        let all: Vec<C> = ballots.iter().flat_map(|b| b.casts.iter().cloned()).collect();
        if let Err(Error::Invalid { field, problem }) = settle(&all) {
            out.push((format!("{path}.{field}"), problem));
        }
    }
    out
}

/// What a conflict's ballot may not cast: the table's own.
const CONFLICT_TABLE_ONLY: &str =
    "counted totals, Attractants, Repellents and discovered details are cast on the table's device";

impl OpenConflict {
    /// The conflict with each element it names given the id `new_id` maps it to (a game
    /// imported as a copy: its characters are new ones; players and other ids stay).
    pub fn map_elements(&mut self, new_id: impl Fn(Uuid) -> Uuid) {
        let map = |ids: &mut Vec<Uuid>| ids.iter_mut().for_each(|id| *id = new_id(*id));
        map(&mut self.about);
        map(&mut self.active_in_scene);
        for cast in self.ballots.iter_mut().flat_map(|b| b.casts.iter_mut()) {
            match cast {
                ConflictCast::FortunesFavor { element, .. }
                | ConflictCast::Narration { element, .. }
                | ConflictCast::Trait { element, .. }
                | ConflictCast::IllFated { element, .. } => *element = new_id(*element),
                // An arc Theme is named by the challenger who set it.
                ConflictCast::Law { law: ConflictLaw::Theme { by, .. }, .. } => *by = new_id(*by),
                ConflictCast::Law { .. }
                | ConflictCast::Free { .. }
                | ConflictCast::Influence { .. }
                | ConflictCast::Counted { .. }
                | ConflictCast::Discover { .. } => {}
            }
        }
    }

    /// The table opens a conflict for votes: the question and options are checked like any
    /// conflict's (no votes yet).
    pub fn open(
        question: &str,
        options: &[String],
        about: &[Uuid],
        active_in_scene: &[Uuid],
        players: &[Player],
        elements: &[Element],
        sources: &Sources,
    ) -> Result<OpenConflict> {
        let open = OpenConflict {
            question: question.trim().to_string(),
            options: options.iter().map(|o| o.trim().to_string()).collect(),
            about: about.to_vec(),
            active_in_scene: active_in_scene.to_vec(),
            ballots: Vec::new(),
        };
        settle(&open.draft(&[]), players, elements, sources)?;
        Ok(open)
    }

    /// The conflict to resolve: the table's own casts first, then each player's ballot.
    pub fn draft(&self, table_casts: &[ConflictCast]) -> ConflictDraft {
        ConflictDraft {
            question: self.question.clone(),
            options: self.options.clone(),
            about: self.about.clone(),
            active_in_scene: self.active_in_scene.clone(),
            casts: table_casts
                .iter()
                .cloned()
                .chain(self.ballots.iter().flat_map(|b| b.casts.iter().cloned()))
                .collect(),
        }
    }

    /// Where a refusal of [`Self::draft`]`(table_casts)` lies (its field `casts[k]…` counts
    /// every cast together): one of the table's own casts stays `casts[k]…`; one of a ballot's
    /// is named `ballots[Bo].casts[j]…`, by the player whose ballot it is, at its index in that
    /// ballot (so the table knows whose votes no longer fit, e.g. influence spent elsewhere
    /// since they were cast).
    pub fn locate(&self, e: Error, table_casts: usize, players: &[Player]) -> Error {
        let Error::Invalid { field, problem } = e else { return e };
        let at = field
            .strip_prefix("casts[")
            .and_then(|rest| rest.split_once(']'))
            .and_then(|(k, tail)| Some((k.parse::<usize>().ok()?, tail)));
        let Some((k, tail)) = at.filter(|(k, _)| *k >= table_casts) else {
            return Error::invalid(field, problem);
        };
        let mut j = k - table_casts;
        for b in &self.ballots {
            if j < b.casts.len() {
                let name =
                    players.iter().find(|p| p.id == b.player).map_or_else(|| b.player.to_string(), |p| p.name.clone());
                return Error::invalid(format!("ballots[{name}].casts[{j}]{tail}"), problem);
            }
            j -= b.casts.len();
        }
        Error::invalid(field, problem)
    }

    /// Player `player` casts `casts` (replacing their ballot; none empties it): their own,
    /// within what they hold, and fitting with every other ballot (one fact per conflict, an
    /// element's adversity spent once) — [`cast_ballot`]. A refusal changes nothing.
    pub fn cast(
        &self,
        player: Uuid,
        casts: &[ConflictCast],
        players: &[Player],
        elements: &[Element],
        sources: &Sources,
    ) -> Result<OpenConflict> {
        let settle = |casts: &[ConflictCast]| {
            settle(&ConflictDraft { casts: casts.to_vec(), ..self.draft(&[]) }, players, elements, sources).map(|_| ())
        };
        let ballots = cast_ballot(&self.ballots, player, casts, players, CONFLICT_TABLE_ONLY, settle)?;
        Ok(OpenConflict { ballots, ..self.clone() })
    }

    /// Everything wrong with an open conflict read from a file or the database, at `path`:
    /// the question and options, each ballot a player's own, each player once, and the votes
    /// together within what the players hold.
    pub fn problems(
        &self,
        path: &str,
        players: &[Player],
        elements: &[Element],
        sources: &Sources,
    ) -> Vec<(String, String)> {
        let settle = |casts: &[ConflictCast]| {
            settle(&ConflictDraft { casts: casts.to_vec(), ..self.draft(&[]) }, players, elements, sources).map(|_| ())
        };
        ballot_problems(&self.ballots, path, players, CONFLICT_TABLE_ONLY, settle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mezzo::element::{ElementKind, Role};
    use crate::rules::mezzo::vote::{counts, tally, ConflictLaw, Direction};
    use crate::rules::test_support::id;

    fn players() -> Vec<Player> {
        let mut ann = Player::new(id(1), "Ann").unwrap();
        ann.claimed.push(id(10));
        ann.roles.push(Role::Actor);
        vec![ann, Player::new(id(2), "Bo").unwrap(), Player::new(id(3), "Cy").unwrap()]
    }

    fn opened() -> OpenConflict {
        let options = vec!["The bridge holds".to_string(), "The bridge falls".to_string()];
        OpenConflict::open(
            " Does the bridge hold? ",
            &options,
            &[id(10)],
            &[id(10)],
            &players(),
            &[],
            &Sources::default(),
        )
        .unwrap()
    }

    fn free(p: u128, option: usize, votes: u32) -> ConflictCast {
        ConflictCast::Free { player: id(p), option, votes }
    }

    fn influence(p: u128, option: usize, points: u32) -> ConflictCast {
        ConflictCast::Influence { player: id(p), option, points }
    }

    #[test]
    fn a_ballot_is_cast_replaced_and_counted_with_the_tables_own_casts() {
        let open = opened();
        assert_eq!(open.question, "Does the bridge hold?");
        let sources = Sources::default();
        let bo = open.cast(id(2), &[free(2, 1, 1), influence(2, 1, 1)], &players(), &[], &sources).unwrap();
        assert_eq!(bo.ballots, vec![Ballot { player: id(2), casts: vec![free(2, 1, 1), influence(2, 1, 1)] }]);
        // Bo changes his mind: the new ballot replaces the old one, whole.
        let bo = bo.cast(id(2), &[influence(2, 0, 2)], &players(), &[], &sources).unwrap();
        assert_eq!(bo.ballots, vec![Ballot { player: id(2), casts: vec![influence(2, 0, 2)] }]);
        let both = bo.cast(id(3), &[free(3, 1, 1)], &players(), &[], &sources).unwrap();
        // The table adds Ann's 3 free votes (Actor, about her character) on its own device.
        let votes = tally(&both.draft(&[free(1, 1, 3)]), &players(), &[], &sources).unwrap();
        assert_eq!(counts(&votes), vec![2, 4]);
        // An empty ballot takes the player's votes back.
        let none = both.cast(id(2), &[], &players(), &[], &sources).unwrap();
        assert_eq!(none.ballots.iter().map(|b| b.player).collect::<Vec<_>>(), vec![id(3)]);
    }

    #[test]
    fn a_ballot_over_what_the_player_holds_or_for_someone_else_is_refused_and_changes_nothing() {
        let open = opened();
        let sources = Sources::default();
        let err = |o: &OpenConflict, p: u128, casts: &[ConflictCast]| {
            o.cast(id(p), casts, &players(), &[], &sources).unwrap_err().to_string()
        };
        assert_eq!(err(&open, 2, &[influence(2, 0, 4)]), "casts[0].points: Bo holds 3 influence, not 4");
        assert_eq!(
            err(&open, 2, &[free(2, 0, 1), free(2, 1, 1)]),
            "casts[1].votes: Bo has 1 free vote(s) in this conflict, 1 given already"
        );
        assert_eq!(err(&open, 2, &[free(3, 0, 1)]), "casts[0].player: Bo casts only their own votes");
        assert_eq!(
            err(&open, 2, &[ConflictCast::Counted { option: 0, votes: 5 }]),
            "casts[0].kind: counted totals, Attractants, Repellents and discovered details are cast on the table's device"
        );
        assert_eq!(err(&open, 9, &[]), "player: player 00000000-0000-0000-0000-000000000009 is not at the table");
        // A fact serves once per conflict, across ballots: the second ballot is refused at its
        // own cast, and the first stays.
        let law = |p: u128, option| ConflictCast::Law {
            player: id(p),
            option,
            law: ConflictLaw::Consistency { fact: "The ropes are old".into(), direction: Direction::For },
        };
        let bo = open.cast(id(2), &[law(2, 1)], &players(), &[], &sources).unwrap();
        assert_eq!(err(&bo, 3, &[law(3, 0)]), "casts[0].law.fact: “The ropes are old” serves once per conflict");
        assert_eq!(bo.ballots.len(), 1);
    }

    #[test]
    fn a_refused_resolve_names_the_ballot_and_its_own_cast_or_the_tables_cast() {
        let open = opened();
        let (players, elements): (Vec<Player>, Vec<Element>) = (players(), vec![]);
        let sources = Sources::default();
        let open = open.cast(id(1), &[free(1, 0, 1)], &players, &elements, &sources).unwrap();
        let open = open.cast(id(2), &[free(2, 1, 1), influence(2, 1, 3)], &players, &elements, &sources).unwrap();
        // A new arc (or a stepper) leaves Bo 2 influence: his ballot's second cast no longer fits.
        let mut poorer = players.clone();
        poorer[1].influence = 2;
        let table = [free(3, 0, 1)];
        let refused = settle(&open.draft(&table), &poorer, &elements, &sources).unwrap_err();
        assert_eq!(refused.to_string(), "casts[3].points: Bo holds 2 influence, not 3", "counted all together");
        assert_eq!(
            open.locate(refused, table.len(), &poorer).to_string(),
            "ballots[Bo].casts[1].points: Bo holds 2 influence, not 3"
        );
        // The table's own cast keeps its own index.
        let own = Error::invalid("casts[0].votes", "too many");
        assert_eq!(open.locate(own, table.len(), &poorer).to_string(), "casts[0].votes: too many");
    }

    #[test]
    fn an_elements_adversity_is_spent_once_across_ballots() {
        let mut rope = Element::new(id(20), ElementKind::Object, "Old rope").unwrap();
        rope.adversity = 2;
        let elements = vec![rope];
        let favor = |p: u128| ConflictCast::FortunesFavor { element: id(20), by: id(p), option: 0, allow_debt: false };
        let bo = opened().cast(id(2), &[favor(2)], &players(), &elements, &Sources::default()).unwrap();
        let err = bo.cast(id(3), &[favor(3)], &players(), &elements, &Sources::default()).unwrap_err().to_string();
        assert!(err.starts_with("casts[0].element:"), "{err}");
    }

    #[test]
    fn a_read_open_conflict_names_each_problem_at_its_path() {
        let mut open = opened();
        open.ballots = vec![
            Ballot { player: id(2), casts: vec![influence(2, 0, 5)] },
            Ballot { player: id(3), casts: vec![free(2, 0, 1)] },
            Ballot { player: id(3), casts: vec![] },
        ];
        let found = open.problems("mezzo_table.open_conflict", &players(), &[], &Sources::default());
        let paths: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "mezzo_table.open_conflict.ballots[0].casts[0].points",
                "mezzo_table.open_conflict.ballots[1].casts[0].player",
                "mezzo_table.open_conflict.ballots[2].player",
                "mezzo_table.open_conflict.ballots[2].casts",
            ]
        );
        open.ballots.clear();
        open.options.truncate(1);
        let found = open.problems("t", &players(), &[], &Sources::default());
        assert_eq!(found[0].0, "t.options");
    }
}
