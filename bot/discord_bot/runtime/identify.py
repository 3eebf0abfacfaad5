"""Discord's limit on starting gateway sessions, as one process of a sharded bot keeps it.

Discord accepts ``max_concurrency`` IDENTIFYs per 5 seconds: shard ``i`` falls in bucket
``i % max_concurrency``, and each bucket may identify once per 5 s (``GET /gateway/bot`` says how
many buckets a bot has; 1 for most, 16 or more for the largest). discord.py's own pause is a flat
5 s before every IDENTIFY but a process's first, whatever the bot's ``max_concurrency``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.storage import DatabaseUnavailable
from bot.storage.turns import IdentifyTurns

log = logging.getLogger(__name__)

IDENTIFY_WINDOW = 5.0
"""Seconds between two IDENTIFYs of one bucket."""


class IdentifyPacer:
    """When each shard of this process may send its IDENTIFY.

    Only this process's shards are seen; :class:`SharedIdentifyPacer` shares the turns between
    every process of the bot.
    """

    def __init__(
        self,
        max_concurrency: int = 1,
        *,
        window: float = IDENTIFY_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, not {max_concurrency}")
        self.max_concurrency = max_concurrency
        self._window = window
        self._clock = clock
        self._next: dict[int, float] = {}
        """The earliest moment each bucket may identify again."""

    def reserve(self, shard_id: int) -> float:
        """Book the next IDENTIFY slot of ``shard_id``'s bucket; returns the seconds to wait."""
        bucket = shard_id % self.max_concurrency
        now = self._clock()
        at = max(now, self._next.get(bucket, now))
        self._next[bucket] = at + self._window
        return at - now


class SharedIdentifyPacer:
    """Turns shared by every process of the bot, on any machine: booked in the database
    (:class:`~bot.storage.turns.IdentifyTurns`) by its server's clock. While the database cannot
    be reached, this process paces itself alone (:class:`IdentifyPacer`), one window later than
    it otherwise would, for the turns others may have booked."""

    def __init__(
        self, turns: IdentifyTurns, max_concurrency: int = 1, *, window: float = IDENTIFY_WINDOW
    ) -> None:
        self.turns = turns
        self.max_concurrency = max_concurrency
        self.window = window
        self._alone = IdentifyPacer(max_concurrency, window=window)

    async def reserve(self, shard_id: int) -> float:
        """Book the next IDENTIFY turn of ``shard_id``'s bucket; the seconds to wait for it."""
        try:
            return await self.turns.reserve(shard_id, self.max_concurrency, self.window)
        except DatabaseUnavailable as error:
            log.warning("identifying shard %d without the shared turns: %s", shard_id, error)
            return self._alone.reserve(shard_id) + self.window
