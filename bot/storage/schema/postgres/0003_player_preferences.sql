-- player preferences: board theme, board turned to the player's side
CREATE TABLE player_preferences (
    player_id  BIGINT PRIMARY KEY REFERENCES players (id),
    theme      TEXT NOT NULL,
    flip       INTEGER NOT NULL DEFAULT 0 CHECK (flip IN (0, 1)),
    updated_at BIGINT NOT NULL
);
