"""Matches between AI levels (or evaluation weights), with a confidence interval.

    python -m bot.ai.arena --variant tablut --a hard --b medium --games 20

Games come in pairs that share a short random opening with the sides swapped, so neither
player profits from the side it drew; a game longer than ``--max-plies`` is scored a draw.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass

from bot.engine.board import Board
from bot.engine.game import Game
from bot.engine.types import Side
from bot.engine.variants import get_variant

from .evaluation import WEIGHT_NAMES, Weights, weights_for
from .levels import LEVELS, Level, get_level
from .player import move_text, think


@dataclass(frozen=True)
class Player:
    """A level, optionally with other evaluation weights, at a time scale."""

    level: Level
    weights: Weights | None = None
    label: str = ""


@dataclass
class MatchScore:
    """Points of player A over a match."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's share of the points (0..1)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """A 95% confidence interval of :attr:`score` (normal approximation)."""
        n = self.games
        if not n:
            return 0.0, 1.0
        mean = self.score
        variance = (self.wins * (1 - mean) ** 2 + self.draws * (0.5 - mean) ** 2
                    + self.losses * mean**2) / n  # fmt: skip
        half = z * math.sqrt(variance / n) if n > 1 else 1.0
        return max(0.0, mean - half), min(1.0, mean + half)

    def summary(self) -> str:
        """``+W =D -L score 72.5% [58.1%, 86.9%] elo +168``."""
        low, high = self.interval()
        elo = _elo(self.score)
        return (
            f"+{self.wins} ={self.draws} -{self.losses}  score {self.score:.1%} "
            f"[95% CI {low:.1%}, {high:.1%}]  elo {elo}"
        )


def _elo(score: float) -> str:
    if score <= 0:
        return "-inf"
    if score >= 1:
        return "+inf"
    return f"{-400 * math.log10(1 / score - 1):+.0f}"


def play_game(
    variant: str,
    attackers: Player,
    defenders: Player,
    *,
    opening: list[str],
    seed: int,
    max_plies: int = 200,
) -> Side | None:
    """Play one game; returns the winning side (``None`` for a draw)."""
    game = Game(variant)
    hashes = [game.board.hash]
    for text in opening:
        game.play(text)
        hashes.append(game.board.hash)
    while not game.is_over and game.ply < max_plies:
        player = attackers if game.turn is Side.ATTACKERS else defenders
        board = Board(game.variant, list(game.board.cells), game.board.turn)
        result = think(
            board,
            player.level,
            seed=seed + game.ply,
            history=hashes[:-1],
            weights=player.weights,
        )
        assert result.move is not None
        game.play(move_text(result.move, game.size))
        hashes.append(game.board.hash)
    if game.outcome is None:
        return None
    return game.outcome.winner


def random_opening(variant: str, plies: int, rng: random.Random) -> list[str]:
    """``plies`` random legal moves from the start (a game not over after them)."""
    while True:
        game = Game(variant)
        moves = []
        for _ in range(plies):
            move = rng.choice(game.legal_moves())
            game.play(move)
            moves.append(move.text(game.size))
        if not game.is_over:
            return moves


def run_match(
    variant: str,
    a: Player,
    b: Player,
    games: int,
    *,
    seed: int = 1,
    opening_plies: int = 2,
    max_plies: int = 200,
    log: bool = True,
) -> MatchScore:
    """Play ``games`` games, A and B alternating sides; returns A's score."""
    rng = random.Random(seed)
    score = MatchScore()
    opening: list[str] = []
    for index in range(games):
        if index % 2 == 0:
            opening = random_opening(variant, opening_plies, rng)
        a_attacks = index % 2 == 0
        started = time.perf_counter()
        winner = play_game(
            variant,
            a if a_attacks else b,
            b if a_attacks else a,
            opening=opening,
            seed=seed * 1000 + index,
            max_plies=max_plies,
        )
        a_side = Side.ATTACKERS if a_attacks else Side.DEFENDERS
        if winner is None:
            score.draws += 1
            result = "draw"
        elif winner is a_side:
            score.wins += 1
            result = "A wins"
        else:
            score.losses += 1
            result = "B wins"
        if log:
            print(
                f"game {index + 1}: A={a.label} as {a_side.value}, opening "
                f"{' '.join(opening)}: {result} ({time.perf_counter() - started:.0f}s)  "
                f"running {score.summary()}",
                flush=True,
            )
    return score


def _weights(text: str | None, variant: str) -> Weights | None:
    if not text:
        return None
    changes: dict[str, int] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        if name not in WEIGHT_NAMES:
            raise SystemExit(f"unknown weight {name!r}: known {', '.join(WEIGHT_NAMES)}")
        changes[name] = int(value)
    return weights_for(get_variant(variant)).scaled(**changes)


def main(argv: list[str] | None = None) -> int:
    """Run a match from the command line and print the score."""
    parser = argparse.ArgumentParser(prog="python -m bot.ai.arena", description=__doc__)
    parser.add_argument("--variant", default="tablut")
    parser.add_argument("--a", choices=LEVELS, required=True, help="level of player A")
    parser.add_argument("--b", choices=LEVELS, required=True, help="level of player B")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time-scale", type=float, default=1.0,
                        help="multiply both levels' seconds per move")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--a-weights", help="evaluation weights of A, e.g. defender=200")
    parser.add_argument("--b-weights", help="evaluation weights of B")
    args = parser.parse_args(argv)
    level_a = get_level(args.a)
    level_b = get_level(args.b)
    scale = args.time_scale
    weights_a = _weights(args.a_weights, args.variant)
    weights_b = _weights(args.b_weights, args.variant)
    a = Player(level_a.with_time(level_a.time_limit * scale), weights_a, args.a)
    b = Player(level_b.with_time(level_b.time_limit * scale), weights_b, args.b)
    print(
        f"{args.variant}: A={args.a} ({a.level.time_limit:g}s) vs B={args.b} "
        f"({b.level.time_limit:g}s), {args.games} games",
        flush=True,
    )
    score = run_match(
        args.variant,
        a,
        b,
        args.games,
        seed=args.seed,
        opening_plies=args.opening_plies,
        max_plies=args.max_plies,
    )
    print(f"RESULT {args.variant} {args.a} vs {args.b}: {score.summary()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
