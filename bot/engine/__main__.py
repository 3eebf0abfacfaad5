"""Command line: ``python -m bot.engine perft ...`` and ``python -m bot.engine referee``."""

from __future__ import annotations

import argparse
import sys
import time

from .board import Board
from .errors import TaflError
from .perft import PUBLISHED, perft
from .referee import run
from .variants import VARIANTS, get_variant


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot.engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    perft_parser = commands.add_parser("perft", help="count move sequences from the start")
    perft_parser.add_argument("variant", help=", ".join(VARIANTS))
    perft_parser.add_argument("depth", type=int)
    perft_parser.add_argument("--divide", action="store_true", help="count below each move")
    perft_parser.add_argument("--captures", action="store_true", help="count capturing leaves")
    perft_parser.add_argument("--time", action="store_true", help="print the elapsed time")
    commands.add_parser("referee", help="answer rules questions on stdin, one line each")
    args = parser.parse_args(argv)

    if args.command == "referee":
        run()
        return 0
    try:
        variant = get_variant(args.variant)
    except TaflError as error:
        parser.error(str(error))
    if args.depth < 0:
        parser.error(f"depth must be 0 or more, not {args.depth}")
    started = time.perf_counter()
    result = perft(Board(variant), args.depth, captures=args.captures, divide=args.divide)
    elapsed = time.perf_counter() - started
    for move, count in result.divide:
        print(f"{move.text(variant.size)} {count}")
    if result.divide:
        print()
    line = str(result.leaves)
    if result.captures is not None:
        line += f" captures {result.captures}"
    print(line)
    published = PUBLISHED.get((variant.name, args.depth))
    if published is not None:
        expected = published if result.captures is not None else (published[0], None)
        agrees = (result.leaves, result.captures) == expected
        verdict = "matches" if agrees else f"DIFFERS from {expected[0]} captures {expected[1]} in"
        print(f"{verdict} docs/RULES.md", file=sys.stderr)
    if args.time:
        print(f"{elapsed:.3f}s {result.leaves / max(elapsed, 1e-9):,.0f} leaves/s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
