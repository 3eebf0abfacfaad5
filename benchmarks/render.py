"""Board image speed and size: `.venv/bin/python benchmarks/render.py [--smoke]`.

Prints, for a 9x9 board about 720 px wide, the median time to render and PNG-encode one
position and its size, then the same for the 11x11 board of Copenhagen (its crowded start is the
largest PNG of any variant), then the time and size of a 60-move GIF replay. Targets on the
development machine: a board in 5 ms and 40 KB or less, the GIF in 400 ms and 1 MB or less.
Positions come from seeded random games, so every run measures the same images.

Every image is decoded again and checked (a PNG or GIF of the layout's size, one GIF frame per
position): the benchmark exits with status 1 if one is not. ``--smoke`` runs the same steps
with fewer repetitions and a 12-move GIF (about a second) and judges no speed.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PIL import Image, ImageSequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bot.engine import Game
from bot.render import (
    BoardView,
    Layout,
    board_view_from_game,
    render_gif,
    render_png,
    replay_views,
)


def random_game(plies: int, seed: int, variant: str = "tablut") -> Game:
    """A game of exactly `plies` random legal moves (trying seeds until one lasts)."""
    while True:
        rng = random.Random(seed)
        game = Game(variant)
        while game.ply < plies and not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        if game.ply == plies:
            return game
        seed += 1


def median_ms(action: Callable[[], object], runs: int) -> float:
    """Median wall time of `action` in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


@dataclass(frozen=True)
class Plan:
    """How much to measure."""

    board_runs: int
    """Renders of each board whose median is reported."""
    gif_moves: int
    """Length of the replayed game."""
    gif_runs: int
    """Renders of each GIF whose median is reported."""


FULL = Plan(board_runs=200, gif_moves=60, gif_runs=5)
SMOKE = Plan(board_runs=5, gif_moves=12, gif_runs=1)


def png_problem(data: bytes, layout: Layout) -> str | None:
    """Why ``data`` is not a board PNG of ``layout``'s size (None when it is one)."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "not a PNG"
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        if image.size != (layout.width, layout.height):
            return f"{image.size[0]}x{image.size[1]} px, not {layout.width}x{layout.height}"
        if len(image.convert("RGB").getcolors(1 << 16) or ()) < 4:
            return "a blank image"
    return None


def gif_problem(data: bytes, frames: int, layout: Layout) -> str | None:
    """Why ``data`` is not a GIF of ``frames`` frames of ``layout``'s size (None when it is)."""
    if not data.startswith(b"GIF89a"):
        return "not a GIF"
    with Image.open(io.BytesIO(data)) as image:
        if image.size != (layout.width, layout.height):
            return f"{image.size[0]}x{image.size[1]} px, not {layout.width}x{layout.height}"
        found = sum(1 for _ in ImageSequence.Iterator(image))
    return None if found == frames else f"{found} frames, not {frames}"


def board_figures(label: str, view: BoardView, runs: int, theme: str = "classic") -> str | None:
    """Print render+encode time and PNG size for one view; returns what is wrong with the
    image, if anything."""
    start = time.perf_counter()
    data = render_png(view, theme=theme)
    cold = (time.perf_counter() - start) * 1000
    warm = median_ms(lambda: render_png(view, theme=theme), runs=runs)
    print(f"  {label:<34} {warm:6.2f} ms  {len(data) / 1000:6.1f} KB   (first call {cold:.0f} ms)")
    problem = png_problem(data, Layout.fit(view.size, caption=view.caption is not None))
    return None if problem is None else f"{label}: {problem}"


def run(plan: Plan) -> list[str]:
    """Run the benchmark and print the figures; returns the problems found in the images."""
    problems: list[str | None] = []
    middle = random_game(24, seed=1)
    print(f"9x9 board, 720 px, render + PNG encode (median of {plan.board_runs}):")
    runs = plan.board_runs
    problems.append(board_figures("start position", board_view_from_game(Game("tablut")), runs))
    problems.append(board_figures("mid-game with last move", board_view_from_game(middle), runs))
    problems.append(
        board_figures(
            "mid-game with caption",
            board_view_from_game(
                middle, caption=True, attackers="Ragnar Lodbrok", defenders="Carl Linnaeus"
            ),
            runs,
        )
    )
    problems.append(
        board_figures("mid-game, contrast theme", board_view_from_game(middle), runs, "contrast")
    )

    eleven = random_game(24, seed=1, variant="copenhagen")
    print(f"11x11 board (copenhagen), 720 px, render + PNG encode (median of {runs}):")
    problems.append(
        board_figures(
            "start position with caption",
            board_view_from_game(
                Game("copenhagen"),
                caption=True,
                attackers="Ragnar Lodbrok",
                defenders="Carl Linnaeus",
            ),
            runs,
        )
    )
    problems.append(
        board_figures(
            "mid-game with caption",
            board_view_from_game(
                eleven, caption=True, attackers="Ragnar Lodbrok", defenders="Carl Linnaeus"
            ),
            runs,
        )
    )

    moves = plan.gif_moves
    game = random_game(moves, seed=1)
    print(f"{moves}-move GIF replay, 9x9, 720 px ({moves + 1} frames, median of {plan.gif_runs}):")
    for label, caption in (("without caption", False), ("with caption", True)):
        views = replay_views(game, caption=caption)
        data = render_gif(views)
        gif_ms = median_ms(partial(render_gif, views), runs=plan.gif_runs)
        print(f"  {label:<34} {gif_ms:6.0f} ms  {len(data) / 1000:6.0f} KB")
        problem = gif_problem(data, moves + 1, Layout.fit(9, caption=caption))
        problems.append(None if problem is None else f"GIF {label}: {problem}")
    views_ms = median_ms(lambda: replay_views(game), runs=plan.gif_runs)
    print(f"  (building the {moves + 1} views from the game: {views_ms:.0f} ms)")
    return [problem for problem in problems if problem is not None]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns the exit status (1 when an image came out wrong)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--smoke", action="store_true", help="a quick check that the benchmark works"
    )
    args = parser.parse_args(argv)
    problems = run(SMOKE if args.smoke else FULL)
    for problem in problems:
        print(f"BAD {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
