"""Move-generation speed: leaves per second of perft from the start position.

Run: ``.venv/bin/python benchmarks/perft.py``. Target on a 2-core machine: ``tablut`` perft 4
(about 20 million leaves) in 6 s or less. ``--all`` also checks every ground-truth row of
RULES.md, capture counts included (a few minutes).
"""

from __future__ import annotations

import argparse
import time

from bot.engine import VARIANTS, Board
from bot.engine.perft import PUBLISHED, perft

TIMED = [("tablut", 4), ("brandubh", 5)]


def main() -> None:
    """Time the headline cases (best of ``--repeat``), then optionally verify every row."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="verify every RULES.md row")
    args = parser.parse_args()
    for name, depth in TIMED:
        best = float("inf")
        leaves = 0
        for _ in range(args.repeat):
            board = Board(VARIANTS[name])
            started = time.perf_counter()
            leaves = board.perft(depth)
            best = min(best, time.perf_counter() - started)
        assert leaves == PUBLISHED[name, depth][0], (name, depth, leaves)
        print(
            f"{name:<10} perft {depth}: {leaves:>12,} leaves in {best:6.2f} s "
            f"= {leaves / best / 1e6:5.2f} M leaves/s (best of {args.repeat})"
        )
    if not args.all:
        return
    failures = 0
    for (name, depth), (leaves, captures) in sorted(PUBLISHED.items()):
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


if __name__ == "__main__":
    main()
