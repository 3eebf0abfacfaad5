"""The lobby shared by every server the bot is in, and the games it pairs.

Seeks and the lobby's list (who may play whom is :meth:`bot.storage.lobby.Seek.refusal`, the
one rule; this service adds each server's own: lobby on or off, its channels, variants and
times), blocks, and the games across servers: where each side plays when a pair is made (a
thread of the seeker's channel, or the channel itself where no thread may be opened), their
rematches, their adjournment when a venue is deleted and their resumption elsewhere, and the
signal that keeps the processes serving their two venues in step.

Discord-free: opening a thread, reading a server's name and whether a channel is still there
are asked of a :class:`VenueOpener` the Discord layer provides, which reports back how it went;
what follows is decided here. Each method returns what happened as plain data for the adapters
to show; they take the lobby's stored types (seeks, pairs, reaches) from here too, never from
storage.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Literal, Protocol

from bot.engine import Side
from bot.storage import (
    ChannelBusy,
    DatabaseUnavailable,
    GameRecord,
    GameStatus,
    NotFound,
    Participant,
    Place,
    ServerSettings,
    SideName,
    Storage,
    StorageError,
    Venue,
)
from bot.storage.lobby import DEFAULT_REACH as DEFAULT_REACH
from bot.storage.lobby import (
    LISTED,
    Blocked,
    InAGame,
    OutOfReach,
    OwnSeek,
    SeekClosed,
    SeekRequest,
)
from bot.storage.lobby import WIDEST_REACH as WIDEST_REACH
from bot.storage.lobby import Pairing as Pairing
from bot.storage.lobby import Seek as Seek
from bot.storage.lobby import Waiting as Waiting

from .durations import LOBBY_MOVE_SECONDS
from .errors import Refusal, Refused
from .games import GameHub, LiveGame, rematch_sides

log = logging.getLogger(__name__)

DEFAULT_LOBBY_TIME = 86400
"""Games across servers are often slow: a day per move unless the seeker says otherwise."""
GAMES = "games"
"""The database signal of a change to a game across servers (its payload: the game's id)."""
NO_THREAD = (
    "*(I may not open threads in this channel (I need the Create Public Threads permission), so "
    "this game is played here.)*"
)
"""The note a venue played in its channel keeps (stored with it, and said there first)."""
ADJOURNMENT = 3 * 86400
"""How long a player whose venue was deleted has to continue the game elsewhere."""
SIDES: tuple[SideName, SideName] = ("attackers", "defenders")


# ---------------------------------------------------------------------- venues, as Discord has them


class Opening(Enum):
    """How asking Discord for a venue's thread went."""

    OPENED = "opened"
    NO_PERMISSION = "no permission"
    """The bot may not open threads there (the channel itself is still reachable)."""
    IN_THREAD = "in a thread"
    """The channel is itself a thread, which cannot hold one."""
    GONE = "gone"
    """The channel is deleted, out of the bot's reach, or would not answer."""


@dataclass(frozen=True)
class Opened:
    """The thread a :class:`VenueOpener` opened (``thread_id``), or why none was."""

    how: Opening
    thread_id: int | None = None


@dataclass(frozen=True)
class VenueRequest:
    """A thread wanted in ``channel_id`` for ``player``'s side of a game against ``opponent``."""

    guild_id: int
    channel_id: int
    player: Participant
    opponent: Participant
    variant: str


class VenueOpener(Protocol):
    """What the lobby asks of Discord to place a game: the Discord layer's side of it."""

    async def guild_name(self, guild_id: int) -> str | None:
        """The server's name, ``None`` when it cannot be read (the bot left it)."""

    async def open_thread(self, request: VenueRequest) -> Opened:
        """Open a public thread for the game in the request's channel."""

    async def reachable(self, venue: Venue) -> bool:
        """Whether the venue's channel still exists for the bot (unsure: ``True``, so that a
        hiccup adjourns nothing)."""


def place_of(guild_id: int, guild_name: str, channel_id: int, opened: Opened) -> Place | None:
    """Where a side plays after asking for a thread in ``channel_id``: the thread; the channel
    itself, with a note saying why, where threads may not be opened; the channel itself when it
    is a thread; ``None`` when the channel is gone."""
    if opened.how is Opening.OPENED and opened.thread_id is not None:
        return Place(guild_id, guild_name, opened.thread_id)
    if opened.how is Opening.NO_PERMISSION:
        return Place(guild_id, guild_name, channel_id, NO_THREAD)
    if opened.how is Opening.IN_THREAD:
        return Place(guild_id, guild_name, channel_id)
    return None


# ---------------------------------------------------------------------- what happens


@dataclass(frozen=True)
class Call:
    """The player who does not move first, called in their own venue when their game begins
    (the board pings the player to move)."""

    venue: Venue
    player: Participant
    side: Side
    mover: Side


@dataclass(frozen=True)
class AcrossStarted:
    """A game across servers began, in its two venues: its first board goes to both."""

    live: LiveGame
    noted: tuple[Venue, ...]
    """Venues played in their channel rather than a thread: their note is said there first."""
    call: Call | None
    rematch_of: int | None = None


@dataclass(frozen=True)
class RematchAsked:
    """A player of a game across servers asks for its rematch: the question goes to the other
    player, in their venue."""

    old: GameRecord
    asker: Participant
    asker_venue: Venue
    opponent: Participant
    opponent_venue: Venue
    winner_defends: bool
    """The variant keeps the winner defending (Linnaeus's law 12) rather than swapping sides."""


@dataclass(frozen=True)
class RematchAnswer:
    """The other player's answer to a rematch across servers (lobbies checked if accepted)."""

    old: GameRecord
    venues: tuple[Venue, ...]
    answerer: Participant
    answerer_venue: Venue
    asker_venue: Venue
    accept: bool


@dataclass(frozen=True)
class Adjourned:
    """A game whose venue was deleted waits for its absent player until ``until``: the other
    one is told in their venue, the absent one by direct message."""

    live: LiveGame
    gone: Venue
    other: Venue | None
    """The venue still there (``None``: neither is)."""
    present: Participant | None
    """The player of ``other``."""
    absent: Participant
    until: int


@dataclass(frozen=True)
class Resumed:
    """A player whose venue was deleted continues the game at ``place``."""

    live: LiveGame
    place: Place
    player: Participant


@dataclass(frozen=True)
class Redraw:
    """A venue served here shows an older board than its game: the board again, there."""

    live: LiveGame
    venue: Venue


@dataclass(frozen=True)
class ShowEnd:
    """A venue served here has not shown how its game ended: the ending, there (then
    :meth:`LobbyService.end_shown`)."""

    record: GameRecord
    venue: Venue


@dataclass(frozen=True)
class LobbyList:
    """The lobby as a member sees it: the seeks they may play from here (at most
    :data:`LISTED`; none when ``refusal`` says why no seek may be played from here), how many
    of each variant, and their own seek."""

    seeks: tuple[Seek, ...]
    counts: tuple[tuple[str, int], ...]
    """Playable seeks per variant, by variant name."""
    own: Seek | None
    refusal: Refusal | None
    """Why no seek may be played from here (:class:`LobbyOff`, :class:`LobbyElsewhere`)."""


SeekState = Literal[
    "cancelled", "already cancelled", "replaced", "matched", "expired", "withdrawn", "closed"
]
"""What became of a seek its player tried to cancel: ``cancelled`` now, else why not (a seek
cancelled by the player's newer one is ``replaced``; ``closed``: none of these)."""


# ---------------------------------------------------------------------- refusals
# What the lobby refuses, as data: worded in compose/lobby.py.


@dataclass(frozen=True)
class OtherVenueGone(Refusal):
    """A rematch asked in a game across servers whose other player's thread is gone."""


@dataclass(frozen=True)
class TimeNotListed(Refusal):
    """A time per move the lobby does not offer."""


@dataclass(frozen=True)
class LobbyOff(Refusal):
    """This server has turned the lobby off: no seek from here."""


@dataclass(frozen=True)
class LobbyElsewhere(Refusal):
    """This server keeps the lobby to its ``channels``."""

    channels: tuple[int, ...]


@dataclass(frozen=True)
class VariantsOffered(Refusal):
    """This server offers only these ``variants`` in the lobby (their names)."""

    variants: tuple[str, ...]


@dataclass(frozen=True)
class TimesOffered(Refusal):
    """This server offers only these times per move (``None``: no limit) in the lobby."""

    times: tuple[int | None, ...]


@dataclass(frozen=True)
class StillPlaying(Refusal):
    """The player is playing game ``game_id`` (in ``channel_id``): no seek before it ends."""

    game_id: int
    channel_id: int


@dataclass(frozen=True)
class OwnSeekTaken(Refusal):
    """A player cannot play their own seek."""


@dataclass(frozen=True)
class BlockedEitherWay(Refusal):
    """One of the two players has blocked the other."""


@dataclass(frozen=True)
class SeekOutOfReach(Refusal):
    """The player's ``rating`` is outside the reach (``reach``, now) of the ``seek``."""

    seek: Seek
    reach: float
    rating: float


@dataclass(frozen=True)
class SeekNotOpen(Refusal):
    """The seek is no longer open (``listed``: one the lobby's list showed, looked up first)."""

    listed: bool = False


@dataclass(frozen=True)
class NotInAServer(Refusal):
    """A seek is played from a server's channel, not a direct message."""


@dataclass(frozen=True)
class NameWhomToBlock(Refusal):
    """Neither a player nor a game was named to block (or both were)."""


@dataclass(frozen=True)
class BlockingOneself(Refusal):
    """A player cannot block themself."""


@dataclass(frozen=True)
class BotsNeverSeek(Refusal):
    """Bots never play in the lobby: nothing to block."""


@dataclass(frozen=True)
class NoSuchGame(Refusal):
    """There is no game ``game_id``."""

    game_id: int


@dataclass(frozen=True)
class NotYourGame(Refusal):
    """The player did not play game ``game_id``."""

    game_id: int


@dataclass(frozen=True)
class AIOpponent(Refusal):
    """The opponent to block was the AI, which never plays in the lobby."""


@dataclass(frozen=True)
class PlayedOneself(Refusal):
    """The player played themself in the game named: nobody to block."""


@dataclass(frozen=True)
class NobodyBlocked(Refusal):
    """The player has blocked nobody."""


@dataclass(frozen=True)
class NotBlocked(Refusal):
    """``typed`` names none of the ``blocked`` players the player has blocked."""

    typed: str
    blocked: int


@dataclass(frozen=True)
class NotAPlayer(Refusal):
    """Only the players of a game ask for its rematch (``answering``: or answer it)."""

    answering: bool = False


@dataclass(frozen=True)
class LobbyOffThere(Refusal):
    """The server ``guild_name`` turned games with other servers off: no rematch across."""

    guild_name: str


@dataclass(frozen=True)
class VenueTaken(Refusal):
    """A new game began meanwhile in one of the two threads of a rematch across servers."""


@dataclass(frozen=True)
class ResumeFromServer(Refusal):
    """An adjourned game ``game_id`` continues from a server's channel, not a direct message."""

    game_id: int


@dataclass(frozen=True)
class LobbyOffHere(Refusal):
    """This server turned games with other servers off: the game continues in another."""


@dataclass(frozen=True)
class NoVenueHere(Refusal):
    """The game cannot be opened in this channel."""


@dataclass(frozen=True)
class ChannelHasGame(Refusal):
    """This channel has a game of its own: the adjourned game continues elsewhere."""


# ---------------------------------------------------------------------- the server's own rules


def check_server(settings: ServerSettings, channel_id: int, parent_id: int | None) -> None:
    """Refuse a seek this server does not take here (:class:`LobbyOff`,
    :class:`LobbyElsewhere`)."""
    if not settings.lobby:
        raise Refused(LobbyOff())
    allowed = settings.lobby_channels
    if allowed and channel_id not in allowed and parent_id not in allowed:
        raise Refused(LobbyElsewhere(tuple(sorted(allowed))))


def check_offer(settings: ServerSettings, variant: str, seconds: int | None) -> None:
    """Refuse a variant or a time this server has left out of the lobby."""
    if settings.lobby_variants and variant not in settings.lobby_variants:
        raise Refused(VariantsOffered(tuple(sorted(settings.lobby_variants))))
    if settings.lobby_times and seconds not in settings.lobby_times:
        raise Refused(TimesOffered(tuple(sorted(settings.lobby_times))))


def offered(settings: ServerSettings, seek: Seek) -> bool:
    """Whether this server offers a seek's variant and time."""
    return (not settings.lobby_variants or seek.variant in settings.lobby_variants) and (
        not settings.lobby_times or seek.move_seconds in settings.lobby_times
    )


def _name_of(player: Participant) -> str:
    """The name a blocked player is picked by (as the autocomplete lists them)."""
    return player.display_name or f"player {player.user_id}"


class LobbyService:
    """Seeks, blocks and the games across servers, on the database (``storage``) and the
    live games (``hub``), with Discord's side of their venues (``opener``)."""

    def __init__(self, storage: Storage, hub: GameHub, opener: VenueOpener) -> None:
        self.storage = storage
        self.hub = hub
        self.opener = opener

    # ------------------------------------------------------------------ seeking

    async def seek(
        self,
        player: Participant,
        guild_id: int,
        channel_id: int,
        parent_id: int | None,
        variant: str,
        seconds: int | None,
        rated: bool,
        reach: int | None,
        *,
        answering: int | None = None,
    ) -> Waiting | Pairing:
        """Seek a game from ``channel_id`` (a thread of ``parent_id``), or play the open seek
        ``answering``: the seek waits in the lobby, or is paired at once (the game is then
        started with :meth:`start`). :class:`Refused` says why it may not."""
        if seconds not in LOBBY_MOVE_SECONDS:  # few, so that seeks meet
            raise Refused(TimeNotListed())
        settings = await self.storage.settings.get(guild_id)
        check_server(settings, channel_id, parent_id)
        check_offer(settings, variant, seconds)
        request = SeekRequest(player, guild_id, channel_id, variant, seconds, rated, reach)
        try:
            return await self.storage.lobby.seek(request, answering=answering)
        except InAGame as playing:
            raise Refused(StillPlaying(playing.game_id, playing.channel_id)) from None
        except OwnSeek:
            raise Refused(OwnSeekTaken()) from None
        except Blocked:
            raise Refused(BlockedEitherWay()) from None
        except OutOfReach as refused:
            raise Refused(SeekOutOfReach(refused.seek, refused.reach, refused.rating)) from None
        except SeekClosed:
            raise Refused(SeekNotOpen()) from None

    async def answer(
        self,
        player: Participant,
        guild_id: int | None,
        channel_id: int,
        parent_id: int | None,
        seek_id: int,
    ) -> Waiting | Pairing:
        """Play a seek listed by the lobby: a seek of the same game, answering that one."""
        if guild_id is None:
            raise Refused(NotInAServer())
        seek = await self.storage.lobby.get(seek_id)
        if seek is None or seek.status != "open":
            raise Refused(SeekNotOpen(listed=True))
        return await self.seek(
            player,
            guild_id,
            channel_id,
            parent_id,
            seek.variant,
            seek.move_seconds or DEFAULT_LOBBY_TIME,
            seek.rated,
            None,
            answering=seek.id,
        )

    async def cancel(self, user_id: int, seek_id: int) -> SeekState:
        """Cancel a player's seek; if it is no longer open, what became of it."""
        if await self.storage.lobby.cancel(user_id, seek_id) is not None:
            return "cancelled"
        seek = await self.storage.lobby.get(seek_id)
        status = "" if seek is None else seek.status
        if status == "cancelled":
            newer = await self.storage.lobby.open_seek_of(user_id)
            return "already cancelled" if newer is None else "replaced"
        ended: dict[str, SeekState] = {
            "matched": "matched",
            "expired": "expired",
            "withdrawn": "withdrawn",
        }
        return ended.get(status, "closed")

    async def listing(
        self,
        user_id: int,
        guild_id: int | None,
        channel_id: int,
        parent_id: int | None,
        variant: str | None,
    ) -> LobbyList:
        """The seeks a member could play from here: the lobby's rule (no own seek, nobody
        blocked either way, their rating within each seek's reach) and this server's offer."""
        refusal: Refusal | None = None
        settings = None
        if guild_id is not None:
            settings = await self.storage.settings.get(guild_id)
            try:
                check_server(settings, channel_id, parent_id)
            except Refused as refused:
                refusal = refused.refusal
        seeks = await self.storage.lobby.playable(user_id, variant)
        if settings is not None:
            seeks = [seek for seek in seeks if offered(settings, seek)]
        counts = Counter(seek.variant for seek in seeks)
        own = await self.storage.lobby.open_seek_of(user_id)
        return LobbyList(
            seeks=() if refusal else tuple(seeks[:LISTED]),
            counts=tuple(sorted(counts.items())),
            own=own,
            refusal=refusal,
        )

    # ------------------------------------------------------------------ blocks

    async def block_target(
        self,
        user_id: int,
        player: Participant | None,
        *,
        player_is_bot: bool = False,
        game_id: int | None = None,
    ) -> Participant:
        """Whom ``user_id`` means to block: a player picked, or their opponent in a game."""
        if (player is None) == (game_id is None):
            raise Refused(NameWhomToBlock())
        if game_id is not None:
            return await self.opponent(user_id, game_id)
        assert player is not None
        if player.user_id == user_id:
            raise Refused(BlockingOneself())
        if player_is_bot:
            raise Refused(BotsNeverSeek())
        return player

    async def opponent(self, user_id: int, game_id: int) -> Participant:
        """The person ``user_id`` played in game ``game_id``, or why there is none to block."""
        try:
            record = await self.storage.games.get(game_id)
        except NotFound:
            raise Refused(NoSuchGame(game_id)) from None
        side = record.side_of(user_id)
        if side is None:
            raise Refused(NotYourGame(game_id))
        other = record.player("defenders" if side == "attackers" else "attackers")
        if other.is_ai or other.user_id is None:
            raise Refused(AIOpponent())
        if other.user_id == user_id:
            raise Refused(PlayedOneself())
        return other

    async def block(self, user_id: int, other: Participant) -> bool:
        """Never pair ``user_id`` with ``other`` (either way); whether the block is new."""
        return await self.storage.lobby.block(user_id, other)

    async def blocked(self, user_id: int) -> list[Participant]:
        """The players ``user_id`` has blocked, most recent first."""
        return await self.storage.lobby.blocked(user_id)

    async def unblock(self, user_id: int, typed: str) -> Participant:
        """Lift the block of the player ``typed`` names (their id, mention or name, from the
        player's own blocks: a member of another server cannot be picked from this one)."""
        blocked = await self.storage.lobby.blocked(user_id)
        if not blocked:
            raise Refused(NobodyBlocked())
        wanted = typed.strip().removeprefix("<@").removesuffix(">").lstrip("!")
        chosen = next(
            (
                other
                for other in blocked
                if str(other.user_id) == wanted or _name_of(other).casefold() == wanted.casefold()
            ),
            None,
        )
        if chosen is None or chosen.user_id is None:
            raise Refused(NotBlocked(typed, len(blocked)))
        await self.storage.lobby.unblock(user_id, chosen.user_id)
        return chosen

    # ------------------------------------------------------------------ starting

    async def start(self, pairing: Pairing) -> AcrossStarted | None:
        """Place each side (a thread in the seeker's channel, or the channel itself where
        threads may not be opened) and create the game; ``None`` when a venue could not be
        had (the seek whose channel failed is withdrawn, the other one waits in the lobby
        again)."""
        places: dict[SideName, Place] = {}
        for side in SIDES:
            place = await self._place(pairing, side)
            if place is None:
                await self._give_up(pairing, side)
                return None
            places[side] = place
        try:
            record, venues = await self.storage.games.create_across(
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
        return self._started(self.hub.adopt(record, venues))

    @staticmethod
    def _started(live: LiveGame, rematch_of: int | None = None) -> AcrossStarted:
        mover = live.game.turn
        waiting = live.venue(mover.other)
        call = (
            None
            if waiting is None
            else Call(waiting, live.participant(mover.other), mover.other, mover)
        )
        noted = tuple(venue for venue in live.venues if venue.note is not None)
        return AcrossStarted(live, noted, call, rematch_of)

    async def _place(self, pairing: Pairing, side: SideName) -> Place | None:
        seek = pairing.seek_of(side)
        other = pairing.seek_of("defenders" if side == "attackers" else "attackers")
        guild_name = await self.opener.guild_name(seek.guild_id)
        if guild_name is None:
            return None
        request = VenueRequest(
            seek.guild_id, seek.channel_id, seek.player, other.player, seek.variant
        )
        opened = await self.opener.open_thread(request)
        return place_of(seek.guild_id, guild_name, seek.channel_id, opened)

    async def _give_up(self, pairing: Pairing, side: SideName) -> None:
        """The pair cannot be played: the seek of ``side`` is withdrawn, the other waits again."""
        failed = pairing.seek_of(side)
        waiting = pairing.seek_of("defenders" if side == "attackers" else "attackers")
        log.warning(
            "the lobby's pair of seeks %d and %d could not start: the channel of seek %d"
            " takes no game",
            pairing.attackers.id,
            pairing.defenders.id,
            failed.id,
        )
        with contextlib.suppress(StorageError):
            await self.storage.lobby.unpair(pairing, withdraw=failed.id, reopen=waiting.id)

    # ------------------------------------------------------------------ rematches

    async def ask_rematch(
        self, old: GameRecord, venues: tuple[Venue, ...], user_id: int
    ) -> RematchAsked:
        """``user_id`` asks for the rematch of a game across servers (``old``, played in
        ``venues``): it goes to the other player, where both servers still take such games."""
        mine = next((v for v in venues if old.player(v.side).user_id == user_id), None)
        if mine is None:
            raise Refused(NotAPlayer())
        theirs = next(v for v in venues if v.side != mine.side)
        await self.check_lobbies(venues)
        attackers, defenders = rematch_sides(old)
        return RematchAsked(
            old=old,
            asker=old.player(mine.side),
            asker_venue=mine,
            opponent=old.player(theirs.side),
            opponent_venue=theirs,
            winner_defends=(attackers, defenders) == (old.attackers, old.defenders),
        )

    async def answer_rematch(self, game_id: int, user_id: int, accept: bool) -> RematchAnswer:
        """The other player's answer to a rematch of game ``game_id``; accepted only while both
        servers still take games across servers (then :meth:`rematch` starts it)."""
        record = await self.storage.games.get(game_id)
        venues = await self.storage.games.venues(game_id)
        mine = next((v for v in venues if record.player(v.side).user_id == user_id), None)
        if mine is None:
            raise Refused(NotAPlayer(answering=True))
        theirs = next(v for v in venues if v.side != mine.side)
        if accept:
            await self.check_lobbies(venues)
        return RematchAnswer(record, venues, record.player(mine.side), mine, theirs, accept)

    async def check_lobbies(self, venues: tuple[Venue, ...]) -> None:
        """A server that turned the lobby off keeps its running games, and takes no new ones:
        no rematch across servers then."""
        for venue in venues:
            if not (await self.storage.settings.get(venue.guild_id)).lobby:
                raise Refused(LobbyOffThere(venue.guild_name))

    async def rematch(self, old: GameRecord, venues: tuple[Venue, ...]) -> AcrossStarted:
        """Start the rematch of a game across servers in the same two venues."""
        await self.check_lobbies(venues)
        attackers, defenders = rematch_sides(old)
        by_player = {old.player(v.side): v for v in venues}
        places: dict[SideName, Place] = {}
        for side, player in zip(SIDES, (attackers, defenders), strict=True):
            venue = by_player[player]
            places[side] = Place(venue.guild_id, venue.guild_name, venue.channel_id, venue.note)
        try:
            record, made = await self.storage.games.create_across(
                attackers=attackers,
                defenders=defenders,
                variant=old.variant,
                move_seconds=old.move_seconds,
                rated=True,  # as a rematch in one channel: storage decides whether it counts
                places=places,
            )
        except ChannelBusy:
            raise Refused(VenueTaken()) from None
        return self._started(self.hub.adopt(record, made), rematch_of=old.id)

    # ------------------------------------------------------------------ venues deleted

    async def check_guild(self, guild_id: int) -> list[Adjourned]:
        """After a channel or thread of a server was deleted, or the bot left it: adjourn each
        game under way whose venue there is gone."""
        adjourned = []
        for venue in await self.storage.games.venues_in_guild(guild_id):
            if await self.opener.reachable(venue):
                continue
            live = await self.hub.refresh(venue.game_id)
            found = None if live is None else await self.venue_gone(live, venue)
            if found is not None:
                adjourned.append(found)
        return adjourned

    async def check_venue(self, live: LiveGame, venue: Venue) -> Adjourned | None:
        """A venue's channel could not be found: adjourn the game if it is really gone."""
        return None if await self.opener.reachable(venue) else await self.venue_gone(live, venue)

    async def venue_gone(self, live: LiveGame, venue: Venue) -> Adjourned | None:
        """Adjourn a game whose venue was deleted: the absent player forfeits unless they
        continue the game elsewhere within :data:`ADJOURNMENT` (``/tafl board``). ``None`` if
        it was adjourned already (by another process, or a racing post)."""
        until = int(self.storage.db.now()) + ADJOURNMENT
        if not await self.storage.games.adjourn(live.id, venue.side, until):
            return None
        log.warning(
            "game %d: the venue of the %s (channel %d) is gone; adjourned",
            live.id,
            venue.side,
            venue.channel_id,
        )
        fresh = await self.hub.refresh(live.id) or live
        await self.changed(live.id)
        if fresh.adjourned is None:
            return None
        other = next((v for v in fresh.venues if v.side != venue.side), None)
        present = fresh.participant(Side(other.side)) if other is not None else None
        absent = fresh.participant(Side(venue.side))
        return Adjourned(
            live=fresh,
            gone=venue,
            other=other,
            present=present,
            absent=absent,
            until=until,
        )

    async def may_resume(self, record: GameRecord, guild_id: int | None) -> None:
        """Whether an adjourned game may continue where its player asks (``/tafl board``): in
        a server that takes games with other servers."""
        if guild_id is None:
            raise Refused(ResumeFromServer(record.id))
        if not (await self.storage.settings.get(guild_id)).lobby:
            raise Refused(LobbyOffHere())

    async def resume(
        self,
        record: GameRecord,
        venue: Venue,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        *,
        in_thread: bool,
    ) -> Resumed:
        """The player of ``venue`` (deleted) continues the game in ``channel_id``: in that
        thread, or in a thread of that channel where one may be opened (else the channel)."""
        mine = record.player(venue.side)
        place: Place | None = Place(guild_id, guild_name, channel_id)
        if not in_thread:
            other = record.player("defenders" if venue.side == "attackers" else "attackers")
            request = VenueRequest(guild_id, channel_id, mine, other, record.variant)
            opened = await self.opener.open_thread(request)
            place = place_of(guild_id, guild_name, channel_id, opened)
        if place is None:
            raise Refused(NoVenueHere())
        try:
            await self.storage.games.resume_at(record.id, venue.side, place)
        except ChannelBusy:
            raise Refused(ChannelHasGame()) from None
        except NotFound:
            raise await self.hub.game_over(record.id) from None
        live = await self.hub.refresh(record.id)
        if live is None:
            raise await self.hub.game_over(record.id)
        return Resumed(live, place, mine)

    # ------------------------------------------------------------------ keeping in step

    async def changed(self, game_id: int) -> None:
        """Tell the other processes that a game across servers changed (a courtesy: a missed
        signal is made up for by their timers)."""
        with contextlib.suppress(DatabaseUnavailable):
            await self.storage.db.signal(GAMES, str(game_id))

    def to_catch_up(self, payload: str | None) -> list[int]:
        """The games a signal from another process asks this one to catch up with (``None``:
        every game across servers this process plays, since some signals may have been
        missed)."""
        if payload is None:
            return [live.id for live in self.hub.active() if live.across]
        return [int(payload)] if payload.isdigit() else []

    async def catch_up(self, game_id: int) -> None:
        """Rebuild a game another process changed (quietly: the next signal or timer retries)."""
        try:
            await self.hub.refresh(game_id)
        except StorageError as error:
            log.info("could not catch up with game %d: %s", game_id, error)

    async def lagging(self) -> list[Redraw | ShowEnd]:
        """Every venue (served here) that shows an older position than its game, or has not
        shown how it ended: the process that changed the game stopped before it could."""
        found: list[Redraw | ShowEnd] = []
        for record, venue in await self.storage.games.lagging_venues():
            log.info(
                "game %d: its board in channel %d lagged behind; posted again",
                record.id,
                venue.channel_id,
            )
            if record.status is not GameStatus.ACTIVE:
                found.append(ShowEnd(record, venue))
                continue
            live = await self.hub.refresh(record.id)
            if live is not None:
                found.append(Redraw(live, venue))
        return found

    async def end_shown(self, record: GameRecord, venue: Venue) -> None:
        """A venue has shown how its game ended."""
        await self.storage.games.set_venue_board(
            record.id, venue.side, venue.board_message_id or 0, record.ply, end=True
        )
