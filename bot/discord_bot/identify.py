"""Discord's limit on starting gateway sessions, as one process of a sharded bot keeps it.

Discord accepts ``max_concurrency`` IDENTIFYs per 5 seconds: shard ``i`` falls in bucket
``i % max_concurrency``, and each bucket may identify once per 5 s (``GET /gateway/bot`` says how
many buckets a bot has; 1 for most, 16 or more for the largest). discord.py's own pause is a flat
5 s before every IDENTIFY but a process's first, whatever the bot's ``max_concurrency``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

IDENTIFY_WINDOW = 5.0
"""Seconds between two IDENTIFYs of one bucket."""


class IdentifyPacer:
    """When each shard of this process may send its IDENTIFY.

    Only this process's shards are seen: processes of one bot started at the same moment can
    still identify shards of one bucket within the same 5 s.
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
