-- Mezzo, DEV-1: a player is a viewer in their own right. The players this device's person
-- sits as at a Mezzo table (their own seat, whether or not they claim a character): their
-- hand, influence and votes are this device's to show and cast. Like the role, this is the
-- device's own: no file carries it (another device sits its own players).
CREATE TABLE device_mezzo_seats (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    player_id TEXT NOT NULL CHECK (length(player_id) = 36),
    PRIMARY KEY (game_id, player_id)
) STRICT;
