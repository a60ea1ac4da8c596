-- The campaign journal (issue 33): a game's sessions — number, date, who was there, the
-- table's notes, open or closed — and where each lies in this device's log (`from_seq`,
-- `to_seq`: events after the one, up to the other; none for a session read from a file,
-- whose lines of what happened are kept as the file wrote them, `journal_lines`).
CREATE TABLE journal_sessions (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number   INTEGER NOT NULL CHECK (number BETWEEN 1 AND 1000),
    date     TEXT NOT NULL CHECK (length(date) = 10),
    notes    TEXT NOT NULL CHECK (length(notes) <= 4000),
    open     INTEGER NOT NULL CHECK (open IN (0, 1)),
    from_seq INTEGER,
    to_seq   INTEGER,
    PRIMARY KEY (game_id, number),
    CHECK (to_seq IS NULL OR (from_seq IS NOT NULL AND to_seq >= from_seq))
) STRICT;

-- One session open at a time per game.
CREATE UNIQUE INDEX journal_one_open ON journal_sessions (game_id) WHERE open = 1;

CREATE TABLE journal_attendees (
    game_id  TEXT NOT NULL,
    number   INTEGER NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 0),
    name     TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    PRIMARY KEY (game_id, number, position),
    UNIQUE (game_id, number, name),
    FOREIGN KEY (game_id, number) REFERENCES journal_sessions (game_id, number) ON DELETE CASCADE
) STRICT;

CREATE TABLE journal_lines (
    game_id    TEXT NOT NULL,
    number     INTEGER NOT NULL,
    position   INTEGER NOT NULL CHECK (position >= 0),
    grp        TEXT NOT NULL CHECK (grp IN ('rolls', 'complications', 'rewards', 'purchases', 'hooks', 'other')),
    words      TEXT NOT NULL CHECK (length(words) BETWEEN 1 AND 1000),
    table_words TEXT CHECK (table_words IS NULL OR length(table_words) BETWEEN 1 AND 1000),
    PRIMARY KEY (game_id, number, position),
    FOREIGN KEY (game_id, number) REFERENCES journal_sessions (game_id, number) ON DELETE CASCADE
) STRICT;
