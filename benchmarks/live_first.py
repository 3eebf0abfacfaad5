"""Live play first: how late an AI move arrives while many game reviews keep the workers busy.

.venv/bin/python benchmarks/live_first.py [--reviews 20] [--moves 5]
.venv/bin/python benchmarks/live_first.py --smoke   # 2 reviews, 1 move (a few seconds)

Starts :class:`bot.ai.AIService` with two worker processes, as the bot does, and asks it for
``hard`` moves in a tablut game: first with nothing else to do, then while ``--reviews`` game
reviews run at once, each evaluating positions one after another as ``/tafl analyze`` does (a
60-ply self-play game, at the review's depth for tablut). Each move is timed from the request
to its answer.

Target: under load every move arrives within its own idle time plus 1 second. Exit status 1
when the target is missed (not with ``--smoke``, which judges no speed), 2 when the service did
not work (an answer that is not a legal move, a failed request, a review that stopped).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bot.ai import AIService
from bot.ai.analysis import default_depth
from bot.engine import Game

LEVEL = "hard"
VARIANT = "tablut"
TARGET = 1.0
"""The longest a move may arrive later under load than when idle (seconds)."""
REVIEW_PLIES = 60


def review_line(seed: int) -> list[str]:
    """A seeded random game of up to :data:`REVIEW_PLIES` plies, to be reviewed."""
    rng = random.Random(seed)
    game = Game(VARIANT)
    while game.ply < REVIEW_PLIES and not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return [result.move.text(game.size) for result in game.history]


def positions(count: int) -> list[list[str]]:
    """``count`` positions to ask the AI for a move in: random openings of 2 to 6 plies."""
    rng = random.Random(3)
    found = []
    for _ in range(count):
        game = Game(VARIANT)
        for _ in range(rng.randrange(2, 7)):
            game.play(rng.choice(game.legal_moves()))
        found.append([result.move.text(game.size) for result in game.history])
    return found


async def ask_moves(service: AIService, lines: list[list[str]]) -> list[float]:
    """Seconds each move took to arrive, asked one after another; each answer is checked."""
    variant = Game(VARIANT).variant
    took = []
    for index, moves in enumerate(lines):
        started = time.perf_counter()
        chosen = await service.choose_move(
            variant=VARIANT, start_position=variant.start, start_turn=variant.first,
            moves=moves, level=LEVEL, seed=index, game_key=f"live-{index}",
        )  # fmt: skip
        text = chosen.move
        took.append(time.perf_counter() - started)
        game = Game(VARIANT)
        for move in [*moves, text]:
            game.play(move)  # an illegal answer raises
    return took


async def review_forever(service: AIService, key: str, line: list[str], depth: int) -> None:
    """Evaluate the positions of ``line`` one by one, over and over, until cancelled."""
    variant = Game(VARIANT).variant
    while True:
        for ply in range(len(line) + 1):
            await service.evaluate(
                variant=VARIANT, start_position=variant.start, start_turn=variant.first,
                moves=line[:ply], max_depth=depth, key=key,
            )  # fmt: skip


async def measure(reviews: int, moves: int, depth: int) -> tuple[list[float], list[float]]:
    """The moves' times, idle and under load."""
    service = AIService(workers=2)
    await service.start()
    lines = positions(moves)
    try:
        idle = await ask_moves(service, lines)
        tasks = [
            asyncio.ensure_future(review_forever(service, f"review-{i}", review_line(i), depth))
            for i in range(reviews)
        ]
        await asyncio.sleep(1.0)  # the reviews fill the workers first
        loaded = await ask_moves(service, lines)
        for task in tasks:
            if task.done():  # a review stopped: the service failed it
                raise RuntimeError(f"a review stopped: {task.exception()!r}")
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    finally:
        await service.close()
    return idle, loaded


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the figures; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reviews", type=int, default=20, help="reviews running at once")
    parser.add_argument("--moves", type=int, default=5, help="moves asked of the AI")
    parser.add_argument("--smoke", action="store_true", help="2 reviews at depth 2, 1 move")
    args = parser.parse_args(argv)
    reviews, moves = (2, 1) if args.smoke else (args.reviews, args.moves)
    depth = 2 if args.smoke else default_depth(VARIANT)
    try:
        idle, loaded = asyncio.run(measure(reviews, moves, depth))
    except (ValueError, RuntimeError, TimeoutError) as error:
        print(f"FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    print(
        f"AI service, 2 workers: {moves} {LEVEL} tablut move{'s' if moves != 1 else ''}, idle "
        f"and while {reviews} reviews run (depth {depth})"
    )
    excess = [late - alone for late, alone in zip(loaded, idle, strict=True)]
    for index, (alone, late) in enumerate(zip(idle, loaded, strict=True)):
        print(f"  move {index + 1}: {alone:.2f} s idle, {late:.2f} s under load")
    worst = max(excess)
    print(f"worst delay under load {worst:+.2f} s (target <= +{TARGET:.1f} s)")
    met = worst <= TARGET
    if args.smoke:
        print(f"smoke run ok (target not judged: {'met' if met else 'NOT met'} on this run)")
        return 0
    print("target met" if met else "target NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
