"""Search behaviour: reproducible levels, time budgets, repetition and the board left intact."""

from __future__ import annotations

import time

from bot.ai import MATE, Searcher, think
from bot.ai.player import choose_move_text
from bot.engine import Board, Game, get_variant


def test_seeded_levels_are_reproducible() -> None:
    for level in ("easy", "medium"):
        first = choose_move_text("tablut", None, None, ["d1-d3"], level, seed=42)
        again = choose_move_text("tablut", None, None, ["d1-d3"], level, seed=42)
        assert first == again


def test_weak_levels_vary_with_the_seed() -> None:
    moves = {choose_move_text("brandubh", None, None, [], "easy", seed=s) for s in range(8)}
    assert len(moves) > 1


def test_the_search_honours_its_time_budget() -> None:
    board = Board(get_variant("tablut"))
    started = time.perf_counter()
    result = think(board, "master", time_limit=0.3, fresh=True)
    assert time.perf_counter() - started < 1.0
    assert result.move in board.moves()
    assert board.hash == Board(get_variant("tablut")).hash


def test_depth_limit_is_respected() -> None:
    board = Board(get_variant("brandubh"))
    result = think(board, "hard", max_depth=2, time_limit=60, fresh=True)
    assert result.depth == 2


def test_a_position_with_no_move_is_lost() -> None:
    variant = get_variant("brandubh")
    game = Game(variant)
    board = Board(variant, list(game.board.cells), game.board.turn)
    board.status = 1  # a finished game has no moves
    result = Searcher(variant).search(board, max_depth=2)
    assert result.move is None and result.score == -MATE


def test_repetition_counts_as_a_draw() -> None:
    variant = get_variant("brandubh")
    game = Game(variant)
    for text in ("d1-c1", "c4-c3", "c1-d1", "c3-c4"):
        game.play(text)
    board = Board(variant, list(game.board.cells), game.board.turn)
    board.make(board.moves()[0])
    child = board.hash
    board.unmake()
    searcher = Searcher(variant)
    searcher.search(board, max_depth=1, history=[child])
    assert searcher.tt.get(child) is None or searcher.tt[child][2] == 0
