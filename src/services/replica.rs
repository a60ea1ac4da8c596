//! PLACEHOLDER until the redaction lands: the game's document as is.
use uuid::Uuid;

use super::transfer::{document, ExportScope};
use super::viewer::Viewer;
use crate::error::Result;
use crate::exchange::Document;
use crate::store::Reader;

pub fn game_document_for(read: Reader<'_>, game: Uuid, _viewer: &Viewer) -> Result<Document> {
    document(read, ExportScope::Game(game))
}
