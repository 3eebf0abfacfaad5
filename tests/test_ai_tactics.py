"""The tactical suite: the ``hard`` level solves every position, in every variant.

Each position is checked first (it really is what its name says), then searched with a depth
limit, not a time limit, so the result does not depend on the machine's speed or load.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.ai import think
from bot.ai.search import MATE_BOUND
from bot.ai.tactics import KingTactics
from bot.engine import Board, Game, Side, get_variant, parse_square
from bot.engine.board import ATTACKERS, DEFENDERS
from bot.engine.otn import format_position

DEPTH = 3


@dataclass(frozen=True)
class Puzzle:
    """A position, the side to move and what a correct answer must achieve."""

    variant: str
    kind: str
    attackers: str
    defenders: str
    king: str
    turn: int

    def board(self) -> Board:
        variant = get_variant(self.variant)
        n = variant.size
        cells = [0] * (n * n)
        for name in self.attackers.split():
            cells[parse_square(name, n)] = 1
        for name in self.defenders.split():
            cells[parse_square(name, n)] = 2
        cells[parse_square(self.king, n)] = 3
        return Board(variant, cells, self.turn)

    def __str__(self) -> str:
        return f"{self.variant}-{self.kind}"


def _suite() -> list[Puzzle]:
    puzzles = []
    nine_edge = ("tablut", "tablut-ashton")
    for name in nine_edge:
        puzzles += [
            Puzzle(name, "escape-in-one", "c1 g7 h3 b7", "g3", "c3", DEFENDERS),
            Puzzle(name, "tuichi-in-two", "b5 c1 c9 g5 h7 g8 g2", "b8", "c5", DEFENDERS),
            Puzzle(name, "king-capture-in-one", "f7 h5 b2 c8", "b8", "f6", ATTACKERS),
            Puzzle(name, "block-raichi", "c6 a3 f3 e2 h8", "g7", "c3", ATTACKERS),
        ]
    for name in ("tablut-corner", "tablut-unarmed"):
        puzzles += [
            Puzzle(name, "escape-in-one", "c3 g7 h3", "g3", "a4", DEFENDERS),
            Puzzle(name, "tuichi-in-two", "b7 d5 h7 f5 g5", "g6", "c3", DEFENDERS),
            Puzzle(name, "king-capture-in-one", "d5 c4 e4 g3", "g7", "d4", ATTACKERS),
            Puzzle(name, "block-raichi", "a7 c2 e3 g7 d9", "g6", "a4", ATTACKERS),
        ]
    puzzles += [
        Puzzle("brandubh", "escape-in-one", "c3 f5 e2", "e6", "a4", DEFENDERS),
        Puzzle("brandubh", "tuichi-in-two", "b5 e3 f6", "f5", "c3", DEFENDERS),
        Puzzle("brandubh", "king-capture-in-one", "b7 c6 d5 f2", "e2", "c7", ATTACKERS),
        Puzzle("brandubh", "block-raichi", "a6 c3 e5 f6", "f5", "a4", ATTACKERS),
        Puzzle("fidchell", "escape-in-one", "c1 e5 f3 a5", "e2", "c3", DEFENDERS),
        Puzzle("fidchell", "tuichi-in-two", "a5 c1 c7 g5 e2 e6", "f6", "c5", DEFENDERS),
        Puzzle("fidchell", "king-capture-in-one", "b6 a4 f2 f6", "e6", "b5", ATTACKERS),
        Puzzle("fidchell", "block-raichi", "c5 a3 f3 e2 f6", "e6", "c3", ATTACKERS),
    ]
    # A defender on f2/g3 is threatened; the king is shut in by his own guard, whose lines
    # end on attackers, so saving the piece is the only sensible plan.
    save = {
        "tablut": "a5 i5 e1 e9 g2 i4",
        "tablut-ashton": "a7 i7 g2 i4",
        "tablut-corner": "a5 i5 e1 e9 g2 i4",
        "tablut-unarmed": "a5 i5 e1 e9 g2 i4",
    }
    for name, attackers in save.items():
        puzzles.append(
            Puzzle(name, "save-threatened-piece", attackers, "d5 f5 e4 e6 g3", "e5", DEFENDERS)
        )
    for name in ("brandubh", "fidchell"):
        puzzles.append(
            Puzzle(
                name,
                "save-threatened-piece",
                "a4 g4 d1 d7 f1 g3",
                "c4 e4 d3 d5 f2",
                "d4",
                DEFENDERS,
            )
        )
    return puzzles


SUITE = _suite()


def _attacker_captures(board: Board, square: int) -> bool:
    """Whether any attackers' move (the attackers to move) captures the piece on ``square``."""
    for move in board.moves():
        board.make(move)
        taken = square in board.last_captures
        board.unmake()
        if taken:
            return True
    return False


def _check_setup(puzzle: Puzzle, board: Board) -> None:
    """The position is what its name says (guards the suite itself)."""
    tactics = KingTactics(board.variant)
    kind = puzzle.kind
    side = Side.DEFENDERS if board.turn == DEFENDERS else Side.ATTACKERS
    game = Game(board.variant, format_position(board.cells, board.variant.size), side)
    assert not game.is_over
    if kind == "escape-in-one":
        assert board.king_routes()
    elif kind == "tuichi-in-two":
        assert not board.king_routes()
        assert not tactics.capturing_moves(board)
    elif kind == "king-capture-in-one":
        assert tactics.capturing_moves(board)
    elif kind == "block-raichi":
        assert len(board.king_routes()) == 1
        assert not tactics.capturing_moves(board)
    elif kind == "save-threatened-piece":
        assert not board.king_routes()
        board.turn = ATTACKERS
        threatened = [sq for sq, piece in enumerate(board.cells) if piece == 2]
        assert any(_attacker_captures(board, sq) for sq in threatened)
        board.turn = DEFENDERS


@pytest.mark.parametrize("puzzle", SUITE, ids=str)
def test_hard_level_solves_the_tactical_suite(puzzle: Puzzle) -> None:
    board = puzzle.board()
    _check_setup(puzzle, board)
    result = think(board, "hard", seed=1, max_depth=DEPTH, time_limit=120.0, fresh=True)
    assert result.move is not None
    kind = puzzle.kind
    if kind in ("escape-in-one", "king-capture-in-one"):
        status = board.make(result.move)
        assert status != 0, "the winning move was not played"
        board.unmake()
    elif kind == "tuichi-in-two":
        assert result.score > MATE_BOUND, "the forced escape was not found"
        assert result.move >> 9 == board.king
    elif kind == "block-raichi":
        board.make(result.move)
        assert not board.king_routes(), "the king's route was left open"
        board.unmake()
    elif kind == "save-threatened-piece" and result.score < MATE_BOUND:
        # (A forced win found instead is an even better answer.)
        board.make(result.move)
        assert board.turn == ATTACKERS
        defenders = [sq for sq, piece in enumerate(board.cells) if piece == 2]
        assert not any(_attacker_captures(board, sq) for sq in defenders), (
            "a defender can still be captured"
        )
        board.unmake()
    assert board.hash == puzzle.board().hash  # the search left the board as it found it
