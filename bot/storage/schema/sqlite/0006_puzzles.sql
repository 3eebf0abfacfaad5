-- puzzles: the set, their ratings, people's attempts and ratings, daily puzzles
-- Puzzles the bot offers (the shipped set, loaded at start-up), each with a Glicko-2 rating of
-- its difficulty. ``data`` is the AI's JSON (bot.ai.puzzles), read only by the AI.
CREATE TABLE puzzles (
    id         TEXT PRIMARY KEY,
    variant    TEXT NOT NULL,
    data       TEXT NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    added_at   INTEGER NOT NULL
);
CREATE INDEX puzzles_by_variant_rating ON puzzles (variant, rating);

-- A person's puzzle rating: one across the variants, as lichess keeps one.
CREATE TABLE puzzle_ratings (
    player_id  INTEGER NOT NULL REFERENCES players (id) PRIMARY KEY,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
);

-- A person's go at a puzzle. The first go is rated (lost at the first wrong move, won when
-- solved without one); later goes at the same puzzle are practice. ``line`` holds the moves
-- so far, the solver's and the replies, separated by spaces.
CREATE TABLE puzzle_attempts (
    player_id   INTEGER NOT NULL REFERENCES players (id),
    puzzle_id   TEXT NOT NULL REFERENCES puzzles (id),
    guild_id    INTEGER,
    daily_day   TEXT,
    line        TEXT NOT NULL DEFAULT '',
    mistakes    INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'solved', 'abandoned')),
    rated       TEXT CHECK (rated IN ('win', 'loss')),
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    PRIMARY KEY (player_id, puzzle_id)
);
-- One puzzle at a time per person: /tafl move knows which one a move is for.
CREATE UNIQUE INDEX puzzle_attempts_one_open ON puzzle_attempts (player_id) WHERE status = 'open';
CREATE INDEX puzzle_attempts_daily ON puzzle_attempts (guild_id, daily_day)
    WHERE daily_day IS NOT NULL;

-- The daily puzzle of each server, chosen on the day's first ask.
CREATE TABLE daily_puzzles (
    guild_id   INTEGER NOT NULL,
    day        TEXT NOT NULL,
    puzzle_id  TEXT NOT NULL REFERENCES puzzles (id),
    PRIMARY KEY (guild_id, day)
);
