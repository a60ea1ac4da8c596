-- NSU, audit D10: a sheet's rumours and notes marked private, one a line, read only by the
-- character's player. Every view, file and linked copy made for anyone else leaves them out.
ALTER TABLE nsu_sheets ADD COLUMN private_rumours TEXT NOT NULL DEFAULT ''
    CHECK (length(private_rumours) <= 2000);
ALTER TABLE nsu_sheets ADD COLUMN private_notes TEXT NOT NULL DEFAULT ''
    CHECK (length(private_notes) <= 20000);
