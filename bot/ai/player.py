"""Choosing a move at a level: the one call the worker, the arena and the OTEP engine share."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from bot.engine.board import Board
from bot.engine.game import Game
from bot.engine.tables import MOVE_SHIFT, TARGET_MASK
from bot.engine.types import Move, Side
from bot.engine.variants import Variant

from .evaluation import Weights, side_weights
from .levels import Level, get_level
from .search import Searcher, SearchResult

_SEARCHERS: dict[tuple[str, Level, int, Weights | None], Searcher] = {}
_KEPT_SEARCHERS = 8


def _new_searcher(variant: Variant, level: Level, seed: int, weights: Weights | None) -> Searcher:
    return Searcher(
        variant,
        weights,
        noise=level.noise,
        seed=seed,
        quiescence=level.quiescence,
        reads_threats=level.reads_threats,
        reductions=level.reductions,
        pruning=level.pruning,
        contempt=level.contempt,
        advantage_contempt=level.advantage_contempt,
    )


def searcher_for(
    variant: Variant, level: Level, seed: int, weights: Weights | None = None
) -> Searcher:
    """A searcher for this variant and level, reused within a process (it keeps its table).

    Each level has its own searcher: two levels playing each other in one process (the arena)
    must not share a transposition table, or the weaker one reads the stronger one's analysis.
    """
    key = (variant.name, level, seed if level.noise else 0, weights)
    searcher = _SEARCHERS.pop(key, None)
    if searcher is None:
        searcher = _new_searcher(variant, level, seed, weights)
        if len(_SEARCHERS) >= _KEPT_SEARCHERS:
            # Drop the least recently used one: noisy levels make a searcher per seed, and
            # they must not push out the noiseless levels' tables.
            del _SEARCHERS[next(iter(_SEARCHERS))]
    _SEARCHERS[key] = searcher  # (re)inserted last: the dict's order is the use order
    return searcher


def think(
    board: Board,
    level: Level | str,
    *,
    seed: int | None = None,
    history: Iterable[int] = (),
    time_limit: float | None = None,
    max_depth: int | None = None,
    weights: Weights | None = None,
    stop: Callable[[], bool] | None = None,
    fresh: bool = False,
) -> SearchResult:
    """Search ``board`` at ``level``; ``time_limit``/``max_depth`` override the level's.

    With ``fresh`` the search starts from an empty transposition table, so that a seeded,
    depth-limited search gives the same move every time (tests rely on it).
    """
    chosen = get_level(level) if isinstance(level, str) else level
    if weights is None and chosen.side_weights:
        weights = side_weights(board.variant, board.turn)
    if seed is None:
        seed = random.randrange(1 << 30)
    if fresh:
        searcher = _new_searcher(board.variant, chosen, seed, weights)
    else:
        searcher = searcher_for(board.variant, chosen, seed, weights)
    return searcher.search(
        board,
        max_depth=max_depth if max_depth is not None else chosen.max_depth,
        time_limit=time_limit if time_limit is not None else chosen.time_limit,
        history=history,
        stop=stop,
    )


def replay(
    variant: str, start_position: str | None, start_turn: Side | None, moves: list[str]
) -> tuple[Game, list[int]]:
    """Replay ``moves`` with the rules engine; returns the game and the positions' hashes."""
    game = Game(variant, start_position, start_turn)
    hashes = [game.board.hash]
    for text in moves:
        game.play(text)
        hashes.append(game.board.hash)
    return game, hashes


def move_text(move: int, size: int) -> str:
    """An engine move int as simple OTN (``e1-e4``)."""
    return Move(move >> MOVE_SHIFT, move & TARGET_MASK).text(size)


def choose_move_text(
    variant: str,
    start_position: str | None,
    start_turn: Side | None,
    moves: list[str],
    level: Level | str,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
    max_depth: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> str:
    """Replay a game and return the AI's move for the side to move, as ``e1-e4``."""
    game, hashes = replay(variant, start_position, start_turn, moves)
    if game.is_over:
        raise ValueError(f"the game is already over: {game.outcome}")
    board = Board(game.variant, list(game.board.cells), game.board.turn)
    result = think(
        board,
        level,
        seed=seed,
        history=hashes[:-1],
        time_limit=time_limit,
        max_depth=max_depth,
        stop=stop,
    )
    assert result.move is not None  # the game is not over, so there is a legal move
    return move_text(result.move, game.size)
