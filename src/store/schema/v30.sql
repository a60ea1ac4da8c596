-- Extra time units away from home too (decision 2026-11-28: "you can collectively decide to
-- spend more time at rest"): the downtime phase loses its check "at_home = 1 OR time_units
-- = 0". SQLite cannot drop a CHECK in place, and dropping the phase's table would delete the
-- rows that refer to it (foreign keys are on): the phase and the four tables under it are
-- kept aside, built again as before (only that check gone) and filled back, parents first.

CREATE TABLE kept_nsu_downtime AS SELECT * FROM nsu_downtime;
CREATE TABLE kept_nsu_downtime_characters AS SELECT * FROM nsu_downtime_characters;
CREATE TABLE kept_nsu_downtime_final_boxes AS SELECT * FROM nsu_downtime_final_boxes;
CREATE TABLE kept_nsu_collateral_attempts AS SELECT * FROM nsu_collateral_attempts;
CREATE TABLE kept_nsu_collateral_dice AS SELECT * FROM nsu_collateral_dice;

DROP TABLE nsu_collateral_dice;
DROP TABLE nsu_collateral_attempts;
DROP TABLE nsu_downtime_final_boxes;
DROP TABLE nsu_downtime_characters;
DROP TABLE nsu_downtime;

CREATE TABLE nsu_downtime (
    game_id                  TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    at_home                  INTEGER NOT NULL CHECK (at_home IN (0, 1)),
    time_units               INTEGER NOT NULL CHECK (time_units BETWEEN 0 AND 20),
    just_left                TEXT CHECK (just_left IS NULL OR length(just_left) = 36),
    just_left_rolled         INTEGER NOT NULL CHECK (just_left_rolled IN (0, 1)),
    extra_complications_left INTEGER NOT NULL CHECK (extra_complications_left BETWEEN 0 AND time_units)
) STRICT;

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

INSERT INTO nsu_downtime SELECT * FROM kept_nsu_downtime;
INSERT INTO nsu_downtime_characters SELECT * FROM kept_nsu_downtime_characters;
INSERT INTO nsu_downtime_final_boxes SELECT * FROM kept_nsu_downtime_final_boxes;
INSERT INTO nsu_collateral_attempts SELECT * FROM kept_nsu_collateral_attempts;
INSERT INTO nsu_collateral_dice SELECT * FROM kept_nsu_collateral_dice;

DROP TABLE kept_nsu_collateral_dice;
DROP TABLE kept_nsu_collateral_attempts;
DROP TABLE kept_nsu_downtime_final_boxes;
DROP TABLE kept_nsu_downtime_characters;
DROP TABLE kept_nsu_downtime;
