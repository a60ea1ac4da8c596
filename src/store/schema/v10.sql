-- Notes, and what this device is in each game: whose characters it holds and which side
-- of the table it plays. The roles and settings are this device's own: no file carries them.
ALTER TABLE games ADD COLUMN notes TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 20000);
ALTER TABLE characters ADD COLUMN notes TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 20000);

-- This device in a game: the part it plays (a player's own device, the table's — the
-- Gamemaster, the House, the Arbiters — or both, one device passed around) and whether its
-- people roll real dice and type them in. No row: both, and the app rolls.
CREATE TABLE device_games (
    game_id      TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    role         TEXT NOT NULL DEFAULT 'both' CHECK (role IN ('player', 'table', 'both')),
    dice_by_hand INTEGER NOT NULL DEFAULT 0 CHECK (dice_by_hand IN (0, 1))
) STRICT;

-- Characters this device keeps for someone else (another player's copy); every other
-- character on the device is its owner's own.
CREATE TABLE kept_for_others (
    character_id TEXT PRIMARY KEY NOT NULL REFERENCES characters(id) ON DELETE CASCADE
) STRICT;

-- Preferences of this device (the theme, where the window was left, the rules' hints shown).
CREATE TABLE device_settings (
    key   TEXT PRIMARY KEY NOT NULL CHECK (key IN ('theme', 'place', 'hints')),
    value TEXT NOT NULL CHECK (length(value) <= 2000)
) STRICT;
