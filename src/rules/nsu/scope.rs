//! The guiding questions for the adventures' scope (Part 1, Worldbuilding step 4), in the
//! app's own words. A new game's scope starts with them; an older game gets them only when
//! the table asks ("Add the guiding questions"), and only those it does not have yet.
//!
//! The source says the list is a help, not a complete one: the table adds its own questions
//! with `world::add_scope_question` and may leave any of these unanswered.

use crate::error::{Error, Result};
use crate::rules::nsu::world::{ScopeQuestion, World, WorldEvent, MAX_SCOPE_QUESTIONS};

/// The nine guiding questions, in the order the table usually talks them through.
pub const GUIDING_QUESTIONS: [&str; 9] = [
    "How long is the rest between one adventure and the next?",
    "How long does a journey from one place in the world to another take?",
    "Is the land around the settlement hard or easy to cross, and how dangerous is it?",
    "Do people need food and sleep? How often, and what do they eat?",
    "What do the characters usually have on them: blades, firearms, nothing at all?",
    "What technology does the settlement have to hand?",
    "How do people travel and reach each other: on foot, by flying, by calling, by stepping through space?",
    "How do day and night run here, and how quickly do the seasons turn?",
    "Can the characters stay in touch with the settlement while they are away?",
];

/// The scope of a brand-new game: every guiding question, unanswered.
pub fn starting_scope() -> Vec<ScopeQuestion> {
    GUIDING_QUESTIONS.iter().map(|q| ScopeQuestion { question: (*q).to_owned(), answer: String::new() }).collect()
}

/// Two questions are the same when they read the same, ignoring case and outer spaces.
fn same_question(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// The guiding questions `world`'s scope does not have yet, in their order.
pub fn missing_guiding_questions(world: &World) -> Vec<&'static str> {
    GUIDING_QUESTIONS.iter().copied().filter(|g| !world.scope.iter().any(|q| same_question(&q.question, g))).collect()
}

/// Adds, after the questions already there, every guiding question the world does not
/// have yet (answers already given are kept). Refused when all nine are there, and when
/// they would not fit under the world's cap.
pub fn add_guiding_questions(world: &World) -> Result<(World, Vec<WorldEvent>)> {
    let missing = missing_guiding_questions(world);
    if missing.is_empty() {
        return Err(Error::invalid("question", "the scope already has every guiding question"));
    }
    if world.scope.len() + missing.len() > MAX_SCOPE_QUESTIONS {
        return Err(Error::invalid(
            "question",
            format!("a world keeps at most {MAX_SCOPE_QUESTIONS} scope questions; {} more do not fit", missing.len()),
        ));
    }
    let mut next = world.clone();
    let mut events = Vec::with_capacity(missing.len());
    for question in missing {
        next.scope.push(ScopeQuestion { question: question.to_owned(), answer: String::new() });
        events.push(WorldEvent::ScopeQuestionAdded { index: next.scope.len() - 1, question: question.to_owned() });
    }
    Ok((next, events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::nsu::sheet::required_text_problem;
    use crate::rules::nsu::world::{add_scope_question, answer_scope_question};

    fn questions(world: &World) -> Vec<&str> {
        world.scope.iter().map(|q| q.question.as_str()).collect()
    }

    #[test]
    fn a_new_scope_holds_the_nine_guiding_questions_unanswered() {
        let scope = starting_scope();
        assert_eq!(scope.len(), 9);
        assert!(scope.iter().all(|q| q.answer.is_empty()));
        // Each is text the world accepts when it is read back from a file.
        assert!(GUIDING_QUESTIONS.iter().all(|q| required_text_problem(q).is_none()));
    }

    #[test]
    fn adding_them_keeps_the_tables_own_questions_and_answers_and_skips_those_there() {
        let (w, _) = add_scope_question(&World::default(), "Who keeps the maps?").unwrap();
        let (w, _) = add_scope_question(&w, &format!("  {}  ", GUIDING_QUESTIONS[2].to_uppercase())).unwrap();
        let (w, _) = answer_scope_question(&w, 1, "Marsh and scree").unwrap();
        assert_eq!(missing_guiding_questions(&w).len(), 8);
        let (after, events) = add_guiding_questions(&w).unwrap();
        assert!(missing_guiding_questions(&after).is_empty());
        assert_eq!(after.scope.len(), 2 + 8);
        assert_eq!(after.scope[0].question, "Who keeps the maps?");
        assert_eq!(after.scope[1].answer, "Marsh and scree");
        assert!(!questions(&after)[2..].contains(&GUIDING_QUESTIONS[2]));
        assert_eq!(events.len(), 8);
        assert_eq!(events[0], WorldEvent::ScopeQuestionAdded { index: 2, question: GUIDING_QUESTIONS[0].into() });
    }

    #[test]
    fn adding_them_again_is_refused_and_changes_nothing() {
        let (w, _) = add_guiding_questions(&World::default()).unwrap();
        assert_eq!(questions(&w), GUIDING_QUESTIONS);
        let err = add_guiding_questions(&w).unwrap_err().to_string();
        assert_eq!(err, "question: the scope already has every guiding question");
    }

    #[test]
    fn they_are_refused_when_they_would_pass_the_cap() {
        let mut w = World::default();
        for i in 0..MAX_SCOPE_QUESTIONS - 3 {
            w = add_scope_question(&w, &format!("Question {i}")).unwrap().0;
        }
        let err = add_guiding_questions(&w).unwrap_err().to_string();
        assert!(err.starts_with("question: a world keeps at most 100 scope questions; 9 more"), "{err}");
    }
}
