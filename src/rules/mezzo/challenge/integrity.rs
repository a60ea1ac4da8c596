//! Reading a challenge: what the table may do next, and a stored or imported one's problems.

use super::*;

// ---------------------------------------------------------------------------------------
// Reading a challenge: what the table may do next, and a stored or imported one's problems

/// The targets the table picks among for the next momentum-boost award (tied on the least
/// momentum); empty when no award waits for a pick.
pub fn award_choices(challenge: &Challenge, elements: &[Element]) -> Result<Vec<Uuid>> {
    match challenge.departure.as_ref().and_then(|d| d.boosts.first()) {
        Some(b) if !b.draw_pending => {
            let tied = award_candidates(challenge, &Table::new(elements))?;
            Ok(if tied.len() > 1 { tied } else { Vec::new() })
        }
        _ => Ok(Vec::new()),
    }
}

/// The least momentum a leaver needs to spend anything: 1 in victory, 2 in defeat.
pub fn least_spend(how: Leave) -> u32 {
    match how {
        Leave::Victory => 1,
        Leave::Defeat => 2,
    }
}

impl Challenger {
    /// How it is leaving or left, and why (None while it is in).
    pub fn gone(&self) -> Option<(Leave, Why)> {
        match self.status {
            Status::In => None,
            Status::Leaving { how, why } | Status::Left { how, why } => Some((how, why)),
        }
    }
}

impl Challenge {
    /// Every story element the challenge names: challengers, then goals.
    pub fn elements(&self) -> Vec<Uuid> {
        self.challengers.iter().map(|c| c.element).chain(self.goals.iter().map(|g| g.element)).collect()
    }

    /// The challenge with every element id `new_id` maps (an import as copies gives copied
    /// characters new ids); the challenge's own id and flaws, trumps and sides stay.
    pub fn map_elements(&mut self, new_id: impl Fn(Uuid) -> Uuid) {
        let map = |ids: &mut Vec<Uuid>| ids.iter_mut().for_each(|id| *id = new_id(*id));
        for c in &mut self.challengers {
            c.element = new_id(c.element);
        }
        for g in &mut self.goals {
            g.element = new_id(g.element);
            map(&mut g.supporters);
        }
        for a in &mut self.actions {
            a.challenger = new_id(a.challenger);
            if let Some(Closed::Countered { by }) = &mut a.closed {
                *by = new_id(*by);
            }
            for target in a.declared.iter_mut().filter_map(PerkUse::target_mut) {
                *target = new_id(*target);
            }
        }
        map(&mut self.acted);
        map(&mut self.may_surrender);
        for g in &mut self.gained {
            g.element = new_id(g.element);
        }
        for p in &mut self.counterable {
            p.goal = new_id(p.goal);
        }
        if let Some(d) = &mut self.departure {
            map(&mut d.leavers);
            for b in &mut d.boosts {
                match &mut b.owner {
                    BoostOwner::Challenger { element } => *element = new_id(*element),
                    BoostOwner::Trump { goal, .. } => *goal = new_id(*goal),
                }
                map(&mut b.targets);
            }
        }
    }

    /// Everything wrong with a stored or imported challenge, each at its path below the
    /// challenge: what the moves never leave (a side that does not exist, a challenger twice,
    /// an open action that is closed, a leaver that is not leaving…). Empty for every
    /// challenge [`start`] and [`play`] make. Whether its elements are at the table is the
    /// caller's to check ([`Challenge::elements`]).
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut problem = |path: String, message: String| out.push(Problem { path, message });
        // Every lookup goes through these sets, so a challenge read from a file costs time
        // in proportion to its size, whatever it holds.
        let challengers: HashSet<Uuid> = self.challengers.iter().map(|c| c.element).collect();
        let goals: HashSet<Uuid> = self.goals.iter().map(|g| g.element).collect();
        let sides: HashMap<Uuid, usize> = self.challengers.iter().rev().map(|c| (c.element, c.side)).collect();
        let challenger = |id: Uuid| challengers.contains(&id);
        if clean_text("description", &self.description).is_err() {
            problem(
                "description".into(),
                format!("at most {} characters, no control characters", element::MAX_TEXT_CHARS),
            );
        }
        if self.round == 0 {
            problem("round".into(), "rounds count from 1".into());
        }
        if !(2..=MAX_SIDES).contains(&self.sides.len()) {
            problem("sides".into(), format!("a challenge has 2 to {MAX_SIDES} sides"));
        }
        for (i, s) in self.sides.iter().enumerate().take(MAX_SIDES + 1) {
            if clean_text("name", &s.name).is_err() {
                problem(format!("sides[{i}].name"), "at most 2000 characters, no control characters".into());
            }
        }
        if self.challengers.len() > MAX_CHALLENGERS {
            problem("challengers".into(), format!("at most {MAX_CHALLENGERS} challengers"));
        }
        let leavers: HashSet<Uuid> = self.departure.iter().flat_map(|d| d.leavers.iter().copied()).collect();
        let mut seen = HashSet::new();
        for (i, c) in self.challengers.iter().enumerate() {
            let at = format!("challengers[{i}]");
            if !seen.insert(c.element) {
                problem(format!("{at}.element"), format!("{} takes part once", c.element));
            }
            if c.kind == ElementKind::Goal {
                problem(format!("{at}.kind"), "a goal is never a challenger".into());
            }
            if c.side >= self.sides.len() {
                problem(format!("{at}.side"), format!("there is no side {}", c.side));
            }
            if c.stake.as_deref().is_some_and(|s| clean_stake("stake", &Some(s.to_owned())).is_err()) {
                problem(format!("{at}.stake"), "a stake is stated in at most 2000 characters".into());
            }
            if c.boosts_triggered > MAX_BOOSTS_PER_OWNER {
                problem(format!("{at}.boosts_triggered"), format!("at most {MAX_BOOSTS_PER_OWNER}"));
            }
            let leaver = leavers.contains(&c.element);
            if leaver != matches!(c.status, Status::Leaving { .. }) {
                problem(format!("{at}.status"), "the challengers leaving are the departure's leavers".into());
            }
        }
        let mut seen = HashSet::new();
        for (i, g) in self.goals.iter().enumerate() {
            let at = format!("goals[{i}]");
            if !seen.insert(g.element) || challenger(g.element) {
                problem(format!("{at}.element"), format!("{} is named twice", g.element));
            }
            if g.side >= self.sides.len() {
                problem(format!("{at}.side"), format!("there is no side {}", g.side));
            }
            let mut supporters = HashSet::new();
            for (j, s) in g.supporters.iter().enumerate() {
                if !supporters.insert(*s) || sides.get(s) != Some(&g.side) {
                    problem(
                        format!("{at}.supporters[{j}]"),
                        "a supporter is a challenger of the goal's side, once".into(),
                    );
                }
            }
        }
        let open: HashSet<usize> = self.open.iter().copied().collect();
        for (i, a) in self.actions.iter().enumerate() {
            let at = format!("actions[{i}]");
            if !challenger(a.challenger) {
                problem(format!("{at}.challenger"), format!("{} is not a challenger", a.challenger));
            }
            if a.round == 0 || a.round > self.round {
                problem(format!("{at}.round"), format!("must be 1 to {}", self.round));
            }
            if a.score == 0 || a.opposing == 0 || compare(a.score, a.opposing) != a.result {
                problem(format!("{at}.result"), "scores of at least 1, and the result they give".into());
            }
            if (a.major_perks, a.minor_perks) != a.result.perks() || a.traded > a.major_perks {
                problem(format!("{at}.major_perks"), "the perks its result gives (and no more traded)".into());
            }
            let is_open = open.contains(&i);
            let failed = a.result == ActionResult::Failure;
            let waiting = a.closed.is_none() && !failed && !self.over;
            if (is_open && (a.closed.is_some() || failed)) || (!is_open && waiting) {
                problem(format!("{at}.closed"), "an action is open until its perks are closed".into());
            }
            if !a.declared.is_empty() && !matches!(a.closed, None | Some(Closed::Settled)) {
                problem(format!("{at}.declared"), "a countered or lapsed action keeps no perks".into());
            }
            // Counted in u64: the perks and trades come from a file and may be anything.
            let majors = a.declared.iter().filter(|p| p.name().is_major()).count() as u64;
            let minors = a.declared.len() as u64 - majors;
            let major_room = u64::from(a.major_perks.saturating_sub(a.traded));
            let minor_room = u64::from(a.minor_perks) + u64::from(MINORS_PER_TRADE) * u64::from(a.traded);
            if majors > major_room || minors > minor_room {
                problem(format!("{at}.declared"), "more perks declared than the action has".into());
            }
        }
        let mut seen = HashSet::new();
        for (i, o) in self.open.iter().enumerate() {
            if *o >= self.actions.len() || !seen.insert(*o) {
                problem(format!("open[{i}]"), format!("action {o} is not an action, or open twice"));
            }
        }
        for (name, ids) in [("acted", &self.acted), ("may_surrender", &self.may_surrender)] {
            let mut seen = HashSet::new();
            for (i, id) in ids.iter().enumerate() {
                if !seen.insert(*id) || !challenger(*id) {
                    problem(format!("{name}[{i}]"), format!("{id} is not a challenger, or named twice"));
                }
            }
        }
        for (i, g) in self.gained.iter().enumerate() {
            if !challenger(g.element) {
                problem(format!("gained[{i}].element"), format!("{} is not a challenger", g.element));
            }
        }
        for (i, p) in self.stake_pools.iter().enumerate() {
            if !self.challengers.iter().any(|c| c.stake.as_deref().is_some_and(|s| same_stake(s, &p.stake))) {
                problem(format!("stake_pools[{i}].stake"), "no challenger holds this stake".into());
            }
            if self.stake_pools[..i].iter().any(|q| same_stake(&q.stake, &p.stake)) {
                problem(format!("stake_pools[{i}].stake"), "each stake has one pool".into());
            }
        }
        if self.over && !self.stake_pools.is_empty() {
            problem("stake_pools".into(), "a stake's pool ends with its challenge".into());
        }
        for (i, p) in self.counterable.iter().enumerate() {
            if !goals.contains(&p.goal) {
                problem(format!("counterable[{i}].goal"), format!("{} is not a goal of this challenge", p.goal));
            }
        }
        if let Some(d) = &self.departure {
            if d.leavers.is_empty() {
                problem("departure.leavers".into(), "a departure has leavers".into());
            }
            let mut seen = HashSet::new();
            for (i, l) in d.leavers.iter().enumerate() {
                if !seen.insert(*l) {
                    problem(format!("departure.leavers[{i}]"), format!("{l} is named twice"));
                }
            }
            for (i, b) in d.boosts.iter().enumerate() {
                let at = format!("departure.boosts[{i}]");
                let owner_known = match b.owner {
                    BoostOwner::Challenger { element } => challenger(element),
                    BoostOwner::Trump { goal, .. } => goals.contains(&goal),
                };
                if !owner_known {
                    problem(
                        format!("{at}.owner"),
                        "a boost's owner is a challenger or a goal of this challenge".into(),
                    );
                }
                if b.draw_pending && !matches!(b.owner, BoostOwner::Trump { .. }) {
                    problem(format!("{at}.draw_pending"), "only a trump draws momentum from its goal".into());
                }
                for (j, t) in b.targets.iter().enumerate() {
                    if !challenger(*t) {
                        problem(format!("{at}.targets[{j}]"), format!("{t} is not a challenger"));
                    }
                }
            }
        }
        if self.over && (self.departure.is_some() || !self.open.is_empty() || self.remaining().next().is_some()) {
            problem("over".into(), "a challenge is over once every challenger left".into());
        }
        out
    }
}
