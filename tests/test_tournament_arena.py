"""Arena scoring by lichess's documented rules, and pairing players as they come free."""

from __future__ import annotations

from bot.engine import Side
from bot.tournament import ArenaGame, Entrant, Game, arena_scores, pair_arena


def games(results: str, plies: int = 80) -> list[ArenaGame]:
    """Player 1's games against 2 in order: W, D or L."""
    value = {"W": 1.0, "D": 0.5, "L": 0.0}
    return [ArenaGame(Game(1, 2, value[r]), plies) for r in results]


def test_two_wins_start_a_streak_in_which_games_count_double() -> None:
    # lichess's example: two wins then a draw are worth 2 + 2 + 2 x 1 = 6
    assert arena_scores(games("WWD"))[1].sheet == (2, 2, 2)
    assert arena_scores(games("WWWLW"))[1].sheet == (2, 2, 4, 0, 2)
    assert arena_scores(games("WW"))[1].on_fire
    assert not arena_scores(games("WWD"))[1].on_fire
    assert arena_scores(games("WWD"))[2].points == 0 + 0 + 1


def test_a_short_draw_after_a_draw_scores_nothing_until_a_win() -> None:
    assert arena_scores(games("DD", plies=20))[1].sheet == (1, 0)
    assert arena_scores(games("DD", plies=60))[1].sheet == (1, 1)
    assert arena_scores(games("DLD", plies=20))[1].sheet == (1, 0, 0)
    assert arena_scores(games("DWD", plies=20))[1].sheet == (1, 2, 1)


def test_free_players_meet_the_nearest_in_score_but_not_their_last_opponent() -> None:
    waiting = [Entrant(i, 1500.0 + i) for i in range(1, 6)]
    scores = {1: 10, 2: 9, 3: 8, 4: 2, 5: 0}
    paired = pair_arena(waiting, scores, last_opponents={1: 2, 2: 1})
    assert [(p.attacker, p.defender) for p in paired.pairings] == [(1, 3), (2, 4)]
    assert paired.waiting == (5,)


def test_sides_alternate_from_the_last_game() -> None:
    waiting = [Entrant(1, 1600.0), Entrant(2, 1500.0)]
    paired = pair_arena(waiting, {}, {}, last_sides={1: Side.ATTACKERS})
    assert [(p.attacker, p.defender) for p in paired.pairings] == [(2, 1)]
