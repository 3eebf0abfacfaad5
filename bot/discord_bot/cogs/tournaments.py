"""/tafl tournament: events inside a server (Swiss, round robin, arena), run by the bot from
sign-up to prize-giving, and the organiser's tools."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import NotFound
from bot.storage.tournaments import EntryRefused, Status, Tournament, TournamentSpec

from ..app.durations import describe_duration, parse_move_time
from ..app.errors import UserError
from ..app.wording import plain_name, plural
from ..choices import VARIANT_CHOICES
from ..limits import CONTENT, clip, fit_embed
from ..people import participant_of
from ..tournament_desk import announcement_embed, describe_event, points_text, result_text
from ..views import LeaveButton, TournamentButton, confirm_leave_view, tournament_view

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss (a number of rounds)", value="swiss"),
    app_commands.Choice(name="Round robin (everyone plays everyone)", value="round_robin"),
    app_commands.Choice(name="Arena (re-paired as soon as a game ends)", value="arena"),
]
MIN_ENTRANTS = {"swiss": 4, "round_robin": 3, "arena": 2}
"""Fewest players an event starts with, unless the organiser says otherwise."""
ANY_STATUS: frozenset[Status] = frozenset(("signup", "running", "paused", "finished", "cancelled"))
UNDER_WAY: frozenset[Status] = frozenset(("signup", "running", "paused"))
NONE_AMONG: dict[frozenset[Status], str] = {
    ANY_STATUS: "had no tournament yet",
    UNDER_WAY: "no tournament under way",
    frozenset(("signup",)): "no tournament waiting to start",
    frozenset(("running",)): "no tournament being played",
    frozenset(("paused",)): "no paused tournament",
}
"""What a server lacks when a command without a number finds no event among these statuses."""
STATUS_WORDS = {
    "signup": "open for sign-up",
    "running": "being played",
    "paused": "paused",
    "finished": "finished",
    "cancelled": "cancelled",
}


def may_organise(interaction: discord.Interaction, role: int | None) -> bool:
    """Members who may manage the server run its events, and members with the role the server
    named (``/tafl settings organisers``)."""
    permissions = getattr(interaction, "permissions", None)
    if permissions is not None and permissions.manage_guild:
        return True
    roles = getattr(interaction.user, "roles", ())
    return role is not None and any(r.id == role for r in roles)


def _duration(text: str | None, what: str, default: int | None) -> int | None:
    if text is None:
        return default
    try:
        return parse_move_time(text)
    except ValueError as error:
        raise UserError(f"{what}: {error}") from None


class Tournaments(commands.Cog):
    """Tournaments inside a server."""

    group = app_commands.Group(
        name="tournament", description="Tournaments in this server: Swiss, round robin, arena"
    )

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
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
        if not await self._may_organise(interaction):
            raise UserError(
                "Only members who may manage the server (or have the organisers' role of "
                "`/tafl settings`) can create tournaments."
            )
        if floor is not None and ceiling is not None and floor > ceiling:
            raise UserError(f"The rating floor ({floor}) is above the ceiling ({ceiling}).")
        if not isinstance(interaction.channel, discord.TextChannel):
            raise UserError(
                "Announce a tournament in a text channel: its games are played in threads of it."
            )
        move_seconds = _duration(time, "time", 86400)
        round_seconds = _duration(round_time, "round_time", None)
        if rounds is not None and format != "swiss":
            raise UserError("`rounds` is for Swiss events (a round robin plays everyone once).")
        if minutes is not None and format != "arena":
            raise UserError("`minutes` is for arenas: a Swiss has `rounds`.")
        if round_seconds is not None and move_seconds is not None and round_seconds < move_seconds:
            raise UserError(
                f"A round of {describe_duration(round_seconds)} is shorter than one move's "
                f"{describe_duration(move_seconds)}: give `round_time` several moves' time."
            )
        delay = _duration(starts_in, "starts_in", 3600) or 0
        kind: Literal["swiss", "round_robin", "arena"] = (
            "round_robin" if format == "round_robin" else "arena" if format == "arena" else "swiss"
        )
        spec = TournamentSpec(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel.id,
            name=name.strip(),
            variant=variant,
            format=kind,
            rounds=(rounds or 5) if kind == "swiss" else None,
            arena_seconds=(minutes or 60) * 60 if kind == "arena" else None,
            matches=matches,
            move_seconds=move_seconds,
            round_seconds=round_seconds,
            rated=rated,
            rating_floor=floor,
            rating_ceiling=ceiling,
            min_entrants=min_players or MIN_ENTRANTS[kind],
            starts_at=self.bot.storage.db.now() + delay,
        )
        event = await self.bot.storage.tournaments.create(spec, participant_of(interaction.user))
        sent = await interaction.response.send_message(
            embed=announcement_embed(event, 0), view=tournament_view(event.id)
        )
        if sent.message_id is not None:
            await self.bot.storage.tournaments.set_announcement(event.id, sent.message_id)

    async def _may_organise(self, interaction: discord.Interaction) -> bool:
        settings = await self.bot.storage.settings.get(interaction.guild_id or 0)
        return may_organise(interaction, settings.tournament_role)

    async def _organised(
        self,
        interaction: discord.Interaction,
        event_id: int | None,
        among: Collection[Status] = UNDER_WAY,
    ) -> Tournament:
        if not await self._may_organise(interaction):
            raise UserError(
                "Only members who may manage the server (or have the organisers' role of "
                "`/tafl settings`) can do that."
            )
        return await self._event(interaction, event_id, among)

    async def _event(
        self,
        interaction: discord.Interaction,
        event_id: int | None,
        among: Collection[Status] = ANY_STATUS,
    ) -> Tournament:
        """The event asked for, in this server: by number, or else this server's newest of
        those ``among`` these statuses (this channel's first, or in a game's thread its
        parent's)."""
        storage = self.bot.storage.tournaments
        if event_id is None:
            events = [
                e
                for e in await storage.in_guild(interaction.guild_id or 0, include_ended=True)
                if e.status in among
            ]
            here = interaction.channel_id
            parent = getattr(interaction.channel, "parent_id", None)
            events.sort(key=lambda e: e.spec.channel_id not in (here, parent))
            if not events:
                raise UserError(
                    f"This server has {NONE_AMONG.get(frozenset(among), 'no such tournament')}: "
                    "an organiser starts one with `/tafl tournament create`."
                )
            return events[0]
        try:
            event = await storage.get(event_id)
        except NotFound:
            event = None
        if event is None or event.spec.guild_id != interaction.guild_id:
            raise UserError(f"There is no tournament #{event_id} in this server.")
        return event

    @group.command(name="start", description="Start a tournament now")
    @app_commands.describe(
        event="Tournament number (this server's newest waiting to start by default)"
    )
    async def start(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Start early (before its announced time)."""
        found = await self._organised(interaction, event, frozenset(("signup",)))
        if found.status != "signup":
            raise UserError(f"**{found.name}** is {STATUS_WORDS[found.status]}.")
        joined = [e for e in await self.bot.storage.tournaments.entrants(found.id) if e.active]
        if len(joined) < found.spec.min_entrants:
            # Started early by hand: refused, and the sign-up goes on (at its time, too few
            # players cancel it).
            raise UserError(
                f"**{found.name}** needs {plural(found.spec.min_entrants, 'player')} to start and "
                f"has {len(joined)}; it stays open for sign-up (it starts "
                f"<t:{found.spec.starts_at}:R>, or is cancelled then if still too few have "
                "joined)."
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        words = await self.bot.tournament_desk.start(found, by=participant_of(interaction.user))
        await interaction.followup.send(words, ephemeral=True)

    @group.command(name="pause", description="Pause a tournament (no new round)")
    @app_commands.describe(event="Tournament number (this server's newest being played by default)")
    async def pause(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Games under way go on; no round is paired until it resumes."""
        found = await self._organised(interaction, event, frozenset(("running",)))
        if not await self.bot.storage.tournaments.change_status(
            found.id, ["running"], "paused", actor=participant_of(interaction.user), action="paused"
        ):
            raise UserError(f"**{found.name}** is {STATUS_WORDS[found.status]}.")
        await interaction.response.send_message(
            f"**{found.name}** is paused: games under way go on; no new round is paired until "
            "`/tafl tournament resume`."
        )

    @group.command(name="resume", description="Resume a paused tournament")
    @app_commands.describe(event="Tournament number (this server's newest paused one by default)")
    async def resume(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """The event carries on where it stands."""
        found = await self._organised(interaction, event, frozenset(("paused",)))
        if not await self.bot.storage.tournaments.change_status(
            found.id,
            ["paused"],
            "running",
            actor=participant_of(interaction.user),
            action="resumed",
        ):
            raise UserError(f"**{found.name}** is {STATUS_WORDS[found.status]}.")
        await interaction.response.send_message(f"**{found.name}** goes on.")
        await self.bot.tournament_desk.advance(await self.bot.storage.tournaments.get(found.id))

    @group.command(name="cancel", description="Cancel a tournament")
    @app_commands.describe(event="Tournament number", reason="Why (shown to everyone)")
    async def cancel(
        self, interaction: discord.Interaction, event: int, reason: app_commands.Range[str, 3, 200]
    ) -> None:
        """End it without standings; games under way go on as ordinary games."""
        found = await self._organised(interaction, event)
        if not await self.bot.storage.tournaments.change_status(
            found.id,
            ["signup", "running", "paused"],
            "cancelled",
            actor=participant_of(interaction.user),
            action="cancelled",
            detail=reason,
        ):
            raise UserError(f"**{found.name}** is {STATUS_WORDS[found.status]}.")
        await interaction.response.send_message(f"**{found.name}** is cancelled: {reason}")
        for pairing in await self.bot.storage.tournaments.pairings(found.id, found.round or 1):
            for game_id in pairing.games:
                await self.bot.tournament_desk.call_off(
                    found, game_id, f"the event is cancelled ({reason})."
                )
        await self.bot.tournament_desk.refresh_announcement(found.id)

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
        scores = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "½-½": (0.5, 0.5), "0-0": (0.0, 0.0)}
        first, second = scores[result]
        if found.spec.matches:
            first, second = first * 2, second * 2
        pairings = await self.bot.storage.tournaments.pairings(found.id, round)
        pairing = next((p for p in pairings if p.board == board), None)
        if pairing is None or pairing.second is None:
            raise UserError(
                f"Round {round} of **{found.name}** has no board {board} with two players."
            )
        how: Literal["forfeit", "adjudicated"] = (
            "forfeit" if result == "0-0" or "forfeit" in reason.lower() else "adjudicated"
        )
        verdict = result_text(
            pairing, first, second, reason if how in reason.lower() else f"{how}: {reason}"
        )
        await interaction.response.defer(thinking=True)
        # The event's clock waits meanwhile: it must not settle (or, in a match, follow up)
        # the pairing by its games between the call and the decision.
        async with self.bot.tournament_desk.lock(found.id):
            # A game of the pairing still being played stops here: its final board says the
            # organiser's result.
            for game_id in pairing.games:
                await self.bot.tournament_desk.call_off(found, game_id, f"the result is {verdict}.")
            await self.bot.storage.tournaments.decide(
                found.id, round, board, first, second, how,
                reason=reason, actor=participant_of(interaction.user), only_undecided=False,
            )  # fmt: skip
        await interaction.followup.send(
            f"**{found.name}**, round {round}, board {board}: {verdict}.",
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
        if not await self.bot.storage.tournaments.leave(
            found.id,
            player.id,
            "removed",
            actor=participant_of(interaction.user),
            detail=reason,
        ):
            raise UserError(f"{player.display_name} is not playing in **{found.name}**.")
        forfeited = await self.bot.tournament_desk.forfeit_current(found, player.id, reason)
        tail = " Their game under way is lost by forfeit." if forfeited else ""
        await interaction.response.send_message(
            f"{player.display_name} is removed from **{found.name}** ({reason}); the games "
            f"they finished stand.{tail}",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.bot.tournament_desk.refresh_announcement(found.id)

    # ------------------------------------------------------------------ players

    @group.command(name="join", description="Join a tournament")
    @app_commands.describe(event="Tournament number (this server's newest under way by default)")
    async def join(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Sign up (or join late, where the format allows)."""
        await self._join(interaction, await self._event(interaction, event, UNDER_WAY))

    async def _join(self, interaction: discord.Interaction, event: Tournament) -> None:
        me = participant_of(interaction.user)
        rating = await self.bot.storage.ratings.get(me, event.spec.variant)
        try:
            await self.bot.storage.tournaments.join(event.id, me, rating.rating.rating)
        except EntryRefused as refused:
            raise UserError(str(refused)) from None
        late = ""
        if event.status != "signup":
            late = (
                f" You join in round {event.round + 1}; the rounds you missed count as "
                "zero-point byes."
            )
        await interaction.response.send_message(
            f"You are in **{event.name}** (#{event.id}).{late} `/tafl tournament leave` "
            "withdraws you.",
            ephemeral=True,
        )
        await self.bot.tournament_desk.refresh_announcement(event.id)

    @group.command(name="leave", description="Withdraw from a tournament")
    @app_commands.describe(event="Tournament number (this server's newest under way by default)")
    async def leave(self, interaction: discord.Interaction, event: int | None = None) -> None:
        """Withdraw: no longer paired; the games already played stand."""
        await self._leave(interaction, await self._event(interaction, event, UNDER_WAY))

    async def _leave(
        self, interaction: discord.Interaction, event: Tournament, confirmed: int | None = None
    ) -> None:
        """Withdraw the player; in the middle of a game of the event, only once they have
        confirmed (``confirmed``: the game they were told of), and that game is resigned, as
        with /tafl resign, so that their opponent is not left waiting for the clock."""
        if event.status in ("finished", "cancelled"):
            raise UserError(f"**{event.name}** is over.")
        user_id = interaction.user.id
        desk = self.bot.tournament_desk
        playing = await desk.game_under_way(event, user_id)
        if playing is not None and playing[0].id != confirmed:
            live, pairing = playing
            side = live.side_of(user_id)
            assert side is not None
            opponent = plain_name(live.participant(side.other))
            question = (
                f"Leaving now resigns your game against {opponent} in round {pairing.round} of "
                f"**{event.name}** (game #{live.id}): {opponent} wins it. You will not be paired "
                "again; the games you finished stand. Leave?"
            )
            view = confirm_leave_view(event.id, live.id)
            if confirmed is None:
                await interaction.response.send_message(question, view=view, ephemeral=True)
            else:  # the game asked about ended, and another began meanwhile: ask again
                await interaction.response.edit_message(content=question, view=view)
            return
        if not await self.bot.storage.tournaments.leave(event.id, user_id, "withdrew"):
            raise UserError(f"You are not playing in **{event.name}**.")
        words = (
            f"You are out of **{event.name}**; join again any time before it starts."
            if event.status == "signup"
            else f"You have withdrawn from **{event.name}**: you will not be paired again; the "
            "games you finished stand."
        )
        ended = None
        if playing is not None:
            live = playing[0]
            try:
                ended = await self.bot.hub.resign(live.record.channel_id, user_id)
            except UserError:
                pass  # it ended meanwhile (its last move, the clock): nothing to resign
            else:
                words += f" Your game #{live.id} is resigned."
        if confirmed is None:
            await interaction.response.send_message(words, ephemeral=True)
        else:
            await interaction.response.edit_message(content=words, view=None)
        if ended is not None:
            await self.bot.play.announce_end(ended)
        await desk.refresh_announcement(event.id)

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
        events = await self.bot.storage.tournaments.in_guild(
            interaction.guild_id or 0, include_ended=True
        )
        if not events:
            raise UserError(
                "This server has had no tournament yet: an organiser starts one with "
                "`/tafl tournament create`."
            )
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
        entrants = await self.bot.storage.tournaments.entrants(found.id)
        embed = discord.Embed(
            title=f"🏆 {found.name} (#{found.id})", description=describe_event(found)
        )
        embed.add_field(
            name="Status",
            value=STATUS_WORDS[found.status] + (f", round {found.round}" if found.round else ""),
        )
        history = await self.bot.storage.tournaments.history(found.id)
        began = next((h.at for h in history if h.action == "started"), None)
        if found.status == "signup":
            embed.add_field(name="Starts", value=f"<t:{found.spec.starts_at}:f>")
        elif began is not None:
            embed.add_field(name="Started", value=f"<t:{began}:f>")
        names = [
            plain_name(e.player) + (f" ({e.left_reason})" if e.left_reason else "")
            for e in entrants
        ]
        embed.add_field(
            name=f"Players ({sum(1 for e in entrants if e.active)})",
            value=clip(", ".join(names) or "nobody yet", 1000),
            inline=False,
        )
        embed.add_field(
            name="History",
            value=clip(
                "\n".join(
                    f"<t:{h.at}:t> {h.action}{': ' + h.detail if h.detail else ''}"
                    + (f" ({plain_name(h.actor)})" if h.actor else "")
                    for h in history[-8:]
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
        if found.round == 0:
            raise UserError(
                f"**{found.name}** has not begun (it starts <t:{found.spec.starts_at}:R>): "
                "`/tafl tournament info` lists who has joined."
            )
        await interaction.response.defer(thinking=True)
        await self.bot.tournament_desk.post_standings(
            found.id, interaction.channel_id or 0, interaction
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
        number = round or found.round
        if number == 0:
            raise UserError(
                f"**{found.name}** has not begun: it starts <t:{found.spec.starts_at}:R>."
            )
        pairings = await self.bot.storage.tournaments.pairings(found.id, number)
        if not pairings:
            raise UserError(f"**{found.name}** has no round {number}.")
        lines = [f"**{found.name}**, round {number}:"]
        for p in pairings:
            if p.second is None:
                lines.append(f"bye: {plain_name(p.first)} ({points_text(p.first_points)})")
                continue
            score = (
                f"{points_text(p.first_points)}–{points_text(p.second_points)}"
                if p.decided
                else "playing"
            )
            where = ""
            if p.games:
                record = await self.bot.storage.games.get(p.games[-1])
                where = f" <#{record.channel_id}>"
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
        file = await self.bot.tournament_desk.export(found)
        await interaction.followup.send(f"The record of **{found.name}**.", file=file)
