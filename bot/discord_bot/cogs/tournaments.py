"""/tafl-tournament: events inside a server (Swiss, round robin, arena), run by the bot from
sign-up to prize-giving, and the organiser's tools."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import Participant

from ..app.errors import Refused
from ..app.games import Ended, LiveGame
from ..app.tournaments import (
    ANY_STATUS,
    UNDER_WAY,
    CalledOff,
    GameBegun,
    GameLostOnTime,
    LeaveAsked,
    News,
    ServerOnly,
    StandingsDue,
    Status,
    Tournament,
    TournamentService,
)
from ..choices import VARIANT_CHOICES
from ..compose import tournaments as words
from ..compose.inputs import input_words
from ..compose.tournaments import ConfirmLeave, EventButton
from ..table import Table, participant_of

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss (a number of rounds)", value="swiss"),
    app_commands.Choice(name="Round robin (everyone plays everyone)", value="round_robin"),
    app_commands.Choice(name="Arena (re-paired as soon as a game ends)", value="arena"),
]


def roles_of(interaction: discord.Interaction) -> tuple[bool, list[int]]:
    """Whether the member may manage the server, and their roles' ids."""
    permissions = getattr(interaction, "permissions", None)
    manager = permissions is not None and permissions.manage_guild
    return manager, [role.id for role in getattr(interaction.user, "roles", ())]


Show = Callable[[LiveGame, Sequence[str]], Awaitable[None]]
"""Post a game's board with these words above it (the games' cog)."""
AnnounceEnd = Callable[[Ended], Awaitable[None]]
"""Announce how a game ended (the games' cog)."""
CalledOffBoard = Callable[[Ended, str], Awaitable[None]]
"""Post the final board of a game called off, with these words (the games' cog)."""


class Tournaments(commands.Cog):
    """Tournaments inside a server, under a top-level command of their own: with every
    translation in, /tafl and the tournaments' commands would not fit in one of Discord's
    8,000 characters (see :func:`~bot.discord_bot.translator.oversized`)."""

    top_level = True
    """Its commands stand beside /tafl rather than under it (the client reads this)."""

    group = app_commands.Group(
        name="tafl-tournament",
        description="Tournaments in this server: Swiss, round robin, arena",
        guild_only=True,  # a top-level command: Discord does not offer it in direct messages
    )

    def __init__(
        self,
        events: TournamentService,
        table: Table,
        *,
        show: Show,
        announce_end: AnnounceEnd,
        called_off: CalledOffBoard,
    ) -> None:
        self.events = events
        self.table = table
        self._show = show
        self._announce_end = announce_end
        self._called_off = called_off
        table.on(EventButton, self.on_button)
        table.on(ConfirmLeave, self.on_leave_confirmed)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Tournaments belong to a server: not in direct messages."""
        if interaction.guild_id is None:
            raise Refused(ServerOnly())
        return True

    # ------------------------------------------------------------------ news

    async def show(self, news: News) -> None:
        """Tell the server what happened in one of its events (see :class:`News`)."""
        if isinstance(news, GameLostOnTime):
            await self._announce_end(news.ended)
            return
        event = news.standings.event if isinstance(news, StandingsDue) else news.event
        lang = await self.table.channel_language(event.spec.guild_id)
        if isinstance(news, GameBegun):
            await self._show(news.live, [words.game_begun(news, lang=lang)])
        elif isinstance(news, CalledOff):
            # The game's final board (like any ended game's: no ping, no clock, no buttons)
            # says why it was called off.
            text = words.called_off(news.event, news.ended.game.id, news.reason, lang=lang)
            await self._called_off(news.ended, text)
        else:
            await self.table.deliver(None, words.told(news, lang=lang))

    async def refresh_announcement(self, event_id: int) -> None:
        """Bring the event's announcement up to date: its status and players."""
        news = await self.events.announcement(event_id)
        lang = await self.table.channel_language(news.event.spec.guild_id)
        await self.table.deliver(None, words.announcement_changed(news, lang=lang))

    # ------------------------------------------------------------------ organiser

    @group.command(name="create", description="Announce a tournament in this channel")
    @app_commands.describe(
        name="The event's name",
        variant="Which rules",
        format="Swiss, round robin or arena",
        rounds="Swiss: how many rounds (default 5)",
        minutes="Arena: how long the event lasts, in minutes (default 60)",
        time="Time per move, like 10m, 1h, 1d (default 1d)",
        round_time="Longest a round may last, like 1d or 3d (default: none)",
        starts_in="When it starts, like 30m, 2h, 1d (default 1h)",
        matches="Each pairing plays two games with sides swapped (default: one game)",
        rated="Count the games for ratings (default yes)",
        floor="Lowest rating that may join",
        ceiling="Highest rating that may join",
        min_players="Fewest players it starts with (fewer cancel it)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 3, 60],
        variant: str = "copenhagen",
        format: str = "swiss",
        rounds: app_commands.Range[int, 1, 15] | None = None,
        minutes: app_commands.Range[int, 10, 1440] | None = None,
        time: str | None = None,
        round_time: str | None = None,
        starts_in: str | None = None,
        matches: bool = False,
        rated: bool = True,
        floor: app_commands.Range[int, 0, 3500] | None = None,
        ceiling: app_commands.Range[int, 0, 3500] | None = None,
        min_players: app_commands.Range[int, 2, 256] | None = None,
    ) -> None:
        """Store the event and post its announcement with Join and Leave buttons."""
        assert interaction.guild_id is not None
        manager, roles = roles_of(interaction)
        await self.events.check_organiser(interaction.guild_id, manager, roles, creating=True)
        event = await self.events.create(
            participant_of(interaction.user),
            interaction.guild_id,
            interaction.channel_id or 0,
            text_channel=isinstance(interaction.channel, discord.TextChannel),
            name=name,
            variant=variant,
            format=format,
            rounds=rounds,
            minutes=minutes,
            time=time,
            round_time=round_time,
            starts_in=starts_in,
            matches=matches,
            rated=rated,
            floor=floor,
            ceiling=ceiling,
            min_players=min_players,
            words=input_words(self.table.reader(interaction)),
        )
        lang = await self.table.interaction_language(interaction)
        sent = await self.table.answered(interaction, words.announcement(event, 0, lang=lang))
        if sent is not None:
            await self.events.announced(event.id, sent)

    async def _organised(
        self,
        interaction: discord.Interaction,
        event_id: int | None,
        among: Collection[Status] = UNDER_WAY,
    ) -> Tournament:
        manager, roles = roles_of(interaction)
        await self.events.check_organiser(interaction.guild_id or 0, manager, roles)
        return await self._event(interaction, event_id, among)

    async def _event(
        self,
        interaction: discord.Interaction,
        event_id: int | None,
        among: Collection[Status] = ANY_STATUS,
    ) -> Tournament:
        """The event asked for, in this server (see :meth:`TournamentService.find`)."""
        return await self.events.find(
            interaction.guild_id or 0,
            event_id,
            among,
            channel_id=interaction.channel_id,
            parent_id=getattr(interaction.channel, "parent_id", None),
        )

    @group.command(name="start", description="Start a tournament now")
    @app_commands.describe(
        event="Tournament number (this server's newest waiting to start by default)"
    )
    async def start(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Start early (before its announced time)."""
        found = await self._organised(interaction, event, frozenset(("signup",)))
        await self.events.check_start(found)
        await self.table.thinking(interaction, private=True)
        started = await self.events.start(found, by=participant_of(interaction.user))
        reader = self.table.reader(interaction)
        await self.table.deliver(interaction, words.started(found, started, lang=reader))

    @group.command(name="pause", description="Pause a tournament (no new round)")
    @app_commands.describe(event="Tournament number (this server's newest being played by default)")
    async def pause(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Games under way go on; no round is paired until it resumes."""
        found = await self._organised(interaction, event, frozenset(("running",)))
        await self.events.pause(found, participant_of(interaction.user))
        lang = await self.table.interaction_language(interaction)
        await self.table.deliver(interaction, words.paused(found, lang=lang))

    @group.command(name="resume", description="Resume a paused tournament")
    @app_commands.describe(event="Tournament number (this server's newest paused one by default)")
    async def resume(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """The event carries on where it stands."""
        found = await self._organised(interaction, event, frozenset(("paused",)))
        await self.events.resume(found, participant_of(interaction.user))
        lang = await self.table.interaction_language(interaction)
        await self.table.deliver(interaction, words.resumed(found, lang=lang))
        await self.events.advance(found.id)

    @group.command(name="cancel", description="Cancel a tournament")
    @app_commands.describe(event="Tournament number", reason="Why (shown to everyone)")
    async def cancel(
        self, interaction: discord.Interaction, event: int, reason: app_commands.Range[str, 3, 200]
    ) -> None:
        """End it without standings; its games under way are called off."""
        found = await self._organised(interaction, event)
        await self.events.cancel(found, participant_of(interaction.user), reason)
        lang = await self.table.interaction_language(interaction)
        await self.table.deliver(interaction, words.cancelled(found, reason, lang=lang))
        await self.events.stop_games(found, reason)

    @group.command(name="result", description="Set a pairing's result (forfeit, etc.)")
    @app_commands.describe(
        event="Tournament number",
        round="Round",
        board="Board",
        result="The result, first-named player's score first",
        reason="Why (kept in the event's history)",
    )
    @app_commands.choices(
        result=[
            app_commands.Choice(name="first player wins (1-0)", value="1-0"),
            app_commands.Choice(name="second player wins (0-1)", value="0-1"),
            app_commands.Choice(name="draw (½-½)", value="½-½"),
            app_commands.Choice(name="both lose (0-0)", value="0-0"),
        ]
    )
    async def result(
        self,
        interaction: discord.Interaction,
        event: int,
        round: app_commands.Range[int, 1, 100],
        board: app_commands.Range[int, 1, 512],
        result: str,
        reason: app_commands.Range[str, 3, 200],
    ) -> None:
        """Replace a pairing's result (a forfeit or an adjudication), with a reason."""
        found = await self._organised(interaction, event)
        verdict = await self.events.verdict(found, round, board, result, reason)
        await self.table.thinking(interaction)
        await self.events.set_result(verdict, participant_of(interaction.user))
        lang = await self.table.interaction_language(interaction)
        await self.table.deliver(interaction, words.result_set(verdict, lang=lang))

    @group.command(name="remove", description="Remove a player from a tournament")
    @app_commands.describe(event="Tournament number", player="Who", reason="Why")
    async def remove(
        self,
        interaction: discord.Interaction,
        event: int,
        player: discord.User,
        reason: app_commands.Range[str, 3, 200],
    ) -> None:
        """No longer paired; the games they played stand."""
        found = await self._organised(interaction, event)
        forfeited = await self.events.remove(
            found,
            Participant.user(player.id, player.display_name),
            reason,
            participant_of(interaction.user),
        )
        lang = await self.table.interaction_language(interaction)
        await self.table.deliver(
            interaction, words.removed(found, player.display_name, reason, forfeited, lang=lang)
        )
        await self.refresh_announcement(found.id)

    # ------------------------------------------------------------------ players

    @group.command(name="join", description="Join a tournament")
    @app_commands.describe(event="Tournament number (this server's newest under way by default)")
    async def join(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Sign up (or join late, where the format allows)."""
        await self._join(interaction, await self._event(interaction, event, UNDER_WAY))

    async def _join(self, interaction: discord.Interaction, event: Tournament) -> None:
        joined = await self.events.join(event, participant_of(interaction.user))
        reader = self.table.reader(interaction)
        await self.table.deliver(interaction, words.joined(event, joined, lang=reader))
        await self.refresh_announcement(event.id)

    @group.command(name="leave", description="Withdraw from a tournament")
    @app_commands.describe(event="Tournament number (this server's newest under way by default)")
    async def leave(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Withdraw: no longer paired; the games already played stand."""
        await self._leave(interaction, await self._event(interaction, event, UNDER_WAY))

    async def _leave(
        self, interaction: discord.Interaction, event: Tournament, confirmed: int | None = None
    ) -> None:
        """Withdraw the player, asking first in the middle of a game of the event (leaving
        resigns it; see :meth:`TournamentService.leave`)."""
        outcome = await self.events.leave(event, interaction.user.id, confirmed)
        reader = self.table.reader(interaction)
        if isinstance(outcome, LeaveAsked):
            # Asked again in place of the question about a game that ended meanwhile.
            again = confirmed is not None
            await self.table.deliver(
                interaction, words.leave_asked(outcome, again=again, lang=reader)
            )
            return
        await self.table.deliver(
            interaction, words.left(event, outcome, confirmed=confirmed is not None, lang=reader)
        )
        if outcome.resigned is not None:
            await self._announce_end(outcome.resigned)
        await self.refresh_announcement(event.id)

    async def on_button(self, interaction: discord.Interaction, button: EventButton) -> None:
        """Join or Leave under the announcement."""
        event = await self._event(interaction, button.event_id)
        if button.action == "join":
            await self._join(interaction, event)
        else:
            await self._leave(interaction, event)

    async def on_leave_confirmed(
        self, interaction: discord.Interaction, button: ConfirmLeave
    ) -> None:
        """Yes, leave and resign: the second click of leaving in the middle of a game."""
        await self._leave(
            interaction, await self._event(interaction, button.event_id), button.game_id
        )

    @group.command(name="list", description="This server's tournaments")
    async def list_(self, interaction: discord.Interaction) -> None:
        """Events under way and the latest ended ones."""
        events = await self.events.in_guild(interaction.guild_id or 0)
        await self.table.deliver(
            interaction, words.event_list(events, lang=self.table.reader(interaction))
        )

    @group.command(name="info", description="A tournament: its options and players")
    @app_commands.describe(event="Tournament number (this server's newest by default)")
    async def info(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Options, status, entrants and the latest of its history."""
        found = await self._event(interaction, event)
        info = await self.events.info(found)
        reader = self.table.reader(interaction)
        await self.table.deliver(interaction, words.event_info(info, lang=reader))

    @group.command(name="standings", description="A tournament's standings")
    @app_commands.describe(event="Tournament number (this server's newest by default)")
    async def standings(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """The standings, as an image and in words."""
        found = await self._event(interaction, event)
        self.events.check_begun(found)
        await self.table.thinking(interaction)
        standings = await self.events.standings(found.id)
        lang = await self.table.interaction_language(interaction)
        await self.table.deliver(interaction, words.standings_answer(standings, lang=lang))

    @group.command(name="pairings", description="A round's pairings")
    @app_commands.describe(
        event="Tournament number (this server's newest by default)",
        round="Round (the current one by default)",
    )
    async def pairings(
        self,
        interaction: discord.Interaction,
        event: int | None = None,
        round: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """Who plays whom, with each pairing's result so far and its thread."""
        found = await self._event(interaction, event)
        paired = await self.events.pairings(found, round)
        reader = self.table.reader(interaction)
        await self.table.deliver(interaction, words.pairings(paired, lang=reader))

    @group.command(name="export", description="A tournament's record: games and crosstable")
    @app_commands.describe(event="Tournament number (this server's newest by default)")
    async def export(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """One file: the crosstable, then every game in OTN."""
        found = await self._event(interaction, event)
        await self.table.thinking(interaction)
        record = await self.events.export(found)
        lang = await self.table.interaction_language(interaction)
        await self.table.deliver(interaction, words.exported(record, lang=lang))
