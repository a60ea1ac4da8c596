//! Notes between the devices at a linked table: something one device hands another through
//! the host without changing either database (today: an NSU helper's die, rolled on the
//! helper's own device, for the roller's wizard). They reach the app's running link
//! (`AppState`): a joined device sends; a joined device and the table's device each keep an
//! inbox (the table's holds the notes for characters no device plays).

use sheetkeeper::link::Inbound;
use sheetkeeper::model::parse_id;
use sheetkeeper::rules::dice::{DiceSource, Rolled};
use sheetkeeper::services::{DiceInput, Note};
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

type Reply<T> = Result<T, AppError>;

/// Sends `note` to the device that plays its character, through the host; returns the note
/// as sent. `dice` says where its faces come from: `rolled` — this app rolls the helper's
/// die here (twice with an edge); `entered` — the faces rolled by hand; none — the note's own.
/// Waits for the host's answer: its reason when it refused the note.
#[tauri::command(async)]
pub fn link_send_note(state: State<'_, AppState>, note: Note, dice: Option<DiceInput>) -> Reply<Note> {
    let join = state.joined().ok_or_else(|| {
        AppError::invalid(if state.hosting().is_some() {
            "This device hosts the table: notes are sent from the players' devices."
        } else {
            "This device is not joined to a table."
        })
    })?;
    let note = with_faces(note, dice)?;
    join.handle().send_note(note.clone())?;
    Ok(note)
}

/// The note with its faces from `dice` (rolled here, or typed in).
fn with_faces(note: Note, dice: Option<DiceInput>) -> Reply<Note> {
    match (note, dice) {
        (note, None) => Ok(note),
        (Note::NsuHelp { roller, helper, .. }, Some(DiceInput::Entered { values })) => {
            Ok(Note::NsuHelp { roller, helper, faces: values })
        }
        (Note::NsuHelp { roller, helper, .. }, Some(DiceInput::Rolled)) => {
            let mut rng = rand::rng();
            let mut dice = Rolled(&mut rng);
            let faces = (0..helper.edge.dice())
                .map(|_| dice.roll(helper.die.sides(), "the helper's mood die"))
                .collect::<sheetkeeper::Result<Vec<u8>>>()?;
            Ok(Note::NsuHelp { roller, helper, faces })
        }
    }
}

/// The notes waiting on this device, oldest first (null when this app runs no link). The
/// roll wizard polls it while its help step is open.
#[tauri::command(async)]
pub fn link_inbox(state: State<'_, AppState>) -> Reply<Option<Vec<Inbound>>> {
    if let Some(join) = state.joined() {
        return Ok(Some(join.handle().status().inbox));
    }
    Ok(state.hosting().map(|host| host.handle().status().inbox))
}

/// Takes the note `id` out of this device's inbox (used, or put away).
#[tauri::command(async)]
pub fn link_take_note(state: State<'_, AppState>, id: String) -> Reply<Inbound> {
    let id = parse_id("id", &id)?;
    if let Some(join) = state.joined() {
        return Ok(join.handle().take_note(id)?);
    }
    match state.hosting() {
        Some(host) => Ok(host.handle().take_note(id)?),
        None => Err(AppError::invalid("This device is not linked to a table.")),
    }
}

#[cfg(test)]
mod tests {
    use sheetkeeper::rules::nsu::roll::{Edge, RemoteHelper};
    use sheetkeeper::rules::nsu::Die;
    use uuid::Uuid;

    use super::*;

    fn note(die: Die, edge: Edge, faces: Vec<u8>) -> Note {
        Note::NsuHelp { roller: Uuid::nil(), helper: RemoteHelper { name: "Wren".into(), die, edge }, faces }
    }

    fn faces(note: &Note) -> &[u8] {
        match note {
            Note::NsuHelp { faces, .. } => faces,
        }
    }

    #[test]
    fn a_die_rolled_here_shows_one_face_or_two_with_an_edge_within_its_sides() {
        for _ in 0..200 {
            let one = with_faces(note(Die::D4, Edge::None, vec![]), Some(DiceInput::Rolled)).unwrap();
            assert!(matches!(faces(&one), [f] if (1..=4).contains(f)), "{one:?}");
            let two = with_faces(note(Die::D8, Edge::Advantage, vec![9]), Some(DiceInput::Rolled)).unwrap();
            assert!(matches!(faces(&two), [a, b] if (1..=8).contains(a) && (1..=8).contains(b)), "{two:?}");
        }
    }

    #[test]
    fn typed_faces_replace_the_notes_and_none_keeps_them() {
        let typed =
            with_faces(note(Die::D6, Edge::Disadvantage, vec![1]), Some(DiceInput::Entered { values: vec![5, 2] }));
        assert_eq!(faces(&typed.unwrap()), [5, 2]);
        let kept = with_faces(note(Die::D6, Edge::None, vec![3]), None).unwrap();
        assert_eq!(faces(&kept), [3], "the host checks the faces; the app passes them on as typed");
    }
}
