-- initial schema
-- Anyone who plays: a Discord user, or the AI at one level (the AI gets a rating per level too).
CREATE TABLE players (
    id              INTEGER PRIMARY KEY,
    discord_user_id INTEGER UNIQUE,
    ai_level        INTEGER UNIQUE,
    display_name    TEXT,
    created_at      INTEGER NOT NULL,
    CHECK ((discord_user_id IS NULL) <> (ai_level IS NULL))
);

CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    rated_ai_games INTEGER NOT NULL DEFAULT 0 CHECK (rated_ai_games IN (0, 1)),
    updated_at     INTEGER NOT NULL
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    variant          TEXT NOT NULL,
    start_position   TEXT NOT NULL,
    first_turn       TEXT NOT NULL CHECK (first_turn IN ('attackers', 'defenders')),
    attackers_id     INTEGER NOT NULL REFERENCES players (id),
    defenders_id     INTEGER NOT NULL REFERENCES players (id),
    rated            INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status           TEXT NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'finished', 'aborted', 'unreplayable')),
    result           TEXT CHECK (result IN ('attackers', 'defenders', 'draw')),
    reason           TEXT,
    -- ply: moves in effect; log_length: rows in the move log (moves and takebacks).
    ply              INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    log_length       INTEGER NOT NULL DEFAULT 0 CHECK (log_length >= ply),
    move_seconds     INTEGER CHECK (move_seconds > 0),
    move_deadline    INTEGER,
    reminder_sent    INTEGER NOT NULL DEFAULT 0 CHECK (reminder_sent IN (0, 1)),
    board_message_id INTEGER,
    problem          TEXT,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    ended_at         INTEGER,
    CHECK ((status = 'finished') = (result IS NOT NULL AND reason IS NOT NULL))
);
-- The one-game-per-channel rule lives here, not in Python: a thread is a channel id like any other.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_active_deadline ON games (move_deadline)
    WHERE status = 'active' AND move_deadline IS NOT NULL;
CREATE INDEX games_by_attackers ON games (attackers_id, ended_at);
CREATE INDEX games_by_defenders ON games (defenders_id, ended_at);
CREATE INDEX games_finished_by_guild ON games (guild_id, variant) WHERE status = 'finished';

-- The append-only move log. A takeback is a row of its own naming the ply the game returns to.
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    kind      TEXT NOT NULL CHECK (kind IN ('move', 'takeback')),
    ply       INTEGER NOT NULL CHECK (ply >= 0),
    move      TEXT CHECK ((kind = 'move') = (move IS NOT NULL)),
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER moves_are_never_updated BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;
CREATE TRIGGER moves_are_never_deleted BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;

CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    challenger_id   INTEGER NOT NULL REFERENCES players (id),
    challenged_id   INTEGER REFERENCES players (id),
    variant         TEXT NOT NULL,
    challenger_side TEXT NOT NULL CHECK (challenger_side IN ('attackers', 'defenders', 'random')),
    move_seconds    INTEGER CHECK (move_seconds > 0),
    rated           INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status          TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    message_id      INTEGER,
    game_id         INTEGER REFERENCES games (id),
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    resolved_at     INTEGER
);
CREATE INDEX challenges_pending_by_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_by_challenger ON challenges (challenger_id, created_at);

-- Current Glicko-2 rating per player and variant, with the rated-game counts behind it.
CREATE TABLE ratings (
    player_id  INTEGER NOT NULL REFERENCES players (id),
    variant    TEXT NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE INDEX ratings_by_variant ON ratings (variant, rating DESC);

-- Every rating change with its game: the audit trail, "+12" in announcements, server leaderboards.
CREATE TABLE rating_changes (
    game_id           INTEGER NOT NULL REFERENCES games (id),
    player_id         INTEGER NOT NULL REFERENCES players (id),
    rating_before     REAL NOT NULL,
    rd_before         REAL NOT NULL,
    volatility_before REAL NOT NULL,
    rating_after      REAL NOT NULL,
    rd_after          REAL NOT NULL,
    volatility_after  REAL NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player_id);
