"""Times per move as people write them: one vocabulary for every option that takes a time."""

from __future__ import annotations

import pytest
from refusals import refused

from bot.discord_bot.app.durations import InputWords, parse_move_time
from bot.discord_bot.app.players import (
    SettingsChange,
    changed_settings,
    parse_times,
    parse_variants,
)
from bot.storage import ServerSettings


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


SWEDISH = InputWords(
    no_limit=frozenset({"ingen", "obegränsad"}),
    every=frozenset({"alla"}),
    units={"t": "h", "timmar": "h", "dag": "d", "dagar": "d"},
)
"""A language's words as the composition gives them from its catalogue (here by hand: the
parser knows no catalogue)."""


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("ingen", None),
        ("Obegränsad", None),
        ("1t", 3600),
        ("24 timmar", 86400),
        ("3 dagar", 259200),
    ],
)
def test_the_writers_language_is_read_beside_english(text: str, seconds: int | None) -> None:
    assert parse_move_time(text, SWEDISH) == seconds
    # English's words stay accepted in every language.
    assert parse_move_time("none", SWEDISH) is None
    assert parse_move_time("3d", SWEDISH) == 259200


def test_a_language_is_read_only_where_it_is_given() -> None:
    with refused("is not a time"):
        parse_move_time("1t")
    with refused("is not a time"):
        parse_move_time("ingen")


def test_a_translation_never_changes_what_an_english_word_means() -> None:
    confusing = InputWords(units={"m": "h", "t": "h"})
    assert parse_move_time("10m", confusing) == 600


def test_every_variant_or_time_in_the_writers_words() -> None:
    assert parse_variants("alla", SWEDISH) == frozenset()
    assert parse_times("Alla", SWEDISH) == frozenset()
    assert parse_times("1dag, 3d 1t", SWEDISH) == {86400, 259200, 3600}
    with refused("is not a variant"):
        parse_variants("alla")


def test_a_servers_settings_are_changed_in_the_writers_words() -> None:
    current = ServerSettings(1, default_move_seconds=86400, lobby_times=frozenset({86400}))
    change = SettingsChange(time="ingen", lobby_times="alla", lobby_variants="alla")
    updated = changed_settings(current, change, SWEDISH)
    assert updated.default_move_seconds is None
    assert updated.lobby_times == frozenset() and updated.lobby_variants == frozenset()
    assert changed_settings(current, SettingsChange(time="2t"), SWEDISH).default_move_seconds == (
        7200
    )
