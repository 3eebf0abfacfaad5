"""Evaluation terms per variant family, and the self-play tuner's plumbing."""

from __future__ import annotations

from bot.ai.evaluation import (
    CORNER_WEIGHTS,
    EDGE_WEIGHTS,
    TABLUT_ATTACKING_WEIGHTS,
    Evaluator,
    Weights,
    side_weights,
    weights_for,
)
from bot.ai.geometry import geometry_for
from bot.ai.lab.tune import play_pair
from bot.ai.player import think
from bot.engine import VARIANTS, Board, Game, get_variant, parse_square
from bot.engine.board import ATTACKERS, DEFENDERS
from bot.engine.tables import tables_for


def _board(variant: str, attackers: str, defenders: str, king: str, turn: int) -> Board:
    v = get_variant(variant)
    n = v.size
    cells = [0] * (n * n)
    for name in attackers.split():
        cells[parse_square(name, n)] = 1
    for name in defenders.split():
        cells[parse_square(name, n)] = 2
    cells[parse_square(king, n)] = 3
    return Board(v, cells, turn)


def test_weights_follow_the_variant_family() -> None:
    assert weights_for(get_variant("brandubh")) is CORNER_WEIGHTS
    assert weights_for(get_variant("tablut-corner")) is CORNER_WEIGHTS
    assert weights_for(get_variant("tablut")) is EDGE_WEIGHTS
    assert weights_for(get_variant("fidchell")) is EDGE_WEIGHTS


def test_the_start_position_is_balanced_by_construction() -> None:
    for name in ("tablut", "brandubh", "tablut-corner"):
        variant = get_variant(name)
        evaluator = Evaluator(variant)
        assert evaluator.evaluate(Board(variant, turn=DEFENDERS)) == evaluator.weights.tempo


def test_the_king_on_his_throne_is_as_near_an_escape_as_his_first_move_makes_him() -> None:
    # Where the king may not return to the throne (fidchell, tablut-ashton), the distance
    # table was built walking towards him and never reached his own square: it said 99
    # moves, so the king's first step off the throne looked like an army won.
    for name in VARIANTS:
        variant = get_variant(name)
        distance = geometry_for(variant).distance_to_escape
        assert distance[tables_for(variant).throne] <= 2, name
    fidchell = get_variant("fidchell")
    assert geometry_for(fidchell).distance_to_escape[parse_square("d4", 7)] == 1


def test_the_king_stepping_off_his_throne_is_not_worth_an_army() -> None:
    # The defenders make way and the king steps off the throne. Before, the defenders'
    # score jumped by some 1,600 to 1,900 (more than eight defenders are worth); now it moves
    # by less than one defender.
    for name, opening, step in (
        ("fidchell", ["g3-g2", "c5-c6", "g2-g3", "d5-c5", "g3-g2"], "d4-d5"),
        ("tablut-ashton", ["e4-h4", "d1-d2"], "e5-e4"),
    ):
        game = Game(name)
        for move in opening:
            game.play(move)
        evaluator = Evaluator(game.variant)
        before = evaluator.evaluate(Board(game.variant, list(game.board.cells), DEFENDERS))
        game.play(step)
        after = -evaluator.evaluate(Board(game.variant, list(game.board.cells), ATTACKERS))
        assert abs(after - before) < evaluator.weights.defender, (name, before, after)


def test_king_route_in_three_moves_is_seen() -> None:
    # The king (d4) is held to the d-file: no square he reaches has an open route, but from
    # d6 he can go on to a6, which has one (a7): an escape in three moves.
    board = _board("brandubh", "c3 c4 c5 e3 e4 e5 d1 d7", "", "d4", ATTACKERS)
    evaluator = Evaluator(board.variant)
    targets = evaluator.king_targets(board)
    assert not evaluator.threats(board, targets)
    assert evaluator.third_move_route(board, targets)
    walled = _board("brandubh", "c2 c3 c4 c5 c6 e2 e3 e4 e5 e6 d1 d7", "", "d4", ATTACKERS)
    assert not evaluator.third_move_route(walled, evaluator.king_targets(walled))


def test_attackers_guarding_corner_lines_are_rewarded() -> None:
    variant = get_variant("brandubh")
    evaluator = Evaluator(variant)
    guarded = _board("brandubh", "b1 a2", "", "d4", DEFENDERS)
    open_ = _board("brandubh", "c3 e5", "", "d4", DEFENDERS)
    assert evaluator.evaluate(guarded) < evaluator.evaluate(open_)


def test_a_tuning_pair_plays_both_sides() -> None:
    w = CORNER_WEIGHTS
    points, record, tie_break = play_pair("brandubh", w, w, ["d2-c2", "c4-c3"], 1, 40)
    assert record.games == 2
    assert 0.0 <= points <= 2.0 and tie_break in (-1, 0, 1)


def test_master_searches_tablut_with_the_weights_measured_for_its_side() -> None:
    tablut = get_variant("tablut")
    assert side_weights(tablut, ATTACKERS) is TABLUT_ATTACKING_WEIGHTS
    assert side_weights(tablut, DEFENDERS) is None
    assert side_weights(get_variant("tablut-ashton"), ATTACKERS) is None

    def score(level: str, board: Board, weights: Weights | None = None) -> int:
        return think(board, level, seed=1, max_depth=2, weights=weights, fresh=True).score

    # The attackers to move: master scores as the attacking weights do, hard as the defaults.
    opening = Board(tablut)
    assert score("master", opening) == score("master", opening, TABLUT_ATTACKING_WEIGHTS)
    assert score("master", opening) != score("master", opening, EDGE_WEIGHTS)
    assert score("hard", opening) == score("hard", opening, EDGE_WEIGHTS)
    # The defenders to move: master keeps the defaults.
    opening.make(opening.moves()[0])
    defending = Board(tablut, list(opening.cells), opening.turn)
    assert score("master", defending) == score("master", defending, EDGE_WEIGHTS)
