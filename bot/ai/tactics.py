"""The king tactics that decide tafl games: open routes, blocking them, capturing the king.

These answers are exact (they play the candidate moves on the board to confirm them) but look
only at the few squares that matter, so the search can ask them at every node.
"""

from __future__ import annotations

from bot.engine.board import GROUP_CAPTURED, KING_CAPTURED, Board
from bot.engine.tables import ATTACKER, DEFENDER, EMPTY, TARGET_MASK
from bot.engine.variants import KingCapture, Variant

from .geometry import EscapeRay, geometry_for


class KingTactics:
    """Route and king-capture questions for one variant."""

    def __init__(self, variant: Variant) -> None:
        geometry = geometry_for(variant)
        self.escape_rays = geometry.escape_rays
        self.centre_strong = variant.king_capture is KingCapture.CENTRE_STRONG
        self.group_capture = variant.group_capture

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

    def capture_targets(self, board: Board) -> list[int]:
        """Empty squares where an arriving attacker might complete the king's capture.

        A necessary condition only: :meth:`capturing_moves` confirms each candidate.
        """
        king = board.king
        if king < 0:
            return []
        tables = board.tables
        cells = board.cells
        neighbours = tables.neighbours[king]
        if self.centre_strong:
            throne = tables.throne
            if king == throne or king in tables.throne_neighbours:
                open_sides = [sq for sq in neighbours if sq != throne and cells[sq] != ATTACKER]
                if len(open_sides) == 1 and cells[open_sides[0]] == EMPTY:
                    return open_sides
                return []
            hostile = tables.hostile_to_defenders
            pairs = tables.capture_pairs
            result = []
            for sq in neighbours:
                if cells[sq] == EMPTY:
                    for victim, beyond in pairs[sq]:
                        if victim == king and (cells[beyond] == ATTACKER or hostile[beyond]):
                            result.append(sq)
            return result
        closes = tables.closes_ring
        liberties = [sq for sq in neighbours if cells[sq] == EMPTY and not closes[sq]]
        if not self.group_capture or len(liberties) > 1:
            return liberties if len(liberties) == 1 else []
        # Group capture: the whole group of defenders connected to the king has one liberty.
        all_neighbours = tables.neighbours
        group = {king}
        frontier = [king]
        free: set[int] = set()
        while frontier:
            sq = frontier.pop()
            for nb in all_neighbours[sq]:
                piece = cells[nb]
                if piece == DEFENDER:
                    if nb not in group:
                        group.add(nb)
                        frontier.append(nb)
                elif piece == EMPTY and not closes[nb]:
                    free.add(nb)
                    if len(free) > 1:
                        return []
        return list(free)

    def capturing_moves(self, board: Board) -> list[int]:
        """Attackers' moves that capture the king now (whoever is to move on the board)."""
        targets = self.capture_targets(board)
        if not targets:
            return []
        tables = board.tables
        n = tables.size
        line_moves = tables.line_moves
        fill = tables.fill_line
        own_rows = board.side_rows[0]
        own_cols = board.side_cols[0]
        result = []
        for target in targets:
            rank, file = divmod(target, n)
            candidates: list[int] = []
            mine = own_rows[rank]
            if mine:
                key = board.occ_rows[rank] << n | mine
                found = line_moves[rank].get(key)
                candidates += found if found is not None else fill(rank, key)
            mine = own_cols[file]
            if mine:
                key = board.occ_cols[file] << n | mine
                found = line_moves[n + file].get(key)
                candidates += found if found is not None else fill(n + file, key)
            for move in candidates:
                if move & TARGET_MASK == target:
                    status = board.make(move)
                    board.unmake()
                    if status in (KING_CAPTURED, GROUP_CAPTURED):
                        result.append(move)
        return result

    @staticmethod
    def blocking_moves(board: Board, rays: list[EscapeRay]) -> list[int]:
        """The side to move's moves that land on one of ``rays`` (for attackers: blocks)."""
        squares = {sq for ray in rays for sq in ray[3]}
        return [move for move in board.moves() if move & TARGET_MASK in squares]
