-- A Mezzo Favored Flaw that gave its owner adversity in this scene or challenge (once each).
ALTER TABLE mz_traits ADD COLUMN favored_used INTEGER NOT NULL DEFAULT 0 CHECK (favored_used IN (0, 1));
