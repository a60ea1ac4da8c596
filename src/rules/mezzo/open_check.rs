//! An action check the table opened for votes (DEV-1, DEV-2; RULES.md §3.3): its setup (the
//! sides, their base chances, who takes part) is kept on the table, and each player may cast
//! their own votes into it from their own device — their law, their influence and what they
//! may spend of elements (Fortune's Favor, Overcome Flaws, Victory Narration, Ill Fated). The
//! table rolls it with its own casts added ([`OpenCheck::casts`]), as any check, and the
//! resolve pays every ballot.
//!
//! The ballots are the conflicts' ([`super::open_conflict`]: [`Ballot`], [`cast_ballot`],
//! [`ballot_problems`]) over a check's [`Cast`], each checked by [`action_check::cast`].
//!
//! Rulings where the source is silent (beside those of an open conflict, which hold here):
//! - A check has no free votes (its base chance replaces them), so a ballot holds spends and
//!   a law only.
//! - An Unexpected Edge needs the table to judge that no trait fits the challenge, and a
//!   trait's votes, a counted total and a discovered detail are the table's to judge: they
//!   are cast on the table's device, not in a ballot.
//! - A check that needs no roll (one side left) is not opened for votes: nothing is cast.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::action_check::{self, Cast, CheckSetup, Outcome, SideKind};
use super::ballot::{under, Law, Sources};
use super::element::{Element, Player};
use super::open_conflict::{ballot_problems, cast_ballot, clear_of_ballots, Ballot, BallotCast};
use crate::error::{Error, Result};

/// An action check open for the players' votes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenCheck {
    pub setup: CheckSetup,
    /// The players' ballots, one per player, in the order first cast.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ballots: Vec<Ballot<Cast>>,
}

impl BallotCast for Cast {
    fn spender(&self) -> Option<Uuid> {
        match self {
            Cast::Law { player, .. } | Cast::Influence { player, .. } => Some(*player),
            Cast::FortunesFavor { by, .. }
            | Cast::OvercomeFlaw { by, .. }
            | Cast::Narration { by, .. }
            | Cast::IllFated { by, .. } => Some(*by),
            Cast::UnexpectedEdge { .. } | Cast::Trait { .. } | Cast::Counted { .. } | Cast::Discover { .. } => None,
        }
    }
}

/// What a check's ballot may not cast: the table's own.
const CHECK_TABLE_ONLY: &str =
    "an Unexpected Edge, a trait's votes, counted totals and discovered details are cast on the table's device";

impl OpenCheck {
    /// The check with each element it names given the id `new_id` maps it to (a game
    /// imported as a copy: its characters are new ones; players and other ids stay).
    pub fn map_elements(&mut self, new_id: impl Fn(Uuid) -> Uuid) {
        for side in &mut self.setup.sides {
            if let SideKind::Action { element } = &mut side.kind {
                *element = new_id(*element);
            }
        }
        self.setup.involved.iter_mut().for_each(|id| *id = new_id(*id));
        for cast in self.ballots.iter_mut().flat_map(|b| b.casts.iter_mut()) {
            match cast {
                Cast::FortunesFavor { element, .. }
                | Cast::OvercomeFlaw { element, .. }
                | Cast::UnexpectedEdge { element, .. }
                | Cast::Trait { element, .. }
                | Cast::Narration { element, .. }
                | Cast::IllFated { element, .. } => *element = new_id(*element),
                // An arc Theme is named by the challenger who set it.
                Cast::Law { law: Law::Theme { by }, .. } => *by = new_id(*by),
                Cast::Law { .. } | Cast::Influence { .. } | Cast::Counted { .. } | Cast::Discover { .. } => {}
            }
        }
    }

    /// The table opens a check for votes: its setup is checked like any check's start, and
    /// a check that needs no roll is refused (nothing would be cast).
    pub fn open(setup: &CheckSetup, elements: &[Element]) -> Result<OpenCheck> {
        let (check, _, _) = action_check::start(setup, elements)?;
        if let Some(Outcome::NoCheckNeeded { winner }) = check.outcome {
            return Err(Error::invalid(
                "sides",
                format!("no check is needed: side {} takes effect, so there is nothing to vote on", winner + 1),
            ));
        }
        Ok(OpenCheck {
            setup: CheckSetup { description: check.description.clone(), ..setup.clone() },
            ballots: Vec::new(),
        })
    }

    /// `casts` cast in order into the check as it starts, each checked and paid together by
    /// the rules (an error names `casts[i].field`).
    fn settle(&self, casts: &[Cast], players: &[Player], elements: &[Element], sources: &Sources) -> Result<()> {
        let (mut check, awarded, _) = action_check::start(&self.setup, elements)?;
        let elements: Vec<Element> =
            elements.iter().map(|e| awarded.elements.iter().find(|a| a.id == e.id).unwrap_or(e).clone()).collect();
        for (i, c) in casts.iter().enumerate() {
            check = action_check::cast(&check, c, players, &elements, sources)
                .map_err(|e| cast_field(&format!("casts[{i}]"), e))?
                .0;
        }
        Ok(())
    }

    /// Every ballot's casts, in the order the ballots were first cast: the table's roll adds
    /// them after its own.
    pub fn casts(&self) -> Vec<Cast> {
        self.ballots.iter().flat_map(|b| b.casts.iter().cloned()).collect()
    }

    /// The casts to roll: the table's own `table_casts` first, none spent by a player who
    /// voted from their own device (a refusal names `casts[i]`), then every ballot.
    pub fn with_table_casts(&self, table_casts: &[Cast], players: &[Player]) -> Result<Vec<Cast>> {
        clear_of_ballots(&self.ballots, table_casts, players)?;
        Ok(table_casts.iter().cloned().chain(self.casts()).collect())
    }

    /// Player `player` casts `casts` (replacing their ballot; none empties it): their own,
    /// within what they hold, and fitting with every other ballot (a law once per player, each
    /// fact once, the laws' ±2 per side, an element's adversity spent once). A refusal changes
    /// nothing.
    pub fn cast(
        &self,
        player: Uuid,
        casts: &[Cast],
        players: &[Player],
        elements: &[Element],
        sources: &Sources,
    ) -> Result<OpenCheck> {
        let settle = |casts: &[Cast]| self.settle(casts, players, elements, sources);
        let ballots = cast_ballot(&self.ballots, player, casts, players, CHECK_TABLE_ONLY, settle)?;
        Ok(OpenCheck { ballots, ..self.clone() })
    }

    /// Everything wrong with an open check read from a file or the database, at `path`: its
    /// setup, each ballot a player's own, each player once, and the votes together within what
    /// the players hold.
    pub fn problems(
        &self,
        path: &str,
        players: &[Player],
        elements: &[Element],
        sources: &Sources,
    ) -> Vec<(String, String)> {
        if let Err(e) = OpenCheck::open(&self.setup, elements) {
            if let Error::Invalid { field, problem } = under("setup", e) {
                return vec![(format!("{path}.{field}"), problem)];
            }
        }
        let settle = |casts: &[Cast]| self.settle(casts, players, elements, sources);
        ballot_problems(&self.ballots, path, players, CHECK_TABLE_ONLY, settle)
    }
}

/// A cast's error under `prefix`; the move's own name ("cast") is the cast itself.
fn cast_field(prefix: &str, e: Error) -> Error {
    match e {
        Error::Invalid { field, problem } if field == "cast" => Error::invalid(prefix, problem),
        other => under(prefix, other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mezzo::action_check::{BaseChance, Law, SideKind, SideSetup};
    use crate::rules::mezzo::ballot::Direction;
    use crate::rules::mezzo::element::ElementKind;
    use crate::rules::test_support::id;
    use crate::rules::test_support::mezzo::{element, player, ADA, BO, CY, MIRA};

    const WALL: u128 = 11;

    fn players() -> Vec<Player> {
        vec![player(ADA, "Ada"), player(BO, "Bo"), player(CY, "Cy")]
    }

    fn elements() -> Vec<Element> {
        let mut wall = element(WALL, ElementKind::Location, "Wall");
        wall.adversity = 2;
        vec![element(MIRA, ElementKind::Character, "Mira"), wall]
    }

    fn setup() -> CheckSetup {
        CheckSetup {
            id: id(99),
            description: " Mira climbs the wall ".into(),
            sides: vec![
                SideSetup {
                    kind: SideKind::Action { element: id(MIRA) },
                    description: String::new(),
                    chance: BaseChance::Common,
                    aptitude: 0,
                },
                SideSetup {
                    kind: SideKind::Failure,
                    description: "She falls".into(),
                    chance: BaseChance::Occasional,
                    aptitude: 0,
                },
            ],
            involved: vec![id(WALL)],
        }
    }

    fn influence(p: u128, side: usize, points: u32) -> Cast {
        Cast::Influence { player: id(p), side, points }
    }

    fn potential(p: u128, side: usize) -> Cast {
        Cast::Law { player: id(p), side, law: Law::Potential, direction: Direction::For }
    }

    #[test]
    fn a_ballot_is_cast_replaced_taken_back_and_rolled_with_the_tables_own_casts() {
        let open = OpenCheck::open(&setup(), &elements()).unwrap();
        assert_eq!(open.setup.description, "Mira climbs the wall");
        let s = Sources::default();
        let bo = open.cast(id(BO), &[influence(BO, 0, 2), potential(BO, 0)], &players(), &elements(), &s).unwrap();
        let cy = bo.cast(id(CY), &[influence(CY, 1, 1)], &players(), &elements(), &s).unwrap();
        assert_eq!(cy.casts(), vec![influence(BO, 0, 2), potential(BO, 0), influence(CY, 1, 1)]);
        // Bo changes his mind: the new ballot replaces the old one, whole, in its place.
        let bo = cy.cast(id(BO), &[influence(BO, 1, 1)], &players(), &elements(), &s).unwrap();
        assert_eq!(bo.casts(), vec![influence(BO, 1, 1), influence(CY, 1, 1)]);
        // The table rolls with its own casts first: the failure side holds 1 + 2 votes.
        let (mut check, _, _) = action_check::start(&bo.setup, &elements()).unwrap();
        for c in [influence(ADA, 0, 1)].into_iter().chain(bo.casts()) {
            check = action_check::cast(&check, &c, &players(), &elements(), &s).unwrap().0;
        }
        assert_eq!((check.tally(0).total, check.tally(1).total), (3, 3));
        // An empty ballot takes Bo's votes back.
        let none = bo.cast(id(BO), &[], &players(), &elements(), &s).unwrap();
        assert_eq!(none.ballots.iter().map(|b| b.player).collect::<Vec<_>>(), vec![id(CY)]);
    }

    #[test]
    fn a_ballot_over_what_the_player_holds_for_someone_else_or_the_tables_is_refused_and_changes_nothing() {
        let open = OpenCheck::open(&setup(), &elements()).unwrap();
        let s = Sources::default();
        let err = |o: &OpenCheck, p: u128, casts: &[Cast]| {
            o.cast(id(p), casts, &players(), &elements(), &s).unwrap_err().to_string()
        };
        assert_eq!(err(&open, BO, &[influence(BO, 0, 4)]), "casts[0].points: Bo holds 3 influence, not 4");
        assert_eq!(err(&open, BO, &[influence(CY, 0, 1)]), "casts[0].player: Bo casts only their own votes");
        assert_eq!(
            err(&open, BO, &[Cast::Counted { side: 0, votes: 2 }]),
            format!("casts[0].kind: {CHECK_TABLE_ONLY}")
        );
        assert_eq!(err(&open, BO, &[influence(BO, 5, 1)]), "casts[0].side: there is no side 5");
        // The Wall's 2 adversity buys one Fortune's Favor… for the Wall's own action only:
        // it acts on no side, so the rules refuse it at Bo's cast.
        let favor = Cast::FortunesFavor { element: id(WALL), by: id(BO), allow_debt: false };
        assert!(err(&open, BO, &[favor]).starts_with("casts[0].element:"));
        // A refusal after Bo's ballot is named at Cy's ballot's own index; Bo's stays.
        let bo = open.cast(id(BO), &[potential(BO, 0)], &players(), &elements(), &s).unwrap();
        assert_eq!(
            err(&bo, CY, &[potential(CY, 0), influence(CY, 1, 4)]),
            "casts[1].points: Cy holds 3 influence, not 4"
        );
        assert_eq!(bo.ballots.len(), 1);
    }

    #[test]
    fn the_table_casts_nothing_more_for_a_player_who_voted_from_their_phone() {
        let s = Sources::default();
        let open = OpenCheck::open(&setup(), &elements()).unwrap();
        let bo = open.cast(id(BO), &[influence(BO, 0, 1)], &players(), &elements(), &s).unwrap();
        let err = bo.with_table_casts(&[influence(ADA, 1, 1), influence(BO, 0, 2)], &players()).unwrap_err();
        assert_eq!(err.to_string(), "casts[1]: Bo voted from their own device: their ballot holds their votes");
        let all = bo.with_table_casts(&[influence(ADA, 1, 1)], &players()).unwrap();
        assert_eq!(all, vec![influence(ADA, 1, 1), influence(BO, 0, 1)]);
    }

    #[test]
    fn a_check_that_needs_no_roll_is_not_opened_for_votes() {
        let mut one_sided = setup();
        one_sided.sides[1].chance = BaseChance::Negligible;
        let e = OpenCheck::open(&one_sided, &elements()).unwrap_err().to_string();
        assert_eq!(e, "sides: no check is needed: side 1 takes effect, so there is nothing to vote on");
    }

    #[test]
    fn a_read_open_check_names_each_problem_at_its_path() {
        let mut open = OpenCheck::open(&setup(), &elements()).unwrap();
        open.ballots = vec![
            Ballot { player: id(BO), casts: vec![influence(BO, 0, 5)] },
            Ballot { player: id(CY), casts: vec![influence(BO, 0, 1)] },
            Ballot { player: id(CY), casts: vec![] },
        ];
        let found = open.problems("mezzo_table.open_check", &players(), &elements(), &Sources::default());
        let paths: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "mezzo_table.open_check.ballots[0].casts[0].points",
                "mezzo_table.open_check.ballots[1].casts[0].player",
                "mezzo_table.open_check.ballots[2].player",
                "mezzo_table.open_check.ballots[2].casts",
            ]
        );
        open.ballots.clear();
        open.setup.sides.truncate(1);
        let found = open.problems("t", &players(), &elements(), &Sources::default());
        assert_eq!(found[0].0, "t.setup.sides");
    }
}
