"""The king tactics that decide tafl games: open routes, blocking them, capturing the king.

These answers are exact (they play the candidate moves on the board to confirm them) but look
only at the few squares that matter, so the search can ask them at every node.
"""

from __future__ import annotations

from bot.engine.board import Board
from bot.engine.tables import TARGET_MASK
from bot.engine.variants import Variant

from .geometry import EscapeRay, geometry_for


class KingTactics:
    """Route and king-capture questions for one variant."""

    def __init__(self, variant: Variant) -> None:
        geometry = geometry_for(variant)
        self.escape_rays = geometry.escape_rays
        self.king_barred = geometry.king_barred

    def open_rays(self, board: Board) -> list[EscapeRay]:
        """The king's open routes as rays (empty when there is no king)."""
        king = board.king
        if king < 0:
            return []
        rows = board.occ_rows
        cols = board.occ_cols
        return [
            ray
            for ray in self.escape_rays[king]
            if not ((cols if ray[0] else rows)[ray[1]] & ray[2])
        ]

    def has_route(self, board: Board) -> bool:
        """Whether the king has at least one open route."""
        king = board.king
        if king < 0:
            return False
        rows = board.occ_rows
        cols = board.occ_cols
        for is_file, line, mask, _ in self.escape_rays[king]:
            if not ((cols if is_file else rows)[line] & mask):
                return True
        return False

    def fork_squares(self, board: Board) -> list[tuple[int, set[int]]]:
        """Squares the king reaches in one move with two or more open routes from there.

        Each comes with the squares where a piece must land to stop that fork: the king's path
        to it (the square itself included) and the routes it would open. The king is not yet
        on an open route (the caller asks when there is none).
        """
        king = board.king
        if king < 0:
            return []
        cells = board.cells
        barred = self.king_barred
        escape_rays = self.escape_rays
        rows = board.occ_rows
        cols = board.occ_cols
        n = board.tables.size
        rank, file = divmod(king, n)
        # The king leaves his square, so the routes through it are seen as he will see them.
        rows[rank] ^= 1 << file
        cols[file] ^= 1 << rank
        forks = []
        try:
            for ray in board.tables.rays[king]:
                path: list[int] = []
                for sq in ray:
                    if cells[sq] or barred[sq]:
                        break
                    path.append(sq)
                    routes = [
                        route
                        for route in escape_rays[sq]
                        if not ((cols if route[0] else rows)[route[1]] & route[2])
                    ]
                    if len(routes) >= 2:
                        stoppers = set(path)
                        for route in routes:
                            stoppers.update(route[3])
                        forks.append((sq, stoppers))
        finally:
            rows[rank] ^= 1 << file
            cols[file] ^= 1 << rank
        return forks

    @staticmethod
    def capturing_moves(board: Board) -> list[int]:
        """Attackers' moves that capture the king now (whoever is to move on the board)."""
        return board.king_capturing_moves()

    @staticmethod
    def blocking_moves(board: Board, rays: list[EscapeRay]) -> list[int]:
        """The side to move's moves that land on one of ``rays`` (for attackers: blocks)."""
        squares = {sq for ray in rays for sq in ray[3]}
        return [move for move in board.moves() if move & TARGET_MASK in squares]
