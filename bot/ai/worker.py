"""The search worker: a separate process that answers search requests over a pipe.

Requests are dicts (see :class:`bot.ai.service.AIService`): a move request, or with
``"kind": "evaluate"`` a position to evaluate for the post-game analysis. Answers are
``("ok", text)`` (the move ``e1-e4``, or the evaluation as JSON) or ``("error", message)``. A
worker keeps its playing searchers (and their transposition tables) between requests; it exits
on ``None`` or when the pipe closes.
"""

from __future__ import annotations

import json
from multiprocessing.connection import Connection
from typing import Any

from bot.engine.errors import TaflError
from bot.engine.types import Side

from .analysis import evaluate_position
from .player import choose_move_text

EVALUATE = "evaluate"
"""The ``kind`` of an evaluation request (a request without one asks for a move)."""


def answer(request: dict[str, Any]) -> tuple[str, str]:
    """Compute the answer to one request (also usable in-process, e.g. in tests)."""
    if request.get("kind") == EVALUATE:
        return _evaluate(request)
    start_turn = request.get("start_turn")
    try:
        text = choose_move_text(
            request["variant"],
            request.get("start_position"),
            Side(start_turn) if start_turn is not None else None,
            list(request["moves"]),
            request["level"],
            seed=request.get("seed"),
            time_limit=request.get("time_limit"),
            max_depth=request.get("max_depth"),
        )
    except (TaflError, ValueError) as error:
        return "error", str(error)
    return "ok", text


def _evaluate(request: dict[str, Any]) -> tuple[str, str]:
    start_turn = request.get("start_turn")
    try:
        evaluation = evaluate_position(
            request["variant"],
            request.get("start_position"),
            Side(start_turn) if start_turn is not None else None,
            list(request["moves"]),
            time_limit=request.get("time_limit"),
            max_depth=request.get("max_depth"),
        )
    except (TaflError, ValueError) as error:
        return "error", str(error)
    return "ok", json.dumps(evaluation.to_dict())


def worker_main(connection: Connection) -> None:
    """Serve requests from ``connection`` until told to stop."""
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        try:
            reply = answer(request)
        except Exception as error:  # report, never die silently: the service logs it
            reply = ("error", f"internal error: {type(error).__name__}: {error}")
        try:
            connection.send(reply)
        except (BrokenPipeError, OSError):
            return
