-- tournament history: what happened as a kind and values, worded in each reader's language
-- Expanding only: releases from schema 10 run on it unchanged (they show a new line's kind).
-- ``data`` is a JSON object of plain values (a round, a board, points, a player's name, the
-- organiser's own reason...), which the bot words in the language of whoever reads it; such a
-- line's ``detail`` is empty. Lines written before have no ``data`` (NULL): their ``detail`` is
-- the English sentence of the time, shown as it was.
ALTER TABLE tournament_log ADD COLUMN data TEXT CHECK (json_type(data) = 'object');
