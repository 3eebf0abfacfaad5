"""Post-game analysis: how long a game takes at the default budget, and whether its verdicts agree
with how real games ended.

.venv/bin/python benchmarks/analysis.py            # a 60-move tablut game at the default budget
.venv/bin/python benchmarks/analysis.py --copenhagen 120   # a real Copenhagen game instead
.venv/bin/python benchmarks/analysis.py --copenhagen 120 --plies 120   # its first 60 moves
.venv/bin/python benchmarks/analysis.py --copenhagen 120 --plies 120 --depth 5   # at depth 5
.venv/bin/python benchmarks/analysis.py --no-python        # without the pure Python comparison
.venv/bin/python benchmarks/analysis.py --judge    # and the judge: real games and self-play
.venv/bin/python benchmarks/analysis.py --fit      # fit the score calibrations (other games)
.venv/bin/python benchmarks/analysis.py --smoke    # a quick check that it all works

**Timing.** Every position of a fixed 60-move (120-ply) tablut game of the ``medium`` level
against itself is evaluated at the default budget (:func:`bot.ai.analysis.default_depth`), in
this process, one after another as the bot's worker does, then reviewed as the bot reviews (the
searches again that pin a forced result or a collapse on a move included); the moments found are
printed, and how far the chances moved after the engine's own choices (the evaluation's noise,
which the blunder margin must clear). Times are processor time: the machine is shared. Target:
the review within 20 s with the fast core at its default depth (6 on 9x9 and 11x11), for a game
of 60 moves or fewer on any board (``--plies 120`` cuts a Copenhagen game so; ``--depth`` times
another depth). Then both builds side by side:
the pure Python at its own default depth (4 on 9x9), the fast core at that depth and at the
depth timed.

**The judge.** Positions are sampled from finished games (every 8th ply of real Copenhagen games
from ``tests/data/copenhagen-games.csv``; every 6th ply of tablut games between equal levels)
and evaluated at the default budget; a position the evaluation calls won for a side (a forced
result, or winning chances of 80% or more) should have been won by that side. ``--judge`` uses
the even-numbered Copenhagen games and even self-play seeds; ``--fit`` fits the calibration
(:data:`bot.ai.analysis.CALIBRATIONS`) on the odd ones, so the judge's figures are measured on
games the calibration never saw. ``--judge`` took about 12 minutes with the old compiled
search at the old depths (300 Copenhagen games, 120 self-play games; ``--games`` and
``--selfplay`` change them); ``--save`` writes the judged positions to a CSV that ``--load``
judges or fits again without searching. The benchmark exits with status 2 when something did
not work (an evaluation without a move, or no position judged), and 1 when the review missed
its target.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout, uninstalled
sys.path.insert(0, str(ROOT / "tests"))  # the Copenhagen records' reader lives with the tests

from copenhagen_records import load_games  # noqa: E402

from bot import native  # noqa: E402
from bot.ai import explain  # noqa: E402
from bot.ai.analysis import (  # noqa: E402
    BLUNDER_DROP,
    WON,
    Calibration,
    GameAnalysis,
    PositionEval,
    calibration_for,
    chance_for,
    deepen,
    default_depth,
    evaluate_position,
    review,
    win_chance,
)
from bot.ai.lab.arena import selfplay_game  # noqa: E402
from bot.ai.search import MATE_BOUND  # noqa: E402
from bot.engine import Game, Side, TaflError  # noqa: E402

GAME = (
    "b5-b4",
    "e3-i3",
    "e2-i2",
    "e4-e2",
    "b4-e4",
    "e2-e3",
    "i4-e4",
    "e3-b3",
    "d1-d3",
    "g5-g2",
    "i6-g6",
    "e7-h7",
    "d9-d7",
    "f5-f7",
    "f1-f2",
    "g2-g4",
    "a6-c6",
    "c5-c4",
    "e9-b9",
    "b3-b2",
    "i5-i3",
    "h7-h9",
    "i3-g3",
    "g4-i4",
    "f2-f5",
    "b2-f2",
    "b9-b2",
    "h9-h7",
    "a5-c5",
    "c4-c1",
    "h5-h4",
    "h7-h6",
    "g6-g8",
    "h6-h8",
    "g3-g2",
    "f2-f3",
    "f9-i9",
    "f3-e3",
    "i9-i8",
    "c1-c3",
    "a4-e4",
    "e3-f3",
    "g2-g6",
    "c3-e3",
    "h4-e4",
    "e3-e2",
    "b2-b4",
    "f3-e3",
    "b4-e4",
    "e3-h3",
    "e4-e3",
    "e5-e4",
    "c5-c4",
    "e4-g4",
    "e3-g3",
    "g4-h4",
    "f5-h5",
    "i4-i6",
    "i2-i4",
    "h4-f4",
    "g3-f3",
    "f4-g4",
    "e1-g1",
    "g4-e4",
    "f3-e3",
    "e4-f4",
    "e3-f3",
    "f4-e4",
    "f3-e3",
    "e4-g4",
    "e3-f3",
    "f7-g7",
    "f3-f4",
    "g4-g3",
    "f4-f3",
    "h3-h4",
    "i4-i3",
    "g3-g4",
    "c4-f4",
    "i6-h6",
    "f3-g3",
    "g4-g5",
    "i8-i5",
    "g5-e5",
    "g3-e3",
    "d5-d6",
    "c6-c5",
    "e5-d5",
    "e3-d3",
    "d5-f5",
    "g8-f8",
    "f5-e5",
    "i3-e3",
    "g7-i7",
    "f8-f5",
    "d6-b6",
    "f4-e4",
    "h4-g4",
    "g1-f1",
    "g4-g5",
    "f1-f5",
    "g5-g4",
    "d3-d5",
    "g4-g5",
    "e8-f8",
    "e6-d6",
    "d7-e7",
    "e5-f5",
    "e4-f4",
    "g5-h5",
    "e3-g3",
    "f5-g5",
    "f8-g8",
    "g5-e5",
    "g3-e3",
    "e5-f5",
    "e7-f7",
    "f5-g5",
    "f4-g4",
    "g5-e5",
)
"""The first 60 moves (120 plies) of a tablut game of the ``medium`` level against itself (two
random moves, then the level's search seeded with 73 plus the ply; the defenders escaped at ply
130): longer than most tablut games, so a review of a real game takes less."""
SMOKE_PLIES = 12
SMOKE_DEPTH = 2
JUDGE_GAMES = 300
COPENHAGEN_STEP = 8
SELFPLAY_GAMES = 120
SELFPLAY_STEP = 6
SELFPLAY_LEVELS = ("medium", "hard")
"""Self-play games pair each level with itself, so the result follows the position, not the
difference in strength."""


@dataclass(frozen=True)
class Sample:
    """One judged position: its score, and who won the game it comes from."""

    variant: str
    score: int
    attackers_won: bool


# ---------------------------------------------------------------------------------- timing


REVIEW_TARGET = 20.0
"""Seconds a review of :data:`GAME` may take with the fast core at its default depth."""


def time_game(
    moves: Sequence[str], depth: int | None, variant: str = "tablut", fast: bool | None = None
) -> tuple[GameAnalysis, list[float], float]:
    """Evaluate every position of a game and review it as the bot does (on the fast core or the
    pure Python, by default whichever is built): the positions, then the searches again that pin
    forced results and collapses on a move (:func:`~bot.ai.analysis.deepen`), then the moments.
    Returns the analysis, the processor time of each evaluation and the review's (the searches
    again included). Processor time, not the clock's: the machine that measures is shared, and
    a review in the bot runs on a worker of its own."""

    def evaluate(ply: int, at_depth: int | None, exclude: str | None = None) -> PositionEval:
        return evaluate_position(
            variant, None, None, moves[:ply], max_depth=at_depth, fast=fast, exclude=exclude
        )

    evals: list[PositionEval] = []
    times: list[float] = []
    for ply in range(len(moves) + 1):
        started = time.process_time()
        evals.append(evaluate(ply, depth))
        times.append(time.process_time() - started)
    started = time.process_time()
    searched = depth if depth is not None else default_depth(variant, fast)
    deeper = deepen(evals, searched, moves, Game(variant).turn, variant, evaluate)
    analysis = review(variant, None, None, moves, deeper)
    return analysis, times, time.process_time() - started


def copenhagen_game(min_plies: int) -> list[str]:
    """The moves of the first recorded Copenhagen game (in the file's order) that replays to
    its end and lasts at least ``min_plies``: a long real game for timing."""
    for recorded in load_games():
        moves = [move for move, _ in recorded.moves]
        if len(moves) < min_plies:
            continue
        game = Game("copenhagen")
        try:
            for text in moves:
                game.play(text)
        except TaflError:
            continue
        return moves
    raise SystemExit(f"no recorded Copenhagen game of {min_plies} plies replays")


def full_moves(analysis: GameAnalysis) -> int:
    """How many moves the game lasted, as its record numbers them (a move is both sides')."""
    return int(analysis.move_label(len(analysis.moves)).rstrip(".…")) if analysis.moves else 0


def report_game(
    analysis: GameAnalysis,
    times: list[float],
    review_time: float,
    depth: int,
    build: str,
    target: float | None = None,
) -> bool:
    """Print the timing, the accuracy, the moments and the evaluation's noise; returns whether
    the review met ``target`` seconds (when one is given)."""
    total = sum(times)
    met = target is None or total + review_time <= target
    judged = "" if target is None else (f" [target <= {target:g} s: {'ok' if met else 'MISSED'}]")
    print(
        f"{analysis.variant} game of {full_moves(analysis)} moves ({len(analysis.moves)} plies) "
        f"at depth {depth} ({build}): "
        f"{len(times)} positions in {total:.1f} s of processor time ({total / len(times):.2f} s "
        f"a position, slowest {max(times):.2f} s); review, searches again included, "
        f"{review_time:.2f} s{judged}"
    )
    print(
        f"accuracy: attackers {analysis.attackers_accuracy:.0f}%, "
        f"defenders {analysis.defenders_accuracy:.0f}%"
    )
    print(f"moments found: {len(analysis.moments)}")
    for moment in analysis.moments:
        flag = " [critical]" if moment.critical else ""
        print(
            f"  {analysis.move_label(moment.ply)} {moment.side.value} {moment.kind.value}: "
            f"{moment.move} (better {moment.better}, -{moment.loss:.0%}){flag}: "
            f"{explain.describe(moment.reason)}"
        )
    noise = _engine_noise(analysis)
    if noise:
        print(
            f"noise: after the engine's own choice ({len(noise)} moves) the mover's chances moved "
            f"by {statistics.mean(noise):.1%} on average, {max(noise):.1%} at most "
            f"(blunder margin {BLUNDER_DROP:.0%})"
        )
    return met


def compare_builds(
    moves: Sequence[str],
    variant: str,
    depths: tuple[int, int],
    fast_default: float | None,
    python: bool,
) -> None:
    """Print the game's review time on both builds side by side: at the pure Python's default
    depth on both, and at the depth timed above (``fast_default`` seconds)."""
    low, high = depths
    print(f"builds side by side (the same {len(moves)} plies):")
    fast_low = sum(time_game(moves, low, variant, fast=True)[1]) if fast_core_built() else None
    slow = sum(time_game(moves, low, variant, fast=False)[1]) if python else None
    parts = [f"python {slow:.1f} s" if slow is not None else "python not run (--no-python)"]
    parts.append(f"fast core {fast_low:.1f} s" if fast_low is not None else "fast core not built")
    if slow is not None and fast_low:
        parts.append(f"x{slow / fast_low:.0f}")
    print(f"  depth {low} (pure Python's default): " + ", ".join(parts))
    if fast_default is not None and high != low:
        print(f"  depth {high} (timed above): fast core {fast_default:.1f} s")


def fast_core_built() -> bool:
    """Whether the fast core's search is in use here."""
    return native.states()["search"] == "fast"


def _engine_noise(analysis: GameAnalysis) -> list[float]:
    """How much the mover's chances fell after each move that was the engine's own choice."""
    calibration = calibration_for(analysis.variant)
    drops = []
    for index, move in enumerate(analysis.moves):
        before, after = analysis.evals[index], analysis.evals[index + 1]
        if move == before.best_move and abs(after.score) < MATE_BOUND:
            side = analysis.mover(index + 1)
            drops.append(
                abs(chance_for(side, before, calibration) - chance_for(side, after, calibration))
            )
    return drops


# ---------------------------------------------------------------------------------- judge


def copenhagen_samples(
    parity: int, games: int, step: int, depth: int | None, seed: int = 5
) -> Iterator[Sample]:
    """Positions of real Copenhagen games won by one side, the lines of ``parity`` (0 even,
    1 odd), in a seeded order; every ``step``-th ply, up to the end or an illegal move."""
    finished = [g for g in load_games() if g.result in ("White", "Black") and g.index % 2 == parity]
    random.Random(seed).shuffle(finished)
    for recorded in finished[:games]:
        moves = [move for move, _ in recorded.moves]
        for ply in range(step, len(moves) + 1, step):
            try:
                game = Game("copenhagen")
                for text in moves[:ply]:
                    game.play(text)
            except TaflError:
                break  # a move the engine refuses: the rest of the record is not judged
            if game.is_over:
                break
            evaluation = evaluate_position("copenhagen", None, None, moves[:ply], max_depth=depth)
            yield Sample("copenhagen", evaluation.score, recorded.result == "Black")


def selfplay_samples(
    parity: int, games: int, step: int, depth: int | None, levels: Sequence[str] = SELFPLAY_LEVELS
) -> Iterator[Sample]:
    """Positions of tablut self-play games that one side won; seeds of ``parity``."""
    for number in range(games):
        seed = 2 * number + parity + 2
        level = levels[number % len(levels)]
        game = selfplay_game("tablut", level, seed)
        if game.outcome is None or game.outcome.winner is None:
            continue
        moves = [result.move.text(game.size) for result in game.history]
        for ply in range(step, len(moves), step):
            evaluation = evaluate_position("tablut", None, None, moves[:ply], max_depth=depth)
            yield Sample("tablut", evaluation.score, game.outcome.winner is Side.ATTACKERS)


def report_judge(name: str, samples: list[Sample], seconds: float) -> None:
    """Print how often a position called won was won by that side, for each side, beside how
    often the side that usually wins did win (what a judge that always named it would score)."""
    calibration = calibration_for(samples[0].variant) if samples else Calibration(0.0)
    attackers = sum(s.attackers_won for s in samples)
    usual = max(attackers, len(samples) - attackers)
    print(
        f"judge on {name}: {len(samples)} positions in {seconds:.0f} s; the attackers won "
        f"the games of {_share(attackers, len(samples))} (always naming the usual winner: "
        f"{_share(usual, len(samples))} right)"
    )
    forced = [s for s in samples if abs(s.score) > MATE_BOUND]
    forced_right = sum((s.score > 0) == s.attackers_won for s in forced)
    print(
        f"  forced results: {len(forced)}, won by that side: {forced_right} "
        f"({_share(forced_right, len(forced))})"
    )
    for threshold in (WON, 0.9):
        parts = []
        total = right = 0
        for side in (Side.ATTACKERS, Side.DEFENDERS):
            called = [s for s in samples if _chance(s, side, calibration) >= threshold]
            won = sum(s.attackers_won == (side is Side.ATTACKERS) for s in called)
            total += len(called)
            right += won
            parts.append(f"{side.value} {won}/{len(called)}")
        print(
            f"  called won (chances >= {threshold:.0%}): {total}, won by that side: {right} "
            f"({_share(right, total)}; {', '.join(parts)})"
        )
    edges = (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0001)
    cells = []
    for low, high in itertools.pairwise(edges):
        group = [s for s in samples if low <= win_chance(s.score, calibration) < high]
        if group:
            won_share = sum(s.attackers_won for s in group) / len(group)
            cells.append(f"{low:.0%}-{min(high, 1):.0%}: {won_share:.0%} of {len(group)}")
    print("  attackers' chances given -> games the attackers won: " + "; ".join(cells))


def _chance(sample: Sample, side: Side, calibration: Calibration) -> float:
    chance = win_chance(sample.score, calibration)
    return chance if side is Side.ATTACKERS else 1.0 - chance


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "n/a"


def fit(samples: list[Sample]) -> Calibration:
    """The calibration of greatest likelihood for these samples (a grid search; forced results
    are certain whatever the calibration, so they are left out)."""
    scored = [(s.score, s.attackers_won) for s in samples if abs(s.score) <= MATE_BOUND]
    best: tuple[float, Calibration] | None = None
    for centre in range(-500, 2001, 25):
        for step in range(4, 101):
            calibration = Calibration(step / 10_000, centre)
            likelihood = 0.0
            for score, won in scored:
                chance = min(max(win_chance(score, calibration), 1e-9), 1 - 1e-9)
                likelihood += math.log(chance if won else 1 - chance)
            if best is None or likelihood > best[0]:
                best = (likelihood, calibration)
    assert best is not None
    return best[1]


def _load(path: Path) -> dict[str, list[Sample]]:
    """Samples written by ``--save``, by variant."""
    found: dict[str, list[Sample]] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        variant, score, winner = line.split(",")
        found.setdefault(variant, []).append(Sample(variant, int(score), winner == "attackers"))
    return found


def collect(samples: Iterator[Sample]) -> tuple[list[Sample], float]:
    """Every sample, and the seconds they took."""
    started = time.perf_counter()
    found = list(samples)
    return found, time.perf_counter() - started


def judge(args: argparse.Namespace) -> list[str]:
    """Judge (or with ``--fit``, fit) on Copenhagen records and tablut self-play; returns the
    problems found. ``--games 0`` or ``--selfplay 0`` leaves a part out."""
    parity = 1 if args.fit else 0
    half = "odd" if args.fit else "even"
    if args.smoke:
        games, step, depth, selfplay = 2, 20, 1, 1
    else:
        games, step, depth, selfplay = args.games, COPENHAGEN_STEP, None, args.selfplay
    found: dict[str, list[Sample]] = {}
    if args.load is not None:
        for name, samples in _load(args.load).items():
            report_judge(f"{name}, positions from {args.load}", samples, 0.0)
            found[name] = samples
        games = selfplay = 0
    if games:
        shown = depth if depth is not None else default_depth("copenhagen")
        found["copenhagen"], seconds = collect(copenhagen_samples(parity, games, step, depth))
        report_judge(
            f"copenhagen, {games} real games ({half} lines of the records), every "
            f"{step}th ply at depth {shown}",
            found["copenhagen"],
            seconds,
        )
    if selfplay:
        levels = ("easy",) if args.smoke else SELFPLAY_LEVELS
        step = 10 if args.smoke else SELFPLAY_STEP
        shown = depth if depth is not None else default_depth("tablut")
        found["tablut"], seconds = collect(selfplay_samples(parity, selfplay, step, depth, levels))
        report_judge(
            f"tablut, {selfplay} self-play games ({'/'.join(levels)} against itself, "
            f"{half} seeds), every {step}th ply at depth {shown}",
            found["tablut"],
            seconds,
        )
    if args.save is not None:
        with args.save.open("w", encoding="utf-8") as out:
            out.write("variant,score,winner\n")
            for samples in found.values():
                for sample in samples:
                    winner = "attackers" if sample.attackers_won else "defenders"
                    out.write(f"{sample.variant},{sample.score},{winner}\n")
    if args.fit:
        for name, samples in found.items():
            best = fit(samples)
            print(
                f"fitted {name}: Calibration({best.slope}, {best.centre}) "
                f"(now {calibration_for(name)})"
            )
    return [f"no {name} position was judged" for name, samples in found.items() if not samples]


# ---------------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns the exit status."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--judge", action="store_true", help="also measure the verdicts on real and self-play games"
    )
    parser.add_argument(
        "--fit",
        action="store_true",
        help="fit the calibrations on the other half of the games instead",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=JUDGE_GAMES,
        help=f"Copenhagen games to judge (default {JUDGE_GAMES})",
    )
    parser.add_argument(
        "--selfplay",
        type=int,
        default=SELFPLAY_GAMES,
        help=f"tablut self-play games to judge (default {SELFPLAY_GAMES})",
    )
    parser.add_argument(
        "--save",
        type=Path,
        metavar="CSV",
        help="also write the judged positions (variant, score, winner) to CSV",
    )
    parser.add_argument(
        "--load",
        type=Path,
        metavar="CSV",
        help="judge (or fit) positions saved by --save instead of searching",
    )
    parser.add_argument(
        "--copenhagen",
        type=int,
        metavar="PLIES",
        help="time a real Copenhagen game of at least PLIES plies instead",
    )
    parser.add_argument(
        "--plies",
        type=int,
        metavar="N",
        help="time only the game's first N plies",
    )
    parser.add_argument(
        "--depth",
        type=int,
        metavar="D",
        help="time the fast core (or the pure Python, if that is what is built) at depth D "
        "instead of its default",
    )
    parser.add_argument(
        "--no-python",
        action="store_true",
        help="leave out the pure Python build's timing (minutes)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick check: a short game at depth 2, a few games judged",
    )
    args = parser.parse_args(argv)
    print(f"$ python benchmarks/analysis.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(f"engine and search: {native.describe()}")
    problems: list[str] = []
    met = True

    if not args.fit and args.load is None:
        variant = "tablut" if args.copenhagen is None else "copenhagen"
        moves: Sequence[str] = GAME if args.copenhagen is None else copenhagen_game(args.copenhagen)
        if args.smoke:
            moves = moves[:SMOKE_PLIES]
        if args.plies is not None:
            moves = moves[: args.plies]
        built = fast_core_built()
        depth = SMOKE_DEPTH if args.smoke else args.depth or default_depth(variant)
        analysis, times, review_time = time_game(moves, depth, variant)
        # The target is for a game of 60 moves or fewer, on either board.
        target = REVIEW_TARGET if built and not args.smoke and len(moves) <= len(GAME) else None
        met = report_game(
            analysis, times, review_time, depth, "fast core" if built else "pure Python", target
        )
        problems += [
            f"position {index} has no move"
            for index, e in enumerate(analysis.evals[:-1])
            if e.best_move is None
        ]
        depths = (
            (SMOKE_DEPTH - 1, SMOKE_DEPTH)
            if args.smoke
            else (default_depth(variant, fast=False), depth)
        )
        compare_builds(
            moves, variant, depths, sum(times) if built else None, python=not args.no_python
        )

    if args.judge or args.fit or args.smoke or args.load is not None:
        problems += judge(args)
    for text in problems:
        print(f"BAD {text}")
    if problems:
        return 2
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
