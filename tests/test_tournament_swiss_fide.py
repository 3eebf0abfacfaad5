"""Swiss pairing against a published worked example of FIDE's Dutch system.

Source: *Mastering the Dutch* (FIDE TEC's worked companion to C.04.3, 2026 version), whose
15-player, 9-round tournament (Alice = 1 ... Stephanie = 15, pairing numbers by rating) is
paired round by round in the text: round 1 in §3 (pp. 11-13), round 2 in §4 (pp. 31-32),
round 3 in §5 (pp. 33-37), rounds 4 to 9 in §6 to §11 (pp. 37-67). The results and the pairing
tables are taken from the transcription of that document in the test fixtures of the public
``gnutterts/chesspairing`` repository (``pairing/dutch/fide_examples_test.go`` and
``mastering_dutch_2026_test.go``), which checks its transcription against the scores and colour
preferences the document prints. White is our attackers, black our defenders.

Requested half-point byes (player 6 in round 2, 7 in round 3, 15 in round 7) are given to the
pairing as the player being absent that round (``withdrawn``) and recorded as a half-point
:class:`~bot.tournament.model.ByeKind.MISSED` bye; forfeits are recorded as forfeited games.
Each round is paired from the document's own history, so a difference in one round does not
carry into the next.
"""

from __future__ import annotations

from bot.tournament import (
    Bye,
    ByeKind,
    Entrant,
    Game,
    Pairing,
    PlayedPairing,
    PlayedRound,
    Round,
    pair_swiss,
)

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
FORFEIT_WIN, FORFEIT_LOSS = "1F", "0F"
"""A game's result for white: a point, a draw, nothing, or a forfeit either way."""

ROUNDS: list[tuple[list[tuple[int, int, float | str]], dict[int, str]]] = [
    ([(1, 8, WIN), (9, 2, DRAW), (3, 10, WIN), (11, 4, LOSS), (5, 12, DRAW), (13, 6, WIN),
      (7, 14, LOSS)], {15: "pairing"}),
    ([(14, 1, LOSS), (2, 5, WIN), (15, 3, LOSS), (4, 13, WIN), (10, 7, LOSS), (8, 11, WIN),
      (12, 9, DRAW)], {6: "half"}),
    ([(1, 4, DRAW), (3, 2, DRAW), (6, 5, DRAW), (8, 13, FORFEIT_WIN), (9, 14, WIN),
      (11, 10, WIN), (12, 15, WIN)], {7: "half"}),
    ([(4, 3, FORFEIT_LOSS), (2, 1, LOSS), (8, 9, LOSS), (7, 12, WIN), (5, 13, WIN),
      (14, 6, LOSS), (15, 11, LOSS)], {10: "pairing"}),
    ([(1, 3, DRAW), (9, 7, LOSS), (4, 5, WIN), (12, 2, DRAW), (6, 8, LOSS), (13, 11, WIN),
      (10, 15, WIN)], {14: "pairing"}),
    ([(7, 1, LOSS), (3, 4, WIN), (8, 12, WIN), (11, 9, DRAW), (2, 10, WIN),
      (5, 14, FORFEIT_LOSS), (15, 6, LOSS)], {13: "pairing"}),
    ([(3, 8, WIN), (1, 9, DRAW), (4, 2, WIN), (6, 7, LOSS), (13, 14, WIN), (12, 11, WIN),
      (5, 10, LOSS)], {15: "half"}),
    ([(7, 3, DRAW), (1, 13, WIN), (9, 4, LOSS), (2, 8, WIN), (10, 12, WIN), (11, 6, WIN),
      (14, 15, LOSS)], {5: "pairing"}),
]  # fmt: skip
"""Rounds 1-8 as played: ``(white, black, result)`` boards in the document's order, and the
round's byes (``pairing``: the pairing-allocated bye, ``half``: a requested half-point bye)."""

PAIRED = {
    1: "1-8 9-2 3-10 11-4 5-12 13-6 7-14 | 15",
    2: "14-1 15-3 4-13 2-5 12-9 10-7 8-11",
    3: "1-4 3-2 13-8 9-14 12-15 6-5 11-10",
    4: "4-3 2-1 8-9 7-12 5-13 14-6 15-11 | 10",
    5: "1-3 9-7 4-5 12-2 6-8 13-11 10-15 | 14",
    6: "7-1 3-4 8-12 11-9 2-10 5-14 15-6 | 13",
    7: "3-8 1-9 4-2 6-7 13-14 12-11 5-10",
    8: "7-3 1-13 9-4 2-8 10-12 11-6 14-15 | 5",
    9: "10-1 9-3 4-7 13-2 8-15 5-11 12-14 | 6",
}
"""The document's pairing table of each round: ``white-black`` boards in order, then the
pairing-allocated bye after ``|``."""

ABSENT = {number: {p for p, kind in byes.items() if kind == "half"}
          for number, (_, byes) in enumerate(ROUNDS, start=1)}  # fmt: skip


def played(number: int) -> PlayedRound:
    boards, byes = ROUNDS[number - 1]
    pairings = []
    for white, black, result in boards:
        if isinstance(result, str):
            game = Game(white, black, 1.0 if result == FORFEIT_WIN else 0.0, forfeit=True)
        else:
            game = Game(white, black, result)
        pairings.append(PlayedPairing(Pairing(white, black), (game,)))
    given = tuple(
        Bye(player, ByeKind.PAIRING, 1.0) if kind == "pairing" else Bye(player, ByeKind.MISSED, 0.5)
        for player, kind in byes.items()
    )
    return PlayedRound(number, tuple(pairings), given)


def pair(number: int) -> Round:
    """Round ``number`` paired by the bot from the document's rounds before it."""
    absent = ABSENT.get(number, set())
    players = [Entrant(n, 3000.0 - n, withdrawn=n in absent) for n in range(1, 16)]
    return pair_swiss(players, [played(k) for k in range(1, number)], number)


def table(r: Round) -> str:
    boards = " ".join(f"{p.attacker}-{p.defender}" for p in r.pairings)
    byes = [b.player for b in r.byes if b.kind is ByeKind.PAIRING]
    return boards + (f" | {byes[0]}" if byes else "")


def test_the_transcribed_history_gives_the_scores_the_document_prints() -> None:
    """The scores before the ninth round, as Mastering the Dutch §11 (p. 67) prints them: a
    check that the rounds above, forfeits and half-point byes included, are read right."""
    from bot.tournament.history import records
    from bot.tournament.model import ONE_GAME

    known = records(range(1, 16), [played(k) for k in range(1, 9)], ONE_GAME)
    assert [known[p].points for p in range(1, 16)] == [
        6.5, 4.5, 6.5, 5.5, 3, 3, 5, 4, 4, 4, 3.5, 3.5, 4, 3, 2.5]  # fmt: skip


def test_round_one_sides_alternate_down_the_boards_and_the_lowest_gets_the_bye() -> None:
    """Mastering the Dutch §3, round 1 (pp. 11-13): S1 = 1-7 meets S2 = 8-14 in order, the
    top seed takes white and the colours alternate; 15, the lowest, has the bye."""
    assert table(pair(1)) == PAIRED[1]


def test_round_two_floats_and_the_sides_each_player_is_due() -> None:
    """Mastering the Dutch §4, round 2 (pp. 31-32): score groups 1, ½ and 0 with player 6
    away on a half-point bye; every player gets the side they are due."""
    assert table(pair(2)) == PAIRED[2]


def test_round_three_floats_the_player_whose_pairing_meets_both_sides_preferences() -> None:
    """Mastering the Dutch §5, round 3 (pp. 33-37): 1, 3 and 4 lead on 2 points; 1-3 would
    give both white, so 1 meets 4 and 3 floats down to 2 (the colour criteria come before
    which player floats)."""
    assert table(pair(3)) == PAIRED[3]


def test_round_four_with_a_forfeit_in_the_history_and_a_bye() -> None:
    """Mastering the Dutch §6, fourth round (p. 44): 4-3 after a forfeit, the moved-down
    player 1 meets 2, and the bye goes to 10. 1-9 and 2-8 would deny one player a side too,
    as 1-2 and 8-9 do, but there a strong preference (1 and 9 both strongly due black), here
    only 8's mild one (C13 before C15, which would have had 1 meet a resident who did not
    float up last round, 9, before 2)."""
    assert table(pair(4)) == PAIRED[4]


def test_round_five_gives_the_bye_to_the_player_with_no_unplayed_game() -> None:
    """Mastering the Dutch §7, fifth round (p. 51): of the players on 1 point who may have
    the bye, 13 lost a round by forfeit and 14 played every round: the bye goes to 14 (C9,
    the fewest unplayed games for the bye's taker), though 11-14 would have suited both sides
    better than 13-11."""
    assert table(pair(5)) == PAIRED[5]


def test_round_six_keeps_a_player_who_floated_up_from_floating_up_again() -> None:
    """Mastering the Dutch §8, sixth round (p. 57): the moved-down player 9 meets 11, not 5,
    who floated up in round 5."""
    assert table(pair(6)) == PAIRED[6]


def test_round_seven_with_a_half_point_bye_and_no_pairing_bye() -> None:
    """Mastering the Dutch §9, seventh round (p. 60): 15 away on a half-point bye, 14 boards."""
    assert table(pair(7)) == PAIRED[7]


def test_round_eight_gives_the_bye_to_the_lowest_score_possible() -> None:
    """Mastering the Dutch §10, eighth round (p. 63): the bye goes to 5 on 2 points, the
    lowest score it can (15, lower, has had one). For that, the 3-point group floats 6 and
    14 rather than pair them all (11 and 15 have met, so a bye to 5 needs a player from
    above to meet 15), and the 4-point group floats 8, not 9, as 8 can then meet 2 in the
    next group where 9 has met both 2 and 12 (C7, the next bracket's pairs)."""
    assert table(pair(8)) == PAIRED[8]


def test_round_nine_the_last_round() -> None:
    """Mastering the Dutch §11, ninth round (p. 67): the bye goes to 6 on 3 points, the
    only player on the lowest score who may have it, so 8 floats down from 4 points to meet 15
    on 2½; 5 and 11, both mildly due black, alternate from the last time their played games
    differed (5's two unplayed rounds left out): 5 takes white."""
    assert table(pair(9)) == PAIRED[9]
