"""Puzzle sessions: which puzzle a person is given, and what each of their moves does to their go
and to both ratings, and why a request is refused (typed :class:`~.errors.Refusal` kinds). Nothing
here talks to Discord or words a sentence: the puzzles cog shows it, as :mod:`..compose.puzzles`
words it.

A person has one go open at a time, stored, so a restart loses nothing. Their first go at a
puzzle is rated (lost at the first wrong move, won when solved without one); later goes are
practice. A server's daily puzzle is the same for everyone that day.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.ai.puzzles import Puzzle, Verdict, load_starter_set
from bot.engine import Game, TaflError, square_name
from bot.storage import (
    AttemptChanged,
    DailySolver,
    DatabaseUnavailable,
    Participant,
    PuzzleAttempt,
    RatedGo,
    Storage,
    StoredPuzzle,
)

from .errors import Refusal, Refused

log = logging.getLogger(__name__)

STOCK_RETRY_SECONDS = 5.0
"""Seconds between tries to add the shipped puzzles while the database is out of reach."""
STOCK_WAIT_SECONDS = 2.0
"""How long someone asking for a puzzle in the first moments after a start waits for them."""


# ---------------------------------------------------------------------------- refusals


@dataclass(frozen=True)
class DailyNeedsServer(Refusal):
    """The daily puzzle was asked for outside a server."""


@dataclass(frozen=True)
class AllTried(Refusal):
    """The person has tried every puzzle (of ``variant``, when one was asked for)."""

    variant: str | None


@dataclass(frozen=True)
class PuzzleClosed(Refusal):
    """A board's menu belongs to a puzzle that is no longer the person's open one."""

    puzzle_id: str


@dataclass(frozen=True)
class StaleBoard(Refusal):
    """A board's menu is older than the go: the puzzle has moved on since."""


@dataclass(frozen=True)
class IllegalMove(Refusal):
    """The move typed is not legal (or not readable) here; ``detail``: the rules' reason."""

    detail: str


@dataclass(frozen=True)
class PieceStuck(Refusal):
    """The piece chosen on a puzzle's board cannot move now."""


def today() -> str:
    """The day a daily puzzle belongs to (UTC, so it is the same day on every process)."""
    return datetime.now(UTC).strftime("%Y-%m-%d")


def daily_order(guild_id: int, day: str, puzzle_ids: list[str]) -> list[str]:
    """The puzzles in the order a server's daily puzzle is chosen from on ``day``: a shuffle
    fixed by the server and the day, so every process picks the same."""
    return sorted(
        puzzle_ids,
        key=lambda pid: hashlib.sha256(f"{guild_id}:{day}:{pid}".encode()).hexdigest(),
    )


def position_of(puzzle: Puzzle, line: tuple[str, ...]) -> Game:
    """The puzzle's game after the moves of a go."""
    game = puzzle.game()
    for move in line:
        game.play(move)
    return game


@dataclass(frozen=True)
class Session:
    """The go a person is shown: its puzzle and attempt, and how it came to be shown."""

    stored: StoredPuzzle
    puzzle: Puzzle
    attempt: PuzzleAttempt
    resumed: bool
    """The go was already under way (asked again, or the daily puzzle already started)."""
    left: str | None = None
    """A puzzle left unsolved for this one (its id)."""
    solvers: tuple[DailySolver, ...] | None = None
    """For the daily puzzle: who has solved it today."""

    @property
    def practice(self) -> bool:
        """A go that does not count for the ratings: the person tried the puzzle before."""
        return not self.resumed and self.attempt.rated is not None


@dataclass(frozen=True)
class Judged:
    """What a move in a go did."""

    puzzle: Puzzle
    attempt: PuzzleAttempt
    """The go as it was before the move."""
    verdict: Verdict
    line: tuple[str, ...]
    """The go's moves now (the wrong move is not one of them)."""
    rated: RatedGo | None = None
    """The ratings' change, when this move settled a rated go."""


class PuzzleSessions:
    """Gives people puzzles and judges their moves, keeping goes and ratings in storage."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._puzzles: dict[str, Puzzle] = {}
        self.stocked = asyncio.Event()
        """Set once the shipped puzzles are in the database (see :meth:`stock`)."""

    async def add_shipped(self) -> tuple[int, int]:
        """Add the shipped set to the database (puzzles stored before keep their ratings);
        returns how many were shipped and how many were new."""
        shipped = await asyncio.to_thread(load_starter_set)
        added = await self.storage.puzzles.add(
            (p.id, p.variant, p.to_text(), float(p.rating)) for p in shipped
        )
        return len(shipped), added

    async def stock(self) -> None:
        """:meth:`add_shipped`, retried while the database is out of reach; the puzzles are
        offered once it is done (or has failed for good)."""
        try:
            while True:
                try:
                    shipped, added = await self.add_shipped()
                except DatabaseUnavailable:
                    await asyncio.sleep(STOCK_RETRY_SECONDS)
                    continue
                log.info("puzzles: %d shipped, %d new in the database", shipped, added)
                return
        finally:
            self.stocked.set()

    async def open_go(self, user_id: int) -> PuzzleAttempt | None:
        """The person's go in progress, if any."""
        return await self.storage.puzzles.open_attempt(user_id)

    async def position(self, attempt: PuzzleAttempt) -> Game:
        """A go's position now."""
        return position_of(await self.load(attempt.puzzle_id), attempt.line)

    async def choose(
        self,
        person: Participant,
        guild_id: int | None,
        variant: str | None,
        *,
        daily: bool,
        fresh: bool,
    ) -> Session:
        """The go to show: the one in progress (of ``variant``, if given), or with ``fresh`` a
        new puzzle of ``variant`` near the person's rating, or the server's daily puzzle."""
        if not self.stocked.is_set():
            # Only in a process's first moments; a database that has puzzles from an earlier
            # start can give them meanwhile.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stocked.wait(), STOCK_WAIT_SECONDS)
        storage = self.storage.puzzles
        user_id = person.user_id or 0
        open_go = await storage.open_attempt(user_id)
        open_puzzle = None if open_go is None else await storage.get(open_go.puzzle_id)
        if (
            not (daily or fresh)
            and open_go is not None
            and open_puzzle is not None
            and variant in (None, open_puzzle.variant)
        ):
            # Back to the go in progress (its private board may have been dismissed).
            return Session(open_puzzle, self.puzzle(open_puzzle), open_go, resumed=True)
        solvers = None
        day = None
        if daily:
            if guild_id is None:
                raise Refused(DailyNeedsServer())
            day = today()
            chosen = await storage.daily(
                guild_id, day, daily_order(guild_id, day, await storage.ids())
            )
            stored = await storage.get(chosen)
            solvers = tuple(await storage.daily_solvers(guild_id, day))
        else:
            found = await storage.pick(user_id, variant)
            if found is None:
                raise Refused(AllTried(variant))
            stored = found
        if open_go is not None and open_go.puzzle_id == stored.id:
            # The daily puzzle, already under way.
            return Session(stored, self.puzzle(stored), open_go, resumed=True, solvers=solvers)
        attempt = await storage.start(person, stored.id, guild_id=guild_id, daily_day=day)
        left = None if open_go is None else open_go.puzzle_id
        return Session(stored, self.puzzle(stored), attempt, False, left, solvers)

    async def current(self, user_id: int, puzzle_id: str, step: int) -> PuzzleAttempt:
        """The go a board's menu belongs to, or why the menu no longer counts."""
        attempt = await self.open_go(user_id)
        if attempt is None or attempt.puzzle_id != puzzle_id:
            raise Refused(PuzzleClosed(puzzle_id))
        if len(attempt.line) != step:
            raise Refused(StaleBoard())
        return attempt

    async def board(self, user_id: int, puzzle_id: str, step: int) -> tuple[PuzzleAttempt, Game]:
        """The go a board's menu belongs to (see :meth:`current`) and its position now."""
        attempt = await self.current(user_id, puzzle_id, step)
        return attempt, await self.position(attempt)

    async def piece(self, user_id: int, puzzle_id: str, step: int, origin: int | None) -> Game:
        """The position of the go a board's menu belongs to, where the piece on ``origin`` was
        chosen to move: it must be able to."""
        _, game = await self.board(user_id, puzzle_id, step)
        if origin is None or not game.legal_moves(origin):
            raise Refused(PieceStuck())
        return game

    async def judge_squares(
        self, user_id: int, puzzle_id: str, step: int, origin: int, target: int
    ) -> Judged:
        """Judge a move clicked on a go's board (from ``origin`` to ``target``), whose menus
        belong to the go at ``step`` moves (see :meth:`current`)."""
        attempt, game = await self.board(user_id, puzzle_id, step)
        text = f"{square_name(origin, game.size)}-{square_name(target, game.size)}"
        return await self.judge(user_id, attempt, text)

    async def judge(self, user_id: int, attempt: PuzzleAttempt, text: str) -> Judged:
        """Judge a move of a go and store what it did: the win, the reply, or a miss (a rated
        go is lost at its first wrong move)."""
        storage = self.storage.puzzles
        puzzle = await self.load(attempt.puzzle_id)
        try:
            verdict = await asyncio.to_thread(
                puzzle.answer, attempt.line, text, attempt=attempt.mistakes + 1
            )
        except TaflError as error:
            raise Refused(IllegalMove(str(error))) from None
        try:
            if verdict.correct and verdict.solved:
                line = (*attempt.line, verdict.move)
                _, rated = await storage.solve(user_id, puzzle.id, attempt.line, line)
                return Judged(puzzle, attempt, verdict, line, rated)
            if verdict.correct:
                assert verdict.reply is not None
                line = (*attempt.line, verdict.move, verdict.reply)
                await storage.advance(user_id, puzzle.id, attempt.line, line)
                return Judged(puzzle, attempt, verdict, line)
            _, rated = await storage.mistake(user_id, puzzle.id, attempt.line)
        except AttemptChanged:
            raise Refused(StaleBoard()) from None
        return Judged(puzzle, attempt, verdict, attempt.line, rated)

    async def load(self, puzzle_id: str) -> Puzzle:
        """A puzzle by id (read once, then kept)."""
        if puzzle_id not in self._puzzles:
            self.puzzle(await self.storage.puzzles.get(puzzle_id))
        return self._puzzles[puzzle_id]

    def puzzle(self, stored: StoredPuzzle) -> Puzzle:
        """The puzzle a stored one holds (read once, then kept)."""
        puzzle = self._puzzles.get(stored.id)
        if puzzle is None:
            puzzle = self._puzzles[stored.id] = Puzzle.from_json(stored.data)
        return puzzle
