"""/tafl tournament: events inside a server (Swiss, round robin, arena), run by the bot from
sign-up to prize-giving, and the organiser's tools."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import Participant

from ..app.errors import UserError
from ..app.tournaments import (
    ANY_STATUS,
    STATUS_WORDS,
    UNDER_WAY,
    LeaveAsked,
    Status,
    Tournament,
)
from ..app.wording import plain_name
from ..choices import VARIANT_CHOICES
from ..limits import CONTENT, clip, fit_embed
from ..people import participant_of
from ..tournament_desk import (
    announcement_embed,
    describe_event,
    export_file,
    points_text,
    result_text,
)
from ..views import LeaveButton, TournamentButton, confirm_leave_view, tournament_view

if TYPE_CHECKING:
    from ..client import TaflBot

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


class Tournaments(commands.Cog):
    """Tournaments inside a server."""

    group = app_commands.Group(
        name="tournament", description="Tournaments in this server: Swiss, round robin, arena"
    )

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self.events = bot.tournaments
        self.desk = bot.tournament_desk
        bot.clicks.register(TournamentButton, self.on_button)
        bot.clicks.register(LeaveButton, self.on_leave_confirmed)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Tournaments belong to a server: not in direct messages."""
        if interaction.guild_id is None:
            raise UserError("Tournaments are run inside a server: use this in a server channel.")
        return True

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
        await self.events.check_organiser(
            interaction.guild_id, manager, roles, "create tournaments"
        )
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
        )
        sent = await interaction.response.send_message(
            embed=announcement_embed(event, 0), view=tournament_view(event.id)
        )
        if sent.message_id is not None:
            await self.events.announced(event.id, sent.message_id)

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
        await interaction.response.defer(ephemeral=True, thinking=True)
        started = await self.events.start(found, by=participant_of(interaction.user))
        words = {
            "begun": f"**{found.name}** has begun: round 1 is paired.",
            "already begun": f"**{found.name}** has already begun.",
            "cancelled": started.detail,
        }[started.outcome]
        await interaction.followup.send(words, ephemeral=True)

    @group.command(name="pause", description="Pause a tournament (no new round)")
    @app_commands.describe(event="Tournament number (this server's newest being played by default)")
    async def pause(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Games under way go on; no round is paired until it resumes."""
        found = await self._organised(interaction, event, frozenset(("running",)))
        await self.events.pause(found, participant_of(interaction.user))
        await interaction.response.send_message(
            f"**{found.name}** is paused: games under way go on; no new round is paired until "
            "`/tafl tournament resume`."
        )

    @group.command(name="resume", description="Resume a paused tournament")
    @app_commands.describe(event="Tournament number (this server's newest paused one by default)")
    async def resume(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """The event carries on where it stands."""
        found = await self._organised(interaction, event, frozenset(("paused",)))
        await self.events.resume(found, participant_of(interaction.user))
        await interaction.response.send_message(f"**{found.name}** goes on.")
        await self.events.advance(found.id)

    @group.command(name="cancel", description="Cancel a tournament")
    @app_commands.describe(event="Tournament number", reason="Why (shown to everyone)")
    async def cancel(
        self, interaction: discord.Interaction, event: int, reason: app_commands.Range[str, 3, 200]
    ) -> None:
        """End it without standings; its games under way are called off."""
        found = await self._organised(interaction, event)
        await self.events.cancel(found, participant_of(interaction.user), reason)
        await interaction.response.send_message(f"**{found.name}** is cancelled: {reason}")
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
        await interaction.response.defer(thinking=True)
        await self.events.set_result(verdict, participant_of(interaction.user))
        words = result_text(verdict.pairing, verdict.first, verdict.second, verdict.detail)
        await interaction.followup.send(
            f"**{found.name}**, round {round}, board {board}: {words}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

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
        tail = " Their game under way is lost by forfeit." if forfeited else ""
        await interaction.response.send_message(
            f"{player.display_name} is removed from **{found.name}** ({reason}); the games "
            f"they finished stand.{tail}",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.desk.refresh_announcement(found.id)

    # ------------------------------------------------------------------ players

    @group.command(name="join", description="Join a tournament")
    @app_commands.describe(event="Tournament number (this server's newest under way by default)")
    async def join(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Sign up (or join late, where the format allows)."""
        await self._join(interaction, await self._event(interaction, event, UNDER_WAY))

    async def _join(self, interaction: discord.Interaction, event: Tournament) -> None:
        joined = await self.events.join(event, participant_of(interaction.user))
        late = ""
        if joined.from_round is not None:
            late = (
                f" You join in round {joined.from_round}; the rounds you missed count as "
                "zero-point byes."
            )
        await interaction.response.send_message(
            f"You are in **{event.name}** (#{event.id}).{late} `/tafl tournament leave` "
            "withdraws you.",
            ephemeral=True,
        )
        await self.desk.refresh_announcement(event.id)

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
        if isinstance(outcome, LeaveAsked):
            live, opponent = outcome.live, plain_name(outcome.opponent)
            question = (
                f"Leaving now resigns your game against {opponent} in round "
                f"{outcome.pairing.round} of **{event.name}** (game #{live.id}): {opponent} wins "
                "it. You will not be paired again; the games you finished stand. Leave?"
            )
            view = confirm_leave_view(event.id, live.id)
            if confirmed is None:
                await interaction.response.send_message(question, view=view, ephemeral=True)
            else:  # the game asked about ended, and another began meanwhile: ask again
                await interaction.response.edit_message(content=question, view=view)
            return
        words = (
            f"You are out of **{event.name}**; join again any time before it starts."
            if event.status == "signup"
            else f"You have withdrawn from **{event.name}**: you will not be paired again; the "
            "games you finished stand."
        )
        ended = outcome.resigned
        if ended is not None:
            words += f" Your game #{ended.game.id} is resigned."
        if confirmed is None:
            await interaction.response.send_message(words, ephemeral=True)
        else:
            await interaction.response.edit_message(content=words, view=None)
        if ended is not None:
            await self.bot.play.announce_end(ended)
        await self.desk.refresh_announcement(event.id)

    async def on_button(self, interaction: discord.Interaction, button: TournamentButton) -> None:
        """Join or Leave under the announcement."""
        event = await self._event(interaction, button.event_id)
        if button.action == "join":
            await self._join(interaction, event)
        else:
            await self._leave(interaction, event)

    async def on_leave_confirmed(
        self, interaction: discord.Interaction, button: LeaveButton
    ) -> None:
        """Yes, leave and resign: the second click of leaving in the middle of a game."""
        await self._leave(
            interaction, await self._event(interaction, button.event_id), button.game_id
        )

    @group.command(name="list", description="This server's tournaments")
    async def list_(self, interaction: discord.Interaction) -> None:
        """Events under way and the latest ended ones."""
        events = await self.events.in_guild(interaction.guild_id or 0)
        lines = [
            f"#{e.id} **{e.name}**: {describe_event(e)} · {STATUS_WORDS[e.status]}"
            + (f", round {e.round}" if e.status in ("running", "paused") and e.round else "")
            for e in events[:15]
        ]
        await interaction.response.send_message(clip("\n".join(lines), CONTENT), ephemeral=True)

    @group.command(name="info", description="A tournament: its options and players")
    @app_commands.describe(event="Tournament number (this server's newest by default)")
    async def info(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Options, status, entrants and the latest of its history."""
        found = await self._event(interaction, event)
        info = await self.events.info(found)
        embed = discord.Embed(
            title=f"🏆 {found.name} (#{found.id})", description=describe_event(found)
        )
        embed.add_field(
            name="Status",
            value=STATUS_WORDS[found.status] + (f", round {found.round}" if found.round else ""),
        )
        if found.status == "signup":
            embed.add_field(name="Starts", value=f"<t:{found.spec.starts_at}:f>")
        elif info.began is not None:
            embed.add_field(name="Started", value=f"<t:{info.began}:f>")
        names = [
            plain_name(e.player) + (f" ({e.left_reason})" if e.left_reason else "")
            for e in info.entrants
        ]
        embed.add_field(
            name=f"Players ({sum(1 for e in info.entrants if e.active)})",
            value=clip(", ".join(names) or "nobody yet", 1000),
            inline=False,
        )
        embed.add_field(
            name="History",
            value=clip(
                "\n".join(
                    f"<t:{h.at}:t> {h.action}{': ' + h.detail if h.detail else ''}"
                    + (f" ({plain_name(h.actor)})" if h.actor else "")
                    for h in info.history[-8:]
                ),
                1000,
            ),
            inline=False,
        )  # fmt: skip
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

    @group.command(name="standings", description="A tournament's standings")
    @app_commands.describe(event="Tournament number (this server's newest by default)")
    async def standings(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """The standings, as an image and in words."""
        found = await self._event(interaction, event)
        self.events.check_begun(found)
        await interaction.response.defer(thinking=True)
        await self.desk.post_standings(
            await self.events.standings(found.id), interaction.channel_id or 0, interaction
        )

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
        lines = [f"**{found.name}**, round {paired.round}:"]
        for shown in paired.pairings:
            p = shown.pairing
            if p.second is None:
                lines.append(f"bye: {plain_name(p.first)} ({points_text(p.first_points)})")
                continue
            score = (
                f"{points_text(p.first_points)}–{points_text(p.second_points)}"
                if p.decided
                else "playing"
            )
            where = "" if shown.channel_id is None else f" <#{shown.channel_id}>"
            lines.append(
                f"{p.board}. {plain_name(p.first)} – {plain_name(p.second)}: {score}{where}"
            )  # fmt: skip
        await interaction.response.send_message(clip("\n".join(lines), CONTENT), ephemeral=True)

    @group.command(name="export", description="A tournament's record: games and crosstable")
    @app_commands.describe(event="Tournament number (this server's newest by default)")
    async def export(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """One file: the crosstable, then every game in OTN."""
        found = await self._event(interaction, event)
        await interaction.response.defer(thinking=True)
        file = export_file(await self.events.export(found))
        await interaction.followup.send(f"The record of **{found.name}**.", file=file)
