"""The bot object: shared services, one cog per feature, persistent buttons, command sync."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import AIService
from bot.engine import VARIANTS, Game
from bot.render import board_view_from_game, render_png
from bot.storage import Storage

from .config import Settings
from .errors import report
from .hub import GameHub
from .loopmonitor import watch_loop_lag
from .views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

INTERACTION_GRACE_SECONDS = 10.0
"""On shutdown, how long interactions already being handled may take to finish before they are
cancelled quietly (their replies need the HTTP session, which closes last)."""

COGS = (
    "bot.discord_bot.cogs.challenges",
    "bot.discord_bot.cogs.play",
    "bot.discord_bot.cogs.info",
    "bot.discord_bot.cogs.timers",
)


def warm_renderer() -> None:
    """Render one captioned start position of every board size the variants use."""
    seen: set[int] = set()
    for variant in VARIANTS.values():
        if variant.size not in seen:
            seen.add(variant.size)
            render_png(board_view_from_game(Game(variant), caption=True))


class TaflTree(app_commands.CommandTree["TaflBot"]):
    """The command tree, noting each slash command (and autocomplete) being handled so that a
    shutdown can let it finish before the HTTP session closes."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        self.client.track_interaction()
        return True


class TaflBot(commands.Bot):
    """A plain (unsharded) bot: every feature is a cog under the one ``/tafl`` command group."""

    def __init__(self, settings: Settings, storage: Storage, *, ai_workers: int = 2) -> None:
        # The bot never joins voice: discord.py's start-up warnings about missing voice
        # libraries would only alarm operators.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread lookups; no message content needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=TaflTree,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        self.settings = settings
        self.storage = storage
        self.hub = GameHub(storage)
        self.ai = AIService(workers=ai_workers)
        self.tafl = app_commands.Group(name="tafl", description="Play tafl games: Tablut and kin")
        self.tree.on_error = self.on_app_command_error
        self.background: set[asyncio.Task[None]] = set()
        # Button and menu handlers by name, registered by the cogs (see views._dispatch).
        self.handlers: dict[str, Callable[..., Awaitable[None]]] = {}
        # Tasks handling an interaction right now (see track_interaction).
        self.in_flight: set[asyncio.Task[object]] = set()
        self._closed = False

    async def setup_hook(self) -> None:
        """Load games, the AI workers and the cogs, then sync the commands."""
        await self.ai.start()
        if self.settings.loop_monitor:
            self.spawn(watch_loop_lag(), "loop-monitor")
        self.settled_at_start = await self.hub.load()
        # The first board of each size builds the renderer's palette and backgrounds (a few
        # hundred ms): do it now, off the loop, rather than inside someone's first move.
        await asyncio.to_thread(warm_renderer)
        for name in COGS:
            await self.load_extension(name)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        # Each cog declares plain commands; gather them under the single /tafl group.
        for cog in self.cogs.values():
            for command in cog.__cog_app_commands__:
                self.tree.remove_command(command.name)
                self.tafl.add_command(command)
        self.tree.add_command(self.tafl)
        guild_id = self.settings.test_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
            log.info("commands synced to the test server %d", guild_id)
        else:
            await self.tree.sync()
            log.info("commands synced globally")

    def spawn(self, coroutine: object, name: str) -> None:
        """Run a coroutine in the background, keeping a reference and logging its failure."""
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)  # type: ignore[arg-type]
        task.set_name(name)
        self.background.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self.background.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                error = finished.exception()
                log.error("%s failed", name, exc_info=error)

        task.add_done_callback(done)

    def track_interaction(self) -> None:
        """Note that the current task is handling an interaction (a command or a click)."""
        task = asyncio.current_task()
        if task is not None and task not in self.in_flight:
            self.in_flight.add(task)
            task.add_done_callback(self.in_flight.discard)

    async def close(self) -> None:
        """Let interactions being handled finish (their replies need the HTTP session), stop
        background work, then close the connection and the session."""
        await self._finish_in_flight()
        await self._cancel_background()
        await super().close()

    async def _finish_in_flight(self) -> None:
        current = asyncio.current_task()
        pending = {task for task in self.in_flight if task is not current and not task.done()}
        if not pending:
            return
        log.info("letting %d interaction(s) finish before stopping", len(pending))
        _, late = await asyncio.wait(pending, timeout=INTERACTION_GRACE_SECONDS)
        for task in late:
            task.cancel()
        if late:
            log.warning("cancelled %d interaction(s) still running at shutdown", len(late))
            await asyncio.gather(*late, return_exceptions=True)

    async def _cancel_background(self) -> None:
        for task in list(self.background):
            task.cancel()
        await asyncio.gather(*self.background, return_exceptions=True)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Slash-command errors become short private replies (see :func:`errors.report`)."""
        name = interaction.command.qualified_name if interaction.command else "a command"
        await report(interaction, error, f"/{name}")

    async def shutdown(self) -> None:
        """Stop background work and release the AI workers and the database."""
        if self._closed:
            return
        self._closed = True
        await self._cancel_background()
        await self.ai.close()
        await self.storage.close()
