-- Mezzo plot hooks and arcs (RULES.md §3.5) and the seed deck (§3.6), hanging off each
-- game's `mz_tables` row (whose `arc` is the arc's number). A hook's points are kept one row
-- per investment, in order, naming the investor and the kind; the arc's Turning Point with
-- its challengers, hooks and themes; No Escape targets; the deck's cards one row each,
-- naming where the card lies (a pile, a player's hand, active or depleted cards, the
-- inspiration card or the one shown) and its place there; links between cards in play; the
-- players who may still refresh; and the keyword die, one row per face. Players, elements
-- and challenges are named without foreign keys, like claims: a player who leaves keeps
-- their investments and cards on record.
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
