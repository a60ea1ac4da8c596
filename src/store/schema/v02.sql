-- No Stone Unturned sheets (RULES.md §1.1): one row per sheet, per mood line, skill line,
-- sentiment line and detail, each with the rule it must keep as a CHECK.
CREATE TABLE nsu_sheets (
    character_id    TEXT PRIMARY KEY NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    pronouns        TEXT NOT NULL CHECK (length(pronouns) <= 2000),
    look            TEXT NOT NULL CHECK (length(look) <= 2000),
    rumours         TEXT NOT NULL CHECK (length(rumours) <= 2000),
    body_die        INTEGER CHECK (body_die IN (4, 6, 8)),
    mind_die        INTEGER CHECK (mind_die IN (4, 6, 8)),
    heart_die       INTEGER CHECK (heart_die IN (4, 6, 8)),
    recovery_points INTEGER NOT NULL CHECK (recovery_points >= 0),
    -- Aspects are chosen together, as a permutation of d4, d6, d8.
    CHECK ((body_die IS NULL AND mind_die IS NULL AND heart_die IS NULL)
        OR (body_die <> mind_die AND mind_die <> heart_die AND body_die <> heart_die))
) STRICT;

CREATE TABLE nsu_moods (
    character_id TEXT NOT NULL REFERENCES nsu_sheets(character_id) ON DELETE CASCADE,
    line         INTEGER NOT NULL CHECK (line BETWEEN 0 AND 5),
    -- Lines 0-1 are d8, 2-3 d6, 4-5 d4, as printed on the sheet.
    die          INTEGER NOT NULL CHECK (die = CASE WHEN line < 2 THEN 8 WHEN line < 4 THEN 6 ELSE 4 END),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    level        INTEGER NOT NULL CHECK (level BETWEEN 0 AND die + 1),
    overloaded   INTEGER NOT NULL CHECK (overloaded IN (0, 1)),
    PRIMARY KEY (character_id, line)
) STRICT;
-- At most one overloaded mood per character.
CREATE UNIQUE INDEX nsu_one_overloaded_mood ON nsu_moods (character_id) WHERE overloaded = 1;

CREATE TABLE nsu_skills (
    character_id TEXT NOT NULL REFERENCES nsu_sheets(character_id) ON DELETE CASCADE,
    line         INTEGER NOT NULL CHECK (line BETWEEN 0 AND 5),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    modifier     INTEGER NOT NULL CHECK (modifier BETWEEN 0 AND 255),
    body_box     INTEGER NOT NULL CHECK (body_box IN (0, 1)),
    mind_box     INTEGER NOT NULL CHECK (mind_box IN (0, 1)),
    heart_box    INTEGER NOT NULL CHECK (heart_box IN (0, 1)),
    PRIMARY KEY (character_id, line)
) STRICT;

CREATE TABLE nsu_sentiments (
    character_id TEXT NOT NULL REFERENCES nsu_sheets(character_id) ON DELETE CASCADE,
    line         INTEGER NOT NULL CHECK (line BETWEEN 0 AND 2),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    state        TEXT NOT NULL CHECK (state IN ('connected', 'at_risk', 'lost')),
    PRIMARY KEY (character_id, line)
) STRICT;

-- Harm details, scars and other details, in their order on the sheet.
CREATE TABLE nsu_details (
    character_id TEXT NOT NULL REFERENCES nsu_sheets(character_id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('harm', 'scar', 'other')),
    position     INTEGER NOT NULL CHECK (position >= 0),
    text         TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    -- Only other details are positive or negative.
    positive     INTEGER CHECK (positive IN (0, 1)),
    CHECK ((kind = 'other') = (positive IS NOT NULL)),
    -- Four harm slots.
    CHECK (kind <> 'harm' OR position < 4),
    PRIMARY KEY (character_id, kind, position)
) STRICT;
