"""Perft from every variant's start position against the ground truth in RULES.md."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.engine import VARIANTS, Board
from bot.engine.perft import perft

# (variant, depth) -> (leaves, capturing leaves); RULES.md "Ground truth".
GROUND_TRUTH = {
    ("tablut", 1): (80, 0),
    ("tablut", 2): (4_400, 24),
    ("tablut", 3): (353_200, 4_640),
    ("tablut-ashton", 1): (56, 0),
    ("tablut-ashton", 2): (4_408, 72),
    ("tablut-ashton", 3): (248_456, 4_368),
    ("tablut-corner", 1): (56, 0),
    ("tablut-corner", 2): (3_968, 40),
    ("tablut-corner", 3): (225_224, 2_552),
    ("tablut-unarmed", 1): (72, 0),
    ("tablut-unarmed", 2): (3_944, 40),
    ("tablut-unarmed", 3): (285_728, 4_336),
    ("brandubh", 1): (40, 0),
    ("brandubh", 2): (960, 16),
    ("brandubh", 3): (39_512, 568),
    ("brandubh", 4): (1_007_392, 47_104),
    ("fidchell", 1): (48, 0),
    ("fidchell", 2): (408, 0),
    ("fidchell", 3): (18_528, 704),
    ("fidchell", 4): (244_192, 12_864),
}

# Leaf counts only (bulk counting is fast enough for these in a unit test).
DEEP_LEAVES = {
    ("tablut-corner", 4): 16_170_968,
    ("tablut-ashton", 4): 19_159_224,
    ("fidchell", 5): 10_907_960,
}


@pytest.mark.parametrize(("variant", "depth"), sorted(GROUND_TRUTH))
def test_perft_and_capturing_leaves_match_rules_md(variant: str, depth: int) -> None:
    leaves, captures = GROUND_TRUTH[variant, depth]
    result = perft(Board(VARIANTS[variant]), depth, captures=True)
    assert (result.leaves, result.captures) == (leaves, captures)


@pytest.mark.parametrize(("variant", "depth"), sorted(DEEP_LEAVES))
def test_deeper_perft_leaf_counts_match_rules_md(variant: str, depth: int) -> None:
    assert Board(VARIANTS[variant]).perft(depth) == DEEP_LEAVES[variant, depth]


def test_every_variant_has_ground_truth() -> None:
    assert {variant for variant, _ in GROUND_TRUTH} == set(VARIANTS)


def test_divide_sums_to_the_total_and_lists_every_first_move() -> None:
    board = Board(VARIANTS["brandubh"])
    result = perft(board, 3, divide=True, captures=True)
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
