"""The process's metrics, in Prometheus's format (``/metrics``), through ``prometheus_client``.

Each process has a registry of its own (tests run several in one interpreter). Events are
counted as they happen (moves, the AI's searches, the interactions answered); every other value
is read when Prometheus scrapes, from the parts of the process that already know it (the AI
service's queue, the database's pool and outages, the gateway connections, the leases), so
nothing here keeps a second copy that could drift. The layers below (storage, AI) know nothing
of Prometheus: they expose plain numbers or take a callback.

Interaction latency is measured from the moment the bot receives an interaction from the gateway
(``INTERACTION_CREATE``, as :meth:`Metrics.interaction_arrived` is told) to the moment Discord
has accepted the bot's first response to it (the end of the ``POST
/interactions/{id}/{token}/callback`` request, seen by an :class:`aiohttp.TraceConfig` on
discord.py's HTTP session): the time a player waits, less the gateway's own delivery.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import metadata
from types import SimpleNamespace

import aiohttp
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from bot.ai import AIService
from bot.storage import LeaseKeeper, Shards, Storage, format_ranges

from .gateway import Gateways

INTERACTION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Seconds; Discord shows "This interaction failed" past 3 s, hence the buckets around it."""
SEARCH_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
"""Seconds; the AI's levels think from a few milliseconds (easy) to 4 s (master), a review's
position up to its safety limit."""
UNANSWERED_AFTER = 15.0
"""Seconds after which an interaction without a first response never gets one (Discord allows
3 s): it is counted as unanswered and forgotten."""
MAX_PENDING = 10_000
"""Interactions awaiting a first response that are remembered at most (a burst beyond it is
not timed rather than let memory grow)."""
INTERACTION_TYPES = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
"""Discord's interaction types, as the metrics label them (1, the ping, never reaches a bot on
the gateway)."""
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
"""The path of an interaction's first response (the token after the id is never kept)."""


def _version() -> str:
    try:
        return metadata.version("tafl-bot")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class _Pending:
    kind: str
    arrived: float


class Metrics:
    """Every metric of one bot process, in its own :class:`CollectorRegistry`.

    The process hands it the parts it reads as they come to exist (:meth:`watch`): the storage
    once the database is open, the leases once they are being taken, the AI, the gateways and
    the count of games in progress once the bot is made. Until then their metrics are absent
    from a scrape, not zero.
    """

    def __init__(
        self,
        shards: Shards | None = None,
        instance: str | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = CollectorRegistry()
        self._clock = clock
        self.storage: Storage | None = None
        self.leases: LeaseKeeper | None = None
        self.ai: AIService | None = None
        self.gateways: Gateways | None = None
        self.games: Callable[[], int] | None = None
        self.moves = Counter(
            "tafl_moves",
            "Moves played in this process's games (committed and announced), by who played them.",
            ["kind"],
            registry=self.registry,
        )
        self.interaction_latency = Histogram(
            "tafl_interaction_latency_seconds",
            "Seconds from an interaction's arrival from the gateway to Discord's acceptance of"
            " the bot's first response (a reply, a deferral or autocomplete choices).",
            ["type"],
            buckets=INTERACTION_BUCKETS,
            registry=self.registry,
        )
        self.unanswered = Counter(
            "tafl_interactions_unanswered",
            "Interactions received whose first response never reached Discord, or that were left"
            " unanswered while the leases could not be proved (the player saw 'This interaction"
            " failed').",
            ["type"],
            registry=self.registry,
        )
        self.search_time = Histogram(
            "tafl_ai_search_seconds",
            "Seconds an AI worker took to answer a search: a game's move, or one position of a"
            " review (the wait for a free worker not included).",
            ["purpose"],
            buckets=SEARCH_BUCKETS,
            registry=self.registry,
        )
        for kind in ("player", "ai"):
            self.moves.labels(kind)  # both series exist from the start, at 0
        for purpose in ("move", "review"):
            self.search_time.labels(purpose)
        self._pending: dict[int, _Pending] = {}
        shards = shards or Shards.every()
        Info("tafl_process", "What this process is and serves.", registry=self.registry).info(
            {
                "version": _version(),
                # Not "instance": Prometheus gives that label to every target it scrapes.
                "name": instance or "",
                "shards": format_ranges(shards.ids),
                "shard_count": str(shards.count),
            }
        )
        self.registry.register(_StateCollector(self))
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)

    def watch(
        self,
        *,
        storage: Storage | None = None,
        leases: LeaseKeeper | None = None,
        ai: AIService | None = None,
        gateways: Gateways | None = None,
        games: Callable[[], int] | None = None,
    ) -> None:
        """Read these from now on, at each scrape (``games``: how many games this process has
        in progress)."""
        if storage is not None:
            self.storage = storage
        if leases is not None:
            self.leases = leases
        if ai is not None:
            self.ai = ai
        if gateways is not None:
            self.gateways = gateways
        if games is not None:
            self.games = games

    # ------------------------------------------------------------------ events

    def count_move(self, by_ai: bool) -> None:
        """A move was played (``GameHub``'s ``on_move``)."""
        self.moves.labels("ai" if by_ai else "player").inc()

    def observe_search(self, purpose: str, seconds: float) -> None:
        """An AI worker answered a search (``AIService``'s ``on_search``)."""
        self.search_time.labels(purpose).observe(seconds)

    def interaction_arrived(self, data: Mapping[str, object]) -> None:
        """An interaction was received from the gateway and handed to the bot (its raw
        ``INTERACTION_CREATE`` payload)."""
        self.forget_unanswered()
        if len(self._pending) >= MAX_PENDING:
            return
        try:
            interaction_id = int(str(data["id"]))  # a snowflake, sent as a string
        except (KeyError, ValueError):
            return
        self._pending[interaction_id] = _Pending(_kind(data), self._clock())

    def interaction_dropped(self, data: Mapping[str, object]) -> None:
        """An interaction was received from the gateway but left unanswered: the process
        could not prove its leases (its raw ``INTERACTION_CREATE`` payload). The player sees
        it fail unless another process has taken the shard over and answers it."""
        self.unanswered.labels(_kind(data)).inc()

    def interaction_answered(self, interaction_id: int, accepted: bool) -> None:
        """Discord answered the bot's first response to an interaction: ``accepted`` (2xx), or
        refused (the interaction then failed for the player)."""
        pending = self._pending.pop(interaction_id, None)
        if pending is None:
            return  # not delivered through this process's gateway, or already forgotten
        if accepted:
            self.interaction_latency.labels(pending.kind).observe(self._clock() - pending.arrived)
        else:
            self.unanswered.labels(pending.kind).inc()

    def forget_unanswered(self) -> None:
        """Count and forget the interactions that waited past :data:`UNANSWERED_AFTER`."""
        limit = self._clock() - UNANSWERED_AFTER
        # Arrival order is insertion order: the oldest come first.
        while self._pending:
            interaction_id, pending = next(iter(self._pending.items()))
            if pending.arrived > limit:
                break
            del self._pending[interaction_id]
            self.unanswered.labels(pending.kind).inc()

    def trace_config(self) -> aiohttp.TraceConfig:
        """A trace for discord.py's HTTP session (``Client(http_trace=...)``) that notes when
        each interaction's first response has been accepted by Discord, or refused.

        A response that discord.py will send again (after a 429 or a 5xx, or a connection
        lost on the way) is not the end of it: the interaction waits for the next attempt's
        answer, and counts as unanswered only if none is accepted in time."""
        trace = aiohttp.TraceConfig()

        async def ended(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            found = _CALLBACK.search(params.url.path)
            if found is None or params.method != "POST":
                return
            status = params.response.status
            if status == 429 or status >= 500:
                return  # retried
            self.interaction_answered(int(found.group(1)), status < 300)

        trace.on_request_end.append(ended)
        return trace


def _kind(data: Mapping[str, object]) -> str:
    """The metrics' label for a raw interaction payload's ``type``."""
    kind = data.get("type")
    return INTERACTION_TYPES.get(kind, "other") if isinstance(kind, int) else "other"


class _StateCollector:
    """The values read at scrape time from the process's parts."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self) -> Iterable[Metric]:
        """Nothing to declare ahead: these names are the collector's alone."""
        return ()

    def collect(self) -> Iterator[Metric]:
        """Every value, read now."""
        metrics = self.metrics
        metrics.forget_unanswered()
        if metrics.ai is not None:
            yield from _ai(metrics.ai)
        if metrics.gateways is not None:
            yield from _gateways(metrics.gateways)
        if metrics.games is not None:
            active = GaugeMetricFamily("tafl_games_active", "Games in progress in this process.")
            active.add_metric([], metrics.games())
            yield active
        if metrics.storage is not None:
            yield from _database(metrics.storage)
        if metrics.leases is not None:
            yield from _leases(metrics.leases)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def _ai(ai: AIService) -> Iterator[Metric]:
    queue = GaugeMetricFamily(
        "tafl_ai_queue_length",
        "AI searches waiting for a free worker, by purpose (a game's move, a review's position).",
        labels=["purpose"],
    )
    for purpose, waiting in ai.waiting().items():
        queue.add_metric([purpose], waiting)
    yield queue
    yield _gauge("tafl_ai_workers", "AI worker processes.", ai.size)
    yield _gauge("tafl_ai_workers_busy", "AI workers searching right now.", ai.busy())


def _gateways(bot: Gateways) -> Iterator[Metric]:
    connected = GaugeMetricFamily(
        "tafl_shard_connected",
        "Whether the shard's gateway connection is open (1) or not (0).",
        labels=["shard"],
    )
    latency = GaugeMetricFamily(
        "tafl_shard_latency_seconds",
        "The shard's gateway latency: the round trip of its last heartbeat, from its sending to"
        " Discord's acknowledgement (absent before the first).",
        labels=["shard"],
    )
    for shard, gateway in sorted(bot.gateways().items()):
        connected.add_metric([str(shard)], 1 if gateway.connected else 0)
        if math.isfinite(gateway.latency):
            latency.add_metric([str(shard)], gateway.latency)
    yield connected
    yield latency


def _database(storage: Storage) -> Iterator[Metric]:
    outage = storage.db.outage
    yield CounterMetricFamily(
        "tafl_db_outages",
        "Times the database stopped answering (each outage counted once, however many"
        " requests it refused).",
        value=outage.count,
    )
    yield _gauge(
        "tafl_db_outage_ongoing",
        "Whether the last request found the database unavailable (1) or not (0).",
        1 if outage.ongoing else 0,
    )
    stats = storage.db.pool_stats()
    if stats is None:
        return  # SQLite: one connection, no pool
    pool = GaugeMetricFamily(
        "tafl_db_pool_connections",
        "PostgreSQL connections of this process's pool, by state.",
        labels=["state"],
    )
    pool.add_metric(["in_use"], stats.in_use)
    pool.add_metric(["idle"], stats.idle)
    yield pool
    yield _gauge(
        "tafl_db_pool_max_connections",
        "The most connections the pool opens (TAFL_DB_POOL_SIZE).",
        stats.limit,
    )


def _leases(leases: LeaseKeeper) -> Iterator[Metric]:
    yield _gauge(
        "tafl_shard_leases_valid",
        "Whether this process holds valid leases on its shards (1), and so may answer for"
        " them, or not (0: still waiting for them, renewals failing, or lost).",
        1 if leases.valid() else 0,
    )
    yield _gauge(
        "tafl_shard_leases_valid_seconds",
        "Seconds this process may go on answering without another renewal.",
        leases.valid_for(),
    )
    yield CounterMetricFamily(
        "tafl_shard_lease_renewals",
        "Successful renewals of this process's leases.",
        value=leases.renewals,
    )
