//! The campaign journal (issue 33): a game's sessions — a number, a date, who was there, the
//! table's notes, open or closed — and what happened in each, grouped by kind in the
//! game's own words. Pure: the date is passed in (typed, or today's from the caller), and
//! where a session lies in the game's log is passed in as event places.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::{free_text_problem, name_problem, System};
use crate::rules::mezzo::plot::PlotEvent;

/// The longest notes a session holds, in characters.
pub const MAX_SESSION_NOTES: usize = 4000;
/// The most people a session lists as there.
pub const MAX_ATTENDEES: usize = 40;
/// The most sessions a game's journal holds.
pub const MAX_SESSIONS: usize = 1000;
/// The most lines of what happened a session keeps from a file.
pub const MAX_LINES: usize = 2000;
/// The longest line of what happened, in characters.
pub const MAX_LINE_CHARS: usize = 1000;

/// A game's sessions, oldest first, numbered 1, 2, 3…
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    pub sessions: Vec<Session>,
}

/// One session at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    pub number: u32,
    /// The day it was played, `YYYY-MM-DD`.
    pub date: String,
    /// Who was there: names of the game's characters (and, at Mezzo, its players).
    pub attendees: Vec<String>,
    /// The table's own notes.
    pub notes: String,
    pub open: bool,
    /// Where it lies in this device's log: after event `from`, up to and with event `to`
    /// (None while open). None for a session read from a file, whose log is elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// What happened, as a file recorded it (a session whose log is not on this device).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recorded: Vec<Line>,
}

/// A session's place in the game's log: the events after `from` and up to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub from: i64,
    pub to: Option<i64>,
}

impl Span {
    /// Whether the event at `seq` happened in this span.
    pub fn holds(&self, seq: i64) -> bool {
        seq > self.from && self.to.is_none_or(|to| seq <= to)
    }
}

/// One thing that happened, in the game's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    pub group: Group,
    /// What everyone reads of it.
    pub words: String,
    /// What the table reads instead, where its words hold the table's secret (the House
    /// readying its antagonists at Penny Ante): left out of every other viewer's recap and
    /// of the copy a player's device is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_words: Option<String>,
}

impl Line {
    /// The line's words for a viewer who reads the table's secrets, or who does not.
    pub fn read(&self, table: bool) -> &str {
        match &self.table_words {
            Some(secret) if table => secret,
            _ => &self.words,
        }
    }
}

/// The kinds of what happened, in the order a recap lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    Rolls,
    Complications,
    Rewards,
    Purchases,
    Hooks,
    Other,
}

impl Group {
    pub const ALL: [Group; 6] =
        [Group::Rolls, Group::Complications, Group::Rewards, Group::Purchases, Group::Hooks, Group::Other];

    pub fn id(self) -> &'static str {
        match self {
            Group::Rolls => "rolls",
            Group::Complications => "complications",
            Group::Rewards => "rewards",
            Group::Purchases => "purchases",
            Group::Hooks => "hooks",
            Group::Other => "other",
        }
    }

    pub fn from_id(id: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.id() == id)
    }

    /// The group's heading in `system`'s own words.
    pub fn title(self, system: System) -> &'static str {
        match (self, system) {
            (Group::Rolls, System::Nsu) => "Action rolls and dice",
            (Group::Rolls, System::PennyAnte) => "Challenges and dice",
            (Group::Rolls, System::Mezzo) => "Checks, conflicts and challenges",
            (Group::Rolls, System::Scattershot) => "Made-It-By rolls and dice",
            (Group::Complications, System::Nsu) => "Complications and collateral",
            (Group::Complications, System::PennyAnte) => "Debts and losses",
            (Group::Complications, System::Mezzo) => "Complications, adversity and consequences",
            (Group::Complications, System::Scattershot) => "Complications",
            (Group::Rewards, System::Nsu) => "Growth and recovery",
            (Group::Rewards, System::PennyAnte) => "Pots won",
            (Group::Rewards, System::Mezzo) => "Momentum and awards",
            (Group::Rewards, System::Scattershot) => "Rewards and experience dice",
            (Group::Purchases, System::PennyAnte) => "Characteristics bought",
            (Group::Purchases, System::Mezzo) => "Seed cards bought",
            (Group::Purchases, _) => "Purchases",
            (Group::Hooks, System::Mezzo) => "Plot hooks resolved",
            (Group::Hooks, _) => "Hooks resolved",
            (Group::Other, _) => "Other moves at the table",
        }
    }

    /// The kind of a logged move, read from its words (every game's log says what a move
    /// did in words; the journal sorts them, it adds none).
    /// Ruling: a move is sorted by the first kind its words name, in this order: hooks
    /// (a plot hook resolved), complications, rewards, purchases, rolls; anything else is
    /// "other". A roll that brought a complication counts as a complication.
    /// Ruling: what a person typed (a hook's, fact's or card's text, a character's name
    /// in quotes) is left out of the sorting: only the game's own words outside “…”
    /// decide (the quote marks stay), so "sets a theme: “The debt comes due”" is not a
    /// complication. At Penny Ante a characteristic taken ("Ada takes “Quick” (5
    /// pennies).", or free) is a characteristic bought.
    pub fn of_words(words: &str) -> Group {
        let mut w = String::with_capacity(words.len());
        let mut quoted = false;
        for c in words.chars() {
            match c {
                '“' => quoted = true,
                '”' => quoted = false,
                _ if quoted => continue,
                _ => {}
            }
            w.extend(c.to_lowercase());
        }
        let any = |keys: &[&str]| keys.iter().any(|k| w.contains(k));
        if w.contains(" resolves ") && w.contains(" and takes ") {
            Group::Hooks
        } else if any(&["complication", "consequence", "adversity", "collateral", "debt", "catastrophic", "harm"]) {
            Group::Complications
        } else if any(&[
            "reward",
            "experience di",
            "award",
            "momentum",
            "pot won",
            "wins the pot",
            "takes the pot",
            "upgrad",
            "recover",
            "training",
            "train skills",
        ]) {
            Group::Rewards
        } else if any(&["buys", "bought", "purchase", " takes “” ("]) {
            Group::Purchases
        } else if w.starts_with("round ")
            || any(&[
                "roll",
                "dice",
                " d4",
                " d6",
                " d8",
                " d10",
                " d12",
                "check",
                "conflict",
                "challenge",
                "cup",
                "wager",
                "tie",
                "major action",
                "perk",
                "surrender",
                "leaves in ",
                " declares ",
                "circumstance",
                " stands.",
                " raises by ",
                " calls (wager",
                " folds",
                "goes all in",
            ])
        {
            Group::Rolls
        } else {
            Group::Other
        }
    }
}

/// The kind of a Mezzo move that the plot rules' own events name (a plot hook made,
/// invested in, tapped, resolved or expired, a Turning Point, an arc's end…); None for a
/// move without one, which its words sort ([`Group::of_words`]).
/// Ruling: only resolving a plot hook is "Plot hooks resolved"; making, investing in and
/// tapping one, and an arc's end with the hooks that expire in it, are other moves at the
/// table (their momentum and consequences are the hook's, not an award or a complication);
/// the plot's moves in a challenge count with the challenge; a memorable element is an
/// award, a kept or struck consequence a consequence.
pub fn of_plot_events(events: &[PlotEvent]) -> Option<Group> {
    use PlotEvent as E;
    if events.iter().any(|e| matches!(e, E::ArcEnded { .. } | E::ArcStarted { .. })) {
        return Some(Group::Other);
    }
    events.first().map(|e| match e {
        E::Resolved { .. } => Group::Hooks,
        E::HookCreated { .. } | E::Invested { .. } | E::Tapped { .. } | E::ThemeSet { .. } => Group::Other,
        E::ArcEnded { .. } | E::ArcStarted { .. } => Group::Other,
        E::StakesRaised { .. }
        | E::NoEscapeChosen { .. }
        | E::ProtectionIgnored { .. }
        | E::NoEscapeLapsed { .. }
        | E::TurningPoint { .. } => Group::Rolls,
        E::MemorableAwarded { .. } => Group::Rewards,
        E::ConsequenceKept { .. } | E::ConsequenceStruck { .. } | E::ConsequencesFaded { .. } => Group::Complications,
    })
}

/// A session's changes as a person makes them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case", deny_unknown_fields)]
pub enum SessionEdit {
    Date { date: String },
    Attendees { names: Vec<String> },
    Notes { text: String },
}

/// Reads a date typed as `YYYY-MM-DD`, or says what is wrong naming `field`.
pub fn parse_date(field: &str, text: &str) -> Result<NaiveDate> {
    let text = text.trim();
    if text.len() != 10 {
        return Err(Error::invalid(field, format!("“{text}” is not a date written YYYY-MM-DD")));
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| Error::invalid(field, format!("“{text}” is not a date written YYYY-MM-DD")))
}

/// The names a session may list: the game's characters, then (at a Mezzo table) its players;
/// a name both bear is listed once.
pub fn roster(characters: impl IntoIterator<Item = String>, players: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in characters.into_iter().chain(players) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Checks who was there: names of `roster` (the game's characters and players), each once,
/// at most [`MAX_ATTENDEES`]; a name a session already lists (`kept`) stays valid after a
/// rename. Returns the names trimmed.
pub fn check_attendees(names: &[String], roster: &[String], kept: &[String]) -> Result<Vec<String>> {
    if names.len() > MAX_ATTENDEES {
        return Err(Error::invalid(
            "attendees",
            format!("{} people are listed; a session lists at most {MAX_ATTENDEES}", names.len()),
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for raw in names {
        if let Some(problem) = name_problem(raw) {
            return Err(Error::invalid("attendees", format!("a name {problem}")));
        }
        let name = raw.trim().to_owned();
        if !roster.contains(&name) && !kept.contains(&name) {
            return Err(Error::invalid("attendees", format!("“{name}” is not a character or player of this game")));
        }
        if out.contains(&name) {
            return Err(Error::invalid("attendees", format!("“{name}” is listed twice")));
        }
        out.push(name);
    }
    Ok(out)
}

/// Notes written blank clear them: a table may take back what it wrote.
fn check_notes(text: &str) -> Result<String> {
    if text.trim().is_empty() {
        return Ok(String::new());
    }
    if let Some(problem) = free_text_problem(text, MAX_SESSION_NOTES) {
        return Err(Error::invalid("notes", problem));
    }
    Ok(text.trim_end().to_owned())
}

impl Journal {
    /// The journal an older version's count of sessions gives a game whose journal had
    /// none (None when it counted none): sessions numbered from 1, dated `date` (the game's
    /// last change: the count kept no dates) with nobody listed and a note that says so,
    /// the latest open when `playing`. What a table counted before the journal kept its
    /// sessions (Scattershot's table, Mezzo's seed deck), read from older files.
    pub fn counted_by_older_version(count: u32, playing: bool, date: &str) -> Option<Journal> {
        let note = "Counted by an older version of the app, which kept no date and no list of who was there.";
        let count = count.min(MAX_SESSIONS as u32);
        let sessions = (1..=count)
            .map(|number| Session {
                number,
                date: date.to_owned(),
                attendees: Vec::new(),
                notes: note.to_owned(),
                open: playing && number == count,
                span: None,
                recorded: Vec::new(),
            })
            .collect::<Vec<_>>();
        (!sessions.is_empty()).then_some(Journal { sessions })
    }

    /// The number of the latest session, being played or ended (0: none yet).
    pub fn latest_number(&self) -> u32 {
        self.sessions.last().map_or(0, |s| s.number)
    }

    /// The session being played, if any.
    pub fn open_session(&self) -> Option<&Session> {
        self.sessions.iter().find(|s| s.open)
    }

    /// The newest closed session: what "Last time…" tells.
    pub fn last_closed(&self) -> Option<&Session> {
        self.sessions.iter().rev().find(|s| !s.open)
    }

    /// Starts session N+1 on `date` with `attendees`, after event `at` of the game's log.
    /// Refused while a session is open, for a date before the last session's, a name not
    /// of `roster`, or past [`MAX_SESSIONS`].
    pub fn start(&self, date: &str, attendees: &[String], roster: &[String], at: i64) -> Result<Journal> {
        if let Some(open) = self.open_session() {
            return Err(Error::invalid(
                "session",
                format!("session {} is still open; end it before starting another", open.number),
            ));
        }
        if self.sessions.len() >= MAX_SESSIONS {
            return Err(Error::invalid("session", format!("a journal holds at most {MAX_SESSIONS} sessions")));
        }
        let day = parse_date("date", date)?;
        if let Some(last) = self.sessions.last() {
            let before = parse_date("date", &last.date)?;
            if day < before {
                return Err(Error::invalid(
                    "date",
                    format!("{day} is before session {}'s date, {before}; sessions go in order", last.number),
                ));
            }
        }
        let attendees = check_attendees(attendees, roster, &[])?;
        let number = self.sessions.last().map_or(1, |s| s.number + 1);
        let mut next = self.clone();
        next.sessions.push(Session {
            number,
            date: day.to_string(),
            attendees,
            notes: String::new(),
            open: true,
            span: Some(Span { from: at, to: None }),
            recorded: Vec::new(),
        });
        Ok(next)
    }

    /// Ends the open session with event `at`, the last of the game's log that belongs to it.
    pub fn end(&self, at: i64) -> Result<Journal> {
        let mut next = self.clone();
        let Some(open) = next.sessions.iter_mut().find(|s| s.open) else {
            return Err(Error::invalid("session", "no session is open; start one first"));
        };
        open.open = false;
        if let Some(span) = open.span.as_mut() {
            span.to = Some(at.max(span.from));
        }
        Ok(next)
    }

    /// Changes session `number`'s date (kept between its neighbours'), who was there, or
    /// the table's notes.
    pub fn edit(&self, number: u32, edit: &SessionEdit, roster: &[String]) -> Result<Journal> {
        let mut next = self.clone();
        let at = next
            .sessions
            .iter()
            .position(|s| s.number == number)
            .ok_or_else(|| Error::invalid("session", format!("this game has no session {number}")))?;
        match edit {
            SessionEdit::Date { date } => {
                let day = parse_date("date", date)?;
                if let Some(prev) = at.checked_sub(1).map(|i| &self.sessions[i]) {
                    let before = parse_date("date", &prev.date)?;
                    if day < before {
                        return Err(Error::invalid(
                            "date",
                            format!("{day} is before session {}'s date, {before}; sessions go in order", prev.number),
                        ));
                    }
                }
                if let Some(after) = self.sessions.get(at + 1) {
                    let later = parse_date("date", &after.date)?;
                    if day > later {
                        return Err(Error::invalid(
                            "date",
                            format!("{day} is after session {}'s date, {later}; sessions go in order", after.number),
                        ));
                    }
                }
                next.sessions[at].date = day.to_string();
            }
            SessionEdit::Attendees { names } => {
                let kept = self.sessions[at].attendees.clone();
                next.sessions[at].attendees = check_attendees(names, roster, &kept)?;
            }
            SessionEdit::Notes { text } => next.sessions[at].notes = check_notes(text)?,
        }
        Ok(next)
    }

    /// What is wrong with a journal read from a file, each with its place (`sessions[1].date`).
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut push = |at: String, p: String| out.push((at, p));
        if self.sessions.len() > MAX_SESSIONS {
            push(
                "sessions".into(),
                format!("{} sessions; a journal holds at most {MAX_SESSIONS}", self.sessions.len()),
            );
        }
        let mut last_day: Option<NaiveDate> = None;
        for (i, s) in self.sessions.iter().enumerate() {
            let at = |f: &str| format!("sessions[{i}].{f}");
            if s.number as usize != i + 1 {
                push(
                    at("number"),
                    format!("is {}; sessions are numbered 1, 2, 3… in order, so {} here", s.number, i + 1),
                );
            }
            match parse_date("date", &s.date) {
                Err(_) => push(at("date"), format!("“{}” is not a date written YYYY-MM-DD", s.date)),
                Ok(day) => {
                    if last_day.is_some_and(|d| day < d) {
                        push(at("date"), format!("{day} is before the session above's date; sessions go in order"));
                    }
                    last_day = Some(day);
                }
            }
            if s.open && i + 1 != self.sessions.len() {
                push(at("open"), "only the newest session may be open".into());
            }
            if s.attendees.len() > MAX_ATTENDEES {
                push(at("attendees"), format!("{} names; at most {MAX_ATTENDEES}", s.attendees.len()));
            }
            for (j, name) in s.attendees.iter().enumerate() {
                if let Some(p) = name_problem(name) {
                    push(format!("sessions[{i}].attendees[{j}]"), p);
                } else if s.attendees[..j].contains(name) {
                    push(format!("sessions[{i}].attendees[{j}]"), format!("“{name}” is listed twice"));
                }
            }
            if let Some(p) = free_text_problem(&s.notes, MAX_SESSION_NOTES) {
                push(at("notes"), p);
            }
            if s.recorded.len() > MAX_LINES {
                push(at("happened"), format!("{} lines; at most {MAX_LINES}", s.recorded.len()));
            }
            for (j, line) in s.recorded.iter().enumerate() {
                if let Some(p) = crate::model::text_problem(&line.words, MAX_LINE_CHARS) {
                    push(format!("sessions[{i}].happened[{j}].words"), p);
                }
                if let Some(p) = line.table_words.as_deref().and_then(|w| crate::model::text_problem(w, MAX_LINE_CHARS))
                {
                    push(format!("sessions[{i}].happened[{j}].table_words"), p);
                }
            }
        }
        out
    }
}

/// What happened in a session, grouped: each group with its heading in the game's words
/// and its lines, oldest first; groups in [`Group::ALL`]'s order, empty ones left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Happened {
    pub group: Group,
    pub title: &'static str,
    pub lines: Vec<String>,
}

/// Groups `lines` (oldest first) for `system`.
pub fn recap(system: System, lines: &[Line]) -> Vec<Happened> {
    Group::ALL
        .into_iter()
        .filter_map(|group| {
            let words: Vec<String> = lines.iter().filter(|l| l.group == group).map(|l| l.words.clone()).collect();
            (!words.is_empty()).then(|| Happened { group, title: group.title(system), lines: words })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roster() -> Vec<String> {
        vec!["Ada".into(), "Bo".into(), "Cy".into()]
    }

    #[test]
    fn a_session_may_list_the_characters_then_the_players_each_name_once() {
        let listed = super::roster(names(&["Ada", "Bo", "Cy"]), names(&["Dee", "Ada", "Eve", "Dee"]));
        assert_eq!(listed, names(&["Ada", "Bo", "Cy", "Dee", "Eve"]));
        assert_eq!(super::roster(names(&["Bo"]), Vec::new()), names(&["Bo"]));
    }

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| (*s).to_owned()).collect()
    }

    fn field(e: Error) -> String {
        match e {
            Error::Invalid { field, .. } => field,
            other => panic!("not a refusal naming a field: {other:?}"),
        }
    }

    #[test]
    fn sessions_are_numbered_and_one_is_open_at_a_time() {
        let j = Journal::default().start("2026-11-01", &names(&["Ada", "Bo"]), &roster(), 10).unwrap();
        assert_eq!(j.sessions[0].number, 1);
        assert!(j.sessions[0].open);
        assert_eq!(field(j.start("2026-11-08", &[], &roster(), 12).unwrap_err()), "session");
        let j = j.end(20).unwrap();
        assert_eq!(j.sessions[0].span, Some(Span { from: 10, to: Some(20) }));
        assert_eq!(j.last_closed().map(|s| s.number), Some(1));
        let j = j.start("2026-11-08", &names(&["Cy"]), &roster(), 21).unwrap();
        assert_eq!(j.sessions[1].number, 2);
        assert_eq!(j.open_session().map(|s| s.number), Some(2));
        assert_eq!(field(Journal::default().end(3).unwrap_err()), "session");
    }

    #[test]
    fn bad_input_is_refused_naming_its_field() {
        let j = Journal::default().start("2026-11-08", &[], &roster(), 0).unwrap().end(1).unwrap();
        assert_eq!(field(j.start("2026-11-01", &[], &roster(), 2).unwrap_err()), "date");
        assert_eq!(field(j.start("8 Nov", &[], &roster(), 2).unwrap_err()), "date");
        assert_eq!(field(j.start("2026-02-30", &[], &roster(), 2).unwrap_err()), "date");
        assert_eq!(field(j.start("2026-11-09", &names(&["Zed"]), &roster(), 2).unwrap_err()), "attendees");
        assert_eq!(field(j.start("2026-11-09", &names(&["Ada", "Ada"]), &roster(), 2).unwrap_err()), "attendees");
        let notes = |t: &str| SessionEdit::Notes { text: t.into() };
        assert_eq!(field(j.edit(1, &notes(&"x".repeat(MAX_SESSION_NOTES + 1)), &roster()).unwrap_err()), "notes");
        assert_eq!(field(j.edit(2, &notes("hi"), &roster()).unwrap_err()), "session");
        let written = j.edit(1, &notes("The bridge fell.\n"), &roster()).unwrap();
        assert_eq!(written.sessions[0].notes, "The bridge fell.");
        assert_eq!(
            written.edit(1, &notes("  \n "), &roster()).unwrap().sessions[0].notes,
            "",
            "blank notes clear them"
        );
    }

    #[test]
    fn a_date_stays_between_its_neighbours() {
        let j = Journal::default()
            .start("2026-11-01", &[], &roster(), 0)
            .and_then(|j| j.end(1))
            .and_then(|j| j.start("2026-11-08", &[], &roster(), 2))
            .and_then(|j| j.end(3))
            .and_then(|j| j.start("2026-11-15", &[], &roster(), 4))
            .unwrap();
        let date = |d: &str| SessionEdit::Date { date: d.into() };
        assert_eq!(field(j.edit(2, &date("2026-10-31"), &roster()).unwrap_err()), "date");
        assert_eq!(field(j.edit(2, &date("2026-11-16"), &roster()).unwrap_err()), "date");
        assert_eq!(j.edit(2, &date("2026-11-10"), &roster()).unwrap().sessions[1].date, "2026-11-10");
    }

    #[test]
    fn who_was_there_is_changed_after_the_session_with_the_same_refusals_as_at_its_start() {
        let j = Journal::default().start("2026-11-01", &names(&["Ada"]), &roster(), 0).unwrap().end(1).unwrap();
        let who = |n: &[&str]| SessionEdit::Attendees { names: names(n) };
        let changed = j.edit(1, &who(&[" Bo ", "Cy"]), &roster()).unwrap();
        assert_eq!(changed.sessions[0].attendees, names(&["Bo", "Cy"]), "a closed session's list changes");
        assert_eq!(j.edit(1, &who(&[]), &roster()).unwrap().sessions[0].attendees, names(&[]), "nobody listed");
        for bad in [who(&["Zed"]), who(&["Bo", "Bo "]), who(&["Ada", ""])] {
            assert_eq!(field(j.edit(1, &bad, &roster()).unwrap_err()), "attendees", "{bad:?}");
        }
        assert_eq!(field(j.edit(2, &who(&["Bo"]), &roster()).unwrap_err()), "session");
    }

    #[test]
    fn a_renamed_attendee_stays_on_the_session_it_was_at() {
        let j = Journal::default().start("2026-11-01", &names(&["Ada"]), &roster(), 0).unwrap();
        let renamed = names(&["Ada Lovelace", "Bo"]);
        let kept = j.edit(1, &SessionEdit::Attendees { names: names(&["Ada", "Bo"]) }, &renamed).unwrap();
        assert_eq!(kept.sessions[0].attendees, names(&["Ada", "Bo"]));
    }

    #[test]
    fn moves_are_grouped_by_what_their_words_say() {
        assert_eq!(Group::of_words("Bo resolves “Find the key” and takes 2 momentum."), Group::Hooks);
        assert_eq!(Group::of_words("Ada takes 2 complication(s): the MIB is -3."), Group::Complications);
        assert_eq!(Group::of_words("rolling a complication"), Group::Complications);
        assert_eq!(Group::of_words("Experience dice after the session: Ada 2."), Group::Rewards);
        assert_eq!(Group::of_words("Ada buys Climbing (2 point(s); 4 spent)."), Group::Purchases);
        assert_eq!(Group::of_words("Bo buys 2 seed card(s) for 2 influence."), Group::Purchases);
        assert_eq!(Group::of_words("Ada rolls 2d6+1: 9."), Group::Rolls);
        assert_eq!(Group::of_words("A new Setting Law of the game: “No magic”."), Group::Other);
        // What a person typed does not sort a move: only the game's words outside “…”.
        assert_eq!(Group::of_words("Mira sets a theme of the arc: “The debt comes due”."), Group::Other);
        assert_eq!(Group::of_words("A fact is established: “Bo won the pot and rolled away”."), Group::Other);
        assert_eq!(Group::of_words("Ada discards “a harmless check”."), Group::Other);
        assert_eq!(Group::of_words("Ada takes “Quick” (5 pennies)."), Group::Purchases);
        assert_eq!(Group::of_words("Bo takes “Lucky” (free)."), Group::Purchases);
        assert_eq!(Group::of_words("Ada folded; the Count takes the pot of 6."), Group::Rewards);
        assert_eq!(Group::of_words("Bo stands."), Group::Rolls);
        assert_eq!(Group::of_words("Ada names no circumstance."), Group::Rolls);
        assert_eq!(Group::of_words("Ada raises by 2 (wager 4)."), Group::Rolls);
        // A Mezzo challenge's moves in its own words.
        assert_eq!(Group::of_words("Mira's major action: 8 against 3 — 2 major perks."), Group::Rolls);
        assert_eq!(Group::of_words("Mira declares Hinder on The Ogre."), Group::Rolls);
        assert_eq!(Group::of_words("Mira's perks take effect: Bind on The Ogre."), Group::Rolls);
        assert_eq!(Group::of_words("The Ogre surrenders. The Ogre leaves in defeat (surrendered)."), Group::Rolls);
        assert_eq!(Group::of_words("Round 1 ends."), Group::Rolls);
        assert_eq!(Group::of_words("Rook's major action: 2 against 5 — no perk, 1 adversity."), Group::Complications);
    }

    #[test]
    fn a_mezzo_plot_move_is_sorted_by_its_event_not_its_words() {
        use crate::rules::mezzo::plot::{Grant, Resource};
        use uuid::Uuid;
        let (hook, by) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let paid = Grant { to: by, resource: Resource::Momentum, amount: -1, stake: false };
        let made = PlotEvent::HookCreated { hook, text: "Who did the harm?".into(), creator: by, paid };
        let invested = PlotEvent::Invested { hook, by, resource: Resource::Momentum, points: 2 };
        let tapped = PlotEvent::Tapped { hook, to: by, resource: Resource::Momentum, from: by };
        let resolved = PlotEvent::Resolved {
            hook,
            text: "Who did the harm?".into(),
            reward: Grant { to: by, resource: Resource::Momentum, amount: 1, stake: false },
            shared: Vec::new(),
            lost: Vec::new(),
        };
        let ended = PlotEvent::ArcEnded { number: 1, expired_hooks: vec![hook], points_lost: 3 };
        assert_eq!(of_plot_events(&[made]), Some(Group::Other), "making a hook resolves none");
        assert_eq!(of_plot_events(&[invested]), Some(Group::Other), "investing momentum is no award");
        assert_eq!(of_plot_events(&[tapped]), Some(Group::Other));
        assert_eq!(of_plot_events(&[resolved]), Some(Group::Hooks));
        assert_eq!(of_plot_events(&[ended]), Some(Group::Other), "hooks that expire are not resolved");
        assert_eq!(of_plot_events(&[]), None, "a move without plot events is sorted by its words");
    }

    #[test]
    fn a_recap_lists_groups_in_order_in_the_games_words_and_skips_empty_ones() {
        let line = |g, w: &str| Line { group: g, words: w.into(), table_words: None };
        let lines = [line(Group::Purchases, "bought"), line(Group::Rolls, "one"), line(Group::Rolls, "two")];
        let r = recap(System::PennyAnte, &lines);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].title, r[0].lines.clone()), ("Challenges and dice", names(&["one", "two"])));
        assert_eq!(r[1].title, "Characteristics bought");
        assert_eq!(Group::Hooks.title(System::Mezzo), "Plot hooks resolved");
    }

    #[test]
    fn a_span_holds_what_came_after_its_start_up_to_its_end() {
        let open = Span { from: 5, to: None };
        assert!(!open.holds(5) && open.holds(6) && open.holds(1000));
        let closed = Span { from: 5, to: Some(9) };
        assert!(closed.holds(9) && !closed.holds(10));
    }

    proptest::proptest! {
        /// Whatever moves are tried, in whatever order, a refused one changes nothing and
        /// the journal always reads back as a file would have it: numbered 1, 2, 3…, dates
        /// in order, at most one session open and that the newest, spans that do not overlap.
        #[test]
        fn any_moves_keep_the_journal_valid(
            moves in proptest::collection::vec((0u8..4, 0u32..6, 0i64..40, 0usize..5), 0..60),
        ) {
            let roster = roster();
            let mut j = Journal::default();
            let mut at = 0i64;
            for (kind, n, day, who) in moves {
                at += 1;
                let date = format!("2026-11-{:02}", 1 + day % 28);
                let pick = |k: usize| ["Ada", "Bo", "Zed", "Ada", ""].iter().take(k).map(|s| (*s).to_owned()).collect::<Vec<_>>();
                let tried = match kind {
                    0 => j.start(&date, &pick(who), &roster, at),
                    1 => j.end(at),
                    2 => j.edit(n, &SessionEdit::Date { date }, &roster),
                    _ => j.edit(n, &SessionEdit::Attendees { names: pick(who) }, &roster),
                };
                if let Ok(next) = tried {
                    j = next;
                }
                proptest::prop_assert_eq!(j.problems(), Vec::<(String, String)>::new());
                let spans: Vec<Span> = j.sessions.iter().filter_map(|s| s.span).collect();
                for pair in spans.windows(2) {
                    proptest::prop_assert!(pair[0].to.is_some_and(|to| to <= pair[1].from), "{:?}", pair);
                }
            }
        }
    }

    #[test]
    fn a_file_journal_out_of_order_is_named_by_its_place() {
        let mut j = Journal::default().start("2026-11-08", &[], &roster(), 0).unwrap().end(1).unwrap();
        j = j.start("2026-11-09", &[], &roster(), 2).unwrap();
        j.sessions[0].open = true;
        j.sessions[1].date = "2026-11-01".into();
        j.sessions[1].number = 5;
        let places: Vec<String> = j.problems().into_iter().map(|(at, _)| at).collect();
        assert_eq!(places, ["sessions[0].open", "sessions[1].number", "sessions[1].date"]);
    }
}
