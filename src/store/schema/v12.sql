-- No Stone Unturned at a real table: where the party is, the paths drawn on the map, the
-- character who wrote each card (who may read it face down), NPCs' Overcome thresholds and
-- their harm details.
-- Where the party is: a card of the game's map; no row: home.
CREATE TABLE nsu_party (
    game_id     TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    location_id TEXT NOT NULL REFERENCES nsu_locations(id) ON DELETE CASCADE
) STRICT;

-- Paths between two cards of one map, in the order they were drawn.
CREATE TABLE nsu_paths (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    a        TEXT NOT NULL REFERENCES nsu_locations(id) ON DELETE CASCADE,
    b        TEXT NOT NULL REFERENCES nsu_locations(id) ON DELETE CASCADE,
    CHECK (a <> b),
    PRIMARY KEY (game_id, position)
) STRICT;
CREATE UNIQUE INDEX nsu_one_path_per_pair ON nsu_paths (game_id, min(a, b), max(a, b));

-- The character whose player wrote the card (NULL: not known).
ALTER TABLE nsu_locations ADD COLUMN author_character TEXT
    REFERENCES characters(id) ON DELETE SET NULL;

-- How many harm details Overcome an NPC (NULL: an ordinary NPC, one).
ALTER TABLE nsu_npcs ADD COLUMN threshold INTEGER CHECK (threshold BETWEEN 2 AND 4);

CREATE TABLE nsu_npc_harm (
    npc_id   TEXT NOT NULL REFERENCES nsu_npcs(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 3),
    text     TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    PRIMARY KEY (npc_id, position)
) STRICT;
