"""Copenhagen Hnefatafl 11x11 (``copenhagen``, alias ``hnefatafl``), from docs/RULES.md alone.

These tests were written independently of the engine's implementation, from the last section of
docs/RULES.md (`copenhagen`), to cross-check it. Where docs/RULES.md leaves room, the
reading of the Copenhagen rules as played at aagenielsen.dk is used and a comment says so.

Board: files a-k from the left, ranks 1-11 from the bottom; throne f6; corners a1, k1, a11, k11.
In the diagrams rank numbers run down the left, ``t`` attacker, ``T`` defender, ``K`` king,
``#`` a corner, ``*`` the empty throne, ``.`` an empty square, ``>`` the moving piece's target.

Every position keeps a spare piece on each side far from the action where needed, so that no
other ending (no legal move, exit fort, encirclement) fires by accident.
"""

from __future__ import annotations

import pytest
from helpers import game, names

from bot.engine import Game, IllegalMoveError, Piece, Side, Termination, get_variant, parse_square
from bot.engine.perft import perft

START = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
N = 11


def captured(pieces: str, move: str, turn: str = "attackers") -> list[str]:
    g = game("copenhagen", pieces, turn)
    return names(g, g.play(move).captures)


def outcome_of(pieces: str, move: str, turn: str = "attackers") -> tuple[Side | None, Termination]:
    """The winner and termination after ``move``; fails the test if the game goes on."""
    result = game("copenhagen", pieces, turn).play(move)
    assert result.outcome is not None, f"{move} should end the game"
    return result.outcome.winner, result.outcome.termination


def goes_on(pieces: str, move: str, turn: str = "attackers") -> bool:
    return game("copenhagen", pieces, turn).play(move).outcome is None


def at(g: Game, name: str) -> Piece:
    return g.piece_at(parse_square(name, N))


# ----------------------------------------------------------------------------- start


def test_start_position_and_attackers_move_first() -> None:
    g = Game("copenhagen")
    assert g.position_otn() == START
    assert g.turn is Side.ATTACKERS
    assert g.cells.count(Piece.ATTACKER) == 24
    assert g.cells.count(Piece.DEFENDER) == 12
    assert g.king_square == parse_square("f6", N)
    assert g.outcome is None


def test_hnefatafl_is_an_alias_of_copenhagen() -> None:
    assert get_variant("hnefatafl").name == "copenhagen"
    assert Game("hnefatafl").position_otn() == START


# ----------------------------------------------------------------------------- restricted squares


@pytest.mark.parametrize(
    ("pieces", "move", "turn"),
    [
        ("K:b9 t:f3", "f3-f6", "attackers"),
        ("K:b9 T:f3 t:k10", "f3-f6", "defenders"),
        ("K:b9 t:c6", "c6-f6", "attackers"),
    ],
)
def test_only_the_king_may_stop_on_the_throne(pieces: str, move: str, turn: str) -> None:
    with pytest.raises(IllegalMoveError, match="throne"):
        game("copenhagen", pieces, turn).play(move)


@pytest.mark.parametrize(
    ("pieces", "move", "turn"),
    [
        ("K:e5 t:a3", "a3-a1", "attackers"),
        ("K:e5 T:c11 t:k5", "c11-a11", "defenders"),
        ("K:e5 t:k8", "k8-k11", "attackers"),
    ],
)
def test_only_the_king_may_enter_a_corner(pieces: str, move: str, turn: str) -> None:
    with pytest.raises(IllegalMoveError, match="corner"):
        game("copenhagen", pieces, turn).play(move)


@pytest.mark.parametrize(
    ("pieces", "move", "turn"),
    [
        ("K:b9 t:f3", "f3-f9", "attackers"),  # along the file
        ("K:b9 t:c6", "c6-i6", "attackers"),  # along the rank
        ("K:b9 T:f3 t:k10", "f3-f9", "defenders"),
        ("K:b9 T:c6 t:k10", "c6-i6", "defenders"),
    ],
)
def test_every_piece_may_pass_over_the_empty_throne(pieces: str, move: str, turn: str) -> None:
    g = game("copenhagen", pieces, turn)
    assert g.play(move).outcome is None
    assert at(g, move[-2:]) is not Piece.EMPTY


def test_king_may_return_to_and_pass_over_the_throne() -> None:
    back = game("copenhagen", "K:f3 t:a5", "defenders")
    assert back.play("f3-f6").outcome is None
    assert back.king_square == parse_square("f6", N)
    over = game("copenhagen", "K:f3 t:a5", "defenders")
    assert over.play("f3-f9").outcome is None
    assert over.king_square == parse_square("f9", N)


def test_king_escapes_to_a_corner_only() -> None:
    assert outcome_of("K:a3 t:k5", "a3-a1", "defenders") == (
        Side.DEFENDERS,
        Termination.KING_ESCAPED,
    )
    assert outcome_of("K:h11 t:a5", "h11-k11", "defenders") == (
        Side.DEFENDERS,
        Termination.KING_ESCAPED,
    )
    # An ordinary edge square is no escape (nor an exit fort: the board is open, k5 touches it).
    assert goes_on("K:c3 t:k5", "c3-c1", "defenders")


# ----------------------------------------------------------------------------- hostile squares


def test_empty_throne_is_hostile_to_attackers() -> None:
    #  7 . * .      the defender f3-f4 takes f5 against the empty throne f6
    #  6 . * .
    #  5 . t .
    #  4 . > .
    assert captured("K:b9 t:f5,k10 T:f3", "f3-f4", "defenders") == ["f5"]


def test_occupied_throne_still_takes_attackers() -> None:
    # "Hostile to attackers always" (and the king is armed anyway): both readings capture.
    assert captured("K:f6 t:f5,k10 T:f3", "f3-f4", "defenders") == ["f5"]


def test_empty_throne_is_hostile_to_defenders() -> None:
    assert captured("K:b9 T:f5 t:f3", "f3-f4") == ["f5"]
    assert captured("K:b9 T:e6 t:b6", "b6-d6") == ["e6"]


def test_throne_with_the_king_on_it_is_not_hostile_to_defenders() -> None:
    #  6 . K .      f5 stands between the attacker and the throned king: safe
    #  5 . T .
    #  4 . > .
    assert captured("K:f6 T:f5 t:f3", "f3-f4") == []


def test_corners_are_hostile_to_both_sides() -> None:
    #  3 >          a2 is taken between the defender on a3 and the corner a1
    #  2 t
    #  1 #
    assert captured("K:e5 t:a2,k10 T:a4", "a4-a3", "defenders") == ["a2"]
    assert captured("K:e5 T:b1 t:d1", "d1-c1") == ["b1"]
    assert captured("K:e5 T:k10 t:k8", "k8-k9") == ["k10"]


def test_the_board_edge_is_not_hostile() -> None:
    assert captured("K:e5 T:a3 t:d3", "d3-b3") == []
    assert captured("K:e5 t:f1,k10 T:f4", "f4-f2", "defenders") == []


# ----------------------------------------------------------------------------- armed king


def test_king_is_the_hammer() -> None:
    #  5 K . .      the king moves c5-c3 and takes d3 against the defender on e3
    #  3 > t T
    assert captured("K:c5 t:d3,k10 T:e3", "c5-c3", "defenders") == ["d3"]


def test_king_is_the_anvil() -> None:
    #  3 K t >      the defender e5-e3 takes d3 against the king on c3
    assert captured("K:c3 t:d3,k10 T:e5", "e5-e3", "defenders") == ["d3"]


# ----------------------------------------------------------------------------- king capture


@pytest.mark.parametrize(
    ("pieces", "move", "taken"),
    [
        # In the open: four attackers needed (T:j9 outside, so no encirclement can be claimed).
        ("K:d4 t:c4,e4,d5,h3 T:j9", "h3-d3", True),
        ("K:d4 t:c4,e4,h3 T:j9", "h3-d3", False),  # three are not enough
        ("K:d4 t:c4,h4 T:j9", "h4-e4", False),  # no custodial capture of the king
        # On the throne: four attackers.
        ("K:f6 t:e6,g6,f7,f2 T:j9", "f2-f5", True),
        ("K:f6 t:e6,g6,f2 T:j9", "f2-f5", False),
        # Beside the throne: three attackers and the (empty) throne.
        ("K:f5 t:e5,g5,f2 T:j9", "f2-f4", True),
        ("K:g6 t:g5,g7,h9 T:j9", "h9-h6", True),
        ("K:f5 t:e5,f2 T:j9", "f2-f4", False),  # two attackers and the throne are not enough
    ],
)
def test_king_capture(pieces: str, move: str, taken: bool) -> None:
    result = game("copenhagen", pieces).play(move)
    assert result.king_captured is taken
    if taken:
        assert result.outcome is not None
        assert result.outcome.winner is Side.ATTACKERS
        assert result.outcome.termination is Termination.KING_CAPTURED
    else:
        assert result.outcome is None


@pytest.mark.parametrize(
    ("pieces", "move"),
    [
        #  7 t . .
        #  6 K > t      three attackers round the king on the edge: still no capture
        #  5 t . .
        #    a b c
        ("K:a6 t:a5,a7,c6 T:j9", "c6-b6"),
        ("K:f1 t:e1,g1,f4 T:j9", "f4-f2"),
        ("K:a6 t:a5,a9 T:j9", "a9-a7"),  # nor custodially along the edge
    ],
)
def test_king_is_never_captured_on_the_edge(pieces: str, move: str) -> None:
    # T:j9 keeps a defenders' move available: the king itself is boxed in.
    result = game("copenhagen", pieces).play(move)
    assert not result.king_captured
    assert result.outcome is None


# ----------------------------------------------------------------------------- shieldwall


@pytest.mark.parametrize(
    ("pieces", "move", "taken"),
    [
        #  2 . t t . .       the attacker h1-f1 closes the second bracket:
        #  1 . t T T > . t   d1 and e1 go together
        #    b c d e f g h
        ("K:f6 T:d1,e1 t:c1,d2,e2,h1", "h1-f1", ["d1", "e1"]),
        # The same formation completed by a front piece (e5-e2) instead of a bracket takes
        # nothing: in the 1,752 recorded games no wall completed from the front ever fell.
        ("K:f6 T:d1,e1 t:c1,f1,d2,e5", "e5-e2", []),
        # Three in a row on the left edge.
        ("K:f6 T:a4,a5,a6 t:a3,b4,b5,b6,a9", "a9-a7", ["a4", "a5", "a6"]),
    ],
)
def test_shieldwall_between_two_brackets(pieces: str, move: str, taken: list[str]) -> None:
    assert captured(pieces, move) == taken


def test_shieldwall_with_a_corner_as_one_bracket() -> None:
    #  4 . >      the attacker k7-k4 brackets k2,k3 against the corner k1
    #  3 t T
    #  2 t T
    #  1 . #
    #    j k
    assert captured("K:f6 T:k2,k3 t:j2,j3,k7", "k7-k4") == ["k2", "k3"]
    assert captured("K:f6 T:b1,c1 t:b2,c2,g1", "g1-d1") == ["b1", "c1"]


def test_shieldwall_fails_when_a_front_piece_is_missing() -> None:
    #  6 > .      a4,a5 bracketed by a3 and a6, but nothing in front of a5
    #  5 T .
    #  4 T t
    #  3 t .
    assert captured("K:f6 T:a4,a5 t:a3,b4,a8", "a8-a6") == []
    assert captured("K:f6 T:d1,e1 t:c1,d2,h1", "h1-f1") == []


@pytest.mark.parametrize(
    ("pieces", "move"),
    [
        #  2 . t t > . t   the formation round d1,e1 is complete, but the mover (to f2) is
        #  1 t T T t . .   neither a bracket nor a front piece: nothing is taken
        #    c d e f g h
        ("K:f6 T:d1,e1 t:c1,f1,d2,e2,h2", "h2-f2"),
        ("K:f6 T:d1,e1 t:c1,f1,d2,e2,k5", "k5-k4"),  # a move far away
    ],
)
def test_shieldwall_needs_the_mover_in_the_formation(pieces: str, move: str) -> None:
    g = game("copenhagen", pieces)
    assert g.play(move).captures == ()
    assert at(g, "d1") is Piece.DEFENDER and at(g, "e1") is Piece.DEFENDER


def test_shieldwall_takes_the_defenders_of_a_row_but_not_the_king() -> None:
    #  2 . t t t . .
    #  1 t T K T > . t   g1 closes the wall: d1 and f1 go, the king on e1 stays
    #    c d e f g h i
    g = game("copenhagen", "K:e1 T:d1,f1 t:c1,d2,e2,f2,i1")
    result = g.play("i1-g1")
    assert names(g, result.captures) == ["d1", "f1"]
    assert not result.king_captured
    assert result.outcome is None
    assert g.king_square == parse_square("e1", N)


@pytest.mark.parametrize(
    ("pieces", "move"),
    [
        #  3 . . . K      the king f3-f1 brackets the attackers' row d1,e1 against c1,
        #  2 . T T .      with defenders in front of both
        #  1 T t t >
        #    c d e f
        ("K:f3 T:c1,d2,e2 t:d1,e1,k9", "f3-f1"),
        # The defenders' own bracket c1 arrives, with the king standing as the other one.
        ("K:f1 T:c5,d2,e2 t:d1,e1,k9", "c5-c1"),
    ],
)
def test_king_as_a_bracket_of_the_defenders_shieldwall(pieces: str, move: str) -> None:
    # The attacker on k9 touches the (wide open) empty region round the king: no exit fort.
    g = game("copenhagen", pieces, "defenders")
    result = g.play(move)
    assert names(g, result.captures) == ["d1", "e1"]
    assert result.outcome is None


def test_a_front_piece_does_not_complete_a_shieldwall_even_beside_the_king() -> None:
    # The king brackets d1,e1 with c1; the defender arriving in front (e5-e2) takes nothing.
    g = game("copenhagen", "K:f1 T:c1,d2,e5 t:d1,e1,k9", "defenders")
    assert g.play("e5-e2").captures == ()


# ----------------------------------------------------------------------------- exit fort


def test_exit_fort_wins_for_the_defenders() -> None:
    #  5 . . . T      g5-g1 closes the fort {f1, e1}: the king is on the edge, can move to e1,
    #  4 . . . .      no attacker touches the fort, and every wall piece is safe on its rank
    #  3 . . . .      and its file (d1, g1: the edge and the fort; e2, f2: each other and the fort)
    #  2 . T T .
    #  1 T . K >
    #    d e f g
    assert outcome_of("K:f1 T:d1,e2,f2,g5 t:j9", "g5-g1", "defenders") == (
        Side.DEFENDERS,
        Termination.EXIT_FORT,
    )


def test_exit_fort_with_a_wall_protected_through_another_wall_piece() -> None:
    #  3 T T .        fort {f1, e1, e2}; e3 is safe on its rank because d3 is, and d3 is safe
    #  2 T . T        on its file because d2 is: the greatest safe set holds the whole wall
    #  1 T . K >
    #    d e f g
    assert outcome_of("K:f1 T:d1,d2,d3,e3,f2,g5 t:j9", "g5-g1", "defenders") == (
        Side.DEFENDERS,
        Termination.EXIT_FORT,
    )


def test_no_exit_fort_when_an_attacker_touches_the_fort() -> None:
    # As the winning fort, but an attacker stands on d1, next to the fort square e1. The fort is
    # still closed ({f1, e1}) and its wall (e2, f2, g1) unbreakable: only rule (c) fails.
    assert goes_on("K:f1 T:e2,f2,g5 t:d1,j9", "g5-g1", "defenders")


def test_no_exit_fort_when_the_wall_can_be_broken() -> None:
    #  3 . T .        fort {f1, e1, e2}: e3 has open squares on both ends of its rank (d3, f3),
    #  2 T . T        so an attacker can take it between d3 and f3 and break in
    #  1 T . K >
    #    d e f g
    assert goes_on("K:f1 T:d1,d2,e3,f2,g5 t:j9", "g5-g1", "defenders")


def test_no_exit_fort_when_the_king_cannot_move() -> None:
    #  2 T T .        the king on f1 is boxed in by his own unbreakable wall: no legal move
    #  1 T K >
    #    e f g
    g = game("copenhagen", "K:f1 T:e1,e2,f2,g5 t:j9", "defenders")
    assert g.play("g5-g1").outcome is None


# ----------------------------------------------------------------------------- encirclement

# The ring below shuts the king (c3) and a defender (d4) in {c3, d3, c4, d4}; b3/b4 are not on
# the edge (file a is). Reachability is orthogonal, so the diagonal steps of the ring are closed.
#
#  5 . . t t . .
#  4 . t . T > .
#  3 . t K . t .
#  2 . . t t . .
#    a b c d e f
RING = "K:c3 T:d4 t:b3,b4,c2,d2,c5,d5,e3"


def test_encirclement_wins_for_the_attackers() -> None:
    assert outcome_of(RING + ",h4", "h4-e4") == (Side.ATTACKERS, Termination.ENCIRCLEMENT)


def test_encirclement_with_a_gap_does_not_win() -> None:
    ring_without_b4 = RING.replace("b4,", "")
    assert goes_on(ring_without_b4 + ",h4", "h4-e4")


def test_encirclement_needs_every_defender_inside() -> None:
    assert goes_on(RING + ",h4 T:j9", "h4-e4")


def test_encirclement_after_the_last_defender_outside_is_taken() -> None:
    # The ring is already closed; h8-j8 takes the only defender outside (j9, against j10).
    g = game("copenhagen", RING + ",e4,h8,j10 T:j9")
    result = g.play("h8-j8")
    assert names(g, result.captures) == ["j9"]
    assert result.outcome is not None
    assert result.outcome.winner is Side.ATTACKERS
    assert result.outcome.termination is Termination.ENCIRCLEMENT


# ----------------------------------------------------------------------------- repetition

_SHUFFLE = ["a4-b4", "f4-f3", "b4-a4", "f3-f4"]


def test_third_occurrence_is_a_win_for_the_attackers() -> None:
    g = Game("copenhagen")
    for move in _SHUFFLE:
        assert g.play(move).outcome is None
    assert g.repetitions() == 2
    for move in _SHUFFLE[:-1]:
        assert g.play(move).outcome is None
    final = g.play(_SHUFFLE[-1])  # the start position with the attackers to move, a third time
    assert final.outcome is not None
    assert final.outcome.winner is Side.ATTACKERS
    assert final.outcome.termination is Termination.PERPETUAL_REPETITION


def test_third_occurrence_made_by_an_attackers_move_also_wins_for_the_attackers() -> None:
    # docs/RULES.md: "the third occurrence ... is a win for the attackers", whoever repeats; at
    # aagenielsen.dk perpetual repetition is always the defenders' loss.
    g = Game("copenhagen", START, Side.DEFENDERS)
    moves = ["f4-f3", "a4-b4", "f3-f4", "b4-a4"] * 2
    for move in moves[:-1]:
        assert g.play(move).outcome is None
    final = g.play(moves[-1])
    assert final.outcome is not None
    assert final.outcome.winner is Side.ATTACKERS
    assert final.outcome.termination is Termination.PERPETUAL_REPETITION


# ----------------------------------------------------------------------------- perft


def test_perft_depth_1_and_2() -> None:
    board = Game("copenhagen").board
    assert board.perft(1) == 116
    assert board.perft(2) == 6_788
    result = perft(Game("copenhagen").board, 2, captures=True)
    assert (result.leaves, result.captures) == (6_788, 16)


def test_perft_depth_3() -> None:
    # The deepest row of docs/RULES.md for copenhagen: 806,344 leaves (the slowest test here).
    assert Game("copenhagen").board.perft(3) == 806_344
