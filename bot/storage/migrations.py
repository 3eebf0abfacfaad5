"""The database schema, as numbered migrations applied in order at start-up.

Rules for editing this file: never change a migration that has shipped; add a new one at the end.
Each migration runs in one transaction together with its row in ``schema_migrations`` (and, on
SQLite, ``PRAGMA user_version``), so it is applied completely or not at all, and applying them
again is a no-op.

Each migration is written twice, once per backend, under one number: the two scripts must make
the same tables, columns, constraints and indexes (the test suite compares them). PostgreSQL's
differences: 64-bit ``BIGINT`` for ids and times (Discord ids do not fit its 32-bit
``INTEGER``), identity columns for row ids, ``DOUBLE PRECISION`` for SQLite's ``REAL``, and a
trigger function for the append-only move log.

Time columns hold whole UTC epoch seconds. Yes/no columns hold 0 or 1 on both backends, so the
stores' SQL is the same for both.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import MigrationMismatchError, SchemaTooNewError


@dataclass(frozen=True)
class Migration:
    """One step of the schema's history."""

    version: int
    name: str
    sqlite: str
    postgres: str

    def sqlite_statements(self) -> list[str]:
        """The SQLite script split into single statements (trigger bodies contain ``;``)."""
        statements: list[str] = []
        pending = ""
        for line in self.sqlite.splitlines(keepends=True):
            pending += line
            if sqlite3.complete_statement(pending):
                statements.append(pending.strip())
                pending = ""
        if pending.strip():
            raise ValueError(f"migration {self.version} ends with an incomplete statement")
        return statements


MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL
)
"""
POSTGRES_MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    BIGINT PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at BIGINT NOT NULL
)
"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "initial schema",
        """
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
""",
        """
CREATE TABLE players (
    id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    discord_user_id BIGINT UNIQUE,
    ai_level        BIGINT UNIQUE,
    display_name    TEXT,
    created_at      BIGINT NOT NULL,
    CHECK ((discord_user_id IS NULL) <> (ai_level IS NULL))
);

CREATE TABLE guild_settings (
    guild_id       BIGINT PRIMARY KEY,
    rated_ai_games INTEGER NOT NULL DEFAULT 0 CHECK (rated_ai_games IN (0, 1)),
    updated_at     BIGINT NOT NULL
);

CREATE TABLE games (
    id               BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id         BIGINT,
    channel_id       BIGINT NOT NULL,
    variant          TEXT NOT NULL,
    start_position   TEXT NOT NULL,
    first_turn       TEXT NOT NULL CHECK (first_turn IN ('attackers', 'defenders')),
    attackers_id     BIGINT NOT NULL REFERENCES players (id),
    defenders_id     BIGINT NOT NULL REFERENCES players (id),
    rated            INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status           TEXT NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'finished', 'aborted', 'unreplayable')),
    result           TEXT CHECK (result IN ('attackers', 'defenders', 'draw')),
    reason           TEXT,
    ply              BIGINT NOT NULL DEFAULT 0 CHECK (ply >= 0),
    log_length       BIGINT NOT NULL DEFAULT 0 CHECK (log_length >= ply),
    move_seconds     BIGINT CHECK (move_seconds > 0),
    move_deadline    BIGINT,
    reminder_sent    INTEGER NOT NULL DEFAULT 0 CHECK (reminder_sent IN (0, 1)),
    board_message_id BIGINT,
    problem          TEXT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    ended_at         BIGINT,
    CHECK ((status = 'finished') = (result IS NOT NULL AND reason IS NOT NULL))
);
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_active_deadline ON games (move_deadline)
    WHERE status = 'active' AND move_deadline IS NOT NULL;
CREATE INDEX games_by_attackers ON games (attackers_id, ended_at);
CREATE INDEX games_by_defenders ON games (defenders_id, ended_at);
CREATE INDEX games_finished_by_guild ON games (guild_id, variant) WHERE status = 'finished';

CREATE TABLE moves (
    game_id   BIGINT NOT NULL REFERENCES games (id),
    seq       BIGINT NOT NULL CHECK (seq >= 1),
    kind      TEXT NOT NULL CHECK (kind IN ('move', 'takeback')),
    ply       BIGINT NOT NULL CHECK (ply >= 0),
    move      TEXT CHECK ((kind = 'move') = (move IS NOT NULL)),
    played_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE FUNCTION moves_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the move log is append-only' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER moves_are_never_changed BEFORE UPDATE OR DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION moves_are_append_only();
CREATE TRIGGER moves_are_never_truncated BEFORE TRUNCATE ON moves
    FOR EACH STATEMENT EXECUTE FUNCTION moves_are_append_only();

CREATE TABLE challenges (
    id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id        BIGINT,
    channel_id      BIGINT NOT NULL,
    challenger_id   BIGINT NOT NULL REFERENCES players (id),
    challenged_id   BIGINT REFERENCES players (id),
    variant         TEXT NOT NULL,
    challenger_side TEXT NOT NULL CHECK (challenger_side IN ('attackers', 'defenders', 'random')),
    move_seconds    BIGINT CHECK (move_seconds > 0),
    rated           INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status          TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    message_id      BIGINT,
    game_id         BIGINT REFERENCES games (id),
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    resolved_at     BIGINT
);
CREATE INDEX challenges_pending_by_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_by_challenger ON challenges (challenger_id, created_at);

CREATE TABLE ratings (
    player_id  BIGINT NOT NULL REFERENCES players (id),
    variant    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL DEFAULT 0,
    wins       BIGINT NOT NULL DEFAULT 0,
    losses     BIGINT NOT NULL DEFAULT 0,
    draws      BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE INDEX ratings_by_variant ON ratings (variant, rating DESC);

CREATE TABLE rating_changes (
    game_id           BIGINT NOT NULL REFERENCES games (id),
    player_id         BIGINT NOT NULL REFERENCES players (id),
    rating_before     DOUBLE PRECISION NOT NULL,
    rd_before         DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after      DOUBLE PRECISION NOT NULL,
    rd_after          DOUBLE PRECISION NOT NULL,
    volatility_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player_id);
""",
    ),
    Migration(
        2,
        "server settings: a thread per game, a default time per move",
        """
ALTER TABLE guild_settings ADD COLUMN game_threads INTEGER NOT NULL DEFAULT 0
    CHECK (game_threads IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN default_move_seconds INTEGER
    CHECK (default_move_seconds > 0);
""",
        """
ALTER TABLE guild_settings ADD COLUMN game_threads INTEGER NOT NULL DEFAULT 0
    CHECK (game_threads IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN default_move_seconds BIGINT
    CHECK (default_move_seconds > 0);
""",
    ),
    Migration(
        3,
        "player preferences: board theme, board turned to the player's side",
        """
-- One row per person who changed a preference; everyone else gets the defaults. The theme's
-- name is checked against the renderer's themes when saved (not here, so a new theme needs no
-- migration).
CREATE TABLE player_preferences (
    player_id  INTEGER PRIMARY KEY REFERENCES players (id),
    theme      TEXT NOT NULL,
    flip       INTEGER NOT NULL DEFAULT 0 CHECK (flip IN (0, 1)),
    updated_at INTEGER NOT NULL
);
""",
        """
CREATE TABLE player_preferences (
    player_id  BIGINT PRIMARY KEY REFERENCES players (id),
    theme      TEXT NOT NULL,
    flip       INTEGER NOT NULL DEFAULT 0 CHECK (flip IN (0, 1)),
    updated_at BIGINT NOT NULL
);
""",
    ),    Migration(
        4,
        "offers: draw offers and takeback requests kept until answered",
        """
-- A draw offer or takeback request waits here for the opponent's answer, so a restart (or another
-- process) can still take the answer. It is valid only at its ply: every move, takeback and
-- ending of the game deletes its offers in the same transaction.
CREATE TABLE offers (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT NOT NULL CHECK (kind IN ('draw', 'takeback')),
    user_id    INTEGER NOT NULL,
    ply        INTEGER NOT NULL CHECK (ply >= 0),
    message_id INTEGER,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);
""",
        """
CREATE TABLE offers (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    kind       TEXT NOT NULL CHECK (kind IN ('draw', 'takeback')),
    user_id    BIGINT NOT NULL,
    ply        BIGINT NOT NULL CHECK (ply >= 0),
    message_id BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, kind)
);
""",
    ),    Migration(
        5,
        "game analyses: the computer review of finished games",
        """
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
""",
        """
CREATE TABLE game_analyses (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    budget     TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, budget)
);
""",
    ),    Migration(
        6,
        "puzzles: the set, their ratings, people's attempts and ratings, daily puzzles",
        """
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
""",
        """
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
""",
    ),
    Migration(
        7,
        "games: the position their board message shows",
        """
ALTER TABLE games ADD COLUMN board_ply INTEGER CHECK (board_ply >= 0);
""",
        """
ALTER TABLE games ADD COLUMN board_ply INTEGER CHECK (board_ply >= 0);
""",
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version


def check_sequence(migrations: tuple[Migration, ...]) -> None:
    """Refuse a migration list with gaps or repeats (a programming error, caught at start-up)."""
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migration {migration.version} is out of sequence (expected {expected})"
            )


def check_history(
    target: str | Path,
    recorded: list[tuple[int, str]],
    migrations: tuple[Migration, ...],
    *,
    newest: int = 0,
) -> set[int]:
    """The versions a database has applied, from its ``(version, name)`` rows, refusing one
    this code must not touch: a newer schema (``newest`` adds a version recorded elsewhere,
    SQLite's ``user_version``), or a history that names its migrations differently."""
    known = len(migrations)
    newest = max([newest, *(version for version, _ in recorded)])
    if newest > known:
        raise SchemaTooNewError(
            target,
            f"its schema is version {newest} but this version of the bot knows only up to {known}"
            " (was it opened by a newer bot? upgrade the bot or restore an older backup)",
        )
    for version, name in recorded:
        if migrations[version - 1].name != name:
            raise MigrationMismatchError(
                target,
                f"its migration {version} is {name!r} but this code's migration {version} is "
                f"{migrations[version - 1].name!r}",
            )
    return {version for version, _ in recorded}
