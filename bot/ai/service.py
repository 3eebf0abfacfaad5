"""The AI as an asyncio service: searches run in worker processes, never in the event loop.

Each worker is a ``spawn``-context process with its own pipe. The event loop only sends a small
request and is woken by the pipe's file descriptor when the answer arrives, so many games can
think at once without adding lag. Cancelling a game kills its worker (the quickest way to stop a
search) and a fresh one takes its place; a worker that crashes is replaced too.

Live play comes first. A move for a game is served before any waiting review position, and
reviews (background work) hold at most all workers but one, so a game's move never waits behind
them; when every worker is busy and a move is waiting, a worker searching a review position is
stopped for it, and that position is searched again later.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar

from bot.engine.types import Side

from .analysis import SAFETY_SECONDS, PositionEval
from .levels import LEVELS, get_level
from .worker import (
    ChosenMove,
    EvaluationRequest,
    Failed,
    MoveRequest,
    Reply,
    Request,
    worker_main,
)

log = logging.getLogger(__name__)

__all__ = ["LEVELS", "AIError", "AIService", "AIStopped", "ChosenMove"]


class AIError(RuntimeError):
    """The AI could not produce a move (bad request, repeated crashes or a hung worker)."""


class AIStopped(asyncio.CancelledError):
    """The AI service was closed (the bot is stopping) before or during the search: not a
    failure, and no retry can help. A cancellation, so that work which only knows how to be
    cancelled stops as it would."""


LIVE = 0
"""The priority of a move for a game being played."""
BACKGROUND = 1
"""The priority of review work (a position of a finished game)."""
PURPOSES = {LIVE: "move", BACKGROUND: "review"}
"""What each priority's searches are for, as :attr:`AIService.on_search` and
:meth:`AIService.waiting` name them."""


@dataclass(frozen=True)
class _Crashed:
    """The worker died (or could not be reached) before it answered."""

    reason: str


@dataclass(frozen=True)
class _Preempted:
    """A background search stopped to free its worker for a live one."""


_Outcome = Reply | _Crashed | _Preempted
"""What waiting for a worker's answer ends with."""
_Answer = TypeVar("_Answer", ChosenMove, PositionEval)
"""What a request asks a worker for."""


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    connection: Connection
    game_key: str | None = None
    future: asyncio.Future[_Outcome] | None = None
    priority: int | None = None
    """The priority of the request it serves (``None``: free)."""


@dataclass(eq=False)
class _Request:
    game_key: str | None
    message: Request
    priority: int = LIVE
    cancelled: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


@dataclass(order=True)
class _Waiter:
    """A request waiting for a worker: the lowest (priority, arrival) is served first."""

    priority: int
    arrival: int
    future: asyncio.Future[_Worker] = field(compare=False)


class AIService:
    """A pool of search worker processes serving ``choose_move`` and ``evaluate`` requests.

    >>> service = AIService(workers=2)          # doctest: +SKIP
    >>> await service.start()                   # doctest: +SKIP
    >>> await service.choose_move(variant="tablut", start_position=start,
    ...     start_turn=Side.ATTACKERS, moves=[], level="hard", game_key="g1")  # doctest: +SKIP
    ChosenMove(move='e2-c2')
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        time_limits: dict[str, float] | None = None,
        grace: float = 10.0,
        on_search: Callable[[str, float], None] | None = None,
    ) -> None:
        """``on_search`` is told of each search a worker finished: its purpose (``"move"`` or
        ``"review"``) and the seconds it took, from the request sent to the worker to its
        answer (the wait for a free worker left out; a search stopped for live play or lost
        with its worker not counted)."""
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        for name in time_limits or {}:
            get_level(name)
        self.size = workers
        self.time_limits = dict(time_limits or {})
        """Seconds per move by level name, overriding the levels' defaults."""
        self.grace = grace
        """Extra seconds past a move's budget before a silent worker is presumed hung."""
        self.background_limit = max(1, workers - 1)
        """Workers that review work may hold at once: the rest are kept for live play."""
        self.on_search = on_search
        # Spawned, not forked: a fork would copy the bot's event loop and open sockets.
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._free: list[_Worker] = []
        self._waiting: list[_Waiter] = []
        self._arrivals = itertools.count()
        self._running = False
        self._requests: dict[str, _Request] = {}
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Start the worker processes (process creation runs in a thread)."""
        self._running = True
        self._closed = False
        for _ in range(self.size):
            worker = await asyncio.to_thread(self._spawn)
            self._workers.append(worker)
            self._release(worker)

    async def close(self) -> None:
        """Stop every worker; pending requests fail with :class:`AIStopped`.

        A worker in the middle of a search is killed at once: it would read the request to
        stop only once its search ends (seconds, for the strongest levels), and nobody wants
        that answer any more (a game's move is searched again when the bot is back)."""
        self._closed = True
        workers, self._workers = self._workers, []
        for worker in workers:
            if worker.priority is not None:
                with contextlib.suppress(OSError):
                    worker.process.kill()
        for request in list(self._requests.values()):
            if not request.cancelled.done():
                request.cancelled.set_result(None)
        for waiter in self._waiting:
            waiter.future.cancel()
        self._waiting.clear()
        self._free.clear()
        for worker in workers:
            if worker.future is not None and not worker.future.done():
                worker.future.cancel()
            self._unwatch(worker)
            with contextlib.suppress(OSError, BrokenPipeError):
                worker.connection.send(None)
        await asyncio.to_thread(self._reap, workers)

    def _check_open(self) -> None:
        """Refuse a request unless the workers run: :class:`AIStopped` once closed, as for a
        request pending at :meth:`close`; :class:`AIError` before :meth:`start`."""
        if self._closed:
            raise AIStopped
        if not self._running:
            raise AIError("the AI service is not running: call start() first")

    def _spawn(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=worker_main, args=(child,), name="tafl-ai-worker", daemon=True
        )
        process.start()
        child.close()
        return _Worker(process, parent)

    @staticmethod
    def _reap(workers: list[_Worker], timeout: float = 2.0) -> None:
        for worker in workers:
            worker.process.join(timeout)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout)
            worker.connection.close()

    async def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and put a fresh process in its place."""
        self._unwatch(worker)
        with contextlib.suppress(ValueError):
            self._workers.remove(worker)
        with contextlib.suppress(OSError):
            worker.process.kill()
        await asyncio.to_thread(self._reap, [worker])
        if self._closed or not self._running:
            return
        fresh = await asyncio.to_thread(self._spawn)
        if self._closed:
            await asyncio.to_thread(self._reap, [fresh])
            return
        self._workers.append(fresh)
        self._release(fresh)

    # ------------------------------------------------------------------ how busy it is

    def waiting(self) -> dict[str, int]:
        """Requests waiting for a free worker, by purpose (``"move"``, ``"review"``)."""
        counts = dict.fromkeys(PURPOSES.values(), 0)
        for waiter in self._waiting:
            if not waiter.future.done():
                counts[PURPOSES[waiter.priority]] += 1
        return counts

    def busy(self) -> int:
        """Workers searching right now."""
        return sum(1 for worker in self._workers if worker.priority is not None)

    # ------------------------------------------------------------------ who gets a worker

    def _background_busy(self) -> int:
        return sum(1 for worker in self._workers if worker.priority == BACKGROUND)

    def _may_take(self, priority: int) -> bool:
        return priority == LIVE or self._background_busy() < self.background_limit

    def _release(self, worker: _Worker) -> None:
        """A free worker goes to the first waiter allowed to take it, else to the free list."""
        worker.priority = worker.game_key = worker.future = None
        self._waiting = [waiter for waiter in self._waiting if not waiter.future.done()]
        for waiter in sorted(self._waiting):
            if self._may_take(waiter.priority):
                self._waiting.remove(waiter)
                worker.priority = waiter.priority
                waiter.future.set_result(worker)
                return
        self._free.append(worker)

    async def _acquire(self, request: _Request) -> _Worker:
        """A worker for ``request``, waiting for one if need be (``asyncio.CancelledError``
        when the request is cancelled meanwhile)."""
        if self._free and self._may_take(request.priority):
            worker = self._free.pop()
            worker.priority = request.priority
            return worker
        waiter = _Waiter(
            request.priority, next(self._arrivals), asyncio.get_running_loop().create_future()
        )
        self._waiting.append(waiter)
        if request.priority == LIVE:
            self._preempt()
        waits: set[asyncio.Future[_Worker] | asyncio.Future[None]] = {
            waiter.future,
            request.cancelled,
        }
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            self._give_back(waiter)
            raise
        if request.cancelled.done() or waiter.future not in done:
            self._give_back(waiter)
            raise asyncio.CancelledError
        return waiter.future.result()

    def _give_back(self, waiter: _Waiter) -> None:
        """A waiter that no longer wants a worker leaves the queue; a worker it was handed
        meanwhile goes to the next."""
        if waiter in self._waiting:
            self._waiting.remove(waiter)
        if waiter.future.done() and not waiter.future.cancelled():
            self._release(waiter.future.result())
        else:
            waiter.future.cancel()

    def _preempt(self) -> None:
        """A live request is waiting and no worker is free: stop one review search for it."""
        for worker in self._workers:
            future = worker.future
            if worker.priority == BACKGROUND and future is not None and not future.done():
                future.set_result(_Preempted())
                return

    # ------------------------------------------------------------------ requests

    async def choose_move(
        self,
        *,
        variant: str,
        start_position: str,
        start_turn: Side,
        moves: list[str],
        level: str,
        seed: int | None = None,
        game_key: str | None = None,
    ) -> ChosenMove:
        """The AI's move for the side to move after ``moves``.

        The moves are replayed with :class:`bot.engine.Game` in the worker, so repetition
        history is known. Raises ``asyncio.CancelledError`` if :meth:`cancel` is called for
        ``game_key`` meanwhile, :class:`AIStopped` (one) if the service is closed before or
        during the search, and :class:`AIError` when the request is invalid or the AI fails
        twice.
        """
        chosen = get_level(level)
        self._check_open()
        time_limit = self.time_limits.get(chosen.name, chosen.time_limit)
        request = MoveRequest(
            variant, start_position, start_turn, tuple(moves), chosen.name, seed, time_limit
        )
        return await self._ask(request, ChosenMove, time_limit + self.grace, game_key, LIVE)

    async def evaluate(
        self,
        *,
        variant: str,
        start_position: str | None,
        start_turn: Side | None,
        moves: list[str],
        max_depth: int | None = None,
        time_limit: float | None = None,
        key: str | None = None,
        exclude: str | None = None,
    ) -> PositionEval:
        """The search's verdict on the position after ``moves``, for the post-game analysis
        (``exclude``: without that move, as :class:`~bot.ai.analysis.Deepening` asks).

        Runs :func:`bot.ai.analysis.evaluate_position` in a worker (the default budget when
        neither limit is given); the caller awaits one position at a time, so it can report
        progress between them. ``key`` works as ``game_key`` does for :meth:`choose_move`:
        :meth:`cancel` with it stops the evaluation. Raises :class:`AIError` when the request
        is invalid or the worker fails twice. Evaluations are background work: live games'
        moves are served first (see the module's docstring).
        """
        self._check_open()
        request = EvaluationRequest(
            variant, start_position, start_turn, tuple(moves), max_depth, time_limit, exclude
        )
        # A search limited only by its depth has no clock of its own: it gets four times the
        # safety net before its worker is presumed hung.
        budget = time_limit if time_limit is not None else SAFETY_SECONDS
        if max_depth is not None and time_limit is None:
            budget = 4 * SAFETY_SECONDS
        return await self._ask(request, PositionEval, budget + self.grace, key, BACKGROUND)

    async def _ask(
        self,
        message: Request,
        answer: type[_Answer],
        patience: float,
        key: str | None,
        priority: int,
    ) -> _Answer:
        """Send one request to a worker and return its ``answer``, retrying once on a fresh
        worker if the first one crashes (and as often as it is stopped for live play). An
        answer of another kind is an :class:`AIError`, as a worker's failure is."""
        request = _Request(key, message, priority)
        if key is not None:
            previous = self._requests.get(key)
            if previous is not None and not previous.cancelled.done():
                previous.cancelled.set_result(None)  # a newer request supersedes it
            self._requests[key] = request
        try:
            crashed = False
            while True:
                outcome = await self._run(request, patience)
                if isinstance(outcome, _Preempted):
                    continue  # searched again once a worker is free for it
                if isinstance(outcome, _Crashed):
                    if crashed:
                        raise AIError("the AI worker crashed twice")
                    crashed = True
                    log.warning("AI worker crashed (%s); trying a fresh one", outcome.reason)
                    continue
                if isinstance(outcome, Failed):
                    raise AIError(outcome.reason)
                if not isinstance(outcome, answer):
                    raise AIError(
                        f"the AI worker answered a {type(message).__name__} with a"
                        f" {type(outcome).__name__}"
                    )
                return outcome
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._closed and (task is None or not task.cancelling()):
                raise AIStopped from None
            raise
        finally:
            if key is not None and self._requests.get(key) is request:
                del self._requests[key]

    def cancel(self, game_key: str) -> None:
        """Stop thinking for ``game_key`` (its game ended): its ``choose_move`` (or the
        ``evaluate`` with that ``key``) is cancelled."""
        request = self._requests.get(game_key)
        if request is not None and not request.cancelled.done():
            request.cancelled.set_result(None)

    async def _run(self, request: _Request, patience: float) -> _Outcome:
        worker = await self._acquire(request)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_Outcome] = loop.create_future()
        worker.future = future
        worker.game_key = request.game_key
        try:
            worker.connection.send(request.message)
        except (OSError, BrokenPipeError):
            await self._replace(worker)
            return _Crashed("the AI worker had died")
        sent = loop.time()
        self._watch(worker)
        try:
            pending: set[asyncio.Future[_Outcome] | asyncio.Future[None]] = {
                future,
                request.cancelled,
            }
            done, _ = await asyncio.wait(
                pending, timeout=patience, return_when=asyncio.FIRST_COMPLETED
            )
        except asyncio.CancelledError:
            # The caller gave up: the answer is not wanted, free the worker at once.
            await asyncio.shield(self._replace(worker))
            raise
        if future in done:
            outcome = future.result()
            if isinstance(outcome, _Crashed | _Preempted):
                await self._replace(worker)  # a preempted one is still searching: stop it
            else:
                self._release(worker)
                if self.on_search is not None and not isinstance(outcome, Failed):
                    self.on_search(PURPOSES[request.priority], loop.time() - sent)
            return outcome
        if request.cancelled in done:
            await self._replace(worker)
            raise asyncio.CancelledError
        await self._replace(worker)
        raise AIError(f"the AI did not answer within {patience:.0f} s")

    # ------------------------------------------------------------------ pipe watching

    def _watch(self, worker: _Worker) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(worker.connection.fileno(), self._readable, worker)

    def _unwatch(self, worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(worker.connection.fileno())

    def _readable(self, worker: _Worker) -> None:
        self._unwatch(worker)
        future = worker.future
        reply: _Outcome
        try:
            reply = worker.connection.recv()
        except (EOFError, OSError):
            reply = _Crashed("the AI worker process died")
        if future is not None and not future.done():
            future.set_result(reply)
