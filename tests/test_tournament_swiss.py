"""Swiss pairing: the Dutch system's first round, a later round worked by hand from the rules,
no repeat pairings over simulated events, byes, withdrawals, late joiners and side balance."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    MATCHES,
    ONE_GAME,
    Bye,
    ByeKind,
    Entrant,
    Game,
    PairingImpossibleError,
    PlayedPairing,
    PlayedRound,
    Round,
    Scoring,
    TournamentError,
    pair_swiss,
)


def field(count: int) -> list[Entrant]:
    """Players whose id is their seed (pairing number)."""
    return [Entrant(number, 2000.0 - 10 * number) for number in range(1, count + 1)]


def boards(r: Round) -> list[tuple[int, int]]:
    return [(p.attacker, p.defender) for p in r.pairings]


def play(
    r: Round, results: dict[tuple[int, int], float], scoring: Scoring = ONE_GAME
) -> PlayedRound:
    """The round with each board's result for its attacker (default: a draw)."""
    played = []
    for p in r.pairings:
        result = results.get((p.attacker, p.defender), 0.5)
        games = [Game(p.attacker, p.defender, result)]
        if scoring.matches:
            games.append(Game(p.defender, p.attacker, 1.0 - result))
        played.append(PlayedPairing(p, tuple(games)))
    return PlayedRound(r.number, tuple(played), r.byes)


def simulate(players: list[Entrant], rounds: int, seed: int, scoring: Scoring = ONE_GAME
             ) -> list[PlayedRound]:  # fmt: skip
    rng = random.Random(seed)
    history: list[PlayedRound] = []
    for number in range(1, rounds + 1):
        r = pair_swiss(players, history, number, scoring)
        results = {(p.attacker, p.defender): rng.choice((1.0, 0.5, 0.0)) for p in r.pairings}
        history.append(play(r, results, scoring))
    return history


def test_round_one_pairs_the_top_half_with_the_bottom_half_alternating_sides() -> None:
    # C.04.3: S1 = 1..4 meets S2 = 5..8 in order; the top seed takes the initial colour
    # (attackers) and colours alternate down the boards: 1-5, 6-2, 3-7, 8-4.
    assert boards(pair_swiss(field(8), [], 1)) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_one_of_an_odd_field_gives_the_lowest_seed_the_bye() -> None:
    r = pair_swiss(field(7), [], 1)
    assert boards(r) == [(1, 4), (5, 2), (3, 6)]
    assert r.byes == (Bye(7, ByeKind.PAIRING, 1.0),)


def test_round_two_with_score_groups_and_floaters_worked_from_the_rules() -> None:
    # Round 1 of six: 1-4 (1 wins), 5-2 (draw), 3-6 (6 wins). Scores: 1 and 6 on 1 point,
    # 2 and 5 on ½ (they met), 3 and 4 on 0. The top bracket pairs 1-6 (6 had the defenders,
    # 1 the attackers: both get what they are due). 2 and 5 cannot meet, so both float down
    # and, as moved-down players, meet the highest residents in order: 2-3 and 5-4; each
    # gets the side opposite to last round's. Boards by top score, then score sum, then seed.
    first = pair_swiss(field(6), [], 1)
    assert boards(first) == [(1, 4), (5, 2), (3, 6)]
    history = [play(first, {(1, 4): 1.0, (5, 2): 0.5, (3, 6): 0.0})]
    assert boards(pair_swiss(field(6), history, 2)) == [(6, 1), (2, 3), (4, 5)]


def test_the_bye_goes_to_the_lowest_ranked_player_who_has_not_had_one() -> None:
    players = field(5)
    first = pair_swiss(players, [], 1)
    assert [b.player for b in first.byes] == [5]
    # everyone draws: 5 (a point from the bye) now ranks above the others (½), so the lowest
    # is 4; in round 3 neither 4 nor 5 may have a second bye
    history = [play(first, {})]
    second = pair_swiss(players, history, 2)
    assert [b.player for b in second.byes] == [4]
    history.append(play(second, {}))
    third = pair_swiss(players, history, 3)
    assert third.byes[0].player not in (4, 5)


def test_withdrawn_players_are_not_paired_and_late_joiners_are() -> None:
    players = field(6)
    first = pair_swiss(players, [], 1)
    history = [play(first, {})]
    players[0] = Entrant(1, players[0].rating, withdrawn=True)
    late = Entrant(7, 1500.0)
    history = [PlayedRound(1, history[0].pairings, (Bye(7, ByeKind.MISSED, 0.0),))]
    second = pair_swiss([*players, late], history, 2)
    assert 1 not in second.players
    assert second.players == frozenset({2, 3, 4, 5, 6, 7})


def test_pairing_is_deterministic() -> None:
    history = simulate(field(12), 3, seed=4)
    assert pair_swiss(field(12), history, 4) == pair_swiss(list(reversed(field(12))), history, 4)


def test_an_impossible_round_says_so() -> None:
    players = field(2)
    history = [play(pair_swiss(players, [], 1), {})]
    with pytest.raises(PairingImpossibleError, match="cannot all be paired"):
        pair_swiss(players, history, 2)


def test_rounds_must_follow_the_history() -> None:
    with pytest.raises(TournamentError, match="pair round 1"):
        pair_swiss(field(4), [], 2)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=2, max_value=14), seed=st.integers(0, 10_000),
       matches=st.booleans())  # fmt: skip
def test_no_repeat_pairing_no_second_bye_and_everyone_once(count: int, seed: int, matches: bool
                                                           ) -> None:  # fmt: skip
    scoring = MATCHES if matches else ONE_GAME
    players = field(count)
    rng = random.Random(seed)
    history: list[PlayedRound] = []
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for number in range(1, min(count - 1, 5) + 1):
        try:
            r = pair_swiss(players, history, number, scoring)
        except PairingImpossibleError:
            break
        named = [x for p in r.pairings for x in p.players] + [b.player for b in r.byes]
        assert sorted(named) == list(range(1, count + 1))
        assert len(r.byes) == count % 2
        for p in r.pairings:
            assert frozenset(p.players) not in met
            met.add(frozenset(p.players))
        byes.update(b.player for b in r.byes)
        results = {(p.attacker, p.defender): rng.choice((1.0, 0.5, 0.0)) for p in r.pairings}
        history.append(play(r, results, scoring))
    assert all(n == 1 for n in byes.values())


@pytest.mark.parametrize("seed", range(20))
def test_sides_balance_in_a_three_round_eight_player_swiss(seed: int) -> None:
    history = simulate(field(8), 3, seed)
    sides: dict[int, str] = {p: "" for p in range(1, 9)}
    for played_round in history:
        for played in played_round.pairings:
            sides[played.pairing.attacker] += "A"
            sides[played.pairing.defender] += "D"
    for player, letters in sides.items():
        assert abs(letters.count("A") - letters.count("D")) <= 1, (player, letters)
        assert "AAA" not in letters and "DDD" not in letters, (player, letters)
    assert sum(s.count("A") for s in sides.values()) == 12
