//! The schema, as migrations that only grow. `user_version` counts the ones applied.

use rusqlite_migration::{Migrations, M};

const V1: &str = r#"
CREATE TABLE games (
    id         TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    name       TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    system     TEXT NOT NULL CHECK (system IN ('nsu', 'penny_ante', 'mezzo', 'scattershot')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

-- A game is played in one system for its whole life.
CREATE TRIGGER games_keep_their_system BEFORE UPDATE OF system ON games
WHEN NEW.system <> OLD.system
BEGIN SELECT RAISE(ABORT, 'a game''s system cannot change'); END;

CREATE TABLE table_settings (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    name    TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    value   INTEGER NOT NULL,
    PRIMARY KEY (game_id, name)
) STRICT;

CREATE TABLE characters (
    id         TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    system     TEXT NOT NULL CHECK (system IN ('nsu', 'penny_ante', 'mezzo', 'scattershot')),
    name       TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    revision   INTEGER NOT NULL CHECK (revision >= 1)
) STRICT;
CREATE INDEX characters_by_game ON characters (game_id);

-- A character plays in its game's system.
CREATE TRIGGER characters_match_game_on_insert BEFORE INSERT ON characters
WHEN NEW.system IS NOT (SELECT system FROM games WHERE id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'a character''s system must be its game''s system'); END;
CREATE TRIGGER characters_match_game_on_update BEFORE UPDATE OF game_id, system ON characters
WHEN NEW.system IS NOT (SELECT system FROM games WHERE id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'a character''s system must be its game''s system'); END;

-- The append-only log of every change. game_id and character_id are not foreign keys:
-- the log outlives what it describes, which is how a deletion can be undone.
CREATE TABLE events (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    at           TEXT NOT NULL,
    game_id      TEXT NOT NULL CHECK (length(game_id) = 36),
    character_id TEXT CHECK (character_id IS NULL OR length(character_id) = 36),
    kind         TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
    undoes       INTEGER REFERENCES events(seq),
    -- For an undo: the latest change still live below the one it undid (NULL: none), so the
    -- next undo finds its target in one step however many undone changes lie between.
    resumes      INTEGER REFERENCES events(seq),
    payload      TEXT NOT NULL CHECK (json_valid(payload))
) STRICT;
CREATE INDEX events_by_character ON events (character_id, seq) WHERE character_id IS NOT NULL;
CREATE INDEX events_by_game ON events (game_id, seq);
CREATE INDEX events_of_game_itself ON events (game_id, seq) WHERE character_id IS NULL;
CREATE UNIQUE INDEX events_undone_once ON events (undoes) WHERE undoes IS NOT NULL;

CREATE TRIGGER events_are_not_updated BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER events_are_not_deleted BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"#;

/// No Stone Unturned sheets (RULES.md §1.1): one row per sheet, per mood line, skill line,
/// sentiment line and detail, each with the rule it must keep as a CHECK.
const V2: &str = r#"
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
"#;

/// The world of a No Stone Unturned game (RULES.md §1.5) and the downtime phase in progress
/// (§1.4). Everything a player tracks is a column with its rule as a CHECK; lists keep their
/// order in a `position` column. The downtime tables name locations by id without a foreign
/// key, because the world is written whole (its rows deleted and inserted again) on every
/// change, which must not take the phase with it.
const V3: &str = r#"
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
"#;

const V4: &str = r#"
-- NPCs the table writes details onto after a roll, in the order they were added.
CREATE TABLE nsu_npcs (
    id       TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    name     TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    UNIQUE (game_id, position)
) STRICT;

CREATE TABLE nsu_npc_details (
    npc_id   TEXT NOT NULL REFERENCES nsu_npcs(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    text     TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    positive INTEGER NOT NULL CHECK (positive IN (0, 1)),
    PRIMARY KEY (npc_id, position)
) STRICT;
"#;

/// Penny Ante (RULES.md §2): a character's characteristics, and each game's table — the
/// adventure, the penny ledger, debts, loans, antagonists and the challenge being played
/// (or the last one). An account is a kind and an id (no id for the Bank and the House).
/// Ledger, debt and loan rows name characters without a foreign key: a deleted character's
/// history stays. Everything of a table hangs off its `pa_tables` row, which is only ever
/// upserted (a REPLACE would cascade-delete the ledger).
const V5: &str = r#"
CREATE TABLE pa_sheets (
    character_id TEXT PRIMARY KEY NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    -- Characteristics paid for at another table before the character came here.
    carried      INTEGER NOT NULL DEFAULT 0 CHECK (carried >= 0)
) STRICT;

-- The first characteristic is free; each further one was bought for 5 pennies.
CREATE TABLE pa_characteristics (
    character_id TEXT NOT NULL REFERENCES pa_sheets(character_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    text         TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 200),
    PRIMARY KEY (character_id, position),
    UNIQUE (character_id, text)
) STRICT;

CREATE TRIGGER pa_sheets_for_penny_ante_characters BEFORE INSERT ON pa_sheets
WHEN (SELECT system FROM characters WHERE id = NEW.character_id) IS NOT 'penny_ante'
BEGIN SELECT RAISE(ABORT, 'only a Penny Ante character has a Penny Ante sheet'); END;

-- One row per Penny Ante game that has a table: the adventures played.
CREATE TABLE pa_tables (
    game_id   TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    adventure INTEGER NOT NULL CHECK (adventure BETWEEN 0 AND 4294967295),
    running   INTEGER NOT NULL CHECK (running IN (0, 1)),
    -- A running adventure has been started, so it has a number.
    CHECK (running = 0 OR adventure >= 1)
) STRICT;

CREATE TRIGGER pa_tables_for_penny_ante_games BEFORE INSERT ON pa_tables
WHEN (SELECT system FROM games WHERE id = NEW.game_id) IS NOT 'penny_ante'
BEGIN SELECT RAISE(ABORT, 'only a Penny Ante game has a penny table'); END;

-- Every penny that moved, in order (seq 0, 1, 2… per game). Piles are sums of these rows.
CREATE TABLE pa_ledger (
    game_id      TEXT NOT NULL REFERENCES pa_tables(game_id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL CHECK (seq >= 0),
    from_kind    TEXT NOT NULL CHECK (from_kind IN ('bank', 'character', 'house', 'antagonist', 'pot')),
    from_id      TEXT CHECK (from_id IS NULL OR length(from_id) = 36),
    to_kind      TEXT NOT NULL CHECK (to_kind IN ('bank', 'character', 'house', 'antagonist', 'pot')),
    to_id        TEXT CHECK (to_id IS NULL OR length(to_id) = 36),
    amount       INTEGER NOT NULL CHECK (amount BETWEEN 1 AND 1000000000),
    reason       TEXT NOT NULL CHECK (reason IN ('starting_pennies', 'characteristic_bought', 'house_funding',
                     'house_returned', 'carried_in', 'antagonist_funding', 'purse_returned', 'ante', 'wager',
                     'pot_won', 'wager_returned', 'loan', 'loan_repaid', 'debt_recorded', 'debt_repaid', 'buyout')),
    challenge_id TEXT CHECK (challenge_id IS NULL OR length(challenge_id) = 36),
    -- The Bank and the House have no id; every other account has one.
    CHECK ((from_kind IN ('bank', 'house')) = (from_id IS NULL)),
    CHECK ((to_kind IN ('bank', 'house')) = (to_id IS NULL)),
    -- No account pays itself.
    CHECK (from_kind <> to_kind OR from_id IS NOT to_id),
    -- A pot belongs to its challenge.
    CHECK (from_kind <> 'pot' OR from_id IS challenge_id),
    CHECK (to_kind <> 'pot' OR to_id IS challenge_id),
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

-- Debts still open (§2.4), in the order they were recorded.
CREATE TABLE pa_debts (
    game_id       TEXT NOT NULL REFERENCES pa_tables(game_id) ON DELETE CASCADE,
    position      INTEGER NOT NULL CHECK (position >= 0),
    debtor_kind   TEXT NOT NULL CHECK (debtor_kind IN ('character', 'house', 'antagonist')),
    debtor_id     TEXT CHECK (debtor_id IS NULL OR length(debtor_id) = 36),
    creditor_kind TEXT NOT NULL CHECK (creditor_kind IN ('character', 'house', 'antagonist')),
    creditor_id   TEXT CHECK (creditor_id IS NULL OR length(creditor_id) = 36),
    amount        INTEGER NOT NULL CHECK (amount >= 1),
    CHECK ((debtor_kind = 'house') = (debtor_id IS NULL)),
    CHECK ((creditor_kind = 'house') = (creditor_id IS NULL)),
    CHECK (debtor_kind <> creditor_kind OR debtor_id IS NOT creditor_id),
    PRIMARY KEY (game_id, position)
) STRICT;

-- Loans made in challenges (§2.3, Lending): repaid 0..=amount.
CREATE TABLE pa_loans (
    game_id       TEXT NOT NULL REFERENCES pa_tables(game_id) ON DELETE CASCADE,
    position      INTEGER NOT NULL CHECK (position >= 0),
    id            TEXT NOT NULL CHECK (length(id) = 36),
    lender_kind   TEXT NOT NULL CHECK (lender_kind IN ('character', 'house', 'antagonist')),
    lender_id     TEXT CHECK (lender_id IS NULL OR length(lender_id) = 36),
    borrower_kind TEXT NOT NULL CHECK (borrower_kind IN ('character', 'house', 'antagonist')),
    borrower_id   TEXT CHECK (borrower_id IS NULL OR length(borrower_id) = 36),
    amount        INTEGER NOT NULL CHECK (amount BETWEEN 1 AND 1000000000),
    repaid        INTEGER NOT NULL CHECK (repaid BETWEEN 0 AND amount),
    challenge_id  TEXT CHECK (challenge_id IS NULL OR length(challenge_id) = 36),
    adventure     INTEGER NOT NULL CHECK (adventure BETWEEN 0 AND 4294967295),
    flagged       INTEGER NOT NULL CHECK (flagged IN (0, 1)),
    CHECK ((lender_kind = 'house') = (lender_id IS NULL)),
    CHECK ((borrower_kind = 'house') = (borrower_id IS NULL)),
    CHECK (lender_kind <> borrower_kind OR lender_id IS NOT borrower_id),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, id)
) STRICT;

CREATE TABLE pa_antagonists (
    game_id  TEXT NOT NULL REFERENCES pa_tables(game_id) ON DELETE CASCADE,
    id       TEXT NOT NULL CHECK (length(id) = 36),
    position INTEGER NOT NULL CHECK (position >= 0),
    name     TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 120),
    PRIMARY KEY (game_id, id),
    UNIQUE (game_id, position)
) STRICT;

-- An antagonist's characteristics in order; the House may keep some hidden.
CREATE TABLE pa_antagonist_characteristics (
    game_id       TEXT NOT NULL,
    antagonist_id TEXT NOT NULL,
    position      INTEGER NOT NULL CHECK (position >= 0),
    text          TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 200),
    hidden        INTEGER NOT NULL CHECK (hidden IN (0, 1)),
    PRIMARY KEY (game_id, antagonist_id, position),
    UNIQUE (game_id, antagonist_id, text),
    FOREIGN KEY (game_id, antagonist_id) REFERENCES pa_antagonists(game_id, id) ON DELETE CASCADE
) STRICT;

-- The challenge being played, or the last one played, at most one per game (§2.3).
CREATE TABLE pa_challenges (
    game_id           TEXT PRIMARY KEY NOT NULL REFERENCES pa_tables(game_id) ON DELETE CASCADE,
    id                TEXT NOT NULL CHECK (length(id) = 36),
    stake             TEXT NOT NULL CHECK (length(trim(stake)) >= 1 AND length(stake) <= 200),
    ante              INTEGER NOT NULL CHECK (ante BETWEEN 1 AND 1000000000),
    -- An anonymous challenge: what the antagonist devotes, at least the ante.
    devoted           INTEGER CHECK (devoted >= ante),
    phase             TEXT NOT NULL CHECK (phase IN ('circumstances', 'characteristics', 'roll', 'betting1',
                          'new_circumstances', 'reroll', 'betting2', 'after_loss', 'over')),
    turn              TEXT CHECK (turn IN ('challenger', 'opponent')),
    -- The loan offer waiting for an answer: all of it or none (see the CHECKs below).
    offer_id          TEXT CHECK (offer_id IS NULL OR length(offer_id) = 36),
    offer_lender_kind TEXT CHECK (offer_lender_kind IN ('character', 'house', 'antagonist')),
    offer_lender_id   TEXT CHECK (offer_lender_id IS NULL OR length(offer_lender_id) = 36),
    offer_side        TEXT CHECK (offer_side IN ('challenger', 'opponent')),
    offer_amount      INTEGER CHECK (offer_amount BETWEEN 1 AND 1000000000),
    -- How it ended: outcome_pot is NULL until it has. The hands are on pa_challenge_sides.
    outcome_pot       INTEGER CHECK (outcome_pot >= 0),
    winner            TEXT CHECK (winner IN ('challenger', 'opponent')),
    folded            TEXT CHECK (folded IN ('challenger', 'opponent')),
    narrator          TEXT CHECK (narrator IN ('challenger', 'opponent')),
    CHECK ((offer_id IS NULL) = (offer_lender_kind IS NULL)
       AND (offer_id IS NULL) = (offer_side IS NULL)
       AND (offer_id IS NULL) = (offer_amount IS NULL)),
    CHECK (offer_lender_kind IS NULL OR (offer_lender_kind = 'house') = (offer_lender_id IS NULL)),
    CHECK (offer_lender_kind IS NOT NULL OR offer_lender_id IS NULL),
    CHECK (outcome_pot IS NOT NULL OR (winner IS NULL AND folded IS NULL AND narrator IS NULL)),
    -- After a loss there is a winner, whose losers choose debt or a buyout.
    CHECK (phase <> 'after_loss' OR winner IS NOT NULL)
) STRICT;

-- Each side's state; the hand it scored at the showdown, if there was one.
CREATE TABLE pa_challenge_sides (
    game_id       TEXT NOT NULL REFERENCES pa_challenges(game_id) ON DELETE CASCADE,
    side          TEXT NOT NULL CHECK (side IN ('challenger', 'opponent')),
    cup_chosen    INTEGER NOT NULL CHECK (cup_chosen IN (0, 1)),
    wager         INTEGER NOT NULL CHECK (wager >= 0),
    doubled       INTEGER NOT NULL CHECK (doubled >= 0),
    all_in        INTEGER NOT NULL CHECK (all_in IN (0, 1)),
    done          INTEGER NOT NULL CHECK (done IN (0, 1)),
    hand_score    INTEGER CHECK (hand_score BETWEEN 0 AND 50),
    hand_category TEXT CHECK (hand_category IN ('chance', 'full_house', 'small_straight', 'large_straight',
                      'five_of_a_kind')),
    CHECK ((hand_score IS NULL) = (hand_category IS NULL)),
    PRIMARY KEY (game_id, side)
) STRICT;

-- Who is on each side and what each paid into the pot ('members'), and the members who
-- lost everything at the showdown or fold ('lost', §2.4).
CREATE TABLE pa_challenge_members (
    game_id  TEXT NOT NULL,
    side     TEXT NOT NULL,
    list     TEXT NOT NULL CHECK (list IN ('members', 'lost')),
    position INTEGER NOT NULL CHECK (position >= 0),
    kind     TEXT NOT NULL CHECK (kind IN ('character', 'house', 'antagonist')),
    id       TEXT CHECK (id IS NULL OR length(id) = 36),
    paid     INTEGER NOT NULL CHECK (paid >= 0),
    CHECK ((kind = 'house') = (id IS NULL)),
    PRIMARY KEY (game_id, side, list, position),
    FOREIGN KEY (game_id, side) REFERENCES pa_challenge_sides(game_id, side) ON DELETE CASCADE
) STRICT;

-- The characteristics each side declared (at most five).
CREATE TABLE pa_challenge_used (
    game_id    TEXT NOT NULL,
    side       TEXT NOT NULL,
    position   INTEGER NOT NULL CHECK (position BETWEEN 0 AND 4),
    owner_kind TEXT NOT NULL CHECK (owner_kind IN ('character', 'house', 'antagonist')),
    owner_id   TEXT CHECK (owner_id IS NULL OR length(owner_id) = 36),
    text       TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 200),
    CHECK ((owner_kind = 'house') = (owner_id IS NULL)),
    PRIMARY KEY (game_id, side, position),
    FOREIGN KEY (game_id, side) REFERENCES pa_challenge_sides(game_id, side) ON DELETE CASCADE
) STRICT;

-- A side's own dice ('rolled', at most six, each in its cup or revealed) and the five (or
-- fewer) dice of the hand it scored ('hand').
CREATE TABLE pa_challenge_dice (
    game_id  TEXT NOT NULL,
    side     TEXT NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('rolled', 'hand')),
    position INTEGER NOT NULL CHECK (position >= 0),
    face     INTEGER NOT NULL CHECK (face BETWEEN 1 AND 6),
    in_cup   INTEGER CHECK (in_cup IN (0, 1)),
    CHECK ((kind = 'rolled') = (in_cup IS NOT NULL)),
    CHECK (kind = 'rolled' OR position < 5),
    PRIMARY KEY (game_id, side, kind, position),
    FOREIGN KEY (game_id, side) REFERENCES pa_challenge_sides(game_id, side) ON DELETE CASCADE
) STRICT;

-- The dice in the middle, in the order they were named.
CREATE TABLE pa_challenge_circumstances (
    game_id  TEXT NOT NULL REFERENCES pa_challenges(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    name     TEXT NOT NULL CHECK (length(trim(name)) >= 1 AND length(name) <= 200),
    by_side  TEXT NOT NULL CHECK (by_side IN ('challenger', 'opponent')),
    die      INTEGER NOT NULL CHECK (die BETWEEN 1 AND 6),
    -- The side barred from it: the other side of one who doubled down on it.
    barred   TEXT CHECK (barred IN ('challenger', 'opponent')),
    CHECK (barred IS NULL OR barred <> by_side),
    PRIMARY KEY (game_id, position)
) STRICT;

-- Who offered a loan in the current betting phase.
CREATE TABLE pa_challenge_lenders (
    game_id  TEXT NOT NULL REFERENCES pa_challenges(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    kind     TEXT NOT NULL CHECK (kind IN ('character', 'house', 'antagonist')),
    id       TEXT CHECK (id IS NULL OR length(id) = 36),
    CHECK ((kind = 'house') = (id IS NULL)),
    PRIMARY KEY (game_id, position)
) STRICT;

-- Buyout bids after a loss (§2.4).
CREATE TABLE pa_challenge_bids (
    game_id     TEXT NOT NULL REFERENCES pa_challenges(game_id) ON DELETE CASCADE,
    position    INTEGER NOT NULL CHECK (position >= 0),
    bidder_kind TEXT NOT NULL CHECK (bidder_kind IN ('character', 'house', 'antagonist')),
    bidder_id   TEXT CHECK (bidder_id IS NULL OR length(bidder_id) = 36),
    amount      INTEGER NOT NULL CHECK (amount >= 1),
    CHECK ((bidder_kind = 'house') = (bidder_id IS NULL)),
    PRIMARY KEY (game_id, position)
) STRICT;
"#;

/// Mezzo (RULES.md §3.1): each game's table — the arc, the players with their influence,
/// roles and claims — and the story elements with their traits. A character's element is
/// its sheet (`character_id`); a table's other elements (objects, locations, factions,
/// goals) hang off its `mz_tables` row (`game_id`). Elements are keyed by a row number so
/// that both kinds share the traits and awards tables. Claims name characters without a
/// foreign key, like the Penny Ante ledger: the characters' own rows say who claims them.
/// Every Mezzo character existing before this version gets an empty sheet.
const V6: &str = r#"
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
"#;

/// Mezzo plot hooks and arcs (RULES.md §3.5) and the seed deck (§3.6), hanging off each
/// game's `mz_tables` row (whose `arc` is the arc's number). A hook's points are kept one row
/// per investment, in order, naming the investor and the kind; the arc's Turning Point with
/// its challengers, hooks and themes; No Escape targets; the deck's cards one row each,
/// naming where the card lies (a pile, a player's hand, active or depleted cards, the
/// inspiration card or the one shown) and its place there; links between cards in play; the
/// players who may still refresh; and the keyword die, one row per face. Players, elements
/// and challenges are named without foreign keys, like claims: a player who leaves keeps
/// their investments and cards on record.
const V7: &str = r#"
CREATE TABLE mz_hooks (
    game_id  TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    id       TEXT NOT NULL CHECK (length(id) = 36),
    position INTEGER NOT NULL CHECK (position >= 0),
    -- The focus: a question, goal or statement.
    text     TEXT NOT NULL CHECK (length(trim(text)) BETWEEN 1 AND 500),
    -- The player who made it.
    creator  TEXT NOT NULL CHECK (length(creator) = 36),
    PRIMARY KEY (game_id, id),
    UNIQUE (game_id, position)
) STRICT;

-- Hooks exist only once the first arc started.
CREATE TRIGGER mz_hooks_in_an_arc BEFORE INSERT ON mz_hooks
WHEN (SELECT arc FROM mz_tables WHERE game_id = NEW.game_id) = 0
BEGIN SELECT RAISE(ABORT, 'a plot hook belongs to an arc: start the first arc'); END;

-- The elements a hook's focus is about, in order, each once.
CREATE TABLE mz_hook_elements (
    game_id    TEXT NOT NULL,
    hook_id    TEXT NOT NULL,
    position   INTEGER NOT NULL CHECK (position >= 0),
    element_id TEXT NOT NULL CHECK (length(element_id) = 36),
    PRIMARY KEY (game_id, hook_id, position),
    UNIQUE (game_id, hook_id, element_id),
    FOREIGN KEY (game_id, hook_id) REFERENCES mz_hooks(game_id, id) ON DELETE CASCADE
) STRICT;

-- A hook's stored points: one row per investment, oldest first; influence is a player's,
-- adversity and momentum an element's.
CREATE TABLE mz_hook_points (
    game_id  TEXT NOT NULL,
    hook_id  TEXT NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 0),
    investor TEXT NOT NULL CHECK (length(investor) = 36),
    resource TEXT NOT NULL CHECK (resource IN ('influence', 'adversity', 'momentum')),
    points   INTEGER NOT NULL CHECK (points BETWEEN 1 AND 10000),
    PRIMARY KEY (game_id, hook_id, position),
    FOREIGN KEY (game_id, hook_id) REFERENCES mz_hooks(game_id, id) ON DELETE CASCADE
) STRICT;

-- A hook holds at most 10000 points of a kind.
CREATE TRIGGER mz_hook_points_within_the_limit BEFORE INSERT ON mz_hook_points
WHEN NEW.points + (SELECT coalesce(sum(points), 0) FROM mz_hook_points
    WHERE game_id = NEW.game_id AND hook_id = NEW.hook_id AND resource = NEW.resource) > 10000
BEGIN SELECT RAISE(ABORT, 'a plot hook holds at most 10000 points of a kind'); END;

-- The arc's Turning Point, once reached: the challenge it came in.
CREATE TABLE mz_turning_points (
    game_id      TEXT PRIMARY KEY NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    challenge_id TEXT NOT NULL CHECK (length(challenge_id) = 36)
) STRICT;

-- That challenge's challengers, who may set the arc's themes, each once.
CREATE TABLE mz_turning_point_challengers (
    game_id    TEXT NOT NULL REFERENCES mz_turning_points(game_id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position >= 0),
    element_id TEXT NOT NULL CHECK (length(element_id) = 36),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, element_id)
) STRICT;

-- The hooks tied into it (resolved ones stay named).
CREATE TABLE mz_turning_point_hooks (
    game_id  TEXT NOT NULL REFERENCES mz_turning_points(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    hook_id  TEXT NOT NULL CHECK (length(hook_id) = 36),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, hook_id)
) STRICT;

-- The arc's themes: at most one by each of the Turning Point's challengers.
CREATE TABLE mz_themes (
    game_id  TEXT NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 0),
    by_id    TEXT NOT NULL,
    text     TEXT NOT NULL CHECK (length(trim(text)) BETWEEN 1 AND 500),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, by_id),
    FOREIGN KEY (game_id, by_id) REFERENCES mz_turning_point_challengers(game_id, element_id) ON DELETE CASCADE
) STRICT;

-- No Escape targets of challenges not over yet: one per challenger per challenge.
CREATE TABLE mz_no_escape (
    game_id      TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    challenge_id TEXT NOT NULL CHECK (length(challenge_id) = 36),
    by_id        TEXT NOT NULL CHECK (length(by_id) = 36),
    target_id    TEXT NOT NULL CHECK (length(target_id) = 36),
    -- The 2 momentum were spent: the target's Plot Protection is ignored.
    used         INTEGER NOT NULL CHECK (used IN (0, 1)),
    CHECK (by_id <> target_id),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, challenge_id, by_id)
) STRICT;

-- The seed deck of a table.
CREATE TABLE mz_decks (
    game_id      TEXT PRIMARY KEY NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    -- Sessions started (0 before the first).
    session      INTEGER NOT NULL CHECK (session BETWEEN 0 AND 4294967295),
    -- The session's initial draw is open.
    initial_draw INTEGER NOT NULL CHECK (initial_draw IN (0, 1))
) STRICT;

-- The players at the deck, in the order they joined.
CREATE TABLE mz_deck_players (
    game_id   TEXT NOT NULL REFERENCES mz_decks(game_id) ON DELETE CASCADE,
    player_id TEXT NOT NULL CHECK (length(player_id) = 36),
    position  INTEGER NOT NULL CHECK (position >= 0),
    -- May still discard one card and draw one at this end of a scene or challenge, in order.
    refresh   INTEGER CHECK (refresh >= 0),
    PRIMARY KEY (game_id, player_id),
    UNIQUE (game_id, position),
    UNIQUE (game_id, refresh)
) STRICT;

-- Every card of a deck, once, where it lies: the draw pile (the top card last), the discard
-- pile (the latest last), a player's hand, active cards (marked once linked) or depleted
-- cards, the inspiration card or the inspiration draw shown to all.
CREATE TABLE mz_cards (
    game_id   TEXT NOT NULL REFERENCES mz_decks(game_id) ON DELETE CASCADE,
    id        TEXT NOT NULL CHECK (length(id) = 36),
    text      TEXT NOT NULL CHECK (length(trim(text)) BETWEEN 1 AND 500),
    place     TEXT NOT NULL CHECK (place IN ('draw_pile', 'discard', 'hand', 'active', 'depleted', 'inspiration',
                  'shown')),
    player_id TEXT,
    position  INTEGER NOT NULL CHECK (position >= 0),
    linked    INTEGER NOT NULL CHECK (linked IN (0, 1)),
    CHECK ((player_id IS NOT NULL) = (place IN ('hand', 'active', 'depleted'))),
    CHECK (linked = 0 OR place = 'active'),
    CHECK (place NOT IN ('inspiration', 'shown') OR position = 0),
    PRIMARY KEY (game_id, id),
    FOREIGN KEY (game_id, player_id) REFERENCES mz_deck_players(game_id, player_id)
) STRICT;
CREATE UNIQUE INDEX mz_cards_in_order ON mz_cards (game_id, place, coalesce(player_id, ''), position);

-- Two cards in play tied by a common bond, in the order linked.
CREATE TABLE mz_card_links (
    game_id  TEXT NOT NULL REFERENCES mz_decks(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    -- The player who made it.
    by_id    TEXT NOT NULL,
    card_id  TEXT NOT NULL,
    to_id    TEXT NOT NULL,
    CHECK (card_id <> to_id),
    PRIMARY KEY (game_id, position),
    FOREIGN KEY (game_id, by_id) REFERENCES mz_deck_players(game_id, player_id),
    FOREIGN KEY (game_id, card_id) REFERENCES mz_cards(game_id, id),
    FOREIGN KEY (game_id, to_id) REFERENCES mz_cards(game_id, id)
) STRICT;

-- Only cards in play (active, or the inspiration card) are linked.
CREATE TRIGGER mz_card_links_join_cards_in_play BEFORE INSERT ON mz_card_links
WHEN (SELECT place FROM mz_cards WHERE game_id = NEW.game_id AND id = NEW.card_id) NOT IN ('active', 'inspiration')
  OR (SELECT place FROM mz_cards WHERE game_id = NEW.game_id AND id = NEW.to_id) NOT IN ('active', 'inspiration')
BEGIN SELECT RAISE(ABORT, 'only cards in play are linked'); END;

-- The keyword die of the seed deck's dice variant.
CREATE TABLE mz_keyword_dice (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    sides   INTEGER NOT NULL CHECK (sides IN (4, 6, 8, 10, 12, 20)),
    UNIQUE (game_id, sides)
) STRICT;

-- A keyword per face.
CREATE TABLE mz_keyword_faces (
    game_id TEXT NOT NULL,
    sides   INTEGER NOT NULL,
    face    INTEGER NOT NULL CHECK (face BETWEEN 1 AND sides),
    keyword TEXT NOT NULL CHECK (length(trim(keyword)) BETWEEN 1 AND 500),
    PRIMARY KEY (game_id, face),
    FOREIGN KEY (game_id, sides) REFERENCES mz_keyword_dice(game_id, sides) ON DELETE CASCADE
) STRICT;
"#;

/// A Mezzo table's challenge (RULES.md §3.4): the one being played, or the last one (over)
/// until the next starts. Everything hangs off its `mz_challenges` row, one per table. Sides
/// are kept by position (a challenger's and a goal's side point at one); challengers in the
/// order they joined, with where they stand and, as ordered columns, whether they took their
/// major action this round, may still surrender at once and are leaving now; goals with
/// their supporters; major actions in order with their perks' state and their place in the
/// queue of open actions; the flaws this challenge inflicted; the Pushes a complication may
/// still counter; the momentum boosts waiting to be awarded with their targets.
///
/// Ruling: a declared perk not yet settled carries whole new traits (a Hinder's flaw, a
/// Damage's wound and extras), so it is kept as the rules' JSON in a column checked by
/// `json_valid` and whose `kind` must match the row's; once settled, its traits are real rows
/// of the target's element. Everything a player tracks stays in real columns.
const V8: &str = r#"
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
"#;

/// Scattershot's Mechanix (RULES.md §4): a character's sheet — statistics' points, free
/// skills, skills, special abilities, advantages and disadvantages, what its resources lost,
/// its experience dice and creation stage — and each game's table: the Gamemaster's stock
/// and the mechanical play in progress (the settings it began with, the combatants in turn
/// order with what they used, the free actions' kinds, the results waiting for the lull).
/// The points spent are never stored: they are the sum of the points the rows hold.
const V9: &str = r#"
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
"#;

/// Notes, and what this device is in each game: whose characters it holds and which side
/// of the table it plays. The roles and settings are this device's own: no file carries them.
const V10: &str = r#"
ALTER TABLE games ADD COLUMN notes TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 20000);
ALTER TABLE characters ADD COLUMN notes TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 20000);

-- This device in a game: the part it plays (a player's own device, the table's — the
-- Gamemaster, the House, the Arbiters — or both, one device passed around) and whether its
-- people roll real dice and type them in. No row: both, and the app rolls.
CREATE TABLE device_games (
    game_id      TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    role         TEXT NOT NULL DEFAULT 'both' CHECK (role IN ('player', 'table', 'both')),
    dice_by_hand INTEGER NOT NULL DEFAULT 0 CHECK (dice_by_hand IN (0, 1))
) STRICT;

-- Characters this device keeps for someone else (another player's copy); every other
-- character on the device is its owner's own.
CREATE TABLE kept_for_others (
    character_id TEXT PRIMARY KEY NOT NULL REFERENCES characters(id) ON DELETE CASCADE
) STRICT;

-- Preferences of this device (the theme, where the window was left, the rules' hints shown).
CREATE TABLE device_settings (
    key   TEXT PRIMARY KEY NOT NULL CHECK (key IN ('theme', 'place', 'hints')),
    value TEXT NOT NULL CHECK (length(value) <= 2000)
) STRICT;
"#;

/// The linked table: this device's key pair, the devices it paired with (at either end),
/// which device plays which character at the table it hosts, and on a joined device what it
/// last agreed with the host and the changes the host refused (kept, never dropped).
const V11: &str = r#"
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
"#;

/// No Stone Unturned at a real table: where the party is, the paths drawn on the map, the
/// character who wrote each card (who may read it face down), NPCs' Overcome thresholds and
/// their harm details.
const V12: &str = r#"
-- Where the party is: a card of the game's map; no row: home.
CREATE TABLE nsu_party (
    game_id     TEXT PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    location_id TEXT NOT NULL REFERENCES nsu_locations(id) ON DELETE CASCADE
) STRICT;

-- Paths between two cards of one map, in the order they were drawn.
CREATE TABLE nsu_paths (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    a        TEXT NOT NULL REFERENCES nsu_locations(id) ON DELETE CASCADE,
    b        TEXT NOT NULL REFERENCES nsu_locations(id) ON DELETE CASCADE,
    CHECK (a <> b),
    PRIMARY KEY (game_id, position)
) STRICT;
CREATE UNIQUE INDEX nsu_one_path_per_pair ON nsu_paths (game_id, min(a, b), max(a, b));

-- The character whose player wrote the card (NULL: not known).
ALTER TABLE nsu_locations ADD COLUMN author_character TEXT
    REFERENCES characters(id) ON DELETE SET NULL;

-- How many harm details Overcome an NPC (NULL: an ordinary NPC, one).
ALTER TABLE nsu_npcs ADD COLUMN threshold INTEGER CHECK (threshold BETWEEN 2 AND 4);

CREATE TABLE nsu_npc_harm (
    npc_id   TEXT NOT NULL REFERENCES nsu_npcs(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 3),
    text     TEXT NOT NULL CHECK (length(trim(text)) >= 1 AND length(text) <= 2000),
    PRIMARY KEY (npc_id, position)
) STRICT;
"#;

/// Penny Ante campaigns: the players' piles when an adventure ended (the House's default
/// funding), recurring antagonists, unpaid loans turned into debts, characteristics lost in
/// buyouts, and the history of finished challenges with their narration.
const V13: &str = r#"
-- Characteristics the character gave up in buyouts.
ALTER TABLE pa_sheets ADD COLUMN lost INTEGER NOT NULL DEFAULT 0 CHECK (lost >= 0);

-- A recurring antagonist keeps its purse when an adventure ends.
ALTER TABLE pa_antagonists ADD COLUMN recurring INTEGER NOT NULL DEFAULT 0 CHECK (recurring IN (0, 1));

-- What was unpaid at the next adventure's start and became a debt to the lender.
ALTER TABLE pa_loans ADD COLUMN in_debt INTEGER NOT NULL DEFAULT 0
    CHECK (in_debt >= 0 AND repaid + in_debt <= amount AND (in_debt = 0 OR flagged = 1));

-- The adventure whose end the rows of pa_end_piles record (NULL: none recorded).
ALTER TABLE pa_tables ADD COLUMN last_end INTEGER CHECK (last_end BETWEEN 1 AND 4294967295);

-- Each character's pile when that adventure ended.
CREATE TABLE pa_end_piles (
    game_id      TEXT NOT NULL REFERENCES pa_tables(game_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    character_id TEXT NOT NULL CHECK (length(character_id) = 36),
    pile         INTEGER NOT NULL,
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, character_id)
) STRICT;

-- Every finished challenge, oldest first, with what its narrator told.
CREATE TABLE pa_history (
    game_id      TEXT NOT NULL REFERENCES pa_tables(game_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    challenge_id TEXT NOT NULL CHECK (length(challenge_id) = 36),
    adventure    INTEGER NOT NULL CHECK (adventure BETWEEN 1 AND 4294967295),
    stake        TEXT NOT NULL CHECK (length(trim(stake)) >= 1 AND length(stake) <= 200),
    ante         INTEGER NOT NULL CHECK (ante BETWEEN 1 AND 1000000000),
    pot          INTEGER NOT NULL CHECK (pot >= 0),
    winner       TEXT CHECK (winner IN ('challenger', 'opponent')),
    folded       TEXT CHECK (folded IN ('challenger', 'opponent')),
    narrator     TEXT CHECK (narrator IN ('challenger', 'opponent')),
    narration    TEXT NOT NULL DEFAULT '' CHECK (length(narration) <= 2000),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, challenge_id)
) STRICT;

-- Each side of a finished challenge: its hand at the showdown, if there was one.
CREATE TABLE pa_history_sides (
    game_id       TEXT NOT NULL,
    position      INTEGER NOT NULL,
    side          TEXT NOT NULL CHECK (side IN ('challenger', 'opponent')),
    hand_score    INTEGER CHECK (hand_score BETWEEN 0 AND 50),
    hand_category TEXT CHECK (hand_category IN ('chance', 'full_house', 'small_straight', 'large_straight',
                      'five_of_a_kind')),
    CHECK ((hand_score IS NULL) = (hand_category IS NULL)),
    PRIMARY KEY (game_id, position, side),
    FOREIGN KEY (game_id, position) REFERENCES pa_history(game_id, position) ON DELETE CASCADE
) STRICT;

-- A side's members, the characteristics it used, and those its characters gave up in a
-- buyout (a member has no text; the others have their text).
CREATE TABLE pa_history_accounts (
    game_id  TEXT NOT NULL,
    position INTEGER NOT NULL,
    side     TEXT NOT NULL,
    list     TEXT NOT NULL CHECK (list IN ('members', 'used', 'given_up')),
    n        INTEGER NOT NULL CHECK (n >= 0),
    kind     TEXT NOT NULL CHECK (kind IN ('character', 'house', 'antagonist')),
    id       TEXT CHECK (id IS NULL OR length(id) = 36),
    text     TEXT CHECK (text IS NULL OR (length(trim(text)) >= 1 AND length(text) <= 200)),
    CHECK ((kind = 'house') = (id IS NULL)),
    CHECK ((list = 'members') = (text IS NULL)),
    PRIMARY KEY (game_id, position, side, list, n),
    FOREIGN KEY (game_id, position, side) REFERENCES pa_history_sides(game_id, position, side) ON DELETE CASCADE
) STRICT;

-- The five (or fewer) dice of a side's hand.
CREATE TABLE pa_history_dice (
    game_id  TEXT NOT NULL,
    position INTEGER NOT NULL,
    side     TEXT NOT NULL,
    n        INTEGER NOT NULL CHECK (n BETWEEN 0 AND 4),
    face     INTEGER NOT NULL CHECK (face BETWEEN 1 AND 6),
    PRIMARY KEY (game_id, position, side, n),
    FOREIGN KEY (game_id, position, side) REFERENCES pa_history_sides(game_id, position, side) ON DELETE CASCADE
) STRICT;
"#;

/// Scattershot at a real table: a sheet's description, NPC flag and residual modifiers; a
/// table's UE chart and sessions. Additive: old rows read as no description, a player's
/// character, no modifiers, an empty chart and no session.
const V14: &str = r#"
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
"#;

const V15: &str = r#"
-- The Setting Laws a Mezzo table made for its game, in order.
CREATE TABLE mz_laws (
    game_id  TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    id       TEXT NOT NULL CHECK (length(id) = 36),
    name     TEXT NOT NULL CHECK (length(trim(name)) >= 1),
    effect   TEXT NOT NULL CHECK (length(trim(effect)) >= 1),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, id)
) STRICT;

-- The facts register: established facts, each with the arc it belongs to.
CREATE TABLE mz_facts (
    game_id  TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    id       TEXT NOT NULL CHECK (length(id) = 36),
    arc      INTEGER NOT NULL CHECK (arc BETWEEN 0 AND 4294967295),
    text     TEXT NOT NULL CHECK (length(trim(text)) >= 1),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, id)
) STRICT;

-- Victory Narration votes bought in the table's challenge and not spent yet.
CREATE TABLE mz_victory_votes (
    game_id      TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    element_id   TEXT NOT NULL CHECK (length(element_id) = 36),
    challenge_id TEXT NOT NULL CHECK (length(challenge_id) = 36),
    votes        INTEGER NOT NULL CHECK (votes BETWEEN 1 AND 4294967295),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, element_id, challenge_id)
) STRICT;
"#;

const V16: &str = r#"
-- Mezzo: how Leave to Chance rolls at the table (conflicts, action checks, challenge actions).
ALTER TABLE mz_tables ADD COLUMN dice_variant TEXT NOT NULL DEFAULT 'steps' CHECK (dice_variant IN ('steps', 'd6'));

-- Mezzo scenes: whether one is being played, and the elements active in it, in order.
ALTER TABLE mz_tables ADD COLUMN scene_open INTEGER NOT NULL DEFAULT 0 CHECK (scene_open IN (0, 1));
CREATE TABLE mz_scene_active (
    game_id    TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position BETWEEN 0 AND 199),
    element_id TEXT NOT NULL CHECK (length(element_id) = 36),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, element_id)
) STRICT;
"#;

/// Mezzo payoffs: the flaws a claimed stake carries into an element's next
/// challenge (they count as gained there), and stakes' own momentum pools.
const V17: &str = r#"
CREATE TABLE mz_carried_flaws (
    element_key INTEGER NOT NULL REFERENCES mz_elements(key) ON DELETE CASCADE,
    position    INTEGER NOT NULL CHECK (position >= 0),
    flaw        TEXT NOT NULL CHECK (length(flaw) = 36),
    PRIMARY KEY (element_key, position),
    UNIQUE (element_key, flaw)
) STRICT;

-- A stake's own momentum (Raise Stakes), shared by the challengers holding that stake.
CREATE TABLE mz_challenge_stake_pools (
    game_id  TEXT NOT NULL REFERENCES mz_challenges(game_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    stake    TEXT NOT NULL CHECK (length(trim(stake)) BETWEEN 1 AND 2000),
    momentum INTEGER NOT NULL CHECK (momentum BETWEEN 0 AND 4294967295),
    PRIMARY KEY (game_id, position)
) STRICT;
"#;

const V18: &str = r#"
-- A Mezzo Favored Flaw that gave its owner adversity in this scene or challenge (once each).
ALTER TABLE mz_traits ADD COLUMN favored_used INTEGER NOT NULL DEFAULT 0 CHECK (favored_used IN (0, 1));
"#;

const V19: &str = r#"
-- A Mezzo arc's consequences: an action's side effects (Lingering Consequences), each with the
-- arc it was made in; a contagious one is kept past that arc's end.
CREATE TABLE mz_consequences (
    game_id    TEXT NOT NULL REFERENCES mz_tables(game_id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position >= 0),
    id         TEXT NOT NULL CHECK (length(id) = 36),
    arc        INTEGER NOT NULL CHECK (arc BETWEEN 0 AND 4294967295),
    text       TEXT NOT NULL CHECK (length(trim(text)) >= 1),
    contagious INTEGER NOT NULL CHECK (contagious IN (0, 1)),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, id)
) STRICT;
"#;

/// Every migration, oldest first. Append only: never edit one that has shipped.
/// `Store::open` applies [`UP`]; tests use `MIGRATIONS` to build databases of an older
/// version (`to_version`) and to check that both lists agree.
#[cfg_attr(not(test), allow(dead_code))]
const STEPS: &[M<'static>] = &[
    M::up(V1),
    M::up(V2),
    M::up(V3),
    M::up(V4),
    M::up(V5),
    M::up(V6),
    M::up(V7),
    M::up(V8),
    M::up(V9),
    M::up(V10),
    M::up(V11),
    M::up(V12),
    M::up(V13),
    M::up(V14),
    M::up(V15),
    M::up(V16),
    M::up(V17),
    M::up(V18),
    M::up(V19),
];
#[cfg_attr(not(test), allow(dead_code))]
pub const MIGRATIONS: Migrations<'static> = Migrations::from_slice(STEPS);

/// The same migrations' SQL, for `Store::open`, which applies them itself inside the write
/// transaction that read `user_version` (`MIGRATIONS.to_latest` reads the version before
/// its own transaction, so two processes could both apply step 1). A test checks that both
/// lists build the same schema.
pub(super) const UP: [&str; LATEST as usize] =
    [V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15, V16, V17, V18, V19];

/// The schema version this build writes.
pub const LATEST: i64 = 19;

#[cfg(test)]
mod tests {
    #[test]
    fn migrations_are_valid() {
        assert!(super::MIGRATIONS.validate().is_ok());
    }

    /// `UP` (what `Store::open` applies) and `MIGRATIONS` build the same schema, step by step.
    #[test]
    fn up_and_migrations_build_the_same_schema() {
        fn schema(conn: &rusqlite::Connection) -> Vec<(String, String, Option<String>)> {
            conn.prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name")
                .unwrap()
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        }
        let mut by_library = rusqlite::Connection::open_in_memory().unwrap();
        let by_hand = rusqlite::Connection::open_in_memory().unwrap();
        for (i, up) in super::UP.iter().enumerate() {
            super::MIGRATIONS.to_version(&mut by_library, i + 1).unwrap();
            by_hand.execute_batch(up).unwrap();
            assert_eq!(schema(&by_library), schema(&by_hand), "after step {}", i + 1);
        }
        assert_eq!(super::UP.len() as i64, super::LATEST);
    }
}
