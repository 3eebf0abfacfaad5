"""Round robin against the Berger tables published in FIDE C.05 Annex 1 (attackers = white)."""

from __future__ import annotations

import pytest

from bot.tournament import ByeKind, Entrant, round_robin


def table(text: str) -> list[list[tuple[int, int]]]:
    return [
        [(int(a), int(b)) for a, b in (board.split("-") for board in line.split())]
        for line in text.strip().splitlines()
    ]


BERGER = {
    4: table("""
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """),
    6: table("""
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """),
    8: table("""
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """),
    10: table("""
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """),
}


def seeded_field(count: int) -> list[Entrant]:
    """Players whose id is their pairing number (rating falls with the number)."""
    return [Entrant(number, 2000.0 - number) for number in range(count, 0, -1)]


@pytest.mark.parametrize("count", sorted(BERGER))
def test_rounds_are_the_published_berger_tables(count: int) -> None:
    rounds = round_robin(seeded_field(count))
    got = [[(p.attacker, p.defender) for p in r.pairings] for r in rounds]
    assert got == BERGER[count]
    assert [r.number for r in rounds] == list(range(1, count))
    assert all([p.board for p in r.pairings] == list(range(1, count // 2 + 1)) for r in rounds)


def test_an_odd_field_gives_the_player_who_would_meet_the_last_number_a_bye() -> None:
    rounds = round_robin(seeded_field(5))
    byes = [[(b.player, b.kind, b.points) for b in r.byes] for r in rounds]
    assert byes == [[(1, ByeKind.PAIRING, 0.0)], [(4, ByeKind.PAIRING, 0.0)],
                    [(2, ByeKind.PAIRING, 0.0)], [(5, ByeKind.PAIRING, 0.0)],
                    [(3, ByeKind.PAIRING, 0.0)]]  # fmt: skip
    boards = [[(p.attacker, p.defender) for p in r.pairings] for r in rounds]
    assert boards[0] == [(2, 5), (3, 4)]  # the 6-player table's round 1 without 1-6
    met = {frozenset(p.players) for r in rounds for p in r.pairings}
    assert len(met) == 10  # everyone meets everyone once


def test_a_double_round_robin_repeats_the_schedule_with_sides_swapped() -> None:
    rounds = round_robin(seeded_field(4), double=True)
    assert len(rounds) == 6
    first = [[(p.attacker, p.defender) for p in r.pairings] for r in rounds[:3]]
    second = [[(p.defender, p.attacker) for p in r.pairings] for r in rounds[3:]]
    assert first == second == BERGER[4]


def test_pairing_numbers_follow_rating_then_id() -> None:
    players = [Entrant(30, 1500.0), Entrant(10, 1800.0), Entrant(20, 1500.0), Entrant(40, 1200.0)]
    first = round_robin(players)[0]
    assert [(p.attacker, p.defender) for p in first.pairings] == [(10, 40), (20, 30)]
