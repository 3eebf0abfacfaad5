"""AI speed: nodes per second and depth reached in a fixed time on fixed positions.

.venv/bin/python benchmarks/ai.py [--time 2.0]
.venv/bin/python benchmarks/ai.py --depth 4   # time and nodes to reach a fixed depth instead
"""

from __future__ import annotations

import argparse

from bot.ai import Searcher
from bot.engine import Board, Game

POSITIONS: tuple[tuple[str, list[str]], ...] = (
    ("tablut", []),
    ("tablut", ["e2-c2", "c5-c3", "a4-b4", "e3-h3"]),
    ("tablut-corner", []),
    ("brandubh", []),
    ("brandubh", ["d2-c2", "e4-e2", "d6-e6", "c4-c5"]),
    ("fidchell", []),
)


def main() -> None:
    """Search every position for the same time and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--time", type=float, default=2.0, help="seconds per position")
    parser.add_argument("--depth", type=int, help="search every position to this depth instead")
    args = parser.parse_args()
    total_nodes = 0
    total_time = 0.0
    print(f"{'variant':<15}{'ply':>4}{'depth':>6}{'nodes':>10}{'seconds':>9}{'nodes/s':>10}")
    for variant, moves in POSITIONS:
        game = Game(variant)
        for text in moves:
            game.play(text)
        board = Board(game.variant, list(game.board.cells), game.board.turn)
        if args.depth:
            result = Searcher(game.variant).search(board, max_depth=args.depth)
        else:
            result = Searcher(game.variant).search(board, time_limit=args.time)
        rate = result.nodes / max(result.elapsed, 1e-9)
        total_nodes += result.nodes
        total_time += result.elapsed
        print(
            f"{variant:<15}{len(moves):>4}{result.depth:>6}{result.nodes:>10}"
            f"{result.elapsed:>9.2f}{rate:>10,.0f}"
        )
    rate = total_nodes / total_time
    print(f"overall {rate:,.0f} nodes/s, {total_nodes} nodes in {total_time:.2f} s")


if __name__ == "__main__":
    main()
