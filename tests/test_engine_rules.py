"""The distinctive rules of every variant, one small position each (docs/RULES.md rules)."""

from __future__ import annotations

import re

import pytest
from helpers import game, names

from bot.engine import (
    AmbiguousMoveError,
    Game,
    GameOverError,
    IllegalMoveError,
    MoveParseError,
    Piece,
    PositionError,
    Side,
    Termination,
    get_variant,
    parse_square,
)
from bot.engine.types import Outcome
from bot.engine.variants import with_first_repetition, with_opentafl_repetition


def captured(variant: str, pieces: str, move: str, turn: str = "attackers") -> list[str]:
    g = game(variant, pieces, turn)
    result = g.play(move)
    return names(g, result.captures)


def illegal_reason(variant: str, pieces: str, move: str, turn: str = "attackers") -> str:
    with pytest.raises(IllegalMoveError) as error:
        game(variant, pieces, turn).play(move)
    return str(error.value)


# ----------------------------------------------------------------------------- shared rules


def test_custodial_capture_between_two_enemies() -> None:
    assert captured("tablut", "K:e5 T:c3 t:b3,h3", "h3-d3") == ["c3"]


def test_moving_between_two_enemies_is_safe() -> None:
    g = game("tablut", "K:e5 t:b3,d3 T:c8", "defenders")
    assert g.play("c8-c3").captures == ()
    assert g.piece_at(parse_square("c3", 9)) is Piece.DEFENDER


def test_one_move_can_capture_several_pieces() -> None:
    assert captured("tablut", "K:e5 t:a3,c5,e3,c1 T:b3,c4,d3", "c1-c3") == ["b3", "c4", "d3"]


def test_no_legal_move_loses() -> None:
    g = game("tablut", "K:e5 t:a1 T:a3,b1", "defenders")
    result = g.play("a3-a2")
    assert result.outcome is not None
    assert result.outcome.winner is Side.DEFENDERS
    assert result.outcome.termination is Termination.NO_LEGAL_MOVE


def test_threefold_repetition_is_a_draw_on_the_third_occurrence() -> None:
    g = Game("tablut")
    shuffle = ["a4-a3", "e3-d3", "a3-a4", "d3-e3"]
    for move in shuffle:
        g.play(move)
    assert g.outcome is None and g.repetitions() == 2
    for move in shuffle[:-1]:
        assert g.play(move).outcome is None
    final = g.play(shuffle[-1])
    assert final.outcome is not None
    assert final.outcome.winner is None
    assert final.outcome.termination is Termination.REPETITION


def test_moves_after_the_end_are_refused() -> None:
    g = game("tablut", "K:c3 t:i9", "defenders")
    assert g.play("c3-c1").outcome is not None
    with pytest.raises(GameOverError, match="the game is over"):
        g.play("i9-i8")


# ----------------------------------------------------------------------------- tablut


def test_tablut_empty_throne_is_hostile_to_defenders() -> None:
    assert captured("tablut", "K:g7 T:e4 t:e2", "e2-e3") == ["e4"]


def test_tablut_empty_throne_is_hostile_to_attackers() -> None:
    assert captured("tablut", "K:g7 t:e4 T:e2", "e2-e3", "defenders") == ["e4"]


def test_tablut_occupied_throne_does_not_capture_a_defender_without_linnaeus() -> None:
    assert captured("tablut", "K:e5 T:e4 t:e2,d5", "e2-e3") == []


def test_tablut_linnaean_capture_against_the_throned_king() -> None:
    assert captured("tablut", "K:e5 T:e4 t:d5,f5,e6,e2", "e2-e3") == ["e4"]


def test_tablut_only_the_king_may_pass_or_stop_on_the_throne() -> None:
    assert "pass through the throne (e5)" in illegal_reason("tablut", "K:b8 t:e3", "e3-e7")
    assert "stop on the throne (e5)" in illegal_reason("tablut", "K:b8 t:e3", "e3-e5")
    assert game("tablut", "K:e4 t:a9", "defenders").play("e4-e5").outcome is None
    assert game("tablut", "K:e3 t:a9", "defenders").play("e3-e7").outcome is None


def test_tablut_king_on_throne_needs_four_attackers() -> None:
    g = game("tablut", "K:e5 t:d5,f5,e6,e2")
    result = g.play("e2-e4")
    assert result.king_captured and result.notation == "e2-e4++"
    assert result.outcome is not None and result.outcome.winner is Side.ATTACKERS
    assert not game("tablut", "K:e5 t:d5,f5,e2").play("e2-e4").king_captured


def test_tablut_king_beside_throne_needs_three_attackers() -> None:
    assert game("tablut", "K:e4 t:d4,f4,e1").play("e1-e3").king_captured
    assert not game("tablut", "K:e4 t:d4,e1").play("e1-e3").king_captured


def test_tablut_king_elsewhere_is_captured_by_two() -> None:
    result = game("tablut", "K:c3 t:b3,d7").play("d7-d3")
    assert result.king_captured
    assert result.outcome is not None and result.outcome.termination is Termination.KING_CAPTURED


def test_king_moving_between_two_attackers_is_not_captured() -> None:
    g = game("tablut", "K:c7 t:b3,d3,i9", "defenders")
    assert g.play("c7-c3").outcome is None
    assert g.king_square == parse_square("c3", 9)


def test_tablut_king_escapes_at_any_edge_square() -> None:
    result = game("tablut", "K:c3 t:i9", "defenders").play("c3-c1")
    assert result.notation == "c3-c1--"
    assert result.outcome is not None
    assert result.outcome.termination is Termination.KING_ESCAPED


def test_raichi_and_tuichi_are_reported_after_defenders_moves() -> None:
    raichi = game("tablut", "K:c4 t:c6,c2,b4 T:h8", "defenders").play("h8-h7")
    assert raichi.raichi and not raichi.tuichi
    assert raichi.notation == "h8-h7-"
    tuichi = game("tablut", "K:c4 t:c6,b4 T:h8", "defenders").play("h8-h7")
    assert tuichi.tuichi and len(tuichi.routes) == 2
    assert tuichi.outcome is None  # in tablut Tuichi is only an announcement


def test_king_threat_is_marked_with_plus() -> None:
    result = game("tablut", "K:c3 t:b3,d8 T:h8", "defenders").play("h8-h7")
    assert result.king_threatened and result.notation.endswith("+")


# ----------------------------------------------------------------------------- tablut-ashton


def test_ashton_defenders_move_first() -> None:
    assert Game("tablut-ashton").turn is Side.DEFENDERS


def test_ashton_nobody_enters_the_throne_not_even_the_king() -> None:
    assert "may not return to the throne" in illegal_reason(
        "tablut-ashton", "K:e4 t:a9", "e4-e5", "defenders"
    )
    assert "pass through the throne" in illegal_reason("tablut-ashton", "K:b8 t:e3", "e3-e7")


def test_ashton_camps() -> None:
    assert "defenders never enter camps" in illegal_reason(
        "tablut-ashton", "K:g7 T:c1 t:a9", "c1-d1", "defenders"
    )
    assert "may not enter one again" in illegal_reason("tablut-ashton", "K:g7 t:c1", "c1-d1")
    assert "another camp" in illegal_reason("tablut-ashton", "K:g7 t:a4", "a4-i4")
    within = game("tablut-ashton", "K:g7 t:d1")
    assert within.play("d1-f1").outcome is None


def test_ashton_camp_squares_are_hostile_even_when_occupied() -> None:
    assert captured("tablut-ashton", "K:g7 t:a4,b4 T:c8", "c8-c4", "defenders") == ["b4"]
    assert captured("tablut-ashton", "K:g7 T:c1 t:b3", "b3-b1") == ["c1"]


def test_ashton_middle_camp_squares_are_not_hostile_to_attackers() -> None:
    assert captured("tablut-ashton", "K:g7 t:b5 T:c8", "c8-c5", "defenders") == []


def test_ashton_throne_is_hostile_to_defenders_even_with_the_king_on_it() -> None:
    assert captured("tablut-ashton", "K:e5 T:e4 t:e2", "e2-e3") == ["e4"]


def test_ashton_a_camp_counts_as_one_of_the_kings_two_captors() -> None:
    assert game("tablut-ashton", "K:d2 t:d6").play("d6-d3").king_captured


# ----------------------------------------------------------------------------- corner variants


def test_corner_is_hostile_and_only_the_king_enters_it() -> None:
    assert captured("tablut-corner", "K:e5 t:a2 T:a6", "a6-a3", "defenders") == ["a2"]
    assert "only the king may enter a corner (a1)" in illegal_reason(
        "tablut-corner", "K:e5 t:a3", "a3-a1"
    )


def test_corner_escape_only_at_corners() -> None:
    assert game("tablut-corner", "K:c3 t:i8", "defenders").play("c3-c1").outcome is None
    result = game("tablut-corner", "K:a3 t:i8", "defenders").play("a3-a1")
    assert result.outcome is not None and result.outcome.termination is Termination.KING_ESCAPED


def test_corner_variants_let_pieces_cross_the_empty_throne_without_stopping() -> None:
    assert game("tablut-corner", "K:b8 t:e3").play("e3-e7").outcome is None
    assert "stop on the throne" in illegal_reason("tablut-corner", "K:b8 t:e3", "e3-e5")


def test_tablut_corner_throne_is_not_hostile_to_ordinary_pieces() -> None:
    assert captured("tablut-corner", "K:g7 T:e4 t:e2", "e2-e3") == []


@pytest.mark.parametrize(
    ("pieces", "move", "expected"),
    [
        ("K:c3 t:b3,d3,c4,c8", "c8-c5", False),  # the mover is not next to the king
        ("K:c3 t:b3,d3,c4,c7", "c7-c5", False),
        ("K:c3 t:b3,d3,c4,h2", "h2-c2", True),  # four attackers in the open
        ("K:c3 t:b3,d3,h2", "h2-c2", False),  # three are not enough in the open
        ("K:a3 t:a4,g2,h9", "g2-a2", False),  # the edge closes one side: needs b3 too
        ("K:a3 t:a4,b3,g2", "g2-a2", True),  # three on the edge
        ("K:a2 t:a3,b7", "b7-b2", True),  # two beside a corner on the edge
        ("K:e4 t:d4,f4,e1", "e1-e3", True),  # three beside the throne
    ],
)
def test_tablut_corner_king_capture(pieces: str, move: str, expected: bool) -> None:
    assert game("tablut-corner", pieces).play(move).king_captured is expected


def test_unarmed_king_never_captures() -> None:
    assert captured("tablut-unarmed", "t:d3 T:e3 K:c5", "c5-c3", "defenders") == []
    assert captured("tablut-unarmed", "t:c3 K:d3 T:b8", "b8-b3", "defenders") == []
    assert captured("tablut-corner", "t:d3 T:e3 K:c5", "c5-c3", "defenders") == ["d3"]


def test_unarmed_throne_is_hostile_to_the_king_only() -> None:
    assert captured("tablut-unarmed", "K:g7 T:e4 t:e2", "e2-e3") == []
    assert game("tablut-unarmed", "K:e4 t:d4,f4,e1").play("e1-e3").king_captured


def test_group_capture_surrounds_the_king_and_his_defenders() -> None:
    g = game("tablut-unarmed", "K:c3 T:d3 t:b3,c2,c4,d4,d2,e8")
    result = g.play("e8-e3")
    assert result.outcome is not None
    assert result.outcome.termination is Termination.GROUP_CAPTURED
    assert result.outcome.winner is Side.ATTACKERS
    assert g.piece_at(parse_square("d3", 9)) is Piece.DEFENDER  # the group stays on the board


def test_group_capture_needs_the_mover_next_to_the_group() -> None:
    g = game("tablut-unarmed", "K:c3 T:d3,g8 t:b3,c2,c4,e3,d2,d4,h8")
    assert g.play("h8-h7").outcome is None


def test_group_with_a_free_square_survives() -> None:
    assert game("tablut-unarmed", "K:c3 T:d3 t:b3,c2,c4,d2,e8").play("e8-e3").outcome is None


# ----------------------------------------------------------------------------- brandubh


def test_brandubh_empty_throne_is_hostile() -> None:
    assert captured("brandubh", "K:b6 T:d3 t:d1", "d1-d2") == ["d3"]
    assert captured("brandubh", "K:b6 t:d3 T:d1", "d1-d2", "defenders") == ["d3"]


def test_brandubh_king_escapes_to_a_corner_and_has_group_capture() -> None:
    result = game("brandubh", "K:b1 t:f6", "defenders").play("b1-a1")
    assert result.outcome is not None and result.outcome.termination is Termination.KING_ESCAPED
    group = game("brandubh", "K:a2 T:b2 t:b3,c2,b1,a6").play("a6-a3")
    assert group.outcome is not None
    assert group.outcome.termination is Termination.GROUP_CAPTURED


# ----------------------------------------------------------------------------- fidchell


def test_fidchell_tuichi_wins() -> None:
    result = game("fidchell", "K:c3 t:b3,c4,g7 T:c2", "defenders").play("c2-d2")
    assert result.outcome is not None
    assert result.outcome.termination is Termination.TUICHI
    assert result.outcome.winner is Side.DEFENDERS


def test_fidchell_one_route_is_not_a_win() -> None:
    result = game("fidchell", "K:c3 t:b3,c4,c1,g7 T:c2", "defenders").play("c2-d2")
    assert result.outcome is None and result.raichi


def test_fidchell_throne_is_closed_once_the_king_leaves() -> None:
    assert "may not return to the throne" in illegal_reason(
        "fidchell", "K:d3 t:g7", "d3-d4", "defenders"
    )
    assert "pass through the throne" in illegal_reason("fidchell", "K:b6 t:d2", "d2-d6")


def test_fidchell_throned_king_is_just_an_armed_piece() -> None:
    assert captured("fidchell", "K:d4 T:d3 t:c4,e4,d5,d1", "d1-d2") == []
    assert captured("fidchell", "K:d4 t:d3 T:d1", "d1-d2", "defenders") == ["d3"]


# ----------------------------------------------------------------------------- input


@pytest.mark.parametrize("text", ["d1-d3", "d1d3", "d1 d3", "D1-D3", "d1 to d3", " d1 - d3 "])
def test_forgiving_move_input(text: str) -> None:
    assert Game("tablut").play(text).notation == "d1-d3"


def test_full_otn_move_records_are_accepted() -> None:
    g = game("tablut", "K:e5 T:c3 t:b3,h3")
    assert g.play("h3-d3xc3").captures == (parse_square("c3", 9),)


def test_bare_destination_when_exactly_one_move_reaches_it() -> None:
    g = Game("brandubh")
    with pytest.raises(AmbiguousMoveError, match="'b2': 2 pieces can move to b2"):
        g.play("b2")
    assert g.play("c1").notation == "d1-c1"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("hello", "'hello' is not a move"),
        ("z1-z3", "'z1-z3' is not a move"),
        ("d1-d12", "'d1-d12': 'd12' is off the board"),
        ("e3-e4", "'e3-e4': the piece on e3 belongs to the defenders"),
        ("c1-c4", "'c1-c4': there is no piece on c1"),
        ("d1-e2", "share neither"),
        ("d1-d1", "must move to another square"),
        ("a5-e5", "'a5-e5': b5 blocks the path"),
        ("e2-e3", "'e2-e3': e3 blocks the path"),
    ],
)
def test_illegal_moves_quote_the_input_and_say_why(text: str, reason: str) -> None:
    with pytest.raises((IllegalMoveError, MoveParseError), match=reason):
        Game("tablut").play(text)


def test_undo_restores_the_position_and_the_outcome() -> None:
    g = game("tablut", "K:c3 t:b3,d7")
    before = g.position_otn()
    assert g.play("d7-d3").outcome is not None
    taken = g.undo()
    assert taken.move.text(9) == "d7-d3"
    assert g.outcome is None and g.position_otn() == before and g.turn is Side.ATTACKERS


@pytest.mark.parametrize(
    ("variant", "pieces", "reason"),
    [
        ("tablut", "K:a9", "the king on a9 has already escaped"),
        ("brandubh", "K:a1", "the king on a1 has already escaped"),
        ("tablut", "K:c3 T:e5", "only the king may stand on the throne (e5)"),
        ("tablut-corner", "K:c3 t:i9", "only the king may stand on a corner (i9)"),
        ("tablut-ashton", "K:c3 T:e1", "defenders never stand in a camp (e1)"),
    ],
)
def test_impossible_setups_are_refused(variant: str, pieces: str, reason: str) -> None:
    with pytest.raises(PositionError, match=re.escape(reason)):
        game(variant, pieces)


def test_the_tablut_challenges_rule_draws_at_the_first_repetition() -> None:
    # An attacker out of its camp shuttles c1-c2-c1 while a defender shuttles c5-c4: after the
    # sixth move the position after the second is back, a first repetition.
    moves = ["c5-c4", "d1-c1", "c4-c5", "c1-c2", "c5-c4", "c2-c1"]
    challenge = Game(with_first_repetition(get_variant("tablut-ashton")))
    linnaeus = Game("tablut-ashton")
    for move in moves:
        challenge.play(move)
        linnaeus.play(move)
    assert challenge.outcome == Outcome(None, Termination.REPETITION)
    assert linnaeus.outcome is None and linnaeus.repetitions() == 2


def test_opentafls_reading_of_tfr_w_gives_a_repetition_to_the_side_that_did_not_make_it() -> None:
    # An attacker and a defender shuttle; the attackers' 5. b1-c1 makes the third occurrence.
    moves = ["d1-c1", "f4-e4", "c1-b1", "e4-f4", "b1-c1", "f4-e4", "c1-b1", "e4-f4", "b1-c1"]
    ours = Game("copenhagen")
    opentafl = Game(with_opentafl_repetition(get_variant("copenhagen")))
    for move in moves:
        ours.play(move)
        opentafl.play(move)
    assert ours.outcome == Outcome(Side.ATTACKERS, Termination.PERPETUAL_REPETITION)
    assert opentafl.outcome == Outcome(Side.DEFENDERS, Termination.PERPETUAL_REPETITION)
