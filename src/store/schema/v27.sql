-- Scattershot's Mechanix, audit D-SC5: the game's skill listings, in the Gamemaster's order:
-- each skill's difficulty and, when it has one, how to default to it (from a statistic or a
-- fixed rating, a modifier, and the Opportunity restriction that comes with defaulting).
CREATE TABLE sc_skill_listings (
    game_id             TEXT NOT NULL REFERENCES sc_tables(game_id) ON DELETE CASCADE,
    position            INTEGER NOT NULL CHECK (position BETWEEN 0 AND 199),
    name                TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
    difficulty          TEXT NOT NULL CHECK (difficulty IN ('easy', 'intermediate', 'difficult',
                            'exceptional', 'renowned', 'incredible', 'nigh_impossible', 'legendary')),
    -- With no default, the four below are all NULL; with one, the restriction is set and the
    -- default comes from exactly one of a statistic or a fixed rating.
    default_statistic   TEXT CHECK (default_statistic IN ('strength', 'agility', 'hit_points',
                            'reaction', 'observation', 'power')),
    default_rating      INTEGER CHECK (default_rating BETWEEN -99 AND 99),
    default_modifier    INTEGER CHECK (default_modifier BETWEEN -99 AND 99),
    default_restriction TEXT CHECK (length(trim(default_restriction)) BETWEEN 1 AND 300),
    CHECK ((default_restriction IS NULL AND default_statistic IS NULL AND default_rating IS NULL
                AND default_modifier IS NULL)
        OR (default_restriction IS NOT NULL AND default_modifier IS NOT NULL
                AND (default_statistic IS NULL) <> (default_rating IS NULL))),
    PRIMARY KEY (game_id, position)
) STRICT;
CREATE UNIQUE INDEX sc_skill_listings_names ON sc_skill_listings (game_id, lower(name));
