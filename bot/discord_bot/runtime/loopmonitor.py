"""An optional watch on the event loop: how late do its timers fire? (``TAFL_LOOP_MONITOR=1``)

Anything that blocks the loop (rendering, the AI, slow SQL done in-line) delays every interaction
the bot answers, so the worst lateness seen in each reporting window is logged. Used by
``benchmarks/bot_latency.py``; cheap enough to leave on, off by default.
"""

from __future__ import annotations

import asyncio
import logging
import time

log = logging.getLogger(__name__)

PROBE_SECONDS = 0.02
"""How often the loop is probed: a sleep this long that wakes up late measures the lag."""
REPORT_SECONDS = 2.0
"""How often the worst lag is logged."""


async def watch_loop_lag(probe: float = PROBE_SECONDS, report: float = REPORT_SECONDS) -> None:
    """Log ``loop lag: worst N ms`` every ``report`` seconds until cancelled."""
    worst = 0.0
    window_start = time.perf_counter()
    while True:
        before = time.perf_counter()
        await asyncio.sleep(probe)
        now = time.perf_counter()
        worst = max(worst, now - before - probe)
        if now - window_start >= report:
            log.info("loop lag: worst %.1f ms in the last %.1f s", worst * 1000, now - window_start)
            worst = 0.0
            window_start = now
