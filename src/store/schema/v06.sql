-- Mezzo (RULES.md §3.1): each game's table — the arc, the players with their influence,
-- roles and claims — and the story elements with their traits. A character's element is
-- its sheet (`character_id`); a table's other elements (objects, locations, factions,
-- goals) hang off its `mz_tables` row (`game_id`). Elements are keyed by a row number so
-- that both kinds share the traits and awards tables. Claims name characters without a
-- foreign key, like the Penny Ante ledger: the characters' own rows say who claims them.
-- Every Mezzo character existing before this version gets an empty sheet.
CREATE TABLE mz_tables (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    -- The arc being played, from 1 (0 before the first starts).
    arc     INTEGER NOT NULL CHECK (arc BETWEEN 0 AND 4294967295)
) STRICT;

CREATE TRIGGER mz_tables_are_mezzo_games BEFORE INSERT ON mz_tables
WHEN (SELECT system FROM games WHERE id = NEW.game_id) IS NOT 'mezzo'
BEGIN SELECT RAISE(ABORT, 'only a Mezzo game has a Mezzo table'); END;

CREATE TABLE mz_players (
    game_id        TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    id             TEXT NOT NULL CHECK (length(id) = 36),
    position       INTEGER NOT NULL CHECK (position >= 0),
    name           TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    influence      INTEGER NOT NULL CHECK (influence BETWEEN 0 AND 4294967295),
    -- The arc in which the player gave their undisputable memorable-element award.
    free_award_arc INTEGER CHECK (free_award_arc BETWEEN 0 AND 4294967295),
    PRIMARY KEY (game_id, id),
    UNIQUE (game_id, position)
) STRICT;

-- Roles a player took, each at most once, in the order taken.
CREATE TABLE mz_player_roles (
    game_id   TEXT NOT NULL,
    player_id TEXT NOT NULL,
    position  INTEGER NOT NULL CHECK (position >= 0),
    role      TEXT NOT NULL CHECK (role IN ('actor')),
    PRIMARY KEY (game_id, player_id, role),
    UNIQUE (game_id, player_id, position),
    FOREIGN KEY (game_id, player_id) REFERENCES mz_players(game_id, id) ON DELETE CASCADE
) STRICT;

-- The characters a player claimed, in the order claimed; a character has one claimer.
CREATE TABLE mz_claims (
    game_id      TEXT NOT NULL,
    player_id    TEXT NOT NULL,
    position     INTEGER NOT NULL CHECK (position >= 0),
    character_id TEXT NOT NULL CHECK (length(character_id) = 36),
    PRIMARY KEY (game_id, player_id, position),
    UNIQUE (game_id, character_id),
    FOREIGN KEY (game_id, player_id) REFERENCES mz_players(game_id, id) ON DELETE CASCADE
) STRICT;

CREATE TABLE mz_elements (
    key                   INTEGER PRIMARY KEY,
    -- A character's sheet…
    character_id          TEXT UNIQUE REFERENCES characters(id) ON DELETE CASCADE,
    -- …or one of a table's other elements, in order.
    game_id               TEXT REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position              INTEGER CHECK (position >= 0),
    id                    TEXT NOT NULL CHECK (length(id) = 36),
    kind                  TEXT NOT NULL CHECK (kind IN ('character', 'object', 'location', 'faction', 'goal')),
    name                  TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    adversity             INTEGER NOT NULL CHECK (adversity BETWEEN 0 AND 4294967295),
    adversity_debt        INTEGER NOT NULL CHECK (adversity_debt BETWEEN 0 AND 4294967295),
    momentum              INTEGER NOT NULL CHECK (momentum BETWEEN 0 AND 4294967295),
    -- Momentum-boost awards gained in the current challenge.
    momentum_awards       INTEGER NOT NULL CHECK (momentum_awards BETWEEN 0 AND 5),
    in_challenge          INTEGER NOT NULL CHECK (in_challenge IN (0, 1)),
    -- Plot Protection lent by another element's Heroic Sacrifice, and whether this
    -- element sacrificed its own.
    protection_lent_by    TEXT CHECK (protection_lent_by IS NULL OR length(protection_lent_by) = 36),
    protection_sacrificed INTEGER NOT NULL CHECK (protection_sacrificed IN (0, 1)),
    claimed_by            TEXT CHECK (claimed_by IS NULL OR length(claimed_by) = 36),
    -- The one-time edge-slot awards (the memorable ones are in mz_memorable_awards).
    first_action_check    INTEGER NOT NULL CHECK (first_action_check IN (0, 1)),
    first_challenge       INTEGER NOT NULL CHECK (first_challenge IN (0, 1)),
    first_claim           INTEGER NOT NULL CHECK (first_claim IN (0, 1)),
    CHECK ((character_id IS NULL) <> (game_id IS NULL)),
    CHECK ((game_id IS NULL) = (position IS NULL)),
    CHECK (character_id IS NULL OR id = character_id),
    -- A table's own elements are not characters: those are sheets.
    CHECK ((kind = 'character') = (character_id IS NOT NULL)),
    -- Gained adversity pays the debt first.
    CHECK (adversity = 0 OR adversity_debt = 0),
    CHECK (claimed_by IS NULL OR kind = 'character'),
    CHECK (protection_lent_by IS NOT id),
    UNIQUE (game_id, id),
    UNIQUE (game_id, position)
) STRICT;

CREATE TRIGGER mz_sheets_are_mezzo_characters BEFORE INSERT ON mz_elements
WHEN NEW.character_id IS NOT NULL
 AND (SELECT system FROM characters WHERE id = NEW.character_id) IS NOT 'mezzo'
BEGIN SELECT RAISE(ABORT, 'only a Mezzo character has a Mezzo sheet'); END;

-- The arcs in which an element was memorable (1 edge slot each).
CREATE TABLE mz_memorable_awards (
    element_key INTEGER NOT NULL REFERENCES mz_elements(key) ON DELETE CASCADE,
    arc         INTEGER NOT NULL CHECK (arc BETWEEN 0 AND 4294967295),
    PRIMARY KEY (element_key, arc)
) STRICT, WITHOUT ROWID;

-- An element's traits in order. A trait's target and granter are traits of the same
-- element (deferred: a file may list them in any order).
CREATE TABLE mz_traits (
    element_key  INTEGER NOT NULL REFERENCES mz_elements(key) ON DELETE CASCADE,
    id           TEXT NOT NULL CHECK (length(id) = 36),
    position     INTEGER NOT NULL CHECK (position >= 0),
    kind         TEXT NOT NULL CHECK (kind IN ('edge', 'flaw', 'modifier', 'extra')),
    template     TEXT CHECK (template IN ('ability', 'asset', 'attractant', 'background', 'empowering_gift',
                     'repellent', 'resistance', 'signature_flaw', 'favored_flaw', 'plot_protection', 'trump',
                     'dulled_edge', 'impaired_ability', 'vulnerability', 'restraint', 'one_shot', 'transient_flaw',
                     'wound', 'treacherous_edge', 'phantom_edge', 'aptitude', 'cross_training',
                     'extraordinary_ability', 'focused', 'forte', 'specialty', 'versatile', 'fortified',
                     'asset_investment', 'empower_self', 'lingering_gift', 'shared_gift', 'empowering_flaw',
                     'corrosive_wound', 'targeted_wound', 'pervasive_wound', 'vicious_wound')),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    requirements TEXT NOT NULL CHECK (length(requirements) <= 2000),
    restrictions TEXT NOT NULL CHECK (length(restrictions) <= 2000),
    owner        TEXT NOT NULL CHECK (length(owner) <= 2000),
    target       TEXT NOT NULL CHECK (length(target) <= 2000),
    set_up       TEXT NOT NULL CHECK (length(set_up) <= 2000),
    effects      TEXT NOT NULL CHECK (length(effects) <= 2000),
    details      TEXT NOT NULL CHECK (length(details) <= 2000),
    target_trait TEXT CHECK (target_trait IS NULL OR length(target_trait) = 36),
    granted_by   TEXT CHECK (granted_by IS NULL OR length(granted_by) = 36),
    via          TEXT NOT NULL CHECK (via IN ('edge_slot', 'free_extra', 'unexpected_edge', 'boon', 'granted')),
    lasts        TEXT NOT NULL CHECK (lasts IN ('lasting', 'scene', 'next_challenge', 'challenge', 'arc')),
    -- Uses left of a trait of limited uses; NULL: unlimited.
    uses_left    INTEGER CHECK (uses_left BETWEEN 1 AND 4294967295),
    -- A template makes traits of one kind.
    CHECK (template IS NULL OR kind = CASE
        WHEN template IN ('ability', 'asset', 'attractant', 'background', 'empowering_gift', 'repellent',
            'resistance', 'signature_flaw', 'favored_flaw', 'plot_protection', 'trump') THEN 'edge'
        WHEN template IN ('dulled_edge', 'impaired_ability', 'vulnerability', 'restraint') THEN 'flaw'
        WHEN template IN ('one_shot', 'transient_flaw', 'wound', 'treacherous_edge', 'phantom_edge') THEN 'modifier'
        ELSE 'extra' END),
    CHECK (target_trait IS NOT id AND granted_by IS NOT id),
    -- Extras and modifiers are attached to a trait.
    CHECK (kind NOT IN ('extra', 'modifier') OR target_trait IS NOT NULL),
    -- Only edges (and extras bought as edges) fill slots, and last until lost.
    CHECK (via <> 'edge_slot'
        OR (kind IN ('edge', 'extra') AND lasts = 'lasting' AND uses_left IS NULL AND template IS NOT 'trump')),
    CHECK (via <> 'free_extra' OR kind = 'extra'),
    CHECK (via NOT IN ('unexpected_edge', 'boon') OR kind = 'edge'),
    PRIMARY KEY (element_key, id),
    UNIQUE (element_key, position),
    FOREIGN KEY (element_key, target_trait) REFERENCES mz_traits(element_key, id) DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (element_key, granted_by) REFERENCES mz_traits(element_key, id) DEFERRABLE INITIALLY DEFERRED
) STRICT;

INSERT INTO mz_elements (character_id, id, kind, name, adversity, adversity_debt, momentum, momentum_awards,
    in_challenge, protection_sacrificed, first_action_check, first_challenge, first_claim)
SELECT id, id, 'character', name, 0, 0, 0, 0, 0, 0, 0, 0, 0 FROM characters WHERE system = 'mezzo';
