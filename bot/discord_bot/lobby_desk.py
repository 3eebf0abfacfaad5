"""Games across servers on Discord: the lobby service's (:mod:`.app.lobby`) decisions shown in
both venues.

A pair from the lobby becomes one game played in two servers. The process that made the pair
(any process: the one that answered the second seek, or the lobby's timer) opens a thread for
the game in each seeker's channel (Discord's REST API takes any channel from any process) when
the service asks it to, and posts the first board in both venues.

From then on every process that changes the game posts the new board in both venues, and
signals the change through the database: a process serving the other venue catches up at once,
so that its player's next move, menu or button meets the position they see. A restart loses
nothing: a venue whose board lags behind the game (its process stopped between the move and the
board) is redrawn by the timer of the process that serves it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.engine import get_variant
from bot.storage import GameRecord, Venue

from .app.durations import describe_duration
from .app.errors import UserError
from .app.games import LiveGame, adjournment
from .app.lobby import (
    AcrossStarted,
    Adjourned,
    Opened,
    Opening,
    Pairing,
    Redraw,
    VenueRequest,
)
from .app.wording import game_over, plain_name
from .compose.board import adjourned_words
from .limits import CONTENT, clip
from .present import stranger
from .table import resolve_channel, venue_lost
from .venue import THREAD_ARCHIVE_MINUTES, thread_name
from .views import across_rematch_view

if TYPE_CHECKING:
    from .client import TaflBot

log = logging.getLogger(__name__)

CAUGHT_UP = "*(The board as it stands: the last one could not be shown here in time.)*"
PUBLIC_THREAD: Literal[11] = 11
"""Discord's channel type of a public thread."""


class LobbyDesk:
    """Games across servers: their venues opened (the lobby service's :class:`VenueOpener`),
    their boards and news posted in both."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ Discord's side of a venue

    async def guild_name(self, guild_id: int) -> str | None:
        """A server's name, from the cache or the API; ``None`` if it cannot be read."""
        guild = self.bot.get_guild(guild_id)
        if guild is not None and guild.name:
            return guild.name
        try:
            return (await self.bot.fetch_guild(guild_id)).name
        except discord.HTTPException as error:
            log.warning("cannot read server %d: %s", guild_id, error)
            return None

    async def open_thread(self, request: VenueRequest) -> Opened:
        """A public thread named after the players and the variant in the request's channel,
        or what Discord said instead."""
        name = thread_name(
            plain_name(request.player),
            plain_name(request.opponent),
            get_variant(request.variant).title,
        )
        try:
            data = await self.bot.http.start_thread_without_message(
                request.channel_id,
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=PUBLIC_THREAD,
                reason="a game from the tafl lobby",
            )
        except discord.Forbidden as error:
            return Opened(Opening.GONE if venue_lost(error) else Opening.NO_PERMISSION)
        except discord.HTTPException as error:
            # A thread cannot hold a thread (the seek came from inside one), or the channel is
            # gone.
            if error.status == 400:
                return Opened(Opening.IN_THREAD)
            log.warning("cannot open a venue in channel %d: %s", request.channel_id, error)
            return Opened(Opening.GONE)
        return Opened(Opening.OPENED, int(data["id"]))

    async def reachable(self, venue: Venue) -> bool:
        """Whether the bot can still reach a venue's channel (asked of Discord; an answer
        other than "unknown" or "no access" counts as yes, so a hiccup adjourns nothing)."""
        try:
            await self.bot.http.get_channel(venue.channel_id)
        except (discord.NotFound, discord.Forbidden) as error:
            return not venue_lost(error)
        except discord.HTTPException:
            return True
        return True

    # ------------------------------------------------------------------ starting

    async def start(self, pairing: Pairing) -> LiveGame | None:
        """Start the game of a pair from the lobby and post its first board in both venues;
        ``None`` when a venue could not be had."""
        started = await self.bot.lobby.start(pairing)
        if started is None:
            return None
        for venue in started.noted:
            await self.bot.table.tell(venue.channel_id, venue.note or "")
        await self._show_start(started, opening_line(started.live))
        return started.live

    async def _show_start(self, started: AcrossStarted, line: str) -> None:
        live = started.live
        await self.bot.play.show(live, [line])
        call = started.call
        if call is not None:
            # The board pings the player to move; the other player was promised a ping too,
            # in their own thread, saying who moves first.
            await self.bot.table.tell(
                call.venue.channel_id,
                f"<@{call.player.user_id}>, your game from the lobby has begun here: you play "
                f"the {call.side.value}; {stranger(live, call.mover)} moves first.",
                call.venue.guild_id,
                discord.AllowedMentions(users=[discord.Object(call.player.user_id or 0)]),
            )
        await self.bot.lobby.changed(live.id)

    # ------------------------------------------------------------------ rematches

    async def ask_rematch(
        self, interaction: discord.Interaction, old: GameRecord, venues: tuple[Venue, ...]
    ) -> None:
        """The Rematch button under a game across servers: the question goes to the other
        player, in their own venue; the asker is told where it went."""
        asked = await self.bot.lobby.ask_rematch(old, venues, interaction.user.id)
        theirs = asked.opponent_venue
        channel = await resolve_channel(self.bot, theirs.channel_id, theirs.guild_id)
        if channel is None:
            raise UserError("The other player's thread is gone: seek a new game with `/tafl seek`.")
        asker = f"{plain_name(asked.asker)} ({asked.asker_venue.guild_name})"
        swap = (
            "the winner defending again (Linnaeus's law 12)"
            if asked.winner_defends
            else "with the sides swapped"
        )
        opponent = asked.opponent
        await channel.send(
            clip(
                f"<@{opponent.user_id}>, {asker} asks for a rematch of game #{old.id}, {swap}.",
                CONTENT,
            ),
            view=across_rematch_view(old.id),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent.user_id or 0)]),
        )
        await interaction.response.send_message(
            f"{interaction.user.mention} asks for a rematch: {plain_name(opponent)}"
            f" ({theirs.guild_name}) answers in their server.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def rematch(self, old: GameRecord, venues: tuple[Venue, ...]) -> LiveGame:
        """Start the rematch of a game across servers in the same two venues."""
        started = await self.bot.lobby.rematch(old, venues)
        await self._show_start(started, f"Rematch of game #{old.id}. " + opening_line(started.live))
        return started.live

    # ------------------------------------------------------------------ venues deleted

    async def check_guild(self, guild_id: int) -> None:
        """After a channel or thread of a server was deleted, or the bot left it: adjourn each
        game whose venue there is gone."""
        for adjourned in await self.bot.lobby.check_guild(guild_id):
            await self._show_adjourned(adjourned)

    async def check_venue(self, live: LiveGame, venue: Venue) -> None:
        """A venue's channel could not be found: adjourn the game if it is really gone."""
        await self._show_adjourned(await self.bot.lobby.check_venue(live, venue))

    async def venue_gone(self, live: LiveGame, venue: Venue) -> None:
        """Adjourn a game whose venue was deleted (see :meth:`LobbyService.venue_gone`)."""
        await self._show_adjourned(await self.bot.lobby.venue_gone(live, venue))

    async def _show_adjourned(self, adjourned: Adjourned | None) -> None:
        """The other player is told in their venue, the absent one by direct message."""
        if adjourned is None:
            return
        live, venue = adjourned.live, adjourned.gone
        words = adjourned_words(adjournment(live))
        if adjourned.other is not None and adjourned.present is not None:
            present = adjourned.present
            await self.bot.table.tell(
                adjourned.other.channel_id,
                f"<@{present.user_id}>, {words[0].lower()}{words[1:]}",
                adjourned.other.guild_id,
                discord.AllowedMentions(users=[discord.Object(present.user_id or 0)]),
            )
        absent = adjourned.absent
        if absent.user_id is not None:
            await self.bot.table.direct(
                absent.user_id,
                f"Your game #{live.id} ({live.game.variant.title}) was played in a "
                f"{'thread' if venue.note is None else 'channel'} of {venue.guild_name} that "
                f"was deleted. Continue it with `/tafl board` in a channel of any server I am "
                f"in, by <t:{adjourned.until}:f>; otherwise you forfeit it.",
            )

    async def resume(
        self, interaction: discord.Interaction, record: GameRecord, venue: Venue
    ) -> None:
        """``/tafl board`` by a player whose venue was deleted, in a channel without a game:
        the game continues here (in a thread of this channel where the bot may open one)."""
        guild = interaction.guild
        await self.bot.lobby.may_resume(record, None if guild is None else guild.id)
        assert guild is not None
        await interaction.response.defer(thinking=True, ephemeral=True)
        resumed = await self.bot.lobby.resume(
            record,
            venue,
            guild.id,
            guild.name,
            interaction.channel_id or 0,
            in_thread=isinstance(interaction.channel, discord.Thread),
        )
        live, place = resumed.live, resumed.place
        await self.bot.play.show(
            live,
            [
                f"{plain_name(resumed.player)} continues game #{live.id} from "
                f"{place.guild_name}: it goes on."
            ],
        )
        await interaction.followup.send(
            f"Game #{live.id} goes on in <#{place.channel_id}>.", ephemeral=True
        )

    # ------------------------------------------------------------------ keeping in step

    async def changed(self, game_id: int) -> None:
        """Tell the other processes that a game across servers changed."""
        await self.bot.lobby.changed(game_id)

    def heard(self, payload: str | None) -> None:
        """A signal from another process: catch up with the games it names."""
        for game_id in self.bot.lobby.to_catch_up(payload):
            self.bot.spawn(self.bot.lobby.catch_up(game_id), f"catch-up-{game_id}")

    async def redraw_lagging(self) -> None:
        """Post the board again in every venue (served here) left behind (a timer calls this)."""
        for lagging in await self.bot.lobby.lagging():
            if isinstance(lagging, Redraw):
                await self.bot.play.show(
                    lagging.live, [CAUGHT_UP], only=lagging.venue.side, ping=False
                )
                continue
            await self.bot.table.tell(lagging.venue.channel_id, game_over(lagging.record))
            await self.bot.lobby.end_shown(lagging.record, lagging.venue)


def opening_line(live: LiveGame) -> str:
    """The first board's words: who plays which side from where, the time and the rating."""
    record = live.record
    parts = []
    # Each venue's board names the other server's player in plain text (see board_posts).
    for side in ("attackers", "defenders"):
        player = record.attackers if side == "attackers" else record.defenders
        verb = "attacks" if side == "attackers" else "defends"
        parts.append(f"<@{player.user_id}> {verb}")
    time = (
        "no time limit"
        if record.move_seconds is None
        else f"{describe_duration(record.move_seconds)} per move"
    )
    rated = "rated" if record.rated else "unrated"
    text = (
        f"**{live.game.variant.title}** from the lobby begins: {', '.join(parts)}; {time}, {rated}."
    )
    return clip(text, CONTENT)
