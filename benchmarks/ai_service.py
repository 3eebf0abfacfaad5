"""Event-loop lag while the AI service thinks for four games at once.

.venv/bin/python benchmarks/ai_service.py [--rounds 3]
.venv/bin/python benchmarks/ai_service.py --smoke   # one round, 0.3 s searches (a few seconds)

Starts :class:`bot.ai.AIService` with two worker processes, as the bot does, and asks it for a
move in four tablut games at once, one per level (easy, medium, hard, master), ``--rounds``
times; after each answer a seeded random reply is played, so every round searches new
positions. Meanwhile a ticker on the event loop sleeps 10 ms at a time and records how late it
wakes up: the searches run in the workers, so the loop must stay free.

Target: worst lag 50 ms or less. Exit status 1 when the target is missed (not with
``--smoke``, which judges no speed), 2 when the service did not work (an answer that is not a
legal move, a failed request, no tick while it thought).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bot.ai import LEVELS, AIService
from bot.engine import Game, IllegalMoveError

TICK = 0.01
LAG_TARGET_MS = 50.0
OPENING = "d1-d3"
SMOKE_TIME = 0.3
WAIT = 120.0
"""The longest a round may take before the service is declared stuck (seconds)."""


async def tick_lags(done: asyncio.Future[list[str]]) -> list[float]:
    """How late (seconds) each ``TICK`` sleep woke up, until ``done`` completes."""
    lags: list[float] = []
    while not done.done():
        before = time.perf_counter()
        await asyncio.sleep(TICK)
        lags.append(time.perf_counter() - before - TICK)
    return lags


async def measure(rounds: int, time_limits: dict[str, float]) -> tuple[list[float], int]:
    """Play ``rounds`` rounds of four AI games; returns the ticker's lags and the moves played.

    Raises ``ValueError`` when an answer is not a legal move."""
    rng = random.Random(7)
    service = AIService(workers=2, time_limits=time_limits)
    await service.start()
    games = {level: Game("tablut") for level in LEVELS}
    played: dict[str, list[str]] = {level: [OPENING] for level in LEVELS}
    for game in games.values():
        game.play(OPENING)
    lags: list[float] = []
    answered = 0
    try:
        for _ in range(rounds):
            playing = [level for level, game in games.items() if not game.is_over]
            requests = asyncio.gather(
                *(
                    service.choose_move(
                        variant="tablut",
                        start_position=games[level].variant.start,
                        start_turn=games[level].variant.first,
                        moves=list(played[level]),
                        level=level,
                        seed=7,
                        game_key=level,
                    )
                    for level in playing
                )
            )
            ticker = asyncio.ensure_future(tick_lags(requests))
            answers = await asyncio.wait_for(requests, WAIT)
            lags += await ticker
            for level, chosen in zip(playing, answers, strict=True):
                text = chosen.move
                game = games[level]
                try:
                    game.play(text)
                except IllegalMoveError as error:
                    message = f"{level} answered {text!r}, not a legal move: {error}"
                    raise ValueError(message) from None
                answered += 1
                played[level].append(text)
                if not game.is_over:
                    reply = rng.choice(game.legal_moves()).text(game.size)
                    game.play(reply)
                    played[level].append(reply)
    finally:
        await service.close()
    return lags, answered


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the figures; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=3, help="moves asked of each game")
    parser.add_argument(
        "--smoke", action="store_true", help=f"one round, {SMOKE_TIME:g} s searches"
    )
    args = parser.parse_args(argv)
    rounds = 1 if args.smoke else args.rounds
    limits = {"hard": SMOKE_TIME, "master": SMOKE_TIME} if args.smoke else {}
    started = time.perf_counter()
    try:
        lags, answered = asyncio.run(measure(rounds, limits))
    except (ValueError, TimeoutError, RuntimeError) as error:
        print(f"FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    if not lags or answered < len(LEVELS):
        print(f"FAILED: {answered} moves answered, {len(lags)} ticks", file=sys.stderr)
        return 2
    worst = max(lags) * 1000
    searches = "levels' own time" if not limits else f"{SMOKE_TIME:g} s for hard and master"
    print(
        f"AI service, 2 workers, {len(LEVELS)} tablut games ({', '.join(LEVELS)}) x {rounds} "
        f"rounds ({searches}): {answered} moves in {elapsed:.1f} s"
    )
    print(
        f"  event loop worst lag {worst:.1f} ms (target <= {LAG_TARGET_MS:.0f} ms), "
        f"median {statistics.median(lags) * 1000:.1f} ms over {len(lags)} ticks of "
        f"{TICK * 1000:.0f} ms"
    )
    met = worst <= LAG_TARGET_MS
    if args.smoke:
        print(f"smoke run ok (target not judged: {'met' if met else 'NOT met'} on this run)")
        return 0
    print("target met" if met else "target NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
