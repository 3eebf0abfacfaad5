"""Matches between AI levels (or evaluation weights), with a confidence interval.

    python -m bot.ai.lab.arena --variant tablut --a hard --b medium --games 20

Games come in pairs that share a short random opening with the sides swapped, so neither
player profits from the side it drew; a game longer than ``--max-plies`` is scored a draw.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from bot.engine.board import Board
from bot.engine.game import Game
from bot.engine.types import Side
from bot.engine.variants import get_variant

from ..evaluation import WEIGHT_NAMES, Weights, weights_for
from ..levels import LEVELS, Level, get_level
from ..player import move_text, think


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
    by_side: dict[bool, list[float]] = field(default_factory=lambda: {True: [], False: []})
    """A's points per game, keyed by whether A had the attackers (filled by :meth:`add`)."""
    void: int = 0
    """Games left unscored (an engine match's games void every time they were played)."""

    def add(self, points: float, a_attacked: bool) -> None:
        """Count one game: ``points`` is 1, 0.5 or 0 for A."""
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1
        self.by_side[a_attacked].append(points)

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
        text = (
            f"+{self.wins} ={self.draws} -{self.losses}  score {self.score:.1%} "
            f"[95% CI {low:.1%}, {high:.1%}]  elo {elo}"
        )
        sides = []
        for attacked, name in ((True, "attacking"), (False, "defending")):
            points = self.by_side[attacked]
            if points:
                sides.append(f"{name} {sum(points) / len(points):.0%} of {len(points)}")
        if sides:
            text = f"{text}  (A {', '.join(sides)})"
        return f"{text}  {self.void} unscored (void)" if self.void else text


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


def selfplay_game(
    variant: str, level: str, seed: int, max_plies: int = 160, *, ply_seed: int | None = None
) -> Game:
    """A game of ``level`` against itself after four random moves, reproducible by ``seed``;
    each move's search is seeded by ``ply_seed`` (by default ``seed * 1000``) plus the ply."""
    base = seed * 1000 if ply_seed is None else ply_seed
    rng = random.Random(seed)
    game = Game(variant)
    for _ in range(4):
        game.play(rng.choice(game.legal_moves()))
    hashes = [game.board.hash]
    while not game.is_over and game.ply < max_plies:
        board = Board(game.variant, list(game.board.cells), game.board.turn)
        result = think(board, level, seed=base + game.ply, history=hashes[:-1], fresh=True)
        assert result.move is not None
        game.play(move_text(result.move, game.size))
        hashes.append(game.board.hash)
    return game


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


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: who attacks, from which opening, with which seed."""

    index: int
    variant: str
    attackers: Player
    defenders: Player
    a_attacks: bool
    opening: tuple[str, ...]
    seed: int
    max_plies: int


def _play_spec(spec: GameSpec) -> tuple[GameSpec, Side | None, float]:
    started = time.perf_counter()
    winner = play_game(
        spec.variant,
        spec.attackers,
        spec.defenders,
        opening=list(spec.opening),
        seed=spec.seed,
        max_plies=spec.max_plies,
    )
    return spec, winner, time.perf_counter() - started


def run_match(
    variant: str,
    a: Player,
    b: Player,
    games: int,
    *,
    seed: int = 1,
    opening_plies: int = 2,
    max_plies: int = 200,
    jobs: int = 1,
    log: bool = True,
) -> MatchScore:
    """Play ``games`` games, A and B alternating sides; returns A's score.

    With ``jobs`` above 1 the games run in that many processes at once. Each game gets its
    seed from its number, so the results do not depend on ``jobs``; timed levels do, if the
    processes compete for cores (use no more jobs than idle cores).
    """
    rng = random.Random(seed)
    specs = []
    opening: list[str] = []
    for index in range(games):
        if index % 2 == 0:  # each pair shares an opening; A attacks in the first game
            opening = random_opening(variant, opening_plies, rng)
        a_attacks = index % 2 == 0
        attackers, defenders = (a, b) if a_attacks else (b, a)
        specs.append(
            GameSpec(
                index,
                variant,
                attackers,
                defenders,
                a_attacks,
                tuple(opening),
                seed * 1000 + index,
                max_plies,
            )
        )
    score = MatchScore()
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_spec, spec) for spec in specs]
            for future in as_completed(futures):
                _record(score, *future.result(), a.label, log)
    else:
        for spec in specs:
            _record(score, *_play_spec(spec), a.label, log)
    return score


def _record(
    score: MatchScore, spec: GameSpec, winner: Side | None, seconds: float, label: str, log: bool
) -> None:
    a_side = Side.ATTACKERS if spec.a_attacks else Side.DEFENDERS
    if winner is None:
        result = "draw"
        points = 0.5
    elif winner is a_side:
        result = "A wins"
        points = 1.0
    else:
        result = "B wins"
        points = 0.0
    score.add(points, spec.a_attacks)
    if log:
        print(
            f"game {spec.index + 1}: A={label} as {a_side.value}, opening "
            f"{' '.join(spec.opening)}: {result} ({seconds:.0f}s)  running {score.summary()}",
            flush=True,
        )


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
    parser = argparse.ArgumentParser(prog="python -m bot.ai.lab.arena", description=__doc__)
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
    parser.add_argument("--jobs", type=int, default=1,
                        help="games at once, one process each (at most idle cores)")  # fmt: skip
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
        jobs=args.jobs,
    )
    print(f"RESULT {args.variant} {args.a} vs {args.b}: {score.summary()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
