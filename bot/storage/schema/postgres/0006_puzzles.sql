-- puzzles: the set, their ratings, people's attempts and ratings, daily puzzles
CREATE TABLE puzzles (
    id         TEXT PRIMARY KEY,
    variant    TEXT NOT NULL,
    data       TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    added_at   BIGINT NOT NULL
);
CREATE INDEX puzzles_by_variant_rating ON puzzles (variant, rating);

CREATE TABLE puzzle_ratings (
    player_id  BIGINT NOT NULL REFERENCES players (id) PRIMARY KEY,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

CREATE TABLE puzzle_attempts (
    player_id   BIGINT NOT NULL REFERENCES players (id),
    puzzle_id   TEXT NOT NULL REFERENCES puzzles (id),
    guild_id    BIGINT,
    daily_day   TEXT,
    line        TEXT NOT NULL DEFAULT '',
    mistakes    INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'solved', 'abandoned')),
    rated       TEXT CHECK (rated IN ('win', 'loss')),
    started_at  BIGINT NOT NULL,
    finished_at BIGINT,
    PRIMARY KEY (player_id, puzzle_id)
);
CREATE UNIQUE INDEX puzzle_attempts_one_open ON puzzle_attempts (player_id) WHERE status = 'open';
CREATE INDEX puzzle_attempts_daily ON puzzle_attempts (guild_id, daily_day)
    WHERE daily_day IS NOT NULL;

CREATE TABLE daily_puzzles (
    guild_id   BIGINT NOT NULL,
    day        TEXT NOT NULL,
    puzzle_id  TEXT NOT NULL REFERENCES puzzles (id),
    PRIMARY KEY (guild_id, day)
);
