"""Puzzles: the set the bot offers, people's attempts at them, puzzle ratings and daily puzzles.

A puzzle's content is the AI's JSON (``bot.ai.puzzles``): storage keeps it as text with the few
columns it needs to choose one (id, variant, difficulty rating).

Ratings follow lichess's puzzle ratings: each person has one Glicko-2 puzzle rating, each puzzle a
difficulty rating, and a person's **first** go at a puzzle is a rated game between the two, lost
at the first wrong move and won when solved without one. Both ratings change in one transaction,
their rows read ``FOR UPDATE`` (person first, then puzzle), so two processes rating at once take
turns. Later goes at the same puzzle are practice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from .database import Connection, Database, Row
from .errors import AttemptChanged, NotFound
from .glicko2 import Rating, rate_game
from .models import Participant, to_datetime
from .players import player_id

PUZZLE_RD = 200.0
"""A new puzzle's rating deviation: its initial rating is the generator's estimate (from its
length and kind), worth more than a newcomer's 350, so that its first solver does not swing it
by hundreds of points."""

PuzzleResult = str
"""``"win"`` or ``"loss"``, the person's result in a rated go."""


@dataclass(frozen=True)
class StoredPuzzle:
    """A puzzle as storage knows it."""

    id: str
    variant: str
    data: str
    rating: Rating
    attempts: int
    solved: int


@dataclass(frozen=True)
class PuzzleAttempt:
    """One person's go at one puzzle."""

    user_id: int
    puzzle_id: str
    line: tuple[str, ...]
    """The moves so far: the solver's and the replies, in order."""
    mistakes: int
    status: str
    """``"open"``, ``"solved"`` or ``"abandoned"``."""
    rated: PuzzleResult | None
    """The rated result of this go, once it has one (``None``: practice, or not decided yet)."""
    guild_id: int | None
    daily_day: str | None
    started_at: datetime


@dataclass(frozen=True)
class PuzzleRating:
    """A person's puzzle rating and record."""

    rating: Rating
    attempts: int
    solved: int


@dataclass(frozen=True)
class RatedGo:
    """How a rated go moved both ratings."""

    result: PuzzleResult
    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


@dataclass(frozen=True)
class DailySolver:
    """Someone who solved a server's daily puzzle."""

    user_id: int
    display_name: str | None
    mistakes: int
    finished_at: datetime


def _attempt(row: Row) -> PuzzleAttempt:
    started = to_datetime(row["started_at"])
    assert started is not None  # NOT NULL column
    line = str(row["line"])
    return PuzzleAttempt(
        user_id=row["discord_user_id"],
        puzzle_id=row["puzzle_id"],
        line=tuple(line.split()) if line else (),
        mistakes=row["mistakes"],
        status=row["status"],
        rated=row["rated"],
        guild_id=row["guild_id"],
        daily_day=row["daily_day"],
        started_at=started,
    )


_ATTEMPT = """
SELECT p.discord_user_id, a.puzzle_id, a.line, a.mistakes, a.status, a.rated, a.guild_id,
       a.daily_day, a.started_at
FROM puzzle_attempts AS a JOIN players AS p ON p.id = a.player_id
"""


class PuzzleStore:
    """The puzzle set, attempts, ratings and daily puzzles."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, puzzles: Iterable[tuple[str, str, str, float]]) -> int:
        """Add ``(id, variant, data, initial rating)`` puzzles not stored yet (the shipped set at
        start-up); returns how many were new. Stored puzzles keep their earned ratings."""
        now = self._db.now()
        fresh = Rating(rd=PUZZLE_RD)
        async with self._db.transaction() as connection:
            stored = {str(row[0]) for row in await connection.fetch("SELECT id FROM puzzles")}
            new = [
                (puzzle_id, variant, data, rating, fresh.rd, fresh.volatility, now)
                for puzzle_id, variant, data, rating in puzzles
                if puzzle_id not in stored
            ]
            # In one batch: a start-up must not wait for a round trip per puzzle.
            await connection.execute_many(
                """
                INSERT INTO puzzles (id, variant, data, rating, rd, volatility, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """,
                new,
            )
        return len(new)

    async def get(self, puzzle_id: str) -> StoredPuzzle:
        """A puzzle by id; :class:`NotFound` if there is none."""
        async with self._db.read() as connection:
            row = await connection.fetch_one(
                "SELECT id, variant, data, rating, rd, volatility, attempts, solved"
                " FROM puzzles WHERE id = ?",
                (puzzle_id,),
            )
        if row is None:
            raise NotFound(f"there is no puzzle {puzzle_id}")
        return _puzzle(row)

    async def ids(self) -> list[str]:
        """Every puzzle's id, in id order."""
        async with self._db.read() as connection:
            rows = await connection.fetch("SELECT id FROM puzzles ORDER BY id")
        return [str(row[0]) for row in rows]

    async def count(self) -> dict[str, int]:
        """How many puzzles there are per variant."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT variant, count(*) FROM puzzles GROUP BY variant ORDER BY variant"
            )
        return {row[0]: int(row[1]) for row in rows}

    async def rating(self, user_id: int) -> PuzzleRating:
        """A person's puzzle rating (a newcomer's when they have none)."""
        async with self._db.read() as connection:
            row = await connection.fetch_one(
                """
                SELECT r.rating, r.rd, r.volatility, r.attempts, r.solved
                FROM puzzle_ratings AS r JOIN players AS p ON p.id = r.player_id
                WHERE p.discord_user_id = ?
                """,
                (user_id,),
            )
        if row is None:
            return PuzzleRating(Rating(), 0, 0)
        return PuzzleRating(Rating(row[0], row[1], row[2]), row[3], row[4])

    async def pick(self, user_id: int, variant: str | None = None) -> StoredPuzzle | None:
        """The puzzle nearest the person's rating that they have not tried (of ``variant``, or
        any), or ``None`` when they have tried them all."""
        rating = (await self.rating(user_id)).rating.rating
        async with self._db.read() as connection:
            row = await connection.fetch_one(
                """
                SELECT z.id, z.variant, z.data, z.rating, z.rd, z.volatility, z.attempts,
                       z.solved
                FROM puzzles AS z
                WHERE (CAST(:variant AS TEXT) IS NULL OR z.variant = :variant)
                  AND NOT EXISTS (
                      SELECT 1 FROM puzzle_attempts AS a JOIN players AS p ON p.id = a.player_id
                      WHERE a.puzzle_id = z.id AND p.discord_user_id = :user
                  )
                ORDER BY abs(z.rating - :rating), z.id
                LIMIT 1
                """,
                {"variant": variant, "user": user_id, "rating": rating},
            )
        return None if row is None else _puzzle(row)

    async def start(
        self,
        player: Participant,
        puzzle_id: str,
        *,
        guild_id: int | None = None,
        daily_day: str | None = None,
    ) -> PuzzleAttempt:
        """Open a go at a puzzle (setting aside any other open one of the person). A puzzle
        tried before starts again from its beginning, as practice."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            pid = await player_id(connection, player, now)
            await connection.execute(
                "UPDATE puzzle_attempts SET status = 'abandoned', finished_at = ?"
                " WHERE player_id = ? AND status = 'open' AND puzzle_id <> ?",
                (now, pid, puzzle_id),
            )
            await connection.execute(
                """
                INSERT INTO puzzle_attempts (player_id, puzzle_id, guild_id, daily_day, started_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (player_id, puzzle_id) DO UPDATE SET
                    line = '', status = 'open', finished_at = NULL,
                    daily_day = coalesce(excluded.daily_day, puzzle_attempts.daily_day),
                    guild_id = coalesce(excluded.guild_id, puzzle_attempts.guild_id)
                """,
                (pid, puzzle_id, guild_id, daily_day, now),
            )
            return await _fetch_attempt(connection, pid, puzzle_id)

    async def open_attempt(self, user_id: int) -> PuzzleAttempt | None:
        """The person's puzzle in progress, if any."""
        async with self._db.read() as connection:
            row = await connection.fetch_one(
                _ATTEMPT + "WHERE p.discord_user_id = ? AND a.status = 'open'", (user_id,)
            )
        return None if row is None else _attempt(row)

    async def advance(
        self, user_id: int, puzzle_id: str, expected: tuple[str, ...], line: tuple[str, ...]
    ) -> PuzzleAttempt:
        """Record a right move (and the reply) of an open go: the line becomes ``line``.
        :class:`AttemptChanged` if the go is no longer at ``expected`` (a racing click)."""
        attempt, _ = await self._step(user_id, puzzle_id, expected, line, "advance")
        return attempt

    async def solve(
        self, user_id: int, puzzle_id: str, expected: tuple[str, ...], line: tuple[str, ...]
    ) -> tuple[PuzzleAttempt, RatedGo | None]:
        """Record the winning move: the go is solved, and rated as a win if it was the
        person's first go and no move was wrong (in the same transaction)."""
        return await self._step(user_id, puzzle_id, expected, line, "solve")

    async def mistake(
        self, user_id: int, puzzle_id: str, expected: tuple[str, ...]
    ) -> tuple[PuzzleAttempt, RatedGo | None]:
        """Record a wrong move (the go stays open for another try); the person's first go is
        rated as lost at its first wrong move (in the same transaction)."""
        return await self._step(user_id, puzzle_id, expected, expected, "mistake")

    async def daily(self, guild_id: int, day: str, candidates: Iterable[str]) -> str:
        """The server's puzzle of ``day`` (``YYYY-MM-DD``): chosen from ``candidates`` (puzzle
        ids, in order of preference: the first not used in this server before) on the day's
        first ask, the same for everyone after."""
        async with self._db.transaction() as connection:
            chosen = await connection.fetch_value(
                "SELECT puzzle_id FROM daily_puzzles WHERE guild_id = ? AND day = ?",
                (guild_id, day),
            )
            if chosen is not None:
                return str(chosen)
            used = {
                row[0]
                for row in await connection.fetch(
                    "SELECT puzzle_id FROM daily_puzzles WHERE guild_id = ?", (guild_id,)
                )
            }
            ordered = list(candidates)
            if not ordered:
                raise NotFound("there are no puzzles to choose from")
            pick = next((puzzle for puzzle in ordered if puzzle not in used), ordered[0])
            # Two asks at once: the first insert wins and both read it back.
            await connection.execute(
                "INSERT INTO daily_puzzles (guild_id, day, puzzle_id) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, day) DO NOTHING",
                (guild_id, day, pick),
            )
            return str(
                await connection.fetch_value(
                    "SELECT puzzle_id FROM daily_puzzles WHERE guild_id = ? AND day = ?",
                    (guild_id, day),
                )
            )

    async def daily_solvers(self, guild_id: int, day: str) -> list[DailySolver]:
        """Who solved the server's puzzle of ``day``, first solver first."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                """
                SELECT p.discord_user_id, p.display_name, a.mistakes, a.finished_at
                FROM puzzle_attempts AS a JOIN players AS p ON p.id = a.player_id
                WHERE a.guild_id = ? AND a.daily_day = ? AND a.status = 'solved'
                ORDER BY a.finished_at, p.id
                """,
                (guild_id, day),
            )
        solvers = []
        for row in rows:
            finished = to_datetime(row[3])
            assert finished is not None  # set when solved
            solvers.append(DailySolver(row[0], row[1], row[2], finished))
        return solvers

    async def _step(
        self,
        user_id: int,
        puzzle_id: str,
        expected: tuple[str, ...],
        line: tuple[str, ...],
        kind: Literal["advance", "solve", "mistake"],
    ) -> tuple[PuzzleAttempt, RatedGo | None]:
        """One move of a go and, when it settles a first go, its rating: one transaction, so
        a crash between them cannot leave a solved go unrated or a miss uncounted."""
        now = self._db.now()
        async with self._db.transaction() as connection:
            if kind != "advance":
                # The puzzle's row first, as the rating below will lock it: two people
                # settling the same puzzle then queue here instead of deadlocking over the
                # key-share lock each one's attempt row takes on it.
                await connection.fetch_value(
                    "SELECT id FROM puzzles WHERE id = ?" + connection.for_update, (puzzle_id,)
                )
            pid = await connection.fetch_value(
                "SELECT id FROM players WHERE discord_user_id = ?", (user_id,)
            )
            if kind == "mistake":
                changed = await connection.execute(
                    "UPDATE puzzle_attempts SET mistakes = mistakes + 1"
                    " WHERE player_id = ? AND puzzle_id = ? AND status = 'open' AND line = ?",
                    (pid, puzzle_id, " ".join(expected)),
                )
            else:
                solved = kind == "solve"
                changed = await connection.execute(
                    """
                    UPDATE puzzle_attempts SET line = ?, status = ?, finished_at = ?
                    WHERE player_id = ? AND puzzle_id = ? AND status = 'open' AND line = ?
                    """,
                    (
                        " ".join(line), "solved" if solved else "open", now if solved else None,
                        pid, puzzle_id, " ".join(expected),
                    ),
                )  # fmt: skip
            if pid is None or changed == 0:
                raise AttemptChanged(f"the go at puzzle {puzzle_id} is no longer at that move")
            attempt = await _fetch_attempt(connection, int(pid), puzzle_id)
            rated = None
            if kind == "mistake":
                rated = await _rate_first_go(connection, int(pid), puzzle_id, "loss", now)
            elif kind == "solve" and attempt.mistakes == 0:
                rated = await _rate_first_go(connection, int(pid), puzzle_id, "win", now)
            if rated is not None:
                attempt = await _fetch_attempt(connection, int(pid), puzzle_id)
            return attempt, rated


def _puzzle(row: Row) -> StoredPuzzle:
    return StoredPuzzle(
        row[0], row[1], row[2], Rating(row[3], row[4], row[5]), int(row[6]), int(row[7])
    )


async def _fetch_attempt(connection: Connection, pid: int, puzzle_id: str) -> PuzzleAttempt:
    row = await connection.fetch_one(
        _ATTEMPT + "WHERE a.player_id = ? AND a.puzzle_id = ?", (pid, puzzle_id)
    )
    if row is None:
        raise NotFound(f"there is no go at puzzle {puzzle_id}")
    return _attempt(row)


async def _rate_first_go(
    connection: Connection, pid: int, puzzle_id: str, result: PuzzleResult, now: int
) -> RatedGo | None:
    """Rate the go if it is the person's first at this puzzle and not rated yet."""
    # The claim: only an unrated go becomes rated, once, whatever races it.
    claimed = await connection.execute(
        "UPDATE puzzle_attempts SET rated = ?"
        " WHERE player_id = ? AND puzzle_id = ? AND rated IS NULL",
        (result, pid, puzzle_id),
    )
    if claimed == 0:
        return None
    fresh = Rating()
    await connection.execute(
        """
        INSERT INTO puzzle_ratings (player_id, rating, rd, volatility, updated_at)
        VALUES (?, ?, ?, ?, ?) ON CONFLICT (player_id) DO NOTHING
        """,
        (pid, fresh.rating, fresh.rd, fresh.volatility, now),
    )
    person = await connection.fetch_one(
        "SELECT rating, rd, volatility FROM puzzle_ratings WHERE player_id = ?"
        + connection.for_update,
        (pid,),
    )
    puzzle = await connection.fetch_one(
        "SELECT rating, rd, volatility FROM puzzles WHERE id = ?" + connection.for_update,
        (puzzle_id,),
    )
    assert person is not None and puzzle is not None  # both written or checked above
    person_before = Rating(person[0], person[1], person[2])
    puzzle_before = Rating(puzzle[0], puzzle[1], puzzle[2])
    score = 1.0 if result == "win" else 0.0
    person_after, puzzle_after = rate_game(person_before, puzzle_before, score)
    won = int(result == "win")
    await connection.execute(
        """
        UPDATE puzzle_ratings SET rating = ?, rd = ?, volatility = ?,
            attempts = attempts + 1, solved = solved + ?, updated_at = ?
        WHERE player_id = ?
        """,
        (person_after.rating, person_after.rd, person_after.volatility, won, now, pid),
    )
    await connection.execute(
        """
        UPDATE puzzles SET rating = ?, rd = ?, volatility = ?,
            attempts = attempts + 1, solved = solved + ?
        WHERE id = ?
        """,
        (puzzle_after.rating, puzzle_after.rd, puzzle_after.volatility, won, puzzle_id),
    )
    return RatedGo(result, person_before, person_after, puzzle_before, puzzle_after)
