-- game analyses: the computer review of finished games
-- The review of a finished game, kept so that asking again is instant. ``data`` is the AI's own
-- JSON (bot.ai.analysis); ``budget`` names the search budget it was made with, so a review made
-- with another budget is not taken for this one.
CREATE TABLE game_analyses (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    budget     TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, budget)
);
