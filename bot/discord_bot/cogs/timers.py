"""The background clock: each tick posts what :mod:`..app.clocks` says is due (forfeits on
time, reminders, expired challenges, the lobby's new pairs) and lets the tournaments move on."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord
from discord.ext import commands, tasks

from bot.storage import DatabaseUnavailable, StorageError

from ..app.clocks import Clocks
from ..app.games import Ended, LiveGame, Played
from ..app.lobby import Pairing
from ..compose import challenges
from ..table import Table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Announcers:
    """How the clock's news is shown, and the other features' housekeeping it runs: narrow
    callables of the playing cog, the lobby and the tournaments."""

    announce: Callable[[Played], Awaitable[None]]
    """A game's board after a move (the final one of a game settled by the clock)."""
    announce_end: Callable[[Ended], Awaitable[None]]
    """A game's final board once it was lost on time."""
    remind: Callable[[LiveGame, int, int], Awaitable[None]]
    """A reminder to the player to move (the game, its channel, the deadline's timestamp)."""
    settle: Callable[[], Awaitable[list[Played]]]
    """Record the results that could not be stored when their winning move was played."""
    start_pairing: Callable[[Pairing], Awaitable[object]]
    """Start the game of a pair the lobby made."""
    redraw_lagging: Callable[[], Awaitable[None]]
    """Show the board again in the venues of games across servers that lag behind."""
    tournaments_tick: Callable[[], Awaitable[None]]
    """Let the tournaments move on."""


class Timers(commands.Cog):
    """The background clock: a ``discord.ext.tasks`` loop that ticks every
    ``TAFL_TIMER_TICK`` seconds (deadlines are settled to within one tick)."""

    def __init__(
        self,
        clocks: Clocks,
        table: Table,
        announcers: Announcers,
        *,
        tick_seconds: float,
        ready: Callable[[], Awaitable[None]],
        settled_at_start: list[Played],
    ) -> None:
        """``ready`` waits until the bot is connected; ``settled_at_start``: the games whose
        last move ended them while the bot was down (their final boards are posted first)."""
        self.clocks = clocks
        self.table = table
        self.announcers = announcers
        self.tick_seconds = tick_seconds
        self._ready = ready
        self._settled_at_start = list(settled_at_start)
        self.outage: str | None = None
        """Why the database is out of reach, while it is (the clocks wait for it)."""

    async def cog_load(self) -> None:
        self.clock.change_interval(seconds=self.tick_seconds)
        self.clock.start()

    async def cog_unload(self) -> None:
        self.clock.cancel()

    @tasks.loop(seconds=5.0)
    async def clock(self) -> None:
        """One tick; a failed tick is logged and the next one tries again (see :meth:`tick`)."""
        await self.tick()

    @clock.before_loop
    async def before_first_tick(self) -> None:
        await self._ready()
        await self.announce_settled_at_start()

    @clock.error
    async def clock_stopped(self, error: BaseException) -> None:
        log.error("the clock stopped", exc_info=error)

    async def announce_settled_at_start(self) -> None:
        """Games whose last move ended them while the bot was down get their final board."""
        settled, self._settled_at_start = self._settled_at_start, []
        await self.announce_settled(settled)

    async def announce_settled(self, settled: list[Played]) -> None:
        """Post the final board of each game; one that cannot be posted does not stop the rest."""
        for played in settled:
            try:
                await self.announcers.announce(played)
            except Exception:
                log.exception("could not announce the end of game %d", played.game.id)

    async def settle_games(self) -> None:
        """Record the results that could not be stored when their winning move was played."""
        await self.announce_settled(await self.announcers.settle())

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
        async for ended in self.clocks.forfeits():
            await self.announcers.announce_end(ended)

    async def send_reminders(self) -> None:
        """Ping players when a quarter of their move time (at most an hour) is left."""
        async for reminder in self.clocks.reminders():
            deadline = int(reminder.deadline.timestamp())
            await self.announcers.remind(reminder.live, reminder.channel_id, deadline)

    async def run_lobby(self) -> None:
        """The lobby's housekeeping, when due, and the games of its new pairs."""
        for pairing in await self.clocks.lobby_pairs():
            await self.announcers.start_pairing(pairing)

    async def run_tournaments(self) -> None:
        """Tournaments move on: starts, results, next rounds, deadlines, final standings."""
        await self.announcers.tournaments_tick()

    async def redraw_lagging(self) -> None:
        """Venues of games across servers whose board lags behind are shown the board again."""
        await self.announcers.redraw_lagging()

    async def expire_challenges(self) -> None:
        """Pending challenges past their expiry are closed and their buttons taken off."""
        for challenge in await self.clocks.expired_challenges():
            # As an accepted, declined or cancelled challenge: no buttons left.
            lang = await self.table.channel_language(challenge.guild_id)
            await self.table.deliver(None, challenges.expired(challenge, lang=lang))
