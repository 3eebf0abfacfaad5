"""Perft: count move sequences from a position, to check move generation against known figures."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .tables import MOVE_SHIFT, TARGET_MASK
from .types import Move


@dataclass(frozen=True)
class PerftResult:
    """Leaf count of a perft run, with capturing leaves when asked for, and the divide table."""

    leaves: int
    captures: int | None
    divide: tuple[tuple[Move, int], ...]


def perft(board: Board, depth: int, *, captures: bool = False, divide: bool = False) -> PerftResult:
    """Run perft to ``depth``; ``divide`` also gives the count below each first move."""
    if not divide:
        if captures:
            leaves, capturing = board.perft_captures(depth)
            return PerftResult(leaves, capturing, ())
        return PerftResult(board.perft(depth), None, ())
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
                leaves, capturing = board.perft_captures(depth - 1)
            capture_total += capturing
        else:
            leaves = board.perft(depth - 1) if depth > 1 else 1
        board.unmake()
        rows.append((move, leaves))
        total += leaves
    return PerftResult(total, capture_total if captures else None, tuple(rows))
