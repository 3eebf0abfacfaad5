"""Counts, records and waits in the players' words."""

from __future__ import annotations

from bot.discord_bot.compose.board import rating_with_games, side_record
from bot.discord_bot.compose.errors import seconds_left
from bot.storage import Participant, PlayerRating, Rating, SideRecord


def test_a_record_and_a_rating_read_as_sentences() -> None:
    assert side_record(SideRecord(wins=1, losses=1, draws=2)) == "1 win · 1 loss · 2 draws"
    newcomer = PlayerRating(Participant.user(1), "tablut", Rating(1662.3, 290.0), 1, 1, 0, 0)
    assert rating_with_games(newcomer) == "1662? after 1 rated game"
    settled = PlayerRating(Participant.user(1), "tablut", Rating(1540.0, 90.0), 30, 15, 15, 0)
    assert rating_with_games(settled) == "1540 after 30 rated games"


def test_a_wait_is_rounded_up_and_never_says_zero() -> None:
    assert [seconds_left(s) for s in (45.0, 44.2, 0.3, 0.0)] == ["45 s", "45 s", "1 s", "1 s"]
