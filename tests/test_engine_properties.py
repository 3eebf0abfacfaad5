"""Property tests: random playouts of every variant, undo, OTN round trips, an independent
reference move generator."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    VARIANTS,
    Game,
    Move,
    Piece,
    PositionError,
    Side,
    Variant,
    format_position,
    parse_position,
)
from bot.engine.rules import KING_TAKEN

variants = st.sampled_from(sorted(VARIANTS))


def reference_moves(game: Game) -> list[Move]:
    """Legal moves walked square by square straight from docs/RULES.md (no tables)."""
    variant: Variant = game.variant
    n = variant.size
    cells = game.cells
    moves = []
    for origin, piece in enumerate(cells):
        if piece is Piece.EMPTY or piece.side is not game.turn:
            continue
        camp = next((group for group in variant.camp_groups if origin in group), frozenset())
        rank, file = divmod(origin, n)
        for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            r, f = rank + dr, file + df
            while 0 <= r < n and 0 <= f < n:
                sq = r * n + f
                if cells[sq] is not Piece.EMPTY:
                    break
                if sq in variant.camps and sq not in camp:
                    break
                if piece is Piece.KING:
                    if sq == variant.throne and not variant.king_may_enter_throne:
                        break
                    moves.append(Move(origin, sq))
                else:
                    if sq in variant.corners:
                        break
                    if sq == variant.throne:
                        if not variant.throne_passable:
                            break
                    else:
                        moves.append(Move(origin, sq))
                r, f = r + dr, f + df
    return sorted(moves)


def random_game(variant: str, seed: int, plies: int) -> Game:
    """A game of up to ``plies`` random legal moves (fewer if it ends)."""
    game = Game(variant)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def random_playout(game: Game, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            assert game.is_over
            return
        assert moves == reference_moves(game)
        game.play(rng.choice(moves))


@settings(max_examples=30, deadline=None)
@given(variant=variants, seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 160))
def test_random_playouts_stay_legal_and_end_properly(variant: str, seed: int, plies: int) -> None:
    game = Game(variant)
    random_playout(game, random.Random(seed), plies)
    for result in game.history[:-1]:
        assert result.outcome is None
    if game.is_over:
        assert game.legal_moves() == []
        assert game.history[-1].outcome == game.outcome
    kings = game.cells.count(Piece.KING)
    assert kings == 1


@settings(max_examples=25, deadline=None)
@given(variant=variants, seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 80))
def test_undo_restores_every_earlier_position_exactly(variant: str, seed: int, plies: int) -> None:
    game = Game(variant)
    rng = random.Random(seed)
    snapshots = []
    for _ in range(plies):
        if game.is_over:
            break
        snapshots.append((game.position_otn(), game.turn, game.board.hash, game.outcome))
        game.play(rng.choice(game.legal_moves()))
    while snapshots:
        game.undo()
        assert (game.position_otn(), game.turn, game.board.hash, game.outcome) == snapshots.pop()
    assert game.ply == 0


@settings(max_examples=25, deadline=None)
@given(variant=variants, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_game_records_round_trip(variant: str, seed: int, plies: int) -> None:
    game = random_game(variant, seed, plies)
    record = game.to_record({"attackers": "Ann", "defenders": "Bo"})
    again = Game.from_record(record)
    assert again.position_otn() == game.position_otn()
    assert again.turn is game.turn
    assert again.outcome == game.outcome
    assert [r.notation for r in again.history] == [r.notation for r in game.history]


@given(
    size=st.sampled_from([7, 9, 11, 13, 19]),
    data=st.data(),
)
def test_otn_positions_round_trip(size: int, data: st.DataObject) -> None:
    cells = data.draw(
        st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=size * size, max_size=size * size)
    )
    if data.draw(st.booleans()):
        cells[data.draw(st.integers(0, size * size - 1))] = 3
    text = format_position(cells, size)
    assert parse_position(text, size) == cells


def test_a_game_can_start_from_any_position_and_side() -> None:
    game = Game("brandubh", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", Side.DEFENDERS)
    assert game.turn is Side.DEFENDERS
    again = Game.from_record(game.to_record())
    assert again.turn is Side.DEFENDERS


def test_bad_positions_are_refused_with_the_reason() -> None:
    cases = {
        "3ttt3": "not an OTN position",
        "/3t3/": "has 1 ranks",
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3x3/": "piece letter 'x'",
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t4/": "has 8 squares, not 7",
        "/3t3/3t3/3T3/ttTKTtK/3T3/3t3/3t3/": "has 2 kings",
    }
    for text, reason in cases.items():
        try:
            Game("brandubh", text)
        except PositionError as error:
            assert reason in str(error), (text, str(error))
        else:
            raise AssertionError(f"{text} was accepted")


def brute_force_king_threatened(game: Game) -> bool:
    """Try every attackers' move from the position, as if it were their turn."""
    board = game.board
    if board.king < 0 or board.status:
        return False
    saved = board.turn
    board.turn = 0
    try:
        for move in board.moves():
            status = board.make(move)
            board.unmake()
            if status in KING_TAKEN:
                return True
        return False
    finally:
        board.turn = saved


@settings(max_examples=40, deadline=None)
@given(variant=variants, seed=st.integers(0, 2**32 - 1), plies=st.integers(20, 200))
def test_king_threat_detection_agrees_with_brute_force(variant: str, seed: int, plies: int) -> None:
    game = Game(variant)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        assert game.king_threatened() == brute_force_king_threatened(game)
        # Prefer attackers' moves next to the king, to reach threatening positions often.
        moves = game.legal_moves()
        king = game.king_square
        close = [
            m
            for m in moves
            if king is not None
            and abs(m.target % game.size - king % game.size)
            + abs(m.target // game.size - king // game.size)
            <= 2
        ]
        game.play(rng.choice(close) if close and rng.random() < 0.7 else rng.choice(moves))


@settings(max_examples=25, deadline=None)
@given(variant=variants, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_single_move_legality_agrees_with_move_generation(
    variant: str, seed: int, plies: int
) -> None:
    game = random_game(variant, seed, plies)
    board = game.board
    legal = set(board.moves())
    assert board.has_moves() == bool(legal)
    n = game.size
    for origin in range(n * n):
        rank, file = divmod(origin, n)
        for target in range(n * n):
            if target != origin and (target // n == rank or target % n == file):
                move = origin << 9 | target
                assert board.is_legal(move) == (move in legal)


@settings(max_examples=25, deadline=None)
@given(variant=variants, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_captures_of_agrees_with_playing_the_move_and_changes_nothing(
    variant: str, seed: int, plies: int
) -> None:
    game = random_game(variant, seed, plies)
    before = (game.position_otn(), game.turn, game.board.hash, game.ply, game.repetitions())
    for move in game.legal_moves():
        predicted = game.captures_of(move)
        assert (game.position_otn(), game.board.hash, game.ply, game.repetitions()) == (
            before[0],
            before[2],
            before[3],
            before[4],
        )
        assert game.play(move).captures == predicted
        game.undo()
    assert (game.position_otn(), game.turn, game.board.hash, game.ply, game.repetitions()) == before
