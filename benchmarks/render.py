"""Board image speed and size: `.venv/bin/python benchmarks/render.py`.

Prints, for a 9x9 board about 720 px wide, the median time to render and PNG-encode one
position and its size, then the time and size of a 60-move GIF replay. Targets on the
development machine: a board in 5 ms and 40 KB or less, the GIF in 400 ms and 1 MB or less.
Positions come from seeded random games, so every run measures the same images.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bot.engine import Game
from bot.render import (
    BoardView,
    board_view_from_game,
    render_gif,
    render_png,
    replay_views,
)


def random_game(plies: int, seed: int) -> Game:
    """A tablut game of exactly `plies` random legal moves (trying seeds until one lasts)."""
    while True:
        rng = random.Random(seed)
        game = Game("tablut")
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


def board_figures(label: str, view: BoardView, theme: str = "classic") -> None:
    """Print render+encode time and PNG size for one view."""
    start = time.perf_counter()
    data = render_png(view, theme=theme)
    cold = (time.perf_counter() - start) * 1000
    warm = median_ms(lambda: render_png(view, theme=theme), runs=200)
    print(f"  {label:<34} {warm:6.2f} ms  {len(data) / 1000:6.1f} KB   (first call {cold:.0f} ms)")


def main() -> None:
    """Run the benchmark and print the figures."""
    middle = random_game(24, seed=1)
    print("9x9 board, 720 px, render + PNG encode (median of 200):")
    board_figures("start position", board_view_from_game(Game("tablut")))
    board_figures("mid-game with last move", board_view_from_game(middle))
    board_figures("mid-game with caption", board_view_from_game(
        middle, caption=True, attackers="Ragnar Lodbrok", defenders="Carl Linnaeus"))
    board_figures("mid-game, contrast theme", board_view_from_game(middle), theme="contrast")

    game = random_game(60, seed=1)
    print("60-move GIF replay, 9x9, 720 px (61 frames, median of 5):")
    for label, caption in (("without caption", False), ("with caption", True)):
        views = replay_views(game, caption=caption)
        data = render_gif(views)
        gif_ms = median_ms(partial(render_gif, views), runs=5)
        print(f"  {label:<34} {gif_ms:6.0f} ms  {len(data) / 1000:6.0f} KB")
    views_ms = median_ms(lambda: replay_views(game), runs=5)
    print(f"  (building the 61 views from the game: {views_ms:.0f} ms)")


if __name__ == "__main__":
    main()
