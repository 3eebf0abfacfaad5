"""Starting games: challenges between members, games against the AI and rematches, and where
each new game is played (its channel, or a thread of its own).

The rules live here: who may challenge whom and how often (a cooldown between challenges, a
limit of challenges to one member), which side each player takes, when a game needs a thread,
what a busy channel means, who may ask for a rematch and how its sides are set. Nothing here
talks to Discord: the challenges cog turns interactions into these calls, opens threads when
asked to (:data:`OpenThread`), and turns the results into messages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from bot.ai import LEVELS
from bot.engine import get_variant
from bot.storage import (
    DEFAULT_EXPIRY_SECONDS,
    Challenge,
    ChallengeClosed,
    ChallengeStore,
    ChannelBusy,
    GameRecord,
    GameStore,
    NotAllowed,
    Participant,
    ServerSettings,
    SettingsStore,
    SideChoice,
    Venue,
)
from bot.storage.tournaments import TournamentStore

from .durations import ENGLISH_WORDS, InputWords, parse_move_time
from .errors import Refusal, Refused
from .games import GameHub, LiveGame, pick_sides, rematch_sides

CHALLENGE_COOLDOWN_SECONDS = 20
"""Seconds between two challenges of one player (see ``ChallengeStore.seconds_since_last`` for
which count: not those declined, nor those cancelled at once to correct them)."""
SAME_OPPONENT_LIMIT = 3
"""Challenges to one member that one player may make in :data:`SAME_OPPONENT_WINDOW` seconds,
however they ended unless accepted."""
SAME_OPPONENT_WINDOW = 600


@dataclass(frozen=True)
class Where:
    """Where a command or a click happened, as far as the rules of a new game's place need
    it."""

    channel_id: int
    guild_id: int | None
    kind: Literal["channel", "thread", "direct"]
    """A server's channel, a thread, or a direct conversation (no server)."""
    threads: bool = False
    """Whether the bot may open public threads here (a text channel, with the permissions)."""


@dataclass(frozen=True)
class NewThread:
    """A thread to open for a new game: who plays whom, and in which rules."""

    first: Participant
    second: Participant
    variant: str


OpenThread = Callable[[NewThread], Awaitable[int]]
"""Opens a thread for a new game where the command or click happened, returning its id (the
Discord layer's part; it refuses with :class:`NoThreadHere` or :class:`MayNotOpenThreads`)."""


# ---------------------------------------------------------------------------- refusals


@dataclass(frozen=True)
class ChallengeYourself(Refusal):
    """A member challenged themselves."""


@dataclass(frozen=True)
class ChallengeABot(Refusal):
    """A member challenged a bot (bots cannot accept)."""


@dataclass(frozen=True)
class ChallengeTooSoon(Refusal):
    """A challenge less than ``every`` seconds after one's last: ``wait`` seconds to go."""

    wait: float
    every: int


@dataclass(frozen=True)
class ChallengedTooOften(Refusal):
    """``times`` challenges to ``opponent`` in the last ``window`` seconds already: ``wait``
    seconds until the next may be made."""

    opponent: Participant
    times: int
    window: int
    wait: float


@dataclass(frozen=True)
class NotASide(Refusal):
    """``text`` is not a side one may choose."""

    text: str


@dataclass(frozen=True)
class ChallengeNotOpen(Refusal):
    """An answer to a challenge no longer open: it was ``status`` (accepted, declined,
    cancelled, expired...)."""

    status: str


@dataclass(frozen=True)
class AnswerNotAllowed(Refusal):
    """An answer to a challenge that is not the person's to give: storage's ``reason``, in
    lower case ("only the challenger can cancel a challenge")."""

    reason: str


@dataclass(frozen=True)
class BusyHere(Refusal):
    """A game cannot start where it was asked for: ``game_id`` is played there, and ``where``
    says what can be done instead (a thread, another channel...)."""

    game_id: int
    where: Where


@dataclass(frozen=True)
class NothingToRematch(Refusal):
    """A rematch asked in a channel where no game has finished."""


@dataclass(frozen=True)
class NotYourRematch(Refusal):
    """A rematch asked by someone who did not play the game."""


@dataclass(frozen=True)
class NoTournamentRematch(Refusal):
    """A rematch of a tournament's game (the event pairs the next)."""


@dataclass(frozen=True)
class AlreadyOffered(Refusal):
    """A second rematch offer while one waits for its answer."""


@dataclass(frozen=True)
class OfferWaiting(Refusal):
    """A rematch asked of ``opponent``, who has already asked for one: theirs waits."""

    opponent: Participant


@dataclass(frozen=True)
class NoThreadHere(Refusal):
    """A new game's thread asked for where none can be opened (not a text channel)."""


@dataclass(frozen=True)
class MayNotOpenThreads(Refusal):
    """The bot may not open a thread for a new game here (a missing permission)."""


@dataclass(frozen=True)
class ChallengePosted:
    """A challenge made, to be shown with its buttons (then :meth:`ChallengeService.shown`)."""

    challenge: Challenge
    in_thread: bool
    """Its game will be played in a thread of its own."""
    server_default_seconds: int | None
    """The server's default time per move (a challenge without a limit says so when the
    server has one)."""


@dataclass(frozen=True)
class Accepted:
    """A challenge accepted: its game has begun."""

    challenge: Challenge
    live: LiveGame
    thread_id: int | None
    """The thread the game is played in, when it got one."""


@dataclass(frozen=True)
class AIGameStarted:
    """A game against the AI has begun."""

    live: LiveGame
    level: str
    thread_id: int | None


@dataclass(frozen=True)
class RematchAcross:
    """A rematch asked of a game played across two servers (asked, and played, in both)."""

    old: GameRecord
    venues: tuple[Venue, ...]


@dataclass(frozen=True)
class RematchStarted:
    """A rematch against the AI: it begins at once."""

    old: GameRecord
    live: LiveGame
    attackers: Participant
    defenders: Participant
    winner_defends_again: bool
    """The sides stay as they were, because the variant has the winner defend."""


@dataclass(frozen=True)
class RematchOffered:
    """A rematch offered to the other player, as a challenge with the sides fixed (shown with
    its buttons, then :meth:`ChallengeService.shown`)."""

    old: GameRecord
    challenge: Challenge
    attackers: Participant
    defenders: Participant
    opponent: Participant
    winner_defends_again: bool


Rematch = RematchAcross | RematchStarted | RematchOffered


def side_choice(text: str) -> SideChoice:
    """The side option's value as storage's type (Discord only sends the listed choices)."""
    for choice in ("attackers", "defenders", "random"):
        if text == choice:
            return choice
    raise Refused(NotASide(text))


def answer_refused(error: ChallengeClosed | NotAllowed) -> Refused:
    """The refusal of an answer to a challenge that cannot be given."""
    if isinstance(error, ChallengeClosed):
        return Refused(ChallengeNotOpen(error.status))
    return Refused(AnswerNotAllowed(str(error)))


def busy_refusal(game_id: int, where: Where) -> Refused:
    """The refusal of a game asked for ``where``, which has game ``game_id`` already."""
    return Refused(BusyHere(game_id, where))


def wants_thread(where: Where, settings: ServerSettings, busy: int | None) -> bool:
    """Whether a game asked for ``where`` goes to a new thread: when the server asks for a
    thread per game, or the channel has a game already (``busy``: its id). Inside a thread a
    game is played in that thread. Refused (:class:`BusyHere`) when the game can go nowhere
    (the channel is busy and no thread can be opened)."""
    if where.kind == "thread" or not (settings.game_threads or busy is not None):
        if busy is not None:
            raise Refused(BusyHere(busy, where))
        return False
    if where.threads:
        return True
    if busy is not None:
        raise Refused(BusyHere(busy, where))
    return False  # the server asks for threads, but this channel allows none: play here


class ChallengeService:
    """Challenges, games against the AI and rematches: the checks, the sides, the place."""

    def __init__(
        self,
        challenges: ChallengeStore,
        games: GameStore,
        settings: SettingsStore,
        tournaments: TournamentStore,
        hub: GameHub,
        *,
        expiry_seconds: int = DEFAULT_EXPIRY_SECONDS,
        recover: Callable[[int], Awaitable[LiveGame | None]] | None = None,
    ) -> None:
        """``recover`` finds the game that makes a channel busy when this process had lost
        track of it (by default the hub's :meth:`GameHub.recover`; the table's also sets the
        AI thinking when it is to move)."""
        self._challenges = challenges
        self._games = games
        self._settings = settings
        self._tournaments = tournaments
        self._hub = hub
        self.expiry_seconds = expiry_seconds
        self._recover = recover or hub.recover

    # ------------------------------------------------------------------ challenges

    async def challenge(
        self,
        where: Where,
        challenger: Participant,
        opponent: Participant,
        *,
        opponent_is_bot: bool = False,
        variant: str = "tablut",
        side: str = "random",
        time: str | None = None,
        words: InputWords = ENGLISH_WORDS,
    ) -> ChallengePosted:
        """Challenge a member to a game that only they can accept. Refused, with what to do
        instead: oneself, a bot, a busy channel that cannot give the game a thread, a time
        that is not one (in English or in the challenger's language, ``words``), too soon
        after one's last challenge, or one challenge too many to the same member."""
        if opponent.user_id == challenger.user_id:
            raise Refused(ChallengeYourself())
        if opponent_is_bot:
            raise Refused(ChallengeABot())
        settings = await self._settings.get(where.guild_id or 0)
        in_thread = self._wants_thread(where, where.channel_id, settings)
        move_seconds = (
            settings.default_move_seconds if time is None else parse_move_time(time, words)
        )
        # The cooldown against challenge spam counts challenges actually posted, so a mistake
        # (yourself, a bot, a busy channel, a bad time) can be corrected at once; nor does it
        # count those declined or cancelled at once (see seconds_since_last).
        user_id = challenger.user_id or 0
        since = await self._challenges.seconds_since_last(user_id)
        if since is not None and since < CHALLENGE_COOLDOWN_SECONDS:
            raise Refused(
                ChallengeTooSoon(CHALLENGE_COOLDOWN_SECONDS - since, CHALLENGE_COOLDOWN_SECONDS)
            )
        # Corrections and refusals are forgiven above, but each challenge notifies the person
        # challenged: one member is asked at most a few times in a row.
        asked = await self._challenges.made_to(user_id, opponent.user_id or 0, SAME_OPPONENT_WINDOW)
        if len(asked) >= SAME_OPPONENT_LIMIT:
            wait = SAME_OPPONENT_WINDOW - asked[SAME_OPPONENT_LIMIT - 1]
            raise Refused(
                ChallengedTooOften(
                    opponent, SAME_OPPONENT_LIMIT, SAME_OPPONENT_WINDOW, max(1, wait)
                )
            )
        challenge = await self._challenges.create(
            guild_id=where.guild_id,
            channel_id=where.channel_id,
            challenger=challenger,
            challenged=opponent,
            variant=get_variant(variant).name,
            challenger_side=side_choice(side),
            move_seconds=move_seconds,
            expires_in=self.expiry_seconds,
        )
        return ChallengePosted(challenge, in_thread, settings.default_move_seconds)

    async def shown(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows a challenge (its buttons come off when it expires)."""
        await self._challenges.set_message(challenge_id, message_id)

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """The person challenged says no."""
        try:
            return await self._challenges.decline(challenge_id, user_id)
        except (ChallengeClosed, NotAllowed) as error:
            raise answer_refused(error) from None

    async def cancel(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger takes the challenge back."""
        try:
            return await self._challenges.cancel(challenge_id, user_id)
        except (ChallengeClosed, NotAllowed) as error:
            raise answer_refused(error) from None

    async def accept(
        self, challenge_id: int, accepter: Participant, where: Where, open_thread: OpenThread
    ) -> Accepted:
        """The person challenged accepts: the game begins, in the challenge's channel or a
        thread of its own (when the server asks for one, or the channel has a game by now). A
        random side is drawn here."""
        try:
            return await self._accept(challenge_id, accepter, where, open_thread)
        except (ChallengeClosed, NotAllowed) as error:
            raise answer_refused(error) from None

    async def _accept(
        self, challenge_id: int, accepter: Participant, where: Where, open_thread: OpenThread
    ) -> Accepted:
        store = self._challenges
        challenge = await store.get(challenge_id)
        store.check_acceptable(challenge, accepter)  # before a thread is opened for its game
        settings = await self._settings.get(challenge.guild_id or 0)
        new = NewThread(challenge.challenger, accepter, challenge.variant)
        thread = None
        if self._wants_thread(where, challenge.channel_id, settings):
            thread = await open_thread(new)
        choice = challenge.challenger_side
        if choice == "random":
            attackers, _ = pick_sides(challenge.challenger, accepter, "random")
            choice = "attackers" if attackers == challenge.challenger else "defenders"
        try:
            _, record = await store.accept(
                challenge_id, accepter, challenger_side=choice, channel_id=thread
            )
        except ChannelBusy as error:
            # Another game took the channel meanwhile (two challenges accepted at once): this
            # one goes to a thread of its own, as it would have a moment later.
            if thread is not None or not where.threads:
                raise busy_refusal(await self._busy_with(error), where) from None
            thread = await open_thread(new)
            _, record = await store.accept(
                challenge_id, accepter, challenger_side=choice, channel_id=thread
            )
        return Accepted(challenge, self._hub.adopt(record), thread)

    async def expire_due(self) -> list[Challenge]:
        """Close every pending challenge whose time is up (those that expired while the bot was
        away too); returns those shown in a message, whose buttons must come off."""
        expired = await self._challenges.expire_due()
        return [challenge for challenge in expired if challenge.message_id is not None]

    # ------------------------------------------------------------------ the AI

    async def play_ai(
        self,
        where: Where,
        player: Participant,
        open_thread: OpenThread,
        *,
        variant: str = "tablut",
        side: str = "random",
        level: str = "medium",
    ) -> AIGameStarted:
        """Start a game against the AI where it was asked for, or in a thread of its own."""
        channel_id = where.channel_id
        rules = get_variant(variant)
        ai = Participant.ai(LEVELS.index(level) + 1)
        new = NewThread(player, ai, rules.name)
        thread = None
        if where.guild_id is not None:
            settings = await self._settings.get(where.guild_id)
            if self._wants_thread(where, channel_id, settings):
                thread = await open_thread(new)
        elif (busy := self._hub.get(channel_id)) is not None:
            raise Refused(BusyHere(busy.id, where))
        attackers, defenders = pick_sides(player, ai, side)

        async def create(venue: int) -> GameRecord:
            return await self._games.create(
                guild_id=where.guild_id,
                channel_id=venue,
                variant=rules.name,
                attackers=attackers,
                defenders=defenders,
                rated=True,
            )

        try:
            record = await create(channel_id if thread is None else thread)
        except ChannelBusy as error:
            # A game this process had not seen took the channel: as for a game it knew of,
            # this one goes to a thread of its own where one can be opened.
            if thread is not None or not where.threads:
                raise busy_refusal(await self._busy_with(error), where) from None
            await self._busy_with(error)  # and the unseen game is tracked from now on
            thread = await open_thread(new)
            record = await create(thread)
        return AIGameStarted(self._hub.adopt(record), level, thread)

    # ------------------------------------------------------------------ rematches

    async def rematch(self, where: Where, asker: Participant, game_id: int | None) -> Rematch:
        """A new game between the players of a finished game (by default the channel's last),
        with the sides swapped or, where the variant says so, the winner defending. Against the
        AI it begins at once; a person is asked, with a challenge. Only its players may ask,
        and a tournament's games have none (the event pairs the next)."""
        if game_id is None:
            game_id = await self._games.last_finished_in_channel(where.channel_id)
            if game_id is None:
                raise Refused(NothingToRematch())
        old = await self._games.get(game_id)
        if asker.user_id not in (old.attackers.user_id, old.defenders.user_id):
            raise Refused(NotYourRematch())
        if await self._tournaments.of_game(old.id) is not None:
            raise Refused(NoTournamentRematch())
        venues = await self._games.venues(old.id)
        if venues:  # played across two servers: asked, and played, in both
            return RematchAcross(old, venues)
        if (busy := self._hub.get(old.channel_id)) is not None:
            raise Refused(BusyHere(busy.id, where))
        attackers, defenders = rematch_sides(old)
        again = (attackers, defenders) == (old.attackers, old.defenders)
        if not (attackers.is_ai or defenders.is_ai):
            return await self._offer_rematch(old, asker, attackers, defenders, again)
        try:
            record = await self._games.create(
                guild_id=old.guild_id,
                channel_id=old.channel_id,
                variant=old.variant,
                attackers=attackers,
                defenders=defenders,
                move_seconds=old.move_seconds,
                # Not old.rated: that says whether the old game counted (one that ended before
                # both sides moved did not), and a rematch asks like any game; storage decides.
                rated=True,
            )
        except ChannelBusy as error:
            raise busy_refusal(await self._busy_with(error), where) from None
        return RematchStarted(old, self._hub.adopt(record), attackers, defenders, again)

    async def _offer_rematch(
        self,
        old: GameRecord,
        asker: Participant,
        attackers: Participant,
        defenders: Participant,
        again: bool,
    ) -> RematchOffered:
        """The rematch as a challenge to the other player, with the sides fixed."""
        opponent = defenders if attackers.user_id == asker.user_id else attackers
        # Not under the challenge cooldown (the players have just played each other), but one
        # open offer at a time, so the button cannot be used to spam the opponent.
        pending = await self._challenges.pending(old.channel_id)
        if any(c.challenger == asker for c in pending):
            raise Refused(AlreadyOffered())
        if any(c.challenger == opponent and c.challenged == asker for c in pending):
            # Both asked at once: one offer is enough, and theirs is waiting for this player.
            raise Refused(OfferWaiting(opponent))
        challenge = await self._challenges.create(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            challenger=asker,
            challenged=opponent,
            variant=old.variant,
            challenger_side="attackers" if attackers.user_id == asker.user_id else "defenders",
            move_seconds=old.move_seconds,
            rated=True,  # as in rematch(): the old game's flag says whether it counted
            expires_in=self.expiry_seconds,
        )
        return RematchOffered(old, challenge, attackers, defenders, opponent, again)

    # ------------------------------------------------------------------ places

    def _wants_thread(self, where: Where, channel_id: int, settings: ServerSettings) -> bool:
        busy = self._hub.get(channel_id)
        return wants_thread(where, settings, None if busy is None else busy.id)

    async def _busy_with(self, busy: ChannelBusy) -> int:
        """The id of the game that makes a channel busy. It may be one this process lost track
        of (its start's answer was lost): it is tracked from now on, so its players can go on."""
        live = await self._recover(busy.channel_id)
        return busy.game_id or (live.id if live is not None else 0)
