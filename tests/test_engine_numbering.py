"""Move numbering, material and repetition counts: the one definition every layer asks."""

from __future__ import annotations

import pytest
from helpers import game

from bot.engine import REPETITION_LIMIT, Game, MoveNumber, Side, Termination


def labels(played: Game) -> list[str]:
    return [str(played.move_number(ply)) for ply in range(1, played.ply + 1)]


def test_full_moves_pair_the_first_movers_move_with_the_reply() -> None:
    played = Game("tablut")  # attackers first
    for move in ("d1-d3", "e3-f3", "a4-c4", "f3-f2"):
        played.play(move)
    assert labels(played) == ["1.", "1…", "2.", "2…"]
    assert played.move_number() == MoveNumber(2, second=True)
    assert played.full_moves == 2
    assert played.numbered_moves() == ["1. d1-d3 e3-f3", "2. a4-c4 f3-f2"]


@pytest.mark.parametrize("variant", ["tablut-ashton", "tablut-corner"])
def test_when_the_defenders_move_first_their_moves_carry_the_full_stop(variant: str) -> None:
    played = Game(variant)
    assert played.turn is Side.DEFENDERS
    for _ in range(3):
        played.play(played.legal_moves()[0])
    sides = [result.side for result in played.history]
    assert sides == [Side.DEFENDERS, Side.ATTACKERS, Side.DEFENDERS]
    assert labels(played) == ["1.", "1…", "2."]
    assert played.full_moves == 2
    record = played.to_record()
    first, second, third = (result.notation for result in played.history)
    assert f"\n1. {first} {second}\n2. {third}\n" in record


def test_a_game_set_up_with_the_second_mover_to_play_starts_with_an_ellipsis() -> None:
    # In tablut the attackers move first, so a defenders' move is always "n…", even the first.
    played = Game("tablut", turn=Side.DEFENDERS)
    for move in ("e3-f3", "d1-d3", "f3-f2"):
        played.play(move)
    assert labels(played) == ["1…", "2.", "2…"]
    assert played.full_moves == 2
    record = played.to_record()
    assert "[turn:defenders]" in record and "\n1… e3-f3\n2. d1-d3 f3-f2\n" in record
    again = Game.from_record(record)
    assert [r.notation for r in again.history] == [r.notation for r in played.history]
    assert again.numbered_moves() == played.numbered_moves()


@pytest.mark.parametrize("first_line", ["1… e3-f3", "1... e3-f3", "1. … e3-f3", "1. ... e3-f3"])
def test_records_read_every_way_of_writing_a_missing_first_half(first_line: str) -> None:
    record = Game("tablut", turn=Side.DEFENDERS).to_record().rstrip("\n")
    played = Game.from_record(f"{record}\n{first_line}\n2. d1-d3\n")
    assert [r.move.text(9) for r in played.history] == ["e3-f3", "d1-d3"]


def test_move_numbers_start_at_the_first_move() -> None:
    with pytest.raises(ValueError, match="from 1"):
        MoveNumber.of(0, Side.ATTACKERS, Side.ATTACKERS)
    assert Game("brandubh").full_moves == 0
    assert (str(MoveNumber(12, False)), str(MoveNumber(12, True))) == ("12.", "12…")


def test_lost_counts_each_sides_captured_pieces_from_its_start() -> None:
    played = Game("tablut")
    assert (played.lost(Side.ATTACKERS), played.lost(Side.DEFENDERS)) == (0, 0)
    assert (played.men(Side.ATTACKERS), played.men(Side.DEFENDERS)) == (16, 8)
    position = game("tablut", "K:e5 T:c4 t:b4,d1,i9 T:h8")
    assert position.play("d1-d4").captures  # c4 is taken
    assert (position.lost(Side.ATTACKERS), position.lost(Side.DEFENDERS)) == (0, 1)
    assert position.men(Side.DEFENDERS) == 1  # h8 left; the king is not counted


def test_the_repetition_limit_is_the_occurrence_that_draws() -> None:
    played = Game("tablut")
    shuffle = ("a4-a3", "e3-d3", "a3-a4", "d3-e3")  # back to the start every four moves
    occurrences = [played.repetitions()]
    while not played.is_over:
        for move in shuffle:
            played.play(move)
        occurrences.append(played.repetitions())
    assert occurrences == list(range(1, REPETITION_LIMIT + 1))
    assert played.outcome is not None and played.outcome.termination is Termination.REPETITION


def test_remarks_on_moves_are_written_after_their_turn_and_read_past() -> None:
    played = Game("brandubh")
    for move in ("a4-a2", "d5-f5", "a2-c2"):
        played.play(move)
    record = played.to_record(
        comments={2: "d5-f5 lets the king out [soon] | or not", 3: "a quiet move"}
    )
    lines = record.splitlines()
    turns = lines[lines.index("1. a4-a2 d5-f5") :]
    assert turns == [
        "1. a4-a2 d5-f5",
        "[|d5-f5 lets the king out (soon) / or not]",
        "2. a2-c2",
        "[a quiet move]",
    ]
    again = Game.from_record(record)
    assert [result.notation for result in again.history] == ["a4-a2", "d5-f5", "a2-c2"]
    assert played.to_record(comments={}) == played.to_record()
