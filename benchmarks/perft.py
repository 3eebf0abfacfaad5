"""Move-generation speed: leaves per second of perft from the start position, both builds side by
side.

Run: ``.venv/bin/python benchmarks/perft.py``. Each timed case runs on the pure Python engine
and on the fast core (``bot.native``). Targets on a 2-core machine: ``tablut`` perft 4 (about
20 million leaves) in 6 s or less in pure Python; on the fast core at least 200 M leaves/s on
``tablut`` and 145 M on ``brandubh``, ten times the old compiled (mypyc) build's 20 M and
14.5 M. ``--all`` also checks every ground-truth row of RULES.md, capture counts included, on
each build (the pure Python takes a few minutes). ``--smoke`` is a check that the benchmark
works, in a few seconds: the same two timings one ply shallower, once each, then every row of
depth 3 or less on each build; it exits with status 1 if a count is wrong, like the full runs,
and judges no speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bot import native
from bot.engine import VARIANTS, Board, core
from bot.engine.perft import PUBLISHED, perft

TIMED = [("tablut", 4), ("brandubh", 5)]
SMOKE_TIMED = [("tablut", 3), ("brandubh", 4)]
SMOKE_MAX_DEPTH = 3
TARGETS = {"tablut": 200e6, "brandubh": 145e6}
"""Leaves a second the fast core must reach: ten times the old compiled build's figures."""


def builds() -> dict[str, bool]:
    """The builds to measure: the pure Python, and the fast core where it is in use."""
    found = {"python": False}
    if core.extension() is not None:
        found["fast core"] = True
    return found


def timed(cases: list[tuple[str, int]], repeat: int, judge: bool) -> int:
    """Time each case on each build (best of ``repeat``) and print their speeds side by side;
    returns how many counts differ from RULES.md."""
    failures = 0
    for name, depth in cases:
        parts = []
        rates = {}
        expected = PUBLISHED[name, depth][0]
        for build, fast in builds().items():
            best = float("inf")
            leaves = 0
            for _ in range(repeat):
                board = Board(VARIANTS[name])
                started = time.perf_counter()
                leaves = perft(board, depth, fast=fast).leaves
                best = min(best, time.perf_counter() - started)
            if leaves != expected:
                failures += 1
                print(
                    f"BAD {name} perft {depth} ({build}): {leaves:,} leaves, RULES.md says "
                    f"{expected:,}"
                )
                continue
            rates[build] = leaves / max(best, 1e-9)
            part = f"{build} {best:6.2f} s = {rates[build] / 1e6:7.2f} M leaves/s"
            if build == "fast core" and judge:
                met = rates[build] >= TARGETS[name]
                part += f" [target >= {TARGETS[name] / 1e6:g} M: {'ok' if met else 'MISSED'}]"
            parts.append(part)
        ratio = ""
        if len(rates) == 2 and rates["python"]:
            ratio = f" (x{rates['fast core'] / rates['python']:.0f})"
        print(
            f"{name:<10} perft {depth}: {expected:>12,} leaves; "
            + "; ".join(parts)
            + ratio
            + f" (best of {repeat})"
        )
    return failures


def verify(max_depth: int | None) -> int:
    """Check every RULES.md row (up to ``max_depth`` plies), captures included, on each build;
    returns how many rows differ."""
    failures = 0
    for build, fast in builds().items():
        for (name, depth), (leaves, captures) in sorted(PUBLISHED.items()):
            if max_depth is not None and depth > max_depth:
                continue
            started = time.perf_counter()
            result = perft(Board(VARIANTS[name]), depth, captures=True, fast=fast)
            elapsed = time.perf_counter() - started
            ok = (result.leaves, result.captures) == (leaves, captures)
            failures += not ok
            print(
                f"{'ok ' if ok else 'BAD'} {name:<15} d{depth} {result.leaves:>12,} "
                f"({result.captures:,} capturing) in {elapsed:6.2f} s ({build})"
            )
    print("every RULES.md row matches" if not failures else f"{failures} rows differ")
    return failures


def main(argv: Sequence[str] | None = None) -> int:
    """Time the headline cases (best of ``--repeat``), then optionally verify every row.

    Returns the exit status: 1 when a count differs from RULES.md."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="verify every RULES.md row")
    parser.add_argument(
        "--smoke", action="store_true", help="a quick check that the benchmark works"
    )
    args = parser.parse_args(argv)
    print(f"$ python benchmarks/perft.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(f"engine and search: {native.describe()}")
    if args.smoke:
        failures = timed(SMOKE_TIMED, 1, judge=False) + verify(SMOKE_MAX_DEPTH)
    else:
        failures = timed(TIMED, args.repeat, judge=True)
        if args.all:
            failures += verify(None)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
