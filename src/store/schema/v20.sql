-- NSU project clocks of 2 to 12 segments (decision 2026-11-28; they were 4, 6 or 8). SQLite
-- cannot change a CHECK in place: the table is built again with its rows (nothing refers
-- to it, so dropping the old one takes nothing with it).
CREATE TABLE nsu_projects_2_to_12 (
    id       TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    name     TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    owner_id TEXT NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    size     INTEGER NOT NULL CHECK (size BETWEEN 2 AND 12),
    filled   INTEGER NOT NULL CHECK (filled BETWEEN 0 AND size),
    UNIQUE (game_id, position)
) STRICT;
INSERT INTO nsu_projects_2_to_12 (id, game_id, position, name, owner_id, size, filled)
    SELECT id, game_id, position, name, owner_id, size, filled FROM nsu_projects;
DROP TABLE nsu_projects;
ALTER TABLE nsu_projects_2_to_12 RENAME TO nsu_projects;
CREATE INDEX nsu_projects_by_owner ON nsu_projects (owner_id);

-- A mood at level 0 is never overloaded (decision 2026-11-25): a sheet saved before that rule
-- may still hold one; reaching 0 ended its overload.
UPDATE nsu_moods SET overloaded = 0 WHERE overloaded = 1 AND level = 0;
