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
