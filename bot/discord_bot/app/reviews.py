"""Reviews of finished games: which game a request means, the stored review when there is one,
and otherwise a new one made in the AI's workers and stored.

Every position is searched at a fixed depth (the same budget gives the same review, so a stored
review is reused as it is), one position per request, so AI games in other channels are never
kept waiting for more than one position. Each member's reviews are made one at a time, in the
order asked; a second ask for a review being made watches it instead of making another. Those
waiting are told how it goes (:class:`ReviewProgress`, :class:`ReviewWaiting`). Nothing here
talks to Discord: the composition words the news and the review, the review cog shows them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.ai import AIService
from bot.ai.analysis import Deepening, GameAnalysis, budget_name, default_depth, review
from bot.engine import Game, Side
from bot.storage import AnalysisStore, GameRecord, GameStatus, GameStore

from .errors import Refusal, Refused
from .records import GameRecords

log = logging.getLogger(__name__)

PROGRESS_EVERY = 2.0
"""Seconds between progress reports (Discord limits edits; players need only a pulse)."""


@dataclass(frozen=True)
class ReviewProgress:
    """How far a review being made has got."""

    game_id: int
    done: int
    """Positions searched."""
    total: int
    elapsed: float
    """Seconds since it began."""
    deeper: bool = False
    """Every position is searched; it looks deeper where the game was decided."""


@dataclass(frozen=True)
class ReviewWaiting:
    """A member's review waits for their earlier ones to be made first."""

    game_id: int
    ahead: int
    """How many of their reviews are made before it."""


ReviewNews = ReviewProgress | ReviewWaiting
Watcher = Callable[[ReviewNews], Awaitable[None]]
"""Told of a review's news, for someone waiting for it."""

Key = tuple[int, str]
"""A review: its game, and the budget it is searched with."""


@dataclass(frozen=True)
class Reviewed:
    """A game's review, ready to show: the game's record, its analysis, and how long it was."""

    record: GameRecord
    analysis: GameAnalysis
    full_moves: int
    """The game's length as its record numbers it."""


@dataclass(frozen=True)
class NoFinishedGame(Refusal):
    """No game asked for, and none has finished in this channel."""


@dataclass(frozen=True)
class StillPlaying(Refusal):
    """The game asked for is still being played."""

    game_id: int


@dataclass(frozen=True)
class NoResult(Refusal):
    """The game asked for ended without a result (called off): nothing to review."""

    game_id: int


class ReviewService:
    """Finds the game to review, and gives its review: stored, or made (one at a time per
    member) and stored."""

    def __init__(
        self,
        games: GameStore,
        analyses: AnalysisStore,
        records: GameRecords,
        ai: AIService,
        *,
        clock: Callable[[], float] = time.monotonic,
        progress_every: float = PROGRESS_EVERY,
    ) -> None:
        self._games = games
        self._analyses = analyses
        self._records = records
        self._ai = ai
        self._clock = clock
        self._progress_every = progress_every
        self._working: dict[Key, asyncio.Task[GameAnalysis]] = {}
        """Reviews being made: a second ask for the same game waits for the first."""
        self._watching: dict[Key, list[Watcher]] = {}
        """Who is waiting for each review being made: each of them hears of its progress."""
        self._progress: dict[Key, ReviewProgress] = {}
        """The progress last reported of each review being made (for those who join it)."""
        self._turns: dict[int, asyncio.Lock] = {}
        """Each member's reviews are made one at a time, in the order asked (the lock is
        fair), so one member cannot fill the AI's workers with reviews."""
        self._asked: dict[int, int] = {}
        """How many reviews each member has asked for that are not ready yet."""

    async def finished(
        self, guild_id: int | None, channel_id: int, game_id: int | None
    ) -> tuple[GameRecord, Game]:
        """The game asked for (by default the channel's last finished one), which must have
        ended with a result in this server; with its moves replayed."""
        if game_id is None:
            game_id = await self._games.last_finished_in_channel(channel_id)
            if game_id is None:
                raise Refused(NoFinishedGame())
        record = await self._records.in_server(guild_id, game_id)
        if record.status is not GameStatus.FINISHED:
            if record.status is GameStatus.ACTIVE:
                raise Refused(StillPlaying(record.id))
            raise Refused(NoResult(record.id))
        return record, await self._records.replayed(record)

    async def review(
        self,
        record: GameRecord,
        played: Game,
        member: int | None = None,
        watch: Watcher | None = None,
    ) -> Reviewed:
        """The game's review to show (see :meth:`analysis`)."""
        analysis = await self.analysis(record, played, member, watch)
        return Reviewed(record, analysis, played.full_moves)

    async def analysis(
        self,
        record: GameRecord,
        played: Game,
        member: int | None = None,
        watch: Watcher | None = None,
    ) -> GameAnalysis:
        """The stored review of a game, or a new one (stored before it is returned).

        A ``member`` who asks for a review while another of theirs is being made waits for it
        (``watch`` is told how many are ahead); asking for one being made already just watches
        it."""
        budget = budget_name(record.variant)
        stored = await self._analyses.get(record.id, budget)
        if stored is not None:
            return GameAnalysis.from_json(stored)
        key = (record.id, budget)
        if member is None or key in self._working:
            return await self._review(record, played, key, watch)
        turn = self._turns.setdefault(member, asyncio.Lock())
        ahead = self._asked.get(member, 0)
        self._asked[member] = ahead + 1
        try:
            if turn.locked() and watch is not None:
                await watch(ReviewWaiting(record.id, ahead))
            async with turn:
                stored = await self._analyses.get(record.id, budget)
                if stored is not None:  # made meanwhile, for someone else
                    return GameAnalysis.from_json(stored)
                return await self._review(record, played, key, watch)
        finally:
            self._asked[member] -= 1
            if not self._asked[member]:
                del self._asked[member], self._turns[member]

    async def _review(
        self, record: GameRecord, played: Game, key: Key, watch: Watcher | None
    ) -> GameAnalysis:
        """Make the review (or watch the one being made), telling ``watch`` how it goes."""
        watching = self._watching.setdefault(key, [])
        if watch is not None:
            watching.append(watch)
        task = self._working.get(key)
        if task is None:
            task = asyncio.create_task(self._make(record, played, key, watching))
            self._working[key] = task

            def finished(_: object) -> None:
                self._working.pop(key, None)
                self._watching.pop(key, None)
                self._progress.pop(key, None)

            task.add_done_callback(finished)
        elif watch is not None and (shown := self._progress.get(key)) is not None:
            await watch(shown)  # joined midway: where it has got
        return await asyncio.shield(task)

    async def _show(self, key: Key, news: ReviewProgress, watching: list[Watcher]) -> None:
        """Tell those ``watching`` the review ``key`` how far it has got."""
        self._progress[key] = news
        for watch in list(watching):
            await watch(news)

    async def _make(
        self, record: GameRecord, played: Game, key: Key, watching: list[Watcher]
    ) -> GameAnalysis:
        moves = [result.move.text(played.size) for result in played.history]
        depth = default_depth(record.variant)
        total = len(moves) + 1
        started = self._clock()
        # At once, not after the first search (a second or more on a busy machine): the asker
        # sees the review under way instead of a bare "thinking".
        await self._show(key, ReviewProgress(record.id, 0, total, 0.0), watching)
        shown = started
        evals = []
        for ply in range(total):
            evals.append(
                await self._ai.evaluate(
                    variant=record.variant,
                    start_position=record.start_position,
                    start_turn=Side(record.first_turn),
                    moves=moves[:ply],
                    max_depth=depth,
                    key=f"review-{record.id}",
                )
            )
            now = self._clock()
            if watching and now - shown >= self._progress_every and ply + 1 < total:
                shown = now
                news = ReviewProgress(record.id, ply + 1, total, now - started)
                await self._show(key, news, watching)
        # Where a forced result or a collapse of chances began, look deeper for the move that
        # allowed it.
        deepening = Deepening(evals, depth, moves, Side(record.first_turn), record.variant)
        while (ask := deepening.next()) is not None:
            if deepening.searched == 0:
                news = ReviewProgress(record.id, total, total, now - started, deeper=True)
                await self._show(key, news, watching)
            deepening.accept(
                ask.position,
                await self._ai.evaluate(
                    variant=record.variant,
                    start_position=record.start_position,
                    start_turn=Side(record.first_turn),
                    moves=moves[: ask.position],
                    max_depth=ask.depth,
                    key=f"review-{record.id}",
                    exclude=ask.exclude,
                ),
            )
        analysis = await asyncio.to_thread(
            review,
            record.variant,
            record.start_position,
            Side(record.first_turn),
            moves,
            deepening.evals,
        )
        await self._analyses.save(record.id, budget_name(record.variant), analysis.to_json())
        log.info(
            "game %d reviewed: %d positions in %.1f s (%d searched again, deeper), %d moments",
            record.id, total, self._clock() - started, deepening.searched,
            len(analysis.moments),
        )  # fmt: skip
        return analysis
