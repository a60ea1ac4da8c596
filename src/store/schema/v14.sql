-- Scattershot at a real table: a sheet's description, NPC flag and residual modifiers; a
-- table's UE chart and sessions. Additive: old rows read as no description, a player's
-- character, no modifiers, an empty chart and no session.
ALTER TABLE sc_sheets ADD COLUMN description TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 2000);
ALTER TABLE sc_sheets ADD COLUMN npc INTEGER NOT NULL DEFAULT 0 CHECK (npc IN (0, 1));

-- Temporary residual modifiers (a result's Bonus, a lasting consequence), in order.
CREATE TABLE sc_modifiers (
    character_id TEXT NOT NULL REFERENCES sc_sheets(character_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 199),
    text         TEXT NOT NULL CHECK (length(trim(text)) BETWEEN 1 AND 200),
    value        INTEGER NOT NULL CHECK (value BETWEEN -99 AND 99),
    lasts        TEXT NOT NULL CHECK (lasts IN ('until_removed', 'session', 'mechanical_play')),
    PRIMARY KEY (character_id, position)
) STRICT;

-- Sessions started so far, and whether the latest is being played.
ALTER TABLE sc_tables ADD COLUMN sessions INTEGER NOT NULL DEFAULT 0 CHECK (sessions BETWEEN 0 AND 4294967295);
ALTER TABLE sc_tables ADD COLUMN in_session INTEGER NOT NULL DEFAULT 0 CHECK (in_session IN (0, 1));

-- The UE chart the group filled in: an index and the facets it gives.
CREATE TABLE sc_ue_chart (
    game_id   TEXT NOT NULL REFERENCES sc_tables(game_id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx BETWEEN -1000 AND 1000),
    factor    INTEGER NOT NULL CHECK (factor BETWEEN 0 AND 100),
    points    INTEGER NOT NULL CHECK (points BETWEEN 0 AND 100),
    bonus     INTEGER NOT NULL CHECK (bonus BETWEEN 0 AND 100),
    magnitude TEXT NOT NULL CHECK (length(magnitude) <= 200),
    PRIMARY KEY (game_id, idx)
) STRICT;
