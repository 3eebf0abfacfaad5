"""Glicko-2 maths against Glickman's published worked example ("Example of the Glicko-2 system")."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage.glicko2 import SCALE, Rating, rate, rate_game

# The paper's example: a 1500/200 player beats 1400/30, loses to 1550/100 and to 1700/300.
PLAYER = Rating(1500.0, 200.0, 0.06)
RESULTS = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0), (Rating(1700.0, 300.0), 0.0)]


def test_worked_example_final_values_match_the_paper() -> None:
    after = rate(PLAYER, RESULTS)
    # The paper rounds its intermediate values; exact arithmetic gives 1464.0507 for its 1464.06.
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_worked_example_internal_scale_values_match_the_paper() -> None:
    after = rate(PLAYER, RESULTS)
    assert (after.rating - 1500.0) / SCALE == pytest.approx(-0.2069, abs=1e-4)
    assert after.rd / SCALE == pytest.approx(0.8722, abs=1e-4)
    # Step 5 ends with A = -5.62696 (sigma' = exp(A / 2)): checks the volatility iteration itself,
    # which the glicko2 PyPI package gets wrong (it ends at -5.62704).
    assert 2 * math.log(after.volatility) == pytest.approx(-5.62696, abs=2e-5)


def test_no_games_only_widens_the_deviation() -> None:
    after = rate(PLAYER, [])
    assert after.rating == PLAYER.rating
    assert after.rd == pytest.approx(SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06**2))


def test_deviation_never_exceeds_a_newcomers() -> None:
    assert rate(Rating(1500.0, 350.0, 0.2), []).rd == 350.0


def test_a_draw_between_equals_changes_nothing_but_the_deviation() -> None:
    first, second = rate_game(Rating(), Rating(), 0.5)
    assert first.rating == pytest.approx(1500.0)
    assert second.rating == pytest.approx(1500.0)
    assert first.rd < 350.0


def test_provisional_until_the_deviation_drops() -> None:
    assert Rating().provisional
    assert not Rating(1500.0, 80.0).provisional


@given(
    st.floats(1000, 2200),
    st.floats(40, 350),
    st.floats(1000, 2200),
    st.floats(40, 350),
    st.sampled_from([0.0, 0.5, 1.0]),
)
def test_one_game_moves_ratings_in_opposite_directions(
    rating_a: float, rd_a: float, rating_b: float, rd_b: float, score: float
) -> None:
    before_a, before_b = Rating(rating_a, rd_a), Rating(rating_b, rd_b)
    after_a, after_b = rate_game(before_a, before_b, score)
    gain_a = after_a.rating - before_a.rating
    gain_b = after_b.rating - before_b.rating
    assert gain_a * gain_b <= 1e-9
    if score == 1.0:
        assert gain_a > 0
    if score == 0.0:
        assert gain_a < 0
    # One game can widen a small deviation (volatility adds more than one result tells), never
    # past a newcomer's.
    assert 0 < after_a.rd <= 350.0
    assert math.isfinite(after_a.volatility) and after_a.volatility > 0


def test_a_provisional_rating_shows_a_question_mark_and_a_settled_one_does_not() -> None:
    assert Rating().display == "1500?"
    assert Rating(1623.4, 80.0).display == "1623"
    assert Rating(1623.5, 110.0).display == "1624"  # the bound itself is no longer provisional
    assert Rating(1499.6, 110.01).display == "1500?"


def test_a_shown_change_adds_up_with_the_shown_ratings() -> None:
    from bot.storage import Participant, RatingChange

    change = RatingChange(Participant.user(1), Rating(1500.4), Rating(1662.6, 290.0))
    assert (change.before.display, change.after.display) == ("1500?", "1663?")
    assert change.shown_delta == 163  # not round(162.2): the line must add up
