-- The linked table: this device's key pair, the devices it paired with (at either end),
-- which device plays which character at the table it hosts, and on a joined device what it
-- last agreed with the host and the changes the host refused (kept, never dropped).
-- This device's identity on the local network: a Noise static key pair made once.
CREATE TABLE link_identity (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    device_id   TEXT NOT NULL CHECK (length(device_id) = 36),
    private_key BLOB NOT NULL CHECK (length(private_key) = 32),
    public_key  BLOB NOT NULL CHECK (length(public_key) = 32)
) STRICT;

-- A device paired with this one. side 'host': this device hosts the game and the peer
-- joined it; side 'joined': the peer hosts the game and this device joined it. A removed
-- device keeps its row (removed_at) so it cannot reconnect with the same key.
CREATE TABLE link_peers (
    device_id  TEXT NOT NULL CHECK (length(device_id) = 36),
    game_id    TEXT NOT NULL CHECK (length(game_id) = 36),
    side       TEXT NOT NULL CHECK (side IN ('host', 'joined')),
    name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    public_key BLOB NOT NULL CHECK (length(public_key) = 32),
    address    TEXT CHECK (address IS NULL OR length(address) <= 100),
    paired_at  TEXT NOT NULL,
    removed_at TEXT,
    PRIMARY KEY (device_id, game_id, side)
) STRICT;

-- At a hosted table: the device that plays each character (its player's own device).
CREATE TABLE link_owners (
    character_id TEXT PRIMARY KEY NOT NULL CHECK (length(character_id) = 36),
    game_id      TEXT NOT NULL CHECK (length(game_id) = 36),
    device_id    TEXT NOT NULL CHECK (length(device_id) = 36)
) STRICT;

-- On a joined device: each character as last agreed with the host — the host's digest of
-- it (the base a change is sent against) and this device's digest right after (a different
-- one now means a change made here, not yet sent or answered).
CREATE TABLE link_bases (
    character_id TEXT PRIMARY KEY NOT NULL CHECK (length(character_id) = 36),
    game_id      TEXT NOT NULL CHECK (length(game_id) = 36),
    host_digest  TEXT NOT NULL CHECK (length(host_digest) = 64),
    local_digest TEXT NOT NULL CHECK (length(local_digest) = 64),
    owned        INTEGER NOT NULL CHECK (owned IN (0, 1))
) STRICT;

-- On a joined device: changes the host refused, with its reason and the change itself.
CREATE TABLE link_refused (
    id           TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    game_id      TEXT NOT NULL CHECK (length(game_id) = 36),
    character_id TEXT NOT NULL CHECK (length(character_id) = 36),
    name         TEXT NOT NULL CHECK (length(name) <= 200),
    reason       TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 2000),
    record       TEXT NOT NULL CHECK (json_valid(record)),
    at           TEXT NOT NULL
) STRICT;
