-- Scattershot's Mechanix, the 2026-11-28 audit.
-- D-SC3: the game's list of free skills with their starting levels, which sheets take their
-- free skills from, in the Gamemaster's order.
CREATE TABLE sc_free_skill_list (
    game_id        TEXT NOT NULL REFERENCES sc_tables(game_id) ON DELETE CASCADE,
    position       INTEGER NOT NULL CHECK (position BETWEEN 0 AND 199),
    name           TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
    starting_level INTEGER NOT NULL CHECK (starting_level BETWEEN -99 AND 99),
    PRIMARY KEY (game_id, position)
) STRICT;
CREATE UNIQUE INDEX sc_free_skill_list_names ON sc_free_skill_list (game_id, lower(name));

-- D-SC2: the penalty a combatant's reduced resources gave when mechanical play began, held
-- until the lull (0: none; two resources at most 20 each).
ALTER TABLE sc_combatants ADD COLUMN reduced_penalty INTEGER NOT NULL DEFAULT 0
    CHECK (reduced_penalty BETWEEN -40 AND 0);
