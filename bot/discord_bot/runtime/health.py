"""The process's health over HTTP, for its orchestrator and its monitoring (``TAFL_HTTP_PORT``).

* ``/healthz``: the process is alive. The answer comes from the event loop itself, so a loop
  that is stuck gets no answer; nothing else is asked (the database least of all: an outage of
  the database must not get every process restarted, which would only add a storm of
  reconnections to it).
* ``/readyz``: the process serves its shards. 200 only when it holds valid leases on them,
  every one of their gateway connections is up, and the database answers (it answered a request
  in the last :data:`FRESH_SECONDS`, or answers ``SELECT 1`` within :data:`PING_SECONDS`);
  otherwise 503. Either way the body says why, in one line.
* ``/metrics``: the process's metrics in Prometheus's format (:mod:`.metrics`).

The server starts before anything else the process does and runs on its event loop, so it
answers while the process opens the database and while it waits, perhaps for a long time, for
its shards' leases.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from bot.storage import (
    DatabaseBusy,
    DatabaseUnavailable,
    LeaseKeeper,
    Storage,
    StorageError,
    format_ranges,
)

from .gateway import Gateways
from .metrics import Metrics

log = logging.getLogger(__name__)

FRESH_SECONDS = 10.0
"""A database that answered a request this recently is not asked again by a readiness check."""
PING_SECONDS = 2.0
"""How long a readiness check waits for the database's answer to ``SELECT 1`` (kept below the
probes' own timeout, so that the check says why rather than timing out)."""
SHUTDOWN_SECONDS = 2.0
"""How long requests still being answered may take once the process stops (a page's event
stream is told to end at once: the page reconnects to another process)."""
OPENING = "opening the database"
WAITING_FOR_LEASES = "waiting for the shards' leases"
STARTING = "starting: loading the games and connecting to Discord"


class Health:
    """What the process is doing, as far as its readiness goes; the launcher fills it in as it
    goes: :attr:`phase` before the bot exists, then :attr:`bot` (what it reads of it: whether
    it is ready, and its gateway connections), and :attr:`stopping` on SIGTERM."""

    def __init__(self) -> None:
        self.phase = OPENING
        """What the process is doing before it has a bot (the reason it is not ready)."""
        self.storage: Storage | None = None
        self.leases: LeaseKeeper | None = None
        self.bot: Gateways | None = None
        self.stopping = False
        """Set on SIGTERM: the process is going away and no longer counts as ready."""
        self._ping: asyncio.Task[None] | None = None

    async def readiness(self) -> tuple[bool, str]:
        """Whether the process is ready, and a one-line reason."""
        if self.stopping:
            return False, "stopping"
        bot = self.bot
        if bot is None or self.storage is None:
            return False, self.phase
        leases = self.leases
        if leases is not None and leases.lost is not None:
            holder = leases.lost.instance or "no one"
            return False, f"lost the lease on shard {leases.lost.shard} (now held by {holder})"
        if not bot.is_ready():
            return False, STARTING
        down = sorted(shard for shard, gateway in bot.gateways().items() if not gateway.connected)
        if down:
            return False, f"the gateway connection of shard(s) {format_ranges(down)} is down"
        # The database before the leases' renewal: when it is out of reach, the renewals fail
        # because of it, and it is the reason to give.
        problem = await self.check_database(self.storage)
        if problem is not None:
            return False, problem
        if leases is not None and not leases.valid():
            return False, "the shards' leases were not renewed in time"
        return True, f"ready: {self.storage.shards.describe()}"

    async def check_database(self, storage: Storage) -> str | None:
        """Why the database does not count as answering, or ``None`` when it does."""
        if storage.db.outage.answered_within(FRESH_SECONDS):
            return None
        # One question at a time, however many probes ask meanwhile; a slow answer is waited
        # for by the next probe rather than asked again.
        ping = self._ping
        if ping is None or ping.done():
            ping = self._ping = asyncio.create_task(storage.db.ping(), name="readiness-ping")
            ping.add_done_callback(_retrieve)
        try:
            await asyncio.wait_for(asyncio.shield(ping), PING_SECONDS)
        except TimeoutError:
            return f"the database did not answer within {PING_SECONDS:g} s"
        except DatabaseBusy as error:
            return f"the database's connections are all busy: {error.problem}"
        except DatabaseUnavailable as error:
            return f"the database is unavailable: {error.problem}"
        except StorageError as error:
            return f"the database failed: {error}"
        return None

    async def close(self) -> None:
        """Stop a database question still running."""
        if self._ping is not None and not self._ping.done():
            self._ping.cancel()
            with contextlib.suppress(BaseException):
                await self._ping


def _retrieve(task: asyncio.Task[None]) -> None:
    """Mark the task's outcome as seen: a probe that gave up waiting has said it already."""
    if not task.cancelled():
        task.exception()


class HealthServer:
    """``/healthz``, ``/readyz`` and ``/metrics`` on one port, served on the event loop."""

    def __init__(self, health: Health, metrics: Metrics) -> None:
        self.health = health
        self.metrics = metrics
        self.app = web.Application()
        self.app.router.add_get("/healthz", self._alive)
        self.app.router.add_get("/readyz", self._ready)
        self.app.router.add_get("/metrics", make_aiohttp_handler(metrics.registry))
        # No access log: probes come every few seconds, for as long as the process runs. On
        # shutdown, requests still open (the web board's event streams) get a moment only.
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        self._started = False

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host``:``port``; an :class:`OSError` when it cannot (the port is in
        use, or not this user's to take)."""
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError:
            await self._runner.cleanup()
            raise
        self._started = True

    async def close(self) -> None:
        """Stop listening."""
        await self.health.close()
        if self._started:
            self._started = False
            await self._runner.cleanup()

    async def _alive(self, request: web.Request) -> web.Response:
        return web.Response(text="alive\n")

    async def _ready(self, request: web.Request) -> web.Response:
        ready, reason = await self.health.readiness()
        return web.Response(status=200 if ready else 503, text=one_line(reason) + "\n")


class RefusalServer:
    """What a cluster that refused to run (``python -m bot cluster --hold-on-refusal``) answers
    while it waits to be stopped, on the ports its processes would have served: 503 and why,
    on every path, so that a health check (``python -m bot health``) says why it is
    unhealthy rather than that nothing answers."""

    def __init__(self, reason: str) -> None:
        self.reason = one_line(reason)
        self.app = web.Application()
        self.app.router.add_get("/{path:.*}", self._refused)
        self._runner = web.AppRunner(self.app, access_log=None)
        self._started = False

    async def start(self, host: str, ports: Sequence[int]) -> list[int]:
        """Listen on ``host`` at each of ``ports`` that can be had; the ports it got (one
        that is taken is logged and left out: the refusal matters more than the endpoint)."""
        await self._runner.setup()
        self._started = True
        served = []
        for port in ports:
            try:
                await web.TCPSite(self._runner, host, port).start()
            except OSError as error:
                log.warning(
                    "cannot say why on %s:%d (TAFL_HTTP_HOST, TAFL_HTTP_PORT): %s",
                    host,
                    port,
                    error.strerror or error,
                )
            else:
                served.append(port)
        return served

    async def close(self) -> None:
        """Stop listening."""
        if self._started:
            self._started = False
            await self._runner.cleanup()

    async def _refused(self, request: web.Request) -> web.Response:
        return web.Response(status=503, text=f"refused to run: {self.reason}\n")


def one_line(text: str) -> str:
    """``text`` with its line breaks and runs of spaces made single spaces: the endpoint's
    answers are one line each (a database's error message may span several)."""
    return " ".join(text.split())
