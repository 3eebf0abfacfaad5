"""Proof that the fast core's search finds what the Python search finds, node for node.

:func:`compare_search` runs the same searches with ``Searcher(fast=False)`` and
``Searcher(fast=True)`` and lists every difference in what they report: the move, the score,
the depth, the nodes visited, the principal variation and the root moves' scores. Searches
can run one after another on the same searcher (the transposition table, history and killers
carry over) and can be stopped after a number of checks (the stop is read every 1,024 nodes,
so both stop at the same node and must return the same partial answer).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine.board import Board
from bot.engine.game import Game

from .search import Searcher, SearchResult

Report = tuple[int | None, int, int, int, list[int], list[tuple[int, int]]]
"""What a search reports: move, score, depth, nodes, principal variation, root scores."""


def _report(result: SearchResult) -> Report:
    return (
        result.move,
        result.score,
        result.depth,
        result.nodes,
        result.pv,
        sorted(result.root_scores.items()),
    )


@dataclass(frozen=True)
class SearchCase:
    """A search to run on both cores: a position and the searcher's settings."""

    label: str
    board: Board
    max_depth: int
    history: tuple[int, ...] = ()
    searches: int = 1
    """How many searches in a row on one searcher (its tables carry over)."""
    stop_after: int | None = None
    """Stop each search after this many checks of its budget (one every 1,024 nodes)."""
    noise: int = 0
    seed: int = 0
    quiescence: bool = True
    reads_threats: bool = True
    reductions: bool = True
    even_reductions: bool = False
    pruning: bool = False
    contempt: int = 0
    exclude: tuple[int, ...] = ()
    """Root moves left out."""


def run(case: SearchCase, fast: bool) -> list[Report]:
    """Run ``case`` on one core: what each of its searches reported."""
    searcher = Searcher(
        case.board.variant,
        noise=case.noise,
        seed=case.seed,
        quiescence=case.quiescence,
        reads_threats=case.reads_threats,
        reductions=case.reductions,
        even_reductions=case.even_reductions,
        pruning=case.pruning,
        contempt=case.contempt,
        fast=fast,
    )
    reports = []
    for _ in range(case.searches):
        board = Board(case.board.variant, list(case.board.cells), case.board.turn)
        checks = 0

        def stop() -> bool:
            nonlocal checks
            checks += 1
            return case.stop_after is not None and checks > case.stop_after

        result = searcher.search(
            board,
            max_depth=case.max_depth,
            history=case.history,
            stop=stop,
            exclude=case.exclude,
        )
        reports.append(_report(result))
    return reports


def differences(case: SearchCase, python: list[Report], fast: list[Report]) -> list[str]:
    """What differs between the two builds' reports of ``case`` (empty when nothing does)."""
    found = []
    names = ("move", "score", "depth", "nodes", "pv", "root scores")
    for number, (one, other) in enumerate(zip(python, fast, strict=True), start=1):
        if one != other:
            what = [
                f"{name}: Python {a!r}, fast {b!r}"
                for name, a, b in zip(names, one, other, strict=True)
                if a != b
            ]
            found.append(f"{case.label}, search {number}: " + "; ".join(what))
    return found


def compare_search(case: SearchCase) -> list[str]:
    """The differences between the Python and the fast search of ``case`` (empty when they
    agree)."""
    return differences(case, run(case, False), run(case, True))


def random_position(variant: str, plies: int, seed: int) -> tuple[Board, tuple[int, ...]]:
    """A position after ``plies`` random moves from the start (fewer if the game would end),
    with the hashes of the positions before it (the history a search is given)."""
    rng = random.Random(seed)
    game = Game(variant)
    hashes = [game.board.hash]
    while game.ply < plies:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
        if game.is_over:
            game.undo()
            break
        hashes.append(game.board.hash)
    board = Board(game.variant, list(game.board.cells), game.board.turn)
    return board, tuple(hashes[:-1])
