"""The AI service: answers in worker processes, never blocks the loop, cancels and recovers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from helpers import BRANDUBH_GROUP_CAPTURE

from bot.ai import LEVELS, MATE, AIError, AIService, AIStopped, ChosenMove, describe_levels
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
        for answer in answers:
            assert isinstance(answer, ChosenMove)  # a typed reply, not a bare string
            game = Game("tablut")
            game.play("d1-d3")
            game.play(answer.move)  # every answer is a legal defenders' move
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
        await _searching(service, 1)  # the cancel comes while it thinks, not before
        thinking = service._workers[0].process
        service.cancel("ended")
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not thinking.is_alive() and service._workers[0].process is not thinking

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
        chosen = await task
        Game("brandubh").play(chosen.move)
    finally:
        await service.close()


async def test_closing_stops_searches_at_once_and_refuses_later_requests() -> None:
    """The bot stopping: a search in progress is not waited for (its worker is killed), it
    and the request waiting for a worker fail with AIStopped, a cancellation that callers
    tell from a game's end, and so does any request made afterwards."""
    service = AIService(workers=1, time_limits={"master": 30.0})
    await service.start()

    def ask(key: str) -> asyncio.Future[ChosenMove]:
        return asyncio.ensure_future(
            service.choose_move(
                variant="brandubh",
                start_position=BRANDUBH.start,
                start_turn=Side.ATTACKERS,
                moves=[],
                level="master",
                game_key=key,
            )
        )

    searching, queued = ask("searching"), ask("queued")
    await _searching(service, 1)
    thinking = service._workers[0].process
    await service.close()
    assert not thinking.is_alive()
    for request in (searching, queued):
        with pytest.raises(AIStopped):
            await request
    with pytest.raises(AIStopped):
        await ask("late")
    assert issubclass(AIStopped, asyncio.CancelledError)


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
            variant="brandubh",
            start_position=None,
            start_turn=Side.ATTACKERS,
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
                variant="copenhagen",
                start_position=None,
                start_turn=None,
                moves=[],
                max_depth=9,
                key="analysis-1",
            )
        )
        await _searching(service, 1)  # the cancel comes while it searches, not before
        searching = service._workers[0].process
        service.cancel("analysis-1")
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not searching.is_alive()
        quick = await service.evaluate(
            variant="brandubh", start_position=None, start_turn=None, moves=[], max_depth=1
        )
        assert quick.depth == 1  # a fresh worker took the cancelled one's place
    finally:
        await service.close()


async def _until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` holds (the service's state has no event to wait on)."""
    while not condition():  # noqa: ASYNC110
        await asyncio.sleep(0.01)


async def _searching(service: AIService, count: int) -> None:
    """Wait until ``count`` workers are busy with a request."""
    await _until(lambda: sum(1 for w in service._workers if w.future is not None) >= count)


def _review(service: AIService, key: str, seconds: float = 60.0) -> asyncio.Future[PositionEval]:
    """A review position searched for ``seconds`` (background work)."""
    return asyncio.ensure_future(
        service.evaluate(
            variant="tablut",
            start_position=TABLUT.start,
            start_turn=Side.ATTACKERS,
            moves=["d1-d3"],
            time_limit=seconds,
            key=key,
        )
    )


def _move(service: AIService, key: str) -> asyncio.Future[ChosenMove]:
    return asyncio.ensure_future(
        service.choose_move(
            variant="tablut",
            start_position=TABLUT.start,
            start_turn=Side.ATTACKERS,
            moves=["d1-d3"],
            level="easy",
            seed=1,
            game_key=key,
        )
    )


async def test_a_live_move_stops_a_review_search_when_no_worker_is_free() -> None:
    """One worker, busy with a review position for a minute: a game's move does not wait for
    it. The review's search is stopped, the move answered, and the position searched again."""
    service = AIService(workers=1)
    await service.start()
    try:
        review = _review(service, "review-1")
        await _searching(service, 1)
        move = await _move(service, "game-1")
        game = Game("tablut")
        game.play("d1-d3")
        game.play(move.move)
        assert not review.done()  # searched again, from the start
        await _searching(service, 1)  # the review has its worker back
        service.cancel("review-1")
        with pytest.raises(asyncio.CancelledError):
            await review
    finally:
        await service.close()


async def test_reviews_leave_a_worker_for_live_play() -> None:
    """Two workers and two reviews: one review waits, so a game's move finds a free worker at
    once (no review is stopped for it)."""
    service = AIService(workers=2)
    await service.start()
    try:
        assert service.background_limit == 1
        first, second = _review(service, "review-1"), _review(service, "review-2")
        await _searching(service, 1)
        await _until(lambda: len(service._waiting) == 1)  # the second review waits...
        assert len(service._free) == 1  # ...though a worker is free: it is kept for live play
        move = await _move(service, "game-1")
        assert move and not first.done() and not second.done()
        for key in ("review-1", "review-2"):
            service.cancel(key)
        for review in (first, second):
            with pytest.raises(asyncio.CancelledError):
                await review
    finally:
        await service.close()


async def test_finished_searches_are_reported_by_purpose_and_waiting_ones_counted() -> None:
    """``on_search`` hears of each search a worker finished, as a game's move or a review's
    position (a review stopped for live play is not one); ``waiting`` counts the requests
    queued for a worker, by purpose."""
    searched: list[tuple[str, float]] = []
    service = AIService(workers=1, on_search=lambda purpose, took: searched.append((purpose, took)))
    await service.start()
    try:
        assert (service.waiting(), service.busy()) == ({"move": 0, "review": 0}, 0)
        review = _review(service, "review-1")
        await _searching(service, 1)
        waiting = _review(service, "review-2")
        await _until(lambda: service.waiting() == {"move": 0, "review": 1})
        assert service.busy() == 1
        await _move(service, "game-1")  # stops review-1's search for a while
        assert [purpose for purpose, _ in searched] == ["move"]
        for key in ("review-1", "review-2"):
            service.cancel(key)
        for cancelled in (review, waiting):
            with pytest.raises(asyncio.CancelledError):
                await cancelled
        await service.evaluate(
            variant="brandubh", start_position=None, start_turn=None, moves=[], max_depth=1
        )
        assert [purpose for purpose, _ in searched] == ["move", "review"]
        assert all(took > 0 for _, took in searched)
        assert (service.waiting(), service.busy()) == ({"move": 0, "review": 0}, 0)
    finally:
        await service.close()
