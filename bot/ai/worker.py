"""The search worker: a separate process that answers search requests over a pipe.

The messages are frozen dataclasses, pickled by the pipe as they are: a :class:`MoveRequest`
is answered with a :class:`ChosenMove`, an :class:`EvaluationRequest` with a
:class:`~bot.ai.analysis.PositionEval`, and a request that cannot be answered (a bad position,
an unknown level) with a :class:`Failed` that says why. A worker keeps its playing searchers (and
their transposition tables) between requests; it exits on ``None`` or when the pipe closes.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass
from multiprocessing.connection import Connection

from bot.engine.errors import TaflError
from bot.engine.types import Side

from .analysis import PositionEval, evaluate_position
from .player import choose_move_text


@dataclass(frozen=True)
class MoveRequest:
    """The AI's move for the side to move after ``moves`` (replayed, so the repetition history
    is known)."""

    variant: str
    start_position: str | None
    start_turn: Side | None
    moves: tuple[str, ...]
    level: str
    seed: int | None = None
    time_limit: float | None = None
    max_depth: int | None = None


@dataclass(frozen=True)
class EvaluationRequest:
    """The search's verdict on the position after ``moves``, for a review."""

    variant: str
    start_position: str | None
    start_turn: Side | None
    moves: tuple[str, ...]
    max_depth: int | None = None
    time_limit: float | None = None
    exclude: str | None = None
    """A move left out: the verdict is the best of the others."""


Request = MoveRequest | EvaluationRequest


@dataclass(frozen=True)
class ChosenMove:
    """The AI's move, the answer to a :class:`MoveRequest`."""

    move: str
    """In the simple OTN form, ``e1-e4``."""


@dataclass(frozen=True)
class Failed:
    """A request the worker could not answer, and why (a player-independent sentence)."""

    reason: str


Reply = ChosenMove | PositionEval | Failed
"""A move, an evaluation, or why there is neither."""


def answer(request: Request) -> Reply:
    """Compute the answer to one request (also usable in-process, e.g. in tests)."""
    try:
        if isinstance(request, EvaluationRequest):
            return evaluate_position(
                request.variant,
                request.start_position,
                request.start_turn,
                list(request.moves),
                time_limit=request.time_limit,
                max_depth=request.max_depth,
                exclude=request.exclude,
            )
        move = choose_move_text(
            request.variant,
            request.start_position,
            request.start_turn,
            list(request.moves),
            request.level,
            seed=request.seed,
            time_limit=request.time_limit,
            max_depth=request.max_depth,
        )
        return ChosenMove(move)
    except (TaflError, ValueError) as error:
        return Failed(str(error))


def worker_main(connection: Connection) -> None:
    """Serve requests from ``connection`` until told to stop."""
    # Ctrl+C in a terminal interrupts the whole process group: the bot decides when its
    # workers stop (a KeyboardInterrupt here would only print a traceback mid-search).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        reply: Reply
        try:
            reply = answer(request)
        except Exception as error:  # report, never die silently: the service logs it
            reply = Failed(f"internal error: {type(error).__name__}: {error}")
        try:
            connection.send(reply)
        except (BrokenPipeError, OSError):
            return
