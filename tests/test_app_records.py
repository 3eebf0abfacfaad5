"""The game records service on real SQLite storage, without Discord: which game a request
means (the channel's, or one by number of this server only), and its OTN record."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from refusals import refused
from storage_helpers import FakeClock, open_storage
from without_discord import run_without_discord

from bot.discord_bot.app.games import GameHub
from bot.discord_bot.app.records import GameRecords
from bot.storage import Participant, Storage

GUILD = 1
CHANNEL = 50
ANN = Participant.user(1, "ann")
BO = Participant.user(2, "bo")


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await open_storage(tmp_path / "tafl.sqlite3", clock)
    yield storage
    await storage.close()


async def which_game(path: str) -> None:
    """The channel's game while it is played, then its last finished one; a number only of
    this server (run here and, without Discord, in a fresh process)."""
    storage = await open_storage(path, FakeClock())
    try:
        hub = GameHub(storage)
        records = GameRecords(storage.games, storage.analyses, hub)
        with refused(r"^No game has been played in this channel yet\.$"):
            await records.game(GUILD, CHANNEL, None)
        record = await storage.games.create(
            guild_id=GUILD, channel_id=CHANNEL, variant="brandubh", attackers=ANN, defenders=BO
        )
        live = hub.adopt(record)
        await hub.play(CHANNEL, ANN, "d1-c1")
        found, game = await records.game(GUILD, CHANNEL, None)
        assert found is live.record and game is live.game
        # Still played, so not the channel's last finished game: none has finished yet.
        other = await storage.games.create(
            guild_id=GUILD, channel_id=CHANNEL + 1, variant="tablut", attackers=BO, defenders=ANN
        )
        hub.adopt(other)
        await hub.resign(CHANNEL + 1, BO.user_id or 0)
        await hub.resign(CHANNEL, ANN.user_id or 0)
        found, game = await records.game(GUILD, CHANNEL, None)
        assert (found.id, found.result, game.ply) == (record.id, "defenders", 1)
        found, _ = await records.game(GUILD, CHANNEL, other.id)
        assert found.id == other.id
        for guild, number in ((2, record.id), (GUILD, 999)):
            with refused(rf"^There is no game #{number} in this server\.$"):
                await records.game(guild, CHANNEL, number)
    finally:
        await storage.close()


async def test_which_game_a_request_means(tmp_path: Path) -> None:
    await which_game(str(tmp_path / "tafl.sqlite3"))


def test_the_service_runs_without_discord(tmp_path: Path) -> None:
    run_without_discord("test_app_records", "which_game", str(tmp_path / "t.sqlite3"))


async def test_a_record_carries_the_players_the_result_and_extra_tags(storage: Storage) -> None:
    hub = GameHub(storage)
    records = GameRecords(storage.games, storage.analyses, hub)
    record = await storage.games.create(
        guild_id=GUILD, channel_id=CHANNEL, variant="brandubh", attackers=ANN, defenders=BO
    )
    hub.adopt(record)
    await hub.play(CHANNEL, ANN, "d1-c1")
    ended = await hub.resign(CHANNEL, BO.user_id or 0)
    text, played = await records.otn(ended.finished.record, tags={"event": "Cup"})
    assert played.ply == 1
    for tag in (
        "[attackers:ann]",
        "[defenders:bo]",
        "[result:1]",
        "[termination:resignation]",
        "[site:Discord]",
        "[event:Cup]",
    ):
        assert tag in text, text
    assert "d1-c1" in text
