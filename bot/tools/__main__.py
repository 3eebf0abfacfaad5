"""Tools that use the AI and storage together.

    python -m bot.tools puzzles DATABASE [--variant V ...] [--count N] [--out FILE] [--add]

Databases are SQLite file paths or ``postgresql://`` URLs, as in ``TAFL_DATABASE``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.engine import VARIANTS
from bot.storage import StorageError

from .puzzles import mine_database


def main(argv: list[str] | None = None) -> int:
    """Run a tool; returns the exit status (1 with one line on stderr on failure)."""
    parser = argparse.ArgumentParser(prog="python -m bot.tools", description=__doc__)
    tools = parser.add_subparsers(dest="tool", required=True)
    puzzles = tools.add_parser(
        "puzzles",
        help="find puzzles in the finished games of a database (the bot may keep running)",
    )
    puzzles.add_argument("database", help="the bot's database: a file path or postgresql:// URL")
    puzzles.add_argument(
        "--variant",
        action="append",
        choices=list(VARIANTS),
        help="mine this variant's games (repeat for several; default: every variant)",
    )
    puzzles.add_argument("--count", type=int, default=50, help="most puzzles per variant")
    puzzles.add_argument("--out", type=Path, help="write the puzzles found as JSON Lines")
    puzzles.add_argument(
        "--add", action="store_true", help="add them to the database: the bot offers them at once"
    )
    puzzles.add_argument("--after-game", type=int, default=0, help="only games with higher ids")
    puzzles.add_argument("--max-games", type=int, help="read at most this many games a variant")
    puzzles.add_argument("--last-plies", type=int, help="look only this close to each game's end")
    arguments = parser.parse_args(argv)
    if arguments.out is None and not arguments.add:
        parser.error("say where the puzzles go: --out FILE, --add, or both")
    try:
        report = asyncio.run(
            mine_database(
                arguments.database,
                arguments.variant or list(VARIANTS),
                arguments.count,
                out=arguments.out,
                add=arguments.add,
                after_id=arguments.after_game,
                max_games=arguments.max_games,
                last_plies=arguments.last_plies,
            )
        )
    except StorageError as error:
        print(f"mining refused: {error}", file=sys.stderr)
        return 1
    print(report.describe())
    return 0


if __name__ == "__main__":
    sys.exit(main())
