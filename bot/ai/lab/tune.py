"""Tune the evaluation weights by self-play (SPSA) or by games' results (Texel's method), and
check a result with a fixed-depth match.

Every game here is searched to a fixed depth (no clock), so the results do not depend on the
machine or its load, and games come in pairs that share a random opening with the sides
swapped, so neither weight set profits from the side it drew.

    # SPSA: each iteration plays one pair of games between theta+c*delta and theta-c*delta
    # (delta a random +-1 per weight) and moves theta towards the winner.
    python -m bot.ai.lab.tune spsa --variant brandubh --depth 2 --iterations 200

    # Check: tuned weights (the variant's current ones, or --a) against others (--b), N games.
    python -m bot.ai.lab.tune match --variant brandubh --depth 3 --games 40 --b king_moves=0

    # Texel's method (bot/ai/lab/texel.py): fit the weights to the results of the recorded
    # Copenhagen games (and/or --selfplay N games of --level), on the quiet leaves of a one-ply
    # search; odd games train, even ones are held out.
    python -m bot.ai.lab.tune texel --variant copenhagen

``spsa`` and ``texel`` start from the variant family's current weights (``weights_for``) unless
``--start`` changes some; ``spsa`` prints theta after every iteration, ``texel`` the error after
every pass; both print the final weights as Python to paste into ``evaluation.py`` and as
``k=v,...`` changes for ``match --a``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import asdict

from bot.engine.board import Board
from bot.engine.game import Game
from bot.engine.types import Side
from bot.engine.variants import get_variant

from ..evaluation import (
    CORNER_WEIGHTS,
    EDGE_WEIGHTS,
    TUNABLE,
    WEIGHT_NAMES,
    Weights,
    weights_for,
)
from ..player import move_text
from ..search import Searcher
from . import texel
from .arena import MatchScore, random_opening


def play_fixed_depth(
    variant: str,
    attackers: Weights,
    defenders: Weights,
    opening: list[str],
    depth: int,
    max_plies: int = 160,
) -> tuple[Side | None, int]:
    """One game with both sides searching ``depth`` plies: the winner (``None``: a draw), plies."""
    game = Game(variant)
    hashes = [game.board.hash]
    for text in opening:
        game.play(text)
        hashes.append(game.board.hash)
    searchers = {
        Side.ATTACKERS: Searcher(game.variant, attackers),
        Side.DEFENDERS: Searcher(game.variant, defenders),
    }
    while not game.is_over and game.ply < max_plies:
        board = Board(game.variant, list(game.board.cells), game.board.turn)
        result = searchers[game.turn].search(board, max_depth=depth, history=hashes[:-1])
        assert result.move is not None
        game.play(move_text(result.move, game.size))
        hashes.append(game.board.hash)
    if game.outcome is None:
        return None, game.ply
    return game.outcome.winner, game.ply


def play_pair(
    variant: str, a: Weights, b: Weights, opening: list[str], depth: int, max_plies: int
) -> tuple[float, MatchScore, int]:
    """Two games with sides swapped: A's points (0..2), the score record and a tie-break.

    The tie-break (-1, 0 or 1) says which side played the attackers better when both games
    went the same way: the defenders won both (the usual case at low depth in ``brandubh``)
    and A's attackers held out longer, or the attackers won both and A's won sooner.
    """
    record = MatchScore()
    lengths: dict[Side, tuple[Side | None, int]] = {}
    for a_side in (Side.ATTACKERS, Side.DEFENDERS):
        attackers, defenders = (a, b) if a_side is Side.ATTACKERS else (b, a)
        winner, plies = play_fixed_depth(variant, attackers, defenders, opening, depth, max_plies)
        lengths[a_side] = (winner, plies)
        points = 0.5 if winner is None else float(winner is a_side)
        record.add(points, a_side is Side.ATTACKERS)
    (a_winner, a_plies), (b_winner, b_plies) = lengths[Side.ATTACKERS], lengths[Side.DEFENDERS]
    tie_break = 0
    if a_winner is b_winner is Side.DEFENDERS:
        tie_break = (a_plies > b_plies) - (a_plies < b_plies)
    elif a_winner is b_winner is Side.ATTACKERS:
        tie_break = (a_plies < b_plies) - (a_plies > b_plies)
    return record.wins + 0.5 * record.draws, record, tie_break


def _parse(text: str | None, base: Weights) -> Weights:
    if not text:
        return base
    changes: dict[str, int] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        if name not in WEIGHT_NAMES or name == "king_closed":
            raise SystemExit(f"unknown weight {name!r}: known {', '.join(TUNABLE)}")
        changes[name] = int(value)
    return base.scaled(**changes)


def spsa(
    variant: str,
    start: Weights,
    *,
    iterations: int,
    depth: int,
    seed: int,
    opening_plies: int,
    max_plies: int,
    learning_rate: float,
    budget: float | None,
) -> Weights:
    """Simultaneous-perturbation stochastic approximation on the :data:`TUNABLE` weights."""
    rng = random.Random(seed)
    values = asdict(start)
    theta = {name: float(values[name]) for name in TUNABLE if name != "attacker"}
    # Perturbation size per weight: a fifth of its value, at least 6.
    steps = {name: max(6.0, abs(value) * 0.2) for name, value in theta.items()}
    started = time.perf_counter()
    total = MatchScore()
    for k in range(1, iterations + 1):
        delta = {name: rng.choice((-1, 1)) for name in theta}
        plus = {n: round(theta[n] + steps[n] * delta[n]) for n in theta}
        minus = {n: round(theta[n] - steps[n] * delta[n]) for n in theta}
        opening = random_opening(variant, opening_plies, rng)
        points, record, tie_break = play_pair(
            variant, start.scaled(**plus), start.scaled(**minus), opening, depth, max_plies
        )
        total.wins += record.wins
        total.draws += record.draws
        total.losses += record.losses
        # -1..1 from theta+'s side; a split or a draw pair leaves the tie-break to decide.
        result = points - 1.0 if points != 1.0 else 0.5 * tie_break
        rate = learning_rate / (1 + k / 50) ** 0.602
        for name in theta:
            theta[name] += rate * steps[name] * result * delta[name]
            if name not in ("guard_adjacent",):
                theta[name] = max(0.0, theta[name])
        elapsed = time.perf_counter() - started
        shown = ", ".join(f"{n}={round(v)}" for n, v in theta.items())
        print(f"iter {k} result {result:+.1f} ({elapsed:.0f}s): {shown}", flush=True)
        if budget is not None and elapsed > budget:
            print(f"time budget reached after {k} iterations", flush=True)
            break
    print(f"theta+ vs theta- record over all iterations: {total.summary()}", flush=True)
    return start.scaled(**{n: round(v) for n, v in theta.items()})


def match(
    variant: str,
    a: Weights,
    b: Weights,
    *,
    games: int,
    depth: int,
    seed: int,
    opening_plies: int,
    max_plies: int,
) -> MatchScore:
    """``games`` fixed-depth games (in pairs) of A against B; A's score."""
    rng = random.Random(seed)
    score = MatchScore()
    breaks = 0
    for index in range(0, games, 2):
        opening = random_opening(variant, opening_plies, rng)
        _, record, tie_break = play_pair(variant, a, b, opening, depth, max_plies)
        breaks += tie_break
        score.wins += record.wins
        score.draws += record.draws
        score.losses += record.losses
        print(
            f"pair {index // 2 + 1} {' '.join(opening)}: {score.summary()}  tie-breaks {breaks:+d}",
            flush=True,
        )
    return score


def run_texel(args: argparse.Namespace, start: Weights) -> int:
    """``texel``: collect the quiet leaves, fit, print the figures and the weights."""
    variant = get_variant(args.variant)
    started = time.perf_counter()
    games = texel.positions_of(
        args.variant,
        records=not args.no_records,
        selfplay=args.selfplay,
        level=args.level,
        seed=args.seed,
        skip=args.skip,
        every=args.every,
        max_plies=args.max_plies,
    )
    samples = texel.collect(games, variant, start, log=True)
    print(f"collected in {time.perf_counter() - started:.0f}s", flush=True)
    fixed = [name for name in args.fixed.split(",") if name]
    unknown = [name for name in fixed if name not in TUNABLE]
    if unknown:
        raise SystemExit(f"unknown weight {unknown[0]!r}: known {', '.join(TUNABLE)}")
    tuned, figures = texel.texel(samples, start, fixed=fixed, log=True)
    if figures["k"] <= texel.K_RANGE[0] * 1.01 or figures["k"] >= texel.K_RANGE[1] * 0.99:
        print(
            f"WARNING: K {figures['k']:.3g} is at the edge of its range: the evaluation does "
            "not predict these results, so the weights below mean nothing",
            flush=True,
        )
    print(
        f"K {figures['k']:.6g}; {figures['train']:.0f} training leaves (odd games), "
        f"{figures['held']:.0f} held out (even games)\n"
        f"training MSE {figures['train_before']:.6f} -> {figures['train_after']:.6f}\n"
        f"held-out MSE {figures['held_before']:.6f} -> {figures['held_after']:.6f}",
        flush=True,
    )
    print(texel.as_python("TUNED", tuned), flush=True)
    print(f"as --a: {changes(start, tuned)}", flush=True)
    return 0


def changes(start: Weights, tuned: Weights) -> str:
    """The tuned weights that differ from ``start``, as ``k=v,...`` for ``--a``/``--b``."""
    before, after = asdict(start), asdict(tuned)
    return ",".join(f"{n}={after[n]}" for n in TUNABLE if after[n] != before[n])


def main(argv: list[str] | None = None) -> int:
    """Command line: ``spsa`` or ``match``."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.ai.lab.tune",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("mode", choices=("spsa", "match", "texel"))
    parser.add_argument("--variant", default="brandubh")
    parser.add_argument("--depth", type=int, default=2, help="plies every move searches")
    parser.add_argument("--iterations", type=int, default=200, help="SPSA iterations")
    parser.add_argument("--budget", type=float, help="stop SPSA after this many seconds")
    parser.add_argument("--learning-rate", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=40, help="match games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument(
        "--base",
        choices=("current", "corner", "edge"),
        default="current",
        help="the weights --start, --a and --b change: the variant's current ones, or a "
        "family's (CORNER_WEIGHTS, EDGE_WEIGHTS)",
    )
    parser.add_argument("--start", help="start: changes to the --base weights, k=v,...")
    parser.add_argument("--a", help="match: weights of A as changes, k=v,...")
    parser.add_argument("--selfplay", type=int, default=0, help="texel: self-play games to add")
    parser.add_argument("--level", default="hard", help="texel: the self-play games' level")
    parser.add_argument(
        "--no-records", action="store_true", help="texel: leave out the recorded games"
    )
    parser.add_argument("--skip", type=int, default=4, help="texel: opening plies left out")
    parser.add_argument("--every", type=int, default=1, help="texel: sample every N-th ply")
    parser.add_argument(
        "--fixed",
        default=",".join(texel.FIXED),
        help="texel: weights the fit leaves as they are, comma-separated",
    )
    parser.add_argument("--b", help="match: weights of B as changes, k=v,...")
    args = parser.parse_args(argv)
    base = weights_for(get_variant(args.variant))
    if args.base != "current":
        base = CORNER_WEIGHTS if args.base == "corner" else EDGE_WEIGHTS
    if args.mode == "texel":
        return run_texel(args, _parse(args.start, base))
    if args.mode == "spsa":
        tuned = spsa(
            args.variant,
            _parse(args.start, base),
            iterations=args.iterations,
            depth=args.depth,
            seed=args.seed,
            opening_plies=args.opening_plies,
            max_plies=args.max_plies,
            learning_rate=args.learning_rate,
            budget=args.budget,
        )
        print(f"TUNED {tuned!r}", flush=True)
        return 0
    score = match(
        args.variant,
        _parse(args.a, base),
        _parse(args.b, base),
        games=args.games,
        depth=args.depth,
        seed=args.seed,
        opening_plies=args.opening_plies,
        max_plies=args.max_plies,
    )
    print(f"RESULT {args.variant} depth {args.depth}: A {score.summary()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
