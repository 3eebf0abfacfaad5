"""The AI's levels carry fixed ratings, derived from the measured ladder between them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ai import LEVELS, fast, level_rating, level_ratings, search, think
from bot.ai.agreement import random_position
from bot.ai.levels import ANCHOR_LEVEL, ANCHOR_RATING, LADDER, get_level, rating_gap
from bot.engine import VARIANTS, get_variant


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
    # Each variant has its own ladder.
    brandubh = level_ratings("brandubh")
    assert brandubh["master"] - brandubh["hard"] == pytest.approx(
        rating_gap(*LADDER["brandubh"]["master", "hard"]), abs=10
    )


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


class _SlowClock:
    """The search's clock on a slow, loaded machine: every read (one every 1,024 positions)
    finds 0.2 s more gone, as if it searched 5,000 positions a second."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.2
        return self.now


@pytest.mark.parametrize("build", ["fast", "python"])
def test_a_level_limited_by_depth_plays_the_same_move_on_a_slow_machine(
    build: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hard reads four plies whatever the machine: its clock is only a safety net. Here its
    four plies take some 9 s of the slow clock, more than its old 5 s, which stopped it a ply
    short with another move."""
    if build == "fast" and not fast.supports(get_variant("tablut")):
        pytest.skip(f"the fast core is not in use ({fast.state()})")
    if build == "python":
        monkeypatch.setattr(search.fast_core, "supports", lambda variant: False)
    board, history = random_position("tablut", 10, seed=8)
    expected = think(board, "hard", seed=1, history=history, time_limit=600.0, fresh=True)
    monkeypatch.setattr(search, "time", _SlowClock())
    slow = think(board, "hard", seed=1, history=history, fresh=True)
    assert slow.depth == get_level("hard").max_depth
    assert slow.move == expected.move and slow.nodes == expected.nodes
