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

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A snowflake that, as a guild id, belongs to shard ``shard_id`` of ``shard_count``.

        The shard comes from the timestamp bits (``id >> 22``), so the id is moved at most
        ``shard_count - 1`` milliseconds ahead; later ids stay larger.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} does not exist out of {shard_count}")
        candidate = self.next()
        ahead = (shard_id - shard_of(candidate, shard_count)) % shard_count
        if ahead:
            candidate = ((candidate >> 22) + ahead) << 22
            self._last = candidate
        return candidate


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to (``None``, direct messages: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def iso_now() -> str:
    """The current time as Discord writes it (ISO 8601 with a UTC offset)."""
    return datetime.now(UTC).isoformat()
