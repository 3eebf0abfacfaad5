"""The king tactics that decide tafl games: open routes, blocking them, capturing the king.

These answers are exact (they play the candidate moves on the board to confirm them) but look
only at the few squares that matter, so the search can ask them at every node.
"""

from __future__ import annotations

from bot.engine.board import ATTACKERS, DEFENDERS, Board
from bot.engine.rules import rules_for
from bot.engine.tables import ATTACKER, EMPTY, MOVE_SHIFT, TARGET_MASK
from bot.engine.types import Termination
from bot.engine.variants import Variant

from .geometry import EscapeRay, geometry_for

FORT_SIZE = 6
"""The most squares (the king's and the empty ones walled in with him) of an exit fort that the
search looks for a move to build: the 48 exit forts of the recorded Copenhagen games held two to
five."""

Fort = tuple[int, frozenset[int]]
"""A defenders' move that builds an exit fort, and the squares an attacker could reach to stop
it: the fort's squares and those the moving piece crosses."""


class KingTactics:
    """Route and king-capture questions for one variant."""

    def __init__(self, variant: Variant) -> None:
        geometry = geometry_for(variant)
        self.escape_rays = geometry.escape_rays
        self.king_barred = geometry.king_barred
        self.forts = rules_for(variant).forts_and_walls
        """Whether the defenders can win by an exit fort and the attackers by encirclement
        (Copenhagen)."""
        n = variant.size
        self.edge = bytes(
            1 if sq // n in (0, n - 1) or sq % n in (0, n - 1) else 0 for sq in range(n * n)
        )

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

    # ------------------------------------------------------------------ exit forts

    def fort_wins(self, board: Board, *, first: bool = False) -> list[Fort]:
        """The defenders' moves that would win now by an exit fort, whoever is to move on the
        board (the attackers ask what the defenders threaten), each with the squares where an
        attacker would stop it. ``first``: stop at the first one found.

        Only moves that can build a fort of at most :data:`FORT_SIZE` squares are tried (see
        :meth:`fort_candidates`); each is played, so what is found is a fort by the rules.
        """
        if not self.forts or board.king < 0:
            return []
        found: list[Fort] = []
        rules = board.rules
        n = board.tables.size
        for move in self.fort_candidates(board):
            if board.make(move) is Termination.EXIT_FORT:
                squares = set(rules.exit_fort(board))
                origin, target = move >> MOVE_SHIFT, move & TARGET_MASK
                step = (1 if target > origin else -1) * (1 if origin // n == target // n else n)
                squares.update(range(origin + step, target + step, step))
                found.append((move, frozenset(squares)))
            board.unmake()
            if found and first:
                break
        return found

    def fort_candidates(self, board: Board) -> list[int]:
        """The defenders' moves that might build an exit fort now, whoever is to move.

        The king off the edge: his moves onto it (a king's move leaves the squares walled in
        with him as they were, so only reaching the edge can finish a fort). On the edge, walled
        in with few squares: the moves onto or near them (a plug, a piece that makes the wall
        unbreakable, a capture of an attacker touching it) and the wall's own moves (freeing a
        king who cannot move). On the edge with many squares around: the moves that close the
        one gap between the king's few squares and the rest.
        """
        king = board.king
        turn = board.turn
        board.turn = DEFENDERS
        try:
            edge = self.edge
            if not edge[king]:
                return [move for move in board.king_moves() if edge[move & TARGET_MASK]]
            cells = board.cells
            neighbours = board.tables.neighbours
            region = self._walled_in(board, king, -1)
            if region is not None:
                near = set(region)
                for _ in range(2):
                    near |= {nb for sq in near for nb in neighbours[sq]}
                walls = {nb for sq in region for nb in neighbours[sq] if cells[nb] != EMPTY}
                return [
                    move
                    for move in board.moves()
                    if move & TARGET_MASK in near or move >> MOVE_SHIFT in walls
                ]
            # A plug is a square without which the king is walled in with few squares. The
            # first squares a flood from him reaches (one more than a fort may hold) reach each
            # other without any later square, so only one of them can be a plug.
            first = self._flood(board, king, -1, FORT_SIZE + 1)
            plugs = {sq for sq in first[1:] if self._walled_in(board, king, sq) is not None}
            if not plugs:
                return []
            return [move for move in board.moves() if move & TARGET_MASK in plugs]
        finally:
            board.turn = turn

    @classmethod
    def _walled_in(cls, board: Board, start: int, plug: int) -> list[int] | None:
        """``start`` and the empty squares reached from it through empty squares other than
        ``plug``, or ``None`` when they are more than :data:`FORT_SIZE`."""
        found = cls._flood(board, start, plug, FORT_SIZE + 1)
        return None if len(found) > FORT_SIZE else found

    @staticmethod
    def _flood(board: Board, start: int, plug: int, limit: int) -> list[int]:
        """``start`` and the empty squares reached from it through empty squares other than
        ``plug``, in the order a breadth-first flood reaches them, the first ``limit`` only."""
        cells = board.cells
        neighbours = board.tables.neighbours
        found = [start]
        index = 0
        while index < len(found):
            for nb in neighbours[found[index]]:
                if nb != plug and cells[nb] == EMPTY and nb not in found:
                    found.append(nb)
                    if len(found) == limit:
                        return found
            index += 1
        return found

    # ------------------------------------------------------------------ encirclement

    def encircling_moves(self, board: Board, *, first: bool = False) -> list[int]:
        """The attackers' moves that would win now by encirclement, whoever is to move (the
        defenders ask what the attackers threaten). ``first``: stop at the first one found.

        Only the moves :meth:`encirclement_candidates` leaves are tried; each is played, so
        what is found is an encirclement by the rules.
        """
        if not self.forts or board.king < 0:
            return []
        found: list[int] = []
        for move in self.encirclement_candidates(board):
            if board.make(move) is Termination.ENCIRCLEMENT:
                found.append(move)
            board.unmake()
            if found and first:
                break
        return found

    def encirclement_candidates(self, board: Board) -> list[int]:
        """The attackers' moves that might encircle the defenders now, whoever is to move.

        The king is encircled when no path through anything but attackers leads him to the
        edge (and every defender is inside). A move takes one square and frees another, so
        while the king has a path out, it can encircle only by taking a square that every
        path crosses: where two paths out share no square an attacker could take (found as a
        flow of two), no move encircles, and otherwise the squares of one path are the
        candidates. A king shut in already (the defenders outside or not): every move.
        """
        king = board.king
        edge = self.edge
        if edge[king]:
            return []
        tables = board.tables
        n = tables.size
        rank, file = divmod(king, n)
        # Two straight lines out free of attackers are two separate paths (the usual case).
        rows = board.side_rows[ATTACKERS]
        cols = board.side_cols[ATTACKERS]
        row, col = rows[rank], cols[file]
        free = (
            (not row >> (file + 1))
            + (not row & ((1 << file) - 1))
            + (not col >> (rank + 1))
            + (not col & ((1 << rank) - 1))
        )
        if free >= 2:
            return []
        path = self._path_out(board)
        if path is None:
            turn = board.turn
            board.turn = ATTACKERS
            try:
                return board.moves()
            finally:
                board.turn = turn
        if self._second_path_out(board, path):
            return []
        cells = board.cells
        moves: list[int] = []
        for sq in path[1:]:
            if cells[sq] == EMPTY:
                moves += board.attackers_reaching(sq)
        return moves

    def _path_out(self, board: Board) -> list[int] | None:
        """A shortest path from the king to the edge through anything but attackers (the
        king first), or ``None`` when there is none."""
        cells = board.cells
        edge = self.edge
        neighbours = board.tables.neighbours
        king = board.king
        parent = {king: king}
        queue = [king]
        index = 0
        while index < len(queue):
            sq = queue[index]
            index += 1
            for nb in neighbours[sq]:
                if nb not in parent and cells[nb] != ATTACKER:
                    parent[nb] = sq
                    if edge[nb]:
                        path = [nb]
                        while path[-1] != king:
                            path.append(parent[path[-1]])
                        path.reverse()
                        return path
                    queue.append(nb)
        return None

    def _second_path_out(self, board: Board, path: list[int]) -> bool:
        """Whether a second path from the king to the edge exists that shares no empty square
        with ``path`` (an augmenting path of the flow through the empty squares, each able to
        carry one path; the others, defenders, carry any number)."""
        cells = board.cells
        edge = self.edge
        neighbours = board.tables.neighbours
        # Each square has an entry (2 sq) and an exit (2 sq + 1); ``path`` carries one unit.
        before = {sq: path[i - 1] for i, sq in enumerate(path) if i}
        full = {sq for sq in before if cells[sq] == EMPTY}
        start = 2 * board.king + 1
        seen = {start}
        queue = [start]
        index = 0
        while index < len(queue):
            state = queue[index]
            index += 1
            sq = state >> 1
            if state & 1:
                if edge[sq]:
                    return True
                following = [2 * nb for nb in neighbours[sq] if cells[nb] != ATTACKER]
                if sq in before:
                    following.append(2 * sq)  # back through a square the path uses
            else:
                following = [] if sq in full else [2 * sq + 1]
                if sq in before:
                    following.append(2 * before[sq] + 1)  # back along the path
            for nxt in following:
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return False
