"""Command line: ``python -m bot.ai otep`` (an OpenTafl engine) and ``python -m bot.ai move``."""

from __future__ import annotations

import argparse
import sys

from bot.engine.errors import TaflError

from .levels import LEVELS, get_level
from .otn_rules import RepetitionReading
from .player import choose_move_text


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot.ai", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    otep = commands.add_parser("otep", help="speak the OpenTafl Engine Protocol on stdin/stdout")
    otep.add_argument("--level", choices=LEVELS, default="master")
    otep.add_argument(
        "--time",
        type=float,
        help="seconds per move when the host sends no clock, and the most a move may take "
        "when it does (default: the level's time without a clock, the clock's share with one)",
    )
    otep.add_argument(
        "--repetition",
        choices=[reading.value for reading in RepetitionReading],
        default=RepetitionReading.OPENTAFL.value,
        help="how to read a Copenhagen rules record's threefold repetition (tfr:w), as the host "
        "referees it: 'opentafl' (default, as OpenTafl does: the side whose move makes the third "
        "occurrence loses) or 'project' (this project's rules: the attackers win it)",
    )
    move = commands.add_parser("move", help="print the AI's move after some moves")
    move.add_argument("variant")
    move.add_argument("moves", nargs="*", help="moves so far, e.g. d1-d3 e3-c3")
    move.add_argument("--level", choices=LEVELS, default="hard")
    move.add_argument("--seed", type=int)
    move.add_argument("--time", type=float)
    move.add_argument("--depth", type=int)
    args = parser.parse_args(argv)
    level = get_level(args.level)
    if args.command == "otep":
        from .otep import run

        run(sys.stdin, sys.stdout, level, args.time, RepetitionReading(args.repetition))
        return 0
    if args.time is not None:
        level = level.with_time(args.time)
    try:
        print(
            choose_move_text(
                args.variant,
                None,
                None,
                args.moves,
                level,
                seed=args.seed,
                max_depth=args.depth,
            )
        )
    except (TaflError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
