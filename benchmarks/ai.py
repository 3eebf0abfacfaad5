"""AI speed: nodes per second and depth reached in a fixed time on fixed positions.

.venv/bin/python benchmarks/ai.py [--time 2.0]
.venv/bin/python benchmarks/ai.py --depth 4   # time and nodes to reach a fixed depth instead
.venv/bin/python benchmarks/ai.py --smoke     # a quick check that it works (0.1 s a position)

A timed search must also keep to its budget: the wall time of each search is printed next to
the time the search reports, and a ``master`` search from the tablut start with a 0.3 s budget
must return in under 1.0 s of wall time (target). The benchmark exits with status 1 when that
target is missed (except with ``--smoke``, which judges no speed) and with status 2 when a
search did not work: no legal move, no complete iteration, or the board left changed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bot import native
from bot.ai import Searcher, SearchResult, think
from bot.engine import Board, Game, get_variant

POSITIONS: tuple[tuple[str, list[str]], ...] = (
    ("tablut", []),
    ("tablut", ["e2-c2", "c5-c3", "a4-b4", "e3-h3"]),
    ("tablut-corner", []),
    ("brandubh", []),
    ("brandubh", ["d2-c2", "e4-e2", "d6-e6", "c4-c5"]),
    ("fidchell", []),
    ("copenhagen", []),
    ("copenhagen", ["d1-d3", "e5-e2", "g1-g3", "f4-c4"]),
)
SMOKE_TIME = 0.1
BUDGET = 0.3
"""The budget of the budget check (seconds)."""
BUDGET_TARGET = 1.0
"""The longest wall time a search with that budget may take (seconds)."""


def problem(board: Board, before: int, result: SearchResult) -> str | None:
    """What is wrong with a search's result (None when it worked)."""
    if result.move is None or result.move not in board.moves():
        return "no legal move found"
    if result.depth < 1 or result.nodes < 1:
        return f"no complete iteration (depth {result.depth}, {result.nodes} nodes)"
    if board.hash != before:
        return "the board was left changed"
    return None


def speed(time_limit: float, depth: int | None) -> list[str]:
    """Search every position for the same time (or to ``depth``) and print the figures; returns
    the problems found."""
    problems: list[str] = []
    total_nodes = 0
    total_time = 0.0
    print(
        f"{'variant':<15}{'ply':>4}{'depth':>6}{'nodes':>10}{'seconds':>9}{'wall':>8}"
        f"{'nodes/s':>10}"
    )
    for variant, moves in POSITIONS:
        game = Game(variant)
        for text in moves:
            game.play(text)
        board = Board(game.variant, list(game.board.cells), game.board.turn)
        before = board.hash
        started = time.perf_counter()
        if depth:
            result = Searcher(game.variant).search(board, max_depth=depth)
        else:
            result = Searcher(game.variant).search(board, time_limit=time_limit)
        wall = time.perf_counter() - started
        rate = result.nodes / max(result.elapsed, 1e-9)
        total_nodes += result.nodes
        total_time += result.elapsed
        print(
            f"{variant:<15}{len(moves):>4}{result.depth:>6}{result.nodes:>10}"
            f"{result.elapsed:>9.2f}{wall:>8.2f}{rate:>10,.0f}"
        )
        found = problem(board, before, result)
        if found is not None:
            problems.append(f"{variant} after {len(moves)} moves: {found}")
    rate = total_nodes / max(total_time, 1e-9)
    print(f"overall {rate:,.0f} nodes/s, {total_nodes} nodes in {total_time:.2f} s")
    return problems


def budget() -> tuple[bool, list[str]]:
    """Time a ``master`` search with a short budget by the wall clock and print it; returns
    whether it met its target, and the problems found."""
    board = Board(get_variant("tablut"))
    before = board.hash
    started = time.perf_counter()
    result = think(board, "master", time_limit=BUDGET, fresh=True)
    wall = time.perf_counter() - started
    met = wall < BUDGET_TARGET
    print(
        f"time budget: master with {BUDGET:g} s from the tablut start returned in {wall:.2f} s "
        f"wall (search reports {result.elapsed:.2f} s, depth {result.depth}; "
        f"target < {BUDGET_TARGET:g} s: {'ok' if met else 'MISSED'})"
    )
    found = problem(board, before, result)
    return met, [] if found is None else [f"budget check: {found}"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--time", type=float, default=2.0, help="seconds per position")
    parser.add_argument("--depth", type=int, help="search every position to this depth instead")
    parser.add_argument(
        "--smoke", action="store_true", help=f"a quick check: {SMOKE_TIME:g} s a position"
    )
    args = parser.parse_args(argv)
    print(f"engine and search: {native.describe()} (python -m bot.native build|clean)")
    problems = speed(SMOKE_TIME if args.smoke else args.time, None if args.smoke else args.depth)
    met, found = budget()
    problems += found
    for text in problems:
        print(f"BAD {text}")
    if problems:
        return 2
    return 0 if met or args.smoke else 1


if __name__ == "__main__":
    sys.exit(main())
