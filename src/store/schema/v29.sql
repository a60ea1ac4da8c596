-- Mezzo DEV-1/DEV-2: an action check the table opened for the players' votes from their own
-- devices: its setup and each player's ballot, kept as the rules' JSON (one a table at most;
-- read back through the rules' checks).
CREATE TABLE mz_open_checks (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    check_json TEXT NOT NULL CHECK (json_valid(check_json) AND length(check_json) <= 200000)
) STRICT;
