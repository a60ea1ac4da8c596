-- Mezzo DEV-1: a conflict the table opened for the players' votes from their own devices:
-- its question, options, who it is about and each player's ballot, kept as the rules' JSON
-- (one a table at most; read back through the rules' checks).
CREATE TABLE mz_open_conflicts (
    game_id  TEXT PRIMARY KEY NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    conflict TEXT NOT NULL CHECK (json_valid(conflict) AND length(conflict) <= 200000)
) STRICT;
