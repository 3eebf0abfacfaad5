"""Move-generation speed: leaves per second of perft from the start position.

Run: ``.venv/bin/python benchmarks/perft.py``. Target on a 2-core machine: ``tablut`` perft 4
(about 20 million leaves) in 6 s or less. ``--all`` also checks every ground-truth row of
RULES.md, capture counts included (a few minutes). ``--smoke`` is a check that the benchmark
works, in about a second: the same two timings one ply shallower, once each, then every row of
depth 3 or less; it exits with status 1 if a count is wrong, like the full runs, and judges no
speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bot.engine import VARIANTS, Board
from bot.engine.perft import PUBLISHED, perft

TIMED = [("tablut", 4), ("brandubh", 5)]
SMOKE_TIMED = [("tablut", 3), ("brandubh", 4)]
SMOKE_MAX_DEPTH = 3


def timed(cases: list[tuple[str, int]], repeat: int) -> int:
    """Time each case (best of ``repeat``) and print its speed; returns how many counts differ
    from RULES.md."""
    failures = 0
    for name, depth in cases:
        best = float("inf")
        leaves = 0
        for _ in range(repeat):
            board = Board(VARIANTS[name])
            started = time.perf_counter()
            leaves = board.perft(depth)
            best = min(best, time.perf_counter() - started)
        expected = PUBLISHED[name, depth][0]
        if leaves != expected:
            failures += 1
            print(f"BAD {name} perft {depth}: {leaves:,} leaves, RULES.md says {expected:,}")
            continue
        print(
            f"{name:<10} perft {depth}: {leaves:>12,} leaves in {best:6.2f} s "
            f"= {leaves / max(best, 1e-9) / 1e6:5.2f} M leaves/s (best of {repeat})"
        )
    return failures


def verify(max_depth: int | None) -> int:
    """Check every RULES.md row (up to ``max_depth`` plies), captures included; returns how
    many rows differ."""
    failures = 0
    for (name, depth), (leaves, captures) in sorted(PUBLISHED.items()):
        if max_depth is not None and depth > max_depth:
            continue
        started = time.perf_counter()
        result = perft(Board(VARIANTS[name]), depth, captures=True)
        elapsed = time.perf_counter() - started
        ok = (result.leaves, result.captures) == (leaves, captures)
        failures += not ok
        print(
            f"{'ok ' if ok else 'BAD'} {name:<15} d{depth} {result.leaves:>12,} "
            f"({result.captures:,} capturing) in {elapsed:6.2f} s"
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
    if args.smoke:
        failures = timed(SMOKE_TIMED, 1) + verify(SMOKE_MAX_DEPTH)
    else:
        failures = timed(TIMED, args.repeat)
        if args.all:
            failures += verify(None)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
