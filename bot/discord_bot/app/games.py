"""Live games: the engine's view of every active game, kept in step with the database.

The database is the source of truth. A move is checked by the engine, committed to the database
(with the ply it expects, so two racing submissions cannot both land), and only then applied to
the in-memory game and announced. Nothing here talks to Discord, so it is tested directly.

What the hub's operations return are events of plain data (:class:`Played`, :class:`Ended`,
:class:`TakenBack`, :class:`OfferMade`, :class:`Declined`), each with the game as it stands
(:class:`GameState`): everything the words and boards that announce it need, looked up here
(the names, the board options of the people the boards are drawn for, who is told of their turn
by direct message), so that composing and sending them asks nothing more of the hub.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from bot.engine import (
    Game,
    GameOverError,
    MoveResult,
    Side,
    TaflError,
    get_variant,
    square_name,
)
from bot.storage import (
    Conflict,
    DatabaseUnavailable,
    FinishedGame,
    GameNotActive,
    GameOutcome,
    GameRecord,
    GameStatus,
    OfferClosed,
    OfferKind,
    Participant,
    PlayerPreferences,
    PositionChanged,
    SideName,
    Storage,
    StorageError,
    TableEnding,
    Venue,
)

from .errors import Refusal, Refused

log = logging.getLogger(__name__)

ENDED_KEPT = 64
"""Games let go lately (ended), kept to record their last boards (posted after the end)."""
OFFER_COOLDOWN_SECONDS = 60
"""After a draw offer or takeback request is declined, how long before the same player may ask
again, unless a move is played first (which makes it a new question)."""


@dataclass(frozen=True)
class Offer:
    """A pending draw offer or takeback request: who made it, at which ply, and the message
    that carries its buttons (so it can be marked withdrawn when it stops being valid)."""

    kind: OfferKind
    user_id: int
    ply: int
    message_id: int | None = None


# ---------------------------------------------------------------------------- refusals
# What a player is told when the hub will not do what they asked, as data (worded in
# compose/board.py).


@dataclass(frozen=True)
class NotPlaying(Refusal):
    """The person is not a player of the game they acted on."""


@dataclass(frozen=True)
class NoGame(Refusal):
    """The channel has never had a game."""


@dataclass(frozen=True)
class GameOver(Refusal):
    """The game acted on has ended (``record``, as stored); ``new_game``: also say how to start
    another."""

    record: GameRecord
    new_game: bool = True


@dataclass(frozen=True)
class GameAdjourned(Refusal):
    """A game across servers waits for ``player``, whose venue (a thread, or a channel) in
    ``guild_name`` was deleted, to continue it elsewhere by ``deadline`` (or forfeit it)."""

    game_id: int
    player: Participant
    thread: bool
    guild_name: str
    deadline: datetime | None


@dataclass(frozen=True)
class OpponentAway(Refusal):
    """An offer in a game across servers whose other player's venue cannot be found (their
    thread is gone: the game waits for them)."""


@dataclass(frozen=True)
class NotYourTurn(Refusal):
    """A player tried to move on the other side's turn: ``mover`` is to move with ``side``
    (``across``: from another server, so named, never mentioned); ``played``: the asker's own
    last move, when that is what they sent again."""

    mover: Participant
    side: Side
    across: bool
    played: str | None = None


@dataclass(frozen=True)
class NotAITurn(Refusal):
    """The AI's move arrived on its opponent's turn."""


@dataclass(frozen=True)
class AlreadyOver(Refusal):
    """A move in a game the board has already ended."""


@dataclass(frozen=True)
class IllegalMove(Refusal):
    """A move the rules forbid, and the engine's reason: in its words (``reason``), and as
    what is wrong (``kind``) with the parts it quotes (``values``), for other words."""

    reason: str
    kind: str = ""
    values: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class MoveOvertaken(Refusal):
    """The position changed before the move arrived (``look_at_board``: point to `/tafl
    board`, when the board the player answered may be gone)."""

    look_at_board: bool = False


@dataclass(frozen=True)
class RequestOvertaken(Refusal):
    """The position changed before a draw offer or takeback request arrived."""


@dataclass(frozen=True)
class TakebackOvertaken(Refusal):
    """The position changed while a takeback was being made."""


@dataclass(frozen=True)
class StaleMenu(Refusal):
    """A move menu shown at a position that has changed since."""


@dataclass(frozen=True)
class NoLegalMove(Refusal):
    """The Move button pressed by a mover who has no legal move."""


@dataclass(frozen=True)
class PieceStuck(Refusal):
    """A piece chosen in the move menus that has no legal move."""


@dataclass(frozen=True)
class AIDeclinesDraws(Refusal):
    """A draw offered to the AI."""


@dataclass(frozen=True)
class AskingTheAI(Refusal):
    """A takeback request against the AI (there, a takeback is made at once)."""


@dataclass(frozen=True)
class OpponentMustAgree(Refusal):
    """An immediate takeback asked against a person."""


@dataclass(frozen=True)
class RatedAgainstAI(Refusal):
    """A takeback in a rated game against the AI."""


@dataclass(frozen=True)
class NoMoveYet(Refusal):
    """A takeback before any move."""


@dataclass(frozen=True)
class NoMoveOfYours(Refusal):
    """A takeback by a player who has not moved yet."""


@dataclass(frozen=True)
class OfferGone(Refusal):
    """An answer to a draw offer or takeback request that is no longer open."""

    kind: OfferKind


@dataclass(frozen=True)
class OfferOpen(Refusal):
    """A second offer of ``kind`` while ``by``'s is open (``mine``: the asker's own)."""

    kind: OfferKind
    by: int
    mine: bool


@dataclass(frozen=True)
class JustDeclined(Refusal):
    """The same offer again soon after it was declined: ``seconds`` left to wait."""

    kind: OfferKind
    seconds: float


@dataclass(frozen=True)
class PlayersAnswer(Refusal):
    """An offer answered by someone not playing the game."""


@dataclass(frozen=True)
class OwnOffer(Refusal):
    """An offer answered by the player who made it."""


@dataclass(frozen=True)
class ResultUnsaved(Refusal):
    """The move ``move`` ended game ``game_id`` but its result could not be stored: the game
    was set aside (``set_aside``, its channel free), or its result waits for the database."""

    game_id: int
    move: str
    set_aside: bool
    channel_id: int


@dataclass
class LiveGame:
    """One active game: its stored record and the engine game at its current position."""

    record: GameRecord
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    unsure: bool = False
    """A write to the database failed in a way that leaves open whether it was committed (the
    connection was lost): rebuild from the database before the next move."""
    draw_offer: Offer | None = None
    takeback_offer: Offer | None = None
    declined: dict[tuple[OfferKind, int], float] = field(default_factory=dict)
    """When each (kind, user id) whose offer was declined may ask again (the hub's clock);
    emptied by every move and takeback."""
    venues: tuple[Venue, ...] = ()
    """Where each side plays a game across two servers (empty: the game's one channel)."""

    @property
    def id(self) -> int:
        """The game's id in the database."""
        return self.record.id

    @property
    def across(self) -> bool:
        """Whether its two players play it from two servers, each in a venue of their own."""
        return bool(self.venues)

    @property
    def channels(self) -> tuple[int, ...]:
        """Every channel (or thread) the game is played in."""
        if not self.venues:
            return (self.record.channel_id,)
        return tuple(venue.channel_id for venue in self.venues)

    def venue(self, side: Side) -> Venue | None:
        """Where ``side``'s player plays a game across servers (``None`` in one channel)."""
        return next((v for v in self.venues if v.side == side.value), None)

    def venue_in(self, channel_id: int) -> Venue | None:
        """The venue played in ``channel_id``, for a game across servers."""
        return next((v for v in self.venues if v.channel_id == channel_id), None)

    @property
    def adjourned(self) -> Venue | None:
        """The venue whose channel was deleted, while the game waits for its player to
        continue it elsewhere (``None``: the game is not adjourned)."""
        return next((v for v in self.venues if v.gone_at is not None), None)

    def participant(self, side: Side) -> Participant:
        """Who plays ``side``."""
        return self.record.attackers if side is Side.ATTACKERS else self.record.defenders

    def side_of(self, user_id: int) -> Side | None:
        """The side a user plays (the side to move if they play both), or ``None``."""
        sides = [side for side in Side if self.participant(side).user_id == user_id]
        if not sides:
            return None
        return self.game.turn if self.game.turn in sides else sides[0]

    @property
    def to_move(self) -> Participant:
        """Who must move now."""
        return self.participant(self.game.turn)

    def clear_offers(self) -> tuple[Offer, ...]:
        """Drop the pending offers (the position changed or the game ended); returns them."""
        pending = tuple(offer for offer in (self.draw_offer, self.takeback_offer) if offer)
        self.draw_offer = self.takeback_offer = None
        return pending

    @property
    def outcome(self) -> GameOutcome | None:
        """How the game ended: on the board, or (resigned, out of time, agreed drawn) as
        stored; ``None`` while it is played."""
        on_board = self.game.outcome
        return GameOutcome.of(on_board) if on_board is not None else self.record.outcome

    @property
    def against_ai(self) -> bool:
        """Whether one side is the bot's AI."""
        return self.record.attackers.is_ai or self.record.defenders.is_ai


def adjournment(live: LiveGame) -> GameAdjourned:
    """Why an adjourned game across servers waits: whose venue was deleted, and by when they
    must continue the game (or forfeit it)."""
    gone = live.adjourned
    assert gone is not None
    player = live.participant(Side(gone.side))
    thread = gone.note is None
    return GameAdjourned(live.id, player, thread, gone.guild_name, live.record.move_deadline)


def newer_message(message_id: int | None, than: int | None) -> bool:
    """Whether ``message_id`` was posted after ``than`` (Discord's ids grow with time)."""
    return message_id is not None and (than is None or message_id > than)


def check_not_adjourned(live: LiveGame) -> None:
    """Refuse, saying why, while the game is adjourned."""
    if live.adjourned is not None:
        raise Refused(adjournment(live))


class _Behind(Exception):
    """The database had moves this process had not heard of; the game has been caught up."""


class _EndedElsewhere(Exception):
    """Another process (serving the other player of a game across servers) stored the game's
    ending first: it announces it; this process has let the game go."""

    def __init__(self, record: GameRecord) -> None:
        super().__init__(f"game {record.id} ended in another process")
        self.record = record


class ResultNotRecorded(Refused):
    """The board ended a game but its result could not be stored (already logged): told to
    everyone in the channel, not only to the mover."""

    def __init__(self, live: LiveGame, *, set_aside: bool) -> None:
        game = live.game
        last = game.history[-1].move.text(game.size) if game.history else ""
        self.unsaved = ResultUnsaved(live.id, last, set_aside, live.record.channel_id)
        super().__init__(self.unsaved)


@dataclass(frozen=True)
class GameState:
    """A game as it stands, as its words and boards show it: plain data, read by attribute.

    ``game`` is the engine's game of the hub (not a copy): what shows it is composed at once,
    before the next move can change it.
    """

    id: int
    record: GameRecord
    game: Game
    venues: tuple[Venue, ...]
    """Where each side plays a game across two servers (empty: the game's one channel)."""
    preferences: tuple[PlayerPreferences, ...] = ()
    """The board options of the people its boards are drawn for: the player to move, or the
    person playing the AI; each player of a game across servers; and anyone who asked to see
    it (the Flip board button)."""
    in_event: bool = False
    """An ended game of a tournament (its event pairs the next game: no rematch)."""
    web: bool = False
    """The bot serves a web board of its games (``TAFL_PUBLIC_URL``): its boards offer it."""


@dataclass(frozen=True)
class Replaced:
    """What a game's new board replaced: the board before it (its message and the position it
    shows), or none (``message_id`` ``None``: the game's first board there); then the final
    board of the channel's last game, whose Rematch is pointless now (``last_final``)."""

    message_id: int | None
    ply: int | None = None
    last_final: int | None = None


@dataclass(frozen=True)
class Played:
    """A committed move and, when it ended the game, the stored result."""

    game: GameState
    result: MoveResult
    finished: FinishedGame | None
    withdrawn: tuple[Offer, ...] = ()
    """Offers the move made pointless."""
    carried: Offer | None = None
    """A draw offer the mover had made on their turn: it stands, now at the new ply."""
    languages: dict[int, str | None] = field(default_factory=dict)
    """The language each server the game is played in chose for its channels (``/tafl settings
    language``), by server id, read with the move: its boards are worded in it (``None`` or
    absent: the server's own Discord language)."""


@dataclass(frozen=True)
class TakenBack:
    """Moves taken back: the asker's last move and, when the opponent had replied, that reply."""

    game: GameState
    asker: Participant
    moves: tuple[MoveResult, ...]
    """The moves taken back, oldest first."""
    withdrawn: tuple[Offer, ...] = ()
    """Offers made at a position that is gone."""


@dataclass(frozen=True)
class Ended:
    """A game ended by the people (resignation, agreement, time, an organiser calling it off)
    rather than on the board."""

    game: GameState
    finished: FinishedGame
    withdrawn: tuple[Offer, ...] = ()
    """Offers the end made pointless."""


@dataclass(frozen=True)
class OfferMade:
    """A draw offer or takeback request made, to be put to the opponent."""

    game: GameState
    offer: Offer
    moves: tuple[MoveResult, ...] = ()
    """What a takeback request would take back, oldest first."""


@dataclass(frozen=True)
class Declined:
    """An offer the opponent declined (``by``, their user id)."""

    game: GameState
    kind: OfferKind
    by: int


class GameHub:
    """Every active game by channel, with the operations the commands and buttons need."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_move: Callable[[bool], None] | None = None,
        on_change: Callable[[int], None] | None = None,
        web: bool = False,
    ) -> None:
        """``on_move`` is told of every move committed and played, with whether the AI played
        it (the process's metrics count them); ``on_change``, of every change this process
        made to a game (a move, an ending, an offer made or answered, a takeback), by game id,
        once it is committed (the web board's watchers hear of it). ``web``: the bot serves a
        web board of its games."""
        self.storage = storage
        self._by_channel: dict[int, LiveGame] = {}
        self._ended: OrderedDict[int, LiveGame] = OrderedDict()
        """Games that ended lately (their last boards are recorded after the end)."""
        self._clock = clock
        self._on_move = on_move
        self._on_change = on_change
        self.web = web

    def _changed(self, live: LiveGame) -> None:
        if self._on_change is not None:
            self._on_change(live.id)

    # ------------------------------------------------------------------ lifecycle

    async def load(self) -> list[Played]:
        """Rebuild every active game from the database, then finish the games whose last move
        ended them while the bot was down. Returns those finished games so they can be announced.

        Storage sets aside (and logs) any game it cannot load; the others always load.
        """
        report = await self.storage.load_active_games()
        for loaded in report.games:
            venues = await self.storage.games.venues(loaded.record.id)
            self._track(LiveGame(loaded.record, loaded.game, venues=venues))
        for stored in await self.storage.offers.open_offers():
            live = self.by_id(stored.game_id)
            if live is not None and live.game.ply == stored.ply:
                offer = Offer(stored.kind, stored.user_id, stored.ply, stored.message_id)
                if stored.kind == "draw":
                    live.draw_offer = offer
                else:
                    live.takeback_offer = offer
        settled = await self.settle()
        log.info(
            "loaded %d active games; %d set aside, %d finished on the board while the bot was down",
            len(self._by_channel),
            len(report.unreplayable),
            len(settled),
        )
        return settled

    async def settle(self) -> list[Played]:
        """Record the result of every game the board has ended but whose result is not stored yet
        (the bot stopped in between, or storing it failed). Returns those finished now."""
        settled: list[Played] = []
        for live in self.active():
            if not live.game.is_over or not live.game.history:
                continue
            async with live.lock:
                if self.by_id(live.id) is not live:
                    continue
                try:
                    finished = await self._record_ending(live)
                except (ResultNotRecorded, _EndedElsewhere):  # logged there; the others settle
                    continue
            state = await self.state(live)
            chosen = await self.chosen_languages(live)
            settled.append(Played(state, live.game.history[-1], finished, languages=chosen))
        return settled

    def get(self, channel_id: int) -> LiveGame | None:
        """The active game of a channel (or thread), if any."""
        return self._by_channel.get(channel_id)

    def by_id(self, game_id: int) -> LiveGame | None:
        """An active game by its database id."""
        return next((live for live in self._by_channel.values() if live.id == game_id), None)

    def active(self) -> list[LiveGame]:
        """Every active game (once each, however many channels it is played in)."""
        return list({live.id: live for live in self._by_channel.values()}.values())

    def _track(self, live: LiveGame) -> None:
        for channel_id in live.channels:
            self._by_channel[channel_id] = live

    async def require(self, channel_id: int) -> LiveGame:
        """The channel's active game, or a user-facing error that says how its last game
        ended (or that it has had none)."""
        live = self.get(channel_id)
        if live is None:
            raise await self.no_game(channel_id)
        return live

    async def no_game(self, channel_id: int) -> Refused:
        """Why there is no game to act on in a channel: how its last game ended, or that it
        has never had one."""
        ended = await self.last_ended(channel_id)
        return Refused(NoGame() if ended is None else GameOver(ended))

    async def last_ended(self, channel_id: int) -> GameRecord | None:
        """The channel's last game that has ended, if it has had one."""
        last = await self.storage.games.last_ended_in_channel(channel_id)
        return None if last is None else await self.storage.games.get(last)

    async def game_over(self, game_id: int) -> Refused:
        """The answer to anything done in a game that has ended: how it ended (and how to
        start a new one)."""
        return Refused(GameOver(await self.storage.games.get(game_id)))

    async def recover(self, channel_id: int) -> LiveGame | None:
        """The channel's active game: the one tracked, or else one the database holds that this
        process lost track of (its creation committed but the answer was lost to an outage),
        rebuilt from what is committed and tracked from now on. ``None`` if there is none."""
        live = self._by_channel.get(channel_id)
        if live is not None:
            return live
        record = await self.storage.games.active_in_channel(channel_id)
        if record is None:
            return None
        try:
            loaded = await self.storage.load_game(record.id)
        except TaflError as error:
            # Set aside with its moves, as at start-up: one broken game must not stop the
            # channel's next one.
            log.error("game %d cannot be replayed and is set aside: %s", record.id, error)
            await self.storage.games.mark_unreplayable(record.id, str(error))
            return None
        if channel_id in self._by_channel:  # tracked meanwhile (a racing command)
            return self._by_channel[channel_id]
        venues = await self.storage.games.venues(record.id)
        live = LiveGame(loaded.record, loaded.game, venues=venues)
        self._track(live)
        log.warning(
            "game %d was in the database but not tracked (its start's answer was lost); picked"
            " up at ply %d",
            live.id,
            live.game.ply,
        )
        return live

    def adopt(self, record: GameRecord, venues: tuple[Venue, ...] = ()) -> LiveGame:
        """Start tracking a game the database has just created (with its venues, when it is
        played across two servers)."""
        game = Game(record.variant, record.start_position, Side(record.first_turn))
        live = LiveGame(record, game, venues=venues)
        self._track(live)
        return live

    async def refresh(self, game_id: int) -> LiveGame | None:
        """Catch up with a game another process changed (a game across servers whose other
        venue that process serves): rebuilt from the database, or dropped once it has ended.
        Returns the game while it is on."""
        live = self.by_id(game_id)
        if live is None:
            record = await self.storage.games.get(game_id)
            if record.status is not GameStatus.ACTIVE:
                return None
            return await self.recover(record.channel_id)
        async with live.lock:
            try:
                await self._resync(live)
            except Refused:  # it has ended: dropped, and announced by the process that ended it
                return None
        return live

    # ------------------------------------------------------------------ what boards show

    def peek(self, live: LiveGame) -> GameState:
        """The game as it stands, without the look-ups of :meth:`state` (nobody's board
        options): for words that draw no board."""
        return GameState(live.id, live.record, live.game, live.venues, web=self.web)

    async def state(self, live: LiveGame, *, viewers: Iterable[int] = ()) -> GameState:
        """The game as it stands, with what its boards need: the board options of the people
        they are drawn for (see :attr:`GameState.preferences`; ``viewers`` add to them), and
        whether an ended game belongs to a tournament.

        Board options that cannot be read (the database out of reach a moment after a move
        was committed) leave the boards in the default look: the move's board matters more."""
        people = set(viewers) | {
            player.user_id
            for player in _board_people(live)
            if not player.is_ai and player.user_id is not None
        }
        preferences = []
        for user_id in sorted(people):
            try:
                preferences.append(await self.storage.preferences.get(user_id))
            except StorageError as error:
                log.debug(
                    "game %d: the board options of %d were not read: %s", live.id, user_id, error
                )
        over = live.record.status is not GameStatus.ACTIVE
        in_event = over and await self.storage.tournaments.of_game(live.id) is not None
        return replace(self.peek(live), preferences=tuple(preferences), in_event=in_event)

    async def turn_notice(self, game_id: int, ply: int) -> bool:
        """Whether the player to move at ``ply`` is told of their turn by direct message now:
        a person who asked for such messages, in a game against a person (against the AI the
        reply comes within seconds), the move's notice not yet claimed (it is, here: once per
        move, whichever process posts its board). Asked once its board is out; a courtesy: a
        failure (the database out of reach a moment later) is logged, never reported as the
        move's."""
        live = self.by_id(game_id)
        if live is None or live.game.ply != ply:
            return False
        player = live.to_move
        if player.is_ai or player.user_id is None or live.against_ai:
            return False
        try:
            if not (await self.storage.preferences.get(player.user_id)).notify:
                return False
            return await self.storage.games.claim_notice(live.id, ply)
        except DatabaseUnavailable as error:
            # An outage is logged once, by the storage, when it starts and when it ends.
            log.debug("game %d: the turn notice was not sent: %s", live.id, error)
        except StorageError as error:
            log.info("game %d: the turn notice was not sent: %s", live.id, error)
        return False

    async def state_of(self, game_id: int, viewer: int) -> GameState:
        """An active game (a button's) as ``viewer`` would see its board, or how it ended."""
        return await self.state(await self.require_id(game_id), viewers=(viewer,))

    async def player_in(self, game_id: int, user_id: int) -> GameState:
        """An active game (a button's) that ``user_id`` plays in: refused if they do not, or
        saying how it ended."""
        live = await self.require_id(game_id)
        if live.side_of(user_id) is None:
            raise Refused(NotPlaying())
        return self.peek(live)

    async def mover_at(self, game_id: int, user_id: int, ply: int | None = None) -> GameState:
        """A game whose move ``user_id`` is choosing in the menus (at ``ply``, when the menu
        says): refused unless it is theirs to play, in that position."""
        live = await self.require_id(game_id)
        if ply is not None and live.game.ply != ply:
            raise Refused(StaleMenu())
        self.check_mover(live, user_id)
        return self.peek(live)

    async def board_posted(
        self,
        game_id: int,
        channel_id: int,
        message_id: int,
        ply: int,
        *,
        side: SideName | None = None,
        end: bool = False,
    ) -> Replaced:
        """Note a game's new board (``side``: the venue's, in a game across servers): the
        message a later board retires, and the position it shows. Returns what it replaced,
        as recorded when it was sent (a board sent a moment before, whose record came after
        the new board's words were composed, included)."""
        try:
            if side is None:
                await self.storage.games.set_board_message(game_id, message_id, ply)
            else:
                await self.storage.games.set_venue_board(game_id, side, message_id, ply, end=end)
        except DatabaseUnavailable as error:
            # The board is out and its move committed: the player must not be told otherwise.
            # The game remembers the message, and writes it back when it is next read from
            # the database (_resync) or with its next board.
            log.debug("game %d: its new board was not recorded: %s", game_id, error)
        live = self.by_id(game_id) or self._ended.get(game_id)
        if live is None:  # not played here: nothing known to retire
            return Replaced(message_id)
        if side is None:
            previous, shown = live.record.board_message_id, live.record.board_ply
            live.record = replace(live.record, board_message_id=message_id, board_ply=ply)
        else:
            venue = next(
                (v for v in live.venues if v.side == side and v.channel_id == channel_id), None
            )
            previous = None if venue is None else venue.board_message_id
            shown = None if venue is None else venue.board_ply
            live.venues = tuple(
                replace(v, board_message_id=message_id, board_ply=ply) if v == venue else v
                for v in live.venues
            )
        if previous is not None:
            return Replaced(previous, shown)
        return Replaced(None, None, await self._last_final_board(game_id, channel_id))

    async def _last_final_board(self, game_id: int, channel_id: int) -> int | None:
        """The message of the final board of the channel's last finished game (before
        ``game_id``), if any."""
        games = self.storage.games
        last = await games.last_finished_in_channel(channel_id)
        if last is None or last == game_id:
            return None
        record = await games.get(last)
        venues = await games.venues(last)
        shown = next((v for v in venues if v.channel_id == channel_id), None)
        return record.board_message_id if shown is None else shown.board_message_id

    async def adjourned_for(self, user_id: int) -> tuple[GameRecord, Venue] | None:
        """The adjourned game across servers whose venue ``user_id`` lost, if any: they
        continue it where they ask for its board."""
        return await self.storage.games.adjourned_for(user_id)

    # ------------------------------------------------------------------ moves

    async def play_squares(
        self, game_id: int, player: Participant, origin: int, target: int, ply: int
    ) -> Played:
        """The move from ``origin`` to ``target`` chosen in the menus shown at ``ply``."""
        live = await self.require_id(game_id)
        size = live.game.size
        text = f"{square_name(origin, size)}-{square_name(target, size)}"
        return await self.play(live.record.channel_id, player, text, expected_ply=ply)

    async def play(
        self,
        channel_id: int,
        player: Participant,
        text: str,
        *,
        expected_ply: int | None = None,
    ) -> Played:
        """Check, commit and apply one move by ``player``; :class:`Refused` says why not."""
        live = await self.require(channel_id)
        async with live.lock:
            try:
                return await self._play(live, player, text, expected_ply)
            except _Behind:
                # In a game across servers the other player's process writes their moves: the
                # database being ahead is the ordinary news of their move, not a race. The
                # board the player answered is the one just caught up with, so the move stands
                # if it is still theirs to play, and legal.
                if not live.across or expected_ply is not None:
                    raise Refused(MoveOvertaken(look_at_board=True)) from None
            try:
                return await self._play(live, player, text, None)
            except _Behind:
                raise Refused(MoveOvertaken(look_at_board=True)) from None

    async def _play(
        self, live: LiveGame, player: Participant, text: str, expected_ply: int | None
    ) -> Played:
        """One try at :meth:`play` (the caller holds the game's lock); :class:`_Behind`, with
        the game caught up, when the database was ahead."""
        if live.unsure:
            await self._resync(live)
        elif live.to_move != player:
            # The opponent's move (or the game's end) may have been written by another process
            # a moment ago, its news not here yet: the one serving the other server of a game
            # across servers, or in a cluster the one serving the page of the web board the
            # move was made on. Read the game before refusing anyone.
            await self._resync(live)
        game = live.game
        if expected_ply is not None and expected_ply != game.ply:
            raise Refused(MoveOvertaken())
        if player.is_ai:
            if live.to_move != player:
                raise Refused(NotAITurn())
        else:
            self._check_turn(live, player)
        try:
            move = game.parse_move(text)
        except GameOverError:
            raise Refused(AlreadyOver()) from None
        except TaflError as error:
            raise Refused(IllegalMove(str(error), error.kind, error.values)) from None
        ply = game.ply
        try:
            appended = await self.storage.games.append_move(
                live.id, ply, move.text(game.size), mover=player.user_id
            )
        except PositionChanged:
            # The database is ahead: an earlier write of this process committed although its
            # answer was lost, or another process wrote a move (see play). Catch up.
            await self._resync(live)
            raise _Behind() from None
        except DatabaseUnavailable:
            live.unsure = True
            raise
        result = game.play(move)
        # A draw offer its mover made on their own turn goes along with the move (storage has
        # moved it to the new ply); every other offer is withdrawn by it.
        offer = live.draw_offer
        carried = None
        if offer is not None and offer.user_id == player.user_id and offer.ply == ply:
            carried = replace(offer, ply=appended.ply)
        withdrawn = tuple(o for o in live.clear_offers() if o is not offer or not carried)
        live.draw_offer = carried
        live.declined.clear()
        finished = None
        if result.outcome is not None:
            try:
                finished = await self._record_ending(live)
            except _EndedElsewhere as elsewhere:
                # The move counted and ended the game; the process that stored the ending
                # first posts its final board.
                raise Refused(GameOver(elsewhere.record, new_game=False)) from None
            if carried is not None:  # the ending withdrew it, as every offer
                withdrawn, carried, live.draw_offer = (*withdrawn, carried), None, None
        else:
            # From the write's own answer, not a second read that an outage could fail after
            # the move is already committed and played.
            live.record = replace(
                live.record,
                ply=appended.ply,
                move_deadline=appended.move_deadline,
                reminder_sent=False,
            )
        if self._on_move is not None:
            self._on_move(player.is_ai)
        self._changed(live)
        chosen = await self.chosen_languages(live)
        return Played(await self.state(live), result, finished, withdrawn, carried, chosen)

    async def chosen_languages(self, live: LiveGame) -> dict[int, str | None]:
        """The language each server the game is played in chose for its channels, read from
        the server settings now (another process may have changed it a moment ago). After a
        committed move the words matter less than the move: a server whose choice cannot be
        read is left out (its own Discord language)."""
        servers = {v.guild_id for v in live.venues}
        if live.record.guild_id is not None:
            servers.add(live.record.guild_id)
        chosen: dict[int, str | None] = {}
        for guild_id in sorted(servers):
            try:
                chosen[guild_id] = (await self.storage.settings.get(guild_id)).language
            except StorageError as error:
                log.warning("could not read the language of server %d: %s", guild_id, error)
        return chosen

    def _check_turn(self, live: LiveGame, player: Participant) -> None:
        if live.game.is_over and live.side_of(player.user_id or 0) is not None:
            raise Refused(AlreadyOver())
        check_not_adjourned(live)
        self.check_mover(live, player.user_id or 0)

    @staticmethod
    def check_mover(live: LiveGame, user_id: int) -> None:
        """Refused unless ``user_id`` plays the side to move (naming who does)."""
        if live.side_of(user_id) is None:
            raise Refused(NotPlaying())
        if live.to_move.user_id != user_id:
            history = live.game.history
            last = history[-1] if history else None
            played = None
            if last is not None and live.participant(last.side).user_id == user_id:
                # Most often a move sent again because its answer was slow to come: say that
                # it counted.
                played = last.move.text(live.game.size)
            raise Refused(NotYourTurn(live.to_move, live.game.turn, live.across, played))

    async def _record_ending(self, live: LiveGame) -> FinishedGame:
        """Store the result of a game the board has ended (the caller holds its lock).

        If that fails, the failure is logged with its traceback and the game is set aside (kept
        with its moves, its channel free) so that one broken game cannot hold a channel; if even
        that fails (the database is away), it stays here and :meth:`settle` tries again. Either
        way :class:`ResultNotRecorded` says so in the players' words. An ending another process
        stored first is no failure: :class:`_EndedElsewhere`, the game let go.
        """
        outcome = live.game.outcome
        assert outcome is not None
        try:
            finished = await self.storage.games.finish(
                live.id, outcome.result_text, outcome.termination
            )
        except GameNotActive:
            # A game across servers: the process serving the other player caught up with the
            # last move and stored its result first (or the other way round); it announces it.
            record = await self.storage.games.get(live.id)
            self._drop(live)
            live.record = record
            log.info("game %d: its ending was stored by another process", live.id)
            raise _EndedElsewhere(record) from None
        except (DatabaseUnavailable, Conflict) as error:
            # Passing trouble, not a broken game: keep it, and settle() records it later.
            log.warning("game %d: its result waits for the database: %s", live.id, error)
            raise ResultNotRecorded(live, set_aside=False) from error
        except Exception as error:
            problem = f"its result could not be recorded: {type(error).__name__}: {error}"
            log.exception("game %d (channel %d): %s", live.id, live.record.channel_id, problem)
            try:
                await self.storage.games.mark_unreplayable(live.id, problem)
            except Exception:
                log.exception("game %d could not be set aside; will try again", live.id)
                raise ResultNotRecorded(live, set_aside=False) from error
            self._drop(live)
            raise ResultNotRecorded(live, set_aside=True) from error
        self._drop(live)
        live.record = finished.record
        return finished

    # ------------------------------------------------------------------ endings by people

    async def resign(self, channel_id: int, user_id: int) -> Ended:
        """The user gives up; the other side wins."""
        live = await self.require(channel_id)
        async with live.lock:
            if self.get(channel_id) is not live:  # the game ended while we waited
                raise await self.game_over(live.id)
            side = live.side_of(user_id)
            if side is None:
                raise Refused(NotPlaying())
            winner = side.other
            return await self._end(live, winner.value, TableEnding.RESIGNATION)

    async def forfeit_on_time(self, live: LiveGame, expected_ply: int) -> Ended | None:
        """The side to move ran out of time; ``None`` if a move landed meanwhile."""
        async with live.lock:
            if live.unsure:
                await self._resync(live)
            if live.game.ply != expected_ply or self.by_id(live.id) is not live:
                return None
            # An adjourned game's deadline is its absent player's: they forfeit it.
            gone = live.adjourned
            loser = live.game.turn if gone is None else Side(gone.side)
            reason = TableEnding.TIMEOUT if gone is None else TableEnding.ABANDONED
            try:
                return await self._end(live, loser.other.value, reason, expected_ply)
            except PositionChanged:
                return None

    async def catch_up(self, live: LiveGame) -> None:
        """Rebuild ``live`` from the database if a write's outcome is unknown (before acting on
        whose turn it is)."""
        if live.unsure:
            async with live.lock:
                if live.unsure:
                    await self._resync(live)

    async def offer_draw(self, channel_id: int, user_id: int) -> OfferMade:
        """Record a draw offer (stored, so it outlives a restart); the opponent answers with a
        button."""
        live = await self.require(channel_id)
        if live.side_of(user_id) is None:
            raise Refused(NotPlaying())
        if live.against_ai:
            raise Refused(AIDeclinesDraws())
        self._check_open(live.draw_offer, user_id)
        self._check_cooldown(live, "draw", user_id)
        offer = live.draw_offer = await self._store_offer(live, "draw", user_id)
        return OfferMade(self.peek(live), offer)

    async def _store_offer(self, live: LiveGame, kind: OfferKind, user_id: int) -> Offer:
        check_not_adjourned(live)
        async with live.lock:
            try:
                await self.storage.offers.make(live.id, kind, user_id, live.game.ply)
            except PositionChanged:
                raise Refused(RequestOvertaken()) from None
            offer = Offer(kind, user_id, live.game.ply)
            # Told once the caller has set it on the game (the watchers read it from there).
            asyncio.get_running_loop().call_soon(self._changed, live)
            return offer

    async def offer_posted(self, game_id: int, kind: OfferKind, ply: int, message_id: int) -> None:
        """Note the message that carries an offer's buttons (to mark it withdrawn later, even
        after a restart)."""
        live = self.by_id(game_id)
        if live is not None:
            if kind == "draw" and live.draw_offer is not None and live.draw_offer.ply == ply:
                live.draw_offer = replace(live.draw_offer, message_id=message_id)
            offer = live.takeback_offer
            if kind == "takeback" and offer is not None and offer.ply == ply:
                live.takeback_offer = replace(offer, message_id=message_id)
        await self.storage.offers.set_message(game_id, kind, ply, message_id)

    async def _take_offer(self, live: LiveGame, kind: OfferKind, ply: int) -> None:
        """Claim the stored offer for this answer: of two answers (two clicks, or a click that
        raced a move) only one finds it."""
        if await self.storage.offers.take(live.id, kind, ply) is None:
            raise Refused(OfferGone(kind))

    async def answer_draw(
        self, game_id: int, user_id: int, ply: int, accept: bool
    ) -> Ended | Declined:
        """The opponent accepts (the game ends drawn) or declines a draw offer."""
        live = await self.require_id(game_id)
        async with live.lock:
            offer = live.draw_offer
            if live.across and (offer is None or offer.ply != ply or live.game.ply != ply):
                # Made (or the game moved) through the process serving the other server a
                # moment ago: read the game before saying the offer is gone.
                await self._resync(live)
                offer = live.draw_offer
            if offer is None or offer.ply != ply or live.game.ply != ply:
                raise Refused(OfferGone("draw"))
            self._check_answerer(live, offer, user_id)
            if not accept:
                await self._take_offer(live, "draw", ply)
                live.draw_offer = None
                self._decline(live, "draw", offer)
                self._changed(live)
                return Declined(self.peek(live), "draw", user_id)
            # Answered, so not among the offers the ending withdraws; back if the ending fails.
            live.draw_offer = None
            try:
                return await self._end(live, "draw", TableEnding.AGREED_DRAW, ply, accepting="draw")
            except OfferClosed:
                raise Refused(OfferGone("draw")) from None
            except BaseException:
                live.draw_offer = offer
                raise

    async def offer_takeback(self, channel_id: int, user_id: int) -> OfferMade:
        """Ask to take back one's last move; the opponent answers with a button. (Against the
        AI there is nobody to ask: see :meth:`take_back_against_ai`.)"""
        live = await self.require(channel_id)
        side = self._takeback_side(live, user_id)
        if live.against_ai:
            raise Refused(AskingTheAI())
        self._check_open(live.takeback_offer, user_id)
        self._check_cooldown(live, "takeback", user_id)
        offer = live.takeback_offer = await self._store_offer(live, "takeback", user_id)
        return OfferMade(self.peek(live), offer, moves_to_take_back(live, side))

    async def take_back_against_ai(self, channel_id: int, user_id: int) -> TakenBack:
        """Take back the player's last move and the AI's reply to it, without asking (the AI
        does not mind); refused in rated games, where it would let a player improve a result.

        The caller makes sure the AI is not thinking about a reply meanwhile.
        """
        live = await self.require(channel_id)
        async with live.lock:
            if self.get(channel_id) is not live:
                raise await self.game_over(live.id)
            side = self._takeback_side(live, user_id)
            if not live.against_ai:
                raise Refused(OpponentMustAgree())
            if live.record.rated:
                raise Refused(RatedAgainstAI())
            return await self._take_back(live, live.participant(side), side, live.game.ply)

    def _takeback_side(self, live: LiveGame, user_id: int) -> Side:
        """The side whose last move ``user_id`` may take back (else refused)."""
        side = live.side_of(user_id)
        if side is None:
            raise Refused(NotPlaying())
        if not live.game.history:
            raise Refused(NoMoveYet())
        if not any(result.side is side for result in live.game.history):
            # Without this the answer would take back the opponent's move instead.
            raise Refused(NoMoveOfYours())
        return side

    async def answer_takeback(
        self, game_id: int, user_id: int, ply: int, accept: bool
    ) -> TakenBack | Declined:
        """The opponent agrees (the asker's last move is taken back) or refuses."""
        live = await self.require_id(game_id)
        async with live.lock:
            offer = live.takeback_offer
            if live.across and (offer is None or offer.ply != ply or live.game.ply != ply):
                # Made (or the game moved) through the process serving the other server a
                # moment ago: read the game before saying the offer is gone.
                await self._resync(live)
                offer = live.takeback_offer
            if offer is None or offer.ply != ply or live.game.ply != ply:
                raise Refused(OfferGone("takeback"))
            self._check_answerer(live, offer, user_id)
            if not accept:
                await self._take_offer(live, "takeback", ply)
                live.takeback_offer = None
                self._decline(live, "takeback", offer)
                self._changed(live)
                return Declined(self.peek(live), "takeback", user_id)
            asker_side = live.side_of(offer.user_id)
            assert asker_side is not None  # checked when the request was made
            live.takeback_offer = None  # as for a draw: answered, unless the takeback fails
            try:
                return await self._take_back(
                    live, live.participant(asker_side), asker_side, ply, accepting=True
                )
            except OfferClosed:
                raise Refused(OfferGone("takeback")) from None
            except BaseException:
                live.takeback_offer = offer
                raise

    async def _take_back(
        self, live: LiveGame, asker: Participant, side: Side, ply: int, *, accepting: bool = False
    ) -> TakenBack:
        """Take back :func:`moves_to_take_back`; the caller holds the game's lock."""
        plies = len(moves_to_take_back(live, side))
        try:
            await self.storage.games.take_back(live.id, ply, plies, accepting=accepting)
        except PositionChanged:
            await self._resync(live)  # as in play(): the database is ahead
            raise Refused(TakebackOvertaken()) from None
        except DatabaseUnavailable:
            live.unsure = True
            raise
        undone = [live.game.undo() for _ in range(plies)]
        withdrawn = live.clear_offers()  # made at a position that is gone
        live.declined.clear()
        live.record = await self.storage.games.get(live.id)
        self._changed(live)
        return TakenBack(await self.state(live), asker, tuple(reversed(undone)), withdrawn)

    def _decline(self, live: LiveGame, kind: OfferKind, offer: Offer) -> None:
        """Start the asker's wait before asking the same again (so a refusal is not answered by
        a stream of the same request)."""
        live.declined[kind, offer.user_id] = self._clock() + OFFER_COOLDOWN_SECONDS

    def _check_cooldown(self, live: LiveGame, kind: OfferKind, user_id: int) -> None:
        """Refuse, saying how long is left, if the user's last offer of ``kind`` was declined
        less than :data:`OFFER_COOLDOWN_SECONDS` ago and no move has been played since."""
        until = live.declined.get((kind, user_id))
        if until is None:
            return
        left = until - self._clock()
        if left <= 0:
            del live.declined[kind, user_id]
            return
        raise Refused(JustDeclined(kind, left))

    @staticmethod
    def _check_open(offer: Offer | None, user_id: int) -> None:
        """Refuse a second offer of a kind while one is open: the question is already asked
        (and a second message would leave the first one's buttons hanging)."""
        if offer is None:
            return
        raise Refused(OfferOpen(offer.kind, offer.user_id, offer.user_id == user_id))

    def _check_answerer(self, live: LiveGame, offer: Offer, user_id: int) -> None:
        if live.side_of(user_id) is None:
            raise Refused(PlayersAnswer())
        if user_id == offer.user_id:
            raise Refused(OwnOffer())

    async def _end(
        self,
        live: LiveGame,
        result: str,
        reason: TableEnding,
        expected_ply: int | None = None,
        *,
        accepting: OfferKind | None = None,
    ) -> Ended:
        finished = await self.storage.games.finish(
            live.id, result, reason, expected_ply=expected_ply, accepting=accepting
        )
        self._drop(live)
        live.record = finished.record
        self._changed(live)
        return Ended(await self.state(live), finished, live.clear_offers())

    async def require_id(self, game_id: int) -> LiveGame:
        """An active game by id (a button's), or how it ended. A game across servers that
        another process started is picked up from the database."""
        live = self.by_id(game_id) or await self.refresh(game_id)
        if live is None:
            raise await self.game_over(game_id)
        return live

    async def _resync(self, live: LiveGame) -> None:
        """Rebuild ``live`` from what the database has committed (the caller holds its lock):
        its position, its venues and its open offers. A board posted while the database was
        away (its message not recorded) stays the one to retire next: it is written back."""
        board = live.record.board_message_id, live.record.board_ply
        boards = {
            (venue.side, venue.channel_id): (venue.board_message_id, venue.board_ply)
            for venue in live.venues
        }
        loaded = await self.storage.load_game(live.id)
        live.record, live.game, live.unsure = loaded.record, loaded.game, False
        if newer_message(board[0], live.record.board_message_id):
            await self.storage.games.set_board_message(live.id, board[0], board[1])
            live.record = replace(live.record, board_message_id=board[0], board_ply=board[1])
        live.clear_offers()
        live.declined.clear()
        if live.across:
            # A venue may have moved (continued elsewhere after its channel was deleted). The
            # game stays in the channel map until its new venues are known: a move or click in
            # its channel meanwhile must find it (and wait for its lock), not "no game here".
            venues = []
            for venue in await self.storage.games.venues(live.id):
                shown, ply = boards.get((venue.side, venue.channel_id), (None, None))
                if (
                    shown is not None
                    and ply is not None
                    and newer_message(shown, venue.board_message_id)
                ):
                    await self.storage.games.set_venue_board(live.id, venue.side, shown, ply)
                    venue = replace(venue, board_message_id=shown, board_ply=ply)
                venues.append(venue)
            self._drop(live)
            live.venues = tuple(venues)
            self._track(live)
            for stored in await self.storage.offers.of_game(live.id):
                offer = Offer(stored.kind, stored.user_id, stored.ply, stored.message_id)
                if stored.kind == "draw":
                    live.draw_offer = offer
                else:
                    live.takeback_offer = offer
        log.info("game %d was rebuilt from the database at ply %d", live.id, live.game.ply)
        if loaded.record.status is not GameStatus.ACTIVE:
            self._drop(live)
            raise Refused(GameOver(loaded.record))

    async def call_off(self, live: LiveGame) -> Ended | None:
        """End a game without a result of its own (an organiser decided its pairing another
        way): never rated; its later moves and buttons answer that it was called off. Its
        final record (no deadline), to post its final board with; ``None`` if it had ended."""
        async with live.lock:
            if self.by_id(live.id) is not live:
                return None
            try:
                record = await self.storage.games.abort(live.id)
            except GameNotActive:
                self._drop(live)
                return None
            self._drop(live)
            live.record = record
            self._changed(live)
            return Ended(await self.state(live), FinishedGame(record, ()), live.clear_offers())

    def _drop(self, live: LiveGame) -> None:
        for channel_id in live.channels:
            if self._by_channel.get(channel_id) is live:
                del self._by_channel[channel_id]
        # Its last boards (the final one above all) are recorded after it is let go.
        self._ended[live.id] = live
        while len(self._ended) > ENDED_KEPT:
            self._ended.popitem(last=False)


def rematch_sides(old: GameRecord) -> tuple[Participant, Participant]:
    """Who attacks and who defends in a rematch of ``old``: the sides swapped, or where the
    variant says so (Tablut, Linnaeus's law 12) the winner defending."""
    attackers, defenders = old.defenders, old.attackers
    if (
        get_variant(old.variant).rematch_winner_defends
        and old.result is not None
        and old.result.value != "draw"
    ):
        winner = old.attackers if old.result.value == "attackers" else old.defenders
        loser = old.defenders if winner == old.attackers else old.attackers
        attackers, defenders = loser, winner
    return attackers, defenders


def _board_people(live: LiveGame) -> tuple[Participant, ...]:
    """Whose board options the game's boards follow: in one channel the player to move (the
    one who must study it), else, when that is the AI, the person playing it; across servers,
    each venue's player."""
    if live.across:
        return (live.record.attackers, live.record.defenders)
    for player in (live.to_move, live.participant(live.game.turn.other)):
        if not player.is_ai:
            return (player,)
    return ()


def moves_to_take_back(live: LiveGame, side: Side) -> tuple[MoveResult, ...]:
    """What a takeback by ``side`` removes, oldest first: their own last move, and the reply to
    it if the opponent has moved since."""
    history = live.game.history
    plies = 1 if history[-1].side is side else 2
    return history[-min(plies, len(history)) :]


def pick_sides(
    first: Participant, second: Participant, choice: str
) -> tuple[Participant, Participant]:
    """(attackers, defenders) when ``first`` chose ``choice`` (attackers, defenders or random)."""
    if choice == "random":
        choice = random.choice(("attackers", "defenders"))
    return (first, second) if choice == "attackers" else (second, first)
