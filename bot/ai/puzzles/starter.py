"""The shipped starter set: ``assets/puzzles/<variant>.jsonl``, one puzzle per line."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from bot.engine.variants import VARIANTS

from .puzzle import Puzzle, PuzzleError

STARTER_DIR = Path(__file__).resolve().parents[3] / "assets" / "puzzles"
"""Where the starter set lives (``assets/`` beside the ``bot`` package, as the fonts do)."""


def read_puzzles(path: Path) -> list[Puzzle]:
    """The puzzles of one JSON Lines file; a bad line raises :class:`PuzzleError` naming it."""
    puzzles = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            puzzles.append(Puzzle.from_json(json.loads(line)))
        except (ValueError, PuzzleError) as error:
            raise PuzzleError(f"{path.name} line {number}: {error}") from None
    return puzzles


def write_puzzles(path: Path, puzzles: Iterable[Puzzle]) -> None:
    """Write ``puzzles`` as JSON Lines (compact, one puzzle a line, so diffs stay readable)."""
    lines = [p.to_text() for p in puzzles]
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    temporary.replace(path)


def starter_files(directory: Path = STARTER_DIR) -> list[Path]:
    """The starter set's files, in the engine's order of variants: ``<variant>.jsonl``, then
    any later batches of the same variant (``<variant>.2.jsonl``, ...)."""
    order = {name: index for index, name in enumerate(VARIANTS)}
    files = sorted(directory.glob("*.jsonl"))

    def key(path: Path) -> tuple[int, int, str]:
        variant, _, batch = path.name.removesuffix(".jsonl").partition(".")
        return (order.get(variant, len(order)), int(batch) if batch.isdigit() else 1, path.name)

    return sorted(files, key=key)


def load_starter_set(directory: Path = STARTER_DIR) -> list[Puzzle]:
    """Every puzzle shipped in ``assets/puzzles/``, variant by variant."""
    return [puzzle for path in starter_files(directory) for puzzle in read_puzzles(path)]
