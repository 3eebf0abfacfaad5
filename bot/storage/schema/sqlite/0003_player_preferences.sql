-- player preferences: board theme, board turned to the player's side
-- One row per person who changed a preference; everyone else gets the defaults. The theme's
-- name is checked against the renderer's themes when saved (not here, so a new theme needs no
-- migration).
CREATE TABLE player_preferences (
    player_id  INTEGER PRIMARY KEY REFERENCES players (id),
    theme      TEXT NOT NULL,
    flip       INTEGER NOT NULL DEFAULT 0 CHECK (flip IN (0, 1)),
    updated_at INTEGER NOT NULL
);
