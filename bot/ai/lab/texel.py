"""Texel's method: fit the evaluation's weights to the results of games.

Each sampled position of a finished game is first made quiet by the project's own search: a
one-ply search (the fast core where it is built, with the weights under test) plays the best move
and reads its reply's forcing lines (the quiescence); the position at the end of the principal
variation is kept only where its static evaluation is the search's score, so no escape threat,
capture or block in flight remains to be settled. The fit then minimises the mean squared error
between each game's result (1 the defenders won, 0 the attackers, 0.5 a draw) and
``sigmoid(K * evaluation)`` over those fixed leaves, by a local search over the integer weights of
:data:`~bot.ai.evaluation.TUNABLE` (``attacker`` stays 100, the unit): ``K`` is fitted first, on
the starting weights, and then held.

The evaluation is linear in those weights (its offset, the start position's value, is too), so
each leaf's value is ``base + sum(weight * feature)``: :class:`Features` reads the features
off the evaluator itself, one evaluation with each weight at 1 and the others at 0, so they stay
exact whatever the evaluation becomes (``tests/test_ai_texel.py`` checks the sum against
:meth:`~bot.ai.evaluation.Evaluator.evaluate`). A step of the local search then changes one
weight and recomputes only the positions whose feature for it is not zero.

Games are split by their line (or seed) number: the fit sees the odd ones, the even ones are held
out, and the error on them is reported before and after.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bot.engine.board import DEFENDERS, Board
from bot.engine.errors import TaflError
from bot.engine.game import Game
from bot.engine.types import Side
from bot.engine.variants import Variant

from ..evaluation import TUNABLE, Evaluator, Weights
from ..search import MATE_BOUND, Searcher
from .arena import selfplay_game

FIXED = ("attacker",)
"""Weights the fit leaves alone: ``attacker`` is the scale's unit."""

K_RANGE = (1e-5, 1e-1)
"""Where :func:`fit_k` looks for the scale ``K`` (a fit at an edge found no relation)."""

RECORDS = Path(__file__).resolve().parents[3] / "tests" / "copenhagen_records.py"
"""The reader of the recorded Copenhagen games (it lives with the tests that replay them)."""


@dataclass(frozen=True)
class GamePositions:
    """A finished game's positions to sample: its number, result and the boards with history."""

    number: int
    """The record's line (or the self-play seed): odd numbers train, even ones are held out."""
    result: float
    """1 the defenders won, 0 the attackers won, 0.5 a draw."""
    positions: list[tuple[Board, list[int]]]
    """Each sampled position with the hashes of the game's positions before it."""


@dataclass(frozen=True)
class Sample:
    """A quiet leaf: its features, the evaluation's constant part, and the game's result."""

    features: tuple[int, ...]
    base: int
    result: float
    number: int


def _boards(
    variant: str, moves: Sequence[str], skip: int, every: int
) -> list[tuple[Board, list[int]]]:
    """Positions after ``skip`` plies, every ``every``-th, up to a move the rules refuse or the
    end of the game (a position already won is not an evaluation's business)."""
    game = Game(variant)
    hashes = [game.board.hash]
    found = []
    for ply, text in enumerate(moves, 1):
        try:
            game.play(text)
        except TaflError:
            break
        if game.is_over:
            break
        if ply >= skip and (ply - skip) % every == 0:
            found.append((Board(game.variant, list(game.board.cells), game.board.turn), hashes[:]))
        hashes.append(game.board.hash)
    return found


def copenhagen_games(skip: int, every: int, path: Path = RECORDS) -> Iterator[GamePositions]:
    """The recorded Copenhagen games with a result (draws count 0.5; unfinished ones are left
    out), read by ``tests/copenhagen_records.py``."""
    sys.path.insert(0, str(path.parent))
    try:
        records = importlib.import_module(path.stem)
    finally:
        sys.path.remove(str(path.parent))
    results = {"White": 1.0, "Black": 0.0, "Draw": 0.5}
    for recorded in records.load_games():
        if recorded.result not in results:
            continue
        moves = [move for move, _ in recorded.moves]
        yield GamePositions(
            recorded.index, results[recorded.result], _boards("copenhagen", moves, skip, every)
        )


def selfplay_games(
    variant: str, games: int, level: str, seed: int, skip: int, every: int, max_plies: int
) -> Iterator[GamePositions]:
    """``games`` games of ``level`` against itself after four random moves (seeded by ``seed``
    and the game's number, 1 to ``games``, which the split by number alternates); a game still
    going at ``max_plies`` counts as a draw."""
    for number in range(1, games + 1):
        game_seed = seed * 100_000 + number
        game = selfplay_game(variant, level, game_seed, max_plies, ply_seed=game_seed)
        winner = game.outcome.winner if game.outcome is not None else None
        result = 0.5 if winner is None else float(winner is Side.DEFENDERS)
        moves = [entry.move.text(game.size) for entry in game.history]
        yield GamePositions(number, result, _boards(variant, moves, skip, every))


def quiet_leaf(searcher: Searcher, board: Board, history: list[int]) -> Board | None:
    """The end of a one-ply search's principal variation when its static evaluation is the
    search's score (nothing left in flight), else ``None``."""
    found = searcher.search(board, max_depth=1, history=history)
    if found.move is None or abs(found.score) > MATE_BOUND:
        return None
    leaf = Board(board.variant, list(board.cells), board.turn)
    for move in found.pv or [found.move]:
        if leaf.make(move):
            return None
    value = searcher.evaluator.evaluate(leaf)
    if leaf.turn != board.turn:
        value = -value
    return leaf if value == found.score else None


class Features:
    """Each tunable weight's feature of a position, read off :class:`Evaluator` itself."""

    def __init__(self, variant: Variant, start: Weights) -> None:
        zero = start.scaled(**{name: 0 for name in TUNABLE})
        self.base = Evaluator(variant, zero)
        """The evaluation's part no tunable weight touches (king_closed, tempo)."""
        self.units = [Evaluator(variant, zero.scaled(**{name: 1})) for name in TUNABLE]

    def vector(self, board: Board) -> tuple[int, tuple[int, ...]]:
        """``(base, features)`` from the defenders' side: the evaluation with weights ``w``
        is ``base + sum(w[i] * features[i])`` (for the side to move, negated for the
        attackers)."""
        sign = 1 if board.turn == DEFENDERS else -1
        base = sign * self.base.evaluate(board)
        return base, tuple(sign * unit.evaluate(board) - base for unit in self.units)


def value(sample: Sample, weights: Sequence[int]) -> int:
    """The sample's evaluation (defenders' side) with weights in :data:`TUNABLE` order."""
    return sample.base + sum(w * f for w, f in zip(weights, sample.features, strict=True))


def sigmoid(x: float) -> float:
    """The logistic function, safe for any ``x``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def mse(samples: Sequence[Sample], weights: Sequence[int], k: float) -> float:
    """Mean squared error between results and ``sigmoid(k * evaluation)``."""
    if not samples:
        return 0.0
    total = 0.0
    for sample in samples:
        total += (sample.result - sigmoid(k * value(sample, weights))) ** 2
    return total / len(samples)


def fit_k(samples: Sequence[Sample], weights: Sequence[int]) -> float:
    """The scale ``K`` of least error for these weights (a golden-section search over
    log10 K within :data:`K_RANGE`)."""
    values = [(s.result, value(s, weights)) for s in samples]

    def error(log_k: float) -> float:
        k = 10**log_k
        return sum((r - sigmoid(k * v)) ** 2 for r, v in values) / max(1, len(values))

    low, high = math.log10(K_RANGE[0]), math.log10(K_RANGE[1])
    ratio = (math.sqrt(5) - 1) / 2
    a = high - ratio * (high - low)
    b = low + ratio * (high - low)
    fa, fb = error(a), error(b)
    for _ in range(60):
        if fa <= fb:
            high, b, fb = b, a, fa
            a = high - ratio * (high - low)
            fa = error(a)
        else:
            low, a, fa = a, b, fb
            b = low + ratio * (high - low)
            fb = error(b)
    return float(10 ** ((low + high) / 2))


def local_search(
    samples: Sequence[Sample],
    start: Sequence[int],
    k: float,
    *,
    steps: Iterable[int] = (16, 8, 4, 2, 1),
    fixed: Iterable[str] = FIXED,
    passes: int = 50,
    log: bool = False,
) -> list[int]:
    """Texel's local search: for each step size, try each free weight up and down by the step
    and keep a change that lowers the error, pass after pass until a pass changes nothing."""
    weights = list(start)
    frozen = {TUNABLE.index(name) for name in fixed}
    values = [value(s, weights) for s in samples]
    errors = [(s.result - sigmoid(k * v)) ** 2 for s, v in zip(samples, values, strict=True)]
    touching = [
        [(j, s.features[i]) for j, s in enumerate(samples) if s.features[i]]
        for i in range(len(TUNABLE))
    ]
    count = max(1, len(samples))
    for step in steps:
        for number in range(passes):
            improved = False
            for i in range(len(TUNABLE)):
                if i in frozen or not touching[i]:
                    continue
                for delta in (step, -step):
                    change = 0.0
                    new = []
                    for j, f in touching[i]:
                        e = (samples[j].result - sigmoid(k * (values[j] + delta * f))) ** 2
                        change += e - errors[j]
                        new.append(e)
                    if change < -1e-12:
                        weights[i] += delta
                        for (j, f), e in zip(touching[i], new, strict=True):
                            values[j] += delta * f
                            errors[j] = e
                        improved = True
                        break
            if log:
                shown = ", ".join(f"{n}={w}" for n, w in zip(TUNABLE, weights, strict=True))
                print(
                    f"step {step} pass {number + 1}: {sum(errors) / count:.6f}  {shown}", flush=True
                )
            if not improved:
                break
    return weights


def collect(
    games: Iterable[GamePositions], variant: Variant, start: Weights, *, log: bool = False
) -> list[Sample]:
    """The quiet leaves of every game's positions, searched with ``start``."""
    features = Features(variant, start)
    samples = []
    seen = kept = 0
    for number, game in enumerate(games, 1):
        searcher = Searcher(variant, start)
        for board, history in game.positions:
            seen += 1
            leaf = quiet_leaf(searcher, board, history)
            if leaf is None:
                continue
            kept += 1
            base, vector = features.vector(leaf)
            samples.append(Sample(vector, base, game.result, game.number))
        if log and number % 100 == 0:
            print(f"{number} games: {kept} quiet leaves of {seen} positions", flush=True)
    if log:
        print(f"{kept} quiet leaves of {seen} positions", flush=True)
    return samples


def as_python(name: str, weights: Weights) -> str:
    """The weights as Python to paste into ``evaluation.py``."""
    values = asdict(weights)
    lines = [f"{name} = Weights("]
    lines += [f"    {key}={values[key]!r}," for key in TUNABLE]
    lines.append(")")
    return "\n".join(lines)


def texel(
    samples: Sequence[Sample], start: Weights, *, fixed: Iterable[str] = FIXED, log: bool = False
) -> tuple[Weights, dict[str, float]]:
    """Fit on the odd-numbered games' samples, report on the even ones: the tuned weights and
    the figures (``k``, training and held-out error before and after, sample counts)."""
    train = [s for s in samples if s.number % 2]
    held = [s for s in samples if not s.number % 2]
    initial = [getattr(start, name) for name in TUNABLE]
    k = fit_k(train, initial)
    tuned = local_search(train, initial, k, fixed=fixed, log=log)
    figures = {
        "k": k,
        "train": float(len(train)),
        "held": float(len(held)),
        "train_before": mse(train, initial, k),
        "train_after": mse(train, tuned, k),
        "held_before": mse(held, initial, k),
        "held_after": mse(held, tuned, k),
    }
    return start.scaled(**dict(zip(TUNABLE, tuned, strict=True))), figures


def positions_of(
    variant_name: str,
    *,
    records: bool,
    selfplay: int,
    level: str,
    seed: int,
    skip: int,
    every: int,
    max_plies: int,
) -> Iterator[GamePositions]:
    """The recorded games where the variant has them (Copenhagen) unless ``records`` is false,
    then ``selfplay`` games."""
    if records and variant_name == "copenhagen":
        yield from copenhagen_games(skip, every)
    if selfplay:
        yield from selfplay_games(variant_name, selfplay, level, seed, skip, every, max_plies)
