"""BoardView: everything one board image shows, as a small frozen value.

The renderer draws a BoardView and nothing else, so it can be used (and tested) without the rules
engine; `adapter.board_view_from_game` builds one from an engine `Game`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

Square = int
"""A square index: rank_index * size + file_index, a1 = 0 at the bottom-left (as the engine)."""

EMPTY: Final = 0
ATTACKER: Final = 1
DEFENDER: Final = 2
KING: Final = 3
PIECE_CODES: Final = (EMPTY, ATTACKER, DEFENDER, KING)

MIN_SIZE: Final = 3
MAX_SIZE: Final = 26  # file letters a..z; the project plays up to 19x19
FILES: Final = "abcdefghijklmnopqrstuvwxyz"

_OTN_PIECES: Final = {"t": ATTACKER, "T": DEFENDER, "K": KING}

SideName = Literal["attackers", "defenders"]
"""A side as the caption names it."""

ArrowStyle = Literal["played", "better", "refused"]
"""How an arrow is drawn: the move that was played (solid), the one that should have been
(dashed, another colour), or a move tried and refused (solid, ending in a cross on its target
instead of a head): they stay apart by shape as well as by hue."""


@dataclass(frozen=True)
class Arrow:
    """An arrow from one square's centre to another's, over the pieces."""

    origin: Square
    target: Square
    style: ArrowStyle = "played"


@dataclass(frozen=True)
class Caption:
    """The optional strip above the board: players with their losses, whose turn, the last move
    with its number, and a status line. The renderer draws these texts as given (the caller
    words them: see ``adapter.CaptionWords``)."""

    attackers: str
    defenders: str
    to_move: SideName | None = None
    move_label: str | None = None
    """Number of the move shown as the game record writes it: "12." or "12…" (second mover)."""
    move_text: str | None = None
    """The move shown, e.g. "e1-e4"."""
    status: str | None = None
    """A short highlighted note: "Raichi!", "Defenders win: king escaped", ... When space is
    short, the part after a colon is dropped first."""
    attackers_lost: int = 0
    """Attackers' pieces captured so far, shown beside their player."""
    defenders_lost: int = 0
    """Defenders' pieces captured so far, shown beside their player."""
    status_first: bool = False
    """When space is short, drop the move's text before the status's detail ("better d4-d6"),
    and its number only after the detail: on a reviewed board the arrows show both moves, and
    the number tells which moment of the review the board is."""


@dataclass(frozen=True)
class BoardView:
    """One position plus the markers drawn over it. Squares are ints (see `Square`)."""

    size: int
    cells: tuple[int, ...]
    """Piece code per square (EMPTY, ATTACKER, DEFENDER, KING), length size * size."""
    throne: Square | None = None
    corners: frozenset[Square] = frozenset()
    camps: frozenset[Square] = frozenset()
    last_move: tuple[Square, Square] | None = None
    """(origin, target) of the move just played; the two squares share a rank or a file."""
    captured: tuple[tuple[Square, int], ...] = ()
    """(square, piece code) of each piece the last move captured, marked where it stood."""
    routes: tuple[Square, ...] = ()
    """Escape squares the king can reach in one move (Raichi/Tuichi), drawn from the king."""
    king_threatened: bool = False
    """The king can be captured by the attackers' next move."""
    fort: frozenset[Square] = frozenset()
    """The squares of an exit fort that won the game (the king's and the empty ones inside)."""
    arrows: tuple[Arrow, ...] = ()
    """Moves drawn as arrows over the board (the analysis: the move played, the better one)."""
    caption: Caption | None = None

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"board size {self.size} is outside {MIN_SIZE}..{MAX_SIZE}")
        area = self.size * self.size
        if len(self.cells) != area:
            raise ValueError(f"{len(self.cells)} cells given for a {self.size}x{self.size} board")
        if any(code not in PIECE_CODES for code in self.cells):
            raise ValueError("cells must hold piece codes 0 (empty) to 3 (king)")
        squares = [
            *self.corners,
            *self.camps,
            *self.routes,
            *self.fort,
            *(sq for sq, _ in self.captured),
        ]
        if self.throne is not None:
            squares.append(self.throne)
        if self.last_move is not None:
            squares.extend(self.last_move)
        for arrow in self.arrows:
            squares.extend((arrow.origin, arrow.target))
        if any(not 0 <= sq < area for sq in squares):
            raise ValueError(f"a marked square is off the {self.size}x{self.size} board")
        if any(code not in PIECE_CODES[1:] for _, code in self.captured):
            raise ValueError("captured pieces must be ATTACKER, DEFENDER or KING")
        if self.last_move is not None:
            origin, target = self.last_move
            if origin == target or (
                origin // self.size != target // self.size
                and origin % self.size != target % self.size
            ):
                raise ValueError("last_move must join two different squares on a rank or file")
        for arrow in self.arrows:
            if arrow.origin == arrow.target:
                raise ValueError("an arrow must join two different squares")
            if arrow.style not in get_args(ArrowStyle):
                styles = ", ".join(repr(style) for style in get_args(ArrowStyle))
                raise ValueError(f"unknown arrow style {arrow.style!r}: one of {styles}")

    @property
    def king_square(self) -> Square | None:
        """The king's square, or None when the king is not on the board."""
        try:
            return self.cells.index(KING)
        except ValueError:
            return None


def parse_otn_position(text: str) -> tuple[int, tuple[int, ...]]:
    """Parse an OTN position record into (size, cells), rank 1 first.

    Only the pieces this project plays are accepted: `t` attacker, `T` defender, `K` king; digit
    runs count empty squares. Raises ValueError quoting the input when it is malformed.
    """
    ranks = text.strip().strip("/").split("/")
    size = len(ranks)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"OTN position {text!r}: {size} ranks, expected {MIN_SIZE}..{MAX_SIZE}")
    cells: list[int] = []
    for number, rank in enumerate(ranks, start=1):
        row: list[int] = []
        run = ""
        for char in rank + "/":
            if char.isdigit():
                run += char
                continue
            if run:
                row.extend([EMPTY] * int(run))
                run = ""
            if char == "/":
                break
            if char not in _OTN_PIECES:
                raise ValueError(f"OTN position {text!r}: unknown piece {char!r} on rank {number}")
            row.append(_OTN_PIECES[char])
        if len(row) != size:
            raise ValueError(
                f"OTN position {text!r}: rank {number} has {len(row)} squares, expected {size}"
            )
        cells.extend(row)
    return size, tuple(cells)
