"""Post-game analysis: scores of single positions, and the moments the review finds in games whose
decisive moves are known (built by hand on brandubh boards, searched at small depths)."""

from __future__ import annotations

import json
import math

import pytest
from copenhagen_records import load_games
from helpers import BRANDUBH_GROUP_CAPTURE, position
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import explain, fast
from bot.ai.analysis import (
    CALIBRATIONS,
    GameAnalysis,
    MomentKind,
    PositionEval,
    accuracy_of,
    calibration_for,
    chance_for,
    deepen,
    default_depth,
    evaluate_position,
    review,
    side_accuracy,
    volatility_weights,
    win_chance,
)
from bot.ai.explain import describe
from bot.ai.search import MATE, MATE_BOUND, Searcher
from bot.engine import Board, Game, Side, Termination, get_variant

DEPTH = 2


def analyse(pieces: str, turn: str, moves: list[str], variant: str = "brandubh") -> GameAnalysis:
    """Evaluate every position of a short game from a hand-built position and review it."""
    start = position(Game(variant).size, pieces)
    side = Side.parse(turn)
    evals = [
        evaluate_position(variant, start, side, moves[:ply], max_depth=DEPTH)
        for ply in range(len(moves) + 1)
    ]
    return review(variant, start, side, moves, evals)


# --- one position ------------------------------------------------------------------------------


def test_a_finished_game_scores_its_result_without_searching() -> None:
    start = position(7, "K:a4 t:a5,a3,b6,e7 T:d3")
    game = Game("brandubh", start, Side.ATTACKERS)
    game.play("b6-b4")  # the king is surrounded on the edge
    assert game.outcome is not None and game.outcome.winner is Side.ATTACKERS
    evaluation = evaluate_position("brandubh", start, Side.ATTACKERS, ["b6-b4"], max_depth=DEPTH)
    assert evaluation == PositionEval(MATE, None)
    assert evaluation.mate_in == 0 and evaluation.depth == evaluation.nodes == 0


def test_scores_are_from_the_attackers_point_of_view_whoever_moves() -> None:
    # The defenders to move with an escape in one: a forced win for them, so a negative score.
    escape = evaluate_position(
        "brandubh",
        position(7, "K:a4 t:a3,b2,b6,c5,e7,g3 T:d3,e4"),
        Side.DEFENDERS,
        [],
        max_depth=DEPTH,
    )
    assert escape.score == -(MATE - 1) and escape.mate_in == -1
    assert escape.best_move == "a4-a7" and escape.pv[0] == "a4-a7"
    assert escape.for_side(Side.DEFENDERS) == MATE - 1
    # The attackers to move with the king's capture in one.
    capture = evaluate_position(
        "brandubh",
        position(7, "K:a4 t:a5,a3,b6,e7,g3,f1 T:d3,e5"),
        Side.ATTACKERS,
        [],
        max_depth=DEPTH,
    )
    assert capture.score == MATE - 1 and capture.best_move == "b6-b4"


def test_a_depth_limited_evaluation_is_the_same_every_time() -> None:
    moves = ["e2-c2", "c5-c3", "a4-b4"]
    first = evaluate_position("tablut", None, None, moves, max_depth=3)
    assert first.depth == 3 and first.nodes > 0 and abs(first.score) < MATE_BOUND
    assert first.best_move is not None and first.pv[0] == first.best_move
    # Another searcher searched something else in between: it must not matter.
    evaluate_position("tablut", None, None, ["d1-d3"], max_depth=3)
    assert evaluate_position("tablut", None, None, moves, max_depth=3) == first


def test_the_default_budget_is_a_depth_per_board_size_and_build() -> None:
    # With the fast core: at least 7 on 7x7, 6 on 9x9 and 11x11; two or three plies fewer without.
    assert [default_depth(v, fast=True) for v in ("brandubh", "tablut", "copenhagen")] == [7, 6, 6]
    assert [default_depth(v, fast=False) for v in ("brandubh", "tablut", "copenhagen")] == [5, 4, 3]
    built = fast.extension() is not None
    assert default_depth("tablut") == (6 if built else 4)


def test_a_review_reads_late_moves_two_plies_shallower() -> None:
    # Its fixed-depth searches use the even reductions (the levels' searches do not): the
    # same positions as such a search, not those the levels' reductions read.
    moves = ["d2-c2", "e4-e2", "d6-e6", "c4-c5"]
    evaluation = evaluate_position("brandubh", None, None, moves, max_depth=5)
    game = Game("brandubh")
    for move in moves:
        game.play(move)
    board = Board(game.variant, list(game.board.cells), game.board.turn)
    even = Searcher(game.variant, even_reductions=True).search(board, max_depth=5)
    levels = Searcher(game.variant).search(board, max_depth=5)
    assert evaluation.nodes == even.nodes != levels.nodes


def test_winning_chances_and_accuracy_follow_their_formulas() -> None:
    assert win_chance(0) == 0.5
    assert win_chance(MATE - 3) == 1.0 and win_chance(-(MATE - 3)) == 0.0
    assert 0.55 < win_chance(100) < 0.56  # an attacker up is 55% in a variant with no data
    tablut = calibration_for("tablut")
    assert win_chance(625, tablut) == 0.5 and 0.19 < win_chance(25, tablut) < 0.22
    assert chance_for(Side.DEFENDERS, PositionEval(100, "d1-d3")) == pytest.approx(
        1 - win_chance(100)
    )
    assert PositionEval(0, None).chance(calibration_for("tablut")) == 0.5  # a drawn game
    copenhagen = calibration_for("copenhagen")
    assert copenhagen is CALIBRATIONS["copenhagen"]
    assert win_chance(copenhagen.centre, copenhagen) == 0.5
    assert accuracy_of(0.0) == pytest.approx(100.0, abs=0.01)
    assert accuracy_of(0.1) == pytest.approx(63.6, abs=0.1)
    assert accuracy_of(1.0) == 0.0


# --- the moments --------------------------------------------------------------------------------


def test_a_missed_escape_in_one_is_a_missed_win_with_the_escape_named() -> None:
    analysis = analyse("K:a4 t:a3,b2,b6,c5,e7,g3 T:d3,e4", "defenders", ["d3-d2"])
    [moment] = analysis.moments
    assert (moment.ply, moment.side, moment.kind) == (1, Side.DEFENDERS, MomentKind.MISSED_WIN)
    assert (moment.move, moment.better) == ("d3-d2", "a4-a7")
    assert describe(moment.reason) == "a4-a7 was an escape for the king"
    assert moment.before == -(MATE - 1) and abs(moment.after) < MATE_BOUND
    assert moment.critical and moment.loss > 0.5


def test_a_missed_king_capture_is_a_missed_win() -> None:
    analysis = analyse("K:a4 t:a5,a3,b6,e7,g3,f1 T:d3,e5", "attackers", ["f1-f2"])
    [moment] = analysis.moments
    assert moment.kind is MomentKind.MISSED_WIN and moment.side is Side.ATTACKERS
    assert moment.better == "b6-b4"
    assert describe(moment.reason) == "b6-b4 would have captured the king"


def test_a_missed_fork_is_a_missed_win_in_two_with_both_roads_named() -> None:
    # c4-a4 gives the king two roads (to a1 and a7); one attackers' move cannot close both.
    analysis = analyse("K:c4 t:b6,e7,g3,f1,b2 T:c2,c6,e4,e2", "defenders", ["c6-c5"])
    [moment] = analysis.moments
    assert moment.kind is MomentKind.MISSED_WIN and moment.better == "c4-a4"
    assert moment.before == -(MATE - 3)
    assert describe(moment.reason) == (
        "c4-a4 would have opened two roads for the king (a1 and a7): one move cannot close both"
    )


def test_a_raichi_left_open_is_a_missed_defence() -> None:
    analysis = analyse("K:a4 t:a3,b2,b6,c5,e7,g3 T:d3,e4", "attackers", ["g3-g2"])
    [moment] = analysis.moments
    assert moment.kind is MomentKind.MISSED_DEFENCE and moment.side is Side.ATTACKERS
    assert (moment.move, moment.better) == ("g3-g2", "c5-a5")
    assert describe(moment.reason) == (
        "g3-g2 leaves the king's road to a7 open; c5-a5 would have closed it"
    )
    assert moment.after == -(MATE - 1)


def test_a_king_left_in_a_capture_threat_is_a_missed_defence() -> None:
    analysis = analyse("K:a4 t:a5,a3,b6,e7,g3,f1 T:d3,e5", "defenders", ["e5-e6"])
    [moment] = analysis.moments
    assert moment.kind is MomentKind.MISSED_DEFENCE and moment.side is Side.DEFENDERS
    assert describe(moment.reason).startswith("e5-e6 leaves the king to be captured by b6-b4; ")
    assert describe(moment.reason).endswith(f"{moment.better} would have saved him")
    # The better move really saves him: after it the attackers cannot take the king at once.
    game = Game("brandubh", position(7, "K:a4 t:a5,a3,b6,e7,g3,f1 T:d3,e5"), Side.DEFENDERS)
    game.play(moment.better)
    assert not game.king_threatened()


def test_a_move_that_opens_the_kings_road_is_a_blunder_that_says_where_he_goes() -> None:
    analysis = analyse("K:a4 t:a3,a5,e7,g3,f1 T:d3,e4", "attackers", ["a5-b5"])
    [moment] = analysis.moments
    assert moment.kind is MomentKind.BLUNDER and moment.side is Side.ATTACKERS
    assert describe(moment.reason) == "a5-b5 lets the king reach a7"
    assert moment.better != "a5-b5" and moment.loss >= 0.2


def test_repeating_a_won_position_into_a_draw_is_a_blunder_and_only_the_third_time() -> None:
    # The defenders can win by force all along; their king's men shuffle b4-c4 and back.
    moves = ["a2-a3", "c4-b4", "a3-a2", "b4-c4"] * 2
    analysis = analyse("K:d4 t:a2,g6 T:c4,e4,d3,d5,c5", "attackers", moves)
    # A position seen once before is no draw yet: the scores stay forced wins until the end.
    assert all(e.score < -MATE_BOUND for e in analysis.evals[:-1])
    assert analysis.evals[-1] == PositionEval(0, None)
    [moment] = analysis.moments
    assert (moment.ply, moment.kind, moment.move) == (8, MomentKind.BLUNDER, "b4-c4")
    assert describe(moment.reason) == "b4-c4 repeats the position a third time: a draw"
    assert moment.loss == 0.5  # from certain to an even share


def test_letting_a_longer_forced_win_slip_is_a_blunder_that_names_the_winning_move() -> None:
    # The review trusts the scores it is given: made-up ones pin the rule down. The defenders
    # could win in three moves (d3-c3 first) and let the attackers back into the game.
    start = position(7, "K:d4 t:a2,g6 T:c4,e4,d3,d5,c5")
    moves = ["a2-a3", "d3-d2"]
    evals = [
        PositionEval(-(MATE - 6), "a2-b2"),
        PositionEval(-(MATE - 5), "d3-c3"),
        PositionEval(800, "a3-c3"),
    ]
    [moment] = review("brandubh", start, Side.ATTACKERS, moves, evals).moments
    assert (moment.ply, moment.kind, moment.better) == (2, MomentKind.BLUNDER, "d3-c3")
    assert (
        describe(moment.reason)
        == "d3-d2 lets a forced win slip: d3-c3 would have won within 3 moves"
    )


@pytest.mark.parametrize(("before", "flagged"), [(-300, True), (-1500, False)])
def test_allowing_a_forced_loss_is_a_blunder_unless_the_game_was_hopeless(
    before: int, flagged: bool
) -> None:
    # The attackers' a2-a3 lets the defenders win by force; before it they had 34% (-300) or
    # under 4% (-1500) in a variant without data (slope 0.0022, even at 0).
    start = position(7, "K:d4 t:a2,g6 T:c4,e4,d3,d5,c5")
    evals = [PositionEval(before, "a2-b2"), PositionEval(-(MATE - 5), "d3-c3")]
    moments = review("brandubh", start, Side.ATTACKERS, ["a2-a3"], evals).moments
    assert len(moments) == flagged
    if flagged:
        assert describe(moments[0].reason) == (
            "a2-a3 allows a forced win for the defenders, starting with d3-c3"
        )


def test_a_game_of_the_engines_own_moves_has_no_moments() -> None:
    moves: list[str] = []
    evals = [evaluate_position("tablut", None, None, moves, max_depth=DEPTH)]
    for _ in range(6):
        best = evals[-1].best_move
        assert best is not None
        moves.append(best)
        evals.append(evaluate_position("tablut", None, None, moves, max_depth=DEPTH))
    analysis = review("tablut", None, None, moves, evals)
    assert analysis.moments == ()
    assert analysis.move_accuracy == (100.0,) * 6
    assert analysis.attackers_accuracy == analysis.defenders_accuracy == 100.0


def test_the_review_needs_one_evaluation_per_position() -> None:
    evals = [evaluate_position("brandubh", None, None, [], max_depth=1)]
    with pytest.raises(ValueError, match="one per position"):
        review("brandubh", None, None, ["d2-c2"], evals)


def test_only_the_costliest_moments_are_critical() -> None:
    # Four moments in one game: the attackers miss the king's capture three times, then leave
    # his road open; the three costliest are flagged, the earlier one on a tie.
    start = "K:a4 t:a5,a3,b6,e7,g3,f1 T:d3,e5"
    moves = ["f1-f2", "e5-e6", "f2-f1", "e6-e5", "f1-f2", "e5-e6", "f2-f1"]
    analysis = analyse(start, "attackers", moves)
    missed = [m for m in analysis.moments if m.kind is MomentKind.MISSED_WIN]
    assert len(analysis.moments) >= 4 and len(missed) >= 3
    assert len(analysis.critical) == 3
    ranked = sorted(analysis.moments, key=lambda m: (-m.loss, m.ply))
    assert {m.ply for m in analysis.critical} == {m.ply for m in ranked[:3]}


# --- storing ------------------------------------------------------------------------------------


def test_an_analysis_round_trips_through_json() -> None:
    analysis = analyse("K:a4 t:a3,b2,b6,c5,e7,g3 T:d3,e4", "defenders", ["d3-d2", "c5-a5"])
    text = analysis.to_json()
    again = GameAnalysis.from_json(text)
    assert again == analysis
    assert again.to_json() == text
    assert again.moments[0].kind is MomentKind.MISSED_WIN
    assert again.move_label(1) == "1…" and again.move_label(2) == "2."
    assert again.mover(1) is Side.DEFENDERS and again.mover(2) is Side.ATTACKERS
    assert again.comments() == {1: "Missed win (better a4-a7): a4-a7 was an escape for the king"}


def test_json_of_another_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format 2"):
        GameAnalysis.from_json('{"version": 99}')


EVERY_REASON: list[explain.Reason] = [
    explain.MissedFinish("a4-a7", Termination.NO_LEGAL_MOVE, Side.ATTACKERS),
    explain.MissedDefence(
        explain.Allowed("e2-e4", "e5-e9", Termination.KING_ESCAPED, "e9", Side.ATTACKERS, True),
        "d8-e8",
    ),
    explain.Repeated("b4-c4", None),
    explain.Repeated("b4-c4", Side.DEFENDERS),
    explain.OpenedRoads("d4-d5", ("a5", "g5")),
    explain.ForcedWin("d4-d5"),
    explain.ForcedWin("d4-d5", Side.ATTACKERS, "a3-a4", "d5-a5", Termination.KING_ESCAPED),
    explain.SlippedWin("d3-d2", "d3-c3", 3),
    explain.LostByForce(
        "i3-g3", Side.DEFENDERS, "f2-f1", explain.OpensRoads("f2-f1", ("a1", "g1")), True
    ),
    explain.LostByForce("i3-g3", Side.DEFENDERS, "j7-j3"),
    explain.ChancesFell(
        "d4-d5",
        Side.DEFENDERS,
        0.5,
        0.25,
        explain.ForNothing("d4-d5", 2, Side.DEFENDERS, ("c5", "e5"), "e6-e5"),
    ),
    explain.ChancesFell(
        "d4-d5", Side.ATTACKERS, 0.5, 0.25, explain.Captures("e6-e5", 1, Side.ATTACKERS, ("d5",))
    ),
    explain.ChancesFell("f6-f7", Side.ATTACKERS, 0.7, 0.3, explain.KingGoes("c2")),
    explain.ChancesFell("f6-f7", Side.ATTACKERS, 0.7, 0.3, explain.Plays(Side.DEFENDERS, "a1-a2")),
    explain.ChancesFell("f6-f7", Side.ATTACKERS, 0.7, 0.3),
]
"""One reason of each kind and shape (with each kind of cause and effect)."""


def test_every_kind_of_reason_is_stored_as_data_and_read_back() -> None:
    for reason in EVERY_REASON:
        data = json.loads(json.dumps(explain.to_data(reason)))
        assert explain.from_data(data) == reason, data
        assert describe(reason)  # and a game record can say it


def test_a_review_stored_with_sentences_is_read_with_its_reasons_found_again() -> None:
    """Format 1 stored each moment's reason as an English sentence: such a review is read by
    finding its moments again from its evaluations (no search), reasons and all."""
    analysis = analyse("K:a4 t:a3,b2,b6,c5,e7,g3 T:d3,e4", "defenders", ["d3-d2", "c5-a5"])
    data = json.loads(analysis.to_json())
    data["version"] = 1
    for moment in data["moments"]:
        moment["explanation"] = describe(explain.from_data(moment.pop("reason")))
    assert GameAnalysis.from_json(json.dumps(data)) == analysis


# A brandubh game between careless players (from the start position): the attackers' c6-c7
# (move 9.) lets the defenders force a win with e5-e7; they do not play it, and the attackers'
# next move leaves the same line standing.
CARELESS = [
    "d6-e6", "d5-g5", "b4-b5", "e4-e1", "f4-f1", "c4-c6", "e6-g6", "d4-f4", "g6-f6", "c6-e6",
    "d7-d6", "f4-f5", "d2-e2", "f5-c5", "d6-c6", "c5-e5", "c6-c7", "d3-d7", "d1-d3", "e5-d5",
]  # fmt: skip


def test_a_winning_line_left_standing_is_not_said_to_be_allowed_again() -> None:
    game = Game("brandubh")
    depth = default_depth("brandubh")
    evals = [
        evaluate_position("brandubh", game.start_position, game.start_turn, CARELESS[:ply],
                          max_depth=depth)
        for ply in range(len(CARELESS) + 1)
    ]  # fmt: skip
    analysis = review("brandubh", game.start_position, game.start_turn, CARELESS, evals)
    said = {moment.ply: describe(moment.reason) for moment in analysis.moments}
    assert said[17].startswith("c6-c7 allows e5-e7, opening a road for the king"), said
    assert said[18].startswith("d3-d7 lets a forced win slip: e5-e7 would have won"), said
    assert said[19].startswith("d1-d3 does not stop e5-e7, opening a road for the king"), said


def test_a_quiet_king_move_that_punishes_a_blunder_is_named_as_the_king_going_somewhere() -> None:
    start = position(7, "K:c3 T:e5 t:b7,f1,f6")
    moves = ["f6-f7"]
    # Made-up verdicts: the attackers had 50% before f6-f7 and about 12% after it, when the
    # defenders' best answer is the king's quiet step to c2.
    evals = [PositionEval(0, "b7-b6"), PositionEval(-900, "c3-c2")]
    reviewed = review("brandubh", start, Side.ATTACKERS, moves, evals)
    [moment] = reviewed.moments
    assert moment.kind is MomentKind.BLUNDER
    assert describe(moment.reason).startswith(
        "f6-f7 lets the king go to c2: the attackers' chances"
    )


def test_a_capture_that_punishes_a_blunder_says_whose_piece_it_takes() -> None:
    start = position(7, "K:f2 T:c4,e6 t:c5,b7,g3")
    # Made-up verdicts: after g3-g2 the defenders' best answer e6-c6 takes the attacker on c5.
    evals = [PositionEval(0, "b7-b6"), PositionEval(-900, "e6-c6")]
    reviewed = review("brandubh", start, Side.ATTACKERS, ["g3-g2"], evals)
    [moment] = reviewed.moments
    assert describe(moment.reason).startswith(
        "g3-g2 allows e6-c6, capturing the attacker on c5: the attackers' chances fall"
    ), describe(moment.reason)


def test_the_games_own_answer_is_named_when_it_refutes_the_move() -> None:
    start = position(7, "K:f2 T:c4,e6 t:c5,b7,g3")
    # Made-up verdicts: after g3-g2 the search prefers the king's step to f1 (two roads), but the
    # defenders took the attacker on c5 with e6-c6, which keeps their advantage: the review
    # names the capture the players saw, not a move nobody played.
    evals = [PositionEval(0, "b7-b6"), PositionEval(-900, "f2-f1"), PositionEval(-880, "b7-b6")]
    moves = ["g3-g2", "e6-c6"]
    [moment] = review("brandubh", start, Side.ATTACKERS, moves, evals).moments
    assert describe(moment.reason).startswith(
        "g3-g2 loses the attacker on c5 to e6-c6 for nothing: the attackers' chances fall"
    ), describe(moment.reason)
    # An answer that gives the advantage back refutes nothing: the search's choice is named.
    evals[2] = PositionEval(0, "b7-b6")
    moment = review("brandubh", start, Side.ATTACKERS, moves, evals).moments[0]
    assert describe(moment.reason).startswith(
        "g3-g2 allows f2-f1, opening two roads for the king"
    ), describe(moment.reason)


def test_of_several_winning_answers_the_one_the_game_went_on_with_is_named() -> None:
    # The king steps to e4, where three attackers' moves capture him; the game went on with
    # the second the rules engine lists, g5-e5.
    start = "/3t3/2T4/4t2/1tTK1tt/t5t/1TT4/4t2/"
    evals = [PositionEval(0, "c2-c1"), PositionEval(MATE - 1, "a5-e5"), PositionEval(MATE, None)]
    moves = ["d4-e4", "g5-e5"]
    [moment] = review("brandubh", start, Side.DEFENDERS, moves, evals).moments
    assert describe(moment.reason) == "d4-e4 lets the attackers capture the king with g5-e5"


# --- smaller costs, slow losses, accuracy, blame ------------------------------------------------


@pytest.mark.parametrize(
    ("after", "kind"),
    [(-900, MomentKind.BLUNDER), (-400, MomentKind.MISTAKE), (-200, MomentKind.INACCURACY),
     (-100, None)],
)  # fmt: skip
def test_a_move_is_a_blunder_mistake_or_inaccuracy_by_lichesss_thresholds(
    after: int, kind: MomentKind | None
) -> None:
    # From even (50%), the attackers' chances fall to 12%, 29%, 39% or 45%.
    start = position(7, "K:f2 T:c4,e6 t:c5,b7,g3")
    evals = [PositionEval(0, "b7-b6"), PositionEval(after, "e6-c6", ("e6-c6", "b7-b6"))]
    moments = review("brandubh", start, Side.ATTACKERS, ["g3-g2"], evals).moments
    assert [moment.kind for moment in moments] == ([kind] if kind else [])


def test_a_piece_lost_without_compensation_is_named() -> None:
    start = position(7, "K:f2 T:c4,e6 t:c5,b7,g3")
    # After g3-g2 the defenders take the attacker on c5 and the attackers take nothing back.
    evals = [PositionEval(0, "b7-b6"), PositionEval(-400, "e6-c6", ("e6-c6", "b7-b6"))]
    [moment] = review("brandubh", start, Side.ATTACKERS, ["g3-g2"], evals).moments
    assert describe(moment.reason) == (
        "g3-g2 loses the attacker on c5 to e6-c6 for nothing: the attackers' chances fall from "
        "50% to 29%"
    ), describe(moment.reason)


def _scores_for(chances: list[float]) -> list[int]:
    """Scores (attackers' view) whose winning chances are ``chances``, in a variant without a
    calibration of its own (slope 0.0022, even at 0)."""
    slope = calibration_for("brandubh").slope
    return [round(math.log(c / (1 - c)) / slope) for c in chances]


def test_a_slow_loss_of_small_costs_labels_no_move_but_costs_accuracy() -> None:
    # The group-capture game's first 15 moves, with made-up verdicts: the defenders start at
    # 86% and each of their seven moves costs 9.5 points, down to 19.5%; no move reaches the
    # 10 points of an inaccuracy, so none is labelled one, but the accuracy shows the slide.
    moves = list(BRANDUBH_GROUP_CAPTURE[:15])
    chances = [0.14]
    for index in range(len(moves)):
        chances.append(chances[-1] + (0.095 if index % 2 == 1 else 0.0))  # defenders' moves
    evals = [PositionEval(score, "a1-a1", depth=2) for score in _scores_for(chances)]
    analysis = review("brandubh", None, None, moves, evals)
    assert not [m for m in analysis.moments if m.side is Side.DEFENDERS]
    assert analysis.defenders_accuracy is not None and analysis.defenders_accuracy < 90


def test_one_move_that_throws_the_game_away_weighs_in_the_sides_accuracy() -> None:
    # 39 perfect moves and one that loses everything: the plain mean would say 97.5%.
    accuracies = [100.0] * 39 + [0.0]
    assert side_accuracy(accuracies, [1.0] * 40) == pytest.approx((97.5 + 40 / 1.39) / 2, 0.01)
    assert side_accuracy([], []) is None
    # Volatile stretches weigh more: lichess's weights, from the winning chances around a move.
    weights = volatility_weights([0.5] * 6 + [0.9, 0.1, 0.9, 0.1] + [0.5] * 6)
    assert len(weights) == 15 and min(weights) == 0.5 and max(weights) == 12.0


MOVES = list(BRANDUBH_GROUP_CAPTURE[:5])
"""Five moves of a brandubh game (the attackers move first: moves 0, 2 and 4)."""


def test_a_forced_result_is_traced_back_over_the_losers_moves_to_the_one_that_allowed_it() -> None:
    # Position 4 is lost for the attackers in 3 plies, position 5 in 2; positions 0 to 3 looked
    # even. The defenders' move 3 reached position 4, so position 3 is theirs by that move (no
    # search); the attackers' move 2 is searched again without it: every other move loses too;
    # the defenders' move 1 keeps the win; without the attackers' move 0 the position holds:
    # move 0 allowed the loss.
    evals = [PositionEval(0, "z9-z9")] * 4 + [
        PositionEval(-(MATE - 3), "d1-d2"),
        PositionEval(-(MATE - 2), "d2-d3"),
    ]
    deeper = {2: PositionEval(-(MATE - 7), "y"), 0: PositionEval(50, "x")}
    asked: list[tuple[int, int, str | None]] = []

    def evaluate(index: int, depth: int, exclude: str | None) -> PositionEval:
        asked.append((index, depth, exclude))
        return deeper[index]

    found = deepen(evals, 2, MOVES, Side.ATTACKERS, "brandubh", evaluate)
    assert asked == [(2, 2, MOVES[2]), (0, 2, MOVES[0])]
    assert found[3] == PositionEval(-(MATE - 4), MOVES[3], (MOVES[3],), 0, 0)
    assert found[2] == deeper[2]  # the others' longest loss (seven plies) is the position's
    assert found[1].mate_in == -8 and found[1].best_move == MOVES[1]
    assert found[0] == deeper[0]
    [moment] = review("brandubh", None, None, MOVES, found).moments
    assert (moment.ply, moment.side, moment.kind) == (1, Side.ATTACKERS, MomentKind.BLUNDER)
    # When the first loser's move searched again has a move that holds, the walk ends there.
    deeper[2] = PositionEval(80, "w")
    asked.clear()
    found = deepen(evals, 2, MOVES, Side.ATTACKERS, "brandubh", evaluate)
    assert asked == [(2, 2, MOVES[2])] and found[2] == deeper[2] and found[1] == evals[1]


def test_a_collapse_after_the_engines_own_choice_is_searched_again_without_it() -> None:
    # The attackers' move 2 was the engine's choice and their chances fell from 50% to 12%
    # after it: searched again without it, another move keeps 45%, so the move is blamed.
    evals = [PositionEval(0, "z9-z9"), PositionEval(0, "z9-z9"), PositionEval(0, MOVES[2])]
    evals += [PositionEval(-900, "z9-z9")] * 3
    asked: list[tuple[int, int, str | None]] = []

    def evaluate(index: int, depth: int, exclude: str | None) -> PositionEval:
        asked.append((index, depth, exclude))
        return PositionEval(-90, "g1-g2")

    found = deepen(evals, 4, MOVES, Side.ATTACKERS, "brandubh", evaluate)
    assert asked == [(2, 4, MOVES[2])] and found[2] == PositionEval(-90, "g1-g2")
    [moment] = review("brandubh", None, None, MOVES, found).moments
    assert (moment.ply, moment.move, moment.better) == (3, MOVES[2], "g1-g2")
    # A drop the deeper search finds no way round is left as it was.
    found = deepen(
        evals, 4, MOVES, Side.ATTACKERS, "brandubh", lambda *_: PositionEval(-850, "g1-g2")
    )
    assert found == evals


@pytest.mark.skipif(
    not fast.supports(get_variant("copenhagen")),
    reason=f"searching 11x11 four plies deep needs the fast core ({fast.state()})",
)
def test_a_forced_loss_seen_late_in_a_real_game_is_pinned_on_the_move_that_allowed_it() -> None:
    """Game 8 of the recorded Copenhagen games, moves 31 to 40. At depth 3 the defenders' win
    by force is first seen after the 40th move (six plies ahead) and nothing is blamed. Traced
    back: the defenders' 40th move keeps the win, so the position before it is lost in seven;
    without the attackers' 39th move, i3-g3, the position before it holds: that move is named."""
    [recorded] = [game for game in load_games() if game.index == 8]
    moves = [move for move, _ in recorded.moves[:40]]
    game = Game("copenhagen")
    for move in moves[:30]:
        game.play(move)
    start, turn, tail = game.position_otn(), game.turn, moves[30:]

    def evaluate(index: int, depth: int, exclude: str | None = None) -> PositionEval:
        return evaluate_position(
            "copenhagen", start, turn, tail[:index], max_depth=depth, exclude=exclude
        )

    evals = [evaluate(index, 3) for index in range(len(tail) + 1)]
    assert [e.mate_in for e in evals] == [None] * 10 + [-6]  # first seen after move 40
    assert review("copenhagen", start, turn, tail, evals).moments == ()

    deeper = deepen(evals, 3, tail, turn, "copenhagen", evaluate)
    assert deeper[9].mate_in == -7 and deeper[8] != evals[8]  # lost after move 39, not before
    assert deeper[8].best_move != "i3-g3" and deeper[8].mate_in is None
    [moment] = review("copenhagen", start, turn, tail, deeper).moments
    assert (moment.ply, moment.side, moment.kind, moment.move) == (
        9,
        Side.ATTACKERS,
        MomentKind.BLUNDER,
        "i3-g3",
    )
    assert (
        describe(moment.reason)
        == "i3-g3 allows a forced win for the defenders, starting with j7-j3"
    )


@given(st.lists(st.floats(0.0, 0.3), min_size=7, max_size=7).filter(lambda d: sum(d) >= 0.66))
@settings(max_examples=40, deadline=None)
def test_a_side_that_let_a_won_game_slip_is_never_called_accurate_or_blameless(
    drops: list[float],
) -> None:
    """Whatever the sizes of the defenders' seven costly moves that took them from 86% to 20%
    or less: the review names those that cost 10 points or more (and no other), and gives them
    under 90% accuracy."""
    moves = list(BRANDUBH_GROUP_CAPTURE[:15])
    chances = [0.14]
    for index in range(len(moves)):
        rise = drops[index // 2] if index % 2 == 1 else 0.0  # the defenders' moves cost
        chances.append(min(0.995, chances[-1] + rise))
    evals = [PositionEval(score, "a1-a1", depth=2) for score in _scores_for(chances)]
    analysis = review("brandubh", None, None, moves, evals)
    named = [m for m in analysis.moments if m.side is Side.DEFENDERS]
    costs = {ply: chances[ply] - chances[ply - 1] for ply in range(2, len(chances), 2)}
    assert all(m.loss >= 0.1 for m in named)
    assert {m.ply for m in named} >= {ply for ply, cost in costs.items() if cost >= 0.1001}
    assert analysis.defenders_accuracy is not None and analysis.defenders_accuracy < 90
