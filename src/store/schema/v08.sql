-- A Mezzo table's challenge (RULES.md §3.4): the one being played, or the last one (over)
-- until the next starts. Everything hangs off its `mz_challenges` row, one per table. Sides
-- are kept by position (a challenger's and a goal's side point at one); challengers in the
-- order they joined, with where they stand and, as ordered columns, whether they took their
-- major action this round, may still surrender at once and are leaving now; goals with
-- their supporters; major actions in order with their perks' state and their place in the
-- queue of open actions; the flaws this challenge inflicted; the Pushes a complication may
-- still counter; the momentum boosts waiting to be awarded with their targets.
--
-- Ruling: a declared perk not yet settled carries whole new traits (a Hinder's flaw, a
-- Damage's wound and extras), so it is kept as the rules' JSON in a column checked by
-- `json_valid` and whose `kind` must match the row's; once settled, its traits are real rows
-- of the target's element. Everything a player tracks stays in real columns.
CREATE TABLE mz_challenges (
    game_id     TEXT PRIMARY KEY NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    id          TEXT NOT NULL CHECK (length(id) = 36),
    description TEXT NOT NULL CHECK (length(description) <= 2000),
    round       INTEGER NOT NULL CHECK (round BETWEEN 1 AND 4294967295),
    over        INTEGER NOT NULL CHECK (over IN (0, 1))
) STRICT;

CREATE TABLE mz_challenge_sides (
    game_id  TEXT NOT NULL REFERENCES mz_challenges(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 7),
    name     TEXT NOT NULL CHECK (length(name) <= 2000),
    PRIMARY KEY (game_id, position)
) STRICT;

CREATE TABLE mz_challengers (
    game_id          TEXT NOT NULL REFERENCES mz_challenges(game_id) ON DELETE CASCADE,
    position         INTEGER NOT NULL CHECK (position BETWEEN 0 AND 31),
    element_id       TEXT NOT NULL CHECK (length(element_id) = 36),
    kind             TEXT NOT NULL CHECK (kind IN ('character', 'object', 'location', 'faction')),
    side             INTEGER NOT NULL,
    stake            TEXT CHECK (stake IS NULL OR length(trim(stake)) BETWEEN 1 AND 2000),
    status           TEXT NOT NULL CHECK (status IN ('in', 'leaving', 'left')),
    leave            TEXT CHECK (leave IN ('victory', 'defeat')),
    why              TEXT CHECK (why IN ('surrender', 'no_opponents', 'withdrawal', 'exile', 'locked_out',
                         'taken_out')),
    boosts_triggered INTEGER NOT NULL CHECK (boosts_triggered BETWEEN 0 AND 5),
    -- Its place among those that took their major action this round (NULL: not yet).
    acted            INTEGER CHECK (acted >= 0),
    -- Its place among those that just gained a wound or restraint and may surrender at once.
    may_surrender    INTEGER CHECK (may_surrender >= 0),
    -- Its place among the leavers whose departure is being resolved.
    leaving          INTEGER CHECK (leaving >= 0),
    CHECK ((status = 'in') = (leave IS NULL) AND (leave IS NULL) = (why IS NULL)),
    CHECK ((status = 'leaving') = (leaving IS NOT NULL)),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, element_id),
    UNIQUE (game_id, acted),
    UNIQUE (game_id, may_surrender),
    UNIQUE (game_id, leaving),
    FOREIGN KEY (game_id, side) REFERENCES mz_challenge_sides(game_id, position)
) STRICT;

CREATE TABLE mz_challenge_goals (
    game_id    TEXT NOT NULL REFERENCES mz_challenges(game_id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position >= 0),
    element_id TEXT NOT NULL CHECK (length(element_id) = 36),
    side       INTEGER NOT NULL,
    -- Its trumps triggered (no supporter was left).
    triggered  INTEGER NOT NULL CHECK (triggered IN (0, 1)),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, element_id),
    FOREIGN KEY (game_id, side) REFERENCES mz_challenge_sides(game_id, position)
) STRICT;

-- A goal's supporters, in order: challengers of its side, each once.
CREATE TABLE mz_challenge_supporters (
    game_id    TEXT NOT NULL,
    goal_id    TEXT NOT NULL,
    position   INTEGER NOT NULL CHECK (position >= 0),
    element_id TEXT NOT NULL,
    PRIMARY KEY (game_id, goal_id, position),
    UNIQUE (game_id, goal_id, element_id),
    FOREIGN KEY (game_id, goal_id) REFERENCES mz_challenge_goals(game_id, element_id) ON DELETE CASCADE,
    FOREIGN KEY (game_id, element_id) REFERENCES mz_challengers(game_id, element_id) ON DELETE CASCADE
) STRICT;

-- Major actions, in the order recorded.
CREATE TABLE mz_challenge_actions (
    game_id      TEXT NOT NULL REFERENCES mz_challenges(game_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    round        INTEGER NOT NULL CHECK (round BETWEEN 1 AND 4294967295),
    challenger   TEXT NOT NULL,
    -- The action check it was, if it came from one.
    check_id     TEXT CHECK (check_id IS NULL OR length(check_id) = 36),
    score        INTEGER NOT NULL CHECK (score BETWEEN 1 AND 4294967295),
    -- The highest opposing score.
    opposing     INTEGER NOT NULL CHECK (opposing BETWEEN 1 AND 4294967295),
    result       TEXT NOT NULL CHECK (result IN ('double_success', 'success', 'tie', 'failure')),
    major_perks  INTEGER NOT NULL,
    minor_perks  INTEGER NOT NULL,
    -- Major perks traded for two minor perks each.
    traded       INTEGER NOT NULL CHECK (traded BETWEEN 0 AND major_perks),
    -- How its perks were closed (NULL: open, or a failure that gave none).
    closed       TEXT CHECK (closed IN ('settled', 'countered', 'lapsed')),
    countered_by TEXT CHECK (countered_by IS NULL OR length(countered_by) = 36),
    -- Its place in the queue of actions whose perks are still open.
    open_at      INTEGER CHECK (open_at >= 0),
    -- The perks its result gives.
    CHECK (major_perks = CASE result WHEN 'double_success' THEN 2 WHEN 'success' THEN 1 ELSE 0 END),
    CHECK (minor_perks = (result = 'tie')),
    CHECK ((closed = 'countered') = (countered_by IS NOT NULL)),
    CHECK (open_at IS NULL OR (closed IS NULL AND result <> 'failure')),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, open_at),
    FOREIGN KEY (game_id, challenger) REFERENCES mz_challengers(game_id, element_id)
) STRICT;

-- The perks declared on an action, in order (see the ruling above).
CREATE TABLE mz_challenge_perks (
    game_id  TEXT NOT NULL,
    action   INTEGER NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 0),
    kind     TEXT NOT NULL CHECK (kind IN ('hinder', 'recover', 'discover', 'expose', 'bind', 'break_free',
                 'damage', 'heal', 'push', 'ruin')),
    perk     TEXT NOT NULL CHECK (json_valid(perk) AND json_extract(perk, '$.kind') = kind),
    PRIMARY KEY (game_id, action, position),
    FOREIGN KEY (game_id, action) REFERENCES mz_challenge_actions(game_id, position) ON DELETE CASCADE
) STRICT;

-- The flaws (wounds, restraints, minor flaws) this challenge's perks inflicted, in order.
CREATE TABLE mz_challenge_gained (
    game_id    TEXT NOT NULL,
    position   INTEGER NOT NULL CHECK (position >= 0),
    element_id TEXT NOT NULL,
    flaw_id    TEXT NOT NULL CHECK (length(flaw_id) = 36),
    PRIMARY KEY (game_id, position),
    FOREIGN KEY (game_id, element_id) REFERENCES mz_challengers(game_id, element_id) ON DELETE CASCADE
) STRICT;

-- Pushes a complication may still counter: the goal and the trump the Push added.
CREATE TABLE mz_challenge_counterable (
    game_id  TEXT NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 0),
    goal_id  TEXT NOT NULL,
    trump_id TEXT NOT NULL CHECK (length(trump_id) = 36),
    PRIMARY KEY (game_id, position),
    FOREIGN KEY (game_id, goal_id) REFERENCES mz_challenge_goals(game_id, element_id) ON DELETE CASCADE
) STRICT;

-- Momentum boosts triggered and not yet all awarded, the first one first: a challenger's
-- wounds and restraints, or a goal's trump.
CREATE TABLE mz_challenge_boosts (
    game_id      TEXT NOT NULL REFERENCES mz_challenges(game_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    owner        TEXT NOT NULL CHECK (owner IN ('challenger', 'trump')),
    -- The challenger, or the trump's goal.
    element_id   TEXT NOT NULL CHECK (length(element_id) = 36),
    trump_id     TEXT CHECK (trump_id IS NULL OR length(trump_id) = 36),
    -- Awards still to give, a point each.
    awards       INTEGER NOT NULL CHECK (awards BETWEEN 0 AND 4294967295),
    -- A trump waiting for the table to say how much it draws from its goal.
    draw_pending INTEGER NOT NULL CHECK (draw_pending IN (0, 1)),
    CHECK ((owner = 'trump') = (trump_id IS NOT NULL)),
    CHECK (draw_pending = 0 OR owner = 'trump'),
    PRIMARY KEY (game_id, position)
) STRICT;

-- A boost's target group, in order: challengers.
CREATE TABLE mz_challenge_boost_targets (
    game_id    TEXT NOT NULL,
    boost      INTEGER NOT NULL,
    position   INTEGER NOT NULL CHECK (position >= 0),
    element_id TEXT NOT NULL,
    PRIMARY KEY (game_id, boost, position),
    FOREIGN KEY (game_id, boost) REFERENCES mz_challenge_boosts(game_id, position) ON DELETE CASCADE,
    FOREIGN KEY (game_id, element_id) REFERENCES mz_challengers(game_id, element_id) ON DELETE CASCADE
) STRICT;
