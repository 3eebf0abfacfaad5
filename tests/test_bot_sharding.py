"""The bot with and without shards: which discord.py class runs it, and how its shards take
turns to identify."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import discord
import pytest

from bot.discord_bot.client import ShardedTaflBot, TaflBot, make_bot
from bot.discord_bot.runtime.config import load_settings
from bot.discord_bot.runtime.identify import IdentifyPacer, SharedIdentifyPacer
from bot.storage import Storage


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_one_bucket_identifies_once_per_five_seconds() -> None:
    clock = Clock()
    pacer = IdentifyPacer(1, clock=clock)
    assert [pacer.reserve(shard) for shard in range(3)] == [0, 5, 10]
    clock.now += 12  # shard 2's slot is at +10, so the next is at +15
    assert pacer.reserve(3) == 3
    clock.now += 60
    assert pacer.reserve(4) == 0


def test_shards_of_different_buckets_identify_together() -> None:
    clock = Clock()
    pacer = IdentifyPacer(4, clock=clock)
    assert [pacer.reserve(shard) for shard in range(9)] == [0, 0, 0, 0, 5, 5, 5, 5, 10]
    with pytest.raises(ValueError, match="max_concurrency must be at least 1, not 0"):
        IdentifyPacer(0)


def test_the_processes_of_a_cluster_take_turns_through_their_shared_file(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "identify.json"
    first, second = (SharedIdentifyPacer(path, 1, clock=clock) for _ in range(2))
    # Each process's shards in turn, as two processes started together would ask.
    assert [first.reserve(0), second.reserve(2), first.reserve(1), second.reserve(3)] == [
        0, 5, 10, 15
    ]  # fmt: skip
    clock.now += 60
    assert second.reserve(2) == 0
    two_buckets = [SharedIdentifyPacer(tmp_path / "other.json", 2, clock=clock) for _ in "ab"]
    assert [pacer.reserve(shard) for pacer in two_buckets for shard in (0, 1)] == [0, 0, 5, 5]
    # A file cut short (a crash while writing) starts the turns afresh instead of failing.
    path.write_text('{"0": 1')
    assert first.reserve(0) == 0


def test_turns_booked_at_once_never_share_a_slot(tmp_path: Path) -> None:
    path = tmp_path / "identify.json"
    pacers = [SharedIdentifyPacer(path, 1, window=1.0) for _ in range(8)]
    with ThreadPoolExecutor(8) as pool:
        delays = sorted(pool.map(lambda pacer: pacer.reserve(0), pacers))
    # Each booking saw the one before it: the slots are one window apart.
    assert [round(delay) for delay in delays] == list(range(8)), delays


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "tafl.sqlite3")
    yield opened
    await opened.close()


async def test_without_shard_settings_the_bot_is_the_plain_unsharded_one(storage: Storage) -> None:
    bot = make_bot(load_settings({"DISCORD_TOKEN": "t"}), storage)
    # discord.py sends IDENTIFY's "shard" only when shard_id and shard_count are set.
    assert type(bot) is TaflBot and not isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_id, bot.shard_count) == (None, None)


async def test_with_shard_settings_the_bot_runs_those_shards(storage: Storage) -> None:
    environ = {"DISCORD_TOKEN": "t", "TAFL_SHARD_COUNT": "8", "TAFL_SHARD_IDS": "5,0,2"}
    bot = make_bot(load_settings(environ), storage)
    assert isinstance(bot, ShardedTaflBot) and isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_ids, bot.shard_count) == ([0, 2, 5], 8)
