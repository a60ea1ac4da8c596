-- Scattershot's Mechanix (RULES.md §4): a character's sheet — statistics' points, free
-- skills, skills, special abilities, advantages and disadvantages, what its resources lost,
-- its experience dice and creation stage — and each game's table: the Gamemaster's stock
-- and the mechanical play in progress (the settings it began with, the combatants in turn
-- order with what they used, the free actions' kinds, the results waiting for the lull).
-- The points spent are never stored: they are the sum of the points the rows hold.
CREATE TABLE sc_sheets (
    character_id        TEXT PRIMARY KEY NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    stage               TEXT NOT NULL CHECK (stage IN ('creation', 'play')),
    creation_limit      INTEGER CHECK (creation_limit BETWEEN 0 AND 4294967295),
    -- Development points bought into each statistic beyond its base of 10.
    strength            INTEGER NOT NULL CHECK (strength BETWEEN 0 AND 200),
    agility             INTEGER NOT NULL CHECK (agility BETWEEN 0 AND 200),
    hit_points          INTEGER NOT NULL CHECK (hit_points BETWEEN 0 AND 200),
    reaction            INTEGER NOT NULL CHECK (reaction BETWEEN 0 AND 200),
    observation         INTEGER NOT NULL CHECK (observation BETWEEN 0 AND 200),
    power               INTEGER NOT NULL CHECK (power BETWEEN 0 AND 200),
    -- What each resource lost below its maximum (the statistic's rating).
    hit_points_lost     INTEGER NOT NULL CHECK (hit_points_lost BETWEEN 0 AND 100000),
    power_lost          INTEGER NOT NULL CHECK (power_lost BETWEEN 0 AND 100000),
    experience_dice     INTEGER NOT NULL CHECK (experience_dice BETWEEN 0 AND 4294967295)
) STRICT;

CREATE TRIGGER sc_sheets_are_scattershot_characters BEFORE INSERT ON sc_sheets
WHEN (SELECT system FROM characters WHERE id = NEW.character_id) IS NOT 'scattershot'
BEGIN SELECT RAISE(ABORT, 'only a Scattershot character has a Scattershot sheet'); END;

CREATE TABLE sc_free_skills (
    character_id   TEXT NOT NULL REFERENCES sc_sheets(character_id) ON DELETE CASCADE,
    position       INTEGER NOT NULL CHECK (position BETWEEN 0 AND 199),
    name           TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
    starting_level INTEGER NOT NULL CHECK (starting_level BETWEEN -99 AND 99),
    raised         INTEGER NOT NULL CHECK (raised BETWEEN 0 AND 200),
    PRIMARY KEY (character_id, position)
) STRICT;

CREATE TABLE sc_skills (
    character_id TEXT NOT NULL REFERENCES sc_sheets(character_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 199),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
    difficulty   TEXT NOT NULL CHECK (difficulty IN ('easy', 'intermediate', 'difficult', 'exceptional',
                     'renowned', 'incredible', 'nigh_impossible', 'legendary')),
    -- Every rating costs at least 1 point.
    points       INTEGER NOT NULL CHECK (points BETWEEN 1 AND 200),
    PRIMARY KEY (character_id, position)
) STRICT;

-- Special abilities, tied to Power for how much they may affect.
CREATE TABLE sc_special_abilities (
    character_id TEXT NOT NULL REFERENCES sc_sheets(character_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 199),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
    kind         TEXT NOT NULL CHECK (kind IN ('superpower', 'magic', 'spell')),
    difficulty   TEXT NOT NULL CHECK (difficulty IN ('easy', 'intermediate', 'difficult', 'exceptional',
                     'renowned', 'incredible', 'nigh_impossible', 'legendary')),
    points       INTEGER NOT NULL CHECK (points BETWEEN 1 AND 200),
    notes        TEXT NOT NULL CHECK (length(notes) <= 2000),
    PRIMARY KEY (character_id, position)
) STRICT;

-- Advantages (bought, a residual modifier of 0 or more) and disadvantages (free, 0 or less).
CREATE TABLE sc_qualities (
    character_id TEXT NOT NULL REFERENCES sc_sheets(character_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 199),
    kind         TEXT NOT NULL CHECK (kind IN ('advantage', 'disadvantage')),
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
    situation    TEXT NOT NULL CHECK (length(situation) <= 2000),
    modifier     INTEGER NOT NULL,
    points       INTEGER NOT NULL,
    CHECK ((kind = 'advantage' AND modifier BETWEEN 0 AND 99 AND points BETWEEN 1 AND 200)
        OR (kind = 'disadvantage' AND modifier BETWEEN -99 AND 0 AND points = 0)),
    PRIMARY KEY (character_id, position)
) STRICT;

CREATE TABLE sc_tables (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    -- The Gamemaster's common stock of experience dice.
    gm_dice INTEGER NOT NULL CHECK (gm_dice BETWEEN 0 AND 4294967295)
) STRICT;

CREATE TRIGGER sc_tables_are_scattershot_games BEFORE INSERT ON sc_tables
WHEN (SELECT system FROM games WHERE id = NEW.game_id) IS NOT 'scattershot'
BEGIN SELECT RAISE(ABORT, 'only a Scattershot game has a Scattershot table'); END;

-- Mechanical play in progress (one per game), with the table settings it began with.
CREATE TABLE sc_play (
    game_id                   TEXT PRIMARY KEY NOT NULL REFERENCES sc_tables(game_id) ON DELETE CASCADE,
    cinematic                 INTEGER NOT NULL CHECK (cinematic IN (0, 1)),
    round                     INTEGER NOT NULL CHECK (round BETWEEN 1 AND 4294967295),
    turn                      INTEGER NOT NULL CHECK (turn BETWEEN 0 AND 99),
    actions_used              INTEGER NOT NULL CHECK (actions_used BETWEEN 0 AND 2),
    epic_index                INTEGER NOT NULL CHECK (epic_index BETWEEN 1 AND 20),
    critical_juncture         INTEGER NOT NULL CHECK (critical_juncture BETWEEN 1 AND 30),
    experience_die            INTEGER NOT NULL CHECK (experience_die BETWEEN 2 AND 20),
    experience_dice_per_point INTEGER NOT NULL CHECK (experience_dice_per_point BETWEEN 1 AND 20)
) STRICT;

-- The characters in mechanical play, in turn order (position 0 called for it).
CREATE TABLE sc_combatants (
    game_id      TEXT NOT NULL REFERENCES sc_play(game_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 99),
    character_id TEXT NOT NULL CHECK (length(character_id) = 36),
    player_id    TEXT NOT NULL CHECK (length(player_id) = 36),
    -- Actions forfeited from its next turn, and forfeits this round (each at most 2).
    forfeited    INTEGER NOT NULL CHECK (forfeited BETWEEN 0 AND 2),
    forfeits     INTEGER NOT NULL CHECK (forfeits BETWEEN 0 AND 2),
    -- Free actions used in the current cycle (at most the Epic Index).
    free_actions INTEGER NOT NULL CHECK (free_actions BETWEEN 0 AND 20),
    second_cycle INTEGER NOT NULL CHECK (second_cycle IN (0, 1)),
    -- The foe it has engaged and the combat advantages it holds against it.
    engaged      TEXT CHECK (engaged IS NULL OR length(engaged) = 36),
    advantages   INTEGER NOT NULL CHECK (advantages BETWEEN 0 AND 20),
    CHECK (engaged IS NOT character_id),
    CHECK (engaged IS NOT NULL OR advantages = 0),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, character_id)
) STRICT;

-- The kinds of free action a combatant used this round, in order.
CREATE TABLE sc_free_kinds (
    game_id   TEXT NOT NULL,
    combatant INTEGER NOT NULL,
    position  INTEGER NOT NULL CHECK (position BETWEEN 0 AND 39),
    kind      TEXT NOT NULL CHECK (length(trim(kind)) BETWEEN 1 AND 200),
    PRIMARY KEY (game_id, combatant, position),
    FOREIGN KEY (game_id, combatant) REFERENCES sc_combatants(game_id, position) ON DELETE CASCADE
) STRICT;

-- Results (MIB × Factor off a resource) waiting for the lull, in the order recorded.
CREATE TABLE sc_pending_results (
    game_id  TEXT NOT NULL REFERENCES sc_play(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 9999),
    target   TEXT NOT NULL CHECK (length(target) = 36),
    resource TEXT NOT NULL CHECK (resource IN ('hit_points', 'power')),
    amount   INTEGER NOT NULL CHECK (amount BETWEEN 0 AND 100000),
    PRIMARY KEY (game_id, position)
) STRICT;
