"""Small value types shared by the whole engine: squares, sides, pieces, moves and endings."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum, StrEnum

from .errors import MoveParseError, because

Square = int
"""A square index: ``rank_index * size + file_index``; ``a1`` (bottom left) is 0."""

FILES = "abcdefghijklmnopqrs"
MAX_SIZE = len(FILES)


class Side(Enum):
    """The two sides of a tafl game."""

    ATTACKERS = "attackers"
    DEFENDERS = "defenders"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.DEFENDERS if self is Side.ATTACKERS else Side.ATTACKERS

    @classmethod
    def parse(cls, text: str) -> Side:
        """Read ``attackers``/``defenders`` (also ``a``/``d``, any case)."""
        word = text.strip().lower()
        for side in cls:
            if word in (side.value, side.value[0], side.value.rstrip("s")):
                return side
        raise ValueError(f"{text!r} is not a side: expected 'attackers' or 'defenders'")


class Piece(IntEnum):
    """What stands on a square."""

    EMPTY = 0
    ATTACKER = 1
    DEFENDER = 2
    KING = 3

    @property
    def side(self) -> Side | None:
        """The side this piece belongs to (``None`` for an empty square)."""
        if self is Piece.ATTACKER:
            return Side.ATTACKERS
        if self is Piece.EMPTY:
            return None
        return Side.DEFENDERS


class Escape(Enum):
    """Where the king escapes to."""

    EDGE = "edge"
    CORNER = "corner"


class Termination(StrEnum):
    """How the rules end a game on the board: the engine's vocabulary of endings.

    How a game ends at the table instead (a resignation, a loss on time, an agreed draw, an
    abandoned game) is the players', the clock's and the table's business, not the rules': that
    vocabulary lives with the games that store it (``bot.storage.TableEnding``). The values are
    stable names: the database stores them and game records write them in their
    ``termination`` tag, so a value that has shipped never changes.
    """

    KING_ESCAPED = "king escaped"
    KING_CAPTURED = "king captured"
    GROUP_CAPTURED = "king's group surrounded"
    TUICHI = "tuichi"
    EXIT_FORT = "exit fort"
    ENCIRCLEMENT = "encirclement"
    NO_LEGAL_MOVE = "no legal move"
    REPETITION = "threefold repetition"
    PERPETUAL_REPETITION = "perpetual repetition"
    """The third occurrence of a position where the rules forbid repeating it (Copenhagen:
    the defenders lose)."""

    @property
    def is_draw(self) -> bool:
        """Whether this ending is a draw (every other ending has a winner)."""
        return self is Termination.REPETITION


@dataclass(frozen=True)
class Outcome:
    """How the rules ended a game on the board: the winner (``None`` for a draw) and why."""

    winner: Side | None
    termination: Termination

    def __post_init__(self) -> None:
        if (self.winner is None) != self.termination.is_draw:
            raise ValueError(
                f"a game cannot end with {self.result_text!r} by {self.termination.value!r}"
            )

    @property
    def result_text(self) -> str:
        """``attackers``, ``defenders`` or ``draw``."""
        return self.winner.value if self.winner else "draw"


def square_name(square: Square, size: int) -> str:
    """Name a square in algebraic form, e.g. ``e4``."""
    rank, file = divmod(square, size)
    return f"{FILES[file]}{rank + 1}"


_SQUARE_RE = re.compile(r"([a-s])(\d{1,2})")


def parse_square(text: str, size: int) -> Square:
    """Read a square name such as ``e4`` (any case) on a board of ``size``."""
    match = _SQUARE_RE.fullmatch(text.strip().lower())
    if not match:
        raise because(
            MoveParseError(f"{text!r} is not a square: expected a letter and a number like 'e4'"),
            "not a square",
            square=text,
        )
    file = FILES.index(match.group(1))
    rank = int(match.group(2)) - 1
    if file >= size or not 0 <= rank < size:
        last = f"{FILES[size - 1]}{size}"
        raise because(
            MoveParseError(f"{text!r} is off the board: squares run from a1 to {last}"),
            "square off the board",
            square=text,
            last=last,
        )
    return rank * size + file


@dataclass(frozen=True, order=True)
class Move:
    """A move of one piece from ``origin`` to ``target`` along a rank or file."""

    origin: Square
    target: Square

    def text(self, size: int) -> str:
        """The simple OTN form, e.g. ``e1-e4``."""
        return f"{square_name(self.origin, size)}-{square_name(self.target, size)}"

    @classmethod
    def parse(cls, text: str, size: int) -> Move:
        """Read the strict ``e1-e4`` form (see ``Game.parse_move`` for forgiving input)."""
        origin, sep, target = text.strip().partition("-")
        if not sep:
            raise MoveParseError(f"{text!r} is not a move: expected a form like 'e1-e4'")
        return cls(parse_square(origin, size), parse_square(target, size))


@dataclass(frozen=True, order=True)
class MoveNumber:
    """A move's place in a game's full-move numbering, as game records write it.

    A full move is a move of the side that moves first under the variant's rules followed by a
    move of the other side, numbered from 1 (OTN turns pair moves the same way). ``str()`` gives
    ``12.`` for the first mover's move and ``12…`` for the second mover's.
    """

    number: int
    second: bool
    """Made by the side that moves second under the variant's rules."""

    @classmethod
    def of(cls, ply: int, first_mover: Side, rules_first: Side) -> MoveNumber:
        """The number of the ``ply``-th move (1 is the first move played) of a game whose first
        move was ``first_mover``'s, under rules where ``rules_first`` moves first.

        A game set up with the other side to move starts with ``1…``: its first move is the
        second half of full move 1 (so each side's moves keep their ``.`` or ``…``).
        """
        if ply < 1:
            raise ValueError(f"ply {ply}: moves are counted from 1")
        half = ply - 1 + (first_mover is not rules_first)
        return cls(half // 2 + 1, half % 2 == 1)

    def __str__(self) -> str:
        return f"{self.number}{'…' if self.second else '.'}"


@dataclass(frozen=True)
class MoveResult:
    """Everything a move did, as the bot and the renderer need it."""

    move: Move
    side: Side
    captures: tuple[Square, ...]
    king_captured: bool
    routes: tuple[Square, ...]
    king_threatened: bool
    outcome: Outcome | None
    notation: str

    @property
    def raichi(self) -> bool:
        """The defenders' move left the king exactly one open route."""
        return self.side is Side.DEFENDERS and len(self.routes) == 1

    @property
    def tuichi(self) -> bool:
        """The defenders' move left the king two or more open routes."""
        return self.side is Side.DEFENDERS and len(self.routes) >= 2
