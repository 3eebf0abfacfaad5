"""The AI's levels carry fixed ratings, derived from the measured ladder between them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ai import LEVELS, level_rating, level_ratings
from bot.ai.levels import ANCHOR_LEVEL, ANCHOR_RATING, LADDER, rating_gap
from bot.engine import VARIANTS


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_rates_every_level_in_order_from_the_anchor(variant: str) -> None:
    ratings = level_ratings(variant)
    assert list(ratings) == list(LEVELS)
    assert ratings[ANCHOR_LEVEL] == ANCHOR_RATING
    values = list(ratings.values())
    assert values == sorted(values), ratings  # a stronger level is never rated lower
    assert all(value % 10 == 0 for value in values)


def test_neighbouring_levels_are_spaced_by_their_measured_score() -> None:
    # Tablut: medium scored +15 =4 -1 against easy, and so on up the ladder.
    ratings = level_ratings("tablut")
    ladder = LADDER["tablut"]
    assert ratings["medium"] - ratings["easy"] == pytest.approx(
        rating_gap(*ladder["medium", "easy"]), abs=10
    )
    assert ratings["master"] - ratings["hard"] == pytest.approx(
        rating_gap(*ladder["master", "hard"]), abs=10
    )
    # An even score is no gap; a clean sweep a large but finite one.
    assert rating_gap(10, 0, 10) == 0
    assert 400 < rating_gap(20, 0, 0) < 700
    assert level_rating("tablut", "Master") == ratings["master"]
    # Brandubh's master and hard scored even: the same rating.
    assert level_ratings("brandubh")["master"] == level_ratings("brandubh")["hard"]


def test_the_readme_publishes_the_ratings_the_bot_uses() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    table = readme.split("<!-- ai-ratings:")[1].split("\n\n")[0]
    rows = {
        line.split("|")[1].strip(" `"): [int(cell) for cell in line.split("|")[2:-1]]
        for line in table.splitlines()
        if line.startswith("| `")
    }
    assert rows == {
        variant: [level_ratings(variant)[level] for level in LEVELS] for variant in VARIANTS
    }
