"""The AI service: answers in worker processes, never blocks the loop, cancels and recovers."""

from __future__ import annotations

import asyncio

import pytest

from bot.ai import LEVELS, AIError, AIService, describe_levels
from bot.engine import Game, Side, get_variant

TABLUT = get_variant("tablut")
BRANDUBH = get_variant("brandubh")


def test_levels_are_named_weakest_first_with_descriptions() -> None:
    assert LEVELS == ("easy", "medium", "hard", "master")
    assert all(describe_levels()[name] for name in LEVELS)


async def _ticks_while(awaitable: asyncio.Future[list[str]]) -> int:
    """How many times the event loop ran a ticker coroutine while ``awaitable`` was pending.

    Each tick yields to the loop and nothing else: a loop that runs freely ticks thousands of
    times during a search of a few tenths of a second, a loop blocked by the search only
    between the searches. (How late the loop runs is measured by benchmarks/ai_service.py.)
    """
    ticks = 0
    while not awaitable.done():
        await asyncio.sleep(0)
        ticks += 1
    return ticks


async def test_four_games_think_at_once_while_the_loop_keeps_running() -> None:
    service = AIService(workers=2, time_limits={"hard": 0.4, "master": 0.4})
    await service.start()
    try:
        requests = [
            service.choose_move(
                variant="tablut",
                start_position=TABLUT.start,
                start_turn=Side.ATTACKERS,
                moves=["d1-d3"],
                level=level,
                seed=7,
                game_key=f"game-{index}",
            )
            for index, level in enumerate(("easy", "medium", "hard", "master"))
        ]
        gathered = asyncio.gather(*requests)
        ticks = await _ticks_while(gathered)
        answers = await gathered
        assert ticks >= 100, ticks
        assert len(answers) == 4
        for text in answers:
            game = Game("tablut")
            game.play("d1-d3")
            game.play(text)  # every answer is a legal defenders' move
    finally:
        await service.close()


async def test_cancel_stops_thinking_and_a_crashed_worker_is_replaced() -> None:
    service = AIService(workers=1, time_limits={"master": 30.0})
    await service.start()
    try:
        task = asyncio.ensure_future(
            service.choose_move(
                variant="brandubh",
                start_position=BRANDUBH.start,
                start_turn=Side.ATTACKERS,
                moves=[],
                level="master",
                game_key="ended",
            )
        )
        await asyncio.sleep(0.3)
        service.cancel("ended")
        with pytest.raises(asyncio.CancelledError):
            await task

        task = asyncio.ensure_future(
            service.choose_move(
                variant="brandubh",
                start_position=BRANDUBH.start,
                start_turn=Side.ATTACKERS,
                moves=[],
                level="easy",
                seed=3,
                game_key="crash",
            )
        )
        for worker in list(service._workers):
            worker.process.kill()  # the worker dies under the request: it is retried
        text = await task
        Game("brandubh").play(text)
    finally:
        await service.close()


async def test_bad_requests_fail_with_a_clear_error() -> None:
    service = AIService(workers=1)
    await service.start()
    try:
        with pytest.raises(AIError, match="no piece on a1"):
            await service.choose_move(
                variant="brandubh",
                start_position=BRANDUBH.start,
                start_turn=Side.ATTACKERS,
                moves=["a1-a2"],
                level="easy",
            )
        with pytest.raises(ValueError, match="not an AI level"):
            await service.choose_move(
                variant="brandubh",
                start_position=BRANDUBH.start,
                start_turn=Side.ATTACKERS,
                moves=[],
                level="grandmaster",
            )
    finally:
        await service.close()
