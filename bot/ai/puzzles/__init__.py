"""Puzzles: positions with a single forced win, proven by search, and a checker to solve them.

- :func:`prove` / :func:`examine` turn a position into a :class:`Puzzle` (or say why not);
- :meth:`Puzzle.answer` judges a player's move: the reply to show, or a hint and a refutation;
- :func:`load_starter_set` reads the shipped set (``assets/puzzles/``);
- ``python -m bot.ai.puzzles generate|verify|show`` mines, re-proves and prints puzzles.
"""

from .proof import ProofBudgetExceeded, Prover
from .puzzle import (
    MAX_LENGTH,
    REASONS,
    Puzzle,
    PuzzleError,
    Rejection,
    Solution,
    Verdict,
    examine,
    prove,
    puzzle_id,
)
from .starter import STARTER_DIR, load_starter_set, read_puzzles, write_puzzles

__all__ = [
    "MAX_LENGTH",
    "REASONS",
    "STARTER_DIR",
    "ProofBudgetExceeded",
    "Prover",
    "Puzzle",
    "PuzzleError",
    "Rejection",
    "Solution",
    "Verdict",
    "examine",
    "load_starter_set",
    "prove",
    "puzzle_id",
    "read_puzzles",
    "write_puzzles",
]
