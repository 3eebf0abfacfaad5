"""Start the bot: ``python -m bot``, or its shards in N processes:
``python -m bot cluster --processes N``."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence

USAGE = "usage: python -m bot [cluster --processes N]"


def main(argv: Sequence[str] = ()) -> int:
    """Run the Discord bot, or with ``cluster`` its supervisor (the Discord layer is loaded
    lazily so its imports stay out of tools)."""
    if argv and argv[0] != "cluster":
        print(f"tafl bot: unknown command {argv[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    start: Callable[[], int]
    try:
        if argv:
            from bot.discord_bot.runtime import cluster

            start = functools.partial(cluster.run, argv[1:])
        else:
            from bot.discord_bot.runtime import launcher

            start = launcher.run
    except ImportError as error:  # the Discord layer is not installed in this checkout
        print(f"tafl bot: the Discord layer is not available ({error})", file=sys.stderr)
        return 2
    return start()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
