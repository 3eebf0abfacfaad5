"""Log set-up shared by the bot and the cluster supervisor: stderr, timestamps, one format."""

from __future__ import annotations

import logging
import sys


def setup_logging(level: str, label: str | None = None) -> None:
    """Log to stderr with timestamps; discord.py's own chatter one level quieter.

    ``label`` (e.g. ``"shards 0-3"``) goes into every line, so that the logs of several bot
    processes writing to one place can be told apart.
    """
    where = f"[{label}] " if label else ""
    logging.basicConfig(
        level=level,
        format=f"%(asctime)s %(levelname)-7s {where}%(name)s: %(message)s",
        stream=sys.stderr,
    )
    if level == "DEBUG":
        logging.getLogger("discord").setLevel(logging.INFO)
