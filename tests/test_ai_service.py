"""The AI service: answers in worker processes, never blocks the loop, cancels and recovers."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from helpers import BRANDUBH_GROUP_CAPTURE

from bot.ai import LEVELS, MATE, AIError, AIService, describe_levels
from bot.ai.analysis import PositionEval, evaluate_position
from bot.engine import Game, Side, get_variant

TABLUT = get_variant("tablut")
BRANDUBH = get_variant("brandubh")


def test_levels_are_named_weakest_first_with_descriptions() -> None:
    assert LEVELS == ("easy", "medium", "hard", "master")
    assert all(describe_levels()[name] for name in LEVELS)


async def _ticks_while(awaitable: asyncio.Future[Any]) -> int:
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


async def test_positions_are_evaluated_in_the_workers_as_in_process() -> None:
    service = AIService(workers=1)
    await service.start()
    try:
        moves = ["e2-c2", "c5-c3"]
        evaluation = service.evaluate(
            variant="tablut", start_position=None, start_turn=None, moves=moves, max_depth=2
        )
        task = asyncio.ensure_future(evaluation)
        ticks = await _ticks_while(task)
        found = await task
        assert ticks >= 10, ticks  # the loop ran while the worker searched
        assert found == evaluate_position("tablut", None, None, moves, max_depth=2)
        assert found.depth == 2 and found.best_move is not None

        # A finished game is scored at once; a bad move is an AIError that quotes it.
        game = Game("brandubh")
        for text in BRANDUBH_GROUP_CAPTURE:
            game.play(text)
        over = await service.evaluate(
            variant="brandubh", start_position=None, start_turn=Side.ATTACKERS,
            moves=list(BRANDUBH_GROUP_CAPTURE),
        )
        assert over == PositionEval(MATE, None)
        with pytest.raises(AIError, match="no piece on a1"):
            await service.evaluate(
                variant="brandubh", start_position=None, start_turn=None, moves=["a1-a2"]
            )
    finally:
        await service.close()


async def test_an_evaluation_can_be_cancelled_by_its_key() -> None:
    service = AIService(workers=1)
    await service.start()
    try:
        task = asyncio.ensure_future(
            service.evaluate(
                variant="copenhagen", start_position=None, start_turn=None, moves=[],
                max_depth=9, key="analysis-1",
            )
        )
        await asyncio.sleep(0.3)
        service.cancel("analysis-1")
        with pytest.raises(asyncio.CancelledError):
            await task
        quick = await service.evaluate(
            variant="brandubh", start_position=None, start_turn=None, moves=[], max_depth=1
        )
        assert quick.depth == 1  # a fresh worker took the cancelled one's place
    finally:
        await service.close()
