"""Perft from every variant's start position against the ground truth in docs/RULES.md."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import VARIANTS, Board, core
from bot.engine.perft import PUBLISHED, perft

# Rows cheap enough for a unit test; every row runs in benchmarks/perft.py --all.
FAST = sorted(key for key, (leaves, _) in PUBLISHED.items() if leaves <= 1_100_000)
DEEP_LEAVES = [("tablut-corner", 4), ("tablut-ashton", 4), ("fidchell", 5)]


CORES = [
    pytest.param(False, id="python"),
    pytest.param(
        True,
        id="fast",
        marks=pytest.mark.skipif(
            core.extension() is None, reason=f"the fast core is not in use ({core.state()})"
        ),
    ),
]
"""The Python engine (the reference) and the fast core (in CI it must be built:
``tests/test_native.py``)."""


@pytest.mark.parametrize("fast", CORES)
@pytest.mark.parametrize(("variant", "depth"), FAST)
def test_perft_and_capturing_leaves_match_rules_md(variant: str, depth: int, fast: bool) -> None:
    leaves, captures = PUBLISHED[variant, depth]
    result = perft(Board(VARIANTS[variant]), depth, captures=True, fast=fast)
    assert (result.leaves, result.captures) == (leaves, captures)


@pytest.mark.parametrize(("variant", "depth"), DEEP_LEAVES)
def test_deeper_perft_leaf_counts_match_rules_md(variant: str, depth: int) -> None:
    assert Board(VARIANTS[variant]).perft(depth) == PUBLISHED[variant, depth][0]


@pytest.mark.skipif(core.extension() is None, reason="the fast core is not in use")
def test_every_ground_truth_row_on_the_fast_core() -> None:
    # Every row of RULES.md, the deepest ones included (a second on the fast core).
    for (variant, depth), expected in PUBLISHED.items():
        result = perft(Board(VARIANTS[variant]), depth, captures=True, fast=True)
        assert (result.leaves, result.captures) == expected, (variant, depth)


def test_every_variant_has_ground_truth() -> None:
    assert {variant for variant, _ in FAST} == set(VARIANTS)


def test_divide_sums_to_the_total_and_lists_every_first_move() -> None:
    board = Board(VARIANTS["brandubh"])
    result = perft(board, 3, divide=True, captures=True, fast=False)
    assert len(result.divide) == 40
    assert sum(count for _, count in result.divide) == result.leaves == 39_512
    assert result.captures == 568


def test_perft_leaves_the_board_unchanged() -> None:
    board = Board(VARIANTS["tablut"])
    before = (list(board.cells), board.hash, board.turn)
    board.perft(3)
    assert (board.cells, board.hash, board.turn) == before


def test_perft_command_line_prints_counts() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bot.engine", "perft", "brandubh", "2", "--captures"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "960 captures 16"
    divide = subprocess.run(
        [sys.executable, "-m", "bot.engine", "perft", "fidchell", "2", "--divide"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert divide[-1] == "408"
    assert len([line for line in divide if "-" in line]) == 48


def test_perft_command_line_rejects_unknown_variant() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot.engine", "perft", "chess", "2"],
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert "'chess' is not a variant" in run.stderr


def test_the_published_counts_are_the_rules_documents_own() -> None:
    """``PUBLISHED`` is the perft table of docs/RULES.md, not a copy that could drift."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "RULES.md").read_text()
    table: dict[tuple[str, int], tuple[int, int]] = {}
    for line in text.splitlines():
        row = re.fullmatch(r"\| `([a-z-]+)` \|(.*)\|", line)
        if row is None or not re.search(r"\d", row.group(2).split("|")[0]):
            continue
        for depth, cell in enumerate(row.group(2).split("|"), start=1):
            figures = re.fullmatch(r"\s*([\d,]+)(?: \(([\d,]+)\))?\s*", cell)
            if figures is not None:
                captures = int((figures.group(2) or "0").replace(",", ""))
                table[row.group(1), depth] = (int(figures.group(1).replace(",", "")), captures)
    assert table == PUBLISHED
