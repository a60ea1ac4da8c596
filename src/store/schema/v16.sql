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
