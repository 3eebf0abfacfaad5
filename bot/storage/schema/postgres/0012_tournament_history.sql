-- tournament history: what happened as a kind and values, worded in each reader's language
-- Expanding only: releases from schema 10 run on it unchanged (they show a new line's kind).
ALTER TABLE tournament_log ADD COLUMN data TEXT CHECK (jsonb_typeof(data::jsonb) = 'object');
