-- Penny Ante (RULES.md §2): a character's characteristics, and each game's table — the
-- adventure, the penny ledger, debts, loans, antagonists and the challenge being played
-- (or the last one). An account is a kind and an id (no id for the Bank and the House).
-- Ledger, debt and loan rows name characters without a foreign key: a deleted character's
-- history stays. Everything of a table hangs off its `pa_tables` row, which is only ever
-- upserted (a REPLACE would cascade-delete the ledger).
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
