-- Penny Ante campaigns: the players' piles when an adventure ended (the House's default
-- funding), recurring antagonists, unpaid loans turned into debts, characteristics lost in
-- buyouts, and the history of finished challenges with their narration.
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
