"""Proof that the fast core's board plays exactly as the Python engine's.

Both boards play the same games side by side, and in every position they must agree on
everything the rules decide: the legal moves (in the same order, since the search visits them
in it), their count, the king's open routes and the moves that capture him, the hash and the
squares, the hash and moves with the turn passed; before every move, its custodial captures,
after it, all it captured and how it ended the game, and after taking it back, the position
before it. The games are random (half the moves chosen among the captures,
so that pieces fall and games end as real ones do) or replayed from records.

The test suite runs a smoke of it on every variant; ``benchmarks/agreement.py`` runs 100,000
positions and the 1,752 recorded Copenhagen games.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .board import Board
from .core import STATUS, fast_board
from .rules import rules_for
from .tables import DEFENDER, MOVE_SHIFT, TARGET_MASK
from .types import Termination
from .variants import Variant

MAX_PLIES = 300
"""A random game longer than this starts over (tafl games seldom reach it)."""


@dataclass
class Agreement:
    """What a comparison covered, and every difference found (empty when the cores agree)."""

    positions: int = 0
    moves: int = 0
    captures: int = 0
    shieldwalls: int = 0
    """Moves that captured beyond the custodial captures (Copenhagen's shieldwalls)."""
    endings: dict[str, int] = field(default_factory=dict)
    differences: list[str] = field(default_factory=list)

    def add(self, other: Agreement) -> None:
        """Fold another comparison's figures into this one."""
        self.positions += other.positions
        self.moves += other.moves
        self.captures += other.captures
        self.shieldwalls += other.shieldwalls
        for name, count in other.endings.items():
            self.endings[name] = self.endings.get(name, 0) + count
        self.differences += other.differences


class _Pair:
    """A Python board and its C twin, moved together and compared."""

    def __init__(self, board: Board, report: Agreement, label: str) -> None:
        self.board = board
        self.fast = fast_board(board)
        self.rules = rules_for(board.variant)
        self.report = report
        self.label = label

    def differ(self, what: str, python: object, fast: object) -> bool:
        if python == fast:
            return False
        if len(self.report.differences) < 20:
            self.report.differences.append(
                f"{self.label}, ply {len(self.board.stack)}: {what}: Python {python!r}, "
                f"fast {fast!r}"
            )
        return True

    def check_position(self) -> bool:
        """Compare everything the rules say of the position; ``True`` when all agree."""
        board, fast = self.board, self.fast
        self.report.positions += 1
        bad = self.differ("cells", bytes(board.cells), fast.cells)
        bad |= self.differ("hash", board.hash, fast.hash)
        bad |= self.differ("turn", board.turn, fast.turn)
        bad |= self.differ("moves", board.moves(), fast.moves())
        bad |= self.differ("count_moves", board.count_moves(), fast.count_moves())
        bad |= self.differ("has_moves", board.has_moves(), fast.has_moves())
        bad |= self.differ("king_routes", board.king_routes(), fast.king_routes())
        bad |= self.differ(
            "king_capturing_moves", board.king_capturing_moves(), fast.king_capturing_moves()
        )
        if board.king >= 0 and not board.status:
            fort = sorted(self.rules.exit_fort(board))
            bad |= self.differ("exit_fort", fort, fast.exit_fort())
        # The other side to move on the same squares (the puzzle prover's threats).
        board.pass_turn()
        fast.pass_turn()
        try:
            bad |= self.differ("hash, the turn passed", board.hash, fast.hash)
            bad |= self.differ("moves, the turn passed", board.moves(), fast.moves())
        finally:
            board.pass_turn()
            fast.pass_turn()
        return not bad

    def make(self, move: int) -> Termination | None:
        """Play ``move`` on both; compare what it did."""
        board, fast = self.board, self.fast
        piece, target = board.cells[move >> MOVE_SHIFT], move & TARGET_MASK
        custodial = len(board.captures_by(piece, target))
        self.differ(
            f"custodial captures of {_text(move, board)}",
            board.captures_by(piece, target),
            fast.captures_by(piece, target),
        )
        status = board.make(move)
        fast_status = STATUS[fast.make(move)]
        self.report.moves += 1
        self.differ(f"status of {_text(move, board)}", status, fast_status)
        self.differ(
            f"captures of {_text(move, board)}", list(board.last_captures), fast.last_captures()
        )
        if board.last_captures:
            self.report.captures += 1
        if len(board.last_captures) > custodial:
            self.report.shieldwalls += 1
        if status is not None:
            self.report.endings[status.value] = self.report.endings.get(status.value, 0) + 1
        return status

    def unmake(self) -> None:
        self.board.unmake()
        self.fast.unmake()


def _text(move: int, board: Board) -> str:
    n = board.tables.size
    origin, target = move >> MOVE_SHIFT, move & TARGET_MASK
    return f"{origin % n},{origin // n}-{target % n},{target // n}"


def _around_group(board: Board) -> set[int]:
    """The squares next to the king and the defenders connected to him (where his capture, or
    his group's, is made)."""
    neighbours = board.tables.neighbours
    group = {board.king}
    frontier = [board.king]
    around: set[int] = set()
    while frontier:
        for square in neighbours[frontier.pop()]:
            if board.cells[square] == DEFENDER:
                if square not in group:
                    group.add(square)
                    frontier.append(square)
            else:
                around.add(square)
    return around


def _choose(board: Board, moves: list[int], rng: random.Random) -> int:
    """A random move, drawn towards what makes the rules work: captures, the squares around the
    king's group (his capture, the group's), the edges (shieldwalls, exit forts); the king's
    escapes are mostly left out so that games last long enough for the rest."""
    tables = board.tables
    is_escape = tables.is_escape
    king = board.king
    if king >= 0 and rng.random() < 0.85:
        staying = [m for m in moves if m >> MOVE_SHIFT != king or not is_escape[m & TARGET_MASK]]
        moves = staying or moves
    draw = rng.random()
    pool: list[int] = []
    if draw < 0.35:
        pool = [move for move in moves if board.would_capture(move)]
    elif draw < 0.6 and king >= 0:
        near = _around_group(board)
        pool = [move for move in moves if move & TARGET_MASK in near]
    elif draw < 0.75:
        n = tables.size
        pool = [
            move
            for move in moves
            if (move & TARGET_MASK) // n in (0, n - 1) or (move & TARGET_MASK) % n in (0, n - 1)
        ]
    return rng.choice(pool or moves)


def random_games(
    variant: Variant,
    positions: int,
    seed: int,
    starts: Sequence[tuple[list[int], int]] = (),
) -> Agreement:
    """Compare the cores over ``positions`` positions of random games, each from the start or
    from one of ``starts`` (cells and side to move, say positions of real games).

    The moves are drawn by :func:`_choose`; after one move in ten the move is taken back and
    the position compared again before it is played once more.
    """
    rng = random.Random(seed)
    report = Agreement()
    game = 0
    while report.positions < positions and len(report.differences) < 20:
        game += 1
        board = Board(variant, *rng.choice(starts)) if starts else Board(variant)
        pair = _Pair(board, report, f"{variant.name} game {game} (seed {seed})")
        while report.positions < positions:
            if not pair.check_position():
                break
            moves = pair.board.moves()
            if not moves or len(pair.board.stack) >= MAX_PLIES:
                break
            move = _choose(pair.board, moves, rng)
            if rng.random() < 0.1:
                pair.make(move)
                pair.unmake()
                if not pair.check_position():
                    break
            if pair.make(move) is not None:
                pair.check_position()  # a finished game: no moves, no routes to compare
                break
    return report


def replayed_games(variant: Variant, games: Iterable[list[int]], label: str) -> Agreement:
    """Compare the cores over every position of recorded games (engine move ints each)."""
    report = Agreement()
    for number, moves in enumerate(games, start=1):
        pair = _Pair(Board(variant), report, f"{label} {number}")
        for move in moves:
            if not pair.check_position() or move not in pair.board.moves():
                break
            if pair.make(move) is not None:
                pair.check_position()
                break
    return report


def tree(board: Board, depth: int, label: str) -> Agreement:
    """Compare the cores at every node of the full tree of move sequences from ``board`` to
    ``depth`` plies (a position set up next to a rule, every way to reach it or miss it)."""
    report = Agreement()
    pair = _Pair(Board(board.variant, list(board.cells), board.turn), report, label)

    def visit(remaining: int) -> None:
        if not pair.check_position() or remaining == 0:
            return
        for move in pair.board.moves():
            if pair.make(move) is None:
                visit(remaining - 1)
            else:
                pair.check_position()
            pair.unmake()

    visit(depth)
    return report
