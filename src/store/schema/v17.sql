-- Mezzo payoffs: the flaws a claimed stake carries into an element's next
-- challenge (they count as gained there), and stakes' own momentum pools.
CREATE TABLE mz_carried_flaws (
    element_key INTEGER NOT NULL REFERENCES mz_elements(key) ON DELETE CASCADE,
    position    INTEGER NOT NULL CHECK (position >= 0),
    flaw        TEXT NOT NULL CHECK (length(flaw) = 36),
    PRIMARY KEY (element_key, position),
    UNIQUE (element_key, flaw)
) STRICT;

-- A stake's own momentum (Raise Stakes), shared by the challengers holding that stake.
CREATE TABLE mz_challenge_stake_pools (
    game_id  TEXT NOT NULL REFERENCES mz_challenges(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    stake    TEXT NOT NULL CHECK (length(trim(stake)) BETWEEN 1 AND 2000),
    momentum INTEGER NOT NULL CHECK (momentum BETWEEN 0 AND 4294967295),
    PRIMARY KEY (game_id, position)
) STRICT;
