"""The values the storage layer hands out: plain frozen dataclasses and string enums.

Times are timezone-aware UTC ``datetime`` objects here and whole epoch seconds in the database.
Sides are the strings ``"attackers"`` and ``"defenders"`` (the values of ``bot.engine.Side``), so
the Discord layer can pass ``side.value`` and read ``Side(record.turn)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

from bot.engine import Outcome, Side, Termination

from .glicko2 import Rating

SideName = Literal["attackers", "defenders"]
SIDES: tuple[SideName, SideName] = ("attackers", "defenders")

PLIES_TO_COUNT = 2
"""Moves in effect a game needs to count: one by each side, as sides alternate whoever starts.

A game that ends sooner (a resignation, a timeout or an agreed draw before the reply) is not rated
and is left out of statistics, so a rating cannot be farmed from games nobody played; lichess
aborts such games.
"""


def both_sides_moved(ply: int) -> bool:
    """Whether a game with ``ply`` moves in effect has seen a move by each side (so it counts)."""
    return ply >= PLIES_TO_COUNT


def other_side(side: SideName) -> SideName:
    """The opposing side's name."""
    return "defenders" if side == "attackers" else "attackers"


def to_datetime(seconds: int | None) -> datetime | None:
    """Epoch seconds from the database as an aware UTC datetime (``None`` stays ``None``)."""
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


class GameStatus(StrEnum):
    """Where a game is in its life."""

    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"
    """Ended without a result (e.g. called off before a move); never rated, not in statistics."""
    UNREPLAYABLE = "unreplayable"
    """Its stored moves no longer replay through the engine; kept for inspection, off the board."""


class GameResult(StrEnum):
    """Who won; the values equal :attr:`GameOutcome.result_text`."""

    ATTACKERS = "attackers"
    DEFENDERS = "defenders"
    DRAW = "draw"


class TableEnding(StrEnum):
    """How a game ends at the table rather than on the board: by its players (a resignation,
    an agreed draw), by the clock (a timeout), or by the table itself (an abandoned game).

    The board's endings are the rules', the engine's :class:`~bot.engine.Termination`; the two
    vocabularies together are every :data:`GameEnding`. The values are stable names, as the
    engine's are: the database stores them and game records write them in their
    ``termination`` tag, so a value that has shipped never changes.
    """

    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    AGREED_DRAW = "agreed draw"
    ABANDONED = "abandoned"
    """A game across servers whose player lost their venue (its channel was deleted) and did
    not continue the adjourned game elsewhere in time: they forfeit it."""

    @property
    def is_draw(self) -> bool:
        """Whether this ending is a draw (every other ending has a winner)."""
        return self is TableEnding.AGREED_DRAW


GameEnding = Termination | TableEnding
"""Why a game ended: on the board (the rules' :class:`~bot.engine.Termination`) or at the
table (:class:`TableEnding`). Stored by value; no value is in both vocabularies."""


def game_ending(value: str) -> GameEnding:
    """The ending a stored value names, the board's or the table's (``ValueError`` for one that
    is neither)."""
    for vocabulary in (Termination, TableEnding):
        try:
            return vocabulary(value)
        except ValueError:
            pass
    raise ValueError(f"{value!r} is not an ending of a game: neither the board's nor the table's")


@dataclass(frozen=True)
class GameOutcome:
    """How a game ended, on the board or at the table: the winner (``None`` for a draw) and
    why. A game the rules ended also has the engine's :class:`~bot.engine.Outcome`
    (:meth:`of` turns it into this)."""

    winner: Side | None
    termination: GameEnding

    def __post_init__(self) -> None:
        if (self.winner is None) != self.termination.is_draw:
            raise ValueError(
                f"a game cannot end with {self.result_text!r} by {self.termination.value!r}"
            )

    @classmethod
    def of(cls, outcome: Outcome) -> GameOutcome:
        """The outcome of a game the rules ended on the board."""
        return cls(outcome.winner, outcome.termination)

    @property
    def on_board(self) -> bool:
        """Whether the rules ended the game on the board (not its players, clock or table)."""
        return isinstance(self.termination, Termination)

    @property
    def result_text(self) -> str:
        """``attackers``, ``defenders`` or ``draw`` (the values of :class:`GameResult`)."""
        return self.winner.value if self.winner else "draw"


class ChallengeStatus(StrEnum):
    """Where a challenge is in its life; only ``PENDING`` can change."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


SideChoice = Literal["attackers", "defenders", "random"]


@dataclass(frozen=True)
class Participant:
    """One player of a game: a Discord user, or the bot's AI at a level.

    ``display_name`` is remembered for leaderboards of people the bot can no longer see; it does not
    take part in equality.
    """

    user_id: int | None = None
    ai_level: int | None = None
    display_name: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.ai_level is None):
            raise ValueError("a participant is either a user or the AI at a level")

    @classmethod
    def user(cls, user_id: int, display_name: str | None = None) -> Participant:
        """A Discord user."""
        return cls(user_id=user_id, display_name=display_name)

    @classmethod
    def ai(cls, level: int) -> Participant:
        """The bot's AI playing at ``level``."""
        return cls(ai_level=level)

    @property
    def is_ai(self) -> bool:
        """True for the bot's AI."""
        return self.ai_level is not None


@dataclass(frozen=True)
class GameRecord:
    """A game as stored, without its moves."""

    id: int
    guild_id: int | None
    channel_id: int
    variant: str
    start_position: str
    first_turn: SideName
    attackers: Participant
    defenders: Participant
    rated: bool
    """While active, whether it will count for ratings; once ended, whether it did (cleared when it
    ended before each side had moved, or was aborted)."""
    status: GameStatus
    result: GameResult | None
    reason: GameEnding | None
    """Why it ended, on the board or at the table (stored by value)."""
    ply: int
    """Moves in effect (after takebacks): the next move is ply ``ply + 1``."""
    move_seconds: int | None
    """Time allowed per move, ``None`` for no limit."""
    move_deadline: datetime | None
    reminder_sent: bool
    board_message_id: int | None
    problem: str | None
    """Why the game could not be replayed (status ``UNREPLAYABLE`` only)."""
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    board_ply: int | None = None
    """The ply of the position the board message shows (``None`` before the first board)."""

    @property
    def outcome(self) -> GameOutcome | None:
        """The stored result (``None`` until the game has ended with one): the only record of
        an ending at the table."""
        if self.result is None or self.reason is None:
            return None
        winner = None if self.result is GameResult.DRAW else Side(self.result.value)
        return GameOutcome(winner, self.reason)

    @property
    def both_sides_moved(self) -> bool:
        """Whether each side has a move in effect: only then is the game rated and counted."""
        return both_sides_moved(self.ply)

    @property
    def turn(self) -> SideName:
        """The side to move."""
        return self.first_turn if self.ply % 2 == 0 else other_side(self.first_turn)

    @property
    def player_to_move(self) -> Participant:
        """The participant whose turn it is."""
        return self.player(self.turn)

    def player(self, side: SideName) -> Participant:
        """The participant playing ``side``."""
        return self.attackers if side == "attackers" else self.defenders

    def side_of(self, user_id: int) -> SideName | None:
        """The side a Discord user plays here (``None`` if not a player; attackers if both)."""
        if self.attackers.user_id == user_id:
            return "attackers"
        if self.defenders.user_id == user_id:
            return "defenders"
        return None


@dataclass(frozen=True)
class MoveRecord:
    """One row of a game's append-only move log.

    ``kind == "move"``: ``move`` is the move text and ``ply`` its number (1 is the first move).
    ``kind == "takeback"``: ``move`` is ``None`` and ``ply`` is the ply the game returned to.
    """

    seq: int
    kind: Literal["move", "takeback"]
    ply: int
    move: str | None
    played_at: datetime


@dataclass(frozen=True)
class AppendedMove:
    """What the bot needs after a move was committed."""

    game_id: int
    ply: int
    move_deadline: datetime | None


@dataclass(frozen=True)
class Challenge:
    """An invitation to a game, open until accepted, declined, cancelled or expired."""

    id: int
    guild_id: int | None
    channel_id: int
    challenger: Participant
    challenged: Participant | None
    """``None`` for an open challenge that anyone in the channel may accept."""
    variant: str
    challenger_side: SideChoice
    move_seconds: int | None
    rated: bool
    """Whether the challenger asked for a rated game (it is rated only if allowed as well)."""
    status: ChallengeStatus
    message_id: int | None
    game_id: int | None
    created_at: datetime
    expires_at: datetime
    resolved_at: datetime | None


@dataclass(frozen=True)
class PlayerRating:
    """A participant's Glicko-2 rating in one variant, with the count of rated games behind it."""

    participant: Participant
    variant: str
    rating: Rating
    games: int
    wins: int
    losses: int
    draws: int

    @property
    def provisional(self) -> bool:
        """True while the rating deviation is high (shown with a "?")."""
        return self.rating.provisional


@dataclass(frozen=True)
class RatingChange:
    """How one game moved one participant's rating."""

    participant: Participant
    before: Rating
    after: Rating

    @property
    def delta(self) -> float:
        """Points gained (negative when lost)."""
        return self.after.rating - self.before.rating

    @property
    def shown_delta(self) -> int:
        """The change between the two ratings as shown, so "1500? → 1662? (+162)" adds up."""
        return round(self.after.rating) - round(self.before.rating)


@dataclass(frozen=True)
class FinishedGame:
    """The outcome of :meth:`GameStore.finish`: the final record and any rating changes."""

    record: GameRecord
    rating_changes: tuple[RatingChange, ...]
    ended_before_both_moved: bool = False
    """It would have been rated, but ended before each side had moved once, so it was not."""


OfferKind = Literal["draw", "takeback"]


@dataclass(frozen=True)
class StoredOffer:
    """A draw offer or takeback request waiting for the opponent: valid only at ``ply``."""

    game_id: int
    kind: OfferKind
    user_id: int
    """Who asked."""
    ply: int
    message_id: int | None
    """The message that carries its Accept/Decline buttons, once posted."""


@dataclass(frozen=True)
class LeaderboardEntry:
    """One line of a leaderboard."""

    rank: int
    user_id: int
    display_name: str | None
    rating: Rating
    games: int
    """Rated games counted for the board's gate (in this server for a server board)."""

    @property
    def provisional(self) -> bool:
        """True while the rating deviation is high."""
        return self.rating.provisional


@dataclass(frozen=True)
class SideRecord:
    """Wins, losses and draws with one side."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.losses + self.draws


@dataclass(frozen=True)
class Streak:
    """The run of equal results up to the latest game (``kind`` is ``None`` before any game)."""

    kind: Literal["win", "loss", "draw"] | None
    length: int


@dataclass(frozen=True)
class Results:
    """Wins, losses and draws with each side, against one kind of opponent."""

    as_attackers: SideRecord = SideRecord()
    as_defenders: SideRecord = SideRecord()

    @property
    def wins(self) -> int:
        """Wins with either side."""
        return self.as_attackers.wins + self.as_defenders.wins

    @property
    def losses(self) -> int:
        """Losses with either side."""
        return self.as_attackers.losses + self.as_defenders.losses

    @property
    def draws(self) -> int:
        """Draws with either side."""
        return self.as_attackers.draws + self.as_defenders.draws

    @property
    def games(self) -> int:
        """Games counted."""
        return self.as_attackers.games + self.as_defenders.games


@dataclass(frozen=True)
class PlayerStats:
    """A user's finished games that count, optionally limited to one server and/or variant.

    Games that ended before each side had moved, games against oneself and aborted games are left
    out everywhere.
    """

    user_id: int
    against_people: Results
    """Rated games against other people."""
    against_ai: Results
    """Games against the AI (rated only where a server says so)."""
    streak: Streak
    """Over both kinds of games."""

    @property
    def games(self) -> int:
        """Games counted, against people and the AI."""
        return self.against_people.games + self.against_ai.games


@dataclass(frozen=True)
class ServerSettings:
    """Per-server options (a server that never changed anything gets the defaults)."""

    guild_id: int
    rated_ai_games: bool = False
    game_threads: bool = False
    """Each new game gets its own thread (otherwise only when its channel is busy)."""
    default_move_seconds: int | None = None
    """Time per move for challenges that do not set one (``None``: no limit)."""
    lobby: bool = True
    """Whether the server takes part in the lobby shared by every server (``/tafl seek``)."""
    lobby_channels: frozenset[int] = frozenset()
    """The channels seeks are taken in (empty: any)."""
    lobby_variants: frozenset[str] = frozenset()
    """The variants its members may seek (empty: every one)."""
    lobby_times: frozenset[int] = frozenset()
    """The times per move (seconds) its members may seek (empty: every one the lobby offers)."""
    tournament_role: int | None = None
    """The role whose members may run tournaments (besides members who may manage the server)."""
    language: str | None = None
    """The Discord locale (``fr``, ``es-ES``...) its channels read the bot in (``None``: the
    server's preferred locale, as Discord reports it)."""


@dataclass(frozen=True)
class PlayerPreferences:
    """One person's options for the boards the bot draws for them (defaults until changed)."""

    user_id: int
    theme: str | None = None
    """The name of the renderer's theme the player chose (``None``: its default)."""
    flip: bool = False
    """Turn boards to the player's own side of the table (the Discord layer says when)."""
    notify: bool = False
    """A direct message when it is their move or their time runs low (once per move)."""
