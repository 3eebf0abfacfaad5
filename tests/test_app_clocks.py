"""The clocks service on real SQLite storage, without Discord: reminders once per move when a
quarter of the time is left, forfeits on time, expired challenges and the lobby's rounds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import TypeVar

import pytest
from storage_helpers import FakeClock, open_storage
from without_discord import run_without_discord

from bot.discord_bot.app.challenges import ChallengeService, Where
from bot.discord_bot.app.clocks import LOBBY_EVERY, REMINDER_HORIZON, Clocks, reminder_due
from bot.discord_bot.app.games import GameHub
from bot.storage import Participant, Storage
from bot.storage.lobby import UNSTARTED_GRACE, Pairing, SeekRequest

GUILD = 1
CHANNEL = 50
ANN = Participant.user(1, "ann")
BO = Participant.user(2, "bo")


def test_a_reminder_is_due_with_a_quarter_of_the_time_left_at_most_an_hour() -> None:
    assert not reminder_due(60, 16) and reminder_due(60, 15)
    assert reminder_due(86400, REMINDER_HORIZON) and not reminder_due(86400, REMINDER_HORIZON + 1)
    assert reminder_due(10, 5) and not reminder_due(10, 6)  # never less than 5 s before


def clocks_on(storage: Storage, hub: GameHub, now: FakeClock, tick: FakeClock) -> Clocks:
    challenges = ChallengeService(
        storage.challenges, storage.games, storage.settings, storage.tournaments, hub
    )
    return Clocks(storage.games, storage.lobby, hub, challenges, now=now, clock=tick)


T = TypeVar("T")


async def all_of(items: AsyncIterator[T]) -> list[T]:
    return [item async for item in items]


async def reminders_and_forfeits(path: str) -> None:
    """One reminder per move, then the game lost on time (run here and, without Discord, in a
    fresh process)."""
    clock = FakeClock()
    storage = await open_storage(path, clock)
    try:
        hub = GameHub(storage)
        clocks = clocks_on(storage, hub, clock, FakeClock(0))
        record = await storage.games.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            variant="brandubh",
            attackers=ANN,
            defenders=BO,
            move_seconds=60,
        )
        live = hub.adopt(record)
        clock.advance(44)
        assert await all_of(clocks.reminders()) == []  # 16 s left of 60: not yet
        clock.advance(1)
        [reminder] = await all_of(clocks.reminders())
        assert (reminder.live, reminder.channel_id, reminder.guild_id) == (live, CHANNEL, None)
        assert reminder.deadline == record.move_deadline
        assert await all_of(clocks.reminders()) == []  # once per move
        await hub.play(CHANNEL, ANN, "d1-c1")
        clock.advance(45)
        [reminder] = await all_of(clocks.reminders())
        assert reminder.live.to_move == BO
        assert await all_of(clocks.forfeits()) == []
        clock.advance(15)
        [ended] = await all_of(clocks.forfeits())
        assert ended.game.id == live.id and ended.finished.record.result == "attackers"
        assert hub.get(CHANNEL) is None
        assert await all_of(clocks.forfeits()) == []
    finally:
        await storage.close()


async def test_one_reminder_per_move_then_a_forfeit_on_time(tmp_path: Path) -> None:
    await reminders_and_forfeits(str(tmp_path / "tafl.sqlite3"))


def test_the_service_runs_without_discord(tmp_path: Path) -> None:
    run_without_discord("test_app_clocks", "reminders_and_forfeits", str(tmp_path / "t.sqlite3"))


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await open_storage(tmp_path / "tafl.sqlite3", clock)
    yield storage
    await storage.close()


async def test_the_ai_to_move_is_never_reminded(storage: Storage, clock: FakeClock) -> None:
    hub = GameHub(storage)
    clocks = clocks_on(storage, hub, clock, FakeClock(0))
    record = await storage.games.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        variant="brandubh",
        attackers=Participant.ai(1),
        defenders=ANN,
        move_seconds=60,
    )
    hub.adopt(record)
    clock.advance(50)
    assert await all_of(clocks.reminders()) == []


async def test_expired_challenges_are_those_shown(storage: Storage, clock: FakeClock) -> None:
    hub = GameHub(storage)
    challenges = ChallengeService(
        storage.challenges, storage.games, storage.settings, storage.tournaments, hub,
        expiry_seconds=60,
    )  # fmt: skip
    clocks = Clocks(storage.games, storage.lobby, hub, challenges, now=clock)
    posted = await challenges.challenge(Where(CHANNEL, GUILD, "channel"), ANN, BO)
    await challenges.shown(posted.challenge.id, 123)
    assert await clocks.expired_challenges() == []
    clock.advance(60)
    [expired] = await clocks.expired_challenges()
    assert (expired.id, expired.status.value) == (posted.challenge.id, "expired")


async def test_the_lobby_is_kept_every_few_seconds(storage: Storage, clock: FakeClock) -> None:
    tick = FakeClock(0)
    clocks = clocks_on(storage, GameHub(storage), clock, tick)
    await storage.lobby.seek(SeekRequest(ANN, 10, 100, "brandubh", 86400, True, None))
    paired = await storage.lobby.seek(SeekRequest(BO, 20, 200, "brandubh", 86400, True, None))
    assert isinstance(paired, Pairing)
    # Their game never came (its process stopped): a round pairs them again.
    clock.advance(UNSTARTED_GRACE)
    [again] = await clocks.lobby_pairs()
    assert {again.attackers.player, again.defenders.player} == {ANN, BO}
    clock.advance(UNSTARTED_GRACE)
    tick.advance(LOBBY_EVERY - 1)
    assert await clocks.lobby_pairs() == []  # not due yet: no round
    tick.advance(1)
    [third] = await clocks.lobby_pairs()
    assert {third.attackers.player, third.defenders.player} == {ANN, BO}
