"""Waiting for the stand-in's state to satisfy a condition, without polling.

Every change to the stored state calls :meth:`Notifier.notify`; waiters re-run their check.
While a REST request is being handled the notifier is *held*: waiters do not see the
change until the reply has been written to the socket, so a test that reacts to a bot's
message can never overtake the bot reading the reply to the request that created it.
"""

# Test-facing waits take a timeout argument, like discord.py's own wait_for().
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class Notifier:
    def __init__(self, diagnostics: Callable[[], str] | None = None) -> None:
        self._waiters: list[asyncio.Future[None]] = []
        self._holds = 0
        self._pending = False
        self._diagnostics = diagnostics

    def notify(self) -> None:
        if self._holds:
            self._pending = True
            return
        self._pending = False
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Delay notifications until the block (and every other open hold) has ended."""
        self._holds += 1
        try:
            yield
        finally:
            self._holds -= 1
            if not self._holds and self._pending:
                self.notify()

    async def wait_for(self, check: Callable[[], T | None], *, timeout: float, what: str) -> T:
        """Return the first non-None result of ``check()``, re-run after every change.

        Raises ``TimeoutError`` naming ``what`` and the stand-in's recent activity.
        """
        deadline = time.monotonic() + timeout
        while True:
            if not self._holds:
                result = check()
                if result is not None:
                    return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                details = self._diagnostics() if self._diagnostics else ""
                raise TimeoutError(f"timed out after {timeout:g}s waiting for {what}\n{details}")
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            # Not asyncio.wait_for: on Python 3.11 it swallows a cancellation that arrives as
            # the waiter is resolved, and a cancelled test task would go on waiting.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await waiter
