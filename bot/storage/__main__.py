"""Storage tools (mining a database's games for puzzles is ``python -m bot.tools puzzles``).

    python -m bot.storage copy SOURCE TARGET

Databases are SQLite file paths or ``postgresql://`` URLs, as in ``TAFL_DATABASE``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from .copy import copy_database
from .errors import StorageError


def main(argv: list[str] | None = None) -> int:
    """Run a storage tool; returns the exit status (1 with one line on stderr on failure)."""
    parser = argparse.ArgumentParser(prog="python -m bot.storage", description=__doc__)
    tools = parser.add_subparsers(dest="tool", required=True)
    copy = tools.add_parser(
        "copy",
        help="copy every game, player and rating into an empty database (stop the bot first)",
    )
    copy.add_argument("source", help="the database to read: a file path or postgresql:// URL")
    copy.add_argument("target", help="the empty database to fill: a file path or URL")
    arguments = parser.parse_args(argv)
    try:
        report = asyncio.run(
            copy_database(
                arguments.source, arguments.target, progress=lambda line: print(line, flush=True)
            )
        )
    except StorageError as error:
        print(f"copy refused: {error}", file=sys.stderr)
        return 1
    print(report.describe())
    return 0


if __name__ == "__main__":
    sys.exit(main())
