"""Starting the games the lobby pairs, and keeping their two venues in step.

A pair from the lobby becomes one game played in two servers. The process that made the pair
(any process: the one that answered the second seek, or the lobby's timer) opens a thread for
the game in each seeker's channel (Discord's REST API takes any channel from any process), or
plays it in the channel itself where it may not open threads, creates the game with a venue per
side, and posts the first board in both.

From then on every process that changes the game posts the new board in both venues, and
signals the change through the database (``games``): a process serving the other venue catches
up at once, so that its player's next move, menu or button meets the position they see. A
restart loses nothing: a venue whose board lags behind the game (its process stopped between
the move and the board) is redrawn by the timer of the process that serves it.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.engine import Side, get_variant
from bot.storage import (
    ChannelBusy,
    DatabaseUnavailable,
    GameRecord,
    GameStatus,
    NotFound,
    Participant,
    Place,
    SideName,
    StorageError,
    Venue,
)
from bot.storage.lobby import Pairing

from .app.durations import describe_duration
from .app.errors import UserError
from .app.games import LiveGame, adjourned_words, rematch_sides
from .app.wording import game_over, plain_name
from .limits import CONTENT, clip
from .present import stranger
from .table import resolve_channel, venue_lost
from .venue import THREAD_ARCHIVE_MINUTES, thread_name
from .views import across_rematch_view

if TYPE_CHECKING:
    from .client import TaflBot

log = logging.getLogger(__name__)

GAMES = "games"
"""The database signal of a change to a game across servers (its payload: the game's id)."""
NO_THREAD = (
    "*(I may not open threads in this channel (I need the Create Public Threads permission), so "
    "this game is played here.)*"
)
CAUGHT_UP = "*(The board as it stands: the last one could not be shown here in time.)*"
PUBLIC_THREAD: Literal[11] = 11
"""Discord's channel type of a public thread."""


ADJOURNMENT = 3 * 86400
"""How long a player whose venue was deleted has to continue the game elsewhere."""


class LobbyDesk:
    """Games across servers: started from pairs, and their venues kept up to date."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ starting

    async def start(self, pairing: Pairing) -> LiveGame | None:
        """Open a venue for each side, create the game and post its first board in both;
        ``None`` when a venue could not be had (the seek whose channel failed is withdrawn,
        the other one waits in the lobby again)."""
        places: dict[str, Place] = {}
        for side in ("attackers", "defenders"):
            place = await self._place(pairing, side)
            if place is None:
                await self._give_up(pairing, side)
                return None
            places[side] = place
        try:
            record, venues = await self.bot.storage.games.create_across(
                attackers=pairing.attackers.player,
                defenders=pairing.defenders.player,
                variant=pairing.attackers.variant,
                move_seconds=pairing.attackers.move_seconds,
                rated=pairing.attackers.rated,
                places={"attackers": places["attackers"], "defenders": places["defenders"]},
                pairing=pairing,
            )
        except ChannelBusy as error:
            # A game started meanwhile in a channel this one was to be played in.
            busy = next(
                side for side, place in places.items() if place.channel_id == error.channel_id
            )
            await self._give_up(pairing, busy)
            return None
        live = self.bot.hub.adopt(record, venues)
        for venue in venues:
            if venue.note is not None:
                await self.bot.table.tell(venue.channel_id, venue.note)
        await self.bot.play.show(live, [opening_line(live)])
        await self._call_waiting(live)
        await self.changed(live.id)
        return live

    async def _call_waiting(self, live: LiveGame) -> None:
        """The board pings the player to move; the other player was promised a ping too, in
        their own thread, saying who moves first."""
        mover = live.game.turn
        venue = live.venue(mover.other)
        if venue is None:
            return
        player = live.participant(mover.other)
        await self.bot.table.tell(
            venue.channel_id,
            f"<@{player.user_id}>, your game from the lobby has begun here: you play the "
            f"{mover.other.value}; {stranger(live, mover)} moves first.",
            venue.guild_id,
            discord.AllowedMentions(users=[discord.Object(player.user_id or 0)]),
        )

    # ------------------------------------------------------------------ rematches

    async def ask_rematch(
        self, interaction: discord.Interaction, old: GameRecord, venues: tuple[Venue, ...]
    ) -> None:
        """The Rematch button under a game across servers: the question goes to the other
        player, in their own venue; the asker is told where it went."""
        mine = next((v for v in venues if old.player(v.side).user_id == interaction.user.id), None)
        if mine is None:
            raise UserError("Only the players of that game can ask for a rematch.")
        theirs = next(v for v in venues if v.side != mine.side)
        opponent = old.player(theirs.side)
        await self.check_lobbies(venues)
        channel = await resolve_channel(self.bot, theirs.channel_id, theirs.guild_id)
        if channel is None:
            raise UserError("The other player's thread is gone: seek a new game with `/tafl seek`.")
        asker = f"{plain_name(old.player(mine.side))} ({mine.guild_name})"
        attackers, defenders = rematch_sides(old)
        swap = "with the sides swapped"
        if (attackers, defenders) == (old.attackers, old.defenders):
            swap = "the winner defending again (Linnaeus's law 12)"
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

    async def check_lobbies(self, venues: tuple[Venue, ...]) -> None:
        """A server that turned the lobby off keeps its running games, and takes no new ones:
        no rematch across servers then."""
        for venue in venues:
            if not (await self.bot.storage.settings.get(venue.guild_id)).lobby:
                raise UserError(
                    f"{venue.guild_name} has turned games with other servers off: no rematch "
                    "across servers (seek a new game with `/tafl seek`)."
                )

    async def rematch(self, old: GameRecord, venues: tuple[Venue, ...]) -> LiveGame:
        """Start the rematch of a game across servers in the same two venues."""
        await self.check_lobbies(venues)
        attackers, defenders = rematch_sides(old)
        by_player = {old.player(v.side): v for v in venues}
        places: dict[SideName, Place] = {}
        sides: tuple[tuple[SideName, Participant], ...] = (
            ("attackers", attackers),
            ("defenders", defenders),
        )
        for side, player in sides:
            venue = by_player[player]
            places[side] = Place(venue.guild_id, venue.guild_name, venue.channel_id, venue.note)
        try:
            record, made = await self.bot.storage.games.create_across(
                attackers=attackers,
                defenders=defenders,
                variant=old.variant,
                move_seconds=old.move_seconds,
                rated=True,  # as a rematch in one channel: storage decides whether it counts
                places=places,
            )
        except ChannelBusy:
            raise UserError(
                "A new game has begun in one of the two threads meanwhile: seek another with "
                "`/tafl seek`."
            ) from None
        live = self.bot.hub.adopt(record, made)
        await self.bot.play.show(live, [f"Rematch of game #{old.id}. " + opening_line(live)])
        await self._call_waiting(live)
        await self.changed(live.id)
        return live

    async def _place(self, pairing: Pairing, side: str) -> Place | None:
        """A thread for the game in the seeker's channel (or, where threads may not be
        opened, the channel itself); ``None`` if the channel is gone."""
        seek = pairing.attackers if side == "attackers" else pairing.defenders
        other = pairing.defenders if side == "attackers" else pairing.attackers
        guild_name = await self._guild_name(seek.guild_id)
        if guild_name is None:
            return None
        title = get_variant(seek.variant).title
        name = thread_name(plain_name(seek.player), plain_name(other.player), title)
        return await self._open(seek.guild_id, guild_name, seek.channel_id, name)

    async def _open(
        self, guild_id: int, guild_name: str, channel_id: int, name: str
    ) -> Place | None:
        """A thread called ``name`` in a channel for a venue (or the channel itself where
        threads may not be opened); ``None`` if the channel is gone."""
        try:
            data = await self.bot.http.start_thread_without_message(
                channel_id,
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=PUBLIC_THREAD,
                reason="a game from the tafl lobby",
            )
        except discord.Forbidden as error:
            if venue_lost(error):
                return None
            return Place(guild_id, guild_name, channel_id, NO_THREAD)
        except discord.HTTPException as error:
            # A thread cannot hold a thread (the seek came from inside one), or the channel is
            # gone: in the former case the game is played there.
            if error.status == 400:
                return Place(guild_id, guild_name, channel_id)
            log.warning("cannot open a venue in channel %d: %s", channel_id, error)
            return None
        return Place(guild_id, guild_name, int(data["id"]))

    async def _guild_name(self, guild_id: int) -> str | None:
        guild = self.bot.get_guild(guild_id)
        if guild is not None and guild.name:
            return guild.name
        try:
            return (await self.bot.fetch_guild(guild_id)).name
        except discord.HTTPException as error:
            log.warning("cannot read server %d: %s", guild_id, error)
            return None

    async def _give_up(self, pairing: Pairing, side: str) -> None:
        """The pair cannot be played: the seek of ``side`` is withdrawn, the other waits again."""
        failed = pairing.attackers if side == "attackers" else pairing.defenders
        waiting = pairing.defenders if side == "attackers" else pairing.attackers
        log.warning(
            "the lobby's pair of seeks %d and %d could not start: the channel of seek %d"
            " takes no game",
            pairing.attackers.id,
            pairing.defenders.id,
            failed.id,
        )
        with contextlib.suppress(StorageError):
            await self.bot.storage.lobby.unpair(pairing, withdraw=failed.id, reopen=waiting.id)

    # ------------------------------------------------------------------ venues deleted

    async def check_guild(self, guild_id: int) -> None:
        """After a channel or thread of a server was deleted, or the bot left it: adjourn each
        game whose venue there is gone."""
        for venue in await self.bot.storage.games.venues_in_guild(guild_id):
            if await self._exists(venue):
                continue
            live = await self.bot.hub.refresh(venue.game_id)
            if live is not None:
                await self.venue_gone(live, venue)

    async def check_venue(self, live: LiveGame, venue: Venue) -> None:
        """A venue's channel could not be found: adjourn the game if it is really gone."""
        if not await self._exists(venue):
            await self.venue_gone(live, venue)

    async def _exists(self, venue: Venue) -> bool:
        """Whether the bot can still reach a venue's channel (asked of Discord; an answer
        other than "unknown" or "no access" counts as yes, so a hiccup adjourns nothing)."""
        try:
            await self.bot.http.get_channel(venue.channel_id)
        except (discord.NotFound, discord.Forbidden) as error:
            return not venue_lost(error)
        except discord.HTTPException:
            return True
        return True

    async def venue_gone(self, live: LiveGame, venue: Venue) -> None:
        """Adjourn a game whose venue was deleted: the other player is told in their venue,
        the absent one by direct message, and the absent one forfeits unless they continue
        the game elsewhere within :data:`ADJOURNMENT` (``/tafl board``)."""
        until = int(self.bot.storage.db.now()) + ADJOURNMENT
        if not await self.bot.storage.games.adjourn(live.id, venue.side, until):
            return  # already adjourned (by another process, or a racing post)
        log.warning(
            "game %d: the venue of the %s (channel %d) is gone; adjourned",
            live.id,
            venue.side,
            venue.channel_id,
        )
        fresh = await self.bot.hub.refresh(live.id) or live
        await self.changed(live.id)
        words = adjourned_words(fresh) if fresh.adjourned else None
        if words is None:
            return
        other = next((v for v in fresh.venues if v.side != venue.side), None)
        if other is not None:
            present = fresh.participant(Side(other.side))
            await self.bot.table.tell(
                other.channel_id,
                f"<@{present.user_id}>, {words[0].lower()}{words[1:]}",
                other.guild_id,
                discord.AllowedMentions(users=[discord.Object(present.user_id or 0)]),
            )
        absent = fresh.participant(Side(venue.side))
        if absent.user_id is not None:
            await self.bot.table.direct(
                absent.user_id,
                f"Your game #{live.id} ({live.game.variant.title}) was played in a "
                f"{'thread' if venue.note is None else 'channel'} of {venue.guild_name} that "
                f"was deleted. Continue it with `/tafl board` in a channel of any server I am "
                f"in, by <t:{until}:f>; otherwise you forfeit it.",
            )

    async def resume(
        self, interaction: discord.Interaction, record: GameRecord, venue: Venue
    ) -> None:
        """``/tafl board`` by a player whose venue was deleted, in a channel without a game:
        the game continues here (in a thread of this channel where the bot may open one)."""
        if interaction.guild_id is None or interaction.guild is None:
            raise UserError(
                f"Continue game #{record.id} from a channel of a server, not a direct message."
            )
        settings = await self.bot.storage.settings.get(interaction.guild_id)
        if not settings.lobby:
            raise UserError(
                "This server has turned games with other servers off: continue the game in "
                "another server."
            )
        await interaction.response.defer(thinking=True, ephemeral=True)
        channel = interaction.channel
        place: Place | None
        if isinstance(channel, discord.Thread):
            place = Place(interaction.guild_id, interaction.guild.name, channel.id)
        else:
            mine = record.player(venue.side)
            other = record.player("defenders" if venue.side == "attackers" else "attackers")
            name = thread_name(
                plain_name(mine), plain_name(other), get_variant(record.variant).title
            )
            place = await self._open(
                interaction.guild_id, interaction.guild.name, interaction.channel_id or 0, name
            )
            if place is None:
                raise UserError("I cannot open the game here: try another channel.")
        try:
            await self.bot.storage.games.resume_at(record.id, venue.side, place)
        except ChannelBusy:
            raise UserError(
                "This channel has a game of its own: continue in another one."
            ) from None
        except NotFound:
            raise await self.bot.hub.game_over(record.id) from None
        live = await self.bot.hub.refresh(record.id)
        if live is None:
            raise await self.bot.hub.game_over(record.id)
        mover = plain_name(record.player(venue.side))
        await self.bot.play.show(
            live, [f"{mover} continues game #{live.id} from {place.guild_name}: it goes on."]
        )
        await interaction.followup.send(
            f"Game #{live.id} goes on in <#{place.channel_id}>.", ephemeral=True
        )

    # ------------------------------------------------------------------ keeping in step

    async def changed(self, game_id: int) -> None:
        """Tell the other processes that a game across servers changed (a courtesy: a missed
        signal is made up for by their timers)."""
        with contextlib.suppress(DatabaseUnavailable):
            await self.bot.storage.db.signal(GAMES, str(game_id))

    def heard(self, payload: str | None) -> None:
        """A signal from another process: catch up with that game (``None``: with every game
        across servers this process plays, since some signals may have been missed)."""
        if payload is None:
            ids = [live.id for live in self.bot.hub.active() if live.across]
        elif payload.isdigit():
            ids = [int(payload)]
        else:
            return
        for game_id in ids:
            self.bot.spawn(self._catch_up(game_id), f"catch-up-{game_id}")

    async def _catch_up(self, game_id: int) -> None:
        try:
            await self.bot.hub.refresh(game_id)
        except StorageError as error:
            log.info("could not catch up with game %d: %s", game_id, error)

    async def redraw_lagging(self) -> None:
        """Post the board again in every venue (served here) that shows an older position
        than its game, or has not shown how it ended: the process that changed the game
        stopped before it could (a timer calls this)."""
        for record, venue in await self.bot.storage.games.lagging_venues():
            log.info(
                "game %d: its board in channel %d lagged behind; posted again",
                record.id,
                venue.channel_id,
            )
            if record.status is GameStatus.ACTIVE:
                live = await self.bot.hub.refresh(record.id)
                if live is not None:
                    await self.bot.play.show(live, [CAUGHT_UP], only=venue.side, ping=False)
                continue
            await self.bot.table.tell(venue.channel_id, game_over(record))
            await self.bot.storage.games.set_venue_board(
                record.id, venue.side, venue.board_message_id or 0, record.ply, end=True
            )


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
