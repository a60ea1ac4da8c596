-- Penny Ante, the 2026-11-28 rulings: an antagonist that took part in a direct challenge is
-- revealed to the table (its characteristics and purse) from then on; a loan on offer names
-- the ally the lender chose to lend to (NULL: the side's lead, as offers made before).
ALTER TABLE pa_antagonists ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0 CHECK (revealed IN (0, 1));
ALTER TABLE pa_challenges ADD COLUMN offer_borrower TEXT
    CHECK (offer_borrower IS NULL OR (offer_id IS NOT NULL AND length(offer_borrower) = 36));

-- A debt owed to an antagonist that left play (not recurring, its adventure over) is owed to
-- the House from then on: each hand-over, in order (no penny moves).
CREATE TABLE pa_debt_handovers (
    game_id     TEXT NOT NULL REFERENCES pa_tables(game_id) ON DELETE CASCADE,
    position    INTEGER NOT NULL CHECK (position >= 0),
    debtor_kind TEXT NOT NULL CHECK (debtor_kind IN ('character', 'house', 'antagonist')),
    debtor_id   TEXT CHECK (debtor_id IS NULL OR length(debtor_id) = 36),
    antagonist  TEXT NOT NULL CHECK (length(antagonist) = 36),
    amount      INTEGER NOT NULL CHECK (amount >= 1),
    CHECK ((debtor_kind = 'house') = (debtor_id IS NULL)),
    PRIMARY KEY (game_id, position)
) STRICT;
