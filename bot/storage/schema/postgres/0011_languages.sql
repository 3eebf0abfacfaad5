-- languages: a server's language for what its channels read, a player's last-used locale
-- Expanding only: releases from schema 10 run on it unchanged.
ALTER TABLE guild_settings ADD COLUMN language TEXT CHECK (length(language) BETWEEN 2 AND 16);
ALTER TABLE players ADD COLUMN locale TEXT CHECK (length(locale) BETWEEN 2 AND 16);
