"""Standings and tiebreaks on small events computed by hand."""

from __future__ import annotations

import pytest

from bot.tournament import (
    MATCHES,
    Bye,
    ByeKind,
    Entrant,
    Game,
    Pairing,
    PlayedPairing,
    PlayedRound,
    Tiebreak,
    TournamentError,
    standings,
)

PLAYERS = [Entrant(1, 2000.0), Entrant(2, 1900.0), Entrant(3, 1800.0), Entrant(4, 1700.0)]


def game(attacker: int, defender: int, result: float, forfeit: bool = False) -> PlayedPairing:
    return PlayedPairing(Pairing(attacker, defender), (Game(attacker, defender, result, forfeit),))


def test_a_three_way_tie_for_first_is_broken_by_the_stated_order() -> None:
    # 1-4 1:0, 2-3 draw; 1-2 draw, 3-4 1:0; 2-4 1:0, 3-1 draw: 1, 2 and 3 all on 2 points
    # with Buchholz 4, Sonneborn-Berger 2 and one win each; performance (linear) decides:
    # mean opponent rating + 400 x (wins - losses) / games: 3 met 1900, 1700, 2000 ->
    # 1866.67 + 133.33 = 2000; 2 -> 1966.67; 1 -> 1933.33; 4 (three losses) 1900 - 400.
    rounds = [
        PlayedRound(1, (game(1, 4, 1.0), game(2, 3, 0.5))),
        PlayedRound(2, (game(1, 2, 0.5), game(3, 4, 1.0))),
        PlayedRound(3, (game(2, 4, 1.0), game(3, 1, 0.5))),
    ]
    table = standings(PLAYERS, rounds)
    assert [(s.rank, s.player, s.points) for s in table] == [
        (1, 3, 2.0), (2, 2, 2.0), (3, 1, 2.0), (4, 4, 0.0)]  # fmt: skip
    assert [(s.buchholz, s.sonneborn_berger, s.wins) for s in table[:3]] == [(4.0, 2.0, 1)] * 3
    assert [round(s.performance or 0, 2) for s in table] == [2000.0, 1966.67, 1933.33, 1500.0]
    assert table[3].buchholz == 6.0


def test_byes_count_as_fide_says_for_buchholz_and_sonneborn_berger() -> None:
    # Round 1: 1 beats 2, 3 has the bye; round 2: 3 beats 1, 2 has the bye. Points 1, 1, 2.
    # Opponents' scores count unplayed rounds as draws (1: 1, 2: 0 + 1/2, 3: 1 + 1/2); an own
    # unplayed round counts the player's own score. Buchholz: 1: 0.5 + 1.5 = 2; 2: 1 + 1 = 2;
    # 3: 1 + 2 = 3. Sonneborn-Berger: 1: 0.5 (beat 2); 2: own score 1 x bye 1 = 1;
    # 3: 1 (beat 1) + 2 x 1 = 3. 2 ranks above 1 on Sonneborn-Berger.
    rounds = [
        PlayedRound(1, (game(1, 2, 1.0),), (Bye(3, ByeKind.PAIRING, 1.0),)),
        PlayedRound(2, (game(1, 3, 0.0),), (Bye(2, ByeKind.PAIRING, 1.0),)),
    ]
    table = standings(PLAYERS[:3], rounds)
    got = [(s.player, s.points, s.buchholz, s.sonneborn_berger, s.games) for s in table]
    assert got == [(3, 2.0, 3.0, 3.0, 1), (2, 1.0, 2.0, 1.0, 1), (1, 1.0, 2.0, 0.5, 2)]


def test_a_forfeit_scores_but_is_not_a_game_played() -> None:
    rounds = [PlayedRound(1, (game(1, 2, 1.0, forfeit=True),))]
    first, second = standings(PLAYERS[:2], rounds)
    assert (first.player, first.points, first.wins, first.games, first.performance) == (
        1, 1.0, 0, 0, None)  # fmt: skip
    # both had an unplayed round: Buchholz is the own score (1 and 0)
    assert (first.buchholz, second.buchholz) == (1.0, 0.0)


def test_matches_score_match_points_with_game_points_as_the_first_tiebreak() -> None:
    def match(a: int, b: int, first: float, second: float) -> PlayedPairing:
        games = (Game(a, b, first), Game(b, a, 1.0 - second))
        return PlayedPairing(Pairing(a, b), games)

    rounds = [PlayedRound(1, (match(1, 2, 1.0, 1.0), match(3, 4, 1.0, 0.5)))]
    table = standings(PLAYERS, rounds, MATCHES)
    assert [(s.player, s.points, s.game_points) for s in table] == [
        (1, 1.0, 2.0), (3, 1.0, 1.5), (4, 0.0, 0.5), (2, 0.0, 0.0)]  # fmt: skip
    assert Tiebreak.GAME_POINTS is not None


def test_without_tiebreaks_the_better_seed_ranks_first() -> None:
    rounds = [PlayedRound(1, (game(1, 2, 0.5),))]
    table = standings([Entrant(2, 1500.0), Entrant(1, 1500.0)], rounds, order=())
    assert [s.player for s in table] == [1, 2]


def test_unknown_players_and_impossible_scores_are_refused() -> None:
    with pytest.raises(TournamentError, match="unknown player 9"):
        standings(PLAYERS, [PlayedRound(1, (game(1, 9, 1.0),))])
    with pytest.raises(TournamentError, match="game result 2"):
        Game(1, 2, 2)
