"""The fast core against the Python reference: 100,000 positions and fixed-depth searches.

.venv/bin/python benchmarks/agreement.py                   # 100,000 positions, 49 searches
.venv/bin/python benchmarks/agreement.py --positions 20000 # fewer
.venv/bin/python benchmarks/agreement.py --smoke           # a quick check that it works

The rules engine's C board (``bot.engine._core``) and the Python board play the same games side
by side (``bot.engine.agreement``): random games of every variant, their share of the
positions each (Copenhagen's half from the start and half from positions of the recorded
games), then every position of the 1,752 recorded Copenhagen games. In every position they must
agree on the legal moves in order, the king's routes and capturing moves, exit forts, and after
every move on its captures and its ending. Then the search (``bot.ai.agreement``): seven
positions of random games per variant searched to a fixed depth on both builds must give the
same moves, scores, node counts, principal variations and root scores. It prints what was
covered (captures, shieldwalls, each ending) and every difference, and exits with status 1
when there is one (2 when the fast core is not in use; the smoke run then compares nothing).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout, uninstalled
sys.path.insert(0, str(ROOT / "tests"))  # the Copenhagen records' reader lives with the tests

from copenhagen_records import load_games  # noqa: E402

from bot import native  # noqa: E402
from bot.ai.agreement import SearchCase, differences, random_position, run  # noqa: E402
from bot.engine import VARIANTS, Game, TaflError, get_variant  # noqa: E402
from bot.engine.agreement import Agreement, random_games, replayed_games  # noqa: E402
from bot.engine.tables import MOVE_SHIFT  # noqa: E402

POSITIONS = 100_000
SEARCHES_PER_VARIANT = 7
SMOKE_POSITIONS = 1_400
SMOKE_RECORDS = 20
SMOKE_SEARCHES = 1


def recorded_games(limit: int | None) -> tuple[list[list[int]], list[tuple[list[int], int]]]:
    """The recorded Copenhagen games as engine moves (up to a move the engine refuses), and
    every position they reach (cells and side to move), as starts for random games."""
    games: list[list[int]] = []
    starts: list[tuple[list[int], int]] = []
    for recorded in load_games()[:limit]:
        game = Game("copenhagen")
        moves = []
        try:
            for text, _ in recorded.moves:
                move = game.parse_move(text)
                moves.append(move.origin << MOVE_SHIFT | move.target)
                game.play(move)
                if not game.is_over:
                    starts.append((list(game.board.cells), game.board.turn))
        except TaflError:
            pass
        games.append(moves)
    return games, starts


def show(label: str, report: Agreement, seconds: float) -> None:
    """One line of what a comparison covered."""
    endings = ", ".join(f"{name} {count}" for name, count in sorted(report.endings.items()))
    print(
        f"{label:<34}{report.positions:>8} positions {report.moves:>8} moves "
        f"{report.captures:>7} capturing {report.shieldwalls:>4} shieldwalls "
        f"({endings or 'no ending'}) in {seconds:.1f} s"
    )


def boards(positions: int, record_limit: int | None) -> Agreement:
    """Random games of every variant, then the recorded games; prints each part."""
    total = Agreement()
    games, starts = recorded_games(record_limit)
    share = positions // len(VARIANTS)
    for number, (name, variant) in enumerate(VARIANTS.items()):
        started = time.perf_counter()
        if name == "copenhagen":
            report = random_games(variant, share // 2, seed=number)
            report.add(random_games(variant, share - share // 2, seed=number, starts=starts))
        else:
            report = random_games(variant, share, seed=number)
        show(f"{name}, random games", report, time.perf_counter() - started)
        total.add(report)
    started = time.perf_counter()
    report = replayed_games(get_variant("copenhagen"), games, "recorded game")
    show(f"copenhagen, {len(games)} recorded games", report, time.perf_counter() - started)
    total.add(report)
    return total


def searches(per_variant: int) -> list[str]:
    """Fixed-depth searches of random positions of every variant on both builds; prints a line
    per variant and returns the differences."""
    found: list[str] = []
    for number, name in enumerate(VARIANTS):
        depth = 3 if name == "copenhagen" else 4
        started = time.perf_counter()
        nodes = 0
        differing = 0
        for index in range(per_variant):
            plies = 6 + 9 * index
            board, history = random_position(name, plies, seed=1000 * number + index)
            case = SearchCase(f"{name} after {plies} random plies", board, depth, history=history)
            fast = run(case, True)
            different = differences(case, run(case, False), fast)
            differing += bool(different)
            found += different
            nodes += fast[0][3]
        print(
            f"{name:<15} {per_variant} searches to depth {depth}: {nodes:>9} nodes, "
            f"{'the same on both builds' if not differing else f'{differing} DIFFERENT'} "
            f"({time.perf_counter() - started:.1f} s)"
        )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns the exit status."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=POSITIONS,
        help=f"positions of random games in all (default {POSITIONS:,})",
    )
    parser.add_argument(
        "--searches",
        type=int,
        default=SEARCHES_PER_VARIANT,
        help=f"searches per variant (default {SEARCHES_PER_VARIANT})",
    )
    parser.add_argument("--smoke", action="store_true", help="a quick check that it works")
    args = parser.parse_args(argv)
    print(f"$ python benchmarks/agreement.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(f"engine and search: {native.describe()}")
    if not native.in_use():
        if args.smoke:  # nothing to compare here; the smoke judges that the benchmark runs
            print("the fast core is not in use: nothing to compare")
            return 0
        print(f"BAD the fast core is not in use: {native.states()}")
        return 2
    positions = SMOKE_POSITIONS if args.smoke else args.positions
    started = time.perf_counter()
    report = boards(positions, SMOKE_RECORDS if args.smoke else None)
    show("all", report, time.perf_counter() - started)
    differences = report.differences + searches(SMOKE_SEARCHES if args.smoke else args.searches)
    for text in differences:
        print(f"BAD {text}")
    print(
        "the fast core agrees with the Python reference"
        if not differences
        else f"{len(differences)} differences"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
