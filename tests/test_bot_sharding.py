"""The bot with and without shards: which discord.py class runs it, and how its shards take
turns to identify."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.discord_bot.client import ShardedTaflBot, TaflBot, make_bot
from bot.discord_bot.runtime.config import load_settings
from bot.discord_bot.runtime.identify import IdentifyPacer
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
