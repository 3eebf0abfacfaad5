"""The storage facade the bot holds: one database, its stores, and the start-up load."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from types import TracebackType

from bot.engine import Game

from .analyses import AnalysisStore
from .challenges import ChallengeStore
from .database import DEFAULT_POSTGRES, Clock, Database, PostgresOptions, Row, Synchronous
from .errors import StorageError
from .games import GAME_SELECT, GameStore, fetch_game, game_from_row
from .leaderboards import LeaderboardStore
from .leases import LeaseStore
from .lobby import LobbyStore
from .models import GameRecord, GameStatus
from .movelog import moves_in_effect
from .offers import OfferStore
from .opening import open_database
from .preferences import PreferencesStore
from .puzzles import PuzzleStore
from .ratings import FixedRatings, RatingStore
from .replay import replay_game
from .settings import SettingsStore
from .shards import Shards
from .sqlite import SqliteDatabase
from .turns import IdentifyTurns

log = logging.getLogger(__name__)

Replayer = Callable[[GameRecord, Sequence[str]], Game]
"""Rebuilds the engine's game from a record and its moves in effect (see :mod:`.replay`)."""


# Both start-up queries go through the partial index of active games, so their cost follows the
# number of active games and their moves, not the size of the whole history.
_ACTIVE_IDS = "SELECT id FROM games WHERE status = 'active'"


def _served_ids(shards: Shards) -> str:
    """The active games of ``shards``' servers: played there, or with a venue there."""
    return (
        f"{_ACTIVE_IDS} AND ({shards.where('guild_id')} OR id IN (SELECT game_id FROM"
        f" game_venues WHERE active = 1 AND {shards.where('guild_id')}))"
    )


def active_games_sql(shards: Shards) -> str:
    """The start-up query of the active games of ``shards``' servers."""
    return GAME_SELECT + f"WHERE g.id IN ({_served_ids(shards)}) ORDER BY g.id"


def active_logs_sql(shards: Shards) -> str:
    """The start-up query of those games' move logs."""
    return f"""
SELECT m.game_id, m.kind, m.ply, m.move FROM moves AS m
WHERE m.game_id IN ({_served_ids(shards)})
ORDER BY m.game_id, m.seq
"""


ACTIVE_GAMES_SQL = active_games_sql(Shards.every())
ACTIVE_LOGS_SQL = active_logs_sql(Shards.every())


@dataclass(frozen=True)
class LoadedGame:
    """An active game rebuilt at start-up, at the exact position of its last committed move."""

    record: GameRecord
    moves: tuple[str, ...]
    game: Game


@dataclass(frozen=True)
class UnreplayableGame:
    """An active game set aside at start-up; it was kept and marked ``unreplayable``."""

    id: int
    channel_id: int
    problem: str
    record: GameRecord | None
    """The game as read, or ``None`` when its row itself could not be read."""


@dataclass(frozen=True)
class StartupReport:
    """What :meth:`Storage.load_active_games` found."""

    games: tuple[LoadedGame, ...]
    unreplayable: tuple[UnreplayableGame, ...]
    replay_seconds: float
    """Time spent inside the engine's replay, reported apart from the storage's own work."""
    total_seconds: float

    @property
    def over_on_board(self) -> tuple[LoadedGame, ...]:
        """Games whose last committed move ended them before the result was recorded (the bot
        stopped in between): finish these with the engine's outcome."""
        return tuple(loaded for loaded in self.games if loaded.game.is_over)


def _problem(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


def _read_records(rows: Iterable[Row]) -> tuple[list[GameRecord], list[UnreplayableGame]]:
    """The active games' records; a row that cannot be read (a value this version does not know)
    is set aside instead of stopping the others."""
    records: list[GameRecord] = []
    broken: list[UnreplayableGame] = []
    for row in rows:
        try:
            records.append(game_from_row(row))
        except Exception as error:  # any surprise in one row must not stop the start-up
            broken.append(UnreplayableGame(row["id"], row["channel_id"], _problem(error), None))
    return records, broken


def _replay_all(
    records: list[GameRecord],
    logs: dict[int, list[tuple[str, int, str | None]]],
    replay: Replayer,
) -> tuple[list[LoadedGame], list[UnreplayableGame], float]:
    """Replay every game; also returns the seconds spent inside ``replay`` (the engine's share)."""
    loaded: list[LoadedGame] = []
    broken: list[UnreplayableGame] = []
    engine_seconds = 0.0
    for record in records:
        try:
            moves = moves_in_effect(logs.get(record.id, ()))
            started = time.perf_counter()
            try:
                game = replay(record, moves)
            finally:
                engine_seconds += time.perf_counter() - started
        # Deliberately broad: whatever stops one game replaying must stop neither the bot nor the
        # other games; the game is kept and marked instead.
        except Exception as error:
            problem = _problem(error)
            marked = replace(record, status=GameStatus.UNREPLAYABLE, problem=problem)
            broken.append(UnreplayableGame(record.id, record.channel_id, problem, marked))
            continue
        loaded.append(LoadedGame(record, tuple(moves), game))
    return loaded, broken, engine_seconds


class Storage:
    """The bot's storage: ``games``, ``challenges``, ``offers`` (draw and takeback),
    ``analyses`` (reviews of finished games), ``puzzles``, ``ratings``, ``leaderboards``,
    ``settings`` (per server), ``preferences`` (per player) and ``lobby`` (seeks across
    servers, and blocks); and for the processes
    themselves, ``leases`` (which one serves which shards) and ``identify_turns`` (when each may
    connect to Discord).

    Open it once at start-up with :meth:`open` and share it; it is safe to use from many
    coroutines.
    """

    def __init__(
        self, db: Database, shards: Shards | None = None, ai_ratings: FixedRatings | None = None
    ) -> None:
        self.db = db
        self.shards = shards or Shards.every()
        """The servers this process answers for; the background scans see only theirs."""
        self.games = GameStore(db, self.shards, ai_ratings)
        self.challenges = ChallengeStore(db, self.shards)
        self.offers = OfferStore(db, self.shards)
        self.analyses = AnalysisStore(db)
        self.puzzles = PuzzleStore(db)
        self.ratings = RatingStore(db)
        self.leaderboards = LeaderboardStore(db)
        self.settings = SettingsStore(db)
        self.preferences = PreferencesStore(db)
        self.lobby = LobbyStore(db, self.shards)
        self.leases = LeaseStore(db)
        self.identify_turns = IdentifyTurns(db)

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        shards: Shards | None = None,
        synchronous: Synchronous = "FULL",
        check_integrity: bool = True,
        clock: Clock = time.time,
        ai_ratings: FixedRatings | None = None,
        postgres: PostgresOptions = DEFAULT_POSTGRES,
    ) -> Storage:
        """Open (creating if needed) and migrate the database at ``target``: an SQLite file path,
        or a ``postgresql://`` URL.

        Raises a :class:`~bot.storage.errors.DatabaseUnusable` subclass, with a message naming the
        database, when the bot must not start (the database is then left untouched), and
        :class:`~bot.storage.errors.DatabaseUnavailable` when its server cannot be reached.
        ``shards`` limits the background scans to those shards' servers (all, by default).
        ``ai_ratings`` gives the AI's fixed rating at each level: rated games against it then
        move only the player's rating (without it, the AI is rated like a player).
        ``postgres`` sets the pool and timeouts of a PostgreSQL database.
        """
        return cls(
            await open_database(
                target,
                synchronous=synchronous,
                check_integrity=check_integrity,
                clock=clock,
                postgres=postgres,
            ),
            shards,
            ai_ratings,
        )

    async def load_active_games(self, replay: Replayer | None = None) -> StartupReport:
        """Load every active game of this process's servers and replay it through the engine.

        All games and all their moves come from two queries; the replay runs in a worker thread so
        the event loop stays responsive. A game that cannot be loaded (a row with a value this
        version does not know, an engine error, an inconsistent log, anything) is logged with its
        id and the reason, marked ``unreplayable`` and listed in the report; it is never deleted
        and never stops the others from loading.
        """
        started = time.perf_counter()
        async with self.db.snapshot() as connection:
            records, unreadable = _read_records(
                await connection.fetch(active_games_sql(self.shards))
            )
            log_rows = await connection.fetch(active_logs_sql(self.shards))
        logs = {
            game_id: [(row[1], row[2], row[3]) for row in rows]
            for game_id, rows in itertools.groupby(log_rows, key=lambda row: row[0])
        }
        loaded, unreplayable, replay_seconds = await asyncio.to_thread(
            _replay_all, records, logs, replay or replay_game
        )
        broken = unreadable + unreplayable
        for game in broken:
            log.error(
                "game %d in channel %d was set aside (its moves are kept): %s",
                game.id,
                game.channel_id,
                game.problem,
            )
            await self.games.mark_unreplayable(game.id, game.problem)
        return StartupReport(
            tuple(loaded), tuple(broken), replay_seconds, time.perf_counter() - started
        )

    async def load_game(self, game_id: int, replay: Replayer | None = None) -> LoadedGame:
        """One game rebuilt from what is committed (e.g. after a write whose outcome the caller
        could not learn). Raises :class:`~.errors.NotFound`, or the engine's error when its
        moves no longer replay."""
        async with self.db.snapshot() as connection:
            record = await fetch_game(connection, game_id)
            rows = await connection.fetch(
                "SELECT kind, ply, move FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        moves = moves_in_effect((row[0], row[1], row[2]) for row in rows)
        game = await asyncio.to_thread(replay or replay_game, record, moves)
        return LoadedGame(record, tuple(moves), game)

    async def backup(self, target: str | os.PathLike[str]) -> None:
        """Write a consistent copy of an SQLite database to the file ``target`` while the bot
        runs (PostgreSQL is backed up with its own tools: ``pg_dump``)."""
        if not isinstance(self.db, SqliteDatabase):
            raise StorageError(
                f"{self.db.target} is a PostgreSQL database: back it up with pg_dump"
            )
        await self.db.backup(target)

    async def close(self) -> None:
        """Close the database."""
        await self.db.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
