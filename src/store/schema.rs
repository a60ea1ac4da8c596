//! The schema, as migrations that only grow. `user_version` counts the ones applied.

use rusqlite_migration::{Migrations, M};

const V1: &str = r#"
CREATE TABLE games (
    id         TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    name       TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    system     TEXT NOT NULL CHECK (system IN ('nsu', 'penny_ante', 'mezzo', 'scattershot')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

-- A game is played in one system for its whole life.
CREATE TRIGGER games_keep_their_system BEFORE UPDATE OF system ON games
WHEN NEW.system <> OLD.system
BEGIN SELECT RAISE(ABORT, 'a game''s system cannot change'); END;

CREATE TABLE table_settings (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    name    TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    value   INTEGER NOT NULL,
    PRIMARY KEY (game_id, name)
) STRICT;

CREATE TABLE characters (
    id         TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    system     TEXT NOT NULL CHECK (system IN ('nsu', 'penny_ante', 'mezzo', 'scattershot')),
    name       TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    revision   INTEGER NOT NULL CHECK (revision >= 1)
) STRICT;
CREATE INDEX characters_by_game ON characters (game_id);

-- A character plays in its game's system.
CREATE TRIGGER characters_match_game_on_insert BEFORE INSERT ON characters
WHEN NEW.system IS NOT (SELECT system FROM games WHERE id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'a character''s system must be its game''s system'); END;
CREATE TRIGGER characters_match_game_on_update BEFORE UPDATE OF game_id, system ON characters
WHEN NEW.system IS NOT (SELECT system FROM games WHERE id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'a character''s system must be its game''s system'); END;

-- The append-only log of every change. game_id and character_id are not foreign keys:
-- the log outlives what it describes, which is how a deletion can be undone.
CREATE TABLE events (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    at           TEXT NOT NULL,
    game_id      TEXT NOT NULL CHECK (length(game_id) = 36),
    character_id TEXT CHECK (character_id IS NULL OR length(character_id) = 36),
    kind         TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
    undoes       INTEGER REFERENCES events(seq),
    payload      TEXT NOT NULL CHECK (json_valid(payload))
) STRICT;
CREATE INDEX events_by_character ON events (character_id, seq) WHERE character_id IS NOT NULL;
CREATE INDEX events_by_game ON events (game_id, seq);
CREATE UNIQUE INDEX events_undone_once ON events (undoes) WHERE undoes IS NOT NULL;

CREATE TRIGGER events_are_not_updated BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER events_are_not_deleted BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"#;

/// No Stone Unturned sheets (RULES.md §1.1): one row per sheet, per mood line, skill line,
/// sentiment line and detail, each with the rule it must keep as a CHECK.
const V2: &str = r#"
CREATE TABLE nsu_sheets (
    character_id    TEXT PRIMARY KEY NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    pronouns        TEXT NOT NULL CHECK (length(pronouns) <= 2000),
    look            TEXT NOT NULL CHECK (length(look) <= 2000),
    rumours         TEXT NOT NULL CHECK (length(rumours) <= 2000),
    body_die        INTEGER CHECK (body_die IN (4, 6, 8)),
    mind_die        INTEGER CHECK (mind_die IN (4, 6, 8)),
    heart_die       INTEGER CHECK (heart_die IN (4, 6, 8)),
    recovery_points INTEGER NOT NULL CHECK (recovery_points >= 0),
    -- Aspects are chosen together, as a permutation of d4, d6, d8.
    CHECK ((body_die IS NULL AND mind_die IS NULL AND heart_die IS NULL)
        OR (body_die <> mind_die AND mind_die <> heart_die AND body_die <> heart_die))
) STRICT;

CREATE TABLE nsu_moods (
    character_id TEXT NOT NULL REFERENCES nsu_sheets(character_id) ON DELETE CASCADE,
    line         INTEGER NOT NULL CHECK (line BETWEEN 0 AND 5),
    -- Lines 0-1 are d8, 2-3 d6, 4-5 d4, as printed on the sheet.
    die          INTEGER NOT NULL CHECK (die = CASE WHEN line < 2 THEN 8 WHEN line < 4 THEN 6 ELSE 4 END),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    level        INTEGER NOT NULL CHECK (level BETWEEN 0 AND die + 1),
    overloaded   INTEGER NOT NULL CHECK (overloaded IN (0, 1)),
    PRIMARY KEY (character_id, line)
) STRICT;
-- At most one overloaded mood per character.
CREATE UNIQUE INDEX nsu_one_overloaded_mood ON nsu_moods (character_id) WHERE overloaded = 1;

CREATE TABLE nsu_skills (
    character_id TEXT NOT NULL REFERENCES nsu_sheets(character_id) ON DELETE CASCADE,
    line         INTEGER NOT NULL CHECK (line BETWEEN 0 AND 5),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    modifier     INTEGER NOT NULL CHECK (modifier BETWEEN 0 AND 255),
    body_box     INTEGER NOT NULL CHECK (body_box IN (0, 1)),
    mind_box     INTEGER NOT NULL CHECK (mind_box IN (0, 1)),
    heart_box    INTEGER NOT NULL CHECK (heart_box IN (0, 1)),
    PRIMARY KEY (character_id, line)
) STRICT;

CREATE TABLE nsu_sentiments (
    character_id TEXT NOT NULL REFERENCES nsu_sheets(character_id) ON DELETE CASCADE,
    line         INTEGER NOT NULL CHECK (line BETWEEN 0 AND 2),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    state        TEXT NOT NULL CHECK (state IN ('connected', 'at_risk', 'lost')),
    PRIMARY KEY (character_id, line)
) STRICT;

-- Harm details, scars and other details, in their order on the sheet.
CREATE TABLE nsu_details (
    character_id TEXT NOT NULL REFERENCES nsu_sheets(character_id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('harm', 'scar', 'other')),
    position     INTEGER NOT NULL CHECK (position >= 0),
    text         TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    -- Only other details are positive or negative.
    positive     INTEGER CHECK (positive IN (0, 1)),
    CHECK ((kind = 'other') = (positive IS NOT NULL)),
    -- Four harm slots.
    CHECK (kind <> 'harm' OR position < 4),
    PRIMARY KEY (character_id, kind, position)
) STRICT;
"#;

/// Every migration, oldest first. Append only: never edit one that has shipped.
const STEPS: &[M<'static>] = &[M::up(V1), M::up(V2)];
pub const MIGRATIONS: Migrations<'static> = Migrations::from_slice(STEPS);

/// The schema version this build writes.
pub const LATEST: i64 = 2;

#[cfg(test)]
mod tests {
    #[test]
    fn migrations_are_valid() {
        assert!(super::MIGRATIONS.validate().is_ok());
    }
}
