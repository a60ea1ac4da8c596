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
    -- For an undo: the latest change still live below the one it undid (NULL: none), so the
    -- next undo finds its target in one step however many undone changes lie between.
    resumes      INTEGER REFERENCES events(seq),
    payload      TEXT NOT NULL CHECK (json_valid(payload))
) STRICT;
CREATE INDEX events_by_character ON events (character_id, seq) WHERE character_id IS NOT NULL;
CREATE INDEX events_by_game ON events (game_id, seq);
CREATE INDEX events_of_game_itself ON events (game_id, seq) WHERE character_id IS NULL;
CREATE UNIQUE INDEX events_undone_once ON events (undoes) WHERE undoes IS NOT NULL;

CREATE TRIGGER events_are_not_updated BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER events_are_not_deleted BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
