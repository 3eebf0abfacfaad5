"""Games across servers on Discord: the lobby service's (:mod:`.app.lobby`) decisions shown in
both venues.

A pair from the lobby becomes one game played in two servers. The process that made the pair
(any process: the one that answered the second seek, or the lobby's timer) opens a thread for
the game in each seeker's channel (Discord's REST API takes any channel from any process) when
the service asks it to (:class:`DiscordVenues`), and posts the first board in both venues.

From then on every process that changes the game posts the new board in both venues, and
signals the change through the database: a process serving the other venue catches up at once,
so that its player's next move, menu or button meets the position they see. A restart loses
nothing: a venue whose board lags behind the game (its process stopped between the move and the
board) is redrawn by the timer of the process that serves it.

Every word is composed in :mod:`.compose.lobby` and sent by the table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Protocol

import discord

from bot.storage import GameRecord, Venue

from ..i18n.language import ENGLISH_LANGUAGE, Language
from .app.games import LiveGame
from .app.lobby import (
    AcrossStarted,
    Adjourned,
    LobbyService,
    Opened,
    Opening,
    Pairing,
    Redraw,
    VenueRequest,
)
from .compose import lobby as words
from .compose.board import game_thread_name
from .table import Table, start_thread, venue_lost

log = logging.getLogger(__name__)


class ShowBoard(Protocol):
    """Post a game's board with these words above it (the games' cog)."""

    async def __call__(
        self,
        live: LiveGame,
        lines: Sequence[str],
        *,
        interaction: discord.Interaction | None = None,
        flip: bool = False,
        ping: bool = True,
        only: str | None = None,
    ) -> None: ...


class Spawn(Protocol):
    """Run a coroutine in the background (the client's, which keeps and logs its tasks)."""

    def __call__(
        self, coroutine: Coroutine[object, None, None], name: str
    ) -> asyncio.Task[None]: ...


class DiscordVenues:
    """The lobby's :class:`~.app.lobby.VenueOpener` on Discord (``client``): servers' names,
    threads opened, channels still there."""

    def __init__(
        self,
        client: discord.Client,
        language: Callable[[int], Awaitable[Language]] | None = None,
    ) -> None:
        """``language``: a server's channels' language (the table's), for the threads'
        names; English without it."""
        self.client = client
        self._language = language

    async def guild_name(self, guild_id: int) -> str | None:
        """A server's name, from the cache or the API; ``None`` if it cannot be read."""
        guild = self.client.get_guild(guild_id)
        if guild is not None and guild.name:
            return guild.name
        try:
            return (await self.client.fetch_guild(guild_id)).name
        except discord.HTTPException as error:
            log.warning("cannot read server %d: %s", guild_id, error)
            return None

    async def open_thread(self, request: VenueRequest) -> Opened:
        """A public thread named after the players and the variant in the request's channel,
        or what Discord said instead."""
        language = self._language
        lang = ENGLISH_LANGUAGE if language is None else await language(request.guild_id)
        name = game_thread_name(request.player, request.opponent, request.variant, lang=lang)
        reason = words.thread_reason(lang=lang)
        try:
            thread_id = await start_thread(self.client, request.channel_id, name, reason)
        except discord.Forbidden as error:
            return Opened(Opening.GONE if venue_lost(error) else Opening.NO_PERMISSION)
        except discord.HTTPException as error:
            # A thread cannot hold a thread (the seek came from inside one), or the channel is
            # gone.
            if error.status == 400:
                return Opened(Opening.IN_THREAD)
            log.warning("cannot open a venue in channel %d: %s", request.channel_id, error)
            return Opened(Opening.GONE)
        return Opened(Opening.OPENED, thread_id)

    async def reachable(self, venue: Venue) -> bool:
        """Whether the bot can still reach a venue's channel (asked of Discord; an answer
        other than "unknown" or "no access" counts as yes, so a hiccup adjourns nothing)."""
        try:
            await self.client.http.get_channel(venue.channel_id)
        except (discord.NotFound, discord.Forbidden) as error:
            return not venue_lost(error)
        except discord.HTTPException:
            return True
        return True


class LobbyDesk:
    """Games across servers: their boards and news posted in both venues, through the
    ``table``; boards by ``show`` (the games' cog)."""

    def __init__(self, lobby: LobbyService, table: Table, *, show: ShowBoard, spawn: Spawn) -> None:
        self.lobby = lobby
        self.table = table
        self._show = show
        self._spawn = spawn

    # ------------------------------------------------------------------ starting

    async def start(self, pairing: Pairing) -> LiveGame | None:
        """Start the game of a pair from the lobby and post its first board in both venues;
        ``None`` when a venue could not be had."""
        started = await self.lobby.start(pairing)
        if started is None:
            return None
        languages = {
            venue.guild_id: await self.table.channel_language(venue.guild_id)
            for venue in started.noted
        }
        await self.table.deliver(None, words.notes(started, languages))
        await self._show_start(started, lambda lang: words.opening_line(started.live, lang=lang))
        return started.live

    async def _show_start(self, started: AcrossStarted, line: Callable[[Language], str]) -> None:
        await self.show_each(started.live, line)
        called = started.call
        if called is not None:
            lang = await self.table.channel_language(called.venue.guild_id)
            await self.table.deliver(None, words.call(started, lang=lang))
        await self.lobby.changed(started.live.id)

    async def show_each(self, live: LiveGame, line: Callable[[Language], str]) -> None:
        """The game's board in both venues, with ``line`` above it in each venue's server's
        language (one board for both when they read the same language)."""
        shown = [venue for venue in live.venues if venue.gone_at is None]
        languages = [await self.table.channel_language(venue.guild_id) for venue in shown]
        if len({lang.locale for lang in languages}) <= 1:
            await self._show(live, [line(languages[0] if languages else ENGLISH_LANGUAGE)])
            return
        mover = live.game.turn.value
        for venue, lang in zip(shown, languages, strict=True):
            # The player to move is notified once, where they play.
            await self._show(live, [line(lang)], only=venue.side, ping=venue.side == mover)
        await self.lobby.changed(live.id)  # what one board for both would have signalled

    # ------------------------------------------------------------------ rematches

    async def ask_rematch(
        self, interaction: discord.Interaction, old: GameRecord, venues: tuple[Venue, ...]
    ) -> None:
        """The Rematch button under a game across servers: the question goes to the other
        player, in their own venue; the asker is told where it went."""
        asked = await self.lobby.ask_rematch(old, venues, interaction.user.id)
        lang = await self.table.interaction_language(interaction)
        theirs = await self.table.channel_language(asked.opponent_venue.guild_id)
        await self.table.deliver(
            interaction,
            words.rematch_asked(asked, interaction.user.mention, lang=lang, theirs_lang=theirs),
        )

    async def rematch(self, old: GameRecord, venues: tuple[Venue, ...]) -> LiveGame:
        """Start the rematch of a game across servers in the same two venues."""
        started = await self.lobby.rematch(old, venues)
        await self._show_start(started, lambda lang: words.rematch_line(started, lang=lang))
        return started.live

    # ------------------------------------------------------------------ venues deleted

    async def check_guild(self, guild_id: int) -> None:
        """After a channel or thread of a server was deleted, or the bot left it: adjourn each
        game whose venue there is gone."""
        for adjourned in await self.lobby.check_guild(guild_id):
            await self._show_adjourned(adjourned)

    async def check_venue(self, live: LiveGame, venue: Venue) -> None:
        """A venue's channel could not be found: adjourn the game if it is really gone."""
        await self._show_adjourned(await self.lobby.check_venue(live, venue))

    async def venue_gone(self, live: LiveGame, venue: Venue) -> None:
        """Adjourn a game whose venue was deleted (see :meth:`LobbyService.venue_gone`)."""
        await self._show_adjourned(await self.lobby.venue_gone(live, venue))

    async def _show_adjourned(self, adjourned: Adjourned | None) -> None:
        """The other player is told in their venue, the absent one by direct message."""
        if adjourned is None:
            return
        other = adjourned.other
        lang = await self.table.channel_language(None if other is None else other.guild_id)
        absent = adjourned.absent.user_id
        absent_lang = lang if absent is None else await self.table.player_language(absent)
        await self.table.deliver(
            None, words.adjourned(adjourned, lang=lang, absent_lang=absent_lang)
        )

    async def resume(
        self, interaction: discord.Interaction, record: GameRecord, venue: Venue
    ) -> None:
        """``/tafl board`` by a player whose venue was deleted, in a channel without a game:
        the game continues here (in a thread of this channel where the bot may open one)."""
        guild = interaction.guild
        await self.lobby.may_resume(record, None if guild is None else guild.id)
        assert guild is not None
        await self.table.thinking(interaction, private=True)
        resumed = await self.lobby.resume(
            record,
            venue,
            guild.id,
            guild.name,
            interaction.channel_id or 0,
            in_thread=isinstance(interaction.channel, discord.Thread),
        )
        await self.show_each(resumed.live, lambda lang: words.resumed_line(resumed, lang=lang))
        reader = self.table.reader(interaction)
        await self.table.deliver(interaction, words.resumed(resumed, lang=reader))

    # ------------------------------------------------------------------ keeping in step

    async def changed(self, game_id: int) -> None:
        """Tell the other processes that a game across servers changed."""
        await self.lobby.changed(game_id)

    def heard(self, payload: str | None) -> None:
        """A signal from another process: catch up with the games it names."""
        for game_id in self.lobby.to_catch_up(payload):
            self._spawn(self.lobby.catch_up(game_id), f"catch-up-{game_id}")

    async def redraw_lagging(self) -> None:
        """Post the board again in every venue (served here) left behind (a timer calls this)."""
        for lagging in await self.lobby.lagging():
            if isinstance(lagging, Redraw):
                lang = await self.table.channel_language(lagging.venue.guild_id)
                caught_up = lang.gettext(words.CAUGHT_UP)
                await self._show(lagging.live, [caught_up], only=lagging.venue.side, ping=False)
                continue
            lang = await self.table.channel_language(lagging.venue.guild_id)
            ended = words.end_again(lagging.record, lagging.venue, lang=lang)
            await self.table.deliver(None, ended)
            await self.lobby.end_shown(lagging.record, lagging.venue)
