"""The fast core's rules engine (C, ``bot/engine/csrc/module.c``); :mod:`bot.engine.core` is its
Python face. Squares, moves (``origin << 9 | target``), piece codes (0 empty, 1 attacker, 2
defender, 3 king) and sides (0 attackers, 1 defenders) are the Python board's ints; a status is
a code of ``board.h`` (``ST_*``: 0 the game goes on), read through ``bot.engine.core.STATUS``.

The suite checks this stub against the built module (``tests/test_native.py``, mypy's stubtest).
"""

from typing import Final, final

SOURCE_DIGEST: Final[str]
"""The SHA-256 of the C sources it was built from (``bot.engine.core.source_digest``)."""
MAX_STACK: Final[int]
"""Moves a board can hold on its undo stack."""
MAX_SIZE: Final[int]
"""The largest board side it is built for."""

@final
class Spec:
    """A variant's compiled tables (``bot.engine.core.board_spec``)."""

    def __init__(self, data: dict[str, object]) -> None: ...
    @property
    def size(self) -> int:
        """The board's size."""

@final
class Board:
    """The fast core's make/unmake board (``bot.engine.core.FastBoard``)."""

    def __init__(self, spec: Spec, cells: bytes, turn: int) -> None: ...
    def moves(self) -> list[int]:
        """Every legal move, in ``Board.moves``' order."""
    def count_moves(self) -> int:
        """How many legal moves."""
    def has_moves(self) -> bool:
        """Whether there is a legal move."""
    def king_routes(self) -> list[int]:
        """The king's open routes."""
    def king_capturing_moves(self) -> list[int]:
        """The attackers' moves that capture the king now."""
    def exit_fort(self) -> list[int]:
        """The squares of the king's exit fort when it holds (Copenhagen), else ``[]``."""
    def is_legal(self, move: int, /) -> bool:
        """Whether a move is legal."""
    def make(self, move: int, /) -> int:
        """Play a legal move; returns its status code."""
    def unmake(self) -> None:
        """Take back the last move."""
    def last_captures(self) -> list[int]:
        """The squares the last move captured on."""
    def captures_by(self, piece: int, target: int, /) -> list[int]:
        """The custodial captures of a piece arriving on a square (``Board.captures_by``)."""
    def pass_turn(self) -> None:
        """Give the move to the other side, the position unchanged (``Board.pass_turn``)."""
    def winning_moves(self) -> list[tuple[int, int]]:
        """``(move, status)`` of every move that wins at once, status 0 when it leaves the
        other side no legal move; each move played."""
    def perft(self, depth: int, /) -> int:
        """Leaf count to a depth."""
    def perft_captures(self, depth: int, /) -> tuple[int, int]:
        """Leaf count and capturing leaf moves to a depth."""
    @property
    def hash(self) -> int:
        """The Zobrist hash (as ``Board.hash``)."""
    @property
    def king(self) -> int:
        """The king's square (-1: none)."""
    @property
    def turn(self) -> int:
        """The side to move (0 attackers, 1 defenders)."""
    @property
    def status(self) -> int:
        """How the last move ended the game (0: not)."""
    @property
    def ply(self) -> int:
        """Moves made and not taken back."""
    @property
    def cells(self) -> bytes:
        """The piece code of every square."""
