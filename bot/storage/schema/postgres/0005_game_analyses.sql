-- game analyses: the computer review of finished games
CREATE TABLE game_analyses (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    budget     TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, budget)
);
