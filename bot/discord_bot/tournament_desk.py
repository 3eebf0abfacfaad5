"""Tournaments on Discord: the tournament service's (:mod:`.app.tournaments`) news told in the
event's channel and its games' threads, and the threads, standings images and records it asks
for.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.engine import get_variant
from bot.render.crosstable import format_points, render_crosstable
from bot.storage import DatabaseUnavailable, Participant

from .app.durations import describe_duration
from .app.tournaments import (
    AnnouncementChanged,
    CalledOff,
    CallOffReason,
    CancelledForTooFew,
    EventCancelled,
    Export,
    Finished,
    GameBegun,
    GameLostOnTime,
    Line,
    News,
    PausedForThreads,
    PlayerRemoved,
    ResultSet,
    RoundOverWhilePaused,
    RoundPaired,
    Standings,
    StandingsDue,
    StoredPairing,
    Tournament,
    crosstable_view,
    decided_by_organiser,
    organisers_detail,
)
from .app.wording import plain_name, plural
from .limits import CONTENT, clip, fit_embed
from .table import can_attach, resolve_channel
from .venue import THREAD_ARCHIVE_MINUTES

if TYPE_CHECKING:
    from .client import TaflBot

log = logging.getLogger(__name__)

PUBLIC_THREAD: Literal[11] = 11

TIEBREAK_WORDS = {
    "BH": "BH Buchholz",
    "SB": "SB Sonneborn-Berger",
    "GP": "GP game points",
    "W": "W wins",
    "Perf": "Perf performance rating",
    "games": "games played",
}
FORMAT_WORDS = {"swiss": "Swiss", "round_robin": "round robin", "arena": "arena"}
OUT = " (out)"
"""The mark of a player who is no longer paired, after their name in the standings' text."""


def points_text(value: float | None) -> str:
    """Points, and the tiebreaks made of points, in the one notation of the standings' text,
    their image and the export: ``2``, ``1½``, ``½``, ``4¼`` (Sonneborn-Berger multiplies
    halves by halves: quarters, exactly); none as a dash."""
    return "–" if value is None else format_points(value)


def tiebreak_text(name: str, value: float | None) -> str:
    """A tiebreak's value: a performance rating whole, the others as points."""
    if name == "Perf" and value is not None:
        return str(round(value))
    return points_text(value)


def result_text(pairing: StoredPairing, first: float, second: float, detail: str) -> str:
    """A pairing's result set by the organiser: ``ana 1–0 bo (forfeit: no-show)``."""
    assert pairing.second is not None
    return (
        f"{plain_name(pairing.first)} {points_text(first)}–{points_text(second)} "
        f"{plain_name(pairing.second)} ({detail})"
    )


class TournamentDesk:
    """The tournaments' side on Discord: opens their games' threads, asks whether members
    left, and tells the server what happens (see :class:`TournamentStage`)."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ the clock

    async def tick(self) -> None:
        """Move every event of this process's servers along (the timers call this)."""
        tournaments = self.bot.tournaments
        for event in await tournaments.due():
            try:
                await tournaments.advance(event.id)
            except DatabaseUnavailable:
                raise  # the clocks wait for the database
            except discord.HTTPException as error:
                log.warning("tournament %d: %s", event.id, error)
            except Exception:
                # One broken event must not hold up the others: logged, tried again next tick.
                log.exception("tournament %d could not move on", event.id)

    # ------------------------------------------------------------------ asked by the service

    async def open_thread(
        self,
        event: Tournament,
        pairing: StoredPairing,
        attackers: Participant,
        defenders: Participant,
    ) -> int | None:
        """A thread for a pairing's game in the event's channel; ``None`` when the bot may not
        open threads there."""
        name = clip(
            f"{event.name} · R{pairing.round} · {plain_name(attackers)} vs {plain_name(defenders)}",
            100,
        )
        try:
            data = await self.bot.http.start_thread_without_message(
                event.spec.channel_id,
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=PUBLIC_THREAD,
                reason=f"a game of {event.name}",
            )
        except discord.Forbidden:
            return None
        return int(data["id"])

    async def member_left(self, guild_id: int, user_id: int) -> bool:
        """Whether Discord says a member has left the server (unsure: no)."""
        try:
            await self.bot.http.get_member(guild_id, user_id)
        except discord.NotFound:
            return True
        except discord.HTTPException:
            return False  # unsure: paired as before
        return False

    async def show(self, news: News) -> None:
        """Tell the server what happened."""
        table = self.bot.table
        if isinstance(news, AnnouncementChanged):
            await self._announce(news)
        elif isinstance(news, CancelledForTooFew):
            await table.tell(news.event.spec.channel_id, news.detail)
        elif isinstance(news, GameBegun):
            await self._game_begun(news)
        elif isinstance(news, PausedForThreads):
            await table.tell(
                news.event.spec.channel_id,
                f"**{news.event.name}** is paused: I may not open threads in this channel for "
                "its games (I need the Create Public Threads permission). The organiser resumes "
                "it with `/tafl tournament resume` once I may.",
            )
        elif isinstance(news, RoundPaired):
            await self._round_paired(news)
        elif isinstance(news, RoundOverWhilePaused):
            event = news.event
            await table.tell(
                event.spec.channel_id,
                f"**{event.name}**: round {event.round} is over. The tournament is paused: "
                f"round {event.round + 1} is paired when an organiser resumes it "
                "(`/tafl tournament resume`).",
            )
        elif isinstance(news, StandingsDue):
            await self.post_standings(news.standings, news.standings.event.spec.channel_id)
        elif isinstance(news, Finished):
            await self._finished(news)
        elif isinstance(news, GameLostOnTime):
            await self.bot.play.announce_end(news.ended)
        else:
            await self._called_off(news)

    # ------------------------------------------------------------------ telling

    async def _game_begun(self, news: GameBegun) -> None:
        event, pairing, live = news.event, news.pairing, news.live
        game_words = "" if not event.spec.matches else f", game {news.number} of 2"
        await self.bot.play.show(
            live,
            [
                f"**{event.name}**, round {pairing.round}, board {pairing.board}{game_words}: "
                f"<@{live.record.attackers.user_id}> attacks, "
                f"<@{live.record.defenders.user_id}> defends."
            ],
        )

    async def _round_paired(self, news: RoundPaired) -> None:
        event = news.event
        lines = [f"**{event.name}**: round {news.round} is paired."]
        for shown in news.pairings:
            pairing = shown.pairing
            if pairing.second is None:
                lines.append(
                    f"Bye: <@{pairing.first.user_id}> ({points_text(pairing.first_points)})"
                )
            else:
                where = "" if shown.channel_id is None else f" · <#{shown.channel_id}>"
                lines.append(
                    f"Board {pairing.board}: <@{pairing.first.user_id}> (attacks) – "
                    f"<@{pairing.second.user_id}>{where}"
                )
        if event.round_deadline is not None:
            lines.append(f"The round ends <t:{event.round_deadline}:R>.")
        await self.bot.table.tell(
            event.spec.channel_id,
            clip("\n".join(lines), CONTENT),
            mentions=discord.AllowedMentions(users=True),
        )

    async def _finished(self, news: Finished) -> None:
        event = news.event
        medals = ("🥇", "🥈", "🥉")
        early = f" early: {news.why}" if news.why else ""
        lines = [f"**{event.name}** is over{early}. Final standings:"]
        # A player who left keeps their place, marked.
        lines += [
            f"{medal} <@{s.player.user_id}> {points_text(s.points)}"
            + (f" ({s.left or 'withdrew'})" if s.withdrawn else "")
            for medal, s in zip(medals, news.podium, strict=False)
        ]
        await self.bot.table.tell(
            event.spec.channel_id,
            clip("\n".join(lines), CONTENT),
            mentions=discord.AllowedMentions(users=True),
        )

    async def _called_off(self, news: CalledOff) -> None:
        """The game's final board (like any ended game's: no ping, no clock, no buttons) says
        why it was called off."""
        ended = news.ended
        words = (
            f"Game #{ended.game.id} was called off by the organiser of **{news.event.name}**: "
            f"{call_off_words(news.reason)}"
        )
        await self.bot.play.called_off(ended, clip(words, CONTENT // 2))

    async def refresh_announcement(self, event_id: int) -> None:
        """Bring the event's announcement up to date: its status and players."""
        await self._announce(await self.bot.tournaments.announcement(event_id))

    async def _announce(self, news: AnnouncementChanged) -> None:
        """The announcement shows the event's status and players, and no buttons once it is
        over."""
        event = news.event
        if event.announcement_id is None:
            return
        channel = self.bot.get_partial_messageable(event.spec.channel_id)
        over = event.status in ("finished", "cancelled")
        message = channel.get_partial_message(event.announcement_id)
        try:
            if over:
                await message.edit(embed=announcement_embed(event, news.players), view=None)
            else:
                await message.edit(embed=announcement_embed(event, news.players))
        except discord.HTTPException as error:
            log.info("could not update the announcement of tournament %d: %s", event.id, error)

    async def post_standings(
        self,
        standings: Standings,
        channel_id: int,
        interaction: discord.Interaction | None = None,
    ) -> None:
        """The standings: a crosstable image (drawn in a thread) with them in words, in
        ``channel_id`` or as the answer to ``interaction``; words alone where the bot may not
        attach files."""
        event, after, table = standings.event, standings.after, list(standings.lines)
        text = clip(standings_text(event, table, after), CONTENT)
        none = discord.AllowedMentions.none()
        channel = None if interaction is not None else await resolve_channel(self.bot, channel_id)
        if interaction is None and channel is None:
            return
        files: list[discord.File] = []
        if table and can_attach(interaction, channel):
            subtitle = standings_subtitle(event, after)
            view = crosstable_view(event, standings.sheet, table, subtitle)
            data = await asyncio.to_thread(render_crosstable, view)
            files.append(
                discord.File(
                    io.BytesIO(data),
                    filename=f"tournament-{event.id}-standings.png",
                    description=f"Standings of {event.name}, {subtitle}",
                )
            )
        if interaction is not None:
            await interaction.followup.send(text, files=files, allowed_mentions=none)
        else:
            assert channel is not None
            await channel.send(text, files=files, allowed_mentions=none)


def export_file(record: Export) -> discord.File:
    """An event's record as one text file: the crosstable, then every game in OTN."""
    standings = record.standings
    event = standings.event
    table = list(standings.lines)
    text = standings_text(event, table, standings.after)
    parts = [text.replace("**", "").replace("```\n", ""), ""]
    for game in record.games:
        pairing = game.pairing
        number = f", game {game.number}" if len(pairing.games) > 1 else ""
        heading = f"Round {pairing.round}, board {pairing.board}{number}:"
        decided = organisers_result(pairing)
        if decided is not None:
            heading += f" the organiser set the result, {decided}."
        parts += [heading, game.otn, ""]
    data = "\n".join(parts).encode()
    return discord.File(io.BytesIO(data), filename=f"tournament-{event.id}.txt")


def call_off_words(reason: CallOffReason) -> str:
    """Why the organiser called a game off, ending "Game #4 was called off by the organiser
    of **Event**: ..."."""
    if isinstance(reason, ResultSet):
        verdict = result_text(reason.pairing, reason.first, reason.second, reason.detail)
        return f"the result is {verdict}."
    if isinstance(reason, PlayerRemoved):
        return (
            f"{plain_name(reason.removed)} was removed ({reason.reason}); the result is "
            f"{result_text(reason.pairing, reason.first, reason.second, 'forfeit')}."
        )
    assert isinstance(reason, EventCancelled)
    return f"the event is cancelled ({reason.reason})."


def organisers_result(pairing: StoredPairing) -> str | None:
    """A pairing's result as its organiser set it (``ana 1–0 bo (forfeit: no-show)``), or
    ``None`` if its games decided it."""
    if not decided_by_organiser(pairing):
        return None
    first, second = pairing.first_points or 0.0, pairing.second_points or 0.0
    return result_text(pairing, first, second, organisers_detail(pairing))


def standings_subtitle(event: Tournament, after: int) -> str:
    """Where the standings stand: ``Brandubh Swiss · after round 2 of 3`` (``after``: the last
    round counted; the round under way, if any, is not)."""
    words = f"{get_variant(event.spec.variant).title} {FORMAT_WORDS[event.spec.format]}"
    if event.status == "finished":
        return words + " · final"
    if event.spec.format == "arena":
        return words + (" · under way" if event.round else "")
    if after == 0:
        return words + (" · round 1 under way" if event.round else " · not begun")
    of = f" of {event.spec.rounds}" if event.spec.format == "swiss" else ""
    under_way = f" (round {event.round} under way)" if event.round > after else ""
    return words + f" · after round {after}{of}{under_way}"


def standings_text(event: Tournament, table: list[Line], after: int) -> str:
    """The standings in words (a code block, for a phone's width)."""
    header = f"**{event.name}** · {standings_subtitle(event, after)}"
    if not table:
        return header + "\nNobody has joined yet."
    names = [t[0] for t in table[0].tiebreaks]
    lines = [f"{'#':>3} {'player':<16} {'pts':>4} " + " ".join(f"{n:>5}" for n in names)]
    for line in table:
        # Players who no longer play keep their place (their results stand), marked.
        name = plain_name(line.player)
        name = name[: 16 - len(OUT)] + OUT if line.withdrawn else name[:16]
        lines.append(
            f"{line.rank:>3} {name:<16} {points_text(line.points):>4} "
            + " ".join(f"{tiebreak_text(n, value):>5}" for n, value in line.tiebreaks)
        )
    notes = []
    if any(line.withdrawn for line in table):
        notes.append(f"{OUT.strip()}: no longer paired (withdrew, removed or left the server).")
    if names:
        notes.append(
            "Tiebreaks, in order: " + ", ".join(TIEBREAK_WORDS.get(n, n) for n in names) + "."
        )
    return header + "\n```\n" + "\n".join(lines) + "\n```" + "".join("\n" + n for n in notes)


def announcement_embed(event: Tournament, players: int) -> discord.Embed:
    """The announcement of an event: its options, when it starts (or how it stands), its
    players, its organiser."""
    embed = discord.Embed(
        title=f"🏆 {event.name} (#{event.id})",
        description=describe_event(event),
        colour=discord.Colour.gold(),
    )
    if event.status == "signup":
        when = f"<t:{event.spec.starts_at}:R> (<t:{event.spec.starts_at}:f>)"
        embed.add_field(name="Starts", value=when)
    else:
        status = {
            "running": f"round {event.round} under way",
            "paused": f"paused in round {event.round}",
            "finished": "finished: `/tafl tournament standings`",
            "cancelled": "cancelled",
        }[event.status]
        embed.add_field(name="Now", value=status)
    embed.add_field(name="Players", value=str(players))
    embed.add_field(name="Organiser", value=plain_name(event.organiser))
    footer = (
        "Join with the button or /tafl tournament join · each game gets a thread here"
        if event.status in ("signup", "running", "paused")
        else "This event is over."
    )
    embed.set_footer(text=footer)
    return fit_embed(embed)


def describe_event(event: Tournament) -> str:
    """An event's options in one paragraph."""
    spec = event.spec
    parts = [f"{get_variant(spec.variant).title} {FORMAT_WORDS[spec.format]}"]
    if spec.format == "swiss":
        parts.append(plural(spec.rounds or 0, "round"))
    if spec.format == "arena" and spec.arena_seconds:
        parts.append(f"{describe_duration(spec.arena_seconds)} long")
    parts.append("two-game matches, sides swapped" if spec.matches else "one game per pairing")
    parts.append(
        f"{describe_duration(spec.move_seconds)} per move" if spec.move_seconds else "no time limit"
    )
    if spec.round_seconds:
        parts.append(f"rounds of {describe_duration(spec.round_seconds)} at most")
    parts.append("rated" if spec.rated else "unrated")
    if spec.rating_floor is not None:
        parts.append(f"rated {spec.rating_floor} or more")
    if spec.rating_ceiling is not None:
        parts.append(f"rated up to {spec.rating_ceiling}")
    return " · ".join(parts)
