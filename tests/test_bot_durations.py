"""Times per move as people write them: one vocabulary for every option that takes a time."""

from __future__ import annotations

import pytest
from refusals import refused

from bot.discord_bot.app.durations import describe_duration, parse_move_time


@pytest.mark.parametrize("text", ["none", "None", " off ", "0", "unlimited", "no limit", "no"])
def test_every_word_for_no_limit_means_no_limit(text: str) -> None:
    assert parse_move_time(text) is None


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("30s", 30), ("10m", 600), ("10", 600), ("24h", 86400), ("3d", 259200), ("2 days", 172800)],
)
def test_times_are_read_in_their_unit_and_minutes_by_default(text: str, seconds: int) -> None:
    assert parse_move_time(text) == seconds


def test_a_bad_time_is_quoted_and_the_way_to_ask_for_no_limit_is_named() -> None:
    with refused(r"'soon' is not a time: .*`none` for no limit"):
        parse_move_time("soon")
    with refused("between 10 seconds and 14 days"):
        parse_move_time("15d")


def test_durations_are_described_in_their_largest_whole_unit() -> None:
    assert [describe_duration(s) for s in (90, 3600, 172800, 60)] == [
        "90 seconds",
        "1 hour",
        "2 days",
        "1 minute",
    ]
