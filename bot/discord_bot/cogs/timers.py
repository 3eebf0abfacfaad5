"""Clocks: move reminders, forfeits on time and challenge expiry, all measured from the database
so they survive restarts (deadlines that passed while the bot was offline are settled at once)."""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.storage import DatabaseUnavailable, StorageError

from ..app.games import Played
from ..limits import CONTENT, clip
from ..present import mention, whose_challenge
from ..table import resolve_channel

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)

REMINDER_HORIZON = 3600
LOBBY_EVERY = 10.0
"""Seconds between the lobby's housekeeping rounds (each process; they take turns)."""


def reminder_due(move_seconds: int, remaining: float) -> bool:
    """Remind when a quarter of the move time (at most an hour) is left."""
    return remaining <= max(5, min(move_seconds // 4, REMINDER_HORIZON))


class Timers(commands.Cog):
    """The background clock: a ``discord.ext.tasks`` loop that ticks every
    ``TAFL_TIMER_TICK`` seconds (deadlines are settled to within one tick)."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self.outage: str | None = None
        """Why the database is out of reach, while it is (the clocks wait for it)."""
        self._lobby_due = 0.0

    async def cog_load(self) -> None:
        self.clock.change_interval(seconds=self.bot.settings.timer_tick)
        self.clock.start()

    async def cog_unload(self) -> None:
        self.clock.cancel()

    @tasks.loop(seconds=5.0)
    async def clock(self) -> None:
        """One tick; a failed tick is logged and the next one tries again (see :meth:`tick`)."""
        await self.tick()

    @clock.before_loop
    async def before_first_tick(self) -> None:
        await self.bot.wait_until_ready()
        await self.announce_settled_at_start()

    @clock.error
    async def clock_stopped(self, error: BaseException) -> None:
        log.error("the clock stopped", exc_info=error)

    async def announce_settled_at_start(self) -> None:
        """Games whose last move ended them while the bot was down get their final board."""
        await self.announce_settled(self.bot.settled_at_start)
        self.bot.settled_at_start = []

    async def announce_settled(self, settled: list[Played]) -> None:
        """Post the final board of each game; one that cannot be posted does not stop the rest."""
        for played in settled:
            try:
                await self.bot.table.announce(played)
            except Exception:
                log.exception("could not announce the end of game %d", played.live.id)

    async def settle_games(self) -> None:
        """Record the results that could not be stored when their winning move was played."""
        await self.announce_settled(await self.bot.hub.settle())

    async def tick(self) -> None:
        """Forfeit games out of time, remind players near their deadline, expire challenges,
        keep the lobby (expiry, pairs as reaches widen) and redraw venues left behind.

        Each stage runs even if another failed: one surprise must never stop every clock. While
        the database is out of reach the tick ends at once (the deadlines wait for it).
        """
        stages = (
            self.settle_games,
            self.settle_deadlines,
            self.send_reminders,
            self.expire_challenges,
            self.run_lobby,
            self.redraw_lagging,
            self.run_tournaments,
        )
        for stage in stages:
            try:
                await stage()
            except DatabaseUnavailable as error:
                # The storage logs the outage once; nothing can be settled meanwhile, and
                # nothing is lost by waiting.
                if self.outage is None:
                    log.info("the clocks wait for the database")
                else:
                    log.debug("the clocks still wait for the database")
                self.outage = str(error)
                return
            except (StorageError, discord.HTTPException) as error:
                log.error("%s failed: %s", stage.__name__, error)
            except Exception:
                log.exception("%s failed unexpectedly", stage.__name__)
        if self.outage is not None:
            log.info("the clocks carry on")
            self.outage = None

    async def settle_deadlines(self) -> None:
        """Games whose player to move ran out of time are lost on time."""
        storage = self.bot.storage
        for record in await storage.games.past_deadline():
            live = self.bot.hub.by_id(record.id)
            if live is None:
                continue
            ended = await self.bot.hub.forfeit_on_time(live, record.ply)
            if ended is not None:
                await self.bot.table.announce_end(ended)

    async def send_reminders(self) -> None:
        """Ping players when a quarter of their move time (at most an hour) is left."""
        storage = self.bot.storage
        now = datetime.now(UTC)
        for record in await storage.games.due_for_reminder(REMINDER_HORIZON):
            if record.move_deadline is None or record.move_seconds is None:
                continue
            remaining = (record.move_deadline - now).total_seconds()
            if not reminder_due(record.move_seconds, remaining):
                continue
            live = self.bot.hub.by_id(record.id)
            if live is None:
                continue
            await self.bot.hub.catch_up(live)
            if live.to_move.is_ai or live.game.ply != record.ply:
                continue
            if not await storage.games.mark_reminder_sent(record.id, record.ply):
                continue
            # Where the player to move plays (a game across servers: their own venue).
            venue = live.venue(live.game.turn)
            channel_id = record.channel_id if venue is None else venue.channel_id
            channel = await resolve_channel(
                self.bot, channel_id, None if venue is None else venue.guild_id
            )
            deadline = int(record.move_deadline.timestamp())
            if channel is not None:
                await channel.send(
                    f"⏰ {mention(live.to_move)}, your move in game #{record.id}: time runs out "
                    f"<t:{deadline}:R>."
                )
            await self.bot.table.notify(
                live, f"⏰ Your time is running low in game #{record.id}", channel_id
            )

    async def run_lobby(self) -> None:
        """Every :data:`LOBBY_EVERY` seconds: the lobby's housekeeping (expired seeks, pairs
        made as reaches widen, pairs whose game never came), and the games of its new pairs."""
        now = time.monotonic()
        if now < self._lobby_due:
            return
        self._lobby_due = now + LOBBY_EVERY
        await self.bot.lobby_desk.housekeeping()

    async def run_tournaments(self) -> None:
        """Tournaments move on: starts, results, next rounds, deadlines, final standings."""
        await self.bot.tournament_desk.tick()

    async def redraw_lagging(self) -> None:
        """Venues of games across servers whose board lags behind are shown the board again."""
        await self.bot.lobby_desk.redraw_lagging()

    async def expire_challenges(self) -> None:
        """Pending challenges past their expiry are closed and their buttons taken off."""
        storage = self.bot.storage
        for challenge in await storage.challenges.expire_due():
            if challenge.message_id is None:
                continue
            channel = await resolve_channel(self.bot, challenge.channel_id)
            if channel is None or not hasattr(channel, "get_partial_message"):
                continue
            text = (
                f"{whose_challenge(challenge)} expired unanswered. "
                "Ask again with `/tafl challenge`."
            )
            try:
                # As an accepted, declined or cancelled challenge: no buttons left.
                await channel.get_partial_message(challenge.message_id).edit(
                    content=clip(text, CONTENT), view=None
                )
            except discord.HTTPException as error:
                log.info("could not mark challenge %d expired: %s", challenge.id, error)
