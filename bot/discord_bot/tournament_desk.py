"""Running tournaments: starting them, pairing each round, playing each pairing's games in a
thread of their own, settling rounds by their results (or their deadline) and announcing the
standings, until the podium.

Everything an event is lives in the database (``storage.tournaments``); this desk only acts on
it. The process that serves the event's server runs its clock (:meth:`TournamentDesk.tick`);
each round is begun by a compare-and-set in storage, so two processes that see a round end at the
same moment pair the next one once. A restart loses nothing: the next tick finds each pairing's
games and carries on where the event stands.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot import tournament as logic
from bot.engine import get_variant
from bot.render.crosstable import format_points, render_crosstable
from bot.storage import ChannelBusy, DatabaseUnavailable, GameRecord, GameStatus, Participant
from bot.storage.tournaments import StoredPairing, Tournament

from .app.durations import describe_duration
from .app.games import LiveGame
from .app.records import RESULT_TAGS, otn_record
from .app.tournaments import (
    Line,
    crosstable_view,
    pair_arena,
    pair_round,
    rounds_of,
    sheet_of,
    standings_of,
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
    """Starts events, pairs rounds, starts and settles their games."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, event_id: int) -> asyncio.Lock:
        """One thing at a time per event in this process (the clock, the organiser's start and
        resume): a pairing's game is started once. Across processes, only the one serving the
        event's server acts on it."""
        return self._locks.setdefault(event_id, asyncio.Lock())

    # ------------------------------------------------------------------ the clock

    async def tick(self) -> None:
        """Move every event of this process's servers along (the timers call this)."""
        for event in await self.bot.storage.tournaments.due():
            if not self.bot.storage.shards.owns(event.spec.guild_id):
                continue
            try:
                await self.advance(event)
            except DatabaseUnavailable:
                raise  # the clocks wait for the database
            except discord.HTTPException as error:
                log.warning("tournament %d: %s", event.id, error)
            except Exception:
                # One broken event must not hold up the others: logged, tried again next tick.
                log.exception("tournament %d could not move on", event.id)

    async def advance(self, event: Tournament) -> None:
        """Whatever the event needs now: starting, its games' results, its next round."""
        async with self.lock(event.id):
            fresh = await self.bot.storage.tournaments.get(event.id)
            await self._advance(fresh)

    async def _advance(self, event: Tournament) -> None:
        if event.status == "signup":
            await self._start(event)
            return
        if event.status not in ("running", "paused"):
            return
        # Paused: the games under way go on and their results count, but no game starts.
        running = event.status == "running"
        storage = self.bot.storage.tournaments
        for pairing in await storage.pairings(event.id, event.round):
            if pairing.decided is not None:
                continue
            if not pairing.games:
                # Paired but not started: the process stopped in between, or threads were
                # refused until the organiser resumed the event.
                if running:
                    await self._start_game(event, pairing, pairing.first, pairing.second, 1)
                continue
            await self._follow(event, pairing)
        if event.spec.format == "arena":
            if not running:
                return
            await self._arena(event)
        if await storage.round_open(event.id, event.round):
            if (
                running
                and event.round_deadline is not None
                and self.bot.storage.db.now() >= event.round_deadline
            ):
                await self._deadline(event)
            return
        if running:
            await self._next_round(event)
        else:
            await self._round_over_while_paused(event)

    async def _round_over_while_paused(self, event: Tournament) -> None:
        """The round's last game ended during a pause: its standings now, the next round on
        resume (the last round's end finishes the event: nothing is left to pair)."""
        sheet = await sheet_of(self.bot.storage, event)
        if event.round >= rounds_of(event, len(sheet.roster)):
            await self.finish(event)
            return
        if not await self.bot.storage.tournaments.claim_standings(event.id, event.round):
            return  # said already (by this process or another)
        await self.bot.table.tell(
            event.spec.channel_id,
            f"**{event.name}**: round {event.round} is over. The tournament is paused: round "
            f"{event.round + 1} is paired when an organiser resumes it "
            "(`/tafl tournament resume`).",
        )
        await self.post_standings(event.id, event.spec.channel_id)

    # ------------------------------------------------------------------ starting

    async def start(self, event: Tournament, *, by: Participant | None = None) -> str:
        """Start the event now (its time has come, or the organiser started it early): too
        few entrants cancel it, with a message; else round 1 is paired and its games begin."""
        async with self.lock(event.id):
            return await self._start(await self.bot.storage.tournaments.get(event.id), by=by)

    async def _start(self, event: Tournament, *, by: Participant | None = None) -> str:
        if event.status != "signup":
            return f"**{event.name}** has already begun."
        storage = self.bot.storage.tournaments
        entrants = [e for e in await storage.entrants(event.id) if e.active]
        if len(entrants) < event.spec.min_entrants:
            text = (
                f"**{event.name}** is cancelled: it needed {event.spec.min_entrants} players and "
                f"{len(entrants)} joined."
            )
            if await storage.change_status(
                event.id, ["signup"], "cancelled", actor=by, action="cancelled", detail=text
            ):
                await self.bot.table.tell(event.spec.channel_id, text)
                await self.refresh_announcement(event.id)
            return text
        sheet = await sheet_of(self.bot.storage, event)
        deadline = self._round_deadline(event)
        ends_at = None
        if event.spec.format == "arena":
            ends_at = self.bot.storage.db.now() + (event.spec.arena_seconds or 3600)
            deadline = None  # games under way when it ends are played out, and count
            pairings = pair_arena(sheet, set(), [], {})
        else:
            pairings = pair_round(event, sheet, 1)
        if not await storage.begin_round(event.id, 1, pairings, deadline=deadline, ends_at=ends_at):
            return f"**{event.name}** has already begun."
        await storage.log(event.id, by, "started", plural(len(entrants), "player"))
        await self.refresh_announcement(event.id)
        fresh = await storage.get(event.id)
        await self._start_games(fresh)
        await self._announce_round(fresh)
        return f"**{event.name}** has begun: round 1 is paired."

    async def _departures(self, event: Tournament, entrants: list[logic.Entrant]) -> bool:
        """Players who have left the server are withdrawn before a round is paired (the bot
        does not follow members coming and going: it asks Discord). Whether any were."""
        gone = False
        for entrant in entrants:
            if entrant.withdrawn:
                continue
            try:
                await self.bot.http.get_member(event.spec.guild_id, entrant.id)
            except discord.NotFound:
                gone = (
                    await self.bot.storage.tournaments.leave(
                        event.id, entrant.id, "left the server"
                    )
                    or gone
                )
            except discord.HTTPException:
                continue  # unsure: paired as before
        return gone

    def _round_deadline(self, event: Tournament) -> int | None:
        seconds = event.spec.round_seconds
        return None if seconds is None else self.bot.storage.db.now() + seconds

    # ------------------------------------------------------------------ pairing

    async def _next_round(self, event: Tournament) -> None:
        storage = self.bot.storage.tournaments
        sheet = await sheet_of(self.bot.storage, event)
        if event.spec.format == "arena" or event.round >= rounds_of(event, len(sheet.roster)):
            await self.finish(event)
            return
        if await storage.claim_standings(event.id, event.round):  # once, by one process
            await self.post_standings(event.id, event.spec.channel_id)
        if await self._departures(event, sheet.entrants):
            sheet = await sheet_of(self.bot.storage, event)
        following = event.round + 1
        active = sum(1 for entrant in sheet.entrants if not entrant.withdrawn)
        try:
            pairings = pair_round(event, sheet, following) if active >= 2 else None
        except logic.PairingImpossibleError:
            pairings = None  # everyone left has met everyone else
        if not pairings or all(row.second is None for row in pairings):
            await self.finish(
                event,
                why=f"no round {following} can be paired "
                + ("(too few players are left)." if active < 2 else "without a repeat pairing."),
            )
            return
        if not await storage.begin_round(
            event.id, following, pairings, deadline=self._round_deadline(event)
        ):
            return  # another process paired it
        fresh = await storage.get(event.id)
        await self._start_games(fresh)
        await self._announce_round(fresh)

    async def _arena(self, event: Tournament) -> None:
        """An arena pairs its free players again at once, until it ends."""
        if event.ends_at is None or self.bot.storage.db.now() >= event.ends_at:
            return
        storage = self.bot.storage.tournaments
        pairings = await storage.pairings(event.id, 1)
        busy = {
            p.user_id or 0
            for pairing in pairings
            if pairing.decided is None
            for p in (pairing.first, pairing.second)
            if p is not None
        }
        sheet = await sheet_of(self.bot.storage, event)
        fresh = pair_arena(sheet, busy, pairings, {})
        if not fresh:
            return
        await storage.add_pairings(event.id, 1, fresh)
        await self._start_games(await storage.get(event.id))

    # ------------------------------------------------------------------ games

    async def _start_games(self, event: Tournament) -> None:
        for pairing in await self.bot.storage.tournaments.pairings(event.id, event.round):
            if pairing.is_bye or pairing.game1_id is not None:
                continue
            await self._start_game(event, pairing, pairing.first, pairing.second, 1)

    async def _start_game(
        self,
        event: Tournament,
        pairing: StoredPairing,
        attackers: Participant,
        defenders: Participant | None,
        number: int,
        thread_id: int | None = None,
    ) -> None:
        """Open a thread for a pairing (or use its thread for a match's second game) and start
        the game in it, with its first board."""
        assert defenders is not None
        variant = get_variant(event.spec.variant)
        if thread_id is None:
            name = clip(
                f"{event.name} · R{pairing.round} · {plain_name(attackers)} vs "
                f"{plain_name(defenders)}",
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
                await self._pause_for_threads(event)
                return
            thread_id = int(data["id"])
        try:
            record = await self.bot.storage.games.create(
                guild_id=event.spec.guild_id,
                channel_id=thread_id,
                variant=variant.name,
                attackers=attackers,
                defenders=defenders,
                move_seconds=event.spec.move_seconds,
                rated=event.spec.rated,
            )
        except ChannelBusy:
            # Someone started another game in the thread between a match's two games: the
            # second gets a thread of its own.
            log.warning("tournament %d: thread %d is busy; opening another", event.id, thread_id)
            await self._start_game(event, pairing, attackers, defenders, number)
            return
        await self.bot.storage.tournaments.attach_game(
            event.id, pairing.round, pairing.board, record.id
        )
        live = self.bot.hub.adopt(record)
        game_words = "" if not event.spec.matches else f", game {number} of 2"
        await self.bot.play.show(
            live,
            [
                f"**{event.name}**, round {pairing.round}, board {pairing.board}{game_words}: "
                f"<@{attackers.user_id}> attacks, <@{defenders.user_id}> defends."
            ],
        )

    async def _pause_for_threads(self, event: Tournament) -> None:
        text = (
            f"**{event.name}** is paused: I may not open threads in this channel for its games "
            "(I need the Create Public Threads permission). The organiser resumes it with "
            "`/tafl tournament resume` once I may."
        )
        if await self.bot.storage.tournaments.change_status(
            event.id, ["running"], "paused", action="paused", detail="no thread permission"
        ):
            await self.bot.table.tell(event.spec.channel_id, text)

    async def _follow(self, event: Tournament, pairing: StoredPairing) -> None:
        """A pairing's games: a finished first game of a match starts the second (sides
        swapped, same thread); once all are finished, the pairing's points are set."""
        games = self.bot.storage.games
        records: list[GameRecord] = [await games.get(game_id) for game_id in pairing.games]
        if not records or any(r.status is GameStatus.ACTIVE for r in records):
            return
        gone: set[int] = set()
        if event.spec.matches and len(records) == 1:
            gone = await self._gone(event, pairing)
            if not gone:
                if event.status != "running":
                    return  # a match's second game starts when the event resumes
                await self._start_game(
                    event, pairing, pairing.second or pairing.first, pairing.first, 2,
                    thread_id=records[0].channel_id,
                )  # fmt: skip
                return
        first = second = 0.0
        for record in records:
            got = score_of(record, pairing.first)
            first += got
            second += (1.0 - got) if record.result is not None else 0.0
        # A player who left after a match's first game never plays the second: it is theirs
        # lost by forfeit (see app.tournaments, which counts it so).
        if pairing.second is not None and len(gone) == 1:
            if pairing.first.user_id in gone:
                second += 1.0
            else:
                first += 1.0
        await self.bot.storage.tournaments.decide(
            event.id, pairing.round, pairing.board, first, second, "played"
        )

    async def _gone(self, event: Tournament, pairing: StoredPairing) -> set[int]:
        """The players of ``pairing`` no longer in the event (withdrew, removed, left)."""
        players = {pairing.first.user_id, getattr(pairing.second, "user_id", None)}
        return {
            e.player.user_id
            for e in await self.bot.storage.tournaments.entrants(event.id)
            if not e.active and e.player.user_id is not None and e.player.user_id in players
        }

    async def game_under_way(
        self, event: Tournament, user_id: int
    ) -> tuple[LiveGame, StoredPairing] | None:
        """The game ``user_id`` is playing in the event's round under way, with its pairing."""
        if event.status not in ("running", "paused"):
            return None
        for pairing in await self.bot.storage.tournaments.pairings(event.id, event.round):
            if pairing.decided is not None or pairing.second is None:
                continue
            if user_id not in (pairing.first.user_id, pairing.second.user_id):
                continue
            for game_id in pairing.games:
                live = self.bot.hub.by_id(game_id) or await self.bot.hub.refresh(game_id)
                if live is not None:
                    return live, pairing
        return None

    async def _deadline(self, event: Tournament) -> None:
        """The round's time is up: each game still being played is lost on time by the player
        to move (as their clock would have it), so the round can end."""
        for pairing in await self.bot.storage.tournaments.pairings(event.id, event.round):
            for game_id in pairing.games:
                live = self.bot.hub.by_id(game_id)
                if live is None:
                    continue
                ended = await self.bot.hub.forfeit_on_time(live, live.game.ply)
                if ended is not None:
                    await self.bot.play.announce_end(ended)

    async def call_off(self, event: Tournament, game_id: int, why: str) -> bool:
        """Stop a game of the event under way (the organiser decided its pairing, removed a
        player or cancelled the event): it ends without a result of its own, and its final
        board, like any ended game's (no ping, no clock, no buttons), says ``why``: the end of
        "Game #4 was called off by the organiser of **Event**: ...". ``False`` if it had
        already ended."""
        live = self.bot.hub.by_id(game_id)
        if live is None:
            return False
        ended = await self.bot.hub.call_off(live)
        if ended is None:
            return False
        words = f"Game #{game_id} was called off by the organiser of **{event.name}**: {why}"
        await self.bot.play.called_off(ended, clip(words, CONTENT // 2))
        return True

    async def forfeit_current(self, event: Tournament, user_id: int, reason: str) -> bool:
        """A removed player's pairing of the round under way: its game called off, and the
        pairing lost by them by forfeit. Whether there was one."""
        for pairing in await self.bot.storage.tournaments.pairings(event.id, event.round):
            players = {pairing.first.user_id, getattr(pairing.second, "user_id", None)}
            if pairing.decided is not None or pairing.second is None or user_id not in players:
                continue
            full = 2.0 if event.spec.matches else 1.0
            first_lost = pairing.first.user_id == user_id
            first, second = (0.0, full) if first_lost else (full, 0.0)
            removed = pairing.first if first_lost else pairing.second
            why = (
                f"{plain_name(removed)} was removed ({reason}); the result is "
                f"{result_text(pairing, first, second, 'forfeit')}."
            )
            for game_id in pairing.games:
                await self.call_off(event, game_id, why)
            await self.bot.storage.tournaments.decide(
                event.id, pairing.round, pairing.board, first, second, "forfeit",
                reason=f"removed: {reason}",
            )  # fmt: skip
            return True
        return False

    async def refresh_announcement(self, event_id: int) -> None:
        """Bring the event's announcement up to date: its status and players, and no buttons
        once it is over."""
        event = await self.bot.storage.tournaments.get(event_id)
        if event.announcement_id is None:
            return
        entrants = [e for e in await self.bot.storage.tournaments.entrants(event.id) if e.active]
        channel = self.bot.get_partial_messageable(event.spec.channel_id)
        over = event.status in ("finished", "cancelled")
        message = channel.get_partial_message(event.announcement_id)
        try:
            if over:
                await message.edit(embed=announcement_embed(event, len(entrants)), view=None)
            else:
                await message.edit(embed=announcement_embed(event, len(entrants)))
        except discord.HTTPException as error:
            log.info("could not update the announcement of tournament %d: %s", event.id, error)

    # ------------------------------------------------------------------ telling

    async def _announce_round(self, event: Tournament) -> None:
        pairings = await self.bot.storage.tournaments.pairings(event.id, event.round)
        lines = [f"**{event.name}**: round {event.round} is paired."]
        for pairing in pairings:
            if pairing.second is None:
                lines.append(
                    f"Bye: <@{pairing.first.user_id}> ({points_text(pairing.first_points)})"
                )
            else:
                where = ""
                if pairing.games:
                    record = await self.bot.storage.games.get(pairing.games[-1])
                    where = f" · <#{record.channel_id}>"
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

    async def finish(self, event: Tournament, *, why: str = "") -> None:
        """The last round is over (or ``why`` no other can be played): the final standings,
        the podium."""
        storage = self.bot.storage.tournaments
        if not await storage.change_status(
            event.id, ["running", "paused"], "finished", action="finished", detail=why
        ):
            return
        await self.refresh_announcement(event.id)
        table = await self.standings(event)
        medals = ("🥇", "🥈", "🥉")
        early = f" early: {why}" if why else ""
        lines = [f"**{event.name}** is over{early}. Final standings:"]
        # By score, as FIDE and lichess rank: a player who left keeps their place, marked.
        lines += [
            f"{medal} <@{s.player.user_id}> {points_text(s.points)}"
            + (f" ({s.left or 'withdrew'})" if s.withdrawn else "")
            for medal, s in zip(medals, table, strict=False)
        ]
        await self.bot.table.tell(
            event.spec.channel_id,
            clip("\n".join(lines), CONTENT),
            mentions=discord.AllowedMentions(users=True),
        )
        await self.post_standings(event.id, event.spec.channel_id)

    async def _settled_round(self, event: Tournament) -> int:
        """The last round whose results are all in (an arena: its one round, as it stands)."""
        if event.spec.format == "arena" or event.round == 0:
            return event.round
        if await self.bot.storage.tournaments.round_open(event.id, event.round):
            return event.round - 1
        return event.round

    async def standings(self, event: Tournament) -> list[Line]:
        """The event's standings now."""
        return standings_of(event, await sheet_of(self.bot.storage, event))

    async def post_standings(
        self,
        event_id: int,
        channel_id: int,
        interaction: discord.Interaction | None = None,
    ) -> None:
        """The standings: a crosstable image (drawn in a thread) with them in words, in
        ``channel_id`` or as the answer to ``interaction``; words alone where the bot may not
        attach files."""
        event = await self.bot.storage.tournaments.get(event_id)
        after = await self._settled_round(event)
        sheet = await sheet_of(self.bot.storage, event, upto=after)
        table = standings_of(event, sheet)
        text = clip(standings_text(event, table, after), CONTENT)
        none = discord.AllowedMentions.none()
        channel = None if interaction is not None else await resolve_channel(self.bot, channel_id)
        if interaction is None and channel is None:
            return
        files: list[discord.File] = []
        if table and can_attach(interaction, channel):
            subtitle = standings_subtitle(event, after)
            view = crosstable_view(event, sheet, table, subtitle)
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

    async def export(self, event: Tournament) -> discord.File:
        """The event's record: every game in OTN and the crosstable, as one text file."""
        after = await self._settled_round(event)
        table = standings_of(event, await sheet_of(self.bot.storage, event, upto=after))
        parts = [standings_text(event, table, after).replace("**", "").replace("```\n", ""), ""]
        for pairing in await self.bot.storage.tournaments.pairings(event.id):
            decided = organisers_result(pairing)
            for number, game_id in enumerate(pairing.games, start=1):
                record = await self.bot.storage.games.get(game_id)
                tags: dict[str, str] | None = None
                if decided is not None and record.status is GameStatus.ABORTED:
                    # Called off for the organiser's result: the record carries it.
                    tags = called_off_tags(pairing, record)
                text, _ = await otn_record(self.bot.storage, record, tags=tags)
                game = f", game {number}" if len(pairing.games) > 1 else ""
                heading = f"Round {pairing.round}, board {pairing.board}{game}:"
                if decided is not None:
                    heading += f" the organiser set the result, {decided}."
                parts.append(heading)
                parts.append(text)
                parts.append("")
        data = "\n".join(parts).encode()
        return discord.File(io.BytesIO(data), filename=f"tournament-{event.id}.txt")


def organisers_result(pairing: StoredPairing) -> str | None:
    """A pairing's result as its organiser set it (``ana 1–0 bo (forfeit: no-show)``), or
    ``None`` if its games decided it."""
    if pairing.decided not in ("forfeit", "adjudicated") or pairing.second is None:
        return None
    how = pairing.decided
    reason = pairing.reason or ""
    detail = reason if how in reason.lower() else f"{how}: {reason}" if reason else how
    return result_text(pairing, pairing.first_points or 0.0, pairing.second_points or 0.0, detail)


def called_off_tags(pairing: StoredPairing, record: GameRecord) -> dict[str, str]:
    """The OTN tags of a game called off for its organiser's result: ``termination`` says how
    the organiser decided (forfeit, adjudicated) and ``result`` who the pairing's result makes
    the winner of this game (none when both players lost)."""
    assert pairing.decided is not None and pairing.second is not None
    tags: dict[str, str] = {"termination": pairing.decided}
    first, second = pairing.first_points or 0.0, pairing.second_points or 0.0
    if first == second:
        if first > 0:
            tags["result"] = RESULT_TAGS["draw"]
        return tags
    winner = pairing.first if first > second else pairing.second
    attacked = record.attackers.user_id == winner.user_id
    tags["result"] = RESULT_TAGS["attackers" if attacked else "defenders"]
    return tags


def score_of(record: GameRecord, player: Participant) -> float:
    """What ``player`` scored in a finished game: 1, ½ or 0."""
    if record.result is None or record.result.value == "draw":
        return 0.5 if record.result is not None else 0.0
    winner = record.attackers if record.result.value == "attackers" else record.defenders
    return 1.0 if winner == player else 0.0


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
