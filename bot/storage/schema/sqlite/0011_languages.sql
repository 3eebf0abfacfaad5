-- languages: a server's language for what its channels read, a player's last-used locale
-- Expanding only: releases from schema 10 run on it unchanged.
-- A server's language is a Discord locale code (``fr``, ``es-ES``...) chosen with /tafl settings;
-- NULL: the server's preferred locale, as Discord reports it. A player's locale is the one
-- their Discord client last reported, for notices sent later (reminders, direct messages).
ALTER TABLE guild_settings ADD COLUMN language TEXT CHECK (length(language) BETWEEN 2 AND 16);
ALTER TABLE players ADD COLUMN locale TEXT CHECK (length(locale) BETWEEN 2 AND 16);
