-- Mezzo's sessions are the campaign journal's (one place for one fact): the seed deck's own
-- count goes, as Scattershot's did in v31. A game whose journal has no session yet gets one
-- for each its deck counted, dated the day the game last changed (the count kept no dates),
-- with nobody listed and a note that says so; the latest is open if its initial draw still
-- was (the deck never ended a session, so only then is it surely being played). A game whose
-- journal has sessions keeps them as they are.
WITH RECURSIVE counted(game_id, number, total, playing) AS (
    SELECT d.game_id, 1, d.session, d.initial_draw
    FROM mz_decks d
    WHERE d.session > 0 AND NOT EXISTS (SELECT 1 FROM journal_sessions j WHERE j.game_id = d.game_id)
    UNION ALL
    SELECT game_id, number + 1, total, playing FROM counted WHERE number < total AND number < 1000
)
INSERT INTO journal_sessions (game_id, number, date, notes, open, from_seq, to_seq)
SELECT c.game_id, c.number, substr(g.updated_at, 1, 10),
       'Counted by an older version of the app, which kept no date and no list of who was there.',
       CASE WHEN c.playing = 1 AND c.number = c.total THEN 1 ELSE 0 END, NULL, NULL
FROM counted c JOIN games g ON g.id = c.game_id;

ALTER TABLE mz_decks DROP COLUMN session;
