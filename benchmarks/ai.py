"""AI speed: nodes per second and depth reached on fixed positions, both builds side by side.

.venv/bin/python benchmarks/ai.py [--time 2.0]
.venv/bin/python benchmarks/ai.py --depth 5   # time and nodes to reach a fixed depth instead
.venv/bin/python benchmarks/ai.py --smoke     # a quick check that it works (0.1 s a position)
.venv/bin/python benchmarks/ai.py --only fast --pruning   # as ``master`` searches, its pruning on

Each position is searched by the pure Python search and by the fast core (``bot.native``),
printed side by side; to a fixed depth both visit the same nodes (the benchmark says so), so
their speeds compare exactly. Target: the fast core at 1.5 M nodes/s or more overall, ten
times the old compiled (mypyc) build's 151 k. ``--only fast`` or ``--only python`` runs one
build (the pure Python takes minutes beyond depth 5). ``--pruning`` searches with ``master``'s
pruning (:class:`bot.ai.search.Pruning`): fewer nodes a second, since many are cut at once, and
deeper.

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
from bot.ai import fast as fast_core
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
SPEED_TARGET = 1_500_000
"""Nodes a second the fast core must reach overall (to a fixed depth)."""
BUILDS = {"python": False, "fast": True}


def problem(board: Board, before: int, result: SearchResult) -> str | None:
    """What is wrong with a search's result (None when it worked)."""
    if result.move is None or result.move not in board.moves():
        return "no legal move found"
    if result.depth < 1 or result.nodes < 1:
        return f"no complete iteration (depth {result.depth}, {result.nodes} nodes)"
    if board.hash != before:
        return "the board was left changed"
    return None


def _search(
    variant: str,
    moves: list[str],
    time_limit: float,
    depth: int | None,
    fast: bool,
    pruning: bool = False,
) -> tuple[SearchResult, float, str | None]:
    """One search on one build: the result, its wall time, and what went wrong if anything."""
    game = Game(variant)
    for text in moves:
        game.play(text)
    board = Board(game.variant, list(game.board.cells), game.board.turn)
    before = board.hash
    started = time.perf_counter()
    searcher = Searcher(game.variant, fast=fast, pruning=pruning)
    if depth:
        result = searcher.search(board, max_depth=depth)
    else:
        result = searcher.search(board, time_limit=time_limit)
    wall = time.perf_counter() - started
    return result, wall, problem(board, before, result)


def speed(
    time_limit: float, depth: int | None, builds: list[str], pruning: bool = False
) -> tuple[list[str], bool]:
    """Search every position for the same time (or to ``depth``) on each build and print the
    figures side by side; returns the problems found and whether the fast core met its
    speed target (to a fixed depth only)."""
    problems: list[str] = []
    totals = {build: [0, 0.0] for build in builds}
    header = f"{'variant':<15}{'ply':>4}"
    for build in builds:
        header += f" | {build + ' depth':>11}{'nodes':>10}{'seconds':>9}{'nodes/s':>11}"
    print(header + ("  same nodes" if depth and len(builds) == 2 else ""))
    for variant, moves in POSITIONS:
        line = f"{variant:<15}{len(moves):>4}"
        counts = []
        for build in builds:
            result, _, found = _search(
                variant, list(moves), time_limit, depth, BUILDS[build], pruning
            )
            rate = result.nodes / max(result.elapsed, 1e-9)
            totals[build][0] += result.nodes
            totals[build][1] += result.elapsed
            counts.append((result.move, result.score, result.nodes))
            line += f" | {result.depth:>11}{result.nodes:>10}{result.elapsed:>9.2f}{rate:>11,.0f}"
            if found is not None:
                problems.append(f"{variant} after {len(moves)} moves ({build}): {found}")
        if depth and len(builds) == 2:
            same = counts[0] == counts[1]
            line += "  yes" if same else "  NO"
            if not same:
                problems.append(f"{variant} after {len(moves)} moves: the builds differ")
        print(line)
    met = True
    rates = {}
    for build in builds:
        nodes, seconds = totals[build]
        rates[build] = nodes / max(seconds, 1e-9)
        verdict = ""
        if build == "fast" and depth:
            met = rates[build] >= SPEED_TARGET
            verdict = f" [target >= {SPEED_TARGET / 1e6:g} M nodes/s: {'ok' if met else 'MISSED'}]"
        print(
            f"overall {build}: {rates[build]:,.0f} nodes/s, {nodes} nodes in {seconds:.2f} s"
            + verdict
        )
    if len(rates) == 2 and rates["python"]:
        print(
            f"the fast core searches {rates['fast'] / rates['python']:.0f} times as many "
            "nodes a second"
        )
    return problems, met


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
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--time", type=float, default=2.0, help="seconds per position")
    parser.add_argument("--depth", type=int, help="search every position to this depth instead")
    parser.add_argument("--only", choices=tuple(BUILDS), help="run one build only")
    parser.add_argument("--pruning", action="store_true", help="search with master's pruning")
    parser.add_argument(
        "--smoke", action="store_true", help=f"a quick check: {SMOKE_TIME:g} s a position"
    )
    args = parser.parse_args(argv)
    print(f"$ python benchmarks/ai.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(f"engine and search: {native.describe()}")
    builds = [args.only] if args.only else list(BUILDS)
    if fast_core.extension() is None:
        if args.only == "fast":
            print(f"BAD the fast core is not in use ({fast_core.state()})")
            return 2
        builds = ["python"]
    problems, fast_met = speed(
        SMOKE_TIME if args.smoke else args.time,
        None if args.smoke else args.depth,
        builds,
        args.pruning,
    )
    met, found = budget()
    problems += found
    for text in problems:
        print(f"BAD {text}")
    if problems:
        return 2
    return 0 if (met and fast_met) or args.smoke else 1


if __name__ == "__main__":
    sys.exit(main())
