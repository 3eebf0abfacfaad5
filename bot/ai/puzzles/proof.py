"""Exact proofs of short forced wins: an AND/OR search on the rules engine's board.

The side to move (the *solver*) wins within ``n`` of its own moves when one of its moves ends
the game in its favour at once, or when it has a move after which *every* legal reply of the
opponent leaves it a win within ``n - 1``. Nothing here estimates: every reply is tried, and
the endings are the engine's own (:meth:`Board.make` returns the move's ending; a side left
without a legal move loses, as :class:`~bot.engine.game.Game` judges). Repetition cannot end a
line this short: a position needs eight plies to occur a third time, and these proofs look at
most ``2 * n - 1`` plies ahead of a fresh game.

The search runs on the fast core's C board when it is built (:class:`~bot.engine.core.FastBoard`,
the rules written once, in the engine: the C board is the proven twin of the Python one), else
on the Python :class:`~bot.engine.board.Board`, the reference; :meth:`Prover.board_for` picks.
Either way the search itself is this module's, so both give the same verdicts, the same trees
and the same position counts (the budget), and the tests hold them to it.

The wins at once (:meth:`Prover.winning_moves_now`, asked at every position) are found on the
C board by playing every move in C. On the Python board that would dominate the proofs, so
there the one shortcut is taken: only the moves that *could* end the game are played, chosen
by exact arguments written beside each test. ``Prover(variant, exhaustive=True)`` plays every
move on the Python board too; the tests hold the three ways to the same answers, and ``python
-m bot.ai.puzzles verify --reference [--exhaustive]`` re-proves the shipped puzzles on the
Python engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.engine import core
from bot.engine.board import DEFENDERS, Board, Status
from bot.engine.core import FastBoard
from bot.engine.rules import CopenhagenRules, rules_for
from bot.engine.tables import ATTACKER, EMPTY, MOVE_SHIFT, TARGET_MASK, Tables, tables_for
from bot.engine.types import Termination
from bot.engine.variants import Variant


class ProofBoard(Protocol):
    """What the prover reads and does on a board: :class:`~bot.engine.board.Board` (the
    reference) and :class:`~bot.engine.core.FastBoard` (the C board) both offer it."""

    @property
    def variant(self) -> Variant: ...
    @property
    def tables(self) -> Tables: ...
    @property
    def hash(self) -> int: ...
    @property
    def king(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def status(self) -> Status: ...
    @property
    def cells(self) -> Sequence[int]: ...
    @property
    def last_captures(self) -> tuple[int, ...]: ...
    def moves(self) -> list[int]: ...
    def has_moves(self) -> bool: ...
    def make(self, move: int) -> Status: ...
    def unmake(self) -> None: ...
    def king_routes(self) -> list[int]: ...
    def king_capturing_moves(self) -> list[int]: ...
    def captures_by(self, piece: int, target: int) -> list[int]: ...
    def pass_turn(self) -> None: ...


class ProofBudgetExceeded(Exception):
    """Raised when a proof needs more positions than its budget allows."""


Win = tuple[int, Termination]
"""A move that wins at once and the ending it brings (``NO_LEGAL_MOVE`` when the opponent is
left without a move)."""


class Prover:
    """Proves or refutes short forced wins in one variant; keeps what it proved between calls.

    :meth:`allow` caps the positions the following calls may visit; beyond the cap
    :class:`ProofBudgetExceeded` is raised and the board is left as it was found.

    It proves on whatever board it is given; :meth:`board_for` makes the one to use: the C
    board when the fast core is in use, unless ``reference`` asks for the Python engine.
    ``exhaustive`` plays every move for the wins at once on the Python board too.
    """

    def __init__(
        self, variant: Variant, *, exhaustive: bool = False, reference: bool = False
    ) -> None:
        self.variant = variant
        self.exhaustive = exhaustive
        self.reference = reference
        self.nodes = 0
        """Positions visited (all calls together)."""
        self._limit = -1
        self._budget: int | None = None
        # The Copenhagen family's rules add three endings and a capture that the fast test
        # of wins at once must look for; the rules object the engine built says which family.
        copenhagen = isinstance(rules_for(variant), CopenhagenRules)
        self._forts = copenhagen
        self._encirclement = copenhagen
        self._shieldwalls = copenhagen
        self._tuichi = variant.tuichi_wins
        # Proven results by position (the hash includes the side to move): the solver to move
        # wins within ``_win[h]`` moves / cannot win within ``_safe[h]``; the opponent to move
        # loses within ``_lost[h]`` / holds beyond ``_held[h]``.
        self._win: dict[int, int] = {}
        self._safe: dict[int, int] = {}
        self._lost: dict[int, int] = {}
        self._held: dict[int, int] = {}
        self._now: dict[int, list[Win]] = {}
        self._tables = tables_for(variant)
        n = variant.size
        last = n - 1
        self._edge_lines: list[frozenset[int]] = [frozenset() for _ in range(n * n)]
        for line in (
            frozenset(range(n)),
            frozenset(last * n + f for f in range(n)),
            frozenset(r * n for r in range(n)),
            frozenset(r * n + last for r in range(n)),
        ):
            for sq in line:
                self._edge_lines[sq] |= line

    # ------------------------------------------------------------------ public questions

    def allow(self, budget: int | None) -> None:
        """Let the calls from now on visit at most ``budget`` more positions (``None``: any)."""
        self._budget = budget
        self._limit = -1 if budget is None else self.nodes + budget

    def board_for(self, board: Board) -> ProofBoard:
        """A board to prove on, set up as ``board`` (its position and side to move): the fast
        core's when it is in use and ``reference`` is off, else a Python copy."""
        if not self.reference and core.extension() is not None:
            return FastBoard(board)
        return Board(board.variant, list(board.cells), board.turn)

    @property
    def engine(self) -> str:
        """Which board :meth:`board_for` gives: ``fast`` or ``python``."""
        return "python" if self.reference or core.extension() is None else "fast"

    def winning_moves_now(self, board: ProofBoard) -> list[Win]:
        """Every move of the side to move that wins at once, sorted by move."""
        key = board.hash
        known = self._now.get(key)
        if known is None:
            self._tick()
            if isinstance(board, FastBoard):
                known = board.winning_moves()
            elif self.exhaustive:
                known = self._naive_wins(board)
            else:
                known = self._fast_wins(board)
            known.sort()
            self._now[key] = known
        return known

    def shortest_win(self, board: ProofBoard, max_length: int) -> int:
        """The fewest moves (1 to ``max_length``) in which the side to move forces a win, or 0."""
        for length in range(1, max_length + 1):
            if self._wins_within(board, length):
                return length
        return 0

    def winning_move(self, board: ProofBoard, length: int) -> int | None:
        """A move with which the side to move wins within ``length`` of its moves: the first
        the proof tries (after :meth:`shortest_win` its tables answer at once), or ``None``."""
        wins = self.winning_moves_now(board)
        if wins:
            return wins[0][0]
        if length > 1:
            for move in self._solver_order(board):
                board.make(move)
                try:
                    if self._replies_lose(board, length - 1):
                        return move
                finally:
                    board.unmake()
        return None

    def wins_after(self, board: ProofBoard, max_length: int) -> int:
        """After the solver's move (the opponent to move on ``board``): the fewest further
        solver moves (0 to ``max_length``) that win against every reply, or -1 if none does.

        0 means the move already won (the game is over on ``board``).
        """
        if board.status is not None or not board.has_moves():
            return 0
        for length in range(1, max_length + 1):
            if self._replies_lose(board, length):
                return length
        return -1

    def refutation(self, board: ProofBoard, max_length: int) -> int | None:
        """After the solver's move (the opponent to move): a reply after which the solver
        cannot win within ``max_length`` moves, or ``None`` if every reply loses. A reply that
        wins for the opponent at once comes first, then the first holding reply in the
        order :meth:`replies_in_order` gives."""
        for reply in self.replies_in_order(board):
            status = board.make(reply)
            try:
                if status is not None or not board.has_moves():
                    return reply
                if not self._wins_within(board, max_length):
                    return reply
            finally:
                board.unmake()
        return None

    def replies_in_order(self, board: ProofBoard) -> list[int]:
        """The side to move's moves, those most likely to refute the other side's threats
        first: its own winning moves, then moves onto the squares the threats need (blocks,
        the king stepping away, captures of a threatening piece), then the rest."""
        wins = {move for move, _ in self.winning_moves_now(board)}
        threats = self.threats(board)
        critical: set[int] = set()
        n = self.variant.size
        for move, _ in threats:
            origin = move >> MOVE_SHIFT
            target = move & TARGET_MASK
            critical.add(origin)
            step = _step(origin, target, n)
            sq = origin
            while sq != target:
                sq += step
                critical.add(sq)
        # Sorting by (rank, move), done as a stable split of the sorted moves.
        moves = sorted(board.moves())
        if not threats:
            if not wins:
                return moves
            return [m for m in moves if m in wins] + [m for m in moves if m not in wins]
        king = board.king
        # captures_by takes only pieces next to the square the capturing piece lands on (its
        # capture pairs), so only moves landing beside a critical square can take one there.
        neighbours = self._tables.neighbours
        beside: set[int] = set()
        for sq in critical:
            beside.update(neighbours[sq])
        cells = board.cells
        first: list[int] = []
        second: list[int] = []
        third: list[int] = []
        for move in moves:
            if move in wins:
                first.append(move)
                continue
            origin = move >> MOVE_SHIFT
            target = move & TARGET_MASK
            if (
                target in critical
                or (origin == king and king >= 0)
                or (
                    target in beside
                    and any(sq in critical for sq in board.captures_by(cells[origin], target))
                )
            ):
                second.append(move)
            else:
                third.append(move)
        return first + second + third

    # ------------------------------------------------------------------ the AND/OR search

    def _tick(self) -> None:
        self.nodes += 1
        if self._limit >= 0 and self.nodes > self._limit:
            raise ProofBudgetExceeded(f"the proof needs more than {self._budget} positions")

    def _wins_within(self, board: ProofBoard, n: int) -> bool:
        """Whether the side to move forces a win within ``n`` of its moves."""
        key = board.hash
        if self._win.get(key, 99) <= n:
            return True
        if self._safe.get(key, 0) >= n:
            return False
        if self.winning_moves_now(board):
            self._win[key] = 1
            return True
        if n > 1:
            for move in self._solver_order(board):
                board.make(move)  # wins nothing at once: those were found above
                try:
                    won = self._replies_lose(board, n - 1)
                finally:
                    board.unmake()
                if won:
                    self._win[key] = n
                    return True
        self._safe[key] = n
        return False

    def _replies_lose(self, board: ProofBoard, n: int) -> bool:
        """The opponent to move: whether every reply leaves the solver a win within ``n``."""
        key = board.hash
        if self._lost.get(key, 99) <= n:
            return True
        if self._held.get(key, 0) >= n:
            return False
        self._tick()
        result = True
        for reply in self.replies_in_order(board):
            status = board.make(reply)
            try:
                if status is not None or not board.has_moves():
                    result = False  # the reply wins for the opponent
                elif not self._wins_within(board, n):
                    result = False
            finally:
                board.unmake()
            if not result:
                break
        if result:
            self._lost[key] = n
        else:
            self._held[key] = n
        return result

    def _solver_order(self, board: ProofBoard) -> list[int]:
        """The solver's moves, those that threaten something first (king moves and moves near
        the king); the order only speeds proofs up, every move is tried."""
        king = board.king
        moves = board.moves()
        if king < 0:
            return moves
        tables = board.tables
        near = set(tables.neighbours[king])
        for sq in list(near):
            near.update(tables.neighbours[sq])
        scored = []
        for move in moves:
            origin = move >> MOVE_SHIFT
            target = move & TARGET_MASK
            if origin == king:
                rank = 0
            elif target in near or origin in near:
                rank = 1
            else:
                rank = 2
            scored.append((rank, move))
        scored.sort()
        return [move for _, move in scored]

    # ------------------------------------------------------------------ wins at once

    def _naive_wins(self, board: ProofBoard) -> list[Win]:
        """Play every move: the reference that :meth:`_fast_wins` must agree with."""
        return [win for move in board.moves() if (win := _play_for_win(board, move))]

    def _fast_wins(self, board: ProofBoard) -> list[Win]:
        """The moves that win at once, playing only those that could.

        A move wins at once when :meth:`Board.make` returns an ending or leaves the opponent
        without a legal move. Each ending is looked for where it can happen; see the comments.
        """
        if board.status is not None:
            return []
        wins: dict[int, Termination] = {}
        candidates: set[int] = set()
        moves: list[int] | None = None
        if board.turn == DEFENDERS:
            king = board.king
            if king >= 0:
                # The king escapes by moving onto an escape square he can reach.
                for target in board.king_routes():
                    wins[king << MOVE_SHIFT | target] = Termination.KING_ESCAPED
                if self._tuichi:
                    # Tuichi may follow from any defenders' move (one that opens a line or
                    # captures a blocker); the variant is 7x7, so all are played.
                    moves = board.moves()
                    candidates.update(moves)
                if self._forts:
                    moves = moves if moves is not None else board.moves()
                    candidates.update(self._fort_candidates(board, moves))
        else:
            if board.king >= 0:
                # The rules list the moves that capture the king, exactly.
                candidates.update(board.king_capturing_moves())
                if self._encirclement:
                    moves = board.moves()
                    candidates.update(self._encircling_candidates(board, moves))
        if moves is None:
            moves = board.moves()
        candidates.update(self._stalemating_candidates(board, moves))
        for move in candidates:
            if move in wins:
                continue
            win = _play_for_win(board, move)
            if win:
                wins[move] = win[1]
        return list(wins.items())

    def _stalemating_candidates(self, board: ProofBoard, moves: list[int]) -> list[int]:
        """The moves that could leave the opponent without a legal move.

        Every move the opponent has now stays legal after ours unless our piece lands on its
        path or the moving piece is captured: our move frees squares (its origin, captured
        pieces) and fills one (its target), and legality depends on nothing else. So each of
        the opponent's movable pieces must stand next to our target (where a custodial capture
        happens and where one landing piece can block its only direction) or, with
        shieldwalls, on the same edge as our target.
        """
        board.pass_turn()
        try:
            theirs = board.moves()
        finally:
            board.pass_turn()
        if not theirs:
            return moves  # nothing to go by: a move of ours could free one of theirs
        neighbours = board.tables.neighbours
        allowed: set[int] | None = None
        for piece in {move >> MOVE_SHIFT for move in theirs}:
            here = set(neighbours[piece])
            if self._shieldwalls:
                here |= self._edge_lines[piece]
            allowed = here if allowed is None else allowed & here
            if not allowed:
                return []
        assert allowed is not None
        return [move for move in moves if move & TARGET_MASK in allowed]

    def _fort_candidates(self, board: ProofBoard, moves: list[int]) -> list[int]:
        """The defenders' moves that could build an exit fort.

        The fort is judged only with the king on the edge after the move: the king's moves to
        the edge, or, with the king already there, the other moves that could leave no
        attacker touching his fort (the king's square and the empty squares he reaches). Our
        move fills one square and frees others, so an attacker touching the fort now, through
        a path of empty squares from the king, still touches it unless the move lands on that
        path or captures the attacker (landing next to it, or on its edge for a shieldwall).
        With no attacker touching, any move could complete the wall.
        """
        king = board.king
        edge_lines = self._edge_lines
        candidates = [m for m in moves if m >> MOVE_SHIFT == king and edge_lines[m & TARGET_MASK]]
        if not edge_lines[king]:
            return candidates
        cells = board.cells
        neighbours = board.tables.neighbours
        parent = {king: -1}
        frontier = [king]
        touching: set[int] = set()
        allowed: set[int] | None = None
        while frontier:
            following = []
            for sq in frontier:
                for nb in neighbours[sq]:
                    piece = cells[nb]
                    if piece == EMPTY and nb not in parent:
                        parent[nb] = sq
                        following.append(nb)
                    elif piece == ATTACKER and nb not in touching:
                        touching.add(nb)
                        near = set(neighbours[nb]) | edge_lines[nb]
                        on_path = sq
                        while on_path != king:
                            near.add(on_path)
                            on_path = parent[on_path]
                        allowed = near if allowed is None else allowed & near
                        if not allowed:
                            return candidates  # no one move can cut off or take them all
            frontier = following
        if allowed is None:
            return moves
        return candidates + [
            m for m in moves if m >> MOVE_SHIFT != king and m & TARGET_MASK in allowed
        ]

    def _encircling_candidates(self, board: ProofBoard, moves: list[int]) -> list[int]:
        """The attackers' moves that could encircle the king's side.

        Encirclement needs the squares reachable from the king through anything but attackers
        to stay off the edge. If they reach it now, the moving attacker must cut every such
        path, so it lands on an empty square of any one path found (a move elsewhere leaves
        that path open: it only frees its origin and captured squares).
        """
        cells = board.cells
        edge_lines = self._edge_lines
        neighbours = board.tables.neighbours
        king = board.king
        parent = {king: -1}
        frontier = [king]
        reached = -1
        while frontier and reached < 0:
            following = []
            for sq in frontier:
                if edge_lines[sq]:
                    reached = sq
                    break
                for nb in neighbours[sq]:
                    if nb not in parent and cells[nb] != ATTACKER:
                        parent[nb] = sq
                        following.append(nb)
            frontier = following
        if reached < 0:
            return moves  # already cut off from the edge: any move might complete it
        path = set()
        sq = reached
        while sq >= 0:
            if cells[sq] == EMPTY:
                path.add(sq)
            sq = parent[sq]
        return [move for move in moves if move & TARGET_MASK in path]

    def threats(self, board: ProofBoard) -> list[Win]:
        """The moves with which the side *not* to move would win at once if it could move now:
        what the side to move must answer (the board is left as it was)."""
        if board.status is not None:
            return []
        board.pass_turn()
        try:
            return self.winning_moves_now(board)
        finally:
            board.pass_turn()


def _play_for_win(board: ProofBoard, move: int) -> Win | None:
    """Play ``move``; the ending it brings if it wins at once (the board is restored)."""
    status = board.make(move)
    try:
        if status is not None:
            return move, status
        if not board.has_moves():
            return move, Termination.NO_LEGAL_MOVE
        return None
    finally:
        board.unmake()


def _step(origin: int, target: int, size: int) -> int:
    if origin // size == target // size:
        return 1 if target > origin else -1
    return size if target > origin else -size
