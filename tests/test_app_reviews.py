"""The reviews service on real SQLite storage and the real AI workers, without Discord: which
games may be reviewed, each member's reviews made one at a time in the order asked, a review
being made watched by a second asker, and a stored review reused."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from refusals import refused
from storage_helpers import FakeClock, open_storage
from without_discord import run_without_discord

from bot.ai import AIService
from bot.ai.analysis import budget_name
from bot.discord_bot.app.errors import Refused
from bot.discord_bot.app.games import GameHub
from bot.discord_bot.app.records import GameRecords
from bot.discord_bot.app.reviews import (
    NoFinishedGame,
    NoResult,
    ReviewNews,
    ReviewProgress,
    ReviewService,
    ReviewWaiting,
    StillPlaying,
    Watcher,
)
from bot.storage import Participant, Storage

GUILD = 1
ANN = Participant.user(1, "ann")
BO = Participant.user(2, "bo")
KING_RUNS = ["b4-b7", "c4-c6", "a4-a6", "d4-a4", "d2-c2", "a4-a1"]
"""A brandubh game the attackers lose at once: a4-a6 lets the king reach a4 with a road to a1."""
WAIT = 120.0
"""Seconds a test waits for news before failing (a loaded machine is slow, never this slow)."""


class Journal:
    """What each asker was told, in the order told."""

    def __init__(self) -> None:
        self.news: list[tuple[str, ReviewNews]] = []
        self._told = asyncio.Condition()

    def watcher(self, who: str, hold: asyncio.Event | None = None) -> Watcher:
        """Notes what ``who`` is told; with ``hold``, the review waits for it to be set after
        each piece of news (a slow reader, so a test can act in between)."""

        async def watch(news: ReviewNews) -> None:
            async with self._told:
                self.news.append((who, news))
                self._told.notify_all()
            if hold is not None:
                await hold.wait()

        return watch

    async def until(self, told: Callable[[], bool]) -> None:
        """Wait until ``told()`` holds."""
        async with asyncio.timeout(WAIT), self._told:
            await self._told.wait_for(told)

    def began(self) -> list[int]:
        """The games whose reviews began, in order (each once)."""
        started = [n.game_id for _, n in self.news if isinstance(n, ReviewProgress) and not n.done]
        return list(dict.fromkeys(started))


async def finished_games(storage: Storage, hub: GameHub, count: int) -> list[int]:
    """``count`` brandubh games of ann against bo, each in its channel, won by the king."""
    ids = []
    for channel in range(50, 50 + count):
        record = await storage.games.create(
            guild_id=GUILD, channel_id=channel, variant="brandubh", attackers=ANN, defenders=BO
        )
        hub.adopt(record)
        for ply, move in enumerate(KING_RUNS):
            await hub.play(channel, ANN if ply % 2 == 0 else BO, move)
        ids.append(record.id)
    return ids


async def one_at_a_time(path: str) -> None:
    """A member's three reviews asked at once are made in the order asked, the later ones told
    how many are ahead (run here and, without Discord, in a fresh process)."""
    storage = await open_storage(path, FakeClock())
    ai = AIService(workers=1)
    await ai.start()
    try:
        hub = GameHub(storage)
        records = GameRecords(storage.games, storage.analyses, hub)
        reviews = ReviewService(storage.games, storage.analyses, records, ai)
        games = await finished_games(storage, hub, 3)
        journal = Journal()
        asks = []
        for index, game_id in enumerate(games):
            record, played = await reviews.finished(GUILD, 50 + index, None)
            assert record.id == game_id
            watch = journal.watcher(f"ask {index}")
            asks.append(asyncio.create_task(reviews.analysis(record, played, 1, watch)))
            # Each ask is under way (made, or waiting its turn) before the next is made.
            await journal.until(lambda index=index: len(journal.news) > index)
        analyses = await asyncio.gather(*asks)
        assert [analysis.variant for analysis in analyses] == ["brandubh"] * 3
        assert journal.began() == games
        waits = [(who, n) for who, n in journal.news if isinstance(n, ReviewWaiting)]
        assert waits == [
            ("ask 1", ReviewWaiting(games[1], 1)),
            ("ask 2", ReviewWaiting(games[2], 2)),
        ]
        for game_id in games:
            assert await storage.analyses.get(game_id, budget_name("brandubh")) is not None
    finally:
        await ai.close()
        await storage.close()


async def test_a_members_reviews_are_made_one_at_a_time_in_the_order_asked(
    tmp_path: Path,
) -> None:
    await one_at_a_time(str(tmp_path / "tafl.sqlite3"))


def test_the_service_runs_without_discord(tmp_path: Path) -> None:
    run_without_discord("test_app_reviews", "one_at_a_time", str(tmp_path / "t.sqlite3"))


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await open_storage(tmp_path / "tafl.sqlite3", clock)
    yield storage
    await storage.close()


@pytest.fixture
async def ai() -> AsyncIterator[AIService]:
    service = AIService(workers=1)
    await service.start()
    yield service
    await service.close()


async def test_only_games_finished_in_this_server_are_reviewed(
    storage: Storage, ai: AIService
) -> None:
    hub = GameHub(storage)
    reviews = ReviewService(
        storage.games, storage.analyses, GameRecords(storage.games, storage.analyses, hub), ai
    )
    with pytest.raises(Refused) as caught:
        await reviews.finished(GUILD, 50, None)
    assert caught.value.refusal == NoFinishedGame()
    record = await storage.games.create(
        guild_id=GUILD, channel_id=50, variant="brandubh", attackers=ANN, defenders=BO
    )
    live = hub.adopt(record)
    with pytest.raises(Refused) as caught:
        await reviews.finished(GUILD, 50, record.id)
    assert caught.value.refusal == StillPlaying(record.id)
    with refused(rf"^There is no game #{record.id} in this server\.$"):
        await reviews.finished(GUILD + 1, 50, record.id)
    await hub.call_off(live)
    with pytest.raises(Refused) as caught:
        await reviews.finished(GUILD, 50, record.id)
    assert caught.value.refusal == NoResult(record.id)


async def test_a_review_being_made_is_watched_and_then_reused_as_stored(
    storage: Storage, ai: AIService, caplog: pytest.LogCaptureFixture
) -> None:
    hub = GameHub(storage)
    records = GameRecords(storage.games, storage.analyses, hub)
    reviews = ReviewService(storage.games, storage.analyses, records, ai)
    [game_id] = await finished_games(storage, hub, 1)
    record, played = await reviews.finished(GUILD, 50, game_id)
    journal = Journal()
    caplog.set_level(logging.INFO, logger="bot.discord_bot.app.reviews")
    # ann's review has begun, and waits while ann is told so.
    hold = asyncio.Event()
    first = asyncio.create_task(reviews.analysis(record, played, 1, journal.watcher("ann", hold)))
    await journal.until(lambda: len(journal.news) == 1)
    # bo asks for the same review: told at once where it has got, not when it next moves on.
    second = asyncio.create_task(reviews.analysis(record, played, 2, journal.watcher("bo")))
    await journal.until(lambda: len(journal.news) == 2)
    begun = ReviewProgress(game_id, 0, len(KING_RUNS) + 1, 0.0)
    assert journal.news == [("ann", begun), ("bo", begun)]
    hold.set()
    made, watched = await asyncio.gather(first, second)
    assert made == watched
    reviewed = [r for r in caplog.records if f"game {game_id} reviewed" in r.getMessage()]
    assert len(reviewed) == 1  # made once, watched by both
    told = len(journal.news)
    again = await reviews.analysis(record, played, 2, journal.watcher("bo"))
    assert again == made and len(journal.news) == told  # stored: no news, no search
