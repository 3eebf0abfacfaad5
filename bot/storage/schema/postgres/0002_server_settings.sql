-- server settings: a thread per game, a default time per move
ALTER TABLE guild_settings ADD COLUMN game_threads INTEGER NOT NULL DEFAULT 0
    CHECK (game_threads IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN default_move_seconds BIGINT
    CHECK (default_move_seconds > 0);
