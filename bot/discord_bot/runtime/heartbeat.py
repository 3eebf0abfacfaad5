"""The gateway's latency as the round trip of a heartbeat, on discord.py releases that time it
from the wrong heartbeat.

discord.py's keep-alive thread asks the event loop to send each heartbeat, and notes the time
of sending only once it wakes up after the loop has sent it. A gateway that acknowledges at
once (Discord's nearby servers, the test stand-in) has its ``HEARTBEAT_ACK`` handled by the
loop before that thread wakes up: the acknowledgement is then timed from the previous
heartbeat, and ``latency`` reads the heartbeat interval (about 41 s) although the round trip
took milliseconds. discord.py fixed it after 2.7.1 by noting the time on the event loop, right
before sending (``KeepAliveHandler._send_heartbeat``); until the bot runs on a release with
that fix, :func:`time_heartbeats_when_sent` does the same.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from discord.gateway import DiscordWebSocket, KeepAliveHandler

_MENDED = "_tafl_timed_when_sent"


def time_heartbeats_when_sent() -> None:
    """Note each heartbeat's time of sending on the event loop, just before it is sent (once
    per process; nothing on a discord.py release that does so itself)."""
    if hasattr(KeepAliveHandler, "_send_heartbeat"):
        return  # the release's own fix
    send: Callable[[DiscordWebSocket, object], Awaitable[None]] = DiscordWebSocket.send_heartbeat
    if getattr(send, _MENDED, False):
        return

    async def send_heartbeat(self: DiscordWebSocket, data: object) -> None:
        keep_alive = self._keep_alive
        if keep_alive is not None:
            keep_alive._last_send = time.perf_counter()
        await send(self, data)

    setattr(send_heartbeat, _MENDED, True)
    DiscordWebSocket.send_heartbeat = send_heartbeat  # type: ignore[method-assign]
