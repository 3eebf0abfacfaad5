"""Texel's method (``python -m bot.ai.lab.tune texel``): exact features, quiet leaves, a fit."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.ai.evaluation import (
    CORNER_WEIGHTS,
    EDGE_WEIGHTS,
    TABLUT_ATTACKING_WEIGHTS,
    TUNABLE,
    Evaluator,
    Weights,
)
from bot.ai.lab import texel
from bot.ai.lab.tune import main
from bot.ai.search import Searcher
from bot.engine import Board, Game, get_variant, parse_square
from bot.engine.board import DEFENDERS


def _random_boards(variant: str, games: int, plies: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        game = Game(variant)
        for _ in range(plies):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
            if not game.is_over:
                boards.append(Board(game.variant, list(game.board.cells), game.board.turn))
    return boards


def _for_defenders(evaluator: Evaluator, board: Board) -> int:
    score = evaluator.evaluate(board)
    return score if board.turn == DEFENDERS else -score


def test_features_rebuild_the_evaluation_exactly() -> None:
    rng = random.Random(3)
    shuffled = Weights(**{name: rng.randint(-50, 300) for name in TUNABLE})
    cases = [
        ("copenhagen", CORNER_WEIGHTS),
        ("copenhagen", shuffled),
        ("brandubh", CORNER_WEIGHTS),
        ("tablut", EDGE_WEIGHTS),
        ("tablut", TABLUT_ATTACKING_WEIGHTS),
        ("tablut", shuffled),
    ]
    for name, weights in cases:
        variant = get_variant(name)
        features = texel.Features(variant, weights)
        evaluator = Evaluator(variant, weights)
        vector = [getattr(weights, n) for n in TUNABLE]
        boards = _random_boards(name, 3, 60, seed=len(name))
        assert len(boards) > 100
        for board in boards:
            base, found = features.vector(board)
            sample = texel.Sample(found, base, 1.0, 1)
            assert texel.value(sample, vector) == _for_defenders(evaluator, board), name


def test_the_recorded_games_give_quiet_leaves_the_search_agrees_with() -> None:
    variant = get_variant("copenhagen")
    games = list(itertools.islice(texel.copenhagen_games(skip=4, every=3), 4))
    assert [game.result for game in games] and all(game.positions for game in games)
    searcher = Searcher(variant, CORNER_WEIGHTS)
    leaves = 0
    for game in games:
        for board, history in game.positions:
            cells = list(board.cells)
            leaf = texel.quiet_leaf(searcher, board, history)
            assert list(board.cells) == cells  # the sampled position is left as it was
            if leaf is None:
                continue
            leaves += 1
            found = searcher.search(board, max_depth=1, history=history)
            value = searcher.evaluator.evaluate(leaf)
            assert found.score == (value if leaf.turn == board.turn else -value)
    assert leaves > 20


def test_a_won_fork_is_not_a_quiet_leaf() -> None:
    # The defenders to move, the king (c3) one move from c1, from which both a1 and k1 are
    # open: the search reads the win beyond its ply, which no evaluation should learn from.
    variant = get_variant("copenhagen")
    n = variant.size
    cells = [0] * (n * n)
    for name in ("a6", "k6", "f11"):
        cells[parse_square(name, n)] = 1
    cells[parse_square("c3", n)] = 3
    board = Board(variant, cells, DEFENDERS)
    assert texel.quiet_leaf(Searcher(variant, CORNER_WEIGHTS), board, []) is None
    # The start, where nothing is in flight, gives one.
    assert texel.quiet_leaf(Searcher(variant, CORNER_WEIGHTS), Board(variant), []) is not None


def test_a_small_fit_lowers_the_error_and_repeats_exactly() -> None:
    variant = get_variant("copenhagen")
    games = list(itertools.islice(texel.copenhagen_games(skip=4, every=2), 12))
    samples = texel.collect(games, variant, CORNER_WEIGHTS)
    assert {s.number % 2 for s in samples} == {0, 1}
    tuned, figures = texel.texel(samples, CORNER_WEIGHTS)
    assert figures["train_after"] < figures["train_before"]
    assert tuned.attacker == 100
    again, _ = texel.texel(samples, CORNER_WEIGHTS)
    assert again == tuned
    # A weight the fit is told to leave stays.
    held, _ = texel.texel(samples, CORNER_WEIGHTS, fixed=("attacker", "defender", "mobility"))
    assert (held.defender, held.mobility) == (CORNER_WEIGHTS.defender, CORNER_WEIGHTS.mobility)


def test_the_command_prints_weights_to_paste(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["texel", "--variant", "brandubh", "--selfplay", "4", "--level", "easy"]) == 0
    out = capsys.readouterr().out
    assert "held-out MSE" in out and "TUNED = Weights(" in out
