//! The campaign journal of every game (issue 33): sessions started, ended and written up at
//! the table, and what happened in each, read from the game's own log for one viewer.
//!
//! What happened is never stored for a session played on this device: it is the game's log
//! between the session's start and end (`Span`), read through the same per-viewer readings
//! as the game's Log tab (Penny Ante's House secrets only for the table; NSU's rolls,
//! downtime and map changes, a face-down card unnamed; Mezzo's and Scattershot's moves as
//! their Log tabs say them, and Scattershot's development points bought on the sheets),
//! and sorted by kind (`rules::journal::Group`). A session read from a file keeps the lines
//! the file carried, each marked when it is for the table's eyes only, and shows them to
//! the viewers who may read them.

use serde::Serialize;
use uuid::Uuid;

use super::dice_tray::tray_entries_within;
use super::log::table_event;
use super::lookup::existing_game;
use super::mezzo::plot::{mezzo_end_session, mezzo_start_session};
use super::nsu::roll::nsu_roll_log_within;
use super::nsu::world::map_changes_within;
use super::penny_ante::{penny_log_within, shows_house_secrets};
use super::scattershot::{purchases_within, scattershot_table_edit, TableEdit};
use super::viewer::{device_viewer, Viewer};
use crate::error::{Error, Result};
use crate::model::{now, System};
use crate::rules::journal::{self, of_plot_events, recap, Group, Happened, Journal, Line, Session, SessionEdit, Span};
use crate::rules::mezzo::plot::PlotEvent;
use crate::rules::nsu::roll::Winner;
use crate::store::{Event, EventKind, Reader, Store, Tx};

/// A game's journal as one viewer may read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JournalView {
    pub game: Uuid,
    pub game_name: String,
    pub system: System,
    /// Oldest first.
    pub sessions: Vec<SessionView>,
    /// The names a session may list as there: the game's characters (and Mezzo players).
    pub roster: Vec<String>,
    /// False on a device that joined the game at a linked table: the table's device keeps
    /// the journal, this one reads it.
    pub may_edit: bool,
}

/// One session as a viewer reads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SessionView {
    pub number: u32,
    pub date: String,
    pub attendees: Vec<String>,
    pub notes: String,
    pub open: bool,
    /// What happened, grouped by kind in the game's words.
    pub happened: Vec<Happened>,
}

/// A journal move's answer: the journal after it and what happened in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JournalChange {
    pub view: JournalView,
    pub message: String,
}

/// A journal move as logged: the journal before and after.
#[derive(Serialize, serde::Deserialize)]
struct Logged {
    action: String,
    before: Journal,
    after: Journal,
}

/// `game`'s journal for this device's viewer.
pub fn journal(store: &Store, game: Uuid) -> Result<JournalView> {
    let read = store.read();
    let viewer = device_viewer(read, game)?;
    journal_for(read, game, &viewer)
}

/// `game`'s journal as `viewer` may read it.
pub fn journal_for(read: Reader<'_>, game: Uuid, viewer: &Viewer) -> Result<JournalView> {
    let g = existing_game(read, game)?;
    let journal = read.journal(game)?;
    let sessions = journal
        .sessions
        .iter()
        .map(|s| {
            let lines = session_lines(read, game, g.system, s, viewer)?;
            Ok(SessionView {
                number: s.number,
                date: s.date.clone(),
                attendees: s.attendees.clone(),
                notes: s.notes.clone(),
                open: s.open,
                happened: recap(g.system, &lines),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(JournalView {
        game,
        game_name: g.name,
        system: g.system,
        sessions,
        roster: roster(read, game, g.system)?,
        may_edit: !read.link_joined(game)?,
    })
}

/// Whether `viewer` reads the lines kept for the table's eyes (the House's secrets): as
/// Penny Ante's log reads them, only the table side; a device passed around opens them
/// only behind the window's hand-over, which the journal does not do.
fn sees_table_lines(viewer: &Viewer) -> bool {
    shows_house_secrets(viewer)
}

/// What happened in `session` for `viewer`, oldest first.
fn session_lines(
    read: Reader<'_>,
    game: Uuid,
    system: System,
    session: &Session,
    viewer: &Viewer,
) -> Result<Vec<Line>> {
    match session.span {
        Some(span) => {
            Ok(lines_within(read, game, system, span, sees_table_lines(viewer))?.into_iter().map(|(_, l)| l).collect())
        }
        None => {
            let table = sees_table_lines(viewer);
            Ok(session
                .recorded
                .iter()
                .map(|l| Line { group: l.group, words: l.read(table).to_owned(), table_words: None })
                .collect())
        }
    }
}

/// The lines of every session of `game` as a file carries them: what everyone reads, with
/// the table's own words where they hold its secret (a redacted document leaves those out:
/// [`without_table_lines`]).
pub(crate) fn journal_for_file(read: Reader<'_>, game: Uuid, system: System) -> Result<Journal> {
    let mut journal = read.journal(game)?;
    for s in &mut journal.sessions {
        if let Some(span) = s.span.take() {
            let table = lines_within(read, game, system, span, true)?;
            // Both readings list the same moves (only the words differ); a move everyone's
            // reading lacks would be the table's alone, and stays out of the file.
            s.recorded = lines_within(read, game, system, span, false)?
                .into_iter()
                .map(|(seq, mut line)| {
                    let secret = table.iter().find(|(at, _)| *at == seq).map(|(_, l)| &l.words);
                    line.table_words = secret.filter(|w| **w != line.words).cloned();
                    line
                })
                .collect();
        }
    }
    Ok(journal)
}

/// `journal` without the table's words, for a viewer who may not read them.
pub(crate) fn without_table_lines(journal: &mut Journal, viewer: &Viewer) {
    if !sees_table_lines(viewer) {
        for s in &mut journal.sessions {
            s.recorded.iter_mut().for_each(|l| l.table_words = None);
        }
    }
}

/// The game's log within `span` as lines (with their places), oldest first, taken-back
/// moves left out; the House's secrets in words only with `secrets`.
fn lines_within(read: Reader<'_>, game: Uuid, system: System, span: Span, secrets: bool) -> Result<Vec<(i64, Line)>> {
    let within = (span.from, span.to.unwrap_or(i64::MAX));
    let all = u32::MAX;
    let line = |seq: i64, words: String, group: Group| (seq, Line { group, words, table_words: None });
    let by_words = |seq: i64, words: String| {
        let group = Group::of_words(&words);
        line(seq, words, group)
    };
    let mut out: Vec<(i64, Line)> = Vec::new();
    for t in tray_entries_within(read, game, within, all)? {
        out.push(line(t.seq.unwrap_or_default(), t.action, Group::Rolls));
    }
    match system {
        System::Nsu => {
            for e in nsu_roll_log_within(read, game, None, within, all)?.into_iter().filter(|e| !e.undone) {
                let r = &e.record;
                let result = match r.winner {
                    Winner::Player => format!("the player wins by {}", r.difference),
                    Winner::Arbiters => format!("the Arbiters win by {}", r.difference),
                    Winner::Tie => "a tie".to_owned(),
                };
                let wanted = r.roll.setup.desired_outcome.trim();
                let wanted =
                    if wanted.is_empty() || e.outcome_to_write { String::new() } else { format!(" (“{wanted}”)") };
                let words =
                    format!("{}: action roll ({:?}){wanted} — {result}.", e.character_name, r.roll.setup.aspect);
                out.push(line(e.event_id, words, Group::Rolls));
            }
            for kind in [EventKind::NsuDowntimeStarted, EventKind::NsuDowntimeMove, EventKind::NsuDowntimeEnded] {
                for (e, undone) in read.events_of_kind_within(game, None, kind, within, all)? {
                    let action = e.payload["action"].as_str().unwrap_or_default().trim();
                    if !undone && !action.is_empty() {
                        out.push(by_words(e.seq, format!("Downtime: {action}.")));
                    }
                }
            }
            // The map as everyone sees it (a face-down card unnamed); collateral with the
            // complications, as NSU's heading for them says.
            for m in map_changes_within(read, game, within)? {
                let group = if m.collateral { Group::Complications } else { Group::Other };
                out.push(line(m.seq, m.words, group));
            }
        }
        System::PennyAnte => {
            for e in penny_log_within(read, game, within, secrets)?.into_iter().filter(|e| !e.dice && !e.undone) {
                out.push(by_words(e.seq, e.action));
            }
        }
        System::Mezzo | System::Scattershot => {
            let kind =
                if system == System::Mezzo { EventKind::MezzoTableChanged } else { EventKind::ScattershotChanged };
            // The moves as the Log tab lists them; a Mezzo plot move sorted by the plot
            // rules' own event where the log keeps one, not by its words.
            // Ruling: Mezzo's Log tab shows every move to every viewer, a discarded seed card
            // by its text (it lies face up on the discard pile), so the recap reads it unfiltered.
            for (e, undone) in read.events_of_kind_within(game, None, kind, within, all)? {
                let action = e.payload["action"].as_str().unwrap_or_default();
                // A move that started or ended a session is the journal's own.
                if undone || action.trim().is_empty() || e.payload["after"]["journal"].is_object() {
                    continue;
                }
                let plot = if system == System::Mezzo { of_plot_events(&plot_events(&e)) } else { None };
                match plot {
                    Some(group) => out.push(line(e.seq, action.to_owned(), group)),
                    None => out.push(by_words(e.seq, action.to_owned())),
                }
            }
            if system == System::Scattershot {
                for (seq, words) in purchases_within(read, game, within)? {
                    out.push(line(seq, words, Group::Purchases));
                }
            }
        }
    }
    out.sort_by_key(|(seq, _)| *seq);
    Ok(out)
}

/// The plot rules' events a Mezzo move logged (its other rules' events left aside).
fn plot_events(event: &Event) -> Vec<PlotEvent> {
    let events = event.payload["events"].as_array().map(Vec::as_slice).unwrap_or_default();
    events.iter().filter_map(|v| serde_json::from_value::<PlotEvent>(v.clone()).ok()).collect()
}

/// The names a session may list (see [`journal::roster`]), as the store has them.
fn roster(read: Reader<'_>, game: Uuid, system: System) -> Result<Vec<String>> {
    let characters = read.characters_of(game)?.into_iter().map(|c| c.name);
    let players = match system {
        System::Mezzo => read.mezzo_table(game)?.players.into_iter().map(|p| p.name).collect(),
        _ => Vec::new(),
    };
    Ok(journal::roster(characters, players))
}

// ---------------------------------------------------------------------------------------
// Moves

/// Starts the game's next session on `date` (`YYYY-MM-DD`: typed, or today's as the
/// window gives it) with who is there. One undoable move.
pub fn journal_start(store: &mut Store, game: Uuid, date: &str, attendees: &[String]) -> Result<JournalChange> {
    // A Scattershot or Mezzo session is the game's own move too: residual modifiers last
    // until it ends; the seed deck's initial draw opens with it.
    let message = match existing_game(store.read(), game)?.system {
        System::Scattershot => {
            let edit = TableEdit::StartSession { date: date.to_owned(), attendees: Some(attendees.to_vec()) };
            Some(scattershot_table_edit(store, game, &edit)?.message)
        }
        System::Mezzo => Some(mezzo_start_session(store, game, date, Some(attendees))?.change.message),
        System::Nsu | System::PennyAnte => None,
    };
    if let Some(message) = message {
        return Ok(JournalChange { view: journal(store, game)?, message });
    }
    journal_move(store, game, |read, journal, system| {
        let next = journal.start(date, attendees, &roster(read, game, system)?, read.last_event_seq()?)?;
        let number = next.sessions.last().map_or(1, |s| s.number);
        Ok((next, format!("Session {number} starts.")))
    })
}

/// Ends the session being played: what happened in it is the log up to now.
pub fn journal_end(store: &mut Store, game: Uuid) -> Result<JournalChange> {
    let message = match existing_game(store.read(), game)?.system {
        System::Scattershot => Some(scattershot_table_edit(store, game, &TableEdit::EndSession)?.message),
        System::Mezzo => Some(mezzo_end_session(store, game)?.change.message),
        System::Nsu | System::PennyAnte => None,
    };
    if let Some(message) = message {
        return Ok(JournalChange { view: journal(store, game)?, message });
    }
    journal_move(store, game, |read, journal, _| {
        let number = journal.open_session().map(|s| s.number);
        let next = journal.end(read.last_event_seq()?)?;
        Ok((next, format!("Session {} ends.", number.unwrap_or_default())))
    })
}

/// Changes session `number`'s date, who was there, or the table's notes.
pub fn journal_edit(store: &mut Store, game: Uuid, number: u32, edit: &SessionEdit) -> Result<JournalChange> {
    journal_move(store, game, |read, journal, system| {
        let next = journal.edit(number, edit, &roster(read, game, system)?)?;
        let what = match edit {
            SessionEdit::Date { .. } => "date",
            SessionEdit::Attendees { .. } => "list of who was there",
            SessionEdit::Notes { .. } => "notes",
        };
        Ok((next, format!("Session {number}'s {what} saved.")))
    })
}

fn journal_move(
    store: &mut Store,
    game: Uuid,
    mv: impl FnOnce(Reader<'_>, &Journal, System) -> Result<(Journal, String)>,
) -> Result<JournalChange> {
    store.write(|tx| {
        let read = tx.read();
        let system = existing_game(read, game)?.system;
        let before = read.journal(game)?;
        let (after, message) = mv(read, &before, system)?;
        tx.put_journal(game, &after)?;
        tx.touch_game(game, now())?;
        table_event(tx, EventKind::JournalChanged, game, &Logged { action: message.clone(), before, after }, None)?;
        let view = journal_for(tx.read(), game, &device_viewer(tx.read(), game)?)?;
        Ok(JournalChange { view, message })
    })
}

/// Whether `kind` is a journal move, which `undo_game` takes back here.
pub(super) fn is_journal_event(kind: EventKind) -> bool {
    kind == EventKind::JournalChanged
}

/// Takes back a journal move: the journal as it was before it.
pub(super) fn undo_journal_event(tx: &Tx<'_>, event: &Event) -> Result<String> {
    let logged: Logged = super::log::payload_of(event)?;
    if tx.read().journal(event.game_id)? != logged.after {
        return Err(Error::invalid("journal", "the journal changed since this move (an import?); undo that first"));
    }
    tx.put_journal(event.game_id, &logged.before)?;
    tx.touch_game(event.game_id, now())?;
    let back = Logged { action: format!("Undone: {}", logged.action), before: logged.after, after: logged.before };
    table_event(tx, EventKind::Undo, event.game_id, &back, Some(event.seq))?;
    Ok(format!("Undone: {}", logged.action))
}

/// Puts a file's journal in place of `game`'s (an import): its sessions as the file
/// recorded them. A file without a journal leaves the game's as it is.
pub(crate) fn import_journal(tx: &Tx<'_>, game: Uuid, journal: Option<&Journal>) -> Result<()> {
    if let Some(journal) = journal {
        if let Some((at, problem)) = journal.problems().into_iter().next() {
            return Err(Error::invalid(format!("journal.{at}"), problem));
        }
        tx.put_journal(game, journal)?;
    }
    Ok(())
}
