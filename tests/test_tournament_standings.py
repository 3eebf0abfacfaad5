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
    """FIDE C.07 (tie-break regulations, from 2023), article 16: an opponent's pairing-allocated
    bye counts at its points in their score (16.2.1, 16.3.1); a player's own unplayed round is a
    game against a dummy who ended on the player's own score (16.4). The same reading as FIDE
    TEC's tie-break server (``TEC-FIDE/TieBreakServer``, ``tiebreak.py``,
    ``compute_buchholz_sonneborn_berger``)."""
    # Round 1: 1 beats 2, 3 has the bye; round 2: 3 beats 1, 2 has the bye. Points 1, 1, 2, and
    # the same as the opponents count them. Buchholz: 1: 2's 1 + 3's 2 = 3; 2: 1's 1 + a dummy
    # on 2's own 1 = 2; 3: 1's 1 + a dummy on 3's own 2 = 3. Sonneborn-Berger: 1: 1 x 1 (beat
    # 2); 2: the dummy's 1 x the bye's 1 = 1; 3: 1 x 1 (beat 1) + 2 x 1 = 3. 1 ranks above 2.
    rounds = [
        PlayedRound(1, (game(1, 2, 1.0),), (Bye(3, ByeKind.PAIRING, 1.0),)),
        PlayedRound(2, (game(1, 3, 0.0),), (Bye(2, ByeKind.PAIRING, 1.0),)),
    ]
    table = standings(PLAYERS[:3], rounds)
    got = [(s.player, s.points, s.buchholz, s.sonneborn_berger, s.games) for s in table]
    assert got == [(3, 2.0, 3.0, 3.0, 1), (1, 1.0, 3.0, 1.0, 2), (2, 1.0, 2.0, 1.0, 1)]


def test_a_withdrawn_players_rounds_count_as_draws_for_their_opponents() -> None:
    """FIDE C.07 article 16.2.5 and 16.3.2: the rounds without a pairing after a player's last
    round of play count as draws in the score their opponents' tiebreaks use; 16.3.1: every
    other round, a bye included, at its points."""
    # Round 1: 1 beats 2, 3 beats 4; round 2: 1 beats 3, 2 and 4 draw; 4 withdraws; round 3:
    # 2 beats 3, 1 has the bye. Points 3, 1½, 1, ½. As opponents count them: 1 on 3 (the bye
    # at its point), 4 on 0 + ½ + ½ (the round after withdrawing a draw) = 1. Buchholz:
    # 1: 1½ + 1 + a dummy on 3 = 5½; 2: 3 + 1 + 1 = 5; 3: 1 + 3 + 1½ = 5½; 4: 1 + 1½ + a dummy
    # on ½ = 3. Sonneborn-Berger: 1: 1½ + 1 + 3 x 1 = 5½; 2: ½ x 1 + 1 x 1 = 1½; 3: 1 x 1 = 1;
    # 4: ½ x 1½ + ½ x 0 (the round away gave nothing) = ¾.
    rounds = [
        PlayedRound(1, (game(1, 2, 1.0), game(3, 4, 1.0))),
        PlayedRound(2, (game(1, 3, 1.0), game(2, 4, 0.5))),
        PlayedRound(3, (game(2, 3, 1.0),), (Bye(1, ByeKind.PAIRING, 1.0),)),
    ]
    players = [*PLAYERS[:3], Entrant(4, 1700.0, withdrawn=True)]
    got = [(s.player, s.points, s.buchholz, s.sonneborn_berger) for s in standings(players, rounds)]
    assert got == [(1, 3.0, 5.5, 5.5), (2, 1.5, 5.0, 1.5), (3, 1.0, 5.5, 1.0), (4, 0.5, 3.0, 0.75)]


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
