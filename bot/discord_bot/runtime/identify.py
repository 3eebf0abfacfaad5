"""Discord's limit on starting gateway sessions, as one process of a sharded bot keeps it.

Discord accepts ``max_concurrency`` IDENTIFYs per 5 seconds: shard ``i`` falls in bucket
``i % max_concurrency``, and each bucket may identify once per 5 s (``GET /gateway/bot`` says how
many buckets a bot has; 1 for most, 16 or more for the largest). discord.py's own pause is a flat
5 s before every IDENTIFY but a process's first, whatever the bot's ``max_concurrency``.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

IDENTIFY_WINDOW = 5.0
"""Seconds between two IDENTIFYs of one bucket."""


class IdentifyPacer:
    """When each shard of this process may send its IDENTIFY.

    Only this process's shards are seen; :class:`SharedIdentifyPacer` shares the turns between
    the processes of a cluster.
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


class SharedIdentifyPacer(IdentifyPacer):
    """An :class:`IdentifyPacer` whose turns are shared by every process of a cluster on this
    machine: the earliest next IDENTIFY of each bucket is kept in the file ``path``, which each
    process locks while it books a turn. The clock is the wall clock, the one clock processes
    share.

    ``python -m bot cluster`` makes the file and names it in ``TAFL_IDENTIFY_LOCK``, so that its
    processes, started together, do not identify shards of one bucket within the same 5 s.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        max_concurrency: int = 1,
        *,
        window: float = IDENTIFY_WINDOW,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(max_concurrency, window=window, clock=clock)
        self.path = Path(path)

    def reserve(self, shard_id: int) -> float:
        """Book the next IDENTIFY slot of ``shard_id``'s bucket among all the processes sharing
        the file; returns the seconds to wait. Blocks while another process books (briefly)."""
        bucket = str(shard_id % self.max_concurrency)
        with self.path.open("a+", encoding="utf-8") as file:
            fcntl.flock(file, fcntl.LOCK_EX)  # released when the file is closed
            file.seek(0)
            try:
                booked = json.loads(file.read() or "{}")
            except ValueError:
                booked = {}  # a file cut short by a crash: start the turns afresh
            if not isinstance(booked, dict):
                booked = {}
            now = self._clock()
            at = max(now, float(booked.get(bucket, now)))
            booked[bucket] = at + self._window
            file.seek(0)
            file.truncate()
            file.write(json.dumps(booked))
            file.flush()
        return at - now
