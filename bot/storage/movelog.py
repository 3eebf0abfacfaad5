"""Reading the append-only move log: which moves are in effect after takebacks.

A takeback never edits or deletes a move row. It appends a row of kind ``takeback`` whose ``ply`` is
the number of moves left in effect; the moves after that ply stay in the log as history. So the
moves in effect are found by replaying the log as a stack.
"""

from __future__ import annotations

from collections.abc import Iterable


class MoveLogError(ValueError):
    """The log contradicts itself (a takeback past the start, a move numbered out of turn)."""


def moves_in_effect(log: Iterable[tuple[str, int, str | None]]) -> list[str]:
    """The moves in effect, given ``(kind, ply, move)`` rows in log order."""
    moves: list[str] = []
    for kind, ply, move in log:
        if kind == "move":
            if ply != len(moves) + 1 or move is None:
                raise MoveLogError(f"move {move!r} is numbered {ply} after {len(moves)} moves")
            moves.append(move)
        elif kind == "takeback":
            if ply > len(moves):
                raise MoveLogError(f"a takeback returns to ply {ply} with only {len(moves)} moves")
            del moves[ply:]
        else:
            raise MoveLogError(f"unknown log entry kind {kind!r}")
    return moves
