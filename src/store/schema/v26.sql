-- Scattershot, audit D-SC4: experience dice belong to players, not characters. A table lists
-- its players, each with their own stock; a sheet names the player who plays it (NULL: the
-- character stands as its own player, its dice on its sheet, as every sheet did before).
CREATE TABLE sc_players (
    game_id   TEXT NOT NULL REFERENCES sc_tables(game_id) ON DELETE CASCADE,
    position  INTEGER NOT NULL CHECK (position BETWEEN 0 AND 99),
    player_id TEXT NOT NULL,
    name      TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
    dice      INTEGER NOT NULL CHECK (dice BETWEEN 0 AND 4294967295),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, player_id)
) STRICT;

ALTER TABLE sc_sheets ADD COLUMN player_id TEXT;
