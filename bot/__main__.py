"""Start the bot: ``python -m bot``."""

from __future__ import annotations

import sys


def main() -> int:
    """Run the Discord bot (the Discord layer is loaded lazily so its imports stay out of tools)."""
    try:
        from bot.discord_bot.launcher import run
    except ImportError as error:  # the Discord layer is not installed in this checkout
        print(f"tafl bot: the Discord layer is not available ({error})", file=sys.stderr)
        return 2
    return run()


if __name__ == "__main__":
    sys.exit(main())
