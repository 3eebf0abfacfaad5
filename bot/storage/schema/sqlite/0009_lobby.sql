-- lobby: seeks across servers, blocks, a game's venue in each player's server
-- Expanding only: releases from schema 8 run on it unchanged.
-- A player's request for an opponent from any server the bot is in ("find me a game"): open
-- until paired with a compatible seek, cancelled, withdrawn (its player started another game)
-- or expired. A pair is made in one transaction: both seeks 'matched', each naming the other
-- and its side; the game they start is recorded once it exists.
CREATE TABLE seeks (
    id            INTEGER PRIMARY KEY,
    player_id     INTEGER NOT NULL REFERENCES players (id),
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    move_seconds  INTEGER CHECK (move_seconds > 0),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    rating        REAL    NOT NULL,
    rating_range  INTEGER CHECK (rating_range > 0),
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'matched', 'cancelled', 'withdrawn', 'expired')),
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    opponent_id   INTEGER REFERENCES seeks (id) DEFERRABLE INITIALLY DEFERRED,
    side          TEXT    CHECK (side IN ('attackers', 'defenders')),
    game_id       INTEGER REFERENCES games (id),
    CHECK ((status = 'matched') = (opponent_id IS NOT NULL AND side IS NOT NULL))
);
CREATE UNIQUE INDEX seeks_one_open_per_player ON seeks (player_id) WHERE status = 'open';
CREATE INDEX seeks_open_by_kind ON seeks (variant, created_at) WHERE status = 'open';
CREATE INDEX seeks_matched_unstarted ON seeks (ended_at) WHERE status = 'matched' AND game_id IS NULL;
-- Who will never be paired with whom (either way round).
CREATE TABLE blocks (
    player_id  INTEGER NOT NULL REFERENCES players (id),
    blocked_id INTEGER NOT NULL REFERENCES players (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, blocked_id),
    CHECK (player_id <> blocked_id)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked_id);
-- Where each side of a game across two servers plays it: a thread (or channel) in the server the
-- player sought from, with the board message shown there. A game in one channel has no rows.
CREATE TABLE game_venues (
    game_id          INTEGER NOT NULL REFERENCES games (id),
    side             TEXT    NOT NULL CHECK (side IN ('attackers', 'defenders')),
    guild_id         INTEGER NOT NULL,
    guild_name       TEXT    NOT NULL,
    channel_id       INTEGER NOT NULL,
    note             TEXT,
    board_message_id INTEGER,
    board_ply        INTEGER CHECK (board_ply >= 0),
    end_shown        INTEGER NOT NULL DEFAULT 0 CHECK (end_shown IN (0, 1)),
    active           INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    -- When the venue's channel was found deleted (the game is adjourned until its player
    -- continues it elsewhere, or forfeits it).
    gone_at          INTEGER,
    PRIMARY KEY (game_id, side)
);
CREATE UNIQUE INDEX game_venues_one_active_per_channel ON game_venues (channel_id) WHERE active = 1;
-- The lobby in each server: taking part or not, the channels seeks are taken in (empty: any),
-- and the variants and times per move it offers (empty: all).
ALTER TABLE guild_settings ADD COLUMN lobby INTEGER NOT NULL DEFAULT 1 CHECK (lobby IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN lobby_channels TEXT;
ALTER TABLE guild_settings ADD COLUMN lobby_variants TEXT;
ALTER TABLE guild_settings ADD COLUMN lobby_times TEXT;
-- A direct message when it is the player's move, or their time runs low (opted in); the game
-- remembers the last ply someone was told of, so that each move is told at most once.
ALTER TABLE player_preferences ADD COLUMN notify INTEGER NOT NULL DEFAULT 0 CHECK (notify IN (0, 1));
ALTER TABLE games ADD COLUMN notified_ply INTEGER;
