"""Perft: count move sequences from a position, to check move generation against known figures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from . import core
from .board import Board
from .tables import MOVE_SHIFT, TARGET_MASK
from .types import Move

PUBLISHED: dict[tuple[str, int], tuple[int, int]] = {
    ("tablut", 1): (80, 0),
    ("tablut", 2): (4_400, 24),
    ("tablut", 3): (353_200, 4_640),
    ("tablut", 4): (19_913_864, 205_856),
    ("tablut-ashton", 1): (56, 0),
    ("tablut-ashton", 2): (4_408, 72),
    ("tablut-ashton", 3): (248_456, 4_368),
    ("tablut-ashton", 4): (19_159_224, 599_344),
    ("tablut-corner", 1): (56, 0),
    ("tablut-corner", 2): (3_968, 40),
    ("tablut-corner", 3): (225_224, 2_552),
    ("tablut-corner", 4): (16_170_968, 329_296),
    ("tablut-unarmed", 1): (72, 0),
    ("tablut-unarmed", 2): (3_944, 40),
    ("tablut-unarmed", 3): (285_728, 4_336),
    ("tablut-unarmed", 4): (15_951_824, 291_928),
    ("brandubh", 1): (40, 0),
    ("brandubh", 2): (960, 16),
    ("brandubh", 3): (39_512, 568),
    ("brandubh", 4): (1_007_392, 47_104),
    ("brandubh", 5): (41_843_336, 916_008),
    ("copenhagen", 1): (116, 0),
    ("copenhagen", 2): (6_788, 16),
    ("copenhagen", 3): (806_344, 4_200),
    ("fidchell", 1): (48, 0),
    ("fidchell", 2): (408, 0),
    ("fidchell", 3): (18_528, 704),
    ("fidchell", 4): (244_192, 12_864),
    ("fidchell", 5): (10_907_960, 442_200),
}
"""Ground truth from docs/RULES.md, which a test checks this against: (variant, depth) ->
(leaves, leaf moves that capture)."""


@dataclass(frozen=True)
class PerftResult:
    """Leaf count of a perft run, with capturing leaves when asked for, and the divide table."""

    leaves: int
    captures: int | None
    divide: tuple[tuple[Move, int], ...]


class _Counter(Protocol):
    """What counting asks of a board: the Python :class:`Board` or its C twin."""

    def perft(self, depth: int, /) -> int: ...
    def perft_captures(self, depth: int, /) -> tuple[int, int]: ...


def _counter(board: Board, fast: bool) -> _Counter:
    """The board to count on: its C twin for the fast core (same answers, far sooner)."""
    return core.fast_board(board) if fast else board


def perft(
    board: Board,
    depth: int,
    *,
    captures: bool = False,
    divide: bool = False,
    fast: bool | None = None,
) -> PerftResult:
    """Run perft to ``depth``; ``divide`` also gives the count below each first move.

    ``fast`` counts on the fast core (by default when it is in use, see :mod:`.core`); the
    Python board is the reference it is tested against.
    """
    use_fast = core.extension() is not None if fast is None else fast
    if not divide:
        counter = _counter(board, use_fast)
        if captures:
            leaves, capturing = counter.perft_captures(depth)
            return PerftResult(leaves, capturing, ())
        return PerftResult(counter.perft(depth), None, ())
    rows: list[tuple[Move, int]] = []
    total = 0
    capture_total = 0
    for encoded in sorted(board.moves()):
        move = Move(encoded >> MOVE_SHIFT, encoded & TARGET_MASK)
        board.make(encoded)
        if captures:
            if depth == 1:
                leaves, capturing = 1, int(bool(board.last_captures))
            else:
                leaves, capturing = _counter(board, use_fast).perft_captures(depth - 1)
            capture_total += capturing
        else:
            leaves = _counter(board, use_fast).perft(depth - 1) if depth > 1 else 1
        board.unmake()
        rows.append((move, leaves))
        total += leaves
    return PerftResult(total, capture_total if captures else None, tuple(rows))
