"""The puzzle generator and checker on the command line.

    python -m bot.ai.puzzles generate --variant tablut --count 30 --seed 1 --out tablut.jsonl
    python -m bot.ai.puzzles generate --variant copenhagen --count 30 --seed 1 \\
        --source csv tests/data/copenhagen-games.csv --out copenhagen.jsonl
    python -m bot.ai.puzzles verify [FILE ...] [--reference] [--exhaustive]   # re-prove
    python -m bot.ai.puzzles show FILE [ID ...]                  # boards and main lines
    python -m bot.ai.puzzles prove fidchell [--moves "g3-g2 c5-c6"] [--max-length 6]

``generate`` mines self-play games of the AI's weaker levels (or a CSV of recorded games),
keeps the positions where a short search sees a forced win, proves each exactly and writes the
puzzles as JSON Lines. The same arguments give the same file. (The games people played on
the bot are mined by ``python -m bot.tools puzzles DATABASE``, which reads its database.)
``verify`` proves every puzzle again from its position and fails unless the proof gives the
same puzzle. Proofs run on the fast core's board when it is built; ``--reference`` runs them on
the Python engine, the reference (``--exhaustive`` there plays every move for the wins at once).
``prove`` asks the same exact search whether the side to move in a variant's start position (or
after some moves) forces a win, in how few of its moves, and with which first move.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import fields
from enum import Enum
from pathlib import Path

from bot.engine.board import Board
from bot.engine.errors import TaflError
from bot.engine.game import Game
from bot.engine.types import Piece
from bot.engine.variants import VARIANTS, get_variant

from ..player import move_text
from .hints import Hint
from .mining import Tally, mine, recorded_games, self_play_games
from .proof import Prover
from .puzzle import MAX_LENGTH, Puzzle, Rejection, examine
from .starter import load_starter_set, read_puzzles, write_puzzles


def _per_length(text: str | None) -> dict[int, int] | None:
    if not text:
        return None
    caps = {}
    for item in text.split(","):
        length, _, cap = item.partition(":")
        caps[int(length)] = int(cap)
    return caps


def _generate(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    kind, *rest = args.source
    tally = Tally()
    if kind == "selfplay" and not rest:
        games = self_play_games(variant, args.seed, tally)
        last_plies = args.last_plies
    elif kind == "csv" and len(rest) == 1:
        games = recorded_games(Path(rest[0]), variant, args.seed, tally, skip=args.skip_games)
        last_plies = args.last_plies if args.last_plies is not None else 24
    else:
        print("--source is 'selfplay' or 'csv PATH'", file=sys.stderr)
        return 2
    out = Path(args.out)
    partial = out.with_name(out.name + ".partial")
    partial.write_text("", encoding="utf-8")

    def keep(puzzle: Puzzle) -> None:
        # Each puzzle as it is found: a run stopped early leaves the first K puzzles, the
        # very file the same command with ``--count K`` writes.
        with partial.open("a", encoding="utf-8") as stream:
            stream.write(puzzle.to_text() + "\n")

    puzzles = mine(
        games,
        tally,
        args.count,
        search_depth=args.search_depth,
        max_length=args.max_length,
        last_plies=last_plies,
        per_length=_per_length(args.per_length),
        max_games=args.max_games,
        exclude={p.id for path in args.exclude for p in read_puzzles(Path(path))},
        verbose=args.verbose,
        on_puzzle=keep,
    )
    write_puzzles(out, puzzles)
    partial.unlink()
    print(f"wrote {len(puzzles)} puzzles to {args.out}")
    return 0 if len(puzzles) >= args.count else 1


def _verify(args: argparse.Namespace) -> int:
    puzzles = (
        [p for path in args.files for p in read_puzzles(Path(path))]
        if args.files
        else load_starter_set()
    )
    started = time.perf_counter()
    failures = 0
    for index, puzzle in enumerate(puzzles, start=1):
        variant = get_variant(puzzle.variant)
        # A fresh prover for each puzzle: its tables are dropped with it (kept for the whole
        # set they passed 10 GB), and with no budget a proof does not depend on them.
        prover = Prover(variant, exhaustive=args.exhaustive, reference=args.reference)
        again = examine(
            variant,
            puzzle.position,
            puzzle.to_move,
            MAX_LENGTH,
            source=puzzle.source,
            prover=prover,
        )
        if again != puzzle:
            failures += 1
            why = again.reason if isinstance(again, Rejection) else "a different puzzle"
            print(f"MISMATCH {puzzle.id}: {why}", flush=True)
        elif args.verbose:
            print(f"ok {puzzle.id}", flush=True)
        if index % 25 == 0:
            print(f"[{time.perf_counter() - started:5.0f}s] {index}/{len(puzzles)}", flush=True)
    engine = Prover(get_variant("tablut"), reference=args.reference).engine
    if engine == "fast":
        how = "fast core"
    else:
        how = "Python engine, " + ("every move played" if args.exhaustive else "fast wins")
    print(
        f"{len(puzzles) - failures} of {len(puzzles)} puzzles proved again ({how}) in "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 1 if failures else 0


def _prove(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    game = Game(variant.name)
    for number, text in enumerate(args.moves.split(), start=1):
        try:
            game.play(text)
        except TaflError as error:
            print(f"move {number} of --moves: {error}", file=sys.stderr)
            return 2
    if game.is_over:
        print(f"the game is over after these moves: {game.outcome}", file=sys.stderr)
        return 2
    side = game.turn.value
    prover = Prover(variant, exhaustive=args.exhaustive, reference=args.reference)
    board = prover.board_for(Board(variant, list(game.board.cells), game.board.turn))
    started = time.perf_counter()
    length = prover.shortest_win(board, args.max_length)
    if not length:
        print(
            f"{variant.name}: the {side} to move have no forced win within {args.max_length} "
            f"of their moves ({prover.nodes:,} positions, {time.perf_counter() - started:.0f} s)"
        )
        return 1
    move = prover.winning_move(board, length)
    plies = 2 * length - 1
    assert move is not None  # the proof above found one
    print(
        f"{variant.name}: the {side} to move force a win within {length} of their moves "
        f"({plies} {'ply' if plies == 1 else 'plies'}), for one starting with "
        f"{move_text(move, variant.size)} "
        f"({prover.nodes:,} positions, {time.perf_counter() - started:.0f} s, {prover.engine})"
    )
    return 0


_MARKS = {Piece.EMPTY: ".", Piece.ATTACKER: "a", Piece.DEFENDER: "d", Piece.KING: "K"}


def board_text(game: Game) -> str:
    """The position as text, the last rank on top (``a`` attackers, ``d`` defenders)."""
    n = game.size
    cells = game.cells
    rows = []
    for rank in range(n - 1, -1, -1):
        marks = " ".join(_MARKS[cells[rank * n + file]] for file in range(n))
        rows.append(f"{rank + 1:>2} {marks}")
    rows.append("   " + " ".join("abcdefghijklmnopqrs"[:n]))
    return "\n".join(rows)


def _data(hint: Hint) -> str:
    """A hint as its data (the bot words hints where it shows them): ``PieceHint(piece=king,
    square=e7)``."""
    shown = []
    for item in fields(hint):
        value = getattr(hint, item.name)
        if isinstance(value, Enum):
            value = value.name.lower() if isinstance(value, Piece) else value.value
        shown.append(f"{item.name}={value}")
    return f"{type(hint).__name__}({', '.join(shown)})"


def _show(args: argparse.Namespace) -> int:
    puzzles = read_puzzles(Path(args.file))
    wanted = set(args.ids)
    for puzzle in puzzles:
        if wanted and puzzle.id not in wanted:
            continue
        task = puzzle.task
        print(
            f"{puzzle.id}  {task.side.value} to win in {task.length}"
            f"  ({puzzle.goal.value}, rating {puzzle.rating})"
        )
        print(f"  from {puzzle.source}")
        print(board_text(puzzle.game()))
        print("  " + " ".join(puzzle.main_line()))
        print("  hints: " + " / ".join(map(_data, puzzle.hints())))
        print()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.ai.puzzles",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="mine and prove puzzles")
    gen.add_argument("--variant", required=True)
    gen.add_argument("--count", type=int, required=True)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--source", nargs="+", default=["selfplay"], metavar="KIND",
                     help="'selfplay' (default) or 'csv PATH'")  # fmt: skip
    gen.add_argument("--out", required=True)
    gen.add_argument("--max-length", type=int, default=MAX_LENGTH)
    gen.add_argument("--search-depth", type=int, default=2,
                     help="plies of the search that picks candidates")  # fmt: skip
    gen.add_argument("--per-length", help="caps by length, e.g. 1:8,2:12,3:10")
    gen.add_argument("--last-plies", type=int,
                     help="look only this close to each game's end (csv default 24)")  # fmt: skip
    gen.add_argument("--max-games", type=int, help="stop after this many games")
    gen.add_argument("--skip-games", type=int, default=0,
                     help="csv: leave out the first N games of the seed's order")  # fmt: skip
    gen.add_argument("--exclude", nargs="+", default=[], metavar="FILE",
                     help="skip the puzzles of these files (a set already shipped)")  # fmt: skip
    gen.add_argument("--verbose", action="store_true", help="print every rejection")
    check = commands.add_parser("verify", help="prove puzzles again")
    check.add_argument("files", nargs="*", help="JSON Lines files (default: the starter set)")
    check.add_argument("--reference", action="store_true",
                       help="prove on the Python engine, not the fast core (slower)")  # fmt: skip
    check.add_argument("--exhaustive", action="store_true",
                       help="with --reference: play every move to find wins at once")  # fmt: skip
    check.add_argument("--verbose", action="store_true")
    prove = commands.add_parser("prove", help="whether the side to move forces a win")
    prove.add_argument("variant", choices=VARIANTS)
    prove.add_argument("--moves", default="", help="moves played first, e.g. 'g3-g2 c5-c6'")
    prove.add_argument("--max-length", type=int, default=MAX_LENGTH,
                       help="the most moves of the side to move to look for")  # fmt: skip
    prove.add_argument("--reference", action="store_true",
                       help="prove on the Python engine, not the fast core (slower)")  # fmt: skip
    prove.add_argument("--exhaustive", action="store_true",
                       help="with --reference: play every move to find wins at once")  # fmt: skip
    show = commands.add_parser("show", help="print puzzles with their boards and solutions")
    show.add_argument("file")
    show.add_argument("ids", nargs="*")
    args = parser.parse_args(argv)
    if args.command == "generate":
        return _generate(args)
    if args.command == "verify":
        return _verify(args)
    if args.command == "prove":
        return _prove(args)
    return _show(args)


if __name__ == "__main__":
    sys.exit(main())
