-- tournaments: events inside a server (Swiss, round robin, arena), their entrants, pairings and history
-- Expanding only: releases from schema 9 run on it unchanged.
-- An event, from sign-up to its final standings. ``round`` is the round being played (0 before the
-- first); a round's transition is one compare-and-set on it, so of several processes only one
-- pairs each round. Arena events have no rounds: their players are paired as they come free,
-- until ``ends_at``.
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    announcement_id INTEGER,
    name            TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    format          TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'arena')),
    rounds          INTEGER CHECK (rounds > 0),
    arena_seconds   INTEGER CHECK (arena_seconds > 0),
    matches         INTEGER NOT NULL CHECK (matches IN (0, 1)),
    move_seconds    INTEGER CHECK (move_seconds > 0),
    round_seconds   INTEGER CHECK (round_seconds > 0),
    rated           INTEGER NOT NULL CHECK (rated IN (0, 1)),
    rating_floor    INTEGER,
    rating_ceiling  INTEGER,
    min_entrants    INTEGER NOT NULL CHECK (min_entrants >= 2),
    starts_at       INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'signup'
                    CHECK (status IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
    round           INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    standings_round INTEGER CHECK (standings_round >= 0),
    round_deadline  INTEGER,
    ends_at         INTEGER,
    created_by      INTEGER NOT NULL REFERENCES players (id),
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    ended_at        INTEGER
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_due ON tournaments (status, starts_at);
-- Who takes part: from the round they joined in (late entrants get zero-point byes for the rounds
-- they missed) until they withdrew or were removed (no longer paired; their games stand).
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    seed_rating   REAL    NOT NULL,
    joined_at     INTEGER NOT NULL,
    joined_round  INTEGER NOT NULL CHECK (joined_round >= 0),
    left_at       INTEGER,
    left_reason   TEXT,
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX tournament_entrants_by_player ON tournament_entrants (player_id);
-- A round's pairings: one game, or a two-game match with sides swapped (``first`` attacks in the
-- first game), or a bye (no ``second``). Points are set once the pairing is decided: by its games,
-- or by the organiser (a forfeit or an adjudication, with the reason).
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    board         INTEGER NOT NULL CHECK (board >= 1),
    first_id      INTEGER NOT NULL REFERENCES players (id),
    second_id     INTEGER REFERENCES players (id),
    game1_id      INTEGER REFERENCES games (id),
    game2_id      INTEGER REFERENCES games (id),
    first_points  REAL,
    second_points REAL,
    decided       TEXT CHECK (decided IN ('played', 'bye', 'forfeit', 'adjudicated')),
    reason        TEXT,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_pairings_game1 ON tournament_pairings (game1_id);
CREATE INDEX tournament_pairings_game2 ON tournament_pairings (game2_id);
-- Everything that happened to an event, in order: who did what, and why.
CREATE TABLE tournament_log (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    at            INTEGER NOT NULL,
    actor_id      INTEGER REFERENCES players (id),
    action        TEXT    NOT NULL,
    detail        TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX tournament_log_by_event ON tournament_log (tournament_id, id);
-- The role whose members may run the server's tournaments besides those who may manage it.
ALTER TABLE guild_settings ADD COLUMN tournament_role INTEGER;
