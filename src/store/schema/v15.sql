-- The Setting Laws a Mezzo table made for its game, in order.
CREATE TABLE mz_laws (
    game_id  TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    id       TEXT NOT NULL CHECK (length(id) = 36),
    name     TEXT NOT NULL CHECK (length(trim(name)) >= 1),
    effect   TEXT NOT NULL CHECK (length(trim(effect)) >= 1),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, id)
) STRICT;

-- The facts register: established facts, each with the arc it belongs to.
CREATE TABLE mz_facts (
    game_id  TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    id       TEXT NOT NULL CHECK (length(id) = 36),
    arc      INTEGER NOT NULL CHECK (arc BETWEEN 0 AND 4294967295),
    text     TEXT NOT NULL CHECK (length(trim(text)) >= 1),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, id)
) STRICT;

-- Victory Narration votes bought in the table's challenge and not spent yet.
CREATE TABLE mz_victory_votes (
    game_id      TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    element_id   TEXT NOT NULL CHECK (length(element_id) = 36),
    challenge_id TEXT NOT NULL CHECK (length(challenge_id) = 36),
    votes        INTEGER NOT NULL CHECK (votes BETWEEN 1 AND 4294967295),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, element_id, challenge_id)
) STRICT;
