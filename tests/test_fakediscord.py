"""The Discord stand-in works with a real discord.py client (no tafl bot needed).

A tiny ``commands.Bot`` runs in the test's event loop, pointed at the stand-in exactly as
DISCORD.md prescribes (``Route.BASE`` and ``DEFAULT_GATEWAY``), and is scripted as a user.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import struct
import zlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands
from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, Permission

VARIANTS = ["brandubh", "tablut", "hnefatafl", "tawlbwrdd", "ard-ri"]


def tiny_png(width: int, height: int) -> bytes:
    """A valid RGB PNG, so the stand-in's reported image size can be checked."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)

    rows = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


BOARD_PNG = tiny_png(7, 7)


# -- the demo bot ------------------------------------------------------------------------------


class DemoView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Again", custom_id="demo:again", style=discord.ButtonStyle.primary)
    async def again(
        self, interaction: discord.Interaction, button: discord.ui.Button[DemoView]
    ) -> None:
        # Buttons are disabled in place, a private note follows, and a fresh board is posted
        # through the channel (REST, multipart) rather than through the interaction.
        button.disabled = True
        await interaction.response.edit_message(content="clicked", view=self)
        await interaction.followup.send("only you can see this", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(
            "new board", file=discord.File(io.BytesIO(BOARD_PNG), "board2.png")
        )

    @discord.ui.select(
        custom_id="demo:side",
        options=[
            discord.SelectOption(label="Attackers", value="attackers"),
            discord.SelectOption(label="Defenders", value="defenders"),
        ],
    )
    async def side(
        self, interaction: discord.Interaction, select: discord.ui.Select[DemoView]
    ) -> None:
        await interaction.response.send_message(f"you play {select.values[0]}", ephemeral=True)


class RenameModal(discord.ui.Modal, title="Rename the game"):
    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="New name", custom_id="demo:name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


def demo_commands() -> app_commands.Group:
    demo = app_commands.Group(name="demo", description="Demo commands")
    config = app_commands.Group(name="config", description="Settings", parent=demo)

    @demo.command(name="ping", description="Reply with a board and buttons")
    async def ping(interaction: discord.Interaction) -> None:
        file = discord.File(io.BytesIO(BOARD_PNG), "board.png")
        await interaction.response.send_message("pong", file=file, view=DemoView())

    async def variant_choices(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=v, value=v) for v in VARIANTS if v.startswith(current)]

    @demo.command(name="pick", description="Pick a variant")
    @app_commands.autocomplete(variant=variant_choices)
    async def pick(interaction: discord.Interaction, variant: str) -> None:
        await interaction.response.send_message(f"you picked {variant}")

    @demo.command(name="slow", description="Defer, then follow up twice")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send(f"done {interaction.user.mention}")
        await interaction.followup.send(f"your turn {interaction.user.mention}")

    @demo.command(name="late", description="Answer after the deadline")
    async def late(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("too late")

    @demo.command(name="rename", description="Open a modal")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @config.command(name="show", description="Show a player's settings")
    async def show(
        interaction: discord.Interaction,
        player: discord.Member,
        level: app_commands.Range[int, 1, 5],
    ) -> None:
        await interaction.response.send_message(
            f"{player.display_name} plays at level {level}", ephemeral=True
        )

    return demo


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.test_guild = discord.Object(guild_id)
        self.tree.add_command(demo_commands())

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before every IDENTIFY but the first, to respect Discord's
        # identify rate limit; the stand-in has none.
        return None

    async def setup_hook(self) -> None:
        self.tree.copy_global_to(guild=self.test_guild)
        await self.tree.sync(guild=self.test_guild)


# -- fixtures ----------------------------------------------------------------------------------


@dataclass
class Scene:
    guild: FakeGuild
    general: FakeChannel
    alice: FakeUser
    bob: FakeUser


def pending_tasks(package: str) -> list[asyncio.Task[Any]]:
    """Unfinished tasks whose coroutine comes from ``package`` (a directory name)."""
    found = []
    for task in asyncio.all_tasks():
        code = getattr(task.get_coro(), "cr_code", None)
        if not task.done() and code is not None and f"/{package}/" in code.co_filename:
            found.append(task)
    return found


@pytest.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    options: dict[str, Any] = getattr(request, "param", {})
    async with FakeDiscord(**options) as server:
        yield server
        server.assert_healthy()
    assert pending_tasks("fakediscord") == []


@pytest.fixture
def discord_endpoints(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py at the stand-in the way the bot does from its environment."""
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


@pytest.fixture
def scene(fake: FakeDiscord) -> Scene:
    guild = fake.create_guild("Tafl Club")
    return Scene(
        guild=guild,
        general=guild.channel("general"),
        alice=fake.create_user("alice", guild=guild),
        bob=fake.create_user("bob", guild=guild),
    )


@pytest.fixture
async def bot(fake: FakeDiscord, scene: Scene, discord_endpoints: None) -> AsyncIterator[DemoBot]:
    demo_bot = DemoBot(scene.guild.id)
    runner = asyncio.create_task(demo_bot.start(fake.token))
    connected = asyncio.create_task(fake.wait_until_connected())
    try:
        done, _ = await asyncio.wait(
            {runner, connected}, timeout=10, return_when=asyncio.FIRST_COMPLETED
        )
        if runner in done:
            runner.result()  # the bot failed to start: raise its error
        await connected
        yield demo_bot
    finally:
        connected.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await connected
        await demo_bot.close()
        await asyncio.wait_for(runner, 5)
        # close() leaves discord.py's own timers behind: the 2 s wait for more GUILD_CREATEs
        # before on_ready, and each View's timeout.
        leftovers = pending_tasks("discord")
        for task in leftovers:
            task.cancel()
        await asyncio.gather(*leftovers, return_exceptions=True)


# -- tests -------------------------------------------------------------------------------------


async def test_tree_sync_stores_guild_commands_with_ids(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    commands_ = fake.commands(scene.guild)
    assert [c["name"] for c in commands_] == ["demo"]
    assert commands_[0]["id"].isdigit() and commands_[0]["guild_id"] == str(scene.guild.id)
    subcommands = {o["name"]: o["type"] for o in commands_[0]["options"]}
    assert subcommands == {"ping": 1, "pick": 1, "slow": 1, "late": 1, "rename": 1, "config": 2}
    assert fake.commands() == []


async def test_slash_command_reply_carries_the_file_bytes_and_a_view(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    ix = await fake.send_slash_command(scene.alice, scene.general, "demo", subcommand="ping")
    reply = await ix

    assert reply.type == 4 and reply.content == "pong"
    assert [(f.filename, f.data) for f in reply.files] == [("board.png", BOARD_PNG)]
    message = ix.original_message
    assert message is not None and not message.ephemeral
    attachment = message.attachment("board.png")
    assert attachment.data == BOARD_PNG and attachment.content_type == "image/png"
    assert attachment.payload()["width"] == 7
    assert message.custom_ids == ["demo:again", "demo:side"]
    assert message.interaction_metadata is not None
    assert message.interaction_metadata["name"] == "demo ping"
    # Measured from dispatch to the bot's callback (how fast is benchmarks/bot_latency.py's job).
    assert ix.latency is not None and ix.latency > 0


async def test_button_click_runs_the_view_callback(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    ping = await fake.send_slash_command(scene.alice, scene.general, "demo ping")
    await ping
    board = ping.original_message
    assert board is not None
    mark = fake.checkpoint()

    click = await fake.click_button(scene.bob, board, "demo:again")
    update = await click
    assert update.type == 7
    again = board.component("demo:again")
    assert board.content == "clicked" and again is not None and again["disabled"] is True
    note = await click.wait_followup()
    assert note.ephemeral and note.visible_to == scene.bob.id
    assert note.content == "only you can see this"
    posted = await fake.wait_for_message(scene.general, lambda m: bool(m.attachments), after=mark)
    assert posted.content == "new board" and posted.attachment("board2.png").data == BOARD_PNG
    assert posted.interaction_id is None  # a plain channel message, not an interaction response
    with pytest.raises(ValueError, match="disabled"):
        await fake.click_button(scene.alice, board, "demo:again")


async def test_select_choice_reaches_the_view(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    ping = await fake.send_slash_command(scene.alice, scene.general, "demo ping")
    await ping
    assert ping.original_message is not None
    choice = await fake.choose_select(
        scene.alice, ping.original_message, "demo:side", ["defenders"]
    )
    reply = await choice
    assert reply.content == "you play defenders" and reply.ephemeral
    with pytest.raises(ValueError, match="offers"):
        await fake.choose_select(scene.alice, ping.original_message, "demo:side", ["referee"])


async def test_autocomplete_returns_matching_choices(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    ix = await fake.send_autocomplete(
        scene.alice, scene.general, "demo pick", focused="variant", options={"variant": "ta"}
    )
    reply = await ix
    assert reply.type == 8
    assert ix.choices == [
        {"name": "tablut", "value": "tablut"},
        {"name": "tawlbwrdd", "value": "tawlbwrdd"},
    ]
    # A user may ignore the suggestions and submit anything.
    picked = await fake.send_slash_command(
        scene.alice, scene.general, "demo pick", options={"variant": "chess"}
    )
    assert (await picked).content == "you picked chess"


async def test_deferred_command_follow_ups_replace_the_thinking_message(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    ix = await fake.send_slash_command(scene.alice, scene.general, "demo", subcommand="slow")
    deferred = await ix
    assert deferred.type == 5
    placeholder = ix.original_message
    assert placeholder is not None

    first = await ix.wait_followup(1)
    second = await ix.wait_followup(2)
    assert first is placeholder and not first.loading and first.content.startswith("done")
    assert second is not placeholder and second.content.startswith("your turn")
    # Filling the placeholder is an edit, and edits notify nobody: only the second pings.
    assert first.pinged_user_ids == [] and second.pinged_user_ids == [scene.alice.id]
    seen = await fake.wait_for_message(scene.general, lambda m: m.content.startswith("your turn"))
    assert seen is second
    assert [r.kind for r in ix.responses] == ["callback", "followup", "followup"]


async def test_subcommand_group_resolves_a_member_option(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    ix = await fake.send_slash_command(
        scene.alice,
        scene.general,
        "demo",
        group="config",
        subcommand="show",
        options={"player": scene.bob, "level": 3},
    )
    reply = await ix
    assert reply.content == "bob plays at level 3" and reply.ephemeral
    with pytest.raises(ValueError, match="outside"):
        await fake.send_slash_command(
            scene.alice,
            scene.general,
            "demo config show",
            options={"player": scene.bob, "level": 9},
        )
    with pytest.raises(LookupError, match="has no subcommand"):
        await fake.send_slash_command(scene.alice, scene.general, "demo", subcommand="nope")


async def test_modal_is_opened_and_submitted(fake: FakeDiscord, scene: Scene, bot: DemoBot) -> None:
    opened = await fake.send_slash_command(scene.alice, scene.general, "demo rename")
    assert (
        (await opened).type == 9
        and opened.modal is not None
        and opened.modal["title"] == "Rename the game"
    )
    submitted = await fake.submit_modal(scene.alice, opened, {"demo:name": "Friday game"})
    assert (await submitted).content == "renamed to Friday game"


async def test_channel_send_without_attach_files_is_forbidden(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    fake.set_permissions(scene.general, fake.bot_user, deny=Permission.ATTACH_FILES)
    ping = await fake.send_slash_command(scene.alice, scene.general, "demo ping")
    await ping  # interaction responses need no channel permission...
    assert ping.original_message is not None
    click = await fake.click_button(scene.alice, ping.original_message, "demo:again")
    await click.wait_followup()

    def refusals() -> list[str] | None:  # ...but the channel upload does
        return [str(r) for r in fake.request_log.rejected if r.status == 403] or None

    assert await fake.wait_until(refusals, what="the bot's refused upload") == [
        f"POST /api/v10/channels/{scene.general.id}/messages -> 403 (50013 Missing Permissions)"
    ]


async def test_a_typing_indicator_shows_until_the_bots_next_message(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    channel = bot.get_channel(scene.general.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.typing()  # one indicator, as Discord shows it for 10 s
    assert fake.bot_is_typing(scene.general) and fake.typing_started(scene.general) == 1
    await channel.send("done")
    assert not fake.bot_is_typing(scene.general)  # a message ends it
    fake.set_permissions(scene.general, fake.bot_user, deny=Permission.SEND_MESSAGES)
    with pytest.raises(discord.Forbidden):
        await channel.typing()
    assert fake.typing_started(scene.general) == 1


@pytest.mark.parametrize("fake", [{"interaction_deadline": 0.2}], indirect=True)
async def test_callback_after_the_deadline_is_refused(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    ix = await fake.send_slash_command(scene.alice, scene.general, "demo late")
    await fake.wait_until(lambda: ix.rejected or None, what="the callback to be refused")
    assert ix.callback is None and ix.rejected[0].startswith("callback after 0.")


async def test_reconnect_resumes_and_interactions_keep_working(
    fake: FakeDiscord, scene: Scene, bot: DemoBot
) -> None:
    await fake.request_reconnect()
    await fake.wait_until_connected(resumes=1)
    ix = await fake.send_slash_command(
        scene.alice, scene.general, "demo pick", options={"variant": "brandubh"}
    )
    assert (await ix).content == "you picked brandubh"
    assert fake.gateway.identify_count == 1

    await fake.drop_connection(invalidate_session=True)
    await fake.wait_until_connected(identifies=2)
    ix = await fake.send_slash_command(
        scene.alice, scene.general, "demo pick", options={"variant": "tablut"}
    )
    assert (await ix).content == "you picked tablut"


async def test_wrong_token_raises_login_failure(fake: FakeDiscord, discord_endpoints: None) -> None:
    client = discord.Client(intents=discord.Intents.none())
    try:
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
    finally:
        await client.close()
    assert fake.request_log.requests[-1].status == 401


async def test_unknown_routes_answer_json_4xx_and_are_recorded(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.api_base}/voice/regions") as response:
            assert response.status == 404
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["code"] == 0
        async with session.get(
            f"{fake.api_base}/users/@me", headers={"Authorization": f"Bot {fake.token}"}
        ) as response:
            assert response.headers["Content-Type"] == "application/json"
    assert [str(r) for r in fake.request_log.unhandled] == [
        "GET /api/v10/voice/regions -> 404 (no such route in the fake Discord)"
    ]
    with pytest.raises(AssertionError, match="unhandled route"):
        fake.assert_healthy()
    fake.request_log.unhandled.clear()
