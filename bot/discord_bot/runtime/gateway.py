"""The bot's gateway connections as the process's health checks and metrics read them: through
a small protocol the client implements, so that they sit below it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, Protocol


class Gateway(NamedTuple):
    """One shard's gateway connection, as the health checks and metrics see it."""

    connected: bool
    """Whether its websocket is open."""
    latency: float
    """The last heartbeat's round trip in seconds (infinite or NaN before the first)."""


class Gateways(Protocol):
    """What the health checks and the metrics read of the bot: whether it is ready (connected,
    its servers known), and its gateway connections by shard."""

    def is_ready(self) -> bool: ...

    def gateways(self) -> Mapping[int, Gateway]: ...
