-- NPCs the table writes details onto after a roll, in the order they were added.
CREATE TABLE nsu_npcs (
    id       TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    name     TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    UNIQUE (game_id, position)
) STRICT;

CREATE TABLE nsu_npc_details (
    npc_id   TEXT NOT NULL REFERENCES nsu_npcs(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    text     TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    positive INTEGER NOT NULL CHECK (positive IN (0, 1)),
    PRIMARY KEY (npc_id, position)
) STRICT;
