"""The Discord stand-in shards like Discord: a session identified as shard ``k`` of ``n`` gets only
the guilds and guild events of shard ``k`` (direct messages: shard 0), and several processes of
one bot may be connected at once.

The gateway is driven by hand over a websocket where the exact frames matter, and by real
discord.py ``AutoShardedBot``s (two, as two processes of one bot would be) for the whole path.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord.ext import commands
from fakediscord import FakeDiscord, FakeGuild
from fakediscord.gateway import GatewaySession

JSON = dict[str, Any]

GUILDS = 1 << 0
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
INTENTS = GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(recommended_shards=4) as server:
        yield server
        server.assert_healthy()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def frame(ws: aiohttp.ClientWebSocketResponse) -> JSON:
    """The next JSON frame from the stand-in (fails on a close)."""
    message = await ws.receive(timeout=5)
    assert message.type == aiohttp.WSMsgType.TEXT, (message.type, message.data, message.extra)
    payload: JSON = json.loads(message.data)
    return payload


async def identify(
    http: aiohttp.ClientSession, fake: FakeDiscord, shard: object | None
) -> tuple[aiohttp.ClientWebSocketResponse, JSON]:
    """Open a gateway connection and IDENTIFY (with ``shard`` unless None); returns the socket
    and READY's data."""
    ws = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json")
    hello = await frame(ws)
    assert hello["op"] == 10
    data: JSON = {"token": fake.token, "intents": INTENTS, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await ws.send_json({"op": 2, "d": data})
    ready = await frame(ws)
    assert ready["t"] == "READY", ready
    return ws, ready["d"]


def sent(fake: FakeDiscord, ready: JSON) -> list[tuple[str, str | None]]:
    """The events the stand-in sent a session, with the guild each concerns, READY excepted."""
    session: GatewaySession = fake.gateway.sessions[ready["session_id"]]
    events = []
    for _, item in session.buffer:
        event, data = item.payload["t"], item.payload["d"]
        if event != "READY":
            guild = data["id"] if event == "GUILD_CREATE" else data.get("guild_id")
            events.append((event, guild))
    return events


def test_guilds_can_be_created_on_a_chosen_shard(fake: FakeDiscord) -> None:
    made = [fake.create_guild(f"G{k}", shard=(k % 3, 3)) for k in range(7)]
    assert [guild.shard(3) for guild in made] == [0, 1, 2, 0, 1, 2, 0]
    assert [(guild.id >> 22) % 3 for guild in made] == [0, 1, 2, 0, 1, 2, 0]
    later = fake.create_user("later")
    ids = [guild.id for guild in made] + [later.id]
    assert ids == sorted(set(ids)), "snowflakes must keep increasing"
    with pytest.raises(ValueError, match="shard 4 does not exist out of 4"):
        fake.create_guild("nowhere", shard=(4, 4))


async def test_gateway_bot_recommends_the_configured_shard_count(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with http.get(f"{fake.api_base}/gateway/bot", headers=headers) as response:
        answer = await response.json()
    assert answer["shards"] == 4 and answer["url"] == fake.gateway_url
    assert answer["session_start_limit"]["max_concurrency"] == 1
    async with http.get(f"{fake.api_base}/gateway/bot") as response:
        assert response.status == 401


async def test_a_shard_gets_its_guilds_and_their_events_only(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    even = fake.create_guild("Even", shard=(0, 2))
    odd = fake.create_guild("Odd", shard=(1, 2))
    ws0, ready0 = await identify(http, fake, [0, 2])
    ws1, ready1 = await identify(http, fake, [1, 2])
    whole, ready_all = await identify(http, fake, None)  # an unsharded session sees everything
    try:
        assert (ready0["shard"], ready1["shard"]) == ([0, 2], [1, 2]) and "shard" not in ready_all
        assert [g["id"] for g in ready1["guilds"]] == [str(odd.id)]
        created = await frame(ws1)
        assert (created["t"], created["d"]["id"]) == ("GUILD_CREATE", str(odd.id))

        alice = fake.create_user("alice", guild=odd)
        fake.create_thread(odd.channel("general"), "game")
        await fake.post_message(alice, odd.channel("general"), "hello")
        joined = fake.create_guild("Joined later", shard=(1, 2))
        await fake.post_message(alice, fake.dm_channel(alice), "a direct message")

        dm = ("MESSAGE_CREATE", None)
        assert sent(fake, ready0) == [("GUILD_CREATE", str(even.id)), dm]
        assert sent(fake, ready1) == [
            ("GUILD_CREATE", str(odd.id)),
            ("THREAD_CREATE", str(odd.id)),
            ("MESSAGE_CREATE", str(odd.id)),
            ("GUILD_CREATE", str(joined.id)),
        ]
        assert len(sent(fake, ready_all)) == 2 + 3 + 1
        assert fake.gateway.live_shards == {(0, 2), (1, 2), None}
    finally:
        for ws in (ws0, ws1, whole):
            await ws.close()


@pytest.mark.parametrize(
    "shard", [[2, 2], [0, 0], [-1, 2], [1], [0, 1, 2], "0,1", [True, 2], [0.0, 1]]
)
async def test_an_impossible_shard_is_refused_with_4010(
    fake: FakeDiscord, http: aiohttp.ClientSession, shard: object
) -> None:
    async with http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json") as ws:
        await frame(ws)  # HELLO
        await ws.send_json(
            {"op": 2, "d": {"token": fake.token, "intents": INTENTS, "shard": shard}}
        )
        closed = await ws.receive(timeout=5)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010
        assert closed.extra == "Invalid shard."
    assert fake.gateway.sessions == {}


# -- two real discord.py processes of one bot ---------------------------------------------------


class ShardedDemo(commands.AutoShardedBot):
    """One process of a bot: answers /where with the shard it runs the guild on."""

    def __init__(self, shard_ids: list[int], shard_count: int, *, sync: bool) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            shard_ids=shard_ids,
            shard_count=shard_count,
        )
        self.sync_commands = sync
        self.answered: list[int] = []

        @self.tree.command(name="where", description="Which shard answers here")
        async def where(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            self.answered.append(interaction.guild.id)
            await interaction.response.send_message(f"shard {interaction.guild.shard_id}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py waits 5 s between IDENTIFYs; the stand-in has no such limit

    async def setup_hook(self) -> None:
        if self.sync_commands:
            await self.tree.sync()


@contextlib.asynccontextmanager
async def running(bots: list[ShardedDemo], fake: FakeDiscord) -> AsyncIterator[None]:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    runners = [asyncio.create_task(bot.start(fake.token)) for bot in bots]
    try:
        await fake.wait_until_connected(identifies=4, shard_count=4, timeout=10)
        yield
    finally:
        for bot in bots:
            await bot.close()
        await asyncio.gather(*runners, return_exceptions=True)
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
        leftovers = [  # discord.py's wait for more GUILD_CREATEs before on_ready
            task
            for task in asyncio.all_tasks()
            if not task.done() and "/discord/" in str(getattr(task.get_coro(), "cr_code", ""))
        ]
        for task in leftovers:
            task.cancel()
        await asyncio.gather(*leftovers, return_exceptions=True)


async def test_two_processes_of_one_bot_each_answer_their_own_guilds(fake: FakeDiscord) -> None:
    guilds: list[FakeGuild] = [fake.create_guild(f"Club {k}", shard=(k, 4)) for k in range(4)]
    users = [fake.create_user(f"player{k}", guild=guild) for k, guild in enumerate(guilds)]
    low, high = ShardedDemo([0, 1], 4, sync=True), ShardedDemo([2, 3], 4, sync=False)
    async with running([low, high], fake):
        await fake.wait_for_commands()
        assert {g.id for g in low.guilds} == {guilds[0].id, guilds[1].id}
        assert {g.id for g in high.guilds} == {guilds[2].id, guilds[3].id}
        for user, guild in zip(users, guilds, strict=True):
            ix = await fake.send_slash_command(user, guild.channel("general"), "where")
            assert (await ix.wait_callback(timeout=10)).content == f"shard {guild.shard(4)}"
    assert low.answered == [guilds[0].id, guilds[1].id]
    assert high.answered == [guilds[2].id, guilds[3].id]
