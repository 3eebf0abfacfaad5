"""The Discord layer's game hub against a real SQLite file: turns, errors, races, restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.discord_bot.errors import UserError
from bot.discord_bot.hub import GameHub
from bot.storage import Participant, Storage

ANN = Participant.user(1, "Ann")
BO = Participant.user(2, "Bo")
CHANNEL = 100


async def new_hub(path: Path) -> tuple[Storage, GameHub]:
    storage = await Storage.open(path)
    hub = GameHub(storage)
    await hub.load()
    return storage, hub


async def start(hub: GameHub, variant: str = "brandubh") -> None:
    record = await hub.storage.games.create(
        guild_id=1, channel_id=CHANNEL, variant=variant, attackers=ANN, defenders=BO
    )
    hub.adopt(record)


async def test_moves_are_checked_committed_and_survive_a_restart(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    await hub.play(CHANNEL, BO, "d3-c3")
    position = hub.require(CHANNEL).game.position_otn()
    await storage.close()

    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    live = hub.require(CHANNEL)
    assert live.game.position_otn() == position and live.game.ply == 2
    await storage.close()


async def test_turn_and_membership_errors_are_specific(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    with pytest.raises(UserError, match="not your turn"):
        await hub.play(CHANNEL, BO, "d3-c3")
    with pytest.raises(UserError, match="not playing in this game"):
        await hub.play(CHANNEL, Participant.user(3, "Cy"), "d1-c1")
    with pytest.raises(UserError, match="Illegal move: 'd1-d3': d2 blocks the path"):
        await hub.play(CHANNEL, ANN, "d1-d3")
    with pytest.raises(UserError, match="no game in this channel"):
        await hub.play(CHANNEL + 1, ANN, "d1-c1")
    assert await storage.games.moves(hub.require(CHANNEL).id) == []
    await storage.close()


async def test_racing_submissions_apply_exactly_one(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    results = await asyncio.gather(
        hub.play(CHANNEL, ANN, "d1-c1", expected_ply=0),
        hub.play(CHANNEL, ANN, "d1-e1", expected_ply=0),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, UserError)]
    assert len(errors) == 1 and "position changed" in str(errors[0])
    live = hub.require(CHANNEL)
    assert live.game.ply == 1
    assert len(await storage.games.moves(live.id)) == 1
    await storage.close()


async def test_a_winning_move_finishes_the_game_in_the_database(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    record = await storage.games.create(
        guild_id=1,
        channel_id=CHANNEL,
        variant="brandubh",
        attackers=ANN,
        defenders=BO,
        start_position="/7/K6/7/7/7/5t1/7/",
        first_turn="defenders",
    )
    hub.adopt(record)
    played = await hub.play(CHANNEL, BO, "a2-a1")
    assert played.result.outcome is not None
    assert played.finished is not None
    assert played.finished.record.result is not None
    assert played.finished.record.result.value == "defenders"
    assert hub.get(CHANNEL) is None
    await storage.close()


async def test_resign_draw_and_takeback(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    live = hub.offer_takeback(CHANNEL, ANN.user_id or 0)
    with pytest.raises(UserError, match="your opponent answers"):
        await hub.answer_takeback(live.id, ANN.user_id or 0, 1, True)
    assert await hub.answer_takeback(live.id, BO.user_id or 0, 1, True) is live
    assert live.game.ply == 0 and await storage.games.moves(live.id) == []

    hub.offer_draw(CHANNEL, BO.user_id or 0)
    assert await hub.answer_draw(live.id, ANN.user_id or 0, 0, accept=False) is None
    with pytest.raises(UserError, match="no longer open"):
        await hub.answer_draw(live.id, ANN.user_id or 0, 0, accept=True)

    ended = await hub.resign(CHANNEL, ANN.user_id or 0)
    assert ended.finished.record.result is not None
    assert ended.finished.record.result.value == "defenders"
    assert ended.finished.record.reason is not None
    assert ended.finished.record.reason.value == "resignation"
    await storage.close()


async def test_a_takeback_before_ones_first_move_is_refused(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    with pytest.raises(UserError, match="not moved yet"):
        hub.offer_takeback(CHANNEL, BO.user_id or 0)
    await storage.close()
