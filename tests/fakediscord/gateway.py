"""The gateway websocket: HELLO, IDENTIFY/READY, RESUME, heartbeats and event dispatch.

Frames are sent as plain JSON text (discord.py only decompresses binary frames, so the
``compress=zlib-stream`` it asks for is not needed). Each connection has a writer task
fed by a queue, so any code may dispatch an event synchronously and order is preserved.
Events are also kept per session so a client that reconnects can RESUME without loss.

Sharding works as on Discord: an IDENTIFY with ``shard: [shard_id, shard_count]`` opens a
session that is sent only the guilds, and the guild events, of that shard (guild ``g`` belongs to
shard ``(g >> 22) % shard_count``; direct messages to shard 0). A session without ``shard`` gets
everything. Any number of sessions may be open at once (several bot processes, one token).
"""

# Test-facing waits take a timeout argument, like discord.py's own wait_for().
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from aiohttp import WSMsgType, web

from .ids import shard_of
from .models import FakeUser
from .state import GUILD_MEMBERS, GUILDS, MESSAGE_CONTENT, World

log = logging.getLogger("fakediscord")

JSON = dict[str, Any]

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

GUILD_PRESENCES = 1 << 8
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
# GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED: what a small bot has.
APPLICATION_FLAGS = (1 << 15) | (1 << 19)
EMBEDDED = 1 << 17
"""The application flag of an app with Activities enabled."""

# discord.py answers our heartbeat requests through a limiter of 110 sends per 60 s and
# then *sleeps*; stay well below it and fall back to a short pause instead.
SYNC_BUDGET = 90
SYNC_WINDOW = 60.0
BUDGET_PAUSE = 0.1


@dataclass
class _Outgoing:
    payload: JSON
    on_sent: Callable[[float], None] | None = None


class Connection:
    """One websocket; a session is attached after IDENTIFY or RESUME."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[_Outgoing | None] = asyncio.Queue()
        self.session: GatewaySession | None = None
        self.writer: asyncio.Task[None] | None = None

    def send(self, payload: JSON, on_sent: Callable[[float], None] | None = None) -> None:
        self.queue.put_nowait(_Outgoing(payload, on_sent))

    async def write_loop(self) -> None:
        while (item := await self.queue.get()) is not None:
            if self.ws.closed:
                return
            sent_at = time.perf_counter()
            try:
                await self.ws.send_str(json.dumps(item.payload))
            except (ConnectionError, RuntimeError):
                return
            if item.on_sent is not None:
                item.on_sent(sent_at)


class GatewaySession:
    """A gateway session: its sequence numbers and the events it was sent, for RESUME."""

    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] | None = None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        """``(shard_id, shard_count)`` from IDENTIFY; ``None``: unsharded, sent every event."""
        self.seq = 0
        self.buffer: deque[tuple[int, _Outgoing]] = deque(maxlen=5000)
        self.connection: Connection | None = None
        self.ready = False
        self.client_seq: int | None = None
        self._sync_waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._client_sends: deque[float] = deque()
        self._budget_warned = False

    def wants(self, intent: int | None) -> bool:
        return intent is None or bool(self.intents & intent)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives the events of ``guild_id`` (``None``: DMs)."""
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        return shard_of(guild_id, shard_count) == shard_id

    def dispatch(
        self, event: str, data: JSON, on_sent: Callable[[float], None] | None = None
    ) -> None:
        self.seq += 1
        item = _Outgoing({"op": DISPATCH, "t": event, "s": self.seq, "d": data}, on_sent)
        self.buffer.append((self.seq, item))
        if self.connection is not None:
            self.connection.queue.put_nowait(item)

    def replay_after(self, seq: int) -> bool:
        """Queue every buffered event after ``seq``; False if some were already dropped."""
        assert self.connection is not None
        if self.buffer and self.buffer[0][0] > seq + 1:
            return False
        for event_seq, item in self.buffer:
            if event_seq > seq:
                self.connection.queue.put_nowait(item)
        return True

    def count_client_send(self) -> None:
        now = time.monotonic()
        self._client_sends.append(now)
        while self._client_sends and self._client_sends[0] < now - SYNC_WINDOW:
            self._client_sends.popleft()

    def heartbeat(self, seq: int | None) -> None:
        self.client_seq = seq
        still_waiting = []
        for target, waiter in self._sync_waiters:
            if waiter.done():
                continue
            if target == 0 or (seq is not None and seq >= target):
                waiter.set_result(None)
            else:
                still_waiting.append((target, waiter))
        self._sync_waiters = still_waiting

    async def sync(self, timeout: float) -> None:
        """Return once the client has processed every event dispatched so far.

        Sends a heartbeat request (op 1); discord.py answers immediately from its event
        loop with a heartbeat carrying the last sequence it processed.
        """
        if self.connection is None:
            raise RuntimeError(f"gateway session {self.id} is not connected")
        self.count_client_send()
        if len(self._client_sends) > SYNC_BUDGET:
            if not self._budget_warned:
                self._budget_warned = True
                log.warning(
                    "over %d gateway round trips in %g s: sync() now pauses %g s instead, "
                    "because discord.py stalls its gateway when it has to answer more",
                    SYNC_BUDGET,
                    SYNC_WINDOW,
                    BUDGET_PAUSE,
                )
            await asyncio.sleep(BUDGET_PAUSE)
            return
        waiter = asyncio.get_running_loop().create_future()
        self._sync_waiters.append((self.seq, waiter))
        self.connection.send({"op": HEARTBEAT, "d": None})
        try:
            async with asyncio.timeout(timeout):  # cancellable, unlike 3.11's wait_for
                await waiter
        except TimeoutError:
            raise TimeoutError(
                f"the bot did not answer a heartbeat request within {timeout:g}s"
                f" (session {self.id})"
            ) from None


class Gateway:
    """Accepts gateway websockets and routes :class:`World` events to the bot's sessions."""

    def __init__(
        self, world: World, *, heartbeat_interval_ms: int = 41_250, allow_privileged: bool = True
    ) -> None:
        self.world = world
        self.url = ""
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allow_privileged = allow_privileged
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: set[Connection] = set()
        self.identify_count = 0
        self.identified: list[tuple[float, tuple[int, int] | None]] = []
        """When each IDENTIFY was accepted (``time.monotonic()``) and for which shard."""
        self.resume_count = 0

    # -- EventSink ---------------------------------------------------------------------------

    def dispatch(
        self,
        event: str,
        data: JSON,
        *,
        guild_id: int | None,
        intent: int | None = None,
        on_sent: Callable[[float], None] | None = None,
    ) -> None:
        """Send ``event`` to every session of the shard owning ``guild_id`` that wants it."""
        for session in list(self.sessions.values()):
            if not session.wants(intent) or not session.owns(guild_id):
                continue
            payload = data
            if (
                event in ("MESSAGE_CREATE", "MESSAGE_UPDATE")
                and not session.intents & MESSAGE_CONTENT
            ):
                payload = _without_content(data, self.world.bot_user)
            session.dispatch(event, payload, on_sent)

    # -- state for tests ---------------------------------------------------------------------

    @property
    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.connection is not None and s.ready]

    @property
    def live_shards(self) -> set[tuple[int, int] | None]:
        """The ``(shard_id, shard_count)`` of every live session (``None``: unsharded)."""
        return {session.shard for session in self.live_sessions}

    def live_owner(self, guild_id: int | None) -> bool:
        """Whether a live session would receive ``guild_id``'s events."""
        return any(session.owns(guild_id) for session in self.live_sessions)

    async def sync(self, timeout: float) -> None:
        sessions = self.live_sessions
        if not sessions:
            raise RuntimeError("the bot is not connected to the fake gateway")
        for session in sessions:
            await session.sync(timeout)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py closes the socket and RESUMEs on a new one."""
        for session in self.live_sessions:
            assert session.connection is not None
            session.connection.send({"op": RECONNECT, "d": None})

    async def drop_connections(self, *, invalidate: bool = False) -> None:
        """Close every socket as a network failure would; with ``invalidate`` the sessions
        are forgotten too, so the client's RESUME is refused and it must IDENTIFY again."""
        for connection in list(self.connections):
            await connection.ws.close(code=4000, message=b"fake discord dropped the connection")
        if invalidate:
            self.sessions.clear()

    async def close(self) -> None:
        for connection in list(self.connections):
            await connection.ws.close(code=1001, message=b"fake discord is shutting down")
        for connection in list(self.connections):
            if connection.writer is not None:
                connection.writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await connection.writer

    def status(self) -> str:
        if not self.sessions:
            return "gateway: the bot never identified"
        parts = []
        for session in self.sessions.values():
            state = "connected" if session.connection is not None else "disconnected"
            acked = session.client_seq
            shard = "" if session.shard is None else f" (shard {list(session.shard)})"
            parts.append(
                f"session {session.id}{shard} {state}, sent seq {session.seq}, client acked {acked}"
            )
        return "gateway: " + "; ".join(parts)

    # -- the websocket -----------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws)
        self.connections.add(connection)
        connection.writer = asyncio.create_task(
            connection.write_loop(), name="fakediscord-gateway-writer"
        )
        try:
            version = request.query.get("v", "10")
            if version != "10" or request.query.get("encoding", "json") != "json":
                await ws.close(code=4012, message=b"Invalid API version or encoding")
                return ws
            connection.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                try:
                    frame = json.loads(message.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                await self._receive(connection, frame)
        finally:
            connection.queue.put_nowait(None)
            if connection.writer is not None and not connection.writer.done():
                with contextlib.suppress(asyncio.CancelledError, ConnectionError, RuntimeError):
                    await asyncio.wait_for(connection.writer, 1.0)
            self.connections.discard(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
            self.world.notifier.notify()
        return ws

    async def _receive(self, connection: Connection, frame: JSON) -> None:
        op = frame.get("op")
        data = frame.get("d")
        session = connection.session
        if op == HEARTBEAT:
            connection.send({"op": HEARTBEAT_ACK})
            if session is not None:
                session.heartbeat(data if isinstance(data, int) else None)
            return
        if session is not None:
            session.count_client_send()
        if op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif session is None:
            await connection.ws.close(code=4003, message=b"Not authenticated.")
        elif op == PRESENCE_UPDATE:
            self.world.presence = data
            self.world.notifier.notify()
        elif op == REQUEST_GUILD_MEMBERS:
            self._send_members(session, data or {})
        elif op == VOICE_STATE_UPDATE:
            pass
        else:
            log.warning("fake gateway got unknown op %r: %s", op, frame)
            await connection.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, connection: Connection, data: JSON) -> None:
        if connection.session is not None:
            await connection.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != self.world.token:
            log.info("fake gateway refused IDENTIFY with a wrong token")
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            await connection.ws.close(code=4013, message=b"Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS and not self.allow_privileged:
            await connection.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = _shard(data.get("shard"))
        if shard is False:
            log.info("fake gateway refused IDENTIFY with shard %r", data.get("shard"))
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return
        session = GatewaySession(secrets.token_hex(16), intents, shard)
        self.sessions[session.id] = session
        connection.session = session
        session.connection = connection
        self.identify_count += 1
        self.identified.append((time.monotonic(), shard))
        world = self.world
        guilds = [g for g in world.guilds.values() if world.bot_in(g) and session.owns(g.id)]
        ready: JSON = {
            "v": 10,
            "user": {
                **world.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "email": None,
            },
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {
                "id": str(world.application_id),
                "flags": APPLICATION_FLAGS | (EMBEDDED if world.activities else 0),
            },
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["fake-discord"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        session.dispatch("READY", ready)
        if session.wants(GUILDS):  # without it the guilds stay "unavailable" in the client
            for guild in guilds:
                session.dispatch("GUILD_CREATE", guild.gateway_payload())
        session.ready = True
        world.notifier.notify()

    async def _resume(self, connection: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.world.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        seq = data.get("seq")
        if session is None or not isinstance(seq, int):
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        old = session.connection
        if old is not None and old is not connection:
            await old.ws.close(code=4000, message=b"Session resumed elsewhere.")
        connection.session = session
        session.connection = connection
        if not session.replay_after(seq):
            session.connection = None
            connection.session = None
            del self.sessions[session.id]
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        self.resume_count += 1
        session.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        session.ready = True
        self.world.notifier.notify()

    def _send_members(self, session: GatewaySession, data: JSON) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        members = [] if guild is None else list(guild.members.values())
        user_ids = data.get("user_ids")
        if user_ids is not None:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            query = str(data["query"]).lower()
            members = [m for m in members if m.user.username.lower().startswith(query)]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk: JSON = {
            "guild_id": str(data.get("guild_id")),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("presences"):
            chunk["presences"] = []
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def _shard(value: object) -> tuple[int, int] | Literal[False] | None:
    """IDENTIFY's ``shard``: ``(shard_id, shard_count)``, ``None`` when absent, ``False`` when
    Discord would refuse it (not two integers with ``0 <= shard_id < shard_count``)."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        return False
    shard_id, shard_count = value
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
        return False
    if not 0 <= shard_id < shard_count:
        return False
    return shard_id, shard_count


def _without_content(data: JSON, bot_user: FakeUser) -> JSON:
    """What a bot without the message-content intent sees of other people's messages."""
    author_id = int(data.get("author", {}).get("id", 0))
    mentions_bot = f"<@{bot_user.id}>" in str(
        data.get("content", "")
    ) or f"<@!{bot_user.id}>" in str(data.get("content", ""))
    if author_id == bot_user.id or mentions_bot or "guild_id" not in data:
        return data
    return {**data, "content": "", "embeds": [], "attachments": [], "components": []}
