"""Snowflake ids and timestamps in the shapes Discord uses."""

from __future__ import annotations

import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Hands out strictly increasing snowflakes whose timestamp part is the current time.

    Real timestamps matter: discord.py derives ``created_at`` (and thus an interaction's
    15-minute expiry) from the id.
    """

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


def iso_now() -> str:
    """The current time as Discord writes it (ISO 8601 with a UTC offset)."""
    return datetime.now(UTC).isoformat()
