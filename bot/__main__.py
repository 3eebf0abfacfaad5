"""Start the bot: ``python -m bot``, or its shards in N processes:
``python -m bot cluster --processes N``; or check on the running ones: ``python -m bot health
[--ready]``; or keep the translations' catalogues: ``python -m bot catalogs
extract|update|check|init LANG``."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence

USAGE = (
    "usage: python -m bot [cluster --processes N | health [--ready]"
    " | catalogs extract|update|check|init LANG]"
)
COMMANDS = ("cluster", "health", "catalogs")


def main(argv: Sequence[str] = ()) -> int:
    """Run the Discord bot, with ``cluster`` its supervisor, or with ``health`` the check of
    the running processes (the Discord layer is loaded lazily so its imports stay out of
    tools, and out of the health check)."""
    if argv and argv[0] not in COMMANDS:
        print(f"tafl bot: unknown command {argv[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    start: Callable[[], int]
    try:
        if argv and argv[0] == "health":
            from bot.discord_bot.main import probe

            start = functools.partial(probe.run, argv[1:])
        elif argv and argv[0] == "catalogs":
            from bot.discord_bot.main import catalogs

            start = functools.partial(catalogs.run, argv[1:])
        elif argv:
            from bot.discord_bot.main import cluster

            start = functools.partial(cluster.run, argv[1:])
        else:
            from bot.discord_bot.main import launcher

            start = launcher.run
    except ImportError as error:  # the Discord layer is not installed in this checkout
        print(f"tafl bot: the Discord layer is not available ({error})", file=sys.stderr)
        return 2
    return start()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
