-- The world of a No Stone Unturned game (RULES.md §1.5) and the downtime phase in progress
-- (§1.4). Everything a player tracks is a column with its rule as a CHECK; lists keep their
-- order in a `position` column. The downtime tables name locations by id without a foreign
-- key, because the world is written whole (its rows deleted and inserted again) on every
-- change, which must not take the phase with it.
-- Lines and veils, each list in the order the table made it.
CREATE TABLE nsu_safety (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    list     TEXT NOT NULL CHECK (list IN ('lines', 'veils')),
    position INTEGER NOT NULL CHECK (position >= 0),
    text     TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    PRIMARY KEY (game_id, list, position)
) STRICT;

-- One ban per player; NULL: the player passed.
CREATE TABLE nsu_bans (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    player   TEXT NOT NULL CHECK (length(trim(player)) BETWEEN 1 AND 120),
    ban      TEXT CHECK (ban IS NULL OR (length(trim(ban)) >= 1 AND length(ban) <= 2000)),
    PRIMARY KEY (game_id, position)
) STRICT;
CREATE UNIQUE INDEX nsu_one_ban_per_player ON nsu_bans (game_id, lower(trim(player)));

CREATE TABLE nsu_settlement (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    author   TEXT NOT NULL CHECK (length(trim(author)) BETWEEN 1 AND 120),
    text     TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    PRIMARY KEY (game_id, position)
) STRICT;

-- Scope questions; the answer is empty until given.
CREATE TABLE nsu_scope (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    question TEXT NOT NULL CHECK (length(trim(question)) >= 1 AND length(question) <= 2000),
    answer   TEXT NOT NULL CHECK (length(answer) <= 2000),
    PRIMARY KEY (game_id, position)
) STRICT;

-- The five resources (none until the table names them).
CREATE TABLE nsu_resources (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 4),
    name     TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    state    TEXT NOT NULL CHECK (state IN ('scarcity', 'neutral', 'abundance')),
    PRIMARY KEY (game_id, position)
) STRICT;
CREATE UNIQUE INDEX nsu_resource_names ON nsu_resources (game_id, lower(trim(name)));

-- Location cards. x/y NULL: not on the map yet; no two cards share a cell.
CREATE TABLE nsu_locations (
    id               TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    game_id          TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position         INTEGER NOT NULL CHECK (position >= 0),
    name             TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    author           TEXT NOT NULL CHECK (length(trim(author)) BETWEEN 1 AND 120),
    description      TEXT NOT NULL CHECK (length(description) <= 2000),
    collateral_harms TEXT NOT NULL CHECK (length(collateral_harms) <= 2000),
    danger           TEXT NOT NULL CHECK (length(danger) <= 2000),
    treasure         TEXT NOT NULL CHECK (length(treasure) <= 2000),
    -- D1..D4 and R1..R4, rolled together as 2d4.
    danger_level     INTEGER CHECK (danger_level BETWEEN 1 AND 4),
    reward_level     INTEGER CHECK (reward_level BETWEEN 1 AND 4),
    collateral       INTEGER NOT NULL CHECK (collateral BETWEEN 0 AND 8),
    revealed         INTEGER NOT NULL CHECK (revealed IN (0, 1)),
    x                INTEGER CHECK (x BETWEEN -64 AND 64),
    y                INTEGER CHECK (y BETWEEN -64 AND 64),
    CHECK ((danger_level IS NULL) = (reward_level IS NULL)),
    CHECK ((x IS NULL) = (y IS NULL)),
    UNIQUE (game_id, position),
    UNIQUE (game_id, x, y)
) STRICT;

CREATE TABLE nsu_scene_details (
    location_id   TEXT NOT NULL REFERENCES nsu_locations(id) ON DELETE CASCADE,
    position      INTEGER NOT NULL CHECK (position >= 0),
    text          TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    world_at_risk INTEGER NOT NULL CHECK (world_at_risk IN (0, 1)),
    PRIMARY KEY (location_id, position)
) STRICT;

-- Characters who privately saw a face-down card, in the order they did.
CREATE TABLE nsu_scouts (
    location_id  TEXT NOT NULL REFERENCES nsu_locations(id) ON DELETE CASCADE,
    character_id TEXT NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    PRIMARY KEY (location_id, character_id),
    UNIQUE (location_id, position)
) STRICT;
CREATE INDEX nsu_scouts_by_character ON nsu_scouts (character_id);

CREATE TABLE nsu_projects (
    id       TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    name     TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    owner_id TEXT NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    size     INTEGER NOT NULL CHECK (size IN (4, 6, 8)),
    filled   INTEGER NOT NULL CHECK (filled BETWEEN 0 AND size),
    UNIQUE (game_id, position)
) STRICT;
CREATE INDEX nsu_projects_by_owner ON nsu_projects (owner_id);

-- The downtime phase in progress, at most one per game.
CREATE TABLE nsu_downtime (
    game_id                  TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    at_home                  INTEGER NOT NULL CHECK (at_home IN (0, 1)),
    time_units               INTEGER NOT NULL CHECK (time_units BETWEEN 0 AND 20),
    just_left                TEXT CHECK (just_left IS NULL OR length(just_left) = 36),
    just_left_rolled         INTEGER NOT NULL CHECK (just_left_rolled IN (0, 1)),
    extra_complications_left INTEGER NOT NULL CHECK (extra_complications_left BETWEEN 0 AND time_units),
    -- Extra time passes only at home.
    CHECK (at_home = 1 OR time_units = 0)
) STRICT;

-- Each character's share of the phase. A two-step action (Introspection, Train Skills)
-- waits here for the player's choice: the action, the aspect rolled and the roll.
CREATE TABLE nsu_downtime_characters (
    game_id         TEXT NOT NULL REFERENCES nsu_downtime(game_id) ON DELETE CASCADE,
    character_id    TEXT NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    actions_left    INTEGER NOT NULL CHECK (actions_left BETWEEN 0 AND 21),
    recovered_harm  INTEGER NOT NULL CHECK (recovered_harm IN (0, 1)),
    upgraded_skills INTEGER NOT NULL CHECK (upgraded_skills IN (0, 1)),
    awaiting        TEXT CHECK (awaiting IN ('introspection', 'train_skills')),
    awaiting_aspect TEXT CHECK (awaiting_aspect IN ('body', 'mind', 'heart')),
    awaiting_roll   INTEGER CHECK (awaiting_roll BETWEEN 1 AND 8),
    CHECK ((awaiting IS NULL) = (awaiting_roll IS NULL)),
    CHECK ((awaiting IS 'train_skills') = (awaiting_aspect IS NOT NULL)),
    PRIMARY KEY (game_id, character_id)
) STRICT;
CREATE INDEX nsu_downtime_by_character ON nsu_downtime_characters (character_id);

-- Moods whose last box is filled, waiting for the final-box effect.
CREATE TABLE nsu_downtime_final_boxes (
    game_id      TEXT NOT NULL,
    character_id TEXT NOT NULL,
    position     INTEGER NOT NULL CHECK (position >= 0),
    line         INTEGER NOT NULL CHECK (line BETWEEN 0 AND 5),
    mood         TEXT NOT NULL CHECK (length(trim(mood)) BETWEEN 1 AND 120),
    PRIMARY KEY (game_id, character_id, position),
    UNIQUE (game_id, character_id, line),
    FOREIGN KEY (game_id, character_id)
        REFERENCES nsu_downtime_characters(game_id, character_id) ON DELETE CASCADE
) STRICT;

-- Open attempts to address collateral, one per location, and the dice rolled into them.
CREATE TABLE nsu_collateral_attempts (
    game_id       TEXT NOT NULL REFERENCES nsu_downtime(game_id) ON DELETE CASCADE,
    location_id   TEXT NOT NULL CHECK (length(location_id) = 36),
    position      INTEGER NOT NULL CHECK (position >= 0),
    started_by    TEXT NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    votes_for     INTEGER NOT NULL CHECK (votes_for BETWEEN 0 AND 255),
    votes_against INTEGER NOT NULL CHECK (votes_against BETWEEN 0 AND 255),
    PRIMARY KEY (game_id, location_id),
    UNIQUE (game_id, position)
) STRICT;

CREATE TABLE nsu_collateral_dice (
    game_id      TEXT NOT NULL,
    location_id  TEXT NOT NULL,
    position     INTEGER NOT NULL CHECK (position >= 0),
    character_id TEXT NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    aspect       TEXT NOT NULL CHECK (aspect IN ('body', 'mind', 'heart')),
    die          INTEGER NOT NULL CHECK (die IN (4, 6, 8)),
    roll         INTEGER NOT NULL CHECK (roll BETWEEN 1 AND die),
    PRIMARY KEY (game_id, location_id, position),
    FOREIGN KEY (game_id, location_id)
        REFERENCES nsu_collateral_attempts(game_id, location_id) ON DELETE CASCADE
) STRICT;
