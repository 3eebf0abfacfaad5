"""Move-generation speed: leaves per second of perft from the start position.

Run: ``.venv/bin/python benchmarks/perft.py`` (add ``--captures`` to also time the slower
count of capturing leaves). Target on a 2-core machine: ``tablut`` perft 4 in 6 s or less.
"""

from __future__ import annotations

import argparse
import time

from bot.engine import VARIANTS, Board
from bot.engine.perft import perft

CASES = [("tablut", 4, 19_913_864), ("brandubh", 5, 41_843_336)]


def main() -> None:
    """Time each case (best of ``--repeat`` runs) and print leaves per second."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--captures", action="store_true")
    args = parser.parse_args()
    for name, depth, expected in CASES:
        best = float("inf")
        for _ in range(args.repeat):
            board = Board(VARIANTS[name])
            started = time.perf_counter()
            result = perft(board, depth, captures=args.captures)
            best = min(best, time.perf_counter() - started)
            assert result.leaves == expected, (name, depth, result.leaves)
        extra = f" captures {result.captures:,}" if result.captures is not None else ""
        print(
            f"{name:<10} perft {depth}: {result.leaves:>12,} leaves{extra} in {best:6.2f} s "
            f"= {result.leaves / best / 1e6:5.2f} M leaves/s (best of {args.repeat})"
        )


if __name__ == "__main__":
    main()
