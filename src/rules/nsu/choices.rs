//! The approach (issue 34): before an action roll, the exact odds of every aspect and mood
//! the character could act with, for the skill, the thing at risk, the details and the
//! risked sentiment already chosen (and the helper's die, where one is offered), so the
//! player sees which approach serves them best. RULES.md §1.3: the Arbiters choose the
//! aspect (step 2), the player the mood (step 3); each approach is planned by
//! [`roll::plan`] — the mood's die, its edge from overload and a risked sentiment — and
//! counted by [`action_odds`], so its odds are the ones the roll would show.
//!
//! At the dice ([`kept_results`]): once the dice are rolled, the result each way of counting
//! them gives — which of two aspect or mood dice is kept, the skill's sign, the helper's die
//! used or not — so the table sees what each choice it makes would come to.

use std::cmp::Ordering;

use serde::Serialize;

use super::odds::{action_odds, ActionOdds, ActionRollSetup};
use super::roll::{self, ActionRoll, Edge, MoodChoice, RollPlan, RollSetup, SkillSign, Winner};
use super::sheet::{Aspect, Die, Sheet};
use crate::error::Result;

/// One aspect and mood, with the plan and odds the roll would have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approach {
    pub aspect: Aspect,
    /// The mood line; an open line means naming a new mood there, with that line's die.
    pub mood_line: usize,
    pub new_mood: bool,
    pub plan: RollPlan,
    pub odds: ActionOdds,
    /// No approach has a better chance (to win, then to tie); more than one when equal.
    pub best: bool,
    /// No other mood with the same aspect has a better chance: the player's choice once the
    /// Arbiters have chosen the aspect.
    pub best_for_aspect: bool,
}

/// Every aspect with every mood line (held or open) of `sheet`, with the rest of `setup`
/// as it is; `helper` is the die (and edge) a helper offers. Errors as [`roll::plan`] for
/// what is not the aspect or the mood (a skill line that is empty, a lost sentiment, …).
/// The desired outcome is not asked for yet: it does not change the dice.
pub fn approaches(sheet: &Sheet, setup: &RollSetup, helper: Option<(Die, Edge)>) -> Result<Vec<Approach>> {
    let mut all = Vec::new();
    for aspect in Aspect::ALL {
        for (line, mood) in sheet.moods.iter().enumerate() {
            let choice = match mood {
                Some(_) => MoodChoice::Existing { line },
                None => MoodChoice::New { line, name: "new mood".into() },
            };
            let trial = RollSetup { desired_outcome: "the approach".into(), aspect, mood: choice, ..setup.clone() };
            let plan = roll::plan(sheet, &trial)?;
            let odds = action_odds(&ActionRollSetup::planned(&plan, setup.at_risk, helper));
            all.push(Approach {
                aspect,
                mood_line: line,
                new_mood: mood.is_none(),
                plan,
                odds,
                best: false,
                best_for_aspect: false,
            });
        }
    }
    // The best odds of all, and of each aspect's moods.
    let top = |aspect: Option<Aspect>| {
        let within = all.iter().filter(|a| aspect.is_none_or(|x| a.aspect == x));
        within.map(|a| &a.odds).max_by(|a, b| better(a, b)).cloned()
    };
    let overall = top(None);
    let per_aspect = Aspect::ALL.map(|aspect| (aspect, top(Some(aspect))));
    for approach in &mut all {
        let reaches =
            |top: &Option<ActionOdds>| top.as_ref().is_some_and(|t| better(&approach.odds, t) == Ordering::Equal);
        approach.best = reaches(&overall);
        approach.best_for_aspect = per_aspect.iter().any(|(aspect, top)| *aspect == approach.aspect && reaches(top));
    }
    Ok(all)
}

/// One way to count rolled dice, and what it comes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeptResult {
    /// As in [`roll::Choices`]: `None` where there is nothing to choose.
    pub aspect_kept: Option<usize>,
    pub mood_kept: Option<usize>,
    pub skill_sign: SkillSign,
    pub helper_kept: Option<usize>,
    pub use_helper_die: bool,
    pub aspect_total: i32,
    /// The mood die that counts: the roller's kept one, or the helper's.
    pub mood_used: u8,
    pub winner: Winner,
    pub difference: u32,
}

/// Every way the table can count `rolled`'s dice (each kept die, each skill sign where there
/// is a skill, the helper's die used or not where someone helped), each with its result,
/// counted as the settlement counts it ([`roll::resolve`] checks the dice against the plan).
pub fn kept_results(rolled: &ActionRoll) -> Vec<KeptResult> {
    // Where there is one die there is nothing to keep: None, as the choices say it.
    let picks = |n: usize| if n > 1 { (0..n).map(Some).collect() } else { vec![None] };
    let signs: &[SkillSign] =
        if rolled.setup.skill.is_some() { &[SkillSign::Plus, SkillSign::Minus] } else { &[SkillSign::Plus] };
    let helper_rolls = rolled.help.as_ref().map(|h| h.rolls()).unwrap_or_default();
    let mut helps: Vec<(Option<usize>, bool)> = vec![(None, false)];
    if !helper_rolls.is_empty() {
        helps = picks(helper_rolls.len()).into_iter().flat_map(|k| [(k, false), (k, true)]).collect();
    }
    let mut all = Vec::new();
    for aspect_kept in picks(rolled.aspect_rolls.len()) {
        for mood_kept in picks(rolled.mood_rolls.len()) {
            for &skill_sign in signs {
                for &(helper_kept, use_helper_die) in &helps {
                    let face = |rolls: &[u8], kept: Option<usize>| rolls.get(kept.unwrap_or(0)).copied().unwrap_or(0);
                    let mood_used = match use_helper_die {
                        true => face(&helper_rolls, helper_kept),
                        false => face(&rolled.mood_rolls, mood_kept),
                    };
                    let aspect = face(&rolled.aspect_rolls, aspect_kept);
                    let c = roll::counted(&rolled.setup, &rolled.plan, aspect, mood_used, skill_sign);
                    all.push(KeptResult {
                        aspect_kept,
                        mood_kept,
                        skill_sign,
                        helper_kept,
                        use_helper_die,
                        aspect_total: c.aspect_total,
                        mood_used,
                        winner: c.winner,
                        difference: c.difference,
                    });
                }
            }
        }
    }
    all
}

/// The player wants to win, then at least to tie (a tie lets each side add a detail).
fn better(a: &ActionOdds, b: &ActionOdds) -> Ordering {
    a.win.cmp(&b.win).then(a.tie.cmp(&b.tie))
}

#[cfg(test)]
mod tests;
