"""Tournaments' side of Discord that the tournament service (:mod:`.app.tournaments`) asks for
while it runs an event: its games' threads opened, whether a member left the server, and the
clock's tick. What happens is told to the handler the tournaments' cog gives
(:meth:`TournamentDesk.serve`), which composes it and has the table send it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.storage import DatabaseUnavailable, Participant

from ..i18n.language import ENGLISH_LANGUAGE, Language
from .app.tournaments import News, StoredPairing, Tournament, TournamentService
from .compose.board import plain_name
from .compose.tournaments import thread_name, thread_reason
from .table import start_thread

log = logging.getLogger(__name__)

Show = Callable[[News], Awaitable[None]]
"""What tells a server what happened in its events (the tournaments' cog)."""


class TournamentDesk:
    """The tournaments' :class:`~.app.tournaments.TournamentStage` on Discord (``client``):
    opens their games' threads and asks whether members left; what happens goes to the
    handler given to :meth:`serve`."""

    def __init__(
        self,
        client: discord.Client,
        language: Callable[[int], Awaitable[Language]] | None = None,
    ) -> None:
        """``language``: a server's channels' language (the table's), for the threads'
        names; English without it."""
        self.client = client
        self._language = language
        self._served: tuple[TournamentService, Show] | None = None

    def serve(self, events: TournamentService, show: Show) -> None:
        """Run the clock of ``events`` and tell what happens with ``show`` (the service is
        built with this desk, and the cog that shows its news after it)."""
        self._served = (events, show)

    @property
    def served(self) -> tuple[TournamentService, Show]:
        """The service and the news' handler (wired by the client before anything runs)."""
        if self._served is None:
            raise RuntimeError("the tournaments' desk serves no service yet")
        return self._served

    async def tick(self) -> None:
        """Move every event of this process's servers along (the timers call this)."""
        events, _ = self.served
        for event in await events.due():
            try:
                await events.advance(event.id)
            except DatabaseUnavailable:
                raise  # the clocks wait for the database
            except discord.HTTPException as error:
                log.warning("tournament %d: %s", event.id, error)
            except Exception:
                # One broken event must not hold up the others: logged, tried again next tick.
                log.exception("tournament %d could not move on", event.id)

    async def open_thread(
        self,
        event: Tournament,
        pairing: StoredPairing,
        attackers: Participant,
        defenders: Participant,
    ) -> int | None:
        """A thread for a pairing's game in the event's channel; ``None`` when the bot may not
        open threads there."""
        lang = (
            ENGLISH_LANGUAGE
            if self._language is None
            else await self._language(event.spec.guild_id)
        )
        name = thread_name(
            event, pairing.round, plain_name(attackers), plain_name(defenders), lang=lang
        )
        try:
            return await start_thread(
                self.client, event.spec.channel_id, name, thread_reason(event, lang=lang)
            )
        except discord.Forbidden:
            return None

    async def member_left(self, guild_id: int, user_id: int) -> bool:
        """Whether Discord says a member has left the server (unsure: no)."""
        try:
            await self.client.http.get_member(guild_id, user_id)
        except discord.NotFound:
            return True
        except discord.HTTPException:
            return False  # unsure: paired as before
        return False

    async def show(self, news: News) -> None:
        """Tell the server what happened."""
        _, show = self.served
        await show(news)
